/* strata-format.h: the trace formats Strata reads, recognised by content
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  STRATA_FORMAT_UNKNOWN,
  STRATA_FORMAT_DMTRACE,
  STRATA_FORMAT_HPROF_BINARY,
  STRATA_FORMAT_HPROF_TEXT,
  STRATA_FORMAT_TRACE_EVENT,
  STRATA_FORMAT_CPUPROFILE,
  STRATA_FORMAT_SPEEDSCOPE,
  STRATA_FORMAT_PERFETTO,
} StrataFormat;

typedef enum
{
  STRATA_COMPRESSION_NONE,
  STRATA_COMPRESSION_GZIP,
} StrataCompression;

/* How many leading bytes sniffing looks at (after decompression). */
#define STRATA_SNIFF_HEAD_SIZE 65536

const char   *strata_format_get_name (StrataFormat       format);
const char   *strata_format_get_id   (StrataFormat       format);
StrataFormat  strata_format_sniff    (const guint8      *data,
                                      gsize              len,
                                      StrataCompression *compression,
                                      GError           **error);

G_END_DECLS
