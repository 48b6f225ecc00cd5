/* strata-sites-view.h: allocation sites, each expanding to its stack
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-trace.h"

G_BEGIN_DECLS

#define STRATA_TYPE_SITES_VIEW (strata_sites_view_get_type ())

G_DECLARE_FINAL_TYPE (StrataSitesView, strata_sites_view, STRATA, SITES_VIEW, GtkWidget)

GtkWidget  *strata_sites_view_new       (StrataTrace     *trace);

G_END_DECLS
