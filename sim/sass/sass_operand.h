/* sass_operand.h - a SASS instruction's operands: which registers (R, P, UR,
 * UP) it reads and writes and how many consecutive registers each covers,
 * from its opcode, modifiers and operand text.  Used by the listing reader. */
#ifndef WARPSIM_SASS_OPERAND_H
#define WARPSIM_SASS_OPERAND_H

#include "sass/sass.h"

/* Parse one register token at *pp (R12, P0, UR4, UP1, RZ, PT...) into its
 * file (SassRegFile) and *index, and advance *pp past it.  Returns -1 when it
 * is no register; for a zero/true register (RZ, PT, URZ, UPT: no dependency)
 * returns its file with *zero set and *index untouched. */
gint sass_reg_token(const gchar **pp, guint *index, gboolean *zero);

/* The highest index a register file holds: R0..R254 (R255 is RZ),
 * UR0..UR62 (UR63 is URZ), P0..P6 and UP0..UP6 (7 is PT/UPT); from the
 * register fields of the encoding (Jia et al. 2018, "Dissecting the NVIDIA
 * Volta GPU Architecture via Microbenchmarking", section 2). */
guint sass_reg_max(gint file);

/* TRUE when the square brackets of the operand text ops pair up as
 * cuobjdump prints them: each '[' closed by a ']' before the next opens
 * (c[0x3][R12], desc[UR4][R2.64], [R2.64+0x10]); FALSE for an unclosed,
 * stray or nested one (a hand-edited or truncated line: every one of the
 * 106,592 instructions of the repository's listings pairs up).  Braces
 * ("DEPBAR.LE SB0, 0x0, {2,1}") are left to the opcode's own check. */
gboolean sass_operands_balanced(const gchar *ops);

/* TRUE when every register token in the operand text ops is within its
 * file (sass_reg_max); else FALSE with the first offending token in *bad
 * (newly allocated). */
gboolean sass_operands_check(const gchar *ops, gchar **bad);

/* TRUE when opcode op equals one of the NULL-terminated set. */
gboolean sass_opcode_in(const gchar *op, const gchar *const *set);

/* Fill in->dst/n_dst and in->src/n_src from the operand text ops (what
 * follows the mnemonic, comma separated).  in->opcode and in->mods must be
 * set.  Register widths: .64/.WIDE/D* = 2 registers, .128 = 4, else 1. */
void sass_operands_decode(SassInstr *in, const gchar *ops);

#endif
