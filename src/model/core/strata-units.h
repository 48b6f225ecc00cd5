/* strata-units.h: durations, counts and names as people read them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *strata_units_format_duration (gint64  ns);
char *strata_units_format_exact    (gint64  ns);
char *strata_units_format_percent  (gint64  part,
                                    gint64  total);
char *strata_units_format_count    (guint64 count);
char *strata_units_format_size     (double   bytes);
char *strata_units_format_quantity (double   value,
                                    gboolean bytes);

/* Samples (HPROF CPU samples) are laid out as this many ns each. */
#define STRATA_UNITS_NS_PER_SAMPLE G_GINT64_CONSTANT (1000000)

char *strata_units_format_samples       (gint64  ns);
char *strata_units_format_samples_exact (gint64  ns);

/* Names longer than this are clipped wherever they are shown. */
#define STRATA_UNITS_DISPLAY_MAX 1024

const char *strata_units_clip_for_display (const char  *text,
                                           char       **owned);
const char *strata_units_clip_to          (const char  *text,
                                           gsize        max,
                                           char       **owned);

gboolean strata_units_parse_ms_range (const char *text,
                                      double     *from,
                                      double     *to);

G_END_DECLS
