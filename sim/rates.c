/* rates.c - the Little's-law bounds and the rates derived from a result. */
#include "sim.h"

void sim_little_bound(const SmModel *m, const Kernel *k, const SimResult *r, gdouble *fma,
                      gdouble *bytes) {
  *fma = 0.0;
  *bytes = 0.0;
  if (k->fma > 0)
    *fma = MIN((gdouble)m->sm.smsps / m->fma.interval,
               (gdouble)r->warps_per_sm * MIN(k->ilp, k->fma) / m->fma.latency);
  if (k->loads > 0) {
    const MemLevelModel *l = model_mem_level(m, k->level);
    guint latency = model_level_latency(l, k->pattern == KERNEL_PATTERN_STREAM);
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

gdouble sim_achieved_occupancy_pct(const SimResult *r, const SmModel *m) {
  return 100.0 * sim_per_cycle(r, r->st.active_warp_cycles) / m->sm.max_warps;
}

gdouble sim_avg_load_latency(const SimResult *r) {
  return r->st.loads ? (gdouble)r->st.load_latency_sum / (gdouble)r->st.loads : 0.0;
}
