/* fuzz_model.c - libFuzzer: an SM model file (GKeyFile text) through model_load_data;
 * a model that loads also goes through model_check_timing. */
#include "fuzz.h"
#include "input/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  g_autofree gchar *text = fuzz_text(data, size);
  GError *err = NULL;
  SmModel *m = model_load_data(text, "fuzz.ini", NULL, &err);
  g_assert((m == NULL) == (err != NULL));
  if (m != NULL && !model_check_timing(m, &err))
    g_clear_error(&err);
  model_free(m);
  g_clear_error(&err);
  return 0;
}
