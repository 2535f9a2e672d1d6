/* smsp.c - an SMSP's throttles and its scheduler's pick. */
#include "smsp.h"

const guint8 smsp_op_class[OP_MAX] = {
    [OP_FFMA] = CLS_FMA, [OP_IALU] = CLS_ALU,  [OP_BRA] = CLS_ALU,  [OP_MUFU] = CLS_SFU,
    [OP_LDS] = CLS_SMEM, [OP_LDG] = CLS_LOAD,  [OP_LDL] = CLS_LOAD, [OP_STL] = CLS_STORE,
    [OP_BAR] = CLS_NONE, [OP_EXIT] = CLS_NONE,
};

void smsp_init(Smsp *s) {
  *s = (Smsp){0};
  s->last_slot = SCHED_NO_SLOT;
}

/* Why warps of class `cls` cannot issue at `now` (STALL_SELECTED: they can);
 * *free_at gets the cycle the obstacle clears.  Priority: lg_throttle,
 * mio_throttle, math_pipe_throttle, dispatch_stall (README "Warp states"). */
static StallState class_blocked(const Smsp *s, const SmUnits *u, IssueClass cls, SimCycle now,
                                SimCycle *free_at) {
  static const guint8 pipe_of[CLS_MAX] = {PIPE_FMA, PIPE_ALU, PIPE_SFU, PIPE_SMEM,
                                          PIPE_LSU, PIPE_LSU, PIPE_NONE};
  switch (cls) {
  case CLS_LOAD:
    if (u->max_inflight > 0 && u->inflight.len >= u->max_inflight) {
      *free_at = event_queue_next(&u->inflight);
      return STALL_LG_THROTTLE;
    }
    G_GNUC_FALLTHROUGH; /* loads also need the LSU */
  case CLS_STORE:
    if (s->pipe_free[PIPE_LSU] > now) {
      *free_at = s->pipe_free[PIPE_LSU];
      return STALL_MIO_THROTTLE;
    }
    break;
  case CLS_SMEM:
    if (u->smem_free > now) {
      *free_at = u->smem_free;
      return STALL_MIO_THROTTLE;
    }
    break;
  case CLS_FMA:
  case CLS_ALU:
  case CLS_SFU:
    if (s->pipe_free[pipe_of[cls]] > now) {
      *free_at = s->pipe_free[pipe_of[cls]];
      return STALL_MATH_PIPE_THROTTLE;
    }
    break;
  case CLS_NONE:
  case CLS_MAX:
    break;
  }
  if (s->dispatch_free > now) {
    *free_at = s->dispatch_free;
    return STALL_DISPATCH_STALL;
  }
  return STALL_SELECTED;
}

Warp *smsp_select(Smsp *s, const SmUnits *u, const SchedPolicy *policy, guint group_size,
                  SimCycle now, SimCycle *next, StallTally *t) {
  guint64 cand = 0;
  for (guint m = s->classes; m != 0; m &= m - 1) {
    guint c = (guint)__builtin_ctz(m);
    guint n = (guint)__builtin_popcountll(s->ready[c]);
    t->ready += n;
    SimCycle free_at = 0;
    StallState b = class_blocked(s, u, (IssueClass)c, now, &free_at);
    if (b == STALL_SELECTED) {
      cand |= s->ready[c];
    } else {
      t->count[b] += n;
      *next = MIN(*next, free_at);
    }
  }
  if (cand == 0)
    return NULL;
  guint n = (guint)__builtin_popcountll(cand), slot;
  if (policy->greedy && s->last_slot != SCHED_NO_SLOT && ((cand >> s->last_slot) & 1u)) {
    slot = (guint)s->last_slot; /* what a greedy policy's pick returns, without the call */
  } else {
    SchedView view = {cand, s->ages, s->last_slot, group_size};
    slot = policy->pick(&view);
  }
  t->count[STALL_SELECTED]++;
  t->count[STALL_NOT_SELECTED] += n - 1;
  return s->slot[slot];
}
