/* check_sass.c - tests of sim/sass/sass.[ch]: control bits of hand-decoded
 * encodings, operand roles (destinations, sources, .64/.128 spans, RZ/PT
 * left out), branch targets from offsets and nvdisasm labels, function
 * selection, the six real H200 listings (results/reference/h200/real/sass,
 * through WARPSIM_ROOT) with the register-dataflow cross-check of the
 * scoreboards, and every kind of bad input. */
#include "check_error.h"
#include "sass/sass.h"
#include "sass_texts.h"

#include <check.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

/* ---- control bits ----------------------------------------------------------- */

typedef struct {
  guint64 hi;
  SassCtrl want;
} CtrlCase;

/* Worked by hand from bits 41..61 of the upper word (sass.h), e.g.
 * 0x000e640000002100: bits 40..47 = 0x64 = 0110 0100 -> stall (41..44) = 0010 = 2,
 * yield (45) = 1, bits 46,47 = 1,0 and bit 48 (low bit of 0x0e) = 0 -> write barrier 1;
 * bits 49..51 = 111 -> no read barrier; bits 52..57 = 0 -> no wait. */
static const CtrlCase ctrl_cases[] = {
    /* S2R R4, SR_TID.X (saxpy 0x0050) */
    {0x000e640000002100ULL, {.stall = 2, .yield = 1, .write_sb = 1, .read_sb = 7, .wait_mask = 0}},
    /* ISETP.GE.AND P0, PT, R4, R0, PT (saxpy 0x00a0): 0xda -> stall 13, yield 0; 0x2f -> wb 7,
     * rb 7, wait bits 52..55 = 0010 -> barrier 1 */
    {0x002fda0003f06270ULL, {.stall = 13, .yield = 0, .write_sb = 7, .read_sb = 7, .wait_mask = 2}},
    /* LDC R1, c[0x0][0x28] (saxpy 0x0000): stall 1, yield, nothing else */
    {0x000fe20000000800ULL, {.stall = 1, .yield = 1, .write_sb = 7, .read_sb = 7, .wait_mask = 0}},
    /* LEA.HI R6, R9.reuse, ... (saxpy 0x00f0): 0x040fe4 -> stall 2, yield 1, reuse bit 58 */
    {0x040fe400078fc8ffULL,
     {.stall = 2, .yield = 1, .write_sb = 7, .read_sb = 7, .wait_mask = 0, .reuse = 1}},
    /* sm_100: NVIDIA's cuobjdump sample in the CUDA Binary Utilities manual
     * decodes the same way: S2R R9, SR_TID.X 0x000e2e0000002100 -> 0x2e = 0010 1110:
     * stall 0111 = 7, yield 1, write barrier 0 (bits 46..48 = 0, 0, 0 of 0x0e's low bit);
     * LDCU.64 UR4 0x000e6e0008000a00 -> 0x6e: stall 7, yield 1, bit 46 set: barrier 1 */
    {0x000e2e0000002100ULL, {.stall = 7, .yield = 1, .write_sb = 0, .read_sb = 7, .wait_mask = 0}},
    {0x000e6e0008000a00ULL, {.stall = 7, .yield = 1, .write_sb = 1, .read_sb = 7, .wait_mask = 0}},
    /* every field at its maximum: bits 41..61 all set */
    {0x3ffffe0000000000ULL,
     {.stall = 15, .yield = 1, .write_sb = 7, .read_sb = 7, .wait_mask = 63, .reuse = 15}},
};

START_TEST(test_ctrl) {
  const CtrlCase *c = &ctrl_cases[_i];
  SassCtrl got;
  sass_ctrl_decode(c->hi, &got);
  ck_assert_uint_eq(got.stall, c->want.stall);
  ck_assert_uint_eq(got.yield, c->want.yield);
  ck_assert_uint_eq(got.write_sb, c->want.write_sb);
  ck_assert_uint_eq(got.read_sb, c->want.read_sb);
  ck_assert_uint_eq(got.wait_mask, c->want.wait_mask);
  ck_assert_uint_eq(got.reuse, c->want.reuse);
}
END_TEST

/* ---- operands --------------------------------------------------------------- */

typedef struct {
  const gchar *text;
  const gchar *opcode, *mods;
  const gchar *dst; /* "R2:1 P0:1" (file letter(s), index, count) */
  const gchar *src;
  gint guard; /* -1 none */
  gboolean guard_neg;
  gint64 target;
} OpCase;

static const OpCase op_cases[] = {
    {"LDG.E.128 R4, desc[UR6][R2.64+0x10]", "LDG", ".E.128", "R4:4", "UR6:1 R2:2", -1, 0, -1},
    {"STG.E desc[UR6][R28.64+0x200], R21", "STG", ".E", "", "UR6:1 R28:2 R21:1", -1, 0, -1},
    {"@!P0 STG.E.64 desc[UR6][R4.64], R2", "STG", ".E.64", "", "UR6:1 R4:2 R2:2", 0, 1, -1},
    {"ISETP.GE.AND P0, PT, R4, R0, PT", "ISETP", ".GE.AND", "P0:1", "R4:1 R0:1", -1, 0, -1},
    {"LOP3.LUT P1, R10, R6, 0x3, RZ, 0xc0, !PT", "LOP3", ".LUT", "P1:1 R10:1", "R6:1", -1, 0, -1},
    {"IADD3 R0, P1, R0, UR10, RZ", "IADD3", "", "R0:1 P1:1", "R0:1 UR10:1", -1, 0, -1},
    {"IADD3.X R7, R3, R5, RZ, P0, !PT", "IADD3", ".X", "R7:1", "R3:1 R5:1 P0:1", -1, 0, -1},
    {"IMAD.WIDE.U32 R2, R21, 0x18, R2", "IMAD", ".WIDE.U32", "R2:2", "R21:1 R2:2", -1, 0, -1},
    {"SHFL.BFLY PT, R5, R4, 0x10, 0x1f", "SHFL", ".BFLY", "R5:1", "R4:1", -1, 0, -1},
    {"FFMA R8, R8.reuse, R4, -R5", "FFMA", "", "R8:1", "R8:1 R4:1 R5:1", -1, 0, -1},
    {"DFMA R2, R4, R6, R8", "DFMA", "", "R2:2", "R4:2 R6:2 R8:2", -1, 0, -1},
    {"LDS.64 R4, [R3+UR5]", "LDS", ".64", "R4:2", "R3:1 UR5:1", -1, 0, -1},
    {"STS.128 [R3+0x200], R16", "STS", ".128", "", "R3:1 R16:4", -1, 0, -1},
    {"S2UR UR4, SR_CTAID.X", "S2UR", "", "UR4:1", "", -1, 0, -1},
    {"@P2 BRA 0x560", "BRA", "", "", "", 2, 0, 0x560},
    {"BSSY B0, 0x570", "BSSY", "", "", "", -1, 0, 0x570},
    {"CALL.REL.NOINC 0xc70", "CALL", ".REL.NOINC", "", "", -1, 0, 0xc70},
    {"EXIT", "EXIT", "", "", "", -1, 0, -1},
    {"@!UP0 UIADD3 UR4, UR4, 0x1, URZ", "UIADD3", "", "UR4:1", "UR4:1", 0, 1, -1},
    {"FSEL R3, R2, RZ, P0", "FSEL", "", "R3:1", "R2:1 P0:1", -1, 0, -1},
    {"MOV R9, c[0x0][R2]", "MOV", "", "R9:1", "R2:1", -1, 0, -1},
    {"PLOP3.LUT P0, PT, P0, P1, P2, 0xe0, 0x0", "PLOP3", ".LUT", "P0:1", "P0:1 P1:1 P2:1", -1, 0,
     -1},
    /* Empty operands are skipped (once freed twice: found by fuzzing). */
    {"IMAD , R6, R7, RZ", "IMAD", "", "R6:1", "R7:1", -1, 0, -1},
    {"FFMA R8, , R4,, R5,", "FFMA", "", "R8:1", "R4:1 R5:1", -1, 0, -1},
};

static gchar *regs_str(const SassReg *r, guint n) {
  static const gchar *const names[] = {"R", "P", "UR", "UP"};
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < n; i++)
    g_string_append_printf(s, "%s%s%u:%u", i ? " " : "", names[r[i].file], r[i].index, r[i].count);
  return g_string_free(s, FALSE);
}

START_TEST(test_operands) {
  const OpCase *c = &op_cases[_i];
  const gchar *texts[] = {c->text, NULL};
  g_autoptr(SassFunction) f = sass_texts_decode(texts);
  ck_assert_uint_eq(f->n, 1);
  const SassInstr *in = &f->ins[0];
  ck_assert_str_eq(in->opcode, c->opcode);
  ck_assert_str_eq(in->mods, c->mods);
  g_autofree gchar *dst = regs_str(in->dst, in->n_dst);
  g_autofree gchar *src = regs_str(in->src, in->n_src);
  ck_assert_str_eq(dst, c->dst);
  ck_assert_str_eq(src, c->src);
  ck_assert_int_eq(in->guard, c->guard);
  ck_assert_int_eq(in->guard_neg, c->guard_neg);
  ck_assert_int_eq(in->target, c->target);
}
END_TEST

/* nvdisasm output: section labels, `(.L_x_N) branch targets. */
START_TEST(test_nvdisasm_labels) {
  GError *err = NULL;
  const gchar *good =
      "\t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"\n"
      ".text._Z1kv:\n"
      "        /*0000*/                   IADD3 R0, R0, 0x1, RZ ;  /* 0x0000000100007810 */\n"
      "                                                            /* 0x000fe20007ffe0ff */\n"
      ".L_x_0:\n"
      "        /*0010*/                   ISETP.NE.AND P0, PT, R0, 0x8, PT ; /* "
      "0x000000080000780c */\n"
      "                                                            /* 0x000fda0003f05270 */\n"
      "        /*0020*/               @P0 BRA `(.L_x_0) ;  /* 0xfffffffc00f40947 */\n"
      "                                                            /* 0x000fea000383ffff */\n"
      "        /*0030*/                   EXIT ;  /* 0x000000000000794d */\n"
      "                                                            /* 0x000fea0003800000 */\n";
  g_autoptr(SassFunction) g = sass_load_data(good, strlen(good), "n.sass", "k", &err);
  ck_assert_msg(g != NULL, "%s", err ? err->message : "?");
  ck_assert_uint_eq(g->arch, 90);
  ck_assert_uint_eq(g->n, 4);
  ck_assert_int_eq(g->ins[2].target, 0x10);
  ck_assert_str_eq(g->demangled, "k()");
  /* The same listing with CR LF or lone CR (classic Mac) line ends. */
  for (guint crlf = 0; crlf < 2; crlf++) {
    g_auto(GStrv) lines = g_strsplit(good, "\n", -1);
    g_autofree gchar *text = g_strjoinv(crlf ? "\r\n" : "\r", lines);
    g_autoptr(SassFunction) h = sass_load_data(text, strlen(text), "n.sass", "k", &err);
    ck_assert_msg(h != NULL, "%s", err ? err->message : "?");
    ck_assert_uint_eq(h->n, 4);
    ck_assert_int_eq(h->ins[2].target, 0x10);
    ck_assert_str_eq(h->ins[3].opcode, "EXIT");
  }
}
END_TEST

/* ---- name keys -------------------------------------------------------------- */

START_TEST(test_name_key) {
  static const gchar *const cases[][2] = {
      {"void k_transpose<(int)0>(float *, const float *, int, Rec *, float *)", "k_transpose<0>"},
      {"void k_transpose<0>(float*, float const*, int, Rec*, float*)", "k_transpose<0>"},
      {"k_saxpy(float *, const float *, float, int, Rec *, float *)", "k_saxpy"},
      {"ns::k<float, 4>(float*)", "ns::k<float,4>"},
      /* a mangled name (ncu --print-kernel-base mangled) is demangled first */
      {"_Z7k_saxpyPfPKffiP3RecS_", "k_saxpy"},
      {"_Z11k_transposeILi0EEvPfPKfiP3RecS0_", "k_transpose<0>"},
      {"_Zbad", "_Zbad"}, /* does not demangle: as it is */
  };
  for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree gchar *k = sass_name_key(cases[i][0]);
    ck_assert_str_eq(k, cases[i][1]);
  }
}
END_TEST

/* ---- the real listings ------------------------------------------------------ */

static const gchar *const real_kernels[][3] = {
    /* file stem, function as a user gives it, mangled name */
    {"saxpy", "k_saxpy", "_Z7k_saxpyPfPKffiP3RecS_"},
    {"softmax", "k_softmax", "_Z9k_softmaxPfPKfiP3RecS_"},
    {"sgemm", "k_sgemm", "_Z7k_sgemmPfPKfS1_iP3RecS_"},
    {"stencil", "k_stencil(", "_Z9k_stencilPfPKfiP3RecS_"},
    {"gather", "_Z8k_gatherPfPKfPKjiP3RecS_", "_Z8k_gatherPfPKfPKjiP3RecS_"},
    {"transpose", "k_transpose<0>", "_Z11k_transposeILi0EEvPfPKfiP3RecS0_"},
};

static gchar *real_path(const gchar *stem) {
  const gchar *root = g_getenv("WARPSIM_ROOT");
  ck_assert_msg(root != NULL, "WARPSIM_ROOT not set (run under CTest)");
  g_autofree gchar *file = g_strdup_printf("%s.sass", stem);
  return g_build_filename(root, "results", "reference", "h200", "real", "sass", file, NULL);
}

static SassFunction *load_real(guint i) {
  g_autofree gchar *path = real_path(real_kernels[i][0]);
  GError *err = NULL;
  SassFunction *f = sass_load(path, real_kernels[i][1], &err);
  ck_assert_msg(f != NULL, "%s: %s", path, err ? err->message : "?");
  return f;
}

/* Pending write barrier of every register: -1 none. */
typedef struct {
  gint8 r[256], p[8], ur[64], up[8];
} Pending;

static gint8 *pending_of(Pending *s, guint file, guint index) {
  switch (file) {
  case SASS_REG_R:
    return index < 256 ? &s->r[index] : NULL;
  case SASS_REG_P:
    return index < 8 ? &s->p[index] : NULL;
  case SASS_REG_UR:
    return index < 64 ? &s->ur[index] : NULL;
  default:
    return index < 8 ? &s->up[index] : NULL;
  }
}

static void pending_clear(Pending *s, guint8 mask) {
  gint8 *all = (gint8 *)s;
  for (gsize i = 0; i < sizeof *s; i++)
    if (all[i] >= 0 && (mask >> all[i]) & 1u)
      all[i] = -1;
}

static gboolean in_order_queue(const gchar *op) {
  return strcmp(op, "LDS") == 0 || strcmp(op, "LDG") == 0 || strcmp(op, "LDL") == 0 ||
         strcmp(op, "LDSM") == 0;
}

/* Register dataflow cross-check: along straight-line code (state reset at
 * every branch target and after every branch), a register written by an
 * instruction that sets a write barrier must not be read before some
 * instruction waits on that barrier.  Returns the violations found. */
static guint raw_violations(const SassFunction *f, GString *why) {
  gboolean *leader = g_new0(gboolean, f->n + 1);
  for (guint i = 0; i < f->n; i++)
    if (f->ins[i].target >= 0 && f->ins[i].target / 16 < f->n &&
        strcmp(f->ins[i].opcode, "BSSY") != 0)
      leader[f->ins[i].target / 16] = TRUE;
  Pending s;
  memset(&s, -1, sizeof s);
  guint bad = 0;
  for (guint i = 0; i < f->n; i++) {
    const SassInstr *in = &f->ins[i];
    if (leader[i])
      memset(&s, -1, sizeof s);
    pending_clear(&s, in->ctrl.wait_mask);
    for (guint j = 0; j < in->n_src; j++)
      for (guint k = 0; k < in->src[j].count; k++) {
        gint8 *p = pending_of(&s, in->src[j].file, in->src[j].index + k);
        if (p && *p >= 0) {
          bad++;
          g_string_append_printf(why, " 0x%04x %s reads a register of barrier %d;", in->offset,
                                 in->text, *p);
        }
      }
    if (in->guard >= 0) {
      gint8 *p = pending_of(&s, in->guard_file, (guint)in->guard);
      if (p && *p >= 0) {
        bad++;
        g_string_append_printf(why, " 0x%04x guard;", in->offset);
      }
    }
    gint8 barrier = in->ctrl.write_sb < SASS_BARRIERS ? (gint8)in->ctrl.write_sb : -1;
    if (barrier < 0 && in_order_queue(in->opcode)) {
      /* Loads of one queue complete in order: the compiler tracks a run of
       * them by the barrier of a later one (sgemm's LDS.128 groups). */
      for (guint j = i + 1; j < f->n && barrier < 0; j++)
        if (strcmp(f->ins[j].opcode, in->opcode) == 0 && f->ins[j].ctrl.write_sb < SASS_BARRIERS)
          barrier = (gint8)f->ins[j].ctrl.write_sb;
      if (barrier < 0) {
        bad++;
        g_string_append_printf(why, " 0x%04x %s: no barrier tracks it;", in->offset, in->text);
      }
    }
    for (guint j = 0; j < in->n_dst; j++)
      for (guint k = 0; k < in->dst[j].count; k++) {
        gint8 *p = pending_of(&s, in->dst[j].file, in->dst[j].index + k);
        if (p)
          *p = barrier;
      }
    if (strcmp(in->opcode, "BRA") == 0 || strcmp(in->opcode, "EXIT") == 0 ||
        strcmp(in->opcode, "RET") == 0 || strcmp(in->opcode, "CALL") == 0)
      memset(&s, -1, sizeof s);
  }
  g_free(leader);
  return bad;
}

START_TEST(test_real_listing) {
  g_autoptr(SassFunction) f = load_real((guint)_i);
  ck_assert_str_eq(f->name, real_kernels[_i][2]);
  ck_assert_uint_eq(f->arch, 90);
  ck_assert_uint_gt(f->n, 50);
  for (guint i = 0; i < f->n; i++)
    ck_assert_uint_eq(f->ins[i].offset, 16 * i);
  GString *why = g_string_new(NULL);
  guint bad = raw_violations(f, why);
  ck_assert_msg(bad == 0, "%s: %u uncovered reads:%s", real_kernels[_i][0], bad, why->str);
  g_string_free(why, TRUE);
  /* Every global load sets a write barrier that some later instruction
   * waits on (shared-memory loads may share a later load's barrier: above). */
  guint loads = 0;
  for (guint i = 0; i < f->n; i++) {
    const SassInstr *in = &f->ins[i];
    if (strcmp(in->opcode, "LDG") != 0)
      continue;
    loads++;
    ck_assert_uint_lt(in->ctrl.write_sb, SASS_BARRIERS);
    gboolean waited = FALSE;
    for (guint j = i + 1; j < f->n && !waited; j++)
      waited = (f->ins[j].ctrl.wait_mask >> in->ctrl.write_sb) & 1u;
    ck_assert_msg(waited, "0x%04x %s: barrier %u never waited on", in->offset, in->text,
                  in->ctrl.write_sb);
  }
  ck_assert_uint_gt(loads, 0);
}
END_TEST

/* Registers per thread from the listing against ptxas -v "Used N registers"
 * (the attrs.csv files beside the listings): sass_function_regs. */
static const struct {
  const gchar *dir, *file, *function;
  guint regs;
} regs_cases[] = {
    {"real", "saxpy.sass", "k_saxpy", 32},
    {"real", "softmax.sass", "k_softmax", 32},
    {"real", "sgemm.sass", "k_sgemm", 51},
    {"real", "stencil.sass", "k_stencil(", 40},
    {"real", "gather.sass", "k_gather", 32},
    {"real", "transpose.sass", "k_transpose", 32},
    {"real2", "kernels2.sass", "k_blur(", 32},
    {"real2", "kernels2.sass", "k_mv(", 31},
    {"spill_sass", "kernels3.sass", "k_spill_0(", 64},
    {"spill_sass", "kernels3.sass", "k_spill_128(", 64},
    {"spill_sass", "kernels3.sass", "k_spill_96(", 64},
    {"spill_sass", "kernels3.sass", "k_spill_64(", 64},
    {"spill_sass", "kernels3.sass", "k_spill_56(", 56},
    {"spill_sass", "kernels3.sass", "k_spill_48(", 48},
    {"spill_sass", "kernels3.sass", "k_spill_40(", 40},
    {"spill_sass", "kernels3.sass", "k_spill_32(", 32},
};

START_TEST(test_listing_regs) {
  const gchar *root = g_getenv("WARPSIM_ROOT");
  ck_assert_msg(root != NULL, "WARPSIM_ROOT not set (run under CTest)");
  g_autofree gchar *path = g_build_filename(root, "results", "reference", "h200",
                                            regs_cases[_i].dir, "sass", regs_cases[_i].file, NULL);
  GError *err = NULL;
  g_autoptr(SassFunction) f = sass_load(path, regs_cases[_i].function, &err);
  ck_assert_msg(f != NULL, "%s: %s", path, err ? err->message : "?");
  guint line = 0;
  ck_assert_uint_eq(sass_function_regs(f, &line), regs_cases[_i].regs);
  ck_assert_uint_gt(line, 0);
}
END_TEST

/* The saxpy listing, instruction by instruction where the text is known:
 * the first S2R R4 sets barrier 1, the ISETP that reads R4 waits on it. */
START_TEST(test_saxpy_dependency) {
  g_autoptr(SassFunction) f = load_real(0);
  const SassInstr *s2r = &f->ins[5], *isetp = &f->ins[10];
  ck_assert_str_eq(s2r->text, "S2R R4, SR_TID.X");
  ck_assert_uint_eq(s2r->ctrl.write_sb, 1);
  ck_assert_str_eq(isetp->text, "ISETP.GE.AND P0, PT, R4, R0, PT");
  ck_assert_uint_eq(isetp->ctrl.wait_mask, 2);
  ck_assert_uint_eq(isetp->ctrl.stall, 13);
  ck_assert_int_eq(f->ins[11].target, 0x560);
  ck_assert_int_eq(sass_find_offset(f, 0x560), 0x56);
  ck_assert_int_eq(sass_find_offset(f, 0x561), -1);
}
END_TEST

/* ---- bad input -------------------------------------------------------------- */

typedef struct {
  const gchar *text;
  const gchar *function;
  gint code;
  const gchar *msg; /* substring of the message */
} BadCase;

#define INS(off, txt) "        /*" off "*/ " txt " ; /* 0x0000000000007b82 */\n"
#define HI "                  /* 0x000fe20000000800 */\n"

static const BadCase bad_cases[] = {
    {"a,b,c\n1,2,3\n", "k", SASS_ERROR_PARSE, "t.sass:1: not a SASS listing"},
    {"", "k", SASS_ERROR_PARSE, "t.sass:1: not a SASS listing"},
    {"\tcode for sm_90\n\t\tFunction : _Z1av\n" INS("0000", "EXIT") HI, "zzz", SASS_ERROR_FUNCTION,
     "no function matches 'zzz' (functions found: _Z1av (a()))"},
    {"\tcode for sm_90\n\t\tFunction : _Z2abv\n" INS("0000", "EXIT") HI
     "\t\tFunction : _Z2acv\n" INS("0000", "EXIT") HI,
     "a", SASS_ERROR_FUNCTION, "matches several functions: 'ab()', 'ac()'"},
    {"\tcode for sm_75\n\t\tFunction : _Z1av\n" INS("0000", "EXIT") HI, "a", SASS_ERROR_ARCH,
     "t.sass:2: function '_Z1av' is compiled for sm_75"},
    /* 4294967386 = 2^32 + 90: once read as sm_90 */
    {"\tcode for sm_4294967386\n\t\tFunction : _Z1av\n" INS("0000", "EXIT") HI, "a",
     SASS_ERROR_ARCH, "t.sass:2: function '_Z1av' is compiled for an sm_ number past 9999"},
    {"\tcode for sm_90\n\t\tFunction : _Z1av\n" INS("0000", "EXIT"), "a", SASS_ERROR_PARSE,
     "t.sass:3: instruction without the second (control) word"},
    {"\tcode for sm_90\n\t\tFunction : _Z1av\n" INS("0000", "NOP") HI INS("0020", "EXIT") HI, "a",
     SASS_ERROR_PARSE, "t.sass:5: instruction at offset 0x20, expected 0x10"},
    {INS("0000", "EXIT") HI, "a", SASS_ERROR_PARSE, "t.sass:1: instruction before any function"},
    {"\tcode for sm_90\n\t\tFunction : _Z1av\n" INS("0000", "@Q0 EXIT") HI, "a", SASS_ERROR_PARSE,
     "t.sass:3: bad guard predicate"},
    {"\tcode for sm_90\n\t\tFunction : _Z1av\n" INS("0000", "12 R0") HI, "a", SASS_ERROR_PARSE,
     "t.sass:3: no opcode"},
    {"\tcode for sm_90\n.text._Z1av:\n" INS("0000", "BRA `(.L_x_9)") HI, "a", SASS_ERROR_PARSE,
     "t.sass:3: unknown label '.L_x_9'"},
    {"\tcode for sm_90\n\t\tFunction : _Z1av\n", "a", SASS_ERROR_PARSE, "has no instructions"},
    /* Registers past their file (R300 was read as R44, R4294967296 as R0). */
    {"\tcode for sm_90\n\t\tFunction : _Z1av\n" INS("0000", "IADD3 R300, R2, R3, RZ") HI, "a",
     SASS_ERROR_PARSE,
     "t.sass:3: register 'R300' out of range in 'IADD3 R300, R2, R3, RZ' (allowed R0..R254, "
     "UR0..UR62, P0..P6, UP0..UP6)"},
    {"\tcode for sm_90\n\t\tFunction : _Z1av\n" INS("0000", "IADD3 R4294967296, R2, R3, RZ") HI,
     "a", SASS_ERROR_PARSE, "t.sass:3: register 'R4294967296' out of range"},
    {"\tcode for sm_90\n\t\tFunction : _Z1av\n" INS("0000", "LDG.E R2, desc[UR64][R2.64]") HI, "a",
     SASS_ERROR_PARSE, "t.sass:3: register 'UR64' out of range"},
    {"\tcode for sm_90\n\t\tFunction : _Z1av\n" INS("0000", "LDG.E.128 R254, desc[UR4][R2.64]") HI,
     "a", SASS_ERROR_PARSE, "t.sass:3: registers R254..R257 out of range"},
    /* (the message gives the allowed predicates, as the registers' does) */
    {"\tcode for sm_90\n\t\tFunction : _Z1av\n" INS("0000", "@P9 EXIT") HI, "a", SASS_ERROR_PARSE,
     "t.sass:3: bad guard predicate in '@P9 EXIT' (allowed @P0..@P6, @PT, @UP0..@UP6 or @UPT, each "
     "also as @!)"},
    /* nvdisasm without -hex: instructions without encodings (once "function ... has no
     * instructions" at the label line) */
    {"\t.target sm_90\n.text._Z1av:\n        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
     "        /*0010*/                   EXIT ;\n",
     "a", SASS_ERROR_PARSE,
     "t.sass:3: encodings missing at line 3 (an nvdisasm listing without -hex; the model reads "
     "each instruction's control bits from its encoding): use `cuobjdump -sass` or `nvdisasm "
     "-hex`"},
    /* sm_103 and sm_110: encodings unchecked */
    {"\tcode for sm_103\n\t\tFunction : _Z1av\n" INS("0000", "EXIT") HI, "a", SASS_ERROR_ARCH,
     "t.sass:2: function '_Z1av' is compiled for sm_103 (supported: sm_80, sm_86, sm_87, sm_89, "
     "sm_90, sm_100, sm_120, sm_121)"},
    {"\tcode for sm_110\n\t\tFunction : _Z1av\n" INS("0000", "EXIT") HI, "a", SASS_ERROR_ARCH,
     "compiled for sm_110 (supported:"},
    /* Not UTF-8: GRegex would read 0xf8 as the head of a character past Unicode. */
    {"\tcode for sm_90\n\t\tFunction : _Z1av\n" INS("0000", "EX\xf8IT") HI, "a", SASS_ERROR_PARSE,
     "t.sass:3: not a SASS listing (byte 0xf8 is not UTF-8 text"},
};

/* A branch, reconvergence point or call without a target (BRA with none
 * fell through as if not taken): {instruction, message}. */
static const gchar *const target_cases[][2] = {
    {"@P0 BRA", "t.sass:3: no target in '@P0 BRA' (a BRA needs a target address 0x... or a label"},
    {"BRA 0xzz", "t.sass:3: bad target '0xzz' in 'BRA 0xzz'"},
    {"BRA.DIV UR4", "t.sass:3: bad target 'UR4' in 'BRA.DIV UR4' (a BRA needs"},
    {"BSSY B0", "t.sass:3: bad target 'B0' in 'BSSY B0' (a BSSY needs"},
    {"JMP", "t.sass:3: no target in 'JMP'"},
    {"CALL.REL.NOINC", "t.sass:3: no target in 'CALL.REL.NOINC' (a CALL needs"},
};

START_TEST(test_no_target) {
  g_autofree gchar *text = g_strdup_printf(
      "\tcode for sm_90\n\t\tFunction : _Z1av\n" INS("0000", "%s") HI INS("0010", "EXIT") HI,
      target_cases[_i][0]);
  GError *err = NULL;
  ck_assert(sass_load_data(text, strlen(text), "t.sass", "a", &err) == NULL);
  ck_assert_user_error(err, SASS_ERROR_PARSE, target_cases[_i][1]);
  g_error_free(err);
}
END_TEST

START_TEST(test_bad_input) {
  const BadCase *c = &bad_cases[_i];
  GError *err = NULL;
  SassFunction *f = sass_load_data(c->text, strlen(c->text), "t.sass", c->function, &err);
  ck_assert(f == NULL);
  ck_assert_user_error(err, c->code, c->msg);
  g_error_free(err);
}
END_TEST

/* Instructions with no target to read stay accepted: BREAK names a
 * convergence barrier, an indirect CALL a register (calls are not followed). */
START_TEST(test_targetless_kept) {
  const gchar *text = "\tcode for sm_90\n\t\tFunction : _Z1av\n" INS("0000", "@P0 BREAK B1")
      HI INS("0010", "CALL.ABS.NOINC R4") HI INS("0020", "RET.REL.NODEC R20 0x0")
          HI INS("0030", "EXIT") HI;
  GError *err = NULL;
  g_autoptr(SassFunction) f = sass_load_data(text, strlen(text), "t.sass", "a", &err);
  ck_assert_msg(f != NULL, "%s", err ? err->message : "?");
  ck_assert_uint_eq(f->n, 4);
  for (guint i = 0; i < 3; i++)
    ck_assert_int_eq(f->ins[i].target, -1);
}
END_TEST

START_TEST(test_missing_file) {
  GError *err = NULL;
  ck_assert(sass_load("/nonexistent/x.sass", "k", &err) == NULL);
  ck_assert_int_eq(err->code, SASS_ERROR_NOT_FOUND);
  g_clear_error(&err);
  const gchar bin[] = "Function : \0x";
  ck_assert(sass_load_data(bin, sizeof bin, "b.sass", "k", &err) == NULL);
  ck_assert_int_eq(err->code, SASS_ERROR_PARSE);
  g_error_free(err);
}
END_TEST

/* ---- architectures ------------------------------------------------------------ */

typedef struct {
  guint arch;
  gchar suffix;
  guint major, minor; /* the GPU's compute capability */
  SassArchFit want;
} FitCase;

/* CUDA binary compatibility: same major, minor at most the GPU's; sm_XXa
 * only on its own compute capability. */
static const FitCase fit_cases[] = {
    {90, 0, 9, 0, SASS_ARCH_SAME},         {90, 'a', 9, 0, SASS_ARCH_SAME},
    {80, 0, 8, 6, SASS_ARCH_COMPATIBLE},   {80, 0, 8, 7, SASS_ARCH_COMPATIBLE},
    {80, 0, 8, 9, SASS_ARCH_COMPATIBLE},   {86, 0, 8, 9, SASS_ARCH_COMPATIBLE},
    {86, 0, 8, 0, SASS_ARCH_FOREIGN},      {89, 0, 8, 6, SASS_ARCH_FOREIGN},
    {89, 0, 9, 0, SASS_ARCH_FOREIGN},      {90, 0, 8, 9, SASS_ARCH_FOREIGN},
    {80, 0, 9, 0, SASS_ARCH_FOREIGN},      {90, 0, 10, 0, SASS_ARCH_FOREIGN},
    {100, 0, 10, 3, SASS_ARCH_COMPATIBLE}, {100, 'f', 10, 3, SASS_ARCH_COMPATIBLE},
    {100, 'a', 10, 3, SASS_ARCH_FOREIGN},  {100, 0, 11, 0, SASS_ARCH_FOREIGN},
    {120, 0, 12, 1, SASS_ARCH_COMPATIBLE}, {121, 0, 12, 0, SASS_ARCH_FOREIGN},
    {120, 'a', 12, 1, SASS_ARCH_FOREIGN},  {120, 0, 10, 0, SASS_ARCH_FOREIGN},
};

START_TEST(test_arch_fit) {
  const FitCase *c = &fit_cases[_i];
  ck_assert_int_eq(sass_arch_fit(c->arch, c->suffix, c->major, c->minor), c->want);
}
END_TEST

/* One EXIT compiled for `code` ("sm_89", "sm_90a"). */
static SassFunction *exit_for(const gchar *code, GError **err) {
  g_autofree gchar *text =
      g_strdup_printf("\tcode for %s\n\t\tFunction : _Z1av\n\t.headerflags\t@\"EF_CUDA_SM%u "
                      "EF_CUDA_VIRTUAL_SM(EF_CUDA_SM%u)\"\n" INS("0000", "EXIT") HI,
                      code, (guint)atoi(code + 3), (guint)atoi(code + 3));
  return sass_load_data(text, strlen(text), "t.sass", "a", err);
}

/* A listing the GPU cannot run is refused naming both; a lower minor of the
 * same major runs with one warning; sm_90a keeps its suffix past the header
 * flags (which spell it EF_CUDA_SM90). */
START_TEST(test_check_arch) {
  GError *err = NULL;
  g_autoptr(SassFunction) f89 = exit_for("sm_89", &err);
  ck_assert_msg(f89 != NULL, "%s", err ? err->message : "?");
  ck_assert_uint_eq(f89->arch, 89);
  ck_assert_uint_eq(f89->line, 2);
  g_autoptr(GString) warn = g_string_new(NULL);
  ck_assert(!sass_check_arch(f89, "h200", 9, 0, warn, &err));
  ck_assert_user_error(err, SASS_ERROR_ARCH,
                       "t.sass:2: function '_Z1av' is compiled for sm_89, which model 'h200' "
                       "(compute capability 9.0) cannot run: a cubin runs only on GPUs of its "
                       "own major version at the same or a higher minor version (CUDA binary "
                       "compatibility); give a listing compiled for sm_90 (nvcc "
                       "-gencode=arch=compute_90,code=sm_90) or a model of compute capability "
                       "8.9 or later 8.x");
  g_clear_error(&err);
  /* a model whose own listings are not read: no listing to ask for */
  ck_assert(!sass_check_arch(f89, "gtx980", 5, 2, warn, &err));
  ck_assert_user_error(err, SASS_ERROR_ARCH,
                       "(CUDA binary compatibility); listings for sm_52 are not read (supported: "
                       "sm_80, sm_86, sm_87, sm_89, sm_90, sm_100, sm_120, sm_121), so model "
                       "'gtx980' simulates synthetic kernels only");
  g_clear_error(&err);
  ck_assert_str_eq(warn->str, "");
  ck_assert(sass_check_arch(f89, "rtx4090", 8, 9, warn, &err));
  ck_assert_str_eq(warn->str, "");
  g_autoptr(SassFunction) f80 = exit_for("sm_80", &err);
  ck_assert(sass_check_arch(f80, "rtx3090", 8, 6, warn, &err));
  ck_assert_str_eq(warn->str,
                   "t.sass:2: function '_Z1av' is compiled for sm_80 and runs on model 'rtx3090' "
                   "(compute capability 8.6) unchanged: a cubin runs on the later minor versions "
                   "of its major version with the same instruction encoding (CUDA binary "
                   "compatibility); ptxas chose its stall counts for sm_80, not for this GPU\n");
  g_autoptr(SassFunction) f90a = exit_for("sm_90a", &err);
  ck_assert_uint_eq(f90a->arch, 90);
  ck_assert_int_eq(f90a->arch_suffix, 'a');
  ck_assert(!sass_check_arch(f90a, "x", 9, 1, NULL, &err));
  ck_assert_user_error(err, SASS_ERROR_ARCH, "compiled for sm_90a, which model 'x'");
  g_clear_error(&err);
  g_autoptr(SassFunction) f100 = exit_for("sm_100", &err);
  ck_assert_msg(f100 != NULL, "%s", err ? err->message : "?");
  ck_assert_uint_eq(f100->arch, 100);
  ck_assert_int_eq(f100->arch_suffix, 0);
  g_autoptr(SassFunction) f121 = exit_for("sm_121", &err);
  ck_assert_msg(f121 != NULL, "%s", err ? err->message : "?");
}
END_TEST

typedef struct {
  const gchar *a, *b;
  gboolean same;
} ParamsCase;

/* libiberty's spelling (the listing's) against Nsight Compute's (the
 * exports'), overloads told apart by their parameters. */
static const ParamsCase params_cases[] = {
    {"k_saxpy(float*, float const*, float, int, Rec*, float*)",
     "k_saxpy(float *, const float *, float, int, Rec *, float *)", TRUE},
    {"k_saxpy(float*, float const*, float, int, Rec*, float*)",
     "k_saxpy(double *, const double *, double, int, Rec *, double *)", FALSE},
    {"k_saxpy(float*, float const*, float, int, Rec*, float*)", "k_saxpy", TRUE},
    {"k_saxpy(float*, float const*, float, int, Rec*, float*)", "_Z7k_saxpyPfPKffiP3RecS_", TRUE},
    {"k(float*)", "_Z1kPf", TRUE},
    {"k(float*)", "_Z1kPd", FALSE},
    {"void k_store<1, float>(float*, unsigned long, int, Rec*, float)",
     "void k_store<1, float>(T2 *, unsigned long, int, Rec *, float)", TRUE},
    {"k(int)", "k(int, int)", FALSE},
    {"k(int)", "k(unsigned int)", FALSE},
    {"k(int const*)", "k(int *)", FALSE},
    {"k()", "k(void)", TRUE},
    {"k(float* const)", "k(float *const)", TRUE},
    {"k(float* const)", "k(float *)", FALSE},
    {"k(Foo<int, 2>)", "k(Foo<int,2>)", TRUE},
    {"k(Foo<int, 2>, int)", "k(Foo<int, 3>, int)", FALSE},
    {"k(void (*)(int))", "k(void(*)(int, int))", TRUE}, /* not a plain type: matches any */
    {"void k_transpose<0>(float*, float const*, int, Rec*, float*)",
     "void k_transpose<(int)0>(float *, const float *, int, Rec *, float *)", TRUE},
};

START_TEST(test_same_params) {
  const ParamsCase *c = &params_cases[_i];
  ck_assert_msg(sass_name_same_params(c->a, c->b) == c->same, "'%s' vs '%s'", c->a, c->b);
  ck_assert_msg(sass_name_same_params(c->b, c->a) == c->same, "'%s' vs '%s'", c->b, c->a);
}
END_TEST

/* A fat binary's listing: function _Z1av has sections for sm_80 (line 3,
 * one EXIT), sm_86 (line 8, NOP and EXIT) and sm_90 (line 15, three
 * instructions), each after cuobjdump's `arch = sm_XX` header. */
static const gchar fat_text[] =
    "arch = sm_80\n\tcode for sm_80\n\t\tFunction : _Z1av\n" INS("0000", "EXIT") HI
    "arch = sm_86\n\tcode for sm_86\n\t\tFunction : _Z1av\n" INS("0000", "NOP")
        HI INS("0010", "EXIT") HI
    "arch = sm_90\n\tcode for sm_90\n\t\tFunction : _Z1av\n" INS("0000", "NOP")
        HI INS("0010", "NOP") HI INS("0020", "EXIT") HI;

typedef struct {
  const gchar *model;
  guint major, minor;
  guint want_arch, want_n; /* 0: refused */
  gboolean warned;         /* run by binary compatibility */
} FatCase;

/* The section of the GPU's own compute capability, else the latest one it
 * runs by compatibility (8.9 runs sm_86, not sm_80), else refused. */
static const FatCase fat_cases[] = {
    {"a100", 8, 0, 80, 1, FALSE},   {"rtx3090", 8, 6, 86, 2, FALSE}, {"orin", 8, 7, 86, 2, TRUE},
    {"rtx4090", 8, 9, 86, 2, TRUE}, {"h200", 9, 0, 90, 3, FALSE},    {"b200", 10, 0, 0, 0, FALSE},
};

START_TEST(test_fat_sections) {
  const FatCase *c = &fat_cases[_i];
  SassGpu gpu = {c->model, c->major, c->minor};
  GError *err = NULL;
  g_autoptr(GString) warn = g_string_new(NULL);
  g_autoptr(SassFunction) f =
      sass_load_data_for(fat_text, strlen(fat_text), "fat.sass", "a", &gpu, warn, &err);
  if (c->want_arch == 0) {
    ck_assert(f == NULL);
    ck_assert_user_error(err, SASS_ERROR_ARCH,
                         "fat.sass:3: function '_Z1av' has 3 sections, for sm_80 (line 3), sm_86 "
                         "(line 8) and sm_90 (line 15), none of which model 'b200' (compute "
                         "capability 10.0) can run: a cubin runs only on GPUs of its own major "
                         "version at the same or a higher minor version (CUDA binary "
                         "compatibility); give a listing compiled for sm_100 (nvcc "
                         "-gencode=arch=compute_100,code=sm_100) or a model that runs one of "
                         "them");
    g_clear_error(&err);
    ck_assert_str_eq(warn->str, "");
    return;
  }
  ck_assert_msg(f != NULL, "%s", err ? err->message : "?");
  ck_assert_uint_eq(f->arch, c->want_arch);
  ck_assert_uint_eq(f->n, c->want_n);
  if (c->warned)
    ck_assert_msg(strstr(warn->str, "fat.sass:8: function '_Z1av' is compiled for sm_86 and runs "
                                    "on model") != NULL,
                  "%s", warn->str);
  else
    ck_assert_str_eq(warn->str, "");
}
END_TEST

/* Without a GPU: the sm_90 section, as before; one section the GPU cannot
 * run: sass_check_arch's message, as with a listing of one architecture. */
START_TEST(test_fat_no_gpu) {
  GError *err = NULL;
  g_autoptr(SassFunction) f = sass_load_data(fat_text, strlen(fat_text), "fat.sass", "a", &err);
  ck_assert_msg(f != NULL, "%s", err ? err->message : "?");
  ck_assert_uint_eq(f->arch, 90);
  const gchar *one =
      "arch = sm_89\n\tcode for sm_89\n\t\tFunction : _Z1av\n" INS("0000", "EXIT") HI;
  SassGpu h200 = {"h200", 9, 0};
  ck_assert(sass_load_data_for(one, strlen(one), "one.sass", "a", &h200, NULL, &err) == NULL);
  ck_assert_user_error(err, SASS_ERROR_ARCH,
                       "one.sass:3: function '_Z1av' is compiled for sm_89, which model 'h200' "
                       "(compute capability 9.0) cannot run");
  g_clear_error(&err);
}
END_TEST

/* sass_load_all: every function, in listing order. */
START_TEST(test_load_all) {
  const gchar *text = "\tcode for sm_90\n\t\tFunction : _Z1bv\n" INS("0000", "EXIT") HI
      "\t\tFunction : _Z1av\n" INS("0000", "NOP") HI INS("0010", "EXIT") HI;
  g_autofree gchar *path = g_build_filename(g_get_tmp_dir(), "check_sass_all.sass", NULL);
  ck_assert(g_file_set_contents(path, text, -1, NULL));
  GError *err = NULL;
  g_autoptr(GPtrArray) all = sass_load_all(path, &err);
  g_unlink(path);
  ck_assert_msg(all != NULL, "%s", err ? err->message : "?");
  ck_assert_uint_eq(all->len, 2);
  ck_assert_str_eq(((SassFunction *)all->pdata[0])->name, "_Z1bv");
  ck_assert_uint_eq(((SassFunction *)all->pdata[1])->n, 2);
  ck_assert(sass_load_all("/nonexistent/x.sass", &err) == NULL);
  ck_assert_int_eq(err->code, SASS_ERROR_NOT_FOUND);
  g_error_free(err);
}
END_TEST

static Suite *sass_suite(void) {
  Suite *s = suite_create("sass");
  TCase *tc = tcase_create("decode");
  tcase_add_loop_test(tc, test_ctrl, 0, G_N_ELEMENTS(ctrl_cases));
  tcase_add_loop_test(tc, test_operands, 0, G_N_ELEMENTS(op_cases));
  tcase_add_test(tc, test_nvdisasm_labels);
  tcase_add_test(tc, test_name_key);
  tcase_add_loop_test(tc, test_same_params, 0, G_N_ELEMENTS(params_cases));
  suite_add_tcase(s, tc);
  TCase *real = tcase_create("real");
  tcase_set_timeout(real, 60);
  tcase_add_loop_test(real, test_real_listing, 0, G_N_ELEMENTS(real_kernels));
  tcase_add_test(real, test_saxpy_dependency);
  tcase_add_loop_test(real, test_listing_regs, 0, G_N_ELEMENTS(regs_cases));
  suite_add_tcase(s, real);
  TCase *bad = tcase_create("bad_input");
  tcase_add_loop_test(bad, test_bad_input, 0, G_N_ELEMENTS(bad_cases));
  tcase_add_test(bad, test_missing_file);
  tcase_add_loop_test(bad, test_no_target, 0, G_N_ELEMENTS(target_cases));
  tcase_add_test(bad, test_targetless_kept);
  suite_add_tcase(s, bad);
  TCase *arch = tcase_create("arch");
  tcase_add_loop_test(arch, test_arch_fit, 0, G_N_ELEMENTS(fit_cases));
  tcase_add_test(arch, test_check_arch);
  tcase_add_loop_test(arch, test_fat_sections, 0, G_N_ELEMENTS(fat_cases));
  tcase_add_test(arch, test_fat_no_gpu);
  tcase_add_test(arch, test_load_all);
  suite_add_tcase(s, arch);
  return s;
}

int main(void) {
  g_autoptr(SRunner) sr = srunner_create(sass_suite());
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
