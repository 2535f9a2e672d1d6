/* profile_agree.h - agreement with the profile: the launch a details export
 * describes (its block size, grid, registers, shared memory and resident
 * blocks) simulated, and what the simulation gives set beside what Nsight
 * Compute measured, metric by metric (doc/profile_agreement.md).
 *
 * Disagreement of one metric: |simulated - profiled| / max(|simulated|,
 * |profiled|, floor), 0..1, with a floor of 10 points for a percentage (a
 * 0.4 % against 0.0 % DRAM throughput is no disagreement) and of 0 else.
 * The metric that disagrees most is taken over the comparable metrics other
 * than the cycles themselves and over the warp states' shares (the source
 * page's samples per reason against the simulated warp cycles per state).
 * L1/L2 throughput and hit rates are shown but not compared: the model's
 * peaks are not Nsight Compute's, and the hit rates are the model's input.
 */
#ifndef WARPSIM_PROFILE_AGREE_H
#define WARPSIM_PROFILE_AGREE_H

#include "input/kernel.h"
#include "input/model.h"
#include "run/sim.h"
#include "sass/ncu.h"

#include <json-glib/json-glib.h>

typedef enum {
  AGREE_SM_ACTIVE_CYCLES, /* cycles per SM with a warp resident (average over the SMs) */
  AGREE_ELAPSED_CYCLES,   /* cycles of the longest SM (the profile: of the launch) */
  AGREE_ISSUED_IPC,       /* warp instructions issued per active cycle per SM */
  AGREE_ISSUE_SLOTS,      /* issue slots busy, % */
  AGREE_WARP_CPI,         /* warp cycles per issued instruction */
  AGREE_DRAM_PCT,         /* DRAM throughput, % of the profile's DRAM peak */
  AGREE_L2_PCT,           /* L2 throughput, % (simulated: of the model's L2 bandwidth) */
  AGREE_L1_PCT,           /* L1/TEX throughput, % (simulated: of the model's L1 bandwidth) */
  AGREE_L1_HIT,           /* L1/TEX hit rate, % (simulated: of global bytes) */
  AGREE_L2_HIT,           /* L2 hit rate, % (simulated: of the bytes past L1) */
  AGREE_ACHIEVED_OCC,     /* achieved occupancy, % */
  AGREE_METRIC_MAX
} AgreeMetric;

/* Cycles off by more than this share make the warning (10 %). */
#define PROFILE_AGREE_WARN_SHARE 0.10

/* Below this the profile's Issued Ipc Active, printed with two decimals,
 * holds under two significant digits: the agreement takes Issued
 * Instructions / (SMs x SM Active Cycles) instead, when the export has them. */
#define PROFILE_AGREE_IPC_PRINTED_MIN 0.1

typedef struct {
  gboolean present; /* a details export's launch was simulated */
  /* the profiled launch, as the details export states it */
  guint threads_per_block; /* threads */
  guint grid_blocks;       /* CTAs */
  guint regs_per_thread;   /* registers */
  guint smem_static;       /* bytes per CTA */
  guint smem_dynamic;      /* bytes per CTA */
  guint blocks_per_sm;     /* resident CTAs (Theoretical Active Warps per SM / warps per CTA;
                              0: as the occupancy calculator allows) */
  gdouble profiled[AGREE_METRIC_MAX];  /* what the profile measured (NaN = not in the export) */
  gdouble simulated[AGREE_METRIC_MAX]; /* what the simulation of that launch gives */
  gdouble state_profiled_pct[NCU_STALL_MAX];  /* warp-state samples per reason, % (NaN: no
                                                 source page) */
  gdouble state_simulated_pct[NCU_STALL_MAX]; /* simulated warp cycles per state, % */
  gdouble memory_wait_pct;    /* simulated warp cycles waiting for memory, %: long_scoreboard +
                                 lg_throttle + drain, the loads waiting for the SM's lines in
                                 flight (SimStats lg_load_sm) counted to lg_throttle, so that the
                                 sum rounds as it did before they were charged long_scoreboard */
  gdouble cycles_ratio;       /* simulated / profiled SM active cycles (NaN = unknown) */
  gint worst;                 /* AgreeMetric, or AGREE_METRIC_MAX + NcuStall for a warp state,
                                 that disagrees most; -1 = none */
  gdouble worst_disagreement; /* its disagreement, 0..1 */
  gboolean warn;              /* cycles differ by more than PROFILE_AGREE_WARN_SHARE */
  /* the L2 atomic unit on the most loaded simulated SM ([l2] atomic_sectors_per_cycle; 0
     when the model has none or the kernel no global atomics): */
  gdouble atomic_sectors;     /* global atomic sectors it served (RED and ATOM) */
  gdouble atomic_busy_cycles; /* cycles it was held at the model's rates */
  gdouble atomic_sm_cycles;   /* that SM's simulated cycles */
} ProfileAgreement;

/* The profiled launch of `k` (a SASS kernel with a details export): `k`
 * (shallow, strings borrowed) with the export's block size, grid,
 * registers, static and dynamic shared memory (the opt-in when past the
 * model's smem_per_block) and resident blocks, and cold: no data left in L2
 * by a launch before (l2_warm false: Nsight Compute's default
 * --cache-control all empties the caches before every replay pass).  FALSE when `k` has no
 * details export. */
gboolean profile_agree_launch(const SmModel *m, const Kernel *k, Kernel *out);

/* Fill `out` from the profile of `k` and `r`, a run of profile_agree_launch's
 * launch on `m`.  Without a details export out->present is FALSE. */
void profile_agree_compare(const SmModel *m, const Kernel *k, const SimResult *r,
                           ProfileAgreement *out);

/* The simulations of profiled launches one caller has made, to make each
 * once: the points of one occupancy curve (`warpsim run --points`) share
 * their profiled launch, which is 43-60 % of a profiled curve's time when
 * simulated at every point (doc/speed.md "Curves").  A launch is looked up
 * by every input sim_run reads: the model's bytes (a shallow copy: its
 * tables are found by address, so every model used with one memo must stay
 * alive and unchanged while the memo lives), the kernel's [launch],
 * [stream] and [sass] values and file names, and the options' policy,
 * invariant checks, cycle bound and time factor.  The loaded listing and exports are
 * not compared: two kernels with the same [sass] names loaded for the same
 * model hold the same program.  Results are the same with and without a
 * memo (sim_run is deterministic).  Free with profile_agree_memo_free. */
typedef struct ProfileAgreeMemo ProfileAgreeMemo;
ProfileAgreeMemo *profile_agree_memo_new(void);
void profile_agree_memo_free(ProfileAgreeMemo *memo);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ProfileAgreeMemo, profile_agree_memo_free)

/* The run of `k` on `m` with `opt` that `memo` holds (a profiled launch
 * simulated for the agreement or the anchor: the anchor's shape check at a
 * curve's own launch, profile_agree_cycles_at), owned by `memo`; NULL when
 * it holds none.  The same as sim_run's result for those inputs. */
const SimResult *profile_agree_memo_lookup(ProfileAgreeMemo *memo, const SmModel *m,
                                           const Kernel *k, const SimOptions *opt);

/* Simulate the profiled launch of `k` on `m` with `opt` (or take `same`, a
 * run of `k` itself, when its launch is that one: may be NULL; or the
 * simulation `memo` holds, when not NULL, which then keeps this one) and
 * compare.  FALSE with the simulation's SIM_ERROR; TRUE with out->present
 * FALSE when `k` has no details export. */
gboolean profile_agree(const SmModel *m, const Kernel *k, const SimOptions *opt,
                       const SimResult *same, ProfileAgreeMemo *memo, ProfileAgreement *out,
                       GError **error);

/* The profiled launch of `k` with `blocks_per_sm` resident CTAs per SM in
 * place of those `a` (its agreement: present) simulated, on `m` with
 * `opt`: the grid scaled alike (as many waves per SM as profiled, at least
 * one CTA), the dynamic shared memory cut to the most that lets that many
 * reside when the export's (the padding that pinned its count) allows
 * fewer, and L2 and the opt-in as `k`'s own launches have them (`[launch]
 * l2_warm`: the curve's, not the profile's cold replay; `optin`, which
 * changes no resident CTA of a launch that fits without it, so such a
 * launch may be the curve's own point, which `warpsim run --points` then
 * takes from `memo`).  *cycles = its SM active cycles averaged over the
 * device's SMs, as the agreement's simulated column; NaN
 * when `a` is not present or that many CTAs cannot reside (warps,
 * registers or the static shared memory allow fewer).  `memo` (may be
 * NULL) as profile_agree's.  FALSE with the simulation's SIM_ERROR. */
gboolean profile_agree_cycles_at(const SmModel *m, const Kernel *k, const SimOptions *opt,
                                 const ProfileAgreement *a, guint blocks_per_sm,
                                 ProfileAgreeMemo *memo, gdouble *cycles, GError **error);

/* The name of agreement item `i` (an AgreeMetric, or AGREE_METRIC_MAX +
 * NcuStall: "state:long_scoreboard"; static) and its column name. */
const gchar *profile_agree_name(gint i);

/* The warning line (no "warpsim: warning: " prefix, no newline) when
 * a->warn, else NULL; a new string.  `a` is the pure model's agreement;
 * `anchored`: the curve printed is anchored on the profile (the line says
 * so instead of "do not trust this curve", which is said of the pure
 * curve: --no-anchor, or an anchor not applied or dropped). */
gchar *profile_agree_warning(const ProfileAgreement *a, const gchar *kernel, gboolean anchored);

/* Append the section "Agreement with the profile" as aligned text. */
void profile_agree_append_text(const ProfileAgreement *a, GString *out);

/* The agreement as a JSON object node (caller owns). */
JsonNode *profile_agree_to_json(const ProfileAgreement *a);

#endif
