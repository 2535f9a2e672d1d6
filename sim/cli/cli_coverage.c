/* cli_coverage.c - `warpsim sass-coverage` (see cli_coverage.h). */
#include "cli/cli_coverage.h"

#include "cli/cli.h"
#include "report/report.h"
#include "sass/opclass.h"
#include "sass/sass.h"
#include "sass/sassprog.h"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  gchar *model;    /* --model; NULL: the listing's architecture ("sm_90") */
  gchar *format;   /* --format */
  gchar *function; /* --function; NULL: every function */
  gboolean allow_unclassed;
  gchar **args; /* the listing */
} CoverageOptions;

/* One opcode of the listing. */
typedef struct {
  gchar *opcode;     /* the base opcode, or the opcode_timing item that times it ("IMAD.HI");
                        owned */
  const gchar *file; /* listing, borrowed */
  guint count;       /* instructions */
  guint line;        /* its first line */
  OpClass cls;       /* its class, or the one assumed */
  gboolean classed;  /* a [class_*] group names it */
  gboolean timed;    /* its group's opcode_timing times it, not the group's latency/interval */
  gboolean indexed;  /* "LDC[R]": LDCs with a per-thread register address, timed by
                        [class_special] indexed_latency / indexed_interval */
  guint latency;     /* cycles */
  guint interval;    /* cycles */
} OpUse;

static void op_use_free(gpointer p) {
  OpUse *u = p;
  g_free(u->opcode);
  g_free(u);
}

static const gchar coverage_description[] =
    "Prints every opcode of the listing (all its functions, or --function's) with its\n"
    "count, first line, the model's opcode class ([class_*] group), that class's latency\n"
    "and issue interval, and the source of each (the model's KEY.source); LDCs with a\n"
    "per-thread register address are the row LDC[R] when [class_special]\n"
    "indexed_interval times them.  The model\n"
    "defaults to the shipped one of the listing's architecture (sm_90: h200); of a fat\n"
    "binary's listing (a section per architecture) the sections 'warpsim run' reads for\n"
    "the model's GPU; a function the model's GPU cannot run is refused as 'warpsim run'\n"
    "refuses it.\n\n"
    "Exit status: 0 every opcode classed, 2 bad input or an opcode in no class (one line\n"
    "naming it; --allow-unclassed lists it instead, with the class a run would assume).\n\n"
    "Example:\n  warpsim sass-coverage results/reference/h200/real/sass/saxpy.sass --format csv\n";

/* The functions of `all` that `want` names (all of them for NULL): its
 * mangled name exactly, or a substring of the demangled one.  A new array
 * borrowing the functions; NULL with CLI_ERROR_USAGE when none does. */
static GPtrArray *pick_functions(GPtrArray *all, const gchar *want, const gchar *listing,
                                 GError **error) {
  GPtrArray *out = g_ptr_array_new();
  GString *names = g_string_new(NULL);
  for (guint i = 0; i < all->len; i++) {
    const SassFunction *f = g_ptr_array_index(all, i);
    g_string_append_printf(names, "%s%s", names->len ? ", " : "", f->name);
    if (want == NULL || strcmp(f->name, want) == 0 || strstr(f->demangled, want) != NULL)
      g_ptr_array_add(out, (gpointer)f);
  }
  if (out->len == 0) {
    g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE,
                "sass-coverage: --function: no function of %s matches '%s' (functions: %s)",
                listing, want, names->str);
    g_clear_pointer(&out, g_ptr_array_unref);
  }
  g_string_free(names, TRUE);
  return out;
}

/* Of the sections a fat binary's listing holds of one function (cuobjdump
 * prints one per architecture, each after its `arch = sm_XX` header), the
 * one `warpsim run` reads for model `m`'s GPU (sass_load_for): compiled for
 * its compute capability, else the latest it runs by binary compatibility,
 * else the first (sass_model_check refuses it).  A new array borrowing the
 * functions of `fns`, each in the place of its first section. */
static GPtrArray *run_sections(const GPtrArray *fns, const SmModel *m) {
  GPtrArray *out = g_ptr_array_new();
  g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
  for (guint i = 0; i < fns->len; i++) {
    const SassFunction *best = g_ptr_array_index(fns, i);
    if (!g_hash_table_add(seen, best->name))
      continue; /* a later section of a function already taken */
    SassArchFit fit = sass_arch_fit(best->arch, best->arch_suffix, m->sm.cc_major, m->sm.cc_minor);
    for (guint j = i + 1; j < fns->len; j++) {
      const SassFunction *q = g_ptr_array_index(fns, j);
      if (strcmp(q->name, best->name) != 0)
        continue;
      SassArchFit f = sass_arch_fit(q->arch, q->arch_suffix, m->sm.cc_major, m->sm.cc_minor);
      if (f < fit || (f == fit && f == SASS_ARCH_COMPATIBLE && q->arch > best->arch)) {
        best = q;
        fit = f;
      }
    }
    g_ptr_array_add(out, (gpointer)best);
  }
  return out;
}

static gint compare_uses(gconstpointer a, gconstpointer b) {
  return strcmp((*(const OpUse *const *)a)->opcode, (*(const OpUse *const *)b)->opcode);
}

/* Every opcode of `fns`, sorted by name (a new array of OpUse, owning them):
 * one row per base opcode, one per opcode_timing item that times some of
 * its instructions, and "LDC[R]" for the LDCs with a per-thread register
 * address when [class_special] indexed_interval times them. */
static GPtrArray *collect_opcodes(const GPtrArray *fns, const SmModel *m) {
  g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
  GPtrArray *uses = g_ptr_array_new_with_free_func(op_use_free);
  for (guint i = 0; i < fns->len; i++) {
    const SassFunction *f = g_ptr_array_index(fns, i);
    for (guint k = 0; k < f->n; k++) {
      const SassInstr *in = &f->ins[k];
      OpClass cls = opclass_lookup(m->opclass, in->opcode);
      gboolean classed = cls != OPCLASS_MAX;
      if (!classed)
        cls = opclass_guess(in->opcode);
      guint lat = 0, iv = 0;
      gchar *item = opclass_timing(&m->opclass[cls], in->opcode, in->mods, &lat, &iv);
      gboolean timed = classed && item != NULL;
      /* an LDC with a register address has its own timing (sassprog.c) */
      gboolean indexed = cls == OPCLASS_SPECIAL && classed &&
                         m->opclass[cls].indexed_interval > 0 && sass_ldc_indexed(in);
      if (indexed) {
        timed = FALSE;
        lat = m->opclass[cls].indexed_latency;
        iv = m->opclass[cls].indexed_interval;
      }
      g_autofree gchar *name = timed ? item : indexed ? g_strdup("LDC[R]") : g_strdup(in->opcode);
      if (!timed)
        g_free(item);
      OpUse *u = g_hash_table_lookup(seen, name);
      if (u == NULL) {
        u = g_new0(OpUse, 1);
        u->opcode = g_strdup(name);
        u->file = f->file;
        u->line = in->line;
        u->cls = cls;
        u->classed = classed;
        u->timed = timed;
        u->indexed = indexed;
        u->latency = timed || indexed ? lat : m->opclass[cls].latency;
        u->interval = timed || indexed ? iv : m->opclass[cls].interval;
        g_hash_table_insert(seen, u->opcode, u);
        g_ptr_array_add(uses, u);
      }
      u->count++;
    }
  }
  g_ptr_array_sort(uses, compare_uses);
  return uses;
}

/* SASS_ERROR-style refusal of the unclassed opcodes of `uses`; FALSE when
 * there is one. */
static gboolean check_classed(const GPtrArray *uses, const SmModel *m, GError **error) {
  const OpUse *first = NULL;
  GString *others = g_string_new(NULL);
  for (guint i = 0; i < uses->len; i++) {
    const OpUse *u = g_ptr_array_index(uses, i);
    if (u->classed)
      continue;
    if (first == NULL)
      first = u;
    else
      g_string_append_printf(others, "%s%s (line %u)", others->len ? ", " : "", u->opcode, u->line);
  }
  if (first != NULL)
    g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE,
                "%s:%u: opcode '%s' is in no [class_*] group of model '%s' (%s)%s%s; add each to "
                "the group of its pipe, or give --allow-unclassed to list them with the class a "
                "run assumes",
                first->file, first->line, first->opcode, m->name, m->file,
                others->len ? "; nor are " : "", others->str);
  g_string_free(others, TRUE);
  return first == NULL;
}

/* The source of [group] key of `m`, with a reference to another key
 * followed once ("measured: as [fma] latency" -> "measured: as [fma]
 * latency = measured: results/reference/h200/latency.csv[...]"): a new
 * string, or NULL when the key has no source. */
static gchar *key_source(const SmModel *m, const gchar *group, const gchar *key) {
  const gchar *src = model_key_source(m, group, key);
  const gchar *as = src ? strstr(src, ": as [") : NULL;
  if (as == NULL)
    return g_strdup(src);
  gchar g[32] = "", k[32] = "";
  if (sscanf(as, ": as [%31[a-z0-9_]] %31[a-z0-9_]", g, k) != 2)
    return g_strdup(src);
  const gchar *ref = model_key_source(m, g, k);
  return ref ? g_strdup_printf("%s = %s", src, ref) : g_strdup(src);
}

/* The key of [class_*] that gives `u`'s latency or interval ("latency" or
 * "interval"): that one, opcode_timing for an opcode it times, or
 * indexed_latency / indexed_interval for "LDC[R]". */
static const gchar *use_key(const OpUse *u, const gchar *key) {
  if (u->indexed)
    return strcmp(key, "latency") == 0 ? "indexed_latency" : "indexed_interval";
  return u->timed ? "opcode_timing" : key;
}

/* The row of one opcode. */
static ReportRow *use_row(const OpUse *u, const SmModel *m) {
  ReportRow *row = report_row_new();
  g_autofree gchar *group = g_strdup_printf("class_%s", opclass_name(u->cls));
  report_add_str(row, "opcode", u->opcode);
  report_add_uint(row, "count", u->count);
  report_add_uint(row, "first_line", u->line);
  report_add_str(row, "class", opclass_name(u->cls));
  report_add_bool(row, "classed", u->classed);
  report_add_uint(row, "latency_cycles", u->latency);
  report_add_uint(row, "interval_cycles", u->interval);
  const gchar *none = "none: in no [class_*] group (class assumed by its first letters)";
  g_autofree gchar *lat = key_source(m, group, use_key(u, "latency"));
  g_autofree gchar *iv = key_source(m, group, use_key(u, "interval"));
  report_add_str(row, "latency_source", u->classed && lat ? lat : none);
  report_add_str(row, "interval_source", u->classed && iv ? iv : none);
  return row;
}

/* The text table's widest source cell, in characters: a longer one is cut
 * to this many, ending in "...", so that a row fits a terminal (a source
 * runs to 550 characters); CSV and JSON give every source whole. */
#define COVERAGE_TEXT_SOURCE_MAX 48

/* `s` (owned, taken) cut to COVERAGE_TEXT_SOURCE_MAX characters, ending in
 * "..." when cut; sets *cut then.  A new string. */
static gchar *text_cell(gchar *s, gboolean *cut) {
  if (s == NULL || g_utf8_strlen(s, -1) <= COVERAGE_TEXT_SOURCE_MAX)
    return s;
  g_autofree gchar *head = g_utf8_substring(s, 0, COVERAGE_TEXT_SOURCE_MAX - 3);
  g_free(s);
  *cut = TRUE;
  return g_strconcat(head, "...", NULL);
}

static void write_text(const GPtrArray *uses, const GPtrArray *fns, const gchar *listing,
                       const SmModel *m, GString *out) {
  guint n = 0;
  for (guint i = 0; i < fns->len; i++)
    n += ((const SassFunction *)g_ptr_array_index(fns, i))->n;
  g_string_append_printf(out, "SASS coverage of %s: %u function%s, %u instructions, %u opcodes\n",
                         listing, fns->len, fns->len == 1 ? "" : "s", n, uses->len);
  g_string_append_printf(out, "Model: %s (%s, compute capability %s; %s)\n\n", m->name, m->file,
                         m->cc,
                         m->validated ? "validated against measurements in the repository"
                                      : "published figures, not validated here");
  static const gchar *const header[] = {"opcode",   "count",          "class",          "latency",
                                        "interval", "latency source", "interval source"};
  g_autoptr(ReportTable) t = report_table_new(G_N_ELEMENTS(header), header);
  report_table_left(t, 2);
  report_table_left(t, 5);
  report_table_left(t, 6);
  gboolean cut = FALSE;
  for (guint i = 0; i < uses->len; i++) {
    const OpUse *u = g_ptr_array_index(uses, i);
    g_autofree gchar *group = g_strdup_printf("class_%s", opclass_name(u->cls));
    report_table_add(t, u->opcode);
    report_table_take(t, g_strdup_printf("%u", u->count));
    report_table_take(t, u->classed
                             ? g_strdup(opclass_name(u->cls))
                             : g_strdup_printf("%s (UNCLASSED: assumed)", opclass_name(u->cls)));
    report_table_take(t, g_strdup_printf("%u", u->latency));
    report_table_take(t, g_strdup_printf("%u", u->interval));
    report_table_take(
        t, text_cell(u->classed ? key_source(m, group, use_key(u, "latency")) : g_strdup("none"),
                     &cut));
    report_table_take(
        t, text_cell(u->classed ? key_source(m, group, use_key(u, "interval")) : g_strdup("none"),
                     &cut));
  }
  report_table_write(t, out);
  g_string_append(
      out, "\n  count: the opcode's instructions in the listing; latency and interval in SM\n"
           "    cycles (interval: between two of them issued to the class's pipe on one "
           "SMSP)\n");
  if (cut)
    g_string_append_printf(out,
                           "\n  sources longer than %d characters end in \"...\": "
                           "--format csv or json gives them whole\n",
                           COVERAGE_TEXT_SOURCE_MAX);
  /* Timing no measurement, citation or named fit gives. */
  g_autoptr(GPtrArray) assumed = g_ptr_array_new_with_free_func(g_free);
  for (guint i = 0; i < uses->len; i++) {
    const OpUse *u = g_ptr_array_index(uses, i);
    g_autofree gchar *group = g_strdup_printf("class_%s", opclass_name(u->cls));
    const gchar *lat = model_key_source(m, group, use_key(u, "latency"));
    const gchar *iv = model_key_source(m, group, use_key(u, "interval"));
    gboolean a_lat = !u->classed || !lat || g_str_has_prefix(lat, "assumed:");
    gboolean a_iv = !u->classed || !iv || g_str_has_prefix(iv, "assumed:");
    if (a_lat || a_iv)
      g_ptr_array_add(assumed, g_strdup_printf("%s (%s)", u->opcode,
                                               a_lat && a_iv ? "latency, interval"
                                               : a_lat       ? "latency"
                                                             : "interval"));
  }
  if (assumed->len) {
    /* wrapped between items at 100 columns, continued 4 spaces in */
    GString *line = g_string_new("  assumed timing (no measurement, citation or fit):");
    g_string_append_c(out, '\n');
    for (guint i = 0; i < assumed->len; i++) {
      const gchar *item = g_ptr_array_index(assumed, i);
      const gchar *sep = i + 1 < assumed->len ? "," : "";
      if (line->len > 4 && line->len + 1 + strlen(item) + strlen(sep) > 100) {
        g_string_append_printf(out, "%s\n", line->str);
        g_string_assign(line, "   ");
      }
      g_string_append_printf(line, " %s%s", item, sep);
    }
    g_string_append_printf(out, "%s\n", line->str);
    g_string_free(line, TRUE);
  }
}

static void write_json(const GPtrArray *uses, const gchar *listing, const SmModel *m,
                       GString *out) {
  JsonArray *ops = json_array_new();
  for (guint i = 0; i < uses->len; i++) {
    g_autoptr(ReportRow) row = use_row(g_ptr_array_index(uses, i), m);
    g_autoptr(GString) text = g_string_new(NULL);
    report_json(row, NULL, NULL, text);
    json_array_add_element(ops, json_from_string(text->str, NULL));
  }
  JsonNode *node = json_node_new(JSON_NODE_ARRAY);
  json_node_take_array(node, ops);
  g_autoptr(ReportRow) head = report_row_new();
  report_add_str(head, "listing", listing);
  report_add_str(head, "model", m->name);
  report_add_str(head, "model_file", m->file);
  report_add_bool(head, "model_validated", m->validated);
  report_json(head, "opcodes", node, out);
}

static gboolean coverage(const CoverageOptions *o, GString *out, GString *warnings,
                         GError **error) {
  CliFormat format = CLI_FORMAT_TEXT;
  if (o->format && !cli_parse_format(o->format, &format, error))
    return FALSE;
  if (o->args == NULL || o->args[0] == NULL || o->args[1] != NULL) {
    g_set_error(error, CLI_ERROR, CLI_ERROR_USAGE,
                "sass-coverage: give one listing (a cuobjdump -sass or nvdisasm -hex file)");
    return FALSE;
  }
  const gchar *listing = o->args[0];
  g_autoptr(GPtrArray) all = sass_load_all(listing, error);
  if (all == NULL)
    return FALSE;
  g_autoptr(GPtrArray) picked = pick_functions(all, o->function, listing, error);
  if (picked == NULL)
    return FALSE;
  const SassFunction *f0 = g_ptr_array_index(picked, 0);
  g_autofree gchar *spec = o->model ? g_strdup(o->model) : g_strdup_printf("sm_%u", f0->arch);
  g_autoptr(SmModel) m = model_load(spec, NULL, error);
  if (m == NULL)
    return FALSE;
  g_autoptr(GPtrArray) fns = run_sections(picked, m);
  for (guint i = 0; i < fns->len; i++)
    if (!sass_model_check(g_ptr_array_index(fns, i), m, warnings, error))
      return FALSE;
  g_autoptr(GPtrArray) uses = collect_opcodes(fns, m);
  if (!o->allow_unclassed && !check_classed(uses, m, error))
    return FALSE;
  if (format == CLI_FORMAT_TEXT) {
    write_text(uses, fns, listing, m, out);
  } else if (format == CLI_FORMAT_JSON) {
    write_json(uses, listing, m, out);
  } else {
    for (guint i = 0; i < uses->len; i++) {
      g_autoptr(ReportRow) row = use_row(g_ptr_array_index(uses, i), m);
      if (i == 0)
        report_csv_header(row, out);
      report_csv_values(row, out);
    }
  }
  return TRUE;
}

int cli_coverage_main(int argc, char **argv) {
  CoverageOptions o = {0};
  const GOptionEntry entries[] = {
      {"model", 'm', 0, G_OPTION_ARG_FILENAME, &o.model,
       "SM model: a name, a compute capability, or a path (default: the listing's sm_XX)", "M"},
      {"function", 0, 0, G_OPTION_ARG_STRING, &o.function,
       "only this function: its mangled name, or part of its demangled name", "F"},
      {"format", 'f', 0, G_OPTION_ARG_STRING, &o.format, "output: text (default), csv or json",
       "F"},
      {"allow-unclassed", 0, 0, G_OPTION_ARG_NONE, &o.allow_unclassed,
       "list opcodes in no class (with the class a run assumes) instead of refusing", NULL},
      {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.args, NULL, "LISTING"},
      G_OPTION_ENTRY_NULL};
  g_autoptr(GOptionContext) ctx =
      g_option_context_new("- the opcode classes of a SASS listing and their sources");
  g_option_context_add_main_entries(ctx, entries, NULL);
  g_option_context_set_description(ctx, coverage_description);
  GError *err = NULL;
  g_autoptr(GString) out = g_string_new(NULL);
  g_autoptr(GString) warnings = g_string_new(NULL);
  gboolean ok =
      cli_parse(ctx, "sass-coverage", argc, argv, &err) && coverage(&o, out, warnings, &err);
  if (ok) /* bad input is its error line alone: no note or warning before it */
    cli_note_renamed(o.model);
  g_free(o.model);
  g_free(o.format);
  g_free(o.function);
  g_strfreev(o.args);
  if (!ok)
    return cli_exit(err);
  g_auto(GStrv) lines = g_strsplit(warnings->str, "\n", -1);
  for (guint i = 0; lines[i] && *lines[i]; i++)
    fprintf(stderr, "warpsim: warning: %s\n", lines[i]);
  fputs(out->str, stdout);
  return CLI_EXIT_OK;
}
