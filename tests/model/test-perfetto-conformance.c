/* test-perfetto-conformance.c: Perfetto's own track event tests
 *
 * tests/data/third-party/perfetto holds traces from Perfetto's
 * trace processor tests (test/trace_processor/diff_tests/parser/
 * track_event/, its .textproto files, encoded with protoc and Perfetto's
 * perfetto_trace.proto) and each test here checks what Strata reads
 * against the rows Perfetto's tests.py expects of its own parser: slices
 * (ts, dur, name, thread), counters (ts, value) and flows (the slices
 * they join). Where the two models differ (an instant is a zero-length
 * slice in Perfetto, an event in Strata) the rows are compared by what
 * both say.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-test-util.h"

static StrataTrace *
load_fixture (const char *name)
{
  g_autofree char *file = g_strconcat (name, ".pftrace", NULL);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "third-party", "perfetto", file, NULL);
  g_autoptr(GError) error = NULL;
  StrataTrace *trace = strata_test_load_path (path, &error);

  g_assert_no_error (error);
  g_assert_cmpint (strata_trace_get_format (trace), ==, STRATA_FORMAT_PERFETTO);
  return trace;
}

static const char *
where (StrataTrace *trace,
       guint        thread,
       guint        process)
{
  if (thread != STRATA_NO_THREAD)
    return strata_trace_get_string (trace, strata_trace_get_thread (trace, thread)->name);
  return strata_trace_get_string (trace, strata_trace_get_process (trace, process)->name);
}

static const char *
call_name (StrataTrace          *trace,
           const StrataSliceRef *ref)
{
  const StrataSpanTable *table = strata_trace_get_thread (trace, ref->thread)->spans;

  return strata_trace_get_method_name (trace, table->calls[ref->depth][ref->index].method);
}

static gint
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* Rows of @kind ("slice", "counter" or "flow"), sorted, one per line. */
static char *
rows (StrataTrace *trace,
      const char  *kind)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);

  if (g_str_equal (kind, "slice"))
    {
      for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
        {
          const StrataSpanTable *table = strata_trace_get_thread (trace, t)->spans;

          for (guint d = 0; table != NULL && d < table->n_depths; d++)
            for (guint32 i = 0; i < table->n_spans[d]; i++)
              g_ptr_array_add (lines, g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %s %s", strata_span_table_start (table, d, i),
                                                       strata_span_table_end (table, d, i) - strata_span_table_start (table, d, i),
                                                       strata_trace_get_method_name (trace, table->calls[d][i].method),
                                                       where (trace, t, 0)));
        }
      for (guint i = 0; i < strata_trace_get_n_events (trace); i++)
        {
          const StrataEvent *event = strata_trace_get_event (trace, i);

          g_ptr_array_add (lines, g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %s %s", event->start, event->end - event->start,
                                                   strata_trace_get_string (trace, event->name),
                                                   where (trace, event->thread, event->process)));
        }
    }
  else if (g_str_equal (kind, "counter"))
    for (guint c = 0; c < strata_trace_get_n_counters (trace); c++)
      {
        const StrataCounter *counter = strata_trace_get_counter (trace, c);

        for (gsize i = 0; i < counter->n_samples; i++)
          g_ptr_array_add (lines, g_strdup_printf ("%s %" G_GINT64_FORMAT " %.6f", strata_trace_get_string (trace, counter->name),
                                                   counter->times[i], counter->values[0][i]));
      }
  else
    for (guint i = 0; i < strata_trace_get_n_flows (trace); i++)
      {
        const StrataFlow *flow = strata_trace_get_flow (trace, i);

        g_ptr_array_add (lines, g_strdup_printf ("%s -> %s", call_name (trace, &flow->from), call_name (trace, &flow->to)));
      }
  g_ptr_array_sort (lines, compare_lines);
  g_ptr_array_add (lines, NULL);
  return g_strjoinv ("\n", (char **) lines->pdata);
}

static void
check_rows (const char *fixture,
            const char *kind,
            const char *expected)
{
  g_autoptr(StrataTrace) trace = load_fixture (fixture);
  g_autofree char *actual = rows (trace, kind);

  g_assert_cmpstr (actual, ==, expected);
}

/* test_flow_events_proto_v1: legacy flow steps s/t/f. */
static void
test_flows_v1 (void)
{
  check_rows ("flow_events_proto_v1", "flow",
              "FlowBeginSlice -> FlowEndSlice_1\n"
              "FlowEndSlice_1 -> FlowStepSlice\n"
              "FlowStepSlice -> FlowEndSlice_2");
}

/* test_flow_events_proto_v2: bind_id with a direction. */
static void
test_flows_v2 (void)
{
  check_rows ("flow_events_proto_v2", "flow",
              "FlowBeginSlice -> FlowEndSlice_1\n"
              "FlowBeginSlice -> FlowStepSlice\n"
              "FlowStepSlice -> FlowEndSlice_2");
}

/* test_flow_events_track_event: flow_ids and terminating_flow_ids.
 * Perfetto's flows also join instants and async slices (its slices);
 * Strata's join calls, as in JSON, and the rest are counted: Perfetto's
 * first three rows, and a note for the four steps on async tracks
 * (three on "async", a process-scoped instant). */
static void
test_flows_track_event (void)
{
  g_autoptr(StrataTrace) trace = load_fixture ("flow_events_track_event");

  check_rows ("flow_events_track_event", "flow",
              "FlowSlice1Start -> FlowSlice1End\n"
              "FlowSlice1Start2Start -> FlowSlice1End\n"
              "FlowSlice1Start2Start -> FlowSlice2End");
  g_assert_true (strata_test_has_note (trace, "4 flow steps came on events that are not calls"));
}

/* test_legacy_async_event: S, T, p and F matched by id across two
 * sequences' threads. */
static void
test_legacy_async (void)
{
  check_rows ("legacy_async_event", "slice",
              "1000 7000 name1 t1\n"
              "2000 1000 name1 t1\n"
              "3000 0 name1 t1\n"
              "5000 0 name1 t1");
}

/* test_track_event_tracks_slices: threads, processes, async tracks, the
 * default track, tid and pid reuse, legacy scopes and overrides. Perfetto
 * names the track where Strata names the thread or process it is under
 * ("async" and "async2" are p1's, "async3" t2's, "Default Track" is
 * Strata's global tracks). */
static void
test_tracks (void)
{
  check_rows ("track_event_tracks", "slice",
              "1000 0 event1_on_t1 t1\n"
              "11000 0 event1_on_t3 t3\n"
              "2000 0 event1_on_t2 t2\n"
              "21000 0 event1_on_p2 p2\n"
              "22000 0 event1_on_t4 t4\n"
              "3000 0 event2_on_t2 t2\n"
              "30000 0 event1_on_t1 Global tracks\n"
              "31000 0 event2_on_p2 p2\n"
              "32000 0 event2_on_t4 t4\n"
              "4000 0 event1_on_p1 p1\n"
              "40000 0 event_and_track_async3 p2\n"
              "5000 0 event1_on_async p1\n"
              "5100 100 event1_on_async2 p1\n"
              "6000 0 event1_on_async3 t2\n"
              "6000 0 event3_on_t1 t1");
}

/* test_track_event_counters_slices and _counters: counter tracks (int,
 * double, extra ones, a unit multiplier) and thread time, which Perfetto
 * keeps as a counter and Strata as the second clock of the calls. */
static void
test_counters (void)
{
  g_autoptr(StrataTrace) trace = load_fixture ("track_event_counters");
  const StrataSpanTable *t1 = strata_trace_get_thread (trace, 0)->spans;

  check_rows ("track_event_counters", "slice",
              "1000 100 event1_on_t1 t1\n"
              "2000 200 event2_on_t1 t1\n"
              "2000 200 event3_on_t1 t1\n"
              "4000 0 event4_on_t1 t1\n"
              "4000 100 event1_on_t3 t4\n"
              "4300 0 float_counter_on_t1 t1\n"
              "4500 0 float_counter_on_t1 t1");
  check_rows ("track_event_counters", "counter",
              "MyDoubleCounter 4200 3.141593\n"
              "MyDoubleCounter 4300 0.500000\n"
              "MyDoubleCounter 4500 2.718280\n"
              "MySizeCounter 3000 1024.000000\n"
              "MySizeCounter 3100 2048.000000\n"
              "MySizeCounter 4000 1024.000000\n"
              "MySizeCounter 4500 4096.000000");
  /* thread_time on t1: 1,000,000 ns at 1000, 1,010,000 at 1100. */
  g_assert_cmpstr (strata_trace_get_string (trace, strata_trace_get_thread (trace, 0)->name), ==, "t1");
  g_assert_cmpuint (strata_trace_get_n_clocks (trace), ==, 2);
  g_assert_cmpint (strata_span_table_get_start (t1, 1, 0, 0), ==, 1000000);
  g_assert_cmpint (strata_span_table_get_end (t1, 1, 0, 0), ==, 1010000);
}

/* test_incremental_counter_sequences: one incremental counter written
 * by two sequences, each summing its own deltas. */
static void
test_incremental_counter (void)
{
  check_rows ("incremental_counter_sequences", "counter",
              "MyIncrementalCounter 100 100.000000\n"
              "MyIncrementalCounter 150 50.000000\n"
              "MyIncrementalCounter 200 110.000000\n"
              "MyIncrementalCounter 250 55.000000");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/perfetto-conformance/flows-v1", test_flows_v1);
  g_test_add_func ("/perfetto-conformance/flows-v2", test_flows_v2);
  g_test_add_func ("/perfetto-conformance/flows-track-event", test_flows_track_event);
  g_test_add_func ("/perfetto-conformance/legacy-async", test_legacy_async);
  g_test_add_func ("/perfetto-conformance/tracks", test_tracks);
  g_test_add_func ("/perfetto-conformance/counters", test_counters);
  g_test_add_func ("/perfetto-conformance/incremental-counter", test_incremental_counter);
  return g_test_run ();
}
