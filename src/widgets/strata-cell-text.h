/* strata-cell-text.h: one line of text in a table cell, cheap to refill
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define STRATA_TYPE_CELL_TEXT (strata_cell_text_get_type ())

G_DECLARE_FINAL_TYPE (StrataCellText, strata_cell_text, STRATA, CELL_TEXT, GtkWidget)

GtkWidget  *strata_cell_text_new      (void);
const char *strata_cell_text_get_text (StrataCellText *self);
void        strata_cell_text_set_text (StrataCellText *self,
                                       const char     *text);
void        strata_cell_text_set_xalign (StrataCellText *self,
                                         float           xalign);
void        strata_cell_text_set_ellipsize (StrataCellText     *self,
                                            PangoEllipsizeMode  ellipsize);

G_END_DECLS
