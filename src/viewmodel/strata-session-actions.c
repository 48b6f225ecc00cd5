/* strata-session-actions.c: the commands that change a session's view
 *
 * One action group per session, inserted into the window as "view", so a
 * key binding, a menu item and a test all go through the same command and
 * the widgets hold no view state of their own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-session.h"
#include "strata-track-prefs.h"

#define KEY_ZOOM_FACTOR 1.5
#define KEY_PAN_FRACTION 0.2

static void
zoom_in_activated (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  StrataSession *self = user_data;

  strata_session_zoom (self, KEY_ZOOM_FACTOR, strata_session_get_zoom_anchor (self));
}

static void
zoom_out_activated (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  StrataSession *self = user_data;

  strata_session_zoom (self, 1 / KEY_ZOOM_FACTOR, strata_session_get_zoom_anchor (self));
}

static void
pan_left_activated (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  strata_session_pan (user_data, -KEY_PAN_FRACTION);
}

static void
pan_right_activated (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  strata_session_pan (user_data, KEY_PAN_FRACTION);
}

static void
zoom_fit_activated (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  strata_session_zoom_to_fit (user_data);
}

static void
zoom_selection_activated (GSimpleAction *action,
                          GVariant      *param,
                          gpointer       user_data)
{
  strata_session_zoom_to_selection (user_data);
}

static void
clear_selection_activated (GSimpleAction *action,
                           GVariant      *param,
                           gpointer       user_data)
{
  strata_session_clear_selection (user_data);
}

static void
show_hidden_tracks_activated (GSimpleAction *action,
                              GVariant      *param,
                              gpointer       user_data)
{
  StrataSession *self = user_data;

  if (strata_track_prefs_show_hidden (strata_session_get_track_prefs (self)) > 0)
    strata_session_tracks_changed (self);
}

/* Offered only while some track is hidden. */
static void
update_show_hidden (StrataSession *self,
                    GSimpleAction *action)
{
  g_simple_action_set_enabled (action, g_hash_table_size (strata_session_get_track_prefs (self)->hidden) > 0);
}

static void
trace_changed_cb (StrataSession *self,
                  GParamSpec    *pspec,
                  GSimpleAction *action)
{
  update_show_hidden (self, action);
}

static GAction *
create_show_hidden_action (StrataSession *self)
{
  GSimpleAction *action = g_simple_action_new ("show-hidden-tracks", NULL);

  g_signal_connect (action, "activate", G_CALLBACK (show_hidden_tracks_activated), self);
  g_signal_connect_object (self, "tracks-changed", G_CALLBACK (update_show_hidden), action, 0);
  g_signal_connect_object (self, "notify::trace", G_CALLBACK (trace_changed_cb), action, 0);
  update_show_hidden (self, action);
  return G_ACTION (action);
}

/* Show All Flows: the session's property, offered only for a trace
 * that has flows. */
static void
flows_change_state (GSimpleAction *action,
                    GVariant      *state,
                    gpointer       user_data)
{
  g_object_set (user_data, "show-all-flows", g_variant_get_boolean (state), NULL);
}

static void
flows_property_cb (StrataSession *self,
                   GParamSpec    *pspec,
                   GSimpleAction *action)
{
  gboolean shown;

  g_object_get (self, "show-all-flows", &shown, NULL);
  g_simple_action_set_state (action, g_variant_new_boolean (shown));
}

static void
flows_trace_cb (StrataSession *self,
                GParamSpec    *pspec,
                GSimpleAction *action)
{
  StrataTrace *trace = strata_session_get_trace (self);

  g_simple_action_set_enabled (action, trace != NULL && strata_trace_get_n_flows (trace) > 0);
}

static GAction *
create_flows_action (StrataSession *self)
{
  GSimpleAction *action = g_simple_action_new_stateful ("show-all-flows", NULL, g_variant_new_boolean (FALSE));

  g_signal_connect (action, "change-state", G_CALLBACK (flows_change_state), self);
  g_signal_connect_object (self, "notify::show-all-flows", G_CALLBACK (flows_property_cb), action, 0);
  g_signal_connect_object (self, "notify::trace", G_CALLBACK (flows_trace_cb), action, 0);
  flows_property_cb (self, NULL, action);
  flows_trace_cb (self, NULL, action);
  return G_ACTION (action);
}

/**
 * strata_session_create_actions:
 *
 * Returns: (transfer full): zoom-in, zoom-out, pan-left, pan-right,
 *   zoom-fit, zoom-selection, clear-selection, and the stateful
 *   range-only, profile-thread, compact and show-all-flows (enabled
 *   for a trace with flows), and
 *   show-hidden-tracks (enabled while a track is hidden), all acting on
 *   @self
 */
GActionGroup *
strata_session_create_actions (StrataSession *self)
{
  static const GActionEntry entries[] = {
    { "zoom-in", zoom_in_activated },
    { "zoom-out", zoom_out_activated },
    { "pan-left", pan_left_activated },
    { "pan-right", pan_right_activated },
    { "zoom-fit", zoom_fit_activated },
    { "zoom-selection", zoom_selection_activated },
    { "clear-selection", clear_selection_activated },
  };
  GSimpleActionGroup *group = g_simple_action_group_new ();
  g_autoptr(GPropertyAction) range_only = g_property_action_new ("range-only", self, "range-only");
  g_autoptr(GPropertyAction) thread = g_property_action_new ("profile-thread", self, "profile-thread");
  g_autoptr(GPropertyAction) compact = g_property_action_new ("compact", self, "compact");
  g_autoptr(GAction) flows = create_flows_action (self);
  g_autoptr(GAction) show_hidden = create_show_hidden_action (self);

  g_return_val_if_fail (STRATA_IS_SESSION (self), NULL);

  g_action_map_add_action_entries (G_ACTION_MAP (group), entries, G_N_ELEMENTS (entries), self);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (range_only));
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (thread));
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (compact));
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (flows));
  g_action_map_add_action (G_ACTION_MAP (group), show_hidden);
  return G_ACTION_GROUP (group);
}
