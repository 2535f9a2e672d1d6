/* cli_diff.h - the `warpsim diff` command: two `warpsim run --format json`
 * results side by side, metric by metric in the report's sections, with the
 * change from the first (baseline) to the second, like Nsight Compute's
 * baseline comparison.
 */
#ifndef WARPSIM_CLI_DIFF_H
#define WARPSIM_CLI_DIFF_H

/* Run the command; argv[0] is "diff".  Prints on stdout only when both files
 * were read; bad input (a missing or unreadable file, not JSON, not a
 * `warpsim run` result) prints one line on stderr naming the file and
 * returns 2. */
int cli_diff_main(int argc, char **argv);

#endif
