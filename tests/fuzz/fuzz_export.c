/* fuzz_export.c - libFuzzer: a SASS listing and its two Nsight Compute
 * exports, mutated together, through the whole `warpsim run` (kernel file,
 * listing, source page checked against the listing, details page, program,
 * simulation, report).  The input is
 *
 *   FUNCTION\n LISTING \n#@source\n SOURCE-CSV \n#@details\n DETAILS-CSV
 *
 * (a part the mutation lost is empty: no such export).  Each part is written
 * to a file of one temporary folder and a kernel file names them, with a
 * fixed small launch (one wave of 132 CTAs of 128 threads).  Bounded per
 * input: --max-cycles 200000 and --timeout 2 (what-ifs skipped), so a
 * mutated loop count cannot hang it; an input it refuses exits 2, one over a
 * bound 3, never anything else.  Both exports also go straight through
 * ncu_source_load_data and ncu_details_load_data with the function's name
 * key, so seeds whose listing is refused (make_export_corpus.sh cuts large
 * kernels short) still reach them.  The seeds (corpus/export) are every real
 * export in results/reference, trimmed by make_export_corpus.sh. */
#include "cli/cli_run.h"
#include "fuzz.h"
#include "sass/ncu.h"

#include <glib/gstdio.h>
#include <stdio.h>

/* The temporary folder, made once per process. */
static const gchar *fuzz_dir(void) {
  static gchar *dir = NULL;
  if (dir == NULL) {
    dir = g_dir_make_tmp("fuzz_export.XXXXXX", NULL);
    if (dir == NULL)
      g_error("fuzz_export: cannot make a temporary folder");
  }
  return dir;
}

/* `text` cut at the first `mark` line: the part before stays in `text`, the
 * return value is what follows (NULL: no such mark). */
static gchar *cut_at(gchar *text, const gchar *mark) {
  gchar *m = strstr(text, mark);
  if (m == NULL)
    return NULL;
  *m = '\0';
  return m + strlen(mark);
}

/* Write `text` (may be NULL: "") to `name` in the folder; its path. */
static gchar *put(const gchar *name, const gchar *text) {
  gchar *path = g_build_filename(fuzz_dir(), name, NULL);
  if (!g_file_set_contents(path, text ? text : "", -1, NULL))
    g_error("fuzz_export: cannot write %s", path);
  return path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  g_autofree gchar *text = fuzz_text(data, size);
  gchar *listing = fuzz_after_first_line(text);
  if (listing == NULL)
    return 0;
  gchar *source = cut_at(listing, "\n#@source\n");
  gchar *details = source ? cut_at(source, "\n#@details\n") : NULL;
  g_autofree gchar *key = sass_name_key(text);
  GError *err = NULL;
  NcuSource *s = source ? ncu_source_load_data(source, strlen(source), "s.csv", key, &err) : NULL;
  g_assert(source == NULL || (s == NULL) == (err != NULL));
  ncu_source_free(s);
  g_clear_error(&err);
  NcuDetails *d =
      details ? ncu_details_load_data(details, strlen(details), "d.csv", key, &err) : NULL;
  g_assert(details == NULL || (d == NULL) == (err != NULL));
  ncu_details_free(d);
  g_clear_error(&err);
  g_autofree gchar *lpath = put("l.sass", listing);
  g_autofree gchar *spath = put("s.csv", source);
  g_autofree gchar *dpath = put("d.csv", details);
  /* the function name goes into a GKeyFile value: one line, no escapes */
  g_autofree gchar *fn = g_strescape(text, NULL);
  g_autofree gchar *ini =
      g_strdup_printf("[sass]\nfile=%s\nfunction=%s\nsource_csv=%s\ndetails_csv=%s\n[launch]\n"
                      "threads_per_block=128\nblocks=132\n",
                      lpath, fn, source ? spath : "", details ? dpath : "");
  g_autofree gchar *kpath = put("k.ini", ini);
  char model[] = WARPSIM_FUZZ_SOURCE "/models/h200.ini";
  char *argv[] = {"run",         "--kernel",     kpath,    "--model",   model, "--format", "json",
                  "--no-whatif", "--max-cycles", "200000", "--timeout", "2",   NULL};
  int rc = cli_run_main((int)G_N_ELEMENTS(argv) - 1, argv);
  if (rc != 0 && rc != 2 && rc != 3)
    g_error("fuzz_export: exit %d", rc);
  fflush(stdout);
  return 0;
}
