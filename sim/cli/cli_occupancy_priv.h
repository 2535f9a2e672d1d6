/* cli_occupancy_priv.h - what the files of `warpsim occupancy` share (not a
 * public interface): the checked command, its error domain, result rows and
 * where they go, the text sections and the modes.
 *   cli_occupancy.c        options and the entry point;
 *   cli_occupancy_rows.c   CSV/JSON result rows and the row sink;
 *   cli_occupancy_text.c   the text sections (Nsight Compute's layout);
 *   cli_occupancy_modes.c  one launch, best block size, shared memory for n
 *                          blocks, what-if curves;
 *   cli_occupancy_batch.c  --batch, written row by row.
 */
#ifndef WARPSIM_CLI_OCCUPANCY_PRIV_H
#define WARPSIM_CLI_OCCUPANCY_PRIV_H

#include "input/model.h"
#include "occupancy/occupancy.h"
#include "report/report.h"

#include <json-glib/json-glib.h>
#include <stdio.h>

#define CLI_OCCUPANCY_ERROR (cli_occupancy_error_quark())
GQuark cli_occupancy_error_quark(void);
typedef enum {
  CLI_OCCUPANCY_ERROR_OPTION, /* an option value malformed, missing or out of range */
  CLI_OCCUPANCY_ERROR_MODE,   /* options that exclude each other, or a stray argument */
  CLI_OCCUPANCY_ERROR_BATCH,  /* a --batch file unreadable, or a row or header malformed */
} CliOccupancyError;

typedef enum { CLI_OCC_FORMAT_TEXT, CLI_OCC_FORMAT_CSV, CLI_OCC_FORMAT_JSON } CliOccFormat;

/* What a mode works on once the options are checked. */
typedef struct {
  SmModel *model;       /* owned by the entry point */
  OccLaunch launch;     /* the launch of the options (a batch row replaces the block shape) */
  CliOccFormat format;  /* output format */
  gboolean no_header;   /* CSV without its header row */
  gboolean compiler;    /* --launch-bounds, --max-regs or --warpgroup-regs given: add their
                           columns and text */
  guint64 grid;         /* blocks in the grid; 0 = no --grid */
  gboolean cooperative; /* --cooperative: the grid must be co-resident (grid.sync()) */
} CliOccCommand;

/* The options as GOptionContext leaves them (numbers as text, checked
 * later against the model's limits). */
typedef struct {
  gchar *model, *threads, *regs, *smem_static, *smem_dynamic, *carveout, *format;
  gchar *batch, *vary, *smem_for_blocks, *grid, *bounds, *max_regs, *warpgroups;
  gchar *smem_per_thread;
  gboolean optin, no_header, best, help, cooperative;
} CliOccOptions;

/* Where result rows go, one at a time: CSV lines (the header before the
 * first unless suppressed) or JSON (one object, or an array of objects).
 * With `dest` set, the text is written there whenever it grows past a few
 * kilobytes (constant memory); otherwise it stays in `out`. */
typedef struct {
  const CliOccCommand *cmd;
  gboolean array; /* JSON: an array even of one row */
  guint64 n;      /* rows written */
  GString *out;
  FILE *dest; /* may be NULL */
} CliOccSink;

/* ---- cli_occupancy_options.c ---- */

/* The options' parser writing into `o` (free with g_option_context_free). */
GOptionContext *cli_occ_options_context(CliOccOptions *o);
void cli_occ_options_clear(CliOccOptions *o);
/* CliOccOptions that do not need the model: one mode, no stray argument, --model. */
gboolean cli_occ_check_modes(const CliOccOptions *o, int argc, char **argv, GError **error);
/* The decimal `text` of option --`opt` into lo..hi; NULL `text` leaves
 * `*value` as it is.  CLI_OCCUPANCY_ERROR_OPTION naming the option and range. */
gboolean cli_occ_parse_number(const gchar *opt, const gchar *text, guint64 lo, guint64 hi,
                              guint64 *value, GError **error);
gboolean cli_occ_parse_uint(const gchar *opt, const gchar *text, guint lo, guint hi, guint *value,
                            GError **error);
/* --format (default text, csv with --batch; text is refused with --batch). */
gboolean cli_occ_parse_format(const gchar *text, gboolean batch, CliOccFormat *format,
                              GError **error);
/* The launch of the options; --threads / --regs are required where
 * `need_threads` / `need_regs` unless launch bounds, --max-regs or
 * warpgroups imply them (threads: maxThreads or 128 per warpgroup; regs: the
 * ceiling, or the warpgroups' launch count). */
gboolean cli_occ_parse_launch(const CliOccOptions *o, const SmLimits *sm, gboolean need_threads,
                              gboolean need_regs, OccLaunch *l, GError **error);

/* ---- cli_occupancy_rows.c ---- */

/* `v` with up to 3 decimals, trailing zeros dropped (locale-independent). */
const gchar *cli_occ_fmt_num(gchar *buf, gsize size, gdouble v);
/* "default" or the percentage (newly allocated). */
gchar *cli_occ_carveout_text(gint pct);
/* Occupancy (percent) of `l` with its registers at the ceiling of `r`. */
gdouble cli_occ_ceiling_occupancy(const SmLimits *sm, const OccLaunch *l, const OccResult *r);
/* The model and launch columns every row starts with. */
ReportRow *cli_occ_launch_row(const SmModel *m, const OccLaunch *l);
/* The standard result row (the CSV columns of the README), then the compiler
 * columns when cmd->compiler. */
ReportRow *cli_occ_result_row(const CliOccCommand *c, const OccLaunch *l, const OccResult *r);
/* The --grid columns; `*hist` gets the last-wave histogram as a JSON array
 * (caller owns) and the CSV gets it as text. */
void cli_occ_add_waves_columns(const CliOccCommand *c, ReportRow *row, const OccResult *r,
                               JsonNode **hist);
/* Write `row` (and the JSON member `extra`, consumed; may be NULL), freeing both. */
void cli_occ_sink_add(CliOccSink *s, ReportRow *row, JsonNode *extra);
/* Close a JSON array and write what is left to `dest`. */
void cli_occ_sink_finish(CliOccSink *s);

/* ---- cli_occupancy_text.c ---- */

void cli_occ_text_launch(GString *out, const SmModel *m, const OccLaunch *l);
/* The Occupancy section, the compiler's register ceiling and MIN_BLOCKS. */
void cli_occ_text_result(GString *out, const CliOccCommand *c, const OccLaunch *l,
                         const OccResult *r);
/* The Launch Statistics section of --grid. */
void cli_occ_text_waves(GString *out, const SmModel *m, const OccResult *r, guint64 grid);
/* A what-if curve. */
void cli_occ_text_curve(GString *out, OccVary what, GArray *points);

/* ---- cli_occupancy_modes.c ---- (each appends to `out`) */

gboolean cli_occ_run_single(const CliOccCommand *c, GString *out, GError **error);
gboolean cli_occ_run_best(const CliOccCommand *c, GString *out, GError **error);
gboolean cli_occ_run_smem_for_blocks(const CliOccCommand *c, guint n_blocks, GString *out,
                                     GError **error);
gboolean cli_occ_run_vary(const CliOccCommand *c, const gchar *which, GString *out, GError **error);

/* ---- cli_occupancy_batch.c ---- */

/* Header a --batch file starts with. */
#define CLI_OCC_BATCH_HEADER "threads,regs,smem_static,smem_dynamic[,optin]"

/* Check every row of `file`, then compute and write one row each to `dest`
 * as it goes (memory independent of the number of rows); nothing is written
 * when a row is bad.  CLI_OCCUPANCY_ERROR_BATCH ("FILE:LINE: ...") or the
 * propagated OCCUPANCY_ERROR of a row. */
gboolean cli_occ_run_batch(const CliOccCommand *c, const gchar *file, FILE *dest, GError **error);

#endif
