/* bench-compare.c: comparing two large method traces
 *
 * Generates (once) two 20M-record traces of different call-graph shapes
 * (gen-dmtrace's local and random) and prints the median time to load and
 * profile each alone, and to compare them as `strata -r --diff` does:
 * both loaded at once, then matched method by method. Then two traces of
 * 100,000 methods each, to time the Compare page's sort on every column
 * kind. Not a test:
 *
 *   bench-compare GENERATOR [DIR]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "bench-util.h"
#include "strata-memory.h"
#include "strata-comparison-list.h"
#include "strata-loader.h"

#define LARGE_RECORDS 20000000
#define WIDE_RECORDS 4000000
#define WIDE_METHODS 100000
#define RUNS 3

typedef struct
{
  const char    *path;
  StrataProfile *profile;
} Side;

static gpointer
load_side (gpointer data)
{
  Side *side = data;
  g_autoptr(GFile) file = g_file_new_for_path (side->path);
  g_autoptr(StrataLoader) loader = strata_loader_new (file);
  g_autoptr(StrataTrace) trace = strata_loader_load (loader, NULL, NULL);

  side->profile = trace != NULL ? strata_profile_new (trace, -1, NULL, NULL) : NULL;
  return NULL;
}

/* As strata -r --diff: with @parallel the baseline in a thread and the
 * current here, else one after the other. */
static StrataComparison *
compare_files (const char *baseline,
               const char *current,
               gboolean    parallel)
{
  Side sides[2] = { { baseline, NULL }, { current, NULL } };
  GThread *thread = parallel ? g_thread_new ("baseline", load_side, &sides[0]) : NULL;
  StrataComparison *comparison = NULL;

  if (thread == NULL)
    load_side (&sides[0]);
  load_side (&sides[1]);
  if (thread != NULL)
    g_thread_join (thread);
  if (sides[0].profile != NULL && sides[1].profile != NULL)
    comparison = strata_comparison_new (sides[0].profile, sides[1].profile, STRATA_MATCH_SIGNATURE, NULL);
  g_clear_object (&sides[0].profile);
  g_clear_object (&sides[1].profile);
  return comparison;
}

static double
time_alone (const char *path)
{
  double load_s, profile_s;
  g_autoptr(StrataProfile) profile = NULL;
  g_autoptr(StrataTrace) trace = strata_bench_load_and_profile (path, &profile, &load_s, &profile_s);

  return trace != NULL ? load_s + profile_s : -1;
}

static gboolean
bench_large (const char *generator,
             const char *dir)
{
  g_autofree char *local = g_build_filename (dir, "bench-20M.trace", NULL);
  g_autofree char *random = g_build_filename (dir, "bench-20M-random.trace", NULL);
  double alone_a[RUNS], alone_b[RUNS], both[RUNS], serial[RUNS], matching[RUNS];
  guint n_rows = 0;

  if (!strata_bench_ensure_shaped_trace (generator, NULL, local, LARGE_RECORDS, 0) ||
      !strata_bench_ensure_shaped_trace (generator, "--shape=random", random, LARGE_RECORDS, 0))
    return FALSE;
  for (guint run = 0; run < RUNS; run++)
    {
      gint64 start;

      alone_a[run] = time_alone (local);
      alone_b[run] = time_alone (random);
      start = g_get_monotonic_time ();
      {
        g_autoptr(StrataComparison) in_turn = compare_files (local, random, FALSE);

        serial[run] = strata_bench_seconds_since (start);
      }
      start = g_get_monotonic_time ();
      {
        g_autoptr(StrataComparison) comparison = compare_files (local, random, TRUE);

        both[run] = strata_bench_seconds_since (start);
        if (comparison == NULL)
          return FALSE;
        n_rows = strata_comparison_get_n_rows (comparison);
        start = g_get_monotonic_time ();
        {
          g_autofree guint *order = strata_comparison_sort (comparison, STRATA_FIGURE_INCLUSIVE, 0);

          matching[run] = strata_bench_seconds_since (start);
        }
      }
    }
  g_print ("two 20M-record traces (local and random shapes), %u methods compared:\n", n_rows);
  g_print ("  load + profile, local alone:   %.2f s\n", strata_bench_median (alone_a, RUNS));
  g_print ("  load + profile, random alone:  %.2f s\n", strata_bench_median (alone_b, RUNS));
  g_print ("  the two, one after the other:  %.2f s\n",
           strata_bench_median (alone_a, RUNS) + strata_bench_median (alone_b, RUNS));
  g_print ("  compared, loaded in turn:       %.2f s\n", strata_bench_median (serial, RUNS));
  g_print ("  compared, loaded at once:       %.2f s (%u processors)\n", strata_bench_median (both, RUNS),
           g_get_num_processors ());
  g_print ("  then ordered by change:         %.4f s\n", strata_bench_median (matching, RUNS));
  return TRUE;
}

static double
time_sort (StrataComparisonList *list,
           StrataFigure          figure,
           StrataMeasure         measure)
{
  double runs[RUNS];

  for (guint run = 0; run < RUNS; run++)
    {
      gint64 start = g_get_monotonic_time ();

      strata_comparison_list_sort (list, figure, measure, run % 2 == 0);
      runs[run] = strata_bench_seconds_since (start);
    }
  return strata_bench_median (runs, RUNS);
}

static gboolean
bench_wide (const char *generator,
            const char *dir)
{
  g_autofree char *local = g_build_filename (dir, "bench-compare-100k-local.trace", NULL);
  g_autofree char *random = g_build_filename (dir, "bench-compare-100k-random.trace", NULL);
  g_autoptr(StrataComparison) comparison = NULL;
  g_autoptr(StrataComparisonList) list = NULL;

  if (!strata_bench_ensure_shaped_trace (generator, NULL, local, WIDE_RECORDS, WIDE_METHODS) ||
      !strata_bench_ensure_shaped_trace (generator, "--shape=random", random, WIDE_RECORDS, WIDE_METHODS) ||
      !(comparison = compare_files (local, random, TRUE)))
    return FALSE;
  list = strata_comparison_list_new (comparison);
  g_print ("the Compare page's sort, %u rows:\n", strata_comparison_get_n_rows (comparison));
  g_print ("  by name:          %.4f s\n", time_sort (list, STRATA_N_FIGURES, STRATA_MEASURE_BEFORE));
  g_print ("  by delta incl:     %.4f s\n", time_sort (list, STRATA_FIGURE_INCLUSIVE, STRATA_MEASURE_DELTA));
  g_print ("  by change excl:    %.4f s\n", time_sort (list, STRATA_FIGURE_EXCLUSIVE, STRATA_MEASURE_CHANGE));
  g_print ("  by calls after:   %.4f s\n", time_sort (list, STRATA_FIGURE_CALLS, STRATA_MEASURE_AFTER));
  strata_comparison_list_set_normalized (list, TRUE);
  g_print ("  shares, by delta incl: %.4f s\n", time_sort (list, STRATA_FIGURE_INCLUSIVE, STRATA_MEASURE_DELTA));
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  const char *dir = argc > 2 ? argv[2] : ".";

  strata_memory_tune_allocator ();
  if (argc < 2)
    {
      g_printerr ("usage: %s GENERATOR [DIR]\n", argv[0]);
      return 2;
    }
  return bench_wide (argv[1], dir) && bench_large (argv[1], dir) ? 0 : 1;
}
