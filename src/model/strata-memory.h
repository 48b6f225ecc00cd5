/* strata-memory.h: large blocks on huge pages
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gpointer strata_memory_try_alloc_large (gsize size);

G_END_DECLS
