/* config.c - table-driven GKeyFile reading, validation and dumping. */
#include "input/config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK(warpsim_config_error, config_error)

#define OVERRIDE_MARK "warpsim: value from --set"

#define FIELD(target, off, type) ((type *)((gchar *)(target) + (off)))
#define CFIELD(target, off, type) ((const type *)((const gchar *)(target) + (off)))

const gchar *config_parse_uint_why(const gchar *text, guint64 *value) {
  gchar *end = NULL;
  if (text == NULL || !g_ascii_isdigit(text[0]))
    return "not an unsigned integer";
  errno = 0;
  guint64 v = g_ascii_strtoull(text, &end, 10);
  if (end == text || *end != '\0')
    return "not an unsigned integer";
  if (errno == ERANGE) /* digits past 2^64-1 */
    return "out of range (overflow)";
  if (errno != 0)
    return "not an unsigned integer";
  *value = v;
  return NULL;
}

gboolean config_parse_uint(const gchar *text, guint64 *value) {
  return config_parse_uint_why(text, value) == NULL;
}

const gchar *config_parse_double_why(const gchar *text, gdouble *value) {
  gchar *end = NULL;
  if (text == NULL || *text == '\0')
    return "not a number";
  errno = 0;
  gdouble v = g_ascii_strtod(text, &end);
  if (end == text || *end != '\0')
    return "not a number";
  /* strtod's ERANGE: past DBL_MAX (HUGE_VAL) or below DBL_MIN (a subnormal
   * or 0): a number, but one no key's range holds as written */
  if (errno == ERANGE)
    return fabs(v) > 1.0 ? "out of range (overflow)" : "out of range (underflow)";
  if (errno != 0 || !isfinite(v)) /* "inf", "nan" */
    return "not a number";
  *value = v;
  return NULL;
}

static gchar *range_text(const ConfigEntry *e) {
  switch (e->type) {
  case CONFIG_UINT:
  case CONFIG_UINT_LIST:
    return g_strdup_printf("%.0f..%.0f", e->min, e->max);
  case CONFIG_DOUBLE:
    return g_strdup_printf("%g..%g", e->min, e->max);
  case CONFIG_BOOL:
    return g_strdup("true|false");
  case CONFIG_ENUM: {
    gchar **c = g_strsplit(e->choices, ";", -1);
    gchar *s = g_strjoinv("|", c);
    g_strfreev(c);
    return s;
  }
  case CONFIG_STRING:
    return g_strdup("text");
  }
  return g_strdup("?");
}

static gboolean value_error(const ConfigEntry *e, const gchar *origin, const gchar *text,
                            const gchar *what, GError **error) {
  g_autofree gchar *range = range_text(e);
  g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_VALUE, "%s: [%s] %s: %s '%s' (allowed %s%s%s)",
              origin, e->group, e->key, what, text, range, e->unit ? " " : "",
              e->unit ? e->unit : "");
  return FALSE;
}

static gboolean parse_uint_in_range(const ConfigEntry *e, const gchar *origin, const gchar *text,
                                    guint *out, GError **error) {
  guint64 v;
  const gchar *why = config_parse_uint_why(text, &v);
  if (why != NULL)
    return value_error(e, origin, text, why, error);
  if ((gdouble)v < e->min || (gdouble)v > e->max)
    return value_error(e, origin, text, "out of range", error);
  *out = (guint)v;
  return TRUE;
}

/* Parse `text` into the entry's field of `target`. */
static gboolean set_value(const ConfigEntry *e, const gchar *origin, const gchar *raw,
                          gpointer target, GError **error) {
  g_autofree gchar *text = g_strstrip(g_strdup(raw));
  switch (e->type) {
  case CONFIG_UINT:
    return parse_uint_in_range(e, origin, text, FIELD(target, e->offset, guint), error);
  case CONFIG_DOUBLE: {
    gdouble v;
    const gchar *why = config_parse_double_why(text, &v);
    if (why != NULL)
      return value_error(e, origin, text, why, error);
    if (v < e->min || v > e->max)
      return value_error(e, origin, text, "out of range", error);
    *FIELD(target, e->offset, gdouble) = v;
    return TRUE;
  }
  case CONFIG_BOOL:
    if (g_strcmp0(text, "true") == 0 || g_strcmp0(text, "1") == 0)
      *FIELD(target, e->offset, gboolean) = TRUE;
    else if (g_strcmp0(text, "false") == 0 || g_strcmp0(text, "0") == 0)
      *FIELD(target, e->offset, gboolean) = FALSE;
    else
      return value_error(e, origin, text, "not a boolean", error);
    return TRUE;
  case CONFIG_ENUM: {
    g_auto(GStrv) choices = g_strsplit(e->choices, ";", -1);
    for (guint i = 0; choices[i] != NULL; i++) {
      if (g_strcmp0(choices[i], text) == 0) {
        *FIELD(target, e->offset, guint) = i;
        return TRUE;
      }
    }
    return value_error(e, origin, text, "not one of the choices", error);
  }
  case CONFIG_STRING: {
    gchar **slot = FIELD(target, e->offset, gchar *);
    g_free(*slot);
    *slot = g_strdup(text);
    return TRUE;
  }
  case CONFIG_UINT_LIST: {
    g_auto(GStrv) items = g_strsplit_set(text, ";,", -1); /* "1;2" or "1,2" */
    guint count = 0;
    for (guint i = 0; items[i] != NULL; i++) {
      g_strstrip(items[i]);
      if (items[i][0] == '\0') {
        /* an empty list, or one ended by a separator as GKeyFile writes
         * lists ("1;2;"); an item left out between two is a slip */
        if (items[i + 1] == NULL)
          continue;
        return value_error(e, origin, text, "an empty item", error);
      }
      if (count >= e->max_items) {
        g_autofree gchar *what = g_strdup_printf("more than %u items", e->max_items);
        return value_error(e, origin, text, what, error);
      }
      if (!parse_uint_in_range(e, origin, items[i], FIELD(target, e->offset, guint) + count, error))
        return FALSE;
      count++;
    }
    *FIELD(target, e->offset2, guint) = count;
    return TRUE;
  }
  }
  g_assert_not_reached();
}

static const ConfigEntry *find_entry(const ConfigEntry *table, guint n, const gchar *group,
                                     const gchar *key) {
  for (guint i = 0; i < n; i++)
    if (g_strcmp0(table[i].group, group) == 0 && g_strcmp0(table[i].key, key) == 0)
      return &table[i];
  return NULL;
}

/* The entry KEY of "KEY.source" in `group`, or NULL. */
static const ConfigEntry *source_entry(const ConfigEntry *table, guint n, const gchar *group,
                                       const gchar *key) {
  if (!g_str_has_suffix(key, CONFIG_SOURCE_SUFFIX))
    return NULL;
  g_autofree gchar *base = g_strndup(key, strlen(key) - strlen(CONFIG_SOURCE_SUFFIX));
  return find_entry(table, n, group, base);
}

void config_sources_clear(ConfigSources *s) {
  if (s->source != NULL)
    for (guint i = 0; i < s->n; i++)
      g_free(s->source[i]);
  g_clear_pointer(&s->source, g_free);
  s->n = 0;
}

/* "KIND: detail" with a known KIND and some detail. */
static gboolean source_ok(const gchar *text) {
  const gchar *colon = strchr(text, ':');
  if (colon == NULL || colon[1] == '\0')
    return FALSE;
  g_autofree gchar *kind = g_strndup(text, colon - text);
  g_auto(GStrv) kinds = g_strsplit(CONFIG_SOURCE_KINDS, ";", -1);
  return g_strv_contains((const gchar *const *)kinds, kind);
}

gboolean config_has_group(const ConfigEntry *table, guint n, const gchar *group) {
  for (guint i = 0; i < n; i++)
    if (g_strcmp0(table[i].group, group) == 0)
      return TRUE;
  return FALSE;
}

/* A group or key name: letters, digits and '_'. */
static gboolean is_name(const gchar *s) {
  if (*s == '\0')
    return FALSE;
  for (; *s; s++)
    if (!g_ascii_isalnum(*s) && *s != '_')
      return FALSE;
  return TRUE;
}

static gboolean has_control(const gchar *s) {
  for (; *s; s++)
    if ((guchar)*s < 0x20 || *s == 0x7f)
      return TRUE;
  return FALSE;
}

gboolean config_apply_overrides(GKeyFile *kf, const ConfigEntry *table, guint n,
                                const gchar *const *overrides, GError **error) {
  for (guint i = 0; overrides != NULL && overrides[i] != NULL; i++) {
    const gchar *o = overrides[i];
    const gchar *eq = strchr(o, '=');
    const gchar *dot = strchr(o, '.');
    if (eq == NULL || dot == NULL || dot > eq || dot == o || eq == dot + 1) {
      g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_PARSE, "--set '%s': expected group.key=value",
                  o);
      return FALSE;
    }
    g_autofree gchar *group = g_strndup(o, dot - o);
    g_autofree gchar *key = g_strndup(dot + 1, eq - dot - 1);
    if (!is_name(group) || !is_name(key) || has_control(eq + 1)) {
      g_autofree gchar *shown = g_strescape(o, NULL);
      g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_PARSE,
                  "--set '%s': expected group.key=value (group and key of letters, digits and "
                  "'_'; no control characters)",
                  shown);
      return FALSE;
    }
    if (!config_has_group(table, n, group))
      continue;
    g_autofree gchar *before = g_key_file_get_comment(kf, group, key, NULL);
    if (before != NULL && strstr(before, OVERRIDE_MARK) != NULL) {
      g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_VALUE,
                  "--set '%s': [%s] %s is already set by an earlier --set (allowed once, as in "
                  "a file)",
                  o, group, key);
      return FALSE;
    }
    g_key_file_set_value(kf, group, key, eq + 1);
    /* Mark the key so that a message about it names --set, not the file. */
    g_key_file_set_comment(kf, group, key, OVERRIDE_MARK, NULL);
  }
  return TRUE;
}

/* "a|b|c": the keys of `group` in `table` (or the groups when `group` is NULL). */
static gchar *allowed_names(const ConfigEntry *table, guint n, const gchar *group) {
  GString *out = g_string_new(NULL);
  for (guint i = 0; i < n; i++) {
    const gchar *name = group ? table[i].key : table[i].group;
    if (group != NULL && g_strcmp0(table[i].group, group) != 0)
      continue;
    if (group == NULL && i > 0 && g_strcmp0(table[i - 1].group, name) == 0)
      continue;
    g_string_append_printf(out, "%s%s", out->len ? "|" : "", name);
  }
  return g_string_free(out, FALSE);
}

gchar *config_origin(GKeyFile *kf, const gchar *origin, const gchar *group, const gchar *key) {
  g_autofree gchar *comment = g_key_file_get_comment(kf, group, key, NULL);
  if (comment != NULL && strstr(comment, OVERRIDE_MARK) != NULL)
    return g_strconcat(origin, ", --set", NULL);
  return g_strdup(origin);
}

gboolean config_read(const ConfigEntry *table, guint n, GKeyFile *kf, const gchar *origin,
                     gpointer target, gchar **missing_optional, GError **error) {
  /* Unknown groups and keys first: a typo must never pass silently. */
  g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);
  for (guint g = 0; groups[g] != NULL; g++) {
    if (!config_has_group(table, n, groups[g])) {
      g_autofree gchar *allowed = allowed_names(table, n, NULL);
      g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_UNKNOWN, "%s: [%s]: unknown group (allowed %s)",
                  origin, groups[g], allowed);
      return FALSE;
    }
    g_auto(GStrv) keys = g_key_file_get_keys(kf, groups[g], NULL, NULL);
    for (guint k = 0; keys != NULL && keys[k] != NULL; k++) {
      if (find_entry(table, n, groups[g], keys[k]) == NULL &&
          source_entry(table, n, groups[g], keys[k]) == NULL) {
        g_autofree gchar *where = config_origin(kf, origin, groups[g], keys[k]);
        g_autofree gchar *allowed = allowed_names(table, n, groups[g]);
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_UNKNOWN,
                    "%s: [%s] %s: unknown key (allowed %s)", where, groups[g], keys[k], allowed);
        return FALSE;
      }
    }
  }
  if (missing_optional)
    *missing_optional = NULL;
  for (guint i = 0; i < n; i++) {
    const ConfigEntry *e = &table[i];
    g_autofree gchar *text = g_key_file_get_value(kf, e->group, e->key, NULL);
    if (text == NULL) {
      if (e->def != NULL) {
        if (!set_value(e, origin, e->def, target, error))
          return FALSE;
        continue;
      }
      if (e->flags & CONFIG_OPTIONAL_GROUP) {
        if (missing_optional && *missing_optional == NULL)
          *missing_optional = g_strdup_printf("[%s] %s", e->group, e->key);
        continue;
      }
      g_autofree gchar *range = range_text(e);
      g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_MISSING,
                  "%s: [%s] %s: required key missing (allowed %s)", origin, e->group, e->key,
                  range);
      return FALSE;
    }
    g_autofree gchar *where = config_origin(kf, origin, e->group, e->key);
    if (!set_value(e, where, text, target, error))
      return FALSE;
  }
  return TRUE;
}

gboolean config_read_sources(const ConfigEntry *table, guint n, GKeyFile *kf, const gchar *origin,
                             gpointer target, gchar **missing_optional, ConfigSources *sources,
                             GError **error) {
  if (!config_read(table, n, kf, origin, target, missing_optional, error))
    return FALSE;
  config_sources_clear(sources);
  sources->n = n;
  sources->source = g_new0(gchar *, n);
  for (guint i = 0; i < n; i++) {
    const ConfigEntry *e = &table[i];
    g_autofree gchar *key = g_strconcat(e->key, CONFIG_SOURCE_SUFFIX, NULL);
    g_autofree gchar *text = g_key_file_get_value(kf, e->group, key, NULL);
    g_autofree gchar *where = config_origin(kf, origin, e->group, e->key);
    gboolean has_value = g_key_file_has_key(kf, e->group, e->key, NULL);
    if (text != NULL) {
      g_strstrip(text);
      if (!source_ok(text)) {
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_VALUE,
                    "%s: [%s] %s: '%s' is not a provenance (allowed KIND: detail, KIND one of "
                    "measured|public|fitted|assumed|set)",
                    origin, e->group, key, text);
        return FALSE;
      }
    }
    if (has_value && g_str_has_suffix(where, ", --set"))
      sources->source[i] = g_strdup("set: --set on the command line");
    else if (text != NULL && has_value)
      sources->source[i] = g_steal_pointer(&text);
    else if (!has_value && e->source != NULL)
      sources->source[i] = g_strdup(e->source);
  }
  return TRUE;
}

void config_clear(const ConfigEntry *table, guint n, gpointer target) {
  for (guint i = 0; i < n; i++) {
    if (table[i].type == CONFIG_STRING) {
      gchar **slot = FIELD(target, table[i].offset, gchar *);
      g_clear_pointer(slot, g_free);
    }
  }
}

/* `v` in the fewest of 15 or 17 significant digits that read back as `v`
 * (0.4, not g_ascii_dtostr's 0.40000000000000002), into buf. */
static const gchar *shortest_double(gchar *buf, gsize len, gdouble v) {
  g_ascii_formatd(buf, len, "%.15g", v);
  if (g_ascii_strtod(buf, NULL) != v)
    g_ascii_formatd(buf, len, "%.17g", v);
  return buf;
}

static void append_value(const ConfigEntry *e, gconstpointer target, GString *out) {
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
  switch (e->type) {
  case CONFIG_UINT:
    g_string_append_printf(out, "%u", *CFIELD(target, e->offset, guint));
    break;
  case CONFIG_DOUBLE:
    g_string_append(out, shortest_double(buf, sizeof buf, *CFIELD(target, e->offset, gdouble)));
    break;
  case CONFIG_BOOL:
    g_string_append(out, *CFIELD(target, e->offset, gboolean) ? "true" : "false");
    break;
  case CONFIG_ENUM: {
    g_auto(GStrv) choices = g_strsplit(e->choices, ";", -1);
    g_string_append(out, choices[*CFIELD(target, e->offset, guint)]);
    break;
  }
  case CONFIG_STRING: {
    const gchar *s = *CFIELD(target, e->offset, gchar *);
    g_string_append(out, s ? s : "");
    break;
  }
  case CONFIG_UINT_LIST: {
    guint count = *CFIELD(target, e->offset2, guint);
    const guint *items = CFIELD(target, e->offset, guint);
    for (guint i = 0; i < count; i++)
      g_string_append_printf(out, "%s%u", i ? ";" : "", items[i]);
    break;
  }
  }
}

void config_dump(const ConfigEntry *table, guint n, gconstpointer target, GString *out,
                 const gchar *prefix) {
  config_dump_sources(table, n, target, NULL, out, prefix);
}

void config_dump_sources(const ConfigEntry *table, guint n, gconstpointer target,
                         const ConfigSources *sources, GString *out, const gchar *prefix) {
  const gchar *group = NULL;
  for (guint i = 0; i < n; i++) {
    const ConfigEntry *e = &table[i];
    if (g_strcmp0(group, e->group) != 0) {
      group = e->group;
      g_string_append_printf(out, "%s[%s]\n", prefix, group);
    }
    g_string_append_printf(out, "%s%s=", prefix, e->key);
    append_value(e, target, out);
    g_string_append_c(out, '\n');
    if (sources != NULL && i < sources->n && sources->source[i] != NULL)
      g_string_append_printf(out, "%s%s%s=%s\n", prefix, e->key, CONFIG_SOURCE_SUFFIX,
                             sources->source[i]);
  }
}

void config_describe(const ConfigEntry *table, guint n, GString *out) {
  for (guint i = 0; i < n; i++) {
    const ConfigEntry *e = &table[i];
    g_autofree gchar *range = range_text(e);
    g_string_append_printf(out, "  %s.%s (%s%s%s; default %s%s%s%s): %s\n", e->group, e->key, range,
                           e->unit ? ", " : "", e->unit ? e->unit : "",
                           e->def ? e->def : "required", e->source ? " [" : "",
                           e->source ? e->source : "", e->source ? "]" : "", e->desc);
  }
}
