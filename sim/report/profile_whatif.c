/* profile_whatif.c - the changed kernel of each what-if, and its run. */
#include "report/profile_whatif.h"

#include "run/rates.h"

static const gchar *const what_if_names[PROFILE_WHAT_IF_MAX] = {"occupancy", "ilp"};

const gchar *profile_whatif_name(ProfileWhatIfKind kind) {
  return kind < PROFILE_WHAT_IF_MAX ? what_if_names[kind] : "?";
}

/* Registers per thread that let `target` CTAs fit, found downwards from the
 * allocated count. */
static guint regs_for_blocks(const SmModel *m, OccLaunch launch, guint target) {
  OccResult o;
  guint regs = launch.regs;
  while (regs > 1) {
    launch.regs = --regs;
    if (occupancy_compute(&m->sm, &launch, &o, NULL) && o.limit[OCC_LIMIT_REGISTERS] >= target)
      break;
  }
  return regs;
}

/* More resident CTAs: lift a binding blocks_per_sm cap to the calculator's
 * limit, or else double the CTAs (up to the warp and block caps) by capping
 * registers (-maxrregcount, spilling the excess) or shrinking dynamic shared
 * memory, whichever limits.  FALSE with *note when nothing can be raised. */
static gboolean occupancy_change(const ProfileMetrics *pm, const SmModel *m, const Kernel *k,
                                 Kernel *w, GString *change, gchar **note) {
  if (pm->capped) {
    w->blocks_per_sm = pm->occ_blocks_per_sm;
    g_string_printf(change, "launch.blocks_per_sm=%u", w->blocks_per_sm);
    return TRUE;
  }
  guint hw = MIN(pm->block_limit[OCC_LIMIT_WARPS], pm->block_limit[OCC_LIMIT_BLOCKS]);
  if (pm->blocks_per_sm >= hw) {
    *note = g_strdup("no change: occupancy is at the SM's warp/block limit");
    return FALSE;
  }
  guint target = MIN(2 * pm->blocks_per_sm, hw);
  OccLaunch launch;
  occupancy_launch_init(&launch);
  launch.threads = k->threads_per_block;
  launch.regs = pm->regs_per_thread; /* as allocated: under max_regs and launch bounds */
  launch.smem_static = k->smem_static;
  launch.smem_dynamic = k->smem_dynamic;
  launch.optin = k->optin;
  if ((pm->limiter_mask & (1u << OCC_LIMIT_REGISTERS)) && k->sass != NULL) {
    /* A listing's registers are what ptxas allocated: capping them is a
     * recompile (kernel.c refuses launch.max_regs below the listing). */
    *note = g_strdup("no change: registers limit, and a SASS listing's registers are compiled "
                     "(recompile under -maxrregcount or __launch_bounds__ and simulate that "
                     "listing)");
    return FALSE;
  }
  if (pm->limiter_mask & (1u << OCC_LIMIT_REGISTERS)) {
    w->max_regs = regs_for_blocks(m, launch, target);
    launch.regs = w->max_regs;
    g_string_append_printf(change, "launch.max_regs=%u", w->max_regs);
  }
  if (pm->limiter_mask & (1u << OCC_LIMIT_SHARED_MEM)) {
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
  /* A grid of at most one wave (no SM gets more CTAs than it holds now)
   * would leave the new slots empty: the what-if would not have more warps
   * (saxpy's 1056 CTAs at 16 slots: still 8 per SM, "-2.2 % costs").  Its
   * grid grows with the CTAs per SM, as the measured curves' (132 x B) and
   * the anchor's shape check's do, so it compares the same waves at twice
   * the warps; the throughput is per cycle, so the added work compares. */
  if (k->blocks > 0 && pm->sms > 0 && change->len > 0 &&
      (k->blocks + pm->sms - 1) / pm->sms <= pm->blocks_per_sm) {
    w->blocks = (guint)((guint64)k->blocks * target / pm->blocks_per_sm);
    g_string_append_printf(change, " launch.blocks=%u", w->blocks);
  }
  return change->len > 0;
}

/* Twice the independent chains per warp: ilp, fma, loads, sfu and lds
 * doubled, iterations kept (as a sweep over ILP does, so the what-if matches
 * the swept point; rates are per cycle, so twice the work compares). */
static gboolean ilp_change(const Kernel *k, Kernel *w, GString *change, gchar **note) {
  if (k->sass != NULL) {
    *note = g_strdup("no change: a SASS listing's independent work per warp is its code");
    return FALSE;
  }
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

void profile_whatif_run(ProfileWhatIfKind kind, const ProfileMetrics *pm, const SmModel *m,
                        const Kernel *k, const SimOptions *opt, ProfileWhatIf *wi) {
  profile_whatif_clear(wi);
  wi->ran = FALSE;
  wi->base = pm->throughput;
  wi->base_occupancy_pct = pm->theoretical_pct;
  Kernel w = *k; /* shallow: name and file stay borrowed */
  g_autoptr(GString) change = g_string_new(NULL);
  gboolean ok = kind == PROFILE_WHAT_IF_OCCUPANCY
                    ? occupancy_change(pm, m, k, &w, change, &wi->note)
                    : ilp_change(k, &w, change, &wi->note);
  if (!ok)
    return;
  wi->change = g_strdup(change->str);
  SimResult r;
  GError *err = NULL;
  if (!sim_run(m, &w, opt, &r, &err)) {
    wi->note = g_strdup_printf("simulation failed: %s", err->message);
    g_error_free(err);
    return;
  }
  const gchar *metric, *unit;
  wi->ran = TRUE;
  wi->value = profile_metrics_throughput(&w, &r, &metric, &unit);
  wi->gain_pct = 100.0 * (wi->base > 0 ? wi->value / wi->base - 1.0 : -1.0);
  wi->occupancy_pct = r.occupancy_pct;
  wi->issue_active = sim_issue_active(&r, m);
  if (r.spill_values > 0)
    wi->note = g_strdup_printf("%u registers per thread spill to local memory", r.spill_values);
}

void profile_whatif_skip(ProfileWhatIf *wi) {
  g_free(wi->note);
  wi->note = g_strdup("skipped (--no-whatif)");
}

const gchar *profile_whatif_verdict(const ProfileWhatIf *wi) {
  if (!wi->ran)
    return "not run";
  if (wi->gain_pct >= PROFILE_WHAT_IF_NOISE_PCT)
    return "pays";
  if (wi->gain_pct <= -PROFILE_WHAT_IF_NOISE_PCT)
    return "costs";
  return "no gain";
}

void profile_whatif_clear(ProfileWhatIf *wi) {
  g_clear_pointer(&wi->change, g_free);
  g_clear_pointer(&wi->note, g_free);
}
