/* strata-table-writer.c: tables as CSV or TSV that other tools can read
 *
 * Numbers are written as numbers, whole and in the unit the header names
 * (nanoseconds, bytes, samples), and percentages as plain decimals with a
 * full stop whatever the locale, so a spreadsheet or pandas reads every
 * cell without parsing "12.3 ms". Rows are streamed: a table of millions
 * of rows is never held as text.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-table-writer.h"

#define BUFFER_SIZE (64 * 1024)

struct _StrataTableWriter
{
  GOutputStream *out;
  GString       *row;
  char           separator;
  gboolean       empty_row;
};

/**
 * strata_table_writer_new:
 *
 * Writes CSV to @file, or TSV when its name ends in .tsv, replacing it.
 *
 * Returns: (transfer full) (nullable): the writer, or %NULL with @error set
 */
StrataTableWriter *
strata_table_writer_new (GFile   *file,
                         GError **error)
{
  g_autofree char *basename = g_file_get_basename (file);
  g_autoptr(GFileOutputStream) stream = NULL;
  g_autoptr(GOutputStream) buffered = NULL;

  stream = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, error);
  if (stream == NULL)
    return NULL;
  buffered = g_buffered_output_stream_new_sized (G_OUTPUT_STREAM (stream), BUFFER_SIZE);
  return strata_table_writer_new_for_stream (buffered,
                                             basename != NULL && g_str_has_suffix (basename, ".tsv") ? '\t' : ',');
}

StrataTableWriter *
strata_table_writer_new_for_stream (GOutputStream *stream,
                                    char           separator)
{
  StrataTableWriter *self = g_new0 (StrataTableWriter, 1);

  self->out = g_object_ref (stream);
  self->row = g_string_new (NULL);
  self->separator = separator;
  self->empty_row = TRUE;
  return self;
}

static void
begin_cell (StrataTableWriter *self)
{
  if (!self->empty_row)
    g_string_append_c (self->row, self->separator);
  self->empty_row = FALSE;
}

/* Quoted as RFC 4180 asks where the text holds a separator, a quote or a
 * line break; TSV has no quoting, so those become spaces there. */
void
strata_table_writer_add_text (StrataTableWriter *self,
                              const char        *text)
{
  begin_cell (self);
  if (text == NULL)
    return;
  if (self->separator == ',' && strpbrk (text, ",\"\r\n") != NULL)
    {
      g_string_append_c (self->row, '"');
      for (const char *c = text; *c != '\0'; c++)
        {
          if (*c == '"')
            g_string_append_c (self->row, '"');
          g_string_append_c (self->row, *c);
        }
      g_string_append_c (self->row, '"');
    }
  else if (self->separator != ',')
    for (const char *c = text; *c != '\0'; c++)
      g_string_append_c (self->row, *c == '\t' || *c == '\n' || *c == '\r' ? ' ' : *c);
  else
    g_string_append (self->row, text);
}

void
strata_table_writer_add_int (StrataTableWriter *self,
                             gint64             value)
{
  begin_cell (self);
  g_string_append_printf (self->row, "%" G_GINT64_FORMAT, value);
}

void
strata_table_writer_add_uint (StrataTableWriter *self,
                              guint64            value)
{
  begin_cell (self);
  g_string_append_printf (self->row, "%" G_GUINT64_FORMAT, value);
}

/* @value as a plain decimal with a full stop, round-trip exact. */
void
strata_table_writer_add_double (StrataTableWriter *self,
                                double             value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  begin_cell (self);
  g_string_append (self->row, g_ascii_dtostr (buffer, sizeof buffer, value));
}

/* 100 × @part / @total as a plain decimal. */
void
strata_table_writer_add_percent (StrataTableWriter *self,
                                 gint64             part,
                                 gint64             total)
{
  strata_table_writer_add_double (self, total > 0 ? 100.0 * part / total : 0.0);
}

/* The unit a header names for @clock's times: "ns", or "samples" on a
 * clock that counts samples. */
const char *
strata_table_clock_unit (StrataTrace *trace,
                         guint        clock)
{
  return strata_trace_get_clock_kind (trace, clock) == STRATA_CLOCK_SAMPLES ? "samples" : "ns";
}

void
strata_table_writer_add_empty (StrataTableWriter *self)
{
  begin_cell (self);
}

gboolean
strata_table_writer_end_row (StrataTableWriter  *self,
                             GError            **error)
{
  gboolean written;

  g_string_append_c (self->row, '\n');
  written = g_output_stream_write_all (self->out, self->row->str, self->row->len, NULL, NULL, error);
  g_string_truncate (self->row, 0);
  self->empty_row = TRUE;
  return written;
}

gboolean
strata_table_writer_finish (StrataTableWriter  *self,
                            GError            **error)
{
  return g_output_stream_close (self->out, NULL, error);
}

void
strata_table_writer_free (StrataTableWriter *self)
{
  if (self == NULL)
    return;
  g_object_unref (self->out);
  g_string_free (self->row, TRUE);
  g_free (self);
}

/**
 * strata_table_export_name:
 * @trace: (nullable): the trace the table comes from
 * @view: what the table is, e.g. "profile"
 *
 * Returns: (transfer full): a file name for the export, after the trace and
 *   the view: "startup-profile.csv"
 */
char *
strata_table_export_name (StrataTrace *trace,
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
 * strata_table_writer_add_profile_headers:
 *
 * The headers of a method's times on @clock, as every profile table is
 * exported: inclusive time and its share, exclusive time and its share,
 * named by the clock and the unit.
 */
void
strata_table_writer_add_profile_headers (StrataTableWriter *self,
                                         StrataTrace       *trace,
                                         guint              clock)
{
  const char *name = strata_trace_get_clock_name (trace, clock);
  const char *unit = strata_table_clock_unit (trace, clock);
  /* Translators: CSV column headers; "%s" is a clock's name, (%s) its unit */
  g_autofree char *incl = g_strdup_printf (C_("export", "Incl %s (%s)"), name, unit);
  g_autofree char *incl_pct = g_strdup_printf (C_("export", "Incl %% %s"), name);
  g_autofree char *excl = g_strdup_printf (C_("export", "Excl %s (%s)"), name, unit);
  g_autofree char *excl_pct = g_strdup_printf (C_("export", "Excl %% %s"), name);

  strata_table_writer_add_text (self, incl);
  strata_table_writer_add_text (self, incl_pct);
  strata_table_writer_add_text (self, excl);
  strata_table_writer_add_text (self, excl_pct);
}
