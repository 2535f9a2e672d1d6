/* ncu_source.c - the source page of an Nsight Compute export (see
 * ncu_source.h), parsed with libcsv. */
#include "sass/ncu_source.h"
#include "sass/ncu.h"
#include "sass/ncu_csv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Sectors one warp-level request touches at most: one 32-byte sector per
 * thread of 32 (a naturally aligned access of at most 16 bytes stays in its
 * sector; gather's scattered loads: 32.0 per request in
 * results/reference/h200/real/ncu/gather_source_b8.csv). */
#define NCU_SECTORS_PER_REQUEST_MAX 32u

typedef struct {
  guint kernel_row; /* index of the "Kernel Name" row */
  guint first, end; /* data rows [first, end) */
} Section;

/* The per-instruction counters warpsim reads: column, field of NcuInstr
 * (a guint64 count), its NcuUnknown bit, and what an unknown value
 * ("n/a", "-" or "" on an instruction that has the column) is taken as. */
typedef struct {
  const gchar *column;
  gsize offset;
  guint bit;
  const gchar *assumed;
} Counter;

#define I(f) G_STRUCT_OFFSET(NcuInstr, f)
static const Counter counters[] = {
    {"Instructions Executed", I(executed), NCU_UNKNOWN_EXECUTED,
     "the count of the instruction before it (straight-line code runs as often)"},
    {"Thread Instructions Executed", I(thread_exec), NCU_UNKNOWN_THREAD_EXEC,
     "32 active lanes (it sets only the lanes of a global atomic or MATCH the listing bounds)"},
    {"L1 Tag Requests Global", I(l1_requests), NCU_UNKNOWN_L1_REQUESTS,
     "none: the request is no strided span (sassmem_strided_span)"},
    {"L2 Theoretical Sectors Global", I(l2_sectors), NCU_UNKNOWN_L2_SECTORS,
     "the access's ideal sectors per request (its bytes / 32 B)"},
    {"L2 Theoretical Sectors Local", I(l2_sectors_local), NCU_UNKNOWN_L2_SECTORS_LOCAL,
     "the access's ideal sectors per request (its bytes / 32 B)"},
    {"L1 Wavefronts Shared", I(smem_wavefronts), NCU_UNKNOWN_SMEM_WAVEFRONTS,
     "one wavefront per request (no bank conflicts)"},
    {"L1 Wavefronts Shared Ideal", I(smem_ideal), NCU_UNKNOWN_SMEM_IDEAL, "not used"},
};
#undef I

/* The columns of a section's header that the rows are read from (-1:
 * absent), looked up once per section, not per row. */
typedef struct {
  gint address, source, access_size, ways, space, op;
  gint counter[G_N_ELEMENTS(counters)];
  gint stall[NCU_STALL_MAX];
} SourceColumns;

/* A count in column `col` of row r: *out, or *unknown set for an absent
 * value ("n/a", "-", "").  FALSE with NCU_ERROR_PARSE for what is no count
 * (negative, past NCU_COUNT_MAX, or with a fraction: "1.5"; "2.0" is 2). */
static gboolean count_col(const NcuTable *t, const NcuRow *r, gint col, const gchar *origin,
                          const gchar *name, guint64 *out, gboolean *unknown, GError **error) {
  gdouble v;
  *out = 0;
  *unknown = TRUE;
  if (col < 0)
    return TRUE;
  /* a count is a whole number (Nsight Compute writes none with a fraction) */
  if (!ncu_csv_value(t, ncu_csv_field(r, col), &v) ||
      (!isnan(v) && (v < 0 || v > NCU_COUNT_MAX || v != floor(v)))) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE,
                "%s:%u: column '%s': not a count '%s' (allowed 0..%.0f, or n/a)", origin, r->line,
                name, ncu_csv_field(r, col), NCU_COUNT_MAX);
    return FALSE;
  }
  *unknown = isnan(v);
  *out = isnan(v) ? 0 : (guint64)v;
  return TRUE;
}

const gchar *ncu_stall_column(NcuStall s) {
  static const gchar *const names[NCU_STALL_MAX] = {"stall_barrier",      "stall_branch_resolving",
                                                    "stall_dispatch",     "stall_drain",
                                                    "stall_imc",          "stall_lg",
                                                    "stall_long_sb",      "stall_math",
                                                    "stall_membar",       "stall_mio",
                                                    "stall_misc",         "stall_no_inst",
                                                    "stall_not_selected", "stall_selected",
                                                    "stall_short_sb",     "stall_sleep",
                                                    "stall_tex",          "stall_wait"};
  return s < NCU_STALL_MAX ? names[s] : "?";
}

/* The columns of header `h` that source_row and source_samples read. */
static void source_columns(const NcuRow *h, SourceColumns *c) {
#define C(f) G_STRUCT_OFFSET(SourceColumns, f)
  static const struct {
    const gchar *name;
    gsize offset;
  } named[] = {{"Address", C(address)},         {"Source", C(source)},
               {"Access Size", C(access_size)}, {"L1 Conflicts Shared N-Way", C(ways)},
               {"Address Space", C(space)},     {"Access Operation", C(op)}};
#undef C
  for (guint i = 0; i < G_N_ELEMENTS(named); i++)
    G_STRUCT_MEMBER(gint, c, named[i].offset) = ncu_csv_column(h, named[i].name);
  for (guint i = 0; i < G_N_ELEMENTS(counters); i++)
    c->counter[i] = ncu_csv_column(h, counters[i].column);
  for (guint s = 0; s < NCU_STALL_MAX; s++)
    c->stall[s] = ncu_csv_column(h, ncu_stall_column(s));
}

/* Add row `r`'s warp-state samples (the stall_<reason> columns `c` found;
 * an absent or unknown cell adds 0) to `samples`; FALSE with
 * NCU_ERROR_PARSE for a cell that is no count. */
static gboolean source_samples(const NcuTable *t, const NcuRow *r, const SourceColumns *c,
                               const gchar *origin, guint64 *samples, GError **error) {
  for (guint s = 0; s < NCU_STALL_MAX; s++) {
    guint64 v = 0;
    gboolean unknown;
    if (!count_col(t, r, c->stall[s], origin, ncu_stall_column(s), &v, &unknown, error))
      return FALSE;
    samples[s] += v;
  }
  return TRUE;
}

/* Rows of one section whose counters were unknown, per counter: how many,
 * the first line and its text. */
typedef struct {
  guint rows[G_N_ELEMENTS(counters)], first[G_N_ELEMENTS(counters)];
  const gchar *text[G_N_ELEMENTS(counters)];
} UnknownTally;

/* Row `r` of header `h` (its columns `cols`) as instruction `in`. */
static gboolean source_row(const NcuTable *t, const NcuRow *r, const NcuRow *h,
                           const SourceColumns *cols, guint64 base, const gchar *origin,
                           NcuInstr *in, UnknownTally *tally, GError **error) {
  static const gchar *const need[] = {"Address", "Source", "Instructions Executed"};
  const gint need_col[] = {cols->address, cols->source, cols->counter[0] /* executed */};
  G_STATIC_ASSERT(G_N_ELEMENTS(need) == G_N_ELEMENTS(need_col));
  for (guint i = 0; i < G_N_ELEMENTS(need); i++)
    if (need_col[i] < 0) {
      g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE,
                  "%s:%u: no column '%s' (export with ncu --page source --print-source sass "
                  "--csv)",
                  origin, h->line, need[i]);
      return FALSE;
    }
  if (r->n_fields != h->n_fields) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE, "%s:%u: %u fields, the header has %u", origin,
                r->line, r->n_fields, h->n_fields);
    return FALSE;
  }
  const gchar *addr = ncu_csv_field(r, cols->address);
  gchar *end = NULL;
  guint64 a = g_ascii_strtoull(addr, &end, 16);
  if (!g_str_has_prefix(addr, "0x") || *end != '\0' || a < base || a - base > G_MAXUINT32) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE, "%s:%u: column 'Address': bad address '%s'",
                origin, r->line, addr);
    return FALSE;
  }
  in->offset = (guint32)(a - base);
  in->line = r->line;
  for (guint i = 0; i < G_N_ELEMENTS(counters); i++) {
    const Counter *c = &counters[i];
    gint col = cols->counter[i];
    gboolean unknown;
    if (!count_col(t, r, col, origin, c->column, &G_STRUCT_MEMBER(guint64, in, c->offset), &unknown,
                   error))
      return FALSE;
    if (unknown)
      in->unknown |= c->bit;
    if (unknown && col >= 0 && tally->rows[i]++ == 0) {
      tally->first[i] = r->line;
      tally->text[i] = ncu_csv_field(r, col);
    }
  }
  guint64 bits = 0, ways = 0;
  gboolean unknown;
  if (!count_col(t, r, cols->access_size, origin, "Access Size", &bits, &unknown, error) ||
      !count_col(t, r, cols->ways, origin, "L1 Conflicts Shared N-Way", &ways, &unknown, error))
    return FALSE;
  if (in->l2_sectors > NCU_SECTORS_PER_REQUEST_MAX * in->executed &&
      !(in->unknown & NCU_UNKNOWN_EXECUTED)) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE,
                "%s:%u: column 'L2 Theoretical Sectors Global': %" G_GUINT64_FORMAT
                " sectors for %" G_GUINT64_FORMAT
                " instructions executed (allowed at most %u per executed instruction)",
                origin, r->line, in->l2_sectors, in->executed, NCU_SECTORS_PER_REQUEST_MAX);
    return FALSE;
  }
  in->source = g_strdup(ncu_csv_field(r, cols->source)); /* owned once the row is good */
  in->access_bits = (guint)MIN(bits, 4096u);
  in->smem_ways = (gdouble)ways;
  const gchar *space = ncu_csv_field(r, cols->space);
  in->space = strcmp(space, "Global") == 0          ? NCU_SPACE_GLOBAL
              : strcmp(space, "Shared") == 0        ? NCU_SPACE_SHARED
              : strcmp(space, "Local") == 0         ? NCU_SPACE_LOCAL
              : strcmp(space, "Global,Shared") == 0 ? NCU_SPACE_GLOBAL_SHARED
                                                    : NCU_SPACE_NONE;
  const gchar *op = ncu_csv_field(r, cols->op);
  in->store = strcmp(op, "Store") == 0 || strcmp(op, "Atomic") == 0 || strcmp(op, "Reduction") == 0;
  return TRUE;
}

/* Unknown execution counts take the count of the instruction before (the
 * first ones: of the first known one); one warning per counter with an
 * unknown value.  FALSE with NCU_ERROR_PARSE when no instruction has a
 * known count. */
static gboolean fill_unknown(NcuSource *out, const UnknownTally *tally, GError **error) {
  gint known = -1;
  for (guint i = 0; i < out->n && known < 0; i++)
    if (!(out->ins[i].unknown & NCU_UNKNOWN_EXECUTED))
      known = (gint)i;
  if (known < 0) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE,
                "%s:%u: column 'Instructions Executed': no instruction has a count (all n/a; "
                "allowed: counts, n/a on some)",
                out->file, out->ins[0].line);
    return FALSE;
  }
  guint64 prev = out->ins[known].executed;
  for (guint i = 0; i < out->n; i++) {
    NcuInstr *in = &out->ins[i];
    if (in->unknown & NCU_UNKNOWN_EXECUTED)
      in->executed = prev;
    prev = in->executed;
  }
  for (guint i = 0; i < G_N_ELEMENTS(counters); i++)
    if (tally->rows[i] > 0)
      g_string_append_printf(out->warnings,
                             "%s:%u: '%s' is unknown ('%s') on %u instruction%s: taken as %s\n",
                             out->file, tally->first[i], counters[i].column, tally->text[i],
                             tally->rows[i], tally->rows[i] == 1 ? "" : "s", counters[i].assumed);
  return TRUE;
}

/* Sections of the file: each "Kernel Name" row, its header, its rows. */
static GArray *source_sections(GArray *rows, const gchar *origin, GError **error) {
  GArray *secs = g_array_new(FALSE, FALSE, sizeof(Section));
  for (guint i = 0; i < rows->len; i++) {
    const NcuRow *r = &g_array_index(rows, NcuRow, i);
    if (strcmp(ncu_csv_field(r, 0), "Kernel Name") != 0)
      continue;
    if (secs->len > 0)
      g_array_index(secs, Section, secs->len - 1).end = i;
    Section s = {i, i + 2, rows->len};
    g_array_append_val(secs, s);
  }
  if (secs->len == 0 || g_array_index(secs, Section, 0).kernel_row != 0) {
    const NcuRow *r = rows->len ? &g_array_index(rows, NcuRow, 0) : NULL;
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
      const NcuRow *k = &g_array_index(rows, NcuRow, s->kernel_row);
      g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE, "%s:%u: kernel without a header row", origin,
                  k->line);
      g_array_free(secs, TRUE);
      return NULL;
    }
  }
  return secs;
}

/* Whether sections a and b hold the same rows (ncu --page source can print
 * one launch twice: results/reference/h200/real2/ncu/blur_source_b8.csv). */
static gboolean same_section(GArray *rows, const Section *a, const Section *b) {
  if (a->end - a->first != b->end - b->first)
    return FALSE;
  for (guint i = 0; i < a->end - a->first; i++) {
    const NcuRow *x = &g_array_index(rows, NcuRow, a->first + i);
    const NcuRow *y = &g_array_index(rows, NcuRow, b->first + i);
    if (x->n_fields != y->n_fields)
      return FALSE;
    for (guint f = 0; f < x->n_fields; f++)
      if (strcmp(x->fields[f], y->fields[f]) != 0)
        return FALSE;
  }
  return TRUE;
}

/* The section of the listing's kernel `name` (ncu_csv_name_match); a file
 * of other kernels, or of another overload of it, is NCU_ERROR_KERNEL. */
static const Section *pick_section(GArray *rows, GArray *secs, const gchar *name,
                                   const gchar *origin, GString *warnings, GError **error) {
  GString *names = g_string_new(NULL);
  g_autoptr(GHashTable) listed = g_hash_table_new(g_str_hash, g_str_equal);
  g_autofree gchar *key = sass_name_key(name);
  const Section *found = NULL;
  const NcuRow *overload = NULL;
  guint matches = 0;
  for (guint i = 0; i < secs->len; i++) {
    const Section *s = &g_array_index(secs, Section, i);
    const NcuRow *kr = &g_array_index(rows, NcuRow, s->kernel_row);
    const gchar *kname = ncu_csv_field(kr, 1);
    NcuNameMatch match = ncu_csv_name_match(kname, name);
    if (match == NCU_NAME_SAME && (found == NULL || !same_section(rows, found, s)) &&
        matches++ == 0)
      found = s;
    if (match == NCU_NAME_OVERLOAD && overload == NULL)
      overload = kr;
    if (g_hash_table_add(listed, (gpointer)kname)) /* each kernel once (several launches) */
      g_string_append_printf(names, "%s'%s'", names->len ? ", " : "", kname);
  }
  if (found != NULL) {
    /* the source page names no launch ID: the first is taken */
    if (matches > 1)
      g_string_append_printf(warnings,
                             "%s:%u: %u different launches of '%s' in the source export: took the "
                             "first "
                             "(export one with ncu -i REPORT --launch-skip N --launch-count 1)\n",
                             origin, g_array_index(rows, NcuRow, found->kernel_row).line, matches,
                             key);
    g_string_free(names, TRUE);
    return found;
  }
  if (overload != NULL) {
    ncu_csv_overload_error(error, origin, overload->line, ncu_csv_field(overload, 1), name);
    g_string_free(names, TRUE);
    return NULL;
  }
  const NcuRow *first = &g_array_index(rows, NcuRow, g_array_index(secs, Section, 0).kernel_row);
  g_set_error(error, NCU_ERROR, NCU_ERROR_KERNEL,
              "%s:%u: a profile of %s, not of '%s' (a profile of another kernel)", origin,
              first->line, names->str, key);
  g_string_free(names, TRUE);
  return NULL;
}

NcuSource *ncu_source_load_data(const gchar *text, gsize len, const gchar *origin,
                                const gchar *name, GError **error) {
  g_autoptr(NcuTable) table = ncu_csv_read_from(text, len, origin, "Kernel Name", error);
  if (table == NULL)
    return NULL;
  GArray *rows = table->rows;
  NcuSource *out = NULL;
  g_autoptr(GString) warnings = g_string_new(NULL);
  GArray *secs = source_sections(rows, origin, error);
  const Section *s = secs ? pick_section(rows, secs, name, origin, warnings, error) : NULL;
  if (s != NULL && s->first >= s->end) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE, "%s:%u: no instruction rows", origin,
                g_array_index(rows, NcuRow, s->kernel_row).line);
    s = NULL;
  }
  if (s != NULL) {
    const NcuRow *h = &g_array_index(rows, NcuRow, s->kernel_row + 1);
    out = g_new0(NcuSource, 1);
    out->file = g_strdup(origin);
    out->kernel = g_strdup(ncu_csv_field(&g_array_index(rows, NcuRow, s->kernel_row), 1));
    out->line = g_array_index(rows, NcuRow, s->kernel_row).line;
    out->warnings = g_steal_pointer(&warnings);
    out->ins = g_new0(NcuInstr, s->end - s->first);
    SourceColumns cols;
    source_columns(h, &cols);
    const gchar *a0 = ncu_csv_field(&g_array_index(rows, NcuRow, s->first), cols.address);
    guint64 base = g_ascii_strtoull(a0, NULL, 16);
    UnknownTally tally = {{0}, {0}, {NULL}};
    gboolean ok = TRUE;
    for (guint i = s->first; i < s->end && ok; i++) {
      ok = source_row(table, &g_array_index(rows, NcuRow, i), h, &cols, base, origin,
                      &out->ins[out->n], &tally, error);
      out->n += ok; /* a row read owns its strings, whatever its samples give */
      ok = ok && source_samples(table, &g_array_index(rows, NcuRow, i), &cols, origin, out->samples,
                                error);
    }
    if (!ok || !fill_unknown(out, &tally, error))
      g_clear_pointer(&out, ncu_source_free);
  }
  if (secs)
    g_array_free(secs, TRUE);
  return out;
}

NcuSource *ncu_source_load(const gchar *path, const gchar *name, GError **error) {
  gchar *text = NULL;
  gsize len = 0;
  if (!ncu_csv_read_file(path, &text, &len, error))
    return NULL;
  NcuSource *s = ncu_source_load_data(text, len, path, name, error);
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

void ncu_source_free(NcuSource *s) {
  if (s == NULL)
    return;
  for (guint i = 0; i < s->n; i++)
    g_free(s->ins[i].source);
  g_free(s->ins);
  g_free(s->file);
  g_free(s->kernel);
  if (s->warnings)
    g_string_free(s->warnings, TRUE);
  g_free(s);
}
