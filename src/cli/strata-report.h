/* strata-report.h: `strata -r`, the profile as text without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-cli-options.h"

G_BEGIN_DECLS

int strata_report_run (const StrataCliOptions *options);

G_END_DECLS
