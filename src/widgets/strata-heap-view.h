/* strata-heap-view.h: a heap dump's class histogram and GC roots
 *
 * Pages for what the dump holds: a sortable, filterable table of classes
 * (instances and shallow bytes) with the totals and the roots by kind
 * above it, the allocation sites with their stacks, and the threads.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-session.h"

G_BEGIN_DECLS

#define STRATA_TYPE_HEAP_VIEW (strata_heap_view_get_type ())

G_DECLARE_FINAL_TYPE (StrataHeapView, strata_heap_view, STRATA, HEAP_VIEW, GtkWidget)

GtkWidget  *strata_heap_view_new          (StrataSession  *session);

void        strata_heap_view_show_instances (StrataHeapView *self,
                                             guint           heap_class);

void        strata_heap_view_show_objects (StrataHeapView *self,
                                           const char     *title,
                                           const guint32  *objects,
                                           guint32         n_objects);

G_END_DECLS
