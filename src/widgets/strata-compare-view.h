/* strata-compare-view.h: the trace on show against a baseline, row by row
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-comparison-list.h"
#include "strata-session.h"

G_BEGIN_DECLS

#define STRATA_TYPE_COMPARE_VIEW (strata_compare_view_get_type ())

G_DECLARE_FINAL_TYPE (StrataCompareView, strata_compare_view, STRATA, COMPARE_VIEW, GtkWidget)

GtkWidget            *strata_compare_view_new      (StrataSession     *session);
StrataComparisonList *strata_compare_view_get_list (StrataCompareView *self);
void                  strata_compare_view_sort_by  (StrataCompareView *self,
                                                    StrataFigure       figure,
                                                    StrataMeasure      measure,
                                                    gboolean           descending);

gboolean              strata_compare_view_export   (StrataCompareView *self,
                                                    GFile             *file,
                                                    GError           **error);

G_END_DECLS
