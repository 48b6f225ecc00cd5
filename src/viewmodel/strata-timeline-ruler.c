/* strata-timeline-ruler.c: the time axis and the overview of the whole trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <glib/gi18n.h>

#include "strata-android-frames.h"
#include "strata-notes.h"
#include "strata-timeline-render-private.h"
#include "strata-units.h"


static gint64
tick_step (double ns_per_px)
{
  gint64 step = 1;

  while (step / ns_per_px < MIN_TICK_SPACING_PX)
    {
      if (step / ns_per_px * 2 >= MIN_TICK_SPACING_PX)
        return step * 2;
      if (step / ns_per_px * 5 >= MIN_TICK_SPACING_PX)
        return step * 5;
      step *= 10;
    }
  return step;
}

/* A tick's time in the unit of the step, with the digits the step needs:
 * "11 260 ms" a tick apart from "11 270 ms", never "11.3 s" twice. */
static char *
format_tick (gint64 time,
             gint64 step)
{
  static const struct { gint64 scale; const char *unit; } units[] = {
    { 1000000000, "s" }, { 1000000, "ms" }, { 1000, "µs" }, { 1, "ns" },
  };
  guint u = 0;
  int decimals = 0;

  while (u + 1 < G_N_ELEMENTS (units) && step < units[u].scale)
    u++;
  for (gint64 rest = step % units[u].scale; rest != 0 && decimals < 3; rest = (rest * 10) % units[u].scale)
    decimals++;

  /* Translators: a time on the ruler, e.g. "11260 ms" */
  return g_strdup_printf (_("%.*f %s"), decimals, (double) time / units[u].scale, units[u].unit);
}

static void
draw_marks (const Painter *p,
            double         y)
{
  const GArray *marks = p->view->marks;
  double last = -1;

  if (marks == NULL)
    return;

  set_rgba (p->cr, &p->view->theme->accent, 1.0);
  for (guint i = 0; i + 1 < marks->len; i += 2)
    {
      gint64 start = g_array_index (marks, gint64, i);
      gint64 end = g_array_index (marks, gint64, i + 1);
      double x0, x1;

      if (end < p->view->start || start > p->view->end)
        continue;
      x0 = MAX (span_x (p, start), p->area_x);
      x1 = MIN (span_x (p, end), p->area_x + p->area_width);
      if (x1 <= last)
        continue;
      cairo_rectangle (p->cr, MAX (x0, last), y, MAX (1, x1 - MAX (x0, last)), MARK_HEIGHT);
      last = MAX (x1, x0 + 1);
    }
  cairo_fill (p->cr);
}

/* Adwaita's success, warning and error colours, light and dark. */
static void
set_frame_color (cairo_t *cr,
                 gboolean dark,
                 guint    severity)
{
  static const double light[3][3] = { { 0.15, 0.64, 0.41 }, { 0.80, 0.58, 0.04 }, { 0.75, 0.11, 0.16 } };
  static const double night[3][3] = { { 0.56, 0.94, 0.64 }, { 0.97, 0.89, 0.36 }, { 1.00, 0.48, 0.39 } };
  const double *rgb = dark ? night[MIN (severity, 2)] : light[MIN (severity, 2)];

  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
}

/* Each frame an Android app drew, as wide as it took and coloured by how
 * it did against the display's refresh interval: a slow one drawn over
 * fast ones that share its pixels. */
void
strata_timeline_draw_frames (const Painter *p,
                             double         y,
                             double         height)
{
  const GArray *frames = p->view->frames;

  if (frames == NULL || p->view->clock != 0)
    return;
  for (guint severity = 0; severity < 3; severity++)
    {
      double last = -1;

      set_frame_color (p->cr, p->view->theme->dark, severity);
      for (guint i = 0; i < frames->len; i++)
        {
          const StrataAndroidFrame *frame = &g_array_index (frames, StrataAndroidFrame, i);
          double x0, x1;

          if (frame->end < p->view->start || frame->start > p->view->end ||
              strata_android_frame_severity (frame, p->view->frame_budget) != severity)
            continue;
          x0 = MAX (span_x (p, frame->start), p->area_x);
          x1 = MIN (span_x (p, frame->end), p->area_x + p->area_width);
          /* A pixel between frames, where there is room, tells them apart. */
          if (x1 - x0 >= 3)
            x1 -= 1;
          if (x1 <= last)
            continue;
          cairo_rectangle (p->cr, MAX (x0, last), y, MAX (1, x1 - MAX (x0, last)), height);
          last = MAX (x1, x0 + 1);
        }
      cairo_fill (p->cr);
    }
}

/* GNOME's yellow: notes stand apart from the accent and the methods. */
static void
set_note_color (cairo_t *cr,
                double   alpha)
{
  cairo_set_source_rgba (cr, 0.96, 0.83, 0.18, alpha);
}

/* Each note in view: a line under the ruler across its range, and a tab
 * with its text at its start, over the ticks. Where tabs would overlap
 * the later ones give way; their lines stay. */
static void
draw_notes (const Painter *p)
{
  const GArray *notes = p->view->notes;
  double free_from = -G_MAXDOUBLE;

  for (guint i = 0; notes != NULL && i < notes->len; i++)
    {
      const StrataNoteMark *mark = &g_array_index (notes, StrataNoteMark, i);
      double x0 = MAX (span_x (p, mark->start), p->area_x);
      double x1 = MIN (span_x (p, mark->end), p->area_x + p->area_width);
      double width;

      if (x1 < p->area_x || x0 > p->area_x + p->area_width)
        continue;
      set_note_color (p->cr, 1.0);
      cairo_rectangle (p->cr, x0, STRATA_TIMELINE_RULER_HEIGHT - 3, MAX (2, x1 - x0), 2);
      cairo_fill (p->cr);
      width = MIN (STRATA_TIMELINE_NOTE_MAX_WIDTH, p->area_x + p->area_width - x0);
      if (x0 < free_from || width < 24)
        continue;
      strata_painter_set_display_text (p->layout, mark->text);
      pango_layout_set_width (p->layout, (int) ((width - 8) * PANGO_SCALE));
      {
        int text_width, text_height;

        pango_layout_get_pixel_size (p->layout, &text_width, &text_height);
        width = MIN (width, text_width + 8);
      }
      set_note_color (p->cr, 1.0);
      cairo_rectangle (p->cr, x0, 0, width, STRATA_TIMELINE_NOTE_HEIGHT);
      cairo_fill (p->cr);
      cairo_set_source_rgb (p->cr, 0.14, 0.12, 0.05);
      cairo_move_to (p->cr, x0 + 4, 3);
      strata_timeline_show_layout (p->cr, p->view, p->layout);
      free_from = x0 + width + 2;
    }
}

/**
 * strata_timeline_render_ruler:
 *
 * Ticks with units that fit the zoom, the visible length at the left, and
 * under them marks for every call to the selected method.
 */
void
strata_timeline_render_ruler (cairo_t                  *cr,
                              const StrataTimelineView *view)
{
  Painter p;
  gint64 step, first;
  g_autofree char *span = NULL;

  strata_painter_init (&p, cr, view);

  set_rgba (cr, &view->theme->fg, 0.15);
  cairo_rectangle (cr, 0, STRATA_TIMELINE_RULER_HEIGHT - 1, view->width, 1);
  cairo_fill (cr);

  span = strata_units_format_duration (view->end - view->start);
  strata_painter_draw_text (&p, span, 10, 4, view->label_width - 16, 0.7, FALSE);

  step = tick_step (p.ns_per_px);
  first = view->bound_start + ((view->start - view->bound_start) / step) * step;
  for (gint64 t = first; t <= view->end; t += step)
    {
      double x = floor (span_x (&p, t)) + 0.5;
      g_autofree char *label = NULL;

      if (x < p.area_x)
        continue;
      set_rgba (cr, &view->theme->fg, 0.3);
      cairo_move_to (cr, x, STRATA_TIMELINE_RULER_HEIGHT - 8);
      cairo_line_to (cr, x, STRATA_TIMELINE_RULER_HEIGHT - 1);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
      label = format_tick (t - view->bound_start, step);
      strata_painter_draw_text (&p, label, x + 3, 4, MIN_TICK_SPACING_PX - 6, 0.7, FALSE);
    }

  draw_marks (&p, STRATA_TIMELINE_RULER_HEIGHT - MARK_HEIGHT - 1);
  strata_timeline_draw_frames (&p, STRATA_TIMELINE_FRAMES_Y, STRATA_TIMELINE_FRAMES_HEIGHT);
  draw_notes (&p);
  strata_painter_draw_range (&p, 0, STRATA_TIMELINE_RULER_HEIGHT);
  if (view->has_range && view->range_label != NULL)
    {
      double x = MAX (span_x (&p, view->range_start), p.area_x) + 4;

      set_rgba (cr, &view->theme->accent, 1.0);
      cairo_rectangle (cr, x - 2, 2, MIN (220, view->width - x), STRATA_TIMELINE_RULER_HEIGHT - 8);
      cairo_fill (cr);
      pango_layout_set_text (p.layout, view->range_label, -1);
      pango_layout_set_width (p.layout, (int) (MIN (216, view->width - x) * PANGO_SCALE));
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_move_to (cr, x, 3);
      strata_timeline_show_layout (cr, view, p.layout);
    }
  strata_painter_clear (&p);
}

/* Columns where @count threads overlap get the alpha that @count fills of
 * @alpha stacked would give; runs of one count are one rectangle. */
static void
draw_density (const Painter *p,
              const int     *density,
              double         alpha,
              double         y,
              double         height)
{
  guint n = (guint) p->area_width;
  int count = 0;

  for (guint x = 0; x < n;)
    {
      guint run = x;
      int run_count;

      count += density[x];
      run_count = count;
      while (run + 1 < n && density[run + 1] == 0)
        run++;
      if (run_count > 0)
        {
          set_rgba (p->cr, &p->view->theme->fg, 1 - pow (1 - alpha, run_count));
          cairo_rectangle (p->cr, p->area_x + x, y, run + 1 - x, height);
          cairo_fill (p->cr);
        }
      x = run + 1;
    }
}

/**
 * strata_timeline_render_overview:
 *
 * The whole trace: how many threads are busy per column, with the visible
 * window marked.
 */
void
strata_timeline_render_overview (cairo_t                  *cr,
                                 const StrataTimelineView *view)
{
  StrataTimelineView whole = *view;
  g_autofree int *density = NULL;
  guint n_busy = 0;
  Painter p;
  double x0, x1;

  whole.start = view->bound_start;
  whole.end = view->bound_end;
  whole.selected_method = G_MAXUINT32;
  strata_painter_init (&p, cr, &whole);

  set_rgba (cr, &view->theme->fg, 0.05);
  cairo_rectangle (cr, p.area_x, 2, p.area_width, STRATA_TIMELINE_OVERVIEW_HEIGHT - 4);
  cairo_fill (cr);

  /* A few levels down in every thread (the first are usually long calls), stacked
   * faintly: the darker, the more threads are busy. Counted per pixel column
   * and drawn once, so a million threads cost a million walks, not fills. */
  g_clear_object (&p.layout);
  density = g_new0 (int, (gsize) p.area_width + 1);
  p.density = density;
  for (guint t = 0; view->trace && t < strata_trace_get_n_threads (view->trace); t++)
    n_busy += strata_trace_get_thread (view->trace, t)->spans != NULL;
  for (guint t = 0; view->trace && t < strata_trace_get_n_threads (view->trace); t++)
    {
      const StrataThread *thread = strata_trace_get_thread (view->trace, t);
      guint depth;

      if (thread->spans == NULL)
        continue;
      depth = MIN (3, thread->spans->n_depths - 1);
      strata_painter_draw_depth (&p, thread->spans, depth, 6, STRATA_TIMELINE_OVERVIEW_HEIGHT - 12);
    }
  draw_density (&p, density, MAX (0.02, 0.3 / MAX (1, n_busy)), 6, STRATA_TIMELINE_OVERVIEW_HEIGHT - 12);
  /* The whole trace's frames under it: where the slow ones were. */
  strata_timeline_draw_frames (&p, STRATA_TIMELINE_OVERVIEW_HEIGHT - 6, 3);

  x0 = span_x (&p, view->start);
  x1 = span_x (&p, view->end);
  set_rgba (cr, &view->theme->accent, 0.12);
  cairo_rectangle (cr, x0, 1, MAX (2, x1 - x0), STRATA_TIMELINE_OVERVIEW_HEIGHT - 2);
  cairo_fill (cr);
  set_rgba (cr, &view->theme->accent, 0.9);
  cairo_set_line_width (cr, 1.5);
  cairo_rectangle (cr, x0, 1.5, MAX (2, x1 - x0), STRATA_TIMELINE_OVERVIEW_HEIGHT - 3);
  cairo_stroke (cr);
  strata_painter_clear (&p);
}
