/* sched.c - the scheduler policies. */
#include "core/sched.h"

static gboolean has(guint64 cand, gint slot) {
  return slot != SCHED_NO_SLOT && ((cand >> slot) & 1u) != 0;
}

/* The first slot of `cand` after `last` in round-robin order. */
static guint next_after(guint64 cand, gint last) {
  return sched_next_after(cand, last);
}

/* Oldest first: always the oldest candidate. */
static guint pick_oldest(const SchedView *v) {
  return sched_least(v->cand, v->ages);
}

/* Greedy then oldest: keep the last warp while it can issue, else the oldest
 * (Rogers et al., "Cache-Conscious Wavefront Scheduling", MICRO 2012). */
static guint pick_gto(const SchedView *v) {
  return has(v->cand, v->last) ? (guint)v->last : sched_least(v->cand, v->ages);
}

/* Loose round robin: the next candidate slot after the last one selected. */
static guint pick_lrr(const SchedView *v) {
  return next_after(v->cand, v->last);
}

/* Greedy then round robin: keep the last warp while it can issue, else the
 * next candidate after it; unlike gto it never starves the youngest warps
 * (doc/model.md "Scheduler policies"). */
static guint pick_grr(const SchedView *v) {
  return has(v->cand, v->last) ? (guint)v->last : next_after(v->cand, v->last);
}

/* Two-level: slots form fetch groups of group_size; round robin inside the
 * group of the last selected warp while it has a candidate, else move on to
 * the next group that has one (Narasiman et al., "Improving GPU Performance
 * via Large Warps and Two-Level Warp Scheduling", MICRO 2011). */
static guint pick_two_level(const SchedView *v) {
  guint g = MAX(v->group_size, 1);
  if (v->last != SCHED_NO_SLOT && g < 64) {
    guint first = (guint)v->last / g * g;
    guint64 group = (~0ULL >> (64 - g)) << first;
    if (v->cand & group)
      return next_after(v->cand & group, v->last);
  }
  return next_after(v->cand, v->last);
}

/* Greedy, then round robin inside the fetch group (group_size slots) of the
 * oldest candidate: warps of one group share the issue slots evenly, and an
 * older group goes before a younger one, so groups finish one after another
 * (on the H200, ncu_fma.csv's achieved occupancy at 16 warps per SMSP;
 * doc/model.md "Scheduler policies"). */
static guint pick_oldest_group(const SchedView *v) {
  if (has(v->cand, v->last))
    return (guint)v->last;
  guint g = MAX(v->group_size, 1);
  if (g >= SCHED_MAX_SLOTS)
    return next_after(v->cand, v->last);
  guint first = sched_least(v->cand, v->ages) / g * g;
  guint64 group = (~0ULL >> (SCHED_MAX_SLOTS - g)) << first;
  return next_after(v->cand & group, v->last);
}

static const SchedPolicy policies[] = {
    {"gto", "greedy then oldest", pick_gto, TRUE, FALSE, TRUE},
    {"lrr", "loose round robin", pick_lrr, FALSE, TRUE, FALSE},
    {"oldest", "oldest eligible warp first", pick_oldest, FALSE, FALSE, TRUE},
    {"grr", "greedy then loose round robin", pick_grr, TRUE, TRUE, FALSE},
    {"two_level", "round robin within a fetch group, then the next group", pick_two_level, FALSE,
     FALSE, FALSE},
    {"oldest_group", "greedy, then round robin within the oldest warp's fetch group",
     pick_oldest_group, TRUE, FALSE, FALSE},
};

const SchedPolicy *sched_lookup(const gchar *name) {
  for (guint i = 0; i < G_N_ELEMENTS(policies); i++)
    if (g_strcmp0(policies[i].name, name) == 0)
      return &policies[i];
  return NULL;
}

const gchar *sched_names(void) {
  return "gto|lrr|oldest|grr|two_level|oldest_group";
}
