/* profile_rules.h - the rules of the report: one table of {rule, section,
 * test, message} evaluated on a run's metrics.
 *
 * Thresholds are Nsight Compute's (its rules scripts, 2026.2.1): the Speed
 * Of Light verdict, achieved vs theoretical occupancy, theoretical
 * occupancy, issue slot utilization, CPI stall, tail effect, block size,
 * grid size.  A fired rule carries its numbers, a one-line message, the
 * section to read next and the advice a what-if can try (profile_whatif.h).
 */
#ifndef WARPSIM_PROFILE_RULES_H
#define WARPSIM_PROFILE_RULES_H

#include "report/profile_metrics.h"

#include <glib.h>

/* The Speed Of Light verdict. */
typedef enum {
  PROFILE_SOL_LATENCY,         /* SM% and memory% both < 60 */
  PROFILE_SOL_SMALL_GRID,      /* the same with fewer than one wave per SM */
  PROFILE_SOL_HIGH_COMPUTE,    /* one >= 60 (both < 80), SM% ahead by >= 10 points */
  PROFILE_SOL_HIGH_MEMORY,     /* one >= 60 (both < 80), memory% ahead by >= 10 points */
  PROFILE_SOL_BALANCED,        /* one >= 60 (both < 80), within 10 points */
  PROFILE_SOL_HIGH_THROUGHPUT, /* either >= 80 */
  PROFILE_SOL_MAX
} ProfileSolVerdict;

typedef enum {
  PROFILE_SECTION_SOL,        /* Speed Of Light */
  PROFILE_SECTION_SCHEDULER,  /* Scheduler Statistics */
  PROFILE_SECTION_WARP_STATE, /* Warp State Statistics */
  PROFILE_SECTION_OCCUPANCY,  /* Occupancy */
  PROFILE_SECTION_LAUNCH,     /* Launch Statistics */
  PROFILE_SECTION_WHAT_IF,    /* What-If (simulated) */
  PROFILE_SECTION_MAX
} ProfileSection;

typedef enum {
  PROFILE_RULE_SOL,                   /* Speed Of Light verdict (always fires) */
  PROFILE_RULE_ACHIEVED_OCCUPANCY,    /* theoretical - achieved > 10 points */
  PROFILE_RULE_THEORETICAL_OCCUPANCY, /* theoretical warps/scheduler < 80 % of the maximum */
  PROFILE_RULE_ISSUE_SLOTS,           /* issued per scheduler per cycle < 0.6 */
  PROFILE_RULE_CPI_STALL,             /* issue active < 80 % and a stall >= 30 % of the total */
  PROFILE_RULE_TAIL_EFFECT,           /* the partial last wave may cost >= 20 % */
  PROFILE_RULE_BLOCK_SIZE,            /* threads per block not a multiple of the warp size */
  PROFILE_RULE_GRID_SIZE,             /* fewer blocks than SMs */
  PROFILE_RULE_MAX
} ProfileRuleId;

/* Bits of ProfileRule.suggests: the advice a what-if can try. */
#define PROFILE_SUGGEST_OCCUPANCY (1u << 0)
#define PROFILE_SUGGEST_ILP (1u << 1)

typedef struct {
  gboolean fired;
  gdouble value;       /* the number the rule tests (unit as in the message) */
  gdouble threshold;   /* what it is compared with */
  gchar *message;      /* one line holding the numbers; NULL unless fired; owned */
  ProfileSection next; /* the section to read next */
  guint suggests;      /* PROFILE_SUGGEST_* bits (only when fired) */
} ProfileRule;

/* Every rule's verdict on one run. */
typedef struct {
  ProfileRule rule[PROFILE_RULE_MAX];
  ProfileSolVerdict verdict; /* the Speed Of Light verdict */
  guint suggests;            /* PROFILE_SUGGEST_* bits of all fired rules */
} ProfileRules;

/* Evaluate every rule on `pm` into `out`, which must be zeroed or hold a
 * previous evaluation (its messages are freed). */
void profile_rules_apply(const ProfileMetrics *pm, ProfileRules *out);

/* Free the messages of `rules`. */
void profile_rules_clear(ProfileRules *rules);

/* The Speed Of Light verdict for SM% `sm_pct`, memory% `mem_pct` and
 * `waves_per_sm` (Nsight Compute's thresholds). */
ProfileSolVerdict profile_sol_verdict(gdouble sm_pct, gdouble mem_pct, gdouble waves_per_sm);

/* Static names: the rule's id ("sol_bottleneck", ...) and the section that
 * prints it; a section's name ("Speed Of Light", ...); a verdict's ("Latency
 * Issue", ...); Nsight Compute's rule type of a fired rule (OPT, WRN, INF). */
const gchar *profile_rule_name(ProfileRuleId id);
ProfileSection profile_rule_section(ProfileRuleId id);
const gchar *profile_section_name(ProfileSection s);
const gchar *profile_sol_name(ProfileSolVerdict v);
const gchar *profile_rule_type(const ProfileRules *rules, ProfileRuleId id);

#endif
