/* strata-heap-object-row.c: one object of a heap dump, as a row of the
 * dominator tree or of a class's instances
 *
 * Rows are made only for what a view shows (StrataHeapObjectList), so a
 * dump of millions of objects costs as many rows as are on screen.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-heap-object-list.h"
#include "strata-heap-object-row.h"
#include "strata-units.h"

/* A string's text in its label stops here. */
#define STRING_SHOWN 120

struct _StrataHeapObjectRow
{
  GObject      parent_instance;

  StrataTrace *trace;
  guint32      object;
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
  return (GListModel *) strata_heap_object_list_new_dominated (self->trace, self->object);
}

/* "java.util.HashMap 0x7f3a10". */
char *
strata_heap_object_row_dup_label (StrataHeapObjectRow *self)
{
  return strata_heap_describe_object (self->trace, self->object);
}

guint64
strata_heap_object_row_get_shallow (StrataHeapObjectRow *self)
{
  return strata_heap_graph_get_shallow (graph_of (self->trace), self->object);
}

guint64
strata_heap_object_row_get_retained (StrataHeapObjectRow *self)
{
  return strata_heap_graph_get_retained (graph_of (self->trace), self->object);
}

/* Of the reachable heap, from 0 to 1. */
double
strata_heap_object_row_get_share (StrataHeapObjectRow *self)
{
  StrataHeapGraph *graph = graph_of (self->trace);
  guint64 reachable = strata_heap_graph_get_reachable_bytes (graph);

  return reachable > 0 ? (double) strata_heap_graph_get_retained (graph, self->object) / reachable : 0;
}

/**
 * strata_heap_describe_object:
 *
 * Returns: (transfer full): "java.util.HashMap 0x7f3a10"
 */
char *
strata_heap_describe_object (StrataTrace *trace,
                             guint32      object)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  StrataHeapGraph *graph = strata_heap_get_graph (heap);
  guint32 klass = strata_heap_graph_get_class (graph, object);
  /* Translators: an object whose class the heap dump does not give */
  const char *name = klass < strata_heap_get_n_classes (heap)
                     ? strata_trace_get_string (trace, strata_heap_get_class (heap, klass)->name)
                     : _("(unknown class)");

  /* A class object is named after its class, as in Eclipse MAT. */
  if (g_str_equal (name, "java.lang.Class"))
    {
      const char *klass_name = strata_hprof_index_get_class_name (strata_heap_get_index (heap), trace,
                                                                  strata_heap_graph_get_id (graph, object));

      if (klass_name != NULL)
        {
          g_autofree char *id = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", strata_heap_graph_get_id (graph, object));

          /* Translators: a class object: the class's name, then the object's id */
          return g_strdup_printf (_("class %s %s"), klass_name, id);
        }
    }
  /* A string shows its text, as in Eclipse MAT. */
  if (g_str_equal (name, "java.lang.String"))
    {
      g_autofree char *text = strata_hprof_index_dup_string (strata_heap_get_index (heap), trace, object);

      if (text != NULL)
        {
          g_autofree char *clipped = NULL;
          const char *shown = strata_units_clip_to (text, STRING_SHOWN, &clipped);

          return g_strdup_printf ("%s 0x%" G_GINT64_MODIFIER "x “%s”", name, strata_heap_graph_get_id (graph, object), shown);
        }
    }
  return g_strdup_printf ("%s 0x%" G_GINT64_MODIFIER "x", name, strata_heap_graph_get_id (graph, object));
}

/**
 * strata_heap_describe_held:
 *
 * Returns: (transfer full): "holds java.util.ArrayList 0x7f3a10 (253,776
 *   bytes retained)", for what a stack frame holds
 */
char *
strata_heap_describe_held (StrataTrace *trace,
                           guint32      object)
{
  StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (trace));
  g_autofree char *label = strata_heap_describe_object (trace, object);
  g_autofree char *bytes = strata_units_format_count (strata_heap_graph_get_retained (graph, object));

  /* Translators: an object a stack frame holds, and the bytes it retains */
  return g_strdup_printf (_("holds %s (%s bytes retained)"), label, bytes);
}
