/* strata-application.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define STRATA_TYPE_APPLICATION (strata_application_get_type ())

G_DECLARE_FINAL_TYPE (StrataApplication, strata_application, STRATA, APPLICATION, GtkApplication)

StrataApplication *strata_application_new             (void);
int                strata_application_get_exit_status (StrataApplication *self);
void               strata_application_quit_with_status (StrataApplication *self,
                                                        int                status);

G_END_DECLS
