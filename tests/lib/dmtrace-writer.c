/* dmtrace-writer.c: the layouts described in the format notes, written
 * the way Dalvik and ART write them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dmtrace-writer.h"

#define HEADER_LEN 32

struct _DmtraceWriter
{
  guint       version;
  guint       header_version;
  gboolean    streaming;
  guint       record_size;
  char       *clock;
  GString    *options;
  GString    *threads;
  GString    *methods;
  GString    *extra_lines;
  GByteArray *out;
  FILE       *file;
  gboolean    data_begun;
  gboolean    split;
};

static void
emit (DmtraceWriter *self,
      const void    *data,
      gsize          len)
{
  if (self->file != NULL)
    fwrite (data, 1, len, self->file);
  else
    g_byte_array_append (self->out, data, len);
}

static void
emit_u16 (DmtraceWriter *self,
          guint          value)
{
  guint8 b[2] = { value & 0xff, (value >> 8) & 0xff };

  emit (self, b, 2);
}

static void
emit_u32 (DmtraceWriter *self,
          guint32        value)
{
  guint8 b[4] = { value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, value >> 24 };

  emit (self, b, 4);
}

DmtraceWriter *
dmtrace_writer_new (guint       version,
                    const char *clock,
                    gboolean    streaming)
{
  DmtraceWriter *self = g_new0 (DmtraceWriter, 1);
  gboolean dual = clock != NULL && g_str_equal (clock, "dual");

  self->version = version;
  self->header_version = streaming ? 0xF0 | version : version;
  self->streaming = streaming;
  self->record_size = version == 1 ? 9 : version == 2 ? 10 : dual ? 14 : 10;
  self->clock = g_strdup (clock);
  self->options = g_string_new (NULL);
  self->threads = g_string_new (NULL);
  self->methods = g_string_new (NULL);
  self->extra_lines = g_string_new (NULL);
  self->out = g_byte_array_new ();
  return self;
}

DmtraceWriter *
dmtrace_writer_new_to_file (guint       version,
                            const char *clock,
                            gboolean    streaming,
                            FILE       *file)
{
  DmtraceWriter *self = dmtrace_writer_new (version, clock, streaming);

  self->file = file;
  return self;
}

void
dmtrace_writer_set_record_size (DmtraceWriter *self,
                                guint          record_size)
{
  self->record_size = record_size;
}

void
dmtrace_writer_set_header_version (DmtraceWriter *self,
                                   guint          version)
{
  self->header_version = version;
}

/* The older layout: the key goes to NAME.key, not before the data. */
void
dmtrace_writer_set_split (DmtraceWriter *self,
                          gboolean       split)
{
  self->split = split;
}

void
dmtrace_writer_add_option (DmtraceWriter *self,
                           const char    *line)
{
  g_string_append_printf (self->options, "%s\n", line);
}

void
dmtrace_writer_add_thread (DmtraceWriter *self,
                           guint          tid,
                           const char    *name)
{
  if (self->streaming && self->data_begun)
    {
      emit_u16 (self, 0);
      emit (self, "\002", 1);
      emit_u16 (self, tid);
      emit_u16 (self, strlen (name));
      emit (self, name, strlen (name));
    }
  g_string_append_printf (self->threads, "%u\t%s\n", tid, name);
}

/* @fields: "class\tname\tsignature\tsource" or any other tail of the line */
void
dmtrace_writer_add_method (DmtraceWriter *self,
                           guint32        id,
                           const char    *fields)
{
  g_autofree char *line = id == 0 ? g_strdup_printf ("0\t%s\n", fields)
                                  : g_strdup_printf ("%#x\t%s\n", id, fields);

  if (self->streaming && self->data_begun)
    {
      emit_u16 (self, 0);
      emit (self, "\001", 1);
      emit_u16 (self, strlen (line));
      emit (self, line, strlen (line));
      return;
    }
  g_string_append (self->methods, line);
}

void
dmtrace_writer_add_key_line (DmtraceWriter *self,
                             const char    *raw_line)
{
  g_string_append_printf (self->extra_lines, "%s\n", raw_line);
}

static char *
build_key (DmtraceWriter *self,
           gboolean       with_methods)
{
  GString *key = g_string_new (NULL);

  g_string_append_printf (key, "*version\n%u\n", self->version);
  if (self->clock != NULL)
    g_string_append_printf (key, "clock=%s\n", self->clock);
  g_string_append (key, self->options->str);
  g_string_append (key, "*threads\n");
  g_string_append (key, self->threads->str);
  g_string_append (key, "*methods\n");
  if (with_methods)
    g_string_append (key, self->methods->str);
  g_string_append (key, self->extra_lines->str);
  g_string_append (key, "*end\n");
  return g_string_free (key, FALSE);
}

GBytes *
dmtrace_writer_get_key (DmtraceWriter *self)
{
  char *key = build_key (self, TRUE);

  return g_bytes_new_take (key, strlen (key));
}

/* Regular files: the key, then the header. Streaming ones: the header,
 * then packets for what was declared so far. */
void
dmtrace_writer_begin_data (DmtraceWriter *self)
{
  guint8 zeros[HEADER_LEN] = { 0 };
  g_autofree char *key = NULL;

  if (!self->streaming && !self->split)
    {
      key = build_key (self, TRUE);
      emit (self, key, strlen (key));
    }

  emit (self, "SLOW", 4);
  emit_u16 (self, self->header_version);
  emit_u16 (self, HEADER_LEN);
  emit_u32 (self, 0x12345678);
  emit_u32 (self, 0);
  emit_u16 (self, self->record_size);
  emit (self, zeros, HEADER_LEN - 18);
  self->data_begun = TRUE;

  if (self->streaming)
    {
      g_auto(GStrv) threads = g_strsplit (self->threads->str, "\n", -1);
      g_auto(GStrv) methods = g_strsplit (self->methods->str, "\n", -1);

      g_string_truncate (self->threads, 0);
      for (guint i = 0; threads[i] && *threads[i]; i++)
        {
          char *tab = strchr (threads[i], '\t');

          *tab = '\0';
          dmtrace_writer_add_thread (self, atoi (threads[i]), tab + 1);
        }
      for (guint i = 0; methods[i] && *methods[i]; i++)
        {
          g_autofree char *line = g_strconcat (methods[i], "\n", NULL);

          emit_u16 (self, 0);
          emit (self, "\001", 1);
          emit_u16 (self, strlen (line));
          emit (self, line, strlen (line));
        }
    }
}

void
dmtrace_writer_record (DmtraceWriter *self,
                       guint          tid,
                       guint32        method,
                       guint          action,
                       guint32        time_a,
                       guint32        time_b)
{
  guint8 zeros[64] = { 0 };
  guint written;

  g_assert (self->data_begun);

  if (self->version == 1 && !self->streaming)
    {
      guint8 b = tid;

      emit (self, &b, 1);
      written = 1;
    }
  else
    {
      emit_u16 (self, tid);
      written = 2;
    }
  emit_u32 (self, method | action);
  emit_u32 (self, time_a);
  written += 8;
  if (self->record_size >= written + 4)
    {
      emit_u32 (self, time_b);
      written += 4;
    }
  if (self->record_size > written)
    emit (self, zeros, self->record_size - written);
}

/* @summary: for streaming files, end with the summary packet (op 3). */
GBytes *
dmtrace_writer_finish (DmtraceWriter *self,
                       gboolean       summary)
{
  if (!self->data_begun)
    dmtrace_writer_begin_data (self);

  if (self->streaming && summary)
    {
      g_autofree char *key = build_key (self, FALSE);

      emit_u16 (self, 0);
      emit (self, "\003", 1);
      emit_u32 (self, strlen (key));
      emit (self, key, strlen (key));
    }

  return g_bytes_new (self->out->data, self->out->len);
}

void
dmtrace_writer_free (DmtraceWriter *self)
{
  if (self == NULL)
    return;
  g_free (self->clock);
  g_string_free (self->options, TRUE);
  g_string_free (self->threads, TRUE);
  g_string_free (self->methods, TRUE);
  g_string_free (self->extra_lines, TRUE);
  g_byte_array_unref (self->out);
  g_free (self);
}
