/* cli_occupancy.h - the `warpsim occupancy` command: theoretical occupancy of
 * a launch on a model (text like Nsight Compute's Occupancy section, CSV or
 * JSON), batches of launches, what-if curves and launch helpers.
 */
#ifndef WARPSIM_CLI_OCCUPANCY_H
#define WARPSIM_CLI_OCCUPANCY_H

/* Run the command; argv[0] is "occupancy".  Prints results on stdout only
 * when everything succeeded (never partial output) and at most one line on
 * stderr.  Returns the process exit status: 0 ok (an impossible launch
 * included: it prints 0 blocks and the reason), 2 bad input (the line names
 * the option or file and the allowed range). */
int cli_occupancy_main(int argc, char **argv);

#endif
