/* strata-report-csv.c: `strata -r --format=csv`, tables a spreadsheet reads
 *
 * A trace: a row per method called, with the columns of the window's
 * profile export (inclusive and exclusive time and their shares on each
 * clock, calls, recursive calls) and the method's structured names. A
 * heap dump: a row per class of the histogram. With --tree, the call
 * tree's rows (strata_call_tree_write_table()). Times are whole
 * nanoseconds (or samples), as the headers say.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <unistd.h>
#include <glib/gi18n.h>
#include <gio/gunixoutputstream.h>

#include "strata-call-tree-table.h"
#include "strata-report-private.h"
#include "strata-table-writer.h"

static StrataTableWriter *
stdout_writer (void)
{
  g_autoptr(GOutputStream) out = g_unix_output_stream_new (STDOUT_FILENO, FALSE);

  return strata_table_writer_new_for_stream (out, ',');
}

static void
write_method_header (StrataTableWriter *writer,
                     StrataTrace       *trace)
{
  strata_table_writer_add_text (writer, C_("export", "Name"));
  strata_table_writer_add_text (writer, C_("export", "Class"));
  strata_table_writer_add_text (writer, C_("export", "Method"));
  strata_table_writer_add_text (writer, C_("export", "Signature"));
  strata_table_writer_add_text (writer, C_("export", "Source"));
  for (guint c = 0; c < strata_trace_get_n_clocks (trace); c++)
    strata_table_writer_add_profile_headers (writer, trace, c);
  strata_table_writer_add_text (writer, C_("export", "Calls"));
  strata_table_writer_add_text (writer, C_("export", "Recursive calls"));
}

static void
write_method_row (StrataTableWriter *writer,
                  StrataTrace       *trace,
                  StrataProfile     *profile,
                  guint32            m)
{
  const StrataMethod *method = strata_trace_get_shown_method (trace, m);
  const StrataProfileEntry *entry = strata_profile_get_entry (profile, m);

  strata_table_writer_add_text (writer, strata_trace_get_string (trace, method->display_name));
  strata_table_writer_add_text (writer, strata_trace_get_string (trace, method->class_name));
  strata_table_writer_add_text (writer, strata_trace_get_string (trace, method->name));
  strata_table_writer_add_text (writer, strata_trace_get_string (trace, method->signature));
  strata_table_writer_add_text (writer, strata_trace_get_string (trace, method->source_file));
  for (guint c = 0; c < strata_trace_get_n_clocks (trace); c++)
    {
      gint64 total = strata_profile_get_total (profile, c);

      strata_table_writer_add_int (writer, entry->inclusive[c]);
      strata_table_writer_add_percent (writer, entry->inclusive[c], total);
      strata_table_writer_add_int (writer, entry->exclusive[c]);
      strata_table_writer_add_percent (writer, entry->exclusive[c], total);
    }
  strata_table_writer_add_uint (writer, entry->calls);
  strata_table_writer_add_uint (writer, entry->recursive_calls);
}

/* The methods called, slowest first on @clock. */
static gboolean
write_methods (StrataTableWriter  *writer,
               StrataTrace        *trace,
               StrataProfile      *profile,
               guint               clock,
               GError            **error)
{
  guint n;
  const guint32 *sorted = strata_profile_get_sorted (profile, clock, &n);

  write_method_header (writer, trace);
  if (!strata_table_writer_end_row (writer, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      const StrataProfileEntry *entry = strata_profile_get_entry (profile, sorted[i]);

      if (entry->calls + entry->recursive_calls == 0)
        continue;
      write_method_row (writer, trace, profile, sorted[i]);
      if (!strata_table_writer_end_row (writer, error))
        return FALSE;
    }
  return TRUE;
}

/* The class histogram, most shallow bytes first. */
static gboolean
write_classes (StrataTableWriter  *writer,
               StrataTrace        *trace,
               GError            **error)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  g_autofree guint *order = strata_heap_sort_by_bytes (heap);

  strata_table_writer_add_text (writer, C_("export", "Class"));
  strata_table_writer_add_text (writer, C_("export", "Instances"));
  strata_table_writer_add_text (writer, C_("export", "Shallow (bytes)"));
  strata_table_writer_add_text (writer, C_("export", "Retained (bytes)"));
  if (!strata_table_writer_end_row (writer, error))
    return FALSE;
  for (guint i = 0; i < strata_heap_get_n_classes (heap); i++)
    {
      const StrataHeapClass *klass = strata_heap_get_class (heap, order[i]);

      strata_table_writer_add_text (writer, strata_trace_get_string (trace, klass->name));
      strata_table_writer_add_uint (writer, klass->instances);
      strata_table_writer_add_uint (writer, klass->shallow_bytes);
      strata_table_writer_add_uint (writer, klass->retained_bytes);
      if (!strata_table_writer_end_row (writer, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * strata_report_write_csv:
 *
 * The profile's methods (a heap dump: its classes) as CSV on standard
 * output.
 */
gboolean
strata_report_write_csv (StrataTrace    *trace,
                         StrataProfile  *profile,
                         guint           clock,
                         GError        **error)
{
  g_autoptr(StrataTableWriter) writer = stdout_writer ();
  gboolean ok;

  if (strata_trace_get_heap (trace) != NULL && strata_trace_get_n_spans (trace) == 0)
    ok = write_classes (writer, trace, error);
  else
    ok = write_methods (writer, trace, profile, clock, error);
  return ok && strata_table_writer_finish (writer, error);
}

/**
 * strata_report_write_csv_tree:
 *
 * Every node of @tree as a row of CSV on standard output, with its depth.
 */
gboolean
strata_report_write_csv_tree (StrataCallTree  *tree,
                              GError         **error)
{
  g_autoptr(StrataTableWriter) writer = stdout_writer ();

  return strata_call_tree_write_table (tree, writer, error) && strata_table_writer_finish (writer, error);
}
