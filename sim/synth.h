/* synth.h - the synthetic instruction source: a kernel's [stream] keys
 * expanded into a loop program.
 *
 * The loop body (one iteration) holds the spill reloads, global loads, LDS,
 * MUFU and FFMA chains, the spill updates and stores, interleaved loop
 * control, an optional BAR and the loop-back BRA; the body's last
 * instruction branches back to pc 0 `iterations - 1` times, then EXIT
 * follows.  Dependencies are value slots (program.h).
 */
#ifndef WARPSIM_SYNTH_H
#define WARPSIM_SYNTH_H

#include "kernel.h"
#include "program.h"

#include <glib.h>

/* The program of `k`'s loop (borrowed).  `spill_values` = registers per
 * thread above the cap (kernel_regs_allocated); each iteration then reloads
 * and stores min(spill_values, live_values) spilled values (README "Register
 * spills").  An empty body or 0 iterations gives a program whose warps start
 * at EXIT.  Returns a new Program (program_free); never fails. */
Program *synth_program_new(const Kernel *k, guint spill_values);

/* Instructions per loop iteration of a synth program (all but the EXIT). */
guint synth_body_len(const Program *p);

/* Loop trips a warp of a synth program walks (0 when it starts at EXIT). */
guint synth_iterations(const Program *p);

#endif
