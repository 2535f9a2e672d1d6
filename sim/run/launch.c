/* launch.c - launch planning: occupancy, waves, the spill footprint. */
#include "run/launch.h"

#include <string.h>

/* The calculator names fields as the occupancy command's options; a kernel
 * file names them by key.  Rewrites the leading name of `err`'s message. */
static void name_keys(GError *err) {
  static const struct {
    const gchar *option, *key;
  } names[] = {{"threads ", "threads_per_block "},
               {"regs ", "regs_per_thread "},
               {"launch-bounds", "launch_bounds_threads, launch_bounds_min_blocks"},
               {"max-regs ", "max_regs "},
               {"warpgroup-regs:", "warpgroup_regs:"},
               {"smem-static + smem-dynamic ", "smem_static + smem_dynamic "}};
  for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
    if (g_str_has_prefix(err->message, names[i].option)) {
      gchar *msg = g_strconcat(names[i].key, err->message + strlen(names[i].option), NULL);
      g_free(err->message);
      err->message = msg;
      return;
    }
  }
}

gboolean launch_plan(const SmModel *m, const Kernel *k, SimResult *r, GError **error) {
  OccLaunch launch;
  GError *err = NULL;
  kernel_occ_launch(k, &launch);
  if (!occupancy_compute(&m->sm, &launch, &r->occ, &err)) {
    name_keys(err);
    g_propagate_prefixed_error(error, err, "%s: [launch] ", k->file);
    return FALSE;
  }
  if (r->occ.blocks_per_sm == 0) {
    g_autofree gchar *numbers = occupancy_impossible_numbers(&m->sm, &launch, &r->occ);
    g_set_error(error, SIM_ERROR, SIM_ERROR_LAUNCH, "%s: [launch]: cannot launch on %s: %s %s",
                k->file, m->name, r->occ.reason ? r->occ.reason : "no CTA fits", numbers);
    return FALSE;
  }
  r->regs_allocated = r->occ.regs_allocated;
  r->spill_values = r->occ.regs_spilled;
  r->warps_per_block = r->occ.warps_per_block;
  if (k->early_exit >= r->warps_per_block) {
    g_set_error(error, SIM_ERROR, SIM_ERROR_LAUNCH,
                "%s: [stream] early_exit: %u warps per CTA exit at once but a CTA has %u "
                "(threads_per_block %u): no warp would run the loop (allowed 0..%u)",
                k->file, k->early_exit, r->warps_per_block, k->threads_per_block,
                r->warps_per_block - 1);
    return FALSE;
  }
  r->blocks_per_sm = r->occ.blocks_per_sm;
  if (k->blocks_per_sm > 0)
    r->blocks_per_sm = MIN(r->blocks_per_sm, k->blocks_per_sm);
  if (k->cluster_size > 1 && m->cluster_blocks > 0) /* the cluster scheduler's own cap */
    r->blocks_per_sm = MIN(r->blocks_per_sm, m->cluster_blocks);
  r->warps_per_sm = r->blocks_per_sm * r->warps_per_block;
  r->occupancy_pct = 100.0 * r->warps_per_sm / m->sm.max_warps;
  r->grid_blocks = k->blocks > 0 ? k->blocks : r->blocks_per_sm * m->sm.sms;
  r->sm_blocks = (r->grid_blocks + m->sm.sms - 1) / m->sm.sms;
  r->waves_per_sm = (gdouble)r->grid_blocks / ((gdouble)r->blocks_per_sm * m->sm.sms);
  launch_sm_loads(m, r);
  return TRUE;
}

void launch_sm_loads(const SmModel *m, SimResult *r) {
  OccSmLoad spread[2];
  r->n_loads = occupancy_spread(r->grid_blocks, m->sm.sms, spread);
  for (guint i = 0; i < r->n_loads; i++) {
    memset(&r->loads[i], 0, sizeof r->loads[i]);
    r->loads[i].blocks = (guint)spread[i].blocks;
    r->loads[i].sms = spread[i].sms;
  }
}

gdouble launch_smem_carveout(const SimResult *r) {
  return MAX((gdouble)r->occ.smem_config, (gdouble)r->blocks_per_sm * r->occ.smem_per_block);
}

gdouble launch_spill_l1_hit(const SmModel *m, const SimResult *r) {
  gdouble footprint = (gdouble)r->warps_per_sm * r->spill_values * 4.0 * m->sm.warp_size;
  gdouble smem = launch_smem_carveout(r);
  gdouble l1 = m->l1_bytes > smem ? m->l1_bytes - smem : 0.0;
  return footprint <= l1 ? 1.0 : l1 / footprint;
}

gchar *launch_warning(const SmModel *m, const Kernel *k, const SimResult *r) {
  OccLaunch launch;
  kernel_occ_launch(k, &launch);
  GString *w = g_string_new(NULL);
  occupancy_min_blocks_warning(&m->sm, &launch, &r->occ, w);
  return g_string_free(w, FALSE);
}
