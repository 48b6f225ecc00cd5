/* strata-perfetto-async.c: slices of tracks that are not a thread's
 *
 * A track that is not a thread's own (under a thread, a process or
 * nothing) holds async slices: Chrome's performance.measure() spans, network
 * requests, the Perfetto SDK's async tracks. They become async events
 * of their process, as the Trace Event loader makes "b"/"e" pairs, and
 * so sit in their process's async lanes instead of among its threads.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-perfetto-private.h"

#define MAX_ASYNC_DEPTH 1024

/* The thread a track hangs under, if any. */
static Track *
thread_ancestor (Reader *self,
                 Track  *track)
{
  for (guint hops = 0; track != NULL && hops < 64; hops++)
    {
      if (track->is_thread)
        return track;
      track = track->parent != 0 ? g_hash_table_lookup (self->tracks, &track->parent) : NULL;
    }
  return NULL;
}

/* Not a thread's own track. Those under a thread (Chrome puts each
 * performance.measure() on one under its thread) are the thread's async
 * events, as JSON's "b" events with a tid are. */
gboolean
perfetto_track_is_async (Reader *self,
                         Track  *track)
{
  return !track->is_thread && !track->is_counter;
}

static StrataEvent *
add_async (Reader     *self,
           Track      *track,
           TrackEvent *event,
           gint64      time,
           char        phase)
{
  Track *thread = thread_ancestor (self, track);
  StrataEvent async = {
    .start = time, .end = time, .name = event->name, .category = event->category,
    .process = perfetto_process_index (self, perfetto_track_pid (self, track), NULL),
    .thread = thread != NULL ? perfetto_track_thread (self, thread) : STRATA_NO_THREAD,
    .depth = track->async_open != NULL ? MIN (track->async_open->len, G_MAXUINT16) : 0,
    .phase = phase,
    .source = event->source != 0 ? event->source : PERFETTO_NO_ARGS,
  };

  g_array_append_val (self->events, async);
  return &g_array_index (self->events, StrataEvent, self->events->len - 1);
}

void
perfetto_async_event (Reader     *self,
                      Track      *track,
                      TrackEvent *event,
                      gint64      time)
{
  StrataEvent *begin;
  guint index;

  if (track->async_open == NULL)
    track->async_open = g_array_new (FALSE, FALSE, sizeof (guint));
  /* Flows join calls: one on an async slice has nothing to join. */
  if (event->has_flows || event->bind_id != 0)
    self->n_unbound_flows++;
  switch (event->type)
    {
    case TYPE_SLICE_BEGIN:
      if (track->async_open->len >= MAX_ASYNC_DEPTH)
        {
          self->n_too_deep++;
          return;
        }
      begin = add_async (self, track, event, time, 'b');
      /* A complete event (legacy X) ends by its duration. */
      if (event->has_duration)
        {
          begin->end = time + event->duration;
          break;
        }
      begin->end = G_MININT64;
      index = self->events->len - 1;
      g_array_append_val (track->async_open, index);
      break;
    case TYPE_SLICE_END:
      if (track->async_open->len == 0)
        {
          self->n_unmatched_ends++;
          return;
        }
      index = g_array_index (track->async_open, guint, track->async_open->len - 1);
      g_array_set_size (track->async_open, track->async_open->len - 1);
      begin = &g_array_index (self->events, StrataEvent, index);
      begin->end = MAX (time, begin->start);
      /* The end's args continue the begin's. */
      if (event->source != 0 && begin->source != PERFETTO_NO_ARGS)
        strata_trace_add_source_link (self->trace, begin->source, event->source);
      else if (event->source != 0)
        begin->source = event->source;
      break;
    case TYPE_INSTANT:
      add_async (self, track, event, time, 'n');
      break;
    default:
      break;
    }
}

/* Slices still open end with the trace. */
void
perfetto_async_finish (Reader *self)
{
  for (guint i = 0; i < self->events->len; i++)
    {
      StrataEvent *event = &g_array_index (self->events, StrataEvent, i);

      if (event->end == G_MININT64)
        {
          event->end = MAX (self->last_time, event->start);
          self->n_async_open++;
        }
    }
  strata_trace_add_count_diagnostic (self->trace, self->n_async_open,
                                     /* Translators: %s is a count of slices */
                                     ngettext ("%s async slice never ended; it was closed at the end of the trace.",
                                               "%s async slices never ended; they were closed at the end of the trace.",
                                               (gulong) MIN (self->n_async_open, G_MAXULONG)));
}
