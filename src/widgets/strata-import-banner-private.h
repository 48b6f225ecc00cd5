/* strata-import-banner-private.h: what tests read of the import banner
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-import-banner.h"

G_BEGIN_DECLS

/* For tests: what the view shows, and driving it as a user would. */
const char *strata_import_banner_get_text  (StrataImportBanner *self);

G_END_DECLS
