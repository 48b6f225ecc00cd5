/* strata-vec.h: a growable array for loops that append by the million
 *
 * GArray checks every append for overflow with a 64-bit division, and
 * shrinks by moving the (empty) tail: laying out a recording's millions
 * of calls, those two took 6 % of the load. A StrataVec grows the same
 * way, doubling, but checks only when it grows; its append is a compare
 * and a store, its truncation a store.
 *
 * It grows by realloc, as GArray does: a large one moves without being
 * copied and its unused tail takes no memory. For blocks on huge pages,
 * copied as they grow, strata_memory_reserve_large() is the primitive.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gpointer data;
  guint    len;
  guint    room;   /* elements @data has room for */
} StrataVec;

void strata_vec_reserve_more (StrataVec *self,
                              gsize      element_size,
                              guint      n);
void strata_vec_clear        (StrataVec *self);

/**
 * strata_vec_push:
 * @element_size: the same on every call for @self
 *
 * Returns: the new last element, not initialised; valid until the next
 *   push
 */
static inline gpointer
strata_vec_push (StrataVec *self,
                 gsize      element_size)
{
  if (G_UNLIKELY (self->len == self->room))
    strata_vec_reserve_more (self, element_size, 1);
  return (guint8 *) self->data + (gsize) self->len++ * element_size;
}

#define strata_vec_index(vec, type, i)       (((type *) (vec)->data)[(i)])
#define strata_vec_append(vec, type, value)  (*(type *) strata_vec_push ((vec), sizeof (type)) = (value))

/* Keeps the first @len elements; @len is at most the length. */
static inline void
strata_vec_truncate (StrataVec *self,
                     guint      len)
{
  g_assert (len <= self->len);
  self->len = len;
}

G_END_DECLS
