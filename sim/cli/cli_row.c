/* cli_row.c - the columns of `warpsim run`'s result row. */
#include "cli/cli_row.h"

#include "cli/cli.h"
#include "core/program.h"
#include "report/profile_metrics.h"
#include "run/launch.h"
#include "run/rates.h"

/* Everything a column reads. */
typedef struct {
  const SmModel *m;
  const Kernel *k;
  const SimResult *r;
  const SimStats *st;
  ProfileMetrics pm;
  gdouble bound_fma, bound_bytes; /* Little's-law bounds */
  const gchar *const *sets;
} Row;

typedef enum { COL_STR, COL_UINT, COL_DOUBLE, COL_BOOL } ColType;

typedef gchar *COL_STR_t; /* a new string */
typedef guint64 COL_UINT_t;
typedef gdouble COL_DOUBLE_t;
typedef gboolean COL_BOOL_t;

/* X(name, type, expression of `c`, decimals): the columns before the
 * stall_<state> columns, then those after them. */
#define HEAD_COLUMNS(X)                                                                            \
  X(model, COL_STR, g_strdup(c->m->name), 0)                                                       \
  X(kernel, COL_STR, g_strdup(c->k->name), 0)                                                      \
  X(policy, COL_STR, g_strdup(c->r->policy), 0)                                                    \
  X(ilp, COL_UINT, c->k->ilp, 0)                                                                   \
  X(threads_per_block, COL_UINT, c->k->threads_per_block, 0)                                       \
  X(regs_per_thread, COL_UINT, c->k->regs_per_thread, 0)                                           \
  X(regs_allocated, COL_UINT, c->r->regs_allocated, 0)                                             \
  X(blocks_per_sm, COL_UINT, c->r->blocks_per_sm, 0)                                               \
  X(warps_per_sm, COL_UINT, c->r->warps_per_sm, 0)                                                 \
  X(occupancy_pct, COL_DOUBLE, c->r->occupancy_pct, 3)                                             \
  X(achieved_occupancy_pct, COL_DOUBLE, sim_achieved_occupancy_pct(c->r, c->m), 3)                 \
  X(limiter, COL_STR, profile_metrics_limiter(&c->pm), 0)                                          \
  X(cycles, COL_UINT, c->st->cycles, 0)                                                            \
  X(ipc, COL_DOUBLE, sim_ipc(c->r), 4)                                                             \
  X(fma_per_cycle, COL_DOUBLE, sim_fma_per_cycle(c->r), 4)                                         \
  X(loads_per_cycle, COL_DOUBLE, sim_loads_per_cycle(c->r), 5)                                     \
  X(bytes_per_cycle, COL_DOUBLE, sim_bytes_per_cycle(c->r), 3)                                     \
  X(issue_active, COL_DOUBLE, sim_issue_active(c->r, c->m), 4)                                     \
  X(avg_load_latency, COL_DOUBLE, sim_avg_load_latency(c->r), 1)                                   \
  X(warp_insts, COL_UINT, c->st->issued, 0)                                                        \
  X(thread_insts, COL_UINT, c->st->thread_insts, 0)                                                \
  X(fma, COL_UINT, c->k->fma, 0)                                                                   \
  X(loads, COL_UINT, c->k->loads, 0)                                                               \
  /* global loads a warp keeps in flight: each of `loads` is its own chain */                      \
  X(loads_in_flight, COL_UINT, c->k->loads, 0)                                                     \
  X(load_pattern, COL_STR, g_strdup(kernel_pattern_name(c->k->pattern)), 0)                        \
  X(load_bytes, COL_UINT, c->k->load_bytes, 0)                                                     \
  X(level, COL_STR, g_strdup(kernel_level_name(c->k->level)), 0)                                   \
  X(fma_uses_load, COL_BOOL, c->k->fma_uses_load, 0)                                               \
  X(overhead, COL_UINT, c->k->overhead, 0)                                                         \
  X(iterations, COL_UINT, c->k->iterations, 0)                                                     \
  X(grid_blocks, COL_UINT, c->r->grid_blocks, 0)                                                   \
  X(waves_per_sm, COL_DOUBLE, c->r->waves_per_sm, 3)                                               \
  X(spill_values, COL_UINT, c->r->spill_values, 0)                                                 \
  X(spill_insts, COL_UINT, c->st->spill_insts, 0)                                                  \
  X(max_regs, COL_UINT, c->k->max_regs, 0)                                                         \
  X(live_values, COL_UINT, c->k->live_values, 0)                                                   \
  X(spill_l1_hit, COL_DOUBLE, c->r->spill_l1_hit, 4)                                               \
  X(bound_fma_per_cycle, COL_DOUBLE, c->bound_fma, 4)                                              \
  X(bound_bytes_per_cycle, COL_DOUBLE, c->bound_bytes, 3)                                          \
  X(seed, COL_UINT, c->k->seed, 0)

#define TAIL_COLUMNS(X)                                                                            \
  X(active_warps_per_scheduler, COL_DOUBLE, c->pm.active_warps, 4)                                 \
  X(eligible_warps_per_scheduler, COL_DOUBLE, c->pm.eligible_warps, 4)                             \
  X(issued_warps_per_scheduler, COL_DOUBLE, c->pm.issued_warps, 4)                                 \
  X(sm_throughput_pct, COL_DOUBLE, c->pm.sm_pct, 3)                                                \
  X(mem_throughput_pct, COL_DOUBLE, c->pm.mem_pct, 3)                                              \
  X(warp_cycles_per_issued, COL_DOUBLE, c->pm.total_cpi, 4)                                        \
  X(smem_static, COL_UINT, c->k->smem_static, 0)                                                   \
  X(smem_dynamic, COL_UINT, c->k->smem_dynamic, 0)                                                 \
  X(blocks, COL_UINT, c->k->blocks, 0)                                                             \
  X(sfu, COL_UINT, c->k->sfu, 0)                                                                   \
  X(lds, COL_UINT, c->k->lds, 0)                                                                   \
  X(lds_ways, COL_UINT, c->k->lds_ways, 0)                                                         \
  X(syncthreads, COL_BOOL, c->k->syncthreads, 0)                                                   \
  X(early_exit, COL_UINT, c->k->early_exit, 0)                                                     \
  X(mufu_per_cycle, COL_DOUBLE, sim_per_cycle(c->r, c->st->ops[OP_MUFU]), 4)                       \
  X(lds_per_cycle, COL_DOUBLE, sim_per_cycle(c->r, c->st->ops[OP_LDS]), 4)                         \
  X(sm_achieved_occupancy_pct, COL_DOUBLE, sim_sm_achieved_occupancy_pct(c->r, c->m), 3)           \
  X(one_or_more_eligible_pct, COL_DOUBLE, c->pm.one_or_more_eligible_pct, 3)                       \
  X(launch_bounds_threads, COL_UINT, c->k->bounds_threads, 0)                                      \
  X(launch_bounds_min_blocks, COL_UINT, c->k->bounds_min_blocks, 0)                                \
  X(regs_ceiling, COL_UINT, c->r->occ.regs_ceiling, 0)                                             \
  X(warpgroup_regs, COL_STR, warpgroup_regs(c->k), 0)                                              \
  X(launch_warning, COL_STR, launch_warning(c->m, c->k, c->r), 0)                                  \
  X(model_overrides, COL_STR, cli_model_overrides(c->sets), 0)                                     \
  X(load_l1_hit, COL_DOUBLE, c->r->load_l1_hit, 4)                                                 \
  X(load_l2_hit, COL_DOUBLE, c->r->load_l2_hit, 4)                                                 \
  X(l2_warm, COL_BOOL, c->k->l2_warm, 0)                                                           \
  X(lg_throttle_warp_dram_lines, COL_DOUBLE, c->pm.lg_warp_cpi, 4)                                 \
  X(dram_bytes_per_cycle, COL_DOUBLE, sim_per_cycle(c->r, c->r->st.level_bytes[MEM_DRAM]), 3)      \
  X(model_modified, COL_STR, model_modified_text(c->m, ";"), 0)

/* The per-warpgroup registers, ';'-separated (a new string). */
static gchar *warpgroup_regs(const Kernel *k) {
  GString *wg = g_string_new(NULL);
  for (guint i = 0; i < k->n_warpgroups; i++)
    g_string_append_printf(wg, "%s%u", i ? ";" : "", k->warpgroup_regs[i]);
  return g_string_free(wg, FALSE);
}

/* One getter per column: get_<name>. */
#define GETTER(name, type, expr, decimals)                                                         \
  static type##_t get_##name(const Row *c) {                                                       \
    return (type##_t)(expr);                                                                       \
  }
HEAD_COLUMNS(GETTER)
TAIL_COLUMNS(GETTER)
#undef GETTER

typedef struct {
  const gchar *name;
  ColType type;
  union {
    gchar *(*str)(const Row *c);
    guint64 (*uint)(const Row *c);
    gdouble (*dbl)(const Row *c);
    gboolean (*boolean)(const Row *c);
  } get;
  guint decimals; /* COL_DOUBLE: digits after the point */
} Column;

#define GET_COL_STR(name) .str = get_##name
#define GET_COL_UINT(name) .uint = get_##name
#define GET_COL_DOUBLE(name) .dbl = get_##name
#define GET_COL_BOOL(name) .boolean = get_##name
#define COLUMN(name, type, expr, decimals) {#name, type, {GET_##type(name)}, decimals},

static const Column head_columns[] = {HEAD_COLUMNS(COLUMN)};
static const Column tail_columns[] = {TAIL_COLUMNS(COLUMN)};

static void add_columns(ReportRow *row, const Column *cols, guint n, const Row *c) {
  for (guint i = 0; i < n; i++) {
    switch (cols[i].type) {
    case COL_STR: {
      g_autofree gchar *text = cols[i].get.str(c);
      report_add_str(row, cols[i].name, text);
      break;
    }
    case COL_UINT:
      report_add_uint(row, cols[i].name, cols[i].get.uint(c));
      break;
    case COL_DOUBLE:
      report_add_double(row, cols[i].name, cols[i].get.dbl(c), cols[i].decimals);
      break;
    case COL_BOOL:
      report_add_bool(row, cols[i].name, cols[i].get.boolean(c));
      break;
    }
  }
}

ReportRow *cli_result_row(const SmModel *m, const Kernel *k, const SimResult *r,
                          const gchar *const *sets) {
  Row c = {.m = m, .k = k, .r = r, .st = &r->st, .sets = sets};
  profile_metrics_compute(m, k, r, &c.pm);
  sim_little_bound(m, k, r, &c.bound_fma, &c.bound_bytes);
  ReportRow *row = report_row_new();
  add_columns(row, head_columns, G_N_ELEMENTS(head_columns), &c);
  for (guint s = 0; s < STALL_MAX; s++) { /* warp cycles per issued instruction */
    g_autofree gchar *name = g_strconcat("stall_", stall_name(s), NULL);
    report_add_double(row, name, r->st.issued ? (gdouble)r->st.state[s] / r->st.issued : 0.0, 4);
  }
  add_columns(row, tail_columns, G_N_ELEMENTS(tail_columns), &c);
  return row;
}
