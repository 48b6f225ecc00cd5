/* strata-trace.c: a loaded trace: threads and their calls, methods,
 * events, counters, heap and what the loader said
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "strata-mapping.h"
#include "strata-memory.h"
#include "strata-load-guard.h"
#include "strata-trace-object-private.h"
#include "strata-units.h"

G_DEFINE_FINAL_TYPE (StrataTrace, strata_trace, G_TYPE_OBJECT)

typedef struct
{
  guint64 from;
  guint64 to;
} SourceLink;

static void
clear_thread (gpointer data)
{
  StrataThread *thread = data;

  g_clear_pointer (&thread->spans, strata_span_table_free);
}

static void
strata_trace_finalize (GObject *object)
{
  StrataTrace *self = (StrataTrace *)object;

  g_clear_object (&self->file);
  g_clear_pointer (&self->format_detail, g_free);
  g_clear_pointer (&self->pool, strata_string_pool_free);
  g_clear_pointer (&self->processes, g_array_unref);
  g_clear_pointer (&self->threads, g_array_unref);
  g_clear_pointer (&self->methods, g_array_unref);
  g_clear_pointer (&self->metadata, g_ptr_array_unref);
  g_clear_pointer (&self->blocks, g_ptr_array_unref);
  g_clear_pointer (&self->events, g_array_unref);
  g_clear_pointer (&self->flows, g_array_unref);
  g_clear_pointer (&self->counters, g_ptr_array_unref);
  g_clear_pointer (&self->source_links, g_array_unref);
  g_clear_pointer (&self->args_text, g_bytes_unref);
  g_clear_pointer (&self->heap, strata_heap_free);
  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);
  g_clear_pointer (&self->notes, g_ptr_array_unref);
  g_free (self->loaded_method_names);
  g_free (self->loaded_class_names);
  g_clear_pointer (&self->mapped_methods, g_array_unref);
  g_clear_pointer (&self->field_mapping, strata_mapping_free);

  G_OBJECT_CLASS (strata_trace_parent_class)->finalize (object);
}

static void
strata_trace_class_init (StrataTraceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = strata_trace_finalize;
}

static void
strata_trace_init (StrataTrace *self)
{
  self->pool = strata_string_pool_new ();
  self->n_clocks = 1;
  self->clocks[0] = STRATA_CLOCK_WALL;
  self->processes = g_array_new (FALSE, TRUE, sizeof (StrataProcess));
  self->threads = g_array_new (FALSE, TRUE, sizeof (StrataThread));
  g_array_set_clear_func (self->threads, clear_thread);
  self->methods = g_array_new (FALSE, TRUE, sizeof (StrataMethod));
  self->metadata = g_ptr_array_new_with_free_func (g_free);
  self->blocks = g_ptr_array_new_with_free_func (free);
  self->events = g_array_new (FALSE, FALSE, sizeof (StrataEvent));
  self->flows = g_array_new (FALSE, FALSE, sizeof (StrataFlow));
  self->counters = g_ptr_array_new_with_free_func ((GDestroyNotify) strata_counter_free);
  self->diagnostics = g_ptr_array_new_with_free_func (g_free);
  self->notes = g_ptr_array_new_with_free_func (g_free);
}

StrataTrace *
strata_trace_new (StrataFormat format)
{
  StrataTrace *self = g_object_new (STRATA_TYPE_TRACE, NULL);

  self->format = format;
  return self;
}

StrataFormat
strata_trace_get_format (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), STRATA_FORMAT_UNKNOWN);

  return self->format;
}

/**
 * strata_trace_get_format_detail:
 *
 * Returns: (nullable): what the loader saw, e.g. "version 3, dual clock, art"
 */
const char *
strata_trace_get_format_detail (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), NULL);

  return self->format_detail;
}

void
strata_trace_set_format_detail (StrataTrace *self,
                                const char  *detail)
{
  g_return_if_fail (STRATA_IS_TRACE (self));

  g_free (self->format_detail);
  self->format_detail = g_strdup (detail);
}

/**
 * strata_trace_get_file:
 *
 * Returns: (transfer none) (nullable): the file the trace was read from
 */
GFile *
strata_trace_get_file (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), NULL);

  return self->file;
}

guint64
strata_trace_get_file_size (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), 0);

  return self->file_size;
}

void
strata_trace_set_source (StrataTrace *self,
                         GFile       *file,
                         guint64      file_size)
{
  g_return_if_fail (STRATA_IS_TRACE (self));
  g_return_if_fail (!file || G_IS_FILE (file));

  g_set_object (&self->file, file);
  self->file_size = file_size;
}

StrataStringPool *
strata_trace_get_pool (StrataTrace *self)
{
  return self->pool;
}

const char *
strata_trace_get_string (StrataTrace *self,
                         guint32      id)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), NULL);

  return strata_string_pool_get (self->pool, id);
}

void
strata_trace_set_clocks (StrataTrace           *self,
                         guint                  n_clocks,
                         const StrataClockKind *kinds)
{
  g_return_if_fail (STRATA_IS_TRACE (self));
  g_return_if_fail (n_clocks >= 1 && n_clocks <= STRATA_MAX_CLOCKS);

  self->n_clocks = n_clocks;
  for (guint i = 0; i < n_clocks; i++)
    self->clocks[i] = kinds[i];
}

guint
strata_trace_get_n_clocks (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), 1);

  return self->n_clocks;
}

StrataClockKind
strata_trace_get_clock_kind (StrataTrace *self,
                             guint        clock)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), STRATA_CLOCK_WALL);
  g_return_val_if_fail (clock < self->n_clocks, STRATA_CLOCK_WALL);

  return self->clocks[clock];
}

/**
 * strata_trace_format_weight:
 * @exact: every digit (reports) rather than a few (tables, tooltips)
 *
 * Returns: (transfer full): @ns on @clock as text: a time, or for a
 *   sampled clock a count of samples (never seconds)
 */
char *
strata_trace_format_weight (StrataTrace *self,
                            guint        clock,
                            gint64       ns,
                            gboolean     exact)
{
  gboolean samples = clock < strata_trace_get_n_clocks (self) &&
                     strata_trace_get_clock_kind (self, clock) == STRATA_CLOCK_SAMPLES;

  if (samples)
    return exact ? strata_units_format_samples_exact (ns) : strata_units_format_samples (ns);
  return exact ? strata_units_format_exact (ns) : strata_units_format_duration (ns);
}

/**
 * strata_trace_set_calls_are_samples:
 *
 * Says every call was made from a sampling profiler's samples (a
 * .cpuprofile, HPROF's CPU samples): how many there were, and the time
 * each took, mean nothing there.
 */
void
strata_trace_set_calls_are_samples (StrataTrace *self,
                                    gboolean     sampled)
{
  g_return_if_fail (STRATA_IS_TRACE (self));

  self->calls_are_samples = sampled;
}

gboolean
strata_trace_get_calls_are_samples (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), FALSE);

  return self->calls_are_samples;
}

/* Returns: the clock of @kind, or the first when the trace has none of it */
guint
strata_trace_find_clock (StrataTrace     *self,
                         StrataClockKind  kind)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), 0);

  for (guint c = 0; c < self->n_clocks; c++)
    if (self->clocks[c] == kind)
      return c;
  return 0;
}

/**
 * strata_trace_get_default_clock:
 *
 * The clock a trace opens on, in the window and on the command line
 * alike: wall time when the trace has it, as Android Studio, DevTools and
 * Perfetto show first; else its only clock (thread CPU, or samples).
 */
guint
strata_trace_get_default_clock (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), 0);

  return strata_trace_find_clock (self, STRATA_CLOCK_WALL);
}

const char *
strata_trace_get_clock_name (StrataTrace *self,
                             guint        clock)
{
  switch (strata_trace_get_clock_kind (self, clock))
    {
    case STRATA_CLOCK_THREAD_CPU:
      return _("Thread CPU");
    case STRATA_CLOCK_SAMPLES:
      /* Translators: a clock that counts CPU samples, each shown as 1 ms */
      return _("CPU samples (1 ms each)");
    case STRATA_CLOCK_WALL:
    default:
      return _("Wall");
    }
}

guint
strata_trace_add_process (StrataTrace *self,
                          gint64       pid,
                          const char  *name)
{
  StrataProcess process = {
    .pid = pid,
    .name = strata_string_pool_intern (self->pool, name ? name : ""),
    .sort_index = 0,
  };

  g_array_append_val (self->processes, process);
  return self->processes->len - 1;
}

StrataProcess *
strata_trace_peek_process (StrataTrace *self,
                           guint        index)
{
  g_assert (index < self->processes->len);

  return &g_array_index (self->processes, StrataProcess, index);
}

guint
strata_trace_get_n_processes (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), 0);

  return self->processes->len;
}

const StrataProcess *
strata_trace_get_process (StrataTrace *self,
                          guint        index)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->processes->len, NULL);

  return &g_array_index (self->processes, StrataProcess, index);
}

guint
strata_trace_add_thread (StrataTrace *self,
                         guint        process,
                         gint64       tid,
                         const char  *name)
{
  StrataThread thread = {
    .process = process,
    .tid = tid,
    .name = strata_string_pool_intern (self->pool, name ? name : ""),
  };

  g_array_append_val (self->threads, thread);
  return self->threads->len - 1;
}

StrataThread *
strata_trace_peek_thread (StrataTrace *self,
                          guint        index)
{
  g_assert (index < self->threads->len);

  return &g_array_index (self->threads, StrataThread, index);
}

guint
strata_trace_get_n_threads (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), 0);

  return self->threads->len;
}

/* The threads the timeline draws calls for: a trace may name many more
 * (dmtrace lists every thread the VM had). */
guint
strata_trace_count_threads_with_calls (StrataTrace *self)
{
  guint n = 0;

  g_return_val_if_fail (STRATA_IS_TRACE (self), 0);

  for (guint i = 0; i < self->threads->len; i++)
    n += strata_trace_get_thread (self, i)->spans != NULL;
  return n;
}

const StrataThread *
strata_trace_get_thread (StrataTrace *self,
                         guint        index)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->threads->len, NULL);

  return &g_array_index (self->threads, StrataThread, index);
}

guint32
strata_trace_add_method (StrataTrace        *self,
                         const StrataMethod *method)
{
  g_array_append_vals (self->methods, method, 1);
  return self->methods->len - 1;
}

/* A method to finish while loading. */
StrataMethod *
strata_trace_peek_method (StrataTrace *self,
                          guint32      index)
{
  g_return_val_if_fail (index < self->methods->len, NULL);

  return &g_array_index (self->methods, StrataMethod, index);
}

guint
strata_trace_get_n_methods (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), 0);

  return self->methods->len;
}

const StrataMethod *
strata_trace_get_method (StrataTrace *self,
                         guint32      index)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->methods->len, NULL);

  return &g_array_index (self->methods, StrataMethod, index);
}


void
strata_trace_add_metadata (StrataTrace *self,
                           const char  *key,
                           const char  *value)
{
  g_ptr_array_add (self->metadata, g_utf8_make_valid (key, -1));
  g_ptr_array_add (self->metadata, g_utf8_make_valid (value, -1));
}

guint
strata_trace_get_n_metadata (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), 0);

  return self->metadata->len / 2;
}

void
strata_trace_get_metadata (StrataTrace  *self,
                           guint         index,
                           const char  **key,
                           const char  **value)
{
  g_return_if_fail (STRATA_IS_TRACE (self));
  g_return_if_fail (index < self->metadata->len / 2);

  *key = g_ptr_array_index (self->metadata, index * 2);
  *value = g_ptr_array_index (self->metadata, index * 2 + 1);
}

/**
 * strata_trace_alloc_block:
 *
 * Storage that lives as long as the trace, for the calls of many threads
 * at once, on huge pages when it is large (strata_memory_try_alloc_large()).
 *
 * Returns: (transfer none): @size bytes, not initialised
 */
gpointer
strata_trace_alloc_block (StrataTrace *self,
                          gsize        size)
{
  void *block = strata_memory_try_alloc_large (size);

  if (block == NULL)
    strata_load_guard_out_of_memory (size);

  g_ptr_array_add (self->blocks, block);
  return block;
}

void
strata_trace_take_events (StrataTrace *self,
                          GArray      *events)
{
  g_array_unref (self->events);
  self->events = events;
}

void
strata_trace_take_flows (StrataTrace *self,
                         GArray      *flows)
{
  g_array_unref (self->flows);
  self->flows = flows;
}

void
strata_trace_add_counter (StrataTrace   *self,
                          StrataCounter *counter)
{
  g_ptr_array_add (self->counters, counter);
}

/* Args a loader decoded itself (from a binary format), as a JSON text
 * in which each event's source is where its {"args": …} object starts:
 * read there instead of from the file. */
void
strata_trace_set_args_text (StrataTrace *self,
                            GBytes      *text)
{
  g_clear_pointer (&self->args_text, g_bytes_unref);
  self->args_text = text != NULL ? g_bytes_ref (text) : NULL;
}

/**
 * strata_trace_get_args_text:
 *
 * Returns: (transfer none) (nullable): the events' args as the loader
 *   kept them, or %NULL when they are read from the file
 */
GBytes *
strata_trace_get_args_text (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), NULL);

  return self->args_text;
}

/* An event whose details continue in another: a B event's E carries
 * args too. */
void
strata_trace_add_source_link (StrataTrace *self,
                              guint64      from,
                              guint64      to)
{
  SourceLink link = { from, to };

  if (self->source_links == NULL)
    self->source_links = g_array_new (FALSE, FALSE, sizeof (SourceLink));
  g_array_append_val (self->source_links, link);
}

static int
compare_links (const void *a,
               const void *b)
{
  const SourceLink *la = a, *lb = b;

  return la->from < lb->from ? -1 : la->from > lb->from;
}

/**
 * strata_trace_get_source_link:
 *
 * Returns: whether the event at @from continues in another, at @to
 */
gboolean
strata_trace_get_source_link (StrataTrace *self,
                              guint64      from,
                              guint64     *to)
{
  SourceLink key = { from, 0 };
  const SourceLink *found;

  g_return_val_if_fail (STRATA_IS_TRACE (self), FALSE);

  if (self->source_links == NULL ||
      !(found = bsearch (&key, self->source_links->data, self->source_links->len, sizeof (SourceLink), compare_links)))
    return FALSE;
  *to = found->to;
  return TRUE;
}

/* Takes @heap: a heap dump's class histogram and roots. */
void
strata_trace_set_heap (StrataTrace *self,
                       StrataHeap  *heap)
{
  g_clear_pointer (&self->heap, strata_heap_free);
  self->heap = heap;
}

/**
 * strata_trace_get_heap:
 *
 * Returns: (nullable): what a heap dump held, or %NULL for other traces
 */
/* A heap dump and nothing else: no calls to show on a timeline. */
gboolean
strata_trace_is_heap_only (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), FALSE);

  return self->heap != NULL && self->n_spans == 0;
}

const StrataHeap *
strata_trace_get_heap (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), NULL);

  return self->heap;
}

/* @counts: 128 counts, by phase letter */
void
strata_trace_set_phase_counts (StrataTrace   *self,
                               const guint64 *counts)
{
  memcpy (self->phase_counts, counts, sizeof self->phase_counts);
}

guint
strata_trace_get_n_events (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), 0);

  return self->events->len;
}

const StrataEvent *
strata_trace_get_event (StrataTrace *self,
                        guint        index)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->events->len, NULL);

  return &g_array_index (self->events, StrataEvent, index);
}

guint
strata_trace_get_n_flows (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), 0);

  return self->flows->len;
}

const StrataFlow *
strata_trace_get_flow (StrataTrace *self,
                       guint        index)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->flows->len, NULL);

  return &g_array_index (self->flows, StrataFlow, index);
}

guint
strata_trace_get_n_counters (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), 0);

  return self->counters->len;
}

const StrataCounter *
strata_trace_get_counter (StrataTrace *self,
                          guint        index)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->counters->len, NULL);

  return g_ptr_array_index (self->counters, index);
}

/**
 * strata_trace_get_phase_count:
 *
 * Returns: how many events of the Trace Event @phase the file held
 *   (zero for other formats)
 */
guint64
strata_trace_get_phase_count (StrataTrace *self,
                              char         phase)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), 0);

  return (guchar) phase < G_N_ELEMENTS (self->phase_counts) ? self->phase_counts[(guchar) phase] : 0;
}

static void
widen_range (StrataTrace *self,
             gboolean    *any,
             gint64       start,
             gint64       end)
{
  if (!*any || start < self->start)
    self->start = start;
  if (!*any || end > self->end)
    self->end = end;
  *any = TRUE;
}

/* Called by the loader once everything is in: computes the time range. */
/**
 * strata_trace_adopt_block:
 * @block: (transfer full): from malloc()
 *
 * Keeps @block as long as the trace, as strata_trace_alloc_block() does.
 */
void
strata_trace_adopt_block (StrataTrace *self,
                          gpointer     block)
{
  g_ptr_array_add (self->blocks, block);
}

void
strata_trace_finish (StrataTrace *self)
{
  gboolean any = FALSE;

  if (self->source_links != NULL)
    qsort (self->source_links->data, self->source_links->len, sizeof (SourceLink), compare_links);
  self->n_spans = 0;
  for (guint i = 0; i < self->threads->len; i++)
    {
      StrataThread *thread = strata_trace_peek_thread (self, i);

      if (thread->spans == NULL)
        continue;
      self->n_spans += strata_span_table_get_n_spans (thread->spans);
      widen_range (self, &any, thread->first_time[0], thread->last_time[0]);
    }
  for (guint i = 0; i < self->events->len; i++)
    {
      const StrataEvent *event = &g_array_index (self->events, StrataEvent, i);

      widen_range (self, &any, event->start, event->end);
    }
  for (guint i = 0; i < self->counters->len; i++)
    {
      const StrataCounter *counter = g_ptr_array_index (self->counters, i);

      if (counter->n_samples > 0)
        widen_range (self, &any, counter->times[0], counter->times[counter->n_samples - 1]);
    }
}

/* The span of time the threads cover on @clock (thread CPU clocks start
 * at zero for each thread). */
void
strata_trace_get_clock_range (StrataTrace *self,
                              guint        clock,
                              gint64      *start,
                              gint64      *end)
{
  gboolean any = FALSE;

  g_return_if_fail (STRATA_IS_TRACE (self));
  g_return_if_fail (clock < self->n_clocks);

  *start = *end = 0;
  for (guint i = 0; i < self->threads->len; i++)
    {
      const StrataThread *thread = &g_array_index (self->threads, StrataThread, i);

      if (thread->spans == NULL)
        continue;
      if (!any || thread->first_time[clock] < *start)
        *start = thread->first_time[clock];
      if (!any || thread->last_time[clock] > *end)
        *end = thread->last_time[clock];
      any = TRUE;
    }
}

guint64
strata_trace_get_n_spans (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), 0);

  return self->n_spans;
}

gint64
strata_trace_get_start (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), 0);

  return self->start;
}

/**
 * strata_trace_get_clock_origin:
 *
 * Returns: the time on @clock that times are told from: on the first
 *   clock, the trace's start (events and counters count, as the
 *   timeline's ruler has it); on another, its first call's
 */
gint64
strata_trace_get_clock_origin (StrataTrace *self,
                               guint        clock)
{
  gint64 start, end;

  g_return_val_if_fail (STRATA_IS_TRACE (self), 0);

  if (clock == 0)
    return self->start;
  strata_trace_get_clock_range (self, clock, &start, &end);
  return start;
}

gint64
strata_trace_get_end (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), 0);

  return self->end;
}

/* Calls that overlap [start, end] on every thread. */
guint64
strata_trace_count_calls_in (StrataTrace *self,
                             guint        clock,
                             gint64       start,
                             gint64       end)
{
  guint64 n = 0;

  g_return_val_if_fail (STRATA_IS_TRACE (self), 0);

  for (guint t = 0; t < strata_trace_get_n_threads (self); t++)
    {
      const StrataSpanTable *table = strata_trace_get_thread (self, t)->spans;

      if (table != NULL)
        n += strata_span_table_count_in (table, clock, start, end);
    }
  return n;
}

static int
compare_pairs (const void *a,
               const void *b)
{
  const gint64 *pa = a, *pb = b;

  return pa[0] < pb[0] ? -1 : pa[0] > pb[0];
}

/**
 * strata_trace_collect_calls_of:
 *
 * Returns: (transfer full): start, end pairs (gint64) of every call to
 *   @method on any thread, sorted by start: traceview's marker lines
 */
GArray *
strata_trace_collect_calls_of (StrataTrace *self,
                               guint        clock,
                               guint32      method)
{
  GArray *pairs = g_array_new (FALSE, FALSE, sizeof (gint64));

  g_return_val_if_fail (STRATA_IS_TRACE (self), pairs);

  for (guint t = 0; t < strata_trace_get_n_threads (self); t++)
    {
      const StrataSpanTable *table = strata_trace_get_thread (self, t)->spans;

      if (table != NULL)
        strata_span_table_collect_calls_of (table, clock, method, pairs);
    }
  qsort (pairs->data, pairs->len / 2, 2 * sizeof (gint64), compare_pairs);
  return pairs;
}

/* The longest call to @method on the first clock, on any thread. */
gboolean
strata_trace_find_longest_call (StrataTrace    *self,
                                guint32         method,
                                StrataSliceRef *call)
{
  gint64 best_length = -1;

  g_return_val_if_fail (STRATA_IS_TRACE (self), FALSE);

  for (guint t = 0; t < strata_trace_get_n_threads (self); t++)
    {
      const StrataSpanTable *table = strata_trace_get_thread (self, t)->spans;

      for (guint d = 0; table != NULL && d < table->n_depths; d++)
        for (guint32 i = 0; i < table->n_spans[d]; i++)
          if (table->calls[d][i].method == method && strata_span_table_end (table, d, i) - strata_span_table_start (table, d, i) > best_length)
            {
              *call = (StrataSliceRef) { t, d, i };
              best_length = strata_span_table_end (table, d, i) - strata_span_table_start (table, d, i);
            }
    }
  return best_length >= 0;
}
