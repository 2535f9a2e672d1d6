/* opclass.c - opcode classes (see opclass.h). */
#include "sass/opclass.h"

#include <stdlib.h>
#include <string.h>

const gchar *opclass_name(OpClass c) {
  static const gchar *const names[OPCLASS_MAX] = {
      "fp32",   "int",     "fp64",    "mufu",    "tensor",  "conv", "global",
      "shared", "shuffle", "uniform", "control", "special", "imad"};
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

/* Whether `name` is OPCODE[.MOD...]: parts of letters, digits and '_'
 * joined by single dots ("IMAD.HI", "UCGABAR_ARV"), none empty ("MATCH.",
 * "MATCH..ANY" and ".MATCH" would name no instruction). */
static gboolean timing_name_ok(const gchar *name) {
  gboolean part = FALSE; /* the current part has a character */
  for (const gchar *p = name; *p; p++) {
    if (*p == '.' && !part)
      return FALSE;
    if (*p != '.' && !g_ascii_isalnum(*p) && *p != '_')
      return FALSE;
    part = *p != '.';
  }
  return part;
}

/* One timing item "NAME:LATENCY:INTERVAL" split in place; FALSE when it is
 * not three fields of a name (timing_name_ok) and two numbers in range. */
static gboolean timing_item(gchar *item, gchar **name, guint *latency, guint *interval) {
  g_auto(GStrv) f = g_strsplit(item, ":", -1);
  if (g_strv_length(f) != 3)
    return FALSE;
  guint64 lat = 0, iv = 0;
  g_strstrip(f[0]);
  if (!timing_name_ok(f[0]) ||
      !g_ascii_string_to_unsigned(g_strstrip(f[1]), 10, 1, 100000, &lat, NULL) ||
      !g_ascii_string_to_unsigned(g_strstrip(f[2]), 10, 1, 255, &iv, NULL))
    return FALSE;
  *name = g_strdup(f[0]);
  *latency = (guint)lat;
  *interval = (guint)iv;
  return TRUE;
}

/* TRUE when timing name `name` ("IMAD.HI") names opcode `opcode` with
 * modifiers `mods` (".HI.U32"). */
static gboolean timing_names(const gchar *name, const gchar *opcode, const gchar *mods) {
  gsize n = strlen(opcode);
  if (strncmp(name, opcode, n) != 0)
    return FALSE;
  const gchar *rest = name + n; /* "" or ".HI" */
  gsize r = strlen(rest);
  return r == 0 || (strncmp(mods, rest, r) == 0 && (mods[r] == '\0' || mods[r] == '.'));
}

gchar *opclass_timing(const OpClassModel *cm, const gchar *opcode, const gchar *mods,
                      guint *latency, guint *interval) {
  *latency = cm->latency;
  *interval = cm->interval;
  if (cm->timing == NULL || *cm->timing == '\0')
    return NULL;
  g_auto(GStrv) items = g_strsplit(cm->timing, ";", -1);
  gchar *best = NULL;
  for (guint i = 0; items[i] != NULL; i++) {
    gchar *name = NULL;
    guint lat = 0, iv = 0;
    if (!timing_item(items[i], &name, &lat, &iv))
      continue; /* (refused when the model was read) */
    if (timing_names(name, opcode, mods) && (best == NULL || strlen(name) > strlen(best))) {
      g_free(best);
      best = name;
      *latency = lat;
      *interval = iv;
    } else {
      g_free(name);
    }
  }
  return best;
}

gboolean opclass_timing_check(const gchar *list, const gchar *opcodes, gchar **why) {
  g_auto(GStrv) items = g_strsplit(list, ";", -1);
  g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  OpClassModel one[OPCLASS_MAX] = {{.opcodes = (gchar *)opcodes}};
  for (guint i = 0; items[i] != NULL; i++) {
    g_autofree gchar *text = g_strstrip(g_strdup(items[i]));
    gchar *name = NULL;
    guint lat = 0, iv = 0;
    const gchar *wrong = NULL;
    if (!timing_item(items[i], &name, &lat, &iv))
      wrong = "is not OPCODE[.MOD]:LATENCY:INTERVAL (latency 1..100000, interval 1..255 cycles)";
    g_autofree gchar *base = name ? g_strndup(name, strcspn(name, ".")) : NULL;
    if (wrong == NULL && opclass_lookup(one, base) == OPCLASS_MAX)
      wrong = "names an opcode that is not in this class's opcodes";
    else if (wrong == NULL && g_hash_table_contains(seen, name))
      wrong = "repeats an earlier item's opcode";
    if (wrong != NULL) {
      *why = g_strdup_printf("item %u '%s' %s", i + 1, text, wrong);
      g_free(name);
      return FALSE;
    }
    g_hash_table_add(seen, name);
  }
  return TRUE;
}
