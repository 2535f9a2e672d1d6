/* check_property.c - random valid configurations of the shipped H200 model:
 * every rate stays within the model's physical bounds, none is NaN or
 * infinite, the per-cycle invariants hold, and every run ends well inside a
 * time bound.  The configurations come from a GRand seeded with the case
 * number, so a failure names a reproducible case (its --set list). */
#include "input/kernel.h"
#include "input/model.h"
#include "run/rates.h"
#include "run/sim.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>

#define N_CASES 200
#define RUN_SECONDS_MAX 20.0 /* wall seconds per run, generous for ASan on a busy host */

static SmModel *h200(void) {
  g_autofree gchar *path = g_build_filename(g_getenv("WARPSIM_ROOT"), "models", "h200.ini", NULL);
  GError *err = NULL;
  SmModel *m = model_load(path, NULL, &err);
  ck_assert_msg(m != NULL, "%s", err ? err->message : "?");
  return m;
}

/* A random valid kernel: sizes small enough that a run takes milliseconds,
 * shapes over every key.  `sets` receives the "--set" list (for messages). */
static Kernel *random_kernel(GRand *g, GString *sets) {
  static const gchar *levels[] = {"l1", "l2", "dram"};
  static const gchar *patterns[] = {"chase", "stream"};
  guint threads = 32 * (guint)g_rand_int_range(g, 1, 9); /* 32..256 */
  guint warps = threads / 32;
  guint ilp = (guint)g_rand_int_range(g, 1, 9);
  guint fma = (guint)g_rand_int_range(g, 0, 5) * ilp;
  guint loads = (guint)g_rand_int_range(g, 0, 5);
  guint regs = (guint)g_rand_int_range(g, 16, 256);
  g_autoptr(GPtrArray) kv = g_ptr_array_new_with_free_func(g_free);
  g_ptr_array_add(kv, g_strdup_printf("launch.threads_per_block=%u", threads));
  g_ptr_array_add(kv, g_strdup_printf("launch.regs_per_thread=%u", regs));
  g_ptr_array_add(kv, g_strdup_printf("launch.max_regs=%u",
                                      g_rand_boolean(g) ? 0 : (guint)g_rand_int_range(g, 16, 256)));
  g_ptr_array_add(
      kv, g_strdup_printf("launch.smem_dynamic=%u", (guint)g_rand_int_range(g, 0, 49) << 10));
  g_ptr_array_add(kv,
                  g_strdup_printf("launch.blocks_per_sm=%u", (guint)g_rand_int_range(g, 0, 17)));
  g_ptr_array_add(kv, g_strdup_printf("launch.blocks=%u", (guint)g_rand_int_range(g, 0, 400)));
  g_ptr_array_add(kv, g_strdup_printf("stream.iterations=%u", (guint)g_rand_int_range(g, 1, 33)));
  g_ptr_array_add(kv, g_strdup_printf("stream.ilp=%u", ilp));
  g_ptr_array_add(kv, g_strdup_printf("stream.fma=%u", fma));
  g_ptr_array_add(kv, g_strdup_printf("stream.loads=%u", loads));
  g_ptr_array_add(kv,
                  g_strdup_printf("stream.load_pattern=%s", patterns[g_rand_int_range(g, 0, 2)]));
  g_ptr_array_add(kv, g_strdup_printf("stream.load_bytes=%u", 4u << g_rand_int_range(g, 0, 6)));
  g_ptr_array_add(kv, g_strdup_printf("stream.level=%s", levels[g_rand_int_range(g, 0, 3)]));
  g_ptr_array_add(kv,
                  g_strdup_printf("stream.fma_uses_load=%s", g_rand_boolean(g) ? "true" : "false"));
  g_ptr_array_add(kv, g_strdup_printf("stream.overhead=%u", (guint)g_rand_int_range(g, 1, 5)));
  g_ptr_array_add(kv, g_strdup_printf("stream.sfu=%u", (guint)g_rand_int_range(g, 0, 4)));
  g_ptr_array_add(kv, g_strdup_printf("stream.lds=%u", (guint)g_rand_int_range(g, 0, 4)));
  g_ptr_array_add(kv, g_strdup_printf("stream.lds_ways=%u", (guint)g_rand_int_range(g, 1, 33)));
  g_ptr_array_add(kv,
                  g_strdup_printf("stream.syncthreads=%s", g_rand_boolean(g) ? "true" : "false"));
  g_ptr_array_add(kv, g_strdup_printf("stream.live_values=%u", (guint)g_rand_int_range(g, 0, 64)));
  g_ptr_array_add(kv,
                  g_strdup_printf("stream.early_exit=%u", (guint)g_rand_int_range(g, 0, warps)));
  g_ptr_array_add(kv, g_strdup_printf("stream.seed=%u", g_rand_int(g)));
  g_ptr_array_add(kv, NULL);
  for (guint i = 0; i + 1 < kv->len; i++)
    g_string_append_printf(sets, " --set %s", (const gchar *)kv->pdata[i]);
  GError *err = NULL;
  Kernel *k = kernel_load_data("[launch]\n", "random", (const gchar *const *)kv->pdata, &err);
  ck_assert_msg(k != NULL, "%s:%s", err ? err->message : "?", sets->str);
  return k;
}

static void assert_rate(const gchar *what, gdouble v, gdouble max, const gchar *sets) {
  ck_assert_msg(isfinite(v), "%s is %g:%s", what, v, sets);
  ck_assert_msg(v >= 0.0 && v <= max * (1.0 + 1e-9), "%s = %g outside 0..%g:%s", what, v, max,
                sets);
}

START_TEST(test_random_config) {
  g_autoptr(SmModel) m = h200();
  g_autoptr(GRand) g = g_rand_new_with_seed(1000u + (guint32)_i);
  g_autoptr(GString) sets = g_string_new(NULL);
  g_autoptr(Kernel) k = random_kernel(g, sets);
  SimOptions opt = {.check_invariants = TRUE};
  SimResult r;
  GError *err = NULL;
  gint64 t0 = g_get_monotonic_time();
  ck_assert_msg(sim_run(m, k, &opt, &r, &err), "%s:%s", err ? err->message : "?", sets->str);
  gdouble seconds = (gdouble)(g_get_monotonic_time() - t0) / 1e6;
  ck_assert_msg(seconds < RUN_SECONDS_MAX, "%.1f s:%s", seconds, sets->str);
  ck_assert_msg(r.st.cycles > 0, "no cycles:%s", sets->str);
  /* Issue: one warp instruction per SMSP per cycle; each pipe at its interval. */
  gdouble smsps = m->sm.smsps;
  assert_rate("ipc", sim_ipc(&r), smsps, sets->str);
  assert_rate("fma_per_cycle", sim_fma_per_cycle(&r), smsps / m->fma.interval, sets->str);
  assert_rate("issue_active", sim_issue_active(&r, m), 1.0, sets->str);
  /* Memory: no level delivers more than its bandwidth share. */
  const MemLevelModel *lv[] = {&m->l1, &m->l2, &m->dram};
  assert_rate("bytes_per_cycle", sim_bytes_per_cycle(&r), lv[k->level]->bytes_per_cycle, sets->str);
  assert_rate("loads_per_cycle", sim_loads_per_cycle(&r), smsps / m->lsu.interval, sets->str);
  gdouble lat = sim_avg_load_latency(&r);
  ck_assert_msg(isfinite(lat) && lat >= 0.0, "avg_load_latency %g:%s", lat, sets->str);
  /* Occupancy: achieved never above theoretical, theoretical within 0..100 %. */
  assert_rate("occupancy_pct", r.occupancy_pct, 100.0, sets->str);
  assert_rate("achieved_occupancy_pct", sim_achieved_occupancy_pct(&r, m), r.occupancy_pct,
              sets->str);
  gdouble bf, bb;
  sim_little_bound(m, k, &r, &bf, &bb);
  ck_assert_msg(isfinite(bf) && isfinite(bb), "Little's-law bound not finite:%s", sets->str);
}
END_TEST

static Suite *property_suite(void) {
  Suite *s = suite_create("property");
  TCase *tc = tcase_create("random");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_random_config, 0, N_CASES);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(property_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
