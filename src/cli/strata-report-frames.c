/* strata-report-frames.c: an Android app's frames, for `strata -r`: how
 * many, against which refresh interval, how many were slow, the slowest,
 * and where their time went by phase
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-android-frames.h"
#include "strata-report-private.h"
#include "strata-units.h"

/* What the frames add up to. */
typedef struct
{
  guint                     by_severity[3];
  gint64                    phase_time[STRATA_FRAME_N_PHASES];
  const StrataAndroidFrame *slowest;
} FrameSums;

static void
sum_frames (const GArray *frames,
            gint64        budget,
            FrameSums    *sums)
{
  *sums = (FrameSums) { { 0 }, { 0 }, NULL };
  for (guint i = 0; i < frames->len; i++)
    {
      const StrataAndroidFrame *frame = &g_array_index (frames, StrataAndroidFrame, i);

      sums->by_severity[strata_android_frame_severity (frame, budget)]++;
      for (guint p = 0; p < STRATA_FRAME_N_PHASES; p++)
        sums->phase_time[p] += frame->phase_time[p];
      if (sums->slowest == NULL || frame->end - frame->start > sums->slowest->end - sums->slowest->start)
        sums->slowest = frame;
    }
}

void
strata_report_print_frames (StrataTrace *trace)
{
  gint64 budget;
  g_autoptr(GArray) frames = strata_android_frames_find (trace, &budget);
  g_autofree char *allowed = strata_units_format_duration (budget);
  g_autofree char *slowest = NULL, *at = NULL, *count = NULL;
  FrameSums sums;

  if (frames->len == 0)
    return;
  sum_frames (frames, budget, &sums);
  slowest = strata_units_format_duration (sums.slowest->end - sums.slowest->start);
  at = strata_units_format_duration (sums.slowest->start - strata_trace_get_start (trace));
  /* Translators: Android frames (Choreographer.doFrame calls) on the main thread */
  g_print ("\n%s\n  ", _("Frames"));
  count = strata_units_format_count (frames->len);
  /* Translators: %s are a count and a duration: "321 frames: 12 within the 16.7 ms budget, …" */
  g_print (_("%s frames: %u within the %s budget, %u over it, %u over twice it"), count, sums.by_severity[0], allowed,
           sums.by_severity[1], sums.by_severity[2]);
  g_print ("\n  ");
  /* Translators: the slowest frame's length and when it began: "45.2 ms at 1.23 s" */
  g_print (_("Slowest: %s at %s"), slowest, at);
  g_print ("\n");
  for (guint p = 0; p < STRATA_FRAME_N_PHASES; p++)
    {
      g_autofree char *time = strata_units_format_duration (sums.phase_time[p]);

      g_print ("  %-12s %12s\n", strata_android_frame_phase_name (p), time);
    }
}

void
strata_report_write_json_frames (StrataJsonWriter *json,
                                 StrataTrace      *trace)
{
  static const char *const phase_keys[] = { "input_ns", "animation_ns", "measure_ns", "layout_ns", "draw_ns" };
  gint64 budget;
  g_autoptr(GArray) frames = strata_android_frames_find (trace, &budget);
  FrameSums sums;

  G_STATIC_ASSERT (G_N_ELEMENTS (phase_keys) == STRATA_FRAME_N_PHASES);
  if (frames->len == 0)
    return;
  sum_frames (frames, budget, &sums);
  strata_json_writer_member (json, "android_frames");
  strata_json_writer_begin_object (json);
  strata_json_writer_member (json, "budget_ns");
  strata_json_writer_int (json, budget);
  strata_json_writer_member (json, "frames");
  strata_json_writer_uint (json, frames->len);
  strata_json_writer_member (json, "over_budget");
  strata_json_writer_uint (json, sums.by_severity[1] + sums.by_severity[2]);
  strata_json_writer_member (json, "over_twice_budget");
  strata_json_writer_uint (json, sums.by_severity[2]);
  strata_json_writer_member (json, "slowest_ns");
  strata_json_writer_int (json, sums.slowest->end - sums.slowest->start);
  strata_json_writer_member (json, "slowest_start_ns");
  strata_json_writer_int (json, sums.slowest->start - strata_trace_get_start (trace));
  for (guint p = 0; p < STRATA_FRAME_N_PHASES; p++)
    {
      strata_json_writer_member (json, phase_keys[p]);
      strata_json_writer_int (json, sums.phase_time[p]);
    }
  strata_json_writer_end_object (json);
}
