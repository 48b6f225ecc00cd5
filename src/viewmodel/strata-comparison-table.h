/* strata-comparison-table.h: a comparison's rows for a CSV or TSV file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-comparison-list.h"
#include "strata-table-writer.h"

G_BEGIN_DECLS

gboolean strata_comparison_write_table (StrataComparisonList *list,
                                        StrataTableWriter    *writer,
                                        GError              **error);

G_END_DECLS
