/* sched.h - warp-scheduler policies: which eligible warp an SMSP selects.
 *
 * An SMSP holds at most 64 warp slots.  Each cycle its scheduler gets the
 * set of warps that could issue (a bitmask over slots), the warps' ages
 * (launch order; lower is older) and the slot it selected last, and returns
 * one slot.  Policies are small functions looked up by name.
 */
#ifndef WARPSIM_SCHED_H
#define WARPSIM_SCHED_H

#include <glib.h>

#define SCHED_MAX_SLOTS 64
#define SCHED_NO_SLOT (-1)

typedef struct {
  const gchar *name; /* "gto", "lrr", "oldest", "grr" */
  const gchar *desc; /* one line for --help */
  /* Slot to select from `cand` (non-zero bitmask of slots); `ages[slot]` is
   * each slot's age; `last` is the slot selected last or SCHED_NO_SLOT. */
  guint (*pick)(guint64 cand, const guint64 *ages, gint last);
} SchedPolicy;

/* The policy called `name`, or NULL. */
const SchedPolicy *sched_lookup(const gchar *name);

/* "gto|lrr|oldest|grr", static. */
const gchar *sched_names(void);

#endif
