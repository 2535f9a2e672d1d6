/* stats.c - the one string table of warp-state names. */
#include "core/stats.h"

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
