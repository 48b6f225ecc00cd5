/* strata-call-tree-view-flame.c: the call tree as a flame graph
 *
 * The tree shown drawn as bars, with a breadcrumb of the bar zoomed into,
 * a search that highlights methods and, against a baseline, the
 * differential colouring of each path's change.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-call-tree-match.h"
#include "strata-call-tree-view-private.h"
#include "strata-flame-graph.h"
#include "strata-units.h"

static void
update_breadcrumb (StrataCallTreeView *self)
{
  StrataFlameGraph *flame = STRATA_FLAME_GRAPH (self->flame);
  StrataCallTree *tree = strata_flame_graph_get_tree (flame);
  guint32 zoom = strata_flame_graph_get_zoom (flame);
  g_autofree char *path = NULL;
  g_autofree char *clipped = NULL;

  gtk_widget_set_sensitive (self->zoom_out_button, tree != NULL && zoom != STRATA_CALL_TREE_ROOT);
  if (tree == NULL || zoom == STRATA_CALL_TREE_ROOT)
    {
      gtk_label_set_label (GTK_LABEL (self->breadcrumb), _("All threads"));
      return;
    }
  path = strata_call_tree_dup_display_path (tree, zoom, " › ");
  gtk_label_set_label (GTK_LABEL (self->breadcrumb), strata_units_clip_for_display (path, &clipped));
}

static void
zoom_out_cb (StrataCallTreeView *self)
{
  StrataFlameGraph *flame = STRATA_FLAME_GRAPH (self->flame);
  StrataCallTree *tree = strata_flame_graph_get_tree (flame);

  if (tree != NULL && strata_flame_graph_get_zoom (flame) != STRATA_CALL_TREE_ROOT)
    strata_flame_graph_zoom_to (flame, strata_call_tree_get_parent (tree, strata_flame_graph_get_zoom (flame)));
}

static void
bar_activated_cb (StrataCallTreeView *self,
                  guint               node)
{
  StrataCallTree *tree = strata_flame_graph_get_tree (STRATA_FLAME_GRAPH (self->flame));
  guint32 method = tree != NULL ? strata_call_tree_get_method (tree, node) : STRATA_CALL_TREE_NONE;

  if (method != STRATA_CALL_TREE_NONE)
    strata_session_set_selected_method (self->session, method);
}

static void
search_changed_cb (StrataCallTreeView *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  StrataFlameGraph *flame = STRATA_FLAME_GRAPH (self->flame);
  g_autofree char *share = NULL;

  strata_flame_graph_set_search (flame, text);
  if (*text != '\0')
    /* Translators: the share of the time spent under the frames matching a search */
    share = g_strdup_printf (_("%.1f%% of the time under matches"), 100 * strata_flame_graph_get_search_share (flame));
  gtk_label_set_label (GTK_LABEL (self->search_share), share ? share : "");
}

static void
give_flame_baseline (StrataCallTreeView *self)
{
  StrataComparison *comparison = strata_session_get_comparison (self->session);
  StrataCallTree *tree = strata_call_tree_view_shown_tree (self);
  guint32 *match = g_memdup2 (self->baseline_match, MAX (strata_call_tree_get_n_nodes (tree), 1) * sizeof (guint32));

  strata_flame_graph_set_baseline (STRATA_FLAME_GRAPH (self->flame), comparison, self->baseline_tree, match);
}

static void
baseline_matched_cb (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(StrataCallTreeView) self = user_data;
  g_autofree guint32 *match = NULL;
  g_autoptr(StrataCallTree) baseline = strata_call_tree_match_baseline_finish (result, &match, NULL);

  if (baseline == NULL)
    return;  /* cancelled: another tree is shown, or comparing stopped */
  g_clear_object (&self->baseline_cancellable);
  g_set_object (&self->baseline_tree, baseline);
  g_free (self->baseline_match);
  self->baseline_match = g_steal_pointer (&match);
  if (strata_call_tree_view_shown_tree (self) == self->matched_tree)
    give_flame_baseline (self);
}

void
strata_call_tree_view_forget_baseline (StrataCallTreeView *self)
{
  if (self->baseline_cancellable != NULL)
    g_cancellable_cancel (self->baseline_cancellable);
  g_clear_object (&self->baseline_cancellable);
  g_clear_object (&self->baseline_tree);
  g_clear_pointer (&self->baseline_match, g_free);
  g_clear_object (&self->matched_tree);
}

/* With a baseline to compare with, the flame graph is coloured by the
 * change of each path's self time (top down; bottom-up trees grow their
 * nodes as they open, so they keep the method colours). */
static void
update_differential (StrataCallTreeView *self)
{
  StrataComparison *comparison = strata_session_get_comparison (self->session);
  StrataCallTree *tree = strata_call_tree_view_shown_tree (self);
  gboolean comparing = comparison != NULL && strata_comparison_get_kind (comparison) == STRATA_COMPARISON_PROFILE;
  const StrataCallTransform *transforms;
  guint n_transforms;

  /* Several threads merged have no one baseline thread to match. */
  gboolean several = strata_call_tree_history_get_n_threads (self->history) > 1;

  gtk_widget_set_visible (self->diff_button, comparing);
  gtk_widget_set_sensitive (self->diff_button, !strata_call_tree_history_get_inverted (self->history) && !several);
  if (!comparing || tree == NULL || strata_call_tree_history_get_inverted (self->history) || several ||
      !gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->diff_button)))
    {
      strata_call_tree_view_forget_baseline (self);
      strata_flame_graph_set_baseline (STRATA_FLAME_GRAPH (self->flame), NULL, NULL, NULL);
      return;
    }
  if (tree == self->matched_tree)
    {
      if (self->baseline_tree != NULL)
        give_flame_baseline (self);
      return;
    }
  strata_call_tree_view_forget_baseline (self);
  self->matched_tree = g_object_ref (tree);
  self->baseline_cancellable = g_cancellable_new ();
  transforms = strata_call_tree_history_get_transforms (self->history, &n_transforms);
  strata_call_tree_match_baseline_async (comparison, tree, strata_call_tree_history_get_thread (self->history),
                                         transforms, n_transforms,
                                         self->baseline_cancellable, baseline_matched_cb, g_object_ref (self));
}

void
strata_call_tree_view_comparison_changed (StrataCallTreeView *self)
{
  strata_call_tree_view_forget_baseline (self);
  update_differential (self);
}

void
strata_call_tree_view_fill_flame (StrataCallTreeView *self)
{
  StrataFlameGraph *flame = STRATA_FLAME_GRAPH (self->flame);

  strata_flame_graph_set_clock (flame, strata_session_get_clock (self->session));
  strata_flame_graph_set_colors (flame, strata_session_get_colors (self->session));
  strata_flame_graph_set_tree (flame, strata_call_tree_view_shown_tree (self));
  update_differential (self);
  search_changed_cb (self);
  update_breadcrumb (self);
  /* A table made anew selects the bar's row again. */
  strata_call_tree_view_sync_bar (self);
}

/* Zooms the flame graph into the bar down @codes, or as far down them as
 * its tree goes. */
void
strata_call_tree_view_zoom_along (StrataCallTreeView *self,
                                  const GArray       *codes)
{
  StrataFlameGraph *flame = STRATA_FLAME_GRAPH (self->flame);
  StrataCallTree *tree = strata_flame_graph_get_tree (flame);
  guint32 node = STRATA_CALL_TREE_NONE;

  if (tree == NULL)
    return;
  for (guint n = codes->len; n > 0 && node == STRATA_CALL_TREE_NONE; n--)
    node = strata_call_tree_find_codes (tree, (const guint32 *) codes->data, n);
  strata_flame_graph_zoom_to (flame, node != STRATA_CALL_TREE_NONE ? node : STRATA_CALL_TREE_ROOT);
}

GtkWidget *
strata_call_tree_view_build_flame_page (StrataCallTreeView *self)
{
  GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *scroller = gtk_scrolled_window_new ();

  self->flame_bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  g_object_set (self->flame_bar, "margin-start", 6, "margin-end", 6, "margin-bottom", 4, NULL);
  self->zoom_out_button = gtk_button_new_from_icon_name ("go-up-symbolic");
  gtk_widget_set_tooltip_text (self->zoom_out_button, _("Zoom Out to the Caller"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->zoom_out_button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Zoom Out to the Caller"), -1);
  g_signal_connect_swapped (self->zoom_out_button, "clicked", G_CALLBACK (zoom_out_cb), self);
  self->breadcrumb = gtk_label_new (NULL);
  gtk_label_set_ellipsize (GTK_LABEL (self->breadcrumb), PANGO_ELLIPSIZE_START);
  gtk_label_set_xalign (GTK_LABEL (self->breadcrumb), 0);
  gtk_widget_set_hexpand (self->breadcrumb, TRUE);
  self->search_entry = gtk_search_entry_new ();
  g_object_set (self->search_entry, "placeholder-text", _("Highlight Methods"), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->search_entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Highlight Methods"), -1);
  g_signal_connect_swapped (self->search_entry, "search-changed", G_CALLBACK (search_changed_cb), self);
  self->search_share = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->search_share, "dim-label");
  gtk_box_append (GTK_BOX (self->flame_bar), self->zoom_out_button);
  gtk_box_append (GTK_BOX (self->flame_bar), self->breadcrumb);
  self->diff_button = gtk_toggle_button_new_with_mnemonic (_("_Differential"));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->diff_button), TRUE);
  gtk_widget_set_visible (self->diff_button, FALSE);
  gtk_widget_set_tooltip_text (self->diff_button,
                               _("Colour each frame by how its self time changed from the baseline: red slower, blue faster"));
  g_signal_connect_swapped (self->diff_button, "toggled", G_CALLBACK (update_differential), self);
  gtk_box_append (GTK_BOX (self->flame_bar), self->search_share);
  gtk_box_append (GTK_BOX (self->flame_bar), self->search_entry);
  gtk_box_append (GTK_BOX (self->flame_bar), self->diff_button);
  {
    GtkWidget *root_at_bottom = gtk_toggle_button_new_with_mnemonic (_("Root at _Bottom"));

    gtk_widget_set_tooltip_text (root_at_bottom, _("Draw a flame, its root at the bottom; else an icicle, hanging from the top"));
    gtk_actionable_set_action_name (GTK_ACTIONABLE (root_at_bottom), "calltree.root-at-bottom");
    gtk_box_append (GTK_BOX (self->flame_bar), root_at_bottom);
  }
  self->flame = strata_flame_graph_new ();
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->flame), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Flame graph"), -1);
  g_signal_connect_object (self->flame, "notify::zoom", G_CALLBACK (update_breadcrumb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->flame, "notify::selected", G_CALLBACK (strata_call_tree_view_sync_bar), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->flame, "node-activated", G_CALLBACK (bar_activated_cb), self, G_CONNECT_SWAPPED);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->flame);
  /* The graph scrolls to its selected bar; as a whole, it is taller than
   * the window, and scrolling to it would go to its end. */
  gtk_viewport_set_scroll_to_focus (GTK_VIEWPORT (gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller))), FALSE);
  /* The graph draws only what the window shows: scrolled, it draws again. */
  g_signal_connect_object (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)), "value-changed",
                           G_CALLBACK (gtk_widget_queue_draw), self->flame, G_CONNECT_SWAPPED);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (page), self->flame_bar);
  gtk_box_append (GTK_BOX (page), scroller);
  return page;
}
