/* cli.c - `warpsim run` and `warpsim models`. */
#include "cli.h"

#include "launch.h"
#include "paths.h"
#include "profile.h"
#include "program.h"
#include "sched.h"

#include <json-glib/json-glib.h>
#include <stdio.h>

int cli_fail(const gchar *message) {
  fprintf(stderr, "warpsim: %s\n", message);
  return 2;
}

/* The group an override "group.key=value" names (newly allocated). */
static gchar *set_group(const gchar *set) {
  const gchar *dot = strchr(set, '.');
  return dot ? g_strndup(set, dot - set) : g_strdup(set);
}

gboolean cli_load(const gchar *model_spec, const gchar *kernel_spec, gchar **sets, SmModel **model,
                  Kernel **kernel, GError **error) {
  for (guint i = 0; sets != NULL && sets[i] != NULL; i++) {
    g_autofree gchar *group = set_group(sets[i]);
    if (!model_override_group(group) && !kernel_override_group(group)) {
      g_set_error(error, KERNEL_ERROR, KERNEL_ERROR_INVALID,
                  "--set '%s': unknown group [%s] (kernel groups: launch, stream; model groups: "
                  "see 'warpsim run --help-keys')",
                  sets[i], group);
      return FALSE;
    }
  }
  *model = model_load(model_spec, (const gchar *const *)sets, error);
  if (*model == NULL)
    return FALSE;
  if (kernel != NULL) {
    *kernel = kernel_load(kernel_spec, (const gchar *const *)sets, error);
    if (*kernel == NULL) {
      g_clear_pointer(model, model_free);
      return FALSE;
    }
  }
  return TRUE;
}

ReportRow *cli_result_row(const SmModel *m, const Kernel *k, const SimResult *r,
                          const gchar *const *sets) {
  ReportRow *row = report_row_new();
  report_add_str(row, "model", m->name);
  report_add_str(row, "kernel", k->name);
  report_add_str(row, "policy", r->policy);
  report_add_uint(row, "ilp", k->ilp);
  report_add_uint(row, "threads_per_block", k->threads_per_block);
  report_add_uint(row, "regs_per_thread", k->regs_per_thread);
  report_add_uint(row, "regs_allocated", r->regs_allocated);
  report_add_uint(row, "blocks_per_sm", r->blocks_per_sm);
  report_add_uint(row, "warps_per_sm", r->warps_per_sm);
  report_add_double(row, "occupancy_pct", r->occupancy_pct, 3);
  report_add_double(row, "achieved_occupancy_pct", sim_achieved_occupancy_pct(r, m), 3);
  ProfileMetrics pm;
  profile_metrics_compute(m, k, r, &pm);
  g_autofree gchar *limiter = profile_metrics_limiter(&pm);
  report_add_str(row, "limiter", limiter);
  report_add_uint(row, "cycles", r->st.cycles);
  report_add_double(row, "ipc", sim_ipc(r), 4);
  report_add_double(row, "fma_per_cycle", sim_fma_per_cycle(r), 4);
  report_add_double(row, "loads_per_cycle", sim_loads_per_cycle(r), 5);
  report_add_double(row, "bytes_per_cycle", sim_bytes_per_cycle(r), 3);
  report_add_double(row, "issue_active", sim_issue_active(r, m), 4);
  report_add_double(row, "avg_load_latency", sim_avg_load_latency(r), 1);
  report_add_uint(row, "warp_insts", r->st.issued);
  report_add_uint(row, "thread_insts", r->st.thread_insts);
  report_add_uint(row, "fma", k->fma);
  report_add_uint(row, "loads", k->loads);
  report_add_str(row, "load_pattern", kernel_pattern_name(k->pattern));
  report_add_uint(row, "load_bytes", k->load_bytes);
  report_add_str(row, "level", kernel_level_name(k->level));
  report_add_bool(row, "fma_uses_load", k->fma_uses_load);
  report_add_uint(row, "overhead", k->overhead);
  report_add_uint(row, "iterations", k->iterations);
  report_add_uint(row, "grid_blocks", r->grid_blocks);
  report_add_double(row, "waves_per_sm", r->waves_per_sm, 3);
  report_add_uint(row, "spill_values", r->spill_values);
  report_add_uint(row, "spill_insts", r->st.spill_insts);
  report_add_uint(row, "max_regs", k->max_regs);
  report_add_uint(row, "live_values", k->live_values);
  report_add_double(row, "spill_l1_hit", r->spill_l1_hit, 4);
  gdouble bound_fma, bound_bytes;
  sim_little_bound(m, k, r, &bound_fma, &bound_bytes);
  report_add_double(row, "bound_fma_per_cycle", bound_fma, 4);
  report_add_double(row, "bound_bytes_per_cycle", bound_bytes, 3);
  report_add_uint(row, "seed", k->seed);
  for (guint s = 0; s < STALL_MAX; s++) {
    g_autofree gchar *name = g_strconcat("stall_", stall_name(s), NULL);
    gdouble v = r->st.issued ? (gdouble)r->st.state[s] / (gdouble)r->st.issued : 0.0;
    report_add_double(row, name, v, 4);
  }
  report_add_double(row, "active_warps_per_scheduler", pm.active_warps, 4);
  report_add_double(row, "eligible_warps_per_scheduler", pm.eligible_warps, 4);
  report_add_double(row, "issued_warps_per_scheduler", pm.issued_warps, 4);
  report_add_double(row, "sm_throughput_pct", pm.sm_pct, 3);
  report_add_double(row, "mem_throughput_pct", pm.mem_pct, 3);
  report_add_double(row, "warp_cycles_per_issued", pm.total_cpi, 4);
  /* The remaining kernel keys and rates, so every row is self-describing. */
  report_add_uint(row, "smem_static", k->smem_static);
  report_add_uint(row, "smem_dynamic", k->smem_dynamic);
  report_add_uint(row, "blocks", k->blocks);
  report_add_uint(row, "sfu", k->sfu);
  report_add_uint(row, "lds", k->lds);
  report_add_uint(row, "lds_ways", k->lds_ways);
  report_add_bool(row, "syncthreads", k->syncthreads);
  report_add_uint(row, "early_exit", k->early_exit);
  report_add_double(row, "mufu_per_cycle", sim_per_cycle(r, r->st.ops[OP_MUFU]), 4);
  report_add_double(row, "lds_per_cycle", sim_per_cycle(r, r->st.ops[OP_LDS]), 4);
  /* Issue 12: the most loaded SM's achieved occupancy (achieved_occupancy_pct
   * is device-wide), Nsight's One or More Eligible, the compiler's registers. */
  report_add_double(row, "sm_achieved_occupancy_pct", sim_sm_achieved_occupancy_pct(r, m), 3);
  report_add_double(row, "one_or_more_eligible_pct", pm.one_or_more_eligible_pct, 3);
  report_add_uint(row, "launch_bounds_threads", k->bounds_threads);
  report_add_uint(row, "launch_bounds_min_blocks", k->bounds_min_blocks);
  report_add_uint(row, "regs_ceiling", r->occ.regs_ceiling);
  GString *wg = g_string_new(NULL);
  for (guint i = 0; i < k->n_warpgroups; i++)
    g_string_append_printf(wg, "%s%u", i ? ";" : "", k->warpgroup_regs[i]);
  report_add_str(row, "warpgroup_regs", wg->str);
  g_string_free(wg, TRUE);
  g_autofree gchar *warning = launch_warning(m, k, r);
  report_add_str(row, "launch_warning", warning);
  /* Model overrides of this run ("dram.latency=800;..."), empty when none. */
  GString *ov = g_string_new(NULL);
  for (guint i = 0; sets != NULL && sets[i] != NULL; i++) {
    g_autofree gchar *group = set_group(sets[i]);
    if (model_override_group(group))
      g_string_append_printf(ov, "%s%s", ov->len ? ";" : "", sets[i]);
  }
  report_add_str(row, "model_overrides", ov->str);
  g_string_free(ov, TRUE);
  return row;
}

static gchar **run_sets;
static gchar *run_model = "h200";
static gchar *run_kernel;
static gchar *run_format = "text";
static gchar *run_policy;
static gboolean run_no_header;
static gboolean run_help_keys;
static gboolean run_comments;
static gboolean run_no_whatif;

static const GOptionEntry run_entries[] = {
    {"model", 'm', 0, G_OPTION_ARG_FILENAME, &run_model,
     "SM model: a name (see 'warpsim models'), a compute capability, or a path (default h200)",
     "M"},
    {"kernel", 'k', 0, G_OPTION_ARG_FILENAME, &run_kernel,
     "kernel file: a path, or a name in traces/ (fma, chase, stream, ...)", "K"},
    {"set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &run_sets,
     "override a kernel or model key, e.g. stream.ilp=4 or dram.latency=800 (repeatable)",
     "GROUP.KEY=VALUE"},
    {"policy", 'p', 0, G_OPTION_ARG_STRING, &run_policy,
     "warp-scheduler policy: gto, lrr, oldest, grr or two_level (default: the model's)", "P"},
    {"format", 'f', 0, G_OPTION_ARG_STRING, &run_format, "output: text, csv or json", "F"},
    {"no-header", 0, 0, G_OPTION_ARG_NONE, &run_no_header,
     "CSV without the header row (to append rows in a loop)", NULL},
    {"config-comments", 0, 0, G_OPTION_ARG_NONE, &run_comments,
     "CSV: precede the header with '# ' lines holding the effective model and kernel", NULL},
    {"no-whatif", 0, 0, G_OPTION_ARG_NONE, &run_no_whatif,
     "text/json: skip the extra simulations that try a rule's advice (more occupancy or ILP)",
     NULL},
    {"help-keys", 0, 0, G_OPTION_ARG_NONE, &run_help_keys,
     "list every kernel and model key with its range, unit and meaning", NULL},
    G_OPTION_ENTRY_NULL};

/* The text report: what ran, its headline rates, then the Nsight Compute-style
 * sections with their fired rules and what-ifs (profile.h). */
static void append_text_summary(const SmModel *m, const Kernel *k, const SimResult *r,
                                const Profile *p, GString *out) {
  g_string_append_printf(out, "warpsim %s: kernel %s on %s (policy %s)\n", WARPSIM_VERSION, k->name,
                         m->name, r->policy);
  g_string_append_printf(out,
                         "  launch: %u threads/CTA, %u regs/thread, %u CTAs/SM resident "
                         "(%u warps/SM, theoretical occupancy %.1f %%), %u CTAs on this SM\n",
                         k->threads_per_block, r->regs_allocated, r->blocks_per_sm, r->warps_per_sm,
                         r->occupancy_pct, r->sm_blocks);
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
                         "  result: %" G_GUINT64_FORMAT " cycles, IPC %.4f warp inst/cycle/SM, "
                         "%s %.4f %s, issue active %.1f %%\n\n",
                         r->st.cycles, sim_ipc(r), profile_metrics(p)->metric,
                         profile_metrics(p)->throughput, profile_metrics(p)->metric_unit,
                         100.0 * sim_issue_active(r, m));
  if (!m->validated)
    g_string_append_printf(out,
                           "  note: the timing of model %s is from published figures (%s, each "
                           "key's .source), not validated against measurements here\n\n",
                           m->name, m->file);
  profile_append_text(p, out);
}

int cli_run_main(int argc, char **argv) {
  g_autoptr(GOptionContext) ctx = g_option_context_new("- simulate one kernel on one SM");
  g_option_context_add_main_entries(ctx, run_entries, NULL);
  g_option_context_set_description(
      ctx, "Prints one result: text (default: an Nsight Compute-style report with Speed Of "
           "Light,\nScheduler, Warp State, Occupancy and Launch sections, the rules that fire and "
           "a what-if\nsimulation of their advice), one CSV row (with header unless --no-header) "
           "or a JSON object\n(the row plus a \"profile\" member holding the report).\n"
           "Rates are per SM per cycle: ipc = warp instructions, fma_per_cycle = warp FFMAs,\n"
           "bytes_per_cycle = global-memory bytes. stall_<state> columns are "
           "warp cycles per issued\ninstruction in each Nsight Compute warp state.\n\n"
           "Example:\n  warpsim run --kernel fma --set stream.ilp=4 --set "
           "launch.blocks_per_sm=2 --format csv\n");
  GError *err = NULL;
  if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
    int rc = cli_fail(err->message);
    g_error_free(err);
    return rc;
  }
  if (run_help_keys) {
    GString *out = g_string_new("kernel keys ([launch], [stream]):\n");
    kernel_describe(out);
    g_string_append(out, "\nmodel keys:\n");
    model_describe(out);
    g_autoptr(SmModel) shown = model_load(run_model, NULL, NULL);
    if (shown != NULL) {
      g_string_append_printf(out, "\nvalues and provenance (KEY.source) of model %s:\n",
                             shown->name);
      model_dump(shown, out, "  ");
    }
    fputs(out->str, stdout);
    g_string_free(out, TRUE);
    return 0;
  }
  if (argc > 1) {
    g_autofree gchar *message = g_strdup_printf("run: unexpected argument '%s'", argv[1]);
    return cli_fail(message);
  }
  if (run_kernel == NULL)
    return cli_fail("run: --kernel is required (e.g. --kernel fma; see --help)");
  if (g_strcmp0(run_format, "text") != 0 && g_strcmp0(run_format, "csv") != 0 &&
      g_strcmp0(run_format, "json") != 0)
    return cli_fail("--format: must be text, csv or json");

  g_autoptr(SmModel) m = NULL;
  g_autoptr(Kernel) k = NULL;
  SimResult r;
  SimOptions opt = {run_policy, FALSE};
  gboolean loaded = cli_load(run_model, run_kernel, run_sets, &m, &k, &err);
  if (loaded && m->has_timing) {
    /* About 50 M warp instructions per second (scripts/bench.sh): say so
     * before a run that takes minutes, so a typo is not mistaken for a hang. */
    guint64 insts = sim_estimate_insts(m, k);
    if (insts > 1500000000ull)
      fprintf(stderr,
              "warpsim: note: this run simulates %.2g warp instructions (a minute or more "
              "at ~50 million per second)\n",
              (gdouble)insts);
  }
  if (!loaded || !sim_run(m, k, &opt, &r, &err)) {
    int rc = g_error_matches(err, SIM_ERROR, SIM_ERROR_INVARIANT) ? 1 : 2;
    fprintf(stderr, "warpsim: %s\n", err->message);
    g_error_free(err);
    return rc;
  }
  g_autoptr(ReportRow) row = cli_result_row(m, k, &r, (const gchar *const *)run_sets);
  GString *out = g_string_new(NULL);
  if (g_strcmp0(run_format, "csv") == 0) {
    if (run_comments) {
      g_string_append_printf(out, "# warpsim %s\n", WARPSIM_VERSION);
      model_dump(m, out, "# ");
      kernel_dump(k, out, "# ");
    }
    if (!run_no_header)
      report_csv_header(row, out);
    report_csv_values(row, out);
  } else {
    g_autoptr(Profile) p = profile_new(m, k, &r);
    if (run_no_whatif)
      profile_skip_what_if(p);
    else
      profile_what_if(p, m, k, &opt);
    if (g_strcmp0(run_format, "json") == 0) {
      JsonNode *profile = profile_to_json(p);
      JsonObject *o = json_node_get_object(profile);
      json_object_set_boolean_member(o, "model_validated", m->validated);
      json_object_set_member(o, "model_provenance", model_sources_json(m));
      report_json(row, "profile", profile, out);
    } else
      append_text_summary(m, k, &r, p, out);
  }
  fputs(out->str, stdout);
  g_string_free(out, TRUE);
  return 0;
}

static gboolean models_csv;
static const GOptionEntry models_entries[] = {
    {"csv", 0, 0, G_OPTION_ARG_NONE, &models_csv, "print CSV (name,cc,timing,file)", NULL},
    G_OPTION_ENTRY_NULL};

int cli_models_main(int argc, char **argv) {
  g_autoptr(GOptionContext) ctx = g_option_context_new("- list the shipped SM models");
  g_option_context_add_main_entries(ctx, models_entries, NULL);
  GError *err = NULL;
  if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
    int rc = cli_fail(err->message);
    g_error_free(err);
    return rc;
  }
  if (argc > 1) {
    g_autofree gchar *message = g_strdup_printf("models: unexpected argument '%s'", argv[1]);
    return cli_fail(message);
  }
  g_auto(GStrv) paths = model_list();
  if (paths[0] == NULL) {
    g_autofree gchar *where = paths_describe("models");
    g_autofree gchar *message = g_strdup_printf(
        "models: no model files found (looked in %s; set WARPSIM_MODELS to the models directory)",
        where);
    return cli_fail(message);
  }
  GString *out = g_string_new(models_csv ? "name,cc,timing,file\n" : NULL);
  if (!models_csv)
    g_string_append_printf(out, "%-10s %-6s %-8s %s\n", "name", "cc", "simulate", "file");
  for (guint i = 0; paths[i] != NULL; i++) {
    g_autoptr(SmModel) m = model_load(paths[i], NULL, &err);
    if (m == NULL) {
      int rc = cli_fail(err->message);
      g_error_free(err);
      g_string_free(out, TRUE);
      return rc;
    }
    if (models_csv)
      g_string_append_printf(out, "%s,%s,%s,%s\n", m->name, m->cc, m->has_timing ? "yes" : "no",
                             m->file);
    else
      g_string_append_printf(out, "%-10s %-6s %-8s %s\n", m->name, m->cc,
                             m->has_timing ? "yes" : "occupancy only", m->file);
  }
  fputs(out->str, stdout);
  g_string_free(out, TRUE);
  return 0;
}
