/* strata-perfetto-args.c: debug annotations as an event's args
 *
 * Track events carry their arguments as DebugAnnotation messages, their
 * names and string values often interned per sequence: they cannot be
 * read again from the file later, as Trace Event JSON's args are. So
 * they are written as they come into one JSON text,
 * `[{}, {"args": {…}}, …]`, and each event's source is where its object
 * starts; events without args share the empty one at PERFETTO_NO_ARGS.
 * strata_event_args_read() reads that text for a Perfetto trace.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "strata-json-scan.h"
#include "strata-perfetto-private.h"

/* Past this the args of further events are left out (and counted). */
#define MAX_ARGS_TEXT ((gsize) 512 << 20)
#define MAX_ARGS_DEPTH 64

/* DebugAnnotation */
enum {
  ANNOTATION_NAME_IID = 1,
  ANNOTATION_BOOL = 2,
  ANNOTATION_UINT = 3,
  ANNOTATION_INT = 4,
  ANNOTATION_DOUBLE = 5,
  ANNOTATION_STRING = 6,
  ANNOTATION_POINTER = 7,
  ANNOTATION_NESTED = 8,
  ANNOTATION_LEGACY_JSON = 9,
  ANNOTATION_NAME = 10,
  ANNOTATION_DICT_ENTRIES = 11,
  ANNOTATION_ARRAY_VALUES = 12,
  ANNOTATION_PROTO_VALUE = 14,
  ANNOTATION_STRING_IID = 17,
};

/* DebugAnnotation.NestedValue */
enum {
  NESTED_TYPE = 1,
  NESTED_DICT_KEYS = 2,
  NESTED_DICT_VALUES = 3,
  NESTED_ARRAY_VALUES = 4,
  NESTED_INT = 5,
  NESTED_DOUBLE = 6,
  NESTED_BOOL = 7,
  NESTED_STRING = 8,
};

typedef struct
{
  Reader   *reader;
  Sequence *seq;
  GString  *out;
} Writer;

static void
put_string (GString    *out,
            const char *text,
            gsize       len)
{
  g_string_append_c (out, '"');
  for (gsize i = 0; i < len; i++)
    {
      guchar c = text[i];

      if (c == '"' || c == '\\')
        g_string_append_c (out, '\\'), g_string_append_c (out, c);
      else if (c < 0x20)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_c (out, c);
    }
  g_string_append_c (out, '"');
}

static void
put_field_string (GString                *out,
                  const StrataProtoField *field)
{
  g_autofree char *text = perfetto_proto_string (field);

  put_string (out, text, strlen (text));
}

static void
put_interned (Writer     *w,
              GHashTable *table,
              guint64     iid)
{
  guint32 id = GPOINTER_TO_UINT (g_hash_table_lookup (table, GSIZE_TO_POINTER (iid)));
  const char *text = id != 0 ? strata_trace_get_string (w->reader->trace, id) : "";

  put_string (w->out, text, strlen (text));
}

static void
put_double (GString *out,
            guint64  bits)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];
  double value;

  memcpy (&value, &bits, sizeof value);
  if (!isfinite (value))
    g_string_append (out, "null");
  else
    g_string_append (out, g_ascii_dtostr (buffer, sizeof buffer, value));
}

/* Chrome's legacy JSON values go in as they are when they are JSON. */
static void
put_legacy_json (GString                *out,
                 const StrataProtoField *field)
{
  g_autofree char *text = perfetto_proto_string (field);
  const char *end = text + strlen (text), *value_end;
  guint64 depth = 0;

  if (strata_json_skip_value_depth (strata_json_skip_space_inline (text, end), end, &value_end, &depth) == STRATA_JSON_OK &&
      depth <= MAX_ARGS_DEPTH && strata_json_skip_space_inline (value_end, end) == end)
    g_string_append_len (out, text, end - text);
  else
    put_string (out, text, end - text);
}

static void put_nested (Writer *w, const guint8 *data, gsize len, guint depth);
static void put_annotation_value (Writer *w, const guint8 *data, gsize len, guint depth);

/* NestedValue: a dict of keys and values, an array, or one value. */
static void
put_nested_members (Writer       *w,
                    const guint8 *data,
                    gsize         len,
                    guint         depth)
{
  StrataProto keys, values;
  StrataProtoField key, value;
  gboolean first = TRUE;

  strata_proto_init (&keys, data, len);
  strata_proto_init (&values, data, len);
  g_string_append_c (w->out, '{');
  while (strata_proto_next (&keys, &key))
    {
      if (key.number != NESTED_DICT_KEYS || key.wire != STRATA_PROTO_BYTES)
        continue;
      while (strata_proto_next (&values, &value) && (value.number != NESTED_DICT_VALUES || value.wire != STRATA_PROTO_BYTES))
        ;
      if (values.bad || value.number != NESTED_DICT_VALUES)
        break;
      if (!first)
        g_string_append_c (w->out, ',');
      first = FALSE;
      put_field_string (w->out, &key);
      g_string_append_c (w->out, ':');
      put_nested (w, value.bytes, value.len, depth + 1);
    }
  g_string_append_c (w->out, '}');
}

static void
put_nested (Writer       *w,
            const guint8 *data,
            gsize         len,
            guint         depth)
{
  StrataProto proto;
  StrataProtoField field;
  guint64 type = 0;
  gboolean first = TRUE;

  if (depth > MAX_ARGS_DEPTH)
    {
      g_string_append (w->out, "null");
      return;
    }
  strata_proto_init (&proto, data, len);
  while (strata_proto_next (&proto, &field))
    if (field.number == NESTED_TYPE && field.wire == STRATA_PROTO_VARINT)
      type = field.value;
  if (type == 1)
    {
      put_nested_members (w, data, len, depth);
      return;
    }
  strata_proto_init (&proto, data, len);
  if (type == 2)
    g_string_append_c (w->out, '[');
  while (strata_proto_next (&proto, &field))
    {
      if (type == 2)
        {
          if (field.number != NESTED_ARRAY_VALUES || field.wire != STRATA_PROTO_BYTES)
            continue;
          if (!first)
            g_string_append_c (w->out, ',');
          first = FALSE;
          put_nested (w, field.bytes, field.len, depth + 1);
          continue;
        }
      switch (field.number)
        {
        case NESTED_INT: g_string_append_printf (w->out, "%" G_GINT64_FORMAT, (gint64) field.value); return;
        case NESTED_DOUBLE: put_double (w->out, field.value); return;
        case NESTED_BOOL: g_string_append (w->out, field.value ? "true" : "false"); return;
        case NESTED_STRING:
          if (field.wire == STRATA_PROTO_BYTES)
            {
              put_field_string (w->out, &field);
              return;
            }
          break;
        default: break;
        }
    }
  g_string_append (w->out, type == 2 ? "]" : "null");
}

/* A DebugAnnotation's name: written or interned. */
static void
put_annotation_name (Writer       *w,
                     const guint8 *data,
                     gsize         len)
{
  StrataProto proto;
  StrataProtoField field;

  strata_proto_init (&proto, data, len);
  while (strata_proto_next (&proto, &field))
    if (field.number == ANNOTATION_NAME && field.wire == STRATA_PROTO_BYTES)
      {
        put_field_string (w->out, &field);
        return;
      }
    else if (field.number == ANNOTATION_NAME_IID && field.wire == STRATA_PROTO_VARINT)
      {
        put_interned (w, w->seq->annotation_names, field.value);
        return;
      }
  g_string_append (w->out, "\"\"");
}

/* The repeated dict entries (named) or array values of an annotation. */
static void
put_annotation_children (Writer       *w,
                         const guint8 *data,
                         gsize         len,
                         guint32       number,
                         guint         depth)
{
  StrataProto proto;
  StrataProtoField field;
  gboolean first = TRUE;

  g_string_append_c (w->out, number == ANNOTATION_DICT_ENTRIES ? '{' : '[');
  strata_proto_init (&proto, data, len);
  while (strata_proto_next (&proto, &field))
    {
      if (field.number != number || field.wire != STRATA_PROTO_BYTES)
        continue;
      if (!first)
        g_string_append_c (w->out, ',');
      first = FALSE;
      if (number == ANNOTATION_DICT_ENTRIES)
        {
          put_annotation_name (w, field.bytes, field.len);
          g_string_append_c (w->out, ':');
        }
      put_annotation_value (w, field.bytes, field.len, depth + 1);
    }
  g_string_append_c (w->out, number == ANNOTATION_DICT_ENTRIES ? '}' : ']');
}

/* Writes one scalar value field; FALSE for fields that are not one. */
static gboolean
put_scalar (Writer                 *w,
            const StrataProtoField *field)
{
  gboolean bytes = field->wire == STRATA_PROTO_BYTES;

  switch (field->number)
    {
    case ANNOTATION_BOOL: g_string_append (w->out, field->value ? "true" : "false"); return TRUE;
    case ANNOTATION_UINT: g_string_append_printf (w->out, "%" G_GUINT64_FORMAT, field->value); return TRUE;
    case ANNOTATION_INT: g_string_append_printf (w->out, "%" G_GINT64_FORMAT, (gint64) field->value); return TRUE;
    case ANNOTATION_DOUBLE: put_double (w->out, field->value); return TRUE;
    case ANNOTATION_POINTER: g_string_append_printf (w->out, "\"0x%" G_GINT64_MODIFIER "x\"", field->value); return TRUE;
    case ANNOTATION_STRING_IID: put_interned (w, w->seq->annotation_strings, field->value); return TRUE;
    case ANNOTATION_STRING: if (bytes) put_field_string (w->out, field); return bytes;
    case ANNOTATION_LEGACY_JSON: if (bytes) put_legacy_json (w->out, field); return bytes;
    /* A typed proto: its schema is not known here. */
    case ANNOTATION_PROTO_VALUE: if (bytes) g_string_append (w->out, "\"(proto)\""); return bytes;
    default: return FALSE;
    }
}

static void
put_annotation_value (Writer       *w,
                      const guint8 *data,
                      gsize         len,
                      guint         depth)
{
  StrataProto proto;
  StrataProtoField field;

  if (depth > MAX_ARGS_DEPTH)
    {
      g_string_append (w->out, "null");
      return;
    }
  strata_proto_init (&proto, data, len);
  while (strata_proto_next (&proto, &field))
    {
      if (field.number == ANNOTATION_DICT_ENTRIES || field.number == ANNOTATION_ARRAY_VALUES)
        {
          put_annotation_children (w, data, len, field.number, depth);
          return;
        }
      if (field.number == ANNOTATION_NESTED && field.wire == STRATA_PROTO_BYTES)
        {
          put_nested (w, field.bytes, field.len, depth + 1);
          return;
        }
      if (put_scalar (w, &field))
        return;
    }
  g_string_append (w->out, "null");
}

/**
 * perfetto_args_write:
 * @event: a TrackEvent's bytes
 *
 * Returns: where the event's args start in the args text, or 0 when it
 *   has none (or no more fit)
 */
guint64
perfetto_args_write (Reader       *self,
                     Sequence     *seq,
                     const guint8 *event,
                     gsize         len,
                     guint32       annotations_field)
{
  Writer w = { self, seq, self->args };
  StrataProto proto;
  StrataProtoField field;
  gboolean first = TRUE;
  guint64 source;

  strata_proto_init (&proto, event, len);
  while (strata_proto_next (&proto, &field))
    {
      if (field.number != annotations_field || field.wire != STRATA_PROTO_BYTES)
        continue;
      if (first)
        {
          if (self->args->len > MAX_ARGS_TEXT)
            {
              self->n_args_dropped++;
              return 0;
            }
          g_string_append (self->args, ",\n");
          source = self->args->len;
          g_string_append (self->args, "{\"args\":{");
        }
      else
        g_string_append_c (self->args, ',');
      first = FALSE;
      put_annotation_name (&w, field.bytes, field.len);
      g_string_append_c (self->args, ':');
      put_annotation_value (&w, field.bytes, field.len, 0);
    }
  if (first)
    return 0;
  g_string_append (self->args, "}}");
  return source;
}

/* Hands the args text to the trace. */
void
perfetto_args_finish (Reader *self)
{
  g_autoptr(GBytes) text = NULL;

  g_string_append (self->args, "]\n");
  text = g_string_free_to_bytes (g_steal_pointer (&self->args));
  strata_trace_set_args_text (self->trace, text);
  strata_trace_add_count_diagnostic (self->trace, self->n_args_dropped,
                                     /* Translators: %s is a count of events */
                                     ngettext ("%s event's arguments were left out: the trace's arguments pass 512 MB.",
                                               "%s events' arguments were left out: the trace's arguments pass 512 MB.",
                                               (gulong) MIN (self->n_args_dropped, G_MAXULONG)));
}
