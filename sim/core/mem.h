/* mem.h - the global-memory levels (L1, L2, DRAM) as seen from one SM.
 *
 * Each level has an unloaded latency and a bandwidth share per SM, split over
 * `channels` independent servers.  A warp-load is cut into cache lines; each
 * line goes to a channel chosen at random (addresses hash over channels),
 * waits until that channel is free, occupies it for bytes / (bandwidth /
 * channels) cycles, and returns `latency` cycles after its service starts.
 * Latency therefore rises as a level fills (queueing) and the throughput of
 * one access pattern can never exceed the level's bandwidth.  Random-line and
 * sequential loads have separate server pools (`channels`, `stream_channels`),
 * each with the whole bandwidth: a kernel that mixes both patterns at one
 * level (a chase through L2 whose spills also miss to L2) can exceed it.
 */
#ifndef WARPSIM_MEM_H
#define WARPSIM_MEM_H

#include "core/mem_level.h"
#include "core/rng.h"
#include "core/stats.h"
#include "input/model.h"

#include <glib.h>

typedef struct Mem Mem;

/* A memory system for `model` (borrowed, must outlive it); `rng` is borrowed
 * (must outlive it) and drawn from for latencies and channel choice, so runs
 * are deterministic per seed. */
Mem *mem_new(const SmModel *model, SimRng *rng);

/* A warp-access as the levels' servers see it: its bytes rounded up to whole
 * sectors, cut into lines (mem_shape). */
typedef struct {
  guint32 lines;      /* lines it occupies servers for (0: no bytes) */
  guint32 last_bytes; /* bytes of its last line (the others are whole lines) */
} MemShape;

/* The shape of a warp-access of `bytes` bytes. */
MemShape mem_shape(const Mem *mem, guint bytes);

/* mem_load of a warp-load of shape `shape` (mem_shape of its bytes), which
 * callers that issue the same access many times work out once. */
SimCycle mem_load_lines(Mem *mem, MemLevel level, MemShape shape, gboolean sequential,
                        SimCycle now);

/* mem_load_lines with each line occupying its servers for `scale` times its
 * bytes (1 = as mem_load_lines; an L2 load within the SM's lines in flight,
 * [l2] peak_bytes_per_cycle, takes less). */
SimCycle mem_load_lines_scaled(Mem *mem, MemLevel level, MemShape shape, gboolean sequential,
                               SimCycle now, gdouble scale);

/* Issue a warp-load of `bytes` bytes (rounded up to whole sectors) to `level`
 * at cycle `now`; `sequential` selects the level's streaming latency.  Each
 * line's latency is a fixed part plus an exponential part of mean
 * latency_spread (so the mean is the level's latency).  Returns the cycle the
 * last line's data is back. */
SimCycle mem_load(Mem *mem, MemLevel level, guint bytes, gboolean sequential, SimCycle now);

/* The latency of one access to `level` issued at `now` (the same draw as
 * mem_load's, with no bandwidth occupied): the cycle its data is back.
 * Register spills that miss L1 use it: their bandwidth is the SM's
 * local-memory port ([spill] bytes_per_cycle), not the level's. */
SimCycle mem_latency(Mem *mem, MemLevel level, gboolean sequential, SimCycle now);

/* The load-dependent wait of a request of `bytes` bytes asked of `level` at
 * `now` ([dram] queue_cycles x rho ^ queue_exponent, rho the level's recent
 * bytes over its share, at most 1; 0 for a level without one), which it
 * then adds to the level's recent bytes.  mem_load adds it to the latency. */
gdouble mem_queue_wait(Mem *mem, MemLevel level, gdouble bytes, SimCycle now);

/* Bytes the load occupies a level with: `bytes` rounded up to sectors. */
guint mem_request_bytes(const Mem *mem, guint bytes);

void mem_free(Mem *mem);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Mem, mem_free)

#endif
