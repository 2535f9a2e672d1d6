/* occupancy.c - theoretical occupancy: the four block limits of one SM.
 *
 * The arithmetic follows NVIDIA's occupancy calculator (cuda_occupancy.h,
 * which cudaOccupancyMaxActiveBlocksPerMultiprocessor implements); it
 * reproduces every answer of a real H200 (tests/data/h200/occ_api.csv).
 */
#include "occupancy.h"

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
#define REASON_SMEM_SM "shared memory: the block needs more than the SM's largest carveout"
#define REASON_FEW_BLOCKS "warps, registers or the block cap allow fewer resident blocks than asked"
#define REASON_STATIC_SHARE                                                                        \
  "shared memory: the static part and the per-block reserve alone exceed each block's share"

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

gboolean occupancy_check_launch(const SmLimits *sm, const OccLaunch *launch, GError **error) {
  g_return_val_if_fail(sm != NULL && launch != NULL && limits_sane(sm), FALSE);
  if (launch->threads == 0 || launch->threads > sm->max_threads_per_block) {
    g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                "threads %u is out of range (allowed 1..%u)", launch->threads,
                sm->max_threads_per_block);
    return FALSE;
  }
  if (launch->regs == 0 || launch->regs > sm->max_regs_per_thread) {
    g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                "regs %u is out of range (allowed 1..%u)", launch->regs, sm->max_regs_per_thread);
    return FALSE;
  }
  if ((guint64)launch->smem_static + launch->smem_dynamic > G_MAXUINT) {
    g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                "smem-static + smem-dynamic %" G_GUINT64_FORMAT
                " is out of range (allowed 0..%u bytes)",
                (guint64)launch->smem_static + launch->smem_dynamic, G_MAXUINT);
    return FALSE;
  }
  if (launch->carveout_pct < -1 || launch->carveout_pct > 100) {
    g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                "carveout %d is out of range (allowed -1..100 percent, -1 = no preference)",
                launch->carveout_pct);
    return FALSE;
  }
  return TRUE;
}

/* The smallest supported configuration >= `bytes`; smem_per_sm when none is. */
static guint config_at_least(const SmLimits *sm, guint64 bytes) {
  for (guint i = 0; i < sm->n_smem_configs && i < MODEL_MAX_SMEM_CONFIGS; i++) {
    if (sm->smem_configs[i] >= bytes)
      return sm->smem_configs[i];
  }
  return sm->smem_per_sm;
}

guint occupancy_carveout_config(const SmLimits *sm, gint carveout_pct) {
  g_return_val_if_fail(sm != NULL && carveout_pct >= -1 && carveout_pct <= 100, 0);
  if (carveout_pct < 0)
    return config_at_least(sm, sm->smem_per_sm);
  return config_at_least(sm, (guint64)carveout_pct * sm->smem_per_sm / 100);
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
  if (alloc == 0)
    return sm->max_blocks;
  /* The preference holds as long as one block fits in it; otherwise the
   * driver picks the smallest configuration that holds the block. */
  guint config = preference >= alloc ? preference : config_at_least(sm, alloc);
  out->smem_config = config;
  return (guint)(config / alloc);
}

static const gchar *impossible_reason(const SmLimits *sm, const OccLaunch *l, const OccResult *r) {
  if (r->limit[OCC_LIMIT_WARPS] == 0)
    return REASON_WARPS;
  if (r->limit[OCC_LIMIT_REGISTERS] == 0)
    return REASON_REGS;
  guint64 requested = (guint64)l->smem_static + l->smem_dynamic;
  if (requested > r->smem_block_max || r->smem_per_block > r->smem_block_max + sm->smem_reserved) {
    gboolean optin_helps = !l->optin && requested <= sm->smem_per_block_optin &&
                           sm->smem_per_block_optin > sm->smem_per_block;
    return optin_helps ? REASON_SMEM_OPTIN : REASON_SMEM;
  }
  return REASON_SMEM_SM;
}

gboolean occupancy_compute(const SmLimits *sm, const OccLaunch *launch, OccResult *out,
                           GError **error) {
  g_return_val_if_fail(out != NULL, FALSE);
  if (!occupancy_check_launch(sm, launch, error))
    return FALSE;
  memset(out, 0, sizeof *out);
  gboolean smem_used = FALSE;
  guint wpb = (launch->threads + sm->warp_size - 1) / sm->warp_size;
  out->warps_per_block = wpb;
  out->limit[OCC_LIMIT_BLOCKS] = sm->max_blocks;
  out->limit[OCC_LIMIT_WARPS] = sm->max_warps / wpb;
  out->limit[OCC_LIMIT_REGISTERS] = registers_limit(sm, launch->regs, wpb, out);
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
  out->reason = blocks == 0 ? impossible_reason(sm, launch, out) : NULL;
  return TRUE;
}

gboolean occupancy_best_block_size(const SmLimits *sm, const OccLaunch *launch, guint *threads,
                                   OccResult *out, GError **error) {
  g_return_val_if_fail(sm != NULL && launch != NULL && threads != NULL && out != NULL, FALSE);
  OccLaunch l = *launch;
  OccResult r;
  guint best_warps = 0;
  guint ws = sm->warp_size > 0 ? sm->warp_size : 1;
  guint top = (guint)round_up(sm->max_threads_per_block, ws);

  *threads = 0;
  for (guint t = top; t > 0; t -= ws) {
    l.threads = MIN(t, sm->max_threads_per_block);
    if (!occupancy_compute(sm, &l, &r, error))
      return FALSE;
    if (r.warps_per_sm > best_warps) { /* strictly better: ties keep the larger block */
      best_warps = r.warps_per_sm;
      *threads = l.threads;
      *out = r;
    }
    if (best_warps == sm->max_warps)
      break;
  }
  if (*threads == 0) {
    l.threads = ws;
    return occupancy_compute(sm, &l, out, error);
  }
  return TRUE;
}

gboolean occupancy_smem_for_blocks(const SmLimits *sm, const OccLaunch *launch, guint n_blocks,
                                   guint *bytes, const gchar **reason, GError **error) {
  g_return_val_if_fail(bytes != NULL && reason != NULL, FALSE);
  OccLaunch l = *launch;
  OccResult r;
  l.smem_dynamic = 0;
  *bytes = 0;
  *reason = NULL;
  if (!occupancy_compute(sm, &l, &r, error))
    return FALSE;
  if (n_blocks == 0 || n_blocks > sm->max_blocks) {
    g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE,
                "blocks %u is out of range (allowed 1..%u)", n_blocks, sm->max_blocks);
    return FALSE;
  }
  guint others =
      MIN(r.limit[OCC_LIMIT_BLOCKS], MIN(r.limit[OCC_LIMIT_WARPS], r.limit[OCC_LIMIT_REGISTERS]));
  if (others < n_blocks) {
    *reason = REASON_FEW_BLOCKS;
    return TRUE;
  }
  /* One block may use the largest configuration; several share the
   * preferred one (a preference of 0 bytes means the smallest non-zero). */
  guint config = sm->smem_per_sm;
  if (n_blocks > 1) {
    config = occupancy_carveout_config(sm, l.carveout_pct);
    if (config == 0)
      config = config_at_least(sm, 1);
  }
  guint64 share = (guint64)config / n_blocks / sm->smem_alloc_unit * sm->smem_alloc_unit;
  if (share < (guint64)sm->smem_reserved + l.smem_static) {
    *reason = REASON_STATIC_SHARE;
    return TRUE;
  }
  guint64 avail = MIN(share - sm->smem_reserved, (guint64)r.smem_block_max);
  if (avail < l.smem_static) {
    *reason = REASON_SMEM;
    return TRUE;
  }
  *bytes = (guint)(avail - l.smem_static);
  return TRUE;
}

void occupancy_waves(const SmLimits *sm, guint blocks_per_sm, guint64 grid, OccWaves *out) {
  g_return_if_fail(sm != NULL && out != NULL);
  memset(out, 0, sizeof *out);
  if (grid == 0 || blocks_per_sm == 0 || sm->sms == 0)
    return;
  out->wave_blocks = (guint64)blocks_per_sm * sm->sms;
  out->waves_per_sm = (gdouble)grid / (gdouble)out->wave_blocks;
  out->waves = (grid + out->wave_blocks - 1) / out->wave_blocks;
  out->last_wave_blocks = grid - (out->waves - 1) * out->wave_blocks;
  out->last_wave_sms = (guint)((out->last_wave_blocks + blocks_per_sm - 1) / blocks_per_sm);
  out->sm_time_used_pct = 100.0 * (gdouble)grid / (gdouble)(out->waves * out->wave_blocks);
}

/* Evaluate `base` with the varied quantity set to `value` and append it. */
static void vary_append(GArray *points, const SmLimits *sm, const OccLaunch *base, OccVary what,
                        guint value, gboolean current) {
  OccPoint p = {.value = value, .current = current, .launch = *base};
  if (what == OCC_VARY_REGS)
    p.launch.regs = value;
  else if (what == OCC_VARY_THREADS)
    p.launch.threads = value;
  else
    p.launch.smem_dynamic = value - base->smem_static;
  /* Every value of the range is valid once the base launch is. */
  if (!occupancy_compute(sm, &p.launch, &p.result, NULL))
    g_return_if_reached();
  g_array_append_val(points, p);
}

/* The values lo, lo + step, ... up to hi, then hi itself, with `cur`
 * inserted in order when it is not among them. */
static GArray *vary_values(guint lo, guint hi, guint step, guint cur) {
  GArray *values = g_array_new(FALSE, FALSE, sizeof(guint));
  guint64 v = lo;
  for (; v <= hi; v += step) {
    guint u = (guint)v;
    g_array_append_val(values, u);
  }
  if (values->len == 0 || g_array_index(values, guint, values->len - 1) != hi)
    g_array_append_val(values, hi);
  guint i = 0;
  while (i < values->len && g_array_index(values, guint, i) < cur)
    i++;
  if (i == values->len || g_array_index(values, guint, i) != cur)
    g_array_insert_val(values, i, cur);
  return values;
}

GArray *occupancy_vary(const SmLimits *sm, const OccLaunch *launch, OccVary what, GError **error) {
  g_return_val_if_fail(what < OCC_VARY_MAX, NULL);
  OccResult r;
  if (!occupancy_compute(sm, launch, &r, error))
    return NULL;
  guint lo = 1, hi = sm->max_regs_per_thread, step = 1, cur = launch->regs;
  if (what == OCC_VARY_THREADS) {
    lo = step = sm->warp_size;
    hi = sm->max_threads_per_block;
    cur = launch->threads;
  } else if (what == OCC_VARY_SMEM) {
    /* Dynamic shared memory from 0 to the per-block maximum, in allocation
     * units, widened to keep at most OCC_VARY_MAX_POINTS points. */
    guint span =
        r.smem_block_max > launch->smem_static ? r.smem_block_max - launch->smem_static : 0;
    guint units = span / sm->smem_alloc_unit;
    guint per_step = (units + OCC_VARY_MAX_POINTS - 2) / (OCC_VARY_MAX_POINTS - 1);
    step = sm->smem_alloc_unit * MAX(per_step, 1u);
    lo = launch->smem_static;
    hi = launch->smem_static + span;
    cur = launch->smem_static + launch->smem_dynamic;
  }
  g_autoptr(GArray) values = vary_values(lo, hi, step, cur);
  GArray *points = g_array_sized_new(FALSE, TRUE, sizeof(OccPoint), values->len);
  for (guint i = 0; i < values->len; i++) {
    guint v = g_array_index(values, guint, i);
    vary_append(points, sm, launch, what, v, v == cur);
  }
  return points;
}
