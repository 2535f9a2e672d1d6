/* readfile.h - a whole regular file read into memory with a size cap, its
 * lone-CR line ends made LF, and its lines.
 *
 * g_file_get_contents reads until end of file, however far: a file that
 * claims no size and never ends (/proc/self/pagemap) or one of gigabytes
 * would take the process's memory before any check on its size ran.
 */
#ifndef WARPSIM_READFILE_H
#define WARPSIM_READFILE_H

#include <glib.h>

/* Files the SASS listing and Nsight Compute export readers accept: a
 * listing or export of a large kernel is a few tens of MB (the shipped
 * ones are 40-190 KB). */
#define READFILE_MAX_BYTES (256u * 1024 * 1024)

/* Why `path` cannot be read as a regular file, or NULL when it can be
 * opened as one (a static string, not to be freed): "no such file", "a
 * symbolic link that leads nowhere (dangling, or a loop of links)" (lstat
 * finds the link, stat does not), or "not a regular file" (a directory, a
 * FIFO, a device).  Permission problems show only when the file is opened. */
const gchar *readfile_problem(const gchar *path);

/* The contents of the regular file at `path`, NUL-terminated (g_free), its
 * length in *len (without the NUL), read in chunks and never more than
 * `max_bytes` + 1 bytes.  NULL with G_FILE_ERROR and a message naming
 * the file: "PATH: " and readfile_problem's reason (G_FILE_ERROR_NOENT when
 * nothing exists there, G_FILE_ERROR_INVAL otherwise), "PATH: more than N bytes (allowed
 * 0..N)" (G_FILE_ERROR_FAILED), or "PATH: <strerror>" (the open or read
 * failed). */
gchar *readfile_capped(const gchar *path, gsize max_bytes, gsize *len, GError **error);

/* The SHA-256 of the regular file at `path` as 64 lowercase hex digits
 * (g_free), read in chunks (never held whole) and never more than
 * `max_bytes` + 1 bytes of it: a device (/dev/zero) or a file that claims
 * no size and never ends (/proc/self/pagemap) is refused, not read
 * forever.  NULL with readfile_capped's errors. */
gchar *readfile_sha256(const gchar *path, gsize max_bytes, GError **error);

/* Make every lone CR (classic Mac line end) of the `len` bytes at `text` an
 * LF, in place; CR LF stays.  For readers that split lines at LF (GKeyFile,
 * the SASS listing reader). */
void readfile_lone_cr_to_lf(gchar *text, gsize len);

/* The lines of the `len` bytes at `text` (split at LF, the LF left out; no
 * NUL among them): what g_strsplit(text, "\n", -1) returns ("a\nb\n" ->
 * "a", "b", ""; "" -> none), a new NULL-terminated vector (g_strfreev), in
 * time linear in `len`.  g_strsplit searches the rest of the text with
 * strstr once per line, which AddressSanitizer's interceptor measures
 * with strlen each time: quadratic in the listing there (a listing of
 * 20,000 instructions took 53 s to read under ASan). */
gchar **readfile_lines(const gchar *text, gsize len);

#endif
