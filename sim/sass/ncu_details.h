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
  guint regs;                /* Launch Statistics: Registers Per Thread (0 = absent) */
  gdouble smem_static;       /* Static Shared Memory Per Block, bytes (NaN = absent) */
  gdouble smem_dynamic;      /* Dynamic Shared Memory Per Block, bytes (NaN = absent) */
  gdouble smem_config;       /* Shared Memory Configuration Size (carveout), bytes (NaN = absent) */
  guint block_size;          /* threads per block (0 = absent) */
  guint grid_size;           /* blocks (0 = absent) */
  gdouble l1_hit_pct;        /* Memory Workload Analysis: L1/TEX Hit Rate, % (NaN = absent) */
  gdouble l2_hit_pct;        /* L2 Hit Rate, % (NaN = absent) */
  gdouble executed_insts;    /* Instruction Statistics: Executed Instructions (NaN = absent) */
  gdouble achieved_warps;    /* Achieved Active Warps Per SM (NaN = absent) */
  gdouble theoretical_warps; /* Theoretical Active Warps per SM (NaN = absent) */
  gdouble dram_bytes_per_s;  /* Memory Workload Analysis: Memory Throughput in a byte/s unit
                                (DRAM), bytes per second (NaN = absent) */
  gdouble duration_s;        /* GPU Speed Of Light: Duration, seconds (NaN = absent) */
} NcuDetails;

/* Read the details-page export at `path` and take the kernel whose name key
 * is `key` (its first launch).  Returns a new NcuDetails or NULL. */
NcuDetails *ncu_details_load(const gchar *path, const gchar *key, GError **error);
NcuDetails *ncu_details_load_data(const gchar *text, gsize len, const gchar *origin,
                                  const gchar *key, GError **error);

void ncu_details_free(NcuDetails *d);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NcuDetails, ncu_details_free)

#endif
