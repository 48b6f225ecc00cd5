/* strata-timeline.h: threads over time, one flame chart per thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-session.h"
#include "strata-timeline-render.h"

G_BEGIN_DECLS

#define STRATA_TYPE_TIMELINE (strata_timeline_get_type ())

G_DECLARE_FINAL_TYPE (StrataTimeline, strata_timeline, STRATA, TIMELINE, GtkWidget)

GtkWidget     *strata_timeline_new          (StrataSession  *session);
StrataSession *strata_timeline_get_session  (StrataTimeline *self);
gboolean       strata_timeline_get_compact  (StrataTimeline *self);
void           strata_timeline_set_compact  (StrataTimeline *self,
                                             gboolean        compact);
gboolean       strata_timeline_get_focused_call (StrataTimeline *self,
                                                 guint          *thread,
                                                 guint          *depth,
                                                 guint32        *index);
void           strata_timeline_focus_call   (StrataTimeline *self,
                                             guint           thread,
                                             guint           depth,
                                             guint32         index);
char          *strata_timeline_describe_call (StrataTimeline *self,
                                              guint           thread,
                                              guint           depth,
                                              guint32         index);

void            strata_timeline_select_counter_value (StrataTimeline *self,
                                                      guint           counter,
                                                      gint64          time);
char           *strata_timeline_describe_counter (StrataTimeline *self,
                                                 guint           counter,
                                                 gint64          time);

char           *strata_timeline_describe_event   (StrataTimeline *self,
                                                 guint           event);

void            strata_timeline_update_flows     (StrataTimeline *self);

StrataTrackPrefs *strata_timeline_get_track_prefs (StrataTimeline  *self);
const GArray   *strata_timeline_get_tracks       (StrataTimeline  *self);
void            strata_timeline_track_menu_for   (StrataTimeline  *self,
                                                 StrataTrackKind  kind,
                                                 guint            index,
                                                 guint            process);

G_END_DECLS
