/* strata-palette.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-palette.h"

#define RGB(hex) { ((hex) >> 16 & 0xff) / 255., ((hex) >> 8 & 0xff) / 255., ((hex) & 0xff) / 255., 1 }

/* Twenty hues that stay apart from each other in light and dark themes,
 * ordered so neighbours in the round-robin differ most. */
static const StrataColor colors[] = {
  RGB (0x3584e4), RGB (0xe66100), RGB (0x33d17a), RGB (0xc061cb),
  RGB (0xf6d32d), RGB (0x1c71d8), RGB (0xe01b24), RGB (0x26a269),
  RGB (0x9141ac), RGB (0xff7800), RGB (0x62a0ea), RGB (0xa51d2d),
  RGB (0x8ff0a4), RGB (0xdc8add), RGB (0xc64600), RGB (0x99c1f1),
  RGB (0x865e3c), RGB (0x2ec27e), RGB (0xf66151), RGB (0x613583),
};

static const StrataColor neutral = RGB (0x9a9996);

/* Counter series are stacked and sit beside each other in a legend: any
 * two of these differ by 29 or more in CIELAB (ΔE*ab), the first few by
 * more still, where the method palette's two blues differ by 9. */
static const StrataColor series_colors[] = {
  RGB (0x3584e4), RGB (0xf5c211), RGB (0xa51d2d), RGB (0x2ec27e),
  RGB (0xcdab8f), RGB (0xc061cb), RGB (0xff7800), RGB (0x63452c),
  RGB (0x99c1f1), RGB (0xffbe6f), RGB (0x613583), RGB (0xe01b24),
};

guint
strata_palette_get_n_colors (void)
{
  return G_N_ELEMENTS (colors);
}

const StrataColor *
strata_palette_get_color (guint8 index)
{
  if (index == STRATA_PALETTE_NEUTRAL || index >= G_N_ELEMENTS (colors))
    return &neutral;
  return &colors[index];
}

guint
strata_palette_get_n_series_colors (void)
{
  return G_N_ELEMENTS (series_colors);
}

/* The colour of a counter's @series, the same in chart, legend and tooltip. */
const StrataColor *
strata_palette_get_series_color (guint series)
{
  return &series_colors[series % G_N_ELEMENTS (series_colors)];
}

/**
 * strata_palette_assign:
 *
 * Hands colours out as traceview did: in order of inclusive time on
 * @clock, largest first, going round the palette; methods with no time
 * get the neutral colour. The same profile always gets the same colours.
 *
 * Returns: (transfer full): a colour index per method
 */
guint8 *
strata_palette_assign (StrataProfile *profile,
                       guint          clock)
{
  guint n_methods;
  const guint32 *sorted = strata_profile_get_sorted (profile, clock, &n_methods);
  guint8 *assigned = g_malloc (MAX (n_methods, 1));
  guint next = 0;

  for (guint i = 0; i < n_methods; i++)
    {
      guint32 method = sorted[i];

      if (strata_profile_get_entry (profile, method)->inclusive[clock] > 0)
        assigned[method] = next++ % G_N_ELEMENTS (colors);
      else
        assigned[method] = STRATA_PALETTE_NEUTRAL;
    }

  return assigned;
}
