/* event.c - the (cycle, insertion sequence) min-heap. */
#include "event.h"

static inline gboolean event_before(const Event *a, const Event *b) {
  return a->at < b->at || (a->at == b->at && a->seq < b->seq);
}

void event_queue_init(EventQueue *q) {
  *q = (EventQueue){0};
}

void event_queue_clear(EventQueue *q) {
  g_free(q->heap);
  event_queue_init(q);
}

void event_queue_push(EventQueue *q, SimCycle at, gpointer data) {
  if (q->len == q->cap) {
    q->cap = q->cap ? 2 * q->cap : 64;
    q->heap = g_renew(Event, q->heap, q->cap);
  }
  Event v = {at, q->next++, data};
  guint i = q->len++;
  while (i > 0 && event_before(&v, &q->heap[(i - 1) / 2])) {
    q->heap[i] = q->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  q->heap[i] = v;
}

gpointer event_queue_pop(EventQueue *q) {
  g_assert(q->len > 0);
  gpointer data = q->heap[0].data;
  Event v = q->heap[--q->len];
  guint i = 0;
  for (;;) {
    guint l = 2 * i + 1, m = l;
    if (l >= q->len)
      break;
    if (l + 1 < q->len && event_before(&q->heap[l + 1], &q->heap[l]))
      m = l + 1;
    if (!event_before(&q->heap[m], &v))
      break;
    q->heap[i] = q->heap[m];
    i = m;
  }
  q->heap[i] = v;
  return data;
}
