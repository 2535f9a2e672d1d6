/* check_ncu.c - tests of sim/sass/ncu_{source,details}.[ch]: the six real H200 source-page and
 * details exports (results/reference/h200/real/ncu through WARPSIM_ROOT)
 * against their SASS listings, per-instruction memory counters worked out
 * from the files by hand, kernel selection in a multi-kernel details
 * export, and bad input (another kernel's profile, malformed CSV, missing
 * columns, non-numeric values). */
#include "check_error.h"
#include "sass/ncu.h"
#include "sass/ncu_csv.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

typedef struct {
  const gchar *stem, *mangled;
  guint n;          /* instructions in the listing and the export */
  guint regs;       /* attrs.csv */
  gdouble smem;     /* attrs.csv static_smem, bytes */
  gdouble l1, l2;   /* details_full_b8.csv L1/TEX and L2 Hit Rate, % */
  gdouble executed; /* details Executed Instructions = sum of the source page's counts */
} RealCase;

static const RealCase real_cases[] = {
    {"saxpy", "_Z7k_saxpyPfPKffiP3RecS_", 120, 32, 0, 3.05, 33.48, 13719552},
    {"softmax", "_Z9k_softmaxPfPKfiP3RecS_", 264, 32, 16, 0.01, 50.64, 76973952},
    {"sgemm", "_Z7k_sgemmPfPKfS1_iP3RecS_", 544, 51, 8192, 0.13, 97.64, 231910272},
    {"stencil", "_Z9k_stencilPfPKfiP3RecS_", 192, 40, 0, 22.52, 51.03, 31380096},
    {"gather", "_Z8k_gatherPfPKfPKjiP3RecS_", 120, 32, 0, 0.02, 16.08, 3712896},
    {"transpose", "_Z11k_transposeILi0EEvPfPKfiP3RecS0_", 168, 32, 4096, 0.02, 50.98, 59638656},
};

static gchar *ref_path(const gchar *dir, const gchar *file) {
  const gchar *root = g_getenv("WARPSIM_ROOT");
  ck_assert_msg(root != NULL, "WARPSIM_ROOT not set (run under CTest)");
  return g_build_filename(root, "results", "reference", "h200", "real", dir, file, NULL);
}

static SassFunction *listing(const RealCase *c) {
  g_autofree gchar *file = g_strdup_printf("%s.sass", c->stem);
  g_autofree gchar *path = ref_path("sass", file);
  GError *err = NULL;
  SassFunction *f = sass_load(path, c->mangled, &err);
  ck_assert_msg(f != NULL, "%s", err ? err->message : "?");
  return f;
}

static NcuSource *source(const RealCase *c, const gchar *key, GError **err) {
  g_autofree gchar *file = g_strdup_printf("%s_source_b8.csv", c->stem);
  g_autofree gchar *path = ref_path("ncu", file);
  return ncu_source_load(path, key, err);
}

START_TEST(test_real_source) {
  const RealCase *c = &real_cases[_i];
  g_autoptr(SassFunction) f = listing(c);
  g_autofree gchar *key = sass_name_key(f->demangled);
  GError *err = NULL;
  g_autoptr(NcuSource) s = source(c, key, &err);
  ck_assert_msg(s != NULL, "%s", err ? err->message : "?");
  ck_assert_uint_eq(s->n, c->n);
  ck_assert_msg(ncu_source_check(s, f, &err), "%s", err ? err->message : "?");
  ck_assert_uint_eq(s->line, 1);
  ck_assert_uint_eq(s->ins[0].line, 3);
  guint64 sum = 0;
  for (guint i = 0; i < s->n; i++) {
    ck_assert_uint_eq(s->ins[i].offset, 16 * i);
    sum += s->ins[i].executed;
  }
  ck_assert_uint_eq(sum, (guint64)c->executed);
  g_autofree gchar *dpath = ref_path("ncu", "details_full_b8.csv");
  g_autoptr(NcuDetails) d = ncu_details_load(dpath, key, &err);
  ck_assert_msg(d != NULL, "%s", err ? err->message : "?");
  ck_assert_uint_eq(d->regs, c->regs);
  ck_assert_double_eq_tol(d->smem_static, c->smem, 1e-9);
  ck_assert_double_eq_tol(d->l1_hit_pct, c->l1, 1e-9);
  ck_assert_double_eq_tol(d->l2_hit_pct, c->l2, 1e-9);
  ck_assert_double_eq_tol(d->executed_insts, c->executed, 0.5);
  ck_assert_uint_eq(d->block_size, 128);
  ck_assert_uint_eq(d->grid_size, 8 * 132);
}
END_TEST

/* gather.sass 0x3d0: the coalesced idx[] load, 540672 sectors over 135168
 * warp-loads = 4 per request, 32 bits per thread; 0x430: the random gather,
 * 4325375 sectors = 32.0 per request.  transpose 0x550: LDS with 32-way
 * conflicts, 17301504 wavefronts over 540672 executions = 32. */
START_TEST(test_memory_counters) {
  GError *err = NULL;
  g_autoptr(NcuSource) g = source(&real_cases[4], "k_gather", &err);
  ck_assert_msg(g != NULL, "%s", err ? err->message : "?");
  const NcuInstr *idx = &g->ins[0x3d0 / 16], *gat = &g->ins[0x430 / 16];
  ck_assert_uint_eq(idx->space, NCU_SPACE_GLOBAL);
  ck_assert(!idx->store);
  ck_assert_uint_eq(idx->access_bits, 32);
  ck_assert_uint_eq(idx->executed, 135168);
  ck_assert_uint_eq(idx->l2_sectors, 540672);
  ck_assert_uint_eq(gat->l2_sectors, 4325375);
  ck_assert(g->ins[0x4f0 / 16].store);
  g_autoptr(NcuSource) t = source(&real_cases[5], "k_transpose<0>", &err);
  ck_assert_msg(t != NULL, "%s", err ? err->message : "?");
  const NcuInstr *lds = &t->ins[0x550 / 16];
  ck_assert_uint_eq(lds->space, NCU_SPACE_SHARED);
  ck_assert_double_eq(lds->smem_ways, 32);
  ck_assert_uint_eq(lds->smem_wavefronts, 17301504);
  ck_assert_uint_eq(lds->smem_ideal, 540672);
  ck_assert_uint_eq(t->ins[0x4b0 / 16].smem_wavefronts, 540672); /* conflict-free STS */
}
END_TEST

/* The details export holds transpose<0> and transpose<1>: the key picks one. */
START_TEST(test_details_template) {
  g_autofree gchar *dpath = ref_path("ncu", "details_full_b8.csv");
  GError *err = NULL;
  g_autoptr(NcuDetails) one = ncu_details_load(dpath, "k_transpose<1>", &err);
  ck_assert_msg(one != NULL, "%s", err ? err->message : "?");
  ck_assert_double_eq_tol(one->l1_hit_pct, 4.23, 1e-9);
  ck_assert_double_eq_tol(one->smem_static, 4224, 1e-9); /* "4.22 Kbyte": 33 x 32 floats */
  ck_assert_double_eq_tol(one->smem_dynamic, 23936, 1e-9);
  /* "Memory Throughput" in Tbyte/s (Memory Workload Analysis), not the % of
   * the Speed Of Light section (64.70); "Duration" in us */
  ck_assert_double_eq_tol(one->dram_bytes_per_s, 2.58e12, 1.0);
  ck_assert_double_eq_tol(one->duration_s, 200.48e-6, 1e-15);
  ck_assert(ncu_details_load(dpath, "k_transpose", &err) == NULL);
  ck_assert_int_eq(err->code, NCU_ERROR_KERNEL);
  ck_assert_msg(strstr(err->message, "'void k_transpose<1>(float *, const float *, int, Rec *, "
                                     "float *)'") != NULL,
                "%s", err->message);
  g_error_free(err);
}
END_TEST

/* ---- bad input -------------------------------------------------------------- */

START_TEST(test_other_kernel) {
  GError *err = NULL;
  /* saxpy's export asked for gather */
  ck_assert(source(&real_cases[0], "k_gather", &err) == NULL);
  ck_assert_int_eq(err->code, NCU_ERROR_KERNEL);
  ck_assert_msg(strstr(err->message, "saxpy_source_b8.csv:1: a profile of 'k_saxpy(") != NULL, "%s",
                err->message);
  g_clear_error(&err);
  /* softmax's export checked against the saxpy listing: offset 0x20 differs
   * (saxpy ULDC.64, softmax another opcode) or the counts do */
  g_autoptr(SassFunction) f = listing(&real_cases[0]);
  g_autoptr(NcuSource) s = source(&real_cases[4], "k_gather", &err);
  ck_assert(s != NULL);
  /* gather and saxpy have 120 instructions each: the first opcode that differs */
  ck_assert(!ncu_source_check(s, f, &err));
  ck_assert_int_eq(err->code, NCU_ERROR_KERNEL);
  ck_assert_msg(strstr(err->message, "gather_source_b8.csv:") != NULL &&
                    strstr(err->message, "in the profile but") != NULL,
                "%s", err->message);
  g_clear_error(&err);
  g_autoptr(SassFunction) big = listing(&real_cases[2]);
  g_autoptr(NcuSource) sg = source(&real_cases[2], "k_sgemm", &err);
  big->n = 500; /* a listing shorter than the profile */
  ck_assert(!ncu_source_check(sg, big, &err));
  ck_assert_msg(strstr(err->message, "sgemm_source_b8.csv:503: the profile has 544 instructions, "
                                     "function '_Z7k_sgemmPfPKfS1_iP3RecS_'") != NULL,
                "%s", err->message);
  big->n = 544;
  g_clear_error(&err);
}
END_TEST

typedef struct {
  gboolean details;
  const gchar *text;
  gint code;
  const gchar *msg;
} BadCase;

#define HDR "\"Address\",\"Source\",\"Instructions Executed\"\n"
#define KN "\"Kernel Name\",\"k(int)\",\n"
#define DHDR                                                                                       \
  "\"ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"

static const BadCase bad_cases[] = {
    {FALSE, KN HDR "\"0x10\",\"EXIT\",\"4\n", NCU_ERROR_PARSE, "c.csv:3: malformed CSV"},
    {FALSE, KN HDR "\"0x10\",\"EX\"IT\",\"4\"\n", NCU_ERROR_PARSE, "c.csv:3: malformed CSV"},
    {FALSE, KN HDR "\"0x10\",\"EXIT\",\"four\"\n", NCU_ERROR_PARSE,
     "c.csv:3: column 'Instructions Executed': not a count 'four'"},
    {FALSE, KN HDR "\"0x10\",\"EXIT\",\"-3\"\n", NCU_ERROR_PARSE, "c.csv:3: column"},
    {FALSE, KN HDR "\"0x10\",\"EXIT\"\n", NCU_ERROR_PARSE, "c.csv:3: 2 fields, the header has 3"},
    /* More sectors than 32 per warp-level request (1e12 once ran for minutes) */
    {FALSE,
     KN "\"Address\",\"Source\",\"Instructions Executed\",\"L2 Theoretical Sectors Global\"\n"
        "\"0x10\",\"LDG.E R2, [R2.64]\",\"4\",\"129\"\n",
     NCU_ERROR_PARSE,
     "c.csv:3: column 'L2 Theoretical Sectors Global': 129 sectors for 4 instructions executed "
     "(allowed at most 32 per executed instruction)"},
    /* Line numbers count CR LF and lone CR (classic Mac) line ends too. */
    {FALSE,
     "\"Kernel Name\",\"k(int)\",\r\n\"Address\",\"Source\",\"Instructions Executed\"\r\n"
     "\"0x10\",\"EXIT\"\r\n",
     NCU_ERROR_PARSE, "c.csv:3: 2 fields, the header has 3"},
    {FALSE,
     "\"Kernel Name\",\"k(int)\",\r\"Address\",\"Source\",\"Instructions Executed\"\r"
     "\"0x0\",\"NOP\",\"4\"\r\"0x10\",\"EXIT\"\r",
     NCU_ERROR_PARSE, "c.csv:4: 2 fields, the header has 3"},
    {FALSE, KN HDR "\"zz\",\"EXIT\",\"4\"\n", NCU_ERROR_PARSE, "c.csv:3: column 'Address'"},
    {FALSE, KN "\"Addr\",\"Source\"\n\"0x10\",\"EXIT\"\n", NCU_ERROR_PARSE,
     "c.csv:2: no column 'Address'"},
    {FALSE, HDR "\"0x10\",\"EXIT\",\"4\"\n", NCU_ERROR_PARSE,
     "c.csv:1: not a Nsight Compute source-page export"},
    {FALSE, "", NCU_ERROR_PARSE, "c.csv:1: not a Nsight Compute source-page export"},
    {FALSE, KN HDR, NCU_ERROR_PARSE, "c.csv:1: no instruction rows"},
    {FALSE, "\"Kernel Name\",\"other(int)\",\n" HDR "\"0x10\",\"EXIT\",\"4\"\n", NCU_ERROR_KERNEL,
     "c.csv:1: a profile of 'other(int)', not of 'k'"},
    /* two launches of another kernel: named once */
    {FALSE,
     "\"Kernel Name\",\"other(int)\",\n" HDR "\"0x10\",\"EXIT\",\"4\"\n"
     "\"Kernel Name\",\"other(int)\",\n" HDR "\"0x10\",\"EXIT\",\"4\"\n",
     NCU_ERROR_KERNEL, "c.csv:1: a profile of 'other(int)', not of 'k'"},
    {TRUE, "a,b\n1,2\n", NCU_ERROR_PARSE, "c.csv:1: not a Nsight Compute details export"},
    {TRUE, DHDR "\"1\",\"k(int)\",\"Launch\",\"Registers Per Thread\",\"register\",\"lots\"\n",
     NCU_ERROR_PARSE, "c.csv:2: 'Registers Per Thread': not a number 'lots'"},
    {TRUE, DHDR "\"1\",\"k(int)\",\"Launch\",\"Block Size\",\"\",\"128\"\n", NCU_ERROR_PARSE,
     "c.csv:2: kernel 'k(int)' has no 'Registers Per Thread'"},
    {TRUE, DHDR "\"1\",\"j(int)\",\"Launch\",\"Block Size\",\"\",\"128\"\n", NCU_ERROR_KERNEL,
     "c.csv:1: no kernel 'k' in the details export (kernels: 'j(int)')"},
    {TRUE, DHDR "\"1\",\"k(int)\"\n", NCU_ERROR_PARSE, "c.csv:2: 2 fields, the header has 6"},
    /* Values out of a metric's range: an error, never a cast out of range. */
    {FALSE, KN HDR "\"0x10\",\"EXIT\",\"1e30\"\n", NCU_ERROR_PARSE,
     "c.csv:3: column 'Instructions Executed': not a count '1e30' (allowed 0..9007199254740992)"},
    {TRUE, DHDR "\"1\",\"k(int)\",\"Launch\",\"Registers Per Thread\",\"register\",\"-5\"\n",
     NCU_ERROR_PARSE,
     "c.csv:2: 'Registers Per Thread': out of range '-5' (allowed 1..255 registers, whole)"},
    {TRUE, DHDR "\"1\",\"k(int)\",\"Launch\",\"Registers Per Thread\",\"register\",\"0.5\"\n",
     NCU_ERROR_PARSE, "c.csv:2: 'Registers Per Thread': out of range '0.5'"},
    {TRUE, DHDR "\"1\",\"k(int)\",\"Launch\",\"Block Size\",\"\",\"1e20\"\n", NCU_ERROR_PARSE,
     "c.csv:2: 'Block Size': out of range '1e20' (allowed 1..1024 threads, whole)"},
    {TRUE,
     DHDR "\"1\",\"k(int)\",\"Launch\",\"Static Shared Memory Per Block\",\"Kbyte\",\"1e30\"\n",
     NCU_ERROR_PARSE,
     "c.csv:2: 'Static Shared Memory Per Block': out of range '1e30' (allowed 0..16777216 bytes)"},
    /* A byte metric in a unit that is no byte unit, or in GB (once read as bytes). */
    {TRUE,
     DHDR "\"1\",\"k(int)\",\"Launch\",\"Static Shared Memory Per Block\",\"furlong\",\"4\"\n",
     NCU_ERROR_PARSE, "c.csv:2: 'Static Shared Memory Per Block': unit 'furlong' is no byte unit"},
    {TRUE, DHDR "\"1\",\"k(int)\",\"Launch\",\"Static Shared Memory Per Block\",\"Gbyte\",\"1\"\n",
     NCU_ERROR_PARSE, "c.csv:2: 'Static Shared Memory Per Block': out of range '1'"},
    /* DRAM traffic: a rate in a byte/s unit and a time unit, each above 0
     * and given once. */
    {TRUE, DHDR "\"1\",\"k(int)\",\"Memory\",\"Duration\",\"us\",\"0\"\n", NCU_ERROR_PARSE,
     "c.csv:2: 'Duration': out of range '0' (allowed 0.000000001..1000000 s)"},
    {TRUE, DHDR "\"1\",\"k(int)\",\"Memory\",\"Memory Throughput\",\"GiB/s\",\"4\"\n",
     NCU_ERROR_PARSE, "c.csv:2: 'Memory Throughput': unit 'GiB/s' is no byte rate unit"},
    {TRUE,
     DHDR "\"1\",\"k(int)\",\"Memory\",\"Memory Throughput\",\"Gbyte/second\",\"827\"\n"
          "\"1\",\"k(int)\",\"Memory\",\"Memory Throughput\",\"Gbyte/s\",\"1000\"\n",
     NCU_ERROR_PARSE,
     "c.csv:3: 'Memory Throughput' repeated for the same launch (first at line 2; allowed once)"},
    {TRUE,
     DHDR "\"1\",\"k(int)\",\"Launch\",\"Registers Per Thread\",\"register\",\"32\"\n"
          "\"1\",\"k(int)\",\"Launch\",\"Registers Per Thread\",\"register\",\"200\"\n",
     NCU_ERROR_PARSE, "c.csv:3: 'Registers Per Thread' repeated for the same launch"},
    {TRUE, DHDR "\"1\",\"k(int)\",\"Memory\",\"Duration\",\"furlong\",\"4\"\n", NCU_ERROR_PARSE,
     "c.csv:2: 'Duration': unit 'furlong' is no time unit (allowed ns, us, ms, s"},
    {TRUE, DHDR "\"1\",\"k(int)\",\"Memory\",\"Memory Throughput\",\"Pbyte/s\",\"4\"\n",
     NCU_ERROR_PARSE,
     "c.csv:2: 'Memory Throughput': unit 'Pbyte/s' is no byte rate unit (allowed byte/s"},
    {TRUE, DHDR "\"1\",\"k(int)\",\"Memory\",\"Memory Throughput\",\"Tbyte/s\",\"-1\"\n",
     NCU_ERROR_PARSE, "c.csv:2: 'Memory Throughput': out of range '-1'"},
    {TRUE, DHDR "\"1\",\"k(int)\",\"Memory\",\"L1/TEX Hit Rate\",\"%\",\"500\"\n", NCU_ERROR_PARSE,
     "c.csv:2: 'L1/TEX Hit Rate': out of range '500' (allowed 0..110 %)"},
    /* Grid Size gives the bytes per CTA of the warm-L2 footprint (sassmem.c):
     * a value that is no number, or no grid, is an error, never a silently
     * cold launch. */
    {TRUE, DHDR "\"1\",\"k(int)\",\"Launch\",\"Grid Size\",\"\",\"lots\"\n", NCU_ERROR_PARSE,
     "c.csv:2: 'Grid Size': not a number 'lots' (allowed 1..4294967295 CTAs)"},
    {TRUE, DHDR "\"1\",\"k(int)\",\"Launch\",\"Grid Size\",\"\",\"inf\"\n", NCU_ERROR_PARSE,
     "c.csv:2: 'Grid Size': not a number 'inf'"},
    {TRUE, DHDR "\"1\",\"k(int)\",\"Launch\",\"Grid Size\",\"\",\"0\"\n", NCU_ERROR_PARSE,
     "c.csv:2: 'Grid Size': out of range '0' (allowed 1..4294967295 CTAs, whole)"},
    {TRUE, DHDR "\"1\",\"k(int)\",\"Launch\",\"Block Size\",\"\",\"(128, 1, 1)\"\n",
     NCU_ERROR_PARSE,
     "c.csv:2: 'Block Size': not a number '(128, 1, 1)' (allowed 1..1024 threads)"},
};

START_TEST(test_bad_input) {
  const BadCase *c = &bad_cases[_i];
  GError *err = NULL;
  gpointer r = c->details
                   ? (gpointer)ncu_details_load_data(c->text, strlen(c->text), "c.csv", "k", &err)
                   : (gpointer)ncu_source_load_data(c->text, strlen(c->text), "c.csv", "k", &err);
  ck_assert(r == NULL);
  ck_assert_user_error(err, c->code, c->msg);
  g_error_free(err);
}
END_TEST

/* A hit rate a little above 100 % (100.18 %: the L2 of a pure-store kernel
 * measured on the H200, results/reference/h200/real8/ncu/details8_b8.csv) is read
 * as 100 %; one above 110 % is refused (bad_cases). */
START_TEST(test_hit_rate_above_100) {
  static const gchar text[] =
      DHDR "\"1\",\"k(int)\",\"Launch\",\"Registers Per Thread\",\"\",\"32\"\n"
           "\"1\",\"k(int)\",\"Memory\",\"L2 Hit Rate\",\"%\",\"100.18\"\n"
           "\"1\",\"k(int)\",\"Memory\",\"L1/TEX Hit Rate\",\"%\",\"99.5\"\n";
  GError *err = NULL;
  g_autoptr(NcuDetails) d = ncu_details_load_data(text, strlen(text), "c.csv", "k", &err);
  ck_assert_msg(d != NULL, "%s", err ? err->message : "?");
  ck_assert_double_eq(d->l2_hit_pct, 100.0);
  ck_assert_double_eq_tol(d->l1_hit_pct, 99.5, 1e-12);
  const gchar over[] = DHDR "\"1\",\"k(int)\",\"Memory\",\"L2 Hit Rate\",\"%\",\"110.01\"\n";
  ck_assert(ncu_details_load_data(over, strlen(over), "c.csv", "k", &err) == NULL);
  ck_assert_user_error(err, NCU_ERROR_PARSE,
                       "c.csv:2: 'L2 Hit Rate': out of range '110.01' (allowed 0..110 %)");
  g_error_free(err);
}
END_TEST

/* Numbers as Nsight Compute prints them, by hand: thousands separators,
 * fractions, exponents, spaces around; and what is no number. */
START_TEST(test_numbers) {
  static const struct {
    const gchar *text;
    gdouble value;
  } good[] = {{"135,168", 135168}, {"1,234,567.5", 1234567.5}, {"28.16", 28.16}, {" 32 ", 32},
              {"-5", -5},          {"1.5e+06", 1.5e6},         {".5", 0.5},      {"7.", 7}};
  for (guint i = 0; i < G_N_ELEMENTS(good); i++) {
    gdouble v = 0;
    ck_assert_msg(ncu_csv_number(good[i].text, &v), "'%s' refused", good[i].text);
    ck_assert_double_eq_tol(v, good[i].value, 1e-9);
  }
  static const gchar *const bad[] = {"0x20", "3 2", "3,2", "1,23", ",123",  "12,3456", "1.2,345",
                                     "1e",   "e5",  "inf", "nan",  "1e400", "+",       "--1"};
  for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
    gdouble v = 0;
    ck_assert_msg(!ncu_csv_number(bad[i], &v), "'%s' read as %g", bad[i], v);
  }
  gdouble v = 0;
  ck_assert(ncu_csv_number("-", &v) && isnan(v));
  ck_assert(ncu_csv_number("", &v) && isnan(v));
  ck_assert(ncu_csv_number("n/a", &v) && isnan(v));
}
END_TEST

START_TEST(test_missing_file) {
  GError *err = NULL;
  ck_assert(ncu_source_load("/nonexistent.csv", "k", &err) == NULL);
  ck_assert_int_eq(err->code, NCU_ERROR_NOT_FOUND);
  g_clear_error(&err);
  ck_assert(ncu_details_load("/", "k", &err) == NULL);
  ck_assert_int_eq(err->code, NCU_ERROR_NOT_FOUND);
  g_clear_error(&err);
  const gchar bin[] = "\"Kernel Name\"\0,";
  ck_assert(ncu_source_load_data(bin, sizeof bin, "b.csv", "k", &err) == NULL);
  ck_assert_int_eq(err->code, NCU_ERROR_PARSE);
  g_clear_error(&err);
}
END_TEST

static Suite *ncu_suite(void) {
  Suite *s = suite_create("ncu");
  TCase *real = tcase_create("real");
  tcase_set_timeout(real, 60);
  tcase_add_loop_test(real, test_real_source, 0, G_N_ELEMENTS(real_cases));
  tcase_add_test(real, test_memory_counters);
  tcase_add_test(real, test_details_template);
  tcase_add_test(real, test_other_kernel);
  suite_add_tcase(s, real);
  TCase *bad = tcase_create("bad_input");
  tcase_add_loop_test(bad, test_bad_input, 0, G_N_ELEMENTS(bad_cases));
  tcase_add_test(bad, test_missing_file);
  tcase_add_test(bad, test_numbers);
  tcase_add_test(bad, test_hit_rate_above_100);
  suite_add_tcase(s, bad);
  return s;
}

int main(void) {
  g_autoptr(SRunner) sr = srunner_create(ncu_suite());
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
