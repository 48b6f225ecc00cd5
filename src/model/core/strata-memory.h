/* strata-memory.h: large blocks on huge pages, and arrays in scratch files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gpointer strata_memory_try_alloc_large (gsize size);
gpointer strata_memory_try_alloc_sparse (gsize size);
gpointer strata_memory_new_large       (gsize n,
                                        gsize size);
gpointer strata_memory_renew_large     (gpointer block,
                                        gsize    n_old,
                                        gsize    n,
                                        gsize    size);
gpointer strata_memory_grow_large      (gpointer block,
                                        gsize    n_used,
                                        gsize    n,
                                        gsize   *n_alloc,
                                        gsize    size);

/**
 * strata_memory_reserve_large:
 * @block: (nullable): from strata_memory_new_large(), room for *@n_alloc
 *   items, of which the first @n_used are kept
 * @n_alloc: (inout): the items @block has room for
 *
 * Room for @n items: @block as it is when they fit, else grown by
 * strata_memory_grow_large(). Inline, as it is asked for each item
 * added to arrays filled an item at a time.
 *
 * Returns: (transfer full): the items
 */
static inline gpointer
strata_memory_reserve_large (gpointer  block,
                             gsize     n_used,
                             gsize     n,
                             gsize    *n_alloc,
                             gsize     size)
{
  if (G_LIKELY (n <= *n_alloc))
    return block;
  return strata_memory_grow_large (block, n_used, n, n_alloc, size);
}

gsize    strata_memory_leading_zeros   (gconstpointer data,
                                        gsize         len);
void     strata_memory_tune_allocator  (void);
void     strata_memory_give_back       (void);
void     strata_memory_release_front   (gpointer  block,
                                        gsize     consumed,
                                        gsize    *released);
void     strata_memory_release_front_by (gpointer  block,
                                         gsize     consumed,
                                         gsize    *released,
                                         gsize     step);
char    *strata_scratch_dir            (void);
int      strata_scratch_open           (void);
guint64  strata_scratch_room           (int       fd);
int      strata_write_all              (int         fd,
                                        const void *data,
                                        gsize       len);
gpointer strata_scratch_move           (gpointer  data,
                                        gsize     size,
                                        gboolean *mapped);
void     strata_memory_release_span    (gconstpointer from,
                                        gconstpointer to,
                                        gboolean      mapped);
void     strata_scratch_release        (gpointer  data,
                                        gsize     size,
                                        gboolean  mapped);
void     strata_scratch_free           (gpointer  data,
                                        gsize     size,
                                        gboolean  mapped);

G_END_DECLS
