/* strata-span-table.h: one thread's calls, as compact arrays per depth
 *
 * Each depth holds a run of spans sorted by start that never overlap, so
 * the spans visible in a time range are a binary search per depth. A span
 * knows where its children start in the next depth; the next sibling's
 * first child ends the range, which keeps the tree exact even for calls of
 * zero length.
 *
 * On the second clock, a depth none of whose calls has a time of its own
 * there (calls made from JavaScript samples, under trace events that
 * carry thread times) keeps no array: each of its calls is a moment at
 * the start of its caller, and the depth takes no memory for that clock.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gint64  start;        /* ns, on the trace's first clock */
  gint64  end;
  guint32 method;       /* index into the trace's methods */
  guint32 first_child;  /* index of its first child at depth + 1 */
} StrataSpan;

/* The same call measured on the trace's second clock. */
typedef struct
{
  gint64 start;
  gint64 end;
} StrataClockSpan;

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
  StrataSpan      **spans;    /* per depth */
  StrataClockSpan **second;   /* per depth; NULL with one clock; a depth's is NULL for moments */
  gint64            second_origin;  /* where moments at depth 0 are */
  guint64         **sources;  /* per depth: where each call is in the file; NULL if not kept */
  StrataSparseSources *sparse_sources;  /* per depth, instead of @sources: only those that have one */
} StrataSpanTable;

StrataSpanTable *strata_span_table_new_in     (guint                  n_clocks,
                                               guint                  n_depths,
                                               const guint32         *n_spans,
                                               StrataSpan            *spans,
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
void             strata_span_table_free       (StrataSpanTable       *self);
guint64          strata_span_table_get_n_spans (const StrataSpanTable *self);
guint32          strata_span_table_search     (const StrataSpanTable *self,
                                               guint                  depth,
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

gint64           strata_span_moment           (StrataSpan * const      *spans,
                                               const guint32           *n_spans,
                                               StrataClockSpan * const *second,
                                               gint64                   origin,
                                               guint                    depth,
                                               guint32                  index);

/* Inline: the renderer asks for these once per call it draws. */
static inline gint64
strata_span_table_get_start (const StrataSpanTable *self,
                             guint                  clock,
                             guint                  depth,
                             guint32                index)
{
  if (clock == 0)
    return self->spans[depth][index].start;
  if (G_LIKELY (self->second[depth] != NULL))
    return self->second[depth][index].start;
  return strata_span_moment (self->spans, self->n_spans, self->second, self->second_origin, depth, index);
}

static inline gint64
strata_span_table_get_end (const StrataSpanTable *self,
                           guint                  clock,
                           guint                  depth,
                           guint32                index)
{
  if (clock == 0)
    return self->spans[depth][index].end;
  if (G_LIKELY (self->second[depth] != NULL))
    return self->second[depth][index].end;
  return strata_span_moment (self->spans, self->n_spans, self->second, self->second_origin, depth, index);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataSpanTable, strata_span_table_free)

G_END_DECLS
