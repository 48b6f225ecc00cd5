/* strata-heap-duplicates.h: strings and primitive arrays a heap dump holds
 * more than once, and the bytes the copies waste
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "strata-trace.h"

G_BEGIN_DECLS

typedef struct
{
  char    *text;        /* a string's text; NULL for an array */
  guint32  heap_class;  /* an array's class */
  guint32  length;      /* an array's length */
  guint32  count;       /* how many equal copies */
  guint64  wasted;      /* the bytes all but one of them take */
  guint32  example;     /* one of them */
} StrataHeapDuplicate;

GArray *strata_heap_find_duplicates (StrataTrace   *trace,
                                     gboolean       strings,
                                     guint          max,
                                     GCancellable  *cancellable);
guint32 *strata_heap_duplicate_holders (StrataTrace               *trace,
                                        const StrataHeapDuplicate *duplicate,
                                        guint32                   *n_holders,
                                        GCancellable              *cancellable);

G_END_DECLS
