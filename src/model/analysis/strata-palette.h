/* strata-palette.h: traceview's colouring, round-robin by inclusive time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-profile.h"

G_BEGIN_DECLS

/* The colour of methods that took no time. */
#define STRATA_PALETTE_NEUTRAL 0xFF

/* One colour for the palette, the theme and every renderer. */
typedef struct
{
  double red;
  double green;
  double blue;
  double alpha;
} StrataColor;

guint              strata_palette_get_n_colors (void);
const StrataColor *strata_palette_get_color    (guint8         index);
guint              strata_palette_get_n_series_colors (void);
const StrataColor *strata_palette_get_series_color (guint          series);
guint8            *strata_palette_assign       (StrataProfile *profile,
                                                guint          clock);

G_END_DECLS
