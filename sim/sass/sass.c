/* sass.c - reading cuobjdump/nvdisasm SASS listings (see sass.h). */
#include "sass/sass.h"
#include "input/readfile.h"
#include "sass/sass_operand.h"

#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK(warpsim_sass_error, sass_error)

/* ---- control bits ---------------------------------------------------------- */

void sass_ctrl_decode(guint64 hi, SassCtrl *out) {
  out->stall = (guint8)((hi >> 41) & 0xf);
  out->yield = (guint8)((hi >> 45) & 0x1);
  out->write_sb = (guint8)((hi >> 46) & 0x7);
  out->read_sb = (guint8)((hi >> 49) & 0x7);
  out->wait_mask = (guint8)((hi >> 52) & 0x3f);
  out->reuse = (guint8)((hi >> 58) & 0xf);
}

gboolean sass_reg_overlaps(const SassReg *a, const SassReg *b) {
  return a->file == b->file && a->index < b->index + b->count && b->index < a->index + a->count;
}

gboolean sass_op_is(const SassInstr *in, const gchar *op) {
  return strcmp(in->opcode, op) == 0;
}

gboolean sass_is_branch(const SassInstr *in) {
  return sass_op_is(in, "BRA") || sass_op_is(in, "JMP");
}

gboolean sass_never(const SassInstr *in) {
  return in->guard < 0 && in->guard_neg;
}

/* BRA.DIV (taken when the warp's threads have diverged) and BRA.CONV (when
 * they have converged) test the warp, not a guard: conditional branches. */
gboolean sass_tests_convergence(const SassInstr *in) {
  return sass_is_branch(in) &&
         (strstr(in->mods, ".DIV") != NULL || strstr(in->mods, ".CONV") != NULL);
}

gboolean sass_always(const SassInstr *in) {
  return in->guard < 0 && !in->guard_neg && !sass_tests_convergence(in);
}

gboolean sass_is_cta_barrier(const SassInstr *in) {
  /* UCGABAR_WAIT (barrier.cluster.wait, cooperative_groups' cluster.sync)
   * waits until every thread of the cluster has arrived (PTX ISA,
   * barrier.cluster), so at least every warp of its own CTA: the model,
   * which simulates one SM, keeps that part (real12's dsmem) */
  if (sass_op_is(in, "UCGABAR_WAIT"))
    return TRUE;
  return sass_op_is(in, "BAR") && !strstr(in->mods, ".ARV") && !strstr(in->mods, ".RED");
}

gboolean sass_is_back_edge(const SassInstr *in) {
  return sass_is_branch(in) && in->target >= 0 && in->target < (gint64)in->offset &&
         !sass_never(in);
}

/* ---- names ----------------------------------------------------------------- */

static gchar *demangle(const gchar *mangled);

gchar *sass_name_key(const gchar *name) {
  g_autofree gchar *demangled = g_str_has_prefix(name, "_Z") ? demangle(name) : NULL;
  if (demangled != NULL)
    name = demangled;
  GString *s = g_string_new(NULL);
  gint depth = 0, paren = 0;
  for (const gchar *p = name; *p; p++) {
    if (*p == '<')
      depth++;
    else if (*p == '>')
      depth--;
    if (depth == 0 && *p == '(')
      break; /* the parameter list */
    if (depth > 0 && *p == '(') {
      paren++; /* a value cast inside template arguments: dropped */
      continue;
    }
    if (paren > 0) {
      if (*p == ')')
        paren--;
      continue;
    }
    if (depth == 0 && *p == ' ') {
      g_string_truncate(s, 0); /* what came before was the return type */
      continue;
    }
    if (*p != ' ')
      g_string_append_c(s, *p);
  }
  return g_string_free(s, FALSE);
}

/* The text inside the parameter list of `name` (demangled first when
 * mangled), NULL when it has none (Nsight Compute's --print-kernel-base
 * function).  Newly allocated. */
static gchar *params_text(const gchar *name) {
  g_autofree gchar *demangled = g_str_has_prefix(name, "_Z") ? demangle(name) : NULL;
  if (demangled != NULL)
    name = demangled;
  gint depth = 0;
  for (const gchar *p = name; *p; p++) {
    if (*p == '<' || *p == '>') {
      depth += *p == '<' ? 1 : -1;
      continue;
    }
    if (*p != '(' || depth != 0)
      continue;
    gint paren = 0;
    for (const gchar *q = p; *q; q++) {
      paren += *q == '(' ? 1 : (*q == ')' ? -1 : 0);
      if (paren == 0)
        return g_strndup(p + 1, q - p - 1);
    }
    return NULL;
  }
  return NULL;
}

/* One parameter type in one spelling, whichever demangler wrote it: its
 * type words, " const"/" volatile" of the base type (before or after it),
 * then each '*' or '&' with the qualifiers after it ("const float *" and
 * "float const*": "float const*").  "" (matches any) for a template
 * parameter as Nsight Compute prints it (T1, T2, ...) and for what is not
 * a plain type (a function pointer, an array, a word after a '*'). */
static gchar *param_canon(const gchar *text) {
  g_autoptr(GString) base = g_string_new(NULL);
  g_autoptr(GString) ptr = g_string_new(NULL);
  gboolean base_const = FALSE, base_volatile = FALSE, plain = TRUE;
  for (const gchar *s = text; *s && plain;) {
    if (g_ascii_isspace(*s)) {
      s++;
    } else if (*s == '*' || *s == '&') {
      g_string_append_c(ptr, *s++);
    } else if (g_ascii_isalnum(*s) || *s == '_' || *s == ':') {
      g_autoptr(GString) word = g_string_new(NULL);
      for (gint depth = 0; *s && (depth > 0 || g_ascii_isalnum(*s) || strchr("_:<", *s)); s++) {
        depth += *s == '<' ? 1 : (*s == '>' ? -1 : 0);
        if (!g_ascii_isspace(*s))
          g_string_append_c(word, *s);
      }
      gboolean cv = strcmp(word->str, "const") == 0 || strcmp(word->str, "volatile") == 0;
      if (cv && ptr->len > 0)
        g_string_append_printf(ptr, " %s", word->str);
      else if (cv)
        *(word->str[0] == 'c' ? &base_const : &base_volatile) = TRUE;
      else if (ptr->len > 0)
        plain = FALSE;
      else
        g_string_append_printf(base, "%s%s", base->len ? " " : "", word->str);
    } else {
      plain = FALSE;
    }
  }
  gboolean template_param = base->str[0] == 'T' && base->str[1] != '\0' &&
                            strspn(base->str + 1, "0123456789") == base->len - 1;
  if (!plain || template_param || base->len == 0)
    return g_strdup("");
  return g_strdup_printf("%s%s%s%s", base->str, base_const ? " const" : "",
                         base_volatile ? " volatile" : "", ptr->str);
}

/* The parameters of `name` in param_canon's spelling ("(void)": none), or
 * NULL when it has no parameter list. */
static GPtrArray *name_params(const gchar *name) {
  g_autofree gchar *text = params_text(name);
  if (text == NULL)
    return NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
  g_autofree gchar *stripped = g_strstrip(g_strdup(text));
  if (*stripped == '\0' || strcmp(stripped, "void") == 0)
    return out;
  gint depth = 0;
  const gchar *start = text;
  for (const gchar *p = text;; p++) {
    if (*p == '\0' || (*p == ',' && depth == 0)) {
      g_autofree gchar *one = g_strndup(start, p - start);
      g_ptr_array_add(out, param_canon(one));
      if (*p == '\0')
        break;
      start = p + 1;
    }
    if (*p == '<' || *p == '(')
      depth++;
    else if (*p == '>' || *p == ')')
      depth--;
  }
  return out;
}

gboolean sass_name_same_params(const gchar *a, const gchar *b) {
  g_autoptr(GPtrArray) pa = name_params(a);
  g_autoptr(GPtrArray) pb = name_params(b);
  if (pa == NULL || pb == NULL)
    return TRUE;
  if (pa->len != pb->len)
    return FALSE;
  for (guint i = 0; i < pa->len; i++) {
    const gchar *x = g_ptr_array_index(pa, i), *y = g_ptr_array_index(pb, i);
    if (*x != '\0' && *y != '\0' && strcmp(x, y) != 0)
      return FALSE;
  }
  return TRUE;
}

static gchar *demangle(const gchar *mangled) {
  char *d = cplus_demangle(mangled, DMGL_PARAMS | DMGL_ANSI);
  if (d == NULL)
    return g_strdup(mangled);
  gchar *r = g_strdup(d);
  free(d);
  return r;
}

/* ---- listing --------------------------------------------------------------- */

typedef struct {
  gchar *name;
  guint arch;
  gchar arch_suffix; /* 'a', 'f' or 0 */
  guint line;
  GArray *ins;       /* SassInstr */
  GHashTable *label; /* label name -> offset + 1 */
  GPtrArray *fixups; /* (index, label) pairs for branch targets given as labels */
} RawFunction;

static void raw_free(gpointer p) {
  RawFunction *f = p;
  for (guint i = 0; f->ins && i < f->ins->len; i++) {
    SassInstr *in = &g_array_index(f->ins, SassInstr, i);
    g_free(in->opcode);
    g_free(in->mods);
    g_free(in->text);
  }
  if (f->ins)
    g_array_free(f->ins, TRUE);
  if (f->label)
    g_hash_table_destroy(f->label);
  if (f->fixups)
    g_ptr_array_free(f->fixups, TRUE);
  g_free(f->name);
  g_free(f);
}

static RawFunction *raw_new(const gchar *name, guint arch, gchar suffix, guint line) {
  RawFunction *f = g_new0(RawFunction, 1);
  f->name = g_strdup(name);
  f->arch = arch;
  f->arch_suffix = suffix;
  f->line = line;
  f->ins = g_array_new(FALSE, TRUE, sizeof(SassInstr));
  f->label = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  f->fixups = g_ptr_array_new_with_free_func(g_free);
  return f;
}

/* The architectures whose listings this parser reads: 128-bit instructions
 * with the control bits where sass.h says.  sm_80 .. sm_90: checked on the
 * H200 listings and the sm_8x listings of results/reference/.  sm_100:
 * NVIDIA's CUDA Binary Utilities manual prints an sm_100 cuobjdump sample
 * whose control words decode the same way (S2R, S2UR, LDC and LDCU set write
 * barriers 0 and 1, stall counts 1..8).  sm_120/sm_121: the reprospect
 * project's annotated sm_120 cuobjdump output (`&wr=0x1 ?trans7` beside
 * 0x000e6e0000002100: write barrier 1, stall 7 under this decoding); sm_121
 * code is byte-identical to sm_120's (an NVIDIA forum comparison of both).
 * sm_103 and sm_110 are unchecked and refused. */
/* The architectures whose listings are read (SASS_ARCHS). */
static const guint read_archs[] = {80, 86, 87, 89, 90, 100, 120, 121};

static gboolean arch_supported(guint arch) {
  for (guint i = 0; i < G_N_ELEMENTS(read_archs); i++)
    if (arch == read_archs[i])
      return TRUE;
  return FALSE;
}

/* An architecture number past any there is ("sm_4294967386" must not wrap
 * to a supported 90). */
#define ARCH_TOO_LARGE 10000u

/* The decimal number at `p` ("90" of "90a"), ARCH_TOO_LARGE from it on;
 * *suffix gets the letter after it when it is 'a' (arch-specific: sm_90a)
 * or 'f' (family-specific: sm_100f), else 0. */
static guint arch_number(const gchar *p, gchar *suffix) {
  gchar *end = NULL;
  guint64 v = g_ascii_strtoull(p, &end, 10);
  gchar c = g_ascii_tolower(*end);
  *suffix = (c == 'a' || c == 'f') && !g_ascii_isalnum(end[1]) ? c : 0;
  return v >= ARCH_TOO_LARGE ? ARCH_TOO_LARGE : (guint)v;
}

/* "sm_90" / "sm_90a" / "EF_CUDA_SM90" anywhere in `line`: the arch (and
 * its suffix, as arch_number), else 0. */
static guint arch_in_line(const gchar *line, gchar *suffix) {
  const gchar *p = strstr(line, "code for sm_");
  *suffix = 0;
  if (p == NULL)
    p = strstr(line, ".target\tsm_");
  if (p == NULL)
    p = strstr(line, ".target sm_");
  if (p == NULL)
    p = strstr(line, "arch = sm_");
  if (p != NULL)
    return arch_number(strstr(p, "sm_") + 3, suffix);
  p = strstr(line, "EF_CUDA_SM");
  if (p != NULL && g_ascii_isdigit(p[10]))
    return arch_number(p + 10, suffix);
  return 0;
}

typedef struct {
  const gchar *origin;
  GRegex *re_ins, *re_hi, *re_label;
  GRegex *re_bare; /* an instruction line, encoded or not */
} Parser;

/* The register numbers sass_reg_max allows, as error messages name them. */
#define SASS_REG_RANGES "R0..R254, UR0..UR62, P0..P6, UP0..UP6"

/* A .64/.128 operand's registers end within the file (R254.128 would
 * reach R257). */
static gboolean spans_ok(const SassInstr *in, const SassReg *r, guint n, const Parser *ps,
                         GError **error) {
  static const gchar *const names[] = {
      [SASS_REG_R] = "R", [SASS_REG_P] = "P", [SASS_REG_UR] = "UR", [SASS_REG_UP] = "UP"};
  for (guint i = 0; i < n; i++) {
    guint last = (guint)r[i].index + r[i].count - 1;
    if (last <= sass_reg_max(r[i].file))
      continue;
    g_set_error(error, SASS_ERROR, SASS_ERROR_PARSE,
                "%s:%u: registers %s%u..%s%u out of range in '%s' (allowed " SASS_REG_RANGES ")",
                ps->origin, in->line, names[r[i].file], r[i].index, names[r[i].file], last,
                in->text);
    return FALSE;
  }
  return TRUE;
}

/* The branch or call target `t` (the last operand of a BRA, JMP, BSSY,
 * CALL or SSY) into in->target, or a label fixup into f.  A register or
 * constant there (an indirect CALL) leaves in->target -1, as the model does
 * not follow calls; no target, or one that is neither an address nor a
 * label, is SASS_ERROR_PARSE: a branch without one would fall through. */
static gboolean read_target(SassInstr *in, const gchar *t, RawFunction *f, const Parser *ps,
                            GError **error) {
  gchar *end = NULL;
  if (g_str_has_prefix(t, "`(") && strchr(t, ')') != NULL) {
    g_ptr_array_add(f->fixups, g_strdup_printf("%u %s", f->ins->len, t + 2));
    gchar *fx = g_ptr_array_index(f->fixups, f->fixups->len - 1);
    *strchr(fx, ')') = '\0';
    return TRUE;
  }
  if (g_str_has_prefix(t, "0x") && g_ascii_isxdigit(t[2])) {
    guint64 v = g_ascii_strtoull(t, &end, 16);
    while (*end == ' ')
      end++;
    if (*end == '\0') {
      in->target = (gint64)MIN(v, (guint64)G_MAXINT64); /* past any function: refused */
      return TRUE;
    }
  }
  if (sass_op_is(in, "CALL") && (g_ascii_isupper(*t) || g_str_has_prefix(t, "c[")))
    return TRUE; /* indirect call */
  g_autofree gchar *what = *t ? g_strdup_printf("bad target '%s'", t) : g_strdup("no target");
  g_set_error(error, SASS_ERROR, SASS_ERROR_PARSE,
              "%s:%u: %s in '%s' (a %s needs a target address 0x... or a label `(.L_...))",
              ps->origin, in->line, what, in->text, in->opcode);
  return FALSE;
}

/* Decode the text of one instruction (after the offset, before ';'). */
static gboolean decode_text(SassInstr *in, const gchar *text, RawFunction *f, const Parser *ps,
                            GError **error) {
  const gchar *p = text;
  in->guard = -1;
  in->target = -1;
  if (*p == '@') {
    p++;
    if (*p == '!') {
      in->guard_neg = TRUE;
      p++;
    }
    guint index = 0;
    gboolean zero;
    gint file = sass_reg_token(&p, &index, &zero);
    if ((file != SASS_REG_P && file != SASS_REG_UP) || (!zero && index > sass_reg_max(file))) {
      g_set_error(error, SASS_ERROR, SASS_ERROR_PARSE,
                  "%s:%u: bad guard predicate in '%s' (allowed @P0..@P6, @PT, @UP0..@UP6 or @UPT, "
                  "each also as @!)",
                  ps->origin, in->line, text);
      return FALSE;
    }
    in->guard_file = (guint8)file;
    in->guard = zero ? -1 : (gint8)index;
    while (*p == ' ')
      p++;
  }
  const gchar *end = p;
  while (*end && *end != ' ')
    end++;
  g_autofree gchar *mnem = g_strndup(p, (gsize)(end - p));
  if (*mnem == '\0' || !g_ascii_isupper(*mnem)) {
    g_set_error(error, SASS_ERROR, SASS_ERROR_PARSE, "%s:%u: no opcode in '%s'", ps->origin,
                in->line, text);
    return FALSE;
  }
  gchar *dot = strchr(mnem, '.');
  in->opcode = dot ? g_strndup(mnem, (gsize)(dot - mnem)) : g_strdup(mnem);
  in->mods = g_strdup(dot ? dot : "");
  in->text = g_strdup(text);
  const gchar *ops = end;
  while (*ops == ' ')
    ops++;
  /* Branch and call targets: a hex offset, or `(.L_x_3) in nvdisasm output
   * (BREAK B1 names a convergence barrier, not a target). */
  static const gchar *const branches[] = {"BRA", "CALL", "BSSY", "JMP", "SSY", NULL};
  if (sass_opcode_in(in->opcode, branches)) {
    const gchar *t = strrchr(ops, ',');
    t = t ? t + 1 : ops;
    while (*t == ' ')
      t++;
    if (!read_target(in, t, f, ps, error))
      return FALSE;
  }
  if (!sass_operands_balanced(ops)) {
    g_set_error(error, SASS_ERROR, SASS_ERROR_PARSE,
                "%s:%u: brackets that do not pair up in '%s' (allowed: each '[' closed by ']' "
                "before the next opens, as in c[0x3][R12] or desc[UR4][R2.64])",
                ps->origin, in->line, text);
    return FALSE;
  }
  g_autofree gchar *bad = NULL;
  if (!sass_operands_check(ops, &bad)) {
    g_set_error(error, SASS_ERROR, SASS_ERROR_PARSE,
                "%s:%u: register '%s' out of range in '%s' (allowed " SASS_REG_RANGES ")",
                ps->origin, in->line, bad, text);
    return FALSE;
  }
  sass_operands_decode(in, ops);
  return spans_ok(in, in->dst, in->n_dst, ps, error) && spans_ok(in, in->src, in->n_src, ps, error);
}

static gboolean resolve_labels(RawFunction *f, const Parser *ps, GError **error) {
  for (guint i = 0; i < f->fixups->len; i++) {
    const gchar *fx = g_ptr_array_index(f->fixups, i);
    gchar *sp = strchr(fx, ' ');
    guint idx = (guint)strtoul(fx, NULL, 10);
    gpointer v = g_hash_table_lookup(f->label, sp + 1);
    SassInstr *in = &g_array_index(f->ins, SassInstr, idx);
    if (v == NULL) {
      g_set_error(error, SASS_ERROR, SASS_ERROR_PARSE, "%s:%u: unknown label '%s'", ps->origin,
                  in->line, sp + 1);
      return FALSE;
    }
    in->target = GPOINTER_TO_INT(v) - 1;
  }
  return TRUE;
}

/* The listing's lines (g_strfreev); NULL with SASS_ERROR_PARSE on binary data
 * or text that is not UTF-8 (GRegex matches UTF-8 only: other bytes would be
 * read as characters past Unicode's range). */
static gchar **listing_lines(const gchar *text, gsize len, const Parser *ps, GError **error) {
  g_autofree gchar *copy = g_strndup(text, len);
  const gchar *bad = NULL;
  if (memchr(text, '\0', len) != NULL) {
    g_set_error(error, SASS_ERROR, SASS_ERROR_PARSE,
                "%s:1: not a SASS listing (binary data; give the text of cuobjdump -sass)",
                ps->origin);
    return NULL;
  }
  /* (CR LF keeps its CR, which the line patterns take as trailing space) */
  readfile_lone_cr_to_lf(copy, len);
  if (!g_utf8_validate(copy, (gssize)len, &bad)) {
    guint line = 1;
    for (const gchar *p = copy; p < bad; p++)
      line += *p == '\n';
    g_set_error(error, SASS_ERROR, SASS_ERROR_PARSE,
                "%s:%u: not a SASS listing (byte 0x%02x is not UTF-8 text; give the text of "
                "cuobjdump -sass)",
                ps->origin, line, (guchar)*bad);
    return NULL;
  }
  return readfile_lines(copy, len); /* linear, under ASan too */
}

/* A new function when line `ln` (0-based) heads one: cuobjdump's
 * "Function : NAME" or nvdisasm's ".text.NAME:"; else NULL. */
static RawFunction *function_header(const gchar *line, guint arch, gchar suffix, guint ln) {
  const gchar *fn = strstr(line, "Function : ");
  if (fn != NULL) {
    g_autofree gchar *name = g_strstrip(g_strdup(fn + 11));
    return raw_new(name, arch, suffix, ln + 1);
  }
  g_autofree gchar *stripped = g_strstrip(g_strdup(line));
  if (g_str_has_prefix(stripped, ".text.") && g_str_has_suffix(stripped, ":")) {
    stripped[strlen(stripped) - 1] = '\0';
    return raw_new(stripped + 6, arch, suffix, ln + 1);
  }
  return NULL;
}

/* The label a line defines (".L_x_3:"), newly allocated; NULL when none. */
static gchar *label_of(const Parser *ps, const gchar *line) {
  g_autofree gchar *stripped = g_strstrip(g_strdup(line));
  g_autoptr(GMatchInfo) mi = NULL;
  return g_regex_match(ps->re_label, stripped, 0, &mi) ? g_match_info_fetch(mi, 1) : NULL;
}

/* Fill *in's line, offset, 128-bit encoding (this line's low word `lo`, the
 * next line's high word) and control bits; FALSE with SASS_ERROR_PARSE when
 * the high word is missing or the offset is not the next 16 bytes of cur. */
static gboolean read_encoding(gchar **lines, guint ln, const gchar *off, const gchar *lo,
                              const RawFunction *cur, const Parser *ps, SassInstr *in,
                              GError **error) {
  *in = (SassInstr){0};
  in->line = ln + 1;
  in->offset = (guint32)g_ascii_strtoull(off, NULL, 16);
  in->enc[0] = g_ascii_strtoull(lo, NULL, 16);
  g_autoptr(GMatchInfo) mh = NULL;
  if (lines[ln + 1] == NULL || !g_regex_match(ps->re_hi, lines[ln + 1], 0, &mh)) {
    g_set_error(error, SASS_ERROR, SASS_ERROR_PARSE,
                "%s:%u: instruction without the second (control) word of its 128-bit "
                "encoding (sm_70 and later; listings from cuobjdump -sass or nvdisasm -hex)",
                ps->origin, ln + 1);
    return FALSE;
  }
  g_autofree gchar *hi = g_match_info_fetch(mh, 1);
  in->enc[1] = g_ascii_strtoull(hi, NULL, 16);
  sass_ctrl_decode(in->enc[1], &in->ctrl);
  guint expect = cur->ins->len ? g_array_index(cur->ins, SassInstr, cur->ins->len - 1).offset +
                                     SASS_INSTR_BYTES
                               : 0;
  if (in->offset != expect) {
    g_set_error(error, SASS_ERROR, SASS_ERROR_PARSE,
                "%s:%u: instruction at offset 0x%x, expected 0x%x (16-byte instructions in "
                "order)",
                ps->origin, ln + 1, in->offset, expect);
    return FALSE;
  }
  return TRUE;
}

/* Whether `line` may be an instruction, encoded (re_ins) or not (re_bare):
 * both begin with the offset in a comment, so a line without one is
 * neither and no regular expression needs to run on it (most lines of a
 * listing with several functions are of no function asked for, yet each is
 * read). */
static gboolean maybe_instruction(const gchar *line) {
  return strstr(line, "/*") != NULL;
}

/* FALSE with SASS_ERROR_PARSE when line `ln` of function `cur` is an
 * instruction without its encoding ("/\*0040*\/ LDG.E R2, ... ;" and nothing
 * after: nvdisasm without -hex), whose control bits (stall counts,
 * scoreboards) the model needs; TRUE for any other line.  `encoded`: the
 * line matched re_ins. */
static gboolean encoded_or_not_instruction(const Parser *ps, const RawFunction *cur,
                                           const gchar *line, gboolean encoded, guint ln,
                                           GError **error) {
  if (cur == NULL || encoded || !maybe_instruction(line) ||
      !g_regex_match(ps->re_bare, line, 0, NULL))
    return TRUE;
  g_set_error(error, SASS_ERROR, SASS_ERROR_PARSE,
              "%s:%u: encodings missing at line %u (an nvdisasm listing without -hex; the "
              "model reads each instruction's control bits from its encoding): use `cuobjdump "
              "-sass` or `nvdisasm -hex`",
              ps->origin, ln + 1, ln + 1);
  return FALSE;
}

/* Parse every function of the listing into `funcs` (RawFunction). */
static gboolean parse_listing(const gchar *text, gsize len, Parser *ps, GPtrArray *funcs,
                              GError **error) {
  g_auto(GStrv) lines = listing_lines(text, len, ps, error);
  if (lines == NULL)
    return FALSE;
  guint arch = 0;
  gchar suffix = 0;
  RawFunction *cur = NULL;
  gchar *pending_label = NULL;
  for (guint ln = 0; lines[ln]; ln++) {
    const gchar *line = lines[ln];
    gchar sfx = 0;
    guint a = arch_in_line(line, &sfx);
    if (a && cur && strstr(line, "EF_CUDA_SM") != NULL) {
      /* cuobjdump prints the header flags after the name (they spell
       * sm_90a as EF_CUDA_SM90: the suffix of "code for" stays) */
      if (cur->arch != a)
        cur->arch_suffix = sfx;
      cur->arch = a;
    }
    if (a) {
      suffix = a == arch && sfx == 0 ? suffix : sfx;
      arch = a;
    }
    g_autoptr(GMatchInfo) mi = NULL; /* an encoded instruction's offset, text, low word */
    gboolean encoded = maybe_instruction(line) && g_regex_match(ps->re_ins, line, 0, &mi);
    if (!encoded_or_not_instruction(ps, cur, line, encoded, ln, error)) {
      g_free(pending_label);
      return FALSE;
    }
    RawFunction *head = function_header(line, arch, suffix, ln);
    if (head != NULL) {
      cur = head;
      g_ptr_array_add(funcs, cur);
      continue;
    }
    gchar *label = cur && strstr(line, ".L_") != NULL ? label_of(ps, line) : NULL;
    if (label != NULL) {
      g_free(pending_label);
      pending_label = label;
      g_hash_table_insert(cur->label, g_strdup(pending_label), GINT_TO_POINTER(0));
      continue;
    }
    if (!encoded)
      continue;
    g_autofree gchar *off = g_match_info_fetch(mi, 1);
    g_autofree gchar *body = g_match_info_fetch(mi, 2);
    g_autofree gchar *lo = g_match_info_fetch(mi, 3);
    if (cur == NULL) {
      g_set_error(error, SASS_ERROR, SASS_ERROR_PARSE,
                  "%s:%u: instruction before any function header", ps->origin, ln + 1);
      g_free(pending_label);
      return FALSE;
    }
    SassInstr in;
    if (!read_encoding(lines, ln, off, lo, cur, ps, &in, error)) {
      g_free(pending_label);
      return FALSE;
    }
    if (pending_label) {
      g_hash_table_insert(cur->label, pending_label, GINT_TO_POINTER((gint)in.offset + 1));
      pending_label = NULL;
    }
    if (!decode_text(&in, g_strstrip(body), cur, ps, error)) {
      g_free(in.opcode);
      g_free(in.mods);
      g_free(in.text);
      return FALSE;
    }
    g_array_append_val(cur->ins, in);
    ln++; /* the control word's line */
  }
  g_free(pending_label);
  for (guint i = 0; i < funcs->len; i++)
    if (!resolve_labels(g_ptr_array_index(funcs, i), ps, error))
      return FALSE;
  return TRUE;
}

static SassFunction *function_from_raw(RawFunction *r, const gchar *origin) {
  SassFunction *f = g_new0(SassFunction, 1);
  f->name = g_strdup(r->name);
  f->demangled = demangle(r->name);
  f->file = g_strdup(origin);
  f->arch = r->arch;
  f->arch_suffix = r->arch_suffix;
  f->line = r->line;
  f->n = r->ins->len;
  f->ins = (SassInstr *)g_array_free(r->ins, FALSE);
  r->ins = NULL;
  return f;
}

/* Pick the function: exact mangled name, else a unique demangled substring;
 * among several arch sections of one function, sm_90 first. */
static RawFunction *select_function(GPtrArray *funcs, const gchar *want, const gchar *origin,
                                    GError **error) {
  RawFunction *best = NULL;
  gboolean exact = FALSE;
  for (guint i = 0; i < funcs->len; i++) {
    RawFunction *r = g_ptr_array_index(funcs, i);
    g_autofree gchar *dm = demangle(r->name);
    gboolean is_exact = strcmp(r->name, want) == 0;
    gboolean match = is_exact || strstr(dm, want) != NULL;
    if (!match)
      continue;
    if (best != NULL && strcmp(best->name, r->name) != 0 && !(exact && !is_exact)) {
      if (is_exact && !exact) {
        best = r;
        exact = TRUE;
        continue;
      }
      GString *both = g_string_new(NULL);
      for (guint j = 0; j < funcs->len; j++) {
        RawFunction *q = g_ptr_array_index(funcs, j);
        g_autofree gchar *dq = demangle(q->name);
        if (strcmp(q->name, want) == 0 || strstr(dq, want) != NULL)
          g_string_append_printf(both, "%s'%s'", both->len ? ", " : "", dq);
      }
      g_set_error(error, SASS_ERROR, SASS_ERROR_FUNCTION,
                  "%s: function '%s' matches several functions: %s (give more of the name or "
                  "the mangled name)",
                  origin, want, both->str);
      g_string_free(both, TRUE);
      return NULL;
    }
    if (best == NULL || (best->arch != 90 && (r->arch == 90 || !arch_supported(best->arch)))) {
      best = r;
      exact = is_exact;
    }
  }
  if (best == NULL) {
    GString *all = g_string_new(NULL);
    for (guint i = 0; i < funcs->len; i++) {
      RawFunction *r = g_ptr_array_index(funcs, i);
      g_autofree gchar *dm = demangle(r->name);
      g_string_append_printf(all, "%s%s (%s)", all->len ? ", " : "", r->name, dm);
    }
    g_set_error(error, SASS_ERROR, SASS_ERROR_FUNCTION,
                "%s: no function matches '%s' (functions found: %s)", origin, want,
                all->len ? all->str : "none");
    g_string_free(all, TRUE);
    return NULL;
  }
  return best;
}

/* What to give instead of a listing model `model_name` (SM version `own`)
 * cannot run: a listing for `own`, or a model that runs `f` (NULL: one that
 * runs one of the listing's sections); or, when listings for `own` are not
 * read, that the model simulates synthetic kernels only.  Newly allocated. */
static gchar *arch_hint(guint own, const gchar *model_name, const SassFunction *f) {
  if (!arch_supported(own))
    return g_strdup_printf("listings for sm_%u are not read (supported: " SASS_ARCHS
                           "), so model '%s' simulates synthetic kernels only",
                           own, model_name);
  g_autofree gchar *other =
      f != NULL ? g_strdup_printf("a model of compute capability %u.%u or later %u.x", f->arch / 10,
                                  f->arch % 10, f->arch / 10)
                : g_strdup("a model that runs one of them");
  return g_strdup_printf("give a listing compiled for sm_%u (nvcc "
                         "-gencode=arch=compute_%u,code=sm_%u) or %s",
                         own, own, own, other);
}

/* The sections of function `r` (its mangled name) in `funcs`, one per
 * architecture of a fat binary's listing: the one compiled for the GPU
 * `gpu`, else the latest it runs by binary compatibility (sass_arch_fit),
 * else NULL; *n gets the number of sections. */
static RawFunction *section_for(GPtrArray *funcs, const RawFunction *r, const SassGpu *gpu,
                                guint *n) {
  RawFunction *same = NULL, *compatible = NULL;
  *n = 0;
  for (guint i = 0; i < funcs->len; i++) {
    RawFunction *q = g_ptr_array_index(funcs, i);
    if (strcmp(q->name, r->name) != 0)
      continue;
    (*n)++;
    SassArchFit fit = sass_arch_fit(q->arch, q->arch_suffix, gpu->cc_major, gpu->cc_minor);
    if (fit == SASS_ARCH_SAME && same == NULL)
      same = q;
    if (fit == SASS_ARCH_COMPATIBLE && (compatible == NULL || q->arch > compatible->arch))
      compatible = q;
  }
  return same != NULL ? same : compatible;
}

/* A function's architecture is one whose listings are read, and it has
 * instructions; else FALSE with SASS_ERROR_ARCH or SASS_ERROR_PARSE. */
static gboolean raw_readable(const RawFunction *r, const gchar *origin, GError **error) {
  if (!arch_supported(r->arch)) {
    g_autofree gchar *arch = r->arch == ARCH_TOO_LARGE
                                 ? g_strdup_printf("an sm_ number past %u", ARCH_TOO_LARGE - 1)
                                 : g_strdup_printf("sm_%u", r->arch);
    g_set_error(error, SASS_ERROR, SASS_ERROR_ARCH,
                "%s:%u: function '%s' is compiled for %s (supported: " SASS_ARCHS ")", origin,
                r->line, r->name, arch);
    return FALSE;
  }
  if (r->ins->len == 0) {
    g_set_error(error, SASS_ERROR, SASS_ERROR_PARSE, "%s:%u: function '%s' has no instructions",
                origin, r->line, r->name);
    return FALSE;
  }
  return TRUE;
}

static void parser_init(Parser *ps, const gchar *origin) {
  *ps = (Parser){.origin = origin};
  ps->re_ins = g_regex_new("^\\s*/\\*([0-9a-fA-F]{4,})\\*/\\s*(.*?)\\s*;\\s*/\\*\\s*0x([0-9a-fA-F]"
                           "{16})\\s*\\*/\\s*$",
                           G_REGEX_OPTIMIZE, 0, NULL);
  ps->re_hi =
      g_regex_new("^\\s*/\\*\\s*0x([0-9a-fA-F]{16})\\s*\\*/\\s*$", G_REGEX_OPTIMIZE, 0, NULL);
  ps->re_label = g_regex_new("^(\\.L_[A-Za-z0-9_]+):$", G_REGEX_OPTIMIZE, 0, NULL);
  ps->re_bare = g_regex_new("^\\s*/\\*[0-9a-fA-F]{4,}\\*/\\s*[@A-Z].*;", G_REGEX_OPTIMIZE, 0, NULL);
}

static void parser_clear(Parser *ps) {
  g_regex_unref(ps->re_ins);
  g_regex_unref(ps->re_hi);
  g_regex_unref(ps->re_label);
  g_regex_unref(ps->re_bare);
}

/* The listing's functions into `funcs`; FALSE with SASS_ERROR_PARSE when it
 * has none. */
static gboolean parse_functions(const gchar *text, gsize len, Parser *ps, GPtrArray *funcs,
                                GError **error) {
  if (!parse_listing(text, len, ps, funcs, error))
    return FALSE;
  if (funcs->len > 0)
    return TRUE;
  g_set_error(error, SASS_ERROR, SASS_ERROR_PARSE,
              "%s:1: not a SASS listing (no 'Function :' or '.text.' header; give the text "
              "of cuobjdump -sass or nvdisasm -hex)",
              ps->origin);
  return FALSE;
}

/* No section of function `r` (n of them) runs on `gpu`: SASS_ERROR_ARCH
 * naming each section's architecture and the model. */
static void no_section(GPtrArray *funcs, const RawFunction *r, guint n, const SassGpu *gpu,
                       const gchar *origin, GError **error) {
  g_autoptr(GString) archs = g_string_new(NULL);
  const RawFunction *first = NULL;
  guint k = 0;
  for (guint i = 0; i < funcs->len; i++) {
    const RawFunction *q = g_ptr_array_index(funcs, i);
    if (strcmp(q->name, r->name) != 0)
      continue;
    const gchar sfx[2] = {q->arch_suffix, '\0'};
    first = first != NULL ? first : q;
    g_string_append_printf(archs, "%s sm_%u%s (line %u)", k == 0 ? "" : (k + 1 == n ? " and" : ","),
                           q->arch, sfx, q->line);
    k++;
  }
  guint own = gpu->cc_major * 10 + gpu->cc_minor;
  g_autofree gchar *hint = arch_hint(own, gpu->model_name, NULL);
  g_set_error(error, SASS_ERROR, SASS_ERROR_ARCH,
              "%s:%u: function '%s' has %u sections, for%s, none of which model '%s' (compute "
              "capability %u.%u) can run: a cubin runs only on GPUs of its own major version at "
              "the same or a higher minor version (CUDA binary compatibility); %s",
              origin, first->line, r->name, n, archs->str, gpu->model_name, gpu->cc_major,
              gpu->cc_minor, hint);
}

SassFunction *sass_load_data_for(const gchar *text, gsize len, const gchar *origin,
                                 const gchar *function, const SassGpu *gpu, GString *warnings,
                                 GError **error) {
  Parser ps;
  parser_init(&ps, origin);
  g_autoptr(GPtrArray) funcs = g_ptr_array_new_with_free_func(raw_free);
  SassFunction *out = NULL;
  if (parse_functions(text, len, &ps, funcs, error)) {
    RawFunction *r = select_function(funcs, function, origin, error);
    guint n = 1;
    RawFunction *fit = r != NULL && gpu != NULL ? section_for(funcs, r, gpu, &n) : NULL;
    if (r != NULL && n > 1 && fit == NULL)
      no_section(funcs, r, n, gpu, origin, error);
    else if (r != NULL && raw_readable(fit != NULL ? fit : r, origin, error))
      out = function_from_raw(fit != NULL ? fit : r, origin);
  }
  parser_clear(&ps);
  if (out != NULL && gpu != NULL &&
      !sass_check_arch(out, gpu->model_name, gpu->cc_major, gpu->cc_minor, warnings, error))
    g_clear_pointer(&out, sass_function_free);
  return out;
}

SassFunction *sass_load_data(const gchar *text, gsize len, const gchar *origin,
                             const gchar *function, GError **error) {
  return sass_load_data_for(text, len, origin, function, NULL, NULL, error);
}

SassFunction *sass_load_for(const gchar *path, const gchar *function, const SassGpu *gpu,
                            GString *warnings, GError **error) {
  gsize len = 0;
  GError *err = NULL;
  gchar *text = readfile_capped(path, READFILE_MAX_BYTES, &len, &err);
  if (text == NULL) {
    g_set_error_literal(error, SASS_ERROR, SASS_ERROR_NOT_FOUND, err->message);
    g_error_free(err);
    return NULL;
  }
  SassFunction *f = sass_load_data_for(text, len, path, function, gpu, warnings, error);
  g_free(text);
  return f;
}

SassFunction *sass_load(const gchar *path, const gchar *function, GError **error) {
  return sass_load_for(path, function, NULL, NULL, error);
}

GPtrArray *sass_load_all(const gchar *path, GError **error) {
  gsize len = 0;
  GError *err = NULL;
  g_autofree gchar *text = readfile_capped(path, READFILE_MAX_BYTES, &len, &err);
  if (text == NULL) {
    g_set_error_literal(error, SASS_ERROR, SASS_ERROR_NOT_FOUND, err->message);
    g_error_free(err);
    return NULL;
  }
  Parser ps;
  parser_init(&ps, path);
  g_autoptr(GPtrArray) funcs = g_ptr_array_new_with_free_func(raw_free);
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func((GDestroyNotify)sass_function_free);
  gboolean ok = parse_functions(text, len, &ps, funcs, error);
  for (guint i = 0; ok && i < funcs->len; i++) {
    RawFunction *r = g_ptr_array_index(funcs, i);
    ok = raw_readable(r, path, error);
    if (ok)
      g_ptr_array_add(out, function_from_raw(r, path));
  }
  parser_clear(&ps);
  return ok ? g_steal_pointer(&out) : NULL;
}

SassArchFit sass_arch_fit(guint arch, gchar suffix, guint cc_major, guint cc_minor) {
  guint major = arch / 10, minor = arch % 10;
  if (major == cc_major && minor == cc_minor)
    return SASS_ARCH_SAME;
  if (major == cc_major && minor < cc_minor && suffix != 'a')
    return SASS_ARCH_COMPATIBLE;
  return SASS_ARCH_FOREIGN;
}

gboolean sass_cc_runs_read_arch(guint cc_major, guint cc_minor) {
  for (guint i = 0; i < G_N_ELEMENTS(read_archs); i++)
    if (sass_arch_fit(read_archs[i], '\0', cc_major, cc_minor) != SASS_ARCH_FOREIGN)
      return TRUE;
  return FALSE;
}

gboolean sass_check_arch(const SassFunction *f, const gchar *model_name, guint cc_major,
                         guint cc_minor, GString *warnings, GError **error) {
  const gchar sfx[2] = {f->arch_suffix, '\0'};
  switch (sass_arch_fit(f->arch, f->arch_suffix, cc_major, cc_minor)) {
  case SASS_ARCH_SAME:
    return TRUE;
  case SASS_ARCH_COMPATIBLE:
    if (warnings)
      g_string_append_printf(
          warnings,
          "%s:%u: function '%s' is compiled for sm_%u%s and runs on model '%s' (compute "
          "capability %u.%u) unchanged: a cubin runs on the later minor versions of its major "
          "version with the same instruction encoding (CUDA binary compatibility); ptxas chose "
          "its stall counts for sm_%u, not for this GPU\n",
          f->file, f->line, f->name, f->arch, sfx, model_name, cc_major, cc_minor, f->arch);
    return TRUE;
  case SASS_ARCH_FOREIGN:
    break;
  }
  g_autofree gchar *hint = arch_hint(cc_major * 10 + cc_minor, model_name, f);
  g_set_error(error, SASS_ERROR, SASS_ERROR_ARCH,
              "%s:%u: function '%s' is compiled for sm_%u%s, which model '%s' (compute "
              "capability %u.%u) cannot run: a cubin runs only on GPUs of its own major version "
              "at the same or a higher minor version%s (CUDA binary compatibility); %s",
              f->file, f->line, f->name, f->arch, sfx, model_name, cc_major, cc_minor,
              f->arch_suffix == 'a' ? ", and sm_XXa code only on its own" : "", hint);
  return FALSE;
}

/* Raise *top (one past the highest register) and *line for the R spans of `r`. */
static void regs_top(const SassReg *r, guint n, guint at, guint *top, guint *line) {
  for (guint k = 0; k < n; k++)
    if (r[k].file == SASS_REG_R && (guint)r[k].index + r[k].count > *top) {
      *top = (guint)r[k].index + r[k].count;
      *line = at;
    }
}

guint sass_function_regs(const SassFunction *f, guint *line) {
  guint top = 0, at = 0;
  for (guint i = 0; i < f->n; i++) {
    regs_top(f->ins[i].dst, f->ins[i].n_dst, f->ins[i].line, &top, &at);
    regs_top(f->ins[i].src, f->ins[i].n_src, f->ins[i].line, &top, &at);
  }
  if (line)
    *line = at;
  return top + 2;
}

gint sass_find_offset(const SassFunction *f, guint32 offset) {
  guint32 i = offset / SASS_INSTR_BYTES;
  if (offset % SASS_INSTR_BYTES != 0 || i >= f->n || f->ins[i].offset != offset)
    return -1;
  return (gint)i;
}

gint64 sass_block_start(const SassFunction *f, guint i) {
  gint64 lead = -1;
  for (guint b = 0; b < f->n; b++)
    if (f->ins[b].target <= (gint64)f->ins[i].offset)
      lead = MAX(lead, f->ins[b].target);
  return lead;
}

void sass_function_free(SassFunction *f) {
  if (f == NULL)
    return;
  for (guint i = 0; i < f->n; i++) {
    g_free(f->ins[i].opcode);
    g_free(f->ins[i].mods);
    g_free(f->ins[i].text);
  }
  g_free(f->ins);
  g_free(f->name);
  g_free(f->demangled);
  g_free(f->file);
  g_free(f);
}
