/* strata-thread-picker.h: the choice of the thread whose calls a panel
 * shows, or all of them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-session.h"

G_BEGIN_DECLS

GtkWidget *strata_thread_picker_new  (StrataSession *session);
void       strata_thread_picker_fill (GtkStringList *names,
                                      GArray        *indexes,
                                      StrataTrace   *trace);

G_END_DECLS
