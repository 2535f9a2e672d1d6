/* sched.c - the scheduler policies. */
#include "sched.h"

static guint lowest(guint64 m) { return (guint)__builtin_ctzll(m); }

static guint oldest_of(guint64 cand, const guint64 *ages) {
  guint best = lowest(cand);
  for (guint64 m = cand & (cand - 1); m != 0; m &= m - 1) {
    guint s = lowest(m);
    if (ages[s] < ages[best])
      best = s;
  }
  return best;
}

static gboolean has(guint64 cand, gint slot) {
  return slot != SCHED_NO_SLOT && ((cand >> slot) & 1u) != 0;
}

/* Oldest first: always the oldest candidate. */
static guint pick_oldest(guint64 cand, const guint64 *ages, gint last) {
  (void)last;
  return oldest_of(cand, ages);
}

/* Greedy then oldest: keep the last warp while it can issue, else the oldest
 * (Rogers et al., "Cache-Conscious Wavefront Scheduling", MICRO 2012). */
static guint pick_gto(guint64 cand, const guint64 *ages, gint last) {
  return has(cand, last) ? (guint)last : oldest_of(cand, ages);
}

/* Loose round robin: the next candidate slot after the last one selected. */
static guint pick_lrr(guint64 cand, const guint64 *ages, gint last) {
  (void)ages;
  guint64 after = (last == SCHED_NO_SLOT || last >= 63) ? 0 : cand & (~0ULL << (last + 1));
  return lowest(after ? after : cand);
}

/* Greedy then round robin: keep the last warp while it can issue, else the
 * next candidate after it; unlike gto it never starves the youngest warps
 * (README "Scheduler policies"). */
static guint pick_grr(guint64 cand, const guint64 *ages, gint last) {
  return has(cand, last) ? (guint)last : pick_lrr(cand, ages, last);
}

static const SchedPolicy policies[] = {
    {"gto", "greedy then oldest", pick_gto},
    {"lrr", "loose round robin", pick_lrr},
    {"oldest", "oldest eligible warp first", pick_oldest},
    {"grr", "greedy then loose round robin", pick_grr},
};

const SchedPolicy *sched_lookup(const gchar *name) {
  for (guint i = 0; i < G_N_ELEMENTS(policies); i++)
    if (g_strcmp0(policies[i].name, name) == 0)
      return &policies[i];
  return NULL;
}

const gchar *sched_names(void) { return "gto|lrr|oldest|grr"; }
