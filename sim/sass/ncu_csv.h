/* ncu_csv.h - the rows of an Nsight Compute CSV export (RFC 4180 quoting,
 * read with libcsv), each with the line it starts on, and the numbers as
 * Nsight Compute prints them ("135,168", "-" for absent).  Used by
 * ncu_source.c and ncu_details.c. */
#ifndef WARPSIM_NCU_CSV_H
#define WARPSIM_NCU_CSV_H

#include <glib.h>

/* The largest count a column may hold: exact in a double (2^53). */
#define NCU_COUNT_MAX 9007199254740992.0

typedef struct {
  gchar **fields; /* the row's n_fields fields, owned by the table */
  guint n_fields; /* fields in the row */
  guint first;    /* internal: index of its first field among the table's */
  guint line;     /* line of the file the row starts on (1-based) */
} NcuRow;

/* The rows of one CSV text, the header row first.  The fields' text lives
 * in one GStringChunk and their pointers in one array, rather than a
 * malloc'd string each (a details export of six kernels, real/ncu/
 * details_full_b8.csv, has 685 rows of 20 fields). */
typedef struct {
  GArray *rows;           /* NcuRow */
  gchar **fields;         /* every row's fields, in order (rows point into it) */
  GStringChunk *strings;  /* the fields' text */
  gboolean comma_decimal; /* its numbers use a decimal comma (ncu_csv_value) */
} NcuTable;

/* Every row of the CSV text (`len` bytes; `origin` names it in messages),
 * freed with ncu_csv_table_free.  The text may be UTF-8 (a byte-order mark
 * is skipped) or UTF-16 LE/BE (with a byte-order mark, or ASCII text
 * without one: converted with g_convert).  When `header` is non-NULL and
 * some line starts with it as a field ("ID", "Kernel Name"), the lines
 * ahead of the first such line are skipped (ncu's ==PROF== messages and
 * the program's output); line numbers still count them.  NULL with
 * NCU_ERROR_PARSE "ORIGIN:LINE: ..." on binary data, UTF-16 that does not
 * convert, or malformed CSV. */
NcuTable *ncu_csv_read_from(const gchar *text, gsize len, const gchar *origin, const gchar *header,
                            GError **error);

/* ncu_csv_read_from with no header to skip to. */
NcuTable *ncu_csv_read(const gchar *text, gsize len, const gchar *origin, GError **error);

/* ncu_csv_read, but the spaces and tabs around an unquoted field are kept
 * (libcsv drops them by default), so a reader that refuses " 4" sees it. */
NcuTable *ncu_csv_read_untrimmed(const gchar *text, gsize len, const gchar *origin, GError **error);

/* Free a table from ncu_csv_read (NULL: nothing). */
void ncu_csv_table_free(NcuTable *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NcuTable, ncu_csv_table_free)

/* Read the regular file at `path` into *text (g_free) and *len (bytes).
 * FALSE with NCU_ERROR_NOT_FOUND "PATH: reason" otherwise. */
gboolean ncu_csv_read_file(const gchar *path, gchar **text, gsize *len, GError **error);

/* Field `col` of row r; "" when col is negative or past the row's end. */
const gchar *ncu_csv_field(const NcuRow *r, gint col);

/* Index of the column called `name` in the header row; -1 when absent. */
gint ncu_csv_column(const NcuRow *header, const gchar *name);

/* A number as Nsight Compute prints it in the C locale ("135,168",
 * "28.16", "1.5e+06"; "-", "n/a" or "" = absent: *v = NaN), spaces around
 * it ignored; groups of three digits may also be separated by a space, a
 * no-break, narrow no-break or thin space, or an apostrophe (other
 * locales' separators).  FALSE when it is no number: hex, other inner
 * characters, misplaced separators ("3,2": a comma decimal), or not
 * finite (digits past a double's range, "1e309": *v = +-inf, for the
 * caller to call out of range). */
gboolean ncu_csv_number(const gchar *s, gdouble *v);

/* Same, with ',' as the decimal mark and '.' as a group separator when
 * `comma` ("1.234,5" = 1234.5, "28,16" = 28.16). */
gboolean ncu_csv_number_style(const gchar *s, gboolean comma, gdouble *v);

/* A number of table `t`, in the style of its file: with a decimal comma
 * when some field of the file is a number only so ("28,16"; then "1,234"
 * is 1.234, else 1234). */
gboolean ncu_csv_value(const NcuTable *t, const gchar *s, gdouble *v);

/* How a Kernel Name of an export compares with the listing's function
 * `name` (demangled, or a name key: then no parameters to compare). */
typedef enum {
  NCU_NAME_OTHER,    /* another name key (sass_name_key): another kernel */
  NCU_NAME_OVERLOAD, /* the same key, other parameters (sass_name_same_params) */
  NCU_NAME_SAME,     /* the same key and parameters, or a name base without them */
} NcuNameMatch;
NcuNameMatch ncu_csv_name_match(const gchar *kernel_name, const gchar *name);

/* NCU_ERROR_KERNEL, one line: the export (`origin`, its kernel's line)
 * profiles `kernel_name`, another overload of the listing's `name`. */
void ncu_csv_overload_error(GError **error, const gchar *origin, guint line,
                            const gchar *kernel_name, const gchar *name);

#endif
