/* strata-trace-event-parallel.c: the event array scanned on both cores
 *
 * Finding an event's fields in the text takes about twice as long as
 * adding the event to the trace, and only the adding must go in order.
 * So a plain (mapped) file's event array is cut into chunks of about a
 * megabyte, each starting where an event most likely starts (a line
 * that starts with '{', or "},{"), and chunks are scanned ahead, a few at a time,
 * by a worker and by the loading thread whenever the chunk it must take
 * next is not ready. The loading thread takes the chunks in order and
 * checks that each began exactly where the one before it ended; one
 * that began elsewhere (its line was inside an event) is scanned again
 * from the right place. The scan has no side effects; the fields point
 * into the mapping, which stays whole until the load ends.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "strata-load-guard.h"
#include "strata-trace-event-private.h"

#define CHUNK_BYTES (1 << 20)
#define N_SLOTS 6                /* chunks scanned and not yet taken, at most */
#define SEARCH_BLOCK (16 << 20)

typedef enum
{
  CHUNK_FREE,
  CHUNK_SCANNING,
  CHUNK_SCANNED,
} ChunkState;

typedef struct
{
  ChunkState  state;
  guint64     index;
  GArray     *fields;           /* TeFields */
  GArray     *sources;          /* guint64 */
  GArray     *profile_args;     /* TeProfileArgs, for the profile events */
  GArray     *numbers;          /* gint64: their samples and deltas */
  TeArgsReader args_reader;     /* reads args that may be a profile's as scanned */
  TeProfileArgs ahead;          /* the args of the event being scanned, if so read */
  gboolean    has_ahead;
  guint       numbers_mark;     /* the numbers before them */
  TeArrayScan scan;             /* how its part of the array ended */
  gsize       start;
  gsize       end;              /* where its scan stopped */
  StrataLoadFault fault;
} Chunk;

typedef struct
{
  const char *data;
  gsize       len;
  gsize       first;            /* the first item of the array */
  StrataLoadJob *job;
  GMutex      mutex;
  GCond       changed;
  Chunk       slots[N_SLOTS];   /* chunk i is in slot i % N_SLOTS */
  guint64     n_claimed;        /* chunks given out to scan */
  guint64     n_taken;          /* chunks the loading thread is done with */
  guint64     n_chunks;
  gsize      *starts;           /* per chunk, START_UNKNOWN until found */
  gboolean    stop;
  StrataLoadGuard guard;        /* the worker's */
} Chunks;

/* Whether an event likely starts at @p, a '{': at the start of a line,
 * or after "}," on a line of many. */
static gboolean
starts_event (const char *data,
              const char *p,
              gboolean    by_line)
{
  const char *q = p;

  while (q > data && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'))
    q--;
  if (by_line)
    {
      if (q > data && q[-1] == ',')
        q--;
      while (q > data && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'))
        q--;
      return q > data && q[-1] == '\n';
    }
  if (q == data || q[-1] != ',')
    return FALSE;
  q--;
  while (q > data && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r' || q[-1] == '\n'))
    q--;
  return q > data && q[-1] == '}';
}

/* The next '{' from @p on, or NULL. A search through a long run without
 * one (zeros, a giant string) gives the pages it read back as it goes,
 * past the chunk it started in: the scan reads them again only once it
 * gets there. */
static const char *
find_brace (const Chunks *chunks,
            const char   *p,
            const char   *end)
{
  const char *keep = p + CHUNK_BYTES;

  while (p < end)
    {
      gsize n = MIN ((gsize) (end - p), (gsize) SEARCH_BLOCK);
      const char *found = memchr (p, '{', n);

      if (found != NULL)
        return found;
      p += n;
      if (p > keep)
        strata_load_job_release_pages (chunks->job, (const guint8 *) keep, (const guint8 *) p);
    }
  return NULL;
}

/* Where chunk @index starts: the first '{' at or after its share of the
 * bytes where an event likely starts, or the end. Files with a line per
 * event are cut at line starts; others after "},". */
static gsize
find_chunk_start (const Chunks *chunks,
                  guint64       index)
{
  const char *data = chunks->data, *end = data + chunks->len;
  const char *p = data + chunks->first + index * CHUNK_BYTES;
  gboolean by_line = memchr (p, '\n', MIN ((gsize) (end - p), CHUNK_BYTES)) != NULL;

  for (; p < end && (p = find_brace (chunks, p, end)) != NULL; p++)
    if (starts_event (data, p, by_line))
      return p - data;
  return chunks->len;
}

#define START_UNKNOWN G_MAXSIZE

/* Chunk @index's start, found once by whichever thread asks first. An
 * event of a gigabyte spans a thousand chunks, whose starts are all the
 * next event's: found from the chunk before, not searched for again. */
static gsize
chunk_start (const Chunks *chunks,
             guint64       index)
{
  gsize *starts = chunks->starts, start, before;

  if (index >= chunks->n_chunks)
    return chunks->len;
  if ((start = (gsize) g_atomic_pointer_get (&starts[index])) != START_UNKNOWN)
    return start;
  before = (gsize) g_atomic_pointer_get (&starts[index - 1]);
  if (before != START_UNKNOWN && chunks->first + index * CHUNK_BYTES <= before)
    start = before;
  else
    start = find_chunk_start (chunks, index);
  g_atomic_pointer_set (&starts[index], start);
  return start;
}

/* ---- Scanning a chunk ---- */

static TeFields *
chunk_slot (gpointer data)
{
  Chunk *chunk = data;
  TeFields *fields;

  g_array_set_size (chunk->fields, chunk->fields->len + 1);
  fields = &g_array_index (chunk->fields, TeFields, chunk->fields->len - 1);
  fields->args_reader = &chunk->args_reader;
  chunk->has_ahead = FALSE;
  chunk->numbers_mark = chunk->numbers->len;
  return fields;
}

/* Chrome writes an event's args before its name: args that look like a
 * profile's are read as one as they are scanned, not skipped and read
 * again; chunk_take() keeps them if the event is a profile's. */
static gboolean
chunk_read_args (gpointer           data,
                 const char        *p,
                 const char        *end,
                 StrataJsonStatus  *status,
                 const char       **value_end)
{
  static const char data_object[] = "{\"data\":{";
  Chunk *chunk = data;

  if ((gsize) (end - p) < sizeof data_object - 1 || memcmp (p, data_object, sizeof data_object - 1) != 0)
    return FALSE;
  /* A scan cut short is tried again: what the last try read goes. */
  g_array_set_size (chunk->numbers, chunk->numbers_mark);
  *status = te_read_profile_args_at (p, end, chunk->numbers, &chunk->ahead, value_end);
  chunk->has_ahead = *status == STRATA_JSON_OK;
  return TRUE;
}

static gboolean
chunk_take (gpointer data,
            guint64  source)
{
  Chunk *chunk = data;
  TeFields *fields = &g_array_index (chunk->fields, TeFields, chunk->fields->len - 1);

  /* The loading thread has the most to do: the texts it compares are
   * read here, while they are in this core's cache, and the times. */
  te_read_words (fields);
  te_parse_times (fields);
  /* JavaScript samples are most of a DevTools recording: read here,
   * beside the scan; their place is kept, the arrays may move. */
  if (te_is_profile_event (fields))
    {
      g_array_set_size (chunk->profile_args, chunk->profile_args->len + 1);
      if (chunk->has_ahead)
        g_array_index (chunk->profile_args, TeProfileArgs, chunk->profile_args->len - 1) = chunk->ahead;
      else
        te_read_profile_args (fields, chunk->numbers, &g_array_index (chunk->profile_args, TeProfileArgs, chunk->profile_args->len - 1));
      fields->profile_args = GUINT_TO_POINTER (chunk->profile_args->len);
    }
  else if (chunk->has_ahead)
    g_array_set_size (chunk->numbers, chunk->numbers_mark);
  chunk->has_ahead = FALSE;
  g_array_append_val (chunk->sources, source);
  return TRUE;
}

/* Scans from @start up to the item at or after @limit, into @chunk. */
static void
scan_chunk (const Chunks              *chunks,
            const StrataContentReader *model,
            Chunk                     *chunk,
            gsize                      start,
            gsize                      limit)
{
  StrataContentReader reader = *model;
  const TeEventSink sink = { chunk_slot, chunk_take, chunk };

  g_array_set_size (chunk->fields, 0);
  g_array_set_size (chunk->sources, 0);
  g_array_set_size (chunk->profile_args, 0);
  g_array_set_size (chunk->numbers, 0);
  reader.pos = start;
  chunk->scan = (TeArrayScan) { .reader = &reader, .limit = limit < chunks->len ? limit : 0 };
  chunk->start = start;
  te_scan_event_array (&chunk->scan, &sink);
  /* An event cut short by a fault is not counted. */
  if (chunk->sources->len < chunk->fields->len)
    g_array_set_size (chunk->fields, chunk->sources->len);
  chunk->end = reader.pos;
  chunk->scan.reader = NULL;
}

/* Gives out the next chunk to scan, if one may be scanned now. Call
 * with the lock held. */
static Chunk *
claim_chunk (Chunks *chunks)
{
  Chunk *chunk;

  if (chunks->stop || chunks->n_claimed >= chunks->n_chunks || chunks->n_claimed >= chunks->n_taken + N_SLOTS)
    return NULL;
  chunk = &chunks->slots[chunks->n_claimed % N_SLOTS];
  chunk->index = chunks->n_claimed++;
  chunk->state = CHUNK_SCANNING;
  return chunk;
}

static void
scan_claimed (Chunks                    *chunks,
              const StrataContentReader *model,
              Chunk                     *chunk)
{
  scan_chunk (chunks, model, chunk, chunk_start (chunks, chunk->index), chunk_start (chunks, chunk->index + 1));
  g_mutex_lock (&chunks->mutex);
  chunk->state = CHUNK_SCANNED;
  g_cond_broadcast (&chunks->changed);
  g_mutex_unlock (&chunks->mutex);
}

typedef struct
{
  Chunks              *chunks;
  StrataContentReader  reader;
} Worker;

/* A page of the file that vanishes (it shrank) ends the worker; the
 * loading thread then fails the load with the fault. */
static gpointer
scan_worker (gpointer data)
{
  Worker *worker = data;
  Chunks *chunks = worker->chunks;
  /* Read after a fault jumped back: kept in memory, not a register. */
  Chunk *volatile chunk = NULL;

  if (STRATA_LOAD_GUARD_FAULTED (&chunks->guard))
    {
      g_mutex_lock (&chunks->mutex);
      if (chunk != NULL)
        {
          chunk->fault = chunks->guard.fault;
          chunk->state = CHUNK_SCANNED;
        }
      chunks->stop = TRUE;
      g_cond_broadcast (&chunks->changed);
      g_mutex_unlock (&chunks->mutex);
      return NULL;
    }
  g_mutex_lock (&chunks->mutex);
  for (;;)
    {
      if (chunks->stop || chunks->n_claimed >= chunks->n_chunks)
        break;
      if ((chunk = claim_chunk (chunks)) == NULL)
        {
          g_cond_wait (&chunks->changed, &chunks->mutex);
          continue;
        }
      g_mutex_unlock (&chunks->mutex);
      scan_claimed (chunks, &worker->reader, chunk);
      g_mutex_lock (&chunks->mutex);
      chunk = NULL;
    }
  g_mutex_unlock (&chunks->mutex);
  strata_load_guard_pop (&chunks->guard);
  return NULL;
}

/* ---- Taking the chunks in order ---- */

/* Waits for chunk @index, scanning others meanwhile. */
static Chunk *
wait_for_chunk (Chunks                    *chunks,
                const StrataContentReader *model,
                guint64                    index)
{
  Chunk *chunk = &chunks->slots[index % N_SLOTS];

  g_mutex_lock (&chunks->mutex);
  while (!(chunk->index == index && chunk->state == CHUNK_SCANNED))
    {
      Chunk *other = claim_chunk (chunks);

      if (other != NULL)
        {
          g_mutex_unlock (&chunks->mutex);
          scan_claimed (chunks, model, other);
          g_mutex_lock (&chunks->mutex);
        }
      else if (chunks->stop && !(chunk->index == index && chunk->state == CHUNK_SCANNING))
        {
          g_mutex_unlock (&chunks->mutex);
          return NULL;
        }
      else
        g_cond_wait (&chunks->changed, &chunks->mutex);
    }
  g_mutex_unlock (&chunks->mutex);
  return chunk;
}

/* The fields of an event a few ahead, written on the other core, asked
 * for now: by their addresses only, so nothing waits for them. What the
 * loading thread reads of nearly every event comes first in them. */
static inline void
prefetch_fields (const TeFields *fields)
{
  for (gsize at = 0; at <= offsetof (TeFields, args); at += 64)
    __builtin_prefetch ((const char *) fields + at);
}

#define FIELDS_AHEAD 3

static gboolean
take_chunk_events (TeLoader *self,
                   Chunk    *chunk)
{
  for (guint i = 0; i < chunk->fields->len; i++)
    {
      TeFields *fields = &g_array_index (chunk->fields, TeFields, i);
      guint64 source = g_array_index (chunk->sources, guint64, i);
      guint args_at = GPOINTER_TO_UINT (fields->profile_args);

      if (i + FIELDS_AHEAD < chunk->fields->len)
        prefetch_fields (fields + FIELDS_AHEAD);

      /* Read ahead into runs of the chunk's numbers, now whole. */
      if (args_at != 0)
        {
          fields->profile_args = &g_array_index (chunk->profile_args, TeProfileArgs, args_at - 1);
          fields->profile_args_numbers = (const gint64 *) chunk->numbers->data;
        }
      self->reader.pos = source - self->reader.offset;
      if (!te_take_event (self, fields, source))
        return FALSE;
    }
  return TRUE;
}

/* Adds what a chunk's scan found besides events to the whole array's. */
static void
merge_scan (TeArrayScan       *into,
            const TeArrayScan *scan)
{
  into->n_not_objects += scan->n_not_objects;
  into->truncated = scan->truncated;
  into->truncated_at = scan->truncated_at;
  into->cut_mid_event = scan->cut_mid_event;
  into->trailing_comma |= scan->trailing_comma;
  into->invalid = scan->invalid;
  into->invalid_at = scan->invalid_at;
}

/* Takes the chunks in order until the array ends. Each must start where
 * the one before ended, or it is scanned again from there. Returns
 * FALSE if taking an event failed (cancelled). */
static gboolean
take_chunks (TeLoader *self,
             Chunks   *chunks,
             Chunk    *spare,
             gsize    *end)
{
  gsize expected = chunks->first;

  for (guint64 index = 0; index < chunks->n_chunks; index++)
    {
      Chunk *chunk = wait_for_chunk (chunks, &self->reader, index);
      gboolean ok, more;

      if (chunk == NULL || chunk->fault != STRATA_LOAD_FAULT_NONE)
        return TRUE;
      if (chunk->start != expected)
        {
          scan_chunk (chunks, &self->reader, spare, expected, chunk_start (chunks, index + 1));
          chunk = spare;
        }
      ok = take_chunk_events (self, chunk);
      merge_scan (&self->array, &chunk->scan);
      *end = chunk->end;
      expected = chunk->end;
      /* Read before the slot is given back: a scan may fill it at once. */
      more = ok && chunk->scan.at_limit;
      g_mutex_lock (&chunks->mutex);
      if (chunk != spare)
        chunk->state = CHUNK_FREE;
      chunks->n_taken = index + 1;
      chunks->stop |= !more;
      g_cond_broadcast (&chunks->changed);
      g_mutex_unlock (&chunks->mutex);
      if (!more)
        return ok;
    }
  return TRUE;
}

static void
chunk_init (Chunk *chunk)
{
  chunk->fields = g_array_new (FALSE, FALSE, sizeof (TeFields));
  chunk->sources = g_array_new (FALSE, FALSE, sizeof (guint64));
  chunk->profile_args = g_array_new (FALSE, FALSE, sizeof (TeProfileArgs));
  chunk->args_reader = (TeArgsReader) { chunk_read_args, chunk };
  chunk->numbers = g_array_new (FALSE, FALSE, sizeof (gint64));
  chunk->index = G_MAXUINT64;
}

static void
chunk_clear (Chunk *chunk)
{
  g_array_unref (chunk->fields);
  g_array_unref (chunk->sources);
  g_array_unref (chunk->profile_args);
  g_array_unref (chunk->numbers);
}

/* The worker stops and is joined, whatever happened. */
static void
finish_worker (Chunks  *chunks,
               GThread *thread)
{
  g_mutex_lock (&chunks->mutex);
  chunks->stop = TRUE;
  g_cond_broadcast (&chunks->changed);
  g_mutex_unlock (&chunks->mutex);
  if (thread != NULL)
    g_thread_join (thread);
}

/**
 * te_read_events_in_parallel:
 *
 * As te_scan_event_array() with the loader taking the events, the scan
 * shared with a worker thread. The reader must be a mapped file's.
 */
gboolean
te_read_events_in_parallel (TeLoader  *self,
                            GError   **error)
{
  Chunks chunks = { 0 };
  Worker worker = { &chunks, self->reader };
  StrataLoadGuard guard = { 0 };
  Chunk spare;
  GThread *thread;
  gboolean ok = TRUE;
  volatile gsize end = self->reader.pos;

  chunks.data = self->reader.data;
  chunks.job = self->reader.job;
  chunks.len = self->reader.len;
  chunks.first = self->reader.pos;
  chunks.n_chunks = MAX ((chunks.len - chunks.first + CHUNK_BYTES - 1) / CHUNK_BYTES, 1);
  chunks.starts = g_new (gsize, chunks.n_chunks);
  chunks.starts[0] = chunks.first;
  for (guint64 i = 1; i < chunks.n_chunks; i++)
    chunks.starts[i] = START_UNKNOWN;
  g_mutex_init (&chunks.mutex);
  g_cond_init (&chunks.changed);
  for (guint i = 0; i < N_SLOTS; i++)
    chunk_init (&chunks.slots[i]);
  chunk_init (&spare);
  self->error = error;

  thread = g_thread_try_new ("strata-scan", scan_worker, &worker, NULL);
  /* A page that vanishes under this thread fails the load as under the
   * worker, once the worker has stopped. */
  if (STRATA_LOAD_GUARD_FAULTED (&guard))
    {
      finish_worker (&chunks, thread);
      self->reader.fault = guard.fault;
      ok = TRUE;
    }
  else
    {
      gsize taken_to = end;

      ok = take_chunks (self, &chunks, &spare, &taken_to);
      end = taken_to;
      strata_load_guard_pop (&guard);
      finish_worker (&chunks, thread);
    }
  for (guint i = 0; i < N_SLOTS; i++)
    {
      if (chunks.slots[i].fault != STRATA_LOAD_FAULT_NONE)
        self->reader.fault = chunks.slots[i].fault;
      chunk_clear (&chunks.slots[i]);
    }
  if (chunks.guard.fault != STRATA_LOAD_FAULT_NONE)
    self->reader.fault = chunks.guard.fault;
  chunk_clear (&spare);
  g_free (chunks.starts);
  g_mutex_clear (&chunks.mutex);
  g_cond_clear (&chunks.changed);
  self->array.reader = &self->reader;
  self->reader.pos = end;
  return ok;
}
