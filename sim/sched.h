/* sched.h - warp-scheduler policies: which eligible warp an SMSP selects.
 *
 * Each policy is a small function over the eligible warps of one SMSP, given
 * in age order (oldest first, by launch), and the age of the warp the SMSP
 * selected last.  Policies are looked up by name.
 */
#ifndef WARPSIM_SCHED_H
#define WARPSIM_SCHED_H

#include <glib.h>

typedef struct {
  const gchar *name; /* "gto", "lrr", "oldest", "grr" */
  const gchar *desc; /* one line for --help */
  /* Index into `ages` (n >= 1, ascending) of the warp to select; `last_age`
   * is the age of the previously selected warp (G_MAXUINT64 when none). */
  guint (*pick)(const guint64 *ages, guint n, guint64 last_age);
} SchedPolicy;

/* The policy called `name`, or NULL. */
const SchedPolicy *sched_lookup(const gchar *name);

/* "gto|lrr|oldest|grr", static. */
const gchar *sched_names(void);

#endif
