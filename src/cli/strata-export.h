/* strata-export.h: `strata --export=IMAGE FILE`, a picture without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean strata_export_is_requested (char **argv);
int      strata_export_main         (char **argv);

G_END_DECLS
