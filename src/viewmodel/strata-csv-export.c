/* strata-csv-export.c: the profile's tables as CSV or TSV
 *
 * The window's profile (methods, and the parents and children of those
 * opened) and `strata -r --format=csv`'s methods with their structured
 * names; the headers of a clock's figures and the unit of its times,
 * shared by every table here and in strata-csv-export-*.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-csv-export.h"
#include "strata-profile-row.h"

/* The unit a header names for @clock's times: "ns", or "samples" on a
 * clock that counts samples. */
const char *
strata_csv_export_clock_unit (StrataTrace *trace,
                              guint        clock)
{
  return strata_trace_get_clock_kind (trace, clock) == STRATA_CLOCK_SAMPLES ? "samples" : "ns";
}

/**
 * strata_csv_export_name:
 * @trace: (nullable): the trace the table comes from
 * @view: what the table is, e.g. "profile"
 *
 * Returns: (transfer full): a file name for the export, after the trace and
 *   the view: "startup-profile.csv"
 */
char *
strata_csv_export_name (StrataTrace *trace,
                          const char  *view)
{
  GFile *trace_file = trace != NULL ? strata_trace_get_file (trace) : NULL;
  g_autofree char *basename = trace_file != NULL ? g_file_get_basename (trace_file) : NULL;
  const char *suffixes[] = { ".gz", ".json", ".trace", ".hprof", ".txt", ".dmtrace", ".android-hprof" };
  gsize len;

  if (basename == NULL || basename[0] == '\0' || basename[0] == '/')
    return g_strdup_printf ("%s.csv", view);
  /* "app.trace.json.gz" → "app": every known suffix, from the end. */
  for (gboolean cut = TRUE; cut;)
    {
      cut = FALSE;
      len = strlen (basename);
      for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
        if (len > strlen (suffixes[i]) && g_str_has_suffix (basename, suffixes[i]))
          {
            basename[len - strlen (suffixes[i])] = '\0';
            cut = TRUE;
            break;
          }
    }
  return g_strdup_printf ("%s-%s.csv", basename, view);
}

/**
 * strata_csv_export_add_clock_headers:
 * @figures: which two times the headers name
 *
 * The headers of a row's times on @clock, as every table names them: the
 * first time and its share, the second and its share, named by the clock
 * and the unit ("Incl Wall (ns)", "Incl % Wall", …).
 */
void
strata_csv_export_add_clock_headers (StrataCsvWriter       *writer,
                                     StrataTrace           *trace,
                                     guint                  clock,
                                     StrataCsvClockFigures  figures)
{
  const char *name = strata_trace_get_clock_name (trace, clock);
  const char *unit = strata_csv_export_clock_unit (trace, clock);
  g_autofree char *first = NULL, *first_share = NULL, *second = NULL, *second_share = NULL;

  /* Translators: CSV column headers; "%s" is a clock's name, (%s) its unit */
  if (figures == STRATA_CSV_TOTAL_SELF)
    {
      first = g_strdup_printf (C_("export", "Total %s (%s)"), name, unit);
      first_share = g_strdup_printf (C_("export", "Total %% %s"), name);
      second = g_strdup_printf (C_("export", "Self %s (%s)"), name, unit);
      second_share = g_strdup_printf (C_("export", "Self %% %s"), name);
    }
  else
    {
      first = g_strdup_printf (C_("export", "Incl %s (%s)"), name, unit);
      first_share = g_strdup_printf (C_("export", "Incl %% %s"), name);
      second = g_strdup_printf (C_("export", "Excl %s (%s)"), name, unit);
      second_share = g_strdup_printf (C_("export", "Excl %% %s"), name);
    }
  strata_csv_writer_add_text (writer, first);
  strata_csv_writer_add_text (writer, first_share);
  strata_csv_writer_add_text (writer, second);
  strata_csv_writer_add_text (writer, second_share);
}

/* ---- The window's profile ---- */

static void
write_profile_header (StrataCsvWriter *writer,
                      StrataTrace     *trace,
                      guint            n_clocks)
{
  /* Translators: CSV column headers; "%s" is a clock's name, (%s) its unit */
  strata_csv_writer_add_text (writer, C_("export", "Kind"));
  strata_csv_writer_add_text (writer, C_("export", "Name"));
  for (guint c = 0; c < n_clocks; c++)
    strata_csv_export_add_clock_headers (writer, trace, c, STRATA_CSV_INCL_EXCL);
  strata_csv_writer_add_text (writer, C_("export", "Calls"));
  strata_csv_writer_add_text (writer, C_("export", "Recursive calls"));
  for (guint c = 0; c < n_clocks; c++)
    {
      g_autofree char *per_call = g_strdup_printf (C_("export", "Incl per call %s (%s)"),
                                                   strata_trace_get_clock_name (trace, c),
                                                   strata_csv_export_clock_unit (trace, c));

      strata_csv_writer_add_text (writer, per_call);
    }
}

/* A method, or one of its callers or callees (no exclusive time or
 * recursive calls of its own: those cells stay empty). */
static void
write_profile_row (StrataCsvWriter  *writer,
                   StrataProfile    *profile,
                   StrataProfileRow *row)
{
  static const char *const kinds[] = { "method", "parent", "child" };
  StrataProfileRowKind kind = strata_profile_row_get_kind (row);
  gboolean edge = kind != STRATA_PROFILE_ROW_METHOD;
  guint n_clocks = strata_profile_get_n_clocks (profile);

  strata_csv_writer_add_text (writer, kinds[kind]);
  strata_csv_writer_add_text (writer, strata_profile_row_get_name (row));
  for (guint c = 0; c < n_clocks; c++)
    {
      gint64 total = strata_profile_get_total (profile, c);

      strata_csv_writer_add_int (writer, strata_profile_row_get_inclusive (row, c));
      strata_csv_writer_add_percent (writer, strata_profile_row_get_inclusive (row, c), total);
      if (edge)
        {
          strata_csv_writer_add_empty (writer);
          strata_csv_writer_add_empty (writer);
          continue;
        }
      strata_csv_writer_add_int (writer, strata_profile_row_get_exclusive (row, c));
      strata_csv_writer_add_percent (writer, strata_profile_row_get_exclusive (row, c), total);
    }
  strata_csv_writer_add_uint (writer, strata_profile_row_get_calls (row));
  if (edge)
    strata_csv_writer_add_empty (writer);
  else
    strata_csv_writer_add_uint (writer, strata_profile_row_get_recursive_calls (row));
  for (guint c = 0; c < n_clocks; c++)
    strata_csv_writer_add_int (writer, strata_profile_row_get_time_per_call (row, c));
}

/* Every method called, slowest first on the first clock, through one row
 * object pointed at each in turn. */
static gboolean
write_every_method (StrataCsvWriter  *writer,
                    StrataProfile    *profile,
                    GError          **error)
{
  guint n;
  const guint32 *sorted = strata_profile_get_sorted (profile, 0, &n);
  g_autoptr(StrataProfileRow) row = NULL;

  for (guint i = 0; i < n; i++)
    {
      const StrataProfileEntry *entry = strata_profile_get_entry (profile, sorted[i]);

      if (entry->calls + entry->recursive_calls == 0)
        continue;
      if (row == NULL)
        row = strata_profile_row_new_method (profile, sorted[i]);
      else
        strata_profile_row_set_method (row, sorted[i], FALSE);
      write_profile_row (writer, profile, row);
      if (!strata_csv_writer_end_row (writer, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * strata_csv_export_profile:
 * @rows: (nullable): the StrataProfileRow to write, in order (the rows on
 *   show: matches of a filter, and the parents and children of opened
 *   methods), or %NULL for every method called
 *
 * The profile: times in whole nanoseconds (or samples), shares as plain
 * decimals, calls and recursive calls apart, every clock whatever columns
 * the window shows.
 */
gboolean
strata_csv_export_profile (StrataCsvWriter  *writer,
                           StrataProfile    *profile,
                           GListModel       *rows,
                           GError          **error)
{
  write_profile_header (writer, strata_profile_get_trace (profile), strata_profile_get_n_clocks (profile));
  if (!strata_csv_writer_end_row (writer, error))
    return FALSE;
  if (rows == NULL)
    return write_every_method (writer, profile, error);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(StrataProfileRow) row = g_list_model_get_item (rows, i);

      write_profile_row (writer, profile, row);
      if (!strata_csv_writer_end_row (writer, error))
        return FALSE;
    }
  return TRUE;
}

/* ---- strata -r --format=csv ---- */

static void
write_method_header (StrataCsvWriter *writer,
                     StrataTrace     *trace)
{
  strata_csv_writer_add_text (writer, C_("export", "Name"));
  strata_csv_writer_add_text (writer, C_("export", "Class"));
  strata_csv_writer_add_text (writer, C_("export", "Method"));
  strata_csv_writer_add_text (writer, C_("export", "Signature"));
  strata_csv_writer_add_text (writer, C_("export", "Source"));
  for (guint c = 0; c < strata_trace_get_n_clocks (trace); c++)
    strata_csv_export_add_clock_headers (writer, trace, c, STRATA_CSV_INCL_EXCL);
  strata_csv_writer_add_text (writer, C_("export", "Calls"));
  strata_csv_writer_add_text (writer, C_("export", "Recursive calls"));
}

static void
write_method_row (StrataCsvWriter *writer,
                  StrataTrace     *trace,
                  StrataProfile   *profile,
                  guint32          m)
{
  const StrataMethod *method = strata_trace_get_shown_method (trace, m);
  const StrataProfileEntry *entry = strata_profile_get_entry (profile, m);

  strata_csv_writer_add_text (writer, strata_trace_get_string (trace, method->display_name));
  strata_csv_writer_add_text (writer, strata_trace_get_string (trace, method->class_name));
  strata_csv_writer_add_text (writer, strata_trace_get_string (trace, method->name));
  strata_csv_writer_add_text (writer, strata_trace_get_string (trace, method->signature));
  strata_csv_writer_add_text (writer, strata_trace_get_string (trace, method->source_file));
  for (guint c = 0; c < strata_trace_get_n_clocks (trace); c++)
    {
      gint64 total = strata_profile_get_total (profile, c);

      strata_csv_writer_add_int (writer, entry->inclusive[c]);
      strata_csv_writer_add_percent (writer, entry->inclusive[c], total);
      strata_csv_writer_add_int (writer, entry->exclusive[c]);
      strata_csv_writer_add_percent (writer, entry->exclusive[c], total);
    }
  strata_csv_writer_add_uint (writer, entry->calls);
  strata_csv_writer_add_uint (writer, entry->recursive_calls);
}

/**
 * strata_csv_export_methods:
 *
 * A row per method called, slowest first on @clock, with its structured
 * names (class, method, signature, source; a mapping's where one is
 * applied) and its times on every clock.
 */
gboolean
strata_csv_export_methods (StrataCsvWriter  *writer,
                           StrataProfile    *profile,
                           guint             clock,
                           GError          **error)
{
  StrataTrace *trace = strata_profile_get_trace (profile);
  guint n;
  const guint32 *sorted = strata_profile_get_sorted (profile, clock, &n);

  write_method_header (writer, trace);
  if (!strata_csv_writer_end_row (writer, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      const StrataProfileEntry *entry = strata_profile_get_entry (profile, sorted[i]);

      if (entry->calls + entry->recursive_calls == 0)
        continue;
      write_method_row (writer, trace, profile, sorted[i]);
      if (!strata_csv_writer_end_row (writer, error))
        return FALSE;
    }
  return TRUE;
}
