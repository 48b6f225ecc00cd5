/* bench-flame-graph.c: frames of the flame graph of a large trace
 *
 * Builds the call tree of a generated dmtrace (10 million calls by
 * default) and draws the flame graph offscreen at 1600 × 600, zoomed out
 * and zoomed into deeper and deeper nodes along the heaviest path, and
 * prints the median and worst frame times; then applies a transform
 * (merging the heaviest path's second method) and prints its time. Needs
 * a display (xvfb-run -a). Not a test:
 *
 *   bench-flame-graph GENERATOR [N_RECORDS] [FILE]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gtk/gtk.h>

#include "bench-util.h"
#include "strata-memory.h"
#include "strata-call-tree.h"
#include "strata-flame-graph.h"

#define DEFAULT_RECORDS 20000000
#define WIDTH 1600
#define HEIGHT 600
#define FRAMES 15

static double
time_frames (StrataFlameGraph *flame,
             cairo_t          *cr,
             double           *worst)
{
  double times[FRAMES];

  for (guint i = 0; i < FRAMES; i++)
    {
      gint64 start = g_get_monotonic_time ();

      strata_flame_graph_draw (flame, cr, WIDTH, HEIGHT);
      times[i] = strata_bench_seconds_since (start);
    }
  qsort (times, FRAMES, sizeof (double), strata_bench_compare_doubles);
  *worst = times[FRAMES - 1];
  return times[FRAMES / 2];
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(StrataProfile) profile = NULL;
  g_autoptr(StrataCallTree) tree = NULL;
  g_autofree char *path = NULL;
  guint64 n_records;
  double load_s, profile_s;
  GtkWidget *flame;
  cairo_surface_t *surface;
  cairo_t *cr;
  guint32 node = STRATA_CALL_TREE_ROOT;

  strata_memory_tune_allocator ();
  if (argc < 2)
    {
      g_printerr ("usage: %s GENERATOR [N_RECORDS] [FILE]\n", argv[0]);
      return 2;
    }
  if (!gtk_init_check ())
    {
      g_printerr ("bench-flame-graph needs a display (run it under xvfb-run -a)\n");
      return 77;
    }
  n_records = argc > 2 ? g_ascii_strtoull (argv[2], NULL, 10) : DEFAULT_RECORDS;
  path = argc > 3 ? g_strdup (argv[3]) : g_strdup_printf ("bench-dmtrace-local-%" G_GUINT64_FORMAT ".trace", n_records);
  if (!strata_bench_ensure_trace (argv[1], path, n_records, 0) ||
      !(trace = strata_bench_load_and_profile (path, &profile, &load_s, &profile_s)) ||
      !(tree = strata_call_tree_new (trace, -1, FALSE, NULL, NULL, &error)))
    return 1;
  flame = g_object_ref_sink (strata_flame_graph_new ());
  strata_flame_graph_set_tree (STRATA_FLAME_GRAPH (flame), tree);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cr = cairo_create (surface);
  g_print ("distinct paths:     %u\n", strata_call_tree_get_n_nodes (tree));
  /* The process's first frame also loads the fonts: apart from the rest. */
  {
    gint64 start = g_get_monotonic_time ();

    strata_flame_graph_draw (STRATA_FLAME_GRAPH (flame), cr, WIDTH, HEIGHT);
    g_print ("first frame:        %.2f ms (fonts loaded)\n", strata_bench_seconds_since (start) * 1e3);
  }
  /* Zoomed out, then into the heaviest child, depth after depth. */
  for (guint depth = 0; depth <= 12; depth += 3)
    {
      double worst, median;

      strata_flame_graph_zoom_to (STRATA_FLAME_GRAPH (flame), node);
      median = time_frames (STRATA_FLAME_GRAPH (flame), cr, &worst);
      g_print ("frame, depth %2u:    %.2f ms median, %.2f ms worst, %u bars\n", depth, median * 1e3, worst * 1e3,
               strata_flame_graph_draw_count (STRATA_FLAME_GRAPH (flame)));
      for (guint step = 0; step < 3 && strata_call_tree_get_n_children (tree, node) > 0; step++)
        node = strata_call_tree_get_first_child (tree, node);
    }
  {
    guint32 second = strata_call_tree_get_first_child (tree, strata_call_tree_get_first_child (tree, STRATA_CALL_TREE_ROOT));
    StrataCallTransform transform = { STRATA_CALL_TRANSFORM_MERGE_FUNCTION, strata_call_tree_get_method (tree, second),
                                      STRATA_CALL_TREE_NONE, NULL };
    double times[3];
    guint32 n_paths = 0;

    for (guint run = 0; run < G_N_ELEMENTS (times); run++)
      {
        gint64 start = g_get_monotonic_time ();
        g_autoptr(StrataCallTree) merged = strata_call_tree_transform (tree, &transform, NULL, &error);

        times[run] = strata_bench_seconds_since (start);
        n_paths = merged != NULL ? strata_call_tree_get_n_nodes (merged) : 0;
      }
    qsort (times, G_N_ELEMENTS (times), sizeof (double), strata_bench_compare_doubles);
    g_print ("transform (merge):  %.3f s (median of %u), %u paths\n", times[1], (guint) G_N_ELEMENTS (times), n_paths);
  }
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  g_object_unref (flame);
  return 0;
}
