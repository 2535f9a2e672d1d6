/* sm_priv.h - the SM's state, shared by the files of the SM core (sm.c the
 * cycle loop, cta.c CTA launch and retirement, sm_memory.c what memory
 * instructions do).  Not for other modules: sm.h is the SM's interface.
 */
#ifndef WARPSIM_SM_PRIV_H
#define WARPSIM_SM_PRIV_H

#include "core/cta.h"
#include "core/event.h"
#include "core/mem.h"
#include "core/sm.h"
#include "core/smsp.h"
#include "core/warp.h"

/* An instruction as this SM runs it, decoded once per run: its issue class,
 * the model's latency and interval of its pipe, and whether it needs the
 * general issue path (anything but a plain math op, sm_decode). */
typedef struct SmDecoded {
  guint32 latency;  /* cycles to the result (the instruction's, else its pipe's) */
  guint16 interval; /* cycles its pipe is busy (per-SMSP pipes; 0 otherwise) */
  guint8 cls;       /* IssueClass */
  guint8 slow;      /* needs issue_effects, a branch or scoreboard barriers */
  guint8 stall;     /* cycles before the warp's next issue (the stall count, at least 1) */
  guint8 conflict;  /* an FFMA register-bank conflict is modelled for it */
  guint8 yield;     /* its yield hint applies ([sched] yield and Instr yield) */
  guint8 capped;    /* a global load (LDG, a SASS or a synthetic one) and ProgramMemory
                       warp_max_inflight > 0 (Sm.misses kept): sm_warp_load_wait applies */
  guint8 deferred;  /* an STL whose completion only the warp's last_mem takes (no result
                       register, no scoreboard barrier): when it misses L1, its L2 latency is
                       worked out only when last_mem is read, if at all (sm_store_defer) */
  guint8 n_ops;     /* entries of ops */
  guint16 ops[INSTR_MAX_SRC + INSTR_SB_BARRIERS]; /* the scoreboard entries the instruction
                       waits on: its source slots, then its waited barriers (Warp sb_base is the
                       program's n_slots for every warp), as warp_operands_ready reads them */
  guint64 issues;                                 /* warp instructions issued from this pc */
} Decoded;

/* What a memory instruction costs at a given size, worked out at its first
 * issue (sm_memory.c) and again only when its size changes (a local access
 * of a warp with fewer lanes): the per-issue arithmetic that does not depend
 * on the draws. */
typedef struct {
  guint32 bytes;              /* bytes per warp-access it was worked out for */
  guint32 busy;               /* L1TEX: cycles the data stage is busy with them */
  guint32 request_bytes;      /* bytes rounded up to sectors (SimStats load_bytes) */
  guint32 dram_cost;          /* global: bytes of DRAM time the access takes (its bytes,
                                 a scattered access's lines, misaligned sectors), a store's
                                 before its write cost (write_cost) */
  guint32 dram_bytes;         /* global: the bytes DRAM's count (SimStats level_bytes) takes
                                 when DRAM serves it: request_bytes, a scattered load's times
                                 ProgramMemory scattered_dram_scale */
  gdouble port_cycles;        /* local (LDL/STL): cycles the SM's local-memory port is held,
                                 bytes / [spill] bytes_per_cycle (the same double as at
                                 every issue: no division on the hot path) */
  gboolean valid;             /* worked out (else bytes means nothing) */
  MemShape shape[MEM_LEVELS]; /* lines each level's servers are occupied for */
} MemAccess;

/* One warp's global loads that went to DRAM and may still be out (SmLaunch
 * warp_max_inflight): per load, the cycle its data is back and its lines,
 * by that cycle. */
typedef struct {
  SimCycle at;   /* cycle the load's data is back */
  guint32 lines; /* 128 B lines of the load that went to DRAM */
} WarpMiss;

/* The loads of one warp that went to DRAM, those back included until its next
 * one (sm_misses_add in sm_memory.c drops them; sm_warp_load_wait reads
 * them). */
typedef struct {
  WarpMiss *out; /* owned; sorted by at; capacity ProgramMemory warp_max_inflight (each entry holds
                    at least one line, and a load goes out with fewer lines out than that) */
  guint n;       /* entries of out */
  guint lines;   /* lines: the sum of out[0..n).lines */
} WarpMisses;

/* Warps asleep until a cycle less than SM_WAKE_CYCLES ahead that have not
 * exited: one bucket per cycle (modulo the wheel).  The order in which such
 * warps wake within a cycle does not matter (each joins its SMSP's ready
 * set), so a bucket is a plain stack; exited warps, whose retirement order
 * matters, and longer sleeps go to the ordered queue (Sm.wake). */
#define SM_WAKE_CYCLES 1024
typedef struct {
  Warp *head[SM_WAKE_CYCLES];        /* warps due in each bucket, linked by wake_next */
  guint64 used[SM_WAKE_CYCLES / 64]; /* bit b: bucket b is not empty */
  guint64 words;                     /* bit w: used[w] is not 0 (finds the next bucket without
                                        a scan of used[]) */
  SimCycle first;                    /* the first cycle with a warp, SIM_CYCLE_NEVER if none */
} WakeWheel;

struct Sm {
  SmLaunch l;                     /* what runs (borrowed pointers) */
  const SmModel *m;               /* l.model */
  const Program *p;               /* l.program */
  Mem *mem;                       /* the memory levels */
  SimCycle bar_free;              /* cycle the barrier unit takes the next arrival */
  SimCycle membar_free;           /* cycle the SM's fence unit ([membar]) takes the next MEMBAR */
  SimCycle tex_free;              /* cycle the SM's texture unit ([texture]) takes the next fetch */
  gdouble dsmem_free;             /* cycle the SM's DSMEM port ([dsmem]) takes the next access */
  SimCycle dsmem_taken;           /* cycle it took the last one */
  gdouble bulk_l2_hit;            /* probability a TMA bulk copy is served by L2 (SmLaunch) */
  SimCycle bulk_free;             /* cycle the SM's TMA bulk copies ([bulk]) take the next one */
  SimRng rng;                     /* hit levels, latencies, channels, spill misses (rng.h) */
  Smsp *smsp;                     /* m->sm.smsps of them */
  Warp *warp;                     /* warp slots: CTA slot x warps per block */
  Cta *cta;                       /* l.cta_slots of them */
  SmUnits units;                  /* SM-wide: shared-memory unit, loads in flight */
  gdouble local_free;             /* cycle the local-memory (spill) port is free, fractional */
  gdouble atomic_free;            /* cycle the SM's share of the L2 atomic unit is free */
  gdouble store_port_free;        /* cycle the SM's L2 write port ([l2] store_bytes_per_cycle)
                                     takes the next store L2 keeps */
  gdouble store_kept;             /* ProgramMemory store_l2 summed over the SM's stores so far,
                                     less one per store L2 kept (sm_store_kept) */
  EventQueue wake;                /* stalled warps, by the cycle they can issue: exited or far */
  WakeWheel wheel;                /* stalled warps, by the cycle they can issue: the others */
  Warp **soon;                    /* warps due next cycle (the common case, kept off the queue) */
  guint n_soon;                   /* entries of soon */
  guint *retired;                 /* CTA slots retired this cycle, in order */
  guint n_retired;                /* entries of retired */
  guint n_active;                 /* resident, not yet drained warps, all SMSPs */
  guint n_active_smsps;           /* SMSPs with at least one such warp */
  SimCycle active_since;          /* cycle n_active last changed (charged up to it) */
  guint blocks_launched;          /* CTAs launched so far */
  guint blocks_done;              /* CTAs retired so far */
  guint64 next_age;               /* age of the next warp launched */
  guint latency[PIPE_MAX];        /* cycles to the result, per pipe */
  guint interval[PIPE_MAX];       /* cycles between two issues to the pipe */
  StallTally tally;               /* this cycle's throttled warps, by state */
  gdouble l2_peak_scale;          /* [l2] bytes_per_cycle / peak_bytes_per_cycle (1: none) */
  gdouble store_scale[2];         /* DRAM time of a one-line / a longer SASS warp-store at this
                                     launch's resident CTAs, x its write cost (1: none;
                                     ProgramMemory store_streams) */
  SimCycle lg_held_until;         /* end of the last span in which a ready load, store or
                                     (SASS) global atomic waited for the SM's lines in flight
                                     (the lg_full throttle); 0: none yet */
  guint n_ready;                  /* warps in the SMSPs' ready sets */
  guint n_ready_of[CLS_MAX];      /* the same, by the issue class of their next instruction */
  guint64 ready_smsps;            /* bit i set when SMSP i has a warp in its ready sets
                                     ([sm] smsps is at most 8, model.c) */
  guint issue_first;              /* SMSP the issue stage visits first while loads wait for
                                     the lines in flight (lg_held_until); the next one after
                                     each such stage */
  Decoded *dec;                   /* per pc of the program, with its issue count */
  MemAccess *access;              /* per pc of the program (memory instructions only) */
  WarpMisses *misses;             /* per warp slot, with l.warp_max_inflight (else NULL) */
  guint64 dram_read_bytes;        /* bytes L1TEX global loads read from DRAM so far */
  guint64 dram_write_bytes;       /* bytes L1TEX global stores wrote to DRAM so far */
  gdouble l2_spread;              /* mem_latency_spread of L2 (deferred spill stores) */
  gdouble l2_hit_below;           /* a draw below it hits L1 or L2: l1 + (1 - l1) x l2 hit rates */
  gdouble l2_hit_below_scattered; /* the same for scattered loads */
  gdouble l2_near_scattered;      /* below it a scattered L2 hit is a near-partition one, from
                                     it to l2_hit_below_scattered a far one (mem's
                                     load_l2_far_scattered) */
  guint64 selected;               /* warps selected, summed per cycle (the selected state) */
  SimStats st;                    /* counters */
  SimCycle cycle_bound;           /* l.max_cycles, SIM_CYCLE_NEVER when 0 */
};

/* warp_operands_ready for the warp's next instruction, whose decoded form is
 * `d` (w->d): the entries it waits on from one list (the same order, so the
 * same state on a tie). */
static inline SimCycle sm_operands_ready(const Warp *w, const Decoded *d, SimCycle not_before,
                                         guint8 *state) {
  SimCycle at = not_before;
  guint8 reason = *state;
  for (guint k = 0; k < d->n_ops; k++) {
    SimCycle r = w->sb.ready_at[d->ops[k]];
    if (r > at) {
      at = r;
      reason = w->sb.wait_state[d->ops[k]];
    }
  }
  *state = reason;
  return at;
}

/* warp_operands_at through sm_operands_ready. */
static inline SimCycle sm_operands_at(Warp *w, SimCycle not_before, guint8 reason) {
  w->dep_at = sm_operands_ready(w, w->d, not_before, &reason);
  w->dep_reason = reason;
  return w->dep_at;
}

/* The SMSPs' ready sets and the SM-wide counts and mask kept with them
 * (n_ready, n_ready_of, ready_smsps) change together: the SM core calls
 * these two, never smsp_ready/smsp_unready directly, and changes a warp's
 * cls only while it is out of the ready sets (sm_check_ready checks both
 * every cycle under --check).
 *
 * Warp `w` of SMSP `s` joins the candidates of its class (w->cls). */
static inline void sm_ready(Sm *sm, Smsp *s, const Warp *w) {
  smsp_ready(s, w);
  sm->n_ready++;
  sm->n_ready_of[w->cls]++;
  sm->ready_smsps |= 1ULL << w->smsp;
}

/* Warp `w` of SMSP `s` leaves the candidates of its class (w->cls). */
static inline void sm_unready(Sm *sm, Smsp *s, const Warp *w) {
  smsp_unready(s, w);
  sm->n_ready--;
  sm->n_ready_of[w->cls]--;
  sm->ready_smsps &= ~((guint64)(s->ready_all == 0) << w->smsp);
}

/* Warp `w`'s next instruction (w->d: Decoded capped) is a global load
 * and the warp has ProgramMemory warp_max_inflight lines of
 * DRAM-bound loads missing at *not_before (doc/sass.md "A warp's DRAM loads in
 * flight"): raises *not_before to the first cycle with fewer, sets *reason to
 * STALL_LG_THROTTLE and returns TRUE.  FALSE, with nothing changed, when there
 * is no cap, the next instruction is no such load or it need not wait. */
static inline gboolean sm_warp_load_wait(const Sm *sm, const Warp *w, SimCycle *not_before,
                                         guint8 *reason) {
  if (G_LIKELY(!w->d->capped))
    return FALSE;
  const WarpMisses *m = &sm->misses[w - sm->warp];
  SimCycle t = *not_before;
  guint lines = m->lines;
  for (guint i = 0; i < m->n && (m->out[i].at <= t || lines >= sm->l.mem.warp_max_inflight); i++) {
    t = MAX(t, m->out[i].at);
    lines -= m->out[i].lines;
  }
  if (t <= *not_before)
    return FALSE;
  *not_before = t;
  *reason = STALL_LG_THROTTLE;
  return TRUE;
}

/* The DRAM time factors of SASS stores at `ctas` resident CTAs per SM, from
 * ProgramMemory store_streams `s` (what they model and the source of their
 * values: models/h200.ini [class_global] dram_store_line_b1):
 * out[0] = s[0] + (s[1] - s[0]) x min(ctas - 1, 7) / 7 for a one-line
 * warp-store, out[1] the same from s[2], s[3] for a longer one; both 1 when
 * s[0] is 0 (off) or ctas is 0.  Multiplies a store's DRAM service time. */
void sm_store_scales(const gdouble s[4], guint ctas, gdouble out[2]);

/* Memory effects of issuing the global load or store `in` (LDG, STG);
 * returns the cycle its data is back (sm_memory.c). */
SimCycle sm_issue_memory(Sm *sm, Warp *w, const Instr *in, SimCycle now);

/* Work out what the memory instruction `in` costs at `bytes` per access
 * into `a` (sm_memory.c). */
void sm_access_init(const Sm *sm, const Instr *in, guint bytes, MemAccess *a);

/* The cost of `in` (code[w->pc]) at the warp's active lanes: the pc's
 * cached MemAccess, worked out again when the bytes differ. */
static inline MemAccess *sm_access(Sm *sm, const Warp *w, const Instr *in) {
  guint bytes = in->lane_bytes ? w->lanes * in->lane_bytes : in->bytes;
  MemAccess *a = &sm->access[w->pc];
  if (G_UNLIKELY(!a->valid || a->bytes != bytes))
    sm_access_init(sm, in, bytes, a);
  return a;
}

/* The cycle warp `w`'s deferred spill store (w->store_pending) is back:
 * what sm_spill_access's miss gives for it, from its draw. */
static inline SimCycle sm_store_ready(const Sm *sm, const Warp *w) {
  SimCycle l2 = mem_latency_at(sm->mem, MEM_L2, w->store_seq, w->store_at, w->store_draw);
  return MAX(w->store_at + sm->m->l1.latency, l2);
}

/* The warp's deferred spill store, if any, goes into last_mem: called
 * before last_mem is read (a drain, a MEMBAR). */
static inline void sm_store_settle(const Sm *sm, Warp *w) {
  if (w->store_pending) {
    SimCycle ready = sm_store_ready(sm, w);
    w->last_mem = MAX(w->last_mem, ready);
    w->store_pending = 0;
  }
}

/* A spill store of warp `w` that missed L1 left the port at `begin` with
 * L2 latency draw `u` (mem_latency_draw): its completion matters only as
 * the warp's last_mem (Decoded deferred), the latest of its accesses, so
 * of the warp's missing stores only one whose completion may be the latest
 * is kept, without libm's `log` where bounds tell which of two is back
 * later (mem_latency_order; begin never falls, the port serves in turn).
 * A spilling kernel's missing STLs are a quarter of its instructions
 * (spill_32 at B = 8: 1.14 M of 4.44 M), each a `log` call otherwise; the
 * cycles and draws are the same as working each one out at once. */
static inline void sm_store_defer(const Sm *sm, Warp *w, gboolean sequential, SimCycle begin,
                                  gdouble u) {
  if (w->store_pending) {
    gint later = w->store_seq == sequential
                     ? mem_latency_order(sm->l2_spread, begin, u, w->store_at, w->store_draw)
                     : 0;
    if (later < 0)
      return; /* the kept one is back later */
    if (later == 0)
      sm_store_settle(sm, w); /* undecided: the kept one is worked out */
  }
  w->store_at = begin;
  w->store_draw = u;
  w->store_seq = (guint8)sequential;
  w->store_pending = 1;
}

/* A register spill access (LDL/STL) `a` of warp `w` issued at `now`;
 * returns the cycle its data is back (a deferred store's L1 cycle, its L2
 * one kept by sm_store_defer). */
static inline SimCycle sm_spill_access(Sm *sm, Warp *w, const Instr *in, const MemAccess *a,
                                       SimCycle now) {
  /* Local memory has one SM-wide port, first come first served: each
   * access holds it for bytes / [spill] bytes_per_cycle cycles
   * (calibrate/spill.cu: 0.26 LDL/STL per cycle per SM at any occupancy). */
  gdouble start = MAX((gdouble)now, sm->local_free);
  sm->local_free = start + a->port_cycles;
  SimCycle begin = sim_cycle_ceil(start);
  SimCycle ready = begin + sm->m->l1.latency;
  /* A spill access also goes to L2 when it misses, which happens when the
   * SM's spill footprint outgrows the L1 that the shared-memory carveout
   * leaves (doc/model.md "Register spills").  The port stays the limit whatever
   * the hit rate (results/reference/h200/spill_sass: 0.25-0.26 LDL/STL per
   * cycle per SM with local-load L1 hit rates from 41 % down to 3 %,
   * Nsight Compute), so a missing STL waits for L2's latency but takes none
   * of [l2] bytes_per_cycle (measured with loads: the data-return path); a
   * missing LDL's data comes back over it. */
  if (sim_rng_double(&sm->rng) >= sm->l.spill_l1_hit) {
    SimCycle l2;
    if (in->op == OP_LDL) {
      l2 = mem_load_lines(sm->mem, MEM_L2, a->shape[MEM_L2], in->sequential, begin);
    } else if (w->d->deferred) {
      sm_store_defer(sm, w, in->sequential, begin, mem_latency_draw(&sm->rng, sm->l2_spread));
      l2 = ready;
    } else {
      l2 = mem_latency(sm->mem, MEM_L2, in->sequential, begin);
    }
    ready = MAX(ready, l2); /* (made once: GLib's MAX evaluates its arguments twice) */
  }
  sm->st.spill_insts++;
  return ready;
}

/* The memory effects of issuing a local (spill) load or store `in` (LDL,
 * STL) of warp `w` at `now`: the SM's local-memory port, L1 or, when it
 * misses, L2; returns the cycle its data is back.  Inline: over half of a
 * spilling kernel's instructions are LDL/STL (spill_32: 2.59 M of 4.44 M at
 * B = 8, doc/speed.md). */
static inline SimCycle sm_issue_spill(Sm *sm, Warp *w, const Instr *in, SimCycle now) {
  MemAccess *a = sm_access(sm, w, in);
  gboolean load = in->op == OP_LDL;
  if (in->l1tex) {
    /* An access through L1TEX: its data passes the data stage that shared
     * memory uses too (sm_issue_memory); the units are updated below. */
    sm->units.smem_free = MAX(now, sm->units.smem_free) + a->busy; /* sm_smem_take's */
    sm->st.pipe_busy[PIPE_SMEM] += a->busy;
  }
  SimCycle ready = sm_spill_access(sm, w, in, a, now);
  if (load) /* a load's data is in flight until it is back (a store's: nothing waits) */
    count_queue_add(&sm->units.inflight, ready, 1);
  if (in->l1tex || load) /* once for both changes: sm_spill_access reads no unit */
    smsp_units_update(&sm->units);
  w->last_mem = MAX(w->last_mem, ready);
  return ready;
}

/* The SM-wide shared-memory unit takes `busy` cycles of work handed to it at
 * `now` (an LDS/STS/SHFL, a BAR arrival's slot, a global load's L1TEX data),
 * once it has done what it has queued; returns the cycle it starts on it. */
static inline SimCycle sm_smem_take(Sm *sm, SimCycle busy, SimCycle now) {
  SimCycle start = MAX(now, sm->units.smem_free);
  sm->units.smem_free = start + busy;
  smsp_units_update(&sm->units);
  return start;
}

/* Shared-memory effects of issuing `in`: the SM-wide shared-memory unit
 * takes it for `ways` intervals once it has done what it has queued (at most
 * [smem] queue cycles of work, or the LDS would not have issued); returns the
 * cycle its result is ready: latency plus, for an LDS/STS, [smem]
 * wavefront_latency for each wavefront beyond the first (an OP_SHFL's
 * latency is its whole latency: MATCH, REDUX and a register-indexed LDC
 * give theirs for all their unit cycles, results/reference/h200/mio/).
 * Inline: a quarter of a GEMM's instructions are LDS. */
static inline SimCycle sm_issue_smem(Sm *sm, const Instr *in, SimCycle now) {
  SimCycle busy = (SimCycle)sm->m->smem.interval * in->ways;
  SimCycle start = sm_smem_take(sm, busy, now);
  guint latency = in->latency ? in->latency : sm->m->smem.latency;
  if (in->op == OP_SHFL)
    return start + latency;
  return start + latency + (SimCycle)sm->m->smem_wavefront_latency * (in->ways - 1u);
}

#endif
