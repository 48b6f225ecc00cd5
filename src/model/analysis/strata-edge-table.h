/* strata-edge-table.h: a profile's caller → callee edges, built without a hash
 *
 * Every call adds its time to the edge from its caller's method to its
 * own. Interpreters, reflection and callbacks give millions of distinct
 * edges, too many to look up one call at a time in a hash. Instead each
 * worker first counts how many calls each method makes (an upper bound
 * is enough), the table gives every caller a bucket with a part for each
 * worker, the walk appends a record to its part for each call, and the
 * buckets are folded in place into one edge per callee. A small cache of
 * each worker's last records adds a call to the record of its edge made
 * shortly before, so a bucket holds about one record per edge, not per
 * call: the room for a record per call is reserved, and the pages never
 * written take no memory. Nothing is allocated per edge.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-profile.h"

G_BEGIN_DECLS

/* Where one worker writes into one caller's bucket. */
typedef struct
{
  gsize next;
  gsize end;
} StrataEdgeSlot;

/* A record one worker wrote lately, by its caller and callee. */
typedef struct
{
  guint64 key;      /* caller << 32 | callee; G_MAXUINT64 for none */
  gsize   record;
} StrataEdgeCacheEntry;

/* The cache grows with the calls: 256 entries a worker for a few
 * thousand, 16,384 from a million on (each miss writes a record). */
#define STRATA_EDGE_CACHE_MIN_BITS 8
#define STRATA_EDGE_CACHE_MAX_BITS 14

typedef struct
{
  guint              n_callers;   /* methods + 1: the last is the toplevel */
  guint              n_workers;
  guint64           *counts;      /* per worker, per caller: calls made */
  StrataEdgeSlot    *slots;       /* per worker, per caller */
  StrataEdgeCacheEntry *cache;    /* per worker, 1 << cache_bits */
  guint              cache_bits;
  gsize             *offsets;     /* per caller + 1: where its edges start */
  StrataProfileEdge *edges;
  gsize              n_edges;
  gssize             n_dropped;   /* calls beyond a count: a bug if not 0 */
} StrataEdgeTable;

StrataEdgeTable *strata_edge_table_new      (guint             n_methods,
                                             guint             n_workers);
void             strata_edge_table_free     (StrataEdgeTable  *self);
guint64         *strata_edge_table_get_counts (StrataEdgeTable *self,
                                               guint            worker);
gboolean         strata_edge_table_allocate (StrataEdgeTable  *self,
                                             GError          **error);
void             strata_edge_table_fold     (StrataEdgeTable  *self);

/* Caller @caller (toplevel as the last caller) called @callee for @time. */
static inline void
strata_edge_table_add (StrataEdgeTable *self,
                       guint            worker,
                       guint32          caller,
                       guint32          callee,
                       const gint64    *time)
{
  StrataEdgeSlot *slot = &self->slots[(gsize) worker * self->n_callers + caller];
  guint64 key = (guint64) caller << 32 | callee;
  StrataEdgeCacheEntry *cached = &self->cache[((gsize) worker << self->cache_bits) +
                                              ((key * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> (64 - self->cache_bits))];
  StrataProfileEdge *edge;

  if (cached->key == key && self->edges[cached->record].calls < G_MAXUINT32)
    {
      edge = &self->edges[cached->record];
      edge->time[0] += time[0];
      edge->time[1] += time[1];
      edge->calls++;
      return;
    }
  if (G_UNLIKELY (slot->next == slot->end))
    {
      g_atomic_pointer_add (&self->n_dropped, 1);
      return;
    }
  cached->key = key;
  cached->record = slot->next;
  edge = &self->edges[slot->next++];
  edge->time[0] = time[0];
  edge->time[1] = time[1];
  edge->callee = callee;
  edge->calls = 1;
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataEdgeTable, strata_edge_table_free)

G_END_DECLS
