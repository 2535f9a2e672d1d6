/* sass.h - a kernel's machine code (SASS) read from a cuobjdump -sass or
 * nvdisasm listing: per instruction its offset, opcode and modifiers, guard
 * predicate, destination and source registers, branch target and the
 * control bits of its 128-bit encoding.
 *
 * Control bits (Volta and later: sm_70 .. sm_90, 128-bit instructions).  The
 * 23 bits at 105..125 of the 128-bit word, i.e. bits 41..61 of the second
 * (upper) 64-bit word the listing prints, are (Jia, Maggioni, Staiger,
 * Scarpazza, "Dissecting the NVIDIA Volta GPU Architecture via
 * Microbenchmarking", arXiv:1804.06826, 2018, section 2.1, figure 2.2):
 *   bits 41..44  stall count: cycles before this warp's next instruction may issue (0..15)
 *   bit  45      yield flag (as encoded; clear = the hint, read by [sched] yield)
 *   bits 46..48  write scoreboard: dependency barrier (0..5) this variable-latency
 *                instruction sets until its result is written; 7 = none
 *   bits 49..51  read scoreboard: barrier set until its source registers are read; 7 = none
 *   bits 52..57  wait mask: barriers (bit i = barrier i) that must clear before it issues
 *   bits 58..61  operand reuse flags (operand slots a, b, c, d)
 * Checked on the H200 listings in results/reference/h200/real/sass/: every
 * variable-latency producer (S2R, LDG, LDS, MUFU, SHFL...) sets a write
 * barrier that the first reader of its destination waits on (tests/check_sass.c).
 */
#ifndef WARPSIM_SASS_H
#define WARPSIM_SASS_H

#include <glib.h>

typedef enum {
  SASS_REG_R,  /* general register R0..R254 */
  SASS_REG_P,  /* predicate P0..P6 */
  SASS_REG_UR, /* uniform register UR0..UR62 */
  SASS_REG_UP, /* uniform predicate UP0..UP6 */
  SASS_REG_MAX
} SassRegFile;

typedef struct {
  guint8 file;  /* SassRegFile */
  guint8 index; /* first register */
  guint8 count; /* consecutive registers: 1, 2 (.64), 4 (.128) */
} SassReg;

#define SASS_NO_BARRIER 7 /* write/read scoreboard field: none */
#define SASS_BARRIERS 6   /* dependency barriers (scoreboards) per warp */
#define SASS_MAX_DST 4
#define SASS_MAX_SRC 8

typedef struct {
  guint8 stall;     /* cycles, 0..15 */
  guint8 yield;     /* yield bit as encoded */
  guint8 write_sb;  /* barrier 0..5, SASS_NO_BARRIER = none */
  guint8 read_sb;   /* barrier 0..5, SASS_NO_BARRIER = none */
  guint8 wait_mask; /* bit i: waits on barrier i */
  guint8 reuse;     /* operand reuse flags, 4 bits */
} SassCtrl;

/* Bytes per instruction: sm_70 and later encode every instruction in 128
 * bits (the two 64-bit words of each listing line; the parser checks that
 * offsets advance by this).  Instruction i is at offset i * SASS_INSTR_BYTES. */
#define SASS_INSTR_BYTES 16

typedef struct {
  guint32 offset;     /* bytes from the function's start */
  guint line;         /* line of the listing (1-based) */
  gchar *opcode;      /* base opcode, e.g. "LDG", owned */
  gchar *mods;        /* modifiers with their dots, e.g. ".E.128", "" when none; owned */
  gchar *text;        /* instruction text without offset and encoding, owned */
  gint8 guard;        /* guard predicate index, -1 = none (or PT) */
  guint8 guard_file;  /* SASS_REG_P or SASS_REG_UP */
  gboolean guard_neg; /* guard is negated (@!P0) */
  guint8 n_dst, n_src;
  SassReg dst[SASS_MAX_DST]; /* registers written (RZ, PT, URZ, UPT left out) */
  SassReg src[SASS_MAX_SRC]; /* registers read, including address registers */
  gint64 target;             /* branch target offset in bytes; -1 = none */
  guint64 enc[2];            /* the two 64-bit words of the encoding */
  SassCtrl ctrl;             /* decoded from enc[1] */
} SassInstr;

typedef struct {
  gchar *name;       /* mangled name as in the listing, owned */
  gchar *demangled;  /* demangled name (the mangled one when it does not demangle), owned */
  gchar *file;       /* listing it came from, owned */
  guint line;        /* listing line of its header (1-based) */
  guint arch;        /* SM version, e.g. 90 for sm_90 */
  gchar arch_suffix; /* 'a' for sm_90a (runs on its own compute capability only), 'f' for
                        sm_100f (family-specific), 0 for none */
  SassInstr *ins;    /* instructions in address order, owned */
  guint n;           /* number of instructions */
} SassFunction;

/* The architectures whose listings are read (sass.c says how each was checked). */
#define SASS_ARCHS "sm_80, sm_86, sm_87, sm_89, sm_90, sm_100, sm_120, sm_121"

#define SASS_ERROR (sass_error_quark())
GQuark sass_error_quark(void);
typedef enum {
  SASS_ERROR_NOT_FOUND, /* unreadable file */
  SASS_ERROR_PARSE,     /* not a SASS listing, or a malformed instruction, e.g. a BRA, JMP,
                           BSSY or CALL without a target (message: FILE:LINE) */
  SASS_ERROR_ARCH,      /* an architecture whose listings are not read (SASS_ARCHS), or
                           one the model's GPU cannot run (sass_check_arch) */
  SASS_ERROR_FUNCTION,  /* no function matches, or several do (message lists them) */
} SassError;

/* Read the listing at `path` and decode the function `function`: its mangled
 * name exactly, or a substring of exactly one function's demangled name
 * (of a function with sections for several architectures, its sm_90 one,
 * else its first; sass_load_for picks by the GPU).
 * Returns a new SassFunction (sass_function_free) or NULL with SASS_ERROR;
 * messages start "FILE:LINE: " where a line is at fault. */
SassFunction *sass_load(const gchar *path, const gchar *function, GError **error);

/* Same, from listing text; `origin` names it in messages. */
SassFunction *sass_load_data(const gchar *text, gsize len, const gchar *origin,
                             const gchar *function, GError **error);

/* The GPU a listing is read for: a model's name (for messages) and its
 * compute capability. */
typedef struct {
  const gchar *model_name;
  guint cc_major, cc_minor;
} SassGpu;

/* sass_load for the GPU `gpu` (NULL: as sass_load, unchecked): of the
 * function's sections (cuobjdump of a fat binary prints one per
 * architecture, each after its `arch = sm_XX` header), the one compiled for
 * its compute capability, else the latest one it runs by binary
 * compatibility; then checked with sass_check_arch (a section run by
 * compatibility: one line on `warnings`, may be NULL).  When the function
 * has several sections and none runs on the GPU: SASS_ERROR_ARCH on one
 * line naming each section's architecture and line, and the model; with
 * one section, sass_check_arch's error. */
SassFunction *sass_load_for(const gchar *path, const gchar *function, const SassGpu *gpu,
                            GString *warnings, GError **error);

/* Same, from listing text. */
SassFunction *sass_load_data_for(const gchar *text, gsize len, const gchar *origin,
                                 const gchar *function, const SassGpu *gpu, GString *warnings,
                                 GError **error);

/* Every function of the listing at `path`, in listing order (a new array
 * of SassFunction, freed with it), or NULL with SASS_ERROR as sass_load;
 * an empty listing or one with an architecture not read is refused. */
GPtrArray *sass_load_all(const gchar *path, GError **error);

/* Whether code compiled for SM version `arch` (90 for sm_90) with suffix
 * `suffix` (SassFunction's arch_suffix) runs on a GPU of compute capability
 * major.minor.  The rule is CUDA's binary compatibility (CUDA C++
 * Programming Guide, "Binary Compatibility"; the same test as LLVM
 * libomptarget's CUDA plugin: "a cubin generated for a certain compute
 * capability is supported to run on any GPU with the same major revision
 * and same or higher minor revision"); arch-specific code (sm_90a) runs
 * only on its own compute capability (CUDA Programming Guide, "Feature
 * Availability").  A cubin that runs on a later minor revision keeps its
 * instruction encoding (it is not recompiled), so its listing is what that
 * GPU executes; only ptxas's choices (stall counts) were made for `arch`. */
typedef enum {
  SASS_ARCH_SAME,       /* compiled for this compute capability */
  SASS_ARCH_COMPATIBLE, /* same major, lower minor: the binary runs unchanged */
  SASS_ARCH_FOREIGN,    /* another major, a higher minor, or arch-specific for another */
} SassArchFit;
SassArchFit sass_arch_fit(guint arch, gchar suffix, guint cc_major, guint cc_minor);

/* TRUE when a GPU of compute capability cc_major.cc_minor runs a listing of
 * some architecture that is read (SASS_ARCHS), by sass_arch_fit: whether a
 * model of that GPU can run any SASS listing at all (it also needs opcode
 * classes).  9.0 and 8.9: TRUE; 11.0 (sm_110 not read) and 7.5: FALSE. */
gboolean sass_cc_runs_read_arch(guint cc_major, guint cc_minor);

/* Check function `f` against the GPU of model `model_name` (compute
 * capability cc_major.cc_minor): SASS_ARCH_FOREIGN is SASS_ERROR_ARCH
 * naming both ("FILE:LINE: function 'F' is compiled for sm_89, which model
 * 'h200' (compute capability 9.0) cannot run ..."); SASS_ARCH_COMPATIBLE
 * appends one warning line to `warnings` (may be NULL) saying why it runs. */
gboolean sass_check_arch(const SassFunction *f, const gchar *model_name, guint cc_major,
                         guint cc_minor, GString *warnings, GError **error);

/* Decode the control bits of `hi`, the second 64-bit word of an encoding. */
void sass_ctrl_decode(guint64 hi, SassCtrl *out);

/* The comparable key of a demangled (or Nsight Compute) kernel name: the
 * qualified name with template arguments, without return type, parameter
 * list, value casts ("(int)0" -> "0") and spaces; e.g. "void
 * k_transpose<(int)0>(float *, int)" -> "k_transpose<0>".  A mangled name
 * ("_Z7k_saxpyPfPKffiP3RecS_", Nsight Compute's --print-kernel-base
 * mangled) is demangled first, so every name base of one kernel has the
 * same key.  Newly allocated. */
gchar *sass_name_key(const gchar *name);

/* Whether names `a` and `b` (demangled by either demangler, or mangled:
 * demangled first) have the same parameter list, telling overloads of one
 * name key apart: TRUE when either has none (Nsight Compute's
 * --print-kernel-base function prints the base name alone), else the same
 * number of parameters of the same types, spacing and the place of const
 * aside ("const float *" is "float const*"); a parameter Nsight Compute
 * prints as a template parameter (T1, T2, ...: "void k<1, float>(T2 *)")
 * or one that is not a plain type (a function pointer, an array) matches
 * any. */
gboolean sass_name_same_params(const gchar *a, const gchar *b);

/* Index of the instruction at byte `offset`, or -1. */
gint sass_find_offset(const SassFunction *f, guint32 offset);

/* Byte offset of the nearest target (SassInstr target, of any instruction)
 * at or before instruction i: where i's basic block starts for a walk back
 * from i, which must also stop at an instruction with a target (the block it
 * ends); -1 when nothing targets i or an instruction before it.  Used by
 * sassmem.c and sassspan.c. */
gint64 sass_block_start(const SassFunction *f, guint i);

/* Registers per thread the function needs by its listing: one past the
 * highest general register any instruction reads or writes (spans included),
 * plus 2.  Measured: ptxas -v "Used N registers" equals this on the 16 sm_90
 * functions of results/reference/h200/real/, real2/ and spill_sass/ (31 to 64
 * registers).  *line gets the listing line of that highest register's first
 * use (0 when the function uses none, and 2 is returned). */
guint sass_function_regs(const SassFunction *f, guint *line);

/* TRUE when `a` and `b` share a register (same file, overlapping spans). */
gboolean sass_reg_overlaps(const SassReg *a, const SassReg *b);

/* Predicates on one decoded instruction, shared by the program builder
 * (sassprog.c) and the memory analysis (sassmem.c).  sass_op_is: its opcode
 * is `op` (modifiers not compared).  sass_is_branch: BRA or JMP.
 * sass_never / sass_always: its guard never holds (@!PT) / always holds (no
 * guard, @PT; not BRA.DIV or BRA.CONV, which branch on the warp's divergence
 * and, with warp-uniform control flow, follow the profile's counts or else
 * fall through).  sass_tests_convergence: BRA.DIV or BRA.CONV (never a
 * loop's way out without a profile).  sass_is_back_edge: a loop's back edge, a branch to an
 * earlier instruction that may be taken (a branch to itself is the padding
 * after EXIT, not a loop).  sass_is_cta_barrier: BAR.SYNC, which every warp
 * of the CTA waits at (not BAR.ARV or BAR.RED; its guard not compared), or
 * UCGABAR_WAIT, the cluster barrier's wait (every warp of the cluster, so of
 * the CTA: the part one simulated SM holds). */
gboolean sass_op_is(const SassInstr *in, const gchar *op);
gboolean sass_is_branch(const SassInstr *in);
gboolean sass_never(const SassInstr *in);
gboolean sass_always(const SassInstr *in);
gboolean sass_tests_convergence(const SassInstr *in);
gboolean sass_is_back_edge(const SassInstr *in);
gboolean sass_is_cta_barrier(const SassInstr *in);

void sass_function_free(SassFunction *f);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SassFunction, sass_function_free)

#endif
