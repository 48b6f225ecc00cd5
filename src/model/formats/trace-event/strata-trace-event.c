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
#include "strata-load-guard.h"
#include "strata-memory.h"
#include "strata-trace-event-private.h"

#define PROGRESS_INTERVAL 16384
/* Or after this many bytes: a recording of a few huge events must still
 * be cancellable, and give its read pages back as it goes. */
#define PROGRESS_BYTES (4 << 20)
#define MAX_METADATA_TEXT 4096
/* Smaller files are read faster than a thread starts. */
#define PARALLEL_MIN_BYTES (4 << 20)

/* ---- Turning text into ids ---- */


/* The words of a text spread over the cache. */
static guint
cache_slot (const TeTextWords *words,
            gsize              len)
{
  guint64 mix = (words->w[0] * 0x9E3779B97F4A7C15ull) ^ (words->w[1] * 0xC2B2AE3D27D4EB4Full) ^
                ((words->w[2] ^ words->w[3] ^ words->w[4] ^ words->w[5]) * 0x165667B19E3779F9ull) ^ len;

  return (guint) ((mix ^ (mix >> 29)) * 0x94D049BB133111EBull >> (64 - TE_INTERN_CACHE_BITS));
}

/* The id of @string, whose words are @words. */
static guint32
intern_words (TeLoader               *self,
              const StrataJsonString *string,
              const TeTextWords      *words)
{
  StrataStringPool *pool = strata_trace_get_pool (self->state.trace);
  gboolean whole = string->len <= sizeof *words;

  /* The few names and categories of a trace come again and again: the
   * spellings seen last are compared by their words, and, when longer
   * than those, with the pooled text, before the pool is looked in. */
  if (!string->escaped && string->len <= G_MAXUINT32)
    {
      TeInternEntry *entry = &self->intern_cache[cache_slot (words, string->len)];

      if (entry->text == NULL || entry->len != string->len || memcmp (&entry->words, words, sizeof *words) != 0 ||
          (!whole && memcmp (entry->text, string->start, string->len) != 0))
        {
          guint32 id = strata_string_pool_intern_len (pool, string->start, string->len);
          const char *pooled = strata_string_pool_get (pool, id);

          /* A text pooled otherwise (cut at a NUL, made valid UTF-8) is
           * not kept: it is not what the file spells. */
          if (strlen (pooled) != string->len || (string->len > 0 && memcmp (pooled, string->start, string->len) != 0))
            return id;
          *entry = (TeInternEntry) { pooled, string->len, id, *words };
        }
      return entry->id;
    }
  if (!string->escaped)
    return strata_string_pool_intern_len (pool, string->start, string->len);
  g_string_truncate (self->scratch, 0);
  strata_json_unescape (string, self->scratch);
  return strata_string_pool_intern (pool, self->scratch->str);
}

guint32
te_intern_string (TeLoader               *self,
                  const StrataJsonString *string)
{
  TeTextWords words;

  te_text_words (string, &words);
  return intern_words (self, string, &words);
}

/* A name or category, by the words the scanner read. */
guint32
te_intern_name (TeLoader       *self,
                const TeFields *fields)
{
  return intern_words (self, &fields->name, &fields->name_words);
}

guint32
te_intern_category (TeLoader       *self,
                    const TeFields *fields)
{
  return intern_words (self, &fields->cat, &fields->cat_words);
}

/* Ids that are numbers, or strings of hex, have one spelling: "0x1f". */
guint32
te_intern_id (TeLoader      *self,
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
  return te_intern_string (self, &value->text);
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

  *name = te_intern_string (self, &value->text);
  text = g_strdup (strata_trace_get_string (self->state.trace, *name));
  if (!g_hash_table_lookup_extended (self->named_ids, text, NULL, &found))
    {
      number = G_MININT32 - (gint64) g_hash_table_size (self->named_ids);
      g_hash_table_insert (self->named_ids, g_steal_pointer (&text), GSIZE_TO_POINTER ((gsize) -number));
      return number;
    }
  return -(gint64) GPOINTER_TO_SIZE (found);
}

guint
te_ensure_process (TeLoader      *self,
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

/* Texts of 8 bytes at most are told apart by their words; longer ones
 * by their text, which only mapped files keep in place. */
static gboolean
same_text (const TeValue *value,
           const TeValue *last,
           gboolean       texts_stay)
{
  if (value->present != last->present || value->is_string != last->is_string ||
      value->text.len != last->text.len || value->text.escaped || last->text.escaped)
    return FALSE;
  if (value->text.len <= sizeof value->word)
    return value->word == last->word;
  return texts_stay && memcmp (value->text.start, last->text.start, value->text.len) == 0;
}

/* How @fields' pid and tid are spelt, if each fits its word: 0 if not. */
static guint32
spelling_shape (const TeFields *fields)
{
  const TeValue *pid = &fields->pid, *tid = &fields->tid;

  if (pid->text.len > sizeof pid->word || tid->text.len > sizeof tid->word || pid->text.escaped || tid->text.escaped)
    return 0;
  return 1 | (pid->present << 1) | (pid->is_string << 2) | (tid->present << 3) | (tid->is_string << 4) |
         ((guint32) pid->text.len << 8) | ((guint32) tid->text.len << 16);
}

#define MAX_SPELLINGS (1u << 16)

static guint
spelling_hash (guint64 pid,
               guint64 tid,
               guint32 shape)
{
  guint64 mix = (pid * 0x9E3779B97F4A7C15ull) ^ (tid * 0xC2B2AE3D27D4EB4Full) ^ shape;

  mix = (mix ^ (mix >> 31)) * 0x94D049BB133111EBull;
  return (guint) (mix ^ (mix >> 32));
}

/* The place of the spelling of @pid, @tid and @shape: its own, or the
 * free one where it goes. */
static TeThreadSpelling *
find_spelling (TeLoader *self,
               guint64   pid,
               guint64   tid,
               guint32   shape)
{
  guint i = spelling_hash (pid, tid, shape) & self->spellings_mask;

  for (;; i = (i + 1) & self->spellings_mask)
    {
      TeThreadSpelling *spelt = &self->spellings[i];

      if (spelt->shape == 0 || (spelt->shape == shape && spelt->pid == pid && spelt->tid == tid))
        return spelt;
    }
}

/* Room for one more spelling: the table at most half full. */
static void
reserve_spelling (TeLoader *self)
{
  TeThreadSpelling *old = self->spellings;
  guint n_old = self->spellings != NULL ? self->spellings_mask + 1 : 0;

  if (self->n_spellings + 1 <= n_old / 2)
    return;
  self->spellings_mask = MAX (n_old * 2, 64) - 1;
  self->spellings = g_new0 (TeThreadSpelling, self->spellings_mask + 1);
  for (guint i = 0; i < n_old; i++)
    if (old[i].shape != 0)
      *find_spelling (self, old[i].pid, old[i].tid, old[i].shape) = old[i];
  g_free (old);
}

/* The thread of @fields by its numbers, added on first sight. */
static guint
find_thread (TeLoader       *self,
             const TeFields *fields)
{
  guint process = te_ensure_process (self, &fields->pid);
  guint32 tid_name;
  gint64 tid = value_number (self, &fields->tid, &tid_name);
  StrataIdMap *threads;
  guint index;

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
  self->last_tid = tid;
  return index;
}

/* Events of many threads come interleaved: a thread is found by the
 * words of its ids' spelling, or, spelt longer, as the one before. */
guint
te_ensure_thread (TeLoader       *self,
                  const TeFields *fields)
{
  guint32 shape = spelling_shape (fields);
  TeThreadSpelling *spelt = NULL;
  guint index;

  /* A file spelling its threads ever anew is not kept spelling by spelling. */
  if (shape != 0 && self->n_spellings < MAX_SPELLINGS)
    {
      reserve_spelling (self);
      spelt = find_spelling (self, fields->pid.word, fields->tid.word, shape);
      if (spelt->shape != 0)
        return spelt->thread;
    }
  else if (self->last_thread != STRATA_NO_THREAD && same_text (&fields->pid, &self->last_pid_text, self->texts_stay) &&
           same_text (&fields->tid, &self->last_tid_text, self->texts_stay))
    return self->last_thread;
  index = find_thread (self, fields);
  if (spelt != NULL)
    {
      *spelt = (TeThreadSpelling) { fields->pid.word, fields->tid.word, shape, index };
      self->n_spellings++;
    }
  self->last_thread = index;
  self->last_pid_text = fields->pid;
  self->last_tid_text = fields->tid;
  return index;
}

guint32
te_ensure_method (TeLoader *self,
                  guint32   name,
                  guint32   category)
{
  return strata_trace_event_ensure_method (&self->state, name, category);
}

/* TeThreadFunc: the state is the loader's first member. */
static guint
ensure_thread_for_state (TeState    *state,
                         const char *pid,
                         const char *tid)
{
  TeLoader *self = (TeLoader *) state;
  TeFields fields = { 0 };
  guint thread;

  fields.pid = (TeValue) { TRUE, FALSE, { pid, strlen (pid), FALSE } };
  fields.tid = (TeValue) { TRUE, FALSE, { tid, strlen (tid), FALSE } };
  te_read_words (&fields);
  thread = te_ensure_thread (self, &fields);
  /* Its texts are the caller's, not the file's: not to be compared later. */
  self->last_thread = STRATA_NO_THREAD;
  return thread;
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
  return te_scan_event (p, end, data, item_end);
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
  guint64 at = self->reader.offset + self->reader.pos;

  if (++self->n_events % PROGRESS_INTERVAL != 0 && at - MIN (at, self->progress_at) < PROGRESS_BYTES)
    return TRUE;
  self->progress_at = at;
  strata_content_reader_release (&self->reader);
  return strata_load_job_update (self->state.job, strata_content_reader_fraction (&self->reader),
                                 _("Reading events…"), error);
}

/**
 * te_take_event:
 * @source: where the event starts in the content
 *
 * Adds an event read to the trace, and tells of progress now and then.
 *
 * Returns: %FALSE with self->error set if the load was cancelled
 */
gboolean
te_take_event (TeLoader *self,
               TeFields *fields,
               guint64   source)
{
  if (!fields->times_read)
    te_parse_times (fields);
  if (!fields->words_read)
    te_read_words (fields);
  te_handle_event (self, fields, source);
  return report_progress (self, self->error);
}

static void
note_cut (TeArrayScan *scan)
{
  scan->truncated = TRUE;
  scan->truncated_at = scan->reader->offset + scan->reader->pos;
}

static void
note_invalid (TeArrayScan *scan)
{
  scan->invalid = TRUE;
  scan->invalid_at = scan->reader->offset + scan->reader->pos;
}

/* Scans one item of the array at the reader's place: an event into its
 * slot, anything else skipped. */
static StrataJsonStatus
scan_array_item (TeArrayScan       *scan,
                 const TeEventSink *sink,
                 char               c,
                 gboolean          *stop)
{
  StrataContentReader *reader = scan->reader;
  StrataJsonStatus status;
  gsize len = 0;

  if (c != '{')
    {
      status = scan_item (reader, skip_item, NULL, &len);
      scan->n_not_objects++;
    }
  else if ((status = scan_item (reader, scan_event_item, sink->slot (sink->data), &len)) == STRATA_JSON_OK)
    *stop = !sink->take (sink->data, reader->offset + reader->pos);
  reader->pos += status == STRATA_JSON_OK ? len : 0;
  return status;
}

/**
 * te_scan_event_array:
 *
 * Reads the event array from just past its '[' to just past its ']',
 * giving each event to @sink; notes in @scan how it ended.
 *
 * Returns: %FALSE if @sink stopped it
 */
gboolean
te_scan_event_array (TeArrayScan       *scan,
                     const TeEventSink *sink)
{
  StrataContentReader *reader = scan->reader;
  gboolean after_comma = FALSE;

  for (;;)
    {
      StrataJsonStatus status;
      gboolean stop = FALSE;
      char c;

      if (!strata_content_reader_peek (reader, &c))
        {
          note_cut (scan);
          return TRUE;
        }
      if (c == ',' || c == ']')
        {
          reader->pos++;
          scan->trailing_comma |= c == ']' && after_comma;
          if (c == ']')
            return TRUE;
          after_comma = TRUE;
          continue;
        }
      after_comma = FALSE;
      if (scan->limit != 0 && reader->pos >= scan->limit)
        {
          scan->at_limit = TRUE;
          return TRUE;
        }
      status = scan_array_item (scan, sink, c, &stop);
      if (status == STRATA_JSON_INCOMPLETE)
        {
          note_cut (scan);
          scan->cut_mid_event = TRUE;
          return TRUE;
        }
      if (status == STRATA_JSON_INVALID)
        {
          note_invalid (scan);
          return TRUE;
        }
      if (stop)
        return FALSE;
    }
}

static TeFields *
loader_slot (gpointer data)
{
  return &((TeLoader *) data)->fields;
}

static gboolean
loader_take (gpointer data,
             guint64  source)
{
  TeLoader *self = data;

  return te_take_event (self, &self->fields, source);
}

/* The reader is just past the '[' of the event array. Plain files are
 * scanned on the second core while this one takes the events. */
static gboolean
read_event_array (TeLoader  *self,
                  GError   **error)
{
  const TeEventSink sink = { loader_slot, loader_take, self };

  self->has_trace_events = TRUE;
  if (self->reader.inflater == NULL && self->reader.len - self->reader.pos >= PARALLEL_MIN_BYTES)
    return te_read_events_in_parallel (self, error);
  self->error = error;
  return te_scan_event_array (&self->array, &sink);
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
            note_invalid (&self->array);
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
          if (self->array.truncated || self->array.invalid)
            return TRUE;
          continue;
        }

      if ((status = scan_item (reader, skip_item, NULL, &len)) != STRATA_JSON_OK)
        {
          if (status == STRATA_JSON_INVALID)
            note_invalid (&self->array);
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


/* Whether the content holds only zero bytes from @offset on, as far as
 * the window lets it be seen (64 KB at most are looked at). */
static gboolean
zeros_at (const StrataContentReader *reader,
          guint64                    offset)
{
  gsize from, n;

  if (offset < reader->offset || offset - reader->offset >= reader->len)
    return FALSE;
  from = offset - reader->offset;
  n = MIN (reader->len - from, 65536);
  return strata_memory_leading_zeros (reader->data + from, n) == n;
}

static void
report_container_repairs (TeLoader *self)
{
  const TeArrayScan *array = &self->array;
  g_autofree char *at = NULL;

  if (self->reader.damaged)
    strata_trace_add_diagnostic (self->state.trace,
                                 _("The compressed data is cut or damaged; the events before the damage were loaded."));
  if (array->truncated && self->n_events == 0)
    strata_trace_add_diagnostic (self->state.trace,
                                 _("The file ends inside the event array, without its closing “]”, before any event."));
  else if (array->truncated)
    {
      at = g_strdup_printf ("%'" G_GUINT64_FORMAT, array->truncated_at);
      /* Translators: %s is a byte offset */
      strata_trace_add_diagnosticf (self->state.trace,
                                    array->cut_mid_event
                                    ? _("The file ends inside the event array, without its closing “]”; the events before byte %s were loaded and the incomplete last event was dropped.")
                                    : _("The file ends inside the event array, without its closing “]”; all %s bytes of events were loaded."),
                                    at);
    }
  if (array->invalid)
    {
      at = g_strdup_printf ("%'" G_GUINT64_FORMAT, array->invalid_at);
      /* Translators: %s is a byte offset */
      strata_trace_add_diagnosticf (self->state.trace,
                                    zeros_at (&self->reader, array->invalid_at)
                                    ? _("The events stop at byte %s, where zero bytes begin, as in a file cut off by a crash or a full disk; the events before it were loaded.")
                                    : _("The JSON is malformed at byte %s; the events before it were loaded."),
                                    at);
    }
  if (array->trailing_comma)
    strata_trace_add_diagnostic (self->state.trace,
                                 _("The event array ends with a comma before its “]”; it was ignored."));
  strata_trace_add_count_diagnostic (self->state.trace, array->n_not_objects,
                                    ngettext ("%s item in the event array is not an object and was skipped.",
                                              "%s items in the event array are not objects and were skipped.",
                                              array->n_not_objects));
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
  strata_trace_add_count_diagnostic (self->state.trace, s->n_cut_sample_stacks,
                                    ngettext ("%s stack sample deeper than 65,536 frames (or looping) was cut at its outermost frames.",
                                              "%s stack samples deeper than 65,536 frames (or looping) were cut at their outermost frames.",
                                              s->n_cut_sample_stacks));
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
  g_clear_pointer (&self->intern_cache, g_free);
  g_clear_pointer (&self->spellings, g_free);
  if (self->scratch != NULL)
    g_string_free (g_steal_pointer (&self->scratch), TRUE);
}

static gboolean
check_is_trace (TeLoader  *self,
                GError   **error)
{
  if (self->has_trace_events || self->array.invalid || self->array.truncated)
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
  self.state.ensure_thread = ensure_thread_for_state;
  strata_content_reader_init (&self.reader, job, job->compression == STRATA_COMPRESSION_GZIP);
  self.array.reader = &self.reader;
  self.scratch = g_string_new (NULL);
  strata_id_map_init (&self.processes);
  self.threads = g_ptr_array_new_with_free_func (g_free);
  self.named_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self.last_thread = STRATA_NO_THREAD;

  self.texts_stay = self.reader.inflater == NULL;
  self.intern_cache = g_new0 (TeInternEntry, 1 << TE_INTERN_CACHE_BITS);
  ok = read_content (&self, error) && check_is_trace (&self, error);
  self.texts_stay = FALSE;
  /* Names read stay where they are in the file: a page of them that is
   * needed again comes back from it. */
  strata_content_reader_release_all (&self.reader);
  if (self.reader.fault != STRATA_LOAD_FAULT_NONE)
    {
      g_clear_error (error);
      strata_load_fault_set_error (self.reader.fault, self.reader.fault_wanted, error);
      ok = FALSE;
    }
  /* A cancelled read stops early; whatever it made of that is moot. */
  if (g_cancellable_is_cancelled (job->cancellable))
    {
      g_clear_error (error);
      g_cancellable_set_error_if_cancelled (job->cancellable, error);
      ok = FALSE;
    }
  if (ok && self.n_events == 0 && self.array.invalid)
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

