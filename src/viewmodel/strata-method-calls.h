/* strata-method-calls.h: every call of one method, as a list with figures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "strata-trace.h"

G_BEGIN_DECLS

#define STRATA_TYPE_METHOD_CALLS (strata_method_calls_get_type ())

G_DECLARE_FINAL_TYPE (StrataMethodCalls, strata_method_calls, STRATA, METHOD_CALLS, GObject)

typedef struct
{
  gint64  start;
  gint64  duration;
  guint32 thread;
  guint32 depth;
  guint32 index;
} StrataMethodCall;

typedef enum
{
  STRATA_METHOD_CALLS_BY_DURATION,
  STRATA_METHOD_CALLS_BY_START,
  STRATA_METHOD_CALLS_BY_THREAD,
} StrataMethodCallsSort;

/* Over all calls, whatever band is chosen. */
typedef struct
{
  guint64 n;
  gint64  total;
  gint64  min;
  gint64  max;
  gint64  median;
  gint64  p90;
  gint64  p99;
  double  mean;
} StrataMethodCallStats;

StrataMethodCalls      *strata_method_calls_new        (StrataTrace           *trace,
                                                        guint                  clock,
                                                        guint32                method);
StrataTrace            *strata_method_calls_get_trace  (StrataMethodCalls     *self);
guint32                 strata_method_calls_get_method (StrataMethodCalls     *self);
const StrataMethodCall *strata_method_calls_get        (StrataMethodCalls     *self,
                                                        guint                  position);
void                    strata_method_calls_sort       (StrataMethodCalls     *self,
                                                        StrataMethodCallsSort  sort,
                                                        gboolean               descending);
void                    strata_method_calls_set_band   (StrataMethodCalls     *self,
                                                        gint64                 shortest,
                                                        gint64                 longest);
gboolean                strata_method_calls_get_band   (StrataMethodCalls     *self,
                                                        gint64                *shortest,
                                                        gint64                *longest);
void                    strata_method_calls_get_stats  (StrataMethodCalls     *self,
                                                        StrataMethodCallStats *stats);
void                    strata_method_calls_histogram  (StrataMethodCalls     *self,
                                                        gboolean               log_scale,
                                                        guint                  n_bins,
                                                        guint64               *counts,
                                                        gint64                *edges);
GArray                 *strata_method_calls_dup_marks  (StrataMethodCalls     *self);

G_END_DECLS
