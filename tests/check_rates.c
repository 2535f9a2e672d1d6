/* check_rates.c - tests of sim/run/rates.[ch]'s scheduler statistics
 * (sim_sched_stats, Nsight Compute's per-scheduler metrics): each is a
 * device-wide sum of warp-cycles (or issues) over the SMSPs' active cycles,
 * worked out by hand for a hand-made result of one SM and of two SM loads
 * (each counted times its SMs), and for a run whose counters are counted by
 * hand (one warp, 32 dependent FFMAs: check_profile.c's exact case); and the
 * metrics against each other: an SMSP issues at most one warp per cycle, so
 * issue-active % = 100 x issued warps; issued <= eligible <= ready <=
 * active. */
#include "fixture.h"
#include "input/kernel.h"
#include "input/model.h"
#include "run/rates.h"
#include "run/sim.h"

#include <check.h>
#include <stdlib.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

static void assert_consistent(const SimSchedStats *s) {
  ck_assert_double_eq_tol(s->one_or_more_eligible_pct, 100 * s->issued_warps, 1e-9);
  ck_assert(s->issued_warps <= s->eligible_warps + 1e-12);
  ck_assert(s->eligible_warps <= s->ready_warps + 1e-12);
  ck_assert(s->ready_warps <= s->active_warps + 1e-12);
}

/* One SM: 200 SMSP-active cycles, 600 active warp-cycles, 50 issued (50
 * selected, 50 issue cycles), 30 not selected, 120 ready warp-cycles:
 * active 600 / 200 = 3, eligible (50 + 30) / 200 = 0.4, issued 50 / 200 =
 * 0.25, ready 120 / 200 = 0.6, issue active 100 x 50 / 200 = 25 %. */
START_TEST(test_one_sm) {
  SimResult r = {0};
  r.st.smsp_active_cycles = 200;
  r.st.active_warp_cycles = 600;
  r.st.issued = r.st.issue_cycles = r.st.state[STALL_SELECTED] = 50;
  r.st.state[STALL_NOT_SELECTED] = 30;
  r.st.ready_warp_cycles = 120;
  SimSchedStats s;
  sim_sched_stats(&r, &s);
  ck_assert_double_eq_tol(s.active_warps, 3.0, 1e-12);
  ck_assert_double_eq_tol(s.eligible_warps, 0.4, 1e-12);
  ck_assert_double_eq_tol(s.issued_warps, 0.25, 1e-12);
  ck_assert_double_eq_tol(s.ready_warps, 0.6, 1e-12);
  ck_assert_double_eq_tol(s.one_or_more_eligible_pct, 25.0, 1e-12);
  assert_consistent(&s);
}
END_TEST

/* Two loads: 3 SMs of (100 active, 400 warp-cycles, 40 issued, 20 not
 * selected, 80 ready) and 1 SM of (60, 120, 12, 0, 30): sums 360, 1320,
 * 132, 60, 270: active 1320 / 360, eligible 192 / 360, issued 132 / 360,
 * ready 270 / 360 = 0.75. */
START_TEST(test_two_loads) {
  SimResult r = {0};
  const guint64 v[2][5] = {{100, 400, 40, 20, 80}, {60, 120, 12, 0, 30}};
  r.n_loads = 2;
  for (guint i = 0; i < 2; i++) {
    SimStats *st = &r.loads[i].st;
    r.loads[i].sms = i == 0 ? 3 : 1;
    r.loads[i].blocks = 1;
    st->smsp_active_cycles = v[i][0];
    st->active_warp_cycles = v[i][1];
    st->issued = st->issue_cycles = st->state[STALL_SELECTED] = v[i][2];
    st->state[STALL_NOT_SELECTED] = v[i][3];
    st->ready_warp_cycles = v[i][4];
  }
  r.st = r.loads[0].st;
  SimSchedStats s;
  sim_sched_stats(&r, &s);
  ck_assert_double_eq_tol(s.active_warps, 1320.0 / 360, 1e-12);
  ck_assert_double_eq_tol(s.eligible_warps, 192.0 / 360, 1e-12);
  ck_assert_double_eq_tol(s.issued_warps, 132.0 / 360, 1e-12);
  ck_assert_double_eq_tol(s.ready_warps, 0.75, 1e-12);
  assert_consistent(&s);
}
END_TEST

/* One warp of 32 dependent FFMAs (latency 4) and EXIT on the test SM: FFMAs
 * at 0, 4, .., 124, EXIT at 125, retired at 126.  One SMSP active 126
 * cycles, the warp too; 33 issues, each in a cycle where the warp was ready
 * and alone: active 1, eligible = issued = ready = 33 / 126, issue active
 * 100 x 33 / 126 %. */
START_TEST(test_run) {
  static const gchar kernel[] = "[launch]\nthreads_per_block=32\nregs_per_thread=32\n"
                                "blocks_per_sm=1\nblocks=1\n[stream]\niterations=1\nfma=32\n"
                                "ilp=1\nloads=0\noverhead=0\nseed=1\n";
  GError *err = NULL;
  g_autoptr(SmModel) m = model_load_data(FIXTURE_SM_MODEL, "tiny.ini", NULL, &err);
  ck_assert_msg(m != NULL, "%s", err ? err->message : "?");
  g_autoptr(Kernel) k = kernel_load_data(kernel, "k.ini", NULL, &err);
  ck_assert_msg(k != NULL, "%s", err ? err->message : "?");
  SimOptions opt = {.policy = "gto", .check_invariants = TRUE};
  SimResult r;
  ck_assert_msg(sim_run(m, k, &opt, &r, &err), "%s", err ? err->message : "?");
  ck_assert_uint_eq(r.st.cycles, 126);
  ck_assert_uint_eq(r.st.issued, 33);
  SimSchedStats s;
  sim_sched_stats(&r, &s);
  ck_assert_double_eq_tol(s.active_warps, 1.0, 1e-12);
  ck_assert_double_eq_tol(s.issued_warps, 33.0 / 126, 1e-12);
  ck_assert_double_eq_tol(s.eligible_warps, 33.0 / 126, 1e-12);
  ck_assert_double_eq_tol(s.ready_warps, 33.0 / 126, 1e-12);
  ck_assert_double_eq_tol(s.one_or_more_eligible_pct, 100.0 * 33 / 126, 1e-9);
  assert_consistent(&s);
}
END_TEST

int main(void) {
  TCase *tc = tcase_create("sched_stats");
  tcase_add_test(tc, test_one_sm);
  tcase_add_test(tc, test_two_loads);
  tcase_add_test(tc, test_run);
  Suite *s = suite_create("rates");
  suite_add_tcase(s, tc);
  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
