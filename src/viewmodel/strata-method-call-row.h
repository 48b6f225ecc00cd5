/* strata-method-call-row.h: one call of a method, as a row of its list
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "strata-method-calls.h"

G_BEGIN_DECLS

#define STRATA_TYPE_METHOD_CALL_ROW (strata_method_call_row_get_type ())

G_DECLARE_FINAL_TYPE (StrataMethodCallRow, strata_method_call_row, STRATA, METHOD_CALL_ROW, GObject)

StrataMethodCallRow    *strata_method_call_row_new  (const StrataMethodCall *call);
const StrataMethodCall *strata_method_call_row_get  (StrataMethodCallRow    *self);

G_END_DECLS
