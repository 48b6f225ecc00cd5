/* strata-format-private.h: the table of formats, for the loader and the readers
 *
 * Each format is one entry: its id, its name, how its content is
 * recognised and its reader. The readers live in a folder each
 * (dmtrace/, hprof/, trace-event/) and give the table their sniffing and
 * loading functions; adding a format is adding its folder and its entry
 * in strata-format.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-format.h"
#include "strata-loader-private.h"

G_BEGIN_DECLS

/* What a format says of a file's first bytes. */
typedef enum
{
  STRATA_SNIFF_NO,       /* not this format: ask the next */
  STRATA_SNIFF_YES,
  STRATA_SNIFF_REFUSED,  /* looks like it but cannot be: the error says why */
} StrataSniff;

/* @complete: @data is the whole content, not only its head */
typedef StrataSniff (*StrataFormatSniffFunc) (const guint8  *data,
                                              gsize          len,
                                              gboolean       complete,
                                              GError       **error);

typedef struct
{
  StrataFormat          format;
  const char           *id;     /* for reports: "dmtrace" */
  const char           *name;   /* N_(): "Android method trace" */
  StrataFormatSniffFunc sniff;
  StrataFormatLoadFunc  load;
} StrataFormatEntry;

const StrataFormatEntry *strata_format_get_entry (StrataFormat format);

StrataSniff strata_dmtrace_sniff      (const guint8  *data,
                                       gsize          len,
                                       gboolean       complete,
                                       GError       **error);
StrataSniff strata_hprof_binary_sniff (const guint8  *data,
                                       gsize          len,
                                       gboolean       complete,
                                       GError       **error);
StrataSniff strata_hprof_text_sniff   (const guint8  *data,
                                       gsize          len,
                                       gboolean       complete,
                                       GError       **error);
StrataSniff strata_perfetto_sniff     (const guint8  *data,
                                       gsize          len,
                                       gboolean       complete,
                                       GError       **error);
StrataSniff strata_speedscope_sniff   (const guint8  *data,
                                       gsize          len,
                                       gboolean       complete,
                                       GError       **error);
StrataSniff strata_cpuprofile_sniff   (const guint8  *data,
                                       gsize          len,
                                       gboolean       complete,
                                       GError       **error);
StrataSniff strata_trace_event_sniff  (const guint8  *data,
                                       gsize          len,
                                       gboolean       complete,
                                       GError       **error);

G_END_DECLS
