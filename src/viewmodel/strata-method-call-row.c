/* strata-method-call-row.c: one call of a method, as a row of its list
 *
 * Made only for the rows a view shows: the list itself is a compact array.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-method-call-row.h"

struct _StrataMethodCallRow
{
  GObject          parent_instance;
  StrataMethodCall call;
};

G_DEFINE_FINAL_TYPE (StrataMethodCallRow, strata_method_call_row, G_TYPE_OBJECT)

static void
strata_method_call_row_class_init (StrataMethodCallRowClass *klass)
{
}

static void
strata_method_call_row_init (StrataMethodCallRow *self)
{
}

StrataMethodCallRow *
strata_method_call_row_new (const StrataMethodCall *call)
{
  StrataMethodCallRow *self = g_object_new (STRATA_TYPE_METHOD_CALL_ROW, NULL);

  self->call = *call;
  return self;
}

const StrataMethodCall *
strata_method_call_row_get (StrataMethodCallRow *self)
{
  g_return_val_if_fail (STRATA_IS_METHOD_CALL_ROW (self), NULL);

  return &self->call;
}
