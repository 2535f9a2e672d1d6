/* model_find.c - finding a shipped SM model by name, file name, compute
 * capability or nvcc architecture (see model_find.h). */
#include "input/model_find.h"

#include "input/config.h"
#include "input/paths.h"

#include <stdlib.h>
#include <string.h>

/* "MAJOR.MINOR", each 1-2 decimal digits. */
gboolean model_find_parse_cc(const gchar *cc, guint *major, guint *minor) {
  const gchar *dot = strchr(cc, '.');
  if (dot == NULL || dot == cc || dot - cc > 2 || dot[1] == '\0' || strlen(dot + 1) > 2)
    return FALSE;
  for (const gchar *p = cc; *p; p++)
    if (p != dot && !g_ascii_isdigit(*p))
      return FALSE;
  *major = (guint)atoi(cc);
  *minor = (guint)atoi(dot + 1);
  return TRUE;
}

/* Read only [sm] cc of a model file; NULL when unreadable. */
static gchar *peek_cc(const gchar *path) {
  g_autoptr(GKeyFile) kf =
      config_keyfile_load(path, MODEL_ERROR, MODEL_ERROR_NOT_FOUND, MODEL_ERROR_PARSE, NULL);
  if (kf == NULL)
    return NULL;
  gchar *cc = g_key_file_get_value(kf, "sm", "cc", NULL);
  return cc ? g_strstrip(cc) : NULL;
}

/* The shipped model whose [sm] cc equals `cc`; h200 wins ties for 9.0 as the
 * default model, otherwise the first name in sorted order. */
static gchar *find_by_cc(const gchar *cc) {
  g_auto(GStrv) paths = model_list();
  gchar *found = NULL;
  for (guint i = 0; paths[i] != NULL && found == NULL; i++) {
    g_autofree gchar *c = peek_cc(paths[i]);
    g_autofree gchar *stem = config_file_stem(paths[i]);
    if (c != NULL && g_strcmp0(c, cc) == 0 && g_strcmp0(stem, "h200") == 0)
      found = g_strdup(paths[i]);
  }
  for (guint i = 0; paths[i] != NULL && found == NULL; i++) {
    g_autofree gchar *c = peek_cc(paths[i]);
    if (c != NULL && g_strcmp0(c, cc) == 0)
      found = g_strdup(paths[i]);
  }
  return found;
}

static gboolean looks_like_cc(const gchar *spec) {
  guint a, b;
  return model_find_parse_cc(spec, &a, &b);
}

/* "sm_90", "sm_90a", "compute_90", "SM90" -> "9.0"; "sm_100" -> "10.0"
 * (nvcc's spelling of a compute capability); NULL for anything else. */
static gchar *cc_of_arch(const gchar *spec) {
  g_autofree gchar *low = g_ascii_strdown(spec, -1);
  const gchar *p = low;
  if (g_str_has_prefix(p, "sm_") || g_str_has_prefix(p, "compute_"))
    p = strchr(p, '_') + 1;
  else if (g_str_has_prefix(p, "sm"))
    p += 2;
  else
    return NULL;
  gsize n = strspn(p, "0123456789");
  if (n < 2 || n > 3 || (p[n] != '\0' && g_strcmp0(p + n, "a") != 0 && g_strcmp0(p + n, "f") != 0))
    return NULL;
  return g_strdup_printf("%.*s.%c", (int)(n - 1), p, p[n - 1]);
}

/* The shipped model names, space-separated (newly allocated). */
static gchar *model_names(void) {
  g_auto(GStrv) paths = model_list();
  GString *s = g_string_new(NULL);
  for (guint i = 0; paths[i] != NULL; i++) {
    g_autofree gchar *stem = config_file_stem(paths[i]);
    g_string_append_printf(s, "%s%s", i ? " " : "", stem);
  }
  return g_string_free(s, FALSE);
}

/* Shipped models that were renamed: {old, new}. */
static const gchar *const renamed[][2] = {
    {"seed000", "textbook100k"}, /* the textbook SMs of tests/data/occupancy.tsv */
    {"seed001", "textbook64k"},
};

const gchar *model_find_renamed(const gchar *spec) {
  g_autofree gchar *low = g_ascii_strdown(spec, -1);
  if (g_str_has_suffix(low, ".ini"))
    low[strlen(low) - 4] = '\0';
  for (guint i = 0; i < G_N_ELEMENTS(renamed); i++)
    if (strcmp(low, renamed[i][0]) == 0)
      return renamed[i][1];
  return NULL;
}

/* The path of the shipped model `spec` names: its name in any case ("H100"),
 * its file name ("h100.ini"), a compute capability ("9.0") or an nvcc
 * architecture ("sm_90").  NULL with MODEL_ERROR_NOT_FOUND naming the
 * directories searched and the names known. */
gchar *model_find_path(const gchar *spec, GError **error) {
  if (model_find_renamed(spec) != NULL)
    spec = model_find_renamed(spec);
  g_autofree gchar *low = g_ascii_strdown(spec, -1);
  g_autofree gchar *cc = looks_like_cc(spec) ? g_strdup(spec) : cc_of_arch(spec);
  gchar *path = NULL;
  if (cc != NULL) {
    path = find_by_cc(cc);
  } else {
    g_autofree gchar *file =
        g_str_has_suffix(low, ".ini") ? g_strdup(low) : g_strconcat(low, ".ini", NULL);
    path = paths_find("models", file);
  }
  if (path != NULL)
    return path;
  g_autofree gchar *where = paths_describe("models");
  g_autofree gchar *names = model_names();
  if (*names == '\0')
    g_set_error(error, MODEL_ERROR, MODEL_ERROR_NOT_FOUND,
                "--model %s: no models found (looked in %s; set WARPSIM_MODELS to the models "
                "directory)",
                spec, where);
  else if (cc != NULL)
    g_set_error(error, MODEL_ERROR, MODEL_ERROR_NOT_FOUND,
                "--model %s: no shipped model has compute capability %s (models: %s; looked in "
                "%s)",
                spec, cc, names, where);
  else {
    g_autofree gchar *stem = config_file_stem(spec);
    g_autofree gchar *near = config_closest_name(stem, names);
    g_autofree gchar *hint = near ? g_strdup_printf(": did you mean --model %s?", near) : NULL;
    g_set_error(error, MODEL_ERROR, MODEL_ERROR_NOT_FOUND,
                "--model %s: no such model%s (models: %s, a compute capability such as 9.0 or "
                "sm_90, or a path; looked in %s)",
                spec, hint ? hint : "", names, where);
  }
  return NULL;
}

static gint compare_basenames(gconstpointer a, gconstpointer b) {
  g_autofree gchar *x = g_path_get_basename(*(const gchar *const *)a);
  g_autofree gchar *y = g_path_get_basename(*(const gchar *const *)b);
  return g_strcmp0(x, y);
}

gchar **model_list(void) {
  GPtrArray *paths = g_ptr_array_new();
  g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) dirs = paths_candidates("models");
  for (guint d = 0; dirs[d] != NULL; d++) {
    g_autoptr(GDir) dir = g_dir_open(dirs[d], 0, NULL);
    const gchar *name;
    while (dir != NULL && (name = g_dir_read_name(dir)) != NULL) {
      gchar *path = g_build_filename(dirs[d], name, NULL);
      if (g_str_has_suffix(name, ".ini") && g_file_test(path, G_FILE_TEST_IS_REGULAR) &&
          g_hash_table_add(seen, g_strdup(name)))
        g_ptr_array_add(paths, path); /* the first directory holding a name wins */
      else
        g_free(path);
    }
  }
  g_ptr_array_sort(paths, compare_basenames);
  g_ptr_array_add(paths, NULL);
  return (gchar **)g_ptr_array_free(paths, FALSE);
}
