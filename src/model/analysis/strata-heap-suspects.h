/* strata-heap-suspects.h: what in a heap dump most likely leaks, named
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-trace.h"

G_BEGIN_DECLS

/* A leak suspect: one object that retains more than a tenth of the
 * reachable heap, or a group of instances of one application class that
 * do together, each held on its own. */
typedef struct
{
  guint32 object;         /* the suspect; a group: its largest instance */
  guint32 holder;         /* what holds it: a class object (a static field), a
                           * thread, or its dominator; STRATA_HEAP_NO_OBJECT
                           * when it is a GC root */
  guint32 accumulation;   /* where its memory accumulates: the first object down
                           * the dominator tree whose largest child retains less
                           * than 70 % of it, as Eclipse MAT finds it */
  guint   content_class;  /* what the accumulation point holds most of, or G_MAXUINT */
  guint64 n_content;      /* how many of them */
  guint   group_class;    /* a group's class; G_MAXUINT for one object */
  guint64 n_group;        /* a group's instances */
  guint64 retained;       /* bytes: the object's, or the group's sum */
} StrataHeapSuspect;

GArray  *strata_heap_find_leak_suspects        (StrataTrace             *trace);
char    *strata_heap_suspect_describe          (StrataTrace             *trace,
                                                const StrataHeapSuspect *suspect);
char    *strata_heap_suspect_describe_holder   (StrataTrace             *trace,
                                                const StrataHeapSuspect *suspect);
guint32 *strata_heap_suspect_accumulation_path (StrataTrace             *trace,
                                                const StrataHeapSuspect *suspect,
                                                guint32                 *n_steps);
GStrv    strata_heap_suspect_keywords          (StrataTrace             *trace,
                                                const StrataHeapSuspect *suspect);

G_END_DECLS
