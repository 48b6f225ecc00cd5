/* strata-calls-view.h: every call of the selected method, its durations
 * as a histogram and a list; or a selected counter's figures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-method-calls.h"
#include "strata-session.h"

G_BEGIN_DECLS

#define STRATA_TYPE_CALLS_VIEW (strata_calls_view_get_type ())

G_DECLARE_FINAL_TYPE (StrataCallsView, strata_calls_view, STRATA, CALLS_VIEW, GtkWidget)

GtkWidget         *strata_calls_view_new          (StrataSession   *session);
StrataMethodCalls *strata_calls_view_get_calls    (StrataCallsView *self);
const char        *strata_calls_view_get_summary  (StrataCallsView *self);
void               strata_calls_view_choose_bin   (StrataCallsView *self,
                                                   int              bin);
void               strata_calls_view_activate     (StrataCallsView *self,
                                                   guint            position);
void               strata_calls_view_set_log_scale (StrataCallsView *self,
                                                   gboolean         log_scale);

G_END_DECLS
