/* strata-memory.h: large blocks on huge pages, and arrays in scratch files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gpointer strata_memory_try_alloc_large (gsize size);
gpointer strata_memory_new_large       (gsize n,
                                        gsize size);
gpointer strata_memory_renew_large     (gpointer block,
                                        gsize    n_old,
                                        gsize    n,
                                        gsize    size);
gpointer strata_memory_reserve_large   (gpointer block,
                                        gsize    n_used,
                                        gsize    n,
                                        gsize   *n_alloc,
                                        gsize    size);

char    *strata_scratch_dir            (void);
int      strata_scratch_open           (void);
guint64  strata_scratch_room           (int       fd);
int      strata_write_all              (int         fd,
                                        const void *data,
                                        gsize       len);
gpointer strata_scratch_move           (gpointer  data,
                                        gsize     size,
                                        gboolean *mapped);
void     strata_scratch_release        (gpointer  data,
                                        gsize     size,
                                        gboolean  mapped);
void     strata_scratch_free           (gpointer  data,
                                        gsize     size,
                                        gboolean  mapped);

G_END_DECLS
