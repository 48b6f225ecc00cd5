/* strata-profile.c: the traceview profile, computed from the spans
 *
 * A walk down every thread's call tree, counting recursion the way
 * traceview and dmtracedump do: a call made inside another call to the
 * same method is a recursive call, and its inclusive time is not added
 * again, since the outer call already holds it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-edge-table.h"
#include "strata-profile-sums-private.h"


struct _StrataProfile
{
  GObject             parent_instance;

  StrataTrace        *trace;
  int                 thread;
  gboolean            has_range;
  StrataProfileRange  range;
  guint               n_clocks;
  gint64              total[STRATA_MAX_CLOCKS];
  guint               n_methods;
  StrataProfileEntry *entries;
  StrataEdgeTable    *edges;          /* grouped by caller */
  guint32            *sorted[STRATA_MAX_CLOCKS];

  /* Edge indexes grouped by callee (parents) and by caller (children),
   * made on first use; each group is sorted by time on the first clock,
   * largest first, the first time it is asked for. */
  GMutex              relations_lock;
  guint32            *parent_offsets;
  guint32            *parent_edges;
  guint32            *child_edges;
  guint8             *parents_sorted;  /* per method */
  guint8             *children_sorted;
};

G_DEFINE_FINAL_TYPE (StrataProfile, strata_profile, G_TYPE_OBJECT)

static void
strata_profile_finalize (GObject *object)
{
  StrataProfile *self = (StrataProfile *)object;

  g_clear_object (&self->trace);
  g_clear_pointer (&self->entries, g_free);
  g_clear_pointer (&self->edges, strata_edge_table_free);
  for (guint c = 0; c < STRATA_MAX_CLOCKS; c++)
    g_clear_pointer (&self->sorted[c], g_free);
  g_clear_pointer (&self->parent_offsets, g_free);
  g_clear_pointer (&self->parent_edges, g_free);
  g_clear_pointer (&self->child_edges, g_free);
  g_clear_pointer (&self->parents_sorted, g_free);
  g_clear_pointer (&self->children_sorted, g_free);
  g_mutex_clear (&self->relations_lock);

  G_OBJECT_CLASS (strata_profile_parent_class)->finalize (object);
}

static void
strata_profile_class_init (StrataProfileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = strata_profile_finalize;
}

static void
strata_profile_init (StrataProfile *self)
{
  g_mutex_init (&self->relations_lock);
}

typedef struct
{
  const StrataProfile *profile;
  guint                clock;
} SortContext;

static int
compare_by_inclusive (gconstpointer a,
                      gconstpointer b,
                      gpointer      data)
{
  const SortContext *context = data;
  guint32 ma = *(const guint32 *) a, mb = *(const guint32 *) b;
  gint64 ia = context->profile->entries[ma].inclusive[context->clock];
  gint64 ib = context->profile->entries[mb].inclusive[context->clock];

  if (ia != ib)
    return ia > ib ? -1 : 1;
  return ma < mb ? -1 : ma > mb;
}

static int
compare_edges_by_time (gconstpointer a,
                       gconstpointer b,
                       gpointer      data)
{
  const StrataProfileEdge *edges = data;
  guint32 ea = *(const guint32 *) a, eb = *(const guint32 *) b;
  gint64 ta = edges[ea].time[0], tb = edges[eb].time[0];

  if (ta != tb)
    return ta > tb ? -1 : 1;
  return ea < eb ? -1 : ea > eb;
}

static void
sort_methods (StrataProfile *self)
{
  for (guint c = 0; c < self->n_clocks; c++)
    {
      SortContext context = { self, c };

      self->sorted[c] = g_new (guint32, MAX (self->n_methods, 1));
      for (guint32 m = 0; m < self->n_methods; m++)
        self->sorted[c][m] = m;
      g_qsort_with_data (self->sorted[c], self->n_methods, sizeof (guint32),
                         compare_by_inclusive, &context);
    }
}

/* Edge indexes grouped by callee (CSR layout), in edge order. */
static void
group_parents (StrataProfile *self)
{
  const StrataProfileEdge *edges = self->edges->edges;
  guint n_edges = self->edges->n_edges;
  guint32 *offsets = g_new0 (guint32, self->n_methods + 1);
  guint32 *grouped = g_new (guint32, MAX (n_edges, 1));
  g_autofree guint32 *fill = NULL;

  for (guint i = 0; i < n_edges; i++)
    offsets[edges[i].callee + 1]++;
  for (guint m = 0; m < self->n_methods; m++)
    offsets[m + 1] += offsets[m];

  fill = g_memdup2 (offsets, sizeof (guint32) * (self->n_methods + 1));
  for (guint i = 0; i < n_edges; i++)
    grouped[fill[edges[i].callee]++] = i;

  self->parent_offsets = offsets;
  self->parent_edges = grouped;
}

/* Edges out of each method are already together; this is their order. */
static void
group_children (StrataProfile *self)
{
  guint n_edges = self->edges->n_edges;

  self->child_edges = g_new (guint32, MAX (n_edges, 1));
  for (guint i = 0; i < n_edges; i++)
    self->child_edges[i] = i;
}

/* Sorts one group the first time it is asked for: most groups never are,
 * and sorting all of them costs more than the profile itself. */
static const guint32 *
sorted_group (StrataProfile *self,
              guint32       *group,
              guint          n,
              guint8        *sorted,
              guint32        method)
{
  if (!sorted[method])
    {
      g_qsort_with_data (group, n, sizeof (guint32), compare_edges_by_time, self->edges->edges);
      sorted[method] = TRUE;
    }
  return group;
}

static void
add_thread_totals (StrataProfile      *self,
                   const StrataThread *thread)
{
  gint64 traced[STRATA_MAX_CLOCKS];

  if (thread->spans == NULL)
    return;
  strata_profile_range_traced (self->has_range ? &self->range : NULL, thread, self->n_clocks, traced);
  for (guint c = 0; c < self->n_clocks; c++)
    self->total[c] += traced[c];
}

/* In a range, the other clock's total is a share too; it must hold at
 * least the calls counted in it, or percentages would pass 100. */
static void
cover_toplevel_calls (StrataProfile *self)
{
  gint64 toplevel[STRATA_MAX_CLOCKS] = { 0 };
  guint first;
  guint n = strata_profile_get_edges_from (self, STRATA_PROFILE_TOPLEVEL, &first);

  for (guint i = first; i < first + n; i++)
    for (guint c = 0; c < self->n_clocks; c++)
      toplevel[c] += self->edges->edges[i].time[c];
  for (guint c = 0; c < self->n_clocks; c++)
    self->total[c] = MAX (self->total[c], toplevel[c]);
}

/**
 * strata_profile_new:
 * @thread: a thread index, or -1 for the whole trace
 *
 * Computes the profile in the calling thread, with a helper thread for
 * large traces; see strata_profile_new_async().
 *
 * Returns: (transfer full): the profile, or %NULL when cancelled
 */
StrataProfile *
strata_profile_new (StrataTrace   *trace,
                    int            thread,
                    GCancellable  *cancellable,
                    GError       **error)
{
  return strata_profile_new_for_range (trace, thread, NULL, cancellable, error);
}

/**
 * strata_profile_new_for_range:
 * @range: (nullable): only the calls in this time range, cut at its ends
 *
 * Returns: (transfer full): the profile, or %NULL when cancelled
 */
StrataProfile *
strata_profile_new_for_range (StrataTrace              *trace,
                              int                       thread,
                              const StrataProfileRange *range,
                              GCancellable             *cancellable,
                              GError                  **error)
{
  g_autoptr(StrataProfile) self = NULL;
  StrataProfileSums sums;
  gboolean ok;

  g_return_val_if_fail (STRATA_IS_TRACE (trace), NULL);
  g_return_val_if_fail (thread >= -1 && thread < (int) strata_trace_get_n_threads (trace), NULL);

  self = g_object_new (STRATA_TYPE_PROFILE, NULL);
  self->trace = g_object_ref (trace);
  self->thread = thread;
  self->n_clocks = strata_trace_get_n_clocks (trace);
  self->has_range = range != NULL && range->clock < self->n_clocks;
  if (self->has_range)
    self->range = *range;
  self->n_methods = strata_trace_get_n_methods (trace);

  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    if (thread < 0 || (guint) thread == t)
      add_thread_totals (self, strata_trace_get_thread (trace, t));

  ok = strata_profile_sums_compute (trace, thread, self->has_range ? &self->range : NULL, self->n_clocks,
                                    cancellable, &sums, error);
  self->entries = sums.entries;
  self->edges = sums.edges;
  if (!ok)
    return NULL;

  if (self->has_range)
    cover_toplevel_calls (self);
  sort_methods (self);
  self->parents_sorted = g_new0 (guint8, MAX (self->n_methods, 1));
  self->children_sorted = g_new0 (guint8, MAX (self->n_methods, 1));

  return g_steal_pointer (&self);
}

static void
profile_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  StrataTrace *trace = task_data;
  GError *error = NULL;
  StrataProfile *profile;

  profile = strata_profile_new_for_range (trace, GPOINTER_TO_INT (g_object_get_data (G_OBJECT (task), "thread")),
                                          g_object_get_data (G_OBJECT (task), "range"), cancellable, &error);
  if (profile != NULL)
    g_task_return_pointer (task, profile, g_object_unref);
  else
    g_task_return_error (task, error);
}

/* Profiles take a while on big traces: compute them off the main thread. */
void
strata_profile_new_async (StrataTrace         *trace,
                          int                  thread,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  strata_profile_new_for_range_async (trace, thread, NULL, cancellable, callback, user_data);
}

/* Like strata_profile_new_async(), for the calls in @range. */
void
strata_profile_new_for_range_async (StrataTrace              *trace,
                                    int                       thread,
                                    const StrataProfileRange *range,
                                    GCancellable             *cancellable,
                                    GAsyncReadyCallback       callback,
                                    gpointer                  user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (STRATA_IS_TRACE (trace));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, strata_profile_new_async);
  g_task_set_task_data (task, g_object_ref (trace), g_object_unref);
  g_object_set_data (G_OBJECT (task), "thread", GINT_TO_POINTER (thread));
  if (range != NULL)
    g_object_set_data_full (G_OBJECT (task), "range", g_memdup2 (range, sizeof *range), g_free);
  g_task_run_in_thread (task, profile_thread);
}

/**
 * strata_profile_get_range:
 *
 * Returns: whether the profile covers only a time range (then in @range)
 */
gboolean
strata_profile_get_range (StrataProfile      *self,
                          StrataProfileRange *range)
{
  g_return_val_if_fail (STRATA_IS_PROFILE (self), FALSE);

  if (self->has_range && range != NULL)
    *range = self->range;
  return self->has_range;
}

StrataProfile *
strata_profile_new_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * strata_profile_get_trace:
 *
 * Returns: (transfer none): the trace the profile was made from
 */
StrataTrace *
strata_profile_get_trace (StrataProfile *self)
{
  g_return_val_if_fail (STRATA_IS_PROFILE (self), NULL);

  return self->trace;
}

guint
strata_profile_get_n_clocks (StrataProfile *self)
{
  g_return_val_if_fail (STRATA_IS_PROFILE (self), 1);

  return self->n_clocks;
}

/**
 * strata_profile_get_total:
 *
 * Returns: the time the threads were traced, summed over threads: what
 *   percentages are taken of
 */
gint64
strata_profile_get_total (StrataProfile *self,
                          guint          clock)
{
  g_return_val_if_fail (STRATA_IS_PROFILE (self), 0);
  g_return_val_if_fail (clock < self->n_clocks, 0);

  return self->total[clock];
}

guint
strata_profile_get_n_methods (StrataProfile *self)
{
  g_return_val_if_fail (STRATA_IS_PROFILE (self), 0);

  return self->n_methods;
}

const StrataProfileEntry *
strata_profile_get_entry (StrataProfile *self,
                          guint32        method)
{
  g_return_val_if_fail (STRATA_IS_PROFILE (self), NULL);
  g_return_val_if_fail (method < self->n_methods, NULL);

  return &self->entries[method];
}

/**
 * strata_profile_get_sorted:
 *
 * Returns: (array length=n_methods): every method, by inclusive time on
 *   @clock, largest first (ties by method index)
 */
const guint32 *
strata_profile_get_sorted (StrataProfile *self,
                           guint          clock,
                           guint         *n_methods)
{
  g_return_val_if_fail (STRATA_IS_PROFILE (self), NULL);
  g_return_val_if_fail (clock < self->n_clocks, NULL);

  *n_methods = self->n_methods;
  return self->sorted[clock];
}

guint
strata_profile_get_n_edges (StrataProfile *self)
{
  g_return_val_if_fail (STRATA_IS_PROFILE (self), 0);

  return self->edges->n_edges;
}

const StrataProfileEdge *
strata_profile_get_edge (StrataProfile *self,
                         guint          index)
{
  g_return_val_if_fail (STRATA_IS_PROFILE (self), NULL);
  g_return_val_if_fail (index < self->edges->n_edges, NULL);

  return &self->edges->edges[index];
}

/**
 * strata_profile_get_edge_caller:
 *
 * Returns: the method that made the calls of edge @index, or
 *   %STRATA_PROFILE_TOPLEVEL for calls at the bottom of a stack
 */
guint32
strata_profile_get_edge_caller (StrataProfile *self,
                                guint          index)
{
  const gsize *offsets;
  guint lo = 0, hi;

  g_return_val_if_fail (STRATA_IS_PROFILE (self), STRATA_PROFILE_TOPLEVEL);
  g_return_val_if_fail (index < self->edges->n_edges, STRATA_PROFILE_TOPLEVEL);

  /* The last caller whose edges start at or before @index. */
  offsets = self->edges->offsets;
  hi = self->n_methods;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo + 1) / 2;

      if (offsets[mid] <= index)
        lo = mid;
      else
        hi = mid - 1;
    }
  return lo == self->n_methods ? STRATA_PROFILE_TOPLEVEL : lo;
}

/**
 * strata_profile_get_edges_from:
 * @caller: a method, or %STRATA_PROFILE_TOPLEVEL
 * @first: (out): the index of its first edge
 *
 * The edges out of @caller are the indexes from @first on, in no
 * particular order; strata_profile_get_children() sorts them.
 *
 * Returns: how many there are
 */
guint
strata_profile_get_edges_from (StrataProfile *self,
                               guint32        caller,
                               guint         *first)
{
  guint c;

  g_return_val_if_fail (STRATA_IS_PROFILE (self), 0);
  g_return_val_if_fail (caller < self->n_methods || caller == STRATA_PROFILE_TOPLEVEL, 0);

  c = caller == STRATA_PROFILE_TOPLEVEL ? self->n_methods : caller;
  *first = self->edges->offsets[c];
  return self->edges->offsets[c + 1] - self->edges->offsets[c];
}

/**
 * strata_profile_get_parents:
 *
 * Returns: (array length=n_edges): indexes of the edges into @method,
 *   largest first; calls from the bottom of a stack come from
 *   %STRATA_PROFILE_TOPLEVEL
 */
const guint32 *
strata_profile_get_parents (StrataProfile *self,
                            guint32        method,
                            guint         *n_edges)
{
  const guint32 *group;

  g_return_val_if_fail (STRATA_IS_PROFILE (self), NULL);
  g_return_val_if_fail (method < self->n_methods, NULL);

  g_mutex_lock (&self->relations_lock);
  if (self->parent_edges == NULL)
    group_parents (self);
  *n_edges = self->parent_offsets[method + 1] - self->parent_offsets[method];
  group = sorted_group (self, self->parent_edges + self->parent_offsets[method], *n_edges,
                        self->parents_sorted, method);
  g_mutex_unlock (&self->relations_lock);
  return group;
}

/**
 * strata_profile_get_children:
 *
 * Returns: (array length=n_edges): indexes of the edges out of @method,
 *   largest first
 */
const guint32 *
strata_profile_get_children (StrataProfile *self,
                             guint32        method,
                             guint         *n_edges)
{
  const guint32 *group;
  guint first;

  g_return_val_if_fail (STRATA_IS_PROFILE (self), NULL);
  g_return_val_if_fail (method < self->n_methods, NULL);

  g_mutex_lock (&self->relations_lock);
  if (self->child_edges == NULL)
    group_children (self);
  *n_edges = strata_profile_get_edges_from (self, method, &first);
  group = sorted_group (self, self->child_edges + first, *n_edges, self->children_sorted, method);
  g_mutex_unlock (&self->relations_lock);
  return group;
}
