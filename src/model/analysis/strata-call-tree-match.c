/* strata-call-tree-match.c: the same call paths in two traces' call trees
 *
 * A differential flame graph colours each path of the current trace by how
 * its time changed from a baseline's. Paths are matched name by name from
 * the root: methods through the comparison's rows (so by signature or by
 * name, as it matches), thread and collapsed-package nodes by their text.
 * The baseline's tree is shaped as the current one is: the same thread,
 * the same transforms (their methods found by name), the same direction.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-call-tree-match.h"
#include "strata-id-map.h"

typedef struct
{
  StrataComparison *comparison;
  GHashTable       *texts;     /* node text → key, for nodes that are not methods */
  guint             n_rows;
} Keys;

/* A method's key is its comparison row; any other node's, its text's. */
static guint32
node_key (Keys           *keys,
          StrataCallTree *tree,
          StrataSide      side,
          guint32         node)
{
  StrataTrace *trace = strata_call_tree_get_trace (tree);
  guint32 method = strata_call_tree_get_method (tree, node);
  g_autofree char *text = NULL;
  gpointer found;

  if (method != STRATA_CALL_TREE_NONE && method < strata_trace_get_n_methods (trace))
    {
      guint row = strata_comparison_find_row (keys->comparison, side, method);
      /* Never called in the profile, so no row: matches nothing. */
      return row != STRATA_COMPARISON_ABSENT ? row : G_MAXUINT32;
    }
  text = strata_call_tree_dup_name (tree, node);
  if ((found = g_hash_table_lookup (keys->texts, text)) == NULL)
    {
      found = GUINT_TO_POINTER (keys->n_rows + g_hash_table_size (keys->texts) + 1);
      g_hash_table_insert (keys->texts, g_steal_pointer (&text), found);
    }
  return GPOINTER_TO_UINT (found);
}

static guint64
child_key (guint32 parent,
           guint32 key)
{
  return ((guint64) parent << 32) | key;
}

/**
 * strata_call_tree_match_nodes:
 * @current: a tree of the comparison's current trace
 * @baseline: a tree of its baseline, of the same kind
 *
 * Returns: (transfer full) (nullable): for each node of @current, the
 *   node of @baseline on the same path, or %STRATA_CALL_TREE_NONE; %NULL
 *   when cancelled
 */
guint32 *
strata_call_tree_match_nodes (StrataCallTree   *current,
                              StrataCallTree   *baseline,
                              StrataComparison *comparison,
                              GCancellable     *cancellable)
{
  Keys keys = { comparison, g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
                strata_comparison_get_n_rows (comparison) };
  g_autoptr(GHashTable) children = g_hash_table_new_full (strata_int64_hash, g_int64_equal, g_free, NULL);
  guint32 n = strata_call_tree_get_n_nodes (current);
  guint32 *match = g_new (guint32, MAX (n, 1));

  for (guint32 node = 1; node < strata_call_tree_get_n_nodes (baseline); node++)
    {
      gint64 *key = g_new (gint64, 1);

      *key = child_key (strata_call_tree_get_parent (baseline, node),
                        node_key (&keys, baseline, STRATA_SIDE_BASELINE, node));
      g_hash_table_insert (children, key, GUINT_TO_POINTER (node));
      if ((node & 0xffff) == 0 && g_cancellable_is_cancelled (cancellable))
        break;
    }
  /* Breadth first: a node's parent is matched before it. */
  match[STRATA_CALL_TREE_ROOT] = STRATA_CALL_TREE_ROOT;
  for (guint32 node = 1; node < n; node++)
    {
      guint32 parent = match[strata_call_tree_get_parent (current, node)];
      gint64 key;
      gpointer found;

      match[node] = STRATA_CALL_TREE_NONE;
      if (parent == STRATA_CALL_TREE_NONE)
        continue;
      key = child_key (parent, node_key (&keys, current, STRATA_SIDE_CURRENT, node));
      if (g_hash_table_lookup_extended (children, &key, NULL, &found))
        match[node] = GPOINTER_TO_UINT (found);
    }
  g_hash_table_unref (keys.texts);
  if (g_cancellable_is_cancelled (cancellable))
    g_clear_pointer (&match, g_free);
  return match;
}

static guint32
baseline_method (StrataComparison *comparison,
                 guint32           method)
{
  guint row = strata_comparison_find_row (comparison, STRATA_SIDE_CURRENT, method);

  return row == STRATA_COMPARISON_ABSENT ? STRATA_COMPARISON_ABSENT
                                         : strata_comparison_get_row (comparison, row)->index[STRATA_SIDE_BASELINE];
}

/**
 * strata_call_transform_to_baseline:
 * @translated: (out): @transform for the baseline's tree; its codes, if
 *   any, are newly allocated
 *
 * Returns: %FALSE when the baseline has no such method: the transform
 *   then changes nothing there (merging, collapsing or dropping a method
 *   it never called), or leaves nothing to match (focusing on one)
 */
gboolean
strata_call_transform_to_baseline (const StrataCallTransform *transform,
                                   StrataComparison          *comparison,
                                   StrataCallTransform       *translated)
{
  *translated = *transform;
  translated->codes = NULL;
  if (transform->kind == STRATA_CALL_TRANSFORM_COLLAPSE_PREFIX)
    return TRUE;
  if (transform->kind == STRATA_CALL_TRANSFORM_FOCUS_SUBTREE)
    {
      translated->codes = g_new (guint32, MAX (transform->n_codes, 1));
      for (guint i = 0; i < transform->n_codes; i++)
        if ((translated->codes[i] = baseline_method (comparison, transform->codes[i])) == STRATA_COMPARISON_ABSENT)
          {
            g_clear_pointer (&translated->codes, g_free);
            return FALSE;
          }
      return TRUE;
    }
  translated->method = baseline_method (comparison, transform->method);
  return translated->method != STRATA_COMPARISON_ABSENT;
}

static int
baseline_thread (StrataComparison *comparison,
                 int               thread)
{
  StrataTrace *trace = strata_comparison_get_trace (comparison, STRATA_SIDE_CURRENT);
  StrataTrace *baseline = strata_comparison_get_trace (comparison, STRATA_SIDE_BASELINE);
  const char *name;

  if (thread < 0)
    return -1;
  name = strata_trace_get_string (trace, strata_trace_get_thread (trace, thread)->name);
  for (guint t = 0; t < strata_trace_get_n_threads (baseline); t++)
    if (g_str_equal (strata_trace_get_string (baseline, strata_trace_get_thread (baseline, t)->name), name))
      return t;
  return -1;
}

/**
 * strata_call_tree_new_baseline:
 * @thread: the current tree's thread, or -1 for all
 * @transforms: those of the current tree, in order
 *
 * The baseline's tree shaped as the current one: for the thread of the
 * same name (or all threads), with the same transforms, bottom up if
 * @inverted.
 *
 * Returns: (transfer full): the tree, or %NULL when cancelled
 */
StrataCallTree *
strata_call_tree_new_baseline (StrataComparison           *comparison,
                               int                         thread,
                               const StrataCallTransform  *transforms,
                               guint                       n_transforms,
                               gboolean                    inverted,
                               GCancellable               *cancellable,
                               GError                    **error)
{
  StrataTrace *baseline = strata_comparison_get_trace (comparison, STRATA_SIDE_BASELINE);
  g_autoptr(StrataCallTree) tree = strata_call_tree_new (baseline, baseline_thread (comparison, thread), FALSE,
                                                         NULL, cancellable, error);

  for (guint i = 0; tree != NULL && i < n_transforms; i++)
    {
      StrataCallTransform translated;
      StrataCallTree *next;

      if (!strata_call_transform_to_baseline (&transforms[i], comparison, &translated))
        continue;
      if (translated.kind == STRATA_CALL_TRANSFORM_FOCUS_SUBTREE)
        translated.node = strata_call_tree_find_codes (tree, translated.codes, translated.n_codes);
      next = translated.node != STRATA_CALL_TREE_NONE || translated.kind != STRATA_CALL_TRANSFORM_FOCUS_SUBTREE
             ? strata_call_tree_transform (tree, &translated, cancellable, error) : NULL;
      g_free (translated.codes);
      if (next == NULL && g_cancellable_is_cancelled (cancellable))
        return NULL;
      if (next != NULL)
        {
          g_object_unref (tree);
          tree = next;
        }
    }
  if (tree != NULL && inverted)
    return strata_call_tree_invert (tree, cancellable, error);
  return g_steal_pointer (&tree);
}

typedef struct
{
  StrataComparison    *comparison;
  StrataCallTree      *current;
  int                  thread;
  GArray              *transforms;  /* StrataCallTransform, prefixes and codes owned */
  guint32             *match;       /* out */
} MatchJob;

static void
match_job_free (MatchJob *job)
{
  g_clear_object (&job->comparison);
  g_clear_object (&job->current);
  g_array_unref (job->transforms);
  g_free (job->match);
  g_free (job);
}

static void
match_thread (GTask        *task,
              gpointer      source,
              gpointer      data,
              GCancellable *cancellable)
{
  MatchJob *job = data;
  GError *error = NULL;
  StrataCallTree *baseline = strata_call_tree_new_baseline (job->comparison, job->thread,
                                                            (const StrataCallTransform *) job->transforms->data,
                                                            job->transforms->len, FALSE, cancellable, &error);

  if (baseline != NULL && (job->match = strata_call_tree_match_nodes (job->current, baseline, job->comparison,
                                                                      cancellable)) != NULL)
    g_task_return_pointer (task, baseline, g_object_unref);
  else if (error != NULL)
    g_task_return_error (task, error);
  else
    {
      g_clear_object (&baseline);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
    }
}

/**
 * strata_call_tree_match_baseline_async:
 * @current: a top-down tree of the comparison's current trace, made for
 *   @thread (-1: all) with @transforms applied in order
 *
 * Makes the baseline's tree shaped as @current and matches their nodes,
 * in a worker.
 */
void
strata_call_tree_match_baseline_async (StrataComparison          *comparison,
                                       StrataCallTree            *current,
                                       int                        thread,
                                       const StrataCallTransform *transforms,
                                       guint                      n_transforms,
                                       GCancellable              *cancellable,
                                       GAsyncReadyCallback        callback,
                                       gpointer                   user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  MatchJob *job = g_new0 (MatchJob, 1);

  job->comparison = g_object_ref (comparison);
  job->current = g_object_ref (current);
  job->thread = thread;
  job->transforms = g_array_sized_new (FALSE, TRUE, sizeof (StrataCallTransform), n_transforms);
  g_array_set_clear_func (job->transforms, strata_call_transform_clear);
  for (guint i = 0; i < n_transforms; i++)
    {
      StrataCallTransform copy = strata_call_transform_copy (&transforms[i]);

      g_array_append_val (job->transforms, copy);
    }
  g_task_set_task_data (task, job, (GDestroyNotify) match_job_free);
  g_task_run_in_thread (task, match_thread);
}

/**
 * strata_call_tree_match_baseline_finish:
 * @match: (out) (transfer full): per node of the current tree, the
 *   baseline's node on the same path, or %STRATA_CALL_TREE_NONE
 *
 * Returns: (transfer full): the baseline's tree, or %NULL when cancelled
 */
StrataCallTree *
strata_call_tree_match_baseline_finish (GAsyncResult  *result,
                                        guint32      **match,
                                        GError       **error)
{
  MatchJob *job = g_task_get_task_data (G_TASK (result));
  StrataCallTree *baseline = g_task_propagate_pointer (G_TASK (result), error);

  *match = baseline != NULL ? g_steal_pointer (&job->match) : NULL;
  return baseline;
}
