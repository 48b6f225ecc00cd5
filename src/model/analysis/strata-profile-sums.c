/* strata-profile-sums.c: the walk that adds up a profile's calls
 *
 * Every call of every thread (or of a time range) is visited once, its
 * time added to its method and to the edge from its caller, recursion
 * counted as traceview counts it. Threads are shared between two cores;
 * one thread with most of the calls is split by its outermost calls, so
 * a recording of one busy thread is walked on both.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-edge-table.h"
#include "strata-profile-sums-private.h"

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

/* A table's calls at depth 0 a worker walks, with all they hold. */
typedef struct
{
  guint32 first;
  guint32 end;
} RootRange;

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
  GArray             *roots;       /* RootRange per table: the calls at depth 0 to walk */
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
  acc->roots = g_array_new (FALSE, FALSE, sizeof (RootRange));
  acc->cancellable = cancellable;
}

static void
accumulator_clear (Accumulator *acc)
{
  g_clear_pointer (&acc->entries, g_free);
  g_clear_pointer (&acc->on_stack, g_free);
  g_clear_pointer (&acc->visits, g_free);
  g_clear_pointer (&acc->tables, g_ptr_array_unref);
  g_clear_pointer (&acc->roots, g_array_unref);
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
  const StrataPackedSpan *span = &table->calls[depth][index];
  StrataProfileEntry *entry = &acc->entries[span->method];
  Visit *visit = &acc->visits[n_visits];

  /* The walk reads a few hundred arrays in step; fetch ahead in each. */
  __builtin_prefetch (span + PREFETCH_AHEAD, 0, 3);
  if (acc->n_clocks > 1 && table->second[depth] != NULL)
    __builtin_prefetch (&table->second[depth][index + PREFETCH_AHEAD], 0, 3);

  visit->depth = depth;
  visit->method = span->method;
  visit->duration[0] = G_LIKELY (span->offset != STRATA_SPAN_WIDE) ? span->length
                                                                  : strata_span_table_duration (table, depth, index);
  /* Moments on the second clock take none of its time. */
  if (acc->n_clocks < 2)
    visit->duration[1] = 0;
  else if (table->second[depth] != NULL)
    visit->duration[1] = table->second[depth][index].end - table->second[depth][index].start;
  else
    visit->duration[1] = strata_sparse_clock_duration (strata_span_table_get_sparse (table, depth), index);
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
            const StrataSpanTable *table,
            const RootRange       *roots)
{
  guint n_visits = 0;

  if (acc->n_visits_allocated < table->n_depths + 1)
    {
      acc->n_visits_allocated = table->n_depths + 1;
      acc->visits = g_renew (Visit, acc->visits, acc->n_visits_allocated);
    }

  guint32 root = acc->has_range ? strata_span_table_search_clock (table, acc->range.clock, 0, acc->range.start) : roots->first;

  for (; root < MIN (roots->end, table->n_spans[0]); root++)
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

/* The calls at @depth + 1 under the calls [@above->first, @above->end)
 * at @depth: from the first's first child to the end one's. */
static RootRange
calls_below (const StrataSpanTable *table,
             const RootRange       *above,
             guint                  depth)
{
  guint32 n = table->n_spans[depth], n_below = table->n_spans[depth + 1];

  return (RootRange) { above->first < n ? table->calls[depth][above->first].first_child : n_below,
                       above->end < n ? table->calls[depth][above->end].first_child : n_below };
}

/* How many calls the walk may see each method make in @table: every
 * child of every call that can be visited (for a range, the calls that
 * overlap it; their children may not), and the roots for the toplevel. */
static void
count_calls (const Accumulator     *acc,
             const StrataSpanTable *table,
             const RootRange       *roots,
             guint64               *counts)
{
  RootRange under = { MIN (roots->first, table->n_spans[0]), MIN (roots->end, table->n_spans[0]) };

  for (guint d = 0; d < table->n_depths; d++)
    {
      const StrataPackedSpan *spans = table->calls[d];
      guint32 n = table->n_spans[d];
      guint32 i = acc->has_range ? strata_span_table_search_clock (table, acc->range.clock, d, acc->range.start) : under.first;
      guint32 first = i, last = acc->has_range ? n : under.end;

      for (; i < last; i++)
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
      if (d + 1 < table->n_depths)
        under = calls_below (table, &under, d);
    }
}

static gpointer
count_tables (gpointer data)
{
  Accumulator *acc = data;
  guint64 *counts = strata_edge_table_get_counts (acc->edges, acc->worker);

  for (guint i = 0; i < acc->tables->len; i++)
    count_calls (acc, g_ptr_array_index (acc->tables, i), &g_array_index (acc->roots, RootRange, i), counts);
  return NULL;
}

static gpointer
accumulate_tables (gpointer data)
{
  Accumulator *acc = data;

  for (guint i = 0; i < acc->tables->len; i++)
    if (!walk_table (acc, g_ptr_array_index (acc->tables, i), &g_array_index (acc->roots, RootRange, i)))
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

/* How many calls there are under the first @root calls at depth 0. */
static guint64
n_calls_before (const StrataSpanTable *table,
                guint32                root)
{
  RootRange at = { MIN (root, table->n_spans[0]), MIN (root, table->n_spans[0]) };
  guint64 n = 0;

  for (guint d = 0; d < table->n_depths; d++)
    {
      n += at.first;
      if (d + 1 < table->n_depths)
        at = calls_below (table, &at, d);
    }
  return n;
}

/* Where @table's calls at depth 0 split its calls in two halves. */
static guint32
middle_root (const StrataSpanTable *table)
{
  guint64 half = strata_span_table_get_n_spans (table) / 2;
  guint32 low = 0, high = table->n_spans[0];

  while (low < high)
    {
      guint32 mid = low + (high - low) / 2;

      if (n_calls_before (table, mid) < half)
        low = mid + 1;
      else
        high = mid;
    }
  return low;
}

static void
give_table (Accumulator           *acc,
            const StrataSpanTable *table,
            guint32                first,
            guint32                end)
{
  RootRange roots = { first, end };

  g_ptr_array_add (acc->tables, (gpointer) table);
  g_array_append_val (acc->roots, roots);
}

/* Threads go to workers largest first, each to the least loaded; a
 * thread with most of the calls is shared by its calls at depth 0 (not
 * for a time range, whose calls are found by searching). */
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
  if (total < PARALLEL_MIN_SPANS)
    n_accs = 1;

  for (guint i = 0; i < threads->len; i++)
    {
      StrataSpanTable *table = g_ptr_array_index (threads, i);
      guint64 n = strata_span_table_get_n_spans (table);
      guint best = 0;

      if (n_accs == 2 && !accs[0].has_range && n * 2 > total)
        {
          guint32 middle = middle_root (table);

          give_table (&accs[0], table, 0, middle);
          give_table (&accs[1], table, middle, G_MAXUINT32);
          load[0] += n_calls_before (table, middle);
          load[1] += n - n_calls_before (table, middle);
          continue;
        }
      for (guint w = 1; w < n_accs; w++)
        if (load[w] < load[best])
          best = w;
      give_table (&accs[best], table, 0, G_MAXUINT32);
      load[best] += n;
    }
  return n_accs;
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
accumulate (StrataProfileSums  *sums,
            guint               n_methods,
            Accumulator        *accs,
            guint               n_accs,
            GError            **error)
{
  sums->edges = strata_edge_table_new (n_methods, n_accs);
  for (guint w = 0; w < n_accs; w++)
    accs[w].edges = sums->edges;

  run_workers (accs, n_accs, count_tables);
  if (!strata_edge_table_allocate (sums->edges, error))
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
  g_warn_if_fail (sums->edges->n_dropped == 0);
  strata_edge_table_fold (sums->edges);
  sums->entries = g_steal_pointer (&accs[0].entries);
  return TRUE;
}

/**
 * strata_profile_sums_compute:
 * @thread: a thread index, or -1 for the whole trace
 * @range: (nullable): only the calls in this time range, cut at its ends
 * @sums: (out): each method's sums and the edges between methods, the
 *   caller's to free; the edges are set even on failure
 *
 * Walks the calls on up to two cores: threads shared between them, and
 * a thread with most of the calls split by its outermost calls.
 *
 * Returns: %FALSE with @error set when cancelled or out of memory
 */
gboolean
strata_profile_sums_compute (StrataTrace              *trace,
                             int                       thread,
                             const StrataProfileRange *range,
                             guint                     n_clocks,
                             GCancellable             *cancellable,
                             StrataProfileSums        *sums,
                             GError                  **error)
{
  Accumulator accs[MAX_WORKERS];
  guint n_methods = strata_trace_get_n_methods (trace);
  guint n_workers = MIN (MAX_WORKERS, MAX (1, g_get_num_processors ()));
  guint n_accs;
  gboolean ok;

  *sums = (StrataProfileSums) { NULL, NULL };
  for (guint w = 0; w < n_workers; w++)
    {
      accumulator_init (&accs[w], w, n_clocks, n_methods, cancellable);
      accs[w].has_range = range != NULL;
      if (range != NULL)
        accs[w].range = *range;
    }
  n_accs = assign_tables (trace, thread, accs, n_workers);
  ok = accumulate (sums, n_methods, accs, n_accs, error);
  for (guint w = 0; w < n_workers; w++)
    accumulator_clear (&accs[w]);
  return ok;
}
