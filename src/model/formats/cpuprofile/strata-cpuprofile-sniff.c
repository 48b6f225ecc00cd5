/* strata-cpuprofile-sniff.c: a V8 CPU profile, known by its members
 *
 * A .cpuprofile is one JSON object: "nodes" (each with a "callFrame"),
 * "startTime", "endTime", "samples" and "timeDeltas". Its head names the
 * nodes and their call frames before anything else, and has no
 * "traceEvents" (a Trace Event file that holds profiles is read as one).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-format-private.h"

StrataSniff
strata_cpuprofile_sniff (const guint8  *data,
                         gsize          len,
                         gboolean       complete,
                         GError       **error)
{
  const char *text = (const char *) data;
  gsize pos = len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;

  while (pos < len && strchr (" \t\r\n", data[pos]) != NULL && data[pos] != 0)
    pos++;
  if (pos >= len || data[pos] != '{')
    return STRATA_SNIFF_NO;
  if (g_strstr_len (text, len, "\"traceEvents\"") != NULL)
    return STRATA_SNIFF_NO;
  if (g_strstr_len (text, len, "\"nodes\"") != NULL && g_strstr_len (text, len, "\"callFrame\"") != NULL)
    return STRATA_SNIFF_YES;
  return STRATA_SNIFF_NO;
}
