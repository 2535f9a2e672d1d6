/* check_stats.c - tests of sim/core/stats.[ch]: every warp state's name is
 * Nsight Compute's stall-reason suffix (smsp__pcsamp_warps_issue_stalled_*,
 * written out here), in the documented priority order, and sim_cycle_ceil
 * rounds a time up to its cycle. */
#include "core/stats.h"

#include <check.h>
#include <stdlib.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

START_TEST(test_names) {
  static const gchar *const want[STALL_MAX] = {
      "selected",         "drain",       "barrier",     "branch_resolving", "long_scoreboard",
      "short_scoreboard", "wait",        "lg_throttle", "mio_throttle",     "math_pipe_throttle",
      "dispatch_stall",   "not_selected"};
  for (guint s = 0; s < STALL_MAX; s++)
    ck_assert_str_eq(stall_name((StallState)s), want[s]);
}
END_TEST

/* 0 -> 0, 0.25 -> 1, 3 -> 3, 3.000001 -> 4, 2^53 + 2 (a whole double) ->
 * itself. */
START_TEST(test_cycle_ceil) {
  ck_assert_uint_eq(sim_cycle_ceil(0.0), 0);
  ck_assert_uint_eq(sim_cycle_ceil(0.25), 1);
  ck_assert_uint_eq(sim_cycle_ceil(3.0), 3);
  ck_assert_uint_eq(sim_cycle_ceil(3.000001), 4);
  ck_assert_uint_eq(sim_cycle_ceil(9007199254740994.0), G_GUINT64_CONSTANT(9007199254740994));
}
END_TEST

int main(void) {
  TCase *tc = tcase_create("stats");
  tcase_add_test(tc, test_names);
  tcase_add_test(tc, test_cycle_ceil);
  Suite *s = suite_create("stats");
  suite_add_tcase(s, tc);
  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
