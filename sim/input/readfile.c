/* readfile.c - a whole regular file read into memory with a size cap (see
 * readfile.h). */
#include "input/readfile.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

void readfile_lone_cr_to_lf(gchar *text, gsize len) {
  for (gsize i = 0; i < len; i++)
    if (text[i] == '\r' && (i + 1 == len || text[i + 1] != '\n'))
      text[i] = '\n';
}

gchar **readfile_lines(const gchar *text, gsize len) {
  GPtrArray *lines = g_ptr_array_new();
  for (const gchar *p = text, *end = text + len; len > 0;) {
    const gchar *nl = memchr(p, '\n', (gsize)(end - p));
    g_ptr_array_add(lines, g_strndup(p, (gsize)((nl != NULL ? nl : end) - p)));
    if (nl == NULL)
      break;
    p = nl + 1;
  }
  g_ptr_array_add(lines, NULL);
  return (gchar **)g_ptr_array_free(lines, FALSE);
}

const gchar *readfile_problem(const gchar *path) {
  if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
    return NULL;
  if (g_file_test(path, G_FILE_TEST_EXISTS))
    return "not a regular file";
  return g_file_test(path, G_FILE_TEST_IS_SYMLINK)
             ? "a symbolic link that leads nowhere (dangling, or a loop of links)"
             : "no such file";
}

/* Read the regular file at `path` in chunks, each handed to `take`, never
 * more than `max_bytes` + 1 bytes; the errors of readfile_capped. */
static gboolean read_chunks(const gchar *path, gsize max_bytes,
                            void (*take)(gpointer data, const guint8 *chunk, gsize n),
                            gpointer data, GError **error) {
  /* Only regular files: a FIFO would block in open(), a device never end. */
  const gchar *problem = readfile_problem(path);
  if (problem != NULL) {
    gboolean nothing = !g_file_test(path, G_FILE_TEST_EXISTS | G_FILE_TEST_IS_SYMLINK);
    g_set_error(error, G_FILE_ERROR, nothing ? G_FILE_ERROR_NOENT : G_FILE_ERROR_INVAL, "%s: %s",
                path, problem);
    return FALSE;
  }
  FILE *f = g_fopen(path, "rb");
  if (f == NULL) {
    int e = errno;
    g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s", path, g_strerror(e));
    return FALSE;
  }
  guint8 chunk[65536];
  gsize total = 0;
  gboolean ok = TRUE;
  for (;;) {
    size_t n = fread(chunk, 1, sizeof chunk, f);
    total += n;
    if (total > max_bytes) {
      g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                  "%s: more than %" G_GSIZE_FORMAT " bytes (allowed 0..%" G_GSIZE_FORMAT ")", path,
                  max_bytes, max_bytes);
      ok = FALSE;
      break;
    }
    if (n > 0)
      take(data, chunk, n);
    if (n < sizeof chunk) {
      if (ferror(f)) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s", path, g_strerror(e));
        ok = FALSE;
      }
      break;
    }
  }
  fclose(f);
  return ok;
}

static void take_bytes(gpointer data, const guint8 *chunk, gsize n) {
  g_byte_array_append(data, chunk, (guint)n);
}

gchar *readfile_capped(const gchar *path, gsize max_bytes, gsize *len, GError **error) {
  GByteArray *buf = g_byte_array_new();
  if (!read_chunks(path, max_bytes, take_bytes, buf, error)) {
    g_byte_array_free(buf, TRUE);
    return NULL;
  }
  *len = buf->len;
  g_byte_array_append(buf, (const guint8 *)"", 1);
  return (gchar *)g_byte_array_free(buf, FALSE);
}

static void take_checksum(gpointer data, const guint8 *chunk, gsize n) {
  g_checksum_update(data, chunk, (gssize)n);
}

gchar *readfile_sha256(const gchar *path, gsize max_bytes, GError **error) {
  GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
  gchar *hex = read_chunks(path, max_bytes, take_checksum, sum, error)
                   ? g_strdup(g_checksum_get_string(sum))
                   : NULL;
  g_checksum_free(sum);
  return hex;
}
