/* check_sassspan.c - tests of sim/sass/sassspan.[ch], the words a global
 * atomic's address arithmetic bounds it to and the values an operand (a
 * MATCH key) can hold, on hand-written listings of the forms ptxas emits
 * (ghist, results/reference/h200/real5/sass/kernels5.sass lines 577-607),
 * the expected distinct keys, and model_atomic_contended_rate on the H200
 * model's [l2] atomic_contention points (results/reference/h200/atomics/). */
#include "input/model.h"
#include "sass/sass.h"
#include "sass/sassspan.h"
#include "sass_texts.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

typedef struct {
  const gchar *name;
  const gchar *texts[16]; /* NULL-terminated; the atomic is at index `at` */
  guint at;
  guint64 words; /* worked by hand in the comment */
} SpanCase;

static const SpanCase span_cases[] = {
    /* bins[w & 255] (ghist 0x0230..0x0300): (w << 2) & 0x3fc is at most
     * 1020 bytes past the parameter c[0x0][0x220]: 1020 / 4 + 1 = 256 words */
    {"mask of a parameter",
     {"ULDC.64 UR10, c[0x0][0x220]", "LDG.E.CONSTANT R11, desc[UR8][R18.64]",
      "IMAD.SHL.U32 R10, R11, 0x4, RZ", "LOP3.LUT R10, R10, 0x3fc, RZ, 0xc0, !PT",
      "IADD3 R16, P1, R10, UR10, RZ", "IMAD.X R17, RZ, RZ, UR11, P1",
      "REDG.E.ADD.STRONG.GPU desc[UR8][R16.64], R23", NULL},
     6,
     256},
    /* bins[w >> 24] (ghist 0x02f0, 0x0320): w >> 24 is at most 255, x 4
     * bytes + the parameter in R8: 1020 / 4 + 1 = 256 words */
    {"shift, wide multiply-add",
     {"LDC.64 R8, c[0x0][0x220]", "LDG.E.CONSTANT R11, desc[UR8][R18.64]",
      "SHF.R.U32.HI R21, RZ, 0x18, R11", "IMAD.WIDE.U32 R20, R21, 0x4, R8",
      "REDG.E.ADD.STRONG.GPU desc[UR8][R20.64], R23", NULL},
     4,
     256},
    /* an 8-bin float histogram: & 0x1c is at most 28 bytes: 28 / 4 + 1 = 8 */
    {"eight words",
     {"ULDC.64 UR4, c[0x0][0x228]", "LDG.E R3, desc[UR8][R2.64]",
      "LOP3.LUT R2, R3, 0x1c, RZ, 0xc0, !PT", "IADD3 R6, P0, R2, UR4, RZ",
      "IMAD.X R7, RZ, RZ, UR5, P0", "REDG.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR8][R6.64], R9", NULL},
     5,
     8},
    /* LEA form: (x & 0xff) << 2 is at most 1020 bytes: 256 words */
    {"shifted add",
     {"ULDC.64 UR6, c[0x0][0x210]", "LDG.E R9, desc[UR8][R2.64]",
      "LOP3.LUT R10, R9, 0xff, RZ, 0xc0, !PT", "LEA R14, P1, R10, UR6, 0x2",
      "LEA.HI.X R15, R10, UR7, RZ, 0x2, P1", "ATOMG.E.ADD.STRONG.GPU PT, R4, desc[UR8][R14.64], R5",
      NULL},
     5,
     256},
    /* the base register rewritten after the loop (rec_end's S2R R8 in
     * ghist): that write cannot reach the atomic, still 256 words */
    {"base rewritten after its loop",
     {"LDC.64 R8, c[0x0][0x220]", "LDG.E.CONSTANT R11, desc[UR8][R18.64]",
      "SHF.R.U32.HI R21, RZ, 0x18, R11", "IMAD.WIDE.U32 R20, R21, 0x4, R8",
      "REDG.E.ADD.STRONG.GPU desc[UR8][R20.64], R23", "@P1 BRA 0x10", "S2R R8, SR_VIRTUALSMID",
      "EXIT", NULL},
     4,
     256},
    /* ... but rewritten inside the loop it reaches the atomic through the
     * back edge: not a parameter, 0 */
    {"base rewritten in its loop",
     {"LDC.64 R8, c[0x0][0x220]", "LDG.E.CONSTANT R11, desc[UR8][R18.64]",
      "SHF.R.U32.HI R21, RZ, 0x18, R11", "IMAD.WIDE.U32 R20, R21, 0x4, R8",
      "REDG.E.ADD.STRONG.GPU desc[UR8][R20.64], R23", "S2R R8, SR_VIRTUALSMID", "@P1 BRA 0x10",
      "EXIT", NULL},
     4,
     0},
    /* a base per CTA (bins + blockIdx.x x 256: real11 cas) is not one
     * parameter: every CTA has its own words, 0 */
    {"base per CTA",
     {"LDC.64 R8, c[0x0][0x220]", "S2R R0, SR_CTAID.X", "IMAD.WIDE.U32 R8, R0, 0x400, R8",
      "LDG.E.CONSTANT R11, desc[UR8][R18.64]", "SHF.R.U32.HI R21, RZ, 0x18, R11",
      "IMAD.WIDE.U32 R20, R21, 0x4, R8", "REDG.E.ADD.STRONG.GPU desc[UR8][R20.64], R23", NULL},
     6,
     0},
    /* two parameters in one register: not one base, 0 */
    {"two parameters",
     {"LDC.64 R8, c[0x0][0x220]", "@P0 BRA 0x30", "LDC.64 R8, c[0x0][0x228]",
      "LDG.E.CONSTANT R11, desc[UR8][R18.64]", "SHF.R.U32.HI R21, RZ, 0x18, R11",
      "IMAD.WIDE.U32 R20, R21, 0x4, R8", "REDG.E.ADD.STRONG.GPU desc[UR8][R20.64], R23", NULL},
     6,
     0},
    /* an index straight from memory: unbounded, 0 */
    {"loaded index",
     {"LDC.64 R8, c[0x0][0x220]", "LDG.E.CONSTANT R11, desc[UR8][R18.64]",
      "IMAD.WIDE.U32 R20, R11, 0x4, R8", "REDG.E.ADD.STRONG.GPU desc[UR8][R20.64], R23", NULL},
     3,
     0},
    /* the mask written on some lanes only (a guard): unbounded, 0 */
    {"guarded mask",
     {"ULDC.64 UR10, c[0x0][0x220]", "LDG.E.CONSTANT R10, desc[UR8][R18.64]",
      "@P2 LOP3.LUT R10, R10, 0x3fc, RZ, 0xc0, !PT", "IADD3 R16, P1, R10, UR10, RZ",
      "IMAD.X R17, RZ, RZ, UR11, P1", "REDG.E.ADD.STRONG.GPU desc[UR8][R16.64], R23", NULL},
     5,
     0},
    /* the high word from another register than the base's: 0 */
    {"high word not the base's",
     {"ULDC.64 UR10, c[0x0][0x220]", "LDG.E.CONSTANT R11, desc[UR8][R18.64]",
      "LOP3.LUT R10, R11, 0x3fc, RZ, 0xc0, !PT", "IADD3 R16, P1, R10, UR10, RZ",
      "IMAD.X R17, RZ, RZ, R3, P1", "REDG.E.ADD.STRONG.GPU desc[UR8][R16.64], R23", NULL},
     5,
     0},
    /* an OR, not an AND (LUT 0xfc): unbounded, 0 */
    {"not an AND",
     {"ULDC.64 UR10, c[0x0][0x220]", "LDG.E.CONSTANT R11, desc[UR8][R18.64]",
      "LOP3.LUT R10, R11, 0x3fc, RZ, 0xfc, !PT", "IADD3 R16, P1, R10, UR10, RZ",
      "IMAD.X R17, RZ, RZ, UR11, P1", "REDG.E.ADD.STRONG.GPU desc[UR8][R16.64], R23", NULL},
     5,
     0},
    /* the atomic's own immediate offset (+0x10) does not widen the span:
     * still 1020 bytes past the parameter, 256 words */
    {"immediate offset",
     {"ULDC.64 UR10, c[0x0][0x220]", "LDG.E.CONSTANT R11, desc[UR8][R18.64]",
      "LOP3.LUT R10, R11, 0x3fc, RZ, 0xc0, !PT", "IADD3 R16, P1, R10, UR10, RZ",
      "IMAD.X R17, RZ, RZ, UR11, P1", "REDG.E.ADD.STRONG.GPU desc[UR8][R16.64+0x10], R23", NULL},
     5,
     256},
    /* the mask before a branch target (the loop head at 0x20, the IADD3):
     * the walk stays in the IADD3's block, so the offset is unbounded, 0 */
    {"mask in another block",
     {"ULDC.64 UR10, c[0x0][0x220]", "LOP3.LUT R10, R11, 0x3fc, RZ, 0xc0, !PT",
      "IADD3 R16, P1, R10, UR10, RZ", "IMAD.X R17, RZ, RZ, UR11, P1",
      "REDG.E.ADD.STRONG.GPU desc[UR8][R16.64], R23", "@P2 BRA 0x20", "EXIT", NULL},
     4,
     0},
    /* seven copies of the mask (R2 -> R9): the walk follows the IADD3's R9
     * (depth 8), seven MOVs (7 .. 1) and reaches the LOP3 at depth 1, whose
     * immediate needs no walk: 256 words */
    {"seven copies",
     {"ULDC.64 UR10, c[0x0][0x220]", "LOP3.LUT R2, R11, 0x3fc, RZ, 0xc0, !PT", "MOV R3, R2",
      "MOV R4, R3", "MOV R5, R4", "MOV R6, R5", "MOV R7, R6", "MOV R8, R7", "MOV R9, R8",
      "IADD3 R16, P1, R9, UR10, RZ", "IMAD.X R17, RZ, RZ, UR11, P1",
      "REDG.E.ADD.STRONG.GPU desc[UR8][R16.64], R23", NULL},
     11,
     256},
    /* eight copies (R2 -> R10): the LOP3 would be the ninth definition,
     * past SASSSPAN_MAX_DEPTH = 8: 0 */
    {"eight copies",
     {"ULDC.64 UR10, c[0x0][0x220]", "LOP3.LUT R2, R11, 0x3fc, RZ, 0xc0, !PT", "MOV R3, R2",
      "MOV R4, R3", "MOV R5, R4", "MOV R6, R5", "MOV R7, R6", "MOV R8, R7", "MOV R9, R8",
      "MOV R10, R9", "IADD3 R16, P1, R10, UR10, RZ", "IMAD.X R17, RZ, RZ, UR11, P1",
      "REDG.E.ADD.STRONG.GPU desc[UR8][R16.64], R23", NULL},
     12,
     0},
};

START_TEST(test_span) {
  const SpanCase *c = &span_cases[_i];
  g_autoptr(SassFunction) f = sass_texts_decode(c->texts);
  ck_assert_msg(sassspan_atomic_words(f, c->at, 4) == c->words, "%s: %" G_GUINT64_FORMAT " words",
                c->name, sassspan_atomic_words(f, c->at, 4));
}
END_TEST

/* Words of another width: ghist's mask, 1020 bytes past the parameter, is
 * 1020 / 8 + 1 = 128 words of 8 bytes (a 64-bit atomic) and 1020 / 1 + 1 =
 * 1021 of one byte; a width of 0 bounds nothing: 0. */
START_TEST(test_span_word_bytes) {
  g_autoptr(SassFunction) f = sass_texts_decode(span_cases[0].texts);
  ck_assert_uint_eq(sassspan_atomic_words(f, span_cases[0].at, 8), 128);
  ck_assert_uint_eq(sassspan_atomic_words(f, span_cases[0].at, 1), 1021);
  ck_assert_uint_eq(sassspan_atomic_words(f, span_cases[0].at, 0), 0);
}
END_TEST

typedef struct {
  const gchar *name;
  const gchar *texts[8]; /* NULL-terminated; the reader is the last */
  guint k;               /* its operand, 0 = the destination */
  gboolean bounded;
  guint64 max; /* worked by hand in the comment; 7 = the untouched value */
} OperandCase;

static const OperandCase operand_cases[] = {
    /* vote's key, v & 31u: at most 0x1f = 31 */
    {"masked key",
     {"LOP3.LUT R12, R3, 0x1f, RZ, 0xc0, !PT", "MATCH.ANY R26, R12", NULL},
     1,
     TRUE,
     31},
    /* the destination's value before the MATCH: nothing writes R26, 0 */
    {"destination",
     {"LOP3.LUT R12, R3, 0x1f, RZ, 0xc0, !PT", "MATCH.ANY R26, R12", NULL},
     0,
     FALSE,
     7},
    /* past the last operand: FALSE */
    {"no such operand",
     {"LOP3.LUT R12, R3, 0x1f, RZ, 0xc0, !PT", "MATCH.ANY R26, R12", NULL},
     2,
     FALSE,
     7},
    /* an immediate operand: its value, 0x10 = 16 */
    {"immediate", {"IADD3 R2, R3, 0x10, RZ", NULL}, 2, TRUE, 16},
    /* RZ: 0 */
    {"zero register", {"IADD3 R2, R3, 0x10, RZ", NULL}, 3, TRUE, 0},
    /* an unbounded value shifted right by 27: (2^32 - 1) >> 27 = 31 */
    {"right shift", {"SHF.R.U32.HI R5, RZ, 0x1b, R4", "MATCH.ANY R6, R5", NULL}, 1, TRUE, 31},
    /* 0xff << 24 = 0xff000000 = 4278190080 still fits 32 bits ... */
    {"left shift",
     {"LOP3.LUT R2, R3, 0xff, RZ, 0xc0, !PT", "SHF.L.U32 R4, R2, 0x18, RZ", "MATCH.ANY R6, R4",
      NULL},
     1,
     TRUE,
     4278190080u},
    /* ... 0xff << 25 = 0x1fe000000 does not: the register wraps, FALSE */
    {"left shift past 32 bits",
     {"LOP3.LUT R2, R3, 0xff, RZ, 0xc0, !PT", "SHF.L.U32 R4, R2, 0x19, RZ", "MATCH.ANY R6, R4",
      NULL},
     1,
     FALSE,
     7},
    /* 0x3f x 4 = 252 through IMAD.SHL, then a copy through IMAD.MOV */
    {"scale and copy",
     {"LOP3.LUT R2, R3, 0x3f, RZ, 0xc0, !PT", "IMAD.SHL.U32 R4, R2, 0x4, RZ",
      "IMAD.MOV.U32 R5, RZ, RZ, R4", "MATCH.ANY R6, R5", NULL},
     1,
     TRUE,
     252},
    /* the mask on some lanes only: FALSE */
    {"guarded mask",
     {"@P0 LOP3.LUT R12, R3, 0x1f, RZ, 0xc0, !PT", "MATCH.ANY R26, R12", NULL},
     1,
     FALSE,
     7},
};

START_TEST(test_operand_max) {
  const OperandCase *c = &operand_cases[_i];
  g_autoptr(SassFunction) f = sass_texts_decode(c->texts);
  guint64 max = 7;
  gboolean bounded = sassspan_operand_max(f, f->n - 1, c->k, &max);
  ck_assert_msg(bounded == c->bounded && max == c->max, "%s: %d, %" G_GUINT64_FORMAT, c->name,
                bounded, max);
}
END_TEST

/* K (1 - (1 - 1/K)^lanes): 32 lanes over 32 values 32 (1 - 0.362055) =
 * 20.4142; over 1,024 values 1024 (1 - 0.969218) = 31.5203; 16 lanes over
 * 32 values 32 (1 - 0.601717) = 12.7453; one value 1; two values 2 (1 -
 * 2^-32) = 2.0000; 0 values (unbounded) the lanes themselves. */
START_TEST(test_expected_distinct) {
  ck_assert_double_eq_tol(sassspan_expected_distinct(32, 32.0), 20.4142, 1e-4);
  ck_assert_double_eq_tol(sassspan_expected_distinct(1024, 32.0), 31.5203, 1e-4);
  ck_assert_double_eq_tol(sassspan_expected_distinct(32, 16.0), 12.7453, 1e-4);
  ck_assert_double_eq_tol(sassspan_expected_distinct(1, 32.0), 1.0, 1e-12);
  ck_assert_double_eq_tol(sassspan_expected_distinct(2, 32.0), 2.0, 1e-8);
  ck_assert_double_eq(sassspan_expected_distinct(0, 32.0), 32.0);
  ck_assert_double_eq(sassspan_expected_distinct(0, 17.5), 17.5);
}
END_TEST

/* [l2] atomic_contention of the H200 model: 1:0.728; 32:2.387; 256:2.074;
 * 4096:19.00; 1048576:56.41.  At a point its rate; at 64 words, a third of
 * the way from 32 to 256 in log(words): 2.387 x (2.074 / 2.387)^(1/3) =
 * 2.387 x 0.95424 = 2.2778; at 16 words, 4/5 of the way from 1 to 32:
 * 0.728 x (2.387 / 0.728)^0.8 = 0.728 x 2.5857 = 1.8824; at 32, the end
 * of one segment and the start of the next, 2.387; below the first point
 * (half a word) its rate, 0.728; past the last point and at 0 words (not
 * known), no contention term: 0. */
START_TEST(test_contended_rate) {
  GError *err = NULL;
  g_autoptr(SmModel) m = model_load("h200", NULL, &err);
  ck_assert_msg(m != NULL, "%s", err ? err->message : "?");
  ck_assert_uint_eq(m->n_atomic_contention, 5);
  ck_assert_double_eq_tol(model_atomic_contended_rate(m, 256), 2.074, 1e-9);
  ck_assert_double_eq_tol(model_atomic_contended_rate(m, 1), 0.728, 1e-9);
  ck_assert_double_eq_tol(model_atomic_contended_rate(m, 64), 2.2778, 5e-4);
  ck_assert_double_eq_tol(model_atomic_contended_rate(m, 16), 1.8824, 5e-4);
  ck_assert_double_eq_tol(model_atomic_contended_rate(m, 32), 2.387, 1e-9);
  ck_assert_double_eq_tol(model_atomic_contended_rate(m, 0.5), 0.728, 1e-9);
  ck_assert_double_eq_tol(model_atomic_contended_rate(m, 1048576), 56.41, 1e-9);
  ck_assert_double_eq(model_atomic_contended_rate(m, 1048577), 0.0);
  ck_assert_double_eq(model_atomic_contended_rate(m, 0), 0.0);
}
END_TEST

/* What --set l2.atomic_contention accepts and refuses (MODEL_ERROR_INVALID,
 * the key and the item named). */
typedef struct {
  const gchar *value;
  const gchar *error; /* NULL: accepted */
} ContentionCase;

static const ContentionCase contention_cases[] = {
    {"", NULL},
    {"256:2.074", NULL},
    {"1:0.7;32:2.4;", NULL},
    {"32:2.4;1:0.7", "item 2 '1:0.7'"},
    {"32:2.4;32:2.5", "item 2 '32:2.5'"},
    {"0:1", "item 1 '0:1'"},
    {"1.5:1", "item 1 '1.5:1'"},
    {"1:0", "item 1 '1:0'"},
    {"1:nan", "item 1 '1:nan'"},
    {"1:2x", "item 1 '1:2x'"},
    {"256", "item 1 '256'"},
    {"1:1;;2:2", "item 2 ''"},
    {"1:1;2:1;3:1;4:1;5:1;6:1;7:1;8:1;9:1;10:1;11:1;12:1;13:1;14:1;15:1;16:1;17:1",
     "item 17 '17:1'"},
};

/* One point, 256:2.074: its rate at and below it (100 words: 2.074), 0
 * past it (300 words: the uncontended unit only). */
START_TEST(test_contended_rate_one_point) {
  const gchar *sets[] = {"l2.atomic_contention=256:2.074", NULL};
  GError *err = NULL;
  g_autoptr(SmModel) m = model_load("h200", sets, &err);
  ck_assert_msg(m != NULL, "%s", err ? err->message : "?");
  ck_assert_uint_eq(m->n_atomic_contention, 1);
  ck_assert_double_eq_tol(model_atomic_contended_rate(m, 256), 2.074, 1e-9);
  ck_assert_double_eq_tol(model_atomic_contended_rate(m, 100), 2.074, 1e-9);
  ck_assert_double_eq(model_atomic_contended_rate(m, 300), 0.0);
}
END_TEST

START_TEST(test_contention_key) {
  const ContentionCase *c = &contention_cases[_i];
  g_autofree gchar *set = g_strdup_printf("l2.atomic_contention=%s", c->value);
  const gchar *sets[] = {set, NULL};
  GError *err = NULL;
  g_autoptr(SmModel) m = model_load("h200", sets, &err);
  if (c->error == NULL) {
    ck_assert_msg(m != NULL, "%s: %s", c->value, err ? err->message : "?");
    return;
  }
  ck_assert_msg(m == NULL, "%s accepted", c->value);
  ck_assert(g_error_matches(err, MODEL_ERROR, MODEL_ERROR_INVALID));
  ck_assert_msg(strstr(err->message, "[l2] atomic_contention") != NULL &&
                    strstr(err->message, c->error) != NULL && strchr(err->message, '\n') == NULL,
                "%s", err->message);
  g_error_free(err);
}
END_TEST

static Suite *span_suite(void) {
  Suite *s = suite_create("sassspan");
  TCase *tc = tcase_create("span");
  tcase_add_loop_test(tc, test_span, 0, G_N_ELEMENTS(span_cases));
  tcase_add_test(tc, test_span_word_bytes);
  tcase_add_loop_test(tc, test_operand_max, 0, G_N_ELEMENTS(operand_cases));
  tcase_add_test(tc, test_expected_distinct);
  tcase_add_test(tc, test_contended_rate);
  tcase_add_test(tc, test_contended_rate_one_point);
  tcase_add_loop_test(tc, test_contention_key, 0, G_N_ELEMENTS(contention_cases));
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  g_autoptr(SRunner) sr = srunner_create(span_suite());
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
