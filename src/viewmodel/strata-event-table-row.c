/* strata-event-table-row.c: one row of the event table, made when a view
 * shows it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-event-table-row.h"

struct _StrataEventTableRow
{
  GObject               parent_instance;
  StrataEventTableEntry entry;
};

G_DEFINE_FINAL_TYPE (StrataEventTableRow, strata_event_table_row, G_TYPE_OBJECT)

static void
strata_event_table_row_class_init (StrataEventTableRowClass *klass)
{
}

static void
strata_event_table_row_init (StrataEventTableRow *self)
{
}

StrataEventTableRow *
strata_event_table_row_new (const StrataEventTableEntry *entry)
{
  StrataEventTableRow *self = g_object_new (STRATA_TYPE_EVENT_TABLE_ROW, NULL);

  self->entry = *entry;
  return self;
}

const StrataEventTableEntry *
strata_event_table_row_get (StrataEventTableRow *self)
{
  g_return_val_if_fail (STRATA_IS_EVENT_TABLE_ROW (self), NULL);

  return &self->entry;
}
