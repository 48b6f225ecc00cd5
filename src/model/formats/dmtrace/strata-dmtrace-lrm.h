/* strata-dmtrace-lrm.h: ART's long-running method traces, from ANR dumps
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "strata-loader-private.h"
#include "strata-trace.h"

G_BEGIN_DECLS

/* What the dump said around the trace, and what was left out of it. */
typedef struct
{
  gboolean    from_text;       /* found in a dump's text, not raw bytes */
  gint64      pid;
  char       *command;         /* the dump's "Cmd line:", or NULL */
  GHashTable *thread_names;    /* sysTid -> name, from the dump's text */
  guint       n_other_dumps;   /* further "LongRunningMethods:" lines, not read */
  guint64     n_lost_exits;    /* exits whose entry no one kept */
  guint64     n_open_at_dump;  /* calls still running when it was dumped */
  guint64     n_bad_records;
  gboolean    complete;
  gsize       cut_at;          /* where an unreadable packet began */
} DmtraceLrmInfo;

gboolean dmtrace_lrm_sniff_text  (const guint8    *data,
                                  gsize            len);
gboolean dmtrace_lrm_sniff_raw   (const guint8    *data,
                                  gsize            len);
GBytes  *dmtrace_lrm_transcode   (const guint8    *data,
                                  gsize            len,
                                  DmtraceLrmInfo  *info,
                                  GError         **error);
void     dmtrace_lrm_info_clear  (DmtraceLrmInfo  *info);
StrataTrace *dmtrace_lrm_load    (StrataLoadJob   *job,
                                  GError         **error);

G_END_DECLS
