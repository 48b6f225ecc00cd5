/* strata-trace.h: a loaded trace, immutable once its loader hands it over
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "strata-format.h"

G_BEGIN_DECLS

#define STRATA_TYPE_TRACE (strata_trace_get_type ())

G_DECLARE_FINAL_TYPE (StrataTrace, strata_trace, STRATA, TRACE, GObject)

StrataTrace  *strata_trace_new                 (StrataFormat  format);
StrataFormat  strata_trace_get_format          (StrataTrace  *self);
GFile        *strata_trace_get_file            (StrataTrace  *self);
guint64       strata_trace_get_file_size       (StrataTrace  *self);
void          strata_trace_set_source          (StrataTrace  *self,
                                                GFile        *file,
                                                guint64       file_size);
guint         strata_trace_get_n_diagnostics   (StrataTrace  *self);
const char   *strata_trace_get_diagnostic      (StrataTrace  *self,
                                                guint         index);
void          strata_trace_add_diagnostic      (StrataTrace  *self,
                                                const char   *message);
void          strata_trace_add_diagnosticf     (StrataTrace  *self,
                                                const char   *format,
                                                ...) G_GNUC_PRINTF (2, 3);

G_END_DECLS
