/* strata-leb128.h: LEB128 numbers, as DWARF and ART's traces write them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A 64-bit number takes at most ten bytes. */
#define STRATA_LEB128_MAX_BYTES 10

/* Reads one unsigned number at *@p and moves past it; FALSE (and *@p
 * somewhere before @end) when it does not end before @end. */
static inline gboolean
strata_read_uleb128 (const guint8 **p,
                     const guint8  *end,
                     guint64       *value)
{
  guint64 result = 0;

  for (guint shift = 0; shift < 7 * STRATA_LEB128_MAX_BYTES && *p < end; shift += 7)
    {
      guint8 byte = *(*p)++;

      result |= shift < 64 ? (guint64) (byte & 0x7f) << shift : 0;
      if (!(byte & 0x80))
        {
          *value = result;
          return TRUE;
        }
    }
  return FALSE;
}

/* The same for a signed number, its sign in the last byte's bit 6. */
static inline gboolean
strata_read_sleb128 (const guint8 **p,
                     const guint8  *end,
                     gint64        *value)
{
  guint64 result = 0;
  guint shift = 0;

  while (shift < 7 * STRATA_LEB128_MAX_BYTES && *p < end)
    {
      guint8 byte = *(*p)++;

      result |= shift < 64 ? (guint64) (byte & 0x7f) << shift : 0;
      shift += 7;
      if (!(byte & 0x80))
        {
          if (shift < 64 && (byte & 0x40))
            result |= ~(guint64) 0 << shift;
          *value = (gint64) result;
          return TRUE;
        }
    }
  return FALSE;
}

G_END_DECLS
