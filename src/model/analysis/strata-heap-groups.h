/* strata-heap-groups.h: a heap dump's classes summed by package or by
 * class loader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-trace.h"

G_BEGIN_DECLS

typedef enum
{
  STRATA_HEAP_GROUP_BY_PACKAGE,
  STRATA_HEAP_GROUP_BY_LOADER,
} StrataHeapGroupBy;

typedef struct
{
  char    *name;           /* "java.util", or a loader as "app (jdk.internal…$AppClassLoader 0x…)" */
  guint32  loader;         /* by loader: the loader object, or STRATA_HEAP_NO_OBJECT for the bootstrap one */
  guint    n_classes;
  guint64  instances;
  guint64  shallow_bytes;
  guint64  retained_bytes; /* by its instances together, each byte once */
  guint    index;          /* its number in strata_heap_group_of_classes(), whatever the order */
} StrataHeapGroup;

GArray *strata_heap_group_classes  (StrataTrace       *trace,
                                    StrataHeapGroupBy  by,
                                    int                heap);
void    strata_heap_group_classes_by (StrataTrace          *trace,
                                    const StrataHeapGroupBy *by,
                                    guint              n,
                                    int                heap,
                                    GArray           **groups);
guint  *strata_heap_group_of_classes (StrataTrace     *trace,
                                    StrataHeapGroupBy  by,
                                    GArray           **groups);
char   *strata_heap_package_of     (const char        *class_name);

G_END_DECLS
