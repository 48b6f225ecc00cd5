/* strata-heap-object-list.h: a list of heap objects whose rows are made
 * only when a view asks for them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "strata-trace.h"

G_BEGIN_DECLS

#define STRATA_TYPE_HEAP_OBJECT_LIST (strata_heap_object_list_get_type ())

G_DECLARE_FINAL_TYPE (StrataHeapObjectList, strata_heap_object_list, STRATA, HEAP_OBJECT_LIST, GObject)

StrataHeapObjectList *strata_heap_object_list_new        (StrataTrace          *trace,
                                                          const guint32        *objects,
                                                          guint32               n_objects);
StrataHeapObjectList *strata_heap_object_list_new_dominated (StrataTrace        *trace,
                                                          guint32               object);
StrataHeapObjectList *strata_heap_object_list_new_instances (StrataTrace        *trace,
                                                          guint                 heap_class);
guint32               strata_heap_object_list_get_object (StrataHeapObjectList *self,
                                                          guint                 position);
guint32               strata_heap_object_list_get_length (StrataHeapObjectList *self);
void                  strata_heap_object_list_show_more  (StrataHeapObjectList *self);
void                  strata_heap_object_list_sort_async (StrataHeapObjectList *self,
                                                          guint                 key,
                                                          gboolean              descending,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
gboolean              strata_heap_object_list_sort_finish (StrataHeapObjectList *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);

G_END_DECLS
