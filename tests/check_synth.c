/* check_synth.c - tests of sim/run/synth.[ch]: the instructions of one loop
 * iteration counted by op for combinations of the kernel's [stream] keys,
 * the exact order of a body that uses every op, the dependency chains
 * (FFMA, loads, spills, loop control), slots, pipes and flags of every
 * instruction, and the warp's instruction total.  Kernels come from the
 * string literal below with "group.key=value" overrides per case;
 * expected counts are worked out by hand in the comments. */
#include "input/kernel.h"
#include "run/synth.h"

#include <check.h>
#include <stdlib.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

/* An empty loop body: no FFMAs, no loads, no loop control. */
static const gchar empty_kernel[] = "[launch]\nthreads_per_block=128\nregs_per_thread=32\n"
                                    "[stream]\niterations=5\nfma=0\nilp=1\nloads=0\noverhead=0\n";

/* The kernel with `sets` (space-separated overrides) applied. */
static Kernel *kernel_with(const gchar *sets) {
  g_auto(GStrv) overrides = g_strsplit(sets, " ", -1);
  GError *err = NULL;
  Kernel *k = kernel_load_data(empty_kernel, "stream.ini", (const gchar *const *)overrides, &err);
  ck_assert_msg(k != NULL, "kernel with '%s': %s", sets, err ? err->message : "?");
  return k;
}

/* The pipe each op goes to (stream.h). */
static const InstrPipe op_pipe[OP_MAX] = {
    [OP_FFMA] = PIPE_FMA, [OP_IALU] = PIPE_ALU, [OP_BRA] = PIPE_ALU, [OP_MUFU] = PIPE_SFU,
    [OP_LDS] = PIPE_SMEM, [OP_LDG] = PIPE_LSU,  [OP_LDL] = PIPE_LSU, [OP_STL] = PIPE_LSU,
    [OP_BAR] = PIPE_NONE, [OP_EXIT] = PIPE_NONE};

/* Checks every instruction of `s` obeys, whatever the kernel: a known op on
 * its pipe, the slots it reads and writes below n_slots, unused sources
 * INSTR_NO_SLOT, the bank-conflict flag on FFMAs only (not on the live
 * values' FFMAs: their operands come from uniform registers), `ways` = lds_ways
 * on LDS and 1 elsewhere. */
static void assert_well_formed(const Program *s, const Kernel *k) {
  const gchar *why = NULL;
  ck_assert_msg(program_check(s, &why), "program_check: %s", why);
  ck_assert_uint_eq(s->code[s->n - 1].op, OP_EXIT);
  ck_assert_uint_eq(s->exit_pc, s->n - 1);
  for (guint i = 0; i < synth_body_len(s); i++) {
    const Instr *in = &s->code[i];
    ck_assert_uint_lt(in->op, OP_EXIT);
    ck_assert_uint_eq(in->pipe, op_pipe[in->op]);
    ck_assert_uint_le(in->n_src, INSTR_MAX_SRC);
    ck_assert(in->dst == INSTR_NO_SLOT || in->dst < s->n_slots);
    for (guint j = 0; j < INSTR_MAX_SRC; j++)
      ck_assert(j < in->n_src ? in->src[j] < s->n_slots : in->src[j] == INSTR_NO_SLOT);
    ck_assert(!in->conflict || in->op == OP_FFMA);
    ck_assert_uint_eq(in->ways, in->op == OP_LDS ? k->lds_ways : 1);
  }
}

/* ---- instructions per iteration ---------------------------------------- */

typedef struct {
  const gchar *sets;
  guint spill_values;  /* registers above the cap, synth_program_new's argument */
  guint count[OP_MAX]; /* instructions of each op per iteration */
  guint n_slots;       /* loads + 3 x ilp (FFMA, MUFU, LDS chains) + 3 + spilled */
  guint64 warp_insts;  /* body x iterations + EXIT */
} CountCase;

static const CountCase counts[] = {
    /* 8 FFMA + overhead 3 (2 IALU + BRA) = 11; slots 3 x 4 + 3 = 15;
     * 11 x 5 + 1 = 56. */
    {"stream.fma=8 stream.ilp=4 stream.overhead=3",
     0,
     {[OP_FFMA] = 8, [OP_IALU] = 2, [OP_BRA] = 1},
     15,
     56},
    /* 16 FFMA, no loop control: 16; slots 3 + 3 = 6; 16 x 5 + 1 = 81. */
    {"stream.fma=16", 0, {[OP_FFMA] = 16}, 6, 81},
    /* 2 LDG + 4 FFMA + 2 IALU + BRA = 9; slots 2 + 6 + 3 = 11; 9 x 5 + 1. */
    {"stream.loads=2 stream.fma=4 stream.ilp=2 stream.overhead=3 stream.fma_uses_load=true",
     0,
     {[OP_LDG] = 2, [OP_FFMA] = 4, [OP_IALU] = 2, [OP_BRA] = 1},
     11,
     46},
    /* 5 LDS + 3 MUFU + overhead 2 (IALU + BRA) = 10; slots 6 + 3 = 9. */
    {"stream.sfu=3 stream.lds=5 stream.lds_ways=4 stream.ilp=2 stream.overhead=2",
     0,
     {[OP_LDS] = 5, [OP_MUFU] = 3, [OP_IALU] = 1, [OP_BRA] = 1},
     9,
     51},
    /* 2 FFMA + BAR + overhead 1 (BRA alone) = 4; slots 6; 4 x 7 + 1 = 29. */
    {"stream.fma=2 stream.overhead=1 stream.syncthreads=true stream.iterations=7",
     0,
     {[OP_FFMA] = 2, [OP_BAR] = 1, [OP_BRA] = 1},
     6,
     29},
    /* Overhead alone: 4 IALU + BRA = 5; slots 6. */
    {"stream.overhead=5", 0, {[OP_IALU] = 4, [OP_BRA] = 1}, 6, 26},
    /* 5 of 8 live values spilled: 5 LDL + 5 STL, with 4 + 8 FFMA + 2 IALU +
     * BRA: 25; slots 6 + 8 = 14; 25 x 5 + 1 = 126. */
    {"stream.fma=4 stream.overhead=3 stream.live_values=8",
     5,
     {[OP_LDL] = 5, [OP_STL] = 5, [OP_IALU] = 2, [OP_FFMA] = 12, [OP_BRA] = 1},
     14,
     126},
    /* 20 spilled asked but only 8 live values: min = 8 LDL and STL; FFMAs
     * 4 + one per live value 8; 8 + 8 + 12 + 2 + 1 = 31; slots 6 + 8 = 14;
     * 31 x 5 + 1 = 156. */
    {"stream.fma=4 stream.overhead=3 stream.live_values=8",
     20,
     {[OP_LDL] = 8, [OP_STL] = 8, [OP_IALU] = 2, [OP_FFMA] = 12, [OP_BRA] = 1},
     14,
     156},
    /* Spilled registers but no live values: no spill code; 4 + 2 + 1 = 7. */
    {"stream.fma=4 stream.overhead=3", 5, {[OP_FFMA] = 4, [OP_IALU] = 2, [OP_BRA] = 1}, 6, 36},
    /* A body of one __syncthreads: 1 x 5 + 1 = 6. */
    {"stream.syncthreads=true", 0, {[OP_BAR] = 1}, 6, 6},
    /* Nothing in the body: no iterations, only EXIT (1). */
    {"stream.iterations=64", 0, {0}, 6, 1},
};

START_TEST(test_counts) {
  const CountCase *c = &counts[_i];
  g_autoptr(Kernel) k = kernel_with(c->sets);
  g_autoptr(Program) s = synth_program_new(k, c->spill_values);
  assert_well_formed(s, k);
  guint got[OP_MAX] = {0}, want_body = 0;
  for (guint i = 0; i < synth_body_len(s); i++)
    got[s->code[i].op]++;
  for (guint op = 0; op < OP_MAX; op++) {
    ck_assert_msg(got[op] == c->count[op], "'%s' spill %u: %u %s, expected %u", c->sets,
                  c->spill_values, got[op], program_op_name(op), c->count[op]);
    want_body += c->count[op];
  }
  ck_assert_uint_eq(synth_body_len(s), want_body);
  ck_assert_uint_eq(s->n_slots, c->n_slots);
  ck_assert_uint_eq(s->warp_insts, c->warp_insts);
}
END_TEST

/* The loop trips a warp walks: the kernel's, or none for an empty body
 * (whose warps only EXIT). */
static const struct {
  guint iterations;
  const gchar *sets;
} trips[] = {
    {64, "stream.fma=1 stream.iterations=64"},
    {3, "stream.syncthreads=true stream.iterations=3"},
    {0, "stream.iterations=64"},
    {9, "stream.live_values=4 stream.iterations=9"}, /* 4 accumulator FFMAs */
};

START_TEST(test_iterations) {
  g_autoptr(Kernel) k = kernel_with(trips[_i].sets);
  g_autoptr(Program) s = synth_program_new(k, 0);
  ck_assert_uint_eq(synth_iterations(s), trips[_i].iterations);
}
END_TEST

/* ---- order ------------------------------------------------------------- */

/* The body's ops in order: spill reloads, global loads, LDS, MUFU, FFMA,
 * the live values' FFMAs, then per spilled value an STL; the overhead's IALUs (overhead - 1)
 * go one after each of the first body instructions; BAR, then BRA, close
 * the iteration. */
static const struct {
  const gchar *sets;
  guint spill_values;
  const gchar *ops;
} orders[] = {
    /* FFMA FFMA ... with 2 IALUs after the first two. */
    {"stream.fma=4 stream.overhead=3", 0, "FFMA IALU FFMA IALU FFMA FFMA BRA"},
    /* Every op once (LDL, LDG, LDS, MUFU, 2 FFMA, IALU, STL) and overhead 4
     * (3 IALUs interleaved after the first three). */
    {"stream.loads=1 stream.lds=1 stream.sfu=1 stream.fma=2 stream.overhead=4 "
     "stream.syncthreads=true stream.live_values=1",
     1, "LDL IALU LDG IALU LDS IALU MUFU FFMA FFMA FFMA STL BAR BRA"},
    /* More overhead than body: the IALUs continue after the body ends. */
    {"stream.fma=1 stream.overhead=4", 0, "FFMA IALU IALU IALU BRA"},
};

START_TEST(test_order) {
  g_autoptr(Kernel) k = kernel_with(orders[_i].sets);
  g_autoptr(Program) s = synth_program_new(k, orders[_i].spill_values);
  g_autoptr(GString) got = g_string_new(NULL);
  for (guint i = 0; i < synth_body_len(s); i++)
    g_string_append_printf(got, "%s%s", i ? " " : "", program_op_name(s->code[i].op));
  ck_assert_str_eq(got->str, orders[_i].ops);
}
END_TEST

static const struct {
  InstrOp op;
  const gchar *name;
} names[] = {
    {OP_FFMA, "FFMA"}, {OP_IALU, "IALU"}, {OP_BRA, "BRA"}, {OP_MUFU, "MUFU"},
    {OP_LDS, "LDS"},   {OP_LDG, "LDG"},   {OP_LDL, "LDL"}, {OP_STL, "STL"},
    {OP_BAR, "BAR"},   {OP_EXIT, "EXIT"}, {OP_MAX, "?"},
};

START_TEST(test_op_name) {
  ck_assert_str_eq(program_op_name(names[_i].op), names[_i].name);
}
END_TEST

/* ---- dependencies ------------------------------------------------------ */

/* The instructions of `op` in body order (at most `max`); returns how many. */
static guint find_ops(const Program *s, InstrOp op, const Instr **out, guint max) {
  guint n = 0;
  for (guint i = 0; i < synth_body_len(s) && n < max; i++)
    if (s->code[i].op == op)
      out[n++] = &s->code[i];
  return n;
}

#define MAX_FOUND 64

/* FFMA i of chain i % ilp reads and writes that chain's slot, which FFMA
 * i - ilp wrote; the ilp chains use distinct slots.  With fma_uses_load,
 * FFMA i < loads also reads the slot load i writes. */
static const struct {
  const gchar *sets;
  guint fma, ilp, loads;
  gboolean uses_load;
} chains[] = {
    {"stream.fma=12 stream.ilp=3", 12, 3, 0, FALSE},
    {"stream.fma=7 stream.ilp=1 stream.overhead=3", 7, 1, 0, FALSE},
    {"stream.fma=16 stream.ilp=8 stream.sfu=2 stream.lds=2", 16, 8, 0, FALSE},
    {"stream.fma=8 stream.ilp=2 stream.loads=3 stream.fma_uses_load=true", 8, 2, 3, TRUE},
    {"stream.fma=8 stream.ilp=2 stream.loads=3", 8, 2, 3, FALSE},
};

START_TEST(test_fma_chains) {
  g_autoptr(Kernel) k = kernel_with(chains[_i].sets);
  g_autoptr(Program) s = synth_program_new(k, 0);
  const Instr *ffma[MAX_FOUND], *ldg[MAX_FOUND];
  guint ilp = chains[_i].ilp, loads = chains[_i].loads;
  ck_assert_uint_eq(find_ops(s, OP_FFMA, ffma, MAX_FOUND), chains[_i].fma);
  ck_assert_uint_eq(find_ops(s, OP_LDG, ldg, MAX_FOUND), loads);
  for (guint i = 0; i < chains[_i].fma; i++) {
    ck_assert_uint_eq(ffma[i]->src[0], ffma[i]->dst);
    if (i >= ilp)
      ck_assert_uint_eq(ffma[i]->src[0], ffma[i - ilp]->dst);
    for (guint j = 0; i < ilp && j < i; j++)
      ck_assert_uint_ne(ffma[i]->dst, ffma[j]->dst);
    gboolean reads_load = chains[_i].uses_load && i < loads;
    ck_assert_uint_eq(ffma[i]->n_src, reads_load ? 2 : 1);
    if (reads_load)
      ck_assert_uint_eq(ffma[i]->src[1], ldg[i]->dst);
  }
}
END_TEST

/* Loads: each its own slot; a chase load reads it (its address is the
 * chain's previous value), a stream load reads nothing. */
START_TEST(test_load_chains) {
  const gchar *pattern = _i ? "stream" : "chase";
  g_autofree gchar *sets = g_strdup_printf("stream.loads=4 stream.load_pattern=%s", pattern);
  g_autoptr(Kernel) k = kernel_with(sets);
  g_autoptr(Program) s = synth_program_new(k, 0);
  const Instr *ldg[4];
  ck_assert_uint_eq(find_ops(s, OP_LDG, ldg, 4), 4);
  for (guint i = 0; i < 4; i++) {
    ck_assert_uint_ne(ldg[i]->dst, INSTR_NO_SLOT);
    for (guint j = 0; j < i; j++)
      ck_assert_uint_ne(ldg[i]->dst, ldg[j]->dst);
    ck_assert_uint_eq(ldg[i]->n_src, _i ? 0 : 1);
    if (!_i)
      ck_assert_uint_eq(ldg[i]->src[0], ldg[i]->dst);
  }
}
END_TEST

/* Live value i: one FFMA reads and rewrites its slot every iteration; for
 * the spilled ones (the first 4), LDL i writes that slot before the FFMA and
 * STL i reads it after; the values use distinct slots. */
START_TEST(test_spill_chains) {
  g_autoptr(Kernel) k = kernel_with("stream.fma=2 stream.live_values=6");
  g_autoptr(Program) s = synth_program_new(k, 4);
  const Instr *ldl[MAX_FOUND], *stl[MAX_FOUND], *ffma[MAX_FOUND], *ialu[MAX_FOUND];
  ck_assert_uint_eq(find_ops(s, OP_LDL, ldl, MAX_FOUND), 4);
  ck_assert_uint_eq(find_ops(s, OP_STL, stl, MAX_FOUND), 4);
  /* 2 chain FFMAs, then one per live value; overhead=0: no IALU. */
  ck_assert_uint_eq(find_ops(s, OP_FFMA, ffma, MAX_FOUND), 8);
  ck_assert_uint_eq(find_ops(s, OP_IALU, ialu, MAX_FOUND), 0);
  for (guint i = 0; i < 4; i++) {
    const Instr *f = ffma[2 + i];
    ck_assert_uint_eq(ldl[i]->n_src, 0);
    ck_assert_uint_eq(f->n_src, 1);
    ck_assert_uint_eq(f->src[0], ldl[i]->dst);
    ck_assert_uint_eq(f->dst, ldl[i]->dst);
    ck_assert_uint_eq(f->conflict, 0);
    ck_assert_uint_eq(stl[i]->n_src, 1);
    ck_assert_uint_eq(stl[i]->src[0], ldl[i]->dst);
    ck_assert_uint_eq(stl[i]->dst, INSTR_NO_SLOT);
    for (guint j = 0; j < i; j++)
      ck_assert_uint_ne(ldl[i]->dst, ldl[j]->dst);
  }
}
END_TEST

/* Loop control with overhead 4: IALU 0 updates the counter (reads and
 * writes it), IALU 1 writes the predicate from the counter, IALU 2 writes
 * a scratch value from the counter, and BRA reads the predicate.  With
 * overhead 2 the branch reads nothing (no compare was emitted). */
START_TEST(test_loop_control) {
  g_autoptr(Kernel) k = kernel_with("stream.fma=4 stream.overhead=4");
  g_autoptr(Program) s = synth_program_new(k, 0);
  const Instr *ialu[3], *bra[1] = {NULL}, *ffma[4];
  ck_assert_uint_eq(find_ops(s, OP_IALU, ialu, 3), 3);
  ck_assert_uint_eq(find_ops(s, OP_BRA, bra, 1), 1);
  ck_assert_uint_eq(find_ops(s, OP_FFMA, ffma, 4), 4);
  guint16 counter = ialu[0]->dst, pred = ialu[1]->dst;
  ck_assert_uint_eq(ialu[0]->src[0], counter);
  ck_assert_uint_eq(ialu[1]->src[0], counter);
  ck_assert_uint_eq(ialu[2]->src[0], counter);
  ck_assert_uint_ne(pred, counter);
  ck_assert_uint_ne(ialu[2]->dst, counter);
  ck_assert_uint_ne(ialu[2]->dst, pred);
  ck_assert_uint_eq(bra[0]->n_src, 1);
  ck_assert_uint_eq(bra[0]->src[0], pred);
  ck_assert_uint_eq(bra[0]->dst, INSTR_NO_SLOT);
  ck_assert_uint_ne(counter, ffma[0]->dst);
  ck_assert(&s->code[synth_body_len(s) - 1] == bra[0]);

  g_autoptr(Kernel) k2 = kernel_with("stream.fma=4 stream.overhead=2");
  g_autoptr(Program) s2 = synth_program_new(k2, 0);
  ck_assert_uint_eq(find_ops(s2, OP_BRA, bra, 1), 1);
  ck_assert_uint_eq(bra[0]->n_src, 0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("synth");
  TCase *tc = tcase_create("dependencies");
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_spill_chains);
  tcase_add_test(tc, test_loop_control);
  tcase_add_loop_test(tc, test_fma_chains, 0, G_N_ELEMENTS(chains));
  tcase_add_loop_test(tc, test_load_chains, 0, 2);

  tc = tcase_create("expansion");
  suite_add_tcase(s, tc);
  tcase_add_loop_test(tc, test_op_name, 0, G_N_ELEMENTS(names));
  tcase_add_loop_test(tc, test_order, 0, G_N_ELEMENTS(orders));
  tcase_add_loop_test(tc, test_counts, 0, G_N_ELEMENTS(counts));
  tcase_add_loop_test(tc, test_iterations, 0, G_N_ELEMENTS(trips));

  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
