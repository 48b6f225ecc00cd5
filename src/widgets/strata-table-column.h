/* strata-table-column.h: columns of the heap, sites and calls tables
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum
{
  STRATA_TABLE_CELL_TEXT,    /* left-aligned */
  STRATA_TABLE_CELL_NUMBER,  /* right-aligned, tabular figures */
  STRATA_TABLE_CELL_TREE,    /* text after an expander; items are GtkTreeListRow */
} StrataTableCellKind;

/* The text of @row's cell in the column made with @data; NULL for none. */
typedef char *(*StrataTableCellText) (gpointer row,
                                      gpointer data);

GtkColumnViewColumn *strata_table_column_new (const char          *title,
                                              StrataTableCellKind  kind,
                                              StrataTableCellText  text,
                                              gpointer             data,
                                              GtkSorter           *sorter);

GtkSorter           *strata_table_column_sorter_new (int              key,
                                                     GCompareDataFunc compare,
                                                     gpointer         data);
int                  strata_table_column_probe_sort (GtkSorter       *sorter,
                                                     gboolean        *descending);
void                 strata_table_column_remove_all (GtkColumnView   *view);

G_END_DECLS
