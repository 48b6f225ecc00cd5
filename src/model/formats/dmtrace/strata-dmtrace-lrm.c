/* strata-dmtrace-lrm.c: ART's long-running method traces, from ANR dumps
 *
 * From Android 16, ART keeps an always-on trace of the methods that run
 * long (TraceProfiler, runtime/trace_profile.cc) and writes it into the
 * SIGQUIT dump of an ANR as a base64 line, "LongRunningMethods: …"; the
 * raw bytes are what VMDebug.dumpLowOverheadTrace writes. Its layout, as
 * DumpLongRunningMethodBuffer and DumpThreadMethodInfo write it (and
 * ART's tools/trace_parser/long_running_method_trace_parser.cc reads it):
 * no header; blocks (type 2: u4 tid, u3 record count, u4 payload size)
 * whose records are an SLEB128 delta of (time_ns << 1 | is_exit) and, on
 * entries only, an SLEB128 delta of the ArtMethod pointer, both starting
 * from 0 in each block; then method infos (type 1, as format V2's) and,
 * in all-methods dumps, thread infos (type 0). An exit names no method:
 * it closes the innermost open call.
 *
 * The trace is turned into a format V2 trace in memory, exits given
 * their methods and thread names taken from the dump's text, and read by
 * the V2 reader: everything a method trace gets, this gets.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-dmtrace-lrm.h"
#include "strata-dmtrace-private.h"
#include "strata-error.h"
#include "strata-leb128.h"

#define LRM_MARKER "LongRunningMethods:"
#define BLOCK_HEADER_LEN 12
#define MAX_DEPTH 65536

typedef struct
{
  guint32 tid;
  GArray *stack;      /* guint64 method pointers of the open calls */
} LrmThread;

typedef struct
{
  const guint8 *data;
  gsize         len;
  GByteArray   *out;
  GArray       *threads;     /* LrmThread */
  GHashTable   *named;       /* tids with a thread info written */
  guint64       start_ns;
  guint64       last_time;   /* the latest event, from the start */
  DmtraceLrmInfo *info;
} Transcoder;

/* ---- Finding the trace in a dump's text ---- */

/* @prefix at @p, within the @len bytes of @text (not 0-terminated). */
static gboolean
starts_with (const char *text,
             gsize       len,
             const char *p,
             const char *prefix)
{
  gsize n = strlen (prefix);

  return (gsize) (text + len - p) >= n && memcmp (p, prefix, n) == 0;
}

static const char *
find_line_start (const char *text,
                 const char *at)
{
  while (at > text && at[-1] != '\n')
    at--;
  return at;
}

/* The pid and command line of the "----- pid N at … -----" section that
 * holds @at, and the names of its threads by their sysTid. */
static void
read_section (const char     *text,
              gsize           len,
              const char     *at,
              DmtraceLrmInfo *info)
{
  const char *start = at, *end, *p;
  const char *quote_name = NULL;
  gsize quote_len = 0;

  while (start > text && !starts_with (text, len, start, "----- pid "))
    start = find_line_start (text, start - 1);
  end = g_strstr_len (at, len - (at - text), "\n----- end");
  if (end == NULL)
    end = text + len;
  if (starts_with (text, len, start, "----- pid "))
    {
      g_autofree char *number = g_strndup (start + 10, MIN (20, end - (start + 10)));

      info->pid = g_ascii_strtoll (number, NULL, 10);
    }
  for (p = start; p < end;)
    {
      const char *eol = memchr (p, '\n', end - p);
      gsize line_len = eol != NULL ? (gsize) (eol - p) : (gsize) (end - p);

      if (line_len > 10 && starts_with (text, len, p, "Cmd line: ") && info->command == NULL)
        info->command = g_utf8_make_valid (p + 10, line_len - 10);
      else if (line_len > 1 && p[0] == '"')
        {
          const char *close = memchr (p + 1, '"', line_len - 1);

          quote_name = p + 1;
          quote_len = close != NULL ? (gsize) (close - quote_name) : 0;
        }
      else if (quote_name != NULL && quote_len > 0)
        {
          const char *sys = g_strstr_len (p, line_len, "sysTid=");

          if (sys != NULL)
            {
              g_autofree char *number = g_strndup (sys + 7, MIN (12, p + line_len - (sys + 7)));
              guint32 tid = (guint32) g_ascii_strtoull (number, NULL, 10);

              g_hash_table_insert (info->thread_names, GUINT_TO_POINTER (tid), g_utf8_make_valid (quote_name, quote_len));
              quote_name = NULL;
            }
        }
      if (eol == NULL)
        break;
      p = eol + 1;
    }
}

/* Returns: (transfer full) (nullable): the trace of the first dump in
 * @text that has one, decoded */
static GBytes *
find_in_text (const guint8   *data,
              gsize           len,
              DmtraceLrmInfo *info)
{
  const char *text = (const char *) data;
  const char *at = g_strstr_len (text, len, LRM_MARKER);
  const char *value, *eol;
  g_autofree char *encoded = NULL;
  guchar *decoded;
  gsize decoded_len;

  if (at == NULL)
    return NULL;
  read_section (text, len, at, info);
  for (const char *next = at + 1; (next = g_strstr_len (next, len - (next - text), LRM_MARKER)) != NULL; next++)
    info->n_other_dumps++;
  value = at + strlen (LRM_MARKER);
  eol = memchr (value, '\n', len - (value - text));
  encoded = g_strndup (value, eol != NULL ? (gsize) (eol - value) : len - (value - text));
  g_strstrip (encoded);
  decoded = g_base64_decode (encoded, &decoded_len);
  return g_bytes_new_take (decoded, decoded_len);
}

/* ---- Recognising ---- */

/* A dump's text: a SIGQUIT dump, a bugreport, or any text that holds the
 * marker near its start. */
gboolean
dmtrace_lrm_sniff_text (const guint8 *data,
                        gsize         len)
{
  const char *text = (const char *) data;

  return (len >= 10 && memcmp (data, "----- pid ", 10) == 0) ||
         (len >= 12 && memcmp (data, "============", 12) == 0 && g_strstr_len (text, MIN (len, 4096), "dumpstate") != NULL) ||
         g_strstr_len (text, MIN (len, 65536), LRM_MARKER) != NULL;
}

/* The raw bytes: the first packet must read as a block whose first
 * record decodes, or as a method info line of four tab-separated fields. */
gboolean
dmtrace_lrm_sniff_raw (const guint8 *data,
                       gsize         len)
{
  if (len >= BLOCK_HEADER_LEN && data[0] == 2)
    {
      guint32 count = data[5] | (data[6] << 8) | (data[7] << 16);
      guint32 size = data[8] | (data[9] << 8) | (data[10] << 16) | ((guint32) data[11] << 24);
      const guint8 *p = data + BLOCK_HEADER_LEN, *end = data + MIN (len, BLOCK_HEADER_LEN + (gsize) size);
      gint64 first;

      return count > 0 && size > 0 && size < (1u << 28) && strata_read_sleb128 (&p, end, &first) && first > 0;
    }
  if (len >= 11 && data[0] == 1)
    {
      gsize line_len = data[9] | (data[10] << 8);
      guint tabs = 0;

      if (line_len < 8 || len < 11 + line_len || data[10 + line_len] != '\n')
        return FALSE;
      for (gsize i = 0; i < line_len; i++)
        tabs += data[11 + i] == '\t';
      return tabs == 3;
    }
  return FALSE;
}

/* ---- Into format V2 ---- */

static void
put (GByteArray *out,
     guint64     value,
     guint       n_bytes)
{
  for (guint i = 0; i < n_bytes; i++)
    {
      guint8 byte = value >> (8 * i);

      g_byte_array_append (out, &byte, 1);
    }
}

static void
put_leb (GByteArray *out,
         guint64     value,
         gboolean    is_signed)
{
  gint64 s = (gint64) value;
  gboolean more = TRUE;

  while (more)
    {
      guint8 byte = (is_signed ? (guint64) s : value) & 0x7f;

      if (is_signed)
        {
          s >>= 7;
          more = !((s == 0 && !(byte & 0x40)) || (s == -1 && (byte & 0x40)));
        }
      else
        {
          value >>= 7;
          more = value != 0;
        }
      if (more)
        byte |= 0x80;
      g_byte_array_append (out, &byte, 1);
    }
}

static LrmThread *
thread_of (Transcoder *self,
           guint32     tid)
{
  LrmThread thread = { tid, NULL };

  for (guint i = 0; i < self->threads->len; i++)
    if (g_array_index (self->threads, LrmThread, i).tid == tid)
      return &g_array_index (self->threads, LrmThread, i);
  thread.stack = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_array_append_val (self->threads, thread);
  return &g_array_index (self->threads, LrmThread, self->threads->len - 1);
}

static void
put_thread_info (Transcoder *self,
                 guint32     tid,
                 const char *name,
                 gsize       name_len)
{
  guint8 type = 0;

  if (!g_hash_table_add (self->named, GUINT_TO_POINTER (tid)))
    return;
  g_byte_array_append (self->out, &type, 1);
  put (self->out, tid, 4);
  put (self->out, MIN (name_len, G_MAXUINT16), 2);
  g_byte_array_append (self->out, (const guint8 *) name, MIN (name_len, G_MAXUINT16));
}

/* One record of a block, decoded: @time the ns of the event. */
static gboolean
decode_record (const guint8 **p,
               const guint8  *end,
               guint64       *time_action,
               guint64       *method)
{
  gint64 delta;

  /* Deltas wrap as the writer's unsigned sums did. */
  if (!strata_read_sleb128 (p, end, &delta))
    return FALSE;
  *time_action += (guint64) delta;
  if (*time_action & 1)
    return TRUE;
  if (!strata_read_sleb128 (p, end, &delta))
    return FALSE;
  *method += (guint64) delta;
  return TRUE;
}

/* A block of the long-running trace as a V2 block of the same thread:
 * exits get the method of the call they close; times go relative to the
 * start, held where they would run backwards. */
static void
transcode_block (Transcoder   *self,
                 guint32       tid,
                 guint32       count,
                 const guint8 *p,
                 const guint8 *end)
{
  LrmThread *thread = thread_of (self, tid);
  g_autoptr(GByteArray) payload = g_byte_array_new ();
  guint64 time_action = 0, method = 0;
  guint64 prev_value = 0, prev_time = 0;
  guint32 written = 0;

  for (guint32 i = 0; i < count; i++)
    {
      guint64 value, time;

      if (!decode_record (&p, end, &time_action, &method))
        {
          self->info->n_bad_records += count - i;
          break;
        }
      time = (time_action >> 1) > self->start_ns ? (time_action >> 1) - self->start_ns : 0;
      time = MAX (time, prev_time);
      if (!(time_action & 1))
        {
          if (thread->stack->len >= MAX_DEPTH)
            {
              self->info->n_bad_records++;
              continue;
            }
          value = method & ~(guint64) 3;
          g_array_append_val (thread->stack, value);
        }
      else if (thread->stack->len == 0)
        {
          /* Its entry was in a part of the buffer no one kept. */
          self->info->n_lost_exits++;
          continue;
        }
      else
        value = g_array_index (thread->stack, guint64, --thread->stack->len) | 1;
      put_leb (payload, value - prev_value, TRUE);
      put_leb (payload, time - prev_time, FALSE);
      prev_value = value;
      prev_time = time;
      self->last_time = MAX (self->last_time, time);
      written++;
    }
  if (written == 0)
    return;
  put (self->out, 2, 1);
  put (self->out, tid, 4);
  put (self->out, written, 3);
  put (self->out, payload->len, 4);
  g_byte_array_append (self->out, payload->data, payload->len);
}

/* The earliest time of any block: V2's times count from the start. */
static guint64
earliest_time (const guint8 *data,
               gsize         len)
{
  guint64 earliest = G_MAXUINT64;
  gsize pos = 0;

  while (pos + BLOCK_HEADER_LEN <= len && data[pos] == 2)
    {
      gsize size = data[pos + 8] | (data[pos + 9] << 8) | (data[pos + 10] << 16) | ((gsize) data[pos + 11] << 24);
      const guint8 *p = data + pos + BLOCK_HEADER_LEN;
      gint64 first = 0;

      if (size > len - pos - BLOCK_HEADER_LEN)
        break;
      if (strata_read_sleb128 (&p, p + size, &first) && first > 0)
        earliest = MIN (earliest, (guint64) first >> 1);
      pos += BLOCK_HEADER_LEN + size;
    }
  return earliest == G_MAXUINT64 ? 0 : earliest;
}

/* Every packet: blocks transcoded, infos copied; FALSE where the data
 * breaks off or holds a packet of no known type. */
static gboolean
transcode_packets (Transcoder *self)
{
  gsize pos = 0;

  while (pos < self->len)
    {
      const guint8 *p = self->data + pos;
      gsize left = self->len - pos, need;

      if (p[0] == 2 && left >= BLOCK_HEADER_LEN &&
          left - BLOCK_HEADER_LEN >= (need = p[8] | (p[9] << 8) | (p[10] << 16) | ((gsize) p[11] << 24)))
        {
          transcode_block (self, p[1] | (p[2] << 8) | (p[3] << 16) | ((guint32) p[4] << 24),
                           p[5] | (p[6] << 8) | (p[7] << 16), p + BLOCK_HEADER_LEN, p + BLOCK_HEADER_LEN + need);
          pos += BLOCK_HEADER_LEN + need;
        }
      else if (p[0] == 1 && left >= 11 && left - 11 >= (need = p[9] | (p[10] << 8)))
        {
          g_byte_array_append (self->out, p, 11 + need);
          pos += 11 + need;
        }
      else if (p[0] == 0 && left >= 7 && left - 7 >= (need = p[5] | (p[6] << 8)))
        {
          put_thread_info (self, p[1] | (p[2] << 8) | (p[3] << 16) | ((guint32) p[4] << 24), (const char *) p + 7, need);
          pos += 7 + need;
        }
      else
        {
          self->info->cut_at = pos;
          return FALSE;
        }
    }
  return TRUE;
}

/* Calls still open when the dump was taken (what an ANR is about) ran
 * at least until the last moment the trace knows, on any thread: they
 * end there, not at their own thread's last event. */
static void
close_at_dump (Transcoder *self)
{
  for (guint i = 0; i < self->threads->len; i++)
    {
      LrmThread *thread = &g_array_index (self->threads, LrmThread, i);
      g_autoptr(GByteArray) payload = g_byte_array_new ();
      guint64 prev_value = 0;
      guint n = thread->stack->len;

      if (n == 0)
        continue;
      for (guint k = n; k > 0; k--)
        {
          guint64 value = g_array_index (thread->stack, guint64, k - 1) | 1;

          put_leb (payload, value - prev_value, TRUE);
          put_leb (payload, k == n ? self->last_time : 0, FALSE);
          prev_value = value;
        }
      put (self->out, 2, 1);
      put (self->out, thread->tid, 4);
      put (self->out, n, 3);
      put (self->out, payload->len, 4);
      g_byte_array_append (self->out, payload->data, payload->len);
      self->info->n_open_at_dump += n;
      g_array_set_size (thread->stack, 0);
    }
}

static void
put_header_and_names (Transcoder *self)
{
  GHashTableIter iter;
  gpointer tid, name;

  put (self->out, 0x574f4c53u, 4);
  put (self->out, 4, 2);           /* one clock: the wall clock */
  put (self->out, self->start_ns, 8);
  g_byte_array_set_size (self->out, 32);
  memset (self->out->data + 14, 0, 32 - 14);
  g_hash_table_iter_init (&iter, self->info->thread_names);
  while (g_hash_table_iter_next (&iter, &tid, &name))
    put_thread_info (self, GPOINTER_TO_UINT (tid), name, strlen (name));
}

static void
put_summary (Transcoder *self)
{
  g_autofree char *summary = g_strdup_printf ("*version\n4\nclock=wall\nvm=art\npid=%" G_GINT64_FORMAT "\n*end\n",
                                              self->info->pid);

  put (self->out, 3, 1);
  put (self->out, strlen (summary), 2);
  g_byte_array_append (self->out, (const guint8 *) summary, strlen (summary));
}

/**
 * dmtrace_lrm_transcode:
 * @info: (out caller-allocates): filled with what the dump says, and what
 *   had to be left out; free its members with dmtrace_lrm_info_clear()
 *
 * Returns: (transfer full) (nullable): the long-running method trace in
 *   @data (a dump's text, or the raw bytes) as a format V2 trace
 */
GBytes *
dmtrace_lrm_transcode (const guint8    *data,
                       gsize            len,
                       DmtraceLrmInfo  *info,
                       GError         **error)
{
  g_autoptr(GBytes) raw = NULL;
  Transcoder self = { 0 };

  memset (info, 0, sizeof *info);
  info->thread_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  if (!dmtrace_lrm_sniff_raw (data, len))
    {
      info->from_text = TRUE;
      if ((raw = find_in_text (data, len, info)) == NULL || g_bytes_get_size (raw) == 0)
        {
          g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_UNSUPPORTED,
                               _("This dump holds no long-running method trace. ART adds one (a “LongRunningMethods:” line) "
                                 "to ANR dumps from Android 16 on."));
          return NULL;
        }
      data = g_bytes_get_data (raw, &len);
    }
  self = (Transcoder) { data, len, g_byte_array_new (), g_array_new (FALSE, FALSE, sizeof (LrmThread)),
                        g_hash_table_new (NULL, NULL), earliest_time (data, len), 0, info };
  put_header_and_names (&self);
  info->complete = transcode_packets (&self);
  close_at_dump (&self);
  put_summary (&self);
  for (guint i = 0; i < self.threads->len; i++)
    g_array_unref (g_array_index (self.threads, LrmThread, i).stack);
  g_array_unref (self.threads);
  g_hash_table_unref (self.named);
  return g_byte_array_free_to_bytes (self.out);
}

void
dmtrace_lrm_info_clear (DmtraceLrmInfo *info)
{
  g_clear_pointer (&info->thread_names, g_hash_table_unref);
  g_clear_pointer (&info->command, g_free);
}

/* ---- Loading ---- */

static void
describe (StrataTrace          *trace,
          const DmtraceLrmInfo *info)
{
  strata_trace_set_format_detail (trace, info->from_text ? "ART long-running methods, from an ANR dump" : "ART long-running methods");
  if (info->command != NULL && strata_trace_get_n_processes (trace) > 0)
    strata_trace_peek_process (trace, 0)->name =
      strata_string_pool_intern (strata_trace_get_pool (trace), info->command);
  strata_trace_add_note (trace, _("This is ART’s trace of long-running methods: only calls that ran longer than about "
                                  "170 ms are in it, so the time of shorter calls counts in their callers."));
  strata_trace_add_count_note (trace, info->n_lost_exits,
                               /* Translators: %s is a count of method exits */
                               ngettext ("%s exit closed a call whose entry the trace no longer held; it was left out.",
                                         "%s exits closed calls whose entries the trace no longer held; they were left out.",
                                         (gulong) MIN (info->n_lost_exits, G_MAXULONG)));
  strata_trace_add_count_note (trace, info->n_open_at_dump,
                               /* Translators: %s is a count of calls */
                               ngettext ("%s call was still running when the trace was dumped; it ends at the trace’s last moment.",
                                         "%s calls were still running when the trace was dumped; they end at the trace’s last moment.",
                                         (gulong) MIN (info->n_open_at_dump, G_MAXULONG)));
  strata_trace_add_count_note (trace, info->n_other_dumps,
                               /* Translators: %s is a count of processes in an ANR dump */
                               ngettext ("The dump holds the long-running methods of %s more process; the first one's are shown.",
                                         "The dump holds the long-running methods of %s more processes; the first one's are shown.",
                                         info->n_other_dumps));
  strata_trace_add_count_diagnostic (trace, info->n_bad_records,
                                     /* Translators: %s is a count of records in a trace */
                                     ngettext ("%s record did not decode and was left out.",
                                               "%s records did not decode and were left out.",
                                               (gulong) MIN (info->n_bad_records, G_MAXULONG)));
  if (!info->complete)
    {
      g_autofree char *at = g_strdup_printf ("%'" G_GSIZE_FORMAT, info->cut_at);

      /* Translators: %s is a byte offset */
      strata_trace_add_diagnosticf (trace, _("The long-running method trace breaks off at byte %s; what came before is shown."), at);
    }
}

/**
 * dmtrace_lrm_load:
 *
 * Reads the long-running method trace in the job's content (an ANR dump's
 * text, or the raw bytes) through the format V2 reader.
 */
StrataTrace *
dmtrace_lrm_load (StrataLoadJob  *job,
                  GError        **error)
{
  GBytes *content = job->bytes;
  gboolean mapped = job->bytes_are_mapped;
  g_autoptr(GBytes) v2 = NULL;
  DmtraceLrmInfo info;
  StrataTrace *trace;

  v2 = dmtrace_lrm_transcode (g_bytes_get_data (content, NULL), g_bytes_get_size (content), &info, error);
  if (v2 == NULL)
    {
      dmtrace_lrm_info_clear (&info);
      return NULL;
    }
  /* The V2 bytes are ours, on the heap: no pages of them go back. */
  job->bytes = v2;
  job->bytes_are_mapped = FALSE;
  trace = strata_dmtrace_load (job, error);
  job->bytes = content;
  job->bytes_are_mapped = mapped;
  if (trace != NULL)
    describe (trace, &info);
  dmtrace_lrm_info_clear (&info);
  return trace;
}
