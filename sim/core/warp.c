/* warp.c - warp start, scoreboard storage and the charging of stalls. */
#include "core/warp.h"

#include <math.h>
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

void warp_start(Warp *w, const Program *p, guint pc, guint index, guint wpb, SimCycle now) {
  guint n = w->sb_base + INSTR_SB_BARRIERS;
  memset(w->sb.ready_at, 0, sizeof(SimCycle) * n);
  memset(w->sb.wait_state, STALL_WAIT, n);
  memcpy(w->counters, p->counter_init, sizeof w->counters);
  for (guint r = 0; r < p->n_roles; r++) { /* the warps that do not take it fall through first */
    const ProgramRole *role = &p->roles[r];
    guint take = (guint)round(role->taken * wpb);
    if (role->upper ? index < wpb - MIN(take, wpb) : index >= take)
      w->counters[role->counter] = role->fall_init;
  }
  w->pc = pc;
  w->in = &p->code[pc];
  w->done = w->at_barrier = 0;
  w->issued = 0;
  w->last_mem = w->charged = now;
  w->store_pending = 0;
  w->cp_open = 0;
  w->cp_n = 0;
  w->bulk_w = 0;
}

/* Slot `i` joins the causes pending at `from`: end[state] is the latest
 * cycle a pending cause of each state in `states` (a bit per state) ends. */
static inline void pending(const Warp *w, guint i, SimCycle from, SimCycle *end, guint *states) {
  SimCycle r = w->sb.ready_at[i];
  if (r > from) {
    guint s = w->sb.wait_state[i], bit = 1u << s;
    end[s] = *states & bit ? MAX(end[s], r) : r;
    *states |= bit;
  }
}

void warp_charge_operand_causes(Warp *w, guint64 *states, SimCycle hold, guint8 hold_reason,
                                SimCycle until) {
  /* Each cycle goes to the pending cause that comes first in the priority
   * (of one state, the one that ends last), so the states charged follow
   * the priority: once a cause of state s is charged up to its end, every
   * cause of a state up to s has ended.  One pass gathers, per state, when
   * its last pending cause ends; the states are then charged in order, each
   * from where the last one stopped to its end, skipping those ended by
   * then (what choosing the first pending cause cycle after cycle gives). */
  const Instr *in = w->in;
  SimCycle from = w->charged;
  if (from >= until)
    return;
  SimCycle end[STALL_MAX];
  guint pend = 0;
  if (hold > from) {
    end[hold_reason] = hold;
    pend = 1u << hold_reason;
  }
  for (guint i = 0; i < in->n_src; i++)
    pending(w, in->src[i], from, end, &pend);
  for (guint m = in->wait_mask; m != 0; m &= m - 1)
    pending(w, w->sb_base + (guint)__builtin_ctz(m), from, end, &pend);
  for (; pend != 0 && w->charged < until; pend &= pend - 1) { /* (an ended state charges none) */
    guint s = (guint)__builtin_ctz(pend);
    warp_charge(w, states, MIN(end[s], until), (StallState)s);
  }
}
