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

/* What a policy sees of one SMSP in one cycle. */
typedef struct {
  guint64 cand;        /* slots that can issue now (non-zero) */
  const guint64 *ages; /* age of each slot's warp (launch order; lower is older) */
  gint last;           /* slot selected last, or SCHED_NO_SLOT */
  guint group_size;    /* two_level, oldest_group: warps per fetch group ([sched] group_size) */
} SchedView;

typedef struct {
  const gchar *name; /* "gto", "lrr", "oldest", "grr", "two_level", "oldest_group" */
  const gchar *desc; /* one line for --help */
  guint (*pick)(const SchedView *v); /* the slot to select, one of v->cand */
  gboolean greedy;      /* picks v->last whenever it is a candidate (lets the caller skip pick) */
  gboolean round_robin; /* otherwise picks sched_next_after(v->cand, v->last) (lets the caller
                           skip pick: lrr, grr) */
  gboolean oldest;      /* otherwise picks the oldest candidate (lets the caller skip pick
                           where slot order is age order, Smsp.ages_in_order: gto, oldest) */
} SchedPolicy;

/* The first slot of `cand` (non-zero) after `last` (a slot or
 * SCHED_NO_SLOT) in round-robin order: the lowest one above it, else the
 * lowest. */
static inline guint sched_next_after(guint64 cand, gint last) {
  guint64 after = (last == SCHED_NO_SLOT || last >= 63) ? 0 : cand & (~0ULL << (last + 1));
  return (guint)__builtin_ctzll(after ? after : cand);
}

/* The slot of `m` (non-zero) whose key is least, the lowest slot among
 * equals: the oldest of a set by the slots' ages, or the first arrival of a
 * queue by its arrival numbers. */
static inline guint sched_least(guint64 m, const guint64 *key) {
  guint best = (guint)__builtin_ctzll(m);
  for (m &= m - 1; m != 0; m &= m - 1) {
    guint i = (guint)__builtin_ctzll(m);
    if (key[i] < key[best])
      best = i;
  }
  return best;
}

/* The policy called `name`, or NULL. */
const SchedPolicy *sched_lookup(const gchar *name);

/* "gto|lrr|oldest|grr|two_level|oldest_group", static. */
const gchar *sched_names(void);

#endif
