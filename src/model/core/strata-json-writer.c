/* strata-json-writer.c: JSON written as it is produced
 *
 * Containers less than pretty_depth deep put each item on a line of its
 * own, indented; deeper ones are written on one line, so a list of a
 * million small objects reads as a million lines.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-json-writer.h"

#define BUFFER_SIZE (64 * 1024)

struct _StrataJsonWriter
{
  GOutputStream *stream;
  GError        *error;        /* the first write that failed */
  guint          pretty_depth;
  guint          depth;
  guint8        *has_items;    /* per open container: whether it has an item yet */
  guint          n_allocated;  /* of has_items: documents nest as deep as they need */
  gboolean       after_name;   /* a member name was written: its value comes next */
  gsize          len;
  char           buffer[BUFFER_SIZE];
};

StrataJsonWriter *
strata_json_writer_new (GOutputStream *stream,
                        guint          pretty_depth)
{
  StrataJsonWriter *self = g_new0 (StrataJsonWriter, 1);

  self->stream = g_object_ref (stream);
  self->pretty_depth = pretty_depth;
  return self;
}

/**
 * strata_json_writer_new_inside:
 * @outer: the writer of the document, at the container the items go in
 * @continues: whether items come before these
 *
 * A writer for items of @outer's current container, to be written
 * elsewhere (another thread) and spliced in with strata_json_writer_splice().
 */
StrataJsonWriter *
strata_json_writer_new_inside (GOutputStream          *stream,
                               const StrataJsonWriter *outer,
                               gboolean                continues)
{
  StrataJsonWriter *self = strata_json_writer_new (stream, outer->pretty_depth);

  g_return_val_if_fail (outer->depth > 0 && !outer->after_name, self);

  self->depth = outer->depth;
  self->n_allocated = outer->n_allocated;
  self->has_items = g_memdup2 (outer->has_items, outer->n_allocated);
  self->has_items[self->depth - 1] = continues;
  return self;
}

void
strata_json_writer_free (StrataJsonWriter *self)
{
  g_clear_object (&self->stream);
  g_clear_error (&self->error);
  g_free (self->has_items);
  g_free (self);
}

static void
flush (StrataJsonWriter *self)
{
  if (self->error == NULL && self->len > 0)
    g_output_stream_write_all (self->stream, self->buffer, self->len, NULL, NULL, &self->error);
  self->len = 0;
}

static void
put_slow (StrataJsonWriter *self,
          const char       *data,
          gsize             len)
{
  flush (self);
  if (len > BUFFER_SIZE)
    {
      if (self->error == NULL)
        g_output_stream_write_all (self->stream, data, len, NULL, NULL, &self->error);
      return;
    }
  memcpy (self->buffer, data, len);
  self->len = len;
}

static inline void
put (StrataJsonWriter *self,
     const char       *data,
     gsize             len)
{
  if (G_UNLIKELY (self->len + len > BUFFER_SIZE))
    {
      put_slow (self, data, len);
      return;
    }
  memcpy (self->buffer + self->len, data, len);
  self->len += len;
}

static inline void
put_char (StrataJsonWriter *self,
          char              c)
{
  if (G_UNLIKELY (self->len == BUFFER_SIZE))
    flush (self);
  self->buffer[self->len++] = c;
}

static void
put_newline (StrataJsonWriter *self,
             guint             depth)
{
  put_char (self, '\n');
  for (guint i = 0; i < depth; i++)
    put (self, "  ", 2);
}

/* Before any value or member name: the comma and line break it needs. */
static void
separate (StrataJsonWriter *self)
{
  if (self->after_name)
    {
      self->after_name = FALSE;
      return;
    }
  if (self->depth == 0)
    return;
  if (self->has_items[self->depth - 1])
    put_char (self, ',');
  self->has_items[self->depth - 1] = TRUE;
  if (self->depth <= self->pretty_depth)
    put_newline (self, self->depth);
}

static void
open_container (StrataJsonWriter *self,
                char              bracket)
{
  separate (self);
  put_char (self, bracket);
  if (self->depth == self->n_allocated)
    {
      self->n_allocated = MAX (64, 2 * self->n_allocated);
      self->has_items = g_realloc (self->has_items, self->n_allocated);
    }
  self->has_items[self->depth++] = FALSE;
}

static void
close_container (StrataJsonWriter *self,
                 char              bracket)
{
  g_return_if_fail (self->depth > 0);
  self->depth--;
  if (self->has_items[self->depth] && self->depth < self->pretty_depth)
    put_newline (self, self->depth);
  put_char (self, bracket);
  if (self->depth == 0)
    put_char (self, '\n');
}

void
strata_json_writer_begin_object (StrataJsonWriter *self)
{
  open_container (self, '{');
}

void
strata_json_writer_end_object (StrataJsonWriter *self)
{
  close_container (self, '}');
}

void
strata_json_writer_begin_array (StrataJsonWriter *self)
{
  open_container (self, '[');
}

void
strata_json_writer_end_array (StrataJsonWriter *self)
{
  close_container (self, ']');
}

static void
put_escape (StrataJsonWriter *self,
            guchar            c)
{
  char escape[8];

  switch (c)
    {
    case '"': put (self, "\\\"", 2); break;
    case '\\': put (self, "\\\\", 2); break;
    case '\n': put (self, "\\n", 2); break;
    case '\t': put (self, "\\t", 2); break;
    case '\r': put (self, "\\r", 2); break;
    default:
      g_snprintf (escape, sizeof escape, "\\u%04x", c);
      put (self, escape, 6);
    }
}

/* The string between quotes, escaped as JSON needs; bytes that are not
 * UTF-8 become U+FFFD so the document stays valid. One pass for plain
 * ASCII, the usual case; text with other characters is validated first. */
static void
put_escaped (StrataJsonWriter *self,
             const char       *value)
{
  g_autofree char *valid = NULL;
  const char *run = value;
  const char *p = value;
  gboolean validated = FALSE;

  put_char (self, '"');
  for (;; p++)
    {
      guchar c = *p;

      if (G_LIKELY (c >= 0x20 && c < 0x80 && c != '"' && c != '\\'))
        continue;
      if (c == '\0')
        break;
      if (c >= 0x80)
        {
          if (!validated && !g_utf8_validate (p, -1, NULL))
            {
              /* Start again on a valid copy of the rest. */
              put (self, run, p - run);
              run = p = valid = g_utf8_make_valid (p, -1);
              p--;
            }
          validated = TRUE;
          continue;
        }
      put (self, run, p - run);
      run = p + 1;
      put_escape (self, c);
    }
  put (self, run, p - run);
  put_char (self, '"');
}

void
strata_json_writer_member (StrataJsonWriter *self,
                           const char       *name)
{
  separate (self);
  put_escaped (self, name);
  put (self, ": ", self->depth <= self->pretty_depth ? 2 : 1);
  self->after_name = TRUE;
}

void
strata_json_writer_string (StrataJsonWriter *self,
                           const char       *value)
{
  if (value == NULL)
    {
      strata_json_writer_null (self);
      return;
    }
  separate (self);
  put_escaped (self, value);
}

/* Room for @len more bytes in the buffer, flushing it if need be;
 * @len is at most BUFFER_SIZE. */
static inline char *
reserve (StrataJsonWriter *self,
         gsize             len)
{
  if (G_UNLIKELY (self->len + len > BUFFER_SIZE))
    flush (self);
  return self->buffer + self->len;
}

static const char digit_pairs[] =
  "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
  "8081828384858687888990919293949596979899";

static void
put_digits (StrataJsonWriter *self,
            guint64           value,
            gboolean          negative)
{
  char digits[24];
  char *end = digits + sizeof digits;
  char *p = end;
  char *out;

  while (value >= 100)
    {
      guint pair = value % 100;

      value /= 100;
      p -= 2;
      memcpy (p, digit_pairs + 2 * pair, 2);
    }
  if (value >= 10)
    {
      p -= 2;
      memcpy (p, digit_pairs + 2 * value, 2);
    }
  else
    *--p = '0' + value;
  if (negative)
    *--p = '-';

  out = reserve (self, sizeof digits);
  for (char *q = p; q < end; q++)
    *out++ = *q;
  self->len += end - p;
}

void
strata_json_writer_int (StrataJsonWriter *self,
                        gint64            value)
{
  separate (self);
  /* Negated as unsigned, so G_MININT64 stays exact. */
  put_digits (self, value < 0 ? -(guint64) value : (guint64) value, value < 0);
}

void
strata_json_writer_uint (StrataJsonWriter *self,
                         guint64           value)
{
  separate (self);
  put_digits (self, value, FALSE);
}

void
strata_json_writer_null (StrataJsonWriter *self)
{
  separate (self);
  put (self, "null", 4);
}

void
strata_json_writer_boolean (StrataJsonWriter *self,
                            gboolean          value)
{
  separate (self);
  if (value)
    put (self, "true", 4);
  else
    put (self, "false", 5);
}

/**
 * strata_json_writer_finish:
 *
 * Writes out what is buffered.
 *
 * Returns: %FALSE if any write failed (a full disk, a closed pipe)
 */
gboolean
strata_json_writer_finish (StrataJsonWriter  *self,
                           GError           **error)
{
  flush (self);
  if (self->error == NULL)
    g_output_stream_flush (self->stream, NULL, &self->error);
  if (self->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&self->error));
      return FALSE;
    }
  return TRUE;
}

/**
 * strata_json_writer_splice:
 *
 * Writes @items, made by a writer from strata_json_writer_new_inside(),
 * as items of the current container.
 */
void
strata_json_writer_splice (StrataJsonWriter *self,
                           GBytes           *items)
{
  gsize len;
  const char *data = g_bytes_get_data (items, &len);

  g_return_if_fail (self->depth > 0);

  if (len == 0)
    return;
  while (len > 0)
    {
      gsize part = MIN (len, BUFFER_SIZE);

      put (self, data, part);
      data += part;
      len -= part;
    }
  self->has_items[self->depth - 1] = TRUE;
}
