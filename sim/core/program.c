/* program.c - op names and the structural check of a program. */
#include "core/program.h"

const gchar *program_op_name(InstrOp op) {
  static const gchar *const names[OP_MAX] = {
      "FFMA", "IALU", "BRA",    "MUFU", "LDS",     "LDG", "LDL", "STL",  "BAR",  "EXIT",
      "FP32", "FP64", "TENSOR", "CONV", "UNIFORM", "STG", "STS", "SHFL", "MISC", "IMAD"};
  return op < OP_MAX ? names[op] : "?";
}

static gboolean instr_check(const Program *p, const Instr *in, const gchar **why) {
  if (in->op >= OP_MAX || in->pipe >= PIPE_MAX || in->n_src > INSTR_MAX_SRC)
    *why = "op, pipe or source count out of range";
  else if (in->dst != INSTR_NO_SLOT && in->dst >= p->n_slots)
    *why = "destination slot out of range";
  else if ((in->sb_write != INSTR_NO_SB && in->sb_write >= INSTR_SB_BARRIERS) ||
           (in->sb_read != INSTR_NO_SB && in->sb_read >= INSTR_SB_BARRIERS))
    *why = "scoreboard barrier out of range";
  else if (in->wait_mask >> INSTR_SB_BARRIERS)
    *why = "wait mask names a missing scoreboard barrier";
  else if (in->has_branch && (in->target >= p->n || in->counter >= PROGRAM_MAX_COUNTERS))
    *why = "branch target or counter out of range";
  else if (in->has_branch && in->fall > 0 && in->fall > in->trips)
    *why = "branch falls through more often than it executes";
  for (guint j = 0; j < in->n_src && *why == NULL; j++)
    if (in->src[j] >= p->n_slots)
      *why = "source slot out of range";
  return *why == NULL;
}

gboolean program_check(const Program *p, const gchar **why) {
  *why = NULL;
  if (p->n == 0 || p->code[p->n - 1].op != OP_EXIT)
    *why = "the program does not end with EXIT";
  else if (p->entry >= p->n || p->exit_pc >= p->n || p->code[p->exit_pc].op != OP_EXIT)
    *why = "entry or exit pc out of range";
  for (guint i = 0; i < p->n && *why == NULL; i++)
    instr_check(p, &p->code[i], why);
  return *why == NULL;
}

void program_free(Program *p) {
  if (p == NULL)
    return;
  g_free(p->code);
  g_free(p);
}
