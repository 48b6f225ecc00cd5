/* strata-timeline-render.c
 *
 * Level of detail: a call at least a pixel wide is drawn as itself; calls
 * narrower than that merge into one mark per pixel column, found by
 * jumping (binary search) to the first call that reaches the next column.
 * A row costs at most a few primitives per column at any zoom.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <glib/gi18n.h>

#include "strata-counter-render.h"
#include "strata-palette.h"
#include "strata-timeline-render.h"
#include "strata-units.h"

#define MIN_SPAN_PX 1.0
#define MIN_LABEL_PX 36.0
#define DIMMED_ALPHA 0.22
#define MIN_TICK_SPACING_PX 90.0
#define MARK_HEIGHT 3.0
#define HIT_SLOP_PX 2.0

/* Rectangles are collected per colour and filled once per row: a few
 * dozen fills a row instead of one per call. */
#define N_COLOR_SLOTS 21
#define NEUTRAL_SLOT (N_COLOR_SLOTS - 1)
#define MERGED_BUCKET (2 * N_COLOR_SLOTS)
#define N_BUCKETS (2 * N_COLOR_SLOTS + 1)

typedef struct
{
  guint32 method;
  double  x, y, width, height;
} PendingLabel;

typedef struct
{
  const StrataTimelineView *view;
  cairo_t                  *cr;
  PangoLayout              *layout;
  gboolean                  monochrome;  /* the overview: density, not methods */
  double                    mono_alpha;
  GArray                   *batches[N_BUCKETS];  /* x, y, width, height per rectangle */
  GArray                   *labels;              /* PendingLabel */
  double                    ns_per_px;
  double                    area_x;      /* where time starts, in widget coordinates */
  double                    area_width;
} Painter;

/* ---- Label cache ---- */

#define LABEL_CACHE_MAX 4096

struct _StrataLabelCache
{
  GHashTable *layouts;   /* method << 32 | width in px -> PangoLayout */
};

StrataLabelCache *
strata_label_cache_new (void)
{
  StrataLabelCache *cache = g_new0 (StrataLabelCache, 1);

  cache->layouts = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_object_unref);
  return cache;
}

void
strata_label_cache_free (StrataLabelCache *cache)
{
  if (cache == NULL)
    return;
  g_hash_table_unref (cache->layouts);
  g_free (cache);
}

/* Call when the trace, font or scale changes. */
void
strata_label_cache_clear (StrataLabelCache *cache)
{
  g_hash_table_remove_all (cache->layouts);
}

/* ---- Small helpers ---- */

static inline gint64
start_at (const StrataSpanTable *table,
          guint                  clock,
          guint                  depth,
          guint32                index)
{
  return clock == 0 ? table->spans[depth][index].start : table->second[depth][index].start;
}

static inline gint64
end_at (const StrataSpanTable *table,
        guint                  clock,
        guint                  depth,
        guint32                index)
{
  return clock == 0 ? table->spans[depth][index].end : table->second[depth][index].end;
}

gint64
strata_timeline_span_start (const StrataSpanTable *table,
                            guint                  clock,
                            guint                  depth,
                            guint32                index)
{
  return start_at (table, clock, depth, index);
}

gint64
strata_timeline_span_end (const StrataSpanTable *table,
                          guint                  clock,
                          guint                  depth,
                          guint32                index)
{
  return end_at (table, clock, depth, index);
}

static void
set_rgba (cairo_t          *cr,
          const StrataRgba *rgba,
          double            alpha)
{
  cairo_set_source_rgba (cr, rgba->red, rgba->green, rgba->blue, rgba->alpha * alpha);
}

gint64
strata_timeline_time_at (const StrataTimelineView *view,
                         double                    x)
{
  double area = MAX (1.0, view->width - view->label_width);

  return view->start + (x - view->label_width) * (double) (view->end - view->start) / area;
}

double
strata_timeline_x_at (const StrataTimelineView *view,
                      gint64                    time)
{
  double area = MAX (1.0, view->width - view->label_width);

  return view->label_width + (time - view->start) * area / (double) MAX (1, view->end - view->start);
}

static double
span_x (const Painter *p,
        gint64         time)
{
  return p->area_x + (time - p->view->start) / p->ns_per_px;
}

/* ---- Layout ---- */

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
static gboolean
track_compact (const StrataTimelineView *view,
               const StrataTrack        *track)
{
  return view->compact || (track->kind == STRATA_TRACK_THREAD && track->collapsed);
}

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

/* A track as tall as its content, or one row when collapsed. */
static StrataTrack
make_track (StrataTrace            *trace,
            const StrataEventIndex *events,
            StrataTrackKind         kind,
            guint                   index,
            gboolean                compact,
            const StrataTrackPrefs *prefs)
{
  StrataTrack track = { kind, index };

  track.collapsed = prefs_has (prefs, prefs ? prefs->collapsed : NULL, strata_track_key (kind, index));
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
      guint t = g_array_index (threads, guint, i);

      if (strata_trace_get_thread (trace, t)->process == process)
        {
          guint64 key = strata_track_key (STRATA_TRACK_THREAD, t);

          g_array_append_val (keys, key);
        }
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

/**
 * strata_timeline_process_tracks:
 *
 * Returns: (transfer full): the keys of a process's tracks as they are
 *   shown, moved ones where they were moved to
 */
GArray *
strata_timeline_process_tracks (StrataTrace            *trace,
                                const StrataEventIndex *events,
                                guint                   process,
                                const StrataTrackPrefs *prefs)
{
  g_autoptr(GArray) threads = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) natural = NULL;
  g_autofree OrderedKey *ordered = NULL;
  GArray *keys;

  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    if (thread_shown (trace, events, t))
      g_array_append_val (threads, t);
  g_array_sort_with_data (threads, compare_threads, trace);
  natural = process_children (trace, events, process, threads);
  ordered = g_new (OrderedKey, MAX (natural->len, 1));
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

/* One process: its header, then its tracks, less pinned and hidden ones. */
static void
layout_process (StrataTrace            *trace,
                const StrataEventIndex *events,
                guint                   process,
                gboolean                compact,
                const StrataTrackPrefs *prefs,
                GArray                 *tracks,
                double                 *y)
{
  StrataTrack header = { STRATA_TRACK_PROCESS, process, 0, STRATA_TIMELINE_HEADER_HEIGHT };
  g_autoptr(GArray) keys = strata_timeline_process_tracks (trace, events, process, prefs);

  for (guint i = 0; i < keys->len; i++)
    header.n_threads += (g_array_index (keys, guint64, i) >> 32) == STRATA_TRACK_THREAD;
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
  double y = 0;

  for (guint i = 0; prefs != NULL && prefs->pinned != NULL && i < prefs->pinned->len; i++)
    append_key (trace, events, g_array_index (prefs->pinned, guint64, i), compact, prefs, tracks, &y);
  for (guint i = 0; i < processes->len; i++)
    layout_process (trace, events, g_array_index (processes, guint, i), compact, prefs, tracks, &y);

  *content_height = y;
  return tracks;
}

/* ---- Spans ---- */

static const StrataColor *
method_color (const Painter *p,
              guint32        method)
{
  if (p->view->colors == NULL)
    return strata_palette_get_color (STRATA_PALETTE_NEUTRAL);
  return strata_palette_get_color (p->view->colors[method]);
}

static double
span_alpha (const Painter *p,
            guint32        method)
{
  if (p->view->selected_method == G_MAXUINT32 || p->view->selected_method == method)
    return 1.0;
  return DIMMED_ALPHA;
}

static PangoLayout *
label_layout (const Painter *p,
              guint32        method,
              int            width)
{
  StrataLabelCache *cache = p->view->label_cache;
  guint64 key = ((guint64) method << 32) | (guint32) width;
  PangoLayout *layout;

  if (cache == NULL)
    {
      layout = p->layout;
      pango_layout_set_text (layout, strata_trace_get_method_name (p->view->trace, method), -1);
      pango_layout_set_width (layout, (width - 6) * PANGO_SCALE);
      return layout;
    }

  if ((layout = g_hash_table_lookup (cache->layouts, &key)))
    return layout;

  if (g_hash_table_size (cache->layouts) >= LABEL_CACHE_MAX)
    g_hash_table_remove_all (cache->layouts);
  layout = pango_layout_copy (p->layout);
  pango_layout_set_text (layout, strata_trace_get_method_name (p->view->trace, method), -1);
  pango_layout_set_width (layout, (width - 6) * PANGO_SCALE);
  g_hash_table_insert (cache->layouts, g_memdup2 (&key, sizeof key), layout);
  return layout;
}

static void
draw_label (const Painter *p,
            guint32        method,
            double         x,
            double         y,
            double         width,
            double         height,
            const StrataColor *color)
{
  double luminance = 0.299 * color->red + 0.587 * color->green + 0.114 * color->blue;
  PangoLayout *layout;
  int text_height;

  if (p->layout == NULL || width < MIN_LABEL_PX)
    return;

  layout = label_layout (p, method, (int) width);
  pango_layout_get_pixel_size (layout, NULL, &text_height);

  cairo_save (p->cr);
  cairo_rectangle (p->cr, x, y, width, height);
  cairo_clip (p->cr);
  if (luminance > 0.55)
    cairo_set_source_rgba (p->cr, 0, 0, 0, 0.85 * span_alpha (p, method));
  else
    cairo_set_source_rgba (p->cr, 1, 1, 1, 0.95 * span_alpha (p, method));
  cairo_move_to (p->cr, x + 3, y + (height - text_height) / 2);
  pango_cairo_show_layout (p->cr, layout);
  cairo_restore (p->cr);
}

static guint
color_slot (const Painter *p,
            guint32        method)
{
  guint8 index = p->view->colors ? p->view->colors[method] : STRATA_PALETTE_NEUTRAL;

  return index < NEUTRAL_SLOT ? index : NEUTRAL_SLOT;
}

static void
add_rect (const Painter *p,
          guint          bucket,
          double         x,
          double         y,
          double         width,
          double         height)
{
  /* Whole pixels: cairo fills aligned boxes on a fast path, and edges
   * stay crisp. */
  double left = round (x), top = round (y);
  double rect[4] = { left, top, MAX (1.0, round (x + width) - left), MAX (1.0, round (y + height) - top) };

  g_array_append_vals (p->batches[bucket], rect, 4);
}

static void
draw_span (const Painter *p,
           guint32        method,
           double         x0,
           double         x1,
           double         y,
           double         height)
{
  double left = MAX (x0, p->area_x);
  double right = MIN (x1, p->area_x + p->area_width);
  double width = right - left;

  if (p->monochrome)
    {
      add_rect (p, MERGED_BUCKET, left, y, MAX (1.0, width), height);
      return;
    }

  add_rect (p, color_slot (p, method) + (span_alpha (p, method) < 1 ? N_COLOR_SLOTS : 0),
            left, y, MAX (1.0, width - (width > 3 ? 1 : 0)), height - 1);
  if (p->layout != NULL && width - 1 >= MIN_LABEL_PX)
    {
      PendingLabel label = { method, left, y, width - 1, height - 1 };

      g_array_append_val (p->labels, label);
    }
}

static void
draw_merged (const Painter *p,
             double         from,
             double         to,
             double         y,
             double         height)
{
  add_rect (p, MERGED_BUCKET, from, y, to - from, p->monochrome ? height : height - 1);
}

static void
flush_batches (const Painter *p)
{
  for (guint b = 0; b < N_BUCKETS; b++)
    {
      GArray *rects = p->batches[b];
      const double *r = (const double *) rects->data;

      if (rects->len == 0)
        continue;

      if (b == MERGED_BUCKET && p->monochrome)
        set_rgba (p->cr, &p->view->theme->fg, p->mono_alpha);
      else if (b == MERGED_BUCKET)
        {
          /* Opaque grey fills fastest; dimmed, it lets the selection show. */
          const StrataColor *grey = strata_palette_get_color (STRATA_PALETTE_NEUTRAL);

          cairo_set_source_rgba (p->cr, grey->red, grey->green, grey->blue,
                                 p->view->selected_method == G_MAXUINT32 ? 1.0 : DIMMED_ALPHA);
        }
      else
        {
          guint slot = b % N_COLOR_SLOTS;
          const StrataColor *color = strata_palette_get_color (slot == NEUTRAL_SLOT ? STRATA_PALETTE_NEUTRAL : slot);

          cairo_set_source_rgba (p->cr, color->red, color->green, color->blue,
                                 b >= N_COLOR_SLOTS ? DIMMED_ALPHA : 1.0);
        }
      for (guint i = 0; i < rects->len; i += 4)
        cairo_rectangle (p->cr, r[i], r[i + 1], r[i + 2], r[i + 3]);
      cairo_fill (p->cr);
      g_array_set_size (rects, 0);
    }

  for (guint i = 0; i < p->labels->len; i++)
    {
      const PendingLabel *label = &g_array_index (p->labels, PendingLabel, i);

      draw_label (p, label->method, label->x, label->y, label->width, label->height,
                  method_color (p, label->method));
    }
  g_array_set_size (p->labels, 0);
}

/* The first call at @depth from @from on that ends at or after @time:
 * galloping, since the next column is usually only a few calls on. */
static guint32
search_from (const StrataSpanTable *table,
             guint                  clock,
             guint                  depth,
             guint32                from,
             gint64                 time)
{
  guint32 n = table->n_spans[depth];
  guint32 step = 1, lo = from, hi;

  if (from >= n || end_at (table, clock, depth, from) >= time)
    return from;

  while (from + step < n && end_at (table, clock, depth, from + step) < time)
    {
      lo = from + step;
      step *= 2;
    }
  hi = MIN (n, from + step);

  /* end(lo) < time <= end(hi), or hi == n */
  while (hi - lo > 1)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (end_at (table, clock, depth, mid) < time)
        lo = mid;
      else
        hi = mid;
    }
  return hi;
}

/* One depth of one thread: the heart of the level of detail. */
static void
draw_depth (const Painter         *p,
            const StrataSpanTable *table,
            guint                  depth,
            double                 y,
            double                 height)
{
  const StrataTimelineView *view = p->view;
  guint clock = view->clock;
  guint32 n = table->n_spans[depth];
  guint32 i = strata_span_table_search_clock (table, clock, depth, view->start);
  double merged_from = -1, merged_to = -1;

  while (i < n)
    {
      gint64 start = start_at (table, clock, depth, i);
      gint64 end = end_at (table, clock, depth, i);
      double x0, x1, column;
      guint32 next;

      if (start > view->end)
        break;

      x0 = span_x (p, start);
      x1 = span_x (p, end);
      if (x1 - x0 >= MIN_SPAN_PX)
        {
          if (merged_to >= 0)
            draw_merged (p, merged_from, merged_to, y, height);
          merged_from = merged_to = -1;
          draw_span (p, table->spans[depth][i].method, x0, x1, y, height);
          i++;
          continue;
        }

      /* Sub-pixel: mark this column and jump to the next one. */
      column = floor (MAX (x0, p->area_x));
      if (merged_to >= 0 && column <= merged_to)
        merged_to = MAX (merged_to, column + 1);
      else
        {
          if (merged_to >= 0)
            draw_merged (p, merged_from, merged_to, y, height);
          merged_from = column;
          merged_to = column + 1;
        }
      next = search_from (table, clock, depth, i + 1,
                          view->start + (gint64) ceil ((column + 1 - p->area_x) * p->ns_per_px));
      i = MAX (i + 1, next);
    }

  if (merged_to >= 0)
    draw_merged (p, merged_from, merged_to, y, height);
  flush_batches (p);
}

static void
draw_focus (const Painter      *p,
            const StrataTrack  *track,
            double              y)
{
  const StrataTimelineView *view = p->view;
  const StrataThread *thread = strata_trace_get_thread (view->trace, track->index);
  double x0, x1, row_y;

  if (!view->has_focus || view->focus_thread != track->index || thread->spans == NULL ||
      view->focus_depth >= thread->spans->n_depths ||
      view->focus_index >= thread->spans->n_spans[view->focus_depth])
    return;

  x0 = span_x (p, strata_timeline_span_start (thread->spans, view->clock, view->focus_depth, view->focus_index));
  x1 = span_x (p, strata_timeline_span_end (thread->spans, view->clock, view->focus_depth, view->focus_index));
  row_y = track_compact (view, track) ? y : y + view->focus_depth * STRATA_TIMELINE_ROW_HEIGHT;
  set_rgba (p->cr, &view->theme->accent, 1.0);
  cairo_set_line_width (p->cr, 2);
  cairo_rectangle (p->cr, MAX (x0, p->area_x) - 1, row_y - 1, MAX (x1 - x0, 2) + 2,
                   (track_compact (view, track) ? STRATA_TIMELINE_COMPACT_HEIGHT : STRATA_TIMELINE_ROW_HEIGHT) + 1);
  cairo_stroke (p->cr);
}

static void
draw_thread_spans (const Painter     *p,
                   const StrataTrack *track,
                   double             y,
                   double             viewport_height)
{
  const StrataThread *thread = strata_trace_get_thread (p->view->trace, track->index);
  const StrataSpanTable *table = thread->spans;

  if (table == NULL)
    return;
  cairo_save (p->cr);
  cairo_rectangle (p->cr, p->area_x, y, p->area_width, track->height);
  cairo_clip (p->cr);

  for (guint d = 0; d < table->n_depths; d++)
    {
      gboolean compact = track_compact (p->view, track);
      double row_y = compact ? y : y + d * STRATA_TIMELINE_ROW_HEIGHT;
      double row_h = compact ? STRATA_TIMELINE_COMPACT_HEIGHT : STRATA_TIMELINE_ROW_HEIGHT;

      /* Only rows on screen; in compact mode deeper calls paint over
       * their callers, leaving the running method visible. */
      if (row_y + row_h < 0 || row_y > viewport_height)
        continue;
      draw_depth (p, table, d, row_y, row_h);
    }

  draw_focus (p, track, y);
  cairo_restore (p->cr);
}

/* ---- Labels and headers ---- */

static void
draw_text (const Painter *p,
           const char    *text,
           double         x,
           double         y,
           double         width,
           double         alpha,
           gboolean       bold)
{
  PangoFontDescription *font = NULL;

  if (p->layout == NULL)
    return;

  if (bold)
    {
      font = pango_font_description_copy (pango_layout_get_font_description (p->layout));
      pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
      pango_layout_set_font_description (p->layout, font);
    }
  pango_layout_set_text (p->layout, text, -1);
  pango_layout_set_width (p->layout, (int) (width * PANGO_SCALE));
  set_rgba (p->cr, &p->view->theme->fg, alpha);
  cairo_move_to (p->cr, x, y);
  pango_cairo_show_layout (p->cr, p->layout);
  if (font != NULL)
    {
      pango_font_description_unset_fields (font, PANGO_FONT_MASK_WEIGHT);
      pango_layout_set_font_description (p->layout, font);
      pango_font_description_free (font);
    }
}

static void
draw_process_header (const Painter     *p,
                     const StrataTrack *track,
                     double             y)
{
  const StrataTimelineView *view = p->view;
  const StrataProcess *process = strata_trace_get_process (view->trace, track->index);
  g_autofree char *title = NULL;
  g_autofree char *pid = g_strdup_printf ("%" G_GINT64_FORMAT, process->pid);
  const char *name = strata_trace_get_string (view->trace, process->name);

  if (*name == '\0')
    /* Translators: a process without a name */
    name = _("Process");
  set_rgba (p->cr, &view->theme->fg, 0.07);
  cairo_rectangle (p->cr, 0, y, view->width, track->height);
  cairo_fill (p->cr);

  if (track->n_threads == 0 && process->pid != 0)
    /* Translators: a process header without threads: disclosure triangle, name and pid */
    title = g_strdup_printf (_("%s %s (pid %s)"), track->collapsed ? "▸" : "▾", name, pid);
  else if (track->n_threads == 0)
    title = g_strdup_printf ("%s %s", track->collapsed ? "▸" : "▾", name);
  else if (process->pid != 0)
    /* Translators: a process header: disclosure triangle, name, pid and thread count */
    title = g_strdup_printf (ngettext ("%s %s (pid %s) · %u thread",
                                       "%s %s (pid %s) · %u threads", track->n_threads),
                             track->collapsed ? "▸" : "▾", name, pid, track->n_threads);
  else
    /* Translators: a process header: disclosure triangle, name and thread count */
    title = g_strdup_printf (ngettext ("%s %s · %u thread", "%s %s · %u threads", track->n_threads),
                             track->collapsed ? "▸" : "▾", name, track->n_threads);
  draw_text (p, title, 8, y + 5, view->width - 16, 0.9, TRUE);
}

static void
draw_thread_label (const Painter     *p,
                   const StrataTrack *track,
                   double             y)
{
  const StrataTimelineView *view = p->view;
  const StrataThread *thread = strata_trace_get_thread (view->trace, track->index);
  const char *name = strata_trace_get_string (view->trace, thread->name);
  g_autofree char *tid = g_strdup_printf ("%" G_GINT64_FORMAT, thread->tid);
  g_autofree char *one_line = NULL;

  set_rgba (p->cr, &view->theme->fg, 0.035);
  cairo_rectangle (p->cr, 0, y, view->label_width, track->height - STRATA_TIMELINE_TRACK_GAP);
  cairo_fill (p->cr);

  if (*name == '\0')
    {
      /* Translators: a thread without a name, by its id */
      one_line = g_strdup_printf (_("Thread %s"), tid);
      draw_text (p, one_line, 10, y + 1, view->label_width - 16, 0.85, FALSE);
      return;
    }
  if (track->height - STRATA_TIMELINE_TRACK_GAP >= 2 * STRATA_TIMELINE_ROW_HEIGHT)
    {
      /* Translators: the thread id under a thread's name */
      g_autofree char *second = g_strdup_printf (_("thread %s"), tid);

      draw_text (p, name, 10, y + 1, view->label_width - 16, 0.85, FALSE);
      draw_text (p, second, 10, y + 1 + STRATA_TIMELINE_ROW_HEIGHT, view->label_width - 16, 0.5, FALSE);
      return;
    }
  /* Translators: a thread's name and id on one line */
  one_line = g_strdup_printf (_("%s (%s)"), name, tid);
  draw_text (p, one_line, 10, y + 1, view->label_width - 16, 0.85, FALSE);
}

/* ---- Events: instants and lanes ---- */

/* From a process header to the end of its last track: where the
 * process's own instants are drawn across. */
static double
process_extent (const StrataTimelineView *view,
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

/* A tick from @y down @height, with a small triangle on top. */
static void
draw_instants (const Painter *p,
               const GArray  *instants,
               double         y,
               double         height)
{
  StrataTrace *trace = p->view->trace;
  guint i = strata_event_index_first_from (trace, instants, p->view->start);
  double last_x = -1;

  for (; i < instants->len; i++)
    {
      const StrataEvent *event = strata_trace_get_event (trace, g_array_index (instants, guint, i));
      double x = floor (span_x (p, event->start)) + 0.5;

      if (event->start > p->view->end)
        break;
      /* One tick per pixel column is all the eye can tell apart. */
      if (x == last_x)
        continue;
      last_x = x;
      set_rgba (p->cr, &p->view->theme->fg, 0.55);
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

static void
draw_lane_item (const Painter     *p,
                const StrataEvent *event,
                double             y)
{
  const StrataColor *color = event_color (event);
  double x0 = MAX (span_x (p, event->start), p->area_x);
  double x1 = MIN (span_x (p, event->end), p->area_x + p->area_width);
  const char *name;

  if (event->end == event->start)
    {
      /* Steps and snapshots: a diamond. */
      double x = span_x (p, event->start), mid = y + STRATA_TIMELINE_ROW_HEIGHT / 2;

      cairo_set_source_rgb (p->cr, color->red, color->green, color->blue);
      cairo_move_to (p->cr, x, mid - 5);
      cairo_line_to (p->cr, x + 5, mid);
      cairo_line_to (p->cr, x, mid + 5);
      cairo_line_to (p->cr, x - 5, mid);
      cairo_close_path (p->cr);
      cairo_fill (p->cr);
      return;
    }
  cairo_set_source_rgb (p->cr, color->red, color->green, color->blue);
  cairo_rectangle (p->cr, x0, y + 1, MAX (1, x1 - x0), STRATA_TIMELINE_ROW_HEIGHT - 2);
  cairo_fill (p->cr);
  name = strata_trace_get_string (p->view->trace, event->name);
  if (x1 - x0 >= MIN_LABEL_PX && *name != '\0')
    {
      pango_layout_set_ellipsize (p->layout, PANGO_ELLIPSIZE_END);
      pango_layout_set_text (p->layout, name, -1);
      pango_layout_set_width (p->layout, (int) ((x1 - x0 - 6) * PANGO_SCALE));
      cairo_set_source_rgb (p->cr, 1, 1, 1);
      cairo_move_to (p->cr, x0 + 3, y + 1);
      pango_cairo_show_layout (p->cr, p->layout);
    }
}

static void
draw_lanes (const Painter     *p,
            const StrataTrack *track,
            double             y)
{
  const StrataTimelineView *view = p->view;
  StrataLaneKind kind = track->kind == STRATA_TRACK_ASYNC ? STRATA_LANES_ASYNC : STRATA_LANES_OBJECTS;
  const StrataLanes *lanes = strata_event_index_get_lanes (view->events, track->index, kind);
  g_autofree char *title = NULL;

  set_rgba (p->cr, &view->theme->fg, 0.035);
  cairo_rectangle (p->cr, 0, y, view->label_width, track->height - STRATA_TIMELINE_TRACK_GAP);
  cairo_fill (p->cr);
  title = g_strdup_printf (kind == STRATA_LANES_ASYNC
                           /* Translators: the track of a process's async events, with their number */
                           ? ngettext ("Async · %u event", "Async · %u events", lanes->items->len)
                           /* Translators: the track of a process's objects, with their number */
                           : ngettext ("Objects · %u event", "Objects · %u events", lanes->items->len),
                           lanes->items->len);
  draw_text (p, title, 10, y + 1, view->label_width - 16, 0.85, FALSE);

  cairo_save (p->cr);
  cairo_rectangle (p->cr, p->area_x, y, p->area_width, track->height);
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
      draw_lane_item (p, event, y + (track->collapsed ? 0 : item->lane * STRATA_TIMELINE_ROW_HEIGHT));
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
static void
draw_flows (const Painter *p)
{
  const StrataTimelineView *view = p->view;

  cairo_save (p->cr);
  cairo_rectangle (p->cr, p->area_x, 0, p->area_width, G_MAXINT16);
  cairo_clip (p->cr);
  set_rgba (p->cr, &view->theme->accent, 0.9);
  cairo_set_line_width (p->cr, 1.5);
  for (guint i = 0; i < view->flows->len; i++)
    {
      const StrataFlow *flow = &g_array_index (view->flows, StrataFlow, i);
      const StrataSpanTable *from = strata_trace_get_thread (view->trace, flow->from.thread)->spans;
      const StrataSpanTable *to = strata_trace_get_thread (view->trace, flow->to.thread)->spans;
      double x0 = span_x (p, strata_timeline_span_end (from, view->clock, flow->from.depth, flow->from.index));
      double x1 = span_x (p, strata_timeline_span_start (to, view->clock, flow->to.depth, flow->to.index));
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

  draw_text (p, title, 10, y + 1, p->view->label_width - 16, 0.85, FALSE);
  for (guint s = 0; s < MIN (counter->n_series, STRATA_COUNTER_MAX_SERIES); s++)
    {
      double row_y = y + STRATA_TIMELINE_ROW_HEIGHT + s * STRATA_COUNTER_LEGEND_ROW;
      const StrataRgba *color = strata_counter_series_color (s);
      gboolean off = (hidden >> s) & 1;

      cairo_set_source_rgba (p->cr, color->red, color->green, color->blue, off ? 0.25 : 1);
      cairo_rectangle (p->cr, 14, row_y + 4, 9, 9);
      off ? cairo_stroke (p->cr) : cairo_fill (p->cr);
      pango_layout_set_ellipsize (p->layout, PANGO_ELLIPSIZE_END);
      draw_text (p, strata_trace_get_string (trace, counter->series_names[s]), 28, row_y,
                 p->view->label_width - 34, off ? 0.35 : 0.7, FALSE);
    }
}

static void
draw_counter (const Painter     *p,
              const StrataTrack *track,
              double             y)
{
  const StrataTimelineView *view = p->view;
  const StrataCounter *counter = strata_trace_get_counter (view->trace, track->index);
  const StrataCounterLod *lod = counter_lod (view, track->index);
  double height = track->height - STRATA_TIMELINE_TRACK_GAP;

  set_rgba (p->cr, &view->theme->fg, 0.035);
  cairo_rectangle (p->cr, 0, y, view->label_width, height);
  cairo_fill (p->cr);
  cairo_save (p->cr);
  cairo_rectangle (p->cr, 0, y, view->label_width, height);
  cairo_clip (p->cr);
  draw_counter_legend (p, counter, lod ? strata_counter_lod_get_hidden (lod) : 0, y);
  cairo_restore (p->cr);
  if (lod != NULL)
    strata_counter_render (p->cr, lod, view, p->area_x, y + 2, p->area_width, height - 2);
}

static PangoLayout *
create_layout (cairo_t                    *cr,
               const PangoFontDescription *font)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *fallback = NULL;

  if (font == NULL)
    font = fallback = pango_font_description_from_string ("Sans 9");
  pango_layout_set_font_description (layout, font);
  g_clear_pointer (&fallback, pango_font_description_free);

  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (layout, TRUE);
  return layout;
}

static void
painter_init (Painter                  *p,
              cairo_t                  *cr,
              const StrataTimelineView *view)
{
  p->view = view;
  p->cr = cr;
  p->monochrome = FALSE;
  p->area_x = view->label_width;
  p->area_width = MAX (1.0, view->width - view->label_width);
  p->ns_per_px = (double) MAX (1, view->end - view->start) / p->area_width;
  p->layout = create_layout (cr, view->font);
  for (guint b = 0; b < N_BUCKETS; b++)
    p->batches[b] = g_array_new (FALSE, FALSE, sizeof (double));
  p->labels = g_array_new (FALSE, FALSE, sizeof (PendingLabel));
}

static void
painter_clear (Painter *p)
{
  g_clear_object (&p->layout);
  for (guint b = 0; b < N_BUCKETS; b++)
    g_clear_pointer (&p->batches[b], g_array_unref);
  g_clear_pointer (&p->labels, g_array_unref);
}

static void
draw_range (const Painter *p,
            double         top,
            double         height)
{
  const StrataTimelineView *view = p->view;
  double x0, x1;

  if (!view->has_range)
    return;
  x0 = MAX (span_x (p, view->range_start), p->area_x);
  x1 = MIN (span_x (p, view->range_end), p->area_x + p->area_width);
  if (x1 < x0)
    return;
  set_rgba (p->cr, &view->theme->accent, 0.15);
  cairo_rectangle (p->cr, x0, top, MAX (1, x1 - x0), height);
  cairo_fill (p->cr);
  set_rgba (p->cr, &view->theme->accent, 0.8);
  cairo_set_line_width (p->cr, 1);
  cairo_move_to (p->cr, floor (x0) + 0.5, top);
  cairo_line_to (p->cr, floor (x0) + 0.5, top + height);
  cairo_move_to (p->cr, floor (x1) + 0.5, top);
  cairo_line_to (p->cr, floor (x1) + 0.5, top + height);
  cairo_stroke (p->cr);
}

/**
 * strata_timeline_render_rows:
 * @height: the height of the row viewport; (0, 0) is its top left
 *
 * Draws the tracks that intersect the viewport, scrolled by scroll_y.
 */
void
strata_timeline_render_rows (cairo_t                  *cr,
                             const StrataTimelineView *view,
                             double                    height)
{
  Painter p;

  if (view->trace == NULL || view->tracks == NULL || view->width <= view->label_width || height <= 0)
    return;

  painter_init (&p, cr, view);

  for (guint i = 0; i < view->tracks->len; i++)
    {
      const StrataTrack *track = &g_array_index (view->tracks, StrataTrack, i);
      double y = track->y - view->scroll_y;

      if (y + track->height < 0)
        continue;
      if (y > height)
        break;

      if (track->kind == STRATA_TRACK_PROCESS)
        {
          draw_process_header (&p, track, y);
          if (view->events != NULL)
            draw_instants (&p, view->events->process_instants[track->index], y, process_extent (view, i));
        }
      else if (track->kind == STRATA_TRACK_COUNTER)
        draw_counter (&p, track, y);
      else if (track->kind == STRATA_TRACK_ASYNC || track->kind == STRATA_TRACK_OBJECTS)
        draw_lanes (&p, track, y);
      else
        {
          draw_thread_label (&p, track, y);
          draw_thread_spans (&p, track, y, height);
          if (view->events != NULL)
            draw_instants (&p, view->events->thread_instants[track->index], y, STRATA_TIMELINE_ROW_HEIGHT);
        }
    }
  if (view->events != NULL)
    draw_instants (&p, view->events->global_instants, 0, height);
  if (view->flows != NULL)
    draw_flows (&p);

  draw_range (&p, 0, height);
  painter_clear (&p);
}

/* ---- Ruler and overview ---- */

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

  painter_init (&p, cr, view);

  set_rgba (cr, &view->theme->fg, 0.15);
  cairo_rectangle (cr, 0, STRATA_TIMELINE_RULER_HEIGHT - 1, view->width, 1);
  cairo_fill (cr);

  span = strata_units_format_duration (view->end - view->start);
  draw_text (&p, span, 10, 4, view->label_width - 16, 0.7, FALSE);

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
      draw_text (&p, label, x + 3, 4, MIN_TICK_SPACING_PX - 6, 0.7, FALSE);
    }

  draw_marks (&p, STRATA_TIMELINE_RULER_HEIGHT - MARK_HEIGHT - 1);
  draw_range (&p, 0, STRATA_TIMELINE_RULER_HEIGHT);
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
      pango_cairo_show_layout (cr, p.layout);
    }
  painter_clear (&p);
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
  guint n_busy = 0;
  Painter p;
  double x0, x1;

  whole.start = view->bound_start;
  whole.end = view->bound_end;
  whole.selected_method = G_MAXUINT32;
  painter_init (&p, cr, &whole);

  set_rgba (cr, &view->theme->fg, 0.05);
  cairo_rectangle (cr, p.area_x, 2, p.area_width, STRATA_TIMELINE_OVERVIEW_HEIGHT - 4);
  cairo_fill (cr);

  /* A few levels down in every thread (the first are usually long calls), stacked
   * faintly: the darker, the more threads are busy. */
  g_clear_object (&p.layout);
  p.monochrome = TRUE;
  for (guint t = 0; view->trace && t < strata_trace_get_n_threads (view->trace); t++)
    n_busy += strata_trace_get_thread (view->trace, t)->spans != NULL;
  p.mono_alpha = MAX (0.02, 0.3 / MAX (1, n_busy));
  for (guint t = 0; view->trace && t < strata_trace_get_n_threads (view->trace); t++)
    {
      const StrataThread *thread = strata_trace_get_thread (view->trace, t);
      guint depth;

      if (thread->spans == NULL)
        continue;
      depth = MIN (3, thread->spans->n_depths - 1);
      draw_depth (&p, thread->spans, depth, 6, STRATA_TIMELINE_OVERVIEW_HEIGHT - 12);
    }

  x0 = span_x (&p, view->start);
  x1 = span_x (&p, view->end);
  set_rgba (cr, &view->theme->accent, 0.12);
  cairo_rectangle (cr, x0, 1, MAX (2, x1 - x0), STRATA_TIMELINE_OVERVIEW_HEIGHT - 2);
  cairo_fill (cr);
  set_rgba (cr, &view->theme->accent, 0.9);
  cairo_set_line_width (cr, 1.5);
  cairo_rectangle (cr, x0, 1.5, MAX (2, x1 - x0), STRATA_TIMELINE_OVERVIEW_HEIGHT - 3);
  cairo_stroke (cr);
  painter_clear (&p);
}

/* ---- Hit testing ---- */

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
      strata_timeline_span_start (table, view->clock, depth, i) > time + slop)
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

/* ---- Queries for the widget ---- */

/* Calls that overlap [start, end] on every thread. */
guint64
strata_timeline_count_calls (StrataTrace *trace,
                             guint        clock,
                             gint64       start,
                             gint64       end)
{
  guint64 n = 0;

  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    {
      const StrataSpanTable *table = strata_trace_get_thread (trace, t)->spans;

      for (guint d = 0; table != NULL && d < table->n_depths; d++)
        {
          guint32 i = strata_span_table_search_clock (table, clock, d, start);

          for (; i < table->n_spans[d] && strata_timeline_span_start (table, clock, d, i) <= end; i++)
            n++;
        }
    }
  return n;
}

static int
compare_marks (const void *a,
               const void *b)
{
  const gint64 *ma = a, *mb = b;

  return ma[0] < mb[0] ? -1 : ma[0] > mb[0];
}

/**
 * strata_timeline_collect_marks:
 *
 * Returns: (transfer full): start, end pairs of every call to @method,
 *   sorted by start: traceview's marker lines
 */
GArray *
strata_timeline_collect_marks (StrataTrace *trace,
                               guint        clock,
                               guint32      method)
{
  GArray *marks = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    {
      const StrataSpanTable *table = strata_trace_get_thread (trace, t)->spans;

      for (guint d = 0; table != NULL && d < table->n_depths; d++)
        for (guint32 i = 0; i < table->n_spans[d]; i++)
          if (table->spans[d][i].method == method)
            {
              gint64 pair[2] = {
                strata_timeline_span_start (table, clock, d, i),
                strata_timeline_span_end (table, clock, d, i),
              };

              g_array_append_vals (marks, pair, 2);
            }
    }
  qsort (marks->data, marks->len / 2, 2 * sizeof (gint64), compare_marks);
  return marks;
}
