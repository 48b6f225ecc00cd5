/* strata-json-skim.h: stepping over a container the caller reads again
 *
 * strata_json_skip_value() follows every token, which is most of the
 * work where a recording is mostly call-tree nodes that are read again
 * later (or known by their text). This finds the container's end from
 * its brackets and strings alone, 64 bytes at a time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-json-scan.h"

G_BEGIN_DECLS

StrataJsonStatus strata_json_skim_container (const char  *p,
                                             const char  *end,
                                             const char **value_end);

G_END_DECLS
