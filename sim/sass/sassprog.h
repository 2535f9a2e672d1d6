/* sassprog.h - a real kernel from its SASS listing and one Nsight Compute
 * profile, as a Program every warp walks (program.h).
 *
 * Control flow (sassflow.h): basic blocks and loops follow from branch targets.  Each
 * conditional branch's taken ratio comes from the profile's per-instruction
 * execution counts (the flow into and out of the branch); every warp
 * reproduces it deterministically with its own Bresenham counter, taken
 * first.  Without a profile a backward branch loops `trip_count` times (one
 * count for every loop, or one per loop in address order) and a forward
 * branch is not taken, except the first conditional branch out of a loop
 * whose back edge always branches: it leaves after `trip_count` trips.  Branches are warp-uniform:
 * divergence is approximated by the ratio itself (a branch half of whose threads go each way is
 * taken by half of the warps' executions), except a divergent if/else whose both sides the
 * profile counts: the warp runs them one after the other, as the hardware does (the jump that
 * closes the first side falls through into the second as often as the counts say).
 *
 * Dependencies follow the control bits: the stall count delays the warp's
 * next issue, a write scoreboard barrier is set until the result is ready (a
 * memory access's completion, or the opcode class's latency), a read
 * barrier until the sources are read, and the wait mask waits for barriers.
 *
 * Memory per instruction from the profile: sectors per request (L2
 * Theoretical Sectors Global / Instructions Executed) cost bandwidth per
 * sector, a scattered request (>= 2x the ideal sectors) costs DRAM a line per
 * sector; shared-memory wavefronts per request occupy the shared-memory unit;
 * L1/L2 hit rates of loads come from the details page (stores are L2 hits,
 * written back to DRAM) and change with resident warps (sassprog_hit_rates).
 */
#ifndef WARPSIM_SASSPROG_H
#define WARPSIM_SASSPROG_H

#include "core/program.h"
#include "input/model.h"
#include "sass/ncu.h"
#include "sass/sass.h"

#include <glib.h>

/* Loop trip counts sass_kernel_load keeps at most (kernel.h's
 * KERNEL_MAX_TRIP_COUNTS, checked in kernel.c). */
#define SASS_MAX_TRIP_COUNTS 16

/* What a [sass] kernel file names, loaded and cross-checked. */
typedef struct SassKernel {
  SassFunction *fn;                        /* the function, owned */
  NcuSource *source;                       /* source-page profile, owned; NULL = none */
  NcuDetails *details;                     /* details-page profile, owned; NULL = none */
  guint n_trip_counts;                     /* entries of trip_counts; 0 = none */
  guint trip_counts[SASS_MAX_TRIP_COUNTS]; /* loop trips without a profile: one for every loop, or
                            one per loop (backward branch) in address order; 0 = not given */
  guint footprint_l1;                      /* bytes per warp reused through L1; 0 = estimated */
  guint footprint_l2;                      /* bytes per warp reused through L2; 0 = estimated */
  /* Derived at load: */
  gdouble warps;          /* warps the profiled launch ran (first instruction's count) */
  gdouble load_l1_hit;    /* global loads' L1 hit rate at the profiled launch, 0..1 */
  gdouble load_l2_hit;    /* the L2 hit rate of loads that miss L1, 0..1 */
  gdouble l2_coalesced;   /* load sectors of coalesced (not scattered) requests, profiled */
  gdouble l2_scattered;   /* load sectors of scattered requests (sassmem_scattered: 2x the ideal
                             sectors or more: a gather), profiled */
  gdouble prof_warps;     /* resident warps per SM at the profiled launch; 0 = unknown */
  gdouble prof_smem;      /* shared memory per SM at the profiled launch, bytes */
  gdouble est_l1, est_l2; /* estimated footprints per warp, bytes */
  gdouble reuse_l1;       /* fraction of the innermost loop's load sectors that repeat a sector
                             the same trip already loads (same base register, nearby offsets) */
  guint local_bytes;      /* local memory per thread the listing touches (LDL/STL), bytes */
  gdouble cta_l2_bytes;   /* bytes one CTA of the profiled launch brought into L2: its load
                             sectors that missed L2 and its store sectors, x 32 (derived from the
                             source page and the details' hit rates and Grid Size); 0 = unknown */
} SassKernel;

#define SASSPROG_ERROR (sassprog_error_quark())
GQuark sassprog_error_quark(void);
typedef enum {
  SASSPROG_ERROR_INPUT, /* the listing or a profile is unusable (message names file/line) */
} SassProgError;

/* Load the listing `file`'s function `function` and the profiles (either
 * may be NULL or ""), check the source page profiles this function, and
 * derive the profiled hit rates and footprints.  `trip_counts` (n_trip_counts
 * entries, copied; at most SASS_MAX_TRIP_COUNTS) drive the loops when there is no source page.
 * FALSE with the SASS_ERROR or NCU_ERROR of the first problem, or
 * SASSPROG_ERROR_INPUT when there is no source page and neither one count
 * nor one per loop is given. */
SassKernel *sass_kernel_load(const gchar *file, const gchar *function, const gchar *source_csv,
                             const gchar *details_csv, const guint *trip_counts,
                             guint n_trip_counts, GError **error);

/* The program every warp walks, with `m`'s opcode classes.  Opcodes no
 * class names are appended (one line each, naming the class assumed) to
 * `warnings` (may be NULL).  FALSE with SASSPROG_ERROR when a loop has
 * neither a profile nor a trip_count, a loop that always branches back has no
 * branch out of it and no profile, an instruction reachable from the entry
 * reaches no EXIT (the function has none, a loop has no way out, or the code
 * runs past its last instruction: its warps would never end), or the listing
 * has more conditional branches than PROGRAM_MAX_COUNTERS. */
Program *sass_program_new(const SassKernel *sk, const SmModel *m, GString *warnings,
                          GError **error);

/* Hit rates of global loads with `warps` resident warps per SM and
 * `smem_per_sm` bytes of shared memory allocated: per level, h(W) = h_inf x
 * min(1, C / (W x F)) with C the level's capacity (L1: [l1] bytes less the
 * shared memory; L2: [l2] bytes / SMs), F the footprint per warp, and h_inf
 * anchored so that h(profiled warps) is the profiled hit rate.  When the
 * profiled rate exceeds what the capacity allows (data shared by many warps,
 * e.g. sgemm's tiles), the rate stays as profiled at every occupancy. */
void sass_kernel_hit_rates(const SassKernel *sk, const SmModel *m, guint warps, gdouble smem_per_sm,
                           gdouble *l1_hit, gdouble *l2_hit);

/* The fraction (0..1) of what a launch of `grid_blocks` CTAs of the kernel
 * touches (F = cta_l2_bytes x grid_blocks bytes) that is still in L2 when
 * the same launch runs again: 1 up to F = [l2] reuse_full_bytes, 0 from
 * reuse_none_bytes on, linear in between (a key left 0 stands for [l2]
 * bytes; both 0: a step there).  A launch that follows one over the same
 * data (the timed launches of a benchmark loop,
 * results/reference/h200/real/README.md: "median of 3 launches after a
 * warm-up"; or the kernel that produced the data) finds that part in L2
 * where the profiled launch, whose caches Nsight Compute emptied,
 * missed: sim.c turns that share of the profiled L2 misses into hits.  A
 * footprint past the L2 is swept in the same order each time, so each line
 * is evicted before its reuse (LRU).  0 when the profile does not give the
 * bytes (cta_l2_bytes 0) or the model has no [l2] bytes.  Measured:
 * treduce (results/reference/h200/real6) runs 37.8-51.1 k cycles at B <= 5
 * (F <= 41 MiB), 68.6 k at B = 6 (49 MiB). */
gdouble sass_launch_l2_reuse(const SassKernel *sk, const SmModel *m, guint grid_blocks);

/* The L2 hit rates of coalesced and of scattered loads (*coalesced,
 * *scattered, 0..1) whose average over the profiled load sectors is `h`: the
 * misses fall on the coalesced loads first.  The profile gives one L2 hit
 * rate for the kernel; its misses are above all the first touches of the
 * data it streams (Nsight Compute empties the caches before the profiled
 * launch), and a scattered load that shares the rate would go to DRAM with
 * table lookups that stay in L2 (results/reference/h200/real3: gather_l2).
 * With no scattered (or no coalesced) loads both are `h`. */
void sass_kernel_l2_split(const SassKernel *sk, gdouble h, gdouble *coalesced, gdouble *scattered);

/* Hit rate of a capacity C shared by `warps` warps of `footprint` bytes
 * each: min(1, C / (warps x footprint)); 1 when footprint is 0. */
gdouble sass_capacity_share(gdouble capacity, guint warps, gdouble footprint);

void sass_kernel_free(SassKernel *sk);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SassKernel, sass_kernel_free)

#endif
