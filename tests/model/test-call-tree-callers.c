/* test-call-tree-callers.c: a function's callers, the butterfly's upper half
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dmtrace-writer.h"
#include "strata-call-tree.h"
#include "strata-test-model.h"
#include "strata-test-util.h"

/* The callers of @code as speedscope's sandwich finds them: each
 * outermost call's path up to the root, every prefix weighing its total. */
static GHashTable *
naive_callers (StrataCallTree *tree,
               guint32         code)
{
  GHashTable *sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint32 v = 1; v < strata_call_tree_get_n_nodes (tree); v++)
    {
      g_autoptr(GString) key = NULL;
      gboolean outermost = strata_call_tree_get_method (tree, v) == code;

      for (guint32 up = strata_call_tree_get_parent (tree, v); outermost && up != STRATA_CALL_TREE_ROOT;
           up = strata_call_tree_get_parent (tree, up))
        outermost = strata_call_tree_get_method (tree, up) != code;
      if (!outermost)
        continue;
      for (guint32 up = v; up != STRATA_CALL_TREE_ROOT; up = strata_call_tree_get_parent (tree, up))
        {
          g_autofree char *name = strata_call_tree_dup_name (tree, up);
          gint64 *sum;

          if (key == NULL)
            key = g_string_new (name);
          else
            g_string_append_printf (key, " <- %s", name);
          if ((sum = g_hash_table_lookup (sums, key->str)) == NULL)
            g_hash_table_insert (sums, g_strdup (key->str), sum = g_new0 (gint64, 1));
          *sum += strata_call_tree_get_total (tree, v, 0);
        }
    }
  return sums;
}

/* Every node of a tree of callers, opened, against the naive sums. */
static guint
check_callers (StrataCallTree *callers,
               guint32         node,
               GHashTable     *sums)
{
  guint n = 1;

  if (node != STRATA_CALL_TREE_ROOT)
    {
      g_autofree char *path = strata_call_tree_dup_path (callers, node, " <- ");
      const gint64 *sum = g_hash_table_lookup (sums, path);

      g_assert_nonnull (sum);
      g_assert_cmpint (strata_call_tree_get_total (callers, node, 0), ==, *sum);
      g_assert_cmpint (strata_call_tree_get_self (callers, node, 0), >=, 0);
    }
  else
    n = 0;
  for (guint32 k = 0; k < strata_call_tree_get_n_children (callers, node); k++)
    n += check_callers (callers, strata_call_tree_get_first_child (callers, node) + k, sums);
  return n;
}

/* The butterfly's two halves: a function's callers (an outermost call's
 * whole time on each caller path, a recursive call inside its outer
 * one) and its callees (the focus on it) hold the same time. */
static void
test_call_tree_callers_of (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "wall", FALSE);
  const struct { guint32 method; gboolean enter; guint32 time; } calls[] = {
    { 4, TRUE, 0 }, { 8, TRUE, 0 }, { 16, TRUE, 5 }, { 20, TRUE, 10 }, { 20, FALSE, 20 }, { 16, FALSE, 25 }, { 8, FALSE, 30 },
    { 12, TRUE, 30 }, { 16, TRUE, 35 }, { 16, TRUE, 40 }, { 20, TRUE, 45 }, { 20, FALSE, 50 }, { 16, FALSE, 60 },
    { 16, FALSE, 65 }, { 12, FALSE, 70 }, { 16, TRUE, 70 }, { 16, FALSE, 90 }, { 4, FALSE, 100 },
  };
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(StrataCallTree) tree = NULL, callers = NULL, callees = NULL;
  g_autoptr(GError) error = NULL;
  StrataCallTransform focus = { STRATA_CALL_TRANSFORM_FOCUS_FUNCTION, 0, STRATA_CALL_TREE_NONE, NULL, NULL, 0 };
  guint32 f, root;

  dmtrace_writer_add_thread (writer, 1, "main");
  dmtrace_writer_add_method (writer, 4, "T\tmain\t()V");
  dmtrace_writer_add_method (writer, 8, "T\ta\t()V");
  dmtrace_writer_add_method (writer, 12, "T\tb\t()V");
  dmtrace_writer_add_method (writer, 16, "T\tf\t()V");
  dmtrace_writer_add_method (writer, 20, "T\tg\t()V");
  dmtrace_writer_begin_data (writer);
  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    dmtrace_writer_record (writer, 1, calls[i].method, calls[i].enter ? DMTRACE_ENTER : DMTRACE_EXIT, calls[i].time, 0);
  trace = strata_test_load_bytes (dmtrace_writer_finish (writer, FALSE), "butterfly.trace");
  tree = strata_call_tree_new (trace, -1, FALSE, NULL, NULL, &error);
  g_assert_no_error (error);
  f = strata_test_method_by_name (trace, "T.f ()V");
  callers = strata_call_tree_callers_of (tree, f, NULL, &error);
  g_assert_no_error (error);
  /* f under a 20, under b 30 (the call inside it is part of it), under
   * main 20: b first, then a and main. */
  g_assert_cmpuint (strata_call_tree_get_n_children (callers, STRATA_CALL_TREE_ROOT), ==, 1);
  root = strata_call_tree_get_first_child (callers, STRATA_CALL_TREE_ROOT);
  g_assert_cmpuint (strata_call_tree_get_method (callers, root), ==, f);
  g_assert_cmpint (strata_call_tree_get_total (callers, root, 0), ==, 70000);
  g_assert_cmpuint (strata_call_tree_get_calls (callers, root), ==, 3);
  g_assert_cmpuint (strata_call_tree_get_n_children (callers, root), ==, 3);
  {
    guint32 first = strata_call_tree_get_first_child (callers, root);
    g_autofree char *top = strata_call_tree_dup_path (callers, strata_call_tree_get_first_child (callers, first), " <- ");

    g_assert_cmpstr (top, ==, "T.f ()V <- T.b ()V <- T.main ()V");
    g_assert_cmpint (strata_call_tree_get_total (callers, first, 0), ==, 30000);
    for (guint32 k = first + 1; k < first + 3; k++)
      {
        g_autofree char *name = strata_call_tree_dup_name (callers, k);

        g_assert_cmpint (strata_call_tree_get_total (callers, k, 0), ==, 20000);
        /* Called from main itself, main is where its path ends; from a,
         * the path goes on to main. */
        g_assert_cmpuint (strata_call_tree_get_n_children (callers, k), ==, g_str_equal (name, "T.main ()V") ? 0 : 1);
      }
    /* As bottom up, the time is the root's own. */
    g_assert_cmpint (strata_call_tree_get_self (callers, root, 0), ==, 70000);
  }
  focus.method = f;
  callees = strata_call_tree_transform (tree, &focus, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (strata_call_tree_get_total (callees, strata_call_tree_get_first_child (callees, STRATA_CALL_TREE_ROOT), 0), ==, 70000);

  /* Random stacks with recursion: every method's callers against the
   * naive sums, node for node. */
  {
    g_autoptr(GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
    g_autoptr(StrataTrace) random = strata_test_write_random_stacks (5, 60, expected);
    g_autoptr(StrataCallTree) all = strata_call_tree_new (random, -1, FALSE, NULL, NULL, &error);

    for (guint32 m = 0; m < strata_trace_get_n_methods (random); m++)
      {
        g_autoptr(GHashTable) sums = naive_callers (all, m);
        g_autoptr(StrataCallTree) of = strata_call_tree_callers_of (all, m, NULL, &error);

        g_assert_no_error (error);
        g_assert_cmpuint (check_callers (of, STRATA_CALL_TREE_ROOT, sums), ==, MAX (g_hash_table_size (sums), 1));
      }
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/call-tree-callers/against-naive-sums", test_call_tree_callers_of);
  return g_test_run ();
}
