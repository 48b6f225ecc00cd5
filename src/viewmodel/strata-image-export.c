/* strata-image-export.c: the timeline or a flame graph as PNG, SVG or PDF
 *
 * Drawn by the same Cairo code as the screen, on an image, SVG or PDF
 * surface. Calls narrower than a pixel merge as they do on screen, so a
 * vector file stays small however many calls the trace has. Cairo writes
 * an SVG's text as glyph outlines; here the renderers hand their labels
 * over instead, and they go into the SVG as <text>, so a reader can
 * search for a method. PDF keeps its text as text on its own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n.h>

#include "strata-counter-render.h"
#include "strata-event-index.h"
#include "strata-flame-render.h"
#include "strata-file.h"
#include "strata-image-export.h"
#include "strata-notes.h"
#include "strata-timeline-render.h"

#define PX_PER_PT (96.0 / 72.0)

typedef struct
{
  GByteArray *bytes;        /* what cairo writes */
  GString    *texts;        /* <text> elements, for SVG */
} Sink;

static cairo_status_t
write_bytes (void                *closure,
             const unsigned char *data,
             unsigned int         length)
{
  g_byte_array_append (((Sink *) closure)->bytes, data, length);
  return CAIRO_STATUS_SUCCESS;
}

gboolean
strata_image_format_for_file (GFile             *file,
                              StrataImageFormat *format)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *lower = g_ascii_strdown (name != NULL ? name : "", -1);

  if (g_str_has_suffix (lower, ".png"))
    *format = STRATA_IMAGE_PNG;
  else if (g_str_has_suffix (lower, ".svg"))
    *format = STRATA_IMAGE_SVG;
  else if (g_str_has_suffix (lower, ".pdf"))
    *format = STRATA_IMAGE_PDF;
  else
    return FALSE;
  return TRUE;
}

/* @text, valid UTF-8 or mended, escaped for XML. */
static char *
escape_text (const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);

  return g_markup_escape_text (valid, -1);
}

/* A label as SVG text, ellipsized as on screen (and clipped to the width
 * it may take, as a reader's font may be wider), with the whole text as
 * its title when cut. */
static void
add_text (const char        *text,
          const char        *whole,
          double             x,
          double             y,
          double             width,
          double             size_pt,
          gboolean           bold,
          const StrataColor *color,
          gpointer           data)
{
  Sink *sink = data;
  g_autofree char *escaped = NULL;
  g_autofree char *title = NULL;
  double size = size_pt * PX_PER_PT;
  char buf[6][G_ASCII_DTOSTR_BUF_SIZE];

  if (text == NULL || *text == '\0')
    return;
  escaped = escape_text (text);
  if (whole != NULL && !g_str_equal (whole, text))
    {
      g_autofree char *escaped_whole = escape_text (whole);

      title = g_strdup_printf ("<title>%s</title>", escaped_whole);
    }
  g_ascii_formatd (buf[0], sizeof buf[0], "%.1f", x);
  g_ascii_formatd (buf[1], sizeof buf[1], "%.1f", y);
  g_ascii_formatd (buf[2], sizeof buf[2], "%.1f", width);
  g_ascii_formatd (buf[3], sizeof buf[3], "%.1f", size * 1.25);
  g_ascii_formatd (buf[4], sizeof buf[4], "%.2f", size);
  g_ascii_formatd (buf[5], sizeof buf[5], "%.1f", size * 0.95);
  if (width > 0)
    g_string_append_printf (sink->texts, "<svg x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" overflow=\"hidden\">",
                            buf[0], buf[1], buf[2], buf[3]);
  g_string_append_printf (sink->texts,
                          "<text x=\"%s\" y=\"%s\" font-size=\"%s\"%s fill=\"rgb(%d,%d,%d)\">%s%s</text>",
                          width > 0 ? "0" : buf[0], width > 0 ? buf[5] : buf[1], buf[4],
                          bold ? " font-weight=\"bold\"" : "",
                          (int) (color->red * 255), (int) (color->green * 255), (int) (color->blue * 255),
                          title != NULL ? title : "", escaped);
  if (width > 0)
    g_string_append (sink->texts, "</svg>");
  g_string_append_c (sink->texts, '\n');
}

static cairo_surface_t *
create_surface (const StrataImageOptions *options,
                Sink                     *sink,
                int                       width,
                int                       height)
{
  switch (options->format)
    {
    case STRATA_IMAGE_SVG:
      return cairo_svg_surface_create_for_stream (write_bytes, sink, width, height);
    case STRATA_IMAGE_PDF:
      return cairo_pdf_surface_create_for_stream (write_bytes, sink, width, height);
    case STRATA_IMAGE_PNG:
    default:
      return cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
    }
}

/* A number as cairo writes it ("12", "-3.5"), then a space: its end. */
static const char *
read_number (const char *p,
             const char *end,
             double     *value)
{
  char *stop;

  if (p >= end || !(g_ascii_isdigit (*p) || *p == '-'))
    return NULL;
  *value = g_ascii_strtod (p, &stop);
  return stop < end && *stop == ' ' ? stop + 1 : NULL;
}

/* "M a b L c b L c d L a d Z M a b " → "Ma bhWvHh-WZ": cairo writes each
 * rectangle of a merged row as a closed path and a move back; half of an
 * export of a large trace is that. Returns the end of what was read. */
static const char *
compact_rectangle (const char *p,
                   const char *end,
                   GString    *out)
{
  double v[4], check;
  const char *q = p + 2;
  char w[G_ASCII_DTOSTR_BUF_SIZE], h[G_ASCII_DTOSTR_BUF_SIZE], nw[G_ASCII_DTOSTR_BUF_SIZE];

  if (end - p < 2 || p[0] != 'M' || p[1] != ' ' ||
      !(q = read_number (q, end, &v[0])) || !(q = read_number (q, end, &v[1])) ||
      end - q < 2 || q[0] != 'L' || !(q = read_number (q + 2, end, &v[2])) || !(q = read_number (q, end, &check)) || check != v[1] ||
      end - q < 2 || q[0] != 'L' || !(q = read_number (q + 2, end, &check)) || check != v[2] || !(q = read_number (q, end, &v[3])) ||
      end - q < 2 || q[0] != 'L' || !(q = read_number (q + 2, end, &check)) || check != v[0] || !(q = read_number (q, end, &check)) || check != v[3] ||
      end - q < 2 || q[0] != 'Z' || q[1] != ' ')
    return NULL;
  q += 2;
  /* The move back to the corner that cairo adds after closing. */
  if (end - q >= 2 && q[0] == 'M' && q[1] == ' ')
    {
      double x, y;
      const char *r = read_number (q + 2, end, &x);

      if (r != NULL && (r = read_number (r, end, &y)) != NULL && x == v[0] && y == v[1])
        q = r;
    }
  g_ascii_formatd (w, sizeof w, "%g", v[2] - v[0]);
  g_ascii_formatd (h, sizeof h, "%g", v[3] - v[1]);
  g_ascii_formatd (nw, sizeof nw, "%g", v[0] - v[2]);
  g_string_append_c (out, 'M');
  g_string_append_len (out, p + 2, strchr (p + 2, ' ') - (p + 2));
  g_string_append_c (out, ' ');
  {
    const char *y = strchr (p + 2, ' ') + 1;

    g_string_append_len (out, y, strchr (y, ' ') - y);
  }
  g_string_append_printf (out, "h%sv%sh%sZ", w, h, nw);
  return q;
}

/* Every rectangle in the SVG's paths, written short. */
static void
compact_paths (Sink *sink)
{
  const char *p = (const char *) sink->bytes->data;
  const char *end = p + sink->bytes->len;
  GString *out = g_string_sized_new (sink->bytes->len / 2);

  while (p < end)
    {
      const char *next = *p == 'M' ? compact_rectangle (p, end, out) : NULL;

      if (next != NULL)
        p = next;
      else
        g_string_append_c (out, *p++);
    }
  g_byte_array_set_size (sink->bytes, 0);
  g_byte_array_append (sink->bytes, (const guint8 *) out->str, out->len);
  g_string_free (out, TRUE);
}

/* The SVG with its text put in, before its end. */
static void
insert_texts (Sink *sink)
{
  const char *end = "</svg>";
  guint at = sink->bytes->len;

  for (guint i = sink->bytes->len; i >= strlen (end); i--)
    if (memcmp (sink->bytes->data + i - strlen (end), end, strlen (end)) == 0)
      {
        at = i - strlen (end);
        break;
      }
  g_string_prepend (sink->texts, "<g font-family=\"sans-serif\">\n");
  g_string_append (sink->texts, "</g>\n");
  g_byte_array_remove_range (sink->bytes, at, sink->bytes->len - at);
  g_byte_array_append (sink->bytes, (const guint8 *) sink->texts->str, sink->texts->len);
  g_byte_array_append (sink->bytes, (const guint8 *) end, strlen (end));
  g_byte_array_append (sink->bytes, (const guint8 *) "\n", 1);
}

static gboolean
finish (cairo_surface_t          *surface,
        const StrataImageOptions *options,
        Sink                     *sink,
        GFile                    *file,
        GError                  **error)
{
  cairo_status_t status;

  if (options->format == STRATA_IMAGE_PNG)
    status = cairo_surface_write_to_png_stream (surface, write_bytes, sink);
  else
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Could not draw the image: %s"),
                   cairo_status_to_string (status));
      return FALSE;
    }
  if (options->format == STRATA_IMAGE_SVG)
    {
      compact_paths (sink);
      insert_texts (sink);
    }
  /* Never over a file being read, nor into a pipe; a new file is
   * renamed over the old one, so a failed write leaves it whole. */
  return strata_file_check_output (file, NULL, error) &&
         g_file_replace_contents (file, (const char *) sink->bytes->data, sink->bytes->len, NULL, FALSE,
                                  G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL, error);
}

/* SVG and PDF are vectors: any size (a trace of 100,000 threads is
 * millions of points tall). A PNG is a cairo image surface, at most
 * STRATA_IMAGE_MAX_SIDE pixels a side. */
static gboolean
check_size (const StrataImageOptions *options,
            int                       width,
            int                       height,
            GError                  **error)
{
  if (width <= 0 || height <= 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("An image of %d × %d pixels cannot be made: it has nothing to show"), width, height);
      return FALSE;
    }
  if (options->format != STRATA_IMAGE_PNG || (width <= STRATA_IMAGE_MAX_SIDE && height <= STRATA_IMAGE_MAX_SIDE))
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
               _("A PNG image can be at most %d pixels on a side, and this one would be %d × %d: "
                 "save it as SVG or PDF, which have no such limit, or draw less of it"),
               STRATA_IMAGE_MAX_SIDE, width, height);
  return FALSE;
}

/* Draws the picture on @cr; text goes to @sink when it is set. */
typedef void (*DrawFunc) (cairo_t        *cr,
                          StrataTextSink  sink,
                          gpointer        sink_data,
                          gpointer        data);

/* The surface for @options' format, its background (@background, or the
 * style's; none when transparent), @draw, and the file written: what
 * every export shares. */
static gboolean
draw_image (const StrataImageOptions *options,
            int                       height,
            const StrataColor        *background,
            DrawFunc                  draw,
            gpointer                  data,
            GFile                    *file,
            GError                  **error)
{
  Sink sink;
  cairo_surface_t *surface;
  cairo_t *cr;
  gboolean ok;

  if (!check_size (options, options->width, height, error))
    return FALSE;
  sink = (Sink) { g_byte_array_new (), g_string_new (NULL) };
  surface = create_surface (options, &sink, options->width, height);
  cr = cairo_create (surface);
  if (!options->transparent)
    {
      if (background != NULL)
        cairo_set_source_rgb (cr, background->red, background->green, background->blue);
      else if (options->dark)
        cairo_set_source_rgb (cr, 0.14, 0.14, 0.14);
      else
        cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
    }
  draw (cr, options->format == STRATA_IMAGE_SVG ? add_text : NULL, &sink, data);
  cairo_destroy (cr);
  ok = finish (surface, options, &sink, file, error);
  cairo_surface_destroy (surface);
  g_byte_array_unref (sink.bytes);
  g_string_free (sink.texts, TRUE);
  return ok;
}

static GPtrArray *
counter_lods (StrataTrace *trace)
{
  GPtrArray *lods = g_ptr_array_new_with_free_func ((GDestroyNotify) strata_counter_lod_free);

  for (guint c = 0; c < strata_trace_get_n_counters (trace); c++)
    g_ptr_array_add (lods, strata_counter_lod_new (strata_trace_get_counter (trace, c), 0));
  return lods;
}

typedef struct
{
  StrataTimelineView view;
  gboolean           overview;   /* above the ruler, as the widget draws it */
  double             height;
} TimelinePicture;

static void
draw_timeline (cairo_t        *cr,
               StrataTextSink  sink,
               gpointer        sink_data,
               gpointer        data)
{
  TimelinePicture *picture = data;
  double header = STRATA_TIMELINE_RULER_HEIGHT;

  picture->view.text_sink = sink;
  picture->view.text_sink_data = sink_data;
  if (picture->overview)
    {
      strata_timeline_render_overview (cr, &picture->view);
      cairo_translate (cr, 0, STRATA_TIMELINE_OVERVIEW_HEIGHT);
      header += STRATA_TIMELINE_OVERVIEW_HEIGHT;
    }
  strata_timeline_render_ruler (cr, &picture->view);
  cairo_translate (cr, 0, STRATA_TIMELINE_RULER_HEIGHT);
  cairo_rectangle (cr, 0, 0, picture->view.width, picture->height - header);
  cairo_clip (cr);
  strata_timeline_render_rows (cr, &picture->view, picture->height - header);
}

/**
 * strata_image_export_timeline:
 * @start: the first time shown, on @options' clock
 * @end: the last; with @start 0 and @end 0, the whole trace
 *
 * The ruler (with the notes written on the trace) and every track, with
 * their names, as tall as they are (or @options' height).
 */
gboolean
strata_image_export_timeline (StrataTrace              *trace,
                              gint64                    start,
                              gint64                    end,
                              const StrataImageOptions *options,
                              GFile                    *file,
                              GError                  **error)
{
  g_autoptr(StrataEventIndex) events = strata_event_index_new (trace);
  g_autoptr(GPtrArray) lods = counter_lods (trace);
  g_autoptr(GArray) tracks = NULL;
  g_autoptr(GArray) notes = strata_trace_get_file (trace) != NULL ? strata_notes_load (strata_trace_get_file (trace), NULL) : NULL;
  g_autoptr(GArray) note_marks = strata_notes_marks (notes, trace, options->clock);
  StrataTimelineTheme light = { { 0.15, 0.15, 0.15, 1 }, { 0.21, 0.52, 0.89, 1 }, FALSE };
  StrataTimelineTheme dark = { { 0.92, 0.92, 0.92, 1 }, { 0.21, 0.52, 0.89, 1 }, TRUE };
  TimelinePicture picture = { .overview = FALSE };
  gint64 bound_start, bound_end;
  double content_height;
  int height;

  tracks = strata_timeline_layout (trace, events, FALSE, NULL, &content_height);
  height = options->height > 0 ? options->height : (int) (STRATA_TIMELINE_RULER_HEIGHT + content_height + 0.5);
  strata_trace_get_clock_range (trace, options->clock, &bound_start, &bound_end);
  if (start == 0 && end == 0)
    {
      start = bound_start;
      end = bound_end;
    }
  picture.view = (StrataTimelineView) {
    .trace = trace, .clock = options->clock, .start = start, .end = MAX (end, start + 1),
    .bound_start = bound_start, .bound_end = bound_end, .colors = options->colors,
    .selected_method = G_MAXUINT32, .tracks = tracks, .counter_lods = lods, .events = events,
    .width = options->width, .label_width = STRATA_TIMELINE_LABEL_WIDTH,
    .theme = options->dark ? &dark : &light, .selected_event = G_MAXUINT, .notes = note_marks,
  };
  picture.height = height;
  return draw_image (options, height, NULL, draw_timeline, &picture, file, error);
}

/**
 * strata_image_export_timeline_view:
 * @view: a view as the widget draws it (its scroll, selection, tracks)
 * @background: the colour behind it on screen
 *
 * The overview, ruler and rows of @view at @options' size, as the widget
 * draws them: at the widget's own size, the screen's pixels.
 */
gboolean
strata_image_export_timeline_view (const StrataTimelineView *view,
                                   const StrataColor        *background,
                                   const StrataImageOptions *options,
                                   GFile                    *file,
                                   GError                  **error)
{
  TimelinePicture picture = { *view, TRUE, options->height };

  picture.view.width = options->width;
  return draw_image (options, options->height, background, draw_timeline, &picture, file, error);
}

typedef struct
{
  StrataFlameView view;
  int             width;
  int             height;
} FlamePicture;

static void
draw_flame (cairo_t        *cr,
            StrataTextSink  sink,
            gpointer        sink_data,
            gpointer        data)
{
  FlamePicture *picture = data;

  picture->view.text_sink = sink;
  picture->view.text_sink_data = sink_data;
  strata_flame_render (cr, &picture->view, picture->width, picture->height);
}

/**
 * strata_image_export_flame:
 * @zoom: the node as wide as the image (STRATA_CALL_TREE_ROOT: all)
 * @flame: the root at the bottom, else at the top
 *
 * The flame graph as tall as its deepest path (or @options' height).
 */
gboolean
strata_image_export_flame (StrataCallTree           *tree,
                           guint32                   zoom,
                           gboolean                  flame,
                           const StrataImageOptions *options,
                           GFile                    *file,
                           GError                  **error)
{
  guint rows = strata_call_tree_get_depth (tree, zoom) + strata_call_tree_get_depth_below (tree, zoom) + 1;
  int height = options->height > 0 ? options->height : (int) rows * STRATA_FLAME_ROW_HEIGHT;
  FlamePicture picture = {
    { .tree = tree, .clock = options->clock, .colors = options->colors, .flame = flame, .zoom = zoom,
      .selected = STRATA_CALL_TREE_NONE },
    options->width, height,
  };

  return draw_image (options, height, NULL, draw_flame, &picture, file, error);
}
