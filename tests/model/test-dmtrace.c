/* test-dmtrace.c: the dmtrace loader on files written to order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "dmtrace-writer.h"
#include "strata-error.h"
#include "strata-loader.h"
#include "strata-test-util.h"

#define FOO_A "com/example/Foo\ta\t()V\tFoo.java"
#define FOO_B "com/example/Foo\tb\t(I)I\tFoo.java"
#define BAR_C "com.example.Bar\tc\t()V\tBar.java"

static StrataTrace *
load_bytes (GBytes      *bytes,
            const char  *name,
            GError     **error)
{
  g_autofree char *path = strata_test_write_file (name, g_bytes_get_data (bytes, NULL),
                                                  g_bytes_get_size (bytes));

  return strata_test_load_path (path, error);
}

static StrataTrace *
load_ok (DmtraceWriter *writer,
         gboolean       summary)
{
  g_autoptr(GBytes) bytes = dmtrace_writer_finish (writer, summary);
  g_autoptr(GError) error = NULL;
  StrataTrace *trace = load_bytes (bytes, "test.trace", &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

static void
add_basic_key (DmtraceWriter *writer)
{
  dmtrace_writer_add_thread (writer, 1, "main");
  dmtrace_writer_add_thread (writer, 7, "worker");
  dmtrace_writer_add_method (writer, 0, FOO_A);
  dmtrace_writer_add_method (writer, 4, FOO_B);
  dmtrace_writer_add_method (writer, 8, BAR_C);
}

/* main: a [b] ; times given as (cpu, wall) in µs */
static void
write_basic_records (DmtraceWriter *writer)
{
  dmtrace_writer_begin_data (writer);
  dmtrace_writer_record (writer, 1, 0, DMTRACE_ENTER, 0, 100);
  dmtrace_writer_record (writer, 1, 4, DMTRACE_ENTER, 10, 120);
  dmtrace_writer_record (writer, 1, 4, DMTRACE_EXIT, 30, 150);
  dmtrace_writer_record (writer, 1, 0, DMTRACE_EXIT, 40, 170);
}

static void
test_dmtrace_v3_dual (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  g_autoptr(StrataTrace) trace = NULL;
  const StrataThread *main_thread;
  StrataSpan a, b;
  const StrataMethod *method;

  add_basic_key (writer);
  write_basic_records (writer);
  trace = load_ok (writer, FALSE);

  g_assert_cmpuint (strata_trace_get_n_clocks (trace), ==, 2);
  g_assert_cmpint (strata_trace_get_clock_kind (trace, 0), ==, STRATA_CLOCK_WALL);
  g_assert_cmpint (strata_trace_get_clock_kind (trace, 1), ==, STRATA_CLOCK_THREAD_CPU);
  g_assert_cmpuint (strata_trace_get_n_threads (trace), ==, 2);
  g_assert_cmpuint (strata_trace_get_n_spans (trace), ==, 2);
  g_assert_null (strata_test_thread_by_tid (trace, 7)->spans);

  main_thread = strata_test_thread_by_tid (trace, 1);
  g_assert_cmpstr (strata_trace_get_string (trace, main_thread->name), ==, "main");
  g_assert_cmpuint (main_thread->spans->n_depths, ==, 2);
  a = strata_test_span_at (main_thread, 0, 0);
  b = strata_test_span_at (main_thread, 1, 0);
  g_assert_cmpint (a.start, ==, 100000);
  g_assert_cmpint (a.end, ==, 170000);
  g_assert_cmpint (b.start, ==, 120000);
  g_assert_cmpint (b.end, ==, 150000);
  g_assert_cmpint (main_thread->spans->second[0][0].start, ==, 0);
  g_assert_cmpint (main_thread->spans->second[0][0].end, ==, 40000);
  g_assert_cmpint (main_thread->spans->second[1][0].end, ==, 30000);
  g_assert_cmpint (strata_trace_get_start (trace), ==, 100000);
  g_assert_cmpint (strata_trace_get_end (trace), ==, 170000);

  /* Method id 0 is a real method. */
  method = strata_trace_get_method (trace, a.method);
  g_assert_cmpuint (method->raw_id, ==, 0);
  g_assert_cmpstr (strata_trace_get_string (trace, method->display_name), ==, "com.example.Foo.a ()V");
  g_assert_cmpstr (strata_trace_get_string (trace, method->class_name), ==, "com.example.Foo");
  g_assert_cmpstr (strata_trace_get_string (trace, method->source_file), ==, "Foo.java");
  g_assert_cmpstr (strata_trace_get_method_name (trace, b.method), ==, "com.example.Foo.b (I)I");
  g_assert_cmpuint (strata_trace_get_n_diagnostics (trace), ==, 0);
}

static void
assert_single_clock (guint            version,
                     const char      *clock,
                     guint            record_size,
                     StrataClockKind  expected)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (version, clock, FALSE);
  g_autoptr(StrataTrace) trace = NULL;
  StrataSpan a;

  if (record_size != 0)
    dmtrace_writer_set_record_size (writer, record_size);
  add_basic_key (writer);
  write_basic_records (writer);
  trace = load_ok (writer, FALSE);

  g_assert_cmpuint (strata_trace_get_n_clocks (trace), ==, 1);
  g_assert_cmpint (strata_trace_get_clock_kind (trace, 0), ==, expected);
  g_assert_null (strata_test_thread_by_tid (trace, 1)->spans->second);
  a = strata_test_span_at (strata_test_thread_by_tid (trace, 1), 0, 0);
  g_assert_cmpint (a.start, ==, 0);
  g_assert_cmpint (a.end, ==, 40000);
}

static void
test_dmtrace_v1_thread_cpu (void)
{
  assert_single_clock (1, "thread-cpu", 0, STRATA_CLOCK_THREAD_CPU);
}

static void
test_dmtrace_v2_wall (void)
{
  assert_single_clock (2, "wall", 0, STRATA_CLOCK_WALL);
}

static void
test_dmtrace_v3_single_clock (void)
{
  assert_single_clock (3, "thread-cpu", 10, STRATA_CLOCK_THREAD_CPU);
}

static void
test_dmtrace_global_clock (void)
{
  assert_single_clock (3, "global", 10, STRATA_CLOCK_WALL);
}

static void
test_dmtrace_missing_clock (void)
{
  assert_single_clock (3, NULL, 10, STRATA_CLOCK_THREAD_CPU);
}

/* A record size larger than the fields: the rest is skipped. */
static void
test_dmtrace_padded_records (void)
{
  assert_single_clock (3, "thread-cpu", 16, STRATA_CLOCK_THREAD_CPU);
}

static void
test_dmtrace_streaming (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", TRUE);
  g_autoptr(StrataTrace) trace = NULL;
  const StrataThread *worker;

  dmtrace_writer_add_thread (writer, 1, "main");
  dmtrace_writer_add_method (writer, 0, FOO_A);
  dmtrace_writer_begin_data (writer);
  dmtrace_writer_record (writer, 1, 0, DMTRACE_ENTER, 0, 100);
  /* Packets arrive between records, before their first use. */
  dmtrace_writer_add_thread (writer, 7, "worker-old-name");
  dmtrace_writer_add_method (writer, 4, FOO_B);
  dmtrace_writer_record (writer, 7, 4, DMTRACE_ENTER, 0, 110);
  dmtrace_writer_record (writer, 7, 4, DMTRACE_EXIT, 5, 130);
  dmtrace_writer_record (writer, 1, 0, DMTRACE_EXIT, 50, 160);
  /* The summary at the end names threads as they were last called. */
  dmtrace_writer_add_thread (writer, 7, "worker");
  trace = load_ok (writer, TRUE);

  g_assert_cmpstr (strata_trace_get_format_detail (trace), ==, "dmtrace v3, streaming, dual clock");
  g_assert_cmpuint (strata_trace_get_n_clocks (trace), ==, 2);
  worker = strata_test_thread_by_tid (trace, 7);
  g_assert_cmpstr (strata_trace_get_string (trace, worker->name), ==, "worker");
  g_assert_cmpint (strata_test_span_at (worker, 0, 0).start, ==, 110000);
  g_assert_cmpstr (strata_trace_get_method_name (trace, strata_test_span_at (worker, 0, 0).method), ==,
                   "com.example.Foo.b (I)I");
  g_assert_cmpint (strata_test_span_at (strata_test_thread_by_tid (trace, 1), 0, 0).end, ==, 160000);
}

static void
test_dmtrace_streaming_without_summary (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, NULL, TRUE);
  g_autoptr(StrataTrace) trace = NULL;

  dmtrace_writer_set_record_size (writer, 14);
  add_basic_key (writer);
  write_basic_records (writer);
  trace = load_ok (writer, FALSE);

  /* Two time fields and no key to say otherwise: dual, as ART writes. */
  g_assert_cmpuint (strata_trace_get_n_clocks (trace), ==, 2);
  g_assert_cmpint (strata_test_span_at (strata_test_thread_by_tid (trace, 1), 0, 0).start, ==, 100000);
}

static void
test_dmtrace_split_files (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  g_autoptr(GBytes) key = NULL;
  g_autoptr(GBytes) data = NULL;
  g_autofree char *key_path = NULL;
  g_autofree char *data_path = NULL;
  g_autoptr(GError) error = NULL;
  const char *paths[2];

  dmtrace_writer_set_split (writer, TRUE);
  add_basic_key (writer);
  write_basic_records (writer);
  key = dmtrace_writer_get_key (writer);
  data = dmtrace_writer_finish (writer, FALSE);
  key_path = strata_test_write_file ("split.key", g_bytes_get_data (key, NULL), g_bytes_get_size (key));
  data_path = strata_test_write_file ("split.data", g_bytes_get_data (data, NULL), g_bytes_get_size (data));
  paths[0] = key_path;
  paths[1] = data_path;

  /* Opening either half finds the other. */
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(StrataTrace) trace = strata_test_load_path (paths[i], &error);

      g_assert_no_error (error);
      g_assert_cmpuint (strata_trace_get_n_spans (trace), ==, 2);
      g_assert_cmpstr (strata_trace_get_method_name (trace, strata_test_span_at (strata_test_thread_by_tid (trace, 1), 0, 0).method),
                       ==, "com.example.Foo.a ()V");
    }
}

static void
test_dmtrace_split_missing_half (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  g_autoptr(GBytes) key = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = NULL;

  add_basic_key (writer);
  key = dmtrace_writer_get_key (writer);
  trace = load_bytes (key, "lonely.key", &error);
  g_assert_null (trace);
  g_assert_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (error->message, "lonely.data"));
}

/* A busy trace with every repair: unknown method ids, exits without
 * entries and out of order, time running backwards and wrapping, a cut
 * last record. */
static GBytes *
write_messy_trace (gboolean streaming)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", streaming);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  guint32 cpu[6] = { 0 }, wall[6] = { 0 };
  guint32 stack[6][64];
  guint depth[6] = { 0 };
  GBytes *bytes;

  for (guint t = 0; t < 5; t++)
    {
      g_autofree char *name = g_strdup_printf ("thread %u", t);

      dmtrace_writer_add_thread (writer, t + 1, name);
    }
  for (guint m = 0; m < 40; m++)
    {
      g_autofree char *fields = g_strdup_printf ("com.example.C%u\tm%u\t()V\tC.java", m % 7, m);

      dmtrace_writer_add_method (writer, m * 4, fields);
    }
  dmtrace_writer_begin_data (writer);
  for (guint i = 0; i < 60000; i++)
    {
      /* Thread 6 is missing from the key and gets fewer records. */
      guint t = g_rand_int_range (rand, 0, 11) == 0 ? 5 : g_rand_int_range (rand, 0, 5);
      guint32 method = g_rand_int_range (rand, 0, 48) * 4;   /* 40..47 are unknown */
      int roll = g_rand_int_range (rand, 0, 100);

      cpu[t] += g_rand_int_range (rand, 0, 20);
      wall[t] += g_rand_int_range (rand, 1, 30);
      if (roll == 0)
        wall[t] -= 5;                      /* backwards */
      if (i == 30000 && t == 2)
        cpu[t] = G_MAXUINT32 - 3;          /* wraps soon after */
      if (depth[t] < 64 && (roll < 52 || depth[t] == 0) && roll != 1)
        {
          stack[t][depth[t]++] = method;
          dmtrace_writer_record (writer, t + 1, method, DMTRACE_ENTER, cpu[t], wall[t]);
        }
      else if (roll == 1 || depth[t] == 0)
        dmtrace_writer_record (writer, t + 1, method, DMTRACE_EXIT, cpu[t], wall[t]);   /* no entry */
      else
        {
          guint from = roll < 55 && depth[t] > 1 ? 2 : 1;   /* now and then skips a frame */

          depth[t] -= from;
          dmtrace_writer_record (writer, t + 1, stack[t][depth[t]], roll < 58 ? DMTRACE_UNROLL : DMTRACE_EXIT,
                                 cpu[t], wall[t]);
        }
    }
  bytes = dmtrace_writer_finish (writer, TRUE);
  /* Half a record more at the end. */
  return g_bytes_new_from_bytes (bytes, 0, g_bytes_get_size (bytes) - (streaming ? 0 : 7));
}

static StrataTrace *
load_with_workers (GBytes     *bytes,
                   const char *workers)
{
  g_autoptr(GError) error = NULL;
  StrataTrace *trace;

  g_setenv ("STRATA_DMTRACE_WORKERS", workers, TRUE);
  trace = load_bytes (bytes, "messy.trace", &error);
  g_unsetenv ("STRATA_DMTRACE_WORKERS");
  g_assert_no_error (error);
  return trace;
}

static void
assert_same_threads (StrataTrace *a,
                     StrataTrace *b)
{
  g_assert_cmpuint (strata_trace_get_n_threads (a), ==, strata_trace_get_n_threads (b));
  for (guint i = 0; i < strata_trace_get_n_threads (a); i++)
    {
      const StrataSpanTable *x = strata_trace_get_thread (a, i)->spans;
      const StrataSpanTable *y = strata_trace_get_thread (b, i)->spans;

      g_assert_true ((x == NULL) == (y == NULL));
      if (x == NULL)
        continue;
      g_assert_cmpuint (x->n_depths, ==, y->n_depths);
      for (guint d = 0; d < x->n_depths; d++)
        {
          g_assert_cmpuint (x->n_spans[d], ==, y->n_spans[d]);
          strata_test_assert_same_calls (x, y, d);
          g_assert_cmpmem (x->second[d], x->n_spans[d] * sizeof (StrataClockSpan),
                           y->second[d], y->n_spans[d] * sizeof (StrataClockSpan));
        }
    }
}

/* The second pass shared out between workers gives exactly what one
 * worker gives: calls, unknown methods in the same order, diagnostics. */
static void
test_dmtrace_parallel_build (void)
{
  for (guint streaming = 0; streaming < 2; streaming++)
    {
      g_autoptr(GBytes) bytes = write_messy_trace (streaming);
      g_autoptr(StrataTrace) one = load_with_workers (bytes, "1");
      g_autoptr(StrataTrace) four = load_with_workers (bytes, "4");

      g_assert_cmpuint (strata_trace_get_n_methods (one), ==, 48);
      g_assert_cmpuint (strata_trace_get_n_methods (four), ==, strata_trace_get_n_methods (one));
      for (guint m = 0; m < strata_trace_get_n_methods (one); m++)
        g_assert_cmpstr (strata_trace_get_method_name (one, m), ==, strata_trace_get_method_name (four, m));
      assert_same_threads (one, four);
      g_assert_cmpuint (strata_trace_get_n_diagnostics (one), >=, 5);
      g_assert_cmpuint (strata_trace_get_n_diagnostics (four), ==, strata_trace_get_n_diagnostics (one));
      for (guint i = 0; i < strata_trace_get_n_diagnostics (one); i++)
        g_assert_cmpstr (strata_trace_get_diagnostic (one, i), ==, strata_trace_get_diagnostic (four, i));
      g_assert_true (strata_test_has_diagnostic (one, "unknown method"));
      g_assert_true (strata_test_has_diagnostic (one, "wrap"));
      g_assert_true (strata_test_has_diagnostic (one, "backwards"));
    }
}

typedef struct
{
  GMainLoop    *loop;
  GCancellable *cancellable;
  GError       *error;
  StrataTrace  *trace;
} CancelState;

static void
cancel_in_build_pass (StrataLoader *loader,
                      GParamSpec   *pspec,
                      CancelState  *state)
{
  /* The second pass reports from 0.45 on. */
  if (strata_loader_get_fraction (loader) > 0.5)
    g_cancellable_cancel (state->cancellable);
}

static void
cancelled_load_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  CancelState *state = user_data;

  state->trace = strata_loader_load_finish (STRATA_LOADER (object), result, &state->error);
  g_main_loop_quit (state->loop);
}

/* Cancelled while several workers build the calls: every worker stops
 * and the load reports the cancel. */
static void
test_dmtrace_parallel_cancel (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(StrataLoader) loader = NULL;
  CancelState state = { 0 };

  for (guint t = 1; t <= 4; t++)
    dmtrace_writer_add_thread (writer, t, "worker");
  dmtrace_writer_add_method (writer, 0, FOO_A);
  dmtrace_writer_begin_data (writer);
  for (guint32 i = 0; i < 1500000; i++)
    for (guint t = 1; t <= 4; t++)
      dmtrace_writer_record (writer, t, 0, i % 2 ? DMTRACE_EXIT : DMTRACE_ENTER, i, i);
  bytes = dmtrace_writer_finish (writer, TRUE);
  path = strata_test_write_file ("cancel.trace", g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));

  file = g_file_new_for_path (path);
  loader = strata_loader_new (file);
  state.loop = g_main_loop_new (NULL, FALSE);
  state.cancellable = g_cancellable_new ();
  g_signal_connect (loader, "notify::fraction", G_CALLBACK (cancel_in_build_pass), &state);
  g_setenv ("STRATA_DMTRACE_WORKERS", "3", TRUE);
  strata_loader_load_async (loader, state.cancellable, cancelled_load_cb, &state);
  g_main_loop_run (state.loop);
  g_unsetenv ("STRATA_DMTRACE_WORKERS");

  g_assert_null (state.trace);
  g_assert_error (state.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&state.error);
  g_main_loop_unref (state.loop);
  g_object_unref (state.cancellable);
}

static void
test_dmtrace_unknown_method (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  g_autoptr(StrataTrace) trace = NULL;
  const StrataThread *thread;

  add_basic_key (writer);
  dmtrace_writer_begin_data (writer);
  dmtrace_writer_record (writer, 1, 0x40, DMTRACE_ENTER, 0, 0);
  dmtrace_writer_record (writer, 1, 0x40, DMTRACE_EXIT, 5, 5);
  dmtrace_writer_record (writer, 1, 0x40, DMTRACE_ENTER, 6, 6);
  dmtrace_writer_record (writer, 1, 0x40, DMTRACE_EXIT, 9, 9);
  trace = load_ok (writer, FALSE);

  thread = strata_test_thread_by_tid (trace, 1);
  g_assert_cmpuint (thread->spans->n_spans[0], ==, 2);
  g_assert_cmpstr (strata_trace_get_method_name (trace, strata_test_span_at (thread, 0, 0).method), ==,
                   "unknown method 0x40");
  g_assert_cmpuint (strata_test_span_at (thread, 0, 0).method, ==, strata_test_span_at (thread, 0, 1).method);
  g_assert_true (strata_test_has_diagnostic (trace, "2 calls to method ids missing from the key"));
}

static void
test_dmtrace_unroll (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  g_autoptr(StrataTrace) trace = NULL;

  add_basic_key (writer);
  dmtrace_writer_begin_data (writer);
  dmtrace_writer_record (writer, 1, 0, DMTRACE_ENTER, 0, 0);
  dmtrace_writer_record (writer, 1, 4, DMTRACE_ENTER, 1, 1);
  dmtrace_writer_record (writer, 1, 4, DMTRACE_UNROLL, 2, 2);
  dmtrace_writer_record (writer, 1, 0, DMTRACE_UNROLL, 3, 3);
  trace = load_ok (writer, FALSE);

  g_assert_cmpint (strata_test_span_at (strata_test_thread_by_tid (trace, 1), 1, 0).end, ==, 2000);
  g_assert_cmpint (strata_test_span_at (strata_test_thread_by_tid (trace, 1), 0, 0).end, ==, 3000);
  g_assert_cmpuint (strata_trace_get_n_diagnostics (trace), ==, 0);
}

/* b ran, then a returned although it was never entered: a started before
 * tracing and b ran inside it. */
static void
test_dmtrace_unmatched_exit (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  g_autoptr(StrataTrace) trace = NULL;
  const StrataThread *thread;
  guint32 first, last;

  add_basic_key (writer);
  dmtrace_writer_begin_data (writer);
  dmtrace_writer_record (writer, 1, 4, DMTRACE_ENTER, 5, 105);
  dmtrace_writer_record (writer, 1, 4, DMTRACE_EXIT, 8, 108);
  dmtrace_writer_record (writer, 1, 0, DMTRACE_EXIT, 12, 112);
  dmtrace_writer_record (writer, 1, 8, DMTRACE_ENTER, 13, 113);
  dmtrace_writer_record (writer, 1, 8, DMTRACE_EXIT, 14, 114);
  trace = load_ok (writer, FALSE);

  thread = strata_test_thread_by_tid (trace, 1);
  g_assert_cmpuint (thread->n_entered_before, ==, 1);
  g_assert_cmpuint (thread->spans->n_spans[0], ==, 2);
  g_assert_cmpstr (strata_trace_get_method_name (trace, strata_test_span_at (thread, 0, 0).method), ==, "com.example.Foo.a ()V");
  g_assert_cmpint (strata_test_span_at (thread, 0, 0).start, ==, 105000);
  g_assert_cmpint (strata_test_span_at (thread, 0, 0).end, ==, 112000);
  g_assert_cmpstr (strata_trace_get_method_name (trace, strata_test_span_at (thread, 1, 0).method), ==, "com.example.Foo.b (I)I");
  strata_span_table_get_children (thread->spans, 0, 0, &first, &last);
  g_assert_cmpuint (first, ==, 0);
  g_assert_cmpuint (last, ==, 1);
  strata_span_table_get_children (thread->spans, 0, 1, &first, &last);
  g_assert_cmpuint (last - first, ==, 0);
  /* Normal for a trace started inside running methods: a note, no repair. */
  g_assert_true (strata_test_has_note (trace, "1 exit without a matching entry"));
  g_assert_false (strata_test_has_diagnostic (trace, "exit without a matching entry"));
}

static void
test_dmtrace_mismatched_exit (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  g_autoptr(StrataTrace) trace = NULL;
  const StrataThread *thread;

  add_basic_key (writer);
  dmtrace_writer_begin_data (writer);
  dmtrace_writer_record (writer, 1, 0, DMTRACE_ENTER, 0, 0);
  dmtrace_writer_record (writer, 1, 4, DMTRACE_ENTER, 1, 1);
  dmtrace_writer_record (writer, 1, 8, DMTRACE_ENTER, 2, 2);
  /* a returns while b and c never did */
  dmtrace_writer_record (writer, 1, 0, DMTRACE_EXIT, 6, 6);
  trace = load_ok (writer, FALSE);

  thread = strata_test_thread_by_tid (trace, 1);
  g_assert_cmpuint (thread->spans->n_depths, ==, 3);
  for (guint d = 0; d < 3; d++)
    g_assert_cmpint (strata_test_span_at (thread, d, 0).end, ==, 6000);
  g_assert_true (strata_test_has_diagnostic (trace, "1 exit did not match the innermost call"));
}

static void
test_dmtrace_open_at_end (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  g_autoptr(StrataTrace) trace = NULL;
  const StrataThread *thread;

  add_basic_key (writer);
  dmtrace_writer_begin_data (writer);
  dmtrace_writer_record (writer, 1, 0, DMTRACE_ENTER, 0, 10);
  dmtrace_writer_record (writer, 1, 4, DMTRACE_ENTER, 1, 11);
  dmtrace_writer_record (writer, 1, 8, DMTRACE_ENTER, 2, 12);
  dmtrace_writer_record (writer, 1, 8, DMTRACE_EXIT, 3, 19);
  trace = load_ok (writer, FALSE);

  thread = strata_test_thread_by_tid (trace, 1);
  g_assert_cmpint (strata_test_span_at (thread, 0, 0).end, ==, 19000);
  g_assert_cmpint (strata_test_span_at (thread, 1, 0).end, ==, 19000);
  g_assert_cmpint (thread->spans->second[0][0].end, ==, 3000);
  g_assert_true (strata_test_has_note (trace, "2 calls still running when tracing stopped"));
}

static void
test_dmtrace_non_ascii (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  g_autoptr(StrataTrace) trace = NULL;

  dmtrace_writer_add_thread (writer, 1, "Grüße-Thread");
  dmtrace_writer_add_method (writer, 0x259c, "android/os/Debugò\tˊ\t()V\tDebug.java");
  /* Bytes that are not UTF-8 must not reach a label. */
  dmtrace_writer_add_method (writer, 0x25a0, "bad\t\xff\xfe\t()V");
  dmtrace_writer_begin_data (writer);
  dmtrace_writer_record (writer, 1, 0x259c, DMTRACE_ENTER, 0, 0);
  dmtrace_writer_record (writer, 1, 0x25a0, DMTRACE_ENTER, 1, 1);
  dmtrace_writer_record (writer, 1, 0x25a0, DMTRACE_EXIT, 2, 2);
  dmtrace_writer_record (writer, 1, 0x259c, DMTRACE_EXIT, 3, 3);
  trace = load_ok (writer, FALSE);

  g_assert_cmpstr (strata_trace_get_string (trace, strata_test_thread_by_tid (trace, 1)->name), ==, "Grüße-Thread");
  g_assert_cmpstr (strata_trace_get_method_name (trace, strata_test_span_at (strata_test_thread_by_tid (trace, 1), 0, 0).method),
                   ==, "android.os.Debugò.ˊ ()V");
  for (guint m = 0; m < strata_trace_get_n_methods (trace); m++)
    g_assert_true (g_utf8_validate (strata_trace_get_method_name (trace, m), -1, NULL));
}

static void
test_dmtrace_truncated (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  g_autoptr(GBytes) whole = NULL;
  g_autoptr(GBytes) cut = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = NULL;

  add_basic_key (writer);
  write_basic_records (writer);
  whole = dmtrace_writer_finish (writer, FALSE);
  cut = g_bytes_new_from_bytes (whole, 0, g_bytes_get_size (whole) - 5);
  trace = load_bytes (cut, "cut.trace", &error);

  g_assert_no_error (error);
  /* The last exit is lost; the open call is closed at the last time. */
  g_assert_cmpint (strata_test_span_at (strata_test_thread_by_tid (trace, 1), 0, 0).end, ==, 150000);
  g_assert_true (strata_test_has_diagnostic (trace, "cut mid-record"));
}

static void
assert_refused (DmtraceWriter *writer,
                int            code,
                const char    *part)
{
  g_autoptr(GBytes) bytes = dmtrace_writer_finish (writer, FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = load_bytes (bytes, "bad.trace", &error);

  g_assert_null (trace);
  g_assert_error (error, STRATA_LOAD_ERROR, code);
  if (strstr (error->message, part) == NULL)
    g_error ("“%s” does not mention “%s”", error->message, part);
}

static void
test_dmtrace_absurd_record_size (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);

  add_basic_key (writer);
  dmtrace_writer_set_record_size (writer, 5000);
  dmtrace_writer_begin_data (writer);
  assert_refused (writer, STRATA_LOAD_ERROR_CORRUPT, "record size");
}

static void
test_dmtrace_header_past_end (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  g_autoptr(GBytes) whole = NULL;
  g_autoptr(GBytes) cut = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = NULL;
  gsize key_len;

  add_basic_key (writer);
  key_len = g_bytes_get_size (dmtrace_writer_get_key (writer));
  dmtrace_writer_begin_data (writer);
  whole = dmtrace_writer_finish (writer, FALSE);
  /* Keep only 20 of the 32 header bytes. */
  cut = g_bytes_new_from_bytes (whole, 0, key_len + 20);
  trace = load_bytes (cut, "short.trace", &error);
  g_assert_null (trace);
  g_assert_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT);
}

static void
test_dmtrace_newer_formats (void)
{
  /* 4, 5, 0xF4 and 0xF5 are format V2 (test-dmtrace-v2.c); the
   * long-running method profile's 6 is no method trace file's. */
  const guint versions[] = { 6, 0xF6 };

  for (guint i = 0; i < G_N_ELEMENTS (versions); i++)
    {
      g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", versions[i] > 0xF0);

      add_basic_key (writer);
      dmtrace_writer_set_header_version (writer, versions[i]);
      dmtrace_writer_begin_data (writer);
      assert_refused (writer, STRATA_LOAD_ERROR_UNSUPPORTED, "does not know");
    }
}

static void
test_dmtrace_garbage_key (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  g_autoptr(StrataTrace) trace = NULL;

  add_basic_key (writer);
  dmtrace_writer_add_key_line (writer, "this is not a method");
  dmtrace_writer_add_key_line (writer, "0xZZ\tX\ty\t()V");
  dmtrace_writer_add_key_line (writer, "0x4\tcom/Dup\tdup\t()V");
  write_basic_records (writer);
  trace = load_ok (writer, FALSE);

  g_assert_cmpuint (strata_trace_get_n_spans (trace), ==, 2);
  g_assert_true (strata_test_has_diagnostic (trace, "2 lines of the key could not be read"));
  g_assert_true (strata_test_has_diagnostic (trace, "1 method id appears twice"));
  g_assert_cmpstr (strata_trace_get_method_name (trace, strata_test_span_at (strata_test_thread_by_tid (trace, 1), 1, 0).method),
                   ==, "com.example.Foo.b (I)I");
}

static void
test_dmtrace_clock_wrap (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  g_autoptr(StrataTrace) trace = NULL;
  StrataSpan a;

  add_basic_key (writer);
  dmtrace_writer_begin_data (writer);
  dmtrace_writer_record (writer, 1, 0, DMTRACE_ENTER, 0, G_MAXUINT32 - 10);
  dmtrace_writer_record (writer, 1, 0, DMTRACE_EXIT, 20, 9);
  trace = load_ok (writer, FALSE);

  a = strata_test_span_at (strata_test_thread_by_tid (trace, 1), 0, 0);
  g_assert_cmpint (a.end - a.start, ==, 20000);
  g_assert_true (strata_test_has_diagnostic (trace, "1 wrap of the 32-bit microsecond clock"));
}

static void
test_dmtrace_high_thread_ids (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  g_autoptr(StrataTrace) trace = NULL;

  dmtrace_writer_add_thread (writer, 40000, "high");
  dmtrace_writer_add_method (writer, 4, FOO_B);
  dmtrace_writer_begin_data (writer);
  dmtrace_writer_record (writer, 40000, 4, DMTRACE_ENTER, 0, 0);
  dmtrace_writer_record (writer, 65535, 4, DMTRACE_ENTER, 0, 1);
  dmtrace_writer_record (writer, 40000, 4, DMTRACE_EXIT, 3, 3);
  dmtrace_writer_record (writer, 65535, 4, DMTRACE_EXIT, 4, 4);
  trace = load_ok (writer, FALSE);

  g_assert_cmpuint (strata_test_thread_by_tid (trace, 40000)->spans->n_spans[0], ==, 1);
  g_assert_cmpstr (strata_trace_get_string (trace, strata_test_thread_by_tid (trace, 65535)->name), ==, "Thread 65535");
  g_assert_true (strata_test_has_diagnostic (trace, "1 thread missing from the key"));
}

static void
test_dmtrace_search (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  g_autoptr(StrataTrace) trace = NULL;
  const StrataSpanTable *table;

  add_basic_key (writer);
  dmtrace_writer_begin_data (writer);
  for (guint i = 0; i < 100; i++)
    {
      dmtrace_writer_record (writer, 1, 8, DMTRACE_ENTER, i * 10, i * 10);
      dmtrace_writer_record (writer, 1, 8, DMTRACE_EXIT, i * 10 + 5, i * 10 + 5);
    }
  trace = load_ok (writer, FALSE);

  table = strata_test_thread_by_tid (trace, 1)->spans;
  g_assert_cmpuint (table->n_spans[0], ==, 100);
  g_assert_cmpuint (strata_span_table_search (table, 0, 0), ==, 0);
  g_assert_cmpuint (strata_span_table_search (table, 0, 507000), ==, 51);
  g_assert_cmpuint (strata_span_table_search (table, 0, 505000), ==, 50);
  g_assert_cmpuint (strata_span_table_search (table, 0, 10000000), ==, 100);
}

/* Every corpus method trace loads, or is refused with a reason. */
static void
test_dmtrace_corpus (void)
{
  g_autofree char *dir_path = strata_test_corpus_path ("dmtrace", NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint n_loaded = 0;

  if (dir == NULL)
    {
      strata_test_skip_no_corpus ();
      return;
    }

  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(StrataTrace) trace = strata_test_load_path (path, &error);
      gboolean damaged = strstr (name, "header") || strstr (name, "special_char");

      g_test_message ("%s: %s", name, error ? error->message : "loaded");
      if (damaged)
        {
          g_assert_null (trace);
          g_assert_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT);
          continue;
        }
      g_assert_no_error (error);
      g_assert_cmpuint (strata_trace_get_n_spans (trace), >, 0);
      n_loaded++;
    }
  g_assert_cmpuint (n_loaded, ==, 12);
}

/* One thread whose stack is @depth calls deep: entered and never left
 * (closed at the end of the trace), or left without having been entered
 * (begun before tracing). Either way the load is linear in the depth. */
static void
check_deep_stack (gboolean entered)
{
  const guint depth = 400000;
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  g_autoptr(StrataTrace) trace = NULL;
  const StrataThread *thread;
  gint64 start;
  double seconds;

  dmtrace_writer_add_thread (writer, 1, "main");
  dmtrace_writer_add_method (writer, 0, FOO_A);
  dmtrace_writer_begin_data (writer);
  for (guint i = 0; i < depth; i++)
    dmtrace_writer_record (writer, 1, 0, entered ? DMTRACE_ENTER : DMTRACE_EXIT, i, i);
  start = g_get_monotonic_time ();
  trace = load_ok (writer, FALSE);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  g_test_message ("%u deep, %s: %.3f s", depth, entered ? "never left" : "never entered", seconds);

  thread = strata_trace_get_thread (trace, 0);
  g_assert_cmpuint (thread->spans->n_depths, ==, depth);
  g_assert_cmpuint (strata_trace_get_n_spans (trace), ==, depth);
  /* Quadratic growth took 4.9 s here; linear takes a few tens of ms.
   * The bound leaves room for sanitizers and a busy machine. */
  g_assert_cmpfloat (seconds, <, 3.0);
}

static void
test_dmtrace_deep_stack_open (void)
{
  check_deep_stack (TRUE);
}

static void
test_dmtrace_deep_stack_unentered (void)
{
  check_deep_stack (FALSE);
}

/* A split pair whose other half is a FIFO: the open must not wait for a
 * writer, and the message says which file is wrong. */
static void
test_dmtrace_fifo_partner (void)
{
  for (guint fifo_is_key = 0; fifo_is_key < 2; fifo_is_key++)
    {
      g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
      g_autoptr(GBytes) key = NULL;
      g_autoptr(GBytes) data = NULL;
      g_autofree char *dir = strata_test_make_tmpdir ();
      g_autofree char *stem = g_strdup_printf ("pair-%u", fifo_is_key);
      g_autofree char *key_path = g_strconcat (dir, G_DIR_SEPARATOR_S, stem, ".key", NULL);
      g_autofree char *data_path = g_strconcat (dir, G_DIR_SEPARATOR_S, stem, ".data", NULL);
      g_autoptr(StrataTrace) trace = NULL;
      g_autoptr(GError) error = NULL;
      gint64 start;

      dmtrace_writer_set_split (writer, TRUE);
      add_basic_key (writer);
      write_basic_records (writer);
      key = dmtrace_writer_get_key (writer);
      data = dmtrace_writer_finish (writer, FALSE);
      if (fifo_is_key)
        {
          g_assert_cmpint (mkfifo (key_path, 0600), ==, 0);
          g_assert_true (g_file_set_contents (data_path, g_bytes_get_data (data, NULL), g_bytes_get_size (data), NULL));
        }
      else
        {
          g_assert_cmpint (mkfifo (data_path, 0600), ==, 0);
          g_assert_true (g_file_set_contents (key_path, g_bytes_get_data (key, NULL), g_bytes_get_size (key), NULL));
        }

      start = g_get_monotonic_time ();
      trace = strata_test_load_path (fifo_is_key ? data_path : key_path, &error);
      g_assert_null (trace);
      g_assert_nonnull (error);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, fifo_is_key ? ".key" : ".data"));
      g_assert_nonnull (strstr (error->message, "not a regular file"));
      g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
    }
}

/* A valid trace followed by zero bytes (a sparse gigabyte, and zeros
 * written out): read as records they were thread 0 entering method 0
 * millions of times, ~100 bytes each (2.4 GiB for 256 MiB of zeros).
 * Reading stops where they start, says so, and keeps what came before. */
static void
test_dmtrace_zero_tail (void)
{
  for (guint sparse = 0; sparse < 2; sparse++)
    {
      g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
      g_autoptr(GBytes) whole = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(StrataTrace) trace = NULL;
      g_autofree char *path = NULL;
      gsize zeros = sparse ? (gsize) 1 << 30 : (gsize) 4 << 20;
      struct rusage before, after;
      int fd;

      add_basic_key (writer);
      write_basic_records (writer);
      whole = dmtrace_writer_finish (writer, FALSE);
      path = strata_test_write_file ("zeros.trace", g_bytes_get_data (whole, NULL), g_bytes_get_size (whole));
      fd = g_open (path, O_WRONLY, 0);
      g_assert_cmpint (fd, >=, 0);
      if (sparse)
        g_assert_cmpint (ftruncate (fd, (off_t) (g_bytes_get_size (whole) + zeros)), ==, 0);
      else
        {
          g_autofree char *block = g_malloc0 (zeros);

          g_assert_cmpint (lseek (fd, 0, SEEK_END), >, 0);
          g_assert_cmpint (write (fd, block, zeros), ==, (gssize) zeros);
        }
      close (fd);
      getrusage (RUSAGE_SELF, &before);
      trace = strata_test_load_path (path, &error);
      getrusage (RUSAGE_SELF, &after);
      g_assert_no_error (error);
      g_assert_cmpint (after.ru_maxrss - before.ru_maxrss, <, 64 * 1024);
      /* Every record before the zeros, the last exit included. */
      g_assert_cmpint (strata_test_span_at (strata_test_thread_by_tid (trace, 1), 0, 0).end, ==, 170000);
      g_assert_true (strata_test_has_diagnostic (trace, "only zero bytes"));
      g_assert_false (strata_test_has_diagnostic (trace, "cut mid-record"));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dmtrace/v3-dual", test_dmtrace_v3_dual);
  g_test_add_func ("/dmtrace/v1-thread-cpu", test_dmtrace_v1_thread_cpu);
  g_test_add_func ("/dmtrace/v2-wall", test_dmtrace_v2_wall);
  g_test_add_func ("/dmtrace/v3-single-clock", test_dmtrace_v3_single_clock);
  g_test_add_func ("/dmtrace/global-clock", test_dmtrace_global_clock);
  g_test_add_func ("/dmtrace/missing-clock", test_dmtrace_missing_clock);
  g_test_add_func ("/dmtrace/padded-records", test_dmtrace_padded_records);
  g_test_add_func ("/dmtrace/streaming", test_dmtrace_streaming);
  g_test_add_func ("/dmtrace/streaming-without-summary", test_dmtrace_streaming_without_summary);
  g_test_add_func ("/dmtrace/deep-stack-open", test_dmtrace_deep_stack_open);
  g_test_add_func ("/dmtrace/zero-tail", test_dmtrace_zero_tail);
  g_test_add_func ("/dmtrace/fifo-partner", test_dmtrace_fifo_partner);
  g_test_add_func ("/dmtrace/deep-stack-unentered", test_dmtrace_deep_stack_unentered);
  g_test_add_func ("/dmtrace/split-files", test_dmtrace_split_files);
  g_test_add_func ("/dmtrace/split-missing-half", test_dmtrace_split_missing_half);
  g_test_add_func ("/dmtrace/unknown-method", test_dmtrace_unknown_method);
  g_test_add_func ("/dmtrace/parallel-build", test_dmtrace_parallel_build);
  g_test_add_func ("/dmtrace/parallel-cancel", test_dmtrace_parallel_cancel);
  g_test_add_func ("/dmtrace/unroll", test_dmtrace_unroll);
  g_test_add_func ("/dmtrace/unmatched-exit", test_dmtrace_unmatched_exit);
  g_test_add_func ("/dmtrace/mismatched-exit", test_dmtrace_mismatched_exit);
  g_test_add_func ("/dmtrace/open-at-end", test_dmtrace_open_at_end);
  g_test_add_func ("/dmtrace/non-ascii", test_dmtrace_non_ascii);
  g_test_add_func ("/dmtrace/truncated", test_dmtrace_truncated);
  g_test_add_func ("/dmtrace/absurd-record-size", test_dmtrace_absurd_record_size);
  g_test_add_func ("/dmtrace/header-past-end", test_dmtrace_header_past_end);
  g_test_add_func ("/dmtrace/newer-formats", test_dmtrace_newer_formats);
  g_test_add_func ("/dmtrace/garbage-key", test_dmtrace_garbage_key);
  g_test_add_func ("/dmtrace/clock-wrap", test_dmtrace_clock_wrap);
  g_test_add_func ("/dmtrace/high-thread-ids", test_dmtrace_high_thread_ids);
  g_test_add_func ("/dmtrace/search", test_dmtrace_search);
  g_test_add_func ("/dmtrace/corpus", test_dmtrace_corpus);

  return g_test_run ();
}
