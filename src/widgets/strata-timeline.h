/* strata-timeline.h: threads over time, one flame chart per thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-image-export.h"
#include "strata-session.h"
#include "strata-timeline-render.h"

G_BEGIN_DECLS

#define STRATA_TYPE_TIMELINE (strata_timeline_get_type ())

G_DECLARE_FINAL_TYPE (StrataTimeline, strata_timeline, STRATA, TIMELINE, GtkWidget)

GtkWidget     *strata_timeline_new          (StrataSession  *session);
StrataSession *strata_timeline_get_session  (StrataTimeline *self);
gboolean       strata_timeline_export_image (StrataTimeline           *self,
                                             const StrataImageOptions *options,
                                             gboolean                  whole_trace,
                                             GFile                    *file,
                                             GError                  **error);

gboolean       strata_timeline_export_image_full (StrataTimeline      *self,
                                             const StrataImageOptions *options,
                                             gboolean                  whole_trace,
                                             gboolean                  all_tracks,
                                             int                       dark,
                                             GFile                    *file,
                                             GError                  **error);

G_END_DECLS
