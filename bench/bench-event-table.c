/* bench-event-table.c: the Events page's list over a large Trace Event
 * file
 *
 * Loads a generated DevTools recording (gen-devtools-trace.py, 500 MB by
 * default, in a shape) and prints the time to make the list of its
 * events, to sort it by each column both ways, to filter it by a name
 * (as each keystroke in the filter does) and to cut it to a tenth of the
 * trace, with the memory the list adds. Not a test:
 *
 *   bench-event-table [--shape=SHAPE] GENERATOR [SIZE_MB] [FILE]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/resource.h>

#include "bench-util.h"
#include "strata-event-table.h"
#include "strata-memory.h"

#define RUNS 3

static double
peak_mib (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;
}

static double
median_of (double (*step) (StrataEventTable *, gconstpointer),
           StrataEventTable *table,
           gconstpointer     data)
{
  double runs[RUNS];

  for (guint r = 0; r < RUNS; r++)
    runs[r] = step (table, data);
  return strata_bench_median (runs, RUNS);
}

static double
sort_step (StrataEventTable *table,
           gconstpointer     data)
{
  int key = GPOINTER_TO_INT (data);
  gint64 start = g_get_monotonic_time ();

  /* From the list by start, as a click on another header finds it. */
  strata_event_table_sort (table, STRATA_EVENT_TABLE_BY_START, FALSE);
  start = g_get_monotonic_time ();
  strata_event_table_sort (table, key / 2, key % 2);
  return strata_bench_seconds_since (start);
}

static double
filter_step (StrataEventTable *table,
             gconstpointer     data)
{
  gint64 start = g_get_monotonic_time ();

  strata_event_table_set_filter (table, data);
  return strata_bench_seconds_since (start);
}

int
main (int   argc,
      char *argv[])
{
  static const char *sort_names[] = { "start", "duration", "name", "category", "thread" };
  static const char *filters[] = { "Layout", "zzz" };
  const char *shape = argc > 1 && g_str_has_prefix (argv[1], "--shape=") ? argv[1] : NULL;
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(StrataProfile) profile = NULL;
  g_autoptr(StrataEventTable) table = NULL;
  g_autofree char *path = NULL;
  double load_s, profile_s, before, built_s, range_s;
  guint64 size_mb;
  gint64 start, from, to;

  strata_memory_tune_allocator ();
  if (shape != NULL)
    {
      argv++;
      argc--;
    }
  if (argc < 2)
    {
      g_printerr ("usage: bench-event-table [--shape=SHAPE] GENERATOR [SIZE_MB] [FILE]\n");
      return 2;
    }
  size_mb = argc > 2 ? g_ascii_strtoull (argv[2], NULL, 10) : 500;
  path = argc > 3 ? g_strdup (argv[3]) : g_strdup_printf ("bench-devtools-%" G_GUINT64_FORMAT ".json", size_mb);
  if (!strata_bench_ensure_shaped_trace (argv[1], shape, path, size_mb, 0) ||
      !(trace = strata_bench_load_and_profile (path, &profile, &load_s, &profile_s)))
    return 1;
  g_clear_object (&profile);
  before = peak_mib ();

  start = g_get_monotonic_time ();
  table = strata_event_table_new (trace);
  built_s = strata_bench_seconds_since (start);
  g_print ("file:               %s\n", path);
  g_print ("events listed:      %u (of %" G_GUINT64_FORMAT " calls and %u other events)\n",
           strata_event_table_get_n_all (table), strata_trace_get_n_spans (trace), strata_trace_get_n_events (trace));
  g_print ("make the list:      %.3f s\n", built_s);
  for (int key = 0; key < 10; key++)
    g_print ("sort by %-9s %s %.3f s\n", sort_names[key / 2], key % 2 ? "desc:" : "asc: ",
             median_of (sort_step, table, GINT_TO_POINTER (key)));
  strata_event_table_sort (table, STRATA_EVENT_TABLE_BY_START, FALSE);
  for (guint f = 0; f < G_N_ELEMENTS (filters); f++)
    {
      /* The median first: arguments are taken in no set order. */
      double seconds = median_of (filter_step, table, filters[f]);

      g_print ("filter \"%s\":%*s %.3f s, %u events\n", filters[f], (int) (12 - strlen (filters[f])), "",
               seconds, g_list_model_get_n_items (G_LIST_MODEL (table)));
    }
  strata_event_table_set_filter (table, NULL);
  strata_trace_get_clock_range (trace, 0, &from, &to);
  start = g_get_monotonic_time ();
  strata_event_table_set_range (table, from + (to - from) / 2, from + (to - from) / 2 + (to - from) / 10);
  range_s = strata_bench_seconds_since (start);
  g_print ("a tenth of the time: %.3f s, %u events\n", range_s, g_list_model_get_n_items (G_LIST_MODEL (table)));
  g_print ("peak memory:        %.1f MiB after loading, %.1f MiB with the list\n", before, peak_mib ());
  return 0;
}
