/* cli_occupancy_options.c - the options of `warpsim occupancy`: the
 * GOptionContext, and checking the option values into an OccLaunch. */
#include "cli/cli_occupancy_priv.h"

#include "input/config.h"

#include <stdarg.h>
#include <string.h>

void cli_occ_options_clear(CliOccOptions *o) {
  gchar **strings[] = {&o->model,        &o->threads,         &o->regs,           &o->smem_static,
                       &o->smem_dynamic, &o->carveout,        &o->format,         &o->batch,
                       &o->vary,         &o->smem_for_blocks, &o->grid,           &o->bounds,
                       &o->max_regs,     &o->warpgroups,      &o->smem_per_thread};
  for (guint i = 0; i < G_N_ELEMENTS(strings); i++)
    g_clear_pointer(strings[i], g_free);
}

static const gchar description[] =
    "Computes blocks per SM, warps per SM and theoretical occupancy as NVIDIA's occupancy\n"
    "API does, with the block limit of each limiter (blocks, warps, registers, shared_mem).\n"
    "An impossible launch is not an error: it prints 0 blocks and the reason.\n\n"
    "CSV columns: model,cc,threads,regs,smem_static,smem_dynamic,optin,blocks_per_sm,\n"
    "warps_per_sm,occupancy_pct,limiters,limit_blocks,limit_warps,limit_registers,\n"
    "limit_shared_mem,regs_per_block,smem_per_block,smem_config,warps_per_block,carveout,\n"
    "reason (limiters joined with '+'); --launch-bounds, --max-regs and --warpgroup-regs\n"
    "add launch_bounds_threads,launch_bounds_min_blocks,max_regs,warpgroup_regs,\n"
    "regs_ceiling,regs_allocated,regs_spilled,ceiling_occupancy_pct,warning; --vary adds\n"
    "vary,value,current; --grid adds grid,sms,waves_per_sm,waves,last_wave_sms,\n"
    "sm_time_used_pct,achievable_occupancy_pct,last_wave_blocks_per_sm (blocks:SMs; in JSON\n"
    "an array); --best-block-size adds best_block_size.  --smem-for-blocks prints\n"
    "model,cc,threads,regs,smem_static,smem_dynamic (the most per block),optin,n_blocks,\n"
    "blocks_per_sm,carveout,reason.\n\n"
    "Examples:\n"
    "  warpsim occupancy --model a100 --threads 256 --regs 64\n"
    "  warpsim occupancy --model 8.6 --threads 128 --regs 32 --smem-dynamic 51200 --optin\n"
    "  warpsim occupancy --model h200 --threads 256 --regs 32 --vary all --format csv\n"
    "  warpsim occupancy --model a100 --regs 44 --best-block-size\n"
    "  warpsim occupancy --model h200 --launch-bounds 896,1 --regs 90\n"
    "  warpsim occupancy --model h200 --warpgroup-regs 40,232,232\n"
    "  warpsim occupancy --model h200 --batch launches.csv > occupancy.csv\n"
    "Exit status: 0 ok, 2 bad input (one line on stderr).\n";

GOptionContext *cli_occ_options_context(CliOccOptions *o) {
  const GOptionEntry entries[] = {
      {"model", 'm', 0, G_OPTION_ARG_FILENAME, &o->model,
       "SM model: a name (see 'warpsim models'), a compute capability such as 8.6, or a path "
       "(default h200, as in run and sweep-points)",
       "M"},
      {"threads", 't', 0, G_OPTION_ARG_STRING, &o->threads, "threads per block (1..1024)", "T"},
      {"regs", 'r', 0, G_OPTION_ARG_STRING, &o->regs, "registers per thread (1..255)", "R"},
      {"smem-static", 0, 0, G_OPTION_ARG_STRING, &o->smem_static,
       "static shared memory per block, bytes (default 0)", "B"},
      {"smem-dynamic", 0, 0, G_OPTION_ARG_STRING, &o->smem_dynamic,
       "dynamic shared memory per block, bytes (default 0)", "B"},
      {"smem-per-thread", 0, 0, G_OPTION_ARG_STRING, &o->smem_per_thread,
       "dynamic shared memory per thread, bytes: a block of T threads gets --smem-dynamic + T x "
       "B (with --best-block-size: each size tried, as "
       "cudaOccupancyMaxPotentialBlockSizeVariableSMem)",
       "B"},
      {"optin", 0, 0, G_OPTION_ARG_NONE, &o->optin,
       "the kernel raised its dynamic shared-memory limit to the opt-in maximum", NULL},
      {"carveout", 0, 0, G_OPTION_ARG_STRING, &o->carveout,
       "shared-memory carveout preference, percent 0..100 (default -1: no preference)", "PCT"},
      {"format", 'f', 0, G_OPTION_ARG_STRING, &o->format,
       "output: text, csv or json (default text; csv with --batch)", "F"},
      {"no-header", 0, 0, G_OPTION_ARG_NONE, &o->no_header, "CSV without the header row", NULL},
      {"batch", 0, 0, G_OPTION_ARG_FILENAME, &o->batch,
       "read launches from a CSV file with header " CLI_OCC_BATCH_HEADER "; one output row each",
       "FILE"},
      {"vary", 0, 0, G_OPTION_ARG_STRING, &o->vary,
       "what-if curve: occupancy over regs (1..255), threads (32..1024 by 32), smem (0..max by "
       "allocation units) or all three",
       "regs|threads|smem|all"},
      {"best-block-size", 0, 0, G_OPTION_ARG_NONE, &o->best,
       "the largest block size reaching the best occupancy (--threads not needed)", NULL},
      {"smem-for-blocks", 0, 0, G_OPTION_ARG_STRING, &o->smem_for_blocks,
       "dynamic shared memory available per block with N blocks resident per SM", "N"},
      {"grid", 0, 0, G_OPTION_ARG_STRING, &o->grid,
       "grid size in blocks: add waves per SM and the tail of the last wave", "N"},
      {"cooperative", 0, 0, G_OPTION_ARG_NONE, &o->cooperative,
       "with --grid: a cooperative launch (grid.sync()), whose whole grid must be co-resident; "
       "refused (exit 2) when it exceeds blocks per SM x SMs",
       NULL},
      {"launch-bounds", 0, 0, G_OPTION_ARG_STRING, &o->bounds,
       "__launch_bounds__(T, MIN_BLOCKS): the register ceiling ptxas gets, MIN_BLOCKS checked",
       "T[,MIN_BLOCKS]"},
      {"max-regs", 0, 0, G_OPTION_ARG_STRING, &o->max_regs,
       "register cap per thread, as -maxrregcount (1..255)", "N"},
      {"warpgroup-regs", 0, 0, G_OPTION_ARG_STRING, &o->warpgroups,
       "registers per thread of each warpgroup of 128 threads (setmaxnreg)", "R1,R2,..."},
      {"help", 'h', 0, G_OPTION_ARG_NONE, &o->help, "show this help", NULL},
      G_OPTION_ENTRY_NULL};
  GOptionContext *ctx = g_option_context_new("- theoretical occupancy of a kernel launch");
  g_option_context_set_help_enabled(ctx, FALSE);
  g_option_context_add_main_entries(ctx, entries, NULL);
  g_option_context_set_description(ctx, description);
  return ctx;
}

static gboolean option_error(GError **error, const gchar *format, ...) G_GNUC_PRINTF(2, 3);
static gboolean option_error(GError **error, const gchar *format, ...) {
  va_list ap;
  va_start(ap, format);
  g_autofree gchar *msg = g_strdup_vprintf(format, ap);
  va_end(ap);
  g_set_error_literal(error, CLI_OCCUPANCY_ERROR, CLI_OCCUPANCY_ERROR_OPTION, msg);
  return FALSE;
}

/* Parse the decimal `text` of option --`opt` into lo..hi; a NULL `text`
 * leaves `*value` as it is. */
gboolean cli_occ_parse_number(const gchar *opt, const gchar *text, guint64 lo, guint64 hi,
                              guint64 *value, GError **error) {
  guint64 v = 0;
  if (text == NULL)
    return TRUE;
  if (!config_parse_uint(text, &v))
    return option_error(error,
                        "--%s: '%s' is not a whole number (allowed %" G_GUINT64_FORMAT
                        "..%" G_GUINT64_FORMAT ")",
                        opt, text, lo, hi);
  if (v < lo || v > hi)
    return option_error(error,
                        "--%s: %" G_GUINT64_FORMAT " is out of range (allowed %" G_GUINT64_FORMAT
                        "..%" G_GUINT64_FORMAT ")",
                        opt, v, lo, hi);
  *value = v;
  return TRUE;
}

gboolean cli_occ_parse_uint(const gchar *opt, const gchar *text, guint lo, guint hi, guint *value,
                            GError **error) {
  guint64 v = *value;
  gboolean ok = cli_occ_parse_number(opt, text, lo, hi, &v, error);
  *value = (guint)v;
  return ok;
}

/* A comma-separated list of 1..max numbers in lo..hi into `values`. */
static gboolean parse_list(const gchar *opt, const gchar *text, guint lo, guint hi, guint max,
                           guint *values, guint *n, GError **error) {
  g_auto(GStrv) items = g_strsplit(text, ",", -1);
  *n = g_strv_length(items);
  if (*n < 1 || *n > max)
    return option_error(error, "--%s: %u values in '%s' (allowed 1..%u)", opt, *n, text, max);
  for (guint i = 0; i < *n; i++)
    if (!cli_occ_parse_uint(opt, g_strstrip(items[i]), lo, hi, &values[i], error))
      return FALSE;
  return TRUE;
}

gboolean cli_occ_parse_format(const gchar *text, gboolean batch, CliOccFormat *format,
                              GError **error) {
  static const gchar *const names[] = {"text", "csv", "json"};
  *format = batch ? CLI_OCC_FORMAT_CSV : CLI_OCC_FORMAT_TEXT;
  for (guint i = 0; text != NULL && i <= G_N_ELEMENTS(names); i++) {
    if (i == G_N_ELEMENTS(names))
      return option_error(error, "--format: unknown format '%s' (allowed text|csv|json)", text);
    if (strcmp(text, names[i]) == 0) {
      *format = (CliOccFormat)i;
      break;
    }
  }
  if (batch && *format == CLI_OCC_FORMAT_TEXT)
    return option_error(error, "--format: text is not available with --batch (allowed csv|json)");
  return TRUE;
}

/* --launch-bounds T[,MIN_BLOCKS], --max-regs, --warpgroup-regs. */
static gboolean parse_compiler(const CliOccOptions *o, const SmLimits *sm, OccLaunch *l,
                               GError **error) {
  if (o->bounds != NULL) {
    g_auto(GStrv) parts = g_strsplit(o->bounds, ",", -1);
    if (g_strv_length(parts) < 1 || g_strv_length(parts) > 2)
      return option_error(error, "--launch-bounds: '%s' (allowed T[,MIN_BLOCKS])", o->bounds);
    if (!cli_occ_parse_uint("launch-bounds", parts[0], 1, sm->max_threads_per_block,
                            &l->bounds.max_threads, error) ||
        !cli_occ_parse_uint("launch-bounds MIN_BLOCKS", parts[1], 1, 1024, &l->bounds.min_blocks,
                            error))
      return FALSE;
  }
  if (!cli_occ_parse_uint("max-regs", o->max_regs, 1, sm->max_regs_per_thread, &l->bounds.max_regs,
                          error))
    return FALSE;
  if (o->warpgroups == NULL)
    return TRUE;
  return parse_list("warpgroup-regs", o->warpgroups, 1, 256, OCC_MAX_WARPGROUPS, l->warpgroup_regs,
                    &l->n_warpgroups, error);
}

/* The launch from the options.  --threads is required unless `need_threads`
 * is FALSE or launch bounds or warpgroups give it; --regs unless `need_regs`
 * is FALSE or a ceiling or warpgroups give it. */
gboolean cli_occ_parse_launch(const CliOccOptions *o, const SmLimits *sm, gboolean need_threads,
                              gboolean need_regs, OccLaunch *l, GError **error) {
  occupancy_launch_init(l);
  if (!parse_compiler(o, sm, l, error))
    return FALSE;
  gboolean implied = o->bounds != NULL || l->n_warpgroups > 0;
  if (need_threads && o->threads == NULL && !implied)
    return option_error(error, "--threads is required (allowed 1..%u)", sm->max_threads_per_block);
  if (need_regs && o->regs == NULL && !implied && o->max_regs == NULL)
    return option_error(error, "--regs is required (allowed 1..%u)", sm->max_regs_per_thread);
  l->threads =
      l->n_warpgroups > 0 ? l->n_warpgroups * OCC_WARPGROUP_THREADS : l->bounds.max_threads;
  l->regs = l->n_warpgroups > 0 ? 0 : sm->max_regs_per_thread; /* at the ceiling */
  if (!cli_occ_parse_uint("threads", o->threads, 1, sm->max_threads_per_block, &l->threads,
                          error) ||
      !cli_occ_parse_uint("regs", o->regs, 1, sm->max_regs_per_thread, &l->regs, error) ||
      !cli_occ_parse_uint("smem-static", o->smem_static, 0, G_MAXUINT, &l->smem_static, error) ||
      !cli_occ_parse_uint("smem-dynamic", o->smem_dynamic, 0, G_MAXUINT, &l->smem_dynamic, error) ||
      !cli_occ_parse_uint("smem-per-thread", o->smem_per_thread, 0, 1048576, &l->smem_per_thread,
                          error))
    return FALSE;
  if (!o->best) /* one block size: its shared memory now (the search adds it per size) */
    l->smem_dynamic = occupancy_variable_smem(l, l->threads);
  l->optin = o->optin;
  if (o->carveout != NULL && strcmp(o->carveout, "-1") != 0) {
    guint64 pct = 0;
    if (!config_parse_uint(o->carveout, &pct) || pct > 100)
      return option_error(
          error, "--carveout: '%s' is not a percentage (allowed -1..100, -1 = no preference)",
          o->carveout);
    l->carveout_pct = (gint)pct;
  }
  return TRUE;
}

static gboolean mode_error(GError **error, const gchar *message) {
  g_set_error_literal(error, CLI_OCCUPANCY_ERROR, CLI_OCCUPANCY_ERROR_MODE, message);
  return FALSE;
}

/* Check the options that do not need the model. */
gboolean cli_occ_check_modes(const CliOccOptions *o, int argc, char **argv, GError **error) {
  guint modes =
      (o->batch != NULL) + (o->vary != NULL) + (o->best != FALSE) + (o->smem_for_blocks != NULL);
  if (argc > 1) {
    g_autofree gchar *msg = g_strdup_printf("unexpected argument '%s' (see --help)", argv[1]);
    return mode_error(error, msg);
  }
  if (modes > 1)
    return mode_error(error, "--batch, --vary, --best-block-size and --smem-for-blocks exclude "
                             "each other (allowed: one of them)");
  if (o->grid != NULL && (o->batch != NULL || o->vary != NULL || o->smem_for_blocks != NULL))
    return mode_error(error, "--grid goes with a single launch or --best-block-size only");
  if (o->smem_per_thread != NULL &&
      (o->batch != NULL || o->vary != NULL || o->smem_for_blocks != NULL))
    return mode_error(error, "--smem-per-thread goes with a single launch or --best-block-size "
                             "only");
  if (o->cooperative && o->grid == NULL)
    return mode_error(error, "--cooperative needs --grid N (the blocks that must be co-resident)");
  return TRUE;
}
