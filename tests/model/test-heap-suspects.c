/* test-heap-suspects.c: leak suspects named as Eclipse MAT names them
 *
 * On tests/data/allocations.hprof.gz (tests/peers/java/Allocations.java
 * dumped by JDK 17): main's local list of 12,345 Smalls is the one leak.
 * tests/peers/check-leak-suspects.sh checks static fields, threads and
 * VisualVM's retained sizes on a dump made when it runs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-heap.h"
#include "strata-heap-labels.h"
#include "strata-heap-suspects.h"
#include "strata-test-model.h"

static StrataTrace *
load_allocations (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "allocations.hprof.gz", NULL);

  return strata_test_load_heap (path);
}

/* The list main holds in a local variable: held by a GC root, its memory
 * in its array, which holds the Smalls the program made. */
static void
test_local_list (void)
{
  g_autoptr(StrataTrace) trace = load_allocations ();
  g_autoptr(GArray) suspects = strata_heap_find_leak_suspects (trace);
  StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (trace));
  const StrataHeapSuspect *first;
  g_autofree char *text = NULL, *holder = NULL;
  g_auto(GStrv) keywords = NULL;
  g_autofree guint32 *down = NULL;
  guint32 n_down;

  g_assert_cmpuint (suspects->len, ==, 1);
  first = &g_array_index (suspects, StrataHeapSuspect, 0);
  g_assert_cmpstr (strata_heap_object_class_label (trace, first->object), ==, "java.util.ArrayList");
  g_assert_cmpuint (first->holder, ==, STRATA_HEAP_NO_OBJECT);
  g_assert_cmpuint (first->retained, ==, strata_heap_graph_get_retained (graph, first->object));
  g_assert_cmpstr (strata_heap_object_class_label (trace, first->accumulation), ==, "java.lang.Object[]");
  g_assert_cmpstr (strata_heap_class_label (trace, first->content_class), ==, "Allocations$Small");
  g_assert_cmpuint (first->n_content, ==, 12345);
  /* The accumulation point is the list's array, one step down. */
  down = strata_heap_suspect_accumulation_path (trace, first, &n_down);
  g_assert_cmpuint (n_down, ==, 2);
  g_assert_cmpuint (down[0], ==, first->object);
  g_assert_cmpuint (down[1], ==, first->accumulation);
  holder = strata_heap_suspect_describe_holder (trace, first);
  g_assert_cmpstr (holder, ==, "a GC root (Java frame)");
  text = strata_heap_suspect_describe (trace, first);
  g_assert_true (g_str_has_prefix (text, "One java.util.ArrayList held by a GC root (Java frame) retains "));
  g_assert_nonnull (strstr (text, "The memory accumulates in one java.lang.Object[] with 12345 Allocations$Small entries."));
  keywords = strata_heap_suspect_keywords (trace, first);
  g_assert_true (g_strv_contains ((const char *const *) keywords, "Allocations$Small"));
  g_assert_true (g_strv_contains ((const char *const *) keywords, "java.lang.Object[]"));
}

/* The list holds the 12,345 Smalls added to it one by one, in an array
 * grown from 10 by halves: 10, 15, 22 … 9,369, 14,053 slots. */
static void
test_collection_fill (void)
{
  g_autoptr(StrataTrace) trace = load_allocations ();
  g_autoptr(GArray) suspects = strata_heap_find_leak_suspects (trace);
  guint32 list = g_array_index (suspects, StrataHeapSuspect, 0).object;
  guint64 size = 0, capacity = 0, grown = 10;

  while (grown < 12345)
    grown += grown >> 1;
  g_assert_true (strata_heap_collection_fill (trace, list, &size, &capacity));
  g_assert_cmpuint (size, ==, 12345);
  g_assert_cmpuint (capacity, ==, grown);
  g_assert_cmpuint (capacity, ==, 14053);
  /* Its array is no collection. */
  g_assert_false (strata_heap_collection_fill (trace, g_array_index (suspects, StrataHeapSuspect, 0).accumulation,
                                               &size, &capacity));
}

/* The JDK's own classes and loaders are never suspects on their own:
 * java.lang.Class, which holds every static field, is none. */
static void
test_no_generic_suspects (void)
{
  g_autoptr(StrataTrace) trace = load_allocations ();
  g_autoptr(GArray) suspects = strata_heap_find_leak_suspects (trace);

  for (guint i = 0; i < suspects->len; i++)
    {
      const StrataHeapSuspect *suspect = &g_array_index (suspects, StrataHeapSuspect, i);

      g_assert_cmpuint (suspect->group_class, ==, G_MAXUINT);
      g_assert_cmpstr (strata_heap_object_class_label (trace, suspect->object), !=, "java.lang.Class");
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/heap-suspects/local-list", test_local_list);
  g_test_add_func ("/heap-suspects/no-generic-suspects", test_no_generic_suspects);
  g_test_add_func ("/heap-suspects/collection-fill", test_collection_fill);
  return g_test_run ();
}
