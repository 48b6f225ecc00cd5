/* strata-event-args.h: an event's args, read from the file when asked for
 *
 * Trace Event args can be megabytes per event and are rarely looked at,
 * so loading keeps only where each event starts in the file's content.
 * These functions go back to the file (inflating it again if it is
 * compressed) and parse that one event with json-glib. Binary formats'
 * loaders keep the args they decode as such a JSON text instead
 * (strata_trace_get_args_text()), read here the same way.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "strata-trace.h"

G_BEGIN_DECLS

/* The source of a call made from samples: it has no event of its own. */
#define STRATA_NO_SOURCE 0

JsonNode *strata_event_args_read_event (StrataTrace   *trace,
                                        guint64        source,
                                        GCancellable  *cancellable,
                                        GError       **error);
JsonNode *strata_event_args_read       (StrataTrace   *trace,
                                        guint64        source,
                                        GCancellable  *cancellable,
                                        GError       **error);
void      strata_event_args_read_async (StrataTrace         *trace,
                                        guint64              source,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data);
JsonNode *strata_event_args_read_finish (GAsyncResult  *result,
                                         GError       **error);
char    **strata_event_args_summarize  (StrataTrace   *trace,
                                        const guint64 *sources,
                                        guint          n_sources,
                                        GCancellable  *cancellable,
                                        GError       **error);

G_END_DECLS
