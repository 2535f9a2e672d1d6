/* sass_texts.h - a SassFunction decoded from a list of instruction texts,
 * for the tests of the listing's reader and of what reads the decoded
 * instructions (check_sass.c, check_sassspan.c).
 *
 * Each text becomes one instruction of function _Z4testv of an sm_90
 * cuobjdump listing, at offsets 0x00, 0x10, ... (so a branch target is 16 x
 * the index of the instruction it names), with a control word that carries
 * no dependency; the instruction word is left as a placeholder the reader
 * does not decode. */
#ifndef WARPSIM_TEST_SASS_TEXTS_H
#define WARPSIM_TEST_SASS_TEXTS_H

#include "sass/sass.h"

#include <check.h>
#include <string.h>

/* The listing of the NULL-terminated `texts`, decoded (sass_load_data);
 * owned by the caller.  A listing the reader refuses fails the test with its
 * message. */
static SassFunction *sass_texts_decode(const gchar *const *texts) {
  GString *s = g_string_new("\n\tcode for sm_90\n\t\tFunction : _Z4testv\n");
  for (guint i = 0; texts[i]; i++)
    g_string_append_printf(s,
                           "        /*%04x*/ %s ; /* 0x0000000000007b82 */\n"
                           "                  /* 0x000fe20000000800 */\n",
                           i * 16, texts[i]);
  g_autofree gchar *text = g_string_free(s, FALSE);
  GError *err = NULL;
  SassFunction *f = sass_load_data(text, strlen(text), "t.sass", "_Z4testv", &err);
  ck_assert_msg(f != NULL, "%s", err ? err->message : "?");
  return f;
}

#endif
