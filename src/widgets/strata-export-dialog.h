/* strata-export-dialog.h: the save dialog every table's Export opens
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Writes the table to @file; FALSE with @error set when it could not. */
typedef gboolean (*StrataExportFunc) (GtkWidget  *widget,
                                      GFile      *file,
                                      gpointer    data,
                                      GError    **error);

void strata_export_dialog_run (GtkWidget        *widget,
                               const char       *title,
                               const char       *initial_name,
                               StrataExportFunc  export,
                               gpointer          data);

void strata_export_dialog_run_full (GtkWidget        *widget,
                                    const char       *title,
                                    const char       *initial_name,
                                    StrataExportFunc  export,
                                    gpointer          data,
                                    GDestroyNotify    destroy);

G_END_DECLS
