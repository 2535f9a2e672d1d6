/* fuzz_sass.c - libFuzzer: a SASS listing through sass_load_data, and a
 * function that decodes through sass_program_new with the shipped h200 model
 * (no profile, trip_count 3).  The input's first line names the function. */
#include "fuzz.h"
#include "input/model.h"
#include "sass/sassmem.h"
#include "sass/sassprog.h"

#include <string.h>

static SmModel *model;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  g_autofree gchar *text = fuzz_shipped(WARPSIM_FUZZ_SOURCE "/models", "h200.ini");
  model = model_load_data(text, "h200.ini", NULL, NULL);
  g_assert(model != NULL);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  g_autofree gchar *text = fuzz_text(data, size);
  const gchar *body = fuzz_after_first_line(text);
  if (body == NULL)
    return 0;
  GError *err = NULL;
  g_autoptr(SassKernel) sk = g_new0(SassKernel, 1);
  sk->n_trip_counts = 1;
  sk->trip_counts[0] = 3;
  sk->fn = sass_load_data(body, strlen(body), "fuzz.sass", text, &err);
  g_assert((sk->fn == NULL) == (err != NULL));
  if (sk->fn != NULL) {
    sassmem_derive(sk);
    Program *p = sass_program_new(sk, model, NULL, &err);
    g_assert((p == NULL) == (err != NULL));
    program_free(p);
  }
  g_clear_error(&err);
  return 0;
}
