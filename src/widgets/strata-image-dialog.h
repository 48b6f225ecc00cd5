/* strata-image-dialog.h: Export Image…, the timeline or flame graph as a picture
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-call-tree-view.h"
#include "strata-timeline.h"

G_BEGIN_DECLS

void strata_image_dialog_present (GtkWindow          *parent,
                                  StrataTimeline     *timeline,
                                  StrataCallTreeView *call_tree,
                                  gboolean            flame_first);

G_END_DECLS
