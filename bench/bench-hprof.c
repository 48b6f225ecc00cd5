/* bench-hprof.c: the class histogram, object graph, dominator tree and
 * retained sizes of a large heap dump
 *
 * Loads a binary HPROF file (bench/gen-hprof.sh writes one from a real
 * JVM, of a shape: "list", a linked list of 27 million objects, or
 * "app", an application's 35 million) and prints the time, MB/s and peak
 * memory, beside the time `cat FILE > /dev/null` takes on the same warm
 * file, and how honest the progress was: the load runs on a thread, its
 * progress is read every quarter second, and each reading's estimate of
 * the time left (as the window makes it) is set against the time that
 * was left. Not a test: run it with `meson test -C _build --benchmark` or
 * directly:
 *
 *   bench-hprof GENERATOR.sh FILE [SHAPE]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <unistd.h>
#include <sys/resource.h>

#include "bench-util.h"
#include "strata-memory.h"
#include "strata-loader.h"

#define READ_CHUNK (1 << 20)

static gboolean
ensure_dump (const char *generator,
             const char *path,
             const char *shape)
{
  const char *argv[] = { "sh", generator, path, shape, NULL };
  g_autoptr(GError) error = NULL;
  int status;

  if (g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  g_print ("writing a heap dump into %s with %s…\n", path, generator);
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    {
      g_printerr ("the generator failed (it needs a JDK): %s\n", error->message);
      return FALSE;
    }
  return TRUE;
}

/* What `cat FILE > /dev/null` does: read it all, once warm. */
static double
time_cat (const char *path)
{
  g_autofree char *buffer = g_malloc (READ_CHUNK);
  int fd = open (path, O_RDONLY);
  gint64 start;

  if (fd < 0)
    return -1;
  for (int pass = 0; pass < 2; pass++)
    {
      start = g_get_monotonic_time ();
      lseek (fd, 0, SEEK_SET);
      while (read (fd, buffer, READ_CHUNK) > 0)
        ;
    }
  close (fd);
  return strata_bench_seconds_since (start);
}

typedef struct
{
  StrataLoader *loader;
  StrataTrace  *trace;
  GError       *error;
  gboolean      done;
} Load;

static gpointer
load_thread (gpointer data)
{
  Load *load = data;

  load->trace = strata_loader_load (load->loader, NULL, &load->error);
  g_atomic_int_set (&load->done, TRUE);
  return NULL;
}

/* The worst gap between the time left as the progress foretold it and
 * the time that was left, as the window shows it: its estimate,
 * elapsed × (1 − f) / f once a second and a twentieth are done, is made
 * when the progress moves. @stalled: the longest the progress stood still. */
static double
worst_estimate (const double *elapsed,
                const double *fraction,
                guint         n,
                double        total,
                double       *stalled)
{
  double worst = 0, moved = 0;

  *stalled = 0;
  for (guint i = 0; i < n; i++)
    {
      if (i > 0 && fraction[i] == fraction[i - 1])
        {
          *stalled = MAX (*stalled, elapsed[i] - moved);
          continue;
        }
      moved = elapsed[i];
      if (elapsed[i] >= 1.0 && fraction[i] >= 0.05 && fraction[i] < 1.0)
        worst = MAX (worst, ABS (elapsed[i] * (1 - fraction[i]) / fraction[i] - (total - elapsed[i])));
    }
  *stalled = MAX (*stalled, total - moved);
  return worst;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(StrataLoader) loader = NULL;
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFileInfo) info = NULL;
  struct rusage usage;
  double cat_s, load_s, size_mb, worst, stalled;
  guint64 instances, bytes;
  gint64 start;

  strata_memory_tune_allocator ();
  if (argc < 3)
    {
      g_printerr ("usage: %s GENERATOR FILE\n", argv[0]);
      return 2;
    }
  if (!ensure_dump (argv[1], argv[2], argc > 3 ? argv[3] : "list"))
    return 77;

  file = g_file_new_for_path (argv[2]);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, 0, NULL, NULL);
  size_mb = info ? g_file_info_get_size (info) / 1e6 : 0;
  cat_s = time_cat (argv[2]);

  loader = strata_loader_new (file);
  start = g_get_monotonic_time ();
  {
    Load load = { loader, NULL, NULL, FALSE };
    GThread *thread = g_thread_new ("load", load_thread, &load);
    double elapsed[4096], fraction[4096];
    guint n = 0;

    while (!g_atomic_int_get (&load.done))
      {
        g_usleep (G_USEC_PER_SEC / 4);
        if (n < G_N_ELEMENTS (elapsed))
          {
            elapsed[n] = strata_bench_seconds_since (start);
            fraction[n++] = strata_loader_get_fraction (loader);
          }
      }
    g_thread_join (thread);
    load_s = strata_bench_seconds_since (start);
    if ((trace = load.trace) == NULL)
      {
        g_printerr ("load failed: %s\n", load.error->message);
        return 1;
      }
    worst = worst_estimate (elapsed, fraction, n, load_s, &stalled);
  }
  getrusage (RUSAGE_SELF, &usage);
  strata_heap_get_totals (strata_trace_get_heap (trace), &instances, &bytes);

  g_print ("file:               %s, %.1f MB\n", argv[2], size_mb);
  g_print ("heap:               %" G_GUINT64_FORMAT " objects in %u classes\n",
           instances, strata_heap_get_n_classes (strata_trace_get_heap (trace)));
  {
    StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (trace));

    if (graph != NULL)
      g_print ("object graph:       %u objects, %" G_GUINT64_FORMAT " bytes reachable, %u unreachable\n",
               strata_heap_graph_get_n_objects (graph), strata_heap_graph_get_reachable_bytes (graph),
               strata_heap_graph_get_n_unreachable (graph));
  }
  g_print ("load, retained sizes: %.3f s, %.0f MB/s\n", load_s, size_mb / load_s);
  g_print ("cat > /dev/null:    %.3f s, %.0f MB/s\n", cat_s, size_mb / cat_s);
  g_print ("peak memory:        %.1f MiB\n", usage.ru_maxrss / 1024.0);
  g_print ("time left foretold: %.1f s off at worst, the progress still for %.1f s at most\n", worst, stalled);
  return 0;
}
