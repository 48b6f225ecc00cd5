/* strata-notes-view.h: the Notes page, what was written about the trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-session.h"

G_BEGIN_DECLS

#define STRATA_TYPE_NOTES_VIEW (strata_notes_view_get_type ())

G_DECLARE_FINAL_TYPE (StrataNotesView, strata_notes_view, STRATA, NOTES_VIEW, GtkWidget)

GtkWidget *strata_notes_view_new      (StrataSession   *session);
GtkWidget *strata_notes_view_get_list (StrataNotesView *self);
void       strata_notes_view_add      (StrataNotesView *self);

G_END_DECLS
