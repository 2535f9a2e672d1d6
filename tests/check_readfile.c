/* check_readfile.c - tests of sim/input/readfile.[ch]: readfile_lines, the
 * line splitter of the SASS listing reader (what g_strsplit at "\n" gives,
 * written out by hand for the edge cases and compared with it on texts of
 * random lines), and readfile_lone_cr_to_lf. */
#include "input/readfile.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

typedef struct {
  const gchar *text;
  const gchar *want[4]; /* NULL-terminated */
} LinesCase;

static const LinesCase lines_cases[] = {
    {"", {NULL}},
    {"a", {"a", NULL}},
    {"a\n", {"a", "", NULL}},
    {"\n", {"", "", NULL}},
    {"a\nbc", {"a", "bc", NULL}},
    {"a\n\nb\n", {"a", "", "b", ""}},
    {"x\r\ny", {"x\r", "y", NULL}}, /* CR LF keeps its CR */
};

START_TEST(test_lines) {
  const LinesCase *c = &lines_cases[_i];
  g_auto(GStrv) got = readfile_lines(c->text, strlen(c->text));
  guint n = 0;
  while (n < G_N_ELEMENTS(c->want) && c->want[n] != NULL)
    n++;
  ck_assert_uint_eq(g_strv_length(got), n);
  for (guint i = 0; i < n; i++)
    ck_assert_str_eq(got[i], c->want[i]);
}
END_TEST

/* The same vector as g_strsplit on 200 texts of random lines (empty ones,
 * runs of LF, a final LF or not), and a text of 200,000 lines. */
START_TEST(test_like_strsplit) {
  GRand *r = g_rand_new_with_seed(42);
  for (guint t = 0; t < 200; t++) {
    g_autoptr(GString) s = g_string_new(NULL);
    guint n = (guint)g_rand_int_range(r, 0, 40);
    for (guint i = 0; i < n; i++)
      g_string_append_c(s, g_rand_int_range(r, 0, 3) == 0 ? '\n' : 'a' + (gchar)(i % 26));
    g_auto(GStrv) want = g_strsplit(s->str, "\n", -1);
    g_auto(GStrv) got = readfile_lines(s->str, s->len);
    ck_assert_msg(g_strv_equal((const gchar *const *)want, (const gchar *const *)got),
                  "text %u differs", t);
  }
  g_rand_free(r);
  g_autoptr(GString) big = g_string_new(NULL);
  for (guint i = 0; i < 200000; i++)
    g_string_append(big, "        /*0000*/ NOP ;\n");
  g_auto(GStrv) lines = readfile_lines(big->str, big->len);
  ck_assert_uint_eq(g_strv_length(lines), 200001);
  ck_assert_str_eq(lines[199999], "        /*0000*/ NOP ;");
  ck_assert_str_eq(lines[200000], "");
}
END_TEST

START_TEST(test_lone_cr) {
  gchar text[] = "a\rb\r\nc\r";
  readfile_lone_cr_to_lf(text, strlen(text));
  ck_assert_str_eq(text, "a\nb\r\nc\n");
}
END_TEST

int main(void) {
  TCase *tc = tcase_create("lines");
  tcase_add_loop_test(tc, test_lines, 0, G_N_ELEMENTS(lines_cases));
  tcase_add_test(tc, test_like_strsplit);
  tcase_add_test(tc, test_lone_cr);
  tcase_set_timeout(tc, 60); /* seconds: the sanitizer build is 5-10x slower */
  Suite *s = suite_create("readfile");
  suite_add_tcase(s, tc);
  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
