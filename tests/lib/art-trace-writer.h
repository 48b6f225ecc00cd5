/* art-trace-writer.h: method traces in ART's format V2, as ART writes them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _ArtTraceWriter ArtTraceWriter;

void            art_put_le              (GByteArray     *out,
                                         guint64         value,
                                         guint           n_bytes);
void            art_put_sleb            (GByteArray     *out,
                                         gint64          value);

ArtTraceWriter *art_trace_writer_new    (const char     *clock,
                                         gboolean        streaming,
                                         guint64         start_ns);
void            art_trace_writer_thread (ArtTraceWriter *self,
                                         guint32         tid,
                                         const char     *name);
void            art_trace_writer_method (ArtTraceWriter *self,
                                         guint64         method,
                                         const char     *klass,
                                         const char     *name,
                                         const char     *signature,
                                         const char     *source);
void            art_trace_writer_event  (ArtTraceWriter *self,
                                         guint32         tid,
                                         guint64         method,
                                         guint           action,
                                         guint64         wall_ns,
                                         guint64         cpu_ns);
void            art_trace_writer_flush  (ArtTraceWriter *self,
                                         guint32         tid);
GBytes         *art_trace_writer_finish (ArtTraceWriter *self);
void            art_trace_writer_free   (ArtTraceWriter *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ArtTraceWriter, art_trace_writer_free)

/* ART's long-running method trace (TraceProfiler), for one thread's
 * events at a time: @times in ns, @methods 0 for exits. */
void            art_lrm_write_block     (GByteArray     *out,
                                         guint32         tid,
                                         const guint64  *times,
                                         const guint64  *methods,
                                         guint           n_events);
void            art_lrm_write_method    (GByteArray     *out,
                                         guint64         method,
                                         const char     *klass,
                                         const char     *name,
                                         const char     *signature,
                                         const char     *source);

G_END_DECLS
