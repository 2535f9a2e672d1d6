/* occupancy_helpers.c - the occupancy calculator's helpers (occupancy.h):
 * the best block size, shared memory for n blocks, waves and placement of a
 * grid, and the what-if curves.  Built on occupancy_compute(). */
#include "occupancy/occupancy.h"

#include <string.h>

#define REASON_FEW_BLOCKS "warps, registers or the block cap allow fewer resident blocks than asked"
#define REASON_STATIC_SHARE                                                                        \
  "shared memory: the static part and the per-block reserve alone exceed each block's share"

#define REASON_SMEM "shared memory: the block needs more than the per-block maximum"

static guint64 round_up(guint64 x, guint64 unit) {
  return (x + unit - 1) / unit * unit;
}

guint occupancy_variable_smem(const OccLaunch *launch, guint threads) {
  guint64 bytes = (guint64)launch->smem_dynamic + (guint64)threads * launch->smem_per_thread;
  return (guint)MIN(bytes, (guint64)G_MAXUINT);
}

gboolean occupancy_best_block_size(const SmLimits *sm, const OccLaunch *launch, guint *threads,
                                   OccResult *out, GError **error) {
  g_return_val_if_fail(sm != NULL && launch != NULL && threads != NULL && out != NULL, FALSE);
  if (launch->n_warpgroups > 0) {
    g_set_error(error, OCCUPANCY_ERROR, OCCUPANCY_ERROR_WARPGROUP,
                "warpgroup-regs: the warpgroups fix the block at %u threads (allowed: a block "
                "size search without warpgroups)",
                launch->n_warpgroups * OCC_WARPGROUP_THREADS);
    return FALSE;
  }
  OccLaunch l = *launch;
  OccResult r;
  guint best_warps = 0;
  guint ws = sm->warp_size > 0 ? sm->warp_size : 1;
  guint top = (guint)round_up(sm->max_threads_per_block, ws);

  *threads = 0;
  for (guint t = top; t > 0; t -= ws) {
    l.threads = MIN(t, sm->max_threads_per_block);
    l.smem_dynamic = occupancy_variable_smem(launch, l.threads);
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
    l.smem_dynamic = occupancy_variable_smem(launch, l.threads);
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
      config = occupancy_smem_config_at_least(sm, 1);
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

guint occupancy_spread(guint64 blocks, guint sms, OccSmLoad out[2]) {
  guint n = 0;
  if (sms == 0)
    return 0;
  guint64 each = blocks / sms;
  guint more = (guint)(blocks % sms);
  if (more > 0)
    out[n++] = (OccSmLoad){.blocks = each + 1, .sms = more};
  if (more < sms)
    out[n++] = (OccSmLoad){.blocks = each, .sms = sms - more};
  return n;
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
  out->last_wave_sms = (guint)MIN(out->last_wave_blocks, (guint64)sm->sms);
  out->sm_time_used_pct = 100.0 * (gdouble)grid / (gdouble)(out->waves * out->wave_blocks);
  out->n_last_wave_hist = occupancy_spread(out->last_wave_blocks, sm->sms, out->last_wave_hist);
  out->n_sm_loads = occupancy_spread(grid, sm->sms, out->sm_loads);
}

gdouble occupancy_waves_achieved_pct(const SmLimits *sm, const OccResult *r, guint64 grid) {
  OccSmLoad loads[2];
  gdouble warp_time = 0, active_time = 0;
  guint n = occupancy_spread(grid, sm->sms, loads);
  if (r->blocks_per_sm == 0 || grid == 0)
    return 0.0;
  for (guint i = 0; i < n; i++) {
    guint64 rounds = (loads[i].blocks + r->blocks_per_sm - 1) / r->blocks_per_sm;
    warp_time += (gdouble)loads[i].sms * (gdouble)loads[i].blocks * r->warps_per_block;
    active_time += (gdouble)loads[i].sms * (gdouble)rounds;
  }
  return 100.0 * warp_time / active_time / sm->max_warps;
}

/* Evaluate `base` with the varied quantity set to `value` and append it. */
static void vary_append(GArray *points, const SmLimits *sm, const OccLaunch *base, OccVary what,
                        guint value, gboolean current) {
  OccPoint p = {.value = value, .current = current, .launch = *base};
  /* Warpgroups fix the block shape: a curve varies a uniform launch. */
  p.launch.regs = occupancy_launch_regs(base);
  p.launch.n_warpgroups = 0;
  if (what == OCC_VARY_REGS)
    p.launch.regs = value;
  else if (what == OCC_VARY_THREADS)
    p.launch.threads = value;
  else
    p.launch.smem_dynamic = value - base->smem_static;
  /* Every value of the range is valid once the base launch is. */
  GError *err = NULL;
  if (!occupancy_compute(sm, &p.launch, &p.result, &err)) {
    g_critical("vary: %s", err->message);
    g_error_free(err);
    return;
  }
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
  guint lo = 1, hi = sm->max_regs_per_thread, step = 1, cur = occupancy_launch_regs(launch);
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
