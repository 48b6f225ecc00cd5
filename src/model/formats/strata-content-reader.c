/* strata-content-reader.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-content-reader.h"
#include "strata-inflater.h"
#include "strata-load-guard.h"
#include "strata-json-scan.h"

#define INFLATE_CHUNK (4u << 20)
/* Chunks inflated ahead of the reader: enough to keep both cores busy. */
#define N_CHUNKS 4
/* A mapped file's pages read go back every few megabytes: they count
 * in the load's memory while mapped. Every 16 MB took 9 MiB more at the
 * peak of a 500 MB trace, for no gain in time. */
#define RELEASE_INTERVAL (4u << 20)
/* One item bigger than this is not followed. */
#define MAX_WINDOW ((gsize) 1 << 30)

typedef struct
{
  guint8  *data;
  gsize    len;
  gsize    input_pos;   /* compressed bytes consumed once this was made */
  gboolean last;
  gboolean damaged;
  StrataLoadFault fault;  /* the input shrank, or memory ran out */
  gsize    fault_wanted;
} Chunk;

struct _StrataContentInflater
{
  GThread      *thread;
  GAsyncQueue  *empty;    /* Chunk, to be filled */
  GAsyncQueue  *filled;   /* Chunk, in content order */
  StrataInflater *inflater;
  gint          stop;
};

/* Inflates chunks until the end, a stop, or the mapped input vanishing
 * under it (the file shrank): then the last chunk says so. Apart from
 * inflate_thread() so the frame a fault jumps back to changes nothing. */
static G_NO_INLINE void
inflate_chunks (StrataContentInflater *self,
                Chunk                **current)
{
  for (;;)
    {
      Chunk *chunk = *current = g_async_queue_pop (self->empty);
      StrataInflateStatus status;
      gboolean last;

      if (g_atomic_int_get (&self->stop))
        {
          chunk->len = 0;
          chunk->last = TRUE;
          g_async_queue_push (self->filled, chunk);
          return;
        }
      status = strata_inflater_read (self->inflater, chunk->data, INFLATE_CHUNK, &chunk->len);
      chunk->input_pos = strata_inflater_get_input_pos (self->inflater);
      chunk->damaged = status == STRATA_INFLATE_DAMAGED || status == STRATA_INFLATE_CUT;
      /* Once pushed, the chunk belongs to the reader (the last one is freed). */
      last = chunk->last = status != STRATA_INFLATE_MORE;
      *current = NULL;
      g_async_queue_push (self->filled, chunk);
      if (last)
        return;
    }
}

static gpointer
inflate_thread (gpointer data)
{
  StrataContentInflater *self = data;
  StrataLoadGuard guard;
  Chunk *current = NULL;

  if (STRATA_LOAD_GUARD_FAULTED (&guard))
    {
      Chunk *chunk = current != NULL ? current : g_async_queue_pop (self->empty);

      chunk->len = 0;
      chunk->last = TRUE;
      chunk->fault = guard.fault;
      chunk->fault_wanted = guard.wanted;
      g_async_queue_push (self->filled, chunk);
      return NULL;
    }
  inflate_chunks (self, &current);
  strata_load_guard_pop (&guard);
  return NULL;
}

static StrataContentInflater *
inflater_new (const guint8 *input,
              gsize         input_len)
{
  StrataContentInflater *self = g_new0 (StrataContentInflater, 1);

  self->inflater = strata_inflater_new (input, input_len);
  self->empty = g_async_queue_new ();
  self->filled = g_async_queue_new ();
  for (guint i = 0; i < N_CHUNKS; i++)
    {
      Chunk *chunk = g_new0 (Chunk, 1);

      chunk->data = g_malloc (INFLATE_CHUNK);
      g_async_queue_push (self->empty, chunk);
    }
  self->thread = g_thread_new ("strata-inflate", inflate_thread, self);
  return self;
}

static void
chunk_free (gpointer data)
{
  Chunk *chunk = data;

  g_free (chunk->data);
  g_free (chunk);
}

/* Stops the thread wherever it is and frees every chunk. */
static void
inflater_free (StrataContentInflater *self)
{
  Chunk *chunk;

  g_atomic_int_set (&self->stop, 1);
  /* Give it room to reach its next check of @stop. */
  g_async_queue_push (self->empty, g_new0 (Chunk, 1));
  g_thread_join (self->thread);
  while ((chunk = g_async_queue_try_pop (self->filled)) != NULL)
    chunk_free (chunk);
  while ((chunk = g_async_queue_try_pop (self->empty)) != NULL)
    chunk_free (chunk);
  g_async_queue_unref (self->filled);
  g_async_queue_unref (self->empty);
  strata_inflater_free (self->inflater);
  g_free (self);
}

void
strata_content_reader_init (StrataContentReader *reader,
                            StrataLoadJob       *job,
                            gboolean             gzip)
{
  memset (reader, 0, sizeof *reader);
  reader->job = job;
  reader->input = g_bytes_get_data (job->bytes, &reader->input_len);
  if (gzip)
    {
      reader->inflater = inflater_new (reader->input, reader->input_len);
      reader->buffer = g_byte_array_new ();
      reader->data = "";
    }
  else
    {
      reader->data = (const char *) reader->input;
      reader->len = reader->input_len;
      reader->input_pos = reader->input_len;
      reader->at_end = TRUE;
    }
}

void
strata_content_reader_clear (StrataContentReader *reader)
{
  g_clear_pointer (&reader->inflater, inflater_free);
  g_clear_pointer (&reader->buffer, g_byte_array_unref);
}

/**
 * strata_content_reader_refill:
 *
 * Drops the window before the reader's place and appends the next
 * inflated chunk. Returns: FALSE when there is nothing more to read
 */
gboolean
strata_content_reader_refill (StrataContentReader *reader)
{
  gsize keep;
  Chunk *chunk;
  gboolean grew;

  if (reader->at_end || reader->len - reader->pos > MAX_WINDOW)
    return FALSE;
  /* Whitespace or one huge value has no events to report progress at:
   * a cancelled load stops here, at most a chunk later. */
  if (g_cancellable_is_cancelled (reader->job->cancellable))
    {
      reader->at_end = TRUE;
      return FALSE;
    }

  keep = reader->len - reader->pos;
  if (keep > 0)
    memmove (reader->buffer->data, reader->buffer->data + reader->pos, keep);
  g_byte_array_set_size (reader->buffer, keep);
  reader->offset += reader->pos;

  chunk = g_async_queue_pop (reader->inflater->filled);
  g_byte_array_append (reader->buffer, chunk->data, chunk->len);
  reader->input_pos = chunk->input_pos;
  reader->damaged |= chunk->damaged;
  if (chunk->fault != STRATA_LOAD_FAULT_NONE)
    {
      reader->fault = chunk->fault;
      reader->fault_wanted = chunk->fault_wanted;
    }
  reader->at_end = chunk->last;
  grew = chunk->len > 0;
  if (!chunk->last)
    g_async_queue_push (reader->inflater->empty, chunk);
  else
    chunk_free (chunk);

  reader->data = (const char *) reader->buffer->data;
  reader->len = reader->buffer->len;
  reader->pos = 0;
  return grew || !reader->at_end;
}

/* Makes sure the first byte after the spaces at the reader's place is in
 * the window; FALSE at the end of the content. */
gboolean
strata_content_reader_peek (StrataContentReader *reader,
                            char                *c)
{
  for (;;)
    {
      /* An empty window may have no buffer at all yet. */
      if (reader->pos < reader->len)
        {
          const char *p = strata_json_skip_space_inline (reader->data + reader->pos, reader->data + reader->len);

          reader->pos = p - reader->data;
          if (reader->pos < reader->len)
            {
              *c = *p;
              return TRUE;
            }
        }
      if (!strata_content_reader_refill (reader))
        return FALSE;
    }
}

/* Plain content: hands the pages already read back to the kernel. */
void
strata_content_reader_release (StrataContentReader *reader)
{
  if (reader->pos - reader->released >= RELEASE_INTERVAL)
    strata_content_reader_release_all (reader);
}

/* Once reading is done: every page read goes back, however few (up to
 * RELEASE_INTERVAL of them would stay through the rest of the load). */
void
strata_content_reader_release_all (StrataContentReader *reader)
{
  if (reader->inflater != NULL)
    return;
  strata_load_job_release_pages (reader->job, reader->input + reader->released, reader->input + reader->pos);
  reader->released = reader->pos;
}

double
strata_content_reader_fraction (StrataContentReader *reader)
{
  gsize pos = reader->inflater != NULL ? reader->input_pos : reader->pos;

  return reader->input_len > 0 ? (double) pos / reader->input_len : 1;
}
