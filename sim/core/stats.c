/* stats.c - the one string table of warp-state names, and a run's
 * counters replayed at another speed. */
#include "core/stats.h"

#include <math.h>

static const gchar *const stall_names[STALL_MAX] = {
    [STALL_SELECTED] = "selected",
    [STALL_DRAIN] = "drain",
    [STALL_BARRIER] = "barrier",
    [STALL_BRANCH_RESOLVING] = "branch_resolving",
    [STALL_LONG_SCOREBOARD] = "long_scoreboard",
    [STALL_SHORT_SCOREBOARD] = "short_scoreboard",
    [STALL_WAIT] = "wait",
    [STALL_LG_THROTTLE] = "lg_throttle",
    [STALL_MIO_THROTTLE] = "mio_throttle",
    [STALL_MATH_PIPE_THROTTLE] = "math_pipe_throttle",
    [STALL_DISPATCH_STALL] = "dispatch_stall",
    [STALL_NOT_SELECTED] = "not_selected",
};

const gchar *stall_name(StallState s) {
  g_return_val_if_fail(s < STALL_MAX, "?");
  return stall_names[s];
}

/* round(v x f) as a counter */
static guint64 scaled(guint64 v, gdouble f) {
  return (guint64)llround((gdouble)v * f);
}

void sim_stats_scale_time(SimStats *st, gdouble f) {
  guint64 active = st->active_warp_cycles, selected = st->state[STALL_SELECTED];
  gdouble others =
      active > selected
          ? MAX(0.0, (f * (gdouble)active - (gdouble)selected) / (gdouble)(active - selected))
          : f;
  st->cycles = scaled(st->cycles, f);
  st->smsp_active_cycles = scaled(st->smsp_active_cycles, f);
  st->ready_warp_cycles = scaled(st->ready_warp_cycles, f);
  st->load_latency_sum = scaled(st->load_latency_sum, f);
  guint64 sum = 0;
  for (guint s = 0; s < STALL_MAX; s++) {
    if (s != STALL_SELECTED)
      st->state[s] = scaled(st->state[s], others);
    sum += st->state[s];
  }
  st->active_warp_cycles = sum; /* the states' sum, as every run keeps it */
  st->lg_throttle_sm = MIN(scaled(st->lg_throttle_sm, others), st->state[STALL_LG_THROTTLE]);
  st->lg_load_sm = MIN(scaled(st->lg_load_sm, others), st->state[STALL_LONG_SCOREBOARD]);
}
