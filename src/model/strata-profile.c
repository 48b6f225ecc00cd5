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

#include "strata-id-map.h"
#include "strata-profile.h"

#define CANCEL_CHECK_INTERVAL (1u << 16)

struct _StrataProfile
{
  GObject             parent_instance;

  StrataTrace        *trace;
  int                 thread;
  guint               n_clocks;
  gint64              total[STRATA_MAX_CLOCKS];
  guint               n_methods;
  StrataProfileEntry *entries;
  GArray             *edges;          /* StrataProfileEdge */
  guint32            *sorted[STRATA_MAX_CLOCKS];

  /* Edges grouped by callee (parents) and by caller (children), each
   * group sorted by time on the first clock, largest first. */
  guint32            *parent_offsets;
  guint32            *parent_edges;
  guint32            *child_offsets;
  guint32            *child_edges;
};

G_DEFINE_FINAL_TYPE (StrataProfile, strata_profile, G_TYPE_OBJECT)

typedef struct
{
  guint   depth;
  guint32 index;
  guint32 next_child;
  guint32 end_child;
  guint32 method;
  gint64  duration[STRATA_MAX_CLOCKS];
  gint64  children[STRATA_MAX_CLOCKS];
} Visit;

typedef struct
{
  StrataProfile         *self;
  const StrataSpanTable *table;
  StrataIdMap            edge_ids;
  guint32               *on_stack;   /* per method: how many frames of it are open */
  GArray                *visits;     /* Visit */
  guint64                n_visited;
} Walk;

static void
strata_profile_finalize (GObject *object)
{
  StrataProfile *self = (StrataProfile *)object;

  g_clear_object (&self->trace);
  g_clear_pointer (&self->entries, g_free);
  g_clear_pointer (&self->edges, g_array_unref);
  for (guint c = 0; c < STRATA_MAX_CLOCKS; c++)
    g_clear_pointer (&self->sorted[c], g_free);
  g_clear_pointer (&self->parent_offsets, g_free);
  g_clear_pointer (&self->parent_edges, g_free);
  g_clear_pointer (&self->child_offsets, g_free);
  g_clear_pointer (&self->child_edges, g_free);

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
  self->edges = g_array_new (FALSE, TRUE, sizeof (StrataProfileEdge));
}

static StrataProfileEdge *
edge_for (Walk    *walk,
          guint32  caller,
          guint32  callee)
{
  guint64 key = ((guint64) caller << 32) | callee;
  guint32 index = strata_id_map_lookup (&walk->edge_ids, key);
  GArray *edges = walk->self->edges;

  if (index == STRATA_ID_MAP_MISSING)
    {
      StrataProfileEdge edge = { .caller = caller, .callee = callee };

      g_array_append_val (edges, edge);
      index = edges->len - 1;
      strata_id_map_insert (&walk->edge_ids, key, index);
    }
  return &g_array_index (edges, StrataProfileEdge, index);
}

static void
enter_span (Walk    *walk,
            guint    depth,
            guint32  index)
{
  StrataProfile *self = walk->self;
  const StrataSpan *span = &walk->table->spans[depth][index];
  StrataProfileEntry *entry = &self->entries[span->method];
  Visit *parent = walk->visits->len ? &g_array_index (walk->visits, Visit, walk->visits->len - 1) : NULL;
  StrataProfileEdge *edge;
  Visit visit = { .depth = depth, .index = index, .method = span->method };

  for (guint c = 0; c < self->n_clocks; c++)
    {
      visit.duration[c] = strata_span_table_get_end (walk->table, c, depth, index) -
                          strata_span_table_get_start (walk->table, c, depth, index);
      if (parent != NULL)
        parent->children[c] += visit.duration[c];
    }

  if (walk->on_stack[span->method] == 0)
    {
      entry->calls++;
      for (guint c = 0; c < self->n_clocks; c++)
        entry->inclusive[c] += visit.duration[c];
    }
  else
    entry->recursive_calls++;

  edge = edge_for (walk, parent ? parent->method : STRATA_PROFILE_TOPLEVEL, span->method);
  edge->calls++;
  for (guint c = 0; c < self->n_clocks; c++)
    edge->time[c] += visit.duration[c];

  strata_span_table_get_children (walk->table, depth, index, &visit.next_child, &visit.end_child);
  walk->on_stack[span->method]++;
  g_array_append_val (walk->visits, visit);
}

static void
leave_span (Walk *walk)
{
  Visit *visit = &g_array_index (walk->visits, Visit, walk->visits->len - 1);
  StrataProfileEntry *entry = &walk->self->entries[visit->method];

  for (guint c = 0; c < walk->self->n_clocks; c++)
    entry->exclusive[c] += visit->duration[c] - visit->children[c];
  walk->on_stack[visit->method]--;
  g_array_set_size (walk->visits, walk->visits->len - 1);
}

static gboolean
walk_thread (Walk          *walk,
             GCancellable  *cancellable,
             GError       **error)
{
  const StrataSpanTable *table = walk->table;

  for (guint32 root = 0; root < table->n_spans[0]; root++)
    {
      enter_span (walk, 0, root);
      while (walk->visits->len > 0)
        {
          Visit *top = &g_array_index (walk->visits, Visit, walk->visits->len - 1);

          if (top->next_child < top->end_child)
            enter_span (walk, top->depth + 1, top->next_child++);
          else
            leave_span (walk);

          if (G_UNLIKELY (++walk->n_visited % CANCEL_CHECK_INTERVAL == 0) &&
              g_cancellable_set_error_if_cancelled (cancellable, error))
            return FALSE;
        }
    }
  return TRUE;
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
  const StrataProfile *profile = data;
  const StrataProfileEdge *edges = (const StrataProfileEdge *) profile->edges->data;
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

/* Groups edge indexes by one end (CSR layout), each group sorted by time. */
static void
group_edges (StrataProfile  *self,
             gboolean        by_callee,
             guint32       **offsets_out,
             guint32       **edges_out)
{
  const StrataProfileEdge *edges = (const StrataProfileEdge *) self->edges->data;
  guint32 *offsets = g_new0 (guint32, self->n_methods + 1);
  guint32 *grouped = g_new (guint32, MAX (self->edges->len, 1));
  g_autofree guint32 *fill = NULL;

  for (guint i = 0; i < self->edges->len; i++)
    {
      guint32 key = by_callee ? edges[i].callee : edges[i].caller;

      if (key != STRATA_PROFILE_TOPLEVEL)
        offsets[key + 1]++;
    }
  for (guint m = 0; m < self->n_methods; m++)
    offsets[m + 1] += offsets[m];

  fill = g_memdup2 (offsets, sizeof (guint32) * (self->n_methods + 1));
  for (guint i = 0; i < self->edges->len; i++)
    {
      guint32 key = by_callee ? edges[i].callee : edges[i].caller;

      if (key != STRATA_PROFILE_TOPLEVEL)
        grouped[fill[key]++] = i;
    }

  for (guint m = 0; m < self->n_methods; m++)
    g_qsort_with_data (grouped + offsets[m], offsets[m + 1] - offsets[m], sizeof (guint32),
                       compare_edges_by_time, self);

  *offsets_out = offsets;
  *edges_out = grouped;
}

static void
add_thread_totals (StrataProfile      *self,
                   const StrataThread *thread)
{
  if (thread->spans == NULL)
    return;
  for (guint c = 0; c < self->n_clocks; c++)
    self->total[c] += thread->last_time[c] - thread->first_time[c];
}

/**
 * strata_profile_new:
 * @thread: a thread index, or -1 for the whole trace
 *
 * Computes the profile in the calling thread; see strata_profile_new_async().
 *
 * Returns: (transfer full): the profile, or %NULL when cancelled
 */
StrataProfile *
strata_profile_new (StrataTrace   *trace,
                    int            thread,
                    GCancellable  *cancellable,
                    GError       **error)
{
  g_autoptr(StrataProfile) self = NULL;
  g_autofree guint32 *on_stack = NULL;
  Walk walk = { 0 };
  gboolean ok = TRUE;

  g_return_val_if_fail (STRATA_IS_TRACE (trace), NULL);
  g_return_val_if_fail (thread >= -1 && thread < (int) strata_trace_get_n_threads (trace), NULL);

  self = g_object_new (STRATA_TYPE_PROFILE, NULL);
  self->trace = g_object_ref (trace);
  self->thread = thread;
  self->n_clocks = strata_trace_get_n_clocks (trace);
  self->n_methods = strata_trace_get_n_methods (trace);
  self->entries = g_new0 (StrataProfileEntry, MAX (self->n_methods, 1));

  on_stack = g_new0 (guint32, MAX (self->n_methods, 1));
  walk.self = self;
  walk.on_stack = on_stack;
  walk.visits = g_array_new (FALSE, FALSE, sizeof (Visit));
  strata_id_map_init (&walk.edge_ids);

  for (guint t = 0; ok && t < strata_trace_get_n_threads (trace); t++)
    {
      const StrataThread *info = strata_trace_get_thread (trace, t);

      if ((thread >= 0 && (guint) thread != t) || info->spans == NULL)
        continue;
      add_thread_totals (self, info);
      walk.table = info->spans;
      ok = walk_thread (&walk, cancellable, error);
    }

  g_array_unref (walk.visits);
  strata_id_map_clear (&walk.edge_ids);
  if (!ok)
    return NULL;

  sort_methods (self);
  group_edges (self, TRUE, &self->parent_offsets, &self->parent_edges);
  group_edges (self, FALSE, &self->child_offsets, &self->child_edges);

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

  profile = strata_profile_new (trace, GPOINTER_TO_INT (g_object_get_data (G_OBJECT (task), "thread")),
                                cancellable, &error);
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
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (STRATA_IS_TRACE (trace));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, strata_profile_new_async);
  g_task_set_task_data (task, g_object_ref (trace), g_object_unref);
  g_object_set_data (G_OBJECT (task), "thread", GINT_TO_POINTER (thread));
  g_task_run_in_thread (task, profile_thread);
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

int
strata_profile_get_thread (StrataProfile *self)
{
  g_return_val_if_fail (STRATA_IS_PROFILE (self), -1);

  return self->thread;
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

  return self->edges->len;
}

const StrataProfileEdge *
strata_profile_get_edge (StrataProfile *self,
                         guint          index)
{
  g_return_val_if_fail (STRATA_IS_PROFILE (self), NULL);
  g_return_val_if_fail (index < self->edges->len, NULL);

  return &g_array_index (self->edges, StrataProfileEdge, index);
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
  g_return_val_if_fail (STRATA_IS_PROFILE (self), NULL);
  g_return_val_if_fail (method < self->n_methods, NULL);

  *n_edges = self->parent_offsets[method + 1] - self->parent_offsets[method];
  return self->parent_edges + self->parent_offsets[method];
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
  g_return_val_if_fail (STRATA_IS_PROFILE (self), NULL);
  g_return_val_if_fail (method < self->n_methods, NULL);

  *n_edges = self->child_offsets[method + 1] - self->child_offsets[method];
  return self->child_edges + self->child_offsets[method];
}
