/* launch.c - launch planning: occupancy, waves, the spill footprint. */
#include "launch.h"

gboolean launch_plan(const SmModel *m, const Kernel *k, SimResult *r, GError **error) {
  r->regs_allocated = kernel_regs_allocated(k);
  r->spill_values = k->regs_per_thread - r->regs_allocated;
  OccLaunch launch = {.threads = k->threads_per_block,
                      .regs = r->regs_allocated,
                      .smem_static = k->smem_static,
                      .smem_dynamic = k->smem_dynamic,
                      .optin = k->optin,
                      .carveout_pct = -1};
  GError *err = NULL;
  if (!occupancy_compute(&m->sm, &launch, &r->occ, &err)) {
    g_set_error(error, SIM_ERROR, SIM_ERROR_LAUNCH, "%s: [launch] %s", k->file, err->message);
    g_error_free(err);
    return FALSE;
  }
  if (r->occ.blocks_per_sm == 0) {
    g_set_error(error, SIM_ERROR, SIM_ERROR_LAUNCH, "%s: [launch]: cannot launch on %s: %s",
                k->file, m->name, r->occ.reason ? r->occ.reason : "no CTA fits");
    return FALSE;
  }
  r->warps_per_block = r->occ.warps_per_block;
  r->blocks_per_sm = r->occ.blocks_per_sm;
  if (k->blocks_per_sm > 0)
    r->blocks_per_sm = MIN(r->blocks_per_sm, k->blocks_per_sm);
  r->warps_per_sm = r->blocks_per_sm * r->warps_per_block;
  r->occupancy_pct = 100.0 * r->warps_per_sm / m->sm.max_warps;
  r->grid_blocks = k->blocks > 0 ? k->blocks : r->blocks_per_sm * m->sm.sms;
  r->sm_blocks = (r->grid_blocks + m->sm.sms - 1) / m->sm.sms;
  r->waves_per_sm = (gdouble)r->grid_blocks / ((gdouble)r->blocks_per_sm * m->sm.sms);
  return TRUE;
}

gdouble launch_spill_l1_hit(const SmModel *m, const SimResult *r) {
  gdouble footprint = (gdouble)r->warps_per_sm * r->spill_values * 4.0 * m->sm.warp_size;
  gdouble smem = (gdouble)r->blocks_per_sm * r->occ.smem_per_block;
  gdouble l1 = m->l1_bytes > smem ? m->l1_bytes - smem : 0.0;
  return footprint <= l1 ? 1.0 : l1 / footprint;
}
