/* strata-counter-render.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "strata-counter-render.h"
#include "strata-palette.h"

/* Block maxima: level 0 covers 16 samples, each level 16 blocks of the
 * one below. Floats are plenty for a chart and halve the memory. */
#define FANOUT 16
#define MAX_LEVELS 8
#define FILL_ALPHA 0.8

struct _StrataCounterLod
{
  const StrataCounter *counter;
  guint64              hidden;     /* bit per series, for the first 64 */
  guint                n_visible;
  guint               *visible;    /* series, bottom of the stack first */
  const double       **values;     /* the visible series' values */
  guint                n_levels;
  gsize                unit[MAX_LEVELS];      /* samples per block */
  gsize                n_blocks[MAX_LEVELS];
  float               *levels[MAX_LEVELS];    /* n_blocks x n_visible */
};

/* The top of each visible series' band at sample @i. */
static inline void
stack_at (const StrataCounterLod *lod,
          gsize                   i,
          double                 *tops)
{
  double sum = 0;

  for (guint k = 0; k < lod->n_visible; k++)
    {
      sum += lod->values[k][i];
      tops[k] = sum;
    }
}

static inline void
merge_max (double       *into,
           const double *from,
           guint         n)
{
  for (guint k = 0; k < n; k++)
    into[k] = MAX (into[k], from[k]);
}

static inline void
merge_block (double      *into,
             const float *from,
             guint        n)
{
  for (guint k = 0; k < n; k++)
    into[k] = MAX (into[k], (double) from[k]);
}

static void
fill_level0 (StrataCounterLod *lod)
{
  guint n = lod->n_visible;
  double tops[STRATA_COUNTER_MAX_SERIES], max[STRATA_COUNTER_MAX_SERIES];

  for (gsize b = 0; b < lod->n_blocks[0]; b++)
    {
      gsize end = MIN ((b + 1) * FANOUT, lod->counter->n_samples);

      for (guint k = 0; k < n; k++)
        max[k] = -INFINITY;
      for (gsize i = b * FANOUT; i < end; i++)
        {
          stack_at (lod, i, tops);
          merge_max (max, tops, n);
        }
      for (guint k = 0; k < n; k++)
        lod->levels[0][b * n + k] = max[k];
    }
}

static void
fill_level (StrataCounterLod *lod,
            guint             level)
{
  guint n = lod->n_visible;
  const float *below = lod->levels[level - 1];

  for (gsize b = 0; b < lod->n_blocks[level]; b++)
    {
      float *max = &lod->levels[level][b * n];
      gsize end = MIN ((b + 1) * FANOUT, lod->n_blocks[level - 1]);

      for (guint k = 0; k < n; k++)
        max[k] = -INFINITY;
      for (gsize c = b * FANOUT; c < end; c++)
        for (guint k = 0; k < n; k++)
          max[k] = MAX (max[k], below[c * n + k]);
    }
}

/**
 * strata_counter_lod_new:
 * @hidden: a bit for each of the first 64 series not to draw
 *
 * The block maxima of the stack with those series left out; made once
 * per counter and set of hidden series, in one pass over the samples.
 */
StrataCounterLod *
strata_counter_lod_new (const StrataCounter *counter,
                        guint64              hidden)
{
  StrataCounterLod *lod = g_new0 (StrataCounterLod, 1);
  guint n_series = MIN (counter->n_series, STRATA_COUNTER_MAX_SERIES);
  gsize unit = FANOUT;

  lod->counter = counter;
  lod->hidden = hidden;
  lod->visible = g_new (guint, MAX (n_series, 1));
  lod->values = g_new (const double *, MAX (n_series, 1));
  for (guint s = 0; s < n_series; s++)
    if (!(hidden & (G_GUINT64_CONSTANT (1) << s)))
      {
        lod->values[lod->n_visible] = counter->values[s];
        lod->visible[lod->n_visible++] = s;
      }

  while (lod->n_levels < MAX_LEVELS && (lod->n_levels == 0 || unit / FANOUT < counter->n_samples))
    {
      guint level = lod->n_levels++;

      lod->unit[level] = unit;
      lod->n_blocks[level] = (counter->n_samples + unit - 1) / unit;
      lod->levels[level] = g_new (float, MAX (lod->n_blocks[level] * lod->n_visible, 1));
      if (level == 0)
        fill_level0 (lod);
      else
        fill_level (lod, level);
      unit *= FANOUT;
    }
  return lod;
}

void
strata_counter_lod_free (StrataCounterLod *lod)
{
  if (lod == NULL)
    return;
  for (guint level = 0; level < lod->n_levels; level++)
    g_free (lod->levels[level]);
  g_free (lod->values);
  g_free (lod->visible);
  g_free (lod);
}

guint64
strata_counter_lod_get_hidden (const StrataCounterLod *lod)
{
  return lod->hidden;
}

/**
 * strata_counter_lod_column_max:
 * @first: the first sample, inclusive
 * @last: the last sample, inclusive
 * @tops: (out): for each visible series, the highest top of its band
 *
 * Climbs to the largest aligned blocks that fit and back down at the
 * end: fewer than 2 x 15 steps per level, whatever the range.
 */
void
strata_counter_lod_column_max (const StrataCounterLod *lod,
                               gsize                   first,
                               gsize                   last,
                               double                  *tops)
{
  guint n = lod->n_visible;
  double here[STRATA_COUNTER_MAX_SERIES];
  gsize end = MIN (last + 1, lod->counter->n_samples);
  int level = -1;     /* -1: single samples */

  for (guint k = 0; k < n; k++)
    tops[k] = -INFINITY;

  for (gsize i = first; i < end;)
    {
      gsize unit = level < 0 ? 1 : lod->unit[level];

      if (level + 1 < (int) lod->n_levels && i % lod->unit[level + 1] == 0 && i + lod->unit[level + 1] <= end)
        level++;
      else if (i + unit <= end)
        {
          if (level < 0)
            {
              stack_at (lod, i, here);
              merge_max (tops, here, n);
            }
          else
            merge_block (tops, &lod->levels[level][(i / unit) * n], n);
          i += unit;
        }
      else
        level--;
    }
}

/* Room for the counter's name and one legend row per series. */
double
strata_counter_track_height (const StrataCounter *counter)
{
  double legend = STRATA_TIMELINE_ROW_HEIGHT + MIN (counter->n_series, STRATA_COUNTER_MAX_SERIES) * STRATA_COUNTER_LEGEND_ROW;

  return MAX (STRATA_COUNTER_TRACK_HEIGHT, legend + 4) + STRATA_TIMELINE_TRACK_GAP;
}

/**
 * strata_counter_in_bytes:
 * @series: a series, or -1 for the sum of the series shown
 *
 * Returns: whether the values count bytes, as the counter's name or the
 *   series' names say (for the sum, every series')
 */
gboolean
strata_counter_in_bytes (StrataTrace         *trace,
                         const StrataCounter *counter,
                         int                  series)
{
  if (strata_counter_name_says_bytes (strata_trace_get_string (trace, counter->name)))
    return TRUE;
  if (series >= 0)
    return (guint) series < counter->n_series &&
           strata_counter_name_says_bytes (strata_trace_get_string (trace, counter->series_names[series]));
  for (guint s = 0; s < counter->n_series; s++)
    if (!strata_counter_name_says_bytes (strata_trace_get_string (trace, counter->series_names[s])))
      return FALSE;
  return counter->n_series > 0;
}

const StrataColor *
strata_counter_series_color (guint series)
{
  return strata_palette_get_series_color (series);
}

/* In times[lo, hi): the first at @time or later (or @hi). */
static gsize
first_at_or_after (const gint64 *times,
                   gsize         lo,
                   gsize         hi,
                   gint64        time)
{
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (times[mid] < time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The first sample at @time or later (n_samples if none). */
gsize
strata_counter_sample_at (const StrataCounter *counter,
                          gint64               time)
{
  return first_at_or_after (counter->times, 0, counter->n_samples, time);
}

/* Like strata_counter_sample_at(), but searching forward from @from,
 * which is at or before the answer: columns move left to right, and
 * galloping touches few cache lines where a full search misses on each
 * of its two dozen steps. */
static gsize
sample_at_from (const StrataCounter *counter,
                gint64               time,
                gsize                from)
{
  gsize lo = from, step = 1;

  if (lo < counter->n_samples && counter->times[lo] >= time)
    return lo;
  while (lo + step < counter->n_samples && counter->times[lo + step] < time)
    {
      lo += step;
      step *= 2;
    }
  return first_at_or_after (counter->times, lo, MIN (lo + step, counter->n_samples), time);
}

/* For each pixel column, the tops of the bands; NAN before the first
 * sample. A column shows the value held at its start and every sample
 * inside it. */
static double *
measure_columns (const StrataCounterLod   *lod,
                 const StrataTimelineView *view,
                 guint                     n_columns,
                 double                   *scale_max)
{
  const StrataCounter *counter = lod->counter;
  guint n = lod->n_visible;
  double *tops = g_new (double, (gsize) n_columns * n);
  double ns_per_px = (double) (view->end - view->start) / n_columns;
  gsize next = strata_counter_sample_at (counter, view->start);

  *scale_max = 0;
  for (guint c = 0; c < n_columns; c++)
    {
      gint64 column_end = view->start + (gint64) ((c + 1) * ns_per_px);
      gsize end = sample_at_from (counter, column_end, next);
      gsize first = next > 0 ? next - 1 : 0;
      double *column = &tops[(gsize) c * n];

      if (end == 0)
        {
          for (guint k = 0; k < n; k++)
            column[k] = NAN;
          continue;
        }
      strata_counter_lod_column_max (lod, first, end - 1, column);
      for (guint k = 0; k < n; k++)
        *scale_max = MAX (*scale_max, column[k]);
      next = end;
    }
  return tops;
}

static double
band_y (double value,
        double base,
        double scale)
{
  return round (base - MAX (value, 0) * scale);
}

/* Band @k fills, in each column, from the top of the band below it to
 * its own top: pixel-aligned boxes, which Cairo fills without
 * rasterising edges. Runs of equal columns merge into one box. */
static void
fill_band (cairo_t      *cr,
           const double *tops,
           guint         n_columns,
           guint         stride,
           guint         k,
           double        x,
           double        base,
           double        scale)
{
  double run_top = 0, run_bottom = 0;
  guint run_start = 0, run_length = 0;

  for (guint c = 0; c <= n_columns; c++)
    {
      double top = 0, bottom = 0;
      gboolean has_value = FALSE;

      if (c < n_columns && !isnan (tops[(gsize) c * stride + k]))
        {
          top = band_y (tops[(gsize) c * stride + k], base, scale);
          bottom = k > 0 ? band_y (tops[(gsize) c * stride + k - 1], base, scale) : base;
          has_value = bottom > top;
        }
      if (run_length > 0 && (!has_value || top != run_top || bottom != run_bottom))
        {
          cairo_rectangle (cr, x + run_start, run_top, run_length, run_bottom - run_top);
          run_length = 0;
        }
      if (!has_value)
        continue;
      if (run_length == 0)
        {
          run_start = c;
          run_top = top;
          run_bottom = bottom;
        }
      run_length++;
    }
  cairo_fill (cr);
}

/**
 * strata_counter_render:
 *
 * Draws the chart in the rectangle (@x, @y, @width, @height), over the
 * view's visible time range, scaled to the highest stack it shows.
 *
 * Returns: that highest stack's value, the top of the chart's axis
 */
double
strata_counter_render (cairo_t                  *cr,
                       const StrataCounterLod   *lod,
                       const StrataTimelineView *view,
                       double                    x,
                       double                    y,
                       double                    width,
                       double                    height)
{
  guint n_columns = (guint) MAX (1.0, ceil (width));
  g_autofree double *tops = NULL;
  double scale_max, scale, base = y + height;

  if (lod->counter->n_samples == 0 || lod->n_visible == 0 || view->end <= view->start)
    return 0;

  tops = measure_columns (lod, view, n_columns, &scale_max);
  scale = scale_max > 0 ? (height - 2) / scale_max : 0;

  cairo_save (cr);
  cairo_rectangle (cr, x, y, width, height);
  cairo_clip (cr);
  x = round (x);
  base = round (base);
  for (guint k = 0; k < lod->n_visible; k++)
    {
      const StrataColor *color = strata_counter_series_color (lod->visible[k]);

      cairo_set_source_rgba (cr, color->red, color->green, color->blue, FILL_ALPHA);
      fill_band (cr, tops, n_columns, lod->n_visible, k, x, base, scale);
    }
  cairo_restore (cr);
  return scale_max;
}
