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
/* mem_latency in two steps, for an access whose completion is read only
 * later, if at all (a register spill store: Sm's deferred stores): the
 * draw, taken now (mem_latency_draw), and the cycle the access issued at
 * `now` with that draw `u` is back, worked out when it is needed.
 * mem_latency_at(mem, l, s, now, mem_latency_draw(rng, mem_latency_spread(mem, l)))
 * is mem_latency's cycle, bit for bit (the same arithmetic, the same draw). */
SimCycle mem_latency_at(const Mem *mem, MemLevel level, gboolean sequential, SimCycle now,
                        gdouble u);

/* The mean of `level`'s exponential latency part, cycles (0: none, and no
 * draw is made for it). */
gdouble mem_latency_spread(const Mem *mem, MemLevel level);

/* The draw of a latency of spread `spread` (mem_latency_spread): the
 * generator's next double, or none and 0 when there is no spread.  Inline:
 * one per missing spill store. */
static inline gdouble mem_latency_draw(SimRng *rng, gdouble spread) {
  return spread > 0 ? sim_rng_double(rng) : 0.0;
}

/* Which of two accesses of a level of latency spread `spread`, of the same
 * `sequential` kind, is back later, as far as bounds of their exponential
 * parts tell without libm's `log`: one issued at `now` with draw `u`, one
 * at `then` (<= now) with draw `u_then`.  1: the one at `now` is back at
 * least a cycle later as reals, so mem_latency_at's cycle for it is >= the
 * other's; -1: the other way round; 0: the bounds do not decide (the caller
 * works a cycle out).
 *
 * The exponential parts are E = -log(1 - u).  With y = (1 - u) / (1 - u_then),
 * E_then - E = log(y), and 1 - 1/y <= log(y) <= y - 1, that is
 * (u_then - u) / (1 - u) <= E_then - E <= (u_then - u) / (1 - u_then).  The
 * access at `now` is back at least a cycle later when
 * now - then - spread x (E_then - E) >= 1, which the upper bound shows; the
 * one at `then` when spread x (E_then - E) - (now - then) >= 1, which the
 * lower bound shows.  (The doubles' rounding, under 1e-8 cycles at 1e7
 * cycles, cannot undo a whole cycle; both sides are multiplied out, as
 * 1 - u > 0.) */
static inline gint mem_latency_order(gdouble spread, SimCycle now, gdouble u, SimCycle then,
                                     gdouble u_then) {
  gdouble gap = (gdouble)(now - then), d = spread * (u_then - u);
  if (d <= (gap - 1.0) * (1.0 - u_then))
    return 1;
  if (d >= (gap + 1.0) * (1.0 - u))
    return -1;
  return 0;
}

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
