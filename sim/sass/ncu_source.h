/* ncu_source.h - the source page of an Nsight Compute export of one kernel
 * launch (ncu --page source --print-source sass --csv: a "Kernel Name" line,
 * a header, one row per SASS instruction), read with libcsv (quoting as RFC
 * 4180).  Counts are for the whole launch.  Errors: NCU_ERROR (ncu.h).
 */
#ifndef WARPSIM_NCU_SOURCE_H
#define WARPSIM_NCU_SOURCE_H

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

void ncu_source_free(NcuSource *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NcuSource, ncu_source_free)

#endif
