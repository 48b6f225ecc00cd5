/* strata-call-node-list.h: the children of a call tree node, as a list
 * whose rows are made only when a view asks for them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "strata-call-tree.h"

G_BEGIN_DECLS

#define STRATA_TYPE_CALL_NODE_LIST (strata_call_node_list_get_type ())

G_DECLARE_FINAL_TYPE (StrataCallNodeList, strata_call_node_list, STRATA, CALL_NODE_LIST, GObject)

StrataCallNodeList *strata_call_node_list_new (StrataCallTree *tree,
                                               guint32         parent,
                                               guint           clock);

G_END_DECLS
