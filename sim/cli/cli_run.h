/* cli_run.h - `warpsim run`: simulate one kernel on one SM and print its
 * result as an Nsight Compute-style report, a CSV row or JSON.
 */
#ifndef WARPSIM_CLI_RUN_H
#define WARPSIM_CLI_RUN_H

/* The subcommand; argv[0] is "run".  Returns a CliExit status. */
int cli_run_main(int argc, char **argv);

#endif
