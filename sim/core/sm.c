/* sm.c - the SM cycle loop: waking, issuing, the cycle and the run. */
#include "core/sm.h"

#include "core/sim_error.h"
#include "core/sm_priv.h"

#include <string.h>

G_DEFINE_QUARK(warpsim_sim_error, sim_error)

/* ---- sleeping and waking ------------------------------------------------- */

G_STATIC_ASSERT((SM_WAKE_CYCLES & (SM_WAKE_CYCLES - 1)) == 0 && SM_WAKE_CYCLES >= 64 &&
                SM_WAKE_CYCLES / 64 <= 64);

/* The first non-empty bucket of the wheel from cycle `from` on (all its
 * warps are due in [from, from + SM_WAKE_CYCLES)); SIM_CYCLE_NEVER when
 * the wheel is empty. */
static SimCycle wheel_first_from(const WakeWheel *h, SimCycle from) {
  guint offset =
      event_bitmap_first(h->used, h->words, SM_WAKE_CYCLES / 64, (guint)(from % SM_WAKE_CYCLES));
  return offset == G_MAXUINT ? SIM_CYCLE_NEVER : from + offset;
}

/* Warp `w` (not exited) wakes at `at`, within SM_WAKE_CYCLES of now. */
static inline void wheel_add(WakeWheel *h, Warp *w, SimCycle at) {
  guint b = (guint)(at % SM_WAKE_CYCLES);
  w->wake_next = h->head[b];
  h->head[b] = w;
  event_bitmap_set(h->used, &h->words, b);
  h->first = MIN(h->first, at);
}

/* The warps due at `now` (the wheel's first cycle), unlinked. */
static inline Warp *wheel_take(WakeWheel *h, SimCycle now) {
  guint b = (guint)(now % SM_WAKE_CYCLES);
  Warp *w = h->head[b];
  h->head[b] = NULL;
  event_bitmap_clear(h->used, &h->words, b);
  h->first = wheel_first_from(h, now + 1);
  return w;
}

/* The cycle the next sleeping warp wakes (SIM_CYCLE_NEVER: none). */
static inline SimCycle sm_next_wake(const Sm *sm) {
  return MIN(sm->wheel.first, event_queue_next(&sm->wake));
}

/* The warp's operands are ready at `now`: it joins its SMSP's candidates;
 * a drained warp retires instead. */
static inline void sm_wake(Sm *sm, Warp *w, SimCycle now) {
  if (G_UNLIKELY(w->done)) {
    cta_retire_warp(sm, w, now);
    return;
  }
  sm_ready(sm, &sm->smsp[w->smsp], w);
}

/* The warp waits until `at` (charged to `reason` at once: nothing can change
 * it), then becomes ready.  `issued_now`: the warp has just issued, so its
 * SMSP is done for this cycle and a warp due next cycle can join the
 * candidates at once (the common back-to-back case, kept off the queues). */
static inline void sm_sleep(Sm *sm, Warp *w, SimCycle at, StallState reason, SimCycle now,
                            gboolean issued_now) {
  warp_charge(w, sm->st.state, at, reason);
  if (at == now + 1 && issued_now && !w->done)
    sm_wake(sm, w, at);
  else if (at == now + 1)
    sm->soon[sm->n_soon++] = w;
  else if (!w->done && at - now < SM_WAKE_CYCLES)
    wheel_add(&sm->wheel, w, at);
  else
    event_queue_push(&sm->wake, at, w);
}

/* Fetch the warp's next instruction: it sleeps until its operands are ready
 * and not before `not_before` (waiting in `nb_reason`), unless at a barrier. */
static inline void sm_fetch(Sm *sm, Warp *w, SimCycle not_before, guint8 nb_reason, SimCycle now,
                            gboolean issued_now) {
  SimCycle at = sm_operands_at(w, not_before, nb_reason);
  w->cls = w->d->cls;
  if (G_UNLIKELY(w->at_barrier))
    return;
  if (at > w->charged) /* else nothing to charge: the common back-to-back case */
    warp_charge_causes(w, sm->st.state, not_before, nb_reason, at);
  sm_sleep(sm, w, at, (StallState)w->dep_reason, now, issued_now);
}

/* Writeback stage: every warp whose wait ends at `now` wakes.  Warps queued
 * for the next cycle during the wake stay for it. */
static void sm_wake_due(Sm *sm, SimCycle now) {
  guint n = sm->n_soon;
  for (guint i = 0; i < n; i++)
    sm_wake(sm, sm->soon[i], now);
  sm->n_soon = 0;
  if (sm->wheel.first == now)
    for (Warp *w = wheel_take(&sm->wheel, now), *next; w != NULL; w = next) {
      next = w->wake_next;
      sm_wake(sm, w, now);
    }
  while (event_queue_next(&sm->wake) <= now)
    sm_wake(sm, event_queue_pop(&sm->wake), now);
}

/* ---- CTAs ----------------------------------------------------------------- */

/* Every live warp of the CTA arrived at the barrier: release them once the
 * barrier unit has taken the last arrival and [barrier] latency has passed
 * (next cycle with the keys 0). */
static void barrier_release(Sm *sm, Cta *c, SimCycle now) {
  guint slot = (guint)(c - sm->cta), wpb = sm->l.warps_per_block;
  SimCycle at = MAX(now + 1, c->bar_done + sm->m->bar_latency +
                                 (c->cluster_bar ? sm->m->bar_cluster_latency : 0));
  c->cluster_bar = 0;
  for (guint i = 0; i < wpb; i++) {
    Warp *w = &sm->warp[slot * wpb + i];
    if (w->at_barrier) {
      w->at_barrier = 0;
      warp_charge(w, sm->st.state, at, STALL_BARRIER);
      warp_charge_causes(w, sm->st.state, 0, STALL_WAIT, MAX(w->dep_at, at));
      sm_sleep(sm, w, MAX(w->dep_at, at), w->dep_reason, now, FALSE);
    }
  }
  c->arrived = 0;
  c->bar_done = 0;
}

/* A warp of CTA `c` arrives at its barrier at `now`: the SM's barrier unit
 * takes arrivals one after another, [barrier] interval cycles each. */
static inline void barrier_arrive(Sm *sm, Cta *c, SimCycle now) {
  SimCycle taken = MAX(now, sm->bar_free) + sm->m->bar_interval;
  sm->bar_free = taken;
  c->bar_done = MAX(c->bar_done, taken);
}

/* ---- TMA bulk copies -------------------------------------------------------- */

/* A TMA bulk copy (UBLKCP, cp_async 3) or an mbarrier wait (SYNCS.PHASECHK,
 * cp_async 4 and its retry 5) of warp `w` issues at `now`; `ready` is what
 * the op's own latency gives.  A copy of `bytes` is served from L2 or DRAM
 * (drawn: L2 with the launch's bulk_l2_hit, a TMA read passes no L1), starts
 * when the SM's copies before it have moved their bytes ([bulk] bytes_per_cycle)
 * and is in shared memory [bulk] latency + cycles_per_kib x KiB later (a DRAM
 * copy no sooner than the [dram] bandwidth lets it); the CTA keeps when.  A
 * wait's result is ready when the CTA's copy numbered by the warp's earlier
 * waits is in (results/reference/h200/tma/: each warp waits on the copies in
 * the order they were issued), not before `ready`; a copy not yet issued
 * (another warp of the CTA issues it later) is not waited for.  Returns the
 * cycle the op's result is ready. */
static SimCycle sm_bulk(Sm *sm, Warp *w, const Instr *in, SimCycle now, SimCycle ready) {
  const SmModel *m = sm->m;
  Cta *c = &sm->cta[w->cta];
  if (m->bulk_latency[0] <= 0)
    return ready; /* no [bulk] model */
  if (in->cp_async == 3) {
    guint lv = sim_rng_double(&sm->rng) < sm->bulk_l2_hit ? 0 : 1;
    gdouble lat = m->bulk_latency[lv] > 0 ? m->bulk_latency[lv] : m->bulk_latency[0];
    SimCycle start = MAX(now, sm->bulk_free);
    if (m->bulk_bytes_per_cycle > 0)
      sm->bulk_free = start + (SimCycle)(in->bytes / m->bulk_bytes_per_cycle + 0.5);
    SimCycle done = start + (SimCycle)(lat + m->bulk_cycles_per_kib[lv] * in->bytes / 1024.0 + 0.5);
    if (lv == 1 && in->bytes > 0) {
      /* (not inside MAX: it evaluates its arguments twice, and a second
       * mem_load would charge the DRAM for the copy's bytes again) */
      SimCycle dram = mem_load(sm->mem, MEM_DRAM, in->bytes, TRUE, start);
      done = MAX(done, dram);
    }
    c->bulk_done[c->bulk_n % PROGRAM_CP_GROUPS] = done;
    c->bulk_n++;
    w->last_mem = MAX(w->last_mem, done);
    return ready;
  }
  guint32 k = w->bulk_w;
  if (in->cp_async == 4)
    w->bulk_w++;
  else if (k > 0)
    k--; /* a retry waits for the copy its first try waited for */
  if (k < c->bulk_n && k + PROGRAM_CP_GROUPS >= c->bulk_n)
    ready = MAX(ready, c->bulk_done[k % PROGRAM_CP_GROUPS]);
  return ready;
}

/* ---- issue ---------------------------------------------------------------- */

/* Pipe and memory effects of issuing `in`; returns the cycle its result is
 * ready and sets *reason to the state a consumer waits in. */
static SimCycle issue_effects(Sm *sm, Smsp *s, Warp *w, const Instr *in, SimCycle now,
                              guint8 *reason) {
  SimCycle ready = now + w->d->latency;
  *reason = STALL_WAIT;
  switch ((InstrOp)in->op) {
  case OP_FFMA:
    /* Register-bank conflict: unless the same warp issued the previous
     * instruction of this SMSP (operands held in the reuse cache), reading
     * two operands from one bank costs an extra dispatch cycle, which also
     * delays the result (doc/model.md "Operand delivery"). */
    if (in->conflict && sm->m->operand_conflict && s->last_warp != w) {
      smsp_busy(s, &s->dispatch_free, now + 1 + sm->m->operand_penalty);
      ready += sm->m->operand_penalty;
    }
    break;
  case OP_MUFU:
    *reason = STALL_SHORT_SCOREBOARD;
    break;
  case OP_LDS:
  case OP_STS:
  case OP_SHFL:
    ready = sm_issue_smem(sm, in, now);
    *reason = STALL_SHORT_SCOREBOARD;
    break;
  case OP_LDL:
  case OP_STL:
    ready = sm_issue_spill(sm, w, in, now);
    *reason = STALL_LONG_SCOREBOARD;
    break;
  case OP_LDG:
  case OP_STG:
    ready = sm_issue_memory(sm, w, in, now);
    *reason = STALL_LONG_SCOREBOARD;
    if (in->cp_async == 1) /* LDGSTS: its copy is done when its data is in */
      w->cp_open = MAX(w->cp_open, ready);
    break;
  case OP_BAR:
    /* A warp arrival passes the MIO like an LDS: it takes the shared-memory
     * unit for one [smem] interval after what it has queued, which delays
     * the next LDS/STS (a barrier-and-shared-memory tree runs one LDS, STS
     * or BAR per cycle on the H200, results/reference/h200/microbench/bar7
     * tree, tree8), though the BAR itself does not wait for the unit (a
     * loop of barriers alone runs at the barrier unit's rate). */
    if (sm->m->bar_smem_slot)
      sm_smem_take(sm, sm->m->smem.interval, now);
    w->at_barrier = 1;
    barrier_arrive(sm, &sm->cta[w->cta], now);
    if (in->membar == 2) /* the cluster's barrier: its release comes later */
      sm->cta[w->cta].cluster_bar = 1;
    break;
  case OP_EXIT:
    w->done = 1;
    break;
  case OP_FP32:
  case OP_IMAD:
  case OP_FP64:
  case OP_TENSOR:
  case OP_CONV:
  case OP_UNIFORM:
  case OP_MISC:
    /* (sm_decode sends the ones that set no scoreboard barrier to the plain
     * path, sm_issue_plain: an effect added here must be added there too.)
     * SASS: a variable-latency producer (it sets a write scoreboard) makes
     * its consumers wait on the short scoreboard. */
    if (in->sb_write != INSTR_NO_SB)
      *reason = STALL_SHORT_SCOREBOARD;
    if (in->cp_async == 2) {
      /* LDGDEPBAR closes the open group; its barrier holds the DEPBAR that
       * waits until at most cp_keep groups are outstanding: until the group
       * closed cp_keep groups before this one is done. */
      w->cp_done[w->cp_n % PROGRAM_CP_GROUPS] = MAX(w->cp_open, now);
      w->cp_n++;
      w->cp_open = 0;
      ready = w->cp_n > in->cp_keep
                  ? MAX(now + 1, w->cp_done[(w->cp_n - 1 - in->cp_keep) % PROGRAM_CP_GROUPS])
                  : now + 1;
      *reason = STALL_LONG_SCOREBOARD;
    }
    break;
  case OP_BRA:
  case OP_IALU:
  case OP_MAX:
    break;
  }
  if (in->cp_async >= 3) {
    ready = sm_bulk(sm, w, in, now, ready);
    if (in->cp_async != 3)
      *reason = STALL_LONG_SCOREBOARD;
  }
  return ready;
}

/* Issue a plain math op (sm_decode: a fixed-latency op on a per-SMSP pipe,
 * no memory, branch, barrier, scoreboard barrier to set or held dispatch):
 * what issue_effects and sm_fetch do for it,
 * with the common case first: the warp's next instruction, of the same
 * issue class, can issue next cycle, so it stays among its SMSP's
 * candidates. */
static inline void sm_issue_plain(Sm *sm, Smsp *s, Warp *w, const Decoded *d, SimCycle now) {
  const Instr *in = w->in;
  SimCycle ready = now + d->latency;
  SimCycle not_before = now + d->stall;
  if (d->interval > 1) /* a pipe free next cycle never throttles: skip the store */
    smsp_busy(s, &s->pipe_free[in->pipe], now + d->interval);
  if (d->conflict && s->last_warp != w) {
    smsp_busy(s, &s->dispatch_free, now + 1 + sm->m->operand_penalty);
    ready += sm->m->operand_penalty;
  }
  if (in->dst != INSTR_NO_SLOT) { /* sb_write: none on this path */
    w->sb.ready_at[in->dst] = ready;
    w->sb.wait_state[in->dst] = STALL_WAIT;
  }
  smsp_selected(s, w, d->yield);
  w->pc++;
  w->in = in + 1;
  w->d++;
  guint8 reason = STALL_WAIT;
  SimCycle at = sm_operands_ready(w, w->d, not_before, &reason);
  guint8 cls = w->d->cls;
  if (G_LIKELY(at == now + 1 && cls == w->cls))
    return; /* stays ready: `charged` is next set when it leaves */
  /* (A global load is never of a plain op's class, CLS_LOAD or CLS_ATOMIC: a warp whose
   * next instruction is one has left by here.) */
  guint8 nb_reason = STALL_WAIT;
  if (G_UNLIKELY(sm_warp_load_wait(sm, w, &not_before, &nb_reason))) {
    reason = nb_reason;
    at = sm_operands_ready(w, w->d, not_before, &reason);
  }
  w->charged = now + 1; /* this cycle: selected, counted by the issue stage */
  w->dep_at = at;
  w->dep_reason = reason;
  sm_unready(sm, s, w);
  w->cls = cls;
  if (at > w->charged)
    warp_charge_causes(w, sm->st.state, not_before, nb_reason, at);
  sm_sleep(sm, w, at, (StallState)reason, now, TRUE);
}

/* Issue the warp's next instruction at `now`. */
static void sm_issue(Sm *sm, Smsp *s, Warp *w, SimCycle now) {
  const Instr *in = w->in;
  Decoded *d = w->d;
  d->issues++;
  w->issued++;
  if (G_LIKELY(!d->slow)) {
    sm_issue_plain(sm, s, w, d, now);
    return;
  }
  w->charged = now + 1; /* this cycle: selected, counted by the issue stage */
  if (in->pipe != PIPE_NONE && in->pipe != PIPE_SMEM)
    smsp_busy(s, &s->pipe_free[in->pipe], now + d->interval);
  if (in->dispatch > 1) /* FP64: its operand reads hold the dispatch (no other warp issues) */
    smsp_busy(s, &s->dispatch_free, now + in->dispatch);
  /* The warp stays in its SMSP's ready sets while its effects are worked out
   * (nothing there reads them); it leaves them below unless it can issue
   * next cycle. */
  guint8 reason;
  SimCycle ready = issue_effects(sm, s, w, in, now, &reason);
  warp_scoreboard_write(w, in, ready, reason);
  if (in->sb_read != INSTR_NO_SB)
    warp_scoreboard_read(w, in->sb_read, now + in->read_latency, reason);
  smsp_selected(s, w, d->yield);
  if (G_UNLIKELY(s->queued != 0))
    smsp_dequeue(s, w); /* (a queued warp's next instruction is a global access: this path) */
  Cta *c = &sm->cta[w->cta];
  if (w->done) {
    /* Drain: resident until its memory accesses complete. */
    sm_store_settle(sm, w);
    sm_unready(sm, s, w);
    sm_sleep(sm, w, MAX(now + 1, w->last_mem), STALL_DRAIN, now, FALSE);
    c->live--;
    if (c->arrived > 0 && c->arrived == c->live)
      barrier_release(sm, c, now);
    return;
  }
  warp_advance(w, sm->p);
  w->d = &sm->dec[w->pc];
  SimCycle not_before = now + d->stall;
  guint8 nb_reason = STALL_WAIT;
  if (in->op == OP_BRA) {
    not_before = MAX(not_before, now + sm->m->branch_latency);
    nb_reason = STALL_BRANCH_RESOLVING;
  }
  if (in->membar == 1 && sm->m->membar_latency[0] > 0) {
    /* MEMBAR.*.GPU: the warp issues again when the SM's fence unit has taken
     * it ([membar] interval) and [membar] latency later, store_latency while
     * a memory access of the warp is in flight (results/reference/h200/tma/
     * fence.csv); charged to `wait` (the model has no membar state). */
    SimCycle start = MAX(now, sm->membar_free);
    sm->membar_free = start + sm->m->membar_interval;
    sm_store_settle(sm, w);
    guint lat = sm->m->membar_latency[w->last_mem > now && sm->m->membar_latency[1] > 0];
    not_before = MAX(not_before, start + lat);
  }
  if (in->dsmem == 2 && sm->dsmem_taken > not_before) {
    /* a DSMEM store holds its warp until the SM's DSMEM port takes it
     * (sm_memory.c sm_dsmem) */
    not_before = sm->dsmem_taken;
    nb_reason = STALL_LG_THROTTLE;
  }
  sm_warp_load_wait(sm, w, &not_before, &nb_reason);
  if (!w->at_barrier) {
    /* The common case of a load or store: the next instruction does not
     * wait for it and can issue next cycle.  What sm_fetch would do then
     * (charge nothing, wake at once) less leaving and rejoining the ready
     * sets. */
    guint8 r = nb_reason;
    if (sm_operands_ready(w, w->d, not_before, &r) == now + 1) {
      if (w->d->cls != w->cls) {
        sm_unready(sm, s, w);
        w->cls = w->d->cls;
        sm_ready(sm, s, w);
      }
      return;
    }
  }
  sm_unready(sm, s, w);
  sm_fetch(sm, w, not_before, nb_reason, now, TRUE);
  if (w->at_barrier && ++c->arrived == c->live)
    barrier_release(sm, c, now);
}

/* ---- the cycle ------------------------------------------------------------ */

/* The SM-wide ready counts and mask agree with the SMSPs' ready sets, and
 * every ready warp sits in the set of its cls (sm_ready, sm_unready). */
static gboolean sm_check_ready(const Sm *sm) {
  guint n_of[CLS_MAX] = {0}, n = 0;
  guint64 mask = 0;
  for (guint i = 0; i < sm->m->sm.smsps; i++) {
    const Smsp *s = &sm->smsp[i];
    guint64 all = 0;
    for (guint c = 0; c < CLS_MAX; c++) {
      n_of[c] += smsp_count(s->ready[c]);
      all |= s->ready[c];
      for (guint64 m = s->ready[c]; m != 0; m &= m - 1) {
        const Warp *w = s->slot[__builtin_ctzll(m)];
        if (w == NULL || w->cls != c)
          return FALSE;
      }
    }
    if (all != s->ready_all)
      return FALSE;
    n += smsp_count(all);
    mask |= (guint64)(all != 0) << i;
  }
  return n == sm->n_ready && mask == sm->ready_smsps &&
         memcmp(n_of, sm->n_ready_of, sizeof n_of) == 0;
}

static gboolean check_cycle(const Sm *sm, SimCycle now, guint issued, guint ready, guint active,
                            GError **error) {
  if (issued <= sm->m->sm.smsps && ready >= issued && active <= sm->m->sm.max_warps &&
      sm_check_ready(sm))
    return TRUE;
  g_set_error(error, SIM_ERROR, SIM_ERROR_INVARIANT,
              "invariant failed at cycle %" G_GUINT64_FORMAT
              ": issued %u, ready %u, active %u (or the ready counts disagree with the SMSPs)",
              now, issued, ready, active);
  return FALSE;
}

/* The counters kept per pc and per warp, summed into `st` at the end: warp
 * instructions issued, per op and per pipe (busy cycles), FFMAs. */
static void sm_collect(const Sm *sm, SimStats *st) {
  for (guint pc = 0; pc < sm->p->n; pc++) {
    const Instr *in = &sm->p->code[pc];
    guint64 n = sm->dec[pc].issues;
    st->issued += n;
    st->ops[in->op] += n;
    if (in->pipe != PIPE_NONE && in->pipe != PIPE_SMEM)
      st->pipe_busy[in->pipe] += n * sm->dec[pc].interval;
    if (in->op == OP_LDS || in->op == OP_STS || in->op == OP_SHFL)
      st->pipe_busy[PIPE_SMEM] += n * sm->m->smem.interval * in->ways;
    if (in->op == OP_BAR && sm->m->bar_smem_slot) /* an arrival's slot (issue_effects) */
      st->pipe_busy[PIPE_SMEM] += n * sm->m->smem.interval;
  }
  st->issue_cycles = st->issued; /* at most one issue per SMSP per cycle */
  st->ffma = st->ops[OP_FFMA];
  st->state[STALL_SELECTED] = sm->selected;
  stall_tally_close(st);
}

static gboolean check_totals(const SimStats *st, GError **error) {
  guint64 sum = 0;
  for (guint i = 0; i < STALL_MAX; i++)
    sum += st->state[i];
  if (sum == st->active_warp_cycles && st->state[STALL_SELECTED] == st->issued &&
      st->ready_warp_cycles >= st->issued && st->lg_throttle_sm <= st->state[STALL_LG_THROTTLE])
    return TRUE; /* (lg_load_sm: the sum counts it once, as stall_tally_close adds it) */
  g_set_error(error, SIM_ERROR, SIM_ERROR_INVARIANT,
              "invariant failed: warp states sum to %" G_GUINT64_FORMAT
              ", active warp-cycles %" G_GUINT64_FORMAT ", selected %" G_GUINT64_FORMAT
              ", issued %" G_GUINT64_FORMAT ", ready %" G_GUINT64_FORMAT
              ", lg_throttle %" G_GUINT64_FORMAT " of it the SM's cap %" G_GUINT64_FORMAT
              ", long_scoreboard %" G_GUINT64_FORMAT " of it the SM's cap %" G_GUINT64_FORMAT,
              sum, st->active_warp_cycles, st->state[STALL_SELECTED], st->issued,
              st->ready_warp_cycles, st->state[STALL_LG_THROTTLE], st->lg_throttle_sm,
              st->state[STALL_LONG_SCOREBOARD], st->lg_load_sm);
  return FALSE;
}

/* One cycle's issue stage: each SMSP's scheduler selects at most one warp
 * and issues it.  Returns the warps issued; lowers *next to the cycle a
 * throttled class frees up. */
static guint sm_issue_stage(Sm *sm, SimCycle now, SimCycle *next) {
  guint issued = 0, not_selected = 0, group = sm->m->sched_group;
  const SchedPolicy *policy = sm->l.policy;
  gboolean greedy = policy->greedy;
  /* The SMSPs with a ready warp, in order: an issue changes only its own
   * SMSP's ready sets this cycle (a warp woken by it waits for the next).
   * While loads wait for the SM's lines in flight (lg_held_until), the order
   * starts one SMSP further each stage, so the SMSPs take the lines the cap
   * frees in turn.  From SMSP 0 always, SMSP 0 took every freed line: the
   * last SMSP's warps starved and ran alone at the end
   * (results/reference/h200/matrix/gload.csv, 128-bit DRAM loads, 1 in
   * flight per thread, B = 13: 14.3 B/cycle/SM simulated, 17.0 measured).
   * Otherwise SMSP 0 first, as before: what order the SMSPs take the
   * shared-memory unit in is not measured (doc/validation.md "SMSPs in
   * turn"). */
  guint first = 0;
  sm->units.lsu_on = FALSE;
  if (sm->lg_held_until >= now) {
    sm->units.lsu_on = sm->units.lsu_fifo > 0;
    first = sm->issue_first;
    sm->issue_first = first + 1 < sm->m->sm.smsps ? first + 1 : 0;
  }
  /* (One loop over the mask rotated by `first`: bit j is SMSP first + j,
   * modulo the SMSPs, at most 8.) */
  guint n = sm->m->sm.smsps;
  guint64 r = sm->ready_smsps;
  guint64 order = first ? ((r >> first) | (r << (n - first))) & ((1ULL << n) - 1) : r;
  for (guint64 m = order; m != 0; m &= m - 1) {
    guint i = (guint)__builtin_ctzll(m) + first;
    Smsp *s = &sm->smsp[i < n ? i : i - n];
    Warp *w =
        smsp_select(s, &sm->units, policy, greedy, group, now, next, &sm->tally, &not_selected);
    if (w != NULL) {
      sm_issue(sm, s, w, now);
      issued++;
    }
  }
  sm->st.state[STALL_NOT_SELECTED] += not_selected;
  return issued;
}

/* The issue stage when every ready warp (`ready` of them) waits for an
 * SM-wide unit, the lines-in-flight cap (lg_full) or the shared-memory
 * unit (mio_throttle), so no SMSP can issue at `now`: charges them and
 * lowers *next to the cycle a unit frees up, as smsp_select would on each
 * SMSP, without visiting them (a third of stencil's loop steps at 8 blocks
 * per SM, doc/speed.md "Speed").  FALSE, with nothing charged, when some ready warp may
 * issue. */
static inline gboolean sm_units_throttle_all(Sm *sm, guint ready, SimCycle now, SimCycle *next) {
  const SmUnits *u = &sm->units;
  if (G_LIKELY(now >= u->busy_until)) /* neither unit throttles */
    return FALSE;
  guint64 lg_loads, lg_others;
  smsp_lg_held(u, sm->n_ready_of[CLS_LOAD], sm->n_ready_of[CLS_STORE], sm->n_ready_of[CLS_ATOMIC],
               &lg_loads, &lg_others);
  guint lg = (guint)(lg_loads + lg_others);
  guint mio = u->smem_block > now ? sm->n_ready_of[CLS_SMEM] : 0;
  if (lg + mio < ready)
    return FALSE;
  stall_tally_add(&sm->tally, STALL_LONG_SCOREBOARD, (guint)lg_loads);
  stall_tally_add(&sm->tally, STALL_LG_THROTTLE, (guint)lg_others);
  stall_tally_add(&sm->tally, STALL_MIO_THROTTLE, mio);
  *next = MIN(*next, lg ? count_queue_next(&u->inflight) : SIM_CYCLE_NEVER);
  *next = MIN(*next, mio ? u->smem_block : SIM_CYCLE_NEVER);
  return TRUE;
}

/* FALSE with SIM_ERROR_BOUND once `now` passes the launch's cycle bound or,
 * checked every 4096 loop steps (a clock read costs more than a step), its
 * deadline. */
static gboolean within_bounds(const Sm *sm, SimCycle now, guint64 step, GError **error) {
  if (now > sm->cycle_bound) {
    g_set_error(error, SIM_ERROR, SIM_ERROR_BOUND,
                "max_cycles: stopped at cycle %" G_GUINT64_FORMAT, now);
    return FALSE;
  }
  if (step % 4096 == 0 && sm->l.deadline_us != 0 && g_get_monotonic_time() > sm->l.deadline_us) {
    g_set_error(error, SIM_ERROR, SIM_ERROR_BOUND, "deadline: stopped at cycle %" G_GUINT64_FORMAT,
                now);
    return FALSE;
  }
  return TRUE;
}

/* One cycle, stages in reverse pipeline order; with no issue, the span of
 * cycles in which nothing can change is skipped.  Stalled warps were
 * charged when they went to sleep; the warps that could issue are charged
 * here for the whole span.  Advances *now; FALSE with an error on a
 * deadlock or (`check`) a failed invariant. */
static inline gboolean sm_cycle(Sm *sm, SimCycle *now_p, gboolean check, GError **error) {
  SimCycle now = *now_p;
  if (sm->n_soon > 0 || sm_next_wake(sm) <= now) {
    sm_wake_due(sm, now); /* writeback: stalled warps wake, drained ones retire */
    if (sm->blocks_done >= sm->l.blocks)
      return TRUE; /* the last CTA retired at `now` */
    if (sm->n_retired > 0)
      cta_launch_retired(sm, now); /* CTAs: the next CTAs take the retired slots */
  }
  if (count_queue_next(&sm->units.inflight) <= now) { /* memory: loads complete */
    count_queue_complete(&sm->units.inflight, now);
    smsp_units_update(&sm->units);
  }
  SimCycle next = SIM_CYCLE_NEVER; /* lowered to the cycle a throttle frees up */
  guint active = sm->n_active;     /* a warp that exits this cycle drains later */
  guint ready = sm->n_ready;
  /* issue: each SMSP's scheduler (none without a ready warp, or when all wait
   * for an SM-wide unit) */
  guint issued = ready > 0 && !sm_units_throttle_all(sm, ready, now, &next)
                     ? sm_issue_stage(sm, now, &next)
                     : 0;
  if (check && !check_cycle(sm, now, issued, ready, active, error))
    return FALSE;
  SimCycle span = 1; /* skip: with no issue, nothing changes before `next` */
  if (issued == 0) {
    next = MIN(next, sm->n_soon ? now + 1 : sm_next_wake(sm));
    if (next == SIM_CYCLE_NEVER) {
      g_set_error(error, SIM_ERROR, SIM_ERROR_INVARIANT,
                  "deadlock at cycle %" G_GUINT64_FORMAT ": no warp can ever issue", now);
      return FALSE;
    }
    span = next - now;
  }
  sm->st.ready_warp_cycles += (guint64)ready * span;
  sm->selected += issued;
  if (sm->tally.any && /* loads, stores or atomics wait for lines ([l2] peak) */
      (sm->tally.blocked[STALL_LONG_SCOREBOARD] | sm->tally.blocked[STALL_LG_THROTTLE]) > 0)
    sm->lg_held_until = now + span;
  stall_tally_flush(&sm->tally, &sm->st, span);
  /* After an issue that left no warp ready, none due next cycle: the cycles
   * before the next wake are empty (nothing to charge: no ready warp),
   * so the next step is that wake's (a third of a memory-bound kernel's
   * steps were these empty ones), unless that is past the launch's cycle
   * bound: the step after the bound reports it. */
  SimCycle wake;
  if (issued > 0 && sm->n_ready == 0 && sm->n_soon == 0 &&
      (wake = sm_next_wake(sm)) != SIM_CYCLE_NEVER && wake <= sm->cycle_bound)
    span = wake - now;
  *now_p = now + span;
  return TRUE;
}

gboolean sm_run(Sm *sm, gboolean check_invariants, SimStats *st, GError **error) {
  SimCycle now = 0;
  guint64 step = 0;
  gboolean ok = TRUE;
  for (guint slot = 0; slot < sm->l.cta_slots && sm->blocks_launched < sm->l.blocks; slot++)
    cta_launch(sm, slot, now);
  while (ok && sm->blocks_done < sm->l.blocks)
    ok = within_bounds(sm, now, ++step, error) && sm_cycle(sm, &now, check_invariants, error);
  if (!ok)
    return FALSE;
  cta_active_changes(sm, now);
  sm->st.cycles = now;
  sm->st.ctas = sm->blocks_done;
  *st = sm->st;
  sm_collect(sm, st);
  return !check_invariants || check_totals(st, error);
}

/* ---- lifecycle ------------------------------------------------------------ */

static void sm_decode(const Sm *sm, const Instr *in, Decoded *d) {
  d->latency = in->latency ? in->latency : sm->latency[in->pipe];
  d->interval = (guint16)(in->interval ? in->interval : sm->interval[in->pipe]);
  d->cls = in->op == OP_LDG && in->atomic ? CLS_ATOMIC : smsp_op_class[in->op];
  /* only FFMAs are flagged (sassprog.c, synth.c) and modelled (issue_effects) */
  d->conflict = in->conflict && sm->m->operand_conflict && in->op == OP_FFMA;
  d->stall = MAX(in->stall, 1);
  d->yield = in->yield && sm->m->sched_yield;
  d->capped = sm->l.mem.warp_max_inflight > 0 && in->op == OP_LDG && !in->dsmem;
  d->deferred =
      in->op == OP_STL && in->dst == INSTR_NO_SLOT && in->sb_write == INSTR_NO_SB && !in->cp_async;
  d->n_ops = 0;
  for (guint i = 0; i < in->n_src; i++)
    d->ops[d->n_ops++] = in->src[i];
  for (guint b = in->wait_mask; b != 0; b &= b - 1)
    d->ops[d->n_ops++] = (guint16)(sm->p->n_slots + (guint)__builtin_ctz(b));
  /* The plain path does what issue_effects and sm_fetch do for an op whose
   * only effects are its pipe and its result register: a fixed-latency math
   * op (FFMA, integer, other FP32, FP64, tensor, conversion, uniform: their
   * issue_effects cases differ only in the state of waiting on a scoreboard
   * barrier, which the plain path does not set) on a per-SMSP pipe, without a
   * branch, scoreboard barrier or held dispatch (a third of stencil's and
   * over half of softmax's instructions are FP32 ops: FADD, FMUL, FMNMX). */
  gboolean math = in->op == OP_FFMA || in->op == OP_IALU || in->op == OP_FP32 ||
                  in->op == OP_FP64 || in->op == OP_TENSOR || in->op == OP_CONV ||
                  in->op == OP_UNIFORM || in->op == OP_IMAD;
  gboolean smsp_pipe = in->pipe != PIPE_NONE && in->pipe != PIPE_SMEM && in->pipe != PIPE_LSU;
  d->slow = !math || !smsp_pipe || in->has_branch || in->sb_write != INSTR_NO_SB ||
            in->sb_read != INSTR_NO_SB || in->dispatch > 1 || in->cp_async || in->membar;
}

Sm *sm_new(const SmLaunch *launch, GError **error) {
  const SmModel *m = launch->model;
  guint n_warps = launch->cta_slots * launch->warps_per_block;
  guint per_smsp = (n_warps + m->sm.smsps - 1) / m->sm.smsps;
  if (per_smsp > SCHED_MAX_SLOTS) {
    g_set_error(error, SIM_ERROR, SIM_ERROR_LAUNCH,
                "%s: [sm] max_warps / smsps: %u warps per SMSP (allowed 1..%d)", m->file, per_smsp,
                SCHED_MAX_SLOTS);
    return NULL;
  }
  Sm *sm = g_new0(Sm, 1);
  sm->l = *launch;
  sm->m = m;
  sm->p = launch->program;
  sim_rng_init(&sm->rng, launch->seed);
  sm->mem = mem_new(m, &sm->rng);
  sm->l2_spread = mem_latency_spread(sm->mem, MEM_L2);
  sm->l2_peak_scale = m->l2_peak_bytes_per_cycle > m->l2.bytes_per_cycle
                          ? m->l2.bytes_per_cycle / m->l2_peak_bytes_per_cycle
                          : 1.0;
  sm_store_scales(launch->mem.store_streams, launch->cta_slots, sm->store_scale);
  sm->units.max_inflight = launch->mem.max_inflight ? launch->mem.max_inflight : m->max_inflight;
  sm->units.smem_queue = m->smem_queue;
  sm->units.lsu_fifo = m->sched_lsu_fifo;
  sm->units.store_held = launch->mem.stores_hold_lines ? ~G_GUINT64_CONSTANT(0) : 0;
  count_queue_init(&sm->units.inflight);
  event_queue_init(&sm->wake);
  sm->wheel.first = SIM_CYCLE_NEVER;
  sm->cycle_bound = launch->max_cycles ? launch->max_cycles : SIM_CYCLE_NEVER;
  const guint lat[PIPE_MAX] = {
      [PIPE_FMA] = m->fma.latency, [PIPE_ALU] = m->alu.latency, [PIPE_SFU] = m->sfu.latency};
  const guint ivl[PIPE_MAX] = {[PIPE_FMA] = m->fma.interval,
                               [PIPE_ALU] = m->alu.interval,
                               [PIPE_SFU] = m->sfu.interval,
                               [PIPE_LSU] = m->lsu.interval};
  memcpy(sm->latency, lat, sizeof lat);
  memcpy(sm->interval, ivl, sizeof ivl);
  sm->cta = g_new0(Cta, MAX(launch->cta_slots, 1));
  sm->retired = g_new0(guint, MAX(launch->cta_slots, 1));
  sm->warp = g_new0(Warp, MAX(n_warps, 1));
  for (guint i = 0; i < n_warps; i++) {
    warp_init(&sm->warp[i], sm->p->n_slots);
    sm->warp[i].smsp = i % m->sm.smsps;
    sm->warp[i].slot = i / m->sm.smsps;
    sm->warp[i].bit = 1ULL << sm->warp[i].slot;
  }
  sm->smsp = g_new0(Smsp, m->sm.smsps);
  for (guint p = 0; p < m->sm.smsps; p++)
    smsp_init(&sm->smsp[p]);
  sm->soon = g_new0(Warp *, (gsize)n_warps + 1);
  sm->dec = g_new0(Decoded, sm->p->n);
  sm->access = g_new0(MemAccess, sm->p->n);
  if (launch->mem.warp_max_inflight > 0) {
    sm->misses = g_new0(WarpMisses, MAX(n_warps, 1));
    for (guint i = 0; i < n_warps; i++)
      sm->misses[i].out = g_new0(WarpMiss, launch->mem.warp_max_inflight);
  }
  sm->l2_hit_below =
      launch->mem.load_l1_hit + (1.0 - launch->mem.load_l1_hit) * launch->mem.load_l2_hit_coalesced;
  sm->bulk_l2_hit = launch->mem.bulk_l2_hit;
  sm->l2_hit_below_scattered =
      launch->mem.load_l1_hit + (1.0 - launch->mem.load_l1_hit) * launch->mem.load_l2_hit_scattered;
  sm->l2_near_scattered = launch->mem.load_l1_hit + (1.0 - launch->mem.load_l1_hit) *
                                                        launch->mem.load_l2_hit_scattered *
                                                        (1.0 - launch->mem.load_l2_far_scattered);
  for (guint pc = 0; pc < sm->p->n; pc++)
    sm_decode(sm, &sm->p->code[pc], &sm->dec[pc]);
  return sm;
}

void sm_free(Sm *sm) {
  if (sm == NULL)
    return;
  for (guint i = 0; i < sm->l.cta_slots * sm->l.warps_per_block; i++) {
    warp_clear(&sm->warp[i]);
    if (sm->misses != NULL)
      g_free(sm->misses[i].out);
  }
  g_free(sm->warp);
  g_free(sm->smsp);
  g_free(sm->cta);
  g_free(sm->retired);
  g_free(sm->soon);
  g_free(sm->dec);
  g_free(sm->access);
  g_free(sm->misses);
  count_queue_clear(&sm->units.inflight);
  event_queue_clear(&sm->wake);
  mem_free(sm->mem);
  g_free(sm);
}
