/* strata-trace-event.c: Chrome Trace Event JSON, read as a stream
 *
 * The file is never parsed into a tree. A scanner walks the bytes (the
 * mapped file, or a window of inflated gzip data that slides along), and
 * each event's few fields are read where they lie; args stay in the file
 * and are found again by the event's offset when someone asks for them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "strata-content-reader.h"
#include "strata-error.h"
#include "strata-json-scan.h"
#include "strata-trace-event-private.h"

#define PROGRESS_INTERVAL 16384
#define MAX_METADATA_TEXT 4096
#define MAX_TIME (G_GINT64_CONSTANT (1) << 62)

/* ---- One event's fields, read without side effects ---- */

typedef struct
{
  gboolean         present;
  gboolean         is_string;
  StrataJsonString text;     /* strings, and numbers' digits */
} TeValue;

typedef struct
{
  const char      *start;
  char             ph;
  char             scope;
  char             bp;
  gboolean         has_name, has_cat, has_ts, has_dur, has_tts, has_tdur, has_scope;
  gboolean         bad_ts;
  gboolean         flow_in, flow_out;
  gboolean         id_global, id_local;
  StrataJsonString name;
  StrataJsonString cat;
  StrataJsonString scope_name;   /* "scope": ids of one scope match only each other */
  gint64           ts, dur, tts, tdur;
  TeValue          pid, tid, id, bind_id, sf;
  const char      *args;
  const char      *args_end;
} TeFields;

static StrataJsonStatus
scan_value (const char  *p,
            const char  *end,
            TeValue     *value,
            const char **value_end)
{
  StrataJsonStatus status;

  if (*p == '"')
    {
      status = strata_json_scan_string (p, end, &value->text, value_end);
      value->is_string = TRUE;
    }
  else if (*p == '-' || (*p >= '0' && *p <= '9'))
    {
      status = strata_json_scan_number (p, end, value_end);
      value->text = (StrataJsonString) { p, status == STRATA_JSON_OK ? (gsize) (*value_end - p) : 0, FALSE };
      value->is_string = FALSE;
    }
  else
    return strata_json_skip_value (p, end, value_end);

  value->present = status == STRATA_JSON_OK;
  return status;
}

/* A time in microseconds: a number, a string holding one, or null. */
static StrataJsonStatus
scan_time (const char  *p,
           const char  *end,
           gboolean    *present,
           gboolean    *bad,
           gint64      *ns,
           const char **value_end)
{
  TeValue value = { 0 };
  StrataJsonStatus status = scan_value (p, end, &value, value_end);

  if (status != STRATA_JSON_OK || !value.present)
    return status;
  /* Times beyond ±146 years would overflow when added or subtracted. */
  if (value.text.escaped ||
      !strata_json_parse_micros (value.text.start, value.text.start + value.text.len, ns) ||
      *ns >= MAX_TIME || *ns <= -MAX_TIME)
    *bad = TRUE;
  else
    *present = TRUE;
  return STRATA_JSON_OK;
}

static StrataJsonStatus
scan_string_field (const char        *p,
                   const char        *end,
                   gboolean          *present,
                   StrataJsonString  *string,
                   const char       **value_end)
{
  if (*p != '"')
    return strata_json_skip_value (p, end, value_end);
  *present = TRUE;
  return strata_json_scan_string (p, end, string, value_end);
}

static StrataJsonStatus
scan_char_field (const char  *p,
                 const char  *end,
                 char        *c,
                 const char **value_end)
{
  StrataJsonString string;
  gboolean present = FALSE;
  StrataJsonStatus status = scan_string_field (p, end, &present, &string, value_end);

  if (status == STRATA_JSON_OK && present && string.len > 0)
    *c = string.start[0];
  return status;
}

static StrataJsonStatus
scan_bool (const char  *p,
           const char  *end,
           gboolean    *value,
           const char **value_end)
{
  StrataJsonStatus status = strata_json_skip_value (p, end, value_end);

  *value = status == STRATA_JSON_OK && *p == 't';
  return status;
}

typedef StrataJsonStatus (*MemberFunc) (const char  *key,
                                        gsize        key_len,
                                        const char  *p,
                                        const char  *end,
                                        gpointer     data,
                                        const char **value_end);

/* Calls @func for each member of the object at @p (its '{'). */
static StrataJsonStatus
scan_object (const char  *p,
             const char  *end,
             MemberFunc   func,
             gpointer     data,
             const char **object_end)
{
  p++;
  for (;;)
    {
      StrataJsonString key;
      StrataJsonStatus status;

      p = strata_json_skip_space_inline (p, end);
      if (p >= end)
        return STRATA_JSON_INCOMPLETE;
      if (*p == '}')
        {
          *object_end = p + 1;
          return STRATA_JSON_OK;
        }
      if (*p == ',')
        {
          p++;
          continue;
        }
      if ((status = strata_json_scan_string (p, end, &key, &p)) != STRATA_JSON_OK)
        return status;
      p = strata_json_skip_space_inline (p, end);
      if (p < end && *p == ':')
        p = strata_json_skip_space_inline (p + 1, end);
      if (p >= end)
        return STRATA_JSON_INCOMPLETE;
      if ((status = func (key.start, key.len, p, end, data, &p)) != STRATA_JSON_OK)
        return status;
    }
}

static StrataJsonStatus
scan_id2_member (const char  *key,
                 gsize        key_len,
                 const char  *p,
                 const char  *end,
                 gpointer     data,
                 const char **value_end)
{
  TeFields *fields = data;

  if (key_len == 5 && memcmp (key, "local", 5) == 0)
    fields->id_local = TRUE;
  else if (key_len == 6 && memcmp (key, "global", 6) == 0)
    fields->id_global = TRUE;
  else
    return strata_json_skip_value (p, end, value_end);
  return scan_value (p, end, &fields->id, value_end);
}

#define KEY_IS(literal) (key_len == sizeof (literal) - 1 && memcmp (key, literal, key_len) == 0)

static StrataJsonStatus
scan_event_member (const char  *key,
                   gsize        key_len,
                   const char  *p,
                   const char  *end,
                   gpointer     data,
                   const char **value_end)
{
  TeFields *f = data;

  switch (key_len)
    {
    case 1:
      if (key[0] == 's')
        return scan_char_field (p, end, &f->scope, value_end);
      break;
    case 2:
      if (KEY_IS ("ph"))
        return scan_char_field (p, end, &f->ph, value_end);
      if (KEY_IS ("ts"))
        return scan_time (p, end, &f->has_ts, &f->bad_ts, &f->ts, value_end);
      if (KEY_IS ("id"))
        return scan_value (p, end, &f->id, value_end);
      if (KEY_IS ("bp"))
        return scan_char_field (p, end, &f->bp, value_end);
      if (KEY_IS ("sf"))
        return scan_value (p, end, &f->sf, value_end);
      break;
    case 3:
      if (KEY_IS ("pid"))
        return scan_value (p, end, &f->pid, value_end);
      if (KEY_IS ("tid"))
        return scan_value (p, end, &f->tid, value_end);
      if (KEY_IS ("cat"))
        return scan_string_field (p, end, &f->has_cat, &f->cat, value_end);
      if (KEY_IS ("dur"))
        return scan_time (p, end, &f->has_dur, &f->bad_ts, &f->dur, value_end);
      if (KEY_IS ("tts"))
        return scan_time (p, end, &f->has_tts, &f->bad_ts, &f->tts, value_end);
      if (KEY_IS ("id2") && *p == '{')
        return scan_object (p, end, scan_id2_member, f, value_end);
      break;
    case 4:
      if (KEY_IS ("name"))
        return scan_string_field (p, end, &f->has_name, &f->name, value_end);
      if (KEY_IS ("args"))
        {
          f->args = p;
          StrataJsonStatus status = strata_json_skip_value (p, end, value_end);
          f->args_end = *value_end;
          return status;
        }
      if (KEY_IS ("tdur"))
        return scan_time (p, end, &f->has_tdur, &f->bad_ts, &f->tdur, value_end);
      break;
    case 5:
      if (KEY_IS ("scope"))
        return scan_string_field (p, end, &f->has_scope, &f->scope_name, value_end);
      break;
    case 7:
      if (KEY_IS ("bind_id"))
        return scan_value (p, end, &f->bind_id, value_end);
      if (KEY_IS ("flow_in"))
        return scan_bool (p, end, &f->flow_in, value_end);
      break;
    case 8:
      if (KEY_IS ("flow_out"))
        return scan_bool (p, end, &f->flow_out, value_end);
      break;
    default:
      break;
    }
  return strata_json_skip_value (p, end, value_end);
}

static StrataJsonStatus
scan_event (const char  *p,
            const char  *end,
            TeFields    *fields,
            const char **event_end)
{
  memset (fields, 0, sizeof *fields);
  fields->start = p;
  return scan_object (p, end, scan_event_member, fields, event_end);
}

/* ---- Turning text into ids ---- */

typedef struct
{
  TeState   state;
  StrataContentReader reader;
  GString  *scratch;
  StrataIdMap processes;       /* pid -> process index */
  GPtrArray  *threads;         /* per process: StrataIdMap, tid -> thread index */
  GHashTable *named_ids;       /* pid or tid text -> made-up number */
  gint64      last_pid, last_tid;
  guint       last_thread;
  guint64     n_events;
  guint64     n_not_objects;
  gboolean    has_trace_events;
  gboolean    truncated;
  gboolean    cut_mid_event;
  gboolean    trailing_comma;
  guint64     truncated_at;
  guint64     invalid_at;
  gboolean    invalid;
} TeLoader;

static guint32
intern_string (TeLoader               *self,
               const StrataJsonString *string)
{
  StrataStringPool *pool = strata_trace_get_pool (self->state.trace);

  if (!string->escaped)
    return strata_string_pool_intern_len (pool, string->start, string->len);
  g_string_truncate (self->scratch, 0);
  strata_json_unescape (string, self->scratch);
  return strata_string_pool_intern (pool, self->scratch->str);
}

/* Ids that are numbers, or strings of hex, have one spelling: "0x1f". */
static guint32
intern_id (TeLoader      *self,
           const TeValue *value)
{
  const char *start = value->text.start;
  const char *end;
  gboolean numeric;
  guint64 number;

  if (!value->present)
    return 0;
  end = start + value->text.len;
  numeric = !value->is_string || (value->text.len > 2 && start[0] == '0' && (start[1] == 'x' || start[1] == 'X'));
  if (numeric && !value->text.escaped && strata_json_parse_uint64 (start, end, &number))
    {
      static const char digits[] = "0123456789abcdef";
      char text[20];
      int n = sizeof text;

      do
        text[--n] = digits[number & 15];
      while ((number >>= 4) != 0);
      text[--n] = 'x';
      text[--n] = '0';
      return strata_string_pool_intern_len (strata_trace_get_pool (self->state.trace), text + n, sizeof text - n);
    }
  return intern_string (self, &value->text);
}

/* pid and tid: numbers, or strings that get a made-up number and are
 * kept as the name. */
static gint64
value_number (TeLoader      *self,
              const TeValue *value,
              guint32       *name)
{
  g_autofree char *text = NULL;
  gpointer found;
  gint64 number;

  *name = 0;
  if (!value->present)
    return 0;
  if (!value->is_string)
    {
      double d;

      if (strata_json_parse_double (value->text.start, value->text.start + value->text.len, &d) &&
          d > -9.2e18 && d < 9.2e18)
        return (gint64) d;
      return 0;
    }

  *name = intern_string (self, &value->text);
  text = g_strdup (strata_trace_get_string (self->state.trace, *name));
  if (!g_hash_table_lookup_extended (self->named_ids, text, NULL, &found))
    {
      number = G_MININT32 - (gint64) g_hash_table_size (self->named_ids);
      g_hash_table_insert (self->named_ids, g_steal_pointer (&text), GSIZE_TO_POINTER ((gsize) -number));
      return number;
    }
  return -(gint64) GPOINTER_TO_SIZE (found);
}

static guint
ensure_process (TeLoader      *self,
                const TeValue *pid_value)
{
  guint32 name;
  gint64 pid = value_number (self, pid_value, &name);
  guint index = strata_id_map_lookup (&self->processes, (guint64) pid);
  StrataIdMap *threads;

  if (index != STRATA_ID_MAP_MISSING)
    return index;

  index = strata_trace_add_process (self->state.trace, pid, name ? strata_trace_get_string (self->state.trace, name) : NULL);
  strata_id_map_insert (&self->processes, (guint64) pid, index);
  threads = g_new0 (StrataIdMap, 1);
  strata_id_map_init (threads);
  g_ptr_array_add (self->threads, threads);
  return index;
}

static guint
ensure_thread (TeLoader       *self,
               const TeFields *fields)
{
  guint32 tid_name;
  guint process;
  gint64 tid;
  StrataIdMap *threads;
  guint index;

  process = ensure_process (self, &fields->pid);
  tid = value_number (self, &fields->tid, &tid_name);
  if (self->last_thread != STRATA_NO_THREAD &&
      strata_trace_peek_thread (self->state.trace, self->last_thread)->process == process &&
      tid == self->last_tid)
    return self->last_thread;

  threads = g_ptr_array_index (self->threads, process);
  index = strata_id_map_lookup (threads, (guint64) tid);
  if (index == STRATA_ID_MAP_MISSING)
    {
      TeThread state = { 0 };

      index = strata_trace_add_thread (self->state.trace, process, tid,
                                       tid_name ? strata_trace_get_string (self->state.trace, tid_name) : NULL);
      strata_id_map_insert (threads, (guint64) tid, index);
      state.slices = g_array_new (FALSE, FALSE, sizeof (TeSlice));
      state.open = g_array_new (FALSE, FALSE, sizeof (TeOpenBegin));
      g_array_append_val (self->state.threads, state);
    }
  self->last_thread = index;
  self->last_tid = tid;
  return index;
}

static guint32
ensure_method (TeLoader *self,
               guint32   name,
               guint32   category)
{
  return strata_trace_event_ensure_method (&self->state, name, category);
}

/**
 * strata_trace_event_sample_thread:
 *
 * The thread a sample belongs to. Without a pid, the first thread with
 * that tid; failing that, a new thread (in process 0) named @name.
 */
guint
strata_trace_event_sample_thread (TeState    *state,
                                  gboolean    has_pid,
                                  gint64      pid,
                                  gint64      tid,
                                  const char *name)
{
  /* The state is the loader's first member. */
  TeLoader *self = (TeLoader *) state;
  TeFields fields = { 0 };
  g_autofree char *pid_text = g_strdup_printf ("%" G_GINT64_FORMAT, has_pid ? pid : 0);
  g_autofree char *tid_text = g_strdup_printf ("%" G_GINT64_FORMAT, tid);
  guint thread;

  for (guint i = 0; !has_pid && i < strata_trace_get_n_threads (state->trace); i++)
    if (strata_trace_peek_thread (state->trace, i)->tid == tid)
      return i;

  fields.pid = (TeValue) { TRUE, FALSE, { pid_text, strlen (pid_text), FALSE } };
  fields.tid = (TeValue) { TRUE, FALSE, { tid_text, strlen (tid_text), FALSE } };
  thread = ensure_thread (self, &fields);
  if (name != NULL && *name != '\0' && strata_trace_peek_thread (state->trace, thread)->name == 0)
    strata_trace_peek_thread (state->trace, thread)->name =
      strata_string_pool_intern (strata_trace_get_pool (state->trace), name);
  return thread;
}

/* ---- Phases ---- */

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
  *bind_id = (flags != 0) ? intern_id (self, &fields->bind_id) : 0;
  self->state.n_bound_slices += flags != 0;
  if (*bind_id == 0 && flags != 0)
    *bind_id = intern_id (self, &fields->id);
  return flags;
}

static void
handle_complete (TeLoader       *self,
                 const TeFields *fields,
                 guint64         source)
{
  guint thread = ensure_thread (self, fields);
  TeThread *state = thread_state (self, thread);
  TeSlice slice = { .start = fields->ts, .end = fields->ts, .source = source };

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
  slice.method = ensure_method (self, fields->has_name ? intern_string (self, &fields->name) : 0,
                                fields->has_cat ? intern_string (self, &fields->cat) : 0);
  slice.flags |= slice_flags (self, fields, &slice.bind_id);
  g_array_append_val (state->slices, slice);
  note_time (self, state, slice.end);
}

static void
handle_begin (TeLoader       *self,
              const TeFields *fields,
              guint64         source)
{
  guint thread = ensure_thread (self, fields);
  TeThread *state = thread_state (self, thread);
  TeOpenBegin begin = {
    .start = fields->ts,
    .thread_start = fields->tts,
    .source = source,
    .name = fields->has_name ? intern_string (self, &fields->name) : 0,
    .category = fields->has_cat ? intern_string (self, &fields->cat) : 0,
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
  guint thread = ensure_thread (self, fields);
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
  if (fields->has_name && fields->name.len > 0 && begin->name != intern_string (self, &fields->name))
    self->state.n_mismatched_ends++;

  slice.start = begin->start;
  slice.end = MAX (fields->ts, begin->start);
  slice.source = begin->source;
  slice.method = ensure_method (self, begin->name, begin->category);
  slice.flags = begin->flags;
  slice.bind_id = begin->bind_id;
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
  g_array_set_size (state->open, state->open->len - 1);
  g_array_append_val (state->slices, slice);
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
    .name = fields->has_name ? intern_string (self, &fields->name) : 0,
    .category = fields->has_cat ? intern_string (self, &fields->cat) : 0,
    .id = intern_id (self, &fields->id),
    .thread = STRATA_NO_THREAD,
    .phase = fields->ph,
    .source = source,
  };

  if (on_thread)
    {
      event.thread = ensure_thread (self, fields);
      event.process = strata_trace_peek_thread (self->state.trace, event.thread)->process;
      note_time (self, thread_state (self, event.thread), fields->ts);
    }
  else
    {
      event.process = ensure_process (self, &fields->pid);
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
    .category = (match & MATCH_CATEGORY) && fields->has_cat ? intern_string (self, &fields->cat) : 0,
    .id = id,
    .process = local ? ensure_process (self, &fields->pid) : G_MAXUINT32,
    .name = (match & MATCH_NAME) && fields->has_name ? intern_string (self, &fields->name) : 0,
    .scope = fields->has_scope ? intern_string (self, &fields->scope_name) : 0,
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
  guint32 id = intern_id (self, &fields->id);
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
  event->thread = fields->tid.present ? ensure_thread (self, fields) : STRATA_NO_THREAD;
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
  guint32 id = intern_id (self, &fields->id);
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
      event->thread = fields->tid.present ? ensure_thread (self, fields) : STRATA_NO_THREAD;
      event->end = G_MININT64;
      g_hash_table_insert (self->state.objects_open, g_memdup2 (&key, sizeof key),
                           GUINT_TO_POINTER (self->state.events->len));
    }

  event = add_event (self, fields, source, FALSE);
  event->thread = fields->tid.present ? ensure_thread (self, fields) : STRATA_NO_THREAD;
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
  guint32 id = intern_id (self, &fields->id);
  TeKey key = match_key (self, fields, id, MATCH_CATEGORY);
  gpointer found = g_hash_table_lookup (self->state.flow_keys, &key);
  TeFlowStep step = {
    .time = fields->ts,
    .id = id,
    .name = fields->has_name ? intern_string (self, &fields->name) : 0,
    .thread = ensure_thread (self, fields),
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
  StrataJsonStatus status = scan_value (p, end, &value, value_end);
  double number;

  if (status != STRATA_JSON_OK)
    return status;
  if (value.present && !value.text.escaped &&
      strata_json_parse_double (value.text.start, value.text.start + value.text.len, &number))
    strata_counter_builder_add (scan->counter, scan->time, intern_string (scan->self, &key_string), number);
  else
    scan->self->state.n_bad_counter_values++;
  return STRATA_JSON_OK;
}

static void
handle_counter (TeLoader       *self,
                const TeFields *fields)
{
  guint process = ensure_process (self, &fields->pid);
  guint32 name = fields->has_name ? intern_string (self, &fields->name) : 0;
  guint32 id = intern_id (self, &fields->id);
  TeKey key = { .process = process, .name = name, .id = id };
  gpointer found = g_hash_table_lookup (self->state.counter_keys, &key);
  CounterScan scan = { self, NULL, fields->ts };
  const char *args_end;

  if (found == NULL)
    {
      guint32 category = fields->has_cat ? intern_string (self, &fields->cat) : 0;

      g_ptr_array_add (self->state.counters, strata_counter_builder_new (name, category, id, process));
      found = GUINT_TO_POINTER (self->state.counters->len);
      g_hash_table_insert (self->state.counter_keys, g_memdup2 (&key, sizeof key), found);
    }
  scan.counter = g_ptr_array_index (self->state.counters, GPOINTER_TO_UINT (found) - 1);
  if (fields->args != NULL && *fields->args == '{')
    scan_object (fields->args, fields->args_end, scan_counter_member, &scan, &args_end);
  strata_counter_builder_end_sample (scan.counter);
  self->state.last_time = MAX (self->state.last_time, fields->ts);
}

/* A "P" event naming a stack frame is one more sample for the profile. */
static void
handle_sample (TeLoader       *self,
               const TeFields *fields,
               guint64         source)
{
  StrataEvent *event = add_event (self, fields, source, TRUE);
  TeSample sample = { fields->ts, event->thread, NULL };

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
  StrataJsonStatus status = scan_value (p, end, &value, value_end);
  double number;

  if (status != STRATA_JSON_OK || !value.present)
    return status;
  if ((KEY_IS ("name") || KEY_IS ("labels")) && value.is_string)
    {
      scan->has_name = TRUE;
      scan->name = intern_string (scan->self, &value.text);
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
  scan_object (fields->args, fields->args_end, scan_metadata_member, &scan, &args_end);

  if (strata_json_string_equal (&name, "thread_name") || strata_json_string_equal (&name, "thread_sort_index"))
    {
      StrataThread *thread = strata_trace_peek_thread (self->state.trace, ensure_thread (self, fields));

      if (scan.has_name && strata_json_string_equal (&name, "thread_name"))
        thread->name = scan.name;
      if (scan.has_sort_index)
        thread->sort_index = scan.sort_index;
    }
  else if (strata_json_string_equal (&name, "process_name") ||
           strata_json_string_equal (&name, "process_sort_index") ||
           strata_json_string_equal (&name, "process_labels"))
    {
      StrataProcess *process = strata_trace_peek_process (self->state.trace, ensure_process (self, &fields->pid));

      if (scan.has_name && strata_json_string_equal (&name, "process_name"))
        process->name = scan.name;
      else if (scan.has_name && strata_json_string_equal (&name, "process_labels"))
        process->labels = scan.name;
      if (scan.has_sort_index)
        process->sort_index = scan.sort_index;
    }
}

/* ---- Dispatch ---- */

static void
handle_event (TeLoader       *self,
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

/* ---- The containers ---- */

/* Runs @scan at the reader's place, fetching more of the file while the
 * item is cut off by the window. */
typedef StrataJsonStatus (*ItemScan) (const char *p, const char *end, gpointer data, const char **item_end);

static StrataJsonStatus
scan_item (StrataContentReader *reader,
           ItemScan    scan,
           gpointer    data,
           gsize      *item_len)
{
  for (;;)
    {
      const char *p = reader->data + reader->pos;
      const char *item_end;
      StrataJsonStatus status = scan (p, reader->data + reader->len, data, &item_end);

      if (status == STRATA_JSON_OK)
        {
          *item_len = item_end - p;
          return status;
        }
      if (status == STRATA_JSON_INVALID || !strata_content_reader_refill (reader))
        return status;
    }
}

static StrataJsonStatus
scan_event_item (const char  *p,
                 const char  *end,
                 gpointer     data,
                 const char **item_end)
{
  return scan_event (p, end, data, item_end);
}

static StrataJsonStatus
skip_item (const char  *p,
           const char  *end,
           gpointer     data,
           const char **item_end)
{
  return strata_json_skip_value (p, end, item_end);
}

static gboolean
report_progress (TeLoader  *self,
                 GError   **error)
{
  if (++self->n_events % PROGRESS_INTERVAL != 0)
    return TRUE;
  strata_content_reader_release (&self->reader);
  return strata_load_job_update (self->state.job, strata_content_reader_fraction (&self->reader),
                                 _("Reading events…"), error);
}

static void
note_cut (TeLoader *self)
{
  self->truncated = TRUE;
  self->truncated_at = self->reader.offset + self->reader.pos;
}

static void
note_invalid (TeLoader *self)
{
  self->invalid = TRUE;
  self->invalid_at = self->reader.offset + self->reader.pos;
}

/* The reader is just past the '[' of the event array. */
static gboolean
read_event_array (TeLoader  *self,
                  GError   **error)
{
  StrataContentReader *reader = &self->reader;
  gboolean after_comma = FALSE;

  self->has_trace_events = TRUE;
  for (;;)
    {
      TeFields fields;
      StrataJsonStatus status;
      gsize len = 0;
      char c;

      if (!strata_content_reader_peek (reader, &c))
        {
          note_cut (self);
          return TRUE;
        }
      if (c == ',')
        {
          reader->pos++;
          after_comma = TRUE;
          continue;
        }
      if (c == ']')
        {
          self->trailing_comma |= after_comma;
          reader->pos++;
          return TRUE;
        }
      after_comma = FALSE;

      if (c != '{')
        {
          status = scan_item (reader, skip_item, NULL, &len);
          self->n_not_objects++;
        }
      else if ((status = scan_item (reader, scan_event_item, &fields, &len)) == STRATA_JSON_OK)
        handle_event (self, &fields, reader->offset + reader->pos);

      if (status == STRATA_JSON_INCOMPLETE)
        {
          note_cut (self);
          self->cut_mid_event = TRUE;
          return TRUE;
        }
      if (status == STRATA_JSON_INVALID)
        {
          note_invalid (self);
          return TRUE;
        }
      reader->pos += len;
      if (!report_progress (self, error))
        return FALSE;
    }
}

static void
add_member_metadata (TeLoader   *self,
                     const char *key,
                     const char *value,
                     gsize       len)
{
  g_autofree char *text = NULL;

  if (len > MAX_METADATA_TEXT)
    {
      g_autofree char *size = g_format_size (len);

      /* Translators: %s is a size such as “12.5 MB” */
      text = g_strdup_printf (_("(%s of data)"), size);
    }
  else
    text = g_utf8_make_valid (value, len);
  strata_trace_add_metadata (self->state.trace, key, text);
}

static JsonNode *
parse_member (const char *value,
              gsize       len)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();

  if (!json_parser_load_from_data (parser, value, len, NULL))
    return NULL;
  return json_parser_steal_root (parser);
}

/* systemTraceEvents: Linux ftrace text, or other systems' data. Kept and
 * described; not drawn. */
static void
describe_system_events (TeLoader   *self,
                        const char *value,
                        gsize       len)
{
  g_autofree char *size = g_format_size (len);

  if (len > 2 && value[0] == '"' && g_str_has_prefix (value + 1, "# tracer:"))
    {
      g_autofree char *lines = NULL;
      guint64 n_lines = 0;

      for (gsize i = 0; i + 1 < len; i++)
        n_lines += value[i] == '\\' && value[i + 1] == 'n';
      lines = g_strdup_printf ("%'" G_GUINT64_FORMAT, n_lines);
      /* Translators: the first %s is a size such as “12.5 MB”, the second a number of lines */
      strata_trace_add_diagnosticf (self->state.trace,
                                    ngettext ("The trace holds %s of Linux ftrace text (%s line); it is kept but not drawn.",
                                              "The trace holds %s of Linux ftrace text (%s lines); it is kept but not drawn.",
                                              n_lines),
                                    size, lines);
    }
  else
    /* Translators: %s is a size such as “12.5 MB” */
    strata_trace_add_diagnosticf (self->state.trace,
                                  _("The trace holds %s of system trace events in a form Strata does not draw; they are kept as metadata."),
                                  size);
}

static void
read_member_value (TeLoader   *self,
                   const char *key,
                   const char *value,
                   gsize       len)
{
  if (g_str_equal (key, "displayTimeUnit") && len >= 2 && value[0] == '"')
    {
      g_autofree char *unit = g_strndup (value + 1, len - 2);

      strata_trace_add_metadata (self->state.trace, key, unit);
      return;
    }
  if (g_str_equal (key, "stackFrames") && self->state.stack_frames == NULL)
    self->state.stack_frames = parse_member (value, len);
  else if (g_str_equal (key, "samples") && self->state.samples_member == NULL)
    self->state.samples_member = parse_member (value, len);
  else if (g_str_equal (key, "systemTraceEvents"))
    describe_system_events (self, value, len);
  add_member_metadata (self, key, value, len);
}

/* The reader is just past the '{' of the top-level object. */
static gboolean
read_top_object (TeLoader  *self,
                 GError   **error)
{
  StrataContentReader *reader = &self->reader;

  for (;;)
    {
      StrataJsonString key_string;
      g_autofree char *key = NULL;
      const char *key_end;
      StrataJsonStatus status;
      gsize len = 0;
      char c;

      if (!strata_content_reader_peek (reader, &c) || c == '}')
        return TRUE;
      if (c == ',')
        {
          reader->pos++;
          continue;
        }
      status = strata_json_scan_string (reader->data + reader->pos, reader->data + reader->len, &key_string, &key_end);
      while (status == STRATA_JSON_INCOMPLETE && strata_content_reader_refill (reader))
        status = strata_json_scan_string (reader->data + reader->pos, reader->data + reader->len, &key_string, &key_end);
      if (status != STRATA_JSON_OK)
        {
          if (status == STRATA_JSON_INVALID)
            note_invalid (self);
          return TRUE;
        }
      g_string_truncate (self->scratch, 0);
      strata_json_unescape (&key_string, self->scratch);
      key = g_strdup (self->scratch->str);
      reader->pos = key_end - reader->data;

      if (!strata_content_reader_peek (reader, &c) || c != ':')
        return TRUE;
      reader->pos++;
      if (!strata_content_reader_peek (reader, &c))
        return TRUE;

      if (g_str_equal (key, "traceEvents") && c == '[')
        {
          reader->pos++;
          if (!read_event_array (self, error))
            return FALSE;
          if (self->truncated || self->invalid)
            return TRUE;
          continue;
        }

      if ((status = scan_item (reader, skip_item, NULL, &len)) != STRATA_JSON_OK)
        {
          if (status == STRATA_JSON_INVALID)
            note_invalid (self);
          return TRUE;
        }
      read_member_value (self, key, reader->data + reader->pos, len);
      reader->pos += len;
    }
}

static gboolean
read_content (TeLoader  *self,
              GError   **error)
{
  StrataContentReader *reader = &self->reader;
  char c;

  /* A byte order mark is not JSON, but some writers put one. */
  if (strata_content_reader_peek (reader, &c) && reader->len - reader->pos >= 3 &&
      memcmp (reader->data + reader->pos, "\xEF\xBB\xBF", 3) == 0)
    reader->pos += 3;

  if (!strata_content_reader_peek (reader, &c))
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                           _("The file is empty."));
      return FALSE;
    }
  reader->pos++;
  if (c == '[')
    return read_event_array (self, error);
  if (c == '{')
    return read_top_object (self, error);

  g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_NOT_A_TRACE,
                       _("It is not a Trace Event file: it starts with neither “[” nor “{”."));
  return FALSE;
}

/* ---- Diagnostics ---- */


static void
report_container_repairs (TeLoader *self)
{
  g_autofree char *at = NULL;

  if (self->reader.damaged)
    strata_trace_add_diagnostic (self->state.trace,
                                 _("The compressed data is cut or damaged; the events before the damage were loaded."));
  if (self->truncated)
    {
      at = g_strdup_printf ("%'" G_GUINT64_FORMAT, self->truncated_at);
      /* Translators: %s is a byte offset */
      strata_trace_add_diagnosticf (self->state.trace,
                                    self->cut_mid_event
                                    ? _("The file ends inside the event array, without its closing “]”; the events before byte %s were loaded and the incomplete last event was dropped.")
                                    : _("The file ends inside the event array, without its closing “]”; all %s bytes of events were loaded."),
                                    at);
    }
  if (self->invalid)
    {
      at = g_strdup_printf ("%'" G_GUINT64_FORMAT, self->invalid_at);
      /* Translators: %s is a byte offset */
      strata_trace_add_diagnosticf (self->state.trace,
                                    _("The JSON is malformed at byte %s; the events before it were loaded."),
                                    at);
    }
  if (self->trailing_comma)
    strata_trace_add_diagnostic (self->state.trace,
                                 _("The event array ends with a comma before its “]”; it was ignored."));
  strata_trace_add_count_diagnostic (self->state.trace, self->n_not_objects,
                                    ngettext ("%s item in the event array is not an object and was skipped.",
                                              "%s items in the event array are not objects and were skipped.",
                                              self->n_not_objects));
}

static void
report_event_repairs (TeLoader *self)
{
  TeState *s = &self->state;

  strata_trace_add_count_diagnostic (self->state.trace, s->n_unmatched_ends,
                                    ngettext ("%s end event (“E”) had no begin on its thread and was dropped.",
                                              "%s end events (“E”) had no begin on their threads and were dropped.", s->n_unmatched_ends));
  strata_trace_add_count_diagnostic (self->state.trace, s->n_mismatched_ends,
                                    ngettext ("%s end event names another slice than the one it closes; it closed the innermost one.",
                                              "%s end events name other slices than the ones they close; they closed the innermost ones.", s->n_mismatched_ends));
  strata_trace_add_count_diagnostic (self->state.trace, s->n_unended_begins,
                                    ngettext ("%s begin event (“B”) never ended; it was closed at the end of the trace.",
                                              "%s begin events (“B”) never ended; they were closed at the end of the trace.", s->n_unended_begins));
  strata_trace_add_count_diagnostic (self->state.trace, s->n_clipped,
                                    ngettext ("%s slice ran past the end of its parent and was cut there.",
                                              "%s slices ran past the ends of their parents and were cut there.", s->n_clipped));
  strata_trace_add_count_diagnostic (self->state.trace, s->n_negative_durations,
                                    ngettext ("%s complete event (“X”) has a negative duration, read as zero.",
                                              "%s complete events (“X”) have negative durations, read as zero.", s->n_negative_durations));
  strata_trace_add_count_diagnostic (self->state.trace, s->n_without_time,
                                    ngettext ("%s event has no usable timestamp and was skipped.",
                                              "%s events have no usable timestamp and were skipped.", s->n_without_time));
  strata_trace_add_count_diagnostic (self->state.trace, s->n_unknown_phases,
                                    ngettext ("%s event has an unknown phase and was skipped.",
                                              "%s events have unknown phases and were skipped.", s->n_unknown_phases));
  strata_trace_add_count_diagnostic (self->state.trace, s->n_async_unmatched_ends,
                                    ngettext ("%s async end event had no open begin with its id and was dropped.",
                                              "%s async end events had no open begin with their ids and were dropped.", s->n_async_unmatched_ends));
  strata_trace_add_count_diagnostic (self->state.trace, s->n_async_unended,
                                    ngettext ("%s async slice never ended; it was closed at the end of the trace.",
                                              "%s async slices never ended; they were closed at the end of the trace.", s->n_async_unended));
  strata_trace_add_count_diagnostic (self->state.trace, s->n_objects_undeleted,
                                    ngettext ("%s object was never deleted; its lifetime runs to the end of the trace.",
                                              "%s objects were never deleted; their lifetimes run to the end of the trace.", s->n_objects_undeleted));
  strata_trace_add_count_diagnostic (self->state.trace, s->n_unbound_flows,
                                    ngettext ("%s flow event has no slice to bind to and was dropped.",
                                              "%s flow events have no slice to bind to and were dropped.", s->n_unbound_flows));
  strata_trace_add_count_diagnostic (self->state.trace, s->n_bad_samples,
                                    ngettext ("%s stack sample has no time or frame and was skipped.",
                                              "%s stack samples have no time or frame and were skipped.", s->n_bad_samples));
  strata_trace_add_count_diagnostic (self->state.trace, s->n_bad_counter_values,
                                    ngettext ("%s counter value is not a number and was skipped.",
                                              "%s counter values are not numbers and were skipped.", s->n_bad_counter_values));
}

static void
describe_format (TeLoader *self)
{
  g_autofree char *count = g_strdup_printf ("%'" G_GUINT64_FORMAT, self->n_events);
  g_autofree char *detail = NULL;

  detail = g_strdup_printf (ngettext ("%s event", "%s events", self->n_events), count);
  if (self->reader.inflater != NULL)
    {
      g_autofree char *plain = g_steal_pointer (&detail);

      /* Translators: %s is e.g. “1,234 events” */
      detail = g_strdup_printf (_("%s, gzip"), plain);
    }
  strata_trace_set_format_detail (self->state.trace, detail);
}

/* ---- Entry point ---- */

static void
te_loader_clear (TeLoader *self)
{
  strata_trace_event_state_clear (&self->state);
  strata_content_reader_clear (&self->reader);
  strata_id_map_clear (&self->processes);
  for (guint i = 0; self->threads != NULL && i < self->threads->len; i++)
    strata_id_map_clear (g_ptr_array_index (self->threads, i));
  g_clear_pointer (&self->threads, g_ptr_array_unref);
  g_clear_pointer (&self->named_ids, g_hash_table_unref);
  if (self->scratch != NULL)
    g_string_free (g_steal_pointer (&self->scratch), TRUE);
}

static gboolean
check_is_trace (TeLoader  *self,
                GError   **error)
{
  if (self->has_trace_events || self->invalid || self->truncated)
    return TRUE;

  g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_NOT_A_TRACE,
                       _("It is valid JSON, but not a Trace Event file: it has no “traceEvents” member."));
  return FALSE;
}

/**
 * strata_trace_event_load:
 *
 * Reads Trace Event JSON, plain or gzip-compressed (@job->compression),
 * in either container form.
 */
StrataTrace *
strata_trace_event_load (StrataLoadJob  *job,
                         GError        **error)
{
  g_autoptr(StrataTrace) trace = strata_trace_new (STRATA_FORMAT_TRACE_EVENT);
  TeLoader self = { 0 };
  gboolean ok;

  strata_trace_event_state_init (&self.state, job, trace);
  strata_content_reader_init (&self.reader, job, job->compression == STRATA_COMPRESSION_GZIP);
  self.scratch = g_string_new (NULL);
  strata_id_map_init (&self.processes);
  self.threads = g_ptr_array_new_with_free_func (g_free);
  self.named_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self.last_thread = STRATA_NO_THREAD;

  ok = read_content (&self, error) && check_is_trace (&self, error);
  if (ok && self.n_events == 0 && self.invalid)
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                           _("It starts like JSON, but it is not valid JSON."));
      ok = FALSE;
    }
  ok = ok && strata_load_job_update (job, 0.95, _("Building the timeline…"), error) &&
       strata_trace_event_build (&self.state, error);
  if (ok)
    {
      strata_trace_set_phase_counts (trace, self.state.phase_counts);
      describe_format (&self);
      report_container_repairs (&self);
      report_event_repairs (&self);
      strata_trace_finish (trace);
    }
  te_loader_clear (&self);

  return ok ? g_steal_pointer (&trace) : NULL;
}
