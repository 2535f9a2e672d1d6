/* sched.c - the scheduler policies. */
#include "sched.h"

/* Greedy then oldest: keep issuing from the last warp while it is eligible,
 * else the oldest eligible warp (Rogers et al., MICRO 2012). */
static guint pick_gto(const guint64 *ages, guint n, guint64 last_age) {
  for (guint i = 0; i < n; i++)
    if (ages[i] == last_age)
      return i;
  return 0;
}

/* Loose round robin: the next eligible warp after the last one selected. */
static guint pick_lrr(const guint64 *ages, guint n, guint64 last_age) {
  for (guint i = 0; i < n; i++)
    if (ages[i] > last_age || last_age == G_MAXUINT64)
      return i;
  return 0;
}

/* Greedy then round robin: keep issuing from the last warp while it is
 * eligible, else the next eligible warp after it in round-robin order.  Unlike
 * gto it never starves the youngest warps (README "Scheduler policies"). */
static guint pick_grr(const guint64 *ages, guint n, guint64 last_age) {
  for (guint i = 0; i < n; i++)
    if (ages[i] == last_age)
      return i;
  return pick_lrr(ages, n, last_age);
}

/* Oldest first: always the oldest eligible warp. */
static guint pick_oldest(const guint64 *ages, guint n, guint64 last_age) {
  (void)ages;
  (void)n;
  (void)last_age;
  return 0;
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
