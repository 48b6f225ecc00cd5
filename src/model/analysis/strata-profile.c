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
#include "strata-profile.h"


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

#define PARALLEL_MIN_SPANS 200000
#define MAX_WORKERS 2
#define PREFETCH_AHEAD 4

typedef struct
{
  guint   depth;
  guint32 next_child;
  guint32 end_child;
  guint32 method;
  gint64  duration[STRATA_MAX_CLOCKS];
  gint64  children[STRATA_MAX_CLOCKS];
} Visit;

/* What one worker adds up over its share of the threads. */
typedef struct
{
  guint               worker;
  guint               n_clocks;
  guint               n_methods;
  StrataProfileEntry *entries;
  StrataEdgeTable    *edges;       /* shared; each worker writes its own parts */
  guint32            *on_stack;    /* per method: how many frames of it are open */
  Visit              *visits;
  guint               n_visits_allocated;
  guint64             n_visited;
  GPtrArray          *tables;      /* the StrataSpanTables to walk */
  gboolean            has_range;
  StrataProfileRange  range;
  GCancellable       *cancellable;
  GError             *error;
} Accumulator;

static void
accumulator_init (Accumulator  *acc,
                  guint         worker,
                  guint         n_clocks,
                  guint         n_methods,
                  GCancellable *cancellable)
{
  memset (acc, 0, sizeof *acc);
  acc->worker = worker;
  acc->n_clocks = n_clocks;
  acc->n_methods = n_methods;
  acc->entries = g_new0 (StrataProfileEntry, MAX (n_methods, 1));
  acc->on_stack = g_new0 (guint32, MAX (n_methods, 1));
  acc->tables = g_ptr_array_new ();
  acc->cancellable = cancellable;
}

static void
accumulator_clear (Accumulator *acc)
{
  g_clear_pointer (&acc->entries, g_free);
  g_clear_pointer (&acc->on_stack, g_free);
  g_clear_pointer (&acc->visits, g_free);
  g_clear_pointer (&acc->tables, g_ptr_array_unref);
  g_clear_error (&acc->error);
}

static gint64
span_time (const StrataSpanTable *table,
           guint                  clock,
           guint                  depth,
           guint32                index,
           gboolean               end)
{
  return end ? strata_span_table_get_end (table, clock, depth, index)
             : strata_span_table_get_start (table, clock, depth, index);
}

/**
 * strata_profile_range_holds:
 *
 * Returns: whether the call @index at @depth overlaps @range (one that
 *   touches it counts, with no time in it)
 */
gboolean
strata_profile_range_holds (const StrataProfileRange *range,
                            const StrataSpanTable    *table,
                            guint                     depth,
                            guint32                   index)
{
  return span_time (table, range->clock, depth, index, TRUE) >= range->start &&
         span_time (table, range->clock, depth, index, FALSE) <= range->end;
}

/**
 * strata_profile_range_cut:
 * @duration: (inout): the call's duration on each clock
 *
 * The part of a call inside @range; the other clock keeps the same share
 * of its own duration.
 */
void
strata_profile_range_cut (const StrataProfileRange *range,
                          const StrataSpanTable    *table,
                          guint                     n_clocks,
                          guint                     depth,
                          guint32                   index,
                          gint64                   *duration)
{
  guint rc = range->clock;
  gint64 start = span_time (table, rc, depth, index, FALSE);
  gint64 end = span_time (table, rc, depth, index, TRUE);
  gint64 clipped = MIN (end, range->end) - MAX (start, range->start);
  double share = end > start ? (double) MAX (0, clipped) / (end - start) : 1.0;

  for (guint c = 0; c < n_clocks; c++)
    duration[c] = c == rc ? MAX (0, clipped) : (gint64) (duration[c] * share);
}

/**
 * strata_profile_range_traced:
 * @range: (nullable): the range, or %NULL for the whole trace
 * @time: (out): per clock
 *
 * The time @thread was traced, within @range: the profile's total is
 * these summed over threads.
 */
void
strata_profile_range_traced (const StrataProfileRange *range,
                             const StrataThread       *thread,
                             guint                     n_clocks,
                             gint64                   *time)
{
  gint64 covered, length;
  double share;

  for (guint c = 0; c < n_clocks; c++)
    time[c] = thread->last_time[c] - thread->first_time[c];
  if (range == NULL)
    return;
  length = time[range->clock];
  covered = MAX (0, MIN (thread->last_time[range->clock], range->end) - MAX (thread->first_time[range->clock], range->start));
  share = length > 0 ? (double) covered / length : 0;
  for (guint c = 0; c < n_clocks; c++)
    time[c] = c == range->clock ? covered : (gint64) (time[c] * share);
}

static inline void
push_visit (Accumulator           *acc,
            const StrataSpanTable *table,
            guint                  n_visits,
            guint                  depth,
            guint32                index)
{
  const StrataSpan *span = &table->spans[depth][index];
  StrataProfileEntry *entry = &acc->entries[span->method];
  Visit *visit = &acc->visits[n_visits];

  /* The walk reads a few hundred arrays in step; fetch ahead in each. */
  __builtin_prefetch (span + PREFETCH_AHEAD, 0, 3);
  if (acc->n_clocks > 1 && table->second[depth] != NULL)
    __builtin_prefetch (&table->second[depth][index + PREFETCH_AHEAD], 0, 3);

  visit->depth = depth;
  visit->method = span->method;
  visit->duration[0] = span->end - span->start;
  /* A depth of moments on the second clock takes none of its time. */
  visit->duration[1] = acc->n_clocks > 1 && table->second[depth] != NULL
                       ? table->second[depth][index].end - table->second[depth][index].start : 0;
  visit->children[0] = visit->children[1] = 0;
  if (G_UNLIKELY (acc->has_range))
    strata_profile_range_cut (&acc->range, table, acc->n_clocks, depth, index, visit->duration);

  if (acc->on_stack[span->method] == 0)
    {
      entry->calls++;
      entry->inclusive[0] += visit->duration[0];
      entry->inclusive[1] += visit->duration[1];
    }
  else
    entry->recursive_calls++;

  /* Children run from this span's first child to the next span's first. */
  if (depth + 1 < table->n_depths)
    {
      visit->next_child = span->first_child;
      visit->end_child = index + 1 < table->n_spans[depth] ? span[1].first_child
                                                          : table->n_spans[depth + 1];
    }
  else
    visit->next_child = visit->end_child = 0;

  acc->on_stack[span->method]++;
}

/* A cut call's share of the other clock is an estimate; its children may
 * have used more of that clock inside the range than the share gives it.
 * Raise it to its children's time so exclusive time never goes negative. */
static void
cover_children (Accumulator *acc,
                Visit       *visit)
{
  for (guint c = 0; c < acc->n_clocks; c++)
    {
      gint64 missing = visit->children[c] - visit->duration[c];

      if (missing <= 0)
        continue;
      visit->duration[c] += missing;
      if (acc->on_stack[visit->method] == 1)
        acc->entries[visit->method].inclusive[c] += missing;
    }
}

/* A call is done: its time is final, and goes to its caller and the edge
 * between them. */
static inline void
pop_visit (Accumulator *acc,
           Visit       *visit,
           Visit       *parent)
{
  StrataProfileEntry *entry = &acc->entries[visit->method];

  if (G_UNLIKELY (acc->has_range))
    cover_children (acc, visit);

  entry->exclusive[0] += visit->duration[0] - visit->children[0];
  entry->exclusive[1] += visit->duration[1] - visit->children[1];
  acc->on_stack[visit->method]--;
  if (parent != NULL)
    {
      parent->children[0] += visit->duration[0];
      parent->children[1] += visit->duration[1];
    }
  strata_edge_table_add (acc->edges, acc->worker, parent != NULL ? parent->method : acc->n_methods,
                         visit->method, visit->duration);
}

static gboolean
walk_table (Accumulator           *acc,
            const StrataSpanTable *table)
{
  guint n_visits = 0;

  if (acc->n_visits_allocated < table->n_depths + 1)
    {
      acc->n_visits_allocated = table->n_depths + 1;
      acc->visits = g_renew (Visit, acc->visits, acc->n_visits_allocated);
    }

  guint32 root = acc->has_range ? strata_span_table_search_clock (table, acc->range.clock, 0, acc->range.start) : 0;

  for (; root < table->n_spans[0]; root++)
    {
      if (acc->has_range && !strata_profile_range_holds (&acc->range, table, 0, root))
        break;
      push_visit (acc, table, n_visits++, 0, root);
      while (n_visits > 0)
        {
          Visit *top = &acc->visits[n_visits - 1];

          if (top->next_child < top->end_child)
            {
              guint32 child = top->next_child++;

              if (!acc->has_range || strata_profile_range_holds (&acc->range, table, top->depth + 1, child))
                push_visit (acc, table, n_visits, top->depth + 1, child), n_visits++;
            }
          else
            {
              n_visits--;
              pop_visit (acc, &acc->visits[n_visits], n_visits > 0 ? &acc->visits[n_visits - 1] : NULL);
            }
        }

      if (G_UNLIKELY ((++acc->n_visited & 1023) == 0) &&
          g_cancellable_set_error_if_cancelled (acc->cancellable, &acc->error))
        return FALSE;
    }
  return TRUE;
}

/* How many calls the walk may see each method make in @table: every
 * child of every call that can be visited (for a range, the calls that
 * overlap it; their children may not), and the roots for the toplevel. */
static void
count_calls (const Accumulator     *acc,
             const StrataSpanTable *table,
             guint64               *counts)
{
  for (guint d = 0; d < table->n_depths; d++)
    {
      const StrataSpan *spans = table->spans[d];
      guint32 n = table->n_spans[d];
      guint32 i = acc->has_range ? strata_span_table_search_clock (table, acc->range.clock, d, acc->range.start) : 0;
      guint32 first = i;

      for (; i < n; i++)
        {
          guint32 end_child;

          if (G_UNLIKELY (acc->has_range) && span_time (table, acc->range.clock, d, i, FALSE) > acc->range.end)
            break;
          if (d + 1 >= table->n_depths)
            continue;
          end_child = i + 1 < n ? spans[i + 1].first_child : table->n_spans[d + 1];
          counts[spans[i].method] += end_child - spans[i].first_child;
        }
      if (d == 0)
        counts[acc->n_methods] += i - first;
    }
}

static gpointer
count_tables (gpointer data)
{
  Accumulator *acc = data;
  guint64 *counts = strata_edge_table_get_counts (acc->edges, acc->worker);

  for (guint i = 0; i < acc->tables->len; i++)
    count_calls (acc, g_ptr_array_index (acc->tables, i), counts);
  return NULL;
}

static gpointer
accumulate_tables (gpointer data)
{
  Accumulator *acc = data;

  for (guint i = 0; i < acc->tables->len; i++)
    if (!walk_table (acc, g_ptr_array_index (acc->tables, i)))
      break;
  return NULL;
}

/* Adds @from's sums into @into; the edges are already in one table. */
static void
accumulator_merge (Accumulator *into,
                   Accumulator *from)
{
  for (guint m = 0; m < into->n_methods; m++)
    {
      StrataProfileEntry *a = &into->entries[m];
      const StrataProfileEntry *b = &from->entries[m];

      a->calls += b->calls;
      a->recursive_calls += b->recursive_calls;
      for (guint c = 0; c < STRATA_MAX_CLOCKS; c++)
        {
          a->inclusive[c] += b->inclusive[c];
          a->exclusive[c] += b->exclusive[c];
        }
    }
}

/* Threads go to workers largest first, each to the least loaded. */
static guint
assign_tables (StrataTrace *trace,
               int          thread,
               Accumulator *accs,
               guint        n_accs)
{
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();
  guint64 load[MAX_WORKERS] = { 0 };
  guint64 total = 0;

  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    {
      const StrataThread *info = strata_trace_get_thread (trace, t);

      if ((thread < 0 || (guint) thread == t) && info->spans != NULL)
        g_ptr_array_add (threads, info->spans);
    }

  for (guint i = 0; i < threads->len; i++)
    total += strata_span_table_get_n_spans (g_ptr_array_index (threads, i));
  if (total < PARALLEL_MIN_SPANS || threads->len < 2)
    n_accs = 1;

  for (guint i = 0; i < threads->len; i++)
    {
      StrataSpanTable *table = g_ptr_array_index (threads, i);
      guint best = 0;

      for (guint w = 1; w < n_accs; w++)
        if (load[w] < load[best])
          best = w;
      g_ptr_array_add (accs[best].tables, table);
      load[best] += strata_span_table_get_n_spans (table);
    }
  return n_accs;
}

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

static void
run_workers (Accumulator *accs,
             guint        n_accs,
             GThreadFunc  func)
{
  GThread *helper = NULL;

  if (n_accs > 1)
    helper = g_thread_try_new ("strata-profile", func, &accs[1], NULL);
  func (&accs[0]);
  if (helper != NULL)
    g_thread_join (helper);
  else if (n_accs > 1)
    func (&accs[1]);
}

/* Walks the threads with @n_accs workers: counts first, so the edge table
 * can give each worker its parts, then the walk proper. */
static gboolean
accumulate (StrataProfile  *self,
            Accumulator    *accs,
            guint           n_accs,
            GError        **error)
{
  self->edges = strata_edge_table_new (self->n_methods, n_accs);
  for (guint w = 0; w < n_accs; w++)
    accs[w].edges = self->edges;

  run_workers (accs, n_accs, count_tables);
  if (!strata_edge_table_allocate (self->edges, error))
    return FALSE;
  run_workers (accs, n_accs, accumulate_tables);

  for (guint w = 0; w < n_accs; w++)
    if (accs[w].error != NULL)
      {
        g_propagate_error (error, g_steal_pointer (&accs[w].error));
        return FALSE;
      }
  for (guint w = 1; w < n_accs; w++)
    accumulator_merge (&accs[0], &accs[w]);
  g_warn_if_fail (self->edges->n_dropped == 0);
  strata_edge_table_fold (self->edges);
  self->entries = g_steal_pointer (&accs[0].entries);
  return TRUE;
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
  Accumulator accs[MAX_WORKERS];
  guint n_accs, n_workers;
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

  n_workers = MIN (MAX_WORKERS, MAX (1, g_get_num_processors ()));
  for (guint w = 0; w < n_workers; w++)
    {
      accumulator_init (&accs[w], w, self->n_clocks, self->n_methods, cancellable);
      accs[w].has_range = self->has_range;
      accs[w].range = self->range;
    }
  n_accs = assign_tables (trace, thread, accs, n_workers);

  ok = accumulate (self, accs, n_accs, error);
  for (guint w = 0; w < n_workers; w++)
    accumulator_clear (&accs[w]);
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
