/* strata-loader-private.h: what a format loader gets from StrataLoader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-loader.h"

G_BEGIN_DECLS

typedef struct
{
  StrataLoader *loader;
  GCancellable *cancellable;
  GFile        *file;
  /* The whole content, decompressed; usually a mapped file. */
  GBytes       *bytes;
  /* TRUE when @bytes maps the file itself, so pages already read can be
   * handed back to the kernel (they are read again from the file). */
  gboolean      bytes_are_mapped;
  StrataFormat  format;
  /* Formats that stream their content get it still compressed. */
  StrataCompression compression;
  /* The share of the progress bar the format loader reports into. */
  double        progress_base;
  double        progress_span;
  /* Repairs made before the format loader ran (e.g. a cut gzip stream). */
  GPtrArray    *diagnostics;
  /* At most this many bytes of inflated content on disk; 0: the free space. */
  guint64       scratch_limit;
  /* Heap dumps: a weak, soft or phantom reference keeps its referent. */
  gboolean      follow_weak;
} StrataLoadJob;

typedef StrataTrace *(*StrataFormatLoadFunc) (StrataLoadJob  *job,
                                              GError        **error);

void         strata_loader_set_scratch_limit (StrataLoader *self,
                                             guint64       limit);
GBytes      *strata_load_job_gunzip  (StrataLoadJob  *job,
                                      GBytes         *compressed,
                                      gboolean       *mapped,
                                      GError        **error);
void         strata_load_job_release_pages (StrataLoadJob *job,
                                            const guint8  *from,
                                            const guint8  *to);
GBytes      *strata_load_file_bytes  (GFile          *file,
                                      GCancellable   *cancellable,
                                      gboolean       *mapped,
                                      GError        **error);
gboolean     strata_load_job_update (StrataLoadJob  *job,
                                     double          fraction,
                                     const char     *message,
                                     GError        **error);

StrataTrace *strata_dmtrace_load    (StrataLoadJob  *job,
                                     GError        **error);
StrataTrace *strata_trace_event_load (StrataLoadJob  *job,
                                      GError        **error);
StrataTrace *strata_hprof_binary_load (StrataLoadJob  *job,
                                       GError        **error);
StrataTrace *strata_hprof_text_load  (StrataLoadJob  *job,
                                      GError        **error);
StrataTrace *strata_perfetto_load    (StrataLoadJob  *job,
                                      GError        **error);
StrataTrace *strata_speedscope_load  (StrataLoadJob  *job,
                                      GError        **error);
StrataTrace *strata_cpuprofile_load  (StrataLoadJob  *job,
                                      GError        **error);

G_END_DECLS
