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
#include "strata-memory.h"
#include "strata-perfetto-private.h"
#include "strata-id-map.h"

#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

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
  PACKET_ZSTD_COMPRESSED = 133,
};

/* ---- Recognising ---- */

/* Text that starts with a line break and spaces (a licence, an indented
 * note) reads as a packet of small fields. A trace's first bytes never
 * are all text: field keys, lengths and varints hold control bytes and
 * bytes past 0x7F. */
static gboolean
looks_like_text (const guint8 *data,
                 gsize         len)
{
  for (gsize i = 0; i < MIN (len, 256); i++)
    if ((data[i] < 0x20 && data[i] != '\n' && data[i] != '\r' && data[i] != '\t') || data[i] > 0x7E)
      return FALSE;
  return TRUE;
}

/* The first packet must read whole as a message of fields, and not be
 * text. */
StrataSniff
strata_perfetto_sniff (const guint8  *data,
                       gsize          len,
                       gboolean       complete,
                       GError       **error)
{
  StrataProto trace, packet;
  StrataProtoField field;
  guint n = 0;

  if (len < 2 || data[0] != 0x0A || looks_like_text (data, len))
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

/* ---- Track events ---- */

/* Counter sums and thread times of a hostile file stay within ±2^62:
 * they are differences of times later. */
#define HELD_LIMIT ((gint64) 1 << 62)

/* Progress, Cancel and the release of read pages come every so many
 * packets, or bytes of the file: a packet may hold a compressed batch of
 * thousands, or a few huge ones the whole file. */
#define CHECK_PACKETS 65536
#define CHECK_BYTES   ((gsize) 4 << 20)

static gint64
add_held (gint64 a,
          gint64 b)
{
  gint64 sum;

  if (__builtin_add_overflow (a, b, &sum))
    return a < 0 ? -HELD_LIMIT : HELD_LIMIT;
  return CLAMP (sum, -HELD_LIMIT, HELD_LIMIT);
}

static gint64
multiply_held (gint64 a,
               gint64 b)
{
  gint64 product;

  if (__builtin_mul_overflow (a, b, &product))
    return (a < 0) != (b < 0) ? -HELD_LIMIT : HELD_LIMIT;
  return CLAMP (product, -HELD_LIMIT, HELD_LIMIT);
}

static guint32
intern_field (Reader                 *self,
              const StrataProtoField *field)
{
  g_autofree char *text = perfetto_proto_string (field);

  return strata_string_pool_intern (strata_trace_get_pool (self->trace), text);
}

/* Extra counters' values come in the order of their tracks: the
 * event's own, or its sequence's defaults. */
typedef struct
{
  PerfettoValues tracks;          /* uuids */
  PerfettoValues values;          /* int64 bits */
  PerfettoValues double_tracks;
  PerfettoValues double_values;   /* double bits */
} ExtraCounters;

static void
read_track_event_field (Reader                 *self,
                        Sequence               *seq,
                        const StrataProtoField *field,
                        TrackEvent             *event,
                        ExtraCounters          *extra)
{
  gboolean bytes = field->wire == STRATA_PROTO_BYTES;

  switch (field->number)
    {
    case EVENT_TYPE: event->type = (guint) field->value; break;
    case EVENT_NAME_IID: event->name = perfetto_interned_name (seq, field->value); break;
    case EVENT_NAME: if (bytes) event->name = intern_field (self, field); break;
    case EVENT_CATEGORY_IIDS:
      if (!bytes && event->category == 0)
        event->category = GPOINTER_TO_UINT (g_hash_table_lookup (seq->categories, GSIZE_TO_POINTER (field->value)));
      break;
    case EVENT_CATEGORIES: if (bytes && event->category == 0) event->category = intern_field (self, field); break;
    case EVENT_TRACK_UUID: event->track = field->value; event->has_track = TRUE; break;
    case EVENT_COUNTER_VALUE:
      event->int_value = (gint64) field->value;
      event->has_value = event->value_is_int = TRUE;
      break;
    case EVENT_DOUBLE_COUNTER_VALUE:
      if (field->wire == STRATA_PROTO_FIXED64)
        {
          memcpy (&event->value, &field->value, sizeof event->value);
          event->has_value = TRUE;
        }
      break;
    case EVENT_DEBUG_ANNOTATIONS: event->has_annotations = TRUE; break;
    case EVENT_LEGACY: if (bytes) perfetto_read_legacy (self, seq, event, field->bytes, field->len); break;
    case EVENT_THREAD_TIME_DELTA_US:
      seq->thread_time_us = add_held (seq->thread_time_us, (gint64) field->value);
      event->thread_time = multiply_held (seq->thread_time_us, 1000), event->has_thread_time = TRUE;
      break;
    case EVENT_THREAD_TIME_ABSOLUTE_US:
      seq->thread_time_us = (gint64) field->value;
      event->thread_time = multiply_held (seq->thread_time_us, 1000), event->has_thread_time = TRUE;
      break;
    case EVENT_EXTRA_COUNTER_TRACK_UUIDS: perfetto_read_uint64s (field, &extra->tracks); break;
    case EVENT_EXTRA_COUNTER_VALUES: perfetto_read_uint64s (field, &extra->values); break;
    case EVENT_EXTRA_DOUBLE_COUNTER_TRACK_UUIDS: perfetto_read_uint64s (field, &extra->double_tracks); break;
    case EVENT_EXTRA_DOUBLE_COUNTER_VALUES: perfetto_read_doubles (field, &extra->double_values); break;
    case EVENT_FLOW_IDS_OLD: case EVENT_TERMINATING_FLOW_IDS_OLD:
    case EVENT_FLOW_IDS: case EVENT_TERMINATING_FLOW_IDS:
      event->has_flows = TRUE;
      break;
    default: break;
    }
}

static void add_counter_value (Reader *self, Track *track, double value, gint64 time);

/* A counter track's value: incremental ones sum their deltas on each
 * sequence (its incremental state resets the sum), in the track's unit. */
static gint64
counter_value (Sequence *seq,
               Track    *track,
               gint64    value)
{
  gint64 *sum;

  if (track->is_incremental)
    {
      if (seq->last_sum != NULL && seq->last_sum_uuid == track->uuid)
        sum = seq->last_sum;
      else if ((sum = g_hash_table_lookup (seq->counter_sums, &track->uuid)) == NULL)
        {
          sum = g_new0 (gint64, 1);
          g_hash_table_insert (seq->counter_sums, g_memdup2 (&track->uuid, sizeof track->uuid), sum);
        }
      seq->last_sum = sum;
      seq->last_sum_uuid = track->uuid;
      value = *sum = add_held (*sum, value);
    }
  return multiply_held (value, MAX (track->unit_multiplier, 1));
}

/* Chrome's thread time is an extra counter of each event; other extra
 * counters are counters. */
static void
take_extra_counters (Reader        *self,
                     Sequence      *seq,
                     ExtraCounters *extra,
                     TrackEvent    *event,
                     gint64         time)
{
  PerfettoValues *tracks = extra->tracks.n > 0 ? &extra->tracks : &seq->extra_counters;
  PerfettoValues *double_tracks = extra->double_tracks.n > 0 ? &extra->double_tracks : &seq->extra_double_counters;

  for (guint i = 0; i < extra->values.n && i < tracks->n; i++)
    {
      Track *track = perfetto_track_of (self, tracks->values[i]);
      gint64 value = counter_value (seq, track, (gint64) extra->values.values[i]);

      if (track->is_thread_time)
        {
          event->thread_time = value;
          event->has_thread_time = TRUE;
        }
      else
        add_counter_value (self, track, (double) value, time);
    }
  for (guint i = 0; i < extra->double_values.n && i < double_tracks->n; i++)
    {
      guint64 bits = extra->double_values.values[i];
      double value;

      memcpy (&value, &bits, sizeof value);
      add_counter_value (self, perfetto_track_of (self, double_tracks->values[i]), value, time);
    }
}

static void
read_track_event (Reader       *self,
                  Sequence     *seq,
                  const guint8 *data,
                  gsize         len,
                  TrackEvent   *event,
                  gint64        time)
{
  StrataProto proto;
  StrataProtoField field;
  ExtraCounters extra;

  extra.tracks.n = extra.values.n = extra.double_tracks.n = extra.double_values.n = 0;
  strata_proto_init (&proto, data, len);
  while (strata_proto_next (&proto, &field))
    read_track_event_field (self, seq, &field, event, &extra);
  if (extra.values.n > 0 || extra.double_values.n > 0)
    take_extra_counters (self, seq, &extra, event, time);
  self->has_thread_time |= event->has_thread_time;
  if (event->has_flows)
    event->flow_ids = data, event->flow_ids_len = len;
}

static void
add_counter_value (Reader *self,
                   Track  *track,
                   double  value,
                   gint64  time)
{
  StrataCounterBuilder *builder = g_hash_table_lookup (self->counters, &track->uuid);

  if (builder == NULL)
    {
      StrataStringPool *pool = strata_trace_get_pool (self->trace);
      guint32 name = strata_string_pool_intern (pool, track->name != NULL ? track->name : _("Counter"));

      builder = strata_counter_builder_new (name, 0, 0, perfetto_process_index (self, perfetto_track_pid (self, track), NULL));
      g_hash_table_insert (self->counters, g_memdup2 (&track->uuid, sizeof track->uuid), builder);
    }
  strata_counter_builder_add (builder, time, strata_string_pool_intern (strata_trace_get_pool (self->trace), "value"), value);
  strata_counter_builder_end_sample (builder);
}

/* The track an event is on: its own, its sequence's default, or (older
 * SDKs) the thread a ThreadDescriptor gave the sequence. */
static Track *
event_track (Reader     *self,
             Sequence   *seq,
             TrackEvent *event)
{
  if (event->has_tid_override)
    return perfetto_thread_track (self, event->pid_override != 0 ? event->pid_override : seq->pid, event->tid_override);
  /* A track of 0 is the default track for typed events, the sequence's
   * thread for legacy ones (Chrome's). */
  if (event->has_track && (event->track != 0 || event->type != TYPE_UNSPECIFIED))
    return perfetto_track_of (self, event->track);
  if (seq->default_track != 0)
    return perfetto_track_of (self, seq->default_track);
  if (seq->tid != 0)
    return perfetto_thread_track (self, seq->pid, seq->tid);
  /* Nothing names one: the trace's default track, as Perfetto's. */
  return perfetto_track_of (self, 0);
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

  read_track_event (self, seq, data, len, &event, time);
  track = event_track (self, seq, &event);
  if (event.type == TYPE_COUNTER || (track->is_counter && event.has_value))
    {
      add_counter_value (self, track, event.value_is_int ? (double) counter_value (seq, track, event.int_value)
                                                         : event.value * MAX (track->unit_multiplier, 1), time);
      return;
    }
  if (event.type == TYPE_UNSPECIFIED)
    {
      if (event.has_annotations)
        event.source = perfetto_args_write (self, seq, data, len, EVENT_DEBUG_ANNOTATIONS);
      if (!perfetto_legacy_event (self, track, &event, time))
        self->n_unknown_legacy++;
      return;
    }
  if (event.has_annotations && (event.type == TYPE_SLICE_BEGIN || event.type == TYPE_SLICE_END || event.type == TYPE_INSTANT))
    event.source = perfetto_args_write (self, seq, data, len, EVENT_DEBUG_ANNOTATIONS);
  if (perfetto_track_is_async (self, track))
    {
      perfetto_async_event (self, track, &event, time);
      return;
    }
  thread = perfetto_track_thread (self, track);
  if (event.type == TYPE_SLICE_BEGIN)
    perfetto_calls_begin (self, thread, &event, time);
  else if (event.type == TYPE_SLICE_END)
    perfetto_calls_end (self, thread, &event, time);
  else if (event.type == TYPE_INSTANT)
    perfetto_calls_instant (self, thread, &event, time);
}

/* ---- Packets ---- */

static void read_trace (Reader       *self,
                        const guint8 *data,
                        gsize         len,
                        guint         nesting);

/* Whether Cancel came, looked at each time a batch being inflated to
 * @len bytes (as much as a gigabyte) passes a CHECK_BYTES step. */
static gboolean
cancelled_while_inflating (Reader *self,
                           gsize   len,
                           gsize   added)
{
  if ((len & (CHECK_BYTES - 1)) < added && g_cancellable_is_cancelled (self->job->cancellable))
    self->cancelled = TRUE;
  return self->cancelled;
}

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
      if (cancelled_while_inflating (self, out->len, written))
        return;
      if (result == G_CONVERTER_ERROR || out->len > MAX_INFLATED || (read == 0 && written == 0))
        {
          self->n_bad_packets++;
          break;
        }
    }
  if (nesting < MAX_NESTING)
    read_trace (self, out->data, out->len, nesting + 1);
}

#ifdef HAVE_ZSTD
/* zstd_compressed_packets: a Trace message compressed with zstd. */
static void
read_zstd (Reader       *self,
           const guint8 *data,
           gsize         len,
           guint         nesting)
{
  ZSTD_DStream *stream = ZSTD_createDStream ();
  g_autoptr(GByteArray) out = g_byte_array_new ();
  ZSTD_inBuffer in = { data, len, 0 };
  size_t result = 1;

  ZSTD_initDStream (stream);
  while (result != 0 && out->len <= MAX_INFLATED)
    {
      guint8 buffer[65536];
      ZSTD_outBuffer chunk = { buffer, sizeof buffer, 0 };

      result = ZSTD_decompressStream (stream, &chunk, &in);
      if (ZSTD_isError (result) || (chunk.pos == 0 && in.pos == in.size && result != 0))
        break;
      g_byte_array_append (out, buffer, chunk.pos);
      if (cancelled_while_inflating (self, out->len, chunk.pos))
        break;
    }
  ZSTD_freeDStream (stream);
  if (self->cancelled)
    return;
  if (result != 0)
    self->n_bad_packets++;
  else if (nesting < MAX_NESTING)
    read_trace (self, out->data, out->len, nesting + 1);
}
#endif

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

/* What a packet sets up before its event: its sequence's state,
 * clocks and descriptors. */
static void
take_state (Reader   *self,
            Sequence *seq,
            Packet   *packet)
{
  if (packet->cleared || (packet->flags & 1))
    perfetto_sequence_clear_incremental (seq);
  if (packet->defaults.bytes != NULL)
    perfetto_read_defaults (seq, packet->defaults.bytes, packet->defaults.len);
  if (packet->interned.bytes != NULL)
    perfetto_read_interned (self, seq, packet->interned.bytes, packet->interned.len);
  if (packet->snapshot.bytes != NULL)
    perfetto_read_clock_snapshot (self, seq, packet->snapshot.bytes, packet->snapshot.len);
  if (packet->process.bytes != NULL)
    perfetto_read_process_descriptor (self, packet->process.bytes, packet->process.len, 0, NULL);
  if (packet->thread.bytes != NULL)
    perfetto_read_thread_descriptor (self, packet->thread.bytes, packet->thread.len, 0, &seq->pid, &seq->tid);
  if (packet->track.bytes != NULL)
    {
      Track *track = perfetto_read_track_descriptor (self, packet->track.bytes, packet->track.len);

      /* A thread's track described on a sequence is its thread, as a
       * ThreadDescriptor is, for events that name no track. */
      if (track->is_thread && seq->tid == 0)
        seq->pid = track->pid, seq->tid = track->tid;
    }
}

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
      case PACKET_ZSTD_COMPRESSED:
#ifdef HAVE_ZSTD
        if (field.wire == STRATA_PROTO_BYTES)
          read_zstd (self, field.bytes, field.len, nesting);
#else
        self->n_zstd++;
#endif
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
  take_state (self, seq, &packet);
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
      self->last_time = MAX (self->last_time, time);
      if (packet.event.bytes != NULL)
        take_track_event (self, seq, packet.event.bytes, packet.event.len, time);
    }
}

/* Gives read pages back and says how far @p is in the file's @data;
 * Cancel there ends the reading. */
static void
check_top (Reader       *self,
           const guint8 *data,
           gsize         len,
           const guint8 *p,
           gsize        *released)
{
  /* What is read is not read again: its pages go back. So do the heap's
   * holes where calls' arrays were before they grew to be mapped apart:
   * with many threads they are a third of it. */
  strata_load_job_release_pages (self->job, data + *released, p);
  *released = p - data;
  if ((++self->n_checks & 3) == 0)
    strata_memory_give_back ();
  self->next_progress = self->n_packets + CHECK_PACKETS;
  if (!strata_load_job_update (self->job, 0.9 * (p - data) / MAX (len, 1), _("Reading packets…"), NULL))
    self->cancelled = TRUE;
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
  gsize released = 0;

  strata_proto_init (&proto, data, len);
  while (!self->cancelled && strata_proto_next (&proto, &field))
    {
      if (field.number == 1 && field.wire == STRATA_PROTO_BYTES)
        read_packet (self, field.bytes, field.len, nesting);
      if (nesting == 0 && (self->n_packets >= self->next_progress || (gsize) (proto.p - data) - released >= CHECK_BYTES))
        check_top (self, data, len, proto.p, &released);
      else if (nesting > 0 && self->n_packets >= self->next_check)
        {
          self->next_check = self->n_packets + CHECK_PACKETS;
          self->cancelled = g_cancellable_is_cancelled (self->job->cancellable);
        }
    }
  if (proto.bad && nesting == 0)
    self->cut = TRUE;
}

/* ---- The trace ---- */

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
    { 1, "ftrace_events" }, { 2, "process_tree" }, { 4, "inode_file_map" }, { 5, "chrome_events" },
    { 7, "sys_stats" }, { 9, "process_stats" }, { 33, "trace_config" }, { 34, "ftrace_stats" },
    { 35, "trace_stats" }, { 36, "synchronization_marker" }, { 37, "profile_packet" },
    { 38, "battery" }, { 39, "android_log" }, { 40, "power_rails" }, { 45, "system_info" },
    { 46, "trigger" }, { 47, "packages_list" }, { 48, "chrome_benchmark_metadata" },
    { 49, "perfetto_metatrace" }, { 51, "chrome_metadata" }, { 52, "gpu_counter_event" },
    { 53, "gpu_render_stage_event" }, { 54, "streaming_profile_packet" },
    { 57, "graphics_frame_event" }, { 61, "module_symbols" }, { 62, "vulkan_memory_event" },
    { 63, "gpu_log" }, { 64, "deobfuscation_mapping" }, { 65, "vulkan_api_event" },
    { 66, "perf_sample" }, { 67, "cpu_info" }, { 68, "smaps_packet" }, { 69, "service_event" },
    { 70, "initial_display_state" }, { 71, "gpu_mem_total_event" }, { 72, "extension_descriptor" },
    { 73, "memory_tracker_snapshot" }, { 74, "streaming_allocation" }, { 75, "streaming_free" },
    { 77, "android_energy_estimation_breakdown" }, { 78, "ui_state" }, { 82, "translation_table" },
    { 83, "android_game_intervention_list" }, { 84, "statsd_atom" },
    { 86, "android_system_property" }, { 89, "trace_uuid" },
    { 90, "track_event_range_of_interest" }, { 91, "entity_state_residency" }, { 95, "etw_events" },
    { 99, "v8_js_code" }, { 100, "v8_internal_code" }, { 101, "v8_wasm_code" },
    { 102, "v8_reg_exp_code" }, { 103, "v8_code_move" }, { 107, "remote_clock_sync" },
    { 109, "chrome_trigger" }, { 110, "pixel_modem_events" }, { 111, "pixel_modem_token_database" },
    { 113, "clone_snapshot_trigger" }, { 115, "kernel_wakelock_data" },
    { 117, "generic_kernel_task_state_event" }, { 118, "generic_kernel_cpu_freq_event" },
    { 119, "cpu_per_uid_data" }, { 120, "generic_kernel_task_rename_event" },
    { 122, "generic_kernel_process_tree" }, { 123, "user_list" }, { 124, "trace_provenance" },
    { 125, "protovms" }, { 126, "trace_attributes" }, { 127, "android_aflags" },
    { 128, "gpu_info" }, { 129, "generic_gpu_frequency_event" }, { 130, "interrupt_info" },
    { 131, "art_process_metadata" }, { 132, "journald_event" }, { 134, "concurrent_session_event" },
    { 135, "stack_sample" }, { 900, "for_testing" },
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
  strata_trace_add_count_note (self->trace, self->n_unknown_legacy,
                               ngettext ("%s legacy event of a phase Strata does not read yet (complete, async or flow) was left out.",
                                         "%s legacy events of phases Strata does not read yet (complete, async or flow) were left out.",
                                         (gulong) MIN (self->n_unknown_legacy, G_MAXULONG)));
  strata_trace_add_count_note (self->trace, self->n_unbound_flows,
                               ngettext ("%s flow step came on an event that is not a call (an async slice, or an instant outside any call) and was left out.",
                                         "%s flow steps came on events that are not calls (async slices, or instants outside any call) and were left out.",
                                         (gulong) MIN (self->n_unbound_flows, G_MAXULONG)));
  strata_trace_add_count_diagnostic (self->trace, self->n_too_deep,
                                     ngettext ("%s slice lay more than 65,536 deep and was left out.",
                                               "%s slices lay more than 65,536 deep and were left out.",
                                               (gulong) MIN (self->n_too_deep, G_MAXULONG)));
  strata_trace_add_count_diagnostic (self->trace, self->n_zstd,
                                     ngettext ("%s packet compressed with zstd could not be read: this build of Strata has no zstd.",
                                               "%s packets compressed with zstd could not be read: this build of Strata has no zstd.",
                                               (gulong) MIN (self->n_zstd, G_MAXULONG)));
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

  perfetto_calls_finish (self);
  perfetto_async_finish (self);
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
  perfetto_args_finish (self);
  /* Calls' arrays cut to length leave their tails free in the heap. */
  strata_memory_give_back ();
}

static void
reader_clear (Reader *self)
{
  g_hash_table_unref (self->sequences);
  g_hash_table_unref (self->tracks);
  g_hash_table_unref (self->processes);
  g_hash_table_unref (self->threads);
  g_hash_table_unref (self->pid_owners);
  g_hash_table_unref (self->tid_owners);
  perfetto_calls_clear (self);
  if (self->events != NULL)
    g_array_unref (self->events);
  if (self->args != NULL)
    g_string_free (self->args, TRUE);
  g_hash_table_unref (self->counters);
  g_hash_table_unref (self->methods);
  g_free (self->method_cache);
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
  Reader self = {
    .trace = trace, .job = job,
    .sequences = g_hash_table_new_full (NULL, NULL, NULL, perfetto_sequence_free),
    .tracks = g_hash_table_new_full (strata_int64_hash, g_int64_equal, g_free, perfetto_track_free),
    .processes = g_hash_table_new_full (strata_int64_hash, g_int64_equal, g_free, NULL),
    .threads = g_hash_table_new_full (strata_int64_hash, g_int64_equal, g_free, NULL),
    .pid_owners = g_hash_table_new_full (strata_int64_hash, g_int64_equal, g_free, g_free),
    .tid_owners = g_hash_table_new_full (strata_int64_hash, g_int64_equal, g_free, g_free),
    .calls = g_ptr_array_new (),
    .events = g_array_new (FALSE, FALSE, sizeof (StrataEvent)),
    .flows_open = g_hash_table_new_full (strata_int64_hash, g_int64_equal, g_free, g_free),
    .flows = g_array_new (FALSE, FALSE, sizeof (StrataFlow)),
    .args = g_string_new ("[{}"),
    .method_cache = g_new0 (MethodCacheEntry, METHOD_CACHE),
    .counters = g_hash_table_new_full (strata_int64_hash, g_int64_equal, g_free, (GDestroyNotify) strata_counter_builder_free),
    .methods = g_hash_table_new_full (strata_int64_hash, g_int64_equal, g_free, NULL),
    .unread = g_hash_table_new (NULL, NULL),
  };

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
