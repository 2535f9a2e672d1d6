/* curve_stats.c - plateau, knee, still rising, change and MAPE of one curve. */
#include "report/curve_stats.h"

#include <math.h>

gint curve_plateau(const gdouble *y, guint n) {
  gint best = n > 0 ? 0 : -1;
  for (guint i = 1; i < n; i++)
    if (y[i] > y[best])
      best = (gint)i;
  return best;
}

gint curve_knee(const gdouble *y, guint n, gdouble fraction) {
  gint top = curve_plateau(y, n);
  for (guint i = 0; top >= 0 && i < n; i++)
    if (y[i] >= fraction * y[top])
      return (gint)i;
  return -1;
}

gboolean curve_still_rising(const gdouble *y, guint n, gdouble fraction) {
  return n >= 2 && y[n - 1] > (1 + fraction) * y[n - 2];
}

gint curve_half_point(const gdouble *occ, guint n, gdouble half_pct) {
  gint half = -1;
  for (guint i = 0; i < n; i++)
    if (occ[i] <= half_pct && (half < 0 || occ[i] > occ[half]))
      half = (gint)i;
  return half;
}

gint curve_full_point(const gdouble *occ, guint n) {
  gint full = n > 0 ? 0 : -1;
  for (guint i = 1; i < n; i++)
    if (occ[i] > occ[full])
      full = (gint)i;
  return full;
}

gboolean curve_change_pct(const gdouble *occ, const gdouble *y, guint n, gdouble half_pct,
                          gdouble *pct) {
  gint half = curve_half_point(occ, n, half_pct), full = curve_full_point(occ, n);
  if (half < 0 || occ[full] <= occ[half] || !(y[half] > 0))
    return FALSE;
  gdouble change = 100 * (y[full] / y[half] - 1);
  if (!isfinite(change))
    return FALSE; /* past a double (1e300 over 1e-320) */
  *pct = change;
  return TRUE;
}

gdouble curve_fall_pct(const gdouble *y, guint n) {
  gint top = curve_plateau(y, n);
  return top >= 0 && y[top] > 0 ? 100 * (y[top] - y[n - 1]) / y[top] : NAN;
}

gdouble curve_mape_pct(const gdouble *measured, const gdouble *simulated, const gboolean *use,
                       guint n, guint *count) {
  gdouble sum = 0;
  guint used = 0;
  for (guint i = 0; i < n; i++) {
    if (use != NULL && !use[i])
      continue;
    sum += fabs(simulated[i] - measured[i]) / fabs(measured[i]);
    used++;
  }
  if (count != NULL)
    *count = used;
  return used > 0 ? 100 * sum / used : NAN;
}
