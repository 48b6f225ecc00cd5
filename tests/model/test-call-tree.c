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

/* Loads the bytes a writer made, which it takes. */
static StrataTrace *
load_bytes (GBytes     *taken,
            const char *name)
{
  g_autoptr(GBytes) bytes = taken;
  g_autofree char *path = strata_test_write_file (name, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_autoptr(GError) error = NULL;
  StrataTrace *trace = strata_test_load_path (path, &error);

  g_assert_no_error (error);
  return trace;
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
#define RANDOM_STEPS 120000

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

/* Random calls of @n_methods methods on two threads, at most @max_depth
 * deep, the first two recursing often, as a dmtrace; @expected gets each
 * path's total and calls, kept from the script itself. */
static StrataTrace *
write_random_stacks (guint       n_methods,
                     guint       max_depth,
                     GHashTable *expected)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "wall", FALSE);
  g_autoptr(GRand) rand = g_rand_new_with_seed (1234);

  g_assert_cmpuint (max_depth, <=, 64);
  dmtrace_writer_add_thread (writer, 1, "main");
  dmtrace_writer_add_thread (writer, 2, "worker");
  for (guint m = 0; m < n_methods; m++)
    {
      g_autofree char *fields = g_strdup_printf ("T\tm%u\t()V", m);

      dmtrace_writer_add_method (writer, (m + 1) * 4, fields);
    }
  dmtrace_writer_begin_data (writer);
  for (guint tid = 1; tid <= 2; tid++)
    {
      guint stack[64], depth = 0;
      guint32 starts[64];
      guint32 now = 0;

      for (guint step = 0; step < RANDOM_STEPS || depth > 0; step++)
        {
          gboolean enter = depth == 0 || (step < RANDOM_STEPS && depth < max_depth && g_rand_int_range (rand, 0, 2) == 0);

          now += g_rand_int_range (rand, 1, 20);
          if (enter)
            {
              guint m = g_rand_int_range (rand, 0, depth > 0 && stack[depth - 1] < 2 ? 3 : n_methods);

              stack[depth] = m;
              starts[depth++] = now;
              dmtrace_writer_record (writer, tid, (m + 1) * 4, DMTRACE_ENTER, now, 0);
            }
          else
            {
              g_autoptr(GString) path = g_string_new (tid == 1 ? "main" : "worker");
              gint64 *entry;

              for (guint i = 0; i < depth; i++)
                g_string_append_printf (path, ";T.m%u ()V", stack[i]);
              entry = g_hash_table_lookup (expected, path->str);
              if (entry == NULL)
                g_hash_table_insert (expected, g_strdup (path->str), entry = g_new0 (gint64, 2));
              depth--;
              entry[0] += (now - starts[depth]) * (gint64) 1000;
              entry[1]++;
              dmtrace_writer_record (writer, tid, (stack[depth] + 1) * 4, DMTRACE_EXIT, now, 0);
            }
        }
    }
  return load_bytes (dmtrace_writer_finish (writer, FALSE), "random.trace");
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
  return load_bytes (dmtrace_writer_finish (writer, FALSE), "ladders.trace");
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
  g_autoptr(StrataTrace) trace = write_random_stacks (60, 6, expected);
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
  g_autoptr(StrataTrace) trace = write_random_stacks (60, 6, expected);
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
  g_autoptr(StrataTrace) trace = write_random_stacks (5, 60, expected);
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
              g_assert_cmpuint (strata_call_tree_get_method (tree, node), ==, table->spans[d][i].method);
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
  trace = load_bytes (dmtrace_writer_finish (writer, FALSE), "chain.trace");
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

/* Calls on thread 1 from a script: "+a@0 +b@10 -b@30 -a@40" enters and
 * exits methods a..e at µs times. */
static StrataTrace *
load_script (const char *script)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "wall", FALSE);
  g_auto(GStrv) steps = g_strsplit (script, " ", -1);

  dmtrace_writer_add_thread (writer, 1, "main");
  for (char c = 'a'; c <= 'e'; c++)
    {
      g_autofree char *fields = g_strdup_printf ("T\t%c\t()V", c);

      dmtrace_writer_add_method (writer, (c - 'a' + 1) * 4, fields);
    }
  dmtrace_writer_begin_data (writer);
  for (guint i = 0; steps[i] != NULL; i++)
    dmtrace_writer_record (writer, 1, (steps[i][1] - 'a' + 1) * 4, steps[i][0] == '+' ? DMTRACE_ENTER : DMTRACE_EXIT,
                           atoi (steps[i] + 3), 0);
  return load_bytes (dmtrace_writer_finish (writer, FALSE), "script.trace");
}

static guint32
method_named (StrataTrace *trace,
              char         letter)
{
  g_autofree char *name = g_strdup_printf ("T.%c ()V", letter);

  for (guint32 m = 0; m < strata_trace_get_n_methods (trace); m++)
    if (g_str_equal (strata_trace_get_method_name (trace, m), name))
      return m;
  g_assert_not_reached ();
}

/* Tracing began inside b, called from a: a and b are taken to have begun
 * when tracing did, so the calls before their exits hang under a -> b,
 * and a's later call is merged with the first a. Each node's children
 * are ordered largest first. */
static void
test_call_tree_began_inside (void)
{
  g_autoptr(StrataTrace) trace = load_script ("+c@0 +d@2 -d@5 -c@10 -b@12 +c@20 -c@50 -a@60 "
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
  g_assert_cmpuint (strata_call_tree_get_method (tree, node), ==, method_named (trace, 'a'));
  g_assert_cmpint (strata_call_tree_get_total (tree, node, 0), ==, (60 + 30) * 1000);
  /* a -> c -> d: the c entered under a at 71, and the d under it. */
  codes[0] = method_named (trace, 'a');
  codes[1] = method_named (trace, 'c');
  codes[2] = method_named (trace, 'd');
  node = strata_call_tree_find_codes (tree, codes, 3);
  g_assert_cmpuint (node, !=, STRATA_CALL_TREE_NONE);
  a_c_d = strata_call_tree_dup_path (tree, node, ";");
  g_assert_cmpstr (a_c_d, ==, "T.a ()V;T.c ()V;T.d ()V");
  g_assert_cmpint (strata_call_tree_get_total (tree, node, 0), ==, 18000);
}

/* The tree as "path=total(self)" lines, µs, for comparing by eye. */
static char *
describe (StrataCallTree *tree)
{
  GString *out = g_string_new (NULL);

  for (guint32 v = 1; v < strata_call_tree_get_n_nodes (tree); v++)
    {
      g_autofree char *path = strata_call_tree_dup_path (tree, v, "/");

      g_string_append_printf (out, "%s=%" G_GINT64_FORMAT "(%" G_GINT64_FORMAT ") ", path,
                              strata_call_tree_get_total (tree, v, 0) / 1000, strata_call_tree_get_self (tree, v, 0) / 1000);
    }
  return g_string_free (out, FALSE);
}

static char *
transformed (StrataCallTree            *tree,
             StrataCallTransformKind    kind,
             guint32                    method,
             const char                *prefix)
{
  StrataCallTransform transform = { kind, method, STRATA_CALL_TREE_NONE, prefix };
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataCallTree) result = strata_call_tree_transform (tree, &transform, NULL, &error);
  g_autofree char *text = NULL;

  g_assert_no_error (error);
  text = describe (result);
  /* Names shortened: "T.a ()V" -> "a". */
  {
    g_autoptr(GString) out = g_string_new (text);

    g_string_replace (out, "T.", "", 0);
    g_string_replace (out, " ()V", "", 0);
    return g_string_free (g_steal_pointer (&out), FALSE);
  }
}

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
    codes[i] = method_named (trace, names[i][0]);
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
  g_autoptr(StrataTrace) trace = load_script ("+a@0 +b@10 +c@20 -c@50 -b@60 +c@60 -c@80 +d@80 +c@82 +c@84 -c@90 -c@95 -d@96 -a@100");
  g_autoptr(StrataCallTree) tree = strata_call_tree_new (trace, -1, FALSE, NULL, NULL, NULL);
  guint32 b = method_named (trace, 'b'), c = method_named (trace, 'c'), d = method_named (trace, 'd');
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
  g_autoptr(StrataTrace) trace = load_script ("+a@0 +b@10 +c@20 -c@50 -b@60 +c@60 -c@80 +d@80 +c@82 +c@84 -c@90 -c@95 -d@96 -a@100");
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataCallTree) tree = strata_call_tree_new (trace, -1, FALSE, NULL, NULL, &error);
  guint32 b = method_named (trace, 'b'), c = method_named (trace, 'c'), d = method_named (trace, 'd');
  g_autofree char *text = NULL;

  g_assert_no_error (error);
  text = transformed (tree, STRATA_CALL_TRANSFORM_MERGE_FUNCTION, b, NULL);
  g_assert_cmpstr (text, ==, "a=100(34) a/c=50(50) a/d=16(3) a/d/c=13(7) a/d/c/c=6(6) ");
  g_clear_pointer (&text, g_free);
  text = transformed (tree, STRATA_CALL_TRANSFORM_FOCUS_FUNCTION, c, NULL);
  g_assert_cmpstr (text, ==, "c=63(57) c/c=6(6) ");
  g_clear_pointer (&text, g_free);
  text = transformed (tree, STRATA_CALL_TRANSFORM_DROP_FUNCTION, d, NULL);
  g_assert_cmpstr (text, ==, "a=84(14) a/b=50(20) a/c=20(20) a/b/c=30(30) ");
  g_clear_pointer (&text, g_free);
  text = transformed (tree, STRATA_CALL_TRANSFORM_COLLAPSE_RECURSION, c, NULL);
  g_assert_cmpstr (text, ==, "a=100(14) a/b=50(20) a/c=20(20) a/d=16(3) a/b/c=30(30) a/d/c=13(13) ");
  g_clear_pointer (&text, g_free);
  text = transformed (tree, STRATA_CALL_TRANSFORM_COLLAPSE_PREFIX, 0, "T.");
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
    text = describe (result);
    g_assert_cmpstr (text, ==, "T.b ()V=50(20) T.b ()V/T.c ()V=30(30) ");
    g_assert_cmpstr (described, ==, "Focus on subtree: T.b ()V");
  }
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
  g_test_add_func ("/call-tree/transforms", test_call_tree_transforms);
  g_test_add_func ("/call-tree/follow", test_call_tree_follow);
  g_test_add_func ("/call-tree/corpus", test_call_tree_corpus);
  return g_test_run ();
}
