/* synth.c - expanding a kernel's loop body into a loop program. */
#include "run/synth.h"

#include "core/mem.h"

typedef struct {
  GArray *body;
  guint n_slots;
} Builder;

static guint16 slot_new(Builder *b) {
  return (guint16)b->n_slots++;
}

static void emit(Builder *b, InstrOp op, InstrPipe pipe, guint16 dst, guint n_src,
                 const guint16 *src) {
  Instr in = {.op = op,
              .pipe = pipe,
              .n_src = (guint8)n_src,
              .dst = dst,
              .ways = 1,
              .sb_write = INSTR_NO_SB,
              .sb_read = INSTR_NO_SB};
  for (guint i = 0; i < INSTR_MAX_SRC; i++)
    in.src[i] = i < n_src ? src[i] : INSTR_NO_SLOT;
  g_array_append_val(b->body, in);
}

/* `count` instructions of `op` spread round-robin over `ilp` dependent chains
 * (slots chain[0..ilp-1]); instruction i also reads extra[i] when given. */
static void emit_chains(Builder *b, InstrOp op, InstrPipe pipe, guint count, const guint16 *chain,
                        guint ilp, const guint16 *extra, guint n_extra) {
  for (guint i = 0; i < count; i++) {
    guint16 src[2] = {chain[i % ilp], 0};
    guint n = 1;
    if (i < n_extra)
      src[n++] = extra[i];
    emit(b, op, pipe, chain[i % ilp], n, src);
  }
}

/* Memory behaviour of the body's loads and spill accesses. */
static void set_memory(const Kernel *k, Instr *in) {
  if (in->op == OP_LDG) {
    /* With a footprint, the level is drawn per load from the capacity share
     * (SmLaunch load hit rates; doc/sass.md "Cache capacity"). */
    in->level = k->footprint > 0 && k->level != MEM_DRAM ? MEM_LEVELS : (guint8)k->level;
    in->bytes = k->load_bytes;
    in->sequential = k->pattern == KERNEL_PATTERN_SEQUENTIAL;
  } else if (in->op == OP_LDL || in->op == OP_STL) {
    in->level = MEM_L1; /* a spilled 4 B value per thread */
    in->lane_bytes = 4;
    in->sequential = TRUE;
  }
}

/* The body (consumed) closed into a loop: its last instruction branches back
 * to pc 0 until `iterations` trips are done, then EXIT. */
static Program *program_from_body(const Kernel *k, GArray *body, guint n_slots) {
  guint n_body = body->len;
  Instr exit_instr = {.op = OP_EXIT,
                      .pipe = PIPE_NONE,
                      .dst = INSTR_NO_SLOT,
                      .ways = 1,
                      .sb_write = INSTR_NO_SB,
                      .sb_read = INSTR_NO_SB};
  g_array_append_val(body, exit_instr);
  for (guint i = 0; i < n_body; i++)
    set_memory(k, &g_array_index(body, Instr, i));
  guint iterations = n_body > 0 ? k->iterations : 0;
  if (n_body > 0) {
    Instr *last = &g_array_index(body, Instr, n_body - 1);
    last->has_branch = 1;
    last->target = 0;
    last->trips = iterations;
    last->counter = 0;
  }
  Program *p = g_new0(Program, 1);
  p->n = body->len;
  p->code = (Instr *)g_array_free(body, FALSE);
  p->n_slots = n_slots;
  p->exit_pc = n_body;
  p->entry = iterations > 0 ? 0 : n_body;
  p->warp_insts = (guint64)n_body * iterations + 1;
  return p;
}

guint synth_spilled_per_iter(const Kernel *k, guint regs_allocated, guint loop_regs,
                             guint extra_values) {
  guint need = MIN(k->regs_per_thread, k->live_values + loop_regs);
  if (k->live_values == 0 || need <= regs_allocated)
    return 0;
  guint x = need - regs_allocated;
  guint extra = x > loop_regs ? MIN(x - loop_regs, extra_values) : 0;
  return MIN(k->live_values, x + extra);
}

/* Insert n_alu counter-update/compare instructions (IALU) after each of the
 * first body instructions of b: counter += 1, pred = compare(counter), then
 * scratch ones. */
static void interleave_loop_control(Builder *b, guint n_alu, guint16 counter, guint16 pred,
                                    guint16 scratch) {
  GArray *body = b->body;
  b->body = g_array_new(FALSE, FALSE, sizeof(Instr));
  for (guint i = 0, a = 0; i < body->len || a < n_alu; i++) {
    if (i < body->len)
      g_array_append_val(b->body, g_array_index(body, Instr, i));
    if (a < n_alu) {
      if (a == 0)
        emit(b, OP_IALU, PIPE_ALU, counter, 1, &counter);
      else if (a == 1)
        emit(b, OP_IALU, PIPE_ALU, pred, 1, &counter);
      else
        emit(b, OP_IALU, PIPE_ALU, scratch, 1, &counter);
      a++;
    }
  }
  g_array_free(body, TRUE);
}

Program *synth_program_new(const Kernel *k, guint spilled) {
  Builder b = {g_array_new(FALSE, FALSE, sizeof(Instr)), 0};
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
  spilled = MIN(spilled, k->live_values);
  g_autofree guint16 *live = g_new(guint16, MAX(k->live_values, 1));
  for (guint i = 0; i < k->live_values; i++)
    live[i] = slot_new(&b);

  /* Reload the spilled live values the iteration touches (LDL, via L1). */
  for (guint i = 0; i < spilled; i++)
    emit(&b, OP_LDL, PIPE_LSU, live[i], 0, NULL);
  /* Global loads: chase reads the chain's previous value as its address. */
  for (guint i = 0; i < k->loads; i++)
    emit(&b, OP_LDG, PIPE_LSU, load[i], k->pattern == KERNEL_PATTERN_CHASE ? 1 : 0, &load[i]);
  emit_chains(&b, OP_LDS, PIPE_SMEM, k->lds, lds, k->ilp, NULL, 0);
  for (guint i = b.body->len - k->lds; i < b.body->len; i++)
    g_array_index(b.body, Instr, i).ways = (guint16)k->lds_ways;
  emit_chains(&b, OP_MUFU, PIPE_SFU, k->sfu, sfu, k->ilp, NULL, 0);
  guint first_fma = b.body->len;
  emit_chains(&b, OP_FFMA, PIPE_FMA, k->fma, fma, k->ilp, k->fma_uses_load ? load : NULL,
              k->fma_uses_load ? k->loads : 0);
  for (guint i = first_fma; i < b.body->len; i++)
    g_array_index(b.body, Instr, i).conflict = 1;
  /* Each live value is an accumulator one FFMA updates (acc = acc * m + c);
   * a spilled one is stored back after it. */
  for (guint i = 0; i < k->live_values; i++)
    emit(&b, OP_FFMA, PIPE_FMA, live[i], 1, &live[i]);
  for (guint i = 0; i < spilled; i++)
    emit(&b, OP_STL, PIPE_LSU, INSTR_NO_SLOT, 1, &live[i]);

  /* Loop control: the counter update and compare are interleaved after the
   * first body instructions (as the compiler schedules them, sass_fma.txt);
   * the branch closes the iteration. */
  if (k->overhead > 0)
    interleave_loop_control(&b, k->overhead - 1, counter, pred, scratch);
  if (k->syncthreads)
    emit(&b, OP_BAR, PIPE_NONE, INSTR_NO_SLOT, 0, NULL);
  if (k->overhead > 0)
    emit(&b, OP_BRA, PIPE_ALU, INSTR_NO_SLOT, k->overhead >= 3 ? 1 : 0, &pred);

  return program_from_body(k, b.body, b.n_slots);
}

guint synth_body_len(const Program *p) {
  return p->n - 1;
}

guint synth_iterations(const Program *p) {
  if (p->entry == p->exit_pc)
    return 0;
  const Instr *last = &p->code[p->n - 2];
  return last->has_branch ? last->trips : 1;
}

void synth_launch_memory(const Kernel *k, const SmModel *m, guint warps, gdouble smem_per_sm,
                         ProgramMemory *mem) {
  gdouble l1, l2;
  if (k->footprint > 0) {
    gdouble c1 = MAX(0.0, (gdouble)m->l1_bytes - smem_per_sm);
    gdouble c2 = m->sm.sms ? (gdouble)m->l2_bytes / m->sm.sms : 0.0;
    l1 = k->level == MEM_L1 ? model_l1_share(m, c1, warps, k->footprint) : 0.0;
    l2 = m->l2_bytes ? model_capacity_share(c2, warps, k->footprint) : 1.0;
  } else {
    l1 = k->level == MEM_L1 ? 1.0 : 0.0;
    l2 = k->level == MEM_DRAM ? 0.0 : 1.0;
  }
  *mem = (ProgramMemory){.load_l1_hit = l1,
                         .load_l2_hit = l2,
                         .load_l2_hit_coalesced = l2,
                         .load_l2_hit_scattered = l2,
                         .warp_max_inflight = m->opclass[OPCLASS_GLOBAL].warp_lines_in_flight,
                         .dram_write_cost = 1.0,
                         .miss_refills_l1 = k->footprint > 0 && k->level == MEM_L1 && l1 > 0};
}
