/* strata-call-tree-table.c: a merged call tree as rows of a table
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

#include "strata-call-tree-table.h"

typedef struct
{
  guint32 next;   /* the next child to write */
  guint32 end;
} Level;

static void
write_header (StrataTableWriter *writer,
              StrataTrace       *trace,
              guint              n_clocks)
{
  /* Translators: CSV column headers; "%s" is a clock's name, (%s) its unit */
  strata_table_writer_add_text (writer, C_("export", "Depth"));
  strata_table_writer_add_text (writer, C_("export", "Name"));
  for (guint c = 0; c < n_clocks; c++)
    {
      const char *clock = strata_trace_get_clock_name (trace, c);
      const char *unit = strata_table_clock_unit (trace, c);
      g_autofree char *total = g_strdup_printf (C_("export", "Total %s (%s)"), clock, unit);
      g_autofree char *total_share = g_strdup_printf (C_("export", "Total %% %s"), clock);
      g_autofree char *self = g_strdup_printf (C_("export", "Self %s (%s)"), clock, unit);
      g_autofree char *self_share = g_strdup_printf (C_("export", "Self %% %s"), clock);

      strata_table_writer_add_text (writer, total);
      strata_table_writer_add_text (writer, total_share);
      strata_table_writer_add_text (writer, self);
      strata_table_writer_add_text (writer, self_share);
    }
  strata_table_writer_add_text (writer, C_("export", "Calls"));
}

static void
write_node (StrataTableWriter *writer,
            StrataCallTree    *tree,
            guint32            node,
            guint              depth)
{
  g_autofree char *name = strata_call_tree_dup_name (tree, node);

  strata_table_writer_add_uint (writer, depth);
  strata_table_writer_add_text (writer, name);
  for (guint c = 0; c < strata_call_tree_get_n_clocks (tree); c++)
    {
      gint64 whole = strata_call_tree_get_total (tree, STRATA_CALL_TREE_ROOT, c);

      strata_table_writer_add_int (writer, strata_call_tree_get_total (tree, node, c));
      strata_table_writer_add_percent (writer, strata_call_tree_get_total (tree, node, c), whole);
      strata_table_writer_add_int (writer, strata_call_tree_get_self (tree, node, c));
      strata_table_writer_add_percent (writer, strata_call_tree_get_self (tree, node, c), whole);
    }
  strata_table_writer_add_uint (writer, strata_call_tree_get_calls (tree, node));
}

/**
 * strata_call_tree_write_table:
 *
 * Writes a header and a row per node of @tree (its root apart).
 */
gboolean
strata_call_tree_write_table (StrataCallTree     *tree,
                              StrataTableWriter  *writer,
                              GError            **error)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Level));
  guint32 first = strata_call_tree_get_first_child (tree, STRATA_CALL_TREE_ROOT);

  write_header (writer, strata_call_tree_get_trace (tree), strata_call_tree_get_n_clocks (tree));
  if (!strata_table_writer_end_row (writer, error))
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
      if (!strata_table_writer_end_row (writer, error))
        return FALSE;
      children = strata_call_tree_get_first_child (tree, node);
      g_array_append_val (stack, ((Level) { children, children + strata_call_tree_get_n_children (tree, node) }));
    }
  return TRUE;
}
