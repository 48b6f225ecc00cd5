/* test-android-frames.c: the frames an Android app's main thread drew
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dmtrace-writer.h"
#include "strata-android-frames.h"
#include "strata-test-model.h"
#include "strata-test-util.h"

#define DO_FRAME 4
#define INPUT 8
#define MEASURE 12
#define LAYOUT 16
#define DRAW 20
#define OTHER 24

static void
add_methods (DmtraceWriter *writer)
{
  dmtrace_writer_add_method (writer, DO_FRAME, "android.view.Choreographer\tdoFrame\t(JI)V");
  dmtrace_writer_add_method (writer, INPUT, "android.view.ViewRootImpl\tdoConsumeBatchedInput\t(J)Z");
  dmtrace_writer_add_method (writer, MEASURE, "android.view.ViewRootImpl\tperformMeasure\t(II)V");
  dmtrace_writer_add_method (writer, LAYOUT, "android.view.ViewRootImpl\tperformLayout\t(Landroid/view/WindowManager$LayoutParams;II)V");
  dmtrace_writer_add_method (writer, DRAW, "android.view.ViewRootImpl\tperformDraw\t()V");
  dmtrace_writer_add_method (writer, OTHER, "com.example.Work\trun\t()V");
}

static void
call (DmtraceWriter *writer,
      guint          tid,
      guint32        method,
      guint32        start,
      guint32        end)
{
  dmtrace_writer_record (writer, tid, method, DMTRACE_ENTER, start, start);
  dmtrace_writer_record (writer, tid, method, DMTRACE_EXIT, end, end);
}

/* Every 150 ms on "main" a frame 5, 20 or 40 ms long, with input, a
 * measure inside a measure, a layout and a draw; then three short ones
 * @interval µs apart, as the display's refresh paces them. A doFrame on
 * another thread is not the app's. */
static StrataTrace *
write_frames (guint32 interval)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  static const guint32 lengths[] = { 5000, 20000, 40000 };

  dmtrace_writer_add_thread (writer, 1, "main");
  dmtrace_writer_add_thread (writer, 2, "worker");
  add_methods (writer);
  dmtrace_writer_begin_data (writer);
  for (guint f = 0; f < 12; f++)
    {
      guint32 start = f * 150000, length = lengths[f % 3];

      dmtrace_writer_record (writer, 1, DO_FRAME, DMTRACE_ENTER, start, start);
      call (writer, 1, INPUT, start + 100, start + 300);
      dmtrace_writer_record (writer, 1, MEASURE, DMTRACE_ENTER, start + 400, start + 400);
      call (writer, 1, MEASURE, start + 500, start + 900);
      dmtrace_writer_record (writer, 1, MEASURE, DMTRACE_EXIT, start + 1400, start + 1400);
      call (writer, 1, LAYOUT, start + 1500, start + 2000);
      call (writer, 1, DRAW, start + 2000, start + length - 100);
      dmtrace_writer_record (writer, 1, DO_FRAME, DMTRACE_EXIT, start + length, start + length);
      for (guint k = 0; k < 3; k++)
        call (writer, 1, DO_FRAME, start + 50000 + k * interval, start + 50000 + k * interval + 1000);
    }
  call (writer, 2, DO_FRAME, 1000000, 1001000);
  return strata_test_load_bytes (dmtrace_writer_finish (writer, FALSE), "frames.trace");
}

static void
test_frames_found (void)
{
  g_autoptr(StrataTrace) trace = write_frames (16667);
  g_autoptr(GArray) frames = NULL;
  const StrataAndroidFrame *first;
  guint counts[3] = { 0 };
  gint64 budget;

  frames = strata_android_frames_find (trace, &budget);
  g_assert_cmpint (budget, ==, 16666667);
  g_assert_cmpuint (frames->len, ==, 48);
  first = &g_array_index (frames, StrataAndroidFrame, 0);
  g_assert_cmpint (first->start, ==, 0);
  g_assert_cmpint (first->end, ==, 5000000);
  /* The inner measure is part of the outer one. */
  g_assert_true (first->has_phase[STRATA_FRAME_INPUT] && first->has_phase[STRATA_FRAME_MEASURE] &&
                 first->has_phase[STRATA_FRAME_LAYOUT] && first->has_phase[STRATA_FRAME_DRAW]);
  g_assert_false (first->has_phase[STRATA_FRAME_ANIMATION]);
  g_assert_cmpint (first->phase_time[STRATA_FRAME_INPUT], ==, 200000);
  g_assert_cmpint (first->phase_time[STRATA_FRAME_MEASURE], ==, 1000000);
  g_assert_cmpint (first->phase_time[STRATA_FRAME_LAYOUT], ==, 500000);
  g_assert_cmpint (first->phase_time[STRATA_FRAME_DRAW], ==, 2900000);
  g_assert_cmpuint (first->phase[STRATA_FRAME_MEASURE].depth, ==, first->call.depth + 1);
  for (guint i = 0; i < frames->len; i++)
    {
      const StrataAndroidFrame *frame = &g_array_index (frames, StrataAndroidFrame, i);

      g_assert_cmpstr (strata_trace_get_string (trace, strata_trace_get_thread (trace, frame->call.thread)->name), ==, "main");
      counts[strata_android_frame_severity (frame, budget)]++;
      if (i > 0)
        g_assert_cmpint (frame->start, >=, g_array_index (frames, StrataAndroidFrame, i - 1).start);
    }
  /* The short frames and the 5 ms ones fit; 20 ms is over, 40 ms more
   * than twice over. */
  g_assert_cmpuint (counts[0], ==, 40);
  g_assert_cmpuint (counts[1], ==, 4);
  g_assert_cmpuint (counts[2], ==, 4);
}

/* Frames 8.3 ms apart come from a 120 Hz display. */
static void
test_frames_budget_120hz (void)
{
  g_autoptr(StrataTrace) trace = write_frames (8333);
  g_autoptr(GArray) frames = NULL;
  gint64 budget;

  frames = strata_android_frames_find (trace, &budget);
  g_assert_cmpint (budget, ==, 8333333);
  g_assert_cmpuint (strata_android_frame_severity (&g_array_index (frames, StrataAndroidFrame, 0), budget), ==, 0);
}

/* Other traces have none. */
static void
test_frames_none (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "wall", FALSE);
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(GArray) frames = NULL;
  gint64 budget;

  dmtrace_writer_add_thread (writer, 1, "main");
  add_methods (writer);
  dmtrace_writer_begin_data (writer);
  call (writer, 1, OTHER, 0, 1000);
  trace = strata_test_load_bytes (dmtrace_writer_finish (writer, FALSE), "none.trace");
  frames = strata_android_frames_find (trace, &budget);
  g_assert_cmpuint (frames->len, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/android-frames/found", test_frames_found);
  g_test_add_func ("/android-frames/budget-120hz", test_frames_budget_120hz);
  g_test_add_func ("/android-frames/none", test_frames_none);
  return g_test_run ();
}
