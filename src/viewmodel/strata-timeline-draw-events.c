/* strata-timeline-draw-events.c: the timeline's events, flows and counters
 *
 * Instants as ticks, async and complete events in lanes, flow arrows
 * between the calls they join, and counters as stacked charts with their
 * legend and axis; a row at a time, for the rows in view.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>
#include "strata-counter-render.h"
#include "strata-timeline-render-private.h"
#include "strata-units.h"

/* ---- Events: instants and lanes ---- */

/* From a process header to the end of its last track: where the
 * process's own instants are drawn across. */
double
strata_painter_process_extent (const StrataTimelineView *view,
                               guint                     header)
{
  const StrataTrack *first = &g_array_index (view->tracks, StrataTrack, header);
  double bottom = first->y + first->height;

  for (guint i = header + 1; i < view->tracks->len; i++)
    {
      const StrataTrack *track = &g_array_index (view->tracks, StrataTrack, i);

      if (track->kind == STRATA_TRACK_PROCESS)
        break;
      bottom = track->y + track->height;
    }
  return bottom - first->y;
}

static const StrataColor *
event_color (const StrataEvent *event)
{
  return strata_palette_get_color (event->name % strata_palette_get_n_colors ());
}

/* Ticks from @y down @height, each with a small triangle on top, at
 * least @gap pixels apart. */
static void
draw_instants_spaced (const Painter *p,
                      const GArray  *instants,
                      double         y,
                      double         height,
                      double         gap)
{
  StrataTrace *trace = p->view->trace;
  guint i = strata_event_index_first_from (trace, instants, p->view->start);
  double last_x = -1;

  for (; i < instants->len; i++)
    {
      guint index = g_array_index (instants, guint, i);
      const StrataEvent *event = strata_trace_get_event (trace, index);
      double x = floor (span_x (p, event->start)) + 0.5;
      gboolean dimmed = strata_painter_event_dimmed (p, index);

      if (event->start > p->view->end)
        break;
      /* One tick per pixel column (or @gap) is all the eye can tell
       * apart; a match takes the column from a dimmed tick. */
      if (x - last_x < gap && (dimmed || p->view->search == NULL))
        continue;
      last_x = x;
      if (p->view->search != NULL && !dimmed)
        set_rgba (p->cr, &p->view->theme->accent, 1.0);
      else
        set_rgba (p->cr, &p->view->theme->fg, dimmed ? 0.15 : 0.55);
      cairo_move_to (p->cr, x, y + 1);
      cairo_line_to (p->cr, x, y + height - 1);
      cairo_set_line_width (p->cr, 1);
      cairo_stroke (p->cr);
      cairo_move_to (p->cr, x - 3.5, y);
      cairo_line_to (p->cr, x + 3.5, y);
      cairo_line_to (p->cr, x, y + 5);
      cairo_close_path (p->cr);
      cairo_fill (p->cr);
    }
}

/* A tick from @y down @height, with a small triangle on top. */
void
strata_painter_draw_instants (const Painter *p,
                              const GArray  *instants,
                              double         y,
                              double         height)
{
  draw_instants_spaced (p, instants, y, height, 1);
}

/* Marks of the trace's own instants: thinned to one in this many pixels
 * where they crowd. */
#define GLOBAL_MARK_GAP 4

/**
 * strata_painter_draw_global_instants:
 *
 * Instants of the whole trace as marks in one row at the top of the
 * tracks, thinned where they crowd, and only the selected one with its
 * line across every track: thousands of lines would veil the threads.
 */
void
strata_painter_draw_global_instants (const Painter *p,
                                     const GArray  *instants,
                                     double         height)
{
  const StrataTimelineView *view = p->view;

  draw_instants_spaced (p, instants, 0, STRATA_TIMELINE_ROW_HEIGHT / 2, GLOBAL_MARK_GAP);
  if (view->selected_event == G_MAXUINT)
    return;
  for (guint i = 0; i < instants->len; i++)
    if (g_array_index (instants, guint, i) == view->selected_event)
      {
        double x = floor (span_x (p, strata_trace_get_event (view->trace, view->selected_event)->start)) + 0.5;

        set_rgba (p->cr, &view->theme->accent, 0.9);
        cairo_move_to (p->cr, x, 0);
        cairo_line_to (p->cr, x, height);
        cairo_set_line_width (p->cr, 1);
        cairo_stroke (p->cr);
        return;
      }
}

/* The selected async slice or object: outlined as a selected call is. */
static void
draw_lane_selection (const Painter     *p,
                     const StrataEvent *event,
                     double             y)
{
  double x0 = MAX (span_x (p, event->start), p->area_x);
  double x1 = MIN (span_x (p, event->end), p->area_x + p->area_width);

  set_rgba (p->cr, &p->view->theme->accent, 1.0);
  cairo_set_line_width (p->cr, 2);
  if (event->end == event->start)
    strata_painter_band (p->cr, span_x (p, event->start) - 7, y, 14, STRATA_TIMELINE_ROW_HEIGHT);
  else
    strata_painter_band (p->cr, x0 - 1, y, MAX (x1 - x0, 2) + 2, STRATA_TIMELINE_ROW_HEIGHT);
  cairo_stroke (p->cr);
}

static void
draw_lane_item (const Painter     *p,
                const StrataEvent *event,
                gboolean           dimmed,
                double             y)
{
  const StrataColor *color = event_color (event);
  double alpha = dimmed ? DIMMED_ALPHA : 1.0;
  double x0 = MAX (span_x (p, event->start), p->area_x);
  double x1 = MIN (span_x (p, event->end), p->area_x + p->area_width);
  const char *name;

  if (event->end == event->start)
    {
      /* Steps and snapshots: a diamond. */
      double x = span_x (p, event->start), mid = y + STRATA_TIMELINE_ROW_HEIGHT / 2;

      cairo_set_source_rgba (p->cr, color->red, color->green, color->blue, alpha);
      cairo_move_to (p->cr, x, mid - 5);
      cairo_line_to (p->cr, x + 5, mid);
      cairo_line_to (p->cr, x, mid + 5);
      cairo_line_to (p->cr, x - 5, mid);
      cairo_close_path (p->cr);
      cairo_fill (p->cr);
      return;
    }
  cairo_set_source_rgba (p->cr, color->red, color->green, color->blue, alpha);
  strata_painter_band (p->cr, x0, y + 1, MAX (1, x1 - x0), STRATA_TIMELINE_ROW_HEIGHT - 2);
  cairo_fill (p->cr);
  name = strata_trace_get_string (p->view->trace, event->name);
  if (x1 - x0 >= MIN_LABEL_PX && *name != '\0')
    {
      pango_layout_set_ellipsize (p->layout, PANGO_ELLIPSIZE_END);
      strata_painter_set_display_text (p->layout, name);
      pango_layout_set_width (p->layout, (int) ((x1 - x0 - 6) * PANGO_SCALE));
      cairo_set_source_rgb (p->cr, 1, 1, 1);
      cairo_move_to (p->cr, x0 + 3, y + 1);
      strata_timeline_show_layout (p->cr, p->view, p->layout);
    }
}

void
strata_painter_draw_lanes (const Painter     *p,
                           const StrataTrack *track,
                           double             y)
{
  const StrataTimelineView *view = p->view;
  StrataLaneKind kind = track->kind == STRATA_TRACK_ASYNC ? STRATA_LANES_ASYNC : STRATA_LANES_OBJECTS;
  const StrataLanes *lanes = strata_event_index_get_lanes (view->events, track->index, kind);
  g_autofree char *title = NULL;

  set_rgba (p->cr, &view->theme->fg, 0.035);
  strata_painter_band (p->cr, 0, y, view->label_width, track->height - STRATA_TIMELINE_TRACK_GAP);
  cairo_fill (p->cr);
  title = g_strdup_printf (kind == STRATA_LANES_ASYNC
                           /* Translators: the track of a process's async events, with their number */
                           ? ngettext ("Async · %u event", "Async · %u events", lanes->items->len)
                           /* Translators: the track of a process's objects, with their number */
                           : ngettext ("Objects · %u event", "Objects · %u events", lanes->items->len),
                           lanes->items->len);
  strata_painter_draw_text (p, title, 10, y + 1, view->label_width - 16, 0.85, FALSE);

  cairo_save (p->cr);
  strata_painter_band (p->cr, p->area_x, y, p->area_width, track->height);
  cairo_clip (p->cr);
  for (guint i = 0; i < lanes->items->len; i++)
    {
      const StrataLaneItem *item = &g_array_index (lanes->items, StrataLaneItem, i);
      const StrataEvent *event = strata_trace_get_event (view->trace, item->event);

      if (event->start > view->end)
        break;
      if (event->end < view->start)
        continue;
      /* Collapsed, every lane shares the one row. */
      draw_lane_item (p, event, strata_painter_event_dimmed (p, item->event), y + (track->collapsed ? 0 : item->lane * STRATA_TIMELINE_ROW_HEIGHT));
      if (item->event == view->selected_event)
        draw_lane_selection (p, event, y + (track->collapsed ? 0 : item->lane * STRATA_TIMELINE_ROW_HEIGHT));
    }
  cairo_restore (p->cr);
}

/* ---- Flows ---- */

/* Where a call's row is, in viewport coordinates; FALSE if its thread is
 * not laid out (a collapsed process). */
static gboolean
call_row_y (const StrataTimelineView *view,
            const StrataSliceRef     *call,
            double                   *y)
{
  for (guint i = 0; i < view->tracks->len; i++)
    {
      const StrataTrack *track = &g_array_index (view->tracks, StrataTrack, i);

      if (track->kind != STRATA_TRACK_THREAD || track->index != call->thread)
        continue;
      *y = track->y - view->scroll_y +
           (track_compact (view, track) ? STRATA_TIMELINE_COMPACT_HEIGHT / 2 : (call->depth + 0.5) * STRATA_TIMELINE_ROW_HEIGHT);
      return TRUE;
    }
  return FALSE;
}

/* From the end of the call a flow leaves to the start of the call it
 * reaches, as a curve with an arrowhead. */
void
strata_painter_draw_flows (const Painter *p)
{
  const StrataTimelineView *view = p->view;

  cairo_save (p->cr);
  strata_painter_band (p->cr, p->area_x, 0, p->area_width, G_MAXINT16);
  cairo_clip (p->cr);
  set_rgba (p->cr, &view->theme->accent, 0.9);
  cairo_set_line_width (p->cr, 1.5);
  for (guint i = 0; i < view->flows->len; i++)
    {
      const StrataFlow *flow = &g_array_index (view->flows, StrataFlow, i);
      const StrataSpanTable *from = strata_trace_get_thread (view->trace, flow->from.thread)->spans;
      const StrataSpanTable *to = strata_trace_get_thread (view->trace, flow->to.thread)->spans;
      double x0 = span_x (p, strata_span_table_get_end (from, view->clock, flow->from.depth, flow->from.index));
      double x1 = span_x (p, strata_span_table_get_start (to, view->clock, flow->to.depth, flow->to.index));
      double y0, y1, bend;

      if (!call_row_y (view, &flow->from, &y0) || !call_row_y (view, &flow->to, &y1))
        continue;
      /* A flow may leave a call before it ends: start where the next
       * call begins if that comes first. */
      x0 = MIN (x0, x1);
      bend = MAX (20, (x1 - x0) / 2);
      cairo_move_to (p->cr, x0, y0);
      cairo_curve_to (p->cr, x0 + bend, y0, x1 - bend, y1, x1, y1);
      cairo_stroke (p->cr);
      cairo_move_to (p->cr, x1, y1);
      cairo_line_to (p->cr, x1 - 7, y1 - 4);
      cairo_line_to (p->cr, x1 - 7, y1 + 4);
      cairo_close_path (p->cr);
      cairo_fill (p->cr);
    }
  cairo_restore (p->cr);
}

/* ---- Counters ---- */

static const StrataCounterLod *
counter_lod (const StrataTimelineView *view,
             guint                     counter)
{
  if (view->counter_lods == NULL || counter >= view->counter_lods->len)
    return NULL;
  return g_ptr_array_index (view->counter_lods, counter);
}

static char *
counter_title (StrataTrace         *trace,
               const StrataCounter *counter)
{
  const char *name = strata_trace_get_string (trace, counter->name);
  const char *id = strata_trace_get_string (trace, counter->id);

  if (*id == '\0')
    return g_strdup (name);
  /* Translators: a counter's name and its id */
  return g_strdup_printf (_("%s (id %s)"), name, id);
}

/* The name, then a swatch and name per series; hidden series are faint. */
static void
draw_counter_legend (const Painter       *p,
                     const StrataCounter *counter,
                     guint64              hidden,
                     double               y)
{
  StrataTrace *trace = p->view->trace;
  g_autofree char *title = counter_title (trace, counter);

  strata_painter_mark_name_match (p, strata_trace_get_string (trace, counter->name), y, STRATA_TIMELINE_ROW_HEIGHT);
  strata_painter_draw_text (p, title, 10, y + 1, p->view->label_width - 16, 0.85, FALSE);
  for (guint s = 0; s < MIN (counter->n_series, STRATA_COUNTER_MAX_SERIES); s++)
    {
      double row_y = y + STRATA_TIMELINE_ROW_HEIGHT + s * STRATA_COUNTER_LEGEND_ROW;
      const StrataColor *color = strata_counter_series_color (s);
      gboolean off = (hidden >> s) & 1;

      cairo_set_source_rgba (p->cr, color->red, color->green, color->blue, off ? 0.25 : 1);
      strata_painter_band (p->cr, 14, row_y + 4, 9, 9);
      off ? cairo_stroke (p->cr) : cairo_fill (p->cr);
      pango_layout_set_ellipsize (p->layout, PANGO_ELLIPSIZE_END);
      strata_painter_draw_text (p, strata_trace_get_string (trace, counter->series_names[s]), 28, row_y,
                 p->view->label_width - 34, off ? 0.35 : 0.7, FALSE);
    }
}

/* The value at the chart's top, so its height reads as a quantity. */
static void
draw_counter_axis (const Painter       *p,
                   const StrataCounter *counter,
                   double               top,
                   double               y)
{
  g_autofree char *value = NULL;
  g_autofree char *label = NULL;

  if (top <= 0)
    return;
  value = strata_units_format_quantity (top, strata_counter_in_bytes (p->view->trace, counter, -1));
  /* Translators: the highest value a counter chart shows, e.g. "max 12.1 MiB" */
  label = g_strdup_printf (_("max %s"), value);
  if (p->layout != NULL)
    {
      int width, height;

      /* On a plate of the background, so the chart under it stays apart. */
      pango_layout_set_width (p->layout, -1);
      strata_painter_set_display_text (p->layout, label);
      pango_layout_get_pixel_size (p->layout, &width, &height);
      if (p->view->theme->dark)
        cairo_set_source_rgba (p->cr, 0, 0, 0, 0.6);
      else
        cairo_set_source_rgba (p->cr, 1, 1, 1, 0.75);
      strata_painter_band (p->cr, p->area_x + 2, y + 2, MIN (width + 4, p->area_width - 4), height);
      cairo_fill (p->cr);
    }
  pango_layout_set_ellipsize (p->layout, PANGO_ELLIPSIZE_END);
  strata_painter_draw_text (p, label, p->area_x + 4, y + 2, MIN (p->area_width - 8, 160), 0.75, FALSE);
}

void
strata_painter_draw_counter (const Painter     *p,
                             const StrataTrack *track,
                             double             y)
{
  const StrataTimelineView *view = p->view;
  const StrataCounter *counter = strata_trace_get_counter (view->trace, track->index);
  const StrataCounterLod *lod = counter_lod (view, track->index);
  double height = track->height - STRATA_TIMELINE_TRACK_GAP;

  set_rgba (p->cr, &view->theme->fg, 0.035);
  strata_painter_band (p->cr, 0, y, view->label_width, height);
  cairo_fill (p->cr);
  cairo_save (p->cr);
  strata_painter_band (p->cr, 0, y, view->label_width, height);
  cairo_clip (p->cr);
  draw_counter_legend (p, counter, lod ? strata_counter_lod_get_hidden (lod) : 0, y);
  cairo_restore (p->cr);
  if (lod != NULL)
    {
      double top = strata_counter_render (p->cr, lod, view, p->area_x, y + 2, p->area_width, height - 2);

      draw_counter_axis (p, counter, top, y);
    }
}
