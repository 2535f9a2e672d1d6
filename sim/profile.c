/* profile.c - the Nsight Compute-style report: sections, rules, what-ifs. */
#include "profile.h"

#include "program.h"

#include <stddef.h>
#include <string.h>

/* ---- names ---------------------------------------------------------------- */

static const gchar *const unit_names[PROFILE_UNIT_MAX] = {"issue", "fma",  "alu",
                                                          "sfu",   "smem", "lsu"};
static const InstrPipe unit_pipe[PROFILE_UNIT_MAX] = {PIPE_NONE, PIPE_FMA,  PIPE_ALU,
                                                      PIPE_SFU,  PIPE_SMEM, PIPE_LSU};

static const gchar *const sol_names[PROFILE_SOL_MAX] = {
    "Latency Issue",          "Small Grid", "High Compute Throughput",
    "High Memory Throughput", "Balanced",   "High Throughput"};

static const gchar *const section_names[PROFILE_SECTION_MAX] = {
    "Speed Of Light", "Scheduler Statistics", "Warp State Statistics",
    "Occupancy",      "Launch Statistics",    "What-If"};

/* Each rule's id and the section that prints it. */
static const struct {
  const gchar *name;
  ProfileSection owner;
} rule_info[PROFILE_RULE_MAX] = {
    [PROFILE_RULE_SOL] = {"sol_bottleneck", PROFILE_SECTION_SOL},
    [PROFILE_RULE_ACHIEVED_OCCUPANCY] = {"achieved_occupancy", PROFILE_SECTION_OCCUPANCY},
    [PROFILE_RULE_THEORETICAL_OCCUPANCY] = {"theoretical_occupancy", PROFILE_SECTION_OCCUPANCY},
    [PROFILE_RULE_ISSUE_SLOTS] = {"issue_slot_utilization", PROFILE_SECTION_SCHEDULER},
    [PROFILE_RULE_CPI_STALL] = {"cpi_stall", PROFILE_SECTION_WARP_STATE},
    [PROFILE_RULE_TAIL_EFFECT] = {"tail_effect", PROFILE_SECTION_LAUNCH},
    [PROFILE_RULE_BLOCK_SIZE] = {"block_size", PROFILE_SECTION_LAUNCH},
    [PROFILE_RULE_GRID_SIZE] = {"grid_size", PROFILE_SECTION_LAUNCH},
};

static const gchar *const what_if_names[PROFILE_WHAT_IF_MAX] = {"occupancy", "ilp"};

const gchar *profile_unit_name(ProfileUnit u) {
  return u < PROFILE_UNIT_MAX ? unit_names[u] : "?";
}
const gchar *profile_sol_name(ProfileSolVerdict v) {
  return v < PROFILE_SOL_MAX ? sol_names[v] : "?";
}
const gchar *profile_section_name(ProfileSection s) {
  return s < PROFILE_SECTION_MAX ? section_names[s] : "?";
}
const gchar *profile_rule_name(ProfileRuleId id) {
  return id < PROFILE_RULE_MAX ? rule_info[id].name : "?";
}
const gchar *profile_what_if_name(ProfileWhatIfKind w) {
  return w < PROFILE_WHAT_IF_MAX ? what_if_names[w] : "?";
}

/* ---- the sections ------------------------------------------------------- */

static gdouble ratio(gdouble num, gdouble den) {
  return den > 0 ? num / den : 0.0;
}

/* The kernel's useful throughput: what its loop exists to do. */
static gdouble throughput_of(const Kernel *k, const SimResult *r, const gchar **metric,
                             const gchar **unit) {
  gdouble cycles = (gdouble)r->st.cycles;
  if (k->loads > 0) {
    *metric = "bytes_per_cycle";
    *unit = "global B/cycle/SM";
    return sim_bytes_per_cycle(r);
  }
  if (k->fma > 0) {
    *metric = "fma_per_cycle";
    *unit = "warp FFMA/cycle/SM";
    return sim_fma_per_cycle(r);
  }
  if (k->sfu > 0) {
    *metric = "sfu_per_cycle";
    *unit = "warp MUFU/cycle/SM";
    return ratio((gdouble)r->st.ops[OP_MUFU], cycles);
  }
  if (k->lds > 0) {
    *metric = "lds_per_cycle";
    *unit = "warp LDS/cycle/SM";
    return ratio((gdouble)r->st.ops[OP_LDS], cycles);
  }
  *metric = "ipc";
  *unit = "warp inst/cycle/SM";
  return sim_ipc(r);
}

static const MemLevelModel *mem_level_model(const SmModel *m, guint level) {
  return level == KERNEL_LEVEL_L1 ? &m->l1 : level == KERNEL_LEVEL_L2 ? &m->l2 : &m->dram;
}

static void speed_of_light(Profile *p, const SmModel *m, const Kernel *k, const SimResult *r) {
  gdouble sched_cycles = (gdouble)r->st.cycles * m->sm.smsps;
  p->sm_pct = -1;
  p->busiest_pipe = PROFILE_UNIT_FMA;
  for (guint u = 0; u < PROFILE_UNIT_MAX; u++) {
    guint64 busy = u == PROFILE_UNIT_ISSUE ? r->st.issue_cycles : r->st.pipe_busy[unit_pipe[u]];
    gdouble capacity = u == PROFILE_UNIT_SMEM ? (gdouble)r->st.cycles : sched_cycles;
    p->unit_pct[u] = 100.0 * ratio((gdouble)busy, capacity);
    if (p->unit_pct[u] > p->sm_pct) {
      p->sm_pct = p->unit_pct[u];
      p->sm_unit = u;
    }
    if (u != PROFILE_UNIT_ISSUE && p->unit_pct[u] > p->unit_pct[p->busiest_pipe])
      p->busiest_pipe = u;
  }
  p->mem_level = k->level;
  p->mem_bytes_per_cycle = sim_bytes_per_cycle(r);
  p->mem_peak_bytes_per_cycle = mem_level_model(m, k->level)->bytes_per_cycle;
  p->mem_pct = 100.0 * ratio(p->mem_bytes_per_cycle, p->mem_peak_bytes_per_cycle);
  {
    const MemLevelModel *lv = mem_level_model(m, k->level);
    p->load_latency = sim_avg_load_latency(r);
    p->load_latency_unloaded = (k->pattern == KERNEL_PATTERN_STREAM && lv->stream_latency)
                                   ? lv->stream_latency
                                   : lv->latency;
    p->loads_in_flight = sim_loads_per_cycle(r) * p->load_latency;
  }
  p->busiest = p->mem_pct > p->sm_pct ? kernel_level_name(k->level) : unit_names[p->sm_unit];
}

static void scheduler_stats(Profile *p, const SmModel *m, const SimResult *r) {
  gdouble sched_cycles = (gdouble)r->st.cycles * m->sm.smsps;
  p->smsps = m->sm.smsps;
  p->max_warps_per_sched = m->sm.max_warps / m->sm.smsps;
  p->active_warps = ratio((gdouble)r->st.active_warp_cycles, sched_cycles);
  p->eligible_warps =
      ratio((gdouble)(r->st.state[STALL_SELECTED] + r->st.state[STALL_NOT_SELECTED]), sched_cycles);
  p->issued_warps = ratio((gdouble)r->st.issue_cycles, sched_cycles);
  p->ready_warps = ratio((gdouble)r->st.eligible_warp_cycles, sched_cycles);
  p->issue_slot_pct = 100.0 * p->issued_warps;
  p->no_eligible_pct = 100.0 - p->issue_slot_pct;
  p->threads_per_inst = ratio((gdouble)r->st.thread_insts, (gdouble)r->st.issued);
}

static void warp_states(Profile *p, const SimResult *r) {
  p->total_cpi = ratio((gdouble)r->st.active_warp_cycles, (gdouble)r->st.issued);
  for (guint s = 0; s < STALL_MAX; s++) {
    p->state_cpi[s] = ratio((gdouble)r->st.state[s], (gdouble)r->st.issued);
    p->state_pct[s] = 100.0 * ratio((gdouble)r->st.state[s], (gdouble)r->st.active_warp_cycles);
    p->state_order[s] = s;
  }
  /* Insertion sort, stable: equal values keep the priority order. */
  for (guint i = 1; i < STALL_MAX; i++) {
    guint s = p->state_order[i], j = i;
    for (; j > 0 && r->st.state[p->state_order[j - 1]] < r->st.state[s]; j--)
      p->state_order[j] = p->state_order[j - 1];
    p->state_order[j] = s;
  }
}

static void occupancy_stats(Profile *p, const SmModel *m, const Kernel *k, const SimResult *r) {
  p->theoretical_pct = r->occupancy_pct;
  p->achieved_pct = sim_achieved_occupancy_pct(r, m);
  p->theoretical_warps_per_sched = (gdouble)r->warps_per_sm / m->sm.smsps;
  p->achieved_warps_per_sched = p->active_warps;
  p->occ_blocks_per_sm = r->occ.blocks_per_sm;
  p->blocks_per_sm = r->blocks_per_sm;
  p->warps_per_sm = r->warps_per_sm;
  p->max_warps = m->sm.max_warps;
  p->limiter_mask = r->occ.limiter_mask;
  p->capped = k->blocks_per_sm > 0 && k->blocks_per_sm < r->occ.blocks_per_sm;
  memcpy(p->block_limit, r->occ.limit, sizeof p->block_limit);
}

static void launch_stats(Profile *p, const SmModel *m, const Kernel *k, const SimResult *r) {
  p->grid_blocks = r->grid_blocks;
  p->threads_per_block = k->threads_per_block;
  p->warp_size = m->sm.warp_size;
  p->regs_per_thread = r->regs_allocated;
  p->smem_per_block = r->occ.smem_per_block;
  p->sms = m->sm.sms;
  p->sm_blocks = r->sm_blocks;
  OccWaves w;
  occupancy_waves(&m->sm, r->blocks_per_sm, r->grid_blocks, &w);
  p->waves_per_sm = r->waves_per_sm;
  p->full_waves = w.wave_blocks ? r->grid_blocks / w.wave_blocks : 0;
  p->partial_wave_blocks = w.wave_blocks ? r->grid_blocks % w.wave_blocks : 0;
  p->tail_pct =
      p->full_waves >= 1 && p->partial_wave_blocks > 0 ? 100.0 / (p->full_waves + 1) : 0.0;
}

Profile *profile_new(const SmModel *m, const Kernel *k, const SimResult *r) {
  Profile *p = g_new0(Profile, 1);
  p->throughput = throughput_of(k, r, &p->metric, &p->metric_unit);
  speed_of_light(p, m, k, r);
  scheduler_stats(p, m, r);
  warp_states(p, r);
  occupancy_stats(p, m, k, r);
  launch_stats(p, m, k, r);
  profile_apply_rules(p);
  return p;
}

/* ---- the rules ------------------------------------------------------------ */

ProfileSolVerdict profile_sol_verdict(gdouble sm_pct, gdouble mem_pct, gdouble waves_per_sm) {
  if (sm_pct >= 80 || mem_pct >= 80)
    return PROFILE_SOL_HIGH_THROUGHPUT;
  if (sm_pct < 60 && mem_pct < 60)
    return waves_per_sm < 1 ? PROFILE_SOL_SMALL_GRID : PROFILE_SOL_LATENCY;
  if (sm_pct - mem_pct >= 10)
    return PROFILE_SOL_HIGH_COMPUTE;
  if (mem_pct - sm_pct >= 10)
    return PROFILE_SOL_HIGH_MEMORY;
  return PROFILE_SOL_BALANCED;
}

static void fire(Profile *p, ProfileRuleId id, ProfileSection next, guint suggests,
                 const gchar *fmt, ...) G_GNUC_PRINTF(5, 6);

static void fire(Profile *p, ProfileRuleId id, ProfileSection next, guint suggests,
                 const gchar *fmt, ...) {
  ProfileRule *rule = &p->rule[id];
  va_list ap;
  va_start(ap, fmt);
  rule->fired = TRUE;
  rule->message = g_strdup_vprintf(fmt, ap);
  rule->next = next;
  rule->suggests = suggests;
  va_end(ap);
}

static void rule_sol(Profile *p) {
  ProfileRule *rule = &p->rule[PROFILE_RULE_SOL];
  gdouble sm = p->sm_pct, mem = p->mem_pct;
  const gchar *level = kernel_level_name(p->mem_level);
  p->verdict = profile_sol_verdict(sm, mem, p->waves_per_sm);
  rule->value = MAX(sm, mem);
  rule->threshold = p->verdict == PROFILE_SOL_HIGH_THROUGHPUT ? 80 : 60;
  switch (p->verdict) {
  case PROFILE_SOL_LATENCY:
    fire(p, PROFILE_RULE_SOL, PROFILE_SECTION_SCHEDULER,
         PROFILE_SUGGEST_OCCUPANCY | PROFILE_SUGGEST_ILP,
         "Latency Issue: SM %.1f %% and memory (%s) %.1f %% of peak are both below 60 %%: too "
         "little independent work in flight to keep any unit busy",
         sm, level, mem);
    break;
  case PROFILE_SOL_SMALL_GRID:
    fire(p, PROFILE_RULE_SOL, PROFILE_SECTION_LAUNCH, 0,
         "Small Grid: SM %.1f %% and memory %.1f %% are below 60 %% with %.3f waves per SM: the "
         "grid does not fill the device",
         sm, mem, p->waves_per_sm);
    break;
  case PROFILE_SOL_HIGH_COMPUTE:
    fire(p, PROFILE_RULE_SOL, PROFILE_SECTION_WARP_STATE, 0,
         "High Compute Throughput: SM %.1f %% (%s) leads memory %.1f %% by >= 10 points", sm,
         unit_names[p->sm_unit], mem);
    break;
  case PROFILE_SOL_HIGH_MEMORY:
    fire(p, PROFILE_RULE_SOL, PROFILE_SECTION_WARP_STATE, 0,
         "High Memory Throughput: memory (%s) %.1f %% leads SM %.1f %% by >= 10 points", level, mem,
         sm);
    break;
  case PROFILE_SOL_BALANCED:
    fire(p, PROFILE_RULE_SOL, PROFILE_SECTION_WARP_STATE, 0,
         "Balanced: SM %.1f %% and memory (%s) %.1f %% are within 10 points, one >= 60 %%", sm,
         level, mem);
    break;
  case PROFILE_SOL_HIGH_THROUGHPUT:
  case PROFILE_SOL_MAX:
    fire(p, PROFILE_RULE_SOL, PROFILE_SECTION_WARP_STATE, 0,
         "High Throughput: %s at %.1f %% of its peak (>= 80 %%; busiest pipe %s %.1f %%): more "
         "warps or ILP can gain at most the remaining %.1f %%; beyond that only moving work off "
         "this unit helps",
         p->busiest, MAX(sm, mem), unit_names[p->busiest_pipe], p->unit_pct[p->busiest_pipe],
         MAX(0.0, 100.0 - MAX(sm, mem)));
    break;
  }
}

static void rule_occupancy(Profile *p) {
  ProfileRule *ach = &p->rule[PROFILE_RULE_ACHIEVED_OCCUPANCY];
  ach->value = p->theoretical_pct - p->achieved_pct;
  ach->threshold = 10;
  if (ach->value > ach->threshold)
    fire(p, PROFILE_RULE_ACHIEVED_OCCUPANCY, PROFILE_SECTION_LAUNCH, 0,
         "achieved occupancy %.1f %% is %.1f points below the theoretical %.1f %% (> 10): warps "
         "or CTAs finish unevenly, or the last wave is partial",
         p->achieved_pct, ach->value, p->theoretical_pct);

  ProfileRule *theo = &p->rule[PROFILE_RULE_THEORETICAL_OCCUPANCY];
  theo->value = p->theoretical_warps_per_sched;
  theo->threshold = 0.8 * p->max_warps_per_sched;
  if (theo->value < theo->threshold) {
    GString *lim = g_string_new(NULL);
    if (p->capped)
      g_string_append(lim, "the [launch] blocks_per_sm cap");
    else
      occupancy_limiters_append(lim, p->limiter_mask, "+");
    fire(p, PROFILE_RULE_THEORETICAL_OCCUPANCY, PROFILE_SECTION_OCCUPANCY,
         PROFILE_SUGGEST_OCCUPANCY,
         "theoretical occupancy %.1f %% = %.2f warps per scheduler, below 80 %% of the "
         "hardware maximum %u (%.1f); limited by %s",
         p->theoretical_pct, theo->value, p->max_warps_per_sched, theo->threshold, lim->str);
    g_string_free(lim, TRUE);
  }
}

static void rule_issue_slots(Profile *p) {
  ProfileRule *rule = &p->rule[PROFILE_RULE_ISSUE_SLOTS];
  rule->value = p->issued_warps;
  rule->threshold = 0.6;
  if (rule->value < rule->threshold)
    fire(p, PROFILE_RULE_ISSUE_SLOTS, PROFILE_SECTION_WARP_STATE,
         p->theoretical_warps_per_sched < p->max_warps_per_sched ? PROFILE_SUGGEST_OCCUPANCY : 0,
         "each scheduler issues %.3f instructions per cycle (< 0.6, one every %.1f cycles): of "
         "%.2f active warps per scheduler only %.2f are eligible per cycle",
         rule->value, ratio(1.0, rule->value), p->active_warps, p->eligible_warps);
}

/* What a dominant stall means, what can help, and where to read next. */
static const struct {
  const gchar *hint;
  guint suggests;
  ProfileSection next;
} stall_advice[STALL_MAX] = {
    [STALL_DRAIN] = {"exited warps wait for their memory accesses to complete", 0,
                     PROFILE_SECTION_LAUNCH},
    [STALL_BARRIER] = {"warps wait at __syncthreads for the CTA's slowest warp", 0,
                       PROFILE_SECTION_LAUNCH},
    [STALL_BRANCH_RESOLVING] = {"warps wait for loop-back branches to resolve", 0,
                                PROFILE_SECTION_WARP_STATE},
    [STALL_LONG_SCOREBOARD] = {"warps wait for global/local memory (L1TEX): more loads in "
                               "flight per warp or more warps hide it",
                               PROFILE_SUGGEST_OCCUPANCY | PROFILE_SUGGEST_ILP,
                               PROFILE_SECTION_OCCUPANCY},
    [STALL_SHORT_SCOREBOARD] = {"warps wait for shared-memory or MUFU results",
                                PROFILE_SUGGEST_OCCUPANCY | PROFILE_SUGGEST_ILP,
                                PROFILE_SECTION_OCCUPANCY},
    [STALL_WAIT] = {"warps wait on fixed-latency dependencies: more independent instructions "
                    "per warp hide them",
                    PROFILE_SUGGEST_OCCUPANCY | PROFILE_SUGGEST_ILP, PROFILE_SECTION_OCCUPANCY},
    [STALL_LG_THROTTLE] = {"the SM's loads-in-flight cap is full", 0, PROFILE_SECTION_SOL},
    [STALL_MIO_THROTTLE] = {"the shared-memory/LSU unit is saturated", 0, PROFILE_SECTION_SOL},
    [STALL_MATH_PIPE_THROTTLE] = {"a math pipe is saturated", 0, PROFILE_SECTION_SOL},
    [STALL_DISPATCH_STALL] = {"dispatch waits on register-bank conflicts the operand reuse "
                              "cache hides only when one warp issues back to back: more "
                              "independent FFMAs per warp let it",
                              PROFILE_SUGGEST_ILP, PROFILE_SECTION_WARP_STATE},
};

static void rule_cpi_stall(Profile *p) {
  ProfileRule *rule = &p->rule[PROFILE_RULE_CPI_STALL];
  StallState top = STALL_MAX;
  for (guint i = 0; i < STALL_MAX && top == STALL_MAX; i++)
    if (p->state_order[i] != STALL_SELECTED && p->state_order[i] != STALL_NOT_SELECTED)
      top = p->state_order[i];
  rule->value = top < STALL_MAX ? p->state_pct[top] : 0;
  rule->threshold = 30;
  if (top == STALL_MAX || p->issue_slot_pct >= 80 || rule->value < rule->threshold)
    return;
  fire(p, PROFILE_RULE_CPI_STALL, stall_advice[top].next, stall_advice[top].suggests,
       "%s: %.2f of the %.2f warp cycles between two issues of a warp (%.1f %% >= 30 %%, issue "
       "active %.1f %% < 80 %%): %s",
       stall_name(top), p->state_cpi[top], p->total_cpi, rule->value, p->issue_slot_pct,
       stall_advice[top].hint);
}

static void rule_launch(Profile *p) {
  ProfileRule *tail = &p->rule[PROFILE_RULE_TAIL_EFFECT];
  tail->value = p->tail_pct;
  tail->threshold = 20;
  if (tail->value >= tail->threshold)
    fire(p, PROFILE_RULE_TAIL_EFFECT, PROFILE_SECTION_OCCUPANCY, 0,
         "%.3f waves per SM: %" G_GUINT64_FORMAT " full wave(s) and a partial wave of "
         "%" G_GUINT64_FORMAT " CTAs, which may take up to %.1f %% of the runtime (>= 20 %%) "
         "at lower occupancy",
         p->waves_per_sm, p->full_waves, p->partial_wave_blocks, tail->value);

  ProfileRule *block = &p->rule[PROFILE_RULE_BLOCK_SIZE];
  block->value = p->warp_size ? p->threads_per_block % p->warp_size : 0;
  block->threshold = 0;
  if (block->value > 0)
    fire(p, PROFILE_RULE_BLOCK_SIZE, PROFILE_SECTION_LAUNCH, 0,
         "%u threads per block is not a multiple of the warp size %u: the last warp of each "
         "block runs %u of %u lanes",
         p->threads_per_block, p->warp_size, (guint)block->value, p->warp_size);

  ProfileRule *grid = &p->rule[PROFILE_RULE_GRID_SIZE];
  grid->value = p->grid_blocks;
  grid->threshold = p->sms;
  if (grid->value < grid->threshold)
    fire(p, PROFILE_RULE_GRID_SIZE, PROFILE_SECTION_LAUNCH, 0,
         "the grid's %u CTAs are fewer than the %u SMs: %u SMs stay idle", p->grid_blocks, p->sms,
         p->sms - p->grid_blocks);
}

void profile_apply_rules(Profile *p) {
  for (guint i = 0; i < PROFILE_RULE_MAX; i++) {
    g_free(p->rule[i].message);
    memset(&p->rule[i], 0, sizeof p->rule[i]);
  }
  rule_sol(p);
  rule_occupancy(p);
  rule_issue_slots(p);
  rule_cpi_stall(p);
  rule_launch(p);
  for (guint w = 0; w < PROFILE_WHAT_IF_MAX; w++)
    p->what_if[w].suggested = FALSE;
  for (guint i = 0; i < PROFILE_RULE_MAX; i++) {
    if (p->rule[i].suggests & PROFILE_SUGGEST_OCCUPANCY)
      p->what_if[PROFILE_WHAT_IF_OCCUPANCY].suggested = TRUE;
    if (p->rule[i].suggests & PROFILE_SUGGEST_ILP)
      p->what_if[PROFILE_WHAT_IF_ILP].suggested = TRUE;
  }
}

/* ---- what-if -------------------------------------------------------------- */

/* More resident CTAs: lift a binding blocks_per_sm cap to the calculator's
 * limit, or else double the CTAs (up to the warp and block caps) by capping
 * registers (-maxrregcount, spilling the excess) or shrinking dynamic shared
 * memory, whichever limits.  FALSE with *note when nothing can be raised. */
static gboolean occupancy_change(const Profile *p, const SmModel *m, const Kernel *k, Kernel *w,
                                 GString *change, gchar **note) {
  if (p->capped) {
    w->blocks_per_sm = p->occ_blocks_per_sm;
    g_string_printf(change, "launch.blocks_per_sm=%u", w->blocks_per_sm);
    return TRUE;
  }
  guint hw = MIN(p->block_limit[OCC_LIMIT_WARPS], p->block_limit[OCC_LIMIT_BLOCKS]);
  if (p->blocks_per_sm >= hw) {
    *note = g_strdup("no change: occupancy is at the SM's warp/block limit");
    return FALSE;
  }
  guint target = MIN(2 * p->blocks_per_sm, hw);
  OccLaunch launch;
  occupancy_launch_init(&launch);
  launch.threads = k->threads_per_block;
  launch.regs = kernel_regs_allocated(k);
  launch.smem_static = k->smem_static;
  launch.smem_dynamic = k->smem_dynamic;
  launch.optin = k->optin;
  if (p->limiter_mask & (1u << OCC_LIMIT_REGISTERS)) {
    OccResult o;
    guint regs = launch.regs;
    while (regs > 1) {
      launch.regs = --regs;
      if (occupancy_compute(&m->sm, &launch, &o, NULL) && o.limit[OCC_LIMIT_REGISTERS] >= target)
        break;
    }
    w->max_regs = regs;
    g_string_append_printf(change, "launch.max_regs=%u", regs);
  }
  if (p->limiter_mask & (1u << OCC_LIMIT_SHARED_MEM)) {
    guint bytes = 0;
    const gchar *reason = NULL;
    if (!occupancy_smem_for_blocks(&m->sm, &launch, target, &bytes, &reason, NULL) ||
        reason != NULL) {
      *note = g_strdup_printf("no change: %s", reason ? reason : "shared memory cannot shrink");
      return FALSE;
    }
    w->smem_dynamic = bytes;
    g_string_append_printf(change, "%slaunch.smem_dynamic=%u", change->len ? " " : "", bytes);
  }
  if (k->blocks_per_sm > 0 && k->blocks_per_sm < target) {
    w->blocks_per_sm = target;
    g_string_append_printf(change, "%slaunch.blocks_per_sm=%u", change->len ? " " : "", target);
  }
  return change->len > 0;
}

/* Twice the independent chains per warp: ilp, fma, loads, sfu and lds
 * doubled, iterations kept (as a sweep over ILP does, so the what-if matches
 * the swept point; rates are per cycle, so twice the work compares). */
static gboolean ilp_change(const Kernel *k, Kernel *w, GString *change, gchar **note) {
  if (k->fma + k->loads + k->sfu + k->lds == 0) {
    *note = g_strdup("no change: the kernel has no dependency chains");
    return FALSE;
  }
  if (k->ilp * 2 > 64 || k->loads * 2 > 64 || k->fma * 2 > 65536 || k->sfu * 2 > 65536 ||
      k->lds * 2 > 65536) {
    *note = g_strdup("no change: ilp or loads would exceed their range");
    return FALSE;
  }
  w->ilp = k->ilp * 2;
  g_string_printf(change, "stream.ilp=%u", w->ilp);
  const struct {
    const gchar *key;
    guint *field;
  } counts[] = {{"fma", &w->fma}, {"loads", &w->loads}, {"sfu", &w->sfu}, {"lds", &w->lds}};
  for (guint i = 0; i < G_N_ELEMENTS(counts); i++) {
    if (*counts[i].field == 0)
      continue;
    *counts[i].field *= 2;
    g_string_append_printf(change, " stream.%s=%u", counts[i].key, *counts[i].field);
  }
  return TRUE;
}

static void what_if_one(Profile *p, ProfileWhatIfKind kind, const SmModel *m, const Kernel *k,
                        const SimOptions *opt) {
  ProfileWhatIf *wi = &p->what_if[kind];
  g_clear_pointer(&wi->change, g_free);
  g_clear_pointer(&wi->note, g_free);
  wi->ran = FALSE;
  wi->base = p->throughput;
  wi->base_occupancy_pct = p->theoretical_pct;
  Kernel w = *k; /* shallow: name and file stay borrowed */
  GString *change = g_string_new(NULL);
  gboolean ok = kind == PROFILE_WHAT_IF_OCCUPANCY ? occupancy_change(p, m, k, &w, change, &wi->note)
                                                  : ilp_change(k, &w, change, &wi->note);
  if (!ok) {
    g_string_free(change, TRUE);
    return;
  }
  wi->change = g_string_free(change, FALSE);
  SimResult r;
  GError *err = NULL;
  if (!sim_run(m, &w, opt, &r, &err)) {
    wi->note = g_strdup_printf("simulation failed: %s", err->message);
    g_error_free(err);
    return;
  }
  const gchar *metric, *unit;
  wi->ran = TRUE;
  wi->value = throughput_of(&w, &r, &metric, &unit);
  wi->gain_pct = 100.0 * (ratio(wi->value, wi->base) - 1.0);
  wi->occupancy_pct = r.occupancy_pct;
  wi->issue_active = sim_issue_active(&r, m);
  if (r.spill_values > 0)
    wi->note = g_strdup_printf("%u registers per thread spill to local memory", r.spill_values);
}

void profile_what_if(Profile *p, const SmModel *m, const Kernel *k, const SimOptions *opt) {
  for (guint w = 0; w < PROFILE_WHAT_IF_MAX; w++)
    if (p->what_if[w].suggested)
      what_if_one(p, w, m, k, opt);
}

void profile_skip_what_if(Profile *p) {
  for (guint w = 0; w < PROFILE_WHAT_IF_MAX; w++) {
    if (!p->what_if[w].suggested)
      continue;
    g_free(p->what_if[w].note);
    p->what_if[w].note = g_strdup("skipped (--no-whatif)");
  }
}

/* "no gain", "pays" or "costs", by PROFILE_WHAT_IF_NOISE_PCT. */
static const gchar *what_if_verdict(const ProfileWhatIf *wi) {
  if (!wi->ran)
    return "not run";
  if (wi->gain_pct >= PROFILE_WHAT_IF_NOISE_PCT)
    return "pays";
  if (wi->gain_pct <= -PROFILE_WHAT_IF_NOISE_PCT)
    return "costs";
  return "no gain";
}

/* ---- text ----------------------------------------------------------------- */

static gchar *num(gdouble v, guint decimals) {
  gchar fmt[8], buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_snprintf(fmt, sizeof fmt, "%%.%uf", decimals);
  return g_strdup(g_ascii_formatd(buf, sizeof buf, fmt, v));
}

/* An aligned table: numbers right-aligned, the first column and those in
 * `left` (bit per column) left-aligned. */
typedef struct {
  guint n_cols;
  guint left;       /* bit c: column c is left-aligned (bit 0 is always set) */
  GPtrArray *cells; /* gchar *, row-major, the header row first */
} Table;

static void table_init(Table *t, guint n_cols, const gchar *const *header) {
  t->n_cols = n_cols;
  t->left = 1;
  t->cells = g_ptr_array_new_with_free_func(g_free);
  for (guint c = 0; c < n_cols; c++)
    g_ptr_array_add(t->cells, g_strdup(header[c]));
}

/* Append a row of n_cols cells; takes ownership of every cell. */
static void table_row(Table *t, ...) {
  va_list ap;
  va_start(ap, t);
  for (guint c = 0; c < t->n_cols; c++)
    g_ptr_array_add(t->cells, va_arg(ap, gchar *));
  va_end(ap);
}

static void table_rule(const guint *width, guint n_cols, GString *out) {
  g_string_append(out, "    ");
  for (guint c = 0; c < n_cols; c++) {
    for (guint i = 0; i < width[c]; i++)
      g_string_append_c(out, '-');
    g_string_append_c(out, c + 1 < n_cols ? ' ' : '\n');
  }
}

static void table_flush(Table *t, GString *out) {
  guint width[8] = {0};
  g_assert(t->n_cols <= G_N_ELEMENTS(width));
  for (guint i = 0; i < t->cells->len; i++)
    width[i % t->n_cols] = MAX(width[i % t->n_cols], strlen(g_ptr_array_index(t->cells, i)));
  table_rule(width, t->n_cols, out);
  for (guint i = 0; i < t->cells->len; i++) {
    guint c = i % t->n_cols;
    const gchar *cell = g_ptr_array_index(t->cells, i);
    g_string_append(out, c == 0 ? "    " : " ");
    gboolean last = c + 1 == t->n_cols, left = (t->left >> c) & 1;
    g_string_append_printf(out, left ? "%-*s" : "%*s", left && last ? 0 : (int)width[c], cell);
    if (last)
      g_string_append_c(out, '\n');
    if (i + 1 == t->n_cols)
      table_rule(width, t->n_cols, out);
  }
  table_rule(width, t->n_cols, out);
  g_ptr_array_unref(t->cells);
}

/* ---- the metric rows of the sections (text and JSON) -------------------- */

typedef enum { VAL_DOUBLE, VAL_UINT, VAL_STRING } ValType;

/* A string-valued metric; returns a new string. */
typedef gchar *(*MetricText)(const Profile *p);

static gchar *sm_unit_text(const Profile *p) {
  return g_strdup(unit_names[p->sm_unit]);
}
static gchar *mem_level_text(const Profile *p) {
  return g_strdup(kernel_level_name(p->mem_level));
}
static gchar *busiest_text(const Profile *p) {
  return g_strdup(p->busiest);
}
static gchar *verdict_text(const Profile *p) {
  return g_strdup(sol_names[p->verdict]);
}
static gchar *limiter_text(const Profile *p) {
  if (p->capped)
    return g_strdup("blocks_per_sm_cap");
  GString *lim = g_string_new(NULL);
  occupancy_limiters_append(lim, p->limiter_mask, "+");
  return g_string_free(lim, FALSE);
}

#define D(f) VAL_DOUBLE, offsetof(Profile, f), NULL
#define U(f) VAL_UINT, offsetof(Profile, f), NULL
#define S(fn) VAL_STRING, 0, fn
#define UNIT_PCT(u) VAL_DOUBLE, offsetof(Profile, unit_pct) + (u) * sizeof(gdouble), NULL
#define LIMIT(l) VAL_UINT, offsetof(Profile, block_limit) + (l) * sizeof(guint), NULL

/* Every metric row, in section order: text name and unit, JSON member name,
 * where the value lives, decimals in text. */
static const struct {
  ProfileSection section;
  const gchar *name, *unit, *json;
  ValType type;
  gsize offset;
  MetricText text;
  guint decimals;
} metric_rows[] = {
    {PROFILE_SECTION_SOL, "SM Throughput", "%", "sm_throughput_pct", D(sm_pct), 2},
    {PROFILE_SECTION_SOL, "SM Busiest Unit", "", "sm_busiest_unit", S(sm_unit_text), 0},
    {PROFILE_SECTION_SOL, "Memory Throughput", "%", "memory_throughput_pct", D(mem_pct), 2},
    {PROFILE_SECTION_SOL, "Memory Level", "", "memory_level", S(mem_level_text), 0},
    {PROFILE_SECTION_SOL, "Memory Bandwidth Used", "B/cycle/SM", "memory_bytes_per_cycle",
     D(mem_bytes_per_cycle), 3},
    {PROFILE_SECTION_SOL, "Memory Bandwidth Peak", "B/cycle/SM", "memory_peak_bytes_per_cycle",
     D(mem_peak_bytes_per_cycle), 3},
    {PROFILE_SECTION_SOL, "Avg. Global Load Latency", "cycle", "load_latency_cycles",
     D(load_latency), 1},
    {PROFILE_SECTION_SOL, "Unloaded Load Latency (model)", "cycle", "load_latency_unloaded_cycles",
     D(load_latency_unloaded), 1},
    {PROFILE_SECTION_SOL, "Global Loads In Flight (avg)", "warp-load", "loads_in_flight",
     D(loads_in_flight), 1},
    {PROFILE_SECTION_SOL, "Issue Slots Busy", "%", "issue_pct", UNIT_PCT(PROFILE_UNIT_ISSUE), 2},
    {PROFILE_SECTION_SOL, "FMA Pipe Busy", "%", "fma_pct", UNIT_PCT(PROFILE_UNIT_FMA), 2},
    {PROFILE_SECTION_SOL, "ALU Pipe Busy", "%", "alu_pct", UNIT_PCT(PROFILE_UNIT_ALU), 2},
    {PROFILE_SECTION_SOL, "SFU Pipe Busy", "%", "sfu_pct", UNIT_PCT(PROFILE_UNIT_SFU), 2},
    {PROFILE_SECTION_SOL, "Shared Memory Unit Busy (SM-wide)", "%", "smem_pct",
     UNIT_PCT(PROFILE_UNIT_SMEM), 2},
    {PROFILE_SECTION_SOL, "LSU Busy", "%", "lsu_pct", UNIT_PCT(PROFILE_UNIT_LSU), 2},
    {PROFILE_SECTION_SOL, "Busiest Unit", "", "busiest_unit", S(busiest_text), 0},
    {PROFILE_SECTION_SOL, "Verdict", "", "verdict", S(verdict_text), 0},
    {PROFILE_SECTION_SCHEDULER, "One or More Eligible", "%", "issue_slot_utilization_pct",
     D(issue_slot_pct), 2},
    {PROFILE_SECTION_SCHEDULER, "No Eligible", "%", "no_eligible_pct", D(no_eligible_pct), 2},
    {PROFILE_SECTION_SCHEDULER, "Active Warps Per Scheduler", "warp", "active_warps_per_scheduler",
     D(active_warps), 2},
    {PROFILE_SECTION_SCHEDULER, "Eligible Warps Per Scheduler", "warp",
     "eligible_warps_per_scheduler", D(eligible_warps), 2},
    {PROFILE_SECTION_SCHEDULER, "Issued Warp Per Scheduler", "", "issued_warps_per_scheduler",
     D(issued_warps), 4},
    {PROFILE_SECTION_SCHEDULER, "Operand-Ready Warps Per Scheduler", "warp",
     "operand_ready_warps_per_scheduler", D(ready_warps), 2},
    {PROFILE_SECTION_SCHEDULER, "Max Warps Per Scheduler", "warp", "max_warps_per_scheduler",
     U(max_warps_per_sched), 0},
    {PROFILE_SECTION_SCHEDULER, "Avg. Active Threads Per Warp", "thread", "active_threads_per_warp",
     D(threads_per_inst), 2},
    {PROFILE_SECTION_WARP_STATE, "Warp Cycles Per Issued Instruction", "cycle",
     "warp_cycles_per_issued_instruction", D(total_cpi), 4},
    {PROFILE_SECTION_OCCUPANCY, "Block Limit SM", "block", "block_limit_blocks",
     LIMIT(OCC_LIMIT_BLOCKS), 0},
    {PROFILE_SECTION_OCCUPANCY, "Block Limit Warps", "block", "block_limit_warps",
     LIMIT(OCC_LIMIT_WARPS), 0},
    {PROFILE_SECTION_OCCUPANCY, "Block Limit Registers", "block", "block_limit_registers",
     LIMIT(OCC_LIMIT_REGISTERS), 0},
    {PROFILE_SECTION_OCCUPANCY, "Block Limit Shared Mem", "block", "block_limit_shared_mem",
     LIMIT(OCC_LIMIT_SHARED_MEM), 0},
    {PROFILE_SECTION_OCCUPANCY, "Occupancy Limiter", "", "limiter", S(limiter_text), 0},
    {PROFILE_SECTION_OCCUPANCY, "Blocks Per SM (calculator)", "block", "occupancy_blocks_per_sm",
     U(occ_blocks_per_sm), 0},
    {PROFILE_SECTION_OCCUPANCY, "Resident Blocks Per SM", "block", "blocks_per_sm",
     U(blocks_per_sm), 0},
    {PROFILE_SECTION_OCCUPANCY, "Theoretical Active Warps per SM", "warp",
     "theoretical_warps_per_sm", U(warps_per_sm), 0},
    {PROFILE_SECTION_OCCUPANCY, "Theoretical Warps Per Scheduler", "warp",
     "theoretical_warps_per_scheduler", D(theoretical_warps_per_sched), 2},
    {PROFILE_SECTION_OCCUPANCY, "Achieved Warps Per Scheduler", "warp",
     "achieved_warps_per_scheduler", D(achieved_warps_per_sched), 2},
    {PROFILE_SECTION_OCCUPANCY, "Theoretical Occupancy", "%", "theoretical_pct", D(theoretical_pct),
     2},
    {PROFILE_SECTION_OCCUPANCY, "Achieved Occupancy", "%", "achieved_pct", D(achieved_pct), 2},
    {PROFILE_SECTION_LAUNCH, "Block Size", "thread", "threads_per_block", U(threads_per_block), 0},
    {PROFILE_SECTION_LAUNCH, "Grid Size", "block", "grid_blocks", U(grid_blocks), 0},
    {PROFILE_SECTION_LAUNCH, "Registers Per Thread", "register/thread", "registers_per_thread",
     U(regs_per_thread), 0},
    {PROFILE_SECTION_LAUNCH, "Shared Memory Per Block (allocated)", "byte", "smem_per_block",
     U(smem_per_block), 0},
    {PROFILE_SECTION_LAUNCH, "# SMs", "SM", "sms", U(sms), 0},
    {PROFILE_SECTION_LAUNCH, "Blocks On The Simulated SM", "block", "sm_blocks", U(sm_blocks), 0},
    {PROFILE_SECTION_LAUNCH, "Waves Per SM", "", "waves_per_sm", D(waves_per_sm), 3},
    {PROFILE_SECTION_LAUNCH, "Partial Wave Share (at most)", "%", "tail_pct", D(tail_pct), 1},
};

#undef D
#undef U
#undef S
#undef UNIT_PCT
#undef LIMIT

static gdouble row_number(const Profile *p, guint i) {
  const guint8 *base = (const guint8 *)p + metric_rows[i].offset;
  if (metric_rows[i].type == VAL_UINT)
    return *(const guint *)base;
  return *(const gdouble *)base;
}

/* Section titles as Nsight Compute prints them, and JSON member names. */
static const gchar *const section_titles[PROFILE_SECTION_MAX] = {
    "GPU Speed Of Light Throughput",
    "Scheduler Statistics",
    "Warp State Statistics",
    "Occupancy",
    "Launch Statistics",
    "What-If (one extra simulation per suggestion)"};
static const gchar *const section_json[PROFILE_SECTION_MAX] = {
    "speed_of_light", "scheduler", "warp_states", "occupancy", "launch", "what_if"};

/* NCU's rule types: OPT (an optimization opportunity), WRN, INF. */
static const gchar *rule_type(const Profile *p, ProfileRuleId id) {
  if (id == PROFILE_RULE_BLOCK_SIZE || id == PROFILE_RULE_GRID_SIZE)
    return "WRN";
  if (id == PROFILE_RULE_SOL &&
      (p->verdict == PROFILE_SOL_HIGH_THROUGHPUT || p->verdict == PROFILE_SOL_BALANCED))
    return "INF";
  return "OPT";
}

static void section_rules(const Profile *p, ProfileSection s, GString *out) {
  for (guint i = 0; i < PROFILE_RULE_MAX; i++) {
    const ProfileRule *rule = &p->rule[i];
    if (rule->fired && rule_info[i].owner == s)
      g_string_append_printf(out, "    %s   %s: %s -> read %s\n", rule_type(p, i),
                             rule_info[i].name, rule->message, section_names[rule->next]);
  }
  g_string_append_c(out, '\n');
}

/* The section's metric rows; for Warp State Statistics a row per state
 * instead, largest first. */
static void section_table(const Profile *p, ProfileSection s, Table *t) {
  static const gchar *const metric_header[] = {"Metric Name", "Metric Unit", "Metric Value"};
  static const gchar *const state_header[] = {"Warp State", "Warp Cycles Per Issued Instruction",
                                              "Share %"};
  if (s == PROFILE_SECTION_WARP_STATE) {
    table_init(t, 3, state_header);
    table_row(t, g_strdup("(all states)"), num(p->total_cpi, 4), num(100, 1));
    for (guint i = 0; i < STALL_MAX; i++) {
      guint st = p->state_order[i];
      if (p->state_cpi[st] > 0)
        table_row(t, g_strdup(stall_name(st)), num(p->state_cpi[st], 4), num(p->state_pct[st], 1));
    }
    return;
  }
  table_init(t, 3, metric_header);
  for (guint i = 0; i < G_N_ELEMENTS(metric_rows); i++) {
    if (metric_rows[i].section != s)
      continue;
    gchar *value = metric_rows[i].type == VAL_STRING
                       ? metric_rows[i].text(p)
                       : num(row_number(p, i), metric_rows[i].decimals);
    table_row(t, g_strdup(metric_rows[i].name), g_strdup(metric_rows[i].unit), value);
  }
}

static void text_section(const Profile *p, ProfileSection s, GString *out) {
  Table t;
  section_table(p, s, &t);
  g_string_append_printf(out, "  Section: %s\n", section_titles[s]);
  table_flush(&t, out);
  section_rules(p, s, out);
}

static void text_what_if(const Profile *p, GString *out) {
  g_string_append_printf(out, "  Section: %s\n", section_titles[PROFILE_SECTION_WHAT_IF]);
  gboolean any = FALSE;
  for (guint w = 0; w < PROFILE_WHAT_IF_MAX; w++)
    any |= p->what_if[w].suggested;
  if (!any) {
    g_string_append(out, "    no fired rule suggests more occupancy or ILP\n\n");
    return;
  }
  g_autofree gchar *tp = g_strdup_printf("%s (%s)", p->metric, p->metric_unit);
  const gchar *const header[] = {"What-If", "Change", "Theoretical Occupancy %",
                                 tp,        "Gain %", "Verdict"};
  Table t;
  table_init(&t, G_N_ELEMENTS(header), header);
  t.left |= 1u << 1 | 1u << 5;
  for (guint w = 0; w < PROFILE_WHAT_IF_MAX; w++) {
    const ProfileWhatIf *wi = &p->what_if[w];
    if (!wi->suggested)
      continue;
    gchar *occ, *thr, *gain;
    if (wi->ran) {
      occ = g_strdup_printf("%.1f -> %.1f", wi->base_occupancy_pct, wi->occupancy_pct);
      thr = g_strdup_printf("%.4f -> %.4f", wi->base, wi->value);
      gain = g_strdup_printf("%+.1f", wi->gain_pct);
    } else {
      occ = g_strdup_printf("%.1f", p->theoretical_pct);
      thr = g_strdup_printf("%.4f", p->throughput);
      gain = g_strdup("-");
    }
    table_row(&t, g_strdup(what_if_names[w]), g_strdup(wi->change ? wi->change : "-"), occ, thr,
              gain, g_strdup(what_if_verdict(wi)));
  }
  table_flush(&t, out);
  for (guint w = 0; w < PROFILE_WHAT_IF_MAX; w++)
    if (p->what_if[w].suggested && p->what_if[w].note)
      g_string_append_printf(out, "    %s: %s\n", what_if_names[w], p->what_if[w].note);
  gboolean ran = FALSE;
  for (guint w = 0; w < PROFILE_WHAT_IF_MAX; w++)
    ran |= p->what_if[w].ran;
  if (ran)
    g_string_append_printf(out,
                           "    (a gain within +-%.0f %% is no gain: the advice does not pay)\n",
                           PROFILE_WHAT_IF_NOISE_PCT);
  g_string_append_c(out, '\n');
}

void profile_append_text(const Profile *p, GString *out) {
  for (guint s = 0; s < PROFILE_SECTION_WHAT_IF; s++)
    text_section(p, s, out);
  text_what_if(p, out);
}

/* ---- JSON ----------------------------------------------------------------- */

static void json_num(JsonBuilder *b, const gchar *name, gdouble v) {
  json_builder_set_member_name(b, name);
  json_builder_add_double_value(b, v);
}

static void json_int(JsonBuilder *b, const gchar *name, gint64 v) {
  json_builder_set_member_name(b, name);
  json_builder_add_int_value(b, v);
}

static void json_str(JsonBuilder *b, const gchar *name, const gchar *v) {
  json_builder_set_member_name(b, name);
  if (v != NULL)
    json_builder_add_string_value(b, v);
  else
    json_builder_add_null_value(b);
}

/* An array member `name` of one object per item(i), i < n (item may skip). */
typedef void (*JsonItem)(JsonBuilder *b, const Profile *p, guint i);

static void json_array(JsonBuilder *b, const gchar *name, const Profile *p, guint n,
                       JsonItem item) {
  json_builder_set_member_name(b, name);
  json_builder_begin_array(b);
  for (guint i = 0; i < n; i++)
    item(b, p, i);
  json_builder_end_array(b);
}

static void json_state(JsonBuilder *b, const Profile *p, guint i) {
  guint st = p->state_order[i];
  json_builder_begin_object(b);
  json_str(b, "state", stall_name(st));
  json_num(b, "warp_cycles_per_issued_instruction", p->state_cpi[st]);
  json_num(b, "pct", p->state_pct[st]);
  json_builder_end_object(b);
}

static void json_rule(JsonBuilder *b, const Profile *p, guint i) {
  const ProfileRule *rule = &p->rule[i];
  json_builder_begin_object(b);
  json_str(b, "id", rule_info[i].name);
  json_str(b, "section", section_names[rule_info[i].owner]);
  json_builder_set_member_name(b, "fired");
  json_builder_add_boolean_value(b, rule->fired);
  json_num(b, "value", rule->value);
  json_num(b, "threshold", rule->threshold);
  if (rule->fired) {
    json_str(b, "type", rule_type(p, i));
    json_str(b, "message", rule->message);
    json_str(b, "next", section_names[rule->next]);
  }
  json_builder_end_object(b);
}

static void json_what_if(JsonBuilder *b, const Profile *p, guint w) {
  const ProfileWhatIf *wi = &p->what_if[w];
  if (!wi->suggested)
    return;
  json_builder_begin_object(b);
  json_str(b, "kind", what_if_names[w]);
  json_str(b, "change", wi->change);
  json_builder_set_member_name(b, "ran");
  json_builder_add_boolean_value(b, wi->ran);
  json_str(b, "metric", p->metric);
  json_num(b, "base", p->throughput);
  if (wi->ran) {
    json_num(b, "value", wi->value);
    json_num(b, "gain_pct", wi->gain_pct);
    json_num(b, "base_occupancy_pct", wi->base_occupancy_pct);
    json_num(b, "occupancy_pct", wi->occupancy_pct);
    json_num(b, "issue_active", wi->issue_active);
  }
  json_str(b, "verdict", what_if_verdict(wi));
  json_str(b, "note", wi->note);
  json_builder_end_object(b);
}

/* The section's metric rows as members of an object `section_json[s]`; the
 * warp states add an array of every state, largest first. */
static void json_section(JsonBuilder *b, const Profile *p, ProfileSection s) {
  json_builder_set_member_name(b, section_json[s]);
  json_builder_begin_object(b);
  for (guint i = 0; i < G_N_ELEMENTS(metric_rows); i++) {
    if (metric_rows[i].section != s)
      continue;
    if (metric_rows[i].type == VAL_STRING) {
      g_autofree gchar *text = metric_rows[i].text(p);
      json_str(b, metric_rows[i].json, text);
    } else if (metric_rows[i].type == VAL_UINT) {
      json_int(b, metric_rows[i].json, (gint64)row_number(p, i));
    } else {
      json_num(b, metric_rows[i].json, row_number(p, i));
    }
  }
  if (s == PROFILE_SECTION_WARP_STATE)
    json_array(b, "states", p, STALL_MAX, json_state);
  json_builder_end_object(b);
}

JsonNode *profile_to_json(const Profile *p) {
  g_autoptr(JsonBuilder) b = json_builder_new();
  json_builder_begin_object(b);
  json_str(b, "metric", p->metric);
  json_str(b, "metric_unit", p->metric_unit);
  json_num(b, "throughput", p->throughput);
  for (guint s = 0; s < PROFILE_SECTION_WHAT_IF; s++)
    json_section(b, p, s);
  json_array(b, "rules", p, PROFILE_RULE_MAX, json_rule);
  json_array(b, section_json[PROFILE_SECTION_WHAT_IF], p, PROFILE_WHAT_IF_MAX, json_what_if);
  json_builder_end_object(b);
  return json_builder_get_root(b);
}

void profile_free(Profile *p) {
  if (p == NULL)
    return;
  for (guint i = 0; i < PROFILE_RULE_MAX; i++)
    g_free(p->rule[i].message);
  for (guint w = 0; w < PROFILE_WHAT_IF_MAX; w++) {
    g_free(p->what_if[w].change);
    g_free(p->what_if[w].note);
  }
  g_free(p);
}
