/* cli.h - what every warpsim subcommand shares: exit codes, --format,
 * option parsing with GOptionContext, the routing of --set overrides to the
 * model or the kernel, and printing an error.  Only the CLI prints.
 */
#ifndef WARPSIM_CLI_H
#define WARPSIM_CLI_H

#include "input/kernel.h"
#include "input/model.h"

#include <glib.h>

/* Process exit status of every subcommand. */
typedef enum {
  CLI_EXIT_OK = 0,       /* success */
  CLI_EXIT_INTERNAL = 1, /* a bug: a failed invariant, a write error */
  CLI_EXIT_USAGE = 2,    /* bad input: options, files, keys, values */
  CLI_EXIT_BOUND = 3,    /* a run passed --max-cycles or --timeout */
} CliExit;

#define CLI_ERROR (cli_error_quark())
GQuark cli_error_quark(void);
typedef enum {
  CLI_ERROR_USAGE, /* bad option, argument or option value */
  CLI_ERROR_SET,   /* a --set naming no model or kernel group */
} CliError;

/* Output formats. */
typedef enum { CLI_FORMAT_TEXT, CLI_FORMAT_CSV, CLI_FORMAT_JSON } CliFormat;

/* The format named `text` ("text", "csv", "json"); FALSE with CLI_ERROR_USAGE
 * naming --format and the allowed values otherwise. */
gboolean cli_parse_format(const gchar *text, CliFormat *format, GError **error);

/* Parse the options of `ctx` from argv (argv[0] is the command); a
 * positional argument left over is an error.  FALSE with CLI_ERROR_USAGE
 * (the message starts with `command`) or GOptionContext's error. */
gboolean cli_parse(GOptionContext *ctx, const gchar *command, int argc, char **argv,
                   GError **error);

/* Load model and kernel (kernel may be NULL: model only), routing each
 * "--set group.key=value" in `sets` (NULL-terminated, may be NULL) to the
 * one whose group it names; a group naming neither is CLI_ERROR_SET.  The
 * kernel is loaded for the model (kernel_load: a SASS listing's section for
 * its GPU, refused when none runs there).  Model and kernel errors
 * propagate with their own domains and codes. */
gboolean cli_load(const gchar *model_spec, const gchar *kernel_spec, gchar **sets, SmModel **model,
                  Kernel **kernel, GError **error);

/* Print a one-line note on stderr when `model_spec` (may be NULL) is a
 * deprecated name of a shipped model (model_find_renamed): the name it now
 * has.  Commands call it once, when they succeed: bad input is its one
 * error line alone (cli_load does not print it). */
void cli_note_renamed(const gchar *model_spec);

/* The --set strings in `sets` that name a model group, sorted by key and
 * joined by ';' ("dram.latency=800;..."; "" when none), so the order of the
 * options does not change a row.  Returns a new string. */
gchar *cli_model_overrides(const gchar *const *sets);

/* Print "PREFIX: MESSAGE" on stderr on one line: control characters in
 * MESSAGE (a field of a user's file may hold a newline) are written as \n,
 * \r, \t or \xHH, and a message over 1,000 bytes is cut there and says how
 * much was left out. */
void cli_print_error(const gchar *prefix, const gchar *message);

/* Print "warpsim: MESSAGE" for `error` on stderr, free it and return its
 * exit status: CLI_EXIT_INTERNAL for SIM_ERROR_INVARIANT, CLI_EXIT_BOUND for
 * SIM_ERROR_BOUND, else CLI_EXIT_USAGE. */
int cli_exit(GError *error);

/* Print "warpsim: MESSAGE" on stderr and return CLI_EXIT_USAGE. */
int cli_fail(const gchar *message);

#endif
