/* strata-csv-export.h: every table Strata exports as CSV or TSV
 *
 * The window's exports (profile, call tree, comparison, a heap's classes,
 * objects and allocation sites) and `strata -r --format=csv` write their
 * tables here, through one StrataCsvWriter and one helper for the headers
 * of figures on a clock, so a column reads the same wherever it comes
 * from: times in whole nanoseconds (or samples), sizes in bytes, shares as
 * plain decimals, the unit in the header.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-call-tree.h"
#include "strata-comparison-list.h"
#include "strata-csv-writer.h"
#include "strata-profile.h"

G_BEGIN_DECLS

/* Which figures a clock's four headers name. */
typedef enum
{
  STRATA_CSV_INCL_EXCL,   /* a profile: inclusive and exclusive time */
  STRATA_CSV_TOTAL_SELF,  /* a call tree: total and self time */
} StrataCsvClockFigures;

const char *strata_csv_export_clock_unit        (StrataTrace            *trace,
                                                 guint                   clock);
void        strata_csv_export_add_clock_headers (StrataCsvWriter        *writer,
                                                 StrataTrace            *trace,
                                                 guint                   clock,
                                                 StrataCsvClockFigures   figures);
char       *strata_csv_export_name              (StrataTrace            *trace,
                                                 const char             *view);

gboolean    strata_csv_export_profile           (StrataCsvWriter        *writer,
                                                 StrataProfile          *profile,
                                                 GListModel             *rows,
                                                 GError                **error);
gboolean    strata_csv_export_methods           (StrataCsvWriter        *writer,
                                                 StrataProfile          *profile,
                                                 guint                   clock,
                                                 GError                **error);
gboolean    strata_csv_export_call_tree         (StrataCsvWriter        *writer,
                                                 StrataCallTree         *tree,
                                                 GError                **error);
gboolean    strata_csv_export_comparison        (StrataCsvWriter        *writer,
                                                 StrataComparisonList   *list,
                                                 GError                **error);

gboolean    strata_csv_export_classes           (StrataCsvWriter        *writer,
                                                 GListModel             *rows,
                                                 gboolean                retained,
                                                 GError                **error);
gboolean    strata_csv_export_objects           (StrataCsvWriter        *writer,
                                                 GListModel             *rows,
                                                 GError                **error);
gboolean    strata_csv_export_sites             (StrataCsvWriter        *writer,
                                                 GListModel             *rows,
                                                 GError                **error);
GListModel *strata_csv_export_heap_classes      (StrataTrace            *trace);

G_END_DECLS
