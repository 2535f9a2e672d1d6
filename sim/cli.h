/* cli.h - the warpsim subcommands (each parses its own options with
 * GOptionContext and returns the process exit status: 0 success, 2 bad input,
 * 1 internal error).  Only these functions print.
 */
#ifndef WARPSIM_CLI_H
#define WARPSIM_CLI_H

#include "kernel.h"
#include "model.h"
#include "report.h"
#include "sim.h"

int cli_run_main(int argc, char **argv);
int cli_models_main(int argc, char **argv);

/* Load model and kernel, routing each "--set group.key=value" to the one
 * whose group it names; an override naming neither is an error. */
gboolean cli_load(const gchar *model_spec, const gchar *kernel_spec, gchar **sets, SmModel **model,
                  Kernel **kernel, GError **error);

/* The result row `warpsim run` prints (CSV column order); `sets` are the
 * run's "--set" strings (NULL-terminated, may be NULL): those naming a model
 * group fill the model_overrides column. */
ReportRow *cli_result_row(const SmModel *m, const Kernel *k, const SimResult *r,
                          const gchar *const *sets);

/* Print "warpsim: MESSAGE" on stderr and return 2. */
int cli_fail(const gchar *message);

#endif
