/* bench-trace-event.c: load + profile a large Trace Event JSON file
 *
 * Prints MB/s, events/s and peak memory, how fast a cancelled load stops,
 * and, when node and the peer scripts are there, the same file loaded by
 * Chrome DevTools' trace engine. Not a test: run it with
 * `meson test -C _build --benchmark` or directly:
 *
 *   bench-trace-event [--shape=SHAPE] GENERATOR.py [N_EVENTS] [FILE] [PEER_SCRIPT]
 *
 * N_EVENTS is what the generator takes: events for gen_trace.py,
 * megabytes for gen-devtools-trace.py (whose shapes --shape picks).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <sys/resource.h>
#include <json-glib/json-glib.h>

#include "bench-util.h"
#include "strata-memory.h"
#include "strata-loader.h"
#include "strata-profile.h"

#define DEFAULT_EVENTS 3300000   /* about 500 MB of the generator's output */

typedef struct
{
  GCancellable *cancellable;
  gint64        cancelled_at;
  guint         delay_ms;
} CancelTimer;

static gpointer
cancel_later (gpointer data)
{
  CancelTimer *timer = data;

  g_usleep (timer->delay_ms * 1000);
  timer->cancelled_at = g_get_monotonic_time ();
  g_cancellable_cancel (timer->cancellable);
  return NULL;
}

/* Loads again and cancels after @delay_ms: how long until the load gives up. */
static double
measure_cancel (GFile *file,
                guint  delay_ms)
{
  g_autoptr(StrataLoader) loader = strata_loader_new (file);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  CancelTimer timer = { cancellable, 0, delay_ms };
  GThread *thread = g_thread_new ("cancel", cancel_later, &timer);
  gint64 returned;

  trace = strata_loader_load (loader, cancellable, &error);
  returned = g_get_monotonic_time ();
  g_thread_join (thread);
  if (trace != NULL)
    return -1;   /* finished before the cancel came */
  return (returned - timer.cancelled_at) / 1000.0;
}

static void
run_peer (const char *script,
          const char *path,
          double      strata_s)
{
  const char *argv[] = { "node", "--max-old-space-size=16000", script, path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *result, *wall;
  int status;

  if (script == NULL || !g_file_test (script, G_FILE_TEST_EXISTS) || g_getenv ("STRATA_BENCH_NO_PEER") ||
      !g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, NULL))
    {
      g_print ("DevTools engine:    not run (no node or no peer script)\n");
      return;
    }
  if (!json_parser_load_from_data (parser, out, -1, &error) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)) ||
      !json_object_get_boolean_member_with_default ((result = json_node_get_object (json_parser_get_root (parser))), "ok", FALSE))
    {
      g_print ("DevTools engine:    failed: %s", err ? err : "");
      return;
    }
  wall = json_object_get_object_member (result, "wall_ms");
  g_print ("DevTools engine:    %.3f s, peak %.0f MiB, %.1fx slower than Strata\n",
           json_object_get_double_member (wall, "total") / 1000,
           json_object_get_double_member (result, "peak_rss_mib"),
           json_object_get_double_member (wall, "total") / 1000 / strata_s);
}

int
main (int   argc,
      char *argv[])
{
  const char *shape = argc > 1 && g_str_has_prefix (argv[1], "--shape=") ? argv[1] : NULL;
  guint64 n_events;
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(StrataProfile) profile = NULL;
  g_autoptr(GFileInfo) info = NULL;
  struct rusage usage;
  double load_s, profile_s, total_s, size_mb, worst_cancel = 0;
  guint64 n_read = 0;

  strata_memory_tune_allocator ();
  if (shape != NULL)
    {
      argv++;
      argc--;
    }
  if (argc < 2)
    {
      g_printerr ("usage: bench-trace-event [--shape=SHAPE] GENERATOR [N_EVENTS] [FILE] [PEER_SCRIPT]\n");
      return 2;
    }
  n_events = argc > 2 ? g_ascii_strtoull (argv[2], NULL, 10) : DEFAULT_EVENTS;
  path = argc > 3 ? g_strdup (argv[3])
                  : g_strdup_printf ("bench-trace-event-%" G_GUINT64_FORMAT ".json", n_events);
  if (!strata_bench_ensure_shaped_trace (argv[1], shape, path, n_events, 0))
    return 1;

  file = g_file_new_for_path (path);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, 0, NULL, NULL);
  size_mb = info ? g_file_info_get_size (info) / 1e6 : 0;
  if (!(trace = strata_bench_load_and_profile (path, &profile, &load_s, &profile_s)))
    return 1;
  total_s = load_s + profile_s;
  getrusage (RUSAGE_SELF, &usage);
  for (int ph = 0; ph < 128; ph++)
    n_read += strata_trace_get_phase_count (trace, ph);

  g_print ("file:               %s, %.1f MB\n", path, size_mb);
  g_print ("events:             %" G_GUINT64_FORMAT ", calls: %" G_GUINT64_FORMAT "\n",
           n_read, strata_trace_get_n_spans (trace));
  g_print ("load:               %.3f s\n", load_s);
  g_print ("profile:            %.3f s\n", profile_s);
  g_print ("load + profile:     %.3f s, %.0f MB/s, %.2f M events/s\n", total_s,
           size_mb / total_s, n_read / total_s / 1e6);
  g_print ("peak memory:        %.1f MiB\n", usage.ru_maxrss / 1024.0);
  g_clear_object (&profile);
  g_clear_object (&trace);

  for (guint i = 1; i <= 4; i++)
    {
      double latency = measure_cancel (file, (guint) (load_s * 1000 * i / 5));

      if (latency < 0)
        g_print ("cancel:             the load finished before the cancel at %u%%\n", i * 20);
      if (g_getenv ("STRATA_BENCH_VERBOSE"))
        g_print ("cancel at %u%%:       %.0f ms\n", i * 20, latency);
      worst_cancel = MAX (worst_cancel, latency);
    }
  g_print ("cancel:             stops within %.0f ms (worst of 4 points in the load)\n", worst_cancel);

  run_peer (argc > 4 ? argv[4] : NULL, path, total_s);
  return 0;
}
