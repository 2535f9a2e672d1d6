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
 * closes the first side falls through into the second as often as the counts say), and a
 * forward branch every warp reaches once that only some take (a warp role: warp-specialised
 * producers and consumers, a warp-0 tail): that share of each CTA's warps takes it, the first
 * or the last by the sense of its guard's ISETP (ProgramRole, sassflow_branch).
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
  GString *warnings;                       /* what loading it for its model assumed, one line each
                                              (a listing run by binary compatibility), owned */
  NcuSource *source;                       /* source-page profile, owned; NULL = none */
  NcuDetails *details;                     /* details-page profile, owned; NULL = none */
  guint n_trip_counts;                     /* entries of trip_counts; 0 = none */
  guint trip_counts[SASS_MAX_TRIP_COUNTS]; /* loop trips without a profile: one for every loop, or
                            one per loop (backward branch) in address order; 0 = not given */
  guint footprint_l1;                      /* bytes per warp reused through L1; 0 = estimated */
  guint footprint_l2;                      /* bytes per warp reused through L2; 0 = estimated */
  guint store_footprint;                   /* distinct bytes one CTA's global stores write; 0 =
                                              the profile's store sectors per CTA */
  guint constant_table_bytes;              /* bytes of the __constant__ table the register-
                                              indexed LDCs read ([sass] constant_table_bytes);
                                              0 = not stated */
  /* Derived at load: */
  gdouble warps;           /* warps the profiled launch ran (first instruction's count) */
  gdouble load_l1_hit;     /* global loads' L1 hit rate at the profiled launch, 0..1 */
  gdouble load_l2_hit;     /* the L2 hit rate of loads that miss L1, 0..1 */
  gdouble l2_coalesced;    /* load sectors of coalesced (not scattered) requests, profiled */
  gdouble l2_scattered;    /* load sectors of scattered requests (sassmem_scattered: 2x the ideal
                              sectors or more: a gather), profiled */
  gdouble l2_far;          /* fraction (0..1) of the scattered load sectors that miss L1 which the
                              profile counts as L2 misses but DRAM did not serve: the far L2
                              partition's hits (sassmem_derive; 0 = none) */
  gdouble dram_scatter;    /* DRAM's bytes per byte of the scattered loads' sectors that miss L2
                              at the profiled launch, >= 1 (sassmem_scattered_dram_scale; 0 or 1
                              = their sectors' own) */
  gdouble prof_warps;      /* resident warps per SM at the profiled launch; 0 = unknown */
  gdouble prof_smem;       /* shared memory per SM at the profiled launch, bytes */
  gdouble est_l1, est_l2;  /* estimated footprints per warp, bytes */
  gdouble reuse_l1;        /* fraction of the innermost loop's load sectors that repeat a sector
                              the same trip already loads (same base register, nearby offsets) */
  guint local_bytes;       /* local memory per thread the listing touches (LDL/STL), bytes */
  gdouble tex_sectors;     /* sectors a warp-TEX / TLD4 moves when the profile does not say
                              (the model's [texture] bytes / 32); 0 = the ideal */
  gdouble cta_store_bytes; /* bytes one CTA of the profiled launch stored (its global stores'
                              L2 sectors x 32 / grid); 0 = unknown */
  gdouble cta_l2_bytes;    /* bytes one CTA of the profiled launch brought into L2: its load
                              sectors that missed L2 and its store sectors, x 32 (derived from the
                              source page and the details' hit rates and Grid Size); 0 = unknown */
} SassKernel;

#define SASSPROG_ERROR (sassprog_error_quark())
GQuark sassprog_error_quark(void);
typedef enum {
  SASSPROG_ERROR_INPUT, /* the listing or a profile is unusable (message names file/line) */
} SassProgError;

/* Load the listing `file`'s function `function` and the profiles (either
 * may be NULL or ""; the details export's first launch), check the source
 * page profiles this function, and
 * derive the profiled hit rates and footprints.  `trip_counts` (n_trip_counts
 * entries, copied; at most SASS_MAX_TRIP_COUNTS) drive the loops when there is no source page.
 * FALSE with the SASS_ERROR or NCU_ERROR of the first problem, or
 * SASSPROG_ERROR_INPUT when there is no source page and neither one count
 * nor one per loop is given. */
SassKernel *sass_kernel_load(const gchar *file, const gchar *function, const gchar *source_csv,
                             const gchar *details_csv, const guint *trip_counts,
                             guint n_trip_counts, GError **error);

/* The same, reading launch `details_id` of the details export (< 0: its
 * first launch; [sass] details_id), for model `m` (NULL: none, as
 * sass_kernel_load): the listing's section for its GPU (sass_load_for,
 * SASS_ERROR_ARCH when none runs on it, a warning in `warnings` when it
 * runs by binary compatibility) and its opcode classes (else
 * SASSPROG_ERROR_INPUT naming [class_fp32] of its file) are checked here,
 * once: sass_program_new trusts them. */
SassKernel *sass_kernel_load_id(const gchar *file, const gchar *function, const gchar *source_csv,
                                const gchar *details_csv, gint64 details_id, const SmModel *m,
                                const guint *trip_counts, guint n_trip_counts, GError **error);

/* TRUE when `in` is an LDC whose constant-bank address has a general
 * register (`LDC R12, c[0x3][R12]`: each lane its own address), FALSE for
 * any other instruction and for an LDC addressed by an immediate or a
 * uniform register (one address for the warp). */
gboolean sass_ldc_indexed(const SassInstr *in);

/* The latency and SM-wide unit cycles model `m` times kernel `sk`'s
 * register-indexed LDCs with: [class_special] indexed_table_latency /
 * indexed_table_interval of the first indexed_table_bytes entry at least
 * sk's constant_table_bytes (the last entry for a larger table), or
 * indexed_latency / indexed_interval when the kernel states no table size
 * or the model lists none.  FALSE (both 0) when the model times them as
 * uniform LDCs (indexed_interval 0). */
gboolean sass_ldc_indexed_timing(const SassKernel *sk, const SmModel *m, guint *latency,
                                 guint *interval);

/* Whether model `m` can simulate function `fn`: its GPU runs the listing
 * (sass_check_arch: SASS_ERROR_ARCH, or one line on `warnings`, may be
 * NULL, when it runs it by binary compatibility) and it has opcode classes
 * (else SASSPROG_ERROR_INPUT naming [class_fp32] of its file). */
gboolean sass_model_check(const SassFunction *fn, const SmModel *m, GString *warnings,
                          GError **error);

/* The program every warp walks, with `m`'s opcode classes (`m`: the model
 * the kernel was loaded for, sass_kernel_load_id, or a copy of it with other
 * timings; its architecture is not checked again).  Opcodes no
 * class names are appended (one line each, naming the class assumed) to
 * `warnings` (may be NULL).  FALSE with SASSPROG_ERROR when a loop has
 * neither a profile nor a trip_count, a loop that always branches back has no
 * branch out of it and no profile, an instruction reachable from the entry
 * reaches no EXIT (the function has none, a loop has no way out, or the code
 * runs past its last instruction: its warps would never end), or the listing
 * has more conditional branches than PROGRAM_MAX_COUNTERS. */
Program *sass_program_new(const SassKernel *sk, const SmModel *m, GString *warnings,
                          GError **error);

void sass_kernel_free(SassKernel *sk);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SassKernel, sass_kernel_free)

#endif
