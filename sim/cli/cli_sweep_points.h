/* cli_sweep_points.h - the `warpsim sweep-points` command: the grid of a
 * parameter sweep (fixed --set settings, --axis keys and values or integer
 * ranges, first axis outermost, --derive keys computed at each point by
 * whole-number arithmetic) expanded into its points, repeats dropped, every
 * value checked by loading the model and kernel and planning the run (a
 * range by its two ends, a derived key at its smallest and largest), the
 * values that cannot change the result named in warnings (`warpsim run`'s,
 * cli_run_warnings), and, with --signature, what decides the
 * results (version, binary, model, kernel, SASS files, effective
 * configuration and grid, each as a SHA-256) written to a file for
 * scripts/sweep.sh's --resume.  sweep.sh keeps the lock, GNU parallel, the
 * resume state and the signals.
 */
#ifndef WARPSIM_CLI_SWEEP_POINTS_H
#define WARPSIM_CLI_SWEEP_POINTS_H

/* Run the command; argv[0] is "sweep-points".  Prints one line per point
 * (tab-separated group.key=value) on stdout only when every check passed;
 * bad input (a key or value sweep.sh refuses, an empty or reversed range,
 * over 100,000 points, a --derive that names an unknown key or does not give
 * a whole number >= 0, a value warpsim refuses, an unwritable --signature
 * file) prints one line on stderr and returns 2. */
int cli_sweep_points_main(int argc, char **argv);

#endif
