/* sim.c - the SM cycle loop. */
#include "sim.h"

#include "mem.h"
#include "sched.h"
#include "stream.h"

#include <string.h>

G_DEFINE_QUARK(warpsim_sim_error, sim_error)

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

static const guint8 op_class[OP_MAX] = {
    [OP_FFMA] = CLS_FMA, [OP_IALU] = CLS_ALU,  [OP_BRA] = CLS_ALU,  [OP_MUFU] = CLS_SFU,
    [OP_LDS] = CLS_SMEM, [OP_LDG] = CLS_LOAD,  [OP_LDL] = CLS_LOAD, [OP_STL] = CLS_STORE,
    [OP_BAR] = CLS_NONE, [OP_EXIT] = CLS_NONE,
};

typedef struct {
  SimCycle eligible_at;  /* earliest cycle the next instruction may issue */
  SimCycle dep_at;       /* when its operands are ready (kept across a barrier) */
  SimCycle last_mem;     /* cycle its last memory access completes */
  SimCycle charged;      /* warp states are charged for every cycle before this */
  guint64 age;           /* launch order: lower is older */
  guint32 pc;            /* index into the body */
  guint32 iter;          /* iterations completed */
  guint8 dep_reason;     /* StallState of dep_at */
  guint8 done;           /* EXIT issued */
  guint8 at_barrier;     /* waiting at __syncthreads */
  guint8 cls;            /* IssueClass of the next instruction */
  const StreamInstr *in; /* the next instruction (body[pc], or EXIT) */
  guint cta;             /* CTA slot */
  guint smsp;            /* SMSP index */
  guint slot;            /* slot within the SMSP (< 64) */
  guint lanes;           /* active threads of this warp */
  SimCycle *ready;       /* per value slot: cycle the value is ready */
  guint8 *ready_reason;  /* per value slot: StallState of waiting on it */
} Warp;

typedef struct {
  Warp *slot[SCHED_MAX_SLOTS];   /* resident warps by slot (NULL when free) */
  guint64 ages[SCHED_MAX_SLOTS]; /* age of each slot's warp */
  guint64 ready[CLS_MAX];        /* eligible warps (operands ready) by next class */
  guint classes;                 /* bit c set when ready[c] != 0 */
  guint n_active;                /* resident, not yet drained warps */
  SimCycle pipe_free[PIPE_MAX];  /* cycle each pipe accepts the next instruction */
  SimCycle dispatch_free;        /* cycle dispatch is free (operand conflicts) */
  gint last_slot;                /* slot selected last (SCHED_NO_SLOT: none) */
  Warp *last_warp;               /* warp selected last (operand reuse cache) */
} Smsp;

typedef struct {
  gboolean used;
  guint live;     /* warps not exited */
  guint arrived;  /* warps waiting at the barrier */
  guint resident; /* warps not yet drained */
} Cta;

typedef struct {
  SimCycle at;
  Warp *w;
} Wake;

typedef struct {
  const SmModel *m;
  const Kernel *k;
  Stream *s;
  Mem *mem;
  GRand *rng;
  const SchedPolicy *policy;
  Smsp *smsp;
  Warp *warp; /* warp slots: CTA slot x warps per block */
  Cta *cta;
  guint n_cta;    /* resident CTA slots */
  guint n_active; /* resident, not yet drained warps, all SMSPs */
  guint wpb;      /* warps per block */
  guint blocks_total, blocks_launched, blocks_done;
  guint64 next_age;
  SimCycle smem_free;   /* SM-wide shared-memory unit */
  GArray *inflight;     /* min-heap of load completion cycles */
  GArray *wake;         /* min-heap of Wake: stalled warps, by cycle */
  gdouble spill_l1_hit; /* probability a spill access hits in L1 */
  Warp **soon;          /* warps that wake next cycle (the common case, kept off the heap) */
  guint n_soon;
  guint64 cyc_blocked[STALL_MAX]; /* this cycle's blocked eligible warps, by state */
  gboolean any_blocked;           /* some cyc_blocked entry is non-zero */
  guint latency[PIPE_MAX];        /* fixed latencies per pipe */
  guint interval[PIPE_MAX];
  SimStats st;
} Sm;

static const StreamInstr exit_instr = {.op = OP_EXIT, .pipe = PIPE_NONE, .dst = STREAM_NO_SLOT};

/* ---- heaps (min first) ---------------------------------------------------- */

/* Wake order: by cycle, then by warp slot address, so runs are deterministic.
 * The loads-in-flight heap reuses Wake with w = NULL. */
static inline gboolean wake_before(const Wake *a, const Wake *b) {
  return a->at < b->at || (a->at == b->at && a->w < b->w);
}

static void heap_push(GArray *h, SimCycle at, Warp *w) {
  Wake v = {at, w};
  g_array_append_val(h, v);
  Wake *a = (Wake *)h->data;
  for (guint i = h->len - 1; i > 0 && wake_before(&a[i], &a[(i - 1) / 2]); i = (i - 1) / 2) {
    Wake t = a[(i - 1) / 2];
    a[(i - 1) / 2] = a[i];
    a[i] = t;
  }
}

static void heap_pop(GArray *h) {
  Wake *a = (Wake *)h->data;
  a[0] = a[h->len - 1];
  g_array_set_size(h, h->len - 1);
  for (guint i = 0;;) {
    guint l = 2 * i + 1, r = l + 1, m = i;
    if (l < h->len && wake_before(&a[l], &a[m]))
      m = l;
    if (r < h->len && wake_before(&a[r], &a[m]))
      m = r;
    if (m == i)
      break;
    Wake t = a[m];
    a[m] = a[i];
    a[i] = t;
    i = m;
  }
}

static inline SimCycle heap_top(const GArray *h) {
  return h->len ? g_array_index(h, Wake, 0).at : SIM_CYCLE_NEVER;
}

/* ---- warps ---------------------------------------------------------------- */

/* The instruction at the warp's (pc, iter): body[pc], or EXIT after the last
 * iteration; cached in w->in whenever they change. */
static inline const StreamInstr *warp_instr_at(const Sm *sm, const Warp *w) {
  return w->iter >= sm->s->iterations ? &exit_instr : &sm->s->body[w->pc];
}

/* Charge the warp's cycles [charged, until) to `state`. */
static inline void warp_charge(Sm *sm, Warp *w, SimCycle until, StallState state) {
  if (until > w->charged) {
    sm->st.state[state] += until - w->charged;
    w->charged = until;
  }
}

static inline void warp_wake(Sm *sm, Warp *w, SimCycle now);

/* The warp waits until `at` (charged to `reason` at once: nothing can change
 * it), then becomes eligible.  `issued_now`: the warp has just issued, so its
 * SMSP is done for this cycle and a warp due next cycle can join the eligible
 * set at once (the common back-to-back case, kept off the queues). */
static inline void warp_sleep(Sm *sm, Warp *w, SimCycle at, StallState reason, SimCycle now,
                              gboolean issued_now) {
  warp_charge(sm, w, at, reason);
  w->eligible_at = at;
  if (at == now + 1 && issued_now && !w->done)
    warp_wake(sm, w, at);
  else if (at == now + 1)
    sm->soon[sm->n_soon++] = w;
  else
    heap_push(sm->wake, at, w);
}

/* Charge the warp's cycles [charged, until), in which it waits for `hold`
 * (`hold_reason`: a branch resolving) and for the operands of its next
 * instruction: each cycle goes to the cause still pending that comes first
 * in the StallState priority (e.g. branch_resolving, then long_scoreboard). */
static void warp_charge_causes(Sm *sm, Warp *w, SimCycle hold, guint8 hold_reason, SimCycle until) {
  const StreamInstr *in = w->in;
  while (w->charged < until) {
    guint8 state = STALL_MAX;
    SimCycle end = until;
    if (hold > w->charged) {
      state = hold_reason;
      end = hold;
    }
    for (guint i = 0; i < in->n_src; i++) {
      SimCycle r = w->ready[in->src[i]];
      guint8 rr = w->ready_reason[in->src[i]];
      if (r > w->charged && (rr < state || (rr == state && r > end))) {
        state = rr;
        end = r;
      }
    }
    if (state == STALL_MAX)
      return; /* nothing pending: the caller charges the rest */
    warp_charge(sm, w, MIN(end, until), (StallState)state);
  }
}

/* Operand readiness of the warp's next instruction, from its scoreboard; the
 * warp sleeps until then (or until `not_before`), unless at a barrier. */
static inline void warp_fetch(Sm *sm, Warp *w, SimCycle not_before, guint8 not_before_reason,
                              SimCycle now, gboolean issued_now) {
  const StreamInstr *in = w->in;
  SimCycle at = not_before;
  guint8 reason = not_before_reason;
  for (guint i = 0; i < in->n_src; i++) {
    SimCycle r = w->ready[in->src[i]];
    if (r > at) {
      at = r;
      reason = w->ready_reason[in->src[i]];
    }
  }
  w->dep_at = at;
  w->dep_reason = reason;
  w->cls = op_class[in->op];
  if (!w->at_barrier) {
    if (at > w->charged) /* else nothing to charge: the common back-to-back case */
      warp_charge_causes(sm, w, not_before, not_before_reason, at);
    warp_sleep(sm, w, at, reason, now, issued_now);
  }
}

static void cta_launch(Sm *sm, guint slot, SimCycle now) {
  Cta *c = &sm->cta[slot];
  guint threads = sm->k->threads_per_block;
  c->used = TRUE;
  c->live = c->resident = sm->wpb;
  c->arrived = 0;
  for (guint i = 0; i < sm->wpb; i++) {
    Warp *w = &sm->warp[slot * sm->wpb + i];
    memset(w->ready, 0, sizeof(SimCycle) * sm->s->n_slots);
    memset(w->ready_reason, STALL_WAIT, sm->s->n_slots);
    w->pc = w->iter = 0;
    w->done = w->at_barrier = 0;
    w->cta = slot;
    w->age = sm->next_age++;
    w->last_mem = w->charged = now;
    w->lanes = MIN(sm->m->sm.warp_size, threads - i * sm->m->sm.warp_size);
    if (i >= sm->wpb - MIN(sm->k->early_exit, sm->wpb))
      w->iter = sm->s->iterations; /* straight to EXIT */
    w->in = warp_instr_at(sm, w);
    Smsp *s = &sm->smsp[w->smsp];
    s->slot[w->slot] = w;
    s->ages[w->slot] = w->age;
    s->n_active++;
    sm->n_active++;
    warp_fetch(sm, w, now, STALL_WAIT, now, FALSE);
  }
  sm->blocks_launched++;
}

static void barrier_release(Sm *sm, Cta *c, SimCycle now) {
  guint slot = (guint)(c - sm->cta);
  for (guint i = 0; i < sm->wpb; i++) {
    Warp *w = &sm->warp[slot * sm->wpb + i];
    if (w->at_barrier) {
      w->at_barrier = 0;
      warp_charge(sm, w, now + 1, STALL_BARRIER);
      warp_charge_causes(sm, w, 0, STALL_WAIT, MAX(w->dep_at, now + 1));
      warp_sleep(sm, w, MAX(w->dep_at, now + 1), w->dep_reason, now, FALSE);
    }
  }
  c->arrived = 0;
}

/* A drained warp leaves its SMSP; the CTA retires with its last warp and the
 * grid's next CTA takes its slot. */
static void warp_retire(Sm *sm, Warp *w, SimCycle now) {
  Smsp *s = &sm->smsp[w->smsp];
  s->slot[w->slot] = NULL;
  s->n_active--;
  sm->n_active--;
  if (s->last_warp == w)
    s->last_warp = NULL;
  Cta *c = &sm->cta[w->cta];
  if (--c->resident == 0) {
    c->used = FALSE;
    sm->blocks_done++;
    if (sm->blocks_launched < sm->blocks_total)
      cta_launch(sm, w->cta, now);
  }
}

/* Wake every warp whose wait ends by `now`: drained warps retire, the others
 * join their SMSP's eligible set. */
static inline void warp_wake(Sm *sm, Warp *w, SimCycle now) {
  if (w->done) {
    warp_retire(sm, w, now);
    return;
  }
  Smsp *s = &sm->smsp[w->smsp];
  s->ready[w->cls] |= 1ULL << w->slot;
  s->classes |= 1u << w->cls;
}

static void wake_due(Sm *sm, SimCycle now) {
  /* Warps due this cycle that were kept off the heap (the common case).  A
   * wake can retire a CTA and launch the next one; its warps, due at `now`,
   * go through the heap below, and anything appended to soon stays for the
   * next cycle. */
  guint n = sm->n_soon;
  for (guint i = 0; i < n; i++) {
    g_assert(sm->soon[i]->eligible_at == now);
    warp_wake(sm, sm->soon[i], now);
  }
  if (n > 0) {
    memmove(sm->soon, sm->soon + n, (sm->n_soon - n) * sizeof(Warp *));
    sm->n_soon -= n;
  }
  while (heap_top(sm->wake) <= now) {
    Warp *w = g_array_index(sm->wake, Wake, 0).w;
    heap_pop(sm->wake);
    warp_wake(sm, w, now);
  }
}

/* ---- issue ---------------------------------------------------------------- */

/* Memory and pipe effects of issuing `in`; returns the cycle its result is
 * ready and sets *reason to the state a consumer waits in. */
static SimCycle issue_effects(Sm *sm, Smsp *s, Warp *w, const StreamInstr *in, SimCycle now,
                              guint8 *reason) {
  SimCycle ready = now + sm->latency[in->pipe];
  *reason = STALL_WAIT;
  switch ((StreamOp)in->op) {
  case OP_FFMA:
    sm->st.ffma++;
    /* Register-bank conflict: unless the same warp issued the previous
     * instruction of this SMSP (operands held in the reuse cache), reading
     * two operands from one bank costs an extra dispatch cycle, which also
     * delays the result (README "Operand delivery"). */
    if (in->conflict && sm->m->operand_conflict && s->last_warp != w) {
      s->dispatch_free = now + 2;
      ready += 1;
    }
    break;
  case OP_MUFU:
    *reason = STALL_SHORT_SCOREBOARD;
    break;
  case OP_LDS:
    sm->smem_free = now + (SimCycle)sm->m->smem.interval * in->ways;
    sm->st.pipe_busy[PIPE_SMEM] += (SimCycle)sm->m->smem.interval * in->ways;
    ready = now + sm->m->smem.latency + (SimCycle)(in->ways - 1) * sm->m->smem.interval;
    *reason = STALL_SHORT_SCOREBOARD;
    break;
  case OP_LDG:
    ready = mem_load(sm->mem, (MemLevel)sm->k->level, sm->k->load_bytes,
                     sm->k->pattern == KERNEL_PATTERN_STREAM, now);
    sm->st.loads++;
    sm->st.load_bytes += mem_request_bytes(sm->mem, sm->k->load_bytes);
    sm->st.load_latency_sum += ready - now;
    *reason = STALL_LONG_SCOREBOARD;
    heap_push(sm->inflight, ready, NULL);
    w->last_mem = MAX(w->last_mem, ready);
    break;
  case OP_LDL:
  case OP_STL:
    /* A spilled 4 B value per thread, through L1; it also goes to L2 when it
     * misses, which happens when the SM's spill footprint outgrows the L1 that
     * shared memory leaves (README "Register spills"). */
    ready = mem_load(sm->mem, MEM_L1, w->lanes * 4, TRUE, now);
    if (g_rand_double(sm->rng) >= sm->spill_l1_hit)
      ready = MAX(ready, mem_load(sm->mem, MEM_L2, w->lanes * 4, TRUE, now));
    sm->st.spill_insts++;
    *reason = STALL_LONG_SCOREBOARD;
    if (in->op == OP_LDL)
      heap_push(sm->inflight, ready, NULL);
    w->last_mem = MAX(w->last_mem, ready);
    break;
  case OP_BAR:
    w->at_barrier = 1;
    break;
  case OP_EXIT:
    w->done = 1;
    break;
  case OP_BRA:
  case OP_IALU:
  case OP_MAX:
    break;
  }
  return ready;
}

static void warp_issue(Sm *sm, Smsp *s, Warp *w, SimCycle now) {
  const StreamInstr *in = w->in;
  if ((s->ready[w->cls] &= ~(1ULL << w->slot)) == 0)
    s->classes &= ~(1u << w->cls);
  w->charged = now + 1; /* this cycle: selected, counted by the caller */
  sm->st.issued++;
  sm->st.issue_cycles++;
  sm->st.thread_insts += w->lanes;
  sm->st.ops[in->op]++;
  if (in->pipe != PIPE_NONE && in->pipe != PIPE_SMEM) {
    s->pipe_free[in->pipe] = now + sm->interval[in->pipe];
    sm->st.pipe_busy[in->pipe] += sm->interval[in->pipe];
  }
  guint8 reason;
  SimCycle ready = issue_effects(sm, s, w, in, now, &reason);
  if (in->dst != STREAM_NO_SLOT) {
    w->ready[in->dst] = ready;
    w->ready_reason[in->dst] = reason;
  }
  s->last_slot = (gint)w->slot;
  s->last_warp = w;
  Cta *c = &sm->cta[w->cta];
  if (w->done) {
    /* Drain: resident until its memory accesses complete. */
    warp_sleep(sm, w, MAX(now + 1, w->last_mem), STALL_DRAIN, now, FALSE);
    c->live--;
    if (c->arrived > 0 && c->arrived == c->live)
      barrier_release(sm, c, now);
    return;
  }
  if (++w->pc == sm->s->n_body) {
    w->pc = 0;
    w->iter++;
  }
  w->in = warp_instr_at(sm, w);
  if (in->op == OP_BRA)
    warp_fetch(sm, w, now + sm->m->branch_latency, STALL_BRANCH_RESOLVING, now, TRUE);
  else
    warp_fetch(sm, w, now + 1, STALL_WAIT, now, TRUE);
  if (w->at_barrier && ++c->arrived == c->live)
    barrier_release(sm, c, now);
}

/* Why warps of class `cls` cannot issue at `now` (STALL_SELECTED: they can);
 * *free_at gets the cycle the obstacle clears.  Priority: lg_throttle,
 * mio_throttle, math_pipe_throttle, dispatch_stall (README "Warp states"). */
static StallState class_blocked(const Sm *sm, const Smsp *s, IssueClass cls, SimCycle now,
                                SimCycle *free_at) {
  static const guint8 pipe_of[CLS_MAX] = {PIPE_FMA, PIPE_ALU, PIPE_SFU, PIPE_SMEM,
                                          PIPE_LSU, PIPE_LSU, PIPE_NONE};
  switch (cls) {
  case CLS_LOAD:
    if (sm->m->max_inflight > 0 && sm->inflight->len >= sm->m->max_inflight) {
      *free_at = heap_top(sm->inflight);
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
    if (sm->smem_free > now) {
      *free_at = sm->smem_free;
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

/* One SMSP, one cycle: charge its eligible warps by class (blocked ones to
 * their throttle, free ones to not_selected), select one free warp by the
 * policy and issue it.  Returns TRUE when it issued; lowers *next to the
 * cycle a blocked class frees up and adds the eligible warps to *eligible. */
static gboolean smsp_cycle(Sm *sm, Smsp *s, SimCycle now, SimCycle *next, guint *eligible) {
  guint64 cand = 0;
  for (guint m = s->classes; m != 0; m &= m - 1) {
    guint c = (guint)__builtin_ctz(m);
    guint n = (guint)__builtin_popcountll(s->ready[c]);
    *eligible += n;
    SimCycle free_at = 0;
    StallState b = class_blocked(sm, s, (IssueClass)c, now, &free_at);
    if (b == STALL_SELECTED) {
      cand |= s->ready[c];
    } else {
      sm->cyc_blocked[b] += n; /* sm_loop charges it for the whole span */
      sm->any_blocked = TRUE;
      *next = MIN(*next, free_at);
    }
  }
  if (cand == 0)
    return FALSE;
  guint slot;
  if (sm->policy->greedy && s->last_slot != SCHED_NO_SLOT && ((cand >> s->last_slot) & 1u)) {
    slot = (guint)s->last_slot; /* what a greedy policy's pick returns, without the call */
  } else {
    SchedView view = {cand, s->ages, s->last_slot, sm->m->sched_group};
    slot = sm->policy->pick(&view);
  }
  sm->st.state[STALL_SELECTED]++;
  sm->st.state[STALL_NOT_SELECTED] += (guint)__builtin_popcountll(cand) - 1;
  warp_issue(sm, s, s->slot[slot], now);
  return TRUE;
}

/* ---- the run -------------------------------------------------------------- */

static gboolean check_totals(const Sm *sm, GError **error) {
  guint64 sum = 0;
  for (guint i = 0; i < STALL_MAX; i++)
    sum += sm->st.state[i];
  if (sum == sm->st.active_warp_cycles && sm->st.state[STALL_SELECTED] == sm->st.issued &&
      sm->st.eligible_warp_cycles >= sm->st.issued)
    return TRUE;
  g_set_error(error, SIM_ERROR, SIM_ERROR_INVARIANT,
              "invariant failed: warp states sum to %" G_GUINT64_FORMAT
              ", active warp-cycles %" G_GUINT64_FORMAT ", selected %" G_GUINT64_FORMAT
              ", issued %" G_GUINT64_FORMAT,
              sum, sm->st.active_warp_cycles, sm->st.state[STALL_SELECTED], sm->st.issued);
  return FALSE;
}

/* Stalled warps are charged when they go to sleep (their wake-up cycle is
 * known then); eligible warps are charged here, cycle by cycle, or for a
 * whole span of cycles in which nothing can change. */
static gboolean sm_loop(Sm *sm, const SimOptions *opt, GError **error) {
  SimCycle now = 0;
  guint smsps = sm->m->sm.smsps;
  for (guint slot = 0; slot < sm->n_cta && sm->blocks_launched < sm->blocks_total; slot++)
    cta_launch(sm, slot, now);
  while (sm->blocks_done < sm->blocks_total) {
    wake_due(sm, now); /* writeback: stalled warps wake */
    if (sm->blocks_done >= sm->blocks_total)
      break;
    while (heap_top(sm->inflight) <= now) /* memory: loads complete */
      heap_pop(sm->inflight);

    SimCycle next = sm->n_soon ? now + 1 : heap_top(sm->wake);
    guint issued = 0, eligible = 0, active = sm->n_active; /* EXIT this cycle drains later */
    for (guint p = 0; p < smsps; p++)                      /* issue: each SMSP's scheduler */
      issued += smsp_cycle(sm, &sm->smsp[p], now, &next, &eligible);
    if (opt->check_invariants &&
        (issued > smsps || eligible < issued || active > sm->m->sm.max_warps)) {
      g_set_error(error, SIM_ERROR, SIM_ERROR_INVARIANT,
                  "invariant failed at cycle %" G_GUINT64_FORMAT
                  ": issued %u, eligible %u, active %u",
                  now, issued, eligible, active);
      return FALSE;
    }

    /* Skip: with no issue, nothing changes before `next`. */
    SimCycle span = 1;
    if (issued == 0) {
      if (next == SIM_CYCLE_NEVER) {
        g_set_error(error, SIM_ERROR, SIM_ERROR_INVARIANT,
                    "deadlock at cycle %" G_GUINT64_FORMAT ": no warp can ever issue", now);
        return FALSE;
      }
      span = next - now;
    }
    for (guint i = STALL_LG_THROTTLE; sm->any_blocked && i <= STALL_DISPATCH_STALL; i++) {
      sm->st.state[i] += sm->cyc_blocked[i] * span;
      sm->cyc_blocked[i] = 0;
    }
    sm->any_blocked = FALSE;
    sm->st.active_warp_cycles += (guint64)active * span;
    sm->st.eligible_warp_cycles += (guint64)eligible * span;
    now += span;
  }
  sm->st.cycles = now;
  return !opt->check_invariants || check_totals(sm, error);
}

static void sm_free(Sm *sm) {
  if (sm->warp != NULL)
    for (guint i = 0; i < sm->n_cta * sm->wpb; i++) {
      g_free(sm->warp[i].ready);
      g_free(sm->warp[i].ready_reason);
    }
  g_free(sm->smsp);
  g_free(sm->warp);
  g_free(sm->cta);
  if (sm->inflight)
    g_array_free(sm->inflight, TRUE);
  if (sm->wake)
    g_array_free(sm->wake, TRUE);
  g_free(sm->soon);
  mem_free(sm->mem);
  stream_free(sm->s);
  if (sm->rng)
    g_rand_free(sm->rng);
}

static gboolean plan_launch(const SmModel *m, const Kernel *k, SimResult *r, GError **error) {
  r->regs_allocated = kernel_regs_allocated(k);
  r->spill_values = k->regs_per_thread - r->regs_allocated;
  OccLaunch launch = {.threads = k->threads_per_block,
                      .regs = r->regs_allocated,
                      .smem_static = k->smem_static,
                      .smem_dynamic = k->smem_dynamic,
                      .optin = k->optin,
                      .carveout_pct = -1};
  GError *err = NULL;
  if (!occupancy_compute(&m->sm, &launch, &r->occ, &err)) {
    g_set_error(error, SIM_ERROR, SIM_ERROR_LAUNCH, "%s: [launch] %s", k->file, err->message);
    g_error_free(err);
    return FALSE;
  }
  if (r->occ.blocks_per_sm == 0) {
    g_set_error(error, SIM_ERROR, SIM_ERROR_LAUNCH, "%s: [launch]: cannot launch on %s: %s",
                k->file, m->name, r->occ.reason ? r->occ.reason : "no CTA fits");
    return FALSE;
  }
  r->warps_per_block = r->occ.warps_per_block;
  r->blocks_per_sm = r->occ.blocks_per_sm;
  if (k->blocks_per_sm > 0)
    r->blocks_per_sm = MIN(r->blocks_per_sm, k->blocks_per_sm);
  r->warps_per_sm = r->blocks_per_sm * r->warps_per_block;
  r->occupancy_pct = 100.0 * r->warps_per_sm / m->sm.max_warps;
  r->grid_blocks = k->blocks > 0 ? k->blocks : r->blocks_per_sm * m->sm.sms;
  r->sm_blocks = (r->grid_blocks + m->sm.sms - 1) / m->sm.sms;
  r->waves_per_sm = (gdouble)r->grid_blocks / ((gdouble)r->blocks_per_sm * m->sm.sms);
  return TRUE;
}

gboolean sim_run(const SmModel *model, const Kernel *k, const SimOptions *opt, SimResult *out,
                 GError **error) {
  static const SimOptions defaults = {NULL, FALSE};
  if (opt == NULL)
    opt = &defaults;
  if (!model_check_timing(model, error))
    return FALSE;
  memset(out, 0, sizeof *out);
  const gchar *policy_name = opt->policy ? opt->policy : model->policy;
  const SchedPolicy *policy = sched_lookup(policy_name);
  if (policy == NULL) {
    g_set_error(error, SIM_ERROR, SIM_ERROR_LAUNCH, "--policy: unknown policy '%s' (allowed %s)",
                policy_name, sched_names());
    return FALSE;
  }
  if (!plan_launch(model, k, out, error))
    return FALSE;
  out->policy = policy->name;

  Sm sm = {0};
  sm.m = model;
  sm.k = k;
  sm.policy = policy;
  sm.s = stream_new(k, out->spill_values);
  out->warp_insts_per_warp = stream_warp_insts(sm.s);
  out->spilled_per_iter = MIN(out->spill_values, k->live_values);
  {
    /* Spill footprint: every resident warp keeps its spilled values, 4 B per
     * thread each; L1 holds what shared memory leaves of l1_bytes. */
    gdouble footprint = (gdouble)out->warps_per_sm * out->spill_values * 4.0 * model->sm.warp_size;
    gdouble smem = (gdouble)out->blocks_per_sm * out->occ.smem_per_block;
    gdouble l1 = model->l1_bytes > smem ? model->l1_bytes - smem : 0.0;
    sm.spill_l1_hit = footprint <= l1 ? 1.0 : l1 / footprint;
    out->spill_l1_hit = out->spilled_per_iter ? sm.spill_l1_hit : 1.0;
  }
  sm.rng = g_rand_new_with_seed(k->seed);
  sm.mem = mem_new(model, sm.rng);
  sm.wpb = out->warps_per_block;
  sm.n_cta = MIN(out->blocks_per_sm, out->sm_blocks);
  sm.blocks_total = out->sm_blocks;
  sm.inflight = g_array_new(FALSE, FALSE, sizeof(Wake));
  sm.latency[PIPE_FMA] = model->fma.latency;
  sm.latency[PIPE_ALU] = model->alu.latency;
  sm.latency[PIPE_SFU] = model->sfu.latency;
  sm.interval[PIPE_FMA] = model->fma.interval;
  sm.interval[PIPE_ALU] = model->alu.interval;
  sm.interval[PIPE_SFU] = model->sfu.interval;
  sm.interval[PIPE_LSU] = model->lsu.interval;
  sm.cta = g_new0(Cta, sm.n_cta);
  sm.warp = g_new0(Warp, (gsize)sm.n_cta * sm.wpb);
  for (guint i = 0; i < sm.n_cta * sm.wpb; i++) {
    sm.warp[i].ready = g_new0(SimCycle, MAX(sm.s->n_slots, 1));
    sm.warp[i].ready_reason = g_new0(guint8, MAX(sm.s->n_slots, 1));
  }
  guint per_smsp = (sm.n_cta * sm.wpb + model->sm.smsps - 1) / model->sm.smsps;
  if (per_smsp > SCHED_MAX_SLOTS) {
    g_set_error(error, SIM_ERROR, SIM_ERROR_LAUNCH,
                "%s: [sm] max_warps / smsps: %u warps per SMSP (allowed 1..%d)", model->file,
                per_smsp, SCHED_MAX_SLOTS);
    sm_free(&sm);
    return FALSE;
  }
  sm.smsp = g_new0(Smsp, model->sm.smsps);
  for (guint p = 0; p < model->sm.smsps; p++)
    sm.smsp[p].last_slot = SCHED_NO_SLOT;
  for (guint i = 0; i < sm.n_cta * sm.wpb; i++) {
    sm.warp[i].smsp = i % model->sm.smsps;
    sm.warp[i].slot = i / model->sm.smsps;
  }
  sm.wake = g_array_new(FALSE, FALSE, sizeof(Wake));
  sm.soon = g_new0(Warp *, (gsize)sm.n_cta * sm.wpb + 1);
  gboolean ok = sm_loop(&sm, opt, error);
  out->st = sm.st;
  out->st.ctas = sm.blocks_done;
  sm_free(&sm);
  return ok;
}

guint64 sim_estimate_insts(const SmModel *model, const Kernel *k) {
  SimResult r;
  memset(&r, 0, sizeof r);
  if (!plan_launch(model, k, &r, NULL))
    return 0;
  g_autoptr(Stream) s = stream_new(k, r.spill_values);
  guint64 warps = (guint64)r.sm_blocks * r.warps_per_block;
  return warps * stream_warp_insts(s);
}

void sim_little_bound(const SmModel *m, const Kernel *k, const SimResult *r, gdouble *fma,
                      gdouble *bytes) {
  *fma = 0.0;
  *bytes = 0.0;
  if (k->fma > 0)
    *fma = MIN((gdouble)m->sm.smsps / m->fma.interval,
               (gdouble)r->warps_per_sm * MIN(k->ilp, k->fma) / m->fma.latency);
  if (k->loads > 0) {
    const MemLevelModel *lv[] = {&m->l1, &m->l2, &m->dram};
    const MemLevelModel *l = lv[k->level];
    guint latency =
        (k->pattern == KERNEL_PATTERN_STREAM && l->stream_latency) ? l->stream_latency : l->latency;
    guint req = (k->load_bytes + m->sector_bytes - 1) / m->sector_bytes * m->sector_bytes;
    *bytes = MIN(l->bytes_per_cycle, (gdouble)r->warps_per_sm * k->loads * req / latency);
  }
}

/* ---- derived rates -------------------------------------------------------- */

static gdouble per_cycle(const SimResult *r, guint64 count) {
  return r->st.cycles ? (gdouble)count / (gdouble)r->st.cycles : 0.0;
}

gdouble sim_ipc(const SimResult *r) {
  return per_cycle(r, r->st.issued);
}
gdouble sim_fma_per_cycle(const SimResult *r) {
  return per_cycle(r, r->st.ffma);
}
gdouble sim_loads_per_cycle(const SimResult *r) {
  return per_cycle(r, r->st.loads);
}
gdouble sim_bytes_per_cycle(const SimResult *r) {
  return per_cycle(r, r->st.load_bytes);
}

gdouble sim_issue_active(const SimResult *r, const SmModel *m) {
  return per_cycle(r, r->st.issue_cycles) / m->sm.smsps;
}

gdouble sim_achieved_occupancy_pct(const SimResult *r, const SmModel *m) {
  return 100.0 * per_cycle(r, r->st.active_warp_cycles) / m->sm.max_warps;
}

gdouble sim_avg_load_latency(const SimResult *r) {
  return r->st.loads ? (gdouble)r->st.load_latency_sum / (gdouble)r->st.loads : 0.0;
}

G_STATIC_ASSERT(OP_MAX <= G_N_ELEMENTS(((SimStats *)0)->ops));
G_STATIC_ASSERT(PIPE_MAX <= G_N_ELEMENTS(((SimStats *)0)->pipe_busy));
