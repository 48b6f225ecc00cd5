/* strata-test-gtk.c: helpers shared by the GTK test programs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-call-tree-view.h"
#include "strata-session.h"
#include "strata-test-gtk.h"
#include "strata-test-util.h"
#include "strata-window-private.h"
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

#define WAIT_TIMEOUT_SECONDS 30

/* Opens the display. Under xvfb-run several test programs connect at
 * once and one may be turned away for a moment, so a display that is set
 * is tried for a few seconds, and one that never answers is an error: a
 * skipped UI test would hide what it was meant to catch. Without any
 * display set, FALSE (the programs then skip). */
gboolean
strata_test_init_gtk (void)
{
  gboolean expected = g_getenv ("DISPLAY") != NULL || g_getenv ("WAYLAND_DISPLAY") != NULL;

  for (guint attempt = 0; attempt < 50; attempt++)
    {
      if (gtk_init_check ())
        return TRUE;
      if (!expected)
        return FALSE;
      g_usleep (100 * 1000);
    }
  g_error ("The display %s does not answer", g_getenv ("DISPLAY"));
  return FALSE;
}

static gboolean
timeout_cb (gpointer data)
{
  g_error ("timed out waiting for the window");
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until @done says so, failing the test after half a
 * minute. */
void
strata_test_iterate_until (gboolean (*done) (gpointer),
                           gpointer   data)
{
  guint timeout = g_timeout_add_seconds (WAIT_TIMEOUT_SECONDS, timeout_cb, NULL);

  while (!done (data))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout);
}

static gboolean
window_idle (gpointer window)
{
  return !strata_window_get_busy (window);
}

/* Until the window has finished loading (or failing to). */
void
strata_test_wait_for_window (StrataWindow *window)
{
  strata_test_iterate_until (window_idle, window);
}

/* An application that does not hand its work to another instance. */
StrataApplication *
strata_test_new_app (void)
{
  StrataApplication *app = strata_application_new ();
  g_autoptr(GError) error = NULL;

  g_application_set_flags (G_APPLICATION (app),
                           g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  return app;
}

/* Without a display, a GTK test program has nothing to run. */
void
strata_test_skip_no_display (void)
{
  g_test_skip ("no display; run under xvfb-run");
}

StrataWindow *
strata_test_only_window (StrataApplication *app)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (app));

  g_assert_cmpuint (g_list_length (windows), ==, 1);
  g_assert_true (STRATA_IS_WINDOW (windows->data));
  return windows->data;
}

void
strata_test_destroy_windows (StrataApplication *app)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  GList *windows;

  /* Dialogs first: the shortcuts window and the about dialog. */
  while (g_list_model_get_n_items (toplevels) > g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))))
    {
      for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
        {
          g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

          if (!STRATA_IS_WINDOW (window))
            {
              gtk_window_destroy (window);
              break;
            }
        }
    }

  while ((windows = gtk_application_get_windows (GTK_APPLICATION (app))) != NULL)
    {
      GtkWidget *window = windows->data;

      g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
      gtk_window_destroy (GTK_WINDOW (window));
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_assert_null (window);
    }
}

void
strata_test_finish_app (StrataApplication *app)
{
  strata_test_destroy_windows (app);
  g_application_quit (G_APPLICATION (app));
  g_object_unref (app);
}

void
strata_test_assert_label_contains (GtkLabel   *label,
                                   const char *part)
{
  const char *text = gtk_label_get_label (label);

  if (strstr (text, part) == NULL)
    g_error ("label “%s” does not contain “%s”", text, part);
}

static void
xdotool_done_cb (GObject      *process,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  gboolean *done = user_data;

  g_assert_true (g_subprocess_wait_check_finish (G_SUBPROCESS (process), result, NULL));
  *done = TRUE;
}

/* Whether the tests can move the X server's pointer; skips them when not. */
gboolean
strata_test_can_drive_pointer (const char *xdotool)
{
#ifdef GDK_WINDOWING_X11
  if (xdotool != NULL && GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    return TRUE;
#endif
  g_test_skip ("needs xdotool and an X display");
  return FALSE;
}

/* Runs xdotool with @args to its end, the window handling events meanwhile. */
void
strata_test_run_xdotool (const char *const *args)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) process = g_subprocess_newv (args, G_SUBPROCESS_FLAGS_NONE, &error);
  gboolean done = FALSE;
  gint64 settle;

  g_assert_no_error (error);
  g_subprocess_wait_check_async (process, NULL, xdotool_done_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  for (settle = g_get_monotonic_time () + 300000; g_get_monotonic_time () < settle;)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
}

/* The first widget under @widget (itself included) of @type with @name;
 * G_TYPE_NONE or NULL match any. */
GtkWidget *
strata_test_find_widget (GtkWidget  *widget,
                         GType       type,
                         const char *name)
{
  if ((type == G_TYPE_NONE || G_TYPE_CHECK_INSTANCE_TYPE (widget, type)) &&
      (name == NULL || g_strcmp0 (gtk_widget_get_name (widget), name) == 0))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = strata_test_find_widget (child, type, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

char *
strata_test_write_events (const char *name,
                          int         work_us,
                          const char *extra)
{
  g_autofree char *json = g_strdup_printf (
    "{\"traceEvents\":[\n"
    "{\"name\":\"main\",\"ph\":\"X\",\"ts\":0,\"dur\":1000,\"pid\":1,\"tid\":1},\n"
    "{\"name\":\"work\",\"ph\":\"X\",\"ts\":10,\"dur\":%d,\"pid\":1,\"tid\":1},\n"
    "{\"name\":\"idle\",\"ph\":\"X\",\"ts\":300,\"dur\":50,\"pid\":1,\"tid\":1},\n"
    "{\"name\":\"%s\",\"ph\":\"X\",\"ts\":400,\"dur\":20,\"pid\":1,\"tid\":1}]}\n", work_us, extra);

  return strata_test_write_file (name, json, strlen (json));
}

gboolean
strata_test_compared (gpointer session)
{
  return strata_session_get_comparison (session) != NULL;
}

/* Clicks @button ("1", "3") at @x, @y of @widget in @window with the X
 * server's pointer, moved by xdotool to the window, found by its title. */
void
strata_test_click_widget (const char   *xdotool,
                          StrataWindow *window,
                          GtkWidget    *widget,
                          double        x,
                          double        y,
                          const char   *button)
{
  g_autofree char *screen_x = NULL, *screen_y = NULL;
  double win_x, win_y, surface_x, surface_y;

  g_assert_true (gtk_widget_translate_coordinates (widget, GTK_WIDGET (window), x, y, &win_x, &win_y));
  gtk_native_get_surface_transform (GTK_NATIVE (window), &surface_x, &surface_y);
  screen_x = g_strdup_printf ("%d", (int) (win_x + surface_x));
  screen_y = g_strdup_printf ("%d", (int) (win_y + surface_y));
  strata_test_run_xdotool ((const char *[]) { xdotool, "search", "--sync", "--name", gtk_window_get_title (GTK_WINDOW (window)),
                                  "mousemove", "--window", "%1", screen_x, screen_y, "sleep", "0.2", "click", button, NULL });
}

/* The first mapped widget of @type under @widget. */
GtkWidget *
strata_test_find_mapped (GtkWidget *widget,
                         GType      type)
{
  if (!gtk_widget_get_mapped (widget))
    return NULL;
  if (g_type_is_a (G_OBJECT_TYPE (widget), type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = strata_test_find_mapped (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Whether a StrataCallTreeView has its tree merged. */
gboolean
strata_test_call_tree_ready (gpointer view)
{
  return strata_call_tree_view_is_ready (view);
}

/**
 * strata_test_open_call_tree_sample:
 *
 * Returns: (transfer none): the window of Android Studio's sample
 *   (studio-perflib-char_2_bytes.trace) with its call tree merged and on
 *   show, as a table
 */
StrataWindow *
strata_test_open_call_tree_sample (StrataApplication *app)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "third-party", "dmtrace",
                                                 "studio-perflib-char_2_bytes.trace", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrataWindow *window;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = strata_test_only_window (app);
  strata_test_wait_for_window (window);
  strata_test_iterate_until (strata_test_call_tree_ready, window->call_tree_view);
  strata_window_show_call_tree (window, "tree");
  return window;
}
