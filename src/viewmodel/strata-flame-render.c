/* strata-flame-render.c: drawing a call tree as a flame graph with Cairo, no GTK
 *
 * Each node is a bar as wide as its total time on the clock shown, its
 * children side by side under it (an icicle), or over it (a flame). Only
 * bars a pixel wide or more are drawn: what is narrower stays inside its
 * parent's bar, so a frame costs the bars on screen, not the tree. The
 * widget, the image export and the benchmark draw through here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "strata-flame-render.h"
#include "strata-units.h"

#define LABEL_MIN_WIDTH 36
#define MAX_LABELS 8192
#define SELECTION_MIN_WIDTH 10

double
strata_flame_view_row_y (const StrataFlameView *view,
                         guint                  row,
                         int                    height)
{
  return view->flame ? height - (double) (row + 1) * STRATA_FLAME_ROW_HEIGHT : (double) row * STRATA_FLAME_ROW_HEIGHT;
}

/* Whether @node is @ancestor or under it; @steps: how far down. */
static gboolean
is_under (StrataCallTree *tree,
          guint32         node,
          guint32         ancestor,
          guint          *steps)
{
  *steps = 0;
  for (; node != ancestor; (*steps)++)
    {
      if (node == STRATA_CALL_TREE_ROOT)
        return FALSE;
      node = strata_call_tree_get_parent (tree, node);
    }
  return TRUE;
}

/**
 * strata_flame_view_bar_extent:
 *
 * Where @node's bar is at @width, as strata_flame_render() draws it: its
 * left edge, width and row from the top of the tree.
 *
 * Returns: whether it is drawn (under the zoom, or one of its callers,
 *   and not left inside a parent for being under a pixel wide)
 */
gboolean
strata_flame_view_bar_extent (const StrataFlameView *view,
                              guint32                node,
                              int                    width,
                              double                *x,
                              double                *bar_width,
                              guint                 *row)
{
  guint zoom_depth, steps;
  g_autofree guint32 *path = NULL;
  gint64 whole;
  double scale;

  if (view->tree == NULL || node >= strata_call_tree_get_n_nodes (view->tree) || width <= 0)
    return FALSE;
  zoom_depth = strata_call_tree_get_depth (view->tree, view->zoom);
  /* A caller of the zoomed node: full width. */
  if (is_under (view->tree, view->zoom, node, &steps))
    {
      *x = 0;
      *bar_width = width;
      *row = zoom_depth - steps;
      return TRUE;
    }
  whole = strata_call_tree_get_total (view->tree, view->zoom, view->clock);
  if (!is_under (view->tree, node, view->zoom, &steps) || whole <= 0)
    return FALSE;
  path = g_new (guint32, steps + 1);
  for (guint i = steps + 1; i > 0; i--, node = strata_call_tree_get_parent (view->tree, node))
    path[i - 1] = node;
  scale = (double) width / whole;
  *x = 0;
  *bar_width = width;
  for (guint i = 1; i <= steps; i++)
    {
      guint32 first = strata_call_tree_get_first_child (view->tree, path[i - 1]);

      for (guint32 c = first; c < path[i]; c++)
        *x += MAX (strata_call_tree_get_total (view->tree, c, view->clock) * scale, 0);
      *bar_width = strata_call_tree_get_total (view->tree, path[i], view->clock) * scale;
      if (*bar_width < 1)
        return FALSE;
    }
  *row = zoom_depth + steps;
  return TRUE;
}

static gboolean
is_light (const StrataColor *color)
{
  return 0.299 * color->red + 0.587 * color->green + 0.114 * color->blue > 0.6;
}

/* The baseline's clock for the one shown, or G_MAXUINT when it has none. */
guint
strata_flame_view_baseline_clock (const StrataFlameView *view)
{
  for (guint c = 0; view->comparison != NULL && c < strata_comparison_get_n_clocks (view->comparison); c++)
    if (strata_comparison_get_clock (view->comparison, STRATA_SIDE_CURRENT, c) == view->clock)
      return strata_comparison_get_clock (view->comparison, STRATA_SIDE_BASELINE, c);
  return G_MAXUINT;
}

gboolean
strata_flame_view_is_differential (const StrataFlameView *view)
{
  return view->match != NULL && strata_flame_view_baseline_clock (view) != G_MAXUINT;
}

/* Self time on the baseline's node of @node's path; 0 where it has none. */
gint64
strata_flame_view_baseline_self (const StrataFlameView *view,
                                 guint32                node)
{
  guint32 other = node < view->n_matched ? view->match[node] : STRATA_CALL_TREE_NONE;

  if (other == STRATA_CALL_TREE_NONE)
    return 0;
  return strata_call_tree_get_self (view->baseline, other, strata_flame_view_baseline_clock (view));
}

gint64
strata_flame_view_self_change (const StrataFlameView *view,
                               guint32                node)
{
  return strata_call_tree_get_self (view->tree, node, view->clock) - strata_flame_view_baseline_self (view, node);
}

/* The largest change of self time, either way, that colours are scaled to. */
gint64
strata_flame_view_find_max_change (const StrataFlameView *view)
{
  gint64 most = 0;

  if (!strata_flame_view_is_differential (view))
    return 0;
  for (guint32 node = 1; node < view->n_matched; node++)
    {
      gint64 change = strata_flame_view_self_change (view, node);

      most = MAX (most, change < 0 ? -change : change);
    }
  return most;
}

/* Red for slower, blue for faster, deeper the larger the change; the
 * square root lets small changes show beside a large one. */
static StrataColor
differential_color (const StrataFlameView *view,
                    guint32                node)
{
  static const StrataColor neutral = { 0.86, 0.86, 0.84, 1 };
  static const StrataColor slower = { 0.88, 0.18, 0.15, 1 };
  static const StrataColor faster = { 0.15, 0.40, 0.86, 1 };
  gint64 change = strata_flame_view_self_change (view, node);
  const StrataColor *towards = change > 0 ? &slower : &faster;
  double t = view->max_change > 0 ? sqrt ((double) (change < 0 ? -change : change) / view->max_change) : 0;

  return (StrataColor) {
    neutral.red + (towards->red - neutral.red) * t,
    neutral.green + (towards->green - neutral.green) * t,
    neutral.blue + (towards->blue - neutral.blue) * t,
    1,
  };
}

static StrataColor
bar_color (const StrataFlameView *view,
           guint32                node)
{
  guint32 method = strata_call_tree_get_method (view->tree, node);

  /* The root ("All threads") stays grey: it is not a frame. */
  if (strata_flame_view_is_differential (view) && node != STRATA_CALL_TREE_ROOT)
    return differential_color (view, node);
  if (method != STRATA_CALL_TREE_NONE && view->colors != NULL && view->colors[method] != STRATA_PALETTE_NEUTRAL)
    return *strata_palette_get_color (view->colors[method]);
  return (StrataColor) { 0.75, 0.75, 0.75, 1 };
}

static PangoLayout *
label_for (const StrataFlameView *view,
           PangoLayout           *layout,
           const char            *name,
           int                    text_width,
           PangoLayout          **owned)
{
  g_autofree char *key = NULL;
  g_autofree char *clipped = NULL;
  PangoLayout *label;

  /* A name of megabytes would make a layout, and a key, of gigabytes. */
  name = strata_units_clip_for_display (name, &clipped);
  if (view->labels == NULL)
    {
      *owned = pango_layout_copy (layout);
      pango_layout_set_text (*owned, name, -1);
      pango_layout_set_width (*owned, text_width * PANGO_SCALE);
      return *owned;
    }
  key = g_strdup_printf ("%d|%s", text_width, name);
  if ((label = g_hash_table_lookup (view->labels, key)) == NULL)
    {
      if (g_hash_table_size (view->labels) >= MAX_LABELS)
        g_hash_table_remove_all (view->labels);
      label = pango_layout_copy (layout);
      pango_layout_set_text (label, name, -1);
      pango_layout_set_width (label, text_width * PANGO_SCALE);
      g_hash_table_insert (view->labels, g_steal_pointer (&key), label);
    }
  return label;
}

static void
draw_label (const StrataFlameView *view,
            cairo_t               *cr,
            PangoLayout           *layout,
            guint32                node,
            double                 x,
            double                 y,
            double                 width,
            gboolean               dark_text)
{
  g_autofree char *name = strata_call_tree_dup_name (view->tree, node);
  g_autoptr(PangoLayout) owned = NULL;
  char *signature = strata_call_tree_get_method (view->tree, node) != STRATA_CALL_TREE_NONE ? strstr (name, " (") : NULL;
  PangoLayout *label;

  /* The bar says the method; its signature is in the tooltip. */
  if (signature != NULL)
    *signature = '\0';
  label = label_for (view, layout, name, (int) width - 6, &owned);
  if (dark_text)
    cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
  else
    cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_move_to (cr, x + 3, y + 1);
  if (view->text_sink != NULL)
    {
      StrataTimelineView sink = { .text_sink = view->text_sink, .text_sink_data = view->text_sink_data };

      strata_timeline_show_layout (cr, &sink, label);
    }
  else
    pango_cairo_show_layout (cr, label);
}

/* The accent colour around a white line, seen on any bar; a bar of a few
 * pixels gets a box wide enough to find. */
static void
draw_selection (cairo_t *cr,
                double   x,
                double   y,
                double   width)
{
  if (width < SELECTION_MIN_WIDTH)
    {
      x -= (SELECTION_MIN_WIDTH - width) / 2;
      width = SELECTION_MIN_WIDTH;
    }
  cairo_set_line_width (cr, 3);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_rectangle (cr, x + 1.5, y + 1.5, width - 4, STRATA_FLAME_ROW_HEIGHT - 4);
  cairo_stroke (cr);
  cairo_set_line_width (cr, 2);
  cairo_set_source_rgb (cr, 0.21, 0.52, 0.89);
  cairo_rectangle (cr, x + 1, y + 1, width - 3, STRATA_FLAME_ROW_HEIGHT - 3);
  cairo_stroke (cr);
}

static void
draw_bar (const StrataFlameView *view,
          cairo_t               *cr,
          PangoLayout           *layout,
          guint32                node,
          double                 x,
          double                 y,
          double                 width)
{
  StrataColor color = bar_color (view, node);
  gboolean dim = view->matches != NULL && view->matches[node] == 0;

  cairo_set_source_rgba (cr, color.red, color.green, color.blue, dim ? 0.25 : 1.0);
  cairo_rectangle (cr, x, y, MAX (width - 1, 1), STRATA_FLAME_ROW_HEIGHT - 1);
  cairo_fill (cr);
  if (view->matches != NULL && view->matches[node] == 1)
    {
      cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
      cairo_set_line_width (cr, 2);
      cairo_rectangle (cr, x + 1, y + 1, MAX (width - 3, 1), STRATA_FLAME_ROW_HEIGHT - 3);
      cairo_stroke (cr);
    }
  if (width >= LABEL_MIN_WIDTH)
    draw_label (view, cr, layout, node, x, y, width, is_light (&color) || dim);
  if (node == view->selected)
    draw_selection (cr, x, y, width);
}

static PangoLayout *
create_layout (cairo_t *cr)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string ("Sans 8");

  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (layout, TRUE);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  return layout;
}

/* Callees each under a pixel wide, side by side: one grey bar "…" over
 * them all, so their time is not a blank. */
static guint
draw_elided (cairo_t *cr,
             double   x,
             double   y,
             double   width,
             int      height)
{
  if (width < 1 || y + STRATA_FLAME_ROW_HEIGHT < 0 || y > height)
    return 0;
  cairo_set_source_rgb (cr, 0.72, 0.72, 0.72);
  cairo_rectangle (cr, x, y, MAX (width - 1, 1), STRATA_FLAME_ROW_HEIGHT - 1);
  cairo_fill (cr);
  if (width >= LABEL_MIN_WIDTH)
    {
      cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
      cairo_move_to (cr, x + 3, y + STRATA_FLAME_ROW_HEIGHT - 5);
      cairo_show_text (cr, "…");
    }
  return 1;
}

/* A node's children from @x: those a pixel wide or more on @stack to be
 * drawn, each run of narrower ones as one grey bar. Returns: the grey
 * bars drawn. */
static guint
push_children (const StrataFlameView *view,
               cairo_t               *cr,
               GArray                *stack,
               guint32                first,
               guint32                n,
               double                 x,
               double                 end,
               guint                  row,
               double                 scale,
               int                    height)
{
  double y = strata_flame_view_row_y (view, row, height), run_x = x, run_width = 0;
  guint n_elided = 0;

  for (guint32 c = first; c < first + n && x < end; c++)
    {
      double cw = MAX (strata_call_tree_get_total (view->tree, c, view->clock) * scale, 0);
      double child[3] = { c, x, row };

      if (cw >= 1)
        {
          n_elided += draw_elided (cr, run_x, y, run_width, height);
          g_array_append_val (stack, child);
          run_width = 0;
          run_x = x + cw;
        }
      else
        run_width += cw;
      x += cw;
    }
  return n_elided + draw_elided (cr, run_x, y, run_width, height);
}

/**
 * strata_flame_render:
 *
 * Draws the graph at @width × @height.
 *
 * Returns: how many bars were drawn
 */
guint
strata_flame_render (cairo_t               *cr,
                     const StrataFlameView *view,
                     int                    width,
                     int                    height)
{
  g_autoptr(PangoLayout) layout = NULL;
  g_autoptr(GArray) stack = NULL;
  guint zoom_depth, n_drawn = 0;
  gint64 whole;
  double scale;
  guint32 v;

  if (view->tree == NULL || width <= 0)
    return 0;
  layout = create_layout (cr);
  zoom_depth = strata_call_tree_get_depth (view->tree, view->zoom);
  /* The zoomed node's callers, full width. */
  v = view->zoom;
  for (guint row = zoom_depth; row > 0; row--, n_drawn++)
    {
      v = strata_call_tree_get_parent (view->tree, v);
      draw_bar (view, cr, layout, v, 0, strata_flame_view_row_y (view, row - 1, height), width);
    }
  whole = strata_call_tree_get_total (view->tree, view->zoom, view->clock);
  if (whole <= 0)
    return n_drawn;
  scale = (double) width / whole;
  /* Depth first, each bar with its x and row; a child under a pixel wide
   * is left inside its parent. */
  stack = g_array_new (FALSE, FALSE, sizeof (double) * 3);
  {
    double top[3] = { view->zoom, 0, zoom_depth };

    g_array_append_val (stack, top);
  }
  while (stack->len > 0)
    {
      double *entry = &g_array_index (stack, double, (stack->len - 1) * 3);
      guint32 node = (guint32) entry[0];
      double x = entry[1], end;
      guint row = (guint) entry[2];
      double y = strata_flame_view_row_y (view, row, height), w;
      guint32 first, n;

      g_array_set_size (stack, stack->len - 1);
      w = strata_call_tree_get_total (view->tree, node, view->clock) * scale;
      if (y + STRATA_FLAME_ROW_HEIGHT < 0 || y > height)
        continue;
      draw_bar (view, cr, layout, node, x, y, w);
      n_drawn++;
      first = strata_call_tree_get_first_child (view->tree, node);
      n = strata_call_tree_get_n_children (view->tree, node);
      end = x + w;
      n_drawn += push_children (view, cr, stack, first, n, x, end, row + 1, scale, height);
    }
  return n_drawn;
}
