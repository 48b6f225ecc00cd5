/* test-call-tree-transform.c: the call tree reshaped
 *
 * Each transform on scripted calls, and paths followed through them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dmtrace-writer.h"
#include "strata-call-tree.h"
#include "strata-loader.h"
#include "strata-profile.h"
#include "strata-test-model.h"
#include "strata-test-util.h"

/* @path ("a/b") of @node, names shortened as transformed() does; "" for
 * none. */
static char *
short_path (StrataCallTree *tree,
            guint32         node)
{
  g_autofree char *path = NULL;
  g_autoptr(GString) out = NULL;

  if (node == STRATA_CALL_TREE_NONE)
    return g_strdup ("");
  path = strata_call_tree_dup_path (tree, node, "/");
  out = g_string_new (path);
  g_string_replace (out, "T.", "", 0);
  g_string_replace (out, " ()V", "", 0);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* The node of @tree at @path (as short_path() writes it). */
static guint32
node_at (StrataCallTree *tree,
         const char     *path)
{
  for (guint32 v = 1; v < strata_call_tree_get_n_nodes (tree); v++)
    {
      g_autofree char *here = short_path (tree, v);

      if (g_str_equal (here, path))
        return v;
    }
  g_assert_not_reached ();
}

/* Where @path of @tree leads after @transform: the longest start of the
 * path followed that the result has, as a path of it. */
static char *
followed (StrataCallTree            *tree,
          const StrataCallTransform *transform,
          const char                *path)
{
  g_autoptr(StrataCallTree) result = strata_call_tree_transform (tree, transform, NULL, NULL);
  guint n_codes;
  g_autofree guint32 *codes = strata_call_tree_dup_codes (tree, node_at (tree, path), &n_codes);
  guint32 found = STRATA_CALL_TREE_NONE;

  for (guint n = strata_call_tree_follow_path (tree, transform, result, STRATA_CALL_TREE_TOP_DOWN, codes, n_codes);
       n > 0 && found == STRATA_CALL_TREE_NONE; n--)
    found = strata_call_tree_find_codes (result, codes, n);
  return short_path (result, found);
}

/* @path (leaf first, "c/b/a") of the bottom-up tree of @tree followed
 * through @transform, as codes named the same way. */
static char *
followed_bottom_up (StrataCallTree            *tree,
                    const StrataCallTransform *transform,
                    const char                *path)
{
  g_autoptr(StrataCallTree) result = strata_call_tree_transform (tree, transform, NULL, NULL);
  StrataTrace *trace = strata_call_tree_get_trace (tree);
  g_auto(GStrv) names = g_strsplit (path, "/", -1);
  guint n = g_strv_length (names);
  g_autofree guint32 *codes = g_new (guint32, MAX (n, 1));
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    codes[i] = strata_test_method_named (trace, names[i][0]);
  n = strata_call_tree_follow_path (tree, transform, result, STRATA_CALL_TREE_BOTTOM_UP, codes, n);
  for (guint i = 0; i < n; i++)
    {
      const char *name = strata_trace_get_method_name (trace, codes[i]);

      g_string_append_printf (out, "%s%c", i > 0 ? "/" : "", name[2]);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* A selection follows its calls across each transform, or goes to their
 * nearest caller the result keeps. */
static void
test_call_tree_follow (void)
{
  g_autoptr(StrataTrace) trace = strata_test_load_script ("+a@0 +b@10 +c@20 -c@50 -b@60 +c@60 -c@80 +d@80 +c@82 +c@84 -c@90 -c@95 -d@96 -a@100");
  g_autoptr(StrataCallTree) tree = strata_call_tree_new (trace, -1, FALSE, NULL, NULL, NULL);
  guint32 b = strata_test_method_named (trace, 'b'), c = strata_test_method_named (trace, 'c'), d = strata_test_method_named (trace, 'd');
  const struct { StrataCallTransformKind kind; guint32 method; const char *at, *path, *expected; } cases[] = {
    { STRATA_CALL_TRANSFORM_MERGE_FUNCTION, b, NULL, "a/b/c", "a/c" },
    { STRATA_CALL_TRANSFORM_MERGE_FUNCTION, b, NULL, "a/b", "a" },
    { STRATA_CALL_TRANSFORM_MERGE_FUNCTION, b, NULL, "a/d/c/c", "a/d/c/c" },
    { STRATA_CALL_TRANSFORM_DROP_FUNCTION, d, NULL, "a/d/c", "a" },
    { STRATA_CALL_TRANSFORM_DROP_FUNCTION, d, NULL, "a/b/c", "a/b/c" },
    { STRATA_CALL_TRANSFORM_FOCUS_FUNCTION, c, NULL, "a/d/c/c", "c/c" },
    { STRATA_CALL_TRANSFORM_FOCUS_FUNCTION, c, NULL, "a/b", "c" },
    { STRATA_CALL_TRANSFORM_COLLAPSE_RECURSION, c, NULL, "a/d/c/c", "a/d/c" },
    { STRATA_CALL_TRANSFORM_FOCUS_SUBTREE, 0, "a/b", "a/b/c", "b/c" },
    { STRATA_CALL_TRANSFORM_FOCUS_SUBTREE, 0, "a/b", "a/d", "b" },
    { STRATA_CALL_TRANSFORM_COLLAPSE_PREFIX, 0, NULL, "a/b/c", "*" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      StrataCallTransform transform = { cases[i].kind, cases[i].method,
                                        cases[i].at != NULL ? node_at (tree, cases[i].at) : STRATA_CALL_TREE_NONE,
                                        "T.", NULL, 0 };
      g_autofree char *path = followed (tree, &transform, cases[i].path);

      g_assert_cmpstr (path, ==, cases[i].expected);
    }

  /* The top (no selection, or the flame graph zoomed out) stays the top,
   * either way up. */
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      StrataCallTransform transform = { cases[i].kind, cases[i].method,
                                        cases[i].at != NULL ? node_at (tree, cases[i].at) : STRATA_CALL_TREE_NONE,
                                        "T.", NULL, 0 };
      g_autoptr(StrataCallTree) result = strata_call_tree_transform (tree, &transform, NULL, NULL);

      g_assert_cmpuint (strata_call_tree_follow_path (tree, &transform, result, STRATA_CALL_TREE_TOP_DOWN, NULL, 0), ==, 0);
      g_assert_cmpuint (strata_call_tree_follow_path (tree, &transform, result, STRATA_CALL_TREE_BOTTOM_UP, NULL, 0), ==, 0);
    }

  /* Bottom up, a path runs from where the time went through its callers,
   * maybe not up to the top. */
  {
    const struct { StrataCallTransformKind kind; guint32 method; const char *path, *expected; } up[] = {
      { STRATA_CALL_TRANSFORM_MERGE_FUNCTION, b, "c/b/a", "c/a" },
      { STRATA_CALL_TRANSFORM_DROP_FUNCTION, d, "c/c/d/a", "c/c" },
      { STRATA_CALL_TRANSFORM_DROP_FUNCTION, d, "c/b/a", "c/b/a" },
      { STRATA_CALL_TRANSFORM_FOCUS_FUNCTION, d, "c/c/d/a", "c/c/d" },
      { STRATA_CALL_TRANSFORM_FOCUS_FUNCTION, d, "c/c", "c/c" },
      { STRATA_CALL_TRANSFORM_COLLAPSE_RECURSION, c, "c/c/d/a", "c/d/a" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (up); i++)
      {
        StrataCallTransform transform = { up[i].kind, up[i].method, STRATA_CALL_TREE_NONE, NULL, NULL, 0 };
        g_autofree char *path = followed_bottom_up (tree, &transform, up[i].path);

        g_assert_cmpstr (path, ==, up[i].expected);
      }
  }
}

/* a calls b, which calls c (30 µs); then a calls c (20 µs) and d, in
 * which c calls c. Each transform moves the selfs where the paths lead. */
static void
test_call_tree_transforms (void)
{
  g_autoptr(StrataTrace) trace = strata_test_load_script ("+a@0 +b@10 +c@20 -c@50 -b@60 +c@60 -c@80 +d@80 +c@82 +c@84 -c@90 -c@95 -d@96 -a@100");
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataCallTree) tree = strata_call_tree_new (trace, -1, FALSE, NULL, NULL, &error);
  guint32 b = strata_test_method_named (trace, 'b'), c = strata_test_method_named (trace, 'c'), d = strata_test_method_named (trace, 'd');
  g_autofree char *text = NULL;

  g_assert_no_error (error);
  text = strata_test_transformed (tree, STRATA_CALL_TRANSFORM_MERGE_FUNCTION, b, NULL);
  g_assert_cmpstr (text, ==, "a=100(34) a/c=50(50) a/d=16(3) a/d/c=13(7) a/d/c/c=6(6) ");
  g_clear_pointer (&text, g_free);
  text = strata_test_transformed (tree, STRATA_CALL_TRANSFORM_FOCUS_FUNCTION, c, NULL);
  g_assert_cmpstr (text, ==, "c=63(57) c/c=6(6) ");
  g_clear_pointer (&text, g_free);
  text = strata_test_transformed (tree, STRATA_CALL_TRANSFORM_DROP_FUNCTION, d, NULL);
  g_assert_cmpstr (text, ==, "a=84(14) a/b=50(20) a/c=20(20) a/b/c=30(30) ");
  g_clear_pointer (&text, g_free);
  text = strata_test_transformed (tree, STRATA_CALL_TRANSFORM_COLLAPSE_RECURSION, c, NULL);
  g_assert_cmpstr (text, ==, "a=100(14) a/b=50(20) a/c=20(20) a/d=16(3) a/b/c=30(30) a/d/c=13(13) ");
  g_clear_pointer (&text, g_free);
  text = strata_test_transformed (tree, STRATA_CALL_TRANSFORM_COLLAPSE_PREFIX, 0, "T.");
  g_assert_cmpstr (text, ==, "*=100(100) ");
  g_clear_pointer (&text, g_free);
  /* Focus on the subtree of a/b: b and its callee. */
  {
    StrataCallTransform transform = { STRATA_CALL_TRANSFORM_FOCUS_SUBTREE, STRATA_CALL_TREE_NONE,
                                      strata_call_tree_get_first_child (tree, strata_call_tree_get_first_child (tree, 0)), NULL };
    g_autoptr(StrataCallTree) result = strata_call_tree_transform (tree, &transform, NULL, &error);
    g_autofree char *described = strata_call_transform_describe (tree, &transform);

    g_assert_no_error (error);
    g_clear_pointer (&text, g_free);
    text = strata_test_describe_tree (result);
    g_assert_cmpstr (text, ==, "T.b ()V=50(20) T.b ()V/T.c ()V=30(30) ");
    g_assert_cmpstr (described, ==, "Focus on subtree: T.b ()V");
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/call-tree-transform/transforms", test_call_tree_transforms);
  g_test_add_func ("/call-tree-transform/follow", test_call_tree_follow);
  return g_test_run ();
}
