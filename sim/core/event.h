/* event.h - a queue of future events of the cycle loop, ordered by cycle,
 * then by insertion: events due in the same cycle come out in the order they
 * were pushed, so a run never depends on addresses (git's prio-queue).
 *
 * A calendar queue (Brown, "Calendar queues", CACM 31(10), 1988), in its
 * simplest form: a wheel of EVENT_WHEEL one-cycle buckets, each a FIFO list,
 * holds the events due within EVENT_WHEEL cycles of the last one popped;
 * later ones wait in a (cycle, insertion) min-heap and move to the wheel, in
 * heap order, as soon as the wheel reaches their cycle, before any later push
 * can land in that bucket.  Most events of a run are a few to a few hundred
 * cycles ahead, so a push is an append and a pop takes the head of the first
 * non-empty bucket (found in a bitmap): constant time, few unpredictable
 * branches.
 */
#ifndef WARPSIM_EVENT_H
#define WARPSIM_EVENT_H

#include "core/stats.h"

#include <glib.h>

#define EVENT_WHEEL 4096 /* cycles the wheel spans (a power of 2): DRAM latency under load fits */
#define EVENT_NO_NODE G_MAXUINT32 /* end of a bucket's or the free list */

typedef struct {
  SimCycle at;   /* cycle the event is due */
  guint64 seq;   /* insertion order: the tie-break */
  gpointer data; /* borrowed payload (e.g. a Warp), may be NULL */
} Event;

/* An event on the wheel: its cycle is its bucket's. */
typedef struct {
  gpointer data; /* borrowed payload */
  guint32 next;  /* next node of its bucket or of the free list, or EVENT_NO_NODE */
} EventNode;

typedef struct {
  guint32 *head;   /* EVENT_WHEEL buckets (cycle modulo the wheel): first node */
  guint32 *tail;   /* last node of each non-empty bucket */
  guint64 *used;   /* EVENT_WHEEL bits: the bucket is non-empty */
  guint64 words;   /* bit w: used[w] is not 0 (event_bitmap_first) */
  EventNode *node; /* n_nodes nodes, in buckets or free */
  guint32 n_nodes; /* nodes allocated */
  guint32 free;    /* first free node, or EVENT_NO_NODE */
  Event *heap;     /* events beyond the wheel: binary min-heap, heap_len of heap_cap */
  guint heap_len;  /* events in the heap */
  guint heap_cap;  /* events the heap holds before it grows */
  guint64 next;    /* seq of the next push into the heap */
  SimCycle base;   /* the wheel holds cycles [base, base + EVENT_WHEEL) */
  SimCycle first;  /* cycle of the first event, SIM_CYCLE_NEVER when empty */
  guint len;       /* events queued, wheel and heap */
} EventQueue;

/* Offset from bucket `start` of the first set bit of a wheel's bitmap `used`
 * (`words` 64-bit words, at most 64, words x 64 a power of 2; bucket b = bit
 * b % 64 of word b / 64), going up and wrapping once; G_MAXUINT when no bit
 * is set.  `summary` has bit w set exactly when used[w] is not 0 (the
 * caller keeps it: event_bitmap_set, event_bitmap_clear), so no word is
 * scanned.  The event queue's, the lines-in-flight counts' and the SM's
 * wake wheel. */
static inline guint event_bitmap_first(const guint64 *used, guint64 summary, guint words,
                                       guint start) {
  if (summary == 0)
    return G_MAXUINT;
  guint w = start / 64, b;
  guint64 bits = used[w] & (~0ULL << (start % 64));
  if (bits != 0) {
    b = w * 64 + (guint)__builtin_ctzll(bits);
  } else {
    guint64 after = w + 1 < 64 ? summary & (~0ULL << (w + 1)) : 0;  /* words after w */
    guint i = (guint)__builtin_ctzll(after != 0 ? after : summary); /* else wrap round */
    bits = i == w ? used[w] & ~(~0ULL << (start % 64)) : used[i];
    b = i * 64 + (guint)__builtin_ctzll(bits);
  }
  return (b - start) & (words * 64 - 1);
}

/* Set bucket b's bit in `used` and its word's in `summary`. */
static inline void event_bitmap_set(guint64 *used, guint64 *summary, guint b) {
  used[b / 64] |= 1ULL << (b % 64);
  *summary |= 1ULL << (b / 64);
}

/* Clear bucket b's bit in `used`, and its word's in `summary` when the word
 * is then 0. */
static inline void event_bitmap_clear(guint64 *used, guint64 *summary, guint b) {
  used[b / 64] &= ~(1ULL << (b % 64));
  if (used[b / 64] == 0)
    *summary &= ~(1ULL << (b / 64));
}

/* An empty queue (value type: event_queue_clear frees its storage). */
void event_queue_init(EventQueue *q);
void event_queue_clear(EventQueue *q);

/* Queue `data` for cycle `at`, which must not be before the cycle of the
 * last event popped (a simulation never schedules into its past). */
void event_queue_push(EventQueue *q, SimCycle at, gpointer data);

/* Remove the first event (the queue must not be empty); returns its data. */
gpointer event_queue_pop(EventQueue *q);

/* Cycle of the first event, SIM_CYCLE_NEVER when the queue is empty. */
static inline SimCycle event_queue_next(const EventQueue *q) {
  return q->first;
}

#endif
