/* strata-flame-render.h: drawing a call tree as a flame graph with Cairo, no GTK
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>

#include "strata-call-tree.h"
#include "strata-comparison.h"
#include "strata-timeline-render.h"

G_BEGIN_DECLS

#define STRATA_FLAME_ROW_HEIGHT 18

/* Everything one frame of the flame graph depends on. */
typedef struct
{
  StrataCallTree   *tree;
  guint             clock;
  const guint8     *colors;         /* palette index per method, or NULL */
  gboolean          flame;          /* root at the bottom (else an icicle) */
  guint32           zoom;           /* the node as wide as the graph */
  guint32           selected;       /* outlined; STRATA_CALL_TREE_NONE for none */
  const guint8     *matches;        /* per node, with a search: 1 matches, 2 under one */
  GHashTable       *labels;         /* "width|name" → PangoLayout kept between frames; nullable */
  /* Differential: the baseline's node on each node's path. */
  StrataComparison *comparison;
  StrataCallTree   *baseline;
  const guint32    *match;
  guint32           n_matched;
  gint64            max_change;     /* strata_flame_view_find_max_change() */
  StrataTextSink    text_sink;      /* nullable: labels as text, for vector exports */
  gpointer          text_sink_data;
} StrataFlameView;

guint    strata_flame_render               (cairo_t               *cr,
                                            const StrataFlameView *view,
                                            int                    width,
                                            int                    height);
gboolean strata_flame_view_is_differential (const StrataFlameView *view);
gint64   strata_flame_view_baseline_self   (const StrataFlameView *view,
                                            guint32                node);
gint64   strata_flame_view_self_change     (const StrataFlameView *view,
                                            guint32                node);
gint64   strata_flame_view_find_max_change (const StrataFlameView *view);
guint    strata_flame_view_baseline_clock  (const StrataFlameView *view);
double   strata_flame_view_row_y           (const StrataFlameView *view,
                                            guint                  row,
                                            int                    height);
gboolean strata_flame_view_bar_extent      (const StrataFlameView *view,
                                            guint32                node,
                                            int                    width,
                                            double                *x,
                                            double                *bar_width,
                                            guint                 *row);

G_END_DECLS
