/* cli.c - option handling shared by the subcommands. */
#include "cli/cli.h"

#include "input/model_find.h"
#include "run/sim.h"

#include <stdio.h>
#include <string.h>

G_DEFINE_QUARK(warpsim_cli_error, cli_error)

gboolean cli_parse_format(const gchar *text, CliFormat *format, GError **error) {
  static const gchar *const names[] = {"text", "csv", "json"};
  for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
    if (g_strcmp0(text, names[i]) == 0) {
      *format = (CliFormat)i;
      return TRUE;
    }
  }
  g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE, "--format %s: must be text, csv or json", text);
  return FALSE;
}

gboolean cli_parse(GOptionContext *ctx, const gchar *command, int argc, char **argv,
                   GError **error) {
  if (!g_option_context_parse(ctx, &argc, &argv, error))
    return FALSE;
  if (argc > 1 && strcmp(command, "run") == 0 && argv[1][0] != '-') {
    g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE,
                "%s: unexpected argument '%s' (a kernel is named with --kernel: did you mean "
                "'warpsim run --kernel %s'?)",
                command, argv[1], argv[1]);
    return FALSE;
  }
  if (argc > 1) {
    g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE, "%s: unexpected argument '%s'", command,
                argv[1]);
    return FALSE;
  }
  return TRUE;
}

/* The group an override "group.key=value" names (newly allocated). */
static gchar *set_group(const gchar *set) {
  const gchar *dot = strchr(set, '.');
  return dot ? g_strndup(set, dot - set) : g_strdup(set);
}

gboolean cli_load(const gchar *model_spec, const gchar *kernel_spec, gchar **sets, SmModel **model,
                  Kernel **kernel, GError **error) {
  for (guint i = 0; sets != NULL && sets[i] != NULL; i++) {
    g_autofree gchar *group = set_group(sets[i]);
    if (!model_override_group(group) && !kernel_override_group(group)) {
      g_set_error(error, CLI_ERROR, CLI_ERROR_SET,
                  "--set '%s': unknown group [%s] (kernel groups: launch, stream; model groups: "
                  "see 'warpsim run --help-keys')",
                  sets[i], group);
      return FALSE;
    }
  }
  *model = model_load(model_spec, (const gchar *const *)sets, error);
  if (*model == NULL)
    return FALSE;
  if (kernel != NULL) {
    *kernel = kernel_load(kernel_spec, (const gchar *const *)sets, *model, error);
    if (*kernel == NULL) {
      g_clear_pointer(model, model_free);
      return FALSE;
    }
  }
  return TRUE;
}

void cli_note_renamed(const gchar *model_spec) {
  const gchar *now = model_spec != NULL ? model_find_renamed(model_spec) : NULL;
  if (now != NULL)
    fprintf(stderr,
            "warpsim: note: --model %s is now called %s (the old name still works, but is "
            "deprecated)\n",
            model_spec, now);
}

/* g_ptr_array_sort order of "group.key=value" strings: by "group.key". */
static gint compare_set_keys(gconstpointer a, gconstpointer b) {
  const gchar *x = *(const gchar *const *)a, *y = *(const gchar *const *)b;
  gsize nx = strcspn(x, "="), ny = strcspn(y, "=");
  gint c = strncmp(x, y, MIN(nx, ny));
  return c != 0 ? c : (nx != ny ? (nx < ny ? -1 : 1) : strcmp(x, y));
}

gchar *cli_model_overrides(const gchar *const *sets) {
  g_autoptr(GPtrArray) models = g_ptr_array_new();
  for (guint i = 0; sets != NULL && sets[i] != NULL; i++) {
    g_autofree gchar *group = set_group(sets[i]);
    if (model_override_group(group))
      g_ptr_array_add(models, (gpointer)sets[i]);
  }
  g_ptr_array_sort(models, compare_set_keys);
  GString *ov = g_string_new(NULL);
  for (guint i = 0; i < models->len; i++)
    g_string_append_printf(ov, "%s%s", ov->len ? ";" : "", (const gchar *)models->pdata[i]);
  return g_string_free(ov, FALSE);
}

void cli_print_error(const gchar *prefix, const gchar *message) {
  enum { MAX_BYTES = 1000 };
  gsize len = strlen(message);
  GString *out = g_string_sized_new(MIN(len, MAX_BYTES) + 64);
  for (gsize i = 0; i < len && i < MAX_BYTES; i++) {
    guchar c = (guchar)message[i];
    if (c == '\n')
      g_string_append(out, "\\n");
    else if (c == '\r')
      g_string_append(out, "\\r");
    else if (c == '\t')
      g_string_append(out, "\\t");
    else if (c < 0x20 || c == 0x7f)
      g_string_append_printf(out, "\\x%02x", c);
    else
      g_string_append_c(out, (gchar)c);
  }
  if (len > MAX_BYTES)
    g_string_append_printf(out, " ... (%" G_GSIZE_FORMAT " more bytes)", len - MAX_BYTES);
  fprintf(stderr, "%s: %s\n", prefix, out->str);
  g_string_free(out, TRUE);
}

int cli_exit(GError *error) {
  int rc = g_error_matches(error, SIM_ERROR, SIM_ERROR_INVARIANT) ? CLI_EXIT_INTERNAL
           : g_error_matches(error, SIM_ERROR, SIM_ERROR_BOUND)   ? CLI_EXIT_BOUND
                                                                  : CLI_EXIT_USAGE;
  cli_print_error("warpsim", error->message);
  g_error_free(error);
  return rc;
}

int cli_fail(const gchar *message) {
  cli_print_error("warpsim", message);
  return CLI_EXIT_USAGE;
}
