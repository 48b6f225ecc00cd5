/* strata-heap-graph-private.h: the heap graph's arrays
 *
 * Shared by strata-heap-graph.c (building and reading the graph) and
 * strata-heap-graph-compute.c (referrers, dominators, retained sizes and
 * the shortest paths from the roots).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-heap-graph.h"

G_BEGIN_DECLS

#define STRATA_HEAP_GRAPH_NONE G_MAXUINT32
#define STRATA_HEAP_GRAPH_CANCEL_INTERVAL 65536

struct _StrataHeapGraph
{
  guint32  n;
  /* Ids, sorted: as id_base + (ids32[i] << id_shift) when they fit (a
   * HotSpot heap under 32 GB: 8-aligned addresses), else ids64. */
  guint32 *ids32;
  guint64 *ids64;
  guint64  id_base;
  guint    id_shift;
  /* Instead of ids32 when the ids are dense enough (a compacted heap): a
   * bit per possible id and the count of bits before each 512, so a lookup
   * is a couple of reads instead of a binary search, in 2 bytes an object
   * at most. */
  guint64 *id_bits;
  guint32 *id_rank;
  guint64  n_id_bits;
  guint32 *classes;
  /* classes and shallow go to scratch files for the dominator computation,
   * the peak of memory, which does not read them. */
  gboolean classes_mapped;
  gboolean shallow_mapped;
  guint8  *heaps;        /* Android: each object's heap (app, zygote…); NULL for one heap */
  guint32 *shallow;      /* G_MAXUINT32: in big_shallow (arrays over 4 GB) */
  GHashTable *big_shallow;

  guint32 *first;        /* n + 1: references of i at targets[first[i]..first[i+1]] */
  guint32 *targets;
  /* Made when first asked for (they cost 8 bytes an object, and a report
   * may never ask), under @lazy_lock: */
  GMutex   lazy_lock;
  guint32 *rev_first;    /* the references reversed: referrers */
  guint32 *rev_sources;

  guint32 *roots;        /* unique, sorted */
  guint8  *root_kinds;
  guint32  n_roots;

  guint32 *idom;         /* STRATA_HEAP_GRAPH_NONE: dominated by the virtual root, or unreachable */
  guint32 *dom_first;    /* n + 2: dominated objects, the virtual root's last */
  guint32 *dom_children; /* each run sorted by retained size, largest first */
  /* Retained sizes in 5 bytes: low 32 bits, then the next 8 (up to 1 TiB). */
  guint32 *retained_lo;
  guint8  *retained_hi;
  guint32 *bfs_parent;   /* the referrer one step nearer a root; STRATA_HEAP_GRAPH_NONE for roots; lazy */
  guint64 *reached;      /* a bit per object */
  guint64  reachable_bytes;
  guint32  n_unreachable;
};

static inline guint64
strata_heap_graph_retained_of (const StrataHeapGraph *self,
             guint32                v)
{
  return ((guint64) self->retained_hi[v] << 32) | self->retained_lo[v];
}

static inline void
strata_heap_graph_set_retained (StrataHeapGraph *self,
              guint32          v,
              guint64          bytes)
{
  bytes = MIN (bytes, (G_GUINT64_CONSTANT (1) << 40) - 1);
  self->retained_lo[v] = (guint32) bytes;
  self->retained_hi[v] = (guint8) (bytes >> 32);
}

static inline gboolean
strata_heap_graph_is_reached (const StrataHeapGraph *self,
            guint32                v)
{
  return self->reached != NULL && (self->reached[v / 64] >> (v % 64) & 1) != 0;
}

void strata_heap_graph_build_referrers       (StrataHeapGraph *self);
int  strata_heap_graph_compare_by_retained   (gconstpointer    a,
                                              gconstpointer    b,
                                              gpointer         graph);
void strata_heap_graph_search_breadth_first  (StrataHeapGraph *self);
int  strata_heap_graph_compare_u32           (const void      *a,
                                              const void      *b);

G_END_DECLS
