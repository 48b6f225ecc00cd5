/* strata-compare-view.c: the trace on show against a baseline, row by row
 *
 * After Compare With…: per method (or heap class) the baseline's and this
 * file's figures, the delta and the change, sortable by any of them, with
 * methods only one side has marked added or removed. Methods match by
 * full signature or, toggled, by name alone; figures can be shares of
 * each side's own total, for runs of different lengths. Selecting a
 * method selects it everywhere; activating a heap class lists its new
 * instances (objects whose ids the baseline lacks).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-accessible.h"
#include "strata-compare-view.h"
#include "strata-csv-export.h"
#include "strata-export-dialog.h"
#include "strata-table-column.h"
#include "strata-units.h"

#define N_MEASURES 4
#define NAME_KEY 100

typedef struct
{
  StrataCompareView *view;
  StrataFigure       figure;
  StrataMeasure      measure;
} ColumnSpec;

struct _StrataCompareView
{
  GtkWidget             parent_instance;

  StrataSession        *session;
  StrataComparisonList *list;
  gboolean              syncing;

  GtkWidget            *page;          /* the bar over the table: the only child */
  GtkWidget            *title;
  GtkWidget            *summary;
  GtkWidget            *search_entry;
  GtkWidget            *match_button;
  GtkWidget            *normalize_button;
  GtkWidget            *new_button;
  GtkWidget            *column_view;
  GtkSingleSelection   *selection;
  ColumnSpec            specs[STRATA_N_FIGURES][N_MEASURES];
};

G_DEFINE_FINAL_TYPE (StrataCompareView, strata_compare_view, GTK_TYPE_WIDGET)

enum
{
  SHOW_NEW_INSTANCES,
  N_SIGNALS
};

static guint signals[N_SIGNALS];


static const char *
figure_name (StrataFigure figure)
{
  switch (figure)
    {
    /* Translators: column name parts: inclusive time */
    case STRATA_FIGURE_INCLUSIVE: return C_("column", "Incl");
    /* Translators: column name parts: exclusive time */
    case STRATA_FIGURE_EXCLUSIVE: return C_("column", "Excl");
    case STRATA_FIGURE_CALLS: return C_("column", "Calls");
    case STRATA_FIGURE_INSTANCES: return C_("column", "Instances");
    case STRATA_FIGURE_SHALLOW: return C_("column", "Shallow");
    case STRATA_FIGURE_RETAINED: return C_("column", "Retained");
    case STRATA_N_FIGURES:
    default: return "";
    }
}

static char *
column_title (StrataFigure  figure,
              StrataMeasure measure)
{
  const char *name = figure_name (figure);

  switch (measure)
    {
    case STRATA_MEASURE_BEFORE:
      /* Translators: a column: a figure in the baseline file, e.g. "Incl Before" */
      return g_strdup_printf (C_("column", "%s Before"), name);
    case STRATA_MEASURE_AFTER:
      /* Translators: a column: a figure in the file on show, e.g. "Incl After" */
      return g_strdup_printf (C_("column", "%s After"), name);
    case STRATA_MEASURE_DELTA:
      /* Translators: a column: how much a figure changed, e.g. "Δ Incl" */
      return g_strdup_printf (C_("column", "Δ %s"), name);
    case STRATA_MEASURE_CHANGE:
    default:
      /* Translators: a column: how much a figure changed relatively, e.g. "Δ Incl %" */
      return g_strdup_printf (C_("column", "Δ %s %%"), name);
    }
}

static char *
name_text (gpointer row,
           gpointer data)
{
  StrataCompareView *self = data;
  guint index = strata_comparison_item_get_index (row);

  return g_strdup (strata_comparison_get_row (strata_comparison_list_get_comparison (self->list), index)->name);
}

static char *
figure_text (gpointer row,
             gpointer data)
{
  const ColumnSpec *spec = data;

  if (spec->view->list == NULL)
    return g_strdup ("");
  return strata_comparison_list_format (spec->view->list, strata_comparison_item_get_index (row),
                                        spec->figure, spec->measure);
}

/* ---- The table ---- */

static void
sorter_changed_cb (StrataCompareView *self)
{
  gboolean descending;
  int key;

  if (self->list == NULL)
    return;
  key = strata_table_column_probe_sort (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view)), &descending);
  if (key < 0)
    return;
  if (key == NAME_KEY)
    strata_comparison_list_sort (self->list, STRATA_N_FIGURES, 0, descending);
  else
    /* The first click on a figure puts the largest first. */
    strata_comparison_list_sort (self->list, key / N_MEASURES, key % N_MEASURES, !descending);
}

static void
add_column (StrataCompareView   *self,
            const char          *title,
            StrataTableCellKind  kind,
            StrataTableCellText  text,
            gpointer             data,
            int                  key)
{
  g_autoptr(GtkColumnViewColumn) column =
    strata_table_column_new (title, kind, text, data, strata_table_column_sorter_new (key, NULL, NULL));

  gtk_column_view_column_set_resizable (column, TRUE);
  /* Names are long ("pkg.Class.method (args)ret"); figures are short. */
  gtk_column_view_column_set_fixed_width (column, key == NAME_KEY ? 380 : 124);
  gtk_column_view_append_column (GTK_COLUMN_VIEW (self->column_view), column);
}

static void
add_columns (StrataCompareView *self,
             StrataComparison  *comparison)
{
  gboolean heap = strata_comparison_get_kind (comparison) == STRATA_COMPARISON_HEAP;
  guint n;
  const StrataFigure *figures = strata_comparison_get_figures (comparison, &n);

  strata_table_column_remove_all (GTK_COLUMN_VIEW (self->column_view));
  add_column (self, heap ? _("Class") : _("Name"), STRATA_TABLE_CELL_TEXT, name_text, self, NAME_KEY);
  for (guint f = 0; f < n; f++)
    {
      if (!strata_comparison_has_figure (comparison, figures[f]))
        continue;
      for (StrataMeasure m = 0; m < N_MEASURES; m++)
        {
          g_autofree char *title = column_title (figures[f], m);
          ColumnSpec *spec = &self->specs[figures[f]][m];

          *spec = (ColumnSpec) { self, figures[f], m };
          add_column (self, title, STRATA_TABLE_CELL_NUMBER, figure_text, spec, figures[f] * N_MEASURES + m);
        }
    }
}

/* ---- Following the session ---- */

static guint
comparison_clock (StrataCompareView *self,
                  StrataComparison  *comparison)
{
  guint clock = strata_session_get_clock (self->session);

  for (guint c = 0; c < strata_comparison_get_n_clocks (comparison); c++)
    if (strata_comparison_get_clock (comparison, STRATA_SIDE_CURRENT, c) == clock)
      return c;
  return 0;
}

static char *
describe_totals (StrataComparison *comparison,
                 guint             clock)
{
  gboolean heap = strata_comparison_get_kind (comparison) == STRATA_COMPARISON_HEAP;
  StrataFigure figure = strata_comparison_get_whole_figure (comparison);
  gint64 before = strata_comparison_get_total (comparison, STRATA_SIDE_BASELINE, figure, clock);
  gint64 after = strata_comparison_get_total (comparison, STRATA_SIDE_CURRENT, figure, clock);
  g_autofree char *before_text = strata_comparison_format_value (comparison, figure, clock, before, FALSE, FALSE);
  g_autofree char *after_text = strata_comparison_format_value (comparison, figure, clock, after, FALSE, FALSE);
  g_autofree char *change = strata_units_format_percent (after - before, before);
  guint counts[STRATA_N_ROW_STATUSES];

  strata_comparison_count_rows (comparison, counts);
  return g_strdup_printf (heap
                          /* Translators: heap sizes before and after, their change, then counts of classes */
                          ? _("Heap %s, then %s (%s%s) · %u classes in both, %u added, %u removed")
                          /* Translators: traced times before and after, their change, then counts of methods */
                          : _("Traced %s, then %s (%s%s) · %u methods in both, %u added, %u removed"),
                          before_text, after_text, after >= before ? "+" : "", change,
                          counts[STRATA_ROW_IN_BOTH], counts[STRATA_ROW_ADDED], counts[STRATA_ROW_REMOVED]);
}

static void
update_header (StrataCompareView *self,
               StrataComparison  *comparison)
{
  StrataTrace *baseline = strata_comparison_get_trace (comparison, STRATA_SIDE_BASELINE);
  g_autofree char *name = g_file_get_basename (strata_trace_get_file (baseline));
  /* Translators: %s is the file this one is compared with */
  g_autofree char *title = g_strdup_printf (_("Compared with %s"), name);
  g_autofree char *summary = describe_totals (comparison, strata_comparison_list_get_clock (self->list));

  gtk_label_set_label (GTK_LABEL (self->title), title);
  gtk_label_set_label (GTK_LABEL (self->summary), summary);
  gtk_widget_set_visible (self->match_button, strata_comparison_get_kind (comparison) == STRATA_COMPARISON_PROFILE);
  gtk_widget_set_visible (self->new_button, strata_comparison_get_kind (comparison) == STRATA_COMPARISON_HEAP);
  gtk_widget_set_sensitive (self->new_button, FALSE);
}

static void
comparison_changed_cb (StrataCompareView *self)
{
  StrataComparison *comparison = strata_session_get_comparison (self->session);
  gboolean normalized = self->list != NULL && strata_comparison_list_get_normalized (self->list);

  g_clear_object (&self->list);
  gtk_single_selection_set_model (self->selection, NULL);
  gtk_widget_set_visible (GTK_WIDGET (self), comparison != NULL);
  if (comparison == NULL)
    return;

  self->list = strata_comparison_list_new (comparison);
  strata_comparison_list_set_clock (self->list, comparison_clock (self, comparison));
  strata_comparison_list_set_normalized (self->list, normalized);
  strata_comparison_list_set_filter (self->list, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
  add_columns (self, comparison);
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->list));
  update_header (self, comparison);
  self->syncing = TRUE;
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->match_button),
                                strata_session_get_match (self->session) == STRATA_MATCH_NAME);
  self->syncing = FALSE;
}

static void
clock_changed_cb (StrataCompareView *self)
{
  StrataComparison *comparison = strata_session_get_comparison (self->session);

  if (self->list == NULL || comparison == NULL)
    return;
  strata_comparison_list_set_clock (self->list, comparison_clock (self, comparison));
  update_header (self, comparison);
}

/* ---- The controls ---- */

static void
search_changed_cb (StrataCompareView *self)
{
  if (self->list != NULL)
    strata_comparison_list_set_filter (self->list, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

static void
match_toggled_cb (StrataCompareView *self)
{
  gboolean by_name = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->match_button));

  if (!self->syncing)
    strata_session_set_match (self->session, by_name ? STRATA_MATCH_NAME : STRATA_MATCH_SIGNATURE);
}

static void
normalize_toggled_cb (StrataCompareView *self)
{
  if (self->list != NULL)
    strata_comparison_list_set_normalized (self->list,
                                           gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->normalize_button)));
}

static guint
selected_row (StrataCompareView *self)
{
  StrataComparisonItem *item = gtk_single_selection_get_selected_item (self->selection);

  return item != NULL ? strata_comparison_item_get_index (item) : G_MAXUINT;
}

/* A method this trace has is selected everywhere: the timeline shows its
 * calls, the profile its row. */
static void
row_selected_cb (StrataCompareView *self)
{
  StrataComparison *comparison = self->list ? strata_comparison_list_get_comparison (self->list) : NULL;
  guint row = selected_row (self);
  guint32 method;

  if (comparison == NULL || row == G_MAXUINT)
    return;
  method = strata_comparison_get_row (comparison, row)->index[STRATA_SIDE_CURRENT];
  if (strata_comparison_get_kind (comparison) == STRATA_COMPARISON_HEAP)
    gtk_widget_set_sensitive (self->new_button, method != STRATA_COMPARISON_ABSENT);
  else if (method != STRATA_COMPARISON_ABSENT)
    strata_session_set_selected_method (self->session, method);
}

static void
show_new_instances (StrataCompareView *self)
{
  guint row = selected_row (self);

  if (row != G_MAXUINT && gtk_widget_get_sensitive (self->new_button))
    g_signal_emit (self, signals[SHOW_NEW_INSTANCES], 0, row);
}

static void
row_activated_cb (StrataCompareView *self,
                  guint              position)
{
  gtk_single_selection_set_selected (self->selection, position);
  show_new_instances (self);
}

/* ---- Export ---- */

/**
 * strata_compare_view_export:
 *
 * Writes the rows on show, in their order, as CSV (TSV for a .tsv name).
 */
gboolean
strata_compare_view_export (StrataCompareView  *self,
                            GFile              *file,
                            GError            **error)
{
  g_autoptr(StrataCsvWriter) writer = NULL;

  if (self->list == NULL)
    return g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("There is no comparison to export")), FALSE;
  if ((writer = strata_csv_writer_new (file, error)) == NULL)
    return FALSE;
  return strata_csv_export_comparison (writer, self->list, error) && strata_csv_writer_finish (writer, error);
}

static gboolean
export_cb (GtkWidget  *widget,
           GFile      *file,
           gpointer    data,
           GError    **error)
{
  return strata_compare_view_export (STRATA_COMPARE_VIEW (widget), file, error);
}

static void
export_clicked_cb (StrataCompareView *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  g_autofree char *name = strata_csv_export_name (trace, "comparison");

  strata_export_dialog_run (GTK_WIDGET (self), _("Export the Comparison"), name, export_cb, NULL);
}

static GtkWidget *
build_bar (StrataCompareView *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *labels = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *stop = gtk_button_new_from_icon_name ("window-close-symbolic");
  GtkWidget *export = gtk_button_new_from_icon_name ("document-save-as-symbolic");

  self->title = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->title), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (self->title, "heading");
  self->summary = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->summary), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->summary), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (self->summary, "dim-label");
  gtk_box_append (GTK_BOX (labels), self->title);
  gtk_box_append (GTK_BOX (labels), self->summary);
  gtk_widget_set_hexpand (labels, TRUE);

  self->search_entry = gtk_search_entry_new ();
  g_object_set (self->search_entry, "placeholder-text", _("Filter by Name"), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->search_entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Filter by Name"), -1);
  g_signal_connect_swapped (self->search_entry, "search-changed", G_CALLBACK (search_changed_cb), self);
  self->match_button = gtk_toggle_button_new_with_mnemonic (_("Match by _Name"));
  gtk_widget_set_tooltip_text (self->match_button,
                               _("Match methods by name alone, summing overloads, rather than by name and signature"));
  g_signal_connect_swapped (self->match_button, "toggled", G_CALLBACK (match_toggled_cb), self);
  self->normalize_button = gtk_toggle_button_new_with_mnemonic (_("_Shares of Total"));
  gtk_widget_set_tooltip_text (self->normalize_button,
                               _("Show each side as a share of its own total, for runs of different lengths"));
  g_signal_connect_swapped (self->normalize_button, "toggled", G_CALLBACK (normalize_toggled_cb), self);
  self->new_button = gtk_button_new_with_mnemonic (_("New _Instances"));
  gtk_widget_set_tooltip_text (self->new_button,
                               _("Instances of the selected class whose ids the baseline does not have"));
  g_signal_connect_swapped (self->new_button, "clicked", G_CALLBACK (show_new_instances), self);
  gtk_widget_set_tooltip_text (export, _("Export the Rows on Show as CSV or TSV"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (export), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Export the Comparison"), -1);
  g_signal_connect_swapped (export, "clicked", G_CALLBACK (export_clicked_cb), self);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (stop), "win.stop-comparing");
  gtk_widget_set_tooltip_text (stop, _("Stop Comparing"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (stop), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Stop Comparing"), -1);
  gtk_widget_add_css_class (stop, "flat");

  gtk_box_append (GTK_BOX (bar), labels);
  gtk_box_append (GTK_BOX (bar), self->search_entry);
  gtk_box_append (GTK_BOX (bar), self->match_button);
  gtk_box_append (GTK_BOX (bar), self->normalize_button);
  gtk_box_append (GTK_BOX (bar), self->new_button);
  gtk_box_append (GTK_BOX (bar), export);
  gtk_box_append (GTK_BOX (bar), stop);
  g_object_set (bar, "margin-start", 6, "margin-end", 6, "margin-top", 6, NULL);
  return bar;
}

static void
build (StrataCompareView *self)
{
  GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *scroller = gtk_scrolled_window_new ();

  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (row_selected_cb), self);
  self->column_view = gtk_column_view_new (GTK_SELECTION_MODEL (g_object_ref (self->selection)));
  gtk_widget_add_css_class (self->column_view, "data-table");
  gtk_column_view_set_show_column_separators (GTK_COLUMN_VIEW (self->column_view), TRUE);
  strata_accessible_name_children (self->column_view, _("Comparison"));
  g_signal_connect_swapped (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view)), "changed",
                            G_CALLBACK (sorter_changed_cb), self);
  g_signal_connect_swapped (self->column_view, "activate", G_CALLBACK (row_activated_cb), self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->column_view);
  gtk_widget_set_vexpand (scroller, TRUE);

  gtk_box_append (GTK_BOX (page), build_bar (self));
  gtk_box_append (GTK_BOX (page), scroller);
  self->page = page;
  gtk_widget_set_parent (page, GTK_WIDGET (self));
}

static void
strata_compare_view_dispose (GObject *object)
{
  StrataCompareView *self = STRATA_COMPARE_VIEW (object);

  g_clear_pointer (&self->page, gtk_widget_unparent);
  g_clear_object (&self->selection);
  g_clear_object (&self->list);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (strata_compare_view_parent_class)->dispose (object);
}

static void
strata_compare_view_class_init (StrataCompareViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strata_compare_view_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "compareview");

  /**
   * StrataCompareView::show-new-instances:
   * @row: the heap class's row in the comparison
   *
   * The user asked for the instances of a class the baseline lacks.
   */
  signals[SHOW_NEW_INSTANCES] =
    g_signal_new ("show-new-instances", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
strata_compare_view_init (StrataCompareView *self)
{
  build (self);
}

GtkWidget *
strata_compare_view_new (StrataSession *session)
{
  StrataCompareView *self;

  g_return_val_if_fail (STRATA_IS_SESSION (session), NULL);

  self = g_object_new (STRATA_TYPE_COMPARE_VIEW, NULL);
  self->session = g_object_ref (session);
  g_signal_connect_object (session, "notify::comparison", G_CALLBACK (comparison_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::clock", G_CALLBACK (clock_changed_cb), self, G_CONNECT_SWAPPED);
  comparison_changed_cb (self);
  return GTK_WIDGET (self);
}

/* Returns: (transfer none) (nullable): the rows on show */
StrataComparisonList *
strata_compare_view_get_list (StrataCompareView *self)
{
  g_return_val_if_fail (STRATA_IS_COMPARE_VIEW (self), NULL);

  return self->list;
}

/* As a click on the column's header (twice for the other way). */
void
strata_compare_view_sort_by (StrataCompareView *self,
                             StrataFigure       figure,
                             StrataMeasure      measure,
                             gboolean           descending)
{
  GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (self->column_view));

  g_return_if_fail (STRATA_IS_COMPARE_VIEW (self));

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      gboolean reversed;
      int key = strata_table_column_probe_sort (gtk_column_view_column_get_sorter (column), &reversed);

      if (key == (figure == STRATA_N_FIGURES ? NAME_KEY : (int) (figure * N_MEASURES + measure)))
        {
          /* Figures sort largest first on GTK's "ascending". */
          gboolean ascending = figure == STRATA_N_FIGURES ? !descending : descending;
          gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (self->column_view), column,
                                          ascending ? GTK_SORT_ASCENDING : GTK_SORT_DESCENDING);
          return;
        }
    }
}
