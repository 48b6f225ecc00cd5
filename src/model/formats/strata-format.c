/* strata-format.c: recognising a trace by its content, not its name
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <gio/gio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "strata-error.h"
#include "strata-format.h"
#include "strata-inflater.h"

#define HPROF_MAGIC "JAVA PROFILE 1.0."

const char *
strata_format_get_name (StrataFormat format)
{
  switch (format)
    {
    case STRATA_FORMAT_DMTRACE:
      return _("Android method trace");
    case STRATA_FORMAT_HPROF_BINARY:
      return _("Java heap dump (HPROF)");
    case STRATA_FORMAT_HPROF_TEXT:
      return _("Java profile (HPROF text)");
    case STRATA_FORMAT_TRACE_EVENT:
      return _("Trace Event JSON");
    case STRATA_FORMAT_UNKNOWN:
    default:
      return _("Unknown format");
    }
}

const char *
strata_format_get_id (StrataFormat format)
{
  switch (format)
    {
    case STRATA_FORMAT_DMTRACE:
      return "dmtrace";
    case STRATA_FORMAT_HPROF_BINARY:
      return "hprof";
    case STRATA_FORMAT_HPROF_TEXT:
      return "hprof-text";
    case STRATA_FORMAT_TRACE_EVENT:
      return "trace-event";
    case STRATA_FORMAT_UNKNOWN:
    default:
      return "unknown";
    }
}

static gboolean
has_prefix (const guint8 *data,
            gsize         len,
            const char   *prefix)
{
  gsize n = strlen (prefix);

  return len >= n && memcmp (data, prefix, n) == 0;
}

static gsize
skip_json_space (const guint8 *data,
                 gsize         len,
                 gsize         pos)
{
  while (pos < len && strchr (" \t\r\n", data[pos]) != NULL && data[pos] != 0)
    pos++;
  return pos;
}

static gboolean
is_all_zero (const guint8 *data,
             gsize         len)
{
  for (gsize i = 0; i < len; i++)
    if (data[i] != 0)
      return FALSE;
  return TRUE;
}

static gboolean
is_binary_hprof (const guint8 *data,
                 gsize         len)
{
  gsize n = strlen (HPROF_MAGIC);

  /* The binary header is NUL-terminated right after the version digit. */
  return has_prefix (data, len, HPROF_MAGIC) &&
         len > n + 1 &&
         g_ascii_isdigit (data[n]) &&
         data[n + 1] == '\0';
}

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

  if (is_all_zero (data, len) && !complete)
    {
      g_autofree char *size = g_format_size (len);

      g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_UNKNOWN_FORMAT,
                   /* Translators: %s is a size such as “64.0 kB” */
                   _("It starts with %s of zero bytes, which no trace does: its beginning may have been lost or overwritten."),
                   size);
      return STRATA_FORMAT_UNKNOWN;
    }
  if (is_all_zero (data, len))
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

static StrataFormat
sniff_json_array (const guint8 *data,
                  gsize         len,
                  gsize         pos,
                  GError      **error)
{
  pos = skip_json_space (data, len, pos + 1);
  if (pos >= len || data[pos] == '{' || data[pos] == ']')
    return STRATA_FORMAT_TRACE_EVENT;

  g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_NOT_A_TRACE,
                       _("It is a JSON array, but its items are not trace events."));
  return STRATA_FORMAT_UNKNOWN;
}

static StrataFormat
sniff_json_object (const guint8 *data,
                   gsize         len,
                   gboolean      complete,
                   GError      **error)
{
  g_autoptr(JsonParser) parser = NULL;

  if (g_strstr_len ((const char *) data, len, "\"traceEvents\"") != NULL ||
      g_strstr_len ((const char *) data, len, "\"systemTraceEvents\"") != NULL)
    return STRATA_FORMAT_TRACE_EVENT;

  /* The member may come after a large metadata block; let the loader look. */
  if (!complete)
    return STRATA_FORMAT_TRACE_EVENT;

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, (const char *) data, len, NULL))
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                           _("It starts like JSON, but it is not valid JSON."));
      return STRATA_FORMAT_UNKNOWN;
    }

  g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_NOT_A_TRACE,
                       _("It is valid JSON, but not a Trace Event file: it has no “traceEvents” member."));
  return STRATA_FORMAT_UNKNOWN;
}

static StrataFormat
sniff_plain (const guint8 *data,
             gsize         len,
             gboolean      complete,
             GError      **error)
{
  gsize pos;

  if (has_prefix (data, len, "SLOW") || has_prefix (data, len, "*version"))
    return STRATA_FORMAT_DMTRACE;
  if (is_binary_hprof (data, len))
    return STRATA_FORMAT_HPROF_BINARY;
  if (has_prefix (data, len, "JAVA PROFILE ") ||
      has_prefix (data, len, "HEAP DUMP BEGIN"))
    return STRATA_FORMAT_HPROF_TEXT;
  if (has_prefix (data, len, "PK\003\004"))
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR,
                           STRATA_LOAD_ERROR_UNKNOWN_FORMAT,
                           _("It is a Zip archive. Extract the trace from it and open that file."));
      return STRATA_FORMAT_UNKNOWN;
    }

  pos = has_prefix (data, len, "\xEF\xBB\xBF") ? 3 : 0;
  pos = skip_json_space (data, len, pos);
  if (pos < len && data[pos] == '[')
    return sniff_json_array (data, len, pos, error);
  if (pos < len && data[pos] == '{')
    return sniff_json_object (data, len, complete, error);

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
    return sniff_plain (data, head_len, head_len == len, error);

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
