/* bench-timeline.c: frame times of the timeline on 10 million calls
 *
 * Renders offscreen with the same Cairo code the widget uses (software,
 * no display): the whole trace, and a window of a thousandth of it.
 * Prints the median of 100 frames for each. --clock=cpu draws the
 * trace's second clock (thread time), where it has one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>

#include "bench-util.h"
#include "strata-memory.h"
#include "strata-loader.h"
#include "strata-palette.h"
#include "strata-profile.h"
#include "strata-timeline-render.h"

#define WIDTH 1600
#define HEIGHT 1000
#define N_FRAMES 100
/* STRATA_BENCH_FRAMES overrides N_FRAMES, e.g. for a run under callgrind. */
#define DEFAULT_RECORDS 20000000

static double
median_frame_ms (cairo_t            *cr,
                 StrataTimelineView *view,
                 double              rows_height)
{
  const char *env = g_getenv ("STRATA_BENCH_FRAMES");
  guint n_frames = env ? CLAMP (atoi (env), 1, N_FRAMES) : N_FRAMES;
  double times[N_FRAMES];

  for (guint i = 0; i < n_frames; i++)
    {
      gint64 start = g_get_monotonic_time ();

      cairo_save (cr);
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
      strata_timeline_render_overview (cr, view);
      cairo_translate (cr, 0, STRATA_TIMELINE_OVERVIEW_HEIGHT);
      strata_timeline_render_ruler (cr, view);
      cairo_translate (cr, 0, STRATA_TIMELINE_RULER_HEIGHT);
      cairo_rectangle (cr, 0, 0, WIDTH, rows_height);
      cairo_clip (cr);
      strata_timeline_render_rows (cr, view, rows_height);
      cairo_restore (cr);
      cairo_surface_flush (cairo_get_target (cr));
      times[i] = (g_get_monotonic_time () - start) / 1000.0;
    }
  qsort (times, n_frames, sizeof (double), strata_bench_compare_doubles);
  return times[n_frames / 2];
}

int
main (int   argc,
      char *argv[])
{
  int cpu = argc > 1 && g_str_equal (argv[1], "--clock=cpu");
  guint clock = cpu;
  guint64 n_records = argc > 2 + cpu ? g_ascii_strtoull (argv[2 + cpu], NULL, 10) : DEFAULT_RECORDS;
  g_autofree char *path = argc > 3 + cpu ? g_strdup (argv[3 + cpu]) : g_strdup ("bench-timeline.trace");
  g_autoptr(GFile) file = NULL;
  g_autoptr(StrataLoader) loader = NULL;
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(StrataProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *colors = NULL;
  g_autoptr(GArray) tracks = NULL;
  g_autoptr(StrataLabelCache) labels = strata_label_cache_new ();
  StrataTimelineTheme theme = { { 0.2, 0.2, 0.2, 1 }, { 0.21, 0.52, 0.89, 1 }, FALSE };
  StrataTimelineView view;
  cairo_surface_t *surface;
  cairo_t *cr;
  double content_height, rows_height = HEIGHT - STRATA_TIMELINE_OVERVIEW_HEIGHT - STRATA_TIMELINE_RULER_HEIGHT;
  double full_ms, zoomed_ms;
  gint64 start, end;

  strata_memory_tune_allocator ();
  /* --clock=cpu comes first; the rest as without it. */
  argv += cpu;
  argc -= cpu;
  if (argc < 2)
    {
      g_printerr ("usage: bench-timeline [--clock=cpu] GENERATOR [N_RECORDS] [FILE [PNG]]\n");
      return 2;
    }
  if (!strata_bench_ensure_trace (argv[1], path, n_records, 0))
    return 1;

  file = g_file_new_for_path (path);
  loader = strata_loader_new (file);
  if (!(trace = strata_loader_load (loader, NULL, &error)) ||
      !(profile = strata_profile_new (trace, -1, NULL, &error)))
    {
      g_printerr ("load failed: %s\n", error->message);
      return 1;
    }
  colors = strata_palette_assign (profile, 0);
  tracks = strata_timeline_layout (trace, NULL, FALSE, NULL, &content_height);
  clock = MIN (clock, strata_trace_get_n_clocks (trace) - 1);
  strata_trace_get_clock_range (trace, clock, &start, &end);

  view = (StrataTimelineView) {
    .trace = trace, .clock = clock, .start = start, .end = end,
    .bound_start = start, .bound_end = end, .colors = colors,
    .selected_method = G_MAXUINT32, .tracks = tracks, .width = WIDTH,
    .label_width = STRATA_TIMELINE_LABEL_WIDTH, .theme = &theme, .label_cache = labels,
  };

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cr = cairo_create (surface);

  full_ms = median_frame_ms (cr, &view, rows_height);
  view.start = start + (end - start) / 2;
  view.end = view.start + (end - start) / 1000;
  zoomed_ms = median_frame_ms (cr, &view, rows_height);

  g_print ("calls:              %" G_GUINT64_FORMAT " on %u threads\n",
           strata_trace_get_n_spans (trace), strata_trace_get_n_threads (trace));
  g_print ("frame, whole trace: %.2f ms (median of %d, %dx%d, software)\n", full_ms, N_FRAMES, WIDTH, HEIGHT);
  g_print ("frame, zoomed in:   %.2f ms (a thousandth of the trace)\n", zoomed_ms);

  if (argc > 4)
    cairo_surface_write_to_png (surface, argv[4]);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return 0;
}
