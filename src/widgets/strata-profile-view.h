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
StrataProfile *strata_profile_view_get_profile  (StrataProfileView *self);
GListModel  *strata_profile_view_get_rows       (StrataProfileView *self);
gboolean     strata_profile_view_get_expanded   (StrataProfileView *self,
                                                 guint              position);
GtkColumnView *strata_profile_view_get_column_view (StrataProfileView *self);
void         strata_profile_view_set_filter     (StrataProfileView *self,
                                                 const char        *text);
guint        strata_profile_view_get_n_matches  (StrataProfileView *self);
gboolean     strata_profile_view_select_match   (StrataProfileView *self,
                                                 gboolean           backwards);
void         strata_profile_view_sort_by        (StrataProfileView *self,
                                                 const char        *column_id,
                                                 GtkSortType        order);
gboolean     strata_profile_view_expand_method  (StrataProfileView *self,
                                                 guint32            method);
char        *strata_profile_view_format_row     (StrataProfileView *self,
                                                 StrataProfileRow  *row,
                                                 char               separator);
gboolean     strata_profile_view_export         (StrataProfileView *self,
                                                 GFile             *file,
                                                 GError           **error);

G_END_DECLS
