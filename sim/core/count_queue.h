/* count_queue.h - how many items (the SM's loads in flight) are due at each
 * future cycle: only their number and the first cycle matter, so all items
 * due by a cycle leave together (count_queue_complete) and one push adds any
 * number of them.
 *
 * A wheel of COUNT_WHEEL one-cycle counters with a bitmap of the non-zero
 * ones, like the buckets of the calendar queue in event.h; the rare counts
 * due beyond the wheel wait in an EventQueue and move to the wheel when it
 * reaches them.  Items of the same cycle are not ordered: unlike EventQueue
 * this queue has no payload.
 */
#ifndef WARPSIM_COUNT_QUEUE_H
#define WARPSIM_COUNT_QUEUE_H

#include "core/event.h"
#include "core/stats.h"

#include <glib.h>

#define COUNT_WHEEL 4096 /* cycles the wheel spans (a power of 2): DRAM latency under load fits */

typedef struct {
  guint32 *count; /* COUNT_WHEEL counters (cycle modulo the wheel): items due at that cycle */
  guint64 *used;  /* COUNT_WHEEL bits: the counter is not 0 */
  guint64 words;  /* bit w: used[w] is not 0 (event_bitmap_first) */
  EventQueue far; /* counts due at base + COUNT_WHEEL or later (data: the count) */
  SimCycle base;  /* the wheel holds cycles [base, base + COUNT_WHEEL) */
  SimCycle first; /* first cycle with an item, SIM_CYCLE_NEVER when empty */
  guint len;      /* items queued, wheel and far */
} CountQueue;

/* An empty queue (value type: count_queue_clear frees its storage). */
void count_queue_init(CountQueue *q);
void count_queue_clear(CountQueue *q);

/* Beyond the wheel: count_queue_add's rare path (count_queue.c). */
void count_queue_add_far(CountQueue *q, SimCycle at, guint n);

/* Put `n` items due at `at` (on the wheel's span) in its counter. */
static inline void count_queue_put(CountQueue *q, SimCycle at, guint n) {
  guint b = (guint)(at & (COUNT_WHEEL - 1));
  q->count[b] += n;
  event_bitmap_set(q->used, &q->words, b);
}

/* Add `n` items (0 adds none) due at cycle `at`, which must not be before
 * the last cycle passed to count_queue_complete.  Inline: one call per
 * global load. */
static inline void count_queue_add(CountQueue *q, SimCycle at, guint n) {
  if (n == 0)
    return;
  g_assert(at >= q->base);
  if (G_LIKELY(at - q->base < COUNT_WHEEL)) {
    count_queue_put(q, at, n);
    q->len += n;
    q->first = MIN(q->first, at);
  } else {
    count_queue_add_far(q, at, n);
  }
}

/* Remove every item due at or before `now`. */
void count_queue_complete(CountQueue *q, SimCycle now);

/* Cycle of the first item, SIM_CYCLE_NEVER when the queue is empty. */
static inline SimCycle count_queue_next(const CountQueue *q) {
  return q->first;
}

#endif
