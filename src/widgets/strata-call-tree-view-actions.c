/* strata-call-tree-view-actions.c: the call tree's transforms and export
 *
 * The transforms act on the selected row or bar, from the context menu
 * or Firefox Profiler's keys, and go to the session's
 * StrataCallTreeHistory; export writes the tree shown as CSV or TSV.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-call-node-row.h"
#include "strata-call-tree-view-private.h"
#include "strata-export-dialog.h"
#include "strata-flame-graph.h"
#include "strata-csv-export.h"

/* The node a transform is about: the row selected (or the flame graph's
 * bar, which is the same). */
static gboolean
target_node (StrataCallTreeView  *self,
             StrataCallTree     **tree,
             guint32             *node)
{
  GtkTreeListRow *row;
  g_autoptr(StrataCallNodeRow) item = NULL;

  row = self->selection != NULL ? gtk_single_selection_get_selected_item (self->selection) : NULL;
  if (row == NULL)
    return FALSE;
  item = gtk_tree_list_row_get_item (row);
  *tree = strata_call_node_row_get_tree (item);
  *node = strata_call_node_row_get_node (item);
  return TRUE;
}

/* Returns: the code of the row or bar selected, or STRATA_CALL_TREE_NONE */
guint32
strata_call_tree_view_selected_code (StrataCallTreeView *self)
{
  StrataCallTree *tree;
  guint32 node;

  if (!target_node (self, &tree, &node) || node == STRATA_CALL_TREE_ROOT || strata_call_tree_get_thread (tree, node) >= 0)
    return STRATA_CALL_TREE_NONE;
  return strata_call_tree_get_code (tree, node);
}

static void
butterfly_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  strata_call_tree_view_set_view (STRATA_CALL_TREE_VIEW (widget), "butterfly");
}

static void
transform_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  StrataCallTreeView *self = STRATA_CALL_TREE_VIEW (widget);
  StrataCallTransform transform = { 0, STRATA_CALL_TREE_NONE, STRATA_CALL_TREE_NONE, NULL, NULL, 0 };
  g_autofree char *prefix = NULL;
  StrataCallTree *tree;
  guint32 node;

  if (g_str_equal (action_name, "calltree.pop-transform"))
    {
      strata_call_tree_view_pop_transform (self);
      return;
    }
  if (!target_node (self, &tree, &node))
    return;
  transform.method = strata_call_tree_get_method (tree, node);
  if (g_str_equal (action_name, "calltree.focus-subtree"))
    {
      /* A node of the top-down tree only. */
      if (strata_call_tree_get_kind (tree) != STRATA_CALL_TREE_TOP_DOWN || node == STRATA_CALL_TREE_ROOT)
        return;
      transform.kind = STRATA_CALL_TRANSFORM_FOCUS_SUBTREE;
      transform.node = node;
      strata_call_tree_view_apply_transform (self, &transform);
      return;
    }
  if (transform.method == STRATA_CALL_TREE_NONE)
    return;
  if (g_str_equal (action_name, "calltree.focus-function"))
    transform.kind = STRATA_CALL_TRANSFORM_FOCUS_FUNCTION;
  else if (g_str_equal (action_name, "calltree.merge-function"))
    transform.kind = STRATA_CALL_TRANSFORM_MERGE_FUNCTION;
  else if (g_str_equal (action_name, "calltree.collapse-recursion"))
    transform.kind = STRATA_CALL_TRANSFORM_COLLAPSE_RECURSION;
  else if (g_str_equal (action_name, "calltree.drop-function"))
    transform.kind = STRATA_CALL_TRANSFORM_DROP_FUNCTION;
  else
    {
      if (!(prefix = strata_call_transform_dup_group (strata_call_tree_get_trace (tree), transform.method)))
        return;
      transform.kind = STRATA_CALL_TRANSFORM_COLLAPSE_PREFIX;
      transform.prefix = prefix;
    }
  strata_call_tree_view_apply_transform (self, &transform);
}

static void
popup_menu (StrataCallTreeView *self,
            GtkWidget          *over,
            double              x,
            double              y)
{
  graphene_point_t point;

  if (!gtk_widget_compute_point (over, GTK_WIDGET (self), &GRAPHENE_POINT_INIT (x, y), &point))
    return;
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &(GdkRectangle) { point.x, point.y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->menu));
}

/* The menu acts on the selection: the row right-clicked is selected
 * first, as in a file manager. */
static void
table_menu_cb (GtkGestureClick    *gesture,
               int                 n_press,
               double              x,
               double              y,
               StrataCallTreeView *self)
{
  guint position = strata_call_tree_view_row_at (self, x, y);

  if (position == GTK_INVALID_LIST_POSITION || self->selection == NULL)
    return;
  gtk_single_selection_set_selected (self->selection, position);
  popup_menu (self, self->column_view, x, y);
}

static void
flame_menu_cb (GtkGestureClick    *gesture,
               int                 n_press,
               double              x,
               double              y,
               StrataCallTreeView *self)
{
  guint32 node = strata_flame_graph_node_at (STRATA_FLAME_GRAPH (self->flame), x, y);

  if (node == STRATA_CALL_TREE_NONE)
    return;
  /* The menu acts on the selection: the bar's row. */
  strata_flame_graph_set_selected (STRATA_FLAME_GRAPH (self->flame), node);
  /* The bar's tooltip would come back over the menu. */
  gtk_widget_set_has_tooltip (self->flame, FALSE);
  popup_menu (self, self->flame, x, y);
}

static void
menu_closed_cb (StrataCallTreeView *self)
{
  gtk_widget_set_has_tooltip (self->flame, TRUE);
}

GtkWidget *
strata_call_tree_view_build_menu (StrataCallTreeView *self)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) focus = g_menu_new ();
  g_autoptr(GMenu) reshape = g_menu_new ();
  GtkWidget *popover;

  g_menu_append (focus, _("Callers and Callees (_Butterfly)"), "calltree.butterfly");
  g_menu_append (focus, _("Focus on _Function"), "calltree.focus-function");
  g_menu_append (focus, _("Focus on _Subtree"), "calltree.focus-subtree");
  g_menu_append (reshape, _("_Merge Function"), "calltree.merge-function");
  g_menu_append (reshape, _("Collapse _Recursion"), "calltree.collapse-recursion");
  g_menu_append (reshape, _("Collapse _Package or Script"), "calltree.collapse-package");
  g_menu_append (reshape, _("_Drop Calls of Function"), "calltree.drop-function");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (focus));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (reshape));
  popover = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu));
  gtk_widget_set_parent (popover, GTK_WIDGET (self));
  gtk_popover_set_has_arrow (GTK_POPOVER (popover), FALSE);
  gtk_widget_set_halign (popover, GTK_ALIGN_START);
  g_signal_connect_swapped (popover, "closed", G_CALLBACK (menu_closed_cb), self);
  return popover;
}

/**
 * strata_call_tree_view_export:
 *
 * Writes the tree on show (top down or bottom up, after its transforms),
 * every node, as CSV (TSV for a .tsv name).
 */
gboolean
strata_call_tree_view_export (StrataCallTreeView  *self,
                              GFile               *file,
                              GError             **error)
{
  StrataCallTree *tree = strata_call_tree_view_shown_tree (self);
  g_autoptr(StrataCsvWriter) writer = NULL;

  if (tree == NULL)
    return g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("There is no call tree to export")), FALSE;
  if ((writer = strata_csv_writer_new (file, error)) == NULL)
    return FALSE;
  return strata_csv_export_call_tree (writer, tree, error) && strata_csv_writer_finish (writer, error);
}

static gboolean
export_cb (GtkWidget  *widget,
           GFile      *file,
           gpointer    data,
           GError    **error)
{
  return strata_call_tree_view_export (STRATA_CALL_TREE_VIEW (widget), file, error);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  StrataCallTreeView *self = STRATA_CALL_TREE_VIEW (widget);
  StrataTrace *trace = strata_session_get_trace (self->session);
  g_autofree char *name = strata_csv_export_name (trace,
                                                    strata_call_tree_history_get_inverted (self->history) ? "bottom-up" : "call-tree");

  strata_export_dialog_run (widget, _("Export the Call Tree"), name, export_cb, NULL);
}

GtkWidget *
strata_call_tree_view_export_button_new (void)
{
  GtkWidget *button = gtk_button_new_from_icon_name ("document-save-as-symbolic");

  gtk_widget_set_tooltip_text (button, _("Export the Call Tree as CSV or TSV"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Export the Call Tree"), -1);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "calltree.export");
  return button;
}

/* Right-click on a row or bar: the transforms' menu. */
void
strata_call_tree_view_add_menu_gestures (StrataCallTreeView *self)
{
  GtkGesture *table_click = gtk_gesture_click_new ();
  GtkGesture *flame_click = gtk_gesture_click_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (table_click), GDK_BUTTON_SECONDARY);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (flame_click), GDK_BUTTON_SECONDARY);
  g_signal_connect (table_click, "pressed", G_CALLBACK (table_menu_cb), self);
  g_signal_connect (flame_click, "pressed", G_CALLBACK (flame_menu_cb), self);
  gtk_widget_add_controller (self->column_view, GTK_EVENT_CONTROLLER (table_click));
  gtk_widget_add_controller (self->flame, GTK_EVENT_CONTROLLER (flame_click));
}

void
strata_call_tree_view_class_init_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_add_binding (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, strata_call_tree_view_copy_path, NULL);
  gtk_widget_class_install_action (widget_class, "calltree.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "calltree.butterfly", NULL, butterfly_action);
  gtk_widget_class_install_action (widget_class, "calltree.focus-function", NULL, transform_action);
  gtk_widget_class_install_action (widget_class, "calltree.focus-subtree", NULL, transform_action);
  gtk_widget_class_install_action (widget_class, "calltree.merge-function", NULL, transform_action);
  gtk_widget_class_install_action (widget_class, "calltree.collapse-recursion", NULL, transform_action);
  gtk_widget_class_install_action (widget_class, "calltree.collapse-package", NULL, transform_action);
  gtk_widget_class_install_action (widget_class, "calltree.drop-function", NULL, transform_action);
  gtk_widget_class_install_action (widget_class, "calltree.pop-transform", NULL, transform_action);
  /* Firefox Profiler's keys, where they do not clash with the window's:
   * its C (collapse resource) is the timeline's Compact here, so P
   * (package) collapses. F focuses on the selection in both. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F, GDK_SHIFT_MASK, "calltree.focus-function", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, 0, "calltree.focus-subtree", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_m, 0, "calltree.merge-function", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, 0, "calltree.collapse-recursion", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_p, 0, "calltree.collapse-package", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "calltree.pop-transform", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_b, 0, "calltree.butterfly", NULL);
}
