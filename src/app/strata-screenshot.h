/* strata-screenshot.h: a widget as it is on screen, saved as PNG
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

gboolean strata_screenshot_save (GtkWidget   *widget,
                                 const char  *path,
                                 GError     **error);

G_END_DECLS
