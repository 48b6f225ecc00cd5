/* strata-event-details.h: the selected call or event, in words
 *
 * Name, kind, category, times and place of the session's selected item,
 * the flows that leave or reach it (each a link to the call at its other
 * end), and its args as an expandable tree, read from the file on a
 * worker thread when the item is selected.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-session.h"

G_BEGIN_DECLS

#define STRATA_TYPE_EVENT_DETAILS (strata_event_details_get_type ())

G_DECLARE_FINAL_TYPE (StrataEventDetails, strata_event_details, STRATA, EVENT_DETAILS, GtkWidget)

GtkWidget *strata_event_details_new          (StrataSession      *session);

G_END_DECLS
