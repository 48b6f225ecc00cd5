/* strata-screenshot.c: --screenshot, and saving a widget as PNG
 *
 * The harness behind `strata --screenshot=PNG [--size] [--range]
 * [--select [--details]] FILE`: it waits for the window to load and the
 * profile to arrive, sets the view up as asked, lets a few frames settle
 * and saves the picture. It lives apart from StrataApplication, which only
 * forwards its windows and its activation here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>

#include "strata-application.h"
#include "strata-screenshot.h"
#include "strata-session.h"
#include "strata-units.h"

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
  char              *path;         /* NULL: no screenshot, only --range */
  int                width;
  int                height;
  StrataWindow      *window;
  guint              frames;
  guint              resizes;
  gboolean           has_range;
  double             range_from_ms;
  double             range_to_ms;
  char              *select;
  gboolean           details;
  char              *view;         /* --view: the call tree page, or the calls page */
  char              *find;         /* --find: the timeline's search */
  char              *compare;      /* --compare: a baseline to compare with */
  gboolean           compare_started;
  char              *mapping;      /* --mapping: a mapping.txt to deobfuscate with */
  gboolean           mapping_started;
};

static const GOptionEntry harness_entries[] = {
  { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL, N_("Save the window as a PNG once FILE has loaded, then quit"), N_("PNG") },
  { "size", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Window size for --screenshot, such as 1280x800"), N_("WxH") },
  { "range", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Show this part of the trace, in milliseconds from its start, such as 120.5-180"), N_("FROM-TO") },
  { "select", 0, 0, G_OPTION_ARG_STRING, NULL, N_("With --screenshot: select the slowest method whose name contains TEXT and show its parents and children"), N_("TEXT") },
  { "details", 0, 0, G_OPTION_ARG_NONE, NULL, N_("With --select: select that method’s longest call and show its details"), NULL },
  { "view", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Open on the call tree (“tree”, “bottom-up” or “flame”) or, with --select, on every call of the method (“calls”)"), N_("VIEW") },
  { "find", 0, 0, G_OPTION_ARG_STRING, NULL, N_("With --screenshot: search the timeline for TEXT and go to the first match"), N_("TEXT") },
  { "compare", 0, 0, G_OPTION_ARG_FILENAME, NULL, N_("Compare FILE with BASELINE, as Compare With… does"), N_("BASELINE") },
  { "mapping", 0, 0, G_OPTION_ARG_FILENAME, NULL, N_("Deobfuscate FILE with a ProGuard or R8 mapping.txt"), N_("MAPPING") },
  { NULL }
};

void
strata_screenshot_harness_add_options (GApplication *application)
{
  g_application_add_main_option_entries (application, harness_entries);
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

/**
 * strata_screenshot_harness_new:
 * @options: the parsed command line
 * @exit_status: (out): set when the options are wrong
 *
 * Returns: (transfer full) (nullable): the harness, or NULL with a message
 *   printed and @exit_status set
 */
StrataScreenshotHarness *
strata_screenshot_harness_new (StrataApplication *application,
                               GVariantDict      *options,
                               int               *exit_status)
{
  g_autoptr(StrataScreenshotHarness) self = g_new0 (StrataScreenshotHarness, 1);
  const char *size = NULL;
  const char *range = NULL;

  self->application = application;
  self->width = DEFAULT_SCREENSHOT_WIDTH;
  self->height = DEFAULT_SCREENSHOT_HEIGHT;
  if (g_variant_dict_lookup (options, "size", "&s", &size) &&
      !parse_size (size, &self->width, &self->height))
    {
      g_printerr ("strata: %s\n", _("--size takes WIDTHxHEIGHT, such as 1280x800"));
      *exit_status = 2;
      return NULL;
    }
  g_variant_dict_lookup (options, "select", "s", &self->select);
  g_variant_dict_lookup (options, "details", "b", &self->details);
  g_variant_dict_lookup (options, "find", "s", &self->find);
  g_variant_dict_lookup (options, "compare", "^ay", &self->compare);
  g_variant_dict_lookup (options, "mapping", "^ay", &self->mapping);
  if (g_variant_dict_lookup (options, "view", "s", &self->view) &&
      !g_strv_contains ((const char *[]) { "tree", "bottom-up", "flame", "calls", NULL }, self->view))
    {
      g_printerr ("strata: %s\n", _("--view takes “tree”, “bottom-up”, “flame” or “calls”"));
      *exit_status = 2;
      return NULL;
    }
  if (g_variant_dict_lookup (options, "range", "&s", &range) &&
      !strata_units_parse_ms_range (range, &self->range_from_ms, &self->range_to_ms))
    {
      g_printerr ("strata: %s\n", _("--range takes FROM-TO in milliseconds, such as 120.5-180"));
      *exit_status = 2;
      return NULL;
    }
  self->has_range = range != NULL;
  g_variant_dict_lookup (options, "screenshot", "^ay", &self->path);
  return g_steal_pointer (&self);
}

void
strata_screenshot_harness_free (StrataScreenshotHarness *self)
{
  if (self == NULL)
    return;
  g_free (self->path);
  g_free (self->select);
  g_free (self->view);
  g_free (self->find);
  g_free (self->compare);
  g_free (self->mapping);
  g_free (self);
}

gboolean
strata_screenshot_harness_takes_screenshot (StrataScreenshotHarness *self)
{
  return self->path != NULL;
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

static void
apply_range (StrataScreenshotHarness *self,
             StrataWindow            *window)
{
  StrataSession *session = strata_window_get_session (window);
  gint64 start, end;

  if (self->view != NULL && !g_str_equal (self->view, "calls") && self->path == NULL &&
      strata_session_get_trace (session) != NULL)
    strata_window_show_call_tree (window, self->view);
  if (self->mapping != NULL && !self->mapping_started && strata_session_get_trace (session) != NULL)
    {
      g_autoptr(GFile) mapping = g_file_new_for_commandline_arg (self->mapping);

      self->mapping_started = TRUE;
      strata_window_deobfuscate (window, mapping);
    }
  if (self->compare != NULL && !self->compare_started && strata_session_get_trace (session) != NULL)
    {
      g_autoptr(GFile) baseline = g_file_new_for_commandline_arg (self->compare);

      self->compare_started = TRUE;
      strata_window_compare_with (window, baseline);
    }
  if (!self->has_range || strata_session_get_trace (session) == NULL)
    return;
  strata_session_get_bounds (session, &start, &end);
  strata_session_set_visible_range (session,
                                    start + (gint64) (self->range_from_ms * 1e6),
                                    start + (gint64) (self->range_to_ms * 1e6));
}

static void
window_busy_changed_cb (StrataScreenshotHarness *self,
                        GParamSpec              *pspec,
                        StrataWindow            *window)
{
  if (!strata_window_get_busy (window))
    apply_range (self, window);
}

static void screenshot_when_idle (StrataScreenshotHarness *self);

/* After the window has shown its Compare page, which --view may change. */
static void
screenshot_when_compared (StrataScreenshotHarness *self)
{
  g_idle_add_once ((GSourceOnceFunc) screenshot_when_idle, self);
}

static void
screenshot_when_idle (StrataScreenshotHarness *self)
{
  StrataWindow *window = self->window;
  StrataSession *session;

  if (window == NULL || strata_window_get_busy (window))
    return;

  /* The profile panel fills in once the profile is ready. */
  session = strata_window_get_session (window);
  if (strata_session_get_trace (session) != NULL && strata_session_get_profile (session) == NULL)
    {
      g_signal_connect_swapped (session, "notify::profile", G_CALLBACK (screenshot_when_idle), self);
      return;
    }
  /* The mapping is read in a worker too. */
  if (strata_window_get_mapping_busy (window))
    {
      g_timeout_add_once (50, (GSourceOnceFunc) screenshot_when_idle, self);
      return;
    }
  /* So is the baseline's, for --compare. */
  if (self->compare != NULL && strata_session_get_trace (session) != NULL &&
      strata_session_get_comparison (session) == NULL)
    {
      g_signal_connect_swapped (session, "notify::comparison", G_CALLBACK (screenshot_when_compared), self);
      return;
    }
  /* The call tree is merged off the main thread too. */
  if (self->view != NULL && !g_str_equal (self->view, "calls") && !strata_window_show_call_tree (window, self->view))
    {
      g_timeout_add_once (50, (GSourceOnceFunc) screenshot_when_idle, self);
      return;
    }
  g_signal_handlers_disconnect_by_data (session, self);
  if (self->select != NULL && strata_window_select_method (window, self->select) && self->details)
    strata_window_show_longest_call (window);
  if (g_strcmp0 (self->view, "calls") == 0)
    strata_window_show_calls (window);
  if (self->find != NULL)
    strata_window_find (window, self->find);

  g_signal_handlers_disconnect_by_data (window, self);
  self->frames = 0;
  gtk_widget_add_tick_callback (GTK_WIDGET (window), screenshot_tick_cb, self, NULL);
}

static gboolean
screenshot_timeout_cb (gpointer user_data)
{
  StrataScreenshotHarness *self = user_data;

  g_printerr ("strata: %s\n", _("gave up waiting for the window to be ready for the screenshot"));
  strata_application_quit_with_status (self->application, EXIT_FAILURE);

  return G_SOURCE_REMOVE;
}

/* A new window: --range applies to it once it has loaded, and the first
 * one is the one photographed. */
void
strata_screenshot_harness_watch (StrataScreenshotHarness *self,
                                 StrataWindow            *window)
{
  g_signal_connect_swapped (window, "notify::busy", G_CALLBACK (window_busy_changed_cb), self);
  if (self->path == NULL || self->window != NULL)
    return;
  self->window = window;
  strata_window_set_fixed_size (window, self->width, self->height);
  g_signal_connect_swapped (window, "notify::busy", G_CALLBACK (screenshot_when_idle), self);
  g_timeout_add_seconds (SCREENSHOT_TIMEOUT_SECONDS, screenshot_timeout_cb, self);
}

/* The application was activated: the window may already be ready. */
void
strata_screenshot_harness_activate (StrataScreenshotHarness *self)
{
  screenshot_when_idle (self);
}
