/* test-heap-groups.c: the class histogram by package and by class loader
 *
 * On tests/data/allocations.hprof.gz (JDK 17): the program's classes are
 * the application loader's, java.lang's the bootstrap loader's; a group
 * retains its instances' bytes once each.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-heap.h"
#include "strata-heap-groups.h"
#include "strata-heap-labels.h"
#include "strata-test-model.h"

static StrataTrace *
load_allocations (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "allocations.hprof.gz", NULL);

  return strata_test_load_heap (path);
}

static const StrataHeapGroup *
group_named (GArray     *groups,
             const char *prefix)
{
  for (guint g = 0; g < groups->len; g++)
    if (g_str_has_prefix (g_array_index (groups, StrataHeapGroup, g).name, prefix))
      return &g_array_index (groups, StrataHeapGroup, g);
  return NULL;
}

static void
test_package_names (void)
{
  g_autofree char *node = strata_heap_package_of ("java.util.HashMap$Node[]");
  g_autofree char *ints = strata_heap_package_of ("int[][]");
  g_autofree char *plain = strata_heap_package_of ("Allocations$Small");

  g_assert_cmpstr (node, ==, "java.util");
  g_assert_cmpstr (ints, ==, "(primitive arrays)");
  g_assert_cmpstr (plain, ==, "(no package)");
}

/* Every class in one package; the groups' counts add up to the
 * histogram's; a package retains at least its largest class's bytes and
 * at most the sum of its classes'. */
static void
test_by_package (void)
{
  g_autoptr(StrataTrace) trace = load_allocations ();
  const StrataHeap *heap = strata_trace_get_heap (trace);
  g_autoptr(GArray) groups = strata_heap_group_classes (trace, STRATA_HEAP_GROUP_BY_PACKAGE, -1);
  guint64 instances = 0, bytes = 0, all_instances, all_bytes, largest = 0, sum = 0;
  guint n_classes = 0;
  const StrataHeapGroup *util = group_named (groups, "java.util");

  for (guint g = 0; g < groups->len; g++)
    {
      instances += g_array_index (groups, StrataHeapGroup, g).instances;
      bytes += g_array_index (groups, StrataHeapGroup, g).shallow_bytes;
      n_classes += g_array_index (groups, StrataHeapGroup, g).n_classes;
    }
  strata_heap_get_totals (heap, &all_instances, &all_bytes);
  g_assert_cmpuint (instances, ==, all_instances);
  g_assert_cmpuint (bytes, ==, all_bytes);
  g_assert_cmpuint (n_classes, ==, strata_heap_get_n_classes (heap));
  g_assert_nonnull (util);
  for (guint c = 0; c < strata_heap_get_n_classes (heap); c++)
    {
      g_autofree char *package = strata_heap_package_of (strata_heap_class_label (trace, c));

      if (!g_str_equal (package, "java.util"))
        continue;
      largest = MAX (largest, strata_heap_get_class (heap, c)->retained_bytes);
      sum += strata_heap_get_class (heap, c)->retained_bytes;
    }
  g_assert_cmpuint (util->retained_bytes, >=, largest);
  g_assert_cmpuint (util->retained_bytes, <=, sum);
  /* The list of Smalls (java.util.ArrayList) holds them: no package. */
  g_assert_nonnull (group_named (groups, "(no package)"));
}

/* The program's classes are the application loader's ("app"), the
 * JDK's core the bootstrap loader's. */
static void
test_by_loader (void)
{
  g_autoptr(StrataTrace) trace = load_allocations ();
  const StrataHeap *heap = strata_trace_get_heap (trace);
  GArray *groups = NULL;
  g_autofree guint *group_of = strata_heap_group_of_classes (trace, STRATA_HEAP_GROUP_BY_LOADER, &groups);
  g_autoptr(GArray) owned = groups;

  for (guint c = 0; c < strata_heap_get_n_classes (heap); c++)
    {
      const char *name = strata_heap_class_label (trace, c);
      const char *loader = g_array_index (groups, StrataHeapGroup, group_of[c]).name;

      if (g_str_equal (name, "Allocations$Small"))
        g_assert_true (g_str_has_prefix (loader, "app (jdk.internal.loader.ClassLoaders$AppClassLoader 0x"));
      else if (g_str_equal (name, "java.lang.String"))
        g_assert_cmpstr (loader, ==, "(bootstrap class loader)");
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/heap-groups/package-names", test_package_names);
  g_test_add_func ("/heap-groups/by-package", test_by_package);
  g_test_add_func ("/heap-groups/by-loader", test_by_loader);
  return g_test_run ();
}
