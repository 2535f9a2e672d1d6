/* mem.c - banked bandwidth servers with latency. */
#include "mem.h"

#include <math.h>

typedef struct {
  guint latency;           /* cycles */
  gdouble cycles_per_byte; /* per channel */
  guint channels;
  gdouble *free_at;        /* cycle each channel is next free (fractional) */
} Level;

struct Mem {
  Level level[MEM_LEVELS];
  guint sector_bytes;
  guint line_bytes;
  GRand *rng;
};

static void level_init(Level *l, const MemLevelModel *m) {
  l->latency = m->latency;
  l->channels = m->channels;
  l->cycles_per_byte = (gdouble)m->channels / m->bytes_per_cycle;
  l->free_at = g_new0(gdouble, m->channels);
}

Mem *mem_new(const SmModel *model, GRand *rng) {
  Mem *mem = g_new0(Mem, 1);
  level_init(&mem->level[MEM_L1], &model->l1);
  level_init(&mem->level[MEM_L2], &model->l2);
  level_init(&mem->level[MEM_DRAM], &model->dram);
  mem->sector_bytes = model->sector_bytes;
  mem->line_bytes = model->line_bytes;
  mem->rng = rng;
  return mem;
}

guint mem_request_bytes(const Mem *mem, guint bytes) {
  return (bytes + mem->sector_bytes - 1) / mem->sector_bytes * mem->sector_bytes;
}

SimCycle mem_load(Mem *mem, MemLevel level, guint bytes, SimCycle now) {
  Level *l = &mem->level[level];
  guint remaining = mem_request_bytes(mem, bytes);
  gdouble done = (gdouble)now;
  while (remaining > 0) {
    guint chunk = MIN(remaining, mem->line_bytes);
    guint c = l->channels > 1 ? (guint)g_rand_int_range(mem->rng, 0, (gint32)l->channels) : 0;
    gdouble start = MAX((gdouble)now, l->free_at[c]);
    l->free_at[c] = start + chunk * l->cycles_per_byte;
    done = MAX(done, start + l->latency);
    remaining -= chunk;
  }
  return (SimCycle)ceil(done);
}

void mem_free(Mem *mem) {
  if (mem == NULL)
    return;
  for (guint i = 0; i < MEM_LEVELS; i++)
    g_free(mem->level[i].free_at);
  g_free(mem);
}
