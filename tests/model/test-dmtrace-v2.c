/* test-dmtrace-v2.c: ART's method trace format V2
 *
 * One call sequence (two threads, a method already running when tracing
 * began, an exception unwinding a call, a thread known only by its
 * records) written by a writer that follows ART's trace.cc, in every
 * clock, streaming and not, with method infos before and after the
 * records that use them, and in blocks of several sizes; and the same
 * sequence written as a v3 dmtrace. Each V2 trace loads to the v3 one's
 * calls, call tree and clocks. Cut files keep what came before the cut.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "art-trace-writer.h"
#include "dmtrace-writer.h"
#include "strata-call-tree.h"
#include "strata-error.h"
#include "strata-test-model.h"
#include "strata-test-util.h"

#define N_METHODS 6
#define START_NS G_GUINT64_CONSTANT (5000000000)

typedef struct
{
  guint32 tid;
  guint   method;
  guint   action;
  guint32 wall_us;
  guint32 cpu_us;
} Step;

static const char *const method_fields[N_METHODS][4] = {
  { "android.os.Looper", "loop", "()V", "Looper.java" },
  { "com.example.App", "onCreate", "(Landroid/os/Bundle;)V", "App.java" },
  { "com.example.App", "layout", "(II)V", "App.java" },
  { "com.example.Net", "fetch", "(Ljava/lang/String;)[B", "Net.java" },
  { "java.lang.String", "hashCode", "()I", "String.java" },
  { "com.example.Net", "parse", "([B)Ljava/lang/Object;", "Net.java" },
};

/* ArtMethod pointers: 8-byte aligned, far apart, above 32 bits. */
static guint64
art_method (guint method)
{
  return G_GUINT64_CONSTANT (0x7a1c000000) + method * 0x38;
}

/* The sequence: per thread a random walk of calls, times in whole µs so
 * that v3 holds them exactly; thread 9 begins inside Looper.loop. */
static GArray *
make_steps_from (guint32  seed,
                 gboolean running_before)
{
  GArray *steps = g_array_new (FALSE, FALSE, sizeof (Step));
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  guint32 tids[] = { 9, 31245 };
  guint32 wall = 10, cpu[2] = { 0, 0 };
  guint stack[2][64], depth[2] = { 0, 0 };

  g_array_append_val (steps, ((Step) { 9, 2, 0, wall, 0 }));
  g_array_append_val (steps, ((Step) { 9, 2, 1, wall += 3, cpu[0] += 2 }));
  if (running_before)
    g_array_append_val (steps, ((Step) { 9, 0, 1, wall += 5, cpu[0] += 4 }));
  for (guint i = 0; i < 400; i++)
    {
      guint t = g_rand_int_range (rand, 0, 2);
      gboolean enter = depth[t] == 0 || (depth[t] < 12 && g_rand_boolean (rand));
      Step step = { tids[t], 0, 0, wall += g_rand_int_range (rand, 1, 40), cpu[t] += g_rand_int_range (rand, 0, 30) };

      if (enter)
        step.method = stack[t][depth[t]++] = g_rand_int_range (rand, 0, N_METHODS);
      else
        {
          step.method = stack[t][--depth[t]];
          /* Now and then an exception unwinds the call. */
          step.action = g_rand_int_range (rand, 0, 10) == 0 ? 2 : 1;
        }
      g_array_append_val (steps, step);
    }
  return steps;
}

static GArray *
make_steps (guint32 seed)
{
  return make_steps_from (seed, TRUE);
}

static GBytes *
write_v3 (GArray     *steps,
          const char *clock)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, clock, FALSE);
  gboolean dual = g_str_equal (clock, "dual");

  if (!dual)
    dmtrace_writer_set_record_size (writer, 10);
  dmtrace_writer_add_thread (writer, 9, "main");
  dmtrace_writer_add_thread (writer, 31245, "Thread 31245");
  for (guint m = 0; m < N_METHODS; m++)
    {
      g_autofree char *fields = g_strjoinv ("\t", (char **) method_fields[m]);

      dmtrace_writer_add_method (writer, (m + 1) * 4, fields);
    }
  dmtrace_writer_begin_data (writer);
  for (guint i = 0; i < steps->len; i++)
    {
      const Step *step = &g_array_index (steps, Step, i);

      if (dual)
        dmtrace_writer_record (writer, step->tid, (step->method + 1) * 4, step->action, step->cpu_us, step->wall_us);
      else
        dmtrace_writer_record (writer, step->tid, (step->method + 1) * 4, step->action,
                               g_str_equal (clock, "wall") ? step->wall_us : step->cpu_us, 0);
    }
  return dmtrace_writer_finish (writer, FALSE);
}

static void
write_methods (ArtTraceWriter *writer)
{
  for (guint m = 0; m < N_METHODS; m++)
    art_trace_writer_method (writer, art_method (m), method_fields[m][0], method_fields[m][1],
                             method_fields[m][2], method_fields[m][3]);
}

/* @methods_after: the method infos after every record; @block: records a
 * thread flushes at a time (ART flushes a full per-thread buffer). */
static GBytes *
write_v2 (GArray     *steps,
          const char *clock,
          gboolean    streaming,
          gboolean    methods_after,
          guint       block)
{
  g_autoptr(ArtTraceWriter) writer = art_trace_writer_new (clock, streaming, START_NS);
  guint counts[2] = { 0, 0 };

  /* Thread 31245 never had its info written: ART skips "Shutdown
   * thread", and a cut file can lose it. */
  art_trace_writer_thread (writer, 9, "main");
  if (!methods_after)
    write_methods (writer);
  for (guint i = 0; i < steps->len; i++)
    {
      const Step *step = &g_array_index (steps, Step, i);
      guint t = step->tid == 9 ? 0 : 1;

      art_trace_writer_event (writer, step->tid, art_method (step->method), step->action,
                              (guint64) step->wall_us * 1000, (guint64) step->cpu_us * 1000);
      if (++counts[t] % block == 0)
        art_trace_writer_flush (writer, step->tid);
    }
  if (methods_after)
    write_methods (writer);
  return art_trace_writer_finish (writer);
}

/* Every call of every thread, by tid: its method, depth, times from the
 * clock's origin on each clock, and where its children start. */
static char *
describe_calls (StrataTrace *trace)
{
  GString *text = g_string_new (NULL);
  guint n_clocks = strata_trace_get_n_clocks (trace);

  for (guint c = 0; c < n_clocks; c++)
    g_string_append_printf (text, "clock %u: %d\n", c, strata_trace_get_clock_kind (trace, c));
  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    {
      const StrataThread *thread = strata_trace_get_thread (trace, t);

      g_string_append_printf (text, "thread %" G_GINT64_FORMAT " %s, %u before\n", thread->tid,
                              strata_trace_get_string (trace, thread->name), thread->n_entered_before);
      for (guint d = 0; thread->spans != NULL && d < thread->spans->n_depths; d++)
        for (guint32 i = 0; i < thread->spans->n_spans[d]; i++)
          {
            g_string_append_printf (text, "  %u %s %u", d,
                                    strata_trace_get_method_name (trace, thread->spans->calls[d][i].method),
                                    thread->spans->calls[d][i].first_child);
            for (guint c = 0; c < n_clocks; c++)
              {
                gint64 origin = strata_trace_get_clock_origin (trace, c);

                g_string_append_printf (text, " %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT,
                                        strata_span_table_get_start (thread->spans, c, d, i) - origin,
                                        strata_span_table_get_end (thread->spans, c, d, i) - origin);
              }
            g_string_append_c (text, '\n');
          }
    }
  return g_string_free (text, FALSE);
}

static char *
describe_tree (StrataTrace *trace)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataCallTree) tree = strata_call_tree_new (trace, -1, TRUE, NULL, NULL, &error);

  g_assert_no_error (error);
  return strata_test_describe_tree (tree);
}

static void
check_same_as_v3 (const char *clock)
{
  g_autoptr(GArray) steps = make_steps (g_str_hash (clock));
  g_autoptr(StrataTrace) v3 = strata_test_load_bytes (write_v3 (steps, clock), "v3.trace");
  g_autofree char *expected = describe_calls (v3);
  g_autofree char *expected_tree = describe_tree (v3);

  g_assert_nonnull (strstr (expected, "thread 9 main, 1 before"));
  for (guint variant = 0; variant < 8; variant++)
    {
      gboolean streaming = variant & 1, methods_after = variant & 2;
      guint block = variant & 4 ? 7 : 10000;
      g_autoptr(StrataTrace) v2 = strata_test_load_bytes (write_v2 (steps, clock, streaming, methods_after, block), "v2.trace");
      g_autofree char *calls = describe_calls (v2);
      g_autofree char *tree = describe_tree (v2);

      g_test_message ("%s, %s, methods %s, blocks of %u", clock, streaming ? "streaming" : "file",
                      methods_after ? "after" : "before", block);
      g_assert_cmpstr (calls, ==, expected);
      g_assert_cmpstr (tree, ==, expected_tree);
      g_assert_cmpuint (strata_trace_get_n_diagnostics (v2), ==, strata_trace_get_n_diagnostics (v3));
      g_assert_nonnull (strstr (strata_trace_get_format_detail (v2), "V2"));
    }
}

static void
test_dmtrace_v2_dual (void)
{
  check_same_as_v3 ("dual");
}

static void
test_dmtrace_v2_wall (void)
{
  check_same_as_v3 ("wall");
}

static void
test_dmtrace_v2_thread_cpu (void)
{
  check_same_as_v3 ("thread-cpu");
}

/* Cut anywhere: what came before the cut loads, and the trace says it
 * was cut; never a crash. */
static void
test_dmtrace_v2_cut (void)
{
  g_autoptr(GArray) steps = make_steps (7);
  g_autoptr(GBytes) whole = write_v2 (steps, "dual", TRUE, FALSE, 50);
  gsize len;
  const guint8 *data = g_bytes_get_data (whole, &len);
  guint64 previous = 0;

  for (gsize cut = 32; cut < len; cut += 1 + cut / 40)
    {
      g_autoptr(StrataTrace) trace = strata_test_load_bytes (g_bytes_new (data, cut), "cut.trace");
      guint64 n = strata_trace_get_n_spans (trace);

      g_assert_cmpuint (n, >=, previous);
      previous = n;
      if (cut < len - 100)
        g_assert_true (strata_test_has_diagnostic (trace, "cut") || strata_test_has_diagnostic (trace, "ends"));
    }
  g_assert_cmpuint (previous, >, 100);
}

/* ---- The variant Perfetto reads ---- */

/* As Perfetto's art_method_v2_tokenizer.cc reads it: the counter's start
 * and frequency in the header, records of (ticks << 2 | action), the CPU
 * time on dual clocks, the method on entries only. One block per thread. */
static GBytes *
write_v2_ticks (GArray     *steps,
                gboolean    dual,
                guint64     tsc_hz)
{
  GByteArray *out = g_byte_array_new ();
  guint32 tids[] = { 9, 31245 };

  art_put_le (out, 0x574f4c53u, 4);
  art_put_le (out, dual ? 0xF5 : 0xF4, 2);
  art_put_le (out, START_NS, 8);
  art_put_le (out, tsc_hz != 0 ? G_GUINT64_CONSTANT (123456789) : 0, 8);
  art_put_le (out, tsc_hz, 8);
  art_put_le (out, 0, 2);
  g_byte_array_append (out, (const guint8 *) "\0", 1);
  art_put_le (out, 9, 4);
  art_put_le (out, 4, 2);
  g_byte_array_append (out, (const guint8 *) "main", 4);
  for (guint m = 0; m < N_METHODS; m++)
    {
      g_autofree char *line = g_strdup_printf ("%s\t%s\t%s\t%s\n", method_fields[m][0], method_fields[m][1],
                                               method_fields[m][2], method_fields[m][3]);

      g_byte_array_append (out, (const guint8 *) "\1", 1);
      art_put_le (out, art_method (m), 8);
      art_put_le (out, strlen (line), 2);
      g_byte_array_append (out, (const guint8 *) line, strlen (line));
    }
  for (guint t = 0; t < G_N_ELEMENTS (tids); t++)
    {
      g_autoptr(GByteArray) payload = g_byte_array_new ();
      guint64 prev_ticks = 0, prev_cpu = 0, prev_method = 0;
      guint count = 0;

      for (guint i = 0; i < steps->len; i++)
        {
          const Step *step = &g_array_index (steps, Step, i);
          guint64 ticks = tsc_hz != 0 ? (guint64) step->wall_us * (tsc_hz / 1000000) : (guint64) step->wall_us * 1000;
          guint64 value = ticks << 2 | step->action;

          if (step->tid != tids[t])
            continue;
          art_put_sleb (payload, (gint64) (value - prev_ticks));
          prev_ticks = value;
          if (dual)
            {
              art_put_sleb (payload, (gint64) ((guint64) step->cpu_us * 1000 - prev_cpu));
              prev_cpu = (guint64) step->cpu_us * 1000;
            }
          if (step->action == 0)
            {
              art_put_sleb (payload, (gint64) (art_method (step->method) - prev_method));
              prev_method = art_method (step->method);
            }
          count++;
        }
      g_byte_array_append (out, (const guint8 *) "\2", 1);
      art_put_le (out, tids[t], 4);
      art_put_le (out, count, 3);
      art_put_le (out, payload->len, 4);
      g_byte_array_append (out, payload->data, payload->len);
    }
  return g_byte_array_free_to_bytes (out);
}

/* Perfetto's variant, its counter at 24 MHz or in ns (told apart by a
 * trial decode), loads to the calls the v3 trace has. */
static void
test_dmtrace_v2_ticks (void)
{
  for (guint dual = 0; dual < 2; dual++)
    {
      const char *clock = dual ? "dual" : "wall";
      /* An exit names no method here: one without its entry (a call
       * running when tracing began) cannot say whose it is. */
      g_autoptr(GArray) steps = make_steps_from (g_str_hash (clock), FALSE);
      g_autoptr(StrataTrace) v3 = strata_test_load_bytes (write_v3 (steps, clock), "v3.trace");
      g_autofree char *expected = describe_calls (v3);

      for (guint hz = 0; hz < 2; hz++)
        {
          g_autoptr(StrataTrace) v2 = strata_test_load_bytes (write_v2_ticks (steps, dual, hz ? 24000000 : 0), "ticks.trace");
          g_autofree char *calls = describe_calls (v2);

          g_test_message ("%s, counter at %s", clock, hz ? "24 MHz" : "1 GHz");
          g_assert_cmpstr (calls, ==, expected);
          g_assert_nonnull (strstr (strata_trace_get_format_detail (v2), "counter"));
        }
    }
}

/* ---- Long-running methods in an ANR dump ---- */

/* Long calls only (ART keeps no others): on main, onCreate > layout >
 * fetch, and parse after them; on a second thread, loop > hashCode. */
static const Step long_steps[] = {
  { 9, 1, 0, 1000, 0 }, { 9, 2, 0, 1300, 0 }, { 9, 3, 0, 1400, 0 }, { 9, 3, 1, 1900, 0 },
  { 9, 2, 1, 2500, 0 }, { 9, 1, 1, 2600, 0 }, { 9, 5, 0, 3000, 0 }, { 9, 5, 1, 3400, 0 },
  { 31245, 0, 0, 1200, 0 }, { 31245, 4, 0, 1500, 0 }, { 31245, 4, 1, 2700, 0 }, { 31245, 0, 1, 4000, 0 },
};

/* As TraceProfiler dumps it: each thread's events in blocks (main's in
 * two), then the methods. Times are in ms, ×1,000,000 to ns. */
static GBytes *
write_long_running (void)
{
  GByteArray *out = g_byte_array_new ();
  guint64 times[8], methods[8];
  guint n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (long_steps); i++)
    {
      const Step *step = &long_steps[i];

      times[n] = G_GUINT64_CONSTANT (700000000000) + (guint64) step->wall_us * 1000000;
      methods[n] = step->action == 0 ? art_method (step->method) : 0;
      n++;
      if (i == 3 || i == 7 || i == 11)
        {
          art_lrm_write_block (out, step->tid, times, methods, n);
          n = 0;
        }
    }
  for (guint m = 0; m < N_METHODS; m++)
    art_lrm_write_method (out, art_method (m), method_fields[m][0], method_fields[m][1],
                          method_fields[m][2], method_fields[m][3]);
  return g_byte_array_free_to_bytes (out);
}

/* The same calls as a v3 trace on the wall clock, in µs. */
static GBytes *
write_long_running_v3 (void)
{
  g_autoptr(GArray) steps = g_array_new (FALSE, FALSE, sizeof (Step));

  for (guint i = 0; i < G_N_ELEMENTS (long_steps); i++)
    {
      Step step = long_steps[i];

      step.wall_us *= 1000;
      g_array_append_val (steps, step);
    }
  return write_v3 (steps, "wall");
}

static char *
anr_text (GBytes *raw)
{
  g_autofree char *encoded = g_base64_encode (g_bytes_get_data (raw, NULL), g_bytes_get_size (raw));

  return g_strdup_printf ("\n----- pid 4242 at 2026-11-27 10:00:00.000000000+0000 -----\n"
                          "Cmd line: com.example.app\n"
                          "Build fingerprint: 'google/example/example:16/BP2A/1:user/release-keys'\n"
                          "LongRunningMethods: %s\n\n"
                          "\"main\" prio=5 tid=1 Native\n"
                          "  | group=\"main\" sCount=1 ucsCount=0 flags=1 obj=0x72a4c1f8 self=0xb400\n"
                          "  | sysTid=9 nice=-10 cgrp=top-app sched=0/0 handle=0x7f\n"
                          "  at android.os.MessageQueue.nativePollOnce(Native method)\n\n"
                          "\"Thread 31245\" prio=5 tid=9 Waiting\n"
                          "  | sysTid=31245 nice=0 cgrp=top-app sched=0/0 handle=0x7e\n\n"
                          "----- end 4242 -----\n", encoded);
}

static void
test_dmtrace_v2_long_running (void)
{
  g_autoptr(GBytes) raw = write_long_running ();
  g_autoptr(StrataTrace) v3 = strata_test_load_bytes (write_long_running_v3 (), "v3.trace");
  g_autofree char *text = anr_text (raw);
  g_autoptr(StrataTrace) from_text = strata_test_load_bytes (g_bytes_new (text + 1, strlen (text + 1)), "traces.txt");
  g_autoptr(StrataTrace) from_raw = strata_test_load_bytes (g_bytes_ref (raw), "lrm.bin");
  g_autofree char *expected = describe_calls (v3);
  g_autofree char *calls_text = describe_calls (from_text);
  g_autofree char *calls_raw = describe_calls (from_raw);

  g_assert_cmpstr (calls_text, ==, expected);
  g_assert_nonnull (strstr (calls_text, "com.example.Net.fetch"));
  g_assert_cmpstr (strata_trace_get_format_detail (from_text), ==, "ART long-running methods, from an ANR dump");
  g_assert_cmpstr (strata_trace_get_string (from_text, strata_trace_get_process (from_text, 0)->name), ==, "com.example.app");
  g_assert_cmpint (strata_trace_get_process (from_text, 0)->pid, ==, 4242);
  g_assert_true (strata_test_has_note (from_text, "170 ms"));
  g_assert_cmpuint (strata_trace_get_n_diagnostics (from_text), ==, 0);
  /* Raw, the dump's thread names are not there. */
  g_assert_nonnull (strstr (calls_raw, "thread 9 Thread 9"));
  g_assert_cmpstr (strata_trace_get_format_detail (from_raw), ==, "ART long-running methods");
}

/* A dump without the line says so; a cut line loads what it holds. */
static void
test_dmtrace_v2_long_running_damaged (void)
{
  g_autoptr(GBytes) raw = write_long_running ();
  g_autofree char *text = anr_text (raw);
  const char *plain = "----- pid 1 at 2026-11-27 -----\nCmd line: app\n\"main\" prio=5 tid=1\n  | sysTid=1\n----- end 1 -----\n";
  g_autofree char *path = strata_test_write_file ("anr.txt", plain, strlen (plain));
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) none = strata_test_load_path (path, &error);
  char *marker = strstr (text, "LongRunningMethods: ") + strlen ("LongRunningMethods: ");

  g_assert_null (none);
  g_assert_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "LongRunningMethods"));
  for (gsize keep = 8; keep < strlen (marker) - 1; keep += 4)
    {
      g_autofree char *cut = g_strdup_printf ("----- pid 4242 at x -----\nLongRunningMethods: %.*s\n", (int) keep, marker);
      g_autoptr(StrataTrace) trace = strata_test_load_bytes (g_bytes_new (cut, strlen (cut)), "cut.txt");

      g_assert_nonnull (trace);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dmtrace-v2/dual", test_dmtrace_v2_dual);
  g_test_add_func ("/dmtrace-v2/wall", test_dmtrace_v2_wall);
  g_test_add_func ("/dmtrace-v2/thread-cpu", test_dmtrace_v2_thread_cpu);
  g_test_add_func ("/dmtrace-v2/cut", test_dmtrace_v2_cut);
  g_test_add_func ("/dmtrace-v2/perfetto-variant", test_dmtrace_v2_ticks);
  g_test_add_func ("/dmtrace-v2/long-running", test_dmtrace_v2_long_running);
  g_test_add_func ("/dmtrace-v2/long-running-damaged", test_dmtrace_v2_long_running_damaged);
  return g_test_run ();
}
