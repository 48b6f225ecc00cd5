/* strata-hprof-sniff.c: HPROF files, binary and text, known by their header
 *
 * A binary dump's header is "JAVA PROFILE 1.0.N" ended by a NUL right
 * after the version digit; the text form starts "JAVA PROFILE " without
 * it, or with a heap dump's "HEAP DUMP BEGIN".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-format-private.h"

#define HPROF_MAGIC "JAVA PROFILE 1.0."

static gboolean
has_prefix (const guint8 *data,
            gsize         len,
            const char   *prefix)
{
  gsize n = strlen (prefix);

  return len >= n && memcmp (data, prefix, n) == 0;
}

StrataSniff
strata_hprof_binary_sniff (const guint8  *data,
                           gsize          len,
                           gboolean       complete,
                           GError       **error)
{
  gsize n = strlen (HPROF_MAGIC);

  /* The binary header is NUL-terminated right after the version digit. */
  if (has_prefix (data, len, HPROF_MAGIC) && len > n + 1 && g_ascii_isdigit (data[n]) && data[n + 1] == '\0')
    return STRATA_SNIFF_YES;
  return STRATA_SNIFF_NO;
}

StrataSniff
strata_hprof_text_sniff (const guint8  *data,
                         gsize          len,
                         gboolean       complete,
                         GError       **error)
{
  if (has_prefix (data, len, "JAVA PROFILE ") || has_prefix (data, len, "HEAP DUMP BEGIN"))
    return STRATA_SNIFF_YES;
  return STRATA_SNIFF_NO;
}
