/* strata-cell-scope.h: callbacks of list cell templates, with data
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define STRATA_TYPE_CELL_SCOPE (strata_cell_scope_get_type ())

G_DECLARE_FINAL_TYPE (StrataCellScope, strata_cell_scope, STRATA, CELL_SCOPE, GtkBuilderCScope)

StrataCellScope *strata_cell_scope_new (gpointer data);

G_END_DECLS
