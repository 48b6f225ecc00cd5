/* strata-export.h: `strata --export=IMAGE FILE`, a picture without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-cli-options.h"

G_BEGIN_DECLS

int strata_export_run (const StrataCliOptions *options);

G_END_DECLS
