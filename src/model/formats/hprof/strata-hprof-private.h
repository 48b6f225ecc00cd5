/* strata-hprof-private.h: the binary HPROF loader's state, shared by its
 * record walk (strata-hprof-binary.c) and its object graph
 * (strata-hprof-graph.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-heap.h"
#include "strata-heap-graph.h"
#include "strata-hprof-index.h"
#include "strata-id-map.h"
#include "strata-loader-private.h"
#include "strata-trace-private.h"
#include "strata-units.h"

G_BEGIN_DECLS

#define MAX_MAGIC 32
#define PROGRESS_BYTES (8u << 20)

/* Where each stage of a heap dump's load ends on the progress bar, from
 * the time each took on a 35 M-object dump (bench/java/OrdersAndItems.java):
 * walking the records, putting the objects in order, following their
 * references, then dominators and retained sizes. */
#define HPROF_PROGRESS_WALKED     0.14
#define HPROF_PROGRESS_SORTED     0.28
#define HPROF_PROGRESS_ORDERED    0.41
#define HPROF_PROGRESS_FOLLOWED   0.54
#define HPROF_PROGRESS_COMPUTED   0.92
#define NS_PER_SAMPLE STRATA_UNITS_NS_PER_SAMPLE   /* a sample drawn as 1 ms */

enum {
  TAG_STRING = 0x01,
  TAG_LOAD_CLASS = 0x02,
  TAG_STACK_FRAME = 0x04,
  TAG_STACK_TRACE = 0x05,
  TAG_ALLOC_SITES = 0x06,
  TAG_HEAP_SUMMARY = 0x07,
  TAG_START_THREAD = 0x0A,
  TAG_CPU_SAMPLES = 0x0D,
  TAG_HEAP_DUMP = 0x0C,
  TAG_HEAP_DUMP_SEGMENT = 0x1C,
};

typedef struct
{
  const guint8 *p;
  const guint8 *end;
  guint         id_size;
  gboolean      ok;
} Cursor;

typedef struct
{
  gsize   offset;
  guint32 len;
} StringRef;

typedef struct
{
  guint   heap_class;
  guint64 name_id;
} ClassName;

typedef struct
{
  guint64 method_name;   /* string ids */
  guint64 source;
  guint32 class_serial;
  gint32  line;
} FrameInfo;

typedef struct
{
  guint32 serial;
  GArray *frame_ids;     /* guint64, innermost first */
} StackInfo;

typedef struct
{
  guint32 serial;
  guint64 name;          /* string id, 0 without */
  guint32 stack;
  guint64 object;        /* the java.lang.Thread, 0 when unknown */
} ThreadInfo;

typedef struct
{
  StrataLoadJob        *job;
  StrataTrace          *trace;
  StrataHeap           *heap;
  const guint8         *data;
  gsize                 len;
  guint                 id_size;
  StrataIdMap           strings;         /* string id -> index in string_refs */
  GArray               *string_refs;     /* StringRef */
  StrataIdMap           classes;         /* class object id -> heap class */
  GArray               *class_names;     /* ClassName, resolved at the end */
  guint                 primitive_class[12];
  StrataCounterBuilder *summary;
  StrataIdMap           class_serials;   /* class serial -> name string id index */
  GArray                *class_serial_names; /* guint64 string ids */
  StrataIdMap           frames;          /* frame id -> index in frame_infos */
  GArray                *frame_infos;    /* FrameInfo */
  GArray                *stacks;         /* StackInfo */
  GArray                *threads;        /* ThreadInfo */
  GArray                *sites;          /* StrataAllocSite with class_name = class serial */
  GArray                *cpu_rows;       /* guint32 pairs: samples, trace serial */
  GHashTable            *methods;        /* "class.method" -> method index + 1 */
  gsize                 last_progress;
  guint64               n_unknown_tags;
  gsize                 first_unknown_at;   /* the byte of the first record of an unknown kind */
  guint64               n_bad_segments;
  guint64               n_records;
  gboolean              truncated;
  gsize                 truncated_at;
  gboolean              cancelled;
  guint                 header_id_size;  /* when the records say otherwise */
  /* The object graph: every object's id and where its record is. */
  GArray               *objects;         /* HprofObject */
  GArray               *root_ids;        /* guint64 */
  GArray               *root_kinds;      /* guint8: StrataRootKind */
  GArray               *frame_roots;     /* FrameRootInfo: what stack frames hold */
  /* Android's HEAP DUMP INFO: the heap each stretch of the file is in. */
  GArray               *heap_ranges;     /* HeapRange, in file order */
  GArray               *heap_ids;        /* guint32: Android's id of heap i */
  GArray               *heap_name_ids;   /* guint64: string id of heap i's name */
  StrataIdMap           class_dumps;     /* class object id -> index in class_dump_offsets */
  GArray               *class_dump_offsets; /* guint64: each CLASS DUMP's tag */
  gboolean              android;         /* JAVA PROFILE 1.0.3: ART's sizes */
  StrataIdMap           class_ids;       /* class object id -> heap class, for instances */
} HprofLoader;

typedef struct
{
  guint64 id;
  guint64 offset;        /* of the sub-record's tag */
} HprofObject;

typedef struct
{
  guint64 offset;        /* from here on, objects are in @heap */
  guint8  heap;
} HeapRange;

typedef struct
{
  guint64 id;
  guint32 thread;        /* serial */
  gint32  frame;         /* in the thread's stack; -1 when unknown */
} FrameRootInfo;

/* ---- Reading big-endian values within bounds ---- */

static inline gboolean
cursor_need (Cursor *c,
             gsize   n)
{
  if (!c->ok || (gsize) (c->end - c->p) < n)
    {
      c->ok = FALSE;
      return FALSE;
    }
  return TRUE;
}

static inline guint64
read_be (Cursor *c,
         guint   n)
{
  guint64 v = 0;

  if (!cursor_need (c, n))
    return 0;
  for (guint i = 0; i < n; i++)
    v = (v << 8) | c->p[i];
  c->p += n;
  return v;
}

static inline guint64
read_id (Cursor *c)
{
  return read_be (c, c->id_size);
}

static inline void
skip (Cursor *c,
      guint64 n)
{
  if (cursor_need (c, n))
    c->p += n;
}


guint             hprof_type_size         (guint         type,
                                           guint         id_size);
void              hprof_skip_class_header (Cursor       *c);
void              hprof_skip_constant_pool (Cursor      *c);
void              hprof_skip_statics      (Cursor       *c);
guint32           hprof_string_text       (HprofLoader  *self,
                                           guint64       id);
void              hprof_note_object       (HprofLoader  *self,
                                           const guint8 *tag,
                                           guint64       id);
GPtrArray        *hprof_heap_names        (HprofLoader  *self);
StrataHeapGraph  *hprof_build_graph       (HprofLoader  *self,
                                           StrataHprofIndex **index,
                                           GError      **error);
StrataHprofIndex *hprof_index_new         (HprofLoader  *self,
                                           StrataHeapGraph *graph,
                                           GBytes       *offsets,
                                           gboolean      offsets_mapped);

/* strata-hprof-resolve.c: the records put together once all are read */
/* Records of unknown kinds: a few are a newer VM's; a run of them is a
 * file that only starts like a heap dump (zeros, another format behind a
 * copied header). Past this many, and a tenth of all records, it is
 * refused rather than "loaded" with millions skipped. */
#define HPROF_UNKNOWN_RECORDS_TOLERATED 256

gboolean hprof_tag_is_known              (guint             tag);
gboolean hprof_unknown_records_refused   (guint64           n_unknown,
                                          guint64           n_records);
void    hprof_set_unknown_records_error  (gsize             at,
                                          guint64           n_unknown,
                                          guint64           n_records,
                                          GError          **error);
void    hprof_resolve_class_names        (HprofLoader      *self);
void    hprof_build_cpu_calls            (HprofLoader      *self);
void    hprof_resolve_stacks_and_threads (HprofLoader      *self);
void    hprof_resolve_threads            (HprofLoader      *self,
                                          StrataHeapGraph  *graph,
                                          StrataHprofIndex *index);
void    hprof_resolve_frame_roots        (HprofLoader      *self,
                                          StrataHeapGraph  *graph);
void    hprof_report                     (HprofLoader      *self);
guint32 hprof_string_by_id               (HprofLoader      *self,
                                          guint64           id);

G_END_DECLS
