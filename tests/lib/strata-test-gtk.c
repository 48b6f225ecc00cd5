/* strata-test-gtk.c: helpers shared by the GTK test programs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-test-gtk.h"

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
