/* profile_metrics.c - the report's numbers from one run's counters. */
#include "report/profile_metrics.h"

#include "core/program.h"
#include "run/rates.h"

#include <string.h>

/* PROFILE_UNIT_SMEM is "l1tex": the unit is the SM's shared-memory/L1TEX data
 * stage, busy with global loads' data cycles too, so a kernel without shared
 * memory (saxpy) can have it busiest; "smem" read as shared memory. */
static const gchar *const unit_names[PROFILE_UNIT_MAX] = {"issue", "fma",   "alu",
                                                          "sfu",   "l1tex", "lsu"};
static const InstrPipe unit_pipe[PROFILE_UNIT_MAX] = {PIPE_NONE, PIPE_FMA,  PIPE_ALU,
                                                      PIPE_SFU,  PIPE_SMEM, PIPE_LSU};

const gchar *profile_unit_name(ProfileUnit u) {
  return u < PROFILE_UNIT_MAX ? unit_names[u] : "?";
}

static gdouble ratio(gdouble num, gdouble den) {
  return den > 0 ? num / den : 0.0;
}

gdouble profile_metrics_throughput(const Kernel *k, const SimResult *r, const gchar **metric,
                                   const gchar **unit) {
  static const struct {
    const gchar *metric, *unit;
  } kinds[] = {{"bytes_per_cycle", "global B/cycle/SM"},
               {"fma_per_cycle", "warp FFMA/cycle/SM"},
               {"sfu_per_cycle", "warp MUFU/cycle/SM"},
               {"lds_per_cycle", "warp LDS/cycle/SM"},
               {"ipc", "warp inst/cycle/SM"}};
  guint i = k->loads > 0                       ? 0
            : k->fma > 0 || k->live_values > 0 ? 1
            : k->sfu > 0                       ? 2
            : k->lds > 0                       ? 3
                                               : 4;
  const guint64 count[] = {r->st.load_bytes, r->st.ffma, r->st.ops[OP_MUFU], r->st.ops[OP_LDS],
                           r->st.issued};
  *metric = kinds[i].metric;
  *unit = kinds[i].unit;
  return sim_per_cycle(r, count[i]);
}

gchar *profile_metrics_limiter(const ProfileMetrics *pm) {
  if (pm->capped)
    return g_strdup("blocks_per_sm_cap");
  GString *lim = g_string_new(NULL);
  occupancy_limiters_append(lim, pm->limiter_mask, "+");
  return g_string_free(lim, FALSE);
}

static void speed_of_light(ProfileMetrics *p, const SmModel *m, const Kernel *k,
                           const SimResult *r) {
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
  const MemLevelModel *lv = model_mem_level(m, k->level);
  p->has_loads = k->loads > 0;
  /* Memory throughput is the busiest level's, each level by the bytes it
   * served (Nsight Compute's Memory Throughput: the most used of DRAM, L1
   * and L2), so loads that hit L2 do not count against DRAM's peak; with
   * nothing served, the kernel's [stream] level at 0 %. */
  p->mem_level = k->level;
  p->mem_pct = -1;
  for (guint l = 0; l < MEM_LEVELS; l++) {
    /* The peak is what the simulated SM could get: the all-SMs share raised
     * as the simulation raised it for the SMs busy (a lone SM: 1.953x DRAM),
     * so the throughput cannot pass 100 % by that rise. */
    gdouble bpc = sim_per_cycle(r, r->st.level_bytes[l]);
    gdouble peak = model_mem_level(m, l)->bytes_per_cycle * sim_level_busy_share(m, r, l);
    gdouble pct = 100.0 * ratio(bpc, peak);
    if (r->st.level_bytes[l] > 0 && pct > p->mem_pct) {
      p->mem_pct = pct;
      p->mem_level = l;
      p->mem_bytes_per_cycle = bpc;
      p->mem_peak_bytes_per_cycle = peak;
    }
  }
  if (p->mem_pct < 0) {
    p->mem_pct = 0;
    p->mem_bytes_per_cycle = 0;
    p->mem_peak_bytes_per_cycle = lv->bytes_per_cycle * sim_level_busy_share(m, r, k->level);
  }
  p->load_latency = sim_avg_load_latency(r);
  p->load_latency_unloaded = model_level_latency(lv, k->pattern == KERNEL_PATTERN_SEQUENTIAL);
  p->loads_in_flight = sim_loads_per_cycle(r) * p->load_latency;
  p->busiest = p->mem_pct > p->sm_pct ? kernel_level_name(p->mem_level) : unit_names[p->sm_unit];
}

/* Nsight Compute's definitions (sim.h, SimSchedStats): per scheduler over
 * its active cycles, device-wide. */
static void scheduler_stats(ProfileMetrics *p, const SmModel *m, const SimResult *r) {
  SimSchedStats ss;
  sim_sched_stats(r, &ss);
  p->smsps = m->sm.smsps;
  p->max_warps_per_sched = m->sm.max_warps / m->sm.smsps;
  p->active_warps = ss.active_warps;
  p->eligible_warps = ss.eligible_warps;
  p->issued_warps = ss.issued_warps;
  p->ready_warps = ss.ready_warps;
  p->one_or_more_eligible_pct = ss.one_or_more_eligible_pct;
  p->issue_slot_pct = 100.0 * p->issued_warps;
  p->no_eligible_pct = 100.0 - p->one_or_more_eligible_pct;
  p->threads_per_inst = ratio((gdouble)r->st.thread_insts, (gdouble)r->st.issued);
}

/* The top cause of the warp states (ProfileMetrics top_cause), from the
 * counts, so that it is the state, and its share the number, that the
 * largest state was before the SM cap's loads were charged long_scoreboard. */
static void top_cause(ProfileMetrics *p, const SimResult *r) {
  guint64 c[STALL_MAX];
  memcpy(c, r->st.state, sizeof c);
  c[STALL_LONG_SCOREBOARD] -= r->st.lg_load_sm;
  c[STALL_LG_THROTTLE] += r->st.lg_load_sm;
  guint top = STALL_MAX;
  for (guint s = 0; s < STALL_MAX; s++)
    if (s != STALL_SELECTED && s != STALL_NOT_SELECTED && (top == STALL_MAX || c[s] > c[top]))
      top = s;
  p->top_cause = (StallState)top;
  p->top_cause_cpi = ratio((gdouble)c[top], (gdouble)r->st.issued);
  p->top_cause_pct = 100.0 * ratio((gdouble)c[top], (gdouble)r->st.active_warp_cycles);
}

static void warp_states(ProfileMetrics *p, const SimResult *r) {
  p->total_cpi = ratio((gdouble)r->st.active_warp_cycles, (gdouble)r->st.issued);
  p->lg_warp_cpi = ratio((gdouble)(r->st.state[STALL_LG_THROTTLE] - r->st.lg_throttle_sm),
                         (gdouble)r->st.issued);
  p->lg_sm_cpi = ratio((gdouble)r->st.lg_throttle_sm, (gdouble)r->st.issued);
  p->lsb_sm_cpi = ratio((gdouble)r->st.lg_load_sm, (gdouble)r->st.issued);
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
  top_cause(p, r);
}

static void occupancy_stats(ProfileMetrics *p, const SmModel *m, const Kernel *k,
                            const SimResult *r) {
  p->theoretical_pct = r->occupancy_pct;
  p->achieved_pct = sim_achieved_occupancy_pct(r, m);
  p->sm_achieved_pct = sim_sm_achieved_occupancy_pct(r, m);
  p->theoretical_warps_per_sched = (gdouble)r->warps_per_sm / m->sm.smsps;
  p->achieved_warps_per_sched = p->achieved_pct / 100.0 * m->sm.max_warps / m->sm.smsps;
  p->occ_blocks_per_sm = r->occ.blocks_per_sm;
  p->blocks_per_sm = r->blocks_per_sm;
  p->warps_per_sm = r->warps_per_sm;
  p->max_warps = m->sm.max_warps;
  p->limiter_mask = r->occ.limiter_mask;
  p->capped = k->blocks_per_sm > 0 && k->blocks_per_sm < r->occ.blocks_per_sm;
  memcpy(p->block_limit, r->occ.limit, sizeof p->block_limit);
}

static void launch_stats(ProfileMetrics *p, const SmModel *m, const Kernel *k, const SimResult *r) {
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
  p->last_wave_sms = w.last_wave_sms;
  p->sm_time_used_pct = sim_sm_time_used_pct(r, m);
  /* Two busy loads: the simulated share of the longest SM's run the others
   * leave idle; one load: the wave estimate (the partial wave within it). */
  if (r->n_loads == 2 && r->loads[1].blocks > 0)
    p->tail_pct = sim_tail_pct(r);
  else
    p->tail_pct =
        p->full_waves >= 1 && p->partial_wave_blocks > 0 ? 100.0 / (p->full_waves + 1) : 0.0;
}

void profile_metrics_compute(const SmModel *m, const Kernel *k, const SimResult *r,
                             ProfileMetrics *out) {
  memset(out, 0, sizeof *out);
  out->throughput = profile_metrics_throughput(k, r, &out->metric, &out->metric_unit);
  speed_of_light(out, m, k, r);
  scheduler_stats(out, m, r);
  warp_states(out, r);
  occupancy_stats(out, m, k, r);
  launch_stats(out, m, k, r);
}
