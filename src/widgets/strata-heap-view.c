/* strata-heap-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-heap-groups.h"
#include "strata-heap-labels.h"
#include "strata-accessible.h"
#include "strata-dominators-view.h"
#include "strata-duplicates-view.h"
#include "strata-export-dialog.h"
#include "strata-heap-object-row.h"
#include "strata-heap-row.h"
#include "strata-heap-view-private.h"
#include "strata-csv-export.h"
#include "strata-widgets.h"
#include "strata-sites-view-private.h"
#include "strata-table-column.h"
#include "strata-units.h"

struct _StrataHeapView
{
  GtkWidget        parent_instance;

  StrataSession   *session;
  GtkWidget       *box;
  GtkWidget       *search;
  GtkWidget       *stack;
  GtkWidget       *column_view;
  GtkStringFilter *filter;
  GListModel      *model;        /* sorted and filtered class rows, or NULL */
  GListStore      *rows;         /* all class rows, for the heap shown */
  GtkWidget       *heap_dropdown;  /* Android: which heap; else NULL */
  GtkWidget       *group_dropdown; /* classes, or packages, or loaders */
  GtkCustomFilter *group_filter;   /* the classes of one group, after its row was activated */
  gboolean        *in_group;       /* by class, or NULL for all */
  GtkWidget       *group_chip;     /* says which group, and clears it */
  int              inspector_width;  /* every page's inspector, as last left */
};

enum { PROP_0, PROP_INSPECTOR_WIDTH, N_PROPS };
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StrataHeapView, strata_heap_view, GTK_TYPE_WIDGET)

typedef enum
{
  COLUMN_CLASS,
  COLUMN_INSTANCES,
  COLUMN_BYTES,
  COLUMN_RETAINED,
  COLUMN_RETAINED_SHARE,
} Column;

static char *
heap_cell_text (gpointer row,
                gpointer data)
{
  switch (GPOINTER_TO_INT (data))
    {
    case COLUMN_RETAINED:
      return strata_units_format_count (strata_heap_row_get_retained_bytes (row));
    case COLUMN_RETAINED_SHARE:
      return g_strdup_printf ("%.1f%%", 100 * strata_heap_row_get_retained_share (row));
    case COLUMN_CLASS:
      return g_strdup (strata_heap_row_get_name (row));
    case COLUMN_INSTANCES:
      return strata_units_format_count (strata_heap_row_get_instances (row));
    case COLUMN_BYTES:
    default:
      return strata_units_format_count (strata_heap_row_get_shallow_bytes (row));
    }
}

static GtkColumnViewColumn *
add_column (StrataHeapView *self,
            const char     *title,
            Column          column,
            GtkSorter      *sorter)
{
  g_autoptr(GtkColumnViewColumn) view_column =
    strata_table_column_new (title, column == COLUMN_CLASS ? STRATA_TABLE_CELL_TEXT : STRATA_TABLE_CELL_NUMBER,
                             heap_cell_text, GINT_TO_POINTER (column), sorter);

  gtk_column_view_append_column (GTK_COLUMN_VIEW (self->column_view), view_column);
  return view_column;
}

static GtkSorter *
numeric_sorter (const char *property)
{
  GtkSorter *sorter = GTK_SORTER (gtk_numeric_sorter_new (gtk_property_expression_new (STRATA_TYPE_HEAP_ROW, NULL, property)));

  /* The biggest first when a number column is first clicked. */
  gtk_numeric_sorter_set_sort_order (GTK_NUMERIC_SORTER (sorter), GTK_SORT_DESCENDING);
  return sorter;
}

static char *
summary_text (StrataTrace      *trace,
              const StrataHeap *heap)
{
  GString *text = g_string_new (NULL);
  guint64 instances, bytes;
  guint n_classes = strata_heap_get_n_classes (heap);
  g_autofree char *class_count = strata_units_format_count (n_classes);
  g_autofree char *object_count = NULL, *classes = NULL, *objects = NULL, *size = NULL;

  strata_heap_get_totals (heap, &instances, &bytes);
  object_count = strata_units_format_count (instances);
  /* Translators: %s is a number of classes */
  classes = g_strdup_printf (ngettext ("%s class", "%s classes", n_classes), class_count);
  /* Translators: %s is a number of objects */
  objects = g_strdup_printf (ngettext ("%s object", "%s objects", instances), object_count);
  size = g_format_size (bytes);
  /* Translators: classes, objects (as "12 classes", "3 objects") and their size */
  g_string_append_printf (text, _("%s, %s, %s shallow"), classes, objects, size);
  g_string_append_printf (text, " · %s", _("GC roots:"));
  for (guint kind = 0; kind < STRATA_N_ROOT_KINDS; kind++)
    if (strata_heap_get_root_count (heap, kind) > 0)
      {
        g_autofree char *count = strata_units_format_count (strata_heap_get_root_count (heap, kind));

        g_string_append_printf (text, " %s %s,", strata_root_kind_get_name (kind), count);
      }
  if (text->str[text->len - 1] == ',')
    g_string_truncate (text, text->len - 1);
  return g_string_free (text, FALSE);
}

/* One row per class, with its figures in @which heap (-1: all of them). */
static void
fill_rows (GListStore       *store,
           StrataTrace      *trace,
           const StrataHeap *heap,
           int               which)
{
  StrataHeapGraph *graph = strata_heap_get_graph (heap);
  guint64 reachable = graph != NULL ? strata_heap_graph_get_reachable_bytes (graph) : 0;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < strata_heap_get_n_classes (heap); i++)
    {
      const StrataHeapClass *klass = strata_heap_get_class (heap, i);
      StrataHeapClassShare all = { klass->instances, klass->shallow_bytes, klass->retained_bytes };
      const StrataHeapClassShare *share = which >= 0 ? strata_heap_get_class_in_heap (heap, which, i) : &all;
      StrataHeapRow *row;

      /* A heap's page lists only the classes it holds. */
      if (which >= 0 && share->instances == 0)
        continue;
      row = strata_heap_row_new (strata_trace_get_string (trace, klass->name), share->instances,
                                 share->shallow_bytes, share->retained_bytes, reachable);
      strata_heap_row_set_heap_class (row, i);
      g_ptr_array_add (rows, row);
    }
  g_list_store_splice (store, 0, g_list_model_get_n_items (G_LIST_MODEL (store)), rows->pdata, rows->len);
}

/* One row per package or class loader, as strata_heap_group_classes()
 * sums them; the row's group is its index in the groups by class. */
static void
fill_group_rows (GListStore        *store,
                 StrataTrace       *trace,
                 StrataHeapGroupBy  by,
                 int                which)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  StrataHeapGraph *graph = strata_heap_get_graph (heap);
  guint64 reachable = graph != NULL ? strata_heap_graph_get_reachable_bytes (graph) : 0;
  g_autoptr(GArray) groups = strata_heap_group_classes (trace, by, which);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint g = 0; g < groups->len; g++)
    {
      const StrataHeapGroup *group = &g_array_index (groups, StrataHeapGroup, g);
      StrataHeapRow *row = strata_heap_row_new (group->name, group->instances, group->shallow_bytes, group->retained_bytes,
                                                reachable);

      strata_heap_row_set_group (row, group->index);
      strata_heap_row_set_heap_class (row, G_MAXUINT);
      g_ptr_array_add (rows, row);
    }
  g_list_store_splice (store, 0, g_list_model_get_n_items (G_LIST_MODEL (store)), rows->pdata, rows->len);
}

/* What the Classes page lists: classes, packages or loaders, in the heap
 * chosen. */
static void
refill (StrataHeapView *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  guint selected = self->heap_dropdown != NULL ? gtk_drop_down_get_selected (GTK_DROP_DOWN (self->heap_dropdown)) : 0;
  int which = selected == 0 ? -1 : (int) selected - 1;
  guint by = self->group_dropdown != NULL ? gtk_drop_down_get_selected (GTK_DROP_DOWN (self->group_dropdown)) : 0;

  const char *const titles[] = { _("Class"), _("Package"), _("Class Loader") };
  g_autoptr(GtkColumnViewColumn) first = g_list_model_get_item (gtk_column_view_get_columns (GTK_COLUMN_VIEW (self->column_view)), 0);

  if (by == 0)
    fill_rows (self->rows, trace, strata_trace_get_heap (trace), which);
  else
    fill_group_rows (self->rows, trace, by == 1 ? STRATA_HEAP_GROUP_BY_PACKAGE : STRATA_HEAP_GROUP_BY_LOADER, which);
  gtk_column_view_column_set_title (first, titles[MIN (by, G_N_ELEMENTS (titles) - 1)]);
}

static gboolean
in_group_filter (gpointer item,
                 gpointer data)
{
  StrataHeapView *self = data;
  guint klass = strata_heap_row_get_heap_class (item);

  return self->in_group == NULL || klass == G_MAXUINT || self->in_group[klass];
}

/* Back to every class. */
static void
clear_group_filter (StrataHeapView *self)
{
  g_clear_pointer (&self->in_group, g_free);
  gtk_widget_set_visible (self->group_chip, FALSE);
  gtk_filter_changed (GTK_FILTER (self->group_filter), GTK_FILTER_CHANGE_LESS_STRICT);
}

static void
group_changed_cb (StrataHeapView *self)
{
  if (self->in_group != NULL)
    clear_group_filter (self);
  refill (self);
}

/* A package's or loader's row: its classes, and a button to see all again. */
static void
show_group_classes (StrataHeapView *self,
                    StrataHeapRow  *row)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  guint by = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->group_dropdown));
  GArray *groups = NULL;
  g_autofree guint *group_of = strata_heap_group_of_classes (trace, by == 1 ? STRATA_HEAP_GROUP_BY_PACKAGE
                                                                            : STRATA_HEAP_GROUP_BY_LOADER, &groups);
  g_autoptr(GArray) owned = groups;
  guint n_classes = strata_heap_get_n_classes (strata_trace_get_heap (trace));
  /* Translators: the button that shows every class again; %s is a package or class loader */
  g_autofree char *label = g_strdup_printf (_("Only %s"), strata_heap_row_get_name (row));
  gboolean *in_group = g_new0 (gboolean, n_classes + 1);

  for (guint c = 0; c < n_classes; c++)
    in_group[c] = group_of[c] == strata_heap_row_get_group (row);
  g_signal_handlers_block_by_func (self->group_dropdown, group_changed_cb, self);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->group_dropdown), 0);
  g_signal_handlers_unblock_by_func (self->group_dropdown, group_changed_cb, self);
  refill (self);
  g_free (self->in_group);
  self->in_group = in_group;
  gtk_button_set_label (GTK_BUTTON (self->group_chip), label);
  gtk_widget_set_visible (self->group_chip, TRUE);
  gtk_filter_changed (GTK_FILTER (self->group_filter), GTK_FILTER_CHANGE_DIFFERENT);
}

/* Loaders are read from the class dumps: only binary dumps have them. */
static GtkWidget *
group_dropdown_new (StrataHeapView *self,
                    gboolean        loaders)
{
  const char *const names[] = { _("By Class"), _("By Package"), loaders ? _("By Class Loader") : NULL, NULL };
  GtkWidget *dropdown = gtk_drop_down_new_from_strings (names);

  gtk_widget_set_tooltip_text (dropdown, _("List classes, or sum them by package or by class loader"));
  strata_accessible_name_children (dropdown, _("Group Classes"));
  gtk_widget_set_name (dropdown, "group-by");
  g_signal_connect_swapped (dropdown, "notify::selected", G_CALLBACK (group_changed_cb), self);
  return dropdown;
}

static GtkWidget *
group_chip_new (StrataHeapView *self)
{
  GtkWidget *chip = gtk_button_new ();

  gtk_widget_set_tooltip_text (chip, _("Show every class again"));
  gtk_widget_set_name (chip, "group-chip");
  gtk_widget_set_visible (chip, FALSE);
  g_signal_connect_swapped (chip, "clicked", G_CALLBACK (clear_group_filter), self);
  return chip;
}

/* Android: the table shows all heaps, or one (app, zygote, image). */
static void
heap_selected_cb (StrataHeapView *self)
{
  refill (self);
}

static GtkWidget *
heap_dropdown_new (StrataHeapView   *self,
                   const StrataHeap *heap)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  GtkWidget *dropdown;

  gtk_string_list_append (names, _("All Heaps"));
  for (guint h = 0; h < strata_heap_get_n_heaps (heap); h++)
    gtk_string_list_append (names, strata_heap_get_heap_name (heap, h));
  dropdown = gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&names)), NULL);
  gtk_widget_set_tooltip_text (dropdown, _("Show all heaps or one"));
  strata_accessible_name_children (dropdown, _("Heap"));
  g_signal_connect_swapped (dropdown, "notify::selected", G_CALLBACK (heap_selected_cb), self);
  return dropdown;
}

static void
search_changed_cb (StrataHeapView *self)
{
  strata_heap_view_set_filter (self, gtk_editable_get_text (GTK_EDITABLE (self->search)));
}

/* Double-click or Enter on a class: its instances, on their own page. */
static void
class_activated_cb (StrataHeapView *self,
                    guint           position)
{
  g_autoptr(StrataHeapRow) row = g_list_model_get_item (self->model, position);

  if (row != NULL && strata_heap_row_get_group (row) != G_MAXUINT)
    show_group_classes (self, row);
  else if (row != NULL && strata_heap_get_graph (strata_trace_get_heap (strata_session_get_trace (self->session))) != NULL)
    strata_heap_view_show_instances (self, strata_heap_row_get_heap_class (row));
}

/* ---- Export ---- */

static GtkWidget *
export_button_new (void)
{
  GtkWidget *button = gtk_menu_button_new ();
  g_autoptr(GMenu) menu = g_menu_new ();

  g_menu_append (menu, _("Export _All Rows…"), "heap.export");
  g_menu_append (menu, _("Export the _Rows on Show…"), "heap.export-filtered");
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "document-save-as-symbolic");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (button), G_MENU_MODEL (menu));
  gtk_widget_set_tooltip_text (button, _("Export the Table on Show as CSV or TSV"));
  strata_accessible_name_children (button, _("Export the Table"));
  return button;
}

/* The table @page shows, one an export can write: the class histogram,
 * a dominators view (the Instances page's too) or the sites; else NULL. */
static GtkWidget *
exportable_table (StrataHeapView *self,
                  const char     *page)
{
  GtkWidget *child = self->stack != NULL && page != NULL ? gtk_stack_get_child_by_name (GTK_STACK (self->stack), page) : NULL;

  if (g_strcmp0 (page, "instances") == 0 && child != NULL)
    for (child = gtk_widget_get_first_child (child); child != NULL; child = gtk_widget_get_next_sibling (child))
      if (STRATA_IS_DOMINATORS_VIEW (child))
        break;
  if (child == NULL || g_str_equal (page, "classes") || STRATA_IS_DOMINATORS_VIEW (child) || STRATA_IS_SITES_VIEW (child))
    return child;
  return NULL;
}

/**
 * strata_heap_view_export:
 * @page: "classes", "dominators", "instances" or "sites"
 * @filtered: only the rows on show (filtered and in their order), rather
 *   than every row of the table
 *
 * Writes that page's table as CSV (TSV for a .tsv name): counts and sizes
 * as whole numbers of bytes, shares as plain decimals.
 */
gboolean
strata_heap_view_export (StrataHeapView  *self,
                         const char      *page,
                         GFile           *file,
                         gboolean         filtered,
                         GError         **error)
{
  GtkWidget *table = exportable_table (self, page);
  g_autoptr(StrataCsvWriter) writer = NULL;
  gboolean written;

  if (table == NULL)
    return g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("This dump has no such table to export")), FALSE;
  if ((writer = strata_csv_writer_new (file, error)) == NULL)
    return FALSE;
  if (g_str_equal (page, "classes"))
    {
      StrataTrace *trace = strata_session_get_trace (self->session);

      written = strata_csv_export_classes (writer, filtered ? self->model : G_LIST_MODEL (self->rows),
                                           strata_heap_get_graph (strata_trace_get_heap (trace)) != NULL, error);
    }
  else
    {
      g_autoptr(GListModel) rows = STRATA_IS_DOMINATORS_VIEW (table)
                                   ? strata_dominators_view_dup_rows (STRATA_DOMINATORS_VIEW (table), filtered)
                                   : strata_sites_view_dup_sites (STRATA_SITES_VIEW (table));

      written = STRATA_IS_DOMINATORS_VIEW (table) ? strata_csv_export_objects (writer, rows, error)
                                                  : strata_csv_export_sites (writer, rows, error);
    }
  return written && strata_csv_writer_finish (writer, error);
}

static gboolean
export_cb (GtkWidget  *widget,
           GFile      *file,
           gpointer    data,
           GError    **error)
{
  StrataHeapView *self = STRATA_HEAP_VIEW (widget);

  return strata_heap_view_export (self, gtk_stack_get_visible_child_name (GTK_STACK (self->stack)), file,
                                  GPOINTER_TO_INT (data), error);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  StrataHeapView *self = STRATA_HEAP_VIEW (widget);
  gboolean filtered = g_str_equal (action_name, "heap.export-filtered");
  StrataTrace *trace = strata_session_get_trace (self->session);
  const char *page = gtk_stack_get_visible_child_name (GTK_STACK (self->stack));
  g_autofree char *view = g_strconcat (page, filtered ? "-filtered" : "", NULL);
  g_autofree char *name = strata_csv_export_name (trace, view);

  strata_export_dialog_run (widget, _("Export the Table"), name, export_cb, GINT_TO_POINTER (filtered));
}

static GtkWidget *
build_classes (StrataHeapView *self,
               StrataTrace    *trace)
{
  GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  const StrataHeap *heap = strata_trace_get_heap (trace);
  g_autofree char *summary = summary_text (trace, heap);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *totals = gtk_label_new (summary);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkFilterListModel *filtered;
  GtkEveryFilter *every;
  GtkSortListModel *sorted;
  GtkColumnViewColumn *bytes_column;
  GtkSingleSelection *selection;

  self->search = gtk_search_entry_new ();
  gtk_widget_set_size_request (self->search, 280, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->search), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Filter Classes"), -1);
  g_object_set (self->search, "placeholder-text", _("Filter Classes"), NULL);
  g_signal_connect_swapped (self->search, "search-changed", G_CALLBACK (search_changed_cb), self);
  gtk_label_set_xalign (GTK_LABEL (totals), 0);
  gtk_label_set_wrap (GTK_LABEL (totals), TRUE);
  gtk_widget_set_hexpand (totals, TRUE);
  gtk_widget_add_css_class (totals, "dim-label");
  gtk_box_append (GTK_BOX (bar), self->search);
  self->group_chip = group_chip_new (self);
  gtk_box_insert_child_after (GTK_BOX (bar), self->group_chip, self->search);
  gtk_box_append (GTK_BOX (bar), totals);
  self->group_dropdown = group_dropdown_new (self, strata_heap_get_index (heap) != NULL);
  gtk_box_append (GTK_BOX (bar), self->group_dropdown);
  if (strata_heap_get_n_heaps (heap) > 0)
    {
      self->heap_dropdown = heap_dropdown_new (self, heap);
      gtk_box_append (GTK_BOX (bar), self->heap_dropdown);
    }
  gtk_widget_set_margin_start (bar, 6);
  gtk_widget_set_margin_end (bar, 6);
  gtk_widget_set_margin_top (bar, 6);
  gtk_box_append (GTK_BOX (page), bar);

  self->filter = gtk_string_filter_new (gtk_property_expression_new (STRATA_TYPE_HEAP_ROW, NULL, "name"));
  gtk_string_filter_set_match_mode (self->filter, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);
  self->rows = g_list_store_new (STRATA_TYPE_HEAP_ROW);
  fill_rows (self->rows, trace, heap, -1);
  self->group_filter = gtk_custom_filter_new (in_group_filter, self, NULL);
  every = gtk_every_filter_new ();
  gtk_multi_filter_append (GTK_MULTI_FILTER (every), GTK_FILTER (g_object_ref (self->filter)));
  gtk_multi_filter_append (GTK_MULTI_FILTER (every), GTK_FILTER (g_object_ref (self->group_filter)));
  filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->rows)), GTK_FILTER (every));
  self->column_view = gtk_column_view_new (NULL);
  gtk_widget_add_css_class (self->column_view, "data-table");
  strata_accessible_name_children (self->column_view, _("Class histogram"));
  add_column (self, _("Class"), COLUMN_CLASS,
              GTK_SORTER (gtk_string_sorter_new (gtk_property_expression_new (STRATA_TYPE_HEAP_ROW, NULL, "name"))));
  add_column (self, _("Instances"), COLUMN_INSTANCES, numeric_sorter ("instances"));
  bytes_column = add_column (self, _("Shallow bytes"), COLUMN_BYTES, numeric_sorter ("shallow-bytes"));
  /* Dumps with a graph open on what each class keeps alive. */
  if (strata_heap_get_graph (heap) != NULL)
    {
      bytes_column = add_column (self, _("Retained bytes"), COLUMN_RETAINED, numeric_sorter ("retained-bytes"));
      add_column (self, _("Retained %"), COLUMN_RETAINED_SHARE, numeric_sorter ("retained-bytes"));
    }
  sorted = gtk_sort_list_model_new (G_LIST_MODEL (filtered),
                                    g_object_ref (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view))));
  self->model = G_LIST_MODEL (sorted);
  gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (self->column_view), bytes_column, GTK_SORT_ASCENDING);
  selection = gtk_single_selection_new (g_object_ref (self->model));
  /* Nothing selected at first, so the list starts at its top. */
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_single_selection_set_selected (selection, GTK_INVALID_LIST_POSITION);
  gtk_column_view_set_model (GTK_COLUMN_VIEW (self->column_view), GTK_SELECTION_MODEL (selection));
  g_signal_connect_swapped (self->column_view, "activate", G_CALLBACK (class_activated_cb), self);

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->column_view);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (page), scroller);
  return page;
}

/* ---- Leak suspects ---- */

/**
 * strata_heap_view_inspect:
 *
 * Shows @object in the Dominators page's inspector.
 */
void
strata_heap_view_inspect (StrataHeapView *self,
                          guint32         object)
{
  GtkWidget *dominators = gtk_stack_get_child_by_name (GTK_STACK (self->stack), "dominators");
  StrataObjectInspector *inspector = strata_dominators_view_get_inspector (STRATA_DOMINATORS_VIEW (dominators));

  gtk_stack_set_visible_child (GTK_STACK (self->stack), dominators);
  strata_object_inspector_show (inspector, object);
}

static void
inspect_button_clicked_cb (GtkButton      *button,
                           StrataHeapView *self)
{
  strata_heap_view_inspect (self, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "object")));
}

/**
 * strata_heap_view_new_inspect_button:
 *
 * Returns: a button labelled @text (underscores as they are) that shows
 *   @object in the inspector
 */
GtkWidget *
strata_heap_view_new_inspect_button (StrataHeapView *self,
                                     const char     *text,
                                     guint32         object)
{
  GtkWidget *button = gtk_button_new_with_label (text);

  g_object_set_data (G_OBJECT (button), "object", GUINT_TO_POINTER (object));
  g_signal_connect (button, "clicked", G_CALLBACK (inspect_button_clicked_cb), self);
  return button;
}

/* With a graph, the choice of what keeps objects alive at the end
 * (win.follow-weak loads the dump again). */
static GtkWidget *
follow_weak_button_new (void)
{
  GtkWidget *follow = gtk_check_button_new_with_mnemonic (_("Follow _Weak References"));

  gtk_widget_set_tooltip_text (follow, _("Let weak, soft and phantom references keep their referents alive in retained sizes, dominators and paths (the dump is read again)"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (follow), "win.follow-weak");
  gtk_widget_set_name (follow, "follow-weak");
  return follow;
}

/* The page switcher, centred; at the end, Follow Weak References and the
 * export of the table on show. */
static GtkWidget *
build_header (GtkWidget *switcher,
              gboolean   has_graph)
{
  GtkWidget *header = gtk_center_box_new ();
  GtkWidget *end = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

  gtk_widget_set_margin_top (header, 6);
  gtk_widget_set_margin_end (header, 12);
  gtk_center_box_set_center_widget (GTK_CENTER_BOX (header), switcher);
  gtk_center_box_set_end_widget (GTK_CENTER_BOX (header), end);
  if (has_graph)
    gtk_box_append (GTK_BOX (end), follow_weak_button_new ());
  gtk_box_append (GTK_BOX (end), export_button_new ());
  return header;
}

/* Export is offered on the pages that are tables. */
static void
page_changed_cb (StrataHeapView *self)
{
  gboolean exportable = exportable_table (self, gtk_stack_get_visible_child_name (GTK_STACK (self->stack))) != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "heap.export", exportable);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "heap.export-filtered", exportable);
}

/* A page's inspector opens as wide as the last was left, and a drag on
 * any page is remembered for all. */
static GtkWidget *
share_inspector_width (StrataHeapView *self,
                       GtkWidget      *view)
{
  strata_dominators_view_set_inspector_width (STRATA_DOMINATORS_VIEW (view), self->inspector_width);
  g_object_bind_property (view, "inspector-width", self, "inspector-width", G_BINDING_DEFAULT);
  return view;
}

/* Classes, allocation sites and threads, those the dump has, as pages. */
static void
build (StrataHeapView *self,
       StrataTrace    *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  GtkWidget *stack = gtk_stack_new ();
  GtkWidget *switcher = gtk_stack_switcher_new ();
  GtkWidget *bitmaps, *duplicates;

  self->stack = stack;
  if (strata_heap_get_n_classes (heap) > 0)
    gtk_stack_add_titled (GTK_STACK (stack), build_classes (self, trace), "classes", _("Classes"));
  if (strata_heap_get_graph (heap) != NULL)
    {
      gtk_stack_add_titled (GTK_STACK (stack), strata_heap_view_build_suspects (self, trace), "suspects", _("Leak Suspects"));
      gtk_stack_add_titled (GTK_STACK (stack), share_inspector_width (self, strata_dominators_view_new (trace)), "dominators",
                            _("Dominators"));
      duplicates = strata_duplicates_view_new (trace);
      g_signal_connect_object (duplicates, "show-objects", G_CALLBACK (strata_heap_view_show_objects), self, G_CONNECT_SWAPPED);
      gtk_stack_add_titled (GTK_STACK (stack), duplicates, "duplicates", _("Duplicates"));
    }
  if (strata_heap_get_n_sites (heap) > 0)
    gtk_stack_add_titled (GTK_STACK (stack), strata_sites_view_new (trace), "sites", _("Allocation Sites"));
  if (strata_heap_get_n_threads (heap) > 0)
    gtk_stack_add_titled (GTK_STACK (stack), strata_heap_view_build_threads (self, trace), "threads", _("Threads"));
  if (strata_heap_get_graph (heap) != NULL && (bitmaps = strata_heap_view_build_bitmaps (self, trace)) != NULL)
    gtk_stack_add_titled (GTK_STACK (stack), bitmaps, "bitmaps", _("Bitmaps"));
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), GTK_STACK (stack));
  g_signal_connect_object (stack, "notify::visible-child", G_CALLBACK (page_changed_cb), self, G_CONNECT_SWAPPED);
  page_changed_cb (self);
  gtk_box_append (GTK_BOX (self->box), build_header (switcher, strata_heap_get_graph (heap) != NULL));
  gtk_widget_set_vexpand (stack, TRUE);
  gtk_box_append (GTK_BOX (self->box), stack);
}

static gboolean
has_heap (StrataTrace *trace)
{
  const StrataHeap *heap = trace != NULL ? strata_trace_get_heap (trace) : NULL;

  return heap != NULL && (strata_heap_get_n_classes (heap) > 0 || strata_heap_get_n_sites (heap) > 0 ||
                          strata_heap_get_n_threads (heap) > 0);
}

/* A new trace: its pages, or none (the view hides, and with it its tab). */
static void
trace_changed_cb (StrataHeapView *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  g_autofree char *page = NULL;
  GtkWidget *child;

  /* The same dump read again (another way of counting) stays on its page. */
  if (self->stack != NULL && gtk_stack_get_visible_child_name (GTK_STACK (self->stack)) != NULL)
    page = g_strdup (gtk_stack_get_visible_child_name (GTK_STACK (self->stack)));
  while ((child = gtk_widget_get_first_child (self->box)) != NULL)
    gtk_box_remove (GTK_BOX (self->box), child);
  self->stack = self->search = self->column_view = self->heap_dropdown = self->group_dropdown = self->group_chip = NULL;
  g_clear_object (&self->filter);
  g_clear_object (&self->group_filter);
  g_clear_pointer (&self->in_group, g_free);
  g_clear_object (&self->model);
  g_clear_object (&self->rows);
  gtk_widget_set_visible (GTK_WIDGET (self), has_heap (trace));
  if (has_heap (trace))
    build (self, trace);
  if (page != NULL && self->stack != NULL && gtk_stack_get_child_by_name (GTK_STACK (self->stack), page) != NULL)
    gtk_stack_set_visible_child_name (GTK_STACK (self->stack), page);
}

/**
 * strata_heap_view_get_page:
 *
 * Returns: (transfer none) (nullable): the page "classes", "sites" or
 *   "threads", if the dump has it
 */
GtkWidget *
strata_heap_view_get_page (StrataHeapView *self,
                           const char     *name)
{
  g_return_val_if_fail (STRATA_IS_HEAP_VIEW (self), NULL);

  return self->stack != NULL ? gtk_stack_get_child_by_name (GTK_STACK (self->stack), name) : NULL;
}

/**
 * strata_heap_view_get_model:
 *
 * Returns: (transfer none): the rows as shown, sorted and filtered
 */
GListModel *
strata_heap_view_get_model (StrataHeapView *self)
{
  g_return_val_if_fail (STRATA_IS_HEAP_VIEW (self), NULL);

  return self->model;
}

void
strata_heap_view_set_filter (StrataHeapView *self,
                             const char     *text)
{
  g_return_if_fail (STRATA_IS_HEAP_VIEW (self));

  if (self->filter != NULL)
    gtk_string_filter_set_search (self->filter, text && *text ? text : NULL);
}

/* By "class", "instances" or "bytes"; GTK's ascending on number columns
 * is largest first (their sorters run descending). */
void
strata_heap_view_sort_by (StrataHeapView *self,
                          const char     *column,
                          GtkSortType     order)
{
  GListModel *columns;
  guint index = g_str_equal (column, "class") ? 0 : g_str_equal (column, "instances") ? 1 : 2;
  g_autoptr(GtkColumnViewColumn) view_column = NULL;

  g_return_if_fail (STRATA_IS_HEAP_VIEW (self));
  if (self->column_view == NULL)
    return;
  columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (self->column_view));
  view_column = g_list_model_get_item (columns, index);

  gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (self->column_view), view_column, order);
}

static void
strata_heap_view_dispose (GObject *object)
{
  StrataHeapView *self = STRATA_HEAP_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), STRATA_TYPE_HEAP_VIEW);
  self->box = self->heap_dropdown = self->group_dropdown = self->group_chip = NULL;
  g_clear_object (&self->filter);
  g_clear_object (&self->group_filter);
  g_clear_pointer (&self->in_group, g_free);
  g_clear_object (&self->model);
  g_clear_object (&self->rows);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (strata_heap_view_parent_class)->dispose (object);
}

static void
strata_heap_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  if (prop_id == PROP_INSPECTOR_WIDTH)
    g_value_set_int (value, STRATA_HEAP_VIEW (object)->inspector_width);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
strata_heap_view_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  StrataHeapView *self = STRATA_HEAP_VIEW (object);

  if (prop_id != PROP_INSPECTOR_WIDTH)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  if (self->inspector_width == g_value_get_int (value))
    return;
  self->inspector_width = g_value_get_int (value);
  g_object_notify_by_pspec (object, properties[PROP_INSPECTOR_WIDTH]);
}

static void
strata_heap_view_class_init (StrataHeapViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strata_heap_view_dispose;
  object_class->get_property = strata_heap_view_get_property;
  object_class->set_property = strata_heap_view_set_property;
  /**
   * StrataHeapView:inspector-width:
   *
   * How wide the object inspector opens on every page (0: a share of the
   * page), and what a drag of its divider leaves it at.
   */
  properties[PROP_INSPECTOR_WIDTH] = g_param_spec_int ("inspector-width", NULL, NULL, 0, G_MAXINT, 0,
                                                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  strata_widgets_register_resources ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stratatrace/Strata/strata-heap-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StrataHeapView, box);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "heapview");
  gtk_widget_class_install_action (widget_class, "heap.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "heap.export-filtered", NULL, export_action);
}

static void
strata_heap_view_init (StrataHeapView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
strata_heap_view_new (StrataSession *session)
{
  StrataHeapView *self;

  g_return_val_if_fail (STRATA_IS_SESSION (session), NULL);

  self = g_object_new (STRATA_TYPE_HEAP_VIEW, NULL);
  self->session = g_object_ref (session);
  g_signal_connect_object (session, "notify::trace", G_CALLBACK (trace_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "names-changed", G_CALLBACK (trace_changed_cb), self, G_CONNECT_SWAPPED);
  trace_changed_cb (self);
  return GTK_WIDGET (self);
}

static void
show_instances_page (StrataHeapView *self,
                     const char     *title,
                     GtkWidget      *view)
{
  GtkWidget *old = gtk_stack_get_child_by_name (GTK_STACK (self->stack), "instances");
  GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *heading = gtk_label_new (title);

  if (old != NULL)
    gtk_stack_remove (GTK_STACK (self->stack), old);
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_label_set_ellipsize (GTK_LABEL (heading), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (heading, "heading");
  gtk_widget_set_margin_start (heading, 6);
  gtk_widget_set_margin_top (heading, 6);
  gtk_widget_set_vexpand (view, TRUE);
  gtk_box_append (GTK_BOX (page), heading);
  gtk_box_append (GTK_BOX (page), view);
  gtk_widget_set_name (view, "instances-view");
  gtk_stack_add_titled (GTK_STACK (self->stack), page, "instances", _("Instances"));
  gtk_stack_set_visible_child (GTK_STACK (self->stack), page);
}

/**
 * strata_heap_view_show_instances:
 *
 * Shows the Instances page for @heap_class, largest retained first.
 */
void
strata_heap_view_show_instances (StrataHeapView *self,
                                 guint           heap_class)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  const StrataHeap *heap = strata_trace_get_heap (trace);
  const char *name = strata_trace_get_string (trace, strata_heap_get_class (heap, heap_class)->name);
  /* Translators: %s is a class name */
  g_autofree char *title = g_strdup_printf (_("Instances of %s"), name);

  show_instances_page (self, title, share_inspector_width (self, strata_dominators_view_new_for_class (trace, heap_class)));
}

/**
 * strata_heap_view_show_objects:
 * @title: what the objects are, as the page's heading
 *
 * Shows the Instances page for @objects (copied), in their order.
 */
void
strata_heap_view_show_objects (StrataHeapView *self,
                               const char     *title,
                               const guint32  *objects,
                               guint32         n_objects)
{
  StrataTrace *trace = strata_session_get_trace (self->session);

  g_return_if_fail (STRATA_IS_HEAP_VIEW (self));

  show_instances_page (self, title, share_inspector_width (self, strata_dominators_view_new_for_objects (trace, objects, n_objects)));
}
