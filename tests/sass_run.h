/* sass_run.h - SASS listings run on the test SM (fixture.h), for the exact
 * timing tests of the core (check_sm.c, check_sm_memory.c, check_cta.c).
 *
 * A listing is a string literal in the cuobjdump layout sim/sass/sass.c
 * reads: a line per instruction and a line with its control word, whose bits
 * 41..61 are (sass.h) stall count (41..44), yield (45), write scoreboard
 * barrier (46..48, 7 = none), read barrier (49..51, 7 = none) and wait mask
 * (52..57).  SASS_INS writes one instruction; the control words are written
 * out in hex by hand, each decoded in a comment beside its listing.  The
 * instruction word is left 0: the model reads only the text and the control
 * word.
 *
 * The SM is the fixture's plus one opcode class per group the listings use,
 * with the fixture's round latencies: FP32 (FFMA, FADD, IMAD) 4 cycles,
 * interval 1; integer 4, interval 2; MUFU 16, interval 8; shared memory
 * (LDS, STS, LDSM; read after 1 cycle); global (registers read 2 cycles after issue, no
 * per-warp cap, stores hold their lines until written, a stored byte costs
 * as a read, no turnaround, no L1 wavefronts); control; special.  The
 * barrier unit takes an arrival every 2 cycles and releases 6 cycles after
 * the last; one channel per memory level (so the order of accesses, not a
 * random channel, decides the queueing), no latency spread.  The run is one
 * SM (sm.h) with the hit rates, miss slots and warps each test sets.
 */
#ifndef WARPSIM_TEST_SASS_RUN_H
#define WARPSIM_TEST_SASS_RUN_H

#include "core/sm.h"
#include "fixture.h"
#include "input/model.h"
#include "sass/sassprog.h"

#include <check.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#define SASS_HEADER "\n\tcode for sm_90\n\t\tFunction : _Z4testv\n"
/* One instruction at offset OFF (4 hex digits) with control word CTRL. */
#define SASS_INS(off, text, ctrl)                                                                  \
  "        /*" off "*/ " text " ; /* 0x0000000000000000 */\n"                                      \
  "                              /* " ctrl " */\n"

#define SASS_TEST_MODEL                                                                            \
  FIXTURE_SM_MODEL                                                                                 \
  "[barrier]\nlatency=6\ninterval=2\n"                                                             \
  "[class_fp32]\nopcodes=FFMA;FADD;IMAD\nlatency=4\ninterval=1\n"                                  \
  "[class_int]\nopcodes=IADD3;ISETP;MOV;LOP3\nlatency=4\ninterval=2\n"                             \
  "[class_mufu]\nopcodes=MUFU\nlatency=16\ninterval=8\n"                                           \
  "[class_shared]\nopcodes=LDS;STS;LDSM\nlatency=29\ninterval=1\n"                                 \
  "[class_global]\nopcodes=LDG;STG\nlatency=49\ninterval=1\nread_latency=2\n"                      \
  "lines_in_flight=512\nstores_hold_lines=true\ndram_write_cost=1\n"                               \
  "[class_control]\nopcodes=BRA;EXIT;BAR\nlatency=1\ninterval=1\n"                                 \
  "[class_special]\nopcodes=S2R;ULDC\nlatency=1\ninterval=1\n"

/* The one-channel memory levels (overrides of SASS_TEST_MODEL). */
#define SASS_ONE_CHANNEL "l2.channels=1", "dram.channels=1"

/* One run: the model, the listing's program and the SM's counters. */
typedef struct {
  SmModel *m;
  SassKernel *sk;
  Program *p;
  SimStats st;
} SassRun;

/* What a test sets of the launch; the rest is as sim.c would plan it. */
typedef struct {
  guint warps;         /* warps per CTA (32 threads each); 0 = 1 */
  guint ctas;          /* CTAs, all resident at once; 0 = 1 */
  guint blocks;        /* CTAs run in all (waves of `ctas`); 0 = ctas */
  guint threads;       /* threads per CTA; 0 = 32 x warps */
  guint early_exit;    /* warps per CTA that start at EXIT */
  gdouble l1_hit;      /* global loads: L1 hit probability */
  gdouble l2_hit;      /* of those missing L1: L2 hit probability */
  gdouble l2_far;      /* of a scattered load's L2 hits: the far partition's share */
  gdouble dram_scale;  /* DRAM's counted bytes per byte of a scattered DRAM load; 0 = 1 */
  gboolean spill_miss; /* every local access (LDL, STL) misses L1; FALSE: every one hits */
  guint trips;         /* [sass] trip_count (one for every loop); 0 = none */
  const gchar *sets;   /* more model overrides, ';'-separated; NULL = none */
  const gchar *model;  /* another model file (path); NULL = SASS_TEST_MODEL */
  const gchar *source; /* a source-page profile (CSV text); NULL = none */
} SassSetup;

static void sassrun_clear(SassRun *r) {
  g_clear_pointer(&r->p, program_free);
  g_clear_pointer(&r->sk, sass_kernel_free);
  g_clear_pointer(&r->m, model_free);
}

/* `text` in a new temporary file named *.SUFFIX; returns its path. */
static gchar *sassrun_file(const gchar *text, const gchar *suffix) {
  g_autofree gchar *name = g_strdup_printf("sass_run_XXXXXX.%s", suffix);
  gchar *path = g_build_filename(g_get_tmp_dir(), name, NULL);
  gint fd = g_mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  ck_assert(g_file_set_contents(path, text, -1, NULL));
  return path;
}

/* Load the model and the program of `listing` (and the profile, each
 * written to a temporary file: sass_kernel_load reads paths). */
static void sassrun_load(SassRun *r, const gchar *listing, const SassSetup *s) {
  GError *err = NULL;
  g_auto(GStrv) sets = g_strsplit(s->sets ? s->sets : "", ";", -1);
  GStrvBuilder *b = g_strv_builder_new();
  g_strv_builder_add_many(b, SASS_ONE_CHANNEL, NULL);
  for (guint i = 0; sets[i] != NULL; i++)
    if (*sets[i])
      g_strv_builder_add(b, sets[i]);
  g_auto(GStrv) all = g_strv_builder_end(b);
  g_strv_builder_unref(b);
  r->m = s->model
             ? model_load(s->model, (const gchar *const *)all, &err)
             : model_load_data(SASS_TEST_MODEL, "sass_test.ini", (const gchar *const *)all, &err);
  ck_assert_msg(r->m != NULL, "model: %s", err ? err->message : "?");
  g_autofree gchar *path = sassrun_file(listing, "sass");
  g_autofree gchar *source = s->source ? sassrun_file(s->source, "csv") : NULL;
  r->sk = sass_kernel_load(path, "_Z4testv", source, NULL, &s->trips, s->trips ? 1 : 0, &err);
  g_unlink(path);
  if (source != NULL)
    g_unlink(source);
  ck_assert_msg(r->sk != NULL, "listing: %s", err ? err->message : "?");
  r->p = sass_program_new(r->sk, r->m, NULL, &err);
  ck_assert_msg(r->p != NULL, "program: %s", err ? err->message : "?");
}

/* Run the loaded program on one SM with invariant checks on. */
static void sassrun_simulate(SassRun *r, const SassSetup *s) {
  const OpClassModel *g = &r->m->opclass[OPCLASS_GLOBAL];
  guint warps = s->warps ? s->warps : 1, ctas = s->ctas ? s->ctas : 1;
  SmLaunch l = {.model = r->m,
                .program = r->p,
                .policy = sched_lookup(r->m->policy),
                .threads_per_block = s->threads ? s->threads : 32 * warps,
                .warps_per_block = warps,
                .cta_slots = ctas,
                .blocks = s->blocks ? s->blocks : ctas,
                .early_exit = s->early_exit,
                .spill_l1_hit = s->spill_miss ? 0.0 : 1.0,
                .mem = {.load_l1_hit = s->l1_hit,
                        .load_l2_hit = s->l2_hit,
                        .load_l2_hit_coalesced = s->l2_hit,
                        .load_l2_hit_scattered = s->l2_hit,
                        .load_l2_far_scattered = s->l2_far,
                        .bulk_l2_hit = s->l2_hit,
                        .max_inflight = g->lines_in_flight,
                        .warp_max_inflight = g->warp_lines_in_flight,
                        .dram_write_cost = g->write_cost,
                        .dram_turnaround = g->dram_turnaround,
                        .l1_cycle_per_line = g->l1_cycle_per_line,
                        .scattered_dram_bytes = g->scattered_dram_bytes,
                        .scattered_dram_scale = s->dram_scale,
                        .stores_hold_lines = g->stores_hold_lines,
                        .store_streams = {g->store_streams[0], g->store_streams[1],
                                          g->store_streams[2], g->store_streams[3]}},
                .seed = 1};
  GError *err = NULL;
  g_autoptr(Sm) sm = sm_new(&l, &err);
  ck_assert_msg(sm != NULL, "%s", err ? err->message : "?");
  ck_assert_msg(sm_run(sm, TRUE, &r->st, &err), "%s", err ? err->message : "?");
}

/* Load and run. */
static void sassrun_run(SassRun *r, const gchar *listing, const SassSetup *s) {
  sassrun_load(r, listing, s);
  sassrun_simulate(r, s);
}

/* One exact case: a listing, its launch, and the cycles of the run and the
 * warp-cycles of every state (an unnamed state: 0) worked out by hand; then
 * the case's own checks (may be NULL). */
typedef struct {
  const gchar *name;
  const gchar *listing;
  SassSetup setup;
  SimCycle cycles;
  guint64 states[STALL_MAX];
  void (*extra)(const SassRun *r);
} SassCase;

static void sassrun_case(const SassCase *c) {
  SassRun r = {0};
  sassrun_run(&r, c->listing, &c->setup);
  ck_assert_msg(r.st.cycles == c->cycles,
                "%s: %" G_GUINT64_FORMAT " cycles, expected %" G_GUINT64_FORMAT, c->name,
                r.st.cycles, c->cycles);
  for (guint s = 0; s < STALL_MAX; s++)
    ck_assert_msg(r.st.state[s] == c->states[s],
                  "%s: %s: %" G_GUINT64_FORMAT " warp-cycles, expected %" G_GUINT64_FORMAT, c->name,
                  stall_name((StallState)s), r.st.state[s], c->states[s]);
  if (c->extra != NULL)
    c->extra(&r);
  sassrun_clear(&r);
}

#endif
