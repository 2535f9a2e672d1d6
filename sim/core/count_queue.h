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

/* The wheel's first non-zero counter from cycle `from` (>= base) on: its
 * cycle, SIM_CYCLE_NEVER when the wheel holds none. */
static inline SimCycle count_queue_wheel_from(const CountQueue *q, SimCycle from) {
  guint offset =
      event_bitmap_first(q->used, q->words, COUNT_WHEEL / 64, (guint)(from & (COUNT_WHEEL - 1)));
  return offset == G_MAXUINT ? SIM_CYCLE_NEVER : from + offset;
}

/* count_queue_complete's general case (count_queue.c): counters due
 * before `now` too, or counts beyond the wheel. */
void count_queue_complete_all(CountQueue *q, SimCycle now);

/* Remove every item due at or before `now`.  Inline for the common case,
 * the first counter due at `now` itself and none beyond the wheel (what
 * count_queue_complete_all does then: spill_32 completes loads in 1.0 M
 * cycles at B = 8). */
static inline void count_queue_complete(CountQueue *q, SimCycle now) {
  if (G_LIKELY(q->first == now && q->far.len == 0)) {
    guint b = (guint)(now & (COUNT_WHEEL - 1));
    q->len -= q->count[b];
    q->count[b] = 0;
    event_bitmap_clear(q->used, &q->words, b);
    q->base = now;
    q->first = count_queue_wheel_from(q, now + 1);
    return;
  }
  count_queue_complete_all(q, now);
}

/* Cycle of the first item, SIM_CYCLE_NEVER when the queue is empty. */
static inline SimCycle count_queue_next(const CountQueue *q) {
  return q->first;
}

#endif
