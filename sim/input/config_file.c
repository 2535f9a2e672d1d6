/* config_file.c - reading model and kernel files: a bounded regular text
 * file, checked for repeated groups and keys, into a GKeyFile (see
 * config_file.h). */
#include "input/config.h"
#include "input/readfile.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

gchar *config_read_text(const gchar *path, gsize max_bytes, gboolean *not_found, GError **error) {
  *not_found = FALSE;
  /* A regular file that says it is too large is refused unread, with its
   * size; readfile_capped refuses the rest (no such file, not a regular
   * file: a FIFO would block in open(), a device never end). */
  GStatBuf st;
  if (g_stat(path, &st) == 0 && S_ISREG(st.st_mode) && (guint64)st.st_size > max_bytes) {
    g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_PARSE,
                "%s: %" G_GUINT64_FORMAT " bytes is too large (allowed 0..%" G_GSIZE_FORMAT
                " bytes)",
                path, (guint64)st.st_size, max_bytes);
    return NULL;
  }
  gsize len = 0;
  GError *err = NULL;
  /* (st_size is 0 for /proc files, which may never end: read with the cap) */
  gchar *text = readfile_capped(path, max_bytes, &len, &err);
  if (text == NULL) {
    *not_found = g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_NOENT);
    g_set_error_literal(error, CONFIG_ERROR, CONFIG_ERROR_PARSE, err->message);
    g_error_free(err);
    return NULL;
  }
  const gchar *nul = memchr(text, '\0', len);
  if (nul != NULL) {
    g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_PARSE,
                "%s: a NUL byte at offset %" G_GSIZE_FORMAT " (a text file is expected)", path,
                (gsize)(nul - text));
    g_free(text);
    return NULL;
  }
  readfile_lone_cr_to_lf(text, len); /* GKeyFile knows only LF */
  return text;
}

/* GKeyFile quietly merges a repeated group and keeps the last of a repeated
 * key, and reads "key[locale]" as a translation: in a model or kernel file
 * each is a mistake, reported here with its line. */
static gboolean check_duplicates(const gchar *text, GError **error) {
  g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  g_autofree gchar *group = g_strdup("");
  for (guint i = 0; lines[i] != NULL; i++) {
    gchar *line = g_strstrip(lines[i]);
    if (*line == '\0' || *line == '#')
      continue;
    if (*line == '[') {
      g_free(group);
      group = g_strdup(line);
      if (!g_hash_table_add(seen, g_strdup(line))) {
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_PARSE, "line %u: group %s appears twice",
                    i + 1, line);
        return FALSE;
      }
      continue;
    }
    gchar *eq = strchr(line, '=');
    if (eq == NULL)
      continue; /* GKeyFile reports the malformed line */
    g_autofree gchar *key = g_strstrip(g_strndup(line, eq - line));
    if (strchr(key, '[') != NULL) {
      g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_PARSE,
                  "line %u: %s %s: localized keys are not supported", i + 1, group, key);
      return FALSE;
    }
    if (!g_hash_table_add(seen, g_strconcat(group, "\n", key, NULL))) {
      g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_PARSE, "line %u: %s %s: key set twice", i + 1,
                  group, key);
      return FALSE;
    }
  }
  return TRUE;
}

GKeyFile *config_keyfile_load(const gchar *path, GQuark domain, gint not_found_code,
                              gint parse_code, GError **error) {
  if (!g_utf8_validate(path, -1, NULL)) { /* JSON results carry the name and the path */
    g_autofree gchar *shown = g_utf8_make_valid(path, -1);
    g_set_error(error, domain, parse_code,
                "%s: the file's path is not UTF-8 (the results carry it): rename the file", shown);
    return NULL;
  }
  gboolean not_found = FALSE;
  GError *err = NULL;
  g_autofree gchar *text = config_read_text(path, CONFIG_MAX_FILE_BYTES, &not_found, &err);
  g_autoptr(GKeyFile) kf = g_key_file_new();
  if (text == NULL || !check_duplicates(text, &err) ||
      !g_key_file_load_from_data(kf, text, (gsize)-1, G_KEY_FILE_NONE, &err)) {
    g_set_error(error, domain, not_found ? not_found_code : parse_code, "%s%s%s", text ? path : "",
                text ? ": " : "", err->message);
    g_error_free(err);
    return NULL;
  }
  return g_steal_pointer(&kf);
}

gchar *config_file_stem(const gchar *path) {
  gchar *base = g_path_get_basename(path);
  gchar *dot = strrchr(base, '.');
  if (dot != NULL && dot != base)
    *dot = '\0';
  return base;
}

/* Optimal string alignment distance of a and b (lower case). */
static guint osa_distance(const gchar *a, const gchar *b) {
  gsize n = strlen(a), m = strlen(b);
  g_autofree guint *d = g_new0(guint, (n + 1) * (m + 1));
#define D(i, j) d[(i) * (m + 1) + (j)]
  for (gsize i = 0; i <= n; i++)
    D(i, 0) = (guint)i;
  for (gsize j = 0; j <= m; j++)
    D(0, j) = (guint)j;
  for (gsize i = 1; i <= n; i++) {
    for (gsize j = 1; j <= m; j++) {
      guint cost = a[i - 1] == b[j - 1] ? 0 : 1;
      guint v = MIN(MIN(D(i - 1, j) + 1, D(i, j - 1) + 1), D(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        v = MIN(v, D(i - 2, j - 2) + 1);
      D(i, j) = v;
    }
  }
  guint result = D(n, m);
#undef D
  return result;
}

gchar *config_closest_name(const gchar *word, const gchar *names) {
  g_autofree gchar *w = g_ascii_strdown(word, -1);
  g_auto(GStrv) list = g_strsplit(names, " ", -1);
  guint limit = strlen(w) <= 4 ? 1 : 2, best = limit + 1;
  const gchar *found = NULL;
  for (guint i = 0; list[i] != NULL; i++) {
    g_autofree gchar *name = g_ascii_strdown(list[i], -1);
    guint dist = *name ? osa_distance(w, name) : best;
    if (dist < best) {
      best = dist;
      found = list[i];
    }
  }
  return found != NULL ? g_strdup(found) : NULL;
}
