/* strata-calls-view.c: every call of the selected method, its durations
 * as a histogram and a list; or a selected counter's figures
 *
 * As Tracy's Find Zone: for the method or slice selected anywhere, how
 * many calls, their total, mean, median, 90th and 99th percentile and
 * longest; a histogram of their durations (equal widths, or equal ratios
 * on a log scale); and the list of calls, sortable by duration, start and
 * thread. Clicking a bar keeps the calls of those durations in the list
 * and marks them on the timeline's ruler; clicking a call selects it in
 * the timeline, and activating it zooms there. For a selected counter
 * sample, each series' lowest, highest and mean value over the view.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "strata-accessible.h"
#include "strata-calls-view.h"
#include "strata-counter-render.h"
#include "strata-method-call-row.h"
#include "strata-table-column.h"
#include "strata-units.h"
#include "strata-widget-color.h"

#define N_BINS 48
#define HISTOGRAM_HEIGHT 110

/* What a column's cells need: the view (for the trace) and the column. */
typedef struct
{
  StrataCallsView *view;
  int              column;
} ColumnSpec;

struct _StrataCallsView
{
  GtkWidget          parent_instance;

  StrataSession     *session;
  StrataMethodCalls *calls;       /* the selected method's, or NULL */
  gboolean           stale;       /* the method changed while hidden */
  gboolean           log_scale;
  guint64            counts[N_BINS];
  gint64             edges[N_BINS + 1];
  int                chosen_bin;  /* -1: none */
  gboolean           syncing;

  GtkWidget         *stack;
  GtkWidget         *title;
  GtkWidget         *summary;
  GtkWidget         *log_button;
  GtkWidget         *all_button;
  GtkWidget         *histogram;
  GtkWidget         *column_view;
  GtkSingleSelection *selection;
  GtkWidget         *counter_label;
  ColumnSpec         specs[3];
};

G_DEFINE_FINAL_TYPE (StrataCallsView, strata_calls_view, GTK_TYPE_WIDGET)

typedef enum
{
  COLUMN_DURATION,
  COLUMN_START,
  COLUMN_THREAD,
} Column;

/* ---- The list ---- */

static char *
cell_text (gpointer row,
           gpointer data)
{
  const StrataMethodCall *call = strata_method_call_row_get (row);
  StrataCallsView *self = ((ColumnSpec *) data)->view;
  Column column = ((ColumnSpec *) data)->column;
  StrataTrace *trace;

  if (column == COLUMN_DURATION)
    return strata_units_format_duration (call->duration);
  trace = self != NULL && self->calls != NULL ? strata_method_calls_get_trace (self->calls) : NULL;
  if (trace == NULL)
    return g_strdup ("");
  if (column == COLUMN_START)
    {
      gint64 origin = strata_trace_get_clock_origin (trace, strata_session_get_clock (self->session));

      return strata_units_format_duration (call->start - origin);
    }
  {
    const StrataThread *thread = strata_trace_get_thread (trace, call->thread);
    const char *name = strata_trace_get_string (trace, thread->name);
    g_autofree char *tid = g_strdup_printf ("%" G_GINT64_FORMAT, thread->tid);

    /* A named thread with no id (0) is its name. */
    if (*name != '\0' && thread->tid == 0)
      return g_strdup (name);
    /* Translators: a thread's name and id on one line */
    return *name != '\0' ? g_strdup_printf (_("%s (%s)"), name, tid)
    /* Translators: a thread without a name, by its id */
                         : g_strdup_printf (_("Thread %s"), tid);
  }
}

static void
sorter_changed_cb (StrataCallsView *self)
{
  static const StrataMethodCallsSort sorts[] = {
    STRATA_METHOD_CALLS_BY_DURATION, STRATA_METHOD_CALLS_BY_START, STRATA_METHOD_CALLS_BY_THREAD,
  };
  gboolean descending;
  int column;

  if (self->calls == NULL)
    return;
  /* The list sorts itself: the header only says by what. */
  column = strata_table_column_probe_sort (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view)), &descending);
  if (column < 0)
    strata_method_calls_sort (self->calls, STRATA_METHOD_CALLS_BY_DURATION, TRUE);
  else
    strata_method_calls_sort (self->calls, sorts[column], descending);
}

static void
add_column (StrataCallsView *self,
            const char      *title,
            Column           column)
{
  GtkSorter *sorter = strata_table_column_sorter_new (column, NULL, NULL);
  g_autoptr(GtkColumnViewColumn) view_column = NULL;

  self->specs[column].view = self;
  self->specs[column].column = column;
  view_column = strata_table_column_new (title, column == COLUMN_THREAD ? STRATA_TABLE_CELL_TEXT : STRATA_TABLE_CELL_NUMBER,
                                         cell_text, &self->specs[column], sorter);

  gtk_column_view_append_column (GTK_COLUMN_VIEW (self->column_view), view_column);
}

static void
call_selected_cb (StrataCallsView *self)
{
  StrataMethodCallRow *row = gtk_single_selection_get_selected_item (self->selection);
  const StrataMethodCall *call;

  if (self->syncing || row == NULL)
    return;
  call = strata_method_call_row_get (row);
  strata_session_select_call (self->session, &(StrataSliceRef) { call->thread, call->depth, call->index });
}

/**
 * strata_calls_view_activate:
 *
 * As Enter or a double click on the row at @position: selects its call in
 * the timeline and zooms to it.
 */
void
strata_calls_view_activate (StrataCallsView *self,
                            guint            position)
{
  g_return_if_fail (STRATA_IS_CALLS_VIEW (self));

  gtk_single_selection_set_selected (self->selection, position);
  call_selected_cb (self);
  strata_session_zoom_to_selected_item (self->session);
}

/* ---- The histogram ---- */

static void
draw_histogram (GtkDrawingArea *area,
                cairo_t        *cr,
                int             width,
                int             height,
                gpointer        data)
{
  StrataCallsView *self = data;
  GdkRGBA fg;
  guint64 tallest = 1;
  /* Room for the tallest bar's count above, the axis below. */
  double bar = (double) width / N_BINS, top = 16, plot = height - 18;
  g_autofree char *low = NULL, *high = NULL, *peak = NULL;

  if (self->calls == NULL)
    return;
  strata_widget_get_color (GTK_WIDGET (area), &fg);
  for (guint b = 0; b < N_BINS; b++)
    tallest = MAX (tallest, self->counts[b]);
  for (guint b = 0; b < N_BINS; b++)
    {
      double h = self->counts[b] == 0 ? 0 : MAX (1.0, (plot - top) * self->counts[b] / tallest);
      gboolean chosen = (int) b == self->chosen_bin;

      if (chosen)
        cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 1.0);
      else
        cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, self->chosen_bin < 0 ? 0.75 : 0.35);
      cairo_rectangle (cr, b * bar + 0.5, plot - h, MAX (1.0, bar - 1), h);
      cairo_fill (cr);
    }
  /* The axis: shortest and longest durations, and the tallest bar. */
  low = strata_units_format_duration (self->edges[0]);
  high = strata_units_format_duration (self->edges[N_BINS]);
  {
    g_autofree char *count = strata_units_format_count (tallest);

    /* Translators: how many calls a search matched */
    peak = g_strdup_printf (ngettext ("%s call", "%s calls", (gulong) tallest), count);
  }
  {
    PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (area), low);
    int w, h;

    cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.7);
    cairo_move_to (cr, 2, plot + 2);
    pango_cairo_show_layout (cr, layout);
    pango_layout_set_text (layout, high, -1);
    pango_layout_get_pixel_size (layout, &w, &h);
    cairo_move_to (cr, width - w - 2, plot + 2);
    pango_cairo_show_layout (cr, layout);
    pango_layout_set_text (layout, peak, -1);
    cairo_move_to (cr, 2, 0);
    pango_cairo_show_layout (cr, layout);
    g_object_unref (layout);
  }
}

static void
update_histogram (StrataCallsView *self)
{
  if (self->calls != NULL)
    strata_method_calls_histogram (self->calls, self->log_scale, N_BINS, self->counts, self->edges);
  gtk_widget_queue_draw (self->histogram);
}

/**
 * strata_calls_view_choose_bin:
 * @bin: a bar of the histogram, or -1 for all calls
 *
 * Keeps in the list, and marks on the timeline, the calls of that bar's
 * durations.
 */
void
strata_calls_view_choose_bin (StrataCallsView *self,
                              int              bin)
{
  g_return_if_fail (STRATA_IS_CALLS_VIEW (self));

  if (self->calls == NULL)
    return;
  if (bin >= N_BINS || (bin >= 0 && self->counts[bin] == 0))
    bin = -1;
  self->chosen_bin = bin;
  if (bin < 0)
    strata_method_calls_set_band (self->calls, 1, 0);
  else
    strata_method_calls_set_band (self->calls, self->edges[bin],
                                  bin == N_BINS - 1 ? self->edges[N_BINS] : self->edges[bin + 1] - 1);
  gtk_widget_set_visible (self->all_button, bin >= 0);
  strata_session_set_marks (self->session, bin >= 0 ? strata_method_calls_dup_marks (self->calls) : NULL);
  gtk_widget_queue_draw (self->histogram);
}

static void
all_durations_cb (StrataCallsView *self)
{
  strata_calls_view_choose_bin (self, -1);
}

static void
histogram_clicked_cb (StrataCallsView *self,
                      int              n_press,
                      double           x,
                      double           y,
                      GtkGestureClick *gesture)
{
  int width = gtk_widget_get_width (self->histogram);
  int bin = width > 0 ? (int) (x * N_BINS / width) : -1;

  strata_calls_view_choose_bin (self, bin == self->chosen_bin ? -1 : bin);
}

void
strata_calls_view_set_log_scale (StrataCallsView *self,
                                 gboolean         log_scale)
{
  g_return_if_fail (STRATA_IS_CALLS_VIEW (self));

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->log_button), log_scale);
}

static void
log_toggled_cb (StrataCallsView *self)
{
  self->log_scale = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->log_button));
  update_histogram (self);
  strata_calls_view_choose_bin (self, -1);
}

/* ---- Following the selection ---- */

static void
show_method (StrataCallsView *self,
             StrataTrace     *trace,
             guint32          method)
{
  StrataMethodCallStats stats;
  g_autofree char *count = NULL, *total = NULL, *mean = NULL, *median = NULL, *p90 = NULL, *p99 = NULL, *max = NULL;
  g_autofree char *title = NULL, *summary = NULL, *name = NULL;

  g_set_object (&self->calls, strata_method_calls_new (trace, strata_session_get_clock (self->session), method));
  g_object_unref (self->calls);
  self->chosen_bin = -1;
  gtk_widget_set_visible (self->all_button, FALSE);
  strata_method_calls_get_stats (self->calls, &stats);
  count = strata_units_format_count (stats.n);
  total = strata_units_format_duration (stats.total);
  mean = strata_units_format_duration ((gint64) llround (stats.mean));
  median = strata_units_format_duration (stats.median);
  p90 = strata_units_format_duration (stats.p90);
  p99 = strata_units_format_duration (stats.p99);
  max = strata_units_format_duration (stats.max);
  /* Translators: how many calls of a method, and its name */
  title = g_strdup_printf (ngettext ("%s call of %s", "%s calls of %s", (gulong) stats.n),
                           count, strata_units_clip_for_display (strata_trace_get_method_name (trace, method), &name));
  /* Translators: figures of a method's call durations */
  summary = g_strdup_printf (_("total %s · mean %s · median %s · 90%% %s · 99%% %s · longest %s"),
                             total, mean, median, p90, p99, max);
  gtk_label_set_label (GTK_LABEL (self->title), title);
  gtk_label_set_label (GTK_LABEL (self->summary), summary);
  self->syncing = TRUE;
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->calls));
  self->syncing = FALSE;
  sorter_changed_cb (self);
  update_histogram (self);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "calls");
}

/* Each series' lowest, highest and time-weighted mean over the view. */
static void
show_counter (StrataCallsView *self,
              StrataTrace     *trace,
              guint            index)
{
  const StrataCounter *counter = strata_trace_get_counter (trace, index);
  g_autoptr(GString) text = g_string_new (NULL);
  gint64 start, end;

  g_autofree char *counter_name = g_markup_escape_text (strata_trace_get_string (trace, counter->name), -1);

  strata_session_get_visible_range (self->session, &start, &end);
  g_string_append_printf (text, "<b>%s</b>\n", counter_name);
  for (guint s = 0; s < counter->n_series; s++)
    {
      double low = INFINITY, high = -INFINITY, area = 0;
      gint64 covered = 0;
      gboolean bytes = strata_counter_in_bytes (trace, counter, s);

      for (gsize i = 0; i < counter->n_samples; i++)
        {
          gint64 from = MAX (counter->times[i], start);
          gint64 to = MIN (i + 1 < counter->n_samples ? counter->times[i + 1] : end, end);
          double value = counter->values[s][i];

          if (to < from || (to == from && counter->times[i] != from))
            continue;
          low = MIN (low, value);
          high = MAX (high, value);
          area += value * (to - from);
          covered += to - from;
        }
      if (isinf (low))
        continue;
      {
        g_autofree char *name = g_markup_escape_text (strata_trace_get_string (trace, counter->series_names[s]), -1);
        g_autofree char *min_text = strata_units_format_quantity (low, bytes);
        g_autofree char *max_text = strata_units_format_quantity (high, bytes);
        g_autofree char *mean_text = strata_units_format_quantity (covered > 0 ? area / covered : low, bytes);

        /* Translators: a counter series' figures over the visible range */
        g_string_append_printf (text, _("%s: lowest %s · highest %s · mean %s\n"), name, min_text, max_text, mean_text);
      }
    }
  g_string_append (text, _("Over the visible range; the mean weighs each value by how long it held."));
  gtk_label_set_markup (GTK_LABEL (self->counter_label), text->str);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "counter");
}

static void
refresh (StrataCallsView *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  guint32 method = strata_session_get_selected_method (self->session);
  guint counter;
  gint64 time;

  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->stale = TRUE;
      return;
    }
  self->stale = FALSE;
  if (trace != NULL && strata_session_get_selected_counter_value (self->session, &counter, &time))
    show_counter (self, trace, counter);
  else if (trace != NULL && method != STRATA_NO_METHOD)
    {
      if (self->calls == NULL || strata_method_calls_get_method (self->calls) != method ||
          strata_method_calls_get_trace (self->calls) != trace)
        show_method (self, trace, method);
      else
        gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "calls");
    }
  else
    gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "empty");
}

static void
trace_changed_cb (StrataCallsView *self)
{
  g_clear_object (&self->calls);
  gtk_single_selection_set_model (self->selection, NULL);
  refresh (self);
}

/* ---- Building ---- */

static GtkWidget *
build_calls_page (StrataCallsView *self)
{
  GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *labels = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  self->title = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->title), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (self->title, "heading");
  self->summary = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->summary), 0);
  gtk_label_set_wrap (GTK_LABEL (self->summary), TRUE);
  gtk_widget_add_css_class (self->summary, "dim-label");
  gtk_box_append (GTK_BOX (labels), self->title);
  gtk_box_append (GTK_BOX (labels), self->summary);
  gtk_widget_set_hexpand (labels, TRUE);
  self->all_button = gtk_button_new_with_mnemonic (_("_All Durations"));
  gtk_widget_set_tooltip_text (self->all_button, _("List every call again"));
  gtk_widget_set_visible (self->all_button, FALSE);
  g_signal_connect_swapped (self->all_button, "clicked", G_CALLBACK (all_durations_cb), self);
  self->log_button = gtk_toggle_button_new_with_mnemonic (_("_Log Scale"));
  gtk_widget_set_tooltip_text (self->log_button, _("Bars of equal duration ratios, so short and long calls both show"));
  g_signal_connect_swapped (self->log_button, "toggled", G_CALLBACK (log_toggled_cb), self);
  gtk_box_append (GTK_BOX (bar), labels);
  gtk_box_append (GTK_BOX (bar), self->all_button);
  gtk_box_append (GTK_BOX (bar), self->log_button);
  g_object_set (bar, "margin-start", 6, "margin-end", 6, "margin-top", 6, NULL);

  self->histogram = gtk_drawing_area_new ();
  gtk_widget_set_size_request (self->histogram, -1, HISTOGRAM_HEIGHT);
  g_object_set (self->histogram, "margin-start", 6, "margin-end", 6, NULL);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->histogram), draw_histogram, self, NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->histogram), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Histogram of call durations; click a bar to list those calls"), -1);
  g_signal_connect_swapped (click, "pressed", G_CALLBACK (histogram_clicked_cb), self);
  gtk_widget_add_controller (self->histogram, GTK_EVENT_CONTROLLER (click));

  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (call_selected_cb), self);
  self->column_view = gtk_column_view_new (GTK_SELECTION_MODEL (g_object_ref (self->selection)));
  gtk_widget_add_css_class (self->column_view, "data-table");
  strata_accessible_name_children (self->column_view, _("Calls"));
  add_column (self, _("Duration"), COLUMN_DURATION);
  add_column (self, _("Start"), COLUMN_START);
  add_column (self, _("Thread"), COLUMN_THREAD);
  g_signal_connect_swapped (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view)), "changed",
                            G_CALLBACK (sorter_changed_cb), self);
  g_signal_connect_swapped (self->column_view, "activate", G_CALLBACK (strata_calls_view_activate), self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->column_view);
  gtk_widget_set_vexpand (scroller, TRUE);

  gtk_box_append (GTK_BOX (page), bar);
  gtk_box_append (GTK_BOX (page), self->histogram);
  gtk_box_append (GTK_BOX (page), scroller);
  return page;
}

static void
build (StrataCallsView *self)
{
  GtkWidget *empty = gtk_label_new (_("Select a method or slice to see all its calls, or a counter to see its figures."));

  gtk_widget_add_css_class (empty, "dim-label");
  gtk_label_set_wrap (GTK_LABEL (empty), TRUE);
  self->counter_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->counter_label), 0);
  gtk_label_set_yalign (GTK_LABEL (self->counter_label), 0);
  gtk_label_set_selectable (GTK_LABEL (self->counter_label), TRUE);
  gtk_label_set_wrap (GTK_LABEL (self->counter_label), TRUE);
  g_object_set (self->counter_label, "margin-start", 12, "margin-top", 12, "margin-end", 12, NULL);
  self->stack = gtk_stack_new ();
  gtk_stack_add_named (GTK_STACK (self->stack), empty, "empty");
  gtk_stack_add_named (GTK_STACK (self->stack), build_calls_page (self), "calls");
  gtk_stack_add_named (GTK_STACK (self->stack), self->counter_label, "counter");
  gtk_widget_set_parent (self->stack, GTK_WIDGET (self));
}

static void
strata_calls_view_dispose (GObject *object)
{
  StrataCallsView *self = STRATA_CALLS_VIEW (object);

  g_clear_pointer (&self->stack, gtk_widget_unparent);
  g_clear_object (&self->selection);
  g_clear_object (&self->calls);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (strata_calls_view_parent_class)->dispose (object);
}

static void
strata_calls_view_map (GtkWidget *widget)
{
  StrataCallsView *self = STRATA_CALLS_VIEW (widget);

  GTK_WIDGET_CLASS (strata_calls_view_parent_class)->map (widget);
  if (self->stale)
    refresh (self);
}

static void
strata_calls_view_class_init (StrataCallsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strata_calls_view_dispose;
  widget_class->map = strata_calls_view_map;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "callsview");
}

static void
strata_calls_view_init (StrataCallsView *self)
{
  self->chosen_bin = -1;
  self->stale = TRUE;
  build (self);
}

GtkWidget *
strata_calls_view_new (StrataSession *session)
{
  StrataCallsView *self;

  g_return_val_if_fail (STRATA_IS_SESSION (session), NULL);

  self = g_object_new (STRATA_TYPE_CALLS_VIEW, NULL);
  self->session = g_object_ref (session);
  g_signal_connect_object (session, "notify::trace", G_CALLBACK (trace_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::clock", G_CALLBACK (trace_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::selected-method", G_CALLBACK (refresh), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "selected-item-changed", G_CALLBACK (refresh), self, G_CONNECT_SWAPPED);
  return GTK_WIDGET (self);
}

/* Returns: (transfer none) (nullable): the calls on show */
StrataMethodCalls *
strata_calls_view_get_calls (StrataCallsView *self)
{
  g_return_val_if_fail (STRATA_IS_CALLS_VIEW (self), NULL);

  return self->calls;
}

/* The figures line: "total … · mean … · median …". */
const char *
strata_calls_view_get_summary (StrataCallsView *self)
{
  g_return_val_if_fail (STRATA_IS_CALLS_VIEW (self), NULL);

  return gtk_label_get_label (GTK_LABEL (gtk_stack_get_visible_child (GTK_STACK (self->stack)) == self->counter_label
                                         ? self->counter_label : self->summary));
}
