/* check_error.h - one assertion for the errors users cause: a GError of the
 * expected code whose message holds the expected text on one line (the
 * project's rule for bad input: one line naming the file, line or key). */
#ifndef WARPSIM_TEST_CHECK_ERROR_H
#define WARPSIM_TEST_CHECK_ERROR_H

#include <check.h>
#include <string.h>

/* Assert that `err` (a GError *) is set, has code `code_`, contains `text`
 * and is one line.  A macro so that Check reports the caller's line. */
#define ck_assert_user_error(err, code_, text)                                                     \
  do {                                                                                             \
    ck_assert_msg((err) != NULL, "no error");                                                      \
    ck_assert_int_eq((err)->code, (code_));                                                        \
    ck_assert_msg(strstr((err)->message, (text)) != NULL, "'%s' lacks '%s'", (err)->message,       \
                  (text));                                                                         \
    ck_assert_msg(strchr((err)->message, '\n') == NULL, "not one line: %s", (err)->message);       \
  } while (0)

#endif
