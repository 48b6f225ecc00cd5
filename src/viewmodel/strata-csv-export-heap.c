/* strata-csv-export-heap.c: a heap dump's tables as CSV or TSV
 *
 * The class histogram, objects (the dominator tree's top or a class's
 * instances) and allocation sites: counts and sizes as whole numbers of
 * bytes, shares as plain decimals.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-csv-export.h"
#include "strata-heap-object-row.h"
#include "strata-heap-row.h"
#include "strata-site-row.h"

/**
 * strata_csv_export_heap_classes:
 *
 * Returns: (transfer full): every class of @trace's heap as a
 *   StrataHeapRow, most shallow bytes first
 */
GListModel *
strata_csv_export_heap_classes (StrataTrace *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  StrataHeapGraph *graph = strata_heap_get_graph (heap);
  guint64 reachable = graph != NULL ? strata_heap_graph_get_reachable_bytes (graph) : 0;
  g_autofree guint *order = strata_heap_sort_by_bytes (heap);
  GListStore *store = g_list_store_new (STRATA_TYPE_HEAP_ROW);

  for (guint i = 0; i < strata_heap_get_n_classes (heap); i++)
    {
      const StrataHeapClass *klass = strata_heap_get_class (heap, order[i]);
      g_autoptr(StrataHeapRow) row = strata_heap_row_new (strata_trace_get_string (trace, klass->name), klass->instances,
                                                           klass->shallow_bytes, klass->retained_bytes, reachable);

      g_list_store_append (store, row);
    }
  return G_LIST_MODEL (store);
}

/**
 * strata_csv_export_classes:
 * @rows: StrataHeapRow, in the order to write
 * @retained: whether the dump has retained sizes (a binary dump's graph)
 *
 * The class histogram: instances, shallow bytes and, with a graph,
 * retained bytes and their share of the reachable heap.
 */
gboolean
strata_csv_export_classes (StrataCsvWriter  *writer,
                           GListModel       *rows,
                           gboolean          retained,
                           GError          **error)
{
  /* Translators: CSV column headers */
  strata_csv_writer_add_text (writer, C_("export", "Class"));
  strata_csv_writer_add_text (writer, C_("export", "Instances"));
  strata_csv_writer_add_text (writer, C_("export", "Shallow (bytes)"));
  if (retained)
    {
      strata_csv_writer_add_text (writer, C_("export", "Retained (bytes)"));
      strata_csv_writer_add_text (writer, C_("export", "Retained %"));
    }
  if (!strata_csv_writer_end_row (writer, error))
    return FALSE;
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(StrataHeapRow) row = g_list_model_get_item (rows, i);

      strata_csv_writer_add_text (writer, strata_heap_row_get_name (row));
      strata_csv_writer_add_uint (writer, strata_heap_row_get_instances (row));
      strata_csv_writer_add_uint (writer, strata_heap_row_get_shallow_bytes (row));
      if (retained)
        {
          strata_csv_writer_add_uint (writer, strata_heap_row_get_retained_bytes (row));
          strata_csv_writer_add_double (writer, 100 * strata_heap_row_get_retained_share (row));
        }
      if (!strata_csv_writer_end_row (writer, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * strata_csv_export_objects:
 * @rows: StrataHeapObjectRow, in the order to write; "more" rows are
 *   left out
 *
 * Objects (the top of the dominator tree, or a class's instances): each
 * with its shallow and retained bytes and its share of the heap.
 */
gboolean
strata_csv_export_objects (StrataCsvWriter  *writer,
                           GListModel       *rows,
                           GError          **error)
{
  /* Translators: CSV column headers */
  strata_csv_writer_add_text (writer, C_("export", "Object"));
  strata_csv_writer_add_text (writer, C_("export", "Shallow (bytes)"));
  strata_csv_writer_add_text (writer, C_("export", "Retained (bytes)"));
  strata_csv_writer_add_text (writer, C_("export", "Retained %"));
  if (!strata_csv_writer_end_row (writer, error))
    return FALSE;
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(StrataHeapObjectRow) row = g_list_model_get_item (rows, i);
      g_autofree char *label = NULL;

      if (strata_heap_object_row_is_more (row))
        continue;
      label = strata_heap_object_row_dup_label (row);
      strata_csv_writer_add_text (writer, label);
      strata_csv_writer_add_uint (writer, strata_heap_object_row_get_shallow (row));
      strata_csv_writer_add_uint (writer, strata_heap_object_row_get_retained (row));
      strata_csv_writer_add_double (writer, 100 * strata_heap_object_row_get_share (row));
      if (!strata_csv_writer_end_row (writer, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * strata_csv_export_sites:
 * @rows: StrataSiteRow, sites only (not their stacks' frames), in order
 *
 * Allocation sites: rank, self and accumulated shares as plain decimals,
 * class, and live and allocated bytes and objects as whole numbers.
 */
gboolean
strata_csv_export_sites (StrataCsvWriter  *writer,
                         GListModel       *rows,
                         GError          **error)
{
  /* Translators: CSV column headers */
  const char *headers[] = { C_("export", "Rank"), C_("export", "Self %"), C_("export", "Accumulated %"),
                            C_("export", "Class"), C_("export", "Live (bytes)"), C_("export", "Live objects"),
                            C_("export", "Allocated (bytes)"), C_("export", "Allocated objects") };

  for (guint h = 0; h < G_N_ELEMENTS (headers); h++)
    strata_csv_writer_add_text (writer, headers[h]);
  if (!strata_csv_writer_end_row (writer, error))
    return FALSE;
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(StrataSiteRow) row = g_list_model_get_item (rows, i);
      double self_share, accumulated;

      strata_site_row_get_shares (row, &self_share, &accumulated);
      strata_csv_writer_add_uint (writer, strata_site_row_get_value (row, STRATA_SITE_VALUE_RANK));
      strata_csv_writer_add_double (writer, self_share);
      strata_csv_writer_add_double (writer, accumulated);
      strata_csv_writer_add_text (writer, strata_site_row_get_text (row));
      for (guint v = STRATA_SITE_VALUE_LIVE_BYTES; v <= STRATA_SITE_VALUE_ALLOCATED_OBJECTS; v++)
        strata_csv_writer_add_uint (writer, strata_site_row_get_value (row, v));
      if (!strata_csv_writer_end_row (writer, error))
        return FALSE;
    }
  return TRUE;
}
