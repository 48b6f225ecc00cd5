/* strata-stack-layout.h: weighted stacks laid out as one thread's calls
 *
 * Sampling profilers report stacks with a weight (samples, or time), not
 * calls with times. Laid end to end, sorted so that stacks sharing
 * callers merge, they become calls the timeline draws as a flame graph
 * and the profile turns into inclusive and exclusive weight with parents
 * and children. Stacks sampled at known times are laid out in time
 * instead, as a profiler's flame chart: consecutive samples that share
 * callers are one call of each.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-trace-private.h"

G_BEGIN_DECLS

typedef struct
{
  guint64        weight;
  const guint32 *frames;     /* method indexes, innermost first */
  guint          n_frames;
} StrataStackRow;

/* A sample: the stack seen at @time, and seen again by the @run_length
 * samples after it until @run_end (the same stack sampled on and on is
 * kept once). */
typedef struct
{
  gint64         time;
  const guint32 *frames;     /* method indexes, innermost first */
  guint          n_frames;   /* 0: nothing ran (idle) */
  gint64         run_end;
  guint          run_length;
} StrataTimedStack;

/* The next sample's stack, its frames valid until the next call;
 * %FALSE past the last. */
typedef gboolean (*StrataTimedStackFunc) (gpointer          data,
                                          StrataTimedStack *stack);

void strata_stack_layout_timed  (StrataTrace            *trace,
                                 guint                   thread,
                                 StrataTimedStackFunc    next_stack,
                                 gpointer                data,
                                 gint64                  end);
void strata_stack_layout_thread (StrataTrace    *trace,
                                 guint           thread,
                                 StrataStackRow *rows,
                                 guint           n_rows,
                                 gint64          ns_per_unit);

G_END_DECLS
