/* strata-trace-event-table.c: a thread's span table written as its calls open
 *
 * A thread whose JavaScript samples make millions of calls has them laid
 * out in time already (strata-trace-event-nesting.c): each call's depth
 * is where it stands on the stack, its place the calls opened before it
 * at that depth. Written straight into the table, they need no slice of
 * their own, no sort and no second pass: the table is all the memory
 * they take. On the thread clock a depth keeps only the calls that have
 * a thread time (trace events), and a bit per call saying which: the
 * calls made from samples are moments, found again from their callers
 * when asked for (strata_span_table_get_place()), and take no memory.
 *
 * A call without a thread time in a depth that has one is put where its
 * caller starts, or after the call before it: it depends on nothing
 * else laid out before, so a thread's calls can be laid out in two
 * parts at once and joined (te_table_append()).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-event-args.h"
#include "strata-load-guard.h"
#include "strata-memory.h"
#include "strata-vec.h"
#include "strata-trace-event-private.h"

/* Arrays of one depth grow by doubling; large ones are moved, not
 * copied, by realloc, and their unused tail takes no memory. */
typedef struct
{
  StrataVec        calls;      /* StrataPackedSpan */
  GArray          *bases;      /* gint64: where each block of calls starts */
  GArray          *wide;       /* StrataClockSpan: the wide calls' times */
  GArray          *has_place;  /* guint64: a bit per call, whether it has a thread time */
  GArray          *places;     /* StrataClockSpan: theirs */
  GArray          *with_source; /* guint32: the indexes of calls that have one */
  GArray          *sources;    /* guint64: theirs */
  StrataClockSpan  last;       /* the second-clock span opened last */
  gint64           last_end;   /* the thread clock's end of it */
} Depth;

struct _TeTable
{
  guint   n_clocks;
  GArray *depths;      /* Depth */
  gint64  origin;      /* where the thread clock starts */
};

/**
 * strata_trace_event_fit_thread_time:
 * @parent: (nullable): the caller's span on the thread clock
 * @last_end: (inout): the end of the last span at the depth
 * @now: (inout): the thread clock so far
 *
 * Thread times must nest like the calls and keep each depth in order, or
 * searches on the thread clock go wrong: out-of-line values are pulled
 * into their parent's range. A call without one is a moment at @now.
 */
void
strata_trace_event_fit_thread_time (StrataClockSpan       *span,
                                    const TeSlice         *slice,
                                    const StrataClockSpan *parent,
                                    gint64                *last_end,
                                    gint64                *now)
{
  gint64 start = (slice->flags & TE_SLICE_THREAD_TIME) ? slice->thread_start : *now;
  gint64 end = (slice->flags & TE_SLICE_THREAD_TIME) ? slice->thread_end : start;

  start = MAX (start, *last_end);
  if (parent != NULL)
    {
      start = CLAMP (start, parent->start, parent->end);
      end = MIN (end, parent->end);
    }
  end = MAX (end, start);
  span->start = start;
  span->end = end;
  *last_end = end;
  *now = MAX (*now, start);
}

/**
 * strata_trace_event_first_thread_time:
 *
 * Returns: where the thread clock starts: calls before the first with a
 *   thread time are moments at that value
 */
gint64
strata_trace_event_first_thread_time (const TeSlice *slices,
                                      guint32        n)
{
  gboolean any = FALSE;
  gint64 first = 0;

  for (guint32 i = 0; i < n; i++)
    if ((slices[i].flags & TE_SLICE_THREAD_TIME) && (!any || slices[i].thread_start < first))
      {
        first = slices[i].thread_start;
        any = TRUE;
      }
  return first;
}

TeTable *
te_table_new (guint  n_clocks,
              gint64 first_thread_time)
{
  TeTable *self = g_new0 (TeTable, 1);

  self->n_clocks = n_clocks;
  self->depths = g_array_new (FALSE, TRUE, sizeof (Depth));
  self->origin = first_thread_time;
  return self;
}

static void
depth_clear (Depth *depth)
{
  strata_vec_clear (&depth->calls);
  g_clear_pointer (&depth->bases, g_array_unref);
  g_clear_pointer (&depth->wide, g_array_unref);
  g_clear_pointer (&depth->has_place, g_array_unref);
  g_clear_pointer (&depth->places, g_array_unref);
  g_clear_pointer (&depth->with_source, g_array_unref);
  g_clear_pointer (&depth->sources, g_array_unref);
}

void
te_table_free (TeTable *self)
{
  if (self == NULL)
    return;
  for (guint d = 0; d < self->depths->len; d++)
    depth_clear (&g_array_index (self->depths, Depth, d));
  g_array_unref (self->depths);
  g_free (self);
}

static Depth
depth_new (void)
{
  return (Depth) { { NULL, 0, 0 }, g_array_new (FALSE, FALSE, sizeof (gint64)),
                   g_array_new (FALSE, FALSE, sizeof (StrataClockSpan)), g_array_new (FALSE, TRUE, sizeof (guint64)),
                   g_array_new (FALSE, FALSE, sizeof (StrataClockSpan)), g_array_new (FALSE, FALSE, sizeof (guint32)),
                   g_array_new (FALSE, FALSE, sizeof (guint64)), { 0, 0 }, G_MININT64 };
}

static Depth *
get_depth (TeTable *self,
           guint    depth)
{
  while (self->depths->len <= depth)
    {
      Depth fresh = depth_new ();

      g_array_append_val (self->depths, fresh);
    }
  return &g_array_index (self->depths, Depth, depth);
}

/* Call @index of @depth, as it was written. */
static StrataSpan
depth_call (const Depth *depth,
            guint32      index)
{
  const StrataPackedSpan *call = &strata_vec_index (&depth->calls, StrataPackedSpan, index);
  StrataClockSpan times = strata_packed_span_times (call, g_array_index (depth->bases, gint64, index >> STRATA_SPAN_BLOCK_BITS),
                                                    (const StrataClockSpan *) depth->wide->data);

  return (StrataSpan) { times.start, times.end, call->method, call->first_child };
}

/* @span after @depth's calls, packed; returns its index. */
static guint32
depth_append (Depth            *depth,
              const StrataSpan *span)
{
  guint32 index = depth->calls.len;
  StrataPackedSpan packed;

  if ((index & ((1u << STRATA_SPAN_BLOCK_BITS) - 1)) == 0)
    g_array_append_vals (depth->bases, &span->start, 1);
  packed = strata_packed_span_make (span, g_array_index (depth->bases, gint64, index >> STRATA_SPAN_BLOCK_BITS), depth->wide);
  strata_vec_append (&depth->calls, StrataPackedSpan, packed);
  return index;
}

/* Marks call @index of a depth as having a place of its own. */
static void
set_has_place (GArray  *has_place,
               guint32  index)
{
  if (has_place->len <= index >> 6)
    g_array_set_size (has_place, (index >> 6) + 1);
  g_array_index (has_place, guint64, index >> 6) |= G_GUINT64_CONSTANT (1) << (index & 63);
}

/* The thread-clock place of the call just opened at @depth: kept if it
 * has a thread time, else a moment (as strata_span_table_get_place()
 * finds it again) that only the calls it holds need to know. */
static void
open_thread_time (TeTable       *self,
                  guint          depth,
                  const TeSlice *slice)
{
  Depth *at = &g_array_index (self->depths, Depth, depth);
  const StrataClockSpan *parent = depth > 0 ? &(at - 1)->last : NULL;
  gint64 now = parent != NULL ? parent->start : self->origin;

  strata_trace_event_fit_thread_time (&at->last, slice, parent, &at->last_end, &now);
  if (slice->flags & TE_SLICE_THREAD_TIME)
    {
      set_has_place (at->has_place, at->calls.len - 1);
      g_array_append_val (at->places, at->last);
    }
}

/**
 * te_table_open:
 * @depth: how many calls hold it, all opened before it
 *
 * Adds @slice at @depth, after the calls opened there before; its
 * children are the calls opened at @depth + 1 from now until the next
 * call opens at @depth.
 *
 * Returns: its index at @depth
 */
guint32
te_table_open (TeTable       *self,
               guint          depth,
               const TeSlice *slice)
{
  Depth *at = get_depth (self, depth + 1) - 1;
  const Depth *below = at + 1;
  StrataSpan span = { slice->start, slice->end, slice->method, below->calls.len };
  guint32 index;

  /* Calls made from samples, most of them, come from no one place. */
  if (slice->source != STRATA_NO_SOURCE)
    {
      guint32 with_source = at->calls.len;

      g_array_append_val (at->with_source, with_source);
      g_array_append_vals (at->sources, &slice->source, 1);
    }
  index = depth_append (at, &span);
  if (self->n_clocks == 2)
    open_thread_time (self, depth, slice);
  return index;
}

/* A call opened with te_table_open() ends at @end. */
void
te_table_set_end (TeTable *self,
                  guint    depth,
                  guint32  index,
                  gint64   end)
{
  Depth *at = &g_array_index (self->depths, Depth, depth);
  StrataPackedSpan *call = &strata_vec_index (&at->calls, StrataPackedSpan, index);
  StrataSpan span;
  gint64 start;

  if (call->offset == STRATA_SPAN_WIDE)
    {
      g_array_index (at->wide, StrataClockSpan, call->length).end = end;
      return;
    }
  start = g_array_index (at->bases, gint64, index >> STRATA_SPAN_BLOCK_BITS) + call->offset;
  /* Most calls stay narrow: only their length changes. */
  if (end >= start && (guint64) end - (guint64) start <= G_MAXUINT32)
    {
      call->length = (guint32) ((guint64) end - (guint64) start);
      return;
    }
  span = depth_call (at, index);
  span.end = end;
  *call = strata_packed_span_make (&span, g_array_index (at->bases, gint64, index >> STRATA_SPAN_BLOCK_BITS), at->wide);
}

/* Where calls without a thread time start, at the top. */
gint64
te_table_get_origin (TeTable *self)
{
  return self->origin;
}

/* How many calls @self has at @depth so far. */
guint32
te_table_get_n_calls (TeTable *self,
                      guint    depth)
{
  return depth < self->depths->len ? g_array_index (self->depths, Depth, depth).calls.len : 0;
}

/* Copied a few megabytes at a time, the source's pages given back as
 * they are done: a depth of millions of calls is not held twice. */
#define MOVE_STEP (1 << 20)

/* @array emptied, its memory given back. */
static void
drop_array (GArray **array)
{
  guint size = g_array_get_element_size (*array);

  g_array_unref (*array);
  *array = g_array_new (FALSE, TRUE, size);
}

/* @from's calls after @to's, @from emptied: packed again, as their
 * blocks begin elsewhere; @shift is added to their children's index. */
static void
move_calls (Depth   *to,
            Depth   *from,
            guint32  shift)
{
  gsize released = 0;
  guint32 n = from->calls.len, step = MOVE_STEP / sizeof (StrataPackedSpan);

  for (guint32 i = 0; i < n; i++)
    {
      StrataSpan span = depth_call (from, i);

      span.first_child += shift;
      depth_append (to, &span);
      if ((i + 1) % step == 0)
        strata_memory_release_front_by (from->calls.data, (gsize) (i + 1) * sizeof (StrataPackedSpan), &released, MOVE_STEP);
    }
  strata_vec_clear (&from->calls);
}

/* @from's bits after the first @shift bits of @to (beyond them all 0). */
static void
append_bits (GArray  *to,
             GArray  *from,
             guint32  shift)
{
  guint n = from->len, at = shift >> 6, offset = shift & 63;
  guint64 *words;

  if (n == 0)
    return;
  g_array_set_size (to, MAX (to->len, at + n + 1));
  words = (guint64 *) to->data;
  for (guint w = 0; w < n; w++)
    {
      guint64 bits = g_array_index (from, guint64, w);

      words[at + w] |= bits << offset;
      if (offset != 0)
        words[at + w + 1] |= bits >> (64 - offset);
    }
}

static void
append_depth (Depth   *to,
              Depth   *from,
              guint32  n_below)
{
  guint32 n_here = to->calls.len, first = to->with_source->len;
  const guint32 *with_source = (const guint32 *) from->with_source->data;

  /* Each array of @from goes once copied: no depth is held twice. */
  g_array_set_size (to->with_source, first + from->with_source->len);
  for (guint32 i = 0; i < from->with_source->len; i++)
    g_array_index (to->with_source, guint32, first + i) = with_source[i] + n_here;
  drop_array (&from->with_source);
  g_array_append_vals (to->sources, from->sources->data, from->sources->len);
  drop_array (&from->sources);
  append_bits (to->has_place, from->has_place, n_here);
  drop_array (&from->has_place);
  g_array_append_vals (to->places, from->places->data, from->places->len);
  drop_array (&from->places);
  move_calls (to, from, n_below);
}

/* Joins the depths of @tail given to one core. */
typedef struct
{
  TeTable         *self;
  TeTable         *tail;
  const guint32   *n_below;   /* per depth: calls @self had a depth below */
  const guint8    *core_of;   /* per depth: which core moves it */
  guint            core;
  StrataLoadGuard  guard;
} JoinPart;

static void
join_depths (JoinPart *part)
{
  for (guint d = 0; d < part->tail->depths->len; d++)
    {
      Depth *to = &g_array_index (part->self->depths, Depth, d);
      Depth *from = &g_array_index (part->tail->depths, Depth, d);

      if (part->core_of[d] != part->core)
        continue;
      append_depth (to, from, part->n_below[d]);
      depth_clear (from);
      strata_memory_give_back ();
      *from = depth_new ();
    }
}

static gpointer
join_worker (gpointer data)
{
  JoinPart *part = data;

  if (STRATA_LOAD_GUARD_FAULTED (&part->guard))
    return NULL;
  join_depths (part);
  strata_load_guard_pop (&part->guard);
  return NULL;
}

/* Depths shared between the cores by their calls, the largest first. */
static guint8 *
share_depths (TeTable *tail)
{
  guint n_depths = tail->depths->len;
  guint8 *core_of = g_new0 (guint8, MAX (n_depths, 1));
  g_autofree guint32 *by_size = g_new (guint32, MAX (n_depths, 1));
  guint64 load[2] = { 0, 0 };

  for (guint d = 0; d < n_depths; d++)
    by_size[d] = d;
  for (guint i = 0; i < n_depths; i++)
    for (guint j = i + 1; j < n_depths; j++)
      if (te_table_get_n_calls (tail, by_size[j]) > te_table_get_n_calls (tail, by_size[i]))
        {
          guint32 swap = by_size[i];

          by_size[i] = by_size[j];
          by_size[j] = swap;
        }
  for (guint i = 0; i < n_depths; i++)
    {
      guint core = load[1] < load[0];

      core_of[by_size[i]] = (guint8) core;
      load[core] += te_table_get_n_calls (tail, by_size[i]);
    }
  return core_of;
}

/**
 * te_table_append:
 * @tail: calls laid out from an empty stack, all starting once those of
 *   @self have ended; emptied
 *
 * Puts @tail's calls after @self's at each depth, as if they had been
 * opened in @self: their children's indexes and places move up by the
 * calls @self had there. Depths are moved on two cores at once.
 */
void
te_table_append (TeTable *self,
                 TeTable *tail)
{
  guint n_depths = tail->depths->len;
  g_autofree guint32 *n_below = g_new0 (guint32, n_depths + 1);
  g_autofree guint8 *core_of = share_depths (tail);
  JoinPart parts[2];
  GThread *helper;

  for (guint d = 0; d < n_depths; d++)
    n_below[d] = te_table_get_n_calls (self, d + 1);
  if (n_depths == 0)
    return;
  get_depth (self, n_depths - 1);
  for (guint c = 0; c < 2; c++)
    parts[c] = (JoinPart) { .self = self, .tail = tail, .n_below = n_below, .core_of = core_of, .core = c };
  helper = g_thread_try_new ("strata-join", join_worker, &parts[1], NULL);
  /* Without a second thread, this one moves every depth. */
  if (helper == NULL)
    memset (core_of, 0, n_depths);
  join_depths (&parts[0]);
  if (helper != NULL)
    g_thread_join (helper);
  if (parts[1].guard.fault != STRATA_LOAD_FAULT_NONE)
    strata_load_guard_out_of_memory (parts[1].guard.wanted);
}

/* Threads' tables are finished on two cores at once. */
static GMutex adopt_lock;

/* @array's data, its own length, kept by @trace. */
static gpointer
adopt (StrataTrace *trace,
       GArray     **array)
{
  gsize size = (gsize) (*array)->len * g_array_get_element_size (*array);
  gpointer data = g_realloc (g_array_free (g_steal_pointer (array), FALSE), MAX (size, 1));

  g_mutex_lock (&adopt_lock);
  strata_trace_adopt_block (trace, data);
  g_mutex_unlock (&adopt_lock);
  return data;
}

/* @vec's data, its own length, kept by @trace; @vec is emptied. */
static gpointer
adopt_vec (StrataTrace *trace,
           StrataVec   *vec,
           gsize        element_size)
{
  gpointer data = g_realloc (vec->data, MAX ((gsize) vec->len * element_size, 1));

  *vec = (StrataVec) { NULL, 0, 0 };
  g_mutex_lock (&adopt_lock);
  strata_trace_adopt_block (trace, data);
  g_mutex_unlock (&adopt_lock);
  return data;
}

/* The places @depth keeps on the thread clock, and which calls they are
 * of, now @trace's. */
static void
finish_places (StrataTrace       *trace,
               Depth             *depth,
               StrataSparseClock *clock)
{
  guint n_words = (depth->calls.len + 63) / 64;
  GArray *rank;

  clock->n = depth->places->len;
  if (clock->n == 0)
    return;
  g_array_set_size (depth->has_place, n_words);
  rank = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n_words);
  for (guint w = 0, before = 0; w < n_words; w++)
    {
      g_array_append_val (rank, before);
      before += (guint) __builtin_popcountll (g_array_index (depth->has_place, guint64, w));
    }
  clock->rank = adopt (trace, &rank);
  clock->has = adopt (trace, &depth->has_place);
  clock->places = adopt (trace, &depth->places);
}

/**
 * te_table_finish:
 *
 * Returns: (nullable): the calls as a span table, its arrays now
 *   @trace's, or %NULL without calls; @self is emptied
 */
StrataSpanTable *
te_table_finish (TeTable     *self,
                 StrataTrace *trace)
{
  guint n_depths = self->depths->len;
  g_autofree guint32 *counts = g_new0 (guint32, MAX (n_depths, 1));
  g_autofree StrataPackedSpan **calls = g_new0 (StrataPackedSpan *, MAX (n_depths, 1));
  g_autofree gint64 **bases = g_new0 (gint64 *, MAX (n_depths, 1));
  g_autofree StrataClockSpan **wide = g_new0 (StrataClockSpan *, MAX (n_depths, 1));
  g_autofree StrataClockSpan **second = self->n_clocks == 2 ? g_new0 (StrataClockSpan *, MAX (n_depths, 1)) : NULL;
  StrataSparseClock *places = self->n_clocks == 2 ? g_new0 (StrataSparseClock, MAX (n_depths, 1)) : NULL;
  StrataSparseSources *sources = g_new0 (StrataSparseSources, MAX (n_depths, 1));
  StrataSpanTable *table;

  /* The last depths may only say where children would go. */
  while (n_depths > 0 && g_array_index (self->depths, Depth, n_depths - 1).calls.len == 0)
    n_depths--;
  if (n_depths == 0)
    {
      g_free (sources);
      g_free (places);
      return NULL;
    }
  /* Taken as they are: copied, they would take twice the memory. */
  for (guint d = 0; d < n_depths; d++)
    {
      Depth *depth = &g_array_index (self->depths, Depth, d);

      counts[d] = depth->calls.len;
      if (places != NULL)
        finish_places (trace, depth, &places[d]);
      calls[d] = adopt_vec (trace, &depth->calls, sizeof (StrataPackedSpan));
      bases[d] = (gint64 *) g_array_free (g_steal_pointer (&depth->bases), FALSE);
      wide[d] = (StrataClockSpan *) g_array_free (g_steal_pointer (&depth->wide), FALSE);
      sources[d].n = depth->sources->len;
      sources[d].index = adopt (trace, &depth->with_source);
      sources[d].source = adopt (trace, &depth->sources);
    }
  table = strata_span_table_new_packed (self->n_clocks, n_depths, counts, calls, bases, wide, second, sources);
  table->sparse_second = places;
  table->second_origin = self->origin;
  return table;
}
