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

static gboolean count_col(const NcuRow *r, gint col, const gchar *origin, const gchar *name,
                          guint64 *out, GError **error) {
  gdouble v;
  if (col < 0) {
    *out = 0;
    return TRUE;
  }
  if (!ncu_csv_number(ncu_csv_field(r, col), &v) || (!isnan(v) && (v < 0 || v > NCU_COUNT_MAX))) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE,
                "%s:%u: column '%s': not a count '%s' (allowed 0..%.0f)", origin, r->line, name,
                ncu_csv_field(r, col), NCU_COUNT_MAX);
    return FALSE;
  }
  *out = isnan(v) ? 0 : (guint64)llround(v);
  return TRUE;
}

static gboolean source_row(const NcuRow *r, const NcuRow *h, guint64 base, const gchar *origin,
                           NcuInstr *in, GError **error) {
  static const gchar *const need[] = {"Address", "Source", "Instructions Executed"};
  for (guint i = 0; i < G_N_ELEMENTS(need); i++)
    if (ncu_csv_column(h, need[i]) < 0) {
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
  const gchar *addr = ncu_csv_field(r, ncu_csv_column(h, "Address"));
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
  if (!count_col(r, ncu_csv_column(h, "Instructions Executed"), origin, "Instructions Executed",
                 &in->executed, error) ||
      !count_col(r, ncu_csv_column(h, "Thread Instructions Executed"), origin,
                 "Thread Instructions Executed", &in->thread_exec, error) ||
      !count_col(r, ncu_csv_column(h, "Access Size"), origin, "Access Size", &bits, error) ||
      !count_col(r, ncu_csv_column(h, "L1 Tag Requests Global"), origin, "L1 Tag Requests Global",
                 &in->l1_requests, error) ||
      !count_col(r, ncu_csv_column(h, "L2 Theoretical Sectors Global"), origin,
                 "L2 Theoretical Sectors Global", &in->l2_sectors, error) ||
      !count_col(r, ncu_csv_column(h, "L1 Conflicts Shared N-Way"), origin,
                 "L1 Conflicts Shared N-Way", &ways, error) ||
      !count_col(r, ncu_csv_column(h, "L1 Wavefronts Shared"), origin, "L1 Wavefronts Shared",
                 &in->smem_wavefronts, error) ||
      !count_col(r, ncu_csv_column(h, "L1 Wavefronts Shared Ideal"), origin,
                 "L1 Wavefronts Shared Ideal", &in->smem_ideal, error))
    return FALSE;
  if (in->l2_sectors > NCU_SECTORS_PER_REQUEST_MAX * in->executed) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE,
                "%s:%u: column 'L2 Theoretical Sectors Global': %" G_GUINT64_FORMAT
                " sectors for %" G_GUINT64_FORMAT
                " instructions executed (allowed at most %u per executed instruction)",
                origin, r->line, in->l2_sectors, in->executed, NCU_SECTORS_PER_REQUEST_MAX);
    return FALSE;
  }
  in->source =
      g_strdup(ncu_csv_field(r, ncu_csv_column(h, "Source"))); /* owned once the row is good */
  in->access_bits = (guint)MIN(bits, 4096u);
  in->smem_ways = (gdouble)ways;
  const gchar *space = ncu_csv_field(r, ncu_csv_column(h, "Address Space"));
  in->space = strcmp(space, "Global") == 0   ? NCU_SPACE_GLOBAL
              : strcmp(space, "Shared") == 0 ? NCU_SPACE_SHARED
              : strcmp(space, "Local") == 0  ? NCU_SPACE_LOCAL
                                             : NCU_SPACE_NONE;
  const gchar *op = ncu_csv_field(r, ncu_csv_column(h, "Access Operation"));
  in->store = strcmp(op, "Store") == 0 || strcmp(op, "Atomic") == 0 || strcmp(op, "Reduction") == 0;
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

/* The section whose kernel's name key is `key`; a file of one other kernel
 * or no match is NCU_ERROR_KERNEL. */
static const Section *pick_section(GArray *rows, GArray *secs, const gchar *key,
                                   const gchar *origin, GError **error) {
  GString *names = g_string_new(NULL);
  g_autoptr(GHashTable) listed = g_hash_table_new(g_str_hash, g_str_equal);
  for (guint i = 0; i < secs->len; i++) {
    const Section *s = &g_array_index(secs, Section, i);
    const gchar *name = ncu_csv_field(&g_array_index(rows, NcuRow, s->kernel_row), 1);
    g_autofree gchar *k = sass_name_key(name);
    if (strcmp(k, key) == 0) {
      g_string_free(names, TRUE);
      return s;
    }
    if (g_hash_table_add(listed, (gpointer)name)) /* each kernel once (several launches) */
      g_string_append_printf(names, "%s'%s'", names->len ? ", " : "", name);
  }
  const NcuRow *first = &g_array_index(rows, NcuRow, g_array_index(secs, Section, 0).kernel_row);
  g_set_error(error, NCU_ERROR, NCU_ERROR_KERNEL,
              "%s:%u: a profile of %s, not of '%s' (a profile of another kernel)", origin,
              first->line, names->str, key);
  g_string_free(names, TRUE);
  return NULL;
}

NcuSource *ncu_source_load_data(const gchar *text, gsize len, const gchar *origin, const gchar *key,
                                GError **error) {
  g_autoptr(NcuTable) table = ncu_csv_read(text, len, origin, error);
  if (table == NULL)
    return NULL;
  GArray *rows = table->rows;
  NcuSource *out = NULL;
  GArray *secs = source_sections(rows, origin, error);
  const Section *s = secs ? pick_section(rows, secs, key, origin, error) : NULL;
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
    out->ins = g_new0(NcuInstr, s->end - s->first);
    const gchar *a0 =
        ncu_csv_field(&g_array_index(rows, NcuRow, s->first), ncu_csv_column(h, "Address"));
    guint64 base = g_ascii_strtoull(a0, NULL, 16);
    for (guint i = s->first; i < s->end; i++) {
      if (!source_row(&g_array_index(rows, NcuRow, i), h, base, origin, &out->ins[out->n], error)) {
        ncu_source_free(out);
        out = NULL;
        break;
      }
      out->n++;
    }
  }
  if (secs)
    g_array_free(secs, TRUE);
  return out;
}

NcuSource *ncu_source_load(const gchar *path, const gchar *key, GError **error) {
  gchar *text = NULL;
  gsize len = 0;
  if (!ncu_csv_read_file(path, &text, &len, error))
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
