/* strata-dmtrace-sniff.c: an Android method trace, known by its start
 *
 * A trace starts with its key's "*version" line, or (ART's streaming
 * layout, and V2) with the data's "SLOW" magic; ART's long-running
 * method traces come raw or inside an ANR dump's text.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-dmtrace-lrm.h"
#include "strata-format-private.h"

StrataSniff
strata_dmtrace_sniff (const guint8  *data,
                      gsize          len,
                      gboolean       complete,
                      GError       **error)
{
  if ((len >= 4 && memcmp (data, "SLOW", 4) == 0) || (len >= 8 && memcmp (data, "*version", 8) == 0))
    return STRATA_SNIFF_YES;
  /* ART's long-running methods: an ANR dump's text, or the raw bytes. */
  if (dmtrace_lrm_sniff_raw (data, len) || dmtrace_lrm_sniff_text (data, len))
    return STRATA_SNIFF_YES;
  return STRATA_SNIFF_NO;
}
