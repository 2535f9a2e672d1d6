/* check_sm_memory.c - tests of sim/core/sm_memory.c, what SASS global loads
 * and stores do when they issue, on listings of 3 to 4 instructions run on
 * the test SM (sass_run.h: one channel per level, no latency spread; L1 49
 * cycles at 128 B/cycle, L2 305 at 36.5, DRAM 697 at 17.2).  Rules
 * (sm_memory.c, mem.h, ARCHITECTURE.md): a request of S sectors moves 32 S
 * bytes in lines of 128 B; each line occupies its level's channel for
 * bytes / bandwidth cycles from when the channel is free, and its data is
 * back `latency` after that start (the request's: after its last line's);
 * a load that misses L1 holds its lines of the SM's miss slots
 * ([class_global] lines_in_flight) until its data is back, an L1 hit none;
 * with stores_hold_lines a store that goes to DRAM holds its lines until
 * DRAM has written it (its one access's latency after the start, at a
 * stored byte's cost of dram_write_cost = 1 read byte); while the slots
 * are full a global load waits as long_scoreboard (lg_load_sm), a store
 * or an atomic as lg_throttle (lg_throttle_sm).  Control words as in
 * check_sm.c: 0x000fe2 none, 0x000e22 sets SB0, 0x000e62 sets SB1, 0x001fe2
 * waits on SB0, 0x003fe2 on SB0 and SB1, 0x001e62 waits on SB0 and sets
 * SB1 (0x000e62 + 1 << 12). */
#include "sass_run.h"

#include <stdlib.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

/* A dependent load through L2 (L1 hit 0, L2 hit 1): LDG (SB0) at 0, data
 * at 305; the second LDG reads the first's result (waits on SB0): issues at
 * 305, data at 610; FADD at 610, EXIT 611, the warp's memory is back by
 * then: retires at 612.  long_scoreboard 1..304 and 306..609. */
/* clang-format off */
static const gchar chain_listing[] = SASS_HEADER
    SASS_INS("0000", "LDG.E R2, [R2.64]", "0x000e220000000000")
    SASS_INS("0010", "LDG.E R3, [R2.64]", "0x001e620000000000")
    SASS_INS("0020", "FADD R4, R3, R3", "0x002fe20000000000")
    SASS_INS("0030", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* A request's bytes are its sectors': LDG.E.128 reads 16 B per thread, 16
 * sectors = 512 B, 4 lines, sequential (>= 2 lines: one channel of the
 * level's streaming pool).  Two of them to DRAM at cycles 0 and 1 (SB0,
 * SB1): the first's lines start at 0, 7.44, 14.88, 22.33 (128 / 17.2 cycles
 * each), its data at 22.33 + 697 -> 720; the second's at 29.77 .. 52.09,
 * data at 749.09 -> 750.  FADD waits on both: 750; EXIT 751; retires at 752.
 * long_scoreboard 2..749 (748).  DRAM served 2 x 512 B. */
/* clang-format off */
static const gchar wide_listing[] = SASS_HEADER
    SASS_INS("0000", "LDG.E.128 R4, [R2.64]", "0x000e220000000000")
    SASS_INS("0010", "LDG.E.128 R8, [R6.64]", "0x000e620000000000")
    SASS_INS("0020", "FADD R12, R4, R8", "0x003fe20000000000")
    SASS_INS("0030", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* Lines in flight: one miss slot (lines_in_flight 1), two independent
 * one-line loads to DRAM.  LDG at 0 takes the slot (data at 697); the
 * second is ready at 1 but the slot is full: 1..696 at the SM's cap,
 * charged long_scoreboard as the H200 does (lg_load_sm 696); at 697 the
 * first completes and the second issues (the channel is free again: data
 * at 1394); long_scoreboard 698..1393 too: 696 + 696 = 1392, lg_throttle
 * none; FADD 1394, EXIT 1395, retire 1396. */
/* clang-format off */
static const gchar two_loads[] = SASS_HEADER
    SASS_INS("0000", "LDG.E R4, [R2.64]", "0x000e220000000000")
    SASS_INS("0010", "LDG.E R5, [R6.64]", "0x000e620000000000")
    SASS_INS("0020", "FADD R7, R4, R5", "0x003fe20000000000")
    SASS_INS("0030", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* A store holds a miss slot until DRAM has written it (stores_hold_lines,
 * one slot): STG at 0 (128 B, one line, written at 697); the LDG after it
 * waits for the slot 1..696 (a load: long_scoreboard, lg_load_sm 696),
 * issues at 697 (data at 1394: long_scoreboard 698..1393, 1392 in all);
 * FADD 1394, EXIT 1395, retire 1396.  The store's own warp never waits for
 * the write, so no warp-cycle is a store's (lg_throttle_sm 0). */
/* clang-format off */
static const gchar store_load[] = SASS_HEADER
    SASS_INS("0000", "STG.E [R2.64], R4", "0x000fe20000000000")
    SASS_INS("0010", "LDG.E R5, [R6.64]", "0x000e220000000000")
    SASS_INS("0020", "FADD R7, R5, R5", "0x001fe20000000000")
    SASS_INS("0030", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* A global atomic waits for a miss slot as lg_throttle, a load as
 * long_scoreboard (sm_decode: CLS_ATOMIC; one slot, [l2]
 * atomic_sectors_per_cycle 1, so RED is an atomic: OP_LDG to L2, 128 B =
 * 4 sectors).  LDG at 0 takes the slot (DRAM, data at 697); RED is ready
 * at 1 but the slot is full: lg_throttle 1..696 (696, all the SM's cap:
 * lg_throttle_sm 696); at 697 the slot frees and RED issues: its line on
 * L2's one channel from 697, done at 697 + 305 = 1002 (the atomic unit's
 * 4 sectors at 1 a cycle end at 701, earlier), so it holds the slot until
 * 1002; the second LDG is ready at 698 and waits for the slot 698..1001
 * (304, a load: long_scoreboard, lg_load_sm 304); it issues at 1002 (DRAM's
 * channel long free: data at 1002 + 697 = 1699); FADD waits on SB0 and SB1
 * 1003..1698 (696, long_scoreboard); FADD 1699, EXIT 1700, retire 1701.
 * long_scoreboard 304 + 696 = 1000; selected 5; 5 + 696 + 1000 = 1701.
 * Were RED of a load's class (CLS_LOAD), its 696 would be long_scoreboard
 * too (1696, lg_load_sm 1000, lg_throttle 0). */
/* clang-format off */
static const gchar load_atomic[] = SASS_HEADER
    SASS_INS("0000", "LDG.E R4, [R2.64]", "0x000e220000000000")
    SASS_INS("0010", "RED.E.ADD.STRONG.GPU [R6.64], R5", "0x000fe20000000000")
    SASS_INS("0020", "LDG.E R8, [R10.64]", "0x000e620000000000")
    SASS_INS("0030", "FADD R9, R4, R8", "0x003fe20000000000")
    SASS_INS("0040", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* Two register spill loads that miss L1, one SM-wide local port of 128
 * B/cycle ([spill] bytes_per_cycle): LDL at 0 (SB0) holds the port for one
 * cycle (128 B, 32 threads x 4 B), its line occupies L2's one channel 0 ..
 * 3.51 (128 / 36.5), data at 305; LDL at 1 (SB1) starts on the port at 1,
 * its line at 3.51 .. 7.01, data at 308.51 -> 309.  FADD waits on both:
 * 309, EXIT 310, retire 311; long_scoreboard 2..308.  The L2 access is made
 * once per LDL: made twice (GLib's MAX(ready, access)), the first would be
 * back at 309 and the second at 316. */
/* clang-format off */
static const gchar two_spills[] = SASS_HEADER
    SASS_INS("0000", "LDL R4, [R1+0x10]", "0x000e220000000000")
    SASS_INS("0010", "LDL R5, [R1+0x14]", "0x000e620000000000")
    SASS_INS("0020", "FADD R7, R4, R5", "0x003fe20000000000")
    SASS_INS("0030", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* Three register spill stores that miss L1, then EXIT, on the port of
 * "two spill loads": STL at 0, 1, 2 (stall 1, no barrier) start on the
 * port at 0, 1, 2 and are back from L2 at 305, 306, 307 (its latency, no
 * spread; a missing store takes no L2 bandwidth).  Nothing waits for them
 * but the drain: EXIT at 3 drains to the last one, 307 (retire 307),
 * drain 4..306.  Their L2 cycles are worked out only at the drain (Sm's
 * deferred stores): without that, the warp would retire at 51 (the last
 * store's L1 cycle, 2 + 49). */
/* clang-format off */
static const gchar three_stores[] = SASS_HEADER
    SASS_INS("0000", "STL [R1+0x10], R4", "0x000fe20000000000")
    SASS_INS("0010", "STL [R1+0x14], R5", "0x000fe20000000000")
    SASS_INS("0020", "STL [R1+0x18], R6", "0x000fe20000000000")
    SASS_INS("0030", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* A global compare-and-swap (sassmem_global_atomic 3), no profile: 4 B x 32
 * lanes = 4 sectors, 128 B.  Its line reaches L2 at 0 and is back at 305;
 * the atomic unit serves its 4 sectors at [l2] atomic_cas_sectors_per_cycle
 * (not atomic_sectors_per_cycle 1, nor atomic_return_sectors_per_cycle):
 * at 0.01, 0 .. 400, so its value is back at max(305, 400) = 400; FADD 400,
 * EXIT 401, retire 402; long_scoreboard 1..399.  With atomic_cas_latency
 * 462 and no CAS rate (the unit at 1 sector/cycle: done at 4) it is back
 * at max(305, 4, 0 + 462) = 462: FADD 462, EXIT 463, retire 464. */
/* clang-format off */
static const gchar cas_listing[] = SASS_HEADER
    SASS_INS("0000", "ATOMG.E.CAS.STRONG.GPU PT, R4, [R2], R6, R7", "0x000e220000000000")
    SASS_INS("0010", "FADD R8, R4, R4", "0x001fe20000000000")
    SASS_INS("0020", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* Two reductions on at most 256 words (the address is a parameter plus an
 * index masked to 0x3fc bytes: sassspan.h), [l2] atomic_contention 256:0.05
 * (0.05 lane atomics per cycle for the device, the test SM its only SM),
 * one miss slot, L2 hits.  ULDC 0, LOP3 1 (int pipe, interval 2), IADD3 3
 * (math_pipe_throttle at 2), IMAD.X 4, the first RED at 5: its line is back
 * from L2 at 5 + 305 = 310, but the atomic unit holds it max(4 sectors / 1,
 * 32 lanes / 0.05 x 1 SM) = 640 cycles, 5..645, and it keeps the slot until
 * then; the second RED waits for the slot 6..644 (lg_throttle 639) and
 * issues at 645, its unit time 645..1285; EXIT 646, and the warp drains
 * 647..1284 (638) until its last reduction is done: retire at 1285.
 * selected 7 (0, 1, 3, 4, 5, 645, 646) + 1 + 639 + 638 = 1285.  With
 * atomic_contention off the unit holds each for 4 cycles: the first is done
 * at 310 (L2), the second waits 6..309 (304), issues at 310, done at 615;
 * EXIT 311, drain 312..614 (303): 7 + 1 + 304 + 303 = 615. */
/* clang-format off */
static const gchar contended_reds[] = SASS_HEADER
    SASS_INS("0000", "ULDC.64 UR4, c[0x0][0x220]", "0x000fe20000000000")
    SASS_INS("0010", "LOP3.LUT R2, R3, 0x3fc, RZ, 0xc0, !PT", "0x000fe20000000000")
    SASS_INS("0020", "IADD3 R6, P0, R2, UR4, RZ", "0x000fe20000000000")
    SASS_INS("0030", "IMAD.X R7, RZ, RZ, UR5, P0", "0x000fe20000000000")
    SASS_INS("0040", "RED.E.ADD.STRONG.GPU [R6.64], R5", "0x000fe20000000000")
    SASS_INS("0050", "RED.E.ADD.STRONG.GPU [R6.64], R5", "0x000fe20000000000")
    SASS_INS("0060", "EXIT", "0x000fe20000000000");
/* clang-format on */

/* Two LDL of a register-indexed local array, profiled at 25 sectors a
 * request (L2 Theoretical Sectors Local 25 in 1 execution: 2 x the 4 ideal
 * or more, so scattered), 800 B, L1 hits (49 cycles).  With [spill]
 * scattered_load_sector_cycles 2 each holds the SM's local port 25 x 2 = 50
 * cycles: the first 0..50, data at 0 + 49 = 49; the second, ready at 1,
 * starts at 50, data at 99; FADD 99, EXIT 100, retire 101; long_scoreboard
 * 2..98.  Without the key, at bytes_per_cycle 128: 800 / 128 = 6.25 cycles,
 * the second starts at 6.25 -> 7, data at 56: FADD 56, EXIT 57, retire 58. */
/* clang-format off */
static const gchar local_listing[] = SASS_HEADER
    SASS_INS("0000", "LDL R4, [R2]", "0x000e220000000000")
    SASS_INS("0010", "LDL R5, [R3]", "0x000e620000000000")
    SASS_INS("0020", "FADD R7, R4, R5", "0x003fe20000000000")
    SASS_INS("0030", "EXIT", "0x000fe20000000000");
static const gchar local_source[] =
    "\"Kernel Name\",\"test()\"\n"
    "\"Address\",\"Source\",\"Instructions Executed\",\"L2 Theoretical Sectors Local\","
    "\"Address Space\",\"Access Operation\"\n"
    "\"0x0\",\"LDL R4, [R2]\",\"1\",\"25\",\"Local\",\"Load\"\n"
    "\"0x10\",\"LDL R5, [R3]\",\"1\",\"25\",\"Local\",\"Load\"\n"
    "\"0x20\",\"FADD R7, R4, R5\",\"1\",\"0\",\"\",\"\"\n"
    "\"0x30\",\"EXIT\",\"1\",\"0\",\"\",\"\"\n";
/* clang-format on */

/* With a profile, a request's sectors are the profile's (L2 Theoretical
 * Sectors Global / Instructions Executed), not its width's: an LDG.E (4 B
 * per thread, 4 sectors ideal) profiled at 13 sectors in 2 executions, 6.5
 * per request, is 208 B, 224 B on the levels' servers (whole sectors) in 2
 * lines (not scattered: below 2 x 4).  To DRAM: lines start at 0 and 7.44
 * (128 B / 17.2), data at 704.44 -> 705; FADD 705, EXIT 706, retire 707;
 * long_scoreboard 1..704. */
/* clang-format off */
static const gchar profiled_listing[] = SASS_HEADER
    SASS_INS("0000", "LDG.E R4, [R2.64]", "0x000e220000000000")
    SASS_INS("0010", "FADD R5, R4, R4", "0x001fe20000000000")
    SASS_INS("0020", "EXIT", "0x000fe20000000000");
/* clang-format on */
static const gchar profiled_source[] =
    "\"Kernel Name\",\"test()\"\n"
    "\"Address\",\"Source\",\"Instructions Executed\",\"L2 Theoretical Sectors Global\","
    "\"Address Space\",\"Access Operation\"\n"
    "\"0x0\",\"LDG.E R4, [R2.64]\",\"2\",\"13\",\"Global\",\"Load\"\n"
    "\"0x10\",\"FADD R5, R4, R4\",\"2\",\"0\",\"\",\"\"\n"
    "\"0x20\",\"EXIT\",\"2\",\"0\",\"\",\"\"\n";

/* A scattered load ([l2] far_extra_cycles): an LDG.E (4 sectors ideal)
 * profiled at 32 sectors in 1 execution, 32 per request (a gather: 2 x the
 * ideal or more), 1024 B in 8 lines on L2's one channel at 36.5 B/cycle:
 * they start at 0, 3.51 .. 24.55 (7 x 128 / 36.5), data at 24.55 + 305 =
 * 329.55 -> 330; FADD 330, EXIT 331, retire 332; long_scoreboard 1..329.
 * Served by the far partition (probability 1) with far_extra_cycles 500:
 * data at 830, FADD 830, EXIT 831, retire 832; long_scoreboard 1..829. */
/* clang-format off */
static const gchar far_source[] =
    "\"Kernel Name\",\"test()\"\n"
    "\"Address\",\"Source\",\"Instructions Executed\",\"L2 Theoretical Sectors Global\","
    "\"Address Space\",\"Access Operation\"\n"
    "\"0x0\",\"LDG.E R4, [R2.64]\",\"1\",\"32\",\"Global\",\"Load\"\n"
    "\"0x10\",\"FADD R5, R4, R4\",\"1\",\"0\",\"\",\"\"\n"
    "\"0x20\",\"EXIT\",\"1\",\"0\",\"\",\"\"\n";
/* clang-format on */

/* ---- the cases ---------------------------------------------------------- */

static void chain_extra(const SassRun *r) {
  ck_assert_uint_eq(r->st.loads, 2);
  ck_assert_uint_eq(r->st.load_latency_sum, 2 * 305);
  ck_assert_uint_eq(r->st.level_bytes[MEM_L2], 2 * 128);
}

static void wide_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[0].bytes, 512);
  ck_assert_uint_eq(r->p->code[0].lines, 4);
  ck_assert_uint_eq(r->st.level_bytes[MEM_DRAM], 1024);
  ck_assert_uint_eq(r->st.load_bytes, 1024);
  ck_assert_uint_eq(r->st.load_latency_sum, 720 + 749);
  /* L1TEX's data stage: 512 B at 128 B/cycle, 4 cycles per load */
  ck_assert_uint_eq(r->st.pipe_busy[PIPE_SMEM], 8);
}

static void profiled_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[0].bytes, 208);
  ck_assert_uint_eq(r->p->code[0].lines, 2);
  ck_assert_uint_eq(r->p->code[0].scattered, 0);
  ck_assert_uint_eq(r->st.level_bytes[MEM_DRAM], 224);
  ck_assert_uint_eq(r->st.load_bytes, 224);
}

static void far_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[0].scattered, 1);
  ck_assert_uint_eq(r->st.level_bytes[MEM_L2], 1024);
  ck_assert_uint_eq(r->st.load_latency_sum, 830);
}

/* A scattered load to DRAM (far_source's 32 sectors per request, L2 hit 0):
 * [class_global] scattered_dram_bytes 0 (the default) gives each sector a
 * line of DRAM time, 32 x 128 = 4096 B in 32 lines on DRAM's one random-line
 * channel: they start at 0, 7.44 .. 230.70 (31 x 128 / 17.2), data at
 * 230.70 + 697 = 927.70 -> 928; FADD 928, EXIT 929, retire 930;
 * long_scoreboard 1..927.  With 139 (the DRAM time of a random line of 1
 * GiB, results/reference/h200/l2flight/gather.csv): 32 x 139 = 4448 B, 34
 * lines of 128 B and one of 96: the last starts at 34 x 128 / 17.2 = 253.02,
 * data at 950.02 -> 951; FADD 951, EXIT 952, retire 953; long_scoreboard
 * 1..950.  DRAM served the request's 1024 B either way. */
static void scattered_dram_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[0].scattered, 1);
  ck_assert_uint_eq(r->st.level_bytes[MEM_DRAM], 1024);
}

/* The same load with scattered_dram_scale 2.13 (gather's profile: DRAM
 * read 2.13 x the 32 B of each scattered sector that missed,
 * sassmem_scattered_dram_scale): DRAM's count takes 1024 x 2.13 = 2181.12
 * -> 2181 B, and its time is a line per sector all the same (retire 930). */
static void scattered_scale_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[0].scattered, 1);
  ck_assert_uint_eq(r->st.level_bytes[MEM_DRAM], 2181);
  ck_assert_uint_eq(r->st.load_bytes, 1024);
}

static void near_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[0].scattered, 1);
  ck_assert_uint_eq(r->st.load_latency_sum, 330);
}

static void slot_extra(const SassRun *r) {
  ck_assert_uint_eq(r->st.lg_load_sm, 696);
  ck_assert_uint_eq(r->st.lg_throttle_sm, 0);
}

static void l1_extra(const SassRun *r) {
  ck_assert_uint_eq(r->st.level_bytes[MEM_L1], 256);
}

static void store_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[0].op, OP_STG);
  ck_assert_uint_eq(r->st.level_bytes[MEM_DRAM], 256);
  ck_assert_uint_eq(r->st.lg_load_sm, 696);
  ck_assert_uint_eq(r->st.lg_throttle_sm, 0);
}

static void atomic_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[1].op, OP_LDG);
  ck_assert_uint_eq(r->p->code[1].atomic, 1); /* RED: a reduction */
  ck_assert_uint_eq(r->st.atomic_bytes, 128);
  ck_assert_uint_eq(r->st.lg_throttle_sm, 696);
  ck_assert_uint_eq(r->st.lg_load_sm, 304);
}

static void cas_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[0].op, OP_LDG);
  ck_assert_uint_eq(r->p->code[0].atomic, 3); /* a compare-and-swap */
  ck_assert_uint_eq(r->st.atomic_cas_bytes, 128);
  ck_assert_uint_eq(r->st.atomic_return_bytes, 0);
}

static void local_extra(const SassRun *r) {
  ck_assert_uint_eq(r->p->code[0].op, OP_LDL);
  ck_assert_uint_eq(r->p->code[0].scattered, 1);
}

#define ONE_SLOT "class_global.lines_in_flight=1"

static const SassCase cases[] = {
    {"dependent LDG",
     chain_listing,
     {.l2_hit = 1.0},
     612,
     {[STALL_SELECTED] = 4, [STALL_LONG_SCOREBOARD] = 608},
     chain_extra},
    {"sectors of the width",
     wide_listing,
     {0},
     752,
     {[STALL_SELECTED] = 4, [STALL_LONG_SCOREBOARD] = 748},
     wide_extra},
    {"sectors of the profile",
     profiled_listing,
     {.source = profiled_source},
     707,
     {[STALL_SELECTED] = 3, [STALL_LONG_SCOREBOARD] = 704},
     profiled_extra},
    {"lines in flight",
     two_loads,
     {.sets = ONE_SLOT},
     1396,
     {[STALL_SELECTED] = 4, [STALL_LONG_SCOREBOARD] = 1392},
     slot_extra},
    /* L1 hits hold no miss slot: the same two loads, L1 hit rate 1, one slot:
     * LDG at 0 (data at 49), LDG at 1 (the L1 channel is free after 1 cycle:
     * data at 50); FADD 50, EXIT 51, retire 52; long_scoreboard 2..49. */
    {"L1 hits",
     two_loads,
     {.l1_hit = 1.0, .sets = ONE_SLOT},
     52,
     {[STALL_SELECTED] = 4, [STALL_LONG_SCOREBOARD] = 48},
     l1_extra},
    {"atomic and load at the slot",
     load_atomic,
     {.sets = ONE_SLOT ";l2.atomic_sectors_per_cycle=1"},
     1701,
     {[STALL_SELECTED] = 5, [STALL_LG_THROTTLE] = 696, [STALL_LONG_SCOREBOARD] = 1000},
     atomic_extra},
    {"reductions on 256 words",
     contended_reds,
     {.l2_hit = 1.0,
      .sets = ONE_SLOT ";l2.atomic_sectors_per_cycle=1;l2.atomic_contention=256:0.05"},
     1285,
     {[STALL_SELECTED] = 7,
      [STALL_MATH_PIPE_THROTTLE] = 1,
      [STALL_LG_THROTTLE] = 639,
      [STALL_DRAIN] = 638},
     NULL},
    {"reductions, contention off",
     contended_reds,
     {.l2_hit = 1.0, .sets = ONE_SLOT ";l2.atomic_sectors_per_cycle=1"},
     615,
     {[STALL_SELECTED] = 7,
      [STALL_MATH_PIPE_THROTTLE] = 1,
      [STALL_LG_THROTTLE] = 304,
      [STALL_DRAIN] = 303},
     NULL},
    {"compare-and-swap at the CAS rate",
     cas_listing,
     {.l2_hit = 1.0, .sets = "l2.atomic_sectors_per_cycle=1;l2.atomic_cas_sectors_per_cycle=0.01"},
     402,
     {[STALL_SELECTED] = 3, [STALL_LONG_SCOREBOARD] = 399},
     cas_extra},
    {"compare-and-swap round trip",
     cas_listing,
     {.l2_hit = 1.0, .sets = "l2.atomic_sectors_per_cycle=1;l2.atomic_cas_latency=462"},
     464,
     {[STALL_SELECTED] = 3, [STALL_LONG_SCOREBOARD] = 461},
     cas_extra},
    {"scattered local loads, per sector",
     local_listing,
     {.source = local_source,
      .sets = "spill.bytes_per_cycle=128;spill.scattered_load_sector_cycles=2"},
     101,
     {[STALL_SELECTED] = 4, [STALL_LONG_SCOREBOARD] = 97},
     local_extra},
    {"scattered local loads, by bytes",
     local_listing,
     {.source = local_source, .sets = "spill.bytes_per_cycle=128"},
     58,
     {[STALL_SELECTED] = 4, [STALL_LONG_SCOREBOARD] = 54},
     local_extra},
    {"store holds a slot",
     store_load,
     {.sets = ONE_SLOT},
     1396,
     {[STALL_SELECTED] = 4, [STALL_LONG_SCOREBOARD] = 1392},
     store_extra},
    {"scattered L2 hit, near",
     profiled_listing,
     {.l2_hit = 1.0, .source = far_source, .sets = "l2.far_extra_cycles=500"},
     332,
     {[STALL_SELECTED] = 3, [STALL_LONG_SCOREBOARD] = 329},
     near_extra},
    {"scattered L2 hit, far partition",
     profiled_listing,
     {.l2_hit = 1.0, .l2_far = 1.0, .source = far_source, .sets = "l2.far_extra_cycles=500"},
     832,
     {[STALL_SELECTED] = 3, [STALL_LONG_SCOREBOARD] = 829},
     far_extra},
    /* far_extra_cycles 0 (the default): a far hit costs an L2 hit */
    {"scattered L2 hit, far, no extra",
     profiled_listing,
     {.l2_hit = 1.0, .l2_far = 1.0, .source = far_source},
     332,
     {[STALL_SELECTED] = 3, [STALL_LONG_SCOREBOARD] = 329},
     near_extra},
    {"scattered DRAM load, a line per sector",
     profiled_listing,
     {.source = far_source},
     930,
     {[STALL_SELECTED] = 3, [STALL_LONG_SCOREBOARD] = 927},
     scattered_dram_extra},
    {"scattered DRAM load, DRAM's bytes scaled",
     profiled_listing,
     {.source = far_source, .dram_scale = 2.13},
     930,
     {[STALL_SELECTED] = 3, [STALL_LONG_SCOREBOARD] = 927},
     scattered_scale_extra},
    {"scattered DRAM load, 139 bytes per sector",
     profiled_listing,
     {.source = far_source, .sets = "class_global.scattered_dram_bytes=139"},
     953,
     {[STALL_SELECTED] = 3, [STALL_LONG_SCOREBOARD] = 950},
     scattered_dram_extra},
    {"two spill loads that miss L1",
     two_spills,
     {.spill_miss = TRUE, .sets = "spill.bytes_per_cycle=128"},
     311,
     {[STALL_SELECTED] = 4, [STALL_LONG_SCOREBOARD] = 307},
     NULL},
    {"three spill stores that miss L1",
     three_stores,
     {.spill_miss = TRUE, .sets = "spill.bytes_per_cycle=128"},
     307,
     {[STALL_SELECTED] = 4, [STALL_DRAIN] = 303},
     NULL},
    /* Without stores_hold_lines the store holds no slot: the LDG issues at 1,
     * but the store's line keeps DRAM's one random-line channel until 7.44
     * (128 / 17.2): data at 704.44 -> 705; FADD 705, EXIT 706, retire 707;
     * long_scoreboard 2..704. */
    {"store holds none",
     store_load,
     {.sets = ONE_SLOT ";class_global.stores_hold_lines=false"},
     707,
     {[STALL_SELECTED] = 4, [STALL_LONG_SCOREBOARD] = 703},
     NULL},
    /* [class_global] dram_store_line_b1 = 0.5 (streams of writes, one CTA
     * resident: its one-line store takes half a line's DRAM time): the store
     * keeps DRAM's channel until 3.72 (64 / 17.2), the LDG's data at 700.72
     * -> 701; FADD 701, EXIT 702, retire 703; long_scoreboard 2..700. */
    {"store streams, one CTA",
     store_load,
     {.sets = ONE_SLOT ";class_global.stores_hold_lines=false;class_global.dram_store_line_b1=0.5"},
     703,
     {[STALL_SELECTED] = 4, [STALL_LONG_SCOREBOARD] = 699},
     NULL},
    /* dram_store_line_b1 = 0 is off: the other three keys change nothing
     * ("store holds none": 707). */
    {"store streams off",
     store_load,
     {.sets =
          ONE_SLOT ";class_global.stores_hold_lines=false;class_global.dram_store_line_b8=0.5"
                   ";class_global.dram_store_lines_b1=0.5;class_global.dram_store_lines_b8=0.5"},
     707,
     {[STALL_SELECTED] = 4, [STALL_LONG_SCOREBOARD] = 703},
     NULL},
};

START_TEST(test_case) {
  sassrun_case(&cases[_i]);
}
END_TEST

int main(void) {
  TCase *tc = tcase_create("sass_memory");
  tcase_add_loop_test(tc, test_case, 0, G_N_ELEMENTS(cases));
  tcase_set_timeout(tc, 60);
  Suite *s = suite_create("sm_memory");
  suite_add_tcase(s, tc);
  g_autoptr(SRunner) sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
