/* event.h - a queue of future events of the cycle loop, ordered by cycle,
 * then by insertion: events due in the same cycle come out in the order they
 * were pushed, so a run never depends on addresses (git's prio-queue).
 */
#ifndef WARPSIM_EVENT_H
#define WARPSIM_EVENT_H

#include "stats.h"

#include <glib.h>

typedef struct {
  SimCycle at;   /* cycle the event is due */
  guint64 seq;   /* insertion order: the tie-break */
  gpointer data; /* borrowed payload (e.g. a Warp), may be NULL */
} Event;

typedef struct {
  Event *heap;  /* binary min-heap of len events, capacity cap */
  guint len;    /* events queued */
  guint cap;    /* events the heap holds before it grows */
  guint64 next; /* seq of the next push */
} EventQueue;

/* An empty queue (value type: event_queue_clear frees its storage). */
void event_queue_init(EventQueue *q);
void event_queue_clear(EventQueue *q);

/* Queue `data` for cycle `at`. */
void event_queue_push(EventQueue *q, SimCycle at, gpointer data);

/* Remove the first event (the queue must not be empty); returns its data. */
gpointer event_queue_pop(EventQueue *q);

/* Cycle of the first event, SIM_CYCLE_NEVER when the queue is empty. */
static inline SimCycle event_queue_next(const EventQueue *q) {
  return q->len ? q->heap[0].at : SIM_CYCLE_NEVER;
}

#endif
