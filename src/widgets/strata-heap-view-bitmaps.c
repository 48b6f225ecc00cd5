/* strata-heap-view-bitmaps.c: the heap view's Bitmaps page
 *
 * An Android dump's bitmaps (strata-heap-bitmaps.h) as pictures, the
 * most pixel bytes first: each with its size, format and bytes, its
 * copies (bitmaps with the same pixels) named, and a button that opens
 * it in the inspector.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-heap.h"
#include "strata-heap-bitmaps.h"
#include "strata-heap-view-private.h"

/* More than this are not drawn: each picture is a texture. */
#define MAX_SHOWN 600
#define TILE_SIZE 128

/* RGB_565, little-endian, as 3 bytes a pixel. */
static GBytes *
expand_565 (const guint8           *data,
            const StrataHeapBitmap *bitmap)
{
  guint8 *out = g_malloc ((gsize) bitmap->width * bitmap->height * 3);

  for (guint32 y = 0; y < bitmap->height; y++)
    for (guint32 x = 0; x < bitmap->width; x++)
      {
        const guint8 *in = data + (gsize) y * bitmap->stride + 2 * x;
        guint v = in[0] | (in[1] << 8);
        guint8 *px = out + ((gsize) y * bitmap->width + x) * 3;

        px[0] = ((v >> 11) & 31) * 255 / 31;
        px[1] = ((v >> 5) & 63) * 255 / 63;
        px[2] = (v & 31) * 255 / 31;
      }
  return g_bytes_new_take (out, (gsize) bitmap->width * bitmap->height * 3);
}

/* ALPHA_8: black, as opaque as each byte says. */
static GBytes *
expand_alpha (const guint8           *data,
              const StrataHeapBitmap *bitmap)
{
  guint8 *out = g_malloc0 ((gsize) bitmap->width * bitmap->height * 4);

  for (guint32 y = 0; y < bitmap->height; y++)
    for (guint32 x = 0; x < bitmap->width; x++)
      out[((gsize) y * bitmap->width + x) * 4 + 3] = data[(gsize) y * bitmap->stride + x];
  return g_bytes_new_take (out, (gsize) bitmap->width * bitmap->height * 4);
}

/* The bitmap as a texture, or NULL when its pixels are not in the dump
 * or cannot be decoded. */
static GdkTexture *
bitmap_texture (StrataTrace            *trace,
                const StrataHeapBitmap *bitmap)
{
  gsize n = 0;
  const guint8 *data = strata_heap_bitmap_get_data (trace, bitmap, &n);
  g_autoptr(GBytes) bytes = NULL;

  if (data == NULL)
    return NULL;
  switch (bitmap->format)
    {
    case STRATA_BITMAP_RGBA_8888:
      bytes = g_bytes_new_static (data, n);
      return gdk_memory_texture_new (bitmap->width, bitmap->height, GDK_MEMORY_R8G8B8A8_PREMULTIPLIED, bytes, bitmap->stride);
    case STRATA_BITMAP_RGB_565:
      bytes = expand_565 (data, bitmap);
      return gdk_memory_texture_new (bitmap->width, bitmap->height, GDK_MEMORY_R8G8B8, bytes, (gsize) bitmap->width * 3);
    case STRATA_BITMAP_ALPHA_8:
      bytes = expand_alpha (data, bitmap);
      return gdk_memory_texture_new (bitmap->width, bitmap->height, GDK_MEMORY_R8G8B8A8_PREMULTIPLIED, bytes,
                                     (gsize) bitmap->width * 4);
    case STRATA_BITMAP_PNG:
    case STRATA_BITMAP_JPEG:
    case STRATA_BITMAP_WEBP:
      bytes = g_bytes_new_static (data, n);
      return gdk_texture_new_from_bytes (bytes, NULL);
    case STRATA_BITMAP_NOT_IN_DUMP:
    default:
      return NULL;
    }
}

static GtkWidget *
picture_of (StrataTrace            *trace,
            const StrataHeapBitmap *bitmap)
{
  g_autoptr(GdkTexture) texture = bitmap_texture (trace, bitmap);
  GtkWidget *picture;

  if (texture == NULL)
    {
      picture = gtk_image_new_from_icon_name ("image-missing-symbolic");
      gtk_image_set_pixel_size (GTK_IMAGE (picture), 48);
    }
  else
    {
      picture = gtk_picture_new_for_paintable (GDK_PAINTABLE (texture));
#if GTK_CHECK_VERSION (4, 8, 0)
      gtk_picture_set_content_fit (GTK_PICTURE (picture), GTK_CONTENT_FIT_CONTAIN);
#endif
    }
  gtk_widget_set_size_request (picture, TILE_SIZE, TILE_SIZE);
  gtk_widget_add_css_class (picture, "strata-bitmap");
  return picture;
}

/* "44×64 · ARGB_8888 · 11.3 kB", then its copies. */
static char *
describe_bitmap (StrataTrace            *trace,
                 const GArray           *bitmaps,
                 const StrataHeapBitmap *bitmap)
{
  g_autofree char *bytes = g_format_size (bitmap->n_bytes);
  GString *text = g_string_new (NULL);

  g_string_printf (text, "%u×%u · %s · %s", bitmap->width, bitmap->height, strata_bitmap_format_get_name (bitmap->format), bytes);
  if (bitmap->copy_of != G_MAXUINT)
    {
      StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (trace));
      guint32 first = g_array_index (bitmaps, StrataHeapBitmap, bitmap->copy_of).object;

      g_string_append_c (text, '\n');
      /* Translators: %llx is the id of the bitmap this one has the same pixels as */
      g_string_append_printf (text, _("Copy of 0x%llx"), (unsigned long long) strata_heap_graph_get_id (graph, first));
    }
  else if (bitmap->n_copies > 0)
    {
      g_string_append_c (text, '\n');
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%u copy elsewhere", "%u copies elsewhere", bitmap->n_copies),
                              bitmap->n_copies);
    }
  return g_string_free (text, FALSE);
}

static GtkWidget *
bitmap_tile (StrataHeapView         *self,
             StrataTrace            *trace,
             const GArray           *bitmaps,
             const StrataHeapBitmap *bitmap)
{
  GtkWidget *tile = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  g_autofree char *text = describe_bitmap (trace, bitmaps, bitmap);
  GtkWidget *caption = gtk_label_new (text);
  GtkWidget *inspect = strata_heap_view_new_inspect_button (self, _("Inspect"), bitmap->object);

  gtk_label_set_justify (GTK_LABEL (caption), GTK_JUSTIFY_CENTER);
  gtk_widget_add_css_class (caption, "caption");
  if (bitmap->copy_of != G_MAXUINT || bitmap->n_copies > 0)
    gtk_widget_add_css_class (caption, "warning");
  gtk_widget_add_css_class (inspect, "flat");
  gtk_widget_set_halign (inspect, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (tile), picture_of (trace, bitmap));
  gtk_box_append (GTK_BOX (tile), caption);
  gtk_box_append (GTK_BOX (tile), inspect);
  gtk_widget_set_name (tile, "bitmap");
  return tile;
}

static char *
describe_all (const GArray *bitmaps)
{
  guint64 bytes = 0;
  g_autofree char *total = NULL, *wasted = NULL;

  for (guint i = 0; i < bitmaps->len; i++)
    bytes += g_array_index (bitmaps, StrataHeapBitmap, i).n_bytes;
  total = g_format_size (bytes);
  wasted = g_format_size (strata_heap_bitmaps_wasted (bitmaps));
  /* Translators: "24 bitmaps hold 235.7 kB of pixels; copies of others take 11.3 kB of them." */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u bitmap holds %s of pixels; copies of others take %s of them.",
                                       "%u bitmaps hold %s of pixels; copies of others take %s of them.", bitmaps->len),
                          bitmaps->len, total, wasted);
}

/**
 * strata_heap_view_build_bitmaps:
 *
 * Returns: (nullable): the Bitmaps page, or %NULL for a dump without bitmaps
 */
GtkWidget *
strata_heap_view_build_bitmaps (StrataHeapView *self,
                                StrataTrace    *trace)
{
  g_autoptr(GArray) bitmaps = strata_heap_find_bitmaps (trace);
  g_autofree char *intro = NULL;
  GtkWidget *scroller, *box, *flow, *label;

  if (bitmaps->len == 0)
    return NULL;
  intro = describe_all (bitmaps);
  scroller = gtk_scrolled_window_new ();
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  flow = gtk_flow_box_new ();
  g_object_set (box, "margin-start", 18, "margin-end", 18, "margin-top", 12, "margin-bottom", 12, NULL);
  label = gtk_label_new (intro);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (box), label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (flow), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Bitmaps"), -1);
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (flow), GTK_SELECTION_NONE);
  gtk_flow_box_set_homogeneous (GTK_FLOW_BOX (flow), TRUE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (flow), 64);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (flow), 12);
  gtk_flow_box_set_row_spacing (GTK_FLOW_BOX (flow), 12);
  for (guint i = 0; i < MIN (bitmaps->len, MAX_SHOWN); i++)
    gtk_flow_box_append (GTK_FLOW_BOX (flow), bitmap_tile (self, trace, bitmaps, &g_array_index (bitmaps, StrataHeapBitmap, i)));
  gtk_widget_set_valign (flow, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (box), flow);
  if (bitmaps->len > MAX_SHOWN)
    {
      /* Translators: %u is how many bitmaps are drawn, those with the most pixels */
      g_autofree char *cut = g_strdup_printf (_("The %u with the most pixels are shown."), MAX_SHOWN);

      gtk_box_append (GTK_BOX (box), gtk_label_new (cut));
    }
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  gtk_widget_set_vexpand (scroller, TRUE);
  return scroller;
}
