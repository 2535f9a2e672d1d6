/* sassmem.h - memory per SASS instruction from the Nsight Compute profile:
 * bytes and sectors per request, per-warp footprints of the loops, L1/L2 hit
 * rates of loads and how they move with resident warps (see sassprog.h). */
#ifndef WARPSIM_SASSMEM_H
#define WARPSIM_SASSMEM_H

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
 * global and local memory only (SASS_ACC_NONE for shared-memory ATOMS). */
SassAccess sassmem_access(const SassInstr *in, const NcuInstr *p);

/* Times instruction i executed in the profiled launch (warp-level
 * instructions); 0 without a source profile. */
gdouble sassmem_executed(const SassKernel *sk, guint i);

/* 32-byte sectors one execution of global instruction i requests: the
 * profile's L2 sectors / executions, else the ideal (sassmem_ideal_sectors). */
gdouble sassmem_sectors(const SassKernel *sk, guint i);

/* Sectors of a fully coalesced request: width_bytes x 32 threads / 32 bytes. */
gdouble sassmem_ideal_sectors(const SassInstr *in);

/* Whether instruction i's requests are scattered (a gather): twice the
 * ideal sectors per request or more (sassmem_sectors).  A coalesced request
 * that is misaligned touches at most one sector more per line it fills
 * (stencil's 5 for 4), far below twice; gather's touches 32 for 4. */
gboolean sassmem_scattered(const SassKernel *sk, guint i);

/* Whether the warps of a CTA run instruction i in lockstep: the innermost
 * loop holding it (the whole function when none does) has a CTA barrier
 * (BAR.SYNC).  Then the sectors neighbouring warps' misaligned accesses share
 * are completed together (results/reference/h200/microbench/sync_partial.csv). */
gboolean sassmem_barrier_synced(const SassKernel *sk, guint i);

/* Fill sk's hit rates (load_l1_hit, load_l2_hit ...), estimated per-warp
 * footprints and local_bytes from its listing and profile.  load_l2_hit is
 * the details' L2 Hit Rate for loads, raised when the details' DRAM bytes
 * (Memory Throughput x Duration) cannot serve the scattered loads' share of
 * its misses at 32 bytes a sector (README "The profile's DRAM bytes bound
 * its L2 misses").  sk->fn (and the profiles, when given) must be loaded. */
void sassmem_derive(SassKernel *sk);

/* sass_capacity_share and sass_kernel_hit_rates (declared in sassprog.h)
 * are defined in sassmem.c too. */

#endif
