/* strata-accessible.c
 *
 * GTK 4.8 names some widgets' inner parts after their type
 * ("GtkToggleButton", "GtkColumnListView", a notebook's "Tab"), and
 * that is what a screen reader says when they take the focus. These
 * helpers give those parts the name of what they belong to.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-accessible.h"

/**
 * strata_accessible_name_children:
 * @composite: a drop-down, menu button or column view
 * @label: its name
 *
 * Names @composite and its focusable direct children: the button inside
 * a drop-down or menu button, the list inside a column view.
 */
void
strata_accessible_name_children (GtkWidget  *composite,
                                 const char *label)
{
  gtk_accessible_update_property (GTK_ACCESSIBLE (composite), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  for (GtkWidget *child = gtk_widget_get_first_child (composite); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_BUTTON (child) || GTK_IS_LIST_VIEW (child))
      gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

/* An expander read by its title, not as "GtkExpander". */
GtkWidget *
strata_accessible_expander_new (const char *label)
{
  GtkWidget *expander = gtk_expander_new (label);

  gtk_accessible_update_property (GTK_ACCESSIBLE (expander), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  return expander;
}

/* A notebook page whose tab is read by its title, not as "Tab". */
void
strata_accessible_append_page (GtkNotebook *notebook,
                               GtkWidget   *child,
                               const char  *title)
{
  GtkWidget *tab_label = gtk_label_new (title);
  GtkWidget *tab;

  gtk_notebook_append_page (notebook, child, tab_label);
  tab = gtk_widget_get_parent (tab_label);
  if (tab != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (tab), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
}
