/* check_profile_anchor.c - tests of sim/report/profile_anchor.[ch]: the
 * memory time factor's first step, its secant step and its range, and the
 * checks that drop it (the range; the warp cycles per issued instruction or
 * the DRAM throughput of the anchored profiled launch moving away from the
 * profile; the shape next to the profiled launch changed), the level
 * anchor that takes the place of a factor that is not memory time, on agreements
 * and cycles filled by hand, with every expected value worked
 * out in the comments.  The CLI on real kernels is tests/cli_profile_agree.sh. */
#include "report/profile_anchor.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

/* A model with only the keys the factor scales: latencies 38 (L1), 305
 * (L2), 700 (DRAM), 0 (DRAM streaming: unset stays 0); bandwidths 48 (L2)
 * and 20 (DRAM) bytes/cycle. */
static SmModel tiny_model(void) {
  SmModel m = {0};
  m.l1.latency = 38;
  m.l2.latency = 305;
  m.dram.latency = 700;
  m.dram.stream_latency = 0;
  m.l2.bytes_per_cycle = 48.0;
  m.dram.bytes_per_cycle = 20.0;
  return m;
}

/* An agreement whose pure simulation is `ratio` x the profile's SM active
 * cycles, with a memory-wait share `share` (split 3:1 long_scoreboard :
 * lg_throttle), warp cycles per issued instruction profiled / simulated,
 * DRAM throughput profiled / simulated %, achieved occupancy 50 / 50 %. */
static ProfileAgreement agreement(gdouble ratio, gdouble share, gdouble wcpi_p, gdouble wcpi_s,
                                  gdouble dram_p, gdouble dram_s) {
  ProfileAgreement a = {.present = TRUE, .cycles_ratio = ratio};
  for (guint i = 0; i < AGREE_METRIC_MAX; i++)
    a.profiled[i] = a.simulated[i] = NAN;
  a.state_simulated_pct[NCU_STALL_LONG_SB] = 75.0 * share;
  a.state_simulated_pct[NCU_STALL_LG] = 25.0 * share;
  a.memory_wait_pct = 100.0 * share; /* their sum (no drain): what the factor reads */
  a.profiled[AGREE_WARP_CPI] = wcpi_p;
  a.simulated[AGREE_WARP_CPI] = wcpi_s;
  a.profiled[AGREE_DRAM_PCT] = dram_p;
  a.simulated[AGREE_DRAM_PCT] = dram_s;
  a.profiled[AGREE_ACHIEVED_OCC] = a.simulated[AGREE_ACHIEVED_OCC] = 50.0;
  return a;
}

/* `an` derived from `a` on `m`, applied. */
static void derive_applied(const SmModel *m, const ProfileAgreement *a, ProfileAnchor *an) {
  profile_anchor_derive(m, a, an);
  ck_assert(an->applied);
}

/* Pure 1.25 x the profile, share 0.5: profiled/simulated 0.8, f1 = 1 +
 * (0.8 - 1) / 0.5 = 0.6.  Latencies x 0.6: 38 -> 22.8 -> 23, 305 -> 183,
 * 700 -> 420, 0 stays 0; bandwidths / 0.6: 48 -> 80, 20 -> 33.33.  The
 * secant with c1 = 0.9 at f1: f = 1 + (0.6 - 1)(1 - 1.25) / (0.9 - 1.25)
 * = 1 - 0.1 / 0.35 = 0.714286; L2 latency 305 x 0.714286 = 217.86 -> 218. */
START_TEST(test_first_step_and_secant) {
  SmModel m = tiny_model();
  ProfileAgreement a = agreement(1.25, 0.5, 20, 25, 50, 60);
  ProfileAnchor an;
  derive_applied(&m, &a, &an);
  ck_assert(!an.clamped);
  ck_assert_double_eq_tol(an.memory_share, 0.5, 1e-12);
  ck_assert_double_eq_tol(an.first_factor, 0.6, 1e-12);
  ck_assert_uint_eq(an.model.l1.latency, 23);
  ck_assert_uint_eq(an.model.l2.latency, 183);
  ck_assert_uint_eq(an.model.dram.latency, 420);
  ck_assert_uint_eq(an.model.dram.stream_latency, 0);
  ck_assert_double_eq_tol(an.model.l2.bytes_per_cycle, 80.0, 1e-9);
  ck_assert_double_eq_tol(an.model.dram.bytes_per_cycle, 20.0 / 0.6, 1e-9);
  ProfileAgreement first = agreement(0.9, 0.5, 20, 22, 50, 60);
  profile_anchor_refine(&m, &an, &first);
  ck_assert_double_eq_tol(an.memory_factor, 1.0 - 0.1 / 0.35, 1e-12);
  ck_assert_double_eq_tol(an.derived_factor, an.memory_factor, 1e-15);
  ck_assert_uint_eq(an.model.l2.latency, 218);
  /* the pure model is untouched */
  ck_assert_uint_eq(m.l2.latency, 305);
}
END_TEST

/* Share 0.19 < 0.20: not anchored.  Pure 0.5 x the profile, share 0.5:
 * f1 = 1 + (2 - 1) / 0.5 = 3, clamped to 2; the check then drops it
 * (the range) and gives the pure model back. */
START_TEST(test_share_and_range) {
  SmModel m = tiny_model();
  ProfileAnchor an;
  ProfileAgreement low = agreement(1.25, 0.19, 20, 25, 50, 60);
  profile_anchor_derive(&m, &low, &an);
  ck_assert(!an.applied);
  ck_assert(!an.refused);
  ProfileAgreement far = agreement(0.5, 0.5, 20, 10, 50, 60);
  profile_anchor_derive(&m, &far, &an);
  ck_assert(an.applied);
  ck_assert(an.clamped);
  ck_assert_double_eq_tol(an.memory_factor, 2.0, 1e-12);
  ck_assert_uint_eq(an.model.l2.latency, 610);
  ck_assert(!profile_anchor_check(&m, &an, &far, NULL));
  ck_assert(an.refused);
  ck_assert(!an.applied);
  ck_assert_ptr_nonnull(strstr(an.why, "range 0.5..2"));
  ck_assert_double_eq_tol(an.memory_factor, 1.0, 1e-15);
  ck_assert_double_eq_tol(an.derived_factor, 2.0, 1e-12);
  ck_assert_uint_eq(an.model.l2.latency, 305);
  g_autofree gchar *w = profile_anchor_warning(&an);
  ck_assert_ptr_nonnull(
      strstr(w, "not anchored at the profile (derived memory_time_factor 2.0000)"));
  ck_assert_ptr_nonnull(strstr(w, "range 0.5..2: a mismatch that large is not this kernel's memory "
                                  "time, so the curve is the pure model's"));
}
END_TEST

/* The rule: farther than the pure model and more than the tolerance off.
 * 10 / 12 / 13: 3 > 2 -> away; 10 / 12 / 11: 1 < 2 -> not; equal distance
 * (10 / 12 / 8: 2 = 2) -> not.  DRAM with 10 % of the profile: transpose_pad
 * 53.7 / 70.28 / 89.52: 35.82 > 16.58 and > 5.37 -> away; histo 76.4 /
 * 69.39 / 79.01: 2.61 < 7.01 -> not; 48.4 / 40 / 52: 3.6 < 8.4 -> not;
 * 48.4 / 50 / 53: 4.6 > 1.6 but < 4.84 -> not.  NaN: never. */
START_TEST(test_moves_away) {
  ck_assert(profile_anchor_moves_away(10, 12, 13, 0));
  ck_assert(!profile_anchor_moves_away(10, 12, 11, 0));
  ck_assert(!profile_anchor_moves_away(10, 12, 8, 0));
  ck_assert(profile_anchor_moves_away(53.7, 70.28, 89.52, 5.37));
  ck_assert(!profile_anchor_moves_away(76.4, 69.39, 79.01, 7.64));
  ck_assert(!profile_anchor_moves_away(48.4, 40, 52, 4.84));
  ck_assert(!profile_anchor_moves_away(48.4, 50, 53, 4.84));
  ck_assert(!profile_anchor_moves_away(NAN, 50, 53, 0));
  ck_assert(!profile_anchor_moves_away(48.4, 50, NAN, 0));
}
END_TEST

/* divg's numbers: warp cycles per issued instruction profiled 8.47, pure
 * 8.62, anchored 11.09: |2.62| > |0.15| -> dropped, the occupancy named. */
START_TEST(test_check_warp_cycles) {
  SmModel m = tiny_model();
  ProfileAgreement pure = agreement(0.787, 0.414, 8.47, 8.62, 16.56, 25.03);
  pure.profiled[AGREE_ACHIEVED_OCC] = 38.12;
  pure.simulated[AGREE_ACHIEVED_OCC] = 49.22;
  ProfileAnchor an;
  profile_anchor_derive(&m, &pure, &an);
  ck_assert(an.applied);
  ProfileAgreement anchored = agreement(1.0, 0.5, 8.47, 11.09, 16.56, 19.7);
  ck_assert(!profile_anchor_check(&m, &an, &pure, &anchored));
  ck_assert_ptr_nonnull(strstr(an.why, "warp cycles per issued instruction moves away"));
  ck_assert_double_eq_tol(an.wcpi_anchored, 11.09, 1e-12);
  ck_assert_double_eq_tol(an.occupancy_profiled, 38.12, 1e-12);
  ck_assert_uint_eq(an.model.dram.latency, 700);
}
END_TEST

/* transpose_pad's numbers: WCPI 26.18 / 34.03 / 26.76 (toward), DRAM 53.7
 * / 70.28 / 89.52 (away by 35.8 points > 5.37): dropped for the DRAM.
 * histo's: WCPI 42.89 / 49.47 / 43.27, DRAM 76.4 / 69.39 / 79.01: kept,
 * the model still the anchored one (DRAM latency 700 x f). */
START_TEST(test_check_dram) {
  SmModel m = tiny_model();
  ProfileAnchor an;
  ProfileAgreement tp = agreement(1.2743, 0.60, 26.18, 34.03, 53.7, 70.28);
  profile_anchor_derive(&m, &tp, &an);
  ProfileAgreement tpa = agreement(1.0059, 0.60, 26.18, 26.76, 53.7, 89.52);
  ck_assert(!profile_anchor_check(&m, &an, &tp, &tpa));
  ck_assert_ptr_nonnull(strstr(an.why, "DRAM throughput moves away"));
  ck_assert_double_eq_tol(an.dram_anchored, 89.52, 1e-12);
  ProfileAgreement hi = agreement(1.1355, 0.938, 42.89, 49.47, 76.4, 69.39);
  profile_anchor_derive(&m, &hi, &an);
  /* f1 = 1 + (1 / 1.1355 - 1) / 0.938 = 0.872784 */
  ck_assert_double_eq_tol(an.first_factor, 1.0 + (1.0 / 1.1355 - 1.0) / 0.938, 1e-12);
  ProfileAgreement hia = agreement(0.9972, 0.93, 42.89, 43.27, 76.4, 79.01);
  ck_assert(profile_anchor_check(&m, &an, &hi, &hia));
  ck_assert(an.applied);
  ck_assert(!an.refused);
  ck_assert_uint_eq(an.model.dram.latency, (guint)lround(700 * an.memory_factor));
  ck_assert_ptr_null(profile_anchor_warning(&an));
}
END_TEST

/* The shape check on treduce's SM active cycles at B = 4, 8, 16 (warm,
 * results/validation/real.csv): pure 45764, 90215, 143193; anchored 43794,
 * 83531, 143179.  Gains 4 -> 8: pure 2 x 45764 / 90215 = 1.014554, anchored
 * 2 x 43794 / 83531 = 1.048569 (x 1.033527: within 1.05); 8 -> 16: pure 2 x
 * 90215 / 143193 = 1.260048, anchored 2 x 83531 / 143179 = 1.166805 (x
 * 0.926001 < 1 / 1.05 = 0.952381): dropped, the pure model back.  saxpy's
 * (pure 241486, 480250, 921995; anchored 219665, 435916, 843339): 4 -> 8
 * 1.005668 / 1.007832, 8 -> 16 1.041763 / 1.033786 (x 1.002152, x
 * 0.992343): kept.  A doubling not possible (NaN at 2B, rowsm) or B = 1
 * (no B/2) is not checked. */
START_TEST(test_check_shape) {
  SmModel m = tiny_model();
  ProfileAgreement a = agreement(1.094, 0.447, 20.69, 22.31, 32.7, 31.67);
  ProfileAnchor an;
  derive_applied(&m, &a, &an);
  const guint b[3] = {4, 8, 16};
  ck_assert(!profile_anchor_check_shape(&m, &an, b, (const gdouble[]){45764, 90215, 143193},
                                        (const gdouble[]){43794, 83531, 143179}));
  ck_assert(an.refused);
  ck_assert_ptr_nonnull(strstr(an.why, "would change the curve's shape"));
  ck_assert_double_eq_tol(an.shape_gain_pure[0], 2.0 * 45764 / 90215, 1e-12);
  ck_assert_double_eq_tol(an.shape_gain_anchored[0], 1.048569, 1e-6);
  ck_assert_double_eq_tol(an.shape_gain_pure[1], 1.260048, 1e-6);
  ck_assert_double_eq_tol(an.shape_gain_anchored[1], 1.166805, 1e-6);
  ck_assert_uint_eq(an.shape_blocks[1][0], 8);
  ck_assert_uint_eq(an.shape_blocks[1][1], 16);
  ck_assert_uint_eq(an.model.l2.latency, 305);
  ck_assert_double_eq_tol(an.memory_factor, 1.0, 1e-15);
  /* dropped: the check says so on the warning line too */
  g_autofree gchar *w = profile_anchor_warning(&an);
  ck_assert_ptr_nonnull(strstr(w, "doubling the resident CTAs next to the profiled launch"));

  ProfileAgreement sx = agreement(1.0957, 0.785, 131.37, 146.06, 74.59, 68.69);
  profile_anchor_derive(&m, &sx, &an);
  ck_assert(profile_anchor_check_shape(&m, &an, b, (const gdouble[]){241486, 480250, 921995},
                                       (const gdouble[]){219665, 435916, 843339}));
  ck_assert(an.applied);
  ck_assert_double_eq_tol(an.shape_gain_pure[1], 1.041763, 1e-6);
  ck_assert_double_eq_tol(an.shape_gain_anchored[1], 1.033786, 1e-6);
  ck_assert_uint_ne(an.model.l2.latency, 305);

  /* 2B not possible: only 4 -> 8 checked (treduce's, within); B = 1: no B/2 */
  profile_anchor_derive(&m, &a, &an);
  ck_assert(profile_anchor_check_shape(&m, &an, b, (const gdouble[]){45764, 90215, NAN},
                                       (const gdouble[]){43794, 83531, NAN}));
  ck_assert(isnan(an.shape_gain_pure[1]));
  const guint one[3] = {0, 1, 2};
  profile_anchor_derive(&m, &a, &an);
  ck_assert(profile_anchor_check_shape(&m, &an, one, (const gdouble[]){NAN, 1000, 1000},
                                       (const gdouble[]){NAN, 900, 900}));
  ck_assert(isnan(an.shape_gain_pure[0]));
  ck_assert_double_eq_tol(an.shape_gain_pure[1], 2.0, 1e-12);
}
END_TEST

/* The level anchor.  Pure 0.8 x the profile (nbody's side: too fast),
 * share 0.19 (not derived), outside the warning's band: level, t = 1 /
 * 0.8 = 1.25, the model the pure one, no "not anchored" warning.  The
 * same within the band (warn FALSE): none.  Pure 0.5 x, share 0.5 (f1 =
 * 3, clamped, dropped by the range): level, t = 2; dropped by the
 * per-warp time: level.  transpose_pad's
 * agreement (dropped by the DRAM bytes, not the range): none.  An applied
 * memory factor (histo's): none. */
START_TEST(test_level) {
  SmModel m = tiny_model();
  ProfileAnchor an;
  ProfileAgreement low = agreement(0.8, 0.19, 20, 16, 50, 60);
  low.warn = TRUE;
  profile_anchor_derive(&m, &low, &an);
  ck_assert(profile_anchor_level(&an, &low));
  ck_assert(an.level);
  ck_assert(!an.applied);
  ck_assert_double_eq_tol(an.time_factor, 1.25, 1e-12);
  ck_assert_uint_eq(an.model.l2.latency, 305);
  ck_assert_ptr_null(profile_anchor_warning(&an));
  low.warn = FALSE;
  profile_anchor_derive(&m, &low, &an);
  ck_assert(!profile_anchor_level(&an, &low));
  ck_assert(!an.level);
  ck_assert_double_eq_tol(an.time_factor, 1.0, 1e-15);
  ProfileAgreement far = agreement(0.5, 0.5, 20, 10, 50, 60);
  far.warn = TRUE;
  profile_anchor_derive(&m, &far, &an);
  ck_assert(!profile_anchor_check(&m, &an, &far, NULL));
  ck_assert(profile_anchor_level(&an, &far));
  ck_assert_double_eq_tol(an.time_factor, 2.0, 1e-12);
  ProfileAgreement tp = agreement(1.2743, 0.60, 26.18, 34.03, 53.7, 70.28);
  tp.warn = TRUE;
  profile_anchor_derive(&m, &tp, &an);
  ProfileAgreement tpa = agreement(1.0059, 0.60, 26.18, 26.76, 53.7, 89.52);
  ck_assert(!profile_anchor_check(&m, &an, &tp, &tpa));
  ck_assert(!profile_anchor_level(&an, &tp));
  ck_assert(!an.level);
  /* pure 1.15 x, share 0.6 (f1 = 1 + (1 / 1.15 - 1) / 0.6 = 0.783, in
   * range), dropped by the per-warp time (WCPI 41.88 profiled, 44.38 pure,
   * 48.0 anchored: farther): level, t = 1 / 1.15 */
  ProfileAgreement sp = agreement(1.15, 0.6, 41.88, 44.38, 50, 50);
  sp.warn = TRUE;
  profile_anchor_derive(&m, &sp, &an);
  ProfileAgreement spa = agreement(1.0, 0.6, 41.88, 48.0, 50, 50);
  ck_assert(!profile_anchor_check(&m, &an, &sp, &spa));
  ck_assert(an.not_memory);
  ck_assert(profile_anchor_level(&an, &sp));
  ck_assert_double_eq_tol(an.time_factor, 1.0 / 1.15, 1e-12);
  ProfileAgreement hi = agreement(1.1355, 0.938, 42.89, 49.47, 76.4, 69.39);
  hi.warn = TRUE;
  profile_anchor_derive(&m, &hi, &an);
  ProfileAgreement hia = agreement(0.9972, 0.93, 42.89, 43.27, 76.4, 79.01);
  ck_assert(profile_anchor_check(&m, &an, &hi, &hia));
  ck_assert(!profile_anchor_level(&an, &hi));
}
END_TEST

int main(void) {
  TCase *tc = tcase_create("profile_anchor");
  tcase_add_test(tc, test_first_step_and_secant);
  tcase_add_test(tc, test_share_and_range);
  tcase_add_test(tc, test_moves_away);
  tcase_add_test(tc, test_check_warp_cycles);
  tcase_add_test(tc, test_check_dram);
  tcase_add_test(tc, test_check_shape);
  tcase_add_test(tc, test_level);
  Suite *s = suite_create("profile_anchor");
  suite_add_tcase(s, tc);
  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
