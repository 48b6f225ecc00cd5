/* strata-event-index.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-event-index.h"

/* More lanes than this share the last one: a track stays readable. */
#define MAX_LANES 64

static gboolean
is_instant (const StrataEvent *event)
{
  switch (event->phase)
    {
    case 'i': case 'I': case 'R': case 'c': case 'V': case 'v':
      return TRUE;
    default:
      return FALSE;
    }
}

static StrataLaneKind
lane_kind (const StrataEvent *event)
{
  switch (event->phase)
    {
    case 'b': case 'n': case 'S': case 'T': case 'p':
      return STRATA_LANES_ASYNC;
    case 'N': case 'O':
      return STRATA_LANES_OBJECTS;
    default:
      return STRATA_N_LANE_KINDS;
    }
}

/* Global events, memory dumps and clock syncs span everything; process
 * events their process; the rest their thread. */
static void
add_instant (StrataEventIndex  *self,
             const StrataEvent *event,
             guint              index)
{
  GArray *into;

  if (event->scope == 'g' || event->phase == 'V' || event->phase == 'c')
    into = self->global_instants;
  else if (event->scope == 'p' || event->phase == 'v' || event->thread == STRATA_NO_THREAD)
    into = self->process_instants[event->process];
  else
    into = self->thread_instants[event->thread];
  g_array_append_val (into, index);
}

/* The first lane free at @event's start; lanes keep their last end. */
static guint
place (GArray            *lane_ends,
       const StrataEvent *event)
{
  for (guint lane = 0; lane < lane_ends->len; lane++)
    if (g_array_index (lane_ends, gint64, lane) <= event->start)
      {
        g_array_index (lane_ends, gint64, lane) = MAX (event->end, event->start + 1);
        return lane;
      }
  if (lane_ends->len < MAX_LANES)
    {
      gint64 end = MAX (event->end, event->start + 1);

      g_array_append_val (lane_ends, end);
    }
  return lane_ends->len - 1;
}

static void
pack_lanes (StrataTrace *trace,
            StrataLanes *lanes)
{
  g_autoptr(GArray) lane_ends = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint i = 0; i < lanes->items->len; i++)
    {
      StrataLaneItem *item = &g_array_index (lanes->items, StrataLaneItem, i);

      item->lane = place (lane_ends, strata_trace_get_event (trace, item->event));
    }
  lanes->n_lanes = lane_ends->len;
}

StrataEventIndex *
strata_event_index_new (StrataTrace *trace)
{
  StrataEventIndex *self = g_new0 (StrataEventIndex, 1);

  self->n_threads = strata_trace_get_n_threads (trace);
  self->n_processes = strata_trace_get_n_processes (trace);
  self->thread_instants = g_new0 (GArray *, MAX (self->n_threads, 1));
  self->process_instants = g_new0 (GArray *, MAX (self->n_processes, 1));
  self->lanes = g_new0 (StrataLanes *, MAX (self->n_processes, 1));
  self->global_instants = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint t = 0; t < self->n_threads; t++)
    self->thread_instants[t] = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint p = 0; p < self->n_processes; p++)
    {
      self->process_instants[p] = g_array_new (FALSE, FALSE, sizeof (guint));
      self->lanes[p] = g_new0 (StrataLanes, STRATA_N_LANE_KINDS);
      for (guint k = 0; k < STRATA_N_LANE_KINDS; k++)
        self->lanes[p][k].items = g_array_new (FALSE, FALSE, sizeof (StrataLaneItem));
    }

  /* Events are sorted by start, so every list is too. */
  for (guint i = 0; i < strata_trace_get_n_events (trace); i++)
    {
      const StrataEvent *event = strata_trace_get_event (trace, i);
      StrataLaneKind kind = lane_kind (event);

      if (is_instant (event))
        add_instant (self, event, i);
      else if (kind != STRATA_N_LANE_KINDS)
        {
          StrataLaneItem item = { i, 0 };

          g_array_append_val (self->lanes[event->process][kind].items, item);
        }
    }
  for (guint p = 0; p < self->n_processes; p++)
    for (guint k = 0; k < STRATA_N_LANE_KINDS; k++)
      pack_lanes (trace, &self->lanes[p][k]);
  return self;
}

void
strata_event_index_free (StrataEventIndex *self)
{
  if (self == NULL)
    return;
  for (guint t = 0; t < self->n_threads; t++)
    g_array_unref (self->thread_instants[t]);
  for (guint p = 0; p < self->n_processes; p++)
    {
      g_array_unref (self->process_instants[p]);
      for (guint k = 0; k < STRATA_N_LANE_KINDS; k++)
        g_array_unref (self->lanes[p][k].items);
      g_free (self->lanes[p]);
    }
  g_array_unref (self->global_instants);
  g_free (self->thread_instants);
  g_free (self->process_instants);
  g_free (self->lanes);
  g_free (self);
}

const StrataLanes *
strata_event_index_get_lanes (const StrataEventIndex *self,
                              guint                   process,
                              StrataLaneKind          kind)
{
  g_return_val_if_fail (process < self->n_processes && kind < STRATA_N_LANE_KINDS, NULL);

  return &self->lanes[process][kind];
}

/**
 * strata_event_index_first_from:
 * @events: guint event indexes, by start
 *
 * Returns: the position in @events of the first event starting at @time
 *   or later
 */
guint
strata_event_index_first_from (StrataTrace  *trace,
                               const GArray *events,
                               gint64        time)
{
  guint lo = 0, hi = events->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (strata_trace_get_event (trace, g_array_index (events, guint, mid))->start < time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * strata_event_phase_describe:
 *
 * Returns: what a Trace Event phase letter means, for people
 */
const char *
strata_event_phase_describe (char phase)
{
  switch (phase)
    {
    case 'i': case 'I': return _("Instant");
    case 'R': return _("Mark");
    case 'c': return _("Clock sync");
    case 'b': case 'S': return _("Async slice");
    case 'n': case 'T': case 'p': return _("Async step");
    case 'N': return _("Object");
    case 'O': return _("Object snapshot");
    case 'V': case 'v': return _("Memory dump");
    case 'P': return _("Sample");
    case '(': case ')': return _("Context");
    case '=': return _("Linked ids");
    default: return _("Event");
    }
}
