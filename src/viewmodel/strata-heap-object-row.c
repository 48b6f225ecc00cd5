/* strata-heap-object-row.c: one object of a heap dump, as a row of the
 * dominator tree or of a class's instances
 *
 * Rows are made only for what a view shows (StrataHeapObjectList), so a
 * dump of millions of objects costs as many rows as are on screen.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-heap-object-list.h"
#include "strata-heap-labels.h"
#include "strata-heap-object-row.h"
#include "strata-units.h"

struct _StrataHeapObjectRow
{
  GObject      parent_instance;

  StrataTrace *trace;
  guint32      object;     /* STRATA_HEAP_NO_OBJECT for a class's group */
  /* A group: objects of one class, and their sums. */
  guint        heap_class;
  GArray      *members;    /* guint32 */
  guint64      shallow;
  guint64      retained;
  /* The last row of a long list that shows a page at a time: how many
   * objects are not shown yet, and the list that shows them. */
  StrataHeapObjectList *more_of;
  guint32      n_more;
};

G_DEFINE_FINAL_TYPE (StrataHeapObjectRow, strata_heap_object_row, G_TYPE_OBJECT)

static void
strata_heap_object_row_finalize (GObject *object)
{
  g_clear_object (&STRATA_HEAP_OBJECT_ROW (object)->trace);
  g_clear_pointer (&STRATA_HEAP_OBJECT_ROW (object)->members, g_array_unref);
  g_clear_object (&STRATA_HEAP_OBJECT_ROW (object)->more_of);
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
  return strata_heap_get_graph (strata_trace_get_heap (trace));
}

StrataHeapObjectRow *
strata_heap_object_row_new (StrataTrace *trace,
                            guint32      object)
{
  StrataHeapObjectRow *self = g_object_new (STRATA_TYPE_HEAP_OBJECT_ROW, NULL);

  self->trace = g_object_ref (trace);
  self->object = object;
  return self;
}

/**
 * strata_heap_object_row_new_more:
 * @n_more: objects of @list not shown yet
 *
 * The row that ends a long list shown a page at a time; activating it
 * (strata_heap_object_row_show_more()) shows the next page.
 */
StrataHeapObjectRow *
strata_heap_object_row_new_more (StrataTrace          *trace,
                                 StrataHeapObjectList *list,
                                 guint32               n_more)
{
  StrataHeapObjectRow *self = strata_heap_object_row_new (trace, STRATA_HEAP_NO_OBJECT);

  self->more_of = g_object_ref (list);
  self->n_more = n_more;
  return self;
}

gboolean
strata_heap_object_row_is_more (StrataHeapObjectRow *self)
{
  return self->more_of != NULL;
}

/* Returns: %TRUE when @self was a list's "more" row, now showing more. */
gboolean
strata_heap_object_row_show_more (StrataHeapObjectRow *self)
{
  if (self->more_of == NULL)
    return FALSE;
  strata_heap_object_list_show_more (self->more_of);
  return TRUE;
}

guint32
strata_heap_object_row_get_object (StrataHeapObjectRow *self)
{
  return self->object;
}

/**
 * strata_heap_object_row_list_children:
 *
 * Returns: (transfer full) (nullable): the objects this one alone keeps
 *   alive, largest retained first; %NULL for none
 */
GListModel *
strata_heap_object_row_list_children (StrataHeapObjectRow *self)
{
  if (self->members != NULL)
    return G_LIST_MODEL (strata_heap_object_list_new (self->trace, (const guint32 *) self->members->data,
                                                      self->members->len));
  if (self->more_of != NULL)
    return NULL;
  return (GListModel *) strata_heap_object_list_new_dominated (self->trace, self->object);
}

static int
compare_groups (gconstpointer a,
                gconstpointer b)
{
  const StrataHeapObjectRow *x = *(StrataHeapObjectRow * const *) a;
  const StrataHeapObjectRow *y = *(StrataHeapObjectRow * const *) b;

  return x->retained > y->retained ? -1 : x->retained < y->retained;
}

/**
 * strata_heap_object_row_list_groups:
 *
 * The top of the dominator tree grouped by class, as Eclipse MAT's "group
 * by class": one row per class, largest retained first, each expanding to
 * its objects.
 *
 * Returns: (transfer full): StrataHeapObjectRow groups
 */
GListModel *
strata_heap_object_row_list_groups (StrataTrace *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  StrataHeapGraph *graph = strata_heap_get_graph (heap);
  GListStore *store = g_list_store_new (STRATA_TYPE_HEAP_OBJECT_ROW);
  g_autoptr(GHashTable) by_class = g_hash_table_new (NULL, NULL);
  g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func (g_object_unref);
  const guint32 *top;
  guint32 n;

  top = strata_heap_graph_get_dominated (graph, STRATA_HEAP_NO_OBJECT, &n);
  for (guint32 i = 0; i < n; i++)
    {
      guint klass = strata_heap_graph_get_class (graph, top[i]);
      StrataHeapObjectRow *group = g_hash_table_lookup (by_class, GUINT_TO_POINTER (klass + 1));

      if (group == NULL)
        {
          group = strata_heap_object_row_new (trace, STRATA_HEAP_NO_OBJECT);
          group->heap_class = klass;
          group->members = g_array_new (FALSE, FALSE, sizeof (guint32));
          g_hash_table_insert (by_class, GUINT_TO_POINTER (klass + 1), group);
          g_ptr_array_add (groups, group);
        }
      /* The top is sorted: each group's objects come largest first. */
      g_array_append_val (group->members, top[i]);
      group->shallow += strata_heap_graph_get_shallow (graph, top[i]);
      group->retained += strata_heap_graph_get_retained (graph, top[i]);
    }
  g_ptr_array_sort (groups, compare_groups);
  for (guint i = 0; i < groups->len; i++)
    g_list_store_append (store, g_ptr_array_index (groups, i));
  return G_LIST_MODEL (store);
}

/* "java.util.HashMap 0x7f3a10", or for a group "java.util.HashMap (3)". */
char *
strata_heap_object_row_dup_label (StrataHeapObjectRow *self)
{
  if (self->members != NULL)
    {
      g_autofree char *count = strata_units_format_count (self->members->len);
      const char *name = strata_heap_class_label (self->trace, self->heap_class);

      /* Translators: a class and how many of its objects the group holds */
      return g_strdup_printf (ngettext ("%s (%s object)", "%s (%s objects)", self->members->len), name, count);
    }
  if (self->more_of != NULL)
    {
      g_autofree char *count = strata_units_format_count (self->n_more);

      /* Translators: the last row of a long list; Enter or a double click on it shows more */
      return g_strdup_printf (ngettext ("%s more object: activate to show the next ones",
                                        "%s more objects: activate to show the next ones", self->n_more), count);
    }
  return strata_heap_describe_object (self->trace, self->object);
}

guint64
strata_heap_object_row_get_shallow (StrataHeapObjectRow *self)
{
  if (self->members != NULL)
    return self->shallow;
  if (self->more_of != NULL)
    return 0;
  return strata_heap_graph_get_shallow (graph_of (self->trace), self->object);
}

guint64
strata_heap_object_row_get_retained (StrataHeapObjectRow *self)
{
  if (self->members != NULL)
    return self->retained;
  if (self->more_of != NULL)
    return 0;
  return strata_heap_graph_get_retained (graph_of (self->trace), self->object);
}

/* Of the reachable heap, from 0 to 1. */
double
strata_heap_object_row_get_share (StrataHeapObjectRow *self)
{
  StrataHeapGraph *graph = graph_of (self->trace);
  guint64 reachable = strata_heap_graph_get_reachable_bytes (graph);

  return reachable > 0 ? (double) strata_heap_object_row_get_retained (self) / reachable : 0;
}

static const char *
class_name_of (StrataHeapObjectRow *self)
{
  const StrataHeap *heap = strata_trace_get_heap (self->trace);
  guint klass = self->members != NULL ? self->heap_class
              : self->more_of != NULL ? G_MAXUINT
              : strata_heap_graph_get_class (graph_of (self->trace), self->object);

  return klass < strata_heap_get_n_classes (heap) ? strata_trace_get_string (self->trace, strata_heap_get_class (heap, klass)->name) : "";
}

/**
 * strata_heap_object_row_compare:
 * @key: 0 by class then id, 1 by shallow size, 2 by retained size
 *
 * For the tables' sorters; no allocation, so a hundred thousand rows sort
 * quickly.
 */
int
strata_heap_object_row_compare (StrataHeapObjectRow *a,
                                StrataHeapObjectRow *b,
                                guint                key)
{
  guint64 x, y;

  switch (key)
    {
    case 0:
      {
        int by_name = g_strcmp0 (class_name_of (a), class_name_of (b));

        if (by_name != 0)
          return by_name;
        x = a->object == STRATA_HEAP_NO_OBJECT ? 0 : strata_heap_graph_get_id (graph_of (a->trace), a->object);
        y = b->object == STRATA_HEAP_NO_OBJECT ? 0 : strata_heap_graph_get_id (graph_of (b->trace), b->object);
        break;
      }
    case 1:
      x = strata_heap_object_row_get_shallow (a);
      y = strata_heap_object_row_get_shallow (b);
      break;
    default:
      x = strata_heap_object_row_get_retained (a);
      y = strata_heap_object_row_get_retained (b);
      break;
    }
  return x < y ? -1 : x > y;
}
