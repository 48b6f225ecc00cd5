/* bench-perfetto.c: a Perfetto trace against the same calls in JSON
 *
 * bench-perfetto [--shape=SHAPE] [--runs=N] STRATA GEN-PERFETTO MEGABYTES OUT-PREFIX
 *
 * gen-perfetto writes OUT-PREFIX.pftrace (MEGABYTES of protobuf, with
 * interning and incremental state as Chrome writes them) and
 * OUT-PREFIX.json (the same calls as B and E events) unless they are
 * there. `strata -r` then reports each, N times in turn (5 by default):
 * the median and fastest wall time and the peak memory of each, and
 * whether the two reports' collapsed stacks (their first twelve frames)
 * are the same. Not a test:
 * run it with `meson test -C _build --benchmark` or directly.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench-util.h"

static gboolean
ensure_files (const char *generator,
              const char *shape,
              const char *megabytes,
              const char *proto,
              const char *json)
{
  g_autofree char *shape_arg = g_strdup_printf ("--shape=%s", shape);
  const char *argv[] = { generator, shape_arg, megabytes, proto, json, NULL };
  g_autoptr(GError) error = NULL;
  int status;

  if (g_file_test (proto, G_FILE_TEST_EXISTS) && g_file_test (json, G_FILE_TEST_EXISTS))
    return TRUE;
  g_print ("writing %s and %s ...\n", proto, json);
  return g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error) &&
         g_spawn_check_wait_status (status, NULL);
}

static char *
folded (const char *strata,
        const char *path)
{
  /* Twelve frames at most: a random shape's whole stacks pass what a
   * report writes at most. */
  const char *argv[] = { strata, "-r", "--format=folded", "--depth=12", path, NULL };
  char *out = NULL;
  int status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, NULL) ||
      !g_spawn_check_wait_status (status, NULL))
    g_clear_pointer (&out, g_free);
  return out;
}

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* Stacks of equal weight come in no set order: sorted, to compare. */
static char *
sorted_lines (char *text)
{
  g_auto(GStrv) lines = NULL;

  if (text == NULL)
    return NULL;
  lines = g_strsplit (text, "\n", -1);
  g_free (text);
  qsort (lines, g_strv_length (lines), sizeof (char *), compare_lines);
  return g_strjoinv ("\n", lines);
}

static double
megabytes_of (const char *path)
{
  struct stat info;

  return stat (path, &info) == 0 ? info.st_size / (1024.0 * 1024.0) : 0;
}

int
main (int   argc,
      char *argv[])
{
  const char *shape = "wide";
  guint n_runs = 5;
  int arg = 1;
  g_autofree char *proto = NULL, *json = NULL, *proto_stacks = NULL, *json_stacks = NULL;
  g_autofree double *proto_s = NULL, *json_s = NULL;
  double proto_peak = 0, json_peak = 0;

  for (; arg < argc && g_str_has_prefix (argv[arg], "--"); arg++)
    if (g_str_has_prefix (argv[arg], "--shape="))
      shape = argv[arg] + strlen ("--shape=");
    else if (g_str_has_prefix (argv[arg], "--runs="))
      n_runs = CLAMP (atoi (argv[arg] + strlen ("--runs=")), 1, 50);
  if (argc - arg != 4)
    {
      g_printerr ("usage: bench-perfetto [--shape=SHAPE] [--runs=N] STRATA GEN-PERFETTO MEGABYTES OUT-PREFIX\n");
      return 2;
    }
  proto = g_strconcat (argv[arg + 3], ".pftrace", NULL);
  json = g_strconcat (argv[arg + 3], ".json", NULL);
  if (!ensure_files (argv[arg + 1], shape, argv[arg + 2], proto, json))
    {
      g_printerr ("bench-perfetto: gen-perfetto failed\n");
      return 1;
    }
  proto_s = g_new (double, n_runs);
  json_s = g_new (double, n_runs);
  /* In turn, so a slow minute of the machine falls on both. */
  for (guint run = 0; run < n_runs; run++)
    {
      double peak = 0;

      proto_s[run] = strata_bench_time_report (argv[arg], "text", proto, &peak);
      proto_peak = MAX (proto_peak, peak);
      json_s[run] = strata_bench_time_report (argv[arg], "text", json, &peak);
      json_peak = MAX (json_peak, peak);
      if (proto_s[run] < 0 || json_s[run] < 0)
        {
          g_printerr ("bench-perfetto: strata -r failed\n");
          return 1;
        }
    }
  proto_stacks = sorted_lines (folded (argv[arg], proto));
  json_stacks = sorted_lines (folded (argv[arg], json));
  g_print ("shape %s\n", shape);
  qsort (proto_s, n_runs, sizeof (double), strata_bench_compare_doubles);
  qsort (json_s, n_runs, sizeof (double), strata_bench_compare_doubles);
  g_print ("protobuf: %7.1f MB  strata -r %.3f s (fastest %.3f s), peak %.1f MiB\n", megabytes_of (proto),
           strata_bench_median (proto_s, n_runs), proto_s[0], proto_peak);
  g_print ("JSON:     %7.1f MB  strata -r %.3f s (fastest %.3f s), peak %.1f MiB\n", megabytes_of (json),
           strata_bench_median (json_s, n_runs), json_s[0], json_peak);
  g_print ("same collapsed stacks: %s\n",
           proto_stacks != NULL && json_stacks != NULL && g_str_equal (proto_stacks, json_stacks) ? "yes" : "NO");
  return proto_stacks != NULL && json_stacks != NULL && g_str_equal (proto_stacks, json_stacks) ? 0 : 1;
}
