/* strata-trace-summary.h: what a loaded trace holds, at a glance
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-session.h"

G_BEGIN_DECLS

#define STRATA_TYPE_TRACE_SUMMARY (strata_trace_summary_get_type ())

G_DECLARE_FINAL_TYPE (StrataTraceSummary, strata_trace_summary, STRATA, TRACE_SUMMARY, GtkWidget)

GtkWidget *strata_trace_summary_new (StrataSession *session);

G_END_DECLS
