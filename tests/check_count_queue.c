/* check_count_queue.c - tests of sim/core/count_queue.[ch]: the number of items
 * queued and the first cycle due, after adds on and beyond the wheel and
 * completions that step one cycle or jump past many counters (hand-worked
 * sequences), and the same as a plain list of (cycle, count) pairs on random
 * mixes with delays from 0 to several wheel spans. */
#include "core/count_queue.h"

#include <check.h>
#include <stdlib.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

START_TEST(test_empty) {
  CountQueue q;
  count_queue_init(&q);
  ck_assert_uint_eq(count_queue_next(&q), SIM_CYCLE_NEVER);
  count_queue_add(&q, 7, 0); /* no items: nothing due */
  ck_assert_uint_eq(count_queue_next(&q), SIM_CYCLE_NEVER);
  count_queue_add(&q, 7, 3);
  ck_assert_uint_eq(count_queue_next(&q), 7);
  ck_assert_uint_eq(q.len, 3);
  count_queue_complete(&q, 6); /* none due yet */
  ck_assert_uint_eq(q.len, 3);
  count_queue_complete(&q, 7);
  ck_assert_uint_eq(q.len, 0);
  ck_assert_uint_eq(count_queue_next(&q), SIM_CYCLE_NEVER);
  count_queue_clear(&q);
}
END_TEST

/* Counts of one cycle add up; a completion takes every cycle up to its own. */
START_TEST(test_counts) {
  CountQueue q;
  count_queue_init(&q);
  count_queue_add(&q, 10, 2);
  count_queue_add(&q, 5, 1);
  count_queue_add(&q, 10, 4);
  count_queue_add(&q, 12, 8);
  ck_assert_uint_eq(q.len, 15);
  ck_assert_uint_eq(count_queue_next(&q), 5);
  count_queue_complete(&q, 5);
  ck_assert_uint_eq(q.len, 14);
  ck_assert_uint_eq(count_queue_next(&q), 10);
  count_queue_add(&q, 11, 16);
  count_queue_complete(&q, 11); /* 10 and 11 at once */
  ck_assert_uint_eq(q.len, 8);
  ck_assert_uint_eq(count_queue_next(&q), 12);
  count_queue_clear(&q);
}
END_TEST

/* Counts beyond the wheel: they move to it when it reaches them, or leave
 * at once when a completion jumps past them. */
START_TEST(test_beyond_wheel) {
  CountQueue q;
  count_queue_init(&q);
  SimCycle far = 3 * COUNT_WHEEL + 17;
  count_queue_add(&q, far, 1);     /* beyond [0, COUNT_WHEEL) */
  count_queue_add(&q, 1, 2);       /* wheel */
  count_queue_add(&q, far + 1, 4); /* beyond */
  count_queue_add(&q, 5 * far, 8); /* beyond */
  ck_assert_uint_eq(count_queue_next(&q), 1);
  count_queue_complete(&q, 1);
  ck_assert_uint_eq(count_queue_next(&q), far);
  ck_assert_uint_eq(q.len, 13);
  count_queue_complete(&q, far - 5); /* the wheel moves to far - 5 and takes far, far + 1 */
  ck_assert_uint_eq(count_queue_next(&q), far);
  count_queue_add(&q, far, 16);
  count_queue_add(&q, far + 2, 32);
  count_queue_complete(&q, far);
  ck_assert_uint_eq(q.len, 44);
  ck_assert_uint_eq(count_queue_next(&q), far + 1);
  count_queue_complete(&q, 4 * far); /* far + 1, far + 2 */
  ck_assert_uint_eq(q.len, 8);
  ck_assert_uint_eq(count_queue_next(&q), 5 * far);
  count_queue_add(&q, 6 * far, 64);  /* beyond */
  count_queue_complete(&q, 7 * far); /* both beyond the wheel, both due */
  ck_assert_uint_eq(q.len, 0);
  ck_assert_uint_eq(count_queue_next(&q), SIM_CYCLE_NEVER);
  count_queue_clear(&q);
}
END_TEST

/* Reference: pending (cycle, count) pairs. */
typedef struct {
  SimCycle at;
  guint n;
} Pending;

static guint reference_len(const GArray *ref) {
  guint len = 0;
  for (guint i = 0; i < ref->len; i++)
    len += g_array_index(ref, Pending, i).n;
  return len;
}

static SimCycle reference_first(const GArray *ref) {
  SimCycle first = SIM_CYCLE_NEVER;
  for (guint i = 0; i < ref->len; i++)
    first = MIN(first, g_array_index(ref, Pending, i).at);
  return first;
}

static void reference_complete(GArray *ref, SimCycle now) {
  for (guint i = ref->len; i-- > 0;)
    if (g_array_index(ref, Pending, i).at <= now)
      g_array_remove_index_fast(ref, i);
}

/* Random adds (delays 0 .. max_delay after the last completion, counts
 * 0 .. 32) and completions (a step of 0 .. max_delay cycles, or to the first
 * cycle due): len and next() are always the reference's. */
static const guint max_delay[] = {4, 300, COUNT_WHEEL, 3 * COUNT_WHEEL}; /* cycles */

START_TEST(test_random) {
  g_autoptr(GRand) rng = g_rand_new_with_seed(200 + (guint32)_i);
  g_autoptr(GArray) ref = g_array_new(FALSE, FALSE, sizeof(Pending));
  CountQueue q;
  count_queue_init(&q);
  SimCycle now = 0;
  for (guint step = 0; step < 20000; step++) {
    guint r = (guint)g_rand_int_range(rng, 0, 100);
    if (r < 55) {
      SimCycle at = now + (SimCycle)g_rand_int_range(rng, 0, (gint32)max_delay[_i] + 1);
      guint n = (guint)g_rand_int_range(rng, 0, 33);
      count_queue_add(&q, at, n);
      if (n > 0)
        g_array_append_val(ref, ((Pending){at, n}));
    } else {
      SimCycle to = r < 80 ? now + (SimCycle)g_rand_int_range(rng, 0, (gint32)max_delay[_i] + 1)
                           : MAX(now, reference_first(ref));
      if (to != SIM_CYCLE_NEVER) {
        now = to;
        count_queue_complete(&q, now);
        reference_complete(ref, now);
      }
    }
    ck_assert_uint_eq(q.len, reference_len(ref));
    ck_assert_uint_eq(count_queue_next(&q), reference_first(ref));
  }
  count_queue_clear(&q);
}
END_TEST

int main(void) {
  TCase *tc = tcase_create("counts");
  tcase_add_test(tc, test_empty);
  tcase_add_test(tc, test_counts);
  tcase_add_test(tc, test_beyond_wheel);
  tcase_add_loop_test(tc, test_random, 0, G_N_ELEMENTS(max_delay));
  Suite *s = suite_create("count_queue");
  suite_add_tcase(s, tc);

  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
