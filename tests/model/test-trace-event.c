/* test-trace-event.c: the Trace Event JSON loader, phase by phase
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-error.h"
#include "strata-event-args.h"
#include "strata-json-scan.h"
#include "strata-loader.h"
#include "strata-profile.h"
#include "strata-test-util.h"

static StrataTrace *
load_bytes (const void  *data,
            gsize        len,
            GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent/strata-test/trace.json");
  g_autoptr(StrataLoader) loader = strata_loader_new (file);
  g_autoptr(GBytes) bytes = g_bytes_new (data, len);

  return strata_loader_load_bytes (loader, bytes, NULL, error);
}

static StrataTrace *
load_json (const char *text)
{
  g_autoptr(GError) error = NULL;
  StrataTrace *trace = load_bytes (text, strlen (text), &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}


static const StrataEvent *
find_event (StrataTrace *trace,
            char         phase,
            const char  *name)
{
  for (guint i = 0; i < strata_trace_get_n_events (trace); i++)
    {
      const StrataEvent *event = strata_trace_get_event (trace, i);

      if (event->phase == phase && g_str_equal (strata_trace_get_string (trace, event->name), name))
        return event;
    }
  return NULL;
}

static void
test_slices (void)
{
  g_autoptr(StrataTrace) trace = load_json (
    "[{\"ph\":\"B\",\"name\":\"outer\",\"cat\":\"c\",\"pid\":1,\"tid\":2,\"ts\":10},\n"
    " {\"ph\":\"X\",\"name\":\"inner\",\"cat\":\"c\",\"pid\":1,\"tid\":2,\"ts\":11.5,\"dur\":2.25},\n"
    " {\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":20},\n"
    " {\"ph\":\"X\",\"name\":\"late\",\"pid\":1,\"tid\":2,\"ts\":30,\"dur\":1},\n"
    " {\"tid\":2,\"dur\":1,\"ts\":25,\"pid\":1,\"name\":\"early\",\"ph\":\"X\"},\n"
    " {\"ph\":\"X\",\"name\":\"precise\",\"pid\":1,\"tid\":3,\"ts\":1234567890123.456789,\"dur\":1e-3}]");
  const StrataThread *thread = strata_test_thread_by_tid (trace, 2);
  const StrataThread *precise = strata_test_thread_by_tid (trace, 3);

  g_assert_cmpuint (strata_trace_get_n_spans (trace), ==, 5);
  g_assert_cmpuint (thread->spans->n_depths, ==, 2);
  strata_test_assert_span (trace, thread, 0, 0, "outer", 10000, 20000);
  strata_test_assert_span (trace, thread, 0, 1, "early", 25000, 26000);
  strata_test_assert_span (trace, thread, 0, 2, "late", 30000, 31000);
  strata_test_assert_span (trace, thread, 1, 0, "inner", 11500, 13750);
  g_assert_cmpuint (strata_test_span_at (thread, 0, 0).first_child, ==, 0);
  g_assert_cmpuint (strata_test_span_at (thread, 0, 1).first_child, ==, 1);
  /* Nanosecond digits beyond a double's precision survive. */
  strata_test_assert_span (trace, precise, 0, 0, "precise", G_GINT64_CONSTANT (1234567890123457), G_GINT64_CONSTANT (1234567890123458));
  g_assert_cmpuint (strata_trace_get_phase_count (trace, 'X'), ==, 4);
  g_assert_cmpuint (strata_trace_get_phase_count (trace, 'B'), ==, 1);
  g_assert_cmpuint (strata_trace_get_n_diagnostics (trace), ==, 0);
}

static void
test_nesting (void)
{
  /* b is written first but a is longer: a holds b. s spills past a. */
  g_autoptr(StrataTrace) trace = load_json (
    "[{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":5},"
    " {\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10},"
    " {\"ph\":\"X\",\"name\":\"z\",\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":0},"
    " {\"ph\":\"X\",\"name\":\"s\",\"pid\":1,\"tid\":1,\"ts\":8,\"dur\":5},"
    " {\"ph\":\"X\",\"name\":\"n\",\"pid\":1,\"tid\":1,\"ts\":20,\"dur\":-4}]");
  const StrataThread *thread = strata_test_thread_by_tid (trace, 1);

  strata_test_assert_span (trace, thread, 0, 0, "a", 0, 10000);
  strata_test_assert_span (trace, thread, 0, 1, "n", 20000, 20000);
  strata_test_assert_span (trace, thread, 1, 0, "b", 0, 5000);
  strata_test_assert_span (trace, thread, 1, 1, "s", 8000, 10000);
  strata_test_assert_span (trace, thread, 2, 0, "z", 3000, 3000);
  g_assert_true (strata_test_has_diagnostic (trace, "1 slice ran past the end of its parent"));
  g_assert_true (strata_test_has_diagnostic (trace, "negative duration"));
}

/* Calls that start together nest by length, the one read first outside
 * of two alike; runs long and short, times on both sides of zero, and
 * calls enough to be sorted by radix. */
static void
test_tied_starts (void)
{
  g_autoptr(GString) json = g_string_new ("[{\"ph\":\"X\",\"name\":\"twin-a\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":5},"
                                          "{\"ph\":\"X\",\"name\":\"far-pos\",\"pid\":1,\"tid\":1,\"ts\":1e9,\"dur\":1},"
                                          "{\"ph\":\"X\",\"name\":\"twin-b\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":5}");
  g_autoptr(StrataTrace) trace = NULL;
  const StrataThread *thread;

  /* 40 calls at -7 µs, written in a scrambled order of length. */
  for (guint i = 0; i < 40; i++)
    g_string_append_printf (json, ",{\"ph\":\"X\",\"name\":\"d%u\",\"pid\":1,\"tid\":1,\"ts\":-7,\"dur\":%u}",
                            (i * 17) % 40 + 1, (i * 17) % 40 + 1);
  /* Enough calls to be sorted by radix, as a long recording's are. */
  for (guint i = 0; i < 5000; i++)
    g_string_append_printf (json, ",{\"ph\":\"X\",\"name\":\"fill\",\"pid\":1,\"tid\":1,\"ts\":%u,\"dur\":1}", 5000 + 7 * (4999 - i));
  g_string_append (json, ",{\"ph\":\"X\",\"name\":\"far-neg\",\"pid\":1,\"tid\":1,\"ts\":-1e9,\"dur\":1}]");
  trace = load_json (json->str);
  thread = strata_test_thread_by_tid (trace, 1);

  strata_test_assert_span (trace, thread, 0, 0, "far-neg", G_GINT64_CONSTANT (-1000000000000), G_GINT64_CONSTANT (-999999999000));
  for (guint d = 0; d < 40; d++)
    {
      g_autofree char *name = g_strdup_printf ("d%u", 40 - d);

      strata_test_assert_span (trace, thread, d, d == 0 ? 1 : 0, name, -7000, -7000 + (gint64) (40 - d) * 1000);
    }
  strata_test_assert_span (trace, thread, 0, 2, "twin-a", 100000, 105000);
  strata_test_assert_span (trace, thread, 1, 1, "twin-b", 100000, 105000);
  for (guint i = 0; i < 5000; i++)
    strata_test_assert_span (trace, thread, 0, 3 + i, "fill", (5000 + 7 * (gint64) i) * 1000, (5001 + 7 * (gint64) i) * 1000);
  strata_test_assert_span (trace, thread, 0, 5003, "far-pos", G_GINT64_CONSTANT (1000000000000), G_GINT64_CONSTANT (1000000001000));
}

static void
test_begin_end_repairs (void)
{
  g_autoptr(StrataTrace) trace = load_json (
    "[{\"ph\":\"B\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":0},"
    " {\"ph\":\"B\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":1},"
    " {\"ph\":\"E\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":2},"
    " {\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":3},"
    " {\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":4},"
    " {\"ph\":\"B\",\"name\":\"c\",\"pid\":1,\"tid\":1,\"ts\":5},"
    " {\"ph\":\"X\",\"name\":\"d\",\"pid\":1,\"tid\":1,\"ts\":6,\"dur\":4}]");
  const StrataThread *thread = strata_test_thread_by_tid (trace, 1);

  strata_test_assert_span (trace, thread, 0, 0, "a", 0, 3000);
  strata_test_assert_span (trace, thread, 0, 1, "c", 5000, 10000);
  strata_test_assert_span (trace, thread, 1, 0, "b", 1000, 2000);
  strata_test_assert_span (trace, thread, 1, 1, "d", 6000, 10000);
  g_assert_true (strata_test_has_diagnostic (trace, "1 end event (“E”) had no begin"));
  g_assert_true (strata_test_has_diagnostic (trace, "names another slice"));
  g_assert_true (strata_test_has_diagnostic (trace, "1 begin event (“B”) never ended"));
}

static void
test_truncated (void)
{
  const char *head = "[{\"ph\":\"X\",\"name\":\"one\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":1},"
                     "{\"ph\":\"X\",\"name\":\"two\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":1}";
  const char *tails[] = { "", ",", ",\n  ", ",{\"ph\":\"X\",\"na", ",{\"ph\":\"X\",\"name\":\"three\",\"args\":{\"x\":[1," };

  for (guint i = 0; i < G_N_ELEMENTS (tails); i++)
    {
      g_autofree char *text = g_strconcat (head, tails[i], NULL);
      g_autoptr(StrataTrace) trace = load_json (text);

      g_test_message ("tail %u: %s", i, tails[i]);
      g_assert_cmpuint (strata_trace_get_n_spans (trace), ==, 2);
      g_assert_true (strata_test_has_diagnostic (trace, "without its closing “]”"));
      g_assert_true (strata_test_has_diagnostic (trace, "incomplete last event") == (i >= 3));
    }

  {
    g_autofree char *text = g_strconcat (head, ",]", NULL);
    g_autoptr(StrataTrace) trace = load_json (text);

    g_assert_cmpuint (strata_trace_get_n_spans (trace), ==, 2);
    g_assert_true (strata_test_has_diagnostic (trace, "ends with a comma"));
  }
}

static void
test_object_form (void)
{
  g_autoptr(StrataTrace) trace = load_json (
    "\xEF\xBB\xBF{\"otherData\":{\"version\":\"1.2\"},\"displayTimeUnit\":\"ns\",\n"
    " \"traceEvents\":[{\"ph\":\"X\",\"name\":\"x\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}],\n"
    " \"systemTraceEvents\":\"# tracer: nop\\n\",\"metadata\":{\"n\":1}}");
  g_autoptr(GHashTable) metadata = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < strata_trace_get_n_metadata (trace); i++)
    {
      const char *key, *value;

      strata_trace_get_metadata (trace, i, &key, &value);
      g_hash_table_insert (metadata, (gpointer) key, (gpointer) value);
    }
  g_assert_cmpuint (strata_trace_get_n_spans (trace), ==, 1);
  g_assert_cmpstr (g_hash_table_lookup (metadata, "displayTimeUnit"), ==, "ns");
  g_assert_cmpstr (g_hash_table_lookup (metadata, "otherData"), ==, "{\"version\":\"1.2\"}");
  g_assert_cmpstr (g_hash_table_lookup (metadata, "metadata"), ==, "{\"n\":1}");
  g_assert_nonnull (g_hash_table_lookup (metadata, "systemTraceEvents"));
}

/* Big enough that events straddle the inflating windows. */
static char *
many_events (guint n)
{
  GString *text = g_string_new ("{\"traceEvents\":[\n");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "%s{\"ph\":\"X\",\"name\":\"slice %u\",\"cat\":\"t\",\"pid\":1,\"tid\":%u,"
                            "\"ts\":%u.5,\"dur\":0.25,\"args\":{\"padding\":\"%0*u\"}}\n",
                            i ? "," : "", i % 100, i % 7, i, (int) (i % 200), 0);
  g_string_append (text, "]}");
  return g_string_free (text, FALSE);
}

static void
test_gzip (void)
{
  g_autofree char *text = many_events (150000);
  g_autoptr(GBytes) zipped = strata_test_gzip (text, strlen (text));
  g_autoptr(StrataTrace) plain = load_json (text);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = load_bytes (g_bytes_get_data (zipped, NULL), g_bytes_get_size (zipped), &error);
  g_autoptr(GBytes) cut = NULL;
  g_autoptr(StrataTrace) partial = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (strata_trace_get_n_spans (trace), ==, 150000);
  g_assert_cmpuint (strata_trace_get_n_spans (plain), ==, 150000);
  g_assert_cmpuint (strata_trace_get_n_methods (trace), ==, strata_trace_get_n_methods (plain));
  g_assert_cmpint (strata_trace_get_end (trace), ==, strata_trace_get_end (plain));
  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    {
      const StrataThread *a = strata_trace_get_thread (trace, t);
      const StrataThread *b = strata_trace_get_thread (plain, t);

      g_assert_cmpuint (strata_span_table_get_n_spans (a->spans), ==, strata_span_table_get_n_spans (b->spans));
      strata_test_assert_same_calls (a->spans, b->spans, 0);
      /* Offsets count inflated bytes, the same as in the plain file. */
      g_assert_cmpmem (a->spans->sources[0], a->spans->n_spans[0] * sizeof (guint64),
                       b->spans->sources[0], b->spans->n_spans[0] * sizeof (guint64));
    }

  /* A cut gzip stream keeps what came before the cut. */
  cut = g_bytes_new_from_bytes (zipped, 0, g_bytes_get_size (zipped) / 2);
  partial = load_bytes (g_bytes_get_data (cut, NULL), g_bytes_get_size (cut), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strata_trace_get_n_spans (partial), >, 10000);
  g_assert_cmpuint (strata_trace_get_n_spans (partial), <, 150000);
}

static void
test_instants (void)
{
  g_autoptr(StrataTrace) trace = load_json (
    "[{\"ph\":\"i\",\"name\":\"global\",\"s\":\"g\",\"pid\":1,\"tid\":1,\"ts\":1},"
    " {\"ph\":\"i\",\"name\":\"process\",\"s\":\"p\",\"pid\":1,\"tid\":1,\"ts\":2},"
    " {\"ph\":\"I\",\"name\":\"thread\",\"pid\":1,\"tid\":1,\"ts\":3},"
    " {\"ph\":\"R\",\"name\":\"mark\",\"pid\":1,\"tid\":1,\"ts\":4},"
    " {\"ph\":\"c\",\"name\":\"clock_sync\",\"pid\":1,\"tid\":1,\"ts\":5,\"args\":{\"sync_id\":\"x\"}}]");
  const StrataEvent *global = find_event (trace, 'i', "global");
  const StrataEvent *process = find_event (trace, 'i', "process");
  const StrataEvent *thread = find_event (trace, 'I', "thread");

  g_assert_nonnull (global);
  g_assert_cmpint (global->scope, ==, 'g');
  g_assert_cmpuint (global->thread, ==, STRATA_NO_THREAD);
  g_assert_cmpint (process->scope, ==, 'p');
  g_assert_cmpint (thread->scope, ==, 't');
  g_assert_cmpuint (thread->thread, !=, STRATA_NO_THREAD);
  g_assert_cmpint (thread->start, ==, 3000);
  g_assert_nonnull (find_event (trace, 'R', "mark"));
  g_assert_nonnull (find_event (trace, 'c', "clock_sync"));
  g_assert_cmpint (strata_trace_get_start (trace), ==, 1000);
  g_assert_cmpint (strata_trace_get_end (trace), ==, 5000);
}

static const StrataCounter *
find_counter (StrataTrace *trace,
              gint64       pid,
              const char  *name,
              const char  *id)
{
  for (guint i = 0; i < strata_trace_get_n_counters (trace); i++)
    {
      const StrataCounter *counter = strata_trace_get_counter (trace, i);

      if (strata_trace_get_process (trace, counter->process)->pid == pid &&
          g_str_equal (strata_trace_get_string (trace, counter->name), name) &&
          g_str_equal (strata_trace_get_string (trace, counter->id), id))
        return counter;
    }
  return NULL;
}

static void
test_counters (void)
{
  g_autoptr(StrataTrace) trace = load_json (
    "[{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"ts\":0,\"args\":{\"a\":1,\"b\":2}},"
    " {\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"ts\":2,\"args\":{\"a\":3.5}},"
    " {\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"ts\":1,\"args\":{\"b\":\"5\",\"bad\":{}}},"
    " {\"ph\":\"C\",\"name\":\"mem\",\"pid\":2,\"ts\":1,\"args\":{\"a\":7}},"
    " {\"ph\":\"C\",\"name\":\"mem\",\"id\":9,\"pid\":1,\"ts\":1,\"args\":{\"a\":8}}]");
  const StrataCounter *mem = find_counter (trace, 1, "mem", "");
  const StrataCounter *other = find_counter (trace, 2, "mem", "");
  const StrataCounter *with_id = find_counter (trace, 1, "mem", "0x9");

  g_assert_cmpuint (strata_trace_get_n_counters (trace), ==, 3);
  g_assert_nonnull (mem);
  g_assert_nonnull (other);
  g_assert_nonnull (with_id);
  g_assert_cmpuint (mem->n_series, ==, 2);
  g_assert_cmpstr (strata_trace_get_string (trace, mem->series_names[0]), ==, "a");
  g_assert_cmpstr (strata_trace_get_string (trace, mem->series_names[1]), ==, "b");
  g_assert_cmpuint (mem->n_samples, ==, 3);
  g_assert_cmpint (mem->times[0], ==, 0);
  g_assert_cmpint (mem->times[1], ==, 1000);
  g_assert_cmpint (mem->times[2], ==, 2000);
  /* A series missing from a sample holds its last value. */
  g_assert_cmpfloat (mem->values[0][0], ==, 1);
  g_assert_cmpfloat (mem->values[0][1], ==, 1);
  g_assert_cmpfloat (mem->values[0][2], ==, 3.5);
  g_assert_cmpfloat (mem->values[1][0], ==, 2);
  g_assert_cmpfloat (mem->values[1][1], ==, 5);
  g_assert_cmpfloat (mem->values[1][2], ==, 5);
  g_assert_cmpfloat (other->values[0][0], ==, 7);
  g_assert_true (strata_test_has_diagnostic (trace, "1 counter value is not a number"));
}

static void
test_async (void)
{
  g_autoptr(StrataTrace) trace = load_json (
    "[{\"ph\":\"b\",\"cat\":\"x\",\"id\":1,\"name\":\"A\",\"pid\":1,\"tid\":1,\"ts\":0},"
    " {\"ph\":\"b\",\"cat\":\"x\",\"id\":\"0x1\",\"name\":\"B\",\"pid\":1,\"tid\":1,\"ts\":1},"
    " {\"ph\":\"n\",\"cat\":\"x\",\"id\":1,\"name\":\"N\",\"pid\":1,\"tid\":1,\"ts\":2},"
    " {\"ph\":\"e\",\"cat\":\"x\",\"id\":1,\"name\":\"B\",\"pid\":1,\"tid\":1,\"ts\":3},"
    " {\"ph\":\"e\",\"cat\":\"x\",\"id\":1,\"name\":\"A\",\"pid\":1,\"tid\":1,\"ts\":4},"
    " {\"ph\":\"e\",\"cat\":\"x\",\"id\":2,\"name\":\"lost\",\"pid\":1,\"tid\":1,\"ts\":5},"
    " {\"ph\":\"b\",\"cat\":\"x\",\"id2\":{\"global\":3},\"name\":\"open\",\"pid\":1,\"tid\":1,\"ts\":6},"
    " {\"ph\":\"S\",\"cat\":\"y\",\"id\":7,\"name\":\"legacy\",\"pid\":1,\"tid\":1,\"ts\":0},"
    " {\"ph\":\"T\",\"cat\":\"y\",\"id\":7,\"name\":\"legacy\",\"pid\":1,\"tid\":1,\"ts\":1,\"args\":{\"step\":\"s1\"}},"
    " {\"ph\":\"F\",\"cat\":\"y\",\"id\":7,\"name\":\"legacy\",\"pid\":1,\"tid\":1,\"ts\":8},"
    " {\"ph\":\"b\",\"cat\":\"z\",\"id\":4,\"scope\":\"a\",\"name\":\"scoped\",\"pid\":1,\"tid\":1,\"ts\":1},"
    " {\"ph\":\"e\",\"cat\":\"z\",\"id\":4,\"scope\":\"b\",\"name\":\"scoped\",\"pid\":1,\"tid\":1,\"ts\":2},"
    " {\"ph\":\"e\",\"cat\":\"z\",\"id\":4,\"scope\":\"a\",\"name\":\"scoped\",\"pid\":1,\"tid\":1,\"ts\":3}]");
  const StrataEvent *scoped = find_event (trace, 'b', "scoped");
  const StrataEvent *a = find_event (trace, 'b', "A");
  const StrataEvent *b = find_event (trace, 'b', "B");
  const StrataEvent *n = find_event (trace, 'n', "N");
  const StrataEvent *open = find_event (trace, 'b', "open");
  const StrataEvent *legacy = find_event (trace, 'S', "legacy");
  const StrataEvent *step = find_event (trace, 'T', "legacy");

  g_assert_nonnull (a);
  g_assert_cmpint (a->start, ==, 0);
  g_assert_cmpint (a->end, ==, 4000);
  g_assert_cmpuint (a->depth, ==, 0);
  g_assert_cmpint (b->start, ==, 1000);
  g_assert_cmpint (b->end, ==, 3000);
  g_assert_cmpuint (b->depth, ==, 1);
  g_assert_cmpuint (n->depth, ==, 2);
  g_assert_cmpint (n->end, ==, n->start);
  g_assert_cmpstr (strata_trace_get_string (trace, a->id), ==, "0x1");
  g_assert_cmpint (open->end, ==, 8000);
  g_assert_cmpint (legacy->end, ==, 8000);
  g_assert_cmpuint (step->depth, ==, 1);
  /* An id in another scope is another id. */
  g_assert_cmpint (scoped->end, ==, 3000);
  g_assert_true (strata_test_has_diagnostic (trace, "2 async end events had no open begin"));
  g_assert_true (strata_test_has_diagnostic (trace, "1 async slice never ended"));
}

static void
test_flows (void)
{
  g_autoptr(StrataTrace) trace = load_json (
    "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10},"
    " {\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":2,\"ts\":20,\"dur\":10},"
    " {\"ph\":\"X\",\"name\":\"b2\",\"pid\":1,\"tid\":2,\"ts\":22,\"dur\":2},"
    " {\"ph\":\"s\",\"name\":\"f1\",\"cat\":\"f\",\"id\":5,\"pid\":1,\"tid\":1,\"ts\":1},"
    " {\"ph\":\"f\",\"name\":\"f1\",\"cat\":\"f\",\"id\":5,\"pid\":1,\"tid\":2,\"ts\":19},"
    " {\"ph\":\"s\",\"name\":\"f2\",\"cat\":\"f\",\"id\":6,\"pid\":1,\"tid\":1,\"ts\":2},"
    " {\"ph\":\"f\",\"name\":\"f2\",\"cat\":\"f\",\"id\":6,\"bp\":\"e\",\"pid\":1,\"tid\":2,\"ts\":23},"
    " {\"ph\":\"s\",\"name\":\"lost\",\"cat\":\"f\",\"id\":7,\"pid\":1,\"tid\":1,\"ts\":50},"
    " {\"ph\":\"X\",\"name\":\"c\",\"pid\":1,\"tid\":3,\"ts\":40,\"dur\":1,\"bind_id\":\"0x9\",\"flow_out\":true},"
    " {\"ph\":\"X\",\"name\":\"d\",\"pid\":1,\"tid\":4,\"ts\":45,\"dur\":1,\"bind_id\":\"0x9\",\"flow_in\":true}]");
  gboolean seen[3] = { FALSE, FALSE, FALSE };

  g_assert_cmpuint (strata_trace_get_n_flows (trace), ==, 3);
  for (guint i = 0; i < strata_trace_get_n_flows (trace); i++)
    {
      const StrataFlow *flow = strata_trace_get_flow (trace, i);
      const StrataThread *from = strata_trace_get_thread (trace, flow->from.thread);
      const StrataThread *to = strata_trace_get_thread (trace, flow->to.thread);
      const char *from_name = strata_trace_get_method_name (trace, strata_test_span_at (from, flow->from.depth, flow->from.index).method);
      const char *to_name = strata_trace_get_method_name (trace, strata_test_span_at (to, flow->to.depth, flow->to.index).method);
      const char *id = strata_trace_get_string (trace, flow->id);

      if (g_str_equal (id, "0x5"))
        {
          /* Without "bp": "e", a flow ends at the next slice to start. */
          g_assert_cmpstr (from_name, ==, "a");
          g_assert_cmpstr (to_name, ==, "b");
          seen[0] = TRUE;
        }
      else if (g_str_equal (id, "0x6"))
        {
          g_assert_cmpstr (from_name, ==, "a");
          g_assert_cmpstr (to_name, ==, "b2");
          seen[1] = TRUE;
        }
      else
        {
          g_assert_cmpstr (id, ==, "0x9");
          g_assert_cmpstr (from_name, ==, "c");
          g_assert_cmpstr (to_name, ==, "d");
          seen[2] = TRUE;
        }
    }
  g_assert_true (seen[0] && seen[1] && seen[2]);
  g_assert_true (strata_test_has_diagnostic (trace, "1 flow event has no slice to bind to"));
}

static void
test_objects (void)
{
  g_autoptr(StrataTrace) trace = load_json (
    "[{\"ph\":\"N\",\"name\":\"obj\",\"id\":\"0x1\",\"pid\":1,\"tid\":1,\"ts\":0},"
    " {\"ph\":\"O\",\"name\":\"obj\",\"id\":\"0x1\",\"pid\":1,\"tid\":1,\"ts\":1,\"args\":{\"snapshot\":{\"n\":1}}},"
    " {\"ph\":\"D\",\"name\":\"obj\",\"id\":\"0x1\",\"pid\":1,\"tid\":1,\"ts\":5},"
    " {\"ph\":\"N\",\"name\":\"kept\",\"id\":\"0x2\",\"pid\":1,\"tid\":1,\"ts\":2},"
    " {\"ph\":\"P\",\"name\":\"sample\",\"pid\":1,\"tid\":1,\"ts\":7},"
    " {\"ph\":\"O\",\"name\":\"implicit\",\"id\":\"0x3\",\"pid\":1,\"tid\":1,\"ts\":3},"
    " {\"ph\":\"D\",\"name\":\"implicit\",\"id\":\"0x3\",\"pid\":1,\"tid\":1,\"ts\":6}]");
  const StrataEvent *object = find_event (trace, 'N', "obj");
  const StrataEvent *implicit = find_event (trace, 'N', "implicit");
  const StrataEvent *kept = find_event (trace, 'N', "kept");

  g_assert_cmpint (object->start, ==, 0);
  g_assert_cmpint (object->end, ==, 5000);
  g_assert_nonnull (find_event (trace, 'O', "obj"));
  g_assert_null (find_event (trace, 'D', "obj"));
  g_assert_cmpint (kept->end, ==, 7000);
  g_assert_nonnull (find_event (trace, 'P', "sample"));
  g_assert_true (strata_test_has_diagnostic (trace, "1 object was never deleted"));
  /* Snapshotted without a "N": created at its first snapshot. */
  g_assert_nonnull (implicit);
  g_assert_cmpint (implicit->start, ==, 3000);
  g_assert_cmpint (implicit->end, ==, 6000);
  g_assert_nonnull (find_event (trace, 'O', "implicit"));
}

static void
test_metadata_events (void)
{
  g_autoptr(StrataTrace) trace = load_json (
    "[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":7,\"args\":{\"name\":\"Renderer\"}},"
    " {\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":7,\"args\":{\"labels\":\"example.com\"}},"
    " {\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":7,\"args\":{\"sort_index\":-2}},"
    " {\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":7,\"tid\":70,\"args\":{\"name\":\"Compositor\"}},"
    " {\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":7,\"tid\":70,\"args\":{\"sort_index\":3}},"
    " {\"ph\":\"X\",\"name\":\"x\",\"pid\":7,\"tid\":70,\"ts\":1,\"dur\":1}]");
  const StrataThread *thread = strata_test_thread_by_tid (trace, 70);
  const StrataProcess *process = strata_trace_get_process (trace, thread->process);

  g_assert_cmpint (process->pid, ==, 7);
  g_assert_cmpstr (strata_trace_get_string (trace, process->name), ==, "Renderer");
  g_assert_cmpstr (strata_trace_get_string (trace, process->labels), ==, "example.com");
  g_assert_cmpint (process->sort_index, ==, -2);
  g_assert_cmpstr (strata_trace_get_string (trace, thread->name), ==, "Compositor");
  g_assert_cmpint (thread->sort_index, ==, 3);
  g_assert_cmpuint (strata_trace_get_phase_count (trace, 'M'), ==, 5);
}

static void
test_ids_and_strings (void)
{
  g_autoptr(StrataTrace) trace = load_json (
    "[{\"ph\":\"X\",\"name\":\"caf\\u00e9 \\ud83d\\ude80 a\\u0000b x\\/y \\\"q\\\"\",\"pid\":\"browser\",\"tid\":\"CrBrowserMain\",\"ts\":\"5\",\"dur\":1},"
    " {\"ph\":\"b\",\"cat\":\"c\",\"id\":18446744073709551615,\"name\":\"big\",\"pid\":1,\"tid\":1,\"ts\":0},"
    " {\"ph\":\"e\",\"cat\":\"c\",\"id\":\"0xFFFFFFFFFFFFFFFF\",\"name\":\"big\",\"pid\":1,\"tid\":1,\"ts\":2},"
    " {\"ph\":\"i\",\"name\":\"no time\",\"pid\":1,\"tid\":1,\"ts\":null},"
    " {\"ph\":\"Z\",\"name\":\"future\",\"pid\":1,\"tid\":1,\"ts\":1},"
    " {\"ph\":\"X\",\"name\":\"r\\u00e9sum\\u00e9\",\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":1}]");
  const StrataEvent *big = find_event (trace, 'b', "big");
  const StrataThread *main_thread = NULL;

  for (guint i = 0; i < strata_trace_get_n_threads (trace); i++)
    if (g_str_equal (strata_trace_get_string (trace, strata_trace_get_thread (trace, i)->name), "CrBrowserMain"))
      main_thread = strata_trace_get_thread (trace, i);
  g_assert_nonnull (main_thread);
  g_assert_cmpstr (strata_trace_get_string (trace, strata_trace_get_process (trace, main_thread->process)->name), ==, "browser");
  strata_test_assert_span (trace, main_thread, 0, 0, "café 🚀 a\xEF\xBF\xBD" "b x/y \"q\"", 5000, 6000);
  g_assert_cmpstr (strata_trace_get_string (trace, big->id), ==, "0xffffffffffffffff");
  g_assert_cmpint (big->end, ==, 2000);
  g_assert_true (strata_test_has_diagnostic (trace, "1 event has no usable timestamp"));
  g_assert_true (strata_test_has_diagnostic (trace, "1 event has an unknown phase"));
  g_assert_cmpuint (strata_trace_get_phase_count (trace, 'Z'), ==, 1);
  for (guint32 m = 0; m < strata_trace_get_n_methods (trace); m++)
    g_assert_true (g_utf8_validate (strata_trace_get_method_name (trace, m), -1, NULL));
}

static void
test_thread_clock (void)
{
  g_autoptr(StrataTrace) trace = load_json (
    "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10,\"tts\":100,\"tdur\":6},"
    " {\"ph\":\"B\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":1,\"tts\":101},"
    " {\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":4,\"tts\":103},"
    " {\"ph\":\"X\",\"name\":\"c\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":1}]");
  const StrataThread *thread = strata_test_thread_by_tid (trace, 1);
  g_autoptr(StrataProfile) profile = strata_profile_new (trace, -1, NULL, NULL);

  g_assert_cmpuint (strata_trace_get_n_clocks (trace), ==, 2);
  g_assert_cmpint (strata_trace_get_clock_kind (trace, 1), ==, STRATA_CLOCK_THREAD_CPU);
  g_assert_cmpint (thread->spans->second[0][0].start, ==, 100000);
  g_assert_cmpint (thread->spans->second[0][0].end, ==, 106000);
  g_assert_cmpint (thread->spans->second[1][0].start, ==, 101000);
  g_assert_cmpint (thread->spans->second[1][0].end, ==, 103000);
  /* No thread time: a moment at the thread clock's current value. */
  g_assert_cmpint (thread->spans->second[1][1].start, ==, thread->spans->second[1][1].end);
  g_assert_cmpint (strata_profile_get_total (profile, 1), ==, 6000);
}

static void
test_refusals (void)
{
  struct { const char *text; int code; } cases[] = {
    { "{\"spans\":[{\"traceId\":\"1\"}]}", STRATA_LOAD_ERROR_NOT_A_TRACE },
    { "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,]}", STRATA_LOAD_ERROR_CORRUPT },
    { "[{\"ph\" 1 2 }]", STRATA_LOAD_ERROR_CORRUPT },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(StrataTrace) trace = load_bytes (cases[i].text, strlen (cases[i].text), &error);

      g_test_message ("case %u: %s", i, cases[i].text);
      g_assert_null (trace);
      g_assert_error (error, STRATA_LOAD_ERROR, cases[i].code);
    }

  {
    g_autoptr(StrataTrace) trace = load_json ("[]");

    g_assert_cmpuint (strata_trace_get_n_spans (trace), ==, 0);
    g_assert_cmpuint (strata_trace_get_n_diagnostics (trace), ==, 0);
  }
}

static void
test_profile_of_slices (void)
{
  g_autoptr(StrataTrace) trace = load_json (
    "[{\"ph\":\"X\",\"name\":\"run\",\"cat\":\"a\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10},"
    " {\"ph\":\"X\",\"name\":\"run\",\"cat\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":4},"
    " {\"ph\":\"X\",\"name\":\"work\",\"cat\":\"a\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":2},"
    " {\"ph\":\"X\",\"name\":\"run\",\"cat\":\"b\",\"pid\":1,\"tid\":1,\"ts\":20,\"dur\":1}]");
  g_autoptr(StrataProfile) profile = strata_profile_new (trace, -1, NULL, NULL);
  guint32 run_a = G_MAXUINT32, run_b = G_MAXUINT32;

  /* One entry per name and category. */
  g_assert_cmpuint (strata_trace_get_n_methods (trace), ==, 3);
  for (guint32 m = 0; m < strata_trace_get_n_methods (trace); m++)
    {
      const StrataMethod *method = strata_trace_get_method (trace, m);

      if (g_str_equal (strata_trace_get_string (trace, method->name), "run"))
        {
          if (g_str_equal (strata_trace_get_string (trace, method->class_name), "a"))
            run_a = m;
          else
            run_b = m;
        }
    }
  g_assert_cmpuint (strata_profile_get_entry (profile, run_a)->calls, ==, 1);
  g_assert_cmpuint (strata_profile_get_entry (profile, run_a)->recursive_calls, ==, 1);
  g_assert_cmpint (strata_profile_get_entry (profile, run_a)->inclusive[0], ==, 10000);
  g_assert_cmpint (strata_profile_get_entry (profile, run_a)->exclusive[0], ==, 8000);
  g_assert_cmpint (strata_profile_get_entry (profile, run_b)->inclusive[0], ==, 1000);
}

static void
test_samples (void)
{
  g_autoptr(StrataTrace) trace = load_json (
    "{\"traceEvents\":[{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":5,\"args\":{\"name\":\"worker\"}},"
    "                {\"ph\":\"P\",\"name\":\"p\",\"pid\":1,\"tid\":6,\"ts\":7,\"sf\":\"2\"}],"
    " \"samples\":[{\"tid\":5,\"pid\":1,\"ts\":\"10\",\"sf\":2},{\"tid\":5,\"pid\":1,\"ts\":0,\"sf\":3},"
    "            {\"tid\":5,\"pid\":1,\"ts\":20,\"sf\":2},{\"tid\":5,\"pid\":1,\"ts\":30,\"sf\":\"1\"},{\"tid\":5,\"ts\":40}],"
    " \"stackFrames\":{\"1\":{\"name\":\"root\",\"category\":\"c\"},\"2\":{\"name\":\"a\",\"parent\":1},"
    "                \"3\":{\"name\":\"b\",\"parent\":\"2\"}}}");
  const StrataThread *companion = NULL;

  for (guint i = 0; i < strata_trace_get_n_threads (trace); i++)
    if (g_str_equal (strata_trace_get_string (trace, strata_trace_get_thread (trace, i)->name), "worker (samples)"))
      companion = strata_trace_get_thread (trace, i);
  g_assert_nonnull (companion);
  /* Samples are sorted by time; the last one lasts one mean interval. */
  strata_test_assert_span (trace, companion, 0, 0, "root", 0, 40000);
  strata_test_assert_span (trace, companion, 1, 0, "a", 0, 30000);
  strata_test_assert_span (trace, companion, 2, 0, "b", 0, 10000);
  g_assert_cmpuint (strata_span_table_get_n_spans (companion->spans), ==, 3);
  g_assert_true (strata_test_has_diagnostic (trace, "1 stack sample has no time or frame"));
  /* The P event's sample gets a companion of its own thread. */
  g_assert_nonnull (find_event (trace, 'P', "p"));
  g_assert_cmpuint (strata_trace_get_n_threads (trace), ==, 4);
}

static StrataTrace *
load_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  StrataTrace *trace = strata_test_load_path (path, &error);

  g_assert_no_error (error);
  return trace;
}

static char *
args_text (StrataTrace *trace,
           guint64      source)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) args = strata_event_args_read (trace, source, NULL, &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (args));
  return json_to_string (args, FALSE);
}

static void
check_args (const char *path)
{
  g_autoptr(StrataTrace) trace = load_file (path);
  const StrataThread *thread = strata_test_thread_by_tid (trace, 1);
  const StrataEvent *instant = find_event (trace, 'i', "tick");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) call = strata_event_args_read (trace, thread->spans->sources[0][0], NULL, &error);
  JsonObject *merged;

  g_assert_no_error (error);
  merged = json_node_get_object (call);
  g_autofree char *inner = args_text (trace, thread->spans->sources[1][0]);
  g_autofree char *tick = args_text (trace, instant->source);

  /* B and E args merge; the E's value wins. */
  g_assert_cmpuint (json_object_get_size (merged), ==, 3);
  g_assert_cmpint (json_object_get_int_member (merged, "a"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (merged, "b"), ==, "end");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (merged, "c")), ==, 2);
  g_assert_cmpstr (inner, ==, "{}");
  g_assert_cmpstr (tick, ==, "{\"nested\":{\"caf\u00e9\":\"\u00e9\"}}");
}

static void
test_args_on_demand (void)
{
  const char *text =
    "{\"traceEvents\":[\n"
    "{\"ph\":\"B\",\"name\":\"call\",\"pid\":1,\"tid\":1,\"ts\":0,\"args\":{\"a\":1,\"b\":\"begin\"}},\n"
    "{\"ph\":\"X\",\"name\":\"inner\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},\n"
    "{\"ph\":\"i\",\"name\":\"tick\",\"pid\":1,\"tid\":1,\"ts\":2,\"args\":{\"nested\":{\"caf\\u00e9\":\"\u00e9\"}}},\n"
    "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":3,\"args\":{\"b\":\"end\",\"c\":[true,null]}}]}";
  g_autofree char *path = strata_test_write_file ("args.json", text, strlen (text));
  g_autoptr(GBytes) zipped = strata_test_gzip (text, strlen (text));
  g_autofree char *gz_path = strata_test_write_file ("args.json.gz", g_bytes_get_data (zipped, NULL), g_bytes_get_size (zipped));

  check_args (path);
  check_args (gz_path);
}

/* Args nested 10,000 deep were "not valid JSON" and lost the file: the
 * events around them load, and reading those args says why they cannot
 * be shown. */
static void
test_deep_nesting (void)
{
  GString *text = g_string_new ("{\"traceEvents\":[\n"
                                "{\"ph\":\"X\",\"name\":\"before\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":1},\n"
                                "{\"ph\":\"i\",\"name\":\"deep\",\"pid\":1,\"tid\":1,\"ts\":2,\"args\":{\"x\":");
  g_autofree char *path = NULL;
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) args = NULL;
  guint deep = G_MAXUINT;

  for (guint i = 0; i < 10000; i++)
    g_string_append (text, i % 2 ? "{\"k\":" : "[");
  g_string_append (text, "1");
  for (guint i = 10000; i-- > 0;)
    g_string_append (text, i % 2 ? "}" : "]");
  g_string_append (text, "}},\n{\"ph\":\"X\",\"name\":\"after\",\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":1}]}");
  path = strata_test_write_file ("deep.json", text->str, text->len);
  g_string_free (text, TRUE);

  trace = strata_test_load_path (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strata_trace_get_n_spans (trace), ==, 2);
  g_assert_cmpuint (strata_trace_get_n_diagnostics (trace), ==, 0);
  for (guint e = 0; e < strata_trace_get_n_events (trace); e++)
    if (g_str_equal (strata_trace_get_string (trace, strata_trace_get_event (trace, e)->name), "deep"))
      deep = e;
  g_assert_cmpuint (deep, !=, G_MAXUINT);

  args = strata_event_args_read (trace, strata_trace_get_event (trace, deep)->source, NULL, &error);
  g_assert_null (args);
  g_assert_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "nested"));
}

/* Microseconds as written, to the nanosecond: epoch times with three
 * decimals take 19 digits (Kineto writes them). */
static void
test_micros (void)
{
  const struct { const char *text; gint64 ns; } cases[] = {
    { "1712195495538015.921", G_GINT64_CONSTANT (1712195495538015921) },
    { "1712195495538015.9216", G_GINT64_CONSTANT (1712195495538015922) },
    { "12.5", 12500 },
    { "0.0004", 0 },
    { "0.0005", 1 },
    { "-3.25", -3250 },
    { "1e3", 1000000 },
    { "1003200", 1003200000 },
    { "1003200.1", 1003200100 },
    { "-7.25", -7250 },
    { "007.001", 7001 },
    { "123456789012345", G_GINT64_CONSTANT (123456789012345000) },
    { "1234567890123456", G_GINT64_CONSTANT (1234567890123456000) },
    { "5.", 5000 },
  };
  const char *bad[] = { "", "-", ".", "1.2.3", "1a", "5.x", "--1" };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gint64 ns = 0;

      g_assert_true (strata_json_parse_micros (cases[i].text, cases[i].text + strlen (cases[i].text), &ns));
      g_assert_cmpint (ns, ==, cases[i].ns);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      gint64 ns;

      g_assert_false (strata_json_parse_micros (bad[i], bad[i] + strlen (bad[i]), &ns));
    }
}

/* Events over lines, and objects in args that start lines too: the
 * parallel scan cuts the file where events seem to start and must find
 * every cut that was not one. Read plain (on two threads) or gzipped
 * (on one), the calls are the same. */
static void
test_parallel_cuts (void)
{
  const char *layouts[] = { "pretty", "one line" };

  for (guint l = 0; l < G_N_ELEMENTS (layouts); l++)
    {
      GString *text = g_string_new ("{\"traceEvents\":[\n");
      g_autoptr(GBytes) zipped = NULL;
      g_autoptr(StrataTrace) plain = NULL, packed = NULL;
      g_autoptr(GError) error = NULL;

      for (guint i = 0; i < 60000; i++)
        g_string_append_printf (text, l == 0
                                ? "%s{\"ph\":\"X\",\"name\":\"s%u\",\"pid\":1,\"tid\":%u,\"ts\":%u,\"dur\":1,\"args\":{\"frames\":[\n"
                                  "  {\"f\":\"a\",\"line\":%u},\n  {\"f\":\"b\"}]}}\n"
                                : "%s{\"ph\":\"X\",\"name\":\"s%u\",\"pid\":1,\"tid\":%u,\"ts\":%u,\"dur\":1,\"args\":{\"frames\":["
                                  "{\"f\":\"a\",\"line\":%u},{\"f\":\"b\"}]}}",
                                i ? "," : "", i % 50, i % 3, i * 2, i);
      g_string_append (text, "],\n\"metadata\":{\"more\":[\n{\"x\":1},\n{\"y\":2}]}}");
      g_test_message ("%s: %zu bytes", layouts[l], text->len);
      g_assert_cmpuint (text->len, >, 4 << 20);
      zipped = strata_test_gzip (text->str, text->len);
      plain = load_json (text->str);
      packed = load_bytes (g_bytes_get_data (zipped, NULL), g_bytes_get_size (zipped), &error);
      g_assert_no_error (error);
      g_assert_cmpuint (strata_trace_get_n_spans (plain), ==, 60000);
      g_assert_cmpuint (strata_trace_get_n_diagnostics (plain), ==, 0);
      for (guint t = 0; t < strata_trace_get_n_threads (plain); t++)
        {
          const StrataThread *a = strata_trace_get_thread (plain, t);
          const StrataThread *b = strata_trace_get_thread (packed, t);

          strata_test_assert_same_calls (a->spans, b->spans, 0);
          g_assert_cmpmem (a->spans->sources[0], a->spans->n_spans[0] * sizeof (guint64),
                           b->spans->sources[0], b->spans->n_spans[0] * sizeof (guint64));
        }
      g_string_free (text, TRUE);
    }
}

/* A thread is known by its ids' spelling as the file spells them: a
 * number and a string of its digits are two, 1 and 1.0 one, ids longer
 * than a word differ in their last digit. Events of the spellings come
 * interleaved, read whole and in parallel chunks. */
static void
test_thread_spellings (void)
{
  static const char *const spellings[] = {
    "\"pid\":1,\"tid\":1", "\"pid\":\"1\",\"tid\":1", "\"pid\":1,\"tid\":\"1\"", "\"pid\":1,\"tid\":1.0",
    "\"pid\":123456789012,\"tid\":1", "\"pid\":123456789013,\"tid\":1",
    "\"pid\":1,\"tid\":12345678901234", "\"pid\":1,\"tid\":12345678901235",
  };
  /* Spelling 3 is spelling 0's thread. */
  static const guint thread_of[] = { 0, 1, 2, 0, 4, 5, 6, 7 };
#define SPELLING_OF(i) (((i) * 5 + (i) / 8) % G_N_ELEMENTS (spellings))

  for (guint n = 80; n <= 80000; n *= 1000)
    {
      g_autoptr(GString) text = g_string_new ("[\n");
      g_autoptr(StrataTrace) trace = NULL;
      const StrataThread *threads[G_N_ELEMENTS (spellings)] = { NULL };

      for (guint i = 0; i < n; i++)
        g_string_append_printf (text, "%s{\"ph\":\"X\",\"name\":\"s\",%s,\"ts\":%u,\"dur\":1}\n",
                                i ? "," : "", spellings[SPELLING_OF (i)], i * 2);
      g_string_append (text, "]");
      trace = load_json (text->str);
      g_assert_cmpuint (strata_trace_get_n_threads (trace), ==, 7);
      g_assert_cmpuint (strata_trace_get_n_spans (trace), ==, n);
      /* Each event is on the thread of its spelling's first event. */
      for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
        {
          const StrataThread *thread = strata_trace_get_thread (trace, t);

          for (guint32 c = 0; c < thread->spans->n_spans[0]; c++)
            {
              guint spelling = SPELLING_OF ((guint) (strata_span_table_start (thread->spans, 0, c) / 2000));

              if (threads[thread_of[spelling]] == NULL)
                threads[thread_of[spelling]] = thread;
              g_assert_true (threads[thread_of[spelling]] == thread);
            }
        }
    }
}

/* Names and categories are known again by their first and last 24
 * bytes only when no longer than those: long ones that differ inside
 * them are told apart. */
static void
test_long_names (void)
{
  static const char *const names[] = {
    "0123456789abcdefghijklmnXnmlkjihgfedcba9876543210", "0123456789abcdefghijklmnYnmlkjihgfedcba9876543210",
    "0123456789abcdefghijklmn0123456789abcdefghijklmX", "0123456789abcdefghijklmn0123456789abcdefghijklmY", "s",
  };

  for (guint n = 50; n <= 50000; n *= 1000)
    {
      g_autoptr(GString) text = g_string_new ("[\n");
      g_autoptr(StrataTrace) trace = NULL;
      const StrataThread *thread;

      for (guint i = 0; i < n; i++)
        g_string_append_printf (text, "%s{\"ph\":\"X\",\"name\":\"%s\",\"cat\":\"%s\",\"pid\":1,\"tid\":1,\"ts\":%u,\"dur\":1}\n",
                                i ? "," : "", names[i % G_N_ELEMENTS (names)], names[(i / 3) % G_N_ELEMENTS (names)], i * 2);
      g_string_append (text, "]");
      trace = load_json (text->str);
      thread = strata_trace_get_thread (trace, 0);
      g_assert_cmpuint (thread->spans->n_spans[0], ==, n);
      for (guint32 c = 0; c < n; c++)
        {
          StrataSpan span = strata_test_span_at (thread, 0, c);
          guint i = (guint) (span.start / 2000);
          const StrataMethod *method = strata_trace_get_method (trace, span.method);

          g_assert_cmpstr (strata_trace_get_string (trace, method->name), ==, names[i % G_N_ELEMENTS (names)]);
          g_assert_cmpstr (strata_trace_get_string (trace, method->class_name), ==, names[(i / 3) % G_N_ELEMENTS (names)]);
        }
    }
}

/* Calls nested past 65,534 keep their depths: they were all put at
 * 65,534, with negative exclusive times and calls that never happened. */
static void
test_deep_calls (void)
{
  const guint n = 70000;
  g_autoptr(GString) text = g_string_new ("[");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(StrataProfile) profile = NULL;
  const StrataThread *thread;

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "{\"ph\":\"B\",\"name\":\"f%u\",\"pid\":1,\"tid\":1,\"ts\":%u},\n", i % 2, i);
  for (guint i = n; i-- > 0;)
    g_string_append_printf (text, "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":%u}%s\n", 2 * n - i, i > 0 ? "," : "]");
  path = strata_test_write_file ("deep-calls.json", text->str, text->len);
  trace = strata_test_load_path (path, &error);
  g_assert_no_error (error);
  thread = strata_test_thread_by_tid (trace, 1);
  g_assert_cmpuint (thread->spans->n_depths, ==, n);
  for (guint d = 0; d < n; d += 9999)
    {
      g_assert_cmpuint (thread->spans->n_spans[d], ==, 1);
      g_assert_cmpint (strata_span_table_start (thread->spans, d, 0), ==, (gint64) d * 1000);
      g_assert_cmpint (strata_span_table_end (thread->spans, d, 0), ==, (gint64) (2 * n - d) * 1000);
    }
  profile = strata_profile_new (trace, -1, NULL, &error);
  g_assert_no_error (error);
  for (guint m = 0; m < strata_trace_get_n_methods (trace); m++)
    g_assert_cmpint (strata_profile_get_entry (profile, m)->exclusive[0], >=, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/trace-event/slices", test_slices);
  g_test_add_func ("/trace-event/micros", test_micros);
  g_test_add_func ("/trace-event/nesting", test_nesting);
  g_test_add_func ("/trace-event/tied-starts", test_tied_starts);
  g_test_add_func ("/trace-event/begin-end-repairs", test_begin_end_repairs);
  g_test_add_func ("/trace-event/truncated", test_truncated);
  g_test_add_func ("/trace-event/object-form", test_object_form);
  g_test_add_func ("/trace-event/gzip", test_gzip);
  g_test_add_func ("/trace-event/parallel-cuts", test_parallel_cuts);
  g_test_add_func ("/trace-event/thread-spellings", test_thread_spellings);
  g_test_add_func ("/trace-event/long-names", test_long_names);
  g_test_add_func ("/trace-event/instants", test_instants);
  g_test_add_func ("/trace-event/counters", test_counters);
  g_test_add_func ("/trace-event/async", test_async);
  g_test_add_func ("/trace-event/flows", test_flows);
  g_test_add_func ("/trace-event/objects", test_objects);
  g_test_add_func ("/trace-event/metadata-events", test_metadata_events);
  g_test_add_func ("/trace-event/ids-and-strings", test_ids_and_strings);
  g_test_add_func ("/trace-event/thread-clock", test_thread_clock);
  g_test_add_func ("/trace-event/refusals", test_refusals);
  g_test_add_func ("/trace-event/profile", test_profile_of_slices);
  g_test_add_func ("/trace-event/args-on-demand", test_args_on_demand);
  g_test_add_func ("/trace-event/deep-nesting", test_deep_nesting);
  g_test_add_func ("/trace-event/deep-calls", test_deep_calls);
  g_test_add_func ("/trace-event/samples", test_samples);

  return g_test_run ();
}
