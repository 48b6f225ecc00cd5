/* strata-trace-event-phases.c: what each phase of event does to the trace being built
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-error.h"
#include "strata-json-scan.h"
#include "strata-trace-event-private.h"


static TeThread *
thread_state (TeLoader *self,
              guint     thread)
{
  return &g_array_index (self->state.threads, TeThread, thread);
}

static void
note_time (TeLoader *self,
           TeThread *thread,
           gint64    time)
{
  if (!thread->has_time || time > thread->last_time)
    thread->last_time = time;
  thread->has_time = TRUE;
  self->state.last_time = MAX (self->state.last_time, time);
}

static guint32
slice_flags (TeLoader       *self,
             const TeFields *fields,
             guint32        *bind_id)
{
  guint32 flags = 0;

  if (fields->flow_in)
    flags |= TE_SLICE_FLOW_IN;
  if (fields->flow_out)
    flags |= TE_SLICE_FLOW_OUT;
  *bind_id = (flags != 0) ? te_intern_id (self, &fields->bind_id) : 0;
  self->state.n_bound_slices += flags != 0;
  if (*bind_id == 0 && flags != 0)
    *bind_id = te_intern_id (self, &fields->id);
  return flags;
}

static void
handle_complete (TeLoader       *self,
                 const TeFields *fields,
                 guint64         source)
{
  guint thread = te_ensure_thread (self, fields);
  TeThread *state = thread_state (self, thread);
  TeSlice slice = { .start = fields->ts, .end = fields->ts, .source = source };
  guint32 bind_id;

  if (fields->has_dur && fields->dur > 0)
    slice.end = fields->ts + fields->dur;
  else if (fields->has_dur && fields->dur < 0)
    self->state.n_negative_durations++;
  if (fields->has_tts)
    {
      slice.thread_start = fields->tts;
      slice.thread_end = fields->tts + (fields->has_tdur ? MAX (fields->tdur, 0) : 0);
      slice.flags |= TE_SLICE_THREAD_TIME;
      self->state.has_thread_time = TRUE;
    }
  slice.method = te_ensure_method (self, fields->has_name ? te_intern_name (self, fields) : 0,
                                fields->has_cat ? te_intern_category (self, fields) : 0);
  slice.flags |= slice_flags (self, fields, &bind_id);
  strata_trace_event_add_slice (&self->state, state, &slice, bind_id);
  note_time (self, state, slice.end);
}

static void
handle_begin (TeLoader       *self,
              const TeFields *fields,
              guint64         source)
{
  guint thread = te_ensure_thread (self, fields);
  TeThread *state = thread_state (self, thread);
  TeOpenBegin begin = {
    .start = fields->ts,
    .thread_start = fields->tts,
    .source = source,
    .name = fields->has_name ? te_intern_name (self, fields) : 0,
    .category = fields->has_cat ? te_intern_category (self, fields) : 0,
  };

  begin.flags = slice_flags (self, fields, &begin.bind_id);
  if (fields->has_tts)
    begin.flags |= TE_SLICE_THREAD_TIME;
  g_array_append_val (state->open, begin);
  note_time (self, state, fields->ts);
}

/* "args": {} and no args at all need no second look. */
static gboolean
has_args (const TeFields *fields)
{
  const char *p;

  if (fields->args == NULL || *fields->args != '{')
    return FALSE;
  p = strata_json_skip_space_inline (fields->args + 1, fields->args_end);
  return p < fields->args_end && *p != '}';
}

static void
handle_end (TeLoader       *self,
            const TeFields *fields,
            guint64         source)
{
  guint thread = te_ensure_thread (self, fields);
  TeThread *state = thread_state (self, thread);
  TeOpenBegin *begin;
  TeSlice slice = { 0 };

  note_time (self, state, fields->ts);
  if (state->open->len == 0)
    {
      self->state.n_unmatched_ends++;
      return;
    }

  /* An E closes the innermost B, whatever its name says. */
  begin = &g_array_index (state->open, TeOpenBegin, state->open->len - 1);
  if (fields->has_name && fields->name.len > 0 && begin->name != te_intern_name (self, fields))
    self->state.n_mismatched_ends++;

  slice.start = begin->start;
  slice.end = MAX (fields->ts, begin->start);
  slice.source = begin->source;
  slice.method = te_ensure_method (self, begin->name, begin->category);
  slice.flags = begin->flags;
  if ((begin->flags & TE_SLICE_THREAD_TIME) && fields->has_tts)
    {
      slice.thread_start = begin->thread_start;
      slice.thread_end = MAX (fields->tts, begin->thread_start);
      self->state.has_thread_time = TRUE;
    }
  else
    slice.flags &= ~TE_SLICE_THREAD_TIME;
  if (has_args (fields))
    strata_trace_add_source_link (self->state.trace, begin->source, source);
  strata_trace_event_add_slice (&self->state, state, &slice, begin->bind_id);
  g_array_set_size (state->open, state->open->len - 1);
}

static StrataEvent *
add_event (TeLoader       *self,
           const TeFields *fields,
           guint64         source,
           gboolean        on_thread)
{
  StrataEvent event = {
    .start = fields->ts,
    .end = fields->ts,
    .name = fields->has_name ? te_intern_name (self, fields) : 0,
    .category = fields->has_cat ? te_intern_category (self, fields) : 0,
    .id = te_intern_id (self, &fields->id),
    .thread = STRATA_NO_THREAD,
    .phase = fields->ph,
    .source = source,
  };

  if (on_thread)
    {
      event.thread = te_ensure_thread (self, fields);
      event.process = strata_trace_peek_thread (self->state.trace, event.thread)->process;
      note_time (self, thread_state (self, event.thread), fields->ts);
    }
  else
    {
      event.process = te_ensure_process (self, &fields->pid);
      self->state.last_time = MAX (self->state.last_time, fields->ts);
    }
  g_array_append_val (self->state.events, event);
  return &g_array_index (self->state.events, StrataEvent, self->state.events->len - 1);
}

static void
handle_instant (TeLoader       *self,
                const TeFields *fields,
                guint64         source)
{
  char scope = fields->scope == 'g' || fields->scope == 'p' ? fields->scope : 't';
  StrataEvent *event = add_event (self, fields, source, scope == 't');

  event->scope = scope;
}

typedef enum
{
  MATCH_CATEGORY = 1 << 0,
  MATCH_NAME     = 1 << 1,
  MATCH_PROCESS  = 1 << 2,   /* even without id2.local */
} MatchFields;

/* What events that belong together share, as Chrome's importer pairs
 * them: always the id and its scope, and the process when the id is
 * local to it; nestable async and flows the category too, legacy async
 * the name, objects (addresses in one process) the process and name. */
static TeKey
match_key (TeLoader       *self,
           const TeFields *fields,
           guint32         id,
           MatchFields     match)
{
  gboolean local = fields->id_local || ((match & MATCH_PROCESS) && !fields->id_global);
  TeKey key = {
    .category = (match & MATCH_CATEGORY) && fields->has_cat ? te_intern_category (self, fields) : 0,
    .id = id,
    .process = local ? te_ensure_process (self, &fields->pid) : G_MAXUINT32,
    .name = (match & MATCH_NAME) && fields->has_name ? te_intern_name (self, fields) : 0,
    .scope = fields->has_scope ? te_intern_string (self, &fields->scope_name) : 0,
  };

  return key;
}

static GArray *
async_stack (TeLoader       *self,
             const TeFields *fields,
             guint32         id)
{
  gboolean legacy = strchr ("STpF", fields->ph) != NULL;
  TeKey key = match_key (self, fields, id, legacy ? MATCH_NAME : MATCH_CATEGORY);
  GArray *stack = g_hash_table_lookup (self->state.async_open, &key);

  if (stack == NULL)
    {
      stack = g_array_new (FALSE, FALSE, sizeof (guint));
      g_hash_table_insert (self->state.async_open, g_memdup2 (&key, sizeof key), stack);
    }
  return stack;
}

static void
handle_async (TeLoader       *self,
              const TeFields *fields,
              guint64         source)
{
  guint32 id = te_intern_id (self, &fields->id);
  GArray *stack = async_stack (self, fields, id);
  gboolean opens = fields->ph == 'b' || fields->ph == 'S';
  gboolean closes = fields->ph == 'e' || fields->ph == 'F';
  StrataEvent *event;

  if (closes)
    {
      if (stack->len == 0)
        {
          self->state.n_async_unmatched_ends++;
          return;
        }
      event = &g_array_index (self->state.events, StrataEvent, g_array_index (stack, guint, stack->len - 1));
      event->end = MAX (fields->ts, event->start);
      self->state.last_time = MAX (self->state.last_time, fields->ts);
      g_array_set_size (stack, stack->len - 1);
      return;
    }

  event = add_event (self, fields, source, FALSE);
  event->thread = fields->tid.present ? te_ensure_thread (self, fields) : STRATA_NO_THREAD;
  event->depth = MIN (stack->len, G_MAXUINT16);
  event->end = G_MININT64;   /* open until its end comes */
  if (!opens)
    event->end = event->start;
  else
    {
      guint index = self->state.events->len - 1;

      g_array_append_val (stack, index);
    }
}

static void
handle_object (TeLoader       *self,
               const TeFields *fields,
               guint64         source)
{
  guint32 id = te_intern_id (self, &fields->id);
  TeKey key = match_key (self, fields, id, MATCH_NAME | MATCH_PROCESS);
  gpointer found = g_hash_table_lookup (self->state.objects_open, &key);
  StrataEvent *event;

  if (fields->ph == 'D' && found != NULL)
    {
      event = &g_array_index (self->state.events, StrataEvent, GPOINTER_TO_UINT (found) - 1);
      event->end = MAX (fields->ts, event->start);
      self->state.last_time = MAX (self->state.last_time, fields->ts);
      g_hash_table_remove (self->state.objects_open, &key);
      return;
    }

  /* A snapshot of an object never created explicitly creates it, as
   * Chrome's importer does: its lifetime starts there. */
  if (fields->ph == 'O' && found == NULL)
    {
      event = add_event (self, fields, source, FALSE);
      event->phase = 'N';
      event->thread = fields->tid.present ? te_ensure_thread (self, fields) : STRATA_NO_THREAD;
      event->end = G_MININT64;
      g_hash_table_insert (self->state.objects_open, g_memdup2 (&key, sizeof key),
                           GUINT_TO_POINTER (self->state.events->len));
    }

  event = add_event (self, fields, source, FALSE);
  event->thread = fields->tid.present ? te_ensure_thread (self, fields) : STRATA_NO_THREAD;
  if (fields->ph == 'N')
    {
      event->end = G_MININT64;
      g_hash_table_insert (self->state.objects_open, g_memdup2 (&key, sizeof key),
                           GUINT_TO_POINTER (self->state.events->len));
    }
}

static void
handle_flow (TeLoader       *self,
             const TeFields *fields)
{
  guint32 id = te_intern_id (self, &fields->id);
  TeKey key = match_key (self, fields, id, MATCH_CATEGORY);
  gpointer found = g_hash_table_lookup (self->state.flow_keys, &key);
  TeFlowStep step = {
    .time = fields->ts,
    .id = id,
    .name = fields->has_name ? te_intern_name (self, fields) : 0,
    .thread = te_ensure_thread (self, fields),
    .phase = fields->ph,
    .binds_enclosing = fields->ph != 'f' || fields->bp == 'e',
  };

  if (found == NULL)
    {
      found = GUINT_TO_POINTER (g_hash_table_size (self->state.flow_keys) + 1);
      g_hash_table_insert (self->state.flow_keys, g_memdup2 (&key, sizeof key), found);
    }
  step.key = GPOINTER_TO_UINT (found) - 1;
  g_array_append_val (self->state.flow_steps, step);
  note_time (self, thread_state (self, step.thread), fields->ts);
}

typedef struct
{
  TeLoader             *self;
  StrataCounterBuilder *counter;
  gint64                time;
} CounterScan;

static StrataJsonStatus
scan_counter_member (const char  *key,
                     gsize        key_len,
                     const char  *p,
                     const char  *end,
                     gpointer     data,
                     const char **value_end)
{
  CounterScan *scan = data;
  StrataJsonString key_string = { key, key_len, memchr (key, '\\', key_len) != NULL };
  TeValue value = { 0 };
  StrataJsonStatus status = te_scan_value (p, end, &value, value_end);
  double number;

  if (status != STRATA_JSON_OK)
    return status;
  if (value.present && !value.text.escaped &&
      strata_json_parse_double (value.text.start, value.text.start + value.text.len, &number))
    strata_counter_builder_add (scan->counter, scan->time, te_intern_string (scan->self, &key_string), number);
  else
    scan->self->state.n_bad_counter_values++;
  return STRATA_JSON_OK;
}

static void
handle_counter (TeLoader       *self,
                const TeFields *fields)
{
  guint process = te_ensure_process (self, &fields->pid);
  guint32 name = fields->has_name ? te_intern_name (self, fields) : 0;
  guint32 id = te_intern_id (self, &fields->id);
  TeKey key = { .process = process, .name = name, .id = id };
  gpointer found = g_hash_table_lookup (self->state.counter_keys, &key);
  CounterScan scan = { self, NULL, fields->ts };
  const char *args_end;

  if (found == NULL)
    {
      guint32 category = fields->has_cat ? te_intern_category (self, fields) : 0;

      g_ptr_array_add (self->state.counters, strata_counter_builder_new (name, category, id, process));
      found = GUINT_TO_POINTER (self->state.counters->len);
      g_hash_table_insert (self->state.counter_keys, g_memdup2 (&key, sizeof key), found);
    }
  scan.counter = g_ptr_array_index (self->state.counters, GPOINTER_TO_UINT (found) - 1);
  if (fields->args != NULL && *fields->args == '{')
    strata_json_scan_object (fields->args, fields->args_end, scan_counter_member, &scan, &args_end);
  strata_counter_builder_end_sample (scan.counter);
  self->state.last_time = MAX (self->state.last_time, fields->ts);
}

/* A "P" event naming a stack frame is one more sample for the profile;
 * "Profile" and "ProfileChunk" carry V8's JavaScript samples. Those are
 * shown as the calls they make, as DevTools shows them: a recording's
 * hundreds of thousands of chunks are no events of their own, unless
 * their args could not be read. */
static void
handle_sample (TeLoader       *self,
               const TeFields *fields,
               guint64         source)
{
  StrataEvent *event;
  TeSample sample;

  if (te_is_profile_event (fields) &&
      strata_trace_event_read_profile (&self->state, fields, te_ensure_thread (self, fields)))
    {
      self->state.last_time = MAX (self->state.last_time, fields->ts);
      return;
    }
  event = add_event (self, fields, source, TRUE);
  sample = (TeSample) { fields->ts, event->thread, NULL };
  if (!fields->sf.present || fields->sf.text.escaped)
    return;
  sample.frame = g_strndup (fields->sf.text.start, fields->sf.text.len);
  g_array_append_val (self->state.samples, sample);
}

/* ---- Metadata events ---- */

typedef struct
{
  TeLoader *self;
  gboolean  has_name;
  guint32   name;
  gboolean  has_sort_index;
  gint32    sort_index;
} MetadataScan;

static StrataJsonStatus
scan_metadata_member (const char  *key,
                      gsize        key_len,
                      const char  *p,
                      const char  *end,
                      gpointer     data,
                      const char **value_end)
{
  MetadataScan *scan = data;
  TeValue value = { 0 };
  StrataJsonStatus status = te_scan_value (p, end, &value, value_end);
  double number;

  if (status != STRATA_JSON_OK || !value.present)
    return status;
  if ((KEY_IS ("name") || KEY_IS ("labels")) && value.is_string)
    {
      scan->has_name = TRUE;
      scan->name = te_intern_string (scan->self, &value.text);
    }
  else if (KEY_IS ("sort_index") && !value.is_string &&
           strata_json_parse_double (value.text.start, value.text.start + value.text.len, &number))
    {
      scan->has_sort_index = TRUE;
      scan->sort_index = (gint32) CLAMP (number, G_MININT32, G_MAXINT32);
    }
  return STRATA_JSON_OK;
}

static void
handle_metadata (TeLoader       *self,
                 const TeFields *fields)
{
  MetadataScan scan = { self };
  const char *args_end;
  StrataJsonString name = fields->name;

  if (!fields->has_name || fields->args == NULL || *fields->args != '{')
    return;
  strata_json_scan_object (fields->args, fields->args_end, scan_metadata_member, &scan, &args_end);

  if (strata_json_string_equal (&name, "thread_name") || strata_json_string_equal (&name, "thread_sort_index"))
    {
      StrataThread *thread = strata_trace_peek_thread (self->state.trace, te_ensure_thread (self, fields));

      if (scan.has_name && strata_json_string_equal (&name, "thread_name"))
        thread->name = scan.name;
      if (scan.has_sort_index)
        thread->sort_index = scan.sort_index;
    }
  else if (strata_json_string_equal (&name, "process_name") ||
           strata_json_string_equal (&name, "process_sort_index") ||
           strata_json_string_equal (&name, "process_labels"))
    {
      StrataProcess *process = strata_trace_peek_process (self->state.trace, te_ensure_process (self, &fields->pid));

      if (scan.has_name && strata_json_string_equal (&name, "process_name"))
        process->name = scan.name;
      else if (scan.has_name && strata_json_string_equal (&name, "process_labels"))
        process->labels = scan.name;
      if (scan.has_sort_index)
        process->sort_index = scan.sort_index;
    }
}

/* ---- Dispatch ---- */

void
te_handle_event (TeLoader       *self,
                 const TeFields *fields,
                 guint64         source)
{
  guchar ph = (guchar) fields->ph;

  self->state.phase_counts[ph < 128 ? ph : 0]++;
  if (ph == 'M')
    {
      handle_metadata (self, fields);
      return;
    }
  if (!fields->has_ts)
    {
      /* Only metadata may go without a time. */
      self->state.n_without_time++;
      return;
    }

  switch (ph)
    {
    case 'X': handle_complete (self, fields, source); break;
    case 'B': handle_begin (self, fields, source); break;
    case 'E': handle_end (self, fields, source); break;
    case 'i': case 'I': case 'R':
      handle_instant (self, fields, source);
      break;
    case 'C': handle_counter (self, fields); break;
    case 'b': case 'n': case 'e': case 'S': case 'T': case 'p': case 'F':
      handle_async (self, fields, source);
      break;
    case 's': case 't': case 'f':
      handle_flow (self, fields);
      break;
    case 'N': case 'O': case 'D':
      handle_object (self, fields, source);
      break;
    case 'P':
      handle_sample (self, fields, source);
      break;
    case '(': case ')':
      add_event (self, fields, source, TRUE);
      break;
    case 'V': case 'v': case 'c': case '=':
      add_event (self, fields, source, FALSE);
      break;
    default:
      self->state.n_unknown_phases++;
      break;
    }
}

