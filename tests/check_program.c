/* check_program.c - tests of sim/core/program.[ch]: a loop branch's counter
 * (taken trips - 1 times, then falls through and resets), the Bresenham
 * branch of a profile (check_sassprog.c walks real ones), the op names, and
 * program_check refusing each structural fault with its reason. */
#include "core/program.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

/* trips = 3, target 0, at pc 4: taken (counter 1), taken (2), falls through
 * to 5 (3 = trips: reset to 0), and again the same; another counter is
 * untouched. */
START_TEST(test_loop_counter) {
  Instr in = {.has_branch = 1, .target = 0, .trips = 3, .counter = 2};
  guint32 c[PROGRAM_MAX_COUNTERS] = {0};
  const guint want[] = {0, 0, 5, 0, 0, 5};
  for (guint k = 0; k < G_N_ELEMENTS(want); k++)
    ck_assert_uint_eq(program_next_pc(&in, 4, c), want[k]);
  ck_assert_uint_eq(c[2], 0);
  ck_assert_uint_eq(c[1], 0);
  /* No branch: the next pc. */
  Instr plain = {0};
  ck_assert_uint_eq(program_next_pc(&plain, 7, c), 8);
  /* Bresenham fall = 1, trips = 2, counter starting at 1: 1 + 1 = 2 >= 2
   * falls through first (counter 0), then taken (1), then falls (0). */
  Instr half = {.has_branch = 1, .target = 9, .fall = 1, .trips = 2, .counter = 0};
  c[0] = 1;
  ck_assert_uint_eq(program_next_pc(&half, 3, c), 4);
  ck_assert_uint_eq(program_next_pc(&half, 3, c), 9);
  ck_assert_uint_eq(program_next_pc(&half, 3, c), 4);
}
END_TEST

START_TEST(test_op_names) {
  ck_assert_str_eq(program_op_name(OP_FFMA), "FFMA");
  ck_assert_str_eq(program_op_name(OP_EXIT), "EXIT");
  ck_assert_str_eq(program_op_name(OP_MISC), "MISC");
  ck_assert_str_eq(program_op_name(OP_MAX), "?");
}
END_TEST

/* A two-instruction program (FFMA into slot 0, EXIT), broken one way at a
 * time; each fault is named. */
START_TEST(test_check) {
  Instr code[2];
  Program p = {.code = code, .n = 2, .n_slots = 1, .entry = 0, .exit_pc = 1};
  const struct {
    guint field;
    const gchar *why;
  } faults[] = {
      {0, NULL},
      {1, "the program does not end with EXIT"},
      {2, "entry or exit pc out of range"},
      {3, "destination slot out of range"},
      {4, "source slot out of range"},
      {5, "scoreboard barrier out of range"},
      {6, "wait mask names a missing scoreboard barrier"},
      {7, "branch target or counter out of range"},
      {8, "branch falls through more often than it executes"},
  };
  for (guint f = 0; f < G_N_ELEMENTS(faults); f++) {
    code[0] = (Instr){.op = OP_FFMA,
                      .pipe = PIPE_FMA,
                      .dst = 0,
                      .n_src = 1,
                      .src = {0, INSTR_NO_SLOT, INSTR_NO_SLOT},
                      .sb_write = INSTR_NO_SB,
                      .sb_read = INSTR_NO_SB};
    code[1] = (Instr){.op = OP_EXIT,
                      .pipe = PIPE_NONE,
                      .dst = INSTR_NO_SLOT,
                      .sb_write = INSTR_NO_SB,
                      .sb_read = INSTR_NO_SB};
    p.entry = 0;
    switch (faults[f].field) {
    case 1:
      code[1].op = OP_FFMA;
      break;
    case 2:
      p.entry = 2;
      break;
    case 3:
      code[0].dst = 1;
      break;
    case 4:
      code[0].src[0] = 1;
      break;
    case 5:
      code[0].sb_write = INSTR_SB_BARRIERS;
      break;
    case 6:
      code[0].wait_mask = 1u << INSTR_SB_BARRIERS;
      break;
    case 7:
      code[0].has_branch = 1;
      code[0].target = 2;
      break;
    case 8:
      code[0].has_branch = 1;
      code[0].fall = 3;
      code[0].trips = 2;
      break;
    default:
      break;
    }
    const gchar *why = "unset";
    gboolean ok = program_check(&p, &why);
    ck_assert_msg(ok == (faults[f].why == NULL), "fault %u: %s", f, why ? why : "(none)");
    if (faults[f].why)
      ck_assert_str_eq(why, faults[f].why);
    else
      ck_assert_ptr_null(why);
  }
}
END_TEST

int main(void) {
  TCase *tc = tcase_create("program");
  tcase_add_test(tc, test_loop_counter);
  tcase_add_test(tc, test_op_names);
  tcase_add_test(tc, test_check);
  Suite *s = suite_create("program");
  suite_add_tcase(s, tc);
  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
