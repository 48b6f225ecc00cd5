/* strata-report-speedscope.c: `strata -r --format=speedscope`, any trace
 * with calls as a speedscope file
 *
 * As speedscope's own export writes it (the file-format schema, version
 * 0.0.1): every method a frame of "shared.frames" (its name, and its
 * source file and line where known), every thread with calls an
 * "evented" profile of open and close events in nanoseconds on the
 * report's clock, in time order, so speedscope shows the trace's own
 * calls, not samples of them. A sampled trace's calls are its samples
 * laid end to end, so its profiles are sampled time as Strata draws it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gunixoutputstream.h>
#include <unistd.h>

#include "strata-description.h"
#include "strata-report-private.h"

static void
write_frames (StrataJsonWriter *json,
              StrataTrace      *trace)
{
  strata_json_writer_member (json, "shared");
  strata_json_writer_begin_object (json);
  strata_json_writer_member (json, "frames");
  strata_json_writer_begin_array (json);
  for (guint32 m = 0; m < strata_trace_get_n_methods (trace); m++)
    {
      const StrataMethod *method = strata_trace_get_shown_method (trace, m);

      strata_json_writer_begin_object (json);
      strata_json_writer_member (json, "name");
      strata_json_writer_string (json, strata_trace_get_string (trace, method->display_name));
      if (method->source_file != 0)
        {
          strata_json_writer_member (json, "file");
          strata_json_writer_string (json, strata_trace_get_string (trace, method->source_file));
        }
      if (method->line >= 0)
        {
          strata_json_writer_member (json, "line");
          strata_json_writer_int (json, method->line);
        }
      strata_json_writer_end_object (json);
    }
  strata_json_writer_end_array (json);
  strata_json_writer_end_object (json);
}

static void
write_event (StrataJsonWriter *json,
             const char       *type,
             guint32           frame,
             gint64            at)
{
  strata_json_writer_begin_object (json);
  strata_json_writer_member (json, "type");
  strata_json_writer_string (json, type);
  strata_json_writer_member (json, "frame");
  strata_json_writer_uint (json, frame);
  strata_json_writer_member (json, "at");
  strata_json_writer_int (json, at);
  strata_json_writer_end_object (json);
}

typedef struct
{
  guint32 index;
  guint32 next_child;
  guint32 last_child;
} Visit;

/* The call at depth 0, @index, and everything under it, in time order:
 * walked with a stack of its own, as a trace can be 470,000 calls deep. */
static void
write_call (StrataJsonWriter      *json,
            const StrataSpanTable *table,
            guint                  clock,
            guint32                index,
            gint64                 origin,
            GArray                *stack)
{
  Visit visit = { index, 0, 0 };

  g_array_set_size (stack, 0);
  if (table->n_depths > 1)
    strata_span_table_get_children (table, 0, index, &visit.next_child, &visit.last_child);
  write_event (json, "O", table->calls[0][index].method, strata_span_table_get_start (table, clock, 0, index) - origin);
  g_array_append_val (stack, visit);
  while (stack->len > 0)
    {
      guint depth = stack->len - 1;
      Visit *top = &g_array_index (stack, Visit, depth);
      Visit child = { 0, 0, 0 };

      if (top->next_child >= top->last_child)
        {
          write_event (json, "C", table->calls[depth][top->index].method,
                       strata_span_table_get_end (table, clock, depth, top->index) - origin);
          g_array_set_size (stack, depth);
          continue;
        }
      child.index = top->next_child++;
      if (depth + 2 < table->n_depths)
        strata_span_table_get_children (table, depth + 1, child.index, &child.next_child, &child.last_child);
      write_event (json, "O", table->calls[depth + 1][child.index].method,
                   strata_span_table_get_start (table, clock, depth + 1, child.index) - origin);
      g_array_append_val (stack, child);
    }
}

static void
write_profile (StrataJsonWriter *json,
               StrataTrace      *trace,
               guint             thread,
               guint             clock)
{
  const StrataSpanTable *table = strata_trace_get_thread (trace, thread)->spans;
  gint64 origin = strata_trace_get_clock_origin (trace, clock);
  g_autofree char *name = strata_describe_thread_short (trace, thread);
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Visit));
  gint64 end = 0;

  for (guint32 i = 0; i < table->n_spans[0]; i++)
    end = MAX (end, strata_span_table_get_end (table, clock, 0, i) - origin);
  strata_json_writer_begin_object (json);
  strata_json_writer_member (json, "type");
  strata_json_writer_string (json, "evented");
  strata_json_writer_member (json, "name");
  strata_json_writer_string (json, name);
  strata_json_writer_member (json, "unit");
  strata_json_writer_string (json, "nanoseconds");
  strata_json_writer_member (json, "startValue");
  strata_json_writer_int (json, 0);
  strata_json_writer_member (json, "endValue");
  strata_json_writer_int (json, end);
  strata_json_writer_member (json, "events");
  strata_json_writer_begin_array (json);
  for (guint32 i = 0; i < table->n_spans[0]; i++)
    write_call (json, table, clock, i, origin, stack);
  strata_json_writer_end_array (json);
  strata_json_writer_end_object (json);
}

/**
 * strata_report_write_speedscope:
 *
 * The trace's calls as a speedscope file on standard output.
 */
gboolean
strata_report_write_speedscope (const StrataReport  *report,
                                GError             **error)
{
  g_autoptr(GOutputStream) out = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
  g_autoptr(StrataJsonWriter) json = strata_json_writer_new (out, 2);
  StrataTrace *trace = report->trace;
  GFile *file = strata_trace_get_file (trace);
  g_autofree char *name = file != NULL ? g_file_get_basename (file) : g_strdup ("trace");

  strata_json_writer_begin_object (json);
  strata_json_writer_member (json, "$schema");
  strata_json_writer_string (json, "https://www.speedscope.app/file-format-schema.json");
  strata_json_writer_member (json, "name");
  strata_json_writer_string (json, name);
  strata_json_writer_member (json, "exporter");
  strata_json_writer_string (json, "strata " PACKAGE_VERSION);
  strata_json_writer_member (json, "activeProfileIndex");
  strata_json_writer_int (json, 0);
  write_frames (json, trace);
  strata_json_writer_member (json, "profiles");
  strata_json_writer_begin_array (json);
  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    if (strata_trace_get_thread (trace, t)->spans != NULL)
      write_profile (json, trace, t, report->clock);
  strata_json_writer_end_array (json);
  strata_json_writer_end_object (json);
  return strata_json_writer_finish (json, error);
}
