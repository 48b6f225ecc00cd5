/* strata-heap-android-leaks.h: what an Android app is done with and
 * still holds, found as LeakCanary finds it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-trace.h"

G_BEGIN_DECLS

typedef enum
{
  STRATA_LEAK_STATUS_UNKNOWN,
  STRATA_LEAK_STATUS_NOT_LEAKING,
  STRATA_LEAK_STATUS_LEAKING,
} StrataLeakStatus;

/* One object on the path from a GC root to a leaking object. */
typedef struct
{
  guint32          object;
  StrataLeakStatus status;
  char            *reason;      /* why it has its status; NULL when unknown */
  char            *reference;   /* how the step before holds it ("static sCache",
                                 * "mListeners", "[3]"); NULL on the root */
  gboolean         suspect;     /* the reference to it may be the bug: it is
                                 * held by an object not known to leak */
} StrataLeakStep;

/* Leaking objects held along paths of one shape. */
typedef struct
{
  GArray  *objects;             /* guint32, the most retained first */
  GArray  *steps;               /* StrataLeakStep: the path to the first,
                                 * the GC root first */
  guint64  retained;            /* bytes, over all of @objects */
  char    *signature;           /* the suspect references, as "Class.field" */
} StrataAndroidLeak;

gboolean    strata_heap_has_android_classes (StrataTrace            *trace);
GPtrArray  *strata_heap_find_android_leaks (StrataTrace             *trace);
char       *strata_android_leak_describe   (StrataTrace             *trace,
                                            const StrataAndroidLeak *leak);
const char *strata_leak_status_get_name    (StrataLeakStatus         status);
const char *strata_leak_status_get_id      (StrataLeakStatus         status);

G_END_DECLS
