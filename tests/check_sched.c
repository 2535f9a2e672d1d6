/* check_sched.c - tests of sim/core/sched.[ch]: each policy's pick over a table
 * of (candidate slots, ages, last slot, group size) worked out by hand,
 * lookup by name, and two properties over random views: the pick is always
 * a candidate, and a policy flagged greedy returns the last slot whenever
 * it is a candidate (while one not flagged does not always). */
#include "core/sched.h"

#include <check.h>
#include <stdlib.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

#define BIT(s) (G_GUINT64_CONSTANT(1) << (s))
#define NO SCHED_NO_SLOT

/* Ages (launch order; lower is older) by slot. */
typedef enum {
  AGES_UP,   /* age = slot: slot 0 oldest */
  AGES_DOWN, /* age = 100 - slot: slot 63 oldest */
  AGES_MIX,  /* 50 + slot, but slot 9 = 1, 40 = 2, 5 = 3, 12 = 4 */
} AgesKind;

static void ages_fill(AgesKind kind, guint64 *ages) {
  for (guint s = 0; s < SCHED_MAX_SLOTS; s++)
    ages[s] = kind == AGES_UP ? s : kind == AGES_DOWN ? 100 - s : 50 + s;
  if (kind == AGES_MIX) {
    ages[9] = 1;
    ages[40] = 2;
    ages[5] = 3;
    ages[12] = 4;
  }
}

typedef struct {
  const gchar *policy;
  guint64 cand;
  AgesKind ages;
  gint last;
  guint group_size; /* two_level and oldest_group only */
  guint want;
} PickCase;

static const PickCase picks[] = {
    /* gto: the last slot while it can issue, else the oldest candidate. */
    {"gto", BIT(3) | BIT(5) | BIT(9), AGES_UP, 5, 4, 5},
    {"gto", BIT(3) | BIT(5) | BIT(9), AGES_UP, 4, 4, 3},
    {"gto", BIT(3) | BIT(5) | BIT(9), AGES_DOWN, NO, 4, 9},  /* ages 97, 95, 91 */
    {"gto", BIT(5) | BIT(12) | BIT(40), AGES_MIX, 7, 4, 40}, /* ages 3, 4, 2 */
    {"gto", BIT(5) | BIT(12) | BIT(40), AGES_MIX, 12, 4, 12},
    {"gto", BIT(5) | BIT(12), AGES_MIX, 63, 4, 5}, /* ages 3, 4 */
    {"gto", ~G_GUINT64_CONSTANT(0), AGES_DOWN, 63, 4, 63},
    {"gto", BIT(63), AGES_UP, 0, 4, 63},
    /* oldest: the oldest candidate, never the last for being last. */
    {"oldest", BIT(3) | BIT(5) | BIT(9), AGES_UP, 5, 4, 3},
    {"oldest", BIT(3) | BIT(5) | BIT(9), AGES_DOWN, 3, 4, 9},
    {"oldest", BIT(5) | BIT(9) | BIT(12) | BIT(40), AGES_MIX, 9, 4, 9},
    {"oldest", BIT(5) | BIT(12) | BIT(40), AGES_MIX, NO, 4, 40},
    {"oldest", BIT(0) | BIT(63), AGES_DOWN, 0, 4, 63},
    /* lrr: the next candidate after the last, wrapping; ages ignored. */
    {"lrr", BIT(3) | BIT(5) | BIT(9), AGES_DOWN, 5, 4, 9},
    {"lrr", BIT(3) | BIT(5) | BIT(9), AGES_DOWN, 9, 4, 3},
    {"lrr", BIT(3) | BIT(5) | BIT(9), AGES_DOWN, 4, 4, 5},
    {"lrr", BIT(3) | BIT(5) | BIT(9), AGES_DOWN, 10, 4, 3},
    {"lrr", BIT(3) | BIT(5) | BIT(9), AGES_DOWN, NO, 4, 3},
    {"lrr", BIT(3) | BIT(5) | BIT(9), AGES_UP, 63, 4, 3},
    {"lrr", BIT(0) | BIT(63), AGES_UP, 62, 4, 63},
    {"lrr", BIT(0) | BIT(63), AGES_UP, 63, 4, 0},
    {"lrr", BIT(7), AGES_UP, 7, 4, 7}, /* the only candidate */
    /* grr: the last slot while it can issue, else the next after it. */
    {"grr", BIT(3) | BIT(5) | BIT(9), AGES_UP, 5, 4, 5},
    {"grr", BIT(3) | BIT(5) | BIT(9), AGES_UP, 4, 4, 5},
    {"grr", BIT(3) | BIT(5) | BIT(9), AGES_UP, 10, 4, 3},
    {"grr", BIT(3) | BIT(5) | BIT(9), AGES_DOWN, NO, 4, 3},
    {"grr", BIT(0) | BIT(63), AGES_UP, 63, 4, 63},
    {"grr", BIT(0) | BIT(10), AGES_DOWN, 62, 4, 0},
    /* two_level, groups of 4 (slots 0-3, 4-7, 8-11, ...): round robin inside
     * the last slot's group, else the next candidate after it. */
    {"two_level", BIT(1) | BIT(2) | BIT(6), AGES_UP, 1, 4, 2},
    {"two_level", BIT(1) | BIT(2) | BIT(6), AGES_UP, 2, 4, 1}, /* wraps inside 0-3 */
    {"two_level", BIT(6) | BIT(9), AGES_UP, 2, 4, 6},          /* 0-3 empty: next group */
    {"two_level", BIT(1) | BIT(9), AGES_UP, 5, 4, 9},          /* 4-7 empty: skip to 8-11 */
    {"two_level", BIT(1), AGES_UP, 5, 4, 1},                   /* wraps over all slots */
    {"two_level", BIT(1) | BIT(4), AGES_UP, 1, 4, 1},          /* 4 is the next group */
    {"two_level", BIT(1) | BIT(2) | BIT(6), AGES_DOWN, NO, 4, 1},
    {"two_level", BIT(1) | BIT(6) | BIT(9), AGES_UP, 6, 4, 6},     /* 6 alone in 4-7 */
    {"two_level", BIT(1) | BIT(6) | BIT(9), AGES_UP, 6, 8, 1},     /* 0-7 holds 1 and 6 */
    {"two_level", BIT(1) | BIT(6) | BIT(9), AGES_UP, 1, 8, 6},     /* inside 0-7 */
    {"two_level", BIT(1) | BIT(63), AGES_UP, 63, 64, 1},           /* one group: lrr */
    {"two_level", BIT(0) | BIT(62) | BIT(63), AGES_UP, 63, 3, 63}, /* 63's group: 63-65 */
    {"two_level", BIT(0) | BIT(62), AGES_UP, 63, 3, 0},
    {"two_level", BIT(3) | BIT(5), AGES_UP, 3, 1, 3}, /* groups of 1: greedy */
    /* oldest_group, groups of 4: the last slot while it can issue, else round
     * robin after it inside the group of the oldest candidate. */
    {"oldest_group", BIT(1) | BIT(2) | BIT(6), AGES_UP, 6, 4, 6},       /* greedy */
    {"oldest_group", BIT(1) | BIT(3) | BIT(6), AGES_UP, 2, 4, 3},       /* gto: 1 */
    {"oldest_group", BIT(1) | BIT(6) | BIT(9), AGES_UP, 5, 4, 1},       /* grr: 6 */
    {"oldest_group", BIT(1) | BIT(3) | BIT(6), AGES_UP, 3, 4, 3},       /* greedy */
    {"oldest_group", BIT(1) | BIT(3) | BIT(6), AGES_UP, 7, 4, 1},       /* wraps inside 0-3 */
    {"oldest_group", BIT(1) | BIT(2) | BIT(6), AGES_DOWN, NO, 4, 6},    /* 6 is oldest */
    {"oldest_group", BIT(1) | BIT(63), AGES_UP, 62, 64, 63},            /* one group: grr */
    {"oldest_group", BIT(3) | BIT(5), AGES_DOWN, 0, 1, 5},              /* groups of 1: gto */
    {"oldest_group", BIT(0) | BIT(62) | BIT(63), AGES_DOWN, 10, 3, 63}, /* group 63-65 */
};

START_TEST(test_pick) {
  const PickCase *c = &picks[_i];
  const SchedPolicy *p = sched_lookup(c->policy);
  ck_assert_ptr_nonnull(p);
  guint64 ages[SCHED_MAX_SLOTS];
  ages_fill(c->ages, ages);
  SchedView v = {c->cand, ages, c->last, c->group_size};
  guint got = p->pick(&v);
  ck_assert_msg(got == c->want,
                "%s: cand %#" G_GINT64_MODIFIER "x last %d group %u: %u, expected %u", c->policy,
                c->cand, c->last, c->group_size, got, c->want);
}
END_TEST

/* ---- lookup ------------------------------------------------------------ */

static const struct {
  const gchar *name;
  gboolean known;
  gboolean greedy;
} lookups[] = {
    {"gto", TRUE, TRUE},    {"lrr", TRUE, FALSE},       {"oldest", TRUE, FALSE},
    {"grr", TRUE, TRUE},    {"two_level", TRUE, FALSE}, {"oldest_group", TRUE, TRUE},
    {"GTO", FALSE, FALSE},  {"", FALSE, FALSE},         {"two-level", FALSE, FALSE},
    {"gto ", FALSE, FALSE}, {NULL, FALSE, FALSE},
};

START_TEST(test_lookup) {
  const SchedPolicy *p = sched_lookup(lookups[_i].name);
  if (!lookups[_i].known) {
    ck_assert_ptr_null(p);
    return;
  }
  ck_assert_ptr_nonnull(p);
  ck_assert_str_eq(p->name, lookups[_i].name);
  ck_assert(p->pick != NULL);
  ck_assert(p->desc != NULL && *p->desc != '\0');
  ck_assert_int_eq(p->greedy, lookups[_i].greedy);
}
END_TEST

/* sched_names() lists exactly the six known policies, in table order. */
START_TEST(test_names) {
  g_auto(GStrv) names = g_strsplit(sched_names(), "|", -1);
  ck_assert_uint_eq(g_strv_length(names), 6);
  for (guint i = 0; names[i] != NULL; i++) {
    ck_assert_str_eq(names[i], lookups[i].name);
    ck_assert_ptr_nonnull(sched_lookup(names[i]));
  }
}
END_TEST

/* ---- random views ------------------------------------------------------ */

#define RANDOM_VIEWS 20000

/* A random non-empty candidate set (each slot with probability 1/2, or
 * sparse: each with 1/8), random ages (ties possible), a random last slot
 * that is a candidate about half the time, and a group size of 1-16. */
static SchedView random_view(GRand *rng, guint64 *ages) {
  guint64 cand = 0;
  gboolean sparse = g_rand_boolean(rng);
  while (cand == 0)
    for (guint s = 0; s < SCHED_MAX_SLOTS; s++)
      if (g_rand_int_range(rng, 0, sparse ? 8 : 2) == 0)
        cand |= BIT(s);
  for (guint s = 0; s < SCHED_MAX_SLOTS; s++)
    ages[s] = (guint64)g_rand_int_range(rng, 0, 1000);
  gint last = g_rand_int_range(rng, -1, SCHED_MAX_SLOTS);
  return (SchedView){cand, ages, last, (guint)g_rand_int_range(rng, 1, 17)};
}

/* For every policy: the pick is a candidate; a greedy policy picks `last`
 * whenever `last` is a candidate; a policy not flagged greedy picks another
 * slot in at least one such view (else the flag would wrongly make the
 * caller call pick).  Every view is drawn from one seed, so this is the
 * same check on every run. */
START_TEST(test_greedy_flag) {
  const SchedPolicy *p = sched_lookup(lookups[_i].name);
  g_autoptr(GRand) rng = g_rand_new_with_seed(2012);
  guint64 ages[SCHED_MAX_SLOTS];
  guint last_candidate = 0, kept = 0;
  for (guint n = 0; n < RANDOM_VIEWS; n++) {
    SchedView v = random_view(rng, ages);
    guint got = p->pick(&v);
    ck_assert_msg(got < SCHED_MAX_SLOTS && (v.cand & BIT(got)),
                  "%s picked %u, not a candidate of %#" G_GINT64_MODIFIER "x", p->name, got,
                  v.cand);
    if (v.last != NO && (v.cand & BIT(v.last))) {
      last_candidate++;
      kept += got == (guint)v.last;
    }
  }
  ck_assert_uint_gt(last_candidate, RANDOM_VIEWS / 4);
  if (p->greedy)
    ck_assert_uint_eq(kept, last_candidate);
  else
    ck_assert_uint_lt(kept, last_candidate);
}
END_TEST

int main(void) {
  Suite *s = suite_create("sched");
  TCase *tc = tcase_create("lookup");
  suite_add_tcase(s, tc);
  tcase_add_loop_test(tc, test_lookup, 0, G_N_ELEMENTS(lookups));
  tcase_add_test(tc, test_names);

  tc = tcase_create("pick");
  suite_add_tcase(s, tc);
  tcase_add_loop_test(tc, test_pick, 0, G_N_ELEMENTS(picks));
  /* The first six rows of `lookups` are the known policies. */
  tcase_add_loop_test(tc, test_greedy_flag, 0, 6);

  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
