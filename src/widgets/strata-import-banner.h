/* strata-import-banner.h: "parts of this file were repaired" above a trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-session.h"

G_BEGIN_DECLS

#define STRATA_TYPE_IMPORT_BANNER (strata_import_banner_get_type ())

G_DECLARE_FINAL_TYPE (StrataImportBanner, strata_import_banner, STRATA, IMPORT_BANNER, GtkWidget)

GtkWidget  *strata_import_banner_new       (StrataSession      *session);
void        strata_import_banner_show_warning (StrataImportBanner *self,
                                               const char         *text);

G_END_DECLS
