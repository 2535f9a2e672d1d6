/* sm_memory.c - what a memory instruction does when it issues: global loads
 * through the levels (or a drawn hit level), the local-memory port of
 * spills, the SM-wide shared-memory unit. */
#include "core/sm_priv.h"

/* The level a drawn global access `in` (level MEM_LEVELS) is served from, drawn
 * from the launch's hit rates (L1, then L2 for what misses L1; a scattered
 * access has its own L2 rate); *far: a scattered L2 hit the far L2 partition
 * serves (the top load_l2_far_scattered of its L2 band: the same draw, so a
 * launch with none draws as before). */
static MemLevel draw_level(Sm *sm, const Instr *in, gboolean *far) {
  gdouble u = sim_rng_double(&sm->rng);
  *far = FALSE;
  if (u < sm->l.mem.load_l1_hit)
    return MEM_L1;
  if (u < (in->scattered ? sm->l2_hit_below_scattered : sm->l2_hit_below)) {
    *far = in->scattered && u >= sm->l2_near_scattered;
    return MEM_L2;
  }
  return MEM_DRAM;
}

/* Bytes the servers of `level` are occupied for by a global access (LDG/STG)
 * of `bytes`, a store's DRAM time not yet scaled (write_cost). */
static guint global_cost(const Sm *sm, const Instr *in, guint bytes, MemLevel level) {
  guint cost = bytes;
  if (level == MEM_L1 && in->line_cost > 0 && sm->l.mem.l1_cycle_per_line)
    /* a wavefront per line: each line one cycle of L1, at least */
    cost = MAX(bytes, (guint)(in->line_cost * sm->m->l1.bytes_per_cycle + 0.5));
  if (level == MEM_DRAM && in->line_cost > 0) {
    /* a scattered access: DRAM moves more than the sectors asked for, a
     * line per sector, or (loads, scattered_dram_bytes) what was measured */
    guint per = in->op == OP_LDG && sm->l.mem.scattered_dram_bytes > 0
                    ? sm->l.mem.scattered_dram_bytes
                    : sm->m->line_bytes;
    cost = MAX(bytes, (guint)in->line_cost * per);
  }
  if (level == MEM_DRAM) /* sectors read or written in part (misaligned) */
    cost += in->partial_bytes;
  return cost;
}

/* The DRAM time, in read bytes, of a store of `cost` stored bytes at `share`
 * (the reads' share of the SM's DRAM bytes): read/write turnaround. */
static guint write_cost(const Sm *sm, guint cost, gdouble share) {
  return (guint)(cost * (sm->l.mem.dram_write_cost + sm->l.mem.dram_turnaround * share) + 0.5);
}

void sm_store_scales(const gdouble s[4], guint ctas, gdouble out[2]) {
  out[0] = out[1] = 1.0;
  if (s[0] <= 0.0 || ctas == 0)
    return;
  /* results/reference/h200/matrix/gstore.csv: a coalesced DRAM store stream
   * writes less per cycle the more CTAs (each its own stream of lines) an SM
   * holds, down to B = 8; 32-bit stores (one line per warp-store) 20.3 ->
   * 16.4 B/cycle/SM, 128-bit 19.1 -> 17.8 at B = 8 (1 per iteration; 17.7
   * with 4) and 17.6 at B = 16, the value models/h200.ini quotes */
  gdouble x = (gdouble)MIN(ctas - 1, 7u) / 7.0;
  out[0] = s[0] + (s[1] - s[0]) * x;
  out[1] = s[2] + (s[3] - s[2]) * x;
}

void sm_access_init(const Sm *sm, const Instr *in, guint bytes, MemAccess *a) {
  gboolean global = in->op == OP_LDG || in->op == OP_STG;
  a->bytes = bytes;
  a->busy = (bytes + sm->m->l1.bytes_per_cycle - 1) / sm->m->l1.bytes_per_cycle;
  a->request_bytes = mem_request_bytes(sm->mem, bytes);
  for (MemLevel level = 0; level < MEM_LEVELS; level++)
    a->shape[level] = mem_shape(sm->mem, global ? global_cost(sm, in, bytes, level) : bytes);
  a->dram_cost = global ? global_cost(sm, in, bytes, MEM_DRAM) : 0;
  a->dram_bytes = a->request_bytes;
  if (in->op == OP_LDG && in->line_cost > 0 && sm->l.mem.scattered_dram_scale > 1.0)
    /* the sectors' neighbours DRAM reads with them: bytes, not time */
    a->dram_bytes = (guint32)(a->request_bytes * sm->l.mem.scattered_dram_scale + 0.5);
  a->port_cycles = a->bytes / sm->m->spill_bytes_per_cycle;
  if (in->scattered && (in->op == OP_LDL || in->op == OP_STL)) {
    /* a register-indexed local array: per sector, loads and stores apart
     * ([spill] scattered_{load,store}_sector_cycles; results/reference/
     * h200/casl/: a scattered STL holds the SM 2.9-3.2 cycles a sector, it
     * writes through to L2; an LDL 0.35) */
    gdouble per =
        in->op == OP_STL ? sm->m->local_scattered_store_cycles : sm->m->local_scattered_load_cycles;
    if (per > 0)
      a->port_cycles = (gdouble)bytes / (gdouble)sm->m->sector_bytes * per;
  }
  if (in->op == OP_STG) /* as written with no reads (dram_turnaround adds the share's) */
    a->shape[MEM_DRAM] = mem_shape(sm->mem, write_cost(sm, a->dram_cost, 0.0));
  a->valid = TRUE;
}

/* The warp's global load of `lines` lines that went to DRAM at `now` is back
 * at `at`: it joins the warp's missing lines, less those back by `now`. */
static void sm_misses_add(WarpMisses *m, guint cap, SimCycle now, SimCycle at, guint lines) {
  guint done = 0;
  while (done < m->n && m->out[done].at <= now)
    m->lines -= m->out[done++].lines;
  if (done > 0) { /* (a plain loop: one entry or two leave at a time, no memmove call) */
    m->n -= done;
    for (guint i = 0; i < m->n; i++)
      m->out[i] = m->out[i + done];
  }
  /* it went out with fewer than cap lines out (sm_warp_load_wait) */
  g_assert(m->n < cap);
  guint i = m->n;
  for (; i > 0 && m->out[i - 1].at > at; i--)
    m->out[i] = m->out[i - 1];
  m->out[i] = (WarpMiss){at, lines};
  m->n++;
  m->lines += lines;
}

/* The DRAM lines a store `a` through L1TEX keeps DRAM busy for at
 * `now`'s mix: its stored bytes times dram_write_cost plus dram_turnaround
 * times the reads' share of the SM's DRAM bytes so far (none yet: 0). */
static MemShape store_shape(Sm *sm, const MemAccess *a) {
  guint64 all = sm->dram_read_bytes + sm->dram_write_bytes;
  gdouble share = all > 0 ? (gdouble)sm->dram_read_bytes / (gdouble)all : 0.0;
  return mem_shape(sm->mem, write_cost(sm, a->dram_cost, share));
}

/* The L2 atomic unit's rate, sectors per cycle per SM, for atomic kind
 * `kind` (Instr.atomic): a compare-and-swap's, else a returning atomic's,
 * else a reduction's, each falling back to the next when 0. */
gdouble sm_atomic_rate(const SmModel *m, guint kind) {
  if (kind == 3 && m->atomic_cas_sectors_per_cycle > 0)
    return m->atomic_cas_sectors_per_cycle;
  if (kind >= 2 && m->atomic_return_sectors_per_cycle > 0)
    return m->atomic_return_sectors_per_cycle;
  return m->atomic_sectors_per_cycle;
}

/* A global atomic `a` (in->atomic) issued at `now`: the SM's share of the L2
 * atomic unit serves its sectors in order, first come first served, at [l2]
 * atomic_sectors_per_cycle (reductions), atomic_return_sectors_per_cycle
 * (atomics that return a value) or atomic_cas_sectors_per_cycle
 * (compare-and-swap; sm_atomic_rate); returns the cycle it is done.
 * Measured (results/reference/h200/atomics/): with every SM busy the GPU's
 * L2 does 56-62 uncontended atomic sectors per cycle (RED), whatever the
 * occupancy, and fewer when many lanes aim at few words: one rate per
 * kernel; a CAS 0.21 sectors per cycle per SM (casl/). */
static SimCycle atomic_access(Sm *sm, const Instr *in, const MemAccess *a, SimCycle now) {
  gdouble rate = sm_atomic_rate(sm->m, in->atomic);
  *(in->atomic == 3   ? &sm->st.atomic_cas_bytes
    : in->atomic == 2 ? &sm->st.atomic_return_bytes
                      : &sm->st.atomic_bytes) += a->bytes;
  gdouble start = MAX((gdouble)now, sm->atomic_free);
  gdouble hold = (gdouble)a->bytes / (gdouble)sm->m->sector_bytes / rate;
  if (in->atomic_gpu_cycles > 0) {
    /* on few words: the SM's share of the device's contended rate */
    guint busy = sm->l.busy_sms > 0 ? sm->l.busy_sms : sm->m->sm.sms;
    hold = MAX(hold, (gdouble)in->atomic_gpu_cycles * (gdouble)busy);
  }
  sm->atomic_free = start + hold;
  SimCycle served = sim_cycle_ceil(sm->atomic_free);
  if (in->atomic == 3 && sm->m->atomic_cas_latency > 0) {
    /* the old value comes back a CAS round trip after issue at the
     * earliest ([l2] atomic_cas_latency: casl/ cas_chain, one line a
     * request, B = 1) */
    SimCycle back = now + sm->m->atomic_cas_latency;
    served = MAX(served, back);
  }
  return served;
}

/* Whether L2 keeps the store `in` (a plain STG through L1TEX): of the SM's
 * stores of its kind (one line, or more), the launch's ProgramMemory
 * store_l2 share, spread evenly (no draw: the rng's sequence stays as it
 * was with the law off). */
static gboolean sm_store_kept(Sm *sm, const Instr *in) {
  sm->store_kept += sm->l.mem.store_l2[in->lines > 1];
  if (sm->store_kept < 1.0 - 1e-9)
    return FALSE;
  sm->store_kept -= 1.0;
  return TRUE;
}

/* A store `a` L2 keeps, issued at `now`: the SM's L2 write port takes its
 * bytes in order at [l2] store_bytes_per_cycle (results/reference/h200/
 * l2store/: a rewritten region L2 keeps takes 19.9 B/cycle/SM at every B,
 * where a store stream to DRAM takes 17.7, and a read-modify-write of it
 * 16.7-17.7 besides its loads (128-bit, B = 8-16, 4.3-38.9 MB: not the
 * loads' share of L2); it is written an L2 latency after the port takes
 * its last byte. */
static SimCycle store_port(Sm *sm, const MemAccess *a, SimCycle now) {
  gdouble start = MAX((gdouble)now, sm->store_port_free);
  sm->store_port_free = start + (gdouble)a->request_bytes / sm->m->l2_store_bytes_per_cycle;
  return sim_cycle_ceil(sm->store_port_free) + sm->m->l2.latency;
}

/* A global load or store (LDG/STG) `a` of warp `w` issued at `now` through
 * the level it is served from; *missed: it left L1; *done: the cycle the
 * level is done with it (a load's data back, a store written).  Returns the
 * cycle its data is back (a store: the cycle its registers are read). */
static SimCycle global_access(Sm *sm, Warp *w, const Instr *in, const MemAccess *a, SimCycle now,
                              gboolean *missed, SimCycle *done) {
  gboolean far = FALSE;
  MemLevel level = in->level < MEM_LEVELS ? (MemLevel)in->level : draw_level(sm, in, &far);
  /* a plain store (atomics: level L2 or a load) that L2 keeps (store_l2) */
  gboolean kept =
      G_UNLIKELY(level == MEM_DRAM && in->op == OP_STG && sm->l.mem.store_l2[in->lines > 1] > 0) &&
      in->l1tex && sm_store_kept(sm, in);
  if (kept && sm->m->l2_store_bytes_per_cycle > 0)
    level = MEM_L2; /* (else timed as a DRAM store, its bytes L2's: below) */
  *missed = level != MEM_L1;
  MemShape shape = a->shape[level];
  if (level == MEM_DRAM && in->l1tex) { /* the SM's DRAM mix (dram_turnaround) */
    if (in->op == OP_STG && sm->l.mem.dram_turnaround > 0)
      shape = store_shape(sm, a);
    *(in->op == OP_STG ? &sm->dram_write_bytes : &sm->dram_read_bytes) += a->request_bytes;
  }
  gdouble scale = 1.0;
  if (level == MEM_DRAM && in->op == OP_STG && in->l1tex) /* streams of writes (store_scale) */
    scale = sm->store_scale[in->lines > 1];
  if (level == MEM_L2 && in->op == OP_LDG && in->l1tex && sm->l2_peak_scale < 1.0 &&
      sm->lg_held_until < now)
    /* while no load waits for the SM's lines in flight, L2 serves at its
     * peak ([l2] peak_bytes_per_cycle); once loads ask for more lines than
     * the SM has (lg_full up to this cycle), at bytes_per_cycle
     * (results/reference/h200/l2flight/: the rate falls once more lines are
     * asked for than the L1 the carveout leaves holds) */
    scale = sm->l2_peak_scale;
  SimCycle ready = G_UNLIKELY(kept && sm->m->l2_store_bytes_per_cycle > 0)
                       ? store_port(sm, a, now)
                       : mem_load_lines_scaled(sm->mem, level, shape, in->sequential, now, scale);
  if (G_UNLIKELY(level != MEM_L1 && in->line_cost > 0 && sm->l.mem.l1_cycle_per_line)) {
    /* a scattered access that missed takes its L1 wavefronts all the same
     * (l1_cycle_per_line, set with in->l1tex accesses only) */
    SimCycle l1 = mem_load_lines(sm->mem, MEM_L1, a->shape[MEM_L1], in->sequential, now);
    ready = MAX(ready, l1); /* (made once: MAX evaluates twice) */
  }
  if (far && in->op == OP_LDG)
    /* a scattered load the far L2 partition serves: [l2] far_extra_cycles
     * more (results/reference/h200/gatherstep/: random lines past the near
     * partition's reach, through the LTC fabric) */
    ready += sm->m->l2_far_extra_cycles;
  if (in->atomic) {
    SimCycle served = atomic_access(sm, in, a, now); /* (once: MAX evaluates twice) */
    ready = MAX(ready, served);
  }
  *done = ready;
  if (sm->dec[w->pc].capped && level == MEM_DRAM &&
      a->shape[level].lines > 0) /* (an entry holds at least one line) */
    sm_misses_add(&sm->misses[w - sm->warp], sm->l.mem.warp_max_inflight, now, ready,
                  a->shape[level].lines);
  if (G_UNLIKELY(kept))
    sm->st.level_bytes[MEM_L2] += a->request_bytes;
  else
    sm->st.level_bytes[level] += level == MEM_DRAM ? a->dram_bytes : a->request_bytes;
  if (G_UNLIKELY(level != MEM_L1 && sm->l.mem.miss_refills_l1 && in->level == MEM_LEVELS &&
                 !in->l1tex)) {
    /* A drawn load that missed L1 without passing the L1TEX data stage
     * (miss_refills_l1): its data comes back through L1 all the same, at
     * L1's bandwidth (an access with in->l1tex pays this in that stage). */
    SimCycle l1 = mem_load_lines(sm->mem, MEM_L1, a->shape[MEM_L1], in->sequential, now);
    ready = MAX(ready, l1); /* (made once: MAX evaluates twice) */
    sm->st.level_bytes[MEM_L1] += a->request_bytes;
  }
  if (in->op == OP_STG) {
    /* Nothing waits for a store's data; its registers are read soon after
     * issue (the read scoreboard). */
    return now + in->read_latency;
  }
  sm->st.loads++;
  sm->st.load_bytes += a->request_bytes;
  sm->st.load_latency_sum += ready - now;
  return ready;
}

/* `lines` more in flight until `at`: the units' throttles follow. */
static inline void sm_inflight_add(Sm *sm, SimCycle at, guint lines) {
  count_queue_add(&sm->units.inflight, at, lines);
  smsp_units_update(&sm->units);
}

/* A load or store of a peer CTA's shared memory (in->dsmem): the SM's DSMEM
 * port takes one per [dsmem] load_interval / store_interval (per 128 B) at
 * sm->dsmem_taken; a load's data is back [dsmem] latency after that, a
 * store's registers are read then (and its warp issues no sooner, sm.c:
 * lg_throttle, as the H200's peer stores show) and nothing waits for its data
 * (results/reference/h200/dsmem/: chain.csv, load.csv, store.csv).  The
 * peer's SM serves it: one simulated SM stands for both, each issuing what
 * it serves (a cluster's CTAs run the same code). */
static SimCycle sm_dsmem(Sm *sm, Warp *w, const Instr *in, SimCycle now) {
  gdouble start = MAX((gdouble)now, sm->dsmem_free);
  sm->dsmem_free = start + sm->m->dsmem_interval[in->dsmem - 1] * in->bytes / 128.0;
  sm->dsmem_taken = sim_cycle_ceil(start);
  SimCycle ready =
      sm->dsmem_taken + (in->dsmem == 2 ? (guint)in->read_latency : sm->m->dsmem_latency);
  w->last_mem = MAX(w->last_mem, ready);
  return ready;
}

SimCycle sm_issue_memory(Sm *sm, Warp *w, const Instr *in, SimCycle now) {
  if (G_UNLIKELY(in->dsmem))
    return sm_dsmem(sm, w, in, now);
  MemAccess *a = sm_access(sm, w, in);
  gboolean missed = TRUE; /* the access left L1 */
  SimCycle done = 0;      /* a global access: its level is done with it */
  if (in->l1tex) {
    /* An access through L1TEX: its data passes the data stage that shared memory
     * uses too: bytes at the L1 rate ([l1] bytes_per_cycle) keep it busy. */
    sm_smem_take(sm, a->busy, now);
    sm->st.pipe_busy[PIPE_SMEM] += a->busy;
  }
  /* A texture fetch waits for the SM's texture unit ([texture] interval per
   * warp-fetch), then takes the latency of a load from its level and the
   * texture path's own cycles (results/reference/h200/tma/tex.csv). */
  SimCycle at = now;
  guint extra = 0;
  if (in->tex) {
    guint k = in->tex - 1u, iv = sm->m->tex_interval[k];
    if (iv > 0) {
      at = MAX(now, sm->tex_free);
      sm->tex_free = at + iv;
    }
    extra = sm->m->tex_latency[k];
  }
  SimCycle ready = global_access(sm, w, in, a, at, &missed, &done) + extra;
  /* (sm_smem_take updated the units; a count added here updates them again,
   * none added leaves them as they are) */
  if (in->l1tex && in->op == OP_LDG) {
    /* Through L1TEX, every line that misses L1 holds one of the SM's miss slots
     * (ProgramMemory max_inflight) until its data is back. */
    if (missed)
      sm_inflight_add(sm, ready, in->lines);
  } else if (in->l1tex && in->op == OP_STG) {
    /* and, with stores_hold_lines, every line a store writes until it is
     * written (results/reference/h200/real8/) */
    if (missed && sm->l.mem.stores_hold_lines && in->level == MEM_DRAM) /* (not atomics) */
      sm_inflight_add(sm, done, in->lines);
  } else if (in->op == OP_LDG) {
    sm_inflight_add(sm, ready, 1);
  }
  w->last_mem = MAX(w->last_mem, ready);
  return ready;
}
