/* strata-timeline.c: the widget around strata-timeline-render.c
 *
 * Owns the layout of tracks and the pointer and keyboard; the visible
 * range, clock and selection live in the session.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "strata-counter-render.h"
#include "strata-track-prefs.h"
#include "strata-timeline.h"
#include "strata-units.h"
#include "strata-widget-color.h"

#define HEADER_TOTAL (STRATA_TIMELINE_OVERVIEW_HEIGHT + STRATA_TIMELINE_RULER_HEIGHT)
#define KEY_ZOOM_FACTOR 1.5
#define WHEEL_ZOOM_BASE 1.2
#define KEY_PAN_FRACTION 0.2
#define WHEEL_PAN_FRACTION 0.1
#define WHEEL_SCROLL_PX 54.0
#define CALL_MARGIN 0.05
#define DRAG_THRESHOLD_PX 3.0

struct _StrataTimeline
{
  GtkWidget            parent_instance;

  StrataSession       *session;
  char                *counter_description;  /* the counter value clicked last */
  GtkAdjustment       *hadjustment;
  GtkAdjustment       *vadjustment;
  GtkScrollablePolicy  hscroll_policy;
  GtkScrollablePolicy  vscroll_policy;

  GArray              *tracks;
  double               content_height;
  StrataTrackPrefs    *prefs;
  guint64              menu_track;     /* the track the context menu is for */
  guint                menu_process;
  GtkWidget           *track_menu;
  gboolean             compact;
  GArray              *marks;
  char                *range_label;
  StrataLabelCache    *label_cache;
  GPtrArray           *counter_lods;   /* StrataCounterLod per counter */
  StrataEventIndex    *events;
  GArray              *flows;          /* StrataFlow: the arrows drawn */
  gboolean             show_all_flows;

  /* Pointer and keyboard */
  double               pointer_x;
  double               pointer_y;
  gboolean             pointer_inside;
  gboolean             has_focus_call;
  guint                focus_thread;
  guint                focus_depth;
  guint32              focus_index;
  gint64               drag_visible_start;
  gint64               drag_visible_end;
  double               drag_start_x;
  double               drag_start_scroll;
  gboolean             dragging_overview;
  gboolean             selecting_range;
  gint64               range_anchor;
  double               zoom_scale;
};

enum {
  PROP_0,
  PROP_SESSION,
  PROP_COMPACT,
  PROP_SHOW_ALL_FLOWS,
  N_PROPS,

  PROP_HADJUSTMENT,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

G_DEFINE_FINAL_TYPE_WITH_CODE (StrataTimeline, strata_timeline, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL))

static GParamSpec *properties[N_PROPS];

/* ---- The view one frame is drawn from ---- */

static void
read_theme (StrataTimeline      *self,
            StrataTimelineTheme *theme)
{
  GdkRGBA fg;

  strata_widget_get_color (GTK_WIDGET (self), &fg);
  theme->fg = (StrataColor) { fg.red, fg.green, fg.blue, fg.alpha };
  theme->dark = 0.299 * fg.red + 0.587 * fg.green + 0.114 * fg.blue > 0.5;
  /* GNOME's accent blue reads well on light and dark backgrounds. */
  theme->accent = theme->dark ? (StrataColor) { 0.47, 0.68, 0.93, 1 }
                              : (StrataColor) { 0.21, 0.52, 0.89, 1 };
}

static void
fill_view (StrataTimeline      *self,
           StrataTimelineView  *view,
           StrataTimelineTheme *theme)
{
  read_theme (self, theme);
  *view = (StrataTimelineView) {
    .trace = strata_session_get_trace (self->session),
    .clock = strata_session_get_clock (self->session),
    .colors = strata_session_get_colors (self->session),
    .selected_method = strata_session_get_selected_method (self->session),
    .marks = self->marks,
    .compact = self->compact,
    .tracks = self->tracks,
    .counter_lods = self->counter_lods,
    .events = self->events,
    .flows = self->flows,
    .scroll_y = gtk_adjustment_get_value (self->vadjustment),
    .width = gtk_widget_get_width (GTK_WIDGET (self)),
    .label_width = STRATA_TIMELINE_LABEL_WIDTH,
    .theme = theme,
    .font = pango_context_get_font_description (gtk_widget_get_pango_context (GTK_WIDGET (self))),
    .label_cache = self->label_cache,
    .range_label = self->range_label,
    .has_focus = self->has_focus_call,
    .focus_thread = self->focus_thread,
    .focus_depth = self->focus_depth,
    .focus_index = self->focus_index,
  };
  strata_session_get_visible_range (self->session, &view->start, &view->end);
  strata_session_get_bounds (self->session, &view->bound_start, &view->bound_end);
  view->has_range = strata_session_get_selection_range (self->session, &view->range_start, &view->range_end);
}

static void
strata_timeline_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  StrataTimeline *self = STRATA_TIMELINE (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  StrataTimelineTheme theme;
  StrataTimelineView view;
  cairo_t *cr;

  if (width <= 0 || height <= 0 || strata_session_get_trace (self->session) == NULL)
    return;

  fill_view (self, &view, &theme);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

  strata_timeline_render_overview (cr, &view);
  cairo_translate (cr, 0, STRATA_TIMELINE_OVERVIEW_HEIGHT);
  strata_timeline_render_ruler (cr, &view);
  cairo_translate (cr, 0, STRATA_TIMELINE_RULER_HEIGHT);
  cairo_rectangle (cr, 0, 0, width, height - HEADER_TOTAL);
  cairo_clip (cr);
  strata_timeline_render_rows (cr, &view, height - HEADER_TOTAL);

  cairo_destroy (cr);
}

/* ---- Layout and scrolling ---- */

static void
configure_vadjustment (StrataTimeline *self)
{
  double page = MAX (0, gtk_widget_get_height (GTK_WIDGET (self)) - HEADER_TOTAL);
  double value;

  if (self->vadjustment == NULL)
    return;
  value = CLAMP (gtk_adjustment_get_value (self->vadjustment), 0, MAX (0, self->content_height - page));
  gtk_adjustment_configure (self->vadjustment, value, 0, MAX (self->content_height, page),
                            STRATA_TIMELINE_ROW_HEIGHT * 3, page * 0.9, page);
}

static void
rebuild_tracks (StrataTimeline *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);

  g_clear_pointer (&self->tracks, g_array_unref);
  self->content_height = 0;
  if (trace != NULL)
    self->tracks = strata_timeline_layout (trace, self->events, self->compact, self->prefs, &self->content_height);
  configure_vadjustment (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
strata_timeline_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  configure_vadjustment (STRATA_TIMELINE (widget));
}

static void
strata_timeline_css_changed (GtkWidget         *widget,
                             GtkCssStyleChange *change)
{
  StrataTimeline *self = STRATA_TIMELINE (widget);

  GTK_WIDGET_CLASS (strata_timeline_parent_class)->css_changed (widget, change);
  /* The font may have changed: labels are laid out again. */
  strata_label_cache_clear (self->label_cache);
}

static void
strata_timeline_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = STRATA_TIMELINE_LABEL_WIDTH + 200;
  else
    *minimum = *natural = HEADER_TOTAL + 120;
}

static void
vadjustment_changed_cb (StrataTimeline *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
set_vadjustment (StrataTimeline *self,
                 GtkAdjustment  *adjustment)
{
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);
  g_clear_object (&self->vadjustment);
  self->vadjustment = g_object_ref_sink (adjustment);
  g_signal_connect_object (self->vadjustment, "value-changed",
                           G_CALLBACK (vadjustment_changed_cb), self, G_CONNECT_SWAPPED);
  configure_vadjustment (self);
}

/* ---- Session ---- */

static void
update_marks (StrataTimeline *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  guint32 method = strata_session_get_selected_method (self->session);

  g_clear_pointer (&self->marks, g_array_unref);
  if (trace != NULL && method != STRATA_NO_METHOD)
    self->marks = strata_trace_collect_calls_of (trace, strata_session_get_clock (self->session), method);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Block maxima for every counter, all series shown. */
static void
rebuild_counter_lods (StrataTimeline *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);

  g_clear_pointer (&self->counter_lods, g_ptr_array_unref);
  g_clear_pointer (&self->events, strata_event_index_free);
  g_clear_pointer (&self->flows, g_array_unref);
  if (trace == NULL)
    return;
  self->counter_lods = g_ptr_array_new_with_free_func ((GDestroyNotify) strata_counter_lod_free);
  for (guint c = 0; c < strata_trace_get_n_counters (trace); c++)
    g_ptr_array_add (self->counter_lods, strata_counter_lod_new (strata_trace_get_counter (trace, c), 0));
}

static void
toggle_counter_series (StrataTimeline *self,
                       guint           counter,
                       guint           series)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  StrataCounterLod *old = g_ptr_array_index (self->counter_lods, counter);
  guint64 hidden = strata_counter_lod_get_hidden (old) ^ (G_GUINT64_CONSTANT (1) << series);

  g_ptr_array_index (self->counter_lods, counter) =
    strata_counter_lod_new (strata_trace_get_counter (trace, counter), hidden);
  strata_counter_lod_free (old);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * strata_timeline_describe_counter:
 *
 * Returns: (transfer full): the time and every series' value held then,
 *   and their sum, for tooltips and screen readers
 */
char *
strata_timeline_describe_counter (StrataTimeline *self,
                                  guint           counter_index,
                                  gint64          time)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  const StrataCounter *counter = strata_trace_get_counter (trace, counter_index);
  gsize at = strata_counter_sample_at (counter, time + 1);
  g_autofree char *when = strata_units_format_duration (time - strata_trace_get_start (trace));
  GString *text = g_string_new (strata_trace_get_string (trace, counter->name));
  double total = 0;

  g_string_append_printf (text, "\n%s", when);
  if (at == 0)
    {
      g_string_append_printf (text, "\n%s", _("No value yet"));
      return g_string_free (text, FALSE);
    }
  for (guint s = 0; s < counter->n_series; s++)
    {
      double value = counter->values[s][at - 1];

      total += value;
      g_string_append_printf (text, "\n%s: %.6g", strata_trace_get_string (trace, counter->series_names[s]), value);
    }
  if (counter->n_series > 1)
    /* Translators: the sum of a counter's series */
    g_string_append_printf (text, _("\nTotal: %.6g"), total);
  return g_string_free (text, FALSE);
}

static void update_accessible_description (StrataTimeline *self);

/**
 * strata_timeline_select_counter_value:
 *
 * A click on a counter chart: its values at @time become what screen
 * readers read for the timeline and what Ctrl+C copies. A call no longer
 * stays selected.
 */
void
strata_timeline_select_counter_value (StrataTimeline *self,
                                      guint           counter,
                                      gint64          time)
{
  g_return_if_fail (STRATA_IS_TIMELINE (self));

  self->has_focus_call = FALSE;
  g_free (self->counter_description);
  self->counter_description = strata_timeline_describe_counter (self, counter, time);
  update_accessible_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * strata_timeline_describe_event:
 *
 * Returns: (transfer full): an event's name, kind, category, time, length
 *   and where it happened, for tooltips and screen readers
 */
char *
strata_timeline_describe_event (StrataTimeline *self,
                                guint           index)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  const StrataEvent *event = strata_trace_get_event (trace, index);
  const char *category = strata_trace_get_string (trace, event->category);
  g_autofree char *at = strata_units_format_duration (event->start - strata_trace_get_start (trace));
  GString *text = g_string_new (strata_trace_get_string (trace, event->name));

  g_string_append_printf (text, "\n%s", strata_event_phase_describe (event->phase));
  if (*category != '\0')
    g_string_append_printf (text, " · %s", category);
  /* Translators: when an event happened, from the start of the trace */
  g_string_append_printf (text, _("\nAt %s"), at);
  if (event->end > event->start)
    {
      g_autofree char *length = strata_units_format_duration (event->end - event->start);

      /* Translators: how long an async slice or object lasted */
      g_string_append_printf (text, _(", lasting %s"), length);
    }
  if (event->id != 0)
    /* Translators: an event's id */
    g_string_append_printf (text, _("\nId %s"), strata_trace_get_string (trace, event->id));
  if (event->thread != STRATA_NO_THREAD)
    {
      const StrataThread *thread = strata_trace_get_thread (trace, event->thread);
      g_autofree char *tid = g_strdup_printf ("%" G_GINT64_FORMAT, thread->tid);

      /* Translators: the thread an event happened on, and its id */
      g_string_append_printf (text, _("\nThread %s (%s)"), strata_trace_get_string (trace, thread->name), tid);
    }
  return g_string_free (text, FALSE);
}

/**
 * strata_timeline_update_flows:
 *
 * The arrows to draw: every flow with "show all flows", else the flows
 * that leave or reach the selected call.
 */
void
strata_timeline_update_flows (StrataTimeline *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  StrataSliceRef call;
  gboolean has_call;

  g_clear_pointer (&self->flows, g_array_unref);
  if (trace == NULL || strata_trace_get_n_flows (trace) == 0)
    return;
  has_call = strata_session_get_selected_item (self->session, &call, NULL) == STRATA_SELECTED_CALL;
  self->flows = g_array_new (FALSE, FALSE, sizeof (StrataFlow));
  for (guint i = 0; i < strata_trace_get_n_flows (trace); i++)
    {
      const StrataFlow *flow = strata_trace_get_flow (trace, i);

      if (self->show_all_flows ||
          (has_call && (memcmp (&flow->from, &call, sizeof call) == 0 || memcmp (&flow->to, &call, sizeof call) == 0)))
        g_array_append_val (self->flows, *flow);
    }
}

/* The selected call, event or counter value in words, or NULL. */
static char *
describe_selection (StrataTimeline *self)
{
  guint event;

  if (self->has_focus_call)
    return strata_timeline_describe_call (self, self->focus_thread, self->focus_depth, self->focus_index);
  if (strata_session_get_trace (self->session) != NULL &&
      strata_session_get_selected_item (self->session, NULL, &event) == STRATA_SELECTED_EVENT)
    return strata_timeline_describe_event (self, event);
  return g_strdup (self->counter_description);
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  g_autofree char *text = describe_selection (STRATA_TIMELINE (widget));

  if (text != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
  else
    gtk_widget_error_bell (widget);
}

/* Another view selected a call (a flow's other end, say): go there. */
static void
selected_item_changed_cb (StrataTimeline *self)
{
  StrataSliceRef call;
  guint event;
  StrataSelectedKind kind = strata_session_get_selected_item (self->session, &call, &event);

  if (kind == STRATA_SELECTED_CALL &&
      (!self->has_focus_call || call.thread != self->focus_thread ||
       call.depth != self->focus_depth || call.index != self->focus_index))
    strata_timeline_focus_call (self, call.thread, call.depth, call.index);
  else if (kind == STRATA_SELECTED_EVENT)
    {
      g_autofree char *description = strata_timeline_describe_event (self, event);

      g_clear_pointer (&self->counter_description, g_free);

      gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
    }
  strata_timeline_update_flows (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
trace_changed_cb (StrataTimeline *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);

  self->has_focus_call = FALSE;
  g_clear_pointer (&self->counter_description, g_free);
  rebuild_counter_lods (self);
  g_clear_pointer (&self->events, strata_event_index_free);
  if (trace != NULL)
    self->events = strata_event_index_new (trace);
  strata_label_cache_clear (self->label_cache);
  strata_track_prefs_reset (self->prefs);
  if (self->vadjustment != NULL)
    gtk_adjustment_set_value (self->vadjustment, 0);
  rebuild_tracks (self);
  update_marks (self);
}

static void
redraw_cb (StrataTimeline *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
update_range_label (StrataTimeline *self,
                    gboolean        count_calls)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  g_autofree char *length = NULL;
  gint64 start, end;

  g_clear_pointer (&self->range_label, g_free);
  if (trace == NULL || !strata_session_get_selection_range (self->session, &start, &end))
    return;

  length = strata_units_format_duration (end - start);
  if (count_calls)
    {
      guint64 n = strata_trace_count_calls_in (trace, strata_session_get_clock (self->session), start, end);
      g_autofree char *calls = strata_units_format_count (n);

      /* Translators: a selected time range: its length and how many calls it holds */
      self->range_label = g_strdup_printf (ngettext ("%s · %s call", "%s · %s calls", n), length, calls);
    }
  else
    self->range_label = g_steal_pointer (&length);
}

static void
selection_range_changed_cb (StrataTimeline *self)
{
  update_range_label (self, !self->selecting_range);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- Calls ---- */

static const StrataSpanTable *
thread_spans (StrataTimeline *self,
              guint           thread)
{
  return strata_trace_get_thread (strata_session_get_trace (self->session), thread)->spans;
}

static gint64
call_exclusive (const StrataSpanTable *table,
                guint                  clock,
                guint                  depth,
                guint32                index)
{
  gint64 time = strata_span_table_get_end (table, clock, depth, index) -
                strata_span_table_get_start (table, clock, depth, index);
  guint32 first, last;

  strata_span_table_get_children (table, depth, index, &first, &last);
  for (guint32 c = first; c < last; c++)
    time -= strata_span_table_get_end (table, clock, depth + 1, c) -
            strata_span_table_get_start (table, clock, depth + 1, c);
  return time;
}

static void
append_clock_times (GString               *text,
                    StrataTrace           *trace,
                    const StrataSpanTable *table,
                    guint                  clock,
                    guint                  depth,
                    guint32                index,
                    gint64                 origin)
{
  g_autofree char *start = strata_units_format_exact_localized (strata_span_table_get_start (table, clock, depth, index) - origin);
  g_autofree char *incl = strata_units_format_exact_localized (strata_span_table_get_end (table, clock, depth, index) -
                                                     strata_span_table_get_start (table, clock, depth, index));
  g_autofree char *excl = strata_units_format_exact_localized (call_exclusive (table, clock, depth, index));

  /* Translators: one clock's times for a call; the first %s is the clock's name */
  g_string_append_printf (text, _("\n%s: starts at %s, inclusive %s, exclusive %s"),
                          strata_trace_get_clock_name (trace, clock), start, incl, excl);
}

/**
 * strata_timeline_describe_call:
 *
 * Returns: (transfer full): plain text for tooltips and screen readers
 */
char *
strata_timeline_describe_call (StrataTimeline *self,
                               guint           thread,
                               guint           depth,
                               guint32         index)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  const StrataThread *info = strata_trace_get_thread (trace, thread);
  const StrataSpanTable *table = info->spans;
  const StrataMethod *method = strata_trace_get_method (trace, table->spans[depth][index].method);
  GString *text = g_string_new (strata_trace_get_string (trace, method->display_name));
  g_autofree char *tid = g_strdup_printf ("%" G_GINT64_FORMAT, info->tid);
  gint64 origin, unused;

  if (method->source_file != 0)
    g_string_append_printf (text, "\n%s", strata_trace_get_string (trace, method->source_file));
  /* Translators: the thread a call ran on, its id, and the call's depth */
  g_string_append_printf (text, _("\nThread %s (%s), depth %u"),
                          strata_trace_get_string (trace, info->name), tid, depth);
  for (guint c = 0; c < strata_trace_get_n_clocks (trace); c++)
    {
      strata_trace_get_clock_range (trace, c, &origin, &unused);
      append_clock_times (text, trace, table, c, depth, index, origin);
    }
  if (depth < info->n_entered_before && index == 0)
    g_string_append_printf (text, "\n%s", _("Already running when tracing began"));

  return g_string_free (text, FALSE);
}

static void
update_accessible_description (StrataTimeline *self)
{
  g_autofree char *description = NULL;

  if (self->has_focus_call)
    {
      g_clear_pointer (&self->counter_description, g_free);
      description = strata_timeline_describe_call (self, self->focus_thread, self->focus_depth, self->focus_index);
    }
  else
    description = g_strdup (self->counter_description);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  description ? description : _("No call selected"),
                                  -1);
}

static void
scroll_to_call (StrataTimeline *self)
{
  const StrataSpanTable *table = thread_spans (self, self->focus_thread);
  guint clock = strata_session_get_clock (self->session);
  gint64 start = strata_span_table_get_start (table, clock, self->focus_depth, self->focus_index);
  gint64 end = strata_span_table_get_end (table, clock, self->focus_depth, self->focus_index);
  gint64 visible_start, visible_end;

  strata_session_get_visible_range (self->session, &visible_start, &visible_end);
  if (end < visible_start || start > visible_end)
    strata_session_set_visible_range (self->session,
                                      start - (visible_end - visible_start) / 2,
                                      start + (visible_end - visible_start) / 2);

  for (guint i = 0; self->tracks && i < self->tracks->len; i++)
    {
      const StrataTrack *track = &g_array_index (self->tracks, StrataTrack, i);
      double row_y;

      if (track->kind != STRATA_TRACK_THREAD || track->index != self->focus_thread)
        continue;
      row_y = track->y + (self->compact ? 0 : self->focus_depth * STRATA_TIMELINE_ROW_HEIGHT);
      gtk_adjustment_clamp_page (self->vadjustment, row_y - STRATA_TIMELINE_ROW_HEIGHT,
                                 row_y + 2 * STRATA_TIMELINE_ROW_HEIGHT);
    }
}

/* Keyboard focus moves between calls; the focused call's method is the
 * session's selected method. */
void
strata_timeline_focus_call (StrataTimeline *self,
                            guint           thread,
                            guint           depth,
                            guint32         index)
{
  const StrataSpanTable *table;

  g_return_if_fail (STRATA_IS_TIMELINE (self));
  g_return_if_fail (strata_session_get_trace (self->session) != NULL);

  table = thread_spans (self, thread);
  g_return_if_fail (table != NULL && depth < table->n_depths && index < table->n_spans[depth]);

  self->has_focus_call = TRUE;
  self->focus_thread = thread;
  self->focus_depth = depth;
  self->focus_index = index;
  strata_session_select_call (self->session, &(StrataSliceRef) { thread, depth, index });
  scroll_to_call (self);
  update_accessible_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
strata_timeline_get_focused_call (StrataTimeline *self,
                                  guint          *thread,
                                  guint          *depth,
                                  guint32        *index)
{
  g_return_val_if_fail (STRATA_IS_TIMELINE (self), FALSE);

  *thread = self->focus_thread;
  *depth = self->focus_depth;
  *index = self->focus_index;
  return self->has_focus_call;
}

static void
zoom_to_call (StrataTimeline *self,
              guint           thread,
              guint           depth,
              guint32         index)
{
  const StrataSpanTable *table = thread_spans (self, thread);
  guint clock = strata_session_get_clock (self->session);
  gint64 start = strata_span_table_get_start (table, clock, depth, index);
  gint64 end = strata_span_table_get_end (table, clock, depth, index);
  gint64 margin = (end - start) * CALL_MARGIN;

  strata_session_set_visible_range (self->session, start - margin, end + margin);
}

/* ---- Pointer ---- */

static gboolean
hit_at (StrataTimeline    *self,
        double             x,
        double             y,
        StrataTimelineHit *hit)
{
  StrataTimelineTheme theme;
  StrataTimelineView view;

  if (strata_session_get_trace (self->session) == NULL || y < HEADER_TOTAL)
    return FALSE;
  fill_view (self, &view, &theme);
  return strata_timeline_hit_test (&view, x, y - HEADER_TOTAL, hit);
}

static gint64
time_at (StrataTimeline *self,
         double          x)
{
  StrataTimelineTheme theme;
  StrataTimelineView view;

  fill_view (self, &view, &theme);
  return strata_timeline_time_at (&view, MAX (x, view.label_width));
}

static void
toggle_process (StrataTimeline *self,
                guint           process)
{
  strata_track_prefs_toggle_process (self->prefs, process);
  rebuild_tracks (self);
}

/* ---- The track menu ---- */

/* The labels say what each item will do to this track. */
static GMenuModel *
build_track_menu (gboolean collapsed,
                  gboolean pinned,
                  guint    n_hidden)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GMenu) move = g_menu_new ();

  g_menu_append (menu, collapsed ? _("_Expand") : _("_Collapse"), "timeline.track-collapse");
  g_menu_append (menu, pinned ? _("_Unpin") : _("_Pin to Top"), "timeline.track-pin");
  g_menu_append (menu, _("_Hide"), "timeline.track-hide");
  if (!pinned)
    {
      g_menu_append (move, _("Move _Up"), "timeline.track-move-up");
      g_menu_append (move, _("Move _Down"), "timeline.track-move-down");
      g_menu_append_section (menu, NULL, G_MENU_MODEL (move));
    }
  if (n_hidden > 0)
    {
      g_autoptr(GMenu) all = g_menu_new ();
      /* Translators: %u is a number of hidden tracks */
      g_autofree char *label = g_strdup_printf (ngettext ("_Show %u Hidden Track", "_Show %u Hidden Tracks", n_hidden),
                                                n_hidden);

      g_menu_append (all, label, "timeline.show-hidden-tracks");
      g_menu_append_section (menu, NULL, G_MENU_MODEL (all));
    }
  return G_MENU_MODEL (menu);
}

static void
open_track_menu (StrataTimeline    *self,
                 const StrataTrack *track,
                 double             x,
                 double             y)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  guint64 key = strata_track_key (track->kind, track->index);
  g_autoptr(GMenuModel) model = NULL;

  self->menu_track = key;
  self->menu_process = track->kind == STRATA_TRACK_THREAD ? strata_trace_get_thread (trace, track->index)->process
                     : track->kind == STRATA_TRACK_COUNTER ? strata_trace_get_counter (trace, track->index)->process
                     : track->index;
  model = build_track_menu (track->collapsed, strata_track_prefs_is_pinned (self->prefs, key),
                            g_hash_table_size (self->prefs->hidden));
  if (self->track_menu == NULL)
    {
      self->track_menu = gtk_popover_menu_new_from_model (model);
      gtk_widget_set_parent (self->track_menu, GTK_WIDGET (self));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->track_menu), FALSE);
      gtk_widget_set_halign (self->track_menu, GTK_ALIGN_START);
    }
  else
    gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->track_menu), model);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->track_menu), &(GdkRectangle) { x, y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->track_menu));
}

static void
track_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  StrataTimeline *self = STRATA_TIMELINE (widget);
  StrataTrace *trace = strata_session_get_trace (self->session);

  if (trace == NULL)
    return;
  if (g_str_equal (action_name, "timeline.track-collapse"))
    strata_track_prefs_toggle_collapsed (self->prefs, self->menu_track);
  else if (g_str_equal (action_name, "timeline.track-hide"))
    strata_track_prefs_hide (self->prefs, self->menu_track);
  else if (g_str_equal (action_name, "timeline.track-pin"))
    strata_track_prefs_toggle_pinned (self->prefs, self->menu_track);
  else if (g_str_equal (action_name, "timeline.show-hidden-tracks"))
    strata_track_prefs_show_hidden (self->prefs);
  else
    {
      g_autoptr(GArray) shown = strata_timeline_process_tracks (trace, self->events, self->menu_process, self->prefs);

      strata_track_prefs_move (self->prefs, shown, self->menu_track,
                               g_str_equal (action_name, "timeline.track-move-up") ? -1 : 1);
    }
  rebuild_tracks (self);
}

/**
 * strata_timeline_get_tracks:
 *
 * Returns: (transfer none) (nullable): the tracks as laid out, top first
 */
const GArray *
strata_timeline_get_tracks (StrataTimeline *self)
{
  g_return_val_if_fail (STRATA_IS_TIMELINE (self), NULL);

  return self->tracks;
}

/**
 * strata_timeline_get_track_prefs:
 *
 * Returns: (transfer none): what the user changed about the tracks
 */
StrataTrackPrefs *
strata_timeline_get_track_prefs (StrataTimeline *self)
{
  g_return_val_if_fail (STRATA_IS_TIMELINE (self), NULL);

  return self->prefs;
}

/**
 * strata_timeline_track_menu_for:
 *
 * Points the track actions at the track with this kind and index, as a
 * right click on its label does.
 */
void
strata_timeline_track_menu_for (StrataTimeline  *self,
                                StrataTrackKind  kind,
                                guint            index,
                                guint            process)
{
  g_return_if_fail (STRATA_IS_TIMELINE (self));

  self->menu_track = strata_track_key (kind, index);
  self->menu_process = process;
}

static void
secondary_pressed_cb (StrataTimeline  *self,
                      int              n_press,
                      double           x,
                      double           y,
                      GtkGestureClick *gesture)
{
  StrataTimelineHit hit;
  const StrataTrack *track;

  if (!hit_at (self, x, y, &hit) || x >= STRATA_TIMELINE_LABEL_WIDTH)
    return;
  track = &g_array_index (self->tracks, StrataTrack, hit.track);
  if (track->kind != STRATA_TRACK_PROCESS)
    open_track_menu (self, track, x, y);
}

static void
click_pressed_cb (StrataTimeline  *self,
                  int              n_press,
                  double           x,
                  double           y,
                  GtkGestureClick *gesture)
{
  StrataTimelineHit hit;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (!hit_at (self, x, y, &hit))
    return;

  if (hit.kind == STRATA_HIT_PROCESS && n_press == 1)
    toggle_process (self, g_array_index (self->tracks, StrataTrack, hit.track).index);
  else if (hit.kind == STRATA_HIT_SPAN && n_press == 1)
    strata_timeline_focus_call (self, hit.thread, hit.depth, hit.index);
  else if (hit.kind == STRATA_HIT_SPAN && n_press == 2)
    zoom_to_call (self, hit.thread, hit.depth, hit.index);
  else if (hit.kind == STRATA_HIT_COUNTER_LEGEND && n_press == 1)
    toggle_counter_series (self, hit.index, hit.depth);
  else if (hit.kind == STRATA_HIT_EVENT && n_press == 1)
    strata_session_select_event (self->session, hit.index);
  else if (hit.kind == STRATA_HIT_COUNTER && n_press == 1)
    strata_timeline_select_counter_value (self, hit.index, hit.time);
}

static void
drag_begin_cb (StrataTimeline *self,
               double          x,
               double          y,
               GtkGestureDrag *gesture)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  strata_session_get_visible_range (self->session, &self->drag_visible_start, &self->drag_visible_end);
  self->drag_start_x = x;
  self->drag_start_scroll = gtk_adjustment_get_value (self->vadjustment);
  self->dragging_overview = y < STRATA_TIMELINE_OVERVIEW_HEIGHT;
  self->selecting_range = !self->dragging_overview && (state & GDK_SHIFT_MASK) != 0;
  if (self->selecting_range)
    self->range_anchor = time_at (self, x);
}

static void
move_overview_window (StrataTimeline *self,
                      double          x)
{
  gint64 bound_start, bound_end, width = self->drag_visible_end - self->drag_visible_start;
  double area = MAX (1.0, gtk_widget_get_width (GTK_WIDGET (self)) - STRATA_TIMELINE_LABEL_WIDTH);
  gint64 center;

  strata_session_get_bounds (self->session, &bound_start, &bound_end);
  center = bound_start + (x - STRATA_TIMELINE_LABEL_WIDTH) * (bound_end - bound_start) / area;
  strata_session_set_visible_range (self->session, center - width / 2, center - width / 2 + width);
}

static void
drag_update_cb (StrataTimeline *self,
                double          dx,
                double          dy,
                GtkGestureDrag *gesture)
{
  double area = MAX (1.0, gtk_widget_get_width (GTK_WIDGET (self)) - STRATA_TIMELINE_LABEL_WIDTH);
  gint64 shift;

  if (self->dragging_overview)
    {
      move_overview_window (self, self->drag_start_x + dx);
      return;
    }
  if (self->selecting_range)
    {
      strata_session_set_selection_range (self->session, self->range_anchor,
                                          time_at (self, self->drag_start_x + dx));
      return;
    }

  shift = dx * (self->drag_visible_end - self->drag_visible_start) / area;
  strata_session_set_visible_range (self->session, self->drag_visible_start - shift,
                                    self->drag_visible_end - shift);
  gtk_adjustment_set_value (self->vadjustment, self->drag_start_scroll - dy);
}

static void
drag_end_cb (StrataTimeline *self,
             double          dx,
             double          dy,
             GtkGestureDrag *gesture)
{
  if (self->selecting_range)
    {
      gint64 start, end;

      self->selecting_range = FALSE;
      /* A shift-click is not a range. */
      if (ABS (dx) < DRAG_THRESHOLD_PX &&
          strata_session_get_selection_range (self->session, &start, &end))
        strata_session_clear_selection (self->session);
      update_range_label (self, TRUE);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
  self->dragging_overview = FALSE;
}

static gint64
pointer_anchor (StrataTimeline *self)
{
  gint64 start, end;

  if (self->pointer_inside && self->pointer_x >= STRATA_TIMELINE_LABEL_WIDTH)
    return time_at (self, self->pointer_x);
  strata_session_get_visible_range (self->session, &start, &end);
  return start + (end - start) / 2;
}

static gboolean
scroll_cb (StrataTimeline           *self,
           double                    dx,
           double                    dy,
           GtkEventControllerScroll *controller)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (strata_session_get_trace (self->session) == NULL)
    return FALSE;

  if (state & GDK_CONTROL_MASK)
    strata_session_zoom (self->session, pow (WHEEL_ZOOM_BASE, -dy), pointer_anchor (self));
  else if ((state & GDK_SHIFT_MASK) || dx != 0)
    strata_session_pan (self->session, (dx != 0 ? dx : dy) * WHEEL_PAN_FRACTION);
  else
    gtk_adjustment_set_value (self->vadjustment,
                              gtk_adjustment_get_value (self->vadjustment) + dy * WHEEL_SCROLL_PX);
  return TRUE;
}

static void
zoom_begin_cb (StrataTimeline *self,
               GdkEventSequence *sequence,
               GtkGestureZoom *gesture)
{
  self->zoom_scale = 1.0;
}

static void
zoom_scale_changed_cb (StrataTimeline *self,
                       double          scale,
                       GtkGestureZoom *gesture)
{
  double x, y;

  if (scale <= 0)
    return;
  gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &x, &y);
  strata_session_zoom (self->session, scale / self->zoom_scale, time_at (self, x));
  self->zoom_scale = scale;
}

static void
motion_cb (StrataTimeline           *self,
           double                    x,
           double                    y,
           GtkEventControllerMotion *controller)
{
  self->pointer_x = x;
  self->pointer_y = y;
  self->pointer_inside = TRUE;
}

static void
leave_cb (StrataTimeline *self)
{
  self->pointer_inside = FALSE;
}

static gboolean
query_tooltip_cb (StrataTimeline *self,
                  int             x,
                  int             y,
                  gboolean        keyboard,
                  GtkTooltip     *tooltip)
{
  StrataTimelineHit hit;
  g_autofree char *text = NULL;

  if (keyboard && self->has_focus_call)
    text = strata_timeline_describe_call (self, self->focus_thread, self->focus_depth, self->focus_index);
  else if (hit_at (self, x, y, &hit) && hit.kind == STRATA_HIT_SPAN)
    text = strata_timeline_describe_call (self, hit.thread, hit.depth, hit.index);
  else if (hit.kind == STRATA_HIT_COUNTER)
    text = strata_timeline_describe_counter (self, hit.index, hit.time);
  else if (hit.kind == STRATA_HIT_EVENT)
    text = strata_timeline_describe_event (self, hit.index);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* ---- Actions ---- */

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  StrataTimeline *self = STRATA_TIMELINE (widget);
  gboolean in = g_str_equal (action_name, "timeline.zoom-in");

  strata_session_zoom (self->session, in ? KEY_ZOOM_FACTOR : 1 / KEY_ZOOM_FACTOR, pointer_anchor (self));
}

static void
pan_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *param)
{
  StrataTimeline *self = STRATA_TIMELINE (widget);

  strata_session_pan (self->session, g_str_equal (action_name, "timeline.pan-left") ? -KEY_PAN_FRACTION
                                                                                     : KEY_PAN_FRACTION);
}

static void
zoom_fit_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  strata_session_zoom_to_fit (STRATA_TIMELINE (widget)->session);
}

/* F: the selected time range, else the focused call. */
static void
zoom_selection_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  StrataTimeline *self = STRATA_TIMELINE (widget);
  gint64 start, end;

  if (strata_session_get_selection_range (self->session, &start, &end))
    strata_session_set_visible_range (self->session, start, end);
  else if (self->has_focus_call)
    zoom_to_call (self, self->focus_thread, self->focus_depth, self->focus_index);
}

static void
clear_selection_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  StrataTimeline *self = STRATA_TIMELINE (widget);
  gboolean had_range;
  gint64 start, end;

  had_range = strata_session_get_selection_range (self->session, &start, &end);
  strata_session_clear_selection (self->session);
  if (!had_range)
    {
      self->has_focus_call = FALSE;
      g_clear_pointer (&self->counter_description, g_free);
      update_accessible_description (self);
      gtk_widget_queue_draw (widget);
    }
}

/* The first call on the first thread whose depth-0 call is visible. */
static gboolean
first_visible_call (StrataTimeline *self)
{
  gint64 start, end;

  strata_session_get_visible_range (self->session, &start, &end);
  for (guint i = 0; self->tracks && i < self->tracks->len; i++)
    {
      const StrataTrack *track = &g_array_index (self->tracks, StrataTrack, i);
      const StrataSpanTable *table;
      guint32 index;

      if (track->kind != STRATA_TRACK_THREAD)
        continue;
      table = thread_spans (self, track->index);
      if (table == NULL)
        continue;
      index = strata_span_table_search_clock (table, strata_session_get_clock (self->session), 0, start);
      if (index < table->n_spans[0])
        {
          strata_timeline_focus_call (self, track->index, 0, index);
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
find_parent (const StrataSpanTable *table,
             guint                  depth,
             guint32                index,
             guint32               *parent)
{
  guint32 lo = 0, hi;

  if (depth == 0)
    return FALSE;

  /* The last call one level up whose children start at or before us. */
  hi = table->n_spans[depth - 1];
  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (table->spans[depth - 1][mid].first_child <= index)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return FALSE;
  *parent = lo - 1;
  return TRUE;
}

static void
move_focus_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  StrataTimeline *self = STRATA_TIMELINE (widget);
  const StrataSpanTable *table;
  guint depth;
  guint32 index, first, last;

  if (strata_session_get_trace (self->session) == NULL)
    return;
  if (!self->has_focus_call)
    {
      first_visible_call (self);
      return;
    }

  table = thread_spans (self, self->focus_thread);
  depth = self->focus_depth;
  index = self->focus_index;

  if (g_str_equal (action_name, "timeline.next-call") && index + 1 < table->n_spans[depth])
    index++;
  else if (g_str_equal (action_name, "timeline.previous-call") && index > 0)
    index--;
  else if (g_str_equal (action_name, "timeline.parent-call") && find_parent (table, depth, index, &index))
    depth--;
  else if (g_str_equal (action_name, "timeline.child-call"))
    {
      strata_span_table_get_children (table, depth, index, &first, &last);
      if (first < last)
        depth++, index = first;
    }

  strata_timeline_focus_call (self, self->focus_thread, depth, index);
}

/* ---- GObject ---- */

GtkWidget *
strata_timeline_new (StrataSession *session)
{
  g_return_val_if_fail (STRATA_IS_SESSION (session), NULL);

  return g_object_new (STRATA_TYPE_TIMELINE, "session", session, NULL);
}

/**
 * strata_timeline_get_session:
 *
 * Returns: (transfer none): the session the timeline shows
 */
StrataSession *
strata_timeline_get_session (StrataTimeline *self)
{
  g_return_val_if_fail (STRATA_IS_TIMELINE (self), NULL);

  return self->session;
}

gboolean
strata_timeline_get_compact (StrataTimeline *self)
{
  g_return_val_if_fail (STRATA_IS_TIMELINE (self), FALSE);

  return self->compact;
}

void
strata_timeline_set_compact (StrataTimeline *self,
                             gboolean        compact)
{
  g_return_if_fail (STRATA_IS_TIMELINE (self));

  compact = !!compact;
  if (compact == self->compact)
    return;
  self->compact = compact;
  rebuild_tracks (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPACT]);
}

static void
set_session (StrataTimeline *self,
             StrataSession  *session)
{
  self->session = g_object_ref (session);
  g_signal_connect_object (session, "notify::trace", G_CALLBACK (trace_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "selected-item-changed", G_CALLBACK (selected_item_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::profile", G_CALLBACK (redraw_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::clock", G_CALLBACK (update_marks), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::selected-method", G_CALLBACK (update_marks), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "visible-range-changed", G_CALLBACK (redraw_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "selection-range-changed", G_CALLBACK (selection_range_changed_cb),
                           self, G_CONNECT_SWAPPED);
  trace_changed_cb (self);
}

static void
strata_timeline_dispose (GObject *object)
{
  StrataTimeline *self = (StrataTimeline *)object;

  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  g_clear_object (&self->vadjustment);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->session);
  g_clear_pointer (&self->counter_description, g_free);
  g_clear_pointer (&self->tracks, g_array_unref);
  g_clear_pointer (&self->marks, g_array_unref);
  g_clear_pointer (&self->prefs, strata_track_prefs_free);
  g_clear_pointer (&self->track_menu, gtk_widget_unparent);
  g_clear_pointer (&self->range_label, g_free);
  g_clear_pointer (&self->label_cache, strata_label_cache_free);
  g_clear_pointer (&self->counter_lods, g_ptr_array_unref);

  G_OBJECT_CLASS (strata_timeline_parent_class)->dispose (object);
}

static void
strata_timeline_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  StrataTimeline *self = STRATA_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;

    case PROP_COMPACT:
      g_value_set_boolean (value, self->compact);
      break;

    case PROP_SHOW_ALL_FLOWS:
      g_value_set_boolean (value, self->show_all_flows);
      break;

    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;

    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;

    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;

    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strata_timeline_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  StrataTimeline *self = STRATA_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      set_session (self, g_value_get_object (value));
      break;

    case PROP_COMPACT:
      strata_timeline_set_compact (self, g_value_get_boolean (value));
      break;

    case PROP_SHOW_ALL_FLOWS:
      if (self->show_all_flows != g_value_get_boolean (value))
        {
          self->show_all_flows = g_value_get_boolean (value);
          strata_timeline_update_flows (self);
          gtk_widget_queue_draw (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;

    case PROP_HADJUSTMENT:
      /* Time is not scrolled with an adjustment: the session holds it. */
      g_clear_object (&self->hadjustment);
      if (g_value_get_object (value) != NULL)
        self->hadjustment = g_object_ref_sink (g_value_get_object (value));
      break;

    case PROP_VADJUSTMENT:
      set_vadjustment (self, g_value_get_object (value));
      break;

    case PROP_HSCROLL_POLICY:
      self->hscroll_policy = g_value_get_enum (value);
      break;

    case PROP_VSCROLL_POLICY:
      self->vscroll_policy = g_value_get_enum (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
add_binding (GtkWidgetClass *widget_class,
             guint           keyval,
             const char     *action)
{
  gtk_widget_class_add_binding_action (widget_class, keyval, 0, action, NULL);
}

static void
strata_timeline_class_init (StrataTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strata_timeline_dispose;
  object_class->get_property = strata_timeline_get_property;
  object_class->set_property = strata_timeline_set_property;
  widget_class->snapshot = strata_timeline_snapshot;
  widget_class->measure = strata_timeline_measure;
  widget_class->size_allocate = strata_timeline_size_allocate;
  widget_class->css_changed = strata_timeline_css_changed;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL,
                         STRATA_TYPE_SESSION,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties[PROP_COMPACT] =
    g_param_spec_boolean ("compact", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /* Flow arrows for every call, not only the selected one. */
  properties[PROP_SHOW_ALL_FLOWS] =
    g_param_spec_boolean ("show-all-flows", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-left", NULL, pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-right", NULL, pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-fit", NULL, zoom_fit_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-selection", NULL, zoom_selection_action);
  gtk_widget_class_install_action (widget_class, "timeline.clear-selection", NULL, clear_selection_action);
  gtk_widget_class_install_action (widget_class, "timeline.next-call", NULL, move_focus_action);
  gtk_widget_class_install_action (widget_class, "timeline.previous-call", NULL, move_focus_action);
  gtk_widget_class_install_action (widget_class, "timeline.parent-call", NULL, move_focus_action);
  gtk_widget_class_install_action (widget_class, "timeline.child-call", NULL, move_focus_action);
  gtk_widget_class_install_property_action (widget_class, "timeline.compact", "compact");
  gtk_widget_class_install_action (widget_class, "timeline.track-collapse", NULL, track_action);
  gtk_widget_class_install_action (widget_class, "timeline.track-hide", NULL, track_action);
  gtk_widget_class_install_action (widget_class, "timeline.track-pin", NULL, track_action);
  gtk_widget_class_install_action (widget_class, "timeline.track-move-up", NULL, track_action);
  gtk_widget_class_install_action (widget_class, "timeline.track-move-down", NULL, track_action);
  gtk_widget_class_install_action (widget_class, "timeline.show-hidden-tracks", NULL, track_action);
  gtk_widget_class_install_action (widget_class, "timeline.copy", NULL, copy_action);

  add_binding (widget_class, GDK_KEY_w, "timeline.zoom-in");
  add_binding (widget_class, GDK_KEY_plus, "timeline.zoom-in");
  add_binding (widget_class, GDK_KEY_equal, "timeline.zoom-in");
  add_binding (widget_class, GDK_KEY_s, "timeline.zoom-out");
  add_binding (widget_class, GDK_KEY_minus, "timeline.zoom-out");
  add_binding (widget_class, GDK_KEY_a, "timeline.pan-left");
  add_binding (widget_class, GDK_KEY_d, "timeline.pan-right");
  add_binding (widget_class, GDK_KEY_0, "timeline.zoom-fit");
  add_binding (widget_class, GDK_KEY_Home, "timeline.zoom-fit");
  add_binding (widget_class, GDK_KEY_f, "timeline.zoom-selection");
  add_binding (widget_class, GDK_KEY_Escape, "timeline.clear-selection");
  add_binding (widget_class, GDK_KEY_Right, "timeline.next-call");
  add_binding (widget_class, GDK_KEY_Left, "timeline.previous-call");
  add_binding (widget_class, GDK_KEY_Up, "timeline.parent-call");
  add_binding (widget_class, GDK_KEY_Down, "timeline.child-call");
  add_binding (widget_class, GDK_KEY_c, "timeline.compact");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "timeline.copy", NULL);

  gtk_widget_class_set_css_name (widget_class, "timeline");
  /* A picture of the calls, read through its description: the selected call or event */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
strata_timeline_init (StrataTimeline *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  self->prefs = strata_track_prefs_new ();
  self->label_cache = strata_label_cache_new ();
  set_vadjustment (self, NULL);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timeline"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _("No call selected"),
                                  -1);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);

  gesture = gtk_gesture_click_new ();
  g_signal_connect_object (gesture, "pressed", G_CALLBACK (click_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect_object (gesture, "pressed", G_CALLBACK (secondary_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_drag_new ();
  g_signal_connect_object (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gesture, "drag-update", G_CALLBACK (drag_update_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gesture, "drag-end", G_CALLBACK (drag_end_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_zoom_new ();
  g_signal_connect_object (gesture, "begin", G_CALLBACK (zoom_begin_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gesture, "scale-changed", G_CALLBACK (zoom_scale_changed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect_object (controller, "scroll", G_CALLBACK (scroll_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect_object (controller, "motion", G_CALLBACK (motion_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (controller, "leave", G_CALLBACK (leave_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}
