/* strata-window.c: one trace per window, and the one path that opens it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-accessible.h"
#include "strata-call-tree-view.h"
#include "strata-calls-view.h"
#include "strata-events-view.h"
#include "strata-notes-view.h"
#include "strata-profile-view.h"
#include "strata-search-bar.h"
#include "strata-event-details.h"
#include "strata-heap-view.h"
#include "strata-import-banner.h"
#include "strata-load-guard.h"
#include "strata-units.h"
#include "strata-trace-summary.h"
#include "strata-window-private.h"

enum {
  PROP_0,
  PROP_BUSY,
  PROP_FOLLOW_WEAK,
  PROP_SHOW_BASELINE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (StrataWindow, strata_window, GTK_TYPE_APPLICATION_WINDOW)

static GParamSpec *properties[N_PROPS];

/* GSettings aborts on a missing schema; an uninstalled build may lack it. */
static GSettings *
window_settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema == NULL)
    {
      g_debug ("Schema %s not installed; window size will not be remembered", APP_ID);
      return NULL;
    }

  return g_settings_new_full (schema, NULL, NULL);
}

static void
restore_window_size (StrataWindow *self)
{
  if (self->settings == NULL)
    return;

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
}

/* The panels' share of the height, remembered: by default they show 15
 * rows of the profile at 1200×800 with the trace above them. */
static double
panels_share (StrataWindow *self)
{
  return self->settings != NULL ? g_settings_get_double (self->settings, "panels-share") : 0.6;
}

/* The divider where the remembered share puts it, once the window has a
 * height (its default size before it is shown). */
static void
apply_panels_share (StrataWindow *self)
{
  int width, height = gtk_widget_get_height (self->paned);

  if (height <= 0)
    {
      gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
      /* Less the header bar, which the divider does not share. */
      height -= 48;
    }
  if (height > 0)
    gtk_paned_set_position (GTK_PANED (self->paned), (int) (height * (1 - panels_share (self))));
}

/* The share as the user left it, where a timeline was on show. */
static void
save_panels_share (StrataWindow *self)
{
  int height = gtk_widget_get_height (self->paned);

  if (height <= 0 || !gtk_widget_get_visible (gtk_paned_get_start_child (GTK_PANED (self->paned))))
    return;
  g_settings_set_double (self->settings, "panels-share",
                         CLAMP (1 - (double) gtk_paned_get_position (GTK_PANED (self->paned)) / height, 0.1, 0.9));
}

static void
save_window_size (StrataWindow *self)
{
  int width, height;

  if (self->settings == NULL || !self->remember_size)
    return;

  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_delay (self->settings);
  save_panels_share (self);
  g_settings_set_int (self->settings, "window-width", width);
  g_settings_set_int (self->settings, "window-height", height);
  g_settings_set_boolean (self->settings, "window-maximized",
                          gtk_window_is_maximized (GTK_WINDOW (self)));
  g_settings_apply (self->settings);
}

static gboolean
strata_window_close_request (GtkWindow *window)
{
  StrataWindow *self = STRATA_WINDOW (window);

  save_window_size (self);
  _strata_window_cancel_load (self);

  return GTK_WINDOW_CLASS (strata_window_parent_class)->close_request (window);
}

char *
_strata_file_get_display_name (GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *basename = NULL;

  if (path != NULL)
    return g_filename_display_basename (path);

  basename = g_file_get_basename (file);
  return g_filename_display_name (basename != NULL ? basename : "");
}

static void
set_titles (StrataWindow *self,
            const char   *title,
            const char   *subtitle)
{
  g_autofree char *window_title = NULL;

  gtk_label_set_label (self->title_label, title ? title : _("Strata"));
  gtk_label_set_label (self->subtitle_label, subtitle ? subtitle : "");
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), subtitle != NULL);

  if (title != NULL)
    /* Translators: the window title, %s is a file name */
    window_title = g_strdup_printf (_("%s — Strata"), title);
  gtk_window_set_title (GTK_WINDOW (self), window_title ? window_title : _("Strata"));
}

static void
set_busy (StrataWindow *self,
          gboolean      busy)
{
  _strata_window_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
  if (busy)
    gtk_widget_grab_focus (gtk_stack_get_child_by_name (self->stack, "loading"));
}

static gboolean
has_time_axis (StrataTrace *trace)
{
  return strata_trace_get_n_spans (trace) > 0 || strata_trace_get_n_counters (trace) > 0 ||
         strata_trace_get_n_events (trace) > 0 || strata_trace_get_heap (trace) == NULL;
}

static void
show_resting_page (StrataWindow *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);

  if (trace == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "welcome");
      set_titles (self, NULL, NULL);
      return;
    }

  {
    g_autofree char *name = _strata_file_get_display_name (strata_trace_get_file (trace));
    g_autofree char *size = g_format_size (strata_trace_get_file_size (trace));
    g_autofree char *subtitle = NULL;

    if (has_time_axis (trace) && strata_trace_get_end (trace) > strata_trace_get_start (trace))
      {
        g_autofree char *duration = strata_units_format_duration (strata_trace_get_end (trace) - strata_trace_get_start (trace));

        /* Translators: the header bar subtitle: a format name, a file size and how long the trace lasts */
        subtitle = g_strdup_printf (_("%s · %s · %s"), strata_format_get_name (strata_trace_get_format (trace)), size, duration);
      }
    else
      /* Translators: the header bar subtitle: a format name and a file size */
      subtitle = g_strdup_printf (_("%s · %s"), strata_format_get_name (strata_trace_get_format (trace)), size);

    gtk_stack_set_visible_child_name (self->stack, "trace");
    {
      g_autofree char *mapping = _strata_window_describe_mapping (self);
      g_autofree char *full = mapping != NULL ? g_strconcat (subtitle, " · ", mapping, NULL) : NULL;

      set_titles (self, name, full != NULL ? full : subtitle);
    }
  }
}

/* After the names shown changed: the subtitle says which. */
void
_strata_window_refresh_titles (StrataWindow *self)
{
  if (strata_session_get_trace (self->session) != NULL && g_str_equal (strata_window_get_page (self), "trace"))
    show_resting_page (self);
}

static void
show_error_page (StrataWindow *self,
                 GFile        *file,
                 const GError *error)
{
  g_autofree char *name = _strata_file_get_display_name (file);
  /* Translators: %s is a file name */
  g_autofree char *title = g_strdup_printf (_("Could not open “%s”"), name);

  gtk_label_set_label (self->error_title, title);
  gtk_label_set_label (self->error_reason, error->message);
  gtk_stack_set_visible_child_name (self->stack, "error");
  set_titles (self, name, _("Could not open"));
  gtk_widget_grab_focus (self->error_open_button);
}

static void
update_view_controls (StrataWindow *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  gboolean two_clocks = trace != NULL && strata_trace_get_n_clocks (trace) == 2;

  gtk_widget_set_visible (self->view_controls,
                          trace != NULL && g_str_equal (strata_window_get_page (self), "trace") && has_time_axis (trace));
  gtk_widget_set_visible (self->clock_switch, two_clocks);
  for (guint c = 0; two_clocks && c < 2; c++)
    {
      gtk_button_set_label (GTK_BUTTON (self->clock_buttons[c]), strata_trace_get_clock_name (trace, c));
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->clock_buttons[c]),
                                    strata_session_get_clock (self->session) == c);
    }
}

static void
clock_button_toggled_cb (StrataWindow    *self,
                         GtkToggleButton *button)
{
  if (gtk_toggle_button_get_active (button))
    strata_session_set_clock (self->session, button == GTK_TOGGLE_BUTTON (self->clock_buttons[1]));
}

static void
show_trace (StrataWindow *self,
            StrataTrace  *trace)
{
  /* The views follow the session: the heap page hides itself when the
   * trace has no heap, the summary and banner refill. */
  strata_session_set_trace (self->session, trace);
  /* A heap dump has no calls: its histogram is what there is to see. */
  if (gtk_widget_get_visible (self->heap_view) && strata_trace_get_n_spans (trace) == 0)
    gtk_notebook_set_current_page (GTK_NOTEBOOK (self->details),
                                   gtk_notebook_page_num (GTK_NOTEBOOK (self->details), self->heap_view));
  /* Nothing on the time axis (a heap dump of classes only): no timeline,
   * and no profile or details page that could only say "select a call". */
  gtk_widget_set_visible (gtk_paned_get_start_child (GTK_PANED (self->paned)), has_time_axis (trace));
  gtk_widget_set_visible (self->profile_view, has_time_axis (trace));
  gtk_widget_set_visible (self->call_tree_view, strata_trace_get_n_spans (trace) > 0);
  gtk_widget_set_visible (self->calls_view, has_time_axis (trace));
  gtk_widget_set_visible (self->events_view, strata_trace_get_format (trace) == STRATA_FORMAT_TRACE_EVENT ||
                                             strata_trace_get_format (trace) == STRATA_FORMAT_PERFETTO);
  gtk_widget_set_visible (self->event_details, has_time_axis (trace));
  gtk_widget_set_visible (self->notes_view, has_time_axis (trace));
  if (has_time_axis (trace))
    apply_panels_share (self);
  update_view_controls (self);
  show_resting_page (self);
  gtk_widget_grab_focus (self->timeline);
  _strata_window_apply_remembered_mapping (self);
}

static void
show_summary_page (StrataWindow *self)
{
  gtk_notebook_set_current_page (GTK_NOTEBOOK (self->details),
                                 gtk_notebook_page_num (GTK_NOTEBOOK (self->details), self->summary));
}

/* Events have nothing to show in the profile: their details come up,
 * unless they were picked in the Events page's list. */
static void
selected_item_changed_cb (StrataWindow *self)
{
  GtkNotebook *details = GTK_NOTEBOOK (self->details);

  if (gtk_notebook_get_nth_page (details, gtk_notebook_get_current_page (details)) == self->events_view)
    return;
  if (strata_session_get_selected_item (self->session, NULL, NULL) == STRATA_SELECTED_EVENT)
    gtk_notebook_set_current_page (GTK_NOTEBOOK (self->details),
                                   gtk_notebook_page_num (GTK_NOTEBOOK (self->details), self->event_details));
}

/* The trace page: the timeline over the summary of what was loaded. */
static void
build_trace_page (StrataWindow *self)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  self->timeline = strata_timeline_new (self->session);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->timeline);

  self->profile_view = strata_profile_view_new (self->session);
  self->details = gtk_notebook_new ();
  strata_accessible_append_page (GTK_NOTEBOOK (self->details), self->profile_view, _("Profile"));
  self->call_tree_view = strata_call_tree_view_new (self->session);
  strata_accessible_append_page (GTK_NOTEBOOK (self->details), self->call_tree_view, _("Call Tree"));
  self->calls_view = strata_calls_view_new (self->session);
  strata_accessible_append_page (GTK_NOTEBOOK (self->details), self->calls_view, _("Calls"));
  self->events_view = strata_events_view_new (self->session);
  strata_accessible_append_page (GTK_NOTEBOOK (self->details), self->events_view, _("Events"));
  gtk_widget_set_visible (self->events_view, FALSE);
  self->event_details = strata_event_details_new (self->session);
  strata_accessible_append_page (GTK_NOTEBOOK (self->details), self->event_details, _("Details"));
  self->notes_view = strata_notes_view_new (self->session);
  strata_accessible_append_page (GTK_NOTEBOOK (self->details), self->notes_view, _("Notes"));
  self->heap_view = strata_heap_view_new (self->session);
  strata_accessible_append_page (GTK_NOTEBOOK (self->details), self->heap_view, _("Heap"));
  _strata_window_init_compare (self);
  strata_accessible_append_page (GTK_NOTEBOOK (self->details), self->compare_view, _("Compare"));
  self->summary = strata_trace_summary_new (self->session);
  strata_accessible_append_page (GTK_NOTEBOOK (self->details), self->summary, _("Summary"));
  g_signal_connect_object (self->session, "selected-item-changed",
                           G_CALLBACK (selected_item_changed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_set_size_request (self->details, -1, 260);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->details), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Trace Panels"), -1);

  self->paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->paned), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timeline and Panels"), -1);
  gtk_paned_set_start_child (GTK_PANED (self->paned), _strata_window_build_timelines (self, scroller));
  gtk_paned_set_end_child (GTK_PANED (self->paned), self->details);
  gtk_paned_set_resize_start_child (GTK_PANED (self->paned), TRUE);
  gtk_paned_set_resize_end_child (GTK_PANED (self->paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (self->paned), FALSE);
  gtk_widget_set_vexpand (self->paned, TRUE);
  self->import_banner = strata_import_banner_new (self->session);
  g_signal_connect_object (self->import_banner, "show-details", G_CALLBACK (show_summary_page), self, G_CONNECT_SWAPPED);
  gtk_box_append (self->trace_box, self->import_banner);
  self->search_bar = strata_search_bar_new (self->session);
  gtk_box_append (self->trace_box, self->search_bar);
  gtk_box_append (self->trace_box, self->compare_bar);
  gtk_box_append (self->trace_box, self->paned);

  g_object_bind_property (self->session, "compact", self->compact_button, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  for (guint c = 0; c < 2; c++)
    g_signal_connect_object (self->clock_buttons[c], "toggled",
                             G_CALLBACK (clock_button_toggled_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::clock",
                           G_CALLBACK (update_view_controls), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->stack, "notify::visible-child",
                           G_CALLBACK (update_view_controls), self, G_CONNECT_SWAPPED);
}

/**
 * _strata_window_describe_time_left:
 * @elapsed: seconds since the load began
 * @fraction: how much of it is done
 *
 * Returns: (nullable): "About 12 seconds left" once there is enough to
 *   go on (a second of loading and a twentieth done), else %NULL
 */
char *
_strata_window_describe_time_left (double elapsed,
                                   double fraction)
{
  double left;

  if (elapsed < 1.0 || fraction < 0.05 || fraction >= 1.0)
    return NULL;
  left = elapsed * (1.0 - fraction) / fraction;
  if (left < 60)
    {
      guint seconds = MAX (1, (guint) (left + 0.5));

      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "About %u second left", "About %u seconds left", seconds), seconds);
    }
  {
    guint minutes = (guint) (left / 60 + 0.5);

    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "About %u minute left", "About %u minutes left", minutes), minutes);
  }
}

static void
loader_progress_cb (StrataWindow *self,
                    GParamSpec   *pspec,
                    StrataLoader *loader)
{
  g_autofree char *message = strata_loader_dup_message (loader);
  double fraction = strata_loader_get_fraction (loader);
  g_autofree char *left = _strata_window_describe_time_left ((g_get_monotonic_time () - self->load_started) / 1e6, fraction);
  g_autofree char *text = NULL;

  if (left != NULL && message != NULL)
    /* Translators: what the loader is doing, then the time left */
    text = g_strdup_printf (_("%s — %s"), message, left);
  gtk_progress_bar_set_fraction (self->progress_bar, fraction);
  gtk_label_set_label (self->loading_message, text ? text : message ? message : "");
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(StrataWindow) self = user_data;
  StrataLoader *loader = STRATA_LOADER (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = NULL;

  trace = strata_loader_load_finish (loader, result, &error);

  /* A newer open replaced this load; its own callback takes over. */
  if (loader != self->loader)
    return;

  g_clear_object (&self->loader);
  g_clear_object (&self->cancellable);

  g_clear_object (&self->file);
  if (trace != NULL)
    {
      self->file = g_object_ref (strata_loader_get_file (loader));
      show_trace (self, trace);
      _strata_window_add_recent (self, strata_loader_get_file (loader));
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    show_resting_page (self);
  else
    {
      show_error_page (self, strata_loader_get_file (loader), error);
      _strata_window_forget_recent (self, strata_loader_get_file (loader));
    }

  set_busy (self, FALSE);
}

void
_strata_window_cancel_load (StrataWindow *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

/**
 * strata_window_open:
 *
 * The one path every way of opening a file ends in: the file dialog, drag
 * and drop, recent files, samples, the file manager and the command line.
 */
void
strata_window_open (StrataWindow *self,
                    GFile        *file)
{
  g_autoptr(StrataLoader) loader = NULL;
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;

  g_return_if_fail (STRATA_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  _strata_window_cancel_load (self);
  g_clear_object (&self->cancellable);

  loader = strata_loader_new (file);
  strata_loader_set_follow_weak (loader, self->follow_weak);
  g_set_object (&self->loader, loader);
  self->cancellable = g_cancellable_new ();
  g_signal_connect_object (loader, "notify::fraction",
                           G_CALLBACK (loader_progress_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (loader, "notify::message",
                           G_CALLBACK (loader_progress_cb), self, G_CONNECT_SWAPPED);

  name = _strata_file_get_display_name (file);
  /* Translators: %s is a file name */
  title = g_strdup_printf (_("Opening “%s”"), name);
  gtk_label_set_label (self->loading_title, title);
  gtk_label_set_label (self->loading_message, "");
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  self->load_started = g_get_monotonic_time ();
  gtk_stack_set_visible_child_name (self->stack, "loading");
  set_titles (self, name, _("Opening…"));
  set_busy (self, TRUE);

  strata_loader_load_async (loader, self->cancellable, load_cb, g_object_ref (self));
}

/**
 * strata_window_check_file_changed:
 *
 * After a file mapped for this window's trace was found cut on disk (its
 * missing part now reads as zeros): says so above the trace.
 */
void
strata_window_check_file_changed (StrataWindow *self)
{
  g_autofree char *path = NULL;
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;

  g_return_if_fail (STRATA_IS_WINDOW (self));

  if (self->file == NULL || strata_session_get_trace (self->session) == NULL)
    return;
  path = g_file_get_path (self->file);
  if (path == NULL || !strata_load_guard_mapping_changed (path))
    return;
  name = _strata_file_get_display_name (self->file);
  /* Translators: %s is a file name */
  text = g_strdup_printf (_("“%s” was cut short on disk after it was opened: what is read from its missing part now shows as zeros. Open it again to see what it holds now."),
                          name);
  strata_import_banner_show_warning (STRATA_IMPORT_BANNER (self->import_banner), text);
}

/**
 * strata_window_open_or_new:
 *
 * Where a file the user picked goes: this window when it shows nothing to
 * lose (its welcome or error page), else a new window, so the trace on
 * show stays, as GNOME apps do.
 */
void
strata_window_open_or_new (StrataWindow *self,
                           GFile        *file)
{
  GtkApplication *application;

  g_return_if_fail (STRATA_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  application = gtk_window_get_application (GTK_WINDOW (self));
  if (strata_window_is_empty (self) || application == NULL)
    strata_window_open (self, file);
  else
    g_application_open (G_APPLICATION (application), &file, 1, "");
}

gboolean
strata_window_get_busy (StrataWindow *self)
{
  g_return_val_if_fail (STRATA_IS_WINDOW (self), FALSE);

  return self->loader != NULL;
}

/**
 * strata_window_is_empty:
 *
 * Returns: %TRUE when the window shows nothing a new file would replace
 */
gboolean
strata_window_is_empty (StrataWindow *self)
{
  g_return_val_if_fail (STRATA_IS_WINDOW (self), FALSE);

  return self->loader == NULL && strata_session_get_trace (self->session) == NULL;
}

const char *
strata_window_get_page (StrataWindow *self)
{
  g_return_val_if_fail (STRATA_IS_WINDOW (self), NULL);

  return gtk_stack_get_visible_child_name (self->stack);
}

/**
 * strata_window_get_session:
 *
 * Returns: (transfer none): the window's session
 */
StrataSession *
strata_window_get_session (StrataWindow *self)
{
  g_return_val_if_fail (STRATA_IS_WINDOW (self), NULL);

  return self->session;
}

/**
 * strata_window_select_method:
 * @text: part of a method's name
 *
 * Selects the slowest method whose name contains @text, and opens its
 * parents and children in the profile.
 *
 * Returns: whether such a method was found
 */
gboolean
strata_window_select_method (StrataWindow *self,
                             const char   *text)
{
  StrataProfile *profile = strata_session_get_profile (self->session);
  const guint32 *sorted;
  guint n;

  g_return_val_if_fail (STRATA_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  if (profile == NULL)
    return FALSE;

  sorted = strata_profile_get_sorted (profile, 0, &n);
  for (guint i = 0; i < n; i++)
    {
      const char *name = strata_trace_get_method_name (strata_profile_get_trace (profile), sorted[i]);

      if (strstr (name, text) != NULL)
        {
          strata_session_set_selected_method (self->session, sorted[i]);
          strata_profile_view_expand_method (STRATA_PROFILE_VIEW (self->profile_view), sorted[i]);
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * strata_window_show_longest_call:
 *
 * Selects the longest call of the selected method and shows its details
 * (for screenshots of the details pane and its flows).
 */
void
strata_window_show_longest_call (StrataWindow *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  guint32 method = strata_session_get_selected_method (self->session);
  StrataSliceRef longest;

  g_return_if_fail (STRATA_IS_WINDOW (self));

  if (trace == NULL || !strata_trace_find_longest_call (trace, method, &longest))
    return;
  strata_session_select_call (self->session, &longest);
  gtk_notebook_set_current_page (GTK_NOTEBOOK (self->details),
                                 gtk_notebook_page_num (GTK_NOTEBOOK (self->details), self->event_details));
}

/**
 * strata_window_show_call_tree:
 * @view: "tree", "bottom-up", "flame" or "butterfly"
 *
 * Shows the Call Tree page in that view.
 *
 * Returns: whether the tree is ready to be seen
 */
gboolean
strata_window_show_call_tree (StrataWindow *self,
                              const char   *view)
{
  StrataCallTreeView *tree_view = STRATA_CALL_TREE_VIEW (self->call_tree_view);

  g_return_val_if_fail (STRATA_IS_WINDOW (self), FALSE);

  strata_call_tree_view_set_inverted (tree_view, g_strcmp0 (view, "bottom-up") == 0);
  strata_call_tree_view_set_view (tree_view, g_strcmp0 (view, "bottom-up") == 0 ? "tree" : view);
  gtk_notebook_set_current_page (GTK_NOTEBOOK (self->details),
                                 gtk_notebook_page_num (GTK_NOTEBOOK (self->details), self->call_tree_view));
  apply_panels_share (self);
  return strata_call_tree_view_is_ready (tree_view);
}

/**
 * strata_window_show_calls:
 *
 * Shows the Calls page (every call of the selected method), with most of
 * the height.
 */
void
strata_window_show_calls (StrataWindow *self)
{
  g_return_if_fail (STRATA_IS_WINDOW (self));

  gtk_notebook_set_current_page (GTK_NOTEBOOK (self->details),
                                 gtk_notebook_page_num (GTK_NOTEBOOK (self->details), self->calls_view));
  apply_panels_share (self);
}

/**
 * strata_window_find:
 *
 * Searches the timeline for @text, as typed in its search bar, and walks
 * to the first match.
 *
 * Returns: whether there is one
 */
gboolean
strata_window_find (StrataWindow *self,
                    const char   *text)
{
  g_return_val_if_fail (STRATA_IS_WINDOW (self), FALSE);

  strata_search_bar_open (STRATA_SEARCH_BAR (self->search_bar));
  strata_search_bar_set_text (STRATA_SEARCH_BAR (self->search_bar), text, FALSE);
  return strata_session_search_step (self->session, 1);
}

/* For screenshots: a given size that is not saved as the user's choice. */
void
strata_window_set_fixed_size (StrataWindow *self,
                              int           width,
                              int           height)
{
  g_return_if_fail (STRATA_IS_WINDOW (self));

  self->remember_size = FALSE;
  gtk_window_unmaximize (GTK_WINDOW (self));
  gtk_window_set_default_size (GTK_WINDOW (self), width, height);
}

static void
strata_window_dispose (GObject *object)
{
  StrataWindow *self = (StrataWindow *)object;

  _strata_window_cancel_load (self);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->loader);
  g_clear_object (&self->file);
  _strata_window_dispose_compare (self);
  _strata_window_dispose_mapping (self);

  g_clear_object (&self->session);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (strata_window_parent_class)->dispose (object);
}

static void
strata_window_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  StrataWindow *self = STRATA_WINDOW (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, strata_window_get_busy (self));
      break;

    case PROP_FOLLOW_WEAK:
      g_value_set_boolean (value, self->follow_weak);
      break;

    case PROP_SHOW_BASELINE:
      g_value_set_boolean (value, self->show_baseline);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Retained sizes come from the load's graph: a heap dump on show is
 * loaded again to count the other way (as MAT reparses for its options). */
static void
set_follow_weak (StrataWindow *self,
                 gboolean      follow)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  const StrataHeap *heap = trace != NULL ? strata_trace_get_heap (trace) : NULL;

  follow = !!follow;
  if (self->follow_weak == follow)
    return;
  self->follow_weak = follow;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOW_WEAK]);
  if (self->loader == NULL && heap != NULL && strata_heap_get_graph (heap) != NULL &&
      strata_heap_get_weak_followed (heap) != follow)
    strata_window_open (self, strata_trace_get_file (trace));
}

static void
strata_window_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  StrataWindow *self = STRATA_WINDOW (object);

  switch (prop_id)
    {
    case PROP_FOLLOW_WEAK:
      set_follow_weak (self, g_value_get_boolean (value));
      break;

    case PROP_SHOW_BASELINE:
      self->show_baseline = g_value_get_boolean (value);
      _strata_window_update_baseline_timeline (self);
      g_object_notify_by_pspec (object, pspec);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strata_window_class_init (StrataWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = strata_window_dispose;
  object_class->get_property = strata_window_get_property;
  object_class->set_property = strata_window_set_property;
  window_class->close_request = strata_window_close_request;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /* The heap view's "Follow Weak References" toggles it (win.follow-weak). */
  properties[PROP_FOLLOW_WEAK] =
    g_param_spec_boolean ("follow-weak", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /* The baseline's timeline under the trace's, while comparing traces. */
  properties[PROP_SHOW_BASELINE] =
    g_param_spec_boolean ("show-baseline", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_install_property_action (widget_class, "win.follow-weak", "follow-weak");
  gtk_widget_class_install_property_action (widget_class, "win.show-baseline", "show-baseline");

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/strata-window.ui");
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, overlay);
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, drop_overlay);
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, samples_box);
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, samples_list);
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, recent_box);
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, recent_list);
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, recent_menu);
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, loading_title);
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, loading_message);
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, error_title);
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, error_reason);
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, error_open_button);
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, trace_box);
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, view_controls);
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, compact_button);
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, StrataWindow, clock_switch);
  gtk_widget_class_bind_template_child_full (widget_class, "clock0_button", FALSE,
                                             G_STRUCT_OFFSET (StrataWindow, clock_buttons[0]));
  gtk_widget_class_bind_template_child_full (widget_class, "clock1_button", FALSE,
                                             G_STRUCT_OFFSET (StrataWindow, clock_buttons[1]));

  _strata_window_class_init_actions (widget_class);
  _strata_window_class_init_keys (widget_class);

  g_type_ensure (STRATA_TYPE_TRACE_SUMMARY);
}

/* The session's commands (zoom, pan, selection) as "view.*", for every
 * view in the window. */
static void
insert_view_actions (StrataWindow *self)
{
  GActionGroup *actions = strata_session_create_actions (self->session);

  gtk_widget_insert_action_group (GTK_WIDGET (self), "view", actions);
  g_object_unref (actions);
}

static void
strata_window_init (StrataWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->session = strata_session_new ();
  insert_view_actions (self);
  self->remember_size = TRUE;
  self->settings = window_settings_new ();
  restore_window_size (self);

  strata_accessible_name_children (self->menu_button, _("Main Menu"));
  build_trace_page (self);
  if (self->settings != NULL)
    {
      g_settings_bind (self->settings, "flame-root-at-bottom", self->call_tree_view, "root-at-bottom", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (self->settings, "inspector-width", self->heap_view, "inspector-width", G_SETTINGS_BIND_DEFAULT);
    }
  _strata_window_init_actions (self);
  _strata_window_init_dnd (self);
  _strata_window_init_keys (self);
  _strata_window_update_actions (self);
}

StrataWindow *
strata_window_new (GtkApplication *application)
{
  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);

  return g_object_new (STRATA_TYPE_WINDOW, "application", application, NULL);
}
