/* strata-widgets.h: what the widget floor needs before its first widget
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void strata_widgets_register_resources (void);

G_END_DECLS
