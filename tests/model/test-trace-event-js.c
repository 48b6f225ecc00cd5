/* test-trace-event-js.c: JavaScript samples in Trace Event files
 *
 * V8's sampling profile, recorded into the trace as Profile and
 * ProfileChunk events, becomes calls of the thread that ran the script,
 * laid out among its trace events as DevTools draws them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-profile.h"
#include "strata-test-util.h"
#include "strata-v8-stacks.h"
#include "strata-v8-text.h"


static guint
n_spans_at (const StrataThread *thread,
            guint               depth)
{
  return depth < thread->spans->n_depths ? thread->spans->n_spans[depth] : 0;
}

/* V8's JavaScript samples in Profile and ProfileChunk events: nodes over
 * two chunks linked by "parent", deltas across chunks and one going back,
 * as calls of the thread that recorded them. */
static void
test_chunks (void)
{
  const char *json =
    "{\"traceEvents\":[\n"
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":2,\"args\":{\"name\":\"main\"}},\n"
    "{\"ph\":\"P\",\"name\":\"Profile\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":1000,\"args\":{\"data\":{\"startTime\":1000}}},\n"
    "{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x1\",\"pid\":1,\"tid\":3,\"ts\":1100,\"args\":{\"data\":{"
    "\"cpuProfile\":{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}},"
    "{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"run\",\"url\":\"a.js\",\"lineNumber\":0,\"columnNumber\":0}}],"
    "\"samples\":[2,2]},\"timeDeltas\":[0,100]}}},\n"
    "{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x1\",\"pid\":1,\"tid\":3,\"ts\":1300,\"args\":{\"data\":{"
    "\"cpuProfile\":{\"nodes\":[{\"id\":3,\"parent\":2,\"callFrame\":{\"functionName\":\"\",\"url\":\"a.js\",\"lineNumber\":4,\"columnNumber\":2}}],"
    "\"samples\":[3,3,2]},\"timeDeltas\":[100,-50,150]}}},\n"
    "{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x1\",\"pid\":1,\"tid\":3,\"ts\":1400,\"args\":{\"data\":7}}\n"
    "]}\n";
  g_autofree char *path = strata_test_write_file ("profile.json", json, strlen (json));
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_path (path, &error);
  g_autoptr(StrataProfile) profile = NULL;
  const StrataThread *main_thread;
  guint32 run = G_MAXUINT32, anonymous = G_MAXUINT32;
  gboolean listed = FALSE;

  g_assert_no_error (error);
  /* The chunks' own thread (tid 3) has no calls; no other is made. */
  g_assert_cmpuint (strata_trace_get_n_threads (trace), ==, 2);
  main_thread = strata_test_thread_by_tid (trace, 2);
  g_assert_cmpstr (strata_trace_get_string (trace, main_thread->name), ==, "main");
  strata_test_assert_span (trace, main_thread, 0, 0, "run (a.js:1:1)", 1000000, 1375000);
  strata_test_assert_span (trace, main_thread, 1, 0, "(anonymous) (a.js:5:3)", 1150000, 1300000);
  for (guint32 m = 0; m < strata_trace_get_n_methods (trace); m++)
    {
      if (g_str_equal (strata_trace_get_method_name (trace, m), "run (a.js:1:1)"))
        run = m;
      if (g_str_equal (strata_trace_get_method_name (trace, m), "(anonymous) (a.js:5:3)"))
        anonymous = m;
    }
  g_assert_cmpuint (run, !=, G_MAXUINT32);
  g_assert_cmpuint (anonymous, !=, G_MAXUINT32);
  profile = strata_profile_new (trace, -1, NULL, &error);
  g_assert_no_error (error);
  /* Samples at 1000, 1100 (run), 1200 (anonymous), then 1150 put before
   * it (anonymous), 1300 (run), lasting one interval (75 µs): run holds
   * 1000 to 1375, anonymous 1150 to 1300. */
  g_assert_cmpint (strata_profile_get_entry (profile, run)->inclusive[0], ==, 375000);
  g_assert_cmpint (strata_profile_get_entry (profile, anonymous)->inclusive[0], ==, 150000);
  g_assert_true (strata_test_has_diagnostic (trace, "put in time order"));
  g_assert_true (strata_test_has_diagnostic (trace, "could not be read"));
  /* Chunks read are their calls; only the one that could not be read
   * stays an event, to be looked at. */
  g_assert_cmpuint (strata_trace_get_n_events (trace), ==, 1);
  g_assert_cmpint (strata_trace_get_event (trace, 0)->start, ==, 1400000);
  for (guint i = 0; i < strata_trace_get_n_metadata (trace); i++)
    {
      const char *key, *value;

      strata_trace_get_metadata (trace, i, &key, &value);
      listed |= g_str_equal (key, "JavaScript samples") && g_str_equal (value, "5 in 1 profile");
    }
  g_assert_true (listed);
}


/* One profile of one thread, its nodes and samples (µs apart), beside
 * trace events of that thread: a task runs a function call, whose
 * script forces a layout and collects garbage. */
static const char nested_trace[] =
  "{\"traceEvents\":[\n"
  "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":2,\"args\":{\"name\":\"main\"}},\n"
  "{\"ph\":\"X\",\"name\":\"RunTask\",\"pid\":1,\"tid\":2,\"ts\":5,\"dur\":95},\n"
  "{\"ph\":\"X\",\"name\":\"FunctionCall\",\"pid\":1,\"tid\":2,\"ts\":10,\"dur\":80},\n"
  "{\"ph\":\"X\",\"name\":\"Layout\",\"pid\":1,\"tid\":2,\"ts\":40,\"dur\":10},\n"
  "{\"ph\":\"P\",\"name\":\"Profile\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":0,\"args\":{\"data\":{\"startTime\":0}}},\n"
  "{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":100,\"args\":{\"data\":{"
  "\"cpuProfile\":{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}},"
  "{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"run\",\"url\":\"a.js\",\"lineNumber\":0,\"columnNumber\":0}},"
  "{\"id\":3,\"parent\":2,\"callFrame\":{\"functionName\":\"inner\",\"url\":\"a.js\",\"lineNumber\":9,\"columnNumber\":0}},"
  "{\"id\":4,\"parent\":1,\"callFrame\":{\"functionName\":\"(garbage collector)\"}},"
  "{\"id\":5,\"parent\":1,\"callFrame\":{\"functionName\":\"stray\",\"url\":\"b.js\",\"lineNumber\":0,\"columnNumber\":0}},"
  "{\"id\":6,\"parent\":1,\"callFrame\":{\"functionName\":\"(program)\"}},"
  "{\"id\":7,\"parent\":1,\"callFrame\":{\"functionName\":\"(idle)\"}}],"
  "\"samples\":[5,2,3,3,2,4,2,6,7]},\"timeDeltas\":[0,10,20,15,15,10,10,10,5]}}}\n"
  "]}\n";

/* Samples at 0 (stray), 10 (run), 30 and 45 (inner, the second during
 * the layout), 60 (run), 70 (garbage, on run's stack), 80 (run), 90
 * (the engine) and 95 (idle). */
static void
assert_nested (const char *json)
{
  g_autofree char *path = strata_test_write_file ("nested.json", json, strlen (json));
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_path (path, &error);
  const StrataThread *thread;

  g_assert_no_error (error);
  g_assert_cmpuint (strata_trace_get_n_threads (trace), ==, 1);
  thread = strata_test_thread_by_tid (trace, 2);
  /* The task starts with no script running: stray ends there. */
  strata_test_assert_span (trace, thread, 0, 0, "stray (b.js:1:1)", 0, 5000);
  strata_test_assert_span (trace, thread, 0, 1, "RunTask", 5000, 100000);
  strata_test_assert_span (trace, thread, 1, 0, "FunctionCall", 10000, 90000);
  /* What the call ran ends with it. */
  strata_test_assert_span (trace, thread, 2, 0, "run (a.js:1:1)", 10000, 90000);
  strata_test_assert_span (trace, thread, 3, 0, "inner (a.js:10:1)", 30000, 60000);
  strata_test_assert_span (trace, thread, 3, 1, "(garbage collector)", 70000, 80000);
  /* The layout inner forced runs under it. */
  strata_test_assert_span (trace, thread, 4, 0, "Layout", 40000, 50000);
  g_assert_cmpuint (n_spans_at (thread, 0), ==, 2);
  g_assert_cmpuint (n_spans_at (thread, 1), ==, 1);
  g_assert_cmpuint (n_spans_at (thread, 2), ==, 1);
  g_assert_cmpuint (n_spans_at (thread, 3), ==, 2);
  g_assert_cmpuint (n_spans_at (thread, 4), ==, 1);
  g_assert_cmpuint (n_spans_at (thread, 5), ==, 0);
  g_assert_false (strata_test_has_diagnostic (trace, "ran past"));
}

static void
test_nested (void)
{
  assert_nested (nested_trace);
}

/* Trace events written as they end, the innermost first, are put in
 * the order they start before the samples go among them. */
static void
test_unsorted_events (void)
{
  static const char task[] = "{\"ph\":\"X\",\"name\":\"RunTask\",\"pid\":1,\"tid\":2,\"ts\":5,\"dur\":95},\n";
  static const char call[] = "{\"ph\":\"X\",\"name\":\"FunctionCall\",\"pid\":1,\"tid\":2,\"ts\":10,\"dur\":80},\n";
  static const char layout[] = "{\"ph\":\"X\",\"name\":\"Layout\",\"pid\":1,\"tid\":2,\"ts\":40,\"dur\":10},\n";
  g_autofree char *in_order = g_strconcat (task, call, layout, NULL);
  g_autofree char *as_ended = g_strconcat (layout, call, task, NULL);
  g_autoptr(GString) json = g_string_new (nested_trace);

  g_assert_cmpuint (g_string_replace (json, in_order, as_ended, 1), ==, 1);
  assert_nested (json->str);
}

/* Trace events nested deeper than the table takes are laid out by the
 * builder, with the samples among them: each event and frame once, the
 * layout that ran past its parent cut once, the frame inside it. */
static void
test_deep_events (void)
{
  const guint n = 5000;
  g_autoptr(GString) json = g_string_new ("{\"traceEvents\":[\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = NULL;
  g_autofree char *path = NULL;
  const StrataThread *thread;

  for (guint i = 0; i < n; i++)
    g_string_append_printf (json, "{\"ph\":\"X\",\"name\":\"FunctionCall\",\"pid\":1,\"tid\":2,\"ts\":%u,\"dur\":%u},\n",
                            i, 3 * n - 2 * i);
  /* Past its parent's end (2n + 1), cut there. */
  g_string_append_printf (json, "{\"ph\":\"X\",\"name\":\"Layout\",\"pid\":1,\"tid\":2,\"ts\":%u,\"dur\":%u},\n", n, 2 * n);
  g_string_append_printf (json, "{\"ph\":\"X\",\"name\":\"Paint\",\"pid\":1,\"tid\":2,\"ts\":%u,\"dur\":0},\n", n + 1);
  g_string_append_printf (json,
                          "{\"ph\":\"P\",\"name\":\"Profile\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":0,\"args\":{\"data\":{\"startTime\":%u}}},\n"
                          "{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":%u,\"args\":{\"data\":{"
                          "\"cpuProfile\":{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}},"
                          "{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"spin\"}}],"
                          "\"samples\":[2,2]},\"timeDeltas\":[0,1]}}}\n]}\n", n, n);
  path = strata_test_write_file ("deep-events.json", json->str, json->len);
  trace = strata_test_load_path (path, &error);
  g_assert_no_error (error);
  thread = strata_test_thread_by_tid (trace, 2);
  g_assert_cmpuint (thread->spans->n_depths, ==, n + 3);
  g_assert_cmpuint (strata_span_table_get_n_spans (thread->spans), ==, n + 3);
  strata_test_assert_span (trace, thread, n - 1, 0, "FunctionCall", (gint64) (n - 1) * 1000, (gint64) (2 * n + 1) * 1000);
  strata_test_assert_span (trace, thread, n, 0, "Layout", (gint64) n * 1000, (gint64) (2 * n + 1) * 1000);
  g_assert_cmpuint (n_spans_at (thread, n + 1), ==, 1);
  g_assert_cmpuint (n_spans_at (thread, n + 2), ==, 1);
  g_assert_true (strata_test_has_diagnostic (trace, "1 slice ran past the end of its parent"));
}

/* A sample taken during an event the script called says another
 * function runs: it does from the event's end, not before. */
static void
test_return_to_script (void)
{
  const char *json =
    "{\"traceEvents\":[\n"
    "{\"ph\":\"X\",\"name\":\"FunctionCall\",\"pid\":1,\"tid\":2,\"ts\":0,\"dur\":100},\n"
    "{\"ph\":\"X\",\"name\":\"MinorGC\",\"pid\":1,\"tid\":2,\"ts\":20,\"dur\":20},\n"
    "{\"ph\":\"P\",\"name\":\"Profile\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":0,\"args\":{\"data\":{\"startTime\":0}}},\n"
    "{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":100,\"args\":{\"data\":{"
    "\"cpuProfile\":{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}},"
    "{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"spin\"}},"
    "{\"id\":3,\"parent\":1,\"callFrame\":{\"functionName\":\"light\"}}],"
    "\"samples\":[2,3,3]},\"timeDeltas\":[0,30,30]}}}\n"
    "]}\n";
  g_autofree char *path = strata_test_write_file ("return.json", json, strlen (json));
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_path (path, &error);
  const StrataThread *thread;

  g_assert_no_error (error);
  thread = strata_test_thread_by_tid (trace, 2);
  strata_test_assert_span (trace, thread, 0, 0, "FunctionCall", 0, 100000);
  strata_test_assert_span (trace, thread, 1, 0, "spin", 0, 40000);
  strata_test_assert_span (trace, thread, 1, 1, "light", 40000, 90000);
  strata_test_assert_span (trace, thread, 2, 0, "MinorGC", 20000, 40000);
}

/* What chunks hold besides plain numbers: a node listed before its
 * parent, an escaped name, a sample id written as a fraction, one that
 * is no number (dropped and counted), deltas that are no integers. */
static void
test_chunk_values (void)
{
  const char *json =
    "{\"traceEvents\":[\n"
    "{\"ph\":\"P\",\"name\":\"Profile\",\"id\":\"0x2\",\"pid\":1,\"tid\":2,\"ts\":0,\"args\":{\"data\":{\"startTime\":0.0}}},\n"
    "{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x2\",\"pid\":1,\"tid\":2,\"ts\":100,\"args\":{\"data\":{"
    "\"timeDeltas\":[0, 10.0 ,10,1e1],"
    "\"cpuProfile\":{\"samples\":[3,3.0,\"x\",3],\"nodes\":["
    "{\"id\":3,\"parent\":2,\"callFrame\":{\"functionName\":\"say \\\"hi\\\"\",\"url\":\"a.js\",\"lineNumber\":1,\"columnNumber\":2}},"
    "{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"outer\",\"url\":\"a.js\",\"lineNumber\":0,\"columnNumber\":0}},"
    "{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}}]}}}}\n"
    "]}\n";
  g_autofree char *path = strata_test_write_file ("values.json", json, strlen (json));
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_path (path, &error);
  const StrataThread *thread;

  g_assert_no_error (error);
  thread = strata_test_thread_by_tid (trace, 2);
  /* Samples at 0, 10 and 30 µs (the one at 20 dropped), the last
   * lasting the mean interval of the three: 15 µs. */
  strata_test_assert_span (trace, thread, 0, 0, "outer (a.js:1:1)", 0, 45000);
  strata_test_assert_span (trace, thread, 1, 0, "say \"hi\" (a.js:2:3)", 0, 45000);
  g_assert_true (strata_test_has_diagnostic (trace, "1 sample"));
}

/* A task starts and ends while one function is sampled on and on: it
 * runs again from the first sample inside the task. */
static void
test_run_across_task (void)
{
  const char *json =
    "{\"traceEvents\":[\n"
    "{\"ph\":\"X\",\"name\":\"RunTask\",\"pid\":1,\"tid\":2,\"ts\":25,\"dur\":50},\n"
    "{\"ph\":\"P\",\"name\":\"Profile\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":0,\"args\":{\"data\":{\"startTime\":0}}},\n"
    "{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":100,\"args\":{\"data\":{"
    "\"cpuProfile\":{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}},"
    "{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"loop\"}}],"
    "\"samples\":[2,2,2,2,2,2,2,2,2,2]},\"timeDeltas\":[0,10,10,10,10,10,10,10,10,10]}}}\n"
    "]}\n";
  g_autofree char *path = strata_test_write_file ("run.json", json, strlen (json));
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_path (path, &error);
  const StrataThread *thread;

  g_assert_no_error (error);
  thread = strata_test_thread_by_tid (trace, 2);
  /* Sampled every 10 µs from 0 to 90, lasting to 100: the task takes
   * it over at 25; the sample at 30 runs it inside the task. */
  strata_test_assert_span (trace, thread, 0, 0, "loop", 0, 25000);
  strata_test_assert_span (trace, thread, 0, 1, "RunTask", 25000, 75000);
  strata_test_assert_span (trace, thread, 1, 0, "loop", 30000, 75000);
  /* After the task, its next sample, at 80. */
  strata_test_assert_span (trace, thread, 0, 2, "loop", 80000, 100000);
}

/* A recording of JavaScript samples, @n_tasks tasks of 20 ms with a
 * chunk of 100 samples each: over 4 MB, so read on two threads. */
/* @n_threads threads (tids 2, 12, 22…) running the same tasks, each
 * with a profile of its own recorded by the thread after it. */
static GString *
write_recording (guint n_tasks,
                 guint n_threads)
{
  GString *text = g_string_new ("{\"traceEvents\":[\n");

  for (guint k = 0; k < n_threads; k++)
    g_string_append_printf (text, "{\"ph\":\"P\",\"name\":\"Profile\",\"id\":\"0x%u\",\"pid\":1,\"tid\":%u,\"ts\":0,"
                            "\"args\":{\"data\":{\"startTime\":0}}},\n", k + 1, 2 + 10 * k);
  for (guint t = 0; t < n_tasks; t++)
    for (guint k = 0; k < n_threads; k++)
      {
        guint tid = 2 + 10 * k;

        /* Args first, as Chrome writes them: a task's that look like a
         * profile's, and every other chunk's. */
        g_string_append_printf (text, "{\"args\":{\"data\":{\"cpuProfile\":{\"samples\":[3,3]},\"timeDeltas\":[9,9]}},"
                                "\"ph\":\"X\",\"name\":\"RunTask\",\"pid\":1,\"tid\":%u,\"ts\":%u,\"dur\":15000},\n",
                                tid, t * 20000);
        if (t % 2 == 0)
          g_string_append_printf (text, "{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x%u\",\"pid\":1,\"tid\":%u,"
                                  "\"ts\":%u,\"args\":{\"data\":{\"cpuProfile\":{", k + 1, tid + 1, t * 20000 + 20000);
        else
          g_string_append (text, "{\"args\":{\"data\":{\"cpuProfile\":{");
        if (t == 0)
          g_string_append (text, "\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}},"
                                 "{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"a\",\"url\":\"x.js\"}},"
                                 "{\"id\":3,\"parent\":2,\"callFrame\":{\"functionName\":\"b\",\"url\":\"x.js\"}},"
                                 "{\"id\":4,\"parent\":1,\"callFrame\":{\"functionName\":\"(idle)\"}}],");
        g_string_append (text, "\"samples\":[");
        for (guint i = 0; i < 100; i++)
          g_string_append_printf (text, "%s%u", i ? "," : "", i >= 75 ? 4 : 2 + (i * 7 + t) % 5 / 3);
        g_string_append (text, "]},\"timeDeltas\":[");
        for (guint i = 0; i < 100; i++)
          g_string_append_printf (text, "%s%d", i ? "," : "", i == 50 && t % 7 == 0 ? -30 : 200);
        if (t % 2 == 0)
          g_string_append (text, "]}}},\n");
        else
          g_string_append_printf (text, "]}},\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x%u\",\"pid\":1,"
                                  "\"tid\":%u,\"ts\":%u},\n", k + 1, tid + 1, t * 20000 + 20000);
      }
  g_string_append (text, "{\"ph\":\"M\",\"name\":\"end\",\"pid\":1,\"tid\":2}]}\n");
  return text;
}

static void
assert_same_calls (const StrataThread *a,
                   const StrataThread *b)
{
  g_assert_cmpuint (a->spans->n_depths, ==, b->spans->n_depths);
  for (guint d = 0; d < a->spans->n_depths; d++)
    {
      g_assert_cmpuint (a->spans->n_spans[d], ==, b->spans->n_spans[d]);
      strata_test_assert_same_calls (a->spans, b->spans, d);
    }
}

/* Threads laid out on two cores at once get the calls one would. */
static void
test_threads_apart (void)
{
  g_autoptr(GString) text = write_recording (800, 3);
  g_autofree char *path = strata_test_write_file ("threads.json", text->str, text->len);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_path (path, &error);
  const StrataThread *first;

  g_assert_no_error (error);
  first = strata_test_thread_by_tid (trace, 2);
  g_assert_cmpuint (first->spans->n_depths, ==, 3);
  assert_same_calls (first, strata_test_thread_by_tid (trace, 12));
  assert_same_calls (first, strata_test_thread_by_tid (trace, 22));
  g_assert_true (g_str_has_suffix (strata_test_metadata (trace, "JavaScript samples"), "000 in 3 profiles"));
}

/* Read on two threads (a plain file) or on one (the same gzipped), a
 * recording gives the same calls. */
static void
test_parallel_read (void)
{
  g_autoptr(GString) text = write_recording (6000, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) packed = NULL;
  g_autofree char *plain_path = NULL, *gzip_path = NULL;
  g_autoptr(StrataTrace) one = NULL, two = NULL;
  const StrataThread *a, *b;

  g_assert_cmpuint (text->len, >, 4 << 20);
  packed = strata_test_gzip (text->str, text->len);
  plain_path = strata_test_write_file ("parallel.json", text->str, text->len);
  gzip_path = strata_test_write_file ("parallel.json.gz", g_bytes_get_data (packed, NULL), g_bytes_get_size (packed));
  two = strata_test_load_path (plain_path, &error);
  g_assert_no_error (error);
  one = strata_test_load_path (gzip_path, &error);
  g_assert_no_error (error);
  a = strata_test_thread_by_tid (one, 2);
  b = strata_test_thread_by_tid (two, 2);
  g_assert_cmpuint (a->spans->n_depths, ==, 3);
  assert_same_calls (a, b);
  g_assert_true (strata_test_has_diagnostic (two, "put in time order"));
  /* Only the chunks' samples count, however their args were read. */
  g_assert_cmpstr (strata_test_metadata (one, "JavaScript samples"), ==, strata_test_metadata (two, "JavaScript samples"));
  g_assert_true (g_str_has_prefix (strata_test_metadata (one, "JavaScript samples"), "600") &&
                 g_str_has_suffix (strata_test_metadata (one, "JavaScript samples"), "000 in 1 profile"));
}

/* A recording of chunks whose samples' deltas come after them, as
 * Chrome writes them, or before them: with runs too long to add whole,
 * deltas that go back or beyond 32 bits, an id beyond 32 bits, and a
 * chunk whose samples come again after its deltas. */
static GString *
write_awkward_chunks (gboolean deltas_first)
{
  GString *text = g_string_new ("{\"traceEvents\":[\n"
                                "{\"ph\":\"P\",\"name\":\"Profile\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":0,"
                                "\"args\":{\"data\":{\"startTime\":0}}}");

  for (guint c = 0; c < 8; c++)
    {
      g_autoptr(GString) samples = g_string_new ("\"samples\":[");
      g_autoptr(GString) deltas = g_string_new ("\"timeDeltas\":[");
      guint n = c == 0 ? 70000 : 100000;

      for (guint i = 0; i < n; i++)
        {
          /* A run of 70,000 first: longer than a sample's run holds. */
          guint64 id = c == 0 && i < 70000 ? 2 : i % 97 == 5 ? G_GUINT64_CONSTANT (8589934593) : 2 + (i / 7) % 3;
          gint64 delta = i % 1001 == 7 ? -30 : i % 20011 == 9 ? G_GINT64_CONSTANT (8589934592) : 100 + i % 7;

          g_string_append_printf (samples, "%s%" G_GUINT64_FORMAT, i ? "," : "", id);
          g_string_append_printf (deltas, "%s%" G_GINT64_FORMAT, i ? "," : "", delta);
        }
      g_string_append_c (samples, ']');
      g_string_append_c (deltas, ']');
      g_string_append_printf (text, ",\n{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":%u,"
                              "\"args\":{\"data\":{", 100 + c);
      if (deltas_first)
        g_string_append_printf (text, "%s,", deltas->str);
      g_string_append (text, "\"cpuProfile\":{");
      if (c == 0)
        g_string_append (text, "\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}},"
                               "{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"a\"}},"
                               "{\"id\":3,\"parent\":2,\"callFrame\":{\"functionName\":\"b\"}},"
                               "{\"id\":4,\"parent\":3,\"callFrame\":{\"functionName\":\"c\"}},"
                               "{\"id\":8589934593,\"parent\":2,\"callFrame\":{\"functionName\":\"wide\"}}],");
      /* The last chunk's samples come again: the second ones count. */
      g_string_append_printf (text, "%s}%s%s", c == 7 ? "\"samples\":[4,4,4]" : samples->str,
                              deltas_first ? "" : ",", deltas_first ? "" : deltas->str);
      if (c == 7)
        g_string_append_printf (text, ",\"cpuProfile\":{%s}", samples->str);
      g_string_append (text, "}}}");
    }
  g_string_append (text, "\n]}\n");
  return text;
}

/* Deltas grouped as they are read, not kept, give the calls deltas
 * kept and grouped after give: read in parallel or not. */
static void
test_grouped_as_read (void)
{
  g_autoptr(GString) chrome = write_awkward_chunks (FALSE);
  g_autoptr(GString) kept = write_awkward_chunks (TRUE);
  g_autofree char *chrome_path = strata_test_write_file ("chrome-order.json", chrome->str, chrome->len);
  g_autofree char *kept_path = strata_test_write_file ("deltas-first.json", kept->str, kept->len);
  g_autoptr(GBytes) zipped = NULL;
  g_autofree char *zipped_path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) a = NULL, b = NULL, c = NULL;

  g_assert_cmpuint (chrome->len, >, 4 << 20);
  zipped = strata_test_gzip (chrome->str, chrome->len);
  zipped_path = strata_test_write_file ("chrome-order.json.gz", g_bytes_get_data (zipped, NULL), g_bytes_get_size (zipped));
  a = strata_test_load_path (chrome_path, &error);
  g_assert_no_error (error);
  b = strata_test_load_path (kept_path, &error);
  g_assert_no_error (error);
  c = strata_test_load_path (zipped_path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strata_test_thread_by_tid (a, 2)->spans->n_depths, ==, 3);
  assert_same_calls (strata_test_thread_by_tid (a, 2), strata_test_thread_by_tid (b, 2));
  assert_same_calls (strata_test_thread_by_tid (c, 2), strata_test_thread_by_tid (b, 2));
  g_assert_cmpstr (strata_test_metadata (a, "JavaScript samples"), ==, strata_test_metadata (b, "JavaScript samples"));
}

/* The thread's calls written straight into its table: trace events with
 * thread times and a flow, a moment inside a JavaScript frame, and a
 * second thread whose samples are all idle. */
static const char table_trace[] =
  "{\"traceEvents\":[\n"
  "{\"ph\":\"X\",\"name\":\"RunTask\",\"pid\":1,\"tid\":2,\"ts\":5,\"dur\":95,\"tts\":1000,\"tdur\":90},\n"
  "{\"ph\":\"X\",\"name\":\"FunctionCall\",\"pid\":1,\"tid\":2,\"ts\":10,\"dur\":80,\"tts\":1004,\"tdur\":70,"
  "\"bind_id\":\"0x9\",\"flow_out\":true},\n"
  "{\"ph\":\"X\",\"name\":\"Mark\",\"pid\":1,\"tid\":2,\"ts\":35,\"dur\":0},\n"
  "{\"ph\":\"X\",\"name\":\"MinorGC\",\"pid\":1,\"tid\":2,\"ts\":40,\"dur\":5,\"tts\":1040,\"tdur\":4},\n"
  "{\"ph\":\"X\",\"name\":\"Later\",\"pid\":1,\"tid\":3,\"ts\":95,\"dur\":2,\"bind_id\":\"0x9\",\"flow_in\":true},\n"
  "{\"ph\":\"P\",\"name\":\"Profile\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":0,\"args\":{\"data\":{\"startTime\":0}}},\n"
  "{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":100,\"args\":{\"data\":{"
  "\"cpuProfile\":{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}},"
  "{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"run\",\"url\":\"a.js\",\"lineNumber\":0,\"columnNumber\":0}},"
  "{\"id\":3,\"parent\":2,\"callFrame\":{\"functionName\":\"inner\",\"url\":\"a.js\",\"lineNumber\":9,\"columnNumber\":0}}],"
  "\"samples\":[2,3,2]},\"timeDeltas\":[10,20,30]}}},\n"
  "{\"ph\":\"P\",\"name\":\"Profile\",\"id\":\"0x2\",\"pid\":1,\"tid\":4,\"ts\":0,\"args\":{\"data\":{\"startTime\":0}}},\n"
  "{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x2\",\"pid\":1,\"tid\":4,\"ts\":100,\"args\":{\"data\":{"
  "\"cpuProfile\":{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}},"
  "{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"(idle)\"}}],"
  "\"samples\":[2,2]},\"timeDeltas\":[10,10]}}}\n"
  "]}\n";

static void
test_table (void)
{
  g_autofree char *path = strata_test_write_file ("table.json", table_trace, strlen (table_trace));
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_path (path, &error);
  g_autoptr(StrataProfile) profile = NULL;
  const StrataThread *thread, *idle;
  const StrataFlow *flow;

  g_assert_no_error (error);
  thread = strata_test_thread_by_tid (trace, 2);
  strata_test_assert_span (trace, thread, 0, 0, "RunTask", 5000, 100000);
  strata_test_assert_span (trace, thread, 1, 0, "FunctionCall", 10000, 90000);
  /* The profile ends one mean interval after its last sample. */
  strata_test_assert_span (trace, thread, 2, 0, "run (a.js:1:1)", 10000, 85000);
  strata_test_assert_span (trace, thread, 3, 0, "inner (a.js:10:1)", 30000, 60000);
  /* A moment goes where the stack stands at its time. */
  strata_test_assert_span (trace, thread, 4, 0, "Mark", 35000, 35000);
  /* Trace events keep their thread times and their place in the file;
   * a frame is a moment on the thread clock and has no place. */
  g_assert_cmpint (strata_span_table_get_start (thread->spans, 1, 1, 0), ==, 1004000);
  g_assert_cmpint (strata_span_table_get_end (thread->spans, 1, 1, 0), ==, 1074000);
  g_assert_cmpint (strata_span_table_get_start (thread->spans, 1, 2, 0), ==,
                   strata_span_table_get_end (thread->spans, 1, 2, 0));
  /* A sampled thread's depths keep the thread times of their trace
   * events alone; frames are moments at their callers' starts, found and
   * searched as such. */
  g_assert_null (thread->spans->second[1]);
  g_assert_cmpuint (thread->spans->sparse_second[1].n, ==, 1);
  g_assert_cmpuint (thread->spans->sparse_second[2].n, ==, 0);
  g_assert_cmpuint (thread->spans->sparse_second[3].n, ==, 0);
  g_assert_cmpint (strata_span_table_get_start (thread->spans, 1, 2, 0), ==, 1004000);
  g_assert_cmpint (strata_span_table_get_end (thread->spans, 1, 3, 0), ==, 1004000);
  g_assert_cmpuint (strata_span_table_search_clock (thread->spans, 1, 3, 1004000), ==, 0);
  g_assert_cmpuint (strata_span_table_search_clock (thread->spans, 1, 3, 1004001), ==, thread->spans->n_spans[3]);
  /* A thread time under a frame is kept beside the moment before it; it
   * is clamped into its caller, a moment. */
  g_assert_cmpuint (thread->spans->sparse_second[4].n, ==, 1);
  strata_test_assert_span (trace, thread, 4, 1, "MinorGC", 40000, 45000);
  g_assert_cmpint (strata_span_table_get_start (thread->spans, 1, 4, 0), ==, 1004000);
  g_assert_cmpint (strata_span_table_get_start (thread->spans, 1, 4, 1), ==, 1004000);
  g_assert_cmpint (strata_span_table_get_end (thread->spans, 1, 4, 1), ==, 1004000);
  /* On the thread clock a frame takes nothing; the task keeps its time. */
  profile = strata_profile_new (trace, -1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (strata_profile_get_entry (profile, strata_test_method_by_name (trace, "run (a.js:1:1)"))->inclusive[1], ==, 0);
  g_assert_cmpint (strata_profile_get_entry (profile, strata_test_method_by_name (trace, "RunTask"))->inclusive[1], ==, 90000);
  g_assert_true (strata_span_table_has_sources (thread->spans));
  g_assert_cmpuint (strata_span_table_get_source (thread->spans, 1, 0), !=, 0);
  g_assert_cmpuint (strata_span_table_get_source (thread->spans, 4, 0), !=, 0);
  g_assert_cmpuint (strata_span_table_get_source (thread->spans, 2, 0), ==, 0);
  /* The flow starts at the call that bound it. */
  g_assert_cmpuint (strata_trace_get_n_flows (trace), ==, 1);
  flow = strata_trace_get_flow (trace, 0);
  g_assert_true (strata_trace_get_thread (trace, flow->from.thread) == thread);
  g_assert_cmpuint (flow->from.depth, ==, 1);
  g_assert_cmpuint (flow->from.index, ==, 0);
  /* Idle all along: a thread without calls. */
  for (guint i = 0; i < strata_trace_get_n_threads (trace); i++)
    if ((idle = strata_trace_get_thread (trace, i))->tid == 4)
      g_assert_null (idle->spans);
}

/* Frames among trace events that have thread times: each frame is a
 * moment on the thread clock, where its caller starts or after the last
 * trace event before it at its depth; outside any task, after the last
 * task. */
static const char places_trace[] =
  "{\"traceEvents\":[\n"
  "{\"ph\":\"X\",\"name\":\"RunTask\",\"pid\":1,\"tid\":2,\"ts\":0,\"dur\":100,\"tts\":1000,\"tdur\":90},\n"
  "{\"ph\":\"X\",\"name\":\"FunctionCall\",\"pid\":1,\"tid\":2,\"ts\":5,\"dur\":90,\"tts\":1002,\"tdur\":80},\n"
  "{\"ph\":\"X\",\"name\":\"Parse\",\"pid\":1,\"tid\":2,\"ts\":6,\"dur\":2,\"tts\":1003,\"tdur\":2},\n"
  "{\"ph\":\"P\",\"name\":\"Profile\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":0,\"args\":{\"data\":{\"startTime\":0}}},\n"
  "{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":100,\"args\":{\"data\":{"
  "\"cpuProfile\":{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}},"
  "{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"run\",\"url\":\"a.js\",\"lineNumber\":0,\"columnNumber\":0}},"
  "{\"id\":3,\"parent\":2,\"callFrame\":{\"functionName\":\"inner\",\"url\":\"a.js\",\"lineNumber\":9,\"columnNumber\":0}}],"
  "\"samples\":[2,3,2,2]},\"timeDeltas\":[10,20,30,150]}}}\n"
  "]}\n";

static void
test_thread_clock_places (void)
{
  g_autofree char *path = strata_test_write_file ("places.json", places_trace, strlen (places_trace));
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_path (path, &error);
  const StrataThread *thread;
  const StrataSpanTable *table;
  guint32 last;

  g_assert_no_error (error);
  thread = strata_test_thread_by_tid (trace, 2);
  table = thread->spans;
  strata_test_assert_span (trace, thread, 2, 0, "Parse", 6000, 8000);
  g_assert_cmpuint (table->calls[2][1].method, ==, strata_test_method_by_name (trace, "run (a.js:1:1)"));
  g_assert_cmpuint (table->calls[3][0].method, ==, strata_test_method_by_name (trace, "inner (a.js:10:1)"));
  last = table->n_spans[0] - 1;
  g_assert_cmpuint (table->calls[0][last].method, ==, strata_test_method_by_name (trace, "run (a.js:1:1)"));
  /* Outermost calls are found alone (a thread's range asks for them);
   * a frame after the task, after the task's end. */
  g_assert_cmpint (strata_span_table_get_start (table, 1, 0, 0), ==, 1000000);
  g_assert_cmpint (strata_span_table_get_start (table, 1, 0, last), ==, 1090000);
  g_assert_cmpint (thread->last_time[1], ==, 1090000);
  g_assert_null (table->placed);
  /* A frame after a trace event of its depth starts after it ends, and
   * the frames it holds with it; the event keeps its own times. */
  g_assert_cmpint (strata_span_table_get_start (table, 1, 2, 0), ==, 1003000);
  g_assert_cmpint (strata_span_table_get_end (table, 1, 2, 0), ==, 1005000);
  g_assert_cmpint (strata_span_table_get_start (table, 1, 2, 1), ==, 1005000);
  g_assert_cmpint (strata_span_table_get_end (table, 1, 2, 1), ==, 1005000);
  g_assert_cmpint (strata_span_table_get_start (table, 1, 3, 0), ==, 1005000);
  /* Asked for once, every place is made: the same answers after. */
  g_assert_nonnull (table->placed);
  g_assert_cmpint (table->placed[0][last].start, ==, 1090000);
  g_assert_cmpint (strata_span_table_get_end (table, 1, 1, 0), ==, 1082000);
  g_assert_cmpuint (strata_span_table_search_clock (table, 1, 2, 1005000), ==, 0);
  g_assert_cmpuint (strata_span_table_search_clock (table, 1, 2, 1005001), ==, 2);
}

/* Tasks with and without thread times, events under frames on some
 * (so a depth keeps thread times in one part only), moments at a task's
 * start and inside frames, flows, and samples landing on task starts
 * with runs across them: the places a thread cut in two could differ. */
static GString *
write_cut_recording (guint n_tasks)
{
  static const guint pattern[] = { 2, 3, 4, 3, 6, 5, 7, 4, 4 };
  GString *text = g_string_new ("{\"traceEvents\":[\n"
                                "{\"ph\":\"P\",\"name\":\"Profile\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":0,"
                                "\"args\":{\"data\":{\"startTime\":0}}},\n");

  for (guint t = 0; t < n_tasks; t++)
    {
      guint ts = t * 1000, tts = 100000 + t * 500;

      if (t % 5 == 3)
        g_string_append_printf (text, "{\"ph\":\"X\",\"name\":\"RunTask\",\"pid\":1,\"tid\":2,\"ts\":%u,\"dur\":800},\n", ts);
      else
        g_string_append_printf (text, "{\"ph\":\"X\",\"name\":\"RunTask\",\"pid\":1,\"tid\":2,\"ts\":%u,\"dur\":800,"
                                "\"tts\":%u,\"tdur\":400},\n", ts, tts);
      if (t % 3 != 0)
        g_string_append_printf (text, "{\"ph\":\"X\",\"name\":\"FunctionCall\",\"pid\":1,\"tid\":2,\"ts\":%u,\"dur\":600,"
                                "\"tts\":%u,\"tdur\":300%s},\n", ts + 50, tts + 10,
                                t % 10 == 1 ? ",\"bind_id\":\"0x9\",\"flow_out\":true" : "");
      else
        g_string_append_printf (text, "{\"ph\":\"X\",\"name\":\"EvaluateScript\",\"pid\":1,\"tid\":2,\"ts\":%u,\"dur\":600},\n", ts + 50);
      if (t % 4 == 1)
        g_string_append_printf (text, "{\"ph\":\"X\",\"name\":\"MinorGC\",\"pid\":1,\"tid\":2,\"ts\":%u,\"dur\":20,"
                                "\"tts\":%u,\"tdur\":10},\n", ts + 300, tts + 150);
      if (t % 2 == 0)
        g_string_append_printf (text, "{\"ph\":\"X\",\"name\":\"Mark\",\"pid\":1,\"tid\":2,\"ts\":%u,\"dur\":0},\n", ts + 310);
      if (t % 6 == 0)
        g_string_append_printf (text, "{\"ph\":\"i\",\"name\":\"Start\",\"s\":\"t\",\"pid\":1,\"tid\":2,\"ts\":%u},\n", ts);
      if (t % 10 == 1)
        g_string_append_printf (text, "{\"ph\":\"X\",\"name\":\"Later\",\"pid\":1,\"tid\":3,\"ts\":%u,\"dur\":5,"
                                "\"bind_id\":\"0x9\",\"flow_in\":true},\n", ts + 700);
      g_string_append (text, "{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":0,"
                             "\"args\":{\"data\":{\"cpuProfile\":{");
      if (t == 0)
        g_string_append (text, "\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}},"
                               "{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"a\",\"url\":\"x.js\"}},"
                               "{\"id\":3,\"parent\":2,\"callFrame\":{\"functionName\":\"b\",\"url\":\"x.js\"}},"
                               "{\"id\":4,\"parent\":3,\"callFrame\":{\"functionName\":\"c\",\"url\":\"x.js\"}},"
                               "{\"id\":5,\"parent\":1,\"callFrame\":{\"functionName\":\"(idle)\"}},"
                               "{\"id\":6,\"parent\":1,\"callFrame\":{\"functionName\":\"(garbage collector)\"}},"
                               "{\"id\":7,\"parent\":1,\"callFrame\":{\"functionName\":\"(program)\"}}],");
      g_string_append (text, "\"samples\":[");
      for (guint i = 0; i < 20; i++)
        g_string_append_printf (text, "%s%u", i ? "," : "", pattern[(i * 7 + t * 3) % G_N_ELEMENTS (pattern)]);
      g_string_append (text, "]},\"timeDeltas\":[");
      for (guint i = 0; i < 20; i++)
        g_string_append_printf (text, "%s%u", i ? "," : "", t == 0 && i == 0 ? 0 : 50);
      g_string_append (text, "]}}},\n");
    }
  g_string_append (text, "{\"ph\":\"M\",\"name\":\"end\",\"pid\":1,\"tid\":2}]}\n");
  return text;
}

static void
assert_same_tables (StrataTrace *a,
                    StrataTrace *b)
{
  g_assert_cmpuint (strata_trace_get_n_threads (a), ==, strata_trace_get_n_threads (b));
  for (guint i = 0; i < strata_trace_get_n_threads (a); i++)
    {
      const StrataSpanTable *x = strata_trace_get_thread (a, i)->spans, *y = strata_trace_get_thread (b, i)->spans;

      if (x == NULL || y == NULL)
        {
          g_assert_true (x == y);
          continue;
        }
      g_assert_cmpuint (x->n_clocks, ==, y->n_clocks);
      g_assert_cmpuint (x->n_depths, ==, y->n_depths);
      for (guint d = 0; d < x->n_depths; d++)
        {
          strata_test_assert_same_calls (x, y, d);
          for (guint32 k = 0; k < x->n_spans[d]; k++)
            {
              g_assert_cmpuint (strata_span_table_get_source (x, d, k), ==, strata_span_table_get_source (y, d, k));
              if (x->n_clocks == 2)
                {
                  g_assert_cmpint (strata_span_table_get_start (x, 1, d, k), ==, strata_span_table_get_start (y, 1, d, k));
                  g_assert_cmpint (strata_span_table_get_end (x, 1, d, k), ==, strata_span_table_get_end (y, 1, d, k));
                }
            }
        }
    }
  g_assert_cmpuint (strata_trace_get_n_flows (a), ==, strata_trace_get_n_flows (b));
  for (guint i = 0; i < strata_trace_get_n_flows (a); i++)
    g_assert_cmpmem (strata_trace_get_flow (a, i), sizeof (StrataFlow), strata_trace_get_flow (b, i), sizeof (StrataFlow));
}

/* A long thread's samples are laid out in two parts at once, cut where
 * a task starts: the calls, their thread times, places and flows are
 * those of one walk. */
static void
test_cut_in_two (void)
{
  g_autoptr(GString) text = write_cut_recording (400);
  g_autofree char *path = strata_test_write_file ("cut.json", text->str, text->len);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) whole = NULL, cut = NULL;

  g_setenv ("STRATA_NEST_SPLIT_MIN_RUNS", "4000000000", TRUE);
  whole = strata_test_load_path (path, &error);
  g_assert_no_error (error);
  g_setenv ("STRATA_NEST_SPLIT_MIN_RUNS", "100", TRUE);
  g_test_expect_message ("Strata", G_LOG_LEVEL_DEBUG, "*laid out in two parts, cut at 200000000 ns");
  cut = strata_test_load_path (path, &error);
  g_test_assert_expected_messages ();
  g_assert_no_error (error);
  g_assert_cmpuint (strata_test_thread_by_tid (whole, 2)->spans->n_depths, >=, 5);
  g_assert_cmpuint (strata_trace_get_n_flows (whole), >, 0);
  assert_same_tables (whole, cut);
}

/* A recording whose nodes repeat call frames word for word (a recursion,
 * a second idle node), and the same with each repeat written another way:
 * a frame known by its text gives what parsing it gives. */
static char *
repeated_frames_recording (gboolean reworded)
{
  const char *a = "{\"functionName\":\"a\",\"url\":\"x.js\",\"lineNumber\":0,\"columnNumber\":0}";
  const char *a_again = reworded ? "{\"url\":\"x.js\",\"functionName\":\"a\",\"columnNumber\":0,\"lineNumber\":0}" : a;
  const char *idle = "{\"functionName\":\"(idle)\"}";
  const char *idle_again = reworded ? "{ \"functionName\": \"(idle)\" }" : idle;
  const char *a_third = reworded ? "{\"lineNumber\":0,\"functionName\":\"a\",\"url\":\"x.js\",\"columnNumber\":0}" : a;

  return g_strdup_printf ("{\"traceEvents\":[\n"
                          "{\"ph\":\"P\",\"name\":\"Profile\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":0,\"args\":{\"data\":{\"startTime\":0}}},\n"
                          "{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":100,\"args\":{\"data\":{"
                          "\"cpuProfile\":{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}},"
                          "{\"id\":2,\"parent\":1,\"callFrame\":%s},"
                          "{\"id\":3,\"parent\":2,\"callFrame\":{\"functionName\":\"b\",\"url\":\"x.js\",\"lineNumber\":1,\"columnNumber\":0}},"
                          "{\"id\":4,\"parent\":3,\"callFrame\":%s},"
                          "{\"id\":5,\"parent\":1,\"callFrame\":%s}],"
                          "\"samples\":[2,3,4,4,5]},\"timeDeltas\":[10,10,10,10,10]}}},\n"
                          "{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":200,\"args\":{\"data\":{"
                          "\"cpuProfile\":{\"nodes\":[{\"id\":6,\"parent\":1,\"callFrame\":%s},"
                          "{\"id\":7,\"parent\":4,\"callFrame\":%s}],"
                          "\"samples\":[6,7,3]},\"timeDeltas\":[10,10,10]}}}\n"
                          "]}\n", a, a_again, idle, idle_again, a_third);
}

static void
test_repeated_frames (void)
{
  g_autofree char *plain = repeated_frames_recording (FALSE);
  g_autofree char *reworded = repeated_frames_recording (TRUE);
  g_autofree char *plain_path = strata_test_write_file ("repeated.json", plain, strlen (plain));
  g_autofree char *reworded_path = strata_test_write_file ("reworded.json", reworded, strlen (reworded));
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) known = strata_test_load_path (plain_path, &error);
  g_autoptr(StrataTrace) parsed = NULL;
  const StrataThread *thread;

  g_assert_no_error (error);
  parsed = strata_test_load_path (reworded_path, &error);
  g_assert_no_error (error);
  thread = strata_test_thread_by_tid (known, 2);
  /* a › b › a › a: the recursion's frame is the method of the first. */
  g_assert_cmpuint (thread->spans->n_depths, ==, 4);
  strata_test_assert_span (known, thread, 2, 0, "a (x.js:1:1)", 30000, 50000);
  /* Known by its text from the chunk before, the frame is a again. */
  strata_test_assert_span (known, thread, 3, 0, "a (x.js:1:1)", 70000, 80000);
  assert_same_calls (thread, strata_test_thread_by_tid (parsed, 2));
  g_assert_cmpuint (strata_trace_get_n_methods (known), ==, strata_trace_get_n_methods (parsed));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/trace-event-js/chunks", test_chunks);
  g_test_add_func ("/trace-event-js/nested", test_nested);
  g_test_add_func ("/trace-event-js/unsorted-events", test_unsorted_events);
  g_test_add_func ("/trace-event-js/deep-events", test_deep_events);
  g_test_add_func ("/trace-event-js/return-to-script", test_return_to_script);
  g_test_add_func ("/trace-event-js/chunk-values", test_chunk_values);
  g_test_add_func ("/trace-event-js/run-across-task", test_run_across_task);
  g_test_add_func ("/trace-event-js/parallel-read", test_parallel_read);
  g_test_add_func ("/trace-event-js/table", test_table);
  g_test_add_func ("/trace-event-js/threads-apart", test_threads_apart);
  g_test_add_func ("/trace-event-js/cut-in-two", test_cut_in_two);
  g_test_add_func ("/trace-event-js/thread-clock-places", test_thread_clock_places);
  g_test_add_func ("/trace-event-js/repeated-frames", test_repeated_frames);
  g_test_add_func ("/trace-event-js/grouped-as-read", test_grouped_as_read);

  return g_test_run ();
}
