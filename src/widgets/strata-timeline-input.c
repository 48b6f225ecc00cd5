/* strata-timeline-input.c: the pointer, gestures and the track menu
 *
 * A click selects, a drag pans (or with Shift selects a time range), the
 * wheel scrolls, pans or zooms, a right click on a track's label opens its
 * menu. Everything it changes is the session's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "strata-timeline-private.h"

#define WHEEL_ZOOM_BASE 1.2
#define WHEEL_PAN_FRACTION 0.1
#define WHEEL_SCROLL_PX 54.0
#define DRAG_THRESHOLD_PX 3.0

static gint64
time_at (StrataTimeline *self,
         double          x)
{
  StrataTimelineTheme theme;
  StrataTimelineView view;

  strata_timeline_fill_view (self, &view, &theme);
  return strata_timeline_time_at (&view, MAX (x, view.label_width));
}

/* Changes the session's track layout through @prefs and tells the views. */
static void
toggle_process (StrataTimeline *self,
                guint           process)
{
  strata_track_prefs_toggle_process (strata_session_get_track_prefs (self->session), process);
  strata_session_tracks_changed (self->session);
}

static void
toggle_counter_series (StrataTimeline *self,
                       guint           counter,
                       guint           series)
{
  strata_track_prefs_toggle_series (strata_session_get_track_prefs (self->session), counter, series);
  strata_session_tracks_changed (self->session);
}

/* ---- The track menu ---- */

/* The labels say what each item will do to this track. */
static GMenuModel *
build_track_menu (gboolean collapsed,
                  gboolean pinned,
                  guint    n_hidden)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GMenu) track = g_menu_new ();
  g_autoptr(GMenu) move = g_menu_new ();

  /* First, so a menu cut short by the screen's edge still offers it. */
  if (n_hidden > 0)
    {
      g_autoptr(GMenu) all = g_menu_new ();
      /* Translators: %u is a number of hidden tracks */
      g_autofree char *label = g_strdup_printf (ngettext ("_Show %u Hidden Track", "_Show %u Hidden Tracks", n_hidden),
                                                n_hidden);

      g_menu_append (all, label, "timeline.show-hidden-tracks");
      g_menu_append_section (menu, NULL, G_MENU_MODEL (all));
    }
  g_menu_append (track, collapsed ? _("_Expand") : _("_Collapse"), "timeline.track-collapse");
  g_menu_append (track, pinned ? _("_Unpin") : _("_Pin to Top"), "timeline.track-pin");
  g_menu_append (track, _("_Hide"), "timeline.track-hide");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (track));
  if (!pinned)
    {
      g_menu_append (move, _("Move _Up"), "timeline.track-move-up");
      g_menu_append (move, _("Move _Down"), "timeline.track-move-down");
      g_menu_append_section (menu, NULL, G_MENU_MODEL (move));
    }
  return G_MENU_MODEL (menu);
}

static void
open_track_menu (StrataTimeline    *self,
                 const StrataTrack *track,
                 double             x,
                 double             y)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  guint64 key = strata_track_key (track->kind, track->index);
  g_autoptr(GMenuModel) model = NULL;

  self->menu_track = key;
  self->menu_process = track->kind == STRATA_TRACK_THREAD ? strata_trace_get_thread (trace, track->index)->process
                     : track->kind == STRATA_TRACK_COUNTER ? strata_trace_get_counter (trace, track->index)->process
                     : track->index;
  model = build_track_menu (track->collapsed, strata_track_prefs_is_pinned (strata_session_get_track_prefs (self->session), key),
                            g_hash_table_size (strata_session_get_track_prefs (self->session)->hidden));
  if (self->track_menu == NULL)
    {
      self->track_menu = gtk_popover_menu_new_from_model (model);
      gtk_widget_set_parent (self->track_menu, GTK_WIDGET (self));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->track_menu), FALSE);
      gtk_widget_set_halign (self->track_menu, GTK_ALIGN_START);
    }
  else
    gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->track_menu), model);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->track_menu), &(GdkRectangle) { x, y, 1, 1 });
  /* Opened towards the side of the window with room: a track low in the
   * window had its last items cut off. */
  {
    GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (self)));
    graphene_point_t at;

    if (gtk_widget_compute_point (GTK_WIDGET (self), root, &GRAPHENE_POINT_INIT (x, y), &at))
      gtk_popover_set_position (GTK_POPOVER (self->track_menu),
                                at.y > gtk_widget_get_height (root) / 2.0 ? GTK_POS_TOP : GTK_POS_BOTTOM);
  }
  gtk_popover_popup (GTK_POPOVER (self->track_menu));
}

static void
track_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  StrataTimeline *self = STRATA_TIMELINE (widget);
  StrataTrace *trace = strata_session_get_trace (self->session);
  StrataTrackPrefs *prefs = strata_session_get_track_prefs (self->session);

  if (trace == NULL)
    return;
  if (g_str_equal (action_name, "timeline.track-collapse"))
    strata_track_prefs_toggle_collapsed (prefs, self->menu_track);
  else if (g_str_equal (action_name, "timeline.track-hide"))
    strata_track_prefs_hide (prefs, self->menu_track);
  else if (g_str_equal (action_name, "timeline.track-pin"))
    strata_track_prefs_toggle_pinned (prefs, self->menu_track);
  else if (g_str_equal (action_name, "timeline.show-hidden-tracks"))
    strata_track_prefs_show_hidden (prefs);
  else
    {
      g_autoptr(GArray) shown = strata_timeline_process_tracks (trace, self->events, self->menu_process, prefs);

      strata_track_prefs_move (prefs, shown, self->menu_track,
                               g_str_equal (action_name, "timeline.track-move-up") ? -1 : 1);
    }
  strata_session_tracks_changed (self->session);
}

/**
 * strata_timeline_track_menu_for:
 *
 * Points the track actions at the track with this kind and index, as a
 * right click on its label does.
 */
void
strata_timeline_track_menu_for (StrataTimeline  *self,
                                StrataTrackKind  kind,
                                guint            index,
                                guint            process)
{
  g_return_if_fail (STRATA_IS_TIMELINE (self));

  self->menu_track = strata_track_key (kind, index);
  self->menu_process = process;
}

/* ---- Pointer ---- */

static void
secondary_pressed_cb (StrataTimeline  *self,
                      int              n_press,
                      double           x,
                      double           y,
                      GtkGestureClick *gesture)
{
  StrataTimelineHit hit;
  const StrataTrack *track;

  if (!strata_timeline_hit_at (self, x, y, &hit) || x >= STRATA_TIMELINE_LABEL_WIDTH)
    return;
  track = &g_array_index (self->tracks, StrataTrack, hit.track);
  if (track->kind != STRATA_TRACK_PROCESS)
    open_track_menu (self, track, x, y);
}

static void
click_pressed_cb (StrataTimeline  *self,
                  int              n_press,
                  double           x,
                  double           y,
                  GtkGestureClick *gesture)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->press_x = x;
  self->press_y = y;
}

/* On release, and only for a click: a press that moved past the drag
 * threshold was a drag, which pans and never selects. */
static void
click_released_cb (StrataTimeline  *self,
                   int              n_press,
                   double           x,
                   double           y,
                   GtkGestureClick *gesture)
{
  StrataTimelineHit hit;
  const StrataAndroidFrame *frame;

  if (hypot (x - self->press_x, y - self->press_y) > DRAG_THRESHOLD_PX)
    return;
  /* A frame in the ruler: its doFrame call, its phases inside it. */
  if ((frame = strata_timeline_frame_at (self, x, y)) != NULL)
    {
      strata_timeline_select_call (self, frame->call.thread, frame->call.depth, frame->call.index);
      strata_session_zoom_to_call (self->session, &frame->call);
      return;
    }
  if (!strata_timeline_hit_at (self, x, y, &hit))
    return;

  if (hit.kind == STRATA_HIT_PROCESS && n_press == 1)
    toggle_process (self, g_array_index (self->tracks, StrataTrack, hit.track).index);
  else if (hit.kind == STRATA_HIT_SPAN && n_press == 1)
    strata_timeline_select_call (self, hit.thread, hit.depth, hit.index);
  else if (hit.kind == STRATA_HIT_SPAN && n_press == 2)
    strata_session_zoom_to_call (self->session, &(StrataSliceRef) { hit.thread, hit.depth, hit.index });
  else if (hit.kind == STRATA_HIT_COUNTER_LEGEND && n_press == 1)
    toggle_counter_series (self, hit.index, hit.depth);
  else if (hit.kind == STRATA_HIT_EVENT && n_press == 1)
    strata_session_select_event (self->session, hit.index);
  else if (hit.kind == STRATA_HIT_COUNTER && n_press == 1)
    strata_session_select_counter_value (self->session, hit.index, hit.time);
}

static void
drag_begin_cb (StrataTimeline *self,
               double          x,
               double          y,
               GtkGestureDrag *gesture)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  strata_session_get_visible_range (self->session, &self->drag_visible_start, &self->drag_visible_end);
  self->drag_start_x = x;
  self->drag_start_scroll = gtk_adjustment_get_value (self->vadjustment);
  self->dragging_overview = y < STRATA_TIMELINE_OVERVIEW_HEIGHT;
  self->selecting_range = !self->dragging_overview && (state & GDK_SHIFT_MASK) != 0;
  if (self->selecting_range)
    self->range_anchor = time_at (self, x);
}

static void
move_overview_window (StrataTimeline *self,
                      double          x)
{
  gint64 bound_start, bound_end, width = self->drag_visible_end - self->drag_visible_start;
  double area = MAX (1.0, gtk_widget_get_width (GTK_WIDGET (self)) - STRATA_TIMELINE_LABEL_WIDTH);
  gint64 center;

  strata_session_get_bounds (self->session, &bound_start, &bound_end);
  center = bound_start + (x - STRATA_TIMELINE_LABEL_WIDTH) * (bound_end - bound_start) / area;
  strata_session_set_visible_range (self->session, center - width / 2, center - width / 2 + width);
}

static void
drag_update_cb (StrataTimeline *self,
                double          dx,
                double          dy,
                GtkGestureDrag *gesture)
{
  double area = MAX (1.0, gtk_widget_get_width (GTK_WIDGET (self)) - STRATA_TIMELINE_LABEL_WIDTH);
  gint64 shift;

  if (self->dragging_overview)
    {
      move_overview_window (self, self->drag_start_x + dx);
      return;
    }
  if (self->selecting_range)
    {
      strata_session_set_selection_range (self->session, self->range_anchor,
                                          time_at (self, self->drag_start_x + dx));
      return;
    }

  shift = dx * (self->drag_visible_end - self->drag_visible_start) / area;
  strata_session_set_visible_range (self->session, self->drag_visible_start - shift,
                                    self->drag_visible_end - shift);
  gtk_adjustment_set_value (self->vadjustment, self->drag_start_scroll - dy);
}

static void
drag_end_cb (StrataTimeline *self,
             double          dx,
             double          dy,
             GtkGestureDrag *gesture)
{
  if (self->selecting_range)
    {
      gint64 start, end;

      self->selecting_range = FALSE;
      /* A shift-click is not a range. A range made is what the profile
       * and the call tree show at once, as Firefox Profiler has it. */
      if (ABS (dx) < DRAG_THRESHOLD_PX &&
          strata_session_get_selection_range (self->session, &start, &end))
        strata_session_clear_selection (self->session);
      else if (strata_session_get_selection_range (self->session, &start, &end))
        strata_session_set_range_only (self->session, TRUE);
      strata_timeline_update_range_label (self, TRUE);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
  self->dragging_overview = FALSE;
}

static gboolean
scroll_cb (StrataTimeline           *self,
           double                    dx,
           double                    dy,
           GtkEventControllerScroll *controller)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (strata_session_get_trace (self->session) == NULL)
    return FALSE;

  if (state & GDK_CONTROL_MASK)
    strata_session_zoom (self->session, pow (WHEEL_ZOOM_BASE, -dy), strata_session_get_zoom_anchor (self->session));
  else if ((state & GDK_SHIFT_MASK) || dx != 0)
    strata_session_pan (self->session, (dx != 0 ? dx : dy) * WHEEL_PAN_FRACTION);
  else
    gtk_adjustment_set_value (self->vadjustment,
                              gtk_adjustment_get_value (self->vadjustment) + dy * WHEEL_SCROLL_PX);
  return TRUE;
}

static void
zoom_begin_cb (StrataTimeline *self,
               GdkEventSequence *sequence,
               GtkGestureZoom *gesture)
{
  self->zoom_scale = 1.0;
}

static void
zoom_scale_changed_cb (StrataTimeline *self,
                       double          scale,
                       GtkGestureZoom *gesture)
{
  double x, y;

  if (scale <= 0)
    return;
  gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &x, &y);
  strata_session_zoom (self->session, scale / self->zoom_scale, time_at (self, x));
  self->zoom_scale = scale;
}

/* The time under the pointer: zooming by key keeps it in place. */
static void
motion_cb (StrataTimeline           *self,
           double                    x,
           double                    y,
           GtkEventControllerMotion *controller)
{
  if (strata_session_get_trace (self->session) != NULL && x >= STRATA_TIMELINE_LABEL_WIDTH)
    strata_session_set_hover_time (self->session, time_at (self, x));
  else
    strata_session_clear_hover (self->session);
}

static void
leave_cb (StrataTimeline *self)
{
  strata_session_clear_hover (self->session);
}

void
strata_timeline_class_init_input (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "timeline.track-collapse", NULL, track_action);
  gtk_widget_class_install_action (widget_class, "timeline.track-hide", NULL, track_action);
  gtk_widget_class_install_action (widget_class, "timeline.track-pin", NULL, track_action);
  gtk_widget_class_install_action (widget_class, "timeline.track-move-up", NULL, track_action);
  gtk_widget_class_install_action (widget_class, "timeline.track-move-down", NULL, track_action);
  gtk_widget_class_install_action (widget_class, "timeline.show-hidden-tracks", NULL, track_action);
}

void
strata_timeline_init_input (StrataTimeline *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  gesture = gtk_gesture_click_new ();
  g_signal_connect_object (gesture, "pressed", G_CALLBACK (click_pressed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gesture, "released", G_CALLBACK (click_released_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect_object (gesture, "pressed", G_CALLBACK (secondary_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_drag_new ();
  g_signal_connect_object (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gesture, "drag-update", G_CALLBACK (drag_update_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gesture, "drag-end", G_CALLBACK (drag_end_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_zoom_new ();
  g_signal_connect_object (gesture, "begin", G_CALLBACK (zoom_begin_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gesture, "scale-changed", G_CALLBACK (zoom_scale_changed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect_object (controller, "scroll", G_CALLBACK (scroll_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect_object (controller, "motion", G_CALLBACK (motion_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (controller, "leave", G_CALLBACK (leave_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}
