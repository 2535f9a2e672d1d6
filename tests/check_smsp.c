/* check_smsp.c - tests of sim/core/smsp.[ch]: the issue class of each
 * opcode class, the SM-wide units' state (lines-in-flight cap full, the
 * shared-memory unit's queue), and why a class cannot issue, in the
 * documented priority: the lines-in-flight cap (long_scoreboard for a load,
 * lg_throttle for a store or atomic), mio_throttle, math_pipe_throttle,
 * dispatch_stall (stats.h), each with the cycle it clears; and the yield
 * hint's effect on the scheduler's pick. */
#include "core/smsp.h"

#include <check.h>
#include <stdlib.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

START_TEST(test_op_class) {
  ck_assert_uint_eq(smsp_op_class[OP_FFMA], CLS_FMA);
  ck_assert_uint_eq(smsp_op_class[OP_FP32], CLS_FMA);
  ck_assert_uint_eq(smsp_op_class[OP_IALU], CLS_ALU);
  ck_assert_uint_eq(smsp_op_class[OP_BRA], CLS_ALU);
  ck_assert_uint_eq(smsp_op_class[OP_MUFU], CLS_SFU);
  ck_assert_uint_eq(smsp_op_class[OP_CONV], CLS_SFU);
  ck_assert_uint_eq(smsp_op_class[OP_LDG], CLS_LOAD);
  ck_assert_uint_eq(smsp_op_class[OP_STG], CLS_STORE);
  ck_assert_uint_eq(smsp_op_class[OP_LDS], CLS_SMEM);
  ck_assert_uint_eq(smsp_op_class[OP_BAR], CLS_NONE);
}
END_TEST

/* Two lines in flight until 100 with a cap of 2: full, so the units
 * throttle until a line completes (busy_until never); the shared-memory
 * unit busy until 50 with 10 cycles of queue: an LDS may issue from 40.
 * At 3: FMA pipe busy until 5 -> math_pipe_throttle, free at 5; a load with
 * the cap full and the LSU busy until 7 -> the cap (first), charged
 * long_scoreboard (the H200's state), free at 100; a global atomic ->
 * lg_throttle at 100; a store that holds no lines -> the LSU: mio_throttle
 * at 7; with store_held, lg_throttle at 100; LDS -> mio_throttle at 40; an
 * integer op with its pipe free but dispatch busy until 9 -> dispatch_stall
 * at 9. */
START_TEST(test_blocked) {
  SmUnits u = {.max_inflight = 2, .smem_free = 50, .smem_queue = 10};
  count_queue_init(&u.inflight);
  count_queue_add(&u.inflight, 100, 2);
  smsp_units_update(&u);
  ck_assert(u.lg_full);
  ck_assert_uint_eq(u.smem_block, 40);
  ck_assert_uint_eq(u.busy_until, SIM_CYCLE_NEVER);
  Smsp s;
  smsp_init(&s);
  s.pipe_free[PIPE_FMA] = 5;
  s.pipe_free[PIPE_LSU] = 7;
  SimCycle at = 0;
  ck_assert_int_eq(smsp_class_blocked(&s, &u, CLS_FMA, 3, &at), STALL_MATH_PIPE_THROTTLE);
  ck_assert_uint_eq(at, 5);
  ck_assert_int_eq(smsp_class_blocked(&s, &u, CLS_LOAD, 3, &at), STALL_LONG_SCOREBOARD);
  ck_assert_uint_eq(at, 100);
  at = 0;
  ck_assert_int_eq(smsp_class_blocked(&s, &u, CLS_ATOMIC, 3, &at), STALL_LG_THROTTLE);
  ck_assert_uint_eq(at, 100);
  ck_assert_int_eq(smsp_class_blocked(&s, &u, CLS_STORE, 3, &at), STALL_MIO_THROTTLE);
  ck_assert_uint_eq(at, 7);
  u.store_held = ~G_GUINT64_CONSTANT(0);
  ck_assert_int_eq(smsp_class_blocked(&s, &u, CLS_STORE, 3, &at), STALL_LG_THROTTLE);
  ck_assert_uint_eq(at, 100);
  ck_assert_int_eq(smsp_class_blocked(&s, &u, CLS_SMEM, 3, &at), STALL_MIO_THROTTLE);
  ck_assert_uint_eq(at, 40);
  s.dispatch_free = 9;
  ck_assert_int_eq(smsp_class_blocked(&s, &u, CLS_ALU, 3, &at), STALL_DISPATCH_STALL);
  ck_assert_uint_eq(at, 9);
  /* at 9 nothing but the load (lines) and LDS (queue) is held */
  ck_assert_int_eq(smsp_class_blocked(&s, &u, CLS_ALU, 9, &at), STALL_SELECTED);
  ck_assert_int_eq(smsp_class_blocked(&s, &u, CLS_FMA, 9, &at), STALL_SELECTED);
  /* the lines back: not full; the units throttle until the LDS may issue */
  count_queue_complete(&u.inflight, 100);
  smsp_units_update(&u);
  ck_assert(!u.lg_full);
  ck_assert_uint_eq(u.busy_until, 40);
  count_queue_clear(&u.inflight);
}
END_TEST

/* smsp_unthrottled with the cap full (2 lines until 100, cap 2), stores
 * holding lines and the shared-memory unit free at 3: ready warps set by
 * hand, slots 0 and 1 loads, 2 an atomic, 3 and 4 stores, 5 an FMA.  Held:
 * the 2 loads (long_scoreboard), the atomic and the 2 stores (lg_throttle:
 * 1 + 2 = 3); the FMA is the one candidate (bit 5); *next lowers to the
 * cap's next free cycle, 100.  Without store_held the stores are no
 * longer held: lg_throttle 1 (the atomic), candidates the stores and the
 * FMA (bits 3, 4, 5 = 0x38). */
START_TEST(test_unthrottled) {
  SmUnits u = {.max_inflight = 2, .store_held = ~G_GUINT64_CONSTANT(0)};
  count_queue_init(&u.inflight);
  count_queue_add(&u.inflight, 100, 2);
  smsp_units_update(&u);
  Smsp s;
  smsp_init(&s);
  s.ready[CLS_LOAD] = 0x3;
  s.ready[CLS_ATOMIC] = 0x4;
  s.ready[CLS_STORE] = 0x18;
  s.ready[CLS_FMA] = 0x20;
  s.ready_all = 0x3f;
  StallTally t = {0};
  SimCycle next = SIM_CYCLE_NEVER;
  guint64 cand = 0;
  smsp_unthrottled(&s, &u, 3, &next, &t, &cand);
  ck_assert_uint_eq(t.blocked[STALL_LONG_SCOREBOARD], 2);
  ck_assert_uint_eq(t.blocked[STALL_LG_THROTTLE], 3);
  ck_assert_uint_eq(t.blocked[STALL_MIO_THROTTLE], 0);
  ck_assert_uint_eq(cand, 0x20);
  ck_assert_uint_eq(next, 100);
  StallTally t2 = {0};
  u.store_held = 0;
  smsp_unthrottled(&s, &u, 3, &next, &t2, &cand);
  ck_assert_uint_eq(t2.blocked[STALL_LONG_SCOREBOARD], 2);
  ck_assert_uint_eq(t2.blocked[STALL_LG_THROTTLE], 1);
  ck_assert_uint_eq(cand, 0x38);
  count_queue_clear(&u.inflight);
}
END_TEST

/* Two ready FMA warps, slot 0 (age 0, older) and slot 1 (age 1), nothing
 * busy, gto.  Slot 0 issued last without the yield hint: greedy, it goes
 * again.  It issued with the hint: slot 1 goes (the older warp passed over),
 * and then, slot 1 having issued without it, greedy slot 1 again.  The hint
 * with no other candidate (only slot 0 ready): slot 0.  Each pick counts
 * the other candidate as not selected (1, 1, 1, 0). */
START_TEST(test_yield) {
  SmUnits u = {0};
  count_queue_init(&u.inflight);
  Smsp s;
  smsp_init(&s);
  Warp w[2] = {{.slot = 0, .bit = 0x1, .cls = CLS_FMA}, {.slot = 1, .bit = 0x2, .cls = CLS_FMA}};
  for (guint i = 0; i < 2; i++) {
    s.slot[i] = &w[i];
    s.ages[i] = i;
    smsp_ready(&s, &w[i]);
  }
  const SchedPolicy *gto = sched_lookup("gto");
  ck_assert_ptr_nonnull(gto);
  StallTally t = {0};
  SimCycle next = SIM_CYCLE_NEVER;
  guint not_selected = 0;
  smsp_selected(&s, &w[0], FALSE);
  ck_assert_ptr_eq(smsp_select(&s, &u, gto, gto->greedy, 4, 10, &next, &t, &not_selected), &w[0]);
  smsp_selected(&s, &w[0], TRUE);
  ck_assert_ptr_eq(smsp_select(&s, &u, gto, gto->greedy, 4, 11, &next, &t, &not_selected), &w[1]);
  smsp_selected(&s, &w[1], FALSE);
  ck_assert_ptr_eq(smsp_select(&s, &u, gto, gto->greedy, 4, 12, &next, &t, &not_selected), &w[1]);
  ck_assert_uint_eq(not_selected, 3);
  smsp_unready(&s, &w[1]);
  smsp_selected(&s, &w[0], TRUE);
  ck_assert_ptr_eq(smsp_select(&s, &u, gto, gto->greedy, 4, 13, &next, &t, &not_selected), &w[0]);
  ck_assert_uint_eq(not_selected, 3);
  count_queue_clear(&u.inflight);
}
END_TEST

/* The memory queue ([sched] lsu_fifo = 2) while the lines in flight are
 * contended (u.lsu_on; a line free: lg_full clear), gto: three warps
 * (slots 0, 1, 2, ages 0, 1, 2) whose next instruction is a global load;
 * each issue leaves the queue (smsp_dequeue, as sm_issue does).
 * Pick 1: slots 0 and 1 join the queue (oldest first; it holds 2), slot 0
 * arrived first and goes.  Pick 2: slot 0 (still a load next) joins again
 * behind slot 1, which goes although slot 0 is greedy and older (gto alone:
 * slot 0).  Pick 3: slot 1 joins behind slot 0 (older than slot 2, which
 * never gets in while the two re-join): slot 0.  Not contended: gto, greedy
 * slot 0 again.  Depth 0: the queue is off, greedy slot 0.  Every pick
 * counts the other two candidates as not selected (2 x 5 = 10). */
START_TEST(test_lsu_fifo) {
  SmUnits u = {0};
  count_queue_init(&u.inflight);
  u.lsu_fifo = 2;
  u.lsu_on = TRUE;
  Smsp s;
  smsp_init(&s);
  Warp w[3];
  for (guint i = 0; i < 3; i++) {
    w[i] = (Warp){.slot = i, .bit = 1ULL << i, .cls = CLS_LOAD};
    s.slot[i] = &w[i];
    s.ages[i] = i;
    smsp_ready(&s, &w[i]);
  }
  const SchedPolicy *gto = sched_lookup("gto");
  ck_assert_ptr_nonnull(gto);
  StallTally t = {0};
  SimCycle next = SIM_CYCLE_NEVER;
  guint not_selected = 0;
  Warp *p = smsp_select(&s, &u, gto, gto->greedy, 4, 10, &next, &t, &not_selected);
  ck_assert_ptr_eq(p, &w[0]);
  ck_assert_uint_eq(s.queued, 0x3);
  smsp_dequeue(&s, p);
  smsp_selected(&s, p, FALSE);
  ck_assert_uint_eq(s.queued, 0x2);
  p = smsp_select(&s, &u, gto, gto->greedy, 4, 11, &next, &t, &not_selected);
  ck_assert_ptr_eq(p, &w[1]);
  ck_assert_uint_eq(s.queued, 0x3);
  smsp_dequeue(&s, p);
  smsp_selected(&s, p, FALSE);
  p = smsp_select(&s, &u, gto, gto->greedy, 4, 12, &next, &t, &not_selected);
  ck_assert_ptr_eq(p, &w[0]);
  ck_assert_uint_eq(s.queued, 0x3);
  ck_assert_uint_eq(s.n_queued, 2);
  smsp_dequeue(&s, p);
  smsp_selected(&s, p, FALSE);
  u.lsu_on = FALSE;
  ck_assert_ptr_eq(smsp_select(&s, &u, gto, gto->greedy, 4, 13, &next, &t, &not_selected), &w[0]);
  u.lsu_fifo = 0; /* (sm.c sets lsu_on only with a depth) */
  ck_assert_ptr_eq(smsp_select(&s, &u, gto, gto->greedy, 4, 14, &next, &t, &not_selected), &w[0]);
  ck_assert_uint_eq(not_selected, 10);
  count_queue_clear(&u.inflight);
}
END_TEST

/* Age order: warps in slots 1, 4, 9 launched in slot order (ages 10, 11,
 * 12) make slot order age order, so the oldest of {4, 9} is slot 4 by its
 * bit alone; a later warp in the freed slot 0 (age 13) breaks it, and the
 * oldest of {0, 4} is then 4 by comparing ages (13 > 11), of {0, 9} 9. */
START_TEST(test_ages_in_order) {
  Smsp s;
  smsp_init(&s);
  ck_assert(s.ages_in_order);
  Warp w[4] = {0};
  guint slots[3] = {1, 4, 9};
  for (guint i = 0; i < 3; i++) {
    s.slot[slots[i]] = &w[i];
    s.ages[slots[i]] = 10 + i;
    smsp_ages_check(&s);
    ck_assert(s.ages_in_order);
  }
  ck_assert_uint_eq(smsp_oldest(&s, 1ULL << 4 | 1ULL << 9), 4);
  s.slot[1] = NULL; /* the age-10 warp leaves */
  s.slot[0] = &w[3];
  s.ages[0] = 13;
  smsp_ages_check(&s);
  ck_assert(!s.ages_in_order);
  ck_assert_uint_eq(smsp_oldest(&s, 1ULL << 0 | 1ULL << 4), 4);
  ck_assert_uint_eq(smsp_oldest(&s, 1ULL << 0 | 1ULL << 9), 9);
  ck_assert_uint_eq(smsp_oldest(&s, 1ULL << 0), 0);
}
END_TEST

int main(void) {
  TCase *tc = tcase_create("smsp");
  tcase_add_test(tc, test_op_class);
  tcase_add_test(tc, test_blocked);
  tcase_add_test(tc, test_unthrottled);
  tcase_add_test(tc, test_yield);
  tcase_add_test(tc, test_lsu_fifo);
  tcase_add_test(tc, test_ages_in_order);
  Suite *s = suite_create("smsp");
  suite_add_tcase(s, tc);
  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
