/* strata-test-display.h: opening the display in the GTK test programs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Opens the display. Under xvfb-run several test programs connect at
 * once and one may be turned away for a moment, so a display that is set
 * is tried for a few seconds, and one that never answers is an error: a
 * skipped UI test would hide what it was meant to catch. Without any
 * display set, FALSE (the programs then skip). */
static inline gboolean
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

G_END_DECLS
