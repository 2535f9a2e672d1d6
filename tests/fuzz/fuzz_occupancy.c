/* fuzz_occupancy.c - libFuzzer: `warpsim occupancy` options (one argument
 * per input line) through cli_occupancy_main.  Arguments naming a path
 * (holding '/') are dropped so the target reads no file but the shipped
 * models.  Run with -close_fd_mask=3: the command prints. */
#include "cli/cli_occupancy.h"
#include "fuzz.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  g_auto(GStrv) lines = fuzz_lines(data, size, 32);
  GPtrArray *args = g_ptr_array_new();
  g_ptr_array_add(args, "occupancy");
  for (guint i = 0; lines[i] != NULL; i++)
    if (strchr(lines[i], '/') == NULL && strncmp(lines[i], "--batch", 7) != 0)
      g_ptr_array_add(args, lines[i]);
  g_ptr_array_add(args, NULL);
  /* GOptionContext may reorder or drop entries of the array it is given. */
  int argc = (int)args->len - 1;
  gchar **argv = g_memdup2(args->pdata, args->len * sizeof(gchar *));
  int rc = cli_occupancy_main(argc, argv);
  g_assert(rc == 0 || rc == 2);
  g_free(argv);
  g_ptr_array_free(args, TRUE);
  return 0;
}
