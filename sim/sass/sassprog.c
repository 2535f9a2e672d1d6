/* sassprog.c - a SASS kernel as a Program (see sassprog.h). */
#include "sass/sassprog.h"

#include "core/mem.h"
#include "sass/sassmem.h"

#include <math.h>
#include <string.h>

G_DEFINE_QUARK(warpsim_sassprog_error, sassprog_error)

/* ---- what an instruction does ---------------------------------------------- */

/* A guarded EXIT: some warps leave here, the others go on. */
static gboolean is_guarded_exit(const SassInstr *in) {
  return sass_op_is(in, "EXIT") && (in->guard >= 0 || in->guard_neg);
}

/* Back edges before instruction j (all of them for j = fn->n). */
static guint loop_index(const SassFunction *fn, guint j) {
  guint k = 0;
  for (guint i = 0; i < j && i < fn->n; i++)
    k += sass_is_back_edge(&fn->ins[i]);
  return k;
}

/* Trips of the loop whose back edge is instruction j without a profile; 0 =
 * not given. */
static guint loop_trips(const SassKernel *sk, guint j) {
  if (sk->n_trip_counts == 1)
    return sk->trip_counts[0];
  guint k = loop_index(sk->fn, j);
  return k < sk->n_trip_counts ? sk->trip_counts[k] : 0;
}

/* Without a profile: one trip count for every loop, or one per loop. */
static gboolean check_trip_counts(const SassKernel *sk, GError **error) {
  guint loops = loop_index(sk->fn, sk->fn->n);
  if (sk->source != NULL || sk->n_trip_counts <= 1 || sk->n_trip_counts == loops)
    return TRUE;
  GString *lines = g_string_new(NULL);
  for (guint i = 0; i < sk->fn->n; i++)
    if (sass_is_back_edge(&sk->fn->ins[i]))
      g_string_append_printf(lines, "%s%u", lines->len ? ", " : "", sk->fn->ins[i].line);
  g_set_error(error, SASSPROG_ERROR, SASSPROG_ERROR_INPUT,
              "%s: [sass] trip_count gives %u counts but the function has %u loops (back edges "
              "at lines %s): give one count for every loop, or one per loop in address order",
              sk->fn->file, sk->n_trip_counts, loops, loops ? lines->str : "none");
  g_string_free(lines, TRUE);
  return FALSE;
}

SassKernel *sass_kernel_load(const gchar *file, const gchar *function, const gchar *source_csv,
                             const gchar *details_csv, const guint *trip_counts,
                             guint n_trip_counts, GError **error) {
  g_autoptr(SassKernel) sk = g_new0(SassKernel, 1);
  sk->n_trip_counts = MIN(n_trip_counts, G_N_ELEMENTS(sk->trip_counts));
  for (guint i = 0; i < sk->n_trip_counts; i++)
    sk->trip_counts[i] = trip_counts[i];
  sk->fn = sass_load(file, function, error);
  if (sk->fn == NULL)
    return NULL;
  g_autofree gchar *key = sass_name_key(sk->fn->demangled);
  if (source_csv && *source_csv) {
    sk->source = ncu_source_load(source_csv, key, error);
    if (sk->source == NULL || !ncu_source_check(sk->source, sk->fn, error))
      return NULL;
    sk->warps = sassmem_executed(sk, 0);
  }
  if (details_csv && *details_csv) {
    sk->details = ncu_details_load(details_csv, key, error);
    if (sk->details == NULL)
      return NULL;
  }
  if (!check_trip_counts(sk, error))
    return NULL;
  sassmem_derive(sk);
  return g_steal_pointer(&sk);
}

/* ---- the program ------------------------------------------------------------------ */

/* What other branches than `skip` bring to instruction `i`. */
static gdouble inflow(const SassFunction *fn, const gdouble *taken, guint i, guint skip) {
  gdouble sum = 0;
  for (guint k = 0; k < fn->n; k++)
    if (k != skip && sass_is_branch(&fn->ins[k]) &&
        fn->ins[k].target == (gint64)SASS_INSTR_BYTES * i)
      sum += taken[k];
  return sum;
}

/* A divergent if/else: the warp runs both sides, one after the other,
 * and the unconditional jump that closes the first side (over the second)
 * falls through into the second as often as the profile says it ran (its
 * count, less what the conditional branch and others bring to it).  So with
 * a profile an unconditional forward BRA is timed by the counts, as a
 * conditional one; in code that does not diverge nothing else reaches its
 * next instruction and it stays always taken. */
static gboolean closes_divergent_side(const SassKernel *sk, const SassInstr *in) {
  return sk->source != NULL && sass_is_branch(in) && sass_always(in) && in->target > in->offset;
}

/* What falls through from instruction i - 1 into i. */
static gdouble fall_into(const SassKernel *sk, const gdouble *taken, guint i) {
  const SassInstr *prev = i > 0 ? &sk->fn->ins[i - 1] : NULL;
  if (prev == NULL || ((sass_is_branch(prev) || sass_op_is(prev, "EXIT")) && sass_always(prev) &&
                       !closes_divergent_side(sk, prev)))
    return 0.0;
  return sassmem_executed(sk, i - 1) - taken[i - 1];
}

/* Taken count of every branch from the execution counts: what leaves a
 * branch and does not reach the next instruction was taken (the next
 * instruction's count, less what other branches bring to it).  Nsight
 * Compute counts a BSYNC more often than control reaches it (where threads
 * reconverge), so before a BSYNC the count at the target is used instead:
 * what reaches the target, less what falls into it and other branches. */
static gdouble *taken_counts(const SassKernel *sk) {
  const SassFunction *fn = sk->fn;
  gdouble *taken = g_new0(gdouble, fn->n);
  for (guint j = 0; j < fn->n; j++)
    if ((sass_is_branch(&fn->ins[j]) || is_guarded_exit(&fn->ins[j])) && sass_always(&fn->ins[j]))
      taken[j] = sassmem_executed(sk, j); /* the passes below revise closes_divergent_side ones */
  for (guint pass = 0; pass < 4; pass++)
    for (guint j = 0; j < fn->n; j++) {
      const SassInstr *in = &fn->ins[j];
      if (!(sass_is_branch(in) || is_guarded_exit(in)) ||
          (sass_always(in) && !closes_divergent_side(sk, in)) || sass_never(in))
        continue;
      gdouble t;
      gboolean next_bsync = j + 1 < fn->n && sass_op_is(&fn->ins[j + 1], "BSYNC");
      if (next_bsync && sass_is_branch(in) && in->target >= 0 &&
          in->target / SASS_INSTR_BYTES < fn->n) {
        guint tg = (guint)(in->target / SASS_INSTR_BYTES);
        t = sassmem_executed(sk, tg) - fall_into(sk, taken, tg) - inflow(fn, taken, tg, j);
      } else {
        gdouble into = j + 1 < fn->n ? sassmem_executed(sk, j + 1) : 0.0;
        t = sassmem_executed(sk, j) - MAX(into - inflow(fn, taken, j + 1, j), 0.0);
      }
      taken[j] = CLAMP(t, 0.0, sassmem_executed(sk, j));
    }
  return taken;
}

static guint64 gcd64(guint64 a, guint64 b) {
  while (b != 0) {
    guint64 t = a % b;
    a = b;
    b = t;
  }
  return a ? a : 1;
}

/* A conditional branch (or guarded EXIT) that leaves the loop [head, tail].
 * Not BRA.DIV or BRA.CONV: without a profile they fall through (sass.h), so
 * the loop's trip count belongs to its real exit, not to the jump to the
 * divergent fallback code. */
static gboolean leaves(const SassInstr *in, guint head, guint tail) {
  if (sass_always(in) || sass_never(in) || sass_tests_convergence(in))
    return FALSE;
  if (is_guarded_exit(in))
    return TRUE;
  return sass_is_branch(in) && in->target >= 0 &&
         (in->target < (gint64)SASS_INSTR_BYTES * head ||
          in->target > (gint64)SASS_INSTR_BYTES * tail);
}

/* The first branch out of the loop whose back edge is instruction t (from
 * its head on); t itself when no instruction leaves the loop. */
static guint first_exit(const SassFunction *fn, guint t) {
  guint head = (guint)(fn->ins[t].target / SASS_INSTR_BYTES), first = head;
  while (first < t && !leaves(&fn->ins[first], head, t))
    first++;
  return first;
}

/* Without a profile, a loop whose back edge always branches ends at its
 * first branch out: the back edge's index when instruction j is that
 * branch, else -1. */
static gint exit_of(const SassFunction *fn, guint j) {
  for (guint t = j + 1; t < fn->n; t++) {
    const SassInstr *b = &fn->ins[t];
    if (sass_is_back_edge(b) && sass_always(b) && (guint)(b->target / SASS_INSTR_BYTES) <= j &&
        first_exit(fn, t) == j)
      return (gint)t;
  }
  return -1;
}

/* A loop that always branches back and has no branch out: it would never end. */
static gboolean check_endless(const SassKernel *sk, GError **error) {
  const SassFunction *fn = sk->fn;
  for (guint t = 0; sk->source == NULL && t < fn->n; t++) {
    const SassInstr *b = &fn->ins[t];
    if (!sass_is_back_edge(b) || !sass_always(b) || first_exit(fn, t) != t)
      continue;
    guint head = (guint)(b->target / SASS_INSTR_BYTES);
    g_set_error(error, SASSPROG_ERROR, SASSPROG_ERROR_INPUT,
                "%s:%u: loop branch '%s' always branches back and no branch leaves the loop "
                "(lines %u..%u): without a profile it never ends (give source_csv)",
                fn->file, b->line, b->text, fn->ins[head].line, b->line);
    return FALSE;
  }
  return TRUE;
}

/* The successors of instruction i in the control-flow graph the program
 * walks (succ[], at most 2; fn->n stands for falling off the end, which
 * reaches no EXIT); *exits: it is an EXIT some warps may leave at.  An
 * unconditional branch has only its target edge (with a profile an
 * unconditional forward BRA that closes a divergent side also falls
 * through); a conditional one, BRA.DIV/BRA.CONV and a guarded EXIT both; an
 * unconditional EXIT none; @!PT never branches or exits.  Targets are
 * instructions of fn (check_targets). */
static guint successors(const SassKernel *sk, guint i, guint succ[2], gboolean *exits) {
  const SassInstr *in = &sk->fn->ins[i];
  *exits = sass_op_is(in, "EXIT") && !sass_never(in);
  if (sass_op_is(in, "EXIT") && sass_always(in))
    return 0;
  guint k = 0;
  if (sass_is_branch(in) && in->target >= 0 && !sass_never(in)) {
    succ[k++] = (guint)(in->target / SASS_INSTR_BYTES);
    if (sass_always(in) && !closes_divergent_side(sk, in))
      return k;
  }
  succ[k++] = i + 1;
  return k;
}

/* From every instruction reachable from the entry some EXIT is reachable:
 * else its warps would never end (a missing EXIT, or a loop that always
 * branches back to itself, ran until --timeout).  Linear in the listing:
 * one walk forward from the entry, one backward from the EXITs. */
static gboolean check_exit_reachable(const SassKernel *sk, GError **error) {
  const SassFunction *fn = sk->fn;
  guint n = fn->n, succ[2], m = 0;
  gboolean exits;
  g_autofree guint *first = g_new0(guint, n + 3); /* predecessors of j: pred[first[j]..] */
  g_autofree guint *pred = g_new(guint, 2 * n);
  g_autofree guint *stack = g_new(guint, n + 1);
  g_autofree guint8 *seen = g_new0(guint8, n + 1); /* bit 0: from the entry; bit 1: to an EXIT */
  gboolean any_exit = FALSE;
  for (guint i = 0; i < n; i++)
    for (guint k = 0, c = successors(sk, i, succ, &exits); k < c; k++)
      first[succ[k] + 2]++;
  for (guint j = 0; j <= n; j++)
    first[j + 2] += first[j + 1];
  for (guint i = 0; i < n; i++)
    for (guint k = 0, c = successors(sk, i, succ, &exits); k < c; k++)
      pred[first[succ[k] + 1]++] = i;
  stack[m++] = 0;
  seen[0] = 1;
  while (m > 0) {
    guint i = stack[--m];
    for (guint k = 0, c = i < n ? successors(sk, i, succ, &exits) : 0; k < c; k++)
      if (!(seen[succ[k]] & 1)) {
        seen[succ[k]] |= 1;
        stack[m++] = succ[k];
      }
  }
  for (guint i = 0; i < n; i++) {
    successors(sk, i, succ, &exits);
    any_exit |= exits;
    if (exits) {
      seen[i] |= 2;
      stack[m++] = i;
    }
  }
  while (m > 0) {
    guint j = stack[--m];
    for (guint k = first[j]; k < first[j + 1]; k++)
      if (!(seen[pred[k]] & 2)) {
        seen[pred[k]] |= 2;
        stack[m++] = pred[k];
      }
  }
  guint i = 0;
  while (i < n && seen[i] != 1)
    i++;
  if (i == n)
    return TRUE;
  /* Name the trap: from i on, falling through where it can, the instruction
   * that leads back to one already met (a loop without a way out), or the
   * last instruction when the walk runs past it.  What an instruction that
   * reaches no EXIT leads to reaches none either (and it is no
   * unconditional EXIT: it has a successor). */
  guint next;
  for (seen[i] |= 4;; seen[i] |= 4, i = next) {
    next = succ[successors(sk, i, succ, &exits) - 1];
    if (next == n || (seen[next] & 4))
      break;
  }
  const SassInstr *at = &fn->ins[i];
  g_autofree gchar *what =
      !any_exit ? g_strdup_printf("%s: function '%s' has no EXIT", fn->file, fn->name)
                : g_strdup_printf(
                      "%s:%u: no EXIT is reachable from '%s' (%s)", fn->file, at->line, at->text,
                      next == n ? "it runs past the last instruction" : "a loop without a way out");
  g_set_error(error, SASSPROG_ERROR, SASSPROG_ERROR_INPUT,
              "%s: its warps would never end (every instruction reachable from the entry needs a "
              "path to an EXIT)",
              what);
  return FALSE;
}

/* The missing-trip-count error for the loop whose back edge is instruction t. */
static gboolean no_trips(const SassKernel *sk, guint t, GError **error) {
  const SassInstr *in = &sk->fn->ins[t];
  g_set_error(error, SASSPROG_ERROR, SASSPROG_ERROR_INPUT,
              "%s:%u: loop branch '%s' and no profile: set [sass] trip_count (one count, or one "
              "per loop: this is loop %u of %u) or source_csv",
              sk->fn->file, in->line, in->text, loop_index(sk->fn, t) + 1,
              loop_index(sk->fn, sk->fn->n));
  return FALSE;
}

/* The branch outcome of instruction j as (fall, trips) Bresenham terms;
 * *init gets the initial value of its counter (0: taken first). */
static gboolean branch_terms(const SassKernel *sk, guint j, const gdouble *taken, Instr *out,
                             guint32 *init, GError **error) {
  *init = 0;
  const SassInstr *in = &sk->fn->ins[j];
  gboolean backward = in->target >= 0 && in->target <= in->offset;
  if (sass_always(in) && !closes_divergent_side(sk, in)) {
    out->fall = 0;
    out->trips = G_MAXUINT32; /* always taken */
    return TRUE;
  }
  if (sass_never(in)) {
    out->fall = out->trips = 1;
    return TRUE;
  }
  gdouble e = sassmem_executed(sk, j);
  gint loop = sk->source == NULL && !backward ? exit_of(sk->fn, j) : -1;
  if (loop >= 0) { /* leaves after `trips` trips: falls trips - 1 times first */
    guint trips = loop_trips(sk, (guint)loop);
    if (trips == 0)
      return no_trips(sk, (guint)loop, error);
    out->fall = trips - 1;
    out->trips = trips;
    *init = trips - 1;
    return TRUE;
  }
  if (sk->source == NULL || e <= 0) {
    if (sk->source == NULL && backward) {
      guint trips = loop_trips(sk, j);
      if (trips == 0)
        return no_trips(sk, j, error);
      out->fall = 1;
      out->trips = trips;
      return TRUE;
    }
    out->fall = out->trips = 1; /* forward, or never reached: not taken */
    return TRUE;
  }
  gdouble fall = e - taken[j];
  if (fall <= 0) {
    out->fall = 0;
    out->trips = G_MAXUINT32;
    return TRUE;
  }
  guint64 a = (guint64)llround(fall), b = (guint64)llround(e);
  guint64 g = gcd64(a, b);
  a /= g;
  b /= g;
  if (b > (1u << 24)) { /* keep the counter small: ratio to 1 part in 2^20 */
    a = MAX(1, (guint64)llround((gdouble)a / (gdouble)b * (1u << 20)));
    b = 1u << 20;
  }
  out->fall = (guint32)MIN(a, b);
  out->trips = (guint32)b;
  return TRUE;
}

/* A shared-memory load or store: wavefronts per request from the profile,
 * else one per 4 bytes per thread moved. */
static void classify_shared(const SassInstr *in, const NcuInstr *p, const OpClassModel *cm,
                            Instr *out) {
  gboolean load = sass_op_is(in, "LDS") || sass_op_is(in, "LDSM");
  out->op = load ? OP_LDS : OP_STS;
  out->pipe = PIPE_SMEM;
  gdouble ways = sassmem_width_bytes(in) > 4 ? sassmem_width_bytes(in) / 4.0 : 1.0;
  if (p && p->executed > 0 && p->smem_wavefronts > 0)
    ways = (gdouble)p->smem_wavefronts / (gdouble)p->executed;
  out->ways = (guint16)CLAMP(lround(ways), 1, 64);
  out->read_latency = (guint8)MIN(cm->read_latency, 255u);
}

/* A global, local or atomic access: sectors and lines per request, where
 * its data comes from, DRAM row locality. */
static void classify_global(const SassKernel *sk, const SmModel *m, guint i, const OpClassModel *cm,
                            Instr *out) {
  const SassInstr *in = &sk->fn->ins[i];
  const NcuInstr *p = sk->source ? &sk->source->ins[i] : NULL;
  SassAccess a = sassmem_access(in, p);
  gdouble sectors = sassmem_sectors(sk, i);
  gboolean scattered = sassmem_scattered(sk, i);
  out->scattered = (guint8)scattered;
  out->pipe = PIPE_LSU;
  out->l1tex = a != SASS_ACC_NONE;
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
  if (!scattered && (a == SASS_ACC_LOAD || a == SASS_ACC_STORE) && !sassmem_barrier_synced(sk, i)) {
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
    out->lane_bytes = (guint16)sassmem_width_bytes(in);
    out->sequential = TRUE;
    out->line_cost = 0;
    out->scattered = 0;
    break;
  case SASS_ACC_NONE:
    out->op = OP_MISC;
    out->pipe = PIPE_NONE;
    break;
  }
}

/* The op, pipe and timing of one instruction of class `c`. */
static void classify(const SassKernel *sk, const SmModel *m, guint i, OpClass c, Instr *out) {
  const SassInstr *in = &sk->fn->ins[i];
  const NcuInstr *p = sk->source ? &sk->source->ins[i] : NULL;
  const OpClassModel *cm = &m->opclass[c];
  out->latency = (guint16)MIN(cm->latency, 65535u);
  out->interval = (guint8)MIN(cm->interval, 255u);
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
    out->op = OP_SHFL;
    out->pipe = PIPE_SMEM;
    break;
  case OPCLASS_SHARED:
    classify_shared(in, p, cm, out);
    break;
  case OPCLASS_GLOBAL:
    classify_global(sk, m, i, cm, out);
    break;
  case OPCLASS_CONTROL:
    if (sass_is_cta_barrier(in))
      out->op = OP_BAR;
    else if (sass_op_is(in, "EXIT") && sass_always(in))
      out->op = OP_EXIT;
    break;
  case OPCLASS_SPECIAL:
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

/* Instruction i, a branch or a guarded EXIT, as OP_BRA: its target (exit_pc when outside
 * the function), taken/fall terms and a branch counter from *counters.
 * FALSE with SASSPROG_ERROR_INPUT past PROGRAM_MAX_COUNTERS - 1 conditional
 * branches or on inconsistent profile counts. */
static gboolean branch_of(const SassKernel *sk, guint i, const gdouble *taken, guint exit_pc,
                          guint *counters, Instr *out, guint32 *counter_init, GError **error) {
  const SassFunction *fn = sk->fn;
  const SassInstr *in = &fn->ins[i];
  out->op = OP_BRA;
  out->pipe = PIPE_NONE;
  out->has_branch = 1;
  gint64 t = sass_is_branch(in) ? in->target / SASS_INSTR_BYTES : (gint64)exit_pc;
  out->target = t >= 0 && t < (gint64)fn->n ? (guint32)t : exit_pc;
  guint32 init = 0;
  if (!branch_terms(sk, i, taken, out, &init, error))
    return FALSE;
  if (out->fall == 0) {
    out->counter = PROGRAM_MAX_COUNTERS - 1; /* always taken: a shared counter */
  } else if (*counters + 1 >= PROGRAM_MAX_COUNTERS) {
    g_set_error(error, SASSPROG_ERROR, SASSPROG_ERROR_INPUT,
                "%s:%u: more than %d conditional branches (not supported)", fn->file, in->line,
                PROGRAM_MAX_COUNTERS - 1);
    return FALSE;
  } else {
    out->counter = (guint8)(*counters)++;
    counter_init[out->counter] = init;
  }
  return TRUE;
}

/* Every branch target is an instruction of fn: a target between two
 * instructions or past the end sends warps nowhere (0x8 from 0x0 went round
 * instruction 0 forever). */
static gboolean check_targets(const SassFunction *fn, GError **error) {
  for (guint i = 0; i < fn->n; i++) {
    const SassInstr *in = &fn->ins[i];
    if (sass_is_branch(in) && in->target >= 0 &&
        (in->target % SASS_INSTR_BYTES != 0 || in->target / SASS_INSTR_BYTES >= fn->n)) {
      g_set_error(error, SASSPROG_ERROR, SASSPROG_ERROR_INPUT,
                  "%s:%u: branch target 0x%" G_GINT64_MODIFIER "x is not an instruction of '%s' "
                  "(allowed a multiple of 0x10 in 0x0..0x%x)",
                  fn->file, in->line, in->target, fn->name, SASS_INSTR_BYTES * (fn->n - 1));
      return FALSE;
    }
  }
  return TRUE;
}

/* Global atomics (RED, ATOM) are timed as L2 writes at the L2's bandwidth:
 * when they are 1 % or more of the profile's warp instructions (or there is
 * no profile), one warning names the first, since atomics many threads aim
 * at one address serialize in L2, which the model has no addresses to see
 * (results/reference/h200/real5: a 256-bin histogram in global memory ran at
 * 0.0157 B/cycle/SM on the H200, about 110 times slower than simulated). */
static void warn_atomics(const SassKernel *sk, GString *warnings) {
  gdouble atomics = 0, all = 0;
  gint first = -1;
  for (guint i = 0; i < sk->fn->n; i++) {
    const NcuInstr *p = sk->source ? &sk->source->ins[i] : NULL;
    gdouble e = sk->source ? sassmem_executed(sk, i) : 1.0;
    all += e;
    if (sassmem_access(&sk->fn->ins[i], p) == SASS_ACC_ATOMIC && e > 0) {
      atomics += e;
      first = first < 0 ? (gint)i : first;
    }
  }
  if (warnings == NULL || first < 0 || (sk->source && atomics < 0.01 * all))
    return;
  const SassInstr *in = &sk->fn->ins[first];
  g_string_append_printf(warnings,
                         "%s:%u: '%s': global atomics (%.1f %% of the warp instructions) are timed "
                         "as L2 writes; atomics on one address serialize in L2, which is not "
                         "modelled (a histogram in global memory can run 100x slower)\n",
                         sk->fn->file, in->line, in->text, all > 0 ? 100.0 * atomics / all : 0.0);
}

/* One warp's walk of the program from its entry (every warp branches alike,
 * by the counters): the instructions before EXIT, stopped at `budget`
 * (then `budget`); with `visits` (p->n entries, zeroed), each pc's count. */
static guint64 walk(const Program *p, guint64 budget, guint64 *visits) {
  guint32 counters[PROGRAM_MAX_COUNTERS];
  memcpy(counters, p->counter_init, sizeof counters);
  guint64 n = 0;
  for (guint pc = p->entry; n < budget && p->code[pc].op != OP_EXIT; n++) {
    if (visits != NULL)
      visits[pc]++;
    pc = program_next_pc(&p->code[pc], pc, counters);
  }
  return n;
}

/* Warp instructions from entry to EXIT without a profile: one warp's walk
 * of the program (every warp branches alike, by the counters), stopped at
 * 2^28 (then a lower bound; the walk takes about half a second there):
 * what cli_run.c's long-run note estimates from, so that nested loops with
 * large trip counts are announced, not mistaken for a hang. */
static guint64 walk_count(const Program *p) {
  return walk(p, 1u << 28, NULL) + 1;
}

/* With a profile: one warp's walk of the program (every warp branches
 * alike, by the counters) must reach EXIT within 4x the warp instructions
 * the profile executed per warp, plus 4096.  Counts that do not add up (a
 * BAR after a loop branch counted 0 makes the branch always taken) would
 * otherwise loop until --max-cycles or --timeout.  FALSE with
 * SASSPROG_ERROR_INPUT naming the loop branch walked most often against
 * its own count. */
static gboolean check_walk(const SassKernel *sk, const Program *p, GError **error) {
  const SassFunction *fn = sk->fn;
  guint64 budget = 4 * p->warp_insts + 4096;
  g_autofree guint64 *visits = g_new0(guint64, p->n);
  guint64 n = walk(p, budget, visits);
  if (n < budget)
    return TRUE;
  guint worst = 0;
  gdouble worst_ratio = -1;
  for (guint i = 0; i < fn->n; i++) {
    gdouble per_warp = sassmem_executed(sk, i) / sk->warps;
    gdouble ratio = (gdouble)visits[i] / MAX(per_warp, 1.0);
    if (sass_is_back_edge(&fn->ins[i]) && ratio > worst_ratio) {
      worst = i;
      worst_ratio = ratio;
    }
  }
  g_set_error(
      error, SASSPROG_ERROR, SASSPROG_ERROR_INPUT,
      "%s:%u: the profile's counts do not add up: a warp walking them passes %" G_GUINT64_FORMAT
      " warp instructions without reaching EXIT where the profile executed %" G_GUINT64_FORMAT
      " per warp; '%s' ran %" G_GUINT64_FORMAT " times against %.0f in the profile "
      "(allowed: counts as Nsight Compute exported them)",
      fn->file, fn->ins[worst].line, n, p->warp_insts, fn->ins[worst].text, visits[worst],
      sassmem_executed(sk, worst) / sk->warps);
  return FALSE;
}

Program *sass_program_new(const SassKernel *sk, const SmModel *m, GString *warnings,
                          GError **error) {
  const SassFunction *fn = sk->fn;
  if (m->opclass[OPCLASS_FP32].opcodes == NULL || *m->opclass[OPCLASS_FP32].opcodes == '\0') {
    g_set_error(error, SASSPROG_ERROR, SASSPROG_ERROR_INPUT,
                "%s: [class_fp32] opcodes: the model has no opcode classes (needed to simulate "
                "SASS kernels; models/h200.ini has them)",
                m->file);
    return NULL;
  }
  if (!check_targets(fn, error))
    return NULL;
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
  if (!check_endless(sk, error) || !check_exit_reachable(sk, error))
    return NULL;
  g_autofree gdouble *taken = taken_counts(sk);
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
    out->wait_mask = in->ctrl.wait_mask;
    if (in->ctrl.write_sb < SASS_BARRIERS)
      out->sb_write = in->ctrl.write_sb;
    if (in->ctrl.read_sb < SASS_BARRIERS) {
      out->sb_read = in->ctrl.read_sb;
      out->read_latency = MAX(out->read_latency, 1);
    }
    if (out->op == OP_FFMA)
      out->conflict = bank_conflict(in);
    if (((sass_is_branch(in) && in->target >= 0) || is_guarded_exit(in)) &&
        !branch_of(sk, i, taken, p->exit_pc, &counters, out, p->counter_init, error))
      return NULL;
  }
  warn_atomics(sk, warnings);
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
    if (!check_walk(sk, p, error))
      return NULL;
  } else {
    p->warp_insts = walk_count(p);
  }
  return g_steal_pointer(&p);
}

void sass_kernel_free(SassKernel *sk) {
  if (sk == NULL)
    return;
  sass_function_free(sk->fn);
  ncu_source_free(sk->source);
  ncu_details_free(sk->details);
  g_free(sk);
}
