/* strata-string-pool.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-string-pool.h"

struct _StrataStringPool
{
  GStringChunk *chunk;
  GHashTable   *ids;      /* string in chunk -> id + 1 */
  GPtrArray    *strings;  /* id -> string in chunk */
};

StrataStringPool *
strata_string_pool_new (void)
{
  StrataStringPool *self = g_new0 (StrataStringPool, 1);

  self->chunk = g_string_chunk_new (4096);
  self->ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->strings = g_ptr_array_new ();
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
  g_hash_table_unref (self->ids);
  g_ptr_array_unref (self->strings);
  g_free (self);
}

guint32
strata_string_pool_intern (StrataStringPool *self,
                           const char       *str)
{
  gpointer value;
  char *copy;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (str != NULL, 0);

  if ((value = g_hash_table_lookup (self->ids, str)))
    return GPOINTER_TO_UINT (value) - 1;

  copy = g_string_chunk_insert (self->chunk, str);
  g_ptr_array_add (self->strings, copy);
  g_hash_table_insert (self->ids, copy, GUINT_TO_POINTER (self->strings->len));

  return self->strings->len - 1;
}

/* Interns the first @len bytes of @str; invalid UTF-8 is repaired so every
 * pooled string can go straight into a label or JSON. */
guint32
strata_string_pool_intern_len (StrataStringPool *self,
                               const char       *str,
                               gssize            len)
{
  g_autofree char *valid = NULL;

  if (len < 0)
    len = strlen (str);

  valid = g_utf8_make_valid (str, len);
  return strata_string_pool_intern (self, valid);
}

const char *
strata_string_pool_get (StrataStringPool *self,
                        guint32           id)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (id < self->strings->len, NULL);

  return g_ptr_array_index (self->strings, id);
}

guint
strata_string_pool_get_size (StrataStringPool *self)
{
  return self->strings->len;
}
