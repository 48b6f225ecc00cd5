/* strata-call-tree-match.h: the same call paths in two traces' call trees
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-call-tree.h"
#include "strata-comparison.h"

G_BEGIN_DECLS

guint32 *strata_call_tree_match_nodes       (StrataCallTree            *current,
                                             StrataCallTree            *baseline,
                                             StrataComparison          *comparison,
                                             GCancellable              *cancellable);
gboolean strata_call_transform_to_baseline  (const StrataCallTransform *transform,
                                             StrataComparison          *comparison,
                                             StrataCallTransform       *translated);
StrataCallTree *strata_call_tree_new_baseline (StrataComparison        *comparison,
                                             int                        thread,
                                             const StrataCallTransform *transforms,
                                             guint                      n_transforms,
                                             gboolean                   inverted,
                                             GCancellable              *cancellable,
                                             GError                   **error);

void     strata_call_tree_match_baseline_async  (StrataComparison          *comparison,
                                                 StrataCallTree            *current,
                                                 int                        thread,
                                                 const StrataCallTransform *transforms,
                                                 guint                      n_transforms,
                                                 GCancellable              *cancellable,
                                                 GAsyncReadyCallback        callback,
                                                 gpointer                   user_data);
StrataCallTree *strata_call_tree_match_baseline_finish (GAsyncResult       *result,
                                                 guint32                  **match,
                                                 GError                   **error);

G_END_DECLS
