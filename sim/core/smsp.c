/* smsp.c - an SMSP's throttles and its scheduler's pick. */
#include "core/smsp.h"

const guint8 smsp_op_class[OP_MAX] = {
    [OP_FFMA] = CLS_FMA,      [OP_IALU] = CLS_ALU,      [OP_BRA] = CLS_ALU,
    [OP_MUFU] = CLS_SFU,      [OP_LDS] = CLS_SMEM,      [OP_LDG] = CLS_LOAD,
    [OP_LDL] = CLS_LOAD,      [OP_STL] = CLS_STORE,     [OP_BAR] = CLS_NONE,
    [OP_EXIT] = CLS_NONE,     [OP_FP32] = CLS_FMA,      [OP_FP64] = CLS_FP64,
    [OP_TENSOR] = CLS_TENSOR, [OP_CONV] = CLS_SFU,      [OP_UNIFORM] = CLS_UNIFORM,
    [OP_STG] = CLS_STORE,     [OP_STS] = CLS_SMEM,      [OP_SHFL] = CLS_SMEM,
    [OP_MISC] = CLS_NONE,     [OP_IMAD] = CLS_FMAHEAVY,
};

void smsp_init(Smsp *s) {
  *s = (Smsp){0};
  s->last_slot = SCHED_NO_SLOT;
  s->ages_in_order = TRUE;
}

void smsp_ages_check(Smsp *s) {
  gboolean in_order = TRUE, seen = FALSE;
  guint64 prev = 0;
  for (guint i = 0; i < SCHED_MAX_SLOTS && in_order; i++) {
    if (s->slot[i] == NULL)
      continue;
    in_order = !seen || s->ages[i] > prev;
    prev = s->ages[i];
    seen = TRUE;
  }
  s->ages_in_order = in_order;
}
