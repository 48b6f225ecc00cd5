/* strata-widget-color.h: a widget's text colour on every GTK we build with
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The CSS colour the widget draws its text in. gtk_widget_get_color()
 * came with GTK 4.10; 4.8 has only the style context. */
static inline void
strata_widget_get_color (GtkWidget *widget,
                         GdkRGBA   *color)
{
#if GTK_CHECK_VERSION (4, 10, 0)
  gtk_widget_get_color (widget, color);
#else
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), color);
  G_GNUC_END_IGNORE_DEPRECATIONS
#endif
}

/* A named colour of the theme ("window_bg_color"); FALSE when it has none.
 * GTK has no other way to ask. */
static inline gboolean
strata_widget_lookup_color (GtkWidget  *widget,
                            const char *name,
                            GdkRGBA    *color)
{
  gboolean found;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  found = gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), name, color);
  G_GNUC_END_IGNORE_DEPRECATIONS
  return found;
}

G_END_DECLS
