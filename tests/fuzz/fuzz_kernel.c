/* fuzz_kernel.c - libFuzzer: a kernel file (GKeyFile text) through kernel_load_data. */
#include "fuzz.h"
#include "input/kernel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  g_autofree gchar *text = fuzz_text(data, size);
  GError *err = NULL;
  Kernel *k = kernel_load_data(text, "fuzz.ini", NULL, &err);
  g_assert((k == NULL) == (err != NULL));
  kernel_free(k);
  g_clear_error(&err);
  return 0;
}
