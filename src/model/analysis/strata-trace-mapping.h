/* strata-trace-mapping.h: a trace's names through a deobfuscation mapping
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-mapping.h"
#include "strata-trace.h"

G_BEGIN_DECLS

typedef struct _StrataTraceNames StrataTraceNames;

GHashTable       *strata_trace_collect_class_names (StrataTrace      *trace);
StrataTraceNames *strata_trace_names_new           (StrataTrace      *trace,
                                                    StrataMapping    *mapping);
void              strata_trace_names_free          (StrataTraceNames *self);
void              strata_trace_names_apply         (StrataTraceNames *self,
                                                    StrataTrace      *trace);
guint             strata_trace_names_get_n_methods (StrataTraceNames *self);
guint             strata_trace_names_get_n_classes (StrataTraceNames *self);
const char       *strata_trace_names_get_problems  (StrataTraceNames *self);
const char       *strata_trace_names_get_fit_warning (StrataTraceNames *self);
const char       *strata_trace_names_get_mapping_id (StrataTraceNames *self);
const char       *strata_trace_names_get_mapping_hash (StrataTraceNames *self);
StrataTraceNames *strata_trace_map_names           (StrataTrace      *trace,
                                                    GFile            *mapping,
                                                    GCancellable     *cancellable,
                                                    GError          **error);
void              strata_trace_map_names_async     (StrataTrace      *trace,
                                                    GFile            *mapping,
                                                    GCancellable     *cancellable,
                                                    GAsyncReadyCallback callback,
                                                    gpointer          user_data);
StrataTraceNames *strata_trace_map_names_finish    (GAsyncResult     *result,
                                                    GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataTraceNames, strata_trace_names_free)

G_END_DECLS
