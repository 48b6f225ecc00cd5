/* strata-call-tree-view.h: the merged call tree as a table or flame graph
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-call-tree.h"
#include "strata-session.h"

G_BEGIN_DECLS

#define STRATA_TYPE_CALL_TREE_VIEW (strata_call_tree_view_get_type ())

G_DECLARE_FINAL_TYPE (StrataCallTreeView, strata_call_tree_view, STRATA, CALL_TREE_VIEW, GtkWidget)

GtkWidget      *strata_call_tree_view_new          (StrataSession      *session);
void            strata_call_tree_view_set_view     (StrataCallTreeView *self,
                                                    const char         *view);
void            strata_call_tree_view_set_inverted (StrataCallTreeView *self,
                                                    gboolean            inverted);
gboolean        strata_call_tree_view_is_ready     (StrataCallTreeView *self);
StrataCallTree *strata_call_tree_view_get_tree     (StrataCallTreeView *self);
GListModel     *strata_call_tree_view_get_model    (StrataCallTreeView *self);
GtkWidget      *strata_call_tree_view_get_flame_graph (StrataCallTreeView *self);
GtkWidget      *strata_call_tree_view_get_butterfly   (StrataCallTreeView *self);
void            strata_call_tree_view_expand_hot_path (StrataCallTreeView *self,
                                                    guint               position);
char           *strata_call_tree_view_dup_selected_path (StrataCallTreeView *self);
void            strata_call_tree_view_apply_transform (StrataCallTreeView        *self,
                                                       const StrataCallTransform *transform);
void            strata_call_tree_view_pop_transform (StrataCallTreeView *self);
gboolean        strata_call_tree_view_reveal_node  (StrataCallTreeView *self,
                                                    guint32             node);
gboolean        strata_call_tree_view_export       (StrataCallTreeView *self,
                                                    GFile              *file,
                                                    GError            **error);

G_END_DECLS
