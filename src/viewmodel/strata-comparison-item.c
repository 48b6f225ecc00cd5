/* strata-comparison-item.c: one row of a comparison, as a list item
 *
 * Made only for the rows a view shows: the comparison itself is an array.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-comparison-item.h"

struct _StrataComparisonItem
{
  GObject parent_instance;
  guint   row;
};

G_DEFINE_FINAL_TYPE (StrataComparisonItem, strata_comparison_item, G_TYPE_OBJECT)

static void
strata_comparison_item_class_init (StrataComparisonItemClass *klass)
{
}

static void
strata_comparison_item_init (StrataComparisonItem *self)
{
}

StrataComparisonItem *
strata_comparison_item_new (guint row)
{
  StrataComparisonItem *self = g_object_new (STRATA_TYPE_COMPARISON_ITEM, NULL);

  self->row = row;
  return self;
}

/* The row of the comparison this item stands for. */
guint
strata_comparison_item_get_index (StrataComparisonItem *self)
{
  g_return_val_if_fail (STRATA_IS_COMPARISON_ITEM (self), 0);

  return self->row;
}
