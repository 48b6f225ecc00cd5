/* strata-dominators-view.c: a heap dump's dominator tree, or a class's
 * instances, beside the selected object's inspector
 *
 * The top level lists the objects only the GC roots as a whole dominate
 * (or the instances of one class), each expanding, lazily, to what it
 * alone keeps alive, largest retained size first, as Eclipse MAT's
 * dominator tree does. Several rows selected (Ctrl or Shift and a
 * click) say what they retain together, found off the main thread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-accessible.h"
#include "strata-dominators-view.h"
#include "strata-heap.h"
#include "strata-heap-object-list.h"
#include "strata-heap-object-row.h"
#include "strata-object-inspector.h"
#include "strata-table-column.h"
#include "strata-units.h"

struct _StrataDominatorsView
{
  GtkWidget   parent_instance;

  GtkWidget  *paned;
  GtkWidget  *scroller;
  GtkWidget  *column_view;
  GtkWidget  *inspector;
  GtkWidget  *group_button;  /* NULL for a class's instances */
  GtkWidget  *status;        /* "Sorting…" while a long list sorts */
  GtkWidget  *together;      /* what the selected objects retain together */
  GCancellable *summing;     /* that sum, while it runs */
  StrataTrace *trace;
  GListModel *model;         /* GtkTreeListRow items */
  /* A top level too long for GTK's sort model (a row per item): it sorts
   * itself, in a worker, when a header is clicked. */
  StrataHeapObjectList *long_list;
  GCancellable *sorting;
  StrataHeapObjectList *objects;  /* the top, object by object, for exports */
  int         inspector_width;    /* as the user left it; 0: a default share */
  gboolean    placed;             /* the divider was put where it was left */
};

enum { PROP_0, PROP_INSPECTOR_WIDTH, N_PROPS };
static GParamSpec *properties[N_PROPS];

/* Wide enough for the path from a GC root without a drag. */
#define DEFAULT_INSPECTOR_SHARE 0.42

G_DEFINE_FINAL_TYPE (StrataDominatorsView, strata_dominators_view, GTK_TYPE_WIDGET)

#define MAX_SORTED 100000

typedef enum
{
  COLUMN_OBJECT,
  COLUMN_SHALLOW,
  COLUMN_RETAINED,
  COLUMN_SHARE,
} Column;

static char *
object_cell_text (gpointer row,
                  gpointer data)
{
  /* A long list's last row says how many more; it has no sizes. */
  if (GPOINTER_TO_INT (data) != COLUMN_OBJECT && strata_heap_object_row_is_more (row))
    return g_strdup ("");
  switch (GPOINTER_TO_INT (data))
    {
    case COLUMN_OBJECT:
      return strata_heap_object_row_dup_label (row);
    case COLUMN_SHALLOW:
      return strata_units_format_count (strata_heap_object_row_get_shallow (row));
    case COLUMN_RETAINED:
      return strata_units_format_count (strata_heap_object_row_get_retained (row));
    case COLUMN_SHARE:
    default:
      return g_strdup_printf ("%.1f%%", 100 * strata_heap_object_row_get_share (row));
    }
}

static GListModel *
create_children (gpointer item,
                 gpointer data)
{
  return strata_heap_object_row_list_children (item);
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      key)
{
  return strata_heap_object_row_compare ((StrataHeapObjectRow *) a, (StrataHeapObjectRow *) b, GPOINTER_TO_UINT (key));
}

static void
show_sorting (StrataDominatorsView *self,
              gboolean              sorting)
{
  gtk_widget_set_visible (self->status, sorting);
  gtk_widget_set_sensitive (self->column_view, !sorting);
}

static void
sorted_cb (GObject      *list,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(StrataDominatorsView) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!strata_heap_object_list_sort_finish (STRATA_HEAP_OBJECT_LIST (list), result, &error))
    return;  /* cancelled: a newer sort or the view went */
  g_clear_object (&self->sorting);
  if (self->status != NULL)
    show_sorting (self, FALSE);
}

static void
sorter_changed_cb (GtkSorter            *sorter,
                   GtkSorterChange       change,
                   StrataDominatorsView *self)
{
  gboolean descending;
  int key;
  g_autofree char *count = NULL, *text = NULL;

  if (self->long_list == NULL || (key = strata_table_column_probe_sort (sorter, &descending)) < 0)
    return;
  if (self->sorting != NULL)
    g_cancellable_cancel (self->sorting);
  g_set_object (&self->sorting, g_cancellable_new ());
  count = strata_units_format_count (strata_heap_object_list_get_length (self->long_list));
  /* Translators: %s is a number of objects */
  text = g_strdup_printf (_("Sorting %s objects…"), count);
  gtk_label_set_label (GTK_LABEL (self->status), text);
  show_sorting (self, TRUE);
  strata_heap_object_list_sort_async (self->long_list, key, descending, self->sorting, sorted_cb, g_object_ref (self));
}

/* For tests: whether a long list is still being sorted. */
gboolean
strata_dominators_view_is_sorting (StrataDominatorsView *self)
{
  g_return_val_if_fail (STRATA_IS_DOMINATORS_VIEW (self), FALSE);

  return self->sorting != NULL;
}

static GtkSorter *
column_sorter (Column column)
{
  guint key = column == COLUMN_OBJECT ? 0 : column == COLUMN_SHALLOW ? 1 : 2;

  return strata_table_column_sorter_new (key, compare_rows, GUINT_TO_POINTER (key));
}

static void
add_column (StrataDominatorsView *self,
            const char           *title,
            Column                column)
{
  g_autoptr(GtkColumnViewColumn) view_column =
    strata_table_column_new (title, column == COLUMN_OBJECT ? STRATA_TABLE_CELL_TREE : STRATA_TABLE_CELL_NUMBER,
                             object_cell_text, GINT_TO_POINTER (column), column_sorter (column));

  if (column == COLUMN_OBJECT)
    gtk_column_view_column_set_expand (view_column, TRUE);
  gtk_column_view_append_column (GTK_COLUMN_VIEW (self->column_view), view_column);
}

typedef struct
{
  StrataTrace *trace;
  guint32     *objects;
  guint32      n_objects;
  guint64      bytes;
  guint64      n_retained;
} SetSum;

static void
set_sum_free (gpointer data)
{
  SetSum *sum = data;

  g_object_unref (sum->trace);
  g_free (sum->objects);
  g_free (sum);
}

static void
sum_thread (GTask        *task,
            gpointer      source,
            gpointer      data,
            GCancellable *cancellable)
{
  SetSum *sum = data;
  StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (sum->trace));

  sum->bytes = strata_heap_graph_retained_by_set (graph, sum->objects, sum->n_objects, &sum->n_retained, cancellable);
  g_task_return_boolean (task, !g_cancellable_is_cancelled (cancellable));
}

static void
sum_done_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      data)
{
  StrataDominatorsView *self = STRATA_DOMINATORS_VIEW (object);
  SetSum *sum = g_task_get_task_data (G_TASK (result));
  g_autofree char *count = NULL, *retained = NULL, *bytes = NULL, *text = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), NULL) || self->together == NULL)
    return;
  count = strata_units_format_count (sum->n_objects);
  retained = strata_units_format_count (sum->n_retained);
  bytes = g_format_size (sum->bytes);
  /* Translators: "3 objects selected retain 1.2 MB together (4,560 objects)" */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s object selected retains %s together (%s objects)",
                                       "%s objects selected retain %s together (%s objects)", sum->n_objects),
                          count, bytes, retained);
  gtk_label_set_text (GTK_LABEL (self->together), text);
}

/* The objects of the selected rows (a class's group row is none). */
static GArray *
selected_objects (StrataDominatorsView *self,
                  GtkSelectionModel    *selection)
{
  g_autoptr(GtkBitset) rows = gtk_selection_model_get_selection (selection);
  GArray *objects = g_array_new (FALSE, FALSE, sizeof (guint32));
  GtkBitsetIter iter;
  guint position;

  for (gboolean more = gtk_bitset_iter_init_first (&iter, rows, &position); more; more = gtk_bitset_iter_next (&iter, &position))
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (selection), position);
      g_autoptr(StrataHeapObjectRow) item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
      guint32 object = item != NULL ? strata_heap_object_row_get_object (item) : STRATA_HEAP_NO_OBJECT;

      if (object != STRATA_HEAP_NO_OBJECT)
        g_array_append_val (objects, object);
    }
  return objects;
}

/* Several objects: what they keep alive together, summed in a worker. */
static void
sum_selection (StrataDominatorsView *self,
               GArray               *objects)
{
  SetSum *sum = g_new0 (SetSum, 1);
  g_autoptr(GTask) task = NULL;

  if (self->summing != NULL)
    g_cancellable_cancel (self->summing);
  g_clear_object (&self->summing);
  self->summing = g_cancellable_new ();
  sum->trace = g_object_ref (self->trace);
  sum->n_objects = objects->len;
  sum->objects = g_memdup2 (objects->data, objects->len * sizeof (guint32));
  task = g_task_new (self, self->summing, sum_done_cb, NULL);
  g_task_set_task_data (task, sum, set_sum_free);
  g_task_run_in_thread (task, sum_thread);
  gtk_label_set_text (GTK_LABEL (self->together), _("Summing what the selected objects retain together…"));
  gtk_widget_set_visible (self->together, TRUE);
}

static void
selection_changed_cb (GtkSelectionModel    *selection,
                      guint                 position,
                      guint                 n_items,
                      StrataDominatorsView *self)
{
  g_autoptr(GArray) objects = selected_objects (self, selection);

  if (objects->len >= 2)
    {
      sum_selection (self, objects);
      return;
    }
  if (self->summing != NULL)
    g_cancellable_cancel (self->summing);
  gtk_widget_set_visible (self->together, FALSE);
  if (objects->len == 1)
    strata_object_inspector_show (STRATA_OBJECT_INSPECTOR (self->inspector), g_array_index (objects, guint32, 0));
}

/* Enter or a double click on a long list's last row shows its next page. */
static void
activate_cb (GtkColumnView        *column_view,
             guint                 position,
             StrataDominatorsView *self)
{
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (self->model, position);
  g_autoptr(StrataHeapObjectRow) item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;

  if (item != NULL)
    strata_heap_object_row_show_more (item);
}

/* The rows the tree starts from: @top (taken), each expanding lazily. */
static void
set_top (StrataDominatorsView *self,
         GListModel           *top)
{
  GtkTreeListModel *tree;
  GtkMultiSelection *selection;

  if (top == NULL)
    top = G_LIST_MODEL (g_list_store_new (STRATA_TYPE_HEAP_OBJECT_ROW));
  if (self->sorting != NULL)
    g_cancellable_cancel (self->sorting);
  g_clear_object (&self->sorting);
  show_sorting (self, FALSE);
  g_clear_object (&self->long_list);
  tree = gtk_tree_list_model_new (top, FALSE, FALSE, create_children, NULL, NULL);
  g_clear_object (&self->model);
  /* Sorting by a column keeps children under their parent; it makes a row
   * for every item, so a list of millions sorts itself instead (its
   * children stay largest retained first). */
  if (STRATA_IS_HEAP_OBJECT_LIST (top) && strata_heap_object_list_get_length (STRATA_HEAP_OBJECT_LIST (top)) > MAX_SORTED)
    self->long_list = g_object_ref (STRATA_HEAP_OBJECT_LIST (top));
  if (self->long_list == NULL)
    {
      GtkTreeListRowSorter *sorter = gtk_tree_list_row_sorter_new (g_object_ref (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view))));

      self->model = G_LIST_MODEL (gtk_sort_list_model_new (G_LIST_MODEL (tree), GTK_SORTER (sorter)));
    }
  else
    self->model = G_LIST_MODEL (tree);
  selection = gtk_multi_selection_new (g_object_ref (self->model));
  g_signal_connect_object (selection, "selection-changed", G_CALLBACK (selection_changed_cb), self, 0);
  gtk_column_view_set_model (GTK_COLUMN_VIEW (self->column_view), GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
}

/* Once the pane has a width: the inspector as wide as it was left on any
 * page, or a default share. */
static void
place_divider (StrataDominatorsView *self)
{
  int max = 0, width = gtk_widget_get_width (self->paned);

  g_object_get (self->paned, "max-position", &max, NULL);
  if (self->placed || max <= 0 || width <= 0)
    return;
  self->placed = TRUE;
  gtk_paned_set_position (GTK_PANED (self->paned),
                          width - (self->inspector_width > 0 ? MIN (self->inspector_width, width - 200)
                                                            : (int) (width * DEFAULT_INSPECTOR_SHARE)));
}

static void
divider_moved (StrataDominatorsView *self)
{
  int width = gtk_widget_get_width (self->paned);
  int inspector = width - gtk_paned_get_position (GTK_PANED (self->paned));

  if (!self->placed || width <= 0 || inspector == self->inspector_width)
    return;
  self->inspector_width = inspector;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INSPECTOR_WIDTH]);
}

/**
 * strata_dominators_view_set_inspector_width:
 * @width: pixels, or 0 for a default share
 *
 * How wide the inspector opens; a drag of the divider changes it and
 * notifies "inspector-width".
 */
void
strata_dominators_view_set_inspector_width (StrataDominatorsView *self,
                                            int                   width)
{
  g_return_if_fail (STRATA_IS_DOMINATORS_VIEW (self));

  if (self->inspector_width == width)
    return;
  self->inspector_width = width;
  self->placed = FALSE;
  place_divider (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INSPECTOR_WIDTH]);
}

int
strata_dominators_view_get_inspector_width (StrataDominatorsView *self)
{
  g_return_val_if_fail (STRATA_IS_DOMINATORS_VIEW (self), 0);

  return self->inspector_width;
}

static void
build (StrataDominatorsView *self,
       StrataTrace          *trace,
       GListModel           *top,
       const char           *name)
{
  self->trace = g_object_ref (trace);
  self->column_view = gtk_column_view_new (NULL);
  gtk_widget_add_css_class (self->column_view, "data-table");
  strata_accessible_name_children (self->column_view, name);
  add_column (self, _("Object"), COLUMN_OBJECT);
  add_column (self, _("Shallow bytes"), COLUMN_SHALLOW);
  add_column (self, _("Retained bytes"), COLUMN_RETAINED);
  add_column (self, _("Retained %"), COLUMN_SHARE);
  g_signal_connect_object (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view)), "changed",
                           G_CALLBACK (sorter_changed_cb), self, 0);
  g_signal_connect (self->column_view, "activate", G_CALLBACK (activate_cb), self);
  set_top (self, top);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), self->column_view);
  self->inspector = strata_object_inspector_new (trace);
  gtk_paned_set_end_child (GTK_PANED (self->paned), self->inspector);
  gtk_paned_set_resize_end_child (GTK_PANED (self->paned), FALSE);
  gtk_widget_set_size_request (self->inspector, 320, -1);
  g_signal_connect_object (self->paned, "notify::max-position", G_CALLBACK (place_divider), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->paned, "notify::position", G_CALLBACK (divider_moved), self, G_CONNECT_SWAPPED);
}

/**
 * strata_dominators_view_set_grouped:
 *
 * Lists the top of the tree by class (one row per class, expanding to its
 * objects), or object by object.
 */
void
strata_dominators_view_set_grouped (StrataDominatorsView *self,
                                    gboolean              grouped)
{
  g_return_if_fail (STRATA_IS_DOMINATORS_VIEW (self));

  set_top (self, grouped ? strata_heap_object_row_list_groups (self->trace)
                         : (GListModel *) strata_heap_object_list_new_dominated (self->trace, STRATA_HEAP_NO_OBJECT));
  if (self->group_button != NULL && gtk_check_button_get_active (GTK_CHECK_BUTTON (self->group_button)) != grouped)
    gtk_check_button_set_active (GTK_CHECK_BUTTON (self->group_button), grouped);
}

static void
group_toggled_cb (StrataDominatorsView *self)
{
  strata_dominators_view_set_grouped (self, gtk_check_button_get_active (GTK_CHECK_BUTTON (self->group_button)));
}

/**
 * strata_dominators_view_dup_rows:
 * @filtered: the top rows on show, in their order, rather than every
 *   object at the top
 *
 * Returns: (transfer full): the top of the tree (or a class's
 *   instances), a StrataHeapObjectRow each, for export
 */
GListModel *
strata_dominators_view_dup_rows (StrataDominatorsView *self,
                                 gboolean              filtered)
{
  guint n = filtered ? g_list_model_get_n_items (self->model) : strata_heap_object_list_get_length (self->objects);
  GListStore *rows = g_list_store_new (STRATA_TYPE_HEAP_OBJECT_ROW);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = filtered ? g_list_model_get_item (self->model, i) : NULL;
      g_autoptr(StrataHeapObjectRow) row = NULL;

      if (filtered && gtk_tree_list_row_get_depth (GTK_TREE_LIST_ROW (item)) > 0)
        continue;
      row = filtered ? gtk_tree_list_row_get_item (GTK_TREE_LIST_ROW (item))
                     : strata_heap_object_row_new (self->trace, strata_heap_object_list_get_object (self->objects, i));
      g_list_store_append (rows, row);
    }
  return G_LIST_MODEL (rows);
}

/* The dominator tree from its top, with a switch to group it by class. */
GtkWidget *
strata_dominators_view_new (StrataTrace *trace)
{
  StrataDominatorsView *self = g_object_new (STRATA_TYPE_DOMINATORS_VIEW, NULL);
  GtkWidget *start = gtk_paned_get_start_child (GTK_PANED (self->paned));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  self->objects = strata_heap_object_list_new_dominated (trace, STRATA_HEAP_NO_OBJECT);
  build (self, trace, g_object_ref (G_LIST_MODEL (self->objects)), _("Dominator tree"));
  self->group_button = gtk_check_button_new_with_mnemonic (_("_Group by Class"));
  gtk_widget_set_margin_start (self->group_button, 6);
  gtk_widget_set_margin_top (self->group_button, 4);
  gtk_widget_set_margin_bottom (self->group_button, 4);
  g_signal_connect_swapped (self->group_button, "toggled", G_CALLBACK (group_toggled_cb), self);
  g_object_ref (start);
  gtk_paned_set_start_child (GTK_PANED (self->paned), box);
  gtk_box_append (GTK_BOX (box), self->group_button);
  gtk_widget_set_vexpand (start, TRUE);
  gtk_box_append (GTK_BOX (box), start);
  g_object_unref (start);
  return GTK_WIDGET (self);
}

/* The instances of @heap_class, each expanding to what it keeps alive. */
GtkWidget *
strata_dominators_view_new_for_class (StrataTrace *trace,
                                      guint        heap_class)
{
  StrataDominatorsView *self = g_object_new (STRATA_TYPE_DOMINATORS_VIEW, NULL);

  self->objects = strata_heap_object_list_new_instances (trace, heap_class);
  build (self, trace, g_object_ref (G_LIST_MODEL (self->objects)), _("Instances"));
  return GTK_WIDGET (self);
}

/* @objects (copied) in their order, as a flat list. */
GtkWidget *
strata_dominators_view_new_for_objects (StrataTrace   *trace,
                                        const guint32 *objects,
                                        guint32        n_objects)
{
  StrataDominatorsView *self = g_object_new (STRATA_TYPE_DOMINATORS_VIEW, NULL);

  self->objects = strata_heap_object_list_new (trace, objects, n_objects);
  build (self, trace, g_object_ref (G_LIST_MODEL (self->objects)), _("Instances"));
  return GTK_WIDGET (self);
}

StrataObjectInspector *
strata_dominators_view_get_inspector (StrataDominatorsView *self)
{
  g_return_val_if_fail (STRATA_IS_DOMINATORS_VIEW (self), NULL);

  return STRATA_OBJECT_INSPECTOR (self->inspector);
}

/* Items are GtkTreeListRow; for tests and screen readers. */
GListModel *
strata_dominators_view_get_model (StrataDominatorsView *self)
{
  g_return_val_if_fail (STRATA_IS_DOMINATORS_VIEW (self), NULL);

  return self->model;
}

static void
strata_dominators_view_dispose (GObject *object)
{
  StrataDominatorsView *self = STRATA_DOMINATORS_VIEW (object);

  g_clear_pointer (&self->paned, gtk_widget_unparent);
  self->scroller = self->column_view = self->inspector = self->group_button = NULL;
  if (self->sorting != NULL)
    g_cancellable_cancel (self->sorting);
  g_clear_object (&self->sorting);
  if (self->summing != NULL)
    g_cancellable_cancel (self->summing);
  g_clear_object (&self->summing);
  g_clear_object (&self->long_list);
  g_clear_object (&self->objects);
  self->status = self->together = NULL;
  g_clear_object (&self->model);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (strata_dominators_view_parent_class)->dispose (object);
}

static void
strata_dominators_view_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  if (prop_id == PROP_INSPECTOR_WIDTH)
    g_value_set_int (value, STRATA_DOMINATORS_VIEW (object)->inspector_width);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
strata_dominators_view_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  if (prop_id == PROP_INSPECTOR_WIDTH)
    strata_dominators_view_set_inspector_width (STRATA_DOMINATORS_VIEW (object), g_value_get_int (value));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
strata_dominators_view_class_init (StrataDominatorsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = strata_dominators_view_dispose;
  object_class->get_property = strata_dominators_view_get_property;
  object_class->set_property = strata_dominators_view_set_property;
  properties[PROP_INSPECTOR_WIDTH] = g_param_spec_int ("inspector-width", NULL, NULL, 0, G_MAXINT, 0,
                                                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
strata_dominators_view_init (StrataDominatorsView *self)
{
  GtkWidget *list_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  self->paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  self->scroller = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (self->scroller, TRUE);
  self->status = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->status, "dim-label");
  gtk_widget_set_margin_top (self->status, 4);
  gtk_widget_set_margin_bottom (self->status, 4);
  gtk_widget_set_visible (self->status, FALSE);
  self->together = gtk_label_new (NULL);
  gtk_widget_set_name (self->together, "retained-together");
  gtk_widget_set_margin_top (self->together, 4);
  gtk_widget_set_margin_bottom (self->together, 4);
  gtk_widget_set_visible (self->together, FALSE);
  gtk_box_append (GTK_BOX (list_box), self->scroller);
  gtk_box_append (GTK_BOX (list_box), self->together);
  gtk_box_append (GTK_BOX (list_box), self->status);
  gtk_paned_set_start_child (GTK_PANED (self->paned), list_box);
  gtk_paned_set_shrink_start_child (GTK_PANED (self->paned), FALSE);
  gtk_widget_set_parent (self->paned, GTK_WIDGET (self));
}

/* @column: as shown left to right (0 object, 1 shallow, 2 retained,
 * 3 share); for tests, as a header click would. */
void
strata_dominators_view_sort_by (StrataDominatorsView *self,
                                guint                 column,
                                GtkSortType           order)
{
  g_autoptr(GtkColumnViewColumn) view_column = g_list_model_get_item (gtk_column_view_get_columns (GTK_COLUMN_VIEW (self->column_view)),
                                                                      column);

  gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (self->column_view), view_column, order);
}
