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
 *     opt-in (up to smem_per_block_optin), static alone never (CUDA C++
 *     Programming Guide: only dynamic shared memory opts in; a block with
 *     more static shared memory gets 0);
 *   - the carveout preference (percent of smem_per_sm) is rounded up to a
 *     supported configuration; when a block needs more than the preference,
 *     the smallest configuration that holds one block is used instead;
 *   - blocks per SM = min(block cap, warps, registers, shared memory) and
 *     every limiter equal to the minimum is reported.
 * The module is pure arithmetic: no I/O, no globals.
 */
#ifndef WARPSIM_OCCUPANCY_H
#define WARPSIM_OCCUPANCY_H

#include "input/model.h"

#include <glib.h>

/* Warpgroups a block may have: 1024 threads / 128 threads per warpgroup. */
#define OCC_MAX_WARPGROUPS 8
/* Threads per warpgroup (4 consecutive warps; PTX ISA, "warpgroup"). */
#define OCC_WARPGROUP_THREADS 128

/* The compiler's register controls.  __launch_bounds__(max_threads,
 * min_blocks) makes ptxas cap registers per thread so that min_blocks blocks
 * of max_threads threads fit in the register file (CUDA C++ Programming
 * Guide, "Launch Bounds"); -maxrregcount / __maxnreg__ caps them directly. */
typedef struct {
  guint max_threads; /* __launch_bounds__ maxThreadsPerBlock; 0 = none */
  guint min_blocks;  /* minBlocksPerMultiprocessor; 0 = none (needs max_threads) */
  guint max_regs;    /* registers per thread, -maxrregcount; 0 = none */
} OccBounds;

/* A kernel launch as the occupancy calculator sees it.  Initialise with
 * occupancy_launch_init(). */
typedef struct {
  guint threads;      /* threads per block */
  guint regs;         /* registers per thread the kernel needs (before any cap); 0 with
                         warpgroups = their launch count */
  guint smem_static;  /* bytes */
  guint smem_dynamic; /* bytes */
  gboolean optin;     /* kernel raised its dynamic shared-memory limit to the opt-in maximum */
  gint carveout_pct;  /* -1 = no preference (the driver default), else 0..100 */
  OccBounds bounds;   /* register caps; all 0 = none */
  guint n_warpgroups; /* warpgroups with their own register count (setmaxnreg); 0 = none */
  guint warpgroup_regs[OCC_MAX_WARPGROUPS]; /* registers per thread of each warpgroup */
  guint smem_per_thread;                    /* bytes of dynamic shared memory per thread that
                                               occupancy_best_block_size adds to smem_dynamic for each block size
                                               it tries (CUDA's cudaOccupancyMaxPotentialBlockSizeVariableSMem);
                                               0 = none; occupancy_compute ignores it */
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
  guint regs_ceiling;           /* registers per thread the compiler may use: the smallest of
                                   max_regs_per_thread, bounds.max_regs and the launch-bounds
                                   ceiling (a multiple of reg_alloc_unit / warp_size) */
  guint regs_allocated;         /* registers per thread the occupancy counts: min(regs,
                                   regs_ceiling) */
  guint regs_spilled;           /* regs - regs_allocated: registers per thread the cap turns
                                   into local memory (spills) */
  gboolean min_blocks_dropped;  /* MIN_BLOCKS can never fit (warps or block cap): ptxas ignores
                                   it and the ceiling is for 1 block */
  guint min_blocks_mask;        /* limiters (OccLimiter bits) that keep fewer than MIN_BLOCKS
                                   blocks resident at the ceiling; 0 = met or none asked */
} OccResult;

/* The numbers behind a launch that cannot run (result r of
 * occupancy_compute with blocks_per_sm = 0, for launch l on sm): what the
 * block asks for and what the SM allows, to follow r->reason, e.g. "(static
 * 0 B + dynamic 60000 B = 60000 B, 61056 B allocated incl. the 1024 B
 * reserve; a block may use 0..49152 B, 0..232448 B with the opt-in)"; or
 * the threads against __launch_bounds__, the warps per block, the static
 * part, or the registers per block as the per-block check counts them.  Limits: the CUDA
 * C++ Programming Guide's per-compute-capability table (the model's [sm]
 * keys).  Newly allocated (g_free). */
gchar *occupancy_impossible_numbers(const SmLimits *sm, const OccLaunch *l, const OccResult *r);

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

/* SMs that hold the same number of blocks. */
typedef struct {
  guint64 blocks; /* blocks per SM */
  guint sms;      /* SMs holding that many */
} OccSmLoad;

/* Waves of a grid over the device: grid / (blocks per SM x SMs).  Blocks are
 * placed breadth-first over the SMs: one on every SM, then a second on every
 * SM, and so on (measured on an H200: 200 blocks of at most 2 per SM went 2
 * to 68 SMs and 1 to the other 64, all 132 busy), so a partial wave spreads
 * over as many SMs as it has blocks, and over the whole launch the SMs hold
 * either floor(grid / sms) or one more block. */
typedef struct {
  guint64 wave_blocks;         /* blocks one full wave holds: blocks_per_sm x sms */
  gdouble waves_per_sm;        /* grid / wave_blocks */
  guint64 waves;               /* waves rounded up: ceil(grid / wave_blocks) */
  guint64 last_wave_blocks;    /* blocks in the last wave */
  guint last_wave_sms;         /* SMs busy in the last wave: min(last_wave_blocks, sms) */
  gdouble sm_time_used_pct;    /* grid / (waves x wave_blocks) x 100: SM-time doing work */
  OccSmLoad last_wave_hist[2]; /* blocks per SM in the last wave, most first (SMs left idle
                                  included as 0 blocks); n_last_wave_hist entries */
  guint n_last_wave_hist;
  OccSmLoad sm_loads[2]; /* blocks per SM over the whole launch, most first (idle SMs as
                            0 blocks); n_sm_loads entries */
  guint n_sm_loads;
} OccWaves;

#define OCCUPANCY_ERROR (occupancy_error_quark())
GQuark occupancy_error_quark(void);
typedef enum {
  OCCUPANCY_ERROR_RANGE,     /* an input out of range; the message names it and the allowed range */
  OCCUPANCY_ERROR_BOUNDS,    /* launch bounds inconsistent (MIN_BLOCKS without maxThreads) */
  OCCUPANCY_ERROR_WARPGROUP, /* warpgroup register counts invalid or over the block's budget */
} OccupancyError;

/* Set `launch` to 0 threads, 0 registers, no shared memory, no opt-in and no
 * carveout preference (-1). */
void occupancy_launch_init(OccLaunch *launch);

/* Check `launch` against `sm`: threads 1..max_threads_per_block, regs
 * 1..max_regs_per_thread (0 allowed with warpgroups), smem_static +
 * smem_dynamic <= G_MAXUINT, carveout_pct -1..100 (OCCUPANCY_ERROR_RANGE);
 * bounds.max_threads 0..max_threads_per_block, bounds.max_regs
 * 0..max_regs_per_thread (RANGE), bounds.min_blocks only with max_threads
 * (OCCUPANCY_ERROR_BOUNDS); warpgroups (OCCUPANCY_ERROR_WARPGROUP): at most
 * OCC_MAX_WARPGROUPS, threads = 128 x their number, each count 24..256 and a
 * multiple of 8 (PTX ISA, setmaxnreg), their sum <= the launch count x their
 * number (setmaxnreg moves registers within the block's allocation: more
 * would wait forever).  The message starts with the field name as the CLI
 * spells its options (threads, regs, carveout, launch-bounds, max-regs,
 * warpgroup-regs) and gives the allowed range. */
gboolean occupancy_check_launch(const SmLimits *sm, const OccLaunch *launch, GError **error);

/* Compute the theoretical occupancy of `launch` on `sm` into `out`: the
 * register ceiling from launch.bounds, the registers allocated (the
 * warpgroups' launch count, or regs capped by the ceiling) and the occupancy
 * with them.  Errors as occupancy_check_launch.  An impossible launch is NOT
 * an error: blocks_per_sm = 0 and `reason` says why (a block larger than
 * bounds.max_threads cannot launch: the runtime refuses it, and its warps
 * limit is 0 as in cuda_occupancy.h). */
gboolean occupancy_compute(const SmLimits *sm, const OccLaunch *launch, OccResult *out,
                           GError **error);

/* Registers per thread of `launch` before any cap: launch->regs, or with
 * warpgroups and regs 0 their launch count, ceil(sum / number) (the driver
 * allocates the same count to every warp; setmaxnreg then moves registers
 * between warpgroups). */
guint occupancy_launch_regs(const OccLaunch *launch);

/* Append why MIN_BLOCKS of `launch` is not met in `r` (one sentence, no final
 * period; nothing when it is met or not asked), e.g. "MIN_BLOCKS 8 cannot be
 * met on this SM: 8 blocks x 8 warps = 64 warps > 48 warps per SM; ptxas
 * ignores it and caps registers for 1 block". */
void occupancy_min_blocks_warning(const SmLimits *sm, const OccLaunch *launch, const OccResult *r,
                                  GString *out);

/* "blocks", "warps", "registers", "shared_mem". */
const gchar *occupancy_limiter_name(OccLimiter l);

/* Append the names of the limiters in `mask`, in enum order, joined by `sep`. */
void occupancy_limiters_append(GString *out, guint mask, const gchar *sep);

/* The shared-memory configuration (bytes) a carveout preference selects:
 * the smallest supported configuration >= pct % of smem_per_sm (pct -1:
 * smem_per_sm).  `carveout_pct` must be -1..100. */
guint occupancy_carveout_config(const SmLimits *sm, gint carveout_pct);

/* The smallest supported shared-memory configuration (bytes) >= `bytes`;
 * smem_per_sm when none is. */
guint occupancy_smem_config_at_least(const SmLimits *sm, guint64 bytes);

/* The dynamic shared memory (bytes) of a block of `threads` threads:
 * launch->smem_dynamic + threads x launch->smem_per_thread (saturating). */
guint occupancy_variable_smem(const OccLaunch *launch, guint threads);

/* The largest block size (a multiple of warp_size, searched from
 * max_threads_per_block down) that reaches the best occupancy for the
 * launch's registers and shared memory (launch->threads is ignored; a block
 * of T threads gets smem_dynamic + T x smem_per_thread bytes).  Sets
 * `*threads` and fills `out` for it; when no block size can launch,
 * `*threads` = 0 and `out` holds the result for warp_size threads (with its
 * reason).  FALSE + OCCUPANCY_ERROR_RANGE for regs or carveout out of range,
 * OCCUPANCY_ERROR_WARPGROUP when the launch has warpgroups (they fix the
 * block size). */
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

/* Spread `blocks` breadth-first over `sms` SMs into `out` (most first):
 * blocks % sms SMs get blocks / sms + 1, the others blocks / sms; an entry
 * with no SM is left out.  Returns the number of entries (1 or 2; 0 when sms
 * is 0). */
guint occupancy_spread(guint64 blocks, guint sms, OccSmLoad out[2]);

/* Device-wide achieved occupancy (percent) of `grid` blocks of result `r` if
 * every block ran for the same time: active warps summed over the SMs over
 * their active cycles summed, / max_warps (Nsight Compute's
 * sm__warps_active.avg.pct_of_peak_sustained_active; an SM holding n blocks,
 * blocks_per_sm at a time, is active ceil(n / blocks_per_sm) block-times).
 * 0 when nothing can run. */
gdouble occupancy_waves_achieved_pct(const SmLimits *sm, const OccResult *r, guint64 grid);

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
