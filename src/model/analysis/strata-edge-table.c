/* strata-edge-table.c: a profile's caller → callee edges, built without a hash
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-edge-table.h"
#include "strata-error.h"
#include "strata-memory.h"

StrataEdgeTable *
strata_edge_table_new (guint n_methods,
                       guint n_workers)
{
  StrataEdgeTable *self = g_new0 (StrataEdgeTable, 1);

  self->n_callers = n_methods + 1;
  self->n_workers = MAX (n_workers, 1);
  self->counts = g_new0 (guint64, (gsize) self->n_workers * self->n_callers);
  self->offsets = g_new0 (gsize, self->n_callers + 1);
  return self;
}

void
strata_edge_table_free (StrataEdgeTable *self)
{
  g_free (self->counts);
  g_free (self->slots);
  g_free (self->cache);
  g_free (self->offsets);
  g_free (self->edges);
  g_free (self);
}

/**
 * strata_edge_table_get_counts:
 *
 * Returns: (transfer none): @worker's count of calls per caller, to be
 *   filled before strata_edge_table_allocate(); the toplevel is the last
 */
guint64 *
strata_edge_table_get_counts (StrataEdgeTable *self,
                              guint            worker)
{
  g_return_val_if_fail (worker < self->n_workers, NULL);

  return self->counts + (gsize) worker * self->n_callers;
}

/**
 * strata_edge_table_allocate:
 *
 * Gives every caller its bucket, a part per worker, from the counts.
 *
 * Returns: %FALSE when there is not memory for a record per call
 */
gboolean
strata_edge_table_allocate (StrataEdgeTable  *self,
                            GError          **error)
{
  gsize total = 0, n_cached;

  self->slots = g_new (StrataEdgeSlot, (gsize) self->n_workers * self->n_callers);
  for (guint c = 0; c < self->n_callers; c++)
    {
      self->offsets[c] = total;
      for (guint w = 0; w < self->n_workers; w++)
        {
          StrataEdgeSlot *slot = &self->slots[(gsize) w * self->n_callers + c];

          slot->next = total;
          total += self->counts[(gsize) w * self->n_callers + c];
          slot->end = total;
        }
    }
  self->offsets[self->n_callers] = total;
  /* Sized by the calls: a small trace's profile sets no large cache up. */
  self->cache_bits = CLAMP (g_bit_storage (total / 64), STRATA_EDGE_CACHE_MIN_BITS, STRATA_EDGE_CACHE_MAX_BITS);
  n_cached = (gsize) self->n_workers << self->cache_bits;
  self->cache = g_new (StrataEdgeCacheEntry, n_cached);
  for (gsize i = 0; i < n_cached; i++)
    self->cache[i].key = G_MAXUINT64;

  if (total > G_MAXSIZE / sizeof (StrataProfileEdge) ||
      (self->edges = strata_memory_try_alloc_sparse (total * sizeof (StrataProfileEdge))) == NULL)
    {
      g_autofree char *size = g_format_size ((guint64) total * sizeof (StrataProfileEdge));

      /* Translators: %s is a size such as “3.2 GB” */
      g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_TOO_LARGE,
                   _("Not enough memory for the call edges of the profile (%s)"), size);
      return FALSE;
    }
  return TRUE;
}

/* Folds caller @c's records, read from each worker's part of its bucket,
 * into one edge per callee written from @out on; returns the new end.
 * @out never passes what is read, so the fold works in place. */
static gsize
fold_bucket (StrataEdgeTable *self,
             guint            c,
             gsize            out,
             gsize           *edge_of,
             guint32         *stamp)
{
  StrataProfileEdge *edges = self->edges;

  for (guint w = 0; w < self->n_workers; w++)
    {
      const StrataEdgeSlot *slot = &self->slots[(gsize) w * self->n_callers + c];
      gsize begin = slot->end - self->counts[(gsize) w * self->n_callers + c];

      for (gsize r = begin; r < slot->next; r++)
        {
          guint32 callee = edges[r].callee;

          if (stamp[callee] == c + 1)
            {
              StrataProfileEdge *edge = &edges[edge_of[callee]];

              edge->time[0] += edges[r].time[0];
              edge->time[1] += edges[r].time[1];
              edge->calls += edges[r].calls;
            }
          else
            {
              stamp[callee] = c + 1;
              edge_of[callee] = out;
              edges[out++] = edges[r];
            }
        }
    }
  return out;
}

/**
 * strata_edge_table_fold:
 *
 * After the walk: one edge per caller and callee, grouped by caller
 * (offsets), in the order first called; the records' memory is given back.
 */
void
strata_edge_table_fold (StrataEdgeTable *self)
{
  guint n_methods = self->n_callers - 1;
  g_autofree gsize *edge_of = g_new (gsize, MAX (n_methods, 1));
  g_autofree guint32 *stamp = g_new0 (guint32, MAX (n_methods, 1));
  gsize out = 0;

  for (guint c = 0; c < self->n_callers; c++)
    {
      self->offsets[c] = out;
      out = fold_bucket (self, c, out, edge_of, stamp);
    }
  self->offsets[self->n_callers] = out;
  self->n_edges = out;
  self->edges = g_realloc (self->edges, MAX (out, 1) * sizeof (StrataProfileEdge));
  g_clear_pointer (&self->slots, g_free);
  g_clear_pointer (&self->cache, g_free);
  g_clear_pointer (&self->counts, g_free);
}
