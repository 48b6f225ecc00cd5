/* strata-android-frames.c: the frames an Android app's main thread drew
 *
 * An app draws a frame when the Choreographer calls doFrame on its main
 * thread: input, then animations, then the traversal that measures, lays
 * out and draws the views. A frame that takes longer than the display's
 * refresh interval (16.7 ms at 60 Hz, 8.3 ms at 120 Hz) misses it: the
 * question an Android developer opens a method trace to answer. The
 * phases are found by the framework methods that run them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "strata-android-frames.h"

#define NS_PER_MS G_GINT64_CONSTANT (1000000)
/* 60 Hz, and 120 Hz where frames come that often. */
#define BUDGET_60HZ  G_GINT64_CONSTANT (16666667)
#define BUDGET_120HZ G_GINT64_CONSTANT (8333333)

/* "class.method" of each phase's framework entry points, any signature. */
static const struct { StrataFramePhase phase; const char *class_name; const char *name; } phase_methods[] = {
  { STRATA_FRAME_INPUT, "android.view.ViewRootImpl$ConsumeBatchedInputRunnable", "run" },
  { STRATA_FRAME_INPUT, "android.view.ViewRootImpl", "doConsumeBatchedInput" },
  { STRATA_FRAME_ANIMATION, "android.animation.AnimationHandler$1", "doFrame" },
  { STRATA_FRAME_ANIMATION, "android.animation.ValueAnimator$AnimationHandler", "doAnimationFrame" },
  { STRATA_FRAME_ANIMATION, "android.view.ViewRootImpl$InvalidateOnAnimationRunnable", "run" },
  { STRATA_FRAME_MEASURE, "android.view.ViewRootImpl", "performMeasure" },
  { STRATA_FRAME_LAYOUT, "android.view.ViewRootImpl", "performLayout" },
  { STRATA_FRAME_DRAW, "android.view.ViewRootImpl", "performDraw" },
};

#define NO_PHASE 0xff

const char *
strata_android_frame_phase_name (StrataFramePhase phase)
{
  switch (phase)
    {
    case STRATA_FRAME_INPUT:
      return C_("frame phase", "Input");
    case STRATA_FRAME_ANIMATION:
      return C_("frame phase", "Animation");
    case STRATA_FRAME_MEASURE:
      return C_("frame phase", "Measure");
    case STRATA_FRAME_LAYOUT:
      return C_("frame phase", "Layout");
    case STRATA_FRAME_DRAW:
      return C_("frame phase", "Draw");
    case STRATA_FRAME_N_PHASES:
    default:
      return "";
    }
}

static gboolean
method_is (StrataTrace        *trace,
           const StrataMethod *method,
           const char         *class_name,
           const char         *name)
{
  return g_str_equal (strata_trace_get_string (trace, method->class_name), class_name) &&
         g_str_equal (strata_trace_get_string (trace, method->name), name);
}

/* Per method: its phase, NO_PHASE, or G_N_ELEMENTS for doFrame itself. */
static guint8 *
classify_methods (StrataTrace *trace,
                  gboolean    *any_frame)
{
  guint n = strata_trace_get_n_methods (trace);
  guint8 *kind = g_malloc (MAX (n, 1));

  *any_frame = FALSE;
  for (guint32 m = 0; m < n; m++)
    {
      const StrataMethod *method = strata_trace_get_method (trace, m);

      kind[m] = NO_PHASE;
      if (method_is (trace, method, "android.view.Choreographer", "doFrame"))
        {
          kind[m] = STRATA_FRAME_N_PHASES;
          *any_frame = TRUE;
          continue;
        }
      for (guint i = 0; i < G_N_ELEMENTS (phase_methods); i++)
        if (method_is (trace, method, phase_methods[i].class_name, phase_methods[i].name))
          kind[m] = phase_methods[i].phase;
    }
  return kind;
}

/* The phases under @frame's call, a depth at a time: the first call of
 * each, and the time of each phase's outermost calls (a measure inside
 * another measure is part of it). */
static void
find_phases (const StrataSpanTable *table,
             const guint8          *kind,
             StrataAndroidFrame    *frame)
{
  guint32 first = frame->call.index, last = frame->call.index + 1;
  g_autoptr(GArray) held = g_array_new (FALSE, TRUE, sizeof (guint8));   /* phases above each call */
  g_autoptr(GArray) next = g_array_new (FALSE, TRUE, sizeof (guint8));

  g_array_set_size (held, 1);
  for (guint d = frame->call.depth + 1; d < table->n_depths && first < last; d++)
    {
      const StrataPackedSpan *above = table->calls[d - 1];
      guint32 n_above = table->n_spans[d - 1];
      guint32 from = above[first].first_child;
      guint32 to = last < n_above ? above[last].first_child : table->n_spans[d];

      g_array_set_size (next, to - from);
      for (guint32 p = first; p < last; p++)
        {
          guint32 end = p + 1 < n_above ? above[p + 1].first_child : table->n_spans[d];

          for (guint32 i = above[p].first_child; i < end; i++)
            {
              guint8 mask = g_array_index (held, guint8, p - first);
              guint8 phase = kind[table->calls[d][i].method];

              if (phase < STRATA_FRAME_N_PHASES && !(mask & (1u << phase)))
                {
                  if (!frame->has_phase[phase] ||
                      strata_span_table_start (table, d, i) < strata_span_table_start (table, frame->phase[phase].depth, frame->phase[phase].index))
                    frame->phase[phase] = (StrataSliceRef) { frame->call.thread, d, i };
                  frame->has_phase[phase] = TRUE;
                  frame->phase_time[phase] += strata_span_table_duration (table, d, i);
                  mask |= 1u << phase;
                }
              g_array_index (next, guint8, i - from) = mask;
            }
        }
      g_array_set_size (held, 0);
      g_array_append_vals (held, next->data, next->len);
      first = from;
      last = to;
    }
}

static void
add_thread_frames (StrataTrace  *trace,
                   guint         thread,
                   const guint8 *kind,
                   GArray       *frames)
{
  const StrataSpanTable *table = strata_trace_get_thread (trace, thread)->spans;

  for (guint d = 0; table != NULL && d < table->n_depths; d++)
    for (guint32 i = 0; i < table->n_spans[d]; i++)
      {
        const StrataPackedSpan *span = &table->calls[d][i];
        StrataAndroidFrame frame = { { thread, d, i }, strata_span_table_start (table, d, i), strata_span_table_end (table, d, i) };

        if (kind[span->method] != STRATA_FRAME_N_PHASES)
          continue;
        find_phases (table, kind, &frame);
        g_array_append_val (frames, frame);
      }
}

static int
compare_frames (const void *a,
                const void *b)
{
  const StrataAndroidFrame *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

static int
compare_times (const void *a,
               const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* The display's refresh interval: 120 Hz where a tenth of the frames
 * follow each other within 11 ms, as only a faster display lets them. */
static gint64
find_budget (const GArray *frames)
{
  g_autofree gint64 *gaps = NULL;
  guint n = 0;

  if (frames->len < 10)
    return BUDGET_60HZ;
  gaps = g_new (gint64, frames->len);
  for (guint i = 1; i < frames->len; i++)
    gaps[n++] = g_array_index (frames, StrataAndroidFrame, i).start - g_array_index (frames, StrataAndroidFrame, i - 1).start;
  qsort (gaps, n, sizeof (gint64), compare_times);
  return gaps[n / 10] > 0 && gaps[n / 10] <= 11 * NS_PER_MS ? BUDGET_120HZ : BUDGET_60HZ;
}

/**
 * strata_android_frames_find:
 * @budget: (out): the refresh interval the frames had to fit, in ns
 *
 * The Choreographer.doFrame calls of an Android method trace, in time
 * order, on the threads named "main" (every thread where none is).
 *
 * Returns: (transfer full): StrataAndroidFrame, empty for other traces
 */
GArray *
strata_android_frames_find (StrataTrace *trace,
                            gint64      *budget)
{
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (StrataAndroidFrame));
  g_autofree guint8 *kind = NULL;
  gboolean any_frame, any_main = FALSE;

  *budget = BUDGET_60HZ;
  if (strata_trace_get_format (trace) != STRATA_FORMAT_DMTRACE)
    return frames;
  kind = classify_methods (trace, &any_frame);
  if (!any_frame)
    return frames;
  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    any_main |= g_str_equal (strata_trace_get_string (trace, strata_trace_get_thread (trace, t)->name), "main");
  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    if (!any_main || g_str_equal (strata_trace_get_string (trace, strata_trace_get_thread (trace, t)->name), "main"))
      add_thread_frames (trace, t, kind, frames);
  if (frames->len > 1)
    qsort (frames->data, frames->len, sizeof (StrataAndroidFrame), compare_frames);
  *budget = find_budget (frames);
  return frames;
}

/* Returns: 0 within the budget, 1 within twice it, 2 beyond */
guint
strata_android_frame_severity (const StrataAndroidFrame *frame,
                               gint64                    budget)
{
  gint64 length = frame->end - frame->start;

  return length <= budget ? 0 : length <= 2 * budget ? 1 : 2;
}
