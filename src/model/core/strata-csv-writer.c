/* strata-csv-writer.c: tables as CSV or TSV that other tools can read
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

#include "strata-csv-writer.h"
#include "strata-file.h"

#define BUFFER_SIZE (64 * 1024)

struct _StrataCsvWriter
{
  GOutputStream *out;
  GString       *row;
  char           separator;
  gboolean       empty_row;
};

/**
 * strata_csv_writer_new:
 *
 * Writes CSV to @file, or TSV when its name ends in .tsv, replacing it.
 *
 * Returns: (transfer full) (nullable): the writer, or %NULL with @error set
 */
StrataCsvWriter *
strata_csv_writer_new (GFile   *file,
                       GError **error)
{
  g_autofree char *basename = g_file_get_basename (file);
  g_autoptr(GFileOutputStream) stream = NULL;
  g_autoptr(GOutputStream) buffered = NULL;

  if (!strata_file_check_output (file, NULL, error))
    return NULL;
  stream = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, error);
  if (stream == NULL)
    return NULL;
  buffered = g_buffered_output_stream_new_sized (G_OUTPUT_STREAM (stream), BUFFER_SIZE);
  return strata_csv_writer_new_for_stream (buffered,
                                             basename != NULL && g_str_has_suffix (basename, ".tsv") ? '\t' : ',');
}

StrataCsvWriter *
strata_csv_writer_new_for_stream (GOutputStream *stream,
                                  char           separator)
{
  StrataCsvWriter *self = g_new0 (StrataCsvWriter, 1);

  self->out = g_object_ref (stream);
  self->row = g_string_new (NULL);
  self->separator = separator;
  self->empty_row = TRUE;
  return self;
}

static void
begin_cell (StrataCsvWriter *self)
{
  if (!self->empty_row)
    g_string_append_c (self->row, self->separator);
  self->empty_row = FALSE;
}

/* Quoted as RFC 4180 asks where the text holds a separator, a quote or a
 * line break; TSV has no quoting, so those become spaces there. */
void
strata_csv_writer_add_text (StrataCsvWriter *self,
                            const char      *text)
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
strata_csv_writer_add_int (StrataCsvWriter *self,
                           gint64           value)
{
  begin_cell (self);
  g_string_append_printf (self->row, "%" G_GINT64_FORMAT, value);
}

void
strata_csv_writer_add_uint (StrataCsvWriter *self,
                            guint64          value)
{
  begin_cell (self);
  g_string_append_printf (self->row, "%" G_GUINT64_FORMAT, value);
}

/* @value as a plain decimal with a full stop, round-trip exact. */
void
strata_csv_writer_add_double (StrataCsvWriter *self,
                              double           value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  begin_cell (self);
  g_string_append (self->row, g_ascii_dtostr (buffer, sizeof buffer, value));
}

/* 100 × @part / @total as a plain decimal. */
void
strata_csv_writer_add_percent (StrataCsvWriter *self,
                               gint64           part,
                               gint64           total)
{
  strata_csv_writer_add_double (self, total > 0 ? 100.0 * part / total : 0.0);
}

void
strata_csv_writer_add_empty (StrataCsvWriter *self)
{
  begin_cell (self);
}

gboolean
strata_csv_writer_end_row (StrataCsvWriter  *self,
                           GError          **error)
{
  gboolean written;

  g_string_append_c (self->row, '\n');
  written = g_output_stream_write_all (self->out, self->row->str, self->row->len, NULL, NULL, error);
  g_string_truncate (self->row, 0);
  self->empty_row = TRUE;
  return written;
}

gboolean
strata_csv_writer_finish (StrataCsvWriter  *self,
                          GError          **error)
{
  return g_output_stream_close (self->out, NULL, error);
}

void
strata_csv_writer_free (StrataCsvWriter *self)
{
  if (self == NULL)
    return;
  g_object_unref (self->out);
  g_string_free (self->row, TRUE);
  g_free (self);
}
