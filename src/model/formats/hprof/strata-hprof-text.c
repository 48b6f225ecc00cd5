/* strata-hprof-text.c: the JDK hprof agent's java.hprof.txt
 *
 * A line-based reader: threads, TRACE stacks, CPU SAMPLES or CPU TIME,
 * SITES and the text heap dump, in any order and repeated, with traces
 * referred to before they are defined. CPU rows become calls: each
 * trace's stack is laid out for its weight (one sample or one
 * millisecond per millisecond of the axis), stacks sorted so that shared
 * callers merge, which gives the profile its parents and children.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "strata-error.h"
#include "strata-heap.h"
#include "strata-id-map.h"
#include "strata-loader-private.h"
#include "strata-stack-layout.h"
#include "strata-trace-private.h"
#include "strata-units.h"

#define NS_PER_UNIT STRATA_UNITS_NS_PER_SAMPLE   /* a sample or a ms drawn as 1 ms */
#define MAX_FRAMES 1024

typedef struct
{
  guint32 serial;
  guint32 thread;      /* serial, 0 without */
  GArray *frames;      /* guint32 methods, innermost first */
  GArray *texts;       /* guint32 pool ids of the frames as written */
} TraceInfo;

typedef struct
{
  guint32 trace;       /* serial */
  guint64 weight;      /* samples or ms */
} CpuRow;

typedef enum
{
  SECTION_NONE,
  SECTION_TRACE,
  SECTION_CPU_SAMPLES,
  SECTION_CPU_TIME,
  SECTION_SITES,
  SECTION_HEAP,
  SECTION_MONITOR,
  SECTION_OTHER,
} Section;

typedef struct
{
  StrataLoadJob *job;
  StrataTrace   *trace;
  StrataHeap    *heap;
  GArray        *traces;         /* TraceInfo */
  StrataIdMap    trace_ids;      /* serial -> index */
  StrataIdMap    threads;        /* serial -> trace thread */
  GHashTable    *methods;        /* "class.method" -> method index + 1 */
  GHashTable    *classes;        /* class name -> heap class + 1 */
  GArray        *cpu;            /* CpuRow */
  guint64        cpu_total;
  guint32        unlisted_method;  /* G_MAXUINT32 until added */
  gboolean       cpu_is_time;
  Section        section;
  TraceInfo     *current_trace;
  guint64        n_sites;
  gboolean       has_header;
  gboolean       ended;          /* the last section was closed */
  guint64        n_bad_lines;
  guint64        n_cut_frames;   /* frames past MAX_FRAMES in a trace */
  GString       *monitors;       /* the current MONITOR section's lines */
} TextLoader;

/* ---- Lines ---- */

static char *
next_line (const char **p,
           const char  *end)
{
  const char *start = *p;
  const char *nl = memchr (start, '\n', end - start);
  const char *stop = nl ? nl : end;

  *p = nl ? nl + 1 : end;
  if (stop > start && stop[-1] == '\r')
    stop--;
  return g_utf8_make_valid (start, stop - start);
}

static gboolean
starts_with (const char *line,
             const char *prefix)
{
  return strncmp (line, prefix, strlen (prefix)) == 0;
}

/* The number after "key=" (or "key = ") in @line. */
static gboolean
find_number (const char *line,
             const char *key,
             int         base,
             guint64    *value)
{
  const char *at = strstr (line, key);
  char *end;

  if (at == NULL)
    return FALSE;
  at += strlen (key);
  while (*at == ' ' || *at == '=')
    at++;
  *value = g_ascii_strtoull (at, &end, base);
  return end != at;
}

/* ---- Threads and traces ---- */

static guint
ensure_thread (TextLoader *self,
               guint32     serial,
               const char *name)
{
  guint32 index = strata_id_map_lookup (&self->threads, serial);

  if (index == STRATA_ID_MAP_MISSING)
    {
      g_autofree char *fallback = g_strdup_printf (_("Thread %u"), serial);

      index = strata_trace_add_thread (self->trace, 0, serial, name ? name : fallback);
      strata_id_map_insert (&self->threads, serial, index);
    }
  else if (name != NULL)
    strata_trace_peek_thread (self->trace, index)->name =
      strata_string_pool_intern (strata_trace_get_pool (self->trace), name);
  return index;
}

static void
read_thread_start (TextLoader *self,
                   const char *line)
{
  guint64 serial;
  const char *name = strstr (line, "name=\"");
  g_autofree char *copy = NULL;

  if (!find_number (line, "id", 10, &serial))
    {
      self->n_bad_lines++;
      return;
    }
  if (name != NULL)
    {
      const char *close = strstr (name + 6, "\", group=");

      copy = close ? g_strndup (name + 6, close - (name + 6)) : g_strdup (name + 6);
    }
  ensure_thread (self, serial, copy);
  strata_heap_add_thread (self->heap, &(StrataHeapThread) {
    serial, strata_string_pool_intern (strata_trace_get_pool (self->trace), copy ? copy : ""), 0, STRATA_HEAP_NO_OBJECT,
  });
}

static TraceInfo *
ensure_trace (TextLoader *self,
              guint32     serial)
{
  guint32 index = strata_id_map_lookup (&self->trace_ids, serial);

  if (index == STRATA_ID_MAP_MISSING)
    {
      TraceInfo info = { serial, 0, g_array_new (FALSE, FALSE, sizeof (guint32)),
                         g_array_new (FALSE, FALSE, sizeof (guint32)) };

      g_array_append_val (self->traces, info);
      index = self->traces->len - 1;
      strata_id_map_insert (&self->trace_ids, serial, index);
    }
  return &g_array_index (self->traces, TraceInfo, index);
}

/* "\tpkg.Class.method(Source.java:12)": the last "(" starts the place. */
static guint32
frame_method (TextLoader *self,
              const char *frame)
{
  StrataStringPool *pool = strata_trace_get_pool (self->trace);
  const char *paren = strrchr (frame, '(');
  g_autofree char *full = paren ? g_strndup (frame, paren - frame) : g_strdup (frame);
  gpointer found = g_hash_table_lookup (self->methods, full);
  StrataMethod method = { .line = -1 };
  const char *dot = strrchr (full, '.');

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  method.display_name = strata_string_pool_intern (pool, full);
  method.name = strata_string_pool_intern (pool, dot ? dot + 1 : full);
  if (dot != NULL)
    {
      g_autofree char *klass = g_strndup (full, dot - full);

      method.class_name = strata_string_pool_intern (pool, klass);
    }
  if (paren != NULL)
    {
      g_autofree char *place = g_strdup (paren + 1);
      char *colon = strrchr (place, ':');
      char *close = strrchr (place, ')');

      if (close)
        *close = '\0';
      if (colon)
        {
          method.line = atoi (colon + 1) > 0 ? atoi (colon + 1) : -1;
          *colon = '\0';
        }
      method.source_file = strata_string_pool_intern (pool, place);
    }
  method.raw_id = g_hash_table_size (self->methods);
  found = GUINT_TO_POINTER (strata_trace_add_method (self->trace, &method) + 1);
  g_hash_table_insert (self->methods, g_steal_pointer (&full), found);
  return GPOINTER_TO_UINT (found) - 1;
}

static void
read_trace_header (TextLoader *self,
                   const char *line)
{
  guint64 serial, thread;

  if (!find_number (line, "TRACE", 10, &serial))
    {
      self->n_bad_lines++;
      self->current_trace = NULL;
      return;
    }
  self->current_trace = ensure_trace (self, serial);
  g_array_set_size (self->current_trace->frames, 0);
  g_array_set_size (self->current_trace->texts, 0);
  if (find_number (line, "(thread", 10, &thread))
    self->current_trace->thread = thread;
}

static void
read_frame (TextLoader *self,
            const char *line)
{
  guint32 method, text;

  if (self->current_trace == NULL || g_str_equal (line + 1, "<empty>"))
    return;
  if (self->current_trace->frames->len >= MAX_FRAMES)
    {
      self->n_cut_frames++;
      return;
    }
  method = frame_method (self, line + 1);
  g_array_append_val (self->current_trace->frames, method);
  text = strata_string_pool_intern (strata_trace_get_pool (self->trace), line + 1);
  g_array_append_val (self->current_trace->texts, text);
}

/* ---- Tables ---- */

/* "   1 21.16% 21.16%     201 300142 pkg.Class.method" */
static void
read_cpu_row (TextLoader *self,
              const char *line)
{
  g_auto(GStrv) fields = g_strsplit_set (line, " \t", -1);
  const char *values[5];
  guint n = 0;
  CpuRow row;

  for (guint i = 0; fields[i] != NULL && n < 5; i++)
    if (*fields[i] != '\0')
      values[n++] = fields[i];
  if (n < 5 || !g_ascii_isdigit (values[0][0]))
    return;
  row.trace = g_ascii_strtoull (values[4], NULL, 10);
  if (self->cpu_is_time)
    {
      /* CPU TIME: "count" is calls; the time is the self share of the
       * total. A share below 0 or above 100 % is no share: the row is
       * counted bad, not turned into a weight. */
      double share = g_ascii_strtod (values[1], NULL);

      if (!(share >= 0 && share <= 100))
        {
          self->n_bad_lines++;
          return;
        }
      row.weight = (guint64) (share / 100.0 * (double) self->cpu_total + 0.5);
    }
  else
    row.weight = g_ascii_strtoull (values[3], NULL, 10);
  if (row.weight > 0)
    g_array_append_val (self->cpu, row);
}

static void
read_site_row (TextLoader *self,
               const char *line)
{
  g_auto(GStrv) fields = g_strsplit_set (line, " \t", -1);
  const char *values[9];
  guint n = 0;
  StrataAllocSite site = { 0 };

  for (guint i = 0; fields[i] != NULL && n < 9; i++)
    if (*fields[i] != '\0')
      values[n++] = fields[i];
  if (n < 9 || !g_ascii_isdigit (values[0][0]))
    return;
  site.live_bytes = g_ascii_strtoull (values[3], NULL, 10);
  site.live_objects = g_ascii_strtoull (values[4], NULL, 10);
  site.allocated_bytes = g_ascii_strtoull (values[5], NULL, 10);
  site.allocated_objects = g_ascii_strtoull (values[6], NULL, 10);
  site.trace = g_ascii_strtoull (values[7], NULL, 10);
  site.class_name = strata_string_pool_intern (strata_trace_get_pool (self->trace), values[8]);
  strata_heap_add_site (self->heap, &site);
}

static guint
heap_class (TextLoader *self,
            const char *name)
{
  gpointer found = g_hash_table_lookup (self->classes, name);

  if (found == NULL)
    {
      found = GUINT_TO_POINTER (strata_heap_add_class (self->heap,
                                                       strata_string_pool_intern (strata_trace_get_pool (self->trace), name)) + 1);
      g_hash_table_insert (self->classes, g_strdup (name), found);
    }
  return GPOINTER_TO_UINT (found) - 1;
}

/* "OBJ 500011a5 (sz=24, trace=300000, class=java.lang.String@50000136)"
 * and "ARR 50000182 (sz=56, trace=300003, nelems=0, elem type=char[])". */
static void
read_heap_line (TextLoader *self,
                const char *line)
{
  gboolean object = starts_with (line, "OBJ ");
  const char *key = object ? "class=" : "elem type=";
  const char *name = strstr (line, key);
  g_autofree char *klass = NULL;
  guint64 size;
  StrataHeapClass *entry;

  if (starts_with (line, "ROOT "))
    {
      strata_heap_add_root (self->heap, strstr (line, "kind=<thread>") ? STRATA_ROOT_THREAD_OBJECT
                                        : strstr (line, "kind=<system class>") ? STRATA_ROOT_STICKY_CLASS
                                        : strstr (line, "kind=<JNI global") ? STRATA_ROOT_JNI_GLOBAL
                                        : strstr (line, "kind=<JNI local") ? STRATA_ROOT_JNI_LOCAL
                                        : strstr (line, "kind=<Java stack>") ? STRATA_ROOT_JAVA_FRAME
                                        : strstr (line, "kind=<native stack>") ? STRATA_ROOT_NATIVE_STACK
                                        : strstr (line, "kind=<thread block>") ? STRATA_ROOT_THREAD_BLOCK
                                        : strstr (line, "kind=<busy monitor>") ? STRATA_ROOT_MONITOR_USED
                                        : STRATA_ROOT_UNKNOWN);
      return;
    }
  if ((!object && !starts_with (line, "ARR ")) || name == NULL || !find_number (line, "(sz", 10, &size))
    return;
  name += strlen (key);
  klass = g_strndup (name, strcspn (name, object ? "@)" : ")"));
  if (!object && strchr (klass, '@') != NULL)
    {
      /* Object arrays name their element class: "java.lang.String@5000…". */
      char *at = strchr (klass, '@');
      g_autofree char *element = g_strndup (klass, at - klass);

      g_free (klass);
      klass = g_strconcat (element, "[]", NULL);
    }
  entry = strata_heap_peek_class (self->heap, heap_class (self, klass));
  entry->instances++;
  entry->shallow_bytes += size;
}

/* ---- Sections ---- */

static void
begin_section (TextLoader *self,
               const char *line)
{
  self->ended = FALSE;
  if (starts_with (line, "CPU SAMPLES BEGIN") || starts_with (line, "CPU TIME (ms) BEGIN"))
    {
      /* A later dump supersedes an earlier one (the agent dumps again on
       * each SIGQUIT, with totals so far). */
      self->cpu_is_time = starts_with (line, "CPU TIME");
      g_array_set_size (self->cpu, 0);
      find_number (line, "(total", 10, &self->cpu_total);
      self->section = self->cpu_is_time ? SECTION_CPU_TIME : SECTION_CPU_SAMPLES;
    }
  else if (starts_with (line, "SITES BEGIN"))
    {
      strata_heap_clear_sites (self->heap);
      self->section = SECTION_SITES;
    }
  else if (starts_with (line, "HEAP DUMP BEGIN"))
    self->section = SECTION_HEAP;
  else if (starts_with (line, "MONITOR TIME BEGIN") || starts_with (line, "MONITOR DUMP BEGIN"))
    {
      g_string_truncate (self->monitors, 0);
      g_string_append_printf (self->monitors, "%s\n", line);
      self->section = SECTION_MONITOR;
    }
  else
    self->section = SECTION_OTHER;
}

static void
read_line (TextLoader *self,
           const char *line)
{
  if (starts_with (line, "THREAD START"))
    read_thread_start (self, line);
  else if (starts_with (line, "THREAD END"))
    ;
  else if (starts_with (line, "TRACE "))
    {
      self->section = SECTION_TRACE;
      read_trace_header (self, line);
    }
  else if (line[0] == '\t' && self->section == SECTION_TRACE)
    read_frame (self, line);
  else if (strstr (line, " BEGIN") != NULL && g_ascii_isupper (line[0]))
    begin_section (self, line);
  else if (strstr (line, " END") != NULL && g_ascii_isupper (line[0]) && !starts_with (line, "ROOT"))
    {
      /* Monitor contention is kept as written, on the summary page. */
      if (self->section == SECTION_MONITOR)
        strata_trace_add_metadata (self->trace, starts_with (line, "MONITOR TIME") ? _("Monitor time") : _("Monitor dump"),
                                   self->monitors->str);
      self->section = SECTION_NONE;
      self->ended = TRUE;
    }
  else if (self->section == SECTION_MONITOR)
    g_string_append_printf (self->monitors, "%s\n", line);
  else if (self->section == SECTION_CPU_SAMPLES || self->section == SECTION_CPU_TIME)
    read_cpu_row (self, line);
  else if (self->section == SECTION_SITES)
    read_site_row (self, line);
  else if (self->section == SECTION_HEAP)
    read_heap_line (self, line);
}

/* ---- CPU rows to calls ---- */

static int
compare_thread_rows (const void *a,
                     const void *b)
{
  guint32 ta = ((const guint32 *) a)[0], tb = ((const guint32 *) b)[0];

  return ta < tb ? -1 : (ta > tb);
}

/* With thread=y, each thread gets its own samples; otherwise all go to
 * one "all threads" track. */
/* The agent lists only the rows above a cutoff, but gives the percentages
 * of its total: the samples it leaves out become one row of their own, so
 * the profile's shares are the file's. */
static void
add_unlisted_samples (TextLoader *self)
{
  guint64 listed = 0;
  CpuRow row = { 0, 0 };
  g_autofree char *count = NULL;

  if (self->cpu_is_time || self->cpu->len == 0)
    return;
  for (guint i = 0; i < self->cpu->len; i++)
    listed += g_array_index (self->cpu, CpuRow, i).weight;
  if (self->cpu_total <= listed)
    return;
  row.weight = self->cpu_total - listed;
  g_array_append_val (self->cpu, row);
  self->unlisted_method = frame_method (self, _("<samples the file does not list>"));
  count = g_strdup_printf ("%" G_GUINT64_FORMAT, row.weight);
  strata_trace_add_diagnosticf (self->trace,
                                /* Translators: %s is a number of samples */
                                _("%s samples of the file's total are in rows it does not list; they are shown as one method, so the shares are the file's."),
                                count);
}

static void
build_calls (TextLoader *self)
{
  guint n = self->cpu->len;
  g_autofree StrataStackRow *rows = g_new0 (StrataStackRow, MAX (n, 1));
  g_autofree guint32 *order = g_new (guint32, 2 * MAX (n, 1));   /* thread serial, row */
  guint first = 0;

  if (n == 0)
    return;
  for (guint i = 0; i < n; i++)
    {
      const CpuRow *row = &g_array_index (self->cpu, CpuRow, i);
      guint32 index = strata_id_map_lookup (&self->trace_ids, row->trace);

      order[2 * i] = 0;
      order[2 * i + 1] = i;
      rows[i].weight = row->weight;
      if (row->trace == 0 && self->unlisted_method != G_MAXUINT32)
        {
          rows[i].frames = &self->unlisted_method;
          rows[i].n_frames = 1;
        }
      else if (index != STRATA_ID_MAP_MISSING)
        {
          const TraceInfo *info = &g_array_index (self->traces, TraceInfo, index);

          rows[i].frames = (const guint32 *) info->frames->data;
          rows[i].n_frames = info->frames->len;
          order[2 * i] = info->thread;
        }
    }
  qsort (order, n, 2 * sizeof (guint32), compare_thread_rows);

  for (guint i = 1; i <= n; i++)
    if (i == n || order[2 * i] != order[2 * first])
      {
        guint32 serial = order[2 * first];
        g_autofree StrataStackRow *group = g_new (StrataStackRow, i - first);
        guint thread;

        for (guint k = first; k < i; k++)
          group[k - first] = rows[order[2 * k + 1]];
        thread = serial != 0 ? ensure_thread (self, serial, NULL)
               : strata_trace_add_thread (self->trace, 0, 0, self->cpu_is_time ? _("CPU time, all threads")
                                                                               : _("CPU samples, all threads"));
        strata_stack_layout_thread (self->trace, thread, group, i - first, NS_PER_UNIT);
        first = i;
      }
}

/* ---- Entry point ---- */

static void
text_loader_clear (TextLoader *self)
{
  for (guint i = 0; self->traces != NULL && i < self->traces->len; i++)
    {
      g_array_unref (g_array_index (self->traces, TraceInfo, i).frames);
      g_array_unref (g_array_index (self->traces, TraceInfo, i).texts);
    }
  g_clear_pointer (&self->traces, g_array_unref);
  g_clear_pointer (&self->cpu, g_array_unref);
  g_clear_pointer (&self->methods, g_hash_table_unref);
  g_clear_pointer (&self->classes, g_hash_table_unref);
  g_clear_pointer (&self->heap, strata_heap_free);
  if (self->monitors != NULL)
    g_string_free (g_steal_pointer (&self->monitors), TRUE);
  strata_id_map_clear (&self->trace_ids);
  strata_id_map_clear (&self->threads);
}

/* Skips the prelude (which holds lines that look like records) up to and
 * including the "--------" line. A .TMP heap dump has no header at all. */
static const char *
skip_prelude (const char *data,
              const char *end,
              gboolean   *has_header)
{
  const char *p = data;

  *has_header = FALSE;
  if (end - data < 12 || strncmp (data, "JAVA PROFILE", 12) != 0)
    return data;
  while (p < end)
    {
      g_autofree char *line = next_line (&p, end);

      if (g_str_equal (line, "--------"))
        {
          *has_header = TRUE;
          return p;
        }
    }
  return end;
}

static guint64
count_lines (const char *data,
             const char *end)
{
  guint64 n = 0;

  for (const char *p = data; (p = memchr (p, '\n', end - p)) != NULL; p++)
    n++;
  return n;
}

static void
report (TextLoader *self,
        guint64     n_lines)
{
  g_autofree char *at = g_strdup_printf ("%'" G_GUINT64_FORMAT, n_lines);

  /* Translators: %s is a line number */
  if (self->section != SECTION_NONE && self->section != SECTION_TRACE)
    strata_trace_add_diagnosticf (self->trace,
                                  _("The profile stops at line %s inside a section (the program was stopped before hprof finished writing); what came before was loaded."),
                                  at);
  else if (!self->ended && self->has_header)
    /* Translators: %s is a line number */
    strata_trace_add_diagnosticf (self->trace,
                                  _("The profile stops at line %s, before any results: the program was stopped before hprof wrote them."),
                                  at);
  strata_trace_add_count_diagnostic (self->trace, self->n_bad_lines,
                                     ngettext ("%s line could not be read and was skipped.",
                                               "%s lines could not be read and were skipped.", self->n_bad_lines));
  strata_trace_add_count_diagnostic (self->trace, self->n_cut_frames,
                                     ngettext ("%s frame past the 1,024th of its stack trace was left out.",
                                               "%s frames past the 1,024th of their stack traces were left out.",
                                               self->n_cut_frames));
}

/**
 * strata_hprof_text_load:
 *
 * Reads the hprof agent's text output: CPU samples or times become calls
 * for the profile, SITES and the text heap dump go to the trace's heap.
 */
StrataTrace *
strata_hprof_text_load (StrataLoadJob  *job,
                        GError        **error)
{
  g_autoptr(StrataTrace) trace = strata_trace_new (STRATA_FORMAT_HPROF_TEXT);
  TextLoader self = { .job = job, .trace = trace, .unlisted_method = G_MAXUINT32 };
  const char *data, *p, *end;
  gsize len;
  guint64 n_lines = 0;
  StrataClockKind kind;

  data = g_bytes_get_data (job->bytes, &len);
  end = data + len;
  self.heap = strata_heap_new ();
  self.traces = g_array_new (FALSE, FALSE, sizeof (TraceInfo));
  self.cpu = g_array_new (FALSE, FALSE, sizeof (CpuRow));
  self.methods = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self.classes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self.monitors = g_string_new (NULL);
  strata_id_map_init (&self.trace_ids);
  strata_id_map_init (&self.threads);
  strata_trace_add_process (trace, 0, _("Java VM"));

  p = skip_prelude (data, end, &self.has_header);
  if (!self.has_header && p != data)
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                           _("The profile has no “--------” line after its header: it is not hprof output."));
      text_loader_clear (&self);
      return NULL;
    }
  if (!self.has_header)
    self.section = SECTION_HEAP;   /* a leftover .TMP file: heap dump lines only */

  while (p < end)
    {
      g_autofree char *line = next_line (&p, end);

      read_line (&self, line);
      if (++n_lines % 65536 == 0 &&
          !strata_load_job_update (job, (double) (p - data) / len, _("Reading the profile…"), error))
        {
          text_loader_clear (&self);
          return NULL;
        }
    }

  kind = self.cpu_is_time ? STRATA_CLOCK_THREAD_CPU : STRATA_CLOCK_SAMPLES;
  strata_trace_set_clocks (trace, 1, &kind);
  strata_trace_set_calls_are_samples (trace, !self.cpu_is_time);
  add_unlisted_samples (&self);
  build_calls (&self);
  for (guint i = 0; i < self.traces->len; i++)
    {
      const TraceInfo *info = &g_array_index (self.traces, TraceInfo, i);

      strata_heap_add_stack (self.heap, info->serial, (const guint32 *) info->texts->data, info->texts->len);
    }
  g_free (strata_heap_merge_same_names (self.heap));
  strata_trace_set_heap (trace, g_steal_pointer (&self.heap));
  strata_trace_set_format_detail (trace, self.cpu->len > 0 ? (self.cpu_is_time ? _("CPU time") : _("CPU samples")) : NULL);
  report (&self, count_lines (data, end));
  strata_trace_finish (trace);
  text_loader_clear (&self);
  return g_steal_pointer (&trace);
}
