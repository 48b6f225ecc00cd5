/* strata-description.h: one description of a call, event or counter value
 *
 * A title and labelled fields, built once from the trace and shown four
 * ways: as the details pane's grid, and as plain text (title, then one
 * "Label: value" line per field) for tooltips, the clipboard and screen
 * readers.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-trace.h"

G_BEGIN_DECLS

typedef struct
{
  char *label;
  char *value;
} StrataDescriptionField;

typedef struct
{
  char   *title;
  GArray *fields;  /* StrataDescriptionField */
} StrataDescription;

StrataDescription *strata_describe_call          (StrataTrace             *trace,
                                                  const StrataSliceRef    *call);
StrataDescription *strata_describe_event         (StrataTrace             *trace,
                                                  guint                    event);
StrataDescription *strata_describe_counter_value (StrataTrace             *trace,
                                                  guint                    counter,
                                                  gint64                   time);
char              *strata_description_to_text    (const StrataDescription *self);
void               strata_description_free       (StrataDescription       *self);
char              *strata_describe_thread_short  (StrataTrace             *trace,
                                                  guint                    index);
char              *strata_describe_process_short (StrataTrace             *trace,
                                                  guint                    index);
char              *strata_describe_thread        (StrataTrace             *trace,
                                                  guint                    thread);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataDescription, strata_description_free)

G_END_DECLS
