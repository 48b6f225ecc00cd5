/* strata-timeline.c: the widget around the timeline renderer
 *
 * The object itself: it follows the session (the visible range, clock,
 * selection and track layout all live there), keeps what drawing needs
 * (tracks laid out, marks, counter levels of detail, flows) and draws a
 * frame. Input, keyboard commands and descriptions are in the files
 * named in strata-timeline-private.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-counter-render.h"
#include "strata-android-frames.h"
#include "strata-timeline-private.h"
#include "strata-units.h"
#include "strata-widget-color.h"

#define HEADER_TOTAL STRATA_TIMELINE_HEADER_TOTAL

enum {
  PROP_0,
  PROP_SESSION,
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

void
strata_timeline_fill_view (StrataTimeline      *self,
                           StrataTimelineView  *view,
                           StrataTimelineTheme *theme)
{
  StrataSliceRef call;
  gboolean has_call = strata_timeline_get_selected_call (self, &call);
  guint event = G_MAXUINT;

  if (strata_session_get_selected_item (self->session, NULL, &event) != STRATA_SELECTED_EVENT)
    event = G_MAXUINT;
  read_theme (self, theme);
  *view = (StrataTimelineView) {
    .trace = strata_session_get_trace (self->session),
    .clock = strata_session_get_clock (self->session),
    .colors = strata_session_get_colors (self->session),
    .selected_method = strata_session_get_selected_method (self->session),
    .marks = self->marks,
    .frames = self->frames,
    .notes = strata_session_get_note_marks (self->session),
    .frame_budget = self->frame_budget,
    .compact = strata_session_get_compact (self->session),
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
    .has_focus = has_call,
    .focus_thread = call.thread,
    .focus_depth = call.depth,
    .focus_index = call.index,
    .selected_event = event,
    .search = strata_session_get_search (self->session),
  };
  strata_session_get_visible_range (self->session, &view->start, &view->end);
  strata_session_get_bounds (self->session, &view->bound_start, &view->bound_end);
  view->has_range = strata_session_get_selection_range (self->session, &view->range_start, &view->range_end);
}

/* The Android frame under (x, y) in the ruler's band of frames, give or
 * take two pixels, or NULL. */
const StrataAndroidFrame *
strata_timeline_frame_at (StrataTimeline *self,
                          double          x,
                          double          y)
{
  StrataTimelineTheme theme;
  StrataTimelineView view;
  double top = STRATA_TIMELINE_OVERVIEW_HEIGHT + STRATA_TIMELINE_FRAMES_Y;
  const StrataAndroidFrame *frames;
  gint64 time, slop;
  guint low = 0, high;

  if (self->frames == NULL || x < STRATA_TIMELINE_LABEL_WIDTH || y < top - 3 ||
      y > top + STRATA_TIMELINE_FRAMES_HEIGHT + 3 || strata_session_get_clock (self->session) != 0)
    return NULL;
  strata_timeline_fill_view (self, &view, &theme);
  time = strata_timeline_time_at (&view, x);
  slop = (gint64) (2 * (view.end - view.start) / MAX (1.0, view.width - view.label_width));
  frames = (const StrataAndroidFrame *) self->frames->data;
  high = self->frames->len;
  /* The last frame starting by then. */
  while (low < high)
    {
      guint mid = low + (high - low) / 2;

      if (frames[mid].start <= time + slop)
        low = mid + 1;
      else
        high = mid;
    }
  return low > 0 && frames[low - 1].end + slop >= time ? &frames[low - 1] : NULL;
}

/* What lies under (x, y) in widget coordinates, for input and tooltips. */
gboolean
strata_timeline_hit_at (StrataTimeline    *self,
                        double             x,
                        double             y,
                        StrataTimelineHit *hit)
{
  StrataTimelineTheme theme;
  StrataTimelineView view;

  if (strata_session_get_trace (self->session) == NULL || y < HEADER_TOTAL)
    return FALSE;
  strata_timeline_fill_view (self, &view, &theme);
  return strata_timeline_hit_test (&view, x, y - HEADER_TOTAL, hit);
}

/* A track filter that leaves nothing says so, rather than a blank. */
static void
draw_nothing_matches (StrataTimeline *self,
                      GtkSnapshot    *snapshot,
                      int             width,
                      int             height)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), _("No tracks match the search"));
  GdkRGBA color;
  int text_width, text_height;

  strata_widget_get_color (GTK_WIDGET (self), &color);
  color.alpha *= 0.55;
  pango_layout_get_pixel_size (layout, &text_width, &text_height);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((width - text_width) / 2.0, HEADER_TOTAL + MIN (48, (height - HEADER_TOTAL) / 2.0)));
  gtk_snapshot_append_layout (snapshot, layout, &color);
  gtk_snapshot_restore (snapshot);
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

  strata_timeline_fill_view (self, &view, &theme);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

  strata_timeline_render_overview (cr, &view);
  cairo_translate (cr, 0, STRATA_TIMELINE_OVERVIEW_HEIGHT);
  strata_timeline_render_ruler (cr, &view);
  cairo_translate (cr, 0, STRATA_TIMELINE_RULER_HEIGHT);
  cairo_rectangle (cr, 0, 0, width, height - HEADER_TOTAL);
  cairo_clip (cr);
  strata_timeline_render_rows (cr, &view, height - HEADER_TOTAL);
  cairo_destroy (cr);
  if (self->tracks->len == 0 && strata_session_get_track_prefs (self->session)->filter != NULL)
    draw_nothing_matches (self, snapshot, width, height);
}

/* ---- Export ---- */

/**
 * strata_timeline_export_image:
 * @options: the format and size; a height of 0 is the widget's
 * @whole_trace: the whole trace across, else the range on show
 *
 * The timeline as drawn, with its selection, tracks and scroll, onto an
 * image: at the widget's size and range, the screen's pixels.
 */
gboolean
strata_timeline_export_image (StrataTimeline           *self,
                              const StrataImageOptions *options,
                              gboolean                  whole_trace,
                              GFile                    *file,
                              GError                  **error)
{
  return strata_timeline_export_image_full (self, options, whole_trace, FALSE, -1, file, error);
}

/**
 * strata_timeline_export_image_full:
 * @all_tracks: every track from the top, however tall, else as scrolled
 * @dark: 1 for the dark style, 0 for the light one, -1 as shown
 */
gboolean
strata_timeline_export_image_full (StrataTimeline           *self,
                                   const StrataImageOptions *options,
                                   gboolean                  whole_trace,
                                   gboolean                  all_tracks,
                                   int                       dark,
                                   GFile                    *file,
                                   GError                  **error)
{
  StrataImageOptions sized = *options;
  StrataTimelineTheme theme;
  StrataTimelineView view;
  StrataColor background;
  GdkRGBA bg = { 1, 1, 1, 1 };

  g_return_val_if_fail (STRATA_IS_TIMELINE (self), FALSE);

  strata_timeline_fill_view (self, &view, &theme);
  if (whole_trace)
    strata_session_get_bounds (self->session, &view.start, &view.end);
  if (all_tracks)
    {
      view.scroll_y = 0;
      sized.height = (int) (HEADER_TOTAL + self->content_height + 0.5);
    }
  if (sized.height <= 0)
    sized.height = gtk_widget_get_height (GTK_WIDGET (self));
  /* What is behind the timeline on screen: the window. */
  if (!strata_widget_lookup_color (GTK_WIDGET (self), "window_bg_color", &bg))
    bg = theme.dark ? (GdkRGBA) { 0.14, 0.14, 0.14, 1 } : (GdkRGBA) { 0.98, 0.98, 0.98, 1 };
  if (dark >= 0 && dark != theme.dark)
    {
      /* The other style: Adwaita's text and window colours for it. */
      theme.dark = dark;
      theme.fg = dark ? (StrataColor) { 1, 1, 1, 1 } : (StrataColor) { 0, 0, 0, 0.8 };
      theme.accent = dark ? (StrataColor) { 0.47, 0.68, 0.93, 1 } : (StrataColor) { 0.21, 0.52, 0.89, 1 };
      bg = dark ? (GdkRGBA) { 0.14, 0.14, 0.14, 1 } : (GdkRGBA) { 0.98, 0.98, 0.98, 1 };
      view.theme = &theme;
    }
  background = (StrataColor) { bg.red, bg.green, bg.blue, 1 };
  return strata_image_export_timeline_view (&view, &background, &sized, file, error);
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
    self->tracks = strata_timeline_layout (trace, self->events, strata_session_get_compact (self->session),
                                           strata_session_get_track_prefs (self->session), &self->content_height);
  configure_vadjustment (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
strata_timeline_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  StrataTimeline *self = STRATA_TIMELINE (widget);

  configure_vadjustment (self);
  /* A popover is sized and placed by its parent's allocation: without
   * this, the track menu kept a stale size and cut off its last item. */
  if (self->track_menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->track_menu));
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

/* ---- Following the session ---- */

static void
update_marks (StrataTimeline *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  guint32 method = strata_session_get_selected_method (self->session);
  const GArray *chosen = strata_session_get_marks (self->session);

  g_clear_pointer (&self->marks, g_array_unref);
  if (chosen != NULL)
    self->marks = g_array_ref ((GArray *) chosen);
  else if (trace != NULL && method != STRATA_NO_METHOD)
    self->marks = strata_trace_collect_calls_of (trace, strata_session_get_clock (self->session), method);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Block maxima for every counter, without the series the user hid. */
static void
rebuild_counter_lods (StrataTimeline *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  StrataTrackPrefs *prefs = strata_session_get_track_prefs (self->session);

  g_clear_pointer (&self->counter_lods, g_ptr_array_unref);
  if (trace == NULL)
    return;
  self->counter_lods = g_ptr_array_new_with_free_func ((GDestroyNotify) strata_counter_lod_free);
  for (guint c = 0; c < strata_trace_get_n_counters (trace); c++)
    g_ptr_array_add (self->counter_lods, strata_counter_lod_new (strata_trace_get_counter (trace, c),
                                                                 strata_track_prefs_get_hidden_series (prefs, c)));
}

/* The arrows to draw: every flow with "show all flows", else the flows
 * that leave or reach the selected call. */
static void
update_flows (StrataTimeline *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  StrataSliceRef call;
  gboolean has_call;

  g_clear_pointer (&self->flows, g_array_unref);
  if (trace == NULL || strata_trace_get_n_flows (trace) == 0)
    return;
  has_call = strata_timeline_get_selected_call (self, &call);
  self->flows = g_array_new (FALSE, FALSE, sizeof (StrataFlow));
  for (guint i = 0; i < strata_trace_get_n_flows (trace); i++)
    {
      const StrataFlow *flow = strata_trace_get_flow (trace, i);

      if (strata_session_get_show_all_flows (self->session) ||
          (has_call && (memcmp (&flow->from, &call, sizeof call) == 0 || memcmp (&flow->to, &call, sizeof call) == 0)))
        g_array_append_val (self->flows, *flow);
    }
}

/* Brings the selected call into view: its time, and its row. */
static void
scroll_to_call (StrataTimeline       *self,
                const StrataSliceRef *call)
{
  const StrataSpanTable *table = strata_timeline_thread_spans (self, call->thread);
  guint clock = strata_session_get_clock (self->session);
  gint64 start = strata_span_table_get_start (table, clock, call->depth, call->index);
  gint64 end = strata_span_table_get_end (table, clock, call->depth, call->index);
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

      if (track->kind != STRATA_TRACK_THREAD || track->index != call->thread)
        continue;
      row_y = track->y + (strata_session_get_compact (self->session) ? 0 : call->depth * STRATA_TIMELINE_ROW_HEIGHT);
      gtk_adjustment_clamp_page (self->vadjustment, row_y - STRATA_TIMELINE_ROW_HEIGHT,
                                 row_y + 2 * STRATA_TIMELINE_ROW_HEIGHT);
    }
}

/* A call, event or counter value was selected, here or in another view
 * (a flow's other end, a search): show it. */
static void
selected_item_changed_cb (StrataTimeline *self)
{
  StrataSliceRef call;

  if (strata_timeline_get_selected_call (self, &call))
    scroll_to_call (self, &call);
  update_flows (self);
  strata_timeline_update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
flows_changed_cb (StrataTimeline *self)
{
  update_flows (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
tracks_changed_cb (StrataTimeline *self)
{
  rebuild_counter_lods (self);
  rebuild_tracks (self);
}

static void
names_changed_cb (StrataTimeline *self)
{
  strata_label_cache_clear (self->label_cache);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
trace_changed_cb (StrataTimeline *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);

  g_clear_pointer (&self->events, strata_event_index_free);
  g_clear_pointer (&self->flows, g_array_unref);
  g_clear_pointer (&self->frames, g_array_unref);
  rebuild_counter_lods (self);
  if (trace != NULL)
    self->events = strata_event_index_new (trace);
  /* An Android app's frames, marked in the ruler. */
  if (trace != NULL)
    self->frames = strata_android_frames_find (trace, &self->frame_budget);
  if (self->frames != NULL && self->frames->len == 0)
    g_clear_pointer (&self->frames, g_array_unref);
  strata_label_cache_clear (self->label_cache);
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

void
strata_timeline_update_range_label (StrataTimeline *self,
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
  strata_timeline_update_range_label (self, !self->selecting_range);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- Calls ---- */

const StrataSpanTable *
strata_timeline_thread_spans (StrataTimeline *self,
                              guint           thread)
{
  return strata_trace_get_thread (strata_session_get_trace (self->session), thread)->spans;
}

/* The session's selected call is the one keyboard focus is on. */
gboolean
strata_timeline_get_selected_call (StrataTimeline *self,
                                   StrataSliceRef *call)
{
  StrataSliceRef unused;

  return strata_session_get_selected_item (self->session, call ? call : &unused, NULL) == STRATA_SELECTED_CALL;
}

void
strata_timeline_select_call (StrataTimeline *self,
                             guint           thread,
                             guint           depth,
                             guint32         index)
{
  strata_session_select_call (self->session, &(StrataSliceRef) { thread, depth, index });
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

static void
set_session (StrataTimeline *self,
             StrataSession  *session)
{
  self->session = g_object_ref (session);
  g_signal_connect_object (session, "notify::trace", G_CALLBACK (trace_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "selected-item-changed", G_CALLBACK (selected_item_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::profile", G_CALLBACK (redraw_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "names-changed", G_CALLBACK (names_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::clock", G_CALLBACK (update_marks), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::selected-method", G_CALLBACK (update_marks), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "visible-range-changed", G_CALLBACK (redraw_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "search-changed", G_CALLBACK (redraw_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notes-changed", G_CALLBACK (redraw_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "marks-changed", G_CALLBACK (update_marks), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "selection-range-changed", G_CALLBACK (selection_range_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "tracks-changed", G_CALLBACK (tracks_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::compact", G_CALLBACK (rebuild_tracks), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::show-all-flows", G_CALLBACK (flows_changed_cb), self, G_CONNECT_SWAPPED);
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
  g_clear_pointer (&self->tracks, g_array_unref);
  g_clear_pointer (&self->marks, g_array_unref);
  g_clear_pointer (&self->frames, g_array_unref);
  g_clear_pointer (&self->track_menu, gtk_widget_unparent);
  g_clear_pointer (&self->range_label, g_free);
  g_clear_pointer (&self->label_cache, strata_label_cache_free);
  g_clear_pointer (&self->counter_lods, g_ptr_array_unref);
  g_clear_pointer (&self->events, strata_event_index_free);
  g_clear_pointer (&self->flows, g_array_unref);

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
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  strata_timeline_class_init_actions (widget_class);
  strata_timeline_class_init_input (widget_class);
  strata_timeline_class_init_describe (widget_class);

  gtk_widget_class_set_css_name (widget_class, "timeline");
  /* A picture of the calls, read through its description: the selected call or event */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
strata_timeline_init (StrataTimeline *self)
{
  self->label_cache = strata_label_cache_new ();
  set_vadjustment (self, NULL);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  strata_timeline_init_describe (self);
  strata_timeline_init_input (self);
}
