/* strata-heap-object-list.c: a list of heap objects whose rows are made
 * only when a view asks for them
 *
 * A node of the dominator tree can have millions of children and a class
 * millions of instances: the list holds their numbers (4 bytes each, or
 * a window into the graph's own array) and makes a row object for the
 * few a view shows. GTK's tree and sort models still keep something for
 * every item they are given (about 90 bytes in a GtkTreeListModel): a
 * list longer than LONG_LIST gives them a page at a time, as Eclipse MAT
 * does, its last row saying how many more there are.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-heap-object-list.h"
#include "strata-heap-object-row.h"

struct _StrataHeapObjectList
{
  GObject        parent_instance;

  StrataTrace   *trace;
  const guint32 *objects;    /* into the graph, or @owned */
  guint32       *owned;
  guint32        n_objects;
  guint32        n_shown;    /* the first n_shown objects are items */
};

#define LONG_LIST 100000
#define PAGE 10000

static gboolean
has_more (StrataHeapObjectList *self)
{
  return self->n_shown < self->n_objects;
}

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
  StrataHeapObjectList *self = STRATA_HEAP_OBJECT_LIST (model);

  return self->n_shown + has_more (self);
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  StrataHeapObjectList *self = STRATA_HEAP_OBJECT_LIST (model);

  if (position == self->n_shown && has_more (self))
    return strata_heap_object_row_new_more (self->trace, self, self->n_objects - self->n_shown);
  if (position >= self->n_shown)
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
  self->n_shown = n_objects <= LONG_LIST ? n_objects : PAGE;
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

/**
 * strata_heap_object_list_get_length:
 *
 * Returns: how many objects the list holds, shown or not
 */
guint32
strata_heap_object_list_get_length (StrataHeapObjectList *self)
{
  g_return_val_if_fail (STRATA_IS_HEAP_OBJECT_LIST (self), 0);

  return self->n_objects;
}

/* The next page of a long list: its "more" row gives way to the objects
 * and, if any are left, a new one. */
void
strata_heap_object_list_show_more (StrataHeapObjectList *self)
{
  guint32 before = self->n_shown;

  g_return_if_fail (STRATA_IS_HEAP_OBJECT_LIST (self));
  if (!has_more (self))
    return;
  self->n_shown = MIN (self->n_objects, self->n_shown + PAGE);
  g_list_model_items_changed (G_LIST_MODEL (self), before, 1, self->n_shown - before + has_more (self));
}

guint32
strata_heap_object_list_get_object (StrataHeapObjectList *self,
                                    guint                 position)
{
  g_return_val_if_fail (position < self->n_objects, STRATA_HEAP_NO_OBJECT);

  return self->objects[position];
}

/* ---- Sorting a list too long for a row per item ----
 *
 * GTK's sort models make a row object for every item; a class with 27
 * million instances sorts here instead, in a worker: a stable radix sort
 * of the object numbers by a 64-bit key, 16 bits a pass, skipping the
 * digits every key shares. The same order as strata_heap_object_row_compare(). */

typedef struct
{
  StrataTrace *trace;
  guint32     *objects;     /* a copy, sorted in place */
  guint32      n_objects;
  guint        key;         /* 0 class then id, 1 shallow, 2 retained */
  gboolean     descending;
  guint32     *class_rank;  /* by name, for key 0 */
} SortJob;

static void
sort_job_free (SortJob *job)
{
  g_clear_object (&job->trace);
  g_free (job->objects);
  g_free (job->class_rank);
  g_free (job);
}

static int
compare_class_names (gconstpointer a,
                     gconstpointer b,
                     gpointer      trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);

  return strcmp (strata_trace_get_string (trace, strata_heap_get_class (heap, *(const guint *) a)->name),
                 strata_trace_get_string (trace, strata_heap_get_class (heap, *(const guint *) b)->name));
}

/* Each class's place in name order, from 1 (0: no known class, whose
 * label sorts first as an empty name). */
static guint32 *
rank_classes (StrataTrace *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  guint n = strata_heap_get_n_classes (heap);
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  guint32 *rank = g_new (guint32, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, n, sizeof (guint), compare_class_names, trace);
  for (guint i = 0; i < n; i++)
    rank[order[i]] = i + 1;
  return rank;
}

static inline guint64
sort_key (const SortJob         *job,
          const StrataHeapGraph *graph,
          guint                  n_classes,
          guint32                object)
{
  guint64 key;

  switch (job->key)
    {
    case 0:
      {
        guint klass = strata_heap_graph_get_class (graph, object);

        /* Object numbers follow ids. */
        key = ((guint64) (klass < n_classes ? job->class_rank[klass] : 0) << 32) | object;
        break;
      }
    case 1:
      key = strata_heap_graph_get_shallow (graph, object);
      break;
    default:
      key = strata_heap_graph_get_retained (graph, object);
      break;
    }
  return job->descending ? ~key : key;
}

static void
radix_sort (SortJob      *job,
            GCancellable *cancellable)
{
  const StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (job->trace));
  guint n_classes = strata_heap_get_n_classes (strata_trace_get_heap (job->trace));
  g_autofree guint32 *spare = g_new (guint32, MAX (job->n_objects, 1));
  g_autofree guint32 *counts = g_new (guint32, 65536);
  guint64 all_or = 0, all_and = G_MAXUINT64;
  guint32 *from = job->objects, *to = spare;

  if (job->key == 0)
    job->class_rank = rank_classes (job->trace);
  for (guint32 i = 0; i < job->n_objects; i++)
    {
      guint64 key = sort_key (job, graph, n_classes, job->objects[i]);

      all_or |= key;
      all_and &= key;
    }
  for (guint shift = 0; shift < 64; shift += 16)
    {
      guint32 sum = 0;

      if ((((all_or ^ all_and) >> shift) & 0xffff) == 0)
        continue;
      if (g_cancellable_is_cancelled (cancellable))
        return;
      memset (counts, 0, 65536 * sizeof (guint32));
      for (guint32 i = 0; i < job->n_objects; i++)
        counts[(sort_key (job, graph, n_classes, from[i]) >> shift) & 0xffff]++;
      for (guint d = 0; d < 65536; d++)
        {
          guint32 c = counts[d];

          counts[d] = sum;
          sum += c;
        }
      for (guint32 i = 0; i < job->n_objects; i++)
        to[counts[(sort_key (job, graph, n_classes, from[i]) >> shift) & 0xffff]++] = from[i];
      {
        guint32 *swap = from;

        from = to;
        to = swap;
      }
    }
  if (from != job->objects)
    memcpy (job->objects, from, (gsize) job->n_objects * sizeof (guint32));
}

static void
sort_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  radix_sort (task_data, cancellable);
  if (!g_task_return_error_if_cancelled (task))
    g_task_return_boolean (task, TRUE);
}

/**
 * strata_heap_object_list_sort_async:
 * @key: 0 by class then id, 1 by shallow size, 2 by retained size
 *
 * Sorts the list in a worker thread (the list keeps its order until
 * finished); ties keep their present order.
 */
void
strata_heap_object_list_sort_async (StrataHeapObjectList *self,
                                    guint                 key,
                                    gboolean              descending,
                                    GCancellable         *cancellable,
                                    GAsyncReadyCallback   callback,
                                    gpointer              user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  SortJob *job = g_new0 (SortJob, 1);

  job->trace = g_object_ref (self->trace);
  job->objects = g_memdup2 (self->objects, (gsize) MAX (self->n_objects, 1) * sizeof (guint32));
  job->n_objects = self->n_objects;
  job->key = key;
  job->descending = descending;
  g_task_set_source_tag (task, strata_heap_object_list_sort_async);
  g_task_set_task_data (task, job, (GDestroyNotify) sort_job_free);
  g_task_run_in_thread (task, sort_thread);
}

gboolean
strata_heap_object_list_sort_finish (StrataHeapObjectList *self,
                                     GAsyncResult         *result,
                                     GError              **error)
{
  SortJob *job;

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  job = g_task_get_task_data (G_TASK (result));
  g_free (self->owned);
  self->owned = g_steal_pointer (&job->objects);
  self->objects = self->owned;
  g_list_model_items_changed (G_LIST_MODEL (self), 0, get_n_items (G_LIST_MODEL (self)), get_n_items (G_LIST_MODEL (self)));
  return TRUE;
}
