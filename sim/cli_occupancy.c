/* cli_occupancy.c - `warpsim occupancy`: options, batch input and the three
 * output formats of the occupancy calculator (sim/occupancy.h). */
#include "cli_occupancy.h"

#include "config.h"
#include "model.h"
#include "occupancy.h"
#include "report.h"

#include <stdio.h>
#include <string.h>

typedef enum { FORMAT_TEXT, FORMAT_CSV, FORMAT_JSON } Format;

/* The options as GOptionContext leaves them (numbers as text, parsed later
 * against the model's limits). */
typedef struct {
  gchar *model, *threads, *regs, *smem_static, *smem_dynamic, *carveout, *format;
  gchar *batch, *vary, *smem_for_blocks, *grid;
  gboolean optin, no_header, best, help;
} Options;

/* What a command works on once the options are checked. */
typedef struct {
  SmModel *model;
  OccLaunch launch;
  Format format;
  gboolean no_header;
  guint64 grid; /* 0 = no --grid */
} Command;

#define CSV_BATCH_HEADER "threads,regs,smem_static,smem_dynamic[,optin]"

static void options_clear(Options *o) {
  gchar **strings[] = {&o->model,        &o->threads,         &o->regs,   &o->smem_static,
                       &o->smem_dynamic, &o->carveout,        &o->format, &o->batch,
                       &o->vary,         &o->smem_for_blocks, &o->grid};
  for (guint i = 0; i < G_N_ELEMENTS(strings); i++)
    g_clear_pointer(strings[i], g_free);
}

static GOptionContext *options_context(Options *o) {
  const GOptionEntry entries[] = {
      {"model", 'm', 0, G_OPTION_ARG_FILENAME, &o->model,
       "SM model: a name (see 'warpsim models'), a compute capability such as 8.6, or a path", "M"},
      {"threads", 't', 0, G_OPTION_ARG_STRING, &o->threads, "threads per block (1..1024)", "T"},
      {"regs", 'r', 0, G_OPTION_ARG_STRING, &o->regs, "registers per thread (1..255)", "R"},
      {"smem-static", 0, 0, G_OPTION_ARG_STRING, &o->smem_static,
       "static shared memory per block, bytes (default 0)", "B"},
      {"smem-dynamic", 0, 0, G_OPTION_ARG_STRING, &o->smem_dynamic,
       "dynamic shared memory per block, bytes (default 0)", "B"},
      {"optin", 0, 0, G_OPTION_ARG_NONE, &o->optin,
       "the kernel raised its dynamic shared-memory limit to the opt-in maximum", NULL},
      {"carveout", 0, 0, G_OPTION_ARG_STRING, &o->carveout,
       "shared-memory carveout preference, percent 0..100 (default -1: no preference)", "PCT"},
      {"format", 'f', 0, G_OPTION_ARG_STRING, &o->format,
       "output: text, csv or json (default text; csv with --batch)", "F"},
      {"no-header", 0, 0, G_OPTION_ARG_NONE, &o->no_header, "CSV without the header row", NULL},
      {"batch", 0, 0, G_OPTION_ARG_FILENAME, &o->batch,
       "read launches from a CSV file with header " CSV_BATCH_HEADER "; one output row each",
       "FILE"},
      {"vary", 0, 0, G_OPTION_ARG_STRING, &o->vary,
       "what-if curve: occupancy over regs (1..255), threads (32..1024 by 32), smem (0..max by "
       "allocation units) or all three",
       "regs|threads|smem|all"},
      {"best-block-size", 0, 0, G_OPTION_ARG_NONE, &o->best,
       "the largest block size reaching the best occupancy (--threads not needed)", NULL},
      {"smem-for-blocks", 0, 0, G_OPTION_ARG_STRING, &o->smem_for_blocks,
       "dynamic shared memory available per block with N blocks resident per SM", "N"},
      {"grid", 0, 0, G_OPTION_ARG_STRING, &o->grid,
       "grid size in blocks: add waves per SM and the tail of the last wave", "N"},
      {"help", 'h', 0, G_OPTION_ARG_NONE, &o->help, "show this help", NULL},
      G_OPTION_ENTRY_NULL};
  GOptionContext *ctx = g_option_context_new("- theoretical occupancy of a kernel launch");
  g_option_context_set_help_enabled(ctx, FALSE);
  g_option_context_add_main_entries(ctx, entries, NULL);
  g_option_context_set_description(
      ctx,
      "Computes blocks per SM, warps per SM and theoretical occupancy as NVIDIA's occupancy\n"
      "API does, with the block limit of each limiter (blocks, warps, registers, shared_mem).\n"
      "An impossible launch is not an error: it prints 0 blocks and the reason.\n\n"
      "CSV columns: model,cc,threads,regs,smem_static,smem_dynamic,optin,blocks_per_sm,\n"
      "warps_per_sm,occupancy_pct,limiters,limit_blocks,limit_warps,limit_registers,\n"
      "limit_shared_mem,regs_per_block,smem_per_block,smem_config,warps_per_block,carveout,\n"
      "reason (limiters joined with '+'); --vary adds vary,value,current; --grid adds\n"
      "grid,sms,waves_per_sm,waves,last_wave_sms,sm_time_used_pct; --best-block-size adds\n"
      "best_block_size.  --smem-for-blocks prints model,cc,threads,regs,smem_static,\n"
      "smem_dynamic (the most per block),optin,n_blocks,blocks_per_sm,carveout,reason.\n\n"
      "Examples:\n"
      "  warpsim occupancy --model a100 --threads 256 --regs 64\n"
      "  warpsim occupancy --model 8.6 --threads 128 --regs 32 --smem-dynamic 51200 --optin\n"
      "  warpsim occupancy --model h200 --threads 256 --regs 32 --vary all --format csv\n"
      "  warpsim occupancy --model a100 --regs 44 --best-block-size\n"
      "  warpsim occupancy --model h200 --batch launches.csv > occupancy.csv\n"
      "Exit status: 0 ok, 2 bad input (one line on stderr).\n");
  return ctx;
}

/* Parse the decimal `text` of option --`opt` into lo..hi. */
static gboolean parse_number(const gchar *opt, const gchar *text, guint64 lo, guint64 hi,
                             guint64 *value, GError **error) {
  if (!config_parse_uint(text, value)) {
    g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                "--%s: '%s' is not a whole number (allowed %" G_GUINT64_FORMAT
                "..%" G_GUINT64_FORMAT ")",
                opt, text, lo, hi);
    return FALSE;
  }
  if (*value < lo || *value > hi) {
    g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                "--%s: %" G_GUINT64_FORMAT " is out of range (allowed %" G_GUINT64_FORMAT
                "..%" G_GUINT64_FORMAT ")",
                opt, *value, lo, hi);
    return FALSE;
  }
  return TRUE;
}

/* Like parse_number into a guint; a NULL `text` leaves `*value` as it is. */
static gboolean parse_uint_opt(const gchar *opt, const gchar *text, guint lo, guint hi,
                               guint *value, GError **error) {
  guint64 v = 0;
  if (text == NULL)
    return TRUE;
  if (!parse_number(opt, text, lo, hi, &v, error))
    return FALSE;
  *value = (guint)v;
  return TRUE;
}

static gboolean parse_format(const gchar *text, gboolean batch, Format *format, GError **error) {
  if (text == NULL)
    *format = batch ? FORMAT_CSV : FORMAT_TEXT;
  else if (strcmp(text, "text") == 0)
    *format = FORMAT_TEXT;
  else if (strcmp(text, "csv") == 0)
    *format = FORMAT_CSV;
  else if (strcmp(text, "json") == 0)
    *format = FORMAT_JSON;
  else {
    g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                "--format: unknown format '%s' (allowed text|csv|json)", text);
    return FALSE;
  }
  if (batch && *format == FORMAT_TEXT) {
    g_set_error_literal(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                        "--format: text is not available with --batch (allowed csv|json)");
    return FALSE;
  }
  return TRUE;
}

/* The launch from the options; --threads and --regs are required unless
 * `need_threads` / `need_regs` is FALSE. */
static gboolean parse_launch(const Options *o, const SmLimits *sm, gboolean need_threads,
                             gboolean need_regs, OccLaunch *l, GError **error) {
  occupancy_launch_init(l);
  if (need_threads && o->threads == NULL) {
    g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                "--threads is required (allowed 1..%u)", sm->max_threads_per_block);
    return FALSE;
  }
  if (need_regs && o->regs == NULL) {
    g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE, "--regs is required (allowed 1..%u)",
                sm->max_regs_per_thread);
    return FALSE;
  }
  if (!parse_uint_opt("threads", o->threads, 1, sm->max_threads_per_block, &l->threads, error) ||
      !parse_uint_opt("regs", o->regs, 1, sm->max_regs_per_thread, &l->regs, error) ||
      !parse_uint_opt("smem-static", o->smem_static, 0, G_MAXUINT, &l->smem_static, error) ||
      !parse_uint_opt("smem-dynamic", o->smem_dynamic, 0, G_MAXUINT, &l->smem_dynamic, error))
    return FALSE;
  l->optin = o->optin;
  if (o->carveout != NULL && strcmp(o->carveout, "-1") != 0) {
    guint64 pct = 0;
    if (!config_parse_uint(o->carveout, &pct) || pct > 100) {
      g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                  "--carveout: '%s' is not a percentage (allowed -1..100, -1 = no preference)",
                  o->carveout);
      return FALSE;
    }
    l->carveout_pct = (gint)pct;
  }
  return TRUE;
}

/* ---- formatting ---------------------------------------------------------- */

/* `v` with up to 3 decimals, trailing zeros dropped (locale-independent). */
static const gchar *fmt_num(gchar *buf, gsize size, gdouble v) {
  g_ascii_formatd(buf, (gint)size, "%.3f", v);
  gchar *end = buf + strlen(buf) - 1;
  while (end > buf && *end == '0')
    *end-- = '\0';
  if (*end == '.')
    *end = '\0';
  return buf;
}

static gchar *carveout_text(gint pct) {
  return pct < 0 ? g_strdup("default") : g_strdup_printf("%d", pct);
}

/* Unsigned columns read from a struct (OccLaunch or OccResult) by offset. */
typedef struct {
  const gchar *name;
  gsize offset; /* of a guint (or gboolean) field */
} UintColumn;

static const UintColumn launch_columns[] = {
    {"threads", G_STRUCT_OFFSET(OccLaunch, threads)},
    {"regs", G_STRUCT_OFFSET(OccLaunch, regs)},
    {"smem_static", G_STRUCT_OFFSET(OccLaunch, smem_static)},
    {"smem_dynamic", G_STRUCT_OFFSET(OccLaunch, smem_dynamic)},
    {"optin", G_STRUCT_OFFSET(OccLaunch, optin)},
};
static const UintColumn count_columns[] = {
    {"blocks_per_sm", G_STRUCT_OFFSET(OccResult, blocks_per_sm)},
    {"warps_per_sm", G_STRUCT_OFFSET(OccResult, warps_per_sm)},
};
static const UintColumn limit_columns[] = {
    {"limit_blocks", G_STRUCT_OFFSET(OccResult, limit) + OCC_LIMIT_BLOCKS * sizeof(guint)},
    {"limit_warps", G_STRUCT_OFFSET(OccResult, limit) + OCC_LIMIT_WARPS * sizeof(guint)},
    {"limit_registers", G_STRUCT_OFFSET(OccResult, limit) + OCC_LIMIT_REGISTERS * sizeof(guint)},
    {"limit_shared_mem", G_STRUCT_OFFSET(OccResult, limit) + OCC_LIMIT_SHARED_MEM * sizeof(guint)},
    {"regs_per_block", G_STRUCT_OFFSET(OccResult, regs_per_block)},
    {"smem_per_block", G_STRUCT_OFFSET(OccResult, smem_per_block)},
    {"smem_config", G_STRUCT_OFFSET(OccResult, smem_config)},
    {"warps_per_block", G_STRUCT_OFFSET(OccResult, warps_per_block)},
};

static void add_uints(ReportRow *row, gconstpointer base, const UintColumn *cols, guint n) {
  for (guint i = 0; i < n; i++)
    report_add_uint(row, cols[i].name, *(const guint *)((const gchar *)base + cols[i].offset));
}

/* The model and launch columns every row starts with. */
static ReportRow *launch_row(const SmModel *m, const OccLaunch *l) {
  ReportRow *row = report_row_new();
  report_add_str(row, "model", m->name);
  report_add_str(row, "cc", m->cc);
  add_uints(row, l, launch_columns, G_N_ELEMENTS(launch_columns));
  return row;
}

/* The standard result row: the CSV columns of the issue, then smem_config,
 * warps_per_block, carveout, reason. */
static ReportRow *result_row(const SmModel *m, const OccLaunch *l, const OccResult *r) {
  ReportRow *row = launch_row(m, l);
  g_autoptr(GString) lim = g_string_new(NULL);
  g_autofree gchar *carve = carveout_text(l->carveout_pct);
  occupancy_limiters_append(lim, r->limiter_mask, "+");
  add_uints(row, r, count_columns, G_N_ELEMENTS(count_columns));
  report_add_double(row, "occupancy_pct", r->occupancy_pct, 3);
  report_add_str(row, "limiters", lim->str);
  add_uints(row, r, limit_columns, G_N_ELEMENTS(limit_columns));
  report_add_str(row, "carveout", carve);
  report_add_str(row, "reason", r->reason);
  return row;
}

static void add_waves_columns(ReportRow *row, const SmLimits *sm, const OccResult *r,
                              guint64 grid) {
  OccWaves w;
  occupancy_waves(sm, r->blocks_per_sm, grid, &w);
  report_add_uint(row, "grid", grid);
  report_add_uint(row, "sms", sm->sms);
  report_add_double(row, "waves_per_sm", w.waves_per_sm, 3);
  report_add_uint(row, "waves", w.waves);
  report_add_uint(row, "last_wave_sms", w.last_wave_sms);
  report_add_double(row, "sm_time_used_pct", w.sm_time_used_pct, 3);
}

/* Where result rows go, one at a time: CSV lines (the header before the
 * first unless suppressed) or JSON (one object, or an array of objects). */
typedef struct {
  const Command *cmd;
  gboolean array; /* JSON: an array even of one row */
  guint n;        /* rows written */
  GString *out;
} RowSink;

/* Write `row` and free it. */
static void sink_add(RowSink *s, ReportRow *row) {
  if (s->cmd->format == FORMAT_CSV) {
    if (s->n == 0 && !s->cmd->no_header)
      report_csv_header(row, s->out);
    report_csv_values(row, s->out);
  } else {
    if (s->array)
      g_string_append(s->out, s->n == 0 ? "[\n" : ",\n");
    report_json(row, NULL, NULL, s->out);
    if (s->array)
      g_string_truncate(s->out, s->out->len - 1); /* the separator follows */
  }
  s->n++;
  report_row_free(row);
}

/* Close a JSON array. */
static void sink_finish(RowSink *s) {
  if (s->cmd->format == FORMAT_JSON && s->array)
    g_string_append(s->out, s->n == 0 ? "[]\n" : "\n]\n");
}

static void text_metric(GString *out, const gchar *name, const gchar *unit, const gchar *value) {
  g_string_append_printf(out, "    %-40s %11s %12s\n", name, unit, value);
}

static void text_metric_uint(GString *out, const gchar *name, const gchar *unit, guint64 v) {
  gchar buf[32];
  g_snprintf(buf, sizeof buf, "%" G_GUINT64_FORMAT, v);
  text_metric(out, name, unit, buf);
}

static void text_rule(GString *out) {
  g_string_append_printf(out, "    %.40s %.11s %.12s\n", "----------------------------------------",
                         "-----------", "------------");
}

static void text_launch(GString *out, const SmModel *m, const OccLaunch *l) {
  g_autofree gchar *carve = carveout_text(l->carveout_pct);
  g_string_append_printf(out, "Occupancy of %s (cc %s): %s\n", m->name, m->cc, m->description);
  g_string_append_printf(out,
                         "  launch: %u threads/block, %u registers/thread, shared memory %u B "
                         "static + %u B dynamic, opt-in %s, carveout %s\n",
                         l->threads, l->regs, l->smem_static, l->smem_dynamic,
                         l->optin ? "yes" : "no", carve);
}

/* Why a launch cannot run, with its numbers. */
static void text_impossible(GString *out, const SmModel *m, const OccResult *r) {
  g_string_append_printf(out, "  Cannot launch: %s", r->reason);
  if (r->limit[OCC_LIMIT_REGISTERS] == 0)
    g_string_append_printf(out,
                           " (%u registers allocated per block, %u as the per-block check counts "
                           "them with the warps rounded up to a multiple of the SMSPs; a block "
                           "may have %u)",
                           r->regs_per_block, r->regs_per_block_checked, m->sm.max_regs_per_block);
  else if (r->limit[OCC_LIMIT_SHARED_MEM] == 0)
    g_string_append_printf(out,
                           " (%u B allocated per block incl. %u B reserve; a block may use "
                           "%u B)",
                           r->smem_per_block, m->sm.smem_reserved, r->smem_block_max);
  g_string_append(out, "\n");
}

/* The Occupancy section, laid out as Nsight Compute prints it. */
static void text_result(GString *out, const SmModel *m, const OccLaunch *l, const OccResult *r) {
  const SmLimits *sm = &m->sm;
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
  text_launch(out, m, l);
  g_string_append(out, "\n  Section: Occupancy\n");
  text_rule(out);
  text_metric(out, "Metric Name", "Metric Unit", "Metric Value");
  text_rule(out);
  text_metric_uint(out, "Block Limit SM", "block", r->limit[OCC_LIMIT_BLOCKS]);
  text_metric_uint(out, "Block Limit Registers", "block", r->limit[OCC_LIMIT_REGISTERS]);
  text_metric_uint(out, "Block Limit Shared Mem", "block", r->limit[OCC_LIMIT_SHARED_MEM]);
  text_metric_uint(out, "Block Limit Warps", "block", r->limit[OCC_LIMIT_WARPS]);
  text_metric_uint(out, "Theoretical Active Warps per SM", "warp", r->warps_per_sm);
  text_metric(out, "Theoretical Occupancy", "%", fmt_num(buf, sizeof buf, r->occupancy_pct));
  text_metric(out, "Theoretical Warps per Scheduler", "warp",
              fmt_num(buf, sizeof buf, (gdouble)r->warps_per_sm / sm->smsps));
  text_metric_uint(out, "Max Warps per Scheduler", "warp", sm->max_warps / sm->smsps);
  text_metric_uint(out, "Warps per Block", "warp", r->warps_per_block);
  text_metric_uint(out, "Registers Allocated per Block", "register", r->regs_per_block);
  text_metric_uint(out, "Shared Memory Allocated per Block", "byte", r->smem_per_block);
  text_metric_uint(out, "Shared Memory Configuration Size", "byte", r->smem_config);
  text_rule(out);
  g_autoptr(GString) lim = g_string_new(NULL);
  occupancy_limiters_append(lim, r->limiter_mask, ", ");
  g_string_append_printf(out, "  Limiter: %s (%u blocks x %u warps = %u of %u warps per SM)\n",
                         lim->str, r->blocks_per_sm, r->warps_per_block, r->warps_per_sm,
                         sm->max_warps);
  if (r->smem_per_block == 0)
    g_string_append(out, "  Shared memory: none allocated; its block limit is the SM's block "
                         "cap and never limits\n");
  if (r->blocks_per_sm == 0)
    text_impossible(out, m, r);
}

static void text_waves(GString *out, const SmLimits *sm, const OccResult *r, guint64 grid) {
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
  OccWaves w;
  occupancy_waves(sm, r->blocks_per_sm, grid, &w);
  g_string_append(out, "\n  Section: Launch Statistics\n");
  text_rule(out);
  text_metric_uint(out, "Grid Size", "block", grid);
  text_metric_uint(out, "SMs", "SM", sm->sms);
  text_metric_uint(out, "Blocks per Wave", "block", w.wave_blocks);
  text_metric(out, "Waves Per SM", "", fmt_num(buf, sizeof buf, w.waves_per_sm));
  text_metric_uint(out, "Whole Waves", "", w.waves);
  text_metric_uint(out, "Blocks in the Last Wave", "block", w.last_wave_blocks);
  text_metric_uint(out, "SMs Busy in the Last Wave", "SM", w.last_wave_sms);
  text_metric(out, "SM Time Used", "%", fmt_num(buf, sizeof buf, w.sm_time_used_pct));
  text_rule(out);
}

/* ---- modes ---------------------------------------------------------------- */

static gboolean run_single(const Command *c, GString *out, GError **error) {
  OccResult r;
  if (!occupancy_compute(&c->model->sm, &c->launch, &r, error))
    return FALSE;
  if (c->format == FORMAT_TEXT) {
    text_result(out, c->model, &c->launch, &r);
    if (c->grid > 0)
      text_waves(out, &c->model->sm, &r, c->grid);
    return TRUE;
  }
  RowSink sink = {c, FALSE, 0, out};
  ReportRow *row = result_row(c->model, &c->launch, &r);
  if (c->grid > 0)
    add_waves_columns(row, &c->model->sm, &r, c->grid);
  sink_add(&sink, row);
  return TRUE;
}

static gboolean run_best(const Command *c, GString *out, GError **error) {
  OccResult r;
  guint threads = 0;
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (!occupancy_best_block_size(&c->model->sm, &c->launch, &threads, &r, error))
    return FALSE;
  OccLaunch l = c->launch;
  l.threads = threads > 0 ? threads : c->model->sm.warp_size;
  if (c->format == FORMAT_TEXT) {
    if (threads > 0)
      g_string_append_printf(out,
                             "Best block size: %u threads (the largest reaching %s %% "
                             "occupancy: %u blocks, %u warps per SM)\n\n",
                             threads, fmt_num(buf, sizeof buf, r.occupancy_pct), r.blocks_per_sm,
                             r.warps_per_sm);
    else
      g_string_append_printf(out, "Best block size: none (no block size can launch: %s)\n\n",
                             r.reason);
    text_result(out, c->model, &l, &r);
    if (c->grid > 0)
      text_waves(out, &c->model->sm, &r, c->grid);
    return TRUE;
  }
  RowSink sink = {c, FALSE, 0, out};
  ReportRow *row = result_row(c->model, &l, &r);
  report_add_uint(row, "best_block_size", threads);
  if (c->grid > 0)
    add_waves_columns(row, &c->model->sm, &r, c->grid);
  sink_add(&sink, row);
  return TRUE;
}

static gboolean run_smem_for_blocks(const Command *c, guint n_blocks, GString *out,
                                    GError **error) {
  guint bytes = 0;
  const gchar *reason = NULL;
  OccResult r = {0};
  if (!occupancy_smem_for_blocks(&c->model->sm, &c->launch, n_blocks, &bytes, &reason, error))
    return FALSE;
  OccLaunch l = c->launch;
  l.smem_dynamic = bytes;
  if (reason == NULL && !occupancy_compute(&c->model->sm, &l, &r, error))
    return FALSE;
  if (c->format == FORMAT_TEXT) {
    text_launch(out, c->model, &l);
    if (reason != NULL)
      g_string_append_printf(out, "  %u resident blocks per SM are not possible: %s\n", n_blocks,
                             reason);
    else
      g_string_append_printf(out,
                             "  Dynamic shared memory available per block for %u resident "
                             "blocks: %u B (%u blocks per SM at that size)\n",
                             n_blocks, bytes, r.blocks_per_sm);
    return TRUE;
  }
  RowSink sink = {c, FALSE, 0, out};
  ReportRow *row = launch_row(c->model, &l);
  g_autofree gchar *carve = carveout_text(l.carveout_pct);
  report_add_uint(row, "n_blocks", n_blocks);
  report_add_uint(row, "blocks_per_sm", r.blocks_per_sm);
  report_add_str(row, "carveout", carve);
  report_add_str(row, "reason", reason);
  sink_add(&sink, row);
  return TRUE;
}

static const gchar *const vary_units[OCC_VARY_MAX] = {"registers per thread", "threads per block",
                                                      "bytes of shared memory per block"};

static void text_curve(GString *out, OccVary what, GArray *points) {
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_string_append_printf(out, "\n  What-if: occupancy vs %s (* = this launch)\n", vary_units[what]);
  g_string_append_printf(out, "  %10s %7s %6s %12s  %s\n", occupancy_vary_name(what), "blocks",
                         "warps", "occupancy_%", "limiters");
  for (guint i = 0; i < points->len; i++) {
    const OccPoint *p = &g_array_index(points, OccPoint, i);
    g_autoptr(GString) lim = g_string_new(NULL);
    occupancy_limiters_append(lim, p->result.limiter_mask, "+");
    g_string_append_printf(out, "%c %10u %7u %6u %12s  %s\n", p->current ? '*' : ' ', p->value,
                           p->result.blocks_per_sm, p->result.warps_per_sm,
                           fmt_num(buf, sizeof buf, p->result.occupancy_pct), lim->str);
  }
}

static gboolean run_vary(const Command *c, const gchar *which, GString *out, GError **error) {
  RowSink sink = {c, TRUE, 0, out};
  OccVary only = occupancy_vary_from_name(which);
  if (only == OCC_VARY_MAX && strcmp(which, "all") != 0) {
    g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                "--vary: unknown quantity '%s' (allowed regs|threads|smem|all)", which);
    return FALSE;
  }
  if (c->format == FORMAT_TEXT)
    text_launch(out, c->model, &c->launch);
  for (guint v = 0; v < OCC_VARY_MAX; v++) {
    if (only != OCC_VARY_MAX && v != only)
      continue;
    g_autoptr(GArray) points = occupancy_vary(&c->model->sm, &c->launch, v, error);
    if (points == NULL)
      return FALSE;
    if (c->format == FORMAT_TEXT) {
      text_curve(out, v, points);
      continue;
    }
    for (guint i = 0; i < points->len; i++) {
      const OccPoint *p = &g_array_index(points, OccPoint, i);
      ReportRow *row = result_row(c->model, &p->launch, &p->result);
      report_add_str(row, "vary", occupancy_vary_name(v));
      report_add_uint(row, "value", p->value);
      report_add_uint(row, "current", p->current ? 1 : 0);
      sink_add(&sink, row);
    }
  }
  sink_finish(&sink);
  return TRUE;
}

/* ---- batch ---------------------------------------------------------------- */

/* Split a CSV line into trimmed fields (no quoting: the input is numbers). */
static gchar **split_fields(gchar *line) {
  gchar **fields = g_strsplit(line, ",", -1);
  for (guint i = 0; fields[i] != NULL; i++)
    g_strstrip(fields[i]);
  return fields;
}

static gboolean batch_header(const gchar *file, guint lineno, gchar **fields, guint *n_fields,
                             GError **error) {
  static const gchar *const names[] = {"threads", "regs", "smem_static", "smem_dynamic", "optin"};
  guint n = g_strv_length(fields);
  gboolean ok = n == 4 || n == 5;
  for (guint i = 0; ok && i < n; i++)
    ok = strcmp(fields[i], names[i]) == 0;
  if (!ok) {
    g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                "%s:%u: the header must be '" CSV_BATCH_HEADER "'", file, lineno);
    return FALSE;
  }
  *n_fields = n;
  return TRUE;
}

/* One data row of the batch file into `l` (model limits from `sm`). */
static gboolean batch_row(const gchar *file, guint lineno, gchar **fields, guint n_fields,
                          const Command *c, OccLaunch *l, GError **error) {
  static const gchar *const names[] = {"threads", "regs", "smem_static", "smem_dynamic", "optin"};
  guint64 v[5] = {0};
  if (g_strv_length(fields) != n_fields) {
    g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                "%s:%u: %u fields where the header has %u", file, lineno, g_strv_length(fields),
                n_fields);
    return FALSE;
  }
  for (guint i = 0; i < n_fields; i++) {
    guint64 hi = i == 4 ? 1 : G_MAXUINT;
    if (!config_parse_uint(fields[i], &v[i]) || v[i] > hi) {
      g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                  "%s:%u: %s '%s' is not a whole number in 0..%" G_GUINT64_FORMAT, file, lineno,
                  names[i], fields[i], hi);
      return FALSE;
    }
  }
  *l = c->launch;
  l->threads = (guint)v[0];
  l->regs = (guint)v[1];
  l->smem_static = (guint)v[2];
  l->smem_dynamic = (guint)v[3];
  if (n_fields == 5)
    l->optin = v[4] != 0;
  if (!occupancy_check_launch(&c->model->sm, l, error)) {
    g_prefix_error(error, "%s:%u: ", file, lineno);
    return FALSE;
  }
  return TRUE;
}

static gboolean run_batch(const Command *c, const gchar *file, GString *out, GError **error) {
  GError *err = NULL;
  gboolean missing = FALSE;
  /* A regular text file of at most 256 MiB (about 10 million rows). */
  g_autofree gchar *text = config_read_text(file, 256u << 20, &missing, &err);
  if (text == NULL) {
    g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE, "--batch %s", err->message);
    g_error_free(err);
    return FALSE;
  }
  RowSink sink = {c, TRUE, 0, out};
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  guint n_fields = 0;
  for (guint i = 0; lines[i] != NULL; i++) {
    gchar *line = g_strstrip(lines[i]);
    if (*line == '\0' || *line == '#')
      continue;
    g_auto(GStrv) fields = split_fields(line);
    OccLaunch l;
    OccResult r;
    if (n_fields == 0) {
      if (!batch_header(file, i + 1, fields, &n_fields, error))
        return FALSE;
      continue;
    }
    if (!batch_row(file, i + 1, fields, n_fields, c, &l, error) ||
        !occupancy_compute(&c->model->sm, &l, &r, error))
      return FALSE;
    sink_add(&sink, result_row(c->model, &l, &r));
  }
  if (n_fields == 0) {
    g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                "--batch %s: no header line '" CSV_BATCH_HEADER "'", file);
    return FALSE;
  }
  if (sink.n == 0 && c->format == FORMAT_CSV && !c->no_header) {
    OccResult r = {0};
    g_autoptr(ReportRow) empty = result_row(c->model, &c->launch, &r);
    report_csv_header(empty, out);
  }
  sink_finish(&sink);
  return TRUE;
}

/* ---- entry ---------------------------------------------------------------- */

static int fail(GError *error) {
  fprintf(stderr, "warpsim occupancy: %s\n", error->message);
  g_error_free(error);
  return 2;
}

/* Check the options that do not need the model. */
static gboolean check_modes(const Options *o, int argc, char **argv, GError **error) {
  guint modes =
      (o->batch != NULL) + (o->vary != NULL) + (o->best != FALSE) + (o->smem_for_blocks != NULL);
  if (argc > 1) {
    g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                "unexpected argument '%s' (see --help)", argv[1]);
    return FALSE;
  }
  if (modes > 1) {
    g_set_error_literal(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                        "--batch, --vary, --best-block-size and --smem-for-blocks exclude "
                        "each other (allowed: one of them)");
    return FALSE;
  }
  if (o->grid != NULL && (o->batch != NULL || o->vary != NULL || o->smem_for_blocks != NULL)) {
    g_set_error_literal(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                        "--grid goes with a single launch or --best-block-size only");
    return FALSE;
  }
  if (o->model == NULL) {
    g_set_error_literal(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                        "--model is required (a name such as h200, a compute capability such "
                        "as 8.6, or a path; see 'warpsim models')");
    return FALSE;
  }
  return TRUE;
}

static gboolean run_command(const Options *o, Command *c, GString *out, GError **error) {
  const SmLimits *sm = &c->model->sm;
  gboolean need_threads = o->batch == NULL && !o->best;
  gboolean need_regs = o->batch == NULL;
  guint64 grid = 0;
  guint n_blocks = 0;
  if (!parse_format(o->format, o->batch != NULL, &c->format, error) ||
      !parse_launch(o, sm, need_threads, need_regs, &c->launch, error))
    return FALSE;
  if (o->grid != NULL && !parse_number("grid", o->grid, 1, G_MAXINT64, &grid, error))
    return FALSE;
  c->grid = grid;
  c->no_header = o->no_header;
  if (o->smem_for_blocks != NULL)
    return parse_uint_opt("smem-for-blocks", o->smem_for_blocks, 1, sm->max_blocks, &n_blocks,
                          error) &&
           run_smem_for_blocks(c, n_blocks, out, error);
  if (o->batch != NULL)
    return run_batch(c, o->batch, out, error);
  if (o->vary != NULL)
    return run_vary(c, o->vary, out, error);
  if (o->best)
    return run_best(c, out, error);
  return run_single(c, out, error);
}

int cli_occupancy_main(int argc, char **argv) {
  Options o = {0};
  Command c = {0};
  GError *err = NULL;
  g_autoptr(GOptionContext) ctx = options_context(&o);
  int rc = 0;
  if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
    g_prefix_error(&err, "%s", "options: ");
    rc = fail(err);
  } else if (o.help) {
    g_autofree gchar *help = g_option_context_get_help(ctx, TRUE, NULL);
    fputs(help, stdout);
  } else if (!check_modes(&o, argc, argv, &err)) {
    rc = fail(err);
  } else if ((c.model = model_load(o.model, NULL, &err)) == NULL) {
    rc = fail(err);
  } else {
    g_autoptr(GString) out = g_string_new(NULL);
    if (run_command(&o, &c, out, &err))
      fwrite(out->str, 1, out->len, stdout);
    else
      rc = fail(err);
  }
  model_free(c.model);
  options_clear(&o);
  return rc;
}
