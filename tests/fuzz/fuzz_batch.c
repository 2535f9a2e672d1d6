/* fuzz_batch.c - libFuzzer: a `warpsim occupancy --batch` CSV file through the
 * command's public entry point (cli_occupancy_main), in CSV and JSON.  The
 * input lives in a memfd, so nothing touches the disk.  Run with
 * -close_fd_mask=3: the command prints its rows and errors. */
#define _DEFAULT_SOURCE /* syscall() */
#include "cli/cli_occupancy.h"
#include "fuzz.h"

#include <sys/syscall.h>
#include <unistd.h>

static int run(const gchar *path, const gchar *format) {
  gchar *argv[] = {"occupancy",     "--model", "h200",        "--format",
                   (gchar *)format, "--batch", (gchar *)path, NULL};
  return cli_occupancy_main(G_N_ELEMENTS(argv) - 1, argv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  int fd = (int)syscall(SYS_memfd_create, "batch.csv", 0);
  g_assert(fd >= 0);
  g_assert(write(fd, data, size) == (ssize_t)size);
  g_autofree gchar *path = g_strdup_printf("/proc/self/fd/%d", fd);
  int rc = run(path, "csv");
  g_assert(rc == 0 || rc == 2);
  g_assert(run(path, "json") == rc);
  close(fd);
  return 0;
}
