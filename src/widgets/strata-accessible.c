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

static void
collect_text (GtkWidget *widget,
              GString   *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget))
    g_string_append_printf (text, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  if (GTK_IS_EXPANDER (widget))
    g_string_append_printf (text, "%s\n", gtk_expander_get_label (GTK_EXPANDER (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (!GTK_IS_EXPANDER (widget) || child == gtk_expander_get_child (GTK_EXPANDER (widget)))
      collect_text (child, text);
}

/**
 * strata_accessible_dup_text:
 * @root: (nullable): a pane
 *
 * Returns: (transfer full): every line of text @root shows, in order, an
 *   expander's label but not its hidden child's; for tests and screen
 *   readers
 */
char *
strata_accessible_dup_text (GtkWidget *root)
{
  GString *text = g_string_new (NULL);

  if (root != NULL)
    collect_text (root, text);
  return g_string_free (text, FALSE);
}
