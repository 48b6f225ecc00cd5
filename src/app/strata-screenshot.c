/* strata-screenshot.c: --screenshot, and saving a widget as PNG
 *
 * The harness behind `strata --screenshot=PNG [--size] FILE`: once the
 * window has loaded and the command line's other options have acted on
 * it (StrataOpenRequest), it lets a few frames settle and saves the
 * picture. It lives apart from StrataApplication, which only forwards
 * its windows here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>

#include "strata-application.h"
#include "strata-screenshot.h"
#include "strata-session.h"

/**
 * strata_screenshot_save:
 * @widget: a widget of a window that has been drawn at least once
 *
 * Renders with the window's own renderer, so the PNG matches the screen.
 */
/* What @widget draws, or NULL while it draws nothing. */
static GskRenderNode *
snapshot_widget (GtkWidget *widget,
                 int        width,
                 int        height)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  return gtk_snapshot_free_to_node (snapshot);
}

gboolean
strata_screenshot_save (GtkWidget   *widget,
                        const char  *path,
                        GError     **error)
{
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
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

  node = snapshot_widget (widget, width, height);
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

/* Whether @widget has drawn anything yet. */
static gboolean
draws_something (GtkWidget *widget)
{
  g_autoptr(GskRenderNode) node = snapshot_widget (widget, gtk_widget_get_width (widget), gtk_widget_get_height (widget));

  return node != NULL;
}

/* ---- The harness: --screenshot and the options that shape the picture ---- */

#define SCREENSHOT_FRAMES 8
#define SCREENSHOT_MAX_FRAMES 600   /* a loaded machine may tick before it draws */
#define SCREENSHOT_MAX_RESIZES 5
#define SCREENSHOT_TIMEOUT_SECONDS 300
#define DEFAULT_SCREENSHOT_WIDTH 1280
#define DEFAULT_SCREENSHOT_HEIGHT 800

struct _StrataScreenshotHarness
{
  StrataApplication *application;  /* unowned: it owns the harness */
  char              *path;
  int                width;
  int                height;
  StrataWindow      *window;       /* the one photographed: the first */
  guint              frames;
  guint              resizes;
};

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

/**
 * strata_screenshot_harness_new:
 * @options: the command line, with --screenshot
 * @exit_status: (out): set when the options are wrong
 *
 * Returns: (transfer full) (nullable): the harness, or NULL with a message
 *   printed and @exit_status set
 */
StrataScreenshotHarness *
strata_screenshot_harness_new (StrataApplication      *application,
                               const StrataCliOptions *options,
                               int                    *exit_status)
{
  g_autoptr(StrataScreenshotHarness) self = g_new0 (StrataScreenshotHarness, 1);

  self->application = application;
  self->width = DEFAULT_SCREENSHOT_WIDTH;
  self->height = DEFAULT_SCREENSHOT_HEIGHT;
  if (options->size != NULL && !parse_size (options->size, &self->width, &self->height))
    {
      g_printerr ("strata: %s\n", _("--size takes WIDTHxHEIGHT, such as 1280x800"));
      *exit_status = STRATA_EXIT_USAGE;
      return NULL;
    }
  self->path = g_strdup (options->screenshot);
  return g_steal_pointer (&self);
}

void
strata_screenshot_harness_free (StrataScreenshotHarness *self)
{
  if (self == NULL)
    return;
  g_free (self->path);
  g_free (self);
}

static gboolean
screenshot_tick_cb (GtkWidget     *widget,
                    GdkFrameClock *frame_clock,
                    gpointer       user_data)
{
  StrataScreenshotHarness *self = user_data;
  g_autoptr(GError) error = NULL;

  /* Client-side decorations take a few pixels of the default size; grow
   * the window until the picture has the size that was asked for. */
  if (gtk_widget_get_width (widget) != self->width ||
      gtk_widget_get_height (widget) != self->height)
    {
      int width, height;

      gtk_window_get_default_size (GTK_WINDOW (widget), &width, &height);
      if (++self->resizes <= SCREENSHOT_MAX_RESIZES)
        {
          self->frames = 0;
          gtk_window_set_default_size (GTK_WINDOW (widget),
                                       width + self->width - gtk_widget_get_width (widget),
                                       height + self->height - gtk_widget_get_height (widget));
          return G_SOURCE_CONTINUE;
        }
    }

  /* Let layout settle and the final page draw before capturing it. */
  if (++self->frames < SCREENSHOT_FRAMES ||
      (self->frames < SCREENSHOT_MAX_FRAMES && !draws_something (widget)))
    return G_SOURCE_CONTINUE;

  if (!strata_screenshot_save (widget, self->path, &error))
    {
      g_printerr ("strata: %s\n", error->message);
      strata_application_quit_with_status (self->application, EXIT_FAILURE);
    }
  else
    {
      g_print ("%s %s %dx%d\n", _("Saved"), self->path,
               gtk_widget_get_width (widget), gtk_widget_get_height (widget));
      strata_application_quit_with_status (self->application, EXIT_SUCCESS);
    }

  return G_SOURCE_REMOVE;
}

static gboolean
screenshot_timeout_cb (gpointer user_data)
{
  StrataScreenshotHarness *self = user_data;

  g_printerr ("strata: %s\n", _("gave up waiting for the window to be ready for the screenshot"));
  strata_application_quit_with_status (self->application, EXIT_FAILURE);

  return G_SOURCE_REMOVE;
}

/* A new window: the first one is the one photographed. */
void
strata_screenshot_harness_watch (StrataScreenshotHarness *self,
                                 StrataWindow            *window)
{
  if (self->window != NULL)
    return;
  self->window = window;
  strata_window_set_fixed_size (window, self->width, self->height);
  g_timeout_add_seconds (SCREENSHOT_TIMEOUT_SECONDS, screenshot_timeout_cb, self);
}

/**
 * strata_screenshot_harness_window_ready:
 *
 * @window has its file loaded and the command line's options acted on
 * (or has no file): a few frames later, it is photographed.
 */
void
strata_screenshot_harness_window_ready (StrataScreenshotHarness *self,
                                        StrataWindow            *window)
{
  if (window != self->window)
    return;
  self->frames = 0;
  gtk_widget_add_tick_callback (GTK_WIDGET (window), screenshot_tick_cb, self, NULL);
}
