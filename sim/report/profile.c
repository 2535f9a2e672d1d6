/* profile.c - the report of one run: assembly, text sections and JSON. */
#include "report/profile.h"

#include "report/report.h"

#include <stddef.h>
#include <string.h>

struct Profile {
  ProfileMetrics pm;                          /* the sections' numbers */
  ProfileRules rules;                         /* the rules' verdicts */
  ProfileWhatIf what_if[PROFILE_WHAT_IF_MAX]; /* what-ifs, suggested or run */
};

Profile *profile_new(const SmModel *m, const Kernel *k, const SimResult *r) {
  Profile *p = g_new0(Profile, 1);
  profile_metrics_compute(m, k, r, &p->pm);
  profile_rules_apply(&p->pm, &p->rules);
  p->what_if[PROFILE_WHAT_IF_OCCUPANCY].suggested =
      (p->rules.suggests & PROFILE_SUGGEST_OCCUPANCY) != 0;
  p->what_if[PROFILE_WHAT_IF_ILP].suggested = (p->rules.suggests & PROFILE_SUGGEST_ILP) != 0;
  return p;
}

const ProfileMetrics *profile_metrics(const Profile *p) {
  return &p->pm;
}

const ProfileRules *profile_rules(const Profile *p) {
  return &p->rules;
}

const ProfileWhatIf *profile_what_if_result(const Profile *p, ProfileWhatIfKind kind) {
  g_return_val_if_fail(kind < PROFILE_WHAT_IF_MAX, NULL);
  return &p->what_if[kind];
}

void profile_what_if(Profile *p, const SmModel *m, const Kernel *k, const SimOptions *opt) {
  for (guint w = 0; w < PROFILE_WHAT_IF_MAX; w++)
    if (p->what_if[w].suggested)
      profile_whatif_run(w, &p->pm, m, k, opt, &p->what_if[w]);
}

void profile_skip_what_if(Profile *p) {
  for (guint w = 0; w < PROFILE_WHAT_IF_MAX; w++)
    if (p->what_if[w].suggested)
      profile_whatif_skip(&p->what_if[w]);
}

void profile_free(Profile *p) {
  if (p == NULL)
    return;
  profile_rules_clear(&p->rules);
  for (guint w = 0; w < PROFILE_WHAT_IF_MAX; w++)
    profile_whatif_clear(&p->what_if[w]);
  g_free(p);
}

static gchar *num(gdouble v, guint decimals) {
  return report_format_double(v, decimals);
}

/* Append three cells (taken) to `t`. */
static void row3(ReportTable *t, gchar *a, gchar *b, gchar *c) {
  report_table_take(t, a);
  report_table_take(t, b);
  report_table_take(t, c);
}

/* ---- the metric rows of the sections (text and JSON) -------------------- */

typedef enum { VAL_DOUBLE, VAL_UINT, VAL_STRING } ValType;

/* A string-valued metric; returns a new string. */
typedef gchar *(*MetricText)(const Profile *p);

static gchar *sm_unit_text(const Profile *p) {
  return g_strdup(profile_unit_name(p->pm.sm_unit));
}
static gchar *mem_level_text(const Profile *p) {
  return g_strdup(kernel_level_name(p->pm.mem_level));
}
static gchar *busiest_text(const Profile *p) {
  return g_strdup(p->pm.busiest);
}
static gchar *verdict_text(const Profile *p) {
  return g_strdup(profile_sol_name(p->rules.verdict));
}
static gchar *limiter_text(const Profile *p) {
  return profile_metrics_limiter(&p->pm);
}

#define D(f) VAL_DOUBLE, offsetof(ProfileMetrics, f), NULL
#define U(f) VAL_UINT, offsetof(ProfileMetrics, f), NULL
#define S(fn) VAL_STRING, 0, fn
#define UNIT_PCT(u) VAL_DOUBLE, offsetof(ProfileMetrics, unit_pct) + (u) * sizeof(gdouble), NULL
#define LIMIT(l) VAL_UINT, offsetof(ProfileMetrics, block_limit) + (l) * sizeof(guint), NULL

/* Every metric row, in section order: text name and unit, JSON member name,
 * where the value lives, decimals in text. */
static const struct {
  ProfileSection section;
  const gchar *name, *unit, *json;
  ValType type;
  gsize offset;
  MetricText text;
  guint decimals;
} metric_rows[] = {
    {PROFILE_SECTION_SOL, "SM Throughput", "%", "sm_throughput_pct", D(sm_pct), 2},
    {PROFILE_SECTION_SOL, "SM Busiest Unit", "", "sm_busiest_unit", S(sm_unit_text), 0},
    {PROFILE_SECTION_SOL, "Memory Throughput", "%", "memory_throughput_pct", D(mem_pct), 2},
    {PROFILE_SECTION_SOL, "Memory Level", "", "memory_level", S(mem_level_text), 0},
    {PROFILE_SECTION_SOL, "Memory Bandwidth Used", "B/cycle/SM", "memory_bytes_per_cycle",
     D(mem_bytes_per_cycle), 3},
    {PROFILE_SECTION_SOL, "Memory Bandwidth Peak", "B/cycle/SM", "memory_peak_bytes_per_cycle",
     D(mem_peak_bytes_per_cycle), 3},
    {PROFILE_SECTION_SOL, "Avg. Global Load Latency", "cycle", "load_latency_cycles",
     D(load_latency), 1},
    {PROFILE_SECTION_SOL, "Unloaded Load Latency (model)", "cycle", "load_latency_unloaded_cycles",
     D(load_latency_unloaded), 1},
    {PROFILE_SECTION_SOL, "Global Loads In Flight (avg)", "warp-load", "loads_in_flight",
     D(loads_in_flight), 1},
    {PROFILE_SECTION_SOL, "Issue Slots Busy", "%", "issue_pct", UNIT_PCT(PROFILE_UNIT_ISSUE), 2},
    {PROFILE_SECTION_SOL, "FMA Pipe Busy", "%", "fma_pct", UNIT_PCT(PROFILE_UNIT_FMA), 2},
    {PROFILE_SECTION_SOL, "ALU Pipe Busy", "%", "alu_pct", UNIT_PCT(PROFILE_UNIT_ALU), 2},
    {PROFILE_SECTION_SOL, "SFU Pipe Busy", "%", "sfu_pct", UNIT_PCT(PROFILE_UNIT_SFU), 2},
    {PROFILE_SECTION_SOL, "Shared Memory/L1TEX Data Busy (SM-wide)", "%", "smem_pct",
     UNIT_PCT(PROFILE_UNIT_SMEM), 2},
    {PROFILE_SECTION_SOL, "LSU Busy", "%", "lsu_pct", UNIT_PCT(PROFILE_UNIT_LSU), 2},
    {PROFILE_SECTION_SOL, "Busiest Unit", "", "busiest_unit", S(busiest_text), 0},
    {PROFILE_SECTION_SOL, "Verdict", "", "verdict", S(verdict_text), 0},
    {PROFILE_SECTION_SCHEDULER, "One or More Eligible", "%", "one_or_more_eligible_pct",
     D(one_or_more_eligible_pct), 2},
    {PROFILE_SECTION_SCHEDULER, "Issue Slot Utilization", "%", "issue_slot_utilization_pct",
     D(issue_slot_pct), 2},
    {PROFILE_SECTION_SCHEDULER, "No Eligible", "%", "no_eligible_pct", D(no_eligible_pct), 2},
    {PROFILE_SECTION_SCHEDULER, "Active Warps Per Scheduler", "warp", "active_warps_per_scheduler",
     D(active_warps), 2},
    {PROFILE_SECTION_SCHEDULER, "Eligible Warps Per Scheduler", "warp",
     "eligible_warps_per_scheduler", D(eligible_warps), 2},
    {PROFILE_SECTION_SCHEDULER, "Issued Warp Per Scheduler", "", "issued_warps_per_scheduler",
     D(issued_warps), 4},
    {PROFILE_SECTION_SCHEDULER, "Operand-Ready Warps Per Scheduler", "warp",
     "operand_ready_warps_per_scheduler", D(ready_warps), 2},
    {PROFILE_SECTION_SCHEDULER, "Max Warps Per Scheduler", "warp", "max_warps_per_scheduler",
     U(max_warps_per_sched), 0},
    {PROFILE_SECTION_SCHEDULER, "Avg. Active Threads Per Warp", "thread", "active_threads_per_warp",
     D(threads_per_inst), 2},
    {PROFILE_SECTION_WARP_STATE, "Warp Cycles Per Issued Instruction", "cycle",
     "warp_cycles_per_issued_instruction", D(total_cpi), 4},
    {PROFILE_SECTION_OCCUPANCY, "Block Limit SM", "block", "block_limit_blocks",
     LIMIT(OCC_LIMIT_BLOCKS), 0},
    {PROFILE_SECTION_OCCUPANCY, "Block Limit Warps", "block", "block_limit_warps",
     LIMIT(OCC_LIMIT_WARPS), 0},
    {PROFILE_SECTION_OCCUPANCY, "Block Limit Registers", "block", "block_limit_registers",
     LIMIT(OCC_LIMIT_REGISTERS), 0},
    {PROFILE_SECTION_OCCUPANCY, "Block Limit Shared Mem", "block", "block_limit_shared_mem",
     LIMIT(OCC_LIMIT_SHARED_MEM), 0},
    {PROFILE_SECTION_OCCUPANCY, "Occupancy Limiter", "", "limiter", S(limiter_text), 0},
    {PROFILE_SECTION_OCCUPANCY, "Blocks Per SM (calculator)", "block", "occupancy_blocks_per_sm",
     U(occ_blocks_per_sm), 0},
    {PROFILE_SECTION_OCCUPANCY, "Resident Blocks Per SM", "block", "blocks_per_sm",
     U(blocks_per_sm), 0},
    {PROFILE_SECTION_OCCUPANCY, "Theoretical Active Warps per SM", "warp",
     "theoretical_warps_per_sm", U(warps_per_sm), 0},
    {PROFILE_SECTION_OCCUPANCY, "Theoretical Warps Per Scheduler", "warp",
     "theoretical_warps_per_scheduler", D(theoretical_warps_per_sched), 2},
    {PROFILE_SECTION_OCCUPANCY, "Achieved Warps Per Scheduler", "warp",
     "achieved_warps_per_scheduler", D(achieved_warps_per_sched), 2},
    {PROFILE_SECTION_OCCUPANCY, "Theoretical Occupancy", "%", "theoretical_pct", D(theoretical_pct),
     2},
    {PROFILE_SECTION_OCCUPANCY, "Achieved Occupancy", "%", "achieved_pct", D(achieved_pct), 2},
    {PROFILE_SECTION_OCCUPANCY, "Achieved Occupancy (simulated SM)", "%", "sm_achieved_pct",
     D(sm_achieved_pct), 2},
    {PROFILE_SECTION_LAUNCH, "Block Size", "thread", "threads_per_block", U(threads_per_block), 0},
    {PROFILE_SECTION_LAUNCH, "Grid Size", "block", "grid_blocks", U(grid_blocks), 0},
    {PROFILE_SECTION_LAUNCH, "Registers Per Thread", "register/thread", "registers_per_thread",
     U(regs_per_thread), 0},
    {PROFILE_SECTION_LAUNCH, "Shared Memory Per Block (allocated)", "byte", "smem_per_block",
     U(smem_per_block), 0},
    {PROFILE_SECTION_LAUNCH, "# SMs", "SM", "sms", U(sms), 0},
    {PROFILE_SECTION_LAUNCH, "Blocks On The Simulated SM", "block", "sm_blocks", U(sm_blocks), 0},
    {PROFILE_SECTION_LAUNCH, "Waves Per SM", "", "waves_per_sm", D(waves_per_sm), 3},
    {PROFILE_SECTION_LAUNCH, "SMs Busy In The Last Wave", "SM", "last_wave_sms", U(last_wave_sms),
     0},
    {PROFILE_SECTION_LAUNCH, "SM Time Used", "%", "sm_time_used_pct", D(sm_time_used_pct), 1},
    {PROFILE_SECTION_LAUNCH, "Partial Wave Share", "%", "tail_pct", D(tail_pct), 1},
};

#undef D
#undef U
#undef S
#undef UNIT_PCT
#undef LIMIT

static gdouble row_number(const Profile *p, guint i) {
  const guint8 *base = (const guint8 *)&p->pm + metric_rows[i].offset;
  if (metric_rows[i].type == VAL_UINT)
    return *(const guint *)base;
  return *(const gdouble *)base;
}

/* Section titles as Nsight Compute prints them, and JSON member names. */
static const gchar *const section_titles[PROFILE_SECTION_MAX] = {
    "GPU Speed Of Light Throughput",
    "Scheduler Statistics",
    "Warp State Statistics",
    "Occupancy",
    "Launch Statistics",
    "What-If (one extra simulation per suggestion)"};
static const gchar *const section_json[PROFILE_SECTION_MAX] = {
    "speed_of_light", "scheduler", "warp_states", "occupancy", "launch", "what_if"};

static void section_rules(const Profile *p, ProfileSection s, GString *out) {
  for (guint i = 0; i < PROFILE_RULE_MAX; i++) {
    const ProfileRule *rule = &p->rules.rule[i];
    if (rule->fired && profile_rule_section(i) == s)
      g_string_append_printf(out, "    %s   %s: %s -> read %s\n", profile_rule_type(&p->rules, i),
                             profile_rule_name(i), rule->message, profile_section_name(rule->next));
  }
  g_string_append_c(out, '\n');
}

/* The section's metric rows; for Warp State Statistics a row per state
 * instead, largest first. */
static ReportTable *section_table(const Profile *p, ProfileSection s) {
  static const gchar *const metric_header[] = {"Metric Name", "Metric Unit", "Metric Value"};
  static const gchar *const state_header[] = {"Warp State", "Warp Cycles Per Issued Instruction",
                                              "Share %"};
  if (s == PROFILE_SECTION_WARP_STATE) {
    ReportTable *t = report_table_new(3, state_header);
    row3(t, g_strdup("(all states)"), num(p->pm.total_cpi, 4), num(100, 1));
    for (guint i = 0; i < STALL_MAX; i++) {
      guint st = p->pm.state_order[i];
      if (p->pm.state_cpi[st] > 0)
        row3(t, g_strdup(stall_name(st)), num(p->pm.state_cpi[st], 4), num(p->pm.state_pct[st], 1));
      gdouble share = p->pm.state_cpi[st] > 0 /* % per warp cycle per instruction */
                          ? p->pm.state_pct[st] / p->pm.state_cpi[st]
                          : 0;
      if (st == STALL_LG_THROTTLE && p->pm.lg_warp_cpi > 0) { /* its two causes */
        gdouble sm_cpi = p->pm.lg_sm_cpi;
        row3(t, g_strdup("  of it: warp DRAM lines"), num(p->pm.lg_warp_cpi, 4),
             num(p->pm.lg_warp_cpi * share, 1));
        row3(t, g_strdup("  of it: SM miss slots"), num(sm_cpi, 4), num(sm_cpi * share, 1));
      }
      if (st == STALL_LONG_SCOREBOARD && p->pm.lsb_sm_cpi > 0) { /* data, the SM cap */
        gdouble data_cpi = p->pm.state_cpi[st] - p->pm.lsb_sm_cpi;
        row3(t, g_strdup("  of it: load data"), num(data_cpi, 4), num(data_cpi * share, 1));
        row3(t, g_strdup("  of it: SM miss slots"), num(p->pm.lsb_sm_cpi, 4),
             num(p->pm.lsb_sm_cpi * share, 1));
      }
    }
    return t;
  }
  /* Rows about the kernel's global loads: none to describe without loads. */
  static const gchar *const load_rows[] = {"memory_level",
                                           "memory_bytes_per_cycle",
                                           "memory_peak_bytes_per_cycle",
                                           "load_latency_cycles",
                                           "load_latency_unloaded_cycles",
                                           "loads_in_flight",
                                           NULL};
  ReportTable *t = report_table_new(3, metric_header);
  for (guint i = 0; i < G_N_ELEMENTS(metric_rows); i++) {
    if (metric_rows[i].section != s ||
        (!p->pm.has_loads && g_strv_contains(load_rows, metric_rows[i].json)))
      continue;
    gchar *value = metric_rows[i].type == VAL_STRING
                       ? metric_rows[i].text(p)
                       : num(row_number(p, i), metric_rows[i].decimals);
    row3(t, g_strdup(metric_rows[i].name), g_strdup(metric_rows[i].unit), value);
  }
  return t;
}

static void text_section(const Profile *p, ProfileSection s, GString *out) {
  g_autoptr(ReportTable) t = section_table(p, s);
  g_string_append_printf(out, "  Section: %s\n", section_titles[s]);
  report_table_write(t, out);
  section_rules(p, s, out);
}

static void text_what_if(const Profile *p, GString *out) {
  g_string_append_printf(out, "  Section: %s\n", section_titles[PROFILE_SECTION_WHAT_IF]);
  gboolean any = FALSE;
  for (guint w = 0; w < PROFILE_WHAT_IF_MAX; w++)
    any |= p->what_if[w].suggested;
  if (!any) {
    g_string_append(out, "    no fired rule suggests more occupancy or ILP\n\n");
    return;
  }
  g_autofree gchar *tp = g_strdup_printf("%s (%s)", p->pm.metric, p->pm.metric_unit);
  const gchar *const header[] = {"What-If", "Change", "Theoretical Occupancy %",
                                 tp,        "Gain %", "Verdict"};
  g_autoptr(ReportTable) t = report_table_new(G_N_ELEMENTS(header), header);
  report_table_left(t, 1);
  report_table_left(t, 5);
  for (guint w = 0; w < PROFILE_WHAT_IF_MAX; w++) {
    const ProfileWhatIf *wi = &p->what_if[w];
    if (!wi->suggested)
      continue;
    gchar *occ, *thr, *gain;
    if (wi->ran) {
      occ = g_strdup_printf("%.1f -> %.1f", wi->base_occupancy_pct, wi->occupancy_pct);
      thr = g_strdup_printf("%.4f -> %.4f", wi->base, wi->value);
      gain = g_strdup_printf("%+.1f", wi->gain_pct);
    } else {
      occ = g_strdup_printf("%.1f", p->pm.theoretical_pct);
      thr = g_strdup_printf("%.4f", p->pm.throughput);
      gain = g_strdup("-");
    }
    report_table_add(t, profile_whatif_name(w));
    report_table_add(t, wi->change ? wi->change : "-");
    report_table_take(t, occ);
    report_table_take(t, thr);
    report_table_take(t, gain);
    report_table_add(t, profile_whatif_verdict(wi));
  }
  report_table_write(t, out);
  for (guint w = 0; w < PROFILE_WHAT_IF_MAX; w++)
    if (p->what_if[w].suggested && p->what_if[w].note)
      g_string_append_printf(out, "    %s: %s\n", profile_whatif_name(w), p->what_if[w].note);
  gboolean ran = FALSE;
  for (guint w = 0; w < PROFILE_WHAT_IF_MAX; w++)
    ran |= p->what_if[w].ran;
  if (ran)
    g_string_append_printf(out,
                           "    (a gain within +-%.0f %% is no gain: the advice does not pay)\n",
                           PROFILE_WHAT_IF_NOISE_PCT);
  g_string_append_c(out, '\n');
}

void profile_append_text(const Profile *p, GString *out) {
  for (guint s = 0; s < PROFILE_SECTION_WHAT_IF; s++)
    text_section(p, s, out);
  text_what_if(p, out);
}

/* ---- JSON ----------------------------------------------------------------- */

static void json_num(JsonBuilder *b, const gchar *name, gdouble v) {
  json_builder_set_member_name(b, name);
  json_builder_add_double_value(b, v);
}

static void json_int(JsonBuilder *b, const gchar *name, gint64 v) {
  json_builder_set_member_name(b, name);
  json_builder_add_int_value(b, v);
}

static void json_str(JsonBuilder *b, const gchar *name, const gchar *v) {
  json_builder_set_member_name(b, name);
  if (v != NULL)
    json_builder_add_string_value(b, v);
  else
    json_builder_add_null_value(b);
}

/* An array member `name` of one object per item(i), i < n (item may skip). */
typedef void (*JsonItem)(JsonBuilder *b, const Profile *p, guint i);

static void json_array(JsonBuilder *b, const gchar *name, const Profile *p, guint n,
                       JsonItem item) {
  json_builder_set_member_name(b, name);
  json_builder_begin_array(b);
  for (guint i = 0; i < n; i++)
    item(b, p, i);
  json_builder_end_array(b);
}

static void json_state(JsonBuilder *b, const Profile *p, guint i) {
  guint st = p->pm.state_order[i];
  json_builder_begin_object(b);
  json_str(b, "state", stall_name(st));
  json_num(b, "warp_cycles_per_issued_instruction", p->pm.state_cpi[st]);
  json_num(b, "pct", p->pm.state_pct[st]);
  if (st == STALL_LG_THROTTLE) { /* its two causes, in warp cycles per issued instruction */
    json_builder_set_member_name(b, "causes");
    json_builder_begin_object(b);
    json_num(b, "warp_dram_lines", p->pm.lg_warp_cpi);
    json_num(b, "sm_miss_slots", p->pm.lg_sm_cpi);
    json_builder_end_object(b);
  }
  if (st == STALL_LONG_SCOREBOARD) { /* the loads' data, the SM's miss slots */
    json_builder_set_member_name(b, "causes");
    json_builder_begin_object(b);
    json_num(b, "load_data", p->pm.state_cpi[st] - p->pm.lsb_sm_cpi);
    json_num(b, "sm_miss_slots", p->pm.lsb_sm_cpi);
    json_builder_end_object(b);
  }
  json_builder_end_object(b);
}

static void json_rule(JsonBuilder *b, const Profile *p, guint i) {
  const ProfileRule *rule = &p->rules.rule[i];
  json_builder_begin_object(b);
  json_str(b, "id", profile_rule_name(i));
  json_str(b, "section", profile_section_name(profile_rule_section(i)));
  json_builder_set_member_name(b, "fired");
  json_builder_add_boolean_value(b, rule->fired);
  json_num(b, "value", rule->value);
  json_num(b, "threshold", rule->threshold);
  if (rule->fired) {
    json_str(b, "type", profile_rule_type(&p->rules, i));
    json_str(b, "message", rule->message);
    json_str(b, "next", profile_section_name(rule->next));
  }
  json_builder_end_object(b);
}

static void json_what_if(JsonBuilder *b, const Profile *p, guint w) {
  const ProfileWhatIf *wi = &p->what_if[w];
  if (!wi->suggested)
    return;
  json_builder_begin_object(b);
  json_str(b, "kind", profile_whatif_name(w));
  json_str(b, "change", wi->change);
  json_builder_set_member_name(b, "ran");
  json_builder_add_boolean_value(b, wi->ran);
  json_str(b, "metric", p->pm.metric);
  json_num(b, "base", p->pm.throughput);
  if (wi->ran) {
    json_num(b, "value", wi->value);
    json_num(b, "gain_pct", wi->gain_pct);
    json_num(b, "base_occupancy_pct", wi->base_occupancy_pct);
    json_num(b, "occupancy_pct", wi->occupancy_pct);
    json_num(b, "issue_active", wi->issue_active);
  }
  json_str(b, "verdict", profile_whatif_verdict(wi));
  json_str(b, "note", wi->note);
  json_builder_end_object(b);
}

/* The section's metric rows as members of an object `section_json[s]`; the
 * warp states add an array of every state, largest first. */
static void json_section(JsonBuilder *b, const Profile *p, ProfileSection s) {
  json_builder_set_member_name(b, section_json[s]);
  json_builder_begin_object(b);
  for (guint i = 0; i < G_N_ELEMENTS(metric_rows); i++) {
    if (metric_rows[i].section != s)
      continue;
    if (metric_rows[i].type == VAL_STRING) {
      g_autofree gchar *text = metric_rows[i].text(p);
      json_str(b, metric_rows[i].json, text);
    } else if (metric_rows[i].type == VAL_UINT) {
      json_int(b, metric_rows[i].json, (gint64)row_number(p, i));
    } else {
      json_num(b, metric_rows[i].json, row_number(p, i));
    }
  }
  if (s == PROFILE_SECTION_WARP_STATE)
    json_array(b, "states", p, STALL_MAX, json_state);
  json_builder_end_object(b);
}

JsonNode *profile_to_json(const Profile *p) {
  g_autoptr(JsonBuilder) b = json_builder_new();
  json_builder_begin_object(b);
  json_str(b, "metric", p->pm.metric);
  json_str(b, "metric_unit", p->pm.metric_unit);
  json_num(b, "throughput", p->pm.throughput);
  for (guint s = 0; s < PROFILE_SECTION_WHAT_IF; s++)
    json_section(b, p, s);
  json_array(b, "rules", p, PROFILE_RULE_MAX, json_rule);
  json_array(b, section_json[PROFILE_SECTION_WHAT_IF], p, PROFILE_WHAT_IF_MAX, json_what_if);
  json_builder_end_object(b);
  return json_builder_get_root(b);
}
