/* strata-heap-view-private.h: what tests read and drive of the heap view
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-heap-view.h"

G_BEGIN_DECLS

/* For tests: what the view shows, and driving it as a user would. */
GListModel *strata_heap_view_get_model    (StrataHeapView *self);
GtkWidget  *strata_heap_view_get_page     (StrataHeapView *self,
                                           const char     *name);
void        strata_heap_view_set_filter   (StrataHeapView *self,
                                           const char     *text);
void        strata_heap_view_sort_by      (StrataHeapView *self,
                                           const char     *column,
                                           GtkSortType     order);
gboolean    strata_heap_view_export       (StrataHeapView *self,
                                           const char     *page,
                                           GFile          *file,
                                           gboolean        filtered,
                                           GError        **error);

/* The Leak Suspects and Threads pages (strata-heap-view-suspects.c,
 * -threads.c), and what their links do. */
GtkWidget  *strata_heap_view_build_suspects (StrataHeapView *self,
                                             StrataTrace    *trace);
GtkWidget  *strata_heap_view_build_threads (StrataHeapView *self,
                                            StrataTrace    *trace);
GtkWidget  *strata_heap_view_wrapped_label (const char     *text,
                                            const char     *css_class);
GtkWidget  *strata_heap_view_build_android_leaks (StrataHeapView *self,
                                                  StrataTrace    *trace);
GtkWidget  *strata_heap_view_build_bitmaps (StrataHeapView *self,
                                            StrataTrace    *trace);
void        strata_heap_view_inspect      (StrataHeapView *self,
                                           guint32         object);
GtkWidget  *strata_heap_view_new_inspect_button (StrataHeapView *self,
                                                 const char     *text,
                                                 guint32         object);

G_END_DECLS
