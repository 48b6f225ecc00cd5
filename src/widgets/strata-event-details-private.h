/* strata-event-details-private.h: what tests read of the details pane
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-event-details.h"

G_BEGIN_DECLS

/* For tests: what the view shows, and driving it as a user would. */
gboolean   strata_event_details_is_reading   (StrataEventDetails *self);
char      *strata_event_details_dup_text     (StrataEventDetails *self);

G_END_DECLS
