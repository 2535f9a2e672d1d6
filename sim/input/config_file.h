/* config_file.h - reading a model or kernel file: a regular text file of
 * bounded size without NUL bytes, repeated groups/keys and localized keys
 * rejected with their line, parsed into a GKeyFile.  Included by config.h. */
#ifndef WARPSIM_CONFIG_FILE_H
#define WARPSIM_CONFIG_FILE_H

#include <glib.h>

/* Largest model or kernel file read, bytes. */
#define CONFIG_MAX_FILE_BYTES (16u << 20)

/* Read the text file at `path` (a regular file of at most `max_bytes` bytes,
 * without NUL bytes).  Returns the contents (g_free) or NULL with
 * CONFIG_ERROR_PARSE ("PATH: reason"); *not_found is set when the file does
 * not exist.  Never blocks on a FIFO.  A lone CR line end becomes LF
 * (GKeyFile knows LF only); CR LF is kept. */
gchar *config_read_text(const gchar *path, gsize max_bytes, gboolean *not_found, GError **error);

/* Read the GKeyFile at `path` (through config_read_text).  Returns it, or NULL with an error "PATH:
 * reason" in the caller's `domain`: `not_found_code` when the file does not
 * exist, `parse_code` when it is unreadable or malformed or `path` is not
 * UTF-8 (results files name the file: JSON must be UTF-8). */
GKeyFile *config_keyfile_load(const gchar *path, GQuark domain, gint not_found_code,
                              gint parse_code, GError **error);

/* The file name of `path` without directory and extension (newly allocated). */
gchar *config_file_stem(const gchar *path);

/* The name among `names` (space-separated) closest to `word` by optimal
 * string alignment distance (insertions, deletions, substitutions and
 * swaps of two neighbours, case ignored), when that distance is at most 1
 * for words of up to 4 characters, else 2: a likely typo's intent ("fam" ->
 * "fma").  Newly allocated, or NULL when none is that close. */
gchar *config_closest_name(const gchar *word, const gchar *names);

#endif
