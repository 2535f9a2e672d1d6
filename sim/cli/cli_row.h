/* cli_row.h - the result row of `warpsim run`: one static table of columns
 * {name, getter, decimals} in CSV order.
 */
#ifndef WARPSIM_CLI_ROW_H
#define WARPSIM_CLI_ROW_H

#include "input/kernel.h"
#include "input/model.h"
#include "report/report.h"
#include "run/sim.h"

/* The row of run `r` of `k` on `m` (all borrowed); `sets` are the run's
 * "--set" strings (NULL-terminated, may be NULL): those naming a model group
 * fill the model_overrides column.  Returns a new row (report_row_free). */
ReportRow *cli_result_row(const SmModel *m, const Kernel *k, const SimResult *r,
                          const gchar *const *sets);

#endif
