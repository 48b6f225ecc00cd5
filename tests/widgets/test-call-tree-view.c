/* test-call-tree-view.c: the call tree and flame graph in the window: keys, transforms, selection, zoom
 *
 * The real window, driven through GApplication::open, drops, keys and
 * actions under a (virtual) X display.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "strata-application.h"
#include "strata-heap-row.h"
#include "strata-dominators-view.h"
#include "strata-duplicates-view.h"
#include "strata-heap-object-list.h"
#include "strata-heap-object-row.h"
#include "strata-heap-view-private.h"
#include "hprof-writer.h"
#include "strata-call-node-row.h"
#include "strata-butterfly-view.h"
#include "strata-call-tree-view.h"
#include "strata-calls-view.h"
#include "strata-compare-view.h"
#include "strata-flame-graph.h"
#include "strata-flame-render.h"
#include "strata-import-banner-private.h"
#include "strata-profile-view-private.h"
#include "strata-screenshot.h"
#include "strata-search-bar.h"
#include "strata-site-row.h"
#include "strata-sites-view-private.h"
#include "strata-test-gtk.h"
#include "strata-test-util.h"
#include "strata-window-private.h"
#include "strata-timeline-private.h"
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

static char *
row_name (GListModel *model,
          guint       position)
{
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, position);
  g_autoptr(StrataCallNodeRow) item = gtk_tree_list_row_get_item (row);

  return strata_call_node_row_dup_name (item);
}

/* "*" typed on a row of the call tree opens its hottest path, several
 * levels down, not only the one level the row's expander would. The key
 * is the X server's, typed by xdotool after a click on the row. */
static void
test_window_call_tree_hot_path_key (void)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  StrataApplication *app;
  StrataWindow *window;
  StrataCallTreeView *view;
  GListModel *model;
  GtkWidget *expander;
  guint before;

  if (!strata_test_can_drive_pointer (xdotool))
    return;
  app = strata_test_new_app ();
  window = strata_test_open_call_tree_sample (app);
  gtk_window_set_title (GTK_WINDOW (window), "strata-hot-path-test");
  view = STRATA_CALL_TREE_VIEW (window->call_tree_view);
  while ((expander = strata_test_find_mapped (GTK_WIDGET (view), GTK_TYPE_TREE_EXPANDER)) == NULL ||
         gtk_widget_get_width (expander) < 100)
    g_main_context_iteration (NULL, TRUE);
  model = strata_call_tree_view_get_model (view);
  before = g_list_model_get_n_items (model);
  /* The first row's name, right of its arrow. */
  strata_test_click_widget (xdotool, window, expander, 80, gtk_widget_get_height (expander) / 2.0, "1");
  strata_test_run_xdotool ((const char *[]) { xdotool, "key", "asterisk", NULL });
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model)), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (model), >, before + 3);
  {
    g_autoptr(GtkTreeListRow) deep = g_list_model_get_item (model, 4);

    g_assert_cmpuint (gtk_tree_list_row_get_depth (deep), ==, 4);
  }
  strata_test_finish_app (app);
}

/* The path of the bar the flame graph is zoomed into. */
static char *
zoom_path (StrataFlameGraph *flame)
{
  return strata_call_tree_dup_path (strata_flame_graph_get_tree (flame), strata_flame_graph_get_zoom (flame), "\n");
}

/* The selected bar's path, or "" for none. */
static char *
selected_bar_path (StrataFlameGraph *flame)
{
  guint32 node = strata_flame_graph_get_selected (flame);

  if (node == STRATA_CALL_TREE_NONE)
    return g_strdup ("");
  return strata_call_tree_dup_path (strata_flame_graph_get_tree (flame), node, "\n");
}

/* The flame graph by keyboard, typed by xdotool after a click on a bar:
 * the arrows move the selection (the table's row with it), a transform's
 * key acts on the bar, Escape zooms out. */
static void
test_window_flame_graph_keys (void)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  g_autofree char *merged = NULL, *expected = NULL, *row_path = NULL, *bar_path = NULL;
  StrataApplication *app;
  StrataWindow *window;
  StrataCallTreeView *view;
  StrataFlameGraph *flame;
  StrataCallTree *tree;
  guint32 top, callee, next;

  if (!strata_test_can_drive_pointer (xdotool))
    return;
  app = strata_test_new_app ();
  window = strata_test_open_call_tree_sample (app);
  gtk_window_set_title (GTK_WINDOW (window), "strata-flame-keys-test");
  view = STRATA_CALL_TREE_VIEW (window->call_tree_view);
  flame = STRATA_FLAME_GRAPH (strata_call_tree_view_get_flame_graph (view));
  strata_window_show_call_tree (window, "flame");
  while (!gtk_widget_get_mapped (GTK_WIDGET (flame)) || gtk_widget_get_width (GTK_WIDGET (flame)) < 400)
    g_main_context_iteration (NULL, TRUE);
  tree = strata_flame_graph_get_tree (flame);
  top = strata_call_tree_get_first_child (tree, STRATA_CALL_TREE_ROOT);
  g_assert_cmpuint (strata_call_tree_get_n_children (tree, top), >, 1);
  /* The widest callee is the first, children being ordered by total. */
  callee = strata_call_tree_get_first_child (tree, top);
  next = callee + 1;

  /* The icicle's second row, at its left: the heaviest top-level bar. */
  strata_test_click_widget (xdotool, window, GTK_WIDGET (flame), 4, STRATA_FLAME_ROW_HEIGHT * 1.5, "1");
  g_assert_cmpuint (strata_flame_graph_get_selected (flame), ==, top);
  g_assert_cmpuint (strata_flame_graph_get_zoom (flame), ==, top);
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (flame)));

  strata_test_run_xdotool ((const char *[]) { xdotool, "key", "Down", NULL });
  g_assert_cmpuint (strata_flame_graph_get_selected (flame), ==, callee);
  strata_test_run_xdotool ((const char *[]) { xdotool, "key", "Right", NULL });
  g_assert_cmpuint (strata_flame_graph_get_selected (flame), ==, next);
  /* The table's row is the bar's. */
  row_path = strata_call_tree_view_dup_selected_path (view);
  bar_path = selected_bar_path (flame);
  g_assert_cmpstr (row_path, ==, bar_path);
  strata_test_run_xdotool ((const char *[]) { xdotool, "key", "Left", "Up", NULL });
  g_assert_cmpuint (strata_flame_graph_get_selected (flame), ==, top);
  strata_test_run_xdotool ((const char *[]) { xdotool, "key", "Down", NULL });

  /* "m" merges the selected bar's function: the selection goes to its
   * caller, the zoom stays. */
  {
    g_autofree char *top_name = strata_call_tree_dup_name (tree, top);

    expected = g_strdup (top_name);
  }
  strata_test_run_xdotool ((const char *[]) { xdotool, "key", "m", NULL });
  strata_test_iterate_until (strata_test_call_tree_ready, view);
  g_assert_true (strata_flame_graph_get_tree (flame) != tree);
  merged = selected_bar_path (flame);
  g_assert_cmpstr (merged, ==, expected);
  {
    g_autofree char *zoomed = zoom_path (flame);

    g_assert_cmpstr (zoomed, ==, expected);
  }
  strata_test_run_xdotool ((const char *[]) { xdotool, "key", "BackSpace", NULL });
  strata_test_iterate_until (strata_test_call_tree_ready, view);
  g_assert_true (strata_flame_graph_get_tree (flame) == tree);
  g_assert_cmpuint (strata_flame_graph_get_selected (flame), ==, callee);

  strata_test_run_xdotool ((const char *[]) { xdotool, "key", "Escape", NULL });
  g_assert_cmpuint (strata_flame_graph_get_zoom (flame), ==, STRATA_CALL_TREE_ROOT);

  /* Root at the bottom, Up goes away from it, to a callee. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "calltree.root-at-bottom", NULL));
  g_assert_true (strata_flame_graph_get_flame (flame));
  g_assert_cmpuint (strata_call_tree_get_n_children (tree, callee), >, 0);
  strata_test_run_xdotool ((const char *[]) { xdotool, "key", "Up", NULL });
  g_assert_cmpuint (strata_call_tree_get_parent (tree, strata_flame_graph_get_selected (flame)), ==, callee);
  strata_test_run_xdotool ((const char *[]) { xdotool, "key", "Down", "Down", NULL });
  g_assert_cmpuint (strata_flame_graph_get_selected (flame), ==, top);
  strata_test_finish_app (app);
}

/* The mapped expander of row @position under @widget, or NULL. */
static GtkWidget *
expander_of_row (GtkWidget *widget,
                 guint      position)
{
  if (GTK_IS_TREE_EXPANDER (widget) && gtk_widget_get_mapped (widget))
    {
      GtkTreeListRow *row = gtk_tree_expander_get_list_row (GTK_TREE_EXPANDER (widget));

      return row != NULL && gtk_tree_list_row_get_position (row) == position ? widget : NULL;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = expander_of_row (child, position);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A right-click on a row selects it before the menu opens, so the menu's
 * transforms act on the row clicked, not on one selected before. The
 * click lands in the Total column, away from the name. */
static void
test_window_call_tree_right_click (void)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  StrataApplication *app;
  StrataWindow *window;
  StrataCallTreeView *view;
  GListModel *model;
  GtkWidget *expander;

  if (!strata_test_can_drive_pointer (xdotool))
    return;
  app = strata_test_new_app ();
  window = strata_test_open_call_tree_sample (app);
  gtk_window_set_title (GTK_WINDOW (window), "strata-right-click-test");
  view = STRATA_CALL_TREE_VIEW (window->call_tree_view);
  model = strata_call_tree_view_get_model (view);
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (model), 0);
  while ((expander = expander_of_row (GTK_WIDGET (view), 2)) == NULL || gtk_widget_get_width (expander) < 100)
    g_main_context_iteration (NULL, TRUE);
  strata_test_click_widget (xdotool, window, expander, gtk_widget_get_width (expander) + 60, gtk_widget_get_height (expander) / 2.0, "3");
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model)), ==, 2);
  /* The menu holds the pointer until it is closed. */
  strata_test_run_xdotool ((const char *[]) { xdotool, "key", "Escape", NULL });
  strata_test_finish_app (app);
}

/* The titles of the call tree table's columns on show, joined by "|". */
static char *
call_tree_column_titles (StrataCallTreeView *view)
{
  GtkWidget *column_view = strata_test_find_widget (GTK_WIDGET (view), GTK_TYPE_COLUMN_VIEW, NULL);
  GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (column_view));
  GString *titles = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (gtk_column_view_column_get_visible (column))
        g_string_append_printf (titles, "%s%s", titles->len > 0 ? "|" : "", gtk_column_view_column_get_title (column));
    }
  return g_string_free (titles, FALSE);
}

/* The call tree's table has total and self time and their shares on
 * each clock of the trace, named by clock when there are two, as the
 * profile's columns are. */
static void
test_window_call_tree_columns (void)
{
  g_autofree char *one_clock = strata_test_write_events ("one-clock.json", 100, "load");
  g_autoptr(GFile) file = g_file_new_for_path (one_clock);
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window = strata_test_open_call_tree_sample (app);
  g_autofree char *dual = call_tree_column_titles (STRATA_CALL_TREE_VIEW (window->call_tree_view));
  g_autofree char *single = NULL;

  g_assert_cmpstr (dual, ==, "Method|Total Wall|Total % Wall|Self Wall|Self % Wall|"
                             "Total CPU|Total % CPU|Self CPU|Self % CPU|Calls");
  /* The headers' menu hides a clock's columns, but not both clocks'. */
  {
    GtkWidget *column_view = strata_test_find_widget (window->call_tree_view, GTK_TYPE_COLUMN_VIEW, NULL);
    g_autofree char *wall_only = NULL, *still = NULL;

    g_assert_true (gtk_widget_activate_action (column_view, "columns.show-clock-1", NULL));
    wall_only = call_tree_column_titles (STRATA_CALL_TREE_VIEW (window->call_tree_view));
    g_assert_cmpstr (wall_only, ==, "Method|Total Wall|Total % Wall|Self Wall|Self % Wall|Calls");
    g_assert_true (gtk_widget_activate_action (column_view, "columns.show-clock-0", NULL));
    still = call_tree_column_titles (STRATA_CALL_TREE_VIEW (window->call_tree_view));
    g_assert_cmpstr (still, ==, wall_only);
  }
  strata_test_finish_app (app);

  app = strata_test_new_app ();
  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = strata_test_only_window (app);
  strata_test_wait_for_window (window);
  strata_test_iterate_until (strata_test_call_tree_ready, window->call_tree_view);
  single = call_tree_column_titles (STRATA_CALL_TREE_VIEW (window->call_tree_view));
  g_assert_cmpstr (single, ==, "Method|Total|Total %|Self|Self %|Calls");
  strata_test_finish_app (app);
  g_unlink (one_clock);
}

/* The paths of the rows open in @model, a line each. */
static char *
open_rows (GListModel *model)
{
  GString *out = g_string_new (NULL);

  for (guint p = 0; p < g_list_model_get_n_items (model); p++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, p);
      g_autoptr(StrataCallNodeRow) item = gtk_tree_list_row_get_item (row);

      if (gtk_tree_list_row_get_expanded (row))
        {
          g_autofree char *path = strata_call_tree_dup_path (strata_call_node_row_get_tree (item),
                                                             strata_call_node_row_get_node (item), "/");

          g_string_append_printf (out, "%s\n", path);
        }
    }
  return g_string_free (out, FALSE);
}

/* Bars drawn by @graph at 1200 × 400. */
static guint
bars_drawn (GtkWidget *graph)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 400);
  cairo_t *cr = cairo_create (surface);
  guint n;

  strata_flame_graph_draw (STRATA_FLAME_GRAPH (graph), cr, 1200, 400);
  n = strata_flame_graph_draw_count (STRATA_FLAME_GRAPH (graph));
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return n;
}

/* The flame graph's zoom follows its calls across a transform and comes
 * back with a pop; the selection, the rows open and the zoom stay when
 * the tree is merged anew for a range. */
static void
test_window_call_tree_keeps_zoom (void)
{
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window = strata_test_open_call_tree_sample (app);
  StrataCallTreeView *view = STRATA_CALL_TREE_VIEW (window->call_tree_view);
  StrataFlameGraph *flame = STRATA_FLAME_GRAPH (strata_call_tree_view_get_flame_graph (view));
  StrataCallTree *tree = strata_call_tree_view_get_tree (view);
  StrataTrace *trace = strata_session_get_trace (window->session);
  guint32 first, second, third;
  g_autofree char *zoomed = NULL, *merged = NULL, *popped = NULL, *expected = NULL;
  g_autofree char *selected = NULL, *opened = NULL, *ranged = NULL, *ranged_opened = NULL, *ranged_zoom = NULL;

  first = strata_call_tree_get_first_child (tree, STRATA_CALL_TREE_ROOT);
  second = strata_call_tree_get_first_child (tree, first);
  third = strata_call_tree_get_first_child (tree, second);
  strata_window_show_call_tree (window, "flame");
  strata_flame_graph_zoom_to (flame, third);
  zoomed = zoom_path (flame);
  {
    StrataCallTransform merge = { STRATA_CALL_TRANSFORM_MERGE_FUNCTION, strata_call_tree_get_method (tree, second),
                                  STRATA_CALL_TREE_NONE, NULL, NULL, 0 };
    g_autofree char *first_name = strata_call_tree_dup_name (tree, first);
    g_autofree char *third_name = strata_call_tree_dup_name (tree, third);

    expected = g_strdup_printf ("%s\n%s", first_name, third_name);
    strata_call_tree_view_apply_transform (view, &merge);
  }
  strata_test_iterate_until (strata_test_call_tree_ready, view);
  g_assert_true (strata_flame_graph_get_tree (flame) != tree);
  merged = zoom_path (flame);
  g_assert_cmpstr (merged, ==, expected);
  strata_call_tree_view_pop_transform (view);
  strata_test_iterate_until (strata_test_call_tree_ready, view);
  g_assert_true (strata_flame_graph_get_tree (flame) == tree);
  popped = zoom_path (flame);
  g_assert_cmpstr (popped, ==, zoomed);

  /* Merged anew for the first nine tenths of the trace. */
  strata_window_show_call_tree (window, "tree");
  g_assert_true (strata_call_tree_view_reveal_node (view, third));
  selected = strata_call_tree_view_dup_selected_path (view);
  opened = open_rows (strata_call_tree_view_get_model (view));
  strata_session_set_selection_range (window->session, strata_trace_get_start (trace),
                                      strata_trace_get_start (trace) + (strata_trace_get_end (trace) - strata_trace_get_start (trace)) * 9 / 10);
  strata_session_set_range_only (window->session, TRUE);
  strata_test_iterate_until (strata_test_call_tree_ready, view);
  g_assert_true (strata_call_tree_view_get_tree (view) != tree);
  ranged = strata_call_tree_view_dup_selected_path (view);
  g_assert_cmpstr (ranged, ==, selected);
  ranged_opened = open_rows (strata_call_tree_view_get_model (view));
  g_assert_cmpstr (ranged_opened, ==, opened);
  ranged_zoom = zoom_path (flame);
  g_assert_cmpstr (ranged_zoom, ==, zoomed);

  /* Bottom up: zoomed into a caller's caller, then the caller merged
   * away; the zoom goes one level up the path, and back with the pop. */
  strata_call_tree_view_set_inverted (view, TRUE);
  strata_call_tree_view_set_view (view, "flame");
  strata_test_iterate_until (strata_test_call_tree_ready, view);
  {
    StrataCallTree *inverted = strata_flame_graph_get_tree (flame);
    guint32 root = strata_call_tree_get_first_child (inverted, STRATA_CALL_TREE_ROOT);
    guint32 caller = strata_call_tree_get_first_child (inverted, root);
    guint32 above = strata_call_tree_get_first_child (inverted, caller);
    StrataCallTransform merge = { STRATA_CALL_TRANSFORM_MERGE_FUNCTION, strata_call_tree_get_method (inverted, caller),
                                  STRATA_CALL_TREE_NONE, NULL, NULL, 0 };
    g_autofree char *up_zoomed = NULL, *up_merged = NULL, *up_popped = NULL, *up_expected = NULL;
    g_autofree char *root_name = strata_call_tree_dup_name (inverted, root);
    g_autofree char *above_name = strata_call_tree_dup_name (inverted, above);

    g_assert_cmpint (strata_call_tree_get_kind (inverted), ==, STRATA_CALL_TREE_BOTTOM_UP);
    g_assert_cmpuint (strata_call_tree_get_n_children (inverted, caller), >, 0);
    g_assert_cmpuint (merge.method, !=, strata_call_tree_get_method (inverted, root));
    g_assert_cmpuint (merge.method, !=, strata_call_tree_get_method (inverted, above));
    strata_flame_graph_zoom_to (flame, above);
    up_zoomed = zoom_path (flame);
    up_expected = g_strdup_printf ("%s\n%s", root_name, above_name);
    strata_call_tree_view_apply_transform (view, &merge);
    strata_test_iterate_until (strata_test_call_tree_ready, view);
    g_assert_true (strata_flame_graph_get_tree (flame) != inverted);
    up_merged = zoom_path (flame);
    g_assert_cmpstr (up_merged, ==, up_expected);
    strata_call_tree_view_pop_transform (view);
    strata_test_iterate_until (strata_test_call_tree_ready, view);
    up_popped = zoom_path (flame);
    g_assert_cmpstr (up_popped, ==, up_zoomed);
  }
  strata_test_finish_app (app);
}

/* The selection follows its calls across a transform (a frame merged
 * away: the same calls one level up), and popping the transform takes it
 * back to where it was. */
static void
test_window_call_tree_follows_selection (void)
{
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window = strata_test_open_call_tree_sample (app);
  StrataCallTreeView *view = STRATA_CALL_TREE_VIEW (window->call_tree_view);
  StrataCallTree *tree;
  guint32 first, second, third;
  g_autofree char *before = NULL, *merged = NULL, *popped = NULL, *expected = NULL;
  g_autofree char *opened_before = NULL, *opened_merged = NULL, *opened_popped = NULL;

  tree = strata_call_tree_view_get_tree (view);
  first = strata_call_tree_get_first_child (tree, STRATA_CALL_TREE_ROOT);
  second = strata_call_tree_get_first_child (tree, first);
  third = strata_call_tree_get_first_child (tree, second);
  g_assert_cmpuint (strata_call_tree_get_n_children (tree, second), >, 0);
  /* The last top-level row with children open too, away from the
   * selection's path. */
  {
    GListModel *model = strata_call_tree_view_get_model (view);
    guint p = g_list_model_get_n_items (model);
    gboolean opened = FALSE;

    while (!opened && p-- > 1)
      {
        g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, p);

        if (gtk_tree_list_row_is_expandable (row))
          {
            gtk_tree_list_row_set_expanded (row, TRUE);
            opened = TRUE;
          }
      }
    g_assert_true (opened);
  }
  g_assert_true (strata_call_tree_view_reveal_node (view, third));
  before = strata_call_tree_view_dup_selected_path (view);
  opened_before = open_rows (strata_call_tree_view_get_model (view));

  {
    StrataCallTransform merge = { STRATA_CALL_TRANSFORM_MERGE_FUNCTION, strata_call_tree_get_method (tree, second),
                                  STRATA_CALL_TREE_NONE, NULL, NULL, 0 };
    g_autofree char *first_name = strata_call_tree_dup_name (tree, first);
    g_autofree char *third_name = strata_call_tree_dup_name (tree, third);

    expected = g_strdup_printf ("%s\n%s", first_name, third_name);
    strata_call_tree_view_apply_transform (view, &merge);
  }
  strata_test_iterate_until (strata_test_call_tree_ready, view);
  merged = strata_call_tree_view_dup_selected_path (view);
  g_assert_cmpstr (merged, ==, expected);
  /* The rows open stay open: the merged frame's row is gone, the last
   * top-level row's is not. */
  opened_merged = open_rows (strata_call_tree_view_get_model (view));
  {
    g_auto(GStrv) lines = g_strsplit (opened_before, "\n", -1);

    g_assert_nonnull (strstr (opened_merged, lines[g_strv_length (lines) - 2]));
  }

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "calltree.pop-transform", NULL));
  strata_test_iterate_until (strata_test_call_tree_ready, view);
  popped = strata_call_tree_view_dup_selected_path (view);
  g_assert_cmpstr (popped, ==, before);
  opened_popped = open_rows (strata_call_tree_view_get_model (view));
  g_assert_cmpstr (opened_popped, ==, opened_before);

  /* Bottom up: the first root's first caller, then its caller merged
   * away: the root's caller's caller, one level up. */
  strata_window_show_call_tree (window, "bottom-up");
  strata_test_iterate_until (strata_test_call_tree_ready, view);
  {
    GListModel *model = strata_call_tree_view_get_model (view);
    g_autoptr(GtkTreeListRow) root = g_list_model_get_item (model, 0);
    g_autoptr(GtkTreeListRow) caller = NULL;
    g_autoptr(StrataCallNodeRow) caller_item = NULL;
    g_autofree char *up_before = NULL, *up_merged = NULL, *up_popped = NULL;
    StrataCallTree *inverted;
    StrataCallTransform merge = { STRATA_CALL_TRANSFORM_MERGE_FUNCTION, 0, STRATA_CALL_TREE_NONE, NULL, NULL, 0 };
    guint32 above;

    gtk_tree_list_row_set_expanded (root, TRUE);
    caller = g_list_model_get_item (model, 1);
    g_assert_cmpuint (gtk_tree_list_row_get_depth (caller), ==, 1);
    gtk_tree_list_row_set_expanded (caller, TRUE);
    caller_item = gtk_tree_list_row_get_item (caller);
    inverted = strata_call_node_row_get_tree (caller_item);
    g_assert_cmpuint (strata_call_tree_get_n_children (inverted, strata_call_node_row_get_node (caller_item)), >, 0);
    above = strata_call_tree_get_first_child (inverted, strata_call_node_row_get_node (caller_item));
    gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (model), 2);
    up_before = strata_call_tree_view_dup_selected_path (view);
    merge.method = strata_call_tree_get_method (inverted, strata_call_node_row_get_node (caller_item));
    g_assert_cmpuint (merge.method, !=, strata_call_tree_get_method (inverted, above));
    {
      g_autoptr(StrataCallNodeRow) root_item = gtk_tree_list_row_get_item (root);

      g_assert_cmpuint (merge.method, !=, strata_call_tree_get_method (inverted, strata_call_node_row_get_node (root_item)));
    }
    strata_call_tree_view_apply_transform (view, &merge);
    strata_test_iterate_until (strata_test_call_tree_ready, view);
    up_merged = strata_call_tree_view_dup_selected_path (view);
    g_assert_nonnull (up_merged);
    g_assert_true (g_str_has_suffix (up_merged, strata_trace_get_method_name (strata_call_tree_get_trace (inverted),
                                                                              strata_call_tree_get_method (inverted, above))));
    {
      g_auto(GStrv) lines = g_strsplit (up_merged, "\n", -1);

      g_assert_cmpuint (g_strv_length (lines), ==, 2);
    }
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "calltree.pop-transform", NULL));
    strata_test_iterate_until (strata_test_call_tree_ready, view);
    up_popped = strata_call_tree_view_dup_selected_path (view);
    g_assert_cmpstr (up_popped, ==, up_before);
  }
  strata_test_finish_app (app);
}

/* The Call Tree page of the sample: rows by total, "*" opens the hot
 * path, a row selects its method, Bottom Up starts from where self time
 * went, and the flame graph draws, zooms and searches. */
/* The whole tree as CSV, a row per node, depth first; the roots' totals
 * add up to the whole, exact in nanoseconds. */
static void
check_call_tree_export (StrataCallTreeView *view)
{
  StrataCallTree *tree = strata_call_tree_view_get_tree (view);
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "tree.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  gint64 roots = 0;

  g_assert_true (strata_call_tree_view_export (view, file, &error));
  g_assert_no_error (error);
  g_file_get_contents (path, &contents, NULL, NULL);
  lines = g_strsplit (contents, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "Depth,Name,Total "));
  g_assert_cmpuint (g_strv_length (lines), ==, strata_call_tree_get_n_nodes (tree) + 1);
  for (guint i = 1; lines[i][0] != '\0'; i++)
    if (g_str_has_prefix (lines[i], "0,"))
      {
        const char *name_end = strrchr (lines[i], '"');
        g_auto(GStrv) cells = g_strsplit (name_end ? name_end + 2 : strchr (lines[i] + 2, ',') + 1, ",", -1);

        roots += g_ascii_strtoll (cells[0], NULL, 10);
      }
  g_assert_cmpint (roots, <=, strata_call_tree_get_total (tree, STRATA_CALL_TREE_ROOT, 0));
  g_assert_cmpint (roots, >, 0);
}

static void
test_window_call_tree (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "third-party", "dmtrace",
                                                 "studio-perflib-char_2_bytes.trace", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window;
  StrataCallTreeView *view;
  StrataSession *session;
  GListModel *model;
  guint before;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = strata_test_only_window (app);
  strata_test_wait_for_window (window);
  session = strata_window_get_session (window);
  view = STRATA_CALL_TREE_VIEW (window->call_tree_view);
  g_assert_true (gtk_widget_get_visible (window->call_tree_view));
  strata_test_iterate_until (strata_test_call_tree_ready, view);
  strata_window_show_call_tree (window, "tree");
  model = strata_call_tree_view_get_model (view);
  g_assert_cmpuint (g_list_model_get_n_items (model), >, 5);
  {
    g_autofree char *first = row_name (model, 0);

    g_assert_cmpstr (first, ==, "com.yy.base.taskexecutor.YYTaskExecutor$1.run ()V");
  }
  check_call_tree_export (view);
  /* "*" on the first row opens its heaviest path, several levels down. */
  before = g_list_model_get_n_items (model);
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (model), 0);
  g_assert_cmpuint (strata_session_get_selected_method (session), !=, G_MAXUINT32);
  strata_call_tree_view_expand_hot_path (view, 0);
  g_assert_cmpuint (g_list_model_get_n_items (model), >, before + 3);
  {
    g_autofree char *copied = strata_call_tree_view_dup_selected_path (view);

    g_assert_cmpstr (copied, ==, "com.yy.base.taskexecutor.YYTaskExecutor$1.run ()V");
  }

  /* A transform from the selected row, undone with Backspace's action. */
  {
    StrataCallTree *before_tree = strata_call_tree_view_get_tree (view);
    guint32 n_before = strata_call_tree_get_n_nodes (before_tree);

    g_object_ref (before_tree);
    gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (model), 0);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "calltree.focus-subtree", NULL));
    /* Reshaped in a worker; the tree on show stays meanwhile. */
    g_assert_false (strata_call_tree_view_is_ready (view));
    g_assert_true (strata_call_tree_view_get_tree (view) == before_tree);
    strata_test_iterate_until (strata_test_call_tree_ready, view);
    g_assert_true (strata_call_tree_view_get_tree (view) != before_tree);
    g_assert_cmpuint (strata_call_tree_get_n_nodes (strata_call_tree_view_get_tree (view)), <, n_before);
    model = strata_call_tree_view_get_model (view);
    /* One row on top, the focused one, selected, with the rows that were
     * open under it open still. */
    for (guint p = 1; p < g_list_model_get_n_items (model); p++)
      {
        g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, p);

        g_assert_cmpuint (gtk_tree_list_row_get_depth (row), >, 0);
      }
    g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model)), ==, 0);
    g_assert_cmpuint (g_list_model_get_n_items (model), >, 3);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "calltree.pop-transform", NULL));
    strata_test_iterate_until (strata_test_call_tree_ready, view);
    g_assert_true (strata_call_tree_view_get_tree (view) == before_tree);
    g_object_unref (before_tree);
    model = strata_call_tree_view_get_model (view);
  }
  /* Transforms asked for while one is made follow it; Backspace first
   * takes back one not made yet. */
  {
    StrataCallTree *before_tree = strata_call_tree_view_get_tree (view);
    guint32 first = strata_call_tree_get_first_child (before_tree, STRATA_CALL_TREE_ROOT);
    StrataCallTransform drop_a = { STRATA_CALL_TRANSFORM_DROP_FUNCTION, strata_call_tree_get_method (before_tree, first),
                                   STRATA_CALL_TREE_NONE, NULL, NULL, 0 };
    StrataCallTransform drop_b = drop_a, drop_c = drop_a;
    StrataCallTree *shown;

    drop_b.method = strata_call_tree_get_method (before_tree, first + 1);
    drop_c.method = strata_call_tree_get_method (before_tree, first + 2);
    g_object_ref (before_tree);
    strata_call_tree_view_apply_transform (view, &drop_a);
    strata_call_tree_view_apply_transform (view, &drop_b);
    strata_call_tree_view_apply_transform (view, &drop_c);
    strata_call_tree_view_pop_transform (view);
    strata_test_iterate_until (strata_test_call_tree_ready, view);
    shown = strata_call_tree_view_get_tree (view);
    for (guint32 v = 1; v < strata_call_tree_get_n_nodes (shown); v++)
      {
        g_assert_cmpuint (strata_call_tree_get_method (shown, v), !=, drop_a.method);
        g_assert_cmpuint (strata_call_tree_get_method (shown, v), !=, drop_b.method);
      }
    g_assert_cmpuint (strata_call_tree_get_method (shown, strata_call_tree_get_first_child (shown, STRATA_CALL_TREE_ROOT)),
                      ==, drop_c.method);
    strata_call_tree_view_pop_transform (view);
    strata_call_tree_view_pop_transform (view);
    strata_test_iterate_until (strata_test_call_tree_ready, view);
    g_assert_true (strata_call_tree_view_get_tree (view) == before_tree);
    g_object_unref (before_tree);
    model = strata_call_tree_view_get_model (view);
  }
  /* A transform about a function stays when one thread is shown instead
   * of all: the tree is merged again and the transform applied to it. */
  {
    StrataCallTransform transform = { STRATA_CALL_TRANSFORM_MERGE_FUNCTION, 0, STRATA_CALL_TREE_NONE, NULL, NULL, 0 };
    g_autoptr(StrataCallTree) main_only = strata_call_tree_new (strata_session_get_trace (session), 0, FALSE, NULL, NULL, NULL);
    guint32 merged = strata_call_tree_get_method (main_only, strata_call_tree_get_first_child (main_only, STRATA_CALL_TREE_ROOT));
    StrataCallTree *shown;

    transform.method = merged;
    strata_call_tree_view_apply_transform (view, &transform);
    strata_test_iterate_until (strata_test_call_tree_ready, view);
    strata_session_set_profile_thread (session, 0);
    strata_test_iterate_until (strata_test_call_tree_ready, view);
    shown = strata_call_tree_view_get_tree (view);
    g_assert_cmpint (strata_call_tree_get_total (shown, STRATA_CALL_TREE_ROOT, 0), ==,
                     strata_call_tree_get_total (main_only, STRATA_CALL_TREE_ROOT, 0));
    g_assert_cmpuint (strata_call_tree_get_n_nodes (shown), <, strata_call_tree_get_n_nodes (main_only));
    for (guint32 v = 1; v < strata_call_tree_get_n_nodes (shown); v++)
      g_assert_cmpuint (strata_call_tree_get_method (shown, v), !=, merged);
    strata_call_tree_view_pop_transform (view);
    strata_session_set_profile_thread (session, -1);
    strata_test_iterate_until (strata_test_call_tree_ready, view);
    model = strata_call_tree_view_get_model (view);
  }

  /* A focus on a subtree stays when the tree is merged again for a range:
   * on the node with the same path in the new tree. */
  {
    StrataTrace *trace = strata_session_get_trace (session);
    gint64 start = strata_trace_get_start (trace), end = strata_trace_get_end (trace);
    StrataCallTree *shown;
    guint32 focused, top;

    gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (model), 0);
    focused = strata_session_get_selected_method (session);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "calltree.focus-subtree", NULL));
    strata_test_iterate_until (strata_test_call_tree_ready, view);
    strata_session_set_selection_range (session, start, start + (end - start) / 2);
    strata_session_set_range_only (session, TRUE);
    strata_test_iterate_until (strata_test_call_tree_ready, view);
    shown = strata_call_tree_view_get_tree (view);
    g_assert_cmpuint (strata_call_tree_get_n_children (shown, STRATA_CALL_TREE_ROOT), ==, 1);
    top = strata_call_tree_get_first_child (shown, STRATA_CALL_TREE_ROOT);
    g_assert_cmpuint (strata_call_tree_get_method (shown, top), ==, focused);
    {
      StrataProfileRange range = { strata_session_get_clock (session), start, start + (end - start) / 2 };
      g_autoptr(StrataCallTree) whole = strata_call_tree_new (trace, -1, FALSE, &range, NULL, NULL);
      guint32 same = strata_call_tree_find_codes (whole, &focused, 1);

      g_assert_cmpuint (same, !=, STRATA_CALL_TREE_NONE);
      g_assert_cmpint (strata_call_tree_get_total (shown, STRATA_CALL_TREE_ROOT, 0), ==,
                       strata_call_tree_get_total (whole, same, 0));
    }
    strata_session_set_range_only (session, FALSE);
    strata_test_iterate_until (strata_test_call_tree_ready, view);
    shown = strata_call_tree_view_get_tree (view);
    g_assert_cmpuint (strata_call_tree_get_n_children (shown, STRATA_CALL_TREE_ROOT), ==, 1);
    g_assert_cmpuint (strata_call_tree_get_method (shown, strata_call_tree_get_first_child (shown, STRATA_CALL_TREE_ROOT)),
                      ==, focused);
    strata_call_tree_view_pop_transform (view);
    g_assert_cmpuint (strata_call_tree_get_n_children (strata_call_tree_view_get_tree (view), STRATA_CALL_TREE_ROOT), >, 1);
    model = strata_call_tree_view_get_model (view);
  }

  /* A call selected in the timeline opens its path and selects its row. */
  {
    StrataSliceRef call;
    guint32 method = strata_session_get_selected_method (session);
    g_autoptr(GtkTreeListRow) row = NULL;
    g_autoptr(StrataCallNodeRow) item = NULL;

    g_assert_true (strata_trace_find_longest_call (strata_session_get_trace (session), method, &call));
    strata_session_select_call (session, &call);
    model = strata_call_tree_view_get_model (view);
    row = g_object_ref (gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (model)));
    item = gtk_tree_list_row_get_item (row);
    g_assert_cmpuint (strata_call_node_row_get_node (item), ==,
                      strata_call_tree_find_call (strata_call_tree_view_get_tree (view), &call));
    g_assert_cmpuint (gtk_tree_list_row_get_depth (row), ==, call.depth);
  }

  /* A deep call late in a long table: its row is selected, and the list
   * inside the column view has the action the view scrolls it in with
   * (GTK 4.8 has no API for column views). */
  {
    const StrataSpanTable *table = strata_trace_get_thread (strata_session_get_trace (session), 0)->spans;
    guint depth = MIN (table->n_depths - 1, 12);
    StrataSliceRef call = { 0, depth, table->n_spans[depth] - 1 };
    GtkWidget *list = strata_test_find_mapped (strata_test_find_mapped (GTK_WIDGET (view), GTK_TYPE_COLUMN_VIEW), GTK_TYPE_LIST_VIEW);
    g_autoptr(GtkTreeListRow) selected = NULL;
    g_autoptr(StrataCallNodeRow) item = NULL;
    guint position;

    /* Rows opened two levels down make the table long. */
    model = strata_call_tree_view_get_model (view);
    for (guint i = 0; i < g_list_model_get_n_items (model); i++)
      {
        g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, i);

        if (gtk_tree_list_row_get_depth (row) < 2)
          gtk_tree_list_row_set_expanded (row, TRUE);
      }
    strata_session_select_call (session, &call);
    model = strata_call_tree_view_get_model (view);
    position = gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model));
    g_assert_cmpuint (position, >, 100);
    selected = g_list_model_get_item (model, position);
    item = gtk_tree_list_row_get_item (selected);
    g_assert_cmpuint (strata_call_node_row_get_node (item), ==,
                      strata_call_tree_find_call (strata_call_tree_view_get_tree (view), &call));
    g_assert_nonnull (list);
    g_assert_true (gtk_widget_activate_action (list, "list.scroll-to-item", "u", position));
  }

  /* Bottom up: where the time was spent in the method itself. */
  strata_window_show_call_tree (window, "bottom-up");
  strata_test_iterate_until (strata_test_call_tree_ready, view);
  model = strata_call_tree_view_get_model (view);
  {
    g_autofree char *first = row_name (model, 0);

    g_assert_true (g_str_has_prefix (first, "java.lang.Thread.sleep"));
  }

  /* The flame graph: bars, a zoom by click, the search's share. */
  strata_window_show_call_tree (window, "flame");
  {
    StrataFlameGraph *flame = STRATA_FLAME_GRAPH (strata_call_tree_view_get_flame_graph (view));
    guint32 node;

    g_assert_cmpint (strata_call_tree_get_kind (strata_flame_graph_get_tree (flame)), ==, STRATA_CALL_TREE_TOP_DOWN);
    g_assert_cmpuint (bars_drawn (GTK_WIDGET (flame)), >, 50);
    strata_flame_graph_set_search (flame, "inflate");
    g_assert_cmpfloat (strata_flame_graph_get_search_share (flame), >, 0.05);
    g_assert_cmpfloat (strata_flame_graph_get_search_share (flame), <, 1.0);
    strata_flame_graph_set_search (flame, NULL);
    node = strata_call_tree_get_first_child (strata_flame_graph_get_tree (flame), STRATA_CALL_TREE_ROOT);
    strata_flame_graph_zoom_to (flame, node);
    g_assert_cmpuint (strata_flame_graph_get_zoom (flame), ==, node);
  }
  strata_test_finish_app (app);
}

static gboolean
butterfly_ready (gpointer view)
{
  return strata_butterfly_view_is_ready (view);
}

/* The butterfly of the row selected (B): its callers drawn above it, its
 * callees below, each over all its calls; a caller's bar activated puts
 * that caller in the middle. */
static void
test_window_call_tree_butterfly (void)
{
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window = strata_test_open_call_tree_sample (app);
  StrataCallTreeView *view = STRATA_CALL_TREE_VIEW (window->call_tree_view);
  StrataButterflyView *butterfly = STRATA_BUTTERFLY_VIEW (strata_call_tree_view_get_butterfly (view));
  GListModel *model = strata_call_tree_view_get_model (view);
  StrataCallTree *tree = strata_call_tree_view_get_tree (view);
  StrataCallTree *callers, *callees;
  guint32 code, node, root;

  /* The first row's first callee: a function with a caller. */
  gtk_tree_list_row_set_expanded (g_list_model_get_item (model, 0), TRUE);
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (model), 1);
  g_object_unref (g_list_model_get_item (model, 0));
  node = strata_call_tree_get_first_child (tree, strata_call_tree_get_first_child (tree, STRATA_CALL_TREE_ROOT));
  code = strata_call_tree_get_code (tree, node);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "calltree.butterfly", NULL));
  strata_test_iterate_until (butterfly_ready, butterfly);
  g_assert_cmpuint (strata_butterfly_view_get_code (butterfly), ==, code);
  callers = strata_flame_graph_get_tree (STRATA_FLAME_GRAPH (strata_butterfly_view_get_callers (butterfly)));
  callees = strata_flame_graph_get_tree (STRATA_FLAME_GRAPH (strata_butterfly_view_get_callees (butterfly)));
  root = strata_call_tree_get_first_child (callers, STRATA_CALL_TREE_ROOT);
  g_assert_cmpuint (strata_call_tree_get_code (callers, root), ==, code);
  g_assert_cmpint (strata_call_tree_get_total (callers, root, 0), ==,
                   strata_call_tree_get_total (callees, strata_call_tree_get_first_child (callees, STRATA_CALL_TREE_ROOT), 0));
  g_assert_cmpuint (strata_call_tree_get_n_children (callers, root), >, 0);
  g_assert_cmpuint (bars_drawn (strata_butterfly_view_get_callers (butterfly)), >=, 3);
  g_assert_cmpuint (bars_drawn (strata_butterfly_view_get_callees (butterfly)), >=, 2);

  /* Its caller, activated, is the function in the middle. */
  g_signal_emit_by_name (strata_butterfly_view_get_callers (butterfly), "node-activated",
                         strata_call_tree_get_first_child (callers, root));
  strata_test_iterate_until (butterfly_ready, butterfly);
  g_assert_cmpuint (strata_butterfly_view_get_code (butterfly), ==,
                    strata_call_tree_get_code (tree, strata_call_tree_get_first_child (tree, STRATA_CALL_TREE_ROOT)));
  strata_test_finish_app (app);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (!strata_test_init_gtk ())
    {
      g_test_add_func ("/call-tree-view/needs-display", strata_test_skip_no_display);
      return g_test_run ();
    }

  g_test_add_func ("/call-tree-view/hot-path-key", test_window_call_tree_hot_path_key);
  g_test_add_func ("/call-tree-view/follows-selection", test_window_call_tree_follows_selection);
  g_test_add_func ("/call-tree-view/keeps-zoom", test_window_call_tree_keeps_zoom);
  g_test_add_func ("/call-tree-view/flame-graph-keys", test_window_flame_graph_keys);
  g_test_add_func ("/call-tree-view/right-click", test_window_call_tree_right_click);
  g_test_add_func ("/call-tree-view/columns", test_window_call_tree_columns);
  g_test_add_func ("/call-tree-view/pages", test_window_call_tree);
  g_test_add_func ("/call-tree-view/butterfly", test_window_call_tree_butterfly);

  return g_test_run ();
}
