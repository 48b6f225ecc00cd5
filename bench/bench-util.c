/* bench-util.c: what the benchmarks share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench-util.h"
#include "strata-loader.h"

/* Writes the input with a generator (bench/gen-dmtrace, or a Python
 * script such as the shared gen_trace.py) unless it is already there;
 * @n_methods 0 keeps the generator's own number. */
gboolean
strata_bench_ensure_trace (const char *generator,
                           const char *path,
                           guint64     n_records,
                           guint       n_methods)
{
  return strata_bench_ensure_shaped_trace (generator, NULL, path, n_records, n_methods);
}

/* The same, passing @shape ("--shape=random") to the generator. */
gboolean
strata_bench_ensure_shaped_trace (const char *generator,
                                  const char *shape,
                                  const char *path,
                                  guint64     n_records,
                                  guint       n_methods)
{
  g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, n_records);
  g_autofree char *methods = n_methods > 0 ? g_strdup_printf ("%u", n_methods) : NULL;
  /* Python generators run through python3: the script need not be executable. */
  gboolean python = g_str_has_suffix (generator, ".py");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int status;

  if (g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  if (python)
    g_ptr_array_add (argv, (gpointer) "python3");
  g_ptr_array_add (argv, (gpointer) generator);
  if (shape != NULL)
    g_ptr_array_add (argv, (gpointer) shape);
  g_ptr_array_add (argv, count);
  g_ptr_array_add (argv, (gpointer) path);
  if (methods != NULL)
    g_ptr_array_add (argv, methods);
  g_ptr_array_add (argv, NULL);
  g_print ("generating %s records into %s…\n", count, path);
  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    {
      g_printerr ("generator failed: %s\n", error->message);
      return FALSE;
    }
  return TRUE;
}

/* For qsort() over doubles, smallest first. */
int
strata_bench_compare_doubles (gconstpointer a,
                              gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The median of @n values (sorted in place; of two middle ones, their mean). */
double
strata_bench_median (double *values,
                     guint   n)
{
  qsort (values, n, sizeof *values, strata_bench_compare_doubles);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double
strata_bench_seconds_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / 1e6;
}

/* Loads @path as the application does, then profiles it, timing each;
 * prints why and returns %NULL if the load fails. */
StrataTrace *
strata_bench_load_and_profile (const char     *path,
                               StrataProfile **profile,
                               double         *load_s,
                               double         *profile_s)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(StrataLoader) loader = strata_loader_new (file);
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  if (!(trace = strata_loader_load (loader, NULL, &error)))
    {
      g_printerr ("load failed: %s\n", error->message);
      return NULL;
    }
  *load_s = strata_bench_seconds_since (start);
  start = g_get_monotonic_time ();
  *profile = strata_profile_new (trace, -1, NULL, NULL);
  *profile_s = strata_bench_seconds_since (start);
  return g_steal_pointer (&trace);
}

/* The whole `strata -r` process, its output thrown away: seconds, and its
 * peak memory in @peak_mib. */
double
strata_bench_time_report (const char *strata,
                          const char *format,
                          const char *path,
                          double     *peak_mib)
{
  g_autofree char *format_arg = g_strdup_printf ("--format=%s", format);
  gint64 start = g_get_monotonic_time ();
  struct rusage usage;
  int status;
  pid_t pid = fork ();

  if (pid == 0)
    {
      int null = open ("/dev/null", O_WRONLY);

      dup2 (null, STDOUT_FILENO);
      execl (strata, strata, "-r", format_arg, path, (char *) NULL);
      _exit (127);
    }
  if (pid < 0 || wait4 (pid, &status, 0, &usage) < 0 || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    return -1;
  *peak_mib = usage.ru_maxrss / 1024.0;
  return strata_bench_seconds_since (start);
}

/* Median and fastest of @n_runs reports; the peak is the largest seen. */
gboolean
strata_bench_time_reports (const char *strata,
                           const char *format,
                           const char *path,
                           guint       n_runs,
                           double     *median_s,
                           double     *min_s,
                           double     *peak_mib)
{
  g_autofree double *seconds = g_new (double, n_runs);

  *peak_mib = 0;
  for (guint run = 0; run < n_runs; run++)
    {
      double peak = 0;

      if ((seconds[run] = strata_bench_time_report (strata, format, path, &peak)) < 0)
        return FALSE;
      *peak_mib = MAX (*peak_mib, peak);
    }
  *median_s = strata_bench_median (seconds, n_runs);
  *min_s = seconds[0];
  return TRUE;
}
