/* cli_curve_stats.c - `warpsim curve-stats`: the numbers of report/curve_stats.h
 * per curve of CSV points. */
#include "cli/cli_curve_stats.h"

#include "cli/cli.h"

#include "report/curve_stats.h"
#include "report/report.h"
#include "sass/ncu_csv.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static struct {
  gchar *x, *y, *group, *occupancy, *measured, *fit, *bound, *missing, *format;
  gchar *max_mape_text, *max_knee_diff_text; /* as given; NULL: no gate */
  gdouble max_mape, max_knee_diff;           /* their values; < 0: no gate */
  gboolean no_knee, fall, where;
} opt = {.x = "warps_per_sm", .missing = "-", .format = "csv", .max_mape = -1, .max_knee_diff = -1};

static const GOptionEntry entries[] = {
    {"x", 0, 0, G_OPTION_ARG_STRING, &opt.x, "the x column (default warps_per_sm)", "COL"},
    {"y", 0, 0, G_OPTION_ARG_STRING, &opt.y,
     "the metric column (the simulated one with --measured)", "COL"},
    {"group", 0, 0, G_OPTION_ARG_STRING, &opt.group,
     "columns whose values name a curve, comma-separated (default: one curve)", "COL,..."},
    {"occupancy", 0, 0, G_OPTION_ARG_STRING, &opt.occupancy,
     "an occupancy column in %: adds knee_occupancy_pct and change_50_to_100_pct", "COL"},
    {"measured", 0, 0, G_OPTION_ARG_STRING, &opt.measured,
     "the measured column: compare --y against it (MAPE, both knees)", "COL"},
    {"fit", 0, 0, G_OPTION_ARG_STRING, &opt.fit,
     "with --measured: a yes/no column, the points a model was fitted on (MAPE split)", "COL"},
    {"bound", 0, 0, G_OPTION_ARG_STRING, &opt.bound,
     "with --measured: a bound column ('-' = none) whose MAPE is added", "COL"},
    {"fall", 0, 0, G_OPTION_ARG_NONE, &opt.fall,
     "with --measured: add both peaks' x and the fall from peak to the last point", NULL},
    {"where", 0, 0, G_OPTION_ARG_NONE, &opt.where,
     "without --measured: add the points the numbers come from (peak_x, knee_y, falls; "
     "half_occupancy_pct, full_occupancy_pct with --occupancy)",
     NULL},
    {"no-knee", 0, 0, G_OPTION_ARG_NONE, &opt.no_knee,
     "with --measured: the points are no curve over x (no plateau or knee)", NULL},
    {"max-mape", 0, 0, G_OPTION_ARG_STRING, &opt.max_mape_text,
     "with --measured: a pass column, MAPE (held-out with --fit) <= PCT", "PCT"},
    {"max-knee-diff", 0, 0, G_OPTION_ARG_STRING, &opt.max_knee_diff_text,
     "with --measured: a pass column, knees at most X apart", "X"},
    {"missing", 0, 0, G_OPTION_ARG_STRING, &opt.missing,
     "the CSV text of a value that does not exist (default '-'; JSON: null)", "TEXT"},
    {"format", 'f', 0, G_OPTION_ARG_STRING, &opt.format, "output: csv (default) or json", "F"},
    G_OPTION_ENTRY_NULL};

/* One point; the texts point into its file's NcuTable. */
typedef struct {
  gdouble x, y, measured, bound, occupancy;
  gboolean fit, has_bound;
  const gchar *x_text, *y_text, *measured_text, *occupancy_text;
  guint seq; /* input order, to keep equal x in it */
} Point;

typedef struct {
  gchar **group; /* the group columns' values */
  GArray *points;
} Curve;

static void curve_free(gpointer p) {
  Curve *c = p;
  g_strfreev(c->group);
  g_array_free(c->points, TRUE);
  g_free(c);
}

/* The columns of one file (-1: not asked for). */
typedef struct {
  gint x, y, measured, fit, bound, occupancy;
  gint *group;
} Columns;

typedef struct {
  gchar **group_names;
  GPtrArray *curves;  /* Curve, in order of first appearance */
  GHashTable *by_key; /* group values, each as "LENGTH:VALUE" -> Curve (borrowed) */
  GPtrArray *tables;  /* NcuTable, kept for the texts */
  guint seq;
} Input;

static gint column(const NcuRow *header, const gchar *name, const gchar *file, GError **error) {
  if (name == NULL)
    return -1;
  gint c = ncu_csv_column(header, name);
  if (c < 0)
    g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE, "%s:%u: no column '%s'", file, header->line,
                name);
  for (guint i = c + 1; c >= 0 && i < header->n_fields; i++)
    if (strcmp(header->fields[i], name) == 0) {
      g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE,
                  "%s:%u: column '%s' appears twice (columns %d and %u; allowed: once)", file,
                  header->line, name, c + 1, i + 1);
      return -1;
    }
  return c;
}

/* A decimal number as the rows of warpsim and the references write it: an
 * optional sign, digits with an optional point, an optional exponent; no
 * space, hex, inf or nan (g_ascii_strtod takes those). */
static gboolean decimal(const gchar *s) {
  const gchar *p = s + (*s == '-' || *s == '+');
  gsize whole = strspn(p, "0123456789"), frac = 0;
  p += whole;
  if (*p == '.')
    p += 1 + (frac = strspn(p + 1, "0123456789"));
  if (whole + frac == 0)
    return FALSE;
  if (*p == 'e' || *p == 'E') {
    p += 1 + (p[1] == '-' || p[1] == '+');
    gsize exp = strspn(p, "0123456789");
    if (exp == 0)
      return FALSE;
    p += exp;
  }
  return *p == '\0';
}

static gboolean number(const NcuRow *r, gint col, const gchar *name, const gchar *file, gdouble *v,
                       GError **error) {
  const gchar *s = ncu_csv_field(r, col);
  *v = decimal(s) ? g_ascii_strtod(s, NULL) : NAN;
  if (isfinite(*v))
    return TRUE;
  g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE,
              "%s:%u:%d: column %s: '%s' is %s (allowed: a decimal number such as 12, "
              "-0.5 or 1.5e3, no spaces%s)",
              file, r->line, col + 1, name, s,
              isinf(*v) ? "out of range (overflow)" : "not a number",
              isinf(*v) ? ", of magnitude at most 1.8e308" : "");
  return FALSE;
}

static gboolean yes_no(const NcuRow *r, gint col, const gchar *file, gboolean *v, GError **error) {
  static const gchar *const words[] = {"no", "yes", "false", "true", "0", "1"};
  const gchar *s = ncu_csv_field(r, col);
  for (guint i = 0; i < G_N_ELEMENTS(words); i++) {
    if (g_ascii_strcasecmp(s, words[i]) == 0) {
      *v = i % 2;
      return TRUE;
    }
  }
  g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE,
              "%s:%u: column %s: '%s' (allowed yes, no, true, false, 1, 0)", file, r->line, opt.fit,
              s);
  return FALSE;
}

/* A relative error above this, in %, is no comparison (a unit or column
 * mixed up): refused, so that a MAPE stays a finite number (a sum of them
 * cannot overflow) and the CSV holds no 'inf', which curve-stats would
 * refuse to read back.  A sanity bound, not a measurement. */
#define CURVE_MAX_ERROR_PCT 1e15

/* Whether `v`, column `name` (index col) of row `r`, is within
 * CURVE_MAX_ERROR_PCT of the measured value m (column mcol, not 0); a
 * one-line CLI_ERROR_USAGE otherwise. */
static gboolean error_ok(const NcuRow *r, gint col, const gchar *name, gdouble v, gint mcol,
                         gdouble m, const gchar *file, GError **error) {
  if (fabs(v - m) / fabs(m) * 100 <= CURVE_MAX_ERROR_PCT)
    return TRUE;
  g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE,
              "%s:%u: column %s: '%s' against %s '%s': a relative error above %.0e %% (allowed: "
              "within %.0e %% of the measured value)",
              file, r->line, name, ncu_csv_field(r, col), opt.measured, ncu_csv_field(r, mcol),
              CURVE_MAX_ERROR_PCT, CURVE_MAX_ERROR_PCT);
  return FALSE;
}

/* The numbers of one data row into *p. */
static gboolean read_point(const NcuRow *r, const Columns *c, const gchar *file, Point *p,
                           GError **error) {
  if (!number(r, c->x, opt.x, file, &p->x, error) || !number(r, c->y, opt.y, file, &p->y, error))
    return FALSE;
  p->x_text = ncu_csv_field(r, c->x);
  p->y_text = ncu_csv_field(r, c->y);
  if (c->occupancy >= 0) {
    if (!number(r, c->occupancy, opt.occupancy, file, &p->occupancy, error))
      return FALSE;
    p->occupancy_text = ncu_csv_field(r, c->occupancy);
  }
  if (c->measured >= 0) {
    if (!number(r, c->measured, opt.measured, file, &p->measured, error))
      return FALSE;
    if (p->measured == 0) {
      g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE,
                  "%s:%u: column %s: 0, the relative error is undefined (allowed: not 0)", file,
                  r->line, opt.measured);
      return FALSE;
    }
    p->measured_text = ncu_csv_field(r, c->measured);
    if (!error_ok(r, c->y, opt.y, p->y, c->measured, p->measured, file, error))
      return FALSE;
  }
  if (c->fit >= 0 && !yes_no(r, c->fit, file, &p->fit, error))
    return FALSE;
  const gchar *b = c->bound >= 0 ? ncu_csv_field(r, c->bound) : "-";
  p->has_bound = strcmp(b, "-") != 0 && *b != '\0';
  return !p->has_bound ||
         (number(r, c->bound, opt.bound, file, &p->bound, error) &&
          error_ok(r, c->bound, opt.bound, p->bound, c->measured, p->measured, file, error));
}

/* The curve a row belongs to (made on its first row). */
static Curve *curve_of(Input *in, const NcuRow *r, const Columns *c) {
  guint n = g_strv_length(in->group_names);
  g_autoptr(GStrvBuilder) b = g_strv_builder_new();
  for (guint i = 0; i < n; i++)
    g_strv_builder_add(b, ncu_csv_field(r, c->group[i]));
  g_auto(GStrv) values = g_strv_builder_end(b);
  /* each value after its length: no cell's text can join two curves (with
   * a separator, "a\x1fb","c" and "a","b\x1fc" were one curve) */
  GString *joined = g_string_new(NULL);
  for (guint i = 0; values[i] != NULL; i++)
    g_string_append_printf(joined, "%zu:%s", strlen(values[i]), values[i]);
  g_autofree gchar *key = g_string_free(joined, FALSE);
  Curve *curve = g_hash_table_lookup(in->by_key, key);
  if (curve == NULL) {
    curve = g_new0(Curve, 1);
    curve->group = g_steal_pointer(&values);
    curve->points = g_array_new(FALSE, FALSE, sizeof(Point));
    g_ptr_array_add(in->curves, curve);
    g_hash_table_insert(in->by_key, g_steal_pointer(&key), curve);
  }
  return curve;
}

static gboolean find_columns(const NcuRow *h, const gchar *file, Columns *c, GError **error) {
  c->x = column(h, opt.x, file, error);
  c->y = c->x < 0 ? -1 : column(h, opt.y, file, error);
  if (c->y < 0)
    return FALSE;
  const gchar *optional[] = {opt.occupancy, opt.measured, opt.fit, opt.bound};
  gint *where[] = {&c->occupancy, &c->measured, &c->fit, &c->bound};
  for (guint i = 0; i < G_N_ELEMENTS(optional); i++) {
    *where[i] = column(h, optional[i], file, error);
    if (optional[i] != NULL && *where[i] < 0)
      return FALSE;
  }
  return TRUE;
}

/* Every data row of one file into its curve. */
static gboolean read_file(Input *in, const gchar *file, GError **error) {
  g_autofree gchar *text = NULL;
  gsize len = 0;
  if (!ncu_csv_read_file(file, &text, &len, error))
    return FALSE;
  NcuTable *t = ncu_csv_read_untrimmed(text, len, file, error);
  if (t == NULL)
    return FALSE;
  g_ptr_array_add(in->tables, t);
  /* the header: the first row that is no comment ('run --config-comments'
   * puts its '# ' lines ahead of it) */
  guint first_row = 0;
  while (first_row < t->rows->len &&
         ncu_csv_field(&g_array_index(t->rows, NcuRow, first_row), 0)[0] == '#')
    first_row++;
  if (first_row == t->rows->len) {
    g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE, "%s: empty (expected a header row)", file);
    return FALSE;
  }
  const NcuRow *h = &g_array_index(t->rows, NcuRow, first_row);
  guint n_group = g_strv_length(in->group_names);
  g_autofree gint *group = g_new0(gint, n_group + 1);
  Columns c = {.group = group};
  if (!find_columns(h, file, &c, error))
    return FALSE;
  for (guint i = 0; i < n_group; i++)
    if ((group[i] = column(h, in->group_names[i], file, error)) < 0)
      return FALSE;
  for (guint i = first_row + 1; i < t->rows->len; i++) {
    const NcuRow *r = &g_array_index(t->rows, NcuRow, i);
    const gchar *first = ncu_csv_field(r, 0);
    if (first[0] == '#' || (r->n_fields == 1 && first[0] == '\0'))
      continue; /* a comment or an empty line */
    if (r->n_fields != h->n_fields) {
      g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE, "%s:%u: %u fields, the header has %u", file,
                  r->line, r->n_fields, h->n_fields);
      return FALSE;
    }
    Point p = {.seq = in->seq++};
    if (!read_point(r, &c, file, &p, error))
      return FALSE;
    g_array_append_val(curve_of(in, r, &c)->points, p);
  }
  return TRUE;
}

static gint by_x(gconstpointer a, gconstpointer b) {
  const Point *p = a, *q = b;
  if (p->x != q->x)
    return p->x < q->x ? -1 : 1;
  return p->seq < q->seq ? -1 : p->seq > q->seq;
}

/* One curve's values of one field, in order of x. */
static gdouble *values(const Curve *c, gsize offset) {
  gdouble *v = g_new(gdouble, c->points->len);
  for (guint i = 0; i < c->points->len; i++)
    v[i] = *(const gdouble *)((const gchar *)&g_array_index(c->points, Point, i) + offset);
  return v;
}

static const Point *point(const Curve *c, gint i) {
  return i >= 0 ? &g_array_index(c->points, Point, i) : NULL;
}

static void add_missing(ReportRow *row, const gchar *name) {
  report_add_number(row, name, opt.missing, NAN);
}

/* A computed number, or missing where it does not exist (NaN) or is past
 * a double (inf): the CSV then holds the missing text, as JSON holds null,
 * never 'nan' or 'inf', which curve-stats would refuse to read back. */
static void add_pct(ReportRow *row, const gchar *name, gdouble pct) {
  if (!isfinite(pct))
    add_missing(row, name);
  else
    report_add_double(row, name, pct, 1);
}

static void add_signed(ReportRow *row, const gchar *name, const gchar *fmt, gdouble v) {
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (!isfinite(v))
    add_missing(row, name);
  else
    report_add_number(row, name, g_ascii_formatd(buf, sizeof buf, fmt, v), v);
}

/* The text of `p`'s field at `offset` (a const gchar * of Point), or missing. */
static void add_text_of(ReportRow *row, const gchar *name, const Point *p, gsize value,
                        gsize text) {
  if (p == NULL) {
    add_missing(row, name);
    return;
  }
  report_add_number(row, name, *(const gchar *const *)((const gchar *)p + text),
                    *(const gdouble *)((const gchar *)p + value));
}

/* --where: the points the numbers come from. */
static void where_columns(ReportRow *row, const Curve *c, const Point *top, const Point *knee,
                          const gdouble *occ) {
  guint n = c->points->len;
  add_text_of(row, "peak_x", top, G_STRUCT_OFFSET(Point, x), G_STRUCT_OFFSET(Point, x_text));
  add_text_of(row, "knee_y", knee, G_STRUCT_OFFSET(Point, y), G_STRUCT_OFFSET(Point, y_text));
  const Point *last = point(c, (gint)n - 1);
  report_add_str(row, "falls", last->y < CURVE_KNEE_FRACTION * top->y ? "yes" : "no");
  if (occ == NULL)
    return;
  gsize v = G_STRUCT_OFFSET(Point, occupancy), t = G_STRUCT_OFFSET(Point, occupancy_text);
  add_text_of(row, "half_occupancy_pct",
              point(c, curve_half_point(occ, n, CURVE_HALF_OCCUPANCY_PCT)), v, t);
  add_text_of(row, "full_occupancy_pct", point(c, curve_full_point(occ, n)), v, t);
}

/* The columns of a curve without a measurement. */
static void curve_row(ReportRow *row, const Curve *c) {
  guint n = c->points->len;
  g_autofree gdouble *y = values(c, G_STRUCT_OFFSET(Point, y));
  const Point *top = point(c, curve_plateau(y, n));
  gboolean rising = curve_still_rising(y, n, CURVE_RISING_FRACTION);
  const Point *knee = rising ? NULL : point(c, curve_knee(y, n, CURVE_KNEE_FRACTION));
  report_add_str(row, "metric", opt.y);
  report_add_uint(row, "points", n);
  report_add_number(row, "plateau", top->y_text, top->y);
  if (knee != NULL)
    report_add_number(row, "knee_x", knee->x_text, knee->x);
  else
    add_missing(row, "knee_x");
  if (opt.occupancy != NULL) {
    if (knee != NULL)
      report_add_number(row, "knee_occupancy_pct", knee->occupancy_text, knee->occupancy);
    else
      add_missing(row, "knee_occupancy_pct");
  }
  const Point *last = point(c, (gint)n - 1);
  report_add_number(row, "y_at_max_x", last->y_text, last->y);
  report_add_str(row, "still_rising", rising ? "yes" : "no");
  g_autofree gdouble *occ = opt.occupancy ? values(c, G_STRUCT_OFFSET(Point, occupancy)) : NULL;
  gdouble change;
  if (occ != NULL && curve_change_pct(occ, y, n, CURVE_HALF_OCCUPANCY_PCT, &change))
    add_signed(row, "change_50_to_100_pct", "%+.1f", change);
  else if (occ != NULL)
    add_missing(row, "change_50_to_100_pct");
  if (opt.where)
    where_columns(row, c, top, knee, occ);
}

/* The plateau and knee columns of both curves; the knees' distance in *diff. */
static void knee_columns(ReportRow *row, const Curve *c, const gdouble *m, const gdouble *s,
                         gdouble *diff) {
  guint n = c->points->len;
  const gchar *names[] = {"plateau_measured", "plateau_simulated", "knee_measured_x",
                          "knee_simulated_x", "knee_diff_x"};
  *diff = 0;
  if (opt.no_knee) {
    for (guint i = 0; i < G_N_ELEMENTS(names); i++)
      add_missing(row, names[i]);
    return;
  }
  const Point *mt = point(c, curve_plateau(m, n)), *st = point(c, curve_plateau(s, n));
  const Point *mk = point(c, curve_knee(m, n, CURVE_KNEE_FRACTION));
  const Point *sk = point(c, curve_knee(s, n, CURVE_KNEE_FRACTION));
  report_add_number(row, names[0], mt->measured_text, mt->measured);
  report_add_number(row, names[1], st->y_text, st->y);
  /* (a curve of negative values has no knee: curve_knee gives -1) */
  gsize x = G_STRUCT_OFFSET(Point, x), x_text = G_STRUCT_OFFSET(Point, x_text);
  add_text_of(row, names[2], mk, x, x_text);
  add_text_of(row, names[3], sk, x, x_text);
  *diff = mk != NULL && sk != NULL ? sk->x - mk->x : NAN;
  add_signed(row, names[4], "%+g", *diff);
  if (opt.fall) {
    report_add_number(row, "peak_measured_x", mt->x_text, mt->x);
    report_add_number(row, "peak_simulated_x", st->x_text, st->x);
    add_pct(row, "fall_measured_pct", curve_fall_pct(m, n));
    add_pct(row, "fall_simulated_pct", curve_fall_pct(s, n));
  }
}

/* The columns of a curve against its measurement. */
static void compare_row(ReportRow *row, const Curve *c) {
  guint n = c->points->len, n_fit = 0, n_held = 0, n_all = 0, n_bound = 0;
  g_autofree gdouble *m = values(c, G_STRUCT_OFFSET(Point, measured));
  g_autofree gdouble *s = values(c, G_STRUCT_OFFSET(Point, y));
  g_autofree gdouble *b = values(c, G_STRUCT_OFFSET(Point, bound));
  g_autofree gboolean *fit = g_new(gboolean, n), *held = g_new(gboolean, n),
                      *bound = g_new(gboolean, n);
  for (guint i = 0; i < n; i++) {
    fit[i] = point(c, (gint)i)->fit;
    held[i] = !fit[i];
    bound[i] = point(c, (gint)i)->has_bound;
  }
  gdouble mape_fit = curve_mape_pct(m, s, fit, n, &n_fit);
  gdouble mape_held = curve_mape_pct(m, s, held, n, &n_held);
  gdouble mape_all = curve_mape_pct(m, s, NULL, n, &n_all);
  gdouble mape_bound = curve_mape_pct(m, b, bound, n, &n_bound);
  report_add_uint(row, "points", n);
  if (opt.fit != NULL) {
    report_add_uint(row, "fit_points", n_fit);
    add_pct(row, "mape_fit_pct", mape_fit);
    add_pct(row, "mape_heldout_pct", mape_held);
  }
  add_pct(row, "mape_all_pct", mape_all);
  if (opt.bound != NULL)
    add_pct(row, "bound_mape_pct", mape_bound);
  gdouble diff;
  knee_columns(row, c, m, s, &diff);
  if (opt.max_mape < 0 && opt.max_knee_diff < 0)
    return;
  gdouble gated = opt.fit != NULL ? mape_held : mape_all;
  /* a knee difference that does not exist (or is past a double) passes no gate */
  gboolean ok = (opt.max_mape < 0 || gated <= opt.max_mape) &&
                (opt.max_knee_diff < 0 || (isfinite(diff) && fabs(diff) <= opt.max_knee_diff));
  report_add_str(row, "pass", isnan(gated) ? "n/a" : ok ? "yes" : "NO");
}

static void write_rows(const Input *in, gboolean json, GString *out) {
  for (guint i = 0; i < in->curves->len; i++) {
    const Curve *c = g_ptr_array_index(in->curves, i);
    g_array_sort(c->points, by_x);
    g_autoptr(ReportRow) row = report_row_new();
    for (guint g = 0; in->group_names[g] != NULL; g++)
      report_add_str(row, in->group_names[g], c->group[g]);
    if (opt.measured != NULL)
      compare_row(row, c);
    else
      curve_row(row, c);
    if (json) {
      g_string_append(out, i == 0 ? "[\n" : ",\n");
      report_json(row, NULL, NULL, out);
      g_string_truncate(out, out->len - 1); /* the separator follows */
      continue;
    }
    if (i == 0)
      report_csv_header(row, out);
    report_csv_values(row, out);
  }
  if (json)
    g_string_append(out, "\n]\n");
}

/* A gate's value `text` (NULL: no gate, *v stays < 0) as a decimal >= 0. */
static gboolean gate(const gchar *text, gdouble *v) {
  if (text == NULL)
    return TRUE;
  *v = g_ascii_strtod(text, NULL);
  return decimal(text) && isfinite(*v) && *v >= 0;
}

/* The options' values checked; a one-line CLI_ERROR_USAGE otherwise. */
static gboolean check_options(gboolean *json, GError **error) {
  const gchar *why = NULL;
  gboolean gates_ok =
      gate(opt.max_mape_text, &opt.max_mape) && gate(opt.max_knee_diff_text, &opt.max_knee_diff);
  if (opt.y == NULL)
    why = "--y: a metric column is needed";
  else if (opt.measured != NULL && opt.where)
    why = "--where: only without --measured (--fall gives the peaks)";
  else if (opt.measured == NULL && (opt.fit || opt.bound || opt.fall || opt.no_knee ||
                                    opt.max_mape_text || opt.max_knee_diff_text))
    why = "--fit, --bound, --fall, --no-knee, --max-mape and --max-knee-diff need --measured";
  else if (opt.measured != NULL && opt.occupancy != NULL)
    why = "--occupancy: only without --measured";
  else if (opt.fall && opt.no_knee)
    why = "--fall and --no-knee exclude each other";
  else if (g_strcmp0(opt.format, "csv") != 0 && g_strcmp0(opt.format, "json") != 0)
    why = "--format: must be csv or json";
  else if (!gates_ok)
    why = "--max-mape, --max-knee-diff: must be a decimal number >= 0";
  if (why != NULL) {
    g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE, "curve-stats: %s (see --help)", why);
    return FALSE;
  }
  *json = strcmp(opt.format, "json") == 0;
  return TRUE;
}

static void input_clear(Input *in) {
  g_strfreev(in->group_names);
  g_ptr_array_free(in->curves, TRUE);
  g_hash_table_destroy(in->by_key);
  g_ptr_array_free(in->tables, TRUE);
}

static gboolean curve_stats(int argc, char **argv, GString *out, GError **error) {
  gboolean json = FALSE;
  if (!check_options(&json, error))
    return FALSE;
  if (argc < 2) {
    g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE,
                "curve-stats: expected one CSV file or more (see --help)");
    return FALSE;
  }
  Input in = {
      .group_names = opt.group ? g_strsplit(opt.group, ",", -1) : g_new0(gchar *, 1),
      .curves = g_ptr_array_new_with_free_func(curve_free),
      .by_key = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
      .tables = g_ptr_array_new_with_free_func((GDestroyNotify)ncu_csv_table_free),
  };
  gboolean ok = TRUE;
  for (int i = 1; ok && i < argc; i++)
    ok = read_file(&in, argv[i], error);
  if (ok && in.curves->len == 0) {
    g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE, "%s: no data rows", argv[argc - 1]);
    ok = FALSE;
  }
  if (ok)
    write_rows(&in, json, out);
  input_clear(&in);
  return ok;
}

int cli_curve_stats_main(int argc, char **argv) {
  g_autoptr(GOptionContext) ctx =
      g_option_context_new("FILE.csv... - plateau, knee and MAPE per curve");
  g_option_context_add_main_entries(ctx, entries, NULL);
  g_option_context_set_description(
      ctx,
      "Groups the rows of the CSV files (header row first; '#' lines skipped) into curves by\n"
      "--group, orders each curve's points by --x and prints one row per curve:\n"
      "  without --measured: metric, points, plateau (largest --y), knee_x (smallest x reaching\n"
      "    90 % of the plateau; missing while still rising), knee_occupancy_pct, y_at_max_x,\n"
      "    still_rising (the last step added > 2 %), change_50_to_100_pct (from the largest\n"
      "    occupancy <= 50 % to the largest; needs --occupancy); with --where also peak_x\n"
      "    (the plateau's x), knee_y, falls (the last point below 90 % of the plateau) and,\n"
      "    with --occupancy, half_occupancy_pct and full_occupancy_pct (the two points of\n"
      "    the change);\n"
      "  with --measured: points, fit_points, mape_fit_pct, mape_heldout_pct (--fit),\n"
      "    mape_all_pct (mean |y - measured| / |measured|), bound_mape_pct (--bound),\n"
      "    plateau_measured, plateau_simulated, knee_measured_x, knee_simulated_x,\n"
      "    knee_diff_x, peak_*_x and fall_*_pct (--fall), pass (--max-mape/--max-knee-diff:\n"
      "    yes, NO, or n/a when --fit leaves no held-out point).\n"
      "Plateaus, knees and peaks are the input's own text; MAPEs and falls have 1 decimal.\n"
      "Numbers are decimal (12, -0.5, 1.5e3): a space, hex, inf or nan in a cell exits 2\n"
      "naming FILE:LINE:COLUMN.\n\n"
      "Example:\n"
      "  warpsim curve-stats --group kernel,ilp --y fma_per_cycle --occupancy occupancy_pct "
      "fma.csv\n");
  GError *err = NULL;
  if (!g_option_context_parse(ctx, &argc, &argv, &err))
    return cli_exit(err);
  g_autoptr(GString) out = g_string_new(NULL);
  if (!curve_stats(argc, argv, out, &err))
    return cli_exit(err);
  fwrite(out->str, 1, out->len, stdout);
  return CLI_EXIT_OK;
}
