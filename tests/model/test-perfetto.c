/* test-perfetto.c: Perfetto protobuf traces
 *
 * A trace written here field by field after Perfetto's protos
 * (trace_packet.proto, track_event.proto, track_descriptor.proto,
 * interned_data.proto, clock_snapshot.proto): a process and two threads
 * described by tracks, names and categories interned per sequence and
 * cleared with its incremental state, timestamps on an incremental
 * clock in µs tied to MONOTONIC by a snapshot (as Chrome writes them),
 * nested slices, an instant, a counter, a slice end with nothing open,
 * a legacy ThreadDescriptor sequence, and packets compressed with zlib.
 * A second trace has what Chrome adds: thread time as an incremental
 * extra counter named by the sequence's defaults, debug annotations of
 * every kind as args, flows between threads, and packets compressed with
 * zstd. Cut anywhere, what came before loads, and a cut inside a packet is
 * said.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <gio/gio.h>

#include "strata-event-args.h"
#include "proto-writer.h"
#include "strata-test-util.h"

#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

/* TrackDescriptor { uuid 1, name 2, process 3 { pid 1, process_name 6 },
 * thread 4 { pid 1, tid 2, thread_name 5 } } */
static GByteArray *
track_descriptor (guint64     uuid,
                  gint        pid,
                  gint        tid,
                  const char *name)
{
  GByteArray *track = proto_message (), *inner = proto_message ();

  proto_put_uint (track, 1, uuid);
  proto_put_uint (inner, 1, pid);
  if (tid != 0)
    {
      proto_put_uint (inner, 2, tid);
      proto_put_string (inner, 5, name);
      proto_put_message (track, 4, inner);
    }
  else
    {
      proto_put_string (inner, 6, name);
      proto_put_message (track, 3, inner);
    }
  return track;
}

/* TrackEvent { type 9, name_iid 10, track_uuid 11, category_iids 3 } */
static GByteArray *
track_event (guint   type,
             guint64 name_iid,
             guint64 track)
{
  GByteArray *event = proto_message ();

  proto_put_uint (event, 9, type);
  if (name_iid != 0)
    proto_put_uint (event, 10, name_iid);
  if (name_iid != 0)
    proto_put_uint (event, 3, 1);
  if (track != 0)
    proto_put_uint (event, 11, track);
  return event;
}

/* A packet of sequence 7 at @delta µs after the one before, on the
 * sequence's incremental clock 64. */
static void
put_event_packet (GByteArray *trace,
                  guint64     delta,
                  GByteArray *event)
{
  GByteArray *packet = proto_message ();

  proto_put_uint (packet, 8, delta);
  proto_put_uint (packet, 10, 7);
  proto_put_uint (packet, 13, 2);
  proto_put_message (packet, 11, event);
  proto_put_message (trace, 1, packet);
}

static GByteArray *
sequence_start (void)
{
  GByteArray *packet = proto_message (), *snapshot = proto_message (), *clock = proto_message ();
  GByteArray *defaults = proto_message (), *interned = proto_message (), *entry;

  proto_put_uint (packet, 10, 7);
  proto_put_uint (packet, 13, 1);     /* SEQ_INCREMENTAL_STATE_CLEARED */
  /* ClockSnapshot: MONOTONIC 5,000,000,000 ns is 5,000,000 µs on 64. */
  proto_put_uint (clock, 1, 3);
  proto_put_uint (clock, 2, G_GUINT64_CONSTANT (5000000000));
  proto_put_message (snapshot, 1, clock);
  clock = proto_message ();
  proto_put_uint (clock, 1, 64);
  proto_put_uint (clock, 2, 5000000);
  proto_put_uint (clock, 3, 1);
  proto_put_uint (clock, 4, 1000);
  proto_put_message (snapshot, 1, clock);
  proto_put_message (packet, 6, snapshot);
  proto_put_uint (defaults, 58, 64);
  proto_put_message (packet, 59, defaults);
  /* InternedData: category 1 "toplevel"; names 1 RunTask, 2 Layout, 3 Paint, 4 Mark */
  entry = proto_message ();
  proto_put_uint (entry, 1, 1);
  proto_put_string (entry, 2, "toplevel");
  proto_put_message (interned, 1, entry);
  for (guint i = 0; i < 4; i++)
    {
      static const char *names[] = { "RunTask", "Layout", "Paint", "Mark" };

      entry = proto_message ();
      proto_put_uint (entry, 1, i + 1);
      proto_put_string (entry, 2, names[i]);
      proto_put_message (interned, 2, entry);
    }
  proto_put_message (packet, 12, interned);
  return packet;
}

/* The trace: sequence 7 with two threads' slices; a counter; sequence
 * 9 in a compressed packet, its thread given by a legacy descriptor. */
static GBytes *
write_trace (void)
{
  GByteArray *trace = proto_message (), *packet, *counter_track, *event, *legacy = proto_message (), *inner;
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_ZLIB, -1);
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(GOutputStream) zipping = g_converter_output_stream_new (memory, G_CONVERTER (compressor));
  g_autoptr(GBytes) zipped = NULL;

  proto_put_message (trace, 1, sequence_start ());
  for (guint i = 0; i < 3; i++)
    {
      static const gint tids[] = { 0, 11, 12 };
      static const char *names[] = { "Renderer", "CrRendererMain", "Compositor" };

      packet = proto_message ();
      proto_put_uint (packet, 10, 7);
      proto_put_message (packet, 60, track_descriptor (100 + i, 42, tids[i], names[i]));
      proto_put_message (trace, 1, packet);
    }
  counter_track = proto_message ();
  proto_put_uint (counter_track, 1, 200);
  proto_put_string (counter_track, 2, "Memory");
  proto_put_uint (counter_track, 5, 100);
  proto_put_message (counter_track, 8, proto_message ());
  packet = proto_message ();
  proto_put_uint (packet, 10, 7);
  proto_put_message (packet, 60, counter_track);
  proto_put_message (trace, 1, packet);

  /* Main: RunTask 1000-1900 µs { Layout 1100-1300, Paint 1400-1500 };
   * Compositor: Paint 1200-1250; an instant at 1600; a stray end. */
  put_event_packet (trace, 1000, track_event (1, 1, 101));
  put_event_packet (trace, 100, track_event (1, 2, 101));
  put_event_packet (trace, 100, track_event (1, 3, 102));
  put_event_packet (trace, 50, track_event (2, 0, 102));
  put_event_packet (trace, 50, track_event (2, 0, 101));
  put_event_packet (trace, 100, track_event (1, 3, 101));
  put_event_packet (trace, 100, track_event (2, 0, 101));
  put_event_packet (trace, 100, track_event (3, 4, 101));
  event = track_event (4, 0, 200);
  proto_put_uint (event, 30, 4096);
  put_event_packet (trace, 0, event);
  put_event_packet (trace, 300, track_event (2, 0, 101));
  put_event_packet (trace, 0, track_event (2, 0, 102));

  /* Sequence 9: ThreadDescriptor { pid 42, tid 13, thread_name "Worker" }
   * and a slice on BOOTTIME, its name inline, all deflated. */
  packet = proto_message ();
  proto_put_uint (packet, 10, 9);
  inner = proto_message ();
  proto_put_uint (inner, 1, 42);
  proto_put_uint (inner, 2, 13);
  proto_put_string (inner, 5, "Worker");
  proto_put_message (packet, 44, inner);
  proto_put_message (legacy, 1, packet);
  for (guint i = 0; i < 2; i++)
    {
      packet = proto_message ();
      proto_put_uint (packet, 10, 9);
      proto_put_uint (packet, 8, G_GUINT64_CONSTANT (5000000000) + 1000000 + i * 500000);
      proto_put_uint (packet, 58, 3);
      event = proto_message ();
      proto_put_uint (event, 9, i == 0 ? 1 : 2);
      if (i == 0)
        proto_put_string (event, 23, "Decode");
      proto_put_message (packet, 11, event);
      proto_put_message (legacy, 1, packet);
    }
  g_output_stream_write_all (zipping, legacy->data, legacy->len, NULL, NULL, NULL);
  g_output_stream_close (zipping, NULL, NULL);
  g_byte_array_unref (legacy);
  zipped = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (memory));
  packet = proto_message ();
  proto_put_bytes (packet, 50, g_bytes_get_data (zipped, NULL), g_bytes_get_size (zipped));
  proto_put_message (trace, 1, packet);
  return g_byte_array_free_to_bytes (trace);
}

static char *
describe (StrataTrace *trace)
{
  GString *text = g_string_new (NULL);

  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    {
      const StrataThread *thread = strata_trace_get_thread (trace, t);
      const StrataSpanTable *table = thread->spans;

      g_string_append_printf (text, "%s %" G_GINT64_FORMAT " in %s\n", strata_trace_get_string (trace, thread->name), thread->tid,
                              strata_trace_get_string (trace, strata_trace_get_process (trace, thread->process)->name));
      for (guint d = 0; table != NULL && d < table->n_depths; d++)
        for (guint32 i = 0; i < table->n_spans[d]; i++)
          g_string_append_printf (text, "  %u %s/%s %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT "\n", d,
                                  strata_trace_get_method_name (trace, table->calls[d][i].method),
                                  strata_trace_get_string (trace, strata_trace_get_method (trace, table->calls[d][i].method)->class_name),
                                  (strata_span_table_start (table, d, i) - G_GINT64_CONSTANT (5000000000)) / 1000,
                                  (strata_span_table_end (table, d, i) - G_GINT64_CONSTANT (5000000000)) / 1000);
    }
  return g_string_free (text, FALSE);
}

static void
test_perfetto_track_events (void)
{
  g_autoptr(GBytes) bytes = write_trace ();
  g_autofree char *path = strata_test_write_file ("chrome.perfetto-trace", g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_path (path, &error);
  g_autofree char *calls = NULL;
  const StrataCounter *counter;

  g_assert_no_error (error);
  g_assert_cmpint (strata_trace_get_format (trace), ==, STRATA_FORMAT_PERFETTO);
  calls = describe (trace);
  g_assert_cmpstr (calls, ==,
                   "CrRendererMain 11 in Renderer\n"
                   "  0 RunTask/toplevel 1000-1900\n"
                   "  1 Layout/toplevel 1100-1300\n"
                   "  1 Paint/toplevel 1400-1500\n"
                   "Compositor 12 in Renderer\n"
                   "  0 Paint/toplevel 1200-1250\n"
                   "Worker 13 in Renderer\n"
                   "  0 Decode/ 1000-1500\n");
  g_assert_cmpuint (strata_trace_get_n_events (trace), ==, 1);
  g_assert_cmpint (strata_trace_get_event (trace, 0)->start - G_GINT64_CONSTANT (5000000000), ==, 1600000);
  g_assert_cmpstr (strata_trace_get_string (trace, strata_trace_get_event (trace, 0)->name), ==, "Mark");
  g_assert_cmpuint (strata_trace_get_n_counters (trace), ==, 1);
  counter = strata_trace_get_counter (trace, 0);
  g_assert_cmpstr (strata_trace_get_string (trace, counter->name), ==, "Memory");
  g_assert_cmpuint (counter->n_samples, ==, 1);
  g_assert_cmpfloat (counter->values[0][0], ==, 4096);
  g_assert_true (strata_test_has_diagnostic (trace, "slice end had no open slice"));
}

/* Cut at any byte: what came before loads (or, before the first packet
 * is whole, a reason); never a crash. */
static void
test_perfetto_cut (void)
{
  g_autoptr(GBytes) bytes = write_trace ();
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  guint loaded = 0, said = 0;

  for (gsize cut = 1; cut < len; cut++)
    {
      g_autofree char *path = strata_test_write_file ("cut.pftrace", data, cut);
      g_autoptr(GError) error = NULL;
      g_autoptr(StrataTrace) trace = strata_test_load_path (path, &error);

      g_assert_true ((trace == NULL) != (error == NULL));
      loaded += trace != NULL;
      said += trace != NULL && strata_test_has_diagnostic (trace, "cut");
    }
  g_assert_cmpuint (loaded, >, len / 2);
  /* A cut between packets leaves a whole trace: nothing tells it apart.
   * One inside a packet is said. */
  g_assert_cmpuint (said, >, loaded * 9 / 10);
}

/* ---- Cancel ---- */

/* Packets in compressed batches, as Android and `perfetto --compress`
 * write them: 40 batches of a million packets. Cancel is seen within
 * the batch it comes in, not only between batches. */
static void
test_perfetto_cancel (void)
{
  g_autoptr(GByteArray) batch = proto_message ();
  g_autoptr(GByteArray) trace = proto_message ();
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_ZLIB, 1);
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(GOutputStream) zipping = g_converter_output_stream_new (memory, G_CONVERTER (compressor));
  g_autoptr(GBytes) zipped = NULL;
  g_autoptr(GByteArray) packet = proto_message ();
  g_autoptr(GByteArray) one = proto_message ();
  g_autofree char *path = NULL;

  /* TracePacket { trusted_packet_sequence_id 10: 7 }, a million times */
  proto_put_uint (one, 10, 7);
  for (guint i = 0; i < 1000000; i++)
    proto_put_bytes (batch, 1, one->data, one->len);
  g_assert_true (g_output_stream_write_all (zipping, batch->data, batch->len, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (zipping, NULL, NULL));
  zipped = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (memory));
  proto_put_bytes (packet, 50, g_bytes_get_data (zipped, NULL), g_bytes_get_size (zipped));
  for (guint i = 0; i < 40; i++)
    proto_put_bytes (trace, 1, packet->data, packet->len);
  path = strata_test_write_file ("batches.pftrace", trace->data, trace->len);
  strata_test_assert_cancel_is_prompt (path);
}

/* ---- Annotations, flows and thread time ---- */


/* DebugAnnotation { name 10 | name_iid 1, value } */
static GByteArray *
annotation (const char *name,
            guint64     name_iid)
{
  GByteArray *entry = proto_message ();

  if (name != NULL)
    proto_put_string (entry, 10, name);
  else
    proto_put_uint (entry, 1, name_iid);
  return entry;
}

/* Every kind of value: interned name and string, numbers, a pointer,
 * legacy JSON (valid and not), dict entries, array values and a
 * NestedValue dict. */
static void
put_annotations (GByteArray *event)
{
  GByteArray *entry, *child, *nested, *value;
  double pi = 3.25;
  guint64 bits;

  memcpy (&bits, &pi, sizeof bits);
  entry = annotation (NULL, 1);
  proto_put_uint (entry, 17, 1);
  proto_put_message (event, 4, entry);
  entry = annotation ("count", 0);
  proto_put_uint (entry, 4, (guint64) -5);
  proto_put_message (event, 4, entry);
  entry = annotation ("ratio", 0);
  proto_put_fixed64 (entry, 5, bits);
  proto_put_message (event, 4, entry);
  entry = annotation ("on", 0);
  proto_put_uint (entry, 2, 1);
  proto_put_message (event, 4, entry);
  entry = annotation ("at", 0);
  proto_put_uint (entry, 7, 0xbeef);
  proto_put_message (event, 4, entry);
  entry = annotation ("json", 0);
  proto_put_string (entry, 9, "{\"a\": [1, 2]}");
  proto_put_message (event, 4, entry);
  entry = annotation ("bad\"json", 0);
  proto_put_string (entry, 9, "{\"a\": ");
  proto_put_message (event, 4, entry);
  entry = annotation ("dict", 0);
  child = annotation ("big", 0);
  proto_put_uint (child, 3, G_MAXUINT64);
  proto_put_message (entry, 11, child);
  proto_put_message (event, 4, entry);
  entry = annotation ("list", 0);
  child = proto_message ();
  proto_put_string (child, 6, "x");
  proto_put_message (entry, 12, child);
  child = proto_message ();
  proto_put_uint (child, 4, 2);
  proto_put_message (entry, 12, child);
  proto_put_message (event, 4, entry);
  entry = annotation ("nested", 0);
  nested = proto_message ();
  proto_put_uint (nested, 1, 1);
  proto_put_string (nested, 2, "k");
  value = proto_message ();
  proto_put_uint (value, 1, 2);
  child = proto_message ();
  proto_put_uint (child, 5, 7);
  proto_put_message (value, 4, child);
  proto_put_message (nested, 3, value);
  proto_put_message (entry, 8, nested);
  proto_put_message (event, 4, entry);
}

/* A packet of sequence 5 at @time ns on BOOTTIME. */
static void
put_rich_packet (GByteArray *trace,
                 guint64     time,
                 GByteArray *event)
{
  GByteArray *packet = proto_message ();

  proto_put_uint (packet, 8, time);
  proto_put_uint (packet, 10, 5);
  proto_put_message (packet, 11, event);
  proto_put_message (trace, 1, packet);
}

/* TrackEvent on @track, named inline, with a thread-time delta in µs. */
static GByteArray *
timed_event (guint       type,
             const char *name,
             guint64     track,
             gint64      thread_delta_us)
{
  GByteArray *event = proto_message ();

  proto_put_uint (event, 9, type);
  if (name != NULL)
    proto_put_string (event, 23, name);
  proto_put_uint (event, 11, track);
  proto_put_uint (event, 12, (guint64) thread_delta_us);
  return event;
}

static GByteArray *
rich_sequence_start (void)
{
  GByteArray *packet = proto_message (), *defaults = proto_message (), *event_defaults = proto_message ();
  GByteArray *interned = proto_message (), *entry, *counter = proto_message (), *track = proto_message ();
  GByteArray *trace = proto_message ();

  proto_put_uint (packet, 10, 5);
  proto_put_uint (packet, 13, 1);
  proto_put_uint (event_defaults, 31, 300);
  proto_put_message (defaults, 11, event_defaults);
  proto_put_message (packet, 59, defaults);
  entry = proto_message ();
  proto_put_uint (entry, 1, 1);
  proto_put_string (entry, 2, "url");
  proto_put_message (interned, 3, entry);
  entry = proto_message ();
  proto_put_uint (entry, 1, 1);
  proto_put_string (entry, 2, "https://example.org/");
  proto_put_message (interned, 29, entry);
  proto_put_message (packet, 12, interned);
  proto_put_message (trace, 1, packet);
  for (guint i = 0; i < 2; i++)
    {
      packet = proto_message ();
      proto_put_uint (packet, 10, 5);
      proto_put_message (packet, 60, track_descriptor (110 + i, 50, 21 + i, i == 0 ? "Main" : "IO"));
      proto_put_message (trace, 1, packet);
    }
  /* CounterDescriptor { type THREAD_TIME_NS, unit_multiplier 1000, is_incremental } */
  proto_put_uint (track, 1, 300);
  proto_put_uint (counter, 1, 1);
  proto_put_uint (counter, 4, 1000);
  proto_put_uint (counter, 5, 1);
  proto_put_message (track, 8, counter);
  packet = proto_message ();
  proto_put_uint (packet, 10, 5);
  proto_put_message (packet, 60, track);
  proto_put_message (trace, 1, packet);
  return trace;
}

/* Main: Load 1000-5000 ns, args, a flow out; an instant inside it with
 * a second flow (an old-style id). IO: Read 2000-3000, ending both
 * flows. One thread-time counter, so its sum runs across both: Load
 * 10-30 µs, Read 100-103 µs. */
static GBytes *
write_rich_trace (gboolean zstd)
{
  GByteArray *trace = rich_sequence_start (), *events = proto_message (), *event;

  event = timed_event (1, "Load", 110, 10);
  put_annotations (event);
  proto_put_fixed64 (event, 47, 0xF1);
  put_rich_packet (events, 1000, event);
  event = timed_event (3, "Mark", 110, 5);
  proto_put_uint (event, 36, 0xF2);
  put_rich_packet (events, 1500, event);
  event = timed_event (1, "Read", 111, 85);
  proto_put_fixed64 (event, 48, 0xF1);
  proto_put_uint (event, 42, 0xF2);
  put_rich_packet (events, 2000, event);
  put_rich_packet (events, 3000, timed_event (2, NULL, 111, 3));
  event = timed_event (2, NULL, 110, -73);
  put_rich_packet (events, 5000, event);
  if (!zstd)
    g_byte_array_append (trace, events->data, events->len);
#ifdef HAVE_ZSTD
  else
    {
      gsize bound = ZSTD_compressBound (events->len);
      g_autofree guint8 *packed = g_malloc (bound);
      gsize n = ZSTD_compress (packed, bound, events->data, events->len, 3);
      GByteArray *packet = proto_message ();

      g_assert_false (ZSTD_isError (n));
      proto_put_bytes (packet, 133, packed, n);
      proto_put_message (trace, 1, packet);
    }
#endif
  g_byte_array_unref (events);
  return g_byte_array_free_to_bytes (trace);
}

static void
check_rich_trace (StrataTrace *trace)
{
  const StrataSpanTable *main_calls = strata_trace_get_thread (trace, 0)->spans;
  const StrataSpanTable *io_calls = strata_trace_get_thread (trace, 1)->spans;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) args = NULL;
  g_autoptr(JsonNode) expected = NULL;
  g_autofree char *text = NULL;
  const StrataFlow *flow;

  g_assert_cmpuint (strata_trace_get_n_clocks (trace), ==, 2);
  g_assert_cmpint (strata_span_table_get_start (main_calls, 1, 0, 0), ==, 10000);
  g_assert_cmpint (strata_span_table_get_end (main_calls, 1, 0, 0), ==, 30000);
  g_assert_cmpint (strata_span_table_get_start (io_calls, 1, 0, 0), ==, 100000);
  g_assert_cmpint (strata_span_table_get_end (io_calls, 1, 0, 0), ==, 103000);
  g_assert_cmpint (strata_span_table_get_end (main_calls, 0, 0, 0), ==, 5000);

  args = strata_event_args_read (trace, strata_span_table_get_source (main_calls, 0, 0), NULL, &error);
  g_assert_no_error (error);
  /* Members in any order. */
  expected = json_from_string ("{\"url\":\"https://example.org/\",\"count\":-5,\"ratio\":3.25,\"on\":true,\"at\":\"0xbeef\","
                               "\"json\":{\"a\":[1,2]},\"bad\\\"json\":\"{\\\"a\\\": \","
                               "\"dict\":{\"big\":18446744073709551615},\"list\":[\"x\",2],\"nested\":{\"k\":[7]}}", &error);
  g_assert_no_error (error);
  text = json_to_string (args, FALSE);
  g_test_message ("args: %s", text);
  g_assert_true (json_node_equal (args, expected));
  g_clear_pointer (&args, json_node_unref);
  g_clear_pointer (&text, g_free);
  args = strata_event_args_read (trace, strata_span_table_get_source (io_calls, 0, 0), NULL, &error);
  g_assert_no_error (error);
  text = json_to_string (args, FALSE);
  g_assert_cmpstr (text, ==, "{}");

  g_assert_cmpuint (strata_trace_get_n_flows (trace), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      flow = strata_trace_get_flow (trace, i);
      g_assert_cmpuint (flow->from.thread, ==, 0);
      g_assert_cmpuint (flow->from.depth, ==, 0);
      g_assert_cmpuint (flow->to.thread, ==, 1);
      g_assert_cmpuint (flow->to.depth, ==, 0);
    }
  g_assert_cmpuint (strata_trace_get_n_events (trace), ==, 1);
}

static void
test_perfetto_annotations_flows (void)
{
  for (guint zstd = 0; zstd < 2; zstd++)
    {
      g_autoptr(GBytes) bytes = NULL;
      g_autofree char *path = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(StrataTrace) trace = NULL;

#ifndef HAVE_ZSTD
      if (zstd)
        {
          g_test_message ("built without libzstd: zstd packets are not read");
          break;
        }
#endif
      bytes = write_rich_trace (zstd);
      path = strata_test_write_file ("rich.pftrace", g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      trace = strata_test_load_path (path, &error);
      g_assert_no_error (error);
      check_rich_trace (trace);
    }
}

/* ---- One page recorded by Chrome as JSON and as protobuf ---- */

/* V8's interrupts come when its budget runs out: how many differs from
 * run to run. The list of processes is only written to protobuf. */
static gboolean
varies_between_runs (const char *name)
{
  return g_str_has_prefix (name, "V8.") || g_str_equal (name, "ActiveProcesses");
}

static const char *
thread_name (StrataTrace *trace,
             guint        thread)
{
  return thread == STRATA_NO_THREAD ? "-" : strata_trace_get_string (trace, strata_trace_get_thread (trace, thread)->name);
}

static gint
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* Each call and event as "kind thread name", sorted. */
static GPtrArray *
census (StrataTrace *trace)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    {
      const StrataSpanTable *table = strata_trace_get_thread (trace, t)->spans;

      for (guint d = 0; table != NULL && d < table->n_depths; d++)
        for (guint32 i = 0; i < table->n_spans[d]; i++)
          {
            const char *name = strata_trace_get_method_name (trace, table->calls[d][i].method);

            if (!varies_between_runs (name))
              g_ptr_array_add (lines, g_strdup_printf ("call %s %u %s", thread_name (trace, t), d, name));
          }
    }
  for (guint i = 0; i < strata_trace_get_n_events (trace); i++)
    {
      const StrataEvent *event = strata_trace_get_event (trace, i);
      const char *name = strata_trace_get_string (trace, event->name);

      if (!varies_between_runs (name))
        g_ptr_array_add (lines, g_strdup_printf ("%c %s %s", event->phase == 'I' ? 'i' : event->phase,
                                               thread_name (trace, event->thread), name));
    }
  g_ptr_array_sort (lines, compare_lines);
  return lines;
}

static StrataTrace *
load_chrome_fixture (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "chrome", name, NULL);
  g_autoptr(GError) error = NULL;
  StrataTrace *trace = strata_test_load_path (path, &error);

  g_assert_no_error (error);
  return trace;
}

static guint
count_prefixed (GPtrArray  *lines,
                const char *prefix)
{
  guint n = 0;

  for (guint i = 0; i < lines->len; i++)
    n += g_str_has_prefix (lines->pdata[i], prefix);
  return n;
}

/* The same page, recorded once per format: the same calls on the same
 * threads, the same marks and the same measures. */
static void
test_perfetto_chrome_json_and_proto (void)
{
  g_autoptr(StrataTrace) proto = load_chrome_fixture ("user-timing.pftrace.gz");
  g_autoptr(StrataTrace) json = load_chrome_fixture ("user-timing.json.gz");
  g_autoptr(GPtrArray) from_proto = census (proto);
  g_autoptr(GPtrArray) from_json = census (json);
  g_autofree char *proto_text = NULL, *json_text = NULL;

  g_ptr_array_add (from_proto, NULL);
  g_ptr_array_add (from_json, NULL);
  proto_text = g_strjoinv ("\n", (char **) from_proto->pdata);
  json_text = g_strjoinv ("\n", (char **) from_json->pdata);
  g_ptr_array_set_size (from_proto, from_proto->len - 1);
  g_ptr_array_set_size (from_json, from_json->len - 1);
  g_assert_cmpstr (proto_text, ==, json_text);
  g_assert_cmpuint (strata_trace_get_format (proto), ==, STRATA_FORMAT_PERFETTO);
  g_assert_cmpuint (count_prefixed (from_proto, "i CrRendererMain strata-mark-"), ==, 40);
  g_assert_cmpuint (count_prefixed (from_proto, "b CrRendererMain strata-measure-"), ==, 10);
  g_assert_cmpuint (count_prefixed (from_proto, "call CrRendererMain 0 RunMicrotasks"), ==, 10);
  g_assert_cmpuint (count_prefixed (from_proto, "R CrRendererMain dom"), ==, 44);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/perfetto/track-events", test_perfetto_track_events);
  g_test_add_func ("/perfetto/cut", test_perfetto_cut);
  g_test_add_func ("/perfetto/cancel", test_perfetto_cancel);
  g_test_add_func ("/perfetto/annotations-flows", test_perfetto_annotations_flows);
  g_test_add_func ("/perfetto/chrome-json-and-proto", test_perfetto_chrome_json_and_proto);
  return g_test_run ();
}
