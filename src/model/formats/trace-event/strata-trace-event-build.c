/* strata-trace-event-build.c: from the events read to the trace's tables
 *
 * Calls arrive in file order, B/E and X mixed and unsorted. Per thread
 * they are sorted by start (the longer first when two start together, so
 * it becomes the parent), given depths with a stack, and laid out in span
 * tables like every other format's. Flows are bound to the calls they
 * leave from and arrive at once those tables exist.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "strata-load-guard.h"
#include "strata-radix-sort.h"
#include "strata-trace-event-private.h"

static guint
key_hash (gconstpointer data)
{
  const TeKey *key = data;
  guint64 h = ((guint64) key->category << 32 | key->id) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);

  h ^= ((guint64) key->process << 32 | key->name) * G_GUINT64_CONSTANT (0xc2b2ae3d27d4eb4f);
  h ^= key->scope * G_GUINT64_CONSTANT (0x165667b19e3779f9);
  return (guint) (h ^ (h >> 32));
}

static gboolean
key_equal (gconstpointer a,
           gconstpointer b)
{
  return memcmp (a, b, sizeof (TeKey)) == 0;
}

static void
clear_sample (gpointer data)
{
  g_free (((TeSample *) data)->frame);
}

void
strata_trace_event_state_init (TeState       *state,
                               StrataLoadJob *job,
                               StrataTrace   *trace)
{
  memset (state, 0, sizeof *state);
  state->job = job;
  state->trace = trace;
  state->threads = g_array_new (FALSE, TRUE, sizeof (TeThread));
  state->events = g_array_new (FALSE, FALSE, sizeof (StrataEvent));
  state->flow_steps = g_array_new (FALSE, FALSE, sizeof (TeFlowStep));
  state->counters = g_ptr_array_new_with_free_func ((GDestroyNotify) strata_counter_builder_free);
  state->counter_keys = g_hash_table_new_full (key_hash, key_equal, g_free, NULL);
  state->async_open = g_hash_table_new_full (key_hash, key_equal, g_free, (GDestroyNotify) g_array_unref);
  state->objects_open = g_hash_table_new_full (key_hash, key_equal, g_free, NULL);
  state->flow_keys = g_hash_table_new_full (key_hash, key_equal, g_free, NULL);
  strata_id_map_init (&state->methods);
  state->samples = g_array_new (FALSE, FALSE, sizeof (TeSample));
  g_array_set_clear_func (state->samples, clear_sample);
}

static gpointer
free_in_background (gpointer data)
{
  g_ptr_array_unref (data);
  return NULL;
}

/* Handing hundreds of megabytes back to the system takes tens of
 * milliseconds; a cancelled or finished load need not wait for it. */
static void
drop_large_arrays (TeState *state)
{
  GPtrArray *garbage = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  GThread *helper;

  for (guint i = 0; state->threads != NULL && i < state->threads->len; i++)
    {
      TeThread *thread = &g_array_index (state->threads, TeThread, i);

      if (thread->slices != NULL)
        g_ptr_array_add (garbage, g_steal_pointer (&thread->slices));
      if (thread->bound != NULL)
        g_ptr_array_add (garbage, g_steal_pointer (&thread->bound));
      g_ptr_array_add (garbage, g_steal_pointer (&thread->open));
    }
  if (state->events != NULL)
    g_ptr_array_add (garbage, g_steal_pointer (&state->events));
  if (state->flow_steps != NULL)
    g_ptr_array_add (garbage, g_steal_pointer (&state->flow_steps));
  helper = g_thread_try_new ("strata-free", free_in_background, garbage, NULL);
  if (helper != NULL)
    g_thread_unref (helper);
  else
    free_in_background (garbage);
}

void
strata_trace_event_state_clear (TeState *state)
{
  drop_large_arrays (state);
  g_clear_pointer (&state->threads, g_array_unref);
  g_clear_pointer (&state->counters, g_ptr_array_unref);
  g_clear_pointer (&state->counter_keys, g_hash_table_unref);
  g_clear_pointer (&state->async_open, g_hash_table_unref);
  g_clear_pointer (&state->objects_open, g_hash_table_unref);
  g_clear_pointer (&state->flow_keys, g_hash_table_unref);
  strata_id_map_clear (&state->methods);
  g_clear_pointer (&state->stack_frames, json_node_unref);
  g_clear_pointer (&state->samples_member, json_node_unref);
  g_clear_pointer (&state->v8_profiles, g_hash_table_unref);
  state->last_profile = NULL;
  if (state->last_profile_pid != NULL)
    g_string_free (g_steal_pointer (&state->last_profile_pid), TRUE);
  if (state->last_profile_id != NULL)
    g_string_free (g_steal_pointer (&state->last_profile_id), TRUE);
  g_clear_pointer (&state->samples, g_array_unref);
}

/* Calls are grouped by name and category: the profile's "methods". */
guint32
strata_trace_event_ensure_method (TeState *state,
                                  guint32  name,
                                  guint32  category)
{
  guint64 key = ((guint64) name << 32) | category;
  guint slot = (guint) ((key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 54) % TE_METHOD_CACHE_SIZE;
  guint32 index;
  StrataMethod method = { .line = -1 };

  if (state->method_of[slot] != 0 && state->method_keys[slot] == key)
    return state->method_of[slot] - 1;
  index = strata_id_map_lookup (&state->methods, key);
  if (index != STRATA_ID_MAP_MISSING)
    {
      state->method_keys[slot] = key;
      state->method_of[slot] = index + 1;
      return index;
    }

  method.raw_id = key;
  method.name = name;
  /* An event without a name still needs one to be shown and listed by. */
  method.display_name = name != 0 ? name : strata_string_pool_intern (strata_trace_get_pool (state->trace), _("(unnamed)"));
  method.class_name = category;
  index = strata_trace_add_method (state->trace, &method);
  strata_id_map_insert (&state->methods, key, index);
  return index;
}

/* ---- Calls ---- */

/**
 * strata_trace_event_add_slice:
 * @bind_id: the string pool id of its flow binding id, or 0
 *
 * Adds a call to @thread.
 */
void
strata_trace_event_add_slice (TeState       *state,
                              TeThread      *thread,
                              const TeSlice *slice,
                              guint32        bind_id)
{
  if (bind_id != 0)
    {
      TeBound bound = { thread->slices->len, bind_id, slice->flags, 0, 0 };

      if (thread->bound == NULL)
        thread->bound = g_array_new (FALSE, FALSE, sizeof (TeBound));
      g_array_append_val (thread->bound, bound);
    }
  g_array_append_vals (thread->slices, slice, 1);
}

/* B events still open when the file ends run to the end of the trace. */
static void
close_open_begins (TeState  *state,
                   TeThread *thread)
{
  while (thread->open->len > 0)
    {
      TeOpenBegin *begin = &g_array_index (thread->open, TeOpenBegin, thread->open->len - 1);
      TeSlice slice = {
        .start = begin->start,
        .end = MAX (state->last_time, begin->start),
        .thread_start = begin->thread_start,
        .thread_end = begin->thread_start,
        .source = begin->source,
        .flags = begin->flags,
      };

      slice.method = strata_trace_event_ensure_method (state, begin->name, begin->category);
      strata_trace_event_add_slice (state, thread, &slice, begin->bind_id);
      g_array_set_size (thread->open, thread->open->len - 1);
      state->n_unended_begins++;
    }
}

/* Of slices that start together, the longer first (it holds the
 * others), then the one read first. */
static int
compare_tied (gconstpointer a,
              gconstpointer b,
              gpointer      data)
{
  const TeSlice *slices = data;
  guint32 ia = *(const guint32 *) a, ib = *(const guint32 *) b;

  if (slices[ia].end != slices[ib].end)
    return slices[ia].end > slices[ib].end ? -1 : 1;
  return ia < ib ? -1 : (ia > ib);
}

/* A run of @n slices in @order that start together, put in order. Runs
 * are short (a task and its first call), but any length stays n log n. */
static void
order_tied_run (const TeSlice *slices,
                guint32       *order,
                guint32        n)
{
  if (n > 16)
    {
      g_qsort_with_data (order, (gint) n, sizeof (guint32), compare_tied, (gpointer) slices);
      return;
    }
  for (guint32 i = 1; i < n; i++)
    {
      guint32 item = order[i], j = i;

      for (; j > 0 && compare_tied (&item, &order[j - 1], (gpointer) slices) < 0; j--)
        order[j] = order[j - 1];
      order[j] = item;
    }
}

/* Fewer slices than this are sorted by comparison. */
#define RADIX_SORT_MIN 4096

static int
compare_order (gconstpointer a,
               gconstpointer b,
               gpointer      data)
{
  const TeSlice *slices = data;
  guint32 ia = *(const guint32 *) a, ib = *(const guint32 *) b;

  if (slices[ia].start != slices[ib].start)
    return slices[ia].start < slices[ib].start ? -1 : 1;
  return compare_tied (a, b, data);
}

/**
 * strata_trace_event_sort_slices:
 * @cancellable: (nullable): checked once sorted
 *
 * By start in a few linear passes (a radix sort: a merge sort took a
 * thread's calls 17 passes), then each run that starts together by end.
 *
 * Returns: the indexes of @slices in the order they start, of two that
 *   start together the longer first, or %NULL if cancelled
 */
guint32 *
strata_trace_event_sort_slices (const TeSlice *slices,
                                guint32        n,
                                GCancellable  *cancellable)
{
  g_autofree guint64 *starts = NULL;
  g_autofree guint32 *order = g_new (guint32, MAX (n, 1));

  for (guint32 i = 0; i < n; i++)
    order[i] = i;
  /* A radix pass clears 65,536 counters: few slices (a trace of many
   * small threads) are sorted by comparison. */
  if (n < RADIX_SORT_MIN)
    {
      g_qsort_with_data (order, (gint) n, sizeof (guint32), compare_order, (gpointer) slices);
      return g_steal_pointer (&order);
    }
  /* Signed times as unsigned keys in the same order. */
  starts = g_new (guint64, n);
  for (guint32 i = 0; i < n; i++)
    starts[i] = (guint64) slices[i].start ^ (G_GUINT64_CONSTANT (1) << 63);
  strata_radix_sort_pairs (starts, order, n);
  for (guint32 i = 0, j; i < n; i = j)
    {
      for (j = i + 1; j < n && starts[j] == starts[i]; j++)
        ;
      if (j - i > 1)
        order_tied_run (slices, order + i, j - i);
    }
  if (g_cancellable_is_cancelled (cancellable))
    return NULL;
  return g_steal_pointer (&order);
}

/* Gives each call its depth (in @depths, by slice): a stack of the calls
 * that hold it. Calls that run past their parent's end are cut there.
 * Returns the number of depths. */
static guint
assign_depths (guint64       *n_clipped,
               TeSlice       *slices,
               const guint32 *order,
               guint32        n,
               guint32       *depths,
               GArray        *counts)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 k = 0; k < n; k++)
    {
      TeSlice *slice = &slices[order[k]];
      guint32 depth;

      while (stack->len > 0)
        {
          const TeSlice *top = &slices[g_array_index (stack, guint32, stack->len - 1)];

          if (top->end > slice->start)
            break;
          g_array_set_size (stack, stack->len - 1);
        }
      if (stack->len > 0)
        {
          const TeSlice *parent = &slices[g_array_index (stack, guint32, stack->len - 1)];

          if (slice->end > parent->end)
            {
              slice->end = parent->end;
              (*n_clipped)++;
            }
        }
      depth = depths[order[k]] = stack->len;
      if (depth >= counts->len)
        g_array_set_size (counts, depth + 1);
      g_array_index (counts, guint32, depth)++;
      g_array_append_val (stack, order[k]);
    }
  return counts->len;
}

typedef struct
{
  StrataPackedSpan *spans;
  StrataClockSpan  *second;
  guint64          *sources;
} SpanBlocks;

/* Fills the table in start order; @refs gets each slice's index at its
 * depth. */
static void
fill_table (TeSlice         *slices,
            const guint32   *order,
            const guint32   *depths,
            guint32          n,
            StrataSpanTable *table,
            guint32         *refs)
{
  g_autofree guint32 *cursor = g_new0 (guint32, table->n_depths + 1);
  g_autofree gint64 *last_end = g_new0 (gint64, table->n_depths);
  g_autofree StrataClockSpan **parents = g_new0 (StrataClockSpan *, table->n_depths);
  gint64 now = strata_trace_event_first_thread_time (slices, n);

  for (guint d = 0; d < table->n_depths; d++)
    last_end[d] = G_MININT64;

  for (guint32 k = 0; k < n; k++)
    {
      TeSlice *slice = &slices[order[k]];
      guint d = depths[order[k]];
      guint32 index = cursor[d]++;

      strata_span_table_write (table, d, index, &(StrataSpan) {
        slice->start, slice->end, slice->method,
        d + 1 < table->n_depths ? cursor[d + 1] : 0,
      });
      table->sources[d][index] = slice->source;
      refs[order[k]] = index;
      if (table->second != NULL)
        {
          strata_trace_event_fit_thread_time (&table->second[d][index], slice, d > 0 ? parents[d - 1] : NULL,
                                              &last_end[d], &now);
          parents[d] = &table->second[d][index];
        }
    }
}

void
strata_trace_event_set_thread_range (StrataThread *thread)
{
  const StrataSpanTable *table = thread->spans;
  guint32 n = table->n_spans[0];

  for (guint c = 0; c < table->n_clocks; c++)
    {
      thread->first_time[c] = strata_span_table_get_start (table, c, 0, 0);
      thread->last_time[c] = 0;
      for (guint32 i = 0; i < n; i++)
        thread->last_time[c] = MAX (thread->last_time[c], strata_span_table_get_end (table, c, 0, i));
      thread->last_time[c] = MAX (thread->last_time[c], thread->first_time[c]);
    }
}

/* Lays out one thread's calls in its part of the shared blocks. Returns
 * FALSE if the load was cancelled meanwhile. */
static int
compare_slices (const TeSlice *slices,
                guint32        a,
                guint32        b)
{
  return compare_order (&a, &b, (gpointer) slices);
}

/**
 * strata_trace_event_slices_in_order:
 *
 * Returns: whether the slices from @first on are in the order
 *   strata_trace_event_sort_slices() would put them in
 */
gboolean
strata_trace_event_slices_in_order (GArray  *slices,
                                    guint32  first)
{
  /* None after @first: an empty array has no data to step into. */
  if (first >= slices->len)
    return TRUE;
  return strata_trace_event_slices_sorted ((const TeSlice *) slices->data + first, slices->len - first);
}

/**
 * strata_trace_event_slices_sorted:
 *
 * Returns: whether @slices are in the order
 *   strata_trace_event_sort_slices() would put them in: a thread's
 *   trace events often are, as Chrome writes them when they begin
 */
gboolean
strata_trace_event_slices_sorted (const TeSlice *slices,
                                  guint32        n)
{
  for (guint32 i = 1; i < n; i++)
    if (compare_slices (slices, i - 1, i) > 0)
      return FALSE;
  return TRUE;
}

/* The build's order of a thread's slices whose last @n_tail are in it
 * already (calls laid out from samples): the rest are sorted, and the
 * two merged. */
static guint32 *
order_slices (const TeSlice *slices,
              guint32        n,
              guint32        n_tail,
              GCancellable  *cancellable)
{
  guint32 n_head = n - n_tail, i = 0, j = n_head, k = 0;
  g_autofree guint32 *head = NULL;
  guint32 *order;

  if (n_tail == 0 || n_tail > n)
    return strata_trace_event_sort_slices (slices, n, cancellable);
  if (!(head = strata_trace_event_sort_slices (slices, n_head, cancellable)))
    return NULL;
  order = g_new (guint32, MAX (n, 1));
  while (i < n_head && j < n)
    order[k++] = compare_slices (slices, j, head[i]) < 0 ? j++ : head[i++];
  while (i < n_head)
    order[k++] = head[i++];
  while (j < n)
    order[k++] = j++;
  return order;
}

/* Where the calls that bind flows ended up. */
void
strata_trace_event_place_bound (GArray        *bound,
             const guint32 *depths,
             const guint32 *refs)
{
  for (guint i = 0; bound != NULL && i < bound->len; i++)
    {
      TeBound *b = &g_array_index (bound, TeBound, i);

      b->depth = depths[b->slice];
      b->ref = refs[b->slice];
    }
}

/* Lays out one thread's calls in its part of the shared blocks, then
 * lets its slices go. Returns FALSE if the load was cancelled meanwhile. */
static gboolean
build_thread (TeState          *state,
              guint             index,
              const SpanBlocks *blocks,
              guint             n_clocks,
              guint64          *n_clipped)
{
  TeThread *te = &g_array_index (state->threads, TeThread, index);
  StrataThread *thread = strata_trace_peek_thread (state->trace, index);
  TeSlice *slices;
  guint32 n;
  g_autoptr(GArray) counts = g_array_new (FALSE, TRUE, sizeof (guint32));
  g_autofree guint32 *order = NULL;
  g_autofree guint32 *depths = NULL;
  g_autofree guint32 *refs = NULL;
  guint n_depths;

  /* Laid out with its JavaScript samples already. */
  if (te->slices == NULL)
    return TRUE;
  slices = (TeSlice *) te->slices->data;
  n = te->slices->len;
  if (n == 0)
    return TRUE;
  if (!(order = order_slices (slices, n, te->n_sorted_tail, state->job->cancellable)))
    return FALSE;
  depths = g_new (guint32, n);
  n_depths = assign_depths (n_clipped, slices, order, n, depths, counts);

  thread->spans = strata_span_table_new_in (n_clocks, n_depths, (const guint32 *) counts->data,
                                            blocks->spans, n_clocks == 2 ? blocks->second : NULL);
  strata_span_table_set_sources (thread->spans, blocks->sources);
  refs = g_new (guint32, n);
  fill_table (slices, order, depths, n, thread->spans, refs);
  strata_span_table_end_writing (thread->spans);
  strata_trace_event_place_bound (te->bound, depths, refs);
  strata_trace_event_set_thread_range (thread);
  g_clear_pointer (&te->slices, g_array_unref);
  return !g_cancellable_is_cancelled (state->job->cancellable);
}

typedef struct
{
  TeState    *state;
  SpanBlocks *blocks;      /* per thread: where its calls go */
  guint       n_clocks;
  gint        next;        /* the next thread to build */
  gint        failed;
  guint64     n_clipped[2];
  StrataLoadGuard guards[2];  /* one per worker; a fault fails the build */
} BuildWork;

static void
build_threads_from_queue (BuildWork *work,
                          guint      worker)
{
  for (;;)
    {
      gint index = g_atomic_int_add (&work->next, 1);

      if (index >= (gint) work->state->threads->len || g_atomic_int_get (&work->failed))
        return;
      if (!build_thread (work->state, index, &work->blocks[index], work->n_clocks, &work->n_clipped[worker]))
        g_atomic_int_set (&work->failed, 1);
    }
}

/* Each worker holds its own guard, so memory running out in one leaves
 * the other's state (and @work, on the caller's stack) intact. */
static void
build_threads_guarded (BuildWork *work,
                       guint      worker)
{
  StrataLoadGuard *guard = &work->guards[worker];

  if (STRATA_LOAD_GUARD_FAULTED (guard))
    {
      g_atomic_int_set (&work->failed, 1);
      return;
    }
  build_threads_from_queue (work, worker);
  strata_load_guard_pop (guard);
}

static gpointer
build_worker (gpointer data)
{
  build_threads_guarded (data, 1);
  return NULL;
}

static guint
te_n_slices (const TeThread *thread)
{
  return thread->slices != NULL ? thread->slices->len : 0;
}

/* Threads are sorted and laid out on both cores; each knows beforehand
 * where its calls go in the shared blocks. */
static gboolean
build_calls (TeState  *state,
             GError  **error)
{
  StrataClockKind kinds[] = { STRATA_CLOCK_WALL, STRATA_CLOCK_THREAD_CPU };
  guint n_clocks = state->has_thread_time ? 2 : 1;
  g_autofree SpanBlocks *blocks = g_new0 (SpanBlocks, MAX (state->threads->len, 1));
  BuildWork work = { .state = state, .blocks = blocks, .n_clocks = n_clocks };
  guint64 total = 0;
  SpanBlocks next;
  GThread *helper;

  strata_trace_set_clocks (state->trace, n_clocks, kinds);
  for (guint i = 0; i < state->threads->len; i++)
    total += te_n_slices (&g_array_index (state->threads, TeThread, i));

  next.spans = strata_trace_alloc_block (state->trace, MAX (total, 1) * sizeof (StrataPackedSpan));
  next.sources = strata_trace_alloc_block (state->trace, MAX (total, 1) * sizeof (guint64));
  next.second = n_clocks == 2 ? strata_trace_alloc_block (state->trace, MAX (total, 1) * sizeof (StrataClockSpan)) : NULL;
  for (guint i = 0; i < state->threads->len; i++)
    {
      guint n = te_n_slices (&g_array_index (state->threads, TeThread, i));

      blocks[i] = next;
      next.spans += n;
      next.sources += n;
      if (next.second != NULL)
        next.second += n;
    }

  helper = g_thread_try_new ("strata-build", build_worker, &work, NULL);
  build_threads_guarded (&work, 0);
  if (helper != NULL)
    g_thread_join (helper);
  else
    build_threads_guarded (&work, 1);
  state->n_clipped += work.n_clipped[0] + work.n_clipped[1];
  for (guint w = 0; w < G_N_ELEMENTS (work.guards); w++)
    if (work.guards[w].fault != STRATA_LOAD_FAULT_NONE)
      {
        strata_load_guard_set_error (&work.guards[w], error);
        return FALSE;
      }
  return !work.failed;
}

/* ---- Flows ---- */

/* The deepest call on @thread running at @time. */
static gboolean
find_enclosing (StrataTrace    *trace,
                guint           thread,
                gint64          time,
                StrataSliceRef *ref)
{
  const StrataSpanTable *table = strata_trace_get_thread (trace, thread)->spans;

  for (guint d = table ? table->n_depths : 0; d-- > 0;)
    {
      guint32 i = strata_span_table_search (table, d, time);

      if (i < table->n_spans[d] && strata_span_table_start (table, d, i) <= time)
        {
          *ref = (StrataSliceRef) { thread, d, i };
          return TRUE;
        }
    }
  return FALSE;
}

/* The first call on @thread to start at @time or later (a flow's end
 * binds to the next slice unless it says "bp": "e"). */
static gboolean
find_next (StrataTrace    *trace,
           guint           thread,
           gint64          time,
           StrataSliceRef *ref)
{
  const StrataSpanTable *table = strata_trace_get_thread (trace, thread)->spans;
  gboolean found = FALSE;
  gint64 best = 0;

  for (guint d = 0; table != NULL && d < table->n_depths; d++)
    {
      guint32 i = strata_span_table_search (table, d, time);

      while (i < table->n_spans[d] && strata_span_table_start (table, d, i) < time)
        i++;
      if (i < table->n_spans[d] && (!found || strata_span_table_start (table, d, i) < best))
        {
          best = strata_span_table_start (table, d, i);
          *ref = (StrataSliceRef) { thread, d, i };
          found = TRUE;
        }
    }
  return found;
}

static int
compare_steps (const void *a,
               const void *b)
{
  const TeFlowStep *sa = a, *sb = b;

  if (sa->key != sb->key)
    return sa->key < sb->key ? -1 : 1;
  if (sa->time != sb->time)
    return sa->time < sb->time ? -1 : 1;
  return (sa->phase == 's' ? 0 : sa->phase == 't' ? 1 : 2) - (sb->phase == 's' ? 0 : sb->phase == 't' ? 1 : 2);
}

/* Flow events (s, t, f): steps of one id, in time order, linked leg by
 * leg; an "f" ends the chain and the next "s" starts another. */
static void
bind_flow_steps (TeState *state,
                 GArray  *flows)
{
  TeFlowStep *steps = (TeFlowStep *) state->flow_steps->data;
  guint n = state->flow_steps->len;
  StrataSliceRef previous = { 0 };
  gboolean have_previous = FALSE;

  if (n > 0)
    qsort (steps, n, sizeof (TeFlowStep), compare_steps);
  for (guint i = 0; i < n; i++)
    {
      StrataSliceRef ref;
      gboolean bound;

      if (i % 4096 == 0 && g_cancellable_is_cancelled (state->job->cancellable))
        return;
      if (i > 0 && steps[i].key != steps[i - 1].key)
        have_previous = FALSE;
      bound = steps[i].binds_enclosing ? find_enclosing (state->trace, steps[i].thread, steps[i].time, &ref)
                                       : find_next (state->trace, steps[i].thread, steps[i].time, &ref);
      if (!bound)
        {
          state->n_unbound_flows++;
          continue;
        }
      if (have_previous && steps[i].phase != 's')
        {
          StrataFlow flow = { previous, ref, steps[i].id, steps[i].name };

          g_array_append_val (flows, flow);
        }
      previous = ref;
      have_previous = steps[i].phase != 'f';
    }
}

/* Flow v2: calls carrying bind_id with flow_out lead to the calls with the
 * same bind_id and flow_in. */
static void
bind_flow_ids (TeState *state,
               GArray  *flows)
{
  g_autoptr(GHashTable) outs = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  for (int pass = 0; pass < 2; pass++)
    for (guint t = 0; t < state->threads->len; t++)
      {
        TeThread *te = &g_array_index (state->threads, TeThread, t);

        for (guint i = 0; te->bound != NULL && i < te->bound->len; i++)
          {
            const TeBound *slice = &g_array_index (te->bound, TeBound, i);
            StrataSliceRef ref = { t, slice->depth, slice->ref };
            StrataSliceRef *from;

            if (pass == 0 && (slice->flags & TE_SLICE_FLOW_OUT) &&
                !g_hash_table_contains (outs, GUINT_TO_POINTER (slice->bind_id)))
              g_hash_table_insert (outs, GUINT_TO_POINTER (slice->bind_id), g_memdup2 (&ref, sizeof ref));
            else if (pass == 1 && (slice->flags & TE_SLICE_FLOW_IN) &&
                     (from = g_hash_table_lookup (outs, GUINT_TO_POINTER (slice->bind_id))) != NULL &&
                     (from->thread != t || from->depth != ref.depth || from->index != ref.index))
              {
                StrataFlow flow = { *from, ref, slice->bind_id, 0 };

                g_array_append_val (flows, flow);
              }
          }
      }
}

/* ---- Everything else ---- */

static int
compare_events (const void *a,
                const void *b)
{
  const StrataEvent *ea = a, *eb = b;

  if (ea->start != eb->start)
    return ea->start < eb->start ? -1 : 1;
  return ea->source < eb->source ? -1 : (ea->source > eb->source);
}

static void
finish_events (TeState *state)
{
  for (guint i = 0; i < state->events->len; i++)
    {
      StrataEvent *event = &g_array_index (state->events, StrataEvent, i);

      if (event->end != G_MININT64)
        continue;
      event->end = MAX (state->last_time, event->start);
      if (event->phase == 'N')
        state->n_objects_undeleted++;
      else
        state->n_async_unended++;
    }
  if (state->events->len > 0)
    qsort (state->events->data, state->events->len, sizeof (StrataEvent), compare_events);
  strata_trace_take_events (state->trace, g_steal_pointer (&state->events));
}

static void
finish_counters (TeState *state)
{
  for (guint i = 0; i < state->counters->len; i++)
    {
      StrataCounterBuilder *builder = g_ptr_array_steal_index (state->counters, i);

      g_ptr_array_insert (state->counters, i, NULL);
      strata_trace_add_counter (state->trace, strata_counter_builder_finish (builder));
    }
}

/* The events and counters sorted and handed over on a core of their own. */
typedef struct
{
  TeState         *state;
  StrataLoadGuard  guard;   /* a fault fails the build */
} Finish;

static gpointer
finish_worker (gpointer data)
{
  Finish *finish = data;

  if (STRATA_LOAD_GUARD_FAULTED (&finish->guard))
    return NULL;
  finish_events (finish->state);
  finish_counters (finish->state);
  strata_load_guard_pop (&finish->guard);
  return NULL;
}

/**
 * strata_trace_event_build:
 *
 * Hands everything read over to the trace; @state is spent afterwards.
 *
 * Returns: %FALSE with @error set if the load was cancelled meanwhile
 */
gboolean
strata_trace_event_build (TeState  *state,
                          GError  **error)
{
  g_autoptr(GArray) flows = g_array_new (FALSE, FALSE, sizeof (StrataFlow));
  GCancellable *cancellable = state->job->cancellable;
  Finish finish = { state };
  GThread *helper;

  /* JavaScript samples are laid out among the calls, all of them. */
  for (guint i = 0; i < state->threads->len; i++)
    close_open_begins (state, &g_array_index (state->threads, TeThread, i));
  strata_trace_event_build_samples (state);
  if (!strata_trace_event_build_profiles (state, error))
    return FALSE;
  if (!build_calls (state, error))
    {
      if (error == NULL || *error == NULL)
        g_cancellable_set_error_if_cancelled (cancellable, error);
      return FALSE;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  /* Flows are bound on this core while the other sorts the events and
   * counters: they fill different parts of the trace. */
  helper = g_thread_try_new ("strata-finish", finish_worker, &finish, NULL);
  bind_flow_steps (state, flows);
  if (state->n_bound_slices > 0)
    bind_flow_ids (state, flows);
  if (helper != NULL)
    g_thread_join (helper);
  else
    finish_worker (&finish);
  if (finish.guard.fault != STRATA_LOAD_FAULT_NONE)
    {
      strata_load_guard_set_error (&finish.guard, error);
      return FALSE;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  strata_trace_take_flows (state->trace, g_steal_pointer (&flows));
  return TRUE;
}
