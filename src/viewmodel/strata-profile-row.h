/* strata-profile-row.h: one row of the profile table
 *
 * A method, or (under an expanded method) one of its parents or children.
 * A row stands for a place in the table and is pointed at whatever is
 * shown there; it says so with ::changed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "strata-profile.h"

G_BEGIN_DECLS

#define STRATA_TYPE_PROFILE_ROW (strata_profile_row_get_type ())

G_DECLARE_FINAL_TYPE (StrataProfileRow, strata_profile_row, STRATA, PROFILE_ROW, GObject)

typedef enum
{
  STRATA_PROFILE_ROW_METHOD,
  STRATA_PROFILE_ROW_PARENT,
  STRATA_PROFILE_ROW_CHILD,
} StrataProfileRowKind;

StrataProfileRow     *strata_profile_row_new_method (StrataProfile    *profile,
                                                     guint32           method);
StrataProfileRowKind  strata_profile_row_get_kind   (StrataProfileRow *self);
guint32               strata_profile_row_get_method (StrataProfileRow *self);
const char           *strata_profile_row_get_name   (StrataProfileRow *self);
gint64                strata_profile_row_get_inclusive (StrataProfileRow *self,
                                                        guint             clock);
gint64                strata_profile_row_get_exclusive (StrataProfileRow *self,
                                                        guint             clock);
guint64               strata_profile_row_get_calls  (StrataProfileRow *self);
guint64               strata_profile_row_get_recursive_calls (StrataProfileRow *self);
guint64               strata_profile_row_get_total_calls (StrataProfileRow *self);
gint64                strata_profile_row_get_time_per_call (StrataProfileRow *self,
                                                            guint             clock);
gboolean              strata_profile_row_get_expanded (StrataProfileRow *self);
void                  strata_profile_row_set_method (StrataProfileRow     *self,
                                                     guint32               method,
                                                     gboolean              expanded);
void                  strata_profile_row_set_edge   (StrataProfileRow     *self,
                                                     StrataProfileRowKind  kind,
                                                     guint                 edge);

G_END_DECLS
