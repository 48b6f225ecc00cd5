/* strata-search-bar.h: find calls, slices, events and tracks by name
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-session.h"

G_BEGIN_DECLS

#define STRATA_TYPE_SEARCH_BAR (strata_search_bar_get_type ())

G_DECLARE_FINAL_TYPE (StrataSearchBar, strata_search_bar, STRATA, SEARCH_BAR, GtkWidget)

GtkWidget  *strata_search_bar_new         (StrataSession   *session);
void        strata_search_bar_open        (StrataSearchBar *self);
void        strata_search_bar_set_text    (StrataSearchBar *self,
                                           const char      *text,
                                           gboolean         regex);
void        strata_search_bar_set_filter_tracks (StrataSearchBar *self,
                                           gboolean         only_matching);
const char *strata_search_bar_get_status  (StrataSearchBar *self);

G_END_DECLS
