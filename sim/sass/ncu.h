/* ncu.h - Nsight Compute CSV exports of one kernel launch: the source page
 * (ncu --page source --print-source sass --csv: a "Kernel Name" line, a
 * header, one row per SASS instruction) and the details page (ncu --page
 * details --csv: one row per metric, possibly of several kernels).  Read
 * with libcsv (quoting as RFC 4180).  Counts are for the whole launch.
 */
#ifndef WARPSIM_NCU_H
#define WARPSIM_NCU_H

#include "sass/sass.h"

#include <glib.h>

typedef enum { NCU_SPACE_NONE, NCU_SPACE_GLOBAL, NCU_SPACE_SHARED, NCU_SPACE_LOCAL } NcuSpace;

typedef struct {
  guint32 offset;          /* bytes from the function's first instruction */
  guint line;              /* line of the CSV (1-based) */
  gchar *source;           /* the instruction as Nsight Compute prints it, owned */
  guint64 executed;        /* "Instructions Executed": warp-level, whole launch */
  guint64 thread_exec;     /* "Thread Instructions Executed" */
  guint8 space;            /* NcuSpace of "Address Space" */
  gboolean store;          /* "Access Operation" is Store (or an atomic/reduction) */
  guint access_bits;       /* "Access Size": bits per thread, 0 = no memory access */
  guint64 l1_requests;     /* "L1 Tag Requests Global" */
  guint64 l2_sectors;      /* "L2 Theoretical Sectors Global" (32 B sectors) */
  gdouble smem_ways;       /* "L1 Conflicts Shared N-Way" */
  guint64 smem_wavefronts; /* "L1 Wavefronts Shared" */
  guint64 smem_ideal;      /* "L1 Wavefronts Shared Ideal" */
} NcuInstr;

typedef struct {
  gchar *file;   /* owned */
  gchar *kernel; /* "Kernel Name" as printed, owned */
  guint line;    /* line of the "Kernel Name" row */
  NcuInstr *ins; /* owned */
  guint n;
} NcuSource;

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

#define NCU_ERROR (ncu_error_quark())
GQuark ncu_error_quark(void);
typedef enum {
  NCU_ERROR_NOT_FOUND, /* unreadable file */
  NCU_ERROR_PARSE,     /* malformed CSV, missing column, non-numeric value (FILE:LINE) */
  NCU_ERROR_KERNEL,    /* no kernel of that name; or a profile of another kernel */
} NcuError;

/* Read the source-page export at `path` and take the kernel whose name key
 * (sass_name_key) is `key`.  A file of one kernel with another name is an
 * error (NCU_ERROR_KERNEL).  Returns a new NcuSource or NULL with NCU_ERROR. */
NcuSource *ncu_source_load(const gchar *path, const gchar *key, GError **error);

/* Same from CSV text; `origin` names it in messages. */
NcuSource *ncu_source_load_data(const gchar *text, gsize len, const gchar *origin, const gchar *key,
                                GError **error);

/* Check `src` profiles `f`: the same number of instructions at the same
 * offsets with the same opcodes.  FALSE with NCU_ERROR_KERNEL naming the
 * CSV line of the first difference. */
gboolean ncu_source_check(const NcuSource *src, const SassFunction *f, GError **error);

/* Read the details-page export at `path` and take the kernel whose name key
 * is `key` (its first launch).  Returns a new NcuDetails or NULL. */
NcuDetails *ncu_details_load(const gchar *path, const gchar *key, GError **error);
NcuDetails *ncu_details_load_data(const gchar *text, gsize len, const gchar *origin,
                                  const gchar *key, GError **error);

void ncu_source_free(NcuSource *s);
void ncu_details_free(NcuDetails *d);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NcuSource, ncu_source_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NcuDetails, ncu_details_free)

#endif
