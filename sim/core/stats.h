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
  STALL_LONG_SCOREBOARD,    /* waiting for a global/local (L1TEX) load */
  STALL_SHORT_SCOREBOARD,   /* waiting for shared memory or MUFU */
  STALL_WAIT,               /* waiting for a fixed-latency producer (FP32, INT) */
  STALL_LG_THROTTLE,        /* a load (SASS: or store, stores_hold_lines) waits: the SM's
                               lines-in-flight cap is full, or (loads) its
                               warp's DRAM lines in flight (warp_lines_in_flight) */
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
  guint64 thread_insts;        /* thread instructions (active lanes) */
  guint64 issue_cycles;        /* sum over SMSPs of cycles with an issue */
  guint64 smsp_active_cycles;  /* sum over SMSPs of cycles with at least one active warp
                                  (Nsight Compute's smsp__cycles_active) */
  guint64 active_warp_cycles;  /* sum over cycles of resident, not-yet-drained warps */
  guint64 ready_warp_cycles;   /* sum over cycles of warps whose operands are ready
                                  (eligible, or throttled by a busy unit) */
  guint64 state[STALL_MAX];    /* warp-cycles per state; sums to active_warp_cycles */
  guint64 lg_throttle_sm;      /* warp-cycles of state[STALL_LG_THROTTLE] in which the SM's
                                  lines-in-flight cap was full; the rest waited for their
                                  warp's DRAM lines in flight (ProgramMemory
                                  warp_max_inflight) */
  guint64 ctas;                /* CTAs run on this SM */
  guint64 load_latency_sum;    /* cycles, issue to data, summed over loads */
  guint64 ops[24];             /* warp instructions issued per InstrOp (program.h) */
  guint64 pipe_busy[12];       /* cycles x SMSPs each InstrPipe was occupied (interval
                                  per instruction; PIPE_SMEM counts SM-wide cycles: LDS,
                                  STS, SHFL, global loads' L1TEX data, BAR slots) */
} SimStats;

/* Ready warps whose class is throttled, counted by state in the current
 * cycle, and charged once the span of cycles in which nothing changes is
 * known (stall_tally_flush): the cycle itself and, when no warp issues,
 * every further cycle of the span. */
typedef struct {
  guint64 blocked[STALL_MAX]; /* warps this cycle, by throttle state */
  guint any;                  /* non-zero when some entry is */
} StallTally;

/* `n` warps (possibly none) are throttled in `state` this cycle. */
static inline void stall_tally_add(StallTally *t, StallState state, guint n) {
  t->blocked[state] += n;
  t->any |= n;
}

/* The cycle's tally holds for `span` cycles in all: charge it to `states`
 * and reset it. */
static inline void stall_tally_flush(StallTally *t, guint64 *states, SimCycle span) {
  if (!t->any)
    return;
  for (guint i = STALL_LG_THROTTLE; i <= STALL_DISPATCH_STALL; i++) {
    states[i] += t->blocked[i] * span;
    t->blocked[i] = 0;
  }
  t->any = 0;
}

#endif
