/* bench-counter.c: frame times of a counter track with 10 million samples
 *
 * A counter of 8 series and 10 million samples (a random walk each) is
 * drawn offscreen with the widget's Cairo code, zoomed out to all of it
 * and in to smaller windows. Prints the time to build its block maxima
 * and the median and worst frame at each zoom. Not a test: run it with
 * `meson test -C _build --benchmark` or directly.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>

#include "bench-util.h"
#include "strata-memory.h"
#include "strata-counter-render.h"

#define N_SAMPLES 10000000
#define N_SERIES 8
#define WIDTH 1400
#define HEIGHT 64
#define N_FRAMES 50

static StrataCounter *
make_counter (gsize n_samples)
{
  StrataCounter *counter = g_new0 (StrataCounter, 1);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);

  counter->n_series = N_SERIES;
  counter->n_samples = n_samples;
  counter->series_names = g_new0 (guint32, N_SERIES);
  counter->times = g_new (gint64, n_samples);
  counter->values = g_new (double *, N_SERIES);
  for (guint s = 0; s < N_SERIES; s++)
    counter->values[s] = g_new (double, n_samples);

  for (gsize i = 0; i < n_samples; i++)
    {
      counter->times[i] = (gint64) i * 1000 + g_rand_int_range (rand, 0, 500);
      for (guint s = 0; s < N_SERIES; s++)
        {
          double previous = i > 0 ? counter->values[s][i - 1] : 100;

          counter->values[s][i] = MAX (0, previous + g_rand_double_range (rand, -1, 1));
        }
    }
  return counter;
}

static void
frame_times (const StrataCounterLod *lod,
             const StrataCounter    *counter,
             double                  fraction,
             double                 *median,
             double                 *worst)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  gint64 first = counter->times[0], last = counter->times[counter->n_samples - 1];
  gint64 span = (gint64) ((last - first) * fraction);
  double times[N_FRAMES];

  for (guint i = 0; i < N_FRAMES; i++)
    {
      /* Windows spread over the whole counter, as when panning. */
      gint64 start = first + (gint64) ((last - first - span) * (double) i / N_FRAMES);
      StrataTimelineView view = { .start = start, .end = start + MAX (span, 1) };
      gint64 t0 = g_get_monotonic_time ();

      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
      strata_counter_render (cr, lod, &view, 0, 0, WIDTH, HEIGHT);
      cairo_surface_flush (surface);
      times[i] = (g_get_monotonic_time () - t0) / 1000.0;
    }
  qsort (times, N_FRAMES, sizeof (double), strata_bench_compare_doubles);
  *median = times[N_FRAMES / 2];
  *worst = times[N_FRAMES - 1];
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

int
main (int   argc,
      char *argv[])
{
  gsize n_samples = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : N_SAMPLES;
  g_autoptr(StrataCounter) counter = make_counter (MAX (n_samples, 2));
  g_autoptr(StrataCounterLod) lod = NULL;
  const double fractions[] = { 1, 0.1, 0.001, 0.00001 };
  gint64 start = g_get_monotonic_time ();

  strata_memory_tune_allocator ();
  lod = strata_counter_lod_new (counter, 0);
  g_print ("samples:            %zu x %u series\n", counter->n_samples, N_SERIES);
  g_print ("block maxima:       %.0f ms to build\n", strata_bench_seconds_since (start) * 1000);
  for (guint i = 0; i < G_N_ELEMENTS (fractions); i++)
    {
      double median, worst;

      frame_times (lod, counter, fractions[i], &median, &worst);
      g_print ("frame, %-10g:   median %.2f ms, worst %.2f ms (%d px wide)\n",
               fractions[i], median, worst, WIDTH);
    }
  return 0;
}
