/* strata-counter-render.h: a counter track as a stacked area chart, Cairo only
 *
 * Each visible series is stacked on the ones below it; values hold until
 * the next sample (steps). At most one value per pixel column is drawn:
 * the highest top each series reaches in that column, found through a
 * two-level table of block maxima, so a frame costs the same whether the
 * counter holds a thousand samples or ten million.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>

#include "strata-counter.h"
#include "strata-timeline-render.h"

G_BEGIN_DECLS

#define STRATA_COUNTER_TRACK_HEIGHT 64.0
#define STRATA_COUNTER_LEGEND_ROW 15.0
#define STRATA_COUNTER_MAX_SERIES 64

typedef struct _StrataCounterLod StrataCounterLod;

StrataCounterLod *strata_counter_lod_new        (const StrataCounter *counter,
                                                 guint64              hidden);
void              strata_counter_lod_free       (StrataCounterLod    *lod);
guint64           strata_counter_lod_get_hidden (const StrataCounterLod *lod);
void              strata_counter_lod_column_max (const StrataCounterLod *lod,
                                                 gsize                first,
                                                 gsize                last,
                                                 double              *tops);

double            strata_counter_track_height   (const StrataCounter *counter);
const StrataColor *strata_counter_series_color   (guint                series);
gsize             strata_counter_sample_at      (const StrataCounter *counter,
                                                 gint64               time);
gboolean          strata_counter_in_bytes       (StrataTrace         *trace,
                                                 const StrataCounter *counter,
                                                 int                  series);
double            strata_counter_render         (cairo_t             *cr,
                                                 const StrataCounterLod *lod,
                                                 const StrataTimelineView *view,
                                                 double               x,
                                                 double               y,
                                                 double               width,
                                                 double               height);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataCounterLod, strata_counter_lod_free)

G_END_DECLS
