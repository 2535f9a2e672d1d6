/* check_occupancy.c - tests of sim/occupancy/occupancy.[ch]: every case of
 * tests/data/occupancy.tsv (values and limiters), the occupancy cases of
 * tests/data/cases_other.md, and every answer of a real H200's occupancy API
 * (tests/data/h200/occ_api.csv).  Data is found through WARPSIM_TEST_DATA,
 * models through model_load(). */
#include "input/model.h"
#include "occupancy/occupancy.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A delimited text file: '#' lines skipped, the first other line is the
 * header. */
typedef struct {
  gchar **header;
  GPtrArray *rows; /* gchar ** each */
} Table;

static Table tsv_cases; /* occupancy.tsv */
static Table api_cases; /* h200/occ_api.csv */

static gboolean table_load(Table *t, const gchar *relpath, const gchar *sep) {
  const gchar *dir = g_getenv("WARPSIM_TEST_DATA");
  g_autofree gchar *path = g_build_filename(dir ? dir : ".", relpath, NULL);
  g_autofree gchar *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, NULL)) {
    fprintf(stderr, "check_occupancy: cannot read %s (is WARPSIM_TEST_DATA set?)\n", path);
    return FALSE;
  }
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  t->rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
  for (guint i = 0; lines[i] != NULL; i++) {
    g_strchomp(lines[i]);
    if (lines[i][0] == '\0' || lines[i][0] == '#')
      continue;
    gchar **fields = g_strsplit(lines[i], sep, -1);
    if (t->header == NULL)
      t->header = fields;
    else
      g_ptr_array_add(t->rows, fields);
  }
  return t->header != NULL && t->rows->len > 0;
}

static const gchar *cell(const Table *t, guint row, const gchar *name) {
  gchar **fields = g_ptr_array_index(t->rows, row);
  for (guint i = 0; t->header[i] != NULL; i++) {
    if (strcmp(t->header[i], name) == 0) {
      ck_assert_uint_lt(i, g_strv_length(fields));
      return fields[i];
    }
  }
  ck_abort_msg("no column %s", name);
  return NULL;
}

static guint cell_uint(const Table *t, guint row, const gchar *name) {
  return (guint)g_ascii_strtoull(cell(t, row, name), NULL, 10);
}

/* The row of occupancy.tsv with id `id`. */
static guint tsv_row_of(const gchar *id) {
  for (guint i = 0; i < tsv_cases.rows->len; i++) {
    if (strcmp(cell(&tsv_cases, i, "id"), id) == 0)
      return i;
  }
  ck_abort_msg("occupancy.tsv has no case %s", id);
  return 0;
}

/* A shipped model by name or compute capability ("cc 8.0" is accepted). */
static SmModel *load_model(const gchar *spec) {
  GError *err = NULL;
  if (g_str_has_prefix(spec, "cc "))
    spec += 3;
  SmModel *m = model_load(spec, NULL, &err);
  ck_assert_msg(m != NULL, "model %s: %s", spec, err ? err->message : "?");
  return m;
}

static OccLaunch launch_of(guint threads, guint regs, guint smem_static, guint smem_dynamic,
                           gboolean optin) {
  OccLaunch l;
  occupancy_launch_init(&l);
  l.threads = threads;
  l.regs = regs;
  l.smem_static = smem_static;
  l.smem_dynamic = smem_dynamic;
  l.optin = optin;
  return l;
}

static OccResult compute_ok(const SmModel *m, const OccLaunch *l) {
  OccResult r;
  GError *err = NULL;
  ck_assert_msg(occupancy_compute(&m->sm, l, &r, &err), "%s", err ? err->message : "?");
  return r;
}

static guint mask_of(const gchar *names, const gchar *sep) {
  g_auto(GStrv) parts = g_strsplit(names, sep, -1);
  guint mask = 0;
  for (guint i = 0; parts[i] != NULL; i++) {
    guint l = 0;
    while (l < OCC_LIMIT_MAX && strcmp(occupancy_limiter_name(l), parts[i]) != 0)
      l++;
    ck_assert_msg(l < OCC_LIMIT_MAX, "unknown limiter '%s'", parts[i]);
    mask |= 1u << l;
  }
  return mask;
}

/* ---- occupancy.tsv ------------------------------------------------------- */

/* The model and result of case `row` of occupancy.tsv. */
static SmModel *tsv_compute(guint row, OccResult *r) {
  const Table *t = &tsv_cases;
  SmModel *m = load_model(cell(t, row, "model"));
  OccLaunch l = launch_of(cell_uint(t, row, "threads"), cell_uint(t, row, "regs"),
                          cell_uint(t, row, "smem_static"), cell_uint(t, row, "smem_dynamic"),
                          cell_uint(t, row, "optin") != 0);
  *r = compute_ok(m, &l);
  return m;
}

START_TEST(test_tsv_case) {
  const Table *t = &tsv_cases;
  OccResult r;
  g_autoptr(SmModel) m = tsv_compute(_i, &r); /* held: r.reason may point into it */
  (void)m;
  const gchar *id = cell(t, _i, "id");
  gdouble pct = g_ascii_strtod(cell(t, _i, "occupancy_pct"), NULL);
  ck_assert_msg(r.blocks_per_sm == cell_uint(t, _i, "blocks_per_sm"), "%s: blocks %u", id,
                r.blocks_per_sm);
  ck_assert_msg(r.warps_per_sm == cell_uint(t, _i, "warps_per_sm"), "%s: warps %u", id,
                r.warps_per_sm);
  ck_assert_msg(fabs(r.occupancy_pct - pct) < 0.001, "%s: occupancy %g", id, r.occupancy_pct);
  ck_assert_msg(r.limiter_mask == mask_of(cell(t, _i, "limiters"), ","), "%s: limiters %#x", id,
                r.limiter_mask);
  ck_assert_msg((r.blocks_per_sm == 0) == (r.reason != NULL), "%s: reason", id);
}
END_TEST

/* Block limits and allocations the notes of occupancy.tsv state (-1 = not
 * stated). */
static const struct {
  const gchar *id;
  gint limit[OCC_LIMIT_MAX]; /* blocks, warps, registers, shared_mem */
  gint regs_per_block, smem_per_block;
} tsv_notes[] = {
    {"textbook-C", {-1, -1, -1, 3}, -1, 32768},   {"textbook-ex1", {-1, 16, 12, 6}, -1, -1},
    {"textbook-blog-64", {-1, 8, 4, 8}, -1, -1},  {"textbook-a100-32", {-1, -1, -1, 9}, -1, 17408},
    {"textbook-t4-randn", {16, 4, 5, 16}, -1, 0}, {"textbook-t4-sgemm", {16, 8, 4, 16}, -1, 0},
    {"pub-02a", {-1, -1, -1, -1}, 6144, -1},      {"pub-02b", {-1, -1, -1, -1}, 6144, -1},
    {"pub-04", {-1, -1, -1, -1}, 8192, 1024},     {"pub-07a", {-1, -1, 0, -1}, 86016, -1},
    {"pub-10c", {-1, -1, -1, 1}, -1, 52224},      {"pub-12a", {-1, -1, -1, 6}, -1, 33792},
};

START_TEST(test_tsv_notes) {
  OccResult r;
  g_autoptr(SmModel) m = tsv_compute(tsv_row_of(tsv_notes[_i].id), &r);
  (void)m;
  for (guint k = 0; k < OCC_LIMIT_MAX; k++) {
    if (tsv_notes[_i].limit[k] >= 0)
      ck_assert_msg(r.limit[k] == (guint)tsv_notes[_i].limit[k], "%s: limit %s = %u",
                    tsv_notes[_i].id, occupancy_limiter_name(k), r.limit[k]);
  }
  if (tsv_notes[_i].regs_per_block >= 0)
    ck_assert_uint_eq(r.regs_per_block, tsv_notes[_i].regs_per_block);
  if (tsv_notes[_i].smem_per_block >= 0)
    ck_assert_uint_eq(r.smem_per_block, tsv_notes[_i].smem_per_block);
}
END_TEST

/* ---- the real H200's occupancy API ------------------------------------- */

static gboolean api_row_matches(const SmModel *m, guint i, guint *got) {
  OccLaunch l = launch_of(cell_uint(&api_cases, i, "threads"), cell_uint(&api_cases, i, "num_regs"),
                          cell_uint(&api_cases, i, "static_smem"),
                          cell_uint(&api_cases, i, "dyn_smem"), TRUE);
  l.carveout_pct = 100; /* as measured */
  OccResult r = compute_ok(m, &l);
  *got = r.blocks_per_sm;
  return r.blocks_per_sm == cell_uint(&api_cases, i, "blocks_per_sm");
}

/* Rows per loop iteration: one fork per row is slow under sanitizers. */
#define API_CHUNK 100

START_TEST(test_api_rows) {
  g_autoptr(SmModel) m = load_model("9.0");
  g_autoptr(GString) bad = g_string_new(NULL);
  guint first = (guint)_i * API_CHUNK, last = MIN(first + API_CHUNK, api_cases.rows->len);
  for (guint i = first; i < last; i++) {
    guint got = 0;
    ck_assert_str_eq(cell(&api_cases, i, "status"), "ok");
    if (!api_row_matches(m, i, &got))
      g_string_append_printf(bad,
                             "\n  row %u (threads %s, regs %s, dyn_smem %s): %u blocks, "
                             "H200 says %s",
                             i + 1, cell(&api_cases, i, "threads"), cell(&api_cases, i, "num_regs"),
                             cell(&api_cases, i, "dyn_smem"), got,
                             cell(&api_cases, i, "blocks_per_sm"));
  }
  ck_assert_msg(bad->len == 0, "occ_api.csv rows %u..%u differ:%s", first + 1, last, bad->str);
}
END_TEST

START_TEST(test_api_summary) {
  g_autoptr(SmModel) m = load_model("9.0");
  guint mismatches = 0, got = 0;
  ck_assert_str_eq(m->cc, "9.0");
  for (guint i = 0; i < api_cases.rows->len; i++)
    mismatches += api_row_matches(m, i, &got) ? 0 : 1;
  printf("occ_api.csv (model %s): %u rows, %u mismatches\n", m->name, api_cases.rows->len,
         mismatches);
  ck_assert_uint_eq(mismatches, 0);
}
END_TEST

/* ---- cases_other.md: dynamic shared memory available for n blocks */

static const struct {
  guint n_blocks;
  gboolean optin;
  guint bytes;
} smem_for_blocks_cases[] = {
    /* cc 9.0, 256 threads, 256 B static shared memory (cases_other.md) */
    {1, TRUE, 232192},
    {2, TRUE, 115456}, /* 233472/2 = 116736, minus the 1 KB reserve and the 256 B static */
    {1, FALSE, 48896}, /* the 48 KB default cap minus the static part */
};

START_TEST(test_smem_for_blocks_case) {
  g_autoptr(SmModel) m = load_model("9.0");
  OccLaunch l = launch_of(256, 32, 256, 0, smem_for_blocks_cases[_i].optin);
  guint bytes = 0;
  const gchar *reason = NULL;
  ck_assert(occupancy_smem_for_blocks(&m->sm, &l, smem_for_blocks_cases[_i].n_blocks, &bytes,
                                      &reason, NULL));
  ck_assert_ptr_null(reason);
  ck_assert_uint_eq(bytes, smem_for_blocks_cases[_i].bytes);
  l.smem_dynamic = bytes;
  ck_assert_uint_ge(compute_ok(m, &l).blocks_per_sm, smem_for_blocks_cases[_i].n_blocks);
}
END_TEST

/* Property (cases_other.md): occupancy at the returned size is >= n, and one
 * allocation unit more gives fewer than n; for every shipped model. */
START_TEST(test_smem_for_blocks_property) {
  static const guint launches[][3] = {{256, 32, 0}, {128, 64, 256}, {64, 16, 1000}, {1024, 32, 0}};
  static const gint carveouts[] = {-1, 0, 50, 100};
  g_auto(GStrv) paths = model_list();
  ck_assert_ptr_nonnull(paths[_i]);
  g_autoptr(SmModel) m = load_model(paths[_i]);
  for (guint a = 0; a < G_N_ELEMENTS(launches); a++)
    for (guint c = 0; c < G_N_ELEMENTS(carveouts) * 2; c++) {
      /* (64 registers is past cc 2.0's limit of 63: the model's own cap) */
      OccLaunch l = launch_of(launches[a][0], MIN(launches[a][1], m->sm.max_regs_per_thread),
                              launches[a][2], 0, c % 2);
      l.carveout_pct = carveouts[c / 2];
      for (guint n = 1; n <= m->sm.max_blocks; n++) {
        guint bytes = 0;
        const gchar *reason = NULL;
        ck_assert(occupancy_smem_for_blocks(&m->sm, &l, n, &bytes, &reason, NULL));
        if (reason != NULL)
          continue;
        l.smem_dynamic = bytes;
        ck_assert_msg(compute_ok(m, &l).blocks_per_sm >= n, "%s n=%u bytes=%u", m->name, n, bytes);
        l.smem_dynamic = bytes + m->sm.smem_alloc_unit;
        ck_assert_msg(compute_ok(m, &l).blocks_per_sm < n, "%s n=%u bytes=%u not maximal", m->name,
                      n, bytes);
        l.smem_dynamic = 0;
      }
    }
}
END_TEST

START_TEST(test_smem_for_blocks_impossible) {
  g_autoptr(SmModel) m = load_model("9.0");
  guint bytes = 1;
  const gchar *reason = NULL;
  GError *err = NULL;
  OccLaunch l = launch_of(1024, 32, 0, 0, TRUE); /* 2 blocks of 32 warps at most */
  ck_assert(occupancy_smem_for_blocks(&m->sm, &l, 3, &bytes, &reason, NULL));
  ck_assert_ptr_nonnull(reason);
  ck_assert_uint_eq(bytes, 0);
  l = launch_of(32, 32, 40000, 0, TRUE); /* 32 blocks share 7296 B each: static too big */
  ck_assert(occupancy_smem_for_blocks(&m->sm, &l, 32, &bytes, &reason, NULL));
  ck_assert_ptr_nonnull(reason);
  ck_assert(!occupancy_smem_for_blocks(&m->sm, &l, 0, &bytes, &reason, &err));
  ck_assert(g_error_matches(err, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE));
  g_clear_error(&err);
  ck_assert(!occupancy_smem_for_blocks(&m->sm, &l, 33, &bytes, &reason, NULL));
}
END_TEST

/* ---- cases_other.md: largest block size reaching the best occupancy */

static const struct {
  guint regs, threads, blocks, warps;
  gdouble pct;
} best_cases[] = {
    {44, 640, 2, 40, 62.5}, /* cc 8.0, no shared memory; 1024 threads would give 50 % */
    {40, 768, 2, 48, 75.0},
    {49, 576, 2, 36, 56.25},
};

START_TEST(test_best_block_size) {
  g_autoptr(SmModel) m = load_model("8.0");
  OccLaunch l = launch_of(0, best_cases[_i].regs, 0, 0, FALSE);
  OccResult r;
  guint threads = 0;
  ck_assert(occupancy_best_block_size(&m->sm, &l, &threads, &r, NULL));
  ck_assert_uint_eq(threads, best_cases[_i].threads);
  ck_assert_uint_eq(r.blocks_per_sm, best_cases[_i].blocks);
  ck_assert_uint_eq(r.warps_per_sm, best_cases[_i].warps);
  ck_assert_double_eq_tol(r.occupancy_pct, best_cases[_i].pct, 1e-9);
  l.threads = 1024;
  OccResult big = compute_ok(m, &l);
  ck_assert_double_lt(big.occupancy_pct, r.occupancy_pct + 1e-9);
}
END_TEST

START_TEST(test_best_block_size_none) {
  g_autoptr(SmModel) m = load_model("8.0");
  OccLaunch l = launch_of(0, 32, 0, 200000, TRUE); /* more than the opt-in maximum */
  OccResult r;
  guint threads = 99;
  ck_assert(occupancy_best_block_size(&m->sm, &l, &threads, &r, NULL));
  ck_assert_uint_eq(threads, 0);
  ck_assert_uint_eq(r.blocks_per_sm, 0);
  ck_assert_ptr_nonnull(r.reason);
  l.regs = 0;
  ck_assert(!occupancy_best_block_size(&m->sm, &l, &threads, &r, NULL));
}
END_TEST

/* ---- cases_other.md: tail effect */

START_TEST(test_waves_tail) {
  SmLimits sm = {.sms = 108};
  OccWaves w;
  occupancy_waves(&sm, 1, 109, &w); /* 108 SMs, 1 block per SM, 109 blocks */
  ck_assert_uint_eq(w.wave_blocks, 108);
  ck_assert_uint_eq(w.waves, 2);
  ck_assert_double_eq_tol(w.waves_per_sm, 109.0 / 108.0, 1e-12);
  ck_assert_uint_eq(w.last_wave_blocks, 1);
  ck_assert_uint_eq(w.last_wave_sms, 1); /* the second wave keeps 1 SM busy */
  ck_assert_double_eq_tol(w.sm_time_used_pct, 100.0 * 109.0 / 216.0, 1e-9); /* 50.5 % */
  occupancy_waves(&sm, 4, 432, &w);
  ck_assert_uint_eq(w.waves, 1);
  ck_assert_double_eq_tol(w.sm_time_used_pct, 100.0, 1e-12);
  occupancy_waves(&sm, 4, 433, &w);
  ck_assert_uint_eq(w.last_wave_sms, 1);
  occupancy_waves(&sm, 0, 100, &w);
  ck_assert_uint_eq(w.waves, 0);
  ck_assert_double_eq(w.waves_per_sm, 0.0);
}
END_TEST

/* ---- rules not covered by the tables ------------------------------------ */

static const struct {
  const gchar *model;
  guint threads, regs, smem_static;
  gint carveout;
  guint blocks, smem_config;
} carveout_cases[] = {
    /* 17408 B per block; 50 % of 164 KB rounds up to the 100 KB configuration */
    {"a100", 256, 32, 16384, 50, 5, 102400},
    /* a preference smaller than one block: the smallest configuration holding it */
    {"a100", 256, 32, 16384, 0, 1, 32768},
    {"a100", 256, 32, 2048, 0, 2, 8192},
    {"a100", 256, 32, 16384, -1, 8, 167936},
    {"t4", 256, 32, 2048, 0, 4, 32768}, /* Turing's smallest configuration is 32 KB */
    {"v100", 256, 32, 2048, 0, 4, 8192},
    {"gtx980", 256, 32, 2048, 0, 8, 98304}, /* no carveout before Volta */
};

START_TEST(test_carveout) {
  g_autoptr(SmModel) m = load_model(carveout_cases[_i].model);
  OccLaunch l = launch_of(carveout_cases[_i].threads, carveout_cases[_i].regs,
                          carveout_cases[_i].smem_static, 0, FALSE);
  l.carveout_pct = carveout_cases[_i].carveout;
  OccResult r = compute_ok(m, &l);
  ck_assert_uint_eq(r.blocks_per_sm, carveout_cases[_i].blocks);
  ck_assert_uint_eq(r.smem_config, carveout_cases[_i].smem_config);
}
END_TEST

START_TEST(test_pascal_register_check) {
  g_autoptr(SmModel) p100 = load_model("p100");
  g_autoptr(SmModel) gtx1080 = load_model("gtx1080");
  /* 9 warps x 6144 registers: 2 SMSPs would allow it (10 x 6144 <= 65536),
   * but the driver checks as for 4 SMSPs (12 x 6144 > 65536). */
  OccLaunch l = launch_of(288, 192, 0, 0, FALSE);
  OccResult r = compute_ok(p100, &l);
  ck_assert_uint_eq(r.blocks_per_sm, 0);
  ck_assert_uint_eq(r.limiter_mask, 1u << OCC_LIMIT_REGISTERS);
  ck_assert_uint_eq(compute_ok(gtx1080, &l).blocks_per_sm, 0);
  /* Two SMSPs waste less of the register file: 25 warps each vs 12. */
  l = launch_of(64, 40, 0, 0, FALSE);
  ck_assert_uint_eq(compute_ok(p100, &l).limit[OCC_LIMIT_REGISTERS], 25);
  ck_assert_uint_eq(compute_ok(gtx1080, &l).limit[OCC_LIMIT_REGISTERS], 24);
}
END_TEST

static const struct {
  guint threads, regs;
  gint carveout;
  guint smem_static, smem_dynamic;
} range_cases[] = {
    {0, 32, -1, 0, 0},   {1025, 32, -1, 0, 0}, {256, 0, -1, 0, 0},          {256, 256, -1, 0, 0},
    {256, 32, -2, 0, 0}, {256, 32, 101, 0, 0}, {256, 32, -1, G_MAXUINT, 1},
};

START_TEST(test_range_errors) {
  g_autoptr(SmModel) m = load_model("h100");
  OccLaunch l = launch_of(range_cases[_i].threads, range_cases[_i].regs,
                          range_cases[_i].smem_static, range_cases[_i].smem_dynamic, FALSE);
  l.carveout_pct = range_cases[_i].carveout;
  OccResult r;
  GError *err = NULL;
  ck_assert(!occupancy_compute(&m->sm, &l, &r, &err));
  ck_assert(g_error_matches(err, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE));
  ck_assert_msg(strstr(err->message, "allowed") != NULL, "%s", err->message);
  g_error_free(err);
  ck_assert(!occupancy_compute(&m->sm, &l, &r, NULL));
  ck_assert_ptr_null(occupancy_vary(&m->sm, &l, OCC_VARY_REGS, NULL));
}
END_TEST

START_TEST(test_impossible_is_not_an_error) {
  g_autoptr(SmModel) m = load_model("h100");
  OccLaunch l = launch_of(256, 32, 0, 60000, FALSE); /* > 48 KB without opt-in */
  OccResult r = compute_ok(m, &l);
  ck_assert_uint_eq(r.blocks_per_sm, 0);
  ck_assert_uint_eq(r.limiter_mask, 1u << OCC_LIMIT_SHARED_MEM);
  ck_assert_ptr_nonnull(strstr(r.reason, "opting in"));
  l.optin = TRUE;
  ck_assert_uint_eq(compute_ok(m, &l).blocks_per_sm, 3);
  l.smem_dynamic = 300000;
  r = compute_ok(m, &l);
  ck_assert_uint_eq(r.blocks_per_sm, 0);
  ck_assert_ptr_null(strstr(r.reason, "opting in"));
}
END_TEST

START_TEST(test_names) {
  g_autoptr(GString) s = g_string_new(NULL);
  ck_assert_str_eq(occupancy_limiter_name(OCC_LIMIT_BLOCKS), "blocks");
  ck_assert_str_eq(occupancy_limiter_name(OCC_LIMIT_SHARED_MEM), "shared_mem");
  occupancy_limiters_append(s, (1u << OCC_LIMIT_SHARED_MEM) | (1u << OCC_LIMIT_WARPS), "+");
  ck_assert_str_eq(s->str, "warps+shared_mem");
  for (guint v = 0; v < OCC_VARY_MAX; v++)
    ck_assert_int_eq(occupancy_vary_from_name(occupancy_vary_name(v)), v);
  ck_assert_int_eq(occupancy_vary_from_name("bogus"), OCC_VARY_MAX);
  OccLaunch l;
  occupancy_launch_init(&l);
  ck_assert_int_eq(l.carveout_pct, -1);
  ck_assert_uint_eq(l.threads + l.regs + l.smem_static + l.smem_dynamic + l.optin, 0);
}
END_TEST

/* ---- what-if curves ------------------------------------------------------ */

static const struct {
  const gchar *model;
  OccVary what;
  guint threads, regs, smem_static, smem_dynamic;
  guint n_points, first, last, current;
} vary_cases[] = {
    {"a100", OCC_VARY_REGS, 256, 32, 0, 0, 255, 1, 255, 32},
    {"a100", OCC_VARY_THREADS, 256, 32, 0, 0, 32, 32, 1024, 256},
    {"a100", OCC_VARY_THREADS, 100, 32, 0, 0, 33, 32, 1024, 100}, /* off the grid: added */
    {"a100", OCC_VARY_SMEM, 256, 32, 0, 4096, 385, 0, 49152, 4096},
    {"h100", OCC_VARY_SMEM, 256, 32, 1000, 100, 379, 1000, 49152, 1100}, /* + max and current */
    {"textbook100k", OCC_VARY_SMEM, 256, 32, 0, 0, 2009, 0, 102400, 0},  /* steps of 51 B */
};

START_TEST(test_vary) {
  g_autoptr(SmModel) m = load_model(vary_cases[_i].model);
  OccLaunch l = launch_of(vary_cases[_i].threads, vary_cases[_i].regs, vary_cases[_i].smem_static,
                          vary_cases[_i].smem_dynamic, FALSE);
  g_autoptr(GArray) pts = occupancy_vary(&m->sm, &l, vary_cases[_i].what, NULL);
  ck_assert_ptr_nonnull(pts);
  ck_assert_uint_eq(pts->len, vary_cases[_i].n_points);
  ck_assert_uint_le(pts->len, OCC_VARY_MAX_POINTS);
  ck_assert_uint_eq(g_array_index(pts, OccPoint, 0).value, vary_cases[_i].first);
  ck_assert_uint_eq(g_array_index(pts, OccPoint, pts->len - 1).value, vary_cases[_i].last);
  guint n_current = 0;
  OccResult here = compute_ok(m, &l);
  for (guint i = 0; i < pts->len; i++) {
    const OccPoint *p = &g_array_index(pts, OccPoint, i);
    if (i > 0)
      ck_assert_uint_gt(p->value, g_array_index(pts, OccPoint, i - 1).value);
    OccResult again = compute_ok(m, &p->launch);
    ck_assert_uint_eq(again.blocks_per_sm, p->result.blocks_per_sm);
    if (p->current) {
      n_current++;
      ck_assert_uint_eq(p->value, vary_cases[_i].current);
      ck_assert_uint_eq(p->result.blocks_per_sm, here.blocks_per_sm);
    }
  }
  ck_assert_uint_eq(n_current, 1);
}
END_TEST

/* Occupancy never rises with more registers or more shared memory. */
START_TEST(test_vary_monotonic) {
  g_auto(GStrv) paths = model_list();
  g_autoptr(SmModel) m = load_model(paths[_i]);
  static const OccVary monotonic[] = {OCC_VARY_REGS, OCC_VARY_SMEM};
  OccLaunch l = launch_of(128, 32, 0, 0, TRUE);
  for (guint v = 0; v < G_N_ELEMENTS(monotonic); v++) {
    g_autoptr(GArray) pts = occupancy_vary(&m->sm, &l, monotonic[v], NULL);
    for (guint i = 1; i < pts->len; i++)
      ck_assert_uint_le(g_array_index(pts, OccPoint, i).result.warps_per_sm,
                        g_array_index(pts, OccPoint, i - 1).result.warps_per_sm);
  }
}
END_TEST

/* ---- issue 12: placement, launch bounds, warpgroups, new models --------- */

/* 256 threads with 100 KB of dynamic shared memory (opt-in) on the H200: 2
 * blocks per SM.  Grid 200: the hardware put 2 blocks on 68 SMs and 1 on the
 * other 64 (all 132 busy).  Grid 211: Nsight Compute measured 20.05 %
 * achieved occupancy; (79 x 16 + 53 x 8) / 132 / 64 = 19.98 %. */
START_TEST(test_placement_breadth_first) {
  g_autoptr(SmModel) m = load_model("h200");
  OccLaunch l = launch_of(256, 32, 0, 100 * 1024, TRUE);
  OccResult r = compute_ok(m, &l);
  OccWaves w;
  ck_assert_uint_eq(r.blocks_per_sm, 2);
  occupancy_waves(&m->sm, r.blocks_per_sm, 200, &w);
  ck_assert_uint_eq(w.waves, 1);
  ck_assert_uint_eq(w.last_wave_sms, 132);
  ck_assert_uint_eq(w.n_last_wave_hist, 2);
  ck_assert_uint_eq(w.last_wave_hist[0].blocks, 2);
  ck_assert_uint_eq(w.last_wave_hist[0].sms, 68);
  ck_assert_uint_eq(w.last_wave_hist[1].blocks, 1);
  ck_assert_uint_eq(w.last_wave_hist[1].sms, 64);
  occupancy_waves(&m->sm, r.blocks_per_sm, 211, &w);
  ck_assert_uint_eq(w.last_wave_hist[0].sms, 79);
  ck_assert_uint_eq(w.last_wave_hist[1].sms, 53);
  ck_assert_double_eq_tol(occupancy_waves_achieved_pct(&m->sm, &r, 211),
                          100.0 * (79 * 16 + 53 * 8) / 132.0 / 64.0, 1e-9);
  ck_assert_double_eq_tol(occupancy_waves_achieved_pct(&m->sm, &r, 264), 25.0, 1e-9);
  /* 300 blocks: a full wave of 264, then 36 SMs run a third block alone. */
  occupancy_waves(&m->sm, r.blocks_per_sm, 300, &w);
  ck_assert_uint_eq(w.last_wave_sms, 36);
  ck_assert_uint_eq(w.last_wave_hist[0].blocks, 1);
  ck_assert_uint_eq(w.last_wave_hist[0].sms, 36);
  ck_assert_uint_eq(w.last_wave_hist[1].blocks, 0);
  ck_assert_uint_eq(w.last_wave_hist[1].sms, 96);
  ck_assert_uint_eq(w.sm_loads[0].blocks, 3);
  ck_assert_uint_eq(w.sm_loads[0].sms, 36);
  /* 36 SMs: 3 blocks in 2 block-times; 96 SMs: 2 blocks in 1. */
  ck_assert_double_eq_tol(occupancy_waves_achieved_pct(&m->sm, &r, 300),
                          100.0 * 300 * 8 / (36 * 2 + 96 * 1.0) / 64.0, 1e-9);
}
END_TEST

/* __launch_bounds__ register ceilings on cc 9.0 (issue 12): (1024, 1) -> 64,
 * (896, 1) -> 72, (128, 1) -> 255; a cap from --max-regs wins when lower. */
static const struct {
  guint threads, min_blocks, max_regs, ceiling;
} bounds_cases[] = {
    {1024, 1, 0, 64}, {896, 1, 0, 72}, {128, 1, 0, 255}, {1024, 0, 0, 64},
    {1024, 2, 0, 32}, {256, 4, 0, 64}, {128, 1, 40, 40}, {0, 0, 96, 96},
};

START_TEST(test_bounds_ceiling) {
  g_autoptr(SmModel) m = load_model("9.0");
  OccLaunch l =
      launch_of(bounds_cases[_i].threads ? bounds_cases[_i].threads : 256, 255, 0, 0, FALSE);
  l.bounds =
      (OccBounds){bounds_cases[_i].threads, bounds_cases[_i].min_blocks, bounds_cases[_i].max_regs};
  OccResult r = compute_ok(m, &l);
  ck_assert_uint_eq(r.regs_ceiling, bounds_cases[_i].ceiling);
  ck_assert_uint_eq(r.regs_allocated, bounds_cases[_i].ceiling);
  ck_assert_uint_eq(r.regs_spilled, 255 - bounds_cases[_i].ceiling);
  ck_assert(!r.min_blocks_dropped);
  if (bounds_cases[_i].min_blocks > 0) /* the ceiling keeps MIN_BLOCKS resident */
    ck_assert_uint_ge(r.blocks_per_sm, bounds_cases[_i].min_blocks);
  ck_assert_uint_eq(r.min_blocks_mask, 0);
  l.regs = 20; /* below the ceiling: nothing changes */
  r = compute_ok(m, &l);
  ck_assert_uint_eq(r.regs_allocated, 20);
  ck_assert_uint_eq(r.regs_spilled, 0);
}
END_TEST

/* MIN_BLOCKS 8 of 256 threads on a 1536-thread SM (cc 8.6) can never fit:
 * ptxas drops it, so the ceiling is that of 1 block (255), with a warning. */
START_TEST(test_bounds_min_blocks_unreachable) {
  g_autoptr(SmModel) m = load_model("8.6");
  OccLaunch l = launch_of(256, 255, 0, 0, FALSE);
  l.bounds = (OccBounds){256, 8, 0};
  OccResult r = compute_ok(m, &l);
  ck_assert(r.min_blocks_dropped);
  ck_assert_uint_eq(r.regs_ceiling, 255);
  g_autoptr(GString) w = g_string_new(NULL);
  occupancy_min_blocks_warning(&m->sm, &l, &r, w);
  ck_assert_msg(strstr(w->str, "64 warps > 48 warps per SM") != NULL, "%s", w->str);
  ck_assert_msg(strstr(w->str, "ignores") != NULL, "%s", w->str);
  /* 6 blocks fit by warps; 40 KB of shared memory each holds it to 2. */
  l.bounds.min_blocks = 6;
  l.smem_static = 40000;
  r = compute_ok(m, &l);
  ck_assert(!r.min_blocks_dropped);
  ck_assert_uint_eq(r.regs_ceiling, 40); /* 6 x 8 warps = 12 per SMSP: 16384 / 12 -> 1280 */
  ck_assert_uint_eq(r.min_blocks_mask, 1u << OCC_LIMIT_SHARED_MEM);
  g_string_truncate(w, 0);
  occupancy_min_blocks_warning(&m->sm, &l, &r, w);
  ck_assert_msg(strstr(w->str, "shared_mem") != NULL, "%s", w->str);
  /* More blocks than the SM's cap (16 on cc 8.6). */
  l = launch_of(32, 32, 0, 0, FALSE);
  l.bounds = (OccBounds){32, 17, 0};
  r = compute_ok(m, &l);
  ck_assert(r.min_blocks_dropped);
}
END_TEST

/* A block larger than maxThreads is refused as the runtime does. */
START_TEST(test_bounds_block_too_large) {
  g_autoptr(SmModel) m = load_model("9.0");
  OccLaunch l = launch_of(512, 32, 0, 0, FALSE);
  l.bounds.max_threads = 256;
  OccResult r = compute_ok(m, &l);
  ck_assert_uint_eq(r.blocks_per_sm, 0);
  ck_assert_uint_eq(r.limit[OCC_LIMIT_WARPS], 0);
  ck_assert_ptr_nonnull(strstr(r.reason, "launch bounds"));
  GError *err = NULL;
  l.bounds = (OccBounds){0, 2, 0}; /* MIN_BLOCKS alone */
  ck_assert(!occupancy_compute(&m->sm, &l, &r, &err));
  ck_assert(g_error_matches(err, OCCUPANCY_ERROR, OCCUPANCY_ERROR_BOUNDS));
  g_clear_error(&err);
  l.bounds = (OccBounds){2048, 0, 0};
  ck_assert(!occupancy_compute(&m->sm, &l, &r, &err));
  ck_assert(g_error_matches(err, OCCUPANCY_ERROR, OCCUPANCY_ERROR_RANGE));
  g_clear_error(&err);
}
END_TEST

/* Warp-specialized kernel: 384 threads as 40 + 232 + 232 registers per
 * thread launch with 168 per thread (their mean): 1 block on cc 9.0. */
START_TEST(test_warpgroups) {
  g_autoptr(SmModel) m = load_model("9.0");
  OccLaunch l = launch_of(384, 0, 0, 0, FALSE);
  l.n_warpgroups = 3;
  l.warpgroup_regs[0] = 40;
  l.warpgroup_regs[1] = l.warpgroup_regs[2] = 232;
  ck_assert_uint_eq(occupancy_launch_regs(&l), 168);
  OccResult r = compute_ok(m, &l);
  ck_assert_uint_eq(r.regs_allocated, 168);
  ck_assert_uint_eq(r.blocks_per_sm, 1);
  ck_assert_uint_eq(r.regs_per_block, 12 * 168 * 32);
  ck_assert_uint_eq(r.limiter_mask, 1u << OCC_LIMIT_REGISTERS);
  GError *err = NULL;
  l.regs = 160; /* the block holds 480 per thread over 3 warpgroups: 504 do not fit */
  ck_assert(!occupancy_compute(&m->sm, &l, &r, &err));
  ck_assert(g_error_matches(err, OCCUPANCY_ERROR, OCCUPANCY_ERROR_WARPGROUP));
  ck_assert_msg(strstr(err->message, "allowed a sum <= 480") != NULL, "%s", err->message);
  g_clear_error(&err);
  l.regs = 0;
  l.bounds.max_regs = 64; /* capped: 64 x 3 cannot hold 504 */
  ck_assert(!occupancy_compute(&m->sm, &l, &r, &err));
  ck_assert(g_error_matches(err, OCCUPANCY_ERROR, OCCUPANCY_ERROR_WARPGROUP));
  g_clear_error(&err);
  l.bounds.max_regs = 0;
  l.warpgroup_regs[0] = 44; /* not a multiple of 8 */
  ck_assert(!occupancy_compute(&m->sm, &l, &r, &err));
  ck_assert(g_error_matches(err, OCCUPANCY_ERROR, OCCUPANCY_ERROR_WARPGROUP));
  g_clear_error(&err);
  l.warpgroup_regs[0] = 40;
  l.threads = 256; /* 3 warpgroups are 384 threads */
  ck_assert(!occupancy_compute(&m->sm, &l, &r, &err));
  ck_assert(g_error_matches(err, OCCUPANCY_ERROR, OCCUPANCY_ERROR_WARPGROUP));
  g_clear_error(&err);
}
END_TEST

/* cc 11.0 and 12.1 (CCCL arch_traits: 1536 threads and 24 blocks per SM;
 * 228 KB / 100 KB of shared memory). */
static const struct {
  const gchar *cc, *name;
  guint threads, smem_dynamic, blocks, warps, smem_config;
} new_model_cases[] = {
    {"11.0", "thor", 32, 0, 24, 24, 233472},     {"11.0", "thor", 256, 0, 6, 48, 233472},
    {"11.0", "thor", 128, 232448, 1, 4, 233472}, {"12.1", "gb10", 32, 0, 24, 24, 102400},
    {"12.1", "gb10", 128, 101376, 1, 4, 102400}, {"12.1", "gb10", 256, 32768, 3, 24, 102400},
};

START_TEST(test_new_models) {
  g_autoptr(SmModel) m = load_model(new_model_cases[_i].cc);
  ck_assert_str_eq(m->name, new_model_cases[_i].name);
  OccLaunch l =
      launch_of(new_model_cases[_i].threads, 32, 0, new_model_cases[_i].smem_dynamic, TRUE);
  OccResult r = compute_ok(m, &l);
  ck_assert_uint_eq(r.blocks_per_sm, new_model_cases[_i].blocks);
  ck_assert_uint_eq(r.warps_per_sm, new_model_cases[_i].warps);
  ck_assert_uint_eq(r.smem_config, new_model_cases[_i].smem_config);
}
END_TEST

/* ---- suite -------------------------------------------------------------- */

static Suite *occupancy_suite(guint n_models) {
  Suite *s = suite_create("occupancy");
  TCase *tables = tcase_create("tables");
  tcase_add_loop_test(tables, test_tsv_case, 0, (int)tsv_cases.rows->len);
  tcase_add_loop_test(tables, test_tsv_notes, 0, G_N_ELEMENTS(tsv_notes));
  tcase_add_loop_test(tables, test_api_rows, 0,
                      (int)((api_cases.rows->len + API_CHUNK - 1) / API_CHUNK));
  tcase_add_test(tables, test_api_summary);
  suite_add_tcase(s, tables);

  TCase *other = tcase_create("other_md");
  tcase_add_loop_test(other, test_smem_for_blocks_case, 0, G_N_ELEMENTS(smem_for_blocks_cases));
  tcase_add_loop_test(other, test_smem_for_blocks_property, 0, (int)n_models);
  tcase_add_test(other, test_smem_for_blocks_impossible);
  tcase_add_loop_test(other, test_best_block_size, 0, G_N_ELEMENTS(best_cases));
  tcase_add_test(other, test_best_block_size_none);
  tcase_add_test(other, test_waves_tail);
  suite_add_tcase(s, other);

  TCase *rules = tcase_create("rules");
  tcase_add_loop_test(rules, test_carveout, 0, G_N_ELEMENTS(carveout_cases));
  tcase_add_test(rules, test_pascal_register_check);
  tcase_add_loop_test(rules, test_range_errors, 0, G_N_ELEMENTS(range_cases));
  tcase_add_test(rules, test_impossible_is_not_an_error);
  tcase_add_test(rules, test_names);
  tcase_add_loop_test(rules, test_vary, 0, G_N_ELEMENTS(vary_cases));
  tcase_add_loop_test(rules, test_vary_monotonic, 0, (int)n_models);
  suite_add_tcase(s, rules);

  TCase *launch = tcase_create("launch");
  tcase_add_test(launch, test_placement_breadth_first);
  tcase_add_loop_test(launch, test_bounds_ceiling, 0, G_N_ELEMENTS(bounds_cases));
  tcase_add_test(launch, test_bounds_min_blocks_unreachable);
  tcase_add_test(launch, test_bounds_block_too_large);
  tcase_add_test(launch, test_warpgroups);
  tcase_add_loop_test(launch, test_new_models, 0, G_N_ELEMENTS(new_model_cases));
  suite_add_tcase(s, launch);
  return s;
}

int main(void) {
  if (!table_load(&tsv_cases, "occupancy.tsv", "\t") ||
      !table_load(&api_cases, "h200/occ_api.csv", ","))
    return EXIT_FAILURE;
  g_auto(GStrv) models = model_list();
  SRunner *sr = srunner_create(occupancy_suite(g_strv_length(models)));
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
