/* strata-event-table-row.h: one row of the event table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "strata-event-table.h"

G_BEGIN_DECLS

#define STRATA_TYPE_EVENT_TABLE_ROW (strata_event_table_row_get_type ())

G_DECLARE_FINAL_TYPE (StrataEventTableRow, strata_event_table_row, STRATA, EVENT_TABLE_ROW, GObject)

StrataEventTableRow         *strata_event_table_row_new (const StrataEventTableEntry *entry);
const StrataEventTableEntry *strata_event_table_row_get (StrataEventTableRow         *self);

G_END_DECLS
