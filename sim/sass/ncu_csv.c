/* ncu_csv.c - rows and numbers of an Nsight Compute CSV export, read with
 * libcsv (see ncu_csv.h). */
#include "sass/ncu_csv.h"

#include "input/readfile.h"
#include "sass/ncu.h"
#include "sass/sass.h"

#include <csv.h>
#include <math.h>
#include <string.h>

G_DEFINE_QUARK(warpsim_ncu_error, ncu_error)

/* ---- rows ------------------------------------------------------------------ */

static gboolean comma_decimal_file(const NcuTable *t);

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

/* `text` as UTF-8 in *out (g_free; NULL when it is already: *text, *len
 * unchanged but a UTF-8 byte-order mark skipped).  UTF-16 with a
 * byte-order mark (what a Windows shell redirect writes), or without one
 * when the first two bytes are one ASCII character and a NUL, is converted
 * with g_convert.  FALSE with NCU_ERROR_PARSE when the conversion fails. */
static gboolean to_utf8(const gchar **text, gsize *len, gchar **out, const gchar *origin,
                        GError **error) {
  const guchar *u = (const guchar *)*text;
  gsize n = *len;
  *out = NULL;
  if (n >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf) {
    *text += 3;
    *len -= 3;
    return TRUE;
  }
  const gchar *from = NULL;
  gsize skip = 0;
  if (n >= 2 && u[0] == 0xff && u[1] == 0xfe)
    from = "UTF-16LE", skip = 2;
  else if (n >= 2 && u[0] == 0xfe && u[1] == 0xff)
    from = "UTF-16BE", skip = 2;
  else if (n >= 2 && u[0] != 0 && u[0] < 0x80 && u[1] == 0)
    from = "UTF-16LE";
  else if (n >= 2 && u[0] == 0 && u[1] != 0 && u[1] < 0x80)
    from = "UTF-16BE";
  if (from == NULL)
    return TRUE;
  GError *err = NULL;
  gsize written = 0;
  *out = g_convert(*text + skip, (gssize)((n - skip) & ~(gsize)1), "UTF-8", from, NULL, &written,
                   &err);
  if (*out == NULL) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE, "%s:1: %s text that does not convert (%s)",
                origin, from, err->message);
    g_error_free(err);
    return FALSE;
  }
  *text = *out;
  *len = written;
  return TRUE;
}

/* End of the physical line at `pos`: past its LF, CR LF or lone CR. */
static const gchar *line_end(const gchar *pos, const gchar *end) {
  const gchar *e = pos;
  while (e < end && *e != '\n' && *e != '\r')
    e++;
  if (e < end)
    e += (*e == '\r' && e + 1 < end && e[1] == '\n') ? 2 : 1;
  return e;
}

/* Whether the line at `pos` starts with the field `header`, quoted or not. */
static gboolean starts_header(const gchar *pos, const gchar *end, const gchar *header) {
  gsize n = strlen(header), left = (gsize)(end - pos);
  if (left > n + 2 && pos[0] == '"' && strncmp(pos + 1, header, n) == 0 && pos[n + 1] == '"')
    return pos[n + 2] == ',';
  return left > n && strncmp(pos, header, n) == 0 && pos[n] == ',';
}

/* Where the CSV starts: the first line that begins with the field `header`
 * (lines ahead of it are ==PROF== messages and the program's output, which
 * ncu prints to the same stream), else `text`.  *line: its line number. */
static const gchar *skip_preamble(const gchar *text, const gchar *end, const gchar *header,
                                  guint *line) {
  *line = 1;
  if (header == NULL)
    return text;
  guint n = 1;
  for (const gchar *pos = text; pos < end; pos = line_end(pos, end), n++)
    if (starts_header(pos, end, header)) {
      *line = n;
      return pos;
    }
  return text;
}

/* libcsv's space test: nothing is a space, so a field keeps its blanks. */
static int no_space(unsigned char c) {
  (void)c;
  return 0;
}

static NcuTable *read_table(const gchar *text, gsize len, const gchar *origin, const gchar *header,
                            gboolean trim, GError **error);

NcuTable *ncu_csv_read(const gchar *text, gsize len, const gchar *origin, GError **error) {
  return read_table(text, len, origin, NULL, TRUE, error);
}

NcuTable *ncu_csv_read_untrimmed(const gchar *text, gsize len, const gchar *origin,
                                 GError **error) {
  return read_table(text, len, origin, NULL, FALSE, error);
}

NcuTable *ncu_csv_read_from(const gchar *text, gsize len, const gchar *origin, const gchar *header,
                            GError **error) {
  return read_table(text, len, origin, header, TRUE, error);
}

static NcuTable *read_table(const gchar *text, gsize len, const gchar *origin, const gchar *header,
                            gboolean trim, GError **error) {
  g_autofree gchar *converted = NULL;
  if (!to_utf8(&text, &len, &converted, origin, error))
    return NULL;
  if (memchr(text, '\0', len) != NULL) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE, "%s:1: not a CSV file (binary data)", origin);
    return NULL;
  }
  struct csv_parser p;
  csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL);
  if (!trim)
    csv_set_space_func(&p, no_space);
  NcuTable *t = g_new0(NcuTable, 1);
  t->rows = g_array_new(FALSE, FALSE, sizeof(NcuRow));
  t->strings = g_string_chunk_new(MAX(len, 64));
  Reader r = {.t = t, .fields = g_ptr_array_new()};
  const gchar *end = text + len;
  const gchar *pos = skip_preamble(text, end, header, &r.line);
  gboolean ok = TRUE;
  while (pos < end && ok) {
    /* One physical line at a time, for the line numbers of errors: it ends
     * at LF, CR LF or a lone CR (classic Mac text). */
    gsize n = (gsize)(line_end(pos, end) - pos);
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
  if (t != NULL)
    t->comma_decimal = comma_decimal_file(t);
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

/* Whether `t` is a decimal number in the C locale's form: an optional
 * sign, digits with an optional fraction, an optional exponent; group
 * separators (',' or '_', see plain_number) only between groups of three
 * digits (a digit before, exactly three after, none in the fraction).  No
 * hex, other inner characters or comma decimals ("3,2"). */
static gboolean decimal_text(const gchar *t) {
  const gchar *p = t;
  if (*p == '+' || *p == '-')
    p++;
  guint digits = 0, run = 0;
  gboolean grouped = FALSE;
  for (; g_ascii_isdigit(*p) || *p == ',' || *p == '_'; p++) {
    if (*p == ',' || *p == '_') {
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

/* `s` stripped, with the group separators of other locales as '_' (a
 * space, no-break space U+00A0, narrow no-break space U+202F, thin space
 * U+2009, apostrophe ' or U+2019), and with ',' and '.' swapped when
 * `comma` (a comma-decimal export: "1.234,5").  NULL for an absent value
 * ("", "-", "n/a"). */
static gchar *plain_number(const gchar *s, gboolean comma) {
  static const gchar *const seps[] = {
      "\xc2\xa0", "\xe2\x80\xaf", "\xe2\x80\x89", "\xe2\x80\x99", " ", "'"};
  gchar *t = g_strstrip(g_strdup(s));
  if (*t == '\0' || strcmp(t, "-") == 0 || strcmp(t, "n/a") == 0) {
    g_free(t);
    return NULL;
  }
  GString *o = g_string_sized_new(strlen(t));
  for (const gchar *p = t; *p;) {
    gsize k = 0;
    for (guint i = 0; i < G_N_ELEMENTS(seps) && k == 0; i++)
      if (g_str_has_prefix(p, seps[i]))
        k = strlen(seps[i]);
    if (k > 0) {
      g_string_append_c(o, '_');
      p += k;
      continue;
    }
    g_string_append_c(o, comma && *p == ',' ? '.' : comma && *p == '.' ? ',' : *p);
    p++;
  }
  g_free(t);
  return g_string_free(o, FALSE);
}

gboolean ncu_csv_number_style(const gchar *s, gboolean comma, gdouble *v) {
  g_autofree gchar *t = plain_number(s, comma);
  if (t == NULL) {
    *v = NAN;
    return TRUE;
  }
  if (!decimal_text(t))
    return FALSE;
  gchar *w = t; /* the group separators out */
  for (const gchar *p = t; *p; p++)
    if (*p != ',' && *p != '_')
      *w++ = *p;
  *w = '\0';
  *v = g_ascii_strtod(t, NULL);
  return isfinite(*v);
}

gboolean ncu_csv_number(const gchar *s, gdouble *v) {
  return ncu_csv_number_style(s, FALSE, v);
}

gboolean ncu_csv_value(const NcuTable *t, const gchar *s, gdouble *v) {
  return ncu_csv_number_style(s, t->comma_decimal, v);
}

/* Whether the table's numbers use a decimal comma: some field is a number
 * only so ("28,16", "1.234,5"; "1,234" reads either way and decides
 * nothing). */
static gboolean comma_decimal_file(const NcuTable *t) {
  for (guint i = 0; i < t->rows->len; i++) {
    const NcuRow *r = &g_array_index(t->rows, NcuRow, i);
    for (guint f = 0; f < r->n_fields; f++) {
      gdouble v;
      const gchar *x = r->fields[f];
      if (strchr(x, ',') && g_ascii_isdigit(x[strlen(x) ? strlen(x) - 1 : 0]) &&
          !ncu_csv_number_style(x, FALSE, &v) && ncu_csv_number_style(x, TRUE, &v))
        return TRUE;
    }
  }
  return FALSE;
}

NcuNameMatch ncu_csv_name_match(const gchar *kernel_name, const gchar *name) {
  g_autofree gchar *a = sass_name_key(kernel_name);
  g_autofree gchar *b = sass_name_key(name);
  if (strcmp(a, b) != 0)
    return NCU_NAME_OTHER;
  return sass_name_same_params(kernel_name, name) ? NCU_NAME_SAME : NCU_NAME_OVERLOAD;
}

void ncu_csv_overload_error(GError **error, const gchar *origin, guint line,
                            const gchar *kernel_name, const gchar *name) {
  g_set_error(error, NCU_ERROR, NCU_ERROR_KERNEL,
              "%s:%u: a profile of '%s', another overload of the listing's '%s' (the same name, "
              "other parameters: a profile of another kernel; allowed: an export of the "
              "listing's function)",
              origin, line, kernel_name, name);
}
