/* strata-vec.c: a growable array for loops that append by the million
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-vec.h"

/**
 * strata_vec_reserve_more:
 * @n: elements to make room for after the last
 *
 * Grows @self to room for @n more, at least doubling: a loop of pushes
 * moves each element a constant number of times on average.
 */
void
strata_vec_reserve_more (StrataVec *self,
                         gsize      element_size,
                         guint      n)
{
  gsize wanted = (gsize) self->len + n, room;

  if (wanted <= self->room)
    return;
  if (wanted > G_MAXUINT)
    g_error ("%s: more than %u elements", G_STRLOC, G_MAXUINT);
  room = MAX (MAX (wanted, (gsize) self->room * 2), 16);
  room = MIN (room, (gsize) G_MAXUINT);
  /* g_realloc_n() checks room × element_size against overflow. */
  self->data = g_realloc_n (self->data, room, element_size);
  self->room = (guint) room;
}

/* Frees the elements; @self is empty and can be used again. */
void
strata_vec_clear (StrataVec *self)
{
  g_clear_pointer (&self->data, g_free);
  self->len = 0;
  self->room = 0;
}
