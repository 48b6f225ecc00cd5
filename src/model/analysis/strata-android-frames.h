/* strata-android-frames.h: the frames an Android app's main thread drew
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-trace.h"

G_BEGIN_DECLS

/* What a frame spends its time on, as the Choreographer runs it. */
typedef enum
{
  STRATA_FRAME_INPUT,
  STRATA_FRAME_ANIMATION,
  STRATA_FRAME_MEASURE,
  STRATA_FRAME_LAYOUT,
  STRATA_FRAME_DRAW,
  STRATA_FRAME_N_PHASES,
} StrataFramePhase;

/* One Choreographer.doFrame call, and the first call of each phase in it. */
typedef struct
{
  StrataSliceRef call;
  gint64         start;          /* ns, wall clock */
  gint64         end;
  gboolean       has_phase[STRATA_FRAME_N_PHASES];
  StrataSliceRef phase[STRATA_FRAME_N_PHASES];
  gint64         phase_time[STRATA_FRAME_N_PHASES];  /* ns in each, all its calls */
} StrataAndroidFrame;

GArray     *strata_android_frames_find        (StrataTrace *trace,
                                               gint64      *budget);
const char *strata_android_frame_phase_name   (StrataFramePhase phase);
guint       strata_android_frame_severity     (const StrataAndroidFrame *frame,
                                               gint64                    budget);

G_END_DECLS
