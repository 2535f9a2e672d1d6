/* sassflow.c - the control flow of a SASS kernel (see sassflow.h). */
#include "sass/sassflow.h"

#include "sass/sassmem.h"

#include <math.h>
#include <string.h>

/* sassflow_guarded_exit: see sassflow.h. */
gboolean sassflow_guarded_exit(const SassInstr *in) {
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

/* sassflow_check_trip_counts: see sassflow.h. */
gboolean sassflow_check_trip_counts(const SassKernel *sk, GError **error) {
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

/* The branches to each instruction 0..fn->n, in address order: those to i
 * are from[first[i]..first[i + 1]).  Built once, so that what branches
 * bring to an instruction (inflow) costs its branches, not a scan of the
 * listing: the scan per branch made 20,000 branches in 60,000 instructions
 * take 34 s before the run began, --timeout unheeded. */
typedef struct {
  guint *first; /* fn->n + 2 entries */
  guint *from;
} Inflows;

static void inflows_init(const SassFunction *fn, Inflows *f) {
  guint n = fn->n;
  f->first = g_new0(guint, n + 2);
  f->from = g_new(guint, MAX(n, 1u));
  for (guint pass = 0; pass < 2; pass++) {
    for (guint k = 0; k < n; k++) {
      const SassInstr *in = &fn->ins[k];
      if (!sass_is_branch(in) || in->target < 0 || in->target % SASS_INSTR_BYTES != 0 ||
          in->target / SASS_INSTR_BYTES > n)
        continue;
      guint i = (guint)(in->target / SASS_INSTR_BYTES);
      if (pass == 0)
        f->first[i + 1]++;
      else
        f->from[f->first[i]++] = k;
    }
    if (pass == 0)
      for (guint i = 0; i <= n; i++)
        f->first[i + 1] += f->first[i];
  }
  for (guint i = n + 1; i > 0; i--) /* first[i] ran to first[i + 1]: back one place */
    f->first[i] = f->first[i - 1];
  f->first[0] = 0;
}

static void inflows_clear(Inflows *f) {
  g_free(f->first);
  g_free(f->from);
}

/* What other branches than `skip` bring to instruction `i` (summed in
 * address order). */
static gdouble inflow(const Inflows *f, const gdouble *taken, guint i, guint skip) {
  gdouble sum = 0;
  for (guint e = f->first[i]; e < f->first[i + 1]; e++)
    if (f->from[e] != skip)
      sum += taken[f->from[e]];
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

/* sassflow_split_exit_margin: see sassflow.h. */
const gdouble sassflow_split_exit_margin = 1.05;

/* A loop whose warps split inside it (a CAS retry loop's YIELD lets the lanes
 * that succeeded go on without the others: real11's cas, BSYNC 228,007 times
 * for 4,224 warps) is left by each part of a warp on its own, so its back
 * edge falls through more often than warps enter it (cas: 19,356 exits for
 * 4,224 entries) and the exit count would make a warp leave after 12.8 of
 * the 58.5 trips the loop's head was executed per warp.  When the exits
 * exceed the entries (fall into the head plus other branches to it) by more
 * than sassflow_split_exit_margin, the back edge is taken so that a warp
 * runs the head as often as the profile counts: falls = executed x entries
 * / head.  A loop without divergence has exits = entries (a break: fewer). */
static void split_loops(const SassKernel *sk, const Inflows *fl, gdouble *taken) {
  const SassFunction *fn = sk->fn;
  for (guint j = 0; j < fn->n; j++) {
    const SassInstr *in = &fn->ins[j];
    if (!sass_is_back_edge(in) || sass_always(in))
      continue;
    guint h = (guint)(in->target / SASS_INSTR_BYTES);
    gdouble e = sassmem_executed(sk, j), head = sassmem_executed(sk, h);
    gdouble entries = fall_into(sk, taken, h) + inflow(fl, taken, h, j);
    if (entries <= 0 || head <= entries || e - taken[j] <= sassflow_split_exit_margin * entries)
      continue;
    taken[j] = CLAMP(e * (1.0 - entries / head), 0.0, e);
  }
}

/* sassflow_taken_counts: see sassflow.h. */
gdouble *sassflow_taken_counts(const SassKernel *sk) {
  const SassFunction *fn = sk->fn;
  gdouble *taken = g_new0(gdouble, fn->n);
  Inflows fl;
  inflows_init(fn, &fl);
  for (guint j = 0; j < fn->n; j++)
    if ((sass_is_branch(&fn->ins[j]) || sassflow_guarded_exit(&fn->ins[j])) &&
        sass_always(&fn->ins[j]))
      taken[j] = sassmem_executed(sk, j); /* the passes below revise closes_divergent_side ones */
  for (guint pass = 0; pass < 4; pass++)
    for (guint j = 0; j < fn->n; j++) {
      const SassInstr *in = &fn->ins[j];
      if (!(sass_is_branch(in) || sassflow_guarded_exit(in)) ||
          (sass_always(in) && !closes_divergent_side(sk, in)) || sass_never(in))
        continue;
      gdouble t;
      gboolean next_bsync = j + 1 < fn->n && sass_op_is(&fn->ins[j + 1], "BSYNC");
      if (next_bsync && sass_is_branch(in) && in->target >= 0 &&
          in->target / SASS_INSTR_BYTES < fn->n) {
        guint tg = (guint)(in->target / SASS_INSTR_BYTES);
        t = sassmem_executed(sk, tg) - fall_into(sk, taken, tg) - inflow(&fl, taken, tg, j);
      } else {
        gdouble into = j + 1 < fn->n ? sassmem_executed(sk, j + 1) : 0.0;
        t = sassmem_executed(sk, j) - MAX(into - inflow(&fl, taken, j + 1, j), 0.0);
      }
      taken[j] = CLAMP(t, 0.0, sassmem_executed(sk, j));
    }
  split_loops(sk, &fl, taken);
  inflows_clear(&fl);
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
  if (sassflow_guarded_exit(in))
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

/* Whether the later warps of a CTA take role branch i: the ISETP that last
 * sets its guard compares a value that grows with the warp's index (a thread
 * or warp index: the profile cannot say) with .GE, .GT or .NE (true for the
 * later warps) or .LT, .LE or .EQ (for the first), inverted by @!P.  FALSE,
 * the first warps, when no ISETP sets it (real13's wspec: 'ISETP.GE.U32.AND
 * P0, PT, R22, 0x40' of tid, '@!P0 BRA': warps 0-1 take it; real3's reduce
 * and real9's rowsm skip their warp-0 tail by '@P0 BRA' of an .NE: warps
 * 1-3 take it). */
static gboolean role_upper(const SassFunction *fn, guint i) {
  const SassInstr *br = &fn->ins[i];
  if (br->guard < 0 || br->guard_file != SASS_REG_P)
    return FALSE;
  for (guint j = i; j-- > 0;) {
    const SassInstr *s = &fn->ins[j];
    gboolean sets = FALSE;
    for (guint d = 0; d < s->n_dst; d++)
      sets |= s->dst[d].file == SASS_REG_P && s->dst[d].index == (guint8)br->guard;
    if (!sets)
      continue;
    if (!sass_op_is(s, "ISETP"))
      return FALSE;
    gboolean large = strstr(s->mods, ".GE") || strstr(s->mods, ".GT") || strstr(s->mods, ".NE");
    gboolean small = strstr(s->mods, ".LT") || strstr(s->mods, ".LE") || strstr(s->mods, ".EQ");
    return large != small && large != br->guard_neg;
  }
  return FALSE;
}

/* A forward branch that every warp reaches once (the profile executes it
 * as often as warps ran, to 0.5 %) and that some take, some not, splits
 * the CTA's warps by role (sassflow.h): the Bresenham counter alone would
 * send every warp the same way first (real13's wspec: its producer warps
 * 0-1 and consumer warps 2-3 all ran the producer loop). */
static void role_split(const SassKernel *sk, guint i, const gdouble *taken, const Instr *out,
                       Program *p) {
  const SassInstr *in = &sk->fn->ins[i];
  gdouble e = sassmem_executed(sk, i);
  if (sk->source == NULL || !sass_is_branch(in) || in->target <= (gint64)in->offset ||
      sk->warps <= 0 || fabs(e - sk->warps) > 0.005 * sk->warps || taken[i] <= 0 || taken[i] >= e ||
      p->n_roles >= PROGRAM_MAX_COUNTERS)
    return;
  ProgramRole *r = &p->roles[p->n_roles++];
  r->counter = out->counter;
  r->fall_init = out->trips - out->fall; /* + fall reaches trips: falls through */
  r->taken = taken[i] / e;
  r->upper = role_upper(sk->fn, i);
}

/* sassflow_branch: see sassflow.h. */
gboolean sassflow_branch(const SassKernel *sk, guint i, const gdouble *taken, guint exit_pc,
                         guint *counters, Instr *out, Program *p, GError **error) {
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
  } else if (out->fall == out->trips && init == 0) {
    /* never taken (the listing's guard, or a profile that counts no taken
     * execution): the counter gains `trips` and loses it at once, so it stays
     * 0; one shared counter serves them all (cooperative_groups' cluster.sync
     * has two such branches, unrolled 32 times in real12's dsmem: 128) */
    out->counter = PROGRAM_MAX_COUNTERS - 2;
  } else if (*counters + 2 >= PROGRAM_MAX_COUNTERS) {
    g_set_error(error, SASSPROG_ERROR, SASSPROG_ERROR_INPUT,
                "%s:%u: more than %d conditional branches that are taken at times (not "
                "supported)",
                fn->file, in->line, PROGRAM_MAX_COUNTERS - 2);
    return FALSE;
  } else {
    out->counter = (guint8)(*counters)++;
    p->counter_init[out->counter] = init;
    role_split(sk, i, taken, out, p);
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

/* One warp's walk of the program from its entry (every warp branches alike,
 * by the counters from p->counter_init: a role branch as the warps that
 * take it): the instructions before EXIT, stopped at `budget`
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

/* The longest walk (sassflow_walk_count, sassflow_check_walk): about half
 * a second. */
#define WALK_MAX (G_GUINT64_CONSTANT(1) << 28)

/* sassflow_walk_count: see sassflow.h. */
guint64 sassflow_walk_count(const Program *p) {
  return walk(p, WALK_MAX, NULL) + 1;
}

/* sassflow_check_walk: see sassflow.h. */
gboolean sassflow_check_walk(const SassKernel *sk, const Program *p, GError **error) {
  const SassFunction *fn = sk->fn;
  guint64 budget = 4 * p->warp_insts + 4096;
  g_autofree guint64 *visits = g_new0(guint64, p->n);
  guint64 n = walk(p, MIN(budget, WALK_MAX), visits);
  /* at EXIT, or counts too large to walk: --max-cycles and --timeout bound the run */
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

/* sassflow_check: see sassflow.h. */
gboolean sassflow_check(const SassKernel *sk, GError **error) {
  return check_targets(sk->fn, error) && check_endless(sk, error) &&
         check_exit_reachable(sk, error);
}
