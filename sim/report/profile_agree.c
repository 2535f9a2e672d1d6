/* profile_agree.c - the simulated profiled launch beside the profile. */
#include "report/profile_agree.h"

#include "report/json_text.h"

#include "core/sm.h"
#include "occupancy/occupancy.h"
#include "report/report.h"
#include "run/rates.h"
#include "sass/sassprog.h"

#include <math.h>
#include <string.h>

/* Each metric: its name as Nsight Compute prints it, JSON/CSV name, unit,
 * whether it is a percentage (the disagreement's 10-point floor), whether
 * it is compared (counted for the worst metric), decimals in text. */
static const struct {
  const gchar *name, *json, *unit;
  gboolean pct, compared;
  guint decimals;
} metrics[AGREE_METRIC_MAX] = {
    [AGREE_SM_ACTIVE_CYCLES] = {"SM Active Cycles", "sm_active_cycles", "cycle", FALSE, FALSE, 0},
    [AGREE_ELAPSED_CYCLES] = {"Elapsed Cycles", "elapsed_cycles", "cycle", FALSE, FALSE, 0},
    [AGREE_ISSUED_IPC] = {"Issued Ipc Active", "issued_ipc", "inst/cycle", FALSE, TRUE, 3},
    [AGREE_ISSUE_SLOTS] = {"Issue Slots Busy", "issue_slots_busy_pct", "%", TRUE, TRUE, 2},
    [AGREE_WARP_CPI] = {"Warp Cycles Per Issued Instruction", "warp_cycles_per_issued", "cycle",
                        FALSE, TRUE, 2},
    [AGREE_DRAM_PCT] = {"DRAM Throughput", "dram_throughput_pct", "%", TRUE, TRUE, 2},
    [AGREE_L2_PCT] = {"L2 Cache Throughput (model peak)", "l2_throughput_pct", "%", TRUE, FALSE, 2},
    [AGREE_L1_PCT] = {"L1/TEX Cache Throughput (model peak)", "l1_throughput_pct", "%", TRUE, FALSE,
                      2},
    [AGREE_L1_HIT] = {"L1/TEX Hit Rate (model input)", "l1_hit_pct", "%", TRUE, FALSE, 2},
    [AGREE_L2_HIT] = {"L2 Hit Rate (model input)", "l2_hit_pct", "%", TRUE, FALSE, 2},
    [AGREE_ACHIEVED_OCC] = {"Achieved Occupancy", "achieved_occupancy_pct", "%", TRUE, TRUE, 2},
};

/* warpsim's state for each Nsight Compute sample reason (STALL_MAX: one
 * warpsim does not model), and the names of the reasons warpsim lacks. */
static const struct {
  guint state;
  const gchar *name;
} reasons[NCU_STALL_MAX] = {
    [NCU_STALL_BARRIER] = {STALL_BARRIER, NULL},
    [NCU_STALL_BRANCH_RESOLVING] = {STALL_BRANCH_RESOLVING, NULL},
    [NCU_STALL_DISPATCH] = {STALL_DISPATCH_STALL, NULL},
    [NCU_STALL_DRAIN] = {STALL_DRAIN, NULL},
    [NCU_STALL_IMC] = {STALL_MAX, "imc_miss"},
    [NCU_STALL_LG] = {STALL_LG_THROTTLE, NULL},
    [NCU_STALL_LONG_SB] = {STALL_LONG_SCOREBOARD, NULL},
    [NCU_STALL_MATH] = {STALL_MATH_PIPE_THROTTLE, NULL},
    [NCU_STALL_MEMBAR] = {STALL_MAX, "membar"},
    [NCU_STALL_MIO] = {STALL_MIO_THROTTLE, NULL},
    [NCU_STALL_MISC] = {STALL_MAX, "misc"},
    [NCU_STALL_NO_INST] = {STALL_MAX, "no_instruction"},
    [NCU_STALL_NOT_SELECTED] = {STALL_NOT_SELECTED, NULL},
    [NCU_STALL_SELECTED] = {STALL_SELECTED, NULL},
    [NCU_STALL_SHORT_SB] = {STALL_SHORT_SCOREBOARD, NULL},
    [NCU_STALL_SLEEP] = {STALL_MAX, "sleeping"},
    [NCU_STALL_TEX] = {STALL_MAX, "tex_throttle"},
    [NCU_STALL_WAIT] = {STALL_WAIT, NULL},
};

static const gchar *reason_name(guint s) {
  return reasons[s].state < STALL_MAX ? stall_name(reasons[s].state) : reasons[s].name;
}

const gchar *profile_agree_name(gint i) {
  static const gchar *const states[NCU_STALL_MAX] = {
      [NCU_STALL_BARRIER] = "state:barrier",
      [NCU_STALL_BRANCH_RESOLVING] = "state:branch_resolving",
      [NCU_STALL_DISPATCH] = "state:dispatch_stall",
      [NCU_STALL_DRAIN] = "state:drain",
      [NCU_STALL_IMC] = "state:imc_miss",
      [NCU_STALL_LG] = "state:lg_throttle",
      [NCU_STALL_LONG_SB] = "state:long_scoreboard",
      [NCU_STALL_MATH] = "state:math_pipe_throttle",
      [NCU_STALL_MEMBAR] = "state:membar",
      [NCU_STALL_MIO] = "state:mio_throttle",
      [NCU_STALL_MISC] = "state:misc",
      [NCU_STALL_NO_INST] = "state:no_instruction",
      [NCU_STALL_NOT_SELECTED] = "state:not_selected",
      [NCU_STALL_SELECTED] = "state:selected",
      [NCU_STALL_SHORT_SB] = "state:short_scoreboard",
      [NCU_STALL_SLEEP] = "state:sleeping",
      [NCU_STALL_TEX] = "state:tex_throttle",
      [NCU_STALL_WAIT] = "state:wait",
  };
  if (i < 0)
    return "-";
  if (i < AGREE_METRIC_MAX)
    return metrics[i].json;
  return (guint)i - AGREE_METRIC_MAX < NCU_STALL_MAX ? states[i - AGREE_METRIC_MAX] : "?";
}

gboolean profile_agree_launch(const SmModel *m, const Kernel *k, Kernel *out) {
  const NcuDetails *d = k->sass ? k->sass->details : NULL;
  if (d == NULL)
    return FALSE;
  *out = *k;
  if (d->block_size > 0)
    out->threads_per_block = d->block_size;
  if (d->grid_size > 0)
    out->blocks = d->grid_size;
  if (d->regs > 0) /* unknown ('n/a'): the kernel's own count, from the listing */
    out->regs_per_thread = d->regs;
  if (!isnan(d->smem_static))
    out->smem_static = (guint)d->smem_static;
  if (!isnan(d->smem_dynamic))
    out->smem_dynamic = (guint)d->smem_dynamic;
  out->optin = out->smem_static + out->smem_dynamic > m->sm.smem_per_block;
  out->l2_warm = FALSE; /* Nsight Compute empties the caches before each replay pass */
  guint warps_per_block = (out->threads_per_block + m->sm.warp_size - 1) / m->sm.warp_size;
  out->blocks_per_sm = 0;
  if (!isnan(d->theoretical_warps) && d->theoretical_warps >= warps_per_block)
    out->blocks_per_sm = (guint)(d->theoretical_warps / warps_per_block + 0.5);
  return TRUE;
}

/* |s - p| / max(|s|, |p|, floor); NaN when either is unknown. */
static gdouble disagreement(gdouble s, gdouble p, gdouble floor) {
  if (isnan(s) || isnan(p))
    return NAN;
  gdouble scale = MAX(MAX(fabs(s), fabs(p)), floor);
  return scale > 0 ? fabs(s - p) / scale : 0.0;
}

/* The simulated metrics of `r` into a->simulated. */
static void simulated_metrics(const SmModel *m, const NcuDetails *d, const SimResult *r,
                              ProfileAgreement *a) {
  gdouble sm_cycles = 0.0; /* summed over the device's SMs (idle ones: 0) */
  for (guint i = 0; i < r->n_loads; i++)
    sm_cycles += (gdouble)r->loads[i].st.cycles * r->loads[i].sms;
  const SimStats *st = &r->st;
  gdouble l1 = (gdouble)st->level_bytes[MEM_L1], l2 = (gdouble)st->level_bytes[MEM_L2];
  gdouble dram = (gdouble)st->level_bytes[MEM_DRAM];
  guint64 warp_cycles = 0;
  for (guint s = 0; s < STALL_MAX; s++)
    warp_cycles += st->state[s];
  gdouble *v = a->simulated;
  v[AGREE_SM_ACTIVE_CYCLES] = sm_cycles / MAX(m->sm.sms, 1u);
  v[AGREE_ELAPSED_CYCLES] = (gdouble)st->cycles;
  v[AGREE_ISSUED_IPC] = sim_ipc(r);
  v[AGREE_ISSUE_SLOTS] = 100.0 * sim_issue_active(r, m);
  v[AGREE_WARP_CPI] = st->issued ? (gdouble)warp_cycles / st->issued : NAN;
  /* DRAM: the profile's own peak (its bytes per second over its %), at its clock */
  gdouble peak = d->dram_bytes_per_s / (d->dram_pct / 100.0);
  gdouble hz = (isnan(d->sm_ghz) ? m->clock_mhz / 1e3 : d->sm_ghz) * 1e9;
  v[AGREE_DRAM_PCT] =
      d->dram_pct > 0 && isfinite(peak)
          ? 100.0 * sim_per_cycle(r, st->level_bytes[MEM_DRAM]) * m->sm.sms * hz / peak
          : NAN;
  v[AGREE_L2_PCT] = m->l2.bytes_per_cycle > 0 && st->cycles
                        ? 100.0 * (l2 + dram) / st->cycles / m->l2.bytes_per_cycle
                        : NAN;
  v[AGREE_L1_PCT] = m->l1.bytes_per_cycle > 0 && st->cycles
                        ? 100.0 * (l1 + l2 + dram) / st->cycles / m->l1.bytes_per_cycle
                        : NAN;
  v[AGREE_L1_HIT] = l1 + l2 + dram > 0 ? 100.0 * l1 / (l1 + l2 + dram) : NAN;
  v[AGREE_L2_HIT] = l2 + dram > 0 ? 100.0 * l2 / (l2 + dram) : NAN;
  v[AGREE_ACHIEVED_OCC] = sim_achieved_occupancy_pct(r, m);
  for (guint s = 0; s < NCU_STALL_MAX; s++)
    a->state_simulated_pct[s] =
        reasons[s].state < STALL_MAX && warp_cycles
            ? 100.0 * (gdouble)st->state[reasons[s].state] / (gdouble)warp_cycles
            : 0.0;
  gdouble lsb = (gdouble)(st->state[STALL_LONG_SCOREBOARD] - st->lg_load_sm);
  gdouble lg = (gdouble)(st->state[STALL_LG_THROTTLE] + st->lg_load_sm);
  a->memory_wait_pct = warp_cycles ? 100.0 * lsb / (gdouble)warp_cycles +
                                         100.0 * lg / (gdouble)warp_cycles +
                                         a->state_simulated_pct[NCU_STALL_DRAIN]
                                   : 0.0;
}

/* The profile's Issued Ipc Active.  Nsight Compute prints it with two
 * decimals, so below 0.1 it holds under two significant digits (ghist's
 * 0.0026 is printed 0.00): there it is Issued Instructions / (SMs x SM
 * Active Cycles), the same ratio (sm__inst_issued summed over the SMs over
 * their active cycles summed), when the export has both. */
static gdouble profiled_issued_ipc(const SmModel *m, const NcuDetails *d) {
  if (d->issued_ipc < PROFILE_AGREE_IPC_PRINTED_MIN && isfinite(d->issued_insts) &&
      d->sm_active_cycles > 0 && m->sm.sms > 0)
    return d->issued_insts / ((gdouble)m->sm.sms * d->sm_active_cycles);
  return d->issued_ipc;
}

static void profiled_metrics(const SmModel *m, const SassKernel *sk, ProfileAgreement *a) {
  const NcuDetails *d = sk->details;
  gdouble *v = a->profiled;
  v[AGREE_SM_ACTIVE_CYCLES] = d->sm_active_cycles;
  v[AGREE_ELAPSED_CYCLES] = d->elapsed_cycles;
  v[AGREE_ISSUED_IPC] = profiled_issued_ipc(m, d);
  v[AGREE_ISSUE_SLOTS] = d->issue_slots_pct;
  v[AGREE_WARP_CPI] = d->warp_cpi;
  v[AGREE_DRAM_PCT] = d->dram_pct;
  v[AGREE_L2_PCT] = d->l2_pct;
  v[AGREE_L1_PCT] = d->l1_pct;
  v[AGREE_L1_HIT] = d->l1_hit_pct;
  v[AGREE_L2_HIT] = d->l2_hit_pct;
  v[AGREE_ACHIEVED_OCC] = d->achieved_pct;
  guint64 total = 0;
  for (guint s = 0; sk->source && s < NCU_STALL_MAX; s++)
    total += sk->source->samples[s];
  for (guint s = 0; s < NCU_STALL_MAX; s++)
    a->state_profiled_pct[s] =
        total ? 100.0 * (gdouble)sk->source->samples[s] / (gdouble)total : NAN;
}

void profile_agree_compare(const SmModel *m, const Kernel *k, const SimResult *r,
                           ProfileAgreement *out) {
  memset(out, 0, sizeof *out);
  out->worst = -1;
  Kernel pk;
  if (!profile_agree_launch(m, k, &pk))
    return;
  out->present = TRUE;
  out->threads_per_block = pk.threads_per_block;
  out->grid_blocks = pk.blocks;
  out->regs_per_thread = pk.regs_per_thread;
  out->smem_static = pk.smem_static;
  out->smem_dynamic = pk.smem_dynamic;
  out->blocks_per_sm = r->blocks_per_sm;
  profiled_metrics(m, k->sass, out);
  simulated_metrics(m, k->sass->details, r, out);
  const SimStats *st = &r->st;
  gdouble red = (gdouble)st->atomic_bytes / m->sector_bytes;
  gdouble ret = (gdouble)st->atomic_return_bytes / m->sector_bytes;
  gdouble cas = (gdouble)st->atomic_cas_bytes / m->sector_bytes;
  out->atomic_sectors = red + ret + cas;
  if (m->atomic_sectors_per_cycle > 0)
    out->atomic_busy_cycles =
        red / sm_atomic_rate(m, 1) + ret / sm_atomic_rate(m, 2) + cas / sm_atomic_rate(m, 3);
  out->atomic_sm_cycles = (gdouble)st->cycles;
  out->cycles_ratio =
      out->profiled[AGREE_SM_ACTIVE_CYCLES] > 0
          ? out->simulated[AGREE_SM_ACTIVE_CYCLES] / out->profiled[AGREE_SM_ACTIVE_CYCLES]
          : NAN;
  out->warn =
      isfinite(out->cycles_ratio) && fabs(out->cycles_ratio - 1.0) > PROFILE_AGREE_WARN_SHARE;
  for (gint i = 0; i < AGREE_METRIC_MAX + NCU_STALL_MAX; i++) {
    gdouble dis;
    if (i < AGREE_METRIC_MAX)
      dis = metrics[i].compared
                ? disagreement(out->simulated[i], out->profiled[i], metrics[i].pct ? 10.0 : 0.0)
                : NAN;
    else
      dis = disagreement(out->state_simulated_pct[i - AGREE_METRIC_MAX],
                         out->state_profiled_pct[i - AGREE_METRIC_MAX], 10.0);
    if (!isnan(dis) && (out->worst < 0 || dis > out->worst_disagreement)) {
      out->worst = i;
      out->worst_disagreement = dis;
    }
  }
}

/* The launches of `k` and of `pk` are the same one (r: k's run). */
static gboolean same_launch(const Kernel *k, const Kernel *pk, const SimResult *r) {
  return k->threads_per_block == pk->threads_per_block && r->grid_blocks == pk->blocks &&
         k->regs_per_thread == pk->regs_per_thread && k->smem_static == pk->smem_static &&
         k->smem_dynamic == pk->smem_dynamic && k->max_regs == pk->max_regs &&
         k->l2_warm == pk->l2_warm &&
         (pk->blocks_per_sm == 0 || r->blocks_per_sm == pk->blocks_per_sm) &&
         (k->blocks_per_sm == 0 || k->blocks_per_sm == r->blocks_per_sm);
}

struct ProfileAgreeMemo {
  GHashTable *runs; /* GBytes key (memo_key) -> SimResult, both owned */
};

ProfileAgreeMemo *profile_agree_memo_new(void) {
  ProfileAgreeMemo *memo = g_new0(ProfileAgreeMemo, 1);
  memo->runs =
      g_hash_table_new_full(g_bytes_hash, g_bytes_equal, (GDestroyNotify)g_bytes_unref, g_free);
  return memo;
}

void profile_agree_memo_free(ProfileAgreeMemo *memo) {
  if (memo == NULL)
    return;
  g_hash_table_destroy(memo->runs);
  g_free(memo);
}

/* A string and its NUL (NULL: a lone 0xff) appended to `key`. */
static void key_string(GByteArray *key, const gchar *s) {
  static const guint8 none = 0xff;
  if (s == NULL)
    g_byte_array_append(key, &none, 1);
  else
    g_byte_array_append(key, (const guint8 *)s, (guint)strlen(s) + 1);
}

/* Everything sim_run reads of `m`, `pk` and `opt` but the loaded program
 * (see ProfileAgreeMemo): the model's bytes, the kernel's values from
 * threads_per_block to footprint and its trip counts and footprints (all
 * guint or gboolean: no padding), its names, and the options but the
 * deadline (a bound on time, not an input). */
static GBytes *memo_key(const SmModel *m, const Kernel *pk, const SimOptions *opt) {
  GByteArray *key = g_byte_array_new();
  g_byte_array_append(key, (const guint8 *)m, sizeof *m);
  gsize from = G_STRUCT_OFFSET(Kernel, threads_per_block);
  gsize to = G_STRUCT_OFFSET(Kernel, footprint) + sizeof pk->footprint;
  g_byte_array_append(key, (const guint8 *)pk + from, (guint)(to - from));
  from = G_STRUCT_OFFSET(Kernel, n_trip_counts);
  to = G_STRUCT_OFFSET(Kernel, footprint_l2) + sizeof pk->footprint_l2;
  g_byte_array_append(key, (const guint8 *)pk + from, (guint)(to - from));
  const gchar *names[] = {
      pk->name,        pk->file,         pk->sass_file,       pk->sass_function,
      pk->sass_source, pk->sass_details, pk->sass_details_id, opt ? opt->policy : NULL};
  for (guint i = 0; i < G_N_ELEMENTS(names); i++)
    key_string(key, names[i]);
  if (opt != NULL) {
    g_byte_array_append(key, (const guint8 *)&opt->check_invariants, sizeof opt->check_invariants);
    g_byte_array_append(key, (const guint8 *)&opt->max_cycles, sizeof opt->max_cycles);
    g_byte_array_append(key, (const guint8 *)&opt->time_factor, sizeof opt->time_factor);
  }
  return g_byte_array_free_to_bytes(key);
}

const SimResult *profile_agree_memo_lookup(ProfileAgreeMemo *memo, const SmModel *m,
                                           const Kernel *k, const SimOptions *opt) {
  g_autoptr(GBytes) key = memo_key(m, k, opt);
  return g_hash_table_lookup(memo->runs, key);
}

/* The run of `pk` on `m` with `opt`: the one `memo` holds, or simulated
 * (and then kept in `memo`, or in *own, which the caller frees, when
 * `memo` is NULL); NULL with sim_run's error. */
static const SimResult *memo_run(const SmModel *m, const Kernel *pk, const SimOptions *opt,
                                 ProfileAgreeMemo *memo, SimResult **own, GError **error) {
  const SimResult *known = memo != NULL ? profile_agree_memo_lookup(memo, m, pk, opt) : NULL;
  if (known != NULL)
    return known;
  g_autofree SimResult *r = g_new0(SimResult, 1);
  if (!sim_run(m, pk, opt, r, error))
    return NULL;
  if (memo == NULL)
    return *own = g_steal_pointer(&r);
  known = r;
  g_hash_table_insert(memo->runs, memo_key(m, pk, opt), g_steal_pointer(&r));
  return known;
}

gboolean profile_agree(const SmModel *m, const Kernel *k, const SimOptions *opt,
                       const SimResult *same, ProfileAgreeMemo *memo, ProfileAgreement *out,
                       GError **error) {
  g_autofree SimResult *own = NULL;
  Kernel pk;
  if (!profile_agree_launch(m, k, &pk)) {
    profile_agree_compare(m, k, same, out); /* not present */
    return TRUE;
  }
  if (same != NULL && same_launch(k, &pk, same)) {
    profile_agree_compare(m, k, same, out);
    return TRUE;
  }
  const SimResult *r = memo_run(m, &pk, opt, memo, &own, error);
  if (r == NULL)
    return FALSE;
  profile_agree_compare(m, k, r, out);
  return TRUE;
}

gboolean profile_agree_cycles_at(const SmModel *m, const Kernel *k, const SimOptions *opt,
                                 const ProfileAgreement *a, guint blocks_per_sm,
                                 ProfileAgreeMemo *memo, gdouble *cycles, GError **error) {
  g_autofree SimResult *own = NULL;
  *cycles = NAN;
  Kernel pk;
  if (!a->present || a->blocks_per_sm == 0 || blocks_per_sm == 0 ||
      !profile_agree_launch(m, k, &pk))
    return TRUE;
  pk.blocks = MAX(1u, (guint)((guint64)a->grid_blocks * blocks_per_sm / a->blocks_per_sm));
  pk.blocks_per_sm = blocks_per_sm;
  pk.l2_warm = k->l2_warm; /* as the curve's launches run, not cold as profiled */
  OccLaunch launch;
  kernel_occ_launch(&pk, &launch);
  guint bytes = 0;
  const gchar *reason = NULL;
  if (!occupancy_smem_for_blocks(&m->sm, &launch, blocks_per_sm, &bytes, &reason, NULL) ||
      reason != NULL)
    return TRUE; /* that many cannot reside */
  pk.smem_dynamic = MIN(pk.smem_dynamic, bytes);
  /* the opt-in as the curve's launches set it (validate_real.sh's points always do): it
   * only widens what a block may ask for, so the CTAs that reside and the cycles are the
   * same, and such a launch is the curve's own point, which run_one then takes from the
   * memo (doc/speed.md "Fifth pass") */
  pk.optin = k->optin || pk.smem_static + pk.smem_dynamic > m->sm.smem_per_block;
  const SimResult *r = memo_run(m, &pk, opt, memo, &own, error);
  if (r == NULL)
    return FALSE;
  if (r->blocks_per_sm != blocks_per_sm)
    return TRUE;
  ProfileAgreement at;
  profile_agree_compare(m, k, r, &at);
  *cycles = at.simulated[AGREE_SM_ACTIVE_CYCLES];
  return TRUE;
}

/* The decimals to print value v of metric i with: its own, or for a
 * fraction metric (not a percentage) below 0.1 as many as give three
 * significant digits (an issued IPC of 0.00258 is not "0.003"). */
static gint value_decimals(guint i, gdouble v) {
  gint dec = (gint)metrics[i].decimals;
  if (metrics[i].pct || dec == 0 || !isfinite(v) || v == 0 || fabs(v) >= 0.1)
    return dec;
  return MAX(dec, 2 - (gint)floor(log10(fabs(v))));
}

/* "simulated 42.1 %, profiled 65.9 %" of item i; a new string. */
static gchar *item_values(const ProfileAgreement *a, gint i) {
  if (i >= AGREE_METRIC_MAX)
    return g_strdup_printf("simulated %.1f %%, profiled %.1f %% of warp cycles",
                           a->state_simulated_pct[i - AGREE_METRIC_MAX],
                           a->state_profiled_pct[i - AGREE_METRIC_MAX]);
  return g_strdup_printf("simulated %.*f, profiled %.*f%s%s", value_decimals(i, a->simulated[i]),
                         a->simulated[i], value_decimals(i, a->profiled[i]), a->profiled[i],
                         *metrics[i].unit ? " " : "", metrics[i].unit);
}

gchar *profile_agree_warning(const ProfileAgreement *a, const gchar *kernel, gboolean anchored) {
  if (!a->present || !a->warn)
    return NULL;
  g_autofree gchar *worst = a->worst >= 0 ? item_values(a, a->worst) : g_strdup("-");
  const gchar *verdict =
      anchored ? "the pure model misses this kernel here, so the curve is anchored on the profile "
                 "(the report's \"anchor:\" lines; --no-anchor: the pure curve, not to be trusted)"
               : "do not trust this curve";
  return g_strdup_printf(
      "%s: at the profiled launch (%u CTAs/SM, grid %u) the simulation takes %.0f SM active "
      "cycles where the profile measured %.0f (x%.2f, more than %.0f %% off): %s; the metric "
      "that disagrees most is %s (%s; report section \"Agreement with the profile\")",
      kernel, a->blocks_per_sm, a->grid_blocks, a->simulated[AGREE_SM_ACTIVE_CYCLES],
      a->profiled[AGREE_SM_ACTIVE_CYCLES], a->cycles_ratio, 100.0 * PROFILE_AGREE_WARN_SHARE,
      verdict, profile_agree_name(a->worst), worst);
}

static gchar *cell(gdouble v, guint decimals) {
  return isnan(v) ? g_strdup("-") : report_format_double(v, decimals);
}

static gchar *ratio_cell(gdouble s, gdouble p) {
  return isnan(s) || isnan(p) || p == 0 ? g_strdup("-") : g_strdup_printf("%.3f", s / p);
}

/* The larger of a state's two shares (a missing profile share: 0). */
static gdouble state_top(const ProfileAgreement *a, guint s) {
  gdouble p = isnan(a->state_profiled_pct[s]) ? 0 : a->state_profiled_pct[s];
  return MAX(p, a->state_simulated_pct[s]);
}

/* The top warp states: at most six with 1 % or more either way, largest
 * share (profiled or simulated) first. */
static void top_states(const ProfileAgreement *a, guint *order, guint *n) {
  *n = 0;
  for (guint s = 0; s < NCU_STALL_MAX; s++)
    if (state_top(a, s) >= 1.0)
      order[(*n)++] = s;
  for (guint i = 1; i < *n; i++) /* insertion sort: stable, ties in column order */
    for (guint j = i; j > 0 && state_top(a, order[j]) > state_top(a, order[j - 1]); j--) {
      guint t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  *n = MIN(*n, 6u);
}

void profile_agree_append_text(const ProfileAgreement *a, GString *out) {
  g_string_append(out, "  Section: Agreement with the profile\n");
  if (!a->present) {
    g_string_append(out, "    no details export ([sass] details_csv): nothing to agree with\n\n");
    return;
  }
  g_string_append_printf(out,
                         "    the profiled launch simulated: %u threads/CTA, grid %u, %u "
                         "regs/thread, %u + %u B shared memory per CTA, %u CTAs/SM\n",
                         a->threads_per_block, a->grid_blocks, a->regs_per_thread, a->smem_static,
                         a->smem_dynamic, a->blocks_per_sm);
  static const gchar *const header[] = {"Metric Name", "Metric Unit", "Profiled", "Simulated",
                                        "Simulated/Profiled"};
  g_autoptr(ReportTable) t = report_table_new(G_N_ELEMENTS(header), header);
  for (guint i = 0; i < AGREE_METRIC_MAX; i++) {
    report_table_add(t, metrics[i].name);
    report_table_add(t, metrics[i].unit);
    report_table_take(t, cell(a->profiled[i], (guint)value_decimals(i, a->profiled[i])));
    report_table_take(t, cell(a->simulated[i], (guint)value_decimals(i, a->simulated[i])));
    report_table_take(t, ratio_cell(a->simulated[i], a->profiled[i]));
  }
  guint order[NCU_STALL_MAX], n;
  top_states(a, order, &n);
  for (guint i = 0; i < n; i++) {
    g_autofree gchar *name = g_strdup_printf("Warp State %s", reason_name(order[i]));
    report_table_add(t, name);
    report_table_add(t, "% of warp cycles");
    report_table_take(t, cell(a->state_profiled_pct[order[i]], 1));
    report_table_take(t, cell(a->state_simulated_pct[order[i]], 1));
    report_table_take(
        t, ratio_cell(a->state_simulated_pct[order[i]], a->state_profiled_pct[order[i]]));
  }
  report_table_write(t, out);
  g_autofree gchar *worst = a->worst >= 0 ? item_values(a, a->worst) : g_strdup("-");
  g_string_append_printf(out,
                         "    %s   cycles: simulated/profiled SM active cycles %.3f (%s %.0f %%); "
                         "disagrees most: %s (%s)\n\n",
                         a->warn ? "WRN" : "INF", a->cycles_ratio,
                         a->warn ? "off by more than" : "within", 100.0 * PROFILE_AGREE_WARN_SHARE,
                         profile_agree_name(a->worst), worst);
}

static void json_uint(JsonBuilder *b, const gchar *name, guint v) {
  json_builder_set_member_name(b, name);
  json_builder_add_int_value(b, v);
}

JsonNode *profile_agree_to_json(const ProfileAgreement *a) {
  g_autoptr(JsonBuilder) b = json_builder_new();
  json_builder_begin_object(b);
  json_text_member_bool(b, "present", a->present);
  if (a->present) {
    json_builder_set_member_name(b, "launch");
    json_builder_begin_object(b);
    json_uint(b, "threads_per_block", a->threads_per_block);
    json_uint(b, "grid_blocks", a->grid_blocks);
    json_uint(b, "regs_per_thread", a->regs_per_thread);
    json_uint(b, "smem_static", a->smem_static);
    json_uint(b, "smem_dynamic", a->smem_dynamic);
    json_uint(b, "blocks_per_sm", a->blocks_per_sm);
    json_builder_end_object(b);
    json_builder_set_member_name(b, "metrics");
    json_builder_begin_array(b);
    for (gint i = 0; i < AGREE_METRIC_MAX + NCU_STALL_MAX; i++) {
      gboolean state = i >= AGREE_METRIC_MAX;
      json_builder_begin_object(b);
      json_text_member_string(b, "name", profile_agree_name(i));
      json_text_member_double(b, "profiled",
                              state ? a->state_profiled_pct[i - AGREE_METRIC_MAX] : a->profiled[i]);
      json_text_member_double(
          b, "simulated", state ? a->state_simulated_pct[i - AGREE_METRIC_MAX] : a->simulated[i]);
      json_text_member_bool(b, "compared", state || metrics[i].compared);
      json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_text_member_double(b, "cycles_ratio", a->cycles_ratio);
    json_text_member_string(b, "worst_metric", profile_agree_name(a->worst));
    json_text_member_double(b, "worst_disagreement", a->worst >= 0 ? a->worst_disagreement : NAN);
    json_text_member_bool(b, "warning", a->warn);
  }
  json_builder_end_object(b);
  return json_builder_get_root(b);
}
