/* profile.h - an Nsight Compute-style report of one simulated run: why a
 * kernel runs at the throughput it does, in Nsight Compute's vocabulary, with
 * its rules and, unlike a profiler, a what-if simulation where a rule's
 * advice can be tried.
 *
 * Sections (all numbers per SM of the simulated run):
 *   - Speed Of Light: SM throughput % = the busiest of the issue slots and of
 *     each pipe (pipe busy cycles / (cycles x SMSPs); the shared-memory unit
 *     serves the whole SM: busy cycles / cycles), memory throughput % =
 *     global bytes per cycle / the bandwidth of the kernel's [stream] level;
 *   - Scheduler Statistics: active, eligible and issued warps per scheduler
 *     per cycle.  Eligible is Nsight Compute's: a warp that could issue this
 *     cycle, i.e. `selected` + `not_selected` (a warp whose operands are ready
 *     but whose pipe, dispatch or load slots are busy is stalled, not
 *     eligible).  Issue slot utilization = issued per scheduler per cycle;
 *     no eligible = the cycles in which a scheduler issued nothing;
 *   - Warp State Statistics: warp cycles per issued instruction in each state
 *     (st.state[s] / st.issued), largest first, and its share of the total
 *     (the total is active warp-cycles / issued instructions);
 *   - Occupancy: theoretical and achieved, the limiter(s), warps per scheduler
 *     against the hardware maximum;
 *   - Launch Statistics: grid, block, registers, shared memory, waves per SM.
 *
 * Warp states and their priority.  Every cycle each active warp is charged
 * to exactly one StallState (stats.h); when several causes hold at once the
 * earliest in this order wins:
 *   selected > drain > barrier > branch_resolving > long_scoreboard >
 *   short_scoreboard > wait > lg_throttle > mio_throttle >
 *   math_pipe_throttle > dispatch_stall > not_selected.
 * Why this order: a warp that exited or waits at a barrier cannot issue
 * whatever its operands are, so those come first; a warp whose next
 * instruction is not known yet (branch) cannot check operands; a warp whose
 * operands are pending cannot use a free pipe, so dependency states come
 * before resource states; among dependencies the longest-latency producer is
 * named first (global memory, then shared memory / MUFU, then fixed-latency
 * pipes); among resources the SM-wide ones (loads in flight, MIO) before the
 * SMSP's own pipe and then its dispatch port; `not_selected` is left for a
 * warp that could have issued.  NVIDIA does not publish its own order.
 *
 * Rules (Nsight Compute's rules scripts, 2026.2.1, thresholds): the Speed Of Light
 * verdict, achieved vs theoretical occupancy, theoretical occupancy, issue
 * slot utilization, CPI stall, tail effect, block size, grid size.  A fired
 * rule carries its numbers, a one-line message and the section to read next.
 * Where a fired rule suggests more occupancy or more independent work per
 * warp (ILP), profile_what_if() runs one extra simulation with that change
 * and records the throughput with and without it.
 *
 * Units: percentages are 0..100; "per scheduler" = per SMSP per cycle;
 * warp-state values are warp cycles per issued warp instruction.  The module
 * does no I/O; it formats text and JSON into caller-owned buffers/nodes.
 */
#ifndef WARPSIM_PROFILE_H
#define WARPSIM_PROFILE_H

#include "kernel.h"
#include "model.h"
#include "sim.h"

#include <json-glib/json-glib.h>

/* The units Speed Of Light compares: the issue slots and each pipe. */
typedef enum {
  PROFILE_UNIT_ISSUE, /* issue slots, 1 per cycle per SMSP */
  PROFILE_UNIT_FMA,   /* FP32 pipe, per SMSP */
  PROFILE_UNIT_ALU,   /* INT32 pipe, per SMSP */
  PROFILE_UNIT_SFU,   /* MUFU pipe, per SMSP */
  PROFILE_UNIT_SMEM,  /* shared-memory unit, per SM */
  PROFILE_UNIT_LSU,   /* LSU/MIO issue to L1TEX, per SMSP */
  PROFILE_UNIT_MAX
} ProfileUnit;

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

typedef enum {
  PROFILE_WHAT_IF_OCCUPANCY, /* more resident warps */
  PROFILE_WHAT_IF_ILP,       /* twice the independent chains per warp */
  PROFILE_WHAT_IF_MAX
} ProfileWhatIfKind;

typedef struct {
  gboolean suggested; /* a fired rule asks for it */
  gboolean ran;       /* the extra simulation ran */
  gchar *change;      /* the change as --set spells it ("launch.blocks_per_sm=16"); NULL when
                         no change is possible; owned */
  gchar *note;        /* why it did not run, or what the change costs; NULL; owned */
  gdouble base;       /* throughput of the run, in Profile.metric units */
  gdouble value;      /* throughput with the change */
  gdouble gain_pct;   /* (value / base - 1) x 100 */
  gdouble base_occupancy_pct; /* theoretical occupancy of the run */
  gdouble occupancy_pct;      /* theoretical occupancy with the change */
  gdouble issue_active;       /* fraction, with the change */
} ProfileWhatIf;

/* A what-if gain below this (in percent, either sign) is "no gain". */
#define PROFILE_WHAT_IF_NOISE_PCT 2.0

typedef struct {
  /* The kernel's useful throughput, the number a what-if compares. */
  const gchar *metric;      /* column name: bytes_per_cycle, fma_per_cycle, sfu_per_cycle,
                               lds_per_cycle or ipc (static) */
  const gchar *metric_unit; /* e.g. "warp FFMA/cycle/SM" (static) */
  gdouble throughput;       /* in metric units */

  /* Speed Of Light */
  gdouble unit_pct[PROFILE_UNIT_MAX]; /* percent of each unit's peak */
  gdouble sm_pct;                     /* SM throughput: max of unit_pct */
  ProfileUnit sm_unit;                /* the unit giving sm_pct */
  ProfileUnit busiest_pipe;           /* the busiest unit other than the issue slots */
  gdouble mem_pct;                    /* memory throughput: percent of the level's bandwidth */
  guint mem_level;                    /* KernelLevel of the kernel's loads */
  gdouble mem_bytes_per_cycle;        /* global bytes per cycle per SM */
  gdouble mem_peak_bytes_per_cycle;   /* the level's bytes per cycle per SM */
  gdouble load_latency;               /* cycles, issue to data, average over global loads */
  gdouble load_latency_unloaded;      /* cycles, the level's latency for the kernel's pattern */
  gdouble loads_in_flight;            /* warp-loads in flight per SM, average (Little's law:
                                         loads per cycle x average latency) */
  const gchar *busiest;               /* busiest unit overall: a unit or the memory level name */
  ProfileSolVerdict verdict;

  /* Scheduler Statistics (per scheduler per cycle) */
  guint smsps;               /* schedulers per SM */
  guint max_warps_per_sched; /* hardware maximum of resident warps per scheduler */
  gdouble active_warps;      /* resident warps */
  gdouble eligible_warps;    /* warps able to issue (selected + not_selected) */
  gdouble issued_warps;      /* warps issued = instructions per cycle per scheduler */
  gdouble ready_warps;       /* warps with operands ready, incl. those stalled by a busy
                                pipe, dispatch or load slots (SimStats.eligible_warp_cycles) */
  gdouble issue_slot_pct;    /* issued_warps x 100 */
  gdouble no_eligible_pct;   /* cycles a scheduler issued nothing, percent */
  gdouble threads_per_inst;  /* active threads per issued warp instruction */

  /* Warp State Statistics */
  gdouble state_cpi[STALL_MAX]; /* warp cycles per issued instruction in each state */
  gdouble state_pct[STALL_MAX]; /* percent of all warp cycles */
  guint state_order[STALL_MAX]; /* StallState values, largest first (ties: priority order) */
  gdouble total_cpi;            /* warp cycles per issued instruction, all states */

  /* Occupancy */
  gdouble theoretical_pct;             /* theoretical occupancy (after a blocks_per_sm cap) */
  gdouble achieved_pct;                /* achieved occupancy */
  gdouble theoretical_warps_per_sched; /* warps */
  gdouble achieved_warps_per_sched;    /* warps */
  guint occ_blocks_per_sm;             /* CTAs the occupancy calculator allows */
  guint blocks_per_sm;                 /* CTAs resident (after the cap) */
  guint warps_per_sm;                  /* resident warps */
  guint max_warps;                     /* hardware resident warps per SM */
  guint limiter_mask;                  /* OccResult.limiter_mask */
  gboolean capped;                     /* [launch] blocks_per_sm binds below the calculator */
  guint block_limit[OCC_LIMIT_MAX];    /* CTAs per SM each limiter allows */

  /* Launch Statistics */
  guint grid_blocks;           /* CTAs in the grid */
  guint threads_per_block;     /* threads */
  guint warp_size;             /* threads */
  guint regs_per_thread;       /* registers allocated */
  guint smem_per_block;        /* bytes allocated per CTA incl. the reserve */
  guint sms;                   /* SMs of the device */
  guint sm_blocks;             /* CTAs the simulated SM runs */
  gdouble waves_per_sm;        /* grid / (blocks_per_sm x sms) */
  guint64 full_waves;          /* whole waves */
  guint64 partial_wave_blocks; /* CTAs of the partial last wave (0 = none) */
  gdouble tail_pct;            /* share of the runtime the partial wave may take: 100 / waves
                                  when there is one after a full wave, else 0 */

  ProfileRule rule[PROFILE_RULE_MAX];
  ProfileWhatIf what_if[PROFILE_WHAT_IF_MAX];
} Profile;

/* The profile of run `r` of `k` on `m` (all borrowed): every section and
 * rule, no extra simulation.  Returns a new Profile (profile_free). */
Profile *profile_new(const SmModel *m, const Kernel *k, const SimResult *r);

/* (Re)evaluate every rule from the section numbers of `p`, replacing the
 * previous verdicts; profile_new calls it (tests call it after editing the
 * numbers). */
void profile_apply_rules(Profile *p);

/* The Speed Of Light verdict for SM% `sm_pct`, memory% `mem_pct` and
 * `waves_per_sm` (Nsight Compute's thresholds). */
ProfileSolVerdict profile_sol_verdict(gdouble sm_pct, gdouble mem_pct, gdouble waves_per_sm);

/* For each what-if a fired rule suggests, simulate `k` (borrowed; a modified
 * copy is run) on `m` with the change, using `opt` (may be NULL), and record
 * the throughput with and without.  A what-if that cannot be built or whose
 * simulation fails gets a note instead; the profile is otherwise untouched. */
void profile_what_if(Profile *p, const SmModel *m, const Kernel *k, const SimOptions *opt);

/* Mark the suggested what-ifs as skipped (note "skipped (--no-whatif)"). */
void profile_skip_what_if(Profile *p);

/* Append the report as aligned text (sections, fired rules, what-ifs). */
void profile_append_text(const Profile *p, GString *out);

/* The report as a JSON object node (caller owns; json_node_unref). */
JsonNode *profile_to_json(const Profile *p);

/* Static names: "issue", "fma", ...; "Latency Issue", ...; "Speed Of Light",
 * ...; "sol_bottleneck", ...; "occupancy", "ilp". */
const gchar *profile_unit_name(ProfileUnit u);
const gchar *profile_sol_name(ProfileSolVerdict v);
const gchar *profile_section_name(ProfileSection s);
const gchar *profile_rule_name(ProfileRuleId id);
const gchar *profile_what_if_name(ProfileWhatIfKind w);

void profile_free(Profile *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Profile, profile_free)

#endif
