/* json_text.c - pretty JSON text with shortest round-trip doubles. */
#include "report/json_text.h"

#include <math.h>
#include <string.h>

gchar *json_text_double(gchar *buf, gdouble value) {
  /* Plain decimals in the range people read that way, else exponent form. */
  gboolean plain = fabs(value) >= 1e-5 && fabs(value) < 1e17;
  for (gint digits = plain ? 0 : 1; digits <= (plain ? 24 : 17); digits++) {
    gchar fmt[8];
    g_snprintf(fmt, sizeof fmt, plain ? "%%.%df" : "%%.%dg", digits);
    g_ascii_formatd(buf, G_ASCII_DTOSTR_BUF_SIZE, fmt, value);
    if (g_ascii_strtod(buf, NULL) == value)
      break;
  }
  if (strpbrk(buf, ".eEn") == NULL) /* keep it a double for the reader */
    g_strlcat(buf, ".0", G_ASCII_DTOSTR_BUF_SIZE);
  return buf;
}

static void append_string(GString *out, const gchar *s) {
  g_string_append_c(out, '"');
  for (const guchar *p = (const guchar *)s; *p; p++) {
    switch (*p) {
    case '"':
      g_string_append(out, "\\\"");
      break;
    case '\\':
      g_string_append(out, "\\\\");
      break;
    case '\n':
      g_string_append(out, "\\n");
      break;
    case '\r':
      g_string_append(out, "\\r");
      break;
    case '\t':
      g_string_append(out, "\\t");
      break;
    default:
      if (*p < 0x20)
        g_string_append_printf(out, "\\u%04x", *p);
      else
        g_string_append_c(out, (gchar)*p);
    }
  }
  g_string_append_c(out, '"');
}

static void append_node(GString *out, JsonNode *node, guint depth);

static void indent(GString *out, guint depth) {
  for (guint i = 0; i < depth; i++)
    g_string_append(out, "  ");
}

static void append_value(GString *out, JsonNode *node) {
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
  GType type = json_node_get_value_type(node);
  if (type == G_TYPE_INT64) {
    g_string_append_printf(out, "%" G_GINT64_FORMAT, json_node_get_int(node));
  } else if (type == G_TYPE_DOUBLE) {
    gdouble v = json_node_get_double(node);
    g_string_append(out, isfinite(v) ? json_text_double(buf, v) : "null");
  } else if (type == G_TYPE_BOOLEAN) {
    g_string_append(out, json_node_get_boolean(node) ? "true" : "false");
  } else {
    append_string(out, json_node_get_string(node));
  }
}

static void append_node(GString *out, JsonNode *node, guint depth) {
  switch (json_node_get_node_type(node)) {
  case JSON_NODE_OBJECT: {
    JsonObject *o = json_node_get_object(node);
    g_autoptr(GList) members = json_object_get_members(o); /* in insertion order */
    g_string_append_c(out, '{');
    for (GList *l = members; l != NULL; l = l->next) {
      g_string_append(out, l == members ? "\n" : ",\n");
      indent(out, depth + 1);
      append_string(out, l->data);
      g_string_append(out, " : ");
      append_node(out, json_object_get_member(o, l->data), depth + 1);
    }
    if (members != NULL) {
      g_string_append_c(out, '\n');
      indent(out, depth);
    }
    g_string_append_c(out, '}');
    break;
  }
  case JSON_NODE_ARRAY: {
    JsonArray *a = json_node_get_array(node);
    guint n = json_array_get_length(a);
    g_string_append_c(out, '[');
    for (guint i = 0; i < n; i++) {
      g_string_append(out, i == 0 ? "\n" : ",\n");
      indent(out, depth + 1);
      append_node(out, json_array_get_element(a, i), depth + 1);
    }
    if (n > 0) {
      g_string_append_c(out, '\n');
      indent(out, depth);
    }
    g_string_append_c(out, ']');
    break;
  }
  case JSON_NODE_NULL:
    g_string_append(out, "null");
    break;
  case JSON_NODE_VALUE:
    append_value(out, node);
    break;
  }
}

void json_text_append(GString *out, JsonNode *node) {
  append_node(out, node, 0);
}

void json_text_member_double(JsonBuilder *b, const gchar *name, gdouble value) {
  json_builder_set_member_name(b, name);
  json_builder_add_double_value(b, value);
}

void json_text_member_bool(JsonBuilder *b, const gchar *name, gboolean value) {
  json_builder_set_member_name(b, name);
  json_builder_add_boolean_value(b, value);
}

void json_text_member_string(JsonBuilder *b, const gchar *name, const gchar *value) {
  json_builder_set_member_name(b, name);
  if (value != NULL)
    json_builder_add_string_value(b, value);
  else
    json_builder_add_null_value(b);
}
