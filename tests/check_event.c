/* check_event.c - tests of sim/core/event.[ch]: events come out by cycle, then in
 * the order they were pushed, whether they went straight to the wheel or
 * waited beyond it in the heap (hand-worked sequences), and the same order
 * as a plain sorted list on random mixes of pushes and pops with delays from
 * 0 to several wheel spans. */
#include "core/event.h"

#include <check.h>
#include <stdlib.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

#define TAG(i) GUINT_TO_POINTER((guint)(i) + 1) /* data: push number + 1 (NULL is data too) */

START_TEST(test_empty) {
  EventQueue q;
  event_queue_init(&q);
  ck_assert_uint_eq(event_queue_next(&q), SIM_CYCLE_NEVER);
  event_queue_push(&q, 7, NULL);
  ck_assert_uint_eq(event_queue_next(&q), 7);
  ck_assert_ptr_null(event_queue_pop(&q));
  ck_assert_uint_eq(event_queue_next(&q), SIM_CYCLE_NEVER);
  ck_assert_uint_eq(q.len, 0);
  event_queue_clear(&q);
}
END_TEST

/* Same cycle: first in, first out; earlier cycles first. */
START_TEST(test_fifo) {
  EventQueue q;
  event_queue_init(&q);
  event_queue_push(&q, 10, TAG(0));
  event_queue_push(&q, 5, TAG(1));
  event_queue_push(&q, 10, TAG(2));
  event_queue_push(&q, 5, TAG(3));
  ck_assert_uint_eq(event_queue_next(&q), 5);
  const guint want[] = {1, 3, 0, 2};
  for (guint i = 0; i < G_N_ELEMENTS(want); i++)
    ck_assert_ptr_eq(event_queue_pop(&q), TAG(want[i]));
  event_queue_clear(&q);
}
END_TEST

/* An event pushed beyond the wheel (into the heap) still comes out before
 * one pushed later for the same cycle once the wheel reaches it. */
START_TEST(test_beyond_wheel) {
  EventQueue q;
  event_queue_init(&q);
  SimCycle far = 3 * EVENT_WHEEL + 17;
  event_queue_push(&q, far, TAG(0));     /* heap: beyond [0, EVENT_WHEEL) */
  event_queue_push(&q, 1, TAG(1));       /* wheel */
  event_queue_push(&q, far + 1, TAG(2)); /* heap */
  ck_assert_ptr_eq(event_queue_pop(&q), TAG(1));
  event_queue_push(&q, far - 5, TAG(3));         /* heap: the wheel starts at cycle 1 */
  ck_assert_ptr_eq(event_queue_pop(&q), TAG(3)); /* the wheel moves to far - 5 */
  event_queue_push(&q, far, TAG(4));             /* wheel, after 0 which moved there first */
  event_queue_push(&q, far + 1, TAG(5));
  const guint want[] = {0, 4, 2, 5};
  for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
    ck_assert_uint_eq(event_queue_next(&q), i == 0 || i == 1 ? far : far + 1);
    ck_assert_ptr_eq(event_queue_pop(&q), TAG(want[i]));
  }
  ck_assert_uint_eq(event_queue_next(&q), SIM_CYCLE_NEVER);
  event_queue_clear(&q);
}
END_TEST

/* Reference: pending (cycle, push number) pairs; the first is the least. */
typedef struct {
  SimCycle at;
  guint tag;
} Pending;

static guint reference_first(const GArray *ref) {
  guint best = 0;
  for (guint i = 1; i < ref->len; i++) {
    const Pending *a = &g_array_index(ref, Pending, i), *b = &g_array_index(ref, Pending, best);
    if (a->at < b->at || (a->at == b->at && a->tag < b->tag))
      best = i;
  }
  return best;
}

/* Random pushes (delays 0 .. 3 wheel spans after the last pop, often equal
 * cycles) and pops, as a simulation makes them: the queue pops what the
 * reference pops, and next() is always the reference's first cycle. */
static const guint max_delay[] = {4, 300, EVENT_WHEEL, 3 * EVENT_WHEEL}; /* cycles */

START_TEST(test_random) {
  g_autoptr(GRand) rng = g_rand_new_with_seed(100 + (guint32)_i);
  g_autoptr(GArray) ref = g_array_new(FALSE, FALSE, sizeof(Pending));
  EventQueue q;
  event_queue_init(&q);
  SimCycle now = 0;
  guint tag = 0;
  for (guint step = 0; step < 20000; step++) {
    if (ref->len == 0 || g_rand_int_range(rng, 0, 100) < 52) {
      SimCycle at = now + (SimCycle)g_rand_int_range(rng, 0, (gint32)max_delay[_i] + 1);
      event_queue_push(&q, at, TAG(tag));
      g_array_append_val(ref, ((Pending){at, tag}));
      tag++;
    } else {
      guint i = reference_first(ref);
      Pending want = g_array_index(ref, Pending, i);
      g_array_remove_index(ref, i);
      ck_assert_uint_eq(event_queue_next(&q), want.at);
      ck_assert_ptr_eq(event_queue_pop(&q), TAG(want.tag));
      now = want.at;
    }
    ck_assert_uint_eq(q.len, ref->len);
    ck_assert_uint_eq(event_queue_next(&q),
                      ref->len ? g_array_index(ref, Pending, reference_first(ref)).at
                               : SIM_CYCLE_NEVER);
  }
  event_queue_clear(&q);
}
END_TEST

int main(void) {
  TCase *tc = tcase_create("order");
  tcase_add_test(tc, test_empty);
  tcase_add_test(tc, test_fifo);
  tcase_add_test(tc, test_beyond_wheel);
  tcase_add_loop_test(tc, test_random, 0, G_N_ELEMENTS(max_delay));
  Suite *s = suite_create("event");
  suite_add_tcase(s, tc);

  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
