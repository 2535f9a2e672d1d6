/* kernel.h - a synthetic kernel: its launch and the shape of its instruction
 * sequence, read from a kernel file (traces/<name>.ini, GKeyFile) plus
 * "--set group.key=value" overrides for the [launch] and [stream] groups.
 */
#ifndef WARPSIM_KERNEL_H
#define WARPSIM_KERNEL_H

#include "core/mem_level.h"
#include "input/model.h"
#include "occupancy/occupancy.h"

#include <glib.h>

/* [stream] load_pattern: "chase" (each load's address depends on the
 * chain's previous load) or "stream" (independent, sequential loads: the
 * spelling of the key's value; in the code "stream" names the [stream]
 * group only). */
typedef enum { KERNEL_PATTERN_CHASE, KERNEL_PATTERN_SEQUENTIAL } KernelPattern;

/* Values [sass] trip_count takes at most (one per loop): a design limit, not
 * the hardware's; the key's range check rejects more. */
#define KERNEL_MAX_TRIP_COUNTS 16

typedef struct {
  gchar *name; /* kernel name (file stem), owned */
  gchar *file; /* path it was read from, owned */
  /* [launch] */
  guint threads_per_block; /* threads, 1..1024 */
  guint regs_per_thread;   /* registers the kernel needs per thread, 1..255 */
  guint smem_static;       /* bytes per CTA */
  guint smem_dynamic;      /* bytes per CTA */
  gboolean optin;          /* dynamic shared memory raised to the opt-in maximum */
  guint blocks;            /* grid size in CTAs; 0 = one full wave on this SM */
  gboolean l2_warm;        /* SASS: the data is in L2 from the launch before, when it fits */
  guint blocks_per_sm;     /* resident CTA cap; 0 = as many as occupancy allows */
  guint cluster_size;      /* CTAs per thread-block cluster; 1 = no cluster launch */
  guint max_regs;          /* register cap (-maxrregcount); 0 = none */
  guint bounds_threads;    /* __launch_bounds__ maxThreadsPerBlock; 0 = none */
  guint bounds_min_blocks; /* __launch_bounds__ minBlocksPerMultiprocessor; 0 = none */
  guint n_warpgroups;      /* entries of warpgroup_regs; 0 = uniform registers */
  guint warpgroup_regs[8]; /* registers per thread of each warpgroup of 128 threads (setmaxnreg);
                              when given they replace regs_per_thread */
  /* [stream], per warp, per loop iteration unless said */
  guint iterations;       /* loop trips per warp */
  guint fma;              /* FP32 FFMAs per iteration, spread over `ilp` dependent chains */
  guint ilp;              /* independent FFMA/MUFU/LDS chains */
  guint loads;            /* global warp-loads per iteration, each its own chain */
  guint pattern;          /* KernelPattern: chase (address depends on the chain's last load) */
  guint load_bytes;       /* bytes per warp-load */
  guint level;            /* MemLevel the loads are served from */
  gboolean fma_uses_load; /* FFMA i consumes load i (i < loads) */
  guint overhead;         /* integer instructions per iteration (last one: the loop branch) */
  guint sfu;              /* MUFU instructions per iteration, over `ilp` chains */
  guint lds;              /* shared-memory loads per iteration, over `ilp` chains */
  guint lds_ways;         /* bank-conflict degree of each shared-memory load (1 = none) */
  gboolean syncthreads;   /* one __syncthreads() per iteration */
  guint live_values;      /* live values touched per iteration (spill model) */
  guint early_exit;       /* warps per CTA (the last ones) that exit at once */
  guint seed;             /* seed of the run's random draws (rng.h) */
  guint footprint;        /* bytes per warp the loads reuse at `level`; 0 = no capacity model */
  /* [sass]: a real kernel from its SASS and Nsight Compute exports */
  gchar *sass_file;       /* listing (cuobjdump -sass), owned; "" = a synthetic kernel */
  gchar *sass_function;   /* mangled name or a unique substring of the demangled one, owned */
  gchar *sass_source;     /* ncu --page source --csv export, owned; "" = none */
  gchar *sass_details;    /* ncu --page details --csv export, owned; "" = none */
  gchar *sass_details_id; /* its launch ID to read, owned; "" = the first launch */
  guint n_trip_counts;    /* entries of trip_counts; 0 = none */
  guint trip_counts[KERNEL_MAX_TRIP_COUNTS]; /* loop trips without a profile: one for every loop, or
                              one per loop (backward branch) in address order */
  guint footprint_l1;                        /* bytes per warp reused through L1; 0 = estimated */
  guint footprint_l2;                        /* bytes per warp reused through L2; 0 = estimated */
  guint store_footprint;                     /* distinct bytes one CTA's stores write; 0 = from
                                                the profile */
  guint constant_table_bytes;                /* bytes of the __constant__ table its register-
                                                indexed LDCs read; 0 = not stated */
  struct SassKernel *sass; /* loaded listing and profiles (sassprog.h), owned unless sass_shared;
                              NULL = synthetic */
  gboolean sass_shared;    /* sass is another Kernel's (kernel_load_like): not freed here */
} Kernel;

#define KERNEL_ERROR (kernel_error_quark())
GQuark kernel_error_quark(void);
typedef enum {
  KERNEL_ERROR_NOT_FOUND, /* unreadable file */
  KERNEL_ERROR_PARSE,     /* malformed file */
  KERNEL_ERROR_INVALID,   /* unknown group/key, value out of range */
} KernelError;

/* Resolve `spec` (a path; or a shipped kernel's name, "fma" or "fma.ini",
 * found as paths.h says: WARPSIM_TRACES, then next to the binary; an
 * unknown one's message lists the shipped kernels and the directories
 * searched) and read it,
 * applying the [launch]/[stream] overrides among `overrides`, for `model`
 * (the one it will run on; NULL: none): a [sass] listing's section for the
 * model's GPU is picked and checked here (sass_kernel_load_id; what it
 * assumed in sass->warnings), so run it on that model or a copy of it with
 * other timings.  Returns a new Kernel (kernel_free) or NULL with
 * KERNEL_ERROR set; messages name file, group, key and the allowed range. */
Kernel *kernel_load(const gchar *spec, const gchar *const *overrides, const SmModel *model,
                    GError **error);

/* kernel_load, sharing the listing and exports loaded by `like` (may be
 * NULL; borrowed: it must outlive the new Kernel) when the file and its
 * [sass] keys are the same (the [launch] overrides may differ): the same
 * program, read once.  `like` must have been loaded for `model`. */
Kernel *kernel_load_like(const gchar *spec, const gchar *const *overrides, const SmModel *model,
                         const Kernel *like, GError **error);

/* Same, from GKeyFile text, with no model; `origin` names it in messages. */
Kernel *kernel_load_data(const gchar *data, const gchar *origin, const gchar *const *overrides,
                         GError **error);

/* TRUE when `group` is a kernel group ([launch], [stream]). */
gboolean kernel_override_group(const gchar *group);

/* Registers per thread the kernel is compiled to without launch bounds:
 * min(regs_per_thread, max_regs) (the launch bounds' ceiling needs the SM:
 * SimResult.regs_allocated has the final count). */
guint kernel_regs_allocated(const Kernel *k);

/* The kernel's launch as the occupancy calculator takes it: block shape,
 * registers needed (0 with warpgroups: their launch count), shared memory,
 * launch bounds, max_regs and warpgroups; no carveout preference. */
void kernel_occ_launch(const Kernel *k, OccLaunch *launch);

/* Append the effective configuration as GKeyFile text, lines prefixed. */
void kernel_dump(const Kernel *k, GString *out, const gchar *prefix);

/* Append one line per kernel key, for --help. */
void kernel_describe(GString *out);

const gchar *kernel_pattern_name(guint pattern);
const gchar *kernel_level_name(guint level);

void kernel_free(Kernel *k);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Kernel, kernel_free)

#endif
