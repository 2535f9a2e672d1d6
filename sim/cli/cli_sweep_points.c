/* cli_sweep_points.c - `warpsim sweep-points`: a sweep's grid expanded,
 * checked and hashed (scripts/sweep.sh runs the points). */
#include "cli/cli_sweep_points.h"

#include "cli/cli.h"

#include "run/sim.h"

#include <stdio.h>
#include <string.h>

/* More points than this is refused (sweep.sh's limit: a typo in a range). */
#define SWEEP_MAX_POINTS 100000

static gchar *sp_model = "h200", *sp_kernel, *sp_signature;
static gchar **sp_sets, **sp_axes;
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
    {"signature", 0, 0, G_OPTION_ARG_FILENAME, &sp_signature,
     "write what decides the results (versions, file hashes, grid hash) to FILE", "FILE"},
    {"no-check", 0, 0, G_OPTION_ARG_NONE, &sp_no_check,
     "do not load the model and kernel at each axis value", NULL},
    G_OPTION_ENTRY_NULL};

/* The sweep: its fixed settings and axes. */
typedef struct {
  GPtrArray *fixed_keys, *fixed_values; /* gchar *, in order of first appearance */
  GPtrArray *axis_text;                 /* the --axis strings (borrowed) */
  GPtrArray *axis_keys;                 /* GStrv per axis */
  GPtrArray *axis_values;               /* GPtrArray of gchar * per axis */
  GPtrArray *axis_checks;               /* the values warpsim checks (a range by its ends) */
  GPtrArray *points;                    /* gchar *: "k=v\tk=v..." per point, grid order */
  guint dropped;                        /* points that repeated an earlier one */
} Sweep;

static void sweep_clear(Sweep *s) {
  GPtrArray **all[] = {&s->fixed_keys,  &s->fixed_values, &s->axis_text, &s->axis_keys,
                       &s->axis_values, &s->axis_checks,  &s->points};
  for (guint i = 0; i < G_N_ELEMENTS(all); i++)
    g_clear_pointer(all[i], g_ptr_array_unref);
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

/* One value or range of an axis into its values and checks. */
static gboolean parse_value(const gchar *v, const gchar *where, GPtrArray *values,
                            GPtrArray *checks, GError **error) {
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
    return TRUE;
  }
  if (!check_value(v, where, error))
    return FALSE;
  g_ptr_array_add(values, g_strdup(v));
  g_ptr_array_add(checks, g_strdup(v));
  return TRUE;
}

static gboolean parse_axis(Sweep *s, const gchar *a, GHashTable *axis_of, guint64 *points,
                           GError **error) {
  g_autofree gchar *where = g_strdup_printf("--axis '%s'", a);
  const gchar *eq = strchr(a, '=');
  if (eq == NULL || eq == a || eq[1] == '\0')
    return fail(error, "%s: expected group.key=V1,V2 or group.key=A..B", where);
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
    const gchar *other = g_hash_table_lookup(axis_of, klist[i]);
    if (other != NULL)
      warn("%s is on two axes ('%s' and '%s'): the later axis's value is used", klist[i], other, a);
    else if (index_of(s->fixed_keys, klist[i]) >= 0)
      warn("%s is set by --set and by --axis '%s': the axis's value is used", klist[i], a);
    g_hash_table_insert(axis_of, klist[i], (gpointer)a);
  }
  GPtrArray *values = g_ptr_array_new_with_free_func(g_free);
  GPtrArray *checks = g_ptr_array_new_with_free_func(g_free);
  g_ptr_array_add(s->axis_values, values);
  g_ptr_array_add(s->axis_checks, checks);
  g_auto(GStrv) vlist = g_strsplit(eq + 1, ",", -1);
  for (guint i = 0; vlist[i] != NULL; i++)
    if (!parse_value(vlist[i], where, values, checks, error))
      return FALSE;
  *points *= values->len;
  if (*points > SWEEP_MAX_POINTS)
    return fail(error, "the grid has over %d points", SWEEP_MAX_POINTS);
  g_ptr_array_add(s->axis_keys, g_steal_pointer(&klist));
  g_ptr_array_add(s->axis_text, (gpointer)a);
  return TRUE;
}

/* The point of axis indices `idx`: the fixed settings overridden by the
 * axes' (first appearance keeps a key's place), as "k=v\tk=v". */
static gchar *point_line(const Sweep *s, const guint *idx) {
  g_autoptr(GPtrArray) order = g_ptr_array_new();
  g_autoptr(GHashTable) val = g_hash_table_new(g_str_hash, g_str_equal);
  for (guint i = 0; i < s->fixed_keys->len; i++) {
    g_ptr_array_add(order, g_ptr_array_index(s->fixed_keys, i));
    g_hash_table_insert(val, g_ptr_array_index(s->fixed_keys, i),
                        g_ptr_array_index(s->fixed_values, i));
  }
  for (guint a = 0; a < s->axis_keys->len; a++) {
    GStrv keys = g_ptr_array_index(s->axis_keys, a);
    gchar *v = g_ptr_array_index((GPtrArray *)g_ptr_array_index(s->axis_values, a), idx[a]);
    for (guint k = 0; keys[k] != NULL; k++) {
      if (!g_hash_table_contains(val, keys[k]))
        g_ptr_array_add(order, keys[k]);
      g_hash_table_insert(val, keys[k], v);
    }
  }
  GString *line = g_string_new(NULL);
  for (guint i = 0; i < order->len; i++)
    g_string_append_printf(line, "%s%s=%s", i ? "\t" : "", (gchar *)g_ptr_array_index(order, i),
                           (gchar *)g_hash_table_lookup(val, g_ptr_array_index(order, i)));
  return g_string_free(line, FALSE);
}

/* Every point, first axis outermost, repeats dropped. */
static void expand(Sweep *s) {
  guint n = s->axis_keys->len;
  g_autofree guint *idx = g_new0(guint, n);
  g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
  for (;;) {
    gchar *line = point_line(s, idx);
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
      return;
  }
}

/* The settings of point line `line` as a NULL-terminated vector, the keys
 * in `keys` (may be NULL) given `value` instead. */
static GStrv point_sets(const gchar *line, GStrv keys, const gchar *value) {
  GStrv sets = g_strsplit(line, "\t", -1);
  for (guint i = 0; keys != NULL && sets[i] != NULL; i++) {
    g_autofree gchar *k = g_strndup(sets[i], strchr(sets[i], '=') - sets[i]);
    if (g_strv_contains((const gchar *const *)keys, k)) {
      g_free(sets[i]);
      sets[i] = g_strdup_printf("%s=%s", k, value);
    }
  }
  return sets;
}

/* Load model and kernel with `sets` and plan and start the run (one cycle):
 * what `warpsim run` refuses before it simulates is refused here. */
static gboolean check_point(GStrv sets, GError **error) {
  g_autoptr(SmModel) m = NULL;
  g_autoptr(Kernel) k = NULL;
  if (!cli_load(sp_model, sp_kernel, sets, &m, &k, error))
    return FALSE;
  SimOptions opt = {.max_cycles = 1};
  SimResult r;
  GError *e = NULL;
  if (sim_run(m, k, &opt, &r, &e) || g_error_matches(e, SIM_ERROR, SIM_ERROR_BOUND)) {
    g_clear_error(&e);
    return TRUE;
  }
  g_propagate_error(error, e);
  return FALSE;
}

/* The first point, then every axis value (a range by its ends) with the
 * first point's other settings. */
static gboolean check_values(const Sweep *s, GError **error) {
  GError *e = NULL;
  const gchar *first = g_ptr_array_index(s->points, 0);
  g_auto(GStrv) sets = point_sets(first, NULL, NULL);
  if (!check_point(sets, &e)) {
    fail(error, "the sweep's settings: %s", e->message);
    g_error_free(e);
    return FALSE;
  }
  for (guint a = 0; a < s->axis_keys->len; a++) {
    GPtrArray *checks = g_ptr_array_index(s->axis_checks, a);
    for (guint i = 0; i < checks->len; i++) {
      const gchar *v = g_ptr_array_index(checks, i);
      g_auto(GStrv) at = point_sets(first, g_ptr_array_index(s->axis_keys, a), v);
      if (!check_point(at, &e)) {
        fail(error, "--axis '%s': value '%s': %s", (gchar *)g_ptr_array_index(s->axis_text, a), v,
             e->message);
        g_error_free(e);
        return FALSE;
      }
    }
  }
  return TRUE;
}

/* The sha256 of `len` bytes, "(unreadable)" for a file that could not be
 * read. */
static gchar *sha256(const gchar *data, gsize len) {
  return data ? g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)data, len)
              : g_strdup("(unreadable)");
}
static gchar *file_sha256(const gchar *path) {
  g_autofree gchar *text = NULL;
  gsize len = 0;
  if (path == NULL || !g_file_get_contents(path, &text, &len, NULL))
    return g_strdup("(unreadable)");
  return sha256(text, len);
}

/* A [sass] kernel's listing and exports: the sha256 of one "HASH  -" line
 * each (sha256sum's), in that order, paths relative to the kernel file. */
static gchar *sass_sha256(const Kernel *k) {
  const gchar *files[] = {k->sass_file, k->sass_source, k->sass_details};
  g_autofree gchar *dir = g_path_get_dirname(k->file);
  GString *lines = g_string_new(NULL);
  for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
    if (files[i] == NULL || *files[i] == '\0')
      continue;
    g_autofree gchar *path =
        g_path_is_absolute(files[i]) ? g_strdup(files[i]) : g_build_filename(dir, files[i], NULL);
    g_autofree gchar *h = file_sha256(path);
    if (strcmp(h, "(unreadable)") == 0)
      g_string_append_printf(lines, "unreadable %s\n", path);
    else
      g_string_append_printf(lines, "%s  -\n", h);
  }
  gchar *h = sha256(lines->str, lines->len);
  g_string_free(lines, TRUE);
  return h;
}

/* What decides the results, one "what: value" line each. */
static gboolean write_signature(const Sweep *s, GError **error) {
  g_autoptr(SmModel) m = NULL;
  g_autoptr(Kernel) k = NULL;
  g_auto(GStrv) sets = point_sets(g_ptr_array_index(s->points, 0), NULL, NULL);
  if (!cli_load(sp_model, sp_kernel, sets, &m, &k, error))
    return FALSE;
  GString *config = g_string_new(NULL);
  g_string_append_printf(config, "# warpsim %s\n", WARPSIM_VERSION);
  model_dump(m, config, "# ");
  kernel_dump(k, config, "# ");
  GString *grid = g_string_new(NULL);
  for (guint i = 0; i < s->points->len; i++)
    g_string_append_printf(grid, "%s\n", (gchar *)g_ptr_array_index(s->points, i));
  g_autofree gchar *bin = file_sha256("/proc/self/exe");
  g_autofree gchar *mh = file_sha256(m->file), *kh = file_sha256(k->file), *sh = sass_sha256(k);
  g_autofree gchar *ch = sha256(config->str, config->len), *gh = sha256(grid->str, grid->len);
  g_autofree gchar *set_list = sp_sets ? g_strjoinv(" ", sp_sets) : g_strdup("");
  g_autofree gchar *text = g_strdup_printf(
      "warpsim version: warpsim %s\nwarpsim binary sha256: %s\nmodel: %s, file sha256 %s\n"
      "kernel: %s, file sha256 %s\nkernel's SASS listing and profiles sha256: %s\n"
      "effective configuration sha256: %s\n--set: %s\ngrid sha256: %s (%u points)\n",
      WARPSIM_VERSION, bin, sp_model, mh, sp_kernel, kh, sh, ch, set_list, gh, s->points->len);
  g_string_free(config, TRUE);
  g_string_free(grid, TRUE);
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
  Sweep s = {.fixed_keys = g_ptr_array_new_with_free_func(g_free),
             .fixed_values = g_ptr_array_new_with_free_func(g_free),
             .axis_text = g_ptr_array_new(),
             .axis_keys = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev),
             .axis_values = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref),
             .axis_checks = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref),
             .points = g_ptr_array_new_with_free_func(g_free)};
  g_autoptr(GHashTable) axis_of = g_hash_table_new(g_str_hash, g_str_equal);
  guint64 points = 1;
  gboolean ok = parse_sets(&s, error);
  for (guint i = 0; ok && sp_axes[i] != NULL; i++)
    ok = parse_axis(&s, sp_axes[i], axis_of, &points, error);
  if (ok) {
    expand(&s);
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
           "ones first (an axis's value replaces a --set of the same key); a point that repeats\n"
           "an earlier one is dropped (with a warning).  Values hold letters, digits and\n"
           "_ . + - : ; / only; A..B is every integer from A to B.  Before printing, the model\n"
           "and kernel are loaded and the run planned with the first point's settings and with\n"
           "every axis value (a range by its two ends): a value warpsim refuses exits 2 with one\n"
           "line naming the axis and value, and nothing printed.  scripts/sweep.sh runs the\n"
           "points; --signature gives what its --resume compares.\n\n"
           "Example:\n"
           "  warpsim sweep-points --kernel chase --axis stream.ilp,stream.loads=1,2 "
           "--axis launch.blocks_per_sm=1..3\n");
  GError *err = NULL;
  if (!cli_parse(ctx, "sweep-points", argc, argv, &err))
    return cli_exit(err);
  g_autoptr(GString) out = g_string_new(NULL);
  if (!sweep_points(out, &err))
    return cli_exit(err);
  fwrite(out->str, 1, out->len, stdout);
  return CLI_EXIT_OK;
}
