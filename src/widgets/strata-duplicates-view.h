/* strata-duplicates-view.h: strings and primitive arrays a heap dump holds
 * more than once, the most wasteful first
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-trace.h"

G_BEGIN_DECLS

#define STRATA_TYPE_DUPLICATES_VIEW (strata_duplicates_view_get_type ())

G_DECLARE_FINAL_TYPE (StrataDuplicatesView, strata_duplicates_view, STRATA, DUPLICATES_VIEW, GtkWidget)

GtkWidget *strata_duplicates_view_new      (StrataTrace          *trace);
gboolean   strata_duplicates_view_is_ready (StrataDuplicatesView *self);
char      *strata_duplicates_view_dup_text (StrataDuplicatesView *self);

G_END_DECLS
