/* launch.h - planning a launch on one SM: the register cap and spills, the
 * occupancy calculator's resident CTAs (capped by [launch] blocks_per_sm),
 * the grid's CTAs that fall on this SM and its waves, and the share of
 * spill accesses L1 holds, the device's SM loads.  Used by sim_run,
 * sim_estimate_insts and the run command's warning.
 */
#ifndef WARPSIM_LAUNCH_H
#define WARPSIM_LAUNCH_H

#include "run/sim.h"

#include <glib.h>

/* Fill the launch fields of `r` (occ .. waves_per_sm, spill_values,
 * regs_allocated, the SM loads without their counters) for `k` on `m`.
 * The registers are the occupancy calculator's: the kernel's count under
 * max_regs and the launch bounds' ceiling, or the warpgroups' launch count.
 * FALSE with the calculator's OCCUPANCY_ERROR (prefixed "FILE: [launch] ")
 * for keys out of range, or SIM_ERROR_LAUNCH when no CTA fits. */
gboolean launch_plan(const SmModel *m, const Kernel *k, SimResult *r, GError **error);

/* The grid spread breadth-first over the SMs (occupancy_spread): r->loads
 * and r->n_loads from r->grid_blocks, counters cleared. */
void launch_sm_loads(const SmModel *m, SimResult *r);

/* Shared memory per SM, bytes, that the launch `r` plans takes from the
 * unified L1 + shared memory: the carveout (r->occ.smem_config), or what the
 * resident CTAs use when that is more.  L1 is [l1] bytes less this, for
 * loads and spills alike. */
gdouble launch_smem_carveout(const SimResult *r);

/* Probability that a spill access hits in L1: every resident warp keeps its
 * spilled values (4 B per thread each); L1 holds what the shared-memory
 * carveout (launch_smem_carveout) leaves of [l1] bytes.  1 when the
 * footprint fits. */
gdouble launch_spill_l1_hit(const SmModel *m, const SimResult *r);

/* Why the kernel's __launch_bounds__ MIN_BLOCKS is not met on `m`, or ""
 * (occupancy_min_blocks_warning).  Returns a new string. */
gchar *launch_warning(const SmModel *m, const Kernel *k, const SimResult *r);

#endif
