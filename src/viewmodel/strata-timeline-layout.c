/* strata-timeline-layout.c: tracks, their order and heights; time and x
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <glib/gi18n.h>

#include "strata-timeline-render-private.h"
#include "strata-units.h"

gint64
strata_timeline_time_at (const StrataTimelineView *view,
                         double                    x)
{
  double area = MAX (1.0, view->width - view->label_width);

  return view->start + (x - view->label_width) * (double) (view->end - view->start) / area;
}


static int
compare_threads (gconstpointer a,
                 gconstpointer b,
                 gpointer      data)
{
  StrataTrace *trace = data;
  const StrataThread *ta = strata_trace_get_thread (trace, *(const guint *) a);
  const StrataThread *tb = strata_trace_get_thread (trace, *(const guint *) b);

  if (ta->process != tb->process)
    {
      const StrataProcess *pa = strata_trace_get_process (trace, ta->process);
      const StrataProcess *pb = strata_trace_get_process (trace, tb->process);

      if (pa->sort_index != pb->sort_index)
        return pa->sort_index < pb->sort_index ? -1 : 1;
      if (pa->pid != pb->pid)
        return pa->pid < pb->pid ? -1 : 1;
      return ta->process < tb->process ? -1 : 1;
    }
  if (ta->sort_index != tb->sort_index)
    return ta->sort_index < tb->sort_index ? -1 : 1;
  return ta->tid < tb->tid ? -1 : ta->tid > tb->tid;
}

/* A thread drawn in one row: everywhere in compact mode, or collapsed. */
static double
thread_height (const StrataThread *thread,
               gboolean            compact)
{
  if (thread->spans == NULL)
    return STRATA_TIMELINE_ROW_HEIGHT + STRATA_TIMELINE_TRACK_GAP;
  if (compact)
    return STRATA_TIMELINE_COMPACT_HEIGHT + STRATA_TIMELINE_TRACK_GAP;
  return thread->spans->n_depths * STRATA_TIMELINE_ROW_HEIGHT + STRATA_TIMELINE_TRACK_GAP;
}

static int
compare_processes (gconstpointer a,
                   gconstpointer b,
                   gpointer      data)
{
  StrataTrace *trace = data;
  guint ia = *(const guint *) a, ib = *(const guint *) b;
  const StrataProcess *pa = strata_trace_get_process (trace, ia);
  const StrataProcess *pb = strata_trace_get_process (trace, ib);

  if (pa->sort_index != pb->sort_index)
    return pa->sort_index < pb->sort_index ? -1 : 1;
  if (pa->pid != pb->pid)
    return pa->pid < pb->pid ? -1 : 1;
  return ia < ib ? -1 : ia > ib;
}

/* Processes with something to draw: threads with calls, or counters. */
/* A thread gets a track for its calls, or for its instants alone. */
static gboolean
thread_shown (StrataTrace            *trace,
              const StrataEventIndex *events,
              guint                   thread)
{
  return strata_trace_get_thread (trace, thread)->spans != NULL ||
         (events != NULL && thread < events->n_threads && events->thread_instants[thread]->len > 0);
}

static GArray *
shown_processes (StrataTrace            *trace,
                 const StrataEventIndex *events)
{
  g_autofree gboolean *shown = g_new0 (gboolean, MAX (strata_trace_get_n_processes (trace), 1));
  GArray *order = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    if (thread_shown (trace, events, t))
      shown[strata_trace_get_thread (trace, t)->process] = TRUE;
  for (guint c = 0; c < strata_trace_get_n_counters (trace); c++)
    shown[strata_trace_get_counter (trace, c)->process] = TRUE;
  for (guint p = 0; events != NULL && p < events->n_processes; p++)
    shown[p] |= events->process_instants[p]->len > 0;
  for (guint p = 0; events != NULL && p < events->n_processes; p++)
    for (guint k = 0; k < STRATA_N_LANE_KINDS; k++)
      shown[p] |= strata_event_index_get_lanes (events, p, k)->n_lanes > 0;
  for (guint p = 0; p < strata_trace_get_n_processes (trace); p++)
    if (shown[p])
      g_array_append_val (order, p);
  g_array_sort_with_data (order, compare_processes, trace);
  return order;
}

static void
append_track (GArray      *tracks,
              StrataTrack  track,
              double      *y)
{
  track.y = *y;
  g_array_append_val (tracks, track);
  *y += track.height;
}

guint64
strata_track_key (StrataTrackKind kind,
                  guint           index)
{
  return ((guint64) kind << 32) | index;
}

static gboolean
prefs_has (const StrataTrackPrefs *prefs,
           GHashTable             *set,
           guint64                 key)
{
  return prefs != NULL && set != NULL && g_hash_table_contains (set, &key);
}

static gboolean
is_pinned (const StrataTrackPrefs *prefs,
           guint64                 key)
{
  for (guint i = 0; prefs != NULL && prefs->pinned != NULL && i < prefs->pinned->len; i++)
    if (g_array_index (prefs->pinned, guint64, i) == key)
      return TRUE;
  return FALSE;
}

/* Async and object groups of more lanes than this start collapsed: a
 * node trace's thousands of async events would bury its threads. */
#define MAX_OPEN_LANES 12

static gboolean
collapsed_at_first (const StrataEventIndex *events,
                    StrataTrackKind         kind,
                    guint                   index)
{
  if (events == NULL || (kind != STRATA_TRACK_ASYNC && kind != STRATA_TRACK_OBJECTS))
    return FALSE;
  return strata_event_index_get_lanes (events, index, kind == STRATA_TRACK_ASYNC ? STRATA_LANES_ASYNC
                                                                                 : STRATA_LANES_OBJECTS)->n_lanes > MAX_OPEN_LANES;
}

/* A track as tall as its content, or one row when collapsed: as it
 * starts, unless the user toggled it (prefs->collapsed holds toggles). */
static StrataTrack
make_track (StrataTrace            *trace,
            const StrataEventIndex *events,
            StrataTrackKind         kind,
            guint                   index,
            gboolean                compact,
            const StrataTrackPrefs *prefs)
{
  StrataTrack track = { kind, index };

  track.collapsed = collapsed_at_first (events, kind, index) !=
                    prefs_has (prefs, prefs ? prefs->collapsed : NULL, strata_track_key (kind, index));
  if (track.collapsed)
    track.height = (kind == STRATA_TRACK_THREAD ? STRATA_TIMELINE_COMPACT_HEIGHT : STRATA_TIMELINE_ROW_HEIGHT) +
                   STRATA_TIMELINE_TRACK_GAP;
  else if (kind == STRATA_TRACK_THREAD)
    track.height = thread_height (strata_trace_get_thread (trace, index), compact);
  else if (kind == STRATA_TRACK_COUNTER)
    track.height = strata_counter_track_height (strata_trace_get_counter (trace, index));
  else
    {
      StrataLaneKind lanes = kind == STRATA_TRACK_ASYNC ? STRATA_LANES_ASYNC : STRATA_LANES_OBJECTS;

      track.height = MAX (strata_event_index_get_lanes (events, index, lanes)->n_lanes, 1) *
                     STRATA_TIMELINE_ROW_HEIGHT + STRATA_TIMELINE_TRACK_GAP;
    }
  return track;
}

/* A process's own tracks in their natural order: counters, async and
 * object lanes, threads. */
static GArray *
process_children (StrataTrace            *trace,
                  const StrataEventIndex *events,
                  guint                   process,
                  const GArray           *threads)
{
  GArray *keys = g_array_new (FALSE, FALSE, sizeof (guint64));

  for (guint c = 0; c < strata_trace_get_n_counters (trace); c++)
    if (strata_trace_get_counter (trace, c)->process == process)
      {
        guint64 key = strata_track_key (STRATA_TRACK_COUNTER, c);

        g_array_append_val (keys, key);
      }
  for (guint k = 0; events != NULL && k < STRATA_N_LANE_KINDS; k++)
    if (strata_event_index_get_lanes (events, process, k)->n_lanes > 0)
      {
        guint64 key = strata_track_key (k == STRATA_LANES_ASYNC ? STRATA_TRACK_ASYNC : STRATA_TRACK_OBJECTS, process);

        g_array_append_val (keys, key);
      }
  for (guint i = 0; i < threads->len; i++)
    {
      guint64 key = strata_track_key (STRATA_TRACK_THREAD, g_array_index (threads, guint, i));

      g_array_append_val (keys, key);
    }
  return keys;
}

/* Moved tracks carry a position; the others keep their natural one. */
static double
track_position (const StrataTrackPrefs *prefs,
                guint64                 key,
                guint                   natural)
{
  gpointer value;

  if (prefs != NULL && prefs->positions != NULL &&
      (value = g_hash_table_lookup (prefs->positions, &key)) != NULL)
    return *(double *) value;
  return natural;
}

typedef struct
{
  guint64 key;
  double  position;
} OrderedKey;

static int
compare_ordered (const void *a,
                 const void *b)
{
  const OrderedKey *oa = a, *ob = b;

  return oa->position < ob->position ? -1 : oa->position > ob->position;
}

/* The keys of a process's tracks as they are shown, moved ones where they
 * were moved to; @threads: its shown threads, in their natural order. */
static GArray *
order_process_tracks (StrataTrace            *trace,
                      const StrataEventIndex *events,
                      guint                   process,
                      const GArray           *threads,
                      const StrataTrackPrefs *prefs)
{
  g_autoptr(GArray) natural = process_children (trace, events, process, threads);
  g_autofree OrderedKey *ordered = g_new (OrderedKey, MAX (natural->len, 1));
  GArray *keys;

  for (guint i = 0; i < natural->len; i++)
    {
      guint64 key = g_array_index (natural, guint64, i);

      ordered[i] = (OrderedKey) { key, track_position (prefs, key, i) };
    }
  qsort (ordered, natural->len, sizeof (OrderedKey), compare_ordered);
  keys = g_array_sized_new (FALSE, FALSE, sizeof (guint64), natural->len);
  for (guint i = 0; i < natural->len; i++)
    g_array_append_val (keys, ordered[i].key);
  return keys;
}

/* The shown threads of every process, each list in natural order: one
 * pass and one sort per process, so 100,000 threads in 1,000 processes
 * lay out in linear-logarithmic time. */
static GPtrArray *
threads_by_process (StrataTrace            *trace,
                    const StrataEventIndex *events)
{
  GPtrArray *buckets = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint p = 0; p < strata_trace_get_n_processes (trace); p++)
    g_ptr_array_add (buckets, g_array_new (FALSE, FALSE, sizeof (guint)));
  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    {
      guint process = strata_trace_get_thread (trace, t)->process;

      if (process < buckets->len && thread_shown (trace, events, t))
        g_array_append_val (g_ptr_array_index (buckets, process), t);
    }
  for (guint p = 0; p < buckets->len; p++)
    g_array_sort_with_data (g_ptr_array_index (buckets, p), compare_threads, trace);
  return buckets;
}

/**
 * strata_timeline_process_tracks:
 *
 * Returns: (transfer full): the keys of @process's tracks as they are
 *   shown, moved ones where they were moved to
 */
GArray *
strata_timeline_process_tracks (StrataTrace            *trace,
                                const StrataEventIndex *events,
                                guint                   process,
                                const StrataTrackPrefs *prefs)
{
  g_autoptr(GArray) threads = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    if (strata_trace_get_thread (trace, t)->process == process && thread_shown (trace, events, t))
      g_array_append_val (threads, t);
  g_array_sort_with_data (threads, compare_threads, trace);
  return order_process_tracks (trace, events, process, threads, prefs);
}

static void
append_key (StrataTrace            *trace,
            const StrataEventIndex *events,
            guint64                 key,
            gboolean                compact,
            const StrataTrackPrefs *prefs,
            GArray                 *tracks,
            double                 *y)
{
  if (prefs_has (prefs, prefs ? prefs->hidden : NULL, key))
    return;
  append_track (tracks, make_track (trace, events, key >> 32, key & G_MAXUINT32, compact, prefs), y);
}

/* The name a track goes by in the filter: its thread's or counter's; the
 * lanes of async events and objects have only their process's. */
static const char *
track_name (StrataTrace *trace,
            guint64      key)
{
  guint index = key & G_MAXUINT32;

  switch ((StrataTrackKind) (key >> 32))
    {
    case STRATA_TRACK_THREAD:
      return strata_trace_get_string (trace, strata_trace_get_thread (trace, index)->name);
    case STRATA_TRACK_COUNTER:
      return strata_trace_get_string (trace, strata_trace_get_counter (trace, index)->name);
    case STRATA_TRACK_PROCESS:
    case STRATA_TRACK_ASYNC:
    case STRATA_TRACK_OBJECTS:
    default:
      return NULL;
    }
}

/* A track the filter keeps: its name matches, or (a thread) it holds a
 * call or an event the search matches. */
static gboolean
track_matches (StrataTrace        *trace,
               const StrataSearch *filter,
               guint64             key)
{
  const char *name = track_name (trace, key);

  if ((key >> 32) == STRATA_TRACK_THREAD && strata_search_matches_in_thread (filter, (guint) key))
    return TRUE;
  return name != NULL && strata_search_matches_name (filter, name);
}

/* With a filter, a process keeps the tracks it matches, or all of them
 * when it matches by its own name. Returns: whether the process is shown
 * at all (it matches, or keeps a track). */
static gboolean
filter_tracks (StrataTrace            *trace,
               guint                   process,
               const StrataTrackPrefs *prefs,
               GArray                 *keys)
{
  if (prefs == NULL || prefs->filter == NULL ||
      strata_search_matches_name (prefs->filter, strata_trace_get_string (trace, strata_trace_get_process (trace, process)->name)))
    return TRUE;
  for (guint i = keys->len; i-- > 0;)
    if (!track_matches (trace, prefs->filter, g_array_index (keys, guint64, i)))
      g_array_remove_index (keys, i);
  return keys->len > 0;
}

/* One process: its header, then its tracks, less pinned and hidden ones. */
static void
layout_process (StrataTrace            *trace,
                const StrataEventIndex *events,
                guint                   process,
                const GArray           *threads,
                gboolean                compact,
                const StrataTrackPrefs *prefs,
                GArray                 *tracks,
                double                 *y)
{
  StrataTrack header = { STRATA_TRACK_PROCESS, process, 0, STRATA_TIMELINE_HEADER_HEIGHT };
  g_autoptr(GArray) keys = order_process_tracks (trace, events, process, threads, prefs);

  if (!filter_tracks (trace, process, prefs, keys))
    return;
  /* The header counts the threads it shows, not the hidden ones. */
  for (guint i = 0; i < keys->len; i++)
    {
      guint64 key = g_array_index (keys, guint64, i);

      header.n_threads += (key >> 32) == STRATA_TRACK_THREAD && !prefs_has (prefs, prefs ? prefs->hidden : NULL, key);
    }
  header.collapsed = prefs != NULL && prefs->collapsed_processes != NULL &&
                     g_hash_table_contains (prefs->collapsed_processes, GUINT_TO_POINTER (process));
  append_track (tracks, header, y);
  if (header.collapsed)
    return;

  for (guint i = 0; i < keys->len; i++)
    if (!is_pinned (prefs, g_array_index (keys, guint64, i)))
      append_key (trace, events, g_array_index (keys, guint64, i), compact, prefs, tracks, y);
}

/**
 * strata_timeline_layout:
 * @events: (nullable): where the trace's events go
 * @prefs: (nullable): what the user collapsed, hid, pinned and moved
 *
 * Pinned tracks first, in the order they were pinned; then processes by
 * sort index, then pid; in each, its counters, its async and object
 * lanes, then its threads (those with calls) by sort index, then thread
 * id, except where tracks were moved.
 *
 * Returns: (transfer full): the tracks, top to bottom
 */
GArray *
strata_timeline_layout (StrataTrace            *trace,
                        const StrataEventIndex *events,
                        gboolean                compact,
                        const StrataTrackPrefs *prefs,
                        double                 *content_height)
{
  GArray *tracks = g_array_new (FALSE, TRUE, sizeof (StrataTrack));
  g_autoptr(GArray) processes = shown_processes (trace, events);
  g_autoptr(GPtrArray) threads = threads_by_process (trace, events);
  double y = 0;

  for (guint i = 0; prefs != NULL && prefs->pinned != NULL && i < prefs->pinned->len; i++)
    append_key (trace, events, g_array_index (prefs->pinned, guint64, i), compact, prefs, tracks, &y);
  for (guint i = 0; i < processes->len; i++)
    {
      guint process = g_array_index (processes, guint, i);

      layout_process (trace, events, process, g_ptr_array_index (threads, process), compact, prefs, tracks, &y);
    }

  *content_height = y;
  return tracks;
}
