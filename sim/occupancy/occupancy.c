/* occupancy.c - theoretical occupancy: the four block limits of one SM.
 *
 * The arithmetic follows NVIDIA's occupancy calculator (cuda_occupancy.h,
 * which cudaOccupancyMaxActiveBlocksPerMultiprocessor implements); it
 * reproduces every answer of a real H200 (tests/data/h200/occ_api.csv).
 */
#include "occupancy/occupancy.h"

#include <stdarg.h>
#include <string.h>

G_DEFINE_QUARK(warpsim_occupancy_error, occupancy_error)

static const gchar *const limiter_names[OCC_LIMIT_MAX] = {"blocks", "warps", "registers",
                                                          "shared_mem"};
static const gchar *const vary_names[OCC_VARY_MAX] = {"regs", "threads", "smem"};

#define REASON_WARPS "warps: the block has more warps than an SM holds"
#define REASON_REGS                                                                                \
  "registers: the block needs more registers than one block may have (fewer threads or "           \
  "registers per thread would launch)"
#define REASON_SMEM_OPTIN                                                                          \
  "shared memory: the block needs more than the default per-block maximum (opting in "             \
  "raises it)"
#define REASON_SMEM "shared memory: the block needs more than the per-block maximum"
#define REASON_SMEM_STATIC                                                                         \
  "shared memory: the static part is above the default per-block maximum (only dynamic shared "    \
  "memory can opt in above it)"
#define REASON_SMEM_SM "shared memory: the block needs more than the SM's largest carveout"
#define REASON_BOUNDS                                                                              \
  "launch bounds: the block has more threads than __launch_bounds__ maxThreads (the runtime "      \
  "refuses the launch)"
static guint64 round_up(guint64 x, guint64 unit) {
  return (x + unit - 1) / unit * unit;
}

void occupancy_launch_init(OccLaunch *launch) {
  g_return_if_fail(launch != NULL);
  memset(launch, 0, sizeof *launch);
  launch->carveout_pct = -1;
}

const gchar *occupancy_limiter_name(OccLimiter l) {
  g_return_val_if_fail(l < OCC_LIMIT_MAX, "?");
  return limiter_names[l];
}

void occupancy_limiters_append(GString *out, guint mask, const gchar *sep) {
  gboolean first = TRUE;
  for (guint i = 0; i < OCC_LIMIT_MAX; i++) {
    if ((mask & (1u << i)) == 0)
      continue;
    if (!first)
      g_string_append(out, sep);
    g_string_append(out, limiter_names[i]);
    first = FALSE;
  }
}

const gchar *occupancy_vary_name(OccVary what) {
  g_return_val_if_fail(what < OCC_VARY_MAX, "?");
  return vary_names[what];
}

OccVary occupancy_vary_from_name(const gchar *name) {
  for (guint i = 0; i < OCC_VARY_MAX; i++) {
    if (g_strcmp0(name, vary_names[i]) == 0)
      return (OccVary)i;
  }
  return OCC_VARY_MAX;
}

/* The model fields every division below relies on. */
static gboolean limits_sane(const SmLimits *sm) {
  return sm->warp_size > 0 && sm->smsps > 0 && sm->max_warps > 0 && sm->reg_alloc_unit > 0 &&
         sm->smem_alloc_unit > 0 && sm->regs >= sm->smsps;
}

static gboolean range_error(GError **error, const gchar *what, guint64 value, guint64 lo,
                            guint64 hi, const gchar *unit) {
  g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
              "%s %" G_GUINT64_FORMAT " is out of range (allowed %" G_GUINT64_FORMAT
              "..%" G_GUINT64_FORMAT "%s)",
              what, value, lo, hi, unit);
  return FALSE;
}

/* The block shape, size and preference fields. */
static gboolean check_shape(const SmLimits *sm, const OccLaunch *l, GError **error) {
  guint64 smem = (guint64)l->smem_static + l->smem_dynamic;
  guint regs_lo = l->n_warpgroups > 0 ? 0 : 1;
  if (l->threads == 0 || l->threads > sm->max_threads_per_block)
    return range_error(error, "threads", l->threads, 1, sm->max_threads_per_block, "");
  if (l->regs < regs_lo || l->regs > sm->max_regs_per_thread)
    return range_error(error, "regs", l->regs, regs_lo, sm->max_regs_per_thread, "");
  if (smem > G_MAXUINT)
    return range_error(error, "smem-static + smem-dynamic", smem, 0, G_MAXUINT, " bytes");
  if (l->carveout_pct < -1 || l->carveout_pct > 100) {
    g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                "carveout %d is out of range (allowed -1..100 percent, -1 = no preference)",
                l->carveout_pct);
    return FALSE;
  }
  return TRUE;
}

static gboolean check_bounds(const SmLimits *sm, const OccBounds *b, GError **error) {
  if (b->max_threads > sm->max_threads_per_block)
    return range_error(error, "launch-bounds", b->max_threads, 1, sm->max_threads_per_block,
                       " threads");
  if (b->max_regs > sm->max_regs_per_thread)
    return range_error(error, "max-regs", b->max_regs, 1, sm->max_regs_per_thread, "");
  if (b->min_blocks > 0 && b->max_threads == 0) {
    g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_BOUNDS,
                "launch-bounds: MIN_BLOCKS %u needs maxThreads (allowed T[,MIN_BLOCKS] with T "
                "1..%u)",
                b->min_blocks, sm->max_threads_per_block);
    return FALSE;
  }
  return TRUE;
}

static gboolean warpgroup_error(GError **error, const gchar *format, ...) G_GNUC_PRINTF(2, 3);
static gboolean warpgroup_error(GError **error, const gchar *format, ...) {
  va_list ap;
  va_start(ap, format);
  g_autofree gchar *msg = g_strdup_vprintf(format, ap);
  va_end(ap);
  g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_WARPGROUP, "warpgroup-regs: %s", msg);
  return FALSE;
}

/* Warpgroup counts against the block and the launch count `regs`. */
static gboolean check_warpgroups(const OccLaunch *l, guint regs, GError **error) {
  guint n = l->n_warpgroups, sum = 0;
  if (n == 0)
    return TRUE;
  if (n > OCC_MAX_WARPGROUPS)
    return warpgroup_error(error, "%u warpgroups (allowed 1..%d)", n, OCC_MAX_WARPGROUPS);
  if (l->threads != n * OCC_WARPGROUP_THREADS)
    return warpgroup_error(error,
                           "%u warpgroups are %u threads, the block has %u (allowed threads = "
                           "%d x warpgroups)",
                           n, n * OCC_WARPGROUP_THREADS, l->threads, OCC_WARPGROUP_THREADS);
  for (guint i = 0; i < n; i++) {
    guint r = l->warpgroup_regs[i];
    if (r < 24 || r > 256 || r % 8 != 0)
      return warpgroup_error(error,
                             "warpgroup %u: %u registers per thread (allowed 24..256, a multiple "
                             "of 8, as setmaxnreg takes)",
                             i, r);
    sum += r;
  }
  if (sum > regs * n)
    return warpgroup_error(error,
                           "the warpgroups need %u registers per thread summed, the block holds "
                           "%u x %u = %u (allowed a sum <= %u: setmaxnreg would wait forever)",
                           sum, regs, n, regs * n, regs * n);
  return TRUE;
}

guint occupancy_launch_regs(const OccLaunch *launch) {
  guint sum = 0, n = MIN(launch->n_warpgroups, OCC_MAX_WARPGROUPS);
  if (launch->regs > 0 || n == 0)
    return launch->regs;
  for (guint i = 0; i < n; i++)
    sum += launch->warpgroup_regs[i];
  return (sum + n - 1) / n;
}

gboolean occupancy_check_launch(const SmLimits *sm, const OccLaunch *launch, GError **error) {
  g_return_val_if_fail(sm != NULL && launch != NULL && limits_sane(sm), FALSE);
  if (!check_shape(sm, launch, error) || !check_bounds(sm, &launch->bounds, error))
    return FALSE;
  guint regs = occupancy_launch_regs(launch);
  if (regs > sm->max_regs_per_thread)
    return warpgroup_error(error, "the launch count %u exceeds %u registers per thread", regs,
                           sm->max_regs_per_thread);
  return check_warpgroups(launch, regs, error);
}

guint occupancy_smem_config_at_least(const SmLimits *sm, guint64 bytes) {
  for (guint i = 0; i < sm->n_smem_configs && i < MODEL_MAX_SMEM_CONFIGS; i++) {
    if (sm->smem_configs[i] >= bytes)
      return sm->smem_configs[i];
  }
  return sm->smem_per_sm;
}

guint occupancy_carveout_config(const SmLimits *sm, gint carveout_pct) {
  g_return_val_if_fail(sm != NULL && carveout_pct >= -1 && carveout_pct <= 100, 0);
  if (carveout_pct < 0)
    return occupancy_smem_config_at_least(sm, sm->smem_per_sm);
  return occupancy_smem_config_at_least(sm, (guint64)carveout_pct * sm->smem_per_sm / 100);
}

/* SMSPs the per-block register check rounds the warps up to.  Pascal GP100
 * (cc 6.0) has 2 SMSPs, but the driver refuses any block that would not fit
 * a 4-SMSP Pascal SM, for compatibility within the family. */
static guint register_check_partitions(const SmLimits *sm) {
  if (sm->cc_major == 6 && sm->smsps < 4)
    return 4;
  return sm->smsps;
}

/* Block limit from the register file; sets out->regs_per_block. */
static guint registers_limit(const SmLimits *sm, guint regs, guint warps_per_block,
                             OccResult *out) {
  guint64 per_warp = round_up((guint64)regs * sm->warp_size, sm->reg_alloc_unit);
  guint64 per_block = per_warp * warps_per_block;
  guint64 checked = per_warp * round_up(warps_per_block, register_check_partitions(sm));
  out->regs_per_block = (guint)MIN(per_block, G_MAXUINT);
  out->regs_per_block_checked = (guint)MIN(checked, G_MAXUINT);
  if (per_block > sm->max_regs_per_block || checked > sm->max_regs_per_block)
    return 0;
  guint64 warps_per_smsp = (sm->regs / sm->smsps) / per_warp;
  return (guint)(warps_per_smsp * sm->smsps / warps_per_block);
}

/* Block limit from shared memory; sets the smem_* fields of `out` and
 * `*used` (FALSE when the block allocates no shared memory at all). */
static guint shared_mem_limit(const SmLimits *sm, const OccLaunch *l, OccResult *out,
                              gboolean *used) {
  guint64 requested = (guint64)l->smem_static + l->smem_dynamic;
  guint64 alloc = round_up(requested + sm->smem_reserved, sm->smem_alloc_unit);
  guint block_max =
      l->optin ? MAX(sm->smem_per_block_optin, sm->smem_per_block) : sm->smem_per_block;
  guint preference = occupancy_carveout_config(sm, l->carveout_pct);

  out->smem_block_max = block_max;
  out->smem_per_block = (guint)MIN(alloc, G_MAXUINT);
  out->smem_config = preference;
  *used = alloc > 0;
  if (requested > block_max || alloc > (guint64)block_max + sm->smem_reserved)
    return 0;
  /* Static shared memory stops at the default per-block maximum: only
   * dynamic shared memory can opt in above it (CUDA C++ Programming Guide,
   * "Shared Memory": allocations above 48 KB must be dynamic; ptxas refuses
   * more static shared memory). */
  if (l->smem_static > sm->smem_per_block)
    return 0;
  if (alloc == 0)
    return sm->max_blocks;
  /* The preference holds as long as one block fits in it; otherwise the
   * driver picks the smallest configuration that holds the block. */
  guint config = preference >= alloc ? preference : occupancy_smem_config_at_least(sm, alloc);
  out->smem_config = config;
  return (guint)(config / alloc);
}

static const gchar *impossible_reason(const SmLimits *sm, const OccLaunch *l, const OccResult *r) {
  if (r->limit[OCC_LIMIT_WARPS] == 0)
    return REASON_WARPS;
  if (r->limit[OCC_LIMIT_REGISTERS] == 0)
    return REASON_REGS;
  guint64 requested = (guint64)l->smem_static + l->smem_dynamic;
  if (l->smem_static > sm->smem_per_block)
    return REASON_SMEM_STATIC;
  if (requested > r->smem_block_max || r->smem_per_block > r->smem_block_max + sm->smem_reserved) {
    gboolean optin_helps = !l->optin && requested <= sm->smem_per_block_optin &&
                           sm->smem_per_block_optin > sm->smem_per_block;
    return optin_helps ? REASON_SMEM_OPTIN : REASON_SMEM;
  }
  return REASON_SMEM_SM;
}

gchar *occupancy_impossible_numbers(const SmLimits *sm, const OccLaunch *l, const OccResult *r) {
  g_return_val_if_fail(sm != NULL && l != NULL && r != NULL, NULL);
  if (l->bounds.max_threads > 0 && l->threads > l->bounds.max_threads)
    return g_strdup_printf("(%u threads per block; __launch_bounds__ maxThreads %u)", l->threads,
                           l->bounds.max_threads);
  if (r->limit[OCC_LIMIT_WARPS] == 0)
    return g_strdup_printf("(%u warps per block; an SM holds %u)", r->warps_per_block,
                           sm->max_warps);
  if (r->limit[OCC_LIMIT_REGISTERS] == 0)
    return g_strdup_printf("(%u registers per block: %u threads at %u registers per thread, "
                           "allocated per warp in units of %u registers, the warps rounded up "
                           "to a multiple of the %u SMSPs; a block may have %u)",
                           r->regs_per_block_checked, l->threads, r->regs_allocated,
                           sm->reg_alloc_unit, register_check_partitions(sm),
                           sm->max_regs_per_block);
  guint optin_max = MAX(sm->smem_per_block_optin, sm->smem_per_block);
  if (l->smem_static > sm->smem_per_block)
    return g_strdup_printf("(static %u B; a block may have 0..%u B static, any more as dynamic: "
                           "up to %u B in all with the opt-in)",
                           l->smem_static, sm->smem_per_block, optin_max);
  guint64 requested = (guint64)l->smem_static + l->smem_dynamic;
  GString *s = g_string_new(NULL);
  g_string_printf(s,
                  "(static %u B + dynamic %u B = %" G_GUINT64_FORMAT
                  " B, %u B allocated incl. the %u B reserve; a block may use 0..%u B",
                  l->smem_static, l->smem_dynamic, requested, r->smem_per_block, sm->smem_reserved,
                  r->smem_block_max);
  if (!l->optin && optin_max > r->smem_block_max)
    g_string_append_printf(s, ", 0..%u B with the opt-in", optin_max);
  g_string_append_c(s, ')');
  return g_string_free(s, FALSE);
}

/* The largest registers per thread whose per-warp allocation fits `budget`
 * registers (at least 1). */
static guint regs_fitting(const SmLimits *sm, guint64 budget) {
  guint64 allocated = budget / sm->reg_alloc_unit * sm->reg_alloc_unit;
  return (guint)CLAMP(allocated / sm->warp_size, 1, sm->max_regs_per_thread);
}

/* The register ceiling that keeps `blocks` blocks of `threads` threads
 * within the register file: registers are allocated per SMSP, so the warps
 * are counted per SMSP (ceil), and within the per-block maximum. */
static guint bounds_ceiling(const SmLimits *sm, guint threads, guint blocks) {
  guint wpb = (threads + sm->warp_size - 1) / sm->warp_size;
  guint64 per_smsp = ((guint64)blocks * wpb + sm->smsps - 1) / sm->smsps;
  guint64 budget = (sm->regs / sm->smsps) / per_smsp;
  guint64 block_budget = sm->max_regs_per_block / round_up(wpb, register_check_partitions(sm));
  return regs_fitting(sm, MIN(budget, block_budget));
}

/* TRUE when `blocks` blocks of `threads` threads can never be resident
 * (warps or the block cap, whatever the registers). */
static gboolean min_blocks_impossible(const SmLimits *sm, guint threads, guint blocks) {
  guint wpb = (threads + sm->warp_size - 1) / sm->warp_size;
  return blocks > sm->max_blocks || (guint64)blocks * wpb > sm->max_warps;
}

/* Sets out->regs_ceiling, regs_allocated, regs_spilled, min_blocks_dropped. */
static void apply_bounds(const SmLimits *sm, const OccLaunch *l, OccResult *out) {
  const OccBounds *b = &l->bounds;
  guint ceiling = sm->max_regs_per_thread, regs = occupancy_launch_regs(l);
  if (b->max_regs > 0)
    ceiling = MIN(ceiling, b->max_regs);
  if (b->max_threads > 0) {
    guint blocks = MAX(b->min_blocks, 1u);
    out->min_blocks_dropped = min_blocks_impossible(sm, b->max_threads, blocks);
    if (out->min_blocks_dropped) /* ptxas ignores an unreachable MIN_BLOCKS */
      blocks = 1;
    ceiling = MIN(ceiling, bounds_ceiling(sm, b->max_threads, blocks));
  }
  out->regs_ceiling = ceiling;
  out->regs_allocated = MIN(regs, ceiling);
  out->regs_spilled = regs - out->regs_allocated;
}

/* The limiters that keep fewer than MIN_BLOCKS blocks resident. */
static guint min_blocks_mask(const OccLaunch *l, const OccResult *r) {
  guint mask = 0;
  if (l->bounds.min_blocks == 0 || r->blocks_per_sm >= l->bounds.min_blocks)
    return 0;
  for (guint i = 0; i < OCC_LIMIT_MAX; i++)
    if (r->limit[i] < l->bounds.min_blocks)
      mask |= 1u << i;
  return mask;
}

gboolean occupancy_compute(const SmLimits *sm, const OccLaunch *launch, OccResult *out,
                           GError **error) {
  g_return_val_if_fail(out != NULL, FALSE);
  if (!occupancy_check_launch(sm, launch, error))
    return FALSE;
  memset(out, 0, sizeof *out);
  apply_bounds(sm, launch, out);
  /* The warpgroups share what the block gets: the count under the caps. */
  if (out->regs_spilled > 0 && !check_warpgroups(launch, out->regs_allocated, error))
    return FALSE;
  gboolean smem_used = FALSE;
  gboolean too_big = launch->bounds.max_threads > 0 && launch->threads > launch->bounds.max_threads;
  guint wpb = (launch->threads + sm->warp_size - 1) / sm->warp_size;
  out->warps_per_block = wpb;
  out->limit[OCC_LIMIT_BLOCKS] = sm->max_blocks;
  out->limit[OCC_LIMIT_WARPS] = too_big ? 0 : sm->max_warps / wpb;
  out->limit[OCC_LIMIT_REGISTERS] = registers_limit(sm, out->regs_allocated, wpb, out);
  out->limit[OCC_LIMIT_SHARED_MEM] = shared_mem_limit(sm, launch, out, &smem_used);

  guint blocks = out->limit[0];
  for (guint i = 1; i < OCC_LIMIT_MAX; i++)
    blocks = MIN(blocks, out->limit[i]);
  for (guint i = 0; i < OCC_LIMIT_MAX; i++) {
    if (out->limit[i] == blocks && (i != OCC_LIMIT_SHARED_MEM || smem_used))
      out->limiter_mask |= 1u << i;
  }
  out->blocks_per_sm = blocks;
  out->warps_per_sm = blocks * wpb;
  out->occupancy_pct = 100.0 * out->warps_per_sm / sm->max_warps;
  out->reason = blocks == 0 ? (too_big ? REASON_BOUNDS : impossible_reason(sm, launch, out)) : NULL;
  out->min_blocks_mask = min_blocks_mask(launch, out);
  return TRUE;
}

void occupancy_min_blocks_warning(const SmLimits *sm, const OccLaunch *launch, const OccResult *r,
                                  GString *out) {
  const OccBounds *b = &launch->bounds;
  guint wpb = (b->max_threads + sm->warp_size - 1) / sm->warp_size;
  if (b->min_blocks == 0)
    return;
  if (r->min_blocks_dropped) {
    if (b->min_blocks > sm->max_blocks)
      g_string_append_printf(out,
                             "MIN_BLOCKS %u cannot be met on this SM: at most %u blocks "
                             "are resident per SM",
                             b->min_blocks, sm->max_blocks);
    else
      g_string_append_printf(out,
                             "MIN_BLOCKS %u cannot be met on this SM: %u blocks x %u warps = %u "
                             "warps > %u warps per SM",
                             b->min_blocks, b->min_blocks, wpb, b->min_blocks * wpb, sm->max_warps);
    g_string_append_printf(out, "; ptxas ignores it and caps registers for 1 block (%u)",
                           r->regs_ceiling);
    return;
  }
  if (r->min_blocks_mask == 0)
    return;
  g_string_append_printf(out,
                         "MIN_BLOCKS %u is not met: %u blocks per SM at %u registers, held "
                         "back by ",
                         b->min_blocks, r->blocks_per_sm, r->regs_allocated);
  occupancy_limiters_append(out, r->min_blocks_mask, " and ");
}
