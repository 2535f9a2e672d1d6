/* cli_occupancy_modes.c - the modes of `warpsim occupancy` that print one
 * result or one curve: a single launch (with --grid), the best block size,
 * shared memory for n blocks and the what-if curves. */
#include "cli/cli_occupancy_priv.h"

#include <string.h>

/* The blocks of `r` that are resident at once on the whole device. */
static guint64 co_resident_blocks(const CliOccCommand *c, const OccResult *r) {
  return (guint64)r->blocks_per_sm * c->model->sm.sms;
}

/* --cooperative: a grid larger than the co-resident blocks cannot launch
 * (cudaLaunchCooperativeKernel: cudaErrorCooperativeLaunchTooLarge). */
static gboolean cooperative_fits(const CliOccCommand *c, const OccResult *r, GError **error) {
  guint64 cap = co_resident_blocks(c, r);
  if (!c->cooperative || c->grid <= cap)
    return TRUE;
  if (cap == 0) { /* no block fits: no --grid would do ("allowed --grid 1..0") */
    g_set_error(error, CLI_OCCUPANCY_ERROR, CLI_OCCUPANCY_ERROR_OPTION,
                "--cooperative: a grid of %" G_GUINT64_FORMAT
                " blocks cannot launch: no block fits on an SM (%s; "
                "cudaLaunchCooperativeKernel fails for any --grid)",
                c->grid, r->reason != NULL ? r->reason : "0 blocks per SM");
    return FALSE;
  }
  g_set_error(error, CLI_OCCUPANCY_ERROR, CLI_OCCUPANCY_ERROR_OPTION,
              "--cooperative: a grid of %" G_GUINT64_FORMAT " blocks cannot be co-resident: %u "
              "blocks per SM x %u SMs = %" G_GUINT64_FORMAT
              " (cudaLaunchCooperativeKernel fails with cudaErrorCooperativeLaunchTooLarge; "
              "allowed --grid 1..%" G_GUINT64_FORMAT ")",
              c->grid, r->blocks_per_sm, c->model->sm.sms, cap, cap);
  return FALSE;
}

static void cooperative_text(const CliOccCommand *c, const OccResult *r, GString *out) {
  if (c->cooperative)
    g_string_append_printf(out,
                           "  Cooperative launch: fits, the grid's %" G_GUINT64_FORMAT
                           " blocks are co-resident (at most %u blocks per SM x %u SMs = "
                           "%" G_GUINT64_FORMAT ")\n",
                           c->grid, r->blocks_per_sm, c->model->sm.sms, co_resident_blocks(c, r));
}

/* The row of one launch (and its --grid columns) into a fresh sink. */
static void single_row(const CliOccCommand *c, const OccLaunch *l, const OccResult *r,
                       guint best_threads, gboolean best, GString *out) {
  CliOccSink sink = {.cmd = c, .out = out};
  JsonNode *hist = NULL;
  ReportRow *row = cli_occ_result_row(c, l, r);
  if (best)
    report_add_uint(row, "best_block_size", best_threads);
  if (c->grid > 0)
    cli_occ_add_waves_columns(c, row, r, &hist);
  if (c->cooperative)
    report_add_uint(row, "co_resident_blocks", co_resident_blocks(c, r));
  cli_occ_sink_add(&sink, row, hist);
  cli_occ_sink_finish(&sink);
}

gboolean cli_occ_run_single(const CliOccCommand *c, GString *out, GError **error) {
  OccResult r;
  if (!occupancy_compute(&c->model->sm, &c->launch, &r, error) || !cooperative_fits(c, &r, error))
    return FALSE;
  if (c->format != CLI_OCC_FORMAT_TEXT) {
    single_row(c, &c->launch, &r, 0, FALSE, out);
    return TRUE;
  }
  cli_occ_text_result(out, c, &c->launch, &r);
  if (c->grid > 0)
    cli_occ_text_waves(out, c->model, &r, c->grid);
  cooperative_text(c, &r, out);
  return TRUE;
}

gboolean cli_occ_run_best(const CliOccCommand *c, GString *out, GError **error) {
  OccResult r;
  guint threads = 0;
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (!occupancy_best_block_size(&c->model->sm, &c->launch, &threads, &r, error))
    return FALSE;
  OccLaunch l = c->launch;
  l.threads = threads > 0 ? threads : c->model->sm.warp_size;
  l.smem_dynamic = occupancy_variable_smem(&c->launch, l.threads);
  if (!cooperative_fits(c, &r, error))
    return FALSE;
  if (c->format != CLI_OCC_FORMAT_TEXT) {
    single_row(c, &l, &r, threads, TRUE, out);
    return TRUE;
  }
  if (threads > 0)
    g_string_append_printf(out,
                           "Best block size: %u threads (the largest reaching %s %% "
                           "occupancy: %u blocks, %u warps per SM)\n\n",
                           threads, cli_occ_fmt_num(buf, sizeof buf, r.occupancy_pct),
                           r.blocks_per_sm, r.warps_per_sm);
  else
    g_string_append_printf(out, "Best block size: none (no block size can launch: %s)\n\n",
                           r.reason);
  cli_occ_text_result(out, c, &l, &r);
  if (c->grid > 0)
    cli_occ_text_waves(out, c->model, &r, c->grid);
  cooperative_text(c, &r, out);
  return TRUE;
}

static void smem_text(GString *out, const CliOccCommand *c, const OccLaunch *l, guint n_blocks,
                      const gchar *reason, const OccResult *r) {
  cli_occ_text_launch(out, c->model, l);
  if (reason != NULL)
    g_string_append_printf(out, "  %u resident blocks per SM are not possible: %s\n", n_blocks,
                           reason);
  else
    g_string_append_printf(out,
                           "  Dynamic shared memory available per block for %u resident "
                           "blocks: %u B (%u blocks per SM at that size)\n",
                           n_blocks, l->smem_dynamic, r->blocks_per_sm);
}

gboolean cli_occ_run_smem_for_blocks(const CliOccCommand *c, guint n_blocks, GString *out,
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
  if (c->format == CLI_OCC_FORMAT_TEXT) {
    smem_text(out, c, &l, n_blocks, reason, &r);
    return TRUE;
  }
  CliOccSink sink = {.cmd = c, .out = out};
  ReportRow *row = cli_occ_launch_row(c->model, &l);
  g_autofree gchar *carve = cli_occ_carveout_text(l.carveout_pct);
  report_add_uint(row, "n_blocks", n_blocks);
  report_add_uint(row, "blocks_per_sm", r.blocks_per_sm);
  report_add_str(row, "carveout", carve);
  report_add_str(row, "reason", reason);
  cli_occ_sink_add(&sink, row, NULL);
  cli_occ_sink_finish(&sink);
  return TRUE;
}

/* The rows of one curve. */
static void vary_rows(CliOccSink *sink, OccVary what, GArray *points) {
  for (guint i = 0; i < points->len; i++) {
    const OccPoint *p = &g_array_index(points, OccPoint, i);
    ReportRow *row = cli_occ_result_row(sink->cmd, &p->launch, &p->result);
    report_add_str(row, "vary", occupancy_vary_name(what));
    report_add_uint(row, "value", p->value);
    report_add_uint(row, "current", p->current ? 1 : 0);
    cli_occ_sink_add(sink, row, NULL);
  }
}

gboolean cli_occ_run_vary(const CliOccCommand *c, const gchar *which, GString *out,
                          GError **error) {
  CliOccSink sink = {.cmd = c, .array = TRUE, .out = out};
  OccVary only = occupancy_vary_from_name(which);
  if (only == OCC_VARY_MAX && strcmp(which, "all") != 0) {
    g_set_error(error, CLI_OCCUPANCY_ERROR, CLI_OCCUPANCY_ERROR_OPTION,
                "--vary: unknown quantity '%s' (allowed regs|threads|smem|all)", which);
    return FALSE;
  }
  if (c->format == CLI_OCC_FORMAT_TEXT)
    cli_occ_text_launch(out, c->model, &c->launch);
  for (guint v = 0; v < OCC_VARY_MAX; v++) {
    if (only != OCC_VARY_MAX && v != only)
      continue;
    g_autoptr(GArray) points = occupancy_vary(&c->model->sm, &c->launch, v, error);
    if (points == NULL)
      return FALSE;
    if (c->format == CLI_OCC_FORMAT_TEXT)
      cli_occ_text_curve(out, v, points);
    else
      vary_rows(&sink, v, points);
  }
  if (c->format != CLI_OCC_FORMAT_TEXT)
    cli_occ_sink_finish(&sink);
  return TRUE;
}
