/* check_sm.c - tests of sim/core/sm.c, the cycle loop and the issue stage,
 * on SASS listings of 2 to 6 instructions run on the test SM (sass_run.h):
 * the cycles of the run and every warp state, counted by hand in the
 * comments from the rules of ARCHITECTURE.md ("The path of one
 * instruction") and sm.h: a warp issues at most once per cycle; the next
 * instruction of the same warp issues `stall` cycles later (at least 1) or,
 * after a branch, [branch] latency (10) later; a write scoreboard barrier is
 * set until the producer's result is ready (issue + its class latency) and a
 * read barrier until its registers are read (issue + read_latency); a
 * consumer waiting on a barrier issues in the cycle it clears; an EXIT's warp
 * drains until its memory is done and retires one cycle after the EXIT at
 * the earliest; the run ends in the cycle the last CTA retires.  A cycle is
 * charged to one state per warp: the cycle of an issue to `selected`, a wait
 * for a stall count to `wait`, for a barrier to the state of its producer
 * (MUFU: short_scoreboard; loads and stores: long_scoreboard).  The yield
 * bit is not modelled (sass.h): setting it changes nothing. */
#include "sass_run.h"

#include <stdlib.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

/* Control words used below (bits 40..63 as X: stall << 1 | yield << 5 |
 * write barrier << 6 | read barrier << 9 | wait mask << 12):
 *   0x000fe2: stall 1, yield, no barrier (2 + 32 + 7 x 64 + 7 x 512)
 *   0x000fc2: stall 1, no yield, no barrier
 *   0x000fe8: stall 4, yield;  0x000fc8: stall 4, no yield
 *   0x000fe4: stall 2, yield
 *   0x000e22: stall 1, yield, write barrier SB0 (2 + 32 + 0 + 3584)
 *   0x001fe2: stall 1, yield, waits on SB0 (0x000fe2 + 1 << 12)
 *   0x0003e2: stall 1, yield, read barrier SB1 (2 + 32 + 448 + 512)
 *   0x002fe2: stall 1, yield, waits on SB1 (0x000fe2 + 2 << 12) */

/* Stall counts: FADD (stall 4), FADD (stall 1), EXIT.  Cycle 0 FADD; 1..3
 * wait (3); 4 FADD; 5 EXIT; the warp drains (no memory) and retires at 6. */
/* clang-format off */
static const gchar stall_listing[] = SASS_HEADER
    SASS_INS("0000", "FADD R1, R2, R3", "0x000fe80000000000")
    SASS_INS("0010", "FADD R4, R5, R6", "0x000fe20000000000")
    SASS_INS("0020", "EXIT", "0x000fe20000000000");
/* clang-format on */
/* The same with every yield bit cleared. */
/* clang-format off */
static const gchar stall_no_yield[] = SASS_HEADER
    SASS_INS("0000", "FADD R1, R2, R3", "0x000fc80000000000")
    SASS_INS("0010", "FADD R4, R5, R6", "0x000fc20000000000")
    SASS_INS("0020", "EXIT", "0x000fc20000000000");
/* clang-format on */

/* A write scoreboard barrier: MUFU (latency 16) sets SB0, FADD waits on SB0.
 * Cycle 0 MUFU, SB0 set until 16; 1..15 short_scoreboard (15); 16 FADD; 17
 * EXIT; retires at 18.  Released one cycle late, FADD would issue at 17. */
/* clang-format off */
static const gchar sb_write_listing[] = SASS_HEADER
    SASS_INS("0000", "MUFU.EX2 R1, R2", "0x000e220000000000")
    SASS_INS("0010", "FADD R3, R1, R1", "0x001fe20000000000")
    SASS_INS("0020", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* A read scoreboard barrier: STG (registers read 2 cycles after issue) sets
 * SB1 until then; FADD, which overwrites the stored register, waits on SB1.
 * Cycle 0 STG; 1 long_scoreboard (1); 2 FADD; 3 EXIT; the warp does not wait
 * for the store's write (its last memory event is the read at 2): retires
 * at 4. */
/* clang-format off */
static const gchar sb_read_listing[] = SASS_HEADER
    SASS_INS("0000", "STG.E [R2.64], R4", "0x0003e20000000000")
    SASS_INS("0010", "FADD R4, R5, R6", "0x002fe20000000000")
    SASS_INS("0020", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* A loop of 3 trips ([sass] trip_count 3): FADD, ISETP (stall 2), @P0 BRA
 * back to 0, then EXIT.  A trip from cycle t: FADD t, ISETP t+1, wait t+2,
 * BRA t+3 (the ALU pipe, interval 2, is free again at t+3), branch_resolving
 * t+4..t+12 (9), the next trip at t+13.  The branch is taken twice (t = 0,
 * 13) and not taken once (t = 26): EXIT at 26 + 13 = 39, retire at 40. */
/* clang-format off */
static const gchar loop_listing[] = SASS_HEADER
    SASS_INS("0000", "FADD R1, R2, R3", "0x000fe20000000000")
    SASS_INS("0010", "ISETP.NE.AND P0, PT, R1, RZ, PT", "0x000fe40000000000")
    SASS_INS("0020", "@P0 BRA 0x0", "0x000fe20000000000")
    SASS_INS("0030", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* A forward branch without a profile is not taken: BRA at 0,
 * branch_resolving 1..9, FADD at 10 (not skipped), EXIT 11, retire at 12. */
/* clang-format off */
static const gchar forward_listing[] = SASS_HEADER
    SASS_INS("0000", "@P0 BRA 0x20", "0x000fe20000000000")
    SASS_INS("0010", "FADD R1, R2, R3", "0x000fe20000000000")
    SASS_INS("0020", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* BAR with two warps of one CTA (warp 0 on SMSP 0, warp 1 on SMSP 1): both
 * arrive at cycle 0; the barrier unit takes one arrival per 2 cycles (done
 * at 2 and 4) and releases 6 cycles after the last: at 10.  Each warp waits
 * at the barrier 1..9 (9); both EXIT at 10 and retire at 11. */
/* clang-format off */
static const gchar bar_listing[] = SASS_HEADER
    SASS_INS("0000", "BAR.SYNC.DEFER_BLOCKING 0x0", "0x000fe20000000000")
    SASS_INS("0010", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* The SMSP each warp runs on and the order the issue stage visits the SMSPs
 * (sm.h: warp k of the launch on SMSP k mod 4, SMSPs visited 0 to 3 each
 * cycle), on an uneven launch: 7 CTAs of one warp, so SMSPs 0..2 hold two
 * warps (w0 w4, w1 w5, w2 w6) and SMSP 3 one (w3).  Each warp: LDS (SB0;
 * the SM-wide shared-memory unit takes one per cycle, [smem] interval 1,
 * queue 0), FADD waiting on SB0, EXIT.  The first SMSP visited with a ready
 * LDS gets the unit: LDS at cycle 0 w0, 1 w4, 2 w1, 3 w5, 4 w2, 5 w6, 6 w3;
 * the others ready then are mio_throttle (cycles 0, 1: 5 warps each; 2, 3:
 * 3; 4, 5: 1; 18 in all) but the second warp of the SMSP being served
 * (not_selected at 0, 2, 4).  A warp whose LDS issued at c waits 28 cycles
 * (short_scoreboard: result at c + 29), FADD at c + 29, EXIT at c + 30; the
 * second warp of a pair, ready at c + 30, is not_selected there (grr keeps
 * the warp that issued last), so FADD c + 31, EXIT c + 32.  Retire (EXIT + 1):
 * w0 31, w4 33, w1 33, w5 35, w2 35, w6 37, w3 37 (FADD 35, EXIT 36): 37
 * cycles, 241 active warp-cycles; SMSPs active 33 + 35 + 37 + 37 = 142.
 * Visited 3 to 0, the last LDS would go to w4 at 6 and the run take 38. */
/* clang-format off */
static const gchar order_listing[] = SASS_HEADER
    SASS_INS("0000", "LDS R1, [R2]", "0x000e220000000000")
    SASS_INS("0010", "FADD R3, R1, R1", "0x001fe20000000000")
    SASS_INS("0020", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* LDSM takes the shared-memory unit for one wavefront per 8x8 matrix it
 * loads (.4: 4, .2: 2, none: 1; sassprog.c, measured in results/reference/
 * h200/ldsm/tput.csv: 0.25, 0.50, 0.99 per cycle per SM), with no profile;
 * its result is ready [smem] latency + (wavefronts - 1) x interval after the
 * unit starts it (29 + 3, + 1, + 0), as for an LDS of that many wavefronts.
 * One warp, queue 0 (an LDSM issues only to an idle unit): LDSM.16.M88.4
 * (SB0) at 0, the unit busy 0..3, ready 32; LDSM.16.M88.2 (SB1) ready at 1
 * waits for the unit (mio_throttle 1..3), issues at 4, busy 4..5, ready 35;
 * LDSM.16.MT88 (SB2) mio_throttle at 5, issues at 6, ready 35; FADD waits on
 * SB0..SB2 7..34 (short_scoreboard, 28), issues at 35, EXIT 36, retires at
 * 37.  As one wavefront each (the old rule: 4 bytes per thread) the LDSMs
 * would issue at 0, 1, 2 (ready 29, 30, 31) and the run take 33. */
/* clang-format off */
static const gchar ldsm_listing[] = SASS_HEADER
    SASS_INS("0000", "LDSM.16.M88.4 R4, [R2]", "0x000e220000000000")
    SASS_INS("0010", "LDSM.16.M88.2 R8, [R3]", "0x000e620000000000")
    SASS_INS("0020", "LDSM.16.MT88 R10, [R3+0x80]", "0x000ea20000000000")
    SASS_INS("0030", "FADD R12, R4, R10", "0x007fe20000000000")
    SASS_INS("0040", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* Each wavefront beyond the first adds [smem] wavefront_latency cycles to an
 * access's latency (the unit stays busy one interval per wavefront): one
 * warp, LDSM.16.M88.4 (4 wavefronts, SB0) at 0, FADD waiting on SB0, EXIT.
 * At the default 1 the result is ready at 29 + 3 = 32: FADD waits 1..31
 * (short_scoreboard, 31), issues at 32, EXIT 33, retires at 34.  At 2 (the
 * H200's, results/reference/h200/ldsm/chain.csv x4 - x1 = 6.00 cycles a
 * step) it is ready at 29 + 6 = 35: 34 cycles waiting, FADD 35, EXIT 36,
 * retire 37. */
/* clang-format off */
static const gchar wavefront_listing[] = SASS_HEADER
    SASS_INS("0000", "LDSM.16.M88.4 R4, [R2]", "0x000e220000000000")
    SASS_INS("0010", "FADD R12, R4, R5", "0x001fe20000000000")
    SASS_INS("0020", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* IMAD runs on the FMA pipe's heavy half in the shipped H200 model (models/
 * h200.ini [class_imad]: latency 4, interval 2, its own pipe; measured in
 * results/reference/h200/matrix/int.csv and pipemix/): four independent
 * IMADs (stall 1) issue at 0, 2, 4, 6, waiting a cycle for the pipe before
 * each of the last three (math_pipe_throttle), EXIT at 7, retire at 8.  At
 * an FFMA's interval 1 they would issue at 0, 1, 2, 3 and the run take 5. */
/* clang-format off */
static const gchar imad_listing[] = SASS_HEADER
    SASS_INS("0000", "IMAD R1, R2, R3, R4", "0x000fe20000000000")
    SASS_INS("0010", "IMAD R5, R2, R3, R4", "0x000fe20000000000")
    SASS_INS("0020", "IMAD R6, R2, R3, R4", "0x000fe20000000000")
    SASS_INS("0030", "IMAD R7, R2, R3, R4", "0x000fe20000000000")
    SASS_INS("0040", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* The warp-collective and indexed-constant instructions of the shipped H200
 * model (models/h200.ini, measured in results/reference/h200/mio/): MATCH,
 * REDUX and an LDC with a per-thread register address take the SM-wide
 * shared-memory unit (as SHFL does) for their interval and give their result
 * `latency` cycles after the unit starts them, with no wavefront latency
 * added; FLO and BREV run on the conversion pipe with POPC.  [smem] queue 32:
 * an instruction for the unit issues while it has at most 32 cycles of work
 * queued.
 *
 * MATCH: [class_shuffle] opcode_timing MATCH:369:64 (32 distinct keys
 * assumed).  One warp: MATCH (SB0) at 0, the unit busy 0..63, result at
 * 0 + 369 = 369; the second MATCH (SB1) waits while the unit has more than
 * 32 cycles queued (mio_throttle 1..31, 31 cycles), issues at 32, the unit
 * starts it at 64 (busy to 128), result at 64 + 369 = 433; FADD waits on
 * SB0 and SB1 33..432 (short_scoreboard, 400), issues at 433, EXIT 434,
 * retires at 435.  As ALU instructions (the old class) the run took 7. */
/* clang-format off */
static const gchar match_listing[] = SASS_HEADER
    SASS_INS("0000", "MATCH.ANY R1, R2", "0x000e220000000000")
    SASS_INS("0010", "MATCH.ANY R3, R4", "0x000e620000000000")
    SASS_INS("0020", "FADD R5, R1, R3", "0x003fe20000000000")
    SASS_INS("0030", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* REDUX and SHFL share the unit: REDUX.SUM (SB0, MOV REDUX:42:2) at 0, the
 * unit busy 0..1, result at 42; SHFL (SB1) at 1 (2 cycles queued: it
 * issues), the unit starts it at 2, result at 2 + 25 = 27 ([class_shuffle]
 * latency 25); FADD waits 2..41 (40), issues at 42, EXIT 43, retires at 44. */
/* clang-format off */
static const gchar redux_listing[] = SASS_HEADER
    SASS_INS("0000", "REDUX.SUM UR4, R2", "0x000e220000000000")
    SASS_INS("0010", "SHFL.BFLY PT, R5, R6, 0x1, 0x1f", "0x000e620000000000")
    SASS_INS("0020", "FADD R7, R5, R5", "0x003fe20000000000")
    SASS_INS("0030", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* LDC with a register address (SB0): the unit for [class_special]
 * indexed_interval 64, result at 0 + indexed_latency 370 = 370; the uniform
 * LDC (SB1) at 1 uses no unit, result at 1 + 29 = 30; FADD waits 2..369
 * (368), issues at 370, EXIT 371, retires at 372.  With indexed_interval 0
 * (timed as a uniform LDC) the first result is at 29, FADD issues at 30
 * (short_scoreboard 2..29, 28), EXIT 31, retire 32. */
/* clang-format off */
static const gchar ldc_listing[] = SASS_HEADER
    SASS_INS("0000", "LDC R1, c[0x3][R2]", "0x000e220000000000")
    SASS_INS("0010", "LDC R3, c[0x0][0x28]", "0x000e620000000000")
    SASS_INS("0020", "FADD R5, R1, R3", "0x003fe20000000000")
    SASS_INS("0030", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* FLO and BREV on the conversion pipe (latency 17, interval 8: mio/warp.csv
 * 17.00 cycles and 8.01 per SMSP): FLO at 0, BREV waits for the pipe 1..7
 * (math_pipe_throttle, 7), issues at 8, EXIT 9, retires at 10.  On the ALU
 * (interval 2) BREV would issue at 2 and the run take 4. */
/* clang-format off */
static const gchar flo_listing[] = SASS_HEADER
    SASS_INS("0000", "FLO.U32 R1, R2", "0x000fe20000000000")
    SASS_INS("0010", "BREV R3, R4", "0x000fe20000000000")
    SASS_INS("0020", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* A TMA bulk copy awaited on an mbarrier (results/reference/h200/tma/): UMOV
 * sets the size operand (0x80 x 16 = 2048 bytes), UBLKCP issues the CTA's copy
 * 0 at cycle 1, from L2 (l2_hit 1) in 100 + 10 x 2 KiB = 120 cycles: in at 121;
 * the warp's first SYNCS.PHASECHK (cycle 2) sets SB0 until then; FADD waits on
 * SB0 3..120 (long_scoreboard, 118), issues at 121, EXIT 122, retires at 123.
 * Without the [bulk] model the wait is an op of its class (none in the test
 * model: the default latency 4): SB0 until 6, FADD waits 3..5
 * (long_scoreboard, 3: an mbarrier wait's state), issues at 6, EXIT 7, 8 cycles. */
/* clang-format off */
static const gchar bulk_listing[] = SASS_HEADER
    SASS_INS("0000", "UMOV UR5, 0x80", "0x000fe20000000000")
    SASS_INS("0010", "UBLKCP.S.G [UR8], [UR14], UR5", "0x000fe20000000000")
    SASS_INS("0020", "SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [UR8], R0", "0x000e220000000000")
    SASS_INS("0030", "FADD R3, R1, R1", "0x001fe20000000000")
    SASS_INS("0040", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* Two TMA bulk copies of 2 KiB from DRAM (l2_hit 0), issued at cycles 1 and
 * 2, with [bulk] latency 100 + 10 per KiB (120 cycles: not the bound) on the
 * test model's one DRAM channel of 17.2 B/cycle and 697 cycles of latency:
 * 16 lines of 128 B, 7.4419 cycles each.  Copy 0's lines start 1..112.63,
 * in at 112.63 + 697 = 809.63 -> 810, the channel free at 120.07; copy 1's
 * start 120.07..231.70, in at 928.70 -> 929.  The TRYWAITs (3: SB0, copy 0;
 * 5: SB1, copy 1, after a cycle of math_pipe_throttle: the class the test
 * model guesses for SYNCS takes one per 2 cycles) hold FADD 6..928
 * (long_scoreboard, 923): FADD at 929, EXIT 930, retires at 931.  A copy that charged the DRAM for
 * its bytes twice (a mem_load inside MAX, evaluated twice: issue 24, bulkdram) had copy 1 in at
 * 1167. */
/* clang-format off */
static const gchar bulk_dram_listing[] = SASS_HEADER
    SASS_INS("0000", "UMOV UR5, 0x80", "0x000fe20000000000")
    SASS_INS("0010", "UBLKCP.S.G [UR8], [UR14], UR5", "0x000fe20000000000")
    SASS_INS("0020", "UBLKCP.S.G [UR8], [UR16], UR5", "0x000fe20000000000")
    SASS_INS("0030", "SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [UR8], R0", "0x000e220000000000")
    SASS_INS("0040", "SYNCS.PHASECHK.TRANS64.TRYWAIT P1, [UR9], R0", "0x000e620000000000")
    SASS_INS("0050", "FADD R3, R1, R1", "0x003fe20000000000")
    SASS_INS("0060", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* The shipped H200 model's [membar] (results/reference/h200/tma/fence.csv):
 * MEMBAR.ALL.GPU at 0 with nothing in flight holds its warp [membar]
 * latency 266 cycles: FADD at 266 (wait 1..265, 265), EXIT 267, retires at
 * 268.  MEMBAR.ALL.CTA is no GPU-scope fence: FADD at 1, EXIT 2, 3 cycles. */
/* clang-format off */
static const gchar membar_listing[] = SASS_HEADER
    SASS_INS("0000", "MEMBAR.ALL.GPU", "0x000fe20000000000")
    SASS_INS("0010", "FADD R3, R1, R1", "0x000fe20000000000")
    SASS_INS("0020", "EXIT", "0x000fe20000000000");
static const gchar membar_cta_listing[] = SASS_HEADER
    SASS_INS("0000", "MEMBAR.ALL.CTA", "0x000fe20000000000")
    SASS_INS("0010", "FADD R3, R1, R1", "0x000fe20000000000")
    SASS_INS("0020", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* The H200's cluster barrier (cluster.csv): one warp's UCGABAR_WAIT at 0, the
 * barrier unit takes it by 0 + [barrier] interval 2 and releases it latency
 * 6 + cluster_latency 62 later: EXIT at 70 (barrier 1..69, 69), retires at
 * 71.  BAR.SYNC: released at 2 + 6 = 8, EXIT 8, 9 cycles. */
/* clang-format off */
static const gchar cluster_listing[] = SASS_HEADER
    SASS_INS("0000", "UCGABAR_WAIT", "0x000fe20000000000")
    SASS_INS("0010", "EXIT", "0x000fe20000000000");
static const gchar cta_bar_listing[] = SASS_HEADER
    SASS_INS("0000", "BAR.SYNC.DEFER_BLOCKING 0x0", "0x000fe20000000000")
    SASS_INS("0010", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* The H200's texture path (tex.csv): two TEX hitting L1, the first at 0 is
 * ready at 0 + [l1] latency 49 + [texture] latency 84 = 133 (SB0); the
 * second issues at 1 but waits for the SM's texture unit until 0 + interval
 * 8, ready at 8 + 133 = 141 (SB1).  FADD waits on both 2..140
 * (long_scoreboard, 139), issues at 141, EXIT 142, retires at 143. */
/* clang-format off */
static const gchar tex_listing[] = SASS_HEADER
    SASS_INS("0000", "TEX.LL RZ, R1, R8, R18, UR4, 0x0, 2D, 0x1", "0x000e220000000000")
    SASS_INS("0010", "TEX.LL RZ, R2, R10, R18, UR4, 0x0, 2D, 0x1", "0x000e620000000000")
    SASS_INS("0020", "FADD R3, R1, R2", "0x003fe20000000000")
    SASS_INS("0030", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* The H200's distributed shared memory ([dsmem], results/reference/h200/
 * dsmem/): two LD.E that the profile shows reaching a peer CTA's shared
 * memory (Address Space Global,Shared, no global or shared traffic).  The
 * first at 0: the SM's DSMEM port takes it at 0 (free again at 7.56), data
 * at 0 + latency 193 = 193 (SB0); the second issues at 1, the port takes it
 * at 7.56 -> 8, data at 201 (SB1).  FADD waits on both 2..200
 * (long_scoreboard, 199), issues at 201, EXIT 202, retires at 203.  Two ST.E
 * to the peer: the first taken at 0 (free at 6.51), the second issues at 1
 * and is taken at 6.51 -> 7, its registers read at 7 + [class_global]
 * read_latency 2 = 9; its warp waits for the port 2..6 (lg_throttle, 5),
 * EXIT at 7, drains 8 (the store's registers until 9), retires at 9. */
/* clang-format off */
static const gchar dsmem_load_listing[] = SASS_HEADER
    SASS_INS("0000", "LD.E R4, desc[UR6][R2.64]", "0x000e220000000000")
    SASS_INS("0010", "LD.E R5, desc[UR6][R8.64]", "0x000e620000000000")
    SASS_INS("0020", "FADD R7, R4, R5", "0x003fe20000000000")
    SASS_INS("0030", "EXIT", "0x000fe20000000000");
static const gchar dsmem_store_listing[] = SASS_HEADER
    SASS_INS("0000", "ST.E desc[UR6][R2.64], R4", "0x000fe20000000000")
    SASS_INS("0010", "ST.E desc[UR6][R8.64], R5", "0x000fe20000000000")
    SASS_INS("0020", "EXIT", "0x000fe20000000000");
/* clang-format on */
/* The source page of either listing: its instructions' rows, the first two
 * accesses with Address Space `space`, `requests` L1 tag requests of global
 * memory and `wavefronts` shared wavefronts each. */
static gchar *dsmem_source(gboolean store, const gchar *space, gint requests, gint wavefronts) {
  static const gchar *const loads[] = {"LD.E R4, desc[UR6][R2.64]", "LD.E R5, desc[UR6][R8.64]",
                                       "FADD R7, R4, R5", "EXIT", NULL};
  static const gchar *const stores[] = {"ST.E desc[UR6][R2.64], R4", "ST.E desc[UR6][R8.64], R5",
                                        "EXIT", NULL};
  GString *csv = g_string_new("\"Kernel Name\",\"test()\"\n"
                              "\"Address\",\"Source\",\"Instructions Executed\","
                              "\"L1 Tag Requests Global\",\"L2 Theoretical Sectors Global\","
                              "\"L1 Wavefronts Shared\",\"Address Space\",\"Access Operation\"\n");
  const gchar *const *ins = store ? stores : loads;
  for (guint i = 0; ins[i] != NULL; i++)
    g_string_append_printf(csv, "\"0x%x\",\"%s\",\"1\",\"%d\",\"0\",\"%d\",\"%s\",\"%s\"\n", i * 16,
                           ins[i], i < 2 ? requests : 0, i < 2 ? wavefronts : 0, i < 2 ? space : "",
                           i < 2 ? (store ? "Store" : "Load") : "");
  return g_string_free(csv, FALSE);
}

static void dsmem_load_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[0].op, OP_LDG);
  ck_assert_uint_eq(r->p->code[0].dsmem, 1);
  ck_assert_uint_eq(r->p->code[0].bytes, 128);
  ck_assert_uint_eq(r->st.loads, 0); /* no global load */
}

static void dsmem_store_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[1].op, OP_STG);
  ck_assert_uint_eq(r->p->code[1].dsmem, 2);
}

/* ---- the cases ---------------------------------------------------------- */

static void bulk_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[1].cp_async, 3);
  ck_assert_uint_eq(r->p->code[1].bytes, 2048);
  ck_assert_uint_eq(r->p->code[2].cp_async, 4);
  ck_assert_uint_eq(r->p->code[2].sb_write, 0);
}

static void stall_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[0].stall, 4);
  ck_assert_uint_eq(r->st.issued, 3);
}

static void sb_write_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[0].sb_write, 0);
  ck_assert_uint_eq(r->p->code[1].wait_mask, 1);
}

static void sb_read_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[0].sb_read, 1);
  ck_assert_uint_eq(r->p->code[0].read_latency, 2);
}

static void loop_extra(const SassRun *r) {
  ck_assert_uint_eq(r->st.issued, 10);
  ck_assert_uint_eq(r->st.ops[OP_BRA], 3);
}

static void bar_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[0].op, OP_BAR);
  ck_assert_uint_eq(r->st.active_warp_cycles, 22);
}

static void order_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[0].op, OP_LDS);
  ck_assert_uint_eq(r->st.active_warp_cycles, 241);
  ck_assert_uint_eq(r->st.smsp_active_cycles, 142);
}

static void ldsm_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[0].op, OP_LDS);
  ck_assert_uint_eq(r->p->code[0].ways, 4);
  ck_assert_uint_eq(r->p->code[1].ways, 2);
  ck_assert_uint_eq(r->p->code[2].ways, 1);
}

static void imad_extra(const SassRun *r) {
  ck_assert_int_eq(opclass_lookup(r->m->opclass, "IMAD"), OPCLASS_IMAD);
  ck_assert_uint_eq(r->p->code[0].pipe, PIPE_FMAHEAVY);
  ck_assert_uint_eq(r->p->code[0].interval, 2);
}

static void match_extra(const SassRun *r) {
  ck_assert_int_eq(opclass_lookup(r->m->opclass, "MATCH"), OPCLASS_SHUFFLE);
  ck_assert_uint_eq(r->p->code[0].op, OP_SHFL);
  ck_assert_uint_eq(r->p->code[0].pipe, PIPE_SMEM);
  ck_assert_uint_eq(r->p->code[0].ways, 64);
  ck_assert_uint_eq(r->p->code[0].latency, 369);
}

static void redux_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[0].op, OP_SHFL);
  ck_assert_uint_eq(r->p->code[0].ways, 2);
  ck_assert_uint_eq(r->p->code[1].ways, 1);
  ck_assert_uint_eq(r->p->code[1].latency, 25);
}

static void ldc_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[0].op, OP_SHFL);
  ck_assert_uint_eq(r->p->code[0].ways, 64);
  ck_assert_uint_eq(r->p->code[0].latency, 370);
  ck_assert_uint_eq(r->p->code[1].op, OP_MISC);
  ck_assert(sass_ldc_indexed(&r->sk->fn->ins[0]));
  ck_assert(!sass_ldc_indexed(&r->sk->fn->ins[1]));
}

static void ldc_off_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[0].op, OP_MISC);
}

static void flo_extra(const SassRun *r) {
  ck_assert_int_eq(opclass_lookup(r->m->opclass, "FLO"), OPCLASS_CONV);
  ck_assert_int_eq(opclass_lookup(r->m->opclass, "BREV"), OPCLASS_CONV);
  ck_assert_uint_eq(r->p->code[1].pipe, PIPE_SFU);
}

static const SassCase cases[] = {
    {"stall count", stall_listing, {0}, 6, {[STALL_SELECTED] = 3, [STALL_WAIT] = 3}, stall_extra},
    {"yield cleared",
     stall_no_yield,
     {0},
     6,
     {[STALL_SELECTED] = 3, [STALL_WAIT] = 3},
     stall_extra},
    {"write barrier",
     sb_write_listing,
     {0},
     18,
     {[STALL_SELECTED] = 3, [STALL_SHORT_SCOREBOARD] = 15},
     sb_write_extra},
    {"read barrier",
     sb_read_listing,
     {0},
     4,
     {[STALL_SELECTED] = 3, [STALL_LONG_SCOREBOARD] = 1},
     sb_read_extra},
    {"loop branch",
     loop_listing,
     {.trips = 3},
     40,
     {[STALL_SELECTED] = 10, [STALL_WAIT] = 3, [STALL_BRANCH_RESOLVING] = 27},
     loop_extra},
    {"forward branch",
     forward_listing,
     {0},
     12,
     {[STALL_SELECTED] = 3, [STALL_BRANCH_RESOLVING] = 9},
     NULL},
    {"BAR", bar_listing, {.warps = 2}, 11, {[STALL_SELECTED] = 4, [STALL_BARRIER] = 18}, bar_extra},
    {"SMSP order",
     order_listing,
     {.ctas = 7},
     37,
     {[STALL_SELECTED] = 21,
      [STALL_NOT_SELECTED] = 6,
      [STALL_MIO_THROTTLE] = 18,
      [STALL_SHORT_SCOREBOARD] = 7 * 28},
     order_extra},
    {"LDSM wavefronts",
     ldsm_listing,
     {0},
     37,
     {[STALL_SELECTED] = 5, [STALL_MIO_THROTTLE] = 4, [STALL_SHORT_SCOREBOARD] = 28},
     ldsm_extra},
    {"wavefront latency 1",
     wavefront_listing,
     {0},
     34,
     {[STALL_SELECTED] = 3, [STALL_SHORT_SCOREBOARD] = 31},
     NULL},
    {"wavefront latency 2",
     wavefront_listing,
     {.sets = "smem.wavefront_latency=2"},
     37,
     {[STALL_SELECTED] = 3, [STALL_SHORT_SCOREBOARD] = 34},
     NULL},
    {"bulk copy",
     bulk_listing,
     {.l2_hit = 1.0, .sets = "bulk.l2_latency=100;bulk.l2_cycles_per_kib=10"},
     123,
     {[STALL_SELECTED] = 5, [STALL_LONG_SCOREBOARD] = 118},
     bulk_extra},
    {"bulk copies from DRAM",
     bulk_dram_listing,
     {.l2_hit = 0.0,
      .sets = "bulk.l2_latency=100;bulk.dram_latency=100;bulk.dram_cycles_per_kib=10"},
     931,
     {[STALL_SELECTED] = 7, [STALL_LONG_SCOREBOARD] = 923, [STALL_MATH_PIPE_THROTTLE] = 1},
     NULL},
    {"bulk copy off",
     bulk_listing,
     {.l2_hit = 1.0},
     8,
     {[STALL_SELECTED] = 5, [STALL_LONG_SCOREBOARD] = 3},
     bulk_extra},
};

START_TEST(test_case) {
  sassrun_case(&cases[_i]);
}
END_TEST

/* The MEMBAR, cluster-barrier and TEX cases of the shipped H200 model
 * (listings above; the model's path is known at run time only). */
START_TEST(test_tma_h200) {
  g_autofree gchar *h200 = g_build_filename(g_getenv("WARPSIM_ROOT"), "models", "h200.ini", NULL);
  const SassCase c[] = {
      {"MEMBAR.GPU",
       membar_listing,
       {.model = h200},
       268,
       {[STALL_SELECTED] = 3, [STALL_WAIT] = 265},
       NULL},
      {"MEMBAR.CTA", membar_cta_listing, {.model = h200}, 3, {[STALL_SELECTED] = 3}, NULL},
      {"cluster barrier",
       cluster_listing,
       {.model = h200},
       71,
       {[STALL_SELECTED] = 2, [STALL_BARRIER] = 69},
       NULL},
      {"CTA barrier",
       cta_bar_listing,
       {.model = h200},
       9,
       {[STALL_SELECTED] = 2, [STALL_BARRIER] = 7},
       NULL},
      {"TEX",
       tex_listing,
       {.model = h200, .l1_hit = 1.0},
       143,
       {[STALL_SELECTED] = 4, [STALL_LONG_SCOREBOARD] = 139},
       NULL},
  };
  for (guint i = 0; i < G_N_ELEMENTS(c); i++)
    sassrun_case(&c[i]);
}
END_TEST

/* The DSMEM cases of the shipped H200 model (listings above), and what is no
 * peer access: the same LD.E with the CTA's own window (Shared, one
 * wavefront each), one that touched global memory too (an L1 tag request),
 * one without a profile, and the model without [dsmem] keys (latency 0). */
START_TEST(test_dsmem_h200) {
  g_autofree gchar *h200 = g_build_filename(g_getenv("WARPSIM_ROOT"), "models", "h200.ini", NULL);
  g_autofree gchar *load = dsmem_source(FALSE, "Global,Shared", 0, 0);
  g_autofree gchar *store = dsmem_source(TRUE, "Global,Shared", 0, 0);
  const SassCase c[] = {
      {"DSMEM loads",
       dsmem_load_listing,
       {.model = h200, .source = load},
       203,
       {[STALL_SELECTED] = 4, [STALL_LONG_SCOREBOARD] = 199},
       dsmem_load_extra},
      {"DSMEM stores",
       dsmem_store_listing,
       {.model = h200, .source = store},
       9,
       {[STALL_SELECTED] = 3, [STALL_LG_THROTTLE] = 5, [STALL_DRAIN] = 1},
       dsmem_store_extra},
  };
  for (guint i = 0; i < G_N_ELEMENTS(c); i++)
    sassrun_case(&c[i]);
  g_autofree gchar *own = dsmem_source(FALSE, "Shared", 0, 1);
  g_autofree gchar *global = dsmem_source(FALSE, "Global,Shared", 1, 0);
  const SassSetup none[] = {{.model = h200, .source = own},
                            {.model = h200, .source = global},
                            {.model = h200},
                            {.model = h200, .source = load, .sets = "dsmem.latency=0"}};
  for (guint i = 0; i < G_N_ELEMENTS(none); i++) {
    SassRun r = {0};
    sassrun_load(&r, dsmem_load_listing, &none[i]);
    ck_assert_msg(r.p->code[0].dsmem == 0 && r.p->code[1].dsmem == 0, "setup %u: a DSMEM access",
                  i);
    sassrun_clear(&r);
  }
}
END_TEST

/* (the model's path is known at run time only) */
START_TEST(test_imad_h200) {
  g_autofree gchar *h200 = g_build_filename(g_getenv("WARPSIM_ROOT"), "models", "h200.ini", NULL);
  const SassCase c = {"IMAD",
                      imad_listing,
                      {.model = h200},
                      8,
                      {[STALL_SELECTED] = 5, [STALL_MATH_PIPE_THROTTLE] = 3},
                      imad_extra};
  sassrun_case(&c);
}
END_TEST

/* The MIO cases of the shipped H200 model (listings above). */
START_TEST(test_mio_h200) {
  g_autofree gchar *h200 = g_build_filename(g_getenv("WARPSIM_ROOT"), "models", "h200.ini", NULL);
  const SassCase c[] = {
      {"MATCH",
       match_listing,
       {.model = h200},
       435,
       {[STALL_SELECTED] = 4, [STALL_MIO_THROTTLE] = 31, [STALL_SHORT_SCOREBOARD] = 400},
       match_extra},
      {"REDUX and SHFL",
       redux_listing,
       {.model = h200},
       44,
       {[STALL_SELECTED] = 4, [STALL_SHORT_SCOREBOARD] = 40},
       redux_extra},
      {"indexed LDC",
       ldc_listing,
       {.model = h200},
       372,
       {[STALL_SELECTED] = 4, [STALL_SHORT_SCOREBOARD] = 368},
       ldc_extra},
      {"indexed LDC off",
       ldc_listing,
       {.model = h200, .sets = "class_special.indexed_interval=0"},
       32,
       {[STALL_SELECTED] = 4, [STALL_SHORT_SCOREBOARD] = 28},
       ldc_off_extra},
      {"FLO and BREV",
       flo_listing,
       {.model = h200},
       10,
       {[STALL_SELECTED] = 3, [STALL_MATH_PIPE_THROTTLE] = 7},
       flo_extra},
  };
  for (guint i = 0; i < G_N_ELEMENTS(c); i++)
    sassrun_case(&c[i]);
}
END_TEST

int main(void) {
  TCase *tc = tcase_create("sass_timing");
  tcase_add_loop_test(tc, test_case, 0, G_N_ELEMENTS(cases));
  tcase_add_test(tc, test_imad_h200);
  tcase_add_test(tc, test_tma_h200);
  tcase_add_test(tc, test_dsmem_h200);
  tcase_add_test(tc, test_mio_h200);
  tcase_set_timeout(tc, 60);
  Suite *s = suite_create("sm");
  suite_add_tcase(s, tc);
  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
