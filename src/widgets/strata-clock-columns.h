/* strata-clock-columns.h: a table's columns grouped by clock, each group
 * shown or hidden from the column headers' menu
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-trace.h"

G_BEGIN_DECLS

#define STRATA_TYPE_CLOCK_COLUMNS (strata_clock_columns_get_type ())

G_DECLARE_FINAL_TYPE (StrataClockColumns, strata_clock_columns, STRATA, CLOCK_COLUMNS, GObject)

StrataClockColumns *strata_clock_columns_new       (GtkWidget           *owner);
void                strata_clock_columns_set_trace (StrataClockColumns  *self,
                                                    StrataTrace         *trace);
StrataTrace        *strata_clock_columns_get_trace (StrataClockColumns  *self);
char               *strata_clock_columns_dup_title (StrataClockColumns  *self,
                                                    const char          *title,
                                                    int                  clock);
void                strata_clock_columns_add       (StrataClockColumns  *self,
                                                    GtkColumnViewColumn *column,
                                                    int                  clock);

G_END_DECLS
