/* profile_anchor.c - one memory time factor from the agreement (see the header). */
#include "report/profile_anchor.h"

#include "report/json_text.h"

#include <math.h>
#include <string.h>

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

/* The atomic quantity (see the header): TRUE when derived into `out`. */
static gboolean derive_atomic(const SmModel *m, const ProfileAgreement *a, ProfileAnchor *out) {
  if (!(a->atomic_busy_cycles > 0) || !(a->atomic_sm_cycles > 0))
    return FALSE;
  out->atomic_sectors = a->atomic_sectors;
  out->profiled_cycles = a->profiled[AGREE_SM_ACTIVE_CYCLES];
  out->atomic_busy_share = a->atomic_busy_cycles / a->atomic_sm_cycles;
  if (out->atomic_busy_share < PROFILE_ANCHOR_ATOMIC_BUSY ||
      !(a->cycles_ratio < 1.0 - PROFILE_AGREE_WARN_SHARE) || !(out->profiled_cycles > 0))
    return FALSE;
  gdouble g = a->atomic_busy_cycles / out->profiled_cycles;
  out->atomic = TRUE;
  out->applied = TRUE;
  out->model.atomic_sectors_per_cycle = m->atomic_sectors_per_cycle * g;
  out->model.atomic_return_sectors_per_cycle = m->atomic_return_sectors_per_cycle * g;
  out->model.atomic_cas_sectors_per_cycle = m->atomic_cas_sectors_per_cycle * g;
  out->atomic_rate = out->model.atomic_sectors_per_cycle;
  out->atomic_return_rate = out->model.atomic_return_sectors_per_cycle;
  out->atomic_cas_rate = out->model.atomic_cas_sectors_per_cycle;
  return TRUE;
}

void profile_anchor_derive(const SmModel *m, const ProfileAgreement *a, ProfileAnchor *out) {
  *out = (ProfileAnchor){.memory_factor = 1.0,
                         .first_factor = 1.0,
                         .derived_factor = 1.0,
                         .model = *m,
                         .cycles_ratio = NAN,
                         .memory_share = NAN,
                         .first_ratio = NAN,
                         .wcpi_profiled = NAN,
                         .wcpi_pure = NAN,
                         .wcpi_anchored = NAN,
                         .occupancy_profiled = NAN,
                         .occupancy_pure = NAN,
                         .dram_profiled = NAN,
                         .dram_pure = NAN,
                         .dram_anchored = NAN,
                         .shape_gain_pure = {NAN, NAN},
                         .shape_gain_anchored = {NAN, NAN},
                         .atomic_busy_share = NAN,
                         .atomic_sectors = NAN,
                         .profiled_cycles = NAN,
                         .atomic_rate = NAN,
                         .atomic_return_rate = NAN,
                         .atomic_cas_rate = NAN,
                         .time_factor = 1.0};
  if (!a->present) {
    out->why = "no details export";
    return;
  }
  out->cycles_ratio = a->cycles_ratio;
  out->memory_share = a->memory_wait_pct / 100.0;
  if (!isfinite(a->cycles_ratio) || a->cycles_ratio <= 0) {
    out->why = "the details export has no SM Active Cycles";
    return;
  }
  if (derive_atomic(m, a, out))
    return;
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
  out->derived_factor = f;
}

void profile_anchor_refine(const SmModel *m, ProfileAnchor *an, const ProfileAgreement *first) {
  if (!an->applied || an->atomic || !first->present || !isfinite(first->cycles_ratio))
    return;
  an->first_ratio = first->cycles_ratio;
  gdouble c0 = an->cycles_ratio, c1 = first->cycles_ratio, f1 = an->first_factor;
  if (c1 == c0)
    return;
  gdouble f = 1.0 + (f1 - 1.0) * (1.0 - c0) / (c1 - c0);
  /* clamped: the first step or the secant reached the range */
  an->clamped = an->clamped || f < PROFILE_ANCHOR_MIN || f > PROFILE_ANCHOR_MAX;
  set_factor(m, an, CLAMP(f, PROFILE_ANCHOR_MIN, PROFILE_ANCHOR_MAX));
  an->derived_factor = an->memory_factor;
}

gboolean profile_anchor_level(ProfileAnchor *an, const ProfileAgreement *pure) {
  if (an->applied || !pure->present || !pure->warn || !isfinite(an->cycles_ratio) ||
      an->cycles_ratio <= 0)
    return FALSE;
  gboolean not_memory =
      an->refused ? an->not_memory : !an->atomic && an->memory_share < PROFILE_ANCHOR_MIN_SHARE;
  if (!not_memory)
    return FALSE;
  an->level = TRUE;
  an->time_factor = 1.0 / an->cycles_ratio;
  return TRUE;
}

gboolean profile_anchor_moves_away(gdouble profiled, gdouble pure, gdouble anchored,
                                   gdouble tolerance) {
  if (!isfinite(profiled) || !isfinite(pure) || !isfinite(anchored))
    return FALSE;
  gdouble off = fabs(anchored - profiled);
  return off > fabs(pure - profiled) && off > tolerance;
}

/* Drop the anchor `an` derived from `m`, for reason `why` (static). */
static void refuse(const SmModel *m, ProfileAnchor *an, const gchar *why) {
  an->applied = FALSE;
  an->refused = TRUE;
  an->why = why;
  an->memory_factor = 1.0;
  an->model = *m;
}

/* The atomic anchor's --set overrides, e.g. "l2.atomic_sectors_per_cycle=0.00999... ...", each
 * value in its shortest round-trip form (as the memory anchor's). */
static void atomic_sets(const ProfileAnchor *an, GString *s) {
  gchar a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE], c[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_dtostr(a, sizeof a, an->atomic_rate); /* round-trip: the --set reproduces the run */
  g_ascii_dtostr(b, sizeof b, an->atomic_return_rate);
  g_ascii_dtostr(c, sizeof c, an->atomic_cas_rate);
  g_string_append_printf(s,
                         "l2.atomic_sectors_per_cycle=%s l2.atomic_return_sectors_per_cycle=%s "
                         "l2.atomic_cas_sectors_per_cycle=%s",
                         a, b, c);
}

gboolean profile_anchor_check(const SmModel *m, ProfileAnchor *an, const ProfileAgreement *pure,
                              const ProfileAgreement *anchored) {
  if (!an->applied)
    return FALSE;
  an->wcpi_profiled = pure->profiled[AGREE_WARP_CPI];
  an->wcpi_pure = pure->simulated[AGREE_WARP_CPI];
  an->occupancy_profiled = pure->profiled[AGREE_ACHIEVED_OCC];
  an->occupancy_pure = pure->simulated[AGREE_ACHIEVED_OCC];
  an->dram_profiled = pure->profiled[AGREE_DRAM_PCT];
  an->dram_pure = pure->simulated[AGREE_DRAM_PCT];
  if (an->clamped) {
    an->not_memory = TRUE;
    refuse(m, an,
           "the memory time factor reaches its range 0.5..2: a mismatch that large is not this "
           "kernel's memory time");
    return FALSE;
  }
  if (anchored == NULL || !anchored->present)
    return TRUE;
  an->wcpi_anchored = anchored->simulated[AGREE_WARP_CPI];
  an->dram_anchored = anchored->simulated[AGREE_DRAM_PCT];
  if (profile_anchor_moves_away(an->wcpi_profiled, an->wcpi_pure, an->wcpi_anchored, 0.0)) {
    an->not_memory = TRUE;
    refuse(m, an,
           "with it, the profiled launch's warp cycles per issued instruction moves away from the "
           "profile's: the cycles mismatch is in the resident warps (achieved occupancy), not in "
           "memory time");
    return FALSE;
  }
  if (profile_anchor_moves_away(an->dram_profiled, an->dram_pure, an->dram_anchored,
                                PROFILE_AGREE_WARN_SHARE * an->dram_profiled)) {
    refuse(m, an,
           "with it, the profiled launch's DRAM throughput moves away from the profile's and "
           "ends more than 10 % off: the model moves other DRAM bytes than the GPU, not at "
           "another speed");
    return FALSE;
  }
  return TRUE;
}

gboolean profile_anchor_check_shape(const SmModel *m, ProfileAnchor *an, const guint blocks[3],
                                    const gdouble pure[3], const gdouble anchored[3]) {
  if (!an->applied)
    return FALSE;
  gboolean off = FALSE;
  for (guint i = 0; i < 2; i++) { /* i = 0: B/2 -> B, 1: B -> 2B */
    an->shape_blocks[i][0] = blocks[i];
    an->shape_blocks[i][1] = blocks[i + 1];
    if (blocks[i] == 0 || blocks[i] == blocks[i + 1])
      continue;
    /* work per cycle at the larger launch over the smaller */
    gdouble per = (gdouble)blocks[i + 1] / blocks[i];
    an->shape_gain_pure[i] = per * pure[i] / pure[i + 1];
    an->shape_gain_anchored[i] = per * anchored[i] / anchored[i + 1];
    gdouble moved = an->shape_gain_anchored[i] / an->shape_gain_pure[i];
    if (isfinite(moved) && (moved > 1.0 + PROFILE_ANCHOR_SHAPE_BAND ||
                            moved < 1.0 / (1.0 + PROFILE_ANCHOR_SHAPE_BAND)))
      off = TRUE;
  }
  if (off)
    refuse(m, an,
           "with it, doubling the resident CTAs next to the profiled launch gains more than 5 % "
           "more or less than in the pure model: the anchor would change the curve's shape, "
           "which one profiled point cannot tell");
  return an->applied;
}

gchar *profile_anchor_warning(const ProfileAnchor *an) {
  if (an->applied || an->level)
    return NULL;
  if (!an->refused) /* not derived: the reason of the report's "anchor: none (...)" */
    return g_strdup_printf("not anchored at the profile (%s), so the curve is the pure model's",
                           an->why != NULL ? an->why : "not derived");
  if (an->atomic)
    return g_strdup_printf("not anchored at the profile (derived [l2] atomic_sectors_per_cycle "
                           "%.4g): %s, so the curve is the pure model's",
                           an->atomic_rate, an->why);
  return g_strdup_printf(
      "not anchored at the profile (derived memory_time_factor %.4f): %s, so the "
      "curve is the pure model's",
      an->derived_factor, an->why);
}

gchar *profile_anchor_sets(const ProfileAnchor *an, const SmModel *pure) {
  GString *s = g_string_new(NULL);
  if (an->applied && an->atomic)
    atomic_sets(an, s);
  for (guint i = 0; an->applied && !an->atomic && i < G_N_ELEMENTS(anchor_keys); i++) {
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

/* "group" and "key" of a "group.key" name (new strings). */
static void split_key(const gchar *name, gchar **group, const gchar **key) {
  const gchar *dot = strchr(name, '.');
  *group = g_strndup(name, (gsize)(dot - name));
  *key = dot + 1;
}

gchar **profile_anchor_sources(const ProfileAnchor *an, const SmModel *pure) {
  GPtrArray *b = g_ptr_array_new();
  if (an->applied && an->atomic) {
    gdouble g = an->atomic_rate / pure->atomic_sectors_per_cycle; /* > 0: derived */
    const struct {
      const gchar *key;
      gdouble pure_value;
    } rates[] = {{"atomic_sectors_per_cycle", pure->atomic_sectors_per_cycle},
                 {"atomic_return_sectors_per_cycle", pure->atomic_return_sectors_per_cycle},
                 {"atomic_cas_sectors_per_cycle", pure->atomic_cas_sectors_per_cycle}};
    for (guint i = 0; i < G_N_ELEMENTS(rates); i++) {
      const gchar *src = model_key_source(pure, "l2", rates[i].key);
      gchar value[G_ASCII_DTOSTR_BUF_SIZE];
      g_ascii_formatd(value, sizeof value, "%g", rates[i].pure_value);
      g_ptr_array_add(
          b, g_strdup_printf("l2.%s=fitted: anchored at this kernel's profile: the pure model's "
                             "%s x %.6g, the pure launch's atomic-unit busy cycles over the "
                             "details export's SM Active Cycles %.0f, for the launch's %.0f "
                             "global atomic sectors per SM (the source export's L2 Theoretical "
                             "Sectors Global x Instructions Executed of its RED/ATOM "
                             "instructions); the pure value's source: %s",
                             rates[i].key, value, g, an->profiled_cycles, an->atomic_sectors,
                             src ? src : "none"));
    }
  }
  for (guint i = 0; an->applied && !an->atomic && i < G_N_ELEMENTS(anchor_keys); i++) {
    const AnchorKey *k = &anchor_keys[i];
    gchar value[G_ASCII_DTOSTR_BUF_SIZE];
    if (k->whole) {
      guint v = G_STRUCT_MEMBER(guint, pure, k->offset);
      if (v == G_STRUCT_MEMBER(guint, &an->model, k->offset))
        continue; /* as the pure model's (0, or a factor that rounds to it) */
      g_snprintf(value, sizeof value, "%u", v);
    } else {
      g_ascii_formatd(value, sizeof value, "%g", G_STRUCT_MEMBER(gdouble, pure, k->offset));
    }
    g_autofree gchar *group = NULL;
    const gchar *key = NULL;
    split_key(k->key, &group, &key);
    const gchar *src = model_key_source(pure, group, key);
    g_ptr_array_add(
        b, g_strdup_printf("%s=fitted: anchored at this kernel's profile: the pure model's %s %s "
                           "memory_time_factor %.4f (from the details export's SM Active Cycles, "
                           "simulated/profiled %.4f with the pure model, and the simulated "
                           "memory-wait share %.1f %%, then one secant step)%s; the pure value's "
                           "source: %s",
                           k->key, value, k->whole ? "x" : "/", an->memory_factor, an->cycles_ratio,
                           100.0 * an->memory_share, k->whole ? ", rounded to a whole cycle" : "",
                           src ? src : "none"));
  }
  g_ptr_array_add(b, NULL);
  return (gchar **)g_ptr_array_free(b, FALSE);
}

/* The checks' sources, one line (none when not checked). */
static void append_checks(const ProfileAnchor *an, const gchar *prefix, GString *out) {
  if (!isfinite(an->wcpi_profiled) && !isfinite(an->occupancy_profiled))
    return;
  gchar wcpi[G_ASCII_DTOSTR_BUF_SIZE] = "not simulated",
        dram[G_ASCII_DTOSTR_BUF_SIZE] = "not simulated";
  if (isfinite(an->wcpi_anchored))
    g_snprintf(wcpi, sizeof wcpi, "%.2f", an->wcpi_anchored);
  if (isfinite(an->dram_anchored))
    g_snprintf(dram, sizeof dram, "%.2f %%", an->dram_anchored);
  g_string_append_printf(out,
                         "%sanchor: checked at the profiled launch: Warp Cycles Per Issued "
                         "Instruction profiled %.2f, pure model %.2f, anchored %s; DRAM "
                         "Throughput profiled %.2f %%, pure model %.2f %%, anchored %s; Achieved "
                         "Occupancy profiled %.2f %%, pure model %.2f %%\n",
                         prefix, an->wcpi_profiled, an->wcpi_pure, wcpi, an->dram_profiled,
                         an->dram_pure, dram, an->occupancy_profiled, an->occupancy_pure);
  if (an->shape_blocks[0][1] == 0)
    return;
  g_string_append_printf(out, "%sanchor: checked the shape next to the profiled launch:", prefix);
  for (guint i = 0; i < 2; i++) {
    g_string_append_printf(out, "%s %u -> %u CTAs/SM ", i ? ";" : "", an->shape_blocks[i][0],
                           an->shape_blocks[i][1]);
    if (isfinite(an->shape_gain_pure[i]) && isfinite(an->shape_gain_anchored[i]))
      g_string_append_printf(out, "gains %+.1f %% pure, %+.1f %% anchored",
                             100.0 * (an->shape_gain_pure[i] - 1.0),
                             100.0 * (an->shape_gain_anchored[i] - 1.0));
    else
      g_string_append(out, "not simulated (not possible)");
  }
  g_string_append_printf(out, " (dropped when a gain moves past %.0f %% either way)\n",
                         100.0 * PROFILE_ANCHOR_SHAPE_BAND);
}

void profile_anchor_append_text(const ProfileAnchor *an, const SmModel *pure,
                                const ProfileAgreement *anchored, const gchar *prefix,
                                GString *out) {
  if (an->level) {
    g_string_append_printf(
        out,
        "%sanchor: time_factor = %.4f, profiled / simulated SM Active Cycles (pure model "
        "simulated/profiled %.4f), every run played that much %s; no memory factor (%s%s). "
        "The curve's shape (each doubling's gain, its knee) is the pure model's, its level the "
        "profile's\n",
        prefix, an->time_factor, an->cycles_ratio, an->time_factor > 1 ? "slower" : "faster",
        an->refused ? "dropped: " : "", an->why);
    if (an->refused && an->atomic)
      g_string_append_printf(out, "%sanchor: derived [l2] atomic_sectors_per_cycle %.4g, dropped\n",
                             prefix, an->atomic_rate);
    else if (an->refused)
      g_string_append_printf(out,
                             "%sanchor: derived memory_time_factor %.4f (first step %.4f from the "
                             "memory-wait share, then a secant step)\n",
                             prefix, an->derived_factor, an->first_factor);
    append_checks(an, prefix, out);
    g_string_append_printf(out, "%s(--no-anchor: the pure model)\n", prefix);
    return;
  }
  if (!an->applied) {
    g_string_append_printf(out, "%sanchor: none (%s): the curve is the pure model's\n", prefix,
                           an->why);
    if (an->refused && an->atomic)
      g_string_append_printf(out,
                             "%sanchor: derived [l2] atomic_sectors_per_cycle %.4g (atomic unit "
                             "busy %.1f %% of the pure launch), dropped\n",
                             prefix, an->atomic_rate, 100.0 * an->atomic_busy_share);
    else if (an->refused)
      g_string_append_printf(
          out,
          "%sanchor: derived memory_time_factor %.4f%s (first step %.4f from the "
          "memory-wait share, then a secant step), dropped\n",
          prefix, an->derived_factor, an->clamped ? " (clamped to 0.5..2)" : "", an->first_factor);
    append_checks(an, prefix, out);
    return;
  }
  g_autofree gchar *sets = profile_anchor_sets(an, pure);
  if (an->atomic)
    g_string_append_printf(
        out,
        "%sanchor: [l2] atomic_sectors_per_cycle = %.4g sectors/cycle/SM (RED; ATOM %.4g), "
        "from SM Active Cycles (profiled %.0f) and the launch's %.0f global atomic sectors per "
        "SM (the source page's L2 Theoretical Sectors Global x Instructions Executed of its "
        "RED/ATOM instructions): the pure model's atomic unit, at the measured uncontended "
        "%.4g, is busy %.1f %% of its simulated launch (simulated/profiled %.4f): this "
        "kernel's atomics aim at few addresses, and the profiled time is put on the unit\n",
        prefix, an->atomic_rate, an->atomic_return_rate, an->profiled_cycles, an->atomic_sectors,
        pure->atomic_sectors_per_cycle, 100.0 * an->atomic_busy_share, an->cycles_ratio);
  else
    g_string_append_printf(
        out,
        "%sanchor: memory_time_factor = %.4f%s, from SM Active Cycles (simulated/profiled %.4f, "
        "pure model) and the simulated memory-wait share %.1f %% (long_scoreboard + lg_throttle + "
        "drain): first step f1 = 1 + (profiled/simulated - 1) / share = %.4f (simulated/profiled "
        "%.4f with it), then one secant step to simulated/profiled 1\n",
        prefix, an->memory_factor, an->clamped ? " (clamped to 0.5..2)" : "", an->cycles_ratio,
        100.0 * an->memory_share, an->first_factor, an->first_ratio);
  append_checks(an, prefix, out);
  g_string_append_printf(out, "%sanchor: every occupancy simulated with --set %s\n", prefix, sets);
  if (anchored != NULL && anchored->present)
    g_string_append_printf(out,
                           "%sanchor: at the profiled launch the anchored model gives "
                           "simulated/profiled SM active cycles %.4f (pure model %.4f)\n",
                           prefix, anchored->cycles_ratio, an->cycles_ratio);
  g_string_append_printf(out, "%s(--no-anchor: the pure model)\n", prefix);
}

/* JSON members of ProfileAnchor's gdouble fields: name, offset. */
typedef struct {
  const gchar *name;
  gsize offset;
} AnchorMember;

#define A(f) G_STRUCT_OFFSET(ProfileAnchor, f)
static const AnchorMember anchor_sources[] = {
    {"sm_active_cycles_ratio", A(cycles_ratio)},
    {"memory_wait_share", A(memory_share)},
    {"first_factor", A(first_factor)},
    {"first_cycles_ratio", A(first_ratio)},
};
static const AnchorMember anchor_checks[] = {
    {"warp_cycles_per_issued_profiled", A(wcpi_profiled)},
    {"warp_cycles_per_issued_pure", A(wcpi_pure)},
    {"warp_cycles_per_issued_anchored", A(wcpi_anchored)},
    {"dram_throughput_profiled_pct", A(dram_profiled)},
    {"dram_throughput_pure_pct", A(dram_pure)},
    {"dram_throughput_anchored_pct", A(dram_anchored)},
    {"achieved_occupancy_profiled_pct", A(occupancy_profiled)},
    {"achieved_occupancy_pure_pct", A(occupancy_pure)},
};
/* the shape check's doublings: [0] B/2 -> B, [1] B -> 2B */
static const gchar *const shape_names[2] = {"doubling_to_profiled", "doubling_from_profiled"};
static const AnchorMember atomic_sources[] = {
    {"sm_active_cycles_profiled", A(profiled_cycles)},
    {"atomic_sectors_per_sm", A(atomic_sectors)},
    {"atomic_unit_busy_share_pure", A(atomic_busy_share)},
    {"sm_active_cycles_ratio", A(cycles_ratio)},
};
static const AnchorMember level_sources[] = {
    {"sm_active_cycles_ratio", A(cycles_ratio)},
    {"memory_wait_share", A(memory_share)},
};
#undef A

static void json_members(JsonBuilder *b, const AnchorMember *mem, gsize n,
                         const ProfileAnchor *an) {
  for (gsize i = 0; i < n; i++)
    json_text_member_double(b, mem[i].name, G_STRUCT_MEMBER(gdouble, an, mem[i].offset));
}

/* Member `member`: an object of the table `mem`'s members. */
static void json_table(JsonBuilder *b, const gchar *member, const AnchorMember *mem, gsize n,
                       const ProfileAnchor *an) {
  json_builder_set_member_name(b, member);
  json_builder_begin_object(b);
  json_members(b, mem, n, an);
  json_builder_end_object(b);
}

/* The atomic quantity as one object of the "quantities" array. */
static void atomic_json(JsonBuilder *b, const ProfileAnchor *an) {
  json_builder_begin_object(b);
  json_text_member_string(b, "name", "atomic_sectors_per_cycle");
  json_text_member_double(b, "value", an->atomic_rate);
  json_text_member_double(b, "atomic_return_sectors_per_cycle", an->atomic_return_rate);
  json_text_member_double(b, "atomic_cas_sectors_per_cycle", an->atomic_cas_rate);
  json_table(b, "sources", atomic_sources, G_N_ELEMENTS(atomic_sources), an);
  json_text_member_bool(b, "refused", an->refused);
  json_builder_end_object(b);
}

JsonNode *profile_anchor_to_json(const ProfileAnchor *an, const SmModel *pure,
                                 const ProfileAgreement *anchored) {
  g_autoptr(JsonBuilder) b = json_builder_new();
  json_builder_begin_object(b);
  json_text_member_bool(b, "applied", an->applied || an->level);
  json_text_member_string(b, "why_not", an->applied || an->level ? NULL : an->why);
  json_text_member_string(b, "memory_factor_why_not", an->applied ? NULL : an->why);
  json_builder_set_member_name(b, "quantities");
  json_builder_begin_array(b);
  json_builder_begin_object(b);
  json_text_member_string(b, "name", "memory_time_factor");
  json_text_member_double(b, "value", an->memory_factor);
  json_text_member_bool(b, "clamped", an->clamped);
  json_table(b, "sources", anchor_sources, G_N_ELEMENTS(anchor_sources), an);
  json_text_member_double(b, "derived_value", an->derived_factor);
  json_builder_set_member_name(b, "checks");
  json_builder_begin_object(b);
  json_members(b, anchor_checks, G_N_ELEMENTS(anchor_checks), an);
  for (guint i = 0; i < 2 && an->shape_blocks[i][1] > 0; i++) {
    json_builder_set_member_name(b, shape_names[i]);
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "blocks_per_sm_from");
    json_builder_add_int_value(b, an->shape_blocks[i][0]);
    json_builder_set_member_name(b, "blocks_per_sm_to");
    json_builder_add_int_value(b, an->shape_blocks[i][1]);
    json_text_member_double(b, "gain_pure", an->shape_gain_pure[i]);
    json_text_member_double(b, "gain_anchored", an->shape_gain_anchored[i]);
    json_builder_end_object(b);
  }
  json_text_member_bool(b, "refused", an->refused);
  json_builder_end_object(b);
  json_builder_end_object(b);
  if (an->atomic)
    atomic_json(b, an);
  json_builder_begin_object(b);
  json_text_member_string(b, "name", "time_factor");
  json_text_member_double(b, "value", an->time_factor);
  json_text_member_bool(b, "applied", an->level);
  json_table(b, "sources", level_sources, G_N_ELEMENTS(level_sources), an);
  json_builder_end_object(b);
  json_builder_end_array(b);
  g_autofree gchar *sets = profile_anchor_sets(an, pure);
  json_text_member_string(b, "model_sets", sets);
  json_text_member_double(b, "anchored_cycles_ratio",
                          anchored != NULL && anchored->present ? anchored->cycles_ratio : NAN);
  json_builder_end_object(b);
  return json_builder_get_root(b);
}
