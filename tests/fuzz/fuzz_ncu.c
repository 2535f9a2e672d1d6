/* fuzz_ncu.c - libFuzzer: a Nsight Compute CSV export through
 * ncu_source_load_data and ncu_details_load_data.  The input's first line is
 * the kernel's name key (sass_name_key), the rest the export. */
#include "fuzz.h"
#include "sass/ncu.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  g_autofree gchar *text = fuzz_text(data, size);
  const gchar *body = fuzz_after_first_line(text);
  if (body == NULL)
    return 0;
  GError *err = NULL;
  NcuSource *s = ncu_source_load_data(body, strlen(body), "fuzz.csv", text, &err);
  g_assert((s == NULL) == (err != NULL));
  ncu_source_free(s);
  g_clear_error(&err);
  NcuDetails *d = ncu_details_load_data(body, strlen(body), "fuzz.csv", text, &err);
  g_assert((d == NULL) == (err != NULL));
  ncu_details_free(d);
  g_clear_error(&err);
  return 0;
}
