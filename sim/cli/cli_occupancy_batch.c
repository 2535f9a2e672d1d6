/* cli_occupancy_batch.c - `warpsim occupancy --batch FILE`: one result row
 * per input row, written as it goes.  The file is read twice, line by line: the first
 * pass checks every row (so a bad row leaves no output at all), the second
 * computes and writes; memory does not grow with the number of rows. */
#include "cli/cli_occupancy_priv.h"

#include "input/config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

/* A regular text file of at most 256 MiB (about 10 million rows). */
#define BATCH_MAX_BYTES (256u << 20)
/* Longest line, bytes (a row of five numbers needs fewer than 60). */
#define BATCH_MAX_LINE 4096

static const gchar *const field_names[] = {"threads", "regs", "smem_static", "smem_dynamic",
                                           "optin"};

typedef struct {
  const gchar *file;
  FILE *f;
  guint64 lineno;
  guint n_fields; /* 4 or 5 once the header is read */
  gchar line[BATCH_MAX_LINE + 2];
} Reader;

static gboolean batch_error(const Reader *rd, GError **error, const gchar *what) {
  g_set_error(error, CLI_OCCUPANCY_ERROR, CLI_OCCUPANCY_ERROR_BATCH, "%s:%" G_GUINT64_FORMAT ": %s",
              rd->file, rd->lineno, what);
  return FALSE;
}

/* The next line into rd->line (no newline); FALSE at the end or on error
 * (`*error` set then). */
static gboolean next_line(Reader *rd, GError **error) {
  gsize len = 0;
  int ch;
  while ((ch = getc(rd->f)) != EOF && ch != '\n') {
    if (ch == '\0')
      return batch_error(rd, error, "a NUL byte (a text file is expected)");
    if (len == BATCH_MAX_LINE)
      return batch_error(rd, error, "line longer than 4096 bytes");
    rd->line[len++] = (gchar)ch;
  }
  if (ch == EOF && ferror(rd->f)) {
    g_set_error(error, CLI_OCCUPANCY_ERROR, CLI_OCCUPANCY_ERROR_BATCH, "--batch %s: %s", rd->file,
                g_strerror(errno));
    return FALSE;
  }
  rd->line[len] = '\0';
  rd->lineno++;
  return ch != EOF || len > 0;
}

static gboolean read_header(Reader *rd, gchar **fields, GError **error) {
  guint n = g_strv_length(fields);
  gboolean ok = n == 4 || n == 5;
  for (guint i = 0; ok && i < n; i++)
    ok = strcmp(fields[i], field_names[i]) == 0;
  if (!ok)
    return batch_error(rd, error, "the header must be '" CLI_OCC_BATCH_HEADER "'");
  rd->n_fields = n;
  return TRUE;
}

/* One data row into `l` (the command's launch with the row's fields). */
static gboolean read_row(Reader *rd, gchar **fields, const CliOccCommand *c, OccLaunch *l,
                         GError **error) {
  guint64 v[5] = {0};
  if (g_strv_length(fields) != rd->n_fields) {
    g_autofree gchar *msg =
        g_strdup_printf("%u fields where the header has %u", g_strv_length(fields), rd->n_fields);
    return batch_error(rd, error, msg);
  }
  for (guint i = 0; i < rd->n_fields; i++) {
    guint64 hi = i == 4 ? 1 : G_MAXUINT;
    if (!config_parse_uint(fields[i], &v[i]) || v[i] > hi) {
      g_autofree gchar *msg = g_strdup_printf(
          "%s '%s' is not a whole number in 0..%" G_GUINT64_FORMAT, field_names[i], fields[i], hi);
      return batch_error(rd, error, msg);
    }
  }
  *l = c->launch;
  l->threads = (guint)v[0];
  l->regs = (guint)v[1];
  l->smem_static = (guint)v[2];
  l->smem_dynamic = (guint)v[3];
  if (rd->n_fields == 5)
    l->optin = v[4] != 0;
  GError *err = NULL;
  if (!occupancy_check_launch(&c->model->sm, l, &err)) {
    g_propagate_prefixed_error(error, err, "%s:%" G_GUINT64_FORMAT ": ", rd->file, rd->lineno);
    return FALSE;
  }
  return TRUE;
}

/* One pass over the file: every data row is checked, and written to `sink`
 * when it is not NULL. */
static gboolean batch_pass(Reader *rd, const CliOccCommand *c, CliOccSink *sink, GError **error) {
  GError *err = NULL;
  rd->lineno = 0;
  rd->n_fields = 0;
  rewind(rd->f);
  while (next_line(rd, &err)) {
    gchar *line = g_strstrip(rd->line);
    if (*line == '\0' || *line == '#')
      continue;
    g_auto(GStrv) fields = g_strsplit(line, ",", -1);
    for (guint i = 0; fields[i] != NULL; i++)
      g_strstrip(fields[i]);
    OccLaunch l;
    OccResult r;
    gboolean header = rd->n_fields == 0;
    if (header ? !read_header(rd, fields, error) : !read_row(rd, fields, c, &l, error))
      return FALSE;
    if (header || sink == NULL)
      continue;
    if (!occupancy_compute(&c->model->sm, &l, &r, error))
      return FALSE;
    cli_occ_sink_add(sink, cli_occ_result_row(c, &l, &r), NULL);
  }
  if (err != NULL) {
    g_propagate_error(error, err);
    return FALSE;
  }
  if (rd->n_fields == 0) {
    g_set_error(error, CLI_OCCUPANCY_ERROR, CLI_OCCUPANCY_ERROR_BATCH,
                "--batch %s: no header line '" CLI_OCC_BATCH_HEADER "'", rd->file);
    return FALSE;
  }
  return TRUE;
}

/* Open `file`: a regular file (a FIFO would block) of at most BATCH_MAX_BYTES. */
static FILE *batch_open(const gchar *file, GError **error) {
  GStatBuf st;
  const gchar *problem = NULL;
  if (g_stat(file, &st) != 0)
    problem = g_strerror(errno);
  else if (!S_ISREG(st.st_mode))
    problem = "not a regular file";
  else if ((guint64)st.st_size > BATCH_MAX_BYTES)
    problem = "too large (allowed 0..268435456 bytes)";
  FILE *f = problem == NULL ? g_fopen(file, "rb") : NULL;
  if (f == NULL)
    g_set_error(error, CLI_OCCUPANCY_ERROR, CLI_OCCUPANCY_ERROR_BATCH, "--batch %s: %s", file,
                problem != NULL ? problem : g_strerror(errno));
  return f;
}

gboolean cli_occ_run_batch(const CliOccCommand *c, const gchar *file, FILE *dest, GError **error) {
  Reader rd = {.file = file};
  rd.f = batch_open(file, error);
  if (rd.f == NULL)
    return FALSE;
  g_autoptr(GString) out = g_string_new(NULL);
  CliOccSink sink = {.cmd = c, .array = TRUE, .out = out, .dest = dest};
  gboolean ok = batch_pass(&rd, c, NULL, error) && batch_pass(&rd, c, &sink, error);
  fclose(rd.f);
  if (!ok)
    return FALSE;
  if (sink.n == 0 && c->format == CLI_OCC_FORMAT_CSV && !c->no_header) {
    OccResult r = {0};
    g_autoptr(ReportRow) empty = cli_occ_result_row(c, &c->launch, &r);
    report_csv_header(empty, out);
  }
  cli_occ_sink_finish(&sink);
  return TRUE;
}
