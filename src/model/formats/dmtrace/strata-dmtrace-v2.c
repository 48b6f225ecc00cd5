/* strata-dmtrace-v2.c: ART's method trace format V2 (Android 15 and later)
 *
 * Follows the writer in ART's runtime/trace.cc (TraceWriter, format V2):
 *
 *   header   u4 'SLOW', u2 version (4 one clock, 5 dual; | 0xF0 when
 *            streaming), u8 CLOCK_MONOTONIC ns when tracing began, zeros
 *            to 32 bytes (TraceWriter::TraceWriter)
 *   packets  by a type byte:
 *     0 thread  u4 Linux tid, u2 length, name (RecordThreadInfo)
 *     1 method  u8 ArtMethod pointer, u2 length,
 *               "class\tname\tsignature\tsource\n" (RecordMethodInfoV2);
 *               written for every loaded class at the start and on class
 *               load, so it may come after records that use it
 *     2 block   u4 tid, u3 record count, u4 payload size
 *               (EncodeEventBlockHeader), then per record an SLEB128
 *               delta of (method pointer | action), a ULEB128 delta of
 *               the wall clock in ns since the start (dual and wall), and
 *               one of the thread CPU clock in ns since the thread's first
 *               event (dual and thread CPU); the previous values start at
 *               0 in each block (FlushEntriesFormatV2)
 *     3 summary u2 length, the text key (*version … clock= … *end)
 *
 * Perfetto (src/trace_processor/importers/art_method/art_method_v2_tokenizer.cc)
 * reads another variant under the same versions: the header holds the
 * timestamp counter's start and frequency at offsets 14 and 22 (ART's
 * writer leaves them 0), and a record is an SLEB128 delta of
 * (ticks << 2 | action), then one of the thread CPU time on dual-clock
 * traces, then on entries only one of the method; an exit closes the
 * innermost call. The header decides, and where it cannot (a frequency
 * of 0), a trial decode of the first block: the variant whose records
 * fill the block's payload exactly.
 *
 * Records become the same Record the v1-v3 reader makes, with times in
 * nanoseconds: everything after (call stacks, both passes, workers,
 * unknown methods, diagnostics) is the dmtrace reader's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-dmtrace-private.h"
#include "strata-leb128.h"
#include "strata-error.h"

#define V2_HEADER_LEN 32
#define V2_BLOCK_HEADER_LEN 12
/* Times past 2^46 ns (19.5 hours) from the start are held there: no
 * trace runs that long, and sums of such times would overflow. */
#define MAX_TIME ((guint64) 1 << 46)

enum {
  PACKET_THREAD,
  PACKET_METHOD,
  PACKET_BLOCK,
  PACKET_SUMMARY,
};

static gboolean read_ticks_record (DmtraceLoader  *self,
                                   DmtraceCursor  *cursor,
                                   const guint8  **p,
                                   const guint8   *end,
                                   guint          *action);

static inline guint64
read_u64 (const guint8 *p)
{
  return (guint64) read_u32 (p) | ((guint64) read_u32 (p + 4) << 32);
}

/* Whether @count records of the variant fill @payload exactly. */
static gboolean
fills_block (DmtraceLoader *self,
             gboolean       ticks,
             const guint8  *payload,
             gsize          size,
             guint32        count)
{
  const guint8 *p = payload, *end = payload + size;
  DmtraceCursor cursor = { 0 };
  guint action;

  for (guint32 i = 0; i < count; i++)
    {
      gint64 delta;

      if (ticks)
        {
          if (!read_ticks_record (self, &cursor, &p, end, &action))
            return FALSE;
          continue;
        }
      for (guint f = 0; f <= self->n_time_fields; f++)
        if (!strata_read_sleb128 (&p, end, &delta))
          return FALSE;
    }
  return p == end;
}

/* With no frequency in the header to tell: the variant whose reading of
 * the first block of records fills it exactly, when only one does. */
static gboolean
first_block_reads_as_ticks (DmtraceLoader *self)
{
  gsize pos = V2_HEADER_LEN;

  while (pos < self->len)
    {
      const guint8 *p = self->data + pos;
      gsize left = self->len - pos, need;

      if (p[0] == PACKET_BLOCK && left >= V2_BLOCK_HEADER_LEN &&
          left - V2_BLOCK_HEADER_LEN >= (need = read_u32 (p + 8)))
        {
          guint32 count = p[5] | (p[6] << 8) | (p[7] << 16);

          return fills_block (self, TRUE, p + V2_BLOCK_HEADER_LEN, need, count) &&
                 !fills_block (self, FALSE, p + V2_BLOCK_HEADER_LEN, need, count);
        }
      if (p[0] == PACKET_THREAD && left >= 7 && left - 7 >= (need = read_u16 (p + 5)))
        pos += 7 + need;
      else if (p[0] == PACKET_METHOD && left >= 11 && left - 11 >= (need = read_u16 (p + 9)))
        pos += 11 + need;
      else
        return FALSE;
    }
  return FALSE;
}

gboolean
dmtrace_v2_parse_header (DmtraceLoader  *self,
                         guint           version,
                         GError        **error)
{
  guint plain = version & 0x0F;

  /* 6 is the long-running method profile, which a method trace file
   * never holds. */
  if (plain != 4 && plain != 5)
    {
      g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_UNSUPPORTED,
                   _("It is a method trace in an ART encoding Strata does not know (version 0x%X)."), version);
      return FALSE;
    }
  if (self->len < V2_HEADER_LEN)
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                           _("The method trace ends inside its 32-byte header."));
      return FALSE;
    }
  self->v2 = TRUE;
  self->version = plain;
  self->header_len = V2_HEADER_LEN;
  self->record_size = 1;
  self->n_time_fields = plain == 5 ? 2 : 1;
  self->start_ns = (gint64) MIN (read_u64 (self->data + 6), MAX_TIME << 4);
  self->v2_tsc_hz = read_u64 (self->data + 22);
  self->v2_ticks = self->v2_tsc_hz != 0 || (read_u64 (self->data + 14) == 0 && first_block_reads_as_ticks (self));
  strata_id_map_init (&self->v2_methods);
  strata_id_map_init (&self->v2_slots);
  return TRUE;
}

void
dmtrace_v2_clear (DmtraceLoader *self)
{
  if (!self->v2)
    return;
  strata_id_map_clear (&self->v2_methods);
  strata_id_map_clear (&self->v2_slots);
}

/* ---- Ids ---- */

/* The 32-bit id records of @method get (its two action bits clear),
 * given on first sight: a method's info may come after its records. */
static guint32
method_id (DmtraceLoader *self,
           guint64        method,
           Pass           pass)
{
  guint32 id = strata_id_map_lookup (&self->v2_methods, method);

  if (id != STRATA_ID_MAP_MISSING || pass == PASS_BUILD)
    return id;
  if (self->v2_next_method >= G_MAXUINT32 / 4 - 1)
    return STRATA_ID_MAP_MISSING;
  id = ++self->v2_next_method << 2;
  strata_id_map_insert (&self->v2_methods, method, id);
  return id;
}

/* The slot of the thread @tid, made (with @name, or named by its id) on
 * first sight in the first pass. */
static guint
thread_slot (DmtraceLoader *self,
             guint32        tid,
             const char    *name,
             gsize          name_len,
             Pass           pass)
{
  guint32 slot = strata_id_map_lookup (&self->v2_slots, tid);
  g_autofree char *fallback = NULL;
  guint index;

  if (pass == PASS_BUILD || (slot != STRATA_ID_MAP_MISSING && name == NULL))
    return slot;
  if (slot == STRATA_ID_MAP_MISSING)
    {
      if (self->v2_next_slot >= DMTRACE_MAX_TID)
        return STRATA_ID_MAP_MISSING;
      slot = ++self->v2_next_slot;
      strata_id_map_insert (&self->v2_slots, tid, slot);
      if (name == NULL)
        {
          /* Translators: a thread the trace names only by its id */
          fallback = g_strdup_printf (_("Thread %u"), tid);
          name = fallback;
          name_len = strlen (fallback);
        }
    }
  index = strata_dmtrace_ensure_thread (self, slot, name, name_len);
  strata_trace_peek_thread (self->trace, g_array_index (self->threads, DmtraceThread, index).thread)->tid = tid;
  return slot;
}

static void
add_method (DmtraceLoader *self,
            guint64        method,
            const guint8  *text,
            gsize          len)
{
  guint32 id = method_id (self, method, PASS_COUNT);
  g_autofree char *line = NULL;

  if (id == STRATA_ID_MAP_MISSING)
    return;
  /* As a line of the v1-v3 key: the id, then the same four fields. */
  line = g_strdup_printf ("0x%x\t%.*s", id, (int) len, (const char *) text);
  strata_dmtrace_add_method_line (self, line, strlen (line));
}

/* ---- Packets ---- */

/* A packet other than a block, whole; FALSE where the data breaks off. */
static gboolean
read_info_packet (DmtraceLoader *self,
                  gsize         *pos,
                  Pass           pass)
{
  const guint8 *p = self->data + *pos;
  gsize left = self->len - *pos, need;

  switch (p[0])
    {
    case PACKET_THREAD:
      if (left < 7 || left - 7 < (need = read_u16 (p + 5)))
        return FALSE;
      if (pass == PASS_COUNT)
        thread_slot (self, read_u32 (p + 1), (const char *) p + 7, need, pass);
      *pos += 7 + need;
      return TRUE;

    case PACKET_METHOD:
      if (left < 11 || left - 11 < (need = read_u16 (p + 9)))
        return FALSE;
      if (pass == PASS_COUNT)
        add_method (self, read_u64 (p + 1), p + 11, need);
      *pos += 11 + need;
      return TRUE;

    case PACKET_SUMMARY:
      if (left < 3 || left - 3 < (need = read_u16 (p + 1)))
        return FALSE;
      if (pass == PASS_COUNT)
        {
          strata_dmtrace_parse_key (self, (const char *) p + 3, need, NULL);
          self->v2_summary_seen = TRUE;
        }
      *pos += 3 + need;
      return TRUE;

    default:
      return FALSE;
    }
}

/* The block at the cursor: its header read, the deltas reset. Returns
 * FALSE where the data breaks off. */
static gboolean
open_block (DmtraceLoader *self,
            DmtraceCursor *cursor,
            Pass           pass)
{
  const guint8 *p = self->data + cursor->pos;
  gsize left = self->len - cursor->pos, size;
  guint32 index;

  if (left < V2_BLOCK_HEADER_LEN || left - V2_BLOCK_HEADER_LEN < (size = read_u32 (p + 8)))
    return FALSE;
  cursor->block_end = cursor->pos + V2_BLOCK_HEADER_LEN + size;
  cursor->left = p[5] | (p[6] << 8) | (p[7] << 16);
  cursor->slot = thread_slot (self, read_u32 (p + 1), NULL, 0, pass);
  cursor->method = 0;
  cursor->ticks = 0;
  cursor->time[0] = cursor->time[1] = 0;
  cursor->pos += V2_BLOCK_HEADER_LEN;
  index = cursor->slot != STRATA_ID_MAP_MISSING ? self->thread_of_tid[cursor->slot] : DMTRACE_NO_THREAD;
  /* Another worker's thread, or one past what slots hold: not ours. */
  if (index == DMTRACE_NO_THREAD ||
      (pass == PASS_BUILD && g_array_index (self->threads, DmtraceThread, index).worker != cursor->worker))
    {
      if (index == DMTRACE_NO_THREAD && pass == PASS_COUNT)
        self->n_bad_blocks++;
      cursor->pos = cursor->block_end;
      cursor->left = 0;
    }
  return TRUE;
}

/* The times of the record just read, in v3's field order, on the
 * monotonic clock for the wall clock. */
static inline void
set_record_times (DmtraceLoader       *self,
                  const DmtraceCursor *cursor,
                  Record              *record)
{
  if (self->n_time_fields == 2)
    {
      record->ns[0] = (gint64) cursor->time[1];
      record->ns[1] = self->start_ns + (gint64) cursor->time[0];
    }
  else if (self->clock == DMTRACE_CLOCK_THREAD_CPU)
    record->ns[0] = (gint64) cursor->time[0];
  else
    record->ns[0] = self->start_ns + (gint64) cursor->time[0];
}

/* A record of the counter-ticks variant: the time (ns from the start)
 * into @cursor->time[0], the CPU time into [1], the method only on
 * entries. Returns FALSE when it runs past @end. */
static gboolean
read_ticks_record (DmtraceLoader  *self,
                   DmtraceCursor  *cursor,
                   const guint8  **p,
                   const guint8   *end,
                   guint          *action)
{
  gint64 delta;
  guint64 ticks;

  if (!strata_read_sleb128 (p, end, &delta))
    return FALSE;
  cursor->ticks += (guint64) delta;
  *action = cursor->ticks & 3;
  ticks = MIN (cursor->ticks >> 2, MAX_TIME);
  /* Ticks to ns without overflow: whole seconds, then the rest. */
  cursor->time[0] = self->v2_tsc_hz == 0 ? ticks
                    : MIN (ticks / self->v2_tsc_hz * G_GUINT64_CONSTANT (1000000000) +
                           ticks % self->v2_tsc_hz * G_GUINT64_CONSTANT (1000000000) / self->v2_tsc_hz, MAX_TIME);
  if (self->n_time_fields == 2)
    {
      if (!strata_read_sleb128 (p, end, &delta))
        return FALSE;
      cursor->time[1] = MIN (cursor->time[1] + (guint64) delta, MAX_TIME);
    }
  if (*action == ACTION_ENTER)
    {
      if (!strata_read_sleb128 (p, end, &delta))
        return FALSE;
      cursor->method += (guint64) delta;
    }
  return TRUE;
}

/* One record of the open block; FALSE (the rest of the block skipped)
 * when it runs past the block's end. */
static inline gboolean
read_block_record (DmtraceLoader *self,
                   DmtraceCursor *cursor,
                   Record        *record,
                   Pass           pass)
{
  const guint8 *p = self->data + cursor->pos, *end = self->data + cursor->block_end;
  gint64 delta;
  guint32 id;

  record->pos = cursor->pos;
  if (self->v2_ticks)
    {
      guint action;

      if (!read_ticks_record (self, cursor, &p, end, &action))
        goto bad;
      cursor->pos = p - self->data;
      cursor->left--;
      id = action == ACTION_ENTER ? method_id (self, cursor->method & ~(guint64) 3, pass) : DMTRACE_INNERMOST;
      if (id == STRATA_ID_MAP_MISSING)
        goto bad;
      record->tid = cursor->slot;
      record->value = id | action;
      if (pass == PASS_BUILD)
        set_record_times (self, cursor, record);
      return TRUE;
    }
  if (!strata_read_sleb128 (&p, end, &delta))
    goto bad;
  cursor->method += (guint64) delta;
  for (guint f = 0; f < self->n_time_fields; f++)
    {
      guint64 step;

      if (!strata_read_uleb128 (&p, end, &step))
        goto bad;
      if (step > MAX_TIME - cursor->time[f])
        {
          step = MAX_TIME - cursor->time[f];
          if (pass == PASS_COUNT)
            self->n_bad_times++;
        }
      cursor->time[f] += step;
    }
  cursor->pos = p - self->data;
  cursor->left--;
  if ((id = method_id (self, cursor->method & ~(guint64) 3, pass)) == STRATA_ID_MAP_MISSING)
    goto bad;
  record->tid = cursor->slot;
  record->value = id | (guint32) (cursor->method & 3);
  if (pass == PASS_BUILD)
    set_record_times (self, cursor, record);
  return TRUE;

bad:
  if (pass == PASS_COUNT)
    self->n_bad_blocks++;
  cursor->pos = cursor->block_end;
  cursor->left = 0;
  return FALSE;
}

/**
 * dmtrace_v2_next_record:
 *
 * The next method entry or exit of the threads the cursor reads, the
 * packets before it taken in on the first pass. Returns: FALSE at the
 * end of the data, or where it breaks off (noted on the first pass)
 */
gboolean
dmtrace_v2_next_record (DmtraceLoader *self,
                        DmtraceCursor *cursor,
                        Record        *record,
                        Pass           pass)
{
  for (;;)
    {
      if (cursor->left > 0)
        {
          if (read_block_record (self, cursor, record, pass))
            return TRUE;
          continue;
        }
      if (cursor->pos < cursor->block_end)
        cursor->pos = cursor->block_end;
      if (cursor->pos >= self->len)
        return FALSE;
      if (self->data[cursor->pos] == PACKET_BLOCK ? open_block (self, cursor, pass)
                                                  : read_info_packet (self, &cursor->pos, pass))
        continue;
      if (pass == PASS_COUNT)
        dmtrace_note_truncation (self, cursor->pos);
      return FALSE;
    }
}

/* What only V2 can go wrong with: blocks that do not decode, and a file
 * that stops without the summary ART writes when tracing ends. */
void
dmtrace_v2_report_diagnostics (DmtraceLoader *self)
{
  if (!self->v2)
    return;
  strata_trace_add_count_diagnostic (self->trace, self->n_bad_blocks,
                                     /* Translators: %s is a count of blocks of records */
                                     ngettext ("%s block of records did not decode; the rest of it was skipped.",
                                               "%s blocks of records did not decode; the rest of each was skipped.",
                                               (gulong) MIN (self->n_bad_blocks, G_MAXULONG)));
  strata_trace_add_count_diagnostic (self->trace, self->n_bad_times,
                                     /* Translators: %s is a count of times in a method trace */
                                     ngettext ("%s time lay more than 19 hours after the start and was held there.",
                                               "%s times lay more than 19 hours after the start and were held there.",
                                               (gulong) MIN (self->n_bad_times, G_MAXULONG)));
  if (!self->v2_summary_seen && !self->truncated)
    strata_trace_add_diagnostic (self->trace,
                                 _("The trace ends without the summary ART writes when tracing stops: it was cut, "
                                   "or the app ended while tracing. Calls still open at the end are closed there."));
}
