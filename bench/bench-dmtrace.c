/* bench-dmtrace.c: load + profile a large method trace, beside dmtracedump
 *
 * Prints wall time, peak memory per record and the speed ratio against
 * AOSP's dmtracedump on the same file; with --strata, also the whole
 * `strata -r` process in text and JSON. --shape=random makes a trace whose
 * callees are drawn from all methods (millions of distinct edges).
 * Each measurement is repeated (--runs, 5 by default) and the median is
 * the figure, with the fastest beside it: on a shared two-core machine a
 * single run can take twice as long for reasons outside the process.
 * Not a test: run it with `meson test -C _build --benchmark` or directly.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench-util.h"
#include "strata-memory.h"
#include "strata-loader.h"
#include "strata-profile.h"

#define DEFAULT_RECORDS 20000000

/* dmtracedump profiles the same file; its output goes nowhere. */
static double
time_dmtracedump (const char *path)
{
  const char *argv[] = { "dmtracedump", path, NULL };
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  int status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, &error))
    return -1;
  return strata_bench_seconds_since (start);
}

static void
print_reports (const char *strata,
               const char *path,
               guint64     n_records,
               guint       n_runs)
{
  const char *formats[] = { "text", "json" };
  struct stat info;
  double budget_mib = 0;

  if (stat (path, &info) == 0)
    budget_mib = (info.st_size + 24.0 * n_records) / (1024.0 * 1024.0);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      double median_s, min_s, peak;

      if (!strata_bench_time_reports (strata, formats[i], path, n_runs, &median_s, &min_s, &peak))
        g_print ("strata -r (%s):     failed\n", formats[i]);
      else
        g_print ("strata -r (%s):%*s%.3f s (fastest %.3f s), peak %.1f MiB (budget: file + 24 B/record = %.1f MiB)\n",
                 formats[i], (int) (6 - strlen (formats[i])), "", median_s, min_s, peak, budget_mib);
    }
}

/* Loads and profiles @path @n_runs times; the medians and fastest total
 * go out, the last run's trace and profile stay for the figures. */
static StrataTrace *
load_and_profile_runs (const char     *path,
                       guint           n_runs,
                       StrataProfile **profile,
                       double         *load_s,
                       double         *profile_s,
                       double         *min_total_s)
{
  g_autofree double *loads = g_new (double, n_runs);
  g_autofree double *profiles = g_new (double, n_runs);
  g_autofree double *totals = g_new (double, n_runs);
  g_autoptr(StrataTrace) trace = NULL;

  for (guint run = 0; run < n_runs; run++)
    {
      g_clear_object (profile);
      g_clear_object (&trace);
      if (!(trace = strata_bench_load_and_profile (path, profile, &loads[run], &profiles[run])))
        return NULL;
      totals[run] = loads[run] + profiles[run];
    }
  *load_s = strata_bench_median (loads, n_runs);
  *profile_s = strata_bench_median (profiles, n_runs);
  strata_bench_median (totals, n_runs);
  *min_total_s = totals[0];
  return g_steal_pointer (&trace);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *shape = NULL;
  g_autofree char *strata = NULL;
  g_autofree char *format = NULL;
  gboolean v2;
  int n_runs = 5;
  g_autofree char *path = NULL;
  g_autoptr(GOptionContext) context = g_option_context_new ("GENERATOR [N_RECORDS] [FILE]");
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(StrataProfile) profile = NULL;
  const GOptionEntry entries[] = {
    { "shape", 0, 0, G_OPTION_ARG_STRING, &shape, "Call graph of the generated trace: local or random", "SHAPE" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, "Encoding of the generated trace: v3 (the default) or v2, ART's format V2", "FORMAT" },
    { "strata", 0, 0, G_OPTION_ARG_FILENAME, &strata, "Also time `strata -r` in both formats with this binary", "PATH" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &n_runs, "Repeat each measurement this many times (default 5)", "N" },
    { NULL }
  };
  guint64 n_records;
  struct rusage usage;
  double load_s, profile_s, min_total_s, dump_s;
  g_autofree char *shape_arg = NULL;

  strata_memory_tune_allocator ();
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc < 2)
    {
      g_printerr ("usage: %s [--shape=local|random] [--format=v3|v2] [--strata=PATH] [--runs=N] GENERATOR [N_RECORDS] [FILE]\n", argv[0]);
      return 2;
    }
  n_runs = CLAMP (n_runs, 1, 100);
  n_records = argc > 2 ? g_ascii_strtoull (argv[2], NULL, 10) : DEFAULT_RECORDS;
  v2 = g_strcmp0 (format, "v2") == 0;
  shape_arg = shape || v2 ? g_strdup_printf ("--shape=%s%s", shape ? shape : "local", v2 ? "-v2" : "") : NULL;
  path = argc > 3 ? g_strdup (argv[3])
                  : g_strdup_printf ("bench-dmtrace-%s%s-%" G_GUINT64_FORMAT ".trace", shape ? shape : "local",
                                     v2 ? "-v2" : "", n_records);
  if (!strata_bench_ensure_shaped_trace (argv[1], shape_arg, path, n_records, 0))
    return 1;

  if (!(trace = load_and_profile_runs (path, n_runs, &profile, &load_s, &profile_s, &min_total_s)))
    return 1;
  getrusage (RUSAGE_SELF, &usage);

  g_print ("shape:              %s%s\n", shape ? shape : "local", v2 ? ", ART format V2" : "");
  g_print ("records:            %" G_GUINT64_FORMAT "\n", n_records);
  g_print ("runs:               %d (medians; fastest beside)\n", n_runs);
  g_print ("calls:              %" G_GUINT64_FORMAT "\n", strata_trace_get_n_spans (trace));
  g_print ("load:               %.3f s\n", load_s);
  g_print ("profile:            %.3f s\n", profile_s);
  g_print ("load + profile:     %.3f s (%.1f M records/s; fastest %.3f s)\n", load_s + profile_s,
           n_records / (load_s + profile_s) / 1e6, min_total_s);
  g_print ("peak memory:        %.1f MiB, %.1f bytes per record\n", usage.ru_maxrss / 1024.0,
           usage.ru_maxrss * 1024.0 / n_records);

  g_print ("distinct edges:     %u\n", strata_profile_get_n_edges (profile));
  g_clear_object (&profile);
  g_clear_object (&trace);
  if (strata != NULL)
    print_reports (strata, path, n_records, n_runs);

  /* dmtracedump reads no V2. */
  dump_s = g_getenv ("STRATA_BENCH_NO_PEER") || v2 ? -1 : time_dmtracedump (path);
  if (v2)
    g_print ("dmtracedump:        cannot read ART format V2\n");
  else if (dump_s > 0)
    g_print ("dmtracedump:        %.3f s (one run), %.1fx slower than Strata\n", dump_s, dump_s / (load_s + profile_s));
  else
    g_print ("dmtracedump:        %s\n", g_getenv ("STRATA_BENCH_NO_PEER") ? "skipped (STRATA_BENCH_NO_PEER)" : "not installed");

  return 0;
}
