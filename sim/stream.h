/* stream.h - the synthetic instruction stream of one warp.
 *
 * A kernel's loop body is expanded once into a template of a few hundred
 * instructions (one iteration); every warp walks it `iterations` times and
 * then issues EXIT, so memory stays proportional to the body, never to the
 * instructions simulated.  Dependencies are expressed through value slots:
 * an instruction reads up to three slots and writes at most one.
 */
#ifndef WARPSIM_STREAM_H
#define WARPSIM_STREAM_H

#include "kernel.h"

#include <glib.h>

typedef enum {
  OP_FFMA, /* FP32 fused multiply-add (fma pipe) */
  OP_IALU, /* integer loop control (alu pipe) */
  OP_BRA,  /* loop-back branch (alu pipe) */
  OP_MUFU, /* special function (sfu pipe) */
  OP_LDS,  /* shared-memory load (SM-wide shared-memory unit) */
  OP_LDG,  /* global load (lsu, then the memory level) */
  OP_LDL,  /* local-memory load of a spilled value (lsu, then L1) */
  OP_STL,  /* local-memory store of a spilled value (lsu, then L1) */
  OP_BAR,  /* __syncthreads */
  OP_EXIT, /* end of the warp */
  OP_MAX
} StreamOp;

typedef enum { PIPE_FMA, PIPE_ALU, PIPE_SFU, PIPE_SMEM, PIPE_LSU, PIPE_NONE, PIPE_MAX } StreamPipe;

#define STREAM_NO_SLOT 0xffff
#define STREAM_MAX_SRC 3

typedef struct {
  guint8 op;       /* StreamOp */
  guint8 pipe;     /* StreamPipe */
  guint8 n_src;    /* slots read */
  guint8 conflict; /* FFMA reading two operands from one register bank */
  guint16 dst;     /* slot written, or STREAM_NO_SLOT */
  guint16 src[STREAM_MAX_SRC];
  guint16 ways; /* LDS: bank-conflict degree */
} StreamInstr;

typedef struct {
  StreamInstr *body;  /* one loop iteration, owned */
  guint n_body;       /* instructions per iteration */
  guint n_slots;      /* value slots a warp needs */
  guint iterations;   /* loop trips */
  guint spill_values; /* registers spilled (0 when under the cap) */
} Stream;

/* Expand `k`'s loop body.  `spill_values` = registers per thread above the
 * cap (kernel_regs_allocated); each iteration then stores and reloads
 * min(spill_values, live_values) spilled values (README "Register spills").
 * Returns a new Stream (stream_free). */
Stream *stream_new(const Kernel *k, guint spill_values);

/* Warp instructions one warp issues in total (body x iterations + EXIT). */
guint64 stream_warp_insts(const Stream *s);

/* Short mnemonic of `op`, e.g. "FFMA". */
const gchar *stream_op_name(StreamOp op);

void stream_free(Stream *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Stream, stream_free)

#endif
