/* strata-timeline-render.h: drawing the timeline with Cairo, no GTK
 *
 * Plain functions over plain structs, so the widget, the benchmark and
 * tests without a display all draw the same pixels.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <pango/pangocairo.h>

#include "strata-event-index.h"
#include "strata-palette.h"
#include "strata-search.h"
#include "strata-trace.h"

G_BEGIN_DECLS

#define STRATA_TIMELINE_ROW_HEIGHT 18.0
#define STRATA_TIMELINE_COMPACT_HEIGHT 20.0
#define STRATA_TIMELINE_HEADER_HEIGHT 26.0
#define STRATA_TIMELINE_TRACK_GAP 6.0
#define STRATA_TIMELINE_LABEL_WIDTH 200.0
#define STRATA_TIMELINE_OVERVIEW_HEIGHT 28.0
#define STRATA_TIMELINE_RULER_HEIGHT 26.0
/* Android frames: a band in the ruler, above the selected method's marks. */
#define STRATA_TIMELINE_FRAMES_Y 17.0
#define STRATA_TIMELINE_FRAMES_HEIGHT 4.0
/* Notes: tabs with their text over the ticks, their ranges under them. */
#define STRATA_TIMELINE_NOTE_HEIGHT 20.0
#define STRATA_TIMELINE_NOTE_MAX_WIDTH 220.0

typedef enum
{
  STRATA_TRACK_PROCESS,
  STRATA_TRACK_THREAD,
  STRATA_TRACK_COUNTER,
  STRATA_TRACK_ASYNC,          /* @index: the process */
  STRATA_TRACK_OBJECTS,        /* @index: the process */
} StrataTrackKind;

typedef struct
{
  StrataTrackKind kind;
  guint           index;       /* process, thread or counter index */
  double          y;           /* top, in content coordinates */
  double          height;
  gboolean        collapsed;   /* a process's tracks hidden, or a track in one row */
  guint           n_threads;   /* processes only: threads with calls */
} StrataTrack;

/* What the user changed about the tracks. Keys are strata_track_key(). */
typedef struct
{
  GHashTable *collapsed_processes;  /* process index */
  GHashTable *collapsed;            /* guint64 key: one row high */
  GHashTable *hidden;               /* guint64 key */
  GArray     *pinned;               /* guint64 keys, shown first, in order */
  GHashTable *positions;            /* guint64 key -> double: moved tracks */
  GHashTable *hidden_series;        /* counter + 1 -> guint64 mask of hidden series */
  StrataSearch *filter;             /* only tracks whose or whose process's name matches; nullable */
} StrataTrackPrefs;

guint64 strata_track_key (StrataTrackKind kind,
                          guint           index);

/* Chrome colours, taken from the theme by the widget. */
typedef struct
{
  StrataColor fg;
  StrataColor accent;
  gboolean   dark;
} StrataTimelineTheme;

/* Laid-out method names kept between frames: shaping text is the most
 * expensive part of a frame, and panning keeps the widths. */
typedef struct _StrataLabelCache StrataLabelCache;

StrataLabelCache *strata_label_cache_new   (void);
void              strata_label_cache_free  (StrataLabelCache *cache);
void              strata_label_cache_clear (StrataLabelCache *cache);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataLabelCache, strata_label_cache_free)

typedef enum
{
  STRATA_HIT_NONE,
  STRATA_HIT_PROCESS,
  STRATA_HIT_THREAD_LABEL,
  STRATA_HIT_THREAD,
  STRATA_HIT_SPAN,
  STRATA_HIT_COUNTER,          /* @index: the counter */
  STRATA_HIT_COUNTER_LEGEND,   /* @index: the counter, @depth: the series */
  STRATA_HIT_EVENT,            /* @index: the trace event */
} StrataHitKind;

typedef struct
{
  StrataHitKind kind;
  guint         track;
  guint         thread;
  guint         depth;
  guint32       index;
  gint64        time;
} StrataTimelineHit;

/* Text as text, for vector exports: the text shown (ellipsized as on
 * screen) and the whole of it, a label's top-left corner and the width
 * it may take (0: any), in device coordinates, its colour and size. */
typedef void (*StrataTextSink) (const char        *text,
                                const char        *whole,
                                double             x,
                                double             y,
                                double             width,
                                double             size_pt,
                                gboolean           bold,
                                const StrataColor *color,
                                gpointer           data);

/* Everything one frame depends on. */
typedef struct
{
  StrataTrace               *trace;
  guint                      clock;
  gint64                     start;            /* visible time range */
  gint64                     end;
  gint64                     bound_start;      /* the whole trace */
  gint64                     bound_end;
  const guint8              *colors;           /* palette index per method, or NULL */
  guint32                    selected_method;  /* or G_MAXUINT32 */
  const GArray              *marks;            /* gint64 pairs: calls to the selected method */
  const GArray              *frames;           /* StrataAndroidFrame on the wall clock; nullable */
  const GArray              *notes;            /* StrataNoteMark on the view's clock, by start; nullable */
  gint64                     frame_budget;     /* ns a frame may take */
  gboolean                   compact;
  const GArray              *tracks;           /* StrataTrack */
  GPtrArray                 *counter_lods;     /* StrataCounterLod per counter, or NULL */
  const StrataEventIndex    *events;           /* nullable */
  const GArray              *flows;            /* StrataFlow arrows to draw, or NULL */
  double                     scroll_y;
  double                     width;            /* whole widget */
  double                     label_width;
  const StrataTimelineTheme *theme;
  const PangoFontDescription *font;            /* for labels; NULL: Sans 9 */
  StrataLabelCache          *label_cache;      /* nullable */
  gboolean                   has_range;
  gint64                     range_start;
  gint64                     range_end;
  const char                *range_label;      /* length and calls of the range */
  gboolean                   has_focus;        /* the call keyboard focus is on */
  guint                      focus_thread;
  guint                      focus_depth;
  guint32                    focus_index;
  guint                      selected_event;   /* outlined in its lane; G_MAXUINT: none */
  const StrataSearch        *search;           /* matches stand out, the rest dims; nullable */
  StrataTextSink             text_sink;        /* nullable: labels go here instead of as glyphs */
  gpointer                   text_sink_data;
} StrataTimelineView;

void     strata_timeline_show_layout     (cairo_t                  *cr,
                                          const StrataTimelineView *view,
                                          PangoLayout              *layout);

GArray  *strata_timeline_layout          (StrataTrace              *trace,
                                          const StrataEventIndex   *events,
                                          gboolean                  compact,
                                          const StrataTrackPrefs   *prefs,
                                          double                   *content_height);
GArray  *strata_timeline_process_tracks  (StrataTrace              *trace,
                                          const StrataEventIndex   *events,
                                          guint                     process,
                                          const StrataTrackPrefs   *prefs);
void     strata_timeline_render_rows     (cairo_t                  *cr,
                                          const StrataTimelineView *view,
                                          double                    height);
void     strata_timeline_render_ruler    (cairo_t                  *cr,
                                          const StrataTimelineView *view);
void     strata_timeline_render_overview (cairo_t                  *cr,
                                          const StrataTimelineView *view);
gboolean strata_timeline_hit_test        (const StrataTimelineView *view,
                                          double                    x,
                                          double                    y,
                                          StrataTimelineHit        *hit);
gint64   strata_timeline_time_at         (const StrataTimelineView *view,
                                          double                    x);

G_END_DECLS
