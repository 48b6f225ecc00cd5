/* strata-butterfly-view.h: a function's callers above it, its callees below
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-call-tree.h"
#include "strata-session.h"

G_BEGIN_DECLS

#define STRATA_TYPE_BUTTERFLY_VIEW (strata_butterfly_view_get_type ())

G_DECLARE_FINAL_TYPE (StrataButterflyView, strata_butterfly_view, STRATA, BUTTERFLY_VIEW, GtkWidget)

GtkWidget      *strata_butterfly_view_new         (StrataSession       *session);
void            strata_butterfly_view_show        (StrataButterflyView *self,
                                                   StrataCallTree      *top_down,
                                                   guint32              code);
guint32         strata_butterfly_view_get_code    (StrataButterflyView *self);
gboolean        strata_butterfly_view_is_ready    (StrataButterflyView *self);
GtkWidget      *strata_butterfly_view_get_callers (StrataButterflyView *self);
GtkWidget      *strata_butterfly_view_get_callees (StrataButterflyView *self);

G_END_DECLS
