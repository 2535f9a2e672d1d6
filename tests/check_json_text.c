/* check_json_text.c - tests of sim/report/json_text.[ch]: doubles in their shortest
 * round-trip form (hand-written expectations, e.g. 33.333 and not
 * 33.332999999999998), ".0" kept on integral doubles, and whole trees written
 * as pretty JSON that json-glib parses back to an equal tree. */
#include "report/json_text.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

static const struct {
  gdouble value;
  const gchar *text;
} shortest[] = {
    {33.333, "33.333"},
    {0.1, "0.1"},
    {5.0, "5.0"},
    {0.0, "0.0"},
    {-2.5, "-2.5"},
    {1e21, "1e+21"},
    {1.0 / 3.0, "0.3333333333333333"},
    {17.2, "17.2"},
    {730.0, "730.0"},
    {1e-7, "1e-07"},
    {123456789.125, "123456789.125"},
    {0.0821, "0.0821"},
    {713.3, "713.3"},
};

START_TEST(test_shortest) {
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
  ck_assert_str_eq(json_text_double(buf, shortest[_i].value), shortest[_i].text);
}
END_TEST

/* Random doubles of every magnitude read back exactly. */
START_TEST(test_round_trip) {
  g_autoptr(GRand) rand = g_rand_new_with_seed(7);
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
  for (guint i = 0; i < 10000; i++) {
    gdouble v = g_rand_double(rand) * pow(10.0, g_rand_int_range(rand, -30, 30));
    ck_assert(g_ascii_strtod(json_text_double(buf, v), NULL) == v);
  }
}
END_TEST

START_TEST(test_tree) {
  const gchar *text = "{\"a\" : 1, \"b\" : [0.5, \"x\\\"y\\n\", true, null, {}], \"c\" : {\"d\" : "
                      "33.333, \"e\" : []}}";
  g_autoptr(JsonParser) p = json_parser_new();
  ck_assert(json_parser_load_from_data(p, text, -1, NULL));
  g_autoptr(GString) out = g_string_new(NULL);
  json_text_append(out, json_parser_get_root(p));
  ck_assert_str_eq(out->str, "{\n"
                             "  \"a\" : 1,\n"
                             "  \"b\" : [\n"
                             "    0.5,\n"
                             "    \"x\\\"y\\n\",\n"
                             "    true,\n"
                             "    null,\n"
                             "    {}\n"
                             "  ],\n"
                             "  \"c\" : {\n"
                             "    \"d\" : 33.333,\n"
                             "    \"e\" : []\n"
                             "  }\n"
                             "}");
  g_autoptr(JsonParser) back = json_parser_new();
  ck_assert(json_parser_load_from_data(back, out->str, -1, NULL));
  ck_assert(json_node_equal(json_parser_get_root(p), json_parser_get_root(back)));
}
END_TEST

int main(void) {
  Suite *s = suite_create("json_text");
  TCase *tc = tcase_create("json_text");
  suite_add_tcase(s, tc);
  tcase_add_loop_test(tc, test_shortest, 0, G_N_ELEMENTS(shortest));
  tcase_add_test(tc, test_round_trip);
  tcase_add_test(tc, test_tree);
  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
