/* strata-site-row.h: an allocation site, or one frame of its stack
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "strata-heap.h"

G_BEGIN_DECLS

#define STRATA_TYPE_SITE_ROW (strata_site_row_get_type ())

/* The numbers of a site, for strata_site_row_get_value(). */
typedef enum
{
  STRATA_SITE_VALUE_RANK,
  STRATA_SITE_VALUE_LIVE_BYTES,
  STRATA_SITE_VALUE_LIVE_OBJECTS,
  STRATA_SITE_VALUE_ALLOCATED_BYTES,
  STRATA_SITE_VALUE_ALLOCATED_OBJECTS,
} StrataSiteValue;

G_DECLARE_FINAL_TYPE (StrataSiteRow, strata_site_row, STRATA, SITE_ROW, GObject)

StrataSiteRow *strata_site_row_new_site  (guint                  rank,
                                          const char            *class_name,
                                          const StrataAllocSite *site,
                                          double                 self_share,
                                          double                 accumulated,
                                          GListModel            *frames);
void           strata_site_row_get_shares (StrataSiteRow        *self,
                                          double               *self_share,
                                          double               *accumulated);
StrataSiteRow *strata_site_row_new_frame (const char            *text);
const char    *strata_site_row_get_text  (StrataSiteRow         *self);
gboolean       strata_site_row_is_frame  (StrataSiteRow         *self);
guint64        strata_site_row_get_value (StrataSiteRow         *self,
                                          guint                  column);
GListModel    *strata_site_row_get_frames (StrataSiteRow        *self);

G_END_DECLS
