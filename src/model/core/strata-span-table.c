/* strata-span-table.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-memory.h"
#include "strata-span-table.h"

/**
 * strata_span_table_new_in:
 * @calls: room for the sum of @n_spans, owned by the caller
 * @second: (nullable): the same for the second clock
 *
 * Lays the depths out one after another in storage the caller provides
 * (sized exactly from counts a loader took first), so one large block can
 * hold the calls of every thread. The table does not free it. The loader
 * writes each depth's calls in order (strata_span_table_write()), then
 * calls strata_span_table_end_writing() before any reader sees the table.
 */
StrataSpanTable *
strata_span_table_new_in (guint             n_clocks,
                          guint             n_depths,
                          const guint32    *n_spans,
                          StrataPackedSpan *calls,
                          StrataClockSpan  *second)
{
  StrataSpanTable *self = g_new0 (StrataSpanTable, 1);

  g_return_val_if_fail (n_clocks == 1 || n_clocks == 2, NULL);
  g_return_val_if_fail ((n_clocks == 2) == (second != NULL), NULL);

  self->n_depths = n_depths;
  self->n_clocks = n_clocks;
  self->n_spans = g_new0 (guint32, MAX (n_depths, 1));
  self->calls = g_new0 (StrataPackedSpan *, MAX (n_depths, 1));
  self->bases = g_new0 (gint64 *, MAX (n_depths, 1));
  self->wide = g_new0 (StrataClockSpan *, MAX (n_depths, 1));
  self->writing_wide = g_new0 (GArray *, MAX (n_depths, 1));
  if (n_clocks == 2)
    self->second = g_new0 (StrataClockSpan *, MAX (n_depths, 1));

  for (guint d = 0; d < n_depths; d++)
    {
      self->n_spans[d] = n_spans[d];
      self->calls[d] = calls;
      self->bases[d] = g_new0 (gint64, (n_spans[d] >> STRATA_SPAN_BLOCK_BITS) + 1);
      self->writing_wide[d] = g_array_new (FALSE, FALSE, sizeof (StrataClockSpan));
      calls += n_spans[d];
      if (second != NULL)
        {
          self->second[d] = second;
          second += n_spans[d];
        }
    }

  return self;
}

/* Depth @d's calls packed where they were written: each packed call
 * lies at or before the one read, which is read first. The pages the
 * depth no longer needs go back. */
static void
pack_depth (StrataSpanTable *self,
            guint            d,
            StrataSpan      *from)
{
  StrataPackedSpan *to = (StrataPackedSpan *) from;
  guint32 n = self->n_spans[d];
  g_autoptr(GArray) wide = g_array_new (FALSE, FALSE, sizeof (StrataClockSpan));
  gsize released = (gsize) n * sizeof (StrataPackedSpan);

  self->bases[d] = g_new (gint64, (n >> STRATA_SPAN_BLOCK_BITS) + 1);
  for (guint32 i = 0; i < n; i++)
    {
      StrataSpan span = from[i];

      if ((i & ((1u << STRATA_SPAN_BLOCK_BITS) - 1)) == 0)
        self->bases[d][i >> STRATA_SPAN_BLOCK_BITS] = span.start;
      to[i] = strata_packed_span_make (&span, self->bases[d][i >> STRATA_SPAN_BLOCK_BITS], wide);
    }
  self->calls[d] = to;
  self->wide[d] = (StrataClockSpan *) g_array_free (g_steal_pointer (&wide), FALSE);
  if (n > 0)
    strata_memory_release_front_by (from, (gsize) n * sizeof (StrataSpan), &released, 1);
}

/**
 * strata_span_table_new_by_depth:
 * @spans: each depth's spans, owned by the caller
 * @second: (nullable): the same for the second clock
 * @sources: (nullable) (transfer full): per depth, the calls that came
 *   from a place in the file; the table frees this array, not the arrays
 *   it points to
 *
 * A table over arrays of one depth each, for loaders that fill depths
 * apart, packed at once where they are (only the first 16 bytes of
 * each 24 stay in use; the pages past them go back). The table does not
 * free them.
 */
StrataSpanTable *
strata_span_table_new_by_depth (guint                n_clocks,
                                guint                n_depths,
                                const guint32       *n_spans,
                                StrataSpan         **spans,
                                StrataClockSpan    **second,
                                StrataSparseSources *sources)
{
  StrataSpanTable *self = g_new0 (StrataSpanTable, 1);

  g_return_val_if_fail (n_clocks == 1 || n_clocks == 2, NULL);
  g_return_val_if_fail ((n_clocks == 2) == (second != NULL), NULL);

  self->n_depths = n_depths;
  self->n_clocks = n_clocks;
  self->n_spans = g_memdup2 (n_spans, MAX (n_depths, 1) * sizeof (guint32));
  self->calls = g_new0 (StrataPackedSpan *, MAX (n_depths, 1));
  self->bases = g_new0 (gint64 *, MAX (n_depths, 1));
  self->wide = g_new0 (StrataClockSpan *, MAX (n_depths, 1));
  if (second != NULL)
    self->second = g_memdup2 (second, MAX (n_depths, 1) * sizeof (StrataClockSpan *));
  self->sparse_sources = sources;
  for (guint d = 0; d < n_depths; d++)
    pack_depth (self, d, spans[d]);
  return self;
}

/**
 * strata_span_table_new_packed:
 * @calls: each depth's calls, packed already; owned by the caller
 * @bases: (transfer full): each depth's block starts, g_malloc()ed
 * @wide: (transfer full): each depth's wide calls, g_malloc()ed
 * @second: (nullable): each depth's calls on the second clock
 * @sources: (nullable) (transfer full): as strata_span_table_new_by_depth()
 *
 * A table over calls a loader packed as it wrote them.
 */
StrataSpanTable *
strata_span_table_new_packed (guint                n_clocks,
                              guint                n_depths,
                              const guint32       *n_spans,
                              StrataPackedSpan   **calls,
                              gint64             **bases,
                              StrataClockSpan    **wide,
                              StrataClockSpan    **second,
                              StrataSparseSources *sources)
{
  StrataSpanTable *self = g_new0 (StrataSpanTable, 1);

  g_return_val_if_fail (n_clocks == 1 || n_clocks == 2, NULL);

  self->n_depths = n_depths;
  self->n_clocks = n_clocks;
  self->n_spans = g_memdup2 (n_spans, MAX (n_depths, 1) * sizeof (guint32));
  self->calls = g_memdup2 (calls, MAX (n_depths, 1) * sizeof (StrataPackedSpan *));
  self->bases = g_memdup2 (bases, MAX (n_depths, 1) * sizeof (gint64 *));
  self->wide = g_memdup2 (wide, MAX (n_depths, 1) * sizeof (StrataClockSpan *));
  if (second != NULL)
    self->second = g_memdup2 (second, MAX (n_depths, 1) * sizeof (StrataClockSpan *));
  self->sparse_sources = sources;
  return self;
}

/**
 * strata_span_table_end_writing:
 *
 * After the last strata_span_table_write(): the table may be read.
 */
void
strata_span_table_end_writing (StrataSpanTable *self)
{
  g_return_if_fail (self->writing_wide != NULL);

  for (guint d = 0; d < self->n_depths; d++)
    self->wide[d] = (StrataClockSpan *) g_array_free (g_steal_pointer (&self->writing_wide[d]), FALSE);
  g_clear_pointer (&self->writing_wide, g_free);
}

/* Whether the table knows where its calls came from in the file. */
gboolean
strata_span_table_has_sources (const StrataSpanTable *self)
{
  return self->sources != NULL || self->sparse_sources != NULL;
}

/**
 * strata_span_table_get_source:
 *
 * Returns: where the call at @depth, @index came from in the file, or 0
 *   for a call that came from no one place (or if none are kept)
 */
guint64
strata_span_table_get_source (const StrataSpanTable *self,
                              guint                  depth,
                              guint32                index)
{
  const StrataSparseSources *sparse;
  guint32 lo = 0, hi;

  if (self->sources != NULL)
    return self->sources[depth][index];
  if (self->sparse_sources == NULL)
    return 0;
  sparse = &self->sparse_sources[depth];
  hi = sparse->n;
  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (sparse->index[mid] < index)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < sparse->n && sparse->index[lo] == index ? sparse->source[lo] : 0;
}

/**
 * strata_span_table_set_sources:
 * @sources: room for one offset per call, laid out like the spans, owned
 *   by the caller
 *
 * Keeps where each call came from in the file, for formats whose details
 * are read again on demand.
 */
void
strata_span_table_set_sources (StrataSpanTable *self,
                               guint64         *sources)
{
  self->sources = g_new0 (guint64 *, MAX (self->n_depths, 1));
  for (guint d = 0; d < self->n_depths; d++)
    {
      self->sources[d] = sources;
      sources += self->n_spans[d];
    }
}

void
strata_span_table_free (StrataSpanTable *self)
{
  if (self == NULL)
    return;

  g_free (self->sources);
  g_free (self->sparse_sources);
  g_free (self->sparse_second);
  if (self->placed_owned != NULL)
    for (guint d = 0; d < self->n_depths; d++)
      g_free (self->placed_owned[d]);
  g_free (self->placed_owned);
  g_free (self->placed);
  for (guint d = 0; d < self->n_depths && self->bases != NULL; d++)
    {
      g_free (self->bases[d]);
      g_free (self->wide[d]);
    }
  g_free (self->bases);
  g_free (self->wide);
  g_free (self->calls);
  for (guint d = 0; d < self->n_depths && self->writing_wide != NULL; d++)
    if (self->writing_wide[d] != NULL)
      g_array_unref (self->writing_wide[d]);
  g_free (self->writing_wide);
  g_free (self->second);
  g_free (self->n_spans);
  g_free (self);
}

guint64
strata_span_table_get_n_spans (const StrataSpanTable *self)
{
  guint64 total = 0;

  for (guint d = 0; d < self->n_depths; d++)
    total += self->n_spans[d];
  return total;
}

/* Binary search over @n records of @stride bytes whose gint64 end sits
 * at @end_offset: the first that ends at @time or later. Spans of both
 * clocks keep their ends in order. */
static inline guint32
first_ending_from (const void *records,
                   gsize       stride,
                   gsize       end_offset,
                   guint32     n,
                   gint64      time)
{
  const guint8 *base = (const guint8 *) records + end_offset;
  guint32 lo = 0, hi = n;

  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;
      gint64 end;

      memcpy (&end, base + (gsize) mid * stride, sizeof end);
      if (end < time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Every call's place at @depth on the second clock, in order, from its
 * callers' (@above, NULL at depth 0): a moment where its caller starts,
 * or after the last call before it that has a place of its own, within
 * its caller. That is where each was put when its thread was laid out:
 * the moments between never move that bound (their depth's ends only
 * grow, and their callers' starts too). */
static void
place_depth (const StrataSpanTable   *self,
             guint                    depth,
             const StrataClockSpan   *above,
             StrataClockSpan         *places)
{
  const StrataSparseClock *clock = strata_span_table_get_sparse (self, depth);
  guint32 n = self->n_spans[depth], caller = 0, own = 0;
  gint64 last_end = G_MININT64;

  for (guint32 i = 0; i < n; i++)
    {
      StrataClockSpan parent;
      gint64 moment;

      if (strata_sparse_clock_has (clock, i))
        {
          places[i] = clock->places[own++];
          last_end = places[i].end;
          continue;
        }
      if (above == NULL)
        moment = MAX (self->second_origin, last_end);
      else
        {
          /* The caller: the last whose children start at or before it. */
          while (caller + 1 < self->n_spans[depth - 1] && self->calls[depth - 1][caller + 1].first_child <= i)
            caller++;
          parent = above[caller];
          moment = CLAMP (MAX (parent.start, last_end), parent.start, parent.end);
        }
      places[i] = (StrataClockSpan) { moment, moment };
    }
}

/* Made whole, then shown: the inline getters read @placed without a
 * lock once it is there. */
static void
make_places (StrataSpanTable *self)
{
  guint n_depths = MAX (self->n_depths, 1);
  StrataClockSpan **placed = g_new0 (StrataClockSpan *, n_depths);

  self->placed_owned = g_new0 (StrataClockSpan *, n_depths);
  for (guint d = 0; d < self->n_depths; d++)
    {
      const StrataSparseClock *clock = strata_span_table_get_sparse (self, d);

      if (self->second[d] != NULL)
        placed[d] = self->second[d];
      else if (clock != NULL && clock->n == self->n_spans[d])
        placed[d] = clock->places;
      else
        {
          placed[d] = self->placed_owned[d] = g_new (StrataClockSpan, MAX (self->n_spans[d], 1));
          place_depth (self, d, d > 0 ? placed[d - 1] : NULL, placed[d]);
        }
    }
  __atomic_store_n (&self->placed, placed, __ATOMIC_RELEASE);
}

static void
ensure_places (const StrataSpanTable *self)
{
  StrataSpanTable *table = (StrataSpanTable *) self;

  if (g_once_init_enter (&table->placed_once))
    {
      make_places (table);
      g_once_init_leave (&table->placed_once, 1);
    }
}

/**
 * strata_span_table_get_place:
 *
 * Where call @index at @depth is on the second clock, for a depth that
 * keeps no array of its own there, before its places are made. The
 * first call below the outermost asked for makes the places of all, in
 * one pass (16 bytes a call): a view on the thread clock asks for
 * thousands at a time, and from then on reads them straight.
 */
StrataClockSpan
strata_span_table_get_place (const StrataSpanTable *self,
                             guint                  depth,
                             guint32                index)
{
  const StrataSparseClock *clock;

  /* Outermost calls need no callers, only the last call before them
   * with a place: a thread's range asks for them alone. */
  if (depth == 0)
    {
      StrataClockSpan place;
      guint32 before;
      gint64 moment = self->second_origin;

      clock = strata_span_table_get_sparse (self, 0);
      if (strata_sparse_clock_lookup (clock, index, &place))
        return place;
      if (clock != NULL && clock->n > 0 && (before = strata_sparse_clock_rank (clock, index)) > 0)
        moment = MAX (moment, clock->places[before - 1].end);
      return (StrataClockSpan) { moment, moment };
    }
  ensure_places (self);
  return strata_span_table_get_placed (self, depth)[index];
}

/**
 * strata_span_table_search:
 *
 * Returns: the index of the first span at @depth that ends after @time
 *   (or at it, for calls of zero length), or the number of spans there
 */
guint32
strata_span_table_search (const StrataSpanTable *self,
                          guint                  depth,
                          gint64                 time)
{
  g_return_val_if_fail (depth < self->n_depths, 0);

  return strata_span_table_search_from (self, depth, 0, time);
}

/**
 * strata_span_table_search_from:
 * @from: where to look from: the answer is there or after
 *
 * As strata_span_table_search(), from call @from on. Calls never
 * overlap, so every call of the blocks before the last block that
 * starts before @time ends before it, and the next block's first call
 * ends after it: the blocks' starts, a small array, find the block, and
 * a search inside it the call. Galloping from @from's block, as a view
 * asks for the next pixel column's call, a few calls on.
 *
 * Returns: the index of the first call at @depth from @from on that
 *   ends at or after @time, or the number of calls there
 */
guint32
strata_span_table_search_from (const StrataSpanTable *self,
                               guint                  depth,
                               guint32                from,
                               gint64                 time)
{
  guint32 n = self->n_spans[depth], n_blocks, block, step = 1, lo, hi;
  const gint64 *bases = self->bases[depth];

  if (from >= n)
    return n;
  n_blocks = ((n - 1) >> STRATA_SPAN_BLOCK_BITS) + 1;
  /* The last block from @from's on that starts before @time. */
  block = from >> STRATA_SPAN_BLOCK_BITS;
  while (block + step < n_blocks && bases[block + step] < time)
    {
      block += step;
      step *= 2;
    }
  for (hi = MIN (block + step, n_blocks); hi - block > 1;)
    {
      guint32 mid = block + (hi - block) / 2;

      if (bases[mid] < time)
        block = mid;
      else
        hi = mid;
    }
  lo = MAX (from, block << STRATA_SPAN_BLOCK_BITS);
  hi = MIN (n, (block + 1) << STRATA_SPAN_BLOCK_BITS);
  /* Inside it, galloping from where the search starts: the lines near
   * it are the ones read last. */
  for (step = 1; lo + step < hi && strata_span_table_end (self, depth, lo + step - 1) < time; step *= 2)
    lo += step;
  hi = MIN (hi, lo + step);
  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (strata_span_table_end (self, depth, mid) < time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * strata_span_table_search_clock:
 *
 * Like strata_span_table_search(), on either clock: calls are ordered the
 * same way on both, since each clock only moves forward within a thread.
 */
guint32
strata_span_table_search_clock (const StrataSpanTable *self,
                                guint                  clock,
                                guint                  depth,
                                gint64                 time)
{
  const StrataClockSpan *places;

  if (clock == 0)
    return strata_span_table_search (self, depth, time);

  g_return_val_if_fail (depth < self->n_depths && self->second != NULL, 0);

  places = self->second[depth] != NULL ? self->second[depth] : strata_span_table_get_placed (self, depth);
  if (places == NULL)
    {
      /* Places found from callers keep their order: a search by them. */
      guint32 lo = 0, hi = self->n_spans[depth];

      while (lo < hi)
        {
          guint32 mid = lo + (hi - lo) / 2;

          if (strata_span_table_get_end (self, 1, depth, mid) < time)
            lo = mid + 1;
          else
            hi = mid;
        }
      return lo;
    }
  return first_ending_from (places, sizeof (StrataClockSpan), G_STRUCT_OFFSET (StrataClockSpan, end),
                            self->n_spans[depth], time);
}

void
strata_span_table_get_children (const StrataSpanTable *self,
                                guint                  depth,
                                guint32                index,
                                guint32               *first,
                                guint32               *last)
{
  g_assert (depth < self->n_depths);
  g_assert (index < self->n_spans[depth]);

  if (depth + 1 >= self->n_depths)
    {
      *first = *last = 0;
      return;
    }

  *first = self->calls[depth][index].first_child;
  *last = index + 1 < self->n_spans[depth]
          ? self->calls[depth][index + 1].first_child
          : self->n_spans[depth + 1];
}

/* Calls that overlap [start, end] at every depth. */
guint64
strata_span_table_count_in (const StrataSpanTable *self,
                            guint                  clock,
                            gint64                 start,
                            gint64                 end)
{
  guint64 n = 0;

  for (guint d = 0; d < self->n_depths; d++)
    {
      guint32 i = strata_span_table_search_clock (self, clock, d, start);

      for (; i < self->n_spans[d] && strata_span_table_get_start (self, clock, d, i) <= end; i++)
        n++;
    }
  return n;
}

/* Appends the start, end pair of every call to @method to @pairs. */
void
strata_span_table_collect_calls_of (const StrataSpanTable *self,
                                    guint                  clock,
                                    guint32                method,
                                    GArray                *pairs)
{
  for (guint d = 0; d < self->n_depths; d++)
    for (guint32 i = 0; i < self->n_spans[d]; i++)
      if (self->calls[d][i].method == method)
        {
          gint64 pair[2] = {
            strata_span_table_get_start (self, clock, d, i),
            strata_span_table_get_end (self, clock, d, i),
          };

          g_array_append_vals (pairs, pair, 2);
        }
}
