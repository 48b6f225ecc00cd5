/* strata-heap-duplicates.c: strings and primitive arrays a heap dump holds
 * more than once
 *
 * Equal copies are grouped by content: a string by its text (with its
 * value array, a copy costs both), a primitive array by its type, length
 * and bytes. What all but one copy take is wasted, as Eclipse MAT and
 * Android Studio count it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-hprof-index.h"
#include "strata-heap-duplicates.h"

typedef struct
{
  const guint8 *data;      /* a primitive array's bytes in the dump, or text */
  gsize         len;
  guint32       heap_class;
  guint32       length;    /* an array's elements */
  guint32       count;
  guint64       wasted;
  guint32       example;
  char         *text;
  guint32       value;     /* a string's value array; copies sharing it waste only themselves */
} Group;

static guint
group_hash (gconstpointer key)
{
  const Group *group = key;
  guint hash = 5381 ^ group->heap_class;

  for (gsize i = 0; i < group->len; i++)
    hash = hash * 33 + group->data[i];
  return hash;
}

static gboolean
group_equal (gconstpointer a,
             gconstpointer b)
{
  const Group *x = a, *y = b;

  return x->heap_class == y->heap_class && x->len == y->len && memcmp (x->data, y->data, x->len) == 0;
}

static void
group_free (gpointer data)
{
  Group *group = data;

  g_free (group->text);
  g_free (group);
}

static void
add_copy (GHashTable   *groups,
          const Group  *key,
          guint64       bytes,
          guint64       value_bytes,
          char        **text)
{
  Group *group = g_hash_table_lookup (groups, key);

  if (group == NULL)
    {
      group = g_memdup2 (key, sizeof *key);
      if (text != NULL)
        {
          group->text = g_steal_pointer (text);
          group->data = (const guint8 *) group->text;
        }
      group->count = 0;
      group->wasted = 0;
      g_hash_table_add (groups, group);
    }
  else
    group->wasted += bytes + (key->value != group->value ? value_bytes : 0);
  group->count++;
}

static void
clear_duplicate (gpointer data)
{
  g_free (((StrataHeapDuplicate *) data)->text);
}

static int
compare_wasted (gconstpointer a,
                gconstpointer b)
{
  const StrataHeapDuplicate *x = a, *y = b;

  return x->wasted > y->wasted ? -1 : x->wasted < y->wasted;
}

static guint32
class_named (const StrataHeap *heap,
             StrataTrace      *trace,
             const char       *name)
{
  for (guint c = 0; c < strata_heap_get_n_classes (heap); c++)
    if (g_strcmp0 (strata_trace_get_string (trace, strata_heap_get_class (heap, c)->name), name) == 0)
      return c;
  return G_MAXUINT32;
}

/* A string's text, its value array and the bytes that array takes. */
static char *
string_copy (StrataTrace     *trace,
             StrataHeapGraph *graph,
             guint32          object,
             guint32         *value,
             guint64         *value_bytes)
{
  StrataHprofIndex *index = strata_heap_get_index (strata_trace_get_heap (trace));
  char *text = strata_hprof_index_dup_string (index, trace, object);
  guint32 n;
  const guint32 *refs = strata_heap_graph_get_references (graph, object, &n);

  *value = n > 0 ? refs[0] : G_MAXUINT32;
  *value_bytes = n > 0 ? strata_heap_graph_get_shallow (graph, refs[0]) : 0;
  return text;
}

/**
 * strata_heap_find_duplicates:
 * @strings: strings, or else primitive arrays
 * @max: at most this many groups, the most wasteful
 *
 * Returns: (transfer full): StrataHeapDuplicate, the most wasted bytes
 *   first; texts owned by the array (free them with it)
 */
GArray *
strata_heap_find_duplicates (StrataTrace  *trace,
                             gboolean      strings,
                             guint         max,
                             GCancellable *cancellable)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  StrataHeapGraph *graph = heap != NULL ? strata_heap_get_graph (heap) : NULL;
  StrataHprofIndex *index = graph != NULL ? strata_heap_get_index (heap) : NULL;
  GArray *found = g_array_new (FALSE, TRUE, sizeof (StrataHeapDuplicate));
  g_autoptr(GHashTable) groups = g_hash_table_new_full (group_hash, group_equal, group_free, NULL);
  static const char *primitive_arrays[] = { "boolean[]", "char[]", "float[]", "double[]", "byte[]", "short[]", "int[]", "long[]" };
  g_autofree gboolean *primitive = NULL;
  guint32 string_class;
  GHashTableIter iter;
  Group *group;

  g_array_set_clear_func (found, clear_duplicate);
  if (index == NULL)
    return found;
  string_class = class_named (heap, trace, "java.lang.String");
  /* Only these objects' records are read, so the rest of the dump stays
   * on disk. */
  primitive = g_new0 (gboolean, strata_heap_get_n_classes (heap) + 1);
  for (guint p = 0; p < G_N_ELEMENTS (primitive_arrays); p++)
    {
      guint32 c = class_named (heap, trace, primitive_arrays[p]);

      if (c != G_MAXUINT32)
        primitive[c] = TRUE;
    }
  for (guint32 i = 0; i < strata_heap_graph_get_n_objects (graph); i++)
    {
      guint32 klass = strata_heap_graph_get_class (graph, i);

      if (i % 65536 == 0 && g_cancellable_is_cancelled (cancellable))
        break;
      if (strings && klass == string_class)
        {
          guint64 value_bytes;
          guint32 value;
          char *text = string_copy (trace, graph, i, &value, &value_bytes);
          Group key = { (const guint8 *) text, text ? strlen (text) : 0, 0, 0, 0, 0, i, NULL, value };

          if (text != NULL)
            add_copy (groups, &key, strata_heap_graph_get_shallow (graph, i), value_bytes, &text);
          g_free (text);
        }
      else if (!strings && klass < strata_heap_get_n_classes (heap) && primitive[klass])
        {
          guint type;
          guint32 length;
          const guint8 *data = strata_hprof_index_get_primitive_array (index, i, &type, &length);
          Group key = { data, 0, klass, length, 0, 0, i, NULL, G_MAXUINT32 };

          if (data == NULL || length == 0)
            continue;
          key.len = (gsize) length * strata_heap_type_size (type);
          add_copy (groups, &key, strata_heap_graph_get_shallow (graph, i), 0, NULL);
        }
    }
  g_hash_table_iter_init (&iter, groups);
  while (g_hash_table_iter_next (&iter, (gpointer *) &group, NULL))
    {
      StrataHeapDuplicate duplicate = { NULL, group->heap_class, 0, group->count, group->wasted, group->example };

      if (group->count < 2)
        continue;
      if (group->text != NULL)
        duplicate.text = g_strdup (group->text);
      else
        duplicate.length = group->length;
      g_array_append_val (found, duplicate);
    }
  g_array_sort (found, compare_wasted);
  if (found->len > max)
    g_array_set_size (found, max);
  return found;
}
