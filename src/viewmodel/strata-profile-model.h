/* strata-profile-model.h: the methods of a profile as a flat tree of rows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "strata-profile-row.h"

G_BEGIN_DECLS

#define STRATA_TYPE_PROFILE_MODEL (strata_profile_model_get_type ())

G_DECLARE_FINAL_TYPE (StrataProfileModel, strata_profile_model, STRATA, PROFILE_MODEL, GObject)

typedef enum
{
  STRATA_PROFILE_SORT_NAME,
  STRATA_PROFILE_SORT_INCLUSIVE,
  STRATA_PROFILE_SORT_EXCLUSIVE,
  STRATA_PROFILE_SORT_CALLS,
  STRATA_PROFILE_SORT_PER_CALL,
} StrataProfileSortKey;

StrataProfileModel *strata_profile_model_new          (StrataProfile        *profile);
void                strata_profile_model_set_sort     (StrataProfileModel   *self,
                                                       StrataProfileSortKey  key,
                                                       guint                 clock,
                                                       gboolean              descending);
void                strata_profile_model_set_filter   (StrataProfileModel   *self,
                                                       const char           *needle);
guint               strata_profile_model_get_n_matches (StrataProfileModel  *self);
gboolean            strata_profile_model_is_expandable (StrataProfileModel  *self,
                                                        guint                position);
gboolean            strata_profile_model_get_expanded (StrataProfileModel   *self,
                                                       guint                 position);
void                strata_profile_model_set_expanded (StrataProfileModel   *self,
                                                       guint                 position,
                                                       gboolean              expanded);
guint               strata_profile_model_get_owner    (StrataProfileModel   *self,
                                                       guint                 position);
guint               strata_profile_model_find_method  (StrataProfileModel   *self,
                                                       guint32               method);

G_END_DECLS
