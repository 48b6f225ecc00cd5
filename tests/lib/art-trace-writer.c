/* art-trace-writer.c: method traces in ART's format V2, as ART writes them
 *
 * Field by field after ART's runtime/trace.cc (TraceWriter): the header
 * of TraceWriter::TraceWriter, RecordThreadInfo, RecordMethodInfoV2,
 * EncodeEventBlockHeader and FlushEntriesFormatV2, and the summary of
 * CreateSummary and FinishTracing. Events are kept per thread as ART's
 * per-thread buffers keep them, and go out as a block when the thread's
 * buffer is flushed: art_trace_writer_flush() or the end. Nothing here
 * comes from Strata's reader.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "art-trace-writer.h"

/* trace.h */
enum {
  THREAD_INFO_HEADER_V2 = 0,
  METHOD_INFO_HEADER_V2 = 1,
  ENTRY_HEADER_V2 = 2,
  SUMMARY_HEADER_V2 = 3,
};
#define TRACE_HEADER_LENGTH_V2 32
#define ENTRY_HEADER_SIZE_V2 12
#define TRACE_MAGIC_VALUE 0x574f4c53u

typedef struct
{
  guint64 method_and_action;
  guint64 wall;
  guint64 cpu;
} Event;

struct _ArtTraceWriter
{
  GByteArray *out;
  gboolean    wall;
  gboolean    cpu;
  guint64     start_ns;
  guint64     last_wall;
  GHashTable *buffers;   /* tid -> GArray of Event */
};

/* Little-endian, as every number of the format. */
void
art_put_le (GByteArray *out,
            guint64     value,
            guint       n_bytes)
{
  for (guint i = 0; i < n_bytes; i++)
    {
      guint8 byte = value >> (8 * i);

      g_byte_array_append (out, &byte, 1);
    }
}

/* base/leb128.h: EncodeUnsignedLeb128, EncodeSignedLeb128 */
static void
append_uleb (GByteArray *out,
             guint64     value)
{
  do
    {
      guint8 byte = value & 0x7f;

      value >>= 7;
      if (value != 0)
        byte |= 0x80;
      g_byte_array_append (out, &byte, 1);
    }
  while (value != 0);
}

void
art_put_sleb (GByteArray *out,
             gint64      value)
{
  gboolean more = TRUE;

  while (more)
    {
      guint8 byte = value & 0x7f;

      value >>= 7;
      more = !((value == 0 && !(byte & 0x40)) || (value == -1 && (byte & 0x40)));
      if (more)
        byte |= 0x80;
      g_byte_array_append (out, &byte, 1);
    }
}

/**
 * art_trace_writer_new:
 * @clock: "wall", "thread-cpu" or "dual"
 * @start_ns: CLOCK_MONOTONIC when tracing began
 */
ArtTraceWriter *
art_trace_writer_new (const char *clock,
                      gboolean    streaming,
                      guint64     start_ns)
{
  ArtTraceWriter *self = g_new0 (ArtTraceWriter, 1);
  guint version;

  self->out = g_byte_array_new ();
  self->wall = g_str_equal (clock, "wall") || g_str_equal (clock, "dual");
  self->cpu = g_str_equal (clock, "thread-cpu") || g_str_equal (clock, "dual");
  self->start_ns = start_ns;
  self->buffers = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  /* GetTraceVersion: kTraceVersionDualClockV2 or kTraceVersionSingleClockV2 */
  version = (self->wall && self->cpu) ? 5 : 4;
  if (streaming)
    version |= 0xF0;
  art_put_le (self->out, TRACE_MAGIC_VALUE, 4);
  art_put_le (self->out, version, 2);
  art_put_le (self->out, start_ns, 8);
  g_byte_array_set_size (self->out, TRACE_HEADER_LENGTH_V2);
  memset (self->out->data + 14, 0, TRACE_HEADER_LENGTH_V2 - 14);
  return self;
}

void
art_trace_writer_thread (ArtTraceWriter *self,
                         guint32         tid,
                         const char     *name)
{
  g_byte_array_append (self->out, (const guint8 *) "\0", 1);
  art_put_le (self->out, tid, 4);
  art_put_le (self->out, strlen (name), 2);
  g_byte_array_append (self->out, (const guint8 *) name, strlen (name));
}

void
art_trace_writer_method (ArtTraceWriter *self,
                         guint64         method,
                         const char     *klass,
                         const char     *name,
                         const char     *signature,
                         const char     *source)
{
  g_autofree char *line = g_strdup_printf ("%s\t%s\t%s\t%s\n", klass, name, signature, source);
  guint8 type = METHOD_INFO_HEADER_V2;

  g_byte_array_append (self->out, &type, 1);
  art_put_le (self->out, method, 8);
  art_put_le (self->out, strlen (line), 2);
  g_byte_array_append (self->out, (const guint8 *) line, strlen (line));
}

/* As LogMethodTraceEvent: into the thread's buffer, the method's pointer
 * with the action in its low bits. */
void
art_trace_writer_event (ArtTraceWriter *self,
                        guint32         tid,
                        guint64         method,
                        guint           action,
                        guint64         wall_ns,
                        guint64         cpu_ns)
{
  GArray *buffer = g_hash_table_lookup (self->buffers, GUINT_TO_POINTER (tid));
  Event event = { method | action, wall_ns, cpu_ns };

  if (buffer == NULL)
    {
      buffer = g_array_new (FALSE, FALSE, sizeof (Event));
      g_hash_table_insert (self->buffers, GUINT_TO_POINTER (tid), buffer);
    }
  g_array_append_val (buffer, event);
  self->last_wall = MAX (self->last_wall, wall_ns);
}

/* FlushEntriesFormatV2 for one thread: a block header, then each record
 * as deltas from the one before, starting from 0. */
void
art_trace_writer_flush (ArtTraceWriter *self,
                        guint32         tid)
{
  GArray *buffer = g_hash_table_lookup (self->buffers, GUINT_TO_POINTER (tid));
  g_autoptr(GByteArray) payload = g_byte_array_new ();
  guint64 prev_method = 0, prev_wall = 0, prev_cpu = 0;
  guint8 type = ENTRY_HEADER_V2;

  if (buffer == NULL || buffer->len == 0)
    return;
  for (guint i = 0; i < buffer->len; i++)
    {
      const Event *event = &g_array_index (buffer, Event, i);

      art_put_sleb (payload, (gint64) (event->method_and_action - prev_method));
      prev_method = event->method_and_action;
      if (self->wall)
        {
          append_uleb (payload, event->wall - prev_wall);
          prev_wall = event->wall;
        }
      if (self->cpu)
        {
          append_uleb (payload, event->cpu - prev_cpu);
          prev_cpu = event->cpu;
        }
    }
  /* EncodeEventBlockHeader */
  g_byte_array_append (self->out, &type, 1);
  art_put_le (self->out, tid, 4);
  art_put_le (self->out, buffer->len, 3);
  art_put_le (self->out, payload->len, 4);
  g_byte_array_append (self->out, payload->data, payload->len);
  g_array_set_size (buffer, 0);
}

/* FinishTracing: every thread's buffer, then the summary packet. */
static int
compare_tids (gconstpointer a,
              gconstpointer b)
{
  guint x = GPOINTER_TO_UINT (a), y = GPOINTER_TO_UINT (b);

  return x < y ? -1 : x > y;
}

GBytes *
art_trace_writer_finish (ArtTraceWriter *self)
{
  g_autoptr(GList) tids = g_list_sort (g_hash_table_get_keys (self->buffers), compare_tids);
  g_autofree char *summary = NULL;
  guint8 type = SUMMARY_HEADER_V2;

  for (GList *l = tids; l != NULL; l = l->next)
    art_trace_writer_flush (self, GPOINTER_TO_UINT (l->data));
  /* CreateSummary */
  summary = g_strdup_printf ("*version\n%d\ndata-file-overflow=false\nclock=%s\nelapsed-time-nsec=%" G_GUINT64_FORMAT "\n"
                             "clock-call-overhead-nsec=150\nvm=art\npid=4242\n*end\n",
                             (self->wall && self->cpu) ? 5 : 4,
                             self->wall && self->cpu ? "dual" : self->cpu ? "thread-cpu" : "wall", self->last_wall);
  g_byte_array_append (self->out, &type, 1);
  art_put_le (self->out, strlen (summary), 2);
  g_byte_array_append (self->out, (const guint8 *) summary, strlen (summary));
  return g_byte_array_free_to_bytes (g_steal_pointer (&self->out));
}

void
art_trace_writer_free (ArtTraceWriter *self)
{
  if (self->out != NULL)
    g_byte_array_unref (self->out);
  g_hash_table_unref (self->buffers);
  g_free (self);
}

/* ---- Long-running methods (runtime/trace_profile.cc) ---- */

/* DumpLongRunningMethodBuffer: per event an SLEB128 delta of
 * (time << 1 | is_exit), and on entries one of the method pointer, both
 * from 0; the 12-byte header after, with the payload's size. */
void
art_lrm_write_block (GByteArray    *out,
                     guint32        tid,
                     const guint64 *times,
                     const guint64 *methods,
                     guint          n_events)
{
  g_autoptr(GByteArray) payload = g_byte_array_new ();
  guint64 prev_time_action = 0, prev_method = 0;
  guint8 type = ENTRY_HEADER_V2;

  for (guint i = 0; i < n_events; i++)
    {
      guint64 time_action = times[i] << 1 | (methods[i] == 0);

      art_put_sleb (payload, (gint64) (time_action - prev_time_action));
      prev_time_action = time_action;
      if (methods[i] != 0)
        {
          art_put_sleb (payload, (gint64) (methods[i] - prev_method));
          prev_method = methods[i];
        }
    }
  g_byte_array_append (out, &type, 1);
  art_put_le (out, tid, 4);
  art_put_le (out, n_events, 3);
  art_put_le (out, payload->len, 4);
  g_byte_array_append (out, payload->data, payload->len);
}

/* DumpThreadMethodInfo's method part. */
void
art_lrm_write_method (GByteArray *out,
                      guint64     method,
                      const char *klass,
                      const char *name,
                      const char *signature,
                      const char *source)
{
  g_autofree char *line = g_strdup_printf ("%s\t%s\t%s\t%s\n", klass, name, signature, source);
  guint8 type = METHOD_INFO_HEADER_V2;

  g_byte_array_append (out, &type, 1);
  art_put_le (out, method, 8);
  art_put_le (out, strlen (line), 2);
  g_byte_array_append (out, (const guint8 *) line, strlen (line));
}
