/* check_spill.c - register spills (issue 4): the cap raises theoretical
 * occupancy, each touched spilled value costs an LDL and an STL (plus one
 * integer op) per iteration, spill instructions never count as the kernel's
 * FFMAs, useful throughput falls once spills start, and the spill footprint
 * overflows L1 at the expected fraction.  Uses models/h200.ini (via
 * WARPSIM_ROOT) so the numbers are the shipped model's. */
#include "input/kernel.h"
#include "input/model.h"
#include "run/rates.h"
#include "run/sim.h"
#include "run/synth.h"

#include <check.h>
#include <stdlib.h>

/* 96 registers, 32 live accumulators (one FFMA each per iteration) beside
 * 128 FFMAs over 4 chains and 3 loop instructions per iteration. */
static const gchar spill_kernel[] = "[launch]\n"
                                    "threads_per_block=128\n"
                                    "regs_per_thread=96\n"
                                    "[stream]\n"
                                    "iterations=8\n"
                                    "fma=128\n"
                                    "ilp=4\n"
                                    "overhead=3\n"
                                    "live_values=32\n";

static SmModel *h200(void) {
  g_autofree gchar *path = g_build_filename(g_getenv("WARPSIM_ROOT"), "models", "h200.ini", NULL);
  GError *err = NULL;
  SmModel *m = model_load(path, NULL, &err);
  ck_assert_msg(m != NULL, "%s", err ? err->message : "?");
  return m;
}

static void run_cap(const SmModel *m, guint cap, SimResult *r) {
  g_autofree gchar *set = g_strdup_printf("launch.max_regs=%u", cap);
  const gchar *sets[] = {set, NULL};
  GError *err = NULL;
  g_autoptr(Kernel) k = kernel_load_data(spill_kernel, "spill", sets, &err);
  ck_assert_msg(k != NULL, "%s", err ? err->message : "?");
  SimOptions opt = {.check_invariants = TRUE};
  ck_assert_msg(sim_run(m, k, &opt, r, &err), "%s", err ? err->message : "?");
}

/* Warps per SM allowed by registers on the H200 (4 SMSPs x 16384 registers,
 * 256-register units per warp): floor(16384 / (ceil(R*32/256)*256)) x 4,
 * in whole CTAs of 4 warps. R = 96 -> 5 x 4 = 20; 64 -> 8 x 4 = 32;
 * 40 -> 12 x 4 = 48; 32 and 24 -> 16 x 4 = 64 (the warp limit).
 * Spilled values per iteration (h200.ini [spill] loop_regs 8, extra_values
 * 13): the loop needs min(96, 32 + 8) = 40 registers; lacking x = 40 - cap,
 * ptxas spills min(32, x + clamp(x - 8, 0, 13)): cap 32 -> 8, 24 -> 16 + 8. */
static const struct {
  guint cap;
  guint warps;
  guint spilled;
} caps[] = {{0, 20, 0}, {96, 20, 0}, {64, 32, 0}, {40, 48, 0}, {32, 64, 8}, {24, 64, 24}};

START_TEST(test_spill_counts) {
  g_autoptr(SmModel) m = h200();
  SimResult r;
  run_cap(m, caps[_i].cap, &r);
  ck_assert_uint_eq(r.warps_per_sm, caps[_i].warps);
  ck_assert_uint_eq(r.spilled_per_iter, caps[_i].spilled);
  /* One full wave: this SM runs its resident CTAs once, 8 iterations each. */
  guint64 warps = caps[_i].warps;
  ck_assert_uint_eq(r.st.spill_insts, warps * 8 * 2 * caps[_i].spilled);
  ck_assert_uint_eq(r.st.ffma, warps * 8 * (128 + 32));
  /* Issued = body (160 FFMA + 3 loop + LDL and STL per spilled value) x 8 + EXIT. */
  ck_assert_uint_eq(r.st.issued, warps * ((160 + 3 + 2 * caps[_i].spilled) * 8 + 1));
}
END_TEST

START_TEST(test_spill_direction) {
  g_autoptr(SmModel) m = h200();
  SimResult none, light, heavy;
  run_cap(m, 0, &none);
  run_cap(m, 32, &light);
  run_cap(m, 24, &heavy);
  /* Occupancy rises from no cap to 32 and stays at 100 % at 24. */
  ck_assert_double_lt(none.occupancy_pct, light.occupancy_pct);
  ck_assert_double_le(light.occupancy_pct, heavy.occupancy_pct);
  /* Useful FFMA throughput falls once spills start: at cap 32, 64 warps, each
   * warp-iteration's 16 spill accesses of 128 B hold the SM's local-memory
   * port (33.3 B/cycle) for 61.5 cycles for 160 FFMAs: at most 2.6 per cycle,
   * against 3.9 (issue-bound) unspilled. */
  gdouble f0 = sim_fma_per_cycle(&none), f1 = sim_fma_per_cycle(&light);
  gdouble f2 = sim_fma_per_cycle(&heavy);
  ck_assert_double_lt(f1, 160.0 / (16 * 128 / 33.3) * 1.01);
  ck_assert_double_gt(f0, 3.5);
  ck_assert_double_lt(f2, f1);
}
END_TEST

START_TEST(test_spill_l1_overflow) {
  g_autoptr(SmModel) m = h200();
  SimResult r;
  /* Cap 32: 64 warps x 64 spilled registers x 128 B = 524288 B of local
   * memory; L1 = 262144 B less the shared-memory carveout the launch uses
   * (none asked for: the largest, 228 KB = 233472 B, as the occupancy API
   * assumes) = 28672 B, so 28672 / 524288 = 0.0546875 of spill accesses hit. */
  run_cap(m, 32, &r);
  ck_assert_double_eq_tol(r.spill_l1_hit, 0.0546875, 1e-9);
  /* Cap 48: no value is spilled in the loop, so every spill access hits. */
  run_cap(m, 48, &r);
  ck_assert_double_eq_tol(r.spill_l1_hit, 1.0, 1e-9);
}
END_TEST

/* synth_spilled_per_iter against the per-iteration LDL counts of ptxas's
 * code for 64 accumulators in a loop it does not unroll (spill_sass.csv,
 * rolled): caps 72, 64, 56, 48, 40, 32, 24 -> 0, 8, 24, 37, 45, 53, 61. */
START_TEST(test_spilled_per_iter) {
  static const guint cap[] = {72, 64, 56, 48, 40, 32, 24}, want[] = {0, 8, 24, 37, 45, 53, 61};
  Kernel k = {.regs_per_thread = 96, .live_values = 64};
  for (guint i = 0; i < G_N_ELEMENTS(cap); i++)
    ck_assert_uint_eq(synth_spilled_per_iter(&k, cap[i], 8, 13), want[i]);
  k.live_values = 0;
  ck_assert_uint_eq(synth_spilled_per_iter(&k, 24, 8, 13), 0);
}
END_TEST

static Suite *spill_suite(void) {
  Suite *s = suite_create("spill");
  TCase *tc = tcase_create("spill");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_spill_counts, 0, G_N_ELEMENTS(caps));
  tcase_add_test(tc, test_spill_direction);
  tcase_add_test(tc, test_spill_l1_overflow);
  tcase_add_test(tc, test_spilled_per_iter);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(spill_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
