/* smsp.h - one SM sub-partition (SMSP): its warp slots, the warps whose
 * operands are ready grouped by issue class, its pipes and dispatch port
 * (the throttles), and the scheduler's pick of one warp per cycle.
 *
 * Internal to the SM core (sm.c): fields are read directly on the hot path.
 */
#ifndef WARPSIM_SMSP_H
#define WARPSIM_SMSP_H

#include "core/count_queue.h"
#include "core/sched.h"
#include "core/warp.h"

#include <glib.h>

/* Issue classes: warps whose next instruction shares a class are blocked or
 * free together in a cycle (same pipe, same throttle). */
typedef enum {
  CLS_FMA,
  CLS_ALU,
  CLS_SFU,
  CLS_FP64,     /* SASS programs */
  CLS_TENSOR,   /* SASS programs */
  CLS_FMAHEAVY, /* SASS programs: IMAD */
  CLS_UNIFORM,  /* SASS programs; the last per-SMSP math class */
  CLS_SMEM,
  CLS_LOAD,
  CLS_STORE,
  CLS_ATOMIC, /* SASS: a global atomic served by the L2 atomic unit (Instr atomic): waits
                 as a load does, but is charged lg_throttle, not long_scoreboard, at the
                 SM's lines-in-flight cap (ghist's profile, sassprog.c) */
  CLS_NONE,
  CLS_MAX
} IssueClass;

/* The issue class of each opcode class. */
extern const guint8 smsp_op_class[OP_MAX];

/* SM-wide units every SMSP's throttles read. */
typedef struct {
  SimCycle smem_free;  /* cycle the shared-memory unit has done all it has queued */
  SimCycle smem_block; /* an LDS/STS/SHFL issues from this cycle on (mio_throttle before):
                          smem_free less the queue (smsp_units_update) */
  guint smem_queue;    /* cycles of work the unit may have queued ([smem] queue) */
  CountQueue inflight; /* loads in flight (through L1TEX: lines of loads, and of stores with
                          ProgramMemory stores_hold_lines), by the cycle they complete */
  guint max_inflight;  /* of them per SM before lg_throttle; 0 = no cap */
  gboolean lg_full;    /* the cap is reached (smsp_units_update) */
  guint64 store_held;  /* all ones when global stores hold lines of `inflight` and
                          stores (CLS_STORE) wait while lg_full, as loads do (ProgramMemory
                          stores_hold_lines), else 0: a mask, so the hot path has no branch */
  SimCycle busy_until; /* a unit throttles before this cycle: smem_free, or never when
                          lg_full (smsp_units_update) */
  guint lsu_fifo;      /* [sched] lsu_fifo: queue depth per SMSP, warps (0 = off) */
  gboolean lsu_on;     /* lsu_fifo > 0 and global accesses waited for the lines in flight up
                          to this cycle (Sm lg_held_until): the queue grants them */
} SmUnits;

/* The shared-memory unit or the loads in flight changed: update lg_full,
 * smem_block and busy_until. */
static inline void smsp_units_update(SmUnits *u) {
  u->lg_full = u->max_inflight > 0 && u->inflight.len >= u->max_inflight;
  u->smem_block = u->smem_free - MIN(u->smem_free, (SimCycle)u->smem_queue);
  u->busy_until = u->lg_full ? SIM_CYCLE_NEVER : u->smem_block;
}

/* The SM's lines-in-flight cap (u->lg_full) holds the ready global loads,
 * the ready global stores when they hold lines (u->store_held) and the ready
 * global atomics: given those of the three classes, as disjoint warp sets
 * (bit masks) or as counts of warps, *as_load gets the loads it holds, which
 * are charged long_scoreboard (where the H200 samples them, stats.h), and
 * *as_throttle the stores and atomics it holds, charged lg_throttle (both 0
 * when the cap is not reached).  One rule for the three places that apply
 * it: smsp_class_blocked (its class as a set of one), smsp_unthrottled
 * (one SMSP's masks) and sm_units_throttle_all (the SM's counts). */
static inline void smsp_lg_held(const SmUnits *u, guint64 loads, guint64 stores, guint64 atomics,
                                guint64 *as_load, guint64 *as_throttle) {
  guint64 full = -(guint64)u->lg_full; /* all ones when the cap is reached */
  *as_load = loads & full;
  *as_throttle = ((stores & u->store_held) + atomics) & full; /* (disjoint: + is |) */
}

typedef struct {
  Warp *slot[SCHED_MAX_SLOTS];      /* resident warps by slot (NULL when free) */
  guint64 ages[SCHED_MAX_SLOTS];    /* age of each slot's warp */
  guint64 ready[CLS_MAX];           /* warps whose operands are ready, by next issue class */
  guint64 ready_all;                /* the union of ready[] */
  guint classes;                    /* bit c set when ready[c] != 0 */
  SimCycle pipe_free[PIPE_MAX];     /* cycle each pipe accepts the next instruction */
  SimCycle dispatch_free;           /* cycle dispatch is free (operand conflicts, FP64) */
  SimCycle busy_until;              /* the latest of pipe_free[] and dispatch_free */
  gint last_slot;                   /* slot selected last (SCHED_NO_SLOT: none) */
  guint64 last_mask;                /* bit of last_slot, 0 when none */
  guint64 yielded;                  /* bit of the warp whose last issue had the yield hint: the
                                       next selection prefers any other candidate; 0 when none */
  const Warp *last_warp;            /* warp selected last (operand reuse cache) */
  guint n_active;                   /* resident, not yet drained warps */
  guint64 queued;                   /* slot mask: warps in the SMSP's memory queue ([sched]
                                       lsu_fifo) */
  guint n_queued;                   /* warps in `queued` (its bit count) */
  guint64 queue_seq;                /* arrival number of the next warp to join the queue */
  guint64 arrival[SCHED_MAX_SLOTS]; /* each queued warp's arrival number */
  gboolean ages_in_order;           /* the resident warps' ages rise with their slot, so the
                                       oldest of a set is its lowest slot (smsp_ages_check) */
} Smsp;

/* An SMSP with no warps. */
void smsp_init(Smsp *s);

/* Sets s->ages_in_order after a warp took a slot: whether the resident
 * warps' ages rise with their slot index (every one-wave launch; a CTA that
 * takes a freed low slot breaks it).  Leaving warps cannot break it, so
 * it is worked out on launches only (it may stay FALSE when it holds again:
 * the policies then take the oldest by comparing ages, the same warp). */
void smsp_ages_check(Smsp *s);

/* The oldest of the slots in `m` (non-zero): the lowest when slot order is
 * age order, else the one of least age. */
static inline guint smsp_oldest(const Smsp *s, guint64 m) {
  return s->ages_in_order ? (guint)__builtin_ctzll(m) : sched_least(m, s->ages);
}

/* The warp's operands are ready: it joins the candidates of its class. */
static inline void smsp_ready(Smsp *s, const Warp *w) {
  s->ready[w->cls] |= w->bit;
  s->ready_all |= w->bit;
  s->classes |= 1u << w->cls;
}

/* The warp leaves the candidates of its class. */
static inline void smsp_unready(Smsp *s, const Warp *w) {
  s->ready[w->cls] &= ~(w->bit);
  s->ready_all &= ~(w->bit);
  s->classes &= ~((guint)(s->ready[w->cls] == 0) << w->cls);
}

/* Warps in the set `m`. */
static inline guint smsp_count(guint64 m) {
  return (guint)__builtin_popcountll(m);
}

/* The warp issued: it is the last selected (the operand reuse cache); with
 * `yield` (its instruction's yield hint) the next selection passes it over
 * when another warp is a candidate. */
static inline void smsp_selected(Smsp *s, const Warp *w, gboolean yield) {
  s->yielded = yield ? w->bit : 0;
  if (s->last_warp == w)
    return; /* greedy policies: the common case */
  s->last_slot = (gint)w->slot;
  s->last_mask = w->bit;
  s->last_warp = w;
}

/* A pipe (or dispatch) of the SMSP is busy until `until`. */
static inline void smsp_busy(Smsp *s, SimCycle *free_at, SimCycle until) {
  *free_at = until;
  s->busy_until = MAX(s->busy_until, until);
}

/* Why warps of class `cls` cannot issue at `now` (STALL_SELECTED: they can),
 * as the state they are charged; *free_at gets the cycle the obstacle
 * clears.  Priority: the SM's lines-in-flight cap (smsp_lg_held: a load
 * long_scoreboard, a held store or an atomic lg_throttle), mio_throttle, math_pipe_throttle,
 * dispatch_stall (doc/report.md "Warp states"). */
static inline StallState smsp_class_blocked(const Smsp *s, const SmUnits *u, IssueClass cls,
                                            SimCycle now, SimCycle *free_at) {
  static const guint8 pipe_of[CLS_MAX] = {
      [CLS_FMA] = PIPE_FMA,           [CLS_ALU] = PIPE_ALU,       [CLS_SFU] = PIPE_SFU,
      [CLS_FP64] = PIPE_FP64,         [CLS_TENSOR] = PIPE_TENSOR, [CLS_UNIFORM] = PIPE_UNIFORM,
      [CLS_FMAHEAVY] = PIPE_FMAHEAVY, [CLS_SMEM] = PIPE_SMEM,     [CLS_LOAD] = PIPE_LSU,
      [CLS_STORE] = PIPE_LSU,         [CLS_ATOMIC] = PIPE_LSU,    [CLS_NONE] = PIPE_NONE};
  StallState b = STALL_SELECTED;
  if (cls <= CLS_UNIFORM) {
    if (s->pipe_free[pipe_of[cls]] > now) {
      *free_at = s->pipe_free[pipe_of[cls]];
      return STALL_MATH_PIPE_THROTTLE;
    }
  } else if (cls == CLS_SMEM) {
    if (u->smem_block > now) {
      *free_at = u->smem_block;
      return STALL_MIO_THROTTLE;
    }
  } else if (cls != CLS_NONE) {
    guint64 as_load, as_throttle, one = 1ULL << cls; /* the class as a set of one */
    smsp_lg_held(u, one & 1ULL << CLS_LOAD, one & 1ULL << CLS_STORE, one & 1ULL << CLS_ATOMIC,
                 &as_load, &as_throttle);
    if (as_load | as_throttle) {
      *free_at = count_queue_next(&u->inflight);
      return as_load ? STALL_LONG_SCOREBOARD : STALL_LG_THROTTLE;
    }
    if (s->pipe_free[PIPE_LSU] > now) { /* loads and stores need the LSU */
      *free_at = s->pipe_free[PIPE_LSU];
      return STALL_MIO_THROTTLE;
    }
  }
  if (s->dispatch_free > now) {
    *free_at = s->dispatch_free;
    b = STALL_DISPATCH_STALL;
  }
  return b;
}

/* Ready warps of the SMSP whose class is not throttled at `now`, in *cand,
 * when no pipe or dispatch port of the SMSP is busy, so
 * only the SM-wide units can throttle: the shared-memory unit (mio_throttle)
 * and the lines-in-flight cap (smsp_lg_held).  The throttled ones are charged
 * (stall_tally_add) and lower *next to the cycle their unit frees up, as
 * smsp_class_blocked would; without a branch on the (unpredictable) outcome. */
static inline void smsp_unthrottled(const Smsp *s, const SmUnits *u, SimCycle now, SimCycle *next,
                                    StallTally *t, guint64 *cand) {
  gboolean smem_busy = u->smem_block > now;
  guint n_smem = smem_busy ? smsp_count(s->ready[CLS_SMEM]) : 0;
  guint64 lg_loads, lg_others;
  smsp_lg_held(u, s->ready[CLS_LOAD], s->ready[CLS_STORE], s->ready[CLS_ATOMIC], &lg_loads,
               &lg_others);
  guint n_load = smsp_count(lg_loads), n_others = smsp_count(lg_others);
  *cand = s->ready_all & ~(smem_busy ? s->ready[CLS_SMEM] : 0) & ~(lg_loads | lg_others);
  stall_tally_add(t, STALL_MIO_THROTTLE, n_smem);
  stall_tally_add(t, STALL_LONG_SCOREBOARD, n_load);
  stall_tally_add(t, STALL_LG_THROTTLE, n_others);
  *next = MIN(*next, n_smem ? u->smem_block : SIM_CYCLE_NEVER);
  *next = MIN(*next, n_load + n_others ? count_queue_next(&u->inflight) : SIM_CYCLE_NEVER);
}

/* The warp's global access issued: it leaves the SMSP's memory queue
 * ([sched] lsu_fifo) if it was in it. */
static inline void smsp_dequeue(Smsp *s, const Warp *w) {
  if (s->queued & w->bit) {
    s->queued &= ~w->bit;
    s->n_queued--;
  }
}

/* The memory queue ([sched] lsu_fifo) while the SM's lines in flight are
 * contended: the SMSP's warps whose next instruction is a global load,
 * store or atomic join the queue, oldest first, while it has fewer than
 * u->lsu_fifo; of the candidates `cand`, such warps keep only the queued
 * one that arrived first (none queued among them: all stay).  Returns the
 * candidates left.  Measured (results/reference/h200/memfair/): saxpy's
 * loop (8 loads, 4 stores a thread) keeps its warps together at 8 CTAs per
 * SM and ends oldest first from 12, which a queue of 4 per SMSP gives with
 * gto (mean warp end within 0.016 at B = 4..16; none: 0.10 off at 8). */
static inline guint64 smsp_lsu_queue(Smsp *s, const SmUnits *u, guint64 cand) {
  guint64 mem = s->ready[CLS_LOAD] | s->ready[CLS_STORE] | s->ready[CLS_ATOMIC];
  for (guint64 wait = mem & ~s->queued; wait != 0 && s->n_queued < u->lsu_fifo;) {
    guint best = smsp_oldest(s, wait);
    s->queued |= 1ULL << best;
    s->arrival[best] = s->queue_seq++;
    s->n_queued++;
    wait &= ~(1ULL << best);
  }
  guint64 q = cand & mem & s->queued;
  if (q == 0)
    return cand;
  return (cand & ~mem) | 1ULL << sched_least(q, s->arrival);
}

/* One cycle of the SMSP's scheduler at `now`: charges its ready
 * warps whose class is throttled (stall_tally_add: for the whole span of cycles that follows),
 * lowers *next to the cycle a throttled class frees up, selects one of the others by the policy and
 * counts the rest in *not_selected (the caller charges them); while the SM's lines in flight are
 * contended, the memory queue ([sched] lsu_fifo, smsp_lsu_queue) decides which warp's global access
 * goes first. Returns the selected warp (the caller issues it and counts it selected), or NULL when
 * none is eligible. */
static inline Warp *smsp_select(Smsp *s, const SmUnits *u, const SchedPolicy *policy,
                                gboolean greedy, guint group_size, SimCycle now, SimCycle *next,
                                StallTally *t, guint *not_selected) {
  guint64 cand = s->ready_all; /* nothing throttles: the common case of synthetic kernels */
  /* No ready warp: nothing to charge or select (memory-bound kernels' common case). */
  if (cand == 0)
    return NULL;
  if (G_UNLIKELY(now < s->busy_until)) {
    cand = 0;
    for (guint m = s->classes; m != 0; m &= m - 1) {
      guint c = (guint)__builtin_ctz(m);
      SimCycle free_at = 0;
      StallState b = smsp_class_blocked(s, u, (IssueClass)c, now, &free_at);
      if (b == STALL_SELECTED) {
        cand |= s->ready[c];
      } else {
        stall_tally_add(t, b, smsp_count(s->ready[c]));
        *next = MIN(*next, free_at);
      }
    }
  } else if (G_UNLIKELY(now < u->busy_until)) {
    smsp_unthrottled(s, u, now, next, t, &cand);
  }
  guint64 all = cand;
  if (G_UNLIKELY(u->lsu_on)) /* (the waiting warps join it even when none is a candidate) */
    cand = smsp_lsu_queue(s, u, cand); /* one of cand stays: the others are not selected */
  if (cand == 0)
    return NULL;
  *not_selected += smsp_count(all) - 1;
  if (G_UNLIKELY(s->yielded != 0) && (cand & ~s->yielded) != 0)
    cand &= ~s->yielded; /* the yield hint: another warp goes first */
  if (greedy && (cand & s->last_mask))
    return s->slot[s->last_slot]; /* what a greedy policy's pick returns, without the call */
  if (policy->round_robin)        /* and a round-robin one's */
    return s->slot[sched_next_after(cand, s->last_slot)];
  if (policy->oldest) /* and an oldest-first one's */
    return s->slot[smsp_oldest(s, cand)];
  SchedView view = {cand, s->ages, s->last_slot, group_size};
  return s->slot[policy->pick(&view)];
}

#endif
