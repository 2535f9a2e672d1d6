/* opclass.h - the opcode classes of SASS instructions: which pipe an opcode
 * issues to, its latency and issue interval, read from the model file's
 * [class_<name>] groups (models/h200.ini cites the source of each number).
 */
#ifndef WARPSIM_OPCLASS_H
#define WARPSIM_OPCLASS_H

#include <glib.h>

typedef enum {
  OPCLASS_FP32,    /* FFMA, FADD, FMUL, FMNMX...: fma pipe */
  OPCLASS_INT,     /* IMAD, IADD3, LOP3, SHF, ISETP...: alu pipe */
  OPCLASS_FP64,    /* DFMA, DADD...: fp64 pipe */
  OPCLASS_MUFU,    /* MUFU.EX2, RSQ, RCP...: sfu pipe */
  OPCLASS_TENSOR,  /* HMMA, HGMMA...: tensor pipe */
  OPCLASS_CONV,    /* F2I, I2F, F2F...: sfu pipe */
  OPCLASS_GLOBAL,  /* LDG, STG, LDL, STL, ATOM, RED...: lsu, then the memory levels */
  OPCLASS_SHARED,  /* LDS, STS, ATOMS, LDSM: the SM-wide shared-memory unit */
  OPCLASS_SHUFFLE, /* SHFL, MATCH, REDUX: the SM-wide shared-memory unit (MIO) */
  OPCLASS_UNIFORM, /* ULDC, UIADD3, UMOV...: uniform pipe */
  OPCLASS_CONTROL, /* BRA, BSSY, BSYNC, EXIT, BAR, WARPSYNC, NOP...: no pipe */
  OPCLASS_SPECIAL, /* S2R, CS2R, S2UR, LDC: special registers and constants, no pipe */
  OPCLASS_IMAD,    /* IMAD, IMUL, IDP...: the fma pipe's heavy half (GH100), apart from FP32 */
  OPCLASS_MAX
} OpClass;

/* Table sizes [class_special] indexed_table_bytes lists at most. */
#define OPCLASS_MAX_INDEXED_TABLES 8

/* One class as the model file gives it. */
typedef struct {
  gchar *opcodes;              /* ';'-separated base opcodes, owned */
  gchar *timing;               /* per-opcode timing, owned: ';'-separated OPCODE[.MOD...]:
                                  LATENCY:INTERVAL items (opclass_timing); NULL or "": none */
  guint latency;               /* cycles until a result waited on through a scoreboard is written */
  guint interval;              /* cycles the class's pipe stays busy per warp instruction (shuffle:
                                  cycles of the SM-wide shared-memory unit, in [smem] intervals) */
  guint read_latency;          /* global, shared: cycles after issue a store's registers are read */
  guint dispatch;              /* fp64: cycles the SMSP's dispatch is held per warp instruction
                                  (operand reads; 0 or 1 = the next cycle is free) */
  guint indexed_latency;       /* special: cycles to the result of an LDC with a per-thread
                                  register address, from when the SM-wide shared-memory unit
                                  starts it (0 = timed as a uniform LDC) */
  guint indexed_interval;      /* special: cycles of the SM-wide shared-memory unit such an LDC
                                  takes (0 = off) */
  gdouble match_key_interval;  /* shuffle: cycles of the SM-wide shared-memory unit a MATCH
                                  takes per distinct key (its timing is for 32 keys; a key the
                                  listing bounds to fewer takes this much less per key missing;
                                  0 = off) */
  gdouble match_key_latency;   /* shuffle: cycles of a MATCH's latency per distinct key, the
                                  same way (0 = off) */
  guint lines_in_flight;       /* global: L1 lines missing at once per SM (0 = no cap) */
  guint warp_lines_in_flight;  /* global: DRAM-bound lines missing per warp (0 = no cap) */
  gdouble write_cost;          /* global: DRAM time of a stored byte, in read bytes, with no
                                  reads */
  gdouble dram_turnaround;     /* global: more DRAM time of a stored byte, in read bytes, per
                                  unit of the reads' share of the SM's DRAM bytes */
  gboolean stores_hold_lines;  /* global: a store that leaves L1 holds lines_in_flight slots
                                  until its write is done */
  gboolean l1_cycle_per_line;  /* global: a scattered access keeps L1 busy one cycle per line
                                  it touches (a wavefront each), hit or miss */
  gdouble partial_load_bytes;  /* global: extra DRAM time, in read bytes, per sector a
                                  contiguous load reads in part (misaligned) */
  gdouble partial_store_bytes; /* global: the same per sector a contiguous store writes in
                                  part, in stored bytes (times write_cost) */
  guint scattered_dram_bytes;  /* global: DRAM time, in bytes at [dram] bytes_per_cycle, a
                                  scattered load takes per sector it touches (0 = a whole
                                  line, [mem] line_bytes; else at least [mem] sector_bytes,
                                  model_load refuses less; above a line when a random line
                                  costs more: 139 measured at 1 GiB, l2flight/gather.csv) */
  gdouble store_streams[4];    /* global: DRAM time of a stored byte relative to write_cost's,
                                  of a one-line warp-store at 1 and at >= 8 resident CTAs per
                                  SM, then of a warp-store of more lines at 1 and >= 8 (linear
                                  in between); [0] = 0: off (dram_store_line_b1 ...) */
  /* special: [class_special] indexed_table_bytes (__constant__ table sizes, strictly
   * ascending) with one indexed_table_latency and one indexed_table_interval entry each
   * (indexed_latency / indexed_interval for a kernel whose table is that size), and the
   * lists' lengths (0 = none) */
  guint indexed_table_bytes[OPCLASS_MAX_INDEXED_TABLES];
  guint indexed_table_latency[OPCLASS_MAX_INDEXED_TABLES];
  guint indexed_table_interval[OPCLASS_MAX_INDEXED_TABLES];
  guint n_indexed_tables, n_indexed_table_latency, n_indexed_table_interval;
} OpClassModel;

/* The class's name as in its model group ("fp32" for [class_fp32]). */
const gchar *opclass_name(OpClass c);

/* The class of base opcode `opcode` (e.g. "LDG") in `table`
 * (OPCLASS_MAX entries); OPCLASS_MAX when no class names it. */
OpClass opclass_lookup(const OpClassModel *table, const gchar *opcode);

/* The timing of an instruction of base opcode `opcode` with modifiers
 * `mods` (".HI.U32", "" for none) in class `cm`: the class's latency and
 * interval, unless an item of cm->timing names the opcode with a leading
 * part of its modifiers ("IMAD.HI" for IMAD.HI.U32, "IMAD" for IMAD.MOV.U32;
 * the longest such item wins), whose latency and interval are taken.
 * Returns that item's name (a new string), or NULL when none names it.  The
 * list is checked when the model is read (opclass_timing_check). */
gchar *opclass_timing(const OpClassModel *cm, const gchar *opcode, const gchar *mods,
                      guint *latency, guint *interval);

/* TRUE when `list` is a valid timing list for a class of base opcodes
 * `opcodes`: ';'-separated OPCODE[.MOD...]:LATENCY:INTERVAL items, each
 * OPCODE in `opcodes`, each name once, latency 1..100000 and interval 1..255
 * cycles.  Otherwise FALSE with *why (a new string) saying which item and
 * what is wrong. */
gboolean opclass_timing_check(const gchar *list, const gchar *opcodes, gchar **why);

/* The class assumed for an opcode no class names, by its first letters
 * (U: uniform, D: fp64, F or H: fp32, LD/ST: memory; else integer). */
OpClass opclass_guess(const gchar *opcode);

#endif
