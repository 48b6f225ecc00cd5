/* strata-table-column.c: columns of the heap, sites and calls tables
 *
 * Every column of those tables is made here, the same way: its cells come
 * from a template in the resources (plain, number, or with an expander)
 * and a function of the view gives each cell its text. Only the profile
 * table differs (colour swatches, parents and children); it keeps its own
 * templates with the same scope.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-cell-scope.h"
#include "strata-table-column.h"
#include "strata-units.h"
#include "strata-widgets.h"

static const char *cell_ui[] = {
  [STRATA_TABLE_CELL_TEXT] = "/io/github/stratatrace/Strata/strata-table-cell.ui",
  [STRATA_TABLE_CELL_NUMBER] = "/io/github/stratatrace/Strata/strata-table-number-cell.ui",
  [STRATA_TABLE_CELL_TREE] = "/io/github/stratatrace/Strata/strata-table-tree-cell.ui",
};

typedef struct
{
  StrataTableCellKind kind;
  StrataTableCellText text;
  gpointer            data;
} CellSpec;

static void
table_cell_item_changed (GtkListItem *item,
                         GParamSpec  *pspec,
                         CellSpec    *spec)
{
  gpointer row = gtk_list_item_get_item (item);
  GtkWidget *child = gtk_list_item_get_child (item);
  g_autofree char *text = NULL;
  g_autofree char *clipped = NULL;

  /* A cell being taken apart has no child left. */
  if (child == NULL)
    return;
  if (spec->kind == STRATA_TABLE_CELL_TREE)
    {
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), row);
      child = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));
    }
  if (GTK_IS_TREE_LIST_ROW (row))
    row = gtk_tree_list_row_get_item (row);
  else if (row != NULL)
    g_object_ref (row);
  if (row != NULL)
    text = spec->text (row, spec->data);
  gtk_label_set_text (GTK_LABEL (child), text ? strata_units_clip_for_display (text, &clipped) : "");
  g_clear_object (&row);
}

/**
 * strata_table_column_new:
 * @text: gives each cell its text; @data is its second argument
 * @sorter: (transfer full) (nullable): what a click on the header sorts by
 *
 * Returns: (transfer full): the column
 */
GtkColumnViewColumn *
strata_table_column_new (const char          *title,
                         StrataTableCellKind  kind,
                         StrataTableCellText  text,
                         gpointer             data,
                         GtkSorter           *sorter)
{
  CellSpec *spec = g_new0 (CellSpec, 1);
  g_autoptr(StrataCellScope) scope = strata_cell_scope_new (spec);
  GtkListItemFactory *factory;
  GtkColumnViewColumn *column;

  spec->kind = kind;
  spec->text = text;
  spec->data = data;
  strata_widgets_register_resources ();
  gtk_builder_cscope_add_callback_symbol (GTK_BUILDER_CSCOPE (scope), "table_cell_item_changed",
                                          G_CALLBACK (table_cell_item_changed));
  factory = gtk_builder_list_item_factory_new_from_resource (GTK_BUILDER_SCOPE (scope), cell_ui[kind]);
  column = gtk_column_view_column_new (title, factory);
  /* The cells use @spec as long as the column lives. */
  g_object_set_data_full (G_OBJECT (column), "strata-cell-spec", spec, g_free);
  if (sorter != NULL)
    {
      gtk_column_view_column_set_sorter (column, sorter);
      g_object_unref (sorter);
    }
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_expand (column, kind != STRATA_TABLE_CELL_NUMBER);
  return column;
}

/* ---- Which column sorts ----
 *
 * A list too long for GTK's sort model sorts itself when a header is
 * clicked, and must learn which column and which way. GTK 4.8 has no call
 * for that: the view's sorter is asked to compare a probe item, and the
 * first column sorter it consults (the primary one) notes its key; the
 * sign of the answer gives the order. */

typedef struct
{
  int              key;
  GCompareDataFunc compare;
  gpointer         data;
} SortSpec;

static gconstpointer probe_item;
static int probed_key = -1;

static int
compare_or_probe (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  const SortSpec *spec = user_data;

  if (probe_item != NULL && a == probe_item)
    {
      probed_key = spec->key;
      return -1;
    }
  return spec->compare != NULL ? spec->compare (a, b, spec->data) : 0;
}

/**
 * strata_table_column_sorter_new:
 * @key: what strata_table_column_probe_sort() answers for this column
 * @compare: (nullable): how rows compare where GTK sorts them itself, with
 *   @data; %NULL where the list sorts itself
 *
 * Returns: (transfer full): a sorter for strata_table_column_new()
 */
GtkSorter *
strata_table_column_sorter_new (int              key,
                                GCompareDataFunc compare,
                                gpointer         data)
{
  SortSpec *spec = g_new (SortSpec, 1);

  *spec = (SortSpec) { key, compare, data };
  return GTK_SORTER (gtk_custom_sorter_new (compare_or_probe, spec, g_free));
}

/**
 * strata_table_column_probe_sort:
 * @sorter: a column view's sorter, over columns with sorters from
 *   strata_table_column_sorter_new()
 * @descending: (out): whether it sorts largest first
 *
 * Returns: the key of the column it sorts by first, or -1 for none
 */
int
strata_table_column_probe_sort (GtkSorter *sorter,
                                gboolean  *descending)
{
  g_autoptr(GObject) a = g_object_new (G_TYPE_OBJECT, NULL);
  g_autoptr(GObject) b = g_object_new (G_TYPE_OBJECT, NULL);
  GtkOrdering order;

  probe_item = a;
  probed_key = -1;
  order = gtk_sorter_compare (sorter, a, b);
  probe_item = NULL;
  *descending = order == GTK_ORDERING_LARGER;
  return order == GTK_ORDERING_EQUAL ? -1 : probed_key;
}

/* Takes every column out of @view, for a table that makes its columns
 * anew (another trace's clocks, another comparison's figures). */
void
strata_table_column_remove_all (GtkColumnView *view)
{
  GListModel *columns = gtk_column_view_get_columns (view);
  guint n;

  while ((n = g_list_model_get_n_items (columns)) > 0)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, n - 1);

      gtk_column_view_remove_column (view, column);
    }
}
