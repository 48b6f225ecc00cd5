/* bench-dmtrace.c: load + profile a large method trace, beside dmtracedump
 *
 * Prints wall time, peak memory per record and the speed ratio against
 * AOSP's dmtracedump on the same file. Not a test: run it with
 * `meson test -C _build --benchmark` or directly.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <sys/resource.h>
#include <sys/wait.h>

#include "bench-util.h"
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

int
main (int   argc,
      char *argv[])
{
  guint64 n_records = argc > 2 ? g_ascii_strtoull (argv[2], NULL, 10) : DEFAULT_RECORDS;
  g_autofree char *path = NULL;
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(StrataProfile) profile = NULL;
  struct rusage usage;
  double load_s, profile_s, dump_s;

  if (argc < 2)
    {
      g_printerr ("usage: %s GENERATOR [N_RECORDS] [FILE]\n", argv[0]);
      return 2;
    }
  path = argc > 3 ? g_strdup (argv[3])
                  : g_strdup_printf ("bench-dmtrace-%" G_GUINT64_FORMAT ".trace", n_records);
  if (!strata_bench_ensure_trace (argv[1], path, n_records, 0))
    return 1;

  if (!(trace = strata_bench_load_and_profile (path, &profile, &load_s, &profile_s)))
    return 1;
  getrusage (RUSAGE_SELF, &usage);

  g_print ("records:            %" G_GUINT64_FORMAT "\n", n_records);
  g_print ("calls:              %" G_GUINT64_FORMAT "\n", strata_trace_get_n_spans (trace));
  g_print ("load:               %.3f s\n", load_s);
  g_print ("profile:            %.3f s\n", profile_s);
  g_print ("load + profile:     %.3f s (%.1f M records/s)\n", load_s + profile_s,
           n_records / (load_s + profile_s) / 1e6);
  g_print ("peak memory:        %.1f MiB, %.1f bytes per record\n", usage.ru_maxrss / 1024.0,
           usage.ru_maxrss * 1024.0 / n_records);

  dump_s = g_getenv ("STRATA_BENCH_NO_PEER") ? -1 : time_dmtracedump (path);
  if (dump_s > 0)
    g_print ("dmtracedump:        %.3f s, %.1fx slower than Strata\n", dump_s, dump_s / (load_s + profile_s));
  else
    g_print ("dmtracedump:        not installed\n");

  return 0;
}
