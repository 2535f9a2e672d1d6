/* cli_occupancy_rows.c - `warpsim occupancy`: result rows (CSV/JSON columns)
 * and the sink that writes them. */
#include "cli/cli_occupancy_priv.h"

#include <string.h>

G_DEFINE_QUARK(warpsim_cli_occupancy_error, cli_occupancy_error)

/* Text past this size is written out when the sink writes to a file as it goes. */
#define SINK_FLUSH_BYTES 65536

const gchar *cli_occ_fmt_num(gchar *buf, gsize size, gdouble v) {
  g_ascii_formatd(buf, (gint)size, "%.3f", v);
  gchar *end = buf + strlen(buf) - 1;
  while (end > buf && *end == '0')
    *end-- = '\0';
  if (*end == '.')
    *end = '\0';
  return buf;
}

gchar *cli_occ_carveout_text(gint pct) {
  return pct < 0 ? g_strdup("default") : g_strdup_printf("%d", pct);
}

/* Unsigned columns read from a struct (OccLaunch or OccResult) by offset. */
typedef struct {
  const gchar *name;
  gsize offset; /* of a guint (or gboolean) field */
} UintColumn;

#define LIMIT_OFFSET(l) (G_STRUCT_OFFSET(OccResult, limit) + (l) * sizeof(guint))

static const UintColumn launch_columns[] = {
    {"threads", G_STRUCT_OFFSET(OccLaunch, threads)},
    {"smem_static", G_STRUCT_OFFSET(OccLaunch, smem_static)},
    {"smem_dynamic", G_STRUCT_OFFSET(OccLaunch, smem_dynamic)},
    {"optin", G_STRUCT_OFFSET(OccLaunch, optin)},
};
static const UintColumn count_columns[] = {
    {"blocks_per_sm", G_STRUCT_OFFSET(OccResult, blocks_per_sm)},
    {"warps_per_sm", G_STRUCT_OFFSET(OccResult, warps_per_sm)},
};
static const UintColumn limit_columns[] = {
    {"limit_blocks", LIMIT_OFFSET(OCC_LIMIT_BLOCKS)},
    {"limit_warps", LIMIT_OFFSET(OCC_LIMIT_WARPS)},
    {"limit_registers", LIMIT_OFFSET(OCC_LIMIT_REGISTERS)},
    {"limit_shared_mem", LIMIT_OFFSET(OCC_LIMIT_SHARED_MEM)},
    {"regs_per_block", G_STRUCT_OFFSET(OccResult, regs_per_block)},
    {"smem_per_block", G_STRUCT_OFFSET(OccResult, smem_per_block)},
    {"smem_config", G_STRUCT_OFFSET(OccResult, smem_config)},
    {"warps_per_block", G_STRUCT_OFFSET(OccResult, warps_per_block)},
};
static const UintColumn compiler_columns[] = {
    {"launch_bounds_threads", G_STRUCT_OFFSET(OccLaunch, bounds.max_threads)},
    {"launch_bounds_min_blocks", G_STRUCT_OFFSET(OccLaunch, bounds.min_blocks)},
    {"max_regs", G_STRUCT_OFFSET(OccLaunch, bounds.max_regs)},
};
static const UintColumn ceiling_columns[] = {
    {"regs_ceiling", G_STRUCT_OFFSET(OccResult, regs_ceiling)},
    {"regs_allocated", G_STRUCT_OFFSET(OccResult, regs_allocated)},
    {"regs_spilled", G_STRUCT_OFFSET(OccResult, regs_spilled)},
};

static void add_uints(ReportRow *row, gconstpointer base, const UintColumn *cols, guint n) {
  for (guint i = 0; i < n; i++)
    report_add_uint(row, cols[i].name, *(const guint *)((const gchar *)base + cols[i].offset));
}

ReportRow *cli_occ_launch_row(const SmModel *m, const OccLaunch *l) {
  ReportRow *row = report_row_new();
  report_add_str(row, "model", m->name);
  report_add_str(row, "cc", m->cc);
  add_uints(row, l, launch_columns, 1);
  report_add_uint(row, "regs", occupancy_launch_regs(l));
  add_uints(row, l, launch_columns + 1, G_N_ELEMENTS(launch_columns) - 1);
  return row;
}

gdouble cli_occ_ceiling_occupancy(const SmLimits *sm, const OccLaunch *l, const OccResult *r) {
  OccLaunch at = *l;
  OccResult cr;
  at.regs = r->regs_ceiling;
  return occupancy_compute(sm, &at, &cr, NULL) ? cr.occupancy_pct : 0.0;
}

/* launch_bounds_threads ... warning: the compiler's register controls. */
static void add_compiler_columns(ReportRow *row, const SmLimits *sm, const OccLaunch *l,
                                 const OccResult *r) {
  g_autoptr(GString) wg = g_string_new(NULL);
  g_autoptr(GString) warning = g_string_new(NULL);
  for (guint i = 0; i < l->n_warpgroups; i++)
    g_string_append_printf(wg, "%s%u", i ? ";" : "", l->warpgroup_regs[i]);
  occupancy_min_blocks_warning(sm, l, r, warning);
  add_uints(row, l, compiler_columns, G_N_ELEMENTS(compiler_columns));
  report_add_str(row, "warpgroup_regs", wg->str);
  add_uints(row, r, ceiling_columns, G_N_ELEMENTS(ceiling_columns));
  report_add_double(row, "ceiling_occupancy_pct", cli_occ_ceiling_occupancy(sm, l, r), 3);
  report_add_str(row, "warning", warning->str);
}

ReportRow *cli_occ_result_row(const CliOccCommand *c, const OccLaunch *l, const OccResult *r) {
  ReportRow *row = cli_occ_launch_row(c->model, l);
  g_autoptr(GString) lim = g_string_new(NULL);
  g_autofree gchar *carve = cli_occ_carveout_text(l->carveout_pct);
  occupancy_limiters_append(lim, r->limiter_mask, "+");
  add_uints(row, r, count_columns, G_N_ELEMENTS(count_columns));
  report_add_double(row, "occupancy_pct", r->occupancy_pct, 3);
  report_add_str(row, "limiters", lim->str);
  add_uints(row, r, limit_columns, G_N_ELEMENTS(limit_columns));
  report_add_str(row, "carveout", carve);
  report_add_str(row, "reason", r->reason);
  if (c->compiler)
    add_compiler_columns(row, &c->model->sm, l, r);
  return row;
}

/* The histogram as JSON: [{"blocks_per_sm": B, "sms": N}, ...], most first. */
static JsonNode *hist_json(const OccWaves *w) {
  g_autoptr(JsonBuilder) b = json_builder_new();
  json_builder_begin_array(b);
  for (guint i = 0; i < w->n_last_wave_hist; i++) {
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "blocks_per_sm");
    json_builder_add_int_value(b, (gint64)w->last_wave_hist[i].blocks);
    json_builder_set_member_name(b, "sms");
    json_builder_add_int_value(b, w->last_wave_hist[i].sms);
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
  return json_builder_get_root(b);
}

void cli_occ_add_waves_columns(const CliOccCommand *c, ReportRow *row, const OccResult *r,
                               JsonNode **hist) {
  const SmLimits *sm = &c->model->sm;
  OccWaves w;
  occupancy_waves(sm, r->blocks_per_sm, c->grid, &w);
  report_add_uint(row, "grid", c->grid);
  report_add_uint(row, "sms", sm->sms);
  report_add_double(row, "waves_per_sm", w.waves_per_sm, 3);
  report_add_uint(row, "waves", w.waves);
  report_add_uint(row, "last_wave_sms", w.last_wave_sms);
  report_add_double(row, "sm_time_used_pct", w.sm_time_used_pct, 3);
  report_add_double(row, "achievable_occupancy_pct", occupancy_waves_achieved_pct(sm, r, c->grid),
                    3);
  if (c->format == CLI_OCC_FORMAT_JSON) {
    *hist = hist_json(&w);
    return;
  }
  g_autoptr(GString) text = g_string_new(NULL); /* "2:68;1:64": blocks per SM : SMs */
  for (guint i = 0; i < w.n_last_wave_hist; i++)
    g_string_append_printf(text, "%s%" G_GUINT64_FORMAT ":%u", i ? ";" : "",
                           w.last_wave_hist[i].blocks, w.last_wave_hist[i].sms);
  report_add_str(row, "last_wave_blocks_per_sm", text->str);
}

static void sink_flush(CliOccSink *s, gsize keep_below) {
  if (s->dest == NULL || s->out->len < keep_below)
    return;
  fwrite(s->out->str, 1, s->out->len, s->dest);
  g_string_truncate(s->out, 0);
}

void cli_occ_sink_add(CliOccSink *s, ReportRow *row, JsonNode *extra) {
  if (s->cmd->format == CLI_OCC_FORMAT_CSV) {
    if (s->n == 0 && !s->cmd->no_header)
      report_csv_header(row, s->out);
    report_csv_values(row, s->out);
    if (extra != NULL)
      json_node_unref(extra);
  } else {
    if (s->array)
      g_string_append(s->out, s->n == 0 ? "[\n" : ",\n");
    report_json(row, "last_wave_blocks_per_sm", extra, s->out);
    if (s->array)
      g_string_truncate(s->out, s->out->len - 1); /* the separator follows */
  }
  s->n++;
  report_row_free(row);
  sink_flush(s, SINK_FLUSH_BYTES);
}

void cli_occ_sink_finish(CliOccSink *s) {
  if (s->cmd->format == CLI_OCC_FORMAT_JSON && s->array)
    g_string_append(s->out, s->n == 0 ? "[]\n" : "\n]\n");
  sink_flush(s, 1);
}
