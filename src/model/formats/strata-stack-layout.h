/* strata-stack-layout.h: weighted stacks laid out as one thread's calls
 *
 * Sampling profilers report stacks with a weight (samples, or time), not
 * calls with times. Laid end to end, sorted so that stacks sharing
 * callers merge, they become calls the timeline draws as a flame graph
 * and the profile turns into inclusive and exclusive weight with parents
 * and children.
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

void strata_stack_layout_thread (StrataTrace    *trace,
                                 guint           thread,
                                 StrataStackRow *rows,
                                 guint           n_rows,
                                 gint64          ns_per_unit);

G_END_DECLS
