/* check_report.c - tests of sim/report/report.[ch]: one row of string, unsigned,
 * double and bool columns written as CSV (header and values, RFC 4180
 * quoting), as JSON parsed back with json-glib (numbers stay numbers, a
 * uint above G_MAXINT64 keeps its digits as a string, bools stay bools, an
 * extra member) and as aligned text.  Expected output is written out by
 * hand. */
#include "report/report.h"

#include <check.h>
#include <json-glib/json-glib.h>
#include <stdlib.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

/* A row of every column type; "a,b" is a name that needs quoting. */
static ReportRow *sample_row(void) {
  ReportRow *row = report_row_new();
  report_add_str(row, "kernel", "fma, ilp=4");
  report_add_str(row, "note", "say \"hi\"");
  report_add_uint(row, "cycles", 123456);
  report_add_uint(row, "huge", G_MAXUINT64);
  report_add_double(row, "ipc", 3.14159, 2);
  report_add_bool(row, "bank_conflict", TRUE);
  report_add_bool(row, "spill", FALSE);
  report_add_str(row, "a,b", NULL);
  return row;
}

/* The JSON object `row` writes, parsed back (with `extra` under "extra"
 * when given); the test fails unless it parses to an object. */
static JsonNode *json_of(const ReportRow *row, JsonNode *extra) {
  g_autoptr(GString) out = g_string_new(NULL);
  report_json(row, extra ? "extra" : NULL, extra, out);
  ck_assert(g_str_has_suffix(out->str, "}\n"));
  g_autoptr(JsonParser) parser = json_parser_new();
  GError *err = NULL;
  ck_assert_msg(json_parser_load_from_data(parser, out->str, -1, &err), "%s: %s", out->str,
                err ? err->message : "?");
  JsonNode *root = json_parser_steal_root(parser);
  ck_assert_int_eq(json_node_get_node_type(root), JSON_NODE_OBJECT);
  return root;
}

/* The CSV value line of `row`. */
static gchar *csv_of(const ReportRow *row) {
  GString *out = g_string_new(NULL);
  report_csv_values(row, out);
  return g_string_free(out, FALSE);
}

/* ---- CSV --------------------------------------------------------------- */

START_TEST(test_csv_row) {
  g_autoptr(ReportRow) row = sample_row();
  g_autoptr(GString) out = g_string_new(NULL);
  report_csv_header(row, out);
  report_csv_values(row, out);
  ck_assert_str_eq(out->str, "kernel,note,cycles,huge,ipc,bank_conflict,spill,\"a,b\"\n"
                             "\"fma, ilp=4\",\"say \"\"hi\"\"\",123456,18446744073709551615,3.14,"
                             "true,false,\n");
}
END_TEST

/* RFC 4180: a field holding a comma, a quote or a line break is enclosed
 * in quotes and each quote doubled; other fields are written as they are.
 * The same rule holds for names (header) and values. */
static const struct {
  const gchar *text, *field;
} quotes[] = {
    {"h200", "h200"},
    {"", ""},
    {"two words", "two words"},
    {"a,b", "\"a,b\""},
    {",", "\",\""},
    {"say \"hi\"", "\"say \"\"hi\"\"\""},
    {"\"", "\"\"\"\""},
    {"it's", "it's"},
    {"line\nbreak", "\"line\nbreak\""},
    {"x=1,y=\"2\"", "\"x=1,y=\"\"2\"\"\""},
};

START_TEST(test_csv_quoting) {
  g_autoptr(ReportRow) row = report_row_new();
  report_add_str(row, quotes[_i].text, quotes[_i].text);
  g_autofree gchar *want = g_strconcat(quotes[_i].field, "\n", NULL);
  g_autoptr(GString) header = g_string_new(NULL);
  report_csv_header(row, header);
  ck_assert_str_eq(header->str, want);
  g_autofree gchar *values = csv_of(row);
  ck_assert_str_eq(values, want);
}
END_TEST

/* ---- numbers ----------------------------------------------------------- */

/* Of a row holding one column "x": fails unless its CSV value line is
 * `text`; returns the column's JSON node (a copy). */
static JsonNode *single_column(const ReportRow *row, const gchar *text) {
  g_autofree gchar *csv = csv_of(row);
  g_autofree gchar *want = g_strconcat(text, "\n", NULL);
  ck_assert_str_eq(csv, want);
  g_autoptr(JsonNode) root = json_of(row, NULL);
  JsonObject *obj = json_node_get_object(root);
  ck_assert_uint_eq(json_object_get_size(obj), 1);
  ck_assert(json_object_has_member(obj, "x"));
  return json_node_copy(json_object_get_member(obj, "x"));
}

/* A double column: exactly `decimals` digits after the point, rounded to
 * nearest; JSON holds the rounded value as a number. */
static const struct {
  gdouble value;
  guint decimals;
  const gchar *text;
} doubles[] = {
    {3.14159, 2, "3.14"},       {3.14159, 4, "3.1416"},  {1234.5678, 1, "1234.6"},
    {0.0001, 3, "0.000"},       {-1.25, 3, "-1.250"},    {1e6, 0, "1000000"},
    {0.5, 4, "0.5000"},         {2.0 / 3, 5, "0.66667"}, {0, 2, "0.00"},
    {123456.76, 1, "123456.8"},
};

START_TEST(test_double) {
  g_autoptr(ReportRow) row = report_row_new();
  report_add_double(row, "x", doubles[_i].value, doubles[_i].decimals);
  g_autoptr(JsonNode) x = single_column(row, doubles[_i].text);
  ck_assert_int_eq(json_node_get_value_type(x), G_TYPE_DOUBLE);
  ck_assert_double_eq(json_node_get_double(x), g_ascii_strtod(doubles[_i].text, NULL));
}
END_TEST

/* A uint column: decimal digits in CSV; a JSON integer up to G_MAXINT64,
 * above it a string of the same digits (json-glib integers are gint64). */
static const struct {
  guint64 value;
  const gchar *text;
  gboolean as_string;
} uints[] = {
    {0, "0", FALSE},
    {123456, "123456", FALSE},
    {G_MAXUINT32 + G_GUINT64_CONSTANT(1), "4294967296", FALSE},
    {G_MAXINT64, "9223372036854775807", FALSE},
    {(guint64)G_MAXINT64 + 1, "9223372036854775808", TRUE},
    {G_MAXUINT64, "18446744073709551615", TRUE},
};

START_TEST(test_uint) {
  g_autoptr(ReportRow) row = report_row_new();
  report_add_uint(row, "x", uints[_i].value);
  g_autoptr(JsonNode) n = single_column(row, uints[_i].text);
  if (uints[_i].as_string) {
    ck_assert_int_eq(json_node_get_value_type(n), G_TYPE_STRING);
    ck_assert_str_eq(json_node_get_string(n), uints[_i].text);
  } else {
    ck_assert_int_eq(json_node_get_value_type(n), G_TYPE_INT64);
    ck_assert_uint_eq((guint64)json_node_get_int(n), uints[_i].value);
  }
}
END_TEST

/* ---- JSON -------------------------------------------------------------- */

/* The sample row's members in column order: JSON type and value. */
static const struct {
  const gchar *name;
  GType type;
  const gchar *value; /* as text; "true"/"false" for bools */
} members[] = {
    {"kernel", G_TYPE_STRING, "fma, ilp=4"}, {"note", G_TYPE_STRING, "say \"hi\""},
    {"cycles", G_TYPE_INT64, "123456"},      {"huge", G_TYPE_STRING, "18446744073709551615"},
    {"ipc", G_TYPE_DOUBLE, "3.14"},          {"bank_conflict", G_TYPE_BOOLEAN, "true"},
    {"spill", G_TYPE_BOOLEAN, "false"},      {"a,b", G_TYPE_STRING, ""},
};

static void assert_member(JsonObject *obj, guint i) {
  JsonNode *n = json_object_get_member(obj, members[i].name);
  ck_assert_msg(n != NULL, "no member '%s'", members[i].name);
  ck_assert_int_eq(json_node_get_node_type(n), JSON_NODE_VALUE);
  ck_assert_msg(json_node_get_value_type(n) == members[i].type, "'%s' is a %s", members[i].name,
                g_type_name(json_node_get_value_type(n)));
  g_autofree gchar *text = NULL;
  if (members[i].type == G_TYPE_STRING)
    text = g_strdup(json_node_get_string(n));
  else if (members[i].type == G_TYPE_INT64)
    text = g_strdup_printf("%" G_GINT64_FORMAT, json_node_get_int(n));
  else if (members[i].type == G_TYPE_DOUBLE)
    text = g_strdup_printf("%.2f", json_node_get_double(n));
  else
    text = g_strdup(json_node_get_boolean(n) ? "true" : "false");
  ck_assert_str_eq(text, members[i].value);
}

START_TEST(test_json_row) {
  g_autoptr(ReportRow) row = sample_row();
  g_autoptr(JsonNode) root = json_of(row, NULL);
  JsonObject *obj = json_node_get_object(root);
  ck_assert_uint_eq(json_object_get_size(obj), G_N_ELEMENTS(members));
  g_autoptr(GList) names = json_object_get_members(obj);
  GList *l = names;
  for (guint i = 0; i < G_N_ELEMENTS(members); i++, l = l->next) {
    ck_assert_str_eq(l->data, members[i].name);
    assert_member(obj, i);
  }
}
END_TEST

/* The extra member comes last and holds the node given (consumed). */
START_TEST(test_json_extra) {
  g_autoptr(ReportRow) row = sample_row();
  g_autoptr(JsonBuilder) b = json_builder_new();
  json_builder_begin_object(b);
  json_builder_set_member_name(b, "stalls");
  json_builder_add_int_value(b, 7);
  json_builder_end_object(b);
  g_autoptr(JsonNode) root = json_of(row, json_builder_get_root(b));
  JsonObject *obj = json_node_get_object(root);
  ck_assert_uint_eq(json_object_get_size(obj), G_N_ELEMENTS(members) + 1);
  g_autoptr(GList) names = json_object_get_members(obj);
  ck_assert_str_eq(g_list_last(names)->data, "extra");
  JsonObject *extra = json_object_get_object_member(obj, "extra");
  ck_assert_ptr_nonnull(extra);
  ck_assert_int_eq(json_object_get_int_member(extra, "stalls"), 7);
}
END_TEST

/* An empty row: an empty header and value line, "{}" in JSON. */
START_TEST(test_empty_row) {
  g_autoptr(ReportRow) row = report_row_new();
  g_autoptr(GString) out = g_string_new(NULL);
  report_csv_header(row, out);
  report_csv_values(row, out);
  ck_assert_str_eq(out->str, "\n\n");
  g_autoptr(JsonNode) root = json_of(row, NULL);
  ck_assert_uint_eq(json_object_get_size(json_node_get_object(root)), 0);
}
END_TEST

/* ---- text tables ------------------------------------------------------- */

/* Widths are the longest cell per column ("Metric Name" 11, "Unit" 4,
 * "12345.6" 7); column 0 and the left-aligned column 1 pad right, column 2
 * pads left; the last column, when left-aligned, is not padded. */
START_TEST(test_table) {
  static const gchar *const header[] = {"Metric Name", "Unit", "Value"};
  g_autoptr(ReportTable) t = report_table_new(3, header);
  report_table_left(t, 1);
  report_table_add(t, "ipc");
  report_table_add(t, "");
  report_table_take(t, report_format_double(3.14159, 2));
  report_table_add(t, "cycles");
  report_table_add(t, "cyc");
  report_table_take(t, report_format_double(12345.6, 1));
  g_autoptr(GString) out = g_string_new(NULL);
  report_table_write(t, out);
  ck_assert_str_eq(out->str, "    ----------- ---- -------\n"
                             "    Metric Name Unit   Value\n"
                             "    ----------- ---- -------\n"
                             "    ipc                 3.14\n"
                             "    cycles      cyc  12345.6\n"
                             "    ----------- ---- -------\n");
  g_autoptr(ReportTable) one = report_table_new(1, header);
  report_table_left(one, 0);
  report_table_add(one, "x");
  g_string_truncate(out, 0);
  report_table_write(one, out);
  ck_assert_str_eq(out->str, "    -----------\n    Metric Name\n    -----------\n    x\n"
                             "    -----------\n");
}
END_TEST

int main(void) {
  Suite *s = suite_create("report");
  TCase *csv = tcase_create("csv");
  TCase *json = tcase_create("json_text");
  suite_add_tcase(s, csv);
  suite_add_tcase(s, json);
  tcase_add_loop_test(csv, test_csv_quoting, 0, G_N_ELEMENTS(quotes));
  tcase_add_loop_test(csv, test_double, 0, G_N_ELEMENTS(doubles));
  tcase_add_loop_test(csv, test_uint, 0, G_N_ELEMENTS(uints));
  tcase_add_test(csv, test_csv_row);
  tcase_add_test(json, test_json_row);
  tcase_add_test(json, test_json_extra);
  tcase_add_test(json, test_empty_row);
  tcase_add_test(json, test_table);

  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
