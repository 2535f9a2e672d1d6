/* report.h - one result row (ordered named columns) written as CSV, JSON or
 * aligned text.  Numbers are formatted locale-independently (g_ascii_dtostr
 * precision is fixed per column so output is byte-identical across runs).
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
void report_add_bool(ReportRow *row, const gchar *name, gboolean value);

/* Comma-separated header line / value line (with '\n'); strings holding a
 * comma or quote are quoted per RFC 4180. */
void report_csv_header(const ReportRow *row, GString *out);
void report_csv_values(const ReportRow *row, GString *out);

/* A JSON object of the row (numbers as numbers), pretty-printed, with an
 * optional extra member `extra_name` holding `extra` (may be NULL; the node
 * is consumed). */
void report_json(const ReportRow *row, const gchar *extra_name, gpointer extra, GString *out);

/* "name  value" lines, names padded. */
void report_text(const ReportRow *row, GString *out);

#endif
