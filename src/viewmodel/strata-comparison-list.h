/* strata-comparison-list.h: a comparison's rows as a sortable, filterable list
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "strata-comparison.h"
#include "strata-comparison-item.h"

G_BEGIN_DECLS

#define STRATA_TYPE_COMPARISON_LIST (strata_comparison_list_get_type ())

G_DECLARE_FINAL_TYPE (StrataComparisonList, strata_comparison_list, STRATA, COMPARISON_LIST, GObject)

/* What a column shows of a figure. */
typedef enum
{
  STRATA_MEASURE_BEFORE,
  STRATA_MEASURE_AFTER,
  STRATA_MEASURE_DELTA,
  STRATA_MEASURE_CHANGE,     /* the delta over the baseline */
} StrataMeasure;

StrataComparisonList *strata_comparison_list_new            (StrataComparison     *comparison);
StrataComparison     *strata_comparison_list_get_comparison (StrataComparisonList *self);
guint                 strata_comparison_list_get_row        (StrataComparisonList *self,
                                                             guint                 position);
guint                 strata_comparison_list_find_row       (StrataComparisonList *self,
                                                             guint                 row);
void                  strata_comparison_list_set_clock      (StrataComparisonList *self,
                                                             guint                 clock);
guint                 strata_comparison_list_get_clock      (StrataComparisonList *self);
void                  strata_comparison_list_set_normalized (StrataComparisonList *self,
                                                             gboolean              normalized);
gboolean              strata_comparison_list_get_normalized (StrataComparisonList *self);
void                  strata_comparison_list_set_filter     (StrataComparisonList *self,
                                                             const char           *needle);
void                  strata_comparison_list_sort           (StrataComparisonList *self,
                                                             StrataFigure          figure,
                                                             StrataMeasure         measure,
                                                             gboolean              descending);
double                strata_comparison_list_get_measure    (StrataComparisonList *self,
                                                             guint                 row,
                                                             StrataFigure          figure,
                                                             StrataMeasure         measure);
char                 *strata_comparison_list_format         (StrataComparisonList *self,
                                                             guint                 row,
                                                             StrataFigure          figure,
                                                             StrataMeasure         measure);

G_END_DECLS
