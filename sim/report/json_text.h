/* json_text.h - JSON text from a json-glib node tree, with every double in
 * its shortest form that reads back to the same value ("33.333", never
 * "33.332999999999998" as json-glib's %.17g writes it).  Layout as
 * json-glib's pretty printer: two-space indent, "name" : value.
 */
#ifndef WARPSIM_JSON_TEXT_H
#define WARPSIM_JSON_TEXT_H

#include <json-glib/json-glib.h>

/* Append `node` (not consumed) as pretty-printed JSON, without a final
 * newline.  NaN and infinities, which JSON cannot hold, are written null. */
void json_text_append(GString *out, JsonNode *node);

/* The shortest text of a finite `value` that g_ascii_strtod reads back
 * exactly: fewest decimals ("%.Nf") for 1e-5 <= |value| < 1e17, else the
 * fewest significant digits in exponent form ("%.Ng"); ".0" is added when it
 * would read as an integer.  Written into `buf` (G_ASCII_DTOSTR_BUF_SIZE
 * bytes), which is returned. */
gchar *json_text_double(gchar *buf, gdouble value);

/* Add member `name` holding `value` to the object `b` is building (NaN:
 * written null by json_text_append). */
void json_text_member_double(JsonBuilder *b, const gchar *name, gdouble value);

/* The same for a boolean, and for a string (NULL: null). */
void json_text_member_bool(JsonBuilder *b, const gchar *name, gboolean value);
void json_text_member_string(JsonBuilder *b, const gchar *name, const gchar *value);

#endif
