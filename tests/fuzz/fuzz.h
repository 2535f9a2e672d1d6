/* fuzz.h - helpers the libFuzzer harnesses share: the input as a
 * NUL-terminated string and as a list of lines.  Each harness defines
 * LLVMFuzzerTestOneInput and feeds one parser through its public function. */
#ifndef WARPSIM_FUZZ_H
#define WARPSIM_FUZZ_H

#include <glib.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input up to its first NUL byte (a file with a NUL is refused before
 * any parser sees it), newly allocated. */
static inline gchar *fuzz_text(const uint8_t *data, size_t size) {
  return g_strndup((const gchar *)data, size);
}

/* The rest of `text` after its first line, which is cut off in place (the
 * harness's name key); NULL when there is no newline. */
static inline gchar *fuzz_after_first_line(gchar *text) {
  gchar *nl = strchr(text, '\n');
  if (nl == NULL)
    return NULL;
  *nl = '\0';
  return nl + 1;
}

/* The input's non-empty lines, at most `max` of them (g_strfreev). */
static inline gchar **fuzz_lines(const uint8_t *data, size_t size, guint max) {
  g_autofree gchar *text = fuzz_text(data, size);
  g_auto(GStrv) all = g_strsplit(text, "\n", -1);
  GPtrArray *lines = g_ptr_array_new();
  for (guint i = 0; all[i] != NULL && lines->len < max; i++)
    if (all[i][0] != '\0')
      g_ptr_array_add(lines, g_strdup(all[i]));
  g_ptr_array_add(lines, NULL);
  return (gchar **)g_ptr_array_free(lines, FALSE);
}

/* The shipped file `dir`/`name`, read once (aborts when missing: the harness
 * is built in the source tree). */
static inline gchar *fuzz_shipped(const gchar *dir, const gchar *name) {
  g_autofree gchar *path = g_build_filename(dir, name, NULL);
  gchar *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, NULL))
    g_error("fuzz: cannot read %s", path);
  return text;
}

#endif
