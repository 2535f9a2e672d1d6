/* ncu_details.c - the details page of an Nsight Compute export (see
 * ncu_details.h), parsed with libcsv. */
#include "sass/ncu_details.h"
#include "sass/ncu.h"
#include "sass/ncu_csv.h"

#include <math.h>
#include <string.h>

/* Bytes of a shared-memory size in `unit`.  Nsight Compute prints decimal
 * kilobytes with two decimals (8192 B -> "8.19 Kbyte"); the byte count is
 * taken as the multiple of 16 nearest the printed value. */
/* Bytes of `v` in `unit` ("byte", "Kbyte/block", ..., none: bytes; rounded
 * to 16 bytes when scaled), or NaN for a unit that is no byte unit. */
static gdouble bytes_of(gdouble v, const gchar *unit) {
  static const struct {
    const gchar *unit;
    gdouble scale;
  } units[] = {{"", 1.0},      {"byte", 1.0},   {"Kbyte", 1e3},    {"Mbyte", 1e6},
               {"Gbyte", 1e9}, {"KiB", 1024.0}, {"MiB", 1048576.0}};
  for (guint i = 0; i < G_N_ELEMENTS(units); i++) {
    gsize n = strlen(units[i].unit);
    if (strncmp(unit, units[i].unit, n) != 0 || (unit[n] != '\0' && unit[n] != '/'))
      continue;
    gdouble b = v * units[i].scale;
    return units[i].scale > 1.0 ? 16.0 * round(b / 16.0) : b;
  }
  return NAN;
}

typedef struct {
  gint id, kname, section, metric, unit, value;
} DetailCols;

/* The details metrics warpsim reads, each with its field and allowed range
 * (after unit scaling); a value outside is NCU_ERROR_PARSE, an unknown one
 * ("n/a", "-") is NaN with a warning saying what is assumed.
 * Limits: registers per thread and threads per block as CUDA's (CUDA C++
 * Programming Guide, "Compute Capabilities" table), shared memory as
 * [launch] smem_static, 64 warps per SM (every compute capability there), a
 * grid of at most G_MAXUINT CTAs, counts exact in a double (2^53). */
typedef enum {
  SCALE_COUNT, /* the value as printed, times 1e3/1e6/1e9/1e12 when its unit is
                  the metric's `base` with a K/M/G/T prefix ("Kinst", "Mcycle") */
  SCALE_BYTES, /* bytes of a size in its unit (bytes_of) */
  SCALE_RATE,  /* bytes per second of a rate in "byte/s", "Kbyte/s" ... "Tbyte/s"
                  or "Gbyte/second" ... (rate_of); a row in "%" is another
                  metric of the same name ("Memory Throughput" is also a % of
                  peak in the Speed Of Light section) */
  SCALE_TIME,  /* seconds of a time in "ns", "us", "ms", "s" or "nsecond" ...
                  (seconds_of) */
} DetailScale;

typedef struct {
  const gchar *metric;
  gsize offset;      /* of the field in NcuDetails */
  gboolean whole;    /* a guint field holding a whole number (else a gdouble) */
  DetailScale scale; /* how its unit scales it */
  gdouble min, max;
  const gchar *unit;    /* in messages */
  const gchar *base;    /* SCALE_COUNT: the unit a K/M/G/T prefix scales; NULL: none */
  gdouble clip;         /* a value above it (and at most max) is read as it, with a
                           warning; 0: none */
  const gchar *assumed; /* what warpsim takes when the value is unknown */
} DetailMetric;

/* Bytes per second of `v` in the rate unit `unit` ("Gbyte/s" or
 * "Gbyte/second", prefixes none to T), NaN for another unit. */
static gdouble rate_of(gdouble v, const gchar *unit) {
  static const gchar *const prefixes[] = {"", "K", "M", "G", "T"};
  gdouble scale = 1.0;
  for (guint i = 0; i < G_N_ELEMENTS(prefixes); i++, scale *= 1e3) {
    g_autofree gchar *u = g_strconcat(prefixes[i], "byte/s", NULL);
    g_autofree gchar *longer = g_strconcat(u, "econd", NULL);
    if (strcmp(unit, u) == 0 || strcmp(unit, longer) == 0)
      return v * scale;
  }
  return NAN;
}

/* Seconds of `v` in the time unit `unit`, NaN for another unit. */
static gdouble seconds_of(gdouble v, const gchar *unit) {
  static const struct {
    const gchar *unit, *longer;
    gdouble scale;
  } units[] = {{"ns", "nsecond", 1e-9},
               {"us", "usecond", 1e-6},
               {"ms", "msecond", 1e-3},
               {"s", "second", 1.0}};
  for (guint i = 0; i < G_N_ELEMENTS(units); i++)
    if (strcmp(unit, units[i].unit) == 0 || strcmp(unit, units[i].longer) == 0)
      return v * units[i].scale;
  return NAN;
}

/* `v` in `unit`, a K/M/G/T prefix of `base` scaled by 1e3 ... 1e12
 * (Nsight Compute's units that change with magnitude: "inst", "Kinst",
 * "Minst"); any other unit: as printed. */
static gdouble count_of(gdouble v, const gchar *unit, const gchar *base) {
  static const gchar prefixes[] = "KMGT";
  if (base == NULL || *unit == '\0' || strcmp(unit + 1, base) != 0)
    return v;
  const gchar *p = strchr(prefixes, unit[0]);
  return p ? v * pow(1e3, (gdouble)(p - prefixes + 1)) : v;
}

#define D(f) G_STRUCT_OFFSET(NcuDetails, f)
static const DetailMetric detail_metrics[] = {
    {"Registers Per Thread", D(regs), TRUE, SCALE_COUNT, 1, 255, "registers", NULL, 0,
     "the listing's count (highest register + 3), or [launch] regs_per_thread"},
    {"Static Shared Memory Per Block", D(smem_static), FALSE, SCALE_BYTES, 0, 16777216, "bytes",
     NULL, 0, "[launch] smem_static"},
    {"Dynamic Shared Memory Per Block", D(smem_dynamic), FALSE, SCALE_BYTES, 0, 16777216, "bytes",
     NULL, 0, "0 bytes at the profiled launch"},
    {"Shared Memory Configuration Size", D(smem_config), FALSE, SCALE_BYTES, 0, 16777216, "bytes",
     NULL, 0, "the profiled blocks' shared memory"},
    {"Block Size", D(block_size), TRUE, SCALE_COUNT, 1, 1024, "threads", NULL, 0,
     "the profiled occupancy unknown (hit rates as profiled at every occupancy)"},
    {"Grid Size", D(grid_size), TRUE, SCALE_COUNT, 1, G_MAXUINT, "CTAs", NULL, 0,
     "no L2 reuse from the launch before"},
    /* Nsight Compute divides hits by requests counted apart, and prints a
     * rate above 100 %: 100.18 % for the L2 of a pure-store kernel measured
     * here (results/reference/h200/real8/ncu/details8_b8.csv, k_store<4,
     * float4>), 167.61 % on a tensor-core kernel with a tiny footprint
     * (issue 27).  Any rate above 100 % is read as 100 %, with a warning. */
    {"L1/TEX Hit Rate", D(l1_hit_pct), FALSE, SCALE_COUNT, 0, NCU_COUNT_MAX, "%", NULL, 100,
     "0 %, as without a details export"},
    {"L2 Hit Rate", D(l2_hit_pct), FALSE, SCALE_COUNT, 0, NCU_COUNT_MAX, "%", NULL, 100,
     "0 %, as without a details export"},
    {"Executed Instructions", D(executed_insts), FALSE, SCALE_COUNT, 0, NCU_COUNT_MAX,
     "warp instructions", "inst", 0, "not used"},
    {"Issued Instructions", D(issued_insts), FALSE, SCALE_COUNT, 0, NCU_COUNT_MAX,
     "warp instructions", "inst", 0, "the issued IPC as printed"},
    {"Achieved Active Warps Per SM", D(achieved_warps), FALSE, SCALE_COUNT, 0, 64, "warps", NULL, 0,
     "not used"},
    {"Theoretical Active Warps per SM", D(theoretical_warps), FALSE, SCALE_COUNT, 0, 64, "warps",
     NULL, 0, "the profiled occupancy unknown (hit rates as profiled at every occupancy)"},
    /* DRAM bytes per second (Memory Workload Analysis) and the launch's
     * duration: their product is the DRAM traffic of the profiled launch.
     * The limits are sanity bounds, not hardware: 1e15 bytes/s is about
     * 200x the H200's 4.8 TB/s, 1e6 s eleven days; 0 is no data (refused) */
    {"Memory Throughput", D(dram_bytes_per_s), FALSE, SCALE_RATE, 1, 1e15, "bytes/s", NULL, 0,
     "no DRAM bound on the scattered loads' L2 misses"},
    {"Duration", D(duration_s), FALSE, SCALE_TIME, 1e-9, 1e6, "s", NULL, 0,
     "no DRAM bound on the scattered loads' L2 misses"},
    /* What the profile measured, compared with the simulation of its launch
     * (report/profile_agree.h).  Sanity bounds, not hardware: counts exact
     * in a double, a clock up to 10 GHz, an IPC up to 64 (16 SMSPs);
     * percentages of a peak up to 1000 (a throughput Nsight Compute computes
     * from counters taken apart can pass 100).  A launch that ran lasts a
     * cycle or more, and a warp issues at most one instruction a cycle, so
     * its cycles and cycles per issued instruction are >= 1 (0 is no data:
     * refused, as the anchor would divide by it) */
    {"SM Active Cycles", D(sm_active_cycles), FALSE, SCALE_COUNT, 1, NCU_COUNT_MAX, "cycles",
     "cycle", 0, "no agreement with the profile (its cycles unknown)"},
    {"Elapsed Cycles", D(elapsed_cycles), FALSE, SCALE_COUNT, 1, NCU_COUNT_MAX, "cycles", "cycle",
     0, "not compared"},
    {"SM Frequency", D(sm_ghz), FALSE, SCALE_COUNT, 0, 10, "GHz", NULL, 0, "the model's clock"},
    {"DRAM Throughput", D(dram_pct), FALSE, SCALE_COUNT, 0, 1000, "%", NULL, 0, "not compared"},
    {"L1/TEX Cache Throughput", D(l1_pct), FALSE, SCALE_COUNT, 0, 1000, "%", NULL, 0,
     "not compared"},
    {"L2 Cache Throughput", D(l2_pct), FALSE, SCALE_COUNT, 0, 1000, "%", NULL, 0, "not compared"},
    {"Issued Ipc Active", D(issued_ipc), FALSE, SCALE_COUNT, 0, 64, "warp instructions/cycle", NULL,
     0, "not compared"},
    {"Issue Slots Busy", D(issue_slots_pct), FALSE, SCALE_COUNT, 0, 1000, "%", NULL, 0,
     "not compared"},
    {"Warp Cycles Per Issued Instruction", D(warp_cpi), FALSE, SCALE_COUNT, 1, NCU_COUNT_MAX,
     "cycles", NULL, 0, "not compared"},
    {"Achieved Occupancy", D(achieved_pct), FALSE, SCALE_COUNT, 0, 100, "%", NULL, 0,
     "not compared"},
};
#undef D

/* Other names of the metrics above: what Nsight Compute versions 2019.x to
 * 2025.x print for the same quantity (a different case of "per", "Memory
 * [%]" and the other Speed Of Light names of 2019-2021 for what is now
 * "Memory Throughput" in %), and the metric names --print-metric-name name
 * prints (the section files' Name of each Label).  A row of an old name is
 * read as the new one (unit rules as for it). */
static const struct {
  const gchar *alias, *metric;
} metric_aliases[] = {
    {"Memory [%]", "Memory Throughput"},
    {"SM [%]", "Compute (SM) Throughput"},
    {"Compute (SM) [%]", "Compute (SM) Throughput"},
    {"SOL DRAM", "DRAM Throughput"},
    {"SOL L1/TEX Cache", "L1/TEX Cache Throughput"},
    {"SOL L2 Cache", "L2 Cache Throughput"},
    {"Theoretical Active Warps Per SM", "Theoretical Active Warps per SM"},
    {"Achieved Active Warps per SM", "Achieved Active Warps Per SM"},
    {"launch__registers_per_thread", "Registers Per Thread"},
    {"launch__shared_mem_per_block_static", "Static Shared Memory Per Block"},
    {"launch__shared_mem_per_block_dynamic", "Dynamic Shared Memory Per Block"},
    {"launch__shared_mem_config_size", "Shared Memory Configuration Size"},
    {"launch__block_size", "Block Size"},
    {"launch__grid_size", "Grid Size"},
    {"l1tex__t_sector_hit_rate.pct", "L1/TEX Hit Rate"},
    {"lts__t_sector_hit_rate.pct", "L2 Hit Rate"},
    {"smsp__inst_executed.sum", "Executed Instructions"},
    {"smsp__inst_issued.sum", "Issued Instructions"},
    {"sm__warps_active.avg.per_cycle_active", "Achieved Active Warps Per SM"},
    {"dram__bytes.sum.per_second", "Memory Throughput"},
    {"gpu__time_duration.sum", "Duration"},
};

const gchar *ncu_details_metric_name(const gchar *metric) {
  for (guint i = 0; i < G_N_ELEMENTS(metric_aliases); i++)
    if (strcmp(metric, metric_aliases[i].alias) == 0)
      return metric_aliases[i].metric;
  return metric;
}

/* What each scale takes: its kind of unit, the units allowed, the value in
 * its base unit (NaN for another unit; NULL: count_of). */
static const struct {
  const gchar *kind, *allowed;
  gdouble (*of)(gdouble v, const gchar *unit);
} scales[] = {
    [SCALE_COUNT] = {NULL, NULL, NULL},
    [SCALE_BYTES] = {"byte", "byte, Kbyte, Mbyte, Gbyte, KiB, MiB, each optionally per block",
                     bytes_of},
    [SCALE_RATE] = {"byte rate",
                    "byte/s, Kbyte/s, Mbyte/s, Gbyte/s, Tbyte/s, or each /second; % is the Speed "
                    "Of Light row",
                    rate_of},
    [SCALE_TIME] = {"time", "ns, us, ms, s, nsecond, usecond, msecond, second", seconds_of},
};

/* Decimals the lower end of m's range takes in a message: 9 for a
 * fraction (Duration's 1 ns), else none. */
static int min_decimals(const DetailMetric *m) {
  return m->min < 1 && m->min > 0 ? 9 : 0;
}

/* The entry of detail_metrics for `metric` (or an alias of it) in `unit`,
 * or NULL when warpsim does not read it. */
static const DetailMetric *detail_metric_find(const gchar *metric, const gchar *unit) {
  metric = ncu_details_metric_name(metric);
  for (guint i = 0; i < G_N_ELEMENTS(detail_metrics); i++)
    if (strcmp(metric, detail_metrics[i].metric) == 0 &&
        (detail_metrics[i].scale != SCALE_RATE || strcmp(unit, "%") != 0))
      return &detail_metrics[i];
  return NULL;
}

/* Store row `r`'s value `v` when its metric is one warpsim reads; FALSE with
 * NCU_ERROR_PARSE when it is out of the metric's range, in a unit that is
 * none of its scale's, or repeated for the launch (first_line[i]: the line
 * detail_metrics[i] was first read from, 0 = not yet; updated).  An unknown
 * value (NaN) or one above the metric's clip is a line of d->warnings. */
static gboolean details_metric(NcuDetails *d, const NcuRow *r, const DetailCols *c, gdouble v,
                               guint *first_line, const gchar *origin, GError **error) {
  const gchar *metric = ncu_csv_field(r, c->metric), *unit = ncu_csv_field(r, c->unit);
  const DetailMetric *m = detail_metric_find(metric, unit);
  if (m == NULL)
    return TRUE;
  guint *first = &first_line[m - detail_metrics];
  if (*first != 0) { /* one launch's row, once: never a silent last-wins */
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE,
                "%s:%u: '%s' repeated for the same launch (first at line %u; allowed once)", origin,
                r->line, metric, *first);
    return FALSE;
  }
  *first = r->line;
  if (isnan(v)) {
    g_string_append_printf(d->warnings, "%s:%u: '%s' is unknown ('%s'): assumed %s\n", origin,
                           r->line, metric, ncu_csv_field(r, c->value), m->assumed);
    return TRUE;
  }
  gdouble x = scales[m->scale].of ? scales[m->scale].of(v, unit) : count_of(v, unit, m->base);
  if (isnan(x)) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE,
                "%s:%u: '%s': unit '%s' is no %s unit (allowed %s)", origin, r->line, metric, unit,
                scales[m->scale].kind, scales[m->scale].allowed);
    return FALSE;
  }
  if (x < m->min || x > m->max || (m->whole && x != floor(x))) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE,
                "%s:%u: '%s': out of range '%s' (allowed %.*f..%.0f %s%s)", origin, r->line, metric,
                ncu_csv_field(r, c->value), min_decimals(m), m->min, m->max, m->unit,
                m->whole ? ", whole" : "");
    return FALSE;
  }
  if (m->clip > 0 && x > m->clip) {
    g_string_append_printf(d->warnings,
                           "%s:%u: '%s' is %s %s, above %g %s (Nsight Compute counts hits and "
                           "requests apart): taken as %g %s\n",
                           origin, r->line, metric, ncu_csv_field(r, c->value), m->unit, m->clip,
                           m->unit, m->clip, m->unit);
    x = m->clip;
  }
  if (m->whole)
    G_STRUCT_MEMBER(guint, d, m->offset) = (guint)x;
  else
    G_STRUCT_MEMBER(gdouble, d, m->offset) = x;
  return TRUE;
}

/* The header row and the columns the details export needs in it; NULL with
 * NCU_ERROR_PARSE when one is missing. */
static const NcuRow *details_header(GArray *rows, const gchar *origin, DetailCols *c,
                                    GError **error) {
  const NcuRow *h = rows->len ? &g_array_index(rows, NcuRow, 0) : NULL;
  *c = (DetailCols){-1, -1, -1, -1, -1, -1};
  if (h) {
    c->id = ncu_csv_column(h, "ID");
    c->kname = ncu_csv_column(h, "Kernel Name");
    c->section = ncu_csv_column(h, "Section Name");
    c->metric = ncu_csv_column(h, "Metric Name");
    c->unit = ncu_csv_column(h, "Metric Unit");
    c->value = ncu_csv_column(h, "Metric Value");
  }
  if (h == NULL || c->id < 0 || c->kname < 0 || c->metric < 0 || c->unit < 0 || c->value < 0) {
    g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE,
                "%s:%u: not a Nsight Compute details export (header needs ID, Kernel Name, "
                "Metric Name, Metric Unit, Metric Value; export with ncu --page details --csv)",
                origin, h ? h->line : 1);
    return NULL;
  }
  return h;
}

/* g_ptr_array_sort order of C strings (it passes pointers to the elements). */
static gint compare_strings(gconstpointer a, gconstpointer b) {
  return g_strcmp0(*(const gchar *const *)a, *(const gchar *const *)b);
}

/* NCU_ERROR_KERNEL naming the kernels `seen` (sorted) when none matches key. */
static void no_kernel_error(GHashTable *seen, const gchar *origin, guint line, const gchar *key,
                            GError **error) {
  GString *names = g_string_new(NULL);
  GHashTableIter it;
  gpointer k;
  g_hash_table_iter_init(&it, seen);
  g_autoptr(GPtrArray) sorted = g_ptr_array_new();
  while (g_hash_table_iter_next(&it, &k, NULL))
    g_ptr_array_add(sorted, k);
  g_ptr_array_sort(sorted, compare_strings);
  for (guint i = 0; i < sorted->len; i++) {
    const gchar *const *s = (const gchar *const *)&g_ptr_array_index(sorted, i);
    g_string_append_printf(names, "%s'%s'", names->len ? ", " : "", *s);
  }
  g_set_error(error, NCU_ERROR, NCU_ERROR_KERNEL,
              "%s:%u: no kernel '%s' in the details export (kernels: %s)", origin, line, key,
              names->len ? names->str : "none");
  g_string_free(names, TRUE);
}

/* A launch of the kernel asked for: its ID, first row and line. */
typedef struct {
  const gchar *id;
  guint row, line;
} Launch;

/* The launches of the listing's kernel `name` (ncu_csv_name_match), in
 * file order (each ID once), after checking every row's field count; the
 * names of the others into `seen`, the first row of another overload of it
 * into *overload.  NULL with NCU_ERROR_PARSE. */
static GArray *find_launches(GArray *rows, const NcuRow *h, const DetailCols *c, const gchar *name,
                             GHashTable *seen, const NcuRow **overload, const gchar *origin,
                             GError **error) {
  GArray *launches = g_array_new(FALSE, FALSE, sizeof(Launch));
  const gchar *last_id = NULL;
  for (guint i = 1; i < rows->len; i++) {
    const NcuRow *r = &g_array_index(rows, NcuRow, i);
    /* Nsight Compute leaves a rule's trailing fields out, never adds any */
    if ((guint)c->value >= r->n_fields || r->n_fields > h->n_fields) {
      g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE, "%s:%u: %u fields, the header has %u", origin,
                  r->line, r->n_fields, h->n_fields);
      g_array_free(launches, TRUE);
      return NULL;
    }
    const gchar *id = ncu_csv_field(r, c->id), *kname = ncu_csv_field(r, c->kname);
    if (last_id != NULL && strcmp(id, last_id) == 0)
      continue; /* the same launch's next row */
    last_id = id;
    NcuNameMatch match = ncu_csv_name_match(kname, name);
    if (match == NCU_NAME_OVERLOAD && *overload == NULL)
      *overload = r;
    if (match != NCU_NAME_SAME) {
      g_hash_table_add(seen, g_strdup(kname));
      continue;
    }
    for (guint j = 0; j < launches->len; j++) {
      const Launch *l = &g_array_index(launches, Launch, j);
      if (strcmp(l->id, id) == 0) { /* each launch's rows are one block */
        g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE,
                    "%s:%u: launch ID %s of kernel '%s' again, after other launches (first at "
                    "line %u; allowed: each launch's rows once, together)",
                    origin, r->line, id, kname, l->line);
        g_array_free(launches, TRUE);
        return NULL;
      }
    }
    Launch l = {id, i, r->line};
    g_array_append_val(launches, l);
  }
  return launches;
}

/* The launch to read: the one of ID `want` (>= 0), else the first, with a
 * warning when there are several.  NULL with NCU_ERROR_KERNEL. */
static const Launch *pick_launch(GArray *launches, GArray *rows, const DetailCols *c, gint64 want,
                                 const gchar *key, const gchar *origin, GString *warnings,
                                 GError **error) {
  GString *ids = g_string_new(NULL);
  const Launch *found = NULL;
  for (guint i = 0; i < launches->len; i++) {
    const Launch *l = &g_array_index(launches, Launch, i);
    g_string_append_printf(ids, "%s%s", i ? ", " : "", l->id);
    gchar *end = NULL;
    gint64 id = g_ascii_strtoll(l->id, &end, 10);
    if (found == NULL && (want < 0 || (*l->id && *end == '\0' && id == want)))
      found = l;
  }
  if (found == NULL) {
    const gchar *other = NULL;
    for (guint i = 1; i < rows->len && other == NULL; i++) {
      const NcuRow *r = &g_array_index(rows, NcuRow, i);
      gchar *end = NULL;
      const gchar *f = ncu_csv_field(r, c->id);
      if (*f && g_ascii_strtoll(f, &end, 10) == want && *end == '\0')
        other = ncu_csv_field(r, c->kname);
    }
    g_set_error(error, NCU_ERROR, NCU_ERROR_KERNEL,
                "%s: [sass] details_id = %" G_GINT64_FORMAT ": %s%s%s (launch IDs of '%s': %s)",
                origin, want, other ? "a launch of '" : "no such launch ID", other ? other : "",
                other ? "'" : "", key, ids->str);
  } else if (want < 0 && launches->len > 1) {
    g_string_append_printf(warnings,
                           "%s:%u: %u launches of '%s' (IDs %s): took ID %s (set [sass] "
                           "details_id to pick another)\n",
                           origin, found->line, launches->len, key, ids->str, found->id);
  }
  g_string_free(ids, TRUE);
  return found;
}

static NcuDetails *details_from_rows(GArray *rows, const NcuTable *t, const gchar *origin,
                                     const gchar *name, gint64 want, GError **error) {
  DetailCols c;
  const NcuRow *h = details_header(rows, origin, &c, error);
  if (h == NULL)
    return NULL;
  g_autofree gchar *key = sass_name_key(name);
  g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  const NcuRow *overload = NULL;
  g_autoptr(GArray) launches = find_launches(rows, h, &c, name, seen, &overload, origin, error);
  if (launches == NULL)
    return NULL;
  if (launches->len == 0 && overload != NULL) {
    ncu_csv_overload_error(error, origin, overload->line, ncu_csv_field(overload, c.kname), name);
    return NULL;
  }
  if (launches->len == 0) {
    no_kernel_error(seen, origin, h->line, key, error);
    return NULL;
  }
  g_autoptr(NcuDetails) d = g_new0(NcuDetails, 1);
  d->warnings = g_string_new(NULL);
  const Launch *l = pick_launch(launches, rows, &c, want, key, origin, d->warnings, error);
  if (l == NULL)
    return NULL;
  const NcuRow *r0 = &g_array_index(rows, NcuRow, l->row);
  d->file = g_strdup(origin);
  d->kernel = g_strdup(ncu_csv_field(r0, c.kname));
  d->line = l->line;
  d->id = g_ascii_strtoll(l->id, NULL, 10);
  d->smem_static = d->smem_dynamic = d->smem_config = d->l1_hit_pct = d->l2_hit_pct = NAN;
  d->executed_insts = d->issued_insts = d->achieved_warps = d->theoretical_warps = NAN;
  d->dram_bytes_per_s = d->duration_s = NAN;
  d->sm_active_cycles = d->elapsed_cycles = d->sm_ghz = d->dram_pct = d->l1_pct = NAN;
  d->l2_pct = d->issued_ipc = d->issue_slots_pct = d->warp_cpi = d->achieved_pct = NAN;
  guint first_line[G_N_ELEMENTS(detail_metrics)] = {0}; /* line of each metric read so far */
  for (guint i = l->row; i < rows->len; i++) {
    const NcuRow *r = &g_array_index(rows, NcuRow, i);
    if (strcmp(ncu_csv_field(r, c.id), l->id) != 0)
      break; /* the launch's rows have ended */
    gdouble v = NAN;
    if (!ncu_csv_value(t, ncu_csv_field(r, c.value), &v)) {
      const gchar *metric = ncu_csv_field(r, c.metric);
      const DetailMetric *m = detail_metric_find(metric, ncu_csv_field(r, c.unit));
      if (m != NULL) { /* one warpsim reads: never silently absent */
        g_set_error(error, NCU_ERROR, NCU_ERROR_PARSE,
                    "%s:%u: '%s': %s '%s' (allowed %.*f..%.0f %s, or n/a)", origin, r->line, metric,
                    isinf(v) ? "out of range (overflow)" : "not a number",
                    ncu_csv_field(r, c.value), min_decimals(m), m->min, m->max, m->unit);
        return NULL;
      }
      continue; /* text-valued metrics ("PolicySpread") */
    }
    if (!details_metric(d, r, &c, v, first_line, origin, error))
      return NULL;
  }
  if (d->regs == 0 && first_line[0] == 0) /* no row at all (n/a warned already) */
    g_string_append_printf(d->warnings,
                           "%s:%u: kernel '%s' has no 'Registers Per Thread' (export with "
                           "--section LaunchStats or --set full): assumed %s\n",
                           origin, d->line, d->kernel, detail_metrics[0].assumed);
  return g_steal_pointer(&d);
}

NcuDetails *ncu_details_load_data(const gchar *text, gsize len, const gchar *origin,
                                  const gchar *name, GError **error) {
  return ncu_details_load_data_id(text, len, origin, name, -1, error);
}

NcuDetails *ncu_details_load_data_id(const gchar *text, gsize len, const gchar *origin,
                                     const gchar *name, gint64 id, GError **error) {
  g_autoptr(NcuTable) table = ncu_csv_read_from(text, len, origin, "ID", error);
  if (table == NULL)
    return NULL;
  return details_from_rows(table->rows, table, origin, name, id, error);
}

NcuDetails *ncu_details_load(const gchar *path, const gchar *name, GError **error) {
  return ncu_details_load_id(path, name, -1, error);
}

NcuDetails *ncu_details_load_id(const gchar *path, const gchar *name, gint64 id, GError **error) {
  gchar *text = NULL;
  gsize len = 0;
  if (!ncu_csv_read_file(path, &text, &len, error))
    return NULL;
  NcuDetails *d = ncu_details_load_data_id(text, len, path, name, id, error);
  g_free(text);
  return d;
}

void ncu_details_free(NcuDetails *d) {
  if (d == NULL)
    return;
  g_free(d->file);
  g_free(d->kernel);
  if (d->warnings)
    g_string_free(d->warnings, TRUE);
  g_free(d);
}
