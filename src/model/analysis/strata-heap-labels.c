/* strata-heap-labels.c: what a heap dump's classes and objects are called
 *
 * One name for each thing wherever it is shown (tables, the inspector,
 * `strata -r` and its JSON): a class by its name, an object by its class
 * and id, a class object by the class it is, a string with its text, as
 * Eclipse MAT names them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-heap-labels.h"
#include "strata-hprof-index.h"
#include "strata-units.h"

/* A string's text in its label stops here. */
#define STRING_SHOWN 120

/**
 * strata_heap_class_label:
 *
 * Returns: the name of heap class @klass, or "(unknown class)" when the
 *   dump does not give it
 */
const char *
strata_heap_class_label (StrataTrace *trace,
                         guint        klass)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);

  if (klass >= strata_heap_get_n_classes (heap))
    /* Translators: an object whose class the heap dump does not give */
    return _("(unknown class)");
  return strata_trace_get_string (trace, strata_heap_get_class (heap, klass)->name);
}

/* The class of @object, as strata_heap_class_label() names it. */
const char *
strata_heap_object_class_label (StrataTrace *trace,
                                guint32      object)
{
  return strata_heap_class_label (trace, strata_heap_graph_get_class (strata_heap_get_graph (strata_trace_get_heap (trace)),
                                                                      object));
}

/**
 * strata_heap_describe_array_copies:
 *
 * Returns: (transfer full): "byte[16]": a group of equal arrays' element
 *   type, then their length
 */
char *
strata_heap_describe_array_copies (StrataTrace               *trace,
                                   const StrataHeapDuplicate *duplicate)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  g_autofree char *element = g_strdup (duplicate->heap_class < strata_heap_get_n_classes (heap)
                                       ? strata_heap_class_label (trace, duplicate->heap_class) : "");

  if (g_str_has_suffix (element, "[]"))
    element[strlen (element) - 2] = '\0';
  return g_strdup_printf ("%s[%u]", element, duplicate->length);
}

/**
 * strata_heap_class_named:
 *
 * Returns: the index of the heap's class called @name, or G_MAXUINT
 */
guint
strata_heap_class_named (StrataTrace *trace,
                         const char  *name)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);

  for (guint c = 0; heap != NULL && c < strata_heap_get_n_classes (heap); c++)
    if (g_strcmp0 (strata_trace_get_string (trace, strata_heap_get_class (heap, c)->name), name) == 0)
      return c;
  return G_MAXUINT;
}

/**
 * strata_heap_class_object_name:
 *
 * Returns: (nullable): the name of the class @object is the class object
 *   of, or %NULL when it is none (or the dump does not name it)
 */
const char *
strata_heap_class_object_name (StrataTrace *trace,
                               guint32      object)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);

  if (!g_str_equal (strata_heap_object_class_label (trace, object), "java.lang.Class"))
    return NULL;
  return strata_hprof_index_get_class_name (strata_heap_get_index (heap), trace,
                                            strata_heap_graph_get_id (strata_heap_get_graph (heap), object));
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
  const char *name = strata_heap_object_class_label (trace, object);
  const char *klass_name = strata_heap_class_object_name (trace, object);

  /* A class object is named after its class, as in Eclipse MAT. */
  if (klass_name != NULL)
    {
      g_autofree char *id = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", strata_heap_graph_get_id (graph, object));

      /* Translators: a class object: the class's name, then the object's id */
      return g_strdup_printf (_("class %s %s"), klass_name, id);
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

/* A path longer than this is cut in the middle when described. */
#define MAX_PATH_STEPS 64

/**
 * strata_heap_describe_path:
 * @path: objects, each referring to the next
 * @from_root: whether @path starts at a GC root, to be named
 *
 * Returns: (transfer full): "Java frame → java.util.ArrayList .elementData
 *   → java.lang.Object[] [3] → Small": each object by its class (a class
 *   object as "class X"), each step by its field or index; the middle of
 *   a long path is cut
 */
char *
strata_heap_describe_path (StrataTrace   *trace,
                           const guint32 *path,
                           guint32        n,
                           gboolean       from_root)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  StrataHeapGraph *graph = strata_heap_get_graph (heap);
  GString *text = g_string_new (NULL);

  if (from_root && n > 0)
    g_string_append_printf (text, "%s → ", strata_root_kind_get_name (strata_heap_graph_get_root_kind (graph, path[0])));
  for (guint32 i = 0; i < n; i++)
    {
      const char *klass = strata_heap_class_object_name (trace, path[i]);

      if (i == MAX_PATH_STEPS / 2 && n > MAX_PATH_STEPS)
        {
          /* Translators: %u is a number of references left out of a path */
          g_string_append_printf (text, _(" … %u steps …"), n - MAX_PATH_STEPS);
          i = n - MAX_PATH_STEPS / 2 - 1;
          continue;
        }
      if (i > 0)
        {
          g_autofree char *field = strata_hprof_index_name_reference (strata_heap_get_index (heap), trace, path[i - 1], path[i]);

          if (field != NULL && field[0] != '\0')
            g_string_append_printf (text, field[0] == '[' ? " %s" : " .%s", field);
          g_string_append (text, " → ");
        }
      /* A class object by the class it is. */
      if (klass != NULL)
        g_string_append_printf (text, "class %s", klass);
      else
        g_string_append (text, strata_heap_object_class_label (trace, path[i]));
    }
  return g_string_free (text, FALSE);
}

/* The length of the array @field refers to; 0 for null. */
static guint32
array_length (StrataTrace           *trace,
              const StrataHeapField *field)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  guint32 array = field->value != 0 ? strata_heap_graph_lookup (strata_heap_get_graph (heap), field->value)
                                    : STRATA_HEAP_NO_OBJECT;
  guint type, element_size;
  guint32 length = 0;

  if (array != STRATA_HEAP_NO_OBJECT)
    strata_hprof_index_get_array (strata_heap_get_index (heap), array, &type, &length, &element_size);
  return length;
}

/**
 * strata_heap_collection_fill:
 * @size: (out): the entries it holds
 * @capacity: (out): the slots its array has
 *
 * How full a JDK collection is, from its fields: ArrayList and Vector
 * (size of elementData), HashMap, LinkedHashMap, WeakHashMap and
 * Hashtable (size of table), HashSet through its map, ArrayDeque.
 *
 * Returns: whether @object is such a collection
 */
gboolean
strata_heap_collection_fill (StrataTrace *trace,
                             guint32      object,
                             guint64     *size,
                             guint64     *capacity)
{
  static const struct { const char *klass, *size, *array; } kinds[] = {
    { "java.util.ArrayList", "size", "elementData" },
    { "java.util.Vector", "elementCount", "elementData" },
    { "java.util.HashMap", "size", "table" },
    { "java.util.LinkedHashMap", "size", "table" },
    { "java.util.WeakHashMap", "size", "table" },
    { "java.util.Hashtable", "count", "table" },
    { "java.util.Properties", "count", "table" },
  };
  const StrataHeap *heap = strata_trace_get_heap (trace);
  const char *klass = strata_heap_object_class_label (trace, object);
  g_autoptr(GArray) fields = strata_hprof_index_get_fields (strata_heap_get_index (heap), trace, object);
  const StrataHeapField *count, *array, *map;

  if (g_str_equal (klass, "java.util.HashSet") || g_str_equal (klass, "java.util.LinkedHashSet"))
    {
      guint32 backing = (map = strata_heap_fields_find (fields, NULL, "map")) != NULL && map->value != 0
                        ? strata_heap_graph_lookup (strata_heap_get_graph (heap), map->value) : STRATA_HEAP_NO_OBJECT;

      return backing != STRATA_HEAP_NO_OBJECT && strata_heap_collection_fill (trace, backing, size, capacity);
    }
  if (g_str_equal (klass, "java.util.ArrayDeque") && (array = strata_heap_fields_find (fields, NULL, "elements")) != NULL)
    {
      const StrataHeapField *head = strata_heap_fields_find (fields, NULL, "head"), *tail = strata_heap_fields_find (fields, NULL, "tail");

      *capacity = array_length (trace, array);
      *size = head != NULL && tail != NULL && *capacity > 0
              ? ((gint64) (gint32) tail->value - (gint32) head->value + (gint64) *capacity) % *capacity : 0;
      return TRUE;
    }
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    if (g_str_equal (klass, kinds[k].klass) && (count = strata_heap_fields_find (fields, NULL, kinds[k].size)) != NULL &&
        (array = strata_heap_fields_find (fields, NULL, kinds[k].array)) != NULL)
      {
        *size = (guint32) count->value;
        *capacity = array_length (trace, array);
        return TRUE;
      }
  return FALSE;
}
