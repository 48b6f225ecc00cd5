/* strata-event-table.h: a Trace Event file's events as one list
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "strata-trace.h"

G_BEGIN_DECLS

#define STRATA_TYPE_EVENT_TABLE (strata_event_table_get_type ())

G_DECLARE_FINAL_TYPE (StrataEventTable, strata_event_table, STRATA, EVENT_TABLE, GObject)

/* A call (a thread's span) or, with @thread STRATA_NO_THREAD, the
 * trace's event at @index. */
typedef struct
{
  guint32 thread;
  guint32 depth;
  guint32 index;
} StrataEventTableEntry;

typedef enum
{
  STRATA_EVENT_TABLE_BY_START,
  STRATA_EVENT_TABLE_BY_DURATION,
  STRATA_EVENT_TABLE_BY_NAME,
  STRATA_EVENT_TABLE_BY_CATEGORY,
  STRATA_EVENT_TABLE_BY_THREAD,
} StrataEventTableSort;

StrataEventTable *strata_event_table_new          (StrataTrace                *trace);
StrataTrace      *strata_event_table_get_trace    (StrataEventTable           *self);
guint             strata_event_table_get_n_all   (StrataEventTable           *self);
const StrataEventTableEntry *strata_event_table_get (StrataEventTable         *self,
                                                     guint                     position);
void              strata_event_table_set_range    (StrataEventTable           *self,
                                                   gint64                      start,
                                                   gint64                      end);
void              strata_event_table_clear_range  (StrataEventTable           *self);
void              strata_event_table_set_filter   (StrataEventTable           *self,
                                                   const char                 *text);
void              strata_event_table_sort         (StrataEventTable           *self,
                                                   StrataEventTableSort        sort,
                                                   gboolean                    descending);
guint             strata_event_table_find         (StrataEventTable           *self,
                                                   const StrataEventTableEntry *entry);

gint64            strata_event_table_entry_start  (StrataEventTable           *self,
                                                   const StrataEventTableEntry *entry);
gint64            strata_event_table_entry_duration (StrataEventTable         *self,
                                                     const StrataEventTableEntry *entry);
const char       *strata_event_table_entry_name   (StrataEventTable           *self,
                                                   const StrataEventTableEntry *entry);
const char       *strata_event_table_entry_category (StrataEventTable         *self,
                                                     const StrataEventTableEntry *entry);
const char       *strata_event_table_entry_thread (StrataEventTable           *self,
                                                   const StrataEventTableEntry *entry);
const char       *strata_event_table_entry_args   (StrataEventTable           *self,
                                                   const StrataEventTableEntry *entry);

G_END_DECLS
