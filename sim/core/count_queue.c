/* count_queue.c - per-cycle counters on a wheel, an event queue beyond it. */
#include "core/count_queue.h"

#define WHEEL_MASK (COUNT_WHEEL - 1)
#define WHEEL_WORDS (COUNT_WHEEL / 64) /* 64-bit words of the counter bitmap */

G_STATIC_ASSERT((COUNT_WHEEL & WHEEL_MASK) == 0 && COUNT_WHEEL >= 64 && WHEEL_WORDS <= 64);

void count_queue_init(CountQueue *q) {
  *q = (CountQueue){.first = SIM_CYCLE_NEVER};
  q->count = g_new0(guint32, COUNT_WHEEL);
  q->used = g_new0(guint64, WHEEL_WORDS);
  event_queue_init(&q->far);
}

void count_queue_clear(CountQueue *q) {
  g_free(q->count);
  g_free(q->used);
  event_queue_clear(&q->far);
  *q = (CountQueue){.first = SIM_CYCLE_NEVER};
}

void count_queue_add_far(CountQueue *q, SimCycle at, guint n) {
  event_queue_push(&q->far, at, GUINT_TO_POINTER(n));
  q->len += n;
  q->first = MIN(q->first, at);
}

/* The wheel now starts at `now`, after every item on it: the far counts it
 * spans move to it (all after its own), or leave when due too.  Returns the
 * first cycle moved, SIM_CYCLE_NEVER if none.  Out of line: rare. */
G_GNUC_NO_INLINE static SimCycle far_move(CountQueue *q, SimCycle now) {
  SimCycle moved = SIM_CYCLE_NEVER;
  while (event_queue_next(&q->far) < now + COUNT_WHEEL) {
    SimCycle at = event_queue_next(&q->far);
    guint n = GPOINTER_TO_UINT(event_queue_pop(&q->far));
    if (at <= now) {
      q->len -= n;
    } else {
      count_queue_put(q, at, n);
      moved = MIN(moved, at);
    }
  }
  return moved;
}

void count_queue_complete_all(CountQueue *q, SimCycle now) {
  if (q->first > now)
    return;
  /* The wheel's counters due by `now`, from the first (every item on the
   * wheel is due before the far queue's). */
  SimCycle next = SIM_CYCLE_NEVER; /* the wheel's first counter after them */
  if (q->first - q->base < COUNT_WHEEL) {
    for (SimCycle at = q->first; at <= now; at = next) {
      guint b = (guint)(at & WHEEL_MASK);
      q->len -= q->count[b];
      q->count[b] = 0;
      event_bitmap_clear(q->used, &q->words, b);
      next = count_queue_wheel_from(q, at + 1);
    }
  }
  /* Every item left is due after `now`: the wheel moves there. */
  q->base = now;
  SimCycle moved = G_UNLIKELY(q->far.len > 0) ? far_move(q, now) : SIM_CYCLE_NEVER;
  q->first = MIN(MIN(next, moved), event_queue_next(&q->far));
}
