/* test-heap-graph.c: dominators, retained sizes and paths on graphs
 * checked by hand, and instance sizes as HotSpot makes them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-heap-graph.h"
#include "strata-hprof-hotspot.h"

typedef struct
{
  guint32 from, to;
} Edge;

/* A graph of @n objects with ids 100, 101, …; classes and sizes given. */
static StrataHeapGraph *
graph_new (guint32        n,
           const guint32 *classes,
           const guint64 *shallow,
           const Edge    *edges,
           guint32        n_edges,
           const guint32 *roots,
           guint32        n_roots)
{
  guint64 *ids = g_new (guint64, n);
  guint32 *first = g_new0 (guint32, n + 1);
  guint32 *targets = g_new (guint32, MAX (n_edges, 1));
  g_autofree guint32 *fill = NULL;
  StrataHeapGraph *graph;

  for (guint32 i = 0; i < n; i++)
    ids[i] = 100 + i;
  graph = strata_heap_graph_new (n, ids, g_memdup2 (classes, n * sizeof (guint32)));
  for (guint32 i = 0; i < n; i++)
    strata_heap_graph_set_shallow (graph, i, shallow[i]);
  for (guint32 e = 0; e < n_edges; e++)
    first[edges[e].from + 1]++;
  for (guint32 i = 0; i < n; i++)
    first[i + 1] += first[i];
  fill = g_memdup2 (first, n * sizeof (guint32));
  for (guint32 e = 0; e < n_edges; e++)
    targets[fill[edges[e].from]++] = edges[e].to;
  strata_heap_graph_set_references (graph, first, targets);
  strata_heap_graph_set_roots (graph, roots, NULL, n_roots);
  g_assert_true (strata_heap_graph_compute (graph, NULL, NULL, NULL));
  return graph;
}

enum { R1, A, B, C, D, E, F, G, H, N_OBJECTS };

/* R1 → A, B → C (a diamond); C ⇄ D (a cycle); D → E; a second root G → H
 * → E, so E has no single dominator; F is unreachable (it refers to A). */
static StrataHeapGraph *
hand_checked_graph (void)
{
  static const guint32 classes[N_OBJECTS] = { 0, 1, 1, 2, 2, 3, 1, 0, 3 };
  static const guint64 shallow[N_OBJECTS] = { 10, 10, 10, 10, 10, 100, 10, 10, 10 };
  static const Edge edges[] = {
    { R1, A }, { R1, B }, { A, C }, { B, C }, { C, D }, { D, C }, { D, E },
    { G, H }, { H, E }, { F, A },
  };
  static const guint32 roots[] = { G, R1, G };

  return graph_new (N_OBJECTS, classes, shallow, edges, G_N_ELEMENTS (edges), roots, G_N_ELEMENTS (roots));
}

/* The hand-checked graph's dominators, retained sizes and paths. */
static void
test_heap_graph_hand_checked (void)
{
  g_autoptr(StrataHeapGraph) graph = hand_checked_graph ();
  guint64 by_class[4];
  g_autofree guint32 *top = NULL, *path = NULL;
  const guint32 *referrers, *dominated;
  guint32 n;

  g_assert_cmpuint (strata_heap_graph_get_dominator (graph, A), ==, R1);
  g_assert_cmpuint (strata_heap_graph_get_dominator (graph, B), ==, R1);
  g_assert_cmpuint (strata_heap_graph_get_dominator (graph, C), ==, R1);
  g_assert_cmpuint (strata_heap_graph_get_dominator (graph, D), ==, C);
  g_assert_cmpuint (strata_heap_graph_get_dominator (graph, E), ==, STRATA_HEAP_NO_OBJECT);
  g_assert_cmpuint (strata_heap_graph_get_dominator (graph, H), ==, G);
  g_assert_cmpuint (strata_heap_graph_get_dominator (graph, R1), ==, STRATA_HEAP_NO_OBJECT);
  g_assert_false (strata_heap_graph_is_reachable (graph, F));
  g_assert_true (strata_heap_graph_is_reachable (graph, E));

  g_assert_cmpuint (strata_heap_graph_get_retained (graph, R1), ==, 50);
  g_assert_cmpuint (strata_heap_graph_get_retained (graph, C), ==, 20);
  g_assert_cmpuint (strata_heap_graph_get_retained (graph, D), ==, 10);
  g_assert_cmpuint (strata_heap_graph_get_retained (graph, G), ==, 20);
  g_assert_cmpuint (strata_heap_graph_get_retained (graph, E), ==, 100);
  g_assert_cmpuint (strata_heap_graph_get_retained (graph, F), ==, 0);
  g_assert_cmpuint (strata_heap_graph_get_reachable_bytes (graph), ==, 170);
  g_assert_cmpuint (strata_heap_graph_get_n_unreachable (graph), ==, 1);

  /* D lies within C's retained set, so class 2 retains 20, not 30. */
  strata_heap_graph_sum_by_class (graph, 4, -1, by_class);
  g_assert_cmpuint (by_class[0], ==, 70);
  g_assert_cmpuint (by_class[1], ==, 20);
  g_assert_cmpuint (by_class[2], ==, 20);
  g_assert_cmpuint (by_class[3], ==, 110);

  top = strata_heap_graph_top_retained (graph, 2, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (top[0], ==, E);
  g_assert_cmpuint (top[1], ==, R1);

  path = strata_heap_graph_path_from_root (graph, D, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (path[0], ==, R1);
  g_assert_cmpuint (path[1], ==, A);
  g_assert_cmpuint (path[2], ==, C);
  g_assert_cmpuint (path[3], ==, D);
  g_assert_null (strata_heap_graph_path_from_root (graph, F, &n));

  referrers = strata_heap_graph_get_referrers (graph, C, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (referrers[0] + referrers[1] + referrers[2], ==, A + B + D);

  /* The top of the dominator tree: E (100), R1 (50), G (20). */
  dominated = strata_heap_graph_get_dominated (graph, STRATA_HEAP_NO_OBJECT, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (dominated[0], ==, E);
  g_assert_cmpuint (dominated[1], ==, R1);
  g_assert_cmpuint (dominated[2], ==, G);
  g_assert_true (strata_heap_graph_is_root (graph, G));
  g_assert_false (strata_heap_graph_is_root (graph, A));
  g_assert_cmpuint (strata_heap_graph_lookup (graph, 100 + D), ==, D);
  g_assert_cmpuint (strata_heap_graph_lookup (graph, 99), ==, STRATA_HEAP_NO_OBJECT);
}

/* A list of two million objects and a ring around it: no recursion runs
 * out of stack, and each node retains the rest of the list. */
static void
test_heap_graph_long_chain (void)
{
  const guint32 n = 2000000;
  g_autofree guint32 *classes = g_new0 (guint32, n);
  g_autofree guint64 *shallow = g_new (guint64, n);
  g_autofree Edge *edges = g_new (Edge, n);
  guint32 root = 0;
  g_autoptr(StrataHeapGraph) graph = NULL;
  guint64 by_class[1];
  gint64 start = g_get_monotonic_time ();

  for (guint32 i = 0; i < n; i++)
    {
      shallow[i] = 16;
      edges[i] = (Edge) { i, (i + 1) % n };
    }
  graph = graph_new (n, classes, shallow, edges, n, &root, 1);
  g_test_message ("2M-object ring: %.2f s", (g_get_monotonic_time () - start) / 1e6);
  g_assert_cmpuint (strata_heap_graph_get_retained (graph, 0), ==, (guint64) n * 16);
  g_assert_cmpuint (strata_heap_graph_get_retained (graph, n / 2), ==, (guint64) (n - n / 2) * 16);
  g_assert_cmpuint (strata_heap_graph_get_dominator (graph, n - 1), ==, n - 2);
  strata_heap_graph_sum_by_class (graph, 1, -1, by_class);
  g_assert_cmpuint (by_class[0], ==, (guint64) n * 16);
}

/* The JDK's @Contended classes are as big as jcmd GC.class_histogram
 * says on JDK 17 (64-bit, compressed references: a 12-byte header and
 * 4-byte references); a class without the annotation is its fields. */
static void
test_heap_graph_contended_sizes (void)
{
  static const struct { HprofHotspotClass klass; guint64 jcmd; } cases[] = {
    { { "java.util.concurrent.ForkJoinPool", 2 * 8 + 4 * 4 + 7 * 4, 8, 8, 8 }, 336 },
    { { "java.util.concurrent.ForkJoinPool$WorkQueue", 4 * 4 + 2 * 4, 4, 3 * 4, 4 }, 304 },
    { { "java.util.concurrent.SubmissionPublisher$BufferedSubscription", 8 + 4 * 4 + 8 * 4, 8, 8 + 4, 8 }, 472 },
    { { "java.util.concurrent.atomic.Striped64$Cell", 8, 8, 0, 0 }, 280 },
    { { "java.util.concurrent.ConcurrentHashMap$CounterCell", 8, 8, 0, 0 }, 280 },
    { { "java.util.concurrent.Exchanger$Node", 4 * 4 + 3 * 4, 4, 0, 0 }, 296 },
    { { "Allocations$Big", 3 * 8 + 4, 8, 0, 0 }, 40 },
  };
  static const HprofHotspotVm jdk17 = { 4, 8, 17 };
  HprofHotspotClass object = { "java.lang.Object", 0, 0, 0, 0 };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      HprofHotspotClass chain[2] = { cases[i].klass, object };

      g_assert_cmpuint (hprof_hotspot_instance_size (&jdk17, chain, 2, 12), ==, cases[i].jcmd);
    }
  /* A field is in a group by its class and name. */
  g_assert_true (hprof_hotspot_field_contended (&jdk17, "java.util.concurrent.ForkJoinPool", "ctl"));
  g_assert_false (hprof_hotspot_field_contended (&jdk17, "java.util.concurrent.ForkJoinPool", "mode"));
  g_assert_false (hprof_hotspot_field_contended (&jdk17, "Allocations$Big", "ctl"));
}

/* JDK 8 annotates other classes than JDK 17 (sun.misc.Contended on the
 * whole of ForkJoinPool), and hides other fields: Class's init_lock,
 * MemberName's vmtarget and vmloader, none in Throwable or Module. On a
 * 32-bit VM the hidden pointers take 4 bytes. */
static void
test_heap_graph_jdk8_sizes (void)
{
  static const HprofHotspotVm jdk8_32 = { 4, 4, 8 }, jdk8_64 = { 4, 8, 8 }, jdk17_32 = { 4, 4, 17 }, jdk7 = { 4, 4, 7 };
  /* ctl; runState, config, indexSeed; workQueues, factory, ueh, workerNamePrefix, stealCounter */
  HprofHotspotClass pool[2] = { { "java.util.concurrent.ForkJoinPool", 8 + 3 * 4 + 5 * 4, 8, 0, 0 },
                                { "java.lang.Object", 0, 0, 0, 0 } };

  /* Padded before and after as a whole: 12 + 128, aligned to 8, + 40, + 128. */
  g_assert_cmpuint (hprof_hotspot_instance_size (&jdk8_64, pool, 2, 12), ==, 312);
  g_assert_false (hprof_hotspot_field_contended (&jdk8_64, "java.util.concurrent.ForkJoinPool", "ctl"));
  g_assert_true (hprof_hotspot_field_contended (&jdk8_64, "java.lang.Thread", "threadLocalRandomProbe"));
  g_assert_cmpuint (hprof_hotspot_hidden_bytes (&jdk8_32, "java.lang.Class"), ==, 2 * 4 + 2 * 4 + 3 * 4);
  g_assert_cmpuint (hprof_hotspot_hidden_bytes (&jdk8_64, "java.lang.Class"), ==, 2 * 8 + 2 * 4 + 3 * 4);
  g_assert_cmpuint (hprof_hotspot_hidden_bytes (&jdk8_32, "java.lang.invoke.MemberName"), ==, 3 * 4);
  g_assert_cmpuint (hprof_hotspot_hidden_bytes (&jdk17_32, "java.lang.invoke.MemberName"), ==, 4);
  g_assert_cmpuint (hprof_hotspot_hidden_bytes (&jdk8_32, "java.lang.Throwable"), ==, 0);
  g_assert_cmpuint (hprof_hotspot_hidden_bytes (&jdk17_32, "java.lang.Throwable"), ==, 4);
  g_assert_cmpuint (hprof_hotspot_hidden_bytes (&jdk8_32, "java.lang.String"), ==, 0);
  /* JDK 7 hid nothing in instances and padded nothing. */
  g_assert_cmpuint (hprof_hotspot_hidden_bytes (&jdk7, "java.lang.ClassLoader"), ==, 0);
  g_assert_cmpuint (hprof_hotspot_instance_size (&jdk7, pool, 2, 8), ==, 48);
}

/* Thread's @Contended group is JDK 8's: a Thread without the fields (an
 * older JDK's classes) is not padded. */
static void
test_heap_graph_contended_needs_fields (void)
{
  static const HprofHotspotVm jdk8 = { 4, 4, 8 };
  HprofHotspotClass thread[2] = { { "java.lang.Thread", 60, 8, 0, 0 }, { "java.lang.Object", 0, 0, 0, 0 } };

  g_assert_cmpuint (hprof_hotspot_instance_size (&jdk8, thread, 2, 8), ==, 72);
}

/* On the hand-checked graph: A or B alone retains only itself (C is
 * reached through the other); together they keep C and D alive, E not
 * (H reaches it); G and R1 together keep everything reachable. An
 * unreachable member (F) counts for nothing; members count once. */
static void
test_heap_graph_retained_by_set (void)
{
  g_autoptr(StrataHeapGraph) graph = hand_checked_graph ();
  const guint32 a[] = { A }, ab[] = { A, B, F, A }, roots_both[] = { G, R1 };
  guint64 n;

  g_assert_cmpuint (strata_heap_graph_retained_by_set (graph, a, 1, &n, NULL), ==, 10);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (strata_heap_graph_retained_by_set (graph, ab, G_N_ELEMENTS (ab), &n, NULL), ==, 40);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (strata_heap_graph_retained_by_set (graph, roots_both, 2, &n, NULL), ==,
                    strata_heap_graph_get_reachable_bytes (graph));
  g_assert_cmpuint (n, ==, N_OBJECTS - 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/heap-graph/hand-checked", test_heap_graph_hand_checked);
  g_test_add_func ("/heap-graph/retained-by-set", test_heap_graph_retained_by_set);
  g_test_add_func ("/heap-graph/long-chain", test_heap_graph_long_chain);
  g_test_add_func ("/heap-graph/contended-sizes", test_heap_graph_contended_sizes);
  g_test_add_func ("/heap-graph/jdk8-sizes", test_heap_graph_jdk8_sizes);
  g_test_add_func ("/heap-graph/contended-needs-fields", test_heap_graph_contended_needs_fields);

  return g_test_run ();
}
