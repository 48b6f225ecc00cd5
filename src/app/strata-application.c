/* strata-application.c: command line, app actions, one window per file
 *
 * The command line is read with cli's one table of options. Reports
 * and exports run here, before GTK starts, and need no display. Anything
 * for a window goes to the primary instance whole: a second `strata`
 * hands its command line over (G_APPLICATION_HANDLES_COMMAND_LINE), and
 * the primary reads it again, so --compare, --mapping, --view and the
 * rest act on the window it opens (StrataOpenRequest). --screenshot is
 * the harness's (strata-screenshot.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <unistd.h>
#include <glib/gi18n.h>
#include <glib-unix.h>

#include "strata-application.h"
#include "strata-cli-options.h"
#include "strata-export.h"
#include "strata-load-guard.h"
#include "strata-open-request.h"
#include "strata-report.h"
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
    strata_screenshot_harness_window_ready (self->screenshot, STRATA_WINDOW (window));
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

static void
request_done_cb (StrataWindow *window,
                 gpointer      user_data)
{
  StrataApplication *self = user_data;

  if (self->screenshot != NULL)
    strata_screenshot_harness_window_ready (self->screenshot, window);
}

/* Each file in a window of its own (an empty one first), with what the
 * command line asks of it. */
static void
open_files (StrataApplication       *self,
            const StrataCliOptions  *options,
            GApplicationCommandLine *command_line)
{
  for (guint i = 0; options->files[i] != NULL; i++)
    {
      g_autoptr(GFile) file = g_application_command_line_create_file_for_arg (command_line, options->files[i]);
      StrataWindow *window = find_empty_window (self);

      if (window == NULL)
        window = create_window (self);
      g_object_set (window, "follow-weak", options->follow_weak, NULL);
      strata_window_open (window, file);
      strata_open_request_apply (strata_open_request_new (options, command_line), window,
                                 request_done_cb, self);
      gtk_window_present (GTK_WINDOW (window));
    }
}

/* In the primary instance: a command line of this process, or of a
 * second `strata` that handed it over; its paths are relative to where
 * that one was started. */
static int
strata_application_command_line (GApplication            *application,
                                 GApplicationCommandLine *command_line)
{
  StrataApplication *self = STRATA_APPLICATION (application);
  g_auto(StrataCliOptions) options;
  g_auto(GStrv) arguments = g_application_command_line_get_arguments (command_line, NULL);
  g_autoptr(GError) error = NULL;

  strata_cli_options_init (&options);
  if (!strata_cli_options_parse (&options, arguments, &error) || !strata_cli_options_check (&options, &error))
    {
      g_application_command_line_printerr (command_line, "strata: %s\n", error->message);
      return STRATA_EXIT_USAGE;
    }
  if (options.files == NULL || options.files[0] == NULL)
    g_application_activate (application);
  else
    open_files (self, &options, command_line);
  return STRATA_EXIT_OK;
}

/* Before GTK starts: help, the version, reports and exports are done
 * here; a window's command line goes on to the primary instance. */
static gboolean
strata_application_local_command_line (GApplication   *application,
                                       char         ***arguments,
                                       int            *exit_status)
{
  StrataApplication *self = STRATA_APPLICATION (application);
  g_auto(StrataCliOptions) options;
  g_autoptr(GError) error = NULL;

  strata_cli_options_init (&options);
  *exit_status = STRATA_EXIT_OK;
  if (strata_cli_options_wants_help (*arguments))
    {
      g_autofree char *help = strata_cli_options_help ();

      g_print ("%s", help);
      return TRUE;
    }
  if (!strata_cli_options_parse (&options, *arguments, &error) || !strata_cli_options_check (&options, &error))
    {
      g_printerr ("strata: %s\n", error->message);
      g_printerr ("%s\n", _("Run “strata --help” to see every option."));
      *exit_status = STRATA_EXIT_USAGE;
      return TRUE;
    }
  if (options.version)
    {
      g_print ("strata %s\n", PACKAGE_VERSION);
      return TRUE;
    }
  switch (strata_cli_options_get_mode (&options))
    {
    case STRATA_CLI_REPORT:
      *exit_status = strata_report_run (&options);
      return TRUE;
    case STRATA_CLI_EXPORT:
      *exit_status = strata_export_run (&options);
      return TRUE;
    case STRATA_CLI_WINDOW:
    default:
      break;
    }
  if (options.screenshot != NULL)
    {
      if (!(self->screenshot = strata_screenshot_harness_new (self, &options, exit_status)))
        return TRUE;
      /* A screenshot run is self-contained: it must not hand its files to
       * an instance that is already running. */
      g_application_set_flags (application,
                               g_application_get_flags (application) | G_APPLICATION_NON_UNIQUE);
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
                         "comments", _("A viewer for Android method traces, Java heap dumps, Chrome and Perfetto traces and JavaScript profiles"),
                         "website", PACKAGE_WEBSITE,
                         "copyright", _("© 2026 The Strata developers"),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "authors", developers,
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
help_shown_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!gtk_show_uri_full_finish (GTK_WINDOW (source), result, &error))
    g_warning ("The help could not be shown: %s", error->message);
}

/* F1: the manual, installed with the app and read by Yelp. */
static void
help_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  GtkWindow *window = gtk_application_get_active_window (user_data);

  gtk_show_uri_full (window, "help:strata", GDK_CURRENT_TIME, NULL, help_shown_cb, NULL);
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
  { "help", help_action },
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

/* A file mapped for a window was cut on disk: each window looks whether
 * it was its own. */
static gboolean
file_changed_cb (int           fd,
                 GIOCondition  condition,
                 gpointer      data)
{
  GtkApplication *app = data;
  char drained[64];

  while (read (fd, drained, sizeof drained) > 0)
    ;
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (STRATA_IS_WINDOW (l->data))
      strata_window_check_file_changed (l->data);
  return G_SOURCE_CONTINUE;
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
  static const char *help_accels[] = { "F1", NULL };

  G_APPLICATION_CLASS (strata_application_parent_class)->startup (application);

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions,
                                   G_N_ELEMENTS (app_actions), self);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "win.open", open_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "win.close", close_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.new-window", new_window_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "win.compare", compare_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "win.export-image", export_image_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.help", help_accels);

  gtk_window_set_default_icon_name (APP_ID);
  load_css ();
  if (strata_load_guard_get_changed_fd () >= 0)
    g_unix_fd_add (strata_load_guard_get_changed_fd (), G_IO_IN, file_changed_cb, self);

  if (self->screenshot != NULL)
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
  app_class->command_line = strata_application_command_line;
  app_class->local_command_line = strata_application_local_command_line;
}

static void
strata_application_init (StrataApplication *self)
{
}

StrataApplication *
strata_application_new (void)
{
  return g_object_new (STRATA_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN | G_APPLICATION_HANDLES_COMMAND_LINE,
                       "resource-base-path", RESOURCE_PREFIX,
                       NULL);
}

int
strata_application_get_exit_status (StrataApplication *self)
{
  g_return_val_if_fail (STRATA_IS_APPLICATION (self), EXIT_FAILURE);

  return self->exit_status;
}
