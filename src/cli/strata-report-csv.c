/* strata-report-csv.c: `strata -r --format=csv`, tables a spreadsheet reads
 *
 * A trace: a row per method called, with the columns of the window's
 * profile export (inclusive and exclusive time and their shares on each
 * clock, calls, recursive calls) and the method's structured names. A
 * heap dump: a row per class of the histogram. With --tree, the call
 * tree's rows. The tables are strata-csv-export.h's, as the window
 * exports them. Times are whole
 * nanoseconds (or samples), as the headers say.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <unistd.h>
#include <glib/gi18n.h>
#include <gio/gunixoutputstream.h>

#include "strata-csv-export.h"
#include "strata-report-private.h"

static StrataCsvWriter *
stdout_writer (void)
{
  g_autoptr(GOutputStream) out = g_unix_output_stream_new (STDOUT_FILENO, FALSE);

  return strata_csv_writer_new_for_stream (out, ',');
}

/* The class histogram, most shallow bytes first. */
static gboolean
write_classes (StrataCsvWriter  *writer,
               StrataTrace      *trace,
               GError          **error)
{
  g_autoptr(GListModel) rows = strata_csv_export_heap_classes (trace);

  return strata_csv_export_classes (writer, rows, strata_heap_get_graph (strata_trace_get_heap (trace)) != NULL, error);
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
  g_autoptr(StrataCsvWriter) writer = stdout_writer ();
  gboolean ok;

  if (strata_trace_is_heap_only (trace))
    ok = write_classes (writer, trace, error);
  else
    ok = strata_csv_export_methods (writer, profile, clock, error);
  return ok && strata_csv_writer_finish (writer, error);
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
  g_autoptr(StrataCsvWriter) writer = stdout_writer ();

  return strata_csv_export_call_tree (writer, tree, error) && strata_csv_writer_finish (writer, error);
}
