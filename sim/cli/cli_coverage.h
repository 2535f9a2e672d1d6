/* cli_coverage.h - `warpsim sass-coverage LISTING`: every opcode of a SASS
 * listing with its opcode class ([class_*] group of the model) and where
 * that class's latency and issue interval come from (each key's .source).
 */
#ifndef WARPSIM_CLI_COVERAGE_H
#define WARPSIM_CLI_COVERAGE_H

/* The subcommand; argv[0] is "sass-coverage".  Exit status (CliExit): 0
 * when every opcode is in a class; 2 on bad input, on a listing the model's
 * GPU cannot run (sass_check_arch), and, unless --allow-unclassed, when an
 * opcode is in no class (one line naming the first, its line and the others;
 * nothing on stdout). */
int cli_coverage_main(int argc, char **argv);

#endif
