/* strata-flame-graph.h: a call tree drawn as nested bars
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-call-tree.h"
#include "strata-comparison.h"

G_BEGIN_DECLS

#define STRATA_TYPE_FLAME_GRAPH (strata_flame_graph_get_type ())

G_DECLARE_FINAL_TYPE (StrataFlameGraph, strata_flame_graph, STRATA, FLAME_GRAPH, GtkWidget)

GtkWidget      *strata_flame_graph_new          (void);
void            strata_flame_graph_set_tree     (StrataFlameGraph *self,
                                                 StrataCallTree   *tree);
StrataCallTree *strata_flame_graph_get_tree     (StrataFlameGraph *self);
void            strata_flame_graph_set_clock    (StrataFlameGraph *self,
                                                 guint             clock);
void            strata_flame_graph_set_colors   (StrataFlameGraph *self,
                                                 const guint8     *colors);
void            strata_flame_graph_set_flame    (StrataFlameGraph *self,
                                                 gboolean          flame);
gboolean        strata_flame_graph_get_flame    (StrataFlameGraph *self);
void            strata_flame_graph_zoom_to      (StrataFlameGraph *self,
                                                 guint32           node);
guint32         strata_flame_graph_get_zoom     (StrataFlameGraph *self);
void            strata_flame_graph_set_selected (StrataFlameGraph *self,
                                                 guint32           node);
guint32         strata_flame_graph_get_selected (StrataFlameGraph *self);
void            strata_flame_graph_set_search   (StrataFlameGraph *self,
                                                 const char       *text);
double          strata_flame_graph_get_search_share (StrataFlameGraph *self);
guint32         strata_flame_graph_node_at      (StrataFlameGraph *self,
                                                 double            x,
                                                 double            y);
guint           strata_flame_graph_draw_count   (StrataFlameGraph *self);
void            strata_flame_graph_draw         (StrataFlameGraph *self,
                                                 cairo_t          *cr,
                                                 int               width,
                                                 int               height);

void            strata_flame_graph_set_baseline (StrataFlameGraph *self,
                                                 StrataComparison *comparison,
                                                 StrataCallTree   *baseline,
                                                 guint32          *match);
gboolean        strata_flame_graph_get_differential (StrataFlameGraph *self);

G_END_DECLS
