/* profile.h - an Nsight Compute-style report of one simulated run: why a
 * kernel runs at the throughput it does, in Nsight Compute's vocabulary.
 *
 * A Profile holds the run's metrics (profile_metrics.h), the rules' verdicts
 * (profile_rules.h) and, unlike a profiler, the what-if simulations of the
 * advice of the fired rules (profile_whatif.h); this module renders them as
 * text sections (aligned tables, report.h) or JSON.  Warp states and their
 * priority: stats.h and doc/report.md "Warp states".  The module does no I/O.
 */
#ifndef WARPSIM_PROFILE_H
#define WARPSIM_PROFILE_H

#include "input/kernel.h"
#include "input/model.h"
#include "report/profile_metrics.h"
#include "report/profile_rules.h"
#include "report/profile_whatif.h"
#include "run/sim.h"

#include <json-glib/json-glib.h>

typedef struct Profile Profile;

/* The profile of run `r` of `k` on `m` (all borrowed): every section and
 * rule, no extra simulation.  Returns a new Profile (profile_free). */
Profile *profile_new(const SmModel *m, const Kernel *k, const SimResult *r);

/* The run's metrics and the rules' verdicts (borrowed from `p`). */
const ProfileMetrics *profile_metrics(const Profile *p);
const ProfileRules *profile_rules(const Profile *p);

/* The what-if `kind` (borrowed from `p`): suggested by a fired rule or not,
 * and its result once profile_what_if ran it. */
const ProfileWhatIf *profile_what_if_result(const Profile *p, ProfileWhatIfKind kind);

/* Run every what-if a fired rule suggests: simulate `k` (borrowed) on `m`
 * with the change, using `opt` (may be NULL).  A what-if that cannot be
 * built or whose simulation fails gets a note instead. */
void profile_what_if(Profile *p, const SmModel *m, const Kernel *k, const SimOptions *opt);

/* Mark the suggested what-ifs as skipped (note "skipped (--no-whatif)"). */
void profile_skip_what_if(Profile *p);

/* Append the report as aligned text (sections, fired rules, what-ifs). */
void profile_append_text(const Profile *p, GString *out);

/* The report as a JSON object node (caller owns; json_node_unref). */
JsonNode *profile_to_json(const Profile *p);

void profile_free(Profile *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Profile, profile_free)

#endif
