/* check_mem.c - tests of sim/core/mem.[ch]: exact queueing on one channel
 * (service = bytes / bytes_per_cycle, return = service start + latency,
 * rounded up), sector rounding, the streaming latency and servers, how a
 * random-pattern load spreads its lines over channels, the bandwidth
 * ceiling under a flood of loads, and the latency spread (mean, tail,
 * determinism per seed).  Every case builds its memory system from the
 * string literal below, changed per case with "group.key=value" overrides;
 * expected values are worked out by hand in the comments. */
#include "core/mem.h"
#include "fixture.h"
#include "input/model.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

/* The test SM (fixture.h) with these memory levels, no latency spread, so
 * every time is exact.  L1: 49 cycles, 16 B/cycle on 1 channel (8 cycles per
 * 128 B line).  L2: 305 cycles, 36.5 B/cycle on 8 channels.  DRAM: 697
 * cycles random, 340 sequential, 16 B/cycle over 4 random channels (32
 * cycles per line each) or 2 sequential ones (16). */
static const gchar mem_model[] = FIXTURE_SM_MODEL;
static const gchar mem_sets[] = "operand.bank_conflict=true l1.bytes_per_cycle=16 l2.channels=8 "
                                "dram.stream_latency=340 dram.bytes_per_cycle=16 dram.channels=4 "
                                "dram.stream_channels=2";

/* The memory system of one test (a checked fixture: built per test, freed
 * after); cases rebuild it with overrides and a seed. */
static struct {
  SmModel *m;
  SimRng rng;
  Mem *mem;
} fx;

static void fx_clear(void) {
  g_clear_pointer(&fx.mem, mem_free);
  g_clear_pointer(&fx.m, model_free);
}

/* Rebuild the fixture from the model with `sets` (space-separated
 * "group.key=value" overrides, may be NULL) and a stream seeded `seed`. */
static void fx_build(const gchar *sets, guint32 seed) {
  fx_clear();
  /* The case's overrides replace the base ones of the same key (a key may be
   * set once). */
  g_auto(GStrv) base = g_strsplit(mem_sets, " ", -1);
  g_auto(GStrv) extra = g_strsplit(sets ? sets : "", " ", -1);
  g_autoptr(GPtrArray) list = g_ptr_array_new();
  for (guint i = 0; base[i] != NULL; i++) {
    gsize n = strcspn(base[i], "=") + 1;
    gboolean replaced = FALSE;
    for (guint j = 0; extra[j] != NULL; j++)
      replaced |= strncmp(base[i], extra[j], n) == 0;
    if (!replaced && *base[i])
      g_ptr_array_add(list, base[i]);
  }
  for (guint j = 0; extra[j] != NULL; j++)
    if (*extra[j])
      g_ptr_array_add(list, extra[j]);
  g_ptr_array_add(list, NULL);
  const gchar *const *overrides = (const gchar *const *)list->pdata;
  GError *err = NULL;
  fx.m = model_load_data(mem_model, "mem.ini", overrides, &err);
  ck_assert_msg(fx.m != NULL, "model with '%s': %s", sets, err ? err->message : "?");
  ck_assert(fx.m->has_timing);
  sim_rng_init(&fx.rng, seed);
  fx.mem = mem_new(fx.m, &fx.rng);
}

static void fx_setup(void) {
  fx_build(NULL, 1);
}

/* ---- exact queueing ---------------------------------------------------- */

#define QUEUE_MAX 4

/* Loads issued in order to one level (all random or all sequential), each
 * at now[i] with bytes[i]; want[i] is the cycle mem_load returns. */
typedef struct {
  const gchar *what;
  const gchar *sets;
  MemLevel level;
  gboolean sequential;
  guint n;
  SimCycle now[QUEUE_MAX];
  guint bytes[QUEUE_MAX];
  SimCycle want[QUEUE_MAX];
} QueueCase;

static const QueueCase queues[] = {
    /* An idle channel: service starts at once, data back after 49. */
    {"one line", NULL, MEM_L1, FALSE, 1, {0}, {128}, {49}},
    /* 128 B / 16 B/cycle = 8 cycles each: starts 0, 8, 16, 24. */
    {"back to back", NULL, MEM_L1, FALSE, 4, {0}, {128, 128, 128, 128}, {49, 57, 65, 73}},
    /* 128 / 10 = 12.8 cycles each: starts 0, 12.8, 25.6, 38.4 -> 49, 61.8,
     * 74.6, 87.4, rounded up. */
    {"fractional service",
     "l1.bytes_per_cycle=10",
     MEM_L1,
     FALSE,
     4,
     {0},
     {128, 128, 128, 128},
     {49, 62, 75, 88}},
    /* 1 B -> 32 B (2 cycles), 33 B -> 64 B (4 cycles): starts 0, 2, 6. */
    {"sector rounding", NULL, MEM_L1, FALSE, 3, {0}, {1, 33, 128}, {49, 51, 55}},
    /* Arrival 4 waits for the channel (free at 8): 8 + 49 = 57; arrival 100
     * finds it idle (free since 16): 149. */
    {"idle gap", NULL, MEM_L1, FALSE, 3, {0, 4, 100}, {128, 128, 128}, {49, 57, 149}},
    /* 512 B = 4 lines on the one channel: starts 0, 8, 16, 24 -> 24 + 49;
     * the next load starts at 32 -> 81. */
    {"four-line load", NULL, MEM_L1, FALSE, 2, {0, 0}, {512, 128}, {73, 81}},
    /* L2, one channel of 36.5 B/cycle, idle: 1000 + 305. */
    {"l2 latency", "l2.channels=1", MEM_L2, FALSE, 1, {1000}, {128}, {1305}},
    /* DRAM random lines, one channel: 697. */
    {"dram latency", "dram.channels=1", MEM_DRAM, FALSE, 1, {0}, {128}, {697}},
    /* Sequential on one stream channel of 16 B/cycle: lines start 0, 8, 16,
     * 24 -> 24 + 340 = 364; the next load starts at 32 -> 372. */
    {"stream latency", "dram.stream_channels=1", MEM_DRAM, TRUE, 2, {0, 0}, {512, 128}, {364, 372}},
    /* stream_latency=0 means the random latency: 697. */
    {"stream latency 0",
     "dram.stream_latency=0 dram.stream_channels=1",
     MEM_DRAM,
     TRUE,
     1,
     {0},
     {128},
     {697}},
    /* stream_channels=0 means `channels` (1 here): as "stream latency". */
    {"stream channels 0",
     "dram.stream_channels=0 dram.channels=1",
     MEM_DRAM,
     TRUE,
     2,
     {0, 0},
     {512, 128},
     {364, 372}},
};

START_TEST(test_queue) {
  const QueueCase *c = &queues[_i];
  fx_build(c->sets, 1);
  for (guint i = 0; i < c->n; i++) {
    SimCycle got = mem_load(fx.mem, c->level, c->bytes[i], c->sequential, c->now[i]);
    ck_assert_msg(got == c->want[i],
                  "%s: load %u returns at %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT,
                  c->what, i, got, c->want[i]);
  }
}
END_TEST

/* ---- sectors ----------------------------------------------------------- */

/* Bytes rounded up to whole sectors: 32 B, then 64 B with an override. */
static const struct {
  const gchar *sets;
  guint bytes, want;
} sectors[] = {
    {NULL, 1, 32},
    {NULL, 31, 32},
    {NULL, 32, 32},
    {NULL, 33, 64},
    {NULL, 128, 128},
    {NULL, 129, 160},
    {NULL, 512, 512},
    {NULL, 4096, 4096},
    {"mem.sector_bytes=64", 1, 64},
    {"mem.sector_bytes=64", 65, 128},
};

START_TEST(test_request_bytes) {
  fx_build(sectors[_i].sets, 1);
  ck_assert_uint_eq(mem_request_bytes(fx.mem, sectors[_i].bytes), sectors[_i].want);
}
END_TEST

/* ---- channels ---------------------------------------------------------- */

/* Loads spaced this far apart find every channel idle. */
#define IDLE_GAP 10000

/* A random-pattern 512 B DRAM load: 4 lines, each to one of 4 channels at
 * random, 32 cycles per line per channel; it returns 697 + 32 (j - 1) after
 * issue, j the most lines any channel got.  Of the 4^4 = 256 equally likely
 * placements, j = 1 in 4! = 24, j = 4 in 4, j = 3 in 4 x 4 x 3 = 48 and
 * j = 2 in the other 180, so E[j - 1] = (180 + 2 x 48 + 3 x 4) / 256 =
 * 1.125 (standard deviation 0.57; over 4000 loads the mean is within 0.01).
 * All four lines on one channel would always give j - 1 = 3. */
START_TEST(test_random_spreads_lines) {
  const guint n = 4000;
  guint count[4] = {0};
  for (guint i = 0; i < n; i++) {
    SimCycle now = (SimCycle)i * IDLE_GAP;
    SimCycle extra = mem_load(fx.mem, MEM_DRAM, 512, FALSE, now) - now - 697;
    ck_assert_msg(extra % 32 == 0 && extra / 32 < 4, "load %u: %" G_GUINT64_FORMAT " extra cycles",
                  i, extra);
    count[extra / 32]++;
  }
  gdouble mean = (count[1] + 2.0 * count[2] + 3.0 * count[3]) / n;
  ck_assert_msg(fabs(mean - 1.125) < 0.05, "mean queueing %.3f lines, expected 1.125", mean);
  for (guint j = 0; j < 4; j++)
    ck_assert_msg(count[j] > 0, "no load queued %u lines", j);
}
END_TEST

/* Sequential 512 B DRAM loads: 340 cycles, all 4 lines on one of the 2
 * stream channels (16 B/cycle / 2 = 8 B/cycle, 16 cycles per line): lines
 * start 0, 16, 32, 48 -> 388.  A second load issued at once finds the same
 * channel with probability 1/2 (starts at 64: 64 + 48 + 340 = 452), the
 * other one otherwise (388).  Four random channels would give 340 + 3 x 32
 * = 436; lines split over both stream channels 340 + 16 = 356. */
START_TEST(test_stream_channels) {
  const guint n = 2000;
  guint same = 0;
  for (guint i = 0; i < n; i++) {
    SimCycle now = (SimCycle)i * IDLE_GAP;
    ck_assert_uint_eq(mem_load(fx.mem, MEM_DRAM, 512, TRUE, now) - now, 388);
    SimCycle second = mem_load(fx.mem, MEM_DRAM, 512, TRUE, now) - now;
    ck_assert_msg(second == 388 || second == 452, "second load: %" G_GUINT64_FORMAT, second);
    same += second == 452;
  }
  /* Binomial(2000, 1/2): standard deviation 0.011 of the fraction. */
  ck_assert_msg(fabs((gdouble)same / n - 0.5) < 0.05, "%u of %u on the same channel", same, n);
}
END_TEST

/* ---- the load-dependent DRAM wait ([dram] queue_*) ---------------------- */

/* queue_cycles 400, exponent 2, window 1000 cycles at 16 B/cycle: rho is the
 * average over 16000 B.  8000 B asked at cycle 0 (rho 0 before them: no
 * wait) make rho 0.5 at cycle 0: 400 x 0.25 = 100 cycles; at cycle 1000 the
 * average has decayed to 8000 / e = 2943.06 B, rho 0.183940, 400 x 0.033834
 * = 13.534; 100000 B more make rho 1 (capped): 400.  A random line at cycle
 * 0 waits on nothing extra (697 on an idle channel) but its 128 B count
 * (rho 0.5 after it) and occupy the one stream channel for 8 cycles; a
 * sequential 512 B load then (8 cycles per line: its lines start 8, 16, 24,
 * 32) returns 32 + 340 + 100 = 472.  Off (queue_cycles 0, the
 * default) or at L2: 0 always. */
START_TEST(test_queue_wait) {
  fx_build("dram.stream_channels=1 dram.queue_cycles=400 dram.queue_exponent=2 "
           "dram.queue_window=1000",
           1);
  ck_assert_double_eq_tol(mem_queue_wait(fx.mem, MEM_DRAM, 8000, 0), 0.0, 1e-12);
  ck_assert_double_eq_tol(mem_queue_wait(fx.mem, MEM_DRAM, 0, 0), 100.0, 1e-9);
  ck_assert_double_eq_tol(mem_queue_wait(fx.mem, MEM_DRAM, 100000, 1000), 13.534, 1e-3);
  ck_assert_double_eq_tol(mem_queue_wait(fx.mem, MEM_DRAM, 0, 1000), 400.0, 1e-9);
  ck_assert_double_eq_tol(mem_queue_wait(fx.mem, MEM_L2, 8000, 1000), 0.0, 1e-12);

  fx_build("dram.stream_channels=1 dram.queue_cycles=400 dram.queue_exponent=2 "
           "dram.queue_window=1000",
           1);
  mem_queue_wait(fx.mem, MEM_DRAM, 8000 - 128, 0);
  /* the random line's 128 B bring the average to 8000 B at cycle 0 */
  ck_assert_uint_eq(mem_load(fx.mem, MEM_DRAM, 128, FALSE, 0), 697);
  ck_assert_uint_eq(mem_load(fx.mem, MEM_DRAM, 512, TRUE, 0), 472);

  fx_build("dram.stream_channels=1", 1);
  ck_assert_double_eq_tol(mem_queue_wait(fx.mem, MEM_DRAM, 1e9, 0), 0.0, 1e-12);
  ck_assert_double_eq_tol(mem_queue_wait(fx.mem, MEM_DRAM, 0, 0), 0.0, 1e-12);
}
END_TEST

/* ---- bandwidth --------------------------------------------------------- */

/* 10000 loads of 128 B issued at cycle 0: 1,280,000 B.  A channel of k
 * serves a line in S = 128 k / bytes_per_cycle cycles, and the busiest
 * channel holds at least 1/k of the bytes, so its last line starts no
 * earlier than 1280000 / bytes_per_cycle - S and returns `latency` later:
 * `bound`.  The servers never idle while work is queued, so the last return
 * stays within 10 % of the bound (the busiest of k channels holds about
 * 1.5 standard deviations of a binomial above the mean: under 8 %). */
typedef struct {
  const gchar *what;
  MemLevel level;
  gboolean sequential;
  gdouble bound; /* cycles, the earliest the last load can return */
} FloodCase;

static const FloodCase floods[] = {
    /* 1 channel: 49 - 8 + 80000 = 80041 (exact: 49 + 9999 x 8). */
    {"l1", MEM_L1, FALSE, 80041},
    /* 8 channels of 36.5: 305 - 28.05 + 35068.49 = 35345.44. */
    {"l2", MEM_L2, FALSE, 35345.44},
    /* 4 random channels: 697 - 32 + 80000 = 80665. */
    {"dram random", MEM_DRAM, FALSE, 80665},
    /* 2 stream channels: 340 - 16 + 80000 = 80324. */
    {"dram sequential", MEM_DRAM, TRUE, 80324},
};

START_TEST(test_bandwidth_ceiling) {
  SimCycle last = 0;
  for (guint i = 0; i < 10000; i++) {
    SimCycle back = mem_load(fx.mem, floods[_i].level, 128, floods[_i].sequential, 0);
    last = MAX(last, back);
  }
  ck_assert_msg(last >= floods[_i].bound && last <= 1.1 * floods[_i].bound,
                "%s: last return %" G_GUINT64_FORMAT ", bound %.2f", floods[_i].what, last,
                floods[_i].bound);
}
END_TEST

/* One bandwidth for both request kinds: 5000 random and 5000 sequential
 * loads of 128 B, interleaved at cycle 0, are the 1,280,000 B of a flood
 * above, which DRAM's 16 B/cycle serves in 80000 cycles however they are
 * split between its random and stream channels (each of which alone also
 * runs at 16 B/cycle: with separate bandwidths they took about 40000). */
START_TEST(test_shared_bandwidth) {
  SimCycle last = 0;
  for (guint i = 0; i < 10000; i++) {
    SimCycle back = mem_load(fx.mem, MEM_DRAM, 128, i % 2 == 1, 0);
    last = MAX(last, back);
  }
  /* at least the 80000 cycles the bytes take, less the longest line (32
   * cycles on a random channel); at most the "dram random" flood's bound
   * (floods[2]: the same bytes on one set of channels) + 10 % */
  ck_assert_msg(last >= 80000 - 32 && last <= 1.1 * floods[2].bound,
                "last return %" G_GUINT64_FORMAT, last);
}
END_TEST

/* ---- latency spread ---------------------------------------------------- */

/* L2 with latency 305 and an exponential part of mean 23: each idle load
 * takes ceil(282 + E), E ~ Exp(23).  Over 10000 loads the mean is 305 (+0.5
 * from rounding up; standard error 0.23), the standard deviation 23
 * (relative standard error 1.4 %), and nothing returns before 282. */
#define SPREAD_SETS "l2.latency_spread=23 l2.channels=1"
#define SPREAD_N 10000

static void spread_latencies(guint32 seed, SimCycle *lat) {
  fx_build(SPREAD_SETS, seed);
  for (guint i = 0; i < SPREAD_N; i++) {
    SimCycle now = (SimCycle)i * IDLE_GAP;
    lat[i] = mem_load(fx.mem, MEM_L2, 128, FALSE, now) - now;
  }
}

START_TEST(test_spread_mean) {
  g_autofree SimCycle *lat = g_new(SimCycle, SPREAD_N);
  spread_latencies(7, lat);
  gdouble sum = 0, sq = 0;
  for (guint i = 0; i < SPREAD_N; i++) {
    ck_assert_uint_ge(lat[i], 282);
    sum += (gdouble)lat[i];
    sq += (gdouble)lat[i] * (gdouble)lat[i];
  }
  gdouble mean = sum / SPREAD_N, sd = sqrt(sq / SPREAD_N - mean * mean);
  ck_assert_msg(fabs(mean - 305) <= 0.01 * 305, "mean latency %.2f, expected 305 within 1 %%",
                mean);
  ck_assert_msg(fabs(sd - 23) <= 0.1 * 23, "latency deviation %.2f, expected 23 within 10 %%", sd);
}
END_TEST

/* The same seed draws the same latencies; seeds 7 and 8 differ (two runs of
 * 10000 exponential draws agreeing everywhere has probability ~0). */
START_TEST(test_spread_seed) {
  g_autofree SimCycle *a = g_new(SimCycle, SPREAD_N);
  g_autofree SimCycle *b = g_new(SimCycle, SPREAD_N);
  spread_latencies(7, a);
  spread_latencies(7, b);
  ck_assert_mem_eq(a, b, SPREAD_N * sizeof *a);
  spread_latencies(8, b);
  guint differ = 0;
  for (guint i = 0; i < SPREAD_N; i++)
    differ += a[i] != b[i];
  ck_assert_msg(differ > SPREAD_N / 2, "seeds 7 and 8 differ in %u of %u loads", differ, SPREAD_N);
}
END_TEST

/* mem_latency in two steps (the deferred spill stores): the draw, then the
 * cycle from it, is mem_latency's cycle and leaves the generator where
 * mem_latency leaves it.  Two streams of seed 7, one through mem_latency,
 * one through mem_latency_draw + mem_latency_at, 10000 accesses at
 * 3 cycles apart, sequential and not alternately: every cycle equal, and
 * the next draws of both streams equal. */
START_TEST(test_latency_two_steps) {
  fx_build(SPREAD_SETS " l2.stream_latency=290", 7);
  SimRng other;
  sim_rng_init(&other, 7);
  g_autoptr(Mem) two = mem_new(fx.m, &other);
  ck_assert(mem_latency_spread(two, MEM_L2) == 23.0);
  for (guint i = 0; i < SPREAD_N; i++) {
    SimCycle now = (SimCycle)i * 3;
    gboolean seq = i % 2;
    SimCycle one = mem_latency(fx.mem, MEM_L2, seq, now);
    gdouble u = mem_latency_draw(&other, mem_latency_spread(two, MEM_L2));
    ck_assert_uint_eq(mem_latency_at(two, MEM_L2, seq, now, u), one);
  }
  ck_assert_uint_eq(sim_rng_next(&fx.rng), sim_rng_next(&other));
  /* No spread (L1 here): no draw, the fixed latency 49. */
  ck_assert(mem_latency_spread(two, MEM_L1) == 0.0);
  guint64 before = other.state;
  ck_assert(mem_latency_draw(&other, 0.0) == 0.0);
  ck_assert_uint_eq(other.state, before);
  ck_assert_uint_eq(mem_latency_at(two, MEM_L1, FALSE, 100, 0.0), 149);
}
END_TEST

/* mem_latency_order's verdicts hold: over 20000 random pairs (the later
 * access 0..40 cycles after the first, draws uniform, spread 23), a 1 means
 * mem_latency_at's cycle of the later access is >= the other's, a -1 the
 * reverse; and the bounds decide most pairs (more than 80 % here: they
 * leave out only pairs within about a cycle of each other and a few with
 * a large draw).  By hand: at the same draw 0.5, 5 cycles apart, the later
 * is back later (1); 0 cycles apart, undecided (0); draws 0.9 then 0.1, 5
 * cycles apart: E = 2.303 against 0.105, 23 x 2.197 = 50.5 cycles, so the
 * first is back later (-1). */
START_TEST(test_latency_order) {
  fx_build(SPREAD_SETS, 3);
  ck_assert_int_eq(mem_latency_order(23.0, 105, 0.5, 100, 0.5), 1);
  ck_assert_int_eq(mem_latency_order(23.0, 100, 0.5, 100, 0.5), 0);
  ck_assert_int_eq(mem_latency_order(23.0, 105, 0.1, 100, 0.9), -1);
  SimRng r;
  sim_rng_init(&r, 11);
  guint decided = 0, n = 20000;
  for (guint i = 0; i < n; i++) {
    SimCycle then = 1000000 + sim_rng_below(&r, 1000), now = then + sim_rng_below(&r, 41);
    gdouble u = sim_rng_double(&r), u_then = sim_rng_double(&r);
    gint order = mem_latency_order(23.0, now, u, then, u_then);
    SimCycle a = mem_latency_at(fx.mem, MEM_L2, FALSE, now, u);
    SimCycle b = mem_latency_at(fx.mem, MEM_L2, FALSE, then, u_then);
    if (order > 0)
      ck_assert_msg(a >= b, "pair %u: order 1, cycles %" G_GUINT64_FORMAT " < %" G_GUINT64_FORMAT,
                    i, a, b);
    if (order < 0)
      ck_assert_msg(b >= a, "pair %u: order -1, cycles %" G_GUINT64_FORMAT " < %" G_GUINT64_FORMAT,
                    i, b, a);
    decided += order != 0;
  }
  ck_assert_msg(decided > n * 8 / 10, "decided %u of %u pairs", decided, n);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mem");
  TCase *tc = tcase_create("queueing");
  suite_add_tcase(s, tc);
  tcase_add_checked_fixture(tc, fx_setup, fx_clear);
  tcase_add_loop_test(tc, test_queue, 0, G_N_ELEMENTS(queues));
  tcase_add_loop_test(tc, test_request_bytes, 0, G_N_ELEMENTS(sectors));
  tcase_add_test(tc, test_random_spreads_lines);
  tcase_add_test(tc, test_stream_channels);
  tcase_add_test(tc, test_queue_wait);
  tcase_add_loop_test(tc, test_bandwidth_ceiling, 0, G_N_ELEMENTS(floods));
  tcase_add_test(tc, test_shared_bandwidth);

  tc = tcase_create("spread");
  suite_add_tcase(s, tc);
  tcase_add_checked_fixture(tc, fx_setup, fx_clear);
  tcase_add_test(tc, test_spread_mean);
  tcase_add_test(tc, test_spread_seed);
  tcase_add_test(tc, test_latency_two_steps);
  tcase_add_test(tc, test_latency_order);

  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
