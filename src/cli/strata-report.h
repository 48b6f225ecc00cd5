/* strata-report.h: `strata -r`, the profile as text without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean strata_report_is_requested (char **argv);
int      strata_report_main         (char **argv);

G_END_DECLS
