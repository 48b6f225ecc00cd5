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

#include <string.h>
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

/* Bytes of @word equal to @byte have their top bit set (and only the
 * lowest such byte is exact, which is all the scan needs). */
static inline guint64
strata_json_match_byte (guint64 word,
                        guint8  byte)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  guint64 x = word ^ (ones * byte);

  return (x - ones) & ~x & (ones << 7);
}

/* The first '"' or '\\' at or after @q, eight bytes at a time. */
static inline const char *
strata_json_find_quote_or_backslash (const char *q,
                                     const char *end)
{
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  for (; end - q >= 8; q += 8)
    {
      guint64 word, hits;

      memcpy (&word, q, 8);
      hits = strata_json_match_byte (word, '"') | strata_json_match_byte (word, '\\');
      if (hits != 0)
        return q + __builtin_ctzll (hits) / 8;
    }
#endif
  for (; q < end; q++)
    if (*q == '"' || *q == '\\')
      return q;
  return NULL;
}

/* strata_json_scan_string(), for the loops that scan millions: @p is
 * the opening quote; @string gets the text between the quotes. */
static inline StrataJsonStatus
strata_json_scan_string_inline (const char        *p,
                                const char        *end,
                                StrataJsonString  *string,
                                const char       **string_end)
{
  const char *q = p + 1;

  if (p >= end || *p != '"')
    return p >= end ? STRATA_JSON_INCOMPLETE : STRATA_JSON_INVALID;
  string->start = q;
  string->escaped = FALSE;
  for (;;)
    {
      q = strata_json_find_quote_or_backslash (q, end);
      if (q == NULL)
        return STRATA_JSON_INCOMPLETE;
      if (*q == '"')
        break;
      /* A backslash and the byte it escapes. */
      string->escaped = TRUE;
      q += 2;
      if (q >= end)
        return STRATA_JSON_INCOMPLETE;
    }
  string->len = q - string->start;
  *string_end = q + 1;
  return STRATA_JSON_OK;
}

/* The bytes a number may hold. */
static inline gboolean
strata_json_is_number_byte (char c)
{
  return (c >= '0' && c <= '9') || c == '.' || c == '-' || c == 'e' || c == 'E' || c == '+';
}

static inline StrataJsonStatus
strata_json_scan_number_inline (const char  *p,
                                const char  *end,
                                const char **number_end)
{
  const char *q = p;

  while (q < end && strata_json_is_number_byte (*q))
    q++;
  if (q == end)
    return STRATA_JSON_INCOMPLETE;
  if (q == p)
    return STRATA_JSON_INVALID;
  *number_end = q;
  return STRATA_JSON_OK;
}

/* A member of an object: @p is its value, which the function steps over. */
typedef StrataJsonStatus (*StrataJsonMemberFunc) (const char  *key,
                                                  gsize        key_len,
                                                  const char  *p,
                                                  const char  *end,
                                                  gpointer     data,
                                                  const char **value_end);

/* Calls @func for each member of the object at @p (its '{'), which
 * steps over the member's value; inlined where @func is known, as for
 * the millions of events of a trace. */
static inline StrataJsonStatus
strata_json_scan_object_inline (const char           *p,
                                const char           *end,
                                StrataJsonMemberFunc  func,
                                gpointer              data,
                                const char          **object_end)
{
  p++;
  for (;;)
    {
      StrataJsonString key;
      StrataJsonStatus status;

      p = strata_json_skip_space_inline (p, end);
      if (p >= end)
        return STRATA_JSON_INCOMPLETE;
      if (*p == '}')
        {
          *object_end = p + 1;
          return STRATA_JSON_OK;
        }
      if (*p == ',')
        {
          p++;
          continue;
        }
      if ((status = strata_json_scan_string_inline (p, end, &key, &p)) != STRATA_JSON_OK)
        return status;
      p = strata_json_skip_space_inline (p, end);
      if (p < end && *p == ':')
        p = strata_json_skip_space_inline (p + 1, end);
      if (p >= end)
        return STRATA_JSON_INCOMPLETE;
      if ((status = func (key.start, key.len, p, end, data, &p)) != STRATA_JSON_OK)
        return status;
    }
}

StrataJsonStatus  strata_json_scan_object   (const char       *p,
                                             const char       *end,
                                             StrataJsonMemberFunc func,
                                             gpointer          data,
                                             const char      **object_end);
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
