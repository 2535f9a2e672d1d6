/* synth.h - the synthetic instruction source: a kernel's [stream] keys
 * expanded into a loop program.
 *
 * The loop body (one iteration) holds the spill reloads, global loads, LDS,
 * MUFU and FFMA chains, the live values' FFMAs, the spill stores, interleaved loop
 * control, an optional BAR and the loop-back BRA; the body's last
 * instruction branches back to pc 0 `iterations - 1` times, then EXIT
 * follows.  Dependencies are value slots (program.h).
 */
#ifndef WARPSIM_SYNTH_H
#define WARPSIM_SYNTH_H

#include "core/program.h"
#include "input/kernel.h"
#include "input/model.h"

#include <glib.h>

/* The program of `k`'s loop (borrowed).  Each of `k->live_values` values is
 * an accumulator that one FFMA updates every iteration (counted as the
 * kernel's FFMAs; its operands m and c come from uniform registers, so no
 * bank conflict); `spilled` of them live in local memory and cost an LDL
 * before their FFMA and an STL after it (doc/model.md "Register spills").  An
 * empty body or 0 iterations gives a program whose warps start at EXIT.
 * Returns a new Program (program_free); never fails. */
Program *synth_program_new(const Kernel *k, guint spilled);

/* Live values a warp reloads and stores back per iteration when the kernel
 * runs with `regs_allocated` registers per thread: with x = min(regs_per_thread,
 * live_values + loop_regs) - regs_allocated registers lacking (0 if none),
 * min(live_values, x + clamp(x - loop_regs, 0, extra_values)): ptxas of CUDA
 * 13.0 on sm_90 (results/reference/h200/calibrate/spill_sass.csv). */
guint synth_spilled_per_iter(const Kernel *k, guint regs_allocated, guint loop_regs,
                             guint extra_values);

/* Instructions per loop iteration of a synth program (all but the EXIT). */
guint synth_body_len(const Program *p);

/* Loop trips a warp of a synth program walks (0 when it starts at EXIT). */
guint synth_iterations(const Program *p);

/* The ProgramMemory (program.h) a launch of `k` runs with at `warps`
 * resident warps per SM with `smem_per_sm` bytes of shared memory: with a
 * [stream] footprint, the hit rates of each warp's share of the L1 left by
 * the carveout and of the SM's share of [l2] bytes (model_capacity_share; L1
 * only for an l1 level); else what loads of the one [stream] level hit, as
 * the CSV reports it (the loads themselves go to that level, synth.c).  A
 * warp's DRAM-bound loads wait, as a SASS kernel's do, while it has
 * [class_global] warp_lines_in_flight lines of them missing (warp_max_inflight;
 * 0 = no cap; doc/model.md "A warp's DRAM lines in flight"); the other
 * SASS-measured mechanisms stay off (no SM-wide lines-in-flight cap, a store
 * costs DRAM what a read does); the loads of an L1 footprint that miss refill
 * L1 (miss_refills_l1). */
void synth_launch_memory(const Kernel *k, const SmModel *m, guint warps, gdouble smem_per_sm,
                         ProgramMemory *mem);

#endif
