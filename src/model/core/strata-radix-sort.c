/* strata-radix-sort.c: a stable sort of 64-bit values by their high bits
 *
 * Millions of (key, place) pairs are ordered by key in a few linear
 * passes where a comparison sort would take seconds of cache misses.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-radix-sort.h"

#define DIGIT_BITS 16
#define N_DIGITS (1u << DIGIT_BITS)

/**
 * strata_radix_sort_u64:
 * @low_bit: the bits below it are not compared: values equal above it
 *   keep their order (a place kept there stays in order)
 *
 * Sorts @values in place, 16 bits a pass from @low_bit up, skipping the
 * digits every value shares.
 */
void
strata_radix_sort_u64 (guint64 *values,
                       gsize    n,
                       guint    low_bit)
{
  g_autofree guint64 *spare = NULL;
  g_autofree gsize *counts = NULL;
  guint64 varying = 0, *from = values, *to;

  for (gsize i = 1; i < n; i++)
    varying |= values[i] ^ values[0];
  if ((varying >> low_bit) == 0)
    return;
  to = spare = g_new (guint64, n);
  counts = g_new (gsize, N_DIGITS);
  for (guint digit = low_bit; digit < 64; digit += DIGIT_BITS)
    {
      gsize sum = 0;

      if (((varying >> digit) & (N_DIGITS - 1)) == 0)
        continue;
      memset (counts, 0, N_DIGITS * sizeof (gsize));
      for (gsize i = 0; i < n; i++)
        counts[(from[i] >> digit) & (N_DIGITS - 1)]++;
      for (guint d = 0; d < N_DIGITS; d++)
        {
          gsize c = counts[d];

          counts[d] = sum;
          sum += c;
        }
      for (gsize i = 0; i < n; i++)
        to[counts[(from[i] >> digit) & (N_DIGITS - 1)]++] = from[i];
      {
        guint64 *swap = from;

        from = to;
        to = swap;
      }
    }
  if (from != values)
    memcpy (values, from, n * sizeof (guint64));
}

/**
 * strata_radix_sort_pairs:
 * @keys: what @items are ordered by; sorted along with them
 * @items: one per key
 *
 * Sorts @items by @keys, all 64 bits, keeping the order of equal keys:
 * for keys too wide to share a word with their item.
 */
void
strata_radix_sort_pairs (guint64 *keys,
                         guint32 *items,
                         gsize    n)
{
  g_autofree guint64 *spare_keys = NULL;
  g_autofree guint32 *spare_items = NULL;
  g_autofree gsize *counts = NULL;
  guint64 varying = 0, *from = keys, *to;
  guint32 *from_items = items, *to_items;

  for (gsize i = 1; i < n; i++)
    varying |= keys[i] ^ keys[0];
  if (varying == 0)
    return;
  to = spare_keys = g_new (guint64, n);
  to_items = spare_items = g_new (guint32, n);
  counts = g_new (gsize, N_DIGITS);
  for (guint digit = 0; digit < 64; digit += DIGIT_BITS)
    {
      gsize sum = 0;

      if (((varying >> digit) & (N_DIGITS - 1)) == 0)
        continue;
      memset (counts, 0, N_DIGITS * sizeof (gsize));
      for (gsize i = 0; i < n; i++)
        counts[(from[i] >> digit) & (N_DIGITS - 1)]++;
      for (guint d = 0; d < N_DIGITS; d++)
        {
          gsize c = counts[d];

          counts[d] = sum;
          sum += c;
        }
      for (gsize i = 0; i < n; i++)
        {
          gsize at = counts[(from[i] >> digit) & (N_DIGITS - 1)]++;

          to[at] = from[i];
          to_items[at] = from_items[i];
        }
      {
        guint64 *swap = from;
        guint32 *swap_items = from_items;

        from = to;
        to = swap;
        from_items = to_items;
        to_items = swap_items;
      }
    }
  if (from != keys)
    {
      memcpy (keys, from, n * sizeof (guint64));
      memcpy (items, from_items, n * sizeof (guint32));
    }
}
