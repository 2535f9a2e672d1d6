/* ncu_source.h - the source page of an Nsight Compute export of one kernel
 * launch (ncu --page source --print-source sass --csv: a "Kernel Name" line,
 * a header, one row per SASS instruction), read with libcsv (quoting as RFC
 * 4180).  Counts are for the whole launch.  Errors: NCU_ERROR (ncu.h).
 */
#ifndef WARPSIM_NCU_SOURCE_H
#define WARPSIM_NCU_SOURCE_H

#include "sass/sass.h"

#include <glib.h>

/* "Address Space": Global,Shared is a generic access whose addresses the
 * profiler saw in both windows (a peer CTA's shared memory reads so). */
typedef enum {
  NCU_SPACE_NONE,
  NCU_SPACE_GLOBAL,
  NCU_SPACE_SHARED,
  NCU_SPACE_LOCAL,
  NCU_SPACE_GLOBAL_SHARED
} NcuSpace;

/* Bits of NcuInstr.unknown: a counter the export does not give for this
 * instruction (no such column, or "n/a", "-", "" in it).  A measured 0 is
 * known.  An unknown count reads as 0 in its field, except executed. */
typedef enum {
  NCU_UNKNOWN_EXECUTED = 1u << 0, /* executed: taken from the instruction before */
  NCU_UNKNOWN_THREAD_EXEC = 1u << 1,
  NCU_UNKNOWN_L1_REQUESTS = 1u << 2,
  NCU_UNKNOWN_L2_SECTORS = 1u << 3,
  NCU_UNKNOWN_L2_SECTORS_LOCAL = 1u << 4,
  NCU_UNKNOWN_SMEM_WAVEFRONTS = 1u << 5,
  NCU_UNKNOWN_SMEM_IDEAL = 1u << 6,
} NcuUnknown;

typedef struct {
  guint32 offset;           /* bytes from the function's first instruction */
  guint line;               /* line of the CSV (1-based) */
  gchar *source;            /* the instruction as Nsight Compute prints it, owned */
  guint64 executed;         /* "Instructions Executed": warp-level, whole launch */
  guint64 thread_exec;      /* "Thread Instructions Executed" */
  guint8 space;             /* NcuSpace of "Address Space" */
  gboolean store;           /* "Access Operation" is Store (or an atomic/reduction) */
  guint access_bits;        /* "Access Size": bits per thread, 0 = no memory access */
  guint64 l1_requests;      /* "L1 Tag Requests Global" */
  guint64 l2_sectors;       /* "L2 Theoretical Sectors Global" (32 B sectors) */
  guint64 l2_sectors_local; /* "L2 Theoretical Sectors Local" (32 B sectors; the column is
                               written only for kernels that use local memory) */
  gdouble smem_ways;        /* "L1 Conflicts Shared N-Way" */
  guint64 smem_wavefronts;  /* "L1 Wavefronts Shared" */
  guint64 smem_ideal;       /* "L1 Wavefronts Shared Ideal" */
  guint unknown;            /* NcuUnknown bits */
} NcuInstr;

/* The source page's warp-state sample columns ("Warp Stall Sampling (All
 * Samples)" per reason: stall_<reason>), in this order. */
typedef enum {
  NCU_STALL_BARRIER,
  NCU_STALL_BRANCH_RESOLVING,
  NCU_STALL_DISPATCH,
  NCU_STALL_DRAIN,
  NCU_STALL_IMC,
  NCU_STALL_LG,
  NCU_STALL_LONG_SB,
  NCU_STALL_MATH,
  NCU_STALL_MEMBAR,
  NCU_STALL_MIO,
  NCU_STALL_MISC,
  NCU_STALL_NO_INST,
  NCU_STALL_NOT_SELECTED,
  NCU_STALL_SELECTED,
  NCU_STALL_SHORT_SB,
  NCU_STALL_SLEEP,
  NCU_STALL_TEX,
  NCU_STALL_WAIT,
  NCU_STALL_MAX
} NcuStall;

/* The column name of `s` ("stall_long_sb"; static). */
const gchar *ncu_stall_column(NcuStall s);

typedef struct {
  gchar *file;   /* owned */
  gchar *kernel; /* "Kernel Name" as printed, owned */
  guint line;    /* line of the "Kernel Name" row */
  NcuInstr *ins; /* owned */
  guint n;
  GString *warnings; /* what was read in place of what the export does not give: one line
                        each, "FILE:LINE: ...\n" (owned; "" when none) */
  guint64 samples[NCU_STALL_MAX]; /* warp-state samples per reason, summed over the
                                     instructions (a column left out or empty: 0) */
} NcuSource;

/* Read the source-page export at `path` and take the listing's kernel `name`
 * (its demangled name, or a name key): the same name key (sass_name_key: any
 * name base, mangled or demangled) and parameters (sass_name_same_params);
 * of several launches the first (a warning says so: the source page names no
 * launch ID).  A file of other kernels is an error (NCU_ERROR_KERNEL), and
 * so is one of another overload of it (the same key, other parameters: its
 * message names both signatures).  Unknown counters ("n/a") are
 * NcuInstr.unknown, an unknown execution count takes the instruction
 * before's; each is one line of `warnings`.  Text as ncu_csv_read takes it
 * (UTF-16, lines ahead of the first "Kernel Name" line skipped).  Returns a
 * new NcuSource or NULL with NCU_ERROR. */
NcuSource *ncu_source_load(const gchar *path, const gchar *name, GError **error);

/* Same from CSV text; `origin` names it in messages. */
NcuSource *ncu_source_load_data(const gchar *text, gsize len, const gchar *origin,
                                const gchar *name, GError **error);

/* Check `src` profiles `f`: the same number of instructions at the same
 * offsets with the same opcodes.  FALSE with NCU_ERROR_KERNEL naming the
 * CSV line of the first difference. */
gboolean ncu_source_check(const NcuSource *src, const SassFunction *f, GError **error);

void ncu_source_free(NcuSource *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NcuSource, ncu_source_free)

#endif
