/* main.c - warpsim: dispatch to a subcommand. */
#include "cli/cli.h"
#include "cli/cli_coverage.h"
#include "cli/cli_curve_stats.h"
#include "cli/cli_diff.h"
#include "cli/cli_models.h"
#include "cli/cli_occupancy.h"
#include "cli/cli_run.h"
#include "cli/cli_sweep_points.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

static const struct {
  const gchar *name;
  int (*main)(int argc, char **argv);
  const gchar *desc;
} commands[] = {
    {"run", cli_run_main, "simulate one kernel on one SM and print its result"},
    {"occupancy", cli_occupancy_main, "theoretical occupancy, limiters and what-if curves"},
    {"diff", cli_diff_main, "compare two 'run --format json' results, metric by metric"},
    {"models", cli_models_main, "list the shipped SM models"},
    {"curve-stats", cli_curve_stats_main, "plateau, knee and MAPE per curve of CSV points"},
    {"sweep-points", cli_sweep_points_main, "a sweep's grid: its points, checked, and their hash"},
    {"sass-coverage", cli_coverage_main,
     "the opcode classes of a SASS listing, with their sources"},
};

static void usage(FILE *f) {
  fprintf(f,
          "Usage: warpsim COMMAND [OPTIONS]\n\nwarpsim %s - a warp-scheduler cycle "
          "simulator of one GPU SM.\n\nCommands:\n",
          WARPSIM_VERSION);
  for (guint i = 0; i < G_N_ELEMENTS(commands); i++)
    fprintf(f, "  %-13s %s\n", commands[i].name, commands[i].desc);
  fprintf(f, "  %-13s %s\n", "version", "print the version");
  fprintf(f, "\nRun 'warpsim COMMAND --help' for a command's options.\n");
}

/* Everything is on stdout once a command returns: report a failed write
 * (a full disk, a closed pipe) instead of exiting 0 with output missing. */
static int finish(int rc) {
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "warpsim: error writing the output: %s\n", g_strerror(errno));
    return rc == 0 ? 1 : rc;
  }
  return rc;
}

static int dispatch(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "warpsim: a command is needed (run 'warpsim --help')\n");
    return 2;
  }
  const gchar *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    usage(stdout);
    return 0;
  }
  if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
    if (argc == 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
      printf("Usage: warpsim version\n\nPrint the version of warpsim (also: warpsim --version).\n");
      return 0;
    }
    if (argc > 2) {
      fprintf(stderr, "warpsim: version: unexpected argument '%s'\n", argv[2]);
      return 2;
    }
    printf("warpsim %s\n", WARPSIM_VERSION);
    return 0;
  }
  for (guint i = 0; i < G_N_ELEMENTS(commands); i++) {
    if (strcmp(cmd, commands[i].name) == 0) {
      g_autofree gchar *prgname = g_strconcat("warpsim ", cmd, NULL);
      g_set_prgname(prgname); /* GLib keeps its own copy */
      return commands[i].main(argc - 1, argv + 1);
    }
  }
  fprintf(stderr, "warpsim: unknown command '%s' (run 'warpsim --help')\n", cmd);
  return 2;
}

int main(int argc, char **argv) {
  /* The character set only (so option values in UTF-8 convert); numbers are
   * always written with g_ascii_* or in the C locale. */
  setlocale(LC_CTYPE, "");
  return finish(dispatch(argc, argv));
}
