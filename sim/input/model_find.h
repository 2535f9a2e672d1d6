/* model_find.h - where an SM model file is: the shipped models/<name>.ini
 * found by name in any case, file name, compute capability ("9.0") or nvcc
 * architecture ("sm_90"), searched through paths.h's model directories. */
#ifndef WARPSIM_MODEL_FIND_H
#define WARPSIM_MODEL_FIND_H

#include "input/model.h"

#include <glib.h>

/* Parse a compute capability "MAJOR.MINOR" (each 1-2 decimal digits) into
 * *major and *minor.  FALSE (outputs untouched) when cc is not one. */
gboolean model_find_parse_cc(const gchar *cc, guint *major, guint *minor);

/* The path of the shipped model `spec` names: its name in any case ("H100"),
 * its file name ("h100.ini"), a compute capability ("9.0", h200 wins ties
 * for 9.0) or an nvcc architecture ("sm_90").  Newly allocated; NULL with
 * MODEL_ERROR_NOT_FOUND naming the directories searched and the names known.
 * model_list (model.h) is defined in model_find.c as well. */
gchar *model_find_path(const gchar *spec, GError **error);

/* The current name of a shipped model `spec` names by a deprecated one
 * ("seed000" -> "textbook100k", "seed001" -> "textbook64k", any case, with
 * or without ".ini"; model_find_path accepts both), or NULL.  Static. */
const gchar *model_find_renamed(const gchar *spec);

#endif
