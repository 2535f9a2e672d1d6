/* sassspan.c - bounding a register's values from the listing's arithmetic:
 * a global atomic's words, a MATCH key's values (sassspan.h). */
#include "sass/sassspan.h"

#include <math.h>
#include <string.h>

static gboolean is_predicate(const gchar *tok) {
  const gchar *p = tok[0] == '!' ? tok + 1 : tok;
  if (p[0] == 'U')
    p++;
  return p[0] == 'P' && (p[1] == 'T' || g_ascii_isdigit(p[1]));
}

/* The value operands of `in` after its opcode, trimmed, ".reuse" dropped:
 * predicates (a carry out, a carry in, a LOP3's predicate result) and the
 * guard and trailing ';' are left out, so IADD3 R16, P1, R10, UR10, RZ gives
 * R16, R10, UR10, RZ. */
static GStrv operands(const SassInstr *in) {
  const gchar *p = in->text;
  while (*p == ' ')
    p++;
  if (*p == '@')
    p += strcspn(p, " ");
  while (*p == ' ')
    p++;
  p += strcspn(p, " "); /* the mnemonic */
  g_autofree gchar *rest = g_strdup(p);
  gchar *semi = strchr(rest, ';');
  if (semi)
    *semi = '\0';
  g_auto(GStrv) ops = g_strsplit(rest, ",", -1);
  GPtrArray *out = g_ptr_array_new();
  for (guint k = 0; ops[k] != NULL; k++) {
    gchar *tok = g_strstrip(ops[k]);
    gchar *reuse = strstr(tok, ".reuse");
    if (reuse)
      *reuse = '\0';
    if (*tok != '\0' && !is_predicate(tok))
      g_ptr_array_add(out, g_strdup(tok));
  }
  g_ptr_array_add(out, NULL);
  return (GStrv)g_ptr_array_free(out, FALSE);
}

/* `tok` as a register of `file` (R or UR): its index, .64 allowed; FALSE for
 * anything else (RZ and URZ included). */
static gboolean reg_of(const gchar *tok, SassRegFile file, guint8 *index) {
  const gchar *p = tok;
  if (file == SASS_REG_UR) {
    if (p[0] != 'U')
      return FALSE;
    p++;
  }
  if (p[0] != 'R' || !g_ascii_isdigit(p[1]))
    return FALSE;
  gchar *end = NULL;
  guint64 v = g_ascii_strtoull(p + 1, &end, 10);
  if (v > 254 || (*end != '\0' && strcmp(end, ".64") != 0))
    return FALSE;
  *index = (guint8)v;
  return TRUE;
}

static gboolean is_zero(const gchar *tok) {
  return strcmp(tok, "RZ") == 0 || strcmp(tok, "URZ") == 0;
}

/* `tok` as an unsigned immediate ("0x3fc", "24"). */
static gboolean imm_of(const gchar *tok, guint64 *v) {
  if (!g_ascii_isdigit(tok[0]))
    return FALSE;
  gchar *end = NULL;
  *v = g_ascii_strtoull(tok, &end, 0);
  return *end == '\0';
}

/* Index of the nearest instruction before i in i's basic block that writes
 * `r`, or -1 (none in the block, or a branch between: another block). */
static gint nearest_write(const SassFunction *fn, guint i, const SassReg *r) {
  gint64 lead = sass_block_start(fn, i);
  for (guint j = i; j-- > 0 && (gint64)fn->ins[j].offset >= lead;) {
    const SassInstr *in = &fn->ins[j];
    if (in->target >= 0)
      return -1;
    for (guint d = 0; d < in->n_dst; d++)
      if (sass_reg_overlaps(&in->dst[d], r))
        return (gint)j;
  }
  return -1;
}

/* Largest unsigned 32-bit value of register `tok` (or an immediate) just
 * before instruction i, following at most `depth` definitions (sassspan.h
 * lists the forms followed); *max may be written when FALSE. */
static gboolean value_max(const SassFunction *fn, guint i, const gchar *tok, guint depth,
                          guint64 *max) {
  if (imm_of(tok, max))
    return *max <= G_MAXUINT32;
  if (is_zero(tok)) {
    *max = 0;
    return TRUE;
  }
  SassReg r = {SASS_REG_R, 0, 1};
  if (depth == 0 || !reg_of(tok, SASS_REG_R, &r.index))
    return FALSE;
  gint j = nearest_write(fn, i, &r);
  if (j < 0)
    return FALSE;
  const SassInstr *d = &fn->ins[j];
  if (d->guard >= 0)
    return FALSE; /* written on some lanes only */
  g_auto(GStrv) o = operands(d);
  guint n = g_strv_length(o);
  guint64 a = 0, k = 0;
  if (n < 2 || !reg_of(o[0], SASS_REG_R, &r.index))
    return FALSE;
  if (sass_op_is(d, "LOP3") && strcmp(d->mods, ".LUT") == 0 && n >= 5 && imm_of(o[4], &k) &&
      k == 0xc0 && is_zero(o[3])) {
    /* a & b: at most the smaller bound, one of them an immediate */
    guint64 b = 0;
    gboolean ka = value_max(fn, (guint)j, o[1], depth - 1, &a);
    gboolean kb = value_max(fn, (guint)j, o[2], depth - 1, &b);
    *max = ka && kb ? MIN(a, b) : ka ? a : b;
    return (ka && imm_of(o[1], &a)) || (kb && imm_of(o[2], &b)) || (ka && kb);
  }
  if (sass_op_is(d, "SHF") && strcmp(d->mods, ".R.U32.HI") == 0 && n == 4 && is_zero(o[1]) &&
      imm_of(o[2], &k) && k < 32) {
    *max = value_max(fn, (guint)j, o[3], depth - 1, &a) ? a >> k : G_MAXUINT32 >> k;
    return TRUE;
  }
  if (((sass_op_is(d, "IMAD") && strcmp(d->mods, ".SHL.U32") == 0) ||
       (sass_op_is(d, "SHF") && strcmp(d->mods, ".L.U32") == 0)) &&
      n == 4 && is_zero(o[3]) && imm_of(o[2], &k) && value_max(fn, (guint)j, o[1], depth - 1, &a)) {
    guint64 v = sass_op_is(d, "SHF") ? (k < 32 ? a << k : G_MAXUINT64) : a * k;
    *max = v;
    return k < 32 && a <= G_MAXUINT32 && v <= G_MAXUINT32;
  }
  if (sass_op_is(d, "IMAD") && strcmp(d->mods, ".MOV.U32") == 0 && n == 4 && is_zero(o[1]) &&
      is_zero(o[2]))
    return value_max(fn, (guint)j, o[3], depth - 1, max);
  if (sass_op_is(d, "MOV") && *d->mods == '\0' && n == 2)
    return value_max(fn, (guint)j, o[1], depth - 1, max);
  return FALSE;
}

/* The last instruction whose writes can reach instruction i: i itself, or
 * the latest back edge at or after i that branches to i or before it (a
 * write later in a loop around i reaches it through the back edge). */
static guint reach_end(const SassFunction *fn, guint i) {
  guint end = i;
  for (guint t = i; t < fn->n; t++)
    if (sass_is_back_edge(&fn->ins[t]) && fn->ins[t].target <= (gint64)fn->ins[i].offset)
      end = t;
  return end;
}

/* TRUE when register `tok` (of `file`, the low word of a pair) holds a kernel
 * parameter at instruction i: every write to it or the word after it that can
 * reach i (any before i, and those after it inside a loop around it,
 * reach_end) is an LDC.64 / ULDC.64 of one constant-bank-0 word, and there
 * is one.  (The listing's decoder records a .64 load's destination as its
 * first register: the .64 is on the opcode.) */
static gboolean is_param(const SassFunction *fn, guint i, const gchar *tok, SassRegFile file) {
  SassReg r = {file, 0, 2};
  if (!reg_of(tok, file, &r.index))
    return FALSE;
  const gchar *word = NULL;
  guint end = reach_end(fn, i);
  for (guint j = 0; j <= end; j++) {
    const SassInstr *in = &fn->ins[j];
    for (guint d = 0; d < in->n_dst; d++) {
      if (!sass_reg_overlaps(&in->dst[d], &r))
        continue;
      if (!(sass_op_is(in, "LDC") || sass_op_is(in, "ULDC")) || strcmp(in->mods, ".64") != 0 ||
          in->guard >= 0 || in->dst[d].index != r.index)
        return FALSE;
      const gchar *c = strstr(in->text, "c[0x0][");
      const gchar *close = c ? strchr(c, ']') : NULL;
      const gchar *close2 = close ? strchr(close + 1, ']') : NULL;
      if (close2 == NULL || (word != NULL && strncmp(word, c, (gsize)(close2 - c + 1)) != 0))
        return FALSE;
      word = c;
    }
  }
  return word != NULL;
}

/* TRUE when the high word `hi` (a register index) of the address is written,
 * nearest before instruction i, as the carry add of base high word `base_hi`
 * alone (IMAD.X hi, RZ, RZ, URb+1, P / IADD3.X hi, RZ, URb+1, RZ, P, !PT), or
 * by LEA.HI.X from the offset `x` and base_hi. */
static gboolean carry_of_base(const SassFunction *fn, guint i, guint8 hi, const gchar *base_hi,
                              const gchar *x) {
  SassReg r = {SASS_REG_R, hi, 1};
  gint j = nearest_write(fn, i, &r);
  if (j < 0)
    return FALSE;
  const SassInstr *d = &fn->ins[j];
  if (d->guard >= 0 || !(strcmp(d->mods, ".X") == 0 || strcmp(d->mods, ".HI.X") == 0) ||
      !(sass_op_is(d, "IMAD") || sass_op_is(d, "IADD3") || sass_op_is(d, "LEA")))
    return FALSE;
  g_auto(GStrv) o = operands(d);
  gboolean base = FALSE;
  for (guint k = 1; o[k] != NULL; k++) {
    guint64 v = 0;
    if (strcmp(o[k], base_hi) == 0)
      base = TRUE;
    else if (!(is_zero(o[k]) ||
               (sass_op_is(d, "LEA") && (strcmp(o[k], x) == 0 || imm_of(o[k], &v)))))
      return FALSE;
  }
  return base;
}

/* The register file `tok` names if it is a register: UR for "UR...", else R. */
static SassRegFile file_of(const gchar *tok) {
  return tok[0] == 'U' ? SASS_REG_UR : SASS_REG_R;
}

/* The register after `tok`'s (R10 -> "R11", UR10 -> "UR11"), newly
 * allocated; "" when `tok` is no register. */
static gchar *next_reg(const gchar *tok) {
  guint8 index = 0;
  if (!reg_of(tok, file_of(tok), &index))
    return g_strdup("");
  return g_strdup_printf("%sR%u", file_of(tok) == SASS_REG_UR ? "U" : "", index + 1u);
}

/* TRUE when the low word written by instruction j (an add of `base` and
 * `off`) is a kernel parameter plus an offset the listing bounds, its
 * largest value in *x, and the high word `hi` read by atomic i is the
 * parameter's high word plus the carry (carry_of_base): the IADD3 and LEA
 * forms of sassspan_atomic_words. */
static gboolean param_plus_offset(const SassFunction *fn, guint i, guint j, guint8 hi,
                                  const gchar *base, const gchar *off, guint64 *x) {
  g_autofree gchar *base_hi = next_reg(base);
  return is_param(fn, j, base, file_of(base)) && value_max(fn, j, off, SASSSPAN_MAX_DEPTH, x) &&
         carry_of_base(fn, i, hi, base_hi, off);
}

guint64 sassspan_atomic_words(const SassFunction *fn, guint i, guint word_bytes) {
  const SassInstr *at = &fn->ins[i];
  const gchar *open = strrchr(at->text, '[');
  if (open == NULL || word_bytes == 0)
    return 0;
  g_autofree gchar *addr = g_strndup(open + 1, strcspn(open + 1, "+]"));
  SassReg lo = {SASS_REG_R, 0, 1};
  if (!g_str_has_suffix(addr, ".64") || !reg_of(addr, SASS_REG_R, &lo.index))
    return 0;
  gint j = nearest_write(fn, i, &lo);
  if (j < 0 || fn->ins[j].guard >= 0)
    return 0;
  const SassInstr *d = &fn->ins[j];
  g_auto(GStrv) o = operands(d);
  guint n = g_strv_length(o);
  guint64 x = 0, k = 0, span = 0;
  gboolean found = FALSE;
  guint8 hi = (guint8)(lo.index + 1); /* the address's high word */
  gboolean wide =
      sass_op_is(d, "IMAD") && (strcmp(d->mods, ".WIDE.U32") == 0 || strcmp(d->mods, ".WIDE") == 0);
  if (wide && n == 4 && imm_of(o[2], &k) && is_param(fn, (guint)j, o[3], SASS_REG_R) &&
      value_max(fn, (guint)j, o[1], SASSSPAN_MAX_DEPTH, &x) &&
      (strcmp(d->mods, ".WIDE.U32") == 0 || x <= G_MAXINT32)) {
    span = x * k; /* X x IMM + B: the pair is written whole, no carry to check */
    found = TRUE;
  } else if (sass_op_is(d, "IADD3") && *d->mods == '\0' && n == 4 && is_zero(o[3])) {
    /* IADD3 lo, P, X, B, RZ (either order), then the carry into the high word */
    for (guint b = 1; b <= 2 && !found; b++) {
      found = param_plus_offset(fn, i, (guint)j, hi, o[b], o[3 - b], &x);
      span = x;
    }
  } else if (sass_op_is(d, "LEA") && *d->mods == '\0' && n == 4 && imm_of(o[3], &k) && k < 32) {
    /* LEA lo, P, X, B, K: (X << K) + B, LEA.HI.X for the high word */
    found = param_plus_offset(fn, i, (guint)j, hi, o[2], o[1], &x);
    span = x << k;
  }
  return found ? span / word_bytes + 1 : 0;
}

gboolean sassspan_operand_max(const SassFunction *fn, guint i, guint k, guint64 *max) {
  g_auto(GStrv) o = operands(&fn->ins[i]);
  guint64 v = 0;
  if (k >= g_strv_length(o) || !value_max(fn, i, o[k], SASSSPAN_MAX_DEPTH, &v))
    return FALSE;
  *max = v;
  return TRUE;
}

gdouble sassspan_expected_distinct(guint64 values, gdouble lanes) {
  if (values == 0)
    return lanes;
  gdouble v = (gdouble)values;
  return v * -expm1(lanes * log1p(-1.0 / v));
}
