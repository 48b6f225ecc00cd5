/* strata-json-scan.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-json-scan.h"

/* Deeper nesting than this is refused rather than followed. */
#define MAX_DEPTH 4096
#define MAX_NUMBER_LEN 64

static inline gboolean
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

/**
 * strata_json_scan_string:
 * @p: the opening quote
 *
 * Finds the closing quote; @string gets the text between them.
 */
StrataJsonStatus
strata_json_scan_string (const char        *p,
                         const char        *end,
                         StrataJsonString  *string,
                         const char       **string_end)
{
  return strata_json_scan_string_inline (p, end, string, string_end);
}

/**
 * strata_json_scan_object:
 * @p: the object's '{'
 *
 * Calls @func for each member; @object_end is past the '}'.
 */
StrataJsonStatus
strata_json_scan_object (const char           *p,
                         const char           *end,
                         StrataJsonMemberFunc  func,
                         gpointer              data,
                         const char          **object_end)
{
  return strata_json_scan_object_inline (p, end, func, data, object_end);
}

StrataJsonStatus
strata_json_scan_number (const char  *p,
                         const char  *end,
                         const char **number_end)
{
  return strata_json_scan_number_inline (p, end, number_end);
}

static StrataJsonStatus
skip_literal (const char  *p,
              const char  *end,
              const char  *literal,
              const char **literal_end)
{
  gsize len = strlen (literal);
  gsize left = end - p;

  if (memcmp (p, literal, MIN (len, left)) != 0)
    return STRATA_JSON_INVALID;
  if (left < len)
    return STRATA_JSON_INCOMPLETE;
  *literal_end = p + len;
  return STRATA_JSON_OK;
}

/* Digits, signs, points, exponents, commas and spaces. */
static inline gboolean
in_number_run (char c)
{
  static const guint8 table[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
    ['-'] = 1, ['+'] = 1, ['.'] = 1, ['e'] = 1, ['E'] = 1, [','] = 1, [' '] = 1, ['\n'] = 1, ['\r'] = 1, ['\t'] = 1,
  };

  return table[(guint8) c];
}

/* Steps over a scalar at @p; containers are handled by the caller. */
static StrataJsonStatus
skip_scalar (const char  *p,
             const char  *end,
             const char **scalar_end)
{
  StrataJsonString string;

  switch (*p)
    {
    case '"':
      return strata_json_scan_string_inline (p, end, &string, scalar_end);
    case 't':
      return skip_literal (p, end, "true", scalar_end);
    case 'f':
      return skip_literal (p, end, "false", scalar_end);
    case 'n':
      return skip_literal (p, end, "null", scalar_end);
    default:
      if (is_digit (*p) || *p == '-')
        return strata_json_scan_number_inline (p, end, scalar_end);
      return STRATA_JSON_INVALID;
    }
}

/* Brackets past this depth are counted but not matched by kind: a value
 * nested 10,000 deep is skipped whole, so the events around it load. */
static StrataJsonStatus
skip_value (const char  *p,
            const char  *end,
            const char **value_end,
            guint64     *max_depth)
{
  guint64 kinds[MAX_DEPTH / 64];
  guint64 depth = 0;

  for (;;)
    {
      StrataJsonStatus status;

      p = strata_json_skip_space_inline (p, end);
      if (p >= end)
        return STRATA_JSON_INCOMPLETE;

      if (*p == '{' || *p == '[')
        {
          if (depth < MAX_DEPTH && *p == '{')
            kinds[depth / 64] |= G_GUINT64_CONSTANT (1) << (depth % 64);
          else if (depth < MAX_DEPTH)
            kinds[depth / 64] &= ~(G_GUINT64_CONSTANT (1) << (depth % 64));
          depth++;
          if (max_depth != NULL)
            *max_depth = MAX (*max_depth, depth);
          p++;
          continue;
        }
      if (*p == '}' || *p == ']')
        {
          if (depth == 0)
            return STRATA_JSON_INVALID;
          depth--;
          if (depth < MAX_DEPTH && ((kinds[depth / 64] >> (depth % 64)) & 1) != (*p == '}'))
            return STRATA_JSON_INVALID;
          p++;
        }
      else if (depth > 0 && (*p == ',' || *p == ':'))
        {
          p++;
          /* Arrays of numbers (a profile's samples) in one tight loop:
           * the bytes the token loop would take one by one. */
          while (p < end && in_number_run (*p))
            p++;
          continue;
        }
      else if ((status = skip_scalar (p, end, &p)) != STRATA_JSON_OK)
        return status;

      if (depth == 0)
        {
          *value_end = p;
          return STRATA_JSON_OK;
        }
    }
}

/**
 * strata_json_skip_value:
 * @p: the first byte of the value (no space before it)
 *
 * Steps over one value of any kind. Containers are followed with a stack
 * of bits (object or array), so brackets must match; commas and colons
 * are not checked, which lets the loader read slightly broken writers.
 */
StrataJsonStatus
strata_json_skip_value (const char  *p,
                        const char  *end,
                        const char **value_end)
{
  return skip_value (p, end, value_end, NULL);
}

/**
 * strata_json_skip_value_depth:
 * @max_depth: (inout): raised to the deepest nesting met
 *
 * As strata_json_skip_value(), telling how deep the value goes.
 */
StrataJsonStatus
strata_json_skip_value_depth (const char  *p,
                              const char  *end,
                              const char **value_end,
                              guint64     *max_depth)
{
  return skip_value (p, end, value_end, max_depth);
}

static int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static gint32
read_hex4 (const char *p,
           const char *end)
{
  gint32 value = 0;

  if (end - p < 4)
    return -1;
  for (int i = 0; i < 4; i++)
    {
      int digit = hex_value (p[i]);

      if (digit < 0)
        return -1;
      value = value * 16 + digit;
    }
  return value;
}

/* \uXXXX, with surrogate pairs; returns the bytes used after the 'u'. */
static gsize
unescape_unicode (const char *p,
                  const char *end,
                  GString    *out)
{
  gint32 unit = read_hex4 (p, end);
  gunichar c = 0xFFFD;
  gsize used = 4;

  if (unit < 0)
    used = 0;
  else if (unit >= 0xD800 && unit < 0xDC00 && end - p >= 10 && p[4] == '\\' && p[5] == 'u')
    {
      gint32 low = read_hex4 (p + 6, end);

      if (low >= 0xDC00 && low < 0xE000)
        {
          c = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
          used = 10;
        }
    }
  else if (unit != 0 && (unit < 0xD800 || unit >= 0xE000))
    c = unit;
  /* NUL and lone surrogates cannot live in a C string: U+FFFD instead. */

  g_string_append_unichar (out, c);
  return used;
}

/**
 * strata_json_unescape:
 *
 * Appends the string's text to @out with escapes resolved; bytes that are
 * not UTF-8 become U+FFFD.
 */
void
strata_json_unescape (const StrataJsonString *string,
                      GString                *out)
{
  const char *p = string->start;
  const char *end = p + string->len;
  gsize from = out->len;

  while (p < end)
    {
      const char *backslash = memchr (p, '\\', end - p);

      if (backslash == NULL)
        {
          g_string_append_len (out, p, end - p);
          break;
        }
      g_string_append_len (out, p, backslash - p);
      p = backslash + 1;
      if (p == end)
        break;
      switch (*p++)
        {
        case 'n': g_string_append_c (out, '\n'); break;
        case 't': g_string_append_c (out, '\t'); break;
        case 'r': g_string_append_c (out, '\r'); break;
        case 'b': g_string_append_c (out, '\b'); break;
        case 'f': g_string_append_c (out, '\f'); break;
        case 'u': p += unescape_unicode (p, end, out); break;
        default: g_string_append_c (out, p[-1]); break;
        }
    }

  if (!g_utf8_validate_len (out->str + from, out->len - from, NULL))
    {
      g_autofree char *valid = g_utf8_make_valid (out->str + from, out->len - from);

      g_string_truncate (out, from);
      g_string_append (out, valid);
    }
}

gboolean
strata_json_string_equal (const StrataJsonString *string,
                          const char             *literal)
{
  gsize len = strlen (literal);

  return !string->escaped && string->len == len && memcmp (string->start, literal, len) == 0;
}

static gboolean
scale_to_ns (guint64  mantissa,
             int      exponent,
             gboolean negative,
             gint64  *ns)
{
  while (exponent > 0 && mantissa != 0)
    {
      if (mantissa > G_MAXINT64 / 10)
        return FALSE;
      mantissa *= 10;
      exponent--;
    }
  if (exponent < -19)
    mantissa = 0;
  else if (exponent < 0)
    {
      guint64 divisor = 1;

      for (int i = 0; i < -exponent; i++)
        divisor *= 10;
      /* Round half away from zero. */
      mantissa = mantissa / divisor + (mantissa % divisor >= (divisor + 1) / 2);
    }
  if (mantissa > G_MAXINT64)
    return FALSE;
  *ns = negative ? -(gint64) mantissa : (gint64) mantissa;
  return TRUE;
}

/**
 * strata_json_parse_micros:
 *
 * Reads a decimal number of microseconds as exact nanoseconds: digits
 * past the third decimal are rounded, never lost to a double's 53 bits.
 */
/* The form nearly every timestamp has, [-]D{1,15}[.D{1,3}], read
 * without the general path's checks: millions of events have one. */
static inline gboolean
parse_plain_micros (const char *p,
                    const char *end,
                    gint64     *ns)
{
  static const gint64 scale[] = { 1000, 100, 10, 1 };
  gboolean negative = p < end && *p == '-';
  const char *q = p + negative, *point;
  guint64 value = 0;
  guint n_decimals;

  for (point = q; point < end && is_digit (*point); point++)
    value = value * 10 + (guint64) (*point - '0');
  if (point == q || point - q > 15)
    return FALSE;
  n_decimals = point < end && *point == '.' ? (guint) (end - point - 1) : 0;
  if (point != end && (n_decimals == 0 || n_decimals > 3))
    return FALSE;
  for (const char *d = point + 1; d < end; d++)
    {
      if (!is_digit (*d))
        return FALSE;
      value = value * 10 + (guint64) (*d - '0');
    }
  *ns = (gint64) value * scale[n_decimals];
  if (negative)
    *ns = -*ns;
  return TRUE;
}

gboolean
strata_json_parse_micros (const char *start,
                          const char *end,
                          gint64     *ns)
{
  /* 19 digits fit: epoch microseconds with three decimals (Kineto's) are. */
  const guint64 limit = (G_MAXUINT64 - 9) / 10;
  const char *p = start;
  gboolean negative = FALSE, any = FALSE, dropped = FALSE;
  guint64 mantissa = 0;
  int exponent = 3;

  if (parse_plain_micros (start, end, ns))
    return TRUE;
  if (p < end && *p == '-')
    negative = TRUE, p++;
  for (; p < end && is_digit (*p); p++, any = TRUE)
    {
      if (mantissa < limit)
        mantissa = mantissa * 10 + (*p - '0');
      else
        exponent++;
    }
  if (p < end && *p == '.')
    {
      for (p++; p < end && is_digit (*p); p++, any = TRUE)
        {
          if (mantissa < limit)
            {
              mantissa = mantissa * 10 + (*p - '0');
              exponent--;
            }
          else if (!dropped)
            {
              /* The first digit past what fits rounds the rest. */
              dropped = TRUE;
              mantissa += *p >= '5';
            }
        }
    }
  if (!any)
    return FALSE;

  if (p < end && (*p == 'e' || *p == 'E'))
    {
      gboolean exp_negative = FALSE;
      int e = 0;

      p++;
      if (p < end && (*p == '-' || *p == '+'))
        exp_negative = *p++ == '-';
      if (p == end || !is_digit (*p))
        return FALSE;
      for (; p < end && is_digit (*p); p++)
        e = MIN (e * 10 + (*p - '0'), 1000);
      exponent += exp_negative ? -e : e;
    }

  return p == end && scale_to_ns (mantissa, exponent, negative, ns);
}

gboolean
strata_json_parse_double (const char *start,
                          const char *end,
                          double     *value)
{
  gboolean negative = start < end && *start == '-';
  const char *p = start + negative;
  gint64 integer = 0;

  /* Most values are small integers: no need for strtod. */
  for (; p < end && is_digit (*p) && integer < G_MAXINT64 / 100; p++)
    integer = integer * 10 + (*p - '0');
  if (p == end && p > start + negative)
    {
      *value = negative ? -(double) integer : (double) integer;
      return TRUE;
    }

  char buf[MAX_NUMBER_LEN + 1];
  char *parsed_end;
  gsize len = end - start;

  if (len == 0 || len > MAX_NUMBER_LEN)
    return FALSE;
  memcpy (buf, start, len);
  buf[len] = '\0';
  *value = g_ascii_strtod (buf, &parsed_end);
  return parsed_end == buf + len;
}

/* Decimal digits, or "0x" and hex digits; exact over all 64 bits. */
gboolean
strata_json_parse_uint64 (const char *start,
                          const char *end,
                          guint64    *value)
{
  guint base = 10;
  guint64 v = 0;

  if (end - start > 2 && start[0] == '0' && (start[1] == 'x' || start[1] == 'X'))
    base = 16, start += 2;
  if (start == end)
    return FALSE;
  for (const char *p = start; p < end; p++)
    {
      int digit = base == 16 ? hex_value (*p) : (is_digit (*p) ? *p - '0' : -1);

      if (digit < 0 || v > (G_MAXUINT64 - digit) / base)
        return FALSE;
      v = v * base + digit;
    }
  *value = v;
  return TRUE;
}
