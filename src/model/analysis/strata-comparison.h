/* strata-comparison.h: two profiles or two heap dumps, method by method
 *
 * A baseline and a current trace are matched by name: methods by their
 * full name and signature (or by name alone, overloads summed), heap
 * classes by class name (classes of the same name summed). Each row holds
 * both sides' figures; a side without the name has zeros and says so.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-profile.h"

G_BEGIN_DECLS

#define STRATA_TYPE_COMPARISON (strata_comparison_get_type ())

G_DECLARE_FINAL_TYPE (StrataComparison, strata_comparison, STRATA, COMPARISON, GObject)

typedef enum
{
  STRATA_COMPARISON_PROFILE,
  STRATA_COMPARISON_HEAP,
} StrataComparisonKind;

typedef enum
{
  STRATA_MATCH_SIGNATURE,      /* full name and signature */
  STRATA_MATCH_NAME,           /* name only: overloads summed */
} StrataMatchMode;

/* What a row measures. Profile figures are per clock; heap figures are not. */
typedef enum
{
  STRATA_FIGURE_INCLUSIVE,
  STRATA_FIGURE_EXCLUSIVE,
  STRATA_FIGURE_CALLS,
  STRATA_FIGURE_INSTANCES,
  STRATA_FIGURE_SHALLOW,
  STRATA_FIGURE_RETAINED,
  STRATA_N_FIGURES,
} StrataFigure;

typedef enum
{
  STRATA_SIDE_BASELINE,
  STRATA_SIDE_CURRENT,
} StrataSide;

typedef enum
{
  STRATA_UNIT_TIME,            /* ns, or samples on a sampled clock */
  STRATA_UNIT_BYTES,
  STRATA_UNIT_COUNT,
} StrataFigureUnit;

#define STRATA_COMPARISON_SLOTS (2 * STRATA_MAX_CLOCKS + 1)
#define STRATA_COMPARISON_ABSENT G_MAXUINT32

typedef struct
{
  const char *name;
  guint32     index[2];        /* method or class per side, or STRATA_COMPARISON_ABSENT */
  gint64      value[2][STRATA_COMPARISON_SLOTS];
} StrataComparisonRow;

gboolean          strata_comparison_check          (StrataTrace       *baseline,
                                                    StrataTrace       *current,
                                                    GError           **error);
StrataComparison *strata_comparison_new            (StrataProfile     *baseline,
                                                    StrataProfile     *current,
                                                    StrataMatchMode    match,
                                                    GError           **error);
StrataComparisonKind strata_comparison_get_kind    (StrataComparison  *self);
StrataMatchMode   strata_comparison_get_match      (StrataComparison  *self);
StrataTrace      *strata_comparison_get_trace      (StrataComparison  *self,
                                                    StrataSide         side);
guint             strata_comparison_get_n_clocks   (StrataComparison  *self);
guint             strata_comparison_get_clock      (StrataComparison  *self,
                                                    StrataSide         side,
                                                    guint              clock);
guint             strata_comparison_get_n_rows     (StrataComparison  *self);
const StrataComparisonRow *strata_comparison_get_row (StrataComparison *self,
                                                    guint              row);
guint             strata_comparison_find_row       (StrataComparison  *self,
                                                    StrataSide         side,
                                                    guint32            index);
gboolean          strata_comparison_has_figure     (StrataComparison  *self,
                                                    StrataFigure       figure);
const StrataFigure *strata_comparison_get_figures  (StrataComparison  *self,
                                                    guint             *n_figures);
StrataFigure      strata_comparison_get_leading_figure (StrataComparison *self);
StrataFigure      strata_comparison_get_whole_figure (StrataComparison *self);
gint64            strata_comparison_get_value      (StrataComparison  *self,
                                                    guint              row,
                                                    StrataSide         side,
                                                    StrataFigure       figure,
                                                    guint              clock);
gint64            strata_comparison_get_delta      (StrataComparison  *self,
                                                    guint              row,
                                                    StrataFigure       figure,
                                                    guint              clock);
double            strata_comparison_get_change     (StrataComparison  *self,
                                                    guint              row,
                                                    StrataFigure       figure,
                                                    guint              clock);
gint64            strata_comparison_get_total      (StrataComparison  *self,
                                                    StrataSide         side,
                                                    StrataFigure       figure,
                                                    guint              clock);
guint32          *strata_comparison_dup_new_objects (StrataComparison *self,
                                                    guint              row,
                                                    guint32           *n_objects);
guint32          *strata_comparison_count_new_objects (StrataComparison *self);
guint             strata_comparison_count_moved_classes (StrataComparison *self,
                                                        guint            *n_compared);
guint            *strata_comparison_sort           (StrataComparison  *self,
                                                    StrataFigure       figure,
                                                    guint              clock);

typedef enum
{
  STRATA_ROW_IN_BOTH,
  STRATA_ROW_ADDED,            /* only in the current file */
  STRATA_ROW_REMOVED,          /* only in the baseline */
} StrataRowStatus;

#define STRATA_N_ROW_STATUSES 3

StrataRowStatus   strata_comparison_row_status     (const StrataComparisonRow *row);
void              strata_comparison_count_rows     (StrataComparison  *self,
                                                    guint              counts[STRATA_N_ROW_STATUSES]);
const char       *strata_row_status_get_id         (StrataRowStatus    status);
char             *strata_comparison_format_value   (StrataComparison  *self,
                                                    StrataFigure       figure,
                                                    guint              clock,
                                                    gint64             value,
                                                    gboolean           signed_,
                                                    gboolean           exact);
char             *strata_comparison_format_fraction (StrataComparison *self,
                                                    guint              row,
                                                    double             change);
char             *strata_comparison_format_change  (StrataComparison  *self,
                                                    guint              row,
                                                    StrataFigure       figure,
                                                    guint              clock);

const char       *strata_figure_get_id             (StrataFigure       figure);
gboolean          strata_figure_from_id            (const char        *id,
                                                    StrataFigure      *figure);
StrataFigureUnit  strata_figure_get_unit           (StrataFigure       figure);
const char       *strata_side_get_id               (StrataSide         side);

G_END_DECLS
