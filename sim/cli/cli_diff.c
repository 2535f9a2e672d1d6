/* cli_diff.c - `warpsim diff A.json B.json`: the metrics of two runs side by
 * side, section by section, with the change from A (the baseline) to B. */
#include "cli/cli_diff.h"

#include "cli/cli.h"
#include "input/readfile.h"
#include "report/json_text.h"
#include "report/report.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>

/* The report's sections as `warpsim run --format json` names them in its
 * "profile" member, with Nsight Compute's titles. */
static const struct {
  const gchar *member;
  const gchar *title;
} sections[] = {
    {"speed_of_light", "GPU Speed Of Light Throughput"},
    {"scheduler", "Scheduler Statistics"},
    {"warp_states", "Warp State Statistics"},
    {"occupancy", "Occupancy"},
    {"launch", "Launch Statistics"},
};

static gchar *diff_format = "text";
static gchar *diff_units = NULL;
static gboolean diff_all;
static const GOptionEntry diff_entries[] = {
    {"format", 'f', 0, G_OPTION_ARG_STRING, &diff_format, "output: text (default) or csv", "F"},
    {"units", 'u', 0, G_OPTION_ARG_STRING, &diff_units,
     "sm: per-SM metrics only (the device_* columns of 'run --units device' are left out); "
     "device: also the device-wide rates, which both runs must carry (default: sm, and both "
     "runs in the same units)",
     "U"},
    {"all", 'a', 0, G_OPTION_ARG_NONE, &diff_all,
     "list the run's CSV columns that are equal too (default: only those that differ)", NULL},
    G_OPTION_ENTRY_NULL};

/* One compared metric. */
typedef struct {
  const gchar *section; /* section title */
  gchar *name;          /* metric name, owned */
  JsonNode *a, *b;      /* values (borrowed; NULL when absent) */
} Line;

static void line_clear(gpointer p) {
  g_free(((Line *)p)->name);
}

static gboolean is_number(JsonNode *n) {
  if (n == NULL || !JSON_NODE_HOLDS_VALUE(n))
    return FALSE;
  GType t = json_node_get_value_type(n);
  return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}

/* The value as text: numbers shortest round-trip (at most 6 significant
 * digits for doubles), strings as they are, "-" when absent. */
static gchar *value_text(JsonNode *n) {
  if (n == NULL)
    return g_strdup("-");
  if (JSON_NODE_HOLDS_NULL(n))
    return g_strdup("null");
  if (!JSON_NODE_HOLDS_VALUE(n))
    return g_strdup("...");
  GType t = json_node_get_value_type(n);
  if (t == G_TYPE_INT64)
    return g_strdup_printf("%" G_GINT64_FORMAT, json_node_get_int(n));
  if (t == G_TYPE_DOUBLE) {
    gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
    return g_strdup(g_ascii_formatd(buf, sizeof buf, "%.6g", json_node_get_double(n)));
  }
  if (t == G_TYPE_BOOLEAN)
    return g_strdup(json_node_get_boolean(n) ? "true" : "false");
  return g_strdup(json_node_get_string(n));
}

static gboolean same(JsonNode *a, JsonNode *b) {
  if (a == NULL || b == NULL)
    return a == b;
  if (is_number(a) && is_number(b))
    return json_node_get_double(a) == json_node_get_double(b);
  return json_node_equal(a, b);
}

static void add_line(GArray *lines, const gchar *section, gchar *name, JsonNode *a, JsonNode *b) {
  Line l = {section, name, a, b};
  g_array_append_val(lines, l);
}

/* Members of two objects in A's order, then those only B has. */
static void add_members(GArray *lines, const gchar *section, JsonObject *a, JsonObject *b,
                        gboolean only_changed) {
  g_autoptr(GList) ma = json_object_get_members(a);
  for (GList *l = ma; l != NULL; l = l->next) {
    JsonNode *na = json_object_get_member(a, l->data);
    JsonNode *nb = json_object_has_member(b, l->data) ? json_object_get_member(b, l->data) : NULL;
    if (JSON_NODE_HOLDS_OBJECT(na) || JSON_NODE_HOLDS_ARRAY(na))
      continue;
    if (!only_changed || !same(na, nb))
      add_line(lines, section, g_strdup(l->data), na, nb);
  }
  g_autoptr(GList) mb = json_object_get_members(b);
  for (GList *l = mb; l != NULL; l = l->next)
    if (!json_object_has_member(a, l->data) &&
        JSON_NODE_HOLDS_VALUE(json_object_get_member(b, l->data)))
      add_line(lines, section, g_strdup(l->data), NULL, json_object_get_member(b, l->data));
}

/* The warp states array: one line per state (warp cycles per issued
 * instruction), in A's order, then the states only B lists. */
static void add_states(GArray *lines, const gchar *section, JsonArray *a, JsonArray *b) {
  for (guint pass = 0; pass < 2; pass++) {
    JsonArray *x = pass ? b : a, *y = pass ? a : b;
    for (guint i = 0; x != NULL && i < json_array_get_length(x); i++) {
      JsonObject *ox = json_array_get_object_element(x, i);
      const gchar *state = json_object_get_string_member_with_default(ox, "state", "?");
      JsonNode *ny = NULL;
      for (guint j = 0; y != NULL && j < json_array_get_length(y); j++) {
        JsonObject *oy = json_array_get_object_element(y, j);
        if (g_strcmp0(json_object_get_string_member_with_default(oy, "state", ""), state) == 0)
          ny = json_object_get_member(oy, "warp_cycles_per_issued_instruction");
      }
      if (pass == 1 && ny != NULL)
        continue; /* listed in the first pass */
      JsonNode *nx = json_object_get_member(ox, "warp_cycles_per_issued_instruction");
      add_line(lines, section, g_strconcat("stall ", state, NULL), pass ? ny : nx, pass ? nx : ny);
    }
  }
}

/* The rule ids that fired, space-separated (newly allocated). */
static gchar *fired_rules(JsonObject *profile) {
  GString *s = g_string_new(NULL);
  JsonNode *n = json_object_get_member(profile, "rules");
  JsonArray *rules = n != NULL && JSON_NODE_HOLDS_ARRAY(n) ? json_node_get_array(n) : NULL;
  for (guint i = 0; rules != NULL && i < json_array_get_length(rules); i++) {
    JsonNode *e = json_array_get_element(rules, i);
    if (!JSON_NODE_HOLDS_OBJECT(e))
      continue;
    JsonObject *r = json_node_get_object(e);
    if (json_object_get_boolean_member_with_default(r, "fired", FALSE))
      g_string_append_printf(s, "%s%s", s->len ? " " : "",
                             json_object_get_string_member_with_default(r, "id", "?"));
  }
  return g_string_free(s, FALSE);
}

/* Read a `warpsim run --format json` result: the root object, which has a
 * "profile" object.  NULL with a message naming `path`. */
static JsonParser *load(const gchar *path, JsonObject **root, JsonObject **profile,
                        gchar **message) {
  g_autoptr(JsonParser) parser = json_parser_new();
  GError *err = NULL;
  const gchar *problem = readfile_problem(path);
  if (problem != NULL) {
    *message = g_strdup_printf("diff: %s: %s", path, problem);
    return NULL;
  }
  if (!json_parser_load_from_file(parser, path, &err)) {
    *message = g_strdup_printf("diff: %s: not JSON: %s", path, err->message);
    g_error_free(err);
    return NULL;
  }
  JsonNode *r = json_parser_get_root(parser);
  JsonNode *p = r != NULL && JSON_NODE_HOLDS_OBJECT(r)
                    ? json_object_get_member(json_node_get_object(r), "profile")
                    : NULL;
  if (p == NULL || !JSON_NODE_HOLDS_OBJECT(p)) {
    *message = g_strdup_printf("diff: %s: not a 'warpsim run --format json' result (no "
                               "\"profile\" object)",
                               path);
    return NULL;
  }
  *root = json_node_get_object(r);
  *profile = json_node_get_object(p);
  return g_steal_pointer(&parser);
}

static JsonObject *member_object(JsonObject *o, const gchar *name) {
  JsonNode *n = json_object_get_member(o, name);
  return n != NULL && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

/* B - A and (B - A) / A in %, as text; empty when either is not a number. */
static void deltas(const Line *l, gchar **delta, gchar **pct) {
  *delta = g_strdup("");
  *pct = g_strdup("");
  if (!is_number(l->a) || !is_number(l->b))
    return;
  gdouble a = json_node_get_double(l->a), b = json_node_get_double(l->b);
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_free(*delta);
  g_free(*pct);
  g_ascii_formatd(buf, sizeof buf, "%+.6g", b - a);
  *delta = g_strdup(b == a ? "0" : buf);
  if (b == a)
    *pct = g_strdup("0.0");
  else if (a != 0 && isfinite(a) && isfinite(b))
    *pct = g_strdup(g_ascii_formatd(buf, sizeof buf, "%+.1f", 100.0 * (b - a) / fabs(a)));
  else
    *pct = g_strdup("n/a");
}

static void write_csv(const GArray *lines, GString *out) {
  g_autoptr(ReportRow) header = report_row_new();
  const gchar *cols[] = {"section", "metric", "a", "b", "delta", "delta_pct"};
  for (guint i = 0; i < G_N_ELEMENTS(cols); i++)
    report_add_str(header, cols[i], "");
  report_csv_header(header, out);
  for (guint i = 0; i < lines->len; i++) {
    const Line *l = &g_array_index(lines, Line, i);
    g_autoptr(ReportRow) row = report_row_new();
    g_autofree gchar *a = value_text(l->a);
    g_autofree gchar *b = value_text(l->b);
    g_autofree gchar *d = NULL;
    g_autofree gchar *p = NULL;
    deltas(l, &d, &p);
    report_add_str(row, "section", l->section);
    report_add_str(row, "metric", l->name);
    report_add_str(row, "a", a);
    report_add_str(row, "b", b);
    report_add_str(row, "delta", d);
    report_add_str(row, "delta_pct", p);
    report_csv_values(row, out);
  }
}

static void write_text(const GArray *lines, GString *out) {
  static const gchar *const header[] = {"Metric Name", "A (baseline)", "B", "Delta", "Delta %"};
  const gchar *section = NULL;
  ReportTable *t = NULL;
  for (guint i = 0; i <= lines->len; i++) {
    const Line *l = i < lines->len ? &g_array_index(lines, Line, i) : NULL;
    if (t != NULL && (l == NULL || g_strcmp0(l->section, section) != 0)) {
      report_table_write(t, out);
      g_string_append_c(out, '\n');
      g_clear_pointer(&t, report_table_free);
    }
    if (l == NULL)
      break;
    if (t == NULL) {
      section = l->section;
      g_string_append_printf(out, "  Section: %s\n", section);
      t = report_table_new(G_N_ELEMENTS(header), header);
    }
    gchar *d, *p;
    deltas(l, &d, &p);
    report_table_add(t, l->name);
    report_table_take(t, value_text(l->a));
    report_table_take(t, value_text(l->b));
    report_table_take(t, d);
    report_table_take(t, p);
  }
}

/* The report's sections present in both profiles pa and pb, and their warp
 * states. */
static void add_sections(GArray *lines, JsonObject *pa, JsonObject *pb) {
  for (guint s = 0; s < G_N_ELEMENTS(sections); s++) {
    JsonObject *sa = member_object(pa, sections[s].member);
    JsonObject *sb = member_object(pb, sections[s].member);
    if (sa == NULL || sb == NULL)
      continue;
    add_members(lines, sections[s].title, sa, sb, FALSE);
    JsonNode *sta = json_object_get_member(sa, "states");
    JsonNode *stb = json_object_get_member(sb, "states");
    if (sta != NULL && stb != NULL && JSON_NODE_HOLDS_ARRAY(sta) && JSON_NODE_HOLDS_ARRAY(stb))
      add_states(lines, sections[s].title, json_node_get_array(sta), json_node_get_array(stb));
  }
}

/* The columns `warpsim run --units device` adds to a result (cli_run.c). */
static gboolean is_device_member(const gchar *name) {
  return g_str_has_prefix(name, "device_");
}

static gboolean has_device_members(JsonObject *root) {
  return json_object_has_member(root, "device_sms");
}

/* Move the device_* members of `root` into `device` (copies; removed from
 * root), so the run's columns compare per-SM metrics only. */
static void split_device_members(JsonObject *root, JsonObject *device) {
  g_autoptr(GList) members = json_object_get_members(root);
  for (GList *l = members; l != NULL; l = l->next) {
    if (!is_device_member(l->data))
      continue;
    json_object_set_member(device, l->data, json_node_copy(json_object_get_member(root, l->data)));
    json_object_remove_member(root, l->data);
  }
}

/* The units both runs are compared in: NULL (and a message) when one run
 * carries device rates and the other does not and --units does not say
 * which to compare, or --units device names a run without them. */
static const gchar *diff_units_check(const gchar *units, const gchar *path_a, JsonObject *ra,
                                     const gchar *path_b, JsonObject *rb, gchar **message) {
  gboolean da = has_device_members(ra), db = has_device_members(rb);
  if (g_strcmp0(units, "device") == 0 && (!da || !db)) {
    *message = g_strdup_printf(
        "diff: --units device: %s has no device rates (device_sms, device_gb_per_s, ...): "
        "rerun it with 'warpsim run --units device', or compare per-SM with --units sm",
        !da ? path_a : path_b);
    return NULL;
  }
  if (units == NULL && da != db) {
    *message = g_strdup_printf(
        "diff: %s is in device units (run --units device) and %s per SM: pass --units sm to "
        "compare the per-SM metrics both carry, or rerun %s with --units device and pass "
        "--units device",
        da ? path_a : path_b, da ? path_b : path_a, da ? path_b : path_a);
    return NULL;
  }
  return units != NULL ? units : da ? "device" : "sm";
}

int cli_diff_main(int argc, char **argv) {
  g_autoptr(GOptionContext) ctx = g_option_context_new("A.json B.json - compare two runs");
  g_option_context_add_main_entries(ctx, diff_entries, NULL);
  g_option_context_set_description(
      ctx, "A and B are 'warpsim run --format json' results; A is the baseline.  Prints the\n"
           "run's CSV columns that differ, then every metric of the report's sections (Speed Of\n"
           "Light, Scheduler, Warp State, Occupancy, Launch) side by side with the change\n"
           "B - A and (B - A) / A in %, and the rules that fired in only one of them.\n\n"
           "Example:\n"
           "  warpsim run --kernel chase --set launch.blocks_per_sm=8 --format json > a.json\n"
           "  warpsim run --kernel chase --set launch.blocks_per_sm=16 --format json > b.json\n"
           "  warpsim diff a.json b.json\n\n"
           "Runs made with 'warpsim run --units device' carry device-wide rates (device_*);\n"
           "both runs must be in the same units, or --units sm compares the per-SM metrics.\n");
  GError *err = NULL;
  if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
    cli_print_error("warpsim: diff", err->message);
    g_error_free(err);
    return 2;
  }
  if (argc != 3) {
    fprintf(stderr,
            "warpsim: diff: expected two files, A.json B.json (see 'warpsim diff --help')\n");
    return 2;
  }
  if (g_strcmp0(diff_format, "text") != 0 && g_strcmp0(diff_format, "csv") != 0) {
    fprintf(stderr, "warpsim: diff: --format: '%s' (allowed text, csv)\n", diff_format);
    return 2;
  }
  if (diff_units != NULL && g_strcmp0(diff_units, "sm") != 0 &&
      g_strcmp0(diff_units, "device") != 0) {
    fprintf(stderr, "warpsim: diff: --units: '%s' (allowed sm, device)\n", diff_units);
    return 2;
  }
  JsonObject *ra, *rb, *pa, *pb;
  g_autofree gchar *message = NULL;
  g_autoptr(JsonParser) a = load(argv[1], &ra, &pa, &message);
  g_autoptr(JsonParser) b = a != NULL ? load(argv[2], &rb, &pb, &message) : NULL;
  const gchar *units =
      b != NULL ? diff_units_check(diff_units, argv[1], ra, argv[2], rb, &message) : NULL;
  if (units == NULL) {
    cli_print_error("warpsim", message);
    return 2;
  }
  g_autoptr(JsonObject) device_a = json_object_new();
  g_autoptr(JsonObject) device_b = json_object_new();
  split_device_members(ra, device_a);
  split_device_members(rb, device_b);
  g_autoptr(GArray) lines = g_array_new(FALSE, TRUE, sizeof(Line));
  g_array_set_clear_func(lines, line_clear);
  if (g_strcmp0(units, "device") == 0)
    add_members(lines, "Device (every SM as the simulated one)", device_a, device_b, FALSE);
  add_members(lines, "Run (CSV columns)", ra, rb, !diff_all);
  add_members(lines, "Result", pa, pb, FALSE);
  add_sections(lines, pa, pb);
  GString *out = g_string_new(NULL);
  if (g_strcmp0(diff_format, "csv") == 0) {
    write_csv(lines, out);
  } else {
    g_autofree gchar *fa = fired_rules(pa);
    g_autofree gchar *fb = fired_rules(pb);
    g_string_append_printf(out, "warpsim diff: A (baseline) %s, B %s\n\n", argv[1], argv[2]);
    write_text(lines, out);
    g_string_append_printf(out, "  Rules fired: A: %s\n               B: %s\n", *fa ? fa : "none",
                           *fb ? fb : "none");
  }
  fputs(out->str, stdout);
  g_string_free(out, TRUE);
  return 0;
}
