/* rates.h - what a SimResult (sim.h) comes to per cycle and device-wide
 * (rates.c): issue and FFMA rates, bytes per cycle, achieved occupancy,
 * Nsight Compute's scheduler statistics, SM-time used and the tail, and the
 * Little's-law bounds a result is compared with.  Pure functions of a result
 * and the model; the sim_ prefix names what they read (a SimResult).
 */
#ifndef WARPSIM_RATES_H
#define WARPSIM_RATES_H

#include "input/kernel.h"
#include "input/model.h"
#include "run/sim.h"

#include <glib.h>

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
/* Device-wide achieved occupancy, percent: active warps summed over the SMs
 * of every load over their active cycles summed (each SM is active from its
 * first CTA to its last retirement; idle SMs do not count), / max_warps.
 * Nsight Compute's sm__warps_active.avg.pct_of_peak_sustained_active. */
gdouble sim_achieved_occupancy_pct(const SimResult *r, const SmModel *m);
/* The same for the most loaded SM alone (out->st). */
gdouble sim_sm_achieved_occupancy_pct(const SimResult *r, const SmModel *m);

/* Scheduler statistics as Nsight Compute defines them: per scheduler (SMSP)
 * over the cycles in which it has at least one active warp, summed over the
 * SMSPs of every simulated SM weighted by the SMs of its load (the
 * `.avg.per_cycle_active` of a smsp__ metric: sum / summed active cycles). */
typedef struct {
  gdouble active_warps;             /* smsp__warps_active.avg.per_cycle_active */
  gdouble eligible_warps;           /* smsp__warps_eligible.avg.per_cycle_active: warps that could
                                       issue (selected + not_selected) */
  gdouble issued_warps;             /* smsp__issue_active.avg.per_cycle_active: instructions issued
                                       per active cycle (at most 1) */
  gdouble ready_warps;              /* warps with operands ready (eligible or throttled), per active
                                       cycle (no Nsight metric) */
  gdouble one_or_more_eligible_pct; /* smsp__issue_active.avg.pct_of_peak_sustained_active:
                                       active cycles with an eligible warp (it issues) */
} SimSchedStats;

void sim_sched_stats(const SimResult *r, SimSchedStats *out);

/* Device-wide: the share of SM-time the launch used, percent (SM cycles
 * summed over loads / (SMs x the longest load's cycles)); and the share of
 * the run the partial last wave takes, percent ((longest - shortest busy
 * load) / longest; 0 with one load). */
gdouble sim_sm_time_used_pct(const SimResult *r, const SmModel *m);
gdouble sim_tail_pct(const SimResult *r);
gdouble sim_avg_load_latency(const SimResult *r); /* cycles, issue to data */

#endif
