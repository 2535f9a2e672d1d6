/* opclass.c - opcode classes (see opclass.h). */
#include "sass/opclass.h"

#include <string.h>

const gchar *opclass_name(OpClass c) {
  static const gchar *const names[OPCLASS_MAX] = {"fp32",    "int",     "fp64",    "mufu",
                                                  "tensor",  "conv",    "global",  "shared",
                                                  "shuffle", "uniform", "control", "special"};
  return c < OPCLASS_MAX ? names[c] : "?";
}

OpClass opclass_lookup(const OpClassModel *table, const gchar *opcode) {
  gsize n = strlen(opcode);
  for (guint c = 0; c < OPCLASS_MAX; c++) {
    const gchar *list = table[c].opcodes;
    for (const gchar *p = list ? strstr(list, opcode) : NULL; p; p = strstr(p + 1, opcode))
      if ((p == list || p[-1] == ';' || p[-1] == ' ') &&
          (p[n] == '\0' || p[n] == ';' || p[n] == ' '))
        return (OpClass)c;
  }
  return OPCLASS_MAX;
}

OpClass opclass_guess(const gchar *opcode) {
  if (opcode[0] == 'U')
    return OPCLASS_UNIFORM;
  if (opcode[0] == 'D')
    return OPCLASS_FP64;
  if (g_str_has_prefix(opcode, "LDS") || g_str_has_prefix(opcode, "STS") ||
      g_str_has_prefix(opcode, "ATOMS"))
    return OPCLASS_SHARED;
  if (g_str_has_prefix(opcode, "LD") || g_str_has_prefix(opcode, "ST") ||
      g_str_has_prefix(opcode, "ATOM") || g_str_has_prefix(opcode, "RED"))
    return OPCLASS_GLOBAL;
  if (opcode[0] == 'F' || opcode[0] == 'H')
    return OPCLASS_FP32;
  return OPCLASS_INT;
}
