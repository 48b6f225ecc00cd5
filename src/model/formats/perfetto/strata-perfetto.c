/* strata-perfetto.c: Perfetto protobuf traces, their track events
 *
 * A trace is a stream of TracePacket messages (field 1 of Trace). This
 * reader follows Perfetto's protos (protos/perfetto/trace/): per
 * trusted_packet_sequence_id, interned event names and categories and
 * the packet defaults, cleared with the sequence's incremental state;
 * clock snapshots, including the incremental clocks Chrome writes
 * timestamps on (deltas in a unit, from the snapshot's value), every time
 * put on the BOOTTIME clock; track descriptors naming processes and
 * threads (their tracks become threads; other tracks, rows of their own
 * under their process); track events: slices begun and ended on a track,
 * instants, counters (int and double), and Chrome's legacy phases B, E,
 * X and I; packets compressed with deflate. What else a trace holds
 * (ftrace, perf samples, heap graphs, …) is counted by kind and named in
 * the diagnostics.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <gio/gio.h>
#include <glib/gi18n.h>

#include "strata-error.h"
#include "strata-format-private.h"
#include "strata-perfetto-private.h"

/* TracePacket */
enum {
  PACKET_CLOCK_SNAPSHOT = 6,
  PACKET_TIMESTAMP = 8,
  PACKET_SEQUENCE_ID = 10,
  PACKET_TRACK_EVENT = 11,
  PACKET_INTERNED_DATA = 12,
  PACKET_SEQUENCE_FLAGS = 13,
  PACKET_INCREMENTAL_STATE_CLEARED = 41,
  PACKET_PROCESS_DESCRIPTOR = 43,
  PACKET_THREAD_DESCRIPTOR = 44,
  PACKET_COMPRESSED = 50,
  PACKET_TIMESTAMP_CLOCK_ID = 58,
  PACKET_DEFAULTS = 59,
  PACKET_TRACK_DESCRIPTOR = 60,
};

/* TrackEvent */
enum {
  EVENT_CATEGORY_IIDS = 3,
  EVENT_LEGACY = 6,
  EVENT_TYPE = 9,
  EVENT_NAME_IID = 10,
  EVENT_TRACK_UUID = 11,
  EVENT_CATEGORIES = 22,
  EVENT_NAME = 23,
  EVENT_COUNTER_VALUE = 30,
  EVENT_DOUBLE_COUNTER_VALUE = 44,
};

enum {
  TYPE_UNSPECIFIED,
  TYPE_SLICE_BEGIN,
  TYPE_SLICE_END,
  TYPE_INSTANT,
  TYPE_COUNTER,
};

typedef struct
{
  guint32 method;
  guint32 first_child;
  gint64  start;
} Open;

typedef struct
{
  GPtrArray *depths;          /* GArray of StrataSpan */
  GArray    *open;            /* Open */
  gint64     last;            /* times hold here where they would run backwards */
  guint64    n_backwards;
} Calls;

/* ---- Recognising ---- */

/* The first packet must read whole as a message of fields. */
StrataSniff
strata_perfetto_sniff (const guint8  *data,
                       gsize          len,
                       gboolean       complete,
                       GError       **error)
{
  StrataProto trace, packet;
  StrataProtoField field;
  guint n = 0;

  if (len < 2 || data[0] != 0x0A)
    return STRATA_SNIFF_NO;
  strata_proto_init (&trace, data, len);
  if (!strata_proto_next (&trace, &field) || field.number != 1 || field.wire != STRATA_PROTO_BYTES || field.len == 0)
    return STRATA_SNIFF_NO;
  strata_proto_init (&packet, field.bytes, field.len);
  while (strata_proto_next (&packet, &field))
    {
      if (field.number == 0 || field.number > 2000)
        return STRATA_SNIFF_NO;
      n++;
    }
  return !packet.bad && n > 0 ? STRATA_SNIFF_YES : STRATA_SNIFF_NO;
}

/* ---- Calls ---- */

static Calls *
calls_of (Reader *self,
          guint   thread)
{
  while (self->calls->len <= thread)
    g_ptr_array_add (self->calls, NULL);
  if (self->calls->pdata[thread] == NULL)
    {
      Calls *calls = g_new0 (Calls, 1);

      calls->depths = g_ptr_array_new ();
      calls->open = g_array_new (FALSE, FALSE, sizeof (Open));
      self->calls->pdata[thread] = calls;
    }
  return self->calls->pdata[thread];
}

/* Times of a track that would run backwards (events of it from two
 * sequences) hold at the last: the calls stay nested, as the table must. */
static gint64
hold_time (Calls  *calls,
           gint64  at)
{
  if (at < calls->last)
    {
      calls->n_backwards++;
      return calls->last;
    }
  return calls->last = at;
}

static void
begin_call (Calls   *calls,
            guint32  method,
            gint64   at)
{
  guint depth = calls->open->len;
  Open call = { method, 0, hold_time (calls, at) };

  if (depth >= MAX_STACK)
    return;
  while (calls->depths->len < depth + 2)
    g_ptr_array_add (calls->depths, g_array_new (FALSE, FALSE, sizeof (StrataSpan)));
  call.first_child = ((GArray *) g_ptr_array_index (calls->depths, depth + 1))->len;
  g_array_append_val (calls->open, call);
}

static gboolean
end_call (Calls  *calls,
          gint64  at)
{
  Open *top;
  guint depth;
  StrataSpan span;

  if (calls->open->len == 0)
    return FALSE;
  at = hold_time (calls, at);
  depth = calls->open->len - 1;
  top = &g_array_index (calls->open, Open, depth);
  span = (StrataSpan) { top->start, MAX (at, top->start), top->method, top->first_child };
  g_array_append_val (g_ptr_array_index (calls->depths, depth), span);
  g_array_set_size (calls->open, depth);
  return TRUE;
}

static guint32
method_of (Reader  *self,
           guint32  name,
           guint32  category)
{
  guint64 key = (guint64) name << 32 | category;
  gpointer found = g_hash_table_lookup (self->methods, &key);
  StrataMethod method = { .line = -1 };
  guint32 index;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  method.raw_id = key;
  method.name = name;
  method.display_name = name != 0 ? name : strata_string_pool_intern (strata_trace_get_pool (self->trace), _("(unnamed)"));
  method.class_name = category;
  index = strata_trace_add_method (self->trace, &method);
  g_hash_table_insert (self->methods, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (index + 1));
  return index;
}

/* ---- Track events ---- */

typedef struct
{
  guint    type;
  guint32  name;
  guint32  category;
  guint64  track;
  gboolean has_track;
  gboolean has_value;
  double   value;
  char     legacy_phase;
} TrackEvent;

static void
read_legacy (TrackEvent   *event,
             Sequence     *seq,
             const guint8 *data,
             gsize         len)
{
  StrataProto proto;
  StrataProtoField field;

  strata_proto_init (&proto, data, len);
  while (strata_proto_next (&proto, &field))
    if (field.number == 1 && field.wire == STRATA_PROTO_VARINT)
      event->name = GPOINTER_TO_UINT (g_hash_table_lookup (seq->names, GSIZE_TO_POINTER (field.value)));
    else if (field.number == 2 && field.wire == STRATA_PROTO_VARINT)
      event->legacy_phase = (char) field.value;
}

static void
read_track_event (Reader       *self,
                  Sequence     *seq,
                  const guint8 *data,
                  gsize         len,
                  TrackEvent   *event)
{
  StrataProto proto;
  StrataProtoField field;
  StrataStringPool *pool = strata_trace_get_pool (self->trace);

  strata_proto_init (&proto, data, len);
  while (strata_proto_next (&proto, &field))
    switch (field.number)
      {
      case EVENT_TYPE: event->type = (guint) field.value; break;
      case EVENT_NAME_IID:
        event->name = GPOINTER_TO_UINT (g_hash_table_lookup (seq->names, GSIZE_TO_POINTER (field.value)));
        break;
      case EVENT_NAME:
        if (field.wire == STRATA_PROTO_BYTES)
          {
            g_autofree char *name = perfetto_proto_string (&field);

            event->name = strata_string_pool_intern (pool, name);
          }
        break;
      case EVENT_CATEGORY_IIDS:
        if (field.wire == STRATA_PROTO_VARINT && event->category == 0)
          event->category = GPOINTER_TO_UINT (g_hash_table_lookup (seq->categories, GSIZE_TO_POINTER (field.value)));
        break;
      case EVENT_CATEGORIES:
        if (field.wire == STRATA_PROTO_BYTES && event->category == 0)
          {
            g_autofree char *category = perfetto_proto_string (&field);

            event->category = strata_string_pool_intern (pool, category);
          }
        break;
      case EVENT_TRACK_UUID: event->track = field.value; event->has_track = TRUE; break;
      case EVENT_COUNTER_VALUE: event->value = (double) (gint64) field.value; event->has_value = TRUE; break;
      case EVENT_DOUBLE_COUNTER_VALUE:
        if (field.wire == STRATA_PROTO_FIXED64)
          {
            memcpy (&event->value, &field.value, sizeof event->value);
            event->has_value = TRUE;
          }
        break;
      case EVENT_LEGACY:
        if (field.wire == STRATA_PROTO_BYTES)
          read_legacy (event, seq, field.bytes, field.len);
        break;
      default: break;
      }
}

static void
add_instant (Reader     *self,
             TrackEvent *event,
             guint       thread,
             gint64      time)
{
  StrataEvent instant = { time, time, event->name, event->category, 0,
                          strata_trace_get_thread (self->trace, thread)->process, thread, 0, 'i', 't', 0 };

  g_array_append_val (self->events, instant);
}

static void
add_counter_value (Reader     *self,
                   TrackEvent *event,
                   Track      *track,
                   gint64      time)
{
  StrataCounterBuilder *builder = g_hash_table_lookup (self->counters, &track->uuid);

  if (builder == NULL)
    {
      StrataStringPool *pool = strata_trace_get_pool (self->trace);
      guint32 name = strata_string_pool_intern (pool, track->name != NULL ? track->name : _("Counter"));

      builder = strata_counter_builder_new (name, 0, 0, perfetto_process_index (self, perfetto_track_pid (self, track), NULL));
      g_hash_table_insert (self->counters, g_memdup2 (&track->uuid, sizeof track->uuid), builder);
    }
  strata_counter_builder_add (builder, time, strata_string_pool_intern (strata_trace_get_pool (self->trace), "value"), event->value);
  strata_counter_builder_end_sample (builder);
}

static void
take_track_event (Reader       *self,
                  Sequence     *seq,
                  const guint8 *data,
                  gsize         len,
                  gint64        time)
{
  TrackEvent event = { 0 };
  Track *track;
  guint thread;

  read_track_event (self, seq, data, len, &event);
  if (!event.has_track && seq->default_track == 0 && seq->tid == 0)
    {
      self->n_no_track++;
      return;
    }
  if (event.has_track || seq->default_track != 0)
    track = perfetto_track_of (self, event.has_track ? event.track : seq->default_track);
  else
    {
      /* A legacy ThreadDescriptor: the sequence's thread. */
      guint64 uuid = G_GUINT64_CONSTANT (0x8000000000000000) | (guint64) seq->tid;

      track = perfetto_track_of (self, uuid);
      track->is_thread = TRUE;
      track->pid = seq->pid;
      track->tid = seq->tid;
    }
  if (event.type == TYPE_COUNTER || (track->is_counter && event.has_value))
    {
      add_counter_value (self, &event, track, time);
      return;
    }
  thread = perfetto_track_thread (self, track);
  if (event.type == TYPE_UNSPECIFIED)
    switch (event.legacy_phase)
      {
      case 'B': event.type = TYPE_SLICE_BEGIN; break;
      case 'E': event.type = TYPE_SLICE_END; break;
      case 'I': case 'i': case 'n': event.type = TYPE_INSTANT; break;
      default:
        /* X comes after the calls it holds: not laid out yet. */
        self->n_unknown_legacy++;
        return;
      }
  if (event.type == TYPE_SLICE_BEGIN)
    begin_call (calls_of (self, thread), method_of (self, event.name, event.category), time);
  else if (event.type == TYPE_SLICE_END)
    self->n_unmatched_ends += !end_call (calls_of (self, thread), time);
  else if (event.type == TYPE_INSTANT)
    add_instant (self, &event, thread, time);
}

/* ---- Packets ---- */

static void read_trace (Reader       *self,
                        const guint8 *data,
                        gsize         len,
                        guint         nesting);

/* compressed_packets: a Trace message deflated (zlib). */
static void
read_compressed (Reader       *self,
                 const guint8 *data,
                 gsize         len,
                 guint         nesting)
{
  g_autoptr(GZlibDecompressor) inflater = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_ZLIB);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  gsize in_pos = 0;

  for (;;)
    {
      guint8 buffer[65536];
      gsize read = 0, written = 0;
      GConverterResult result = g_converter_convert (G_CONVERTER (inflater), data + in_pos, len - in_pos,
                                                     buffer, sizeof buffer, G_CONVERTER_INPUT_AT_END,
                                                     &read, &written, NULL);

      in_pos += read;
      g_byte_array_append (out, buffer, written);
      if (result == G_CONVERTER_FINISHED)
        break;
      if (result == G_CONVERTER_ERROR || out->len > MAX_INFLATED || (read == 0 && written == 0))
        {
          self->n_bad_packets++;
          break;
        }
    }
  if (nesting < MAX_NESTING)
    read_trace (self, out->data, out->len, nesting + 1);
}

static void
count_unread (Reader  *self,
              guint32  number)
{
  gpointer n = g_hash_table_lookup (self->unread, GUINT_TO_POINTER (number));

  g_hash_table_insert (self->unread, GUINT_TO_POINTER (number), GSIZE_TO_POINTER (GPOINTER_TO_SIZE (n) + 1));
}

typedef struct
{
  guint64       timestamp;
  gboolean      has_timestamp;
  guint32       clock_id;
  guint32       sequence;
  guint64       flags;
  gboolean      cleared;
  StrataProtoField interned, event, defaults, snapshot, thread, process, track;
} Packet;

static void
read_packet (Reader       *self,
             const guint8 *data,
             gsize         len,
             guint         nesting)
{
  StrataProto proto;
  StrataProtoField field;
  Packet packet = { 0 };
  Sequence *seq;

  strata_proto_init (&proto, data, len);
  while (strata_proto_next (&proto, &field))
    switch (field.number)
      {
      case PACKET_TIMESTAMP: packet.timestamp = field.value; packet.has_timestamp = TRUE; break;
      case PACKET_TIMESTAMP_CLOCK_ID: packet.clock_id = (guint32) field.value; break;
      case PACKET_SEQUENCE_ID: packet.sequence = (guint32) field.value; break;
      case PACKET_SEQUENCE_FLAGS: packet.flags = field.value; break;
      case PACKET_INCREMENTAL_STATE_CLEARED: packet.cleared = field.value != 0; break;
      case PACKET_INTERNED_DATA: packet.interned = field; break;
      case PACKET_TRACK_EVENT: packet.event = field; break;
      case PACKET_DEFAULTS: packet.defaults = field; break;
      case PACKET_CLOCK_SNAPSHOT: packet.snapshot = field; break;
      case PACKET_THREAD_DESCRIPTOR: packet.thread = field; break;
      case PACKET_PROCESS_DESCRIPTOR: packet.process = field; break;
      case PACKET_TRACK_DESCRIPTOR: packet.track = field; break;
      case PACKET_COMPRESSED:
        if (field.wire == STRATA_PROTO_BYTES)
          read_compressed (self, field.bytes, field.len, nesting);
        break;
      default:
        /* The packet's content, as opposed to its bookkeeping. */
        if (field.wire == STRATA_PROTO_BYTES)
          count_unread (self, field.number);
        break;
      }
  if (proto.bad)
    {
      self->n_bad_packets++;
      return;
    }
  self->n_packets++;
  seq = perfetto_sequence_of (self, packet.sequence);
  if (packet.cleared || (packet.flags & 1))
    perfetto_sequence_clear_incremental (seq);
  if (packet.defaults.bytes != NULL)
    perfetto_read_defaults (seq, packet.defaults.bytes, packet.defaults.len);
  if (packet.interned.bytes != NULL)
    perfetto_read_interned (self, seq, packet.interned.bytes, packet.interned.len);
  if (packet.snapshot.bytes != NULL)
    perfetto_read_clock_snapshot (self, seq, packet.snapshot.bytes, packet.snapshot.len);
  if (packet.process.bytes != NULL)
    perfetto_read_process_descriptor (self, packet.process.bytes, packet.process.len, NULL);
  if (packet.thread.bytes != NULL)
    perfetto_read_thread_descriptor (self, packet.thread.bytes, packet.thread.len, &seq->pid, &seq->tid);
  if (packet.track.bytes != NULL)
    perfetto_read_track_descriptor (self, packet.track.bytes, packet.track.len);
  /* Every timestamp moves an incremental clock, whatever the packet. */
  if (packet.has_timestamp)
    {
      gint64 time = perfetto_packet_time (self, seq, packet.clock_id, packet.timestamp);

      /* Within 19.5 hours of the first time: sums of durations stay in
       * 64 bits, and no trace runs longer. */
      if (!self->has_first_time)
        self->first_time = time, self->has_first_time = TRUE;
      if (time < self->first_time - MAX_SPAN || time > self->first_time + MAX_SPAN)
        {
          time = CLAMP (time, self->first_time - MAX_SPAN, self->first_time + MAX_SPAN);
          self->n_far_times++;
        }
      if (packet.event.bytes != NULL)
        take_track_event (self, seq, packet.event.bytes, packet.event.len, time);
    }
}

/* Every packet of a Trace message; a cut one ends the reading. */
static void
read_trace (Reader       *self,
            const guint8 *data,
            gsize         len,
            guint         nesting)
{
  StrataProto proto;
  StrataProtoField field;

  strata_proto_init (&proto, data, len);
  while (strata_proto_next (&proto, &field))
    {
      if (field.number == 1 && field.wire == STRATA_PROTO_BYTES)
        read_packet (self, field.bytes, field.len, nesting);
      if (nesting == 0 && (self->n_packets & 0xFFFF) == 0 &&
          !strata_load_job_update (self->job, 0.9 * (proto.p - data) / MAX (len, 1), _("Reading packets…"), NULL))
        return;
    }
  if (proto.bad && nesting == 0)
    self->cut = TRUE;
}

/* ---- The trace ---- */

static void
finish_calls (Reader *self,
              guint   thread,
              Calls  *calls)
{
  StrataThread *info = strata_trace_peek_thread (self->trace, thread);
  guint n_depths;
  g_autofree guint32 *counts = NULL;
  g_autofree StrataSpan **spans = NULL;

  /* Slices still open at the end end with the thread's last event. */
  while (calls->open->len > 0)
    end_call (calls, calls->last);
  n_depths = calls->depths->len;
  while (n_depths > 0 && ((GArray *) g_ptr_array_index (calls->depths, n_depths - 1))->len == 0)
    n_depths--;
  if (n_depths > 0)
    {
      counts = g_new (guint32, n_depths);
      spans = g_new (StrataSpan *, n_depths);
      for (guint d = 0; d < n_depths; d++)
        {
          GArray *depth = g_ptr_array_index (calls->depths, d);

          counts[d] = depth->len;
          spans[d] = (StrataSpan *) g_array_free (depth, FALSE);
          calls->depths->pdata[d] = NULL;
          strata_trace_adopt_block (self->trace, spans[d]);
        }
      info->spans = strata_span_table_new_by_depth (1, n_depths, counts, spans, NULL, NULL);
      info->first_time[0] = spans[0][0].start;
      info->last_time[0] = spans[0][counts[0] - 1].end;
    }
  for (guint d = 0; d < calls->depths->len; d++)
    if (calls->depths->pdata[d] != NULL)
      g_array_unref (calls->depths->pdata[d]);
  g_ptr_array_unref (calls->depths);
  g_array_unref (calls->open);
}

static int
compare_events (gconstpointer a,
                gconstpointer b)
{
  const StrataEvent *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

/* TracePacket fields a reader of track events leaves, by name. */
static const char *
packet_field_name (guint32 number)
{
  static const struct { guint32 number; const char *name; } names[] = {
    { 1, "ftrace_events" }, { 2, "process_tree" }, { 5, "inode_file_map" }, { 9, "process_stats" },
    { 33, "trace_config" }, { 34, "ftrace_stats" }, { 35, "trace_stats" }, { 36, "synchronization_marker" },
    { 45, "system_info" }, { 48, "chrome_benchmark_metadata" }, { 49, "chrome_events" }, { 52, "trigger" },
    { 56, "heap_graph" }, { 60, "track_descriptor" }, { 66, "perf_sample" }, { 67, "profile_packet" },
    { 68, "streaming_profile_packet" }, { 69, "memory_tracker_snapshot" }, { 72, "frame_timeline_event" },
    { 75, "android_log" }, { 84, "chrome_metadata" }, { 89, "trace_uuid" }, { 91, "service_event" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (names[i].number == number)
      return names[i].name;
  return NULL;
}

static void
report (Reader *self)
{
  g_autoptr(GString) unread = g_string_new (NULL);
  GHashTableIter iter;
  gpointer number, count;

  g_hash_table_iter_init (&iter, self->unread);
  while (g_hash_table_iter_next (&iter, &number, &count))
    {
      const char *name = packet_field_name (GPOINTER_TO_UINT (number));
      g_autofree char *n = g_strdup_printf ("%'" G_GSIZE_FORMAT, GPOINTER_TO_SIZE (count));

      if (unread->len > 0)
        g_string_append (unread, ", ");
      if (name != NULL)
        g_string_append_printf (unread, "%s × %s", n, name);
      else
        g_string_append_printf (unread, "%s × field %u", n, GPOINTER_TO_UINT (number));
    }
  if (unread->len > 0)
    {
      /* Translators: %s lists kinds of packets with their counts, as "12 × ftrace_events" */
      g_autofree char *note = g_strdup_printf (_("Packets of kinds Strata does not show yet were left out: %s."), unread->str);

      strata_trace_add_note (self->trace, note);
    }
  strata_trace_add_count_diagnostic (self->trace, self->n_unmatched_ends,
                                     /* Translators: %s is a count of events */
                                     ngettext ("%s slice end had no open slice on its track and was left out.",
                                               "%s slice ends had no open slice on their tracks and were left out.",
                                               (gulong) MIN (self->n_unmatched_ends, G_MAXULONG)));
  strata_trace_add_count_diagnostic (self->trace, self->n_no_track,
                                     ngettext ("%s track event named no track and was left out.",
                                               "%s track events named no track and were left out.",
                                               (gulong) MIN (self->n_no_track, G_MAXULONG)));
  strata_trace_add_count_note (self->trace, self->n_unknown_legacy,
                               ngettext ("%s legacy event of a phase Strata does not read yet (complete, async or flow) was left out.",
                                         "%s legacy events of phases Strata does not read yet (complete, async or flow) were left out.",
                                         (gulong) MIN (self->n_unknown_legacy, G_MAXULONG)));
  strata_trace_add_count_diagnostic (self->trace, self->n_bad_packets,
                                     ngettext ("%s packet did not decode and was left out.",
                                               "%s packets did not decode and were left out.",
                                               (gulong) MIN (self->n_bad_packets, G_MAXULONG)));
  strata_trace_add_count_diagnostic (self->trace, self->n_far_times,
                                     ngettext ("%s time lay more than 19 hours from the trace's first and was held there.",
                                               "%s times lay more than 19 hours from the trace's first and were held there.",
                                               (gulong) MIN (self->n_far_times, G_MAXULONG)));
  if (self->cut)
    strata_trace_add_diagnostic (self->trace, _("The trace is cut inside a packet; the packets before it are shown."));
}

static void
finish (Reader *self)
{
  GHashTableIter iter;
  gpointer key, builder;
  guint64 n_backwards = 0;

  for (guint t = 0; t < self->calls->len; t++)
    if (self->calls->pdata[t] != NULL)
      {
        Calls *calls = self->calls->pdata[t];

        n_backwards += calls->n_backwards;
        finish_calls (self, t, calls);
        g_free (calls);
        self->calls->pdata[t] = NULL;
      }
  strata_trace_add_count_diagnostic (self->trace, n_backwards,
                                     ngettext ("%s event of a track came before the one written ahead of it and was held at its time.",
                                               "%s events of tracks came before those written ahead of them and were held at their times.",
                                               (gulong) MIN (n_backwards, G_MAXULONG)));
  if (self->events->len > 1)
    g_array_sort (self->events, compare_events);
  strata_trace_take_events (self->trace, g_steal_pointer (&self->events));
  g_hash_table_iter_init (&iter, self->counters);
  while (g_hash_table_iter_next (&iter, &key, &builder))
    {
      strata_trace_add_counter (self->trace, strata_counter_builder_finish (builder));
      g_hash_table_iter_steal (&iter);
      g_free (key);
    }
}

static void
reader_clear (Reader *self)
{
  g_hash_table_unref (self->sequences);
  g_hash_table_unref (self->tracks);
  g_hash_table_unref (self->processes);
  g_hash_table_unref (self->threads);
  for (guint t = 0; t < self->calls->len; t++)
    if (self->calls->pdata[t] != NULL)
      {
        Calls *calls = self->calls->pdata[t];

        for (guint d = 0; d < calls->depths->len; d++)
          if (calls->depths->pdata[d] != NULL)
            g_array_unref (calls->depths->pdata[d]);
        g_ptr_array_unref (calls->depths);
        g_array_unref (calls->open);
        g_free (calls);
      }
  g_ptr_array_unref (self->calls);
  if (self->events != NULL)
    g_array_unref (self->events);
  g_hash_table_unref (self->counters);
  g_hash_table_unref (self->methods);
  g_hash_table_unref (self->unread);
}

/**
 * strata_perfetto_load:
 *
 * Reads a Perfetto protobuf trace's track events.
 */
StrataTrace *
strata_perfetto_load (StrataLoadJob  *job,
                      GError        **error)
{
  g_autoptr(StrataTrace) trace = strata_trace_new (STRATA_FORMAT_PERFETTO);
  StrataClockKind wall = STRATA_CLOCK_WALL;
  Reader self = {
    .trace = trace, .job = job,
    .sequences = g_hash_table_new_full (NULL, NULL, NULL, perfetto_sequence_free),
    .tracks = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, perfetto_track_free),
    .processes = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL),
    .threads = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL),
    .calls = g_ptr_array_new (),
    .events = g_array_new (FALSE, FALSE, sizeof (StrataEvent)),
    .counters = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) strata_counter_builder_free),
    .methods = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL),
    .unread = g_hash_table_new (NULL, NULL),
  };

  strata_trace_set_clocks (trace, 1, &wall);
  read_trace (&self, g_bytes_get_data (job->bytes, NULL), g_bytes_get_size (job->bytes), 0);
  if (!strata_load_job_update (job, 0.92, _("Reading packets…"), error))
    {
      reader_clear (&self);
      return NULL;
    }
  if (self.n_packets == 0)
    {
      reader_clear (&self);
      g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                           _("The Perfetto trace holds no packet that could be read."));
      return NULL;
    }
  finish (&self);
  report (&self);
  reader_clear (&self);
  strata_trace_finish (trace);
  return g_steal_pointer (&trace);
}
