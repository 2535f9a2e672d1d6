/* model.c - reading SM models (models/<name>.ini) through one key table. */
#include "input/model.h"

#include "core/sched.h"
#include "input/config.h"
#include "input/model_find.h"
#include "input/paths.h"

#include <json-glib/json-glib.h>

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

G_DEFINE_QUARK(warpsim_model_error, model_error)

#define SM(f) offsetof(SmModel, sm.f)
#define M(f) offsetof(SmModel, f)
#define T CONFIG_OPTIONAL_GROUP
#define U32 4294967295.0

/* The six keys of one memory level ([l1], [l2], [dram]). */
/* clang-format off */
#define LEVEL_KEYS(lv, NAME)                                                                      \
  {#lv, "latency", CONFIG_UINT, M(lv.latency), 0, NULL, 1, 100000, NULL, 0, T, "cycles",          \
   NAME " latency of a random-line warp-load (mean, unloaded)", NULL},                                  \
  {#lv, "stream_latency", CONFIG_UINT, M(lv.stream_latency), 0, "0", 0, 100000, NULL, 0, 0,       \
   "cycles", NAME " latency of sequential (streaming) loads (0 = latency)", "assumed: the random-line latency"},                      \
  {#lv, "latency_spread", CONFIG_UINT, M(lv.latency_spread), 0, "0", 0, 100000, NULL, 0, 0,       \
   "cycles", "mean of the exponentially distributed part of the " NAME " latency", "assumed: no spread"},               \
  {#lv, "bytes_per_cycle", CONFIG_DOUBLE, M(lv.bytes_per_cycle), 0, NULL, 0.001, 1e6, NULL, 0, T, \
   "bytes per cycle per SM", NAME " bandwidth share of one SM", NULL},                                  \
  {#lv, "channels", CONFIG_UINT, M(lv.channels), 0, NULL, 1, 1024, NULL, 0, T, "servers",         \
   "independent " NAME " servers random-line loads spread over", NULL},                                 \
  {#lv, "stream_channels", CONFIG_UINT, M(lv.stream_channels), 0, "0", 0, 1024, NULL, 0, 0,       \
   "servers", "independent " NAME " servers sequential loads spread over (0 = channels)", "assumed: as random lines"}
/* clang-format on */

/* The keys of one SASS opcode class ([class_<name>], opclass.h). */
/* clang-format off */
#define CLASS_KEYS(id, name, DESC)                                                                \
  {"class_" name, "opcodes", CONFIG_STRING, M(opclass[id].opcodes), 0, "", 0, 0, NULL, 0, 0,      \
   NULL, "SASS opcodes of the " DESC " class (';'-separated base opcodes)",                      \
   "assumed: no opcodes"},                      \
  {"class_" name, "latency", CONFIG_UINT, M(opclass[id].latency), 0, "1", 1, 100000, NULL, 0, 0,  \
   "cycles", DESC ": cycles until a result waited on through a scoreboard is written",            \
   "assumed: 1 cycle"},           \
  {"class_" name, "interval", CONFIG_UINT, M(opclass[id].interval), 0, "1", 1, 255, NULL, 0, 0,   \
   "cycles", DESC ": cycles its pipe stays busy per warp instruction", "assumed: 1 cycle"},       \
  {"class_" name, "opcode_timing", CONFIG_STRING, M(opclass[id].timing), 0, "", 0, 0, NULL, 0, 0, \
   NULL, DESC ": per-opcode latency and interval, ';'-separated OPCODE[.MOD]:LATENCY:INTERVAL "   \
   "items (the longest naming an instruction's opcode and leading modifiers wins)",              \
   "assumed: the class's latency and interval for every opcode"}
#define CLASS_READ_KEY(id, name, DESC)                                                            \
  {"class_" name, "read_latency", CONFIG_UINT, M(opclass[id].read_latency), 0, "1", 1, 255,       \
   NULL, 0, 0, "cycles", DESC ": cycles after issue a store's registers are read",               \
   "assumed: 1 cycle"}
/* clang-format on */

/* The one table of model keys.  Entries flagged T are timing keys: a model
 * without them serves the occupancy calculator only. */
static const ConfigEntry model_table[] = {
    {"model", "description", CONFIG_STRING, M(description), 0, "", 0, 0, NULL, 0, 0, NULL,
     "one-line description of the GPU", "assumed: none given"},
    {"model", "validated", CONFIG_BOOL, M(validated), 0, "false", 0, 0, NULL, 0, 0, NULL,
     "true when the timing groups were checked against measurements of this GPU in the "
     "repository (results/reference/<gpu>/); false: published figures only",
     "assumed: not validated unless the file says so"},
    {"sm", "cc", CONFIG_STRING, M(cc), 0, NULL, 0, 0, NULL, 0, 0, NULL,
     "compute capability, major.minor", NULL},
    {"sm", "smsps", CONFIG_UINT, SM(smsps), 0, NULL, 1, 8, NULL, 0, 0, "SMSPs per SM",
     "sub-partitions, one warp scheduler each", NULL},
    {"sm", "sms", CONFIG_UINT, SM(sms), 0, NULL, 1, 1024, NULL, 0, 0, "SMs", "SMs per device",
     NULL},
    {"sm", "warp_size", CONFIG_UINT, SM(warp_size), 0, "32", 32, 32, NULL, 0, 0, "threads",
     "threads per warp", "public: CUDA C++ Programming Guide, compute capabilities table"},
    {"sm", "max_warps", CONFIG_UINT, SM(max_warps), 0, NULL, 1, 256, NULL, 0, 0, "warps per SM",
     "resident warps per SM", NULL},
    {"sm", "max_blocks", CONFIG_UINT, SM(max_blocks), 0, NULL, 1, 256, NULL, 0, 0, "CTAs per SM",
     "resident CTAs per SM", NULL},
    {"sm", "max_threads_per_block", CONFIG_UINT, SM(max_threads_per_block), 0, "1024", 32, 4096,
     NULL, 0, 0, "threads", "threads per CTA",
     "public: CUDA C++ Programming Guide, compute capabilities table"},
    {"sm", "regs", CONFIG_UINT, SM(regs), 0, NULL, 1024, 1048576, NULL, 0, 0, "registers per SM",
     "32-bit registers per SM", NULL},
    {"sm", "max_regs_per_block", CONFIG_UINT, SM(max_regs_per_block), 0, NULL, 1024, 1048576, NULL,
     0, 0, "registers", "32-bit registers per CTA", NULL},
    {"sm", "max_regs_per_thread", CONFIG_UINT, SM(max_regs_per_thread), 0, "255", 16, 255, NULL, 0,
     0, "registers", "registers per thread",
     "public: CUDA C++ Programming Guide, compute capabilities table"},
    {"sm", "reg_alloc_unit", CONFIG_UINT, SM(reg_alloc_unit), 0, "256", 1, 4096, NULL, 0, 0,
     "registers", "per-warp register allocation unit (1 = none)",
     "public: CUDA Occupancy Calculator (cuda_occupancy.h)"},
    {"sm", "smem_per_sm", CONFIG_UINT, SM(smem_per_sm), 0, NULL, 0, 16777216, NULL, 0, 0, "bytes",
     "largest shared-memory carveout per SM", NULL},
    {"sm", "smem_per_block", CONFIG_UINT, SM(smem_per_block), 0, "49152", 0, 16777216, NULL, 0, 0,
     "bytes", "shared memory per CTA without opt-in",
     "public: CUDA C++ Programming Guide (48 KB without opt-in)"},
    {"sm", "smem_per_block_optin", CONFIG_UINT, SM(smem_per_block_optin), 0, NULL, 0, 16777216,
     NULL, 0, 0, "bytes", "shared memory per CTA with opt-in", NULL},
    {"sm", "smem_reserved", CONFIG_UINT, SM(smem_reserved), 0, "0", 0, 65536, NULL, 0, 0, "bytes",
     "shared memory the system reserves per CTA",
     "public: CUDA C++ Programming Guide (none before cc 8.0)"},
    {"sm", "smem_alloc_unit", CONFIG_UINT, SM(smem_alloc_unit), 0, "256", 1, 65536, NULL, 0, 0,
     "bytes", "shared-memory allocation unit (1 = none)",
     "public: CUDA Occupancy Calculator (256 B before cc 8.0)"},
    {"sm", "smem_configs", CONFIG_UINT_LIST, SM(smem_configs), SM(n_smem_configs), "", 0, 16777216,
     NULL, MODEL_MAX_SMEM_CONFIGS, 0, "bytes",
     "supported shared-memory carveouts, ascending (empty = smem_per_sm only)",
     "public: the largest carveout only"},
    {"sm", "clock_mhz", CONFIG_DOUBLE, M(clock_mhz), 0, "1000", 1, 10000, NULL, 0, 0, "MHz",
     "SM clock under load", "assumed: 1 GHz when the file gives none"},
    {"sm", "cluster_blocks_per_sm", CONFIG_UINT, M(cluster_blocks), 0, "0", 0, 1024, NULL, 0, 0,
     "CTAs per SM",
     "a launch in clusters of 2 or more CTAs ([launch] cluster_size): CTAs one SM holds at once, "
     "whatever the other limits allow (the rest wait for a later wave)",
     "assumed: no limit"},
    {"sched", "policy", CONFIG_STRING, M(policy), 0, NULL, 0, 0, NULL, 0, T, NULL,
     "default warp-scheduler policy (gto, lrr, oldest, grr, two_level, oldest_group)", NULL},
    {"sched", "group_size", CONFIG_UINT, M(sched_group), 0, "4", 1, 64, NULL, 0, 0,
     "warps per SMSP", "two_level and oldest_group policies: warps per fetch group",
     "assumed: Narasiman et al., MICRO 2011 use fetch groups of a few warps"},
    {"sched", "yield", CONFIG_BOOL, M(sched_yield), 0, "false", 0, 0, NULL, 0, 0, NULL,
     "SASS listings: after an instruction with the yield hint (control bit 45 clear) the "
     "scheduler prefers any other ready warp of the SMSP",
     "assumed: off; the hint as read by Jia et al., Dissecting the NVIDIA Volta GPU "
     "Architecture via Microbenchmarking (2018); with grr it runs pipemix IMAD:FFMA 2:1 at "
     "2.96 against 2.47 measured (doc/sched_groups.md)"},
    {"sched", "lsu_fifo", CONFIG_UINT, M(sched_lsu_fifo), 0, "0", 0, 64, NULL, 0, 0,
     "warps per SMSP",
     "while global loads or stores wait for the SM's lines in flight, this many of an SMSP's "
     "waiting warps (taken in age order) queue for them and are granted in arrival order "
     "(0 = none: the policy picks among all waiting warps)",
     "assumed: off; 4 reproduces the H200's per-warp ends of saxpy's loop with gto and the "
     "yield hint (results/reference/h200/memfair/memfair.csv rows saxpy4, B = 4..16: mean "
     "error 0.008; doc/sched_groups.md)"},
    {"fma", "latency", CONFIG_UINT, M(fma.latency), 0, NULL, 1, 1000, NULL, 0, T, "cycles",
     "FP32 dependent-issue latency", NULL},
    {"fma", "interval", CONFIG_UINT, M(fma.interval), 0, NULL, 1, 64, NULL, 0, T,
     "cycles per warp instruction per SMSP", "FP32 pipe initiation interval", NULL},
    {"alu", "latency", CONFIG_UINT, M(alu.latency), 0, NULL, 1, 1000, NULL, 0, T, "cycles",
     "INT32 dependent-issue latency", NULL},
    {"alu", "interval", CONFIG_UINT, M(alu.interval), 0, NULL, 1, 64, NULL, 0, T,
     "cycles per warp instruction per SMSP", "INT32 pipe initiation interval", NULL},
    {"sfu", "latency", CONFIG_UINT, M(sfu.latency), 0, NULL, 1, 1000, NULL, 0, T, "cycles",
     "MUFU dependent-issue latency", NULL},
    {"sfu", "interval", CONFIG_UINT, M(sfu.interval), 0, NULL, 1, 64, NULL, 0, T,
     "cycles per warp instruction per SMSP", "MUFU pipe initiation interval", NULL},
    {"smem", "latency", CONFIG_UINT, M(smem.latency), 0, NULL, 1, 1000, NULL, 0, T, "cycles",
     "shared-memory load latency", NULL},
    {"smem", "interval", CONFIG_UINT, M(smem.interval), 0, NULL, 1, 64, NULL, 0, T,
     "cycles per conflict-free warp-wide 4 B load per SM",
     "shared-memory unit initiation interval (whole SM)", NULL},
    {"smem", "wavefront_latency", CONFIG_UINT, M(smem_wavefront_latency), 0, "1", 0, 64, NULL, 0, 0,
     "cycles per wavefront",
     "shared-memory access: latency each wavefront beyond the first adds (bank-conflict ways, "
     "LDSM x2/x4 matrices); the unit's occupancy stays one [smem] interval per wavefront",
     "assumed: one cycle per wavefront (one conflict-free wavefront per cycle)"},
    {"smem", "queue", CONFIG_UINT, M(smem_queue), 0, "0", 0, 1024, NULL, 0, 0, "cycles per SM",
     "shared-memory unit: work it may have queued when an LDS/STS/SHFL issues (MIO queue)",
     "assumed: none (an LDS issues only to an idle unit)"},
    {"lsu", "interval", CONFIG_UINT, M(lsu.interval), 0, NULL, 1, 64, NULL, 0, T,
     "cycles per warp-load per SMSP", "LSU/MIO issue interval to L1TEX", NULL},
    {"branch", "latency", CONFIG_UINT, M(branch_latency), 0, NULL, 1, 1000, NULL, 0, T, "cycles",
     "loop-back branch: cycles before the warp issues again", NULL},
    {"barrier", "latency", CONFIG_UINT, M(bar_latency), 0, "0", 0, 1000, NULL, 0, 0, "cycles",
     "BAR.SYNC: from the barrier unit taking a CTA's last arrival to its warps' release",
     "assumed: released the next cycle"},
    {"barrier", "cluster_latency", CONFIG_UINT, M(bar_cluster_latency), 0, "0", 0, 100000, NULL, 0,
     0, "cycles",
     "UCGABAR_WAIT (barrier.cluster.wait): cycles its release comes after a CTA barrier's",
     "assumed: none (released as a CTA barrier)"},
    {"barrier", "interval", CONFIG_UINT, M(bar_interval), 0, "0", 0, 64, NULL, 0, 0,
     "cycles per warp arrival per SM",
     "BAR.SYNC: the SM's barrier unit takes one arrival per interval", "assumed: no limit"},
    {"membar", "latency", CONFIG_UINT, M(membar_latency[0]), 0, "0", 0, 100000, NULL, 0, 0,
     "cycles", "MEMBAR.*.GPU / .SYS: cycles before its warp issues again (no access in flight)",
     "assumed: none (a control op)"},
    {"membar", "store_latency", CONFIG_UINT, M(membar_latency[1]), 0, "0", 0, 100000, NULL, 0, 0,
     "cycles", "MEMBAR.*.GPU / .SYS: the same while a load or store of the warp is in flight",
     "assumed: as latency"},
    {"membar", "interval", CONFIG_UINT, M(membar_interval), 0, "0", 0, 10000, NULL, 0, 0,
     "cycles per MEMBAR per SM", "MEMBAR.*.GPU / .SYS: the SM's fence unit takes one per interval",
     "assumed: no limit"},
    {"dsmem", "latency", CONFIG_UINT, M(dsmem_latency), 0, "0", 0, 100000, NULL, 0, 0, "cycles",
     "a generic LD into a peer CTA's shared memory (distributed shared memory: the profile's "
     "Address Space Global,Shared with no global or shared traffic): cycles from issue at the "
     "SM's DSMEM port to its data",
     "assumed: none (such an access is timed as a global load)"},
    {"dsmem", "load_interval", CONFIG_DOUBLE, M(dsmem_interval[0]), 0, "0", 0, 10000, NULL, 0, 0,
     "cycles per 128 B warp-load per SM",
     "distributed shared memory: cycles of the SM's DSMEM port per warp-load (in proportion to "
     "its bytes)",
     "assumed: no limit"},
    {"dsmem", "store_interval", CONFIG_DOUBLE, M(dsmem_interval[1]), 0, "0", 0, 10000, NULL, 0, 0,
     "cycles per 128 B warp-store per SM",
     "distributed shared memory: cycles of the SM's DSMEM port per warp-store (in proportion to "
     "its bytes; nothing waits for a store)",
     "assumed: no limit"},
    {"texture", "latency", CONFIG_UINT, M(tex_latency[0]), 0, "0", 0, 10000, NULL, 0, 0, "cycles",
     "TEX / TLD4 (sampler fetch): cycles it adds to a load's latency from the same level",
     "assumed: none (timed as a load)"},
    {"texture", "interval", CONFIG_UINT, M(tex_interval[0]), 0, "0", 0, 1000, NULL, 0, 0,
     "cycles per warp-fetch per SM",
     "TEX / TLD4: the SM's texture unit takes one warp-fetch per interval (TLD shares it)",
     "assumed: no unit"},
    {"texture", "bytes", CONFIG_DOUBLE, M(tex_bytes), 0, "0", 0, 65536, NULL, 0, 0,
     "bytes per warp-fetch",
     "TEX / TLD4 whose sectors the profile does not give: bytes a warp-fetch moves through L1 "
     "and L2 (a tiled image's texels its lanes span)",
     "assumed: the ideal sectors (4 B a lane)"},
    {"texture", "fetch_latency", CONFIG_UINT, M(tex_latency[1]), 0, "0", 0, 10000, NULL, 0, 0,
     "cycles", "TLD (texel fetch by index): cycles it adds to a load's latency from the same level",
     "assumed: none (timed as a load)"},
    {"texture", "fetch_interval", CONFIG_UINT, M(tex_interval[1]), 0, "0", 0, 1000, NULL, 0, 0,
     "cycles per warp-fetch per SM", "TLD: cycles of the SM's texture unit per warp-fetch",
     "assumed: no unit"},
    {"bulk", "l2_latency", CONFIG_DOUBLE, M(bulk_latency[0]), 0, "0", 0, 1e6, NULL, 0, 0, "cycles",
     "TMA bulk copy (UBLKCP) of L2-resident data: cycles from issue to its bytes in shared "
     "memory (the mbarrier wait's completion), fixed part; 0 = no bulk model",
     "assumed: no bulk model (SYNCS waits are one-cycle control ops)"},
    {"bulk", "l2_cycles_per_kib", CONFIG_DOUBLE, M(bulk_cycles_per_kib[0]), 0, "0", 0, 1e6, NULL, 0,
     0, "cycles per KiB", "TMA bulk copy from L2: latency each KiB of the copy adds",
     "assumed: none"},
    {"bulk", "dram_latency", CONFIG_DOUBLE, M(bulk_latency[1]), 0, "0", 0, 1e6, NULL, 0, 0,
     "cycles", "TMA bulk copy of data that misses L2: fixed part of its latency",
     "assumed: as l2_latency"},
    {"bulk", "dram_cycles_per_kib", CONFIG_DOUBLE, M(bulk_cycles_per_kib[1]), 0, "0", 0, 1e6, NULL,
     0, 0, "cycles per KiB", "TMA bulk copy from DRAM: latency each KiB of the copy adds",
     "assumed: none"},
    {"bulk", "bytes_per_cycle", CONFIG_DOUBLE, M(bulk_bytes_per_cycle), 0, "0", 0, 1e6, NULL, 0, 0,
     "bytes per cycle per SM",
     "TMA bulk copies of one SM: bytes per cycle they move together (one after another); "
     "DRAM copies also take the [dram] bandwidth; 0 = no limit, else at least 0.001",
     "assumed: no limit"},
    {"barrier", "smem_slot", CONFIG_BOOL, M(bar_smem_slot), 0, "false", 0, 0, NULL, 0, 0, NULL,
     "BAR.SYNC: each arrival also takes one [smem] interval of the shared-memory unit (delaying "
     "the next LDS/STS, not itself)",
     "assumed: barriers and shared memory do not share a unit"},
    {"operand", "bank_conflict", CONFIG_BOOL, M(operand_conflict), 0, NULL, 0, 0, NULL, 0, T, NULL,
     "FFMA register-bank conflict unless operands come from the reuse cache", NULL},
    {"operand", "penalty", CONFIG_UINT, M(operand_penalty), 0, "1", 0, 64, NULL, 0, 0, "cycles",
     "extra dispatch cycles of a conflicting FFMA (it also delays its result)",
     "fitted: results/reference/h200/fma.csv[ilp=1] ceiling 1.97 = 1/2 of the issue peak (one "
     "extra dispatch cycle per switch)"},
    {"spill", "bytes_per_cycle", CONFIG_DOUBLE, M(spill_bytes_per_cycle), 0, "33.3", 0.001, 1e6,
     NULL, 0, 0, "bytes per cycle per SM",
     "local-memory (LDL/STL) throughput of L1, one SM-wide port",
     "fitted: results/reference/h200/calibrate/spill.csv[occupancy=max,cap>=48] rolled 64 and "
     "unrolled 96 (0.260 spill accesses per cycle per SM)"},
    {"spill", "scattered_load_sector_cycles", CONFIG_DOUBLE, M(local_scattered_load_cycles), 0, "0",
     0, 1e6, NULL, 0, 0, "cycles per sector",
     "cycles a scattered local load (LDL of a register-indexed local array: twice its lanes' "
     "sectors or more) holds the SM's local-memory port per sector it touches (0 = "
     "bytes_per_cycle)",
     "assumed: as a spill, bytes / bytes_per_cycle"},
    {"spill", "scattered_store_sector_cycles", CONFIG_DOUBLE, M(local_scattered_store_cycles), 0,
     "0", 0, 1e6, NULL, 0, 0, "cycles per sector",
     "the same for a scattered local store (STL): local stores write through to L2 (0 = "
     "bytes_per_cycle)",
     "assumed: as a spill, bytes / bytes_per_cycle"},
    {"spill", "loop_regs", CONFIG_UINT, M(spill_loop_regs), 0, "8", 0, 255, NULL, 0, 0, "registers",
     "registers a loop needs beside its live values (so the cap that starts spills)",
     "measured: results/reference/h200/calibrate/spill.csv[cap=0] (40, 72, 105 registers for 32, "
     "64, 96 accumulators)"},
    {"spill", "extra_values", CONFIG_UINT, M(spill_extra_values), 0, "13", 0, 255, NULL, 0, 0,
     "values", "most values ptxas spills per iteration beyond the registers it lacks",
     "fitted: results/reference/h200/calibrate/spill_sass.csv rolled 64 and unrolled 96 (ptxas "
     "-O3, CUDA 13.0)"},
    LEVEL_KEYS(l1, "L1"),
    {"l1", "bytes", CONFIG_UINT, M(l1_bytes), 0, NULL, 0, 16777216, NULL, 0, T, "bytes",
     "unified L1 + shared memory per SM (spills hit in what shared memory leaves)", NULL},
    {"l1", "thrash_start", CONFIG_DOUBLE, M(l1_thrash_start), 0, "0", 0, 1000, NULL, 0, 0,
     "x = warps x footprint / capacity",
     "where the L1 hit share of private working sets starts "
     "to fall (model_l1_share)",
     "assumed: 0 (with thrash_width 0 unused)"},
    {"l1", "thrash_width", CONFIG_DOUBLE, M(l1_thrash_width), 0, "0", 0, 1000, NULL, 0, 0,
     "x = warps x footprint / capacity",
     "span of x over which that share falls to 0 (0 = the "
     "smooth share min(1, 1 / x))",
     "assumed: 0 (the smooth share)"},
    {"l1", "thrash_max_bytes", CONFIG_UINT, M(l1_thrash_max_bytes), 0, "0", 0, 16777216, NULL, 0, 0,
     "bytes",
     "largest L1 capacity (bytes less the shared memory) the thrash ramp applies to; a larger "
     "one takes the smooth share (0 = every capacity)",
     "assumed: 0 (every capacity)"},
    {"l1", "thrash_sass", CONFIG_BOOL, M(l1_thrash_sass), 0, "false", 0, 0, NULL, 0, 0, NULL,
     "SASS kernels' L1 hit rate vs resident warps follows the thrash ramp as well (false: the "
     "smooth share min(1, C / (W x F)) anchored at the profile)",
     "assumed: false (the ramp moved results/validation/ the wrong way: doc/model.md, L1 thrash)"},
    LEVEL_KEYS(l2, "L2"),
    LEVEL_KEYS(dram, "DRAM"),
    {"mem", "max_inflight", CONFIG_UINT, M(max_inflight), 0, NULL, 0, 1000000, NULL, 0, T,
     "warp-loads per SM", "loads in flight per SM (0 = no cap)", NULL},
    {"mem", "sector_bytes", CONFIG_UINT, M(sector_bytes), 0, NULL, 1, 4096, NULL, 0, T, "bytes",
     "sector size", NULL},
    {"mem", "line_bytes", CONFIG_UINT, M(line_bytes), 0, NULL, 1, 4096, NULL, 0, T, "bytes",
     "cache-line size", NULL},
    {"l2", "atomic_sectors_per_cycle", CONFIG_DOUBLE, M(atomic_sectors_per_cycle), 0, "0", 0, 1e6,
     NULL, 0, 0, "sectors per cycle per SM",
     "L2 atomic unit's share of one SM for global reductions (RED), every SM busy: each request "
     "holds it sectors / this cycles and a line of the loads in flight until done (0 = atomics "
     "are L2 writes)",
     "assumed: atomics are timed as L2 writes at [l2] bytes_per_cycle"},
    {"l2", "atomic_return_sectors_per_cycle", CONFIG_DOUBLE, M(atomic_return_sectors_per_cycle), 0,
     "0", 0, 1e6, NULL, 0, 0, "sectors per cycle per SM",
     "the same for global atomics that return a value (ATOM; 0 = atomic_sectors_per_cycle)",
     "assumed: as reductions"},
    {"l2", "atomic_cas_sectors_per_cycle", CONFIG_DOUBLE, M(atomic_cas_sectors_per_cycle), 0, "0",
     0, 1e6, NULL, 0, 0, "sectors per cycle per SM",
     "the same for global compare-and-swap (ATOMG.E.CAS; 0 = atomic_return_sectors_per_cycle)",
     "assumed: as other atomics that return a value"},
    {"l2", "atomic_cas_latency", CONFIG_UINT, M(atomic_cas_latency), 0, "0", 0, 100000, NULL, 0, 0,
     "cycles",
     "issue to the old value back of an uncontended global compare-and-swap (ATOMG.E.CAS; 0 = "
     "timed as an L2 load)",
     "assumed: as an L2 load ([l2] latency)"},
    {"l2", "atomic_contention", CONFIG_STRING, M(atomic_contention), 0, "", 0, 0, NULL, 0, 0, NULL,
     "lane atomics per cycle of the whole device on few words: ';'-separated WORDS:RATE items "
     "(distinct 4-byte words, increasing; rate at random lanes), for global reductions and atomics "
     "whose address the listing bounds (sassspan.h); \"\" = off",
     "assumed: off (every atomic at the uncontended rate)"},
    {"l2", "lone_sm_ratio", CONFIG_DOUBLE, M(l2_busy.lone_ratio), 0, "1", 1, 64, NULL, 0, 0,
     "ratio", "L2 share of a lone busy SM over bytes_per_cycle (a small grid, a partial wave)",
     "assumed: no rise when fewer SMs are busy"},
    {"l2", "peak_bytes_per_cycle", CONFIG_DOUBLE, M(l2_peak_bytes_per_cycle), 0, "0", 0, 4096, NULL,
     0, 0, "bytes per cycle",
     "SASS kernels: L2 share of one SM for a load through L1TEX that keeps the SM's lines in "
     "flight within [class_global] lines_in_flight; bytes_per_cycle is the rate of one that "
     "takes them beyond (0, or any value at most bytes_per_cycle = bytes_per_cycle always)",
     "assumed: bytes_per_cycle always"},
    {"l2", "busy_exponent", CONFIG_DOUBLE, M(l2_busy.exponent), 0, "2", 0.1, 64, NULL, 0, 0, NULL,
     "p of the smooth minimum between a lone SM's L2 share and the device's share per busy SM",
     "assumed: 2"},
    {"dram", "lone_sm_ratio", CONFIG_DOUBLE, M(dram_busy.lone_ratio), 0, "1", 1, 64, NULL, 0, 0,
     "ratio", "DRAM share of a lone busy SM over bytes_per_cycle (a small grid, a partial wave)",
     "assumed: no rise when fewer SMs are busy"},
    {"dram", "busy_exponent", CONFIG_DOUBLE, M(dram_busy.exponent), 0, "2", 0.1, 64, NULL, 0, 0,
     NULL,
     "p of the smooth minimum between a lone SM's DRAM share and the device's share per "
     "busy SM",
     "assumed: 2"},
    {"dram", "queue_cycles", CONFIG_DOUBLE, M(dram_queue_cycles), 0, "0", 0, 100000, NULL, 0, 0,
     "cycles",
     "extra latency of a DRAM load when the SM's recent DRAM bytes fill its share (rho = 1): "
     "the wait behind the other SMs' traffic at the shared controllers; a load's extra is "
     "queue_cycles x rho ^ queue_exponent (0 = none)",
     "assumed: no load-dependent wait beyond the SM's own servers"},
    {"dram", "queue_exponent", CONFIG_DOUBLE, M(dram_queue_exponent), 0, "1", 0.1, 64, NULL, 0, 0,
     NULL, "exponent of rho in the DRAM load-dependent wait (unused while queue_cycles is 0)",
     "assumed: 1"},
    {"dram", "queue_window", CONFIG_DOUBLE, M(dram_queue_window), 0, "2048", 1, 1e7, NULL, 0, 0,
     "cycles",
     "time constant of the exponential average of the SM's DRAM bytes whose rate over "
     "bytes_per_cycle is rho (unused while queue_cycles is 0)",
     "assumed: 2048 cycles, about three unloaded DRAM latencies"},
    {"mem", "full_load_sms", CONFIG_UINT, M(full_load_sms), 0, "0", 0, 100000, NULL, 0, 0, "SMs",
     "SMs busy when [l2] and [dram] bytes_per_cycle were measured (0 = [sm] sms)",
     "assumed: every SM of the device"},
    {"l2", "bytes", CONFIG_UINT, M(l2_bytes), 0, "0", 0, 4294967295.0, NULL, 0, 0, "bytes",
     "L2 of the whole device (SASS kernels' hit rate vs resident warps; 0 = none)",
     "assumed: no L2 capacity model"},
    {"l2", "store_bytes_per_cycle", CONFIG_DOUBLE, M(l2_store_bytes_per_cycle), 0, "0", 0, 4096,
     NULL, 0, 0, "bytes per cycle per SM",
     "SASS kernels: one SM's rate of the global stores L2 keeps (a write port of its own, apart "
     "from the loads' L2 share; 0 = timed as DRAM stores, their bytes counted as L2's)",
     "assumed: timed as DRAM stores"},
    {"l2", "store_full_bytes", CONFIG_UINT, M(l2_store_full_bytes), 0, "0", 0, 4294967295.0, NULL,
     0, 0, "bytes",
     "SASS kernels: a warm launch whose L2 footprint (its loads' misses and its stores, grid-wide) "
     "is at most this keeps all its global stores in L2 (0 = every store is written to DRAM)",
     "assumed: every store to DRAM"},
    {"l2", "store_none_bytes", CONFIG_UINT, M(l2_store_none_bytes), 0, "0", 0, 4294967295.0, NULL,
     0, 0, "bytes",
     "from this footprint on a warm launch writes all its stores of two or more lines a warp to "
     "DRAM, linear from store_full_bytes (0 = store_full_bytes)",
     "assumed: store_full_bytes"},
    {"l2", "store_none_line_bytes", CONFIG_UINT, M(l2_store_none_line_bytes), 0, "0", 0,
     4294967295.0, NULL, 0, 0, "bytes", "the same for one-line warp-stores (0 = store_none_bytes)",
     "assumed: store_none_bytes"},
    {"l2", "store_residue_bytes", CONFIG_UINT, M(l2_store_residue_bytes), 0, "0", 0, 4294967295.0,
     NULL, 0, 0, "bytes",
     "a cold launch's stored bytes (grid-wide) L2 still holds when it ends; the rest were "
     "written to DRAM during it (with store_full_bytes set)",
     "assumed: none"},
    {"l2", "reuse_full_bytes", CONFIG_UINT, M(l2_reuse_full_bytes), 0, "0", 0, 4294967295.0, NULL,
     0, 0, "bytes",
     "data re-read from L2 in whole up to this footprint (SASS kernels' warm launches; 0 = [l2] "
     "bytes)",
     "assumed: the whole L2"},
    {"l2", "reuse_none_bytes", CONFIG_UINT, M(l2_reuse_none_bytes), 0, "0", 0, 4294967295.0, NULL,
     0, 0, "bytes",
     "data re-read from DRAM in whole from this footprint on, linear in between (0 = [l2] bytes)",
     "assumed: the whole L2"},
    {"l2", "far_extra_cycles", CONFIG_UINT, M(l2_far_extra_cycles), 0, "0", 0, 100000, NULL, 0, 0,
     "cycles",
     "SASS kernels: latency beyond an L2 hit of a scattered load the far L2 partition serves (the "
     "profile's L2 misses that DRAM did not serve; 0 = off)",
     "assumed: off (a far-partition hit costs an L2 hit)"},
    CLASS_KEYS(OPCLASS_FP32, "fp32", "FP32"),
    CLASS_KEYS(OPCLASS_INT, "int", "integer/logic"),
    CLASS_KEYS(OPCLASS_FP64, "fp64", "FP64"),
    {"class_fp64", "dispatch", CONFIG_UINT, M(opclass[OPCLASS_FP64].dispatch), 0, "1", 1, 64, NULL,
     0, 0, "cycles",
     "FP64: cycles the SMSP's dispatch is held per warp instruction (no other warp issues)",
     "assumed: 1 cycle (the next cycle is free)"},
    CLASS_KEYS(OPCLASS_MUFU, "mufu", "MUFU"),
    CLASS_KEYS(OPCLASS_TENSOR, "tensor", "tensor"),
    CLASS_KEYS(OPCLASS_CONV, "conv", "conversion"),
    CLASS_KEYS(OPCLASS_GLOBAL, "global", "global/local memory"),
    CLASS_READ_KEY(OPCLASS_GLOBAL, "global", "global/local memory"),
    {"class_global", "lines_in_flight", CONFIG_UINT, M(opclass[OPCLASS_GLOBAL].lines_in_flight), 0,
     "0", 0, 1000000, NULL, 0, 0, "lines per SM",
     "SASS kernels: L1 lines missing at once per SM, loads' and (stores_hold_lines) stores', "
     "before lg_throttle (0 = no cap)",
     "assumed: no cap"},
    {"class_global", "warp_lines_in_flight", CONFIG_UINT,
     M(opclass[OPCLASS_GLOBAL].warp_lines_in_flight), 0, "0", 0, 4096, NULL, 0, 0, "lines per warp",
     "SASS kernels: lines of DRAM-bound loads one warp has missing at once; its next global "
     "load waits (lg_throttle) until fewer are (0 = no cap)",
     "assumed: no cap"},
    {"class_global", "dram_write_cost", CONFIG_DOUBLE, M(opclass[OPCLASS_GLOBAL].write_cost), 0,
     "1", 0.1, 10, NULL, 0, 0, "read bytes per byte",
     "SASS kernels: DRAM time of a stored byte when no reads share DRAM", "assumed: as a read"},
    {"class_global", "dram_turnaround", CONFIG_DOUBLE, M(opclass[OPCLASS_GLOBAL].dram_turnaround),
     0, "0", 0, 10, NULL, 0, 0, "read bytes per byte",
     "SASS kernels: more DRAM time of a stored byte times the reads' share of the SM's DRAM "
     "bytes since the launch began (read/write turnaround)",
     "assumed: none"},
    {"class_global", "stores_hold_lines", CONFIG_BOOL, M(opclass[OPCLASS_GLOBAL].stores_hold_lines),
     0, "false", 0, 0, NULL, 0, 0, NULL,
     "SASS kernels: a global store that leaves L1 holds its lines of lines_in_flight until "
     "written, and waits (lg_throttle) while the SM has none free",
     "assumed: stores never wait"},
    {"class_global", "dram_store_line_b1", CONFIG_DOUBLE,
     M(opclass[OPCLASS_GLOBAL].store_streams[0]), 0, "0", 0, 10, NULL, 0, 0, "x dram_write_cost",
     "SASS kernels: DRAM time of a byte stored by a one-line warp-store (a coalesced 32-bit "
     "store) at 1 resident CTA per SM, relative to dram_write_cost's (0 = off: the four "
     "dram_store_line* keys are not used)",
     "assumed: off"},
    {"class_global", "dram_store_line_b8", CONFIG_DOUBLE,
     M(opclass[OPCLASS_GLOBAL].store_streams[1]), 0, "1", 0, 10, NULL, 0, 0, "x dram_write_cost",
     "SASS kernels: the same at 8 or more resident CTAs per SM (linear in the CTAs between 1 "
     "and 8: each CTA one more stream of writes)",
     "assumed: as dram_write_cost"},
    {"class_global", "dram_store_lines_b1", CONFIG_DOUBLE,
     M(opclass[OPCLASS_GLOBAL].store_streams[2]), 0, "1", 0, 10, NULL, 0, 0, "x dram_write_cost",
     "SASS kernels: the same as dram_store_line_b1 for a warp-store of two or more lines (a "
     "coalesced 64- or 128-bit store)",
     "assumed: as dram_write_cost"},
    {"class_global", "dram_store_lines_b8", CONFIG_DOUBLE,
     M(opclass[OPCLASS_GLOBAL].store_streams[3]), 0, "1", 0, 10, NULL, 0, 0, "x dram_write_cost",
     "SASS kernels: the same as dram_store_line_b8 for a warp-store of two or more lines",
     "assumed: as dram_write_cost"},
    {"class_global", "l1_cycle_per_line", CONFIG_BOOL, M(opclass[OPCLASS_GLOBAL].l1_cycle_per_line),
     0, "false", 0, 0, NULL, 0, 0, NULL,
     "SASS kernels: a scattered global access keeps L1 busy at least one cycle ([l1] "
     "bytes_per_cycle bytes) per line it touches, whether it hits or misses",
     "assumed: bytes alone"},
    {"class_global", "partial_sector_load_bytes", CONFIG_DOUBLE,
     M(opclass[OPCLASS_GLOBAL].partial_load_bytes), 0, "0", 0, 4096, NULL, 0, 0, "bytes",
     "SASS kernels: extra DRAM time per sector a misaligned contiguous load reads in part",
     "assumed: none"},
    {"class_global", "partial_sector_store_bytes", CONFIG_DOUBLE,
     M(opclass[OPCLASS_GLOBAL].partial_store_bytes), 0, "0", 0, 4096, NULL, 0, 0, "bytes",
     "SASS kernels: extra DRAM time per sector a misaligned contiguous store writes in part",
     "assumed: none"},
    {"class_global", "scattered_dram_bytes", CONFIG_UINT,
     M(opclass[OPCLASS_GLOBAL].scattered_dram_bytes), 0, "0", 0, 4096, NULL, 0, 0, "bytes",
     "SASS kernels: DRAM time, in bytes at [dram] bytes_per_cycle, a scattered global load "
     "takes per sector it touches (0 = a whole line, [mem] line_bytes; else at least [mem] "
     "sector_bytes; more than a line when a random line costs DRAM more than its bytes)",
     "assumed: a line"},
    CLASS_KEYS(OPCLASS_SHARED, "shared", "shared memory"),
    CLASS_READ_KEY(OPCLASS_SHARED, "shared", "shared memory"),
    CLASS_KEYS(OPCLASS_SHUFFLE, "shuffle", "shuffle"),
    {"class_shuffle", "match_key_interval", CONFIG_DOUBLE,
     M(opclass[OPCLASS_SHUFFLE].match_key_interval), 0, "0", 0, 255, NULL, 0, 0, "cycles",
     "SASS kernels: cycles of the SM-wide shared-memory unit a MATCH takes per distinct key; "
     "MATCH's own timing is for 32 keys, and a key the listing bounds to K values (32 lanes at "
     "random: K (1 - (1 - 1/K)^32) distinct) takes this much less per key fewer (0 = off)",
     "assumed: off (every MATCH at 32 distinct keys)"},
    {"class_shuffle", "match_key_latency", CONFIG_DOUBLE,
     M(opclass[OPCLASS_SHUFFLE].match_key_latency), 0, "0", 0, 4096, NULL, 0, 0, "cycles",
     "SASS kernels: cycles of a MATCH's latency per distinct key, taken off the same way (0 = "
     "off)",
     "assumed: off (every MATCH at 32 distinct keys)"},
    CLASS_KEYS(OPCLASS_UNIFORM, "uniform", "uniform datapath"),
    CLASS_KEYS(OPCLASS_CONTROL, "control", "branch/barrier/sync"),
    CLASS_KEYS(OPCLASS_SPECIAL, "special", "special-register"),
    {"class_special", "indexed_latency", CONFIG_UINT, M(opclass[OPCLASS_SPECIAL].indexed_latency),
     0, "0", 0, 100000, NULL, 0, 0, "cycles",
     "SASS kernels: cycles to the result of an LDC whose constant-bank address has a per-thread "
     "register (LDC R, c[bank][R]), from when the SM-wide shared-memory unit takes it "
     "(0 = timed as a uniform LDC)",
     "assumed: off (timed as a uniform LDC)"},
    {"class_special", "indexed_interval", CONFIG_UINT, M(opclass[OPCLASS_SPECIAL].indexed_interval),
     0, "0", 0, 4096, NULL, 0, 0, "cycles",
     "SASS kernels: cycles of the SM-wide shared-memory unit one register-indexed LDC takes "
     "(one per [smem] interval; 0 = off, no unit)",
     "assumed: off (no unit)"},
    {"class_special", "indexed_table_bytes", CONFIG_UINT_LIST,
     M(opclass[OPCLASS_SPECIAL].indexed_table_bytes), M(opclass[OPCLASS_SPECIAL].n_indexed_tables),
     "", 1, 65536, NULL, OPCLASS_MAX_INDEXED_TABLES, 0, "bytes",
     "SASS kernels: __constant__ table sizes, strictly ascending, with their own register-indexed "
     "LDC timing (indexed_table_latency, indexed_table_interval, one entry each): a kernel's "
     "[sass] constant_table_bytes takes the first entry at least that large (empty = "
     "indexed_latency / indexed_interval for every table)",
     "assumed: none (every table in the constant cache)"},
    {"class_special", "indexed_table_latency", CONFIG_UINT_LIST,
     M(opclass[OPCLASS_SPECIAL].indexed_table_latency),
     M(opclass[OPCLASS_SPECIAL].n_indexed_table_latency), "", 0, 100000, NULL,
     OPCLASS_MAX_INDEXED_TABLES, 0, "cycles",
     "SASS kernels: indexed_latency for each table of indexed_table_bytes", "assumed: none"},
    {"class_special", "indexed_table_interval", CONFIG_UINT_LIST,
     M(opclass[OPCLASS_SPECIAL].indexed_table_interval),
     M(opclass[OPCLASS_SPECIAL].n_indexed_table_interval), "", 1, 4096, NULL,
     OPCLASS_MAX_INDEXED_TABLES, 0, "cycles",
     "SASS kernels: indexed_interval for each table of indexed_table_bytes", "assumed: none"},
    CLASS_KEYS(OPCLASS_IMAD, "imad", "integer multiply-add"),
};
#define N_MODEL_KEYS G_N_ELEMENTS(model_table)

/* Shared-memory carveouts: ascending, within smem_per_sm; the per-block
 * limits below the opt-in below the SM's capacity. */
static gboolean validate_smem(SmModel *m, GKeyFile *kf, const gchar *file, GError **error) {
  if (m->sm.n_smem_configs == 0) {
    m->sm.smem_configs[0] = m->sm.smem_per_sm;
    m->sm.n_smem_configs = 1;
  }
  for (guint i = 1; i < m->sm.n_smem_configs; i++) {
    if (m->sm.smem_configs[i] <= m->sm.smem_configs[i - 1]) {
      g_autofree gchar *at = config_origin(kf, file, "sm", "smem_configs");
      g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
                  "%s: [sm] smem_configs: not strictly ascending (allowed ascending bytes)", at);
      return FALSE;
    }
  }
  for (guint i = 0; i < m->sm.n_smem_configs; i++) {
    if (m->sm.smem_configs[i] > m->sm.smem_per_sm) {
      g_autofree gchar *at = config_origin(kf, file, "sm", "smem_configs");
      g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
                  "%s: [sm] smem_configs: %u exceeds smem_per_sm (allowed 0..%u bytes)", at,
                  m->sm.smem_configs[i], m->sm.smem_per_sm);
      return FALSE;
    }
  }
  if (m->sm.smem_per_block > m->sm.smem_per_block_optin ||
      m->sm.smem_per_block_optin > m->sm.smem_per_sm) {
    g_autofree gchar *at = config_origin(kf, file, "sm", "smem_per_block");
    g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
                "%s: [sm] smem_per_block, smem_per_block_optin: %u and %u (allowed "
                "smem_per_block <= smem_per_block_optin <= smem_per_sm = %u bytes)",
                at, m->sm.smem_per_block, m->sm.smem_per_block_optin, m->sm.smem_per_sm);
    return FALSE;
  }
  return TRUE;
}

/* A SASS base opcode: an upper-case letter, then upper-case letters, digits
 * and '_' (LDGSTS_SHARED); no modifiers ("FFMA", not "FFMA.FTZ"). */
static gboolean opcode_name_ok(const gchar *op) {
  if (!g_ascii_isupper(op[0]))
    return FALSE;
  for (const gchar *p = op; *p; p++)
    if (!g_ascii_isupper(*p) && !g_ascii_isdigit(*p) && *p != '_')
      return FALSE;
  return TRUE;
}

/* Each [class_*] group's opcodes a ';'-separated list of SASS base opcodes,
 * none twice: an empty item, a space ("FF MA" was read as FF and MA) or a
 * repeat is a typo. */
static gboolean opcode_list_ok(const gchar *list, const gchar *at, const gchar *group,
                               GError **error) {
  g_auto(GStrv) ops = g_strsplit(list, ";", -1);
  for (guint i = 0; ops[i] != NULL; i++) {
    g_strstrip(ops[i]); /* "FFMA; FADD" reads */
    gboolean repeat = FALSE;
    for (guint j = 0; j < i && !repeat; j++)
      repeat = strcmp(ops[i], ops[j]) == 0;
    if (opcode_name_ok(ops[i]) && !repeat)
      continue;
    g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
                "%s: [%s] opcodes: item %u '%s' %s (allowed: SASS base opcodes such as FFMA, "
                "';'-separated, each once)",
                at, group, i + 1, ops[i], repeat ? "is repeated" : "is no opcode name");
    return FALSE;
  }
  return TRUE;
}

/* Each SASS opcode in one [class_*] group: opclass_lookup takes the first
 * class that names it, so a second would be silently ignored. */
static gboolean validate_opclasses(const SmModel *m, GKeyFile *kf, const gchar *file,
                                   GError **error) {
  for (guint c = 0; c < OPCLASS_MAX; c++) {
    if (m->opclass[c].opcodes != NULL && *m->opclass[c].opcodes != '\0') {
      g_autofree gchar *group = g_strdup_printf("class_%s", opclass_name((OpClass)c));
      g_autofree gchar *at = config_origin(kf, file, group, "opcodes");
      if (!opcode_list_ok(m->opclass[c].opcodes, at, group, error))
        return FALSE;
    }
    gchar *why = NULL;
    if (m->opclass[c].timing != NULL && *m->opclass[c].timing != '\0' &&
        !opclass_timing_check(m->opclass[c].timing,
                              m->opclass[c].opcodes ? m->opclass[c].opcodes : "", &why)) {
      g_autofree gchar *group = g_strdup_printf("class_%s", opclass_name((OpClass)c));
      g_autofree gchar *at = config_origin(kf, file, group, "opcode_timing");
      g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
                  "%s: [%s] opcode_timing: %s (allowed: OPCODE[.MOD]:LATENCY:INTERVAL items, "
                  "';'-separated, each opcode in this group's opcodes and named once)",
                  at, group, why);
      g_free(why);
      return FALSE;
    }
    g_auto(GStrv) ops =
        g_strsplit_set(m->opclass[c].opcodes ? m->opclass[c].opcodes : "", "; ", -1);
    for (guint i = 0; ops[i] != NULL; i++) {
      OpClass first = *ops[i] ? opclass_lookup(m->opclass, ops[i]) : (OpClass)c;
      if (first == (OpClass)c)
        continue;
      g_autofree gchar *group = g_strdup_printf("class_%s", opclass_name((OpClass)c));
      g_autofree gchar *other = g_strdup_printf("class_%s", opclass_name(first));
      g_autofree gchar *at = config_origin(kf, file, group, "opcodes");
      g_autofree gchar *other_at = config_origin(kf, file, other, "opcodes");
      g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
                  "%s: [%s] opcodes: '%s' is also in [%s] of %s (allowed: each opcode in one "
                  "class)",
                  at, group, ops[i], other, other_at);
      return FALSE;
    }
  }
  return TRUE;
}

/* [class_special] indexed_table_bytes strictly ascending, with one
 * indexed_table_latency and one indexed_table_interval entry each. */
static gboolean validate_indexed_tables(const SmModel *m, GKeyFile *kf, const gchar *file,
                                        GError **error) {
  const OpClassModel *cm = &m->opclass[OPCLASS_SPECIAL];
  for (guint i = 1; i < cm->n_indexed_tables; i++) {
    if (cm->indexed_table_bytes[i] > cm->indexed_table_bytes[i - 1])
      continue;
    g_autofree gchar *at = config_origin(kf, file, "class_special", "indexed_table_bytes");
    g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
                "%s: [class_special] indexed_table_bytes: %u after %u is not strictly ascending "
                "(allowed: ascending bytes)",
                at, cm->indexed_table_bytes[i], cm->indexed_table_bytes[i - 1]);
    return FALSE;
  }
  const struct {
    const gchar *key;
    guint n;
  } lists[] = {{"indexed_table_latency", cm->n_indexed_table_latency},
               {"indexed_table_interval", cm->n_indexed_table_interval}};
  for (guint i = 0; i < G_N_ELEMENTS(lists); i++) {
    if (lists[i].n == cm->n_indexed_tables)
      continue;
    g_autofree gchar *at = config_origin(kf, file, "class_special", lists[i].key);
    g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
                "%s: [class_special] %s: %u entries for %u of indexed_table_bytes (allowed: one "
                "per table size)",
                at, lists[i].key, lists[i].n, cm->n_indexed_tables);
    return FALSE;
  }
  return TRUE;
}

/* A reuse edge as given ("N", or "0 ([l2] bytes N)"; a new string). */
static gchar *reuse_edge_text(guint raw, guint l2_bytes) {
  return raw ? g_strdup_printf("%u", raw) : g_strdup_printf("0 ([l2] bytes %u)", l2_bytes);
}

/* [l2] reuse_full_bytes <= reuse_none_bytes, each 0 standing for [l2] bytes.
 * The error names the key a --set moved (reuse_full_bytes when both or
 * neither) and the values of that key that would be accepted. */
static gboolean reuse_edges_ordered(const SmModel *m, GKeyFile *kf, const gchar *file,
                                    GError **error) {
  guint full, none;
  model_l2_reuse_edges(m, &full, &none);
  if (full <= none)
    return TRUE;
  g_autofree gchar *at_full = config_origin(kf, file, "l2", "reuse_full_bytes");
  g_autofree gchar *at_none = config_origin(kf, file, "l2", "reuse_none_bytes");
  g_autofree gchar *full_text = reuse_edge_text(m->l2_reuse_full_bytes, m->l2_bytes);
  g_autofree gchar *none_text = reuse_edge_text(m->l2_reuse_none_bytes, m->l2_bytes);
  if (strcmp(at_none, file) != 0 && strcmp(at_full, file) == 0)
    g_set_error(
        error, MODEL_ERROR, MODEL_ERROR_INVALID,
        "%s: [l2] reuse_none_bytes: %s is below reuse_full_bytes %s (allowed %u..4294967295 "
        "bytes%s)",
        at_none, none_text, full_text, full, m->l2_bytes >= full ? ", or 0" : "");
  else
    g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
                "%s: [l2] reuse_full_bytes: %s exceeds reuse_none_bytes %s (allowed %u..%u bytes)",
                at_full, full_text, none_text, m->l2_bytes <= none ? 0u : 1u, none);
  return FALSE;
}

/* Checks across keys; a message names "FILE, --set" when the key's value came
 * from an override. */
/* A rate whose 0 means "off": 0, or at least `floor` (the floor of the
 * bandwidth keys, 0.001 per cycle: a smaller rate makes one access take more
 * than 2^63 cycles). */
static gboolean off_or_at_least(GKeyFile *kf, const gchar *file, const gchar *group,
                                const gchar *key, gdouble v, gdouble floor, gdouble max,
                                GError **error) {
  if (v == 0 || v >= floor)
    return TRUE;
  g_autofree gchar *at = config_origin(kf, file, group, key);
  g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
              "%s: [%s] %s: %g (allowed 0 = off, or %g..%g)", at, group, key, v, floor, max);
  return FALSE;
}

/* With the store level law on ([l2] store_full_bytes > 0), store_none_bytes
 * and store_none_line_bytes (each 0 standing for the one before it) at least
 * store_full_bytes: the share of stores written to DRAM rises from 0 at the
 * one to 1 at the other (sassmem_store_dram).  The error names the key a
 * --set moved (the none key when both or neither) and its allowed range. */
static gboolean store_edges_ordered(const SmModel *m, GKeyFile *kf, const gchar *file,
                                    GError **error) {
  guint full = m->l2_store_full_bytes;
  if (full == 0)
    return TRUE;
  const gchar *key = NULL;
  guint v = 0;
  if (m->l2_store_none_bytes != 0 && m->l2_store_none_bytes < full)
    key = "store_none_bytes", v = m->l2_store_none_bytes;
  else if (m->l2_store_none_line_bytes != 0 && m->l2_store_none_line_bytes < full)
    key = "store_none_line_bytes", v = m->l2_store_none_line_bytes;
  if (key == NULL)
    return TRUE;
  g_autofree gchar *at_full = config_origin(kf, file, "l2", "store_full_bytes");
  g_autofree gchar *at_none = config_origin(kf, file, "l2", key);
  if (strcmp(at_full, file) != 0 && strcmp(at_none, file) == 0)
    g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
                "%s: [l2] store_full_bytes: %u exceeds %s %u (allowed 0 = off, or 1..%u bytes)",
                at_full, full, key, v, v);
  else
    g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
                "%s: [l2] %s: %u is below store_full_bytes %u (allowed 0 = %s, or %u..4294967295 "
                "bytes)",
                at_none, key, v, full,
                strcmp(key, "store_none_bytes") == 0 ? "store_full_bytes" : "store_none_bytes",
                full);
  return FALSE;
}

/* Reads [l2] atomic_contention ("WORDS:RATE;...") into m's points: at most
 * MODEL_CONTENTION_POINTS items, words whole numbers 1..2^32 in increasing
 * order, rates 1e-6..1e6 lane atomics per cycle.  The error names the key,
 * the item and what is allowed. */
static gboolean read_contention(SmModel *m, GKeyFile *kf, const gchar *file, GError **error) {
  m->n_atomic_contention = 0;
  if (m->atomic_contention == NULL || *g_strstrip(m->atomic_contention) == '\0')
    return TRUE;
  g_auto(GStrv) items = g_strsplit(m->atomic_contention, ";", -1);
  for (guint i = 0; items[i] != NULL; i++) {
    gchar *item = g_strstrip(items[i]), *end = NULL;
    if (*item == '\0' && items[i + 1] == NULL)
      break; /* a trailing ';' */
    gdouble words = g_ascii_strtod(item, &end), rate = 0;
    gboolean ok = end != item && *end == ':' && words >= 1 && words <= U32 + 1.0 &&
                  words == floor(words) && m->n_atomic_contention < MODEL_CONTENTION_POINTS &&
                  (m->n_atomic_contention == 0 ||
                   words > m->atomic_contention_words[m->n_atomic_contention - 1]);
    if (ok) {
      const gchar *r = end + 1;
      rate = g_ascii_strtod(r, &end);
      ok = end != r && *end == '\0' && rate >= 1e-6 && rate <= 1e6;
    }
    if (!ok) {
      g_autofree gchar *at = config_origin(kf, file, "l2", "atomic_contention");
      g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
                  "%s: [l2] atomic_contention: item %u '%s' (allowed: at most %u ';'-separated "
                  "WORDS:RATE items, WORDS a whole number 1..4294967296 larger than the item's "
                  "before, RATE 1e-06..1e+06 lane atomics per cycle)",
                  at, i + 1, item, MODEL_CONTENTION_POINTS);
      return FALSE;
    }
    m->atomic_contention_words[m->n_atomic_contention] = words;
    m->atomic_contention_rates[m->n_atomic_contention++] = rate;
  }
  return TRUE;
}

static gboolean validate(SmModel *m, GKeyFile *kf, const gchar *file, GError **error) {
  guint major = 0, minor = 0;
  if (!model_find_parse_cc(m->cc, &major, &minor)) {
    g_autofree gchar *at = config_origin(kf, file, "sm", "cc");
    g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
                "%s: [sm] cc: '%s' is not a compute capability (allowed major.minor)", at, m->cc);
    return FALSE;
  }
  m->sm.cc_major = major;
  m->sm.cc_minor = minor;
  if (!validate_smem(m, kf, file, error) || !validate_opclasses(m, kf, file, error) ||
      !read_contention(m, kf, file, error) || !validate_indexed_tables(m, kf, file, error))
    return FALSE;
  if (!off_or_at_least(kf, file, "l2", "atomic_sectors_per_cycle", m->atomic_sectors_per_cycle,
                       0.001, 1e6, error) ||
      !off_or_at_least(kf, file, "l2", "atomic_return_sectors_per_cycle",
                       m->atomic_return_sectors_per_cycle, 0.001, 1e6, error) ||
      !off_or_at_least(kf, file, "l2", "atomic_cas_sectors_per_cycle",
                       m->atomic_cas_sectors_per_cycle, 0.001, 1e6, error) ||
      !off_or_at_least(kf, file, "l2", "store_bytes_per_cycle", m->l2_store_bytes_per_cycle, 0.001,
                       4096, error) ||
      !off_or_at_least(kf, file, "bulk", "bytes_per_cycle", m->bulk_bytes_per_cycle, 0.001, 1e6,
                       error) ||
      !store_edges_ordered(m, kf, file, error))
    return FALSE;
  /* DRAM moves every sector a load touches: fewer bytes per sector than a
   * sector (global_cost in sm_memory.c takes the larger) is no model */
  guint scattered = m->opclass[OPCLASS_GLOBAL].scattered_dram_bytes;
  if (scattered > 0 && scattered < m->sector_bytes) {
    g_autofree gchar *at = config_origin(kf, file, "class_global", "scattered_dram_bytes");
    g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
                "%s: [class_global] scattered_dram_bytes: %u is below a sector, [mem] "
                "sector_bytes %u: DRAM moves every sector a load touches (allowed 0 = a line, "
                "or %u..4096 bytes)",
                at, scattered, m->sector_bytes, m->sector_bytes);
    return FALSE;
  }
  /* [l1] bytes is the unified L1 + shared memory: it holds the largest
   * carveout (a smaller one left L1 no bytes whenever CTAs used it all) */
  if (m->has_timing && m->l1_bytes < m->sm.smem_per_sm) {
    g_autofree gchar *at_l1 = config_origin(kf, file, "l1", "bytes");
    g_autofree gchar *at_sm = config_origin(kf, file, "sm", "smem_per_sm");
    if (strcmp(at_sm, file) != 0 && strcmp(at_l1, file) == 0)
      g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
                  "%s: [sm] smem_per_sm: %u exceeds [l1] bytes %u, the unified L1 and shared "
                  "memory that holds it (allowed 0..%u bytes)",
                  at_sm, m->sm.smem_per_sm, m->l1_bytes, m->l1_bytes);
    else
      g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
                  "%s: [l1] bytes: %u is below [sm] smem_per_sm %u: the unified L1 holds the "
                  "shared memory (allowed %u..16777216 bytes)",
                  at_l1, m->l1_bytes, m->sm.smem_per_sm, m->sm.smem_per_sm);
    return FALSE;
  }
  if (m->sm.max_warps / m->sm.smsps > 64) {
    g_autofree gchar *at = config_origin(kf, file, "sm", "max_warps");
    g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
                "%s: [sm] max_warps: %u warps over %u SMSPs (allowed at most 64 warps per SMSP)",
                at, m->sm.max_warps, m->sm.smsps);
    return FALSE;
  }
  if (m->sm.max_warps % m->sm.smsps != 0) {
    g_autofree gchar *at = config_origin(kf, file, "sm", "max_warps");
    g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
                "%s: [sm] max_warps: %u is not a multiple of smsps %u", at, m->sm.max_warps,
                m->sm.smsps);
    return FALSE;
  }
  const MemLevelModel *lv[] = {&m->l1, &m->l2, &m->dram};
  const gchar *lv_name[] = {"l1", "l2", "dram"};
  for (guint i = 0; m->has_timing && i < G_N_ELEMENTS(lv); i++) {
    gboolean stream = lv[i]->stream_latency && lv[i]->stream_latency < lv[i]->latency;
    guint lat = stream ? lv[i]->stream_latency : lv[i]->latency;
    if (lv[i]->latency_spread > lat) {
      g_autofree gchar *at = config_origin(kf, file, lv_name[i], "latency_spread");
      g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
                  "%s: [%s] latency_spread: %u exceeds the level's %s %u (allowed 0..%u "
                  "cycles)",
                  at, lv_name[i], lv[i]->latency_spread, stream ? "stream_latency" : "latency", lat,
                  lat);
      return FALSE;
    }
  }
  if (!reuse_edges_ordered(m, kf, file, error))
    return FALSE;
  if (m->has_timing && sched_lookup(m->policy) == NULL) {
    g_autofree gchar *at = config_origin(kf, file, "sched", "policy");
    g_set_error(error, MODEL_ERROR, MODEL_ERROR_INVALID,
                "%s: [sched] policy: unknown policy '%s' (allowed %s)", at, m->policy,
                sched_names());
    return FALSE;
  }
  return TRUE;
}

static SmModel *load_keyfile(GKeyFile *kf, const gchar *name, const gchar *file,
                             const gchar *const *overrides, GError **error) {
  g_autoptr(SmModel) m = g_new0(SmModel, 1);
  m->name = g_strdup(name);
  m->file = g_strdup(file);
  GError *err = NULL;
  if (!config_apply_overrides(kf, model_table, N_MODEL_KEYS, overrides, &err)) {
    g_set_error_literal(error, MODEL_ERROR, MODEL_ERROR_INVALID, err->message);
    g_error_free(err);
    return NULL;
  }
  g_autofree gchar *missing = NULL;
  if (!config_read_sources(model_table, N_MODEL_KEYS, kf, file, m, &missing, &m->sources, &err)) {
    g_set_error_literal(error, MODEL_ERROR, MODEL_ERROR_INVALID, err->message);
    g_error_free(err);
    return NULL;
  }
  m->has_timing = missing == NULL;
  m->missing_timing = g_steal_pointer(&missing);
  if (!validate(m, kf, file, error))
    return NULL;
  return g_steal_pointer(&m);
}

/* The model's keys as "group.key=value" strings in table order (config_dump's
 * text, one entry per key; a NULL-terminated array to g_strfreev). */
static gchar **model_key_values(const SmModel *m) {
  g_autoptr(GString) out = g_string_new(NULL);
  config_dump(model_table, N_MODEL_KEYS, m, out, "");
  g_auto(GStrv) lines = g_strsplit(out->str, "\n", -1);
  GPtrArray *keys = g_ptr_array_new();
  g_autofree gchar *group = g_strdup("");
  for (guint i = 0; lines[i] != NULL; i++) {
    gsize len = strlen(lines[i]);
    if (len >= 2 && lines[i][0] == '[' && lines[i][len - 1] == ']') {
      g_free(group);
      group = g_strndup(lines[i] + 1, len - 2);
    } else if (len > 0) {
      g_ptr_array_add(keys, g_strdup_printf("%s.%s", group, lines[i]));
    }
  }
  g_ptr_array_add(keys, NULL);
  return (gchar **)g_ptr_array_free(keys, FALSE);
}

/* Set m->modified to the keys whose values differ from `base` (NULL: the
 * one entry "own file FILE"); a modified model is not validated. */
static void mark_modified(SmModel *m, const SmModel *base) {
  g_strfreev(m->modified);
  GPtrArray *diff = g_ptr_array_new();
  if (base == NULL) {
    g_ptr_array_add(diff, g_strdup_printf("own file %s", m->file));
  } else {
    g_auto(GStrv) a = model_key_values(m);
    g_auto(GStrv) b = model_key_values(base);
    for (guint i = 0; a[i] != NULL && b[i] != NULL; i++)
      if (strcmp(a[i], b[i]) != 0)
        g_ptr_array_add(diff, g_strdup(a[i]));
  }
  g_ptr_array_add(diff, NULL);
  m->modified = (gchar **)g_ptr_array_free(diff, FALSE);
  if (m->modified[0] != NULL)
    m->validated = FALSE;
}

static gboolean has_entries(const gchar *const *v) {
  return v != NULL && v[0] != NULL;
}

SmModel *model_load_data(const gchar *data, const gchar *origin, const gchar *const *overrides,
                         GError **error) {
  g_autoptr(GKeyFile) kf = g_key_file_new();
  GError *err = NULL;
  if (!g_key_file_load_from_data(kf, data, (gsize)-1, G_KEY_FILE_NONE, &err)) {
    g_set_error(error, MODEL_ERROR, MODEL_ERROR_PARSE, "%s: %s", origin, err->message);
    g_error_free(err);
    return NULL;
  }
  g_autoptr(SmModel) m = load_keyfile(kf, origin, origin, overrides, error);
  if (m == NULL)
    return NULL;
  g_autoptr(SmModel) base =
      has_entries(overrides) ? model_load_data(data, origin, NULL, NULL) : NULL;
  mark_modified(m, base != NULL ? base : m);
  return g_steal_pointer(&m);
}

/* Load the model file at `path` with `overrides` (modified left empty). */
static SmModel *load_path(const gchar *path, const gchar *const *overrides, GError **error) {
  g_autoptr(GKeyFile) kf =
      config_keyfile_load(path, MODEL_ERROR, MODEL_ERROR_NOT_FOUND, MODEL_ERROR_PARSE, error);
  if (kf == NULL)
    return NULL;
  g_autofree gchar *stem = config_file_stem(path);
  return load_keyfile(kf, stem, path, overrides, error);
}

SmModel *model_load(const gchar *spec, const gchar *const *overrides, GError **error) {
  g_autofree gchar *path = NULL;
  g_autofree gchar *shipped = NULL;
  if (spec == NULL || *spec == '\0') {
    g_set_error(error, MODEL_ERROR, MODEL_ERROR_NOT_FOUND, "--model: empty model name");
    return NULL;
  }
  /* A path names a file; a bare "h100.ini" that is not one is a shipped name. */
  if (strchr(spec, '/') != NULL ||
      (g_str_has_suffix(spec, ".ini") && g_file_test(spec, G_FILE_TEST_EXISTS))) {
    path = g_strdup(spec);
  } else {
    path = model_find_path(spec, error);
    if (path == NULL)
      return NULL;
    shipped = g_strdup(path);
  }
  g_autoptr(SmModel) m = load_path(path, overrides, error);
  if (m == NULL)
    return NULL;
  if (shipped == NULL) { /* a file of one's own: compare it with the shipped one of its name */
    g_autofree gchar *file = g_strconcat(m->name, ".ini", NULL);
    shipped = paths_find("models", file);
  }
  g_autoptr(SmModel) base = NULL;
  if (shipped != NULL && (has_entries(overrides) || strcmp(shipped, path) != 0))
    base = load_path(shipped, NULL, NULL);
  mark_modified(m, shipped == NULL ? NULL : base != NULL ? base : m);
  return g_steal_pointer(&m);
}

gchar *model_modified_text(const SmModel *model, const gchar *separator) {
  return model->modified != NULL ? g_strjoinv(separator, model->modified) : g_strdup("");
}

const MemLevelModel *model_mem_level(const SmModel *model, guint level) {
  const MemLevelModel *lv[] = {&model->l1, &model->l2, &model->dram};
  g_return_val_if_fail(level < G_N_ELEMENTS(lv), &model->dram);
  return lv[level];
}

void model_l2_reuse_edges(const SmModel *model, guint *full, guint *none) {
  *full = model->l2_reuse_full_bytes ? model->l2_reuse_full_bytes : model->l2_bytes;
  *none = model->l2_reuse_none_bytes ? model->l2_reuse_none_bytes : model->l2_bytes;
}

gdouble model_capacity_share(gdouble capacity, guint warps, gdouble footprint) {
  if (footprint <= 0 || warps == 0)
    return 1.0;
  return MIN(1.0, capacity / ((gdouble)warps * footprint));
}

gdouble model_l1_share(const SmModel *model, gdouble capacity, guint warps, gdouble footprint) {
  if (model->l1_thrash_width <= 0 ||
      (model->l1_thrash_max_bytes > 0 && capacity > model->l1_thrash_max_bytes))
    return model_capacity_share(capacity, warps, footprint);
  if (footprint <= 0 || warps == 0)
    return 1.0;
  if (capacity <= 0)
    return 0.0;
  gdouble x = (gdouble)warps * footprint / capacity;
  return CLAMP((model->l1_thrash_start + model->l1_thrash_width - x) / model->l1_thrash_width, 0.0,
               1.0);
}

guint model_level_latency(const MemLevelModel *level, gboolean sequential) {
  return sequential && level->stream_latency ? level->stream_latency : level->latency;
}

/* The shipped models that can be simulated, space-separated (newly allocated). */
static gchar *timing_model_names(void) {
  g_auto(GStrv) paths = model_list();
  GString *s = g_string_new(NULL);
  for (guint i = 0; paths[i] != NULL; i++) {
    g_autoptr(SmModel) m = model_load(paths[i], NULL, NULL);
    if (m != NULL && m->has_timing)
      g_string_append_printf(s, "%s%s", s->len ? " " : "", m->name);
  }
  return g_string_free(s, FALSE);
}

gboolean model_check_timing(const SmModel *model, GError **error) {
  if (model->has_timing)
    return TRUE;
  g_autofree gchar *names = timing_model_names();
  g_set_error(error, MODEL_ERROR, MODEL_ERROR_NO_TIMING,
              "%s: %s: missing, so model '%s' has occupancy limits only and cannot be "
              "simulated (models that can: %s; a model needs the timing groups [sched] [fma] "
              "[alu] [sfu] [smem] [lsu] [branch] [operand] [l1] [l2] [dram] [mem], see h200.ini)",
              model->file, model->missing_timing, model->name, *names ? names : "none found");
  return FALSE;
}

gboolean model_override_group(const gchar *group) {
  return config_has_group(model_table, N_MODEL_KEYS, group);
}

void model_dump(const SmModel *model, GString *out, const gchar *prefix) {
  config_dump_sources(model_table, N_MODEL_KEYS, model, &model->sources, out, prefix);
}

/* The model's provenance, borrowed, with the keys `sources` lists
 * ("group.key=KIND: detail") replaced: model->sources.n entries (g_free the
 * array only). */
static gchar **shown_sources(const SmModel *model, const gchar *const *sources) {
  gchar **source = g_new0(gchar *, model->sources.n + 1);
  for (guint i = 0; i < model->sources.n; i++)
    source[i] = model->sources.source[i];
  for (guint j = 0; sources != NULL && sources[j] != NULL; j++) {
    const gchar *eq = strchr(sources[j], '=');
    for (guint i = 0; eq != NULL && i < N_MODEL_KEYS && i < model->sources.n; i++) {
      gsize g = strlen(model_table[i].group);
      if (strncmp(sources[j], model_table[i].group, g) == 0 && sources[j][g] == '.' &&
          strlen(model_table[i].key) == (gsize)(eq - sources[j] - g - 1) &&
          strncmp(sources[j] + g + 1, model_table[i].key, eq - sources[j] - g - 1) == 0)
        source[i] = (gchar *)eq + 1;
    }
  }
  return source;
}

void model_dump_sources(const SmModel *model, const gchar *const *sources, GString *out,
                        const gchar *prefix) {
  g_autofree gchar **source = shown_sources(model, sources);
  const ConfigSources shown = {.source = source, .n = model->sources.n};
  config_dump_sources(model_table, N_MODEL_KEYS, model, &shown, out, prefix);
}

gpointer model_sources_json(const SmModel *model, const gchar *const *sources) {
  JsonObject *o = json_object_new();
  g_autofree gchar **source = shown_sources(model, sources);
  for (guint i = 0; i < N_MODEL_KEYS && i < model->sources.n; i++) {
    if (source[i] == NULL)
      continue;
    g_autofree gchar *name = g_strdup_printf("%s.%s", model_table[i].group, model_table[i].key);
    json_object_set_string_member(o, name, source[i]);
  }
  JsonNode *node = json_node_new(JSON_NODE_OBJECT);
  json_node_take_object(node, o);
  return node;
}

const gchar *model_key_source(const SmModel *model, const gchar *group, const gchar *key) {
  for (guint i = 0; i < N_MODEL_KEYS && i < model->sources.n; i++)
    if (strcmp(model_table[i].group, group) == 0 && strcmp(model_table[i].key, key) == 0)
      return model->sources.source[i];
  return NULL;
}

void model_describe(GString *out) {
  config_describe(model_table, N_MODEL_KEYS, out);
}

void model_free(SmModel *model) {
  if (model == NULL)
    return;
  config_clear(model_table, N_MODEL_KEYS, model);
  config_sources_clear(&model->sources);
  g_free(model->missing_timing);
  g_strfreev(model->modified);
  g_free(model->name);
  g_free(model->file);
  g_free(model);
}

gdouble model_busy_share(const SmModel *model, const BusyShare *b, guint busy) {
  guint full = model->full_load_sms > 0 ? model->full_load_sms : model->sm.sms;
  if (b->lone_ratio <= 1.0 || busy == 0 || full == 0 || busy >= full)
    return 1.0;
  gdouble p = b->exponent, lone = pow(b->lone_ratio, -p);
  return pow(lone + pow((gdouble)busy / full, p) * (1.0 - lone), -1.0 / p);
}

gdouble model_atomic_contended_rate(const SmModel *model, gdouble words) {
  guint n = model->n_atomic_contention;
  const gdouble *w = model->atomic_contention_words, *r = model->atomic_contention_rates;
  if (n == 0 || words <= 0 || words > w[n - 1])
    return 0.0;
  if (words <= w[0])
    return r[0];
  guint k = 1;
  while (w[k] < words)
    k++;
  gdouble t = log(words / w[k - 1]) / log(w[k] / w[k - 1]);
  return exp(log(r[k - 1]) + t * (log(r[k]) - log(r[k - 1])));
}
