/* strata-butterfly-view.c: a function's callers above it, its callees below
 *
 * As speedscope's sandwich view and Firefox Profiler's butterfly: the
 * function in the middle, the paths that called it growing up from it
 * (strata_call_tree_callers_of()), what it called hanging down from it
 * (Focus on Function), each merged over all its calls. Both halves are
 * made off the main thread; a bar activated in either puts its function
 * in the middle.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-butterfly-view.h"
#include "strata-flame-graph.h"
#include "strata-units.h"

struct _StrataButterflyView
{
  GtkWidget       parent_instance;

  StrataSession  *session;
  GtkWidget      *box;
  GtkWidget      *title;
  GtkWidget      *figures;
  GtkWidget      *stack;
  GtkWidget      *status;
  GtkWidget      *callers;         /* StrataFlameGraph, a flame: the function at the bottom */
  GtkWidget      *callees;         /* StrataFlameGraph, an icicle: the function at the top */
  GtkAdjustment  *callers_scroll;  /* kept at the bottom, where the function is */
  guint           bottom_tick;
  GCancellable   *cancellable;
  StrataCallTree *source;          /* the top-down tree both halves come from */
  guint32         code;
  gboolean        ready;
};

G_DEFINE_FINAL_TYPE (StrataButterflyView, strata_butterfly_view, GTK_TYPE_WIDGET)

typedef struct
{
  StrataCallTree *source;
  guint32         code;
  StrataCallTree *callers;
  StrataCallTree *callees;
} Halves;

static void
halves_free (gpointer data)
{
  Halves *halves = data;

  g_clear_object (&halves->source);
  g_clear_object (&halves->callers);
  g_clear_object (&halves->callees);
  g_free (halves);
}

static void
make_halves (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Halves *halves = task_data;
  StrataCallTransform focus = { STRATA_CALL_TRANSFORM_FOCUS_FUNCTION, halves->code, STRATA_CALL_TREE_NONE, NULL, NULL, 0 };
  GError *error = NULL;

  if (!(halves->callers = strata_call_tree_callers_of (halves->source, halves->code, cancellable, &error)) ||
      !(halves->callees = strata_call_tree_transform (halves->source, &focus, cancellable, &error)))
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_boolean (task, TRUE);
}

/* The callers' graph grows upwards from the function: shown from its
 * bottom whatever its height. Set once the viewport is laid out: a value
 * set while it configures the adjustment is put back. */
static gboolean
scroll_to_bottom (GtkWidget     *widget,
                  GdkFrameClock *clock,
                  gpointer       data)
{
  StrataButterflyView *self = data;
  GtkAdjustment *adjustment = self->callers_scroll;

  self->bottom_tick = 0;
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment));
  return G_SOURCE_REMOVE;
}

static void
keep_at_bottom (StrataButterflyView *self)
{
  if (self->bottom_tick == 0)
    self->bottom_tick = gtk_widget_add_tick_callback (self->callers, scroll_to_bottom, self, NULL);
}

static void
show_figures (StrataButterflyView *self)
{
  StrataCallTree *callers = strata_flame_graph_get_tree (STRATA_FLAME_GRAPH (self->callers));
  guint clock = strata_session_get_clock (self->session);
  guint32 root = strata_call_tree_get_first_child (callers, STRATA_CALL_TREE_ROOT);
  g_autofree char *name = strata_call_tree_dup_name (callers, root);
  g_autofree char *clipped = NULL;
  g_autofree char *time = strata_units_format_duration (strata_call_tree_get_total (callers, root, clock));
  g_autofree char *calls = strata_units_format_count (strata_call_tree_get_calls (callers, root));
  g_autofree char *figures = NULL;

  gtk_label_set_label (GTK_LABEL (self->title), strata_units_clip_for_display (name, &clipped));
  /* Translators: a function's time over all its calls: "1.2 s in 3,456 calls" */
  figures = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s in %s call", "%s in %s calls",
                                          strata_call_tree_get_calls (callers, root)), time, calls);
  gtk_label_set_label (GTK_LABEL (self->figures), figures);
}

static void
halves_made_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(StrataButterflyView) self = user_data;
  g_autoptr(GError) error = NULL;
  Halves *halves = g_task_get_task_data (G_TASK (result));

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    return;  /* cancelled: another function is on its way */
  g_clear_object (&self->cancellable);
  for (guint i = 0; i < 2; i++)
    {
      StrataFlameGraph *graph = STRATA_FLAME_GRAPH (i == 0 ? self->callers : self->callees);

      strata_flame_graph_set_clock (graph, strata_session_get_clock (self->session));
      strata_flame_graph_set_colors (graph, strata_session_get_colors (self->session));
    }
  strata_flame_graph_set_tree (STRATA_FLAME_GRAPH (self->callers), halves->callers);
  strata_flame_graph_set_tree (STRATA_FLAME_GRAPH (self->callees), halves->callees);
  /* The function is where both start: the whole, above it, says nothing. */
  strata_flame_graph_zoom_to (STRATA_FLAME_GRAPH (self->callers),
                              strata_call_tree_get_first_child (halves->callers, STRATA_CALL_TREE_ROOT));
  strata_flame_graph_zoom_to (STRATA_FLAME_GRAPH (self->callees),
                              strata_call_tree_get_first_child (halves->callees, STRATA_CALL_TREE_ROOT));
  show_figures (self);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "halves");
  self->ready = TRUE;
  keep_at_bottom (self);
}

/**
 * strata_butterfly_view_show:
 * @top_down: the tree, after its transforms, the halves are made from
 * @code: the function in the middle, a code of @top_down
 */
void
strata_butterfly_view_show (StrataButterflyView *self,
                            StrataCallTree      *top_down,
                            guint32              code)
{
  g_autoptr(GTask) task = NULL;
  Halves *halves;

  g_return_if_fail (STRATA_IS_BUTTERFLY_VIEW (self));
  g_return_if_fail (STRATA_IS_CALL_TREE (top_down));

  if (top_down == self->source && code == self->code && (self->ready || self->cancellable != NULL))
    return;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_set_object (&self->cancellable, g_cancellable_new ());
  g_set_object (&self->source, top_down);
  self->code = code;
  self->ready = FALSE;
  gtk_label_set_label (GTK_LABEL (self->status), _("Finding the callers and callees…"));
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "status");
  halves = g_new0 (Halves, 1);
  halves->source = g_object_ref (top_down);
  halves->code = code;
  task = g_task_new (self, self->cancellable, halves_made_cb, g_object_ref (self));
  g_task_set_source_tag (task, strata_butterfly_view_show);
  g_task_set_task_data (task, halves, halves_free);
  g_task_run_in_thread (task, make_halves);
}

/* A bar of either half: its function goes in the middle, and is the
 * one selected everywhere. */
static void
bar_activated_cb (GtkWidget           *graph,
                  guint                node,
                  StrataButterflyView *self)
{
  StrataCallTree *tree = strata_flame_graph_get_tree (STRATA_FLAME_GRAPH (graph));
  guint32 code = tree != NULL && node != STRATA_CALL_TREE_ROOT ? strata_call_tree_get_code (tree, node) : STRATA_CALL_TREE_NONE;
  guint32 method = tree != NULL ? strata_call_tree_get_method (tree, node) : STRATA_CALL_TREE_NONE;

  if (code == STRATA_CALL_TREE_NONE || strata_call_tree_get_thread (tree, node) >= 0)
    return;
  if (method != STRATA_CALL_TREE_NONE)
    strata_session_set_selected_method (self->session, method);
  strata_butterfly_view_show (self, self->source, code);
}

static GtkWidget *
half_new (StrataButterflyView  *self,
          const char           *label,
          gboolean              flame,
          GtkWidget           **graph)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  *graph = strata_flame_graph_new ();
  strata_flame_graph_set_flame (STRATA_FLAME_GRAPH (*graph), flame);
  gtk_accessible_update_property (GTK_ACCESSIBLE (*graph), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  g_signal_connect_object (*graph, "node-activated", G_CALLBACK (bar_activated_cb), self, 0);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), *graph);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_viewport_set_scroll_to_focus (GTK_VIEWPORT (gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller))), FALSE);
  /* The graphs draw only what the window shows: scrolled, they draw again. */
  g_signal_connect_object (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)), "value-changed",
                           G_CALLBACK (gtk_widget_queue_draw), *graph, G_CONNECT_SWAPPED);
  gtk_widget_set_size_request (scroller, -1, 80);
  return scroller;
}

static GtkWidget *
build_halves (StrataButterflyView *self)
{
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  GtkWidget *top = half_new (self, _("Callers"), TRUE, &self->callers);
  GtkWidget *bottom = half_new (self, _("Callees"), FALSE, &self->callees);

  self->callers_scroll = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (top));
  g_signal_connect_swapped (self->callers_scroll, "changed", G_CALLBACK (keep_at_bottom), self);
  gtk_paned_set_start_child (GTK_PANED (paned), top);
  gtk_paned_set_end_child (GTK_PANED (paned), bottom);
  gtk_paned_set_wide_handle (GTK_PANED (paned), TRUE);
  gtk_widget_set_vexpand (paned, TRUE);
  return paned;
}

static GtkWidget *
build_header (StrataButterflyView *self)
{
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *callers = gtk_label_new (_("Callers ↑ · Callees ↓"));

  g_object_set (header, "margin-start", 6, "margin-end", 6, "margin-bottom", 4, NULL);
  self->title = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->title, "heading");
  gtk_label_set_ellipsize (GTK_LABEL (self->title), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_xalign (GTK_LABEL (self->title), 0);
  gtk_label_set_selectable (GTK_LABEL (self->title), TRUE);
  self->figures = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->figures, "numeric");
  gtk_widget_set_hexpand (self->figures, TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->figures), 0);
  gtk_widget_add_css_class (callers, "dim-label");
  gtk_box_append (GTK_BOX (header), self->title);
  gtk_box_append (GTK_BOX (header), self->figures);
  gtk_box_append (GTK_BOX (header), callers);
  return header;
}

static void
strata_butterfly_view_dispose (GObject *object)
{
  StrataButterflyView *self = STRATA_BUTTERFLY_VIEW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->bottom_tick != 0)
    gtk_widget_remove_tick_callback (self->callers, self->bottom_tick);
  self->bottom_tick = 0;
  if (self->callers_scroll != NULL)
    g_signal_handlers_disconnect_by_data (self->callers_scroll, self);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->source);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (strata_butterfly_view_parent_class)->dispose (object);
}

static void
strata_butterfly_view_class_init (StrataButterflyViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = strata_butterfly_view_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "butterflyview");
}

static void
strata_butterfly_view_init (StrataButterflyView *self)
{
  GtkWidget *halves = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  self->code = STRATA_CALL_TREE_NONE;
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_box_append (GTK_BOX (halves), build_header (self));
  gtk_box_append (GTK_BOX (halves), build_halves (self));
  self->status = gtk_label_new (_("Select a function in the tree or flame graph to see who calls it and what it calls."));
  gtk_label_set_wrap (GTK_LABEL (self->status), TRUE);
  gtk_widget_add_css_class (self->status, "dim-label");
  self->stack = gtk_stack_new ();
  gtk_widget_set_vexpand (self->stack, TRUE);
  gtk_stack_add_named (GTK_STACK (self->stack), self->status, "status");
  gtk_stack_add_named (GTK_STACK (self->stack), halves, "halves");
  gtk_box_append (GTK_BOX (self->box), self->stack);
}

GtkWidget *
strata_butterfly_view_new (StrataSession *session)
{
  StrataButterflyView *self;

  g_return_val_if_fail (STRATA_IS_SESSION (session), NULL);

  self = g_object_new (STRATA_TYPE_BUTTERFLY_VIEW, NULL);
  self->session = g_object_ref (session);
  return GTK_WIDGET (self);
}

/* Returns: the function in the middle, or STRATA_CALL_TREE_NONE */
guint32
strata_butterfly_view_get_code (StrataButterflyView *self)
{
  g_return_val_if_fail (STRATA_IS_BUTTERFLY_VIEW (self), STRATA_CALL_TREE_NONE);

  return self->code;
}

/* Returns: whether both halves of the function asked for are shown */
gboolean
strata_butterfly_view_is_ready (StrataButterflyView *self)
{
  g_return_val_if_fail (STRATA_IS_BUTTERFLY_VIEW (self), FALSE);

  return self->ready;
}

GtkWidget *
strata_butterfly_view_get_callers (StrataButterflyView *self)
{
  g_return_val_if_fail (STRATA_IS_BUTTERFLY_VIEW (self), NULL);

  return self->callers;
}

GtkWidget *
strata_butterfly_view_get_callees (StrataButterflyView *self)
{
  g_return_val_if_fail (STRATA_IS_BUTTERFLY_VIEW (self), NULL);

  return self->callees;
}
