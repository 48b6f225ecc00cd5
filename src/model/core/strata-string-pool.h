/* strata-string-pool.h: interned strings addressed by a 32-bit id
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _StrataStringPool StrataStringPool;

StrataStringPool *strata_string_pool_new      (void);
void              strata_string_pool_free     (StrataStringPool *self);
guint32           strata_string_pool_intern   (StrataStringPool *self,
                                               const char       *str);
guint32           strata_string_pool_intern_len (StrataStringPool *self,
                                                 const char       *str,
                                                 gssize            len);
const char       *strata_string_pool_get      (StrataStringPool *self,
                                               guint32           id);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataStringPool, strata_string_pool_free)

G_END_DECLS
