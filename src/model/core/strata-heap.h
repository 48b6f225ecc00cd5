/* strata-heap.h: what a Java heap dump holds, summed per class
 *
 * A heap dump is never kept object by object: the loader walks it once
 * and keeps, per class, how many instances (or arrays) there were and
 * their shallow size, plus the GC roots by kind.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "strata-heap-graph.h"

G_BEGIN_DECLS

typedef enum
{
  STRATA_ROOT_UNKNOWN,
  STRATA_ROOT_JNI_GLOBAL,
  STRATA_ROOT_JNI_LOCAL,
  STRATA_ROOT_JAVA_FRAME,
  STRATA_ROOT_NATIVE_STACK,
  STRATA_ROOT_STICKY_CLASS,
  STRATA_ROOT_THREAD_BLOCK,
  STRATA_ROOT_MONITOR_USED,
  STRATA_ROOT_THREAD_OBJECT,
  STRATA_ROOT_INTERNED_STRING,
  STRATA_ROOT_FINALIZING,
  STRATA_ROOT_DEBUGGER,
  STRATA_ROOT_REFERENCE_CLEANUP,
  STRATA_ROOT_VM_INTERNAL,
  STRATA_ROOT_JNI_MONITOR,
  STRATA_ROOT_UNREACHABLE,
  STRATA_N_ROOT_KINDS,
} StrataRootKind;

typedef struct
{
  guint32 name;            /* string pool id, e.g. "java.util.HashMap$Node[]" */
  guint64 instances;       /* instances, or arrays for array classes */
  guint64 shallow_bytes;   /* as the VM sizes them; field or element bytes without a graph */
  guint64 retained_bytes;  /* what its instances keep alive, each byte once; 0 without a graph */
} StrataHeapClass;

/* A class's part in one heap of an Android dump (app, zygote, image). */
typedef struct
{
  guint64 instances;
  guint64 shallow_bytes;
  guint64 retained_bytes;
} StrataHeapClassShare;

/* One row of an allocation sites table (hprof's SITES). */
typedef struct
{
  guint32 class_name;        /* string pool id */
  guint32 trace;             /* the allocating stack's serial */
  guint64 live_bytes;
  guint64 live_objects;
  guint64 allocated_bytes;
  guint64 allocated_objects;
} StrataAllocSite;

/* A thread the dump names, with the stack it had (0: none). */
typedef struct
{
  guint32 serial;
  guint32 name;              /* string pool id */
  guint32 stack;             /* stack trace serial */
  guint32 object;            /* its java.lang.Thread in the graph, or STRATA_HEAP_NO_OBJECT */
} StrataHeapThread;

/* An object a thread's stack frame holds (a Java frame or JNI local root). */
typedef struct
{
  guint32 thread;            /* the thread's serial */
  gint32  frame;             /* index in its stack, or -1 when not known */
  guint32 object;            /* in the heap's graph */
} StrataFrameRoot;

/* Objects no strong reference path reaches, that some weaker one does. */
typedef struct
{
  guint64 objects;
  guint64 bytes;             /* shallow */
} StrataHeapUnreached;

typedef struct _StrataHeap StrataHeap;
/* A reader of the dump kept for later reads (formats/hprof): the heap
 * holds it and frees it with the function it was given. */
typedef struct _StrataHprofIndex StrataHprofIndex;

StrataHeap            *strata_heap_new              (void);
void                   strata_heap_free             (StrataHeap     *self);
guint                  strata_heap_add_class        (StrataHeap     *self,
                                                     guint32         name);
StrataHeapClass       *strata_heap_peek_class       (StrataHeap     *self,
                                                     guint           index);
guint                  strata_heap_get_n_classes    (const StrataHeap *self);
const StrataHeapClass *strata_heap_get_class        (const StrataHeap *self,
                                                     guint           index);
guint                 *strata_heap_merge_same_names (StrataHeap   *self);
void                   strata_heap_take_graph       (StrataHeap       *self,
                                                     StrataHeapGraph  *graph,
                                                     StrataHprofIndex *index,
                                                     GDestroyNotify    free_index);
StrataHeapGraph       *strata_heap_get_graph        (const StrataHeap *self);
StrataHprofIndex      *strata_heap_get_index        (const StrataHeap *self);
void                   strata_heap_set_weak_referents (StrataHeap   *self,
                                                     gboolean        followed,
                                                     guint64         n_referents);
gboolean               strata_heap_get_weak_followed (const StrataHeap *self);
void                   strata_heap_set_weakly_reached (StrataHeap                *self,
                                                       const StrataHeapUnreached *softly,
                                                       const StrataHeapUnreached *weakly);
const StrataHeapUnreached *strata_heap_get_softly_reached (const StrataHeap *self);
const StrataHeapUnreached *strata_heap_get_weakly_reached (const StrataHeap *self);
guint64                strata_heap_get_unreachable_bytes (const StrataHeap *self);
char                  *strata_heap_describe_unreachable (const StrataHeap *self);
guint64                strata_heap_get_n_weak_referents (const StrataHeap *self);
char                  *strata_heap_describe_weak_referents (const StrataHeap *self);
void                   strata_heap_set_heap_names   (StrataHeap     *self,
                                                     GPtrArray      *names);
guint                  strata_heap_get_n_heaps      (const StrataHeap *self);
const char            *strata_heap_get_heap_name    (const StrataHeap *self,
                                                     guint           heap);
const StrataHeapClassShare *strata_heap_get_class_in_heap (const StrataHeap *self,
                                                     guint           heap,
                                                     guint           klass);
void                   strata_heap_add_frame_root   (StrataHeap     *self,
                                                     const StrataFrameRoot *root);
const StrataFrameRoot *strata_heap_get_frame_roots  (const StrataHeap *self,
                                                     guint32         thread,
                                                     guint          *n_roots);
guint                 *strata_heap_sort_by_bytes    (const StrataHeap *self);
void                   strata_heap_add_site         (StrataHeap     *self,
                                                     const StrataAllocSite *site);
void                   strata_heap_clear_sites      (StrataHeap     *self);
guint                  strata_heap_get_n_sites      (const StrataHeap *self);
const StrataAllocSite *strata_heap_get_site         (const StrataHeap *self,
                                                     guint           index);
void                   strata_heap_add_stack        (StrataHeap     *self,
                                                     guint32         serial,
                                                     const guint32  *frames,
                                                     guint           n_frames);
const guint32         *strata_heap_get_stack        (const StrataHeap *self,
                                                     guint32         serial,
                                                     guint          *n_frames);
void                   strata_heap_add_thread       (StrataHeap     *self,
                                                     const StrataHeapThread *thread);
guint                  strata_heap_get_n_threads    (const StrataHeap *self);
const StrataHeapThread *strata_heap_get_thread      (const StrataHeap *self,
                                                     guint           index);
void                   strata_heap_add_root         (StrataHeap     *self,
                                                     StrataRootKind  kind);
guint64                strata_heap_get_root_count   (const StrataHeap *self,
                                                     StrataRootKind  kind);
void                   strata_heap_get_totals       (const StrataHeap *self,
                                                     guint64        *instances,
                                                     guint64        *bytes);
const char            *strata_root_kind_get_name    (StrataRootKind  kind);
const char            *strata_root_kind_get_id      (StrataRootKind  kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataHeap, strata_heap_free)

G_END_DECLS
