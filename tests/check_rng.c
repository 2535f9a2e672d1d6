/* check_rng.c - tests of sim/core/rng.h: the stream for seed 0 against the
 * published first outputs of SplitMix64 (S. Vigna's public-domain
 * splitmix64.c, https://prng.di.unimi.it/splitmix64.c, state 0:
 * 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f,
 * 0xf88bb8a8724c81ec),
 * the double and the bounded integer derived from them by hand (top 53 bits
 * x 2^-53; top 32 bits x n / 2^32), and determinism and spread per seed. */
#include "core/rng.h"

#include <check.h>
#include <stdlib.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

static const guint64 seed0[] = {0xe220a8397b1dcdafULL, 0x6e789e6aa1b965f4ULL, 0x06c45d188009454fULL,
                                0xf88bb8a8724c81ecULL};

START_TEST(test_reference) {
  SimRng r;
  sim_rng_init(&r, 0);
  for (guint i = 0; i < G_N_ELEMENTS(seed0); i++)
    ck_assert_msg(sim_rng_next(&r) == seed0[i], "output %u differs from splitmix64.c", i);
}
END_TEST

/* 0xe220a8397b1dcdaf >> 11 = 0x1c4415072f63b9, / 2^53 = 0.8833108082136426;
 * 0x6e789e6aa1b965f4: 0.43152799704850997. */
START_TEST(test_double) {
  SimRng r;
  sim_rng_init(&r, 0);
  ck_assert_double_eq_tol(sim_rng_double(&r), 0.8833108082136426, 1e-16);
  ck_assert_double_eq_tol(sim_rng_double(&r), 0.43152799704850997, 1e-16);
}
END_TEST

/* n = 17 (the H200 model's DRAM channels): 0xe220a839 x 17 / 2^32 = 15.02,
 * 0x6e789e6a: 7.34, 0x06c45d18: 0.45, 0xf88bb8a8: 16.50; n = 1 is always 0. */
START_TEST(test_below) {
  SimRng r;
  sim_rng_init(&r, 0);
  const guint want[] = {15, 7, 0, 16};
  for (guint i = 0; i < G_N_ELEMENTS(want); i++)
    ck_assert_uint_eq(sim_rng_below(&r, 17), want[i]);
  for (guint i = 0; i < 100; i++)
    ck_assert_uint_eq(sim_rng_below(&r, 1), 0);
}
END_TEST

/* The same seed gives the same stream; seeds 1 and 2 share no output among
 * the first 1000; 170,000 draws below 17 land 10,000 +- 4 % in each channel
 * (binomial standard deviation 97, so +- 4 % is over 4 sigma). */
START_TEST(test_streams) {
  SimRng a, b;
  sim_rng_init(&a, 1);
  sim_rng_init(&b, 1);
  for (guint i = 0; i < 1000; i++)
    ck_assert(sim_rng_next(&a) == sim_rng_next(&b));
  guint64 first[1000];
  sim_rng_init(&a, 1);
  sim_rng_init(&b, 2);
  for (guint i = 0; i < 1000; i++)
    first[i] = sim_rng_next(&a);
  /* one assertion for the million comparisons: Check's per-call cost made
   * this test run past its timeout under the sanitizers */
  guint shared = 0;
  for (guint i = 0; i < 1000; i++) {
    guint64 x = sim_rng_next(&b);
    for (guint j = 0; j < 1000; j++)
      shared += x == first[j];
  }
  ck_assert_msg(shared == 0, "seeds 1 and 2 share %u of their first 1000 outputs", shared);
  guint count[17] = {0};
  sim_rng_init(&a, 7);
  for (guint i = 0; i < 170000; i++)
    count[sim_rng_below(&a, 17)]++;
  for (guint c = 0; c < 17; c++)
    ck_assert_msg(count[c] > 9600 && count[c] < 10400, "channel %u drawn %u times", c, count[c]);
}
END_TEST

int main(void) {
  TCase *tc = tcase_create("splitmix64");
  tcase_add_test(tc, test_reference);
  tcase_add_test(tc, test_double);
  tcase_add_test(tc, test_below);
  tcase_add_test(tc, test_streams);
  tcase_set_timeout(tc, 60); /* seconds: the sanitizer build is 5-10x slower */
  Suite *s = suite_create("rng");
  suite_add_tcase(s, tc);

  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
