/* strata-timeline-private.h: what the timeline widget's files share
 *
 * The widget is split by concern, as GNOME Text Editor splits its window:
 * strata-timeline.c (the object, drawing and following the session),
 * -input.c (pointer, gestures and the track menu), -actions.c (keyboard
 * commands) and -describe.c (tooltips, clipboard and screen readers).
 * Every piece of view state lives in the session; the widget keeps only
 * what one frame and one gesture need.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-android-frames.h"
#include "strata-timeline.h"
#include "strata-track-prefs.h"

G_BEGIN_DECLS

#define STRATA_TIMELINE_HEADER_TOTAL (STRATA_TIMELINE_OVERVIEW_HEIGHT + STRATA_TIMELINE_RULER_HEIGHT)

struct _StrataTimeline
{
  GtkWidget            parent_instance;

  StrataSession       *session;
  GtkAdjustment       *hadjustment;
  GtkAdjustment       *vadjustment;
  GtkScrollablePolicy  hscroll_policy;
  GtkScrollablePolicy  vscroll_policy;

  /* Derived from the session and the trace, for drawing */
  GArray              *tracks;
  double               content_height;
  GArray              *marks;
  GArray              *frames;       /* StrataAndroidFrame: an Android app's, else NULL */
  gint64               frame_budget;
  char                *range_label;
  StrataLabelCache    *label_cache;
  GPtrArray           *counter_lods;   /* StrataCounterLod per counter */
  StrataEventIndex    *events;
  GArray              *flows;          /* StrataFlow: the arrows drawn */

  /* The track menu */
  guint64              menu_track;     /* the track the context menu is for */
  guint                menu_process;
  GtkWidget           *track_menu;

  /* One gesture at a time */
  gint64               drag_visible_start;
  gint64               drag_visible_end;
  double               drag_start_x;
  double               press_x;         /* where the last click began */
  double               press_y;
  double               drag_start_scroll;
  gboolean             dragging_overview;
  gboolean             selecting_range;
  gint64               range_anchor;
  double               zoom_scale;
};

/* strata-timeline.c */
void                   strata_timeline_fill_view          (StrataTimeline      *self,
                                                           StrataTimelineView  *view,
                                                           StrataTimelineTheme *theme);
gboolean               strata_timeline_hit_at             (StrataTimeline      *self,
                                                           double               x,
                                                           double               y,
                                                           StrataTimelineHit   *hit);
void                   strata_timeline_update_range_label (StrataTimeline      *self,
                                                           gboolean             count_calls);
const StrataSpanTable *strata_timeline_thread_spans       (StrataTimeline      *self,
                                                           guint                thread);
gboolean               strata_timeline_get_selected_call  (StrataTimeline      *self,
                                                           StrataSliceRef      *call);
void                   strata_timeline_select_call        (StrataTimeline      *self,
                                                           guint                thread,
                                                           guint                depth,
                                                           guint32              index);
const StrataAndroidFrame *strata_timeline_frame_at        (StrataTimeline      *self,
                                                           double               x,
                                                           double               y);

/* strata-timeline-input.c */
void                   strata_timeline_init_input         (StrataTimeline      *self);
void                   strata_timeline_class_init_input   (GtkWidgetClass      *widget_class);

/* strata-timeline-actions.c */
void                   strata_timeline_class_init_actions (GtkWidgetClass      *widget_class);

/* strata-timeline-describe.c */
void                   strata_timeline_update_description (StrataTimeline      *self);
void                   strata_timeline_init_describe      (StrataTimeline      *self);
void                   strata_timeline_class_init_describe (GtkWidgetClass     *widget_class);

/* For tests: what a right click on a track's label does, and the layout. */
const GArray          *strata_timeline_get_tracks         (StrataTimeline      *self);
void                   strata_timeline_track_menu_for     (StrataTimeline      *self,
                                                           StrataTrackKind      kind,
                                                           guint                index,
                                                           guint                process);

G_END_DECLS
