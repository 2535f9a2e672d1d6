/* report.c - writing result rows. */
#include "report/report.h"

#include "report/json_text.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

typedef enum { COL_STR, COL_UINT, COL_DOUBLE, COL_BOOL } ColType;

typedef struct {
  gchar *name;
  gchar *text; /* formatted value */
  ColType type;
  gdouble number;  /* COL_DOUBLE, COL_BOOL */
  guint64 integer; /* COL_UINT, exact */
} Column;

struct ReportRow {
  GArray *cols; /* Column */
};

static void column_clear(gpointer p) {
  Column *c = p;
  g_free(c->name);
  g_free(c->text);
}

ReportRow *report_row_new(void) {
  ReportRow *row = g_new0(ReportRow, 1);
  row->cols = g_array_new(FALSE, TRUE, sizeof(Column));
  g_array_set_clear_func(row->cols, column_clear);
  return row;
}

void report_row_free(ReportRow *row) {
  if (row == NULL)
    return;
  g_array_free(row->cols, TRUE);
  g_free(row);
}

static void add(ReportRow *row, const gchar *name, gchar *text, ColType type, gdouble number) {
  Column c = {g_strdup(name), text, type, number, 0};
  g_array_append_val(row->cols, c);
}

void report_add_str(ReportRow *row, const gchar *name, const gchar *value) {
  add(row, name, g_strdup(value ? value : ""), COL_STR, 0);
}

void report_add_uint(ReportRow *row, const gchar *name, guint64 value) {
  add(row, name, g_strdup_printf("%" G_GUINT64_FORMAT, value), COL_UINT, (gdouble)value);
  g_array_index(row->cols, Column, row->cols->len - 1).integer = value;
}

gchar *report_format_double(gdouble value, guint decimals) {
  /* %f of the largest double takes 309 digits; decimals beyond 20 add nothing. */
  gchar fmt[16], buf[G_ASCII_DTOSTR_BUF_SIZE + 320];
  g_snprintf(fmt, sizeof fmt, "%%.%uf", MIN(decimals, 20u));
  return g_strdup(g_ascii_formatd(buf, sizeof buf, fmt, value));
}

void report_add_double(ReportRow *row, const gchar *name, gdouble value, guint decimals) {
  add(row, name, report_format_double(value, decimals), COL_DOUBLE, value);
}

void report_add_number(ReportRow *row, const gchar *name, const gchar *text, gdouble value) {
  add(row, name, g_strdup(text), COL_DOUBLE, value);
}

void report_add_bool(ReportRow *row, const gchar *name, gboolean value) {
  add(row, name, g_strdup(value ? "true" : "false"), COL_BOOL, value);
}

static void csv_field(GString *out, const gchar *s) {
  if (strpbrk(s, ",\"\r\n") == NULL) {
    g_string_append(out, s);
    return;
  }
  g_string_append_c(out, '"');
  for (const gchar *p = s; *p; p++) {
    if (*p == '"')
      g_string_append_c(out, '"');
    g_string_append_c(out, *p);
  }
  g_string_append_c(out, '"');
}

void report_csv_header(const ReportRow *row, GString *out) {
  for (guint i = 0; i < row->cols->len; i++) {
    if (i)
      g_string_append_c(out, ',');
    csv_field(out, g_array_index(row->cols, Column, i).name);
  }
  g_string_append_c(out, '\n');
}

void report_csv_values(const ReportRow *row, GString *out) {
  for (guint i = 0; i < row->cols->len; i++) {
    if (i)
      g_string_append_c(out, ',');
    csv_field(out, g_array_index(row->cols, Column, i).text);
  }
  g_string_append_c(out, '\n');
}

void report_json(const ReportRow *row, const gchar *extra_name, gpointer extra, GString *out) {
  g_autoptr(JsonBuilder) b = json_builder_new();
  json_builder_begin_object(b);
  for (guint i = 0; i < row->cols->len; i++) {
    const Column *c = &g_array_index(row->cols, Column, i);
    json_builder_set_member_name(b, c->name);
    switch (c->type) {
    case COL_STR:
      json_builder_add_string_value(b, c->text);
      break;
    case COL_UINT:
      /* json-glib integers are gint64; a larger value keeps its digits as a string. */
      if (c->integer <= (guint64)G_MAXINT64)
        json_builder_add_int_value(b, (gint64)c->integer);
      else
        json_builder_add_string_value(b, c->text);
      break;
    case COL_DOUBLE:
      if (isfinite(c->number)) /* JSON has no NaN or infinity */
        json_builder_add_double_value(b, g_ascii_strtod(c->text, NULL));
      else
        json_builder_add_null_value(b);
      break;
    case COL_BOOL:
      json_builder_add_boolean_value(b, c->number != 0);
      break;
    }
  }
  if (extra_name != NULL && extra != NULL) {
    json_builder_set_member_name(b, extra_name);
    json_builder_add_value(b, (JsonNode *)extra);
  } else if (extra != NULL) {
    json_node_unref((JsonNode *)extra); /* consumed, as documented */
  }
  json_builder_end_object(b);
  g_autoptr(JsonNode) root = json_builder_get_root(b);
  json_text_append(out, root); /* shortest round-trip doubles */
  g_string_append_c(out, '\n');
}

/* ---- tables --------------------------------------------------------------- */

#define TABLE_MAX_COLS 8

struct ReportTable {
  guint n_cols;
  guint left;       /* bit c: column c is left-aligned (bit 0 is always set) */
  GPtrArray *cells; /* gchar *, row-major, the header row first */
};

ReportTable *report_table_new(guint n_cols, const gchar *const *header) {
  g_return_val_if_fail(n_cols >= 1 && n_cols <= TABLE_MAX_COLS, NULL);
  ReportTable *t = g_new0(ReportTable, 1);
  t->n_cols = n_cols;
  t->left = 1;
  t->cells = g_ptr_array_new_with_free_func(g_free);
  for (guint c = 0; c < n_cols; c++)
    report_table_add(t, header[c]);
  return t;
}

void report_table_left(ReportTable *t, guint col) {
  t->left |= 1u << col;
}

void report_table_add(ReportTable *t, const gchar *cell) {
  g_ptr_array_add(t->cells, g_strdup(cell ? cell : ""));
}

void report_table_take(ReportTable *t, gchar *cell) {
  g_ptr_array_add(t->cells, cell ? cell : g_strdup(""));
}

static void table_rule(const guint *width, guint n_cols, GString *out) {
  g_string_append(out, "    ");
  for (guint c = 0; c < n_cols; c++) {
    for (guint i = 0; i < width[c]; i++)
      g_string_append_c(out, '-');
    g_string_append_c(out, c + 1 < n_cols ? ' ' : '\n');
  }
}

void report_table_write(const ReportTable *t, GString *out) {
  guint width[TABLE_MAX_COLS] = {0};
  g_return_if_fail(t->cells->len % t->n_cols == 0);
  for (guint i = 0; i < t->cells->len; i++)
    width[i % t->n_cols] = MAX(width[i % t->n_cols], strlen(g_ptr_array_index(t->cells, i)));
  table_rule(width, t->n_cols, out);
  for (guint i = 0; i < t->cells->len; i++) {
    guint c = i % t->n_cols;
    const gchar *cell = g_ptr_array_index(t->cells, i);
    g_string_append(out, c == 0 ? "    " : " ");
    gboolean last = c + 1 == t->n_cols, left = (t->left >> c) & 1;
    g_string_append_printf(out, left ? "%-*s" : "%*s", left && last ? 0 : (int)width[c], cell);
    if (last)
      g_string_append_c(out, '\n');
    if (i + 1 == t->n_cols)
      table_rule(width, t->n_cols, out);
  }
  table_rule(width, t->n_cols, out);
}

void report_table_free(ReportTable *t) {
  if (t == NULL)
    return;
  g_ptr_array_unref(t->cells);
  g_free(t);
}
