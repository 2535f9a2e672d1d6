/* check_stats.c - tests of sim/core/stats.[ch]: every warp state's name is
 * Nsight Compute's stall-reason suffix (smsp__pcsamp_warps_issue_stalled_*,
 * written out here), in the documented priority order, sim_cycle_ceil
 * rounds a time up to its cycle, and sim_stats_scale_time replays a run's
 * counters at another speed. */
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

/* A run of 1000 cycles, 4 SMSPs active 3600 SMSP-cycles, 8000 active
 * warp-cycles: 2000 selected, 5000 long_scoreboard (of which the SM's cap
 * 1000), 1000 lg_throttle (all the SM's cap); 1500 issues, 6000 ready
 * warp-cycles, load latency sum 40000, 100 loads, pipe busy 700.
 * Played 1.5 x slower: cycles 1500, SMSP active 5400, ready 9000, latency
 * sum 60000; the states but selected x (1.5 x 8000 - 2000) / (8000 - 2000)
 * = 10000 / 6000 = 5/3: long_scoreboard 8333.33 -> 8333, lg_throttle
 * 1666.67 -> 1667, selected 2000, active = their sum 12000; the cap's
 * shares 1666.67 -> 1667 and 1666.67 -> 1667 (at most lg_throttle's 1667);
 * counts unchanged.  Played 0.2 x (faster than its issues allow): the
 * others' factor (1600 - 2000) / 6000 < 0 -> 0, only selected remains. */
START_TEST(test_scale_time) {
  SimStats st = {.cycles = 1000,
                 .issued = 1500,
                 .loads = 100,
                 .issue_cycles = 1500,
                 .smsp_active_cycles = 3600,
                 .active_warp_cycles = 8000,
                 .ready_warp_cycles = 6000,
                 .lg_throttle_sm = 1000,
                 .lg_load_sm = 1000,
                 .load_latency_sum = 40000};
  st.state[STALL_SELECTED] = 2000;
  st.state[STALL_LONG_SCOREBOARD] = 5000;
  st.state[STALL_LG_THROTTLE] = 1000;
  st.pipe_busy[0] = 700;
  SimStats slow = st;
  sim_stats_scale_time(&slow, 1.5);
  ck_assert_uint_eq(slow.cycles, 1500);
  ck_assert_uint_eq(slow.smsp_active_cycles, 5400);
  ck_assert_uint_eq(slow.ready_warp_cycles, 9000);
  ck_assert_uint_eq(slow.load_latency_sum, 60000);
  ck_assert_uint_eq(slow.state[STALL_SELECTED], 2000);
  ck_assert_uint_eq(slow.state[STALL_LONG_SCOREBOARD], 8333);
  ck_assert_uint_eq(slow.state[STALL_LG_THROTTLE], 1667);
  ck_assert_uint_eq(slow.active_warp_cycles, 12000);
  ck_assert_uint_eq(slow.lg_load_sm, 1667);
  ck_assert_uint_eq(slow.lg_throttle_sm, 1667);
  ck_assert_uint_eq(slow.issued, 1500);
  ck_assert_uint_eq(slow.issue_cycles, 1500);
  ck_assert_uint_eq(slow.loads, 100);
  ck_assert_uint_eq(slow.pipe_busy[0], 700);
  SimStats fast = st;
  sim_stats_scale_time(&fast, 0.2);
  ck_assert_uint_eq(fast.cycles, 200);
  ck_assert_uint_eq(fast.state[STALL_LONG_SCOREBOARD], 0);
  ck_assert_uint_eq(fast.active_warp_cycles, 2000);
  ck_assert_uint_eq(fast.lg_throttle_sm, 0);
}
END_TEST

int main(void) {
  TCase *tc = tcase_create("stats");
  tcase_add_test(tc, test_names);
  tcase_add_test(tc, test_cycle_ceil);
  tcase_add_test(tc, test_scale_time);
  Suite *s = suite_create("stats");
  suite_add_tcase(s, tc);
  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
