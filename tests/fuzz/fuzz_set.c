/* fuzz_set.c - libFuzzer: a list of "--set group.key=value" overrides (one
 * per input line) applied to the shipped h200 model and fma kernel, as
 * `warpsim run --set ...` applies them (model_load_data, kernel_load_data). */
#include "fuzz.h"
#include "input/kernel.h"
#include "input/model.h"

static gchar *model_text, *kernel_text;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  model_text = fuzz_shipped(WARPSIM_FUZZ_SOURCE "/models", "h200.ini");
  kernel_text = fuzz_shipped(WARPSIM_FUZZ_SOURCE "/traces", "fma.ini");
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  g_auto(GStrv) sets = fuzz_lines(data, size, 64);
  GError *err = NULL;
  SmModel *m = model_load_data(model_text, "h200.ini", (const gchar *const *)sets, &err);
  g_assert((m == NULL) == (err != NULL));
  model_free(m);
  g_clear_error(&err);
  Kernel *k = kernel_load_data(kernel_text, "fma.ini", (const gchar *const *)sets, &err);
  g_assert((k == NULL) == (err != NULL));
  kernel_free(k);
  g_clear_error(&err);
  return 0;
}
