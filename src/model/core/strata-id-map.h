/* strata-id-map.h: a fast map from 64-bit ids to 32-bit indexes
 *
 * Open addressing with linear probing; lookups sit on the per-record hot
 * path of the loaders, where GHashTable's indirection costs too much.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define STRATA_ID_MAP_MISSING G_MAXUINT32

typedef struct
{
  guint64 *keys;
  guint32 *values;
  gsize    mask;
  gsize    n_items;
} StrataIdMap;

/* For GHashTables keyed by 64-bit numbers: GLib's g_int64_hash() before
 * 2.76 hashes only the low 32 bits, so keys that differ above (a parent
 * and a child packed in one) all fall in one bucket. */
guint   strata_int64_hash     (gconstpointer key);

void    strata_id_map_init    (StrataIdMap *self);
void    strata_id_map_clear   (StrataIdMap *self);
void    strata_id_map_insert  (StrataIdMap *self,
                               guint64      key,
                               guint32      value);

static inline gsize
strata_id_map_hash (guint64 key)
{
  key ^= key >> 33;
  key *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  key ^= key >> 33;
  return (gsize) key;
}

/* Values are stored + 1 so that a zeroed slot means empty. */
static inline guint32
strata_id_map_lookup (const StrataIdMap *self,
                      guint64            key)
{
  gsize i;

  if (self->keys == NULL)
    return STRATA_ID_MAP_MISSING;

  for (i = strata_id_map_hash (key) & self->mask; self->values[i] != 0; i = (i + 1) & self->mask)
    if (self->keys[i] == key)
      return self->values[i] - 1;

  return STRATA_ID_MAP_MISSING;
}

G_END_DECLS
