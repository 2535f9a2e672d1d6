/* ncu.c - Nsight Compute CSV exports (see ncu.h), parsed with libcsv. */
#include "ncu.h"

#include <csv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK(warpsim_ncu_error, ncu_error)

/* ---- rows ------------------------------------------------------------------ */

typedef struct {
  GPtrArray *fields; /* gchar* */
  guint line;        /* line the row starts on */
} Row;

typedef struct {
  GArray *rows; /* Row */
  GPtrArray *cur;
  guint line;     /* line being fed */
  guint cur_line; /* line the current row started on */
} Reader;

static void on_field(void *s, size_t len, void *data) {
  Reader *r = data;
  if (r->cur == NULL) {
    r->cur = g_ptr_array_new_with_free_func(g_free);
    r->cur_line = r->line;
  }
  g_ptr_array_add(r->cur, g_strndup(s ? s : "", len));
}

static void on_row(int c, void *data) {
  (void)c;
  Reader *r = data;
  if (r->cur == NULL)
    return;
  Row row = {r->cur, r->cur_line};
  g_array_append_val(r->rows, row);
  r->cur = NULL;
}

static void rows_free(GArray *rows) {
  for (guint i = 0; i < rows->len; i++)
    g_ptr_array_free(g_array_index(rows, Row, i).fields, TRUE);
  g_array_free(rows, TRUE);
}

/* Every row of the CSV text, each with the line it starts on. */
static GArray *read_rows(const gchar *text, gsize len, const gchar *origin, GError **error) {
  if (memchr(text, '\0', len) != NULL) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE, "%s:1: not a CSV file (binary data)", origin);
    return NULL;
  }
  struct csv_parser p;
  csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL);
  Reader r = {.rows = g_array_new(FALSE, FALSE, sizeof(Row)), .line = 1};
  const gchar *pos = text, *end = text + len;
  gboolean ok = TRUE;
  while (pos < end && ok) {
    const gchar *nl = memchr(pos, '\n', (gsize)(end - pos));
    gsize n = nl ? (gsize)(nl - pos) + 1 : (gsize)(end - pos);
    ok = csv_parse(&p, pos, n, on_field, on_row, &r) == n;
    pos += n;
    if (ok)
      r.line++;
  }
  if (ok)
    ok = csv_fini(&p, on_field, on_row, &r) == 0;
  if (!ok) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE, "%s:%u: malformed CSV (%s)", origin,
                r.cur ? r.cur_line : r.line, csv_strerror(csv_error(&p)));
    if (r.cur)
      g_ptr_array_free(r.cur, TRUE);
    rows_free(r.rows);
    r.rows = NULL;
  }
  csv_free(&p);
  return r.rows;
}

static gboolean read_file(const gchar *path, gchar **text, gsize *len, GError **error) {
  GError *err = NULL;
  if (!g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_NOT_FOUND, "%s: not a regular file", path);
    return FALSE;
  }
  if (!g_file_get_contents(path, text, len, &err)) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_NOT_FOUND, "%s: %s", path, err->message);
    g_error_free(err);
    return FALSE;
  }
  return TRUE;
}

static const gchar *field(const Row *r, gint col) {
  return col >= 0 && (guint)col < r->fields->len ? g_ptr_array_index(r->fields, col) : "";
}

static gint column(const Row *header, const gchar *name) {
  for (guint i = 0; i < header->fields->len; i++)
    if (strcmp(g_ptr_array_index(header->fields, i), name) == 0)
      return (gint)i;
  return -1;
}

/* A number as Nsight Compute prints it ("135,168", "28.16", "-" or "" =
 * absent -> *v = NaN).  FALSE when it is no number. */
static gboolean number(const gchar *s, gdouble *v) {
  g_autofree gchar *t = g_strdup(s);
  gchar *w = t;
  for (const gchar *p = s; *p; p++)
    if (*p != ',' && *p != ' ')
      *w++ = *p;
  *w = '\0';
  if (*t == '\0' || strcmp(t, "-") == 0 || strcmp(t, "n/a") == 0) {
    *v = NAN;
    return TRUE;
  }
  gchar *end = NULL;
  *v = g_ascii_strtod(t, &end);
  return end != t && *end == '\0' && isfinite(*v);
}

/* ---- source page ----------------------------------------------------------- */

typedef struct {
  guint kernel_row; /* index of the "Kernel Name" row */
  guint first, end; /* data rows [first, end) */
} Section;

static gboolean count_col(const Row *r, gint col, const gchar *origin, const gchar *name,
                          guint64 *out, GError **error) {
  gdouble v;
  if (col < 0) {
    *out = 0;
    return TRUE;
  }
  if (!number(field(r, col), &v) || (!isnan(v) && v < 0)) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE, "%s:%u: column '%s': not a count '%s'", origin,
                r->line, name, field(r, col));
    return FALSE;
  }
  *out = isnan(v) ? 0 : (guint64)llround(v);
  return TRUE;
}

static gboolean source_row(const Row *r, const Row *h, guint64 base, const gchar *origin,
                           NcuInstr *in, GError **error) {
  static const gchar *const need[] = {"Address", "Source", "Instructions Executed"};
  for (guint i = 0; i < G_N_ELEMENTS(need); i++)
    if (column(h, need[i]) < 0) {
      g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE,
                  "%s:%u: no column '%s' (export with ncu --page source --print-source sass "
                  "--csv)",
                  origin, h->line, need[i]);
      return FALSE;
    }
  if (r->fields->len != h->fields->len) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE, "%s:%u: %u fields, the header has %u", origin,
                r->line, r->fields->len, h->fields->len);
    return FALSE;
  }
  const gchar *addr = field(r, column(h, "Address"));
  gchar *end = NULL;
  guint64 a = g_ascii_strtoull(addr, &end, 16);
  if (!g_str_has_prefix(addr, "0x") || *end != '\0' || a < base || a - base > G_MAXUINT32) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE, "%s:%u: column 'Address': bad address '%s'",
                origin, r->line, addr);
    return FALSE;
  }
  in->offset = (guint32)(a - base);
  in->line = r->line;
  guint64 bits = 0, ways = 0;
  if (!count_col(r, column(h, "Instructions Executed"), origin, "Instructions Executed",
                 &in->executed, error) ||
      !count_col(r, column(h, "Thread Instructions Executed"), origin,
                 "Thread Instructions Executed", &in->thread_exec, error) ||
      !count_col(r, column(h, "Access Size"), origin, "Access Size", &bits, error) ||
      !count_col(r, column(h, "L1 Tag Requests Global"), origin, "L1 Tag Requests Global",
                 &in->l1_requests, error) ||
      !count_col(r, column(h, "L2 Theoretical Sectors Global"), origin,
                 "L2 Theoretical Sectors Global", &in->l2_sectors, error) ||
      !count_col(r, column(h, "L1 Conflicts Shared N-Way"), origin, "L1 Conflicts Shared N-Way",
                 &ways, error) ||
      !count_col(r, column(h, "L1 Wavefronts Shared"), origin, "L1 Wavefronts Shared",
                 &in->smem_wavefronts, error) ||
      !count_col(r, column(h, "L1 Wavefronts Shared Ideal"), origin, "L1 Wavefronts Shared Ideal",
                 &in->smem_ideal, error))
    return FALSE;
  in->source = g_strdup(field(r, column(h, "Source"))); /* owned once the row is good */
  in->access_bits = (guint)MIN(bits, 4096u);
  in->smem_ways = (gdouble)ways;
  const gchar *space = field(r, column(h, "Address Space"));
  in->space = strcmp(space, "Global") == 0   ? NCU_SPACE_GLOBAL
              : strcmp(space, "Shared") == 0 ? NCU_SPACE_SHARED
              : strcmp(space, "Local") == 0  ? NCU_SPACE_LOCAL
                                             : NCU_SPACE_NONE;
  const gchar *op = field(r, column(h, "Access Operation"));
  in->store = strcmp(op, "Store") == 0 || strcmp(op, "Atomic") == 0 || strcmp(op, "Reduction") == 0;
  return TRUE;
}

/* Sections of the file: each "Kernel Name" row, its header, its rows. */
static GArray *source_sections(GArray *rows, const gchar *origin, GError **error) {
  GArray *secs = g_array_new(FALSE, FALSE, sizeof(Section));
  for (guint i = 0; i < rows->len; i++) {
    const Row *r = &g_array_index(rows, Row, i);
    if (strcmp(field(r, 0), "Kernel Name") != 0)
      continue;
    if (secs->len > 0)
      g_array_index(secs, Section, secs->len - 1).end = i;
    Section s = {i, i + 2, rows->len};
    g_array_append_val(secs, s);
  }
  if (secs->len == 0 || g_array_index(secs, Section, 0).kernel_row != 0) {
    const Row *r = rows->len ? &g_array_index(rows, Row, 0) : NULL;
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE,
                "%s:%u: not a Nsight Compute source-page export (no \"Kernel Name\" line first; "
                "export with ncu --page source --print-source sass --csv)",
                origin, r ? r->line : 1);
    g_array_free(secs, TRUE);
    return NULL;
  }
  for (guint i = 0; i < secs->len; i++) {
    Section *s = &g_array_index(secs, Section, i);
    if (s->first > s->end) {
      const Row *k = &g_array_index(rows, Row, s->kernel_row);
      g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE, "%s:%u: kernel without a header row", origin,
                  k->line);
      g_array_free(secs, TRUE);
      return NULL;
    }
  }
  return secs;
}

/* The section whose kernel's name key is `key`; a file of one other kernel
 * or no match is NCU_ERROR_KERNEL. */
static const Section *pick_section(GArray *rows, GArray *secs, const gchar *key,
                                   const gchar *origin, GError **error) {
  GString *names = g_string_new(NULL);
  for (guint i = 0; i < secs->len; i++) {
    const Section *s = &g_array_index(secs, Section, i);
    const gchar *name = field(&g_array_index(rows, Row, s->kernel_row), 1);
    g_autofree gchar *k = sass_name_key(name);
    if (strcmp(k, key) == 0) {
      g_string_free(names, TRUE);
      return s;
    }
    g_string_append_printf(names, "%s'%s'", names->len ? ", " : "", name);
  }
  const Row *first = &g_array_index(rows, Row, g_array_index(secs, Section, 0).kernel_row);
  g_set_error(error, NCU_ERROR, NCU_ERROR_KERNEL,
              "%s:%u: a profile of %s, not of '%s' (a profile of another kernel)", origin,
              first->line, names->str, key);
  g_string_free(names, TRUE);
  return NULL;
}

NcuSource *ncu_source_load_data(const gchar *text, gsize len, const gchar *origin, const gchar *key,
                                GError **error) {
  GArray *rows = read_rows(text, len, origin, error);
  if (rows == NULL)
    return NULL;
  NcuSource *out = NULL;
  GArray *secs = source_sections(rows, origin, error);
  const Section *s = secs ? pick_section(rows, secs, key, origin, error) : NULL;
  if (s != NULL && s->first >= s->end) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE, "%s:%u: no instruction rows", origin,
                g_array_index(rows, Row, s->kernel_row).line);
    s = NULL;
  }
  if (s != NULL) {
    const Row *h = &g_array_index(rows, Row, s->kernel_row + 1);
    out = g_new0(NcuSource, 1);
    out->file = g_strdup(origin);
    out->kernel = g_strdup(field(&g_array_index(rows, Row, s->kernel_row), 1));
    out->line = g_array_index(rows, Row, s->kernel_row).line;
    out->ins = g_new0(NcuInstr, s->end - s->first);
    const gchar *a0 = field(&g_array_index(rows, Row, s->first), column(h, "Address"));
    guint64 base = g_ascii_strtoull(a0, NULL, 16);
    for (guint i = s->first; i < s->end; i++) {
      if (!source_row(&g_array_index(rows, Row, i), h, base, origin, &out->ins[out->n], error)) {
        ncu_source_free(out);
        out = NULL;
        break;
      }
      out->n++;
    }
  }
  if (secs)
    g_array_free(secs, TRUE);
  rows_free(rows);
  return out;
}

NcuSource *ncu_source_load(const gchar *path, const gchar *key, GError **error) {
  gchar *text = NULL;
  gsize len = 0;
  if (!read_file(path, &text, &len, error))
    return NULL;
  NcuSource *s = ncu_source_load_data(text, len, path, key, error);
  g_free(text);
  return s;
}

/* The opcode of an instruction text: the first word after any guard. */
static gchar *opcode_of(const gchar *text) {
  while (*text == ' ')
    text++;
  if (*text == '@')
    while (*text && *text != ' ')
      text++;
  while (*text == ' ')
    text++;
  const gchar *e = text;
  while (*e && *e != ' ' && *e != ';')
    e++;
  return g_strndup(text, (gsize)(e - text));
}

gboolean ncu_source_check(const NcuSource *src, const SassFunction *f, GError **error) {
  for (guint i = 0; i < src->n && i < f->n; i++) {
    const NcuInstr *p = &src->ins[i];
    g_autofree gchar *op = opcode_of(p->source);
    g_autofree gchar *want = g_strconcat(f->ins[i].opcode, f->ins[i].mods, NULL);
    if (p->offset != f->ins[i].offset || strcmp(op, want) != 0) {
      g_set_error(error, NCU_ERROR, NCU_ERROR_KERNEL,
                  "%s:%u: instruction %u is '%s' at offset 0x%x in the profile but '%s' at 0x%x "
                  "in %s (a profile of another kernel or another build)",
                  src->file, p->line, i, op, p->offset, want, f->ins[i].offset, f->file);
      return FALSE;
    }
  }
  if (src->n != f->n) {
    guint line = src->n > f->n ? src->ins[f->n].line : src->ins[src->n - 1].line;
    g_set_error(error, NCU_ERROR, NCU_ERROR_KERNEL,
                "%s:%u: the profile has %u instructions, function '%s' in %s has %u (a profile "
                "of another kernel or another build)",
                src->file, line, src->n, f->name, f->file, f->n);
    return FALSE;
  }
  return TRUE;
}

/* ---- details page ---------------------------------------------------------- */

/* Bytes of a shared-memory size in `unit`.  Nsight Compute prints decimal
 * kilobytes with two decimals (8192 B -> "8.19 Kbyte"); the byte count is
 * taken as the multiple of 16 nearest the printed value. */
static gdouble bytes_of(gdouble v, const gchar *unit) {
  gdouble scale = g_str_has_prefix(unit, "Kbyte")   ? 1e3
                  : g_str_has_prefix(unit, "Mbyte") ? 1e6
                  : g_str_has_prefix(unit, "KiB")   ? 1024.0
                                                    : 1.0;
  gdouble b = v * scale;
  return scale > 1.0 ? 16.0 * round(b / 16.0) : b;
}

typedef struct {
  gint id, kname, section, metric, unit, value;
} DetailCols;

static void details_metric(NcuDetails *d, const gchar *metric, const gchar *unit, gdouble v) {
  if (strcmp(metric, "Registers Per Thread") == 0)
    d->regs = isnan(v) ? 0 : (guint)v;
  else if (strcmp(metric, "Static Shared Memory Per Block") == 0)
    d->smem_static = bytes_of(v, unit);
  else if (strcmp(metric, "Dynamic Shared Memory Per Block") == 0)
    d->smem_dynamic = bytes_of(v, unit);
  else if (strcmp(metric, "Shared Memory Configuration Size") == 0)
    d->smem_config = bytes_of(v, unit);
  else if (strcmp(metric, "Block Size") == 0)
    d->block_size = isnan(v) ? 0 : (guint)v;
  else if (strcmp(metric, "Grid Size") == 0)
    d->grid_size = isnan(v) ? 0 : (guint)v;
  else if (strcmp(metric, "L1/TEX Hit Rate") == 0)
    d->l1_hit_pct = v;
  else if (strcmp(metric, "L2 Hit Rate") == 0)
    d->l2_hit_pct = v;
  else if (strcmp(metric, "Executed Instructions") == 0)
    d->executed_insts = v;
  else if (strcmp(metric, "Achieved Active Warps Per SM") == 0)
    d->achieved_warps = v;
  else if (strcmp(metric, "Theoretical Active Warps per SM") == 0)
    d->theoretical_warps = v;
}

static NcuDetails *details_from_rows(GArray *rows, const gchar *origin, const gchar *key,
                                     GError **error) {
  const Row *h = rows->len ? &g_array_index(rows, Row, 0) : NULL;
  DetailCols c = {-1, -1, -1, -1, -1, -1};
  if (h) {
    c.id = column(h, "ID");
    c.kname = column(h, "Kernel Name");
    c.section = column(h, "Section Name");
    c.metric = column(h, "Metric Name");
    c.unit = column(h, "Metric Unit");
    c.value = column(h, "Metric Value");
  }
  if (h == NULL || c.id < 0 || c.kname < 0 || c.metric < 0 || c.unit < 0 || c.value < 0) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE,
                "%s:%u: not a Nsight Compute details export (header needs ID, Kernel Name, "
                "Metric Name, Metric Unit, Metric Value; export with ncu --page details --csv)",
                origin, h ? h->line : 1);
    return NULL;
  }
  NcuDetails *d = NULL;
  g_autofree gchar *id = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 1; i < rows->len; i++) {
    const Row *r = &g_array_index(rows, Row, i);
    if ((guint)c.value >= r->fields->len) {
      g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE, "%s:%u: %u fields, the header has %u", origin,
                  r->line, r->fields->len, h->fields->len);
      ncu_details_free(d);
      return NULL;
    }
    const gchar *name = field(r, c.kname);
    if (d == NULL) {
      g_autofree gchar *k = sass_name_key(name);
      if (strcmp(k, key) != 0) {
        g_hash_table_add(seen, g_strdup(name));
        continue;
      }
      d = g_new0(NcuDetails, 1);
      d->file = g_strdup(origin);
      d->kernel = g_strdup(name);
      d->line = r->line;
      d->smem_static = d->smem_dynamic = d->smem_config = d->l1_hit_pct = d->l2_hit_pct = NAN;
      d->executed_insts = d->achieved_warps = d->theoretical_warps = NAN;
      id = g_strdup(field(r, c.id));
    }
    if (strcmp(field(r, c.id), id) != 0)
      continue; /* another launch */
    gdouble v;
    if (!number(field(r, c.value), &v)) {
      const gchar *metric = field(r, c.metric);
      if (strcmp(metric, "Registers Per Thread") == 0 ||
          strstr(metric, "Shared Memory Per Block") != NULL || strstr(metric, "Hit Rate") != NULL) {
        g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE, "%s:%u: '%s': not a number '%s'", origin,
                    r->line, metric, field(r, c.value));
        ncu_details_free(d);
        return NULL;
      }
      continue; /* text-valued metrics ("PolicySpread") */
    }
    details_metric(d, field(r, c.metric), field(r, c.unit), v);
  }
  if (d == NULL) {
    GString *names = g_string_new(NULL);
    GHashTableIter it;
    gpointer k;
    g_hash_table_iter_init(&it, seen);
    g_autoptr(GPtrArray) sorted = g_ptr_array_new();
    while (g_hash_table_iter_next(&it, &k, NULL))
      g_ptr_array_add(sorted, k);
    g_ptr_array_sort(sorted, (GCompareFunc)g_strcmp0);
    for (guint i = 0; i < sorted->len; i++) {
      const gchar *const *s = (const gchar *const *)&g_ptr_array_index(sorted, i);
      g_string_append_printf(names, "%s'%s'", names->len ? ", " : "", *s);
    }
    g_set_error(error, NCU_ERROR, NCU_ERROR_KERNEL,
                "%s:%u: no kernel '%s' in the details export (kernels: %s)", origin, h->line, key,
                names->len ? names->str : "none");
    g_string_free(names, TRUE);
    return NULL;
  }
  if (d->regs == 0) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE,
                "%s:%u: kernel '%s' has no 'Registers Per Thread' (export with --section "
                "LaunchStats or --set full)",
                origin, d->line, d->kernel);
    ncu_details_free(d);
    return NULL;
  }
  return d;
}

NcuDetails *ncu_details_load_data(const gchar *text, gsize len, const gchar *origin,
                                  const gchar *key, GError **error) {
  GArray *rows = read_rows(text, len, origin, error);
  if (rows == NULL)
    return NULL;
  NcuDetails *d = details_from_rows(rows, origin, key, error);
  rows_free(rows);
  return d;
}

NcuDetails *ncu_details_load(const gchar *path, const gchar *key, GError **error) {
  gchar *text = NULL;
  gsize len = 0;
  if (!read_file(path, &text, &len, error))
    return NULL;
  NcuDetails *d = ncu_details_load_data(text, len, path, key, error);
  g_free(text);
  return d;
}

void ncu_source_free(NcuSource *s) {
  if (s == NULL)
    return;
  for (guint i = 0; i < s->n; i++)
    g_free(s->ins[i].source);
  g_free(s->ins);
  g_free(s->file);
  g_free(s->kernel);
  g_free(s);
}

void ncu_details_free(NcuDetails *d) {
  if (d == NULL)
    return;
  g_free(d->file);
  g_free(d->kernel);
  g_free(d);
}
