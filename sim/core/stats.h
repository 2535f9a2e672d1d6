/* stats.h - warp states (Nsight Compute's stall-reason metric suffixes) and
 * the counters one simulated run produces.
 */
#ifndef WARPSIM_STATS_H
#define WARPSIM_STATS_H

#include <glib.h>

typedef guint64 SimCycle;
#define SIM_CYCLE_NEVER G_MAXUINT64

/* The first cycle at or after time `t` (cycles, 0 <= t < 2^63): ceil(t),
 * without libm's call (a double at or above 2^53 is a whole number). */
static inline SimCycle sim_cycle_ceil(gdouble t) {
  gint64 c = (gint64)t; /* signed: one instruction each way (t < 2^63) */
  return (SimCycle)((gdouble)c < t ? c + 1 : c);
}

/* Each active warp is charged to exactly one state every cycle.  Names are
 * Nsight Compute's smsp__pcsamp_warps_issue_stalled_* / *_issue_stalled_*
 * suffixes.  The order below is the documented priority: when several causes
 * hold for a warp in one cycle, the earliest state in this list wins
 * (doc/report.md "Warp states").  `selected` is the warp that issued. */
typedef enum {
  STALL_SELECTED,           /* issued this cycle */
  STALL_DRAIN,              /* exited, waiting for its memory to drain */
  STALL_BARRIER,            /* waiting at __syncthreads for the CTA's other warps */
  STALL_BRANCH_RESOLVING,   /* after a loop branch, before the next fetch */
  STALL_LONG_SCOREBOARD,    /* waiting for a global/local (L1TEX) load; also a ready
                               global load that waits for a miss slot of the SM's
                               lines-in-flight cap (SimStats lg_load_sm), as the H200
                               books it (results/reference/h200/ldst/README.md) */
  STALL_SHORT_SCOREBOARD,   /* waiting for shared memory or MUFU */
  STALL_WAIT,               /* waiting for a fixed-latency producer (FP32, INT) */
  STALL_LG_THROTTLE,        /* a load waits for its warp's DRAM lines in flight
                               (warp_lines_in_flight), or (SASS) a global atomic, or a
                               store (stores_hold_lines), for a miss slot of the SM's
                               lines-in-flight cap */
  STALL_MIO_THROTTLE,       /* eligible but the LSU / shared-memory unit is busy */
  STALL_MATH_PIPE_THROTTLE, /* eligible but its math pipe is busy */
  STALL_DISPATCH_STALL,     /* eligible but dispatch is busy (bank conflict, FP64) */
  STALL_NOT_SELECTED,       /* eligible, another warp was selected */
  STALL_MAX
} StallState;

/* Nsight Compute spelling of `s`, e.g. "long_scoreboard". */
const gchar *stall_name(StallState s);

/* Counters of one run; every rate is derived from these. */
typedef struct {
  SimCycle cycles;             /* cycles from the first CTA launch to the last retire */
  guint64 issued;              /* warp instructions issued */
  guint64 ffma;                /* kernel FFMAs issued (warp level) */
  guint64 loads;               /* global warp-loads issued */
  guint64 load_bytes;          /* bytes those loads moved */
  guint64 level_bytes[3];      /* bytes each global-memory level (MemLevel: L1, L2, DRAM)
                                  served: a load's request at the level it hit (and at
                                  L1 too when a synthetic L1 footprint's load missed: its
                                  data comes back through L1), a store's where it is
                                  written (SASS: DRAM; atomics L2) */
  guint64 spill_insts;         /* local-memory (spill) warp instructions */
  guint64 atomic_bytes;        /* bytes (sectors x sector bytes) of global reductions (RED)
                                  served by the L2 atomic unit ([l2] atomic_sectors_per_cycle) */
  guint64 atomic_return_bytes; /* the same for global atomics that return a value (ATOM) */
  guint64 atomic_cas_bytes;    /* the same for global compare-and-swap (ATOM.CAS) */
  guint64 thread_insts;        /* thread instructions (active lanes) */
  guint64 issue_cycles;        /* sum over SMSPs of cycles with an issue */
  guint64 smsp_active_cycles;  /* sum over SMSPs of cycles with at least one active warp
                                  (Nsight Compute's smsp__cycles_active) */
  guint64 active_warp_cycles;  /* sum over cycles of resident, not-yet-drained warps */
  guint64 ready_warp_cycles;   /* sum over cycles of warps whose operands are ready
                                  (eligible, or throttled by a busy unit) */
  guint64 state[STALL_MAX];    /* warp-cycles per state; sums to active_warp_cycles */
  guint64 lg_throttle_sm;      /* warp-cycles of state[STALL_LG_THROTTLE] in which a store
                                  or atomic waited for the SM's lines-in-flight cap; the rest waited
                                  for their warp's DRAM lines in flight (ProgramMemory
                                  warp_max_inflight) */
  guint64 lg_load_sm;          /* warp-cycles of state[STALL_LONG_SCOREBOARD] in which a
                                  ready global load waited for the SM's lines-in-flight cap
                                  (the SM's lg_full throttle; the rest waited for data) */
  guint64 ctas;                /* CTAs run on this SM */
  guint64 load_latency_sum;    /* cycles, issue to data, summed over loads */
  guint64 ops[24];             /* warp instructions issued per InstrOp (program.h) */
  guint64 pipe_busy[12];       /* cycles x SMSPs each InstrPipe was occupied (interval
                                  per instruction; PIPE_SMEM counts SM-wide cycles: LDS,
                                  STS, SHFL, global loads' L1TEX data, BAR slots) */
} SimStats;

/* The same run played `f` times slower (f > 1) or faster, what a level
 * anchor makes of a pure run (report/profile_anchor.h): every time counter
 * x f (cycles, SMSP active cycles, active and ready warp-cycles, the load
 * latency sum), every count as it was (instructions, bytes, CTAs, issue
 * slots used, pipe busy cycles: the work is the same work).  The warp
 * states keep `selected` (one warp-cycle per issue) and scale the others
 * so that they still sum to the active warp-cycles, each by (f x active -
 * selected) / (active - selected), at least 0; the SM-cap shares of
 * lg_throttle and long_scoreboard with their states.  Values rounded to
 * whole cycles.  f > 0. */
void sim_stats_scale_time(SimStats *st, gdouble f);

/* Ready warps whose class is throttled, counted by state in the current
 * cycle, and charged once the span of cycles in which nothing changes is
 * known (stall_tally_flush): the cycle itself and, when no warp issues,
 * every further cycle of the span.  Only the SM's lines-in-flight cap
 * fills the entries of long_scoreboard (its loads) and lg_throttle (its
 * stores and atomics). */
typedef struct {
  guint64 blocked[STALL_MAX]; /* warps this cycle, by the state they are charged */
  guint any;                  /* non-zero when some entry is */
} StallTally;

/* `n` warps (possibly none) are throttled in `state` this cycle. */
static inline void stall_tally_add(StallTally *t, StallState state, guint n) {
  t->blocked[state] += n;
  t->any |= n;
}

/* The cycle's tally holds for `span` cycles in all: charge it to `st` and
 * reset it.  The warps at the SM's lines-in-flight cap count in
 * st->lg_load_sm (loads: stall_tally_close adds them to long_scoreboard)
 * and st->lg_throttle_sm (stores, atomics: charged lg_throttle here). */
static inline void stall_tally_flush(StallTally *t, SimStats *st, SimCycle span) {
  if (!t->any)
    return;
  st->lg_load_sm += t->blocked[STALL_LONG_SCOREBOARD] * span;
  st->lg_throttle_sm += t->blocked[STALL_LG_THROTTLE] * span;
  t->blocked[STALL_LONG_SCOREBOARD] = 0;
  for (guint i = STALL_LG_THROTTLE; i <= STALL_DISPATCH_STALL; i++) {
    st->state[i] += t->blocked[i] * span;
    t->blocked[i] = 0;
  }
  t->any = 0;
}

/* The run's last flush is done: add the loads' warp-cycles at the SM's
 * lines-in-flight cap (st->lg_load_sm) to long_scoreboard, where the H200
 * samples them (results/reference/h200/ldst/README.md).  Call it exactly
 * once per run, after the last stall_tally_flush (sm_collect does): not
 * called, those warp-cycles are in no state; called twice, counted twice
 * (either way the states no longer sum to the active warp-cycles, which
 * the run's invariant check reports). */
static inline void stall_tally_close(SimStats *st) {
  st->state[STALL_LONG_SCOREBOARD] += st->lg_load_sm;
}

#endif
