/* strata-comparison-list.c: a comparison's rows as a sortable, filterable list
 *
 * The list is an order over the comparison's rows, cut by a name filter;
 * its items are made only when a view asks for them. With "normalized",
 * each side's figures are shares of that side's own total, so a trace
 * twice as long does not make every method look twice as slow.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "strata-comparison-list.h"

struct _StrataComparisonList
{
  GObject           parent_instance;

  StrataComparison *comparison;
  guint            *order;        /* rows that pass the filter, sorted */
  guint             n_shown;
  guint            *position_of;  /* row → position, or G_MAXUINT when filtered out */
  guint             clock;
  gboolean          normalized;
  char             *needle;       /* casefolded, or NULL */
  StrataFigure      sort_figure;  /* STRATA_N_FIGURES: by name */
  StrataMeasure     sort_measure;
  gboolean          descending;
};

static void strata_comparison_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrataComparisonList, strata_comparison_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, strata_comparison_list_model_init))

static GType
get_item_type (GListModel *model)
{
  return STRATA_TYPE_COMPARISON_ITEM;
}

static guint
get_n_items (GListModel *model)
{
  return STRATA_COMPARISON_LIST (model)->n_shown;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  StrataComparisonList *self = STRATA_COMPARISON_LIST (model);

  if (position >= self->n_shown)
    return NULL;
  return strata_comparison_item_new (self->order[position]);
}

static void
strata_comparison_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
strata_comparison_list_finalize (GObject *object)
{
  StrataComparisonList *self = STRATA_COMPARISON_LIST (object);

  g_clear_object (&self->comparison);
  g_free (self->order);
  g_free (self->position_of);
  g_free (self->needle);
  G_OBJECT_CLASS (strata_comparison_list_parent_class)->finalize (object);
}

static void
strata_comparison_list_class_init (StrataComparisonListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strata_comparison_list_finalize;
}

static void
strata_comparison_list_init (StrataComparisonList *self)
{
}

static double
share (StrataComparisonList *self,
       guint                 row,
       StrataSide            side,
       StrataFigure          figure)
{
  gint64 value = strata_comparison_get_value (self->comparison, row, side, figure, self->clock);
  gint64 total = strata_comparison_get_total (self->comparison, side, figure, self->clock);

  if (!self->normalized)
    return value;
  return total > 0 ? (double) value / (double) total : 0.0;
}

/**
 * strata_comparison_list_get_measure:
 *
 * Returns: @measure of @figure on @row: a value (ns, bytes, a count, or
 *   with normalized a share of the side's total), a delta, or a change
 *   (infinite for a row the baseline lacks, NaN when both are zero)
 */
double
strata_comparison_list_get_measure (StrataComparisonList *self,
                                    guint                 row,
                                    StrataFigure          figure,
                                    StrataMeasure         measure)
{
  double before = share (self, row, STRATA_SIDE_BASELINE, figure);
  double after = share (self, row, STRATA_SIDE_CURRENT, figure);

  switch (measure)
    {
    case STRATA_MEASURE_BEFORE:
      return before;
    case STRATA_MEASURE_AFTER:
      return after;
    case STRATA_MEASURE_DELTA:
      return after - before;
    case STRATA_MEASURE_CHANGE:
    default:
      if (before == 0)
        return after == 0 ? NAN : after > 0 ? INFINITY : -INFINITY;
      return (after - before) / before;
    }
}

static char *
format_share (double   value,
              gboolean signed_)
{
  const char *sign = !signed_ ? "" : value > 0 ? "+" : value < 0 ? "-" : "";

  if (signed_)
    /* Translators: a change of a share in percentage points, e.g. "+1.25 pp" */
    return g_strdup_printf (_("%s%.2f pp"), sign, fabs (value) * 100.0);
  /* Translators: a share of a total, e.g. "12.50%" */
  return g_strdup_printf (_("%.2f%%"), value * 100.0);
}

/**
 * strata_comparison_list_format:
 *
 * Returns: (transfer full): @measure of @figure on @row as a table shows it
 */
char *
strata_comparison_list_format (StrataComparisonList *self,
                               guint                 row,
                               StrataFigure          figure,
                               StrataMeasure         measure)
{
  double value;

  g_return_val_if_fail (STRATA_IS_COMPARISON_LIST (self), NULL);

  /* As shares of totals when asked: the change of the shares. */
  if (measure == STRATA_MEASURE_CHANGE)
    return strata_comparison_format_fraction (self->comparison, row,
                                              strata_comparison_list_get_measure (self, row, figure, measure));
  value = strata_comparison_list_get_measure (self, row, figure, measure);
  if (self->normalized)
    return format_share (value, measure == STRATA_MEASURE_DELTA);
  return strata_comparison_format_value (self->comparison, figure, self->clock, (gint64) value,
                                         measure == STRATA_MEASURE_DELTA, FALSE);
}

typedef struct
{
  double      key;
  const char *name;
  guint       row;
} SortKey;

/* NaN (nothing on either side) sorts after everything, either way. */
static int
compare_keys (const void *a,
              const void *b,
              void       *data)
{
  const SortKey *ka = a, *kb = b;
  gboolean descending = *(const gboolean *) data;
  int order;

  if (isnan (ka->key) != isnan (kb->key))
    return isnan (ka->key) ? 1 : -1;
  if (ka->name != NULL)
    order = g_ascii_strcasecmp (ka->name, kb->name);
  else
    order = ka->key < kb->key ? -1 : ka->key > kb->key;
  if (order == 0)
    return ka->row < kb->row ? -1 : ka->row > kb->row;
  return descending ? -order : order;
}

static gboolean
passes_filter (StrataComparisonList *self,
               guint                 row)
{
  const char *name = strata_comparison_get_row (self->comparison, row)->name;

  return self->needle == NULL || strcasestr (name, self->needle) != NULL;
}

static void
refill (StrataComparisonList *self)
{
  guint n = strata_comparison_get_n_rows (self->comparison);
  g_autofree SortKey *keys = g_new (SortKey, MAX (n, 1));
  gboolean by_name = self->sort_figure == STRATA_N_FIGURES;
  guint old = self->n_shown;
  guint k = 0;

  for (guint row = 0; row < n; row++)
    {
      self->position_of[row] = G_MAXUINT;
      if (!passes_filter (self, row))
        continue;
      double key = by_name ? 0 : strata_comparison_list_get_measure (self, row, self->sort_figure, self->sort_measure);

      /* Changes sort by their size, growth and shrinking alike, as
       * `strata -r --diff` lists them. */
      if (self->sort_measure == STRATA_MEASURE_DELTA || self->sort_measure == STRATA_MEASURE_CHANGE)
        key = fabs (key);
      keys[k++] = (SortKey) {
        key,
        by_name ? strata_comparison_get_row (self->comparison, row)->name : NULL,
        row,
      };
    }
  g_qsort_with_data (keys, k, sizeof *keys, compare_keys, &self->descending);
  for (guint i = 0; i < k; i++)
    {
      self->order[i] = keys[i].row;
      self->position_of[keys[i].row] = i;
    }
  self->n_shown = k;
  g_list_model_items_changed (G_LIST_MODEL (self), 0, old, k);
}

/* The largest growth of the leading figure first: what got slower or
 * bigger is what is looked for. */
StrataComparisonList *
strata_comparison_list_new (StrataComparison *comparison)
{
  StrataComparisonList *self;
  guint n;

  g_return_val_if_fail (STRATA_IS_COMPARISON (comparison), NULL);

  self = g_object_new (STRATA_TYPE_COMPARISON_LIST, NULL);
  self->comparison = g_object_ref (comparison);
  n = strata_comparison_get_n_rows (comparison);
  self->order = g_new (guint, MAX (n, 1));
  self->position_of = g_new (guint, MAX (n, 1));
  self->sort_figure = strata_comparison_get_leading_figure (comparison);
  self->sort_measure = STRATA_MEASURE_DELTA;
  self->descending = TRUE;
  refill (self);
  return self;
}

StrataComparison *
strata_comparison_list_get_comparison (StrataComparisonList *self)
{
  g_return_val_if_fail (STRATA_IS_COMPARISON_LIST (self), NULL);

  return self->comparison;
}

guint
strata_comparison_list_get_row (StrataComparisonList *self,
                                guint                 position)
{
  g_return_val_if_fail (STRATA_IS_COMPARISON_LIST (self) && position < self->n_shown, 0);

  return self->order[position];
}

/* Where @row is in the list, or G_MAXUINT when the filter hides it. */
guint
strata_comparison_list_find_row (StrataComparisonList *self,
                                 guint                 row)
{
  g_return_val_if_fail (STRATA_IS_COMPARISON_LIST (self), G_MAXUINT);

  return row < strata_comparison_get_n_rows (self->comparison) ? self->position_of[row] : G_MAXUINT;
}

void
strata_comparison_list_set_clock (StrataComparisonList *self,
                                  guint                 clock)
{
  g_return_if_fail (STRATA_IS_COMPARISON_LIST (self));

  clock = MIN (clock, MAX (strata_comparison_get_n_clocks (self->comparison), 1) - 1);
  if (self->clock == clock)
    return;
  self->clock = clock;
  refill (self);
}

guint
strata_comparison_list_get_clock (StrataComparisonList *self)
{
  g_return_val_if_fail (STRATA_IS_COMPARISON_LIST (self), 0);

  return self->clock;
}

void
strata_comparison_list_set_normalized (StrataComparisonList *self,
                                       gboolean              normalized)
{
  g_return_if_fail (STRATA_IS_COMPARISON_LIST (self));

  if (self->normalized == !!normalized)
    return;
  self->normalized = !!normalized;
  refill (self);
}

gboolean
strata_comparison_list_get_normalized (StrataComparisonList *self)
{
  g_return_val_if_fail (STRATA_IS_COMPARISON_LIST (self), FALSE);

  return self->normalized;
}

/* Rows whose name holds @needle, without regard to case. */
void
strata_comparison_list_set_filter (StrataComparisonList *self,
                                   const char           *needle)
{
  g_return_if_fail (STRATA_IS_COMPARISON_LIST (self));

  g_clear_pointer (&self->needle, g_free);
  if (needle != NULL && *needle != '\0')
    self->needle = g_strdup (needle);
  refill (self);
}

/**
 * strata_comparison_list_sort:
 * @figure: the figure to sort by, or %STRATA_N_FIGURES for the name
 */
void
strata_comparison_list_sort (StrataComparisonList *self,
                             StrataFigure          figure,
                             StrataMeasure         measure,
                             gboolean              descending)
{
  g_return_if_fail (STRATA_IS_COMPARISON_LIST (self));

  self->sort_figure = figure;
  self->sort_measure = measure;
  self->descending = descending;
  refill (self);
}
