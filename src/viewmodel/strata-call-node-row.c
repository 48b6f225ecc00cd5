/* strata-call-node-row.c: one node of a call tree, as a row of the table
 *
 * Rows are made only for what a view shows (StrataCallNodeList).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-call-node-list.h"
#include "strata-call-node-row.h"

struct _StrataCallNodeRow
{
  GObject         parent_instance;

  StrataCallTree *tree;
  guint32         node;
  guint           clock;     /* its children are ordered by */
};

G_DEFINE_FINAL_TYPE (StrataCallNodeRow, strata_call_node_row, G_TYPE_OBJECT)

static void
strata_call_node_row_finalize (GObject *object)
{
  g_clear_object (&STRATA_CALL_NODE_ROW (object)->tree);
  G_OBJECT_CLASS (strata_call_node_row_parent_class)->finalize (object);
}

static void
strata_call_node_row_class_init (StrataCallNodeRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strata_call_node_row_finalize;
}

static void
strata_call_node_row_init (StrataCallNodeRow *self)
{
}

StrataCallNodeRow *
strata_call_node_row_new (StrataCallTree *tree,
                          guint32         node,
                          guint           clock)
{
  StrataCallNodeRow *self = g_object_new (STRATA_TYPE_CALL_NODE_ROW, NULL);

  self->tree = g_object_ref (tree);
  self->node = node;
  self->clock = clock;
  return self;
}

StrataCallTree *
strata_call_node_row_get_tree (StrataCallNodeRow *self)
{
  return self->tree;
}

guint32
strata_call_node_row_get_node (StrataCallNodeRow *self)
{
  return self->node;
}

char *
strata_call_node_row_dup_name (StrataCallNodeRow *self)
{
  return strata_call_tree_dup_name (self->tree, self->node);
}

/**
 * strata_call_node_row_list_children:
 *
 * Returns: (transfer full) (nullable): the node's children, or %NULL for a
 *   leaf (so the table shows no expander)
 */
GListModel *
strata_call_node_row_list_children (StrataCallNodeRow *self)
{
  if (strata_call_tree_get_n_children (self->tree, self->node) == 0)
    return NULL;
  return G_LIST_MODEL (strata_call_node_list_new (self->tree, self->node, self->clock));
}
