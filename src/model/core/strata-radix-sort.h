/* strata-radix-sort.h: a stable sort of 64-bit values by their high bits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void strata_radix_sort_u64 (guint64 *values,
                            gsize    n,
                            guint    low_bit);
void strata_radix_sort_pairs (guint64 *keys,
                              guint32 *items,
                              gsize    n);

G_END_DECLS
