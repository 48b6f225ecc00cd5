/* test-speedscope.c: speedscope files
 *
 * Evented profiles become calls as written (a close of a frame below the
 * innermost closes those above it, an unclosed frame ends with its
 * profile, events of unknown frames are left out, and each is said);
 * sampled profiles lay their stacks end to end by weight; units that are
 * not time make weights; a file without profiles, or nested past what a
 * speedscope file holds, is refused with a reason.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-error.h"
#include "strata-test-util.h"

#define SCHEMA "\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","

static StrataTrace *
load_json (const char  *name,
           const char  *json,
           GError     **error)
{
  g_autofree char *path = strata_test_write_file (name, json, strlen (json));

  return strata_test_load_path (path, error);
}

static char *
describe_thread (StrataTrace *trace,
                 guint        thread)
{
  const StrataSpanTable *table = strata_trace_get_thread (trace, thread)->spans;
  GString *text = g_string_new (NULL);

  for (guint d = 0; table != NULL && d < table->n_depths; d++)
    for (guint32 i = 0; i < table->n_spans[d]; i++)
      g_string_append_printf (text, "%u %s %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT "\n", d,
                              strata_trace_get_method_name (trace, table->calls[d][i].method),
                              strata_span_table_start (table, d, i), strata_span_table_end (table, d, i));
  return g_string_free (text, FALSE);
}

static void
test_speedscope_evented (void)
{
  static const char json[] =
    "{" SCHEMA "\"name\":\"app\",\"shared\":{\"frames\":[{\"name\":\"main\",\"file\":\"a.c\",\"line\":3},{\"name\":\"work\"},{\"name\":\"leaf\"}]},"
    "\"profiles\":[{\"type\":\"evented\",\"name\":\"Thread A\",\"unit\":\"microseconds\",\"startValue\":100,\"endValue\":200,"
    "\"events\":[{\"type\":\"O\",\"frame\":0,\"at\":100},{\"type\":\"O\",\"frame\":1,\"at\":110},{\"type\":\"O\",\"frame\":2,\"at\":120},"
    "{\"type\":\"C\",\"frame\":2,\"at\":130},{\"type\":\"O\",\"frame\":9,\"at\":131},{\"type\":\"O\",\"frame\":2,\"at\":140},"
    "{\"type\":\"C\",\"frame\":1,\"at\":150},{\"type\":\"X\",\"frame\":1,\"at\":151},{\"type\":\"O\",\"frame\":1,\"at\":160}]}]}";
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = load_json ("evented.speedscope.json", json, &error);
  g_autofree char *calls = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (strata_trace_get_format (trace), ==, STRATA_FORMAT_SPEEDSCOPE);
  g_assert_cmpint (strata_trace_get_clock_kind (trace, 0), ==, STRATA_CLOCK_WALL);
  g_assert_cmpstr (strata_trace_get_string (trace, strata_trace_get_thread (trace, 0)->name), ==, "Thread A");
  g_assert_cmpstr (strata_trace_get_string (trace, strata_trace_get_process (trace, 0)->name), ==, "app");
  calls = describe_thread (trace, 0);
  /* µs from startValue, in ns; leaf's second call closed with work, the
   * last work and main open to the end. */
  g_assert_cmpstr (calls, ==,
                   "0 main 0-60000\n"
                   "1 work 10000-50000\n"
                   "1 work 60000-60000\n"
                   "2 leaf 20000-30000\n"
                   "2 leaf 40000-50000\n");
  g_assert_true (strata_test_has_diagnostic (trace, "open or close event"));
  g_assert_true (strata_test_has_diagnostic (trace, "never closed"));
  g_assert_cmpint (strata_trace_get_method (trace, 0)->line, ==, 3);
}

static void
test_speedscope_sampled (void)
{
  static const char json[] =
    "{" SCHEMA "\"shared\":{\"frames\":[{\"name\":\"main\"},{\"name\":\"a\"},{\"name\":\"b\"}]},"
    "\"profiles\":[{\"type\":\"sampled\",\"name\":\"cpu\",\"unit\":\"milliseconds\",\"startValue\":0,\"endValue\":10,"
    "\"samples\":[[0,1],[0,1],[0,2],[0,7],[0],[0,1,2]],\"weights\":[2,3,1,9,1,4]}]}";
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = load_json ("sampled.speedscope.json", json, &error);
  g_autofree char *calls = NULL;

  g_assert_no_error (error);
  calls = describe_thread (trace, 0);
  g_assert_cmpstr (calls, ==,
                   "0 main 0-11000000\n"
                   "1 a 0-5000000\n"
                   "1 b 5000000-6000000\n"
                   "1 a 7000000-11000000\n"
                   "2 b 7000000-11000000\n");
  g_assert_true (strata_test_has_diagnostic (trace, "sample named no known frames"));
}

static void
test_speedscope_weights (void)
{
  static const char json[] =
    "{" SCHEMA "\"shared\":{\"frames\":[{\"name\":\"alloc\"}]},"
    "\"profiles\":[{\"type\":\"sampled\",\"unit\":\"bytes\",\"samples\":[[0]],\"weights\":[4096]}]}";
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = load_json ("bytes.speedscope.json", json, &error);

  g_assert_no_error (error);
  g_assert_cmpint (strata_trace_get_clock_kind (trace, 0), ==, STRATA_CLOCK_SAMPLES);
  g_assert_true (strata_test_has_note (trace, "not times"));
  g_assert_cmpstr (strata_trace_get_string (trace, strata_trace_get_thread (trace, 0)->name), ==, "Profile 1");
}

static void
test_speedscope_refused (void)
{
  g_autoptr(GError) empty_error = NULL, deep_error = NULL;
  g_autoptr(StrataTrace) empty = load_json ("empty.speedscope.json", "{" SCHEMA "\"profiles\":[]}", &empty_error);
  g_autoptr(GString) deep = g_string_new ("{" SCHEMA "\"profiles\":");
  g_autoptr(StrataTrace) nested = NULL;

  g_assert_null (empty);
  g_assert_error (empty_error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT);
  for (guint i = 0; i < 50000; i++)
    g_string_append_c (deep, '[');
  nested = load_json ("deep.speedscope.json", deep->str, &deep_error);
  g_assert_null (nested);
  g_assert_nonnull (deep_error);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/speedscope/evented", test_speedscope_evented);
  g_test_add_func ("/speedscope/sampled", test_speedscope_sampled);
  g_test_add_func ("/speedscope/weights", test_speedscope_weights);
  g_test_add_func ("/speedscope/refused", test_speedscope_refused);
  return g_test_run ();
}
