/* sim.c - one run: plan the launch, build the program, run the SM. */
#include "run/sim.h"

#include "core/sm.h"
#include "run/launch.h"
#include "run/synth.h"
#include "sass/sassmem.h"
#include "sass/sassprog.h"

#include <string.h>

/* The hit rates of the launch `out` plans: spill_l1_hit, load_l1_hit and
 * load_l2_hit of `out`; returns the L1 hit probability of local-memory
 * accesses for the SM. */
static gdouble hit_rates(const SmModel *model, const Kernel *k, SimResult *out) {
  gdouble l1_hit = launch_spill_l1_hit(model, out);
  out->spill_l1_hit = out->spilled_per_iter ? l1_hit : 1.0;
  gdouble smem = launch_smem_carveout(out); /* L1 is what it leaves */
  gdouble load_l1 = 0, load_l2 = 0;
  if (k->sass) {
    /* Local memory the listing touches per thread, through L1 as spills are. */
    SimResult r = *out;
    r.spill_values = (k->sass->local_bytes + 3) / 4;
    l1_hit = launch_spill_l1_hit(model, &r);
    out->spill_l1_hit = k->sass->local_bytes ? l1_hit : 1.0;
    sassmem_hit_rates(k->sass, model, out->warps_per_sm, smem, &load_l1, &load_l2);
    if (k->l2_warm) /* the launch before left its data in L2 (as far as it fits) */
      load_l2 += (1.0 - load_l2) * sassmem_l2_reuse(k->sass, model, out->grid_blocks);
  } else if (k->footprint > 0) {
    gdouble c1 = MAX(0.0, (gdouble)model->l1_bytes - smem);
    gdouble c2 = model->sm.sms ? (gdouble)model->l2_bytes / model->sm.sms : 0.0;
    load_l1 = k->level == MEM_L1 ? model_capacity_share(c1, out->warps_per_sm, k->footprint) : 0.0;
    load_l2 = model->l2_bytes ? model_capacity_share(c2, out->warps_per_sm, k->footprint) : 1.0;
  } else {
    /* Synthetic loads of one [stream] level: what they hit, as the CSV
     * reports it (the loads themselves go to that level, synth.c). */
    load_l1 = k->level == MEM_L1 ? 1.0 : 0.0;
    load_l2 = k->level == MEM_DRAM ? 0.0 : 1.0;
  }
  out->load_l1_hit = load_l1;
  out->load_l2_hit = load_l2;
  return l1_hit;
}

gboolean sim_run(const SmModel *model, const Kernel *k, const SimOptions *opt, SimResult *out,
                 GError **error) {
  static const SimOptions defaults = {NULL, FALSE, 0, 0};
  if (opt == NULL)
    opt = &defaults;
  if (!model_check_timing(model, error))
    return FALSE;
  memset(out, 0, sizeof *out);
  const gchar *policy_name = opt->policy ? opt->policy : model->policy;
  const SchedPolicy *policy = sched_lookup(policy_name);
  if (policy == NULL) {
    g_set_error(error, SIM_ERROR, SIM_ERROR_LAUNCH, "--policy: unknown policy '%s' (allowed %s)",
                policy_name, sched_names());
    return FALSE;
  }
  if (!launch_plan(model, k, out, error))
    return FALSE;
  out->policy = policy->name;
  out->spilled_per_iter = synth_spilled_per_iter(k, out->regs_allocated, model->spill_loop_regs,
                                                 model->spill_extra_values);
  GString *warnings = g_string_new(NULL);
  g_autoptr(Program) program = k->sass ? sass_program_new(k->sass, model, warnings, error)
                                       : synth_program_new(k, out->spilled_per_iter);
  g_strlcpy(out->warnings, warnings->str, sizeof out->warnings);
  g_string_free(warnings, TRUE);
  if (program == NULL)
    return FALSE;
  if (!k->sass && program->exit_pc == 0) {
    g_set_error(error, SIM_ERROR, SIM_ERROR_LAUNCH,
                "%s: [stream] fma, loads, sfu, lds, overhead: all 0 and no syncthreads: the loop "
                "body is empty, nothing to simulate (allowed at least one instruction per "
                "iteration)",
                k->file);
    return FALSE;
  }
  out->warp_insts_per_warp = program->warp_insts;
  gdouble l1_hit = hit_rates(model, k, out);
  gdouble load_l1 = out->load_l1_hit, load_l2 = out->load_l2_hit;
  SmLaunch launch = {
      .model = model,
      .program = program,
      .policy = policy,
      .threads_per_block = k->threads_per_block,
      .warps_per_block = out->warps_per_block,
      .early_exit = k->early_exit,
      .spill_l1_hit = l1_hit,
      .mem.load_l1_hit = load_l1,
      .mem.load_l2_hit = load_l2,
      .mem.load_l2_hit_coalesced = load_l2,
      .mem.load_l2_hit_scattered = load_l2,
      .mem.max_inflight = k->sass ? model->opclass[OPCLASS_GLOBAL].lines_in_flight : 0,
      .mem.warp_max_inflight = k->sass ? model->opclass[OPCLASS_GLOBAL].warp_lines_in_flight : 0,
      .mem.dram_write_cost = k->sass ? model->opclass[OPCLASS_GLOBAL].write_cost : 1.0,
      .mem.dram_turnaround = k->sass ? model->opclass[OPCLASS_GLOBAL].dram_turnaround : 0.0,
      .mem.stores_hold_lines = k->sass != NULL && model->opclass[OPCLASS_GLOBAL].stores_hold_lines,
      .mem.l1_cycle_per_line = k->sass != NULL && model->opclass[OPCLASS_GLOBAL].l1_cycle_per_line,
      .seed = k->seed,
      .max_cycles = opt->max_cycles,
      .deadline_us = opt->deadline_us};
  if (k->sass) /* the misses fall on the coalesced loads first */
    sassmem_l2_split(k->sass, load_l2, &launch.mem.load_l2_hit_coalesced,
                     &launch.mem.load_l2_hit_scattered);
  /* Each distinct load of the device once; loads[0] is the most loaded SM. */
  for (guint i = 0; i < out->n_loads; i++) {
    SimSmLoad *load = &out->loads[i];
    if (load->blocks == 0)
      continue; /* idle SMs */
    launch.blocks = load->blocks;
    launch.cta_slots = MIN(out->blocks_per_sm, load->blocks);
    g_autoptr(Sm) sm = sm_new(&launch, error);
    if (sm == NULL || !sm_run(sm, opt->check_invariants, &load->st, error))
      return FALSE;
  }
  out->st = out->loads[0].st;
  return TRUE;
}

gdouble sim_estimate_insts(const SmModel *model, const Kernel *k) {
  SimResult r;
  memset(&r, 0, sizeof r);
  if (!launch_plan(model, k, &r, NULL))
    return 0;
  g_autoptr(Program) p =
      k->sass
          ? sass_program_new(k->sass, model, NULL, NULL)
          : synth_program_new(k, synth_spilled_per_iter(k, r.regs_allocated, model->spill_loop_regs,
                                                        model->spill_extra_values));
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
