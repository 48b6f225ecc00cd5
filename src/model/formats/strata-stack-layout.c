/* strata-stack-layout.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <glib/gi18n.h>

#include "strata-stack-layout.h"

/* Outermost frame first, so rows sharing callers sort together. */
static int
compare_rows (const void *a,
              const void *b)
{
  const StrataStackRow *ra = a, *rb = b;

  for (guint i = 0; i < MIN (ra->n_frames, rb->n_frames); i++)
    {
      guint32 ma = ra->frames[ra->n_frames - 1 - i], mb = rb->frames[rb->n_frames - 1 - i];

      if (ma != mb)
        return ma < mb ? -1 : 1;
    }
  return ra->n_frames < rb->n_frames ? -1 : (ra->n_frames > rb->n_frames);
}

typedef struct
{
  gint64  start;
  guint32 method;
  guint32 first_child;
} OpenCall;

/* Calls go straight into arrays of one depth each, which become the
 * table: a call takes its span's bytes and no more, even while laid out. */
typedef struct
{
  GArray    *open;     /* OpenCall, outermost first */
  GPtrArray *depths;   /* GArray of StrataSpan, per depth */
} Layout;

static void
layout_init (Layout *self)
{
  self->open = g_array_new (FALSE, FALSE, sizeof (OpenCall));
  self->depths = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
}

static void
layout_clear (Layout *self)
{
  g_array_unref (self->open);
  g_ptr_array_unref (self->depths);
}

static GArray *
layout_depth (Layout *self,
              guint   depth)
{
  while (self->depths->len <= depth)
    g_ptr_array_add (self->depths, g_array_new (FALSE, FALSE, sizeof (StrataSpan)));
  return g_ptr_array_index (self->depths, depth);
}

static void
close_calls (Layout *self,
             guint   keep,
             gint64  time)
{
  while (self->open->len > keep)
    {
      guint depth = self->open->len - 1;
      const OpenCall *call = &g_array_index (self->open, OpenCall, depth);
      StrataSpan finished = { call->start, time, call->method, call->first_child };

      g_array_append_val (layout_depth (self, depth), finished);
      g_array_set_size (self->open, depth);
    }
}

/* Opens the calls of @frames (innermost first) from depth @common on. */
static void
open_calls (Layout        *self,
            const guint32 *frames,
            guint          n_frames,
            guint          common,
            gint64         time)
{
  for (guint d = common; d < n_frames; d++)
    {
      OpenCall call = { time, frames[n_frames - 1 - d], layout_depth (self, d + 1)->len };

      g_array_append_val (self->open, call);
    }
}

/* How many of @frames' outermost calls are open already. */
static guint
open_in_common (const Layout  *self,
                const guint32 *frames,
                guint          n_frames)
{
  guint common = 0;

  while (common < n_frames && common < self->open->len &&
         g_array_index (self->open, OpenCall, common).method == frames[n_frames - 1 - common])
    common++;
  return common;
}

/* The arrays, cut to their length, become the thread's table and the
 * trace's memory. Returns FALSE without calls. */
static gboolean
finish_table (Layout       *self,
              StrataTrace  *trace,
              StrataThread *info)
{
  guint n_depths = self->depths->len;
  g_autofree guint32 *counts = NULL;
  g_autofree StrataSpan **spans = NULL;

  while (n_depths > 0 && ((GArray *) g_ptr_array_index (self->depths, n_depths - 1))->len == 0)
    n_depths--;
  if (n_depths == 0)
    return FALSE;
  counts = g_new (guint32, n_depths);
  spans = g_new (StrataSpan *, n_depths);
  for (guint d = 0; d < n_depths; d++)
    {
      GArray *depth = g_ptr_array_steal_index (self->depths, 0);

      counts[d] = depth->len;
      spans[d] = g_realloc (g_array_free (depth, FALSE), MAX (counts[d], 1) * sizeof (StrataSpan));
      strata_trace_adopt_block (trace, spans[d]);
    }
  info->spans = strata_span_table_new_by_depth (1, n_depths, counts, spans, NULL, NULL);
  return TRUE;
}

/* The axis ends far inside int64, so sums and the other clocks stay in
 * range. */
#define MAX_AXIS (G_MAXINT64 / 4)

/* Whether @weight still fits on the axis after @time; one that does not
 * is counted in *@n_left_out: a file's counts are not trusted to be sane,
 * and a stack cut short would be a wrong figure. */
static gboolean
weight_fits (guint64   weight,
             gint64    time,
             gint64    ns_per_unit,
             guint64  *n_left_out)
{
  guint64 room = (guint64) (MAX_AXIS - time) / (guint64) MAX (ns_per_unit, 1);

  if (weight <= room)
    return TRUE;
  (*n_left_out)++;
  return FALSE;
}

/**
 * strata_stack_layout_thread:
 * @rows: (inout): sorted in place
 * @ns_per_unit: how long one unit of weight is drawn
 *
 * Gives @thread its calls. Spans come out in close order, which at each
 * depth is start order, as span tables want.
 */
void
strata_stack_layout_thread (StrataTrace    *trace,
                            guint           thread,
                            StrataStackRow *rows,
                            guint           n_rows,
                            gint64          ns_per_unit)
{
  StrataThread *info = strata_trace_peek_thread (trace, thread);
  Layout layout;
  gint64 time = 0;
  guint64 n_cut = 0;
  gboolean any;

  if (n_rows > 0)
    qsort (rows, n_rows, sizeof (StrataStackRow), compare_rows);
  layout_init (&layout);
  for (guint r = 0; r < n_rows; r++)
    {
      guint common;

      if (!weight_fits (rows[r].weight, time, ns_per_unit, &n_cut))
        continue;
      common = open_in_common (&layout, rows[r].frames, rows[r].n_frames);
      close_calls (&layout, common, time);
      open_calls (&layout, rows[r].frames, rows[r].n_frames, common, time);
      time += (gint64) rows[r].weight * ns_per_unit;
    }
  close_calls (&layout, 0, time);
  any = finish_table (&layout, trace, info);
  layout_clear (&layout);
  strata_trace_add_count_diagnostic (trace, n_cut,
                                     ngettext ("%s stack weighs more than the time axis holds and was left out.",
                                               "%s stacks weigh more than the time axis holds and were left out.",
                                               n_cut));
  if (!any)
    return;
  info->first_time[0] = 0;
  info->last_time[0] = time;
}

/**
 * strata_stack_layout_timed:
 * @next_stack: gives the samples in time order
 * @end: when the last sample ends
 *
 * Gives @thread its calls from stacks sampled at known times: a frame
 * runs from the first sample that has it on its stack, at the same place
 * under the same callers, to the first that does not.
 */
void
strata_stack_layout_timed (StrataTrace            *trace,
                           guint                   thread,
                           StrataTimedStackFunc    next_stack,
                           gpointer                data,
                           gint64                  end)
{
  StrataThread *info = strata_trace_peek_thread (trace, thread);
  StrataTimedStack stack;
  Layout layout;
  gint64 first = end;
  gboolean any = FALSE;

  layout_init (&layout);
  while (next_stack (data, &stack))
    {
      guint common = open_in_common (&layout, stack.frames, stack.n_frames);

      if (!any)
        first = stack.time;
      any = TRUE;
      close_calls (&layout, common, stack.time);
      open_calls (&layout, stack.frames, stack.n_frames, common, stack.time);
    }
  close_calls (&layout, 0, end);
  any = finish_table (&layout, trace, info);
  layout_clear (&layout);
  if (!any)
    return;
  info->first_time[0] = first;
  info->last_time[0] = end;
}
