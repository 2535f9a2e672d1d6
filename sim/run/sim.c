/* sim.c - one run: plan the launch, build the program, run the SM. */
#include "run/sim.h"

#include "core/sm.h"
#include "run/launch.h"
#include "run/synth.h"
#include "sass/sassmem.h"
#include "sass/sassprog.h"

#include <string.h>

/* An instruction source, chosen once per run: the program every warp
 * walks, the local memory its threads touch through L1, and the
 * ProgramMemory of a launch.  sim_run and sim_estimate_insts call these and
 * ask nowhere else which source a kernel has. */
typedef struct {
  /* The program of `k` with `spilled` values reloaded per iteration; NULL
   * with an error when it cannot be built (warnings: may be NULL). */
  Program *(*program)(const Kernel *k, const SmModel *m, guint spilled, GString *warnings,
                      GError **error);
  /* Values per thread in local memory of the launch `plan` (each a 4-byte
   * value through L1, launch_spill_l1_hit); *used: some instruction touches
   * them. */
  guint (*local_values)(const Kernel *k, const SimResult *plan, gboolean *used);
  /* The ProgramMemory of the launch `plan` with `smem_per_sm` bytes of
   * shared memory per SM. */
  void (*memory)(const Kernel *k, const SmModel *m, const SimResult *plan, gdouble smem_per_sm,
                 ProgramMemory *mem);
} Source;

static Program *synth_source_program(const Kernel *k, const SmModel *m, guint spilled,
                                     GString *warnings, GError **error) {
  (void)m;
  (void)warnings;
  Program *p = synth_program_new(k, spilled);
  if (p->exit_pc == 0) {
    g_set_error(error, SIM_ERROR, SIM_ERROR_LAUNCH,
                "%s: [stream] fma, loads, sfu, lds, overhead: all 0 and no syncthreads: the loop "
                "body is empty, nothing to simulate (allowed at least one instruction per "
                "iteration)",
                k->file);
    program_free(p);
    return NULL;
  }
  return p;
}

/* Synthetic spills: the registers the allocation left out. */
static guint synth_source_local(const Kernel *k, const SimResult *plan, gboolean *used) {
  (void)k;
  *used = plan->spilled_per_iter > 0;
  return plan->spill_values;
}

static void synth_source_memory(const Kernel *k, const SmModel *m, const SimResult *plan,
                                gdouble smem_per_sm, ProgramMemory *mem) {
  synth_launch_memory(k, m, plan->warps_per_sm, smem_per_sm, mem);
}

static Program *sass_source_program(const Kernel *k, const SmModel *m, guint spilled,
                                    GString *warnings, GError **error) {
  (void)spilled;
  return sass_program_new(k->sass, m, warnings, error);
}

/* The local memory the listing touches per thread (LDL/STL), through L1 as
 * spills are. */
static guint sass_source_local(const Kernel *k, const SimResult *plan, gboolean *used) {
  (void)plan;
  *used = k->sass->local_bytes > 0;
  return (k->sass->local_bytes + 3) / 4;
}

static void sass_source_memory(const Kernel *k, const SmModel *m, const SimResult *plan,
                               gdouble smem_per_sm, ProgramMemory *mem) {
  sassmem_launch_memory(k->sass, m, plan->warps_per_sm, smem_per_sm, plan->grid_blocks, k->l2_warm,
                        mem);
}

static const Source synth_source = {synth_source_program, synth_source_local, synth_source_memory};
static const Source sass_source = {sass_source_program, sass_source_local, sass_source_memory};

/* The source of `k`'s instructions: its [sass] listing, else its [stream] keys. */
static const Source *source_of(const Kernel *k) {
  return k->sass ? &sass_source : &synth_source;
}

/* The memory terms of the launch `out` plans: *mem, and out's spill_l1_hit,
 * load_l1_hit and load_l2_hit; returns the L1 hit probability of
 * local-memory accesses for the SM. */
/* The factor of a level's share for the SMs of load `g` (model_busy_share):
 * its CTAs run in rounds of its CTA slots, round r while every SM with more
 * than r rounds is busy (all SMs taken to start their rounds together); each
 * round moves the same bytes, so the factor is the harmonic mean over the
 * rounds.  1 when every SM of the device is busy throughout. */
static gdouble busy_share(const SmModel *m, const BusyShare *b, const SimResult *r, guint g) {
  guint slots = MAX(1u, r->blocks_per_sm);
  guint rounds = (r->loads[g].blocks + slots - 1) / slots;
  gdouble time = 0.0;
  for (guint round = 0; round < rounds; round++) {
    guint busy = 0;
    for (guint h = 0; h < r->n_loads; h++)
      if ((r->loads[h].blocks + slots - 1) / slots > round)
        busy += r->loads[h].sms;
    time += 1.0 / model_busy_share(m, b, busy);
  }
  return rounds > 0 ? rounds / time : 1.0;
}

gdouble sim_level_busy_share(const SmModel *model, const SimResult *r, guint level) {
  if (r->n_loads == 0 || r->loads[0].blocks == 0 || level == MEM_L1)
    return 1.0;
  return busy_share(model, level == MEM_L2 ? &model->l2_busy : &model->dram_busy, r, 0);
}

static gdouble launch_memory(const Source *src, const SmModel *model, const Kernel *k,
                             SimResult *out, ProgramMemory *mem) {
  gboolean used = FALSE;
  SimResult r = *out;
  r.spill_values = src->local_values(k, out, &used);
  gdouble l1_hit = launch_spill_l1_hit(model, &r);
  out->spill_l1_hit = used ? l1_hit : 1.0;
  src->memory(k, model, out, launch_smem_carveout(out), mem); /* L1 is what smem leaves */
  out->load_l1_hit = mem->load_l1_hit;
  out->load_l2_hit = mem->load_l2_hit;
  return l1_hit;
}

/* What a run does before it simulates: the model's timing, the policy, the
 * launch plan (into `out`, cleared first) and the program, or NULL with the
 * error that refuses the run; *policy gets the policy. */
static Program *sim_prepare(const SmModel *model, const Kernel *k, const SimOptions *opt,
                            SimResult *out, const SchedPolicy **policy, GError **error) {
  if (!model_check_timing(model, error))
    return NULL;
  memset(out, 0, sizeof *out);
  const gchar *policy_name = opt->policy ? opt->policy : model->policy;
  *policy = sched_lookup(policy_name);
  if (*policy == NULL) {
    g_set_error(error, SIM_ERROR, SIM_ERROR_LAUNCH, "--policy: unknown policy '%s' (allowed %s)",
                policy_name, sched_names());
    return NULL;
  }
  if (!launch_plan(model, k, out, error))
    return NULL;
  out->policy = (*policy)->name;
  out->spilled_per_iter = synth_spilled_per_iter(k, out->regs_allocated, model->spill_loop_regs,
                                                 model->spill_extra_values);
  GString *warnings = g_string_new(NULL);
  Program *program = source_of(k)->program(k, model, out->spilled_per_iter, warnings, error);
  g_strlcpy(out->warnings, warnings->str, sizeof out->warnings);
  g_string_free(warnings, TRUE);
  return program;
}

static const SimOptions sim_defaults = {NULL, FALSE, 0, 0, 0.0};

gboolean sim_check(const SmModel *model, const Kernel *k, const SimOptions *opt, GError **error) {
  g_autofree SimResult *plan = g_new0(SimResult, 1);
  const SchedPolicy *policy = NULL;
  g_autoptr(Program) program =
      sim_prepare(model, k, opt ? opt : &sim_defaults, plan, &policy, error);
  return program != NULL;
}

/* Simulate `program` of `k` on `model` as sim_prepare planned it into
 * `out`. */
static gboolean simulate(const SmModel *model, const Kernel *k, const SimOptions *opt,
                         const SchedPolicy *policy, const Program *program, SimResult *out,
                         GError **error) {
  const Source *src = source_of(k);
  out->warp_insts_per_warp = program->warp_insts;
  SmLaunch launch = {.model = model,
                     .program = program,
                     .policy = policy,
                     .threads_per_block = k->threads_per_block,
                     .warps_per_block = out->warps_per_block,
                     .early_exit = k->early_exit,
                     .seed = k->seed,
                     .max_cycles = opt->max_cycles,
                     .deadline_us = opt->deadline_us};
  launch.spill_l1_hit = launch_memory(src, model, k, out, &launch.mem);
  /* The SMs with CTAs at the launch's start, the same for every load: they
   * share the device-wide limits (contended atomics). */
  for (guint h = 0; h < out->n_loads; h++)
    if (out->loads[h].blocks > 0)
      launch.busy_sms += out->loads[h].sms;
  /* Each distinct load of the device once; loads[0] is the most loaded SM. */
  for (guint i = 0; i < out->n_loads; i++) {
    SimSmLoad *load = &out->loads[i];
    if (load->blocks == 0)
      continue; /* idle SMs */
    launch.blocks = load->blocks;
    launch.cta_slots = MIN(out->blocks_per_sm, load->blocks);
    /* Its L2 and DRAM shares at the SMs busy while it runs (a copy of the
     * model: only the two bandwidths differ). */
    SmModel busy_model = *model;
    gdouble l2_share = busy_share(model, &model->l2_busy, out, i);
    busy_model.l2.bytes_per_cycle *= l2_share;
    busy_model.l2_peak_bytes_per_cycle *= l2_share;
    busy_model.dram.bytes_per_cycle *= busy_share(model, &model->dram_busy, out, i);
    launch.model = &busy_model;
    g_autoptr(Sm) sm = sm_new(&launch, error);
    if (sm == NULL || !sm_run(sm, opt->check_invariants, &load->st, error))
      return FALSE;
  }
  out->st = out->loads[0].st;
  if (opt->time_factor > 0 && opt->time_factor != 1.0)
    sim_result_scale_time(out, opt->time_factor);
  return TRUE;
}

gboolean sim_run(const SmModel *model, const Kernel *k, const SimOptions *opt, SimResult *out,
                 GError **error) {
  if (opt == NULL)
    opt = &sim_defaults;
  const SchedPolicy *policy = NULL;
  g_autoptr(Program) program = sim_prepare(model, k, opt, out, &policy, error);
  return program != NULL && simulate(model, k, opt, policy, program, out, error);
}

struct SimPlan {
  const SmModel *model; /* borrowed */
  const Kernel *k;      /* borrowed */
  SimOptions opt;
  const SchedPolicy *policy;
  Program *program;
  SimResult *planned; /* sim_prepare's plan, copied into each run's result */
};

SimPlan *sim_plan_new(const SmModel *model, const Kernel *k, const SimOptions *opt,
                      GError **error) {
  SimPlan *p = g_new0(SimPlan, 1);
  p->model = model;
  p->k = k;
  p->opt = opt ? *opt : sim_defaults;
  p->planned = g_new0(SimResult, 1);
  p->program = sim_prepare(model, k, &p->opt, p->planned, &p->policy, error);
  if (p->program == NULL) {
    sim_plan_free(p);
    return NULL;
  }
  return p;
}

gboolean sim_plan_run(const SimPlan *plan, SimResult *out, GError **error) {
  memcpy(out, plan->planned, sizeof *out);
  return simulate(plan->model, plan->k, &plan->opt, plan->policy, plan->program, out, error);
}

gdouble sim_plan_estimate_insts(const SimPlan *plan) {
  const SimResult *r = plan->planned;
  guint64 blocks = 0;
  for (guint i = 0; i < r->n_loads; i++)
    blocks += r->loads[i].blocks; /* as sim_estimate_insts */
  return (gdouble)blocks * r->warps_per_block * (gdouble)plan->program->warp_insts;
}

void sim_plan_free(SimPlan *plan) {
  if (plan == NULL)
    return;
  g_clear_pointer(&plan->program, program_free);
  g_free(plan->planned);
  g_free(plan);
}

gdouble sim_estimate_insts(const SmModel *model, const Kernel *k) {
  SimResult r;
  memset(&r, 0, sizeof r);
  if (!launch_plan(model, k, &r, NULL))
    return 0;
  guint spilled = synth_spilled_per_iter(k, r.regs_allocated, model->spill_loop_regs,
                                         model->spill_extra_values);
  g_autoptr(Program) p = source_of(k)->program(k, model, spilled, NULL, NULL);
  if (p == NULL)
    return 0;
  guint64 blocks = 0;
  for (guint i = 0; i < r.n_loads; i++)
    blocks += r.loads[i].blocks; /* each distinct load is simulated once */
  return (gdouble)blocks * r.warps_per_block * (gdouble)p->warp_insts;
}

G_STATIC_ASSERT(OP_MAX <= G_N_ELEMENTS(((SimStats *)0)->ops));
G_STATIC_ASSERT(PIPE_MAX <= G_N_ELEMENTS(((SimStats *)0)->pipe_busy));
G_STATIC_ASSERT(MEM_LEVELS <= G_N_ELEMENTS(((SimStats *)0)->level_bytes));

void sim_result_scale_time(SimResult *r, gdouble f) {
  sim_stats_scale_time(&r->st, f);
  for (guint i = 0; i < r->n_loads; i++)
    sim_stats_scale_time(&r->loads[i].st, f);
}
