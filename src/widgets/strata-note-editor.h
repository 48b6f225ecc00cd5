/* strata-note-editor.h: a popover to write or change a note
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-session.h"

G_BEGIN_DECLS

/* Called with the text written, never empty. */
typedef void (*StrataNoteEditorDone) (const char *text,
                                      gpointer    data);

GtkWidget *strata_note_editor_popup (GtkWidget            *parent,
                                     const GdkRectangle   *pointing_to,
                                     const char           *title,
                                     const char           *text,
                                     StrataNoteEditorDone  done,
                                     gpointer              data);
char      *strata_note_editor_describe_target (StrataSession        *session);

G_END_DECLS
