/* strata-field-grid.h: labelled values in a two-column grid
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void strata_field_grid_add (GtkGrid    *grid,
                            int         row,
                            const char *key,
                            const char *value,
                            gboolean    selectable);

G_END_DECLS
