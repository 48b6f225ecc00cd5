/* strata-trace-private.h: how loaders build a trace before handing it over
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-trace.h"

G_BEGIN_DECLS

StrataStringPool *strata_trace_get_pool          (StrataTrace      *self);
void              strata_trace_set_source        (StrataTrace      *self,
                                                  GFile            *file,
                                                  guint64           file_size);
void              strata_trace_set_format_detail (StrataTrace      *self,
                                                  const char       *detail);
void              strata_trace_set_clocks        (StrataTrace      *self,
                                                  guint             n_clocks,
                                                  const StrataClockKind *kinds);
guint             strata_trace_add_process       (StrataTrace      *self,
                                                  gint64            pid,
                                                  const char       *name);
guint             strata_trace_add_thread        (StrataTrace      *self,
                                                  guint             process,
                                                  gint64            tid,
                                                  const char       *name);
StrataThread     *strata_trace_peek_thread       (StrataTrace      *self,
                                                  guint             index);
StrataMethod     *strata_trace_peek_method       (StrataTrace      *self,
                                                 guint32           index);
StrataProcess    *strata_trace_peek_process      (StrataTrace      *self,
                                                  guint             index);
guint32           strata_trace_add_method        (StrataTrace      *self,
                                                  const StrataMethod *method);
void              strata_trace_add_metadata      (StrataTrace      *self,
                                                  const char       *key,
                                                  const char       *value);
void              strata_trace_add_diagnostic    (StrataTrace      *self,
                                                  const char       *message);
void              strata_trace_add_diagnosticf   (StrataTrace      *self,
                                                  const char       *format,
                                                  ...) G_GNUC_PRINTF (2, 3);
void              strata_trace_take_events       (StrataTrace      *self,
                                                  GArray           *events);
void              strata_trace_take_flows        (StrataTrace      *self,
                                                  GArray           *flows);
void              strata_trace_add_counter       (StrataTrace      *self,
                                                  StrataCounter    *counter);
void              strata_trace_add_source_link   (StrataTrace      *self,
                                                  guint64           from,
                                                  guint64           to);
void              strata_trace_set_args_text     (StrataTrace      *self,
                                                  GBytes           *text);
void              strata_trace_set_heap          (StrataTrace      *self,
                                                  StrataHeap       *heap);
void              strata_trace_set_phase_counts  (StrataTrace      *self,
                                                  const guint64    *counts);
void              strata_trace_add_count_diagnostic (StrataTrace *self,
                                                     guint64      n,
                                                     const char  *message);
void              strata_trace_add_note          (StrataTrace      *self,
                                                  const char       *message);
void              strata_trace_add_count_note    (StrataTrace      *self,
                                                  guint64           n,
                                                  const char       *message);
gpointer          strata_trace_alloc_block       (StrataTrace      *self,
                                                  gsize             size);
void              strata_trace_adopt_block       (StrataTrace      *self,
                                                  gpointer          block);
void              strata_trace_finish            (StrataTrace      *self);

G_END_DECLS
