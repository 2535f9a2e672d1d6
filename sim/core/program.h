/* program.h - what a warp executes: a program of instructions indexed by pc.
 *
 * This is the interface between an instruction source and the SM.  A source
 * (the synthetic loop of synth.c, a SASS listing in sassprog.c) builds a
 * Program once per run and a ProgramMemory once per launch; every warp walks it with its own pc,
 * branch counters and scoreboard, so memory is proportional to the program, never to the
 * instructions simulated.  After a warp issues `code[pc]` its next pc is
 * pc + 1, unless the instruction's branch is taken (program_next_pc).
 */
#ifndef WARPSIM_PROGRAM_H
#define WARPSIM_PROGRAM_H

#include <glib.h>

/* Opcode classes: what the SM does with an instruction.  A SASS opcode maps
 * to one of these (FFMA/FADD/FMUL -> OP_FFMA, IMAD/IADD3/ISETP -> OP_IALU,
 * ...); SimStats.ops[] counts issues per class. */
typedef enum {
  OP_FFMA, /* FP32 fused multiply-add (fma pipe) */
  OP_IALU, /* integer op (alu pipe) */
  OP_BRA,  /* branch (alu pipe); the warp waits [branch] latency after it */
  OP_MUFU, /* special function (sfu pipe) */
  OP_LDS,  /* shared-memory load (SM-wide shared-memory unit) */
  OP_LDG,  /* global load (lsu, then the memory level) */
  OP_LDL,  /* local-memory load of a spilled value (lsu, then L1) */
  OP_STL,  /* local-memory store of a spilled value (lsu, then L1) */
  OP_BAR,  /* __syncthreads (BAR.SYNC) */
  OP_EXIT, /* end of the warp */
  /* SASS programs (sassprog.c) also use: */
  OP_FP32,    /* other FP32 (FADD, FMUL, FMNMX...: fma pipe) */
  OP_FP64,    /* FP64 (fp64 pipe) */
  OP_TENSOR,  /* tensor core (tensor pipe) */
  OP_CONV,    /* conversion (sfu pipe) */
  OP_UNIFORM, /* uniform datapath (uniform pipe) */
  OP_STG,     /* global store (lsu, then the memory levels; nothing waits on it) */
  OP_STS,     /* shared-memory store or atomic (SM-wide shared-memory unit) */
  OP_SHFL,    /* warp shuffle (SM-wide shared-memory crossbar) */
  OP_MISC,    /* control and special registers (no pipe) */
  OP_IMAD,    /* integer multiply-add of SASS programs (the fma pipe's heavy half) */
  OP_MAX
} InstrOp;

/* Execution units.  fma, alu, sfu and lsu are per SMSP; smem is SM-wide. */
typedef enum {
  PIPE_FMA,
  PIPE_ALU,
  PIPE_SFU,
  PIPE_SMEM,
  PIPE_LSU,
  PIPE_NONE,
  PIPE_FP64,     /* per SMSP (SASS programs) */
  PIPE_TENSOR,   /* per SMSP (SASS programs) */
  PIPE_UNIFORM,  /* per SMSP (SASS programs) */
  PIPE_FMAHEAVY, /* per SMSP (SASS programs): the half of the fma pipe that also runs IMAD */
  PIPE_MAX
} InstrPipe;

#define INSTR_NO_SLOT 0xffff    /* dst/src: no value slot */
#define INSTR_MAX_SRC 3         /* value slots one instruction reads */
#define INSTR_SB_BARRIERS 6     /* scoreboard barriers per warp (SASS SB0..SB5) */
#define INSTR_NO_SB 0xff        /* sb_write: sets no scoreboard barrier */
#define PROGRAM_MAX_COUNTERS 64 /* per-warp branch counters */
#define PROGRAM_CP_GROUPS 8     /* cp.async groups a warp's history keeps (Instr cp_keep) */

/* One instruction.  Dependencies are value slots: the warp's scoreboard keeps
 * the cycle each slot's value is ready; an instruction waits for its `src`
 * slots and for the scoreboard barriers in `wait_mask`, and its result makes
 * `dst` (and barrier `sb_write`) ready after its latency or memory access. */
typedef struct {
  guint8 op;                  /* InstrOp */
  guint8 pipe;                /* InstrPipe */
  guint8 n_src;               /* value slots read (<= INSTR_MAX_SRC) */
  guint8 conflict;            /* FFMA reading two operands from one register bank */
  guint8 scattered;           /* global access: a gather (sassmem_scattered), with its own L2
                                 hit rate (sassmem_l2_split); LDL/STL: a register-indexed
                                 local array (twice its lanes' sectors or more), timed per
                                 sector ([spill] scattered_*_sector_cycles) */
  guint8 dispatch;            /* cycles the SMSP's dispatch is held (0 or 1: the next cycle
                                 is free; FP64 operands take 2) */
  guint8 stall;               /* cycles before the same warp's next issue (SASS stall
                                 count); 0 or 1 = the next cycle */
  guint8 yield;               /* 1: SASS yield hint (control bit 45 clear): after it issues,
                                 another ready warp of the SMSP goes first ([sched] yield) */
  guint8 wait_mask;           /* scoreboard barriers waited on (bit b = SBb) */
  guint8 sb_write;            /* scoreboard barrier set until the result is ready, or
                                 INSTR_NO_SB */
  guint8 has_branch;          /* the branch fields below apply */
  guint16 dst;                /* value slot written, or INSTR_NO_SLOT */
  guint16 src[INSTR_MAX_SRC]; /* value slots read; unused ones INSTR_NO_SLOT */
  guint16 ways;               /* LDS: bank-conflict degree (cycles of the unit) */
  guint16 latency;            /* cycles to the result; 0 = its pipe's model latency */
  guint8 interval;            /* cycles its pipe stays busy; 0 = the pipe's model interval */
  guint8 sb_read;             /* scoreboard barrier set until its source registers are read
                                 (`read_latency` cycles after issue), or INSTR_NO_SB */
  guint8 read_latency;        /* cycles after issue its source registers are read */
  guint8 cp_async;            /* cp.async (SASS): 1 = LDGSTS, its copy joins the warp's open
                                 group; 2 = LDGDEPBAR, it closes the group and sets `sb_write`
                                 until all but `cp_keep` of the warp's closed groups are done
                                 (the DEPBAR.LE SBn, cp_keep that waits on it); TMA bulk copies
                                 ([bulk], sm.c sm_bulk): 3 = UBLKCP, the CTA's next copy of
                                 `bytes` (0: unknown, its fixed latency alone); 4 =
                                 SYNCS.PHASECHK (mbarrier try_wait), its result is ready when
                                 the CTA's copy numbered by the warp's waits so far is in; 5 =
                                 a retry of the same wait (a PHASECHK branching back to
                                 itself); 0 = none of these */
  guint8 membar;              /* 1: a GPU- or system-scope memory barrier (MEMBAR.*.GPU, .SYS):
                                 the warp's next instruction waits for it ([membar]); 2: the
                                 cluster barrier's wait (UCGABAR_WAIT, an OP_BAR released
                                 [barrier] cluster_latency later than a CTA barrier) */
  guint8 cp_keep;             /* LDGDEPBAR: groups its DEPBAR leaves outstanding
                                 (< PROGRAM_CP_GROUPS) */
  /* Memory access (OP_LDG, OP_LDL, OP_STL, OP_STG): */
  guint8 level;      /* MemLevel it is served from (mem.h); MEM_LEVELS: drawn per access
                        from the launch's hit rates (SmLaunch) */
  guint8 lines;      /* L1 lines a SASS request touches: miss slots it holds when it misses */
  guint8 l1tex;      /* the data passes the L1TEX data path the shared-memory unit uses */
  guint8 tex;        /* texture fetch ([texture], sm_memory.c): 1 = TEX or TLD4 (a
                        sampler fetch), 2 = TLD (a texel fetch by index); 0 = none */
  guint8 line_cost;  /* DRAM: lines whose transfer time one access costs (a scattered
                        access pays a whole line per sector); 0 = its bytes */
  guint8 sequential; /* lines of one access share a server (streaming) */
  guint8 atomic;     /* OP_LDG: a global atomic served by the L2 atomic unit ([l2]
                        atomic_sectors_per_cycle): 0 no, 1 a reduction (RED), 2 one that
                        returns a value (ATOM), 3 a compare-and-swap (ATOM.CAS) */
  gfloat atomic_gpu_cycles; /* atomic 1 or 2 on a few words: cycles the device's contended
                               atomics take per request (its lanes / the device's lane atomics
                               per cycle on its words, sassspan.h); the SM's share of them is
                               this x the SMs busy (SmLaunch busy_sms); 0 = none */
  guint8 dsmem;             /* an access to a peer CTA's shared memory (distributed shared
                               memory, [dsmem], sm_memory.c): 1 = a load (OP_LDG), 2 = a store
                               (OP_STG), served by the SM's DSMEM port, not the memory levels;
                               0 = none */
  guint16 lane_bytes;       /* bytes per active thread (LDL/STL); 0: `bytes` per warp */
  guint16 partial_bytes;    /* DRAM: extra bytes of DRAM time per access for the sectors a
                               misaligned contiguous access reads or writes in part; 0 = none */
  guint32 bytes;            /* bytes per warp-access when lane_bytes is 0 */
  /* Branch (has_branch): with `fall` = 0, after issue the warp's counter
   * `counter` is incremented; while it stays below `trips` the warp
   * continues at `target`, else the counter resets to 0 and the warp falls
   * through.  With `fall` > 0 (a taken ratio from a profile, Bresenham's
   * rule): the counter gains `fall`; when it reaches `trips` it loses `trips`
   * and the warp falls through, else it takes the branch: the branch falls
   * through `fall` times in every `trips`, taken first. */
  guint32 target; /* pc when taken */
  guint32 trips;  /* times the branch is reached per loop (taken trips - 1 times) */
  guint32 fall;   /* Bresenham: fall-throughs per `trips` executions; 0 = loop counter */
  guint8 counter; /* per-warp counter index, < PROGRAM_MAX_COUNTERS */
} Instr;

/* A warp-role branch: one that every warp reaches once and that sends a
 * share of them each way (warp-specialised code: `if (threadIdx.x < 64)
 * produce(); else consume();`).  round(taken x warps per CTA) warps of each
 * CTA, the first by index (the last with `upper`), start `counter` at its
 * counter_init (taken first); the others at fall_init (they fall through
 * first). */
typedef struct {
  guint8 counter;    /* the branch's counter, < PROGRAM_MAX_COUNTERS */
  gboolean upper;    /* the CTA's last warps take it, not its first */
  guint32 fall_init; /* the counter value that makes its first execution fall through */
  gdouble taken;     /* share of the warps that take it, 0 < taken < 1 */
} ProgramRole;

/* A program: its instructions, the value slots a warp needs and where warps
 * start and end. */
typedef struct {
  Instr *code;        /* n instructions, owned; ends with an OP_EXIT */
  guint n;            /* instructions */
  guint n_slots;      /* value slots a warp's scoreboard needs */
  guint entry;        /* pc a warp starts at */
  guint exit_pc;      /* pc of an OP_EXIT (warps that exit at once start here) */
  guint64 warp_insts; /* warp instructions one warp issues from entry to EXIT */
  guint32 counter_init[PROGRAM_MAX_COUNTERS]; /* a warp's branch counters at its start (0: a
                                                 Bresenham branch is taken first) */
  guint n_roles;                              /* entries of roles */
  ProgramRole roles[PROGRAM_MAX_COUNTERS];    /* branches that split a CTA's warps by index */
} Program;

/* How a program's global memory instructions are served at one launch:
 * the other half of the interface between an instruction source and the SM.
 * The source fills it once per launch (sassmem_launch_memory for a SASS
 * kernel, synth_launch_memory for a synthetic one); the SM core reads it and
 * never asks which source built the program.  Loads whose Instr level is
 * MEM_LEVELS draw their level from the hit rates; the switches turn on
 * mechanisms measured for SASS kernels (results/reference/h200/real8/) that a
 * synthetic kernel leaves off, except the per-warp DRAM cap
 * (warp_max_inflight), which both sources set (doc/sass.md "A warp's DRAM
 * loads in flight", doc/model.md "A warp's DRAM lines in flight"). */
typedef struct {
  gdouble load_l1_hit;           /* probability a drawn global load hits in L1 */
  gdouble load_l2_hit;           /* the L2 hit rate of drawn loads that miss L1, all loads (what
                                    SimResult reports) */
  gdouble load_l2_hit_coalesced; /* the same for a coalesced load (the misses fall on these
                                    first, sassmem_l2_split) */
  gdouble load_l2_hit_scattered; /* the same for a scattered one */
  gdouble bulk_l2_hit;           /* probability a TMA bulk copy (UBLKCP) is served by L2, not
                                    DRAM (it passes no L1): the share of the launch's data a
                                    launch before it left in L2 (sassmem_l2_reuse), else 0 */
  gdouble load_l2_far_scattered; /* probability that a scattered load that hits L2 is served by
                                    the far L2 partition and waits [l2] far_extra_cycles more
                                    (sassmem_l2_far; 0 = never) */
  guint max_inflight;            /* L1 lines missing at once per SM; 0 = the model's [mem]
                                    max_inflight warp-loads */
  guint warp_max_inflight;       /* lines of DRAM-bound loads one warp has missing before its
                                    next global load (OP_LDG) waits; 0 = no cap */
  gdouble dram_write_cost;       /* DRAM time of a stored byte with no reads, in read bytes
                                    (1 = as a read) */
  gdouble dram_turnaround;       /* more DRAM time of a stored byte per unit of the reads' share
                                    of the SM's DRAM bytes so far (0 = none) */
  gboolean l1_cycle_per_line;    /* a scattered access keeps L1 one cycle per line, hit or miss */
  guint scattered_dram_bytes;    /* DRAM time, in bytes, of a scattered load (OP_LDG) per
                                    sector it touches; 0 = a line ([mem] line_bytes) */
  gboolean stores_hold_lines;    /* a store that leaves L1 holds its lines of max_inflight until
                                    written; stores wait while none is free */
  gdouble scattered_dram_scale;  /* DRAM bytes a scattered load (OP_LDG, line_cost > 0) served by
                                    DRAM counts (SimStats level_bytes) per byte of its sectors;
                                    its DRAM time is scattered_dram_bytes's (<= 1 = its sectors) */
  gdouble store_streams[4];      /* DRAM time of a stored byte (SASS, through L1TEX) relative to
                                    dram_write_cost's: a one-line warp-store at 1 and at >= 8
                                    resident CTAs per SM, a warp-store of more lines at 1 and
                                    >= 8, linear in between; [0] = 0: off (all 1) */
  gdouble store_l2[2];           /* fraction (0..1) of the global stores through L1TEX (not
                                    atomics) that L2 keeps, not written to DRAM: one-line
                                    warp-stores [0], more lines [1] (sassmem_store_dram); 0 = all
                                    to DRAM */
  gboolean miss_refills_l1;      /* a drawn load that misses L1 and does not pass the L1TEX data
                                    stage (Instr l1tex 0) still brings its data through L1, at
                                    L1's bandwidth (a synthetic L1 footprint) */
} ProgramMemory;

/* The pc after `in` (at `pc`) issues, given the warp's branch `counters`
 * (updated).  Inline: the issue loop calls it for every instruction. */
static inline guint program_next_pc(const Instr *in, guint pc, guint32 *counters) {
  if (!in->has_branch)
    return pc + 1;
  if (in->fall > 0) {
    guint32 c = counters[in->counter] + in->fall;
    if (c >= in->trips) {
      counters[in->counter] = c - in->trips;
      return pc + 1;
    }
    counters[in->counter] = c;
    return in->target;
  }
  if (++counters[in->counter] < in->trips)
    return in->target;
  counters[in->counter] = 0;
  return pc + 1;
}

/* Short mnemonic of `op`, e.g. "FFMA" ("?" when out of range). */
const gchar *program_op_name(InstrOp op);

/* Checks the structure a source must produce (slots below n_slots, branch
 * targets and counters in range, a final EXIT, entry and exit_pc in range);
 * FALSE with a message in *why (static) when it does not hold. */
gboolean program_check(const Program *p, const gchar **why);

void program_free(Program *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Program, program_free)

#endif
