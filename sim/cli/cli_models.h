/* cli_models.h - `warpsim models`: list the shipped SM models. */
#ifndef WARPSIM_CLI_MODELS_H
#define WARPSIM_CLI_MODELS_H

/* The subcommand; argv[0] is "models".  Returns a CliExit status. */
int cli_models_main(int argc, char **argv);

#endif
