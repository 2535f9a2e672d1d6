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

#include "core/sim_error.h"
#include "core/stats.h"
#include "input/kernel.h"
#include "input/model.h"
#include "occupancy/occupancy.h"

#include <glib.h>

typedef struct {
  const gchar *policy;       /* scheduler policy name; NULL = the model's */
  gboolean check_invariants; /* verify per-cycle invariants (tests; slower) */
  SimCycle max_cycles;       /* stop with SIM_ERROR_BOUND past this many cycles; 0 = no bound */
  gint64 deadline_us;        /* stop with SIM_ERROR_BOUND once g_get_monotonic_time() passes
                                it (microseconds); 0 = no deadline */
  gdouble time_factor;       /* the run's counters played this many times slower
                                (sim_result_scale_time: a level anchor,
                                report/profile_anchor.h); 0 or 1 = as simulated */
} SimOptions;

/* SMs of the device holding the same number of the grid's CTAs: the grid
 * is placed breadth-first (occupancy.h), so at most two loads differ by one
 * CTA.  Each distinct load with CTAs is simulated once. */
typedef struct {
  guint blocks; /* CTAs each SM of the group runs over the launch */
  guint sms;    /* SMs in the group */
  SimStats st;  /* counters of one such SM (zero when blocks is 0: the SM idles) */
} SimSmLoad;

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
  gdouble load_l1_hit;         /* global loads' L1 hit rate at this launch (SASS, footprint) */
  gdouble load_l2_hit;         /* the L2 hit rate of loads that miss L1 */
  gchar warnings[512];         /* lines the run warns about (unknown opcodes), or "" */
  SimStats st;                 /* counters of the most loaded SM (loads[0]) */
  SimSmLoad loads[2];          /* the device's SMs by load, most CTAs first */
  guint n_loads;               /* entries of loads */
} SimResult;

/* `r` played `f` times slower (f > 1) or faster: sim_stats_scale_time on
 * the most loaded SM's counters and on every load group's.  What a level
 * anchor (report/profile_anchor.h) makes of the pure run; f > 0. */
void sim_result_scale_time(SimResult *r, gdouble f);

/* The factor by which level `level`'s (MemLevel) per-SM bandwidth, `[l2]` or
 * `[dram] bytes_per_cycle` (one SM's share with every SM busy), was raised
 * for the most loaded SM of `r` (out->st) because fewer SMs were busy while
 * it ran: the harmonic mean over its rounds of CTAs of model_busy_share at
 * the SMs busy in each (doc/model.md, "Bandwidth of a partly busy GPU").
 * The simulation ran that SM at bytes_per_cycle x this; 1 for L1, for a
 * launch that keeps every SM busy, and for a model with lone_sm_ratio 1. */
gdouble sim_level_busy_share(const SmModel *model, const SimResult *r, guint level);

/* Simulate `k` on `model` (both borrowed): the most loaded SM of the launch
 * (ceil(grid / sms) CTAs) into out->st, and, when the grid leaves other SMs
 * one CTA fewer, one of those too (out->loads), so that device-wide numbers
 * weight each load by its SM count.  Fills `out`; FALSE with SIM_ERROR when
 * the launch cannot run, a run passes a bound of `opt` (SIM_ERROR_BOUND; the
 * message says which: "max_cycles" or "deadline") or (with check_invariants)
 * an invariant fails, or the occupancy calculator's OCCUPANCY_ERROR for
 * [launch] keys out of range.
 * Deterministic: the same inputs and kernel seed give the same result. */
gboolean sim_run(const SmModel *model, const Kernel *k, const SimOptions *opt, SimResult *out,
                 GError **error);

/* What sim_run refuses before it simulates, checked without simulating:
 * the model's timing, the policy of `opt` (may be NULL), the launch (0 CTAs
 * fit, [launch] keys out of range) and the program (a SASS kernel's loops
 * and EXIT, an empty synthetic loop); FALSE with sim_run's error.  Lets a
 * caller refuse bad input before it says anything else. */
gboolean sim_check(const SmModel *model, const Kernel *k, const SimOptions *opt, GError **error);

/* A run checked and prepared (sim_check's work, its program built), to be
 * simulated later without building the program again: sim_plan_run gives
 * exactly what sim_run(model, k, opt) gives.  `model` and `k` are borrowed
 * and must outlive the plan; `opt` (may be NULL) is copied.  NULL with
 * sim_check's error.  Free with sim_plan_free. */
typedef struct SimPlan SimPlan;
SimPlan *sim_plan_new(const SmModel *model, const Kernel *k, const SimOptions *opt, GError **error);

/* Simulate `plan` into `out`: sim_run's result and errors (a plan may run
 * more than once; the program is only read). */
gboolean sim_plan_run(const SimPlan *plan, SimResult *out, GError **error);

/* sim_estimate_insts of the plan's model and kernel, from its program. */
gdouble sim_plan_estimate_insts(const SimPlan *plan);

void sim_plan_free(SimPlan *plan);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SimPlan, sim_plan_free)

/* Warp instructions a run of `k` on `model` will issue (its CTAs on this SM x
 * warps per CTA x instructions per warp), without simulating; 0 when the
 * launch cannot run.  A double: the product can pass 2^64.  Lets a caller
 * warn before a very long run. */
gdouble sim_estimate_insts(const SmModel *model, const Kernel *k);

#endif
