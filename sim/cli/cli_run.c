/* cli_run.c - `warpsim run`. */
#include "cli/cli_run.h"
#include "sass/sassprog.h"

#include "cli/cli.h"
#include "cli/cli_row.h"
#include "core/sched.h"
#include "input/config.h"
#include "input/paths.h"
#include "input/readfile.h"
#include "report/profile.h"
#include "report/profile_agree.h"
#include "report/profile_anchor.h"
#include "run/launch.h"
#include "run/rates.h"
#include "run/sim.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The options of one invocation. */
typedef struct {
  gchar **sets;  /* --set group.key=value, NULL-terminated */
  gchar *model;  /* --model */
  gchar *kernel; /* --kernel */
  gchar *format; /* --format */
  gchar *policy; /* --policy; NULL: the model's */
  gboolean no_header;
  gboolean help_keys;
  gboolean comments;
  gboolean no_whatif;
  gboolean no_anchor;
  gchar *units;      /* --units: "sm" (NULL) or "device" */
  gchar *max_cycles; /* --max-cycles; NULL: RUN_MAX_CYCLES_DEFAULT */
  gchar *timeout;    /* --timeout; NULL: RUN_TIMEOUT_DEFAULT */
  gchar *points;     /* --points FILE; NULL: one run */
} RunOptions;

/* Bounds on one `warpsim run` (main run and what-ifs): far above any run the
 * main job or a sweep makes (milliseconds to seconds; 1e10 cycles are 5 s of
 * H200 time on one SM), far below a run that would take hours. */
#define RUN_MAX_CYCLES_DEFAULT "10000000000"
#define RUN_TIMEOUT_DEFAULT "600"

static void run_options_clear(RunOptions *o) {
  g_strfreev(o->sets);
  g_free(o->model);
  g_free(o->kernel);
  g_free(o->format);
  g_free(o->policy);
  g_free(o->units);
  g_free(o->max_cycles);
  g_free(o->timeout);
  g_free(o->points);
}

static const gchar run_description[] =
    "Prints one result: text (default: an Nsight Compute-style report with Speed Of "
    "Light,\nScheduler, Warp State, Occupancy and Launch sections, the rules that fire and "
    "a what-if\nsimulation of their advice), one CSV row (with header unless --no-header) "
    "or a JSON object\n(the row plus a \"profile\" member holding the report).\n"
    "Rates are per SM per cycle: ipc = warp instructions, fma_per_cycle = warp FFMAs,\n"
    "bytes_per_cycle = global-load bytes (stores not counted). stall_<state> columns are "
    "warp cycles per issued\ninstruction in each Nsight Compute warp state.\n\n"
    "Bounds: --max-cycles and --timeout stop a run a typo made hours long (their defaults are\n"
    "far above any sweep's runs); a run over one exits 3 with one line naming it, and\n"
    "nothing on stdout. --timeout is one deadline for the whole invocation: with --points,\n"
    "for all its points together, not for each.\n"
    "Exit status: 0 ok, 1 internal error, 2 bad input, 3 over a bound.\n\n"
    "Example:\n  warpsim run --kernel fma --set stream.ilp=4 --set "
    "launch.blocks_per_sm=2 --format csv\n";

static GOptionContext *run_context(RunOptions *o) {
  const GOptionEntry entries[] = {
      {"model", 'm', 0, G_OPTION_ARG_FILENAME, &o->model,
       "SM model: a name (see 'warpsim models'), a compute capability, or a path (default h200)",
       "M"},
      {"kernel", 'k', 0, G_OPTION_ARG_FILENAME, &o->kernel,
       "kernel file: a path, or a name in traces/ (fma, chase, stream, ...)", "K"},
      {"set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &o->sets,
       "override a kernel or model key, e.g. stream.ilp=4 or dram.latency=800 (repeatable)",
       "GROUP.KEY=VALUE"},
      {"policy", 'p', 0, G_OPTION_ARG_STRING, &o->policy,
       "warp-scheduler policy: gto, lrr, oldest, grr, two_level or oldest_group (default: the "
       "model's)",
       "P"},
      {"format", 'f', 0, G_OPTION_ARG_STRING, &o->format,
       "output: text, csv or json (default text; csv with --points)", "F"},
      {"no-header", 0, 0, G_OPTION_ARG_NONE, &o->no_header,
       "CSV without the header row (to append rows in a loop)", NULL},
      {"config-comments", 0, 0, G_OPTION_ARG_NONE, &o->comments,
       "CSV: precede the header with '# ' lines holding the effective model and kernel", NULL},
      {"no-whatif", 0, 0, G_OPTION_ARG_NONE, &o->no_whatif,
       "text/json: skip the extra simulations that try a rule's advice (more occupancy or ILP)",
       NULL},
      {"no-anchor", 0, 0, G_OPTION_ARG_NONE, &o->no_anchor,
       "SASS with a details export: simulate with the pure model, not the one anchored at the "
       "profiled launch (doc/profile_agreement.md); without a profile a note says it changes "
       "nothing",
       NULL},
      {"units", 'u', 0, G_OPTION_ARG_STRING, &o->units,
       "sm (default: rates per SM per cycle) or device: add the whole GPU's rates (GB/s, "
       "TFLOP/s, instructions/s) from the model's [sm] sms and clock_mhz",
       "U"},
      {"max-cycles", 0, 0, G_OPTION_ARG_STRING, &o->max_cycles,
       "stop (exit 3) a simulation past N cycles; 0 = no bound (default " RUN_MAX_CYCLES_DEFAULT
       ", 5 s of H200 time)",
       "N"},
      {"timeout", 0, 0, G_OPTION_ARG_STRING, &o->timeout,
       "stop (exit 3) after S seconds of wall time, what-ifs included, one deadline for all "
       "the points of --points together; 0 = none (default " RUN_TIMEOUT_DEFAULT ")",
       "S"},
      {"points", 0, 0, G_OPTION_ARG_FILENAME, &o->points,
       "CSV (the default and only format here): one row per line of FILE, each line "
       "launch.KEY=VALUE words beside the --set ones "
       "(a key set once in all; the points of one curve; the profiled launch simulated once; "
       "FILE at most 16 MiB)",
       "FILE"},
      {"help-keys", 0, 0, G_OPTION_ARG_NONE, &o->help_keys,
       "list every kernel and model key with its range, unit and meaning", NULL},
      G_OPTION_ENTRY_NULL};
  GOptionContext *ctx = g_option_context_new("- simulate one kernel on one SM");
  g_option_context_add_main_entries(ctx, entries, NULL);
  g_option_context_set_description(ctx, run_description);
  return ctx;
}

/* Every key, then the values and provenance of the model `model_spec`. */
/* FALSE with the model's error (nothing printed) when --model does not
 * load: a path that is no model is bad input, not a list without its
 * values. */
static gboolean print_help_keys(const gchar *model_spec, GError **error) {
  g_autoptr(SmModel) shown = model_load(model_spec, NULL, error);
  if (shown == NULL)
    return FALSE;
  g_autoptr(GString) out = g_string_new("kernel keys ([launch], [stream]):\n");
  kernel_describe(out);
  g_string_append_printf(
      out,
      "\nmodel keys (default = built in, used where a model file leaves the key out;"
      "\n%s's own values are listed after these):\n",
      shown->name);
  model_describe(out);
  g_string_append_printf(out, "\nvalues and provenance (KEY.source) of model %s:\n", shown->name);
  model_dump(shown, out, "  ");
  fputs(out->str, stdout);
  return TRUE;
}

/* The "is ..." of a bound's refusal: `why` (config_parse_*_why, or "out of
 * range") with the allowed `range` inside its parentheses ("is out of range
 * (overflow; allowed ...)"), or `not_what` with the range after it. */
static gchar *bound_why(const gchar *why, const gchar *not_what, const gchar *range) {
  if (!g_str_has_prefix(why, "out of range"))
    return g_strdup_printf("is %s (allowed %s)", not_what, range);
  const gchar *paren = strchr(why, '(');
  if (paren == NULL)
    return g_strdup_printf("is out of range (allowed %s)", range);
  return g_strdup_printf("is out of range (%.*s; allowed %s)", (int)strcspn(paren + 1, ")"),
                         paren + 1, range);
}

/* --max-cycles and --timeout into `opt` (the timeout as a deadline from now:
 * one for the whole invocation, every point of --points together);
 * FALSE with CLI_ERROR_USAGE naming the option. */
static gboolean parse_bounds(const RunOptions *o, SimOptions *opt, gdouble *timeout_s,
                             GError **error) {
  const gchar *max_cycles = o->max_cycles ? o->max_cycles : RUN_MAX_CYCLES_DEFAULT;
  const gchar *timeout = o->timeout ? o->timeout : RUN_TIMEOUT_DEFAULT;
  guint64 cycles = 0;
  const gchar *why = config_parse_uint_why(max_cycles, &cycles);
  if (why != NULL) {
    g_autofree gchar *is = bound_why(why, "not a whole number of cycles", "0..2^64-1 cycles");
    g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE, "--max-cycles: '%s' %s", max_cycles, is);
    return FALSE;
  }
  gdouble s = 0.0;
  why = config_parse_double_why(timeout, &s);
  if (why == NULL && !(s >= 0.0 && s <= 1e7))
    why = "out of range";
  if (why != NULL) {
    g_autofree gchar *is = bound_why(why, "not a number of seconds", "0..1e7 seconds, 0 = none");
    g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE, "--timeout: '%s' %s", timeout, is);
    return FALSE;
  }
  opt->max_cycles = cycles;
  opt->deadline_us = s > 0.0 ? g_get_monotonic_time() + (gint64)(s * 1e6) : 0;
  *timeout_s = s;
  return TRUE;
}

/* A run over a bound: one line naming the option (the code stays SIM_ERROR_BOUND). */
static void name_bound(const RunOptions *o, GError *error) {
  gboolean cycles = g_str_has_prefix(error->message, "max_cycles: ");
  gchar *msg = g_strdup_printf("over --%s %s%s: %s (raise it; 0 = no bound)",
                               cycles ? "max-cycles" : "timeout",
                               cycles ? (o->max_cycles ? o->max_cycles : RUN_MAX_CYCLES_DEFAULT)
                                      : (o->timeout ? o->timeout : RUN_TIMEOUT_DEFAULT),
                               cycles      ? " cycles"
                               : o->points ? " s, all the points together"
                                           : " s",
                               strchr(error->message, ' ') + 1);
  g_free(error->message);
  error->message = msg;
}

/* About 100 M warp instructions per second on synthetic kernels, 10 M on
 * SASS kernels (scripts/bench.sh: 105 M for fma; 7-18 M for the six SASS
 * kernels): say so before a run that takes a minute or more, so a typo is
 * not mistaken for a hang.  The what-ifs (text and JSON) run up to two more
 * simulations of at most twice the work each (twice the CTAs or twice the
 * chains): counted as 4x. */
static void warn_long_run(const SmModel *m, const Kernel *k, const SimPlan *plan, gboolean what_ifs,
                          const SimOptions *opt, gdouble timeout_s) {
  gdouble main_insts = sim_plan_estimate_insts(plan);
  gdouble insts = main_insts * (what_ifs ? 5.0 : 1.0);
  gdouble rate = k->sass ? 1e7 : 1e8; /* warp instructions per second */
  if (insts <= 60.0 * rate)
    return;
  /* The bound that ends it: a run needs at least main_insts / smsps cycles
   * (one issue per SMSP per cycle), and reaches --max-cycles within
   * max_cycles x smsps instructions' time. */
  gdouble min_cycles = main_insts / MAX(m->sm.smsps, 1u);
  gdouble cap_s = (gdouble)opt->max_cycles * MAX(m->sm.smsps, 1u) / rate;
  g_autofree gchar *bound = NULL;
  if (opt->max_cycles > 0 && min_cycles > (gdouble)opt->max_cycles &&
      (timeout_s <= 0.0 || cap_s < timeout_s))
    bound = g_strdup_printf("; --max-cycles %" G_GUINT64_FORMAT
                            " stops it first, within about %.2g s: it needs at least %.2g cycles",
                            opt->max_cycles, cap_s, min_cycles);
  else if (timeout_s > 0.0 && insts / rate > timeout_s)
    bound = g_strdup_printf("; --timeout stops it after %g s", timeout_s);
  fprintf(stderr,
          "warpsim: note: this run simulates about %.2g warp instructions%s (about %.0f s at ~%.0f "
          "million per second%s)\n",
          insts, what_ifs ? " with its what-ifs (--no-whatif or csv skips them)" : "", insts / rate,
          rate / 1e6, bound ? bound : "");
}

/* --units device: a per-SM-per-cycle rate x SMs x SM clock, every SM running
 * as the simulated one.  An FFMA is 2 FP32 FLOP per thread. */
typedef struct {
  gdouble gb_per_s;          /* global-load bytes (stores not counted), 10^9 per second */
  gdouble fp32_tflops;       /* 10^12 FP32 operations per second */
  gdouble warp_ginsts_per_s; /* 10^9 warp instructions per second */
} DeviceRates;

static DeviceRates device_rates(const SmModel *m, const SimResult *r) {
  gdouble cycles_per_s = (gdouble)m->sm.sms * m->clock_mhz * 1e6; /* all SMs */
  return (DeviceRates){
      .gb_per_s = sim_bytes_per_cycle(r) * cycles_per_s / 1e9,
      .fp32_tflops = sim_fma_per_cycle(r) * m->sm.warp_size * 2.0 * cycles_per_s / 1e12,
      .warp_ginsts_per_s = sim_ipc(r) * cycles_per_s / 1e9,
  };
}

static void add_device_columns(ReportRow *row, const SmModel *m, const SimResult *r) {
  DeviceRates d = device_rates(m, r);
  report_add_uint(row, "device_sms", m->sm.sms);
  report_add_double(row, "device_clock_mhz", m->clock_mhz, 1);
  report_add_double(row, "device_gb_per_s", d.gb_per_s, 1);
  report_add_double(row, "device_fp32_tflops", d.fp32_tflops, 3);
  report_add_double(row, "device_warp_ginsts_per_s", d.warp_ginsts_per_s, 2);
}

/* stream.ilp spreads FFMA, MUFU and LDS chains; on a kernel of loads only it
 * does nothing, so say so when it is set apart from stream.loads. */
static void warn_ilp(const Kernel *k, GPtrArray *lines) {
  if (k->loads > 0 && k->fma + k->sfu + k->lds == 0 && k->ilp > 1 && k->ilp != k->loads)
    g_ptr_array_add(lines,
                    g_strdup_printf("%s: stream.ilp=%u has no effect on this kernel (ILP spreads "
                                    "FFMA, MUFU and LDS chains; it has none); its loads in flight "
                                    "per warp are stream.loads=%u (CSV column loads_in_flight)",
                                    k->file, k->ilp, k->loads));
}

/* launch.blocks_per_sm is a cap: above what the occupancy limits allow it
 * changes nothing, so say what runs instead (sweeps drop the repeats).
 * Said before the run, so a sweep's checks (--max-cycles 1) see it. */
static void warn_blocks_cap(const SmModel *m, const Kernel *k, GPtrArray *lines) {
  OccLaunch l;
  OccResult occ;
  kernel_occ_launch(k, &l);
  if (k->blocks_per_sm == 0 || !occupancy_compute(&m->sm, &l, &occ, NULL) ||
      occ.blocks_per_sm == 0 || k->blocks_per_sm <= occ.blocks_per_sm)
    return;
  g_autoptr(GString) lim = g_string_new(NULL);
  occupancy_limiters_append(lim, occ.limiter_mask, ", ");
  g_ptr_array_add(lines, g_strdup_printf("%s: launch.blocks_per_sm=%u is above the %u CTAs/SM this "
                                         "launch allows (limited by %s; allowed 1..%u, or 0 = as "
                                         "many as fit): running %u",
                                         k->file, k->blocks_per_sm, occ.blocks_per_sm, lim->str,
                                         occ.blocks_per_sm, occ.blocks_per_sm));
}

/* A SASS kernel's CTAs of another size than the profiled launch's Block
 * Size (the details export; launch.threads_per_block is not read from it):
 * each warp still runs the profile's per-warp counts, measured in CTAs of
 * that size, so say so (the Agreement section simulates the profiled size). */
static void warn_block_size(const Kernel *k, GPtrArray *lines) {
  const NcuDetails *d = k->sass ? k->sass->details : NULL;
  if (d == NULL || d->block_size == 0 || d->block_size == k->threads_per_block)
    return;
  g_ptr_array_add(lines, g_strdup_printf("%s: launch.threads_per_block=%u is not the profiled "
                                         "launch's Block Size %u (%s): each warp runs the "
                                         "profile's per-warp counts of %u-thread CTAs",
                                         k->file, k->threads_per_block, d->block_size,
                                         k->sass_details, d->block_size));
}

/* stream.ilp spreads each of stream.fma, sfu and lds over its chains: past
 * the largest of them the extra chains are empty and the program is the
 * same, so say so. */
static void warn_ilp_empty_chains(const Kernel *k, GPtrArray *lines) {
  guint most = MAX(k->fma, MAX(k->sfu, k->lds));
  if (k->sass == NULL && most > 0 && k->ilp > most)
    g_ptr_array_add(lines, g_strdup_printf("%s: stream.ilp=%u is above the most instructions it "
                                           "spreads per iteration (stream.fma=%u, sfu=%u, lds=%u): "
                                           "chains past %u are empty, so ILP above %u changes "
                                           "nothing",
                                           k->file, k->ilp, k->fma, k->sfu, k->lds, most, most));
}

/* The anchor's state for the CSV: "applied", "dropped" (derived, then
 * refused by a check), "none" (not derived; --no-anchor included), "" for a
 * run without a details export; *detail what an applied anchor derives
 * ("memory_time_factor", or "l2.atomic_sectors_per_cycle" for the atomic
 * rate), else why there is none ("" without a details export). */
static const gchar *anchor_state(const ProfileAgreement *a, const ProfileAnchor *an,
                                 const gchar **detail) {
  *detail = "";
  if (!a->present)
    return "";
  if (an->applied || an->level) {
    *detail = an->level    ? "time_factor"
              : an->atomic ? "l2.atomic_sectors_per_cycle"
                           : "memory_time_factor";
    return "applied";
  }
  *detail = an->why != NULL ? an->why : "";
  return an->refused ? "dropped" : "none";
}

/* The agreement at the profiled launch: the profile's SM Active Cycles,
 * the cycles ratio (simulated / profiled SM active cycles, pure model;
 * empty without a details export), the metric that disagrees most ("-":
 * none), the anchor's memory time factor (empty: not anchored), and the
 * anchor's state and detail (anchor_state). */
static void add_agreement_columns(ReportRow *row, const ProfileAgreement *a,
                                  const ProfileAnchor *an) {
  gdouble prof = a->present ? a->profiled[AGREE_SM_ACTIVE_CYCLES] : NAN;
  if (isfinite(prof))
    report_add_double(row, "profile_sm_active_cycles", prof, 2);
  else
    report_add_str(row, "profile_sm_active_cycles", "");
  if (a->present && isfinite(a->cycles_ratio))
    report_add_double(row, "profile_cycles_ratio", a->cycles_ratio, 4);
  else
    report_add_str(row, "profile_cycles_ratio", "");
  report_add_str(row, "profile_worst_metric", a->present ? profile_agree_name(a->worst) : "");
  if (an->applied)
    report_add_double(row, "anchor_memory_time_factor", an->memory_factor, 4);
  else
    report_add_str(row, "anchor_memory_time_factor", "");
  const gchar *detail;
  report_add_str(row, "anchor", anchor_state(a, an, &detail));
  report_add_str(row, "anchor_detail", detail);
}

/* The text report: what ran, its headline rates, then the Nsight Compute-style
 * sections with their fired rules and what-ifs (profile.h). */
static void append_text_summary(const RunOptions *o, const SmModel *m, const Kernel *k,
                                const SimResult *r, const Profile *p, const ProfileAgreement *a,
                                const ProfileAnchor *an, GString *out) {
  const ProfileMetrics *pm = profile_metrics(p);
  g_autofree gchar *modified = model_modified_text(m, ", ");
  g_string_append_printf(out, "warpsim %s: kernel %s on %s%s%s%s (policy %s)\n", WARPSIM_VERSION,
                         k->name, m->name, *modified ? " (modified: " : "", modified,
                         *modified ? ")" : "", r->policy);
  if (an != NULL && an->applied && an->atomic)
    g_string_append_printf(out,
                           "  anchored at the profile: [l2] atomic_sectors_per_cycle %.4g (the "
                           "L2 atomic unit's rate on this kernel, from its SM Active Cycles; "
                           "the section \"Agreement with the profile\" shows the pure model; "
                           "--no-anchor runs it)\n",
                           an->atomic_rate);
  else if (an != NULL && an->level)
    g_string_append_printf(out,
                           "  anchored at the profile: time_factor %.4f (every cycle count of "
                           "the pure model's run x %.4f, its shape kept; the section \"Agreement "
                           "with the profile\" shows the pure model; --no-anchor runs it)\n",
                           an->time_factor, an->time_factor);
  else if (an != NULL && an->applied)
    g_string_append_printf(out,
                           "  anchored at the profile: memory_time_factor %.4f (L1/L2/DRAM "
                           "latencies x %.4f, L2/DRAM bandwidths / %.4f; the section \"Agreement "
                           "with the profile\" shows the pure model; --no-anchor runs it)\n",
                           an->memory_factor, an->memory_factor, an->memory_factor);
  g_string_append_printf(out,
                         "  launch: %u threads/CTA, %u regs/thread, %u CTAs/SM resident "
                         "(%u warps/SM, theoretical occupancy %.1f %%), %u CTA%s on this SM\n",
                         k->threads_per_block, r->regs_allocated, r->blocks_per_sm, r->warps_per_sm,
                         r->occupancy_pct, r->sm_blocks, r->sm_blocks == 1 ? "" : "s");
  g_autofree gchar *warning = launch_warning(m, k, r);
  if (*warning != '\0')
    g_string_append_printf(out, "  warning: %s\n", warning);
  if (r->n_loads == 2 && r->loads[1].blocks > 0)
    g_string_append_printf(out,
                           "  device: %u SMs run %u CTAs, %u SMs %u (both simulated): achieved "
                           "occupancy %.1f %% device-wide, %.1f %% on this SM\n",
                           r->loads[0].sms, r->loads[0].blocks, r->loads[1].sms, r->loads[1].blocks,
                           sim_achieved_occupancy_pct(r, m), sim_sm_achieved_occupancy_pct(r, m));
  g_string_append_printf(out,
                         "  result: %" G_GUINT64_FORMAT " cycles, IPC %.4f warp inst/cycle/SM, ",
                         r->st.cycles, sim_ipc(r));
  if (strcmp(pm->metric, "ipc") != 0) /* the headline metric, unless it is IPC itself */
    g_string_append_printf(out, "%s %.4f %s, ", pm->metric, pm->throughput, pm->metric_unit);
  g_string_append_printf(out, "issue active %.1f %%\n", 100.0 * sim_issue_active(r, m));
  if (o->units != NULL) {
    DeviceRates d = device_rates(m, r);
    g_string_append_printf(out,
                           "  device rates: %.1f GB/s global loads, %.3f TFLOP/s FP32 (FFMA = 2 "
                           "FLOP), %.2f G warp inst/s (%u SMs at %.0f MHz, each as this SM)\n",
                           d.gb_per_s, d.fp32_tflops, d.warp_ginsts_per_s, m->sm.sms, m->clock_mhz);
  }
  g_string_append_c(out, '\n');
  if (*modified)
    g_string_append_printf(out,
                           "  note: model %s is modified (%s): no measurement in the repository "
                           "validates these numbers\n\n",
                           m->name, modified);
  else if (!m->validated)
    g_string_append_printf(out,
                           "  note: the timing of model %s is from published figures (%s, each "
                           "key's .source), not validated against measurements here\n\n",
                           m->name, m->file);
  profile_append_text(p, out);
  if (a->present)
    profile_agree_append_text(a, out);
}

/* The CSV row, preceded by the effective configuration when asked (the
 * model simulated, `used`, and the anchor that made it from `pure`). */
static void append_csv(const RunOptions *o, const SmModel *used, const SmModel *pure,
                       const Kernel *k, const ProfileAnchor *an, const ReportRow *row,
                       GString *out) {
  if (o->comments) {
    g_string_append_printf(out, "# warpsim %s\n", WARPSIM_VERSION);
    /* the anchored keys' provenance is the anchor's, not the pure value's */
    g_auto(GStrv) sources = profile_anchor_sources(an, pure);
    model_dump_sources(used, (const gchar *const *)sources, out, "# ");
    kernel_dump(k, out, "# ");
    if (k->sass != NULL && k->sass_details != NULL && *k->sass_details != '\0')
      profile_anchor_append_text(an, pure, NULL, "# ", out);
  }
  if (!o->no_header)
    report_csv_header(row, out);
  report_csv_values(row, out);
}

/* A simulation's error with the option it passed named; `what` prefixes
 * the message (NULL: none).  Returns FALSE. */
static gboolean sim_failed(const RunOptions *o, const gchar *what, GError **error) {
  if (g_error_matches(*error, SIM_ERROR, SIM_ERROR_BOUND))
    name_bound(o, *error);
  if (what != NULL)
    g_prefix_error(error, "%s: ", what);
  return FALSE;
}

/* What the profile says about the run (report/profile_agree.h,
 * profile_anchor.h): the pure model's agreement at the profiled launch, the
 * anchor derived from it, and the anchored model's agreement there (text
 * and JSON only). */
typedef struct {
  ProfileAgreement pure;     /* the pure model at the profiled launch */
  ProfileAnchor anchor;      /* applied unless --no-anchor or nothing to anchor */
  ProfileAgreement anchored; /* the anchored model there (present: computed) */
} RunProfile;

/* The anchor's shape check (profile_anchor_check_shape): the profiled
 * launch with half, the same and twice its resident CTAs, with L2 as the
 * run's launches find it, on the pure and on the anchored model.  A launch
 * that cannot run (a simulation bound) leaves its doublings unchecked. */
static void anchor_check_shape(const SmModel *m, const Kernel *k, const SimOptions *opt,
                               ProfileAgreeMemo *memo, RunProfile *rp) {
  guint b = rp->pure.blocks_per_sm;
  guint blocks[3] = {b / 2, b, 2 * b};
  gdouble pure[3] = {NAN, NAN, NAN}, anchored[3] = {NAN, NAN, NAN};
  for (guint i = 0; i < 3; i++) {
    GError *err = NULL; /* a launch that cannot run (a bound) is not checked: NaN */
    if (blocks[i] == 0)
      continue;
    if (!profile_agree_cycles_at(m, k, opt, &rp->pure, blocks[i], memo, &pure[i], &err) ||
        !profile_agree_cycles_at(&rp->anchor.model, k, opt, &rp->pure, blocks[i], memo,
                                 &anchored[i], &err)) {
      pure[i] = anchored[i] = NAN;
      g_clear_error(&err);
    }
  }
  profile_anchor_check_shape(m, &rp->anchor, blocks, pure, anchored);
}

/* The pure agreement and the anchor, before the run (with --no-anchor the
 * agreement comes after it, from the run itself when its launch is the
 * profiled one). */
static gboolean anchor_before(const RunOptions *o, const SmModel *m, const Kernel *k,
                              const SimOptions *opt, ProfileAgreeMemo *memo, RunProfile *rp,
                              GError **error) {
  if (o->no_anchor) {
    profile_anchor_derive(m, &(ProfileAgreement){0}, &rp->anchor);
    rp->anchor.why = "--no-anchor";
    return TRUE;
  }
  if (!profile_agree(m, k, opt, NULL, memo, &rp->pure, error))
    return sim_failed(o, "the profiled launch", error);
  profile_anchor_derive(m, &rp->pure, &rp->anchor);
  if (rp->anchor.applied) { /* the first step's profiled launch, for the secant */
    if (!profile_agree(&rp->anchor.model, k, opt, NULL, memo, &rp->anchored, error))
      return sim_failed(o, "the profiled launch (anchored)", error);
    profile_anchor_refine(m, &rp->anchor, &rp->anchored);
    rp->anchored.present = FALSE;
    /* the final factor's profiled launch, for the checks (not needed at the clamp) */
    if (!rp->anchor.clamped &&
        !profile_agree(&rp->anchor.model, k, opt, NULL, memo, &rp->anchored, error))
      return sim_failed(o, "the profiled launch (anchored)", error);
    if (profile_anchor_check(m, &rp->anchor, &rp->pure, &rp->anchored))
      anchor_check_shape(m, k, opt, memo, rp);
    rp->anchored.present = FALSE;
  }
  profile_anchor_level(&rp->anchor, &rp->pure);
  return TRUE;
}

/* One warning line on stderr, unless `said` (NULL: every line is said)
 * holds it already: under --points a warning of the kernel (its listing,
 * its exports, the profiled launch, its [stream] keys) is the same at
 * every point and said once, at the first point that gives it. */
static void say_warning(GHashTable *said, const gchar *line) {
  if (said != NULL && !g_hash_table_add(said, g_strdup(line)))
    return;
  fprintf(stderr, "warpsim: warning: %s\n", line);
}

/* One note line on stderr ("warpsim: note: "), said once as say_warning
 * says a warning. */
static void say_note(GHashTable *said, const gchar *line) {
  g_autofree gchar *key = g_strconcat("note: ", line, NULL);
  if (said != NULL && !g_hash_table_add(said, g_steal_pointer(&key)))
    return;
  fprintf(stderr, "warpsim: note: %s\n", line);
}

static gboolean anchor_after(const RunOptions *o, CliFormat format, const SmModel *m,
                             const SmModel *used, const Kernel *k, const SimOptions *opt,
                             const SimResult *r, ProfileAgreeMemo *memo, RunProfile *rp,
                             GHashTable *said, GError **error) {
  if (o->no_anchor && !profile_agree(m, k, opt, r, memo, &rp->pure, error))
    return sim_failed(o, "the profiled launch", error);
  if (o->no_anchor && !rp->pure.present) { /* accepted, as sweeps pass it to every kernel */
    g_autofree gchar *note = g_strdup_printf(
        "--no-anchor: kernel %s has no profile (no [sass] details_csv), so there is nothing to "
        "anchor: the run is the same without it",
        k->name);
    say_note(said, note);
  }
  if (rp->anchor.applied && format != CLI_FORMAT_CSV &&
      !profile_agree(used, k, opt, r, memo, &rp->anchored, error))
    return sim_failed(o, "the profiled launch (anchored)", error);
  g_autofree gchar *warning =
      profile_agree_warning(&rp->pure, k->name, rp->anchor.applied || rp->anchor.level);
  g_autofree gchar *dropped = profile_anchor_warning(&rp->anchor);
  if (warning != NULL) {
    g_autofree gchar *line =
        g_strconcat(warning, dropped != NULL ? "; " : "", dropped != NULL ? dropped : "", NULL);
    say_warning(said, line);
  }
  return TRUE;
}

/* The text or JSON report of run `r` of `k` on `used` (the anchored model,
 * or `m`, the pure one). */
static void append_report(const RunOptions *o, CliFormat format, const SmModel *m,
                          const SmModel *used, const Kernel *k, const SimOptions *opt,
                          const SimResult *r, const RunProfile *rp, const ReportRow *row,
                          GString *out) {
  g_autoptr(Profile) p = profile_new(used, k, r);
  if (o->no_whatif)
    profile_skip_what_if(p);
  else
    profile_what_if(p, used, k, opt);
  const ProfileAgreement *anchored = rp->anchored.present ? &rp->anchored : NULL;
  if (format == CLI_FORMAT_JSON) {
    JsonNode *profile = profile_to_json(p);
    JsonObject *json = json_node_get_object(profile);
    json_object_set_boolean_member(json, "model_validated", used->validated);
    JsonArray *modified = json_array_new();
    for (guint i = 0; used->modified != NULL && used->modified[i] != NULL; i++)
      json_array_add_string_element(modified, used->modified[i]);
    json_object_set_array_member(json, "model_modified", modified);
    g_auto(GStrv) sources = profile_anchor_sources(&rp->anchor, m);
    json_object_set_member(json, "model_provenance",
                           model_sources_json(used, (const gchar *const *)sources));
    json_object_set_member(json, "agreement", profile_agree_to_json(&rp->pure));
    json_object_set_member(json, "anchor", profile_anchor_to_json(&rp->anchor, m, anchored));
    report_json(row, "profile", profile, out);
    return;
  }
  append_text_summary(o, used, k, r, p, &rp->pure, &rp->anchor, out);
  if (rp->pure.present) {
    profile_anchor_append_text(&rp->anchor, m, anchored, "    ", out);
    g_string_append_c(out, '\n');
  }
}

/* Simulate and write the result in `format` to `out`. */
/* What loading the kernel for the model assumed (a listing run by binary
 * compatibility), what the Nsight Compute exports did not give and what was
 * assumed for it, one warning line each (sassprog.h, ncu_source.h,
 * ncu_details.h). */
static void warn_exports(const Kernel *k, GPtrArray *lines) {
  const GString *w[] = {k->sass ? k->sass->warnings : NULL,
                        k->sass && k->sass->source ? k->sass->source->warnings : NULL,
                        k->sass && k->sass->details ? k->sass->details->warnings : NULL};
  for (guint i = 0; i < G_N_ELEMENTS(w); i++) {
    g_auto(GStrv) split = w[i] ? g_strsplit(w[i]->str, "\n", -1) : NULL;
    for (guint j = 0; split && split[j] && *split[j]; j++)
      g_ptr_array_add(lines, g_strdup(split[j]));
  }
}

void cli_run_warnings(const SmModel *m, const Kernel *k, GPtrArray *lines) {
  warn_ilp(k, lines);
  warn_ilp_empty_chains(k, lines);
  warn_blocks_cap(m, k, lines);
  warn_block_size(k, lines);
  warn_exports(k, lines);
}

/* Simulate `k` on `m` and append the result in `format` to `out`, within
 * the bounds of `bounds` (parse_bounds; `timeout_s` its --timeout); `memo`
 * (may be NULL) keeps the profiled launches simulated, `said` (may be
 * NULL) the warning lines said (say_warning). */
static gboolean run_one(const RunOptions *o, CliFormat format, const SmModel *m, const Kernel *k,
                        ProfileAgreeMemo *memo, GHashTable *said, gchar **sets,
                        const SimOptions *bounds, gdouble timeout_s, GString *out, GError **error) {
  SimOptions opt = *bounds;
  opt.policy = o->policy;
  /* Bad input is its one error line: everything the run would refuse before
   * it simulates is refused before any warning. */
  g_autoptr(SimPlan) plan = sim_plan_new(m, k, &opt, error); /* sim_check, its program kept */
  if (plan == NULL)
    return FALSE;
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
  cli_run_warnings(m, k, warnings);
  for (guint i = 0; i < warnings->len; i++)
    say_warning(said, warnings->pdata[i]);
  warn_long_run(m, k, plan, format != CLI_FORMAT_CSV && !o->no_whatif, &opt, timeout_s);
  g_autofree RunProfile *rp = g_new0(RunProfile, 1);
  if (!anchor_before(o, m, k, &opt, memo, rp, error))
    return FALSE;
  const SmModel *used = rp->anchor.applied ? &rp->anchor.model : m;
  if (rp->anchor.level) /* this run and its what-ifs, played at the profile's level */
    opt.time_factor = rp->anchor.time_factor;
  g_autofree SimResult *r = g_new0(SimResult, 1);
  /* the pure model's run is the plan's; an anchored one builds its own; one the memo
   * holds (the anchor's shape check ran this launch on this model) is not run again */
  const SimResult *known = memo != NULL ? profile_agree_memo_lookup(memo, used, k, &opt) : NULL;
  if (known != NULL)
    *r = *known;
  else if (!(used == m && !rp->anchor.level ? sim_plan_run(plan, r, error)
                                            : sim_run(used, k, &opt, r, error)))
    return sim_failed(o, NULL, error);
  if (r->warnings[0] != '\0') { /* one line per opcode no class names */
    g_auto(GStrv) lines = g_strsplit(r->warnings, "\n", -1);
    for (guint i = 0; lines[i] && *lines[i]; i++)
      say_warning(said, lines[i]);
  }
  if (!anchor_after(o, format, m, used, k, &opt, r, memo, rp, said, error))
    return FALSE;
  g_autoptr(ReportRow) row = cli_result_row(used, k, r, (const gchar *const *)sets);
  if (o->units != NULL)
    add_device_columns(row, used, r);
  add_agreement_columns(row, &rp->pure, &rp->anchor);
  if (format == CLI_FORMAT_CSV)
    append_csv(o, used, m, k, &rp->anchor, row, out);
  else
    append_report(o, format, m, used, k, &opt, r, rp, row, out);
  return TRUE;
}

/* --units device needs the model's SM count and clock. */
static gboolean check_units(const RunOptions *o, const SmModel *m, GError **error) {
  if (o->units == NULL || (m->clock_mhz > 0 && m->sm.sms > 0))
    return TRUE;
  g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE,
              "--units device: model %s (%s) has no [sm] clock_mhz or sms to scale by", m->name,
              m->file);
  return FALSE;
}

/* FALSE with --timeout's bound error (name_bound), "passed `when`", once
 * its deadline in `bounds` has passed. */
static gboolean within_deadline(const RunOptions *o, const SimOptions *bounds, const gchar *when,
                                GError **error) {
  if (bounds->deadline_us == 0 || g_get_monotonic_time() <= bounds->deadline_us)
    return TRUE;
  g_set_error(error, SIM_ERROR, SIM_ERROR_BOUND, "deadline: passed %s", when);
  return sim_failed(o, NULL, error);
}

static gboolean run(const RunOptions *o, CliFormat format, GString *out, GError **error) {
  g_autoptr(SmModel) m = NULL;
  g_autoptr(Kernel) k = NULL;
  SimOptions bounds = {0};
  gdouble timeout_s = 0.0;
  /* the deadline from the start: loading a listing (up to 256 MiB) counts */
  if (!parse_bounds(o, &bounds, &timeout_s, error) ||
      !cli_load(o->model ? o->model : "h200", o->kernel, o->sets, &m, &k, error))
    return FALSE;
  return check_units(o, m, error) &&
         within_deadline(o, &bounds, "while the model and kernel were loaded", error) &&
         run_one(o, format, m, k, NULL, NULL, o->sets, &bounds, timeout_s, out, error);
}

/* The largest --points file read (bytes): a curve of 100,000 points of a
 * few keys is under 10 MB; past the cap it is refused before it is held
 * (a 200 MB file took 795 MB of memory when read whole). */
#define RUN_POINTS_MAX_BYTES (16u * 1024 * 1024)

/* The points of --points FILE: one line each (blank lines and '#' lines
 * skipped), its [launch] keys as GROUP.KEY=VALUE words; each a
 * NULL-terminated array of --set's values then the line's words, in
 * `points`, and its line number in `lines`.  FALSE with CLI_ERROR_USAGE
 * naming the file and line. */
static gboolean read_points(const RunOptions *o, GPtrArray *points, GArray *lines, GError **error) {
  GError *err = NULL;
  gsize len = 0;
  g_autofree gchar *text = readfile_capped(o->points, RUN_POINTS_MAX_BYTES, &len, &err);
  if (text == NULL) {
    g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE, "--points: %s", err->message);
    g_error_free(err);
    return FALSE;
  }
  const gchar *nul = memchr(text, '\0', len);
  if (nul != NULL) { /* the lines would end there, unread */
    guint line = 1;
    for (const gchar *c = text; c < nul; c++)
      line += *c == '\n';
    g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE,
                "--points %s:%u: a NUL byte (allowed: text lines of launch.KEY=VALUE words)",
                o->points, line);
    return FALSE;
  }
  g_auto(GStrv) split = readfile_lines(text, len);
  for (guint i = 0; split[i] != NULL; i++) {
    if (*g_strstrip(split[i]) == '\0' || *split[i] == '#')
      continue;
    g_auto(GStrv) words = g_strsplit_set(split[i], " \t", -1);
    GStrvBuilder *b = g_strv_builder_new();
    g_strv_builder_addv(b, (const gchar **)(o->sets ? o->sets : (gchar *[]){NULL}));
    for (guint j = 0; words[j] != NULL; j++) {
      if (*words[j] == '\0')
        continue;
      if (!g_str_has_prefix(words[j], "launch.") || strchr(words[j], '=') == NULL) {
        g_strv_builder_unref(b);
        g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE,
                    "--points %s:%u: '%s' (allowed launch.KEY=VALUE words: a point varies the "
                    "launch only)",
                    o->points, i + 1, words[j]);
        return FALSE;
      }
      g_strv_builder_add(b, words[j]);
    }
    g_ptr_array_add(points, g_strv_builder_end(b));
    guint line = i + 1;
    g_array_append_val(lines, line);
  }
  if (points->len > 0)
    return TRUE;
  g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE,
              "--points %s: no point (allowed one or more "
              "lines of launch.KEY=VALUE words)",
              o->points);
  return FALSE;
}

/* --points: every point on the one model (its [launch] sets change no
 * model key) and checked (sim_check) before the first runs, the CSV header
 * once, the profiled launch simulated once per
 * model it runs on (ProfileAgreeMemo), each warning line once; nothing in
 * `out` on an error. */
static gboolean run_points(const RunOptions *o, GString *out, GError **error) {
  g_autoptr(GPtrArray) points = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
  g_autoptr(GArray) lines = g_array_new(FALSE, FALSE, sizeof(guint));
  SimOptions bounds = {0};
  gdouble timeout_s = 0.0;
  /* the deadline from the start: reading the file and loading count */
  if (!parse_bounds(o, &bounds, &timeout_s, error) || !read_points(o, points, lines, error))
    return FALSE;
  g_autoptr(SmModel) m = NULL;
  g_autoptr(Kernel) base = NULL; /* the kernel with the --set words alone: its listing serves
                                    every point, and its errors are no point's */
  g_autoptr(ProfileAgreeMemo) memo = profile_agree_memo_new();
  g_autoptr(GHashTable) said = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  if (!cli_load(o->model ? o->model : "h200", o->kernel, o->sets, &m, &base, error) ||
      !check_units(o, m, error))
    return FALSE;
  /* the model's timing and --policy are the run's, no point's: their
   * errors name no file:line (sim_check would refuse them at point 1) */
  if (!model_check_timing(m, error))
    return FALSE;
  if (o->policy != NULL && sched_lookup(o->policy) == NULL) {
    g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE, "--policy: unknown policy '%s' (allowed %s)",
                o->policy, sched_names());
    return FALSE;
  }
  /* Every point checked before any runs: bad input at a later point is its
   * one error line, not one after the earlier points' warnings and runs. */
  for (guint i = 0; i < points->len; i++) {
    SimOptions opt = bounds;
    opt.policy = o->policy;
    g_autoptr(Kernel) k =
        kernel_load_like(o->kernel, (const gchar *const *)points->pdata[i], m, base, error);
    if (k == NULL || !sim_check(m, k, &opt, error) ||
        !within_deadline(o, &bounds, "while the points were checked", error)) {
      g_prefix_error(error, "--points %s:%u: ", o->points, g_array_index(lines, guint, i));
      return FALSE;
    }
  }
  RunOptions each = *o;
  for (guint i = 0; i < points->len; i++) {
    gchar **sets = points->pdata[i];
    /* one deadline for every point: a point shorter than the timeout each
     * must not make the whole file run points x --timeout */
    if (!within_deadline(o, &bounds, "before this point ran", error)) {
      g_prefix_error(error, "--points %s:%u: ", o->points, g_array_index(lines, guint, i));
      return FALSE;
    }
    g_autoptr(Kernel) k = kernel_load_like(o->kernel, (const gchar *const *)sets, m, base, error);
    if (k == NULL ||
        !run_one(&each, CLI_FORMAT_CSV, m, k, memo, said, sets, &bounds, timeout_s, out, error)) {
      g_prefix_error(error, "--points %s:%u: ", o->points, g_array_index(lines, guint, i));
      return FALSE;
    }
    each.no_header = TRUE;
  }
  return TRUE;
}

int cli_run_main(int argc, char **argv) {
  RunOptions o = {0};
  g_autoptr(GOptionContext) ctx = run_context(&o);
  GError *err = NULL;
  CliFormat format = CLI_FORMAT_TEXT;
  int rc = CLI_EXIT_OK;
  if (!cli_parse(ctx, "run", argc, argv, &err)) {
    rc = cli_exit(err);
  } else if (o.help_keys) {
    if (!print_help_keys(o.model ? o.model : "h200", &err))
      rc = cli_exit(err);
  } else if (o.kernel == NULL) {
    rc = cli_fail("run: --kernel is required (e.g. --kernel fma; see --help)");
  } else if (!cli_parse_format(o.format ? o.format : o.points ? "csv" : "text", &format, &err)) {
    rc = cli_exit(err);
  } else if (o.units != NULL && g_strcmp0(o.units, "sm") != 0 &&
             g_strcmp0(o.units, "device") != 0) {
    rc = cli_fail("--units: must be sm or device");
  } else {
    if (g_strcmp0(o.units, "sm") == 0)
      g_clear_pointer(&o.units, g_free); /* the default */
    if (o.points != NULL) { /* named in messages as the kernel file is: "..", "." out */
      gchar *shown = paths_display(o.points);
      g_free(o.points);
      o.points = shown;
    }
    g_autoptr(GString) out = g_string_new(NULL);
    if (o.points != NULL && (format != CLI_FORMAT_CSV || o.comments)) {
      rc = cli_fail(o.comments
                        ? "--points: without --config-comments only (one header, one row a point)"
                        : "--points: --format csv only, the default with --points (one header, "
                          "one row a point)");
    } else if (o.points != NULL ? run_points(&o, out, &err) : run(&o, format, out, &err)) {
      cli_note_renamed(o.model); /* once it ran: bad input is its error line alone */
      fputs(out->str, stdout);
    } else {
      rc = cli_exit(err);
    }
  }
  run_options_clear(&o);
  return rc;
}
