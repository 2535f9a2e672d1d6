/* profile_rules.c - the rules table: test and message of each rule. */
#include "report/profile_rules.h"

#include <string.h>

static const gchar *const sol_names[PROFILE_SOL_MAX] = {
    "Latency Issue",          "Small Grid", "High Compute Throughput",
    "High Memory Throughput", "Balanced",   "High Throughput"};

static const gchar *const section_names[PROFILE_SECTION_MAX] = {
    "Speed Of Light", "Scheduler Statistics", "Warp State Statistics",
    "Occupancy",      "Launch Statistics",    "What-If"};

static gdouble ratio(gdouble num, gdouble den) {
  return den > 0 ? num / den : 0.0;
}

ProfileSolVerdict profile_sol_verdict(gdouble sm_pct, gdouble mem_pct, gdouble waves_per_sm) {
  if (sm_pct >= 80 || mem_pct >= 80)
    return PROFILE_SOL_HIGH_THROUGHPUT;
  if (sm_pct < 60 && mem_pct < 60)
    return waves_per_sm < 1 ? PROFILE_SOL_SMALL_GRID : PROFILE_SOL_LATENCY;
  if (sm_pct - mem_pct >= 10)
    return PROFILE_SOL_HIGH_COMPUTE;
  if (mem_pct - sm_pct >= 10)
    return PROFILE_SOL_HIGH_MEMORY;
  return PROFILE_SOL_BALANCED;
}

/* A rule's test sets r->value and r->threshold and says whether it fires;
 * its message (called only when it fired) returns the line and may set
 * r->next and r->suggests (preset from the table). */
typedef gboolean (*RuleTest)(const ProfileMetrics *pm, ProfileRules *rs, ProfileRule *r);
typedef gchar *(*RuleMessage)(const ProfileMetrics *pm, const ProfileRules *rs, ProfileRule *r);

/* ---- Speed Of Light ------------------------------------------------------- */

static gboolean sol_test(const ProfileMetrics *pm, ProfileRules *rs, ProfileRule *r) {
  rs->verdict = profile_sol_verdict(pm->sm_pct, pm->mem_pct, pm->waves_per_sm);
  r->value = MAX(pm->sm_pct, pm->mem_pct);
  r->threshold = rs->verdict == PROFILE_SOL_HIGH_THROUGHPUT ? 80 : 60;
  return TRUE;
}

static gchar *sol_message(const ProfileMetrics *pm, const ProfileRules *rs, ProfileRule *r) {
  gdouble sm = pm->sm_pct, mem = pm->mem_pct;
  const gchar *level = kernel_level_name(pm->mem_level);
  switch (rs->verdict) {
  case PROFILE_SOL_LATENCY:
    r->next = PROFILE_SECTION_SCHEDULER;
    r->suggests = PROFILE_SUGGEST_OCCUPANCY | PROFILE_SUGGEST_ILP;
    return g_strdup_printf("Latency Issue: SM %.1f %% and memory (%s) %.1f %% of peak are both "
                           "below 60 %%: too little independent work in flight to keep any unit "
                           "busy",
                           sm, level, mem);
  case PROFILE_SOL_SMALL_GRID:
    r->next = PROFILE_SECTION_LAUNCH;
    return g_strdup_printf("Small Grid: SM %.1f %% and memory %.1f %% are below 60 %% with %.3f "
                           "waves per SM: the grid does not fill the device",
                           sm, mem, pm->waves_per_sm);
  case PROFILE_SOL_HIGH_COMPUTE:
    return g_strdup_printf("High Compute Throughput: SM %.1f %% (%s) leads memory %.1f %% by >= "
                           "10 points",
                           sm, profile_unit_name(pm->sm_unit), mem);
  case PROFILE_SOL_HIGH_MEMORY:
    return g_strdup_printf("High Memory Throughput: memory (%s) %.1f %% leads SM %.1f %% by >= 10 "
                           "points",
                           level, mem, sm);
  case PROFILE_SOL_BALANCED:
    return g_strdup_printf("Balanced: SM %.1f %% and memory (%s) %.1f %% are within 10 points, "
                           "one >= 60 %%",
                           sm, level, mem);
  case PROFILE_SOL_HIGH_THROUGHPUT:
  case PROFILE_SOL_MAX:
    break;
  }
  return g_strdup_printf("High Throughput: %s at %.1f %% of its peak (>= 80 %%; busiest pipe %s "
                         "%.1f %%): more warps or ILP can gain at most the remaining %.1f %%; "
                         "beyond that only moving work off this unit helps",
                         pm->busiest, MAX(sm, mem), profile_unit_name(pm->busiest_pipe),
                         pm->unit_pct[pm->busiest_pipe], MAX(0.0, 100.0 - MAX(sm, mem)));
}

/* ---- occupancy and scheduler ------------------------------------------------ */

static gboolean achieved_test(const ProfileMetrics *pm, ProfileRules *rs, ProfileRule *r) {
  (void)rs;
  r->value = pm->theoretical_pct - pm->achieved_pct;
  r->threshold = 10;
  return r->value > r->threshold;
}

static gchar *achieved_message(const ProfileMetrics *pm, const ProfileRules *rs, ProfileRule *r) {
  (void)rs;
  return g_strdup_printf("achieved occupancy %.1f %% is %.1f points below the theoretical %.1f %% "
                         "(> 10): warps or CTAs finish unevenly, or the last wave is partial",
                         pm->achieved_pct, r->value, pm->theoretical_pct);
}

static gboolean theoretical_test(const ProfileMetrics *pm, ProfileRules *rs, ProfileRule *r) {
  (void)rs;
  r->value = pm->theoretical_warps_per_sched;
  r->threshold = 0.8 * pm->max_warps_per_sched;
  return r->value < r->threshold;
}

static gchar *theoretical_message(const ProfileMetrics *pm, const ProfileRules *rs,
                                  ProfileRule *r) {
  (void)rs;
  g_autofree gchar *lim =
      pm->capped ? g_strdup("the [launch] blocks_per_sm cap") : profile_metrics_limiter(pm);
  return g_strdup_printf("theoretical occupancy %.1f %% = %.2f warps per scheduler, below 80 %% "
                         "of the hardware maximum %u (%.1f); limited by %s",
                         pm->theoretical_pct, r->value, pm->max_warps_per_sched, r->threshold, lim);
}

static gboolean issue_test(const ProfileMetrics *pm, ProfileRules *rs, ProfileRule *r) {
  (void)rs;
  r->value = pm->issued_warps;
  r->threshold = 0.6;
  return r->value < r->threshold;
}

static gchar *issue_message(const ProfileMetrics *pm, const ProfileRules *rs, ProfileRule *r) {
  (void)rs;
  if (pm->theoretical_warps_per_sched < pm->max_warps_per_sched)
    r->suggests = PROFILE_SUGGEST_OCCUPANCY;
  return g_strdup_printf("each scheduler issues %.3f instructions per cycle (< 0.6, one every "
                         "%.1f cycles): of %.2f active warps per scheduler only %.2f are eligible "
                         "per cycle",
                         r->value, ratio(1.0, r->value), pm->active_warps, pm->eligible_warps);
}

/* ---- warp states ------------------------------------------------------------ */

/* What a dominant stall means, what can help, and where to read next. */
static const struct {
  const gchar *hint;
  guint suggests;
  ProfileSection next;
} stall_advice[STALL_MAX] = {
    [STALL_DRAIN] = {"exited warps wait for their memory accesses to complete", 0,
                     PROFILE_SECTION_LAUNCH},
    [STALL_BARRIER] = {"warps wait at __syncthreads for the CTA's slowest warp", 0,
                       PROFILE_SECTION_LAUNCH},
    [STALL_BRANCH_RESOLVING] = {"warps wait for loop-back branches to resolve", 0,
                                PROFILE_SECTION_WARP_STATE},
    [STALL_LONG_SCOREBOARD] = {"warps wait for global/local memory (L1TEX): more loads in "
                               "flight per warp or more warps hide it",
                               PROFILE_SUGGEST_OCCUPANCY | PROFILE_SUGGEST_ILP,
                               PROFILE_SECTION_OCCUPANCY},
    [STALL_SHORT_SCOREBOARD] = {"warps wait for shared-memory or MUFU results",
                                PROFILE_SUGGEST_OCCUPANCY | PROFILE_SUGGEST_ILP,
                                PROFILE_SECTION_OCCUPANCY},
    [STALL_WAIT] = {"warps wait on fixed-latency dependencies: more independent instructions "
                    "per warp hide them",
                    PROFILE_SUGGEST_OCCUPANCY | PROFILE_SUGGEST_ILP, PROFILE_SECTION_OCCUPANCY},
    [STALL_LG_THROTTLE] = {"global loads (SASS: and stores) wait for a miss slot: the SM's "
                           "lines-in-flight cap is full (more warps do not help)",
                           0, PROFILE_SECTION_SOL},
    [STALL_MIO_THROTTLE] = {"the shared-memory/LSU unit is saturated", 0, PROFILE_SECTION_SOL},
    [STALL_MATH_PIPE_THROTTLE] = {"a math pipe is saturated", 0, PROFILE_SECTION_SOL},
    [STALL_DISPATCH_STALL] = {"dispatch waits on register-bank conflicts the operand reuse "
                              "cache hides only when one warp issues back to back: more "
                              "independent FFMAs per warp let it",
                              PROFILE_SUGGEST_ILP, PROFILE_SECTION_WARP_STATE},
};

/* Of lg_throttle, the percent that is the warps' own DRAM lines from which
 * cpi_stall suggests more occupancy: a choice (the larger cause), not a
 * measurement (cpi_message). */
#define LG_WARP_SHARE_SUGGEST_PCT 50.0

/* What cpi_stall calls the cause `top` (ProfileMetrics top_cause): its
 * state's name, unless loads waiting for the SM's lines in flight, charged
 * long_scoreboard (lsb_sm_cpi), moved between the two states. */
static const gchar *cause_name(const ProfileMetrics *pm, StallState top) {
  if (pm->lsb_sm_cpi > 0 && top == STALL_LG_THROTTLE)
    return "lines in flight";
  if (pm->lsb_sm_cpi > 0 && top == STALL_LONG_SCOREBOARD)
    return "long_scoreboard (the loads' data)";
  return stall_name(top);
}

/* The states the cause `top` is charged to, when it is not one state's (a
 * new string, empty when it is). */
static gchar *cause_states(const ProfileMetrics *pm, StallState top) {
  if (pm->lsb_sm_cpi > 0 && top == STALL_LG_THROTTLE)
    return g_strdup_printf(", of them %.2f charged long_scoreboard (loads waiting for a miss "
                           "slot of the SM's lines-in-flight cap: Nsight Compute samples them "
                           "there) and %.2f lg_throttle",
                           pm->lsb_sm_cpi, pm->top_cause_cpi - pm->lsb_sm_cpi);
  if (pm->lsb_sm_cpi > 0 && top == STALL_LONG_SCOREBOARD)
    return g_strdup_printf(", without the %.2f of loads waiting for a miss slot of the SM's "
                           "lines-in-flight cap",
                           pm->lsb_sm_cpi);
  return g_strdup("");
}

static gboolean cpi_test(const ProfileMetrics *pm, ProfileRules *rs, ProfileRule *r) {
  (void)rs;
  StallState top = pm->top_cause;
  r->value = top < STALL_MAX ? pm->top_cause_pct : 0;
  r->threshold = 30;
  return top < STALL_MAX && pm->issue_slot_pct < 80 && r->value >= r->threshold;
}

static gchar *cpi_message(const ProfileMetrics *pm, const ProfileRules *rs, ProfileRule *r) {
  (void)rs;
  StallState top = pm->top_cause;
  r->next = stall_advice[top].next;
  r->suggests = stall_advice[top].suggests;
  g_autofree gchar *hint = NULL, *states = cause_states(pm, top);
  if (top == STALL_LG_THROTTLE && pm->lg_warp_cpi > 0) {
    /* Which of its two causes: the SM's cap (lg_load_sm, lg_throttle_sm) or
     * the warps' own DRAM lines in flight; more warps hide only the second.  The rule
     * names the larger one (a choice, measured nowhere: gather at 4 CTAs
     * per SM has 28 % of the warps' own lines and gains 2.0 % from twice
     * the CTAs); the occupancy what-if measures what more warps give. */
    gdouble warp_pct = 100.0 * pm->lg_warp_cpi / pm->top_cause_cpi;
    gboolean warp_most = warp_pct >= LG_WARP_SHARE_SUGGEST_PCT;
    r->suggests = warp_most ? PROFILE_SUGGEST_OCCUPANCY : 0;
    r->next = warp_most ? PROFILE_SECTION_OCCUPANCY : PROFILE_SECTION_SOL;
    hint = g_strdup_printf(
        "%.0f %% of it loads wait for their warp's own DRAM lines in flight ([class_global] "
        "warp_lines_in_flight: more warps hide that), %.0f %% for a miss slot of the SM's "
        "lines-in-flight cap, loads and stores (more warps do not help)",
        warp_pct, 100.0 - warp_pct);
  }
  return g_strdup_printf("%s: %.2f of the %.2f warp cycles between two issues of a warp (%.1f %% "
                         ">= 30 %%, issue active %.1f %% < 80 %%)%s: %s",
                         cause_name(pm, top), pm->top_cause_cpi, pm->total_cpi, r->value,
                         pm->issue_slot_pct, states, hint ? hint : stall_advice[top].hint);
}

/* ---- launch ----------------------------------------------------------------- */

static gboolean tail_test(const ProfileMetrics *pm, ProfileRules *rs, ProfileRule *r) {
  (void)rs;
  r->value = pm->tail_pct;
  r->threshold = 20;
  return r->value >= r->threshold;
}

static gchar *tail_message(const ProfileMetrics *pm, const ProfileRules *rs, ProfileRule *r) {
  (void)rs;
  return g_strdup_printf("%.3f waves per SM: %" G_GUINT64_FORMAT " full wave(s) and a partial "
                         "wave of %" G_GUINT64_FORMAT " CTAs, which may take up to %.1f %% of the "
                         "runtime (>= 20 %%) at lower occupancy",
                         pm->waves_per_sm, pm->full_waves, pm->partial_wave_blocks, r->value);
}

static gboolean block_test(const ProfileMetrics *pm, ProfileRules *rs, ProfileRule *r) {
  (void)rs;
  r->value = pm->warp_size ? pm->threads_per_block % pm->warp_size : 0;
  r->threshold = 0;
  return r->value > 0;
}

static gchar *block_message(const ProfileMetrics *pm, const ProfileRules *rs, ProfileRule *r) {
  (void)rs;
  return g_strdup_printf("%u threads per block is not a multiple of the warp size %u: the last "
                         "warp of each block runs %u of %u lanes",
                         pm->threads_per_block, pm->warp_size, (guint)r->value, pm->warp_size);
}

static gboolean grid_test(const ProfileMetrics *pm, ProfileRules *rs, ProfileRule *r) {
  (void)rs;
  r->value = pm->grid_blocks;
  r->threshold = pm->sms;
  return r->value < r->threshold;
}

static gchar *grid_message(const ProfileMetrics *pm, const ProfileRules *rs, ProfileRule *r) {
  (void)rs;
  (void)r;
  return g_strdup_printf("the grid's %u CTAs are fewer than the %u SMs: %u SMs stay idle",
                         pm->grid_blocks, pm->sms, pm->sms - pm->grid_blocks);
}

/* ---- the table -------------------------------------------------------------- */

static const struct {
  const gchar *name;      /* the rule's id */
  ProfileSection section; /* the section that prints it */
  RuleTest test;
  RuleMessage message;
  ProfileSection next; /* section to read next (the message may change it) */
  guint suggests;      /* advice (the message may change it) */
} rules[PROFILE_RULE_MAX] = {
    [PROFILE_RULE_SOL] = {"sol_bottleneck", PROFILE_SECTION_SOL, sol_test, sol_message,
                          PROFILE_SECTION_WARP_STATE, 0},
    [PROFILE_RULE_ACHIEVED_OCCUPANCY] = {"achieved_occupancy", PROFILE_SECTION_OCCUPANCY,
                                         achieved_test, achieved_message, PROFILE_SECTION_LAUNCH,
                                         0},
    [PROFILE_RULE_THEORETICAL_OCCUPANCY] = {"theoretical_occupancy", PROFILE_SECTION_OCCUPANCY,
                                            theoretical_test, theoretical_message,
                                            PROFILE_SECTION_OCCUPANCY, PROFILE_SUGGEST_OCCUPANCY},
    [PROFILE_RULE_ISSUE_SLOTS] = {"issue_slot_utilization", PROFILE_SECTION_SCHEDULER, issue_test,
                                  issue_message, PROFILE_SECTION_WARP_STATE, 0},
    [PROFILE_RULE_CPI_STALL] = {"cpi_stall", PROFILE_SECTION_WARP_STATE, cpi_test, cpi_message,
                                PROFILE_SECTION_WARP_STATE, 0},
    [PROFILE_RULE_TAIL_EFFECT] = {"tail_effect", PROFILE_SECTION_LAUNCH, tail_test, tail_message,
                                  PROFILE_SECTION_OCCUPANCY, 0},
    [PROFILE_RULE_BLOCK_SIZE] = {"block_size", PROFILE_SECTION_LAUNCH, block_test, block_message,
                                 PROFILE_SECTION_LAUNCH, 0},
    [PROFILE_RULE_GRID_SIZE] = {"grid_size", PROFILE_SECTION_LAUNCH, grid_test, grid_message,
                                PROFILE_SECTION_LAUNCH, 0},
};

void profile_rules_clear(ProfileRules *rs) {
  for (guint i = 0; i < PROFILE_RULE_MAX; i++)
    g_free(rs->rule[i].message);
  memset(rs, 0, sizeof *rs);
}

void profile_rules_apply(const ProfileMetrics *pm, ProfileRules *out) {
  profile_rules_clear(out);
  for (guint i = 0; i < PROFILE_RULE_MAX; i++) {
    ProfileRule *r = &out->rule[i];
    if (!rules[i].test(pm, out, r))
      continue;
    r->fired = TRUE;
    r->next = rules[i].next;
    r->suggests = rules[i].suggests;
    r->message = rules[i].message(pm, out, r);
    out->suggests |= r->suggests;
  }
}

const gchar *profile_rule_name(ProfileRuleId id) {
  return id < PROFILE_RULE_MAX ? rules[id].name : "?";
}
ProfileSection profile_rule_section(ProfileRuleId id) {
  return id < PROFILE_RULE_MAX ? rules[id].section : PROFILE_SECTION_MAX;
}
const gchar *profile_section_name(ProfileSection s) {
  return s < PROFILE_SECTION_MAX ? section_names[s] : "?";
}
const gchar *profile_sol_name(ProfileSolVerdict v) {
  return v < PROFILE_SOL_MAX ? sol_names[v] : "?";
}

const gchar *profile_rule_type(const ProfileRules *rs, ProfileRuleId id) {
  if (id == PROFILE_RULE_BLOCK_SIZE || id == PROFILE_RULE_GRID_SIZE)
    return "WRN";
  if (id == PROFILE_RULE_SOL &&
      (rs->verdict == PROFILE_SOL_HIGH_THROUGHPUT || rs->verdict == PROFILE_SOL_BALANCED))
    return "INF";
  return "OPT";
}
