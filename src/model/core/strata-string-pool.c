/* strata-string-pool.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-string-pool.h"

/* An open-addressing table over the strings' bytes, so text still in a
 * file (not NUL-terminated) is looked up without a copy. */
struct _StrataStringPool
{
  GStringChunk *chunk;
  GPtrArray    *strings;  /* id -> string in chunk */
  GArray       *lengths;  /* id -> guint32 byte length */
  guint32      *slots;    /* id + 1, or 0 for empty */
  gsize         mask;
};

#define INITIAL_SLOTS 1024

/* Eight bytes at a time: names are hashed once per event. */
static inline guint64
hash_bytes (const char *str,
            gsize       len)
{
  const guint64 k = G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  guint64 h = len * k;
  gsize i = 0;

  for (; i + 8 <= len; i += 8)
    {
      guint64 word;

      memcpy (&word, str + i, 8);
      h = (h ^ word) * k;
      h ^= h >> 32;
    }
  if (i < len)
    {
      guint64 word = 0;

      memcpy (&word, str + i, len - i);
      h = (h ^ word) * k;
    }
  return h ^ (h >> 29);
}

StrataStringPool *
strata_string_pool_new (void)
{
  StrataStringPool *self = g_new0 (StrataStringPool, 1);

  self->chunk = g_string_chunk_new (4096);
  self->strings = g_ptr_array_new ();
  self->lengths = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->slots = g_new0 (guint32, INITIAL_SLOTS);
  self->mask = INITIAL_SLOTS - 1;
  /* Id 0 is the empty string, so a zeroed struct names nothing. */
  strata_string_pool_intern (self, "");

  return self;
}

void
strata_string_pool_free (StrataStringPool *self)
{
  if (self == NULL)
    return;

  g_string_chunk_free (self->chunk);
  g_ptr_array_unref (self->strings);
  g_array_unref (self->lengths);
  g_free (self->slots);
  g_free (self);
}

/* The slot holding @str, or the empty slot where it belongs. */
static gsize
find_slot (StrataStringPool *self,
           const char       *str,
           gsize             len)
{
  gsize i = hash_bytes (str, len) & self->mask;

  for (;; i = (i + 1) & self->mask)
    {
      guint32 id = self->slots[i];

      if (id == 0)
        return i;
      id--;
      if (g_array_index (self->lengths, guint32, id) == len &&
          memcmp (g_ptr_array_index (self->strings, id), str, len) == 0)
        return i;
    }
}

static void
grow (StrataStringPool *self)
{
  gsize n_slots = (self->mask + 1) * 2;

  g_free (self->slots);
  self->slots = g_new0 (guint32, n_slots);
  self->mask = n_slots - 1;
  for (guint32 id = 0; id < self->strings->len; id++)
    {
      const char *str = g_ptr_array_index (self->strings, id);

      self->slots[find_slot (self, str, g_array_index (self->lengths, guint32, id))] = id + 1;
    }
}

/* @str is valid UTF-8 without NUL bytes. */
static guint32
intern_valid (StrataStringPool *self,
              const char       *str,
              gsize             len)
{
  gsize slot = find_slot (self, str, len);
  guint32 length = len;
  char *copy;

  if (self->slots[slot] != 0)
    return self->slots[slot] - 1;

  copy = g_string_chunk_insert_len (self->chunk, str, len);
  g_ptr_array_add (self->strings, copy);
  g_array_append_val (self->lengths, length);
  self->slots[slot] = self->strings->len;
  if (self->strings->len * 2 > self->mask)
    grow (self);

  return self->strings->len - 1;
}

guint32
strata_string_pool_intern (StrataStringPool *self,
                           const char       *str)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (str != NULL, 0);

  return strata_string_pool_intern_len (self, str, -1);
}

/* Interns the first @len bytes of @str; invalid UTF-8 is repaired so every
 * pooled string can go straight into a label or JSON. A NUL byte ends the
 * string. */
guint32
strata_string_pool_intern_len (StrataStringPool *self,
                               const char       *str,
                               gssize            len)
{
  g_autofree char *valid = NULL;
  const char *nul;
  gsize slot;

  if (len < 0)
    len = strlen (str);
  if ((nul = memchr (str, 0, len)) != NULL)
    len = nul - str;

  /* Bytes already pooled are known to be valid. */
  slot = find_slot (self, str, len);
  if (self->slots[slot] != 0)
    return self->slots[slot] - 1;

  if (g_utf8_validate_len (str, len, NULL))
    return intern_valid (self, str, len);
  valid = g_utf8_make_valid (str, len);
  return intern_valid (self, valid, strlen (valid));
}

const char *
strata_string_pool_get (StrataStringPool *self,
                        guint32           id)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (id < self->strings->len, NULL);

  return g_ptr_array_index (self->strings, id);
}

