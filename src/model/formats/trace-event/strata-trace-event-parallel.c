/* strata-trace-event-parallel.c: the event array scanned on a second core
 *
 * Finding an event's fields in the text takes about as long as adding
 * the event to the trace. A plain (mapped) file is scanned by a worker
 * that fills batches of fields while the loading thread takes them, in
 * order: a few batches go round between the two, so the memory used
 * does not grow with the file. The scan has no side effects; the fields
 * point into the mapping, which stays whole until the load ends.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-load-guard.h"
#include "strata-trace-event-private.h"

#define BATCH_EVENTS 1024
#define N_BATCHES 6

typedef struct
{
  guint    n;
  gboolean last;        /* the scan ended after these */
  guint64  sources[BATCH_EVENTS];
  TeFields fields[BATCH_EVENTS];
  TeProfileArgs profile_args[BATCH_EVENTS];
  GArray  *numbers;     /* gint64: the profile events' samples and deltas */
} Batch;

typedef struct
{
  StrataContentReader reader;   /* the worker's copy: only its place moves */
  TeArrayScan  scan;
  GAsyncQueue *empty;
  GAsyncQueue *filled;
  Batch       *current;
  gint         stop;            /* set by the loading thread */
  StrataLoadGuard guard;
} Pipe;

static TeFields *
batch_slot (gpointer data)
{
  Pipe *pipe = data;

  if (pipe->current == NULL)
    {
      pipe->current = g_async_queue_pop (pipe->empty);
      pipe->current->n = 0;
      pipe->current->last = FALSE;
      g_array_set_size (pipe->current->numbers, 0);
    }
  return &pipe->current->fields[pipe->current->n];
}

static gboolean
batch_take (gpointer data,
            guint64  source)
{
  Pipe *pipe = data;
  Batch *batch = pipe->current;
  TeFields *fields = &batch->fields[batch->n];

  /* JavaScript samples are most of a DevTools recording: read here,
   * beside the scan, not on the loading thread. */
  if (te_is_profile_event (fields))
    {
      te_read_profile_args (fields, batch->numbers, &batch->profile_args[batch->n]);
      fields->profile_args = &batch->profile_args[batch->n];
    }
  batch->sources[batch->n++] = source;
  if (batch->n < BATCH_EVENTS)
    return TRUE;
  g_async_queue_push (pipe->filled, batch);
  pipe->current = NULL;
  return !g_atomic_int_get (&pipe->stop);
}

/* A page of the file that vanishes (it shrank) ends the scan; the
 * loading thread then fails the load with the fault. */
static gpointer
scan_worker (gpointer data)
{
  Pipe *pipe = data;
  const TeEventSink sink = { batch_slot, batch_take, pipe };

  if (!STRATA_LOAD_GUARD_FAULTED (&pipe->guard))
    {
      te_scan_event_array (&pipe->scan, &sink);
      strata_load_guard_pop (&pipe->guard);
    }
  /* The fields of an event cut short by a fault are not counted. */
  batch_slot (pipe);
  pipe->current->last = TRUE;
  g_async_queue_push (pipe->filled, g_steal_pointer (&pipe->current));
  return NULL;
}

/* Takes the batches' events in order until the last batch, or until
 * taking one fails; then lets the worker stop and drains the rest. */
static gboolean
take_batches (TeLoader *self,
              Pipe     *pipe)
{
  gboolean ok = TRUE;

  for (;;)
    {
      Batch *batch = g_async_queue_pop (pipe->filled);
      gboolean last = batch->last;

      for (guint i = 0; ok && i < batch->n; i++)
        {
          /* Read ahead into runs of the batch's numbers, now whole. */
          batch->fields[i].profile_args_numbers = (const gint64 *) batch->numbers->data;
          self->reader.pos = batch->sources[i] - self->reader.offset;
          ok = te_take_event (self, &batch->fields[i], batch->sources[i]);
        }
      if (!ok)
        g_atomic_int_set (&pipe->stop, 1);
      g_async_queue_push (pipe->empty, batch);
      if (last)
        return ok;
    }
}

/**
 * te_read_events_in_parallel:
 *
 * As te_scan_event_array() with the loader taking the events, the scan
 * on a worker thread. The reader must be a mapped file's.
 */
gboolean
te_read_events_in_parallel (TeLoader  *self,
                            GError   **error)
{
  g_autofree Batch *batches = g_new (Batch, N_BATCHES);
  Pipe pipe = { 0 };
  GThread *worker;
  gboolean ok;

  pipe.reader = self->reader;
  pipe.scan = self->array;
  pipe.scan.reader = &pipe.reader;
  pipe.empty = g_async_queue_new ();
  pipe.filled = g_async_queue_new ();
  for (guint i = 0; i < N_BATCHES; i++)
    {
      batches[i].numbers = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_async_queue_push (pipe.empty, &batches[i]);
    }
  self->error = error;

  if ((worker = g_thread_try_new ("strata-scan", scan_worker, &pipe, NULL)) == NULL)
    scan_worker (&pipe);
  ok = take_batches (self, &pipe);
  if (worker != NULL)
    g_thread_join (worker);

  self->array = pipe.scan;
  self->array.reader = &self->reader;
  self->reader.pos = pipe.reader.pos;
  if (pipe.guard.fault != STRATA_LOAD_FAULT_NONE)
    self->reader.fault = pipe.guard.fault;
  g_async_queue_unref (pipe.empty);
  g_async_queue_unref (pipe.filled);
  for (guint i = 0; i < N_BATCHES; i++)
    g_array_unref (batches[i].numbers);
  return ok;
}
