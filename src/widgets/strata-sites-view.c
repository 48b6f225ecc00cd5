/* strata-sites-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-accessible.h"
#include "strata-site-row.h"
#include "strata-sites-view-private.h"
#include "strata-widgets.h"
#include "strata-table-column.h"
#include "strata-units.h"

struct _StrataSitesView
{
  GtkWidget   parent_instance;

  GtkWidget  *scroller;
  GtkWidget  *column_view;
  GListModel *model;         /* GtkTreeListRow items, sorted */
};

G_DEFINE_FINAL_TYPE (StrataSitesView, strata_sites_view, GTK_TYPE_WIDGET)

/* Left to right, as strata_sites_view_sort_by() counts them. */
typedef enum
{
  COLUMN_RANK,
  COLUMN_SELF,
  COLUMN_ACCUMULATED,
  COLUMN_CLASS,
  COLUMN_LIVE_BYTES,
  COLUMN_LIVE_OBJECTS,
  COLUMN_ALLOCATED_BYTES,
  COLUMN_ALLOCATED_OBJECTS,
} Column;

/* A site's numbers, as strata_site_row_get_value() indexes them. */
static guint
value_index (Column column)
{
  return column == COLUMN_RANK ? 0 : column - COLUMN_LIVE_BYTES + 1;
}

/* A stack frame under a site has only its text. */
static char *
site_cell_text (gpointer row,
                gpointer data)
{
  Column column = GPOINTER_TO_INT (data);
  double self_share, accumulated;

  if (column == COLUMN_CLASS)
    return g_strdup (strata_site_row_get_text (row));
  if (strata_site_row_is_frame (row))
    return NULL;
  if (column == COLUMN_SELF || column == COLUMN_ACCUMULATED)
    {
      strata_site_row_get_shares (row, &self_share, &accumulated);
      return g_strdup_printf ("%.2f%%", column == COLUMN_SELF ? self_share : accumulated);
    }
  return strata_units_format_count (strata_site_row_get_value (row, value_index (column)));
}

static GListModel *
create_frames (gpointer item,
               gpointer data)
{
  GListModel *frames = strata_site_row_get_frames (item);

  return frames && g_list_model_get_n_items (frames) > 0 ? g_object_ref (frames) : NULL;
}

static GListStore *
build_rows (StrataTrace *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  GListStore *store = g_list_store_new (STRATA_TYPE_SITE_ROW);
  double total = 0, accumulated = 0;

  for (guint i = 0; i < strata_heap_get_n_sites (heap); i++)
    total += strata_heap_get_site (heap, i)->live_bytes;
  for (guint i = 0; i < strata_heap_get_n_sites (heap); i++)
    {
      const StrataAllocSite *site = strata_heap_get_site (heap, i);
      g_autoptr(GListStore) frames = g_list_store_new (STRATA_TYPE_SITE_ROW);
      g_autoptr(StrataSiteRow) row = NULL;
      guint n;
      const guint32 *stack = strata_heap_get_stack (heap, site->trace, &n);

      for (guint f = 0; f < n; f++)
        {
          g_autoptr(StrataSiteRow) frame = strata_site_row_new_frame (strata_trace_get_string (trace, stack[f]));

          g_list_store_append (frames, frame);
        }
      double share = total > 0 ? 100.0 * site->live_bytes / total : 0;

      accumulated += share;
      row = strata_site_row_new_site (i + 1, strata_trace_get_string (trace, site->class_name), site,
                                      share, MIN (accumulated, 100.0), G_LIST_MODEL (frames));
      g_list_store_append (store, row);
    }
  return store;
}

static void
add_column (StrataSitesView *self,
            const char      *title,
            Column           column,
            const char      *property)
{
  GtkExpression *expression = gtk_property_expression_new (STRATA_TYPE_SITE_ROW, NULL, property);
  GtkSorter *sorter = column == COLUMN_CLASS ? GTK_SORTER (gtk_string_sorter_new (expression))
                                             : GTK_SORTER (gtk_numeric_sorter_new (expression));
  g_autoptr(GtkColumnViewColumn) view_column = NULL;

  /* Numbers: the biggest first when the column is first clicked; the
   * rank and the running share: the first first. */
  if (column != COLUMN_CLASS && column != COLUMN_RANK && column != COLUMN_ACCUMULATED)
    gtk_numeric_sorter_set_sort_order (GTK_NUMERIC_SORTER (sorter), GTK_SORT_DESCENDING);
  view_column = strata_table_column_new (title,
                                         column == COLUMN_CLASS ? STRATA_TABLE_CELL_TREE : STRATA_TABLE_CELL_NUMBER,
                                         site_cell_text, GINT_TO_POINTER (column), sorter);
  gtk_column_view_append_column (GTK_COLUMN_VIEW (self->column_view), view_column);
}

static void
build (StrataSitesView *self,
       StrataTrace     *trace)
{
  GtkTreeListModel *tree = gtk_tree_list_model_new (G_LIST_MODEL (build_rows (trace)), FALSE, FALSE,
                                                    create_frames, NULL, NULL);
  GtkTreeListRowSorter *row_sorter;
  GtkSortListModel *sorted;
  GtkNoSelection *selection;

  self->column_view = gtk_column_view_new (NULL);

  gtk_widget_add_css_class (self->column_view, "data-table");
  strata_accessible_name_children (self->column_view, _("Allocation sites"));
  add_column (self, _("Rank"), COLUMN_RANK, "rank");
  add_column (self, _("Self %"), COLUMN_SELF, "self");
  add_column (self, _("Accum. %"), COLUMN_ACCUMULATED, "accumulated");
  add_column (self, _("Class"), COLUMN_CLASS, "text");
  add_column (self, _("Live bytes"), COLUMN_LIVE_BYTES, "live-bytes");
  add_column (self, _("Live objects"), COLUMN_LIVE_OBJECTS, "live-objects");
  add_column (self, _("Allocated bytes"), COLUMN_ALLOCATED_BYTES, "allocated-bytes");
  add_column (self, _("Allocated objects"), COLUMN_ALLOCATED_OBJECTS, "allocated-objects");

  /* Sorting keeps each stack under its site. */
  row_sorter = gtk_tree_list_row_sorter_new (g_object_ref (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view))));
  sorted = gtk_sort_list_model_new (G_LIST_MODEL (tree), GTK_SORTER (row_sorter));
  self->model = G_LIST_MODEL (sorted);
  selection = gtk_no_selection_new (g_object_ref (self->model));
  gtk_column_view_set_model (GTK_COLUMN_VIEW (self->column_view), GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), self->column_view);
}

/**
 * strata_sites_view_dup_sites:
 *
 * Returns: (transfer full): every allocation site in the order shown, a
 *   StrataSiteRow each (not the stack frames of an opened one)
 */
GListModel *
strata_sites_view_dup_sites (StrataSitesView *self)
{
  GListStore *sites = g_list_store_new (STRATA_TYPE_SITE_ROW);

  for (guint i = 0; i < g_list_model_get_n_items (self->model); i++)
    {
      g_autoptr(GtkTreeListRow) item = g_list_model_get_item (self->model, i);
      g_autoptr(StrataSiteRow) row = gtk_tree_list_row_get_item (item);

      if (gtk_tree_list_row_get_depth (item) == 0 && !strata_site_row_is_frame (row))
        g_list_store_append (sites, row);
    }
  return G_LIST_MODEL (sites);
}

GListModel *
strata_sites_view_get_model (StrataSitesView *self)
{
  g_return_val_if_fail (STRATA_IS_SITES_VIEW (self), NULL);

  return self->model;
}

/* @column: as shown left to right: 0 rank, 1 self %, 2 accumulated %,
 * 3 class, 4-7 the numbers */
void
strata_sites_view_sort_by (StrataSitesView *self,
                           guint            column,
                           GtkSortType      order)
{
  GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (self->column_view));
  g_autoptr(GtkColumnViewColumn) view_column = g_list_model_get_item (columns, column);

  gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (self->column_view), view_column, order);
}

static void
strata_sites_view_dispose (GObject *object)
{
  StrataSitesView *self = STRATA_SITES_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), STRATA_TYPE_SITES_VIEW);
  self->scroller = NULL;
  g_clear_object (&self->model);

  G_OBJECT_CLASS (strata_sites_view_parent_class)->dispose (object);
}

static void
strata_sites_view_class_init (StrataSitesViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strata_sites_view_dispose;
  strata_widgets_register_resources ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stratatrace/Strata/strata-sites-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StrataSitesView, scroller);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "sitesview");
}

static void
strata_sites_view_init (StrataSitesView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
strata_sites_view_new (StrataTrace *trace)
{
  StrataSitesView *self = g_object_new (STRATA_TYPE_SITES_VIEW, NULL);

  build (self, trace);
  return GTK_WIDGET (self);
}
