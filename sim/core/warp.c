/* warp.c - warp start, scoreboard storage and the charging of stalls. */
#include "core/warp.h"

#include <string.h>

void warp_init(Warp *w, guint n_slots) {
  guint n = n_slots + INSTR_SB_BARRIERS;
  w->sb_base = n_slots;
  w->sb.ready_at = g_new0(SimCycle, n);
  w->sb.wait_state = g_new0(guint8, n);
}

void warp_clear(Warp *w) {
  g_free(w->sb.ready_at);
  g_free(w->sb.wait_state);
  w->sb = (Scoreboard){0};
}

void warp_start(Warp *w, const Program *p, guint pc, SimCycle now) {
  guint n = w->sb_base + INSTR_SB_BARRIERS;
  memset(w->sb.ready_at, 0, sizeof(SimCycle) * n);
  memset(w->sb.wait_state, STALL_WAIT, n);
  memcpy(w->counters, p->counter_init, sizeof w->counters);
  w->pc = pc;
  w->in = &p->code[pc];
  w->done = w->at_barrier = 0;
  w->issued = 0;
  w->last_mem = w->charged = now;
}

/* The pending cause of slot `i` that wins over (*state, *end) at `from`. */
static inline void pending(const Warp *w, guint i, SimCycle from, guint8 *state, SimCycle *end) {
  SimCycle r = w->sb.ready_at[i];
  guint8 rr = w->sb.wait_state[i];
  if (r > from && (rr < *state || (rr == *state && r > *end))) {
    *state = rr;
    *end = r;
  }
}

void warp_charge_operand_causes(Warp *w, guint64 *states, SimCycle hold, guint8 hold_reason,
                                SimCycle until) {
  const Instr *in = w->in;
  while (w->charged < until) {
    guint8 state = STALL_MAX;
    SimCycle end = until;
    if (hold > w->charged) {
      state = hold_reason;
      end = hold;
    }
    for (guint i = 0; i < in->n_src; i++)
      pending(w, in->src[i], w->charged, &state, &end);
    for (guint m = in->wait_mask; m != 0; m &= m - 1)
      pending(w, w->sb_base + (guint)__builtin_ctz(m), w->charged, &state, &end);
    if (state == STALL_MAX)
      return;
    warp_charge(w, states, MIN(end, until), (StallState)state);
  }
}
