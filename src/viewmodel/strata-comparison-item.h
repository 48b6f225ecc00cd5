/* strata-comparison-item.h: one row of a comparison, as a list item
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define STRATA_TYPE_COMPARISON_ITEM (strata_comparison_item_get_type ())

G_DECLARE_FINAL_TYPE (StrataComparisonItem, strata_comparison_item, STRATA, COMPARISON_ITEM, GObject)

StrataComparisonItem *strata_comparison_item_new       (guint                row);
guint                strata_comparison_item_get_index (StrataComparisonItem *self);

G_END_DECLS
