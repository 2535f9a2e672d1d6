/* check_curve_stats.c - tests of sim/report/curve_stats.[ch] on tiny curves
 * whose answers are worked out by hand in the comments: the plateau (first of
 * equal maxima), the knee at 90 % of it, still rising (last step > 2 %), the
 * change from 50 % to 100 % occupancy, the fall from the plateau, and the
 * MAPE over all, some and no points; curves of zeros or negative values,
 * and a change past a double, give no knee, fall or change.  The CLI on
 * tiny CSVs is tests/cli_curve_stats.sh. */
#include "report/curve_stats.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

/* x = 4, 8, 12, 16 resident warps (occupancy 25, 50, 75, 100 %). */
static const gdouble occ[] = {25, 50, 75, 100};
static const gdouble rising[] = {1, 2, 2.8, 3.0};

/* Plateau 3.0 (index 3); 90 % of it is 2.7: 2 < 2.7 <= 2.8, so the knee is
 * index 2 (12 warps). */
START_TEST(test_plateau_knee) {
  ck_assert_int_eq(curve_plateau(rising, 4), 3);
  ck_assert_int_eq(curve_knee(rising, 4, CURVE_KNEE_FRACTION), 2);
  /* At 50 %: 1.5; 1 < 1.5 <= 2: index 1. */
  ck_assert_int_eq(curve_knee(rising, 4, 0.5), 1);
  /* Equal maxima: the first one (index 1). */
  const gdouble flat[] = {1, 3, 3};
  ck_assert_int_eq(curve_plateau(flat, 3), 1);
  /* No points: -1. */
  ck_assert_int_eq(curve_plateau(flat, 0), -1);
  ck_assert_int_eq(curve_knee(flat, 0, CURVE_KNEE_FRACTION), -1);
  /* All negative: plateau -1 (index 1), 90 % of it -0.9 is above every
   * point: no knee. */
  const gdouble neg[] = {-3, -1, -2};
  ck_assert_int_eq(curve_plateau(neg, 3), 1);
  ck_assert_int_eq(curve_knee(neg, 3, CURVE_KNEE_FRACTION), -1);
}
END_TEST

/* Last step 2.8 -> 3.0: 3.0 > 1.02 x 2.8 = 2.856, still rising; 3 -> 3.05:
 * 3.05 <= 1.02 x 3 = 3.06, not; one point: never. */
START_TEST(test_still_rising) {
  ck_assert(curve_still_rising(rising, 4, CURVE_RISING_FRACTION));
  const gdouble level[] = {1, 3, 3.05};
  ck_assert(!curve_still_rising(level, 3, CURVE_RISING_FRACTION));
  ck_assert(!curve_still_rising(level, 1, CURVE_RISING_FRACTION));
}
END_TEST

/* The largest occupancy <= 50 % is 50 % (y 2), the largest is 100 % (y 3):
 * 100 (3 / 2 - 1) = +50 %. */
START_TEST(test_change) {
  gdouble pct = -1;
  ck_assert(curve_change_pct(occ, rising, 4, CURVE_HALF_OCCUPANCY_PCT, &pct));
  ck_assert_double_eq_tol(pct, 50.0, 1e-12);
  /* Nothing at or below 50 %: no change (pct untouched). */
  const gdouble high[] = {75, 100};
  pct = -1;
  ck_assert(!curve_change_pct(high, rising, 2, CURVE_HALF_OCCUPANCY_PCT, &pct));
  ck_assert_double_eq(pct, -1);
  /* Nothing above the half point: none either. */
  ck_assert(!curve_change_pct(occ, rising, 2, CURVE_HALF_OCCUPANCY_PCT, &pct));
  /* y 0 at the half point: none (no division by 0). */
  const gdouble zero[] = {0, 0, 1, 2};
  ck_assert(!curve_change_pct(occ, zero, 4, CURVE_HALF_OCCUPANCY_PCT, &pct));
  /* 1e300 over 1e-320 is past a double: none (pct untouched), not inf. */
  const gdouble far[] = {1e-320, 1e-320, 1, 1e300};
  pct = -1;
  ck_assert(!curve_change_pct(occ, far, 4, CURVE_HALF_OCCUPANCY_PCT, &pct));
  ck_assert_double_eq(pct, -1);
}
END_TEST

/* 4, 5, 4: plateau 5, last 4: 100 (5 - 4) / 5 = 20 %; ending on the plateau: 0. */
START_TEST(test_fall) {
  const gdouble peak[] = {4, 5, 4};
  ck_assert_double_eq_tol(curve_fall_pct(peak, 3), 20.0, 1e-12);
  ck_assert_double_eq(curve_fall_pct(rising, 4), 0.0);
  ck_assert(isnan(curve_fall_pct(peak, 0)));
  /* A plateau of 0 (0 / 0) or below: no share of it, NaN. */
  const gdouble zeros[] = {0, 0}, neg[] = {-1, -2};
  ck_assert(isnan(curve_fall_pct(zeros, 2)));
  ck_assert(isnan(curve_fall_pct(neg, 2)));
}
END_TEST

/* Measured 2, 4, 5; simulated 2.2, 3, 5: relative errors 0.1, 0.25, 0.
 * All three: 100 x 0.35 / 3 = 11.667 %; the 1st and 3rd: 100 x
 * 0.1 / 2 = 5 %; none: NaN, count 0. */
START_TEST(test_mape) {
  const gdouble measured[] = {2, 4, 5}, simulated[] = {2.2, 3, 5};
  guint n = 99;
  ck_assert_double_eq_tol(curve_mape_pct(measured, simulated, NULL, 3, &n), 35.0 / 3, 1e-12);
  ck_assert_uint_eq(n, 3);
  const gboolean some[] = {TRUE, FALSE, TRUE}, none[] = {FALSE, FALSE, FALSE};
  ck_assert_double_eq_tol(curve_mape_pct(measured, simulated, some, 3, &n), 5.0, 1e-12);
  ck_assert_uint_eq(n, 2);
  ck_assert(isnan(curve_mape_pct(measured, simulated, none, 3, &n)));
  ck_assert_uint_eq(n, 0);
  /* A negative measurement counts by its magnitude: -2 vs -1: |1| / 2 = 50 %. */
  const gdouble neg_m[] = {-2}, neg_s[] = {-1};
  ck_assert_double_eq_tol(curve_mape_pct(neg_m, neg_s, NULL, 1, NULL), 50.0, 1e-12);
}
END_TEST

int main(void) {
  TCase *tc = tcase_create("curve_stats");
  tcase_add_test(tc, test_plateau_knee);
  tcase_add_test(tc, test_still_rising);
  tcase_add_test(tc, test_change);
  tcase_add_test(tc, test_fall);
  tcase_add_test(tc, test_mape);
  Suite *s = suite_create("curve_stats");
  suite_add_tcase(s, tc);
  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
