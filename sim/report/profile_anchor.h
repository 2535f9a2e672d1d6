/* profile_anchor.h - the anchored model: what the agreement with the
 * profile pins down about one kernel, as one effective quantity the other
 * occupancies are simulated with (doc/profile_agreement.md).
 *
 * The quantity: a memory time factor f.  The profiled launch is simulated
 * with the pure model (profile_agree.h); when warps of that simulation
 * spend a share s >= PROFILE_ANCHOR_MIN_SHARE of their cycles waiting for
 * memory (long_scoreboard, lg_throttle, drain), the mismatch of the SM
 * active cycles (r = profiled / simulated) is put on memory alone: with the
 * memory part of the time scaled by f and the rest unchanged, r = 1 - s +
 * s f, so f = 1 + (r - 1) / s, clamped to [PROFILE_ANCHOR_MIN,
 * PROFILE_ANCHOR_MAX].  The anchored model is the pure one with the
 * latencies of L1, L2 and DRAM (and DRAM's streaming latency) x f and the
 * bandwidths of L2 and DRAM / f: this kernel's memory accesses are served f
 * times slower (f > 1) or faster than the model's calibration kernels'.
 * That first step f1 is refined once: the profiled launch simulated with
 * f1 gives a second cycles ratio, and the secant through (1, pure ratio)
 * and (f1, that ratio) gives the f at which the ratio is 1 (clamped); the
 * report shows where the anchored profiled launch lands.  A profiled launch not
 * bound by memory (s below the minimum) is not anchored: the model has no
 * per-kernel quantity for an issue or pipe mismatch.
 *
 * The factor is then checked against the profile's other measures of time
 * (profile_anchor_check): it is dropped, with the reason in the report (and
 * on the agreement's warning line, when there is one), when
 * - it reaches its range (first step or secant): a mismatch that large is
 *   not this kernel's memory time;
 * - the anchored profiled launch's warp cycles per issued instruction (the
 *   per-warp time, Nsight Compute's smsp__average_warp_latency_per_inst_issued)
 *   is farther from the profile's than the pure model's.  By Little's law
 *   SM active cycles = instructions x warp cycles per instruction / resident
 *   warps: when making the cycles right makes the per-warp time wrong, the
 *   cycles mismatch is in the resident warps (the achieved occupancy: warps
 *   that finish unevenly, a tail), and a memory factor would put a wrong
 *   per-warp time at every other occupancy;
 * - the anchored profiled launch's DRAM throughput (dram__throughput) is
 *   farther from the profile's than the pure model's and more than 10 %
 *   (PROFILE_AGREE_WARN_SHARE) of it off: a faster (slower) memory that
 *   makes the cycles right while the DRAM bytes per second go wrong says
 *   the model moves other DRAM bytes than the GPU (its L2 hit rate), and a
 *   memory factor would move every occupancy's bandwidth ceiling with it.
 * The 10 % is the band of the cycles warning (twice the measured spread
 * of a profile's cycles against the warm curve's), not a fit.
 *
 * A factor that passes is checked once more, on the shape of the curve
 * next to the profiled launch (profile_anchor_check_shape): the profiled
 * launch with half, the same and twice its resident CTAs, L2 as the
 * curve's launches find it, simulated with the pure and the anchored model.  The anchor is a level:
 * one profiled point says how far the pure model is off there, not how its curve bends.  When it
 * changes the throughput gain of either doubling (B/2 -> B, B -> 2B) by more than
 * PROFILE_ANCHOR_SHAPE_BAND against the pure model's, it would answer "does doubling the resident
 * warps help?" by its own assumption (one factor at every occupancy) rather than by a measurement,
 * and is dropped.
 *
 * The other quantity, instead of f: the rate of the L2 atomic unit ([l2]
 * atomic_sectors_per_cycle, doc/atomics.md).  How many lanes of a global
 * atomic aim at one word, and over how many words the GPU's atomics spread,
 * set that rate (results/reference/h200/atomics/: 0.728 atomics per cycle
 * for the whole GPU on one word, 2.07 on 256 words at random lanes, 56 at 1
 * Mi words), and nothing a user gives (listing, source page, details page)
 * says either.  When the pure simulation of the profiled launch holds its
 * atomic unit at the measured uncontended rate for at least
 * PROFILE_ANCHOR_ATOMIC_BUSY of its cycles and is more than 10 %
 * (PROFILE_AGREE_WARN_SHARE) faster than the profile's SM Active Cycles, the
 * unit is the limit and served slower on this kernel: both atomic rates are
 * scaled by g = (the unit's simulated busy cycles) / (the profile's SM
 * Active Cycles), so the unit alone takes the profiled time, and every
 * occupancy is simulated with them (no secant: the time is linear in 1/g
 * while the unit is the limit).  The same checks apply.
 *
 * The level anchor (profile_anchor_level), when neither quantity holds and
 * the pure model's cycles at the profiled launch are more than 10 %
 * (PROFILE_AGREE_WARN_SHARE, the warning's band) off, for one of the two
 * reasons that say the mismatch is not memory time: the simulated launch
 * waits for memory less than PROFILE_ANCHOR_MIN_SHARE of its warp cycles
 * (an issue, pipe or instruction-count mismatch: nbody, ihash, wmma), or
 * the factor (memory or atomic) was dropped by a check that says so: its
 * range (divg) or the per-warp time (stencil, cas: the mismatch is in the
 * resident warps).  Then every occupancy is the
 * pure model's run played t = profiled / simulated SM Active Cycles times
 * slower (SimOptions.time_factor, sim_result_scale_time): the curve's shape
 * (each doubling's gain, its knee) stays the pure model's, its level is the
 * profile's.  Not when the factor was dropped by the DRAM bytes or the
 * shape: those say the model moves other bytes than the GPU or bends the
 * curve otherwise, which a level would carry to every occupancy.
 */
#ifndef WARPSIM_PROFILE_ANCHOR_H
#define WARPSIM_PROFILE_ANCHOR_H

#include "input/model.h"
#include "report/profile_agree.h"

#include <glib.h>
#include <json-glib/json-glib.h>

/* The least memory-wait share that anchors (20 %: assumed, a fifth of the
 * warp cycles), and the factor's range (assumed: at most a factor of 2
 * either way is read as this kernel's memory behaviour, more as a model
 * that misses a mechanism). */
#define PROFILE_ANCHOR_MIN_SHARE 0.20
#define PROFILE_ANCHOR_MIN 0.5
#define PROFILE_ANCHOR_MAX 2.0
/* The shape check's band: a doubling's gain, anchored over pure, within
 * x / (1 + band) .. x (1 + band).  5 %: the band of the doubling question
 * itself (helps above +5 %, hurts below -5 %: issue 27,
 * scripts/validate_real.sh), assumed, not fitted. */
#define PROFILE_ANCHOR_SHAPE_BAND 0.05
/* The least share of the pure simulation's cycles the L2 atomic unit must be
 * busy for its rate to be anchored (assumed: half, the unit is the limit). */
#define PROFILE_ANCHOR_ATOMIC_BUSY 0.5

typedef struct {
  gboolean applied;       /* the anchored model differs from the pure one */
  const gchar *why;       /* static: why not applied (NULL when applied) */
  gdouble cycles_ratio;   /* source: simulated / profiled SM active cycles, pure model */
  gdouble memory_share;   /* source: the pure simulation's memory-wait share, 0..1 */
  gdouble memory_factor;  /* f (1 when not applied) */
  gboolean clamped;       /* f hit the range */
  gdouble first_factor;   /* f1, the closed-form first step */
  gdouble first_ratio;    /* simulated / profiled SM active cycles with f1 (NaN: not refined) */
  gdouble derived_factor; /* the factor derived before the checks (1: none derived) */
  /* the checks' sources at the profiled launch (NaN: not checked): warp
     cycles per issued instruction profiled / pure / anchored, and the
     achieved occupancy profiled / pure, % */
  gdouble wcpi_profiled, wcpi_pure, wcpi_anchored;
  gdouble occupancy_profiled, occupancy_pure;
  gdouble dram_profiled, dram_pure, dram_anchored; /* DRAM throughput, % of the profile's peak */
  /* the shape check (profile_anchor_check_shape): resident CTAs per SM of
     the doublings [0] B/2 -> B and [1] B -> 2B, B the profiled launch's
     (0: not checked), and each doubling's throughput gain (work per cycle
     at the larger over the smaller, 1.05 = +5 %) in the pure and the
     anchored model (NaN: not simulated or not possible) */
  guint shape_blocks[2][2];
  gdouble shape_gain_pure[2], shape_gain_anchored[2];
  gboolean refused;    /* derived, then dropped by profile_anchor_check (why says why) */
  gboolean not_memory; /* dropped by a check that says the mismatch is not memory time
                          (the range, the per-warp time): the level anchor may hold */
  /* the atomic quantity (see above): */
  gboolean atomic;            /* the anchor is the atomic rate (memory_factor stays 1) */
  gdouble atomic_busy_share;  /* source: the pure simulation's atomic unit busy share, 0..1
                                 (NaN: no atomics or no unit) */
  gdouble atomic_sectors;     /* source: global atomic sectors of the most loaded SM */
  gdouble profiled_cycles;    /* source: the profile's SM Active Cycles */
  gdouble atomic_rate;        /* [l2] atomic_sectors_per_cycle derived (sectors/cycle/SM) */
  gdouble atomic_return_rate; /* [l2] atomic_return_sectors_per_cycle derived */
  gdouble atomic_cas_rate;    /* [l2] atomic_cas_sectors_per_cycle derived (0 when the pure is 0) */
  /* the level anchor (see above): applied stays FALSE (the model is the pure one) */
  gboolean level;      /* every run of this kernel is played time_factor times slower */
  gdouble time_factor; /* profiled / simulated SM Active Cycles, pure model (1: no level) */
  SmModel model;       /* the anchored model: a shallow copy of the pure one (borrowed
                          strings and tables: never model_free it) */
} ProfileAnchor;

/* After profile_anchor_check and the shape check: make `an` the level
 * anchor (see above) when no quantity holds, `pure` (the pure model's
 * agreement) is outside the warning's band, and the memory factor was not
 * derived for its memory-wait share or was dropped by its range or the
 * per-warp time.  TRUE
 * when it did (an->level, an->time_factor). */
gboolean profile_anchor_level(ProfileAnchor *an, const ProfileAgreement *pure);

/* Derive the anchor of the pure model `m` (borrowed: out->model borrows
 * its strings) from the agreement `a` of its simulated profiled launch. */
void profile_anchor_derive(const SmModel *m, const ProfileAgreement *a, ProfileAnchor *out);

/* Refine `an` once (see above) with `first`, the agreement of the profiled
 * launch simulated on an->model (the first step's model). */
void profile_anchor_refine(const SmModel *m, ProfileAnchor *an, const ProfileAgreement *first);

/* Check `an` (derived and refined from `pure`, the pure model's agreement)
 * against `anchored`, the agreement of the profiled launch simulated on
 * an->model, by the rules above.  When a rule fails, the anchor is dropped:
 * an->applied FALSE, an->model = *m, an->refused TRUE, an->why the rule
 * (static).  Returns an->applied. */
gboolean profile_anchor_check(const SmModel *m, ProfileAnchor *an, const ProfileAgreement *pure,
                              const ProfileAgreement *anchored);

/* The shape check (see above) of `an`, kept by profile_anchor_check:
 * `blocks` the resident CTAs per SM of B/2, B and 2B (B the profiled
 * launch's), `pure` and `anchored` the SM active cycles of each launch
 * (profile_agree_cycles_at: L2 as the curve's launches find it) in the pure and the
 * anchored model (NaN: not possible; that doubling is not checked).  Work
 * per cycle of a launch is blocks / cycles (the grid scales with the
 * blocks).  Fills the shape_* fields; when a doubling's anchored gain is
 * outside its pure gain x / (1 + PROFILE_ANCHOR_SHAPE_BAND) .. x (1 +
 * band), the anchor is dropped as profile_anchor_check drops it.  Returns
 * an->applied. */
gboolean profile_anchor_check_shape(const SmModel *m, ProfileAnchor *an, const guint blocks[3],
                                    const gdouble pure[3], const gdouble anchored[3]);

/* TRUE when `anchored` is farther from `profiled` than `pure` is and
 * more than `tolerance` (same unit) off it; FALSE when any is NaN.  The
 * rule of profile_anchor_check, for the warp cycles per issued instruction
 * (tolerance 0) and the DRAM throughput (10 % of the profiled value). */
gboolean profile_anchor_moves_away(gdouble profiled, gdouble pure, gdouble anchored,
                                   gdouble tolerance);

/* When the anchor is not applied, the clause the agreement's warning line
 * ends with (profile_agree_warning; no newline): derived and dropped, the
 * factor and the rule that dropped it; not derived (--no-anchor, a launch
 * waiting for memory less than 20 % of its warp cycles), the reason the
 * report's "anchor: none (...)" line gives.  NULL when applied; a new
 * string.  An anchor missing at a launch within the warning band is said in
 * the report only. */
gchar *profile_anchor_warning(const ProfileAnchor *an);

/* The anchor as '--set' overrides of the pure model, e.g. "l2.latency=271
 * dram.latency=620 ..." (space-separated; "" when not applied); a new
 * string. */
gchar *profile_anchor_sets(const ProfileAnchor *an, const SmModel *pure);

/* The provenance of the values the applied anchor gives its model, for
 * model_dump_sources: one "group.key=fitted: ..." per key it moved (the
 * memory factor's latencies and bandwidths, or the two atomic rates),
 * naming the pure model's value and its source, the factor and the
 * profile metrics it came from (SM Active Cycles of the details export;
 * for the atomic rates the source export's global atomic sectors too); a
 * new NULL-terminated vector (g_strfreev), empty when not applied. */
gchar **profile_anchor_sources(const ProfileAnchor *an, const SmModel *pure);

/* Append the anchor as text lines, each with `prefix`: the quantity, its
 * source metrics and values, the model keys it changed; and, when
 * `anchored` is given (the agreement of the anchored profiled launch), the
 * cycles ratio it leaves there. */
void profile_anchor_append_text(const ProfileAnchor *an, const SmModel *pure,
                                const ProfileAgreement *anchored, const gchar *prefix,
                                GString *out);

/* The anchor as a JSON object node (caller owns). */
JsonNode *profile_anchor_to_json(const ProfileAnchor *an, const SmModel *pure,
                                 const ProfileAgreement *anchored);

#endif
