/* rates.c - the Little's-law bounds and the rates derived from a result. */
#include "run/rates.h"

#include <string.h>

void sim_little_bound(const SmModel *m, const Kernel *k, const SimResult *r, gdouble *fma,
                      gdouble *bytes) {
  *fma = 0.0;
  *bytes = 0.0;
  /* Independent FFMA chains per warp: the kernel's ilp chains plus one per
   * live value (an accumulator). */
  guint chains = (k->fma > 0 ? MIN(k->ilp, k->fma) : 0) + k->live_values;
  if (chains > 0)
    *fma = MIN((gdouble)m->sm.smsps / m->fma.interval,
               (gdouble)r->warps_per_sm * chains / m->fma.latency);
  if (k->loads > 0) {
    const MemLevelModel *l = model_mem_level(m, k->level);
    guint latency = model_level_latency(l, k->pattern == KERNEL_PATTERN_SEQUENTIAL);
    guint req = (k->load_bytes + m->sector_bytes - 1) / m->sector_bytes * m->sector_bytes;
    *bytes = MIN(l->bytes_per_cycle, (gdouble)r->warps_per_sm * k->loads * req / latency);
  }
}

gdouble sim_per_cycle(const SimResult *r, guint64 count) {
  return r->st.cycles ? (gdouble)count / (gdouble)r->st.cycles : 0.0;
}

gdouble sim_ipc(const SimResult *r) {
  return sim_per_cycle(r, r->st.issued);
}
gdouble sim_fma_per_cycle(const SimResult *r) {
  return sim_per_cycle(r, r->st.ffma);
}
gdouble sim_loads_per_cycle(const SimResult *r) {
  return sim_per_cycle(r, r->st.loads);
}
gdouble sim_bytes_per_cycle(const SimResult *r) {
  return sim_per_cycle(r, r->st.load_bytes);
}

gdouble sim_issue_active(const SimResult *r, const SmModel *m) {
  return sim_per_cycle(r, r->st.issue_cycles) / m->sm.smsps;
}

gdouble sim_sm_achieved_occupancy_pct(const SimResult *r, const SmModel *m) {
  return 100.0 * sim_per_cycle(r, r->st.active_warp_cycles) / m->sm.max_warps;
}

/* A counter summed over the device's SMs (each load's SM count times its
 * simulated SM's value); loads[0] may stand alone (n_loads 0: the SM of st). */
#define DEVICE_SUM(r, field, out)                                                                  \
  do {                                                                                             \
    (out) = (r)->n_loads ? 0.0 : (gdouble)(r)->st.field;                                           \
    for (guint i_ = 0; i_ < (r)->n_loads; i_++)                                                    \
      (out) += (gdouble)(r)->loads[i_].sms * (gdouble)(r)->loads[i_].st.field;                     \
  } while (0)

gdouble sim_achieved_occupancy_pct(const SimResult *r, const SmModel *m) {
  gdouble warps, cycles;
  DEVICE_SUM(r, active_warp_cycles, warps);
  DEVICE_SUM(r, cycles, cycles);
  return cycles > 0 ? 100.0 * warps / cycles / m->sm.max_warps : 0.0;
}

void sim_sched_stats(const SimResult *r, SimSchedStats *out) {
  gdouble active, warps, selected, not_selected, issued, ready, issue_cycles;
  DEVICE_SUM(r, smsp_active_cycles, active);
  DEVICE_SUM(r, active_warp_cycles, warps);
  DEVICE_SUM(r, state[STALL_SELECTED], selected);
  DEVICE_SUM(r, state[STALL_NOT_SELECTED], not_selected);
  DEVICE_SUM(r, issued, issued);
  DEVICE_SUM(r, ready_warp_cycles, ready);
  DEVICE_SUM(r, issue_cycles, issue_cycles);
  memset(out, 0, sizeof *out);
  if (active <= 0)
    return;
  out->active_warps = warps / active;
  out->eligible_warps = (selected + not_selected) / active;
  out->issued_warps = issued / active;
  out->ready_warps = ready / active;
  out->one_or_more_eligible_pct = 100.0 * issue_cycles / active;
}

gdouble sim_sm_time_used_pct(const SimResult *r, const SmModel *m) {
  gdouble busy;
  DEVICE_SUM(r, cycles, busy);
  return r->st.cycles ? 100.0 * busy / ((gdouble)m->sm.sms * (gdouble)r->st.cycles) : 0.0;
}

gdouble sim_tail_pct(const SimResult *r) {
  if (r->n_loads < 2 || r->loads[1].blocks == 0 || r->st.cycles == 0)
    return 0.0;
  gdouble longest = (gdouble)r->loads[0].st.cycles, shortest = (gdouble)r->loads[1].st.cycles;
  return longest > shortest ? 100.0 * (longest - shortest) / longest : 0.0;
}

gdouble sim_avg_load_latency(const SimResult *r) {
  return r->st.loads ? (gdouble)r->st.load_latency_sum / (gdouble)r->st.loads : 0.0;
}
