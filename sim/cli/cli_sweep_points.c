/* cli_sweep_points.c - `warpsim sweep-points`: a sweep's grid expanded,
 * checked and hashed (scripts/sweep.sh runs the points). */
#include "cli/cli_sweep_points.h"

#include "cli/cli.h"

#include "cli/cli_run.h"
#include "input/readfile.h"
#include "run/sim.h"
#include "sass/sassprog.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

/* More points than this is refused (sweep.sh's limit: a typo in a range). */
#define SWEEP_MAX_POINTS 100000
/* A derived value and every step of its arithmetic stay within +-2^53 (the
 * integers a double holds exactly: a result no later tool rounds). */
#define DERIVE_LIMIT G_GINT64_CONSTANT(9007199254740992)
/* Parentheses and unary signs nested deeper than this are refused (a bound
 * on recursion). */
#define DERIVE_MAX_DEPTH 64
/* A key an expression names, as --derive spells it. */
#define DERIVE_KEY_RE "[A-Za-z_][A-Za-z0-9_]*\\.[A-Za-z0-9_]+"

static gchar *sp_model = "h200", *sp_kernel, *sp_signature;
static gchar **sp_sets, **sp_axes, **sp_derives;
static gboolean sp_no_check;
static const GOptionEntry entries[] = {
    {"model", 'm', 0, G_OPTION_ARG_STRING, &sp_model, "model name or .ini file (default h200)",
     "M"},
    {"kernel", 'k', 0, G_OPTION_ARG_STRING, &sp_kernel, "kernel name or .ini file (required)", "K"},
    {"set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sp_sets, "a setting of every point (repeatable)",
     "G.K=V"},
    {"axis", 'a', 0, G_OPTION_ARG_STRING_ARRAY, &sp_axes,
     "an axis: keys (comma-separated) and values V1,V2 or ranges A..B (repeatable)",
     "G.K[,G.K]=VALUES"},
    {"derive", 'd', 0, G_OPTION_ARG_STRING_ARRAY, &sp_derives,
     "a key set at every point from the others: + - * / and parentheses over whole numbers and "
     "keys an --axis, --set or earlier --derive gives (repeatable)",
     "G.K=EXPR"},
    {"signature", 0, 0, G_OPTION_ARG_FILENAME, &sp_signature,
     "write what decides the results (versions, file hashes, grid hash) to FILE", "FILE"},
    {"no-check", 0, 0, G_OPTION_ARG_NONE, &sp_no_check,
     "do not load the model and kernel at each axis value", NULL},
    G_OPTION_ENTRY_NULL};

/* The sweep: its fixed settings, axes and derived keys. */
typedef struct {
  GPtrArray *fixed_keys, *fixed_values;  /* gchar *, in order of first appearance */
  GPtrArray *axis_text;                  /* the --axis strings (borrowed) */
  GPtrArray *axis_keys;                  /* GStrv per axis */
  GPtrArray *axis_values;                /* GPtrArray of gchar * per axis */
  GPtrArray *axis_checks;                /* the values warpsim checks (a range by its ends) */
  GPtrArray *axis_seconds;               /* and a range's second value, checked last */
  GHashTable *axis_of;                   /* key -> the last --axis string naming it */
  GPtrArray *derive_text;                /* the --derive strings (borrowed) */
  GPtrArray *derive_keys, *derive_exprs; /* gchar *, in --derive order */
  GPtrArray *points;                     /* gchar *: "k=v\tk=v..." per point, grid order */
  guint dropped;                         /* points that repeated an earlier one */
} Sweep;

static void sweep_init(Sweep *s) {
  *s = (Sweep){.fixed_keys = g_ptr_array_new_with_free_func(g_free),
               .fixed_values = g_ptr_array_new_with_free_func(g_free),
               .axis_text = g_ptr_array_new(),
               .axis_keys = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev),
               .axis_values = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref),
               .axis_checks = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref),
               .axis_seconds = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref),
               .axis_of = g_hash_table_new(g_str_hash, g_str_equal),
               .derive_text = g_ptr_array_new(),
               .derive_keys = g_ptr_array_new_with_free_func(g_free),
               .derive_exprs = g_ptr_array_new_with_free_func(g_free),
               .points = g_ptr_array_new_with_free_func(g_free)};
}

static void sweep_clear(Sweep *s) {
  GPtrArray **all[] = {&s->fixed_keys,  &s->fixed_values, &s->axis_text,    &s->axis_keys,
                       &s->axis_values, &s->axis_checks,  &s->axis_seconds, &s->derive_text,
                       &s->derive_keys, &s->derive_exprs, &s->points};
  for (guint i = 0; i < G_N_ELEMENTS(all); i++)
    g_clear_pointer(all[i], g_ptr_array_unref);
  g_clear_pointer(&s->axis_of, g_hash_table_unref);
}

static void warn(const gchar *fmt, ...) G_GNUC_PRINTF(1, 2);
static void warn(const gchar *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  g_autofree gchar *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  cli_print_error("warpsim: warning", msg);
}

static gboolean fail(GError **error, const gchar *fmt, ...) G_GNUC_PRINTF(2, 3);
static gboolean fail(GError **error, const gchar *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  g_autofree gchar *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE, "sweep-points: %s", msg);
  return FALSE;
}

/* A group.key name; a value of letters, digits and _ . + - : ; / (sweep.sh's
 * rule: values travel as data, and ';' separates a list key's items). */
static gboolean key_ok(const gchar *k) {
  return g_regex_match_simple("^[A-Za-z0-9_]+\\.[A-Za-z0-9_]+$", k, 0, 0);
}
static gboolean check_value(const gchar *v, const gchar *where, GError **error) {
  if (*v == '\0')
    return fail(error, "%s: empty value", where);
  if (!g_regex_match_simple("^[A-Za-z0-9_.+:;/-]+$", v, 0, 0))
    return fail(error,
                "%s: value '%s' holds a character other than letters, digits and _ . + - : ; /",
                where, v);
  return TRUE;
}

static gint index_of(GPtrArray *a, const gchar *s) {
  for (guint i = 0; i < a->len; i++)
    if (strcmp(g_ptr_array_index(a, i), s) == 0)
      return (gint)i;
  return -1;
}

static gboolean parse_sets(Sweep *s, GError **error) {
  for (guint i = 0; sp_sets != NULL && sp_sets[i] != NULL; i++) {
    const gchar *set = sp_sets[i], *eq = strchr(set, '=');
    g_autofree gchar *where = g_strdup_printf("--set '%s'", set);
    if (eq == NULL)
      return fail(error, "%s: expected group.key=value", where);
    g_autofree gchar *k = g_strndup(set, eq - set);
    if (!key_ok(k))
      return fail(error, "%s: '%s' is not a group.key name", where, k);
    if (!check_value(eq + 1, where, error))
      return FALSE;
    gint j = index_of(s->fixed_keys, k);
    if (j >= 0)
      return fail(error, "%s: %s is already set by --set '%s=%s'", where, k, k,
                  (gchar *)g_ptr_array_index(s->fixed_values, j));
    g_ptr_array_add(s->fixed_keys, g_steal_pointer(&k));
    g_ptr_array_add(s->fixed_values, g_strdup(eq + 1));
  }
  return TRUE;
}

/* One value or range of an axis into its values and checks (a range's
 * second value into `seconds`). */
static gboolean parse_value(const gchar *v, const gchar *where, GPtrArray *values,
                            GPtrArray *checks, GPtrArray *seconds, GError **error) {
  if (g_regex_match_simple("^[0-9]{1,9}\\.\\.[0-9]{1,9}$", v, 0, 0)) {
    guint64 lo = g_ascii_strtoull(v, NULL, 10),
            hi = g_ascii_strtoull(strstr(v, "..") + 2, NULL, 10);
    if (lo > hi)
      return fail(error, "%s: empty range %s (write the smaller bound first)", where, v);
    if (hi - lo >= SWEEP_MAX_POINTS)
      return fail(error, "%s: range %s has over %d values", where, v, SWEEP_MAX_POINTS);
    for (guint64 n = lo; n <= hi; n++)
      g_ptr_array_add(values, g_strdup_printf("%" G_GUINT64_FORMAT, n));
    g_ptr_array_add(checks, g_strdup_printf("%" G_GUINT64_FORMAT, lo));
    g_ptr_array_add(checks, g_strdup_printf("%" G_GUINT64_FORMAT, hi));
    /* and the value after the first: a key whose 0 is "off" refuses
     * 1..N-1 (class_global.scattered_dram_bytes: 0, or at least a sector),
     * so 0..64 holds values its ends do not show */
    if (hi - lo >= 2)
      g_ptr_array_add(seconds, g_strdup_printf("%" G_GUINT64_FORMAT, lo + 1));
    return TRUE;
  }
  if (g_regex_match_simple("^[0-9]+\\.\\.[0-9]+$", v, 0, 0))
    return fail(error,
                "%s: range %s: a bound past 999999999 (allowed: A..B of at most 9 digits each)",
                where, v);
  if (g_regex_match_simple("^[0-9]{1,9}-[0-9]{1,9}$", v, 0, 0)) {
    g_autofree gchar *lo = g_strndup(v, strcspn(v, "-"));
    return fail(error, "%s: '%s' is not a value; a range is written %s..%s", where, v, lo,
                strchr(v, '-') + 1);
  }
  if (!check_value(v, where, error))
    return FALSE;
  g_ptr_array_add(values, g_strdup(v));
  g_ptr_array_add(checks, g_strdup(v));
  return TRUE;
}

static gboolean parse_axis(Sweep *s, const gchar *a, guint64 *points, GError **error) {
  g_autofree gchar *where = g_strdup_printf("--axis '%s'", a);
  const gchar *eq = strchr(a, '=');
  if (eq == NULL || eq == a || eq[1] == '\0')
    return fail(error, "%s: expected group.key=V1,V2 or group.key=A..B (see --help)", where);
  for (const gchar *p = a; *p; p++)
    if (g_ascii_isspace(*p) || g_ascii_iscntrl(*p))
      return fail(error, "%s: holds a space or control character", where);
  g_autofree gchar *keys = g_strndup(a, eq - a);
  if (g_str_has_suffix(keys, ",") || g_str_has_suffix(eq + 1, ","))
    return fail(error, "%s: empty value after the last ','", where);
  g_auto(GStrv) klist = g_strsplit(keys, ",", -1);
  for (guint i = 0; klist[i] != NULL; i++) {
    if (!key_ok(klist[i]))
      return fail(error, "%s: '%s' is not a group.key name", where, klist[i]);
    const gchar *other = g_hash_table_lookup(s->axis_of, klist[i]);
    if (other != NULL)
      warn("%s is on two axes ('%s' and '%s'): the later axis's value is used", klist[i], other, a);
    else if (index_of(s->fixed_keys, klist[i]) >= 0)
      warn("%s is set by --set and by --axis '%s': the axis's value is used", klist[i], a);
    g_hash_table_insert(s->axis_of, klist[i], (gpointer)a);
  }
  GPtrArray *values = g_ptr_array_new_with_free_func(g_free);
  GPtrArray *checks = g_ptr_array_new_with_free_func(g_free);
  GPtrArray *seconds = g_ptr_array_new_with_free_func(g_free);
  g_ptr_array_add(s->axis_values, values);
  g_ptr_array_add(s->axis_checks, checks);
  g_ptr_array_add(s->axis_seconds, seconds);
  g_ptr_array_add(s->axis_keys, g_steal_pointer(&klist));
  g_ptr_array_add(s->axis_text, (gpointer)a);
  g_auto(GStrv) vlist = g_strsplit(eq + 1, ",", -1);
  for (guint i = 0; vlist[i] != NULL; i++)
    if (!parse_value(vlist[i], where, values, checks, seconds, error))
      return FALSE;
  *points *= values->len;
  if (*points > SWEEP_MAX_POINTS)
    return fail(error, "the grid has over %d points", SWEEP_MAX_POINTS);
  return TRUE;
}

/* Whether `k` is given by a --set, an axis or one of the first `n` derived keys. */
static gboolean key_given(const Sweep *s, const gchar *k, guint n) {
  if (index_of(s->fixed_keys, k) >= 0 || g_hash_table_contains(s->axis_of, k))
    return TRUE;
  for (guint i = 0; i < n; i++)
    if (strcmp(g_ptr_array_index(s->derive_keys, i), k) == 0)
      return TRUE;
  return FALSE;
}

/* One --derive KEY=EXPRESSION: the key once, on no axis and in no --set; the
 * keys the expression names given by an axis, a --set or an earlier one. */
static gboolean parse_derive(Sweep *s, const gchar *d, GError **error) {
  const gchar *eq = strchr(d, '=');
  if (eq == NULL)
    return fail(error, "--derive '%s': expected group.key=EXPRESSION (see --help)", d);
  g_autofree gchar *k = g_strndup(d, eq - d);
  const gchar *e = eq + 1;
  if (!key_ok(k))
    return fail(error, "--derive '%s': '%s' is not a group.key name", d, k);
  if (!g_regex_match_simple("^[A-Za-z0-9_.+*/() -]+$", e, 0, 0))
    return fail(error,
                "--derive '%s': the expression holds a character other than letters, digits, _ . "
                "+ - * / ( ) and spaces",
                d);
  gint j = index_of(s->fixed_keys, k);
  if (j >= 0)
    return fail(error, "--derive '%s': %s is also set by --set '%s=%s'", d, k, k,
                (gchar *)g_ptr_array_index(s->fixed_values, j));
  if (g_hash_table_contains(s->axis_of, k))
    return fail(error, "--derive '%s': %s is also on --axis '%s'", d, k,
                (gchar *)g_hash_table_lookup(s->axis_of, k));
  if (index_of(s->derive_keys, k) >= 0)
    return fail(error, "--derive '%s': %s is derived twice", d, k);
  g_autoptr(GRegex) re = g_regex_new(DERIVE_KEY_RE, 0, 0, NULL);
  g_autoptr(GMatchInfo) mi = NULL;
  for (g_regex_match(re, e, 0, &mi); g_match_info_matches(mi); g_match_info_next(mi, NULL)) {
    g_autofree gchar *t = g_match_info_fetch(mi, 0);
    if (!key_given(s, t, s->derive_keys->len))
      return fail(error, "--derive '%s': %s is given by no --axis, --set or earlier --derive", d,
                  t);
  }
  g_ptr_array_add(s->derive_text, (gpointer)d);
  g_ptr_array_add(s->derive_keys, g_steal_pointer(&k));
  g_ptr_array_add(s->derive_exprs, g_strdup(e));
  return TRUE;
}

/* ---- whole-number arithmetic: + - * / (truncating), parentheses, unary + - */
typedef struct {
  gchar op; /* one of + - * / ( ), or 0 for a number */
  gint64 v; /* the number */
} DeriveTok;
typedef struct {
  GArray *toks; /* DeriveTok */
  guint pos;    /* the next token */
  guint depth;  /* parentheses open */
} DeriveParse;

static gboolean derive_sum(DeriveParse *p, gint64 *v);

static gchar derive_peek(const DeriveParse *p) {
  return p->pos < p->toks->len ? g_array_index(p->toks, DeriveTok, p->pos).op : '\0';
}

/* A number, (sum), or + or - and a factor. */
static gboolean derive_factor(DeriveParse *p, gint64 *v) {
  if (p->pos >= p->toks->len)
    return FALSE;
  DeriveTok t = g_array_index(p->toks, DeriveTok, p->pos++);
  switch (t.op) {
  case 0:
    *v = t.v;
    return TRUE;
  case '+':
  case '-': /* a sign nests as a parenthesis does: the recursion is bounded */
    if (++p->depth > DERIVE_MAX_DEPTH || !derive_factor(p, v))
      return FALSE;
    p->depth--;
    *v = t.op == '-' ? -*v : *v;
    return TRUE;
  case '(':
    if (++p->depth > DERIVE_MAX_DEPTH || !derive_sum(p, v) || derive_peek(p) != ')')
      return FALSE;
    p->depth--;
    p->pos++;
    return TRUE;
  default:
    return FALSE;
  }
}

/* A factor, then (* or / factor)...; a product past the limit fails. */
static gboolean derive_term(DeriveParse *p, gint64 *v) {
  gint64 a, b;
  if (!derive_factor(p, &a))
    return FALSE;
  for (gchar op; (op = derive_peek(p)) == '*' || op == '/';) {
    p->pos++;
    if (!derive_factor(p, &b))
      return FALSE;
    if (op == '*') {
      gint64 m = a < 0 ? -a : a, n = b < 0 ? -b : b;
      if (m != 0 && n > DERIVE_LIMIT / m)
        return FALSE;
      a *= b;
    } else {
      if (b == 0)
        return FALSE;
      a /= b;
    }
  }
  *v = a;
  return TRUE;
}

/* A term, then (+ or - term)...; a sum past the limit fails. */
static gboolean derive_sum(DeriveParse *p, gint64 *v) {
  gint64 a, b;
  if (!derive_term(p, &a))
    return FALSE;
  for (gchar op; (op = derive_peek(p)) == '+' || op == '-';) {
    p->pos++;
    if (!derive_term(p, &b))
      return FALSE;
    a = op == '+' ? a + b : a - b;
    if (a > DERIVE_LIMIT || a < -DERIVE_LIMIT)
      return FALSE;
  }
  *v = a;
  return TRUE;
}

/* The value of `text` (numbers in base 10: 010 is ten, each <= 2^53);
 * FALSE for anything else, a division by zero or a step past +-2^53. */
static gboolean derive_eval(const gchar *text, gint64 *v) {
  g_autoptr(GArray) toks = g_array_new(FALSE, FALSE, sizeof(DeriveTok));
  for (const gchar *c = text; *c;) {
    if (*c == ' ') {
      c++;
    } else if (g_ascii_isdigit(*c)) {
      gsize n = strspn(c, "0123456789");
      guint64 x = n <= 16 ? g_ascii_strtoull(c, NULL, 10) : 0;
      if (n > 16 || x > (guint64)DERIVE_LIMIT)
        return FALSE;
      g_array_append_val(toks, ((DeriveTok){.v = (gint64)x}));
      c += n;
    } else if (strchr("+-*/()", *c) != NULL) {
      g_array_append_val(toks, ((DeriveTok){.op = *c}));
      c++;
    } else {
      return FALSE;
    }
  }
  DeriveParse p = {.toks = toks};
  return derive_sum(&p, v) && p.pos == toks->len;
}

/* ---- points ---------------------------------------------------------------- */
/* A point's settings: keys in order of first appearance and their values. */
typedef struct {
  GPtrArray *order; /* gchar * keys (owned) */
  GHashTable *val;  /* key (the order's string) -> gchar * value (owned) */
} Point;

static void point_init(Point *p) {
  p->order = g_ptr_array_new_with_free_func(g_free);
  p->val = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
}
static void point_clear(Point *p) {
  g_clear_pointer(&p->val, g_hash_table_unref);
  g_clear_pointer(&p->order, g_ptr_array_unref);
}
static void point_set(Point *p, const gchar *k, const gchar *v) {
  gpointer key = NULL;
  if (!g_hash_table_lookup_extended(p->val, k, &key, NULL)) {
    key = g_strdup(k);
    g_ptr_array_add(p->order, key);
  }
  g_hash_table_insert(p->val, key, g_strdup(v));
}
/* The point of a grid line "k=v\tk=v". */
static void point_parse(Point *p, const gchar *line) {
  point_init(p);
  g_auto(GStrv) kv = g_strsplit(line, "\t", -1);
  for (guint i = 0; kv[i] != NULL; i++) {
    g_autofree gchar *k = g_strndup(kv[i], strcspn(kv[i], "="));
    point_set(p, k, kv[i] + strlen(k) + 1);
  }
}
/* "k=v" joined by `sep`, or (sep NULL) a NULL-terminated vector of them. */
static gchar *point_join(const Point *p, const gchar *sep) {
  GString *line = g_string_new(NULL);
  for (guint i = 0; i < p->order->len; i++) {
    const gchar *k = p->order->pdata[i];
    g_string_append_printf(line, "%s%s=%s", i ? sep : "", k,
                           (const gchar *)g_hash_table_lookup(p->val, k));
  }
  return g_string_free(line, FALSE);
}
static GStrv point_strv(const Point *p) {
  GStrv v = g_new0(gchar *, p->order->len + 1);
  for (guint i = 0; i < p->order->len; i++)
    v[i] = g_strdup_printf("%s=%s", (gchar *)p->order->pdata[i],
                           (gchar *)g_hash_table_lookup(p->val, p->order->pdata[i]));
  return v;
}

/* g_regex_replace_eval: a key the expression names as "(value)", a whole
 * number of the point; else stop, the key in `*bad`. */
typedef struct {
  const Point *p;
  gchar *bad; /* the first key that is no whole number (owned) */
} DeriveSubst;
static gboolean derive_subst(const GMatchInfo *mi, GString *out, gpointer data) {
  DeriveSubst *d = data;
  g_autofree gchar *t = g_match_info_fetch(mi, 0);
  const gchar *v = g_hash_table_lookup(d->p->val, t);
  if (v == NULL || !g_regex_match_simple("^[0-9]{1,15}$", v, 0, 0)) {
    d->bad = g_steal_pointer(&t);
    return TRUE;
  }
  g_string_append_printf(out, "(%" G_GINT64_FORMAT ")", g_ascii_strtoll(v, NULL, 10));
  return FALSE;
}

/* Set each derived key of point `p` from its other values, in order. */
static gboolean apply_derives(const Sweep *s, Point *p, GError **error) {
  g_autoptr(GRegex) re = g_regex_new(DERIVE_KEY_RE, 0, 0, NULL);
  for (guint i = 0; i < s->derive_keys->len; i++) {
    const gchar *d = s->derive_text->pdata[i], *k = s->derive_keys->pdata[i];
    DeriveSubst sub = {.p = p};
    g_autofree gchar *ev =
        g_regex_replace_eval(re, s->derive_exprs->pdata[i], -1, 0, 0, derive_subst, &sub, NULL);
    if (sub.bad != NULL) {
      const gchar *v = g_hash_table_lookup(p->val, sub.bad);
      fail(error, "--derive '%s': %s is '%s' at a point (allowed: whole numbers)", d, sub.bad,
           v ? v : "");
      g_free(sub.bad);
      return FALSE;
    }
    gint64 v;
    if (!derive_eval(ev, &v) || v < 0)
      return fail(error,
                  "--derive '%s': '%s' does not give a whole number >= 0 (allowed: + - * / and "
                  "parentheses over whole numbers, no step past +-%" G_GINT64_FORMAT ")",
                  d, ev, DERIVE_LIMIT);
    g_autofree gchar *text = g_strdup_printf("%" G_GINT64_FORMAT, v);
    point_set(p, k, text);
  }
  return TRUE;
}

/* The point of axis indices `idx`: the fixed settings overridden by the
 * axes' (first appearance keeps a key's place), then the derived keys. */
static gboolean point_at(const Sweep *s, const guint *idx, Point *p, GError **error) {
  point_init(p);
  for (guint i = 0; i < s->fixed_keys->len; i++)
    point_set(p, s->fixed_keys->pdata[i], s->fixed_values->pdata[i]);
  for (guint a = 0; a < s->axis_keys->len; a++) {
    GStrv keys = s->axis_keys->pdata[a];
    const gchar *v = ((GPtrArray *)s->axis_values->pdata[a])->pdata[idx[a]];
    for (guint k = 0; keys[k] != NULL; k++)
      point_set(p, keys[k], v);
  }
  return apply_derives(s, p, error);
}

/* Every point, first axis outermost, repeats dropped. */
static gboolean expand(Sweep *s, GError **error) {
  guint n = s->axis_keys->len;
  g_autofree guint *idx = g_new0(guint, n);
  g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
  for (;;) {
    Point p;
    gboolean ok = point_at(s, idx, &p, error);
    gchar *line = ok ? point_join(&p, "\t") : NULL;
    point_clear(&p);
    if (!ok)
      return FALSE;
    if (g_hash_table_contains(seen, line)) {
      s->dropped++;
      g_free(line);
    } else {
      g_hash_table_add(seen, line);
      g_ptr_array_add(s->points, line);
    }
    guint a = n;
    while (a > 0 && ++idx[a - 1] == ((GPtrArray *)g_ptr_array_index(s->axis_values, a - 1))->len)
      idx[--a] = 0;
    if (a == 0)
      return TRUE;
  }
}

/* Load model and kernel with `sets` and plan and start the run (one cycle):
 * what `warpsim run` refuses before it simulates is refused here, and what
 * it warns about is appended to `warnings` (gchar *, may be NULL). */
static gboolean check_point(GStrv sets, GPtrArray *warnings, GError **error) {
  g_autoptr(SmModel) m = NULL;
  g_autoptr(Kernel) k = NULL;
  if (!cli_load(sp_model, sp_kernel, sets, &m, &k, error))
    return FALSE;
  if (warnings != NULL)
    cli_run_warnings(m, k, warnings);
  SimOptions opt = {.max_cycles = 1};
  g_autofree SimResult *r = g_new0(SimResult, 1);
  GError *e = NULL;
  if (!sim_run(m, k, &opt, r, &e) && !g_error_matches(e, SIM_ERROR, SIM_ERROR_BOUND)) {
    g_propagate_error(error, e);
    return FALSE;
  }
  g_clear_error(&e);
  g_auto(GStrv) lines = g_strsplit(r->warnings, "\n", -1); /* opcodes no class names */
  for (guint i = 0; warnings != NULL && lines[i] != NULL; i++)
    if (*lines[i] != '\0')
      g_ptr_array_add(warnings, g_strdup(lines[i]));
  return TRUE;
}

/* Say each of `warnings` ("FILE: what", as `warpsim run` gives them) once
 * per sweep (`said`), without its file, after `where`. */
static void warn_once(const gchar *where, GPtrArray *warnings, GHashTable *said) {
  for (guint i = 0; i < warnings->len; i++) {
    const gchar *w = warnings->pdata[i], *colon = strstr(w, ": ");
    const gchar *what = colon ? colon + 2 : w;
    if (g_hash_table_add(said, g_strdup(what)))
      warn("%s: %s", where, what);
  }
}

/* stream.ilp swept with stream.fma fixed: the same FFMAs in ever shorter
 * chains, which the fma kernel's measurement did not do (32 per chain:
 * results/reference, doc/sweeps.md). */
static void warn_untied_ilp(const Sweep *s, GStrv first) {
  const gchar *ilp_axis = g_hash_table_lookup(s->axis_of, "stream.ilp");
  if (ilp_axis == NULL || key_given(s, "stream.fma", s->derive_keys->len))
    return;
  g_autoptr(SmModel) m = NULL;
  g_autoptr(Kernel) k = NULL;
  if (!cli_load(sp_model, sp_kernel, first, &m, &k, NULL) || k->fma == 0)
    return;
  warn("stream.ilp varies (--axis '%s') while stream.fma stays %u: every ILP splits the same %u "
       "FFMAs into shorter chains; to keep 32 per chain, as the fma kernel's measurement did, "
       "add --derive 'stream.fma=32*stream.ilp'",
       ilp_axis, k->fma, k->fma);
}

/* The values `lists` holds for each axis (s->axis_checks: every value, a
 * range by its ends; s->axis_seconds: a range's second value) with the
 * first point's other settings and its derived keys recomputed; warnings
 * said once, none when `said` is NULL. */
static gboolean check_axes(const Sweep *s, GPtrArray *lists, GHashTable *said, GError **error) {
  for (guint a = 0; a < s->axis_keys->len; a++) {
    const gchar *axis = s->axis_text->pdata[a];
    GStrv keys = s->axis_keys->pdata[a];
    GPtrArray *checks = lists->pdata[a];
    for (guint i = 0; i < checks->len; i++) {
      const gchar *v = checks->pdata[i];
      Point p;
      point_parse(&p, s->points->pdata[0]);
      for (guint k = 0; keys[k] != NULL; k++)
        point_set(&p, keys[k], v);
      g_auto(GStrv) sets = NULL;
      g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
      GError *e = NULL;
      gboolean ok = apply_derives(s, &p, error);
      if (ok)
        sets = point_strv(&p);
      point_clear(&p);
      if (!ok)
        return FALSE;
      if (!check_point(sets, warnings, &e)) {
        fail(error, "--axis '%s': value '%s': %s", axis, v, e->message);
        g_error_free(e);
        return FALSE;
      }
      g_autofree gchar *where = g_strdup_printf("--axis '%s': value %s", axis, v);
      if (said != NULL)
        warn_once(where, warnings, said);
    }
  }
  return TRUE;
}

/* The value of key `k` on grid line `line`, as a number. */
static gint64 line_value(const gchar *line, const gchar *k) {
  g_autofree gchar *tabbed = g_strconcat("\t", line, NULL);
  g_autofree gchar *needle = g_strconcat("\t", k, "=", NULL);
  return g_ascii_strtoll(strstr(tabbed, needle) + strlen(needle), NULL, 10);
}

/* Each derived key at the grid points where it is smallest and largest (the
 * first of each): a derivation need not grow with its axis. */
static gboolean check_derived(const Sweep *s, GError **error) {
  for (guint d = 0; d < s->derive_keys->len; d++) {
    const gchar *k = s->derive_keys->pdata[d];
    guint lo = 0, hi = 0;
    for (guint i = 1; i < s->points->len; i++) {
      gint64 v = line_value(s->points->pdata[i], k);
      lo = v < line_value(s->points->pdata[lo], k) ? i : lo;
      hi = v > line_value(s->points->pdata[hi], k) ? i : hi;
    }
    guint at[] = {lo, hi};
    for (guint j = 0; j < G_N_ELEMENTS(at) && (j == 0 || hi != lo); j++) {
      const gchar *line = s->points->pdata[at[j]];
      g_auto(GStrv) sets = g_strsplit(line, "\t", -1);
      GError *e = NULL;
      if (!check_point(sets, NULL, &e)) {
        g_autofree gchar *spaced = g_strdelimit(g_strdup(line), "\t", ' ');
        fail(error, "--derive '%s': value %" G_GINT64_FORMAT " at point (%s): %s",
             (gchar *)s->derive_text->pdata[d], line_value(line, k), spaced, e->message);
        g_error_free(e);
        return FALSE;
      }
    }
  }
  return TRUE;
}

/* Pairs check_pairs checks at most: past them each axis takes part with
 * its extremes (a check costs a load and a one-cycle run, 5-25 ms: two
 * lists of 100 and 16 values were 1485 pairs, longer than most sweeps of
 * that grid run).  A bound on the checks' time, not a measurement. */
#define SWEEP_MAX_PAIR_CHECKS 256

/* The values of axis `a` check_pairs pairs (a new array borrowing them):
 * its checked values other than the first point's `first`, or, `few`, of
 * those its smallest and largest (as numbers, when they are) and its last. */
static GPtrArray *pair_values(const Sweep *s, guint a, const gchar *first, gboolean few) {
  GPtrArray *all = s->axis_checks->pdata[a], *out = g_ptr_array_new();
  gint lo = -1, hi = -1;
  for (guint i = 0; i < all->len; i++) {
    const gchar *v = all->pdata[i];
    if (g_strcmp0(v, first) == 0)
      continue;
    if (!few) {
      g_ptr_array_add(out, (gpointer)v);
      continue;
    }
    gdouble x = g_ascii_strtod(v, NULL);
    lo = lo < 0 || x < g_ascii_strtod(all->pdata[lo], NULL) ? (gint)i : lo;
    hi = hi < 0 || x > g_ascii_strtod(all->pdata[hi], NULL) ? (gint)i : hi;
  }
  for (guint i = 0; few && i < all->len; i++) /* in the axis's order, each once */
    if (g_strcmp0(all->pdata[i], first) != 0 &&
        ((gint)i == lo || (gint)i == hi || i + 1 == all->len))
      g_ptr_array_add(out, all->pdata[i]);
  return out;
}

/* Every two axes at each pair of the values warpsim checks of them (a
 * range by its ends; past SWEEP_MAX_PAIR_CHECKS pairs, each axis's
 * smallest, largest and last), the other settings the first point's and
 * the derived keys recomputed: keys whose allowed values depend on each
 * other (launch.smem_dynamic and launch.optin, [l2] store_full_bytes and
 * store_none_bytes) are refused for a pair no single value shows, before
 * any point runs.  A pair holding an axis's first value was check_axes'. */
static gboolean check_pairs(const Sweep *s, GError **error) {
  guint n = s->axis_keys->len;
  Point first;
  point_parse(&first, s->points->pdata[0]);
  g_autoptr(GPtrArray) lists = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
  for (gboolean few = FALSE;; few = TRUE) {
    g_ptr_array_set_size(lists, 0);
    guint64 pairs = 0;
    for (guint a = 0; a < n; a++) {
      const gchar *fa = g_hash_table_lookup(first.val, ((GStrv)s->axis_keys->pdata[a])[0]);
      g_ptr_array_add(lists, pair_values(s, a, fa, few));
      for (guint b = 0; b < a; b++)
        pairs += (guint64)((GPtrArray *)lists->pdata[a])->len * ((GPtrArray *)lists->pdata[b])->len;
    }
    if (few || pairs <= SWEEP_MAX_PAIR_CHECKS)
      break;
  }
  gboolean ok = TRUE;
  for (guint a = 0; ok && a < n; a++) {
    for (guint b = a + 1; ok && b < n; b++) {
      GStrv ka = s->axis_keys->pdata[a], kb = s->axis_keys->pdata[b];
      GPtrArray *va = lists->pdata[a], *vb = lists->pdata[b];
      for (guint i = 0; ok && i < va->len; i++) {
        for (guint j = 0; ok && j < vb->len; j++) {
          Point p;
          point_parse(&p, s->points->pdata[0]);
          for (guint k = 0; ka[k] != NULL; k++)
            point_set(&p, ka[k], va->pdata[i]);
          for (guint k = 0; kb[k] != NULL; k++)
            point_set(&p, kb[k], vb->pdata[j]);
          g_auto(GStrv) sets = NULL;
          ok = apply_derives(s, &p, error);
          if (ok)
            sets = point_strv(&p);
          point_clear(&p);
          GError *e = NULL;
          if (ok && !check_point(sets, NULL, &e)) {
            /* (the axes by their keys: a long list would push the reason
             * past what an error line shows) */
            g_autofree gchar *na = g_strjoinv(",", ka), *nb = g_strjoinv(",", kb);
            ok = fail(error, "--axis %s with --axis %s: values '%s' and '%s' together: %s", na, nb,
                      (gchar *)va->pdata[i], (gchar *)vb->pdata[j], e->message);
            g_error_free(e);
          }
        }
      }
    }
  }
  point_clear(&first);
  return ok;
}

/* The first point (its warnings named "point 1"), the untied-ILP warning,
 * every axis value, every derived key's extremes and every pair of axes'
 * values. */
static gboolean check_values(const Sweep *s, GError **error) {
  GError *e = NULL;
  const gchar *first = g_ptr_array_index(s->points, 0);
  g_auto(GStrv) sets = g_strsplit(first, "\t", -1);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
  if (!check_point(sets, warnings, &e)) {
    fail(error, "warpsim rejected the sweep's settings: %s", e->message);
    g_error_free(e);
    return FALSE;
  }
  g_autoptr(GHashTable) said = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  g_autofree gchar *spaced = g_strdelimit(g_strdup(first), "\t", ' ');
  g_autofree gchar *where = g_strdup_printf("point 1 (%s)", spaced);
  warn_once(where, warnings, said);
  warn_untied_ilp(s, sets);
  /* a range's second value last: a refusal at the ends or of a derived
   * key is named as before */
  return check_axes(s, s->axis_checks, said, error) && check_derived(s, error) &&
         check_pairs(s, error) && check_axes(s, s->axis_seconds, NULL, error);
}

/* The sha256 of `len` bytes. */
static gchar *sha256(const gchar *data, gsize len) {
  return g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)data, len);
}

/* The sha256 of the file at `path`, "(unreadable)" without one (NULL), read
 * in chunks and at most READFILE_MAX_BYTES of it (the listing and export
 * readers' cap): NULL with CLI_ERROR_USAGE naming the file and the cap for
 * one the signature cannot hash (over the cap, not a regular file, gone
 * since it was loaded), never read forever. */
static gchar *file_sha256(const gchar *path, GError **error) {
  if (path == NULL)
    return g_strdup("(unreadable)");
  GError *err = NULL;
  gchar *h = readfile_sha256(path, READFILE_MAX_BYTES, &err);
  if (h == NULL) {
    fail(error, "--signature: cannot hash %s (allowed: a regular file of at most %u bytes)",
         err->message, READFILE_MAX_BYTES);
    g_error_free(err);
  }
  return h;
}

/* Whether `a` and `b` name one existing file (the same device and inode). */
static gboolean same_file(const gchar *a, const gchar *b) {
  GStatBuf sa, sb;
  return a != NULL && b != NULL && g_stat(a, &sa) == 0 && g_stat(b, &sb) == 0 &&
         sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The path of the [sass] file `f` of kernel `k` (a new string; NULL for none). */
static gchar *sass_path(const Kernel *k, const gchar *f) {
  if (f == NULL || *f == '\0')
    return NULL;
  g_autofree gchar *dir = g_path_get_dirname(k->file);
  return g_path_is_absolute(f) ? g_strdup(f) : g_build_filename(dir, f, NULL);
}

/* A [sass] kernel's listing and exports: the sha256 of one "HASH  -" line
 * each (sha256sum's), in that order, paths relative to the kernel file;
 * NULL with file_sha256's error. */
static gchar *sass_sha256(const Kernel *k, GError **error) {
  const gchar *files[] = {k->sass_file, k->sass_source, k->sass_details};
  g_autofree gchar *dir = g_path_get_dirname(k->file);
  g_autoptr(GString) lines = g_string_new(NULL);
  for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
    if (files[i] == NULL || *files[i] == '\0')
      continue;
    g_autofree gchar *path =
        g_path_is_absolute(files[i]) ? g_strdup(files[i]) : g_build_filename(dir, files[i], NULL);
    g_autofree gchar *h = file_sha256(path, error);
    if (h == NULL)
      return NULL;
    g_string_append_printf(lines, "%s  -\n", h);
  }
  return sha256(lines->str, lines->len);
}

/* A point's [sass] sets ("k=v\tk=v..." -> its "sass.*" ones, tab-joined; a
 * new string, "" for none), which may name another listing or export than
 * point 1's. */
static gchar *point_sass_sets(const gchar *point) {
  g_auto(GStrv) sets = g_strsplit(point, "\t", -1);
  GString *out = g_string_new(NULL);
  for (guint i = 0; sets[i] != NULL; i++)
    if (g_str_has_prefix(sets[i], "sass."))
      g_string_append_printf(out, "%s%s", out->len ? "\t" : "", sets[i]);
  return g_string_free(out, FALSE);
}

/* The listings and exports of every point after the first that sets a [sass]
 * key: each distinct sass_sha256 other than `first`'s, one "HASH" line each in
 * grid order ("" for none: the signature of a sweep whose points all read
 * point 1's files is as before); NULL with cli_load's or file_sha256's
 * error. */
static gchar *other_sass_sha256(const Sweep *s, const gchar *first, GError **error) {
  g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_add(seen, g_strdup(first));
  /* the [sass] sets already hashed: a value repeated over the grid is loaded once */
  g_autoptr(GHashTable) loaded = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GString) lines = g_string_new(NULL);
  for (guint i = 1; i < s->points->len; i++) {
    const gchar *point = g_ptr_array_index(s->points, i);
    gchar *sass_sets = point_sass_sets(point);
    if (*sass_sets == '\0' || !g_hash_table_add(loaded, sass_sets)) {
      if (*sass_sets == '\0')
        g_free(sass_sets);
      continue;
    }
    g_autoptr(SmModel) m = NULL;
    g_autoptr(Kernel) k = NULL;
    g_auto(GStrv) sets = g_strsplit(point, "\t", -1);
    gchar *h = cli_load(sp_model, sp_kernel, sets, &m, &k, error) ? sass_sha256(k, error) : NULL;
    if (h == NULL) {
      g_prefix_error(error, "--signature: point %u: ", i + 1);
      return NULL;
    }
    if (g_hash_table_add(seen, h))
      g_string_append_printf(lines, "%s\n", h);
  }
  return g_string_free(g_steal_pointer(&lines), FALSE);
}

/* What decides the results, one "what: value" line each. */
static gboolean write_signature(const Sweep *s, GError **error) {
  g_autoptr(SmModel) m = NULL;
  g_autoptr(Kernel) k = NULL;
  g_auto(GStrv) sets = g_strsplit(g_ptr_array_index(s->points, 0), "\t", -1);
  if (!cli_load(sp_model, sp_kernel, sets, &m, &k, error))
    return FALSE;
  /* the binary as before when it cannot be read (it is no input) */
  g_autofree gchar *bin = readfile_sha256("/proc/self/exe", READFILE_MAX_BYTES, NULL);
  g_autofree gchar *mh = file_sha256(m->file, error);
  g_autofree gchar *kh = mh ? file_sha256(k->file, error) : NULL;
  g_autofree gchar *sh = kh ? sass_sha256(k, error) : NULL;
  g_autofree gchar *others = sh ? other_sass_sha256(s, sh, error) : NULL;
  if (others == NULL)
    return FALSE;
  if (*others != '\0') {
    /* points whose [sass] keys name other files: theirs hashed in too */
    g_autofree gchar *both = g_strdup_printf("%s  -\n%s", sh, others);
    g_free(sh);
    sh = sha256(both, strlen(both));
  }
  GString *config = g_string_new(NULL);
  g_string_append_printf(config, "# warpsim %s\n", WARPSIM_VERSION);
  model_dump(m, config, "# ");
  kernel_dump(k, config, "# ");
  GString *grid = g_string_new(NULL);
  for (guint i = 0; i < s->points->len; i++)
    g_string_append_printf(grid, "%s\n", (gchar *)g_ptr_array_index(s->points, i));
  g_autofree gchar *ch = sha256(config->str, config->len), *gh = sha256(grid->str, grid->len);
  g_autofree gchar *set_list = sp_sets ? g_strjoinv(" ", sp_sets) : g_strdup("");
  g_autofree gchar *text = g_strdup_printf(
      "warpsim version: warpsim %s\nwarpsim binary sha256: %s\nmodel: %s, file sha256 %s\n"
      "kernel: %s, file sha256 %s\nkernel's SASS listing and profiles sha256: %s\n"
      "effective configuration sha256: %s\n--set: %s\ngrid sha256: %s (%u points)\n",
      WARPSIM_VERSION, bin ? bin : "(unreadable)", sp_model, mh, sp_kernel, kh, sh, ch, set_list,
      gh, s->points->len);
  g_string_free(config, TRUE);
  g_string_free(grid, TRUE);
  /* the signature written over an input it hashes would replace it */
  const gchar *inputs[] = {m->file, k->file, k->sass_file, k->sass_source, k->sass_details};
  for (guint i = 0; i < G_N_ELEMENTS(inputs); i++) {
    g_autofree gchar *path = i < 2 ? g_strdup(inputs[i]) : sass_path(k, inputs[i]);
    if (same_file(sp_signature, path)) {
      g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE,
                  "sweep-points: --signature '%s': cannot write it (it is the sweep's input %s; "
                  "allowed: a new or regular file in an existing folder, no input)",
                  sp_signature, path);
      return FALSE;
    }
  }
  /* g_file_set_contents renames its temporary file over the path: a FIFO
   * or a device there (/dev/full) would be replaced by a regular file */
  if (g_file_test(sp_signature, G_FILE_TEST_EXISTS) &&
      !g_file_test(sp_signature, G_FILE_TEST_IS_REGULAR | G_FILE_TEST_IS_DIR)) {
    g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE,
                "sweep-points: --signature '%s': cannot write it (not a regular file; allowed: a "
                "new or regular file in an existing folder)",
                sp_signature);
    return FALSE;
  }
  GError *err = NULL;
  if (g_file_set_contents(sp_signature, text, -1, &err))
    return TRUE;
  /* err names the temporary file g_file_set_contents writes first */
  g_autofree gchar *dir = g_path_get_dirname(sp_signature);
  const gchar *why = g_file_test(sp_signature, G_FILE_TEST_IS_DIR) ? "it is a folder"
                     : !g_file_test(dir, G_FILE_TEST_IS_DIR)       ? "no such folder"
                                                                   : err->message;
  g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE,
              "sweep-points: --signature '%s': cannot write it (%s; allowed: a new or regular "
              "file in an existing folder)",
              sp_signature, why);
  g_error_free(err);
  return FALSE;
}

static gboolean sweep_points(GString *out, GError **error) {
  if (sp_kernel == NULL)
    return fail(error, "--kernel is required (see --help)");
  if (sp_axes == NULL)
    return fail(error, "at least one --axis group.key=values is required (see --help)");
  Sweep s;
  sweep_init(&s);
  guint64 points = 1;
  gboolean ok = parse_sets(&s, error);
  for (guint i = 0; ok && sp_axes[i] != NULL; i++)
    ok = parse_axis(&s, sp_axes[i], &points, error);
  for (guint i = 0; ok && sp_derives != NULL && sp_derives[i] != NULL; i++)
    ok = parse_derive(&s, sp_derives[i], error);
  if (ok && (ok = expand(&s, error))) {
    ok = (sp_no_check || check_values(&s, error)) &&
         (sp_signature == NULL || write_signature(&s, error));
  }
  /* Said once the grid is known good: bad input is its error line alone. */
  if (ok && s.dropped > 0)
    warn("dropped %u grid point(s) that repeat an earlier one", s.dropped);
  if (ok)
    cli_note_renamed(sp_model);
  for (guint i = 0; ok && i < s.points->len; i++)
    g_string_append_printf(out, "%s\n", (gchar *)g_ptr_array_index(s.points, i));
  sweep_clear(&s);
  return ok;
}

int cli_sweep_points_main(int argc, char **argv) {
  g_autoptr(GOptionContext) ctx = g_option_context_new("- the points of a sweep, one per line");
  g_option_context_add_main_entries(ctx, entries, NULL);
  g_option_context_set_description(
      ctx, "Prints every point of the grid the --set and --axis options span, first axis\n"
           "outermost, one line each: its settings as tab-separated group.key=value, the --set\n"
           "ones first (an axis's value replaces a --set of the same key), then the --derive\n"
           "keys; a point that repeats an earlier one is dropped (with a warning).  Values hold\n"
           "letters, digits and _ . + - : ; / only; A..B is every integer from A to B.\n"
           "--derive KEY=EXPR computes KEY at every point: + - * / (truncating) and parentheses\n"
           "over whole numbers (base 10, no step past +-2^53) and keys an --axis, a --set or an\n"
           "earlier --derive gives.  Before printing, the model and kernel are loaded and the\n"
           "run planned with the first point's settings, with every axis value (a range by its\n"
           "two ends and its second value) and at each derived key's smallest and largest: a\n"
           "value warpsim refuses exits 2 with one line naming the axis or key and the value,\n"
           "and nothing printed; a value that cannot change the result (launch.blocks_per_sm\n"
           "above what fits, stream.ilp above the instructions its chains share, stream.ilp\n"
           "swept with stream.fma fixed) gets a warning.  scripts/sweep.sh runs the points (its\n"
           "--print-grid is this output); --signature gives what its --resume compares.\n\n"
           "Example:\n"
           "  warpsim sweep-points --kernel fma --axis stream.ilp=1..4 "
           "--derive 'stream.fma=32*stream.ilp' --axis launch.blocks_per_sm=1,2\n");
  GError *err = NULL;
  if (!cli_parse(ctx, "sweep-points", argc, argv, &err))
    return cli_exit(err);
  g_autoptr(GString) out = g_string_new(NULL);
  if (!sweep_points(out, &err))
    return cli_exit(err);
  fwrite(out->str, 1, out->len, stdout);
  return CLI_EXIT_OK;
}
