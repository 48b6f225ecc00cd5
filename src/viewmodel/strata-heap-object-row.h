/* strata-heap-object-row.h: one object of a heap dump, as a row of the
 * dominator tree: it expands to the objects it alone keeps alive
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "strata-heap-duplicates.h"
#include "strata-heap-object-list.h"
#include "strata-trace.h"

G_BEGIN_DECLS

#define STRATA_TYPE_HEAP_OBJECT_ROW (strata_heap_object_row_get_type ())

G_DECLARE_FINAL_TYPE (StrataHeapObjectRow, strata_heap_object_row, STRATA, HEAP_OBJECT_ROW, GObject)

StrataHeapObjectRow *strata_heap_object_row_new  (StrataTrace         *trace,
                                                   guint32              object);
StrataHeapObjectRow *strata_heap_object_row_new_more (StrataTrace        *trace,
                                                  StrataHeapObjectList *list,
                                                  guint32             n_more);
gboolean    strata_heap_object_row_is_more        (StrataHeapObjectRow *self);
gboolean    strata_heap_object_row_show_more      (StrataHeapObjectRow *self);
guint32     strata_heap_object_row_get_object     (StrataHeapObjectRow *self);
GListModel *strata_heap_object_row_list_children  (StrataHeapObjectRow *self);
GListModel *strata_heap_object_row_list_groups    (StrataTrace         *trace);
int         strata_heap_object_row_compare        (StrataHeapObjectRow *a,
                                                   StrataHeapObjectRow *b,
                                                   guint                key);
char       *strata_heap_object_row_dup_label      (StrataHeapObjectRow *self);
guint64     strata_heap_object_row_get_shallow    (StrataHeapObjectRow *self);
guint64     strata_heap_object_row_get_retained   (StrataHeapObjectRow *self);
double      strata_heap_object_row_get_share      (StrataHeapObjectRow *self);

G_END_DECLS
