/* sim.c - the SM cycle loop. */
#include "sim.h"

#include "mem.h"
#include "sched.h"
#include "stream.h"

#include <string.h>

G_DEFINE_QUARK(warpsim_sim_error, sim_error)

typedef struct {
  SimCycle eligible_at; /* earliest cycle the next instruction may issue */
  SimCycle dep_at;      /* when its operands are ready (kept across a barrier) */
  SimCycle last_mem;    /* cycle its last memory access completes */
  guint64 age;          /* launch order: lower is older */
  guint32 pc;           /* index into the body */
  guint32 iter;         /* iterations completed */
  guint8 reason;        /* StallState while eligible_at > now */
  guint8 dep_reason;    /* StallState of dep_at */
  guint8 done;          /* EXIT issued */
  guint8 at_barrier;    /* waiting at __syncthreads */
  guint cta;            /* CTA slot */
  guint lanes;          /* active threads of this warp */
  SimCycle *ready;      /* per value slot: cycle the value is ready */
  guint8 *ready_reason; /* per value slot: StallState of waiting on it */
} Warp;

typedef struct {
  Warp **warps;                  /* resident warps, oldest first */
  guint n;
  SimCycle pipe_free[PIPE_MAX];  /* cycle each pipe accepts the next instruction */
  SimCycle dispatch_free;        /* cycle dispatch is free (operand conflicts) */
  guint64 last_age;              /* age of the warp selected last */
  Warp *last_warp;               /* warp selected last (operand reuse cache) */
} Smsp;

typedef struct {
  gboolean used;
  guint live;    /* warps not exited */
  guint arrived; /* warps waiting at the barrier */
  guint resident; /* warps not yet drained */
} Cta;

typedef struct {
  const SmModel *m;
  const Kernel *k;
  Stream *s;
  Mem *mem;
  GRand *rng;
  const SchedPolicy *policy;
  Smsp *smsp;
  Warp *warp;      /* warp slots: CTA slot x warps per block */
  Cta *cta;
  guint n_cta;     /* resident CTA slots */
  guint wpb;       /* warps per block */
  guint blocks_total, blocks_launched, blocks_done;
  guint64 next_age;
  SimCycle smem_free;      /* SM-wide shared-memory unit */
  GArray *inflight;        /* min-heap of load completion cycles */
  SimCycle next_drain;     /* earliest drain completion among exited warps */
  SimCycle next_time;      /* earliest cycle anything can change (from the scan) */
  guint latency[PIPE_MAX]; /* fixed latencies per pipe */
  guint interval[PIPE_MAX];
  guint64 ages[256];       /* scratch: eligible warps' ages, one SMSP */
  Warp *cands[256];
  SimStats st;
  guint cyc[STALL_MAX];    /* this cycle's warp states (for skipped cycles) */
  guint cyc_eligible;
} Sm;

static const StreamInstr exit_instr = {.op = OP_EXIT, .pipe = PIPE_NONE, .dst = STREAM_NO_SLOT};

/* ---- loads-in-flight heap ---------------------------------------------- */

static void heap_push(GArray *h, SimCycle v) {
  g_array_append_val(h, v);
  SimCycle *a = (SimCycle *)h->data;
  for (guint i = h->len - 1; i > 0;) {
    guint p = (i - 1) / 2;
    if (a[p] <= a[i])
      break;
    SimCycle t = a[p];
    a[p] = a[i];
    a[i] = t;
    i = p;
  }
}

static void heap_pop(GArray *h) {
  SimCycle *a = (SimCycle *)h->data;
  a[0] = a[h->len - 1];
  g_array_set_size(h, h->len - 1);
  for (guint i = 0;;) {
    guint l = 2 * i + 1, r = l + 1, m = i;
    if (l < h->len && a[l] < a[m])
      m = l;
    if (r < h->len && a[r] < a[m])
      m = r;
    if (m == i)
      break;
    SimCycle t = a[m];
    a[m] = a[i];
    a[i] = t;
    i = m;
  }
}

/* ---- warps ---------------------------------------------------------------- */

static inline const StreamInstr *warp_instr(const Sm *sm, const Warp *w) {
  return w->iter >= sm->s->iterations ? &exit_instr : &sm->s->body[w->pc];
}

/* Operand readiness of the warp's next instruction, from its scoreboard. */
static void warp_fetch(Sm *sm, Warp *w, SimCycle not_before, guint8 not_before_reason) {
  const StreamInstr *in = warp_instr(sm, w);
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
  if (!w->at_barrier) {
    w->eligible_at = at;
    w->reason = reason;
  }
}

static void cta_launch(Sm *sm, guint slot, SimCycle now) {
  Cta *c = &sm->cta[slot];
  guint threads = sm->k->threads_per_block;
  c->used = TRUE;
  c->live = c->resident = sm->wpb;
  c->arrived = 0;
  for (guint i = 0; i < sm->wpb; i++) {
    guint index = slot * sm->wpb + i;
    Warp *w = &sm->warp[index];
    memset(w->ready, 0, sizeof(SimCycle) * sm->s->n_slots);
    memset(w->ready_reason, STALL_WAIT, sm->s->n_slots);
    w->pc = w->iter = 0;
    w->done = w->at_barrier = 0;
    w->cta = slot;
    w->age = sm->next_age++;
    w->last_mem = now;
    w->lanes = MIN(sm->m->sm.warp_size, threads - i * sm->m->sm.warp_size);
    if (i >= sm->wpb - MIN(sm->k->early_exit, sm->wpb))
      w->iter = sm->s->iterations; /* straight to EXIT */
    warp_fetch(sm, w, now, STALL_WAIT);
    Smsp *s = &sm->smsp[index % sm->m->sm.smsps];
    s->warps[s->n++] = w;
  }
  sm->blocks_launched++;
}

static void barrier_release(Sm *sm, Cta *c, SimCycle now) {
  guint slot = (guint)(c - sm->cta);
  for (guint i = 0; i < sm->wpb; i++) {
    Warp *w = &sm->warp[slot * sm->wpb + i];
    if (w->at_barrier) {
      w->at_barrier = 0;
      w->eligible_at = MAX(w->dep_at, now + 1);
      w->reason = w->dep_at > now + 1 ? w->dep_reason : STALL_BARRIER;
    }
  }
  c->arrived = 0;
}

/* Remove drained warps; retire CTAs whose warps all drained and launch the
 * grid's next CTAs into their slots. */
static void retire_drained(Sm *sm, SimCycle now) {
  sm->next_drain = SIM_CYCLE_NEVER;
  for (guint p = 0; p < sm->m->sm.smsps; p++) {
    Smsp *s = &sm->smsp[p];
    guint kept = 0;
    for (guint i = 0; i < s->n; i++) {
      Warp *w = s->warps[i];
      if (w->done && w->eligible_at <= now) {
        Cta *c = &sm->cta[w->cta];
        if (--c->resident == 0) {
          c->used = FALSE;
          sm->blocks_done++;
        }
        if (s->last_warp == w)
          s->last_warp = NULL;
        continue;
      }
      if (w->done)
        sm->next_drain = MIN(sm->next_drain, w->eligible_at);
      s->warps[kept++] = w;
    }
    s->n = kept;
  }
  for (guint slot = 0; slot < sm->n_cta && sm->blocks_launched < sm->blocks_total; slot++)
    if (!sm->cta[slot].used)
      cta_launch(sm, slot, now);
}

/* ---- issue ---------------------------------------------------------------- */

static void warp_issue(Sm *sm, Smsp *s, Warp *w, SimCycle now) {
  const StreamInstr *in = warp_instr(sm, w);
  SimCycle ready = now + sm->latency[in->pipe];
  guint8 reason = STALL_WAIT;
  SimCycle not_before = now + 1;
  guint8 not_before_reason = STALL_WAIT;

  sm->st.issued++;
  sm->st.issue_cycles++;
  sm->st.thread_insts += w->lanes;
  sm->st.ops[in->op]++;
  if (in->pipe != PIPE_NONE && in->pipe != PIPE_SMEM) {
    s->pipe_free[in->pipe] = now + sm->interval[in->pipe];
    sm->st.pipe_busy[in->pipe] += sm->interval[in->pipe];
  }

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
    reason = STALL_SHORT_SCOREBOARD;
    break;
  case OP_LDS:
    sm->smem_free = now + (SimCycle)sm->m->smem.interval * in->ways;
    sm->st.pipe_busy[PIPE_SMEM] += (SimCycle)sm->m->smem.interval * in->ways;
    ready = now + sm->m->smem.latency + (SimCycle)(in->ways - 1) * sm->m->smem.interval;
    reason = STALL_SHORT_SCOREBOARD;
    break;
  case OP_LDG:
    ready = mem_load(sm->mem, (MemLevel)sm->k->level, sm->k->load_bytes,
                     sm->k->pattern == KERNEL_PATTERN_STREAM, now);
    sm->st.loads++;
    sm->st.load_bytes += mem_request_bytes(sm->mem, sm->k->load_bytes);
    sm->st.load_latency_sum += ready - now;
    reason = STALL_LONG_SCOREBOARD;
    heap_push(sm->inflight, ready);
    w->last_mem = MAX(w->last_mem, ready);
    break;
  case OP_LDL:
  case OP_STL:
    ready = mem_load(sm->mem, MEM_L1, w->lanes * 4, TRUE, now);
    sm->st.spill_insts++;
    reason = STALL_LONG_SCOREBOARD;
    if (in->op == OP_LDL)
      heap_push(sm->inflight, ready);
    w->last_mem = MAX(w->last_mem, ready);
    break;
  case OP_BRA:
    not_before = now + sm->m->branch_latency;
    not_before_reason = STALL_BRANCH_RESOLVING;
    break;
  case OP_BAR: {
    Cta *c = &sm->cta[w->cta];
    w->at_barrier = 1;
    w->eligible_at = SIM_CYCLE_NEVER;
    w->reason = STALL_BARRIER;
    if (++c->arrived == c->live)
      barrier_release(sm, c, now);
    break;
  }
  case OP_EXIT: {
    Cta *c = &sm->cta[w->cta];
    w->done = 1;
    w->eligible_at = MAX(now + 1, w->last_mem);
    w->reason = STALL_DRAIN;
    sm->next_drain = MIN(sm->next_drain, w->eligible_at);
    c->live--;
    if (c->arrived > 0 && c->arrived == c->live)
      barrier_release(sm, c, now);
    break;
  }
  case OP_IALU:
  case OP_MAX:
    break;
  }
  if (in->dst != STREAM_NO_SLOT) {
    w->ready[in->dst] = ready;
    w->ready_reason[in->dst] = reason;
  }
  s->last_age = w->age;
  s->last_warp = w;
  if (w->done)
    return;
  if (++w->pc == sm->s->n_body) {
    w->pc = 0;
    w->iter++;
  }
  warp_fetch(sm, w, not_before, not_before_reason);
}

/* Why an operand-ready warp cannot issue at `now`, or STALL_SELECTED if it
 * can; *free_at gets the cycle the obstacle clears. */
static StallState blocked(const Sm *sm, const Smsp *s, const StreamInstr *in, SimCycle now,
                          SimCycle *free_at) {
  if ((in->op == OP_LDG || in->op == OP_LDL) && sm->m->max_inflight > 0 &&
      sm->inflight->len >= sm->m->max_inflight) {
    *free_at = g_array_index(sm->inflight, SimCycle, 0);
    return STALL_LG_THROTTLE;
  }
  if (in->pipe == PIPE_SMEM && sm->smem_free > now) {
    *free_at = sm->smem_free;
    return STALL_MIO_THROTTLE;
  }
  if (in->pipe != PIPE_NONE && s->pipe_free[in->pipe] > now) {
    *free_at = s->pipe_free[in->pipe];
    return in->pipe == PIPE_LSU ? STALL_MIO_THROTTLE : STALL_MATH_PIPE_THROTTLE;
  }
  if (s->dispatch_free > now) {
    *free_at = s->dispatch_free;
    return STALL_DISPATCH_STALL;
  }
  return STALL_SELECTED;
}

/* One SMSP, one cycle: classify every resident warp, select one eligible warp
 * by the policy and issue it.  Returns TRUE when it issued. */
static gboolean smsp_cycle(Sm *sm, Smsp *s, SimCycle now) {
  guint n_cand = 0;
  for (guint i = 0; i < s->n; i++) {
    Warp *w = s->warps[i];
    if (w->eligible_at > now) {
      sm->cyc[w->reason]++;
      sm->next_time = MIN(sm->next_time, w->eligible_at);
      continue;
    }
    sm->cyc_eligible++;
    SimCycle free_at = 0;
    StallState b = blocked(sm, s, warp_instr(sm, w), now, &free_at);
    if (b != STALL_SELECTED) {
      sm->cyc[b]++;
      sm->next_time = MIN(sm->next_time, free_at);
      continue;
    }
    sm->ages[n_cand] = w->age;
    sm->cands[n_cand++] = w;
  }
  if (n_cand == 0)
    return FALSE;
  guint pick = sm->policy->pick(sm->ages, n_cand, s->last_age);
  sm->cyc[STALL_SELECTED]++;
  sm->cyc[STALL_NOT_SELECTED] += n_cand - 1;
  warp_issue(sm, s, sm->cands[pick], now);
  return TRUE;
}

/* ---- the run -------------------------------------------------------------- */

static gboolean check_cycle(const Sm *sm, guint active, guint issued, GError **error) {
  guint sum = 0;
  for (guint i = 0; i < STALL_MAX; i++)
    sum += sm->cyc[i];
  if (sum != active || sm->cyc[STALL_SELECTED] != issued || issued > sm->m->sm.smsps ||
      sm->cyc_eligible < issued || active > sm->m->sm.max_warps) {
    g_set_error(error, SIM_ERROR, SIM_ERROR_INVARIANT,
                "invariant failed: states %u, active %u, issued %u, eligible %u", sum, active,
                issued, sm->cyc_eligible);
    return FALSE;
  }
  return TRUE;
}

static gboolean sm_loop(Sm *sm, const SimOptions *opt, GError **error) {
  SimCycle now = 0;
  guint smsps = sm->m->sm.smsps;
  retire_drained(sm, now);
  while (sm->blocks_done < sm->blocks_total) {
    if (now >= sm->next_drain)
      retire_drained(sm, now);
    if (sm->blocks_done >= sm->blocks_total)
      break;
    while (sm->inflight->len > 0 && g_array_index(sm->inflight, SimCycle, 0) <= now)
      heap_pop(sm->inflight);

    /* Issue: every SMSP's scheduler, in SMSP order. */
    memset(sm->cyc, 0, sizeof sm->cyc);
    sm->cyc_eligible = 0;
    sm->next_time = sm->next_drain;
    guint issued = 0, active = 0;
    for (guint p = 0; p < smsps; p++) {
      active += sm->smsp[p].n;
      issued += smsp_cycle(sm, &sm->smsp[p], now);
    }
    if (opt->check_invariants && !check_cycle(sm, active, issued, error))
      return FALSE;

    /* Account this cycle, and every following cycle in which nothing can
     * change (no issue now, nothing ready before next_time). */
    SimCycle span = 1;
    if (issued == 0) {
      if (sm->next_time == SIM_CYCLE_NEVER) {
        g_set_error(error, SIM_ERROR, SIM_ERROR_INVARIANT,
                    "deadlock at cycle %" G_GUINT64_FORMAT ": no warp can ever issue", now);
        return FALSE;
      }
      span = sm->next_time - now;
    } else {
      sm->next_time = now + 1;
    }
    for (guint i = 0; i < STALL_MAX; i++)
      sm->st.state[i] += (guint64)sm->cyc[i] * span;
    sm->st.active_warp_cycles += (guint64)active * span;
    sm->st.eligible_warp_cycles += (guint64)sm->cyc_eligible * span;
    now += span;
  }
  sm->st.cycles = now;
  return TRUE;
}

static void sm_free(Sm *sm) {
  if (sm->warp != NULL)
    for (guint i = 0; i < sm->n_cta * sm->wpb; i++) {
      g_free(sm->warp[i].ready);
      g_free(sm->warp[i].ready_reason);
    }
  for (guint p = 0; sm->smsp != NULL && p < sm->m->sm.smsps; p++)
    g_free(sm->smsp[p].warps);
  g_free(sm->smsp);
  g_free(sm->warp);
  g_free(sm->cta);
  if (sm->inflight)
    g_array_free(sm->inflight, TRUE);
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
  sm.rng = g_rand_new_with_seed(k->seed);
  sm.mem = mem_new(model, sm.rng);
  sm.wpb = out->warps_per_block;
  sm.n_cta = MIN(out->blocks_per_sm, out->sm_blocks);
  sm.blocks_total = out->sm_blocks;
  sm.inflight = g_array_new(FALSE, FALSE, sizeof(SimCycle));
  sm.next_drain = SIM_CYCLE_NEVER;
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
  sm.smsp = g_new0(Smsp, model->sm.smsps);
  guint per_smsp = (sm.n_cta * sm.wpb + model->sm.smsps - 1) / model->sm.smsps;
  for (guint p = 0; p < model->sm.smsps; p++) {
    sm.smsp[p].warps = g_new0(Warp *, MAX(per_smsp, 1));
    sm.smsp[p].last_age = G_MAXUINT64;
  }
  g_assert(per_smsp <= G_N_ELEMENTS(sm.ages));
  gboolean ok = sm_loop(&sm, opt, error);
  out->st = sm.st;
  out->st.ctas = sm.blocks_done;
  sm_free(&sm);
  return ok;
}

/* ---- derived rates -------------------------------------------------------- */

static gdouble per_cycle(const SimResult *r, guint64 count) {
  return r->st.cycles ? (gdouble)count / (gdouble)r->st.cycles : 0.0;
}

gdouble sim_ipc(const SimResult *r) { return per_cycle(r, r->st.issued); }
gdouble sim_fma_per_cycle(const SimResult *r) { return per_cycle(r, r->st.ffma); }
gdouble sim_loads_per_cycle(const SimResult *r) { return per_cycle(r, r->st.loads); }
gdouble sim_bytes_per_cycle(const SimResult *r) { return per_cycle(r, r->st.load_bytes); }

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
