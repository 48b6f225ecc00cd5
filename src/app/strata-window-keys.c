/* strata-window-keys.c: keys that work whatever pane has focus, and moving
 * between panes
 *
 * Ctrl+F and / open the timeline's search from any pane. The view keys
 * (W/S/A/D, 0, F, C) are bound on the window: a key the
 * focused widget does not take (a text entry takes letters, the call tree
 * its own F, M, R, C) reaches the window and zooms or pans the view. F6
 * and Tab from a list move between the panes (timeline, then the page
 * below it), as in GNOME apps, rather than through every row.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-search-bar.h"
#include "strata-window-private.h"

/* The panes focus moves between, in order; at most two. */
static guint
list_panes (StrataWindow *self,
            GtkWidget   **panes)
{
  guint n = 0;
  GtkNotebook *notebook = GTK_NOTEBOOK (self->details);
  int page = gtk_notebook_get_current_page (notebook);

  if (gtk_widget_is_drawable (self->timeline))
    panes[n++] = self->timeline;
  if (page >= 0 && gtk_widget_is_drawable (self->details))
    panes[n++] = gtk_notebook_get_nth_page (notebook, page);
  return n;
}

/**
 * _strata_window_move_pane:
 * @step: 1 for the next pane, -1 for the previous one
 *
 * Moves focus into the next or previous pane, from wherever it is.
 *
 * Returns: whether focus moved
 */
gboolean
_strata_window_move_pane (StrataWindow *self,
                          int           step)
{
  GtkWidget *panes[2];
  guint n = list_panes (self, panes);
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  int here = -1;

  if (n == 0)
    return FALSE;
  for (guint i = 0; i < n && focus != NULL; i++)
    if (focus == panes[i] || gtk_widget_is_ancestor (focus, panes[i]))
      here = i;
  here = here < 0 ? (step > 0 ? 0 : (int) n - 1) : (here + step + (int) n) % (int) n;
  /* Moved by a key: show where focus went. */
  gtk_window_set_focus_visible (GTK_WINDOW (self), TRUE);
  /* Into the pane's first control (the page below: its filter or table),
   * not onto the notebook's tabs. */
  if (panes[here] == self->timeline)
    return gtk_widget_grab_focus (panes[here]);
  return gtk_widget_child_focus (panes[here], GTK_DIR_TAB_FORWARD) || gtk_widget_grab_focus (panes[here]);
}

static gboolean
in_list (GtkWidget *widget)
{
  return widget != NULL &&
         (gtk_widget_get_ancestor (widget, GTK_TYPE_COLUMN_VIEW) != NULL ||
          gtk_widget_get_ancestor (widget, GTK_TYPE_LIST_VIEW) != NULL);
}

/* F6 here rather than by binding: GtkPaned's own F6 would take it first
 * and land on the notebook's tabs. Tab in a list leaves it for the next
 * pane, instead of walking its rows. */
static gboolean
key_pressed_cb (StrataWindow          *self,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                GtkEventControllerKey *controller)
{
  if (keyval == GDK_KEY_F6 && (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) == 0)
    return _strata_window_move_pane (self, state & GDK_SHIFT_MASK ? -1 : 1);
  if ((keyval != GDK_KEY_Tab && keyval != GDK_KEY_ISO_Left_Tab && keyval != GDK_KEY_KP_Tab) ||
      (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0 ||
      !in_list (gtk_root_get_focus (GTK_ROOT (self))))
    return FALSE;
  return _strata_window_move_pane (self, keyval == GDK_KEY_ISO_Left_Tab || (state & GDK_SHIFT_MASK) ? -1 : 1);
}

/* Ctrl+F and / from any pane: the timeline's search. */
static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  StrataWindow *self = STRATA_WINDOW (widget);

  if (self->search_bar != NULL && gtk_widget_is_drawable (GTK_WIDGET (self->trace_box)))
    strata_search_bar_open (STRATA_SEARCH_BAR (self->search_bar));
}

static void
move_pane_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  _strata_window_move_pane (STRATA_WINDOW (widget), g_str_equal (action_name, "win.next-pane") ? 1 : -1);
}

void
_strata_window_class_init_keys (GtkWidgetClass *widget_class)
{
  static const struct { guint keyval; const char *action; } view_keys[] = {
    { GDK_KEY_w, "view.zoom-in" }, { GDK_KEY_plus, "view.zoom-in" }, { GDK_KEY_equal, "view.zoom-in" },
    { GDK_KEY_s, "view.zoom-out" }, { GDK_KEY_minus, "view.zoom-out" },
    { GDK_KEY_a, "view.pan-left" }, { GDK_KEY_d, "view.pan-right" },
    { GDK_KEY_0, "view.zoom-fit" }, { GDK_KEY_f, "view.zoom-selection" },
    { GDK_KEY_c, "view.compact" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (view_keys); i++)
    gtk_widget_class_add_binding_action (widget_class, view_keys[i].keyval, 0, view_keys[i].action, NULL);

  gtk_widget_class_install_action (widget_class, "win.find", NULL, find_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.find", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_slash, 0, "win.find", NULL);

  /* Bound to F6 and Shift+F6 by the key handler below. */
  gtk_widget_class_install_action (widget_class, "win.next-pane", NULL, move_pane_action);
  gtk_widget_class_install_action (widget_class, "win.previous-pane", NULL, move_pane_action);
}

void
_strata_window_init_keys (StrataWindow *self)
{
  GtkEventController *keys = gtk_event_controller_key_new ();

  /* Before the list sees the key: it would move to the next row. */
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (key_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
}
