/* strata-accessible.h: names for the parts GTK 4.8 leaves unnamed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void       strata_accessible_name_children (GtkWidget   *composite,
                                            const char  *label);
GtkWidget *strata_accessible_expander_new  (const char  *label);
void       strata_accessible_append_page   (GtkNotebook *notebook,
                                            GtkWidget   *child,
                                            const char  *title);
char      *strata_accessible_dup_text      (GtkWidget   *root);

G_END_DECLS
