/* strata-call-node-list.c: the children of a call tree node, as a list
 * whose rows are made only when a view asks for them
 *
 * A node's children are a run of numbers in the tree (largest total on
 * the first clock first): the list is that run, or on another clock the
 * run sorted again by that clock's totals.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-call-node-list.h"
#include "strata-call-node-row.h"

struct _StrataCallNodeList
{
  GObject         parent_instance;

  StrataCallTree *tree;
  guint32         first;
  guint32         n;
  guint           clock;
  guint32        *order;    /* NULL: the tree's own order */
};

static void strata_call_node_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrataCallNodeList, strata_call_node_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, strata_call_node_list_model_init))

static GType
get_item_type (GListModel *model)
{
  return STRATA_TYPE_CALL_NODE_ROW;
}

static guint
get_n_items (GListModel *model)
{
  return STRATA_CALL_NODE_LIST (model)->n;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  StrataCallNodeList *self = STRATA_CALL_NODE_LIST (model);

  if (position >= self->n)
    return NULL;
  return strata_call_node_row_new (self->tree, self->order != NULL ? self->order[position] : self->first + position,
                                   self->clock);
}

static void
strata_call_node_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
strata_call_node_list_finalize (GObject *object)
{
  g_clear_object (&STRATA_CALL_NODE_LIST (object)->tree);
  g_free (STRATA_CALL_NODE_LIST (object)->order);
  G_OBJECT_CLASS (strata_call_node_list_parent_class)->finalize (object);
}

static void
strata_call_node_list_class_init (StrataCallNodeListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strata_call_node_list_finalize;
}

static void
strata_call_node_list_init (StrataCallNodeList *self)
{
}

/* The children of @parent (STRATA_CALL_TREE_ROOT for the top), largest
 * total on @clock first. */
StrataCallNodeList *
strata_call_node_list_new (StrataCallTree *tree,
                           guint32         parent,
                           guint           clock)
{
  StrataCallNodeList *self = g_object_new (STRATA_TYPE_CALL_NODE_LIST, NULL);

  self->tree = g_object_ref (tree);
  self->n = strata_call_tree_get_n_children (tree, parent);
  self->first = strata_call_tree_get_first_child (tree, parent);
  self->clock = clock;
  /* On the first clock, the tree's own order is the list's. */
  if (clock != 0 && self->n > 1)
    self->order = strata_call_tree_order_children (tree, parent, clock, &self->n);
  return self;
}
