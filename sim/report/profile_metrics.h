/* profile_metrics.h - the numbers of the Nsight Compute-style report of one
 * run, section by section (doc/report.md "Reading the report").
 *
 *   - Speed Of Light: SM throughput % = the busiest of the issue slots and of
 *     each pipe (pipe busy cycles / (cycles x SMSPs); the shared-memory unit
 *     serves the whole SM: busy cycles / cycles), memory throughput % =
 *     global bytes per cycle / the bandwidth of the kernel's [stream] level;
 *   - Scheduler Statistics, device-wide, with Nsight Compute's definitions
 *     (sim.h, SimSchedStats): per scheduler over the cycles in which it has
 *     an active warp, summed over the SMSPs of every SM (each simulated load
 *     weighted by its SMs):
 *       active_warps_per_scheduler   smsp__warps_active.avg.per_cycle_active
 *       eligible_warps_per_scheduler smsp__warps_eligible.avg.per_cycle_active
 *                                    (a warp that could issue: selected +
 *                                    not_selected; operand-ready warps also
 *                                    count those whose pipe, dispatch or load
 *                                    slots are busy)
 *       issued_warps_per_scheduler   smsp__issue_active.avg.per_cycle_active
 *       one_or_more_eligible_pct     smsp__issue_active.avg.pct_of_peak_sustained_active
 *     (a scheduler with an eligible warp issues one, so "one or more
 *     eligible" equals issue-active cycles);
 *   - Occupancy: achieved is device-wide, Nsight Compute's
 *     sm__warps_active.avg.pct_of_peak_sustained_active (active warps summed
 *     over the SMs over their active cycles); sm_achieved_pct is the most
 *     loaded SM's alone;
 *   - Warp State Statistics: warp cycles per issued instruction in each state
 *     (st.state[s] / st.issued), largest first, and its share of the total;
 *   - Launch Statistics: grid, block, registers, shared memory, waves per SM,
 *     SM-time used and the tail (from the simulated loads when the grid
 *     leaves SMs unequal).
 *
 * A plain struct: the report, the rules and the CSV row read its fields.
 * Units: percentages are 0..100; "per scheduler" = per SMSP per cycle.
 */
#ifndef WARPSIM_PROFILE_METRICS_H
#define WARPSIM_PROFILE_METRICS_H

#include "input/kernel.h"
#include "input/model.h"
#include "occupancy/occupancy.h"
#include "run/rates.h"
#include "run/sim.h"

#include <glib.h>

/* The units Speed Of Light compares: the issue slots and each pipe. */
typedef enum {
  PROFILE_UNIT_ISSUE, /* issue slots, 1 per cycle per SMSP */
  PROFILE_UNIT_FMA,   /* FP32 pipe, per SMSP */
  PROFILE_UNIT_ALU,   /* INT32 pipe, per SMSP */
  PROFILE_UNIT_SFU,   /* MUFU pipe, per SMSP */
  PROFILE_UNIT_SMEM,  /* shared-memory/L1TEX data stage, per SM ("l1tex") */
  PROFILE_UNIT_LSU,   /* LSU/MIO issue to L1TEX, per SMSP */
  PROFILE_UNIT_MAX
} ProfileUnit;

typedef struct {
  /* The kernel's useful throughput, the number a what-if compares. */
  const gchar *metric;      /* column name: bytes_per_cycle, fma_per_cycle, sfu_per_cycle,
                               lds_per_cycle or ipc (static) */
  const gchar *metric_unit; /* e.g. "warp FFMA/cycle/SM" (static) */
  gdouble throughput;       /* in metric units */

  /* Speed Of Light */
  gdouble unit_pct[PROFILE_UNIT_MAX]; /* percent of each unit's peak */
  gdouble sm_pct;                     /* SM throughput: max of unit_pct */
  ProfileUnit sm_unit;                /* the unit giving sm_pct */
  ProfileUnit busiest_pipe;           /* the busiest unit other than the issue slots */
  gdouble mem_pct;                    /* memory throughput: percent of the level's bandwidth */
  gboolean has_loads;                 /* the kernel issues global loads ([stream] loads > 0) */
  guint mem_level;                    /* MemLevel whose bytes served are the largest share of
                                         its peak bandwidth (the kernel's [stream] level when
                                         none served any) */
  gdouble mem_bytes_per_cycle;        /* bytes per cycle per SM that level served */
  gdouble mem_peak_bytes_per_cycle;   /* the level's peak bytes per cycle per SM */
  gdouble load_latency;               /* cycles, issue to data, average over global loads */
  gdouble load_latency_unloaded;      /* cycles, the level's latency for the kernel's pattern */
  gdouble loads_in_flight;            /* warp-loads in flight per SM, average (Little's law:
                                         loads per cycle x average latency) */
  const gchar *busiest;               /* busiest unit overall: a unit or the memory level name */

  /* Scheduler Statistics (per scheduler per active cycle, device-wide) */
  guint smsps;                      /* schedulers per SM */
  guint max_warps_per_sched;        /* hardware maximum of resident warps per scheduler */
  gdouble active_warps;             /* resident warps */
  gdouble eligible_warps;           /* warps able to issue (selected + not_selected) */
  gdouble issued_warps;             /* warps issued = instructions per cycle per scheduler */
  gdouble ready_warps;              /* warps with operands ready, incl. those stalled by a busy
                                       pipe, dispatch or load slots */
  gdouble issue_slot_pct;           /* issued_warps x 100 */
  gdouble one_or_more_eligible_pct; /* active cycles with an eligible warp, percent */
  gdouble no_eligible_pct;          /* 100 - one_or_more_eligible_pct */
  gdouble threads_per_inst;         /* active threads per issued warp instruction */

  /* Warp State Statistics */
  gdouble state_cpi[STALL_MAX]; /* warp cycles per issued instruction in each state */
  gdouble state_pct[STALL_MAX]; /* percent of all warp cycles */
  guint state_order[STALL_MAX]; /* StallState values, largest first (ties: priority order) */
  gdouble total_cpi;            /* warp cycles per issued instruction, all states */
  gdouble lg_warp_cpi;          /* of state_cpi[STALL_LG_THROTTLE]: waiting for the warp's own
                                   DRAM lines in flight ([class_global]
                                   warp_lines_in_flight) */
  gdouble lg_sm_cpi;            /* the rest of it: stores and (SASS) global atomics waiting
                                   for a miss slot of the SM's lines-in-flight cap (SimStats
                                   lg_throttle_sm) */
  gdouble lsb_sm_cpi;           /* of state_cpi[STALL_LONG_SCOREBOARD]: loads waiting for a
                                   miss slot of the SM's lines-in-flight cap (SimStats
                                   lg_load_sm); the rest waited for their data */
  StallState top_cause;         /* the state cpi_stall names: the largest state other
                                   than selected and not_selected when the loads waiting
                                   for the SM's cap count to lg_throttle (the limiter: lines
                                   in flight), not long_scoreboard, where they are charged
                                   as the H200 does (ties: priority order) */
  gdouble top_cause_cpi;        /* its warp cycles per issued instruction, so counted */
  gdouble top_cause_pct;        /* its percent of all warp cycles, so counted */

  /* Occupancy */
  gdouble theoretical_pct;             /* theoretical occupancy (after a blocks_per_sm cap) */
  gdouble achieved_pct;                /* achieved occupancy, device-wide */
  gdouble sm_achieved_pct;             /* achieved occupancy of the most loaded SM */
  gdouble theoretical_warps_per_sched; /* warps */
  gdouble achieved_warps_per_sched;    /* warps */
  guint occ_blocks_per_sm;             /* CTAs the occupancy calculator allows */
  guint blocks_per_sm;                 /* CTAs resident (after the cap) */
  guint warps_per_sm;                  /* resident warps */
  guint max_warps;                     /* hardware resident warps per SM */
  guint limiter_mask;                  /* OccResult.limiter_mask */
  gboolean capped;                     /* [launch] blocks_per_sm binds below the calculator */
  guint block_limit[OCC_LIMIT_MAX];    /* CTAs per SM each limiter allows */

  /* Launch Statistics */
  guint grid_blocks;           /* CTAs in the grid */
  guint threads_per_block;     /* threads */
  guint warp_size;             /* threads */
  guint regs_per_thread;       /* registers allocated */
  guint smem_per_block;        /* bytes allocated per CTA incl. the reserve */
  guint sms;                   /* SMs of the device */
  guint sm_blocks;             /* CTAs the simulated SM runs */
  gdouble waves_per_sm;        /* grid / (blocks_per_sm x sms) */
  guint64 full_waves;          /* whole waves */
  guint64 partial_wave_blocks; /* CTAs of the partial last wave (0 = none) */
  guint last_wave_sms;         /* SMs busy in the last wave (breadth-first placement) */
  gdouble sm_time_used_pct;    /* SM-time of the device the launch used, percent */
  gdouble tail_pct;            /* share of the runtime the partial wave takes: simulated
                                  ((longest - shortest SM) / longest) when the grid leaves SMs
                                  unequal, else 100 / waves when a partial wave follows a full
                                  one, else 0 */
} ProfileMetrics;

/* The metrics of run `r` of `k` on `m` (all borrowed) into `out`. */
void profile_metrics_compute(const SmModel *m, const Kernel *k, const SimResult *r,
                             ProfileMetrics *out);

/* The kernel's useful throughput of run `r` (what its loop exists to do):
 * sets *metric and *unit (static) and returns the value. */
gdouble profile_metrics_throughput(const Kernel *k, const SimResult *r, const gchar **metric,
                                   const gchar **unit);

/* The occupancy limiter as text: "blocks_per_sm_cap" when the cap binds,
 * else the limiters joined by '+'.  Returns a new string. */
gchar *profile_metrics_limiter(const ProfileMetrics *pm);

/* "issue", "fma", ... (static; "?" when out of range). */
const gchar *profile_unit_name(ProfileUnit u);

#endif
