/* strata-stack-layout.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>

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

typedef struct
{
  StrataSpan span;
  guint      depth;
} DoneCall;

static void
close_calls (GArray  *open,
             guint    keep,
             gint64   time,
             GArray  *done,
             GArray  *counts)
{
  while (open->len > keep)
    {
      const OpenCall *call = &g_array_index (open, OpenCall, open->len - 1);
      DoneCall finished = { { call->start, time, call->method, call->first_child }, open->len - 1 };

      g_array_append_val (done, finished);
      g_array_index (counts, guint32, open->len - 1)++;
      g_array_set_size (open, open->len - 1);
    }
}

static void
fill_table (StrataTrace  *trace,
            StrataThread *info,
            const GArray *done,
            const GArray *counts)
{
  StrataSpan *block = strata_trace_alloc_block (trace, done->len * sizeof (StrataSpan));
  g_autofree guint32 *cursor = g_new0 (guint32, counts->len);

  info->spans = strata_span_table_new_in (1, counts->len, (const guint32 *) counts->data, block, NULL);
  for (guint i = 0; i < done->len; i++)
    {
      const DoneCall *call = &g_array_index (done, DoneCall, i);

      info->spans->spans[call->depth][cursor[call->depth]++] = call->span;
    }
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
  g_autoptr(GArray) open = g_array_new (FALSE, FALSE, sizeof (OpenCall));
  g_autoptr(GArray) done = g_array_new (FALSE, FALSE, sizeof (DoneCall));
  g_autoptr(GArray) counts = g_array_new (FALSE, TRUE, sizeof (guint32));
  StrataThread *info = strata_trace_peek_thread (trace, thread);
  gint64 time = 0;

  if (n_rows > 0)
    qsort (rows, n_rows, sizeof (StrataStackRow), compare_rows);
  for (guint r = 0; r < n_rows; r++)
    {
      guint depth = rows[r].n_frames, common = 0;

      while (common < depth && common < open->len &&
             g_array_index (open, OpenCall, common).method == rows[r].frames[depth - 1 - common])
        common++;
      close_calls (open, common, time, done, counts);
      for (guint d = common; d < depth; d++)
        {
          OpenCall call = { time, rows[r].frames[depth - 1 - d], 0 };

          if (d + 1 >= counts->len)
            g_array_set_size (counts, d + 2);
          call.first_child = g_array_index (counts, guint32, d + 1);
          g_array_append_val (open, call);
        }
      /* Weights are bounded so the axis stays within int64. */
      time += (gint64) MIN (rows[r].weight, G_MAXINT32) * ns_per_unit;
    }
  close_calls (open, 0, time, done, counts);
  while (counts->len > 0 && g_array_index (counts, guint32, counts->len - 1) == 0)
    g_array_set_size (counts, counts->len - 1);
  if (done->len == 0)
    return;

  fill_table (trace, info, done, counts);
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
  g_autoptr(GArray) open = g_array_new (FALSE, FALSE, sizeof (OpenCall));
  g_autoptr(GArray) done = g_array_new (FALSE, FALSE, sizeof (DoneCall));
  g_autoptr(GArray) counts = g_array_new (FALSE, TRUE, sizeof (guint32));
  StrataThread *info = strata_trace_peek_thread (trace, thread);
  StrataTimedStack stack;
  gint64 first = end;
  gboolean any = FALSE;

  while (next_stack (data, &stack))
    {
      const StrataTimedStack *sample = &stack;
      guint depth = sample->n_frames, common = 0;

      if (!any)
        first = sample->time;
      any = TRUE;

      while (common < depth && common < open->len &&
             g_array_index (open, OpenCall, common).method == sample->frames[depth - 1 - common])
        common++;
      close_calls (open, common, sample->time, done, counts);
      for (guint d = common; d < depth; d++)
        {
          OpenCall call = { sample->time, sample->frames[depth - 1 - d], 0 };

          if (d + 1 >= counts->len)
            g_array_set_size (counts, d + 2);
          call.first_child = g_array_index (counts, guint32, d + 1);
          g_array_append_val (open, call);
        }
    }
  close_calls (open, 0, end, done, counts);
  while (counts->len > 0 && g_array_index (counts, guint32, counts->len - 1) == 0)
    g_array_set_size (counts, counts->len - 1);
  if (done->len == 0)
    return;

  fill_table (trace, info, done, counts);
  info->first_time[0] = first;
  info->last_time[0] = end;
}
