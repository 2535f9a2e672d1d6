/* sassprog.c - a SASS kernel as a Program (see sassprog.h). */
#include "sass/sassprog.h"

#include "core/mem.h"
#include "sass/sassflow.h"
#include "sass/sassmem.h"
#include "sass/sassspan.h"

#include <math.h>
#include <string.h>

G_DEFINE_QUARK(warpsim_sassprog_error, sassprog_error)

/* ---- what an instruction does ---------------------------------------------- */

SassKernel *sass_kernel_load(const gchar *file, const gchar *function, const gchar *source_csv,
                             const gchar *details_csv, const guint *trip_counts,
                             guint n_trip_counts, GError **error) {
  return sass_kernel_load_id(file, function, source_csv, details_csv, -1, NULL, trip_counts,
                             n_trip_counts, error);
}

/* Model `m` has opcode classes, without which no SASS kernel runs on it;
 * else SASSPROG_ERROR_INPUT. */
static gboolean model_has_classes(const SmModel *m, GError **error) {
  if (m->opclass[OPCLASS_FP32].opcodes != NULL && *m->opclass[OPCLASS_FP32].opcodes != '\0')
    return TRUE;
  g_set_error(error, SASSPROG_ERROR, SASSPROG_ERROR_INPUT,
              "%s: [class_fp32] opcodes: the model has no opcode classes (needed to simulate "
              "SASS kernels; models/h200.ini has them)",
              m->file);
  return FALSE;
}

SassKernel *sass_kernel_load_id(const gchar *file, const gchar *function, const gchar *source_csv,
                                const gchar *details_csv, gint64 details_id, const SmModel *m,
                                const guint *trip_counts, guint n_trip_counts, GError **error) {
  g_autoptr(SassKernel) sk = g_new0(SassKernel, 1);
  sk->n_trip_counts = MIN(n_trip_counts, G_N_ELEMENTS(sk->trip_counts));
  for (guint i = 0; i < sk->n_trip_counts; i++)
    sk->trip_counts[i] = trip_counts[i];
  sk->warnings = g_string_new(NULL);
  SassGpu gpu = {m ? m->name : NULL, m ? m->sm.cc_major : 0, m ? m->sm.cc_minor : 0};
  sk->fn = sass_load_for(file, function, m ? &gpu : NULL, sk->warnings, error);
  if (sk->fn == NULL || (m != NULL && !model_has_classes(m, error)))
    return NULL;
  const gchar *name = sk->fn->demangled; /* its key and parameters name it in the exports */
  if (source_csv && *source_csv) {
    sk->source = ncu_source_load(source_csv, name, error);
    if (sk->source == NULL || !ncu_source_check(sk->source, sk->fn, error))
      return NULL;
    sk->warps = sassmem_executed(sk, 0);
  }
  if (details_csv && *details_csv) {
    sk->details = ncu_details_load_id(details_csv, name, details_id, error);
    if (sk->details == NULL)
      return NULL;
  }
  if (!sassflow_check_trip_counts(sk, error))
    return NULL;
  sk->tex_sectors = m ? m->tex_bytes / 32.0 : 0.0;
  sassmem_derive(sk);
  return g_steal_pointer(&sk);
}

/* ---- the program ------------------------------------------------------------------ */

/* A shared-memory load or store: wavefronts per request from the profile,
 * else one per 4 bytes per thread moved, and for LDSM one per 8x8 matrix
 * (.2, .4: 2, 4; each matrix is 8 rows of 16 B, 128 B, one wavefront when
 * its rows fall in distinct banks): LDSM x1/x2/x4, plain and .MT88, ran at
 * 0.99, 0.50, 0.25 warp-instructions per cycle per SM and Nsight Compute
 * counted 1, 2, 4 shared wavefronts each, conflict-free rows 16 B and 80 B
 * apart (results/reference/h200/ldsm/tput.csv, ncu_wavefronts.csv). */
static void classify_shared(const SassInstr *in, const NcuInstr *p, const OpClassModel *cm,
                            Instr *out) {
  gboolean ldsm = sass_op_is(in, "LDSM");
  out->op = ldsm || sass_op_is(in, "LDS") ? OP_LDS : OP_STS;
  out->pipe = PIPE_SMEM;
  gdouble ways = sassmem_width_bytes(in) > 4 ? sassmem_width_bytes(in) / 4.0 : 1.0;
  if (ldsm)
    ways = g_str_has_suffix(in->mods, ".4") ? 4.0 : g_str_has_suffix(in->mods, ".2") ? 2.0 : 1.0;
  if (p && p->executed > 0 && p->smem_wavefronts > 0)
    ways = (gdouble)p->smem_wavefronts / (gdouble)p->executed;
  out->ways = (guint16)CLAMP(lround(ways), 1, 64);
  out->read_latency = (guint8)MIN(cm->read_latency, 255u);
}

/* Active lanes per execution of an instruction with profile row `p`: the
 * profile's thread instructions per instruction, else 32 (no profile, or a
 * row without both counts). */
static gdouble profiled_lanes(const NcuInstr *p) {
  return p && p->executed > 0 && p->thread_exec > 0 ? (gdouble)p->thread_exec / (gdouble)p->executed
                                                    : 32.0;
}

/* The distinct words global atomic i reaches by its address arithmetic
 * (sassspan_atomic_words at its access width); 0 when the listing does not
 * bound it or it is a compare-and-swap, which [l2] atomic_contention does
 * not measure. */
static guint64 atomic_words(const SassKernel *sk, guint i) {
  const SassInstr *in = &sk->fn->ins[i];
  return sassmem_global_atomic(in) < 3 ? sassspan_atomic_words(sk->fn, i, sassmem_width_bytes(in))
                                       : 0;
}

/* A global, local or atomic access: sectors and lines per request, where
 * its data comes from, DRAM row locality. */
static void classify_global(const SassKernel *sk, const SmModel *m, guint i, const OpClassModel *cm,
                            Instr *out) {
  const SassInstr *in = &sk->fn->ins[i];
  const NcuInstr *p = sk->source ? &sk->source->ins[i] : NULL;
  if (m->dsmem_latency > 0 && sassmem_dsmem(in, p)) {
    /* a peer CTA's shared memory: the SM's DSMEM port, no memory level */
    out->op = p->store ? OP_STG : OP_LDG;
    out->dsmem = p->store ? 2 : 1;
    out->pipe = PIPE_LSU;
    out->level = MEM_L1;
    out->lines = 1;
    out->bytes = sassmem_width_bytes(in) * 32u;
    out->read_latency = (guint8)MIN(cm->read_latency, 255u);
    out->latency = 0;
    return;
  }
  SassAccess a = sassmem_access(in, p);
  gdouble sectors = sassmem_sectors(sk, i);
  gboolean scattered = sassmem_scattered(sk, i);
  out->scattered = (guint8)scattered;
  out->pipe = PIPE_LSU;
  out->l1tex = a != SASS_ACC_NONE;
  out->tex = sassmem_texture_fetch(in) ? (sass_op_is(in, "TLD") ? 2 : 1) : 0;
  out->lines =
      (guint8)CLAMP(scattered ? lround(sectors) : (glong)ceil(sectors / 4.0 - 1e-9), 1, 255);
  out->read_latency = (guint8)MIN(cm->read_latency, 255u);
  out->bytes = (guint32)lround(sectors * 32.0);
  /* DRAM row locality: a request of two or more lines stays in one row
   * (the float4 stream of stream.csv); single lines and scattered sectors
   * are random accesses (the chase of chase.csv). */
  out->sequential = !scattered && sectors * 32.0 >= 2.0 * m->line_bytes;
  out->line_cost = scattered ? (guint8)MIN(lround(sectors), 255) : 0;
  out->partial_bytes = 0;
  /* a strided span's sectors beyond the ideal are the stride's, not a
   * misalignment's: its lines are read whole (sassmem_strided_span) */
  if (!scattered && !sassmem_strided_span(sk, i) && (a == SASS_ACC_LOAD || a == SASS_ACC_STORE) &&
      !sassmem_barrier_synced(sk, i)) {
    /* A contiguous request that touches more sectors than its bytes fill is
     * misaligned: its first and last sectors are read or written in part
     * (stencil's c + 1: 5 sectors for 128 B); sectors - ideal of them per
     * request on average, at most 2.  Neighbouring warps complete the
     * shared sectors; only when the warps drift apart (no CTA barrier in the
     * loop) does it cost (sync_partial.csv: 2.35x without a barrier, 1.14x
     * with one, which the 5 sectors already charge). */
    gdouble partial = CLAMP(2.0 * (sectors - sassmem_ideal_sectors(in)), 0.0, 2.0);
    gdouble per = a == SASS_ACC_STORE ? cm->partial_store_bytes : cm->partial_load_bytes;
    out->partial_bytes = (guint16)MIN(lround(partial * per), 65535);
  }
  out->latency = 0;
  switch (a) {
  case SASS_ACC_LOAD:
    out->op = OP_LDG;
    out->level = MEM_LEVELS; /* drawn from the launch's hit rates */
    break;
  case SASS_ACC_STORE:
    out->op = OP_STG;
    out->level = MEM_DRAM; /* written back */
    break;
  case SASS_ACC_ATOMIC:
    out->op = OP_STG;
    out->level = MEM_L2; /* reductions are done in L2 */
    break;
  case SASS_ACC_LOCAL_LOAD:
  case SASS_ACC_LOCAL_STORE:
    out->op = a == SASS_ACC_LOCAL_LOAD ? OP_LDL : OP_STL;
    out->level = MEM_L1;
    /* the bytes of its lanes, or the profile's L2 Theoretical Sectors Local
     * per request when it gives them (28.5 for a local array indexed at
     * random, issue 27, where the lanes' bytes make 4) */
    out->lane_bytes = p && p->executed > 0 && !(p->unknown & NCU_UNKNOWN_L2_SECTORS_LOCAL)
                          ? 0
                          : (guint16)sassmem_width_bytes(in);
    out->sequential = TRUE;
    out->line_cost = 0;
    /* a register-indexed local array: its lanes' words spread over lines
     * (lmem: 25.8 sectors a request where its lanes' bytes fill 4), timed
     * per sector ([spill] scattered_*_sector_cycles, core/sm_memory.c) */
    out->scattered =
        (guint8)(p && p->executed > 0 && !(p->unknown & NCU_UNKNOWN_L2_SECTORS_LOCAL) &&
                 sectors >= 2.0 * sassmem_ideal_sectors(in));
    break;
  case SASS_ACC_NONE:
    out->op = OP_MISC;
    out->pipe = PIPE_NONE;
    break;
  }
  guint atomic = m->atomic_sectors_per_cycle > 0 ? sassmem_global_atomic(in) : 0;
  if (atomic) {
    /* With [l2] atomic_sectors_per_cycle, a global atomic is served by the L2
     * atomic unit (core/sm_memory.c) and, as a load, holds its lines of the
     * loads in flight until done, so the LSU backs up (lg_throttle) when the
     * unit is the limit, as ghist's profile shows. */
    out->op = OP_LDG;
    out->level = MEM_L2;
    out->atomic = (guint8)atomic;
    /* On a few words (an address the listing bounds, sassspan.h): the
     * device's contended rate for them, at its lanes (the profile's thread
     * instructions per instruction, else 32) */
    gdouble gpu_rate = model_atomic_contended_rate(m, (gdouble)atomic_words(sk, i));
    out->atomic_gpu_cycles = gpu_rate > 0 ? (gfloat)(profiled_lanes(p) / gpu_rate) : 0.0f;
  }
}

/* Intervals of the SM-wide shared-memory unit ([smem] interval each) that
 * `cycles` of it make: an OP_SHFL's `ways` (MATCH, REDUX, SHFL, an indexed
 * LDC; results/reference/h200/mio/). */
static guint16 smem_unit_ways(const SmModel *m, guint cycles) {
  return (guint16)CLAMP(cycles / MAX(m->smem.interval, 1u), 1u, 65535u);
}

/* A MATCH whose key the listing bounds to K values (sassspan_operand_max:
 * MATCH.ANY Rd, Rkey, vote's `v & 31u`): at its lanes at random (the
 * profile's thread instructions per instruction, else 32) E = K (1 - (1 -
 * 1/K)^lanes) distinct keys, where its timing is for 32
 * (results/reference/h200/mio/warp.csv: 2.0 cycles of the unit and 11.0 of
 * latency per key, 24.8 + 11.0 x keys): 32 - E keys fewer at [class_shuffle]
 * match_key_interval and match_key_latency each.  *latency and *interval
 * (cycles) are moved; out->latency and out->interval with them. */
static void match_keys(const SassKernel *sk, guint i, const OpClassModel *cm, guint *latency,
                       guint *interval, Instr *out) {
  const NcuInstr *p = sk->source ? &sk->source->ins[i] : NULL;
  guint64 max = 0;
  if (!sassspan_operand_max(sk->fn, i, 1, &max))
    return;
  gdouble lanes = profiled_lanes(p);
  lanes = MIN(lanes, 32.0);
  gdouble fewer = 32.0 - sassspan_expected_distinct(max + 1, lanes);
  if (fewer <= 0)
    return;
  *interval = (guint)MAX(1, lround(*interval - fewer * cm->match_key_interval));
  *latency = (guint)MAX(1, lround(*latency - fewer * cm->match_key_latency));
  out->latency = (guint16)MIN(*latency, 65535u);
  out->interval = (guint8)MIN(*interval, 255u);
}

/* The op, pipe and timing of one instruction of class `c`. */
static void classify(const SassKernel *sk, const SmModel *m, guint i, OpClass c, Instr *out) {
  const SassInstr *in = &sk->fn->ins[i];
  const NcuInstr *p = sk->source ? &sk->source->ins[i] : NULL;
  const OpClassModel *cm = &m->opclass[c];
  guint latency = 0, interval = 0; /* the class's, or the opcode's ([class_*] opcode_timing) */
  g_free(opclass_timing(cm, in->opcode, in->mods, &latency, &interval));
  out->latency = (guint16)MIN(latency, 65535u);
  out->interval = (guint8)MIN(interval, 255u);
  out->pipe = PIPE_NONE;
  out->op = OP_MISC;
  out->ways = 1;
  switch (c) {
  case OPCLASS_FP32:
    out->op = sass_op_is(in, "FFMA") ? OP_FFMA : OP_FP32;
    out->pipe = PIPE_FMA;
    break;
  case OPCLASS_INT:
    out->op = OP_IALU;
    out->pipe = PIPE_ALU;
    break;
  case OPCLASS_FP64:
    out->dispatch = (guint8)MIN(cm->dispatch, 255u);
    out->op = OP_FP64;
    out->pipe = PIPE_FP64;
    break;
  case OPCLASS_MUFU:
    out->op = OP_MUFU;
    out->pipe = PIPE_SFU;
    break;
  case OPCLASS_TENSOR:
    out->op = OP_TENSOR;
    out->pipe = PIPE_TENSOR;
    break;
  case OPCLASS_CONV:
    out->op = OP_CONV;
    out->pipe = PIPE_SFU;
    break;
  case OPCLASS_UNIFORM:
    out->op = OP_UNIFORM;
    out->pipe = PIPE_UNIFORM;
    break;
  case OPCLASS_SHUFFLE:
    /* SHFL, MATCH, REDUX: the SM-wide shared-memory unit, busy the class's
     * (or the opcode's) interval, in [smem] intervals (MATCH.ANY 2 cycles per
     * distinct key, REDUX.SUM 2, SHFL 1: results/reference/h200/mio/warp.csv) */
    out->op = OP_SHFL;
    out->pipe = PIPE_SMEM;
    if (sass_op_is(in, "MATCH") && cm->match_key_interval > 0)
      match_keys(sk, i, cm, &latency, &interval, out);
    out->ways = smem_unit_ways(m, interval);
    break;
  case OPCLASS_SHARED:
    classify_shared(in, p, cm, out);
    break;
  case OPCLASS_GLOBAL:
    classify_global(sk, m, i, cm, out);
    break;
  case OPCLASS_CONTROL:
    out->membar = sass_op_is(in, "MEMBAR") &&
                  (strstr(in->mods, ".GPU") != NULL || strstr(in->mods, ".SYS") != NULL);
    if (sass_op_is(in, "UCGABAR_WAIT"))
      out->membar = 2;
    if (sass_is_cta_barrier(in))
      out->op = OP_BAR;
    else if (sass_op_is(in, "EXIT") && sass_always(in))
      out->op = OP_EXIT;
    break;
  case OPCLASS_IMAD:
    out->op = OP_IMAD;
    out->pipe = PIPE_FMAHEAVY;
    break;
  case OPCLASS_SPECIAL: {
    guint lat = 0, iv = 0;
    if (sass_ldc_indexed(in) && sass_ldc_indexed_timing(sk, m, &lat, &iv)) {
      /* An LDC with a per-thread register address is served once per distinct
       * address of the warp, 2 cycles each of the unit MATCH uses in the
       * constant cache (results/reference/h200/mio/ldc.csv), more for a table
       * the constant cache does not hold (ldcidx/ldcidx.csv): the SM-wide
       * shared-memory unit for [class_special] indexed_interval cycles, or
       * the indexed_table_* entry of the kernel's constant_table_bytes (the
       * addresses the listing cannot tell: the model file states what it
       * assumes). */
      out->op = OP_SHFL;
      out->pipe = PIPE_SMEM;
      out->ways = smem_unit_ways(m, iv);
      out->latency = (guint16)MIN(lat, 65535u);
    }
    break;
  }
  case OPCLASS_MAX:
    break;
  }
}

/* FFMA register-bank conflict when the reuse cache is cold: two distinct
 * register sources in one of the two banks (register index mod 2; Jia et al.
 * 2018, section 3.2: two 64-bit banks on Volta and later). */
static guint8 bank_conflict(const SassInstr *in) {
  guint seen[2] = {G_MAXUINT, G_MAXUINT};
  for (guint k = 0; k < in->n_src; k++) {
    if (in->src[k].file != SASS_REG_R)
      continue;
    guint r = in->src[k].index, b = r % 2;
    if (seen[b] != G_MAXUINT && seen[b] != r)
      return 1;
    seen[b] = r;
  }
  return 0;
}

/* The class of `in`: its [class_*] group in the model, else a guess from
 * the opcode, warned about once per opcode in `warnings` (when non-NULL). */
static OpClass class_of(const SassFunction *fn, const SassInstr *in, const SmModel *m,
                        GHashTable *warned, GString *warnings) {
  OpClass c = opclass_lookup(m->opclass, in->opcode);
  if (c == OPCLASS_MAX) {
    c = opclass_guess(in->opcode);
    if (warnings && !g_hash_table_contains(warned, in->opcode)) {
      g_hash_table_add(warned, in->opcode);
      g_string_append_printf(warnings,
                             "%s:%u: opcode '%s' is in no [class_*] group of %s: assumed "
                             "class %s\n",
                             fn->file, in->line, in->opcode, m->file, opclass_name(c));
    }
  }
  return c;
}

/* Global atomics (RED, ATOM): when they are 1 % or more of the profile's
 * warp instructions (or there is no profile), one warning names the first,
 * since atomics many threads aim at few words serialize in L2
 * (results/reference/h200/real5: a 256-bin histogram in global memory ran at
 * 0.0157 B/cycle/SM on the H200, about 110 times slower than simulated as L2
 * writes; results/reference/h200/atomics: 0.728 atomics per cycle for the
 * whole GPU on one word).  Where the listing bounds every such atomic's
 * address (sassspan.h) and [l2] atomic_contention is on, the warning says
 * they are timed at the device's contended rate for that many words, random
 * lanes assumed; else, with [l2] atomic_sectors_per_cycle, that the first
 * unbounded one is timed at the uncontended rate and a profile's anchor can
 * derive the kernel's own. */
static void warn_atomics(const SassKernel *sk, const SmModel *m, GString *warnings) {
  gdouble atomics = 0, all = 0;
  gint first = -1, unbounded = -1;
  guint64 words = 0;
  for (guint i = 0; i < sk->fn->n; i++) {
    const SassInstr *in = &sk->fn->ins[i];
    const NcuInstr *p = sk->source ? &sk->source->ins[i] : NULL;
    gdouble e = sk->source ? sassmem_executed(sk, i) : 1.0;
    all += e;
    if (sassmem_access(in, p) == SASS_ACC_ATOMIC && e > 0) {
      atomics += e;
      first = first < 0 ? (gint)i : first;
      guint64 w = atomic_words(sk, i);
      if (model_atomic_contended_rate(m, (gdouble)w) > 0)
        words = MAX(words, w);
      else if (unbounded < 0)
        unbounded = (gint)i;
    }
  }
  if (warnings == NULL || first < 0 || (sk->source && atomics < 0.01 * all))
    return;
  const SassInstr *in = &sk->fn->ins[unbounded >= 0 ? unbounded : first];
  gdouble share = all > 0 ? 100.0 * atomics / all : 0.0;
  if (m->atomic_sectors_per_cycle > 0 && unbounded < 0)
    g_string_append_printf(warnings,
                           "%s:%u: '%s': global atomics (%.1f %% of the warp instructions) aim at "
                           "%" G_GUINT64_FORMAT " words or fewer by their address arithmetic: "
                           "timed at the device's contended rate on that many words ([l2] "
                           "atomic_contention: %.3g lane atomics per cycle for the device), "
                           "lanes at random assumed (lanes on distinct words of a line run up "
                           "to 7x faster: doc/atomics.md)\n",
                           sk->fn->file, in->line, in->text, share, words,
                           model_atomic_contended_rate(m, (gdouble)words));
  else if (m->atomic_sectors_per_cycle > 0)
    g_string_append_printf(warnings,
                           "%s:%u: '%s': global atomics (%.1f %% of the warp instructions) are "
                           "timed at the L2 atomic unit's rate ([l2] atomic_sectors_per_cycle: "
                           "the measured uncontended one unless a profile's anchor derives this "
                           "kernel's); atomics on few addresses serialize in L2 (a 256-bin "
                           "histogram in global memory, ghist, ran 44.7x slower than that "
                           "uncontended rate on the H200: doc/atomics.md)\n",
                           sk->fn->file, in->line, in->text, share);
  else
    g_string_append_printf(warnings,
                           "%s:%u: '%s': global atomics (%.1f %% of the warp instructions) are "
                           "timed as L2 writes; atomics on one address serialize in L2, which is "
                           "not modelled (a 256-bin histogram in global memory, ghist, ran 44.7x "
                           "slower than the uncontended rate on the H200: doc/atomics.md)\n",
                           sk->fn->file, in->line, in->text, share);
}

/* The "{a,b,...}" list of scoreboards a DEPBAR also waits on ("DEPBAR.LE
 * SB0, 0x0, {2,1}") at `p`, each below SASS_BARRIERS, as a mask in *mask;
 * the end of the list, or NULL when it is malformed. */
static const gchar *depbar_list(const gchar *p, guint *mask) {
  if (*p++ != '{')
    return NULL;
  for (;;) {
    while (*p == ' ')
      p++;
    if (!g_ascii_isdigit(p[0]) || g_ascii_isdigit(p[1]) || p[0] - '0' >= SASS_BARRIERS)
      return NULL;
    *mask |= 1u << (p[0] - '0');
    for (p++; *p == ' '; p++)
      ;
    if (*p == '}')
      return p + 1;
    if (*p++ != ',')
      return NULL;
  }
}

/* "DEPBAR.LE SBn, k" (what __pipeline_wait_prior(k) compiles to): wait until
 * at most k of the warp's LDGDEPBAR groups of cp.async copies (LDGSTS) are
 * outstanding, and for the barriers of its optional "{a,b,...}" list, set in
 * *also.  The wait is in its operands, not in the control bits' wait mask.
 * Returns the barrier n and sets *keep to k; -1 when `in` is no DEPBAR
 * naming a scoreboard; -2 when it names one but not as ".LE SBn, k[, {...}]"
 * with barriers below SASS_BARRIERS and k (decimal or 0x hex) below
 * PROGRAM_CP_GROUPS, the groups a warp's history keeps. */
static gint depbar_wait(const SassInstr *in, guint *keep, guint *also) {
  const gchar *sb = strstr(in->text, " SB");
  if (!sass_op_is(in, "DEPBAR") || sb == NULL)
    return -1;
  const gchar *p = sb + 3;
  if (strcmp(in->mods, ".LE") != 0 || !g_ascii_isdigit(p[0]) || g_ascii_isdigit(p[1]))
    return -2;
  guint n = (guint)(*p++ - '0');
  while (*p == ' ')
    p++;
  if (*p++ != ',')
    return -2;
  while (*p == ' ')
    p++;
  gchar *end = NULL;
  guint64 k = g_ascii_isdigit(*p) ? g_ascii_strtoull(p, &end, 0) : G_MAXUINT64; /* "0x1", "1" */
  for (p = end; p != NULL && *p == ' '; p++)
    ;
  if (p != NULL && *p == ',') {
    for (p++; *p == ' '; p++)
      ;
    for (p = depbar_list(p, also); p != NULL && *p == ' '; p++)
      ;
  }
  if (p == NULL || *p != '\0' || n >= SASS_BARRIERS || k >= PROGRAM_CP_GROUPS)
    return -2;
  *keep = (guint)k;
  return (gint)n;
}

/* cp.async (results/reference/h200/real10/README.md, cpasync; matrix/cpasync.csv):
 * LDGSTS copies join the warp's open group, LDGDEPBAR closes it and sets its
 * write barrier n until all but k closed groups are done, k from the next
 * "DEPBAR.LE SBn, k" in the listing that waits on that barrier n.  A DEPBAR
 * naming a scoreboard in another form (depbar_wait) is SASSPROG_ERROR_INPUT. */
static gboolean mark_cp_async(const SassFunction *fn, guint i, Instr *out, GError **error) {
  const SassInstr *in = &fn->ins[i];
  guint keep = 0, also = 0;
  gint b = depbar_wait(in, &keep, &also);
  if (b == -2) {
    g_set_error(error, SASSPROG_ERROR, SASSPROG_ERROR_INPUT,
                "%s:%u: '%s': not 'DEPBAR.LE SBn, k' or 'DEPBAR.LE SBn, k, {a,b}' with "
                "barriers 0..%d and k 0..%d (the cp.async groups a warp's history keeps)",
                fn->file, in->line, in->text, SASS_BARRIERS - 1, PROGRAM_CP_GROUPS - 1);
    return FALSE;
  }
  if (b >= 0)
    out->wait_mask |= (guint8)(1u << b | also);
  if (sass_op_is(in, "LDGSTS"))
    out->cp_async = 1;
  if (sass_op_is(in, "UBLKCP")) {
    out->cp_async = 3;
    out->bytes = sassmem_bulk_bytes(fn, i);
  }
  if (sass_op_is(in, "SYNCS") && g_str_has_prefix(in->mods, ".PHASECHK"))
    out->cp_async = i + 1 < fn->n && fn->ins[i + 1].target == (gint64)in->offset ? 5 : 4;
  if (sass_op_is(in, "LDGDEPBAR")) {
    out->cp_async = 2;
    for (guint j = i + 1; j < fn->n; j++)
      if (depbar_wait(&fn->ins[j], &keep, &also) == (gint)out->sb_write) {
        out->cp_keep = (guint8)keep;
        break;
      }
  }
  return TRUE;
}

gboolean sass_ldc_indexed_timing(const SassKernel *sk, const SmModel *m, guint *latency,
                                 guint *interval) {
  const OpClassModel *cm = &m->opclass[OPCLASS_SPECIAL];
  *latency = *interval = 0;
  if (cm->indexed_interval == 0)
    return FALSE;
  *latency = cm->indexed_latency;
  *interval = cm->indexed_interval;
  guint n =
      MIN(cm->n_indexed_tables, MIN(cm->n_indexed_table_latency, cm->n_indexed_table_interval));
  if (sk == NULL || sk->constant_table_bytes == 0 || n == 0)
    return TRUE;
  guint i = 0;
  while (i + 1 < n && cm->indexed_table_bytes[i] < sk->constant_table_bytes)
    i++;
  *latency = cm->indexed_table_latency[i];
  *interval = cm->indexed_table_interval[i];
  return TRUE;
}

gboolean sass_ldc_indexed(const SassInstr *in) {
  for (guint s = 0; sass_op_is(in, "LDC") && s < in->n_src; s++)
    if (in->src[s].file == SASS_REG_R)
      return TRUE;
  return FALSE;
}

/* A TMA bulk copy (UBLKCP) moves the bytes of its size register, which the
 * listing gives only when a `UMOV URn, imm` before it sets that register
 * (sassmem_bulk_bytes); a size computed or loaded at run time (ULDC of a
 * kernel parameter) is timed as a copy of 0 bytes, its [bulk] latency
 * alone.  One warning names the first such copy executed, with the [bulk]
 * model on. */
static void warn_bulk_size(const SassKernel *sk, const SmModel *m, GString *warnings) {
  for (guint i = 0; warnings != NULL && m->bulk_latency[0] > 0 && i < sk->fn->n; i++) {
    const SassInstr *in = &sk->fn->ins[i];
    if (!sass_op_is(in, "UBLKCP") || sassmem_bulk_bytes(sk->fn, i) > 0 ||
        (sk->source && sassmem_executed(sk, i) <= 0))
      continue;
    g_string_append_printf(warnings,
                           "%s:%u: '%s': no 'UMOV URn, imm' before it sets the copy's size "
                           "register, so the listing does not give its bytes: timed as a copy "
                           "of 0 bytes ([bulk] latency alone, no L2 or DRAM bytes)\n",
                           sk->fn->file, in->line, in->text);
    return;
  }
}

/* An LDC whose constant-bank address has a general register (`LDC R12,
 * c[0x3][R12]`: a __constant__ array indexed per thread) is served once per
 * distinct address of the warp's lanes ("requests are split into as many
 * separate requests as there are different memory addresses in the initial
 * request": NVIDIA CUDA C++ Programming Guide, constant memory), and the
 * listing does not say how many there are.  With [class_special]
 * indexed_interval it is timed as that many cycles of the SM-wide
 * shared-memory unit (the model file's assumption: h200, 32 distinct
 * addresses that hit the constant cache), else as the one access of a
 * uniform LDC.  One warning names the first such LDC executed and what it
 * is timed as (results/reference/h200/real11/README.md, cdiv). */
static void warn_ldc_indexed(const SassKernel *sk, const SmModel *m, GString *warnings) {
  const OpClassModel *cm = &m->opclass[OPCLASS_SPECIAL];
  for (guint i = 0; warnings != NULL && i < sk->fn->n; i++) {
    const SassInstr *in = &sk->fn->ins[i];
    if (!sass_ldc_indexed(in) || (sk->source && sassmem_executed(sk, i) <= 0))
      continue;
    guint lat = 0, iv = 0;
    gboolean by_table = sk->constant_table_bytes > 0 && cm->n_indexed_tables > 0;
    if (sass_ldc_indexed_timing(sk, m, &lat, &iv) &&
        opclass_lookup(m->opclass, "LDC") == OPCLASS_SPECIAL) {
      g_autofree gchar *keys =
          by_table ? g_strdup_printf("indexed_table_* for [sass] constant_table_bytes %u",
                                     sk->constant_table_bytes)
                   : g_strdup("indexed_interval, indexed_latency");
      g_string_append_printf(warnings,
                             "%s:%u: '%s' indexes constant memory with a per-thread register: "
                             "the H200 serves it once per distinct address of the warp; timed "
                             "as %u cycles of the shared-memory unit and %u cycles of latency "
                             "([class_special] %s: what the model "
                             "assumes of the addresses, the listing cannot tell)\n",
                             sk->fn->file, in->line, in->text, iv, lat, keys);
    } else
      g_string_append_printf(warnings,
                             "%s:%u: '%s' indexes constant memory with a per-thread register: "
                             "the H200 serves it once per distinct address of the warp, warpsim "
                             "times it as one access (a divergent index is not modelled)\n",
                             sk->fn->file, in->line, in->text);
    return;
  }
}

gboolean sass_model_check(const SassFunction *fn, const SmModel *m, GString *warnings,
                          GError **error) {
  return sass_check_arch(fn, m->name, m->sm.cc_major, m->sm.cc_minor, warnings, error) &&
         model_has_classes(m, error);
}

Program *sass_program_new(const SassKernel *sk, const SmModel *m, GString *warnings,
                          GError **error) {
  const SassFunction *fn = sk->fn;
  g_autoptr(Program) p = g_new0(Program, 1);
  p->n = fn->n + 1;
  p->code = g_new0(Instr, p->n);
  p->exit_pc = fn->n;
  p->code[fn->n] = (Instr){.op = OP_EXIT,
                           .pipe = PIPE_NONE,
                           .dst = INSTR_NO_SLOT,
                           .ways = 1,
                           .sb_write = INSTR_NO_SB,
                           .sb_read = INSTR_NO_SB};
  if (!sassflow_check(sk, error))
    return NULL;
  g_autofree gdouble *taken = sassflow_taken_counts(sk);
  g_autoptr(GHashTable) warned = g_hash_table_new(g_str_hash, g_str_equal);
  guint counters = 0;
  for (guint i = 0; i < fn->n; i++) {
    const SassInstr *in = &fn->ins[i];
    Instr *out = &p->code[i];
    *out = (Instr){.dst = INSTR_NO_SLOT, .sb_write = INSTR_NO_SB, .sb_read = INSTR_NO_SB};
    for (guint k = 0; k < INSTR_MAX_SRC; k++)
      out->src[k] = INSTR_NO_SLOT;
    OpClass c = class_of(fn, in, m, warned, warnings);
    if (warnings && sass_op_is(in, "CALL") && sassmem_executed(sk, i) > 0 && sk->warps > 0)
      g_string_append_printf(warnings,
                             "%s:%u: '%s' runs %.2f times per warp in the profile: calls are not "
                             "followed (the subroutine's instructions are not simulated)\n",
                             fn->file, in->line, in->text, sassmem_executed(sk, i) / sk->warps);
    classify(sk, m, i, c, out);
    out->stall = in->ctrl.stall;
    out->yield = in->ctrl.yield == 0;
    out->wait_mask = in->ctrl.wait_mask;
    if (in->ctrl.write_sb < SASS_BARRIERS)
      out->sb_write = in->ctrl.write_sb;
    if (in->ctrl.read_sb < SASS_BARRIERS) {
      out->sb_read = in->ctrl.read_sb;
      out->read_latency = MAX(out->read_latency, 1);
    }
    if (!mark_cp_async(fn, i, out, error))
      return NULL;
    if (out->op == OP_FFMA)
      out->conflict = bank_conflict(in);
    if (((sass_is_branch(in) && in->target >= 0) || sassflow_guarded_exit(in)) &&
        !sassflow_branch(sk, i, taken, p->exit_pc, &counters, out, p, error))
      return NULL;
  }
  warn_atomics(sk, m, warnings);
  warn_ldc_indexed(sk, m, warnings);
  warn_bulk_size(sk, m, warnings);
  const gchar *why = NULL;
  if (!program_check(p, &why)) {
    g_set_error(error, SASSPROG_ERROR, SASSPROG_ERROR_INPUT, "%s: %s", fn->file, why);
    return NULL;
  }
  /* Warp instructions from entry to EXIT, from the profile when there is
   * one, else one warp's walk of the (checked) program. */
  if (sk->source && sk->warps > 0) {
    gdouble sum = 0;
    for (guint i = 0; i < fn->n; i++)
      sum += sassmem_executed(sk, i);
    p->warp_insts = (guint64)llround(sum / sk->warps);
    if (!sassflow_check_walk(sk, p, error))
      return NULL;
  } else {
    p->warp_insts = sassflow_walk_count(p);
  }
  return g_steal_pointer(&p);
}

void sass_kernel_free(SassKernel *sk) {
  if (sk == NULL)
    return;
  sass_function_free(sk->fn);
  if (sk->warnings != NULL)
    g_string_free(sk->warnings, TRUE);
  ncu_source_free(sk->source);
  ncu_details_free(sk->details);
  g_free(sk);
}
