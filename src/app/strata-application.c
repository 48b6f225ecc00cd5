/* strata-application.c: command line, app actions, one window per file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>

#include "strata-application.h"
#include "strata-report.h"
#include "strata-screenshot.h"
#include "strata-session.h"
#include "strata-window.h"

#define SCREENSHOT_FRAMES 8
#define SCREENSHOT_MAX_RESIZES 5
#define SCREENSHOT_TIMEOUT_SECONDS 300
#define DEFAULT_SCREENSHOT_WIDTH 1280
#define DEFAULT_SCREENSHOT_HEIGHT 800

struct _StrataApplication
{
  GtkApplication  parent_instance;

  char           *screenshot_path;
  int             screenshot_width;
  int             screenshot_height;
  StrataWindow   *screenshot_window;
  guint           screenshot_frames;
  guint           screenshot_resizes;
  int             exit_status;
  gboolean        has_range;
  char           *select;
  gboolean        details;
  double          range_from_ms;
  double          range_to_ms;
};

G_DEFINE_FINAL_TYPE (StrataApplication, strata_application, GTK_TYPE_APPLICATION)

static const GOptionEntry main_entries[] = {
  { "version", 'v', 0, G_OPTION_ARG_NONE, NULL, N_("Show the version and exit"), NULL },
  { "report", 'r', 0, G_OPTION_ARG_NONE, NULL, N_("Print the profile of FILE as text, without a window"), NULL },
  { "format", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Report format with --report: “text” or “json”"), N_("FORMAT") },
  { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL, N_("Save the window as a PNG once FILE has loaded, then quit"), N_("PNG") },
  { "size", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Window size for --screenshot, such as 1280x800"), N_("WxH") },
  { "range", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Show this part of the trace, in milliseconds from its start, such as 120.5-180"), N_("FROM-TO") },
  { "select", 0, 0, G_OPTION_ARG_STRING, NULL, N_("With --screenshot: select the slowest method whose name contains TEXT and show its parents and children"), N_("TEXT") },
  { "details", 0, 0, G_OPTION_ARG_NONE, NULL, N_("With --select: select that method’s longest call and show its details"), NULL },
  { NULL }
};

static void
quit_with_status (StrataApplication *self,
                  int                status)
{
  self->exit_status = status;
  g_application_quit (G_APPLICATION (self));
}

static gboolean
screenshot_tick_cb (GtkWidget     *widget,
                    GdkFrameClock *frame_clock,
                    gpointer       user_data)
{
  StrataApplication *self = user_data;
  g_autoptr(GError) error = NULL;

  /* Client-side decorations take a few pixels of the default size; grow
   * the window until the picture has the size that was asked for. */
  if (gtk_widget_get_width (widget) != self->screenshot_width ||
      gtk_widget_get_height (widget) != self->screenshot_height)
    {
      int width, height;

      gtk_window_get_default_size (GTK_WINDOW (widget), &width, &height);
      if (++self->screenshot_resizes <= SCREENSHOT_MAX_RESIZES)
        {
          self->screenshot_frames = 0;
          gtk_window_set_default_size (GTK_WINDOW (widget),
                                       width + self->screenshot_width - gtk_widget_get_width (widget),
                                       height + self->screenshot_height - gtk_widget_get_height (widget));
          return G_SOURCE_CONTINUE;
        }
    }

  /* Let layout settle and the final page draw before capturing it. */
  if (++self->screenshot_frames < SCREENSHOT_FRAMES)
    return G_SOURCE_CONTINUE;

  if (!strata_screenshot_save (widget, self->screenshot_path, &error))
    {
      g_printerr ("strata: %s\n", error->message);
      quit_with_status (self, EXIT_FAILURE);
    }
  else
    {
      g_print ("%s %s %dx%d\n", _("Saved"), self->screenshot_path,
               gtk_widget_get_width (widget), gtk_widget_get_height (widget));
      quit_with_status (self, EXIT_SUCCESS);
    }

  return G_SOURCE_REMOVE;
}

static void
apply_range (StrataApplication *self,
             StrataWindow      *window)
{
  StrataSession *session = strata_window_get_session (window);
  gint64 start, end;

  if (!self->has_range || strata_session_get_trace (session) == NULL)
    return;
  strata_session_get_bounds (session, &start, &end);
  strata_session_set_visible_range (session,
                                    start + (gint64) (self->range_from_ms * 1e6),
                                    start + (gint64) (self->range_to_ms * 1e6));
}

static void
window_busy_changed_cb (StrataApplication *self,
                        GParamSpec        *pspec,
                        StrataWindow      *window)
{
  if (!strata_window_get_busy (window))
    apply_range (self, window);
}

static void
screenshot_when_idle (StrataApplication *self)
{
  StrataWindow *window = self->screenshot_window;
  StrataSession *session;

  if (window == NULL || strata_window_get_busy (window))
    return;

  /* The profile panel fills in once the profile is ready. */
  session = strata_window_get_session (window);
  if (strata_session_get_trace (session) != NULL && strata_session_get_profile (session) == NULL)
    {
      g_signal_connect_object (session, "notify::profile",
                               G_CALLBACK (screenshot_when_idle), self, G_CONNECT_SWAPPED);
      return;
    }
  g_signal_handlers_disconnect_by_data (session, self);
  if (self->select != NULL && strata_window_select_method (window, self->select) && self->details)
    strata_window_show_longest_call (window);

  g_signal_handlers_disconnect_by_data (window, self);
  self->screenshot_frames = 0;
  gtk_widget_add_tick_callback (GTK_WIDGET (window), screenshot_tick_cb, self, NULL);
}

static gboolean
screenshot_timeout_cb (gpointer user_data)
{
  StrataApplication *self = user_data;

  g_printerr ("strata: %s\n", _("gave up waiting for the window to be ready for the screenshot"));
  quit_with_status (self, EXIT_FAILURE);

  return G_SOURCE_REMOVE;
}

static StrataWindow *
create_window (StrataApplication *self)
{
  StrataWindow *window = strata_window_new (GTK_APPLICATION (self));

  g_signal_connect_object (window, "notify::busy", G_CALLBACK (window_busy_changed_cb),
                           self, G_CONNECT_SWAPPED);
  if (self->screenshot_path != NULL && self->screenshot_window == NULL)
    {
      self->screenshot_window = window;
      strata_window_set_fixed_size (window, self->screenshot_width, self->screenshot_height);
      g_signal_connect_object (window, "notify::busy",
                               G_CALLBACK (screenshot_when_idle), self, G_CONNECT_SWAPPED);
      g_timeout_add_seconds (SCREENSHOT_TIMEOUT_SECONDS, screenshot_timeout_cb, self);
    }

  return window;
}

static void
strata_application_activate (GApplication *application)
{
  StrataApplication *self = STRATA_APPLICATION (application);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    window = GTK_WINDOW (create_window (self));

  gtk_window_present (window);
  screenshot_when_idle (self);
}

/* An empty window (welcome page) is reused before new ones are made. */
static StrataWindow *
find_empty_window (StrataApplication *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l; l = l->next)
    if (STRATA_IS_WINDOW (l->data) && strata_window_is_empty (l->data))
      return l->data;
  return NULL;
}

static void
strata_application_open (GApplication  *application,
                         GFile        **files,
                         int            n_files,
                         const char    *hint)
{
  StrataApplication *self = STRATA_APPLICATION (application);

  for (int i = 0; i < n_files; i++)
    {
      StrataWindow *window = find_empty_window (self);

      if (window == NULL)
        window = create_window (self);
      strata_window_open (window, files[i]);
      gtk_window_present (GTK_WINDOW (window));
    }
}

static gboolean
parse_size (const char *text,
            int        *width,
            int        *height)
{
  guint64 w, h;
  g_auto(GStrv) parts = g_strsplit (text, "x", 2);

  if (g_strv_length (parts) != 2 ||
      !g_ascii_string_to_unsigned (parts[0], 10, 200, 10000, &w, NULL) ||
      !g_ascii_string_to_unsigned (parts[1], 10, 200, 10000, &h, NULL))
    return FALSE;

  *width = w;
  *height = h;
  return TRUE;
}

static gboolean
parse_range (const char *text,
             double     *from,
             double     *to)
{
  g_auto(GStrv) parts = g_strsplit (text, "-", 2);
  char *end = NULL;

  if (g_strv_length (parts) != 2)
    return FALSE;
  *from = g_ascii_strtod (parts[0], &end);
  if (end == parts[0] || *end != '\0')
    return FALSE;
  *to = g_ascii_strtod (parts[1], &end);
  return end != parts[1] && *end == '\0' && *from >= 0 && *to > *from;
}

static int
strata_application_handle_local_options (GApplication *application,
                                         GVariantDict *options)
{
  StrataApplication *self = STRATA_APPLICATION (application);
  const char *size = NULL;
  const char *range = NULL;

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("strata %s\n", PACKAGE_VERSION);
      return EXIT_SUCCESS;
    }

  if (g_variant_dict_lookup (options, "size", "&s", &size) &&
      !parse_size (size, &self->screenshot_width, &self->screenshot_height))
    {
      g_printerr ("strata: %s\n", _("--size takes WIDTHxHEIGHT, such as 1280x800"));
      return 2;
    }

  g_variant_dict_lookup (options, "select", "s", &self->select);
  g_variant_dict_lookup (options, "details", "b", &self->details);
  if (g_variant_dict_lookup (options, "range", "&s", &range) &&
      !parse_range (range, &self->range_from_ms, &self->range_to_ms))
    {
      g_printerr ("strata: %s\n", _("--range takes FROM-TO in milliseconds, such as 120.5-180"));
      return 2;
    }
  self->has_range = range != NULL;

  if (g_variant_dict_lookup (options, "screenshot", "^ay", &self->screenshot_path))
    {
      /* A screenshot run is self-contained: it must not hand its files to
       * an instance that is already running. */
      g_application_set_flags (application,
                               g_application_get_flags (application) | G_APPLICATION_NON_UNIQUE);
    }

  return -1;
}

static gboolean
strata_application_local_command_line (GApplication   *application,
                                       char         ***arguments,
                                       int            *exit_status)
{
  if (strata_report_is_requested (*arguments))
    {
      *exit_status = strata_report_main (*arguments);
      return TRUE;
    }

  return G_APPLICATION_CLASS (strata_application_parent_class)->local_command_line (application, arguments, exit_status);
}

static void
about_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  GtkApplication *application = user_data;
  const char *developers[] = { _("The Strata developers"), NULL };

  gtk_show_about_dialog (gtk_application_get_active_window (application),
                         "program-name", _("Strata"),
                         "logo-icon-name", APP_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("A viewer for Android method traces, Java HPROF profiles and Chrome traces"),
                         "website", PACKAGE_WEBSITE,
                         "copyright", _("© 2026 The Strata developers"),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "authors", developers,
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
new_window_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  gtk_window_present (GTK_WINDOW (create_window (user_data)));
}

static void
quit_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  GtkApplication *application = user_data;
  GList *windows;

  /* Closing each window lets it save its size and cancel its load. */
  while ((windows = gtk_application_get_windows (application)) != NULL)
    gtk_window_destroy (windows->data);
}

static const GActionEntry app_actions[] = {
  { "about", about_action },
  { "new-window", new_window_action },
  { "quit", quit_action },
};

static void
load_css (void)
{
  g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();

  gtk_css_provider_load_from_resource (provider, RESOURCE_PREFIX "/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                              GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

static void
strata_application_startup (GApplication *application)
{
  StrataApplication *self = STRATA_APPLICATION (application);
  static const char *open_accels[] = { "<Control>o", NULL };
  static const char *close_accels[] = { "<Control>w", NULL };
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *new_window_accels[] = { "<Control>n", NULL };

  G_APPLICATION_CLASS (strata_application_parent_class)->startup (application);

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions,
                                   G_N_ELEMENTS (app_actions), self);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "win.open", open_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "win.close", close_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.new-window", new_window_accels);

  gtk_window_set_default_icon_name (APP_ID);
  load_css ();

  if (self->screenshot_path != NULL)
    g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
}

static void
strata_application_finalize (GObject *object)
{
  StrataApplication *self = (StrataApplication *)object;

  g_clear_pointer (&self->screenshot_path, g_free);
  g_clear_pointer (&self->select, g_free);

  G_OBJECT_CLASS (strata_application_parent_class)->finalize (object);
}

static void
strata_application_class_init (StrataApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = strata_application_finalize;
  app_class->activate = strata_application_activate;
  app_class->open = strata_application_open;
  app_class->startup = strata_application_startup;
  app_class->handle_local_options = strata_application_handle_local_options;
  app_class->local_command_line = strata_application_local_command_line;
}

static void
strata_application_init (StrataApplication *self)
{
  self->screenshot_width = DEFAULT_SCREENSHOT_WIDTH;
  self->screenshot_height = DEFAULT_SCREENSHOT_HEIGHT;

  g_application_add_main_option_entries (G_APPLICATION (self), main_entries);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FILE…]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("View Android method traces, Java HPROF profiles and Chrome Trace Event JSON."));
}

StrataApplication *
strata_application_new (void)
{
  return g_object_new (STRATA_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", RESOURCE_PREFIX,
                       NULL);
}

int
strata_application_get_exit_status (StrataApplication *self)
{
  g_return_val_if_fail (STRATA_IS_APPLICATION (self), EXIT_FAILURE);

  return self->exit_status;
}
