/* strata-object-inspector.h: one heap object: its sizes, the shortest
 * path from a GC root, its fields and its referrers, each object a link
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-trace.h"

G_BEGIN_DECLS

#define STRATA_TYPE_OBJECT_INSPECTOR (strata_object_inspector_get_type ())

G_DECLARE_FINAL_TYPE (StrataObjectInspector, strata_object_inspector, STRATA, OBJECT_INSPECTOR, GtkWidget)

GtkWidget *strata_object_inspector_new      (StrataTrace           *trace);
void       strata_object_inspector_show     (StrataObjectInspector *self,
                                             guint32                object);
guint32    strata_object_inspector_get_object (StrataObjectInspector *self);
char      *strata_object_inspector_dup_text (StrataObjectInspector *self);

G_END_DECLS
