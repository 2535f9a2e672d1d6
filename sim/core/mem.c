/* mem.c - banked bandwidth servers with latency. */
#include "core/mem.h"

#include <math.h>

typedef struct {
  guint channels;
  gdouble cycles_per_byte; /* per channel */
  gdouble *free_at;        /* cycle each channel is next free (fractional) */
  guint shadow;            /* next channel of this pool that a line of the other pool also
                              occupies (in turn) */
} Pool;

/* A level's two pools are two views of one bandwidth: each serves its own
 * requests (random lines spread over `channels`, a sequential request's
 * lines on one of `stream_channels`), and every line one serves also
 * occupies a channel of the other for its bytes (taken in turn, no random
 * draw), so the two together never exceed bytes_per_cycle.  A kernel that
 * uses one pool only never waits on the other's charges: its timing is as
 * with one pool.  (Before, a kernel mixing float4 loads and float stores got
 * both pools' bandwidth: results/reference/h200/real7/, v4 simulated 37 %
 * fast at 17.2 B/cycle x 2.) */
typedef struct {
  gdouble fixed;            /* cycles, latency less its exponential part (random lines) */
  gdouble fixed_sequential; /* cycles, same for sequential loads */
  gdouble spread;           /* cycles, mean of the exponential part */
  Pool random;              /* servers of random-line loads */
  Pool sequential;          /* servers of sequential loads */
  /* The load-dependent wait ([dram] queue_*; queue_cycles 0 = none): each
   * warp-load's latency gains queue_cycles x rho ^ queue_exponent, rho the
   * exponential average of the bytes asked of the level (time constant
   * queue_window) over window x bytes_per_cycle, at most 1. */
  gdouble queue_cycles;
  gdouble queue_exponent;
  gdouble queue_window;
  gdouble queue_full_bytes; /* window x bytes_per_cycle: the average at rho = 1 */
  gdouble recent_bytes;     /* the exponential average (bytes, weighted), at recent_at */
  gdouble recent_at;        /* cycle of the last update */
} Level;

struct Mem {
  Level level[MEM_LEVELS];
  guint sector_bytes;
  guint line_bytes;
  SimRng *rng; /* borrowed */
};

static void pool_init(Pool *p, guint channels, gdouble bytes_per_cycle) {
  p->channels = channels;
  p->cycles_per_byte = (gdouble)channels / bytes_per_cycle;
  p->free_at = g_new0(gdouble, channels);
}

static void level_init(Level *l, const MemLevelModel *m) {
  l->spread = m->latency_spread;
  l->fixed = (gdouble)m->latency - l->spread;
  l->fixed_sequential = (gdouble)(m->stream_latency ? m->stream_latency : m->latency) - l->spread;
  pool_init(&l->random, m->channels, m->bytes_per_cycle);
  pool_init(&l->sequential, m->stream_channels ? m->stream_channels : m->channels,
            m->bytes_per_cycle);
}

Mem *mem_new(const SmModel *model, SimRng *rng) {
  Mem *mem = g_new0(Mem, 1);
  level_init(&mem->level[MEM_L1], &model->l1);
  level_init(&mem->level[MEM_L2], &model->l2);
  level_init(&mem->level[MEM_DRAM], &model->dram);
  Level *dram = &mem->level[MEM_DRAM];
  dram->queue_cycles = model->dram_queue_cycles;
  dram->queue_exponent = model->dram_queue_exponent;
  dram->queue_window = model->dram_queue_window;
  dram->queue_full_bytes = model->dram_queue_window * model->dram.bytes_per_cycle;
  mem->sector_bytes = model->sector_bytes;
  mem->line_bytes = model->line_bytes;
  mem->rng = rng;
  return mem;
}

guint mem_request_bytes(const Mem *mem, guint bytes) {
  return (bytes + mem->sector_bytes - 1) / mem->sector_bytes * mem->sector_bytes;
}

/* One latency draw of level `l`: its fixed part plus an exponential part. */
static gdouble draw_latency(Mem *mem, const Level *l, gboolean sequential) {
  gdouble latency = sequential ? l->fixed_sequential : l->fixed;
  if (l->spread > 0)
    latency -= l->spread * log(1.0 - sim_rng_double(mem->rng));
  return latency;
}

SimCycle mem_latency(Mem *mem, MemLevel level, gboolean sequential, SimCycle now) {
  return sim_cycle_ceil((gdouble)now + draw_latency(mem, &mem->level[level], sequential));
}

gdouble mem_latency_spread(const Mem *mem, MemLevel level) {
  return mem->level[level].spread;
}

SimCycle mem_latency_at(const Mem *mem, MemLevel level, gboolean sequential, SimCycle now,
                        gdouble u) {
  const Level *l = &mem->level[level];
  gdouble latency = sequential ? l->fixed_sequential : l->fixed; /* draw_latency's, from u */
  if (l->spread > 0)
    latency -= l->spread * log(1.0 - u);
  return sim_cycle_ceil((gdouble)now + latency);
}

MemShape mem_shape(const Mem *mem, guint bytes) {
  guint request = mem_request_bytes(mem, bytes);
  guint lines = (request + mem->line_bytes - 1) / mem->line_bytes;
  return (MemShape){lines, lines ? request - (lines - 1) * mem->line_bytes : 0};
}

SimCycle mem_load_lines(Mem *mem, MemLevel level, MemShape shape, gboolean sequential,
                        SimCycle now) {
  return mem_load_lines_scaled(mem, level, shape, sequential, now, 1.0);
}

gdouble mem_queue_wait(Mem *mem, MemLevel level, gdouble bytes, SimCycle now) {
  Level *l = &mem->level[level];
  if (l->queue_cycles <= 0)
    return 0.0;
  gdouble t = (gdouble)now;
  if (t > l->recent_at) {
    l->recent_bytes *= exp((l->recent_at - t) / l->queue_window);
    l->recent_at = t;
  }
  gdouble rho = MIN(1.0, l->recent_bytes / l->queue_full_bytes);
  l->recent_bytes += bytes;
  return rho > 0 ? l->queue_cycles * pow(rho, l->queue_exponent) : 0.0;
}

SimCycle mem_load_lines_scaled(Mem *mem, MemLevel level, MemShape shape, gboolean sequential,
                               SimCycle now, gdouble scale) {
  Level *l = &mem->level[level];
  /* One latency draw per warp-load: its lines are adjacent (one DRAM row). */
  gdouble latency = draw_latency(mem, l, sequential);
  /* Every request's bytes count towards rho; sequential loads wait (the
   * random-line pool's loaded wait is [dram] channels', fitted on chase's). */
  if (l->queue_cycles > 0 && shape.lines > 0) {
    gdouble wait = mem_queue_wait(
        mem, level, scale * ((gdouble)(shape.lines - 1) * mem->line_bytes + shape.last_bytes), now);
    if (sequential)
      latency += wait;
  }
  /* Random lines hash to random channels; a sequential load's lines share
   * one channel (adjacent lines of one DRAM row). */
  Pool *p = sequential ? &l->sequential : &l->random;
  gboolean scatter = !sequential && p->channels > 1;
  guint c = p->channels > 1 ? sim_rng_below(mem->rng, p->channels) : 0;
  gdouble done = (gdouble)now;
  Pool *o = sequential ? &l->random : &l->sequential; /* the other view */
  for (guint i = 1; i <= shape.lines; i++) {
    gdouble start = MAX((gdouble)now, p->free_at[c]);
    gdouble bytes =
        scale * (i < shape.lines ? (gdouble)mem->line_bytes : (gdouble)shape.last_bytes);
    p->free_at[c] = start + bytes * p->cycles_per_byte;
    guint oc = o->shadow;
    o->shadow = oc + 1 < o->channels ? oc + 1 : 0;
    o->free_at[oc] = MAX((gdouble)now, o->free_at[oc]) + bytes * o->cycles_per_byte;
    done = MAX(done, start + latency);
    if (i < shape.lines && scatter)
      c = sim_rng_below(mem->rng, p->channels);
  }
  return sim_cycle_ceil(done);
}

SimCycle mem_load(Mem *mem, MemLevel level, guint bytes, gboolean sequential, SimCycle now) {
  return mem_load_lines(mem, level, mem_shape(mem, bytes), sequential, now);
}

void mem_free(Mem *mem) {
  if (mem == NULL)
    return;
  for (guint i = 0; i < MEM_LEVELS; i++) {
    g_free(mem->level[i].random.free_at);
    g_free(mem->level[i].sequential.free_at);
  }
  g_free(mem);
}
