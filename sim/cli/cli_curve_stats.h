/* cli_curve_stats.h - the `warpsim curve-stats` command: per curve of CSV
 * points (a metric against resident warps), the plateau, knee, still rising
 * and the change from 50 % to 100 % occupancy, or, given a measured column,
 * the MAPE of the simulation (fit, held-out and all points, the Little's-law
 * bound's), both curves' plateaus and knees, and a pass/fail gate.  The
 * numbers are report/curve_stats.h's; this file reads the CSVs (libcsv, via
 * sass/ncu_csv.h) and writes the rows (report/report.h).
 */
#ifndef WARPSIM_CLI_CURVE_STATS_H
#define WARPSIM_CLI_CURVE_STATS_H

/* Run the command; argv[0] is "curve-stats".  Prints the rows on stdout only
 * when every file was read; bad input (an option, a missing file or column,
 * a field that is no number, a measured value of 0) prints one line on
 * stderr naming the option, or the file, line and column, and returns 2. */
int cli_curve_stats_main(int argc, char **argv);

#endif
