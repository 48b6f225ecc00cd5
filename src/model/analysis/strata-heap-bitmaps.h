/* strata-heap-bitmaps.h: an Android dump's bitmaps, their pixels and
 * their copies
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-trace.h"

G_BEGIN_DECLS

typedef enum
{
  STRATA_BITMAP_NOT_IN_DUMP,   /* the pixels are in native memory */
  STRATA_BITMAP_RGBA_8888,     /* premultiplied, as Android's ARGB_8888 lays bytes out */
  STRATA_BITMAP_RGB_565,       /* little-endian */
  STRATA_BITMAP_ALPHA_8,
  STRATA_BITMAP_PNG,           /* compressed by the dump's writer (Android 8 and later) */
  STRATA_BITMAP_JPEG,
  STRATA_BITMAP_WEBP,
} StrataBitmapFormat;

typedef struct
{
  guint32            object;     /* the android.graphics.Bitmap */
  guint32            width;
  guint32            height;
  guint32            pixels;     /* the byte[] holding them, or STRATA_HEAP_NO_OBJECT */
  guint32            stride;     /* bytes per row of raw pixels */
  StrataBitmapFormat format;
  guint64            n_bytes;    /* of the pixel data */
  guint              copy_of;    /* the index of the first bitmap with the same
                                  * pixels, or G_MAXUINT */
  guint              n_copies;   /* on that first one: how many others have them */
} StrataHeapBitmap;

GArray       *strata_heap_find_bitmaps      (StrataTrace            *trace);
const guint8 *strata_heap_bitmap_get_data   (StrataTrace            *trace,
                                             const StrataHeapBitmap *bitmap,
                                             gsize                  *n_bytes);
guint64       strata_heap_bitmaps_wasted    (const GArray           *bitmaps);
const char   *strata_bitmap_format_get_name (StrataBitmapFormat      format);

G_END_DECLS
