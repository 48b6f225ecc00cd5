/* strata-call-tree-view-table.c: the call tree as a table
 *
 * A row per path, opened on demand; its columns by clock. The row and
 * the flame graph's bar are one selection; a call selected in the
 * timeline opens its path. Where the user is (the selection, the rows
 * open) is read from the table and revealed in it again for the
 * session's StrataCallTreeHistory.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-accessible.h"
#include "strata-call-node-list.h"
#include "strata-call-node-row.h"
#include "strata-call-tree-view-private.h"
#include "strata-flame-graph.h"
#include "strata-table-column.h"
#include "strata-units.h"

/* How far "*" opens the heaviest path: until a child holds less than
 * this share of the row it starts from. */
#define HOT_PATH_SHARE 0.05

typedef enum
{
  COLUMN_NAME,
  COLUMN_TOTAL,
  COLUMN_TOTAL_SHARE,
  COLUMN_SELF,
  COLUMN_SELF_SHARE,
  COLUMN_CALLS,
} Column;

/* Cells read the view through the column's data; the row is the node. */
typedef struct
{
  StrataCallTreeView *view;
  Column              column;
  guint               clock;
} CellData;

static char *
cell_text (gpointer item,
           gpointer data)
{
  const CellData *cell = data;
  StrataCallNodeRow *row = item;
  StrataCallTree *tree = strata_call_node_row_get_tree (row);
  guint32 node = strata_call_node_row_get_node (row);
  guint clock = MIN (cell->clock, strata_call_tree_get_n_clocks (tree) - 1);
  gint64 whole = strata_call_tree_get_total (tree, STRATA_CALL_TREE_ROOT, clock);

  switch (cell->column)
    {
    case COLUMN_NAME:
      return strata_call_node_row_dup_name (row);
    case COLUMN_TOTAL:
      return strata_trace_format_weight (strata_call_tree_get_trace (tree), clock, strata_call_tree_get_total (tree, node, clock), FALSE);
    case COLUMN_TOTAL_SHARE:
      return g_strdup_printf ("%.1f%%", whole > 0 ? 100.0 * strata_call_tree_get_total (tree, node, clock) / whole : 0.0);
    case COLUMN_SELF:
      return strata_trace_format_weight (strata_call_tree_get_trace (tree), clock, strata_call_tree_get_self (tree, node, clock), FALSE);
    case COLUMN_SELF_SHARE:
      return g_strdup_printf ("%.1f%%", whole > 0 ? 100.0 * strata_call_tree_get_self (tree, node, clock) / whole : 0.0);
    case COLUMN_CALLS:
    default:
      return strata_units_format_count (strata_call_tree_get_calls (tree, node));
    }
}

#define TREE_NAME_WIDTH 360
#define TREE_NUMBER_WIDTH 104

static void
add_column (StrataCallTreeView *self,
            const char         *title,
            Column              column,
            guint               clock)
{
  CellData *data = g_new (CellData, 1);
  g_autoptr(GtkColumnViewColumn) view_column = NULL;

  *data = (CellData) { self, column, clock };
  view_column = strata_table_column_new (title, column == COLUMN_NAME ? STRATA_TABLE_CELL_TREE : STRATA_TABLE_CELL_NUMBER,
                                         cell_text, data, NULL);
  g_object_set_data_full (G_OBJECT (view_column), "cell-data", data, g_free);
  /* Fixed widths: opening a deep path (*) must not widen the method
   * column and push the figures behind a scrollbar. */
  gtk_column_view_column_set_expand (view_column, column == COLUMN_NAME);
  gtk_column_view_column_set_resizable (view_column, TRUE);
  gtk_column_view_column_set_fixed_width (view_column, column == COLUMN_NAME ? TREE_NAME_WIDTH : TREE_NUMBER_WIDTH);
  strata_clock_columns_add (self->clock_columns, view_column,
                            column == COLUMN_NAME || column == COLUMN_CALLS ? -1 : (int) clock);
  gtk_column_view_append_column (GTK_COLUMN_VIEW (self->column_view), view_column);
}

static GListModel *
create_children (gpointer item,
                 gpointer data)
{
  return strata_call_node_row_list_children (item);
}

static void
row_selected_cb (StrataCallTreeView *self)
{
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (self->selection);
  g_autoptr(StrataCallNodeRow) item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
  StrataFlameGraph *flame = STRATA_FLAME_GRAPH (self->flame);
  guint32 method;

  /* The row and the flame graph's bar are one selection. */
  if (!self->syncing_bar && strata_flame_graph_get_tree (flame) == strata_call_tree_view_shown_tree (self))
    strata_flame_graph_set_selected (flame, item != NULL ? strata_call_node_row_get_node (item) : STRATA_CALL_TREE_NONE);
  if (item == NULL || self->syncing)
    return;
  method = strata_call_tree_get_method (strata_call_node_row_get_tree (item), strata_call_node_row_get_node (item));
  if (method != STRATA_CALL_TREE_NONE)
    strata_session_set_selected_method (self->session, method);
}

/* The columns for @trace (or none yet): the method, total and self time
 * and their shares on each clock (named by clock when there are two, as
 * the profile's are), and the calls. */
static void
build_columns (StrataCallTreeView *self,
               StrataTrace        *trace)
{
  guint n_clocks = trace != NULL ? MAX (strata_trace_get_n_clocks (trace), 1) : 1;
  const Column per_clock[] = { COLUMN_TOTAL, COLUMN_TOTAL_SHARE, COLUMN_SELF, COLUMN_SELF_SHARE };
  const char *titles[] = { NULL, N_("Total"), N_("Total %"), N_("Self"), N_("Self %") };

  strata_clock_columns_set_trace (self->clock_columns, trace);
  strata_table_column_remove_all (GTK_COLUMN_VIEW (self->column_view));
  add_column (self, _("Method"), COLUMN_NAME, 0);
  for (guint c = 0; c < n_clocks; c++)
    for (guint k = 0; k < G_N_ELEMENTS (per_clock); k++)
      {
        g_autofree char *title = strata_clock_columns_dup_title (self->clock_columns, _(titles[per_clock[k]]), (int) c);

        add_column (self, title, per_clock[k], c);
      }
  add_column (self, _("Calls"), COLUMN_CALLS, 0);
}

/* The table anew: after a new tree, the other direction or clock. */
void
strata_call_tree_view_fill_table (StrataCallTreeView *self)
{
  StrataCallTree *tree = strata_call_tree_view_shown_tree (self);
  GtkTreeListModel *model;

  if (tree == NULL)
    {
      gtk_column_view_set_model (GTK_COLUMN_VIEW (self->column_view), NULL);
      g_clear_object (&self->selection);
      return;
    }
  if (strata_call_tree_get_trace (tree) != strata_clock_columns_get_trace (self->clock_columns))
    build_columns (self, strata_call_tree_get_trace (tree));
  model = gtk_tree_list_model_new (G_LIST_MODEL (strata_call_node_list_new (tree, STRATA_CALL_TREE_ROOT,
                                                                            strata_session_get_clock (self->session))),
                                   FALSE, FALSE, create_children, NULL, NULL);
  g_clear_object (&self->selection);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (model));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect_object (self->selection, "notify::selected", G_CALLBACK (row_selected_cb), self, G_CONNECT_SWAPPED);
  gtk_column_view_set_model (GTK_COLUMN_VIEW (self->column_view), GTK_SELECTION_MODEL (self->selection));
}

/* The list inside the column view, whose "list.scroll-to-item" action
 * scrolls a row into view: GTK 4.8 has no API for column views to do it. */
static GtkWidget *
inner_list_view (GtkWidget *column_view)
{
  for (GtkWidget *child = gtk_widget_get_first_child (column_view); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      return child;
  return NULL;
}

static void
scroll_to_selected (StrataCallTreeView *self)
{
  guint position = self->selection != NULL ? gtk_single_selection_get_selected (self->selection) : GTK_INVALID_LIST_POSITION;

  if (position == GTK_INVALID_LIST_POSITION)
    return;
#if GTK_CHECK_VERSION (4, 12, 0)
  gtk_column_view_scroll_to (GTK_COLUMN_VIEW (self->column_view), position, NULL, GTK_LIST_SCROLL_FOCUS, NULL);
#else
  {
    GtkWidget *list = inner_list_view (self->column_view);

    if (list != NULL)
      gtk_widget_activate_action (list, "list.scroll-to-item", "u", position);
  }
#endif
}

/* Opens the rows down @codes, as far as the table has them, @last too
 * when asked; returns the position of the last row found, or
 * GTK_INVALID_LIST_POSITION. */
guint
strata_call_tree_view_open_path (GListModel   *model,
                                 const GArray *codes,
                                 gboolean      last)
{
  guint position = 0, found = GTK_INVALID_LIST_POSITION;

  for (guint depth = 0; depth < codes->len; depth++, position = found + 1)
    {
      guint32 wanted = g_array_index (codes, guint32, depth);
      guint at = GTK_INVALID_LIST_POSITION;

      for (guint p = position; p < g_list_model_get_n_items (model) && at == GTK_INVALID_LIST_POSITION; p++)
        {
          g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, p);
          g_autoptr(StrataCallNodeRow) item = gtk_tree_list_row_get_item (row);

          if (gtk_tree_list_row_get_depth (row) < depth)
            break;
          if (gtk_tree_list_row_get_depth (row) == depth &&
              strata_call_tree_get_code (strata_call_node_row_get_tree (item), strata_call_node_row_get_node (item)) == wanted)
            at = p;
        }
      if (at == GTK_INVALID_LIST_POSITION)
        break;
      found = at;
      if (last || depth + 1 < codes->len)
        {
          g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, found);

          gtk_tree_list_row_set_expanded (row, TRUE);
        }
    }
  return found;
}

/* Opens the rows down to @node of the tree shown and returns the row's
 * position, or GTK_INVALID_LIST_POSITION. */
static guint
open_rows_to (StrataCallTreeView *self,
              guint32             node)
{
  GListModel *model = self->selection != NULL ? G_LIST_MODEL (self->selection) : NULL;
  g_autoptr(GArray) codes = NULL;
  guint position;

  if (model == NULL || node == STRATA_CALL_TREE_NONE || node == STRATA_CALL_TREE_ROOT)
    return GTK_INVALID_LIST_POSITION;
  codes = strata_call_tree_path_codes (strata_call_tree_view_shown_tree (self), node);
  position = strata_call_tree_view_open_path (model, codes, FALSE);
  if (position == GTK_INVALID_LIST_POSITION)
    return position;
  {
    g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, position);

    /* Only the whole path: not the nearest caller shown. */
    return gtk_tree_list_row_get_depth (row) + 1 == codes->len ? position : GTK_INVALID_LIST_POSITION;
  }
}

/**
 * strata_call_tree_view_reveal_node:
 *
 * Opens the rows down to @node of the top-down tree shown and selects it.
 *
 * Returns: whether the node is shown
 */
gboolean
strata_call_tree_view_reveal_node (StrataCallTreeView *self,
                                   guint32             node)
{
  guint position;

  g_return_val_if_fail (STRATA_IS_CALL_TREE_VIEW (self), FALSE);

  if (strata_call_tree_history_get_inverted (self->history) || (position = open_rows_to (self, node)) == GTK_INVALID_LIST_POSITION)
    return FALSE;
  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->selection, position);
  self->syncing = FALSE;
  scroll_to_selected (self);
  return TRUE;
}

/* A call selected in the timeline: its path in the tree. */
void
strata_call_tree_view_selected_item_changed (StrataCallTreeView *self)
{
  StrataSliceRef call;

  if (strata_call_tree_history_get_top_down (self->history) == NULL || strata_call_tree_history_get_inverted (self->history) ||
      strata_session_get_selected_item (self->session, &call, NULL) != STRATA_SELECTED_CALL)
    return;
  strata_call_tree_view_reveal_node (self, strata_call_tree_find_call (strata_call_tree_history_get_top_down (self->history), &call));
}

/**
 * strata_call_tree_view_expand_hot_path:
 *
 * Opens the row at @position and, below it, the heaviest child while it
 * holds a fair share, as Firefox Profiler's "*".
 */
void
strata_call_tree_view_expand_hot_path (StrataCallTreeView *self,
                                       guint               position)
{
  GListModel *model = self->selection != NULL ? G_LIST_MODEL (self->selection) : NULL;
  guint clock = strata_session_get_clock (self->session);
  gint64 start_total = -1;

  g_return_if_fail (STRATA_IS_CALL_TREE_VIEW (self));

  while (model != NULL && position < g_list_model_get_n_items (model))
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, position);
      g_autoptr(StrataCallNodeRow) item = gtk_tree_list_row_get_item (row);
      StrataCallTree *tree = strata_call_node_row_get_tree (item);
      guint32 node = strata_call_node_row_get_node (item);
      guint32 heaviest = STRATA_CALL_TREE_NONE;
      guint32 first = strata_call_tree_get_first_child (tree, node);
      guint offset = 0;

      if (start_total < 0)
        start_total = strata_call_tree_get_total (tree, node, clock);
      if (!gtk_tree_list_row_is_expandable (row))
        return;
      gtk_tree_list_row_set_expanded (row, TRUE);
      /* Children are by total on the first clock: find this clock's. */
      for (guint32 c = first; c < first + strata_call_tree_get_n_children (tree, node); c++)
        if (heaviest == STRATA_CALL_TREE_NONE ||
            strata_call_tree_get_total (tree, c, clock) > strata_call_tree_get_total (tree, heaviest, clock))
          heaviest = c, offset = c - first;
      if (heaviest == STRATA_CALL_TREE_NONE ||
          strata_call_tree_get_total (tree, heaviest, clock) < HOT_PATH_SHARE * start_total)
        return;
      position += 1 + offset;
    }
}

static gboolean
expand_hot_path_cb (GtkWidget *widget,
                    GVariant  *args,
                    gpointer   data)
{
  StrataCallTreeView *self = data;
  guint position = self->selection != NULL ? gtk_single_selection_get_selected (self->selection) : GTK_INVALID_LIST_POSITION;

  if (position == GTK_INVALID_LIST_POSITION)
    return FALSE;
  strata_call_tree_view_expand_hot_path (self, position);
  return TRUE;
}

/* Right and Left, as in every GTK tree: Right opens the selected row,
 * or goes to its first child when open; Left closes it, or goes to its
 * parent when closed. */
static gboolean
walk_tree_cb (GtkWidget *widget,
              GVariant  *args,
              gpointer   data)
{
  StrataCallTreeView *self = data;
  gboolean right = g_variant_get_boolean (args);
  guint position = self->selection != NULL ? gtk_single_selection_get_selected (self->selection) : GTK_INVALID_LIST_POSITION;
  g_autoptr(GtkTreeListRow) row = NULL;
  g_autoptr(GtkTreeListRow) parent = NULL;
  guint target = GTK_INVALID_LIST_POSITION;

  if (position == GTK_INVALID_LIST_POSITION ||
      (row = g_list_model_get_item (G_LIST_MODEL (self->selection), position)) == NULL)
    return FALSE;
  if (right && gtk_tree_list_row_is_expandable (row) && !gtk_tree_list_row_get_expanded (row))
    gtk_tree_list_row_set_expanded (row, TRUE);
  else if (right && gtk_tree_list_row_get_expanded (row))
    target = position + 1;
  else if (!right && gtk_tree_list_row_get_expanded (row))
    gtk_tree_list_row_set_expanded (row, FALSE);
  else if (!right && (parent = gtk_tree_list_row_get_parent (row)) != NULL)
    target = gtk_tree_list_row_get_position (parent);
  if (target != GTK_INVALID_LIST_POSITION && target < g_list_model_get_n_items (G_LIST_MODEL (self->selection)))
    {
      gtk_single_selection_set_selected (self->selection, target);
      strata_call_tree_view_focus_selected_row_soon (self);
    }
  return TRUE;
}

/* "*" opens the selected row's hottest path, as Firefox Profiler's does;
 * Right and Left walk the tree. Caught before the row's expander, whose
 * own "*" opens one level. */
GtkEventController *
strata_call_tree_view_hot_path_keys (StrataCallTreeView *self)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();
  const guint keys[] = { GDK_KEY_asterisk, GDK_KEY_KP_Multiply };
  const guint arrows[][2] = { { GDK_KEY_Right, TRUE }, { GDK_KEY_KP_Right, TRUE }, { GDK_KEY_Left, FALSE }, { GDK_KEY_KP_Left, FALSE } };

  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                          gtk_shortcut_new (gtk_keyval_trigger_new (keys[k], 0),
                                                            gtk_callback_action_new (expand_hot_path_cb, self, NULL)));
  for (guint k = 0; k < G_N_ELEMENTS (arrows); k++)
    {
      GtkShortcut *shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (arrows[k][0], 0),
                                                gtk_callback_action_new (walk_tree_cb, self, NULL));

      gtk_shortcut_set_arguments (shortcut, g_variant_new_boolean (arrows[k][1]));
      gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller), shortcut);
    }
  return controller;
}

/**
 * strata_call_tree_view_dup_selected_path:
 *
 * Returns: (transfer full) (nullable): the selected row's path, a method
 *   a line (callers first, or for Bottom Up the method first)
 */
char *
strata_call_tree_view_dup_selected_path (StrataCallTreeView *self)
{
  GtkTreeListRow *row;
  g_autoptr(StrataCallNodeRow) item = NULL;

  g_return_val_if_fail (STRATA_IS_CALL_TREE_VIEW (self), NULL);

  row = self->selection != NULL ? gtk_single_selection_get_selected_item (self->selection) : NULL;
  if (row == NULL)
    return NULL;
  item = gtk_tree_list_row_get_item (row);
  return strata_call_tree_dup_path (strata_call_node_row_get_tree (item), strata_call_node_row_get_node (item), "\n");
}

gboolean
strata_call_tree_view_copy_path (GtkWidget *widget,
                                 GVariant  *args,
                                 gpointer   data)
{
  g_autofree char *path = strata_call_tree_view_dup_selected_path (STRATA_CALL_TREE_VIEW (widget));

  if (path == NULL)
    return FALSE;
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), path);
  return TRUE;
}

/* The path of @row's node, as codes. */
static GArray *
row_codes (GtkTreeListRow *row)
{
  g_autoptr(StrataCallNodeRow) item = gtk_tree_list_row_get_item (row);

  return strata_call_tree_path_codes (strata_call_node_row_get_tree (item), strata_call_node_row_get_node (item));
}

/* Where the user is in the table shown, or NULL before it has rows. */
StrataCallTreePlace *
strata_call_tree_view_current_place (StrataCallTreeView *self)
{
  GListModel *model = self->selection != NULL ? G_LIST_MODEL (self->selection) : NULL;
  GtkTreeListRow *selected = self->selection != NULL ? gtk_single_selection_get_selected_item (self->selection) : NULL;
  StrataFlameGraph *flame = STRATA_FLAME_GRAPH (self->flame);
  StrataCallTree *flame_tree = strata_flame_graph_get_tree (flame);
  StrataCallTreePlace *place;

  if (model == NULL)
    return NULL;
  place = strata_call_tree_place_new (strata_call_tree_history_get_inverted (self->history) ? STRATA_CALL_TREE_BOTTOM_UP
                                                                                          : STRATA_CALL_TREE_TOP_DOWN);
  if (selected != NULL)
    {
      g_array_unref (place->codes);
      place->codes = row_codes (selected);
    }
  if (flame_tree != NULL && strata_call_tree_get_kind (flame_tree) == place->kind)
    {
      g_array_unref (place->zoom);
      place->zoom = strata_call_tree_path_codes (flame_tree, strata_flame_graph_get_zoom (flame));
    }
  for (guint p = 0; p < g_list_model_get_n_items (model) && place->opened->len < STRATA_CALL_TREE_PLACE_MAX_OPENED; p++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, p);

      if (gtk_tree_list_row_get_expanded (row))
        g_ptr_array_add (place->opened, row_codes (row));
    }
  return place;
}

/* The expander of the row at @position (or the first, for
 * STRATA_CALL_TREE_VIEW_ANY_ROW) at or under @widget, if the row is made (shown). */
GtkWidget *
strata_call_tree_view_row_expander (GtkWidget *widget,
                                    guint      position)
{
  if (GTK_IS_TREE_EXPANDER (widget))
    {
      GtkTreeListRow *row = gtk_tree_expander_get_list_row (GTK_TREE_EXPANDER (widget));

      return position == STRATA_CALL_TREE_VIEW_ANY_ROW || (row != NULL && gtk_tree_list_row_get_position (row) == position) ? widget : NULL;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = strata_call_tree_view_row_expander (child, position);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Scrolls the table so row @position shows, by its adjustment. GTK 4.8's
 * "list.scroll-to-item" would do it, but after the rows were made anew
 * it also selects the first row where a row had the focus. Rows are
 * all one height. */
static void
scroll_rows_to (StrataCallTreeView *self,
                guint               position)
{
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->column_view));
  guint n = self->selection != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->selection)) : 0;
  double row, top, page;

  if (adjustment == NULL || n == 0)
    return;
  row = (gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_lower (adjustment)) / n;
  top = gtk_adjustment_get_lower (adjustment) + row * position;
  page = gtk_adjustment_get_page_size (adjustment);
  if (top < gtk_adjustment_get_value (adjustment) || top + row > gtk_adjustment_get_value (adjustment) + page)
    gtk_adjustment_set_value (adjustment, top - (page - row) / 2);
}

/* Once the rows revealed are laid out: the selected one scrolled to and,
 * when the table has the focus (or lost it with its old rows), focused,
 * so the keys go on from there. */
static gboolean
focus_selected_row_cb (GtkWidget     *widget,
                       GdkFrameClock *clock,
                       gpointer       data)
{
  StrataCallTreeView *self = STRATA_CALL_TREE_VIEW (widget);
  guint position = self->selection != NULL ? gtk_single_selection_get_selected (self->selection) : GTK_INVALID_LIST_POSITION;
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  GtkWidget *expander;

  /* Laid out on the first frame, scrolled on the second, the row made on
   * the third. */
  if (position != GTK_INVALID_LIST_POSITION && ++self->focus_frames < 3)
    {
      if (self->focus_frames == 2)
        scroll_rows_to (self, position);
      return G_SOURCE_CONTINUE;
    }
  self->focus_tick = 0;
  if (position != GTK_INVALID_LIST_POSITION && (focus == NULL || gtk_widget_is_ancestor (focus, self->column_view)) &&
      (expander = strata_call_tree_view_row_expander (self->column_view, position)) != NULL)
    gtk_widget_grab_focus (expander);
  return G_SOURCE_REMOVE;
}

/* The selected row scrolled to and focused once laid out: a few frames
 * from now, counted anew. */
void
strata_call_tree_view_focus_selected_row_soon (StrataCallTreeView *self)
{
  self->focus_frames = 0;
  if (self->focus_tick == 0)
    self->focus_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), focus_selected_row_cb, NULL, NULL);
}

/* Opens the rows @place had open, and those down to its selection, as far
 * as the tree shown has them, and selects the last of those found; zooms
 * the flame graph where it was. */
void
strata_call_tree_view_reveal_place (StrataCallTreeView        *self,
                                    const StrataCallTreePlace *place)
{
  GListModel *model = self->selection != NULL ? G_LIST_MODEL (self->selection) : NULL;
  StrataCallTreeKind shown = strata_call_tree_history_get_inverted (self->history) ? STRATA_CALL_TREE_BOTTOM_UP : STRATA_CALL_TREE_TOP_DOWN;
  guint found;

  if (model == NULL || place == NULL || place->kind != shown)
    return;
  strata_call_tree_view_zoom_along (self, place->zoom);
  for (guint i = 0; i < place->opened->len; i++)
    strata_call_tree_view_open_path (model, g_ptr_array_index (place->opened, i), TRUE);
  if ((found = strata_call_tree_view_open_path (model, place->codes, FALSE)) == GTK_INVALID_LIST_POSITION)
    return;
  gtk_single_selection_set_selected (self->selection, found);
  strata_call_tree_view_focus_selected_row_soon (self);
}

/* The position of the table's row at @x, @y, or GTK_INVALID_LIST_POSITION:
 * the row is the nearest widget around the one there that holds a row's
 * expander, level with the point (GTK 4.8 has no call for it). */
guint
strata_call_tree_view_row_at (StrataCallTreeView *self,
                              double              x,
                              double              y)
{
  GtkWidget *picked = gtk_widget_pick (self->column_view, x, y, GTK_PICK_DEFAULT);

  for (GtkWidget *widget = picked; widget != NULL && widget != self->column_view; widget = gtk_widget_get_parent (widget))
    {
      GtkWidget *expander = strata_call_tree_view_row_expander (widget, STRATA_CALL_TREE_VIEW_ANY_ROW);
      GtkTreeListRow *row = expander != NULL ? gtk_tree_expander_get_list_row (GTK_TREE_EXPANDER (expander)) : NULL;
      graphene_rect_t bounds;

      if (expander == NULL)
        continue;
      /* Not a row's expander beside the point, but the first of a list
       * picked below its rows. */
      if (row == NULL || !gtk_widget_compute_bounds (expander, self->column_view, &bounds) ||
          y < bounds.origin.y || y >= bounds.origin.y + bounds.size.height)
        return GTK_INVALID_LIST_POSITION;
      return gtk_tree_list_row_get_position (row);
    }
  return GTK_INVALID_LIST_POSITION;
}

GtkWidget *
strata_call_tree_view_build_tree_page (StrataCallTreeView *self)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  self->column_view = gtk_column_view_new (NULL);

  gtk_widget_add_css_class (self->column_view, "data-table");
  self->clock_columns = strata_clock_columns_new (self->column_view);
  strata_accessible_name_children (self->column_view, _("Call tree"));
  build_columns (self, NULL);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->column_view);
  return scroller;
}

/* A bar selected in the flame graph: its row selected in the table (the
 * root's bar has none), and its method in the session. */
void
strata_call_tree_view_sync_bar (StrataCallTreeView *self)
{
  StrataFlameGraph *flame = STRATA_FLAME_GRAPH (self->flame);

  if (self->selection == NULL || strata_flame_graph_get_tree (flame) != strata_call_tree_view_shown_tree (self))
    return;
  self->syncing_bar = TRUE;
  gtk_single_selection_set_selected (self->selection, open_rows_to (self, strata_flame_graph_get_selected (flame)));
  self->syncing_bar = FALSE;
}
