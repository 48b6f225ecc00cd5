/* strata-span-table.h: one thread's calls, as compact arrays per depth
 *
 * Each depth holds a run of spans sorted by start that never overlap, so
 * the spans visible in a time range are a binary search per depth. A span
 * knows where its children start in the next depth; the next sibling's
 * first child ends the range, which keeps the tree exact even for calls of
 * zero length.
 *
 * A call takes 16 bytes: its start relative to where its block of 32
 * calls starts, and its length, in 32 bits each; the rare call that does
 * not fit (one longer than four seconds, or in a block spanning more)
 * keeps its times whole beside. Loaders write calls as StrataSpan and
 * the table packs them, or write them packed as they go.
 *
 * On the second clock, a depth where few calls have a time of their own
 * (calls made from JavaScript samples, among trace events that carry
 * thread times) keeps only those, and a bit per call saying which: each
 * of the others is a moment where its caller starts, or after the last
 * call before it that has a time there. Loading and profiling need no
 * more; the places of all are made once something asks where such a
 * call is (strata_span_table_get_place()), as a view on that clock does.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A call as a loader writes it. */
typedef struct
{
  gint64  start;        /* ns, on the trace's first clock */
  gint64  end;
  guint32 method;       /* index into the trace's methods */
  guint32 first_child;  /* index of its first child at depth + 1 */
} StrataSpan;

/* A call as a table keeps it, in 16 bytes: its start is where its block
 * of STRATA_SPAN_BLOCK calls at the depth starts plus @offset, its end
 * that plus @length (ns). A call whose offset or length does not fit is
 * wide: @offset is STRATA_SPAN_WIDE and @length its place among the
 * depth's wide calls, which keep both times whole. */
typedef struct
{
  guint32 offset;
  guint32 length;
  guint32 method;       /* index into the trace's methods */
  guint32 first_child;  /* index of its first child at depth + 1 */
} StrataPackedSpan;

#define STRATA_SPAN_BLOCK_BITS 5
#define STRATA_SPAN_WIDE       G_MAXUINT32

/* The same call measured on the trace's second clock. */
typedef struct
{
  gint64 start;
  gint64 end;
} StrataClockSpan;

/* A depth's second clock where few of its calls have a place of their
 * own there; the others are moments. */
typedef struct
{
  guint32          n;       /* calls with a place of their own */
  guint64         *has;     /* a bit per call at the depth: whether it has one */
  guint32         *rank;    /* per 64 calls: how many before them have one */
  StrataClockSpan *places;  /* theirs, in order */
} StrataSparseClock;

/* Where the few calls of a depth that have one came from in the file. */
typedef struct
{
  guint32  n;
  guint32 *index;     /* their indexes at the depth, ascending */
  guint64 *source;
} StrataSparseSources;

typedef struct
{
  guint             n_depths;
  guint             n_clocks;
  guint32          *n_spans;  /* per depth */
  StrataPackedSpan **calls;   /* per depth */
  gint64          **bases;    /* per depth: where each block of calls starts */
  StrataClockSpan **wide;     /* per depth: the times of its wide calls */
  GArray          **writing_wide;  /* per depth, while a loader writes: StrataClockSpan */
  StrataClockSpan **second;   /* per depth; NULL with one clock; a depth's is NULL if sparse: */
  StrataSparseClock *sparse_second;  /* per depth, the places of those that have one (nullable) */
  gint64            second_origin;  /* where moments at depth 0 start */
  /* Every call's place on the second clock, per depth: made the first
   * time a call without one of its own is asked for, as a view on the
   * thread clock asks for many (strata_span_table_get_place()). */
  gsize             placed_once;
  StrataClockSpan **placed;
  StrataClockSpan **placed_owned;  /* those of them the table made */
  guint64         **sources;  /* per depth: where each call is in the file; NULL if not kept */
  StrataSparseSources *sparse_sources;  /* per depth, instead of @sources: only those that have one */
} StrataSpanTable;

StrataSpanTable *strata_span_table_new_in     (guint                  n_clocks,
                                               guint                  n_depths,
                                               const guint32         *n_spans,
                                               StrataPackedSpan      *calls,
                                               StrataClockSpan       *second);
StrataSpanTable *strata_span_table_new_by_depth (guint                n_clocks,
                                                 guint                n_depths,
                                                 const guint32       *n_spans,
                                                 StrataSpan         **spans,
                                                 StrataClockSpan    **second,
                                                 StrataSparseSources *sources);
gboolean         strata_span_table_has_sources (const StrataSpanTable *self);
guint64          strata_span_table_get_source  (const StrataSpanTable *self,
                                                guint                  depth,
                                                guint32                index);
void             strata_span_table_set_sources (StrataSpanTable       *self,
                                                guint64               *sources);
StrataSpanTable *strata_span_table_new_packed (guint                n_clocks,
                                               guint                n_depths,
                                               const guint32       *n_spans,
                                               StrataPackedSpan   **calls,
                                               gint64             **bases,
                                               StrataClockSpan    **wide,
                                               StrataClockSpan    **second,
                                               StrataSparseSources *sources);
void             strata_span_table_end_writing (StrataSpanTable      *self);
void             strata_span_table_free       (StrataSpanTable       *self);
guint64          strata_span_table_get_n_spans (const StrataSpanTable *self);
guint32          strata_span_table_search     (const StrataSpanTable *self,
                                               guint                  depth,
                                               gint64                 time);
guint32          strata_span_table_search_from (const StrataSpanTable *self,
                                                guint                  depth,
                                                guint32                from,
                                                gint64                 time);
guint32          strata_span_table_search_clock (const StrataSpanTable *self,
                                                 guint                  clock,
                                                 guint                  depth,
                                                 gint64                 time);
void             strata_span_table_get_children (const StrataSpanTable *self,
                                                 guint                  depth,
                                                 guint32                index,
                                                 guint32               *first,
                                                 guint32               *last);
guint64          strata_span_table_count_in   (const StrataSpanTable *self,
                                               guint                  clock,
                                               gint64                 start,
                                               gint64                 end);
void             strata_span_table_collect_calls_of (const StrataSpanTable *self,
                                                     guint                  clock,
                                                     guint32                method,
                                                     GArray                *pairs);

StrataClockSpan  strata_span_table_get_place  (const StrataSpanTable *self,
                                               guint                  depth,
                                               guint32                index);

/* A depth's places on the second clock where it keeps no array there,
 * or %NULL (a table without: all moments). */
static inline const StrataSparseClock *
strata_span_table_get_sparse (const StrataSpanTable *self,
                              guint                  depth)
{
  return self->sparse_second != NULL ? &self->sparse_second[depth] : NULL;
}

/* Whether call @index at the depth has a place of its own. */
static inline gboolean
strata_sparse_clock_has (const StrataSparseClock *clock,
                         guint32                  index)
{
  return clock != NULL && clock->n > 0 && (clock->has[index >> 6] & (G_GUINT64_CONSTANT (1) << (index & 63))) != 0;
}

/* How many calls before @index at the depth have a place of their own. */
static inline guint32
strata_sparse_clock_rank (const StrataSparseClock *clock,
                          guint32                  index)
{
  guint64 below = (G_GUINT64_CONSTANT (1) << (index & 63)) - 1;

  return clock->rank[index >> 6] + (guint32) __builtin_popcountll (clock->has[index >> 6] & below);
}

/* Whether call @index has a place of its own, and where. */
static inline gboolean
strata_sparse_clock_lookup (const StrataSparseClock *clock,
                            guint32                  index,
                            StrataClockSpan         *place)
{
  if (!strata_sparse_clock_has (clock, index))
    return FALSE;
  *place = clock->places[strata_sparse_clock_rank (clock, index)];
  return TRUE;
}

/* A call's length on the second clock where its depth keeps no array
 * (@clock is the depth's sparse one, nullable): moments have none. */
static inline gint64
strata_sparse_clock_duration (const StrataSparseClock *clock,
                              guint32                  index)
{
  StrataClockSpan place;

  return strata_sparse_clock_lookup (clock, index, &place) ? place.end - place.start : 0;
}

/* Where the places of all calls on the second clock are, once made. */
static inline const StrataClockSpan *
strata_span_table_get_placed (const StrataSpanTable *self,
                              guint                  depth)
{
  StrataClockSpan **placed = __atomic_load_n (&self->placed, __ATOMIC_ACQUIRE);

  return placed != NULL ? placed[depth] : NULL;
}

/* @span packed, in a block starting at @base; a wide call's times
 * added to @wide (StrataClockSpan). */
static inline StrataPackedSpan
strata_packed_span_make (const StrataSpan *span,
                         gint64            base,
                         GArray           *wide)
{
  StrataPackedSpan packed = { 0, 0, span->method, span->first_child };
  StrataClockSpan times = { span->start, span->end };

  /* Compared as unsigned, a start before the block's is too far. */
  if ((guint64) span->start - (guint64) base < STRATA_SPAN_WIDE && span->end >= span->start &&
      (guint64) span->end - (guint64) span->start <= G_MAXUINT32)
    {
      packed.offset = (guint32) (span->start - base);
      packed.length = (guint32) (span->end - span->start);
      return packed;
    }
  /* A depth has fewer than 2^32 calls, so fewer wide ones. */
  packed.offset = STRATA_SPAN_WIDE;
  packed.length = wide->len;
  g_array_append_val (wide, times);
  return packed;
}

/* Writes call @index at @depth of a table made by
 * strata_span_table_new_in(): each depth's calls in order. */
static inline void
strata_span_table_write (StrataSpanTable  *self,
                         guint             depth,
                         guint32           index,
                         const StrataSpan *span)
{
  if ((index & ((1u << STRATA_SPAN_BLOCK_BITS) - 1)) == 0)
    self->bases[depth][index >> STRATA_SPAN_BLOCK_BITS] = span->start;
  self->calls[depth][index] = strata_packed_span_make (span, self->bases[depth][index >> STRATA_SPAN_BLOCK_BITS],
                                                       self->writing_wide[depth]);
}

/* @call's times, from where its block starts (@base) or, for a wide
 * one, its depth's wide calls (@wide). */
static inline StrataClockSpan
strata_packed_span_times (const StrataPackedSpan *call,
                          gint64                  base,
                          const StrataClockSpan  *wide)
{
  if (G_LIKELY (call->offset != STRATA_SPAN_WIDE))
    return (StrataClockSpan) { base + call->offset, base + call->offset + call->length };
  return wide[call->length];
}

/* Where call @index at @depth starts on the first clock. */
static inline gint64
strata_span_table_start (const StrataSpanTable *self,
                         guint                  depth,
                         guint32                index)
{
  return strata_packed_span_times (&self->calls[depth][index], self->bases[depth][index >> STRATA_SPAN_BLOCK_BITS],
                                   self->wide[depth]).start;
}

/* Where call @index at @depth ends on the first clock. */
static inline gint64
strata_span_table_end (const StrataSpanTable *self,
                       guint                  depth,
                       guint32                index)
{
  return strata_packed_span_times (&self->calls[depth][index], self->bases[depth][index >> STRATA_SPAN_BLOCK_BITS],
                                   self->wide[depth]).end;
}

/* How long call @index at @depth lasts on the first clock. */
static inline gint64
strata_span_table_duration (const StrataSpanTable *self,
                            guint                  depth,
                            guint32                index)
{
  const StrataPackedSpan *call = &self->calls[depth][index];

  if (G_LIKELY (call->offset != STRATA_SPAN_WIDE))
    return call->length;
  return self->wide[depth][call->length].end - self->wide[depth][call->length].start;
}

/* Inline: the renderer asks for these once per call it draws. */
static inline gint64
strata_span_table_get_start (const StrataSpanTable *self,
                             guint                  clock,
                             guint                  depth,
                             guint32                index)
{
  const StrataClockSpan *placed;

  if (clock == 0)
    return strata_span_table_start (self, depth, index);
  if (G_LIKELY (self->second[depth] != NULL))
    return self->second[depth][index].start;
  if ((placed = strata_span_table_get_placed (self, depth)) != NULL)
    return placed[index].start;
  return strata_span_table_get_place (self, depth, index).start;
}

static inline gint64
strata_span_table_get_end (const StrataSpanTable *self,
                           guint                  clock,
                           guint                  depth,
                           guint32                index)
{
  const StrataClockSpan *placed;

  if (clock == 0)
    return strata_span_table_end (self, depth, index);
  if (G_LIKELY (self->second[depth] != NULL))
    return self->second[depth][index].end;
  if ((placed = strata_span_table_get_placed (self, depth)) != NULL)
    return placed[index].end;
  return strata_span_table_get_place (self, depth, index).end;
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataSpanTable, strata_span_table_free)

G_END_DECLS
