/* strata-timeline-hit.c: what lies under a point of the timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <glib/gi18n.h>

#include "strata-timeline-render-private.h"
#include "strata-units.h"


static gboolean
hit_span (const StrataTimelineView *view,
          const StrataSpanTable    *table,
          guint                     depth,
          gint64                    time,
          gint64                    slop,
          guint32                  *index)
{
  guint32 i = strata_span_table_search_clock (table, view->clock, depth, time - slop);

  if (i >= table->n_spans[depth] ||
      strata_span_table_get_start (table, view->clock, depth, i) > time + slop)
    return FALSE;
  *index = i;
  return TRUE;
}

static gboolean
hit_instant (const StrataTimelineView *view,
             const GArray             *instants,
             gint64                    time,
             gint64                    slop,
             StrataTimelineHit        *hit)
{
  guint i = strata_event_index_first_from (view->trace, instants, time - 2 * slop);

  if (i < instants->len &&
      strata_trace_get_event (view->trace, g_array_index (instants, guint, i))->start <= time + 2 * slop)
    {
      hit->kind = STRATA_HIT_EVENT;
      hit->index = g_array_index (instants, guint, i);
      return TRUE;
    }
  return FALSE;
}

static gboolean
hit_lanes (const StrataTimelineView *view,
           const StrataTrack        *track,
           double                    dy,
           gint64                    slop,
           StrataTimelineHit        *hit)
{
  StrataLaneKind kind = track->kind == STRATA_TRACK_ASYNC ? STRATA_LANES_ASYNC : STRATA_LANES_OBJECTS;
  const StrataLanes *lanes = strata_event_index_get_lanes (view->events, track->index, kind);
  guint lane = dy / STRATA_TIMELINE_ROW_HEIGHT;

  hit->kind = STRATA_HIT_NONE;
  for (guint i = 0; i < lanes->items->len; i++)
    {
      const StrataLaneItem *item = &g_array_index (lanes->items, StrataLaneItem, i);
      const StrataEvent *event = strata_trace_get_event (view->trace, item->event);

      if (event->start > hit->time + slop)
        break;
      if ((track->collapsed || item->lane == lane) && event->end + slop >= hit->time)
        {
          hit->kind = STRATA_HIT_EVENT;
          hit->index = item->event;
        }
    }
  return TRUE;
}

static gboolean
hit_counter (const StrataTimelineView *view,
             const StrataTrack        *track,
             double                    x,
             double                    dy,
             StrataTimelineHit        *hit)
{
  const StrataCounter *counter = strata_trace_get_counter (view->trace, track->index);
  double legend_y = dy - STRATA_TIMELINE_ROW_HEIGHT;

  hit->index = track->index;
  hit->kind = STRATA_HIT_COUNTER;
  if (x >= view->label_width)
    return TRUE;
  if (!track->collapsed && legend_y >= 0 && legend_y < MIN (counter->n_series, STRATA_COUNTER_MAX_SERIES) * STRATA_COUNTER_LEGEND_ROW)
    {
      hit->kind = STRATA_HIT_COUNTER_LEGEND;
      hit->depth = legend_y / STRATA_COUNTER_LEGEND_ROW;
      return TRUE;
    }
  hit->kind = STRATA_HIT_NONE;
  return TRUE;
}

/**
 * strata_timeline_hit_test:
 * @y: in row viewport coordinates
 *
 * The one hit test behind hover, tooltips and clicks.
 */
gboolean
strata_timeline_hit_test (const StrataTimelineView *view,
                          double                    x,
                          double                    y,
                          StrataTimelineHit        *hit)
{
  double content_y = y + view->scroll_y;
  gint64 slop;

  *hit = (StrataTimelineHit) { STRATA_HIT_NONE };
  if (view->tracks == NULL)
    return FALSE;

  hit->time = strata_timeline_time_at (view, x);
  slop = HIT_SLOP_PX * (double) (view->end - view->start) / MAX (1.0, view->width - view->label_width);
  /* The trace's own instants are marks in the first row of the pane. */
  if (view->events != NULL && y >= 0 && y < STRATA_TIMELINE_ROW_HEIGHT && x >= view->label_width &&
      hit_instant (view, view->events->global_instants, hit->time, slop, hit))
    {
      hit->track = G_MAXUINT;
      return TRUE;
    }

  for (guint i = 0; i < view->tracks->len; i++)
    {
      const StrataTrack *track = &g_array_index (view->tracks, StrataTrack, i);
      const StrataThread *thread;
      double dy = content_y - track->y;

      if (dy < 0 || dy >= track->height)
        continue;

      hit->track = i;
      if (track->kind == STRATA_TRACK_PROCESS)
        {
          hit->kind = STRATA_HIT_PROCESS;
          return TRUE;
        }
      if (track->kind == STRATA_TRACK_COUNTER)
        return hit_counter (view, track, x, dy, hit);
      if (track->kind == STRATA_TRACK_ASYNC || track->kind == STRATA_TRACK_OBJECTS)
        return hit_lanes (view, track, dy, slop, hit);
      if (view->events != NULL && dy < STRATA_TIMELINE_ROW_HEIGHT &&
          hit_instant (view, view->events->thread_instants[track->index], hit->time, slop, hit))
        return TRUE;

      thread = strata_trace_get_thread (view->trace, track->index);
      hit->thread = track->index;
      hit->kind = x < view->label_width ? STRATA_HIT_THREAD_LABEL : STRATA_HIT_THREAD;
      if (hit->kind == STRATA_HIT_THREAD_LABEL || thread->spans == NULL)
        return TRUE;

      if (track_compact (view, track))
        {
          /* The running method: the deepest call at that time. */
          for (guint d = thread->spans->n_depths; d-- > 0;)
            if (hit_span (view, thread->spans, d, hit->time, slop, &hit->index))
              {
                hit->kind = STRATA_HIT_SPAN;
                hit->depth = d;
                return TRUE;
              }
          return TRUE;
        }

      hit->depth = dy / STRATA_TIMELINE_ROW_HEIGHT;
      if (hit->depth < thread->spans->n_depths &&
          hit_span (view, thread->spans, hit->depth, hit->time, slop, &hit->index))
        hit->kind = STRATA_HIT_SPAN;
      return TRUE;
    }

  return FALSE;
}
