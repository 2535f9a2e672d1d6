/* occupancy.h - theoretical occupancy of one SM, as NVIDIA's occupancy API
 * (cudaOccupancyMaxActiveBlocksPerMultiprocessor) and Nsight Compute compute it.
 *
 * Given the SM limits of a model and a launch (threads per block, registers
 * per thread, shared memory, opt-in, carveout), the calculator returns the
 * resident blocks per SM, the block limit of each of the four limiters and
 * what is allocated per block.  The rules (CUDA C Programming Guide, cuda_occupancy.h):
 *   - warps per block = ceil(threads / warp_size);
 *   - registers are allocated per warp in units of reg_alloc_unit and split
 *     over the SMSPs: warps allowed = floor(regs / smsps / regs_per_warp) x
 *     smsps; a block whose registers exceed max_regs_per_block (its warps
 *     rounded up to a multiple of the SMSP count, the hardware check) gets 0;
 *   - shared memory per block = static + dynamic + smem_reserved, rounded up
 *     to smem_alloc_unit; static + dynamic may exceed smem_per_block only with
 *     opt-in (up to smem_per_block_optin);
 *   - the carveout preference (percent of smem_per_sm) is rounded up to a
 *     supported configuration; when a block needs more than the preference,
 *     the smallest configuration that holds one block is used instead;
 *   - blocks per SM = min(block cap, warps, registers, shared memory) and
 *     every limiter equal to the minimum is reported.
 * The module is pure arithmetic: no I/O, no globals.
 */
#ifndef WARPSIM_OCCUPANCY_H
#define WARPSIM_OCCUPANCY_H

#include "model.h"

#include <glib.h>

/* A kernel launch as the occupancy calculator sees it.  Initialise with
 * occupancy_launch_init(). */
typedef struct {
  guint threads;      /* threads per block */
  guint regs;         /* registers per thread */
  guint smem_static;  /* bytes */
  guint smem_dynamic; /* bytes */
  gboolean optin;     /* kernel raised its dynamic shared-memory limit to the opt-in maximum */
  gint carveout_pct;  /* -1 = no preference (the driver default), else 0..100 */
} OccLaunch;

/* The four limiters, in the order the CSV column `limiters` lists them. */
typedef enum {
  OCC_LIMIT_BLOCKS,     /* resident-block cap of the SM */
  OCC_LIMIT_WARPS,      /* resident-warp cap of the SM */
  OCC_LIMIT_REGISTERS,  /* register file */
  OCC_LIMIT_SHARED_MEM, /* shared-memory carveout */
  OCC_LIMIT_MAX
} OccLimiter;

typedef struct {
  guint blocks_per_sm;          /* resident blocks (CTAs) per SM */
  guint warps_per_sm;           /* resident warps per SM */
  gdouble occupancy_pct;        /* theoretical, 0..100: warps_per_sm / max_warps */
  guint warps_per_block;        /* warps */
  guint limit[OCC_LIMIT_MAX];   /* blocks per SM each limiter allows (unused resource: the block
                                   cap, as Nsight Compute reports it) */
  guint limiter_mask;           /* bit i set for every limiter i whose limit equals blocks_per_sm
                                   (ties); an unused resource never limits */
  guint regs_per_block;         /* registers allocated per block (warps x per-warp allocation) */
  guint regs_per_block_checked; /* registers the per-block check counts: the warps rounded up
                                   to a multiple of the SMSPs (a block over max_regs_per_block
                                   here cannot launch) */
  guint smem_per_block;         /* bytes allocated per block incl. reserve */
  guint smem_config;            /* bytes, the shared-memory carveout used */
  guint smem_block_max;         /* bytes of static + dynamic shared memory a block may use under
                                   this launch's opt-in setting */
  const gchar *reason;          /* static string when blocks_per_sm == 0, else NULL */
} OccResult;

/* One point of a what-if curve. */
typedef struct {
  guint value;      /* the varied quantity: registers per thread, threads per block, or
                       bytes of shared memory per block (static + dynamic) */
  gboolean current; /* TRUE for the launch's own point */
  OccLaunch launch; /* the launch evaluated */
  OccResult result;
} OccPoint;

/* The quantity a what-if curve varies (Nsight Compute's three graphs). */
typedef enum {
  OCC_VARY_REGS,    /* registers per thread, 1..max_regs_per_thread */
  OCC_VARY_THREADS, /* threads per block, warp_size..max_threads_per_block by warp_size */
  OCC_VARY_SMEM,    /* dynamic shared memory, 0..the per-block maximum by allocation units */
  OCC_VARY_MAX
} OccVary;

/* At most this many points on a shared-memory curve: the step is widened
 * (in whole allocation units) when the range would need more. */
#define OCC_VARY_MAX_POINTS 2048

/* Waves of a grid over the device: grid / (blocks per SM x SMs). */
typedef struct {
  guint64 wave_blocks;      /* blocks one full wave holds: blocks_per_sm x sms */
  gdouble waves_per_sm;     /* grid / wave_blocks */
  guint64 waves;            /* whole waves: ceil(grid / wave_blocks) */
  guint64 last_wave_blocks; /* blocks in the last wave */
  guint last_wave_sms;      /* SMs busy in the last wave */
  gdouble sm_time_used_pct; /* grid / (waves x wave_blocks) x 100: SM-time doing work */
} OccWaves;

#define OCCUPANCY_ERROR (occupancy_error_quark())
GQuark occupancy_error_quark(void);
typedef enum {
  OCCUPANCY_ERROR_RANGE, /* an input out of range; the message names it and the allowed range */
} OccupancyError;

/* Set `launch` to 0 threads, 0 registers, no shared memory, no opt-in and no
 * carveout preference (-1). */
void occupancy_launch_init(OccLaunch *launch);

/* Check `launch` against `sm`: threads 1..max_threads_per_block, regs
 * 1..max_regs_per_thread, smem_static + smem_dynamic <= G_MAXUINT,
 * carveout_pct -1..100.  FALSE with
 * OCCUPANCY_ERROR_RANGE otherwise; the message starts with the field name
 * (threads, regs, carveout) as the CLI spells its options. */
gboolean occupancy_check_launch(const SmLimits *sm, const OccLaunch *launch, GError **error);

/* Compute the theoretical occupancy of `launch` on `sm` into `out`.
 * FALSE + OCCUPANCY_ERROR_RANGE for input out of range (see
 * occupancy_check_launch); an impossible launch is NOT an error:
 * blocks_per_sm = 0 and `reason` says why. */
gboolean occupancy_compute(const SmLimits *sm, const OccLaunch *launch, OccResult *out,
                           GError **error);

/* "blocks", "warps", "registers", "shared_mem". */
const gchar *occupancy_limiter_name(OccLimiter l);

/* Append the names of the limiters in `mask`, in enum order, joined by `sep`. */
void occupancy_limiters_append(GString *out, guint mask, const gchar *sep);

/* The shared-memory configuration (bytes) a carveout preference selects:
 * the smallest supported configuration >= pct % of smem_per_sm (pct -1:
 * smem_per_sm).  `carveout_pct` must be -1..100. */
guint occupancy_carveout_config(const SmLimits *sm, gint carveout_pct);

/* The largest block size (a multiple of warp_size, searched from
 * max_threads_per_block down) that reaches the best occupancy for the
 * launch's registers and shared memory (launch->threads is ignored).  Sets
 * `*threads` and fills `out` for it; when no block size can launch,
 * `*threads` = 0 and `out` holds the result for warp_size threads (with its
 * reason).  FALSE + OCCUPANCY_ERROR_RANGE for regs or carveout out of range. */
gboolean occupancy_best_block_size(const SmLimits *sm, const OccLaunch *launch, guint *threads,
                                   OccResult *out, GError **error);

/* The most dynamic shared memory (bytes) a block may request so that
 * `n_blocks` blocks of `launch` stay resident (launch->smem_dynamic is
 * ignored), as cudaOccupancyAvailableDynamicSMemPerBlock should compute it:
 * the SM's share per block, rounded down to the allocation unit, minus the
 * reserve and the static part, capped by the per-block maximum.  n_blocks = 1
 * may use the largest configuration; more blocks share the carveout
 * preference.  When no size allows n_blocks (warps, registers or the block
 * cap allow fewer, or the static part alone is too big) `*reason` is set
 * (static string) and `*bytes` = 0; otherwise `*reason` = NULL.  FALSE +
 * OCCUPANCY_ERROR_RANGE for launch fields or n_blocks (1..max_blocks) out of
 * range. */
gboolean occupancy_smem_for_blocks(const SmLimits *sm, const OccLaunch *launch, guint n_blocks,
                                   guint *bytes, const gchar **reason, GError **error);

/* Waves of a grid of `grid` blocks when `blocks_per_sm` blocks are resident
 * on each of sm->sms SMs.  All fields are 0 when grid or blocks_per_sm is 0. */
void occupancy_waves(const SmLimits *sm, guint blocks_per_sm, guint64 grid, OccWaves *out);

/* The what-if curve of `launch` varying `what` (see OccVary): a new array of
 * OccPoint in ascending `value`, the launch's own point included and marked
 * `current` (free with g_array_unref).  NULL + OCCUPANCY_ERROR_RANGE when
 * the launch itself is out of range. */
GArray *occupancy_vary(const SmLimits *sm, const OccLaunch *launch, OccVary what, GError **error);

/* "regs", "threads", "smem". */
const gchar *occupancy_vary_name(OccVary what);

/* The OccVary spelled `name`, or OCC_VARY_MAX when there is none. */
OccVary occupancy_vary_from_name(const gchar *name);

#endif
