/* check_profile.c - tests of the warp-state accounting (sim/run/sim.c) and of the
 * Nsight Compute-style report (sim/report/profile.[ch]): the accounting identities,
 * every case of the state priority on a tiny SM built from a string, each
 * rule on both sides of its threshold, the what-if changes, and the H200
 * checks of issue 5 (models/h200.ini and traces/ through WARPSIM_ROOT). */
#include "input/kernel.h"
#include "input/model.h"
#include "report/profile.h"
#include "run/sim.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One SMSP, no latency spread, one memory channel per level, gto: every
 * cycle of a run can be followed by hand. */
static const gchar tiny_model[] = "[model]\n"
                                  "description=tiny test SM\n"
                                  "[sm]\n"
                                  "cc=9.0\n"
                                  "smsps=1\n"
                                  "sms=1\n"
                                  "max_warps=16\n"
                                  "max_blocks=16\n"
                                  "regs=65536\n"
                                  "max_regs_per_block=65536\n"
                                  "smem_per_sm=65536\n"
                                  "smem_per_block_optin=65536\n"
                                  "[sched]\n"
                                  "policy=gto\n"
                                  "[fma]\n"
                                  "latency=4\n"
                                  "interval=1\n"
                                  "[alu]\n"
                                  "latency=4\n"
                                  "interval=1\n"
                                  "[sfu]\n"
                                  "latency=16\n"
                                  "interval=8\n"
                                  "[smem]\n"
                                  "latency=20\n"
                                  "interval=1\n"
                                  "[lsu]\n"
                                  "interval=1\n"
                                  "[branch]\n"
                                  "latency=10\n"
                                  "[operand]\n"
                                  "bank_conflict=false\n"
                                  "[l1]\n"
                                  "latency=100\n"
                                  "bytes_per_cycle=128\n"
                                  "channels=1\n"
                                  "bytes=262144\n"
                                  "[l2]\n"
                                  "latency=200\n"
                                  "bytes_per_cycle=64\n"
                                  "channels=1\n"
                                  "[dram]\n"
                                  "latency=400\n"
                                  "bytes_per_cycle=32\n"
                                  "channels=1\n"
                                  "[mem]\n"
                                  "max_inflight=0\n"
                                  "sector_bytes=32\n"
                                  "line_bytes=128\n";

/* One warp per CTA, one iteration, no loop overhead: tests add what they need. */
static const gchar tiny_kernel[] = "[launch]\n"
                                   "threads_per_block=32\n"
                                   "blocks_per_sm=1\n"
                                   "[stream]\n"
                                   "iterations=1\n"
                                   "overhead=0\n"
                                   "level=l1\n";

typedef struct {
  SmModel *m;
  Kernel *k;
  SimResult r;
} Run;

static void run_clear(Run *run) {
  model_free(run->m);
  kernel_free(run->k);
}

/* Every SimStats identity the README states, over the whole run (sim.c checks
 * them per cycle with check_invariants). */
static void check_identities(const SimResult *r) {
  guint64 sum = 0;
  for (guint s = 0; s < STALL_MAX; s++)
    sum += r->st.state[s];
  ck_assert_uint_eq(sum, r->st.active_warp_cycles);
  ck_assert_uint_eq(r->st.state[STALL_SELECTED], r->st.issued);
  ck_assert_uint_eq(r->st.issue_cycles, r->st.issued);
  ck_assert_uint_ge(r->st.ready_warp_cycles, r->st.issued);
  ck_assert_uint_ge(r->st.ready_warp_cycles,
                    r->st.state[STALL_SELECTED] + r->st.state[STALL_NOT_SELECTED]);
}

/* Simulate with per-cycle invariants on; `model_sets` / `kernel_sets` are
 * ';'-separated group.key=value overrides (NULL: none).  A NULL model or
 * kernel text means the shipped h200 model / a traces/ kernel named `trace`. */
static void run_sets(Run *run, const gchar *trace, const gchar *sets) {
  g_auto(GStrv) v = sets ? g_strsplit(sets, ";", -1) : NULL;
  const gchar *const *ov = (const gchar *const *)v;
  GError *err = NULL;
  if (trace == NULL) {
    run->m = model_load_data(tiny_model, "tiny", ov, &err);
    ck_assert_msg(run->m != NULL, "%s", err ? err->message : "?");
    run->k = kernel_load_data(tiny_kernel, "tiny", ov, &err);
  } else {
    const gchar *root = g_getenv("WARPSIM_ROOT");
    g_autofree gchar *model =
        root ? g_build_filename(root, "models", "h200.ini", NULL) : g_strdup("h200");
    g_autofree gchar *file = g_strconcat(trace, ".ini", NULL);
    g_autofree gchar *kernel =
        root ? g_build_filename(root, "traces", file, NULL) : g_strdup(trace);
    run->m = model_load(model, ov, &err);
    ck_assert_msg(run->m != NULL, "%s", err ? err->message : "?");
    run->k = kernel_load(kernel, ov, run->m, &err);
  }
  ck_assert_msg(run->k != NULL, "%s", err ? err->message : "?");
  SimOptions opt = {.check_invariants = TRUE};
  ck_assert_msg(sim_run(run->m, run->k, &opt, &run->r, &err), "%s", err ? err->message : "?");
  check_identities(&run->r);
}

/* ---- accounting identities over many kernels (h200) --------------------- */

static const struct {
  const gchar *trace;
  const gchar *sets;
} identity_cases[] = {
    {"fma", "stream.ilp=1;stream.fma=32;stream.iterations=8"},
    {"fma", "stream.iterations=8;launch.blocks_per_sm=3"},
    {"chase", "stream.iterations=8"},
    {"stream", "stream.iterations=8;stream.loads=2;stream.ilp=2"},
    {"fma", "stream.sfu=8;stream.lds=8;stream.lds_ways=4;stream.syncthreads=true;"
            "stream.iterations=4"},
    {"fma", "launch.threads_per_block=200;stream.early_exit=2;stream.syncthreads=true;"
            "stream.iterations=4"},
    {"fma", "launch.regs_per_thread=96;launch.max_regs=40;stream.live_values=16;"
            "stream.iterations=4"},
    {"chase", "stream.level=l2;mem.max_inflight=8;stream.loads=4;stream.ilp=4;"
              "stream.iterations=4"},
    {"fma", "launch.blocks=300;stream.iterations=4"},
};

START_TEST(test_identities) {
  Run run = {0};
  run_sets(&run, identity_cases[_i].trace, identity_cases[_i].sets);
  ProfileMetrics pmv;
  profile_metrics_compute(run.m, run.k, &run.r, &pmv);
  const ProfileMetrics *p = &pmv;
  ck_assert(p->eligible_warps >= p->issued_warps - 1e-12);
  ck_assert(p->ready_warps >= p->eligible_warps - 1e-12);
  ck_assert(p->active_warps >= p->ready_warps - 1e-12);
  gdouble cpi = 0, pct = 0;
  for (guint s = 0; s < STALL_MAX; s++) {
    cpi += p->state_cpi[s];
    pct += p->state_pct[s];
  }
  ck_assert_double_eq_tol(cpi, p->total_cpi, 1e-9);
  ck_assert_double_eq_tol(pct, 100.0, 1e-9);
  ck_assert_double_eq_tol(p->state_cpi[STALL_SELECTED], 1.0, 1e-12);
  for (guint i = 1; i < STALL_MAX; i++)
    ck_assert(p->state_cpi[p->state_order[i - 1]] >= p->state_cpi[p->state_order[i]]);
  run_clear(&run);
}
END_TEST

/* ---- priority cases, followed cycle by cycle ------------------------------ */

#define STATE(run, s) ((run).r.st.state[STALL_##s])

typedef struct {
  StallState state;
  guint64 warp_cycles;
} Expect;

/* Runs of the tiny SM whose every warp-cycle is counted by hand in the
 * comment; `expect` ends with STALL_MAX. */
static const struct {
  const gchar *sets;
  SimCycle cycles; /* 0: not checked */
  guint64 active;  /* active warp-cycles; 0: not checked */
  Expect expect[7];
} exact_cases[] = {
    /* Barrier over operands, the SM's lines cap, drain: two warps of one
     * CTA, body {LDG chase, BAR}, 2 iterations, one load in flight per SM,
     * L1 latency 100.  A ready load at the full cap ("slot") is charged
     * long_scoreboard, as the H200 does.  By hand (w0 older, gto):  0 w0
     * LDG (data at 100), w1 not_selected;  1 w0 BAR, w1 slot;  2..99 w0 at
     * the barrier while its next LDG's operand is pending: barrier; w1
     * slot;  100 w1 LDG (data at 200);  101 w1 BAR releases w0;  102..199
     * w0 slot, w1 long_scoreboard (its data);  200 w1 LDG (greedy, data at
     * 300), w0 not_selected;  201 w1 BAR, w0 slot;  202..299 w1 barrier, w0
     * slot;  300 w0 LDG (data at 400);  301 w0 BAR releases w1;  302 w0
     * EXIT, w1 not_selected;  303 w1 EXIT, w0 drain;  304..399 w0 drains its
     * load.  slot: 1 + 98 + 98 + 1 + 98 = 296; long_scoreboard 296 + 98 =
     * 394; lg_throttle none. */
    {"launch.threads_per_block=64;stream.iterations=2;stream.loads=1;"
     "stream.load_pattern=chase;stream.syncthreads=true;mem.max_inflight=1",
     400,
     704,
     {{STALL_SELECTED, 10},
      {STALL_NOT_SELECTED, 3},
      {STALL_BARRIER, 200},
      {STALL_LG_THROTTLE, 0},
      {STALL_LONG_SCOREBOARD, 394},
      {STALL_DRAIN, 97},
      {STALL_MAX, 0}}},
    /* wait: one warp, 32 dependent FFMAs (latency 4), each waits 3 cycles,
     * 31 times; then EXIT. */
    {"stream.fma=32", 0, 126, {{STALL_SELECTED, 33}, {STALL_WAIT, 93}, {STALL_MAX, 0}}},
    /* A pending operand wins over a busy pipe: fma.interval 8, latency 4:
     * after each FFMA 3 cycles wait (both hold), then 4 math_pipe_throttle. */
    {"stream.fma=32;fma.interval=8",
     0,
     0,
     {{STALL_WAIT, 31 * 3}, {STALL_MATH_PIPE_THROTTLE, 31 * 4}, {STALL_MAX, 0}}},
    /* short_scoreboard: dependent MUFUs (latency 16), 15 cycles each but the last. */
    {"stream.sfu=4", 0, 0, {{STALL_SHORT_SCOREBOARD, 3 * 15}, {STALL_MAX, 0}}},
    /* long_scoreboard: dependent L1 loads, 99 cycles between one and the next. */
    {"stream.iterations=4;stream.loads=1;stream.load_pattern=chase",
     0,
     0,
     {{STALL_LONG_SCOREBOARD, 3 * 99}, {STALL_MAX, 0}}},
    /* The cycles after a loop branch are branch_resolving even while the next
     * instruction's operand is also pending (branch_resolving comes before
     * long_scoreboard): body {LDG chase, BRA}: LDG at t (data t+100), BRA at
     * t+1, t+2..t+10 branch_resolving, t+11..t+99 long_scoreboard; the last
     * BRA is followed by EXIT. */
    {"stream.iterations=4;stream.loads=1;stream.load_pattern=chase;stream.overhead=1",
     0,
     0,
     {{STALL_BRANCH_RESOLVING, 4 * 9}, {STALL_LONG_SCOREBOARD, 3 * 89}, {STALL_MAX, 0}}},
};

START_TEST(test_priority_exact) {
  Run run = {0};
  run_sets(&run, NULL, exact_cases[_i].sets);
  if (exact_cases[_i].cycles)
    ck_assert_uint_eq(run.r.st.cycles, exact_cases[_i].cycles);
  if (exact_cases[_i].active)
    ck_assert_uint_eq(run.r.st.active_warp_cycles, exact_cases[_i].active);
  for (const Expect *e = exact_cases[_i].expect; e->state != STALL_MAX; e++)
    ck_assert_msg(run.r.st.state[e->state] == e->warp_cycles,
                  "%s: %" G_GUINT64_FORMAT " warp-cycles, expected %" G_GUINT64_FORMAT,
                  stall_name(e->state), run.r.st.state[e->state], e->warp_cycles);
  run_clear(&run);
}
END_TEST

/* The first exact case's 296 warp-cycles at the SM's one load slot
 * (mem.max_inflight=1; a synthetic kernel has no per-warp cap), counted by
 * hand there, are long_scoreboard: SimStats lg_load_sm; none is a store's
 * (lg_throttle_sm).  cpi_stall's cause counts them to lg_throttle, the
 * limiter: 296 > barrier 200 > the loads' data 394 - 296 = 98, so it is
 * lg_throttle at 296 / 10 issued = 29.6 warp cycles per issue, 296 / 704 =
 * 42.045 % of the warp cycles, although long_scoreboard (394) is the
 * largest state. */
START_TEST(test_lg_sm_exact) {
  Run run = {0};
  run_sets(&run, NULL, exact_cases[0].sets);
  ck_assert_uint_eq(run.r.st.lg_load_sm, 296);
  ck_assert_uint_eq(run.r.st.lg_throttle_sm, 0);
  ProfileMetrics pm;
  profile_metrics_compute(run.m, run.k, &run.r, &pm);
  ck_assert_double_eq(pm.lg_warp_cpi, 0.0);
  ck_assert_double_eq(pm.lg_sm_cpi, 0.0);
  ck_assert_double_eq_tol(pm.lsb_sm_cpi, 296.0 / 10, 1e-12); /* 10 issued */
  ck_assert_int_eq(pm.state_order[0], STALL_LONG_SCOREBOARD);
  ck_assert_int_eq(pm.top_cause, STALL_LG_THROTTLE);
  ck_assert_double_eq_tol(pm.top_cause_cpi, 29.6, 1e-12);
  ck_assert_double_eq_tol(pm.top_cause_pct, 100.0 * 296 / 704, 1e-12);
  run_clear(&run);
}
END_TEST

/* long_scoreboard's two causes as the report writes them, for the first
 * exact case (counted there): of its 394 warp cycles, 296 are loads at the
 * SM's one slot (lg_load_sm) and 98 the loads' data; 10 issued, 704 warp
 * cycles.  Per issue: 39.4 = load data 98 / 10 = 9.8 + SM miss slots 296 /
 * 10 = 29.6; as % of the warp cycles: 394 / 704 = 55.97 -> "56.0", 98 /
 * 704 = 13.92 -> "13.9", 296 / 704 = 42.05 -> "42.0".  JSON: warp_states'
 * long_scoreboard entry with causes load_data 9.8 and sm_miss_slots 29.6;
 * text: the rows "  of it: load data" 9.8000 13.9 and "  of it: SM miss
 * slots" 29.6000 42.0 under the state's 39.4000 56.0. */
static const struct {
  const gchar *label, *cpi, *pct;
} lsb_text_rows[] = {{"\n    long_scoreboard ", "39.4000", "56.0"},
                     {"\n      of it: load data ", "9.8000", "13.9"},
                     {"\n      of it: SM miss slots ", "29.6000", "42.0"}};

START_TEST(test_lsb_causes_exact) {
  Run run = {0};
  run_sets(&run, NULL, exact_cases[0].sets);
  g_autoptr(Profile) prof = profile_new(run.m, run.k, &run.r);
  profile_skip_what_if(prof);
  g_autoptr(JsonNode) node = profile_to_json(prof);
  JsonObject *ws = json_object_get_object_member(json_node_get_object(node), "warp_states");
  JsonArray *states = json_object_get_array_member(ws, "states");
  JsonObject *lsb = NULL;
  for (guint i = 0; i < json_array_get_length(states); i++) {
    JsonObject *e = json_array_get_object_element(states, i);
    if (strcmp(json_object_get_string_member(e, "state"), "long_scoreboard") == 0)
      lsb = e;
  }
  ck_assert_ptr_nonnull(lsb);
  ck_assert_double_eq_tol(json_object_get_double_member(lsb, "warp_cycles_per_issued_instruction"),
                          39.4, 1e-12);
  JsonObject *causes = json_object_get_object_member(lsb, "causes");
  ck_assert_double_eq_tol(json_object_get_double_member(causes, "load_data"), 9.8, 1e-12);
  ck_assert_double_eq_tol(json_object_get_double_member(causes, "sm_miss_slots"), 29.6, 1e-12);
  GString *text = g_string_new(NULL);
  profile_append_text(prof, text);
  /* each row once, in this order, its line the label and the two cells */
  const gchar *at = strstr(text->str, "Section: Warp State Statistics");
  ck_assert_ptr_nonnull(at);
  for (guint i = 0; i < G_N_ELEMENTS(lsb_text_rows); i++) {
    at = strstr(at, lsb_text_rows[i].label);
    ck_assert_msg(at != NULL, "no row '%s':\n%s", lsb_text_rows[i].label + 1, text->str);
    at += strlen(lsb_text_rows[i].label);
    g_autofree gchar *line = g_strndup(at, strcspn(at, "\n"));
    g_auto(GStrv) cells = g_strsplit_set(g_strstrip(line), " ", -1);
    guint n = 0;
    const gchar *cell[2] = {NULL, NULL};
    for (guint c = 0; cells[c] != NULL; c++)
      if (*cells[c] && n < 2)
        cell[n++] = cells[c];
    ck_assert_msg(n == 2 && strcmp(cell[0], lsb_text_rows[i].cpi) == 0 &&
                      strcmp(cell[1], lsb_text_rows[i].pct) == 0,
                  "row '%s': '%s', want %s %s", lsb_text_rows[i].label + 1, line,
                  lsb_text_rows[i].cpi, lsb_text_rows[i].pct);
  }
  g_string_free(text, TRUE);
  run_clear(&run);
}
END_TEST

/* cpi_stall's cause (ProfileMetrics top_cause) is no issue state: the
 * wait case's run (one warp, 33 issued) with its counts set by hand to
 * not_selected 500 > selected 33 > wait 20 > long_scoreboard 10 (none at
 * the SM's cap), 563 warp cycles in all: the cause is wait, 20 / 33 =
 * 0.6061 warp cycles per issue, 100 x 20 / 563 = 3.552 %.  Counting
 * not_selected would make it not_selected (500), counting selected
 * selected (33). */
START_TEST(test_top_cause_skips_issue) {
  Run run = {0};
  run_sets(&run, NULL, exact_cases[1].sets);
  ck_assert_uint_eq(run.r.st.issued, 33);
  SimStats *st = &run.r.st;
  memset(st->state, 0, sizeof st->state);
  st->state[STALL_NOT_SELECTED] = 500;
  st->state[STALL_SELECTED] = 33;
  st->state[STALL_WAIT] = 20;
  st->state[STALL_LONG_SCOREBOARD] = 10;
  st->lg_load_sm = st->lg_throttle_sm = 0;
  st->active_warp_cycles = 563;
  ProfileMetrics pm;
  profile_metrics_compute(run.m, run.k, &run.r, &pm);
  ck_assert_int_eq(pm.state_order[0], STALL_NOT_SELECTED);
  ck_assert_int_eq(pm.top_cause, STALL_WAIT);
  ck_assert_double_eq_tol(pm.top_cause_cpi, 20.0 / 33, 1e-12);
  ck_assert_double_eq_tol(pm.top_cause_pct, 100.0 * 20 / 563, 1e-12);
  run_clear(&run);
}
END_TEST

/* The SM's lines cap wins over mio_throttle: the load slots are full and
 * the LSU is busy (lsu.interval 50): the waits are the cap's (lg_load_sm,
 * charged long_scoreboard), none is mio_throttle or lg_throttle. */
START_TEST(test_priority_lg_over_mio) {
  Run run = {0};
  run_sets(&run, NULL,
           "launch.threads_per_block=64;stream.loads=1;mem.max_inflight=1;lsu.interval=50");
  ck_assert_uint_gt(run.r.st.lg_load_sm, 90);
  ck_assert_uint_eq(STATE(run, MIO_THROTTLE), 0);
  ck_assert_uint_eq(STATE(run, LG_THROTTLE), 0);
  run_clear(&run);
}
END_TEST

/* A ready warp whose pipe is busy is math_pipe_throttle, not not_selected:
 * two warps alternating (lrr), 8 independent chains, one FFMA per 4 cycles:
 * per FFMA 1 selected, 1 not_selected, 2 x 3 math_pipe_throttle (less at
 * the ends). */
START_TEST(test_priority_pipe_not_selected) {
  const gchar *base = "launch.threads_per_block=64;stream.fma=64;stream.ilp=8;sched.policy=lrr";
  g_autofree gchar *slow = g_strconcat(base, ";fma.interval=4", NULL);
  Run run = {0};
  run_sets(&run, NULL, slow);
  ck_assert_uint_ge(STATE(run, MATH_PIPE_THROTTLE), 5 * STATE(run, SELECTED));
  ck_assert_uint_le(STATE(run, NOT_SELECTED), STATE(run, SELECTED));
  Run fast = {0};
  run_sets(&fast, NULL, base);
  ck_assert_uint_eq(STATE(fast, MATH_PIPE_THROTTLE), 0);
  ck_assert_uint_gt(STATE(fast, NOT_SELECTED), 100);
  run_clear(&run);
  run_clear(&fast);
}
END_TEST

/* Register-bank conflicts: two warps alternating (lrr) never reuse operands,
 * so each FFMA holds dispatch a second cycle (dispatch_stall); without the
 * conflict there is none; with a 2-cycle pipe the busy pipe wins
 * (math_pipe_throttle comes before dispatch_stall). */
START_TEST(test_priority_dispatch) {
  const gchar *base = "launch.threads_per_block=64;stream.fma=32;stream.ilp=4;sched.policy=lrr";
  g_autofree gchar *on = g_strconcat(base, ";operand.bank_conflict=true", NULL);
  g_autofree gchar *piped = g_strconcat(on, ";fma.interval=2", NULL);
  Run conflict = {0}, none = {0}, pipe = {0};
  run_sets(&conflict, NULL, on);
  run_sets(&none, NULL, base);
  run_sets(&pipe, NULL, piped);
  ck_assert_uint_ge(STATE(conflict, DISPATCH_STALL), 60);
  ck_assert_uint_eq(STATE(none, DISPATCH_STALL), 0);
  /* Only the EXITs (no pipe) can meet the held dispatch port there. */
  ck_assert_uint_le(STATE(pipe, DISPATCH_STALL), 4);
  ck_assert_uint_ge(STATE(pipe, MATH_PIPE_THROTTLE), 60);
  run_clear(&conflict);
  run_clear(&none);
  run_clear(&pipe);
}
END_TEST

/* 32-way bank-conflicted LDS keep the SM's shared-memory unit busy 32 cycles:
 * the other ready LDS are mio_throttle. */
START_TEST(test_priority_mio) {
  Run lds = {0};
  run_sets(&lds, NULL, "launch.threads_per_block=64;stream.lds=8;stream.ilp=8;stream.lds_ways=32");
  ck_assert_uint_gt(STATE(lds, MIO_THROTTLE), 8 * STATE(lds, SELECTED));
  run_clear(&lds);
}
END_TEST

/* ---- rules at their thresholds ---------------------------------------------- */

static const struct {
  gdouble sm, mem, waves;
  ProfileSolVerdict verdict;
} sol_cases[] = {
    {59.9, 59.9, 1.0, PROFILE_SOL_LATENCY},        {0.0, 0.0, 1.0, PROFILE_SOL_LATENCY},
    {59.9, 10.0, 0.99, PROFILE_SOL_SMALL_GRID},    {60.0, 50.0, 1.0, PROFILE_SOL_HIGH_COMPUTE},
    {60.0, 50.5, 1.0, PROFILE_SOL_BALANCED},       {50.0, 60.0, 1.0, PROFILE_SOL_HIGH_MEMORY},
    {50.5, 60.0, 1.0, PROFILE_SOL_BALANCED},       {79.9, 79.9, 1.0, PROFILE_SOL_BALANCED},
    {79.9, 30.0, 1.0, PROFILE_SOL_HIGH_COMPUTE},   {80.0, 0.0, 1.0, PROFILE_SOL_HIGH_THROUGHPUT},
    {0.0, 80.0, 0.5, PROFILE_SOL_HIGH_THROUGHPUT},
};

START_TEST(test_sol_verdict) {
  ck_assert_int_eq(profile_sol_verdict(sol_cases[_i].sm, sol_cases[_i].mem, sol_cases[_i].waves),
                   sol_cases[_i].verdict);
}
END_TEST

/* Fixture of the "thresholds" tests: the profile of a small real run (one
 * warp, 32 dependent FFMAs), and a copy of its metrics (`tiny`) that each
 * test edits before evaluating the rules on it (apply_tiny). */
static Run tiny_run;
static Profile *tiny_profile;
static ProfileMetrics tiny_metrics, *tiny = &tiny_metrics;
static ProfileRules tiny_rules;

static void apply_tiny(void) {
  profile_rules_apply(tiny, &tiny_rules);
}

static void tiny_setup(void) {
  run_sets(&tiny_run, NULL, "stream.fma=32");
  tiny_profile = profile_new(tiny_run.m, tiny_run.k, &tiny_run.r);
  tiny_metrics = *profile_metrics(tiny_profile);
  apply_tiny();
}

static void tiny_teardown(void) {
  profile_rules_clear(&tiny_rules);
  g_clear_pointer(&tiny_profile, profile_free);
  run_clear(&tiny_run);
}

static gboolean fired(const ProfileRules *rs, ProfileRuleId id) {
  ck_assert(!rs->rule[id].fired || rs->rule[id].message != NULL);
  return rs->rule[id].fired;
}

START_TEST(test_rule_sol_suggests) {
  tiny->sm_pct = 30;
  tiny->mem_pct = 20;
  tiny->waves_per_sm = 1;
  apply_tiny();
  ck_assert(fired(&tiny_rules, PROFILE_RULE_SOL));
  ck_assert_int_eq(tiny_rules.verdict, PROFILE_SOL_LATENCY);
  ck_assert((tiny_rules.suggests & PROFILE_SUGGEST_OCCUPANCY));
  ck_assert((tiny_rules.suggests & PROFILE_SUGGEST_ILP));
  tiny->sm_pct = 95;
  apply_tiny();
  ck_assert_int_eq(tiny_rules.verdict, PROFILE_SOL_HIGH_THROUGHPUT);
  ck_assert_int_eq(tiny_rules.rule[PROFILE_RULE_SOL].suggests, 0);
}
END_TEST

START_TEST(test_rule_occupancy) {
  tiny->theoretical_pct = 100;
  tiny->achieved_pct = 89.9;
  tiny->max_warps_per_sched = 16;
  tiny->theoretical_warps_per_sched = 12.75;
  apply_tiny();
  ck_assert(fired(&tiny_rules, PROFILE_RULE_ACHIEVED_OCCUPANCY));
  ck_assert(fired(&tiny_rules, PROFILE_RULE_THEORETICAL_OCCUPANCY));
  ck_assert(tiny_rules.rule[PROFILE_RULE_THEORETICAL_OCCUPANCY].suggests &
            PROFILE_SUGGEST_OCCUPANCY);
  ck_assert_int_eq(tiny_rules.rule[PROFILE_RULE_THEORETICAL_OCCUPANCY].next,
                   PROFILE_SECTION_OCCUPANCY);
  tiny->achieved_pct = 90.1;
  tiny->theoretical_warps_per_sched = 12.8;
  apply_tiny();
  ck_assert(!fired(&tiny_rules, PROFILE_RULE_ACHIEVED_OCCUPANCY));
  ck_assert(!fired(&tiny_rules, PROFILE_RULE_THEORETICAL_OCCUPANCY));
}
END_TEST

START_TEST(test_rule_issue_and_cpi) {
  /* The tiny run itself: one warp, 93 of 126 cycles wait. */
  ck_assert(fired(&tiny_rules, PROFILE_RULE_ISSUE_SLOTS));
  ck_assert(fired(&tiny_rules, PROFILE_RULE_CPI_STALL));
  ck_assert_double_eq_tol(tiny_rules.rule[PROFILE_RULE_CPI_STALL].value, 100.0 * 93 / 126, 1e-9);
  ck_assert_ptr_nonnull(strstr(tiny_rules.rule[PROFILE_RULE_CPI_STALL].message, "wait"));
  ck_assert_int_eq(tiny->top_cause, STALL_WAIT);
  tiny->issued_warps = 0.6;
  tiny->issue_slot_pct = 79.9;
  tiny->top_cause_pct = 30; /* the cause's share (not_selected: test_top_cause_skips_issue) */
  apply_tiny();
  ck_assert(!fired(&tiny_rules, PROFILE_RULE_ISSUE_SLOTS));
  ck_assert(fired(&tiny_rules, PROFILE_RULE_CPI_STALL));
  tiny->issued_warps = 0.59;
  tiny->top_cause_pct = 29.9;
  apply_tiny();
  ck_assert(fired(&tiny_rules, PROFILE_RULE_ISSUE_SLOTS));
  ck_assert(!fired(&tiny_rules, PROFILE_RULE_CPI_STALL));
  tiny->top_cause_pct = 40;
  tiny->issue_slot_pct = 80;
  apply_tiny();
  ck_assert(!fired(&tiny_rules, PROFILE_RULE_CPI_STALL));
}
END_TEST

/* cpi_stall on lg_throttle names the larger of its two causes: 40 of the 50
 * warp cycles per issue are lg_throttle; of it 30 are the warps' own DRAM
 * lines (75 %: more occupancy, read Occupancy) or 10 (25 %: nothing
 * suggested, read Speed Of Light).  The third case is the first with 6 of
 * the 10 at the SM's miss slots loads, charged long_scoreboard: the cause
 * is "lines in flight", 40 = 6 long_scoreboard + 34 lg_throttle, and the
 * advice the first's. */
START_TEST(test_rule_lg_causes) {
  static const struct {
    gdouble warp_cpi, lsb_sm_cpi;
    guint suggests;
    ProfileSection next;
    const gchar *text, *name;
  } cases[] = {
      {30, 0, PROFILE_SUGGEST_OCCUPANCY, PROFILE_SECTION_OCCUPANCY,
       "75 % of it loads wait for their warp's own DRAM lines in flight",
       "lg_throttle: 40.00 of the 50.00 warp cycles"},
      {10, 0, 0, PROFILE_SECTION_SOL, "25 % of it loads wait for their warp's own DRAM lines",
       "lg_throttle: 40.00 of the 50.00 warp cycles"},
      {30, 6, PROFILE_SUGGEST_OCCUPANCY, PROFILE_SECTION_OCCUPANCY,
       "75 % of it loads wait for their warp's own DRAM lines in flight",
       "lines in flight: 40.00 of the 50.00 warp cycles between two issues of a warp (80.0 % "
       ">= 30 %, issue active 2.0 % < 80 %), of them 6.00 charged long_scoreboard"},
  };
  for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
    for (guint s = 0; s < STALL_MAX; s++)
      tiny->state_pct[s] = tiny->state_cpi[s] = 0;
    tiny->issue_slot_pct = 2;
    tiny->total_cpi = 50;
    tiny->state_cpi[STALL_LG_THROTTLE] = 40 - cases[i].lsb_sm_cpi;
    tiny->state_pct[STALL_LG_THROTTLE] = 80 - 2 * cases[i].lsb_sm_cpi;
    tiny->state_order[0] = STALL_LG_THROTTLE;
    tiny->top_cause = STALL_LG_THROTTLE;
    tiny->top_cause_cpi = 40;
    tiny->top_cause_pct = 80;
    tiny->lg_warp_cpi = cases[i].warp_cpi;
    tiny->lg_sm_cpi = 40 - cases[i].warp_cpi - cases[i].lsb_sm_cpi;
    tiny->lsb_sm_cpi = cases[i].lsb_sm_cpi;
    apply_tiny();
    const ProfileRule *r = &tiny_rules.rule[PROFILE_RULE_CPI_STALL];
    ck_assert(fired(&tiny_rules, PROFILE_RULE_CPI_STALL));
    ck_assert_uint_eq(r->suggests, cases[i].suggests);
    ck_assert_int_eq(r->next, cases[i].next);
    ck_assert_msg(strstr(r->message, cases[i].text) != NULL, "%s", r->message);
    ck_assert_msg(strstr(r->message, cases[i].name) != NULL, "%s", r->message);
  }
}
END_TEST

/* cpi_stall on the loads' own wait leaves out the long_scoreboard of the
 * loads at the SM's miss slots: 30 of the 50 warp cycles per issue are
 * long_scoreboard, 12 of them at the cap, so the cause is the 18 of the
 * data (36 %), with long_scoreboard's advice (more occupancy and ILP). */
START_TEST(test_rule_lsb_data) {
  for (guint s = 0; s < STALL_MAX; s++)
    tiny->state_pct[s] = tiny->state_cpi[s] = 0;
  tiny->issue_slot_pct = 2;
  tiny->total_cpi = 50;
  tiny->state_cpi[STALL_LONG_SCOREBOARD] = 30;
  tiny->state_pct[STALL_LONG_SCOREBOARD] = 60;
  tiny->lg_warp_cpi = tiny->lg_sm_cpi = 0;
  tiny->lsb_sm_cpi = 12;
  tiny->top_cause = STALL_LONG_SCOREBOARD;
  tiny->top_cause_cpi = 18;
  tiny->top_cause_pct = 36;
  apply_tiny();
  const ProfileRule *r = &tiny_rules.rule[PROFILE_RULE_CPI_STALL];
  ck_assert(fired(&tiny_rules, PROFILE_RULE_CPI_STALL));
  ck_assert_double_eq_tol(r->value, 36, 1e-12);
  ck_assert_uint_eq(r->suggests, PROFILE_SUGGEST_OCCUPANCY | PROFILE_SUGGEST_ILP);
  ck_assert_int_eq(r->next, PROFILE_SECTION_OCCUPANCY);
  ck_assert_msg(strstr(r->message, "long_scoreboard (the loads' data): 18.00 of the 50.00 warp "
                                   "cycles between two issues of a warp (36.0 % >= 30 %, issue "
                                   "active 2.0 % < 80 %), without the 12.00 of loads waiting for "
                                   "a miss slot") != NULL,
                "%s", r->message);
}
END_TEST

/* Launch rules on real launches of the tiny SM (tests/data/cases_other.md:
 * 108 SMs, 1 CTA each, 109 CTAs = 2 waves, the second may take 50 %). */
static const struct {
  const gchar *sets;
  ProfileRuleId rule;
  gboolean fires;
  gdouble value;
} launch_cases[] = {
    {"sm.sms=108;launch.blocks=109", PROFILE_RULE_TAIL_EFFECT, TRUE, 50.0},
    {"sm.sms=108;launch.blocks=454", PROFILE_RULE_TAIL_EFFECT, TRUE, 20.0},
    {"sm.sms=108;launch.blocks=562", PROFILE_RULE_TAIL_EFFECT, FALSE, 100.0 / 6},
    {"sm.sms=108;launch.blocks=216", PROFILE_RULE_TAIL_EFFECT, FALSE, 0.0},
    {"sm.sms=108;launch.blocks=107", PROFILE_RULE_GRID_SIZE, TRUE, 107},
    {"sm.sms=108;launch.blocks=108", PROFILE_RULE_GRID_SIZE, FALSE, 108},
    {"launch.threads_per_block=48", PROFILE_RULE_BLOCK_SIZE, TRUE, 16},
    {"launch.threads_per_block=64", PROFILE_RULE_BLOCK_SIZE, FALSE, 0},
};

START_TEST(test_rule_launch) {
  Run run = {0};
  g_autofree gchar *sets = g_strconcat(launch_cases[_i].sets, ";stream.fma=4", NULL);
  run_sets(&run, NULL, sets);
  g_autoptr(Profile) p = profile_new(run.m, run.k, &run.r);
  const ProfileRules *rs = profile_rules(p);
  ck_assert_int_eq(fired(rs, launch_cases[_i].rule), launch_cases[_i].fires);
  ck_assert_double_eq_tol(rs->rule[launch_cases[_i].rule].value, launch_cases[_i].value, 1e-9);
  run_clear(&run);
}
END_TEST

/* ---- what-if changes ---------------------------------------------------------- */

static const struct {
  const gchar *trace, *sets;
  ProfileWhatIfKind kind;
  const gchar *change; /* expected change, or NULL for none possible */
} what_if_cases[] = {
    {"fma", "launch.blocks_per_sm=2;stream.iterations=4", PROFILE_WHAT_IF_OCCUPANCY,
     "launch.blocks_per_sm=16"},
    {"fma", "launch.regs_per_thread=128;stream.live_values=8;stream.iterations=4",
     PROFILE_WHAT_IF_OCCUPANCY, "launch.max_regs=64"},
    {"fma", "launch.smem_dynamic=100000;launch.optin=true;stream.iterations=4",
     PROFILE_WHAT_IF_OCCUPANCY, "launch.smem_dynamic=57344"},
    {"fma", "stream.iterations=4", PROFILE_WHAT_IF_OCCUPANCY, NULL},
    {"fma", "stream.ilp=1;stream.fma=32;stream.iterations=8", PROFILE_WHAT_IF_ILP,
     "stream.ilp=2 stream.fma=64"},
    {"chase", "stream.iterations=4", PROFILE_WHAT_IF_ILP, "stream.ilp=2 stream.loads=2"},
};

START_TEST(test_what_if_change) {
  Run run = {0};
  run_sets(&run, what_if_cases[_i].trace, what_if_cases[_i].sets);
  ProfileMetrics pm;
  profile_metrics_compute(run.m, run.k, &run.r, &pm);
  ProfileWhatIf what_if = {0}, *wi = &what_if;
  profile_whatif_run(what_if_cases[_i].kind, &pm, run.m, run.k, NULL, wi);
  ck_assert_str_eq(wi->change ? wi->change : "(none)",
                   what_if_cases[_i].change ? what_if_cases[_i].change : "(none)");
  ck_assert_int_eq(wi->ran, what_if_cases[_i].change != NULL);
  ck_assert(wi->ran || wi->note != NULL);
  if (wi->ran && what_if_cases[_i].kind == PROFILE_WHAT_IF_OCCUPANCY)
    ck_assert(wi->occupancy_pct > wi->base_occupancy_pct);
  profile_whatif_clear(wi);
  run_clear(&run);
}
END_TEST

/* --no-whatif leaves a note and runs nothing; the JSON holds every rule. */
START_TEST(test_skip_and_json) {
  const ProfileWhatIf *ilp = profile_what_if_result(tiny_profile, PROFILE_WHAT_IF_ILP);
  ck_assert(ilp->suggested);
  profile_skip_what_if(tiny_profile);
  ck_assert(!ilp->ran);
  ck_assert_str_eq(ilp->note, "skipped (--no-whatif)");
  g_autoptr(JsonNode) node = profile_to_json(tiny_profile);
  JsonObject *o = json_node_get_object(node);
  ck_assert_uint_eq(json_array_get_length(json_object_get_array_member(o, "rules")),
                    PROFILE_RULE_MAX);
  JsonObject *ws = json_object_get_object_member(o, "warp_states");
  JsonArray *states = json_object_get_array_member(ws, "states");
  ck_assert_str_eq(json_object_get_string_member(json_array_get_object_element(states, 0), "state"),
                   "wait");
  GString *text = g_string_new(NULL);
  profile_append_text(tiny_profile, text);
  ck_assert_ptr_nonnull(strstr(text->str, "Section: Warp State Statistics"));
  ck_assert_ptr_nonnull(strstr(text->str, "cpi_stall: wait"));
  g_string_free(text, TRUE);
}
END_TEST

/* ---- the H200 checks of issue 5 -------------------------------------------- */

/* fma ILP 4 at 64 warps: issue ~100 %, not_selected dominates. */
static void check_fma_ilp4(Profile *prof, const Run *run) {
  const ProfileMetrics *p = profile_metrics(prof);
  const ProfileRules *rs = profile_rules(prof);
  ck_assert_uint_eq(run->r.warps_per_sm, 64);
  ck_assert(p->issue_slot_pct > 97);
  ck_assert_int_eq(p->state_order[0], STALL_NOT_SELECTED);
  ck_assert(p->state_pct[STALL_NOT_SELECTED] > 75);
  ck_assert_int_eq(rs->verdict, PROFILE_SOL_HIGH_THROUGHPUT);
  ck_assert(!fired(rs, PROFILE_RULE_CPI_STALL));
  ck_assert(!fired(rs, PROFILE_RULE_THEORETICAL_OCCUPANCY));
}

/* fma ILP 1: issue ~50 % with a visible dispatch_stall. */
static void check_fma_ilp1(Profile *prof, const Run *run) {
  const ProfileMetrics *p = profile_metrics(prof);
  const ProfileRules *rs = profile_rules(prof);
  (void)run;
  ck_assert(fabs(p->issue_slot_pct - 50) < 5);
  ck_assert(p->state_pct[STALL_DISPATCH_STALL] > 20);
  ck_assert(fired(rs, PROFILE_RULE_ISSUE_SLOTS));
}

/* The DRAM chase at 64 warps: long_scoreboard dominates. */
static void check_chase(Profile *prof, const Run *run) {
  const ProfileMetrics *p = profile_metrics(prof);
  const ProfileRules *rs = profile_rules(prof);
  (void)run;
  ck_assert_int_eq(p->state_order[0], STALL_LONG_SCOREBOARD);
  ck_assert(p->state_pct[STALL_LONG_SCOREBOARD] > 90);
  ck_assert(fired(rs, PROFILE_RULE_CPI_STALL));
  ck_assert_ptr_nonnull(strstr(rs->rule[PROFILE_RULE_CPI_STALL].message, "long_scoreboard"));
}

/* The textbook check: ILP 4 at 50 % theoretical occupancy is already at its
 * peak; the theoretical-occupancy rule fires, its what-if gains < 2 %. */
static void check_textbook(Profile *prof, const Run *run) {
  const ProfileMetrics *p = profile_metrics(prof);
  const ProfileRules *rs = profile_rules(prof);
  ck_assert_double_eq_tol(p->theoretical_pct, 50.0, 1e-9);
  ck_assert(fired(rs, PROFILE_RULE_THEORETICAL_OCCUPANCY));
  const ProfileWhatIf *wi = profile_what_if_result(prof, PROFILE_WHAT_IF_OCCUPANCY);
  ck_assert(wi->suggested);
  profile_what_if(prof, run->m, run->k, NULL);
  ck_assert(wi->ran);
  ck_assert_str_eq(wi->change, "launch.blocks_per_sm=16");
  ck_assert_double_eq_tol(wi->occupancy_pct, 100.0, 1e-9);
  ck_assert_msg(fabs(wi->gain_pct) < PROFILE_WHAT_IF_NOISE_PCT, "gain %g %%", wi->gain_pct);
}

static const struct {
  const gchar *trace, *sets;
  void (*check)(Profile *p, const Run *run);
} h200_cases[] = {
    {"fma", "stream.ilp=4;stream.fma=128;launch.blocks_per_sm=16", check_fma_ilp4},
    {"fma", "stream.ilp=1;stream.fma=32;launch.blocks_per_sm=4", check_fma_ilp1},
    {"fma", "stream.ilp=1;stream.fma=32;launch.blocks_per_sm=16", check_fma_ilp1},
    {"chase", "stream.iterations=32;launch.blocks_per_sm=16", check_chase},
    {"fma", "stream.ilp=4;stream.fma=128;launch.blocks_per_sm=8", check_textbook},
};

START_TEST(test_h200) {
  Run run = {0};
  run_sets(&run, h200_cases[_i].trace, h200_cases[_i].sets);
  g_autoptr(Profile) p = profile_new(run.m, run.k, &run.r);
  h200_cases[_i].check(p, &run);
  run_clear(&run);
}
END_TEST

int main(void) {
  const struct {
    const gchar *tcase;
    const TTest *test;
    int n; /* loop iterations */
  } tests[] = {
      {"accounting", test_identities, G_N_ELEMENTS(identity_cases)},
      {"accounting", test_priority_exact, G_N_ELEMENTS(exact_cases)},
      {"accounting", test_priority_lg_over_mio, 1},
      {"accounting", test_lg_sm_exact, 1},
      {"accounting", test_top_cause_skips_issue, 1},
      {"accounting", test_lsb_causes_exact, 1},
      {"accounting", test_priority_pipe_not_selected, 1},
      {"accounting", test_priority_dispatch, 1},
      {"accounting", test_priority_mio, 1},
      {"rules", test_sol_verdict, G_N_ELEMENTS(sol_cases)},
      {"thresholds", test_rule_sol_suggests, 1},
      {"thresholds", test_rule_occupancy, 1},
      {"thresholds", test_rule_issue_and_cpi, 1},
      {"thresholds", test_rule_lg_causes, 1},
      {"thresholds", test_rule_lsb_data, 1},
      {"thresholds", test_skip_and_json, 1},
      {"rules", test_rule_launch, G_N_ELEMENTS(launch_cases)},
      {"rules", test_what_if_change, G_N_ELEMENTS(what_if_cases)},
      {"h200", test_h200, G_N_ELEMENTS(h200_cases)},
  };
  Suite *s = suite_create("profile");
  TCase *tc = NULL;
  for (guint i = 0; i < G_N_ELEMENTS(tests); i++) {
    if (tc == NULL || strcmp(tests[i].tcase, tests[i - 1].tcase) != 0) {
      tc = tcase_create(tests[i].tcase);
      tcase_set_timeout(tc, 60);
      if (strcmp(tests[i].tcase, "thresholds") == 0)
        tcase_add_checked_fixture(tc, tiny_setup, tiny_teardown);
      suite_add_tcase(s, tc);
    }
    tcase_add_loop_test(tc, tests[i].test, 0, tests[i].n);
  }
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
