/* strata-field-grid.c: labelled values in a two-column grid
 *
 * The details pane and the summary show "Label  value" rows the same
 * way: the label dimmed and right-aligned, the value wrapped and, being
 * from the trace, clipped for display.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-field-grid.h"
#include "strata-units.h"

void
strata_field_grid_add (GtkGrid    *grid,
                       int         row,
                       const char *key,
                       const char *value,
                       gboolean    selectable)
{
  g_autofree char *clipped = NULL;
  GtkWidget *key_label = gtk_label_new (key);
  GtkWidget *value_label = gtk_label_new (strata_units_clip_for_display (value, &clipped));

  gtk_label_set_xalign (GTK_LABEL (key_label), 1);
  gtk_label_set_yalign (GTK_LABEL (key_label), 0);
  gtk_widget_add_css_class (key_label, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (value_label), 0);
  gtk_label_set_wrap (GTK_LABEL (value_label), TRUE);
  gtk_label_set_selectable (GTK_LABEL (value_label), selectable);
  gtk_widget_set_hexpand (value_label, TRUE);
  gtk_grid_attach (grid, key_label, 0, row, 1, 1);
  gtk_grid_attach (grid, value_label, 1, row, 1, 1);
}
