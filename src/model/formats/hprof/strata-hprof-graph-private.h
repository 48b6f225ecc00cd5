/* strata-hprof-graph-private.h: what the graph build
 * (strata-hprof-graph.c) and its reference pass (strata-hprof-edges.c)
 * share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-hprof-hotspot.h"
#include "strata-hprof-private.h"

G_BEGIN_DECLS

#define NO_LAYOUT G_MAXUINT32

typedef struct
{
  guint32 heap_class;
  guint32 vm_size;       /* an instance's size in the VM */
  guint32 first_ref;     /* reference fields: offsets in ref_offsets */
  guint32 n_refs;
  gboolean soft;         /* a java.lang.ref.SoftReference: its referent lives until memory runs short */
} ClassLayout;

typedef struct
{
  HprofLoader *loader;
  StrataIdMap  layout_ids;    /* class id -> index in layouts */
  GArray      *layouts;       /* ClassLayout */
  GArray      *ref_offsets;   /* guint32: within an instance's field bytes */
  HprofHotspotVm vm;         /* reference and pointer sizes, JDK generation */
  guint        header;        /* an instance's header */
  guint        array_header;  /* before an array's elements */
  gboolean     art_sizes;     /* instances as big as their class dump says */
  guint64      class_class_id;  /* java.lang.Class, whose instances the class objects are */
  gboolean     frozen;        /* every layout made: read on two threads, none added */
  ClassLayout  unknown;       /* frozen: for instances of a class without a class dump */
} GraphBuild;

/* A reference's referent, when referents keep nothing alive. */
typedef struct
{
  guint32  holder;
  guint32  referent;
  gboolean soft;
} Referent;

/* Objects with references to ids the dump does not hold, and how many. */
typedef struct
{
  guint32 object;
  guint32 n;
} Dangling;

typedef struct
{
  GraphBuild      *build;
  StrataHeapGraph *graph;
  guint32         *classes;
  GArray          *targets;   /* guint32 */
  guint32          object;    /* whose record is read */
  GArray          *dangling;  /* Dangling */
  GArray          *referents; /* Referent: the references not followed */
  guint64          n_weak;    /* references with a referent */
} EdgePass;

static inline guint64
align8 (guint64 size)
{
  return (size + 7) & ~G_GUINT64_CONSTANT (7);
}

guint64            hprof_array_size      (const GraphBuild *build,
                                          guint64           length,
                                          guint             element_size);
void               hprof_lay_out_class   (GraphBuild       *build,
                                          guint64           class_id,
                                          ClassLayout      *layout);
const ClassLayout *hprof_layout_for      (GraphBuild       *build,
                                          guint64           class_id);
gboolean           hprof_read_references (EdgePass         *pass,
                                          const guint64    *offsets,
                                          gboolean          offsets_mapped,
                                          guint32           n,
                                          guint32          *first,
                                          GError          **error);

G_END_DECLS
