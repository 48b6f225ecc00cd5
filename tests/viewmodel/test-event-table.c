/* test-event-table.c: the Events page's list, without a display
 *
 * Which events it holds (slices, instants, async and object events, not
 * the calls laid out from JavaScript samples), each sort both ways
 * against the entries' own figures, the filter and range, finding an
 * entry, and args read back from the file, plain and gzipped.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-event-table-row.h"
#include "strata-event-table.h"
#include "strata-loader.h"
#include "strata-test-util.h"

static const char events_trace[] =
  "{\"traceEvents\":[\n"
  "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":2,\"args\":{\"name\":\"main\"}},\n"
  "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":3,\"args\":{\"name\":\"Compositor\"}},\n"
  "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"Renderer\"}},\n"
  "{\"ph\":\"X\",\"name\":\"RunTask\",\"cat\":\"toplevel\",\"pid\":1,\"tid\":2,\"ts\":5,\"dur\":95,\"args\":{\"src\":\"a.cc\",\"line\":7}},\n"
  "{\"ph\":\"X\",\"name\":\"FunctionCall\",\"cat\":\"devtools.timeline\",\"pid\":1,\"tid\":2,\"ts\":10,\"dur\":80,"
  "\"args\":{\"data\":{\"url\":\"a.js\"}}},\n"
  "{\"ph\":\"B\",\"name\":\"Draw\",\"cat\":\"cc\",\"pid\":1,\"tid\":3,\"ts\":20,\"args\":{\"frame\":\"line one\\nline two\"}},\n"
  "{\"ph\":\"E\",\"pid\":1,\"tid\":3,\"ts\":60},\n"
  "{\"ph\":\"i\",\"name\":\"Mark\",\"cat\":\"blink\",\"s\":\"t\",\"pid\":1,\"tid\":2,\"ts\":30},\n"
  "{\"ph\":\"I\",\"name\":\"Navigation\",\"cat\":\"loading\",\"s\":\"g\",\"pid\":1,\"tid\":2,\"ts\":50},\n"
  "{\"ph\":\"b\",\"name\":\"Fetch\",\"cat\":\"net\",\"id\":\"0x7\",\"pid\":1,\"tid\":2,\"ts\":15},\n"
  "{\"ph\":\"e\",\"name\":\"Fetch\",\"cat\":\"net\",\"id\":\"0x7\",\"pid\":1,\"tid\":2,\"ts\":140},\n"
  "{\"ph\":\"P\",\"name\":\"Profile\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":0,\"args\":{\"data\":{\"startTime\":0}}},\n"
  "{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":100,\"args\":{\"data\":{"
  "\"cpuProfile\":{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}},"
  "{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"run\",\"url\":\"a.js\",\"lineNumber\":0,\"columnNumber\":0}}],"
  "\"samples\":[2,2,2,2]},\"timeDeltas\":[12,20,20,20]}}}\n"
  "]}\n";

static StrataTrace *
load_events_trace (const char *name,
                   gboolean    gzipped)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  StrataTrace *trace;

  if (gzipped)
    {
      g_autoptr(GBytes) zipped = strata_test_gzip (events_trace, strlen (events_trace));

      path = strata_test_write_file (name, g_bytes_get_data (zipped, NULL), g_bytes_get_size (zipped));
    }
  else
    path = strata_test_write_file (name, events_trace, strlen (events_trace));
  trace = strata_test_load_path (path, &error);
  g_assert_no_error (error);
  return trace;
}

static char *
describe_list (StrataEventTable *table)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (table)); i++)
    g_string_append_printf (text, "%s%s", i > 0 ? " " : "",
                            strata_event_table_entry_name (table, strata_event_table_get (table, i)));
  return g_string_free (text, FALSE);
}

/* Every event of the file, by start; the calls made from samples and
 * the samples' own carriers are not listed as calls. */
static void
test_event_table_all (void)
{
  g_autoptr(StrataTrace) trace = load_events_trace ("events.json", FALSE);
  g_autoptr(StrataEventTable) table = strata_event_table_new (trace);
  g_autofree char *names = describe_list (table);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (table));

  g_test_message ("%s", names);
  g_assert_true (g_str_has_prefix (names, "RunTask FunctionCall "));
  g_assert_null (strstr (names, "run"));
  g_assert_nonnull (strstr (names, "Draw"));
  g_assert_nonnull (strstr (names, "Mark"));
  g_assert_nonnull (strstr (names, "Navigation"));
  g_assert_nonnull (strstr (names, "Fetch"));
  g_assert_cmpuint (n, ==, strata_event_table_get_n_all (table));
  for (guint i = 1; i < n; i++)
    g_assert_cmpint (strata_event_table_entry_start (table, strata_event_table_get (table, i - 1)), <=,
                     strata_event_table_entry_start (table, strata_event_table_get (table, i)));
  /* Items are made on demand and say what they are. */
  {
    g_autoptr(StrataEventTableRow) row = g_list_model_get_item (G_LIST_MODEL (table), 0);

    g_assert_cmpstr (strata_event_table_entry_name (table, strata_event_table_row_get (row)), ==, "RunTask");
    g_assert_cmpstr (strata_event_table_entry_category (table, strata_event_table_row_get (row)), ==, "toplevel");
    g_assert_cmpstr (strata_event_table_entry_thread (table, strata_event_table_row_get (row)), ==, "main (2)");
    g_assert_cmpint (strata_event_table_entry_duration (table, strata_event_table_row_get (row)), ==, 95000);
    g_assert_null (g_list_model_get_item (G_LIST_MODEL (table), n));
  }
}

static int
compare_by (StrataEventTable            *table,
            StrataEventTableSort         sort,
            const StrataEventTableEntry *a,
            const StrataEventTableEntry *b)
{
  gint64 x, y;

  switch (sort)
    {
    case STRATA_EVENT_TABLE_BY_NAME:
      return g_utf8_collate (strata_event_table_entry_name (table, a), strata_event_table_entry_name (table, b));
    case STRATA_EVENT_TABLE_BY_CATEGORY:
      return g_utf8_collate (strata_event_table_entry_category (table, a), strata_event_table_entry_category (table, b));
    case STRATA_EVENT_TABLE_BY_THREAD:
      return g_utf8_collate (strata_event_table_entry_thread (table, a), strata_event_table_entry_thread (table, b));
    case STRATA_EVENT_TABLE_BY_DURATION:
      x = strata_event_table_entry_duration (table, a);
      y = strata_event_table_entry_duration (table, b);
      return x < y ? -1 : x > y;
    case STRATA_EVENT_TABLE_BY_START:
    default:
      x = strata_event_table_entry_start (table, a);
      y = strata_event_table_entry_start (table, b);
      return x < y ? -1 : x > y;
    }
}

/* Each key both ways, against the entries' own figures; equal keys keep
 * the order of their starts when ascending. */
static void
test_event_table_sort (void)
{
  g_autoptr(StrataTrace) trace = load_events_trace ("sorted.json", FALSE);
  g_autoptr(StrataEventTable) table = strata_event_table_new (trace);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (table));

  for (int sort = STRATA_EVENT_TABLE_BY_START; sort <= STRATA_EVENT_TABLE_BY_THREAD; sort++)
    for (int descending = 0; descending < 2; descending++)
      {
        guint n_changes = 0;

        strata_event_table_sort (table, sort, descending);
        g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (table)), ==, n);
        for (guint i = 1; i < n; i++)
          {
            const StrataEventTableEntry *a = strata_event_table_get (table, i - 1);
            const StrataEventTableEntry *b = strata_event_table_get (table, i);
            int order = compare_by (table, sort, a, b);

            g_assert_cmpint (descending ? -order : order, <=, 0);
            if (order == 0 && !descending)
              g_assert_cmpint (strata_event_table_entry_start (table, a), <=, strata_event_table_entry_start (table, b));
            n_changes += order != 0;
          }
        g_assert_cmpuint (n_changes, >, 1);
      }
}

static void
test_event_table_filter_and_range (void)
{
  g_autoptr(StrataTrace) trace = load_events_trace ("filtered.json", FALSE);
  g_autoptr(StrataEventTable) table = strata_event_table_new (trace);
  guint n_all = strata_event_table_get_n_all (table);
  g_autofree char *by_name = NULL, *by_category = NULL, *by_thread = NULL, *ranged = NULL;

  strata_event_table_set_filter (table, "fUnCtIoN");
  by_name = describe_list (table);
  g_assert_cmpstr (by_name, ==, "FunctionCall");
  strata_event_table_set_filter (table, "net");
  by_category = describe_list (table);
  g_assert_cmpstr (by_category, ==, "Fetch");
  strata_event_table_set_filter (table, "compositor");
  by_thread = describe_list (table);
  g_assert_cmpstr (by_thread, ==, "Draw");
  strata_event_table_set_filter (table, "");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (table)), ==, n_all);

  /* 25 µs to 35 µs in the file's times: what overlaps it. */
  strata_event_table_set_range (table, 25000, 35000);
  ranged = describe_list (table);
  g_assert_nonnull (strstr (ranged, "RunTask"));
  g_assert_nonnull (strstr (ranged, "Mark"));
  g_assert_nonnull (strstr (ranged, "Draw"));
  g_assert_null (strstr (ranged, "Navigation"));
  strata_event_table_set_filter (table, "mark");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (table)), ==, 1);
  strata_event_table_clear_range (table);
  strata_event_table_set_filter (table, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (table)), ==, n_all);
}

static void
test_event_table_find (void)
{
  g_autoptr(StrataTrace) trace = load_events_trace ("found.json", FALSE);
  g_autoptr(StrataEventTable) table = strata_event_table_new (trace);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (table));

  strata_event_table_sort (table, STRATA_EVENT_TABLE_BY_NAME, TRUE);
  for (guint i = 0; i < n; i++)
    {
      StrataEventTableEntry entry = *strata_event_table_get (table, i);

      g_assert_cmpuint (strata_event_table_find (table, &entry), ==, i);
    }
  strata_event_table_set_filter (table, "Fetch");
  {
    StrataEventTableEntry missing = { G_MAXUINT32, 0, G_MAXUINT32 - 1 };

    g_assert_cmpuint (strata_event_table_find (table, &missing), ==, G_MAXUINT);
  }
}

static void
args_read_cb (StrataEventTable *table,
              gboolean         *read)
{
  *read = TRUE;
}

/* Args of the rows asked for, in one pass over the file: on one line,
 * strings bare, the rest as JSON; none is "". */
static void
check_args (gboolean gzipped)
{
  g_autoptr(StrataTrace) trace = load_events_trace (gzipped ? "args.json.gz" : "args.json", gzipped);
  g_autoptr(StrataEventTable) table = strata_event_table_new (trace);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (table));
  gboolean read = FALSE;
  GHashTable *wanted = g_hash_table_new (g_str_hash, g_str_equal);

  g_signal_connect (table, "args-read", G_CALLBACK (args_read_cb), &read);
  for (guint i = 0; i < n; i++)
    g_assert_null (strata_event_table_entry_args (table, strata_event_table_get (table, i)));
  while (!read)
    g_main_context_iteration (NULL, TRUE);
  for (guint i = 0; i < n; i++)
    {
      const StrataEventTableEntry *entry = strata_event_table_get (table, i);

      g_hash_table_insert (wanted, (gpointer) strata_event_table_entry_name (table, entry),
                           (gpointer) strata_event_table_entry_args (table, entry));
    }
  g_assert_cmpstr (g_hash_table_lookup (wanted, "RunTask"), ==, "src: a.cc, line: 7");
  g_assert_cmpstr (g_hash_table_lookup (wanted, "FunctionCall"), ==, "data: {\"url\":\"a.js\"}");
  g_assert_cmpstr (g_hash_table_lookup (wanted, "Draw"), ==, "frame: line one line two");
  g_assert_cmpstr (g_hash_table_lookup (wanted, "Mark"), ==, "");
  g_hash_table_unref (wanted);
}

static void
test_event_table_args (void)
{
  check_args (FALSE);
}

static void
test_event_table_args_gzipped (void)
{
  check_args (TRUE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/event-table/all", test_event_table_all);
  g_test_add_func ("/event-table/sort", test_event_table_sort);
  g_test_add_func ("/event-table/filter-and-range", test_event_table_filter_and_range);
  g_test_add_func ("/event-table/find", test_event_table_find);
  g_test_add_func ("/event-table/args", test_event_table_args);
  g_test_add_func ("/event-table/args-gzipped", test_event_table_args_gzipped);
  return g_test_run ();
}
