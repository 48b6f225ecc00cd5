/* strata-dominators-view.h: a heap dump's dominator tree: each object
 * expands to the objects that only it keeps alive
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>


#include "strata-object-inspector.h"
#include "strata-trace.h"

G_BEGIN_DECLS

#define STRATA_TYPE_DOMINATORS_VIEW (strata_dominators_view_get_type ())

G_DECLARE_FINAL_TYPE (StrataDominatorsView, strata_dominators_view, STRATA, DOMINATORS_VIEW, GtkWidget)

GtkWidget  *strata_dominators_view_new       (StrataTrace          *trace);
GtkWidget  *strata_dominators_view_new_for_objects (StrataTrace    *trace,
                                                  const guint32  *objects,
                                                  guint32         n_objects);
GtkWidget  *strata_dominators_view_new_for_class (StrataTrace      *trace,
                                              guint                 heap_class);
GListModel *strata_dominators_view_get_model (StrataDominatorsView *self);
StrataObjectInspector *strata_dominators_view_get_inspector (StrataDominatorsView *self);
void        strata_dominators_view_set_grouped (StrataDominatorsView *self,
                                                gboolean              grouped);
void        strata_dominators_view_sort_by     (StrataDominatorsView *self,
                                                guint                 column,
                                                GtkSortType           order);
gboolean    strata_dominators_view_is_sorting  (StrataDominatorsView *self);
void        strata_dominators_view_set_inspector_width (StrataDominatorsView *self,
                                                        int                   width);
int         strata_dominators_view_get_inspector_width (StrataDominatorsView *self);
GListModel *strata_dominators_view_dup_rows  (StrataDominatorsView *self,
                                             gboolean              filtered);

G_END_DECLS
