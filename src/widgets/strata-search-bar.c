/* strata-search-bar.c: find calls, slices, events and tracks by name
 *
 * A bar over the timeline, opened by Ctrl+F or / from any pane. What it
 * matches (a substring without regard to case, or a regular expression)
 * stands out in every thread while the rest dims; the bar counts the
 * matches, Enter and Shift+Enter walk them in time order, zooming to each,
 * and Escape clears the search and closes the bar.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-search-bar.h"
#include "strata-track-prefs.h"
#include "strata-units.h"

struct _StrataSearchBar
{
  GtkWidget      parent_instance;

  StrataSession *session;
  GtkWidget     *bar;
  GtkWidget     *entry;
  GtkWidget     *regex_button;
  GtkWidget     *tracks_button;  /* only the tracks whose names match */
  GtkWidget     *status;
};

G_DEFINE_FINAL_TYPE (StrataSearchBar, strata_search_bar, GTK_TYPE_WIDGET)

/* Tracks whose names match: threads with calls (those the timeline
 * draws), processes, counters. */
static guint
count_tracks (StrataTrace        *trace,
              const StrataSearch *search)
{
  guint n = 0;

  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    n += strata_trace_get_thread (trace, t)->spans != NULL &&
         strata_search_matches_name (search, strata_trace_get_string (trace, strata_trace_get_thread (trace, t)->name));
  for (guint p = 0; p < strata_trace_get_n_processes (trace); p++)
    n += strata_search_matches_name (search, strata_trace_get_string (trace, strata_trace_get_process (trace, p)->name));
  for (guint c = 0; c < strata_trace_get_n_counters (trace); c++)
    n += strata_search_matches_name (search, strata_trace_get_string (trace, strata_trace_get_counter (trace, c)->name));
  return n;
}

static char *
describe_matches (StrataTrace        *trace,
                  const StrataSearch *search)
{
  guint64 n_calls = strata_search_count_calls (search);
  guint n_events = strata_search_count_events (search);
  guint n_tracks = count_tracks (trace, search);
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *calls = strata_units_format_count (n_calls);

  if (n_calls + n_events + n_tracks == 0)
    return g_strdup (_("No matches"));
  if (n_calls > 0)
    /* Translators: how many calls a search matched */
    g_ptr_array_add (parts, g_strdup_printf (ngettext ("%s call", "%s calls", (gulong) n_calls), calls));
  if (n_events > 0)
    /* Translators: how many events a search matched */
    g_ptr_array_add (parts, g_strdup_printf (ngettext ("%u event", "%u events", n_events), n_events));
  if (n_tracks > 0)
    /* Translators: how many tracks' names a search matched */
    g_ptr_array_add (parts, g_strdup_printf (ngettext ("%u track", "%u tracks", n_tracks), n_tracks));
  g_ptr_array_add (parts, NULL);
  return g_strjoinv (" · ", (char **) parts->pdata);
}

/* The track filter is the search itself while its button is down. */
static void
update_track_filter (StrataSearchBar *self)
{
  const StrataSearch *search = strata_session_get_search (self->session);
  StrataTrackPrefs *prefs = strata_session_get_track_prefs (self->session);
  StrataSearch *filter = NULL;

  if (search != NULL && gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->tracks_button)) &&
      gtk_search_bar_get_search_mode (GTK_SEARCH_BAR (self->bar)))
    filter = strata_search_ref (search);
  if (filter == NULL && prefs->filter == NULL)
    return;
  strata_track_prefs_set_filter (prefs, filter);
  strata_session_tracks_changed (self->session);
}

static void
update_search (StrataSearchBar *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  gboolean regex = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->regex_button));
  g_autoptr(GError) error = NULL;
  g_autofree char *status = NULL;
  StrataSearch *search = NULL;

  if (trace != NULL && *text != '\0')
    search = strata_search_new (trace, text, regex, &error);
  if (search != NULL)
    status = describe_matches (trace, search);
  else if (error != NULL)
    /* Translators: %s says what is wrong with a regular expression */
    status = g_strdup_printf (_("Not a valid expression: %s"), error->message);
  strata_session_set_search (self->session, search);
  gtk_label_set_label (GTK_LABEL (self->status), status != NULL ? status : "");
  update_track_filter (self);
}

static void
next_match_cb (StrataSearchBar *self)
{
  strata_session_search_step (self->session, 1);
}

static void
previous_match_cb (StrataSearchBar *self)
{
  strata_session_search_step (self->session, -1);
}

static gboolean
shift_enter_cb (GtkWidget *widget,
                GVariant  *args,
                gpointer   user_data)
{
  previous_match_cb (user_data);
  return TRUE;
}

/* Escape: the search goes, and so does the bar. */
static void
stop_search_cb (StrataSearchBar *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->entry), "");
  gtk_search_bar_set_search_mode (GTK_SEARCH_BAR (self->bar), FALSE);
}

static void
search_mode_cb (StrataSearchBar *self)
{
  if (!gtk_search_bar_get_search_mode (GTK_SEARCH_BAR (self->bar)))
    {
      strata_session_set_search (self->session, NULL);
      update_track_filter (self);
    }
  else
    update_search (self);
}

static GtkWidget *
icon_button (const char *icon,
             const char *tooltip)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
  return button;
}

static void
build (StrataSearchBar *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *previous = icon_button ("go-up-symbolic", _("Previous Match (Shift+Enter)"));
  GtkWidget *next = icon_button ("go-down-symbolic", _("Next Match (Enter)"));
  GtkWidget *close = icon_button ("window-close-symbolic", _("Close the Search (Escape)"));
  GtkEventController *keys = gtk_shortcut_controller_new ();

  self->entry = gtk_search_entry_new ();
  gtk_widget_set_size_request (self->entry, 360, -1);
  g_object_set (self->entry, "placeholder-text", _("Find Calls, Events and Tracks"), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Find in the Timeline"), -1);
  self->regex_button = gtk_toggle_button_new_with_label (".*");
  gtk_widget_set_tooltip_text (self->regex_button, _("Regular Expression"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->regex_button), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Regular Expression"), -1);
  self->tracks_button = gtk_toggle_button_new_with_mnemonic (_("Only Matching _Tracks"));
  gtk_widget_set_tooltip_text (self->tracks_button, _("Show only the threads, counters and processes whose names match"));
  self->status = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->status, "dim-label");
  gtk_label_set_ellipsize (GTK_LABEL (self->status), PANGO_ELLIPSIZE_END);
  gtk_box_append (GTK_BOX (box), self->entry);
  gtk_box_append (GTK_BOX (box), self->regex_button);
  gtk_box_append (GTK_BOX (box), previous);
  gtk_box_append (GTK_BOX (box), next);
  gtk_box_append (GTK_BOX (box), self->tracks_button);
  gtk_box_append (GTK_BOX (box), self->status);
  gtk_box_append (GTK_BOX (box), close);

  self->bar = gtk_search_bar_new ();
  gtk_search_bar_set_child (GTK_SEARCH_BAR (self->bar), box);
  gtk_search_bar_connect_entry (GTK_SEARCH_BAR (self->bar), GTK_EDITABLE (self->entry));
  /* A close button of our own: GTK's has no name for screen readers. */
  gtk_widget_add_css_class (close, "flat");
  g_signal_connect_swapped (close, "clicked", G_CALLBACK (stop_search_cb), self);
  gtk_widget_set_parent (self->bar, GTK_WIDGET (self));

  g_signal_connect_swapped (self->entry, "search-changed", G_CALLBACK (update_search), self);
  g_signal_connect_swapped (self->regex_button, "toggled", G_CALLBACK (update_search), self);
  g_signal_connect_swapped (self->tracks_button, "toggled", G_CALLBACK (update_track_filter), self);
  g_signal_connect_swapped (self->entry, "activate", G_CALLBACK (next_match_cb), self);
  g_signal_connect_swapped (self->entry, "next-match", G_CALLBACK (next_match_cb), self);
  g_signal_connect_swapped (self->entry, "previous-match", G_CALLBACK (previous_match_cb), self);
  g_signal_connect_swapped (self->entry, "stop-search", G_CALLBACK (stop_search_cb), self);
  g_signal_connect_swapped (next, "clicked", G_CALLBACK (next_match_cb), self);
  g_signal_connect_swapped (previous, "clicked", G_CALLBACK (previous_match_cb), self);
  g_signal_connect_swapped (self->bar, "notify::search-mode-enabled", G_CALLBACK (search_mode_cb), self);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Return, GDK_SHIFT_MASK),
                                                          gtk_callback_action_new (shift_enter_cb, self, NULL)));
  gtk_widget_add_controller (self->entry, keys);
}

/* A new trace: the search was the old one's. */
static void
trace_changed_cb (StrataSearchBar *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->entry), "");
  gtk_search_bar_set_search_mode (GTK_SEARCH_BAR (self->bar), FALSE);
}

static void
strata_search_bar_dispose (GObject *object)
{
  StrataSearchBar *self = STRATA_SEARCH_BAR (object);

  g_clear_pointer (&self->bar, gtk_widget_unparent);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (strata_search_bar_parent_class)->dispose (object);
}

static void
strata_search_bar_class_init (StrataSearchBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strata_search_bar_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "timelinesearch");
}

static void
strata_search_bar_init (StrataSearchBar *self)
{
  build (self);
}

GtkWidget *
strata_search_bar_new (StrataSession *session)
{
  StrataSearchBar *self;

  g_return_val_if_fail (STRATA_IS_SESSION (session), NULL);

  self = g_object_new (STRATA_TYPE_SEARCH_BAR, NULL);
  self->session = g_object_ref (session);
  g_signal_connect_object (session, "notify::trace", G_CALLBACK (trace_changed_cb), self, G_CONNECT_SWAPPED);
  return GTK_WIDGET (self);
}

/* Shows the bar with its text selected, focus in it. */
void
strata_search_bar_open (StrataSearchBar *self)
{
  g_return_if_fail (STRATA_IS_SEARCH_BAR (self));

  gtk_search_bar_set_search_mode (GTK_SEARCH_BAR (self->bar), TRUE);
  gtk_widget_grab_focus (self->entry);
  gtk_editable_select_region (GTK_EDITABLE (self->entry), 0, -1);
}

/* As if typed: for tests and the command line. */
void
strata_search_bar_set_text (StrataSearchBar *self,
                            const char      *text,
                            gboolean         regex)
{
  g_return_if_fail (STRATA_IS_SEARCH_BAR (self));

  g_signal_handlers_block_by_func (self->regex_button, update_search, self);

  gtk_search_bar_set_search_mode (GTK_SEARCH_BAR (self->bar), TRUE);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->regex_button), regex);
  g_signal_handlers_unblock_by_func (self->regex_button, update_search, self);
  gtk_editable_set_text (GTK_EDITABLE (self->entry), text);
  update_search (self);
}

/* Only the tracks whose names match the search, as its button does. */
void
strata_search_bar_set_filter_tracks (StrataSearchBar *self,
                                     gboolean         only_matching)
{
  g_return_if_fail (STRATA_IS_SEARCH_BAR (self));

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->tracks_button), only_matching);
}

/* What the bar says of the matches: "12 calls · 3 events", "No matches". */
const char *
strata_search_bar_get_status (StrataSearchBar *self)
{
  g_return_val_if_fail (STRATA_IS_SEARCH_BAR (self), NULL);

  return gtk_label_get_label (GTK_LABEL (self->status));
}
