/* strata-application.c: command line, app actions, one window per file
 *
 * --screenshot and the options that shape it are the harness's
 * (strata-screenshot.c); --report is strata-report.c's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-application.h"
#include "strata-report.h"
#include "strata-export.h"
#include "strata-screenshot.h"
#include "strata-session.h"
#include "strata-window.h"

struct _StrataApplication
{
  GtkApplication           parent_instance;

  StrataScreenshotHarness *screenshot;
  int                      exit_status;
};

G_DEFINE_FINAL_TYPE (StrataApplication, strata_application, GTK_TYPE_APPLICATION)

static const GOptionEntry main_entries[] = {
  { "version", 'v', 0, G_OPTION_ARG_NONE, NULL, N_("Show the version and exit"), NULL },
  { "report", 'r', 0, G_OPTION_ARG_NONE, NULL, N_("Print the profile of FILE as text, without a window"), NULL },
  { "format", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Report format with --report: “text” or “json”"), N_("FORMAT") },
  { NULL }
};

void
strata_application_quit_with_status (StrataApplication *self,
                                     int                status)
{
  g_return_if_fail (STRATA_IS_APPLICATION (self));

  self->exit_status = status;
  g_application_quit (G_APPLICATION (self));
}

static StrataWindow *
create_window (StrataApplication *self)
{
  StrataWindow *window = strata_window_new (GTK_APPLICATION (self));

  if (self->screenshot != NULL)
    strata_screenshot_harness_watch (self->screenshot, window);
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
  if (self->screenshot != NULL)
    strata_screenshot_harness_activate (self->screenshot);
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

static int
strata_application_handle_local_options (GApplication *application,
                                         GVariantDict *options)
{
  StrataApplication *self = STRATA_APPLICATION (application);
  int exit_status = EXIT_SUCCESS;

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("strata %s\n", PACKAGE_VERSION);
      return EXIT_SUCCESS;
    }

  if (!(self->screenshot = strata_screenshot_harness_new (self, options, &exit_status)))
    return exit_status;
  if (strata_screenshot_harness_takes_screenshot (self->screenshot))
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
  if (strata_export_is_requested (*arguments))
    {
      *exit_status = strata_export_main (*arguments);
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
  static const char *compare_accels[] = { "<Control>d", NULL };
  static const char *export_image_accels[] = { "<Control><Shift>e", NULL };

  G_APPLICATION_CLASS (strata_application_parent_class)->startup (application);

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions,
                                   G_N_ELEMENTS (app_actions), self);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "win.open", open_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "win.close", close_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.new-window", new_window_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "win.compare", compare_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "win.export-image", export_image_accels);

  gtk_window_set_default_icon_name (APP_ID);
  load_css ();

  if (self->screenshot != NULL && strata_screenshot_harness_takes_screenshot (self->screenshot))
    g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
}

static void
strata_application_finalize (GObject *object)
{
  StrataApplication *self = (StrataApplication *)object;

  g_clear_pointer (&self->screenshot, strata_screenshot_harness_free);

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
  g_application_add_main_option_entries (G_APPLICATION (self), main_entries);
  strata_screenshot_harness_add_options (G_APPLICATION (self));
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
