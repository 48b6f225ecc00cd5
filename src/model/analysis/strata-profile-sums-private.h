/* strata-profile-sums-private.h: the walk that adds up a profile's calls
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-edge-table.h"
#include "strata-profile.h"

G_BEGIN_DECLS

/* What the walk adds up: per method, and per caller and callee. */
typedef struct
{
  StrataProfileEntry *entries;
  StrataEdgeTable    *edges;   /* grouped by caller */
} StrataProfileSums;

gboolean strata_profile_sums_compute (StrataTrace              *trace,
                                      int                       thread,
                                      const StrataProfileRange *range,
                                      guint                     n_clocks,
                                      GCancellable             *cancellable,
                                      StrataProfileSums        *sums,
                                      GError                  **error);

G_END_DECLS
