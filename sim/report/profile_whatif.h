/* profile_whatif.h - trying a rule's advice: one extra simulation with more
 * occupancy or more independent work per warp (ILP), and the throughput with
 * and without it.  The only report code that runs the simulator.
 */
#ifndef WARPSIM_PROFILE_WHATIF_H
#define WARPSIM_PROFILE_WHATIF_H

#include "report/profile_metrics.h"

#include <glib.h>

typedef enum {
  PROFILE_WHAT_IF_OCCUPANCY, /* more resident warps */
  PROFILE_WHAT_IF_ILP,       /* twice the independent chains per warp */
  PROFILE_WHAT_IF_MAX
} ProfileWhatIfKind;

/* A what-if gain below this (in percent, either sign) is "no gain". */
#define PROFILE_WHAT_IF_NOISE_PCT 2.0

typedef struct {
  gboolean suggested; /* a fired rule asks for it */
  gboolean ran;       /* the extra simulation ran */
  gchar *change;      /* the change as --set spells it ("launch.blocks_per_sm=16"); NULL when
                         no change is possible; owned */
  gchar *note;        /* why it did not run, or what the change costs; NULL; owned */
  gdouble base;       /* throughput of the run, in ProfileMetrics.metric units */
  gdouble value;      /* throughput with the change */
  gdouble gain_pct;   /* (value / base - 1) x 100 */
  gdouble base_occupancy_pct; /* theoretical occupancy of the run */
  gdouble occupancy_pct;      /* theoretical occupancy with the change */
  gdouble issue_active;       /* fraction, with the change */
} ProfileWhatIf;

/* Try `kind` on the run whose metrics are `pm`: build the changed kernel
 * from `k` (borrowed; a modified copy is run), simulate it on `m` with `opt`
 * (may be NULL) and fill `out` (its previous change and note are freed).  A
 * change that cannot be built, or a simulation that fails, leaves a note and
 * ran = FALSE. */
void profile_whatif_run(ProfileWhatIfKind kind, const ProfileMetrics *pm, const SmModel *m,
                        const Kernel *k, const SimOptions *opt, ProfileWhatIf *out);

/* Mark a suggested what-if skipped (note "skipped (--no-whatif)"). */
void profile_whatif_skip(ProfileWhatIf *wi);

/* "pays", "costs", "no gain" (by PROFILE_WHAT_IF_NOISE_PCT) or "not run". */
const gchar *profile_whatif_verdict(const ProfileWhatIf *wi);

/* "occupancy", "ilp" (static). */
const gchar *profile_whatif_name(ProfileWhatIfKind kind);

/* Free the change and note of `wi`. */
void profile_whatif_clear(ProfileWhatIf *wi);

#endif
