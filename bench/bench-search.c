/* bench-search.c: searching a large method trace by name
 *
 * Loads a generated dmtrace (gen-dmtrace, 10 million calls by default)
 * and prints the median time to make a search (names matched, calls of
 * matching methods counted), as each keystroke in the search bar does,
 * and to walk to the next match from the start and from the middle.
 * Not a test:
 *
 *   bench-search GENERATOR [N_RECORDS] [FILE]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "bench-util.h"
#include "strata-memory.h"
#include "strata-search.h"

#define DEFAULT_RECORDS 20000000   /* an enter and an exit: 10 million calls */
#define RUNS 5

int
main (int   argc,
      char *argv[])
{
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(StrataProfile) profile = NULL;
  g_autofree char *path = NULL;
  double make[RUNS], first[RUNS], middle[RUNS], load_s, profile_s;
  guint64 n_records, n_calls = 0;

  strata_memory_tune_allocator ();
  if (argc < 2)
    {
      g_printerr ("usage: %s GENERATOR [N_RECORDS] [FILE]\n", argv[0]);
      return 2;
    }
  n_records = argc > 2 ? g_ascii_strtoull (argv[2], NULL, 10) : DEFAULT_RECORDS;
  path = argc > 3 ? g_strdup (argv[3]) : g_strdup_printf ("bench-dmtrace-local-%" G_GUINT64_FORMAT ".trace", n_records);
  if (!strata_bench_ensure_shaped_trace (argv[1], NULL, path, n_records, 0) ||
      !(trace = strata_bench_load_and_profile (path, &profile, &load_s, &profile_s)))
    return 1;

  for (guint run = 0; run < RUNS; run++)
    {
      gint64 start = g_get_monotonic_time (), from_start, from_end;
      /* The methods whose names hold "1234": a few in 20,000. */
      g_autoptr(StrataSearch) search = strata_search_new (trace, "1234", FALSE, NULL);
      StrataSearchHit from = { FALSE, 0, 0, 0, G_MININT64 }, hit;

      make[run] = strata_bench_seconds_since (start);
      n_calls = strata_search_count_calls (search);
      strata_trace_get_clock_range (trace, 0, &from_start, &from_end);
      start = g_get_monotonic_time ();
      strata_search_step (search, 0, &from, 1, &hit);
      first[run] = strata_bench_seconds_since (start);
      from.start = from_start + (from_end - from_start) / 2;
      start = g_get_monotonic_time ();
      strata_search_step (search, 0, &from, 1, &hit);
      middle[run] = strata_bench_seconds_since (start);
    }
  g_print ("calls:              %" G_GUINT64_FORMAT "\n", strata_trace_get_n_spans (trace));
  g_print ("matching calls:     %" G_GUINT64_FORMAT "\n", n_calls);
  g_print ("make a search:      %.3f s (median of %d)\n", strata_bench_median (make, RUNS), RUNS);
  g_print ("next from start:    %.3f s\n", strata_bench_median (first, RUNS));
  g_print ("next from middle:   %.3f s\n", strata_bench_median (middle, RUNS));
  return 0;
}
