/* config.h - one table of {group, key, type, default, range, description}
 * drives reading a GKeyFile into a plain struct, validating it, describing
 * it (--help) and dumping the effective configuration into results files.
 * Used by model.c (SM models) and kernel.c (kernel files).
 */
#ifndef WARPSIM_CONFIG_H
#define WARPSIM_CONFIG_H

#include <glib.h>

typedef enum {
  CONFIG_UINT,      /* guint, range [min, max] */
  CONFIG_DOUBLE,    /* gdouble, range [min, max] */
  CONFIG_BOOL,      /* gboolean: true/false */
  CONFIG_ENUM,      /* guint index into the ';'-separated `choices` */
  CONFIG_STRING,    /* gchar *, owned by the struct */
  CONFIG_UINT_LIST, /* guint[max] at offset, count (guint) at offset2; items separated by ';'
                       or ',' */
} ConfigType;

/* Flags of a ConfigEntry. */
enum {
  CONFIG_OPTIONAL_GROUP = 1 << 0, /* entry belongs to a group that may be absent
                                     as a whole (then `present` stays FALSE) */
};

typedef struct {
  const gchar *group; /* GKeyFile group */
  const gchar *key;   /* GKeyFile key */
  ConfigType type;
  gsize offset;         /* offset of the field in the target struct */
  gsize offset2;        /* CONFIG_UINT_LIST: offset of the count field */
  const gchar *def;     /* default value as text; NULL = required */
  gdouble min, max;     /* allowed range (UINT, DOUBLE, UINT_LIST items, list length for max
                           of UINT_LIST uses `max_items`) */
  const gchar *choices; /* CONFIG_ENUM: "a;b;c" */
  guint max_items;      /* CONFIG_UINT_LIST: capacity */
  guint flags;
  const gchar *unit;   /* e.g. "cycles", "bytes per cycle per SM" */
  const gchar *desc;   /* one line, for --help and docs */
  const gchar *source; /* provenance of the default value ("KIND: where"), or NULL */
} ConfigEntry;

/* Provenance of a value: a file gives it as "KEY.source=KIND: detail" beside
 * KEY, where KIND is one of these (doc/model.md "Provenance"). */
#define CONFIG_SOURCE_SUFFIX ".source"
#define CONFIG_SOURCE_KINDS "measured;public;fitted;assumed;set"

/* The provenance of each entry of a table as read (index = entry index):
 * the file's KEY.source, "set: --set on the command line", the entry's
 * `source` for a default, or NULL. */
typedef struct {
  guint n;        /* entries */
  gchar **source; /* n strings, owned */
} ConfigSources;

void config_sources_clear(ConfigSources *s);

#define CONFIG_ERROR (config_error_quark())
GQuark config_error_quark(void);
typedef enum {
  CONFIG_ERROR_PARSE,   /* file unreadable or malformed */
  CONFIG_ERROR_UNKNOWN, /* unknown group or key */
  CONFIG_ERROR_VALUE,   /* non-numeric, out of range, not a choice */
  CONFIG_ERROR_MISSING, /* required key absent */
} ConfigError;

/* Set "group.key=value" overrides (NULL-terminated, may be NULL) into `kf`,
 * but only those whose group appears in `table`; the others are left for
 * another table.  Fails on a malformed override (CONFIG_ERROR_PARSE) and on
 * a key set twice (CONFIG_ERROR_VALUE), as a file may not repeat a key. */
gboolean config_apply_overrides(GKeyFile *kf, const ConfigEntry *table, guint n,
                                const gchar *const *overrides, GError **error);

/* `origin`, or "ORIGIN, --set" when the value of [group] key in `kf` came
 * from an override (config_apply_overrides marks them); newly allocated. */
gchar *config_origin(GKeyFile *kf, const gchar *origin, const gchar *group, const gchar *key);

/* TRUE when some entry of `table` has group `group`. */
gboolean config_has_group(const ConfigEntry *table, guint n, const gchar *group);

/* Read every entry of `table` from `kf` into `target`.  Unknown groups and
 * keys (not in `table`) are errors; so are missing required keys and values
 * out of range.  Absent optional groups are skipped and reported through
 * `missing_optional` (may be NULL), which is set TRUE when any entry of an
 * optional group was absent.  `origin` (a file name) starts every message:
 * "FILE: [group] key: problem (allowed RANGE)". */
gboolean config_read(const ConfigEntry *table, guint n, GKeyFile *kf, const gchar *origin,
                     gpointer target, gchar **missing_optional, GError **error);

/* Like config_read, and fills `sources` (n strings) with each value's
 * provenance.  A KEY.source whose KEY is not in the table, or whose text does
 * not start with one of CONFIG_SOURCE_KINDS and ':', is a CONFIG_ERROR_VALUE. */
gboolean config_read_sources(const ConfigEntry *table, guint n, GKeyFile *kf, const gchar *origin,
                             gpointer target, gchar **missing_optional, ConfigSources *sources,
                             GError **error);

/* Free the strings the table owns in `target`. */
void config_clear(const ConfigEntry *table, guint n, gpointer target);

/* Append the effective values as GKeyFile text, each line prefixed by `prefix`. */
void config_dump(const ConfigEntry *table, guint n, gconstpointer target, GString *out,
                 const gchar *prefix);

/* config_dump with each value's provenance as a "KEY.source=..." line after it
 * (`sources` may be NULL: then as config_dump). */
void config_dump_sources(const ConfigEntry *table, guint n, gconstpointer target,
                         const ConfigSources *sources, GString *out, const gchar *prefix);

/* Append a description of every key (group, key, type, default, range, unit,
 * description and the default's provenance), one per line, for --help. */
void config_describe(const ConfigEntry *table, guint n, GString *out);

/* Parse an unsigned decimal integer; the whole string must be consumed. */
gboolean config_parse_uint(const gchar *text, guint64 *value);

/* config_parse_uint with the reason of a refusal: NULL when `text` is read
 * into *value, else "not an unsigned integer" or, for decimal digits past
 * 2^64-1, "out of range (overflow)" (static strings; *value untouched). */
const gchar *config_parse_uint_why(const gchar *text, guint64 *value);

/* A finite decimal number (what g_ascii_strtod reads, the whole string):
 * NULL when read into *value, else "not a number" (no number, trailing
 * text, inf, nan), "out of range (overflow)" (magnitude past DBL_MAX,
 * 1e309) or "out of range (underflow)" (nonzero below DBL_MIN, 2.2e-308:
 * 5e-324, 1e-400), static strings; *value untouched. */
const gchar *config_parse_double_why(const gchar *text, gdouble *value);

#include "input/config_file.h"

#endif
