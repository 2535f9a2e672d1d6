/* sim.h - one SM, cycle by cycle: SMSPs with one warp scheduler each, per-warp
 * scoreboards, pipes, the memory levels, CTA launch and retirement.
 *
 * Cycles in which nothing can change are skipped, not stepped: the run costs
 * time in proportion to issued instructions plus events.  The grid's CTAs
 * that fall on this SM (ceil(blocks / sms)) run in waves of the resident
 * CTAs the occupancy calculator allows (capped by [launch] blocks_per_sm).
 */
#ifndef WARPSIM_SIM_H
#define WARPSIM_SIM_H

#include "kernel.h"
#include "model.h"
#include "occupancy.h"
#include "stats.h"

#include <glib.h>

typedef struct {
  const gchar *policy;       /* scheduler policy name; NULL = the model's */
  gboolean check_invariants; /* verify per-cycle invariants (tests; slower) */
} SimOptions;

typedef struct {
  OccResult occ;               /* occupancy calculator's answer for the launch */
  guint regs_allocated;        /* registers per thread after the max_regs cap */
  guint spill_values;          /* registers per thread spilled to local memory */
  guint blocks_per_sm;         /* resident CTAs per SM (after the blocks_per_sm cap) */
  guint warps_per_block;       /* warps per CTA */
  guint warps_per_sm;          /* resident warps per SM */
  gdouble occupancy_pct;       /* theoretical: warps_per_sm / max warps, percent */
  guint grid_blocks;           /* CTAs in the whole grid */
  guint sm_blocks;             /* CTAs this SM runs */
  gdouble waves_per_sm;        /* grid_blocks / (blocks_per_sm x sms) */
  const gchar *policy;         /* policy used (static string) */
  guint64 warp_insts_per_warp; /* warp instructions each warp issues */
  guint spilled_per_iter;      /* spilled values each warp reloads and stores per iteration */
  gdouble spill_l1_hit;        /* fraction of spill accesses that hit in L1 */
  SimStats st;                 /* counters */
} SimResult;

#define SIM_ERROR (sim_error_quark())
GQuark sim_error_quark(void);
typedef enum {
  SIM_ERROR_LAUNCH,    /* the launch cannot run (0 CTAs fit, or bad policy) */
  SIM_ERROR_INVARIANT, /* an invariant failed (a bug; only with check_invariants) */
} SimError;

/* Simulate `k` on `model` (both borrowed).  Fills `out`; FALSE with SIM_ERROR
 * when the launch cannot run or (with check_invariants) an invariant fails.
 * Deterministic: the same inputs and kernel seed give the same result. */
gboolean sim_run(const SmModel *model, const Kernel *k, const SimOptions *opt, SimResult *out,
                 GError **error);

/* Warp instructions a run of `k` on `model` will issue (its CTAs on this SM x
 * warps per CTA x instructions per warp), without simulating; 0 when the
 * launch cannot run.  Lets a caller warn before a very long run. */
guint64 sim_estimate_insts(const SmModel *model, const Kernel *k);

/* Little's-law bounds with the model's own numbers (Volkov 2016): throughput
 * = min(peak, resident warps x independent work per warp / latency).
 * FFMA per cycle per SM: min(smsps / fma.interval, warps x ilp / fma.latency)
 * when the kernel has FFMAs (else 0); global bytes per cycle per SM:
 * min(level bandwidth, warps x loads x request bytes / level latency) when it
 * has loads (else 0).  Ignores operand conflicts, loop overhead and queueing:
 * where the simulation departs from it, those mechanisms are why. */
void sim_little_bound(const SmModel *m, const Kernel *k, const SimResult *r, gdouble *fma,
                      gdouble *bytes);

/* Derived rates of a result, per SM per cycle unless said. */
gdouble sim_per_cycle(const SimResult *r, guint64 count);       /* count / cycles (0: none) */
gdouble sim_ipc(const SimResult *r);                            /* warp instructions per cycle */
gdouble sim_fma_per_cycle(const SimResult *r);                  /* kernel warp-FFMAs per cycle */
gdouble sim_loads_per_cycle(const SimResult *r);                /* global warp-loads per cycle */
gdouble sim_bytes_per_cycle(const SimResult *r);                /* global bytes per cycle */
gdouble sim_issue_active(const SimResult *r, const SmModel *m); /* fraction, per SMSP avg */
gdouble sim_achieved_occupancy_pct(const SimResult *r, const SmModel *m);
gdouble sim_avg_load_latency(const SimResult *r); /* cycles, issue to data */

#endif
