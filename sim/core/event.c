/* event.c - the calendar queue: a wheel of one-cycle FIFO buckets, and a
 * (cycle, insertion sequence) min-heap for the events beyond it. */
#include "core/event.h"

#define WHEEL_MASK (EVENT_WHEEL - 1)
#define WHEEL_WORDS (EVENT_WHEEL / 64) /* 64-bit words of the bucket bitmap */

G_STATIC_ASSERT((EVENT_WHEEL & WHEEL_MASK) == 0 && EVENT_WHEEL >= 64 && WHEEL_WORDS <= 64);

void event_queue_init(EventQueue *q) {
  *q = (EventQueue){.free = EVENT_NO_NODE, .first = SIM_CYCLE_NEVER};
  q->head = g_new(guint32, EVENT_WHEEL);
  q->tail = g_new(guint32, EVENT_WHEEL);
  q->used = g_new0(guint64, WHEEL_WORDS);
}

void event_queue_clear(EventQueue *q) {
  g_free(q->head);
  g_free(q->tail);
  g_free(q->used);
  g_free(q->node);
  g_free(q->heap);
  *q = (EventQueue){.free = EVENT_NO_NODE, .first = SIM_CYCLE_NEVER};
}

/* ---- the heap of events beyond the wheel ---------------------------------- */

static inline gboolean event_before(const Event *a, const Event *b) {
  return a->at < b->at || (a->at == b->at && a->seq < b->seq);
}

G_GNUC_NO_INLINE static void heap_push(EventQueue *q, SimCycle at, gpointer data) {
  if (q->heap_len == q->heap_cap) {
    q->heap_cap = q->heap_cap ? 2 * q->heap_cap : 64;
    q->heap = g_renew(Event, q->heap, q->heap_cap);
  }
  Event v = {at, q->next++, data};
  guint i = q->heap_len++;
  while (i > 0 && event_before(&v, &q->heap[(i - 1) / 2])) {
    q->heap[i] = q->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  q->heap[i] = v;
}

static Event heap_pop(EventQueue *q) {
  Event first = q->heap[0];
  Event v = q->heap[--q->heap_len];
  guint i = 0;
  for (;;) {
    guint l = 2 * i + 1, m = l;
    if (l >= q->heap_len)
      break;
    if (l + 1 < q->heap_len && event_before(&q->heap[l + 1], &q->heap[l]))
      m = l + 1;
    if (!event_before(&q->heap[m], &v))
      break;
    q->heap[i] = q->heap[m];
    i = m;
  }
  q->heap[i] = v;
  return first;
}

/* ---- the wheel ------------------------------------------------------------- */

/* Twice the nodes (64 at first), the new ones on the free list. */
G_GNUC_NO_INLINE static void nodes_grow(EventQueue *q) {
  guint32 old = q->n_nodes, n = old ? 2 * old : 64;
  q->node = g_renew(EventNode, q->node, n);
  for (guint32 i = old; i < n; i++)
    q->node[i].next = i + 1 < n ? i + 1 : EVENT_NO_NODE;
  q->free = old;
  q->n_nodes = n;
}

/* Append `data` to the bucket of cycle `at` (within the wheel's span). */
static inline void wheel_append(EventQueue *q, SimCycle at, gpointer data) {
  if (G_UNLIKELY(q->free == EVENT_NO_NODE))
    nodes_grow(q);
  guint32 n = q->free;
  q->free = q->node[n].next;
  q->node[n] = (EventNode){data, EVENT_NO_NODE};
  guint b = (guint)(at & WHEEL_MASK);
  guint64 bit = 1ULL << (b & 63);
  if (q->used[b / 64] & bit)
    q->node[q->tail[b]].next = n;
  else
    q->head[b] = n;
  event_bitmap_set(q->used, &q->words, b);
  q->tail[b] = n;
}

/* Cycle of the wheel's first event (the wheel must not be empty): the first
 * non-empty bucket from base's, wrapping once. */
static SimCycle wheel_first(const EventQueue *q) {
  guint offset = event_bitmap_first(q->used, q->words, WHEEL_WORDS, (guint)(q->base & WHEEL_MASK));
  g_assert(offset != G_MAXUINT);
  return q->base + offset;
}

/* Cycle of the first event after a pop: the wheel's when it holds any (every
 * event before the heap's is on it), else the heap's; SIM_CYCLE_NEVER when
 * the queue is empty. */
static SimCycle first_cycle(const EventQueue *q) {
  if (q->len == 0)
    return SIM_CYCLE_NEVER;
  return q->len > q->heap_len ? wheel_first(q) : q->heap[0].at;
}

/* The heap's events the wheel now spans move to it, in (cycle, insertion)
 * order; their buckets are empty (they were beyond the wheel until now). */
G_GNUC_NO_INLINE static void wheel_fill(EventQueue *q) {
  while (q->heap_len > 0 && q->heap[0].at - q->base < EVENT_WHEEL) {
    Event e = heap_pop(q);
    wheel_append(q, e.at, e.data);
  }
}

/* ---- the queue ------------------------------------------------------------- */

void event_queue_push(EventQueue *q, SimCycle at, gpointer data) {
  g_assert(at >= q->base);
  if (at - q->base < EVENT_WHEEL)
    wheel_append(q, at, data);
  else
    heap_push(q, at, data);
  q->len++;
  q->first = MIN(q->first, at);
}

/* The first event is the heap's (the wheel is empty): pop it, and move the
 * wheel to its cycle. */
G_GNUC_NO_INLINE static gpointer heap_pop_first(EventQueue *q) {
  Event e = heap_pop(q);
  q->len--;
  q->base = e.at;
  wheel_fill(q);
  q->first = first_cycle(q);
  return e.data;
}

gpointer event_queue_pop(EventQueue *q) {
  g_assert(q->len > 0);
  if (G_UNLIKELY(q->len == q->heap_len))
    return heap_pop_first(q);
  SimCycle at = q->first; /* the wheel holds every event before the heap's */
  guint b = (guint)(at & WHEEL_MASK);
  guint32 n = q->head[b];
  gpointer data = q->node[n].data;
  q->head[b] = q->node[n].next;
  q->node[n].next = q->free;
  q->free = n;
  q->len--;
  if (at != q->base) {
    q->base = at;
    if (q->heap_len > 0)
      wheel_fill(q); /* cycles in (at, at + EVENT_WHEEL): never bucket b */
  }
  if (q->head[b] != EVENT_NO_NODE)
    return data; /* more events this cycle: the first cycle stays */
  event_bitmap_clear(q->used, &q->words, b);
  q->first = first_cycle(q);
  return data;
}
