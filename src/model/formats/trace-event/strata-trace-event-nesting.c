/* strata-trace-event-nesting.c: JavaScript calls among a thread's trace events
 *
 * DevTools draws the calls made from a thread's JavaScript samples under
 * the trace events of that thread: the script a task ran sits under its
 * "FunctionCall", and a layout the script forced sits under the function
 * that forced it. Both are one stack here, walked through time: trace
 * events start and end, samples say which frames run. Frames open when a
 * trace event starts are its callers and stay until it ends; a sample
 * inside it changes only the frames above it. So everything nests, each
 * trace event keeps its times, and each sample's time goes to the frame
 * it hit, as its weight says.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-memory.h"
#include "strata-vec.h"
#include "strata-trace-event-private.h"

#define NOT_A_FRAME G_MAXUINT32

typedef struct
{
  guint32  method;      /* a JavaScript frame's, or NOT_A_FRAME */
  gboolean runs_script; /* trace events: the frames it calls end with it */
  guint32  slice;       /* frames: its slice, or its index at its depth in @table */
  gint64   start;
  gint64   end;         /* trace events only */
} Item;

typedef struct
{
  GArray *slices;       /* TeSlice: where the frames go, without @table */
  TeTable *table;       /* where every call goes, its depth its place in @items */
  guint32 *event_depths; /* with @table and flows bound by id: each trace */
  guint32 *event_refs;   /* event's depth and index, for them; else NULL */
  StrataVec items;      /* Item: what runs, outermost first */
  GArray *kinds;        /* guint8 by method: what its trace events are, or 0 */
  guint64 n_steps;      /* taken, for checks of a cancel now and then */
  StrataVec events;     /* guint: where in @items each open trace event is */
  const StrataTimedStack *last_sample;   /* NULL, or @last_taken */
  StrataTimedStack last_taken;
  gint64  next_sample_time;
  gboolean samples_done;
  StrataTimedStack rest_of_run;   /* the last sample's run, taken again */
  gboolean has_rest_of_run;
} Nest;

/* Frames at @keep and above end at @time. Their slices went in when
 * they started, so the frames are in the order the builder sorts calls
 * in, and need no sorting (strata_trace_event_nest_stacks()). */
static void
end_frames (Nest   *nest,
            guint   keep,
            gint64  time)
{
  for (guint i = keep; i < nest->items.len; i++)
    {
      const Item *item = &strata_vec_index (&nest->items, Item, i);

      if (nest->table != NULL)
        te_table_set_end (nest->table, i, item->slice, MAX (time, item->start));
      else
        g_array_index (nest->slices, TeSlice, item->slice).end = MAX (time, item->start);
    }
  if (nest->items.len > keep)
    strata_vec_truncate (&nest->items, keep);
}

/* Where the frames a sample may change begin: above the innermost open
 * trace event. */
static guint
free_base (const Nest *nest)
{
  return nest->events.len > 0 ? strata_vec_index (&nest->events, guint, nest->events.len - 1) + 1 : 0;
}

/* The frames below the innermost trace event stay; those above follow
 * the sample, past as many of its outer frames as stay below. */
static void
take_sample (Nest                   *nest,
             const StrataTimedStack *stack)
{
  guint base = free_base (nest);
  guint held = base - nest->events.len;
  guint common = 0;

  while (base + common < nest->items.len && held + common < stack->n_frames &&
         strata_vec_index (&nest->items, Item, base + common).method == stack->frames[stack->n_frames - 1 - held - common])
    common++;
  end_frames (nest, base + common, stack->time);
  for (guint d = held + common; d < stack->n_frames; d++)
    {
      Item item = { .method = stack->frames[stack->n_frames - 1 - d], .start = stack->time };
      TeSlice slice = { .start = stack->time, .end = stack->time, .method = item.method };

      if (nest->table != NULL)
        item.slice = te_table_open (nest->table, nest->items.len, &slice);
      else
        {
          item.slice = nest->slices->len;
          g_array_append_val (nest->slices, slice);
        }
      strata_vec_append (&nest->items, Item, item);
    }
}

/* An event started or ended at @time while the last sample's stack was
 * sampled on and on: the run's next sample, as evenly spaced as the run,
 * takes it again (a task that closed the frames, a call that ended them). */
static void
continue_run (Nest   *nest,
              gint64  time)
{
  const StrataTimedStack *last = nest->last_sample;
  gint64 step, next;

  nest->has_rest_of_run = FALSE;
  if (last == NULL || nest->samples_done || last->run_length == 0 || time >= last->run_end)
    return;
  step = MAX ((last->run_end - last->time) / (gint64) last->run_length, 1);
  next = MIN (last->time + ((time - last->time) / step + 1) * step, last->run_end);
  nest->rest_of_run = *last;
  nest->rest_of_run.time = next;
  nest->has_rest_of_run = TRUE;
}

static gboolean
is_named (StrataTrace       *trace,
          const TeSlice     *slice,
          const char *const *names)
{
  const char *name = strata_trace_get_string (trace, strata_trace_get_method (trace, slice->method)->name);

  return g_strv_contains (names, name);
}

/* A task starts with no JavaScript running, as DevTools has it. */
static const char *const task_names[] = { "RunTask", "RunMicrotasks", NULL };

/* The events that run a script: when they end, so has what they ran,
 * whatever the last sample said. */
static const char *const script_names[] = {
  "RunTask", "RunMicrotasks", "V8.RunMicrotasks", "FunctionCall", "EvaluateScript", "EvaluateModule",
  "v8.evaluateModule", "EventDispatch", "V8.Execute", "v8.run", "v8.callFunction", "TimerFire", NULL
};

/* With a table, a trace event goes in at its depth; flows find it by
 * its index in the thread's slices. */
static void
place_event (Nest          *nest,
             const TeSlice *slice,
             guint32        index)
{
  guint depth = nest->items.len;

  guint32 ref;

  if (nest->table == NULL)
    return;
  ref = te_table_open (nest->table, depth, slice);
  if (nest->event_refs == NULL)
    return;
  nest->event_refs[index] = ref;
  nest->event_depths[index] = depth;
}

#define KIND_KNOWN  (1 << 0)
#define KIND_TASK   (1 << 1)
#define KIND_SCRIPT (1 << 2)

/* What a trace event's name makes it, looked up once per method. */
static guint8
event_kind (Nest          *nest,
            StrataTrace   *trace,
            const TeSlice *slice)
{
  guint8 *kind;

  if (slice->method >= nest->kinds->len)
    g_array_set_size (nest->kinds, slice->method + 1);
  kind = &g_array_index (nest->kinds, guint8, slice->method);
  if (*kind == 0)
    *kind = KIND_KNOWN | (is_named (trace, slice, task_names) ? KIND_TASK : 0) |
            (is_named (trace, slice, script_names) ? KIND_SCRIPT : 0);
  return *kind;
}

static void
start_event (Nest          *nest,
             StrataTrace   *trace,
             const TeSlice *slice,
             guint32        index)
{
  guint8 kind = event_kind (nest, trace, slice);
  Item item = { .method = NOT_A_FRAME, .runs_script = (kind & KIND_SCRIPT) != 0, .start = slice->start, .end = slice->end };
  guint at;

  if (kind & KIND_TASK)
    end_frames (nest, free_base (nest), slice->start);
  place_event (nest, slice, index);
  at = nest->items.len;
  strata_vec_append (&nest->items, Item, item);
  strata_vec_append (&nest->events, guint, at);
  continue_run (nest, slice->start);
}

static void
end_event (Nest *nest)
{
  guint at = strata_vec_index (&nest->events, guint, nest->events.len - 1);
  gint64 end = strata_vec_index (&nest->items, Item, at).end;
  gboolean ran_script = strata_vec_index (&nest->items, Item, at).runs_script;

  end_frames (nest, at + 1, end);
  strata_vec_truncate (&nest->items, at);
  strata_vec_truncate (&nest->events, nest->events.len - 1);
  /* Other events return to the script the last sample says runs, if it
   * said otherwise meanwhile; or no sample will end what runs. */
  if (nest->samples_done)
    end_frames (nest, free_base (nest), end);
  else if (!ran_script && nest->last_sample != NULL && nest->next_sample_time > end)
    {
      StrataTimedStack again = *nest->last_sample;

      again.time = end;
      take_sample (nest, &again);
    }
  continue_run (nest, end);
}

/* A thread's trace events in the order they start, each cut at the end
 * of the one holding it as the builder cuts it. */
typedef struct
{
  TeSlice *events;      /* those that take time */
  guint32 *index;       /* of each in the thread's slices, if asked for */
  guint32  n_events;
  TeSlice *moments;     /* those that take none, in order */
  guint32 *moment_index;
  guint32  n_moments;
  guint    max_depth;   /* how deep they nest */
  guint64  n_clipped;   /* cut at their parent's end */
  gsize    released[2]; /* bytes of @events given back, by each part */
} Events;

static void
events_clear (Events *events)
{
  g_free (events->events);
  g_free (events->index);
  g_free (events->moments);
  g_free (events->moment_index);
}

/* @slices put in @order (new[k] = old[order[k]]), each moved once. */
static void
permute_slices (TeSlice       *slices,
                const guint32 *order,
                guint32        n)
{
  g_autofree guint64 *done = g_new0 (guint64, n / 64 + 1);

  for (guint32 k = 0; k < n; k++)
    {
      TeSlice first;
      guint32 at = k;

      if (done[k >> 6] & (G_GUINT64_CONSTANT (1) << (k & 63)))
        continue;
      first = slices[k];
      for (;;)
        {
          guint32 from = order[at];

          done[at >> 6] |= G_GUINT64_CONSTANT (1) << (at & 63);
          if (from == k)
            {
              slices[at] = first;
              break;
            }
          slices[at] = slices[from];
          at = from;
        }
    }
}

/* Those that take no time hold nothing: they go where the stack stands
 * once everything at their time has started. Where each came from is
 * kept @with_index only: flows bound by id need it, nothing else.
 * @in_place, @slices themselves are put in order and become the events
 * (a recording's million trace events are not held twice); they are
 * often in order already, as Chrome writes them. */
static void
events_in_order (TeSlice  *slices,
                 guint32   n,
                 gboolean  with_index,
                 gboolean  in_place,
                 Events   *out)
{
  g_autofree guint32 *order = strata_trace_event_slices_sorted (slices, n) ? NULL
                              : strata_trace_event_sort_slices (slices, n, NULL);
  g_autofree gint64 *ends = g_new (gint64, MAX (n, 1));
  guint depth = 0;

  g_return_if_fail (!(in_place && with_index));
  if (in_place && order != NULL)
    permute_slices (slices, order, n);
  *out = (Events) { in_place ? slices : g_new (TeSlice, MAX (n, 1)), with_index ? g_new (guint32, MAX (n, 1)) : NULL,
                    0, NULL, NULL, 0, 0, 0, { 0, 0 } };
  for (guint32 k = 0; k < n; k++)
    {
      guint32 from = order != NULL ? order[k] : k;
      /* In place, what is written goes at or before @k, read already. */
      TeSlice slice = in_place ? slices[k] : slices[from];

      while (depth > 0 && ends[depth - 1] <= slice.start)
        depth--;
      if (depth > 0 && slice.end > ends[depth - 1])
        {
          slice.end = ends[depth - 1];
          out->n_clipped++;
        }
      if (slice.end <= slice.start)
        {
          out->moments = g_renew (TeSlice, out->moments, out->n_moments + 1);
          if (with_index)
            {
              out->moment_index = g_renew (guint32, out->moment_index, out->n_moments + 1);
              out->moment_index[out->n_moments] = from;
            }
          out->moments[out->n_moments++] = slice;
          continue;
        }
      ends[depth++] = slice.end;
      out->max_depth = MAX (out->max_depth, depth);
      if (with_index)
        out->index[out->n_events] = from;
      out->events[out->n_events++] = slice;
    }
}

/* Moments before @time, up to @limit, go in where the stack stands. */
static void
place_moments (Nest          *nest,
               const Events  *events,
               guint32       *next,
               guint32        limit,
               gint64         time)
{
  if (nest->table == NULL)
    return;
  for (; *next < limit && events->moments[*next].start < time; (*next)++)
    place_event (nest, &events->moments[*next], events->moment_index != NULL ? events->moment_index[*next] : 0);
}

/* What one walk lays out: all of a thread, or one of its two parts. */
typedef struct
{
  guint32 first_event;   /* events[first_event, event_limit) */
  guint32 event_limit;
  guint32 first_moment;  /* moments[first_moment, moment_limit) */
  guint32 moment_limit;
  gint64  limit;         /* what starts from here on is the next part's */
  gint64  beyond;        /* when the next part's first sample is taken */
  gboolean ends_samples; /* the last part: the end closes what runs */
} Part;

/* Events nested deeper than this are laid out by the builder. */
#define MAX_TABLE_EVENT_DEPTH 4096

/* The calls as a span table, flows told where their calls went. */
static void
finish_table (TeState *state,
              guint    thread,
              Nest    *nest)
{
  TeThread *te = &g_array_index (state->threads, TeThread, thread);
  StrataThread *info = strata_trace_peek_thread (state->trace, thread);

  info->spans = te_table_finish (nest->table, state->trace);
  strata_trace_event_place_bound (te->bound, nest->event_depths, nest->event_refs);
  if (info->spans != NULL)
    strata_trace_event_set_thread_range (info);
  g_clear_pointer (&te->slices, g_array_unref);
}

/* Trace events and samples in time order: at one time, trace events end
 * first, then start, then samples are taken, so a sample taken as an
 * event starts runs inside it. */
static gboolean
walk (Nest           *nest,
      StrataTrace    *trace,
      Events         *events,
      const Part     *part,
      StrataV8Stacks *stacks,
      gint64          end,
      GCancellable   *cancellable)
{
  const StrataVec *items = &nest->items, *open = &nest->events;
  guint next_event = part->first_event;
  guint32 next_moment = part->first_moment;
  const StrataTimedStack last = { end, NULL, 0, end, 0 };
  const StrataTimedStack *after = part->ends_samples ? &last : NULL;
  StrataTimedStack pending;
  /* The next sample, then the end, which closes what runs, then none. */
  const StrataTimedStack *stack = strata_v8_stacks_next (stacks, &pending) ? &pending : after;

  for (;;)
    {
      gint64 event_end = open->len > 0 ? strata_vec_index (items, Item, strata_vec_index (open, guint, open->len - 1)).end : G_MAXINT64;
      gint64 event_start = next_event < part->event_limit ? events->events[next_event].start : G_MAXINT64;
      gint64 sample_time = stack != NULL ? stack->time : G_MAXINT64;
      gint64 run_time = nest->has_rest_of_run && nest->rest_of_run.time < part->limit ? nest->rest_of_run.time : G_MAXINT64;

      if (open->len == 0 && next_event >= part->event_limit && stack == NULL && run_time == G_MAXINT64)
        break;
      if (G_UNLIKELY ((++nest->n_steps & 0xffff) == 0) && g_cancellable_is_cancelled (cancellable))
        return FALSE;
      place_moments (nest, events, &next_moment, part->moment_limit, MIN (MIN (event_end, event_start), MIN (sample_time, run_time)));
      nest->next_sample_time = stack != NULL ? sample_time : part->beyond;
      if (open->len > 0 && event_end <= event_start && event_end <= MIN (sample_time, run_time))
        end_event (nest);
      else if (next_event < part->event_limit && event_start <= MIN (sample_time, run_time))
        {
          start_event (nest, trace, &events->events[next_event], events->index != NULL ? events->index[next_event] : 0);
          /* Read once, in order: what is read goes back to the system. */
          if ((++next_event & 0x3fff) == 0)
            strata_memory_release_front (events->events, next_event * sizeof (TeSlice), &events->released[part->first_event > 0]);
        }
      else if (run_time <= sample_time)
        {
          nest->has_rest_of_run = FALSE;
          take_sample (nest, &nest->rest_of_run);
        }
      else
        {
          take_sample (nest, stack);
          nest->last_taken = *stack;
          nest->last_sample = &nest->last_taken;
          nest->has_rest_of_run = FALSE;
          nest->samples_done = stack == &last;
          if (stack == &pending)
            stack = strata_v8_stacks_next (stacks, &pending) ? &pending : after;
          else
            stack = NULL;
        }
    }
  end_frames (nest, 0, part->ends_samples ? end : part->limit);
  place_moments (nest, events, &next_moment, part->moment_limit, G_MAXINT64);
  strata_memory_release_front_by (events->events, (gsize) part->event_limit * sizeof (TeSlice),
                                  &events->released[part->first_event > 0], 1);
  return TRUE;
}

/* The calls go straight into a table, the thread clock's moments at
 * @thread_time; the thread's slices, in @events now (or @events
 * themselves), go. */
static void
use_table (Nest          *nest,
           TeState       *state,
           TeThread      *te,
           gint64         thread_time,
           const Events  *events,
           TeNestTotals  *totals)
{
  guint first = te->slices->len;

  nest->table = te_table_new (state->has_thread_time ? 2 : 1, thread_time);
  if (events->index != NULL)
    {
      nest->event_depths = g_new0 (guint32, MAX (first, 1));
      nest->event_refs = g_new0 (guint32, MAX (first, 1));
    }
  totals->n_clipped += events->n_clipped;
  nest->slices = NULL;
  if ((gpointer) events->events == (gpointer) te->slices->data)
    (void) g_array_free (g_steal_pointer (&te->slices), FALSE);
  else
    g_clear_pointer (&te->slices, g_array_unref);
}

/* Events put in order in the thread's own slices, for a walk that adds
 * frames to those after all: the slices are the events and moments
 * again (the builder sorts them), and the events a copy of their own. */
static void
unshare_events (TeThread     *te,
                Events       *events,
                TeNestTotals *totals)
{
  events->events = g_memdup2 (te->slices->data, (gsize) MAX (events->n_events, 1) * sizeof (TeSlice));
  g_array_set_size (te->slices, events->n_events);
  g_array_append_vals (te->slices, events->moments, events->n_moments);
  /* Cut already: the builder finds nothing more to cut. */
  totals->n_clipped += events->n_clipped;
}

/* Below this many runs of samples a thread is laid out in one walk;
 * STRATA_NEST_SPLIT_MIN_RUNS sets another bar (tests compare both). */
#define SPLIT_MIN_RUNS 100000

static guint
split_min_runs (void)
{
  const char *bar = g_getenv ("STRATA_NEST_SPLIT_MIN_RUNS");

  return bar != NULL ? (guint) MIN (g_ascii_strtoull (bar, NULL, 10), G_MAXUINT) : SPLIT_MIN_RUNS;
}

static gint64
thread_time_reached (const TeSlice *slice)
{
  return (slice->flags & TE_SLICE_THREAD_TIME) ? MAX (slice->thread_start, slice->thread_end) : G_MININT64;
}

/* Where a thread's walk can be cut in two, at or after @middle: the
 * start of a task nothing holds. Every trace event before it has ended
 * and the task closes what the samples opened, so nothing stays open
 * across it; with two clocks, it starts on the thread clock after all
 * before it, so no call after it is placed by one before. Returns
 * FALSE if there is none. */
static gboolean
find_cut (Nest         *nest,
          StrataTrace  *trace,
          const Events *events,
          gboolean      two_clocks,
          gint64        middle,
          guint32      *cut)
{
  gint64 ended = G_MININT64, reached = G_MININT64;
  guint32 m = 0;

  for (guint32 k = 0; k < events->n_events; k++)
    {
      const TeSlice *event = &events->events[k];

      for (; m < events->n_moments && events->moments[m].start < event->start; m++)
        reached = MAX (reached, thread_time_reached (&events->moments[m]));
      if (event->start >= middle && ended <= event->start && (event_kind (nest, trace, event) & KIND_TASK) &&
          (!two_clocks || ((event->flags & TE_SLICE_THREAD_TIME) && reached <= event->thread_start)))
        {
          *cut = k;
          return TRUE;
        }
      ended = MAX (ended, event->end);
      reached = MAX (reached, thread_time_reached (event));
    }
  return FALSE;
}

/* The second part of a thread cut in two, walked on another core. */
typedef struct
{
  Nest             nest;
  TeState         *state;
  Events          *events;
  Part             part;
  StrataV8Stacks   stacks;
  gint64           end;
  gboolean         walked;
  StrataLoadGuard  guard;
} Tail;

/* A walk that memory running out stops without leaving this frame. */
static gboolean
walk_guarded (StrataLoadGuard *guard,
              Nest            *nest,
              TeState         *state,
              Events          *events,
              const Part      *part,
              StrataV8Stacks  *stacks,
              gint64           end)
{
  gboolean walked;

  if (STRATA_LOAD_GUARD_FAULTED (guard))
    return FALSE;
  walked = walk (nest, state->trace, events, part, stacks, end, state->job->cancellable);
  strata_load_guard_pop (guard);
  return walked;
}

static gpointer
walk_tail (gpointer data)
{
  Tail *tail = data;

  tail->walked = walk_guarded (&tail->guard, &tail->nest, tail->state, tail->events, &tail->part, &tail->stacks, tail->end);
  return NULL;
}

static void
nest_init (Nest *nest)
{
  *nest = (Nest) { .kinds = g_array_new (FALSE, TRUE, sizeof (guint8)), .next_sample_time = G_MININT64 };
}

static void
nest_clear (Nest *nest)
{
  strata_vec_clear (&nest->items);
  g_clear_pointer (&nest->kinds, g_array_unref);
  strata_vec_clear (&nest->events);
}

/* The tail's calls joined after the head's; the trace events it placed
 * told where they went. */
static void
join_tail (Nest         *head,
           Tail         *tail,
           const Events *events)
{
  guint32 n_depths = 0;
  g_autofree guint32 *n_before = NULL;

  while (te_table_get_n_calls (head->table, n_depths) > 0)
    n_depths++;
  n_before = g_new0 (guint32, n_depths + 1);
  for (guint d = 0; d < n_depths; d++)
    n_before[d] = te_table_get_n_calls (head->table, d);
  for (guint32 k = tail->part.first_event; head->event_refs != NULL && k < events->n_events; k++)
    if (head->event_depths[events->index[k]] < n_depths)
      head->event_refs[events->index[k]] += n_before[head->event_depths[events->index[k]]];
  for (guint32 k = tail->part.first_moment; head->event_refs != NULL && k < events->n_moments; k++)
    if (head->event_depths[events->moment_index[k]] < n_depths)
      head->event_refs[events->moment_index[k]] += n_before[head->event_depths[events->moment_index[k]]];
  te_table_append (head->table, tail->nest.table);
}

/* The thread's walk in two parts at once, if it has samples enough and
 * a place to cut; the tail is joined to the head. Returns FALSE if the
 * load was cancelled meanwhile (memory running out in either part
 * fails the load, as in one walk). */
static gboolean
walk_in_two (Nest           *nest,
             TeState        *state,
             Events         *events,
             StrataV8Stacks *stacks,
             gint64          end,
             gboolean       *cut)
{
  StrataV8Profile *profile = stacks->profile;
  guint n = stacks->limit, first;
  guint32 at;
  Part head;
  Tail tail = { .state = state, .events = events, .end = end };
  StrataLoadGuard guard;
  GThread *helper;
  gboolean walked;

  *cut = FALSE;
  if (n - stacks->next < split_min_runs () || stacks->next != 0 ||
      !find_cut (nest, state->trace, events, state->has_thread_time, strata_v8_profile_sample_time (profile, n / 2), &at))
    return TRUE;
  first = strata_v8_profile_first_sample_at (profile, events->events[at].start);
  if (first == 0 || first >= n)
    return TRUE;

  tail.part = (Part) { at, events->n_events, 0, events->n_moments, G_MAXINT64, G_MAXINT64, TRUE };
  while (tail.part.first_moment < events->n_moments && events->moments[tail.part.first_moment].start < events->events[at].start)
    tail.part.first_moment++;
  head = (Part) { 0, at, 0, tail.part.first_moment, events->events[at].start, strata_v8_profile_sample_time (profile, first), FALSE };
  events->released[1] = (gsize) at * sizeof (TeSlice);

  /* The tail starts where a task starts: the last sample before it is
   * what runs, and what a run of it takes on. */
  nest_init (&tail.nest);
  tail.nest.table = te_table_new (state->has_thread_time ? 2 : 1, te_table_get_origin (nest->table));
  tail.nest.event_depths = nest->event_depths;
  tail.nest.event_refs = nest->event_refs;
  strata_v8_stacks_init_range (&tail.stacks, profile, STRATA_V8_STACKS_TIMELINE, first - 1, n);
  if (stacks->consume)
    strata_v8_stacks_consume (&tail.stacks);
  strata_v8_stacks_next (&tail.stacks, &tail.nest.last_taken);
  tail.nest.last_sample = &tail.nest.last_taken;
  stacks->limit = first;

  g_debug ("%u runs of samples laid out in two parts, cut at %" G_GINT64_FORMAT " ns", n, head.limit);
  helper = g_thread_try_new ("strata-nest", walk_tail, &tail, NULL);
  walked = walk_guarded (&guard, nest, state, events, &head, stacks, end);
  if (helper != NULL)
    g_thread_join (helper);
  else
    walk_tail (&tail);
  if (walked && tail.walked)
    join_tail (nest, &tail, events);
  te_table_free (tail.nest.table);
  nest_clear (&tail.nest);
  strata_v8_stacks_clear (&tail.stacks);
  *cut = TRUE;
  if (guard.fault != STRATA_LOAD_FAULT_NONE || tail.guard.fault != STRATA_LOAD_FAULT_NONE)
    strata_load_guard_out_of_memory (MAX (guard.wanted, tail.guard.wanted));
  return walked && tail.walked;
}

/**
 * strata_trace_event_nest_stacks:
 * @thread: the thread that recorded the samples, its trace events read
 * @stacks: gives the samples in time order, frames innermost first; a
 *   stack stays whole until the second after it is asked for
 * @end: when the last one ends
 * @last_profile: whether no other profile of @thread is to come
 * @may_cut: whether a long walk may be laid out in two parts at once
 * @totals: what the trace's totals gain; threads are laid out on two
 *   cores at once, and the shared state is only read
 *
 * Adds the calls of @stacks to @thread, among its trace events. With
 * the thread's last profile, the thread's calls are laid out as they
 * open, straight into its span table.
 *
 * Returns: %FALSE if the load was cancelled meanwhile
 */
gboolean
strata_trace_event_nest_stacks (TeState        *state,
                                guint           thread,
                                StrataV8Stacks *stacks,
                                gint64          end,
                                gboolean        last_profile,
                                gboolean        may_cut,
                                TeNestTotals   *totals)
{
  TeThread *te = &g_array_index (state->threads, TeThread, thread);
  GArray *slices = te->slices;
  guint first = slices->len;
  gboolean with_index = te->bound != NULL && te->bound->len > 0;
  gint64 thread_time = strata_trace_event_first_thread_time ((const TeSlice *) slices->data, first);
  Nest nest;
  Events events;
  Part whole;
  gboolean walked, cut = FALSE;

  nest_init (&nest);
  nest.slices = slices;
  events_in_order ((TeSlice *) slices->data, first, with_index, last_profile && !with_index, &events);
  whole = (Part) { 0, events.n_events, 0, events.n_moments, G_MAXINT64, G_MAXINT64, TRUE };
  if (last_profile && events.max_depth <= MAX_TABLE_EVENT_DEPTH)
    use_table (&nest, state, te, thread_time, &events, totals);
  else if ((gpointer) events.events == (gpointer) slices->data)
    unshare_events (te, &events, totals);
  walked = nest.table == NULL || !may_cut || walk_in_two (&nest, state, &events, stacks, end, &cut);
  if (walked && !cut)
    walked = walk (&nest, state->trace, &events, &whole, stacks, end, state->job->cancellable);
  events_clear (&events);
  nest_clear (&nest);
  totals->last_time = MAX (totals->last_time, end);
  if (nest.table != NULL)
    {
      if (walked)
        finish_table (state, thread, &nest);
      te_table_free (nest.table);
      g_free (nest.event_depths);
      g_free (nest.event_refs);
      return walked;
    }
  if (!walked)
    return FALSE;
  /* One run of frames after the trace events is sorted already, unless
   * frames that took no time came before longer ones that began with
   * them; a second profile on the thread makes the builder sort all. */
  te->n_sorted_tail = te->n_sorted_tail == 0 && strata_trace_event_slices_in_order (slices, first)
                      ? slices->len - first : 0;
  return TRUE;
}
