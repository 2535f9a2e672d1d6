/* cli_occupancy_text.c - `warpsim occupancy` as text: the Occupancy and
 * Launch Statistics sections laid out as Nsight Compute prints them, the
 * compiler's register ceiling and the what-if curves. */
#include "cli/cli_occupancy_priv.h"

/* A section table: Metric Name, Metric Unit, Metric Value (report.c). */
static ReportTable *section_new(GString *out, const gchar *section) {
  static const gchar *const header[] = {"Metric Name", "Metric Unit", "Metric Value"};
  g_string_append_printf(out, "\n  Section: %s\n", section);
  return report_table_new(G_N_ELEMENTS(header), header);
}

static void text_metric(ReportTable *t, const gchar *name, const gchar *unit, gchar *value) {
  report_table_add(t, name);
  report_table_add(t, unit);
  report_table_take(t, value);
}

static void text_metric_uint(ReportTable *t, const gchar *name, const gchar *unit, guint64 v) {
  text_metric(t, name, unit, g_strdup_printf("%" G_GUINT64_FORMAT, v));
}

static void text_metric_num(ReportTable *t, const gchar *name, const gchar *unit, gdouble v) {
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
  text_metric(t, name, unit, g_strdup(cli_occ_fmt_num(buf, sizeof buf, v)));
}

void cli_occ_text_launch(GString *out, const SmModel *m, const OccLaunch *l) {
  g_autofree gchar *carve = cli_occ_carveout_text(l->carveout_pct);
  g_string_append_printf(out, "Occupancy of %s (cc %s): %s\n", m->name, m->cc, m->description);
  g_string_append_printf(out,
                         "  launch: %u threads/block, %u registers/thread, shared memory %u B "
                         "static + %u B dynamic, opt-in %s, carveout %s\n",
                         l->threads, occupancy_launch_regs(l), l->smem_static, l->smem_dynamic,
                         l->optin ? "yes" : "no", carve);
}

/* Why a launch cannot run, with its numbers. */
static void text_impossible(GString *out, const SmModel *m, const OccLaunch *l,
                            const OccResult *r) {
  g_autofree gchar *numbers = occupancy_impossible_numbers(&m->sm, l, r);
  g_string_append_printf(out, "  Cannot launch: %s %s\n", r->reason, numbers);
}

/* The register ceiling, what the kernel gets and MIN_BLOCKS. */
static void text_compiler(GString *out, const CliOccCommand *c, const OccLaunch *l,
                          const OccResult *r) {
  const OccBounds *b = &l->bounds;
  g_string_append(out, "  Compiler:");
  if (b->max_threads > 0)
    g_string_append_printf(out, " __launch_bounds__(%u, %u)", b->max_threads,
                           MAX(b->min_blocks, 1u));
  if (b->max_regs > 0)
    g_string_append_printf(out, " -maxrregcount=%u", b->max_regs);
  if (l->n_warpgroups > 0) {
    g_string_append(out, " warpgroups");
    for (guint i = 0; i < l->n_warpgroups; i++)
      g_string_append_printf(out, "%s%u", i ? "+" : " ", l->warpgroup_regs[i]);
    g_string_append_printf(out, " registers/thread (launch count %u)", occupancy_launch_regs(l));
  }
  g_string_append_printf(out, "; register ceiling %u, %u allocated per thread", r->regs_ceiling,
                         r->regs_allocated);
  if (r->regs_spilled > 0)
    g_string_append_printf(out, " (%u spilled to local memory)", r->regs_spilled);
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_string_append_printf(
      out, "; occupancy at the ceiling %s %%",
      cli_occ_fmt_num(buf, sizeof buf, cli_occ_ceiling_occupancy(&c->model->sm, l, r)));
  g_string_append(out, "\n");
  g_autoptr(GString) warning = g_string_new(NULL);
  occupancy_min_blocks_warning(&c->model->sm, l, r, warning);
  if (warning->len > 0)
    g_string_append_printf(out, "  Warning: %s\n", warning->str);
}

static void occupancy_table(GString *out, const SmLimits *sm, const OccResult *r) {
  g_autoptr(ReportTable) t = section_new(out, "Occupancy");
  text_metric_uint(t, "Block Limit SM", "block", r->limit[OCC_LIMIT_BLOCKS]);
  text_metric_uint(t, "Block Limit Registers", "block", r->limit[OCC_LIMIT_REGISTERS]);
  text_metric_uint(t, "Block Limit Shared Mem", "block", r->limit[OCC_LIMIT_SHARED_MEM]);
  text_metric_uint(t, "Block Limit Warps", "block", r->limit[OCC_LIMIT_WARPS]);
  text_metric_uint(t, "Theoretical Active Warps per SM", "warp", r->warps_per_sm);
  text_metric_num(t, "Theoretical Occupancy", "%", r->occupancy_pct);
  text_metric_num(t, "Theoretical Warps per Scheduler", "warp",
                  (gdouble)r->warps_per_sm / sm->smsps);
  text_metric_uint(t, "Max Warps per Scheduler", "warp", sm->max_warps / sm->smsps);
  text_metric_uint(t, "Warps per Block", "warp", r->warps_per_block);
  text_metric_uint(t, "Registers Allocated per Block", "register", r->regs_per_block);
  text_metric_uint(t, "Shared Memory Allocated per Block", "byte", r->smem_per_block);
  text_metric_uint(t, "Shared Memory Configuration Size", "byte", r->smem_config);
  report_table_write(t, out);
}

void cli_occ_text_result(GString *out, const CliOccCommand *c, const OccLaunch *l,
                         const OccResult *r) {
  const SmLimits *sm = &c->model->sm;
  cli_occ_text_launch(out, c->model, l);
  occupancy_table(out, sm, r);
  g_autoptr(GString) lim = g_string_new(NULL);
  occupancy_limiters_append(lim, r->limiter_mask, ", ");
  g_string_append_printf(out, "  Limiter: %s (%u block%s x %u warp%s = %u of %u warps per SM)\n",
                         lim->str, r->blocks_per_sm, r->blocks_per_sm == 1 ? "" : "s",
                         r->warps_per_block, r->warps_per_block == 1 ? "" : "s", r->warps_per_sm,
                         sm->max_warps);
  if (r->smem_per_block == 0)
    g_string_append(out, "  Shared memory: none allocated; its block limit is the SM's block "
                         "cap and never limits\n");
  if (c->compiler)
    text_compiler(out, c, l, r);
  if (r->blocks_per_sm == 0)
    text_impossible(out, c->model, l, r);
}

void cli_occ_text_waves(GString *out, const SmModel *m, const OccResult *r, guint64 grid) {
  OccWaves w;
  occupancy_waves(&m->sm, r->blocks_per_sm, grid, &w);
  g_autoptr(ReportTable) t = section_new(out, "Launch Statistics");
  text_metric_uint(t, "Grid Size", "block", grid);
  text_metric_uint(t, "SMs", "SM", m->sm.sms);
  text_metric_uint(t, "Blocks per Wave", "block", w.wave_blocks);
  text_metric_num(t, "Waves Per SM", "", w.waves_per_sm);
  text_metric_uint(t, "Waves (rounded up)", "", w.waves);
  text_metric_uint(t, "Blocks in the Last Wave", "block", w.last_wave_blocks);
  text_metric_uint(t, "SMs Busy in the Last Wave", "SM", w.last_wave_sms);
  text_metric_num(t, "SM Time Used", "%", w.sm_time_used_pct);
  text_metric_num(t, "Achievable Occupancy (equal blocks)", "%",
                  occupancy_waves_achieved_pct(&m->sm, r, grid));
  report_table_write(t, out);
  g_string_append(out, "  Last wave, placed breadth-first:");
  for (guint i = 0; i < w.n_last_wave_hist; i++)
    g_string_append_printf(out, "%s %u SM%s with %" G_GUINT64_FORMAT " block%s", i ? "," : "",
                           w.last_wave_hist[i].sms, w.last_wave_hist[i].sms == 1 ? "" : "s",
                           w.last_wave_hist[i].blocks, w.last_wave_hist[i].blocks == 1 ? "" : "s");
  g_string_append(out, "\n");
}

static const gchar *const vary_units[OCC_VARY_MAX] = {"registers per thread", "threads per block",
                                                      "bytes of shared memory per block"};

void cli_occ_text_curve(GString *out, OccVary what, GArray *points) {
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
                           cli_occ_fmt_num(buf, sizeof buf, p->result.occupancy_pct), lim->str);
  }
}
