/* dmtrace-writer.h: writes dmtrace files for tests and the benchmark
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdio.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct _DmtraceWriter DmtraceWriter;

enum {
  DMTRACE_ENTER,
  DMTRACE_EXIT,
  DMTRACE_UNROLL,
};

DmtraceWriter *dmtrace_writer_new              (guint          version,
                                                const char    *clock,
                                                gboolean       streaming);
DmtraceWriter *dmtrace_writer_new_to_file      (guint          version,
                                                const char    *clock,
                                                gboolean       streaming,
                                                FILE          *file);
void           dmtrace_writer_set_record_size  (DmtraceWriter *self,
                                                guint          record_size);
void           dmtrace_writer_set_header_version (DmtraceWriter *self,
                                                  guint          version);
void           dmtrace_writer_set_split        (DmtraceWriter *self,
                                                gboolean       split);
void           dmtrace_writer_add_option       (DmtraceWriter *self,
                                                const char    *line);
void           dmtrace_writer_add_thread       (DmtraceWriter *self,
                                                guint          tid,
                                                const char    *name);
void           dmtrace_writer_add_method       (DmtraceWriter *self,
                                                guint32        id,
                                                const char    *fields);
void           dmtrace_writer_add_key_line     (DmtraceWriter *self,
                                                const char    *raw_line);
void           dmtrace_writer_begin_data       (DmtraceWriter *self);
void           dmtrace_writer_record           (DmtraceWriter *self,
                                                guint          tid,
                                                guint32        method,
                                                guint          action,
                                                guint32        time_a,
                                                guint32        time_b);
GBytes        *dmtrace_writer_get_key          (DmtraceWriter *self);
GBytes        *dmtrace_writer_finish           (DmtraceWriter *self,
                                                gboolean       summary);
void           dmtrace_writer_free             (DmtraceWriter *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DmtraceWriter, dmtrace_writer_free)

G_END_DECLS
