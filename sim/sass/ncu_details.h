/* ncu_details.h - the details page of an Nsight Compute export (ncu --page
 * details --csv: one row per metric, possibly of several kernels), read with
 * libcsv (quoting as RFC 4180).  Errors: NCU_ERROR (ncu.h).
 */
#ifndef WARPSIM_NCU_DETAILS_H
#define WARPSIM_NCU_DETAILS_H

#include <glib.h>

typedef struct {
  gchar *file;               /* owned */
  gchar *kernel;             /* "Kernel Name", owned */
  guint line;                /* first line of this kernel's rows */
  gint64 id;                 /* the launch's "ID" */
  guint regs;                /* Launch Statistics: Registers Per Thread (0 = absent) */
  gdouble smem_static;       /* Static Shared Memory Per Block, bytes (NaN = absent) */
  gdouble smem_dynamic;      /* Dynamic Shared Memory Per Block, bytes (NaN = absent) */
  gdouble smem_config;       /* Shared Memory Configuration Size (carveout), bytes (NaN = absent) */
  guint block_size;          /* threads per block (0 = absent) */
  guint grid_size;           /* blocks (0 = absent) */
  gdouble l1_hit_pct;        /* Memory Workload Analysis: L1/TEX Hit Rate, % (NaN = absent) */
  gdouble l2_hit_pct;        /* L2 Hit Rate, % (NaN = absent) */
  gdouble executed_insts;    /* Instruction Statistics: Executed Instructions (NaN = absent) */
  gdouble issued_insts;      /* Issued Instructions, warp instructions over all SMs (NaN =
                                absent) */
  gdouble achieved_warps;    /* Achieved Active Warps Per SM (NaN = absent) */
  gdouble theoretical_warps; /* Theoretical Active Warps per SM (NaN = absent) */
  gdouble dram_bytes_per_s;  /* Memory Workload Analysis: Memory Throughput in a byte/s unit
                                (DRAM), bytes per second (NaN = absent) */
  gdouble duration_s;        /* GPU Speed Of Light: Duration, seconds (NaN = absent) */
  /* What the profile measured, for the agreement with the simulated launch
   * (report/profile_agree.h); each NaN = absent: */
  gdouble sm_active_cycles; /* GPU Speed Of Light: SM Active Cycles, cycles per SM */
  gdouble elapsed_cycles;   /* Elapsed Cycles, cycles */
  gdouble sm_ghz;           /* SM Frequency, GHz (the clock the profile ran at) */
  gdouble dram_pct;         /* DRAM Throughput, % of the DRAM's peak */
  gdouble l1_pct;           /* L1/TEX Cache Throughput, % of peak */
  gdouble l2_pct;           /* L2 Cache Throughput, % of peak */
  gdouble issued_ipc;       /* Compute Workload Analysis: Issued Ipc Active, warp
                               instructions per active cycle per SM */
  gdouble issue_slots_pct;  /* Issue Slots Busy, % */
  gdouble warp_cpi;         /* Warp State Statistics: Warp Cycles Per Issued Instruction */
  gdouble achieved_pct;     /* Occupancy: Achieved Occupancy, % */
  GString *warnings;        /* what was assumed for what the export does not give, and rates
                               above 100 % read as 100 %: one line each, "FILE:LINE: ...\n"
                               (owned; "" when none) */
} NcuDetails;

/* Read the details-page export at `path` and take the listing's kernel
 * `name` (its demangled name, or a name key): a kernel of the same name key
 * (sass_name_key: any name base) and parameters (sass_name_same_params: a
 * base without them matches), whose launch of ID `id`, or with `id` < 0
 * first launch, is read (a warning names the one taken when there are
 * several).  An export of another overload alone (the same key, other
 * parameters) is NCU_ERROR_KERNEL naming both signatures.  Metrics by their
 * label or an older one, or by the metric name (ncu_details_metric_name);
 * values scaled by their Metric Unit.  Unknown values ("n/a", "-") and hit
 * rates above 100 % (read as 100 %) are one line of `warnings` each, saying
 * what is assumed.  Text as ncu_csv_read takes it (UTF-16, lines ahead of
 * the "ID" header skipped).  Returns a new NcuDetails or NULL with NCU_ERROR
 * (NCU_ERROR_KERNEL: no such kernel, or no launch `id` of it). */
NcuDetails *ncu_details_load_id(const gchar *path, const gchar *name, gint64 id, GError **error);
NcuDetails *ncu_details_load_data_id(const gchar *text, gsize len, const gchar *origin,
                                     const gchar *name, gint64 id, GError **error);

/* The same with `id` = -1 (the kernel's first launch). */
NcuDetails *ncu_details_load(const gchar *path, const gchar *name, GError **error);
NcuDetails *ncu_details_load_data(const gchar *text, gsize len, const gchar *origin,
                                  const gchar *name, GError **error);

/* The metric label warpsim knows `metric` by: the current label for an
 * older one ("Memory [%]" -> "Memory Throughput", "SOL DRAM" -> "DRAM
 * Throughput") or for a metric name ("launch__registers_per_thread" ->
 * "Registers Per Thread"); else `metric` itself.  Not owned. */
const gchar *ncu_details_metric_name(const gchar *metric);

void ncu_details_free(NcuDetails *d);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NcuDetails, ncu_details_free)

#endif
