/* strata-json-scan.h: a scanner that walks JSON text without building it
 *
 * Trace Event files run to gigabytes; the loader reads each event's few
 * fields straight from the bytes and steps over everything else. Every
 * function takes the bytes that remain and never reads past @end. Values
 * cut off by @end are reported as incomplete, not as errors, so a caller
 * streaming a file can fetch more and try again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  STRATA_JSON_OK,
  STRATA_JSON_INCOMPLETE,   /* the value runs past the end of the bytes */
  STRATA_JSON_INVALID,
} StrataJsonStatus;

/* A string's text between its quotes, still escaped when @escaped. */
typedef struct
{
  const char *start;
  gsize       len;
  gboolean    escaped;
} StrataJsonString;

static inline const char *
strata_json_skip_space_inline (const char *p,
                               const char *end)
{
  while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
    p++;
  return p;
}

StrataJsonStatus  strata_json_skip_value    (const char       *p,
                                             const char       *end,
                                             const char      **value_end);
StrataJsonStatus  strata_json_skip_value_depth (const char    *p,
                                                const char    *end,
                                                const char   **value_end,
                                                guint64       *max_depth);
StrataJsonStatus  strata_json_scan_string   (const char       *p,
                                             const char       *end,
                                             StrataJsonString *string,
                                             const char      **string_end);
StrataJsonStatus  strata_json_scan_number   (const char       *p,
                                             const char       *end,
                                             const char      **number_end);
void              strata_json_unescape      (const StrataJsonString *string,
                                             GString          *out);
gboolean          strata_json_string_equal  (const StrataJsonString *string,
                                             const char       *literal);
gboolean          strata_json_parse_micros  (const char       *start,
                                             const char       *end,
                                             gint64           *ns);
gboolean          strata_json_parse_double  (const char       *start,
                                             const char       *end,
                                             double           *value);
gboolean          strata_json_parse_uint64  (const char       *start,
                                             const char       *end,
                                             guint64          *value);

G_END_DECLS
