/* check_readfile.c - tests of sim/input/readfile.[ch]: readfile_lines, the
 * line splitter of the SASS listing reader (what g_strsplit at "\n" gives,
 * written out by hand for the edge cases and compared with it on texts of
 * random lines), readfile_lone_cr_to_lf, readfile_sha256 and
 * readfile_problem. */
#define _POSIX_C_SOURCE 200809L /* symlink() */
#include "input/readfile.h"

#include <check.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* readfile_sha256: "abc" is FIPS 180-2's example (its digest written out);
 * a file of two chunks and a bit, and one of exactly the cap, as
 * g_compute_checksum_for_data gives for their bytes held whole; one byte
 * over the cap, a device and a file that claims no size and never ends are
 * refused with readfile_capped's errors, within the cap's bytes. */
static gchar *write_temp(const guint8 *data, gsize len) {
  GError *err = NULL;
  gchar *path = NULL;
  gint fd = g_file_open_tmp("check_readfile_XXXXXX", &path, &err);
  ck_assert_msg(fd >= 0, "%s", err ? err->message : "");
  close(fd);
  ck_assert(g_file_set_contents(path, (const gchar *)data, (gssize)len, NULL));
  return path;
}

START_TEST(test_sha256) {
  GError *err = NULL;
  g_autofree gchar *abc = write_temp((const guint8 *)"abc", 3);
  g_autofree gchar *h = readfile_sha256(abc, 3, &err);
  ck_assert_str_eq(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  gsize n = 2 * 65536 + 7;
  g_autofree guint8 *data = g_malloc(n);
  for (gsize i = 0; i < n; i++)
    data[i] = (guint8)(i * 7 + i / 251);
  g_autofree gchar *big = write_temp(data, n);
  g_autofree gchar *want = g_compute_checksum_for_data(G_CHECKSUM_SHA256, data, n);
  g_autofree gchar *got = readfile_sha256(big, n, &err); /* exactly the cap */
  ck_assert_str_eq(got, want);
  ck_assert_ptr_null(readfile_sha256(big, n - 1, &err));
  ck_assert_int_eq(err->code, G_FILE_ERROR_FAILED);
  g_autofree gchar *over =
      g_strdup_printf("%s: more than %zu bytes (allowed 0..%zu)", big, n - 1, n - 1);
  ck_assert_str_eq(err->message, over);
  g_clear_error(&err);
  ck_assert_ptr_null(readfile_sha256("/dev/zero", 1 << 20, &err));
  ck_assert_str_eq(err->message, "/dev/zero: not a regular file");
  g_clear_error(&err);
  if (g_file_test("/proc/self/pagemap", G_FILE_TEST_IS_REGULAR)) { /* size 0, never ends */
    ck_assert_ptr_null(readfile_sha256("/proc/self/pagemap", 1 << 20, &err));
    ck_assert_int_eq(err->code, G_FILE_ERROR_FAILED);
    g_clear_error(&err);
  }
  g_unlink(abc);
  g_unlink(big);
}
END_TEST

/* Each kind of path readfile_problem tells apart, made in a new directory;
 * readfile_capped gives the same reason, with the errno-like code. */
START_TEST(test_problem) {
  g_autofree gchar *dir = g_dir_make_tmp("check_readfile_XXXXXX", NULL);
  ck_assert_ptr_nonnull(dir);
  g_autofree gchar *file = g_build_filename(dir, "file", NULL);
  g_autofree gchar *loop_a = g_build_filename(dir, "loop_a", NULL);
  g_autofree gchar *loop_b = g_build_filename(dir, "loop_b", NULL);
  g_autofree gchar *dangling = g_build_filename(dir, "dangling", NULL);
  g_autofree gchar *to_file = g_build_filename(dir, "to_file", NULL);
  g_autofree gchar *missing = g_build_filename(dir, "missing", NULL);
  ck_assert(g_file_set_contents(file, "x", 1, NULL));
  ck_assert_int_eq(symlink("loop_b", loop_a), 0);
  ck_assert_int_eq(symlink("loop_a", loop_b), 0);
  ck_assert_int_eq(symlink("missing", dangling), 0);
  ck_assert_int_eq(symlink("file", to_file), 0);
  const gchar *nowhere = "a symbolic link that leads nowhere (dangling, or a loop of links)";
  ck_assert_ptr_null(readfile_problem(file));
  ck_assert_ptr_null(readfile_problem(to_file));
  ck_assert_str_eq(readfile_problem(loop_a), nowhere);
  ck_assert_str_eq(readfile_problem(dangling), nowhere);
  ck_assert_str_eq(readfile_problem(missing), "no such file");
  ck_assert_str_eq(readfile_problem(dir), "not a regular file");
  GError *err = NULL;
  gsize len = 0;
  ck_assert_ptr_null(readfile_capped(loop_a, 16, &len, &err));
  ck_assert_int_eq(err->code, G_FILE_ERROR_INVAL);
  g_autofree gchar *want = g_strdup_printf("%s: %s", loop_a, nowhere);
  ck_assert_str_eq(err->message, want);
  g_clear_error(&err);
  ck_assert_ptr_null(readfile_capped(missing, 16, &len, &err));
  ck_assert_int_eq(err->code, G_FILE_ERROR_NOENT);
  g_clear_error(&err);
  g_autofree gchar *one = readfile_capped(to_file, 16, &len, &err);
  ck_assert_str_eq(one, "x");
  const gchar *made[] = {loop_a, loop_b, dangling, to_file, file};
  for (guint i = 0; i < G_N_ELEMENTS(made); i++)
    g_unlink(made[i]);
  g_rmdir(dir);
}
END_TEST

int main(void) {
  TCase *tc = tcase_create("lines");
  tcase_add_loop_test(tc, test_lines, 0, G_N_ELEMENTS(lines_cases));
  tcase_add_test(tc, test_like_strsplit);
  tcase_add_test(tc, test_lone_cr);
  tcase_add_test(tc, test_sha256);
  tcase_add_test(tc, test_problem);
  tcase_set_timeout(tc, 60); /* seconds: the sanitizer build is 5-10x slower */
  Suite *s = suite_create("readfile");
  suite_add_tcase(s, tc);
  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
