/* report.h - one result row (ordered named columns) written as CSV or JSON,
 * and the one renderer of aligned text tables.  Numbers are formatted
 * locale-independently (precision fixed per column, so output is
 * byte-identical across runs).
 */
#ifndef WARPSIM_REPORT_H
#define WARPSIM_REPORT_H

#include <glib.h>

typedef struct ReportRow ReportRow;

ReportRow *report_row_new(void);
void report_row_free(ReportRow *row);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ReportRow, report_row_free)

void report_add_str(ReportRow *row, const gchar *name, const gchar *value);
void report_add_uint(ReportRow *row, const gchar *name, guint64 value);
/* `decimals` digits after the point. */
void report_add_double(ReportRow *row, const gchar *name, gdouble value, guint decimals);
/* A number with its own text (as an input file wrote it): CSV writes `text`,
 * JSON the number `value` (null when it is not finite). */
void report_add_number(ReportRow *row, const gchar *name, const gchar *text, gdouble value);
void report_add_bool(ReportRow *row, const gchar *name, gboolean value);

/* Comma-separated header line / value line (with '\n'); strings holding a
 * comma or quote are quoted per RFC 4180. */
void report_csv_header(const ReportRow *row, GString *out);
void report_csv_values(const ReportRow *row, GString *out);

/* A JSON object of the row (numbers as numbers), pretty-printed, with an
 * optional extra member `extra_name` holding `extra` (may be NULL; the node
 * is consumed). */
void report_json(const ReportRow *row, const gchar *extra_name, gpointer extra, GString *out);

/* `value` with `decimals` digits after the point, locale-independent
 * ("%.Nf" in the C locale).  Returns a new string. */
gchar *report_format_double(gdouble value, guint decimals);

/* An aligned text table: a header row, then rows of cells.  Text columns
 * are left-aligned, the others right-aligned; rules of '-' frame the header
 * and the end; every line is indented by four spaces. */
typedef struct ReportTable ReportTable;

/* A table of `n_cols` (1..8) columns headed by `header` (copied); column 0
 * is left-aligned. */
ReportTable *report_table_new(guint n_cols, const gchar *const *header);

/* Left-align column `col`. */
void report_table_left(ReportTable *t, guint col);

/* Append one cell (copied); rows fill left to right, n_cols per row. */
void report_table_add(ReportTable *t, const gchar *cell);

/* Append one cell, taking ownership of `cell`. */
void report_table_take(ReportTable *t, gchar *cell);

/* Append the table to `out` (the last row must be complete). */
void report_table_write(const ReportTable *t, GString *out);

void report_table_free(ReportTable *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ReportTable, report_table_free)

#endif
