/* sass_operand.c - a SASS instruction's operands: registers read and written,
 * their widths and roles by opcode (see sass_operand.h). */
#include "sass/sass_operand.h"

#include <stdlib.h>
#include <string.h>

/* ---- operands -------------------------------------------------------------- */

/* Add a register found to in's destinations (`dst`) or sources, while there
 * is room. */
static void sink_add(SassInstr *in, gboolean dst, guint8 file, guint index, guint count) {
  SassReg r = {file, (guint8)index, (guint8)count};
  if (dst && in->n_dst < SASS_MAX_DST)
    in->dst[in->n_dst++] = r;
  else if (!dst && in->n_src < SASS_MAX_SRC)
    in->src[in->n_src++] = r;
}

/* Width in registers of a ".64"/".128" suffix at p (after the register). */
static guint span_of(const gchar *p) {
  if (g_str_has_prefix(p, ".64"))
    return 2;
  if (g_str_has_prefix(p, ".128"))
    return 4;
  return 1;
}

/* Parse one register token at *pp (R12, P0, UR4, UP1, RZ, PT...); advance.
 * Returns the file, or SASS_REG_MAX when it is no register (or a zero/true
 * register, which is no dependency: *zero set). */
gint sass_reg_token(const gchar **pp, guint *index, gboolean *zero) {
  const gchar *p = *pp;
  gint file = -1;
  *zero = FALSE;
  if (p[0] == 'U' && p[1] == 'R') {
    file = SASS_REG_UR;
    p += 2;
  } else if (p[0] == 'U' && p[1] == 'P') {
    file = SASS_REG_UP;
    p += 2;
  } else if (p[0] == 'R') {
    file = SASS_REG_R;
    p += 1;
  } else if (p[0] == 'P') {
    file = SASS_REG_P;
    p += 1;
  } else {
    return -1;
  }
  if ((file == SASS_REG_R || file == SASS_REG_UR) && *p == 'Z') {
    *zero = TRUE;
    p++;
  } else if ((file == SASS_REG_P || file == SASS_REG_UP) && *p == 'T') {
    *zero = TRUE;
    p++;
  } else if (g_ascii_isdigit(*p)) {
    gchar *end = NULL;
    *index = (guint)MIN(g_ascii_strtoull(p, &end, 10), (guint64)G_MAXUINT); /* R4294967296 */
    p = end;
  } else {
    return -1;
  }
  if (g_ascii_isalnum(*p) || *p == '_')
    return -1; /* e.g. a name like PT_X or RZERO: not a register */
  *pp = p;
  return file;
}

guint sass_reg_max(gint file) {
  return file == SASS_REG_R ? 254 : file == SASS_REG_UR ? 62 : 6;
}

gboolean sass_operands_check(const gchar *ops, gchar **bad) {
  for (const gchar *p = ops; *p; p++) {
    if (p != ops && (g_ascii_isalnum(p[-1]) || p[-1] == '_' || p[-1] == '.'))
      continue;
    guint index = 0;
    gboolean zero = FALSE;
    const gchar *q = p;
    gint file = sass_reg_token(&q, &index, &zero);
    if (file < 0)
      continue;
    if (!zero && index > sass_reg_max(file)) {
      *bad = g_strndup(p, (gsize)(q - p));
      return FALSE;
    }
    p = q - 1;
  }
  return TRUE;
}

gboolean sass_operands_balanced(const gchar *ops) {
  gint depth = 0;
  for (const gchar *p = ops; *p; p++) {
    depth += *p == '[' ? 1 : *p == ']' ? -1 : 0;
    if (depth < 0 || depth > 1)
      return FALSE;
  }
  return depth == 0;
}

/* Registers inside brackets ([R2.64+0x10], desc[UR4][R2.64], c[0x0][UR4]):
 * address operands, always read. */
static void bracket_regs(SassInstr *in, const gchar *op) {
  for (const gchar *p = op; *p; p++) {
    if (p != op && (g_ascii_isalnum(p[-1]) || p[-1] == '_' || p[-1] == '.'))
      continue;
    guint index = 0;
    gboolean zero;
    const gchar *q = p;
    gint file = sass_reg_token(&q, &index, &zero);
    if (file < 0)
      continue;
    if (!zero)
      sink_add(in, FALSE, (guint8)file, index, span_of(q));
    p = q - 1;
  }
}

/* One operand: its register (added to dst or src with `width` registers
 * unless it says .64/.128 itself), or the registers inside its brackets.
 * Returns the register file found at top level, -1 when none. */
static gint operand(SassInstr *in, const gchar *op, gboolean dst, guint width) {
  while (*op == '-' || *op == '!' || *op == '|' || *op == '~')
    op++;
  if (strchr(op, '[') != NULL) {
    bracket_regs(in, op);
    return -1;
  }
  guint index = 0;
  gboolean zero;
  const gchar *q = op;
  gint file = sass_reg_token(&q, &index, &zero);
  if (file < 0)
    return -1;
  if (!zero) {
    guint span = span_of(q);
    sink_add(in, dst, (guint8)file, index, span > 1 ? span : width);
  }
  return file;
}

/* The register file of a plain register operand ("R5", "UR4.64", "PT"), or -1. */
static gint reg_file_of(const gchar *op) {
  guint index = 0;
  gboolean zero;
  return sass_reg_token(&op, &index, &zero);
}

/* ---- opcode knowledge (operand roles; timing lives in the model file) ---- */

gboolean sass_opcode_in(const gchar *op, const gchar *const *set) {
  for (guint i = 0; set[i]; i++)
    if (strcmp(op, set[i]) == 0)
      return TRUE;
  return FALSE;
}

/* Opcodes with no register destination: their first operand is read. */
static const gchar *const no_dst[] = {
    "STG",     "STS",       "STL",     "ST",        "STSM",     "RED",    "REDG",
    "REDS",    "BRA",       "BRX",     "JMP",       "JMX",      "EXIT",   "RET",
    "CALL",    "BAR",       "BSSY",    "BSYNC",     "WARPSYNC", "NOP",    "DEPBAR",
    "MEMBAR",  "ERRBAR",    "CCTL",    "CCTLL",     "YIELD",    "BPT",    "KILL",
    "BREAK",   "WARPGROUP", "FENCE",   "ARRIVES",   "SYNCS",    "UBLKCP", "UTMALDG",
    "UTMASTG", "UTMAPF",    "ACQBULK", "NANOSLEEP", "BMOV",     NULL};

/* Compares and predicate logic: two predicate destinations, then sources. */
static const gchar *const two_pred_dst[] = {"ISETP",  "FSETP", "DSETP",  "HSETP2",
                                            "PSETP",  "PLOP3", "UISETP", "UPLOP3",
                                            "UPSETP", "FCHK",  NULL};

/* Carry-out predicates may follow the register destination. */
static const gchar *const carry_out[] = {"IADD3", "LEA", "UIADD3", "ULEA", "IADD", "LEA.HI", NULL};

/* Registers per value moved, from the opcode's size modifier (.64/.128,
 * LDSM's .4/.2), for memory data operands. */
static guint data_width(const SassInstr *in) {
  if (strstr(in->mods, ".128") != NULL)
    return 4;
  if (strstr(in->mods, ".64") != NULL)
    return 2;
  if (strcmp(in->opcode, "LDSM") == 0)
    return g_str_has_suffix(in->mods, ".4") ? 4 : g_str_has_suffix(in->mods, ".2") ? 2 : 1;
  return 1;
}

static gboolean is_memory_data(const gchar *op) {
  static const gchar *const mem[] = {"LDG", "LDS",  "LDL",   "LD",    "LDSM", "STG",  "STS", "STL",
                                     "ST",  "ATOM", "ATOMG", "ATOMS", "RED",  "REDG", NULL};
  return sass_opcode_in(op, mem);
}

/* Split operands at top-level commas and assign dst/src roles. */
void sass_operands_decode(SassInstr *in, const gchar *ops) {
  g_auto(GStrv) parts = g_strsplit(ops, ",", -1);
  guint n = 0;
  for (guint i = 0; parts[i]; i++) { /* non-empty ones first; swapped: each freed once */
    g_strstrip(parts[i]);
    if (*parts[i]) {
      gchar *empty = parts[n];
      parts[n++] = parts[i];
      parts[i] = empty;
    }
  }
  gboolean fp64 = in->opcode[0] == 'D' && strcmp(in->opcode, "DEPBAR") != 0;
  gboolean wide = strstr(in->mods, ".WIDE") != NULL;
  guint mem_w = is_memory_data(in->opcode) ? data_width(in) : 1;
  guint first_src = 0;
  if (n > 0 && !sass_opcode_in(in->opcode, no_dst)) {
    if (sass_opcode_in(in->opcode, two_pred_dst)) {
      operand(in, parts[0], TRUE, 1);
      if (n > 1)
        operand(in, parts[1], TRUE, 1);
      first_src = MIN(2u, n);
    } else {
      guint w = fp64 || wide ? 2 : mem_w;
      gint f = operand(in, parts[0], TRUE, w);
      first_src = 1;
      if ((f == SASS_REG_P || f == SASS_REG_UP) && n > 1 && reg_file_of(parts[1]) >= 0 &&
          reg_file_of(parts[1]) != SASS_REG_P && reg_file_of(parts[1]) != SASS_REG_UP) {
        /* LOP3.LUT P1, R10, ... and SHFL.BFLY PT, R5, ...: the predicate, then the register */
        operand(in, parts[1], TRUE, w);
        first_src = 2;
      } else if ((f == SASS_REG_R || f == SASS_REG_UR) && sass_opcode_in(in->opcode, carry_out)) {
        while (first_src < n && (g_str_has_prefix(parts[first_src], "P") ||
                                 g_str_has_prefix(parts[first_src], "UP")))
          operand(in, parts[first_src++], TRUE, 1);
      }
    }
  }
  for (guint i = first_src; i < n; i++) {
    guint w = fp64 ? 2 : 1;
    if (is_memory_data(in->opcode) && strchr(parts[i], '[') == NULL)
      w = mem_w; /* a store's data register(s) */
    if (wide && i == n - 1)
      w = 2; /* IMAD.WIDE's addend */
    operand(in, parts[i], FALSE, w);
  }
}
