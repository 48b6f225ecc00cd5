/* strata-trace-event-sniff.c: Trace Event JSON, known by its first bytes
 *
 * An array whose first item is an object (or that is empty or cut), or an
 * object with a "traceEvents" (or "systemTraceEvents") member; when that
 * member may come after a large metadata block, the reader looks for it.
 * JSON that is none of these is refused with what it is instead.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "strata-error.h"
#include "strata-format-private.h"

static gsize
skip_json_space (const guint8 *data,
                 gsize         len,
                 gsize         pos)
{
  while (pos < len && strchr (" \t\r\n", data[pos]) != NULL && data[pos] != 0)
    pos++;
  return pos;
}

static StrataSniff
sniff_array (const guint8  *data,
             gsize          len,
             gsize          pos,
             GError       **error)
{
  pos = skip_json_space (data, len, pos + 1);
  if (pos >= len || data[pos] == '{' || data[pos] == ']')
    return STRATA_SNIFF_YES;

  g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_NOT_A_TRACE,
                       _("It is a JSON array, but its items are not trace events."));
  return STRATA_SNIFF_REFUSED;
}

static StrataSniff
sniff_object (const guint8  *data,
              gsize          len,
              gboolean       complete,
              GError       **error)
{
  g_autoptr(JsonParser) parser = NULL;

  if (g_strstr_len ((const char *) data, len, "\"traceEvents\"") != NULL ||
      g_strstr_len ((const char *) data, len, "\"systemTraceEvents\"") != NULL)
    return STRATA_SNIFF_YES;

  /* The member may come after a large metadata block; let the loader look. */
  if (!complete)
    return STRATA_SNIFF_YES;

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, (const char *) data, len, NULL))
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                           _("It starts like JSON, but it is not valid JSON."));
      return STRATA_SNIFF_REFUSED;
    }

  g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_NOT_A_TRACE,
                       _("It is valid JSON, but not a Trace Event file: it has no “traceEvents” member."));
  return STRATA_SNIFF_REFUSED;
}

StrataSniff
strata_trace_event_sniff (const guint8  *data,
                          gsize          len,
                          gboolean       complete,
                          GError       **error)
{
  gsize pos = len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;

  pos = skip_json_space (data, len, pos);
  if (pos < len && data[pos] == '[')
    return sniff_array (data, len, pos, error);
  if (pos < len && data[pos] == '{')
    return sniff_object (data, len, complete, error);
  return STRATA_SNIFF_NO;
}
