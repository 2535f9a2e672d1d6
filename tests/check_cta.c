/* check_cta.c - tests of sim/core/cta.c, CTA launch and warp retirement, on
 * a listing run on the test SM (sass_run.h): FADD (stall 1), EXIT.  A warp
 * launched at t issues FADD at t, EXIT at t + 1 and retires at t + 2 (no
 * memory to drain); a CTA retires with its last warp, and the next CTA of
 * the grid takes its slot in that cycle, its warps issuing at once. */
#include "sass_run.h"

#include <stdlib.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

/* clang-format off */
static const gchar listing[] = SASS_HEADER
    SASS_INS("0000", "FADD R1, R2, R3", "0x000fe20000000000")
    SASS_INS("0010", "EXIT", "0x000fe20000000000");
/* clang-format on */

static void waves_extra(const SassRun *r) {
  ck_assert_uint_eq(r->st.ctas, 3);
  ck_assert_uint_eq(r->st.active_warp_cycles, 6);
}

static void lanes_extra(const SassRun *r) {
  ck_assert_uint_eq(r->st.thread_insts, 96);
  ck_assert_uint_eq(r->st.smsp_active_cycles, 4);
}

static void early_extra(const SassRun *r) {
  ck_assert_uint_eq(r->st.active_warp_cycles, 3);
  ck_assert_uint_eq(r->st.thread_insts, 96);
}

static const SassCase cases[] = {
    /* Waves: one CTA slot, 3 CTAs of one warp: they run 0..2, 2..4, 4..6: 6
     * cycles, 3 CTAs, 6 active warp-cycles (one warp at a time), 6 issues. */
    {"waves", listing, {.ctas = 1, .blocks = 3}, 6, {[STALL_SELECTED] = 6}, waves_extra},
    /* A partial warp: 48 threads are 2 warps of 32 and 16 lanes, on SMSPs 0
     * and 1; each issues 2 instructions: 2 x 32 + 2 x 16 = 96 thread
     * instructions; both retire at 2. */
    {"partial warp", listing, {.warps = 2, .threads = 48}, 2, {[STALL_SELECTED] = 4}, lanes_extra},
    /* Early exit: of 2 warps per CTA the last starts at EXIT: it issues EXIT
     * at 0 and retires at 1; the first FADD 0, EXIT 1, retire 2.  3 issues,
     * 3 active warp-cycles, 2 x 32 + 1 x 32 thread instructions. */
    {"early exit", listing, {.warps = 2, .early_exit = 1}, 2, {[STALL_SELECTED] = 3}, early_extra},
};

START_TEST(test_case) {
  sassrun_case(&cases[_i]);
}
END_TEST

int main(void) {
  TCase *tc = tcase_create("cta");
  tcase_add_loop_test(tc, test_case, 0, G_N_ELEMENTS(cases));
  Suite *s = suite_create("cta");
  suite_add_tcase(s, tc);
  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
