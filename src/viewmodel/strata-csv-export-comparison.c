/* strata-csv-export-comparison.c: a comparison's rows for a CSV or TSV file
 *
 * The rows on show in their order, each figure before, after, its delta
 * and its change: numbers as numbers (ns or samples, bytes, counts, with
 * the unit in the header), the change a plain fraction (0.1 for 10%
 * more), empty where the baseline had none.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "strata-csv-export.h"

static const char *
unit_of (StrataComparison *comparison,
         StrataFigure      figure,
         guint             clock)
{
  StrataTrace *trace = strata_comparison_get_trace (comparison, STRATA_SIDE_CURRENT);

  switch (strata_figure_get_unit (figure))
    {
    case STRATA_UNIT_TIME:
      return strata_csv_export_clock_unit (trace, strata_comparison_get_clock (comparison, STRATA_SIDE_CURRENT, clock));
    case STRATA_UNIT_BYTES:
      return "bytes";
    case STRATA_UNIT_COUNT:
    default:
      return NULL;
    }
}

/* Takes @name. */
static void
add_header (StrataCsvWriter *writer,
            char            *name,
            const char      *unit)
{
  g_autofree char *owned = name;
  g_autofree char *text = unit != NULL ? g_strdup_printf ("%s (%s)", name, unit) : NULL;

  strata_csv_writer_add_text (writer, text != NULL ? text : name);
}

static gboolean
write_header (StrataComparisonList  *list,
              StrataCsvWriter       *writer,
              GError               **error)
{
  StrataComparison *comparison = strata_comparison_list_get_comparison (list);
  guint n;
  const StrataFigure *figures = strata_comparison_get_figures (comparison, &n);
  guint clock = strata_comparison_list_get_clock (list);

  strata_csv_writer_add_text (writer, C_("export", "Name"));
  strata_csv_writer_add_text (writer, C_("export", "Status"));
  for (guint f = 0; f < n; f++)
    {
      const char *id = strata_figure_get_id (figures[f]);
      const char *unit = unit_of (comparison, figures[f], clock);

      if (!strata_comparison_has_figure (comparison, figures[f]))
        continue;
      /* Translators: export column names; %s is a figure's id, such as "incl" */
      add_header (writer, g_strdup_printf (C_("export", "%s before"), id), unit);
      add_header (writer, g_strdup_printf (C_("export", "%s after"), id), unit);
      add_header (writer, g_strdup_printf (C_("export", "%s delta"), id), unit);
      add_header (writer, g_strdup_printf (C_("export", "%s change"), id), NULL);
    }
  return strata_csv_writer_end_row (writer, error);
}

static gboolean
write_row (StrataComparisonList  *list,
           StrataCsvWriter       *writer,
           guint                  row,
           GError               **error)
{
  StrataComparison *comparison = strata_comparison_list_get_comparison (list);
  const StrataComparisonRow *item = strata_comparison_get_row (comparison, row);
  guint n;
  const StrataFigure *figures = strata_comparison_get_figures (comparison, &n);
  guint clock = strata_comparison_list_get_clock (list);

  strata_csv_writer_add_text (writer, item->name);
  strata_csv_writer_add_text (writer, strata_row_status_get_id (strata_comparison_row_status (item)));
  for (guint f = 0; f < n; f++)
    {
      double change;

      if (!strata_comparison_has_figure (comparison, figures[f]))
        continue;
      strata_csv_writer_add_int (writer, strata_comparison_get_value (comparison, row, STRATA_SIDE_BASELINE, figures[f], clock));
      strata_csv_writer_add_int (writer, strata_comparison_get_value (comparison, row, STRATA_SIDE_CURRENT, figures[f], clock));
      strata_csv_writer_add_int (writer, strata_comparison_get_delta (comparison, row, figures[f], clock));
      change = strata_comparison_get_change (comparison, row, figures[f], clock);
      if (isfinite (change))
        strata_csv_writer_add_double (writer, change);
      else
        strata_csv_writer_add_empty (writer);
    }
  return strata_csv_writer_end_row (writer, error);
}

/**
 * strata_csv_export_comparison:
 *
 * Writes the rows @list shows, in its order, on its clock; values as the
 * files have them, whether or not the list shows shares of totals.
 */
gboolean
strata_csv_export_comparison (StrataCsvWriter       *writer,
                              StrataComparisonList  *list,
                              GError               **error)
{
  if (!write_header (list, writer, error))
    return FALSE;
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (list)); i++)
    if (!write_row (list, writer, strata_comparison_list_get_row (list, i), error))
      return FALSE;
  return TRUE;
}
