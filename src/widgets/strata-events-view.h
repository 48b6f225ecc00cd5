/* strata-events-view.h: the Events page, every event of a Trace Event
 * file in a table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-event-table.h"
#include "strata-session.h"

G_BEGIN_DECLS

#define STRATA_TYPE_EVENTS_VIEW (strata_events_view_get_type ())

G_DECLARE_FINAL_TYPE (StrataEventsView, strata_events_view, STRATA, EVENTS_VIEW, GtkWidget)

GtkWidget        *strata_events_view_new        (StrataSession    *session);
StrataEventTable *strata_events_view_get_table  (StrataEventsView *self);
guint             strata_events_view_get_selected (StrataEventsView *self);
void              strata_events_view_select     (StrataEventsView *self,
                                                 guint             position);
void              strata_events_view_set_filter (StrataEventsView *self,
                                                 const char       *text);
const char       *strata_events_view_get_status (StrataEventsView *self);
void              strata_events_view_activate   (StrataEventsView *self,
                                                 guint             position);

G_END_DECLS
