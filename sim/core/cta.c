/* cta.c - CTAs: launch into a slot, warp retirement, the active-warp count. */
#include "core/cta.h"

#include "core/sm_priv.h"

/* The active warps (and SMSPs) change at `now`, in the wake or CTA stage:
 * charge the cycles since the last change with the old counts. */
void cta_active_changes(Sm *sm, SimCycle now) {
  sm->st.active_warp_cycles += (guint64)sm->n_active * (now - sm->active_since);
  sm->st.smsp_active_cycles += (guint64)sm->n_active_smsps * (now - sm->active_since);
  sm->active_since = now;
}

/* A drained warp leaves the SM at `now`; its CTA retires with its last warp. */
void cta_retire_warp(Sm *sm, Warp *w, SimCycle now) {
  Smsp *s = &sm->smsp[w->smsp];
  cta_active_changes(sm, now);
  sm->st.thread_insts += w->issued * w->lanes;
  s->slot[w->slot] = NULL;
  if (s->last_warp == w)
    s->last_warp = NULL;
  s->yielded &= ~w->bit;
  smsp_dequeue(s, w); /* a warp that exits while queued ([sched] lsu_fifo) */
  sm->n_active--;
  if (--s->n_active == 0)
    sm->n_active_smsps--;
  if (--sm->cta[w->cta].resident == 0) {
    sm->blocks_done++;
    sm->retired[sm->n_retired++] = w->cta;
  }
}

void cta_launch(Sm *sm, guint slot, SimCycle now) {
  guint wpb = sm->l.warps_per_block, ws = sm->m->sm.warp_size;
  Cta *c = &sm->cta[slot];
  c->live = c->resident = wpb;
  c->arrived = 0;
  c->bar_done = 0;
  c->bulk_n = 0;
  c->cluster_bar = 0;
  for (guint i = 0; i < wpb; i++) {
    Warp *w = &sm->warp[slot * wpb + i];
    gboolean exits = i >= wpb - MIN(sm->l.early_exit, wpb); /* straight to EXIT */
    warp_start(w, sm->p, exits ? sm->p->exit_pc : sm->p->entry, i, wpb, now);
    w->d = &sm->dec[w->pc];
    w->cta = slot;
    w->age = sm->next_age++;
    w->lanes = MIN(ws, sm->l.threads_per_block - i * ws);
    Smsp *s = &sm->smsp[w->smsp];
    s->slot[w->slot] = w;
    s->ages[w->slot] = w->age;
    smsp_ages_check(s);
    cta_active_changes(sm, now);
    sm->n_active++;
    if (s->n_active++ == 0)
      sm->n_active_smsps++;
    sm_operands_at(w, now, STALL_WAIT);
    w->cls = w->d->cls;
    sm_ready(sm, s, w);
  }
  sm->blocks_launched++;
}

/* CTA stage: the grid's next CTAs take the slots retired this cycle, in the
 * order they retired; their warps can issue this cycle. */
void cta_launch_retired(Sm *sm, SimCycle now) {
  for (guint i = 0; i < sm->n_retired && sm->blocks_launched < sm->l.blocks; i++)
    cta_launch(sm, sm->retired[i], now);
  sm->n_retired = 0;
}
