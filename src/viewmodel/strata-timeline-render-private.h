/* strata-timeline-render-private.h: what the timeline renderer's files share
 *
 * The renderer is split by concern: layout (tracks and their heights),
 * draw (rows: calls, labels, events, flows, counters), ruler (the time
 * axis and the overview) and hit (what lies under a point). They share the
 * Painter, the per-frame state of one drawing pass.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-counter-render.h"
#include "strata-palette.h"
#include "strata-timeline-render.h"

G_BEGIN_DECLS

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
  /* The overview: per pixel column, how many threads are busy there, kept
   * as differences (+1 where a call starts, -1 where it ends) instead of
   * drawing; NULL elsewhere. */
  int                      *density;
  GArray                   *batches[N_BUCKETS];  /* x, y, width, height per rectangle */
  GArray                   *labels;              /* PendingLabel */
  double                    ns_per_px;
  double                    area_x;      /* where time starts, in widget coordinates */
  double                    area_width;
} Painter;

/* Cairo keeps coordinates in 24.8 fixed point: a rectangle reaching past
 * ±8,388,607 pixels puts the context in an error state, and nothing more
 * is drawn. A thread of hundreds of thousands of levels is that tall
 * (470,000 rows drew no bar at all): rectangles are cut to a band around
 * the view first, which no drawing reaches past. */
#define STRATA_PAINT_BAND 1e6

static inline void
strata_painter_band (cairo_t *cr,
                     double   x,
                     double   y,
                     double   width,
                     double   height)
{
  double top = MAX (y, -STRATA_PAINT_BAND), bottom = MIN (y + height, STRATA_PAINT_BAND);

  cairo_rectangle (cr, x, top, width, MAX (bottom - top, 0));
}

static inline void
set_rgba (cairo_t           *cr,
          const StrataColor *color,
          double             alpha)
{
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha * alpha);
}

static inline double
span_x (const Painter *p,
        gint64         time)
{
  return p->area_x + (time - p->view->start) / p->ns_per_px;
}

static inline gboolean
track_compact (const StrataTimelineView *view,
               const StrataTrack        *track)
{
  return view->compact || (track->kind == STRATA_TRACK_THREAD && track->collapsed);
}

void strata_painter_init       (Painter                  *p,
                                cairo_t                  *cr,
                                const StrataTimelineView *view);
void strata_painter_clear      (Painter                  *p);
void strata_painter_draw_text  (const Painter            *p,
                                const char               *text,
                                double                    x,
                                double                    y,
                                double                    width,
                                double                    alpha,
                                gboolean                  bold);
void strata_painter_draw_depth (const Painter            *p,
                                const StrataSpanTable    *table,
                                guint                     depth,
                                double                    y,
                                double                    height);
void strata_painter_draw_range (const Painter            *p,
                                double                    top,
                                double                    height);

/* strata-timeline-draw-events.c */
double   strata_painter_process_extent   (const StrataTimelineView *view,
                                          guint                     header);
void     strata_painter_draw_global_instants (const Painter         *p,
                                          const GArray          *instants,
                                          double                 height);
void     strata_painter_draw_instants     (const Painter            *p,
                                          const GArray             *instants,
                                          double                    y,
                                          double                    height);
void     strata_painter_draw_lanes        (const Painter            *p,
                                          const StrataTrack        *track,
                                          double                    y);
void     strata_painter_draw_flows        (const Painter            *p);
void     strata_timeline_draw_frames      (const Painter            *p,
                                           double                    y,
                                           double                    height);
void     strata_painter_draw_counter      (const Painter            *p,
                                          const StrataTrack        *track,
                                          double                    y);
/* strata-timeline-draw.c, for the events' rows */
gboolean strata_painter_event_dimmed     (const Painter            *p,
                                          guint                     event);
void     strata_painter_mark_name_match  (const Painter            *p,
                                          const char               *name,
                                          double                    y,
                                          double                    height);
void     strata_painter_set_display_text (PangoLayout              *layout,
                                          const char               *text);

G_END_DECLS
