/* strata-call-tree-table.h: a merged call tree as rows of a table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-call-tree.h"
#include "strata-table-writer.h"

G_BEGIN_DECLS

gboolean strata_call_tree_write_table (StrataCallTree     *tree,
                                       StrataTableWriter  *writer,
                                       GError            **error);

G_END_DECLS
