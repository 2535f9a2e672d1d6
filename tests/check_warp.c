/* check_warp.c - tests of sim/core/warp.[ch]: a scoreboard barrier counts
 * its producers (it clears with the last one's result, in that one's
 * state), a read barrier, when an instruction's operands are ready and in
 * which state, the charging of a wait to the pending cause first in the
 * StallState priority cycle by cycle, and the tally of throttled warps. */
#include "core/rng.h"
#include "core/warp.h"

#include <check.h>
#include <stdlib.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

/* A warp of a 2-slot program whose instruction 0 reads slot 0 and waits on
 * SB0 and SB1, started at cycle 10. */
static Instr code[2];
static Program prog = {.code = code, .n = 2, .n_slots = 2};
static Warp w;

static void setup(void) {
  code[0] = (Instr){.op = OP_FFMA,
                    .n_src = 1,
                    .src = {0},
                    .wait_mask = 0x3,
                    .dst = INSTR_NO_SLOT,
                    .sb_write = INSTR_NO_SB,
                    .sb_read = INSTR_NO_SB};
  code[1] =
      (Instr){.op = OP_EXIT, .dst = INSTR_NO_SLOT, .sb_write = INSTR_NO_SB, .sb_read = INSTR_NO_SB};
  warp_init(&w, prog.n_slots);
  warp_start(&w, &prog, 0, 0, 1, 10);
}

static void teardown(void) {
  warp_clear(&w);
}

/* Producers of SB0 with results at 50 (long), 40 (short), 60 (short): the
 * barrier is set until 50 after the second (the first is not done), 60
 * after the third, in the third's state.  A read barrier SB1 until 45. */
START_TEST(test_barriers) {
  ck_assert_uint_eq(w.charged, 10);
  ck_assert_uint_eq(w.sb_base, 2);
  Instr p = {.dst = INSTR_NO_SLOT, .sb_write = 0};
  warp_scoreboard_write(&w, &p, 50, STALL_LONG_SCOREBOARD);
  warp_scoreboard_write(&w, &p, 40, STALL_SHORT_SCOREBOARD);
  ck_assert_uint_eq(w.sb.ready_at[2], 50);
  ck_assert_uint_eq(w.sb.wait_state[2], STALL_LONG_SCOREBOARD);
  warp_scoreboard_write(&w, &p, 60, STALL_SHORT_SCOREBOARD);
  ck_assert_uint_eq(w.sb.ready_at[2], 60);
  ck_assert_uint_eq(w.sb.wait_state[2], STALL_SHORT_SCOREBOARD);
  warp_scoreboard_read(&w, 1, 45, STALL_LONG_SCOREBOARD);
  ck_assert_uint_eq(w.sb.ready_at[3], 45);
  /* a value slot: ready at 30 */
  Instr v = {.dst = 0, .sb_write = INSTR_NO_SB};
  warp_scoreboard_write(&w, &v, 30, STALL_WAIT);
  ck_assert_uint_eq(w.sb.ready_at[0], 30);
}
END_TEST

/* Slot 0 ready at 30 (wait), SB0 at 60 (short), SB1 at 45 (long): the
 * instruction's operands are ready at 60, its state short_scoreboard; not
 * before 70: 70, in the preset state. */
START_TEST(test_operands_ready) {
  Instr v = {.dst = 0, .sb_write = INSTR_NO_SB}, b0 = {.dst = INSTR_NO_SLOT, .sb_write = 0};
  warp_scoreboard_write(&w, &v, 30, STALL_WAIT);
  warp_scoreboard_write(&w, &b0, 60, STALL_SHORT_SCOREBOARD);
  warp_scoreboard_read(&w, 1, 45, STALL_LONG_SCOREBOARD);
  guint8 state = STALL_WAIT;
  ck_assert_uint_eq(warp_operands_ready(&w, 20, &state), 60);
  ck_assert_uint_eq(state, STALL_SHORT_SCOREBOARD);
  state = STALL_BRANCH_RESOLVING;
  ck_assert_uint_eq(warp_operands_ready(&w, 70, &state), 70);
  ck_assert_uint_eq(state, STALL_BRANCH_RESOLVING);
}
END_TEST

/* Charging 10..59 with a branch resolving until 35 and those operands:
 * 10..34 branch_resolving (25 cycles: it comes before every scoreboard
 * state), 35..44 long_scoreboard (SB1, 10: long before short), 45..59
 * short_scoreboard (SB0, 15); slot 0 (wait, ready at 30) never wins. */
START_TEST(test_charge_priority) {
  Instr v = {.dst = 0, .sb_write = INSTR_NO_SB}, b0 = {.dst = INSTR_NO_SLOT, .sb_write = 0};
  warp_scoreboard_write(&w, &v, 30, STALL_WAIT);
  warp_scoreboard_write(&w, &b0, 60, STALL_SHORT_SCOREBOARD);
  warp_scoreboard_read(&w, 1, 45, STALL_LONG_SCOREBOARD);
  guint64 states[STALL_MAX] = {0};
  warp_charge_causes(&w, states, 35, STALL_BRANCH_RESOLVING, 60);
  ck_assert_uint_eq(states[STALL_BRANCH_RESOLVING], 25);
  ck_assert_uint_eq(states[STALL_LONG_SCOREBOARD], 10);
  ck_assert_uint_eq(states[STALL_SHORT_SCOREBOARD], 15);
  ck_assert_uint_eq(states[STALL_WAIT], 0);
  ck_assert_uint_eq(w.charged, 60);
  /* charging up to a cycle already charged: nothing */
  warp_charge(&w, states, 50, STALL_WAIT);
  ck_assert_uint_eq(states[STALL_WAIT], 0);
}
END_TEST

/* The charging against the rule itself, cycle by cycle: each cycle from
 * `charged` on goes to the state first in the priority among the causes
 * still pending in it (the hold, slot 0, SB0, SB1: ready after that cycle),
 * and charging stops at the first cycle with none or at `until`.  2000
 * random waits (ends 0..79, four states, a hold or none, `until` 20..99). */
START_TEST(test_charge_rule) {
  static const guint8 st[] = {STALL_BRANCH_RESOLVING, STALL_LONG_SCOREBOARD, STALL_SHORT_SCOREBOARD,
                              STALL_WAIT};
  SimRng r;
  sim_rng_init(&r, 3);
  for (guint n = 0; n < 2000; n++) {
    warp_start(&w, &prog, 0, 0, 1, 10);
    SimCycle end[4];
    guint8 state[4];
    for (guint i = 0; i < 3; i++) { /* slot 0, SB0, SB1 */
      guint e = i == 0 ? 0 : 1 + i;
      end[i] = w.sb.ready_at[e] = sim_rng_below(&r, 80);
      state[i] = w.sb.wait_state[e] = st[sim_rng_below(&r, 4)];
    }
    end[3] = sim_rng_below(&r, 2) ? sim_rng_below(&r, 80) : 0; /* the hold */
    state[3] = st[sim_rng_below(&r, 4)];
    SimCycle until = 20 + sim_rng_below(&r, 80);
    guint64 want[STALL_MAX] = {0}, got[STALL_MAX] = {0};
    SimCycle t = 10;
    for (; t < until; t++) {
      guint best = STALL_MAX;
      for (guint i = 0; i < 4; i++)
        if (end[i] > t && state[i] < best)
          best = state[i];
      if (best == STALL_MAX)
        break;
      want[best]++;
    }
    warp_charge_causes(&w, got, end[3], state[3], until);
    ck_assert_mem_eq(got, want, sizeof got);
    ck_assert_uint_eq(w.charged, t);
  }
}
END_TEST

/* 2 warps at the SM's lines-in-flight cap charged long_scoreboard (loads),
 * 3 lg_throttle (stores) and 1 mio_throttle in a cycle that holds for 5:
 * 10, 15 and 5 warp-cycles, the first two in lg_load_sm and lg_throttle_sm
 * until stall_tally_close adds them to their states; the tally is empty
 * again (a second flush charges nothing). */
START_TEST(test_tally) {
  StallTally t = {0};
  SimStats st = {0};
  stall_tally_add(&t, STALL_LONG_SCOREBOARD, 2);
  stall_tally_add(&t, STALL_LG_THROTTLE, 3);
  stall_tally_add(&t, STALL_MIO_THROTTLE, 1);
  stall_tally_flush(&t, &st, 5);
  ck_assert_uint_eq(st.lg_load_sm, 10);
  ck_assert_uint_eq(st.lg_throttle_sm, 15);
  ck_assert_uint_eq(st.state[STALL_LONG_SCOREBOARD], 0);
  ck_assert_uint_eq(st.state[STALL_MIO_THROTTLE], 5);
  ck_assert_uint_eq(t.any, 0);
  stall_tally_flush(&t, &st, 5);
  ck_assert_uint_eq(st.lg_load_sm, 10);
  ck_assert_uint_eq(st.state[STALL_MIO_THROTTLE], 5);
  st.state[STALL_LONG_SCOREBOARD] = 7; /* a load's own wait, charged when it slept */
  stall_tally_close(&st);
  ck_assert_uint_eq(st.state[STALL_LONG_SCOREBOARD], 17);
  ck_assert_uint_eq(st.state[STALL_LG_THROTTLE], 15);
}
END_TEST

int main(void) {
  TCase *tc = tcase_create("warp");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_barriers);
  tcase_add_test(tc, test_operands_ready);
  tcase_add_test(tc, test_charge_priority);
  tcase_add_test(tc, test_charge_rule);
  tcase_add_test(tc, test_tally);
  Suite *s = suite_create("warp");
  suite_add_tcase(s, tc);
  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
