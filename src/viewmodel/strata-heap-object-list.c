/* strata-heap-object-list.c: a list of heap objects whose rows are made
 * only when a view asks for them
 *
 * A node of the dominator tree can have millions of children and a class
 * millions of instances: the list holds their numbers (4 bytes each, or
 * a window into the graph's own array) and makes a row object for the
 * few a view shows.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-heap-object-list.h"
#include "strata-heap-object-row.h"

struct _StrataHeapObjectList
{
  GObject        parent_instance;

  StrataTrace   *trace;
  const guint32 *objects;    /* into the graph, or @owned */
  guint32       *owned;
  guint32        n_objects;
};

static void strata_heap_object_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrataHeapObjectList, strata_heap_object_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, strata_heap_object_list_model_init))

static GType
get_item_type (GListModel *model)
{
  return STRATA_TYPE_HEAP_OBJECT_ROW;
}

static guint
get_n_items (GListModel *model)
{
  return STRATA_HEAP_OBJECT_LIST (model)->n_objects;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  StrataHeapObjectList *self = STRATA_HEAP_OBJECT_LIST (model);

  if (position >= self->n_objects)
    return NULL;
  return strata_heap_object_row_new (self->trace, self->objects[position]);
}

static void
strata_heap_object_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
strata_heap_object_list_finalize (GObject *object)
{
  StrataHeapObjectList *self = STRATA_HEAP_OBJECT_LIST (object);

  g_clear_object (&self->trace);
  g_free (self->owned);
  G_OBJECT_CLASS (strata_heap_object_list_parent_class)->finalize (object);
}

static void
strata_heap_object_list_class_init (StrataHeapObjectListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strata_heap_object_list_finalize;
}

static void
strata_heap_object_list_init (StrataHeapObjectList *self)
{
}

static StrataHeapObjectList *
list_new (StrataTrace   *trace,
          const guint32 *objects,
          guint32       *owned,
          guint32        n_objects)
{
  StrataHeapObjectList *self = g_object_new (STRATA_TYPE_HEAP_OBJECT_LIST, NULL);

  self->trace = g_object_ref (trace);
  self->objects = objects;
  self->owned = owned;
  self->n_objects = n_objects;
  return self;
}

/* A copy of @objects, in that order. */
StrataHeapObjectList *
strata_heap_object_list_new (StrataTrace   *trace,
                             const guint32 *objects,
                             guint32        n_objects)
{
  guint32 *owned = g_memdup2 (objects, (gsize) MAX (n_objects, 1) * sizeof (guint32));

  return list_new (trace, owned, owned, n_objects);
}

/**
 * strata_heap_object_list_new_dominated:
 * @object: an object, or STRATA_HEAP_NO_OBJECT for the top of the tree
 *
 * Returns: (transfer full) (nullable): what @object immediately
 *   dominates, largest retained first; %NULL when it dominates nothing
 */
StrataHeapObjectList *
strata_heap_object_list_new_dominated (StrataTrace *trace,
                                       guint32      object)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  StrataHeapGraph *graph = heap != NULL ? strata_heap_get_graph (heap) : NULL;
  const guint32 *children;
  guint32 n;

  if (graph == NULL)
    return NULL;
  children = strata_heap_graph_get_dominated (graph, object, &n);
  /* The graph outlives the list: the list holds the trace. */
  return n > 0 ? list_new (trace, children, NULL, n) : NULL;
}

/* Every instance of @heap_class, largest retained first. */
StrataHeapObjectList *
strata_heap_object_list_new_instances (StrataTrace *trace,
                                       guint        heap_class)
{
  StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (trace));
  guint32 n;
  guint32 *instances = strata_heap_graph_list_instances (graph, heap_class, &n);

  return list_new (trace, instances, instances, n);
}

guint32
strata_heap_object_list_get_object (StrataHeapObjectList *self,
                                    guint                 position)
{
  g_return_val_if_fail (position < self->n_objects, STRATA_HEAP_NO_OBJECT);

  return self->objects[position];
}
