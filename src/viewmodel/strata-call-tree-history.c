/* strata-call-tree-history.c: the call tree a session shows, and its transforms
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-call-tree-history.h"

struct _StrataCallTreeHistory
{
  GObject                 parent_instance;

  GCancellable           *cancellable;         /* the tree being merged */
  GCancellable           *derive_cancellable;  /* transforms and the inversion, in a worker */
  GArray                 *pending;       /* StrataCallTransform: asked for while one is made */
  StrataCallTree         *tree;          /* top down, after the transforms */
  StrataCallTree         *inverted;      /* bottom up, made when first shown */
  gboolean                show_inverted;
  /* The transforms applied, oldest first, and the tree before each: the
   * last one can be undone. */
  GPtrArray              *trees;         /* StrataCallTree: [0] as merged */
  GArray                 *transforms;    /* StrataCallTransform, prefixes owned */
  /* Where the user was before each transform (or NULL), for going back
   * to it; and where they are as one is made, to follow. */
  GPtrArray              *places;
  StrataCallTreePlace    *follow;
  /* Where the user was when the tree went to be merged anew (another
   * range or thread), in the shape shown then: found again once the new
   * tree has the same transforms. */
  StrataCallTreePlace    *remerged;
  StrataTrace            *merged_trace;  /* the trace the transforms are about */
  int                     thread;        /* the thread merged, or -1 for all or several */
  guint                   n_threads;     /* the threads merged, 0 for all */
  StrataCallTreePlaceFunc place_func;
  gpointer                place_data;
};

G_DEFINE_FINAL_TYPE (StrataCallTreeHistory, strata_call_tree_history, G_TYPE_OBJECT)

enum {
  CHANGED,
  REVEAL,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static StrataCallTreePlace *
current_place (StrataCallTreeHistory *self)
{
  return self->place_func != NULL ? self->place_func (self->place_data) : NULL;
}

static void
reveal (StrataCallTreeHistory *self,
        StrataCallTreePlace   *place)
{
  if (place != NULL)
    g_signal_emit (self, signals[REVEAL], 0, place);
}

static GArray *
transform_array_new (void)
{
  GArray *array = g_array_new (FALSE, FALSE, sizeof (StrataCallTransform));

  g_array_set_clear_func (array, strata_call_transform_clear);
  return array;
}

/* Moves the transforms of @from to the end of @to. */
static void
move_transforms (GArray *to,
                 GArray *from)
{
  g_array_append_vals (to, from->data, from->len);
  for (guint i = 0; i < from->len; i++)
    {
      g_array_index (from, StrataCallTransform, i).prefix = NULL;
      g_array_index (from, StrataCallTransform, i).codes = NULL;
    }
  g_array_set_size (from, 0);
}

/* A place for each transform: none known for those without. */
static void
sync_places (StrataCallTreeHistory *self)
{
  while (self->places->len > self->transforms->len)
    g_ptr_array_set_size (self->places, self->transforms->len);
  while (self->places->len < self->transforms->len)
    g_ptr_array_add (self->places, NULL);
}

/* ---- Deriving: transforms and the inversion, in a worker ----
 *
 * On a trace of millions of paths a transform or the bottom-up roots take
 * about a second: the tree on show stays while they are made, transforms
 * wait, and a newer request cancels an older one. */

typedef struct
{
  StrataCallTree *from;
  GArray         *transforms;   /* StrataCallTransform: to apply, in order */
  gboolean        invert;
  GPtrArray      *trees;        /* out: a tree per transform applied */
  GArray         *applied;      /* out: those transforms */
  StrataCallTree *inverted;     /* out: the last tree bottom up, if asked */
} DeriveJob;

static void
derive_job_free (DeriveJob *job)
{
  g_clear_object (&job->from);
  g_clear_pointer (&job->transforms, g_array_unref);
  g_clear_pointer (&job->trees, g_ptr_array_unref);
  g_clear_pointer (&job->applied, g_array_unref);
  g_clear_object (&job->inverted);
  g_free (job);
}

/* A focus on a subtree whose path the tree has not is left out. */
static void
derive_thread (GTask        *task,
               gpointer      source,
               gpointer      data,
               GCancellable *cancellable)
{
  DeriveJob *job = data;
  StrataCallTree *last = job->from;
  GError *error = NULL;

  for (guint i = 0; i < job->transforms->len; i++)
    {
      StrataCallTransform transform = strata_call_transform_copy (&g_array_index (job->transforms, StrataCallTransform, i));
      StrataCallTree *result;

      if (transform.kind == STRATA_CALL_TRANSFORM_FOCUS_SUBTREE &&
          ((transform.node = strata_call_tree_find_codes (last, transform.codes, transform.n_codes)) == STRATA_CALL_TREE_NONE ||
           transform.node == STRATA_CALL_TREE_ROOT))
        {
          strata_call_transform_clear (&transform);
          continue;
        }
      if ((result = strata_call_tree_transform (last, &transform, cancellable, &error)) == NULL)
        {
          strata_call_transform_clear (&transform);
          g_task_return_error (task, error);
          return;
        }
      g_ptr_array_add (job->trees, result);
      g_array_append_val (job->applied, transform);
      last = result;
    }
  if (job->invert && (job->inverted = strata_call_tree_invert (last, cancellable, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_boolean (task, TRUE);
}

/* After a transform, the place followed goes through each tree the job
 * made; each place it passes is kept for going back. */
static StrataCallTreePlace *
follow_place (StrataCallTreeHistory *self,
              DeriveJob             *job)
{
  StrataCallTreePlace *follow = g_steal_pointer (&self->follow);
  StrataCallTree *from = job->from;

  sync_places (self);
  for (guint i = 0; i < job->trees->len; i++)
    {
      StrataCallTree *to = g_ptr_array_index (job->trees, i);
      StrataCallTreePlace *kept = NULL;

      if (follow != NULL)
        {
          kept = strata_call_tree_place_copy (follow);
          strata_call_tree_place_follow (follow, from, &g_array_index (job->applied, StrataCallTransform, i), to);
        }
      g_ptr_array_add (self->places, kept);
      from = to;
    }
  return follow;
}

static void
show_latest_tree (StrataCallTreeHistory *self,
                  StrataCallTree        *inverted)
{
  StrataCallTree *latest = self->trees->len > 0 ? g_ptr_array_index (self->trees, self->trees->len - 1) : NULL;

  g_set_object (&self->tree, latest);
  g_set_object (&self->inverted, inverted);
  g_signal_emit (self, signals[CHANGED], 0);
  if (latest != NULL && self->remerged != NULL)
    {
      g_autoptr(StrataCallTreePlace) remerged = g_steal_pointer (&self->remerged);

      reveal (self, remerged);
    }
}

static void derive (StrataCallTreeHistory *self,
                    GArray                *transforms);

static void
derive_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(StrataCallTreeHistory) self = user_data;
  DeriveJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(StrataCallTreePlace) followed = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), NULL))
    return;  /* cancelled: a newer request or the history went */
  g_clear_object (&self->derive_cancellable);
  for (guint i = 0; i < job->trees->len; i++)
    g_ptr_array_add (self->trees, g_object_ref (g_ptr_array_index (job->trees, i)));
  followed = follow_place (self, job);
  move_transforms (self->transforms, job->applied);
  show_latest_tree (self, job->inverted);
  reveal (self, followed);
  if (self->pending->len > 0)
    {
      GArray *next = g_steal_pointer (&self->pending);

      self->pending = transform_array_new ();
      derive (self, next);
    }
}

static void
cancel (GCancellable **cancellable)
{
  if (*cancellable != NULL)
    g_cancellable_cancel (*cancellable);
  g_clear_object (cancellable);
}

/* Applies @transforms (taken) to the latest tree and, when bottom up is
 * shown, inverts the result, in a worker; without work, shows at once. */
static void
derive (StrataCallTreeHistory *self,
        GArray                *transforms)
{
  StrataCallTree *latest = self->trees->len > 0 ? g_ptr_array_index (self->trees, self->trees->len - 1) : NULL;
  g_autoptr(GArray) owned = transforms;
  g_autoptr(GTask) task = NULL;
  DeriveJob *job;

  cancel (&self->derive_cancellable);
  if (latest == NULL || (owned->len == 0 && !self->show_inverted))
    {
      show_latest_tree (self, NULL);
      return;
    }
  job = g_new0 (DeriveJob, 1);
  job->from = g_object_ref (latest);
  job->transforms = g_steal_pointer (&owned);
  job->invert = self->show_inverted;
  job->trees = g_ptr_array_new_with_free_func (g_object_unref);
  job->applied = transform_array_new ();
  self->derive_cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->derive_cancellable, derive_done_cb, g_object_ref (self));
  g_task_set_task_data (task, job, (GDestroyNotify) derive_job_free);
  g_task_run_in_thread (task, derive_thread);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* The tree the transforms start from (or none). The transforms carry over
 * to it when the same trace is merged again (another thread or range); a
 * focus on a subtree, on the node with the same path, and is dropped where
 * the new tree has no such path. */
static void
set_base_tree (StrataCallTreeHistory *self,
               StrataCallTree        *tree,
               gboolean               keep_transforms)
{
  GArray *kept = transform_array_new ();

  cancel (&self->derive_cancellable);
  if (!keep_transforms)
    g_clear_pointer (&self->remerged, strata_call_tree_place_free);
  else if (tree == NULL && self->remerged == NULL && self->tree != NULL)
    self->remerged = current_place (self);
  if (keep_transforms)
    {
      move_transforms (kept, self->transforms);
      /* Those asked for meanwhile come after. */
      move_transforms (kept, self->pending);
    }
  g_array_set_size (self->pending, 0);
  g_ptr_array_set_size (self->trees, 0);
  g_array_set_size (self->transforms, 0);
  g_ptr_array_set_size (self->places, 0);
  g_clear_pointer (&self->follow, strata_call_tree_place_free);
  if (tree == NULL)
    {
      /* Kept for the tree being merged. */
      move_transforms (self->transforms, kept);
      g_array_unref (kept);
      show_latest_tree (self, NULL);
      return;
    }
  g_ptr_array_add (self->trees, g_object_ref (tree));
  g_clear_object (&self->tree);
  g_clear_object (&self->inverted);
  derive (self, kept);
}

/* ---- Merging ---- */

typedef struct
{
  StrataTrace        *trace;
  guint              *threads;   /* NULL for all */
  guint               n_threads;
  gboolean            has_range;
  StrataProfileRange  range;
} MergeJob;

static void
merge_job_free (MergeJob *job)
{
  g_clear_object (&job->trace);
  g_free (job->threads);
  g_free (job);
}

static void
merge_thread (GTask        *task,
              gpointer      source,
              gpointer      data,
              GCancellable *cancellable)
{
  MergeJob *job = data;
  GError *error = NULL;
  StrataCallTree *tree = strata_call_tree_new_for_threads (job->trace, job->threads, job->n_threads, FALSE,
                                                           job->has_range ? &job->range : NULL, cancellable, &error);

  if (tree == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, tree, g_object_unref);
}

static void
merged_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(StrataCallTreeHistory) self = user_data;
  g_autoptr(StrataCallTree) tree = g_task_propagate_pointer (G_TASK (result), NULL);

  if (tree == NULL)
    return;  /* cancelled: a newer merge or the history went */
  g_clear_object (&self->cancellable);
  set_base_tree (self, tree, TRUE);
}

/**
 * strata_call_tree_history_merge:
 * @trace: (nullable): the trace, or none
 * @thread: the thread's index, or -1 for all threads
 * @range: (nullable): the time range to merge, or all of it
 *
 * Merges the tree anew in a worker. The transforms carry over when the
 * trace is the same one; another trace's methods are others, and its
 * transforms go.
 */
void
strata_call_tree_history_merge (StrataCallTreeHistory    *self,
                                StrataTrace              *trace,
                                int                       thread,
                                const StrataProfileRange *range)
{
  guint one = (guint) thread;

  strata_call_tree_history_merge_threads (self, trace, thread >= 0 ? &one : NULL, thread >= 0 ? 1 : 0, range);
}

/**
 * strata_call_tree_history_merge_threads:
 * @threads: (array length=n_threads) (nullable): thread indexes
 * @n_threads: how many; 0 for all threads
 *
 * As strata_call_tree_history_merge(), the calls of several threads
 * merged; the history's thread is then -1, as for all of them.
 */
void
strata_call_tree_history_merge_threads (StrataCallTreeHistory    *self,
                                        StrataTrace              *trace,
                                        const guint              *threads,
                                        guint                     n_threads,
                                        const StrataProfileRange *range)
{
  g_autoptr(GTask) task = NULL;
  MergeJob *job;

  g_return_if_fail (STRATA_IS_CALL_TREE_HISTORY (self));

  cancel (&self->cancellable);
  set_base_tree (self, NULL, trace == self->merged_trace);
  g_set_object (&self->merged_trace, trace);
  self->thread = n_threads == 1 ? (int) threads[0] : -1;
  self->n_threads = n_threads;
  if (trace == NULL || strata_trace_get_n_spans (trace) == 0)
    return;
  job = g_new0 (MergeJob, 1);
  job->trace = g_object_ref (trace);
  job->threads = n_threads > 0 ? g_memdup2 (threads, n_threads * sizeof (guint)) : NULL;
  job->n_threads = n_threads;
  job->has_range = range != NULL;
  if (range != NULL)
    job->range = *range;
  self->cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->cancellable, merged_cb, g_object_ref (self));
  g_task_set_task_data (task, job, (GDestroyNotify) merge_job_free);
  g_task_run_in_thread (task, merge_thread);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* ---- The object ---- */

static void
strata_call_tree_history_dispose (GObject *object)
{
  StrataCallTreeHistory *self = STRATA_CALL_TREE_HISTORY (object);

  cancel (&self->cancellable);
  cancel (&self->derive_cancellable);
  g_clear_pointer (&self->trees, g_ptr_array_unref);
  g_clear_pointer (&self->places, g_ptr_array_unref);
  g_clear_pointer (&self->follow, strata_call_tree_place_free);
  g_clear_pointer (&self->remerged, strata_call_tree_place_free);
  g_clear_pointer (&self->transforms, g_array_unref);
  g_clear_pointer (&self->pending, g_array_unref);
  g_clear_object (&self->tree);
  g_clear_object (&self->inverted);
  g_clear_object (&self->merged_trace);
  G_OBJECT_CLASS (strata_call_tree_history_parent_class)->dispose (object);
}

static void
strata_call_tree_history_class_init (StrataCallTreeHistoryClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = strata_call_tree_history_dispose;

  /**
   * StrataCallTreeHistory::changed:
   *
   * The tree shown, the transforms or the state changed.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 0);
  /**
   * StrataCallTreeHistory::reveal:
   * @place: (type gpointer): a StrataCallTreePlace, valid during the emission
   *
   * Where the user should be now in the tree shown: the place followed
   * through a transform, the one before a transform undone, or the one
   * before the tree was merged anew.
   */
  signals[REVEAL] = g_signal_new ("reveal", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 1, G_TYPE_POINTER);
}

static void
strata_call_tree_history_init (StrataCallTreeHistory *self)
{
  self->trees = g_ptr_array_new_with_free_func (g_object_unref);
  self->places = g_ptr_array_new_with_free_func ((GDestroyNotify) strata_call_tree_place_free);
  self->transforms = transform_array_new ();
  self->pending = transform_array_new ();
  self->thread = -1;
}

StrataCallTreeHistory *
strata_call_tree_history_new (void)
{
  return g_object_new (STRATA_TYPE_CALL_TREE_HISTORY, NULL);
}

/**
 * strata_call_tree_history_set_place_func:
 *
 * Where the user is is asked of @func before a transform (to follow it
 * and to go back to it) and before the tree is merged anew.
 */
void
strata_call_tree_history_set_place_func (StrataCallTreeHistory  *self,
                                         StrataCallTreePlaceFunc func,
                                         gpointer                data)
{
  g_return_if_fail (STRATA_IS_CALL_TREE_HISTORY (self));

  self->place_func = func;
  self->place_data = data;
}

/* Bottom up: the last tree inverted, made when first asked for. */
void
strata_call_tree_history_set_inverted (StrataCallTreeHistory *self,
                                       gboolean               inverted)
{
  g_return_if_fail (STRATA_IS_CALL_TREE_HISTORY (self));

  inverted = !!inverted;
  if (self->show_inverted == inverted)
    return;
  self->show_inverted = inverted;
  if (inverted && self->inverted == NULL && self->tree != NULL)
    derive (self, transform_array_new ());
  else
    g_signal_emit (self, signals[CHANGED], 0);
}

gboolean
strata_call_tree_history_get_inverted (StrataCallTreeHistory *self)
{
  g_return_val_if_fail (STRATA_IS_CALL_TREE_HISTORY (self), FALSE);

  return self->show_inverted;
}

/**
 * strata_call_tree_history_apply:
 *
 * Reshapes the tree (top down, bottom up and flame graph alike) in a
 * worker; "changed" says when. Where the user is follows the calls, and
 * is handed back with "reveal". Asked for while another is made, it
 * follows that one.
 */
void
strata_call_tree_history_apply (StrataCallTreeHistory     *self,
                                const StrataCallTransform *transform)
{
  GArray *one;
  StrataCallTransform kept;

  g_return_if_fail (STRATA_IS_CALL_TREE_HISTORY (self));

  if (self->tree == NULL)
    return;
  kept = strata_call_transform_copy (transform);
  if (kept.kind == STRATA_CALL_TRANSFORM_FOCUS_SUBTREE && kept.codes == NULL)
    kept.codes = strata_call_tree_dup_codes (self->tree, kept.node, &kept.n_codes);
  if (self->derive_cancellable != NULL)
    {
      g_array_append_val (self->pending, kept);
      return;
    }
  g_clear_pointer (&self->follow, strata_call_tree_place_free);
  self->follow = current_place (self);
  one = transform_array_new ();
  g_array_append_val (one, kept);
  derive (self, one);
}

/* Undoes the last transform; while one is made, the last asked for after
 * it. Where the user was before it is handed back with "reveal". */
void
strata_call_tree_history_pop (StrataCallTreeHistory *self)
{
  g_return_if_fail (STRATA_IS_CALL_TREE_HISTORY (self));

  if (self->pending->len > 0)
    {
      g_array_set_size (self->pending, self->pending->len - 1);
      return;
    }
  if (self->transforms->len == 0 || self->derive_cancellable != NULL)
    return;
  sync_places (self);
  g_clear_pointer (&self->follow, strata_call_tree_place_free);
  self->follow = g_ptr_array_steal_index (self->places, self->places->len - 1);
  g_array_set_size (self->transforms, self->transforms->len - 1);
  g_ptr_array_set_size (self->trees, self->trees->len - 1);
  /* Back where the user was before the transform: at once, or once the
   * tree bottom up is made again. */
  derive (self, transform_array_new ());
  if (self->derive_cancellable == NULL)
    {
      g_autoptr(StrataCallTreePlace) back = g_steal_pointer (&self->follow);

      reveal (self, back);
    }
}

StrataCallTreeState
strata_call_tree_history_get_state (StrataCallTreeHistory *self)
{
  g_return_val_if_fail (STRATA_IS_CALL_TREE_HISTORY (self), STRATA_CALL_TREE_EMPTY);

  if (self->derive_cancellable != NULL && self->trees->len > 0)
    return STRATA_CALL_TREE_RESHAPING;
  if (self->cancellable != NULL)
    return STRATA_CALL_TREE_MERGING;
  if (strata_call_tree_history_get_tree (self) == NULL)
    return self->derive_cancellable != NULL ? STRATA_CALL_TREE_RESHAPING : STRATA_CALL_TREE_EMPTY;
  return self->derive_cancellable != NULL ? STRATA_CALL_TREE_RESHAPING : STRATA_CALL_TREE_READY;
}

gboolean
strata_call_tree_history_is_ready (StrataCallTreeHistory *self)
{
  return strata_call_tree_history_get_state (self) == STRATA_CALL_TREE_READY;
}

/* The tree shown: bottom up or top down. */
StrataCallTree *
strata_call_tree_history_get_tree (StrataCallTreeHistory *self)
{
  g_return_val_if_fail (STRATA_IS_CALL_TREE_HISTORY (self), NULL);

  return self->show_inverted ? self->inverted : self->tree;
}

/* The top-down tree after the transforms, whichever is shown. */
StrataCallTree *
strata_call_tree_history_get_top_down (StrataCallTreeHistory *self)
{
  g_return_val_if_fail (STRATA_IS_CALL_TREE_HISTORY (self), NULL);

  return self->tree;
}

int
strata_call_tree_history_get_thread (StrataCallTreeHistory *self)
{
  g_return_val_if_fail (STRATA_IS_CALL_TREE_HISTORY (self), -1);

  return self->thread;
}

/* Returns: how many threads the tree merges, 0 for all */
guint
strata_call_tree_history_get_n_threads (StrataCallTreeHistory *self)
{
  g_return_val_if_fail (STRATA_IS_CALL_TREE_HISTORY (self), 0);

  return self->n_threads;
}

/* The transforms applied, oldest first. */
const StrataCallTransform *
strata_call_tree_history_get_transforms (StrataCallTreeHistory *self,
                                         guint                 *n_transforms)
{
  g_return_val_if_fail (STRATA_IS_CALL_TREE_HISTORY (self), NULL);

  *n_transforms = self->transforms->len;
  return (const StrataCallTransform *) self->transforms->data;
}

/**
 * strata_call_tree_history_dup_description:
 *
 * Returns: (transfer full) (nullable): the transforms as breadcrumbs,
 *   "Merge a › Drop b", or NULL without any (or while the tree they
 *   apply to is merged again)
 */
char *
strata_call_tree_history_dup_description (StrataCallTreeHistory *self)
{
  GString *text;

  g_return_val_if_fail (STRATA_IS_CALL_TREE_HISTORY (self), NULL);

  if (self->transforms->len == 0 || self->trees->len == 0)
    return NULL;
  text = g_string_new (NULL);
  for (guint i = 0; i < self->transforms->len && i < self->trees->len; i++)
    {
      g_autofree char *step = strata_call_transform_describe (g_ptr_array_index (self->trees, i),
                                                               &g_array_index (self->transforms, StrataCallTransform, i));

      g_string_append_printf (text, "%s%s", i > 0 ? " › " : "", step);
    }
  return g_string_free (text, FALSE);
}
