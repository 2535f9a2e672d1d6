/* stream.c - expanding a kernel's loop body into an instruction template. */
#include "stream.h"

typedef struct {
  GArray *body;
  guint n_slots;
} Builder;

static guint16 slot_new(Builder *b) {
  return (guint16)b->n_slots++;
}

static void emit(Builder *b, StreamOp op, StreamPipe pipe, guint16 dst, guint n_src,
                 const guint16 *src) {
  StreamInstr in = {.op = op, .pipe = pipe, .n_src = (guint8)n_src, .dst = dst, .ways = 1};
  for (guint i = 0; i < STREAM_MAX_SRC; i++)
    in.src[i] = i < n_src ? src[i] : STREAM_NO_SLOT;
  g_array_append_val(b->body, in);
}

/* `count` instructions of `op` spread round-robin over `ilp` dependent chains
 * (slots chain[0..ilp-1]); instruction i also reads extra[i] when given. */
static void emit_chains(Builder *b, StreamOp op, StreamPipe pipe, guint count, const guint16 *chain,
                        guint ilp, const guint16 *extra, guint n_extra) {
  for (guint i = 0; i < count; i++) {
    guint16 src[2] = {chain[i % ilp], 0};
    guint n = 1;
    if (i < n_extra)
      src[n++] = extra[i];
    emit(b, op, pipe, chain[i % ilp], n, src);
  }
}

Stream *stream_new(const Kernel *k, guint spill_values) {
  Builder b = {g_array_new(FALSE, FALSE, sizeof(StreamInstr)), 0};
  g_autofree guint16 *load = g_new(guint16, MAX(k->loads, 1));
  g_autofree guint16 *fma = g_new(guint16, k->ilp);
  g_autofree guint16 *sfu = g_new(guint16, k->ilp);
  g_autofree guint16 *lds = g_new(guint16, k->ilp);
  for (guint i = 0; i < k->loads; i++)
    load[i] = slot_new(&b);
  for (guint c = 0; c < k->ilp; c++) {
    fma[c] = slot_new(&b);
    sfu[c] = slot_new(&b);
    lds[c] = slot_new(&b);
  }
  guint16 counter = slot_new(&b), pred = slot_new(&b), scratch = slot_new(&b);
  guint spilled = MIN(spill_values, k->live_values);
  g_autofree guint16 *spill = g_new(guint16, MAX(spilled, 1));
  for (guint i = 0; i < spilled; i++)
    spill[i] = slot_new(&b);

  /* Reload the spilled live values the iteration touches (LDL, via L1). */
  for (guint i = 0; i < spilled; i++)
    emit(&b, OP_LDL, PIPE_LSU, spill[i], 0, NULL);
  /* Global loads: chase reads the chain's previous value as its address. */
  for (guint i = 0; i < k->loads; i++)
    emit(&b, OP_LDG, PIPE_LSU, load[i], k->pattern == KERNEL_PATTERN_CHASE ? 1 : 0, &load[i]);
  emit_chains(&b, OP_LDS, PIPE_SMEM, k->lds, lds, k->ilp, NULL, 0);
  for (guint i = b.body->len - k->lds; i < b.body->len; i++)
    g_array_index(b.body, StreamInstr, i).ways = (guint16)k->lds_ways;
  emit_chains(&b, OP_MUFU, PIPE_SFU, k->sfu, sfu, k->ilp, NULL, 0);
  guint first_fma = b.body->len;
  emit_chains(&b, OP_FFMA, PIPE_FMA, k->fma, fma, k->ilp, k->fma_uses_load ? load : NULL,
              k->fma_uses_load ? k->loads : 0);
  for (guint i = first_fma; i < b.body->len; i++)
    g_array_index(b.body, StreamInstr, i).conflict = 1;
  /* Each spilled value is consumed by one FFMA-free integer op and stored back. */
  for (guint i = 0; i < spilled; i++) {
    emit(&b, OP_IALU, PIPE_ALU, spill[i], 1, &spill[i]);
    emit(&b, OP_STL, PIPE_LSU, STREAM_NO_SLOT, 1, &spill[i]);
  }

  /* Loop control: the counter update and compare are interleaved after the
   * first body instructions (as the compiler schedules them, sass_fma.txt);
   * the branch closes the iteration. */
  if (k->overhead > 0) {
    GArray *body = b.body;
    b.body = g_array_new(FALSE, FALSE, sizeof(StreamInstr));
    guint n_alu = k->overhead - 1;
    for (guint i = 0, a = 0; i < body->len || a < n_alu; i++) {
      if (i < body->len)
        g_array_append_val(b.body, g_array_index(body, StreamInstr, i));
      if (a < n_alu) {
        if (a == 0)
          emit(&b, OP_IALU, PIPE_ALU, counter, 1, &counter);
        else if (a == 1)
          emit(&b, OP_IALU, PIPE_ALU, pred, 1, &counter);
        else
          emit(&b, OP_IALU, PIPE_ALU, scratch, 1, &counter);
        a++;
      }
    }
    g_array_free(body, TRUE);
  }
  if (k->syncthreads)
    emit(&b, OP_BAR, PIPE_NONE, STREAM_NO_SLOT, 0, NULL);
  if (k->overhead > 0)
    emit(&b, OP_BRA, PIPE_ALU, STREAM_NO_SLOT, k->overhead >= 3 ? 1 : 0, &pred);

  Stream *s = g_new0(Stream, 1);
  s->n_body = b.body->len;
  s->body = (StreamInstr *)g_array_free(b.body, FALSE);
  s->n_slots = b.n_slots;
  s->iterations = s->n_body > 0 ? k->iterations : 0;
  s->spill_values = spill_values;
  return s;
}

guint64 stream_warp_insts(const Stream *s) {
  return (guint64)s->n_body * s->iterations + 1;
}

const gchar *stream_op_name(StreamOp op) {
  static const gchar *const names[OP_MAX] = {"FFMA", "IALU", "BRA", "MUFU", "LDS",
                                             "LDG",  "LDL",  "STL", "BAR",  "EXIT"};
  return op < OP_MAX ? names[op] : "?";
}

void stream_free(Stream *s) {
  if (s == NULL)
    return;
  g_free(s->body);
  g_free(s);
}
