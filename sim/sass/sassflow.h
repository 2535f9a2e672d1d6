/* sassflow.h - the control flow of a [sass] kernel, for sassprog.c: loops
 * and their trip counts, the taken counts of branches from the profile's
 * execution counts, each branch's Bresenham terms, and the checks that
 * every warp reaches EXIT (branch targets, endless loops, reachability, a
 * walk against the profile's counts).  The model is described in
 * sassprog.h ("Control flow").  Errors: SASSPROG_ERROR_INPUT.
 */
#ifndef WARPSIM_SASSFLOW_H
#define WARPSIM_SASSFLOW_H

#include "core/program.h"
#include "sass/sass.h"
#include "sass/sassprog.h"

#include <glib.h>

/* A guarded EXIT: some warps leave here, the others go on. */
gboolean sassflow_guarded_exit(const SassInstr *in);

/* Without a profile: one trip count for every loop, or one per loop.
 * FALSE with SASSPROG_ERROR_INPUT naming the back edges otherwise. */
gboolean sassflow_check_trip_counts(const SassKernel *sk, GError **error);

/* Every branch target is an instruction, no loop runs endless, and an EXIT
 * is reachable from every instruction the entry reaches.  FALSE with
 * SASSPROG_ERROR_INPUT naming the first problem. */
gboolean sassflow_check(const SassKernel *sk, GError **error);

/* Taken count of every branch from the execution counts: what leaves a
 * branch and does not reach the next instruction was taken (the next
 * instruction's count, less what other branches bring to it).  Nsight
 * Compute counts a BSYNC more often than control reaches it (where threads
 * reconverge), so before a BSYNC the count at the target is used instead:
 * what reaches the target, less what falls into it and other branches.
 * A loop back edge that falls through more than sassflow_split_exit_margin
 * times as often as warps enter its loop (the warps split inside it, each
 * part leaving on its own: a CAS retry loop with YIELD) is taken so that a
 * warp runs the loop's head as often as the profile counts per warp.
 * Returns fn->n counts (g_free). */
gdouble *sassflow_taken_counts(const SassKernel *sk);

/* The exits-per-entry ratio above which a loop is taken to split its warps
 * (1.05: a convergent loop has exactly one exit per entry, a loop with a
 * break fewer; a warp that splits now and then, under 5 % more exits, keeps
 * the exit-count reading; cas has 4.58). */
extern const gdouble sassflow_split_exit_margin;

/* Instruction i, a branch or a guarded EXIT, as OP_BRA: its target (exit_pc
 * when outside the function), taken/fall terms and a branch counter from
 * *counters (a branch always taken shares counter PROGRAM_MAX_COUNTERS - 1,
 * one never taken PROGRAM_MAX_COUNTERS - 2, which stays 0), its initial
 * value in p->counter_init.  With a source profile, a forward branch that
 * it executes once per warp (to 0.5 %) and that some warps take, others
 * not, is a warp role (p->roles, ProgramRole): round(taken share x warps)
 * of each CTA's warps take it, the others fall through.  The profile does
 * not say which warps; the ISETP that sets the branch's guard does: the
 * first ones by index (`if (threadIdx.x < n)`: .LT, .LE, .EQ), the last
 * (`upper`: .GE, .GT, .NE), inverted by a negated guard; the first when no
 * ISETP sets it.  `p` is the caller's, being built: this writes its
 * counter_init and roles.
 * FALSE with SASSPROG_ERROR_INPUT past PROGRAM_MAX_COUNTERS - 2 conditional
 * branches that are taken at times, or on inconsistent profile counts. */
gboolean sassflow_branch(const SassKernel *sk, guint i, const gdouble *taken, guint exit_pc,
                         guint *counters, Instr *out, Program *p, GError **error);

/* Warp instructions from entry to EXIT without a profile: one warp's walk
 * of the program (every warp branches alike, by the counters), stopped at
 * 2^28 (then a lower bound; the walk takes about half a second there):
 * what cli_run.c's long-run note estimates from, so that nested loops with
 * large trip counts are announced, not mistaken for a hang. */
guint64 sassflow_walk_count(const Program *p);

/* With a profile: one warp's walk of the program (every warp branches
 * alike, by the counters; a role branch as the warps that take it, from
 * p->counter_init) must reach EXIT within 4x the warp instructions
 * the profile executed per warp, plus 4096.  Counts that do not add up (a
 * BAR after a loop branch counted 0 makes the branch always taken) would
 * otherwise loop until --max-cycles or --timeout.  The walk stops at 2^28
 * instructions (as sassflow_walk_count's): a profile that executes more
 * per warp passes unwalked, and the run's --max-cycles and --timeout bound
 * it (a loop head counted 2^53 walked 8.5e12 steps, for hours).  FALSE with
 * SASSPROG_ERROR_INPUT naming the loop branch walked most often against
 * its own count. */
gboolean sassflow_check_walk(const SassKernel *sk, const Program *p, GError **error);

#endif
