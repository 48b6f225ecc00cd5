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
#include <glib/gi18n.h>

#include "strata-error.h"
#include "strata-format-private.h"
#include "strata-hprof-private.h"

#define HPROF_MAGIC "JAVA PROFILE 1.0."

static gboolean
has_prefix (const guint8 *data,
            gsize         len,
            const char   *prefix)
{
  gsize n = strlen (prefix);

  return len >= n && memcmp (data, prefix, n) == 0;
}

/* The top-level record kinds the reader knows. */
gboolean
hprof_tag_is_known (guint tag)
{
  return (tag >= 0x01 && tag <= 0x0E && tag != 0x08 && tag != 0x09) || tag == 0x1C || tag == 0x2C;
}

/* Whether that many records of unknown kinds among @n_records make the
 * file no heap dump (HPROF_UNKNOWN_RECORDS_TOLERATED). */
gboolean
hprof_unknown_records_refused (guint64 n_unknown,
                               guint64 n_records)
{
  return n_unknown > HPROF_UNKNOWN_RECORDS_TOLERATED && n_unknown * 10 > n_records;
}

void
hprof_set_unknown_records_error (gsize     at,
                                 guint64   n_unknown,
                                 guint64   n_records,
                                 GError  **error)
{
  g_autofree char *at_text = g_strdup_printf ("%'" G_GSIZE_FORMAT, at);
  g_autofree char *unknown = g_strdup_printf ("%'" G_GUINT64_FORMAT, n_unknown);
  g_autofree char *records = g_strdup_printf ("%'" G_GUINT64_FORMAT, n_records);

  g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
               /* Translators: a byte offset, then two counts of records */
               _("This file starts like an HPROF heap dump, but from byte %s on its records are of no kind a heap dump has "
                 "(%s of the first %s): it is not a heap dump, or it is damaged beyond reading."),
               at_text, unknown, records);
}

/* The records in the head, walked by their headers: a head that is
 * mostly records of no known kind (zeros after a valid header, say) is
 * no heap dump. Seen here, a gzip file is refused before it is inflated
 * to gigabytes. A record that runs past the head ends the walk. */
static gboolean
head_records_plausible (const guint8  *data,
                        gsize          len,
                        gsize          pos,
                        GError       **error)
{
  guint64 n_records = 0, n_unknown = 0;
  gsize first_unknown = 0;

  while (len - pos >= 9)
    {
      const guint8 *h = data + pos;
      guint64 body = (guint64) h[5] << 24 | (guint64) h[6] << 16 | (guint64) h[7] << 8 | h[8];

      if (!hprof_tag_is_known (h[0]) && n_unknown++ == 0)
        first_unknown = pos;
      n_records++;
      if (hprof_unknown_records_refused (n_unknown, n_records))
        {
          hprof_set_unknown_records_error (first_unknown, n_unknown, n_records, error);
          return FALSE;
        }
      if (body > len - pos - 9)
        break;
      pos += 9 + body;
    }
  return TRUE;
}

StrataSniff
strata_hprof_binary_sniff (const guint8  *data,
                           gsize          len,
                           gboolean       complete,
                           GError       **error)
{
  gsize n = strlen (HPROF_MAGIC);

  /* The binary header is NUL-terminated right after the version digit,
   * then come the id size and the time. */
  if (!(has_prefix (data, len, HPROF_MAGIC) && len > n + 1 && g_ascii_isdigit (data[n]) && data[n + 1] == '\0'))
    return STRATA_SNIFF_NO;
  if (len >= n + 2 + 12 && !head_records_plausible (data, len, n + 2 + 12, error))
    return STRATA_SNIFF_REFUSED;
  return STRATA_SNIFF_YES;
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
