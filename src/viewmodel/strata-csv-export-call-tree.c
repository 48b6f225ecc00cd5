/* strata-csv-export-call-tree.c: a merged call tree as rows of a table
 *
 * Every node, depth first with the heaviest child first (the order the
 * table and `strata -r --tree` show), one row each: its depth, its name,
 * and per clock its total and self time in whole nanoseconds (or samples)
 * with their shares of the whole, then its calls. A spreadsheet rebuilds
 * the tree from the depths; the walk keeps its own stack, so a tree of any
 * depth is written.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-csv-export.h"

typedef struct
{
  guint32 next;   /* the next child to write */
  guint32 end;
} Level;

static void
write_header (StrataCsvWriter *writer,
              StrataTrace     *trace,
              guint            n_clocks)
{
  /* Translators: CSV column headers */
  strata_csv_writer_add_text (writer, C_("export", "Depth"));
  strata_csv_writer_add_text (writer, C_("export", "Name"));
  for (guint c = 0; c < n_clocks; c++)
    strata_csv_export_add_clock_headers (writer, trace, c, STRATA_CSV_TOTAL_SELF);
  strata_csv_writer_add_text (writer, C_("export", "Calls"));
}

static void
write_node (StrataCsvWriter *writer,
            StrataCallTree  *tree,
            guint32          node,
            guint            depth)
{
  g_autofree char *name = strata_call_tree_dup_name (tree, node);

  strata_csv_writer_add_uint (writer, depth);
  strata_csv_writer_add_text (writer, name);
  for (guint c = 0; c < strata_call_tree_get_n_clocks (tree); c++)
    {
      gint64 whole = strata_call_tree_get_total (tree, STRATA_CALL_TREE_ROOT, c);

      strata_csv_writer_add_int (writer, strata_call_tree_get_total (tree, node, c));
      strata_csv_writer_add_percent (writer, strata_call_tree_get_total (tree, node, c), whole);
      strata_csv_writer_add_int (writer, strata_call_tree_get_self (tree, node, c));
      strata_csv_writer_add_percent (writer, strata_call_tree_get_self (tree, node, c), whole);
    }
  strata_csv_writer_add_uint (writer, strata_call_tree_get_calls (tree, node));
}

/**
 * strata_csv_export_call_tree:
 *
 * Writes a header and a row per node of @tree (its root apart).
 */
gboolean
strata_csv_export_call_tree (StrataCsvWriter  *writer,
                             StrataCallTree   *tree,
                             GError          **error)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Level));
  guint32 first = strata_call_tree_get_first_child (tree, STRATA_CALL_TREE_ROOT);

  write_header (writer, strata_call_tree_get_trace (tree), strata_call_tree_get_n_clocks (tree));
  if (!strata_csv_writer_end_row (writer, error))
    return FALSE;
  g_array_append_val (stack, ((Level) { first, first + strata_call_tree_get_n_children (tree, STRATA_CALL_TREE_ROOT) }));
  while (stack->len > 0)
    {
      Level *level = &g_array_index (stack, Level, stack->len - 1);
      guint32 node, children;

      if (level->next == level->end)
        {
          g_array_set_size (stack, stack->len - 1);
          continue;
        }
      node = level->next++;
      write_node (writer, tree, node, stack->len - 1);
      if (!strata_csv_writer_end_row (writer, error))
        return FALSE;
      children = strata_call_tree_get_first_child (tree, node);
      g_array_append_val (stack, ((Level) { children, children + strata_call_tree_get_n_children (tree, node) }));
    }
  return TRUE;
}
