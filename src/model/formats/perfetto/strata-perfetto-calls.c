/* strata-perfetto-calls.c: a Perfetto trace's slices as calls
 *
 * Slices begin and end on a track; each track's thread keeps a stack of
 * the open ones and, per depth, the calls that ended, in order: a call's
 * place at its depth is known when it begins, which is what flows bind
 * to. Thread time, where the trace has it (Chrome's extra counter of
 * the thread's CPU time), is the trace's second clock.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-perfetto-private.h"

typedef struct
{
  guint32 method;
  guint32 first_child;
  gint64  start;
  gint64  thread_start;
  guint64 source;
  gint64  end_at;             /* a complete (X) event's end, or G_MAXINT64 */
} Open;

typedef struct
{
  GPtrArray *depths;          /* GArray of StrataSpan */
  GPtrArray *second;          /* GArray of StrataClockSpan, beside @depths */
  GPtrArray *sources;         /* GArray of guint64, beside @depths */
  GArray    *open;            /* Open */
  GArray    *next_flows;      /* guint64 ids of flows that end on the next call to begin */
  gint64     last;            /* times hold here where they would run backwards */
  gint64     thread_last;
  gint64     thread_first;
  gboolean   has_thread_time;
  guint      n_too_deep;      /* begins past MAX_STACK, still open */
  guint64    n_backwards;
} Calls;


static void
array_unref0 (gpointer array)
{
  if (array != NULL)
    g_array_unref (array);
}

static Calls *
calls_of (Reader *self,
          guint   thread)
{
  while (self->calls->len <= thread)
    g_ptr_array_add (self->calls, NULL);
  if (self->calls->pdata[thread] == NULL)
    {
      Calls *calls = g_new0 (Calls, 1);

      calls->depths = g_ptr_array_new_with_free_func (array_unref0);
      calls->second = g_ptr_array_new_with_free_func (array_unref0);
      calls->sources = g_ptr_array_new_with_free_func (array_unref0);
      calls->open = g_array_new (FALSE, FALSE, sizeof (Open));
      calls->next_flows = g_array_new (FALSE, FALSE, sizeof (guint64));
      self->calls->pdata[thread] = calls;
    }
  return self->calls->pdata[thread];
}

static void
calls_free (Calls *calls)
{
  g_ptr_array_unref (calls->depths);
  g_ptr_array_unref (calls->second);
  g_ptr_array_unref (calls->sources);
  g_array_unref (calls->open);
  g_array_unref (calls->next_flows);
  g_free (calls);
}

/* Times of a track that would run backwards (events of it from two
 * sequences) hold at the last: the calls stay nested, as the table must. */
static gint64
hold_time (Calls  *calls,
           gint64  at)
{
  if (at < calls->last)
    {
      calls->n_backwards++;
      return calls->last;
    }
  return calls->last = at;
}

/* Thread times only go forward, and stay within 19.5 hours of the
 * thread's first, as wall times do: sums of durations stay in 64 bits. */
static gint64
hold_thread_time (Calls            *calls,
                  const TrackEvent *event)
{
  if (!event->has_thread_time)
    return calls->thread_last;
  if (!calls->has_thread_time)
    {
      calls->thread_first = calls->thread_last = event->thread_time;
      calls->has_thread_time = TRUE;
    }
  calls->thread_last = CLAMP (event->thread_time, calls->thread_last, calls->thread_first + MAX_SPAN);
  return calls->thread_last;
}

static guint32
method_of (Reader  *self,
           guint32  name,
           guint32  category)
{
  guint64 key = (guint64) name << 32 | category;
  MethodCacheEntry *cached = &self->method_cache[(name * 31 + category) % METHOD_CACHE];
  gpointer found;
  StrataMethod method = { .line = -1 };
  guint32 index;

  if (cached->key == key + 1 && key != G_MAXUINT64)
    return cached->method;
  if ((found = g_hash_table_lookup (self->methods, &key)) != NULL)
    {
      *cached = (MethodCacheEntry) { key + 1, GPOINTER_TO_UINT (found) - 1 };
      return cached->method;
    }
  method.raw_id = key;
  method.name = name;
  method.display_name = name != 0 ? name : strata_string_pool_intern (strata_trace_get_pool (self->trace), _("(unnamed)"));
  method.class_name = category;
  index = strata_trace_add_method (self->trace, &method);
  g_hash_table_insert (self->methods, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (index + 1));
  return index;
}

/* ---- Flows ---- */

/* What a flow step does: join the flow's last call to this one (IN),
 * make this one the last (OUT), both (INOUT), or join and end (END). */
typedef enum
{
  FLOW_IN = 1,
  FLOW_OUT = 2,
  FLOW_INOUT = 3,
  FLOW_END = 4,
} FlowStep;

static void
flow_step (Reader         *self,
           guint64         id,
           StrataSliceRef  ref,
           FlowStep        step)
{
  StrataSliceRef *last = g_hash_table_lookup (self->flows_open, &id);

  if (last != NULL && step != FLOW_OUT)
    {
      g_autofree char *text = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", id);
      StrataFlow flow = { *last, ref, strata_string_pool_intern (strata_trace_get_pool (self->trace), text), 0 };

      g_array_append_val (self->flows, flow);
    }
  if (step == FLOW_END)
    g_hash_table_remove (self->flows_open, &id);
  else if (step == FLOW_IN)
    return;
  else if (last != NULL)
    *last = ref;
  else
    g_hash_table_insert (self->flows_open, g_memdup2 (&id, sizeof id), g_memdup2 (&ref, sizeof ref));
}

/* Flow ids come one to a field, or packed in one. */
static void
flow_steps_of_field (Reader                 *self,
                     const StrataProtoField *field,
                     StrataSliceRef          ref,
                     FlowStep                step)
{
  gboolean fixed = field->number == EVENT_FLOW_IDS || field->number == EVENT_TERMINATING_FLOW_IDS;
  StrataProto packed;
  guint64 id;

  if (field->wire != STRATA_PROTO_BYTES)
    {
      flow_step (self, field->value, ref, step);
      return;
    }
  strata_proto_init (&packed, field->bytes, field->len);
  while (packed.p < packed.end)
    if (fixed && packed.end - packed.p >= 8)
      {
        id = 0;
        for (guint i = 0; i < 8; i++)
          id |= (guint64) packed.p[i] << (8 * i);
        packed.p += 8;
        flow_step (self, id, ref, step);
      }
    else if (!fixed && strata_proto_varint (&packed, &id))
      flow_step (self, id, ref, step);
    else
      break;
}

/* Legacy flows' ids are their own: kept apart from flow_ids'. */
#define LEGACY_FLOW ((guint64) 0x5A17 << 48)

static void
flow_steps (Reader           *self,
            const TrackEvent *event,
            StrataSliceRef    ref)
{
  StrataProto proto;
  StrataProtoField field;

  /* A legacy slice's bind id: FLOW_IN (1), FLOW_OUT (2), FLOW_INOUT (3). */
  if (event->bind_id != 0 && event->flow_direction != 0)
    flow_step (self, event->bind_id ^ LEGACY_FLOW, ref, (FlowStep) event->flow_direction);
  if (event->flow_ids == NULL)
    return;
  strata_proto_init (&proto, event->flow_ids, event->flow_ids_len);
  while (strata_proto_next (&proto, &field))
    switch (field.number)
      {
      case EVENT_FLOW_IDS: case EVENT_FLOW_IDS_OLD:
        flow_steps_of_field (self, &field, ref, FLOW_INOUT);
        break;
      case EVENT_TERMINATING_FLOW_IDS: case EVENT_TERMINATING_FLOW_IDS_OLD:
        flow_steps_of_field (self, &field, ref, FLOW_END);
        break;
      default:
        break;
      }
}

/* The innermost open call of @thread: where its place will be. */
static gboolean
open_ref (Calls          *calls,
          guint           thread,
          StrataSliceRef *ref)
{
  guint depth;

  if (calls->open->len == 0 || calls->n_too_deep > 0)
    return FALSE;
  depth = calls->open->len - 1;
  *ref = (StrataSliceRef) { thread, depth, ((GArray *) g_ptr_array_index (calls->depths, depth))->len };
  return TRUE;
}

static gboolean close_call (Calls *calls, gint64 at, gint64 thread_at);

/* Complete (X) events end by their duration: before anything later on
 * their thread. */
static void
close_ended (Calls  *calls,
             gint64  at)
{
  while (calls->n_too_deep == 0 && calls->open->len > 0)
    {
      Open *top = &g_array_index (calls->open, Open, calls->open->len - 1);

      if (top->end_at > at)
        break;
      close_call (calls, top->end_at, calls->thread_last);
    }
}

/* A legacy flow step ('s', 't', 'f') binds to the slice it happens in;
 * a finish outside any, or one that binds to the next slice, waits for
 * the next slice to begin. */
void
perfetto_calls_flow_step (Reader     *self,
                          guint       thread,
                          TrackEvent *event,
                          gint64      at)
{
  Calls *calls = calls_of (self, thread);
  guint64 id = event->legacy_id ^ LEGACY_FLOW;
  StrataSliceRef ref;

  close_ended (calls, at);
  if (event->legacy_phase == 'f' && !event->bind_to_enclosing)
    {
      if (calls->next_flows->len < MAX_EXTRA_COUNTERS)
        g_array_append_val (calls->next_flows, id);
      return;
    }
  if (open_ref (calls, thread, &ref))
    flow_step (self, id, ref, event->legacy_phase == 'f' ? FLOW_END : FLOW_INOUT);
  else
    self->n_unbound_flows++;
}

/* Flows on an instant bind to the call it happens in. */
static void
instant_flows (Reader     *self,
                              guint       thread,
                              TrackEvent *event,
                              gint64      at)
{
  StrataSliceRef ref;

  close_ended (calls_of (self, thread), at);
  if (event->flow_ids == NULL && event->bind_id == 0)
    return;
  if (open_ref (calls_of (self, thread), thread, &ref))
    flow_steps (self, event, ref);
  else
    self->n_unbound_flows++;
}

/* ---- Slices ---- */

/* Instants of a thread; global and process ones belong to no thread,
 * as in JSON. */
void
perfetto_calls_instant (Reader     *self,
                        guint       thread,
                        TrackEvent *event,
                        gint64      at)
{
  char scope = event->instant_scope == 'g' || event->instant_scope == 'p' ? event->instant_scope : 't';
  StrataEvent instant = {
    .start = at, .end = at, .name = event->name, .category = event->category,
    /* The process its pid is now: another may have taken the pid over
     * since the thread began. */
    .process = perfetto_process_index (self, strata_trace_get_process (self->trace, strata_trace_get_thread (self->trace, thread)->process)->pid, NULL),
    .thread = scope == 't' ? thread : STRATA_NO_THREAD,
    /* Marks (performance.mark()) stay marks, as in JSON. */
    .phase = event->legacy_phase == 'R' ? 'R' : 'i',
    .scope = scope,
    .source = event->source != 0 ? event->source : PERFETTO_NO_ARGS,
  };

  g_array_append_val (self->events, instant);
  instant_flows (self, thread, event, at);
}

void
perfetto_calls_begin (Reader     *self,
                      guint       thread,
                      TrackEvent *event,
                      gint64      at)
{
  Calls *calls = calls_of (self, thread);
  guint depth;
  Open call;
  StrataSliceRef ref;

  close_ended (calls, at);
  depth = calls->open->len;
  call = (Open) { method_of (self, event->name, event->category), 0, hold_time (calls, at),
                  hold_thread_time (calls, event), event->source != 0 ? event->source : PERFETTO_NO_ARGS,
                  event->has_duration ? at + event->duration : G_MAXINT64 };

  if (depth >= MAX_STACK || calls->n_too_deep > 0)
    {
      calls->n_too_deep++;
      self->n_too_deep++;
      return;
    }
  while (calls->depths->len < depth + 2)
    {
      g_ptr_array_add (calls->depths, g_array_new (FALSE, FALSE, sizeof (StrataSpan)));
      g_ptr_array_add (calls->second, g_array_new (FALSE, FALSE, sizeof (StrataClockSpan)));
      g_ptr_array_add (calls->sources, g_array_new (FALSE, FALSE, sizeof (guint64)));
    }
  call.first_child = ((GArray *) g_ptr_array_index (calls->depths, depth + 1))->len;
  g_array_append_val (calls->open, call);
  if (open_ref (calls, thread, &ref))
    {
      flow_steps (self, event, ref);
      for (guint i = 0; i < calls->next_flows->len; i++)
        flow_step (self, g_array_index (calls->next_flows, guint64, i), ref, FLOW_END);
      g_array_set_size (calls->next_flows, 0);
    }
}

static gboolean
close_call (Calls      *calls,
            gint64      at,
            gint64      thread_at)
{
  Open *top;
  guint depth;
  StrataSpan span;
  StrataClockSpan second;

  if (calls->n_too_deep > 0)
    {
      calls->n_too_deep--;
      return TRUE;
    }
  if (calls->open->len == 0)
    return FALSE;
  at = hold_time (calls, at);
  depth = calls->open->len - 1;
  top = &g_array_index (calls->open, Open, depth);
  span = (StrataSpan) { top->start, MAX (at, top->start), top->method, top->first_child };
  second = (StrataClockSpan) { top->thread_start, MAX (thread_at, top->thread_start) };
  g_array_append_val (g_ptr_array_index (calls->depths, depth), span);
  g_array_append_val (g_ptr_array_index (calls->second, depth), second);
  g_array_append_val (g_ptr_array_index (calls->sources, depth), top->source);
  g_array_set_size (calls->open, depth);
  return TRUE;
}

void
perfetto_calls_end (Reader     *self,
                    guint       thread,
                    TrackEvent *event,
                    gint64      at)
{
  Calls *calls = calls_of (self, thread);
  StrataSliceRef ref;

  close_ended (calls, at);
  if (calls->open->len == 0 && calls->n_too_deep == 0)
    {
      self->n_unmatched_ends++;
      return;
    }
  if (open_ref (calls, thread, &ref))
    {
      Open *top = &g_array_index (calls->open, Open, calls->open->len - 1);

      flow_steps (self, event, ref);
      /* The end's args continue the begin's. */
      if (event->source != 0 && top->source != PERFETTO_NO_ARGS)
        strata_trace_add_source_link (self->trace, top->source, event->source);
      else if (event->source != 0)
        top->source = event->source;
    }
  close_call (calls, at, hold_thread_time (calls, event));
}

/* ---- The table ---- */

static gpointer
adopt_array (Reader *self,
             GArray *array)
{
  /* Cut to its length: grown by doubling, it may be twice that. */
  gsize size = (gsize) array->len * g_array_get_element_size (array);
  gpointer data = g_realloc (g_array_free (array, FALSE), MAX (size, 1));

  strata_trace_adopt_block (self->trace, data);
  return data;
}

static void
finish_thread (Reader *self,
               guint   thread,
               Calls  *calls)
{
  StrataThread *info = strata_trace_peek_thread (self->trace, thread);
  guint n_depths, n_clocks = self->has_thread_time ? 2 : 1;
  g_autofree guint32 *counts = NULL;
  g_autofree StrataSpan **spans = NULL;
  g_autofree StrataClockSpan **second = NULL;
  g_autoptr(GArray) sources = g_array_new (FALSE, FALSE, sizeof (guint64));

  /* Slices still open at the end end with the thread's last event. */
  calls->n_too_deep = 0;
  close_ended (calls, G_MAXINT64 - 1);
  while (calls->open->len > 0)
    close_call (calls, calls->last, calls->thread_last);
  n_depths = calls->depths->len;
  while (n_depths > 0 && ((GArray *) g_ptr_array_index (calls->depths, n_depths - 1))->len == 0)
    n_depths--;
  if (n_depths == 0)
    return;
  counts = g_new (guint32, n_depths);
  spans = g_new (StrataSpan *, n_depths);
  second = g_new (StrataClockSpan *, n_depths);
  for (guint d = 0; d < n_depths; d++)
    {
      GArray *depth_sources = g_ptr_array_index (calls->sources, d);

      counts[d] = ((GArray *) g_ptr_array_index (calls->depths, d))->len;
      spans[d] = adopt_array (self, g_steal_pointer (&calls->depths->pdata[d]));
      second[d] = adopt_array (self, g_steal_pointer (&calls->second->pdata[d]));
      g_array_append_vals (sources, depth_sources->data, depth_sources->len);
    }
  info->spans = strata_span_table_new_by_depth (n_clocks, n_depths, counts, spans, n_clocks == 2 ? second : NULL, NULL);
  strata_span_table_set_sources (info->spans, adopt_array (self, g_steal_pointer (&sources)));
  info->first_time[0] = strata_span_table_start (info->spans, 0, 0);
  info->last_time[0] = strata_span_table_end (info->spans, 0, counts[0] - 1);
  if (n_clocks == 2)
    {
      info->first_time[1] = second[0][0].start;
      info->last_time[1] = second[0][counts[0] - 1].end;
    }
}

void
perfetto_calls_finish (Reader *self)
{
  StrataClockKind kinds[] = { STRATA_CLOCK_WALL, STRATA_CLOCK_THREAD_CPU };
  guint64 n_backwards = 0;

  strata_trace_set_clocks (self->trace, self->has_thread_time ? 2 : 1, kinds);
  for (guint t = 0; t < self->calls->len; t++)
    if (self->calls->pdata[t] != NULL)
      {
        Calls *calls = self->calls->pdata[t];

        n_backwards += calls->n_backwards;
        finish_thread (self, t, calls);
        calls_free (calls);
        self->calls->pdata[t] = NULL;
      }
  strata_trace_add_count_diagnostic (self->trace, n_backwards,
                                     ngettext ("%s event of a track came before the one written ahead of it and was held at its time.",
                                               "%s events of tracks came before those written ahead of them and were held at their times.",
                                               (gulong) MIN (n_backwards, G_MAXULONG)));
  strata_trace_take_flows (self->trace, g_steal_pointer (&self->flows));
}

void
perfetto_calls_clear (Reader *self)
{
  for (guint t = 0; t < self->calls->len; t++)
    if (self->calls->pdata[t] != NULL)
      calls_free (self->calls->pdata[t]);
  g_ptr_array_unref (self->calls);
  if (self->flows != NULL)
    g_array_unref (self->flows);
  g_hash_table_unref (self->flows_open);
}
