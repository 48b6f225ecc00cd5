/* strata-profile-model.h: the methods of a profile as a list model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "strata-profile-row.h"

G_BEGIN_DECLS

#define STRATA_TYPE_PROFILE_MODEL (strata_profile_model_get_type ())

G_DECLARE_FINAL_TYPE (StrataProfileModel, strata_profile_model, STRATA, PROFILE_MODEL, GObject)

StrataProfileModel *strata_profile_model_new         (StrataProfile      *profile);
StrataProfile      *strata_profile_model_get_profile (StrataProfileModel *self);
guint               strata_profile_model_count_matches (StrataProfileModel *self,
                                                        const char         *needle);

G_END_DECLS
