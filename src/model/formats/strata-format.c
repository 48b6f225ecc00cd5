/* strata-format.c: recognising a trace by its content, not its name
 *
 * The table of formats: each gives its sniffing and its reader, from its
 * folder. The head of a file (inflated first when it is gzip) is shown to
 * each in turn; a file none takes gets an answer that says what it is.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <gio/gio.h>
#include <glib/gi18n.h>

#include "strata-error.h"
#include "strata-format-private.h"
#include "strata-inflater.h"
#include "strata-memory.h"

/* The formats Strata reads, in the order their sniffing is asked: the
 * binary magics first, JSON last. */
static const StrataFormatEntry formats[] = {
  { STRATA_FORMAT_DMTRACE, "dmtrace", N_("Android method trace"), strata_dmtrace_sniff, strata_dmtrace_load },
  { STRATA_FORMAT_PERFETTO, "perfetto", N_("Perfetto trace"), strata_perfetto_sniff, strata_perfetto_load },
  { STRATA_FORMAT_HPROF_BINARY, "hprof", N_("Java heap dump (HPROF)"), strata_hprof_binary_sniff, strata_hprof_binary_load },
  { STRATA_FORMAT_HPROF_TEXT, "hprof-text", N_("Java profile (HPROF text)"), strata_hprof_text_sniff, strata_hprof_text_load },
  { STRATA_FORMAT_SPEEDSCOPE, "speedscope", N_("speedscope profile"), strata_speedscope_sniff, strata_speedscope_load },
  { STRATA_FORMAT_CPUPROFILE, "cpuprofile", N_("V8 CPU profile"), strata_cpuprofile_sniff, strata_cpuprofile_load },
  { STRATA_FORMAT_TRACE_EVENT, "trace-event", N_("Trace Event JSON"), strata_trace_event_sniff, strata_trace_event_load },
};

/* Returns: (nullable): @format's entry, or %NULL for an unknown format */
const StrataFormatEntry *
strata_format_get_entry (StrataFormat format)
{
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (formats[i].format == format)
      return &formats[i];
  return NULL;
}

const char *
strata_format_get_name (StrataFormat format)
{
  const StrataFormatEntry *entry = strata_format_get_entry (format);

  return entry != NULL ? _(entry->name) : _("Unknown format");
}

const char *
strata_format_get_id (StrataFormat format)
{
  const StrataFormatEntry *entry = strata_format_get_entry (format);

  return entry != NULL ? entry->id : "unknown";
}

static gboolean
has_prefix (const guint8 *data,
            gsize         len,
            const char   *prefix)
{
  gsize n = strlen (prefix);

  return len >= n && memcmp (data, prefix, n) == 0;
}

/* Below this, zero bytes at the start are not worth a word. */
#define MIN_ZERO_PREFIX 256
/* How far a run of zeros at the start is followed to be counted. */
#define MAX_ZERO_SCAN (16 << 20)

/* @complete: @data is the whole content, not only its head */
static StrataFormat
unknown_format_error (const guint8 *data,
                      gsize         len,
                      gboolean      complete,
                      GError      **error)
{
  g_autofree char *type = NULL;
  g_autofree char *description = NULL;
  gboolean uncertain = TRUE;

  gsize zeros = strata_memory_leading_zeros (data, len);

  /* Only the head is looked at: a run of zeros that fills it may go on. */
  if (zeros == len && !complete)
    {
      g_autofree char *size = g_format_size (len);

      g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_UNKNOWN_FORMAT,
                   /* Translators: %s is a size such as “64.0 kB” */
                   _("It starts with at least %s of zero bytes, which no trace does: its beginning may have been lost or overwritten."),
                   size);
      return STRATA_FORMAT_UNKNOWN;
    }
  if (zeros >= MIN_ZERO_PREFIX && zeros < len)
    {
      g_autofree char *count = g_strdup_printf ("%'" G_GSIZE_FORMAT, zeros);

      g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_UNKNOWN_FORMAT,
                   /* Translators: %s is a number of bytes */
                   g_dngettext (GETTEXT_PACKAGE,
                                "It starts with %s zero byte, which no trace does: its beginning may have been lost or overwritten.",
                                "It starts with %s zero bytes, which no trace does: its beginning may have been lost or overwritten.",
                                zeros),
                   count);
      return STRATA_FORMAT_UNKNOWN;
    }
  if (zeros == len)
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR,
                           STRATA_LOAD_ERROR_UNKNOWN_FORMAT,
                           _("The file contains only zero bytes."));
      return STRATA_FORMAT_UNKNOWN;
    }

  type = g_content_type_guess (NULL, data, len, &uncertain);
  if (!uncertain &&
      !g_content_type_is_a (type, "text/plain") &&
      !g_content_type_equals (type, "application/octet-stream"))
    {
      description = g_content_type_get_description (type);
      g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_UNKNOWN_FORMAT,
                   /* Translators: %s is a file type such as “PNG image” */
                   _("It is a file of type “%s”, not a trace Strata can read."),
                   description);
      return STRATA_FORMAT_UNKNOWN;
    }

  if (g_utf8_validate ((const char *) data, len, NULL) && memchr (data, 0, len) == NULL)
    g_set_error_literal (error, STRATA_LOAD_ERROR,
                         STRATA_LOAD_ERROR_UNKNOWN_FORMAT,
                         _("It is a text file, but not in a trace format Strata reads."));
  else
    g_set_error_literal (error, STRATA_LOAD_ERROR,
                         STRATA_LOAD_ERROR_UNKNOWN_FORMAT,
                         _("Its contents are not in a trace format Strata reads."));
  return STRATA_FORMAT_UNKNOWN;
}

/* Each format is asked in turn; a Zip archive gets its own answer. */
static StrataFormat
sniff_plain (const guint8  *data,
             gsize          len,
             gboolean       complete,
             GError       **error)
{
  if (has_prefix (data, len, "PK\003\004"))
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR,
                           STRATA_LOAD_ERROR_UNKNOWN_FORMAT,
                           _("It is a Zip archive. Extract the trace from it and open that file."));
      return STRATA_FORMAT_UNKNOWN;
    }
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    switch (formats[i].sniff (data, len, complete, error))
      {
      case STRATA_SNIFF_YES:
        return formats[i].format;
      case STRATA_SNIFF_REFUSED:
        return STRATA_FORMAT_UNKNOWN;
      case STRATA_SNIFF_NO:
      default:
        break;
      }
  return unknown_format_error (data, len, complete, error);
}

/* Inflates at most STRATA_SNIFF_HEAD_SIZE bytes of a gzip stream. A stream
 * cut short still yields what it holds, so truncated files can be sniffed. */
static GBytes *
gunzip_head (const guint8 *data,
             gsize         len,
             gboolean     *complete,
             GError      **error)
{
  g_autoptr(StrataInflater) inflater = strata_inflater_new (data, len);
  g_autofree guint8 *out = g_malloc (STRATA_SNIFF_HEAD_SIZE);
  StrataInflateStatus status = STRATA_INFLATE_MORE;
  gsize out_len = 0;

  while (out_len < STRATA_SNIFF_HEAD_SIZE && status == STRATA_INFLATE_MORE)
    {
      gsize n_written = 0;

      status = strata_inflater_read (inflater, out + out_len, STRATA_SNIFF_HEAD_SIZE - out_len, &n_written);
      out_len += n_written;
    }
  if ((status == STRATA_INFLATE_DAMAGED || status == STRATA_INFLATE_CUT) && out_len == 0)
    {
      strata_set_gzip_damaged_error (error);
      return NULL;
    }
  *complete = status == STRATA_INFLATE_END;
  return g_bytes_new_take (g_steal_pointer (&out), out_len);
}

/**
 * strata_format_sniff:
 * @data: the first bytes of a file (the whole file when it is short)
 * @len: how many bytes @data holds
 * @compression: (out) (optional): how the content is wrapped
 * @error: set with a STRATA_LOAD_ERROR that says what the content is instead
 *
 * Returns: the format, or %STRATA_FORMAT_UNKNOWN with @error set
 */
StrataFormat
strata_format_sniff (const guint8      *data,
                     gsize              len,
                     StrataCompression *compression,
                     GError           **error)
{
  g_autoptr(GBytes) inner = NULL;
  gboolean complete = FALSE;
  gsize head_len = MIN (len, STRATA_SNIFF_HEAD_SIZE);
  const guint8 *inner_data;
  gsize inner_len;

  g_return_val_if_fail (data != NULL || len == 0, STRATA_FORMAT_UNKNOWN);

  if (compression != NULL)
    *compression = STRATA_COMPRESSION_NONE;

  if (len == 0)
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_EMPTY,
                           _("The file is empty."));
      return STRATA_FORMAT_UNKNOWN;
    }

  if (!strata_is_gzip (data, len))
    {
      /* A head of zeros: how many there are, as far as a bounded look
       * goes, for a message that gives the figure. */
      gsize zeros = strata_memory_leading_zeros (data, MIN (len, MAX_ZERO_SCAN));

      if (zeros >= head_len)
        head_len = MIN (len, zeros + STRATA_SNIFF_HEAD_SIZE);
      return sniff_plain (data, head_len, head_len == len, error);
    }

  if (compression != NULL)
    *compression = STRATA_COMPRESSION_GZIP;

  inner = gunzip_head (data, len, &complete, error);
  if (inner == NULL)
    return STRATA_FORMAT_UNKNOWN;

  inner_data = g_bytes_get_data (inner, &inner_len);
  if (inner_len == 0)
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_EMPTY,
                           _("It is a gzip file with nothing inside."));
      return STRATA_FORMAT_UNKNOWN;
    }

  return sniff_plain (inner_data, inner_len, complete, error);
}
