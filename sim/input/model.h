/* model.h - the description of one SM: limits, pipes, memory levels, clock.
 *
 * A model is read from a GKeyFile (models/<name>.ini) through the table in
 * model.c, validated, and then passed as `const SmModel *` to every module.
 * Models that carry only the [sm] limits serve the occupancy calculator; the
 * timing groups ([sched], [fma], [alu], [sfu], [smem], [lsu], [branch],
 * [operand], [l1], [l2], [dram], [mem]) are needed to simulate.
 */
#ifndef WARPSIM_MODEL_H
#define WARPSIM_MODEL_H

#include "input/config.h"
#include "sass/opclass.h"

#include <glib.h>

#define MODEL_MAX_SMEM_CONFIGS 16

/* Occupancy-relevant limits of one SM (CUDA C Programming Guide, "Compute
 * Capabilities" tables; NVIDIA's cuda_occupancy.h). */
typedef struct {
  guint cc_major;                             /* compute capability, major */
  guint cc_minor;                             /* compute capability, minor */
  guint smsps;                                /* sub-partitions (schedulers) per SM */
  guint sms;                                  /* SMs per device (for waves per SM) */
  guint warp_size;                            /* threads per warp */
  guint max_warps;                            /* resident warps per SM */
  guint max_blocks;                           /* resident CTAs per SM */
  guint max_threads_per_block;                /* threads */
  guint regs;                                 /* 32-bit registers per SM */
  guint max_regs_per_block;                   /* 32-bit registers per CTA */
  guint max_regs_per_thread;                  /* registers */
  guint reg_alloc_unit;                       /* registers per warp allocation unit; 1 = none */
  guint smem_per_sm;                          /* bytes, largest shared-memory carveout */
  guint smem_per_block;                       /* bytes a CTA may use without opt-in */
  guint smem_per_block_optin;                 /* bytes a CTA may use with opt-in */
  guint smem_reserved;                        /* bytes the system reserves per CTA */
  guint smem_alloc_unit;                      /* bytes; 1 = none */
  guint n_smem_configs;                       /* entries in smem_configs */
  guint smem_configs[MODEL_MAX_SMEM_CONFIGS]; /* bytes, supported carveouts, ascending */
} SmLimits;

/* One execution pipe of an SMSP (or of the whole SM where said). */
typedef struct {
  guint latency;  /* cycles from issue until a dependent instruction may issue */
  guint interval; /* cycles between two warp instructions entering the pipe */
} PipeModel;

/* One level of the global-memory hierarchy as seen from one SM. */
typedef struct {
  guint latency;           /* cycles, mean unloaded latency of a random-line warp-load */
  guint stream_latency;    /* cycles, same for sequential (streaming) loads; 0 = latency */
  guint latency_spread;    /* cycles, mean of the exponential part of the latency */
  gdouble bytes_per_cycle; /* bytes per cycle per SM, the level's share */
  guint channels;          /* independent servers random-line loads spread over */
  guint stream_channels;   /* independent servers sequential loads spread over; 0 = channels */
} MemLevelModel;

/* How a level's per-SM bandwidth share grows when fewer SMs are busy: a lone
 * busy SM gets lone_ratio x bytes_per_cycle, all full_load_sms busy SMs get
 * bytes_per_cycle, and in between the smooth minimum of the lone SM's rate
 * and the device's rate / n (model_busy_share). */
typedef struct {
  gdouble lone_ratio; /* a lone busy SM's share over bytes_per_cycle (1 = no rise) */
  gdouble exponent;   /* p of the smooth minimum (larger: closer to the plain minimum) */
} BusyShare;

/* Points of [l2] atomic_contention at most. */
#define MODEL_CONTENTION_POINTS 16

typedef struct {
  gchar *name;           /* model name (file stem), owned */
  gchar *file;           /* path the model was read from, owned */
  gchar *description;    /* one line, owned */
  gchar *cc;             /* "9.0", owned */
  gboolean validated;    /* timing checked against measurements of this GPU in the repository;
                            FALSE whenever `modified` is non-empty (model_load) */
  gchar **modified;      /* how the model differs from the shipped model of its name, owned,
                            NULL-terminated, empty when it is one unchanged: "group.key=value"
                            per key whose value differs (a --set, an edited copy), or
                            "own file PATH" when no shipped model has its name */
  ConfigSources sources; /* provenance of every key's value (model_table order) */
  SmLimits sm;
  gdouble clock_mhz;    /* SM clock under load, MHz (informational) */
  guint cluster_blocks; /* [sm] cluster_blocks_per_sm: CTAs of a cluster launch one SM holds at
                           once, whatever the other limits allow (0: no limit) */

  gboolean has_timing;            /* TRUE when every timing group is present */
  gchar *missing_timing;          /* "[group] key" of the first absent timing key, owned; or NULL */
  gchar *policy;                  /* default scheduler policy name, owned */
  guint sched_group;              /* two_level, oldest_group: warps per fetch group, per SMSP */
  gboolean sched_yield;           /* SASS yield hints hand the slot to another ready warp */
  guint sched_lsu_fifo;           /* warps per SMSP whose global memory instruction waits in
                                     arrival order while the lines in flight are contended
                                     (0 = none: the policy grants them) */
  PipeModel fma;                  /* FP32 pipe, per SMSP */
  PipeModel alu;                  /* INT32 pipe, per SMSP */
  PipeModel sfu;                  /* MUFU pipe, per SMSP */
  PipeModel smem;                 /* shared-memory unit, per SM (interval per warp-wide 4 B load) */
  guint smem_wavefront_latency;   /* cycles of latency each shared-memory wavefront beyond the
                                     first adds to the access (bank-conflict ways, LDSM matrices) */
  guint smem_queue;               /* cycles of work the shared-memory unit may have queued when an
                                     LDS/STS/SHFL issues (0 = it issues only to an idle unit) */
  PipeModel lsu;                  /* LSU/MIO issue to L1TEX, per SMSP (latency unused) */
  guint branch_latency;           /* cycles after a loop branch before the warp issues again */
  guint bar_latency;              /* cycles from the barrier unit taking a CTA's last arrival to
                                     the release of its warps (never before the cycle after the
                                     last BAR issued) */
  guint bar_cluster_latency;      /* cycles a cluster barrier's wait (UCGABAR_WAIT) is released
                                     after a CTA barrier would be (the peer CTAs on other SMs) */
  guint bar_interval;             /* cycles the SM's barrier unit takes per warp arrival, one unit
                                     per SM (0 = no limit) */
  guint membar_latency[2];        /* [membar] cycles from a MEMBAR.*.GPU to its warp's next issue,
                                     with no / with a memory access of the warp in flight (0: none) */
  guint membar_interval;          /* [membar] cycles the SM's fence unit takes per MEMBAR */
  guint dsmem_latency;            /* [dsmem] cycles from a load's issue at the SM's DSMEM port to
                                     its data from the peer CTA's shared memory (0: no DSMEM
                                     model, such a load is timed as a global load) */
  gdouble dsmem_interval[2];      /* [dsmem] cycles of the SM's DSMEM port per 128 B warp-load /
                                     warp-store (0: no limit) */
  guint tex_latency[2];           /* [texture] cycles a TEX / a TLD adds to the latency of a load
                                     from the same level (0: none) */
  gdouble tex_bytes;              /* [texture] bytes a warp-TEX moves through L1 and L2 when the
                                     profile does not say (0: the ideal sectors) */
  guint tex_interval[2];          /* [texture] cycles the SM's texture unit takes per warp-TEX /
                                     warp-TLD (0: no unit) */
  gdouble bulk_latency[2];        /* [bulk] TMA copy (UBLKCP) from L2 / from DRAM: cycles from
                                     issue to its bytes in shared memory, fixed part (0: no bulk
                                     model, an mbarrier wait is a one-cycle control op) */
  gdouble bulk_cycles_per_kib[2]; /* [bulk] and cycles per KiB of the copy beyond that */
  gdouble bulk_bytes_per_cycle;   /* [bulk] bytes per cycle the SM's copies take together */
  gboolean bar_smem_slot;         /* each arrival also takes one [smem] interval of the
                                     shared-memory unit (without waiting for it) */
  gboolean operand_conflict;      /* model the FFMA register-bank conflict */
  guint operand_penalty;         /* cycles a conflicting FFMA holds dispatch beyond its own issue */
  gdouble spill_bytes_per_cycle; /* local-memory (LDL/STL) bytes per cycle per SM through L1 */
  gdouble local_scattered_load_cycles;  /* cycles of the local-memory port per sector of a
                                           scattered LDL (a register-indexed local array; 0 =
                                           spill_bytes_per_cycle) */
  gdouble local_scattered_store_cycles; /* the same for a scattered STL */
  guint spill_loop_regs;                /* registers a loop needs beside its live values (ptxas) */
  guint spill_extra_values;             /* most values ptxas spills beyond the registers it lacks */
  MemLevelModel l1, l2, dram;
  BusyShare l2_busy, dram_busy;     /* how the L2 and DRAM shares grow as fewer SMs are busy */
  gdouble dram_queue_cycles;        /* [dram] queue_cycles: extra latency of a DRAM load at the
                                       SM's full DRAM share (rho = 1; 0 = none) */
  gdouble dram_queue_exponent;      /* [dram] queue_exponent: the extra is queue_cycles x
                                       rho ^ queue_exponent */
  gdouble dram_queue_window;        /* [dram] queue_window: cycles, time constant of the
                                       exponential average of the SM's DRAM bytes that gives rho */
  gdouble l2_peak_bytes_per_cycle;  /* L2 share per SM, bytes per cycle, of a SASS load through
                                       L1TEX that leaves the SM's lines in flight within
                                       [class_global] lines_in_flight (0 = [l2] bytes_per_cycle,
                                       which is then the rate once loads exceed it) */
  guint full_load_sms;              /* SMs busy when [l2]/[dram] bytes_per_cycle were measured
                                       (0 = [sm] sms) */
  guint l1_bytes;                   /* bytes of unified L1 + shared memory per SM; local memory
                                       (spills) hits in what shared memory leaves free */
  gdouble l1_thrash_start;          /* [l1] thrash_start: W x F / C at which the L1 share of
                                       private working sets starts to fall (model_l1_share) */
  gdouble l1_thrash_width;          /* [l1] thrash_width: W x F / C over which it falls to 0
                                       (0 = the share is min(1, C / (W x F))) */
  guint l1_thrash_max_bytes;        /* [l1] thrash_max_bytes: largest capacity C the ramp
                                       holds for (bytes; larger: the smooth share; 0 = any) */
  gboolean l1_thrash_sass;          /* [l1] thrash_sass: SASS kernels' L1 hit rate moves with
                                       that ramp too (FALSE: the smooth share) */
  guint max_inflight;               /* warp-loads in flight per SM (0 = no cap) */
  gdouble atomic_sectors_per_cycle; /* L2 atomic unit's share of one SM for global reductions
                                       (RED), sectors per cycle per SM with every SM busy; 0 =
                                       atomics are timed as L2 writes ([l2] bytes_per_cycle) */
  gdouble atomic_return_sectors_per_cycle; /* the same for atomics that return a value (ATOM);
                                              0 = atomic_sectors_per_cycle */
  gdouble atomic_cas_sectors_per_cycle;    /* the same for compare-and-swap (ATOMG.E.CAS); 0 =
                                              atomic_return_sectors_per_cycle */
  guint atomic_cas_latency;                /* cycles from issue until an uncontended CAS's old
                                              value is back (0 = timed as an L2 load) */
  gchar *atomic_contention;                /* [l2] atomic_contention: "WORDS:RATE" items,
                                              ';'-separated, owned ("" = off) */
  guint n_atomic_contention;               /* points read from it (model_load; 0 = off) */
  gdouble atomic_contention_words[MODEL_CONTENTION_POINTS]; /* distinct 4-byte words the
                                                               device's atomics aim at,
                                                               increasing */
  gdouble atomic_contention_rates[MODEL_CONTENTION_POINTS]; /* lane atomics per cycle the
                                                               whole device does on them */
  guint sector_bytes;                                       /* bytes per sector */
  guint line_bytes;                                         /* bytes per cache line */
  guint l2_bytes;                    /* bytes of L2 for the whole device (0 = no capacity model) */
  guint l2_reuse_full_bytes;         /* bytes: a footprint up to this is re-read from L2 in whole */
  guint l2_reuse_none_bytes;         /* bytes: from this on it is re-read from DRAM in whole */
  gdouble l2_store_bytes_per_cycle;  /* [l2] store_bytes_per_cycle: bytes per cycle per SM of
                                        the stores L2 keeps (its write port, apart from the
                                        loads' L2 share); 0 = those stores are timed as DRAM
                                        stores, their bytes counted as L2's */
  guint l2_store_full_bytes;         /* [l2] store_full_bytes: a warm launch whose L2 footprint is
                                        at most this writes none of its stores to DRAM (0 = every
                                        store goes to DRAM: the store level law off) */
  guint l2_store_none_bytes;         /* [l2] store_none_bytes: from this footprint on a warm
                                        launch writes every store of more lines to DRAM, linear
                                        in between (0: a step at store_full_bytes) */
  guint l2_store_none_line_bytes;    /* [l2] store_none_line_bytes: the same for one-line
                                        warp-stores (0 = store_none_bytes) */
  guint l2_store_residue_bytes;      /* [l2] store_residue_bytes: bytes of a cold launch's stores
                                        still in L2 when it ends (the rest written to DRAM) */
  guint l2_far_extra_cycles;         /* cycles a scattered load served by the far L2 partition
                                        waits beyond an L2 hit ([l2] far_extra_cycles; 0 = off):
                                        the share of such loads comes from the profile (sassmem.h
                                        sassmem_l2_far); fitted on
                                        results/reference/h200/gatherstep/ */
  OpClassModel opclass[OPCLASS_MAX]; /* SASS opcode classes ([class_<name>]) */
} SmModel;

#define MODEL_ERROR (model_error_quark())
GQuark model_error_quark(void);
typedef enum {
  MODEL_ERROR_NOT_FOUND, /* no model of that name, cc or path */
  MODEL_ERROR_PARSE,     /* malformed file */
  MODEL_ERROR_INVALID,   /* unknown group/key, value out of range */
  MODEL_ERROR_NO_TIMING, /* the model lacks timing groups needed to simulate */
} ModelError;

/* Resolve `spec` and load it: a path (holding a '/', or an existing
 * "NAME.ini"), else a shipped model found as paths.h says (WARPSIM_MODELS,
 * then next to the binary) by its name in any case ("h200", "H100",
 * "h100.ini"), a compute capability ("9.0") or an nvcc architecture
 * ("sm_90", "compute_90"); the message of an unknown one lists the models
 * and the directories searched.  Load it applying `overrides`
 * ("group.key=value" strings, NULL-terminated, may be NULL) on top of the
 * file.  The result's `modified` lists each key whose value differs from the
 * shipped model of the file's name (so a --set that repeats the shipped
 * value, or a byte-identical copy elsewhere, is no change), or "own file
 * PATH" when none has that name; a modified model is never `validated`.
 * Returns a new model (free with model_free) or NULL with
 * MODEL_ERROR set; messages name the file, group and key. */
SmModel *model_load(const gchar *spec, const gchar *const *overrides, GError **error);

/* Like model_load but from an in-memory GKeyFile text; `origin` names it in
 * messages.  `modified` lists the keys `overrides` change against the text
 * itself (there is no shipped file to compare it with). */
SmModel *model_load_data(const gchar *data, const gchar *origin, const gchar *const *overrides,
                         GError **error);

/* The entries of model->modified joined by `separator` (", " gives
 * "dram.latency=500, fma.latency=5"); "" for a shipped model unchanged.
 * Newly allocated. */
gchar *model_modified_text(const SmModel *model, const gchar *separator);

/* The memory level `level` (0 = L1, 1 = L2, 2 = DRAM: MemLevel's order) of
 * `model` (borrowed from it). */
const MemLevelModel *model_mem_level(const SmModel *model, guint level);

/* Lane (thread) atomics per cycle the whole device does when its global
 * reductions and atomics (not compare-and-swap) spread at random lanes over
 * `words` distinct 4-byte words: [l2] atomic_contention's points, interpolated
 * linearly in log(words) and log(rate); the first point's rate below it.  0
 * when the key is off, `words` is 0 (not known) or past the last point (the
 * uncontended [l2] atomic_sectors_per_cycle is then the only limit).  The
 * H200's points are results/reference/h200/atomics/atomics.csv (doc/atomics.md). */
gdouble model_atomic_contended_rate(const SmModel *model, gdouble words);

/* A level's unloaded latency in cycles for sequential (streaming) or
 * random-line loads: stream_latency when set and `sequential`, else latency. */
guint model_level_latency(const MemLevelModel *level, gboolean sequential);

/* The factor by which a level's bytes_per_cycle grows when `busy` SMs of the
 * device are busy instead of full_load_sms (0: [sm] sms): with R =
 * lone_ratio, N = full_load_sms and p = exponent, share(n) = (R^-p + (n/N)^p
 * (1 - R^-p))^(-1/p), so share(1) = R and share(N) = 1 (busy >= N gives 1).
 * The form and p are fitted on the H200's per-busy-SM bandwidth
 * (results/reference/h200/smallgrid/active.csv, scripts/fit_busy_share.sh). */
gdouble model_busy_share(const SmModel *model, const BusyShare *b, guint busy);

/* The warm-L2 reuse edges in bytes: *full = [l2] reuse_full_bytes and
 * *none = reuse_none_bytes, each 0 standing for [l2] bytes. */
void model_l2_reuse_edges(const SmModel *model, guint *full, guint *none);

/* Hit rate of a cache capacity C (bytes) shared by `warps` warps of
 * `footprint` bytes each, under LRU with no reuse across warps: min(1, C /
 * (warps x footprint)); 1 when footprint or warps is 0.  Serves [stream]
 * footprint kernels (sim.c) and the SASS hit rates' move with resident warps
 * (sassmem_hit_rates). */
gdouble model_capacity_share(gdouble capacity, guint warps, gdouble footprint);

/* Hit rate of an L1 of `capacity` bytes (what the shared-memory carveout
 * leaves) shared by `warps` warps that each re-read a private working set of
 * `footprint` bytes.  With x = warps x footprint / capacity, s = [l1]
 * thrash_start and d = [l1] thrash_width > 0: 1 for x <= s, falling linearly
 * to 0 at x = s + d (an LRU-like cliff: once the warps' lines exceed the
 * cache each is evicted before its reuse), 0 beyond.  d = 0: the smooth
 * share model_capacity_share (min(1, 1 / x)).  1 when footprint or warps is
 * 0; 0 when capacity is 0 and the warps have a footprint.  A capacity above
 * [l1] thrash_max_bytes (when not 0) takes the smooth share: there the
 * measured cliff sits further out than the ramp puts it.  H200:
 * results/reference/h200/thrash/ (doc/model.md "L1 thrash"). */
gdouble model_l1_share(const SmModel *model, gdouble capacity, guint warps, gdouble footprint);

/* Fails with MODEL_ERROR_NO_TIMING unless the model can be simulated. */
gboolean model_check_timing(const SmModel *model, GError **error);

/* Write the model's effective configuration as GKeyFile text into `out`
 * (each line prefixed with `prefix`, e.g. "# "). */
void model_dump(const SmModel *model, GString *out, const gchar *prefix);

/* model_dump with the provenance of some keys replaced: `sources` is a
 * NULL-terminated list of "group.key=KIND: detail" (NULL: none), each
 * printed as that key's KEY.source line (a key the model table lacks is
 * skipped).  For a model derived from a loaded one whose values no longer
 * are the ones its sources describe (profile_anchor_sources). */
void model_dump_sources(const SmModel *model, const gchar *const *sources, GString *out,
                        const gchar *prefix);

/* Append the provenance of every key as a JSON-ready list: one
 * "group.key" -> "KIND: detail" pair per key with a known source, those
 * `sources` lists replaced as model_dump_sources does (NULL: none) (a new
 * JsonNode object; the caller owns it). */
gpointer model_sources_json(const SmModel *model, const gchar *const *sources);

/* The provenance of [group] key ("KIND: detail": the file's KEY.source, a
 * --set, or the key's default), borrowed from `model`; NULL when the model
 * table has no such key or no source is known. */
const gchar *model_key_source(const SmModel *model, const gchar *group, const gchar *key);

/* TRUE when `group` is a model group (so "--set group.key=v" targets the model). */
gboolean model_override_group(const gchar *group);

/* Append one line per model key (range, unit, default, meaning), for --help. */
void model_describe(GString *out);

/* Shipped models, sorted by file name, from every directory paths.h
 * searches (the first holding a name wins): a NULL-terminated array of paths
 * (free with g_strfreev); empty when none is found. */
gchar **model_list(void);

void model_free(SmModel *model);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SmModel, model_free)

#endif
