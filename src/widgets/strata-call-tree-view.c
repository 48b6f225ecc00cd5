/* strata-call-tree-view.c: the merged call tree as a table or flame graph
 *
 * The tree follows the session: its trace, the profile's thread and, with
 * "Selected Range", the range; it is built off the main thread. Top Down
 * or Bottom Up picks the tree; Tree or Flame Graph how it is shown. A row
 * or bar selects its method in the profile and timeline.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-accessible.h"
#include "strata-call-node-list.h"
#include "strata-call-node-row.h"
#include "strata-call-tree-match.h"
#include "strata-call-tree-table.h"
#include "strata-call-tree-view.h"
#include "strata-clock-columns.h"
#include "strata-export-dialog.h"
#include "strata-flame-graph.h"
#include "strata-table-column.h"
#include "strata-units.h"

/* How far "*" opens the heaviest path: until a child holds less than
 * this share of the row it starts from. */
#define HOT_PATH_SHARE 0.05

/* Where the user is in the table: the selected row's path, as codes
 * (top down from the top, or bottom up from where the time went; none
 * without a selection), the paths of the rows open, and the path of the
 * bar the flame graph is zoomed into. They find the rows and the bar
 * again in a tree made anew. */
typedef struct
{
  StrataCallTreeKind kind;
  GArray            *codes;    /* guint32 */
  GPtrArray         *opened;   /* GArray of guint32 codes each */
  GArray            *zoom;     /* guint32; empty: zoomed out */
} Place;

#define MAX_OPENED 256   /* rows open that a place keeps: each is looked for */

struct _StrataCallTreeView
{
  GtkWidget       parent_instance;

  StrataSession  *session;
  GCancellable   *cancellable;
  GCancellable   *derive_cancellable;  /* transforms and the inversion, in a worker */
  GArray         *pending;       /* StrataCallTransform: asked for while one is made */
  StrataCallTree *tree;          /* top down, after the transforms */
  StrataCallTree *inverted;      /* bottom up, made when first shown */
  gboolean        show_inverted;
  /* The transforms applied, oldest first, and the tree before each: the
   * breadcrumbs pop back to any of them. */
  GPtrArray      *trees;         /* StrataCallTree: [0] as built */
  GArray         *transforms;    /* StrataCallTransform, prefixes owned */
  /* Where the user was (selection and rows open) before each transform
   * (Place, or NULL), for popping back to it; and where they are as one
   * is made, to follow. */
  GPtrArray      *places;
  Place          *follow;
  /* Where the user was when the tree went to be merged anew (another
   * range or thread), in the shape shown then: found again once the new
   * tree has the same transforms. */
  Place          *remerged;
  guint           focus_tick;    /* the row just revealed is scrolled to and focused */
  guint           focus_frames;  /* frames since: the rows are laid out after one */
  StrataTrace    *merged_trace;  /* the trace the transforms are about */
  gboolean        syncing;       /* selecting a row for the timeline's call */
  gboolean        syncing_bar;   /* selecting a row for the flame graph's bar */
  StrataClockColumns *clock_columns;  /* the columns by clock, and the trace they are for */
  GtkWidget      *transform_bar;
  GtkWidget      *transform_label;
  GtkWidget      *menu;

  GtkWidget      *box;
  GtkWidget      *bottom_up_button;
  GtkWidget      *flame_button;
  GtkWidget      *stack;
  GtkWidget      *column_view;
  GtkSingleSelection *selection;
  GtkWidget      *flame;
  GtkWidget      *flame_bar;
  GtkWidget      *breadcrumb;
  GtkWidget      *zoom_out_button;
  GtkWidget      *search_entry;
  GtkWidget      *search_share;
  GtkWidget      *status;
  /* The differential flame graph: the baseline's tree shaped as the one
   * shown, and its nodes matched to it. */
  GtkWidget      *diff_button;
  int             built_thread;
  GCancellable   *baseline_cancellable;
  StrataCallTree *baseline_tree;
  guint32        *baseline_match;
  StrataCallTree *matched_tree;  /* the tree they match */
};

G_DEFINE_FINAL_TYPE (StrataCallTreeView, strata_call_tree_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_ROOT_AT_BOTTOM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
place_free (Place *place)
{
  if (place == NULL)
    return;
  g_array_unref (place->codes);
  g_ptr_array_unref (place->opened);
  g_array_unref (place->zoom);
  g_free (place);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Place, place_free)

static guint open_path (GListModel   *model,
                        const GArray *codes,
                        gboolean      last);

/* The path of @node of @tree, as codes. */
static GArray *
path_codes (StrataCallTree *tree,
            guint32         node)
{
  guint n_codes;
  g_autofree guint32 *codes = strata_call_tree_dup_codes (tree, node, &n_codes);
  GArray *array = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n_codes);

  g_array_append_vals (array, codes, n_codes);
  return array;
}

typedef enum
{
  COLUMN_NAME,
  COLUMN_TOTAL,
  COLUMN_TOTAL_SHARE,
  COLUMN_SELF,
  COLUMN_SELF_SHARE,
  COLUMN_CALLS,
} Column;

static StrataCallTree *
shown_tree (StrataCallTreeView *self)
{
  return self->show_inverted ? self->inverted : self->tree;
}

/* ---- The table ---- */

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
  if (column == COLUMN_NAME)
    gtk_column_view_column_set_expand (view_column, TRUE);
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
  if (!self->syncing_bar && strata_flame_graph_get_tree (flame) == shown_tree (self))
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
static void
fill_table (StrataCallTreeView *self)
{
  StrataCallTree *tree = shown_tree (self);
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
  codes = path_codes (shown_tree (self), node);
  position = open_path (model, codes, FALSE);
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

  if (self->show_inverted || (position = open_rows_to (self, node)) == GTK_INVALID_LIST_POSITION)
    return FALSE;
  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->selection, position);
  self->syncing = FALSE;
  scroll_to_selected (self);
  return TRUE;
}

/* A bar selected in the flame graph: its row selected in the table (the
 * root's bar has none), and its method in the session. */
static void
bar_selected_cb (StrataCallTreeView *self)
{
  StrataFlameGraph *flame = STRATA_FLAME_GRAPH (self->flame);

  if (self->selection == NULL || strata_flame_graph_get_tree (flame) != shown_tree (self))
    return;
  self->syncing_bar = TRUE;
  gtk_single_selection_set_selected (self->selection, open_rows_to (self, strata_flame_graph_get_selected (flame)));
  self->syncing_bar = FALSE;
}

/* A call selected in the timeline: its path in the tree. */
static void
selected_item_changed_cb (StrataCallTreeView *self)
{
  StrataSliceRef call;

  if (self->tree == NULL || self->show_inverted ||
      strata_session_get_selected_item (self->session, &call, NULL) != STRATA_SELECTED_CALL)
    return;
  strata_call_tree_view_reveal_node (self, strata_call_tree_find_call (self->tree, &call));
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

/* "*" opens the selected row's hottest path, as Firefox Profiler's does.
 * Caught before the row's expander, whose own "*" opens one level. */
static GtkEventController *
hot_path_keys (StrataCallTreeView *self)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();
  const guint keys[] = { GDK_KEY_asterisk, GDK_KEY_KP_Multiply };

  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                          gtk_shortcut_new (gtk_keyval_trigger_new (keys[k], 0),
                                                            gtk_callback_action_new (expand_hot_path_cb, self, NULL)));
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

static gboolean
copy_path_cb (GtkWidget *widget,
              GVariant  *args,
              gpointer   data)
{
  g_autofree char *path = strata_call_tree_view_dup_selected_path (STRATA_CALL_TREE_VIEW (widget));

  if (path == NULL)
    return FALSE;
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), path);
  return TRUE;
}

/* ---- The flame graph ---- */

static void
update_breadcrumb (StrataCallTreeView *self)
{
  StrataFlameGraph *flame = STRATA_FLAME_GRAPH (self->flame);
  StrataCallTree *tree = strata_flame_graph_get_tree (flame);
  guint32 zoom = strata_flame_graph_get_zoom (flame);
  g_autofree char *path = NULL;

  gtk_widget_set_sensitive (self->zoom_out_button, tree != NULL && zoom != STRATA_CALL_TREE_ROOT);
  if (tree == NULL || zoom == STRATA_CALL_TREE_ROOT)
    {
      gtk_label_set_label (GTK_LABEL (self->breadcrumb), _("All threads"));
      return;
    }
  path = strata_call_tree_dup_display_path (tree, zoom, " › ");
  gtk_label_set_label (GTK_LABEL (self->breadcrumb), path);
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

/* ---- Against a baseline ---- */

static void
give_flame_baseline (StrataCallTreeView *self)
{
  StrataComparison *comparison = strata_session_get_comparison (self->session);
  StrataCallTree *tree = shown_tree (self);
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
  if (shown_tree (self) == self->matched_tree)
    give_flame_baseline (self);
}

static void
forget_baseline (StrataCallTreeView *self)
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
  StrataCallTree *tree = shown_tree (self);
  gboolean comparing = comparison != NULL && strata_comparison_get_kind (comparison) == STRATA_COMPARISON_PROFILE;

  gtk_widget_set_visible (self->diff_button, comparing);
  gtk_widget_set_sensitive (self->diff_button, !self->show_inverted);
  if (!comparing || tree == NULL || self->show_inverted ||
      !gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->diff_button)))
    {
      forget_baseline (self);
      strata_flame_graph_set_baseline (STRATA_FLAME_GRAPH (self->flame), NULL, NULL, NULL);
      return;
    }
  if (tree == self->matched_tree)
    {
      if (self->baseline_tree != NULL)
        give_flame_baseline (self);
      return;
    }
  forget_baseline (self);
  self->matched_tree = g_object_ref (tree);
  self->baseline_cancellable = g_cancellable_new ();
  strata_call_tree_match_baseline_async (comparison, tree, self->built_thread,
                                         (const StrataCallTransform *) self->transforms->data, self->transforms->len,
                                         self->baseline_cancellable, baseline_matched_cb, g_object_ref (self));
}

static void
comparison_changed_cb (StrataCallTreeView *self)
{
  forget_baseline (self);
  update_differential (self);
}

static void
fill_flame (StrataCallTreeView *self)
{
  StrataFlameGraph *flame = STRATA_FLAME_GRAPH (self->flame);

  strata_flame_graph_set_clock (flame, strata_session_get_clock (self->session));
  strata_flame_graph_set_colors (flame, strata_session_get_colors (self->session));
  strata_flame_graph_set_tree (flame, shown_tree (self));
  update_differential (self);
  search_changed_cb (self);
  update_breadcrumb (self);
  /* A table made anew selects the bar's row again. */
  bar_selected_cb (self);
}

/* ---- Building ---- */

static void
show_trees (StrataCallTreeView *self)
{
  gboolean deriving = self->derive_cancellable != NULL;

  gtk_label_set_label (GTK_LABEL (self->status), deriving && self->trees->len > 0 ? _("Reshaping the tree…")
                                                                                 : _("Merging the calls…"));
  gtk_widget_set_visible (self->status, deriving || shown_tree (self) == NULL);
  fill_table (self);
  fill_flame (self);
}

/* ---- Transforms ---- */

/* The path of @row's node, as codes. */
static GArray *
row_codes (GtkTreeListRow *row)
{
  g_autoptr(StrataCallNodeRow) item = gtk_tree_list_row_get_item (row);

  return path_codes (strata_call_node_row_get_tree (item), strata_call_node_row_get_node (item));
}

static Place *
place_copy (const Place *place)
{
  Place *copy = g_new0 (Place, 1);

  copy->kind = place->kind;
  copy->codes = g_array_copy (place->codes);
  copy->zoom = g_array_copy (place->zoom);
  copy->opened = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint i = 0; i < place->opened->len; i++)
    g_ptr_array_add (copy->opened, g_array_copy (g_ptr_array_index (place->opened, i)));
  return copy;
}

/* Where the user is in the table shown, or NULL before it has rows. */
static Place *
current_place (StrataCallTreeView *self)
{
  GListModel *model = self->selection != NULL ? G_LIST_MODEL (self->selection) : NULL;
  GtkTreeListRow *selected = self->selection != NULL ? gtk_single_selection_get_selected_item (self->selection) : NULL;
  StrataFlameGraph *flame = STRATA_FLAME_GRAPH (self->flame);
  StrataCallTree *flame_tree = strata_flame_graph_get_tree (flame);
  Place *place;

  if (model == NULL)
    return NULL;
  place = g_new0 (Place, 1);
  place->kind = self->show_inverted ? STRATA_CALL_TREE_BOTTOM_UP : STRATA_CALL_TREE_TOP_DOWN;
  place->codes = selected != NULL ? row_codes (selected) : g_array_new (FALSE, FALSE, sizeof (guint32));
  place->zoom = flame_tree != NULL && strata_call_tree_get_kind (flame_tree) == place->kind
                  ? path_codes (flame_tree, strata_flame_graph_get_zoom (flame))
                  : g_array_new (FALSE, FALSE, sizeof (guint32));
  place->opened = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint p = 0; p < g_list_model_get_n_items (model) && place->opened->len < MAX_OPENED; p++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, p);

      if (gtk_tree_list_row_get_expanded (row))
        g_ptr_array_add (place->opened, row_codes (row));
    }
  return place;
}

/* @codes made into the path @transform leads them to in @to. */
static void
follow_codes (StrataCallTree            *from,
              const StrataCallTransform *transform,
              StrataCallTree            *to,
              StrataCallTreeKind         kind,
              GArray                    *codes)
{
  g_array_set_size (codes, strata_call_tree_follow_path (from, transform, to, kind, (guint32 *) codes->data, codes->len));
}

#define ANY_ROW GTK_INVALID_LIST_POSITION

/* The expander of the row at @position (or the first, for ANY_ROW) at or
 * under @widget, if the row is made (shown). */
static GtkWidget *
row_expander (GtkWidget *widget,
              guint      position)
{
  if (GTK_IS_TREE_EXPANDER (widget))
    {
      GtkTreeListRow *row = gtk_tree_expander_get_list_row (GTK_TREE_EXPANDER (widget));

      return position == ANY_ROW || (row != NULL && gtk_tree_list_row_get_position (row) == position) ? widget : NULL;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = row_expander (child, position);

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
      (expander = row_expander (self->column_view, position)) != NULL)
    gtk_widget_grab_focus (expander);
  return G_SOURCE_REMOVE;
}

/* The selected row scrolled to and focused once laid out: a few frames
 * from now, counted anew. */
static void
focus_selected_row_soon (StrataCallTreeView *self)
{
  self->focus_frames = 0;
  if (self->focus_tick == 0)
    self->focus_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), focus_selected_row_cb, NULL, NULL);
}

/* Opens the rows down @codes, as far as the table has them, @last too
 * when asked; returns the position of the last row found, or
 * GTK_INVALID_LIST_POSITION. */
static guint
open_path (GListModel   *model,
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

/* Zooms the flame graph into the bar down @codes, or as far down them as
 * its tree goes. */
static void
zoom_along (StrataCallTreeView *self,
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

/* Opens the rows @place had open, and those down to its selection, as far
 * as the tree shown has them, and selects the last of those found; zooms
 * the flame graph where it was. */
static void
reveal_place (StrataCallTreeView *self,
              const Place        *place)
{
  GListModel *model = self->selection != NULL ? G_LIST_MODEL (self->selection) : NULL;
  StrataCallTreeKind shown = self->show_inverted ? STRATA_CALL_TREE_BOTTOM_UP : STRATA_CALL_TREE_TOP_DOWN;
  guint found;

  if (model == NULL || place == NULL || place->kind != shown)
    return;
  zoom_along (self, place->zoom);
  for (guint i = 0; i < place->opened->len; i++)
    open_path (model, g_ptr_array_index (place->opened, i), TRUE);
  if ((found = open_path (model, place->codes, FALSE)) == GTK_INVALID_LIST_POSITION)
    return;
  gtk_single_selection_set_selected (self->selection, found);
  focus_selected_row_soon (self);
}

/* A place for each transform: none known for those without. */
static void
sync_places (StrataCallTreeView *self)
{
  while (self->places->len > self->transforms->len)
    g_ptr_array_set_size (self->places, self->transforms->len);
  while (self->places->len < self->transforms->len)
    g_ptr_array_add (self->places, NULL);
}

static void
update_transform_bar (StrataCallTreeView *self)
{
  g_autoptr(GString) text = g_string_new (NULL);

  /* While the tree is merged again, the transforms wait for it. */
  for (guint i = 0; i < self->transforms->len && i < self->trees->len; i++)
    {
      g_autofree char *step = strata_call_transform_describe (g_ptr_array_index (self->trees, i),
                                                               &g_array_index (self->transforms, StrataCallTransform, i));

      g_string_append_printf (text, "%s%s", i > 0 ? " › " : "", step);
    }
  gtk_label_set_label (GTK_LABEL (self->transform_label), text->str);
  gtk_widget_set_visible (self->transform_bar, self->transforms->len > 0 && self->trees->len > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "calltree.pop-transform", self->transforms->len > 0);
}

/* ---- Deriving: transforms and the inversion, in a worker ----
 *
 * On a trace of millions of paths a transform or the bottom-up roots take
 * about a second: the tree on show stays while they are made, transforms
 * wait, and a newer request cancels an older one. */

typedef struct
{
  StrataCallTree *from;
  GArray         *transforms;   /* StrataCallTransform: to apply, in order */
  gboolean        invert;
  GPtrArray      *trees;        /* out: a tree per transform applied */
  GArray         *applied;      /* out: those transforms */
  StrataCallTree *inverted;     /* out: the last tree bottom up, if asked */
} DeriveJob;

static void
derive_job_free (DeriveJob *job)
{
  g_clear_object (&job->from);
  g_clear_pointer (&job->transforms, g_array_unref);
  g_clear_pointer (&job->trees, g_ptr_array_unref);
  g_clear_pointer (&job->applied, g_array_unref);
  g_clear_object (&job->inverted);
  g_free (job);
}

static GArray *
transform_array_new (void)
{
  GArray *array = g_array_new (FALSE, FALSE, sizeof (StrataCallTransform));

  g_array_set_clear_func (array, strata_call_transform_clear);
  return array;
}

/* Moves the transforms of @from to the end of @to. */
static void
move_transforms (GArray *to,
                 GArray *from)
{
  g_array_append_vals (to, from->data, from->len);
  for (guint i = 0; i < from->len; i++)
    {
      g_array_index (from, StrataCallTransform, i).prefix = NULL;
      g_array_index (from, StrataCallTransform, i).codes = NULL;
    }
  g_array_set_size (from, 0);
}

/* A focus on a subtree whose path the tree has not is left out. */
static void
derive_thread (GTask        *task,
               gpointer      source,
               gpointer      data,
               GCancellable *cancellable)
{
  DeriveJob *job = data;
  StrataCallTree *last = job->from;
  GError *error = NULL;

  for (guint i = 0; i < job->transforms->len; i++)
    {
      StrataCallTransform transform = strata_call_transform_copy (&g_array_index (job->transforms, StrataCallTransform, i));
      StrataCallTree *result;

      if (transform.kind == STRATA_CALL_TRANSFORM_FOCUS_SUBTREE &&
          ((transform.node = strata_call_tree_find_codes (last, transform.codes, transform.n_codes)) == STRATA_CALL_TREE_NONE ||
           transform.node == STRATA_CALL_TREE_ROOT))
        {
          strata_call_transform_clear (&transform);
          continue;
        }
      if ((result = strata_call_tree_transform (last, &transform, cancellable, &error)) == NULL)
        {
          strata_call_transform_clear (&transform);
          g_task_return_error (task, error);
          return;
        }
      g_ptr_array_add (job->trees, result);
      g_array_append_val (job->applied, transform);
      last = result;
    }
  if (job->invert && (job->inverted = strata_call_tree_invert (last, cancellable, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_boolean (task, TRUE);
}

/* After a transform, the selection follows its calls through each tree
 * the job made; each place it passes is kept for going back. */
static Place *
follow_selection (StrataCallTreeView *self,
                  DeriveJob          *job)
{
  Place *follow = g_steal_pointer (&self->follow);
  StrataCallTree *from = job->from;

  sync_places (self);
  for (guint i = 0; i < job->trees->len; i++)
    {
      StrataCallTree *to = g_ptr_array_index (job->trees, i);
      Place *kept = NULL;

      if (follow != NULL)
        {
          const StrataCallTransform *transform = &g_array_index (job->applied, StrataCallTransform, i);

          kept = place_copy (follow);
          follow_codes (from, transform, to, follow->kind, follow->codes);
          follow_codes (from, transform, to, follow->kind, follow->zoom);
          for (guint k = 0; k < follow->opened->len; k++)
            follow_codes (from, transform, to, follow->kind, g_ptr_array_index (follow->opened, k));
        }
      g_ptr_array_add (self->places, kept);
      from = to;
    }
  return follow;
}

static void
show_latest_tree (StrataCallTreeView *self,
                  StrataCallTree     *inverted)
{
  StrataCallTree *latest = self->trees->len > 0 ? g_ptr_array_index (self->trees, self->trees->len - 1) : NULL;

  g_set_object (&self->tree, latest);
  g_set_object (&self->inverted, inverted);
  update_transform_bar (self);
  show_trees (self);
  if (latest != NULL && self->remerged != NULL)
    {
      reveal_place (self, self->remerged);
      g_clear_pointer (&self->remerged, place_free);
    }
}

static void derive (StrataCallTreeView *self,
                    GArray             *transforms);

static void
derive_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(StrataCallTreeView) self = user_data;
  DeriveJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(Place) followed = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), NULL))
    return;  /* cancelled: a newer request or the view went */
  g_clear_object (&self->derive_cancellable);
  for (guint i = 0; i < job->trees->len; i++)
    g_ptr_array_add (self->trees, g_object_ref (g_ptr_array_index (job->trees, i)));
  followed = follow_selection (self, job);
  move_transforms (self->transforms, job->applied);
  show_latest_tree (self, job->inverted);
  reveal_place (self, followed);
  if (self->pending->len > 0)
    {
      GArray *next = g_steal_pointer (&self->pending);

      self->pending = transform_array_new ();
      derive (self, next);
    }
}

static void
cancel_derive (StrataCallTreeView *self)
{
  if (self->derive_cancellable != NULL)
    g_cancellable_cancel (self->derive_cancellable);
  g_clear_object (&self->derive_cancellable);
}

/* Applies @transforms (taken) to the latest tree and, when bottom up is
 * shown, inverts the result, in a worker; without work, shows at once. */
static void
derive (StrataCallTreeView *self,
        GArray             *transforms)
{
  StrataCallTree *latest = self->trees->len > 0 ? g_ptr_array_index (self->trees, self->trees->len - 1) : NULL;
  g_autoptr(GArray) owned = transforms;
  g_autoptr(GTask) task = NULL;
  DeriveJob *job;

  cancel_derive (self);
  if (latest == NULL || (owned->len == 0 && !self->show_inverted))
    {
      show_latest_tree (self, NULL);
      return;
    }
  job = g_new0 (DeriveJob, 1);
  job->from = g_object_ref (latest);
  job->transforms = g_steal_pointer (&owned);
  job->invert = self->show_inverted;
  job->trees = g_ptr_array_new_with_free_func (g_object_unref);
  job->applied = transform_array_new ();
  self->derive_cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->derive_cancellable, derive_done_cb, g_object_ref (self));
  g_task_set_task_data (task, job, (GDestroyNotify) derive_job_free);
  g_task_run_in_thread (task, derive_thread);
  show_trees (self);
}

/* The tree the transforms start from (or none). The transforms carry over
 * to it when the same trace is merged again (another thread or range); a
 * focus on a subtree, on the node with the same path, and is dropped where
 * the new tree has no such path. */
static void
set_base_tree (StrataCallTreeView *self,
               StrataCallTree     *tree,
               gboolean            keep_transforms)
{
  GArray *kept = transform_array_new ();

  cancel_derive (self);
  if (!keep_transforms)
    g_clear_pointer (&self->remerged, place_free);
  else if (tree == NULL && self->remerged == NULL)
    self->remerged = current_place (self);
  if (keep_transforms)
    {
      move_transforms (kept, self->transforms);
      /* Those asked for meanwhile come after. */
      move_transforms (kept, self->pending);
    }
  g_array_set_size (self->pending, 0);
  g_ptr_array_set_size (self->trees, 0);
  g_array_set_size (self->transforms, 0);
  g_ptr_array_set_size (self->places, 0);
  g_clear_pointer (&self->follow, place_free);
  if (tree == NULL)
    {
      /* Kept for the tree being merged. */
      move_transforms (self->transforms, kept);
      g_array_unref (kept);
      show_latest_tree (self, NULL);
      return;
    }
  g_ptr_array_add (self->trees, g_object_ref (tree));
  g_clear_object (&self->tree);
  g_clear_object (&self->inverted);
  derive (self, kept);
}

/**
 * strata_call_tree_view_apply_transform:
 *
 * Reshapes the tree (top down, bottom up and flame graph alike) and adds
 * a breadcrumb, in a worker: strata_call_tree_view_is_ready() says when.
 * Asked for while another is made, it follows that one.
 */
void
strata_call_tree_view_apply_transform (StrataCallTreeView        *self,
                                       const StrataCallTransform *transform)
{
  GArray *one;
  StrataCallTransform kept;

  g_return_if_fail (STRATA_IS_CALL_TREE_VIEW (self));

  if (self->tree == NULL)
    return;
  kept = strata_call_transform_copy (transform);
  if (kept.kind == STRATA_CALL_TRANSFORM_FOCUS_SUBTREE && kept.codes == NULL)
    kept.codes = strata_call_tree_dup_codes (self->tree, kept.node, &kept.n_codes);
  if (self->derive_cancellable != NULL)
    {
      g_array_append_val (self->pending, kept);
      return;
    }
  g_clear_pointer (&self->follow, place_free);
  self->follow = current_place (self);
  one = transform_array_new ();
  g_array_append_val (one, kept);
  derive (self, one);
}

/* Undoes the last transform; while one is made, the last asked for after
 * it. */
void
strata_call_tree_view_pop_transform (StrataCallTreeView *self)
{
  Place *place;

  g_return_if_fail (STRATA_IS_CALL_TREE_VIEW (self));

  if (self->pending->len > 0)
    {
      g_array_set_size (self->pending, self->pending->len - 1);
      return;
    }
  if (self->transforms->len == 0 || self->derive_cancellable != NULL)
    return;
  sync_places (self);
  place = g_ptr_array_steal_index (self->places, self->places->len - 1);
  g_array_set_size (self->transforms, self->transforms->len - 1);
  g_ptr_array_set_size (self->trees, self->trees->len - 1);
  /* Back where the selection was before the transform: at once, or once
   * the tree bottom up is made again. */
  g_clear_pointer (&self->follow, place_free);
  self->follow = place;
  derive (self, transform_array_new ());
  if (self->derive_cancellable == NULL)
    {
      reveal_place (self, self->follow);
      g_clear_pointer (&self->follow, place_free);
    }
}

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

/* "java.util.HashMap.put": "java.util."; a class outside packages: its name. */
static char *
package_prefix (StrataTrace *trace,
                guint32      method)
{
  const char *class_name = strata_trace_get_string (trace, strata_trace_get_method (trace, method)->class_name);
  const char *dot = class_name != NULL ? strrchr (class_name, '.') : NULL;

  if (class_name == NULL || *class_name == '\0')
    return NULL;
  return dot != NULL ? g_strndup (class_name, dot - class_name + 1) : g_strconcat (class_name, ".", NULL);
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
      if (!(prefix = package_prefix (strata_call_tree_get_trace (tree), transform.method)))
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

/* The position of the table's row at @x, @y, or GTK_INVALID_LIST_POSITION:
 * the row is the nearest widget around the one there that holds a row's
 * expander, level with the point (GTK 4.8 has no call for it). */
static guint
row_at (StrataCallTreeView *self,
        double              x,
        double              y)
{
  GtkWidget *picked = gtk_widget_pick (self->column_view, x, y, GTK_PICK_DEFAULT);

  for (GtkWidget *widget = picked; widget != NULL && widget != self->column_view; widget = gtk_widget_get_parent (widget))
    {
      GtkWidget *expander = row_expander (widget, ANY_ROW);
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

/* The menu acts on the selection: the row right-clicked is selected
 * first, as in a file manager. */
static void
table_menu_cb (GtkGestureClick    *gesture,
               int                 n_press,
               double              x,
               double              y,
               StrataCallTreeView *self)
{
  guint position = row_at (self, x, y);

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

static GtkWidget *
build_menu (StrataCallTreeView *self)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) focus = g_menu_new ();
  g_autoptr(GMenu) reshape = g_menu_new ();
  GtkWidget *popover;

  g_menu_append (focus, _("Focus on _Function"), "calltree.focus-function");
  g_menu_append (focus, _("Focus on _Subtree"), "calltree.focus-subtree");
  g_menu_append (reshape, _("_Merge Function"), "calltree.merge-function");
  g_menu_append (reshape, _("Collapse _Recursion"), "calltree.collapse-recursion");
  g_menu_append (reshape, _("Collapse _Package"), "calltree.collapse-package");
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
tree_ready_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(StrataCallTreeView) self = user_data;
  g_autoptr(GError) error = NULL;
  StrataCallTree *tree = g_task_propagate_pointer (G_TASK (result), &error);

  if (tree == NULL)
    return;  /* cancelled: a newer build or the view went */
  g_clear_object (&self->cancellable);
  set_base_tree (self, tree, TRUE);
  g_object_unref (tree);
}

typedef struct
{
  StrataTrace        *trace;
  int                 thread;
  gboolean            has_range;
  StrataProfileRange  range;
} BuildJob;

static void
build_job_free (BuildJob *job)
{
  g_clear_object (&job->trace);
  g_free (job);
}

static void
build_thread (GTask        *task,
              gpointer      source,
              gpointer      data,
              GCancellable *cancellable)
{
  BuildJob *job = data;
  GError *error = NULL;
  StrataCallTree *tree = strata_call_tree_new (job->trace, job->thread, FALSE, job->has_range ? &job->range : NULL,
                                               cancellable, &error);

  if (tree == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, tree, g_object_unref);
}

/* The tree on show follows the trace, the thread selector and, with
 * "Selected Range", the range. */
static void
rebuild (StrataCallTreeView *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  g_autoptr(GTask) task = NULL;
  BuildJob *job;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  /* Another trace: its methods are others, the transforms go. */
  set_base_tree (self, NULL, trace == self->merged_trace);
  g_set_object (&self->merged_trace, trace);
  if (trace == NULL || strata_trace_get_n_spans (trace) == 0)
    return;
  job = g_new0 (BuildJob, 1);
  job->trace = g_object_ref (trace);
  job->thread = strata_session_get_profile_thread (self->session);
  self->built_thread = job->thread;
  job->range.clock = strata_session_get_clock (self->session);
  job->has_range = strata_session_get_range_only (self->session) &&
                   strata_session_get_selection_range (self->session, &job->range.start, &job->range.end);
  self->cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->cancellable, tree_ready_cb, g_object_ref (self));
  g_task_set_task_data (task, job, (GDestroyNotify) build_job_free);
  g_task_run_in_thread (task, build_thread);
}

static void
selection_range_changed_cb (StrataCallTreeView *self)
{
  if (strata_session_get_range_only (self->session))
    rebuild (self);
}

static void
direction_toggled_cb (StrataCallTreeView *self)
{
  strata_call_tree_view_set_inverted (self, gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->bottom_up_button)));
}

static void
view_toggled_cb (StrataCallTreeView *self)
{
  strata_call_tree_view_set_view (self, gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->flame_button)) ? "flame" : "tree");
}

/* ---- Setup ---- */

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

/* ---- Export ---- */

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
  StrataCallTree *tree = shown_tree (self);
  g_autoptr(StrataTableWriter) writer = NULL;

  if (tree == NULL)
    return g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("There is no call tree to export")), FALSE;
  if ((writer = strata_table_writer_new (file, error)) == NULL)
    return FALSE;
  return strata_call_tree_write_table (tree, writer, error) && strata_table_writer_finish (writer, error);
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
  g_autofree char *name = strata_table_export_name (trace,
                                                    self->show_inverted ? "bottom-up" : "call-tree");

  strata_export_dialog_run (widget, _("Export the Call Tree"), name, export_cb, NULL);
}

static GtkWidget *
export_button_new (void)
{
  GtkWidget *button = gtk_button_new_from_icon_name ("document-save-as-symbolic");

  gtk_widget_set_tooltip_text (button, _("Export the Call Tree as CSV or TSV"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Export the Call Tree"), -1);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "calltree.export");
  return button;
}

static GtkWidget *
build_header (StrataCallTreeView *self)
{
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

  g_object_set (header, "margin-start", 6, "margin-end", 6, "margin-top", 6, "margin-bottom", 6, NULL);
  gtk_box_append (GTK_BOX (header), linked_pair (_("_Top Down"), _("_Bottom Up"), &self->bottom_up_button));
  gtk_box_append (GTK_BOX (header), linked_pair (_("T_ree"), _("_Flame Graph"), &self->flame_button));
  g_signal_connect_swapped (self->bottom_up_button, "toggled", G_CALLBACK (direction_toggled_cb), self);
  g_signal_connect_swapped (self->flame_button, "toggled", G_CALLBACK (view_toggled_cb), self);
  self->status = gtk_label_new (_("Merging the calls…"));
  gtk_widget_add_css_class (self->status, "dim-label");
  gtk_widget_set_hexpand (self->status, TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->status), 0);
  gtk_box_append (GTK_BOX (header), self->status);
  gtk_box_append (GTK_BOX (header), export_button_new ());
  return header;
}

static GtkWidget *
build_flame_page (StrataCallTreeView *self)
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
  g_signal_connect_object (self->flame, "notify::selected", G_CALLBACK (bar_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->flame, "node-activated", G_CALLBACK (bar_activated_cb), self, G_CONNECT_SWAPPED);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->flame);
  /* The graph scrolls to its selected bar; as a whole, it is taller than
   * the window, and scrolling to it would go to its end. */
  gtk_viewport_set_scroll_to_focus (GTK_VIEWPORT (gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller))), FALSE);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (page), self->flame_bar);
  gtk_box_append (GTK_BOX (page), scroller);
  return page;
}

static GtkWidget *
build_tree_page (StrataCallTreeView *self)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  self->column_view = gtk_column_view_new (NULL);
  self->clock_columns = strata_clock_columns_new (self->column_view);
  strata_accessible_name_children (self->column_view, _("Call tree"));
  build_columns (self, NULL);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->column_view);
  return scroller;
}

static void
strata_call_tree_view_dispose (GObject *object)
{
  StrataCallTreeView *self = STRATA_CALL_TREE_VIEW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  cancel_derive (self);
  forget_baseline (self);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_pointer (&self->menu, gtk_widget_unparent);
  g_clear_pointer (&self->trees, g_ptr_array_unref);
  if (self->focus_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->focus_tick);
  self->focus_tick = 0;
  g_clear_pointer (&self->places, g_ptr_array_unref);
  g_clear_pointer (&self->follow, place_free);
  g_clear_pointer (&self->remerged, place_free);
  g_clear_object (&self->clock_columns);
  g_clear_pointer (&self->transforms, g_array_unref);
  g_clear_pointer (&self->pending, g_array_unref);
  g_clear_object (&self->selection);
  g_clear_object (&self->tree);
  g_clear_object (&self->inverted);
  g_clear_object (&self->session);
  g_clear_object (&self->merged_trace);
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
  gtk_widget_class_add_binding (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, copy_path_cb, NULL);
  gtk_widget_class_install_action (widget_class, "calltree.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "calltree.focus-function", NULL, transform_action);
  gtk_widget_class_install_action (widget_class, "calltree.focus-subtree", NULL, transform_action);
  gtk_widget_class_install_action (widget_class, "calltree.merge-function", NULL, transform_action);
  gtk_widget_class_install_action (widget_class, "calltree.collapse-recursion", NULL, transform_action);
  gtk_widget_class_install_action (widget_class, "calltree.collapse-package", NULL, transform_action);
  gtk_widget_class_install_action (widget_class, "calltree.drop-function", NULL, transform_action);
  gtk_widget_class_install_action (widget_class, "calltree.pop-transform", NULL, transform_action);
  /* Firefox Profiler's keys, where they do not clash with the window's. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F, GDK_SHIFT_MASK, "calltree.focus-function", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, 0, "calltree.focus-subtree", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_m, 0, "calltree.merge-function", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, 0, "calltree.collapse-recursion", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, 0, "calltree.collapse-package", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "calltree.pop-transform", NULL);
  gtk_widget_class_set_css_name (widget_class, "calltreeview");
}

static void
strata_call_tree_view_init (StrataCallTreeView *self)
{
  self->trees = g_ptr_array_new_with_free_func (g_object_unref);
  self->places = g_ptr_array_new_with_free_func ((GDestroyNotify) place_free);
  self->transforms = transform_array_new ();
  self->pending = transform_array_new ();
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_box_append (GTK_BOX (self->box), build_header (self));
  gtk_box_append (GTK_BOX (self->box), build_transform_bar (self));
  self->stack = gtk_stack_new ();
  gtk_widget_set_vexpand (self->stack, TRUE);
  gtk_stack_add_named (GTK_STACK (self->stack), build_tree_page (self), "tree");
  gtk_stack_add_named (GTK_STACK (self->stack), build_flame_page (self), "flame");
  gtk_box_append (GTK_BOX (self->box), self->stack);
  self->menu = build_menu (self);
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
  gtk_widget_add_controller (self->column_view, hot_path_keys (self));
  update_transform_bar (self);
}

GtkWidget *
strata_call_tree_view_new (StrataSession *session)
{
  StrataCallTreeView *self;

  g_return_val_if_fail (STRATA_IS_SESSION (session), NULL);

  self = g_object_new (STRATA_TYPE_CALL_TREE_VIEW, NULL);
  self->session = g_object_ref (session);
  g_signal_connect_object (session, "notify::trace", G_CALLBACK (rebuild), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::profile-thread", G_CALLBACK (rebuild), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::range-only", G_CALLBACK (rebuild), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "selection-range-changed", G_CALLBACK (selection_range_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::clock", G_CALLBACK (show_trees), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "selected-item-changed", G_CALLBACK (selected_item_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::profile", G_CALLBACK (fill_flame), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::comparison", G_CALLBACK (comparison_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "names-changed", G_CALLBACK (show_trees), self, G_CONNECT_SWAPPED);
  rebuild (self);
  return GTK_WIDGET (self);
}

/* @view: "tree" or "flame" */
void
strata_call_tree_view_set_view (StrataCallTreeView *self,
                                const char         *view)
{
  gboolean flame;

  g_return_if_fail (STRATA_IS_CALL_TREE_VIEW (self));

  flame = g_strcmp0 (view, "flame") == 0;
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), flame ? "flame" : "tree");
  /* The row of a bar selected meanwhile, once the table is laid out. */
  if (!flame)
    focus_selected_row_soon (self);
  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->flame_button)) != flame)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->flame_button), flame);
}

void
strata_call_tree_view_set_inverted (StrataCallTreeView *self,
                                    gboolean            inverted)
{
  g_return_if_fail (STRATA_IS_CALL_TREE_VIEW (self));

  inverted = !!inverted;
  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->bottom_up_button)) != inverted)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->bottom_up_button), inverted);
  if (self->show_inverted == inverted)
    return;
  self->show_inverted = inverted;
  if (inverted && self->inverted == NULL && self->tree != NULL)
    derive (self, transform_array_new ());
  else
    show_trees (self);
}

gboolean
strata_call_tree_view_is_ready (StrataCallTreeView *self)
{
  g_return_val_if_fail (STRATA_IS_CALL_TREE_VIEW (self), FALSE);

  return shown_tree (self) != NULL && self->derive_cancellable == NULL;
}

StrataCallTree *
strata_call_tree_view_get_tree (StrataCallTreeView *self)
{
  g_return_val_if_fail (STRATA_IS_CALL_TREE_VIEW (self), NULL);

  return shown_tree (self);
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
