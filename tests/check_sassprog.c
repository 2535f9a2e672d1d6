/* check_sassprog.c - tests of sim/sass/sassprog.[ch]: one warp walking each real
 * kernel's program (results/reference/h200/real, and mv and spmv of real2 and
 * real4, and divg of real5, through WARPSIM_ROOT) with
 * its Bresenham branch counters reproduces the profile's per-instruction
 * execution counts (BSYNC aside); a branch falls through `fall` times in every `trips`,
 * taken first; without a profile a loop runs trip_count times and a missing
 * trip_count is an error naming the line; every instruction gets the control
 * bits of its listing; the cache-capacity model gives the profiled hit rate
 * at the profiled occupancy and never rises with more warps. */
#include "core/warp.h"
#include "input/model.h"
#include "sass/sassflow.h"
#include "sass/sassmem.h"
#include "sass/sassprog.h"

#include <check.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

/* name, function, measurement set, listing, details export.  mv and spmv
 * (held out) hold BRA.DIV, a branch on the warp's divergence that the
 * profile shows never taken; divg diverges in an if/else whose both sides
 * every warp runs. */
static const gchar *const kernels[][5] = {
    {"saxpy", "k_saxpy", "real", "saxpy.sass", "details_full_b8.csv"},
    {"softmax", "k_softmax", "real", "softmax.sass", "details_full_b8.csv"},
    {"sgemm", "k_sgemm", "real", "sgemm.sass", "details_full_b8.csv"},
    {"stencil", "k_stencil", "real", "stencil.sass", "details_full_b8.csv"},
    {"gather", "k_gather", "real", "gather.sass", "details_full_b8.csv"},
    {"transpose", "k_transpose<0>", "real", "transpose.sass", "details_full_b8.csv"},
    {"mv", "k_mv(", "real2", "kernels2.sass", "details2_b8.csv"},
    {"spmv", "k_spmv(", "real4", "kernels4.sass", "details4_b8.csv"},
    {"divg", "k_divg(", "real5", "kernels5.sass", "details5_b8.csv"},
    {"treduce", "k_treduce(", "real6", "kernels6.sass", "details6_b8.csv"},
    {"scan", "k_scan(", "real6", "kernels6.sass", "details6_b8.csv"},
    {"bounds", "k_bounds(", "real6", "kernels6.sass", "details6_b8.csv"},
};

static gchar *ref_in(const gchar *set, const gchar *dir, const gchar *file) {
  const gchar *root = g_getenv("WARPSIM_ROOT");
  ck_assert_msg(root != NULL, "WARPSIM_ROOT not set (run under CTest)");
  return g_build_filename(root, "results", "reference", "h200", set, dir, file, NULL);
}

static gchar *ref(const gchar *dir, const gchar *file) {
  return ref_in("real", dir, file);
}

static SmModel *h200(void) {
  g_autofree gchar *path = g_build_filename(g_getenv("WARPSIM_ROOT"), "models", "h200.ini", NULL);
  GError *err = NULL;
  SmModel *m = model_load(path, NULL, &err);
  ck_assert_msg(m != NULL, "%s", err ? err->message : "?");
  return m;
}

/* Kernel `function` of results/reference/h200/SET/sass/LISTING with its
 * source page and details export (SET/ncu/SOURCE, SET/ncu/DETAILS), loaded
 * or the test fails. */
static SassKernel *load_profiled(const gchar *set, const gchar *listing, const gchar *function,
                                 const gchar *source, const gchar *details) {
  g_autofree gchar *l = ref_in(set, "sass", listing);
  g_autofree gchar *s = ref_in(set, "ncu", source);
  g_autofree gchar *d = ref_in(set, "ncu", details);
  GError *err = NULL;
  SassKernel *sk = sass_kernel_load(l, function, s, d, NULL, 0, &err);
  ck_assert_msg(sk != NULL, "%s: %s", function, err ? err->message : "?");
  return sk;
}

/* sk's program on model m, built or the test fails. */
static Program *program_of(const SassKernel *sk, const SmModel *m) {
  GError *err = NULL;
  Program *p = sass_program_new(sk, m, NULL, &err);
  ck_assert_msg(p != NULL, "%s", err ? err->message : "?");
  return p;
}

static SassKernel *load(guint i, gboolean profile, guint trips, GError **err) {
  g_autofree gchar *src = g_strdup_printf("%s_source_b8.csv", kernels[i][0]);
  g_autofree gchar *listing = ref_in(kernels[i][2], "sass", kernels[i][3]);
  g_autofree gchar *source = ref_in(kernels[i][2], "ncu", src);
  g_autofree gchar *details = ref_in(kernels[i][2], "ncu", kernels[i][4]);
  return sass_kernel_load(listing, kernels[i][1], profile ? source : NULL, profile ? details : NULL,
                          &trips, trips ? 1 : 0, err);
}

/* Walk one warp from entry to EXIT; count executions per pc. */
static guint64 *walk(const Program *p, guint64 limit) {
  guint64 *count = g_new0(guint64, p->n);
  guint32 counters[PROGRAM_MAX_COUNTERS];
  memcpy(counters, p->counter_init, sizeof counters);
  guint pc = p->entry;
  for (guint64 steps = 0; steps < limit; steps++) {
    count[pc]++;
    if (p->code[pc].op == OP_EXIT)
      break;
    pc = program_next_pc(&p->code[pc], pc, counters);
  }
  return count;
}

/* Every instruction's count, per warp, within 2 % (or 1 execution) of the
 * profile's count over the launch divided by its warps. */
START_TEST(test_counts_reproduced) {
  g_autoptr(SmModel) m = h200();
  GError *err = NULL;
  g_autoptr(SassKernel) sk = load((guint)_i, TRUE, 0, &err);
  ck_assert_msg(sk != NULL, "%s", err ? err->message : "?");
  g_autoptr(Program) p = sass_program_new(sk, m, NULL, &err);
  ck_assert_msg(p != NULL, "%s", err ? err->message : "?");
  ck_assert_double_eq(sk->warps, 4224); /* 1056 CTAs x 4 warps */
  g_autofree guint64 *count = walk(p, 100000000);
  ck_assert_uint_eq(count[p->exit_pc] + count[p->n - 1] > 0, 1);
  for (guint i = 0; i < sk->fn->n; i++) {
    /* Nsight Compute counts a BSYNC more often than control reaches it
     * (stencil: 20 per warp after 16 arrivals, where threads reconverge);
     * the walk counts arrivals. */
    if (strcmp(sk->fn->ins[i].opcode, "BSYNC") == 0)
      continue;
    gdouble want = (gdouble)sk->source->ins[i].executed / sk->warps;
    gdouble got = (gdouble)count[i];
    ck_assert_msg(fabs(got - want) <= MAX(1.0, 0.02 * want),
                  "%s 0x%04x %s: walked %.0f times, profile %.2f per warp", kernels[_i][0],
                  sk->fn->ins[i].offset, sk->fn->ins[i].text, got, want);
  }
  /* Control bits as the listing encodes them. */
  for (guint i = 0; i < sk->fn->n; i++) {
    ck_assert_uint_eq(p->code[i].stall, sk->fn->ins[i].ctrl.stall);
    ck_assert_uint_eq(p->code[i].wait_mask, sk->fn->ins[i].ctrl.wait_mask);
    guint8 wb = sk->fn->ins[i].ctrl.write_sb;
    ck_assert_uint_eq(p->code[i].sb_write, wb < SASS_BARRIERS ? wb : INSTR_NO_SB);
  }
}
END_TEST

/* A loop whose warps split (real11's cas: an atomicCAS retry loop with
 * YIELD inside the loop over 32 elements).  The outer back edge '@!P1 BRA'
 * (0x220) ran 247,896 times and fell into WARPSYNC.ALL 19,356 times: 4.58
 * exits for each of the 4,224 warps that entered (the IMAD.WIDE before the
 * head, 0x80, 4,224 times).  By the exit count a warp would leave after
 * 1 / (1 - 228,540 / 247,896) = 12.8 trips; the head (0x90) ran 247,165
 * times, 58.51 per warp.  split_loops (sassflow.c): taken = 247,896 x (1 -
 * 4,224 / 247,165) = 243,659.5, so a warp walks the head 58.51 times and the
 * CAS (0x1d0, 423,785) 100.33 times per warp, within 2 %. */
START_TEST(test_split_loop) {
  g_autoptr(SmModel) m = h200();
  GError *err = NULL;
  g_autoptr(SassKernel) sk =
      load_profiled("real11", "kernels11.sass", "k_cas(", "cas_source_b8.csv", "details11_b8.csv");
  g_autofree gdouble *taken = sassflow_taken_counts(sk);
  ck_assert_uint_eq(sk->fn->ins[34].offset, 0x220);
  ck_assert_double_eq_tol(taken[34], 243659.5, 0.5);
  g_autoptr(Program) p = sass_program_new(sk, m, NULL, &err);
  ck_assert_msg(p != NULL, "%s", err ? err->message : "?");
  g_autofree guint64 *count = walk(p, 100000000);
  ck_assert_uint_eq(sk->fn->ins[9].offset, 0x90);
  ck_assert_uint_eq(sk->fn->ins[29].offset, 0x1d0);
  ck_assert_msg(fabs((gdouble)count[9] - 58.51) <= 0.02 * 58.51, "head walked %" G_GUINT64_FORMAT,
                count[9]);
  ck_assert_msg(fabs((gdouble)count[29] - 100.33) <= 0.02 * 100.33, "CAS walked %" G_GUINT64_FORMAT,
                count[29]);
}
END_TEST

/* Bresenham terms: fall = 3, trips = 4 falls through 3 times in every 4,
 * taken first (T F F F); fall = 1, trips = 8 is an 8-trip loop. */
START_TEST(test_bresenham) {
  Instr in = {.has_branch = 1, .target = 0, .fall = 3, .trips = 4, .counter = 0};
  guint32 c[PROGRAM_MAX_COUNTERS] = {0};
  const guint want[] = {0, 6, 6, 6, 0, 6, 6, 6};
  for (guint k = 0; k < G_N_ELEMENTS(want); k++)
    ck_assert_uint_eq(program_next_pc(&in, 5, c), want[k]);
  Instr loop = {.has_branch = 1, .target = 2, .fall = 1, .trips = 8, .counter = 1};
  guint taken = 0;
  for (guint k = 0; k < 16; k++)
    taken += program_next_pc(&loop, 9, c) == 2;
  ck_assert_uint_eq(taken, 14);
}
END_TEST

/* Without a profile: saxpy's loops need trip_count; with it, each backward
 * branch is taken trip_count - 1 times per loop entry. */
START_TEST(test_trip_count) {
  g_autoptr(SmModel) m = h200();
  GError *err = NULL;
  g_autoptr(SassKernel) none = load(0, FALSE, 0, &err);
  ck_assert(none != NULL);
  ck_assert(sass_program_new(none, m, NULL, &err) == NULL);
  ck_assert_msg(strstr(err->message, "saxpy.sass:") && strstr(err->message, "trip_count"), "%s",
                err->message);
  g_clear_error(&err);
  g_autoptr(SassKernel) sk = load(0, FALSE, 5, &err);
  g_autoptr(Program) p = sass_program_new(sk, m, NULL, &err);
  ck_assert_msg(p != NULL, "%s", err ? err->message : "?");
  for (guint i = 0; i < p->n; i++) {
    const Instr *in = &p->code[i];
    if (in->has_branch && in->fall > 0 && in->target <= i) {
      ck_assert_uint_eq(in->fall, 1);
      ck_assert_uint_eq(in->trips, 5);
    } else if (in->has_branch && in->fall > 0) {
      ck_assert_uint_eq(in->fall, in->trips); /* forward: never taken */
    }
  }
}
END_TEST

/* saxpy without a profile, from `text` (its listing, edited), with `n`
 * trip counts; NULL with *err when loading or building fails. */
static Program *saxpy_trips(const gchar *text, const guint *trips, guint n, GError **err) {
  g_autoptr(SmModel) m = h200();
  g_autofree gchar *path = g_build_filename(g_get_tmp_dir(), "check_sassprog_XXXXXX.sass", NULL);
  gint fd = g_mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  ck_assert(g_file_set_contents(path, text, -1, NULL));
  g_autoptr(SassKernel) sk = sass_kernel_load(path, "k_saxpy", NULL, NULL, trips, n, err);
  g_unlink(path);
  return sk ? sass_program_new(sk, m, NULL, err) : NULL;
}

/* One trip count per loop in address order (saxpy: its remainder loop, back
 * edge at 0x310, then its main loop, 0x550); a count list of another length
 * is refused naming the back edges' lines; a loop that always branches back
 * leaves at its first branch out after its trips (falling through first),
 * and one with no branch out is refused. */
START_TEST(test_trip_counts_per_loop) {
  g_autofree gchar *listing = ref("sass", "saxpy.sass");
  g_autofree gchar *text = NULL;
  ck_assert(g_file_get_contents(listing, &text, NULL, NULL));
  GError *err = NULL;
  const guint two[] = {3, 6}, three[] = {3, 6, 9};
  g_autoptr(Program) p = saxpy_trips(text, two, 2, &err);
  ck_assert_msg(p != NULL, "%s", err ? err->message : "?");
  g_autofree guint64 *c = walk(p, 1000000);
  ck_assert_uint_eq(c[0x310 / 16], 3);
  ck_assert_uint_eq(c[0x550 / 16], 6);
  g_autoptr(Program) one = saxpy_trips(text, two, 1, &err);
  g_autofree guint64 *c1 = walk(one, 1000000);
  ck_assert_uint_eq(c1[0x310 / 16], 3);
  ck_assert_uint_eq(c1[0x550 / 16], 3);
  ck_assert(saxpy_trips(text, three, 3, &err) == NULL);
  ck_assert_msg(strstr(err->message, ".sass: [sass] trip_count gives 3 counts") &&
                    strstr(err->message, "has 2 loops (back edges at lines 112, 184)"),
                "%s", err->message);
  g_clear_error(&err);
  /* The main loop's back edge made unconditional, an exit at 0x4b0. */
  g_autofree gchar *always = g_strdup(text);
  gchar *back = strstr(always, "@!P0 BRA 0x3d0 ;"),
        *iadd = strstr(always, "IADD3 R17, P1, R17, 0x800, RZ ;");
  ck_assert(back != NULL && iadd != NULL);
  memcpy(back, "     BRA 0x3d0 ;", 16);
  memcpy(iadd, "@P0 BRA 0x560 ;                ", 31);
  g_autoptr(Program) pa = saxpy_trips(always, two, 2, &err);
  ck_assert_msg(pa != NULL, "%s", err ? err->message : "?");
  g_autofree guint64 *ca = walk(pa, 1000000);
  ck_assert_uint_eq(ca[0x4a0 / 16], 6);
  ck_assert_uint_eq(ca[0x4c0 / 16], 5);
  ck_assert_uint_eq(ca[0x560 / 16], 1);
  /* No branch out of it: it would never end. */
  memcpy(iadd, "IADD3 R17, P1, R17, 0x800, RZ ;", 31);
  ck_assert(saxpy_trips(always, two, 2, &err) == NULL);
  ck_assert_msg(strstr(err->message, ":184: loop branch 'BRA 0x3d0' always branches back") &&
                    strstr(err->message, "never ends"),
                "%s", err->message);
  g_clear_error(&err);
}
END_TEST

/* The capacity model: at the profiled occupancy (32 warps, 8 CTAs of
 * 28160 + 1024 B carveout-filling shared memory) the profiled rates come
 * back; with more warps they never rise; sgemm's L2 rate (shared tiles)
 * stays as profiled at every occupancy. */
START_TEST(test_hit_rates) {
  g_autoptr(SmModel) m = h200();
  GError *err = NULL;
  g_autoptr(SassKernel) st = load(3, TRUE, 0, &err);
  ck_assert(st != NULL);
  gdouble smem = 233472, l1, l2, prev1 = 2, prev2 = 2;
  sassmem_hit_rates(st, m, 32, smem, &l1, &l2);
  ck_assert_double_eq_tol(l1, st->load_l1_hit, 1e-9);
  ck_assert_double_eq_tol(l2, st->load_l2_hit, 1e-9);
  for (guint w = 4; w <= 48; w += 4) {
    sassmem_hit_rates(st, m, w, smem, &l1, &l2);
    ck_assert(l1 <= prev1 + 1e-12 && l2 <= prev2 + 1e-12);
    ck_assert(l1 >= 0 && l1 <= 1 && l2 >= 0 && l2 <= 1);
    prev1 = l1;
    prev2 = l2;
  }
  g_autoptr(SassKernel) sg = load(2, TRUE, 0, &err);
  for (guint w = 4; w <= 36; w += 4) {
    sassmem_hit_rates(sg, m, w, smem, &l1, &l2);
    ck_assert_double_eq_tol(l2, sg->load_l2_hit, 1e-9);
  }
  ck_assert_double_eq_tol(model_capacity_share(1000, 4, 500), 0.5, 1e-12);
  ck_assert_double_eq_tol(model_capacity_share(1000, 1, 500), 1.0, 1e-12);
  ck_assert_double_eq_tol(model_capacity_share(1000, 4, 0), 1.0, 1e-12);
}
END_TEST

/* A profile whose shared memory left L1 no room (its carveout >= [l1]
 * bytes: a details export of a larger shared-memory configuration, or a
 * smaller --set l1.bytes) and no L1 hits: nothing to scale, the rate stays
 * 0 at every occupancy (it was 0 x share / 0, NaN, printed as -nan in the
 * load_l1_hit column); with hits, as profiled. */
START_TEST(test_hit_rates_no_room) {
  g_autoptr(SmModel) m = h200();
  SassKernel sk = {.load_l1_hit = 0.0,
                   .load_l2_hit = 0.5,
                   .prof_warps = 32,
                   .est_l1 = 4096,
                   .est_l2 = 4096,
                   .reuse_l1 = 0.5};
  sk.prof_smem = m->l1_bytes;
  gdouble l1, l2;
  for (guint w = 4; w <= 64; w += 20) {
    sassmem_hit_rates(&sk, m, w, 0, &l1, &l2);
    ck_assert_msg(l1 == 0.0, "%u warps: L1 hit %g, want 0", w, l1);
  }
  sk.load_l1_hit = 0.25;
  sassmem_hit_rates(&sk, m, 16, 0, &l1, &l2);
  ck_assert_double_eq_tol(l1, 0.25, 1e-12);
}
END_TEST

/* The L1 thrash ramp of models/h200.ini ([l1] thrash_start 0.76,
 * thrash_width 0.54, thrash_max_bytes 28672), hand-worked: C = 28672 B (the
 * maximum carveout), F = 1 KiB: 16 warps x = 0.5714, 1; 24 warps x = 0.8571,
 * (1.30 - 0.8571) / 0.54 = 0.820106; 32 warps x = 1.142857, 0.157143 / 0.54 =
 * 0.291005; 40 warps x = 1.4286, 0.  C = 229376 B (the 32 KB configuration)
 * is above thrash_max_bytes: the smooth share, 229376 / (64 x 8192) =
 * 0.4375.  No footprint: 1; no capacity: 0.  thrash_width 0: the smooth
 * share 28672 / 32768 = 0.875.  A SASS kernel profiled at 16 warps with
 * 20 % L1 hits and F = 1 KiB (share 1 there) has 0.2 x 0.291005 = 0.058201
 * at 32 warps with thrash_sass, 0.2 x 0.875 = 0.175 without. */
START_TEST(test_l1_share) {
  g_autoptr(SmModel) m = h200();
  ck_assert_double_eq_tol(model_l1_share(m, 28672, 16, 1024), 1.0, 1e-12);
  ck_assert_double_eq_tol(model_l1_share(m, 28672, 24, 1024), 0.820106, 1e-6);
  ck_assert_double_eq_tol(model_l1_share(m, 28672, 32, 1024), 0.291005, 1e-6);
  ck_assert_double_eq_tol(model_l1_share(m, 28672, 40, 1024), 0.0, 1e-12);
  ck_assert_double_eq_tol(model_l1_share(m, 229376, 64, 8192), 0.4375, 1e-12);
  ck_assert_double_eq_tol(model_l1_share(m, 28672, 32, 0), 1.0, 1e-12);
  ck_assert_double_eq_tol(model_l1_share(m, 0, 32, 1024), 0.0, 1e-12);
  SassKernel sk = {.load_l1_hit = 0.2,
                   .load_l2_hit = 0.5,
                   .prof_warps = 16,
                   .prof_smem = 233472,
                   .est_l1 = 1024,
                   .est_l2 = 1024,
                   .reuse_l1 = 0.5};
  gdouble l1, l2;
  ck_assert(!m->l1_thrash_sass);
  sassmem_hit_rates(&sk, m, 32, 233472, &l1, &l2);
  ck_assert_double_eq_tol(l1, 0.175, 1e-9);
  m->l1_thrash_sass = TRUE;
  sassmem_hit_rates(&sk, m, 32, 233472, &l1, &l2);
  ck_assert_double_eq_tol(l1, 0.058201, 1e-6);
  m->l1_thrash_width = 0;
  ck_assert_double_eq_tol(model_l1_share(m, 28672, 32, 1024), 0.875, 1e-12);
}
END_TEST

/* Misaligned contiguous accesses (sectors per request above the ideal) pay
 * the measured partial-sector DRAM time per part-used sector, at most 2 per
 * request, unless a CTA barrier in their loop keeps the warps in lockstep:
 * stencil's 5.19-sector stores and loads pay 2 sectors' worth, its aligned
 * loads (4.00 sectors: none here) and saxpy's 4-sector accesses nothing, and
 * blur's 5-sector stores nothing (BAR.SYNC in the loop). */
/* sassmem_l2_split, hand-worked: 3 coalesced and 1 scattered load
 * sectors.  h = 0.5: 2 sectors miss, all coalesced: 1 - 2/3 and 1.  h = 0.1:
 * 3.6 miss, the 3 coalesced and 0.6 scattered: 0 and 0.4.  Either kind
 * alone: both h. */
START_TEST(test_l2_split) {
  SassKernel sk = {.l2_coalesced = 3.0, .l2_scattered = 1.0};
  gdouble c, r;
  sassmem_l2_split(&sk, 0.5, &c, &r);
  ck_assert_double_eq_tol(c, 1.0 / 3.0, 1e-12);
  ck_assert_double_eq_tol(r, 1.0, 1e-12);
  sassmem_l2_split(&sk, 0.1, &c, &r);
  ck_assert_double_eq_tol(c, 0.0, 1e-12);
  ck_assert_double_eq_tol(r, 0.4, 1e-12);
  sk.l2_scattered = 0.0;
  sassmem_l2_split(&sk, 0.7, &c, &r);
  ck_assert_double_eq_tol(c, 0.7, 1e-12);
  ck_assert_double_eq_tol(r, 0.7, 1e-12);
}
END_TEST

/* sassmem_l2_far, hand-worked: 5 % of the scattered sectors that miss L1
 * came from the far partition; at a scattered L2 hit rate of 0.5 a tenth of
 * the hits are far (0.05 / 0.5), at 0.04 all of them (0.05 / 0.04 > 1: 1);
 * no hits or no far share: 0. */
START_TEST(test_l2_far) {
  SassKernel sk = {.l2_far = 0.05};
  ck_assert_double_eq_tol(sassmem_l2_far(&sk, 0.5), 0.1, 1e-12);
  ck_assert_double_eq_tol(sassmem_l2_far(&sk, 0.04), 1.0, 1e-12);
  ck_assert_double_eq_tol(sassmem_l2_far(&sk, 0.0), 0.0, 1e-12);
  sk.l2_far = 0.0;
  ck_assert_double_eq_tol(sassmem_l2_far(&sk, 0.5), 0.0, 1e-12);
}
END_TEST

/* sassmem_l2_reuse, hand-worked: 1 MB per CTA, reuse in whole up to 40
 * MB, none from 60 MB: 40 CTAs 1, 50 CTAs 0.5, 55 CTAs 0.25, 60 and 70 CTAs
 * 0.  With neither key, a step at [l2] bytes (50 MB): 50 CTAs 1, 51 CTAs 0.
 * No bytes from the profile: 0. */
START_TEST(test_l2_reuse) {
  SassKernel sk = {.cta_l2_bytes = 1e6};
  SmModel m = {
      .l2_bytes = 50000000, .l2_reuse_full_bytes = 40000000, .l2_reuse_none_bytes = 60000000};
  const guint grid[] = {40, 50, 55, 60, 70};
  const gdouble want[] = {1.0, 0.5, 0.25, 0.0, 0.0};
  for (guint i = 0; i < G_N_ELEMENTS(grid); i++)
    ck_assert_double_eq_tol(sassmem_l2_reuse(&sk, &m, grid[i]), want[i], 1e-12);
  m.l2_reuse_full_bytes = m.l2_reuse_none_bytes = 0;
  ck_assert_double_eq_tol(sassmem_l2_reuse(&sk, &m, 50), 1.0, 1e-12);
  ck_assert_double_eq_tol(sassmem_l2_reuse(&sk, &m, 51), 0.0, 1e-12);
  sk.cta_l2_bytes = 0;
  ck_assert_double_eq_tol(sassmem_l2_reuse(&sk, &m, 1), 0.0, 1e-12);
}
END_TEST

/* sassmem_store_dram, hand-worked: 1 MB stored per CTA, full 20 MB, none
 * 40 MB (more lines) and 100 MB (one line), residue 25 MB.  Warm, 30 CTAs
 * (F = 30 MB): (30 - 20) / (40 - 20) = 0.5 and (30 - 20) / (100 - 20) =
 * 0.125; 20 CTAs: 0 and 0; 50 CTAs: 1 and 0.375.  Loads' misses of 2 MB a
 * CTA make F 2 MB a CTA: 15 CTAs (30 MB) 0.5.  Cold, 50 CTAs: 1 - 25 / 50
 * = 0.5; 25 CTAs: 0.  store_footprint 0.5 MB a CTA (overrides the profile's
 * 1 MB): warm, 60 CTAs (30 MB) 0.5.  With store_full_bytes 0, or no bytes
 * stored known: 1 (every store to DRAM). */
START_TEST(test_store_dram) {
  SassKernel sk = {.cta_store_bytes = 1e6};
  SmModel m = {.l2_store_full_bytes = 20000000,
               .l2_store_none_bytes = 40000000,
               .l2_store_none_line_bytes = 100000000,
               .l2_store_residue_bytes = 25000000};
  gdouble d[2];
  const guint grid[] = {20, 30, 50};
  const gdouble line[] = {0.0, 0.125, 0.375}, lines[] = {0.0, 0.5, 1.0};
  for (guint i = 0; i < G_N_ELEMENTS(grid); i++) {
    sassmem_store_dram(&sk, &m, grid[i], TRUE, d);
    ck_assert_double_eq_tol(d[0], line[i], 1e-12);
    ck_assert_double_eq_tol(d[1], lines[i], 1e-12);
  }
  sk.cta_l2_bytes = 2e6;
  sassmem_store_dram(&sk, &m, 15, TRUE, d);
  ck_assert_double_eq_tol(d[1], 0.5, 1e-12);
  sk.cta_l2_bytes = 0;
  sassmem_store_dram(&sk, &m, 50, FALSE, d);
  ck_assert_double_eq_tol(d[0], 0.5, 1e-12);
  ck_assert_double_eq_tol(d[1], 0.5, 1e-12);
  sassmem_store_dram(&sk, &m, 25, FALSE, d);
  ck_assert_double_eq_tol(d[1], 0.0, 1e-12);
  sk.store_footprint = 500000;
  sassmem_store_dram(&sk, &m, 60, TRUE, d);
  ck_assert_double_eq_tol(d[1], 0.5, 1e-12);
  sk.store_footprint = 0;
  m.l2_store_full_bytes = 0;
  sassmem_store_dram(&sk, &m, 20, TRUE, d);
  ck_assert_double_eq_tol(d[0], 1.0, 1e-12);
  ck_assert_double_eq_tol(d[1], 1.0, 1e-12);
  m.l2_store_full_bytes = 20000000;
  sk.cta_store_bytes = 0;
  sassmem_store_dram(&sk, &m, 20, TRUE, d);
  ck_assert_double_eq_tol(d[1], 1.0, 1e-12);
}
END_TEST

/* The bytes a CTA leaves in L2, from the source page's sectors and the
 * details' hit rates, against a number the derivation does not use:
 * treduce only reads (one float per CTA written), so its DRAM traffic in the
 * cold profiled launch is its footprint: Memory Throughput x Duration / Grid
 * Size = 1.57 TB/s x 45.57 us / 1056 = 67,750 bytes (details6_b8.csv).  The
 * derivation gives 65,090 (-3.9 %: DRAM traffic besides the data, and the
 * throughput's three digits); 5 % allowed. */
START_TEST(test_cta_l2_bytes) {
  GError *err = NULL;
  g_autoptr(SassKernel) tr = load(9, TRUE, 0, &err);
  ck_assert_msg(tr != NULL, "%s", err ? err->message : "?");
  gdouble want = 1.57e12 * 45.57e-6 / 1056;
  ck_assert_msg(fabs(tr->cta_l2_bytes / want - 1.0) < 0.05,
                "treduce: %.0f bytes per CTA, want %.0f", tr->cta_l2_bytes, want);
}
END_TEST

/* sassmem_scattered_dram_scale, hand-worked from gather's profile
 * (results/reference/h200/real/ncu/details_full_b8.csv, gather_source_b8.csv):
 * DRAM moved 1,229,650,200 B (Memory Throughput x Duration) = 38,426,568.75
 * sectors; its coalesced loads missed 2,166,430 sectors and its stores wrote
 * 2,165,856 (4,332,286 in all), its scattered loads missed 15,985,410:
 * (38,426,568.75 - 4,332,286) / 15,985,410 = 2.13284 bytes per byte.  DRAM
 * bytes that fit the misses (32 x 4 sectors over 10 + 2): 1.  No export
 * (NaN, 0) or no scattered misses: 1. */
START_TEST(test_scattered_dram_scale) {
  ck_assert_double_eq_tol(sassmem_scattered_dram_scale(15985410, 4332286, 1229650200), 2.13284,
                          1e-5);
  ck_assert_double_eq_tol(sassmem_scattered_dram_scale(10, 2, 32 * 4), 1.0, 1e-12);
  ck_assert_double_eq_tol(sassmem_scattered_dram_scale(10, 2, 32 * 32), 3.0, 1e-12);
  ck_assert_double_eq_tol(sassmem_scattered_dram_scale(10, 2, NAN), 1.0, 1e-12);
  ck_assert_double_eq_tol(sassmem_scattered_dram_scale(10, 2, 0), 1.0, 1e-12);
  ck_assert_double_eq_tol(sassmem_scattered_dram_scale(0, 2, 32 * 32), 1.0, 1e-12);
}
END_TEST

/* The same from gather's profile as loaded (the sectors of its source page,
 * the rates and bytes of its details): 2.1328 (above); spmv, whose
 * scattered misses the DRAM bytes bound (l2_far), has none left over: 1. */
START_TEST(test_scattered_dram_scale_loaded) {
  GError *err = NULL;
  g_autoptr(SassKernel) g = load(4, TRUE, 0, &err);
  ck_assert_msg(g != NULL, "%s", err ? err->message : "?");
  ck_assert_double_eq_tol(g->dram_scatter, 2.1328, 1e-3);
  g_autoptr(SassKernel) sp = load(7, TRUE, 0, &err);
  ck_assert_msg(sp != NULL, "%s", err ? err->message : "?");
  ck_assert_double_eq_tol(sp->dram_scatter, 1.0, 1e-9);
}
END_TEST

/* sassmem_dram_bounded_hit, hand-worked: 100 load sectors reach L2 at a
 * 10 % hit rate, 90 misses.  DRAM moved 64 sectors' worth (2048 B): the
 * misses drop to 64, the rate rises to 1 - 64/100 = 0.36.  DRAM moved 100
 * sectors (3200 B) or exactly 90 (2880 B): the 90 misses fit, 0.1 stays.
 * No DRAM bytes in the export (NaN, 0) or no sectors: 0.1. */
START_TEST(test_dram_bounded_hit) {
  ck_assert_double_eq_tol(sassmem_dram_bounded_hit(0.1, 100, 2048), 0.36, 1e-12);
  ck_assert_double_eq_tol(sassmem_dram_bounded_hit(0.1, 100, 3200), 0.1, 1e-12);
  ck_assert_double_eq_tol(sassmem_dram_bounded_hit(0.1, 100, 2880), 0.1, 1e-12);
  ck_assert_double_eq_tol(sassmem_dram_bounded_hit(0.1, 100, NAN), 0.1, 1e-12);
  ck_assert_double_eq_tol(sassmem_dram_bounded_hit(0.1, 100, 0), 0.1, 1e-12);
  ck_assert_double_eq_tol(sassmem_dram_bounded_hit(0.1, 0, 2048), 0.1, 1e-12);
}
END_TEST

/* gemv (real_b, held out), worked by hand from its profile: 8 LDG.128 of
 * 8,650,752 sectors and one LDG of 4,224 load 69,210,240 sectors; the STGs
 * store 67,584 + 3 x 1,056 = 70,752.  L1 Hit Rate 28.93 % over loads and
 * stores: loads hit 0.2893 x 69,280,992 / 69,210,240 = 0.289596, so
 * 49,167,249 sectors reach L2.  L2 Hit Rate 13.49 % (stores an L2 hit
 * each): loads hit (0.1349 x 49,238,001 - 70,752) / 49,167,249 = 0.133655,
 * 42,595,814 misses = 1363 MB at 32 B, where DRAM moved 3.79 TB/s x 293.02
 * us = 1,110,545,800 B = 34,704,556 sectors.  Bounded: 1 - 34,704,556 /
 * 49,167,249 = 0.294153. */
START_TEST(test_gemv_dram_bound) {
  const gchar *root = g_getenv("WARPSIM_ROOT");
  ck_assert_msg(root != NULL, "WARPSIM_ROOT not set (run under CTest)");
  g_autofree gchar *dir = g_build_filename(root, "results", "reference", "h200", "real_b", NULL);
  g_autofree gchar *listing = g_build_filename(dir, "sass", "gemv.sass", NULL);
  g_autofree gchar *source = g_build_filename(dir, "ncu", "gemv_source_b8.csv", NULL);
  g_autofree gchar *details =
      g_build_filename(dir, "ncu", "details_vadd4_gemv_scan_conv3_b8.csv", NULL);
  GError *err = NULL;
  g_autoptr(SassKernel) sk = sass_kernel_load(listing, "k_gemv(", source, details, NULL, 0, &err);
  ck_assert_msg(sk != NULL, "%s", err ? err->message : "?");
  ck_assert_double_eq_tol(sk->load_l1_hit, 0.289596, 1e-6);
  ck_assert_double_eq_tol(sk->load_l2_hit, 0.294153, 1e-6);
}
END_TEST

/* cp.async (results/reference/h200/real10/, cpasync): its listing has three
 * LDGSTS, three LDGDEPBAR and two "DEPBAR.LE SB0, 0x1" (read by hand from
 * kernels10.sass lines 6144-6330).  Each LDGSTS joins the open group, each
 * LDGDEPBAR closes it keeping 1 group (the next DEPBAR's 0x1), and each DEPBAR
 * waits on barrier SB0, which its control bits (wait mask 0) do not say.  In
 * matrix/'s 3-stage copy loop (tests/data/matrix/cpasync_sel.sass: 5 LDGSTS,
 * 5 LDGDEPBAR, 3 DEPBAR.LE SB0, 0x2 and the last one's 0x0) the first and the
 * last LDGDEPBAR both keep 2, the loop's: the prologue's first reaches past
 * its second LDGDEPBAR to the loop's DEPBAR. */
static void cp_counts(const gchar *listing, const gchar *function, guint keep_of_first,
                      guint keep_of_last, guint want_copies, guint want_commits, guint want_waits) {
  g_autoptr(SmModel) m = h200();
  const guint trips[] = {4};
  GError *err = NULL;
  g_autoptr(SassKernel) sk = sass_kernel_load(listing, function, NULL, NULL, trips, 1, &err);
  ck_assert_msg(sk != NULL, "%s", err ? err->message : "?");
  g_autoptr(Program) p = sass_program_new(sk, m, NULL, &err);
  ck_assert_msg(p != NULL, "%s", err ? err->message : "?");
  guint copies = 0, commits = 0, waits = 0, first = 99, last = 99;
  for (guint i = 0; i < sk->fn->n; i++) {
    const SassInstr *in = &sk->fn->ins[i];
    const Instr *c = &p->code[i];
    if (sass_op_is(in, "LDGSTS")) {
      ck_assert_uint_eq(c->cp_async, 1);
      copies++;
    } else if (sass_op_is(in, "LDGDEPBAR")) {
      ck_assert_uint_eq(c->cp_async, 2);
      ck_assert_uint_eq(c->sb_write, 0);
      first = commits++ == 0 ? c->cp_keep : first;
      last = c->cp_keep;
    } else {
      ck_assert_uint_eq(c->cp_async, 0);
    }
    if (sass_op_is(in, "DEPBAR")) {
      ck_assert_uint_eq(in->ctrl.wait_mask, 0);
      ck_assert_uint_eq(c->wait_mask, 1);
      waits++;
    }
  }
  ck_assert_uint_eq(copies, want_copies);
  ck_assert_uint_eq(commits, want_commits);
  ck_assert_uint_eq(waits, want_waits);
  ck_assert_uint_eq(first, keep_of_first);
  ck_assert_uint_eq(last, keep_of_last);
}

START_TEST(test_cp_async) {
  const gchar *root = g_getenv("WARPSIM_ROOT");
  ck_assert_msg(root != NULL, "WARPSIM_ROOT not set (run under CTest)");
  g_autofree gchar *real10 = g_build_filename(root, "results", "reference", "h200", "real10",
                                              "sass", "kernels10.sass", NULL);
  cp_counts(real10, "k_cpasync(", 1, 1, 3, 3, 2);
  g_autofree gchar *matrix =
      g_build_filename(root, "tests", "data", "matrix", "cpasync_sel.sass", NULL);
  cp_counts(matrix, "_Z9k_cpasyncILi3ELi1ELi3EEvPK6float4mmPfP3Reci", 2, 2, 5, 5, 4);
}
END_TEST

/* matrix/cpasync_sel.sass's 1-stage copy loop with its first DEPBAR (line 73,
 * "DEPBAR.LE SB0, 0x0") replaced by `depbar`, built with one trip; NULL with
 * *err when refused. */
static Program *cp_edited(const gchar *depbar, GError **err) {
  const gchar *root = g_getenv("WARPSIM_ROOT");
  ck_assert_msg(root != NULL, "WARPSIM_ROOT not set (run under CTest)");
  g_autofree gchar *listing =
      g_build_filename(root, "tests", "data", "matrix", "cpasync_sel.sass", NULL);
  g_autofree gchar *text = NULL;
  ck_assert(g_file_get_contents(listing, &text, NULL, NULL));
  gchar *at = strstr(text, "DEPBAR.LE SB0, 0x0 ;");
  ck_assert(at != NULL);
  g_autoptr(GString) edited = g_string_new_len(text, at - text);
  g_string_append_printf(edited, "%s ;%s", depbar, at + strlen("DEPBAR.LE SB0, 0x0 ;"));
  g_autofree gchar *path = g_build_filename(g_get_tmp_dir(), "check_sassprog_XXXXXX.sass", NULL);
  gint fd = g_mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  ck_assert(g_file_set_contents(path, edited->str, -1, NULL));
  g_autoptr(SmModel) m = h200();
  const guint trips[] = {1};
  g_autoptr(SassKernel) sk = sass_kernel_load(
      path, "_Z9k_cpasyncILi1ELi1ELi3EEvPK6float4mmPfP3Reci", NULL, NULL, trips, 1, err);
  g_unlink(path);
  return sk ? sass_program_new(sk, m, NULL, err) : NULL;
}

/* "DEPBAR.LE SB0, 0x0, {2,1}" (CuAssembler's notes on the form) also waits
 * on barriers 1 and 2: wait mask 1 | 2 | 4 = 7 at 0x210 (instruction 0x21);
 * the loop's other DEPBAR (0x290) keeps 1.  A count of 8 or a barrier 6 in
 * the list is refused naming line 73. */
START_TEST(test_depbar_forms) {
  GError *err = NULL;
  g_autoptr(Program) p = cp_edited("DEPBAR.LE SB0, 0x0, {2,1}", &err);
  ck_assert_msg(p != NULL, "%s", err ? err->message : "?");
  ck_assert_uint_eq(p->code[0x210 / 16].wait_mask, 7);
  ck_assert_uint_eq(p->code[0x290 / 16].wait_mask, 1);
  const gchar *bad[] = {"DEPBAR.LE SB0, 0x8", "DEPBAR.LE SB0, 0x0, {6}", "DEPBAR.LE SB0, 0x0, {2,"};
  for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
    ck_assert(cp_edited(bad[i], &err) == NULL);
    g_autofree gchar *want = g_strdup_printf(
        ".sass:73: '%s': not 'DEPBAR.LE SBn, k' or 'DEPBAR.LE SBn, k, {a,b}' with barriers "
        "0..5 and k 0..7 (the cp.async groups a warp's history keeps)",
        bad[i]);
    ck_assert_msg(strstr(err->message, want) != NULL, "%s", err->message);
    g_clear_error(&err);
  }
}
END_TEST

/* sassmem_store_rewrites_load, hand-read: a store writes back a load's
 * sectors when an earlier LDG of its block has the same base register,
 * offset and width and nothing between writes the register or branches
 * (h2axpy's `y = p(x) + y`).  Instruction 2 does; 3 has another offset, 5
 * follows a write of R8, 7 another width (a 64-bit load), 11 a branch that
 * lands on it, 14 a branch between (to 0x100), 17 that branch's target
 * between its load and it. */
#define RMW_INS(off, text)                                                                         \
  "        /*" off "*/ " text " ; /* 0x0000000000000000 */\n"                                      \
  "                              /* 0x000fe20000000000 */\n"
static const gchar rmw_listing[] = "\n\tcode for sm_90\n\t\tFunction : _Z4testv\n" RMW_INS(
    "0000", "LDG.E R24, desc[UR6][R8.64+-0x800]") RMW_INS("0010", "FFMA R29, R24, R2, R3")
    RMW_INS("0020", "STG.E desc[UR6][R8.64+-0x800], R29") RMW_INS(
        "0030", "STG.E desc[UR6][R8.64+-0x600], R29") RMW_INS("0040", "IADD3 R8, R8, 0x10, RZ")
        RMW_INS("0050", "STG.E desc[UR6][R8.64+-0x800], R29")
            RMW_INS("0060", "LDG.E.64 R10, desc[UR6][R12.64]")
                RMW_INS("0070", "STG.E desc[UR6][R12.64], R29")
                    RMW_INS("0080", "LDG.E R14, desc[UR6][R16.64]") RMW_INS("0090", "@P0 BRA 0xb0")
                        RMW_INS("00a0", "NOP") RMW_INS("00b0", "STG.E desc[UR6][R16.64], R14")
                            RMW_INS("00c0", "LDG.E R20, desc[UR6][R18.64]")
                                RMW_INS("00d0", "@P1 BRA 0x100")
                                    RMW_INS("00e0", "STG.E desc[UR6][R18.64], R20")
                                        RMW_INS("00f0", "LDG.E R22, desc[UR6][R24.64]")
                                            RMW_INS("0100", "NOP")
                                                RMW_INS("0110", "STG.E desc[UR6][R24.64], R22")
                                                    RMW_INS("0120", "EXIT");

START_TEST(test_store_rewrites_load) {
  GError *err = NULL;
  g_autoptr(SassFunction) fn =
      sass_load_data(rmw_listing, strlen(rmw_listing), "rmw.sass", "test", &err);
  ck_assert_msg(fn != NULL, "%s", err ? err->message : "?");
  const guint yes[] = {2}, no[] = {3, 5, 7, 11, 14, 17};
  for (guint i = 0; i < G_N_ELEMENTS(yes); i++)
    ck_assert_msg(sassmem_store_rewrites_load(fn, yes[i]), "instruction %u", yes[i]);
  for (guint i = 0; i < G_N_ELEMENTS(no); i++)
    ck_assert_msg(!sassmem_store_rewrites_load(fn, no[i]), "instruction %u", no[i]);
}
END_TEST

START_TEST(test_partial_sectors) {
  g_autoptr(SmModel) m = h200();
  const OpClassModel *g = &m->opclass[OPCLASS_GLOBAL];
  ck_assert(g->partial_store_bytes > 0 && g->partial_load_bytes > 0);
  GError *err = NULL;
  g_autoptr(SassKernel) st = load(3, TRUE, 0, &err);
  g_autoptr(Program) pst = sass_program_new(st, m, NULL, &err);
  ck_assert_msg(pst != NULL, "%s", err ? err->message : "?");
  guint stores = 0, loads = 0, aligned = 0;
  for (guint i = 0; i < st->fn->n; i++) {
    const NcuInstr *p = &st->source->ins[i];
    if (p->executed != 540672) /* the main loop */
      continue;
    gdouble sectors = (gdouble)p->l2_sectors / (gdouble)p->executed;
    ck_assert(!sassmem_barrier_synced(st, i));
    if (pst->code[i].op == OP_STG) {
      ck_assert_uint_eq(pst->code[i].partial_bytes, (guint)lround(2 * g->partial_store_bytes));
      stores++;
    } else if (pst->code[i].op == OP_LDG && sectors > 5.1) {
      ck_assert_uint_eq(pst->code[i].partial_bytes, (guint)lround(2 * g->partial_load_bytes));
      loads++;
    } else if (pst->code[i].op == OP_LDG && sectors > 4.9) { /* 4.97: 1.94 sectors */
      ck_assert_uint_eq(pst->code[i].partial_bytes, (guint)lround(1.94 * g->partial_load_bytes));
      aligned++;
    }
  }
  ck_assert_uint_eq(stores, 4);
  ck_assert_uint_eq(loads, 12);
  ck_assert_uint_eq(aligned, 4);
  g_autoptr(SassKernel) sx = load(0, TRUE, 0, &err);
  g_autoptr(Program) psx = sass_program_new(sx, m, NULL, &err);
  for (guint i = 0; i < sx->fn->n; i++)
    ck_assert_uint_eq(psx->code[i].partial_bytes, 0);
  const gchar *root = g_getenv("WARPSIM_ROOT");
  g_autofree gchar *dir = g_build_filename(root, "results", "reference", "h200", "real2", NULL);
  g_autofree gchar *listing = g_build_filename(dir, "sass", "kernels2.sass", NULL);
  g_autofree gchar *source = g_build_filename(dir, "ncu", "blur_source_b8.csv", NULL);
  g_autofree gchar *details = g_build_filename(dir, "ncu", "details2_b8.csv", NULL);
  g_autoptr(SassKernel) bl = sass_kernel_load(listing, "k_blur(", source, details, NULL, 0, &err);
  ck_assert_msg(bl != NULL, "%s", err ? err->message : "?");
  g_autoptr(Program) pbl = sass_program_new(bl, m, NULL, &err);
  guint bstores = 0;
  for (guint i = 0; i < bl->fn->n; i++)
    if (pbl->code[i].op == OP_STG && bl->source->ins[i].executed == 540672) {
      ck_assert(sassmem_barrier_synced(bl, i));
      ck_assert_uint_eq(pbl->code[i].partial_bytes, 0);
      bstores++;
    }
  ck_assert_uint_eq(bstores, 4);
}
END_TEST

/* One opcode's memory kind: the global atomics by name (sassmem_global_atomic)
 * and the access kind built on it; the shared-memory ATOMS and the warp
 * reduction REDUX are not global memory. */
static void expect_access(const gchar *opcode, guint n_dst, guint atomic, SassAccess access) {
  SassInstr in = {.opcode = (gchar *)opcode, .mods = (gchar *)"", .n_dst = (guint8)n_dst};
  ck_assert_msg(sassmem_global_atomic(&in) == atomic, "%s: global atomic", opcode);
  ck_assert_msg(sassmem_access(&in, NULL) == access, "%s: access", opcode);
}

START_TEST(test_atomic_kinds) {
  expect_access("RED", 0, 1, SASS_ACC_ATOMIC);
  expect_access("REDG", 0, 1, SASS_ACC_ATOMIC);
  expect_access("ATOMG", 1, 2, SASS_ACC_LOAD);
  expect_access("ATOM", 1, 2, SASS_ACC_LOAD);
  expect_access("ATOMS", 1, 0, SASS_ACC_NONE);
  expect_access("REDUX", 1, 0, SASS_ACC_NONE);
  expect_access("SURED", 0, 0, SASS_ACC_ATOMIC);
  expect_access("SUATOM", 1, 0, SASS_ACC_LOAD);
  expect_access("LDG", 1, 0, SASS_ACC_LOAD);
}
END_TEST

/* A 12-byte struct read field by field is a strided span, not a gather
 * (sassmem_strided_span).  Hand-read from results/reference/h200/real11/:
 * kernels11.sass line 4894, `LDG.E.CONSTANT R18, desc[UR6][R6.64+-0x5fc]`
 * (k_aos12, p[i].x of a float3 array), and its row of aos12_source_b8.csv:
 * executed 67,584, L2 Theoretical Sectors Global 811,008 (12 a request,
 * ideal 4: 32 lanes x 12 B = 384 B), L1 Tag Requests Global 202,752 (3 a
 * request: 3 lines of 4 sectors).  So: not scattered, 3 lines a request
 * (before: a gather of 12 lines, 12 line costs), 384 bytes, sequential, no
 * partial-sector bytes.  gather's LDG (gather.sass line 148: 32 sectors in
 * 32 tag requests) stays a gather of 32 lines. */
START_TEST(test_strided_span) {
  g_autoptr(SmModel) m = h200();
  GError *err = NULL;
  g_autoptr(SassKernel) a = load_profiled("real11", "kernels11.sass", "k_aos12(",
                                          "aos12_source_b8.csv", "details11_b8.csv");
  g_autoptr(Program) pa = program_of(a, m);
  guint at = G_MAXUINT;
  for (guint i = 0; i < a->fn->n; i++)
    if (a->fn->ins[i].line == 4894)
      at = i;
  ck_assert_uint_ne(at, G_MAXUINT);
  ck_assert_str_eq(a->fn->ins[at].opcode, "LDG");
  ck_assert_uint_eq(a->source->ins[at].executed, 67584);
  ck_assert_uint_eq(a->source->ins[at].l2_sectors, 811008);
  ck_assert_uint_eq(a->source->ins[at].l1_requests, 202752);
  ck_assert_double_eq_tol(sassmem_sectors(a, at), 12.0, 1e-12);
  ck_assert(sassmem_strided_span(a, at));
  ck_assert(!sassmem_scattered(a, at));
  ck_assert_uint_eq(pa->code[at].scattered, 0);
  ck_assert_uint_eq(pa->code[at].lines, 3);
  ck_assert_uint_eq(pa->code[at].line_cost, 0);
  ck_assert_uint_eq(pa->code[at].bytes, 384);
  ck_assert_uint_eq(pa->code[at].sequential, 1);
  ck_assert_uint_eq(pa->code[at].partial_bytes, 0);
  g_autoptr(SassKernel) g = load(4, TRUE, 0, &err);
  ck_assert_msg(g != NULL, "%s", err ? err->message : "?");
  g_autoptr(Program) pg = sass_program_new(g, m, NULL, &err);
  ck_assert_msg(pg != NULL, "%s", err ? err->message : "?");
  guint gl = G_MAXUINT;
  for (guint i = 0; i < g->fn->n; i++)
    if (g->fn->ins[i].line == 148)
      gl = i;
  ck_assert_uint_ne(gl, G_MAXUINT);
  ck_assert(!sassmem_strided_span(g, gl));
  ck_assert(sassmem_scattered(g, gl));
  ck_assert_uint_eq(pg->code[gl].lines, 32);
  ck_assert_uint_eq(pg->code[gl].line_cost, 32);
}
END_TEST

/* A branch never taken shares one counter, which stays 0 (sassflow_branch):
 * before, each took a counter of its own and a listing with more than 63
 * conditional branches was refused.  Hand-read from results/reference/h200/
 * real12/: k_dsmem's loop (kernels12.sass lines 1605-) holds 128
 * `@!P0 BRA` (cooperative_groups' cluster.sync tests that the launch is a
 * cluster: two such branches a sync, two syncs a step, 32 steps), each
 * executed 4,224 times in dsmem_source_b8.csv and never taken (the NOP at
 * 0x250 that the first one, line 1669, jumps to executed 0 times): all
 * 128 share counter PROGRAM_MAX_COUNTERS - 2. */
START_TEST(test_never_taken_shared) {
  g_autoptr(SmModel) m = h200();
  g_autoptr(SassKernel) k = load_profiled("real12", "kernels12.sass", "k_dsmem(",
                                          "dsmem_source_b8.csv", "dsmem_details_b8.csv");
  g_autoptr(Program) p = program_of(k, m);
  guint never = 0, at = G_MAXUINT;
  for (guint i = 0; i < k->fn->n; i++) {
    if (k->fn->ins[i].line == 1669)
      at = i;
    if (p->code[i].has_branch && p->code[i].counter == PROGRAM_MAX_COUNTERS - 2)
      never++;
  }
  ck_assert_uint_ne(at, G_MAXUINT);
  ck_assert_uint_eq(k->source->ins[at].executed, 4224);
  ck_assert_uint_eq(p->code[at].fall, p->code[at].trips);
  ck_assert_uint_eq(p->code[at].counter, PROGRAM_MAX_COUNTERS - 2);
  ck_assert_uint_eq(never, 128);
  /* The cluster barrier's wait is a CTA barrier (sass_is_cta_barrier): the
   * listing's k_dsmem has 64 UCGABAR_WAIT (line 1685 the first; two a step)
   * and 66 BAR.SYNC (rec_begin, rec_end and the 64 non-cluster fallbacks the
   * guards skip): 130 OP_BAR, 64 of them UCGABAR_WAIT. */
  guint bars = 0, waits = 0;
  for (guint i = 0; i < k->fn->n; i++)
    if (p->code[i].op == OP_BAR) {
      bars++;
      waits += sass_op_is(&k->fn->ins[i], "UCGABAR_WAIT");
    }
  ck_assert_uint_eq(bars, 130);
  ck_assert_uint_eq(waits, 64);
}
END_TEST

/* A warp-role branch (sassflow_branch, ProgramRole): real13's k_wspec sends
 * warps 0-1 (threadIdx.x < 64) to a producer loop and warps 2-3 to a
 * consumer loop by '@!P0 BRA' at 0xb0, which wspec_source_b8.csv executes
 * 4,224 times (once per warp of the 1,056 CTAs) and the producer side
 * 2,112 times.  Hand-summed from that export, per warp: 27 instructions on
 * both paths (the 12 up to the branch, the 15 from 0x8f0 to EXIT), 457 on
 * the producer side, 1,802 on the consumer side: 484 and 1,829 from entry
 * to EXIT, one more each in the program (the guarded '@P1 EXIT' at 0x9d0 is
 * a branch to the program's own OP_EXIT): 485 and 1,830.  Before, every
 * warp took the branch first and ran 485. */
START_TEST(test_role_split) {
  g_autoptr(SmModel) m = h200();
  g_autoptr(SassKernel) k = load_profiled("real13", "kernels13.sass", "k_wspec(",
                                          "wspec_source_b8.csv", "wspec_details_b8.csv");
  g_autoptr(Program) p = program_of(k, m);
  ck_assert_uint_eq(p->n_roles, 1);
  ck_assert_double_eq_tol(p->roles[0].taken, 0.5, 1e-12);
  ck_assert(!p->roles[0].upper); /* ISETP.GE.U32 P0 of tid, 0x40; @!P0 BRA: the first warps */
  ck_assert_uint_eq(p->code[0xb0 / 16].counter, p->roles[0].counter);
  const guint64 want[4] = {485, 485, 1830, 1830};
  for (guint idx = 0; idx < 4; idx++) {
    Warp w = {0};
    warp_init(&w, p->n_slots);
    warp_start(&w, p, p->entry, idx, 4, 0);
    guint64 n = 0;
    for (guint pc = p->entry; n < 100000; n++) {
      if (p->code[pc].op == OP_EXIT) {
        n++;
        break;
      }
      pc = program_next_pc(&p->code[pc], pc, w.counters);
    }
    warp_clear(&w);
    ck_assert_uint_eq(n, want[idx]);
  }
}
END_TEST

/* The other end (role_upper): real3's k_reduce skips its warp-0 tail by
 * '@P1 BRA 0x740' at 0x6a0 (kernels3.sass line 2203), whose guard
 * 'ISETP.NE.AND P1, PT, R20, RZ, PT' at 0x570 is true for warps 1-3
 * (reduce_source_b8.csv: 4,224 executions, 1,056 fall through): those take
 * it, warp 0 runs the tail. */
START_TEST(test_role_upper) {
  g_autoptr(SmModel) m = h200();
  g_autoptr(SassKernel) k = load_profiled("real3", "kernels3.sass", "k_reduce(",
                                          "reduce_source_b8.csv", "details3_b8.csv");
  g_autoptr(Program) p = program_of(k, m);
  ck_assert_uint_eq(p->n_roles, 1);
  ck_assert_double_eq_tol(p->roles[0].taken, 0.75, 1e-12);
  ck_assert(p->roles[0].upper);
  guint at = G_MAXUINT;
  for (guint i = 0; i < k->fn->n; i++)
    if (p->code[i].has_branch && p->code[i].counter == p->roles[0].counter)
      at = i;
  ck_assert_uint_eq(at, 0x6a0 / 16);
  for (guint idx = 0; idx < 4; idx++) {
    Warp w = {0};
    warp_init(&w, p->n_slots);
    warp_start(&w, p, p->entry, idx, 4, 0);
    guint next = program_next_pc(&p->code[at], at, w.counters);
    warp_clear(&w);
    ck_assert_uint_eq(next, idx == 0 ? at + 1 : p->code[at].target);
  }
}
END_TEST

/* A texture fetch's traffic is in no global column of the source export
 * (sassmem_sectors): hand-read from results/reference/h200/real12/, k_tex's
 * four TEX.LL (kernels12.sass line 3822 the first) executed 67,584 times
 * each with L1 Tag Requests Global and L2 Theoretical Sectors Global 0, so
 * before this each asked for 0 sectors and, with no load sectors at all, the
 * details' hit rates (L1/TEX 64.38 %, L2 98.50 %) were never applied.  Now
 * each asks for the ideal 4 (32 lanes x 4 B).  The loads' L1 hit rate, read
 * as every hit a load's, would be 0.6438 x (1,081,344 load + 1,084,512 store
 * sectors) / 1,081,344 = 1.29: more hits than loads, so whose they are is
 * unknown and the loads take the kernel's 0.6438 (derive_hit_rates). */
START_TEST(test_texture_sectors) {
  g_autoptr(SassKernel) k = load_profiled("real12", "kernels12.sass", "k_tex(", "tex_source_b8.csv",
                                          "tex_details_b8.csv");
  guint at = G_MAXUINT, tex = 0;
  for (guint i = 0; i < k->fn->n; i++) {
    if (k->fn->ins[i].line == 3822)
      at = i;
    tex += sassmem_texture_fetch(&k->fn->ins[i]);
  }
  ck_assert_uint_ne(at, G_MAXUINT);
  ck_assert_uint_eq(tex, 4);
  ck_assert_uint_eq(k->source->ins[at].executed, 67584);
  ck_assert_uint_eq(k->source->ins[at].l2_sectors, 0);
  ck_assert_double_eq_tol(sassmem_sectors(k, at), 4.0, 1e-12);
  ck_assert_double_eq_tol(k->load_l1_hit, 0.6438, 1e-12);
}
END_TEST

/* The details' L1 hit rate counts store sectors too, and a store to a line an
 * earlier store wrote hits: radix (results/reference/h200/real13/, hand-read
 * from radix_source_b8.csv) loads 2 x 540,672 sectors (LDG.E.CONSTANT, its
 * keys, read once: cold) and stores 1,869,758 + 1,869,771 + 3 x 1,056 =
 * 3,742,697 (its tile scatter, 4 requests a line); L1/TEX Hit Rate 57.75 %.
 * As the loads' alone the hits would be 0.5775 x 4,824,041 / 1,081,344 =
 * 2.576 of them, so the loads take the kernel's 0.5775 (1.0 before, which
 * kept the keys in L1).  Store hits at 3 of 4 requests a line: 0.75 x
 * 3,742,697 = 2.81 M against the 2.79 M hits the rate gives. */
START_TEST(test_store_l1_hits) {
  g_autoptr(SassKernel) k = load_profiled("real13", "kernels13.sass", "k_radix(",
                                          "radix_source_b8.csv", "radix_details_b8.csv");
  ck_assert_double_eq_tol(k->load_l1_hit, 0.5775, 1e-12);
}
END_TEST

static Suite *sassprog_suite(void) {
  Suite *s = suite_create("sassprog");
  TCase *tc = tcase_create("program");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_counts_reproduced, 0, G_N_ELEMENTS(kernels));
  tcase_add_test(tc, test_bresenham);
  tcase_add_test(tc, test_split_loop);
  tcase_add_test(tc, test_trip_count);
  tcase_add_test(tc, test_trip_counts_per_loop);
  tcase_add_test(tc, test_hit_rates);
  tcase_add_test(tc, test_hit_rates_no_room);
  tcase_add_test(tc, test_l1_share);
  tcase_add_test(tc, test_partial_sectors);
  tcase_add_test(tc, test_l2_split);
  tcase_add_test(tc, test_l2_far);
  tcase_add_test(tc, test_l2_reuse);
  tcase_add_test(tc, test_store_dram);
  tcase_add_test(tc, test_atomic_kinds);
  tcase_add_test(tc, test_cta_l2_bytes);
  tcase_add_test(tc, test_dram_bounded_hit);
  tcase_add_test(tc, test_scattered_dram_scale);
  tcase_add_test(tc, test_scattered_dram_scale_loaded);
  tcase_add_test(tc, test_gemv_dram_bound);
  tcase_add_test(tc, test_cp_async);
  tcase_add_test(tc, test_depbar_forms);
  tcase_add_test(tc, test_store_rewrites_load);
  tcase_add_test(tc, test_strided_span);
  tcase_add_test(tc, test_never_taken_shared);
  tcase_add_test(tc, test_texture_sectors);
  tcase_add_test(tc, test_store_l1_hits);
  tcase_add_test(tc, test_role_split);
  tcase_add_test(tc, test_role_upper);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  g_autoptr(SRunner) sr = srunner_create(sassprog_suite());
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
