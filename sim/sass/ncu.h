/* ncu.h - Nsight Compute CSV exports of one kernel launch: the source page
 * (ncu_source.h) and the details page (ncu_details.h), both read with libcsv
 * through ncu_csv.h, and the error domain they share (defined in ncu_csv.c).
 */
#ifndef WARPSIM_NCU_H
#define WARPSIM_NCU_H

#include "sass/ncu_details.h"
#include "sass/ncu_source.h"

#include <glib.h>

#define NCU_ERROR (ncu_error_quark())
GQuark ncu_error_quark(void);
typedef enum {
  NCU_ERROR_NOT_FOUND, /* unreadable file */
  NCU_ERROR_PARSE,     /* malformed CSV, missing column, non-numeric value (FILE:LINE) */
  NCU_ERROR_KERNEL,    /* no kernel of that name; or a profile of another kernel */
} NcuError;

#endif
