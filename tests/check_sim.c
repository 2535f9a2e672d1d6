/* check_sim.c - tests of sim/run/sim.[ch]: the per-cycle invariants over a table
 * of kernels and policies, Little's law on the FFMA plateau, the issue and
 * pipe ceilings, the operand bank-conflict switch, DRAM latency, a warp's DRAM lines in flight,
 * determinism, the barrier unit's cycles per round, and the "Simulator behaviour" cases of
 * tests/data/cases_other.md.  Every run uses the test SM of fixture.h and a kernel built from
 * another, both changed per case with "group.key=value" overrides; expected values are worked out
 * by hand in the comments. */
#include "core/program.h"
#include "fixture.h"
#include "input/kernel.h"
#include "input/model.h"
#include "run/rates.h"
#include "run/sim.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The test SM (fixture.h). */
static const gchar tiny_model[] = FIXTURE_SM_MODEL;

/* One CTA of 4 warps (one per SMSP), 16 iterations of 16 dependent FFMAs,
 * no loop overhead: 256 FFMAs + EXIT per warp. */
static const gchar base_kernel[] = "[launch]\n"
                                   "threads_per_block=128\n"
                                   "regs_per_thread=32\n"
                                   "blocks_per_sm=1\n"
                                   "[stream]\n"
                                   "iterations=16\n"
                                   "fma=16\n"
                                   "ilp=1\n"
                                   "loads=0\n"
                                   "overhead=0\n"
                                   "seed=1\n";

/* The run of one test (a checked fixture: built per test, freed after). */
static struct {
  SmModel *m;
  Kernel *k;
  SimResult r;
} run;

static void run_setup(void) {
  GError *err = NULL;
  run.m = model_load_data(tiny_model, "tiny.ini", NULL, &err);
  ck_assert_msg(run.m != NULL, "tiny model: %s", err ? err->message : "?");
  ck_assert(run.m->has_timing);
  run.k = NULL;
}

static void run_teardown(void) {
  g_clear_pointer(&run.m, model_free);
  g_clear_pointer(&run.k, kernel_free);
}

/* Rebuild the fixture's model and kernel with `sets` (each override goes to
 * the table whose group it names) and simulate with invariant checks on. */
static void simulate(const gchar *const *sets, const gchar *policy) {
  GError *err = NULL;
  g_clear_pointer(&run.m, model_free);
  g_clear_pointer(&run.k, kernel_free);
  run.m = model_load_data(tiny_model, "tiny.ini", sets, &err);
  ck_assert_msg(run.m != NULL, "model: %s", err ? err->message : "?");
  run.k = kernel_load_data(base_kernel, "base.ini", sets, &err);
  ck_assert_msg(run.k != NULL, "kernel: %s", err ? err->message : "?");
  SimOptions opt = {.policy = policy, .check_invariants = TRUE};
  ck_assert_msg(sim_run(run.m, run.k, &opt, &run.r, &err), "sim: %s", err ? err->message : "?");
}

/* Total warps the run executed: resident warps per CTA x CTAs run. */
static guint64 warps_run(void) {
  return (guint64)run.r.warps_per_block * run.r.st.ctas;
}

static void assert_near(const gchar *what, gdouble got, gdouble want, gdouble rel) {
  ck_assert_msg(fabs(got - want) <= rel * want, "%s: %.4f, expected %.4f within %.1f %%", what, got,
                want, 100 * rel);
}

/* ---- invariants -------------------------------------------------------- */

static const gchar *const policies[] = {"gto", "lrr", "oldest", "grr"};

/* Kernels that exercise every mechanism, each as "state: overrides": the
 * warp state (Nsight Compute name) the mechanism must show up in, then the
 * overrides separated by spaces.  "lines_in_flight": loads that wait for the
 * SM's lines-in-flight cap, charged long_scoreboard (SimStats lg_load_sm). */
static const gchar *const invariant_kernels[] = {
    "wait:", /* 1 warp per SMSP, dependent FFMAs */
    "not_selected: stream.ilp=4 stream.fma=64 stream.overhead=3 launch.blocks_per_sm=8",
    "dispatch_stall: operand.bank_conflict=true launch.blocks_per_sm=4",
    "long_scoreboard: stream.fma=0 stream.loads=2 stream.load_pattern=chase stream.overhead=3 "
    "dram.latency_spread=145 launch.blocks_per_sm=4",
    "long_scoreboard: stream.fma=1 stream.loads=1 stream.load_bytes=512 stream.fma_uses_load=true "
    "stream.iterations=8 dram.stream_latency=340 dram.stream_channels=2 launch.blocks_per_sm=16",
    "lines_in_flight: stream.loads=4 stream.level=l2 mem.max_inflight=8 launch.blocks_per_sm=8",
    "drain: stream.loads=1 stream.level=l1 stream.load_bytes=4096 launch.blocks_per_sm=8",
    "barrier: stream.syncthreads=true stream.early_exit=2 stream.overhead=2 "
    "launch.threads_per_block=256 launch.blocks_per_sm=2",
    "wait: launch.threads_per_block=96 launch.blocks=5 launch.blocks_per_sm=2",
    "short_scoreboard: stream.lds=4 stream.lds_ways=4 stream.sfu=2 stream.ilp=2 "
    "launch.blocks_per_sm=4",
    "mio_throttle: stream.lds=4 stream.lds_ways=32 stream.fma=0 launch.blocks_per_sm=4",
    "math_pipe_throttle: stream.sfu=8 stream.ilp=8 stream.fma=0 launch.blocks_per_sm=1",
    "long_scoreboard: launch.regs_per_thread=64 launch.max_regs=32 stream.live_values=40 "
    "launch.blocks_per_sm=4",
    "branch_resolving: launch.threads_per_block=48 stream.overhead=10 launch.blocks_per_sm=3",
};

/* The StallState spelled `name`. */
static StallState stall_of(const gchar *name) {
  for (guint s = 0; s < STALL_MAX; s++)
    if (strcmp(stall_name(s), name) == 0)
      return s;
  ck_abort_msg("no warp state '%s'", name);
  return STALL_MAX;
}

/* sim_run checks the invariants every cycle and over the run
 * (check_invariants); the totals must satisfy them too: IPC <= SMSPs;
 * achieved <= theoretical occupancy; states sum to active warp-cycles;
 * selected == issued <= eligible; every warp of every CTA issued its whole
 * stream; and the kernel's mechanism shows in its warp state. */
START_TEST(test_invariants) {
  guint kernel = _i / G_N_ELEMENTS(policies);
  const gchar *policy = policies[_i % G_N_ELEMENTS(policies)];
  g_auto(GStrv) state_sets = g_strsplit(invariant_kernels[kernel], ":", 2);
  g_auto(GStrv) sets = g_strsplit(g_strstrip(state_sets[1]), " ", -1);
  gboolean lines = strcmp(state_sets[0], "lines_in_flight") == 0;
  StallState seen = lines ? STALL_LONG_SCOREBOARD : stall_of(state_sets[0]);
  simulate((const gchar *const *)sets, policy);
  const SimStats *st = &run.r.st;
  guint64 sum = 0;
  for (guint s = 0; s < STALL_MAX; s++)
    sum += st->state[s];
  ck_assert_str_eq(run.r.policy, policy);
  ck_assert_msg(sim_ipc(&run.r) <= run.m->sm.smsps, "kernel %u: ipc %g", kernel, sim_ipc(&run.r));
  ck_assert_msg(sim_achieved_occupancy_pct(&run.r, run.m) <= run.r.occupancy_pct + 1e-9,
                "kernel %u: achieved %g > theoretical %g", kernel,
                sim_achieved_occupancy_pct(&run.r, run.m), run.r.occupancy_pct);
  ck_assert_uint_eq(sum, st->active_warp_cycles);
  ck_assert_uint_eq(st->state[STALL_SELECTED], st->issued);
  ck_assert_uint_ge(st->ready_warp_cycles, st->issued);
  ck_assert_uint_eq(st->issue_cycles, st->issued);
  ck_assert_msg(sim_issue_active(&run.r, run.m) <= 1.0, "issue active %g",
                sim_issue_active(&run.r, run.m));
  ck_assert_uint_eq(st->ctas, run.r.sm_blocks);
  ck_assert_msg(st->state[seen] > 0, "kernel %u: no %s", kernel, stall_name(seen));
  ck_assert_msg(!lines || st->lg_load_sm > 0, "kernel %u: no load waits for lines", kernel);
  ck_assert_uint_le(st->lg_throttle_sm, st->state[STALL_LG_THROTTLE]);
  ck_assert_uint_eq(st->ops[OP_EXIT], warps_run());
  /* Early-exit warps issue only EXIT; the others their whole stream. */
  guint64 early = MIN(run.k->early_exit, run.r.warps_per_block) * st->ctas;
  ck_assert_uint_eq(st->issued, (warps_run() - early) * run.r.warp_insts_per_warp + early);
}
END_TEST

/* ---- Little's law on the FFMA plateau ---------------------------------- */

/* Resident warps per SMSP W (one CTA of 4 warps each) and ILP L, FFMA
 * latency T and initiation interval I (cycles per FFMA per SMSP), no loop
 * overhead, no bank conflict.  Little's law: W x L independent FFMAs in flight
 * per SMSP over T cycles, capped by the pipe (1/I) and by issue (1/cycle):
 * min(1/I, W x L / T) FFMA/cycle/SMSP, x 4 SMSPs per SM.  The knee is at
 * W x L = T / I; past it more warps or ILP buy nothing. */
static const struct {
  guint warps_per_smsp, ilp, latency, interval;
} littles[] = {
    {1, 1, 4, 1}, {1, 2, 4, 1}, {2, 1, 4, 1}, {1, 3, 4, 1},  {3, 1, 4, 1}, /* below */
    {1, 4, 4, 1}, {2, 2, 4, 1}, {4, 1, 4, 1},                              /* knee */
    {1, 8, 4, 1}, {2, 4, 4, 1}, {8, 1, 4, 1}, {16, 1, 4, 1}, {4, 4, 4, 1}, {16, 8, 4, 1},
    {1, 4, 8, 1}, {1, 8, 8, 1}, {2, 4, 8, 1}, {4, 4, 8, 1},  /* latency 8: knee at 8 */
    {1, 1, 4, 2}, {1, 2, 4, 2}, {2, 4, 4, 2}, {16, 1, 4, 2}, /* 16 lanes: knee at 2 */
};

START_TEST(test_littles_law) {
  guint w = littles[_i].warps_per_smsp, l = littles[_i].ilp;
  g_autofree gchar *blocks = g_strdup_printf("launch.blocks_per_sm=%u", w);
  g_autofree gchar *ilp = g_strdup_printf("stream.ilp=%u", l);
  g_autofree gchar *fma = g_strdup_printf("stream.fma=%u", 24 * l);
  g_autofree gchar *latency = g_strdup_printf("fma.latency=%u", littles[_i].latency);
  g_autofree gchar *interval = g_strdup_printf("fma.interval=%u", littles[_i].interval);
  const gchar *sets[] = {blocks, ilp, fma, latency, interval, NULL};
  simulate(sets, NULL);
  gdouble want = 4.0 * MIN(1.0 / littles[_i].interval, (gdouble)w * l / littles[_i].latency);
  g_autofree gchar *what = g_strdup_printf("W=%u L=%u T=%u I=%u fma/cycle/SM", w, l,
                                           littles[_i].latency, littles[_i].interval);
  assert_near(what, sim_fma_per_cycle(&run.r), want, 0.03);
  /* The analytic bound the CLI reports beside the simulation is the same
   * number, and the simulation never beats it. */
  gdouble bound_fma = 0, bound_bytes = -1;
  sim_little_bound(run.m, run.k, &run.r, &bound_fma, &bound_bytes);
  ck_assert_double_eq_tol(bound_fma, want, 1e-12);
  ck_assert_double_eq(bound_bytes, 0.0);
  ck_assert_msg(sim_fma_per_cycle(&run.r) <= bound_fma * 1.005, "%s: %g beats the bound %g", what,
                sim_fma_per_cycle(&run.r), bound_fma);
  ck_assert_uint_eq(run.r.st.ffma, (guint64)4 * w * 16 * 24 * l);
}
END_TEST

/* One warp per SMSP with L <= 4 chains: the FFMAs of a round issue on
 * cycles 4j .. 4j+L-1, so n = 16 x 16 FFMAs per warp end with the last at
 * 4(n/L - 1) + L - 1; EXIT issues the cycle after, and the run counts cycles
 * 0 .. EXIT: cycles = 4(n/L - 1) + L + 1.  L = 1: 4 x 255 + 2 = 1022, i.e.
 * exactly 0.25 FFMA/cycle/SMSP in the steady state (1024 / 1022 per SM over
 * the whole run). */
START_TEST(test_single_warp_exact) {
  guint l = 1u << _i; /* 1, 2, 4 */
  g_autofree gchar *ilp = g_strdup_printf("stream.ilp=%u", l);
  const gchar *sets[] = {ilp, NULL};
  simulate(sets, NULL);
  guint64 n = 16 * 16;
  ck_assert_uint_eq(run.r.st.cycles, 4 * (n / l - 1) + l + 1);
  ck_assert_uint_eq(run.r.st.ffma, 4 * n);
  /* Each warp is active every cycle, selected n + 1 of them and waiting on
   * its chain (`wait`) the rest; with no memory it retires right after EXIT
   * without a `drain` cycle. */
  ck_assert_uint_eq(run.r.st.active_warp_cycles, 4 * run.r.st.cycles);
  ck_assert_uint_eq(run.r.st.state[STALL_SELECTED], 4 * (n + 1));
  ck_assert_uint_eq(run.r.st.state[STALL_WAIT], 4 * (run.r.st.cycles - (n + 1)));
}
END_TEST

/* ---- issue ceiling ----------------------------------------------------- */

/* 64 resident warps of integer work (32 ALU instructions per iteration, 8
 * iterations), each warp far from limited by its own dependencies.  One
 * instruction per cycle per scheduler: IPC = SMSPs when the ALU pipe accepts
 * one per cycle; with an initiation interval of 2 the pipe, not the
 * schedulers, caps it at SMSPs / 2. */
static const struct {
  const gchar *smsps, *interval;
  gdouble ipc;
} ceilings[] = {
    {"sm.smsps=4", "alu.interval=1", 4.0},
    {"sm.smsps=2", "alu.interval=1", 2.0},
    {"sm.smsps=4", "alu.interval=2", 2.0},
    {"sm.smsps=2", "alu.interval=2", 1.0},
};

START_TEST(test_issue_ceiling) {
  const gchar *sets[] = {ceilings[_i].smsps,       ceilings[_i].interval,
                         "stream.fma=0",           "stream.overhead=32",
                         "stream.iterations=8",    "launch.threads_per_block=512",
                         "launch.blocks_per_sm=4", NULL};
  simulate(sets, NULL);
  ck_assert_uint_eq(run.r.warps_per_sm, 64);
  /* 64 warps x (32 x 8 + EXIT) = 16448 warp instructions */
  ck_assert_uint_eq(run.r.st.issued, 16448);
  assert_near("ipc", sim_ipc(&run.r), ceilings[_i].ipc, 0.02);
  assert_near("issue_active", sim_issue_active(&run.r, run.m), ceilings[_i].ipc / run.m->sm.smsps,
              0.02);
}
END_TEST

/* ---- operand bank conflicts -------------------------------------------- */

/* 16 warps per SMSP, ILP 1: a warp never issues two FFMAs back to back
 * (latency 4), so with the bank conflict every FFMA costs 2 dispatch cycles:
 * 0.5 FFMA/cycle/SMSP = 2.0 per SM.  Without it: 1 per cycle, 4.0 per SM. */
static const struct {
  const gchar *set;
  gdouble fma_per_cycle;
} conflicts[] = {
    {"operand.bank_conflict=true", 2.0},
    {"operand.bank_conflict=false", 4.0},
};

START_TEST(test_bank_conflict) {
  const gchar *sets[] = {conflicts[_i].set, "launch.blocks_per_sm=16", NULL};
  simulate(sets, NULL);
  assert_near("fma/cycle/SM", sim_fma_per_cycle(&run.r), conflicts[_i].fma_per_cycle, 0.03);
}
END_TEST

/* ---- DRAM latency ------------------------------------------------------ */

/* A chase: each warp's next load waits for its previous one (one 128 B line,
 * no FFMAs, no loop overhead), dram.latency 697, no spread.  One warp alone:
 * every load takes exactly 697 cycles, the warp issues its 16 loads at
 * 697 k and drains at 16 x 697 = 11152.  One warp per SMSP: loads may share
 * one of the 16 channels (a line holds one for 128 / (17.2 / 16) = 119
 * cycles), so the mean latency is within a few % of 697. */
static const struct {
  const gchar *threads;
  gdouble tolerance;
  guint64 cycles; /* 0 = not exact */
} chases[] = {
    {"launch.threads_per_block=32", 0.0, 16 * 697},
    {"launch.threads_per_block=128", 0.04, 0},
};

START_TEST(test_dram_latency) {
  const gchar *sets[] = {chases[_i].threads,
                         "stream.fma=0",
                         "stream.loads=1",
                         "stream.load_pattern=chase",
                         "stream.level=dram",
                         "stream.load_bytes=128",
                         NULL};
  simulate(sets, NULL);
  ck_assert_uint_eq(run.r.st.loads, 16 * warps_run());
  ck_assert_uint_eq(run.r.st.load_bytes, 128 * run.r.st.loads);
  gdouble latency = sim_avg_load_latency(&run.r);
  if (chases[_i].tolerance == 0.0)
    ck_assert_double_eq(latency, 697.0);
  else
    assert_near("average load latency", latency, 697.0, chases[_i].tolerance);
  if (chases[_i].cycles)
    ck_assert_uint_eq(run.r.st.cycles, chases[_i].cycles);
}
END_TEST

/* A warp's DRAM lines in flight ([class_global] warp_lines_in_flight, for a
 * synthetic kernel as for a SASS one): 16 independent 512 B sequential loads
 * (4 lines each) per warp, no FFMA, no loop overhead, at a DRAM of 697 cycles
 * and so much bandwidth (dram.bytes_per_cycle=65536 over 16 servers) that
 * nothing queues: a load's 4 lines share one server, its last line starts
 * 3 x 128 x 16 / 65536 = 0.09 cycles after issue, so its data is back 697.09
 * cycles after, rounded up: 698.  A load goes out while its warp has fewer
 * than `cap` DRAM lines missing, so a cap of 5..8 lets 2 loads out at a time,
 * 1..4 lets 1, and 0 (no cap) all 16, one per cycle (lsu interval 1).  The
 * loads leave in rounds of n = 2, 1 or 16 loads one cycle apart, each round
 * when the one before is back, and the run ends when the last load is back
 * (the EXIT drains): (16 / n - 1) x 698 + (n - 1) + 698 cycles.  With one
 * CTA of 4 warps (one per SMSP, each with its own cap) the SM moves
 * 4 x 16 x 512 B in 7 x 698 + 1 + 698 cycles = 5.8686 B/cycle, the
 * cap x 128 B / latency per warp of 4 x 8 x 128 / 698 = 5.8682 and the 1
 * cycle between the loads of a round.  L2 loads do not count (the SASS path's
 * rule): at L2 (305 cycles, 4 servers) a cap of 4 leaves 15 + 306 cycles. */
static const struct {
  const gchar *threads; /* launch.threads_per_block */
  const gchar *level;   /* stream.level */
  const gchar *cap;     /* class_global.warp_lines_in_flight */
  guint64 cycles;       /* hand-computed above */
} warp_caps[] = {
    {"launch.threads_per_block=32", "stream.level=dram", "class_global.warp_lines_in_flight=0",
     15 + 698},
    {"launch.threads_per_block=32", "stream.level=dram", "class_global.warp_lines_in_flight=8",
     7 * 698 + 1 + 698},
    {"launch.threads_per_block=32", "stream.level=dram", "class_global.warp_lines_in_flight=5",
     7 * 698 + 1 + 698},
    {"launch.threads_per_block=32", "stream.level=dram", "class_global.warp_lines_in_flight=4",
     15 * 698 + 698},
    {"launch.threads_per_block=128", "stream.level=dram", "class_global.warp_lines_in_flight=8",
     7 * 698 + 1 + 698},
    {"launch.threads_per_block=32", "stream.level=l2", "class_global.warp_lines_in_flight=4",
     15 + 306},
};

START_TEST(test_warp_dram_lines) {
  const gchar *sets[] = {warp_caps[_i].threads,      warp_caps[_i].level,
                         warp_caps[_i].cap,          "stream.fma=0",
                         "stream.loads=1",           "stream.load_pattern=stream",
                         "stream.load_bytes=512",    "dram.bytes_per_cycle=65536",
                         "l2.bytes_per_cycle=65536", NULL};
  simulate(sets, NULL);
  ck_assert_uint_eq(run.r.st.loads, 16 * warps_run());
  ck_assert_uint_eq(run.r.st.cycles, warp_caps[_i].cycles);
  if (_i == 4) /* 4 warps x 16 x 512 B: about cap x 128 B / latency per warp */
    assert_near("bytes per cycle", sim_bytes_per_cycle(&run.r), 4.0 * 8 * 128 / 698, 0.001);
}
END_TEST

/* ---- determinism ------------------------------------------------------- */

/* A DRAM chase with a latency spread (random draws) and seed `seed`. */
static void simulate_chase(const gchar *seed) {
  const gchar *sets[] = {seed,
                         "stream.fma=4",
                         "stream.loads=2",
                         "stream.load_pattern=chase",
                         "stream.level=dram",
                         "dram.latency_spread=145",
                         "launch.blocks_per_sm=4",
                         NULL};
  simulate(sets, NULL);
}

/* The same inputs and seed give the same counters, bit for bit. */
START_TEST(test_same_seed_same_stats) {
  simulate_chase("stream.seed=7");
  SimStats first = run.r.st;
  simulate_chase("stream.seed=7");
  ck_assert(memcmp(&first, &run.r.st, sizeof first) == 0);
}
END_TEST

/* A plan (sim_plan_new: the check, its program built once) runs to exactly
 * sim_run's result, byte for byte, twice over (the program is only read),
 * and estimates what sim_estimate_insts does; a launch sim_check refuses
 * gives no plan, with the same error. */
START_TEST(test_plan_same_as_run) {
  simulate_chase("stream.seed=7"); /* random DRAM latencies: every draw counts */
  SimOptions opt = {.check_invariants = TRUE};
  GError *err = NULL;
  g_autoptr(SimPlan) plan = sim_plan_new(run.m, run.k, &opt, &err);
  ck_assert_msg(plan != NULL, "%s", err ? err->message : "?");
  for (guint i = 0; i < 2; i++) {
    g_autofree SimResult *r = g_new(SimResult, 1);
    memset(r, 0xa5, sizeof *r); /* what the plan does not write shows */
    ck_assert(sim_plan_run(plan, r, &err));
    ck_assert_msg(memcmp(r, &run.r, sizeof *r) == 0, "run %u differs from sim_run", i);
  }
  ck_assert(sim_plan_estimate_insts(plan) == sim_estimate_insts(run.m, run.k));
  ck_assert(sim_plan_estimate_insts(plan) > 0);
  const gchar *sets[] = {"launch.regs_per_thread=255", "launch.threads_per_block=1024", NULL};
  g_autoptr(Kernel) big = kernel_load_data(base_kernel, "base.ini", sets, &err);
  ck_assert_msg(big != NULL, "%s", err ? err->message : "?");
  GError *check = NULL;
  ck_assert(!sim_check(run.m, big, NULL, &check));
  ck_assert_ptr_null(sim_plan_new(run.m, big, NULL, &err));
  ck_assert_str_eq(err->message, check->message);
  g_error_free(err);
  g_error_free(check);
}
END_TEST

/* Another seed draws other latencies: the DRAM chase takes other cycles. */
START_TEST(test_other_seed_other_cycles) {
  simulate_chase("stream.seed=1");
  SimCycle first = run.r.st.cycles;
  simulate_chase("stream.seed=2");
  ck_assert_uint_ne(first, run.r.st.cycles);
}
END_TEST

/* ---- tests/data/cases_other.md "Simulator behaviour" ------------------- */

/* Barrier with exited warps: the CTA's last `early_exit` warps issue only
 * EXIT; the others reach __syncthreads every iteration and must be released
 * once every live warp has arrived.  Body (fma=4, overhead=2): FFMA, IALU
 * (interleaved after the first), 3 FFMA, BAR, BRA = 7; 5 iterations: 36
 * instructions per live warp.  body=only BAR: the exiting warps' EXIT and
 * the others' BAR fall in the same cycle, so an EXIT releases the barrier. */
static const struct {
  const gchar *threads, *early_exit, *fma, *overhead;
  guint64 issued, bars;
} barriers[] = {
    /* 2 live warps x 36 + 2 EXIT; 2 x 5 BAR */
    {"launch.threads_per_block=128", "stream.early_exit=2", "stream.fma=4", "stream.overhead=2", 74,
     10},
    /* all 4 live: 4 x 36 */
    {"launch.threads_per_block=128", "stream.early_exit=0", "stream.fma=4", "stream.overhead=2",
     144, 20},
    /* 1 live warp: 36 + 3 */
    {"launch.threads_per_block=128", "stream.early_exit=3", "stream.fma=4", "stream.overhead=2", 39,
     5},
    /* 8 warps, body = BAR: 6 live x (5 + 1) + 2 EXIT; 6 x 5 BAR */
    {"launch.threads_per_block=256", "stream.early_exit=2", "stream.fma=0", "stream.overhead=0", 38,
     30},
};

START_TEST(test_barrier_exited_warps) {
  const gchar *sets[] = {barriers[_i].threads,
                         barriers[_i].early_exit,
                         barriers[_i].fma,
                         barriers[_i].overhead,
                         "stream.syncthreads=true",
                         "stream.iterations=5",
                         NULL};
  simulate(sets, NULL);
  ck_assert_uint_eq(run.r.st.ctas, 1);
  ck_assert_uint_eq(run.r.st.issued, barriers[_i].issued);
  ck_assert_uint_eq(run.r.st.ops[OP_BAR], barriers[_i].bars);
}
END_TEST

/* The SM's barrier unit ([barrier] interval I, latency L; sm.c): CTAs of 4
 * warps (one per SMSP) whose body is one BAR.  Measured as the cycles one
 * more iteration costs (runs of 10 and 5 iterations, / 5).  One CTA: its 4
 * arrivals are taken I cycles apart, the release comes L after the last,
 * 4I + L a round, at least 1 (I = L = 0: released the next cycle).  Two
 * CTAs: each SMSP takes two cycles to issue both warps' BAR (I = L = 0),
 * the CTAs' latencies overlap (I = 0), or the one unit bounds: 8 arrivals x
 * I a round once 8I >= 4I + L. */
static const struct {
  const gchar *interval, *latency, *blocks;
  guint cycles_per_round;
} bar_unit[] = {
    {"barrier.interval=0", "barrier.latency=0", "1", 1},
    {"barrier.interval=2", "barrier.latency=6", "1", 14}, /* 4 x 2 + 6 (the H200 model) */
    {"barrier.interval=3", "barrier.latency=0", "1", 12}, /* 4 x 3 */
    {"barrier.interval=0", "barrier.latency=5", "1", 5},
    {"barrier.interval=0", "barrier.latency=0", "2", 2},  /* issue: 2 warps per SMSP */
    {"barrier.interval=2", "barrier.latency=6", "2", 16}, /* unit: 8 x 2 > 14 */
    {"barrier.interval=0", "barrier.latency=5", "2", 5},  /* latencies overlap */
    {"barrier.interval=1", "barrier.latency=1", "2", 8},  /* unit: 8 x 1 > 5 */
};

START_TEST(test_barrier_unit) {
  g_autofree gchar *bpsm = g_strdup_printf("launch.blocks_per_sm=%s", bar_unit[_i].blocks);
  g_autofree gchar *blocks = g_strdup_printf("launch.blocks=%s", bar_unit[_i].blocks);
  SimCycle cycles[2];
  for (guint n = 0; n < 2; n++) {
    const gchar *sets[] = {bar_unit[_i].interval,
                           bar_unit[_i].latency,
                           bpsm,
                           blocks,
                           "stream.fma=0",
                           "stream.overhead=0",
                           "stream.syncthreads=true",
                           n ? "stream.iterations=10" : "stream.iterations=5",
                           NULL};
    simulate(sets, NULL);
    cycles[n] = run.r.st.cycles;
  }
  ck_assert_msg(cycles[1] - cycles[0] == 5 * bar_unit[_i].cycles_per_round,
                "%s %s, %s CTAs: %" G_GUINT64_FORMAT " cycles for 5 more rounds, want 5 x %u",
                bar_unit[_i].interval, bar_unit[_i].latency, bar_unit[_i].blocks,
                cycles[1] - cycles[0], bar_unit[_i].cycles_per_round);
}
END_TEST

/* Empty and exact-length streams: a warp issues body x iterations + EXIT.
 * Two CTAs of 4 warps each (8 warps). */
static const struct {
  const gchar *fma, *overhead, *iterations;
  guint64 per_warp, bra;
} lengths[] = {
    {"stream.fma=7", "stream.overhead=0", "stream.iterations=3", 7 * 3 + 1, 0},
    {"stream.fma=5", "stream.overhead=3", "stream.iterations=4", (5 + 3) * 4 + 1, 4},
    {"stream.fma=0", "stream.overhead=1", "stream.iterations=10", 10 + 1, 10},
    {"stream.fma=1", "stream.overhead=1", "stream.iterations=1", 2 + 1, 1},
};

START_TEST(test_stream_length) {
  const gchar *sets[] = {lengths[_i].fma, lengths[_i].overhead, lengths[_i].iterations,
                         "launch.blocks_per_sm=2", NULL};
  simulate(sets, NULL);
  ck_assert_uint_eq(warps_run(), 8);
  ck_assert_uint_eq(run.r.warp_insts_per_warp, lengths[_i].per_warp);
  ck_assert_uint_eq(run.r.st.issued, 8 * lengths[_i].per_warp);
  ck_assert_uint_eq(run.r.st.ops[OP_EXIT], 8);
  ck_assert_uint_eq(run.r.st.ops[OP_BRA], 8 * lengths[_i].bra);
}
END_TEST

/* Meaningless kernels are refused, not reported as IPC 4 from EXITs alone
 * (issue 13): every warp of a CTA exiting at once, an empty loop body. */
static const struct {
  const gchar *set[3];
  const gchar *needle;
} meaningless[] = {
    {{"launch.threads_per_block=128", "stream.early_exit=4", NULL}, "early_exit"},
    {{"launch.threads_per_block=100", "stream.early_exit=4", NULL}, "allowed 0..3"},
    {{"stream.fma=0", "stream.overhead=0", NULL}, "loop body is empty"},
};

START_TEST(test_meaningless_refused) {
  GError *err = NULL;
  g_clear_pointer(&run.k, kernel_free);
  run.k = kernel_load_data(base_kernel, "base.ini", meaningless[_i].set, &err);
  ck_assert_msg(run.k != NULL, "%s", err ? err->message : "?");
  SimOptions opt = {.check_invariants = TRUE};
  ck_assert(!sim_run(run.m, run.k, &opt, &run.r, &err));
  ck_assert(g_error_matches(err, SIM_ERROR, SIM_ERROR_LAUNCH));
  ck_assert_msg(strstr(err->message, meaningless[_i].needle) != NULL, "%s", err->message);
  g_error_free(err);
}
END_TEST

/* Bounds: a run past max_cycles stops with SIM_ERROR_BOUND at the first
 * cycle over it; a deadline already past stops it within 4096 loop steps. */
START_TEST(test_bounds) {
  const gchar *sets[] = {"stream.iterations=2000", NULL};
  GError *err = NULL;
  g_clear_pointer(&run.k, kernel_free);
  run.k = kernel_load_data(base_kernel, "base.ini", sets, &err);
  ck_assert_msg(run.k != NULL, "%s", err ? err->message : "?");
  SimOptions opt = {.max_cycles = 1000};
  ck_assert(!sim_run(run.m, run.k, &opt, &run.r, &err));
  ck_assert(g_error_matches(err, SIM_ERROR, SIM_ERROR_BOUND));
  ck_assert_str_eq(err->message, "max_cycles: stopped at cycle 1001");
  g_clear_error(&err);
  opt = (SimOptions){.deadline_us = g_get_monotonic_time() - 1};
  ck_assert(!sim_run(run.m, run.k, &opt, &run.r, &err));
  ck_assert(g_error_matches(err, SIM_ERROR, SIM_ERROR_BOUND));
  ck_assert_msg(g_str_has_prefix(err->message, "deadline: "), "%s", err->message);
  g_clear_error(&err);
  /* Within the bounds the result is the unbounded one. */
  SimResult free_run;
  ck_assert(sim_run(run.m, run.k, NULL, &free_run, NULL));
  opt = (SimOptions){.max_cycles = free_run.st.cycles,
                     .deadline_us = g_get_monotonic_time() + (gint64)3600 * G_USEC_PER_SEC};
  ck_assert(sim_run(run.m, run.k, &opt, &run.r, NULL));
  ck_assert_uint_eq(run.r.st.cycles, free_run.st.cycles);
  ck_assert_uint_eq(run.r.st.issued, free_run.st.issued);
}
END_TEST

/* The estimate is a double: a product past 2^64 stays large (it read 1.26e9
 * for 7.4e19 when it wrapped around). */
START_TEST(test_estimate_no_wrap) {
  const gchar *sets[] = {"stream.iterations=100000000", "stream.fma=65536",
                         "launch.blocks=1000000000", NULL};
  GError *err = NULL;
  g_clear_pointer(&run.k, kernel_free);
  run.k = kernel_load_data(base_kernel, "base.ini", sets, &err);
  ck_assert_msg(run.k != NULL, "%s", err ? err->message : "?");
  gdouble insts = sim_estimate_insts(run.m, run.k);
  /* 1e9 CTAs (the tiny model has one SM) x 4 warps x (65536 x 1e8 + 1) instructions */
  gdouble expect = 1e9 * 4.0 * (65536.0 * 1e8 + 1.0);
  ck_assert_msg(fabs(insts / expect - 1.0) < 1e-9, "%g, expected %g", insts, expect);
}
END_TEST

/* Warp vs thread instructions: <<<1,48>>> with 10 ALU instructions (9 IALU
 * + the loop branch) and EXIT: 2 warps x 11 = 22 warp instructions, thread
 * instructions 11 x (32 + 16) = 528; <<<1,1>>>: 11 and 11. */
static const struct {
  const gchar *threads;
  guint64 warp_insts, thread_insts;
} lanes[] = {
    {"launch.threads_per_block=48", 22, 528},
    {"launch.threads_per_block=1", 11, 11},
    {"launch.threads_per_block=32", 11, 352},
    {"launch.threads_per_block=33", 22, 363}, /* 11 x (32 + 1) */
};

START_TEST(test_thread_insts) {
  const gchar *sets[] = {lanes[_i].threads, "launch.blocks=1",     "stream.overhead=10",
                         "stream.fma=0",    "stream.iterations=1", NULL};
  simulate(sets, NULL);
  ck_assert_uint_eq(run.r.st.issued, lanes[_i].warp_insts);
  ck_assert_uint_eq(run.r.st.thread_insts, lanes[_i].thread_insts);
}
END_TEST

/* Several waves: 5 CTAs with at most 2 resident run as 2 + 2 + 1. */
START_TEST(test_waves) {
  const gchar *sets[] = {"launch.blocks=5", "launch.blocks_per_sm=2", NULL};
  simulate(sets, NULL);
  ck_assert_uint_eq(run.r.st.ctas, 5);
  ck_assert_uint_eq(run.r.warps_per_sm, 8);
  ck_assert_double_eq(run.r.waves_per_sm, 2.5);
  /* each CTA alone takes 1022 cycles (test_single_warp_exact); three waves */
  ck_assert_uint_ge(run.r.st.cycles, 3 * 1022);
  ck_assert_uint_eq(run.r.st.ffma, 5 * 4 * 256);
}
END_TEST

/* ---- launches that cannot run ------------------------------------------ */

static const struct {
  const gchar *set;
  const gchar *policy;
  const gchar *needle;
} cannot_run[] = {
    /* 1024 threads x 255 registers > 65536: no CTA fits */
    {"launch.regs_per_thread=255", NULL, "[launch]"},
    {NULL, "fifo", "fifo"},
};

START_TEST(test_cannot_run) {
  const gchar *sets[] = {"launch.threads_per_block=1024", cannot_run[_i].set, NULL};
  GError *err = NULL;
  g_clear_pointer(&run.k, kernel_free);
  run.k = kernel_load_data(base_kernel, "base.ini", sets, &err);
  ck_assert_msg(run.k != NULL, "%s", err ? err->message : "?");
  SimOptions opt = {.policy = cannot_run[_i].policy, .check_invariants = TRUE};
  ck_assert(!sim_run(run.m, run.k, &opt, &run.r, &err));
  ck_assert(g_error_matches(err, SIM_ERROR, SIM_ERROR_LAUNCH));
  ck_assert_msg(strstr(err->message, cannot_run[_i].needle) != NULL, "%s", err->message);
  g_error_free(err);
}
END_TEST

/* ---- suite ------------------------------------------------------------- */

static TCase *tcase_new(const gchar *name) {
  TCase *tc = tcase_create(name);
  tcase_add_checked_fixture(tc, run_setup, run_teardown);
  return tc;
}

int main(void) {
  Suite *s = suite_create("sim");
  TCase *tc = tcase_new("invariants");
  tcase_add_loop_test(tc, test_invariants, 0,
                      G_N_ELEMENTS(invariant_kernels) * G_N_ELEMENTS(policies));
  suite_add_tcase(s, tc);

  tc = tcase_new("throughput");
  tcase_add_loop_test(tc, test_littles_law, 0, G_N_ELEMENTS(littles));
  tcase_add_loop_test(tc, test_single_warp_exact, 0, 3);
  tcase_add_loop_test(tc, test_issue_ceiling, 0, G_N_ELEMENTS(ceilings));
  tcase_add_loop_test(tc, test_bank_conflict, 0, G_N_ELEMENTS(conflicts));
  tcase_add_loop_test(tc, test_dram_latency, 0, G_N_ELEMENTS(chases));
  tcase_add_loop_test(tc, test_warp_dram_lines, 0, G_N_ELEMENTS(warp_caps));
  suite_add_tcase(s, tc);

  tc = tcase_new("determinism");
  tcase_add_test(tc, test_same_seed_same_stats);
  tcase_add_test(tc, test_other_seed_other_cycles);
  tcase_add_test(tc, test_plan_same_as_run);
  suite_add_tcase(s, tc);

  tc = tcase_new("behaviour");
  tcase_add_loop_test(tc, test_barrier_exited_warps, 0, G_N_ELEMENTS(barriers));
  tcase_add_loop_test(tc, test_barrier_unit, 0, G_N_ELEMENTS(bar_unit));
  tcase_add_loop_test(tc, test_stream_length, 0, G_N_ELEMENTS(lengths));
  tcase_add_loop_test(tc, test_meaningless_refused, 0, G_N_ELEMENTS(meaningless));
  tcase_add_test(tc, test_bounds);
  tcase_add_test(tc, test_estimate_no_wrap);
  tcase_add_loop_test(tc, test_thread_insts, 0, G_N_ELEMENTS(lanes));
  tcase_add_test(tc, test_waves);
  tcase_add_loop_test(tc, test_cannot_run, 0, G_N_ELEMENTS(cannot_run));
  suite_add_tcase(s, tc);

  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
