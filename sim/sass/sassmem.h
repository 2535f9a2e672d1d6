/* sassmem.h - memory per SASS instruction from the Nsight Compute profile:
 * bytes and sectors per request, per-warp footprints of the loops, L1/L2 hit
 * rates of loads and how they move with resident warps (see sassprog.h). */
#ifndef WARPSIM_SASSMEM_H
#define WARPSIM_SASSMEM_H

#include "core/program.h"
#include "input/model.h"
#include "sass/ncu.h"
#include "sass/sass.h"
#include "sass/sassprog.h"

#include <glib.h>

/* How a global/local-class instruction touches memory. */
typedef enum {
  SASS_ACC_NONE,
  SASS_ACC_LOAD,
  SASS_ACC_STORE,
  SASS_ACC_ATOMIC,
  SASS_ACC_LOCAL_LOAD,
  SASS_ACC_LOCAL_STORE
} SassAccess;

/* Bytes per thread `in` moves, from its .8/.16/.64/.128 modifier (default 4). */
guint sassmem_width_bytes(const SassInstr *in);

/* The access kind of `in`, from its opcode and (when non-NULL) profile row p:
 * global and local memory only (SASS_ACC_NONE for shared-memory ATOMS and
 * the warp reduction REDUX; a global atomic as sassmem_global_atomic says,
 * or a surface atomic: SASS_ACC_LOAD with a result, else SASS_ACC_ATOMIC). */
SassAccess sassmem_access(const SassInstr *in, const NcuInstr *p);

/* 1 when `in` is a global reduction (RED, REDG: no result), 2 a global
 * atomic that returns a value (ATOM, ATOMG), 3 a global compare-and-swap
 * (ATOM.CAS, ATOMG.E.CAS), else 0 (shared-memory ATOMS, surface atomics,
 * the warp reduction REDUX). */
guint sassmem_global_atomic(const SassInstr *in);

/* The bytes of the TMA bulk copy `UBLKCP [URd], [URs], URn` at instruction i of fn:
 * its size operand URn holds the size in 16-byte units in its low 16 bits
 * (cp.async.bulk's size / 16: `UMOV UR5, 0x80` for 2 KiB in
 * results/reference/h200/real12/sass/kernels12.sass k_bulk); found as the
 * nearest earlier `UMOV URn, imm` (at most 64 instructions back, none between
 * writing URn).  0 when the size is not such an immediate (computed at run
 * time: the copy is timed by its fixed latency alone). */
guint32 sassmem_bulk_bytes(const SassFunction *fn, guint i);

/* Times instruction i executed in the profiled launch (warp-level
 * instructions); 0 without a source profile. */
gdouble sassmem_executed(const SassKernel *sk, guint i);

/* 32-byte sectors one execution of global instruction i requests: the
 * profile's L2 sectors / executions, else the ideal (sassmem_ideal_sectors).
 * A texture fetch (sassmem_texture_fetch) whose global columns are both 0
 * (L1 Tag Requests Global, L2 Theoretical Sectors Global: Nsight Compute
 * counts its traffic as texture, not global; real12's tex, 67,584 TEX.LL
 * executions with 0 in both) takes the ideal too. */
gdouble sassmem_sectors(const SassKernel *sk, guint i);

/* Whether the instruction is a texture fetch (TEX, TLD, TLD4). */
gboolean sassmem_texture_fetch(const SassInstr *in);

/* A generic LD or ST that the profile `p` shows reaching a peer CTA's shared
 * memory (distributed shared memory): Address Space "Global,Shared" with no
 * L1 tag request of global memory, no L2 sector and no shared-memory
 * wavefront (the H200's peer loads and stores, results/reference/h200/dsmem/
 * ncu_source.csv; a generic access to the CTA's own shared memory is
 * "Shared" with its wavefronts).  FALSE without a profile row. */
gboolean sassmem_dsmem(const SassInstr *in, const NcuInstr *p);

/* Sectors of a fully coalesced request: width_bytes x 32 threads / 32 bytes. */
gdouble sassmem_ideal_sectors(const SassInstr *in);

/* Whether instruction i's requests are scattered (a gather): twice the
 * ideal sectors per request or more (sassmem_sectors), and not a strided
 * span of full lines (sassmem_strided_span).  A coalesced request
 * that is misaligned touches at most one sector more per line it fills
 * (stencil's 5 for 4), far below twice; gather's touches 32 for 4. */
gboolean sassmem_scattered(const SassKernel *sk, guint i);

/* Sectors per L1 tag request (one 128 B line looked up) from which a request
 * of twice its ideal sectors or more fills the lines it touches: a strided
 * span, not a gather.  A gather's lanes touch one sector a line (1.0 in every
 * scattered request of the shipped profiles: gather, spmv, colsum, gstore;
 * stencil's predicated tails 1.0), a span of full lines 4 (aos12's 12-byte
 * stride: 12 sectors over 3 tag requests, results/reference/h200/real11/ncu/
 * aos12_source_b8.csv); 3 is the midpoint of 2 (half-filled lines) and 4,
 * a counting rule, nothing measured or fitted. */
#define SASSMEM_SPAN_SECTORS_PER_LINE 3.0

/* Whether global instruction i's requests are a strided span: twice the
 * ideal sectors or more (sassmem_sectors) over lines they fill, at least
 * SASSMEM_SPAN_SECTORS_PER_LINE sectors per L1 tag request of the source
 * profile (its "L1 Tag Requests Global").  A 12-byte struct read field by
 * field (three 4-byte loads at a 12-byte stride) asks for 12 sectors in 3
 * lines: one request of 3 lines, not a gather of 12.  FALSE without the
 * profile's tag requests, and for local, shared and non-memory instructions.
 * sassmem_scattered is FALSE for such an instruction. */
gboolean sassmem_strided_span(const SassKernel *sk, guint i);

/* Whether the warps of a CTA run instruction i in lockstep: the innermost
 * loop holding it (the whole function when none does) has a CTA barrier
 * (BAR.SYNC).  Then the sectors neighbouring warps' misaligned accesses share
 * are completed together (results/reference/h200/microbench/sync_partial.csv). */
gboolean sassmem_barrier_synced(const SassKernel *sk, guint i);

/* The L2 hit rate (0..1) of `l2_sectors` load sectors that reach L2 at the
 * profiled rate `h` (0..1), raised so that their misses, at 32 bytes a
 * sector, do not exceed `dram_bytes` (the profiled launch's DRAM bytes, reads
 * and writes: a sector a load missed in L2 was read from DRAM).  `h`
 * unchanged when the misses fit, or when dram_bytes is NaN or <= 0 (not in
 * the export).  Nsight Compute's L2 Hit Rate can count more misses than DRAM
 * served (doc/sass.md "The profile's DRAM bytes bound its L2 misses"). */
gdouble sassmem_dram_bounded_hit(gdouble h, gdouble l2_sectors, gdouble dram_bytes);

/* DRAM's bytes per byte of a scattered load's sectors that missed L2 (>= 1):
 * the profiled launch's `dram_bytes` (Memory Throughput x Duration, reads
 * and writes) less `other_sectors` (the coalesced loads' L2 misses and the
 * store sectors) at 32 bytes a sector, over `scattered_misses` sectors at
 * 32 bytes.  1 when that is less, when scattered_misses <= 0, or when
 * dram_bytes is NaN or <= 0 (not in the export).  DRAM reads about two
 * sectors per scattered one that missed (gather 2.13; results/reference/
 * h200/l2flight/ncu/raw_b4.csv 2.00 for adjacent lines); the caller bounds
 * it by a line (sassmem_launch_memory).  It counts bytes only, not DRAM
 * time ([class_global] scattered_dram_bytes, a line per sector). */
gdouble sassmem_scattered_dram_scale(gdouble scattered_misses, gdouble other_sectors,
                                     gdouble dram_bytes);

/* Fill sk's hit rates (load_l1_hit, load_l2_hit ...), estimated per-warp
 * footprints and local_bytes from its listing and profile.  load_l1_hit is
 * the details' L1/TEX Hit Rate (over load and store sectors) taken as the
 * loads' hits, or, where those would outnumber the load sectors (stores hit
 * lines earlier stores wrote: radix), the kernel's rate.  load_l2_hit is
 * the details' L2 Hit Rate for loads, raised when the details' DRAM bytes
 * (Memory Throughput x Duration) cannot serve the scattered loads' share of
 * its misses at 32 bytes a sector, and for all loads' misses so that they do
 * not exceed those bytes (sassmem_dram_bounded_hit; doc/sass.md "The
 * profile's DRAM bytes bound its L2 misses").  sk->fn (and the profiles,
 * when given) must be loaded. */
void sassmem_derive(SassKernel *sk);

/* Hit rates of global loads with `warps` resident warps per SM and
 * `smem_per_sm` bytes of shared memory allocated: per level, h(W) = h_inf x
 * min(1, C / (W x F)) with C the level's capacity (L1: [l1] bytes less the
 * shared memory; L2: [l2] bytes / SMs), F the footprint per warp, and h_inf
 * anchored so that h(profiled warps) is the profiled hit rate.  When the
 * profiled rate exceeds what the capacity allows (data shared by many warps,
 * e.g. sgemm's tiles), the rate stays as profiled at every occupancy. */
void sassmem_hit_rates(const SassKernel *sk, const SmModel *m, guint warps, gdouble smem_per_sm,
                       gdouble *l1_hit, gdouble *l2_hit);

/* TRUE when store `i` of `fn` writes back what a global load of the same
 * basic block read: an LDG earlier in the block with the same address
 * operand (general base register and immediate offset, e.g. `[R8.64+-0x800]`)
 * and width, the base register written by nothing in between, no branch and
 * no branch target between the two (a read-modify-write such as `y = a x +
 * y`).  Such a store's sectors are in L2 already: they add nothing to the
 * bytes a CTA leaves there (SassKernel.cta_l2_bytes).  A counting rule of
 * the listing, nothing measured or fitted. */
gboolean sassmem_store_rewrites_load(const SassFunction *fn, guint i);

/* The fraction (0..1) of what a launch of `grid_blocks` CTAs of the kernel
 * touches (F = cta_l2_bytes x grid_blocks bytes) that is still in L2 when
 * the same launch runs again: 1 up to F = [l2] reuse_full_bytes, 0 from
 * reuse_none_bytes on, linear in between (a key left 0 stands for [l2]
 * bytes; both 0: a step there).  A launch that follows one over the same
 * data (the timed launches of a benchmark loop,
 * results/reference/h200/real/README.md: "median of 3 launches after a
 * warm-up"; or the kernel that produced the data) finds that part in L2
 * where the profiled launch, whose caches Nsight Compute emptied,
 * missed: sim.c turns that share of the profiled L2 misses into hits.  A
 * footprint past the L2 is swept in the same order each time, so each line
 * is evicted before its reuse (LRU).  0 when the profile does not give the
 * bytes (cta_l2_bytes 0) or the model has no [l2] bytes.  Measured:
 * treduce (results/reference/h200/real6) runs 37.8-51.1 k cycles at B <= 5
 * (F <= 41 MiB), 68.6 k at B = 6 (49 MiB). */
gdouble sassmem_l2_reuse(const SassKernel *sk, const SmModel *m, guint grid_blocks);

/* The fractions (0..1) of a launch's global stores (STG through L1TEX, not
 * atomics) written to DRAM: dram[0] for one-line warp-stores, dram[1] for
 * warp-stores of more lines; the rest L2 keeps (results/reference/h200/
 * l2store/, README there).  W = the distinct bytes a CTA stores
 * (sk->store_footprint, else the profile's cta_store_bytes) x grid_blocks.
 * Cold (`l2_warm` FALSE, the profiled launch Nsight Compute ran with empty
 * caches): all but [l2] store_residue_bytes of W, 0 when W is at most that
 * (a store stream of 1107 MB left 25.6 MB dirty in L2).  Warm (the timed
 * launches, each after one over the same data): F = max(W, cta_l2_bytes x
 * grid_blocks), the launch's L2 footprint with its loads' misses; 0 up to
 * [l2] store_full_bytes, 1 from store_none_bytes (store_none_line_bytes for
 * dram[0]) on, linear in between (a region rewritten in L2 writes back
 * 0 % of its stores at 4.3 MB, 14.1 % (128-bit) and 1.7 % (32-bit) at
 * 30.3 MB, 96 % and 48 % at 64.9 MB).  Both 1 when store_full_bytes is 0 or
 * W is unknown (0): every store to DRAM, as before. */
void sassmem_store_dram(const SassKernel *sk, const SmModel *m, guint grid_blocks, gboolean l2_warm,
                        gdouble dram[2]);

/* The L2 hit rates of coalesced and of scattered loads (*coalesced,
 * *scattered, 0..1) whose average over the profiled load sectors is `h`: the
 * misses fall on the coalesced loads first.  The profile gives one L2 hit
 * rate for the kernel; its misses are above all the first touches of the
 * data it reads once (Nsight Compute empties the caches before the profiled
 * launch), and a scattered load that shares the rate would go to DRAM with
 * table lookups that stay in L2 (results/reference/h200/real3: gather_l2).
 * With no scattered (or no coalesced) loads both are `h`. */
void sassmem_l2_split(const SassKernel *sk, gdouble h, gdouble *coalesced, gdouble *scattered);

/* The probability (0..1) that a scattered load of `sk` that hits L2, at a
 * scattered L2 hit rate `scattered_hit` (0..1), is served by the far L2
 * partition: sk->l2_far / scattered_hit, at most 1 (0 when either is 0).
 * GH100's L2 is two partitions joined by the LTC fabric; a load that misses
 * its SM's near partition is looked up in the far one
 * (results/reference/h200/gatherstep/: random lines over more than 29 MiB
 * miss the near partition, Nsight Compute counts the fabric's lookups).  In
 * the profile those are L2 misses DRAM did not serve (sassmem_derive): the
 * misses the details' DRAM bytes leave unserved, as a fraction of the
 * scattered sectors that miss L1 (spmv 0.095, gather_l2 0.0535).  The share
 * of scattered loads the far partition serves stays as profiled at every
 * occupancy.  Such a load waits [l2] far_extra_cycles beyond an L2 hit
 * (sm_memory.c). */
gdouble sassmem_l2_far(const SassKernel *sk, gdouble scattered_hit);

/* The ProgramMemory (program.h) a launch of `sk` runs with: the load hit
 * rates at `warps` resident warps per SM with `smem_per_sm` bytes of shared
 * memory (sassmem_hit_rates); when `l2_warm` (the launch before left its
 * data in L2, as far as it fits), the L2 rate raised by the reuse of a
 * launch of `grid_blocks` CTAs (sassmem_l2_reuse); that rate split between
 * coalesced and scattered loads (sassmem_l2_split), and the far-partition
 * share of the scattered ones' L2 hits when [l2] far_extra_cycles is set
 * (sassmem_l2_far); and [class_global]'s
 * lines in flight per SM and per warp, DRAM write cost and turnaround and
 * its two mechanism switches (model.h).  Every SASS-only launch term is set
 * here. */
void sassmem_launch_memory(const SassKernel *sk, const SmModel *m, guint warps, gdouble smem_per_sm,
                           guint grid_blocks, gboolean l2_warm, ProgramMemory *mem);

#endif
