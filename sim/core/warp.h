/* warp.h - one warp: its pc and branch counters, its scoreboard, and the
 * charging of its cycles to warp states (stats.h).
 *
 * A stalled warp is charged when it goes to sleep (its wake-up cycle is
 * known then, warp_charge_causes); warps that could issue are tallied per
 * cycle by state (StallTally, stats.h) and charged for the span of cycles in
 * which nothing changes.  Internal to the SM core
 * (sm.c, smsp.c): the fields are read directly on the hot path.
 */
#ifndef WARPSIM_WARP_H
#define WARPSIM_WARP_H

#include "core/program.h"
#include "core/stats.h"

#include <glib.h>

/* Per value slot (and scoreboard barrier): when the value is ready and the
 * state a warp waiting on it is in. */
typedef struct {
  SimCycle *ready_at; /* cycle each slot's value is ready; n_slots + INSTR_SB_BARRIERS */
  guint8 *wait_state; /* StallState of waiting on each slot */
} Scoreboard;

typedef struct Warp {
  SimCycle dep_at;   /* when its operands are ready: set when it goes to sleep or waits at a
                        barrier (kept across it), stale while it stays ready */
  SimCycle last_mem; /* cycle its last memory access completes, but for a deferred spill
                        store (store_pending) */
  SimCycle charged;  /* warp states are charged for every cycle before this */
  guint64 age;       /* launch order: lower is older */
  guint64 issued;    /* warp instructions issued since it started */
  guint32 pc;        /* index into the program */
  guint32 counters[PROGRAM_MAX_COUNTERS]; /* branch counters (program.h) */
  guint8 dep_reason;                      /* StallState of dep_at */
  guint8 done;                            /* EXIT issued */
  guint8 at_barrier;                      /* waiting at __syncthreads */
  guint8 cls; /* IssueClass of the next instruction (smsp.h): the ready set that holds the warp,
                 changed only while it is out of them (sm_ready, sm_unready) */
  const Instr *in;     /* the next instruction: code[pc] */
  struct SmDecoded *d; /* the SM's decoded form of `in` (sm.c) */
  guint cta;           /* CTA slot */
  guint smsp;          /* SMSP index */
  guint slot;          /* slot within the SMSP (< 64) */
  guint64 bit;         /* 1 << slot */
  guint lanes;         /* active threads of this warp */
  guint sb_base;       /* index of scoreboard barrier 0 in the scoreboard */
  SimCycle cp_open;    /* cp.async: when the copies of the open group (LDGSTS since the
                          last LDGDEPBAR) are all done */
  SimCycle cp_done[PROGRAM_CP_GROUPS]; /* when each of the last closed groups is done, by
                                          cp_n % PROGRAM_CP_GROUPS */
  guint32 cp_n;                        /* groups closed since the warp started */
  guint32 bulk_w;                      /* mbarrier waits (cp_async 4) since the warp started */
  Scoreboard sb;                       /* owned */
  SimCycle store_at;      /* the deferred spill store (sm_store_defer): the cycle it left the
                             SM's local-memory port for L2 (store_pending) */
  gdouble store_draw;     /* its L2 latency draw (mem_latency_draw) */
  guint8 store_pending;   /* a spill store's completion is not yet in last_mem (sm_store_settle
                             puts it there before last_mem is read) */
  guint8 store_seq;       /* its Instr sequential */
  struct Warp *wake_next; /* next warp of its wake-wheel bucket (sm.c) */
} Warp;

/* Allocate the scoreboard for `n_slots` value slots plus the barriers. */
void warp_init(Warp *w, guint n_slots);
void warp_clear(Warp *w);

/* Start the warp at `pc` of `p` at cycle `now`: scoreboard all ready,
 * counters at the program's counter_init (a role branch's by the warp's
 * `index` among the `wpb` warps of its CTA: ProgramRole), nothing charged
 * before `now`. */
void warp_start(Warp *w, const Program *p, guint pc, guint index, guint wpb, SimCycle now);

/* Charge the warp's cycles [charged, until) to `state` in `states`. */
static inline void warp_charge(Warp *w, guint64 *states, SimCycle until, StallState state) {
  if (until > w->charged) {
    states[state] += until - w->charged;
    w->charged = until;
  }
}

/* warp_charge_causes for an instruction that waits on operands or
 * scoreboard barriers (warp.c). */
void warp_charge_operand_causes(Warp *w, guint64 *states, SimCycle hold, guint8 hold_reason,
                                SimCycle until);

/* Charge the warp's cycles [charged, until), in which it waits for `hold`
 * (`hold_reason`, e.g. a branch resolving) and for the operands of its next
 * instruction: each cycle goes to the pending cause that comes first in the
 * StallState priority (e.g. branch_resolving, then long_scoreboard).
 * Cycles in which nothing is pending are left to the caller. */
static inline void warp_charge_causes(Warp *w, guint64 *states, SimCycle hold, guint8 hold_reason,
                                      SimCycle until) {
  if (w->in->n_src == 0 && w->in->wait_mask == 0) { /* only the hold is pending */
    if (hold > w->charged)
      warp_charge(w, states, MIN(hold, until), (StallState)hold_reason);
    return;
  }
  warp_charge_operand_causes(w, states, hold, hold_reason, until);
}

/* When the operands of the next instruction (its sources and waited
 * barriers) are ready, not before `not_before`; *state (preset to the
 * state of waiting for `not_before`) gets the state of the last one. */
static inline SimCycle warp_operands_ready(const Warp *w, SimCycle not_before, guint8 *state) {
  const Instr *in = w->in;
  SimCycle at = not_before;
  guint8 reason = *state;
  if (G_LIKELY(in->n_src == 1 && in->wait_mask == 0)) { /* the common case, unrolled */
    SimCycle r = w->sb.ready_at[in->src[0]];
    if (r > at) {
      at = r;
      *state = w->sb.wait_state[in->src[0]];
    }
    return at;
  }
  for (guint i = 0; i < in->n_src; i++) {
    SimCycle r = w->sb.ready_at[in->src[i]];
    if (r > at) {
      at = r;
      reason = w->sb.wait_state[in->src[i]];
    }
  }
  for (guint m = in->wait_mask; m != 0; m &= m - 1) {
    guint b = w->sb_base + (guint)__builtin_ctz(m);
    if (w->sb.ready_at[b] > at) {
      at = w->sb.ready_at[b];
      reason = w->sb.wait_state[b];
    }
  }
  *state = reason;
  return at;
}

/* warp_operands_ready, recorded in dep_at and dep_reason (which a barrier
 * keeps until its release). */
static inline SimCycle warp_operands_at(Warp *w, SimCycle not_before, guint8 reason) {
  w->dep_at = warp_operands_ready(w, not_before, &reason);
  w->dep_reason = reason;
  return w->dep_at;
}

/* Record the result of the issued instruction `in`: its dst slot and its
 * scoreboard barrier are ready at `ready`, waited on in `state`. */
static inline void warp_scoreboard_write(Warp *w, const Instr *in, SimCycle ready, guint8 state) {
  if (in->dst != INSTR_NO_SLOT) {
    w->sb.ready_at[in->dst] = ready;
    w->sb.wait_state[in->dst] = state;
  }
  if (in->sb_write != INSTR_NO_SB) {
    /* A barrier counts its producers: it clears when the last one is done. */
    guint b = w->sb_base + in->sb_write;
    if (ready >= w->sb.ready_at[b]) {
      w->sb.ready_at[b] = ready;
      w->sb.wait_state[b] = state;
    }
  }
}

/* The issued instruction's source registers are read at `at`: its read
 * scoreboard barrier `sb` stays set until then. */
static inline void warp_scoreboard_read(Warp *w, guint sb, SimCycle at, guint8 state) {
  guint b = w->sb_base + sb;
  if (at >= w->sb.ready_at[b]) {
    w->sb.ready_at[b] = at;
    w->sb.wait_state[b] = state;
  }
}

/* Move past the issued instruction `in` (taking its branch if it is). */
static inline void warp_advance(Warp *w, const Program *p) {
  w->pc = program_next_pc(w->in, w->pc, w->counters);
  w->in = &p->code[w->pc];
}

#endif
