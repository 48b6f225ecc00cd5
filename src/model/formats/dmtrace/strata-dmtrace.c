/* strata-dmtrace.c: Android method traces (dmtrace), regular and streaming
 *
 * Two passes over the records: the first only follows each thread's call
 * stack to count the calls per depth, the second writes them into span
 * tables sized exactly, so memory stays at the size of the result.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>
#include <glib/gi18n.h>

#include "strata-dmtrace-lrm.h"
#include "strata-dmtrace-private.h"
#include "strata-error.h"
#include "strata-load-guard.h"

#define MIN_HEADER_LEN 16
#define MAX_RECORD_SIZE 64
#define PROGRESS_INTERVAL (1u << 20)
#define RELEASE_INTERVAL (8u << 20)
#define PREFETCH_AHEAD 4
#define WRAP ((gint64) 1 << 32)
#define PARALLEL_MIN_RECORDS (1u << 20)
#define MAX_WORKER_LEAD (32u << 20)
#define ALWAYS_INLINE __attribute__ ((always_inline))
#define NOINLINE __attribute__ ((noinline))

enum {
  OP_NEW_METHOD = 1,
  OP_NEW_THREAD = 2,
  OP_SUMMARY = 3,
};


static void
dmtrace_loader_clear (DmtraceLoader *self)
{
  for (guint i = 0; self->threads && i < self->threads->len; i++)
    {
      DmtraceThread *state = &g_array_index (self->threads, DmtraceThread, i);

      g_clear_pointer (&state->frames, g_free);
      g_clear_pointer (&state->counts, g_array_unref);
      g_clear_pointer (&state->cursor, g_free);
      g_clear_pointer (&state->unknown, g_hash_table_unref);
      g_clear_pointer (&state->unknown_first, g_array_unref);
    }
  g_clear_pointer (&self->threads, g_array_unref);
  strata_id_map_clear (&self->method_ids);
  g_clear_pointer (&self->thread_of_tid, g_free);
  g_clear_pointer (&self->method_direct, g_free);
  g_clear_pointer (&self->vm, g_free);
  dmtrace_v2_clear (self);
}

/* ---- Data header ---- */

gboolean
dmtrace_is_newer_art_format (guint version)
{
  guint plain = (version & 0xF0) == DMTRACE_STREAMING_FLAG ? version & 0x0F : version;

  return plain >= 4 && plain <= 6;
}

static gboolean
parse_data_header (DmtraceLoader  *self,
                   GError        **error)
{
  guint version;

  if (self->len < MIN_HEADER_LEN || read_u32 (self->data) != DMTRACE_MAGIC)
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                           _("The data section of the method trace does not start with a valid header."));
      return FALSE;
    }

  version = read_u16 (self->data + 4);
  self->header_len = read_u16 (self->data + 6);
  self->streaming = (version & 0xF0) == DMTRACE_STREAMING_FLAG;
  self->version = self->streaming ? version & 0x0F : version;

  if (dmtrace_is_newer_art_format (version))
    return dmtrace_v2_parse_header (self, version, error);
  if (self->version < 1 || self->version > 3)
    {
      g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                   _("The data section has an unknown version (0x%X)."), version);
      return FALSE;
    }

  if (self->header_len < MIN_HEADER_LEN)
    {
      g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                   _("The data header claims a length of %u bytes, shorter than the %u bytes every header has."),
                   (guint) self->header_len, (guint) MIN_HEADER_LEN);
      return FALSE;
    }
  if (self->header_len > self->len)
    {
      g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                   _("The data header claims a length of %u bytes, which the file does not have."),
                   (guint) self->header_len);
      return FALSE;
    }

  /* Read only within the header length just checked. */
  if (self->version >= 3 || self->streaming)
    self->record_size = self->header_len >= 18 ? read_u16 (self->data + 16) : 0;
  else
    self->record_size = self->version == 1 ? 9 : 10;
  if (self->record_size < (self->version == 1 ? 9u : 10u) || self->record_size > MAX_RECORD_SIZE)
    {
      g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                   _("The data header gives an impossible record size (%u bytes)."),
                   (guint) self->record_size);
      return FALSE;
    }

  return TRUE;
}

/* Which record field feeds which clock. Dual clock traces keep both; the
 * wall clock comes first because the timeline is drawn on it. */
static void
choose_clocks (DmtraceLoader *self)
{
  StrataClockKind kinds[STRATA_MAX_CLOCKS];
  gboolean two_fields = self->v2 ? self->n_time_fields == 2 : self->version >= 3 && self->record_size >= 14;

  /* Without a key, streaming v3 is ART's dual default; a single-clock
   * V2 trace is on the wall clock unless its summary says otherwise. */
  if (self->clock == DMTRACE_CLOCK_UNSET)
    self->clock = two_fields && (self->streaming || self->v2) ? DMTRACE_CLOCK_DUAL
                  : self->v2 ? DMTRACE_CLOCK_WALL : DMTRACE_CLOCK_THREAD_CPU;
  /* V2's header fixes how many times a record holds: it wins over a
   * summary that says otherwise, or the passes would read apart. */
  if (self->v2 && two_fields)
    self->clock = DMTRACE_CLOCK_DUAL;
  if (self->clock == DMTRACE_CLOCK_DUAL && !two_fields)
    {
      strata_trace_add_diagnostic (self->trace,
                                   _("The key says “clock=dual” but records hold one time; it was read as thread CPU time."));
      self->clock = DMTRACE_CLOCK_THREAD_CPU;
    }

  self->n_time_fields = self->clock == DMTRACE_CLOCK_DUAL ? 2 : 1;
  switch (self->clock)
    {
    case DMTRACE_CLOCK_DUAL:
      self->n_clocks = 2;
      kinds[0] = STRATA_CLOCK_WALL, self->field_of_clock[0] = 1;
      kinds[1] = STRATA_CLOCK_THREAD_CPU, self->field_of_clock[1] = 0;
      break;

    case DMTRACE_CLOCK_WALL:
      self->n_clocks = 1;
      kinds[0] = STRATA_CLOCK_WALL, self->field_of_clock[0] = 0;
      break;

    case DMTRACE_CLOCK_THREAD_CPU:
    case DMTRACE_CLOCK_UNSET:
    default:
      self->n_clocks = 1;
      kinds[0] = STRATA_CLOCK_THREAD_CPU, self->field_of_clock[0] = 0;
      break;
    }
  strata_trace_set_clocks (self->trace, self->n_clocks, kinds);
}

/* ---- Reading items ---- */

void
dmtrace_note_truncation (DmtraceLoader *self,
                         gsize          pos)
{
  self->truncated = TRUE;
  self->truncated_at = pos;
  self->truncated_bytes = self->len - pos;
}

static gboolean
read_packet (DmtraceLoader *self,
             gsize         *pos,
             Pass           pass)
{
  const guint8 *p = self->data + *pos;
  gsize left = self->len - *pos;
  gsize need;

  /* u2 0 escape, u1 opcode */
  if (left < 3)
    return FALSE;

  switch (p[2])
    {
    case OP_NEW_METHOD:
      if (left < 5 || left - 5 < (need = read_u16 (p + 3)))
        return FALSE;
      if (pass == PASS_COUNT)
        strata_dmtrace_add_method_line (self, (const char *) p + 5, need);
      *pos += 5 + need;
      return TRUE;

    case OP_NEW_THREAD:
      if (left < 7 || left - 7 < (need = read_u16 (p + 5)))
        return FALSE;
      if (pass == PASS_COUNT)
        strata_dmtrace_ensure_thread (self, read_u16 (p + 3), (const char *) p + 7, need);
      *pos += 7 + need;
      return TRUE;

    case OP_SUMMARY:
      if (left < 7 || left - 7 < (need = read_u32 (p + 3)))
        return FALSE;
      if (pass == PASS_COUNT)
        strata_dmtrace_parse_key (self, (const char *) p + 7, need, NULL);
      *pos += 7 + need;
      return TRUE;

    default:
      /* An unknown packet has no length to skip by: stop here. */
      return FALSE;
    }
}

/* Returns FALSE at the end of the data (or where it breaks off). */
static inline gboolean
next_record (DmtraceLoader *self,
             DmtraceCursor *cursor,
             Record        *record,
             Pass           pass)
{
  gsize *pos = &cursor->pos;

  if (self->v2)
    return dmtrace_v2_next_record (self, cursor, record, pass);
  for (;;)
    {
      const guint8 *p = self->data + *pos;
      gsize left = self->len - *pos;
      guint tid_size = self->version == 1 ? 1 : 2;

      if (left == 0)
        return FALSE;

      if (self->streaming && left >= 2 && read_u16 (p) == 0)
        {
          if (!read_packet (self, pos, pass))
            {
              if (pass == PASS_COUNT)
                dmtrace_note_truncation (self, *pos);
              return FALSE;
            }
          continue;
        }

      if (left < self->record_size)
        {
          if (pass == PASS_COUNT)
            dmtrace_note_truncation (self, *pos);
          return FALSE;
        }

      record->pos = *pos;
      record->tid = tid_size == 1 ? p[0] : read_u16 (p);
      record->value = read_u32 (p + tid_size);
      record->time[0] = read_u32 (p + tid_size + 4);
      record->time[1] = self->n_time_fields > 1 ? read_u32 (p + tid_size + 8) : 0;
      *pos += self->record_size;
      return TRUE;
    }
}

/* ---- The call stack, shared by both passes ---- */

static guint32 *
count_slot (DmtraceThread *state,
            int            level)
{
  /* Levels go below zero when methods exit that began before tracing;
   * the counts grow at whichever end is needed. */
  if (state->counts->len == 0)
    state->count_base = level;
  else if (level < state->count_base)
    {
      /* Grown by at least its length, so a stack unwound one level at a
       * time (10 M frames open at the end) costs linear time, not
       * quadratic. */
      guint old_len = state->counts->len;
      guint extra = MAX ((guint) (state->count_base - level), old_len);

      g_array_set_size (state->counts, old_len + extra);
      memmove (state->counts->data + extra * sizeof (guint32), state->counts->data,
               old_len * sizeof (guint32));
      memset (state->counts->data, 0, extra * sizeof (guint32));
      state->count_base -= extra;
    }
  if ((guint) (level - state->count_base) >= state->counts->len)
    g_array_set_size (state->counts, level - state->count_base + 1);

  return &g_array_index (state->counts, guint32, level - state->count_base);
}

static inline void
count_span (DmtraceThread *state,
            int            level)
{
  int slot = level - state->count_base;

  if (G_LIKELY (state->counts->len > 0 && slot >= 0 && (guint) slot < state->counts->len))
    ((guint32 *) state->counts->data)[slot]++;
  else
    (*count_slot (state, level))++;
}

/* An id the key does not name: the thread gives it a number of its own,
 * so workers on other threads need no lock; add_unknown_methods() turns
 * those into methods once every worker is done. */
static guint32
resolve_method_slow (DmtraceLoader *self,
                     DmtraceThread *state,
                     guint32        raw)
{
  guint32 index = strata_id_map_lookup (&self->method_ids, raw);
  gpointer local;

  if (G_LIKELY (index < self->n_known_methods))
    return index;

  state->n_unknown_calls++;
  if (state->unknown == NULL)
    {
      state->unknown = g_hash_table_new (NULL, NULL);
      state->unknown_first = g_array_new (FALSE, FALSE, sizeof (DmtraceUnknown));
    }
  if (!g_hash_table_lookup_extended (state->unknown, GUINT_TO_POINTER (raw), NULL, &local))
    {
      DmtraceUnknown first = { raw, state->record_pos };

      local = GUINT_TO_POINTER (state->unknown_first->len);
      g_array_append_val (state->unknown_first, first);
      g_hash_table_insert (state->unknown, GUINT_TO_POINTER (raw), local);
    }
  return UNKNOWN_METHOD_BIT | GPOINTER_TO_UINT (local);
}

static guint32
resolve_method (DmtraceLoader *self,
                DmtraceThread *state,
                guint32        raw)
{
  if (G_LIKELY ((raw >> 2) < self->method_direct_len &&
                self->method_direct[raw >> 2] != STRATA_ID_MAP_MISSING))
    return self->method_direct[raw >> 2];

  return resolve_method_slow (self, state, raw);
}

static void
write_span (DmtraceLoader *self,
            DmtraceThread *state,
            int            level,
            guint32        method,
            guint32        first_child,
            const gint64  *start,
            const gint64  *end)
{
  StrataSpanTable *table = state->table;
  guint depth = level - state->min_level;
  guint32 index = state->cursor[depth]++;

  g_assert (depth < table->n_depths && index < table->n_spans[depth]);

  /* Calls land in hundreds of arrays at once, more than the hardware
   * prefetcher follows: ask for the next cache lines ahead of time. */
  __builtin_prefetch (&table->calls[depth][index + PREFETCH_AHEAD], 1, 3);
  strata_span_table_write (table, depth, index, &(StrataSpan) { start[0], end[0], method, first_child });
  if (table->second != NULL)
    {
      __builtin_prefetch (&table->second[depth][index + PREFETCH_AHEAD], 1, 3);
      table->second[depth][index] = (StrataClockSpan) { start[1], end[1] };
    }
}

static void
close_frame (DmtraceLoader *self,
             DmtraceThread *state,
             Pass           pass,
             const gint64  *time)
{
  DmtraceFrame *frame = &state->frames[--state->n_frames];

  state->level--;
  if (pass == PASS_COUNT)
    count_span (state, state->level);
  else
    write_span (self, state, state->level, frame->method, frame->first_child, frame->start, time);
}

/* An exit with nothing under it: the method was running when tracing
 * began. It gets an entry at the thread's first timestamp and, one level
 * down, becomes the parent of everything the thread did so far. */
static void
close_unentered (DmtraceLoader *self,
                 DmtraceThread *state,
                 Pass           pass,
                 guint32        raw,
                 const gint64  *time)
{
  const StrataThread *thread = strata_trace_peek_thread (self->trace, state->thread);

  state->level--;
  if (pass == PASS_COUNT)
    {
      count_span (state, state->level);
      self->n_unmatched_exits++;
    }
  else
    write_span (self, state, state->level, resolve_method (self, state, raw), 0, thread->first_time, time);
}

static inline void
handle_exit (DmtraceLoader *self,
             DmtraceThread *state,
             Pass           pass,
             guint32        raw,
             const gint64  *time)
{
  guint depth = state->n_frames;

  while (depth > 0 && state->frames[depth - 1].raw != raw)
    depth--;

  /* Frames above the one exiting never returned: close them with it. If
   * the method is not on the stack at all, it began before tracing and
   * everything on the stack ran inside it. */
  if (pass == PASS_COUNT && state->n_frames > 0 && depth != state->n_frames)
    self->n_mismatched_exits++;
  while (state->n_frames > depth)
    close_frame (self, state, pass, time);

  if (depth > 0)
    close_frame (self, state, pass, time);
  else
    close_unentered (self, state, pass, raw, time);
}

static inline void
handle_enter (DmtraceLoader *self,
              DmtraceThread *state,
              Pass           pass,
              guint32        raw,
              const gint64  *time)
{
  DmtraceFrame *frame;

  if (G_UNLIKELY (state->n_frames == state->frames_allocated))
    {
      state->frames_allocated = MAX (64, state->frames_allocated * 2);
      state->frames = g_renew (DmtraceFrame, state->frames, state->frames_allocated);
    }
  frame = &state->frames[state->n_frames++];
  frame->raw = raw;

  if (pass == PASS_BUILD)
    {
      guint child_depth = state->level + 1 - state->min_level;

      frame->method = resolve_method (self, state, raw);
      frame->first_child = child_depth < state->table->n_depths ? state->cursor[child_depth] : 0;
      frame->start[0] = time[0];
      frame->start[1] = time[1];
    }
  state->level++;
}

/* Turns the record's 32-bit microsecond fields into nanoseconds on each
 * clock, undoing the wrap every 71 minutes and holding time that runs
 * backwards at the last value. */
static inline void
record_times (DmtraceLoader *self,
              DmtraceThread *state,
              const Record  *record,
              gint64        *time)
{
  StrataThread *thread = strata_trace_peek_thread (self->trace, state->thread);

  for (guint c = 0; c < self->n_clocks; c++)
    {
      guint32 raw = record->time[self->field_of_clock[c]];
      gint64 t;

      if (self->v2)
        t = record->ns[self->field_of_clock[c]];
      else
        {
          if (state->seen && raw < state->last_raw_time[c] &&
              state->last_raw_time[c] - raw > G_MAXUINT32 / 2)
            {
              state->epoch[c] += WRAP;
              state->n_wraps++;
            }
          state->last_raw_time[c] = raw;
          t = (state->epoch[c] + raw) * 1000;
        }

      if (!state->seen)
        thread->first_time[c] = t;
      else if (t < state->last_time[c])
        {
          t = state->last_time[c];
          state->n_backwards++;
        }
      state->last_time[c] = t;
      time[c] = t;
    }
  state->seen = TRUE;
}

static inline void
process_record (DmtraceLoader *self,
                const Record  *record,
                Pass           pass)
{
  guint index = self->thread_of_tid[record->tid];
  guint32 raw = record->value & ~3u;
  gint64 time[STRATA_MAX_CLOCKS] = { 0, 0 };
  DmtraceThread *state;

  if (G_UNLIKELY (index == DMTRACE_NO_THREAD))
    {
      index = strata_dmtrace_ensure_thread (self, record->tid, NULL, 0);
      self->n_unknown_threads++;
    }
  state = &g_array_index (self->threads, DmtraceThread, index);
  state->n_records++;

  if ((record->value & 3) == ACTION_INVALID)
    {
      if (pass == PASS_COUNT)
        self->n_bad_actions++;
      return;
    }

  if (pass == PASS_BUILD)
    {
      state->record_pos = record->pos;
      record_times (self, state, record, time);
    }

  /* An exit that names no method (a V2 variant's) closes the innermost. */
  if (raw == DMTRACE_INNERMOST && state->n_frames > 0)
    raw = state->frames[state->n_frames - 1].raw;
  if ((record->value & 3) == ACTION_ENTER)
    handle_enter (self, state, pass, raw, time);
  else
    handle_exit (self, state, pass, raw, time);
}

static void
close_open_frames (DmtraceLoader *self,
                   Pass           pass,
                   guint          worker)
{
  for (guint i = 0; i < self->threads->len; i++)
    {
      DmtraceThread *state = &g_array_index (self->threads, DmtraceThread, i);
      StrataThread *thread = strata_trace_peek_thread (self->trace, state->thread);

      if (pass == PASS_BUILD && state->worker != worker)
        continue;
      /* Kept in the loader's state while reading: threads of different
       * workers share cache lines in the trace. */
      if (pass == PASS_BUILD && state->seen)
        memcpy (thread->last_time, state->last_time, sizeof state->last_time);
      if (pass == PASS_COUNT)
        self->n_open_at_end += state->n_frames;
      while (state->n_frames > 0)
        close_frame (self, state, pass, thread->last_time);
      if (pass == PASS_BUILD && state->table != NULL)
        strata_span_table_end_writing (state->table);
    }
}

/* The first pass, on one thread: it also meets the threads and, in the
 * streaming layout, the methods. */
static gboolean
run_count_pass (DmtraceLoader  *self,
                GError        **error)
{
  const char *message = _("Reading calls…");
  DmtraceCursor cursor = { .pos = self->header_len, .worker = G_MAXUINT };
  gsize released = cursor.pos;
  guint64 n = 0;
  Record record;

  while (next_record (self, &cursor, &record, PASS_COUNT))
    {
      process_record (self, &record, PASS_COUNT);

      if (G_UNLIKELY (++n % PROGRESS_INTERVAL == 0))
        {
          if (!strata_load_job_update (self->job, 0.45 * cursor.pos / self->len, message, error))
            return FALSE;
          if (cursor.pos - released >= RELEASE_INTERVAL)
            {
              strata_load_job_release_pages (self->job, self->data + released, self->data + cursor.pos);
              released = cursor.pos;
            }
        }
    }

  close_open_frames (self, PASS_COUNT, 0);
  strata_load_job_release_pages (self->job, self->data + released, self->data + cursor.pos);
  return strata_load_job_update (self->job, 0.45, message, error);
}

/* Between the passes: every thread's spans, sized by what the first pass
 * counted, in one block for all threads (and one for the second clock). */
/* count_slot() grows the counts below the lowest level in steps, which
 * leaves empty slots there: every level the thread reached has a span. */
static void
trim_unreached_levels (DmtraceThread *state)
{
  guint first = 0;

  while (first < state->counts->len && g_array_index (state->counts, guint32, first) == 0)
    first++;
  if (first == 0)
    return;
  g_array_remove_range (state->counts, 0, first);
  state->count_base += first;
}

static void
allocate_span_tables (DmtraceLoader *self)
{
  guint64 total = 0;
  StrataPackedSpan *spans;
  StrataClockSpan *second = NULL;

  for (guint i = 0; i < self->threads->len; i++)
    {
      DmtraceThread *state = &g_array_index (self->threads, DmtraceThread, i);

      trim_unreached_levels (state);
      for (guint d = 0; d < state->counts->len; d++)
        total += g_array_index (state->counts, guint32, d);
    }

  spans = strata_trace_alloc_block (self->trace, total * sizeof (StrataPackedSpan));
  if (self->n_clocks == 2)
    second = strata_trace_alloc_block (self->trace, total * sizeof (StrataClockSpan));

  for (guint i = 0; i < self->threads->len; i++)
    {
      DmtraceThread *state = &g_array_index (self->threads, DmtraceThread, i);
      StrataThread *thread = strata_trace_peek_thread (self->trace, state->thread);
      const guint32 *counts = (const guint32 *) state->counts->data;
      guint n_depths = state->counts->len;
      guint64 n = 0;

      if (n_depths == 0)
        continue;

      /* Depth 0 is the lowest level the thread reached. */
      for (guint d = 0; d < n_depths; d++)
        n += counts[d];
      state->min_level = state->count_base;
      thread->n_entered_before = state->count_base < 0 ? -state->count_base : 0;
      thread->spans = strata_span_table_new_in (self->n_clocks, n_depths, counts, spans, second);
      state->table = thread->spans;
      state->cursor = g_new0 (guint32, n_depths);
      spans += n;
      if (second != NULL)
        second += n;

      /* Reset what the first pass changed. */
      state->n_counted_records = state->n_records;
      state->level = 0;
      state->n_records = 0;
      state->n_frames = 0;
    }
}

/* ---- The second pass, shared out between workers by thread ---- */

typedef struct
{
  DmtraceLoader *loader;
  guint          id;
  GError        *error;
  gboolean       ok;
} BuildWorker;

static gsize
slowest_worker_pos (DmtraceLoader *self)
{
  gsize slowest = G_MAXSIZE;

  for (guint w = 0; w < self->n_workers; w++)
    slowest = MIN (slowest, __atomic_load_n (&self->worker_pos[w], __ATOMIC_ACQUIRE));
  return MIN (slowest, self->len);
}

/* Pages every worker has read go back to the kernel, whichever worker
 * notices; a worker far ahead of the others waits for them, or the pages
 * between would pile up in memory. */
static void
release_read_pages (DmtraceLoader *self,
                    guint          worker,
                    gsize          pos)
{
  gsize slowest;

  g_mutex_lock (&self->release_lock);
  __atomic_store_n (&self->worker_pos[worker], pos, __ATOMIC_RELEASE);
  g_cond_broadcast (&self->caught_up);
  while (pos != G_MAXSIZE && pos - MIN (pos, slowest_worker_pos (self)) > MAX_WORKER_LEAD &&
         !g_atomic_int_get (&self->stop))
    g_cond_wait (&self->caught_up, &self->release_lock);
  slowest = slowest_worker_pos (self);
  if (slowest > self->released && slowest - self->released >= RELEASE_INTERVAL)
    {
      strata_load_job_release_pages (self->job, self->data + self->released, self->data + slowest);
      self->released = slowest;
    }
  g_mutex_unlock (&self->release_lock);
}

/* Worker 0 reports progress and notices cancellation; the others stop
 * when it does. */
/* Cancelled, or the file shrank under the mapping: every worker stops. */
static void
stop_workers (DmtraceLoader *self)
{
  g_mutex_lock (&self->release_lock);
  g_atomic_int_set (&self->stop, TRUE);
  g_cond_broadcast (&self->caught_up);
  g_mutex_unlock (&self->release_lock);
}

static gboolean
build_checkpoint (BuildWorker *worker,
                  gsize        pos)
{
  DmtraceLoader *self = worker->loader;

  release_read_pages (self, worker->id, pos);
  if (worker->id == 0 &&
      !strata_load_job_update (self->job, 0.45 + 0.5 * pos / self->len, _("Building the timeline…"), &worker->error))
    stop_workers (self);
  return !g_atomic_int_get (&self->stop);
}


/* Every worker reads all records and builds the calls of its threads.
 * Apart from run_build_worker(), so nothing the loop changes lives in the
 * frame a mapped-read fault jumps back to. Returns: FALSE when stopped */
static NOINLINE gboolean
build_records (BuildWorker *worker)
{
  DmtraceLoader *self = worker->loader;
  DmtraceCursor cursor = { .pos = self->header_len, .worker = worker->id };
  guint64 n = 0;
  Record record;

  while (next_record (self, &cursor, &record, PASS_BUILD))
    {
      guint index = self->thread_of_tid[record.tid];

      if (index != DMTRACE_NO_THREAD &&
          g_array_index (self->threads, DmtraceThread, index).worker == worker->id)
        process_record (self, &record, PASS_BUILD);

      if (G_UNLIKELY (++n % PROGRESS_INTERVAL == 0) && !build_checkpoint (worker, cursor.pos))
        return FALSE;
    }

  close_open_frames (self, PASS_BUILD, worker->id);
  release_read_pages (self, worker->id, G_MAXSIZE);
  return TRUE;
}

static gpointer
run_build_worker (gpointer data)
{
  BuildWorker *worker = data;
  StrataLoadGuard guard;

  if (STRATA_LOAD_GUARD_FAULTED (&guard))
    {
      strata_load_guard_set_error (&guard, &worker->error);
      stop_workers (worker->loader);
      return NULL;
    }
  worker->ok = build_records (worker);
  strata_load_guard_pop (&guard);
  return NULL;
}

static int
compare_by_records (gconstpointer a,
                    gconstpointer b)
{
  const DmtraceThread *x = *(DmtraceThread * const *) a;
  const DmtraceThread *y = *(DmtraceThread * const *) b;

  return x->n_counted_records < y->n_counted_records ? 1 : x->n_counted_records > y->n_counted_records ? -1 : 0;
}

/* Threads go to the least loaded worker, busiest first. Small traces
 * and single-thread ones keep one worker. */
static void
share_out_threads (DmtraceLoader *self)
{
  g_autofree DmtraceThread **order = g_new (DmtraceThread *, MAX (self->threads->len, 1));
  guint64 load[DMTRACE_MAX_WORKERS] = { 0 };
  guint64 total = 0;
  guint n_busy = 0;

  for (guint i = 0; i < self->threads->len; i++)
    {
      order[i] = &g_array_index (self->threads, DmtraceThread, i);
      order[i]->worker = 0;
      total += order[i]->n_counted_records;
      n_busy += order[i]->n_counted_records > 0;
    }
  self->n_workers = total < PARALLEL_MIN_RECORDS ? 1 : MIN (MIN (g_get_num_processors (), DMTRACE_MAX_WORKERS), n_busy);
  /* Tests compare one worker with several on small files. */
  if (g_getenv ("STRATA_DMTRACE_WORKERS") != NULL)
    self->n_workers = g_ascii_strtoull (g_getenv ("STRATA_DMTRACE_WORKERS"), NULL, 10);
  self->n_workers = CLAMP (self->n_workers, 1, DMTRACE_MAX_WORKERS);
  if (self->n_workers == 1)
    return;

  qsort (order, self->threads->len, sizeof (DmtraceThread *), compare_by_records);
  for (guint i = 0; i < self->threads->len; i++)
    {
      guint lightest = 0;

      for (guint w = 1; w < self->n_workers; w++)
        if (load[w] < load[lightest])
          lightest = w;
      order[i]->worker = lightest;
      load[lightest] += order[i]->n_counted_records;
    }
}

static gboolean
run_build_pass (DmtraceLoader  *self,
                GError        **error)
{
  BuildWorker workers[DMTRACE_MAX_WORKERS] = { { 0 } };
  GThread *threads[DMTRACE_MAX_WORKERS] = { NULL };
  GError *first_error = NULL;
  gboolean all_ok = TRUE;

  share_out_threads (self);
  g_mutex_init (&self->release_lock);
  g_cond_init (&self->caught_up);
  self->released = self->header_len;
  for (guint w = 0; w < self->n_workers; w++)
    {
      workers[w] = (BuildWorker) { .loader = self, .id = w };
      self->worker_pos[w] = self->header_len;
    }
  /* A worker whose thread cannot be made fails as out of memory; the
   * others then stop as after any failure. */
  for (guint w = 1; w < self->n_workers; w++)
    if (!(threads[w] = g_thread_try_new ("strata-dmtrace", run_build_worker, &workers[w], NULL)))
      {
        strata_load_fault_set_error (STRATA_LOAD_FAULT_OUT_OF_MEMORY, 0, &workers[w].error);
        stop_workers (self);
      }
  run_build_worker (&workers[0]);
  for (guint w = 1; w < self->n_workers; w++)
    if (threads[w] != NULL)
      g_thread_join (threads[w]);

  g_mutex_clear (&self->release_lock);
  g_cond_clear (&self->caught_up);
  strata_load_job_release_pages (self->job, self->data + self->released, self->data + self->len);
  /* Worker 0 fails when cancelled, any worker when the file shrank; the
   * others then stop too, without an error of their own. */
  for (guint w = 0; w < self->n_workers; w++)
    {
      if (first_error == NULL)
        first_error = g_steal_pointer (&workers[w].error);
      g_clear_error (&workers[w].error);
      all_ok &= workers[w].ok;
    }
  if (!all_ok)
    {
      if (first_error == NULL)
        strata_load_fault_set_error (STRATA_LOAD_FAULT_FILE_SHRANK, 0, &first_error);
      g_propagate_error (error, first_error);
      return FALSE;
    }
  g_clear_error (&first_error);

  /* Each worker ended its threads' tables; one no worker reached too. */
  for (guint i = 0; i < self->threads->len; i++)
    {
      DmtraceThread *state = &g_array_index (self->threads, DmtraceThread, i);

      if (state->table != NULL && state->table->writing_wide != NULL)
        strata_span_table_end_writing (state->table);
    }
  dmtrace_add_unknown_methods (self);
  dmtrace_sum_thread_diagnostics (self);
  return strata_load_job_update (self->job, 0.95, _("Building the timeline…"), error);
}

static gboolean
load_records (DmtraceLoader  *self,
              GError        **error)
{
  if (!parse_data_header (self, error))
    return FALSE;
  dmtrace_trim_zero_tail (self);

  if (!run_count_pass (self, error))
    return FALSE;

  choose_clocks (self);
  self->n_known_methods = strata_trace_get_n_methods (self->trace);
  dmtrace_build_direct_method_table (self);
  allocate_span_tables (self);

  return run_build_pass (self, error);
}

/**
 * strata_dmtrace_load:
 *
 * Reads a dmtrace file: key + data in one file, the older NAME.key +
 * NAME.data pair, or ART's streaming layout.
 */
StrataTrace *
strata_dmtrace_load (StrataLoadJob  *job,
                     GError        **error)
{
  g_autoptr(StrataTrace) trace = strata_trace_new (STRATA_FORMAT_DMTRACE);
  g_autoptr(GBytes) sibling = NULL;
  DmtraceLoader self = { .job = job, .trace = trace };
  const guint8 *data;
  gboolean ok;
  gsize len;

  data = g_bytes_get_data (job->bytes, &len);
  /* Neither a key nor a data header: ART's long-running methods. */
  if (!(len >= 4 && memcmp (data, "SLOW", 4) == 0) && !(len >= 8 && memcmp (data, "*version", 8) == 0) &&
      (dmtrace_lrm_sniff_raw (data, len) || dmtrace_lrm_sniff_text (data, len)))
    return dmtrace_lrm_load (job, error);
  self.threads = g_array_new (FALSE, TRUE, sizeof (DmtraceThread));
  strata_id_map_init (&self.method_ids);
  self.thread_of_tid = g_new (guint32, DMTRACE_MAX_TID + 1);
  memset (self.thread_of_tid, 0xff, sizeof (guint32) * (DMTRACE_MAX_TID + 1));
  self.process = strata_trace_add_process (trace, 0, _("Android app"));

  ok = dmtrace_find_sections (&self, data, len, &sibling, error) &&
       load_records (&self, error);

  if (ok)
    {
      strata_trace_peek_process (trace, self.process)->pid = self.pid;
      dmtrace_describe_format (&self);
      dmtrace_report_diagnostics (&self);
      strata_trace_finish (trace);
    }
  dmtrace_loader_clear (&self);

  return ok ? g_steal_pointer (&trace) : NULL;
}
