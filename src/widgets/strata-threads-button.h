/* strata-threads-button.h: the threads the call tree merges, one or several
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-session.h"

G_BEGIN_DECLS

#define STRATA_TYPE_THREADS_BUTTON (strata_threads_button_get_type ())

G_DECLARE_FINAL_TYPE (StrataThreadsButton, strata_threads_button, STRATA, THREADS_BUTTON, GtkWidget)

GtkWidget  *strata_threads_button_new       (StrataSession       *session);
const char *strata_threads_button_get_label (StrataThreadsButton *self);
void        strata_threads_button_set_checked (StrataThreadsButton *self,
                                               guint                thread,
                                               gboolean             checked);

G_END_DECLS
