/* strata-screenshot.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-screenshot.h"

/**
 * strata_screenshot_save:
 * @widget: a widget of a window that has been drawn at least once
 *
 * Renders with the window's own renderer, so the PNG matches the screen.
 */
gboolean
strata_screenshot_save (GtkWidget   *widget,
                        const char  *path,
                        GError     **error)
{
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GtkSnapshot *snapshot;
  GskRenderer *renderer;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (width <= 0 || height <= 0 || gtk_widget_get_native (widget) == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("The window has not been drawn yet."));
      return FALSE;
    }

  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("The window has nothing to draw."));
      return FALSE;
    }

  renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (!gdk_texture_save_to_png (texture, path))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("Could not write “%s”."), path);
      return FALSE;
    }

  return TRUE;
}
