/* cli_occupancy.c - `warpsim occupancy`: the entry point; options, modes,
 * rows and text live in cli_occupancy_*.c (cli_occupancy_priv.h). */
#include "cli/cli_occupancy.h"

#include "cli/cli.h"

#include "cli/cli_occupancy_priv.h"

static int fail(GError *error) {
  cli_print_error("warpsim occupancy", error->message);
  g_error_free(error);
  return 2;
}

static gboolean run_command(const CliOccOptions *o, CliOccCommand *c, GString *out,
                            GError **error) {
  const SmLimits *sm = &c->model->sm;
  guint n_blocks = 0;
  if (!cli_occ_parse_format(o->format, o->batch != NULL, &c->format, error) ||
      !cli_occ_parse_launch(o, sm, o->batch == NULL && !o->best, o->batch == NULL, &c->launch,
                            error) ||
      !cli_occ_parse_number("grid", o->grid, 1, G_MAXINT64, &c->grid, error))
    return FALSE;
  c->no_header = o->no_header;
  c->cooperative = o->cooperative;
  c->compiler = o->bounds != NULL || o->max_regs != NULL || o->warpgroups != NULL;
  if (o->smem_for_blocks != NULL)
    return cli_occ_parse_uint("smem-for-blocks", o->smem_for_blocks, 1, sm->max_blocks, &n_blocks,
                              error) &&
           cli_occ_run_smem_for_blocks(c, n_blocks, out, error);
  if (o->batch != NULL)
    return cli_occ_run_batch(c, o->batch, stdout, error);
  if (o->vary != NULL)
    return cli_occ_run_vary(c, o->vary, out, error);
  if (o->best)
    return cli_occ_run_best(c, out, error);
  return cli_occ_run_single(c, out, error);
}

int cli_occupancy_main(int argc, char **argv) {
  CliOccOptions o = {0};
  CliOccCommand c = {0};
  GError *err = NULL;
  g_autoptr(GOptionContext) ctx = cli_occ_options_context(&o);
  int rc = 0;
  if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
    g_prefix_error(&err, "%s", "options: ");
    rc = fail(err);
  } else if (o.help) {
    g_autofree gchar *help = g_option_context_get_help(ctx, TRUE, NULL);
    fputs(help, stdout);
  } else if (!cli_occ_check_modes(&o, argc, argv, &err)) {
    rc = fail(err);
  } else if ((c.model = model_load(o.model ? o.model : "h200", NULL, &err)) == NULL) {
    rc = fail(err);
  } else {
    g_autoptr(GString) out = g_string_new(NULL);
    if (run_command(&o, &c, out, &err)) {
      cli_note_renamed(o.model); /* once it ran: bad input is its error line alone */
      fwrite(out->str, 1, out->len, stdout);
    } else {
      rc = fail(err);
    }
  }
  model_free(c.model);
  cli_occ_options_clear(&o);
  return rc;
}
