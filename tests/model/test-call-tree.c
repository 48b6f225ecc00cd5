/* test-call-tree.c: merged call trees, top down and bottom up
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

/* Every node's total is its self plus its children's; the self time per
 * method is the flat profile's exclusive time; the root holds the
 * profile's total, and so do the selfs of a tree made by thread. */
static void
check_tree (StrataTrace *trace)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataProfile) profile = strata_profile_new (trace, -1, NULL, &error);
  g_autoptr(StrataCallTree) tree = strata_call_tree_new (trace, -1, FALSE, NULL, NULL, &error);
  g_autoptr(StrataCallTree) by_thread = strata_call_tree_new (trace, -1, TRUE, NULL, NULL, &error);
  g_autoptr(StrataCallTree) inverted = NULL;
  guint n_methods = strata_trace_get_n_methods (trace);

  g_assert_no_error (error);
  inverted = strata_call_tree_invert (tree, NULL, &error);
  g_assert_no_error (error);
  for (guint c = 0; c < strata_call_tree_get_n_clocks (tree); c++)
    {
      g_autofree gint64 *exclusive = g_new0 (gint64, MAX (n_methods, 1));
      gint64 selfs = 0, inverted_roots = 0, positive = 0;

      for (guint32 v = 0; v < strata_call_tree_get_n_nodes (tree); v++)
        {
          gint64 children = 0;
          guint32 first = strata_call_tree_get_first_child (tree, v);

          for (guint32 k = first; k < first + strata_call_tree_get_n_children (tree, v); k++)
            {
              children += strata_call_tree_get_total (tree, k, c);
              g_assert_cmpuint (strata_call_tree_get_parent (tree, k), ==, v);
              /* Largest first, ties by method. */
              if (c == 0 && k > first)
                g_assert_true (strata_call_tree_get_total (tree, k - 1, 0) > strata_call_tree_get_total (tree, k, 0) ||
                               (strata_call_tree_get_total (tree, k - 1, 0) == strata_call_tree_get_total (tree, k, 0) &&
                                strata_call_tree_get_method (tree, k - 1) < strata_call_tree_get_method (tree, k)));
            }
          g_assert_cmpint (strata_call_tree_get_total (tree, v, c), ==, strata_call_tree_get_self (tree, v, c) + children);
          if (v != STRATA_CALL_TREE_ROOT)
            {
              exclusive[strata_call_tree_get_method (tree, v)] += strata_call_tree_get_self (tree, v, c);
              positive += MAX (strata_call_tree_get_self (tree, v, c), 0);
            }
        }
      for (guint32 m = 0; m < n_methods; m++)
        g_assert_cmpint (exclusive[m], ==, strata_profile_get_entry (profile, m)->exclusive[c]);
      g_assert_cmpint (strata_call_tree_get_total (tree, STRATA_CALL_TREE_ROOT, c), ==, strata_profile_get_total (profile, c));
      for (guint32 v = 0; v < strata_call_tree_get_n_nodes (by_thread); v++)
        selfs += strata_call_tree_get_self (by_thread, v, c);
      g_assert_cmpint (selfs, ==, strata_profile_get_total (profile, c));
      /* Bottom up, the roots share out the self time of every path. */
      for (guint32 k = 0; k < strata_call_tree_get_n_children (inverted, STRATA_CALL_TREE_ROOT); k++)
        inverted_roots += strata_call_tree_get_total (inverted, strata_call_tree_get_first_child (inverted, 0) + k, c);
      g_assert_cmpint (inverted_roots, ==, positive);
    }
}

/* Android Studio's sample (dual clock, 17 threads). */
static void
test_call_tree_sample (void)
{
  g_autofree char *path = strata_test_fixture_path ("dmtrace", "studio-perflib-char_2_bytes.trace", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_path (path, &error);

  g_assert_no_error (error);
  check_tree (trace);
}

/* Random calls on two threads, with recursion, written as a dmtrace; the
 * expected paths are kept from the script itself, independently of the
 * loader, and the tree must hold exactly them. Enough calls for wide
 * levels to be shared by two workers. */

/* @expected's paths without their thread, summed over threads. */
static GHashTable *
merge_threads (GHashTable *expected)
{
  GHashTable *merged = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, expected);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *path = strchr (key, ';') + 1;
      const gint64 *figures = value;
      gint64 *entry = g_hash_table_lookup (merged, path);

      if (entry == NULL)
        g_hash_table_insert (merged, g_strdup (path), entry = g_new0 (gint64, 2));
      entry[0] += figures[0];
      entry[1] += figures[1];
    }
  return merged;
}

/* Each path of @tree has the total and calls @expected gives, and each
 * path @expected gives is in @tree. */
static void
check_paths (StrataCallTree *tree,
             GHashTable     *expected)
{
  guint found = 0;

  for (guint32 v = 1; v < strata_call_tree_get_n_nodes (tree); v++)
    {
      g_autofree char *path = NULL;
      const gint64 *entry;

      if (strata_call_tree_get_thread (tree, v) >= 0)
        continue;
      path = strata_call_tree_dup_path (tree, v, ";");
      entry = g_hash_table_lookup (expected, path);
      g_assert_nonnull (entry);
      g_assert_cmpint (strata_call_tree_get_total (tree, v, 0), ==, entry[0]);
      g_assert_cmpuint (strata_call_tree_get_calls (tree, v), ==, entry[1]);
      found++;
    }
  g_assert_cmpuint (found, ==, g_hash_table_size (expected));
}

/* The trees by thread and merged hold exactly the paths @expected gives;
 * returns the tree by thread. */
static StrataCallTree *
check_random_stacks (StrataTrace *trace,
                     GHashTable  *expected)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataCallTree) tree = NULL;
  g_autoptr(GHashTable) merged = merge_threads (expected);
  g_autoptr(StrataCallTree) all = NULL;

  check_tree (trace);
  tree = strata_call_tree_new (trace, -1, TRUE, NULL, NULL, &error);
  g_assert_no_error (error);
  check_paths (tree, expected);
  all = strata_call_tree_new (trace, -1, FALSE, NULL, NULL, &error);
  g_assert_no_error (error);
  check_paths (all, merged);
  return g_steal_pointer (&tree);
}

/* @result of a transform of @kind on @tree keeps each node's children
 * distinct by method and no self below zero; those that only move time
 * keep the whole. */
static void
check_transformed (StrataCallTree          *tree,
                   StrataCallTree          *result,
                   StrataCallTransformKind  kind)
{
  for (guint32 v = 0; v < strata_call_tree_get_n_nodes (result); v++)
    {
      guint32 first = strata_call_tree_get_first_child (result, v), n = strata_call_tree_get_n_children (result, v);

      for (guint32 i = first; i < first + n; i++)
        for (guint32 j = first; j < i; j++)
          g_assert_true (strata_call_tree_get_method (result, j) != strata_call_tree_get_method (result, i) ||
                         strata_call_tree_get_thread (result, j) != strata_call_tree_get_thread (result, i));
      g_assert_cmpint (strata_call_tree_get_self (result, v, 0), >=, 0);
    }
  if (kind == STRATA_CALL_TRANSFORM_MERGE_FUNCTION || kind == STRATA_CALL_TRANSFORM_COLLAPSE_RECURSION ||
      kind == STRATA_CALL_TRANSFORM_COLLAPSE_PREFIX)
    g_assert_cmpint (strata_call_tree_get_total (result, STRATA_CALL_TREE_ROOT, 0), ==,
                     strata_call_tree_get_total (tree, STRATA_CALL_TREE_ROOT, 0));
}

/* ---- Transforms done on the paths' text ----
 *
 * An independent account of each transform, from the paths the script
 * wrote: each path's self time goes to the path the transform makes of
 * it, and totals are summed again from those. */
#define MAX_FRAMES 64

/* The @n @frames of a path as @transform makes them, into @out; returns
 * how many, 0 when the path goes. *@counted tells whether its calls stay
 * calls. */
static guint
transform_frames (const char               **frames,
                  guint                      n,
                  const StrataCallTransform *transform,
                  const char                *name,
                  const char               **out,
                  gboolean                  *counted)
{
  guint first = n, last = n, n_out = 0;

  *counted = TRUE;
  for (guint i = 0; i < n; i++)
    if (g_str_equal (frames[i], name))
      {
        first = first == n ? i : first;
        last = i;
      }
  switch (transform->kind)
    {
    case STRATA_CALL_TRANSFORM_MERGE_FUNCTION:
      for (guint i = 0; i < n; i++)
        if (!g_str_equal (frames[i], name))
          out[n_out++] = frames[i];
      *counted = !g_str_equal (frames[n - 1], name);
      break;
    case STRATA_CALL_TRANSFORM_DROP_FUNCTION:
      for (guint i = 0; i < n && first == n; i++)
        out[n_out++] = frames[i];
      break;
    case STRATA_CALL_TRANSFORM_FOCUS_FUNCTION:
      for (guint i = first; i < n; i++)
        out[n_out++] = frames[i];
      break;
    case STRATA_CALL_TRANSFORM_COLLAPSE_RECURSION:
      /* The frames from the first call of the method below the
       * outermost one to the last are gone. */
      for (guint i = 0; i < n; i++)
        if (i <= first || i > last)
          out[n_out++] = frames[i];
      break;
    case STRATA_CALL_TRANSFORM_COLLAPSE_PREFIX:
      for (guint i = 0; i < n; i++)
        {
          gboolean in = g_str_has_prefix (frames[i], transform->prefix);

          if (!in)
            out[n_out++] = frames[i];
          else if (i == 0 || !g_str_has_prefix (frames[i - 1], transform->prefix))
            out[n_out++] = "*";
        }
      *counted = n < 2 || !g_str_has_prefix (frames[n - 1], transform->prefix) ||
                 !g_str_has_prefix (frames[n - 2], transform->prefix);
      break;
    case STRATA_CALL_TRANSFORM_FOCUS_SUBTREE:
    default:
      g_assert_not_reached ();
    }
  return n_out;
}

/* @path's self time: its total less its children's. */
static GHashTable *
path_selfs (GHashTable *paths)
{
  GHashTable *selfs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, paths);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gint64 *self = g_hash_table_lookup (selfs, key);

      if (self == NULL)
        g_hash_table_insert (selfs, g_strdup (key), self = g_new0 (gint64, 1));
      *self += ((const gint64 *) value)[0];
    }
  g_hash_table_iter_init (&iter, paths);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *cut = strrchr (key, ';');
      g_autofree char *parent = cut != NULL ? g_strndup (key, cut - (const char *) key) : NULL;

      if (parent != NULL)
        *(gint64 *) g_hash_table_lookup (selfs, parent) -= ((const gint64 *) value)[0];
    }
  return selfs;
}

/* The paths (self, calls) @transform makes of @paths, whose selfs are
 * @selfs. */
static GHashTable *
transform_paths (GHashTable                *paths,
                 GHashTable                *selfs,
                 const StrataCallTransform *transform,
                 const char                *name)
{
  GHashTable *out = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, paths);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_autofree char *text = g_strdup (key);
      const char *frames[MAX_FRAMES], *kept[MAX_FRAMES];
      guint n = 0, n_kept;
      gboolean counted;
      g_autoptr(GString) path = g_string_new (NULL);
      gint64 *entry;

      for (char *frame = text, *end; frame != NULL; frame = end != NULL ? end + 1 : NULL)
        {
          g_assert_cmpuint (n, <, MAX_FRAMES);
          if ((end = strchr (frame, ';')) != NULL)
            *end = '\0';
          frames[n++] = frame;
        }
      if ((n_kept = transform_frames (frames, n, transform, name, kept, &counted)) == 0)
        continue;
      for (guint i = 0; i < n_kept; i++)
        {
          g_string_append_printf (path, "%s%s", i > 0 ? ";" : "", kept[i]);
          if (g_str_equal (kept[i], "*"))
            g_string_insert (path, path->len - 1, transform->prefix);
        }
      entry = g_hash_table_lookup (out, path->str);
      if (entry == NULL)
        g_hash_table_insert (out, g_strdup (path->str), entry = g_new0 (gint64, 2));
      entry[0] += *(const gint64 *) g_hash_table_lookup (selfs, key);
      if (counted)
        entry[1] += ((const gint64 *) value)[1];
    }
  return out;
}

/* The tree @transform makes of @tree, merged over threads, holds exactly
 * the paths it makes of @paths (whose selfs are @selfs), each with the
 * self time and calls of what it takes; so its totals are theirs too. */
static void
check_transform_paths (StrataCallTree            *tree,
                       GHashTable                *paths,
                       GHashTable                *selfs,
                       const StrataCallTransform *transform)
{
  StrataTrace *trace = strata_call_tree_get_trace (tree);
  const char *name = strata_trace_get_method_name (trace, transform->method);
  g_autoptr(GHashTable) expected = transform_paths (paths, selfs, transform, name);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataCallTree) result = strata_call_tree_transform (tree, transform, NULL, &error);

  g_assert_no_error (error);
  check_transformed (tree, result, transform->kind);
  for (guint32 v = 1; v < strata_call_tree_get_n_nodes (result); v++)
    {
      g_autofree char *path = strata_call_tree_dup_path (result, v, ";");
      const gint64 *entry = g_hash_table_lookup (expected, path);

      g_assert_nonnull (entry);
      g_assert_cmpint (strata_call_tree_get_self (result, v, 0), ==, entry[0]);
      g_assert_cmpuint (strata_call_tree_get_calls (result, v), ==, entry[1]);
    }
  g_assert_cmpuint (strata_call_tree_get_n_nodes (result) - 1, ==, g_hash_table_size (expected));
}

/* A script's calls written as a dmtrace, their paths' totals and calls
 * kept in @expected as write_random_stacks() keeps them. */
typedef struct
{
  DmtraceWriter *writer;
  GHashTable    *expected;
  guint          stack[64];
  gint64         starts[64];
  guint          depth;
  gint64         now;
} Script;

static void
script_enter (Script *script,
              guint   method)
{
  script->now += 3;
  script->stack[script->depth] = method;
  script->starts[script->depth++] = script->now;
  dmtrace_writer_record (script->writer, 1, (method + 1) * 4, DMTRACE_ENTER, script->now, 0);
}

static void
script_exit (Script *script)
{
  g_autoptr(GString) path = g_string_new ("main");
  gint64 *entry;

  script->now += 2;
  for (guint i = 0; i < script->depth; i++)
    g_string_append_printf (path, ";T.m%u ()V", script->stack[i]);
  entry = g_hash_table_lookup (script->expected, path->str);
  if (entry == NULL)
    g_hash_table_insert (script->expected, g_strdup (path->str), entry = g_new0 (gint64, 2));
  script->depth--;
  entry[0] += (script->now - script->starts[script->depth]) * (gint64) 1000;
  entry[1]++;
  dmtrace_writer_record (script->writer, 1, (script->stack[script->depth] + 1) * 4, DMTRACE_EXIT, script->now, 0);
}

/* Two ladders @height deep: m1 (then m0) at the top, each rung m(2 + i)
 * calling m0 (which calls m1) before the next rung. Dropping m0 takes
 * time out of every rung above each of its calls, and collapsing its
 * recursion under the second ladder's top takes each inner call up past
 * the rungs between: walks up from each call cost more than a pass over
 * the tree. */
static StrataTrace *
write_ladders (guint       height,
               GHashTable *expected)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "wall", FALSE);
  Script script = { writer, expected };

  g_assert_cmpuint (height + 2, <=, 64);
  dmtrace_writer_add_thread (writer, 1, "main");
  for (guint m = 0; m < height + 2; m++)
    {
      g_autofree char *fields = g_strdup_printf ("T\tm%u\t()V", m);

      dmtrace_writer_add_method (writer, (m + 1) * 4, fields);
    }
  dmtrace_writer_begin_data (writer);
  for (guint ladder = 0; ladder < 2; ladder++)
    {
      script_enter (&script, ladder == 0 ? 1 : 0);
      for (guint rung = 0; rung < height; rung++)
        {
          script_enter (&script, 2 + rung);
          script_enter (&script, 0);
          script_enter (&script, 1);
          script_exit (&script);
          script_exit (&script);
        }
      while (script.depth > 0)
        script_exit (&script);
    }
  return strata_test_load_bytes (dmtrace_writer_finish (writer, FALSE), "ladders.trace");
}

/* Calls that leave many subtrees at once: their paths are still those
 * the transforms make of the script's. */
static void
test_call_tree_ladders (void)
{
  g_autoptr(GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(StrataTrace) trace = write_ladders (40, expected);
  g_autoptr(StrataCallTree) tree = strata_call_tree_new (trace, -1, FALSE, NULL, NULL, NULL);
  g_autoptr(GHashTable) paths = merge_threads (expected);
  g_autoptr(GHashTable) selfs = path_selfs (paths);
  const StrataCallTransformKind kinds[] = { STRATA_CALL_TRANSFORM_DROP_FUNCTION, STRATA_CALL_TRANSFORM_COLLAPSE_RECURSION,
                                            STRATA_CALL_TRANSFORM_MERGE_FUNCTION, STRATA_CALL_TRANSFORM_FOCUS_FUNCTION };

  check_paths (tree, paths);
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    for (guint32 m = 0; m < 3; m++)
      {
        StrataCallTransform transform = { kinds[k], m, STRATA_CALL_TREE_NONE, NULL, NULL, 0 };

        check_transform_paths (tree, paths, selfs, &transform);
      }
}

/* Wide levels and many paths: the trees are built, inverted and
 * transformed by two workers where there are two processors. */
static void
test_call_tree_wide_stacks (void)
{
  g_autoptr(GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(StrataTrace) trace = strata_test_write_random_stacks (60, 6, expected);
  g_autoptr(StrataCallTree) tree = check_random_stacks (trace, expected);
  const StrataCallTransformKind kinds[] = { STRATA_CALL_TRANSFORM_MERGE_FUNCTION, STRATA_CALL_TRANSFORM_COLLAPSE_RECURSION,
                                            STRATA_CALL_TRANSFORM_DROP_FUNCTION, STRATA_CALL_TRANSFORM_COLLAPSE_PREFIX,
                                            STRATA_CALL_TRANSFORM_FOCUS_FUNCTION };

  g_autoptr(StrataCallTree) merged = strata_call_tree_new (trace, -1, FALSE, NULL, NULL, NULL);
  g_autoptr(GHashTable) paths = merge_threads (expected);
  g_autoptr(GHashTable) selfs = path_selfs (paths);

  g_assert_cmpuint (strata_call_tree_get_n_nodes (tree), >, 20000);
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    for (guint32 m = 0; m < 3; m++)
      {
        g_autoptr(GError) error = NULL;
        StrataCallTransform transform = { kinds[k], m, STRATA_CALL_TREE_NONE, m == 0 ? "T.m1" : "T.m", NULL, 0 };
        g_autoptr(StrataCallTree) result = strata_call_tree_transform (tree, &transform, NULL, &error);

        g_assert_no_error (error);
        check_transformed (tree, result, kinds[k]);
        check_transform_paths (merged, paths, selfs, &transform);
      }
}

/* A cancelled build, transform or inversion stops with that error, and
 * what it leaves can be built again. */
static void
test_call_tree_cancelled (void)
{
  g_autoptr(GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(StrataTrace) trace = strata_test_write_random_stacks (60, 6, expected);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(StrataCallTree) tree = NULL;
  StrataCallTransform transform = { STRATA_CALL_TRANSFORM_MERGE_FUNCTION, 1, STRATA_CALL_TREE_NONE, NULL, NULL, 0 };

  g_cancellable_cancel (cancellable);
  for (guint by_thread = 0; by_thread < 2; by_thread++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_null (strata_call_tree_new (trace, -1, by_thread, NULL, cancellable, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    }
  tree = strata_call_tree_new (trace, -1, FALSE, NULL, NULL, NULL);
  {
    g_autoptr(GError) error = NULL;

    g_assert_null (strata_call_tree_transform (tree, &transform, cancellable, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(StrataCallTree) inverted = NULL;

    g_assert_null (strata_call_tree_invert (tree, cancellable, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    inverted = strata_call_tree_invert (tree, NULL, NULL);
    g_assert_nonnull (inverted);
  }
  {
    g_autoptr(GHashTable) merged = merge_threads (expected);

    check_paths (tree, merged);
  }
}

static void
test_call_tree_random_stacks (void)
{
  g_autoptr(GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(StrataTrace) trace = strata_test_write_random_stacks (5, 60, expected);
  g_autoptr(StrataCallTree) tree = check_random_stacks (trace, expected);
  g_autoptr(StrataCallTree) all = strata_call_tree_new (trace, -1, FALSE, NULL, NULL, NULL);
  g_autoptr(GHashTable) paths = merge_threads (expected);
  g_autoptr(GHashTable) selfs = path_selfs (paths);
  g_autoptr(GError) error = NULL;

  /* Every transform of every method keeps each node's children distinct
   * by method and no self below zero; those that only move time keep
   * the whole; for the first method's recursion and drop, the paths are
   * those the transform makes of the script's. */
  for (guint32 m = 0; m < strata_trace_get_n_methods (trace); m++)
    {
      const StrataCallTransformKind kinds[] = { STRATA_CALL_TRANSFORM_MERGE_FUNCTION, STRATA_CALL_TRANSFORM_FOCUS_FUNCTION,
                                                STRATA_CALL_TRANSFORM_COLLAPSE_RECURSION, STRATA_CALL_TRANSFORM_DROP_FUNCTION };

      for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
        {
          StrataCallTransform transform = { kinds[k], m, STRATA_CALL_TREE_NONE, NULL, NULL, 0 };
          g_autoptr(StrataCallTree) result = strata_call_tree_transform (tree, &transform, NULL, &error);

          g_assert_no_error (error);
          check_transformed (tree, result, kinds[k]);
          /* The first method recurses most: its calls leave the most
           * subtrees, dropped or taken up by the outermost call. */
          if (m == 0 && (kinds[k] == STRATA_CALL_TRANSFORM_COLLAPSE_RECURSION ||
                         kinds[k] == STRATA_CALL_TRANSFORM_DROP_FUNCTION))
            check_transform_paths (all, paths, selfs, &transform);
        }
    }

  /* Every node is found again by the codes of its path. */
  for (guint32 v = 0; v < strata_call_tree_get_n_nodes (tree); v++)
    {
      guint n_codes;
      g_autofree guint32 *codes = strata_call_tree_dup_codes (tree, v, &n_codes);

      g_assert_cmpuint (n_codes, ==, strata_call_tree_get_depth (tree, v));
      g_assert_cmpuint (strata_call_tree_find_codes (tree, codes, n_codes), ==, v);
    }

  /* Every call finds its own path's node, in a tree by thread and merged. */
  {
    g_autoptr(StrataCallTree) merged = strata_call_tree_new (trace, -1, FALSE, NULL, NULL, &error);

    for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
      {
        const StrataSpanTable *table = strata_trace_get_thread (trace, t)->spans;

        for (guint d = 0; table != NULL && d < table->n_depths; d++)
          for (guint32 i = 0; i < table->n_spans[d]; i += 7)
            {
              StrataSliceRef call = { t, d, i };
              guint32 node = strata_call_tree_find_call (tree, &call);
              guint32 in_merged = strata_call_tree_find_call (merged, &call);

              g_assert_cmpuint (node, !=, STRATA_CALL_TREE_NONE);
              g_assert_cmpuint (strata_call_tree_get_method (tree, node), ==, table->calls[d][i].method);
              g_assert_cmpuint (strata_call_tree_get_depth (tree, node), ==, d + 2);
              g_assert_cmpint (strata_call_tree_get_thread (tree, strata_call_tree_get_parent (tree, node)), >=, -1);
              g_assert_cmpuint (in_merged, !=, STRATA_CALL_TREE_NONE);
              g_assert_cmpuint (strata_call_tree_get_depth (merged, in_merged), ==, d + 1);
            }
      }
  }
}

/* The bottom-up tree of a -> b -> c (c spends 30, b 20, a 10): roots c,
 * b and a with their self times, each with its callers under it. */
static void
test_call_tree_bottom_up (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "wall", FALSE);
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(StrataCallTree) tree = NULL;
  g_autoptr(StrataCallTree) inverted = NULL;
  g_autoptr(GError) error = NULL;
  guint32 first;

  dmtrace_writer_add_thread (writer, 1, "main");
  dmtrace_writer_add_method (writer, 4, "T\ta\t()V");
  dmtrace_writer_add_method (writer, 8, "T\tb\t()V");
  dmtrace_writer_add_method (writer, 12, "T\tc\t()V");
  dmtrace_writer_begin_data (writer);
  dmtrace_writer_record (writer, 1, 4, DMTRACE_ENTER, 0, 0);
  dmtrace_writer_record (writer, 1, 8, DMTRACE_ENTER, 10, 0);
  dmtrace_writer_record (writer, 1, 12, DMTRACE_ENTER, 20, 0);
  dmtrace_writer_record (writer, 1, 12, DMTRACE_EXIT, 50, 0);
  dmtrace_writer_record (writer, 1, 8, DMTRACE_EXIT, 60, 0);
  dmtrace_writer_record (writer, 1, 4, DMTRACE_EXIT, 60, 0);
  trace = strata_test_load_bytes (dmtrace_writer_finish (writer, FALSE), "chain.trace");
  tree = strata_call_tree_new (trace, -1, FALSE, NULL, NULL, &error);
  inverted = strata_call_tree_invert (tree, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (strata_call_tree_get_kind (inverted), ==, STRATA_CALL_TREE_BOTTOM_UP);
  /* How deep each goes, without opening a bottom-up node to learn it. */
  g_assert_cmpuint (strata_call_tree_get_depth_below (tree, STRATA_CALL_TREE_ROOT), ==, 3);
  {
    guint32 made = strata_call_tree_get_n_nodes (inverted);

    g_assert_cmpuint (strata_call_tree_get_depth_below (inverted, STRATA_CALL_TREE_ROOT), ==, 3);
    g_assert_cmpuint (strata_call_tree_get_n_nodes (inverted), ==, made);
  }
  g_assert_cmpuint (strata_call_tree_get_n_children (inverted, STRATA_CALL_TREE_ROOT), ==, 3);
  first = strata_call_tree_get_first_child (inverted, STRATA_CALL_TREE_ROOT);
  {
    g_autofree char *c = strata_call_tree_dup_name (inverted, first);
    g_autofree char *path = NULL;
    guint32 leaf;

    g_assert_cmpstr (c, ==, "T.c ()V");
    g_assert_cmpint (strata_call_tree_get_total (inverted, first, 0), ==, 30000);
    g_assert_cmpint (strata_call_tree_get_self (inverted, first, 0), ==, 30000);
    /* c <- b <- a */
    leaf = strata_call_tree_get_first_child (inverted, strata_call_tree_get_first_child (inverted, first));
    path = strata_call_tree_dup_path (inverted, leaf, " <- ");
    g_assert_cmpstr (path, ==, "T.c ()V <- T.b ()V <- T.a ()V");
    g_assert_cmpint (strata_call_tree_get_total (inverted, leaf, 0), ==, 30000);
    g_assert_cmpint (strata_call_tree_get_self (inverted, leaf, 0), ==, 0);
  }
  g_assert_cmpint (strata_call_tree_get_total (inverted, first + 1, 0), ==, 20000);
  g_assert_cmpint (strata_call_tree_get_total (inverted, first + 2, 0), ==, 10000);
}

/* Tracing began inside b, called from a: a and b are taken to have begun
 * when tracing did, so the calls before their exits hang under a -> b,
 * and a's later call is merged with the first a. Each node's children
 * are ordered largest first. */
static void
test_call_tree_began_inside (void)
{
  g_autoptr(StrataTrace) trace = strata_test_load_script ("+c@0 +d@2 -d@5 -c@10 -b@12 +c@20 -c@50 -a@60 "
                                              "+a@70 +c@71 +d@72 -d@90 -c@95 -a@100");
  g_autoptr(StrataCallTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  guint32 codes[3], node;
  g_autofree char *a_c_d = NULL;

  check_tree (trace);
  tree = strata_call_tree_new (trace, -1, FALSE, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint32 v = 0; v < strata_call_tree_get_n_nodes (tree); v++)
    {
      guint32 first = strata_call_tree_get_first_child (tree, v);

      for (guint32 k = first + 1; k < first + strata_call_tree_get_n_children (tree, v); k++)
        g_assert_cmpint (strata_call_tree_get_total (tree, k - 1, 0), >=, strata_call_tree_get_total (tree, k, 0));
    }
  /* a (begun before tracing, 60 us seen, then 30 us) is the only root. */
  g_assert_cmpuint (strata_call_tree_get_n_children (tree, STRATA_CALL_TREE_ROOT), ==, 1);
  node = strata_call_tree_get_first_child (tree, STRATA_CALL_TREE_ROOT);
  g_assert_cmpuint (strata_call_tree_get_method (tree, node), ==, strata_test_method_named (trace, 'a'));
  g_assert_cmpint (strata_call_tree_get_total (tree, node, 0), ==, (60 + 30) * 1000);
  /* a -> c -> d: the c entered under a at 71, and the d under it. */
  codes[0] = strata_test_method_named (trace, 'a');
  codes[1] = strata_test_method_named (trace, 'c');
  codes[2] = strata_test_method_named (trace, 'd');
  node = strata_call_tree_find_codes (tree, codes, 3);
  g_assert_cmpuint (node, !=, STRATA_CALL_TREE_NONE);
  a_c_d = strata_call_tree_dup_path (tree, node, ";");
  g_assert_cmpstr (a_c_d, ==, "T.a ()V;T.c ()V;T.d ()V");
  g_assert_cmpint (strata_call_tree_get_total (tree, node, 0), ==, 18000);
}

/* A range keeps the calls in it, cut at its ends. */
static void
test_call_tree_range (void)
{
  g_autofree char *path = strata_test_fixture_path ("dmtrace", "studio-perflib-char_2_bytes.trace", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_path (path, &error);
  gint64 start, end;
  StrataProfileRange range;
  g_autoptr(StrataProfile) profile = NULL;
  g_autoptr(StrataCallTree) tree = NULL;
  g_autoptr(StrataCallTree) whole = NULL;

  g_assert_no_error (error);
  strata_trace_get_clock_range (trace, 0, &start, &end);
  range = (StrataProfileRange) { 0, start + (end - start) / 3, start + 2 * (end - start) / 3 };
  profile = strata_profile_new_for_range (trace, -1, &range, NULL, &error);
  tree = strata_call_tree_new (trace, -1, FALSE, &range, NULL, &error);
  whole = strata_call_tree_new (trace, -1, FALSE, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (strata_call_tree_get_total (tree, STRATA_CALL_TREE_ROOT, 0), ==, strata_profile_get_total (profile, 0));
  g_assert_cmpint (strata_call_tree_get_total (tree, STRATA_CALL_TREE_ROOT, 0), <,
                   strata_call_tree_get_total (whole, STRATA_CALL_TREE_ROOT, 0));
  for (guint32 m = 0; m < strata_trace_get_n_methods (trace); m++)
    {
      gint64 own = 0;

      for (guint32 v = 1; v < strata_call_tree_get_n_nodes (tree); v++)
        if (strata_call_tree_get_method (tree, v) == m)
          own += strata_call_tree_get_self (tree, v, 0);
      g_assert_cmpint (own, ==, strata_profile_get_entry (profile, m)->exclusive[0]);
    }
}

static guint
check_folder (const char *dir_path)
{
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint checked = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(StrataTrace) trace = NULL;

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          checked += check_folder (path);
          continue;
        }
      if (g_str_has_suffix (name, ".md") || g_str_equal (name, "LICENSE"))
        continue;
      trace = strata_test_load_path (path, &error);
      if (trace == NULL || strata_trace_get_n_spans (trace) == 0)
        continue;
      g_test_message ("%s", name);
      check_tree (trace);
      checked++;
    }
  return checked;
}

/* Every trace with calls in the corpus: dmtrace, Trace Event and the
 * HPROF agent's CPU samples. */
static void
test_call_tree_corpus (void)
{
  const char *folders[] = { "dmtrace", "json", "hprof" };
  guint checked = 0;
  g_autofree char *root = strata_test_corpus_path ("dmtrace", NULL);

  if (!g_file_test (root, G_FILE_TEST_IS_DIR))
    {
      strata_test_skip_no_corpus ();
      return;
    }
  for (guint f = 0; f < G_N_ELEMENTS (folders); f++)
    {
      g_autofree char *dir_path = strata_test_corpus_path (folders[f], NULL);

      checked += check_folder (dir_path);
    }
  g_assert_cmpuint (checked, >, 60);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/call-tree/sample", test_call_tree_sample);
  g_test_add_func ("/call-tree/random-stacks", test_call_tree_random_stacks);
  g_test_add_func ("/call-tree/wide-stacks", test_call_tree_wide_stacks);
  g_test_add_func ("/call-tree/cancelled", test_call_tree_cancelled);
  g_test_add_func ("/call-tree/ladders", test_call_tree_ladders);
  g_test_add_func ("/call-tree/began-inside", test_call_tree_began_inside);
  g_test_add_func ("/call-tree/bottom-up", test_call_tree_bottom_up);
  g_test_add_func ("/call-tree/range", test_call_tree_range);
  g_test_add_func ("/call-tree/corpus", test_call_tree_corpus);
  return g_test_run ();
}
