/* strata-test-gtk.h: helpers shared by the GTK test programs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-application.h"
#include "strata-window.h"

G_BEGIN_DECLS

gboolean           strata_test_init_gtk      (void);
void               strata_test_iterate_until (gboolean (*done) (gpointer),
                                              gpointer   data);
void               strata_test_wait_for_window (StrataWindow *window);
StrataApplication *strata_test_new_app       (void);

G_END_DECLS
