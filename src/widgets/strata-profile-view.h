/* strata-profile-view.h: the profile as a tree-table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-profile-row.h"
#include "strata-session.h"

G_BEGIN_DECLS

#define STRATA_TYPE_PROFILE_VIEW (strata_profile_view_get_type ())

G_DECLARE_FINAL_TYPE (StrataProfileView, strata_profile_view, STRATA, PROFILE_VIEW, GtkWidget)

GtkWidget   *strata_profile_view_new            (StrataSession     *session);
gboolean     strata_profile_view_expand_method  (StrataProfileView *self,
                                                 guint32            method);

G_END_DECLS
