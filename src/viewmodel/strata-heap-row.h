/* strata-heap-row.h: one class of a heap dump's histogram, for list views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define STRATA_TYPE_HEAP_ROW (strata_heap_row_get_type ())

G_DECLARE_FINAL_TYPE (StrataHeapRow, strata_heap_row, STRATA, HEAP_ROW, GObject)

StrataHeapRow *strata_heap_row_new               (const char *name,
                                                  guint64     instances,
                                                  guint64     shallow_bytes,
                                                  guint64     retained_bytes,
                                                  guint64     reachable_bytes);
const char    *strata_heap_row_get_name          (StrataHeapRow *self);
guint64        strata_heap_row_get_instances     (StrataHeapRow *self);
guint64        strata_heap_row_get_shallow_bytes (StrataHeapRow *self);
guint64        strata_heap_row_get_retained_bytes (StrataHeapRow *self);
double         strata_heap_row_get_retained_share (StrataHeapRow *self);
void           strata_heap_row_set_heap_class    (StrataHeapRow *self,
                                                  guint          heap_class);
guint          strata_heap_row_get_heap_class    (StrataHeapRow *self);
void           strata_heap_row_set_group         (StrataHeapRow *self,
                                                  guint          group);
guint          strata_heap_row_get_group         (StrataHeapRow *self);

G_END_DECLS
