/* strata-sites-view-private.h: what tests read and drive of the sites view
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-sites-view.h"

G_BEGIN_DECLS

/* For tests: what the view shows, and driving it as a user would. */
GListModel *strata_sites_view_get_model (StrataSitesView *self);
void        strata_sites_view_sort_by   (StrataSitesView *self,
                                         guint            column,
                                         GtkSortType      order);
GListModel *strata_sites_view_dup_sites (StrataSitesView *self);

G_END_DECLS
