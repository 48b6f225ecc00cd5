/* strata-image-export.h: the timeline or a flame graph as PNG, SVG or PDF
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "strata-call-tree.h"
#include "strata-timeline-render.h"
#include "strata-trace.h"

G_BEGIN_DECLS

typedef enum
{
  STRATA_IMAGE_PNG,
  STRATA_IMAGE_SVG,
  STRATA_IMAGE_PDF,
} StrataImageFormat;

/* The largest side of an image, in pixels (cairo's image surfaces). */
#define STRATA_IMAGE_MAX_SIDE 32000

typedef struct
{
  StrataImageFormat format;
  int               width;        /* pixels (points for PDF) */
  int               height;       /* 0: as tall as the content */
  gboolean          dark;
  guint             clock;
  const guint8     *colors;       /* palette index per method, or NULL */
  gboolean          transparent;  /* no background: only what the widget draws */
} StrataImageOptions;

gboolean strata_image_format_for_file  (GFile                    *file,
                                        StrataImageFormat        *format);
gboolean strata_image_export_timeline  (StrataTrace              *trace,
                                        gint64                    start,
                                        gint64                    end,
                                        const StrataImageOptions *options,
                                        GFile                    *file,
                                        GError                  **error);
gboolean strata_image_export_timeline_view (const StrataTimelineView *view,
                                        const StrataColor        *background,
                                        const StrataImageOptions *options,
                                        GFile                    *file,
                                        GError                  **error);
gboolean strata_image_export_flame     (StrataCallTree           *tree,
                                        guint32                   zoom,
                                        gboolean                  flame,
                                        const StrataImageOptions *options,
                                        GFile                    *file,
                                        GError                  **error);

G_END_DECLS
