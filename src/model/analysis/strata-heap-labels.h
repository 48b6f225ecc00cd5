/* strata-heap-labels.h: what a heap dump's classes and objects are called
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-heap-duplicates.h"
#include "strata-trace.h"

G_BEGIN_DECLS

const char *strata_heap_class_label               (StrataTrace         *trace,
                                                   guint                klass);
const char *strata_heap_object_class_label        (StrataTrace         *trace,
                                                   guint32              object);
char       *strata_heap_describe_array_copies     (StrataTrace         *trace,
                                                   const StrataHeapDuplicate *duplicate);
guint       strata_heap_class_named               (StrataTrace         *trace,
                                                   const char          *name);
const char *strata_heap_class_object_name         (StrataTrace         *trace,
                                                   guint32              object);
char       *strata_heap_describe_object           (StrataTrace         *trace,
                                                   guint32              object);
char       *strata_heap_describe_held             (StrataTrace         *trace,
                                                   guint32              object);
gboolean    strata_heap_collection_fill           (StrataTrace         *trace,
                                                   guint32              object,
                                                   guint64             *size,
                                                   guint64             *capacity);
char       *strata_heap_describe_path             (StrataTrace         *trace,
                                                   const guint32       *path,
                                                   guint32              n,
                                                   gboolean             from_root);

G_END_DECLS
