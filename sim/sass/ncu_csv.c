/* ncu_csv.c - rows and numbers of an Nsight Compute CSV export, read with
 * libcsv (see ncu_csv.h). */
#include "sass/ncu_csv.h"

#include "input/readfile.h"
#include "sass/ncu.h"

#include <csv.h>
#include <math.h>
#include <string.h>

G_DEFINE_QUARK(warpsim_ncu_error, ncu_error)

/* ---- rows ------------------------------------------------------------------ */

typedef struct {
  NcuTable *t;
  GPtrArray *fields; /* gchar* in t->strings: every field so far */
  gboolean in_row;   /* a field of the current row was seen */
  NcuRow cur;        /* the current row: first, line */
  guint line;        /* line being fed */
} Reader;

static void on_field(void *s, size_t len, void *data) {
  Reader *r = data;
  if (!r->in_row) {
    r->in_row = TRUE;
    r->cur.first = r->fields->len;
    r->cur.line = r->line;
  }
  g_ptr_array_add(r->fields, g_string_chunk_insert_len(r->t->strings, s ? s : "", (gssize)len));
}

static void on_row(int c, void *data) {
  (void)c;
  Reader *r = data;
  if (!r->in_row)
    return;
  r->cur.n_fields = r->fields->len - r->cur.first;
  g_array_append_val(r->t->rows, r->cur);
  r->in_row = FALSE;
}

void ncu_csv_table_free(NcuTable *t) {
  if (t == NULL)
    return;
  g_array_free(t->rows, TRUE);
  g_free(t->fields);
  g_string_chunk_free(t->strings);
  g_free(t);
}

NcuTable *ncu_csv_read(const gchar *text, gsize len, const gchar *origin, GError **error) {
  if (memchr(text, '\0', len) != NULL) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE, "%s:1: not a CSV file (binary data)", origin);
    return NULL;
  }
  struct csv_parser p;
  csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL);
  NcuTable *t = g_new0(NcuTable, 1);
  t->rows = g_array_new(FALSE, FALSE, sizeof(NcuRow));
  t->strings = g_string_chunk_new(MAX(len, 64));
  Reader r = {.t = t, .fields = g_ptr_array_new(), .line = 1};
  const gchar *pos = text, *end = text + len;
  gboolean ok = TRUE;
  while (pos < end && ok) {
    /* One physical line at a time, for the line numbers of errors: it ends
     * at LF, CR LF or a lone CR (classic Mac text). */
    const gchar *e = pos;
    while (e < end && *e != '\n' && *e != '\r')
      e++;
    if (e < end)
      e += (*e == '\r' && e + 1 < end && e[1] == '\n') ? 2 : 1;
    gsize n = (gsize)(e - pos);
    ok = csv_parse(&p, pos, n, on_field, on_row, &r) == n;
    pos += n;
    if (ok)
      r.line++;
  }
  if (ok)
    ok = csv_fini(&p, on_field, on_row, &r) == 0;
  /* the fields' array, now complete, becomes the table's and the rows point
   * into it */
  t->fields = (gchar **)g_ptr_array_free(r.fields, FALSE);
  for (guint i = 0; i < t->rows->len; i++) {
    NcuRow *row = &g_array_index(t->rows, NcuRow, i);
    row->fields = t->fields + row->first;
  }
  if (!ok) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE, "%s:%u: malformed CSV (%s)", origin,
                r.in_row ? r.cur.line : r.line, csv_strerror(csv_error(&p)));
    ncu_csv_table_free(t);
    t = NULL;
  }
  csv_free(&p);
  return t;
}

gboolean ncu_csv_read_file(const gchar *path, gchar **text, gsize *len, GError **error) {
  GError *err = NULL;
  *text = readfile_capped(path, READFILE_MAX_BYTES, len, &err);
  if (*text == NULL) {
    g_set_error_literal(error, NCU_ERROR, NCU_ERROR_NOT_FOUND, err->message);
    g_error_free(err);
    return FALSE;
  }
  return TRUE;
}

const gchar *ncu_csv_field(const NcuRow *r, gint col) {
  return col >= 0 && (guint)col < r->n_fields ? r->fields[col] : "";
}

gint ncu_csv_column(const NcuRow *header, const gchar *name) {
  for (guint i = 0; i < header->n_fields; i++)
    if (strcmp(header->fields[i], name) == 0)
      return (gint)i;
  return -1;
}

/* Whether `t` is a decimal number as Nsight Compute prints it: an optional
 * sign, digits with an optional fraction, an optional exponent; commas only
 * as thousands separators (a digit before, exactly three digits after, none
 * in the fraction).  No hex, inner spaces or comma decimals ("3,2"). */
static gboolean decimal_text(const gchar *t) {
  const gchar *p = t;
  if (*p == '+' || *p == '-')
    p++;
  guint digits = 0, run = 0;
  gboolean grouped = FALSE;
  for (; g_ascii_isdigit(*p) || *p == ','; p++) {
    if (*p == ',') {
      if (run == 0 || (grouped && run != 3) || (!grouped && run > 3))
        return FALSE;
      grouped = TRUE;
      run = 0;
    } else {
      run++;
      digits++;
    }
  }
  if (grouped && run != 3)
    return FALSE;
  if (*p == '.')
    for (p++; g_ascii_isdigit(*p); p++)
      digits++;
  if (digits == 0)
    return FALSE;
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-')
      p++;
    if (!g_ascii_isdigit(*p))
      return FALSE;
    while (g_ascii_isdigit(*p))
      p++;
  }
  return *p == '\0';
}

gboolean ncu_csv_number(const gchar *s, gdouble *v) {
  g_autofree gchar *t = g_strstrip(g_strdup(s));
  if (*t == '\0' || strcmp(t, "-") == 0 || strcmp(t, "n/a") == 0) {
    *v = NAN;
    return TRUE;
  }
  if (!decimal_text(t))
    return FALSE;
  gchar *w = t; /* the thousands separators out */
  for (const gchar *p = t; *p; p++)
    if (*p != ',')
      *w++ = *p;
  *w = '\0';
  *v = g_ascii_strtod(t, NULL);
  return isfinite(*v);
}
