/* strata-heap-groups.c: a heap dump's classes summed by package or by
 * class loader
 *
 * As Eclipse MAT's histogram grouped by package or by class loader. An
 * array counts in its element's package; primitive arrays and classes
 * without a package have a group each. A group retains what its
 * instances retain, each byte once (strata_heap_graph_sum_by_groups()),
 * so a package's figure is no sum of its classes'. A class's loader is read from its
 * class dump; classes of one name loaded twice are one row of the
 * histogram, and count with the loader of the first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-heap.h"
#include "strata-heap-groups.h"
#include "strata-heap-labels.h"
#include "strata-hprof-index.h"

/**
 * strata_heap_package_of:
 *
 * Returns: (transfer full): "java.util" for "java.util.HashMap$Node[]";
 *   a name for classes without a package and for primitive arrays
 */
char *
strata_heap_package_of (const char *class_name)
{
  g_autofree char *element = g_strdup (class_name);
  gsize len = strlen (element);
  char *dot;

  while (len >= 2 && strcmp (element + len - 2, "[]") == 0)
    element[len -= 2] = '\0';
  if ((dot = strrchr (element, '.')) != NULL)
    return g_strndup (element, dot - element);
  if (strcmp (element, class_name) != 0)
    return g_strdup (_("(primitive arrays)"));
  return g_strdup (_("(no package)"));
}

static void
group_free (gpointer data)
{
  g_free (((StrataHeapGroup *) data)->name);
}

/* "app (jdk.internal.loader.ClassLoaders$AppClassLoader 0x…)": the
 * loader's name field, when it has one, then the loader. */
static char *
loader_name (StrataTrace *trace,
             guint32      loader)
{
  StrataHprofIndex *index = strata_heap_get_index (strata_trace_get_heap (trace));
  StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (trace));
  g_autoptr(GArray) fields = NULL;
  g_autofree char *object = NULL;

  if (loader == STRATA_HEAP_NO_OBJECT)
    return g_strdup (_("(bootstrap class loader)"));
  object = strata_heap_describe_object (trace, loader);
  fields = strata_hprof_index_get_fields (index, trace, loader);
  for (guint i = 0; i < fields->len; i++)
    {
      const StrataHeapField *field = &g_array_index (fields, StrataHeapField, i);
      guint32 name;
      g_autofree char *text = NULL;

      if (!g_str_equal (field->name, "name") || field->type != STRATA_HEAP_TYPE_OBJECT || field->value == 0 ||
          (name = strata_heap_graph_lookup (graph, field->value)) == STRATA_HEAP_NO_OBJECT ||
          (text = strata_hprof_index_dup_string (index, trace, name)) == NULL)
        continue;
      return g_strdup_printf ("%s (%s)", text, object);
    }
  return g_steal_pointer (&object);
}

/* Each class's loader object (STRATA_HEAP_NO_OBJECT: the bootstrap one),
 * from the class objects the dump holds. */
static guint32 *
loaders_of_classes (StrataTrace *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  StrataHeapGraph *graph = strata_heap_get_graph (heap);
  StrataHprofIndex *index = strata_heap_get_index (heap);
  guint n_classes = strata_heap_get_n_classes (heap);
  guint32 *loaders = g_new (guint32, n_classes + 1);
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree gboolean *seen = g_new0 (gboolean, n_classes + 1);
  guint class_class = G_MAXUINT;
  g_autofree guint32 *objects = NULL;
  guint32 n = 0;

  for (guint c = 0; c < n_classes; c++)
    {
      loaders[c] = STRATA_HEAP_NO_OBJECT;
      g_hash_table_insert (by_name, (gpointer) strata_heap_class_label (trace, c), GUINT_TO_POINTER (c + 1));
      if (g_str_equal (strata_heap_class_label (trace, c), "java.lang.Class"))
        class_class = c;
    }
  if (class_class == G_MAXUINT || index == NULL)
    return loaders;
  objects = strata_heap_graph_list_instances (graph, class_class, &n);
  for (guint32 i = 0; i < n; i++)
    {
      guint64 id = strata_heap_graph_get_id (graph, objects[i]);
      const char *name = strata_hprof_index_get_class_name (index, trace, id);
      guint c = name != NULL ? GPOINTER_TO_UINT (g_hash_table_lookup (by_name, name)) : 0;
      guint64 loader;

      if (c == 0 || seen[c - 1])
        continue;
      seen[c - 1] = TRUE;
      loader = strata_hprof_index_get_class_loader (index, id);
      loaders[c - 1] = loader != 0 ? strata_heap_graph_lookup (graph, loader) : STRATA_HEAP_NO_OBJECT;
    }
  return loaders;
}

/**
 * strata_heap_group_of_classes:
 * @groups: (out): StrataHeapGroup, named, their sums left at zero
 *
 * Returns: (transfer full): each class's group, an index in @groups
 */
guint *
strata_heap_group_of_classes (StrataTrace        *trace,
                              StrataHeapGroupBy   by,
                              GArray            **groups)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  guint n_classes = strata_heap_get_n_classes (heap);
  guint *group_of = g_new (guint, n_classes + 1);
  g_autoptr(GHashTable) index_of = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree guint32 *loaders = by == STRATA_HEAP_GROUP_BY_LOADER && strata_heap_get_graph (heap) != NULL
                                ? loaders_of_classes (trace) : NULL;

  *groups = g_array_new (FALSE, TRUE, sizeof (StrataHeapGroup));
  g_array_set_clear_func (*groups, group_free);
  for (guint c = 0; c < n_classes; c++)
    {
      guint32 loader = loaders != NULL ? loaders[c] : STRATA_HEAP_NO_OBJECT;
      g_autofree char *key = loaders != NULL ? g_strdup_printf ("%u", loader)
                                             : strata_heap_package_of (strata_heap_class_label (trace, c));
      gpointer found = g_hash_table_lookup (index_of, key);

      if (found == NULL)
        {
          StrataHeapGroup group = { loaders != NULL ? loader_name (trace, loader) : g_strdup (key), loader };

          group.index = (*groups)->len;

          g_array_append_val (*groups, group);
          found = GUINT_TO_POINTER ((*groups)->len);
          g_hash_table_insert (index_of, g_steal_pointer (&key), found);
        }
      group_of[c] = GPOINTER_TO_UINT (found) - 1;
    }
  return group_of;
}

static int
compare_retained (gconstpointer a,
                  gconstpointer b)
{
  const StrataHeapGroup *x = a, *y = b;

  if (x->retained_bytes != y->retained_bytes)
    return x->retained_bytes > y->retained_bytes ? -1 : 1;
  if (x->shallow_bytes != y->shallow_bytes)
    return x->shallow_bytes > y->shallow_bytes ? -1 : 1;
  return g_strcmp0 (x->name, y->name);
}

/* The sums of @groups' classes' instances and shallow bytes in @heap;
 * groups without an instance in it left out, the rest sorted. */
static void
sum_and_sort (const StrataHeap *heap,
              int               heap_index,
              GArray           *groups,
              const guint      *group_of,
              const guint64    *retained)
{
  for (guint c = 0; c < strata_heap_get_n_classes (heap); c++)
    {
      const StrataHeapClass *klass = strata_heap_get_class (heap, c);
      StrataHeapClassShare all = { klass->instances, klass->shallow_bytes, klass->retained_bytes };
      const StrataHeapClassShare *share = heap_index >= 0 ? strata_heap_get_class_in_heap (heap, heap_index, c) : &all;
      StrataHeapGroup *group = &g_array_index (groups, StrataHeapGroup, group_of[c]);

      if (share->instances == 0 && heap_index >= 0)
        continue;
      group->n_classes++;
      group->instances += share->instances;
      group->shallow_bytes += share->shallow_bytes;
    }
  for (guint g = 0; g < groups->len; g++)
    g_array_index (groups, StrataHeapGroup, g).retained_bytes = retained[g];
  for (guint g = groups->len; g > 0; g--)
    if (g_array_index (groups, StrataHeapGroup, g - 1).n_classes == 0)
      g_array_remove_index (groups, g - 1);
  g_array_sort (groups, compare_retained);
}

/**
 * strata_heap_group_classes_by:
 * @by: (array length=n): the groupings
 * @heap: an Android dump's heap, or -1 for all
 * @groups: (out) (array length=n): per grouping, StrataHeapGroup
 *
 * The classes summed in each grouping at once: one walk down the
 * dominator tree gives every grouping's retained sizes.
 */
void
strata_heap_group_classes_by (StrataTrace             *trace,
                              const StrataHeapGroupBy *by,
                              guint                    n,
                              int                      heap_index,
                              GArray                 **groups)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  StrataHeapGraph *graph = strata_heap_get_graph (heap);
  guint n_classes = strata_heap_get_n_classes (heap);
  g_autofree guint **group_of = g_new0 (guint *, MAX (n, 1));
  g_autofree guint64 **retained = g_new0 (guint64 *, MAX (n, 1));
  g_autofree guint *n_groups = g_new0 (guint, MAX (n, 1));

  for (guint m = 0; m < n; m++)
    {
      group_of[m] = strata_heap_group_of_classes (trace, by[m], &groups[m]);
      n_groups[m] = groups[m]->len;
      retained[m] = g_new0 (guint64, n_groups[m] + 1);
    }
  if (graph != NULL)
    strata_heap_graph_sum_by_groups (graph, (const guint *const *) group_of, n, n_classes, n_groups, heap_index, retained);
  for (guint m = 0; m < n; m++)
    {
      sum_and_sort (heap, heap_index, groups[m], group_of[m], retained[m]);
      g_free (group_of[m]);
      g_free (retained[m]);
    }
}

/**
 * strata_heap_group_classes:
 * @heap: an Android dump's heap, or -1 for all
 *
 * Returns: (transfer full): StrataHeapGroup with the sums of their
 *   classes, the most retained (then shallow) bytes first; groups without
 *   an instance in @heap left out
 */
GArray *
strata_heap_group_classes (StrataTrace       *trace,
                           StrataHeapGroupBy  by,
                           int                heap_index)
{
  GArray *groups = NULL;

  strata_heap_group_classes_by (trace, &by, 1, heap_index, &groups);
  return groups;
}
