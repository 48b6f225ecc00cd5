/* strata-call-tree-view.c: the merged call tree as a table or flame graph
 *
 * The tree and its transforms are the session's StrataCallTreeHistory;
 * the view shows the tree it holds. Top Down or Bottom Up picks the tree;
 * Tree or Flame Graph how it is shown. A row or bar selects its method in
 * the profile and timeline.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-butterfly-view.h"
#include "strata-call-tree-view-private.h"
#include "strata-thread-picker.h"
#include "strata-threads-button.h"
#include "strata-flame-graph.h"

G_DEFINE_FINAL_TYPE (StrataCallTreeView, strata_call_tree_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_ROOT_AT_BOTTOM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The butterfly of the function selected; of the one shown before, the
 * one selected elsewhere, or the first one down the tree when no row is. */
static void
show_butterfly (StrataCallTreeView *self)
{
  StrataCallTree *top_down = strata_call_tree_history_get_top_down (self->history);
  guint32 code = strata_call_tree_view_selected_code (self);

  if (top_down == NULL || !strata_call_tree_history_is_ready (self->history))
    return;
  if (code == STRATA_CALL_TREE_NONE)
    code = strata_butterfly_view_get_code (STRATA_BUTTERFLY_VIEW (self->butterfly));
  if (code == STRATA_CALL_TREE_NONE)
    code = strata_session_get_selected_method (self->session);
  for (guint32 node = STRATA_CALL_TREE_ROOT; code == STRATA_CALL_TREE_NONE && strata_call_tree_get_n_children (top_down, node) > 0;)
    {
      node = strata_call_tree_get_first_child (top_down, node);
      if (strata_call_tree_get_thread (top_down, node) < 0)
        code = strata_call_tree_get_code (top_down, node);
    }
  if (code != STRATA_CALL_TREE_NONE)
    strata_butterfly_view_show (STRATA_BUTTERFLY_VIEW (self->butterfly), top_down, code);
}

static void
show_trees (StrataCallTreeView *self)
{
  StrataCallTreeState state = strata_call_tree_history_get_state (self->history);

  gtk_label_set_label (GTK_LABEL (self->status), state == STRATA_CALL_TREE_RESHAPING ? _("Reshaping the tree…")
                                                                                    : _("Merging the calls…"));
  gtk_widget_set_visible (self->status, state == STRATA_CALL_TREE_RESHAPING || state == STRATA_CALL_TREE_MERGING);
  strata_call_tree_view_fill_table (self);
  strata_call_tree_view_fill_flame (self);
  if (g_strcmp0 (gtk_stack_get_visible_child_name (GTK_STACK (self->stack)), "butterfly") == 0)
    show_butterfly (self);
}

static void
update_transform_bar (StrataCallTreeView *self)
{
  g_autofree char *text = strata_call_tree_history_dup_description (self->history);
  guint n_transforms;

  strata_call_tree_history_get_transforms (self->history, &n_transforms);
  /* While the tree is merged again, the transforms wait for it. */
  gtk_label_set_label (GTK_LABEL (self->transform_label), text != NULL ? text : "");
  gtk_widget_set_visible (self->transform_bar, text != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "calltree.pop-transform", n_transforms > 0);
}

/* The history's trees or transforms changed: the table and flame graph
 * show the tree anew. */
static void
history_changed_cb (StrataCallTreeView *self)
{
  update_transform_bar (self);
  show_trees (self);
}

static void
reveal_cb (StrataCallTreeView  *self,
           StrataCallTreePlace *place)
{
  strata_call_tree_view_reveal_place (self, place);
}

static StrataCallTreePlace *
place_func (gpointer data)
{
  return strata_call_tree_view_current_place (data);
}

static void
direction_toggled_cb (StrataCallTreeView *self)
{
  strata_call_tree_view_set_inverted (self, gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->bottom_up_button)));
}

static void
view_toggled_cb (GtkToggleButton    *button,
                 StrataCallTreeView *self)
{
  /* Each button of the group says so; the one turned on speaks. */
  if (!gtk_toggle_button_get_active (button))
    return;
  strata_call_tree_view_set_view (self, gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->flame_button)) ? "flame"
                                        : gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->butterfly_button)) ? "butterfly"
                                        : "tree");
}

static GtkWidget *
linked_pair (const char *first,
             const char *second,
             GtkWidget **second_button)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *a = gtk_toggle_button_new_with_mnemonic (first);
  GtkWidget *b = gtk_toggle_button_new_with_mnemonic (second);

  gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (b), GTK_TOGGLE_BUTTON (a));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (a), TRUE);
  gtk_widget_add_css_class (box, "linked");
  gtk_box_append (GTK_BOX (box), a);
  gtk_box_append (GTK_BOX (box), b);
  *second_button = b;
  return box;
}

static GtkWidget *
build_header (StrataCallTreeView *self)
{
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *views = linked_pair (_("T_ree"), _("_Flame Graph"), &self->flame_button);

  g_object_set (header, "margin-start", 6, "margin-end", 6, "margin-top", 6, "margin-bottom", 6, NULL);
  gtk_box_append (GTK_BOX (header), linked_pair (_("_Top Down"), _("_Bottom Up"), &self->bottom_up_button));
  self->butterfly_button = gtk_toggle_button_new_with_mnemonic (_("Butterfl_y"));
  gtk_widget_set_tooltip_text (self->butterfly_button,
                               _("The selected function’s callers above it and callees below it, over all its calls (B)"));
  gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (self->butterfly_button), GTK_TOGGLE_BUTTON (self->flame_button));
  gtk_box_append (GTK_BOX (views), self->butterfly_button);
  gtk_box_append (GTK_BOX (header), views);
  g_signal_connect_swapped (self->bottom_up_button, "toggled", G_CALLBACK (direction_toggled_cb), self);
  for (GtkWidget *button = gtk_widget_get_first_child (views); button != NULL; button = gtk_widget_get_next_sibling (button))
    g_signal_connect (button, "toggled", G_CALLBACK (view_toggled_cb), self);
  self->status = gtk_label_new (_("Merging the calls…"));
  gtk_widget_add_css_class (self->status, "dim-label");
  gtk_widget_set_hexpand (self->status, TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->status), 0);
  gtk_box_append (GTK_BOX (header), self->status);
  gtk_box_append (GTK_BOX (header), strata_call_tree_view_export_button_new ());
  return header;
}

static GtkWidget *
build_transform_bar (StrataCallTreeView *self)
{
  GtkWidget *pop = gtk_button_new_from_icon_name ("edit-undo-symbolic");

  self->transform_bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  g_object_set (self->transform_bar, "margin-start", 6, "margin-end", 6, "margin-bottom", 4, NULL);
  gtk_widget_set_tooltip_text (pop, _("Undo the Last Transform (Backspace)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (pop), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Undo the Last Transform"), -1);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (pop), "calltree.pop-transform");
  self->transform_label = gtk_label_new (NULL);
  gtk_label_set_ellipsize (GTK_LABEL (self->transform_label), PANGO_ELLIPSIZE_START);
  gtk_label_set_xalign (GTK_LABEL (self->transform_label), 0);
  gtk_widget_set_hexpand (self->transform_label, TRUE);
  gtk_box_append (GTK_BOX (self->transform_bar), pop);
  gtk_box_append (GTK_BOX (self->transform_bar), self->transform_label);
  gtk_widget_set_visible (self->transform_bar, FALSE);
  return self->transform_bar;
}

static void
strata_call_tree_view_dispose (GObject *object)
{
  StrataCallTreeView *self = STRATA_CALL_TREE_VIEW (object);

  if (self->history != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->history, self);
      strata_call_tree_history_set_place_func (self->history, NULL, NULL);
    }
  strata_call_tree_view_forget_baseline (self);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_pointer (&self->menu, gtk_widget_unparent);
  if (self->focus_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->focus_tick);
  self->focus_tick = 0;
  g_clear_object (&self->clock_columns);
  g_clear_object (&self->selection);
  g_clear_object (&self->history);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (strata_call_tree_view_parent_class)->dispose (object);
}

static void
strata_call_tree_view_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  StrataCallTreeView *self = STRATA_CALL_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_ROOT_AT_BOTTOM:
      g_value_set_boolean (value, strata_flame_graph_get_flame (STRATA_FLAME_GRAPH (self->flame)));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strata_call_tree_view_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  StrataCallTreeView *self = STRATA_CALL_TREE_VIEW (object);
  StrataFlameGraph *flame = STRATA_FLAME_GRAPH (self->flame);

  switch (prop_id)
    {
    case PROP_ROOT_AT_BOTTOM:
      if (strata_flame_graph_get_flame (flame) != g_value_get_boolean (value))
        {
          strata_flame_graph_set_flame (flame, g_value_get_boolean (value));
          g_object_notify_by_pspec (object, pspec);
        }
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strata_call_tree_view_class_init (StrataCallTreeViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = strata_call_tree_view_dispose;
  G_OBJECT_CLASS (klass)->get_property = strata_call_tree_view_get_property;
  G_OBJECT_CLASS (klass)->set_property = strata_call_tree_view_set_property;
  /**
   * StrataCallTreeView:root-at-bottom:
   *
   * Whether the flame graph is drawn as a flame, its root at the bottom,
   * or as an icicle hanging from the top.
   */
  properties[PROP_ROOT_AT_BOTTOM] =
    g_param_spec_boolean ("root-at-bottom", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (G_OBJECT_CLASS (klass), N_PROPS, properties);
  gtk_widget_class_install_property_action (widget_class, "calltree.root-at-bottom", "root-at-bottom");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  strata_call_tree_view_class_init_actions (widget_class);
  gtk_widget_class_set_css_name (widget_class, "calltreeview");
}

static void
strata_call_tree_view_init (StrataCallTreeView *self)
{
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_box_append (GTK_BOX (self->box), build_header (self));
  gtk_box_append (GTK_BOX (self->box), build_transform_bar (self));
  self->stack = gtk_stack_new ();
  gtk_widget_set_vexpand (self->stack, TRUE);
  gtk_stack_add_named (GTK_STACK (self->stack), strata_call_tree_view_build_tree_page (self), "tree");
  gtk_stack_add_named (GTK_STACK (self->stack), strata_call_tree_view_build_flame_page (self), "flame");
  gtk_box_append (GTK_BOX (self->box), self->stack);
  self->menu = strata_call_tree_view_build_menu (self);
  strata_call_tree_view_add_menu_gestures (self);
  gtk_widget_add_controller (self->column_view, strata_call_tree_view_hot_path_keys (self));
}

GtkWidget *
strata_call_tree_view_new (StrataSession *session)
{
  StrataCallTreeView *self;

  g_return_val_if_fail (STRATA_IS_SESSION (session), NULL);

  self = g_object_new (STRATA_TYPE_CALL_TREE_VIEW, NULL);
  self->session = g_object_ref (session);
  self->history = g_object_ref (strata_session_get_call_tree_history (session));
  strata_call_tree_history_set_place_func (self->history, place_func, self);
  g_signal_connect_swapped (self->history, "changed", G_CALLBACK (history_changed_cb), self);
  g_signal_connect_swapped (self->history, "reveal", G_CALLBACK (reveal_cb), self);
  g_signal_connect_object (session, "notify::clock", G_CALLBACK (show_trees), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "selected-item-changed", G_CALLBACK (strata_call_tree_view_selected_item_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::profile", G_CALLBACK (strata_call_tree_view_fill_flame), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::comparison", G_CALLBACK (strata_call_tree_view_comparison_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "names-changed", G_CALLBACK (show_trees), self, G_CONNECT_SWAPPED);
  self->butterfly = strata_butterfly_view_new (session);
  gtk_stack_add_named (GTK_STACK (self->stack), self->butterfly, "butterfly");
  strata_call_tree_history_set_inverted (self->history, FALSE);
  history_changed_cb (self);
  /* The tree's thread is picked here too, not only on the Profile tab:
   * after Top Down / Bottom Up and Tree / Flame Graph. */
  {
    GtkWidget *header = gtk_widget_get_first_child (self->box);
    GtkWidget *views = gtk_widget_get_next_sibling (gtk_widget_get_first_child (header));

    gtk_box_insert_child_after (GTK_BOX (header), strata_threads_button_new (session), views);
  }
  return GTK_WIDGET (self);
}

/* @view: "tree", "flame" or "butterfly" */
void
strata_call_tree_view_set_view (StrataCallTreeView *self,
                                const char         *view)
{
  GtkWidget *button;

  g_return_if_fail (STRATA_IS_CALL_TREE_VIEW (self));

  if (g_strcmp0 (view, "flame") != 0 && g_strcmp0 (view, "butterfly") != 0)
    view = "tree";
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), view);
  /* The row of a bar selected meanwhile, once the table is laid out. */
  if (g_str_equal (view, "tree"))
    strata_call_tree_view_focus_selected_row_soon (self);
  else if (g_str_equal (view, "butterfly"))
    show_butterfly (self);
  button = g_str_equal (view, "flame") ? self->flame_button
           : g_str_equal (view, "butterfly") ? self->butterfly_button
           : gtk_widget_get_prev_sibling (self->flame_button);
  if (!gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)))
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), TRUE);
}

GtkWidget *
strata_call_tree_view_get_butterfly (StrataCallTreeView *self)
{
  g_return_val_if_fail (STRATA_IS_CALL_TREE_VIEW (self), NULL);

  return self->butterfly;
}

void
strata_call_tree_view_set_inverted (StrataCallTreeView *self,
                                    gboolean            inverted)
{
  g_return_if_fail (STRATA_IS_CALL_TREE_VIEW (self));

  inverted = !!inverted;
  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->bottom_up_button)) != inverted)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->bottom_up_button), inverted);
  strata_call_tree_history_set_inverted (self->history, inverted);
}

gboolean
strata_call_tree_view_is_ready (StrataCallTreeView *self)
{
  g_return_val_if_fail (STRATA_IS_CALL_TREE_VIEW (self), FALSE);

  return strata_call_tree_history_is_ready (self->history);
}

StrataCallTree *
strata_call_tree_view_get_tree (StrataCallTreeView *self)
{
  g_return_val_if_fail (STRATA_IS_CALL_TREE_VIEW (self), NULL);

  return strata_call_tree_view_shown_tree (self);
}

/* Items are GtkTreeListRow of StrataCallNodeRow; for tests. */
GListModel *
strata_call_tree_view_get_model (StrataCallTreeView *self)
{
  g_return_val_if_fail (STRATA_IS_CALL_TREE_VIEW (self), NULL);

  return self->selection != NULL ? G_LIST_MODEL (self->selection) : NULL;
}

GtkWidget *
strata_call_tree_view_get_flame_graph (StrataCallTreeView *self)
{
  g_return_val_if_fail (STRATA_IS_CALL_TREE_VIEW (self), NULL);

  return self->flame;
}

void
strata_call_tree_view_apply_transform (StrataCallTreeView        *self,
                                       const StrataCallTransform *transform)
{
  g_return_if_fail (STRATA_IS_CALL_TREE_VIEW (self));

  strata_call_tree_history_apply (self->history, transform);
}

void
strata_call_tree_view_pop_transform (StrataCallTreeView *self)
{
  g_return_if_fail (STRATA_IS_CALL_TREE_VIEW (self));

  strata_call_tree_history_pop (self->history);
}
