/* paths.h - where warpsim finds its shipped data files: the SM models
 * (models/NAME.ini) and the kernel files (traces/NAME.ini).
 *
 * A kind of data ("models" or "traces") is searched, in order, in
 *   1. $WARPSIM_MODELS or $WARPSIM_TRACES, when set and not empty;
 *   2. BIN/../share/warpsim/KIND, the installed layout (`cmake --install`),
 *      BIN being the directory of the running executable;
 *   3. BIN/REL/KIND, the source tree the binary was built from, REL being the
 *      build directory's path to the source tree (both moved together keep
 *      working).
 * Nothing is compiled in as an absolute path, so a moved tree or installed
 * prefix finds its own files.
 */
#ifndef WARPSIM_PATHS_H
#define WARPSIM_PATHS_H

#include <glib.h>

/* The candidate directories of `kind` ("models" or "traces"), in search
 * order, whether or not they exist: a NULL-terminated array (g_strfreev). */
gchar **paths_candidates(const gchar *kind);

/* The first candidate directory of `kind` holding a regular file `file`
 * (a newly allocated path), or NULL. */
gchar *paths_find(const gchar *kind, const gchar *file);

/* "DIR1, DIR2 (missing), ...": every candidate of `kind` for messages that
 * say where warpsim looked (newly allocated). */
gchar *paths_describe(const gchar *kind);

/* `path` as messages show it (newly allocated): "." and ".." taken out
 * (g_canonicalize_filename, from the working directory), and relative to
 * the working directory when under it ("/repo/traces/../results/x.sass"
 * run from /repo: "results/x.sass"); `path` itself when it names no file or
 * the shorter spelling names another one (a ".." after a symbolic link). */
gchar *paths_display(const gchar *path);

#endif
