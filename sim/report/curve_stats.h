/* curve_stats.h - the project's headline numbers of one throughput curve
 * (points of a metric against resident warps or occupancy), in one place:
 * the plateau, the knee, whether the curve still rises, the change from 50 %
 * to 100 % occupancy, and the mean absolute percentage error (MAPE) of a
 * simulation against a measurement.  `warpsim curve-stats` (cli/) reads the
 * points from CSV files; scripts/validate.sh, scripts/knee.sh and
 * scripts/run.sh's summary print what it computes.
 *
 * Every function takes one curve's points in order of x (a caller sorts
 * them) as arrays of `n` values; none allocates.  The definitions (those
 * scripts/validate.sh and scripts/knee.sh computed in awk before):
 *   plateau = the largest y of the curve;
 *   knee    = the first point (smallest x) whose y reaches
 *             CURVE_KNEE_FRACTION of the plateau;
 *   still rising = the last step (by x) added more than
 *             CURVE_RISING_FRACTION;
 *   change 50 -> 100 % = y at the largest occupancy of the curve over y at the
 *             largest occupancy <= 50 %, minus one, in %;
 *   MAPE    = mean over the points of |simulated - measured| / |measured|.
 */
#ifndef WARPSIM_CURVE_STATS_H
#define WARPSIM_CURVE_STATS_H

#include <glib.h>

/* The knee's share of the plateau: 90 %, the project's definition of the
 * knee (a convention, not fitted to anything). */
#define CURVE_KNEE_FRACTION 0.9

/* A last step (by x) larger than 2 % of the previous value means the curve
 * has reached no plateau yet (scripts/knee.sh's threshold; not fitted). */
#define CURVE_RISING_FRACTION 0.02

/* The occupancy (in %) up to which a point counts as "50 % occupancy". */
#define CURVE_HALF_OCCUPANCY_PCT 50.0

/* Index of the plateau: the first point holding the largest y; -1 when n
 * is 0. */
gint curve_plateau(const gdouble *y, guint n);

/* Index of the knee: the first point whose y >= `fraction` x the plateau;
 * -1 when n is 0 or none does (a negative plateau: `fraction` of it lies
 * above every point). */
gint curve_knee(const gdouble *y, guint n, gdouble fraction);

/* TRUE when the curve has two points or more and its last step rose by
 * more than `fraction` of the previous value (y[n-1] > (1 + fraction) y[n-2]). */
gboolean curve_still_rising(const gdouble *y, guint n, gdouble fraction);

/* Index of the point of the largest occupancy (`occ`, in %) <= `half_pct`,
 * the first of equal ones; -1 when none is. */
gint curve_half_point(const gdouble *occ, guint n, gdouble half_pct);

/* Index of the point of the largest occupancy, the first of equal ones; -1
 * when n is 0. */
gint curve_full_point(const gdouble *occ, guint n);

/* The change in % from the point of the largest occupancy <= `half_pct`
 * (occupancy in %, `occ`) to the point of the largest occupancy of the
 * curve (the first of equal ones, each): 100 (y_full / y_half - 1).  FALSE
 * (and *pct untouched) when the curve has no point at or below `half_pct`,
 * none above the half point, y there is not positive, or the change is past
 * a double (inf). */
gboolean curve_change_pct(const gdouble *occ, const gdouble *y, guint n, gdouble half_pct,
                          gdouble *pct);

/* How far the curve falls from its plateau to its last point, in % of the
 * plateau: 100 (plateau - y[n-1]) / plateau (0 for a curve that ends on its
 * plateau; NaN when n is 0 or the plateau is not positive: no share of it). */
gdouble curve_fall_pct(const gdouble *y, guint n);

/* The mean absolute percentage error, in %, of `simulated` against
 * `measured` over the points whose `use` is TRUE (`use` NULL: every point),
 * summed in point order; *count (may be NULL) gets how many points it used.
 * NaN when it used none.  A measured value of 0 is the caller's to refuse. */
gdouble curve_mape_pct(const gdouble *measured, const gdouble *simulated, const gboolean *use,
                       guint n, guint *count);

#endif
