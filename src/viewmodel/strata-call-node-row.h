/* strata-call-node-row.h: one node of a call tree, as a row of the table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "strata-call-tree.h"

G_BEGIN_DECLS

#define STRATA_TYPE_CALL_NODE_ROW (strata_call_node_row_get_type ())

G_DECLARE_FINAL_TYPE (StrataCallNodeRow, strata_call_node_row, STRATA, CALL_NODE_ROW, GObject)

StrataCallNodeRow *strata_call_node_row_new          (StrataCallTree    *tree,
                                                      guint32            node,
                                                      guint              clock);
StrataCallTree    *strata_call_node_row_get_tree     (StrataCallNodeRow *self);
guint32            strata_call_node_row_get_node     (StrataCallNodeRow *self);
char              *strata_call_node_row_dup_name     (StrataCallNodeRow *self);
GListModel        *strata_call_node_row_list_children (StrataCallNodeRow *self);

G_END_DECLS
