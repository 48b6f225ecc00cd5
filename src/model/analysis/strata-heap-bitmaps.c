/* strata-heap-bitmaps.c: an Android dump's bitmaps, their pixels and
 * their copies
 *
 * Up to Android 7 a Bitmap holds its pixels in a byte[] (mBuffer), as
 * its config lays them out: 4, 2 or 1 bytes a pixel. From Android 8 the
 * pixels live in native memory, and the dump's writer adds them
 * compressed: Bitmap's static dumpData holds the native pointers
 * (natives), the images (buffers) and their format (0 JPEG, 1 PNG, 2 and
 * up WebP), matched to each bitmap by its mNativePtr. Bitmaps with the
 * same size and the same pixels are copies: all but the first are memory
 * the app could share.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-heap.h"
#include "strata-heap-bitmaps.h"
#include "strata-heap-labels.h"
#include "strata-hprof-index.h"

#define BITMAP_CLASS "android.graphics.Bitmap"
#define MAX_SIDE (1 << 16)

typedef struct
{
  StrataTrace      *trace;
  StrataHeapGraph  *graph;
  StrataHprofIndex *index;
  GHashTable       *compressed;   /* native pointer → its buffer (object + 1) */
  StrataBitmapFormat compressed_format;
} Search;

static guint32
object_of (Search                *search,
           const StrataHeapField *field)
{
  if (field == NULL || field->type != STRATA_HEAP_TYPE_OBJECT || field->value == 0)
    return STRATA_HEAP_NO_OBJECT;
  return strata_heap_graph_lookup (search->graph, field->value);
}

/* The class object of Bitmap, whose statics hold dumpData. */
static guint32
bitmap_class_object (Search *search)
{
  guint klass = strata_heap_class_named (search->trace, "java.lang.Class");
  g_autofree guint32 *objects = NULL;
  guint32 n = 0, found = STRATA_HEAP_NO_OBJECT;

  if (klass == G_MAXUINT)
    return found;
  objects = strata_heap_graph_list_instances (search->graph, klass, &n);
  for (guint32 i = 0; i < n && found == STRATA_HEAP_NO_OBJECT; i++)
    if (g_strcmp0 (strata_heap_class_object_name (search->trace, objects[i]), BITMAP_CLASS) == 0)
      found = objects[i];
  return found;
}

static StrataBitmapFormat
compressed_format (gint64 format)
{
  switch (format)
    {
    case 0: return STRATA_BITMAP_JPEG;
    case 1: return STRATA_BITMAP_PNG;
    default: return STRATA_BITMAP_WEBP;
    }
}

/* Android 8 and later: dumpData's natives matched to its buffers. */
static void
read_dump_data (Search *search)
{
  guint32 klass = bitmap_class_object (search), data, natives, buffers;
  g_autoptr(GArray) statics = NULL, fields = NULL;
  const guint8 *pointers, *images;
  guint type, element_size;
  guint32 n_pointers, n_images;

  if (klass == STRATA_HEAP_NO_OBJECT)
    return;
  statics = strata_hprof_index_get_fields (search->index, search->trace, klass);
  if ((data = object_of (search, strata_heap_fields_find (statics, NULL, "dumpData"))) == STRATA_HEAP_NO_OBJECT)
    return;
  fields = strata_hprof_index_get_fields (search->index, search->trace, data);
  natives = object_of (search, strata_heap_fields_find (fields, NULL, "natives"));
  buffers = object_of (search, strata_heap_fields_find (fields, NULL, "buffers"));
  if (natives == STRATA_HEAP_NO_OBJECT || buffers == STRATA_HEAP_NO_OBJECT ||
      (pointers = strata_hprof_index_get_primitive_array (search->index, natives, &type, &n_pointers)) == NULL ||
      type != STRATA_HEAP_TYPE_LONG ||
      (images = strata_hprof_index_get_array (search->index, buffers, &type, &n_images, &element_size)) == NULL ||
      type != STRATA_HEAP_TYPE_OBJECT)
    return;
  search->compressed_format = compressed_format (strata_heap_fields_find (fields, NULL, "format") != NULL
                                                 ? (gint32) strata_heap_fields_find (fields, NULL, "format")->value : 1);
  for (guint32 i = 0; i < MIN (n_pointers, n_images); i++)
    {
      StrataHeapField pointer = strata_heap_array_element (pointers, STRATA_HEAP_TYPE_LONG, 8, i);
      StrataHeapField image = strata_heap_array_element (images, STRATA_HEAP_TYPE_OBJECT, element_size, i);
      guint32 buffer = image.value != 0 ? strata_heap_graph_lookup (search->graph, image.value) : STRATA_HEAP_NO_OBJECT;

      if (buffer != STRATA_HEAP_NO_OBJECT)
        g_hash_table_insert (search->compressed, GSIZE_TO_POINTER ((gsize) pointer.value), GUINT_TO_POINTER (buffer + 1));
    }
}

/* A byte[]'s length, or 0 for anything else. */
static guint32
byte_array_length (Search  *search,
                   guint32  array)
{
  guint type;
  guint32 length = 0;

  if (array == STRATA_HEAP_NO_OBJECT ||
      strata_hprof_index_get_primitive_array (search->index, array, &type, &length) == NULL ||
      type != STRATA_HEAP_TYPE_BYTE)
    return 0;
  return length;
}

/* Raw pixels: their layout from how many bytes each row has. */
static void
lay_out_raw (StrataHeapBitmap *bitmap,
             guint32           length)
{
  guint64 area = (guint64) bitmap->width * bitmap->height;
  guint32 stride = length / bitmap->height;

  bitmap->format = STRATA_BITMAP_NOT_IN_DUMP;
  if (area == 0 || length % bitmap->height != 0)
    return;
  if (stride >= 4 * bitmap->width)
    bitmap->format = STRATA_BITMAP_RGBA_8888;
  else if (stride >= 2 * bitmap->width)
    bitmap->format = STRATA_BITMAP_RGB_565;
  else if (stride >= bitmap->width)
    bitmap->format = STRATA_BITMAP_ALPHA_8;
  bitmap->stride = stride;
  bitmap->n_bytes = length;
}

static void
read_bitmap (Search           *search,
             guint32           object,
             StrataHeapBitmap *bitmap)
{
  g_autoptr(GArray) fields = strata_hprof_index_get_fields (search->index, search->trace, object);
  const StrataHeapField *width = strata_heap_fields_find (fields, NULL, "mWidth"), *height = strata_heap_fields_find (fields, NULL, "mHeight");
  const StrataHeapField *native = strata_heap_fields_find (fields, NULL, "mNativePtr");
  guint32 buffer = object_of (search, strata_heap_fields_find (fields, NULL, "mBuffer"));
  gpointer compressed;

  *bitmap = (StrataHeapBitmap) { object, 0, 0, STRATA_HEAP_NO_OBJECT, 0, STRATA_BITMAP_NOT_IN_DUMP, 0, G_MAXUINT, 0 };
  if (width == NULL || height == NULL || (gint32) width->value <= 0 || (gint32) height->value <= 0 ||
      (gint32) width->value > MAX_SIDE || (gint32) height->value > MAX_SIDE)
    return;
  bitmap->width = (guint32) width->value;
  bitmap->height = (guint32) height->value;
  if (byte_array_length (search, buffer) > 0)
    {
      bitmap->pixels = buffer;
      lay_out_raw (bitmap, byte_array_length (search, buffer));
    }
  else if (native != NULL &&
           (compressed = g_hash_table_lookup (search->compressed, GSIZE_TO_POINTER ((gsize) native->value))) != NULL)
    {
      bitmap->pixels = GPOINTER_TO_UINT (compressed) - 1;
      bitmap->format = search->compressed_format;
      bitmap->n_bytes = byte_array_length (search, bitmap->pixels);
    }
}

static gboolean
same_image (StrataTrace            *trace,
            const StrataHeapBitmap *a,
            const StrataHeapBitmap *b)
{
  gsize n_a = 0, n_b = 0;
  const guint8 *data_a = strata_heap_bitmap_get_data (trace, a, &n_a);
  const guint8 *data_b = strata_heap_bitmap_get_data (trace, b, &n_b);

  return a->width == b->width && a->height == b->height && a->format == b->format && n_a == n_b &&
         memcmp (data_a, data_b, n_a) == 0;
}

static guint
image_hash (const StrataHeapBitmap *bitmap,
            const guint8           *data,
            gsize                   n)
{
  guint hash = 2166136261u ^ bitmap->format;

  for (gsize i = 0; i < n; i++)
    hash = (hash ^ data[i]) * 16777619u;
  return hash ^ (bitmap->width * 31 + bitmap->height);
}

/* Copies: same size, same format, same bytes. Each image's first
 * bitmap is kept by its hash, with any others of that hash. */
static void
find_copies (StrataTrace *trace,
             GArray      *bitmaps)
{
  g_autoptr(GHashTable) firsts = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);

  for (guint i = 0; i < bitmaps->len; i++)
    {
      StrataHeapBitmap *bitmap = &g_array_index (bitmaps, StrataHeapBitmap, i);
      gsize n = 0;
      const guint8 *data = strata_heap_bitmap_get_data (trace, bitmap, &n);
      gpointer hash;
      GArray *same_hash;

      if (data == NULL)
        continue;
      hash = GUINT_TO_POINTER (image_hash (bitmap, data, n));
      if ((same_hash = g_hash_table_lookup (firsts, hash)) == NULL)
        g_hash_table_insert (firsts, hash, same_hash = g_array_new (FALSE, FALSE, sizeof (guint)));
      for (guint k = 0; k < same_hash->len && bitmap->copy_of == G_MAXUINT; k++)
        {
          guint first = g_array_index (same_hash, guint, k);

          if (same_image (trace, &g_array_index (bitmaps, StrataHeapBitmap, first), bitmap))
            {
              bitmap->copy_of = first;
              g_array_index (bitmaps, StrataHeapBitmap, first).n_copies++;
            }
        }
      if (bitmap->copy_of == G_MAXUINT)
        g_array_append_val (same_hash, i);
    }
}

static int
compare_by_bytes (gconstpointer a,
                  gconstpointer b)
{
  const StrataHeapBitmap *ba = a, *bb = b;

  if (ba->n_bytes != bb->n_bytes)
    return ba->n_bytes > bb->n_bytes ? -1 : 1;
  return ba->object < bb->object ? -1 : ba->object > bb->object;
}

/**
 * strata_heap_find_bitmaps:
 *
 * Returns: (transfer full): StrataHeapBitmap: every android.graphics.Bitmap
 *   of the dump, the most pixel bytes first, copies marked; empty for a
 *   dump without them
 */
GArray *
strata_heap_find_bitmaps (StrataTrace *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  GArray *bitmaps = g_array_new (FALSE, FALSE, sizeof (StrataHeapBitmap));
  g_autoptr(GHashTable) compressed = g_hash_table_new (NULL, NULL);
  Search search = { trace, heap != NULL ? strata_heap_get_graph (heap) : NULL, heap != NULL ? strata_heap_get_index (heap) : NULL,
                    compressed, STRATA_BITMAP_PNG };
  g_autofree guint32 *objects = NULL;
  guint klass;
  guint32 n = 0;

  if (search.graph == NULL || search.index == NULL || (klass = strata_heap_class_named (trace, BITMAP_CLASS)) == G_MAXUINT)
    return bitmaps;
  read_dump_data (&search);
  objects = strata_heap_graph_list_instances (search.graph, klass, &n);
  g_array_set_size (bitmaps, n);
  for (guint32 i = 0; i < n; i++)
    read_bitmap (&search, objects[i], &g_array_index (bitmaps, StrataHeapBitmap, i));
  g_array_sort (bitmaps, compare_by_bytes);
  find_copies (trace, bitmaps);
  return bitmaps;
}

/**
 * strata_heap_bitmap_get_data:
 *
 * Returns: (nullable): the pixels (or the compressed image) as the dump
 *   holds them, or %NULL when it does not
 */
const guint8 *
strata_heap_bitmap_get_data (StrataTrace            *trace,
                             const StrataHeapBitmap *bitmap,
                             gsize                  *n_bytes)
{
  StrataHprofIndex *index = strata_heap_get_index (strata_trace_get_heap (trace));
  guint type;
  guint32 length;
  const guint8 *data;

  *n_bytes = 0;
  if (bitmap->pixels == STRATA_HEAP_NO_OBJECT || bitmap->format == STRATA_BITMAP_NOT_IN_DUMP ||
      (data = strata_hprof_index_get_primitive_array (index, bitmap->pixels, &type, &length)) == NULL)
    return NULL;
  *n_bytes = length;
  return data;
}

/**
 * strata_heap_bitmaps_wasted:
 *
 * Returns: the pixel bytes of all copies but the first of each image
 */
guint64
strata_heap_bitmaps_wasted (const GArray *bitmaps)
{
  guint64 wasted = 0;

  for (guint i = 0; i < bitmaps->len; i++)
    if (g_array_index (bitmaps, StrataHeapBitmap, i).copy_of != G_MAXUINT)
      wasted += g_array_index (bitmaps, StrataHeapBitmap, i).n_bytes;
  return wasted;
}

const char *
strata_bitmap_format_get_name (StrataBitmapFormat format)
{
  switch (format)
    {
    case STRATA_BITMAP_RGBA_8888: return "ARGB_8888";
    case STRATA_BITMAP_RGB_565: return "RGB_565";
    case STRATA_BITMAP_ALPHA_8: return "ALPHA_8";
    case STRATA_BITMAP_PNG: return "PNG";
    case STRATA_BITMAP_JPEG: return "JPEG";
    case STRATA_BITMAP_WEBP: return "WebP";
    case STRATA_BITMAP_NOT_IN_DUMP:
    default:
      /* Translators: a bitmap whose pixels the heap dump does not hold */
      return _("pixels not in the dump");
    }
}
