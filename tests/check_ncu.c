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

/* What the profile measured, read for the agreement (saxpy's rows of
 * details_full_b8.csv and the column sums of saxpy_source_b8.csv). */
START_TEST(test_measured) {
  GError *err = NULL;
  g_autofree gchar *dpath = ref_path("ncu", "details_full_b8.csv");
  g_autoptr(NcuDetails) d = ncu_details_load(dpath, "k_saxpy", &err);
  ck_assert_msg(d != NULL, "%s", err ? err->message : "?");
  ck_assert_double_eq_tol(d->sm_active_cycles, 438297.84, 1e-6);
  ck_assert_double_eq_tol(d->elapsed_cycles, 447295, 1e-9);
  ck_assert_double_eq_tol(d->sm_ghz, 1.97, 1e-12);
  ck_assert_double_eq_tol(d->dram_pct, 74.59, 1e-12);
  ck_assert_double_eq_tol(d->l1_pct, 22.14, 1e-12);
  ck_assert_double_eq_tol(d->l2_pct, 80.72, 1e-12);
  ck_assert_double_eq_tol(d->issued_ipc, 0.24, 1e-12);
  ck_assert_double_eq_tol(d->issue_slots_pct, 5.80, 1e-12);
  ck_assert_double_eq_tol(d->warp_cpi, 131.37, 1e-12);
  ck_assert_double_eq_tol(d->achieved_pct, 48.85, 1e-12);
  g_autoptr(NcuSource) s = source(&real_cases[0], "k_saxpy", &err);
  ck_assert_msg(s != NULL, "%s", err ? err->message : "?");
  ck_assert_uint_eq(s->samples[NCU_STALL_LONG_SB], 24334);
  ck_assert_uint_eq(s->samples[NCU_STALL_SELECTED], 206);
  ck_assert_uint_eq(s->samples[NCU_STALL_LG], 2213);
  ck_assert_str_eq(ncu_stall_column(NCU_STALL_LONG_SB), "stall_long_sb");
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
    {TRUE, DHDR "\"1\",\"j(int)\",\"Launch\",\"Block Size\",\"\",\"128\"\n", NCU_ERROR_KERNEL,
     "c.csv:1: no kernel 'k' in the details export (kernels: 'j(int)')"},
    {TRUE, DHDR "\"1\",\"k(int)\"\n", NCU_ERROR_PARSE, "c.csv:2: 2 fields, the header has 6"},
    /* Values out of a metric's range: an error, never a cast out of range. */
    {FALSE, KN HDR "\"0x10\",\"EXIT\",\"1e30\"\n", NCU_ERROR_PARSE,
     "c.csv:3: column 'Instructions Executed': not a count '1e30' (allowed 0..9007199254740992, or "
     "n/a)"},
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
    {TRUE, DHDR "\"1\",\"k(int)\",\"Memory\",\"L1/TEX Hit Rate\",\"%\",\"-0.5\"\n", NCU_ERROR_PARSE,
     "c.csv:2: 'L1/TEX Hit Rate': out of range '-0.5' (allowed 0..9007199254740992 %)"},
    /* Grid Size gives the bytes per CTA of the warm-L2 footprint (sassmem.c):
     * a value that is no number, or no grid, is an error, never a silently
     * cold launch. */
    {TRUE, DHDR "\"1\",\"k(int)\",\"Launch\",\"Grid Size\",\"\",\"lots\"\n", NCU_ERROR_PARSE,
     "c.csv:2: 'Grid Size': not a number 'lots' (allowed 1..4294967295 CTAs, or n/a)"},
    {TRUE, DHDR "\"1\",\"k(int)\",\"Launch\",\"Grid Size\",\"\",\"inf\"\n", NCU_ERROR_PARSE,
     "c.csv:2: 'Grid Size': not a number 'inf'"},
    {TRUE, DHDR "\"1\",\"k(int)\",\"Launch\",\"Grid Size\",\"\",\"1e309\"\n", NCU_ERROR_PARSE,
     "c.csv:2: 'Grid Size': out of range (overflow) '1e309' (allowed 1..4294967295 CTAs, or n/a)"},
    {TRUE, DHDR "\"1\",\"k(int)\",\"Launch\",\"Grid Size\",\"\",\"0\"\n", NCU_ERROR_PARSE,
     "c.csv:2: 'Grid Size': out of range '0' (allowed 1..4294967295 CTAs, whole)"},
    {TRUE, DHDR "\"1\",\"k(int)\",\"Launch\",\"Block Size\",\"\",\"(128, 1, 1)\"\n",
     NCU_ERROR_PARSE,
     "c.csv:2: 'Block Size': not a number '(128, 1, 1)' (allowed 1..1024 threads, or n/a)"},
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

/* One details row of launch 1 of k(int): metric, unit, value. */
#define ROW(metric, unit, value)                                                                   \
  "\"1\",\"k(int)\",\"Section\",\"" metric "\",\"" unit "\",\"" value "\"\n"

/* The details of kernel "k" in `text`, launch `id` (< 0: the first). */
static NcuDetails *details_of(const gchar *text, gsize len, gint64 id) {
  GError *err = NULL;
  NcuDetails *d = ncu_details_load_data_id(text, len, "c.csv", "k", id, &err);
  ck_assert_msg(d != NULL, "%s", err ? err->message : "?");
  return d;
}

/* `warnings` has exactly `n` lines and one of them holds `want`. */
static void assert_warned(const GString *warnings, guint n, const gchar *want) {
  guint lines = 0;
  for (const gchar *p = warnings->str; (p = strchr(p, '\n')) != NULL; p++)
    lines++;
  ck_assert_msg(lines == n, "%u warning lines, not %u: %s", lines, n, warnings->str);
  ck_assert_msg(want == NULL || strstr(warnings->str, want) != NULL, "'%s' lacks '%s'",
                warnings->str, want);
}

/* Hit rates above 100 %, as Nsight Compute prints them (100.18 %: the L2
 * of a pure-store kernel measured on the H200, real8/ncu/details8_b8.csv;
 * 167.61 %: a tensor-core kernel with a tiny footprint, issue 27): read as
 * 100 %, one warning each naming metric, value and the 100 % assumed. */
START_TEST(test_hit_rate_above_100) {
  static const gchar text[] = DHDR ROW("Registers Per Thread", "", "32")
      ROW("L2 Hit Rate", "%", "167.61") ROW("L1/TEX Hit Rate", "%", "99.5");
  g_autoptr(NcuDetails) d = details_of(text, strlen(text), -1);
  ck_assert_double_eq(d->l2_hit_pct, 100.0);
  ck_assert_double_eq_tol(d->l1_hit_pct, 99.5, 1e-12);
  assert_warned(d->warnings, 1, "c.csv:3: 'L2 Hit Rate' is 167.61 %, above 100 %");
  assert_warned(d->warnings, 1, "taken as 100 %");
  static const gchar store[] =
      DHDR ROW("Registers Per Thread", "", "32") ROW("L2 Hit Rate", "%", "100.18");
  g_autoptr(NcuDetails) s = details_of(store, strlen(store), -1);
  ck_assert_double_eq(s->l2_hit_pct, 100.0);
  assert_warned(s->warnings, 1, "'L2 Hit Rate' is 100.18 %");
}
END_TEST

/* "n/a" and "-" are unknown, never 0: NaN (or 0 for registers, which then
 * come from the listing: kernel.c), one warning each naming metric, value
 * and what is assumed; a row that is missing altogether warns only for
 * registers (an export without Launch Statistics). */
START_TEST(test_details_unknown) {
  static const gchar text[] = DHDR ROW("Registers Per Thread", "register/thread", "n/a")
      ROW("L1/TEX Hit Rate", "%", "n/a") ROW("L2 Hit Rate", "%", "-") ROW("Block Size", "", "128");
  g_autoptr(NcuDetails) d = details_of(text, strlen(text), -1);
  ck_assert_uint_eq(d->regs, 0);
  ck_assert(isnan(d->l1_hit_pct) && isnan(d->l2_hit_pct));
  ck_assert_uint_eq(d->block_size, 128);
  assert_warned(d->warnings, 3,
                "c.csv:2: 'Registers Per Thread' is unknown ('n/a'): assumed the listing's count");
  assert_warned(d->warnings, 3, "c.csv:3: 'L1/TEX Hit Rate' is unknown ('n/a'): assumed 0 %");
  assert_warned(d->warnings, 3, "c.csv:4: 'L2 Hit Rate' is unknown ('-')");
  static const gchar noregs[] = DHDR ROW("Block Size", "", "128");
  g_autoptr(NcuDetails) n = details_of(noregs, strlen(noregs), -1);
  ck_assert_uint_eq(n->regs, 0);
  assert_warned(n->warnings, 1, "c.csv:2: kernel 'k(int)' has no 'Registers Per Thread'");
}
END_TEST

/* Units that change with magnitude, converted by the Metric Unit column:
 * 1.5 Minst = 1,500,000 instructions, 2.5 ms = 0.0025 s, 0.05 Mbyte = 50,000
 * bytes (a multiple of 16: 50000 = 16 x 3125), 1.2 Tbyte/s = 1.2e12 B/s. */
START_TEST(test_details_units) {
  static const gchar text[] = DHDR ROW("Registers Per Thread", "register/thread", "40")
      ROW("Executed Instructions", "Minst", "1.5") ROW("Duration", "ms", "2.5")
          ROW("Shared Memory Configuration Size", "Mbyte", "0.05")
              ROW("Memory Throughput", "Tbyte/s", "1.2");
  g_autoptr(NcuDetails) d = details_of(text, strlen(text), -1);
  ck_assert_uint_eq(d->regs, 40);
  ck_assert_double_eq_tol(d->executed_insts, 1.5e6, 1e-6);
  ck_assert_double_eq_tol(d->duration_s, 2.5e-3, 1e-15);
  ck_assert_double_eq_tol(d->smem_config, 50000, 1e-9);
  ck_assert_double_eq_tol(d->dram_bytes_per_s, 1.2e12, 1.0);
  static const gchar kinst[] = DHDR ROW("Executed Instructions", "Kinst", "13,719.55");
  g_autoptr(NcuDetails) k = details_of(kinst, strlen(kinst), -1);
  ck_assert_double_eq_tol(k->executed_insts, 13719550, 1e-6);
}
END_TEST

/* Names of other Nsight Compute versions and --print-metric-name name: the
 * same fields; "Memory [%]" (2019-2021's Speed Of Light row, a % of peak)
 * is not the DRAM byte rate. */
START_TEST(test_details_aliases) {
  static const gchar text[] = DHDR ROW("launch__registers_per_thread", "register/thread", "40")
      ROW("Memory [%]", "%", "81.5") ROW("Theoretical Active Warps Per SM", "warp", "32")
          ROW("lts__t_sector_hit_rate.pct", "%", "51.03")
              ROW("gpu__time_duration.sum", "usecond", "200.48");
  g_autoptr(NcuDetails) d = details_of(text, strlen(text), -1);
  ck_assert_uint_eq(d->regs, 40);
  ck_assert(isnan(d->dram_bytes_per_s));
  ck_assert_double_eq_tol(d->theoretical_warps, 32, 1e-12);
  ck_assert_double_eq_tol(d->l2_hit_pct, 51.03, 1e-12);
  ck_assert_double_eq_tol(d->duration_s, 200.48e-6, 1e-15);
  ck_assert_str_eq(ncu_details_metric_name("SOL DRAM"), "DRAM Throughput");
  ck_assert_str_eq(ncu_details_metric_name("Registers Per Thread"), "Registers Per Thread");
}
END_TEST

/* Several launches of one kernel: the first, with one warning naming the
 * IDs and the one taken; or the one [sass] details_id names. */
START_TEST(test_details_launches) {
  static const gchar text[] =
      DHDR "\"3\",\"k(int)\",\"Launch\",\"Registers Per Thread\",\"\",\"32\"\n"
           "\"5\",\"j(int)\",\"Launch\",\"Registers Per Thread\",\"\",\"64\"\n"
           "\"7\",\"k(int)\",\"Launch\",\"Registers Per Thread\",\"\",\"40\"\n";
  g_autoptr(NcuDetails) first = details_of(text, strlen(text), -1);
  ck_assert_uint_eq(first->regs, 32);
  ck_assert_int_eq(first->id, 3);
  assert_warned(first->warnings, 1, "c.csv:2: 2 launches of 'k' (IDs 3, 7): took ID 3");
  g_autoptr(NcuDetails) second = details_of(text, strlen(text), 7);
  ck_assert_uint_eq(second->regs, 40);
  ck_assert_uint_eq(second->line, 4);
  assert_warned(second->warnings, 0, NULL);
  GError *err = NULL;
  ck_assert(ncu_details_load_data_id(text, strlen(text), "c.csv", "k", 5, &err) == NULL);
  ck_assert_user_error(err, NCU_ERROR_KERNEL,
                       "c.csv: [sass] details_id = 5: a launch of 'j(int)' (launch IDs of 'k': "
                       "3, 7)");
  g_clear_error(&err);
  ck_assert(ncu_details_load_data_id(text, strlen(text), "c.csv", "k", 9, &err) == NULL);
  ck_assert_user_error(err, NCU_ERROR_KERNEL, "details_id = 9: no such launch ID");
  g_clear_error(&err);
}
END_TEST

/* Kernel names in every name base: the mangled name matches the key of
 * the demangled one (the listing's own Function name). */
START_TEST(test_mangled_names) {
  static const gchar det[] =
      DHDR "\"0\",\"_Z7k_saxpyPfPKffiP3RecS_\",\"Launch\",\"Registers Per Thread\",\"\",\"32\"\n";
  GError *err = NULL;
  g_autoptr(NcuDetails) d = ncu_details_load_data(det, strlen(det), "c.csv", "k_saxpy", &err);
  ck_assert_msg(d != NULL, "%s", err ? err->message : "?");
  static const gchar src[] =
      "\"Kernel Name\",\"_Z7k_saxpyPfPKffiP3RecS_\",\n" HDR "\"0x10\",\"EXIT\",\"4\"\n";
  g_autoptr(NcuSource) s = ncu_source_load_data(src, strlen(src), "c.csv", "k_saxpy", &err);
  ck_assert_msg(s != NULL, "%s", err ? err->message : "?");
  ck_assert_uint_eq(s->ins[0].executed, 4);
}
END_TEST

/* Another overload of the listing's kernel (the same name, other
 * parameters) is a profile of another kernel, on both pages, its message
 * naming both signatures; beside the listing's own it is left out; a name
 * base without parameters (--print-kernel-base function) and the mangled
 * name still match. */
START_TEST(test_overloads) {
  const gchar *listing = "k(float*, int)"; /* as libiberty demangles _Z1kPfi */
  static const gchar det_other[] =
      DHDR "\"0\",\"k(double *, int)\",\"Launch\",\"Registers Per Thread\",\"\",\"40\"\n";
  GError *err = NULL;
  ck_assert(ncu_details_load_data(det_other, strlen(det_other), "c.csv", listing, &err) == NULL);
  ck_assert_user_error(err, NCU_ERROR_KERNEL,
                       "c.csv:2: a profile of 'k(double *, int)', another overload of the "
                       "listing's 'k(float*, int)' (the same name, other parameters");
  g_clear_error(&err);
  static const gchar det_both[] =
      DHDR "\"0\",\"k(double *, int)\",\"Launch\",\"Registers Per Thread\",\"\",\"40\"\n"
           "\"1\",\"k(float *, int)\",\"Launch\",\"Registers Per Thread\",\"\",\"32\"\n";
  g_autoptr(NcuDetails) d =
      ncu_details_load_data(det_both, strlen(det_both), "c.csv", listing, &err);
  ck_assert_msg(d != NULL, "%s", err ? err->message : "?");
  ck_assert_uint_eq(d->regs, 32);
  ck_assert_int_eq(d->id, 1);
  ck_assert_str_eq(d->warnings->str, ""); /* one launch of the listing's kernel */
  static const gchar *const same[] = {"k", "_Z1kPfi", "void k(float *, int)"};
  for (guint i = 0; i < G_N_ELEMENTS(same); i++) {
    g_autofree gchar *det = g_strdup_printf(
        DHDR "\"0\",\"%s\",\"Launch\",\"Registers Per Thread\",\"\",\"24\"\n", same[i]);
    g_autoptr(NcuDetails) e = ncu_details_load_data(det, strlen(det), "c.csv", listing, &err);
    ck_assert_msg(e != NULL, "%s: %s", same[i], err ? err->message : "?");
    ck_assert_uint_eq(e->regs, 24);
  }
  static const gchar src_other[] = "\"Kernel Name\",\"_Z1kPdi\",\n" HDR "\"0x10\",\"EXIT\",\"4\"\n";
  ck_assert(ncu_source_load_data(src_other, strlen(src_other), "s.csv", listing, &err) == NULL);
  ck_assert_user_error(err, NCU_ERROR_KERNEL,
                       "s.csv:1: a profile of '_Z1kPdi', another overload of the listing's "
                       "'k(float*, int)'");
  g_clear_error(&err);
  static const gchar src_both[] =
      "\"Kernel Name\",\"_Z1kPdi\",\n" HDR "\"0x10\",\"EXIT\",\"4\"\n"
      "\"Kernel Name\",\"k(float *, int)\",\n" HDR "\"0x10\",\"EXIT\",\"8\"\n";
  g_autoptr(NcuSource) s = ncu_source_load_data(src_both, strlen(src_both), "s.csv", listing, &err);
  ck_assert_msg(s != NULL, "%s", err ? err->message : "?");
  ck_assert_uint_eq(s->ins[0].executed, 8);
}
END_TEST

/* A UTF-8 byte-order mark, UTF-16 LE and BE with a byte-order mark (what a
 * Windows shell redirect writes) and UTF-16 LE without one read as the
 * UTF-8 text; ==PROF== lines and program output ahead of the header are
 * skipped, the line numbers still counting them. */
START_TEST(test_encodings) {
  static const gchar text[] = DHDR ROW("Registers Per Thread", "", "32");
  static const gchar *const from[] = {NULL, "UTF-16LE", "UTF-16BE", "UTF-16LE"};
  static const gchar *const bom[] = {"\xef\xbb\xbf", "\xff\xfe", "\xfe\xff", ""};
  for (guint i = 0; i < G_N_ELEMENTS(from); i++) {
    gsize n = strlen(text);
    g_autofree gchar *body =
        from[i] ? g_convert(text, -1, from[i], "UTF-8", NULL, &n, NULL) : g_strdup(text);
    ck_assert(body != NULL);
    gsize b = strlen(bom[i]);
    g_autofree gchar *all = g_malloc(b + n);
    memcpy(all, bom[i], b);
    memcpy(all + b, body, n);
    g_autoptr(NcuDetails) d = details_of(all, b + n, -1);
    ck_assert_uint_eq(d->regs, 32);
    ck_assert_uint_eq(d->line, 2);
  }
  static const gchar prof[] =
      "==PROF== Connected to process 4242 (/tmp/real)\n"
      "result: \"ok, 3 of 4\n"
      "==PROF== Disconnected from process 4242\n" DHDR ROW("Registers Per Thread", "", "lots");
  GError *err = NULL;
  ck_assert(ncu_details_load_data(prof, strlen(prof), "c.csv", "k", &err) == NULL);
  ck_assert_user_error(err, NCU_ERROR_PARSE, "c.csv:5: 'Registers Per Thread': not a number");
  g_clear_error(&err);
  static const gchar src[] = "==PROF== Connected to process 1\n" KN HDR "\"0x10\",\"EXIT\",\"4\"\n";
  g_autoptr(NcuSource) s = ncu_source_load_data(src, strlen(src), "c.csv", "k", &err);
  ck_assert_msg(s != NULL, "%s", err ? err->message : "?");
  ck_assert_uint_eq(s->line, 2);
  ck_assert_uint_eq(s->ins[0].line, 4);
  /* odd-length UTF-16 text loses its last byte, never reads past it */
  static const gchar odd[] = "\xff\xfe\x22\x00\x49";
  g_autoptr(NcuDetails) none = ncu_details_load_data(odd, 5, "c.csv", "k", &err);
  ck_assert(none == NULL && err != NULL);
  g_clear_error(&err);
}
END_TEST

/* The source page: an unknown execution count takes the instruction
 * before's (straight-line code), unknown sectors are NcuUnknown bits while
 * a measured 0 is known, and the L2 Theoretical Sectors Local column (only
 * for kernels that use local memory) is read: 114 sectors over 4
 * executions = 28.5 per request. */
#define LHDR                                                                                       \
  "\"Address\",\"Source\",\"Instructions Executed\",\"Address Space\",\"Access Operation\","       \
  "\"L2 Theoretical Sectors Global\",\"L2 Theoretical Sectors Local\"\n"
START_TEST(test_source_unknown) {
  static const gchar src[] =
      KN LHDR "\"0x0\",\"NOP\",\"8\",\"-\",\"-\",\"0\",\"0\"\n"
              "\"0x10\",\"LDL R2, [R1]\",\"n/a\",\"Local\",\"Load\",\"0\",\"114\"\n"
              "\"0x20\",\"LDG.E R2, [R4.64]\",\"4\",\"Global\",\"Load\",\"n/a\",\"0\"\n"
              "\"0x30\",\"EXIT\",\"-\",\"-\",\"-\",\"0\",\"0\"\n";
  GError *err = NULL;
  g_autoptr(NcuSource) s = ncu_source_load_data(src, strlen(src), "c.csv", "k", &err);
  ck_assert_msg(s != NULL, "%s", err ? err->message : "?");
  ck_assert_uint_eq(s->ins[1].executed, 8);
  ck_assert_uint_eq(s->ins[3].executed, 4);
  ck_assert(s->ins[1].unknown & NCU_UNKNOWN_EXECUTED);
  ck_assert(!(s->ins[1].unknown & NCU_UNKNOWN_L2_SECTORS));
  ck_assert_uint_eq(s->ins[1].l2_sectors_local, 114);
  ck_assert(s->ins[2].unknown & NCU_UNKNOWN_L2_SECTORS);
  ck_assert(!(s->ins[2].unknown & NCU_UNKNOWN_L2_SECTORS_LOCAL));
  ck_assert_uint_eq(s->ins[1].space, NCU_SPACE_LOCAL);
  assert_warned(s->warnings, 2,
                "c.csv:4: 'Instructions Executed' is unknown ('n/a') on 2 instructions: taken as "
                "the count of the instruction before it");
  assert_warned(s->warnings, 2,
                "c.csv:5: 'L2 Theoretical Sectors Global' is unknown ('n/a') on 1 "
                "instruction: taken as the access's ideal sectors");
  static const gchar none[] = KN HDR "\"0x0\",\"EXIT\",\"n/a\"\n";
  ck_assert(ncu_source_load_data(none, strlen(none), "c.csv", "k", &err) == NULL);
  ck_assert_user_error(err, NCU_ERROR_PARSE,
                       "c.csv:3: column 'Instructions Executed': no instruction has a count");
  g_clear_error(&err);
}
END_TEST

/* An unknown Thread Instructions Executed is the NcuUnknown bit with the
 * count 0, and the warning says what is assumed: 32 active lanes, which is
 * what sassprog's profiled_lanes takes when the count is 0 (the lanes of a
 * bounded global atomic or MATCH key, sassspan.h). */
START_TEST(test_thread_exec_unknown) {
  static const gchar src[] =
      KN "\"Address\",\"Source\",\"Instructions Executed\",\"Thread Instructions Executed\"\n"
         "\"0x0\",\"MATCH.ANY R2, R3\",\"8\",\"n/a\"\n"
         "\"0x10\",\"EXIT\",\"8\",\"256\"\n";
  GError *err = NULL;
  g_autoptr(NcuSource) s = ncu_source_load_data(src, strlen(src), "t.csv", "k", &err);
  ck_assert_msg(s != NULL, "%s", err ? err->message : "?");
  ck_assert(s->ins[0].unknown & NCU_UNKNOWN_THREAD_EXEC);
  ck_assert_uint_eq(s->ins[0].thread_exec, 0);
  ck_assert_uint_eq(s->ins[1].thread_exec, 256);
  assert_warned(s->warnings, 1,
                "t.csv:3: 'Thread Instructions Executed' is unknown ('n/a') on 1 instruction: "
                "taken as 32 active lanes");
}
END_TEST

/* Group separators of other locales and a comma-decimal export: a file
 * with "28,16" reads "1.234" as 1234 and "1,5" as 1.5. */
START_TEST(test_locale_numbers) {
  static const struct {
    const gchar *text;
    gdouble value;
  } good[] = {{"1 234 567", 1234567},
              {"1\xc2\xa0"
               "234",
               1234},
              {"1\xe2\x80\xaf"
               "234,5",
               1234},
              {"1'234'567.25", 1234567.25},
              {"12\xe2\x80\x89"
               "345",
               12345}};
  gdouble v = 0;
  ck_assert(ncu_csv_number(good[0].text, &v));
  ck_assert_double_eq_tol(v, good[0].value, 1e-9);
  ck_assert(ncu_csv_number(good[1].text, &v));
  ck_assert_double_eq_tol(v, good[1].value, 1e-9);
  ck_assert(!ncu_csv_number(good[2].text, &v)); /* "1 234,5": a comma decimal */
  ck_assert(ncu_csv_number_style(good[2].text, TRUE, &v));
  ck_assert_double_eq_tol(v, 1234.5, 1e-9);
  ck_assert(ncu_csv_number(good[3].text, &v));
  ck_assert_double_eq_tol(v, good[3].value, 1e-9);
  ck_assert(ncu_csv_number(good[4].text, &v));
  ck_assert_double_eq_tol(v, good[4].value, 1e-9);
  ck_assert(ncu_csv_number_style("1.234.567,5", TRUE, &v));
  ck_assert_double_eq_tol(v, 1234567.5, 1e-9);
  static const gchar text[] =
      DHDR ROW("Registers Per Thread", "", "32") ROW("L1/TEX Hit Rate", "%", "28,16")
          ROW("Grid Size", "", "1.056") ROW("L2 Hit Rate", "%", "1,5");
  g_autoptr(NcuDetails) d = details_of(text, strlen(text), -1);
  ck_assert_double_eq_tol(d->l1_hit_pct, 28.16, 1e-12);
  ck_assert_uint_eq(d->grid_size, 1056);
  ck_assert_double_eq_tol(d->l2_hit_pct, 1.5, 1e-12);
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
  tcase_add_test(real, test_measured);
  tcase_add_test(real, test_other_kernel);
  suite_add_tcase(s, real);
  TCase *bad = tcase_create("bad_input");
  tcase_add_loop_test(bad, test_bad_input, 0, G_N_ELEMENTS(bad_cases));
  tcase_add_test(bad, test_missing_file);
  tcase_add_test(bad, test_numbers);
  tcase_add_test(bad, test_hit_rate_above_100);
  tcase_add_test(bad, test_details_unknown);
  tcase_add_test(bad, test_details_units);
  tcase_add_test(bad, test_details_aliases);
  tcase_add_test(bad, test_details_launches);
  tcase_add_test(bad, test_mangled_names);
  tcase_add_test(bad, test_overloads);
  tcase_add_test(bad, test_encodings);
  tcase_add_test(bad, test_source_unknown);
  tcase_add_test(bad, test_thread_exec_unknown);
  tcase_add_test(bad, test_locale_numbers);
  suite_add_tcase(s, bad);
  return s;
}

int main(void) {
  g_autoptr(SRunner) sr = srunner_create(ncu_suite());
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
