/* strata-export.c: `strata --export=IMAGE FILE`, a picture without a display
 *
 * The timeline (the whole trace or --range) or the flame graph, as PNG,
 * SVG or PDF by IMAGE's name, drawn by the window's own renderers: no GTK
 * and no display are needed, so it runs on a build machine.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <glib/gi18n.h>

#include "strata-export.h"
#include "strata-file.h"
#include "strata-image-export.h"
#include "strata-loader.h"
#include "strata-palette.h"
#include "strata-profile.h"
#include "strata-report-private.h"
#include "strata-units.h"

#define EXIT_FAILED STRATA_EXIT_UNREADABLE
#define EXIT_USAGE STRATA_EXIT_USAGE
#define DEFAULT_WIDTH 1600

/* Requests that cannot be met whatever the file's state: bad usage
 * (exit 2), not a file that failed to read (exit 1). */
#define STRATA_EXPORT_ERROR (strata_export_error_quark ())
typedef enum
{
  STRATA_EXPORT_ERROR_NOTHING_TO_DRAW,
} StrataExportError;

static G_DEFINE_QUARK (strata-export-error-quark, strata_export_error)

static gboolean
parse_size (const char *text,
            int        *width,
            int        *height)
{
  g_auto(GStrv) parts = g_strsplit (text, "x", 2);
  guint64 w, h = 0;

  if (!g_ascii_string_to_unsigned (parts[0], 10, 1, STRATA_IMAGE_MAX_SIDE, &w, NULL) ||
      (parts[1] != NULL && !g_ascii_string_to_unsigned (parts[1], 10, 1, STRATA_IMAGE_MAX_SIDE, &h, NULL)))
    return FALSE;
  *width = (int) w;
  *height = (int) h;
  return TRUE;
}

static StrataTrace *
load (const char  *path,
      const char  *mapping,
      GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(StrataLoader) loader = strata_loader_new (file);
  g_autoptr(StrataTrace) trace = strata_loader_load (loader, NULL, error);
  g_autoptr(StrataTraceNames) names = NULL;

  if (trace == NULL)
    return NULL;
  /* As a report applies it: its bad lines and a poor fit are said. */
  if (mapping != NULL && (names = strata_report_apply_mapping (trace, mapping, FALSE, error)) == NULL)
    return NULL;
  return g_steal_pointer (&trace);
}

static gboolean
export (const StrataCliOptions  *options,
        GError                 **error)
{
  g_autoptr(GFile) image = g_file_new_for_commandline_arg (options->export_path);
  g_autoptr(StrataTrace) trace = load (options->files[0], options->mapping, error);
  g_autoptr(StrataProfile) profile = NULL;
  g_autofree guint8 *colors = NULL;
  StrataImageOptions image_options = { STRATA_IMAGE_PNG, DEFAULT_WIDTH, 0, FALSE, 0, NULL };
  double from = 0, to = 0;

  if (trace == NULL)
    return FALSE;
  if (strata_trace_get_n_spans (trace) == 0 &&
      (strata_trace_get_heap (trace) != NULL || (options->view != NULL && g_str_equal (options->view, "flame"))))
    {
      g_set_error_literal (error, STRATA_EXPORT_ERROR, STRATA_EXPORT_ERROR_NOTHING_TO_DRAW,
                           strata_trace_get_heap (trace) != NULL
                             ? _("a heap dump has no timeline or calls to draw; “strata -r” reports its classes, dominators and leak suspects")
                             : _("the file has no calls to draw a flame graph of"));
      return FALSE;
    }
  strata_image_format_for_file (image, &image_options.format);
  if (options->size != NULL)
    parse_size (options->size, &image_options.width, &image_options.height);
  if (options->range != NULL)
    strata_units_parse_ms_range (options->range, &from, &to);
  image_options.dark = options->theme != NULL && g_str_equal (options->theme, "dark");
  image_options.clock = strata_cli_choose_clock (trace, options->clock);
  if ((profile = strata_profile_new (trace, -1, NULL, error)) == NULL)
    return FALSE;
  /* The window's colours: round-robin by inclusive time on the first clock. */
  colors = strata_palette_assign (profile, 0);
  image_options.colors = colors;
  if (options->view != NULL && g_str_equal (options->view, "flame"))
    {
      g_autoptr(StrataCallTree) tree = strata_call_tree_new (trace, -1, FALSE, NULL, NULL, error);

      return tree != NULL && strata_image_export_flame (tree, STRATA_CALL_TREE_ROOT, FALSE, &image_options, image, error);
    }
  {
    /* As the window's --range: from where its ruler starts. */
    gint64 start = strata_trace_get_clock_origin (trace, image_options.clock);

    if (options->range != NULL)
      return strata_image_export_timeline (trace, start + (gint64) (from * 1e6), start + (gint64) (to * 1e6),
                                           &image_options, image, error);
    return strata_image_export_timeline (trace, 0, 0, &image_options, image, error);
  }
}

/* Said before a long load: the picture may not go over what is read,
 * nor into a pipe. */
static gboolean
check_target (GFile                  *image,
              const StrataCliOptions *options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) trace = g_file_new_for_commandline_arg (options->files[0]);
  g_autoptr(GFile) mapping = options->mapping != NULL ? g_file_new_for_commandline_arg (options->mapping) : NULL;
  g_autofree char *trace_path = g_file_get_path (trace);
  g_autofree char *mapping_path = mapping != NULL ? g_file_get_path (mapping) : NULL;
  const char *inputs[] = { trace_path, mapping_path, NULL };

  if (trace_path == NULL)
    inputs[0] = mapping_path;
  if (strata_file_check_output (image, inputs, &error))
    return TRUE;
  g_printerr ("strata: %s\n", error->message);
  return FALSE;
}

static gboolean
check_options (const StrataCliOptions *options)
{
  g_autoptr(GFile) image = g_file_new_for_commandline_arg (options->export_path);
  StrataImageFormat format;
  int width, height;
  const char *problem = NULL;

  if (options->files == NULL || options->files[0] == NULL || options->files[1] != NULL)
    problem = _("--export takes exactly one FILE");
  else if (!strata_image_format_for_file (image, &format))
    problem = _("--export writes .png, .svg or .pdf files");
  else if (options->size != NULL && !parse_size (options->size, &width, &height))
    problem = _("--size takes WIDTH or WIDTHxHEIGHT in pixels, such as 2400 or 1600x900");
  else if (options->theme != NULL && !g_str_equal (options->theme, "light") && !g_str_equal (options->theme, "dark"))
    problem = _("--theme takes “light” or “dark”");
  if (problem == NULL)
    return check_target (image, options);
  g_printerr ("strata: %s\n", problem);
  return FALSE;
}

/**
 * strata_export_run:
 *
 * `strata --export=IMAGE FILE`: the picture, written without a display.
 *
 * Returns: the exit status (STRATA_EXIT_*)
 */
int
strata_export_run (const StrataCliOptions *options)
{
  g_autoptr(GError) error = NULL;

  if (!check_options (options))
    return EXIT_USAGE;
  if (!export (options, &error))
    {
      g_printerr ("strata: %s: %s\n", options->files[0], error->message);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT))
        g_printerr ("strata: %s\n", _("--size=WIDTHxHEIGHT draws only the top of the image; --range a part of the time; "
                                       "--view=flame the call tree instead of every thread"));
      if (error->domain == STRATA_EXPORT_ERROR || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT))
        return EXIT_USAGE;
      return EXIT_FAILED;
    }
  g_print ("%s %s\n", _("Saved"), options->export_path);
  return STRATA_EXIT_OK;
}
