/* smsp.h - one SM sub-partition (SMSP): its warp slots, the warps whose
 * operands are ready grouped by issue class, its pipes and dispatch port
 * (the throttles), and the scheduler's pick of one warp per cycle.
 *
 * Internal to the SM core (sm.c): fields are read directly on the hot path.
 */
#ifndef WARPSIM_SMSP_H
#define WARPSIM_SMSP_H

#include "event.h"
#include "sched.h"
#include "warp.h"

#include <glib.h>

/* Issue classes: warps whose next instruction shares a class are blocked or
 * free together in a cycle (same pipe, same throttle). */
typedef enum {
  CLS_FMA,
  CLS_ALU,
  CLS_SFU,
  CLS_SMEM,
  CLS_LOAD,
  CLS_STORE,
  CLS_NONE,
  CLS_MAX
} IssueClass;

/* The issue class of each opcode class. */
extern const guint8 smsp_op_class[OP_MAX];

/* SM-wide units every SMSP's throttles read. */
typedef struct {
  SimCycle smem_free;  /* cycle the shared-memory unit accepts the next LDS */
  EventQueue inflight; /* completion cycles of the loads in flight */
  guint max_inflight;  /* loads in flight per SM before lg_throttle; 0 = no cap */
} SmUnits;

typedef struct {
  Warp *slot[SCHED_MAX_SLOTS];   /* resident warps by slot (NULL when free) */
  guint64 ages[SCHED_MAX_SLOTS]; /* age of each slot's warp */
  guint64 ready[CLS_MAX];        /* warps whose operands are ready, by next issue class */
  guint classes;                 /* bit c set when ready[c] != 0 */
  SimCycle pipe_free[PIPE_MAX];  /* cycle each pipe accepts the next instruction */
  SimCycle dispatch_free;        /* cycle dispatch is free (operand conflicts) */
  gint last_slot;                /* slot selected last (SCHED_NO_SLOT: none) */
  const Warp *last_warp;         /* warp selected last (operand reuse cache) */
  guint n_active;                /* resident, not yet drained warps */
} Smsp;

/* An SMSP with no warps. */
void smsp_init(Smsp *s);

/* The warp's operands are ready: it joins the candidates of its class. */
static inline void smsp_ready(Smsp *s, const Warp *w) {
  s->ready[w->cls] |= 1ULL << w->slot;
  s->classes |= 1u << w->cls;
}

/* The warp issued: it leaves the candidates and becomes the last selected. */
static inline void smsp_issued(Smsp *s, const Warp *w) {
  if ((s->ready[w->cls] &= ~(1ULL << w->slot)) == 0)
    s->classes &= ~(1u << w->cls);
  s->last_slot = (gint)w->slot;
  s->last_warp = w;
}

/* One cycle of the SMSP's scheduler at `now`: tallies its ready warps (all
 * of them as ready; those whose class is blocked to its throttle), lowers
 * *next to the cycle a blocked class frees up, and returns the warp the
 * policy selects (tallied selected, the other eligible ones not_selected),
 * or NULL when none is eligible. */
Warp *smsp_select(Smsp *s, const SmUnits *u, const SchedPolicy *policy, guint group_size,
                  SimCycle now, SimCycle *next, StallTally *t);

#endif
