/* strata-heap-object-row.c: one object of a heap dump, as a row of the
 * dominator tree
 *
 * Rows are made only for the children of what is expanded, so a dump of
 * millions of objects costs as many rows as are shown. A node with more
 * children than MAX_CHILDREN lists the largest and one row that counts
 * the rest.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-heap-object-row.h"
#include "strata-units.h"

#define MAX_CHILDREN 1000

struct _StrataHeapObjectRow
{
  GObject      parent_instance;

  StrataTrace *trace;
  guint32      object;     /* STRATA_HEAP_NO_OBJECT: the row that counts the rest */
  guint32      n_more;     /* objects that row stands for */
  guint64      retained;   /* its own, or the rest's */
};

G_DEFINE_FINAL_TYPE (StrataHeapObjectRow, strata_heap_object_row, G_TYPE_OBJECT)

static void
strata_heap_object_row_finalize (GObject *object)
{
  g_clear_object (&STRATA_HEAP_OBJECT_ROW (object)->trace);
  G_OBJECT_CLASS (strata_heap_object_row_parent_class)->finalize (object);
}

static void
strata_heap_object_row_class_init (StrataHeapObjectRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strata_heap_object_row_finalize;
}

static void
strata_heap_object_row_init (StrataHeapObjectRow *self)
{
}

static StrataHeapGraph *
graph_of (StrataTrace *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);

  return heap != NULL ? strata_heap_get_graph (heap) : NULL;
}

static StrataHeapObjectRow *
row_new (StrataTrace *trace,
         guint32      object,
         guint32      n_more,
         guint64      retained)
{
  StrataHeapObjectRow *self = g_object_new (STRATA_TYPE_HEAP_OBJECT_ROW, NULL);

  self->trace = g_object_ref (trace);
  self->object = object;
  self->n_more = n_more;
  self->retained = retained;
  return self;
}

/**
 * strata_heap_object_row_list_dominated:
 * @object: an object, or STRATA_HEAP_NO_OBJECT for the top of the tree
 *
 * Returns: (transfer full) (nullable): rows for the objects @object
 *   immediately dominates, largest retained size first; %NULL for none
 */
GListModel *
strata_heap_object_row_list_dominated (StrataTrace *trace,
                                       guint32      object)
{
  StrataHeapGraph *graph = graph_of (trace);
  GListStore *store;
  const guint32 *children;
  guint32 n, shown;
  guint64 rest = 0;

  if (graph == NULL)
    return NULL;
  children = strata_heap_graph_get_dominated (graph, object, &n);
  if (n == 0)
    return NULL;
  store = g_list_store_new (STRATA_TYPE_HEAP_OBJECT_ROW);
  shown = MIN (n, MAX_CHILDREN);
  for (guint32 i = 0; i < shown; i++)
    {
      g_autoptr(StrataHeapObjectRow) row = row_new (trace, children[i], 0,
                                                    strata_heap_graph_get_retained (graph, children[i]));

      g_list_store_append (store, row);
    }
  for (guint32 i = shown; i < n; i++)
    rest += strata_heap_graph_get_retained (graph, children[i]);
  if (n > shown)
    {
      g_autoptr(StrataHeapObjectRow) more = row_new (trace, STRATA_HEAP_NO_OBJECT, n - shown, rest);

      g_list_store_append (store, more);
    }
  return G_LIST_MODEL (store);
}

GListModel *
strata_heap_object_row_list_children (StrataHeapObjectRow *self)
{
  if (self->object == STRATA_HEAP_NO_OBJECT)
    return NULL;
  return strata_heap_object_row_list_dominated (self->trace, self->object);
}

/* "java.util.HashMap 0x7f3a10", or how many more objects a row stands for. */
char *
strata_heap_object_row_dup_label (StrataHeapObjectRow *self)
{
  const StrataHeap *heap = strata_trace_get_heap (self->trace);
  StrataHeapGraph *graph = strata_heap_get_graph (heap);
  guint32 klass;
  const char *name;

  if (self->object == STRATA_HEAP_NO_OBJECT)
    {
      g_autofree char *count = strata_units_format_count (self->n_more);

      /* Translators: %s is a number of objects not listed one by one */
      return g_strdup_printf (ngettext ("%s more object", "%s more objects", self->n_more), count);
    }
  klass = strata_heap_graph_get_class (graph, self->object);
  /* Translators: an object whose class the heap dump does not give */
  name = klass < strata_heap_get_n_classes (heap) ? strata_trace_get_string (self->trace, strata_heap_get_class (heap, klass)->name)
                                                  : _("(unknown class)");
  return g_strdup_printf ("%s 0x%" G_GINT64_MODIFIER "x", name, strata_heap_graph_get_id (graph, self->object));
}

guint64
strata_heap_object_row_get_shallow (StrataHeapObjectRow *self)
{
  if (self->object == STRATA_HEAP_NO_OBJECT)
    return 0;
  return strata_heap_graph_get_shallow (graph_of (self->trace), self->object);
}

guint64
strata_heap_object_row_get_retained (StrataHeapObjectRow *self)
{
  return self->retained;
}

/* Of the reachable heap, from 0 to 1. */
double
strata_heap_object_row_get_share (StrataHeapObjectRow *self)
{
  guint64 reachable = strata_heap_graph_get_reachable_bytes (graph_of (self->trace));

  return reachable > 0 ? (double) self->retained / reachable : 0;
}
