/* bench-call-tree.c: the merged call tree of a large method trace
 *
 * Loads a generated dmtrace (gen-dmtrace, 10 million calls by default;
 * --shape=random draws every callee from all methods, so paths hardly
 * repeat) and prints the median time to build the top-down tree (all
 * threads merged, and by thread as collapsed stacks need), to invert it,
 * to apply each transform (to the heaviest path's second method, or a
 * prefix of its package), and the bytes each distinct path costs. Not a
 * test:
 *
 *   bench-call-tree [--shape=local|random] GENERATOR [N_RECORDS] [FILE]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "bench-util.h"
#include "strata-memory.h"
#include "strata-call-tree.h"

#define DEFAULT_RECORDS 20000000   /* an enter and an exit: 10 million calls */
#define RUNS 5

/* The median time of @transform on @tree. */
static double
time_transform (StrataCallTree            *tree,
                const StrataCallTransform *transform,
                guint32                   *n_paths)
{
  double times[RUNS];

  for (guint run = 0; run < RUNS; run++)
    {
      g_autoptr(GError) error = NULL;
      gint64 start = g_get_monotonic_time ();
      g_autoptr(StrataCallTree) result = strata_call_tree_transform (tree, transform, NULL, &error);

      times[run] = strata_bench_seconds_since (start);
      g_assert_no_error (error);
      *n_paths = strata_call_tree_get_n_nodes (result);
    }
  return strata_bench_median (times, RUNS);
}

static void
print_transforms (StrataCallTree *tree)
{
  guint32 second = strata_call_tree_get_first_child (tree, strata_call_tree_get_first_child (tree, STRATA_CALL_TREE_ROOT));
  guint32 method = strata_call_tree_get_method (tree, second);
  g_autofree char *name = g_strdup (strata_trace_get_method_name (strata_call_tree_get_trace (tree), method));
  char *dot = strrchr (name, '.');
  const struct { StrataCallTransformKind kind; const char *label; } kinds[] = {
    { STRATA_CALL_TRANSFORM_MERGE_FUNCTION, "merge function" },
    { STRATA_CALL_TRANSFORM_DROP_FUNCTION, "drop function" },
    { STRATA_CALL_TRANSFORM_FOCUS_FUNCTION, "focus function" },
    { STRATA_CALL_TRANSFORM_FOCUS_SUBTREE, "focus subtree" },
    { STRATA_CALL_TRANSFORM_COLLAPSE_RECURSION, "collapse recursion" },
    { STRATA_CALL_TRANSFORM_COLLAPSE_PREFIX, "collapse prefix" },
  };

  /* The class's package: "com.example.pkg3.Class7.method" to "com.example.pkg3." */
  if (dot != NULL)
    *dot = '\0';
  if ((dot = strrchr (name, '.')) != NULL)
    dot[1] = '\0';
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      StrataCallTransform transform = { kinds[k].kind, method, second, name, NULL, 0 };
      guint32 n_paths = 0;
      double seconds = time_transform (tree, &transform, &n_paths);

      g_print ("%-19s %.3f s, %u paths\n", kinds[k].label, seconds, n_paths);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *shape = NULL;
  g_autoptr(GOptionContext) context = g_option_context_new ("GENERATOR [N_RECORDS] [FILE]");
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(StrataProfile) profile = NULL;
  g_autoptr(StrataCallTree) tree = NULL;
  g_autoptr(StrataCallTree) inverted = NULL;
  const GOptionEntry entries[] = {
    { "shape", 0, 0, G_OPTION_ARG_STRING, &shape, "Call graph of the generated trace: local or random", "SHAPE" },
    { NULL }
  };
  double merged[RUNS], by_thread[RUNS], invert[RUNS];
  guint64 n_records;
  g_autofree char *path = NULL;
  g_autofree char *shape_arg = NULL;
  guint n_clocks;
  gsize node_bytes, node_bytes_before = 0;
  double load_s, profile_s;

  strata_memory_tune_allocator ();
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc < 2)
    {
      g_printerr ("usage: %s [--shape=local|random] GENERATOR [N_RECORDS] [FILE]\n", argv[0]);
      return 2;
    }
  n_records = argc > 2 ? g_ascii_strtoull (argv[2], NULL, 10) : DEFAULT_RECORDS;
  shape_arg = shape ? g_strdup_printf ("--shape=%s", shape) : NULL;
  path = argc > 3 ? g_strdup (argv[3])
                  : g_strdup_printf ("bench-dmtrace-%s-%" G_GUINT64_FORMAT ".trace", shape ? shape : "local", n_records);
  if (!strata_bench_ensure_shaped_trace (argv[1], shape_arg, path, n_records, 0) ||
      !(trace = strata_bench_load_and_profile (path, &profile, &load_s, &profile_s)))
    return 1;

  for (guint run = 0; run < RUNS; run++)
    {
      gint64 start;

      /* The last run's trees go first: freeing them is not building. */
      g_clear_object (&inverted);
      g_clear_object (&tree);
      start = g_get_monotonic_time ();
      tree = strata_call_tree_new (trace, -1, FALSE, NULL, NULL, &error);
      merged[run] = strata_bench_seconds_since (start);
      node_bytes_before = strata_call_tree_get_size (tree);
      start = g_get_monotonic_time ();
      inverted = strata_call_tree_invert (tree, NULL, &error);
      invert[run] = strata_bench_seconds_since (start);
      start = g_get_monotonic_time ();
      {
        g_autoptr(StrataCallTree) threads = strata_call_tree_new (trace, -1, TRUE, NULL, NULL, &error);

        by_thread[run] = strata_bench_seconds_since (start);
      }
      g_assert_no_error (error);
    }
  n_clocks = strata_call_tree_get_n_clocks (tree);
  /* As held, measured before and after turning the tree over: inverting
   * keeps each node's self time on the top-down tree. */
  node_bytes = strata_call_tree_get_size (tree);
  g_print ("shape:              %s\n", shape ? shape : "local");
  g_print ("calls:              %" G_GUINT64_FORMAT "\n", strata_trace_get_n_spans (trace));
  g_print ("distinct paths:     %u top down, %u bottom up\n", strata_call_tree_get_n_nodes (tree),
           strata_call_tree_get_n_nodes (inverted));
  g_print ("top-down tree:      %.3f s (median of %d)\n", strata_bench_median (merged, RUNS), RUNS);
  g_print ("by thread:          %.3f s\n", strata_bench_median (by_thread, RUNS));
  g_print ("inverting:          %.3f s\n", strata_bench_median (invert, RUNS));
  g_print ("memory:             %.1f bytes a path (%u clock%s); with the bottom-up tree made, %.1f, and %.1f MB for it\n",
           (double) node_bytes_before / strata_call_tree_get_n_nodes (tree), n_clocks, n_clocks > 1 ? "s" : "",
           (double) node_bytes / strata_call_tree_get_n_nodes (tree), strata_call_tree_get_size (inverted) / 1e6);
  print_transforms (tree);
  return 0;
}
