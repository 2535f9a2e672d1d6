/* profile_anchor.c - one memory time factor from the agreement (see the header). */
#include "report/profile_anchor.h"

#include "report/json_text.h"

#include <math.h>

/* The model keys the factor scales: latencies x f, bandwidths / f. */
typedef struct {
  const gchar *key;
  gsize offset;   /* of the field in SmModel */
  gboolean whole; /* a guint latency (else a gdouble bandwidth) */
} AnchorKey;

#define M(f) G_STRUCT_OFFSET(SmModel, f)
static const AnchorKey anchor_keys[] = {
    {"l1.latency", M(l1.latency), TRUE},
    {"l2.latency", M(l2.latency), TRUE},
    {"dram.latency", M(dram.latency), TRUE},
    {"dram.stream_latency", M(dram.stream_latency), TRUE},
    {"l2.bytes_per_cycle", M(l2.bytes_per_cycle), FALSE},
    {"dram.bytes_per_cycle", M(dram.bytes_per_cycle), FALSE},
};
#undef M

/* out->model = `m` with the latencies x f and the bandwidths / f. */
static void set_factor(const SmModel *m, ProfileAnchor *out, gdouble f) {
  out->memory_factor = f;
  out->model = *m;
  for (guint i = 0; i < G_N_ELEMENTS(anchor_keys); i++) {
    const AnchorKey *k = &anchor_keys[i];
    if (k->whole) {
      guint *v = &G_STRUCT_MEMBER(guint, &out->model, k->offset);
      *v = (guint)lround(*v * f); /* 0 (stream_latency unset) stays 0 */
    } else {
      G_STRUCT_MEMBER(gdouble, &out->model, k->offset) /= f;
    }
  }
}

void profile_anchor_derive(const SmModel *m, const ProfileAgreement *a, ProfileAnchor *out) {
  *out = (ProfileAnchor){.memory_factor = 1.0,
                         .first_factor = 1.0,
                         .model = *m,
                         .cycles_ratio = NAN,
                         .memory_share = NAN,
                         .first_ratio = NAN};
  if (!a->present) {
    out->why = "no details export";
    return;
  }
  out->cycles_ratio = a->cycles_ratio;
  out->memory_share =
      (a->state_simulated_pct[NCU_STALL_LONG_SB] + a->state_simulated_pct[NCU_STALL_LG] +
       a->state_simulated_pct[NCU_STALL_DRAIN]) /
      100.0;
  if (!isfinite(a->cycles_ratio) || a->cycles_ratio <= 0) {
    out->why = "the details export has no SM Active Cycles";
    return;
  }
  if (out->memory_share < PROFILE_ANCHOR_MIN_SHARE) {
    out->why = "the simulated profiled launch waits for memory less than 20 % of its warp cycles";
    return;
  }
  gdouble r = 1.0 / a->cycles_ratio; /* profiled / simulated */
  gdouble f = 1.0 + (r - 1.0) / out->memory_share;
  out->clamped = f < PROFILE_ANCHOR_MIN || f > PROFILE_ANCHOR_MAX;
  f = CLAMP(f, PROFILE_ANCHOR_MIN, PROFILE_ANCHOR_MAX);
  out->applied = TRUE;
  set_factor(m, out, f);
  out->first_factor = f;
}

void profile_anchor_refine(const SmModel *m, ProfileAnchor *an, const ProfileAgreement *first) {
  if (!an->applied || !first->present || !isfinite(first->cycles_ratio))
    return;
  an->first_ratio = first->cycles_ratio;
  gdouble c0 = an->cycles_ratio, c1 = first->cycles_ratio, f1 = an->first_factor;
  if (c1 == c0)
    return;
  gdouble f = 1.0 + (f1 - 1.0) * (1.0 - c0) / (c1 - c0);
  an->clamped = f < PROFILE_ANCHOR_MIN || f > PROFILE_ANCHOR_MAX;
  set_factor(m, an, CLAMP(f, PROFILE_ANCHOR_MIN, PROFILE_ANCHOR_MAX));
}

gchar *profile_anchor_sets(const ProfileAnchor *an, const SmModel *pure) {
  GString *s = g_string_new(NULL);
  for (guint i = 0; an->applied && i < G_N_ELEMENTS(anchor_keys); i++) {
    const AnchorKey *k = &anchor_keys[i];
    gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
    if (k->whole) {
      guint v = G_STRUCT_MEMBER(guint, &an->model, k->offset);
      if (v == G_STRUCT_MEMBER(guint, pure, k->offset))
        continue;
      g_snprintf(buf, sizeof buf, "%u", v);
    } else {
      g_ascii_dtostr(buf, sizeof buf, G_STRUCT_MEMBER(gdouble, &an->model, k->offset));
    }
    g_string_append_printf(s, "%s%s=%s", s->len ? " " : "", k->key, buf);
  }
  return g_string_free(s, FALSE);
}

void profile_anchor_append_text(const ProfileAnchor *an, const SmModel *pure,
                                const ProfileAgreement *anchored, const gchar *prefix,
                                GString *out) {
  if (!an->applied) {
    g_string_append_printf(out, "%sanchor: none (%s): the curve is the pure model's\n", prefix,
                           an->why);
    return;
  }
  g_autofree gchar *sets = profile_anchor_sets(an, pure);
  g_string_append_printf(
      out,
      "%sanchor: memory_time_factor = %.4f%s, from SM Active Cycles (simulated/profiled %.4f, "
      "pure model) and the simulated memory-wait share %.1f %% (long_scoreboard + lg_throttle + "
      "drain): first step f1 = 1 + (profiled/simulated - 1) / share = %.4f (simulated/profiled "
      "%.4f with it), then one secant step to simulated/profiled 1\n",
      prefix, an->memory_factor, an->clamped ? " (clamped to 0.5..2)" : "", an->cycles_ratio,
      100.0 * an->memory_share, an->first_factor, an->first_ratio);
  g_string_append_printf(out, "%sanchor: every occupancy simulated with --set %s\n", prefix, sets);
  if (anchored != NULL && anchored->present)
    g_string_append_printf(out,
                           "%sanchor: at the profiled launch the anchored model gives "
                           "simulated/profiled SM active cycles %.4f (pure model %.4f)\n",
                           prefix, anchored->cycles_ratio, an->cycles_ratio);
  g_string_append_printf(out, "%s(--no-anchor: the pure model)\n", prefix);
}

JsonNode *profile_anchor_to_json(const ProfileAnchor *an, const SmModel *pure,
                                 const ProfileAgreement *anchored) {
  g_autoptr(JsonBuilder) b = json_builder_new();
  json_builder_begin_object(b);
  json_text_member_bool(b, "applied", an->applied);
  json_text_member_string(b, "why_not", an->why);
  json_builder_set_member_name(b, "quantities");
  json_builder_begin_array(b);
  json_builder_begin_object(b);
  json_text_member_string(b, "name", "memory_time_factor");
  json_text_member_double(b, "value", an->memory_factor);
  json_text_member_bool(b, "clamped", an->clamped);
  json_builder_set_member_name(b, "sources");
  json_builder_begin_object(b);
  json_text_member_double(b, "sm_active_cycles_ratio", an->cycles_ratio);
  json_text_member_double(b, "memory_wait_share", an->memory_share);
  json_text_member_double(b, "first_factor", an->first_factor);
  json_text_member_double(b, "first_cycles_ratio", an->first_ratio);
  json_builder_end_object(b);
  json_builder_end_object(b);
  json_builder_end_array(b);
  g_autofree gchar *sets = profile_anchor_sets(an, pure);
  json_text_member_string(b, "model_sets", sets);
  json_text_member_double(b, "anchored_cycles_ratio",
                          anchored != NULL && anchored->present ? anchored->cycles_ratio : NAN);
  json_builder_end_object(b);
  return json_builder_get_root(b);
}
