/* strata-session-zoom.c: zooming and panning the session's view
 *
 * The wheel, the keys and the commands zoom about a time that stays in
 * place, pan by a share of the view, and zoom to the selection: a range,
 * a call, an event or a counter's step, with a margin either side.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-counter-render.h"
#include "strata-session.h"

/* How much of a call's length is kept free either side when zooming to it. */
#define CALL_MARGIN 0.05
/* An instant is shown with this share of the trace around it, at most
 * what is shown now and at least a microsecond. */
#define INSTANT_SHARE 0.01
#define INSTANT_MIN_NS 1000

/**
 * strata_session_zoom:
 * @factor: above 1 zooms in, below 1 zooms out
 * @anchor: a time that stays where it is on screen
 */
void
strata_session_zoom (StrataSession *self,
                     double         factor,
                     gint64         anchor)
{
  gint64 start, end;
  double width, share;

  g_return_if_fail (STRATA_IS_SESSION (self));
  g_return_if_fail (factor > 0);

  strata_session_get_visible_range (self, &start, &end);
  width = end - start;
  anchor = CLAMP (anchor, start, end);
  share = width > 0 ? (anchor - start) / width : 0.5;
  width /= factor;
  strata_session_set_visible_range (self, anchor - share * width, anchor - share * width + width);
}

/* @fraction of the visible width; negative pans towards the start. */
void
strata_session_pan (StrataSession *self,
                    double         fraction)
{
  gint64 start, end, delta;

  g_return_if_fail (STRATA_IS_SESSION (self));

  strata_session_get_visible_range (self, &start, &end);
  delta = fraction * (end - start);
  strata_session_set_visible_range (self, start + delta, end + delta);
}

void
strata_session_zoom_to_fit (StrataSession *self)
{
  gint64 start, end;

  g_return_if_fail (STRATA_IS_SESSION (self));

  strata_session_get_bounds (self, &start, &end);
  strata_session_set_visible_range (self, start, end);
}

/* The view around [@start, @end], with a margin either side. */
static void
show_with_margin (StrataSession *self,
                  gint64         start,
                  gint64         end)
{
  gint64 margin = (end - start) * CALL_MARGIN;

  strata_session_set_visible_range (self, start - margin, end + margin);
}

/* The view around [@start, @end] with a margin, or centred on an instant. */
static void
zoom_to_span (StrataSession *self,
              gint64         start,
              gint64         end)
{
  gint64 width, bound_start, bound_end, visible_start, visible_end;

  if (end > start)
    {
      show_with_margin (self, start, end);
      return;
    }
  strata_session_get_bounds (self, &bound_start, &bound_end);
  strata_session_get_visible_range (self, &visible_start, &visible_end);
  width = MAX ((gint64) ((bound_end - bound_start) * INSTANT_SHARE), INSTANT_MIN_NS);
  width = MIN (width, MAX (visible_end - visible_start, INSTANT_MIN_NS));
  strata_session_set_visible_range (self, start - width / 2, start - width / 2 + width);
}

/**
 * strata_session_zoom_to_selection:
 *
 * Shows the selected time range, else the selected call with a margin.
 *
 * Returns: whether there was anything to zoom to
 */
gboolean
strata_session_zoom_to_selection (StrataSession *self)
{
  gint64 start, end;

  g_return_val_if_fail (STRATA_IS_SESSION (self), FALSE);

  if (strata_session_get_selection_range (self, &start, &end))
    {
      strata_session_set_visible_range (self, start, end);
      return TRUE;
    }
  return strata_session_zoom_to_selected_item (self);
}

/* The step of the selected counter sample: from its time to the next
 * sample's. */
static void
zoom_to_counter_value (StrataSession *self,
                       StrataTrace   *trace)
{
  guint index;
  gint64 time;
  const StrataCounter *counter;
  gsize at;
  gint64 start, end;

  strata_session_get_selected_counter_value (self, &index, &time);
  counter = strata_trace_get_counter (trace, index);
  at = strata_counter_sample_at (counter, time + 1);
  start = at > 0 ? counter->times[at - 1] : time;
  end = at < counter->n_samples ? counter->times[at] : start;
  zoom_to_span (self, start, end);
}

/**
 * strata_session_zoom_to_selected_item:
 *
 * Zooms to the selected call, event or counter sample, whatever range is
 * selected.
 *
 * Returns: whether an item is selected
 */
gboolean
strata_session_zoom_to_selected_item (StrataSession *self)
{
  StrataTrace *trace;
  StrataSliceRef call;
  guint event;

  g_return_val_if_fail (STRATA_IS_SESSION (self), FALSE);

  if ((trace = strata_session_get_trace (self)) == NULL)
    return FALSE;
  switch (strata_session_get_selected_item (self, &call, &event))
    {
    case STRATA_SELECTED_CALL:
      strata_session_zoom_to_call (self, &call);
      return TRUE;
    case STRATA_SELECTED_EVENT:
      zoom_to_span (self, strata_trace_get_event (trace, event)->start, strata_trace_get_event (trace, event)->end);
      return TRUE;
    case STRATA_SELECTED_COUNTER_VALUE:
      zoom_to_counter_value (self, trace);
      return TRUE;
    case STRATA_SELECTED_NOTHING:
    default:
      return FALSE;
    }
}

/* Shows @call with a margin either side. */
void
strata_session_zoom_to_call (StrataSession        *self,
                             const StrataSliceRef *call)
{
  StrataTrace *trace;
  const StrataSpanTable *table;
  guint clock;

  g_return_if_fail (STRATA_IS_SESSION (self));
  g_return_if_fail ((trace = strata_session_get_trace (self)) != NULL);

  table = strata_trace_get_thread (trace, call->thread)->spans;
  clock = strata_session_get_clock (self);
  show_with_margin (self, strata_span_table_get_start (table, clock, call->depth, call->index),
                    strata_span_table_get_end (table, clock, call->depth, call->index));
}
