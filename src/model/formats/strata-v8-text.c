/* strata-v8-text.c: V8 profile arrays read straight from the text
 *
 * A profile's samples and deltas are long arrays of numbers and its
 * nodes thousands of small objects: read with the scanner, not built
 * into a JSON tree, they take what they hold and little more.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "strata-json-scan.h"
#include "strata-json-skim.h"
#include "strata-v8-text.h"

#define KEY_IS(literal) (key_len == sizeof (literal) - 1 && memcmp (key, literal, key_len) == 0)

/**
 * strata_v8_read_integer:
 *
 * Reads a number (a fraction is cut to an integer); anything else is
 * stepped over and gives @fallback.
 */
StrataJsonStatus
strata_v8_read_integer (const char  *p,
              const char  *end,
              gint64       fallback,
              gint64      *value,
              const char **value_end)
{
  const char *q = p + (p < end && *p == '-'), *digits = q;
  guint64 magnitude = 0;
  double d;

  while (q < end && *q >= '0' && *q <= '9' && q - digits < 18)
    magnitude = magnitude * 10 + (guint64) (*q++ - '0');
  if (q < end && q > p + (*p == '-') && *q != '.' && *q != 'e' && *q != 'E' && !(*q >= '0' && *q <= '9'))
    {
      *value = *p == '-' ? -(gint64) magnitude : (gint64) magnitude;
      *value_end = q;
      return STRATA_JSON_OK;
    }
  *value = fallback;
  if (p < end && (*p == '-' || (*p >= '0' && *p <= '9')))
    {
      StrataJsonStatus status = strata_json_scan_number (p, end, value_end);

      if (status == STRATA_JSON_OK && strata_json_parse_double (p, *value_end, &d) && d > -9e18 && d < 9e18)
        *value = (gint64) d;
      return status;
    }
  return strata_json_skip_value (p, end, value_end);
}

/* The digits of @word, the first in its lowest byte, up to the first
 * byte that is no digit: how many there are (8 if all are) and their
 * value. Eight bytes are looked at in a few operations, not one by one:
 * samples and deltas are most of a recording's bytes. */
static inline guint
word_digits (guint64  word,
             guint64 *value)
{
  guint64 x = word ^ 0x3030303030303030ull;
  /* A byte's top bit set where it is above 9, or was above 0x7f. */
  guint64 over = ((x + 0x7676767676767676ull) | x) & 0x8080808080808080ull;
  guint n = over != 0 ? (guint) __builtin_ctzll (over) / 8 : 8;

  if (n == 0)
    return 0;
  x <<= 8 * (8 - n);
  x = (x * 10 + (x >> 8)) & 0x00ff00ff00ff00ffull;
  x = (x * 100 + (x >> 16)) & 0x0000ffff0000ffffull;
  *value = (x * 10000 + (x >> 32)) & 0xffffffffull;
  return n;
}

/* A plain integer of up to 18 digits ended by ',' or ']', the form
 * nearly every sample and delta has; FALSE for anything else. */
static inline gboolean
read_plain_integer (const char  *p,
                    const char  *end,
                    gint64      *value,
                    const char **value_end)
{
  gboolean negative = p < end && *p == '-';
  const char *q = p + negative, *digits = q;
  guint64 magnitude = 0;

#if G_BYTE_ORDER == G_LITTLE_ENDIAN && defined(__GNUC__)
  if (G_LIKELY (end - q > 8))
    {
      guint64 word;
      guint n;

      memcpy (&word, q, sizeof word);
      n = word_digits (word, &magnitude);
      if (n < 8)
        {
          if (n == 0 || (q[n] != ',' && q[n] != ']'))
            return FALSE;
          *value = negative ? -(gint64) magnitude : (gint64) magnitude;
          *value_end = q + n;
          return TRUE;
        }
      magnitude = 0;
    }
#endif
  while (q < end && (guint) (*q - '0') < 10 && q - digits < 18)
    magnitude = magnitude * 10 + (guint64) (*q++ - '0');
  if (q == digits || q >= end || (*q != ',' && *q != ']'))
    return FALSE;
  *value = negative ? -(gint64) magnitude : (gint64) magnitude;
  *value_end = q;
  return TRUE;
}

#if defined(__SSE2__) && G_BYTE_ORDER == G_LITTLE_ENDIAN && defined(__GNUC__)
#define HAVE_PLAIN_BLOCKS 1

/* A number of @len digits (1 to 8) at @q, with 8 bytes readable. */
static inline guint64
digits_value (const char *q,
              guint       len)
{
  guint64 x;

  memcpy (&x, q, sizeof x);
  x = (x ^ 0x3030303030303030ull) << (8 * (8 - len));
  x = (x * 10 + (x >> 8)) & 0x00ff00ff00ff00ffull;
  x = (x * 100 + (x >> 16)) & 0x0000ffff0000ffffull;
  return (x * 10000 + (x >> 32)) & 0xffffffffull;
}

/* 64 bytes from @p as bits: where the commas are, and in @others the
 * bytes that are neither a comma nor a digit. */
static inline guint64
comma_bits (const char *p,
            guint64    *others_out)
{
  const __m128i comma = _mm_set1_epi8 (','), zero = _mm_set1_epi8 ('0');
  const __m128i bias = _mm_set1_epi8 ((char) 0x80), ten = _mm_set1_epi8 ((char) (10 ^ 0x80));
  guint64 commas = 0, others = 0;

  for (guint i = 0; i < 4; i++)
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) (p + 16 * i));
      __m128i is_comma = _mm_cmpeq_epi8 (v, comma);
      /* A digit, as an unsigned byte less than 10 after '0' is taken. */
      __m128i is_digit = _mm_cmplt_epi8 (_mm_xor_si128 (_mm_sub_epi8 (v, zero), bias), ten);

      commas |= (guint64) (guint16) _mm_movemask_epi8 (is_comma) << (16 * i);
      others |= (guint64) (guint16) ~_mm_movemask_epi8 (_mm_or_si128 (is_comma, is_digit)) << (16 * i);
    }
  *others_out = others;
  return commas;
}

/* Numbers of at most 8 digits, each ended by a comma or by the ']' of
 * the array, 64 bytes at a time: where the commas are is found for all
 * of them at once, so each is read without waiting for the one before.
 * A chunk's arrays are a few hundred bytes: their last block, the one
 * with the ']', is read so too. Stops at that ']', at a longer number,
 * or at any other byte, where @p then is.
 * Returns: how many were read into @values, 32 at most a block */
static guint
read_plain_blocks (const char  *p,
                   const char  *end,
                   gint64      *values,
                   guint        room,
                   const char **stop)
{
  guint n = 0;

  while (end - p >= 72 && n + 32 <= room)
    {
      guint64 others, commas = comma_bits (p, &others);
      gboolean closes = FALSE;
      guint at = 0;

      if (others != 0)
        {
          guint first = (guint) __builtin_ctzll (others);

          closes = p[first] == ']';
          commas = (commas & ((G_GUINT64_CONSTANT (1) << first) - 1)) | ((guint64) closes << first);
        }
      for (; commas != 0; commas &= commas - 1)
        {
          guint comma = (guint) __builtin_ctzll (commas), len = comma - at;

          if (len == 0 || len > 8)
            {
              *stop = p + at;
              return n;
            }
          values[n++] = (gint64) digits_value (p + at, len);
          at = comma + 1;
        }
      if (closes)
        {
          *stop = p + at - 1;
          return n;
        }
      p += at;
      if (others != 0 || at == 0)
        break;
    }
  *stop = p;
  return n;
}
#endif

/**
 * strata_v8_read_integers_with:
 * @func: given the numbers a block at a time, with where the text is
 *   read to; it returns %FALSE to stop the read
 *
 * Reads an array's numbers; what is not a number becomes @fallback. A
 * value that is no array is stepped over.
 *
 * Returns: %STRATA_JSON_INVALID also when @func stopped the read
 */
StrataJsonStatus
strata_v8_read_integers_with (const char         *p,
                              const char         *end,
                              gint64              fallback,
                              StrataV8IntegersFunc func,
                              gpointer            data,
                              const char        **array_end)
{
  if (*p != '[')
    return strata_json_skip_value (p, end, array_end);
  for (p++;;)
    {
      StrataJsonStatus status;
      gint64 value;

      /* Runs of plain numbers go in a block at a time. */
      if (p < end && *p != ' ' && *p != '\n' && *p != ']')
        {
          gint64 block[256];
          guint n = 0;

          while (n < G_N_ELEMENTS (block))
            {
#ifdef HAVE_PLAIN_BLOCKS
              guint read = read_plain_blocks (p, end, block + n, G_N_ELEMENTS (block) - n, &p);

              n += read;
              /* A block too full for more runs goes now, not number by number. */
              if (read > 0 && G_N_ELEMENTS (block) - n < 32)
                break;
              if (read > 0 && *p != ']')
                continue;
#endif
              if (!read_plain_integer (p, end, &block[n], &p))
                break;
              n++;
              if (*p == ']')
                break;
              p++;
            }
          if (n > 0)
            {
              if (!func (block, n, p, data))
                return STRATA_JSON_INVALID;
              continue;
            }
        }
      p = strata_json_skip_space_inline (p, end);
      if (p >= end)
        return STRATA_JSON_INCOMPLETE;
      if (*p == ']')
        {
          *array_end = p + 1;
          return STRATA_JSON_OK;
        }
      if (*p == ',')
        {
          p++;
          continue;
        }
      if ((status = strata_v8_read_integer (p, end, fallback, &value, &p)) != STRATA_JSON_OK)
        return status;
      if (!func (&value, 1, p, data))
        return STRATA_JSON_INVALID;
    }
}

static gboolean
append_integers (const gint64 *values,
                 guint         n,
                 const char   *at,
                 gpointer      data)
{
  g_array_append_vals (data, values, n);
  return TRUE;
}

/**
 * strata_v8_read_integers:
 *
 * As strata_v8_read_integers_with(), the numbers appended to @out
 * (gint64).
 */
StrataJsonStatus
strata_v8_read_integers (const char  *p,
                         const char  *end,
                         GArray      *out,
                         gint64       fallback,
                         const char **array_end)
{
  return strata_v8_read_integers_with (p, end, fallback, append_integers, out, array_end);
}

/* One node, its strings unescaped into @text as needed. */
typedef struct
{
  StrataV8NodeValues values;
  GString           *text[2];   /* functionName, url */
  GArray            *children;  /* gint64 */
  StrataV8Profile   *profile;   /* whose frames are known by their text */
} NodeScan;

static StrataJsonStatus
read_string (const char  *p,
             const char  *end,
             GString     *out,
             const char **value_end)
{
  StrataJsonString string;
  StrataJsonStatus status;

  if (*p != '"')
    return strata_json_skip_value (p, end, value_end);
  if ((status = strata_json_scan_string (p, end, &string, value_end)) != STRATA_JSON_OK)
    return status;
  g_string_truncate (out, 0);
  if (string.escaped)
    strata_json_unescape (&string, out);
  else
    g_string_append_len (out, string.start, string.len);
  return STRATA_JSON_OK;
}

static StrataJsonStatus
frame_member (const char  *key,
              gsize        key_len,
              const char  *p,
              const char  *end,
              gpointer     data,
              const char **value_end)
{
  NodeScan *node = data;

  if (KEY_IS ("functionName"))
    return read_string (p, end, node->text[0], value_end);
  if (KEY_IS ("url"))
    return read_string (p, end, node->text[1], value_end);
  if (KEY_IS ("lineNumber"))
    return strata_v8_read_integer (p, end, -1, &node->values.line, value_end);
  if (KEY_IS ("columnNumber"))
    return strata_v8_read_integer (p, end, -1, &node->values.column, value_end);
  return strata_json_skip_value (p, end, value_end);
}

static StrataJsonStatus
node_member (const char  *key,
             gsize        key_len,
             const char  *p,
             const char  *end,
             gpointer     data,
             const char **value_end)
{
  NodeScan *node = data;

  if (KEY_IS ("id"))
    return strata_v8_read_integer (p, end, G_MININT64, &node->values.id, value_end);
  if (KEY_IS ("parent"))
    return strata_v8_read_integer (p, end, G_MININT64, &node->values.parent, value_end);
  if (KEY_IS ("callFrame") && *p == '{')
    {
      /* Only where it ends: it is parsed below unless known. */
      StrataJsonStatus status = strata_json_skim_container (p, end, value_end);

      /* Most nodes repeat a frame seen before: known by its text, it is
       * not parsed again (a text known is one that was parsed). */
      if (status == STRATA_JSON_OK && node->profile != NULL &&
          (node->values.known_frame = strata_v8_profile_find_frame_text (node->profile, p, *value_end - p)) > 0)
        return status;
      node->values.frame_text = p;
      node->values.frame_len = status == STRATA_JSON_OK ? (gsize) (*value_end - p) : 0;
      if (status != STRATA_JSON_OK)
        node->values.frame_text = NULL;
      return strata_json_scan_object (p, end, frame_member, node, value_end);
    }
  if (KEY_IS ("children"))
    return strata_v8_read_integers (p, end, node->children, G_MININT64, value_end);
  return strata_json_skip_value (p, end, value_end);
}

/**
 * strata_v8_profile_add_nodes_text:
 * @p: the '[' of a "nodes" array
 *
 * Adds the nodes of a profile's "nodes" array, read from the text, all
 * together: a parent may come after its child. One that is no object is
 * a node without a frame.
 *
 * Returns: whether the array could be read to its end
 */
/* Where a node's texts went in the arena, until it stops growing. */
typedef struct
{
  gsize function;
  gsize url;
  gsize children;
} NodeTexts;

gboolean
strata_v8_profile_add_nodes_text (StrataV8Profile *profile,
                                  const char      *p,
                                  const char      *end)
{
  g_autoptr(GArray) nodes = g_array_new (FALSE, FALSE, sizeof (StrataV8NodeValues));
  g_autoptr(GArray) texts = g_array_new (FALSE, FALSE, sizeof (NodeTexts));
  /* Thousands of nodes a chunk: their texts and children in two arrays,
   * not three blocks each. */
  g_autoptr(GString) arena = g_string_new (NULL);
  g_autoptr(GArray) children = g_array_new (FALSE, FALSE, sizeof (gint64));
  NodeScan node = { { 0 }, { g_string_new (NULL), g_string_new (NULL) }, children, profile };
  StrataJsonStatus status = STRATA_JSON_OK;

  for (p++; status == STRATA_JSON_OK;)
    {
      NodeTexts at;

      p = strata_json_skip_space_inline (p, end);
      if (p >= end || *p == ']')
        break;
      if (*p == ',')
        {
          p++;
          continue;
        }
      node.values = (StrataV8NodeValues) { *p == '{', G_MININT64, G_MININT64, NULL, NULL, -1, -1, NULL, 0, NULL, 0, 0 };
      g_string_truncate (node.text[0], 0);
      g_string_truncate (node.text[1], 0);
      at.children = children->len;
      status = *p == '{' ? strata_json_scan_object (p, end, node_member, &node, &p) : strata_json_skip_value (p, end, &p);
      at.function = arena->len;
      g_string_append_len (arena, node.text[0]->str, node.text[0]->len + 1);
      at.url = arena->len;
      g_string_append_len (arena, node.text[1]->str, node.text[1]->len + 1);
      node.values.n_children = children->len - at.children;
      g_array_append_val (nodes, node.values);
      g_array_append_val (texts, at);
    }
  g_string_free (node.text[0], TRUE);
  g_string_free (node.text[1], TRUE);
  if (status != STRATA_JSON_OK || p >= end)
    return FALSE;
  for (guint i = 0; i < nodes->len; i++)
    {
      StrataV8NodeValues *values = &g_array_index (nodes, StrataV8NodeValues, i);
      const NodeTexts *at = &g_array_index (texts, NodeTexts, i);

      values->function = arena->str + at->function;
      values->url = arena->str + at->url;
      values->children = values->n_children > 0 ? (const gint64 *) children->data + at->children : NULL;
    }
  strata_v8_profile_add_node_values (profile, (const StrataV8NodeValues *) nodes->data, nodes->len);
  return TRUE;
}

