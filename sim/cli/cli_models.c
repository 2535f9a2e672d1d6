/* cli_models.c - `warpsim models`. */
#include "cli/cli_models.h"

#include "cli/cli.h"
#include "input/paths.h"
#include "sass/opclass.h"
#include "sass/sass.h"

#include <stdio.h>

/* Model `m` runs SASS listings: it simulates (timing), has opcode classes
 * and its GPU runs some listing architecture warpsim reads. */
static gboolean model_runs_sass(const SmModel *m) {
  const gchar *fp32 = m->opclass[OPCLASS_FP32].opcodes;
  return m->has_timing && fp32 != NULL && *fp32 != '\0' &&
         sass_cc_runs_read_arch(m->sm.cc_major, m->sm.cc_minor);
}

/* One model as a line of the listing. */
static void append_model(const SmModel *m, gboolean csv, GString *out) {
  const gchar *sass = model_runs_sass(m) ? "yes" : "no";
  if (csv)
    g_string_append_printf(out, "%s,%s,%s,%s,%s\n", m->name, m->cc, m->has_timing ? "yes" : "no",
                           m->file, sass);
  else
    g_string_append_printf(out, "%-14s %-6s %-9s %-4s %s\n", m->name, m->cc,
                           m->has_timing ? "yes" : "no", sass, m->file);
}

int cli_models_main(int argc, char **argv) {
  gboolean csv = FALSE;
  g_autofree gchar *format = NULL;
  const GOptionEntry entries[] = {
      {"format", 'f', 0, G_OPTION_ARG_STRING, &format,
       "output: text (default) or csv (name,cc,timing,file,sass)", "F"},
      {"csv", 0, 0, G_OPTION_ARG_NONE, &csv, "the same as --format csv", NULL},
      G_OPTION_ENTRY_NULL};
  g_autoptr(GOptionContext) ctx = g_option_context_new("- list the shipped SM models");
  g_option_context_add_main_entries(ctx, entries, NULL);
  GError *err = NULL;
  if (!cli_parse(ctx, "models", argc, argv, &err))
    return cli_exit(err);
  if (format != NULL && g_strcmp0(format, "text") != 0 && g_strcmp0(format, "csv") != 0) {
    g_autofree gchar *message =
        g_strdup_printf("models: --format: '%s' (allowed text, csv)", format);
    return cli_fail(message);
  }
  csv = csv || g_strcmp0(format, "csv") == 0;
  g_auto(GStrv) paths = model_list();
  if (paths[0] == NULL) {
    g_autofree gchar *where = paths_describe("models");
    g_autofree gchar *message = g_strdup_printf(
        "models: no model files found (looked in %s; set WARPSIM_MODELS to the models directory)",
        where);
    return cli_fail(message);
  }
  g_autoptr(GString) out = g_string_new(csv ? "name,cc,timing,file,sass\n" : NULL);
  if (!csv)
    g_string_append_printf(out, "%-14s %-6s %-9s %-4s %s\n", "name", "cc", "synthetic", "sass",
                           "file");
  for (guint i = 0; paths[i] != NULL; i++) {
    g_autoptr(SmModel) m = model_load(paths[i], NULL, &err);
    if (m == NULL)
      return cli_exit(err);
    append_model(m, csv, out);
  }
  if (!csv)
    g_string_append(out,
                    "\nsynthetic: simulates the built-in kernels (fma, chase, ...); sass: also "
                    "runs SASS listings\n(it has opcode classes, and its GPU runs code of an "
                    "architecture warpsim reads:\n" SASS_ARCHS "); no and no: occupancy only\n");
  fputs(out->str, stdout);
  return CLI_EXIT_OK;
}
