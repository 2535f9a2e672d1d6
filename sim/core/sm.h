/* sm.h - one SM running a launch cycle by cycle: the cycle loop with its
 * stages (wake, CTA retire/launch, memory, issue) over the SMSPs, the CTAs'
 * barriers and waves, and what issuing an instruction does to the pipes,
 * the memory levels and the warp's scoreboard.  Internal to sim_run.
 */
#ifndef WARPSIM_SM_H
#define WARPSIM_SM_H

#include "core/program.h"
#include "core/sched.h"
#include "core/sim_error.h"
#include "core/stats.h"
#include "input/kernel.h"
#include "input/model.h"

#include <glib.h>

/* What the SM runs: the launch as planned (launch.h), all borrowed. */
typedef struct {
  const SmModel *model;      /* the machine */
  const Program *program;    /* what every warp executes */
  const SchedPolicy *policy; /* each SMSP's scheduler */
  guint threads_per_block;   /* threads per CTA */
  guint warps_per_block;     /* warps per CTA */
  guint cta_slots;           /* CTAs resident at once */
  guint blocks;              /* CTAs this SM runs in total (waves of cta_slots) */
  guint early_exit;          /* warps per CTA that start at EXIT */
  gdouble spill_l1_hit;      /* probability a local-memory access hits in L1 */
  guint busy_sms;            /* SMs of the device running CTAs beside this one, itself
                                included: they share device-wide limits (contended atomics,
                                Instr atomic_gpu_cycles); 0 = the model's [sm] sms */
  ProgramMemory mem;         /* how its global memory instructions are served */
  guint32 seed;              /* seeds the memory system's randomness */
  SimCycle max_cycles;       /* stop past this many cycles; 0 = no bound */
  gint64 deadline_us;        /* stop once g_get_monotonic_time() passes it; 0 = none */
} SmLaunch;

typedef struct Sm Sm;

/* An SM ready to run `launch` (its pointers must outlive the Sm); NULL with
 * SIM_ERROR_LAUNCH when more warps than an SMSP's slots would be resident. */
Sm *sm_new(const SmLaunch *launch, GError **error);

/* Run the launch to the last CTA's retirement and fill `st`.  FALSE with
 * SIM_ERROR_BOUND past the launch's max_cycles or deadline_us, or with
 * SIM_ERROR_INVARIANT on a deadlock or, with `check_invariants`, a failed
 * per-cycle invariant (both are bugs). */
gboolean sm_run(Sm *sm, gboolean check_invariants, SimStats *st, GError **error);

void sm_free(Sm *sm);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Sm, sm_free)

/* The L2 atomic unit's rate, sectors per cycle per SM, for a global atomic
 * of kind `kind` (Instr.atomic: 1 reduction, 2 returning, 3 compare-and-
 * swap): [l2] atomic_cas_sectors_per_cycle for 3, atomic_return_sectors_per
 * _cycle for 2 and 3, atomic_sectors_per_cycle, each used when the one
 * before it is 0.  0 when the model has no atomic unit.  (sm_memory.c) */
gdouble sm_atomic_rate(const SmModel *m, guint kind);

#endif
