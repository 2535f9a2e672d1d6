/* cli_run.h - `warpsim run`: simulate one kernel on one SM and print its
 * result as an Nsight Compute-style report, a CSV row or JSON.
 */
#ifndef WARPSIM_CLI_RUN_H
#define WARPSIM_CLI_RUN_H

#include "input/kernel.h"
#include "input/model.h"

#include <glib.h>

/* The subcommand; argv[0] is "run".  Returns a CliExit status. */
int cli_run_main(int argc, char **argv);

/* The warnings `warpsim run` gives before it simulates `k` on `m`, one
 * line each (without the "warpsim: warning: " prefix), appended to `lines`
 * (gchar *, owned by the array): stream.ilp with no effect or above the
 * instructions its chains share, launch.blocks_per_sm above what the
 * occupancy limits allow (lines "KERNEL-FILE: ..."), and what the Nsight
 * Compute exports of a [sass] kernel did not give (ncu_source.h,
 * ncu_details.h).  `warpsim sweep-points` names an axis value by them. */
void cli_run_warnings(const SmModel *m, const Kernel *k, GPtrArray *lines);

#endif
