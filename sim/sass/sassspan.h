/* sassspan.h - the values a SASS register can hold, bounded by the address
 * and index arithmetic of the listing: how many distinct words a global
 * atomic can reach, and how many values a MATCH key can take.
 *
 * Global atomics that the whole grid aims at a few words serialize in L2: a
 * 256-bin histogram's REDG runs at 2.07 lane atomics per cycle for the whole
 * H200, 1 Mi words at 56 (results/reference/h200/atomics/, doc/atomics.md).
 * Neither the listing's operands nor the Nsight Compute profile give the
 * number of words, but the address arithmetic often bounds it: `bins[w &
 * 255]` compiles to an AND with 0x3fc (the index in bytes) added to a
 * kernel parameter, `bins[w >> 24]` to a right shift by 24 scaled by 4.  This
 * module bounds such an address; the SM core then times the atomic at the
 * device's contended rate for that many words ([l2] atomic_contention,
 * model_atomic_contended_rate).  The same bound on a MATCH.ANY key (vote's
 * `v & 31u`) gives its expected distinct keys, which set MATCH's time
 * ([class_shuffle] match_key_interval, match_key_latency;
 * results/reference/h200/mio/warp.csv).
 *
 * Every function reads the listing only (borrowed, not kept) and allocates
 * nothing the caller frees; "not bounded" is an answer (0 or FALSE), never
 * an error. */
#ifndef WARPSIM_SASSSPAN_H
#define WARPSIM_SASSSPAN_H

#include "sass/sass.h"

#include <glib.h>

/* The distinct words of `word_bytes` bytes that global atomic i of `fn` (a
 * RED or ATOM whose address is a 64-bit register pair) can reach over the
 * whole grid, or 0 when the listing does not bound it.  Bounded only when
 * the address is B + X, both found in i's basic block by walking back to the
 * nearest write of each register: B a kernel parameter, i.e. a register
 * (pair) every write of which in the function loads the same constant-bank
 * word `c[0x0][K]` (LDC.64, ULDC.64; the same base for every CTA), and X an
 * unsigned 32-bit offset in bytes whose largest value is known from
 *   LOP3.LUT d, a, IMM, RZ, 0xc0, !PT   (a & IMM: at most IMM),
 *   SHF.R.U32.HI d, RZ, K, a            (a >> K: below 2^(32-K)),
 *   IMAD.SHL.U32 d, a, IMM, RZ / SHF.L.U32 d, a, K, RZ (a scaled; IMM,
 *     like K, below 32, and the result within 32 bits),
 *   IMAD.MOV.U32 d, RZ, RZ, a / MOV d, a (a copy),
 * combined as IADD3 lo, P, X, B_lo, RZ (with IMAD.X or IADD3.X for the high
 * word from B_hi) or IMAD.WIDE.U32 lo, X, IMM, B (X x IMM + B), the forms ptxas
 * emits for `p[i]` with p a parameter (ghist, results/reference/h200/real5/).
 * Words = largest offset / word_bytes + 1; the atomic's own immediate offset
 * does not change it.  Any other write, a predicated one, or a walk longer
 * than SASSSPAN_MAX_DEPTH definitions gives 0. */
guint64 sassspan_atomic_words(const SassFunction *fn, guint i, guint word_bytes);

/* The largest unsigned 32-bit value that operand k of instruction i holds
 * when i reads it, in *max (operands counted from 0 = the first, the
 * destination included, predicates left out: MATCH.ANY R26, R12 has R12 at
 * 1), bounded by the same forms in i's basic block: a mask, a right shift, a
 * scale, a copy or an immediate.  FALSE when the listing does not bound it
 * (*max untouched). */
gboolean sassspan_operand_max(const SassFunction *fn, guint i, guint k, guint64 *max);

/* The expected number of distinct values among `lanes` lanes that each take
 * one of `values` values at random: values x (1 - (1 - 1/values)^lanes)
 * (20.41 for 32 lanes over 32 values, 31.52 over 1,024); `lanes` when values
 * is 0 (unbounded). */
gdouble sassspan_expected_distinct(guint64 values, gdouble lanes);

/* Definitions the walk follows from the address at most. */
#define SASSSPAN_MAX_DEPTH 8

#endif
