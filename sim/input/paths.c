/* paths.c - finding models/ and traces/ relative to the running binary. */
#include "input/paths.h"

#include <glib/gstdio.h>
#include <string.h>

/* The directory of the running executable (newly allocated), or NULL where
 * /proc/self/exe cannot be read. */
static gchar *exe_dir(void) {
  g_autofree gchar *exe = g_file_read_link("/proc/self/exe", NULL);
  return exe != NULL ? g_path_get_dirname(exe) : NULL;
}

static void add_unique(GPtrArray *dirs, gchar *dir) {
  for (guint i = 0; i < dirs->len; i++)
    if (g_strcmp0(g_ptr_array_index(dirs, i), dir) == 0) {
      g_free(dir);
      return;
    }
  g_ptr_array_add(dirs, dir);
}

gchar **paths_candidates(const gchar *kind) {
  GPtrArray *dirs = g_ptr_array_new();
  g_autofree gchar *var = g_ascii_strup(kind, -1);
  g_autofree gchar *env_name = g_strconcat("WARPSIM_", var, NULL);
  const gchar *env = g_getenv(env_name);
  if (env != NULL && *env != '\0')
    add_unique(dirs, g_strdup(env));
  g_autofree gchar *bin = exe_dir();
  if (bin != NULL) {
    /* Both relative paths come from CMake (sim/CMakeLists.txt). */
    g_autofree gchar *installed = g_build_filename(bin, WARPSIM_DATA_FROM_BIN, kind, NULL);
    g_autofree gchar *source = g_build_filename(bin, WARPSIM_SOURCE_FROM_BIN, kind, NULL);
    add_unique(dirs, g_canonicalize_filename(installed, NULL));
    add_unique(dirs, g_canonicalize_filename(source, NULL));
  }
  g_ptr_array_add(dirs, NULL);
  return (gchar **)g_ptr_array_free(dirs, FALSE);
}

gchar *paths_find(const gchar *kind, const gchar *file) {
  g_auto(GStrv) dirs = paths_candidates(kind);
  for (guint i = 0; dirs[i] != NULL; i++) {
    gchar *path = g_build_filename(dirs[i], file, NULL);
    if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
      return path;
    g_free(path);
  }
  return NULL;
}

gchar *paths_describe(const gchar *kind) {
  g_auto(GStrv) dirs = paths_candidates(kind);
  GString *s = g_string_new(NULL);
  for (guint i = 0; dirs[i] != NULL; i++)
    g_string_append_printf(s, "%s%s%s", i ? ", " : "", dirs[i],
                           g_file_test(dirs[i], G_FILE_TEST_IS_DIR) ? "" : " (missing)");
  if (s->len == 0)
    g_string_append(s, "nowhere: /proc/self/exe is unreadable and $WARPSIM_");
  if (dirs[0] == NULL) {
    g_autofree gchar *var = g_ascii_strup(kind, -1);
    g_string_append_printf(s, "%s is not set", var);
  }
  return g_string_free(s, FALSE);
}

gchar *paths_display(const gchar *path) {
  g_autofree gchar *cwd = g_get_current_dir();
  g_autofree gchar *canon = g_canonicalize_filename(path, cwd);
  GStatBuf a, b;
  if (g_stat(path, &a) != 0 || g_stat(canon, &b) != 0 || a.st_dev != b.st_dev ||
      a.st_ino != b.st_ino)
    return g_strdup(path);
  gsize n = strlen(cwd);
  if (n > 1 && strncmp(canon, cwd, n) == 0 && canon[n] == '/')
    return g_strdup(canon + n + 1);
  return g_steal_pointer(&canon);
}
