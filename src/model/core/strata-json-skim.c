/* strata-json-skim.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-json-skim.h"

#if defined(__SSE2__) && G_BYTE_ORDER == G_LITTLE_ENDIAN && defined(__GNUC__)
#include <emmintrin.h>
#define SKIM_BLOCKS 1
#endif

/* As in strata_json_skip_value(): brackets past this depth are counted
 * but not matched by kind. */
#define MAX_DEPTH 4096

typedef struct
{
  guint64 kinds[MAX_DEPTH / 64];  /* a bit per open bracket: 1 for '{' */
  guint64 depth;
} Brackets;

/* Takes bracket @c; returns OK once the container has closed, INVALID
 * for a bracket that closes another kind or nothing, else INCOMPLETE. */
static inline StrataJsonStatus
take_bracket (Brackets *brackets,
              char      c)
{
  guint64 depth = brackets->depth;

  if (c == '{' || c == '[')
    {
      if (depth < MAX_DEPTH && c == '{')
        brackets->kinds[depth / 64] |= G_GUINT64_CONSTANT (1) << (depth % 64);
      else if (depth < MAX_DEPTH)
        brackets->kinds[depth / 64] &= ~(G_GUINT64_CONSTANT (1) << (depth % 64));
      brackets->depth++;
      return STRATA_JSON_INCOMPLETE;
    }
  if (depth == 0)
    return STRATA_JSON_INVALID;
  depth = --brackets->depth;
  if (depth < MAX_DEPTH && ((brackets->kinds[depth / 64] >> (depth % 64)) & 1) != (c == '}'))
    return STRATA_JSON_INVALID;
  return depth == 0 ? STRATA_JSON_OK : STRATA_JSON_INCOMPLETE;
}

#ifdef SKIM_BLOCKS
/* A bit per byte of the 64 at @q that equals @byte. */
static inline guint64
bytes_equal (const __m128i v[4],
             char          byte)
{
  __m128i wanted = _mm_set1_epi8 (byte);
  guint64 bits = 0;

  for (guint i = 0; i < 4; i++)
    bits |= (guint64) (guint32) _mm_movemask_epi8 (_mm_cmpeq_epi8 (v[i], wanted)) << (16 * i);
  return bits;
}

/* The bytes a backslash escapes: each run of backslashes escapes the
 * byte after it if its length is odd. @carry: whether the block before
 * ended escaping this one's first byte. */
static inline guint64
escaped_bytes (guint64  backslash,
               guint64 *carry)
{
  const guint64 even = G_GUINT64_CONSTANT (0x5555555555555555);
  guint64 follows, odd_starts, sums;

  backslash &= ~*carry;
  follows = backslash << 1 | *carry;
  odd_starts = backslash & ~even & ~follows;
  /* Adding each run's start to it carries past the run's end; where the
   * run started on an odd bit, the escaped byte lands on an even one. */
  *carry = __builtin_add_overflow (odd_starts, backslash, &sums);
  return (even ^ (sums << 1)) & follows;
}

/* Each bit the parity of the bits up to it: inside strings, from their
 * opening quote to before their closing one. */
static inline guint64
prefix_xor (guint64 bits)
{
  bits ^= bits << 1;
  bits ^= bits << 2;
  bits ^= bits << 4;
  bits ^= bits << 8;
  bits ^= bits << 16;
  bits ^= bits << 32;
  return bits;
}
#endif

/**
 * strata_json_skim_container:
 * @p: a '{' or '['
 *
 * Finds where the container at @p ends, as strata_json_skip_value()
 * does for any JSON it accepts: strings and escapes are followed and
 * brackets matched by kind, but what lies between them is not checked
 * (a caller that reads the value again does). A container cut off by
 * @end is handed to strata_json_skip_value(), which says whether it is
 * cut or wrong; so is anything else at @p.
 */
StrataJsonStatus
strata_json_skim_container (const char  *p,
                            const char  *end,
                            const char **value_end)
{
  /* Not cleared: a bracket's bit is written as it opens, before it is
   * read, and clearing 512 bytes took a tenth of a frame's skim. */
  Brackets brackets;
  gboolean escaped = FALSE, in_string = FALSE;
  const char *q = p;

  brackets.depth = 0;
  if (p >= end || (*p != '{' && *p != '['))
    return strata_json_skip_value (p, end, value_end);
#ifdef SKIM_BLOCKS
  {
    guint64 carry = 0, inside = 0;

    for (; end - q >= 64; q += 64)
      {
        __m128i v[4];
        guint64 escapes, quotes, found;

        for (guint i = 0; i < 4; i++)
          v[i] = _mm_loadu_si128 ((const __m128i *) (q + 16 * i));
        escapes = escaped_bytes (bytes_equal (v, '\\'), &carry);
        quotes = bytes_equal (v, '"') & ~escapes;
        inside = prefix_xor (quotes) ^ inside;
        found = (bytes_equal (v, '{') | bytes_equal (v, '[') | bytes_equal (v, '}') | bytes_equal (v, ']')) &
                ~inside & ~escapes;
        for (; found != 0; found &= found - 1)
          {
            const char *at = q + __builtin_ctzll (found);
            StrataJsonStatus status = take_bracket (&brackets, *at);

            if (status == STRATA_JSON_OK)
              *value_end = at + 1;
            if (status != STRATA_JSON_INCOMPLETE)
              return status;
          }
        /* The last byte's state is the next block's first. */
        inside = (guint64) ((gint64) inside >> 63);
      }
    escaped = carry != 0;
    in_string = inside != 0;
  }
#endif
  /* The last bytes (or all, without SSE2), one at a time. */
  for (; q < end; q++)
    {
      StrataJsonStatus status;

      if (escaped)
        escaped = FALSE;
      else if (*q == '\\')
        escaped = TRUE;
      else if (*q == '"')
        in_string = !in_string;
      else if (!in_string && (*q == '{' || *q == '[' || *q == '}' || *q == ']') &&
               (status = take_bracket (&brackets, *q)) != STRATA_JSON_INCOMPLETE)
        {
          if (status == STRATA_JSON_OK)
            *value_end = q + 1;
          return status;
        }
    }
  return strata_json_skip_value (p, end, value_end);
}
