/* launch.h - planning a launch on one SM: the register cap and spills, the
 * occupancy calculator's resident CTAs (capped by [launch] blocks_per_sm),
 * the grid's CTAs that fall on this SM and its waves, and the share of
 * spill accesses L1 holds.  Internal to sim_run and sim_estimate_insts.
 */
#ifndef WARPSIM_LAUNCH_H
#define WARPSIM_LAUNCH_H

#include "sim.h"

#include <glib.h>

/* Fill the launch fields of `r` (occ .. waves_per_sm, spill_values,
 * regs_allocated) for `k` on `m`.  FALSE with SIM_ERROR_LAUNCH when the
 * occupancy calculator rejects the launch or no CTA fits. */
gboolean launch_plan(const SmModel *m, const Kernel *k, SimResult *r, GError **error);

/* Probability that a spill access hits in L1: every resident warp keeps its
 * spilled values (4 B per thread each); L1 holds what the resident CTAs'
 * shared memory leaves of [l1] bytes.  1 when the footprint fits. */
gdouble launch_spill_l1_hit(const SmModel *m, const SimResult *r);

#endif
