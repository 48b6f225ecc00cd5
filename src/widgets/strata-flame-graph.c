/* strata-flame-graph.c: a call tree drawn as nested bars
 *
 * Each node is a bar as wide as its total time on the clock shown, its
 * children side by side under it (an icicle), or over it (a flame). Only
 * bars a pixel wide or more are drawn: what is narrower stays inside its
 * parent's bar, so a frame costs the bars on screen, not the tree.
 * Zooming into a node makes it the whole width; its callers stay above
 * as full bars, and clicking one zooms back out to it.
 *
 * One bar is selected, outlined: clicked, or reached with the arrow keys
 * (Up and Down to a caller or the widest callee, Left and Right to the
 * bars beside). Enter zooms into it, Escape zooms out a level.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "strata-flame-graph.h"
#include "strata-flame-render.h"
#include "strata-palette.h"

#define ROW_HEIGHT STRATA_FLAME_ROW_HEIGHT

struct _StrataFlameGraph
{
  GtkWidget       parent_instance;

  StrataCallTree *tree;
  guint           clock;
  const guint8   *colors;        /* palette index per method; the session's */
  gboolean        flame;         /* root at the bottom */
  guint32         zoom;
  guint32         selected;      /* STRATA_CALL_TREE_NONE for none */
  guint           zoom_depth;    /* callers of the zoomed node, drawn above it */
  guint           depth_below;   /* levels under the zoomed node */
  char           *search;        /* folded to lower case; NULL for none */
  /* Labels laid out, ellipsized to a width: "width|name" -> PangoLayout.
   * Laying out is most of a frame's work; the same bars come back on
   * every redraw. */
  GHashTable     *labels;
  guint8         *matches;       /* per node, with search: 1 matches, 2 under a match */
  double          search_share;
  guint           n_drawn;
  /* A differential graph: bars coloured by how their self time changed
   * from the baseline's node on the same path (@match, per node). */
  StrataComparison *comparison;
  StrataCallTree *baseline;
  guint32        *match;
  guint32         n_matched;
  gint64          max_change;    /* the largest change of self time, either way */
};

G_DEFINE_FINAL_TYPE (StrataFlameGraph, strata_flame_graph, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_ZOOM,
  PROP_SELECTED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  NODE_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- Layout ---- */

static void
update_extent (StrataFlameGraph *self)
{
  self->zoom_depth = self->tree != NULL ? strata_call_tree_get_depth (self->tree, self->zoom) : 0;
  self->depth_below = self->tree != NULL ? strata_call_tree_get_depth_below (self->tree, self->zoom) : 0;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/* ---- Drawing ---- */

static StrataFlameView
view_of (StrataFlameGraph *self)
{
  return (StrataFlameView) {
    .tree = self->tree, .clock = self->clock, .colors = self->colors, .flame = self->flame,
    .zoom = self->zoom, .selected = self->selected, .matches = self->matches, .labels = self->labels,
    .comparison = self->comparison, .baseline = self->baseline, .match = self->match,
    .n_matched = self->n_matched, .max_change = self->max_change,
  };
}

static gboolean
is_differential (StrataFlameGraph *self)
{
  StrataFlameView view = view_of (self);

  return strata_flame_view_is_differential (&view);
}

static void
find_max_change (StrataFlameGraph *self)
{
  StrataFlameView view = view_of (self);

  self->max_change = strata_flame_view_find_max_change (&view);
}

/**
 * strata_flame_graph_draw:
 *
 * Draws the graph at @width × @height; also what the benchmark times.
 */
void
strata_flame_graph_draw (StrataFlameGraph *self,
                         cairo_t          *cr,
                         int               width,
                         int               height)
{
  StrataFlameView view = view_of (self);

  self->n_drawn = strata_flame_render (cr, &view, width, height);
}

/* The part of the graph its scrolled window shows: a graph 100,000
 * levels deep is 1.6 million pixels tall, and a cairo node that size
 * took gigabytes to render. */
static graphene_rect_t
visible_bounds (GtkWidget *widget,
                int        width,
                int        height)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, width, height);
  graphene_rect_t shown;

  if (scrolled != NULL && gtk_widget_compute_bounds (scrolled, widget, &shown) &&
      !graphene_rect_intersection (&bounds, &shown, &bounds))
    bounds = GRAPHENE_RECT_INIT (0, 0, 0, 0);
  return bounds;
}

static void
strata_flame_graph_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  StrataFlameGraph *self = STRATA_FLAME_GRAPH (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  graphene_rect_t bounds = visible_bounds (widget, width, height);
  cairo_t *cr;

  if (bounds.size.width <= 0 || bounds.size.height <= 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &bounds);

  strata_flame_graph_draw (self, cr, width, height);
  cairo_destroy (cr);
}

static void
strata_flame_graph_measure (GtkWidget      *widget,
                            GtkOrientation  orientation,
                            int             for_size,
                            int            *minimum,
                            int            *natural,
                            int            *minimum_baseline,
                            int            *natural_baseline)
{
  StrataFlameGraph *self = STRATA_FLAME_GRAPH (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = 200;
  else
    *minimum = *natural = (int) (self->zoom_depth + self->depth_below + 1) * ROW_HEIGHT;
}

/* ---- Pointing ---- */

/**
 * strata_flame_graph_node_at:
 *
 * Returns: the node whose bar is at @x, @y, or %STRATA_CALL_TREE_NONE
 */
guint32
strata_flame_graph_node_at (StrataFlameGraph *self,
                            double            x,
                            double            y)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self)), height = gtk_widget_get_height (GTK_WIDGET (self));
  guint row;
  guint32 node;
  double left = 0, scale;
  gint64 whole;

  if (self->tree == NULL || width <= 0 || y < 0)
    return STRATA_CALL_TREE_NONE;
  row = self->flame ? (guint) ((height - y) / ROW_HEIGHT) : (guint) (y / ROW_HEIGHT);
  if (row < self->zoom_depth)
    {
      node = self->zoom;
      for (guint r = self->zoom_depth; r > row; r--)
        node = strata_call_tree_get_parent (self->tree, node);
      return node;
    }
  whole = strata_call_tree_get_total (self->tree, self->zoom, self->clock);
  if (whole <= 0)
    return STRATA_CALL_TREE_NONE;
  scale = (double) width / whole;
  node = self->zoom;
  for (guint r = self->zoom_depth; r < row; r++)
    {
      guint32 first = strata_call_tree_get_first_child (self->tree, node);
      guint32 n = strata_call_tree_get_n_children (self->tree, node), found = STRATA_CALL_TREE_NONE;

      for (guint32 c = first; c < first + n; c++)
        {
          double w = strata_call_tree_get_total (self->tree, c, self->clock) * scale;

          if (x >= left && x < left + w && w >= 1)
            {
              found = c;
              break;
            }
          left += MAX (w, 0);
        }
      if (found == STRATA_CALL_TREE_NONE)
        return STRATA_CALL_TREE_NONE;
      node = found;
    }
  return x >= 0 && x < width ? node : STRATA_CALL_TREE_NONE;
}

/* "Baseline: total …, self …" and the change of self time. */
static char *
describe_baseline (StrataFlameGraph *self,
                   guint32           node)
{
  StrataFlameView view = view_of (self);
  StrataTrace *trace = strata_call_tree_get_trace (self->tree);
  guint32 other = node < self->n_matched ? self->match[node] : STRATA_CALL_TREE_NONE;
  gint64 change = strata_flame_view_self_change (&view, node);
  gint64 before = strata_flame_view_baseline_self (&view, node);
  g_autofree char *change_text = strata_trace_format_weight (trace, self->clock, change < 0 ? -change : change, FALSE);
  g_autofree char *total_text = NULL, *self_text = NULL;

  if (other == STRATA_CALL_TREE_NONE)
    /* Translators: a call path the baseline file does not have */
    return g_strdup (_("Not in the baseline"));
  total_text = strata_trace_format_weight (trace, self->clock,
                                           strata_call_tree_get_total (self->baseline, other,
                                                                       strata_flame_view_baseline_clock (&view)), FALSE);
  self_text = strata_trace_format_weight (trace, self->clock, before, FALSE);
  /* Translators: the same call path in the baseline file: its total and self
   * time, then how the self time changed, e.g. "+1.2 ms (+15.0%)" */
  return g_strdup_printf (_("Baseline: total %s, self %s\nSelf time change: %s%s (%s%.1f%%)"),
                          total_text, self_text, change < 0 ? "-" : "+", change_text,
                          change < 0 ? "-" : "+", before > 0 ? 100.0 * ABS (change) / before : 100.0);
}


/* The bar's path, total, share and self; the baseline's, when there is one. */
static char *
describe_bar (StrataFlameGraph *self,
              guint32           node)
{
  gint64 total, own, whole;
  StrataTrace *trace;
  g_autofree char *path = NULL, *total_text = NULL, *self_text = NULL, *text = NULL;

  trace = strata_call_tree_get_trace (self->tree);
  total = strata_call_tree_get_total (self->tree, node, self->clock);
  own = strata_call_tree_get_self (self->tree, node, self->clock);
  whole = strata_call_tree_get_total (self->tree, STRATA_CALL_TREE_ROOT, self->clock);
  path = strata_call_tree_dup_display_path (self->tree, node, "\n→ ");
  total_text = strata_trace_format_weight (trace, self->clock, total, FALSE);
  self_text = strata_trace_format_weight (trace, self->clock, own, FALSE);
  /* Translators: a call path (several lines), then its total time, its share and its self time */
  text = g_strdup_printf (_("%s\n\nTotal: %s (%.1f%%)\nSelf: %s"), path, total_text,
                          whole > 0 ? 100.0 * total / whole : 0.0, self_text);
  if (is_differential (self))
    {
      g_autofree char *before = describe_baseline (self, node);

      return g_strconcat (text, "\n", before, NULL);
    }
  return g_steal_pointer (&text);
}

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    data)
{
  StrataFlameGraph *self = STRATA_FLAME_GRAPH (widget);
  guint32 node = keyboard ? self->selected : strata_flame_graph_node_at (self, x, y);
  g_autofree char *text = NULL;

  if (node == STRATA_CALL_TREE_NONE || self->tree == NULL)
    return FALSE;
  text = describe_bar (self, node);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
pressed_cb (GtkGestureClick  *gesture,
            int               n_press,
            double            x,
            double            y,
            StrataFlameGraph *self)
{
  guint32 node = strata_flame_graph_node_at (self, x, y);

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (node == STRATA_CALL_TREE_NONE)
    return;
  strata_flame_graph_zoom_to (self, node);
  strata_flame_graph_set_selected (self, node);
  g_signal_emit (self, signals[NODE_ACTIVATED], 0, node);
}

/* ---- Keys ---- */

/* The selected bar, when drawn: its extent at the widget's width. */
static gboolean
selected_extent (StrataFlameGraph *self,
                 double           *x,
                 double           *width,
                 guint            *row)
{
  StrataFlameView view = view_of (self);

  return self->selected != STRATA_CALL_TREE_NONE &&
         strata_flame_view_bar_extent (&view, self->selected, gtk_widget_get_width (GTK_WIDGET (self)), x, width, row);
}

/* Whether @node is a caller of the zoomed node (drawn full width above
 * it); *@toward: its callee on the way to it. */
static gboolean
above_zoom (StrataFlameGraph *self,
            guint32           node,
            guint32          *toward)
{
  for (guint32 v = self->zoom; v != STRATA_CALL_TREE_ROOT; v = strata_call_tree_get_parent (self->tree, v))
    if (strata_call_tree_get_parent (self->tree, v) == node)
      {
        *toward = v;
        return TRUE;
      }
  return FALSE;
}

/* The width of @node's bar, drawn or not. */
static double
bar_width (StrataFlameGraph *self,
           guint32           node)
{
  gint64 whole = strata_call_tree_get_total (self->tree, self->zoom, self->clock);

  return whole > 0 ? (double) gtk_widget_get_width (GTK_WIDGET (self)) * strata_call_tree_get_total (self->tree, node, self->clock) / whole
                   : 0;
}

/* The widest of the drawn @node's callees drawn, or NONE: a pixel wide
 * or more, or above the zoom, the one on the way to it. */
static guint32
widest_callee (StrataFlameGraph *self,
               guint32           node)
{
  guint32 first = strata_call_tree_get_first_child (self->tree, node);
  guint32 n = strata_call_tree_get_n_children (self->tree, node), widest = STRATA_CALL_TREE_NONE;
  double widest_width = 0;

  if (above_zoom (self, node, &widest))
    return widest;
  for (guint32 c = first; c < first + n; c++)
    {
      double w = bar_width (self, c);

      if (w >= 1 && w > widest_width)
        {
          widest = c;
          widest_width = w;
        }
    }
  return widest;
}

/* The bar drawn beside the drawn @node on its left (@step -1) or right
 * (+1), or NONE. The zoomed bar and its callers have none. */
static guint32
beside (StrataFlameGraph *self,
        guint32           node,
        int               step)
{
  guint32 parent, first, end, toward;

  if (node == self->zoom || above_zoom (self, node, &toward))
    return STRATA_CALL_TREE_NONE;
  parent = strata_call_tree_get_parent (self->tree, node);
  first = strata_call_tree_get_first_child (self->tree, parent);
  end = first + strata_call_tree_get_n_children (self->tree, parent);
  for (gint64 c = (gint64) node + step; c >= first && c < end; c += step)
    if (bar_width (self, (guint32) c) >= 1)
      return (guint32) c;
  return STRATA_CALL_TREE_NONE;
}

/* Where an arrow key leads from the selected bar: Up and Down as drawn,
 * a flame's root being at the bottom. Without a bar selected that is
 * drawn, the zoomed one. */
static guint32
arrow_target (StrataFlameGraph *self,
              guint             keyval)
{
  gboolean up = keyval == GDK_KEY_Up || keyval == GDK_KEY_KP_Up;
  gboolean down = keyval == GDK_KEY_Down || keyval == GDK_KEY_KP_Down;
  double x, w;
  guint row;

  if (!selected_extent (self, &x, &w, &row))
    return self->zoom;
  if ((up && !self->flame) || (down && self->flame))
    return self->selected == STRATA_CALL_TREE_ROOT ? STRATA_CALL_TREE_NONE
                                                   : strata_call_tree_get_parent (self->tree, self->selected);
  if (up || down)
    return widest_callee (self, self->selected);
  return beside (self, self->selected, keyval == GDK_KEY_Left || keyval == GDK_KEY_KP_Left ? -1 : 1);
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                StrataFlameGraph      *self)
{
  guint32 target;

  if (self->tree == NULL || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SHIFT_MASK)) != 0)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Up: case GDK_KEY_KP_Up: case GDK_KEY_Down: case GDK_KEY_KP_Down:
    case GDK_KEY_Left: case GDK_KEY_KP_Left: case GDK_KEY_Right: case GDK_KEY_KP_Right:
      if ((target = arrow_target (self, keyval)) != STRATA_CALL_TREE_NONE)
        strata_flame_graph_set_selected (self, target);
      return TRUE;
    case GDK_KEY_Return: case GDK_KEY_KP_Enter: case GDK_KEY_ISO_Enter: case GDK_KEY_space:
      if (self->selected == STRATA_CALL_TREE_NONE)
        return FALSE;
      strata_flame_graph_zoom_to (self, self->selected);
      g_signal_emit (self, signals[NODE_ACTIVATED], 0, self->selected);
      return TRUE;
    case GDK_KEY_Escape:
      if (self->zoom == STRATA_CALL_TREE_ROOT)
        return FALSE;
      strata_flame_graph_zoom_to (self, strata_call_tree_get_parent (self->tree, self->zoom));
      return TRUE;
    default:
      return FALSE;
    }
}

/* The scrolled window's view follows @node's bar; returns whether it is
 * drawn. */
static gboolean
scroll_to_node (StrataFlameGraph *self,
                guint32           node)
{
  GtkWidget *viewport = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_VIEWPORT);
  GtkAdjustment *adjustment = viewport != NULL ? gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (viewport)) : NULL;
  StrataFlameView view = view_of (self);
  double x, w, y;
  guint row;

  if (node == STRATA_CALL_TREE_NONE ||
      !strata_flame_view_bar_extent (&view, node, gtk_widget_get_width (GTK_WIDGET (self)), &x, &w, &row))
    return FALSE;
  y = strata_flame_view_row_y (&view, row, gtk_widget_get_height (GTK_WIDGET (self)));
  if (adjustment != NULL)
    gtk_adjustment_clamp_page (adjustment, y, y + ROW_HEIGHT);
  return TRUE;
}

/* ---- Setup ---- */

static void
strata_flame_graph_dispose (GObject *object)
{
  StrataFlameGraph *self = STRATA_FLAME_GRAPH (object);

  g_clear_object (&self->tree);
  g_clear_object (&self->comparison);
  g_clear_object (&self->baseline);
  g_clear_pointer (&self->match, g_free);
  g_clear_pointer (&self->search, g_free);
  g_clear_pointer (&self->matches, g_free);
  g_clear_pointer (&self->labels, g_hash_table_unref);
  G_OBJECT_CLASS (strata_flame_graph_parent_class)->dispose (object);
}

static void
strata_flame_graph_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  StrataFlameGraph *self = STRATA_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_ZOOM:
      g_value_set_uint (value, self->zoom);
      break;

    case PROP_SELECTED:
      g_value_set_uint (value, self->selected);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strata_flame_graph_class_init (StrataFlameGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strata_flame_graph_dispose;
  object_class->get_property = strata_flame_graph_get_property;
  widget_class->snapshot = strata_flame_graph_snapshot;
  widget_class->measure = strata_flame_graph_measure;

  properties[PROP_ZOOM] =
    g_param_spec_uint ("zoom", NULL, NULL, 0, G_MAXUINT32, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_SELECTED] =
    g_param_spec_uint ("selected", NULL, NULL, 0, G_MAXUINT32, STRATA_CALL_TREE_NONE,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * StrataFlameGraph::node-activated:
   * @node: the node clicked (and zoomed into)
   */
  signals[NODE_ACTIVATED] =
    g_signal_new ("node-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);
  gtk_widget_class_set_css_name (widget_class, "flamegraph");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
strata_flame_graph_init (StrataFlameGraph *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *keys = gtk_event_controller_key_new ();

  self->selected = STRATA_CALL_TREE_NONE;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
  self->labels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
}

GtkWidget *
strata_flame_graph_new (void)
{
  return g_object_new (STRATA_TYPE_FLAME_GRAPH, NULL);
}

/* A call tree; the graph starts zoomed out, with no bar selected. Given
 * the tree it has, it keeps both. */
void
strata_flame_graph_set_tree (StrataFlameGraph *self,
                             StrataCallTree   *tree)
{
  g_autofree char *search = NULL;

  g_return_if_fail (STRATA_IS_FLAME_GRAPH (self));

  if (tree == self->tree)
    {
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  g_set_object (&self->tree, tree);
  /* The baseline's nodes were matched to the tree before. */
  g_clear_object (&self->baseline);
  g_clear_pointer (&self->match, g_free);
  self->n_matched = 0;
  g_hash_table_remove_all (self->labels);
  self->zoom = STRATA_CALL_TREE_ROOT;
  self->selected = STRATA_CALL_TREE_NONE;
  search = g_steal_pointer (&self->search);
  strata_flame_graph_set_search (self, search);
  update_extent (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

StrataCallTree *
strata_flame_graph_get_tree (StrataFlameGraph *self)
{
  g_return_val_if_fail (STRATA_IS_FLAME_GRAPH (self), NULL);

  return self->tree;
}

void
strata_flame_graph_set_clock (StrataFlameGraph *self,
                              guint             clock)
{
  g_return_if_fail (STRATA_IS_FLAME_GRAPH (self));

  self->clock = clock;
  find_max_change (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * strata_flame_graph_set_baseline:
 * @comparison: (nullable): the trace against its baseline; %NULL for the
 *   method colours again
 * @baseline: (nullable): the baseline's tree, shaped as the one shown
 * @match: (transfer full) (nullable): per node of the tree shown, the
 *   baseline's node on the same path (strata_call_tree_match_nodes())
 *
 * Makes the graph differential: bars coloured by the change of their self
 * time, red for slower, blue for faster; the tooltip gives both.
 */
void
strata_flame_graph_set_baseline (StrataFlameGraph *self,
                                 StrataComparison *comparison,
                                 StrataCallTree   *baseline,
                                 guint32          *match)
{
  g_return_if_fail (STRATA_IS_FLAME_GRAPH (self));

  g_set_object (&self->comparison, comparison);
  g_set_object (&self->baseline, baseline);
  g_free (self->match);
  self->match = match;
  self->n_matched = match != NULL && self->tree != NULL ? strata_call_tree_get_n_nodes (self->tree) : 0;
  find_max_change (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
strata_flame_graph_get_differential (StrataFlameGraph *self)
{
  g_return_val_if_fail (STRATA_IS_FLAME_GRAPH (self), FALSE);

  return is_differential (self);
}

/* @colors: (nullable): a palette index per method, as the timeline's */
void
strata_flame_graph_set_colors (StrataFlameGraph *self,
                               const guint8     *colors)
{
  g_return_if_fail (STRATA_IS_FLAME_GRAPH (self));

  self->colors = colors;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* @flame: the root at the bottom (a flame graph) or at the top (icicle) */
void
strata_flame_graph_set_flame (StrataFlameGraph *self,
                              gboolean          flame)
{
  g_return_if_fail (STRATA_IS_FLAME_GRAPH (self));

  flame = !!flame;
  if (self->flame == flame)
    return;
  self->flame = flame;
  /* The bar in view stays in view: the selected one, else the zoomed one,
   * at the other end now. */
  if (!scroll_to_node (self, self->selected))
    scroll_to_node (self, self->zoom);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
strata_flame_graph_get_flame (StrataFlameGraph *self)
{
  g_return_val_if_fail (STRATA_IS_FLAME_GRAPH (self), FALSE);

  return self->flame;
}

void
strata_flame_graph_zoom_to (StrataFlameGraph *self,
                            guint32           node)
{
  g_return_if_fail (STRATA_IS_FLAME_GRAPH (self));

  if (self->tree == NULL || node >= strata_call_tree_get_n_nodes (self->tree) || node == self->zoom)
    return;
  self->zoom = node;
  update_extent (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * strata_flame_graph_set_selected:
 * @node: the bar to outline, or %STRATA_CALL_TREE_NONE
 *
 * Selects a bar and scrolls to it; a screen reader hears what it holds.
 */
void
strata_flame_graph_set_selected (StrataFlameGraph *self,
                                 guint32           node)
{
  g_autofree char *text = NULL;

  g_return_if_fail (STRATA_IS_FLAME_GRAPH (self));

  if (self->tree == NULL || (node != STRATA_CALL_TREE_NONE && node >= strata_call_tree_get_n_nodes (self->tree)))
    node = STRATA_CALL_TREE_NONE;
  if (node == self->selected)
    return;
  self->selected = node;
  if (node != STRATA_CALL_TREE_NONE)
    {
      text = describe_bar (self, node);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
      scroll_to_node (self, node);
    }
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint32
strata_flame_graph_get_selected (StrataFlameGraph *self)
{
  g_return_val_if_fail (STRATA_IS_FLAME_GRAPH (self), STRATA_CALL_TREE_NONE);

  return self->selected;
}

guint32
strata_flame_graph_get_zoom (StrataFlameGraph *self)
{
  g_return_val_if_fail (STRATA_IS_FLAME_GRAPH (self), STRATA_CALL_TREE_ROOT);

  return self->zoom;
}

/* Whether the name of each method, and of each thread's node, holds
 * @needle (folded). */
static guint8 *
match_nodes (StrataCallTree *tree,
             const char     *needle)
{
  StrataTrace *trace = strata_call_tree_get_trace (tree);
  guint n_methods = strata_trace_get_n_methods (trace);
  guint32 n = strata_call_tree_get_n_nodes (tree);
  g_autofree guint8 *method_matches = g_new0 (guint8, MAX (n_methods, 1));
  guint8 *matches = g_new0 (guint8, MAX (n, 1));

  for (guint m = 0; m < n_methods; m++)
    {
      g_autofree char *folded = g_utf8_casefold (strata_trace_get_method_name (trace, m), -1);

      method_matches[m] = strstr (folded, needle) != NULL;
    }
  /* Breadth first: a node's parent is decided before it. */
  for (guint32 v = 1; v < n; v++)
    {
      guint32 method = strata_call_tree_get_method (tree, v);
      guint32 parent = strata_call_tree_get_parent (tree, v);

      if (method != STRATA_CALL_TREE_NONE ? method_matches[method] : FALSE)
        matches[v] = 1;
      else if (method == STRATA_CALL_TREE_NONE)
        {
          g_autofree char *name = strata_call_tree_dup_name (tree, v);
          g_autofree char *folded = g_utf8_casefold (name, -1);

          matches[v] = strstr (folded, needle) != NULL;
        }
      if (matches[v] == 0 && parent != STRATA_CALL_TREE_ROOT && matches[parent] != 0)
        matches[v] = 2;
    }
  return matches;
}

/**
 * strata_flame_graph_set_search:
 * @text: (nullable): part of a method's name, any case; %NULL or "" for none
 *
 * Outlines the bars whose method matches and dims the rest but those
 * under a match; strata_flame_graph_get_search_share() gives the share of
 * the time spent under a match.
 */
void
strata_flame_graph_set_search (StrataFlameGraph *self,
                               const char       *text)
{
  g_return_if_fail (STRATA_IS_FLAME_GRAPH (self));

  g_clear_pointer (&self->search, g_free);
  g_clear_pointer (&self->matches, g_free);
  self->search_share = 0;
  if (text != NULL && *text != '\0')
    self->search = g_utf8_casefold (text, -1);
  if (self->search != NULL && self->tree != NULL)
    {
      gint64 whole = strata_call_tree_get_total (self->tree, STRATA_CALL_TREE_ROOT, self->clock), under = 0;

      self->matches = match_nodes (self->tree, self->search);
      for (guint32 v = 1; v < strata_call_tree_get_n_nodes (self->tree); v++)
        if (self->matches[v] == 1 && self->matches[strata_call_tree_get_parent (self->tree, v)] == 0)
          under += strata_call_tree_get_total (self->tree, v, self->clock);
      self->search_share = whole > 0 ? (double) under / whole : 0;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Of the time shown, the share under a bar that matches the search. */
double
strata_flame_graph_get_search_share (StrataFlameGraph *self)
{
  g_return_val_if_fail (STRATA_IS_FLAME_GRAPH (self), 0);

  return self->search_share;
}

/* Bars drawn by the last frame; for tests and the benchmark. */
guint
strata_flame_graph_draw_count (StrataFlameGraph *self)
{
  g_return_val_if_fail (STRATA_IS_FLAME_GRAPH (self), 0);

  return self->n_drawn;
}
