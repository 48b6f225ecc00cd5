/* strata-id-map.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-id-map.h"

#define INITIAL_SIZE 64

void
strata_id_map_init (StrataIdMap *self)
{
  self->keys = NULL;
  self->values = NULL;
  self->mask = 0;
  self->n_items = 0;
}

void
strata_id_map_clear (StrataIdMap *self)
{
  g_clear_pointer (&self->keys, g_free);
  g_clear_pointer (&self->values, g_free);
  self->mask = 0;
  self->n_items = 0;
}

static void
put (guint64 *keys,
     guint32 *values,
     gsize    mask,
     guint64  key,
     guint32  stored)
{
  gsize i = strata_id_map_hash (key) & mask;

  while (values[i] != 0 && keys[i] != key)
    i = (i + 1) & mask;
  keys[i] = key;
  values[i] = stored;
}

static void
grow (StrataIdMap *self)
{
  gsize old_size = self->keys ? self->mask + 1 : 0;
  gsize new_size = old_size ? old_size * 2 : INITIAL_SIZE;
  guint64 *keys = g_new0 (guint64, new_size);
  guint32 *values = g_new0 (guint32, new_size);

  for (gsize i = 0; i < old_size; i++)
    if (self->values[i] != 0)
      put (keys, values, new_size - 1, self->keys[i], self->values[i]);

  g_free (self->keys);
  g_free (self->values);
  self->keys = keys;
  self->values = values;
  self->mask = new_size - 1;
}

/* Inserting an existing key replaces its value. */
void
strata_id_map_insert (StrataIdMap *self,
                      guint64      key,
                      guint32      value)
{
  g_return_if_fail (value < G_MAXUINT32);

  /* Keep the load under one half so probes stay short. */
  if (self->keys == NULL || (self->n_items + 1) * 2 > self->mask + 1)
    grow (self);

  if (strata_id_map_lookup (self, key) == STRATA_ID_MAP_MISSING)
    self->n_items++;
  put (self->keys, self->values, self->mask, key, value + 1);
}

guint
strata_int64_hash (gconstpointer key)
{
  return (guint) strata_id_map_hash (*(const guint64 *) key);
}
