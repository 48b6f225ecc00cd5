/* test-timeline.c: the timeline in a real window, driven through its
 * actions, and its drawing code without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <sys/resource.h>

#include "strata-application.h"
#include "strata-counter-render.h"
#include "strata-event-details-private.h"
#include "strata-loader.h"
#include "strata-test-gtk.h"
#include "strata-test-util.h"
#include "strata-timeline-private.h"
#include "strata-units.h"
#include "strata-window-private.h"

static gboolean
profile_ready (gpointer data)
{
  return strata_session_get_profile (data) != NULL;
}

typedef struct
{
  StrataApplication *app;
  StrataWindow      *window;
  StrataTimeline    *timeline;
  StrataSession     *session;
} Fixture;

static void fixture_open_path (Fixture    *f,
                               const char *path);

static void
fixture_open_in (Fixture    *f,
                 const char *folder,
                 const char *fixture_name)
{
  g_autofree char *path = strata_test_fixture_path (folder, fixture_name, NULL);

  fixture_open_path (f, path);
}

static void
fixture_open_path (Fixture    *f,
                   const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  f->app = strata_test_new_app ();
  g_application_open (G_APPLICATION (f->app), &file, 1, "");
  f->window = STRATA_WINDOW (gtk_application_get_windows (GTK_APPLICATION (f->app))->data);
  strata_test_wait_for_window (f->window);
  g_assert_cmpstr (strata_window_get_page (f->window), ==, "trace");

  f->timeline = STRATA_TIMELINE (f->window->timeline);
  f->session = strata_window_get_session (f->window);
  strata_test_iterate_until (profile_ready, f->session);
  g_assert_true (gtk_widget_is_focus (GTK_WIDGET (f->timeline)));
}

static void
fixture_open (Fixture    *f,
              const char *fixture_name)
{
  fixture_open_in (f, "dmtrace", fixture_name);
}

static void
fixture_close (Fixture *f)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_application_quit (G_APPLICATION (f->app));
  g_object_unref (f->app);
}

/* The call keyboard focus is on: the session's selected call. */
static gboolean
focused_call (Fixture *f,
              guint   *thread,
              guint   *depth,
              guint32 *index)
{
  StrataSliceRef call;

  if (strata_session_get_selected_item (f->session, &call, NULL) != STRATA_SELECTED_CALL)
    return FALSE;
  *thread = call.thread;
  *depth = call.depth;
  *index = call.index;
  return TRUE;
}

static void
activate (Fixture    *f,
          const char *action)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->timeline), action, NULL));
}

static void
test_timeline_zoom_and_pan (void)
{
  Fixture f;
  gint64 bound_start, bound_end, start, end, width;

  fixture_open (&f, "studio-perflib-char_2_bytes.trace");
  strata_session_get_bounds (f.session, &bound_start, &bound_end);
  strata_session_get_visible_range (f.session, &start, &end);
  g_assert_cmpint (start, ==, bound_start);
  g_assert_cmpint (end, ==, bound_end);

  activate (&f, "view.zoom-in");
  strata_session_get_visible_range (f.session, &start, &end);
  width = end - start;
  g_assert_cmpint (width, <, (bound_end - bound_start) * 0.7);
  g_assert_cmpint (width, >, (bound_end - bound_start) * 0.6);

  activate (&f, "view.pan-right");
  strata_session_get_visible_range (f.session, &start, &end);
  g_assert_cmpint (end - start, ==, width);
  g_assert_cmpint (start, >, bound_start + (bound_end - bound_start) / 6);

  activate (&f, "view.pan-left");
  activate (&f, "view.pan-left");
  activate (&f, "view.pan-left");
  strata_session_get_visible_range (f.session, &start, &end);
  /* Panning stops at the start of the trace. */
  g_assert_cmpint (start, ==, bound_start);

  activate (&f, "view.zoom-out");
  activate (&f, "view.zoom-fit");
  strata_session_get_visible_range (f.session, &start, &end);
  g_assert_cmpint (start, ==, bound_start);
  g_assert_cmpint (end, ==, bound_end);

  fixture_close (&f);
}

typedef struct
{
  char     *text;
  gboolean  done;
} ClipboardRead;

static void
clipboard_read_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  ClipboardRead *read = user_data;

  read->text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, NULL);
  read->done = TRUE;
}

static gboolean
clipboard_read_done (gpointer data)
{
  return ((ClipboardRead *) data)->done;
}

static char *
read_clipboard (GtkWidget *widget)
{
  ClipboardRead read = { NULL, FALSE };

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, clipboard_read_cb, &read);
  strata_test_iterate_until (clipboard_read_done, &read);
  g_assert_nonnull (read.text);
  return read.text;
}

static void
test_timeline_select_calls (void)
{
  Fixture f;
  guint thread = 0, depth = 0, child_depth = 0;
  guint32 index = 0, method;
  const StrataSpanTable *table;

  fixture_open (&f, "studio-perflib-char_2_bytes.trace");
  g_assert_cmpuint (strata_session_get_selected_method (f.session), ==, STRATA_NO_METHOD);

  /* The first arrow press focuses the first visible call. */
  activate (&f, "timeline.next-call");
  g_assert_true (focused_call (&f, &thread, &depth, &index));
  table = strata_trace_get_thread (strata_session_get_trace (f.session), thread)->spans;
  g_assert_cmpuint (depth, ==, 0);
  method = table->calls[depth][index].method;
  g_assert_cmpuint (strata_session_get_selected_method (f.session), ==, method);

  activate (&f, "timeline.child-call");
  focused_call (&f, &thread, &child_depth, &index);
  g_assert_cmpuint (child_depth, ==, 1);
  g_assert_cmpuint (strata_session_get_selected_method (f.session), ==, table->calls[1][index].method);
  activate (&f, "timeline.parent-call");
  focused_call (&f, &thread, &depth, &index);
  g_assert_cmpuint (depth, ==, 0);
  g_assert_cmpuint (strata_session_get_selected_method (f.session), ==, method);

  /* F zooms to the focused call. */
  activate (&f, "view.zoom-selection");
  {
    gint64 start, end;

    strata_session_get_visible_range (f.session, &start, &end);
    g_assert_cmpint (start, <=, strata_span_table_start (table, 0, index));
    g_assert_cmpint (end, >=, strata_span_table_end (table, 0, index));
  }

  /* Ctrl+C copies the call in words. */
  activate (&f, "timeline.copy");
  {
    g_autofree char *copied = read_clipboard (GTK_WIDGET (f.timeline));
    const StrataMethod *m = strata_trace_get_method (strata_session_get_trace (f.session), method);

    g_assert_nonnull (strstr (copied, strata_trace_get_string (strata_session_get_trace (f.session), m->display_name)));
    g_assert_nonnull (strstr (copied, "Depth: 0"));
  }

  /* Escape clears the range first, then the method. */
  strata_session_set_selection_range (f.session, 10, 20);
  activate (&f, "view.clear-selection");
  g_assert_cmpuint (strata_session_get_selected_method (f.session), ==, method);
  activate (&f, "view.clear-selection");
  g_assert_cmpuint (strata_session_get_selected_method (f.session), ==, STRATA_NO_METHOD);
  g_assert_false (focused_call (&f, &thread, &depth, &index));

  fixture_close (&f);
}

static void
test_timeline_range_and_clock (void)
{
  Fixture f;
  gint64 bound_start, bound_end, start, end;

  fixture_open (&f, "studio-perflib-char_2_bytes.trace");
  strata_session_get_bounds (f.session, &bound_start, &bound_end);

  strata_session_set_selection_range (f.session, bound_start + 2000000, bound_start + 1000000);
  g_assert_true (strata_session_get_selection_range (f.session, &start, &end));
  g_assert_cmpint (start, ==, bound_start + 1000000);
  activate (&f, "view.zoom-selection");
  strata_session_get_visible_range (f.session, &start, &end);
  g_assert_cmpint (start, ==, bound_start + 1000000);
  g_assert_cmpint (end, ==, bound_start + 2000000);

  /* The header's clock switch drives the session. */
  g_assert_true (gtk_widget_get_visible (f.window->clock_switch));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (f.window->clock_buttons[1]), TRUE);
  g_assert_cmpuint (strata_session_get_clock (f.session), ==, 1);
  g_assert_false (strata_session_get_selection_range (f.session, &start, &end));

  activate (&f, "view.compact");
  g_assert_true (strata_session_get_compact (f.session));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (f.window->compact_button)));

  fixture_close (&f);
}

/* The drawing code on its own: colours land where the calls are. */
static void
test_timeline_render_offscreen (void)
{
  g_autofree char *path = strata_test_fixture_path ("dmtrace", "studio-perflib-exception.trace", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(StrataLoader) loader = strata_loader_new (file);
  g_autoptr(StrataTrace) trace = strata_loader_load (loader, NULL, NULL);
  g_autoptr(GArray) tracks = NULL;
  StrataTimelineTheme theme = { { 0, 0, 0, 1 }, { 0.2, 0.5, 0.9, 1 }, FALSE };
  StrataTimelineView view;
  StrataTimelineHit hit;
  cairo_surface_t *surface;
  cairo_t *cr;
  double content_height;
  guint8 *pixel;

  g_assert_nonnull (trace);
  tracks = strata_timeline_layout (trace, NULL, FALSE, NULL, &content_height);
  view = (StrataTimelineView) {
    .trace = trace, .selected_method = G_MAXUINT32, .tracks = tracks, .width = 800,
    .label_width = STRATA_TIMELINE_LABEL_WIDTH, .theme = &theme,
  };
  strata_trace_get_clock_range (trace, 0, &view.start, &view.end);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 800, 300);
  cr = cairo_create (surface);
  strata_timeline_render_rows (cr, &view, 300);
  cairo_surface_flush (surface);

  /* The first call of the first thread covers the start of its row. */
  g_assert_true (strata_timeline_hit_test (&view, STRATA_TIMELINE_LABEL_WIDTH + 2,
                                           STRATA_TIMELINE_HEADER_HEIGHT + 4, &hit));
  g_assert_cmpint (hit.kind, ==, STRATA_HIT_SPAN);
  g_assert_cmpuint (hit.depth, ==, 0);
  pixel = cairo_image_surface_get_data (surface) +
          (int) (STRATA_TIMELINE_HEADER_HEIGHT + 4) * cairo_image_surface_get_stride (surface) +
          (int) (STRATA_TIMELINE_LABEL_WIDTH + 2) * 4;
  g_assert_cmpuint (pixel[3], ==, 255);

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static StrataCounter *
random_counter (gsize  n_samples,
                guint  n_series,
                GRand *rand)
{
  StrataCounter *counter = g_new0 (StrataCounter, 1);

  counter->n_series = n_series;
  counter->n_samples = n_samples;
  counter->series_names = g_new0 (guint32, n_series);
  counter->times = g_new (gint64, n_samples);
  counter->values = g_new (double *, n_series);
  for (guint s = 0; s < n_series; s++)
    {
      counter->values[s] = g_new (double, n_samples);
      for (gsize i = 0; i < n_samples; i++)
        counter->values[s][i] = g_rand_double_range (rand, 0, 100);
    }
  for (gsize i = 0; i < n_samples; i++)
    counter->times[i] = (gint64) i * 10;
  return counter;
}

/* The block maxima give exactly what summing every sample gives. */
static void
test_timeline_counter_lod (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  g_autoptr(StrataCounter) counter = random_counter (70001, 3, rand);
  const guint64 masks[] = { 0, 1, 2, 5 };

  for (guint m = 0; m < G_N_ELEMENTS (masks); m++)
    {
      g_autoptr(StrataCounterLod) lod = strata_counter_lod_new (counter, masks[m]);

      for (guint trial = 0; trial < 300; trial++)
        {
          gsize first = g_rand_int_range (rand, 0, counter->n_samples);
          gsize length = g_rand_int_range (rand, 0, trial < 150 ? 40 : 70000);
          gsize last = MIN (counter->n_samples - 1, first + length);
          double fast[3], slow[3] = { -INFINITY, -INFINITY, -INFINITY };

          strata_counter_lod_column_max (lod, first, last, fast);
          for (gsize i = first; i <= last; i++)
            {
              double sum = 0;
              guint k = 0;

              for (guint s = 0; s < 3; s++)
                if (!((masks[m] >> s) & 1))
                  {
                    sum += counter->values[s][i];
                    slow[k] = MAX (slow[k], sum);
                    k++;
                  }
            }
          for (guint k = 0; k < 3 - (guint) __builtin_popcountll (masks[m]); k++)
            g_assert_cmpfloat_with_epsilon (fast[k], slow[k], 1e-3);
        }
    }
}

/* Counters get a track under their process, drawn as a chart, with a
 * legend whose entries can be hit. */
static void
test_timeline_counter_tracks (void)
{
  const char *json =
    "[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"Renderer\"}},"
    " {\"ph\":\"C\",\"name\":\"memory\",\"pid\":1,\"ts\":0,\"args\":{\"heap\":10,\"gpu\":5}},"
    " {\"ph\":\"C\",\"name\":\"memory\",\"pid\":1,\"ts\":50,\"args\":{\"heap\":30,\"gpu\":5}},"
    " {\"ph\":\"C\",\"name\":\"idle\",\"pid\":2,\"ts\":10,\"args\":{\"n\":1}},"
    " {\"ph\":\"X\",\"name\":\"work\",\"pid\":1,\"tid\":7,\"ts\":0,\"dur\":100}]";
  g_autofree char *path = strata_test_write_file ("counters.json", json, strlen (json));
  g_autoptr(StrataTrace) trace = strata_test_load_path (path, NULL);
  g_autoptr(GArray) tracks = NULL;
  g_autoptr(GPtrArray) lods = g_ptr_array_new_with_free_func ((GDestroyNotify) strata_counter_lod_free);
  StrataTimelineTheme theme = { { 0, 0, 0, 1 }, { 0.2, 0.5, 0.9, 1 }, FALSE };
  StrataTimelineView view;
  StrataTimelineHit hit;
  const StrataTrack *chart;
  cairo_surface_t *surface;
  cairo_t *cr;
  double content_height, chart_y;
  guint8 *low, *high;

  g_assert_nonnull (trace);
  for (guint c = 0; c < strata_trace_get_n_counters (trace); c++)
    g_ptr_array_add (lods, strata_counter_lod_new (strata_trace_get_counter (trace, c), 0));
  tracks = strata_timeline_layout (trace, NULL, FALSE, NULL, &content_height);
  /* Renderer: header, its counter, its thread; process 2: header, counter. */
  g_assert_cmpuint (tracks->len, ==, 5);
  g_assert_cmpint (g_array_index (tracks, StrataTrack, 0).kind, ==, STRATA_TRACK_PROCESS);
  g_assert_cmpint (g_array_index (tracks, StrataTrack, 1).kind, ==, STRATA_TRACK_COUNTER);
  g_assert_cmpint (g_array_index (tracks, StrataTrack, 2).kind, ==, STRATA_TRACK_THREAD);
  g_assert_cmpint (g_array_index (tracks, StrataTrack, 4).kind, ==, STRATA_TRACK_COUNTER);

  view = (StrataTimelineView) {
    .trace = trace, .selected_method = G_MAXUINT32, .tracks = tracks, .counter_lods = lods,
    .width = 400, .label_width = STRATA_TIMELINE_LABEL_WIDTH, .theme = &theme,
    .start = 0, .end = 100000,
  };
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 400, (int) content_height);
  cr = cairo_create (surface);
  strata_timeline_render_rows (cr, &view, content_height);
  cairo_surface_flush (surface);

  /* After 50 µs the stack is 35 high instead of 15: a pixel two thirds
   * up the chart is empty in the first half and painted in the second. */
  chart = &g_array_index (tracks, StrataTrack, 1);
  chart_y = chart->y + 2 + (chart->height - STRATA_TIMELINE_TRACK_GAP - 2) * 0.3;
  low = cairo_image_surface_get_data (surface) + (int) chart_y * cairo_image_surface_get_stride (surface) +
        (int) (STRATA_TIMELINE_LABEL_WIDTH + 40) * 4;
  high = low + 120 * 4;
  g_assert_cmpuint (low[3], ==, 0);
  g_assert_cmpuint (high[3], >, 150);

  g_assert_true (strata_timeline_hit_test (&view, 300, chart->y + 10, &hit));
  g_assert_cmpint (hit.kind, ==, STRATA_HIT_COUNTER);
  g_assert_true (strata_timeline_hit_test (&view, 40, chart->y + STRATA_TIMELINE_ROW_HEIGHT + STRATA_COUNTER_LEGEND_ROW + 3, &hit));
  g_assert_cmpint (hit.kind, ==, STRATA_HIT_COUNTER_LEGEND);
  g_assert_cmpuint (hit.depth, ==, 1);

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static gboolean
details_read (gpointer data)
{
  return !strata_event_details_is_reading (data);
}

static const StrataThread *
thread_named (StrataTrace *trace,
              gint64       tid)
{
  return strata_test_thread_by_tid (trace, tid);
}

/* catapult's flow_simple.json: OtherSlice (tid 15794) receives a flow
 * from SenderA (tid 15903) and sends one on to SomeSlice (tid 15894). */
static void
test_timeline_details_and_flows (void)
{
  Fixture f;
  StrataEventDetails *details;
  StrataTrace *trace;
  StrataSliceRef call = { 0 }, selected;
  g_autofree char *text = NULL;
  g_autofree char *after = NULL;
  GtkWidget *button = NULL;

  fixture_open_in (&f, "catapult", "flow_simple.json");
  details = STRATA_EVENT_DETAILS (f.window->event_details);
  trace = strata_session_get_trace (f.session);
  call.thread = thread_named (trace, 15794) - strata_trace_get_thread (trace, 0);
  strata_session_select_call (f.session, &call);
  strata_test_iterate_until (details_read, details);

  text = strata_event_details_dup_text (details);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "OtherSlice"));
  g_assert_nonnull (strstr (text, "Flows"));
  g_assert_nonnull (strstr (text, "← SenderA"));
  g_assert_nonnull (strstr (text, "→ SomeSlice"));
  g_assert_nonnull (strstr (text, "Arguments"));

  /* The link goes to the call at the flow's other end. */
  for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (details)); w != NULL; )
    {
      if (GTK_IS_BUTTON (w) && g_str_has_prefix (gtk_button_get_label (GTK_BUTTON (w)), "→"))
        {
          button = w;
          break;
        }
      if (gtk_widget_get_first_child (w) != NULL)
        w = gtk_widget_get_first_child (w);
      else
        {
          while (w != NULL && gtk_widget_get_next_sibling (w) == NULL)
            w = gtk_widget_get_parent (w);
          w = w ? gtk_widget_get_next_sibling (w) : NULL;
        }
    }
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  g_assert_cmpint (strata_session_get_selected_item (f.session, &selected, NULL), ==, STRATA_SELECTED_CALL);
  g_assert_true (strata_trace_get_thread (trace, selected.thread)->tid == 15894);
  after = strata_event_details_dup_text (details);
  g_assert_nonnull (strstr (after, "SomeSlice"));
  g_assert_nonnull (strstr (after, "← OtherSlice"));

  /* Escape clears the selection and the pane says so. */
  activate (&f, "view.clear-selection");
  activate (&f, "view.clear-selection");
  g_clear_pointer (&after, g_free);
  after = strata_event_details_dup_text (details);
  g_assert_nonnull (strstr (after, "Select a call or an event"));

  fixture_close (&f);
}

/* An async slice selected: its kind, id and args read from the file. */
static void
test_timeline_event_details (void)
{
  Fixture f;
  StrataEventDetails *details;
  StrataTrace *trace;
  g_autofree char *text = NULL;
  guint event = G_MAXUINT;

  fixture_open_in (&f, "catapult", "nestable_async.json");
  details = STRATA_EVENT_DETAILS (f.window->event_details);
  trace = strata_session_get_trace (f.session);
  for (guint i = 0; i < strata_trace_get_n_events (trace); i++)
    if (g_str_equal (strata_trace_get_string (trace, strata_trace_get_event (trace, i)->name), "REQUEST_FOO"))
      event = i;
  g_assert_cmpuint (event, !=, G_MAXUINT);
  strata_session_select_event (f.session, event);
  strata_test_iterate_until (details_read, details);

  text = strata_event_details_dup_text (details);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "REQUEST_FOO"));
  g_assert_nonnull (strstr (text, "Async slice"));
  g_assert_nonnull (strstr (text, "Arguments"));
  activate (&f, "timeline.copy");
  {
    g_autofree char *copied = read_clipboard (GTK_WIDGET (f.timeline));

    g_assert_nonnull (strstr (copied, "REQUEST_FOO\nKind: Async slice"));
  }
  g_assert_cmpint (gtk_notebook_get_current_page (GTK_NOTEBOOK (f.window->details)), ==,
                   gtk_notebook_page_num (GTK_NOTEBOOK (f.window->details), f.window->event_details));

  fixture_close (&f);
}

/* A click on a counter chart selects its values there: screen readers read
 * them and Ctrl+C copies them; moving to a call replaces them. */
static void
test_timeline_counter_value (void)
{
  Fixture f;
  StrataTrace *trace;
  const StrataCounter *counter;
  const char *name;

  fixture_open_in (&f, "catapult", "instance_counters.json");
  trace = strata_session_get_trace (f.session);
  g_assert_cmpuint (strata_trace_get_n_counters (trace), >, 0);
  counter = strata_trace_get_counter (trace, 0);
  name = strata_trace_get_string (trace, counter->name);
  strata_session_select_counter_value (f.session, 0, counter->times[counter->n_samples - 1]);
  activate (&f, "timeline.copy");
  {
    g_autofree char *copied = read_clipboard (GTK_WIDGET (f.timeline));

    g_assert_true (g_str_has_prefix (copied, name));
    g_assert_nonnull (strstr (copied, strata_trace_get_string (trace, counter->series_names[0])));
  }
  fixture_close (&f);
}

static GtkWidget *
find_button (GtkWidget  *root,
             const char *after_heading)
{
  gboolean seen = FALSE;

  for (GtkWidget *w = gtk_widget_get_first_child (root); w != NULL; )
    {
      if (GTK_IS_LABEL (w) && g_str_equal (gtk_label_get_text (GTK_LABEL (w)), after_heading))
        seen = TRUE;
      if (seen && GTK_IS_BUTTON (w))
        return w;
      if (gtk_widget_get_first_child (w) != NULL && !GTK_IS_BUTTON (w))
        w = gtk_widget_get_first_child (w);
      else
        {
          while (w != NULL && w != root && gtk_widget_get_next_sibling (w) == NULL)
            w = gtk_widget_get_parent (w);
          w = (w == NULL || w == root) ? NULL : gtk_widget_get_next_sibling (w);
        }
    }
  return NULL;
}

/* catapult's quads.json: snapshots whose args refer to other objects by
 * "id_ref" link to them. */
static void
test_timeline_object_links (void)
{
  Fixture f;
  StrataEventDetails *details;
  StrataTrace *trace;
  GtkWidget *link = NULL;
  g_autofree char *label = NULL;
  guint selected, tried = 0;

  fixture_open_in (&f, "catapult", "quads_with_render_passes.json");
  details = STRATA_EVENT_DETAILS (f.window->event_details);
  trace = strata_session_get_trace (f.session);
  for (guint i = 0; i < strata_trace_get_n_events (trace) && link == NULL && tried < 40; i++)
    {
      if (strata_trace_get_event (trace, i)->phase != 'O')
        continue;
      tried++;
      strata_session_select_event (f.session, i);
      strata_test_iterate_until (details_read, details);
      link = find_button (GTK_WIDGET (details), "Referenced objects");
    }
  g_assert_nonnull (link);
  /* The pane is rebuilt for the object: read the link's text first. */
  label = g_strdup (gtk_button_get_label (GTK_BUTTON (link)));
  g_signal_emit_by_name (link, "clicked");
  g_assert_cmpint (strata_session_get_selected_item (f.session, NULL, &selected), ==, STRATA_SELECTED_EVENT);
  g_assert_nonnull (strstr (label, strata_trace_get_string (trace, strata_trace_get_event (trace, selected)->id)));

  fixture_close (&f);
}

static char *
track_order (StrataTimeline *timeline)
{
  const GArray *tracks = strata_timeline_get_tracks (timeline);
  GString *order = g_string_new (NULL);

  for (guint i = 0; i < tracks->len; i++)
    {
      const StrataTrack *track = &g_array_index (tracks, StrataTrack, i);

      g_string_append_printf (order, "%s%c%u%s", i ? " " : "", "ptcao"[track->kind], track->index,
                              track->collapsed ? "-" : "");
    }
  return g_string_free (order, FALSE);
}

/* catapult's instance_counters.json: one process, two counters, one
 * thread. Tracks move, pin, hide and collapse through their menu. */
static void
test_timeline_track_menu (void)
{
  Fixture f;
  g_autofree char *order = NULL;

  fixture_open_in (&f, "catapult", "instance_counters.json");
#define ORDER_IS(expected) \
  G_STMT_START { g_free (order); order = track_order (f.timeline); g_assert_cmpstr (order, ==, expected); } G_STMT_END

  ORDER_IS ("p0 c0 c1 t0");
  strata_timeline_track_menu_for (f.timeline, STRATA_TRACK_COUNTER, 1, 0);
  activate (&f, "timeline.track-move-up");
  ORDER_IS ("p0 c1 c0 t0");
  activate (&f, "timeline.track-move-up");
  ORDER_IS ("p0 c1 c0 t0");
  activate (&f, "timeline.track-move-down");
  activate (&f, "timeline.track-move-down");
  ORDER_IS ("p0 c0 t0 c1");

  strata_timeline_track_menu_for (f.timeline, STRATA_TRACK_THREAD, 0, 0);
  activate (&f, "timeline.track-pin");
  ORDER_IS ("t0 p0 c0 c1");
  activate (&f, "timeline.track-collapse");
  ORDER_IS ("t0- p0 c0 c1");
  activate (&f, "timeline.track-pin");
  ORDER_IS ("p0 c0 t0- c1");

  strata_timeline_track_menu_for (f.timeline, STRATA_TRACK_COUNTER, 0, 0);
  activate (&f, "timeline.track-hide");
  ORDER_IS ("p0 t0- c1");
  activate (&f, "timeline.show-hidden-tracks");
  ORDER_IS ("p0 c0 t0- c1");

  /* The main menu's Show Hidden Tracks is offered only while one is. */
  {
    g_autoptr(GSimpleActionGroup) view_group = G_SIMPLE_ACTION_GROUP (strata_session_create_actions (f.session));
    GActionGroup *view = G_ACTION_GROUP (view_group);

    g_assert_false (g_action_group_get_action_enabled (view, "show-hidden-tracks"));
    strata_timeline_track_menu_for (f.timeline, STRATA_TRACK_COUNTER, 0, 0);
    activate (&f, "timeline.track-hide");
    g_assert_true (g_action_group_get_action_enabled (view, "show-hidden-tracks"));
    g_action_group_activate_action (view, "show-hidden-tracks", NULL);
    ORDER_IS ("p0 c0 t0- c1");
    g_assert_false (g_action_group_get_action_enabled (view, "show-hidden-tracks"));
  }

  /* The process header counts the threads it shows. */
  g_assert_cmpuint (g_array_index (strata_timeline_get_tracks (f.timeline), StrataTrack, 0).n_threads, ==, 1);
  strata_timeline_track_menu_for (f.timeline, STRATA_TRACK_THREAD, 0, 0);
  activate (&f, "timeline.track-hide");
  ORDER_IS ("p0 c0 c1");
  g_assert_cmpuint (g_array_index (strata_timeline_get_tracks (f.timeline), StrataTrack, 0).n_threads, ==, 0);
#undef ORDER_IS

  fixture_close (&f);
}

/* catapult's instant_events.json: threads with only instants get a row,
 * and every instant can be hit where it is drawn. */
static void
test_timeline_instant_rows (void)
{
  g_autofree char *path = strata_test_fixture_path ("catapult", "instant_events.json", NULL);
  g_autoptr(StrataTrace) trace = strata_test_load_path (path, NULL);
  g_autoptr(StrataEventIndex) events = NULL;
  g_autoptr(GArray) tracks = NULL;
  double content_height;
  guint n_threads = 0;

  g_assert_nonnull (trace);
  events = strata_event_index_new (trace);
  tracks = strata_timeline_layout (trace, events, FALSE, NULL, &content_height);
  for (guint i = 0; i < tracks->len; i++)
    n_threads += g_array_index (tracks, StrataTrack, i).kind == STRATA_TRACK_THREAD;
  g_assert_cmpuint (tracks->len, ==, 5);
  g_assert_cmpuint (n_threads, ==, 3);
  g_assert_cmpuint (events->global_instants->len, ==, 1);
}

static void
test_timeline_needs_display (void)
{
  g_test_skip ("no display; run under xvfb-run");
}

/* 100,000 threads in 1,000 processes, one call each: laying the tracks
 * out and filling the thread selector were quadratic (9.5 s and 12 s). */
static void
test_timeline_many_threads (void)
{
  GString *json = g_string_new ("{\"traceEvents\": [");
  g_autofree char *path = NULL;
  const GArray *tracks;
  gint64 start;
  double seconds;
  Fixture f;

  for (guint t = 0; t < 100000; t++)
    g_string_append_printf (json, "%s{\"name\": \"work\", \"ph\": \"X\", \"ts\": %u, \"dur\": 5, "
                                  "\"pid\": %u, \"tid\": %u}", t ? ", " : "", t, t / 100 + 1, t + 1);
  g_string_append (json, "]}");
  path = strata_test_write_file ("threads.json", json->str, json->len);
  g_string_free (json, TRUE);

  start = g_get_monotonic_time ();
  fixture_open_path (&f, path);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  g_test_message ("100,000 threads: window ready with its profile in %.2f s", seconds);

  tracks = strata_timeline_get_tracks (f.timeline);
  g_assert_cmpuint (tracks->len, ==, 100000 + 1000);
  g_assert_cmpint (g_array_index (tracks, StrataTrack, 0).kind, ==, STRATA_TRACK_PROCESS);
  g_assert_cmpint (g_array_index (tracks, StrataTrack, 1).kind, ==, STRATA_TRACK_THREAD);
  /* Release builds take about 1 s; this leaves room for sanitizers. */
  g_assert_cmpfloat (seconds, <, 8.0);
  fixture_close (&f);
}

/* Writes @path: a gzip Trace Event file with one call whose name is
 * @name_len bytes, and a short call beside it. Small on disk. */
static void
write_big_name_trace (const char *path,
                      gsize       name_len)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileOutputStream) out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, NULL);
  g_autoptr(GZlibCompressor) z = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 1);
  g_autoptr(GOutputStream) gz = g_converter_output_stream_new (G_OUTPUT_STREAM (out), G_CONVERTER (z));
  g_autofree char *chunk = g_malloc (1 << 20);
  const char *head = "{\"traceEvents\": [{\"name\": \"";
  const char *tail = "\", \"ph\": \"X\", \"ts\": 0, \"dur\": 100, \"pid\": 1, \"tid\": 1}, "
                     "{\"name\": \"small\", \"ph\": \"X\", \"ts\": 10, \"dur\": 10, \"pid\": 1, \"tid\": 1}]}";

  memset (chunk, 'n', 1 << 20);
  g_assert_true (g_output_stream_write_all (gz, head, strlen (head), NULL, NULL, NULL));
  for (gsize done = 0; done < name_len; done += 1 << 20)
    g_assert_true (g_output_stream_write_all (gz, chunk, MIN ((gsize) 1 << 20, name_len - done), NULL, NULL, NULL));
  g_assert_true (g_output_stream_write_all (gz, tail, strlen (tail), NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (gz, NULL, NULL));
}

/* The details say the name is shortened; Copy Whole Name puts all of it on
 * the clipboard, Show Whole Name opens a window with its first 64 KiB. */
static void
assert_whole_name_reachable (Fixture *f,
                             gsize    name_len)
{
  GtkWidget *details = f->window->event_details;
  g_autofree char *shown = strata_event_details_dup_text (STRATA_EVENT_DETAILS (details));
  GValue value = G_VALUE_INIT;
  g_autoptr(GError) error = NULL;
  GListModel *toplevels = gtk_window_get_toplevels ();
  guint n_windows = g_list_model_get_n_items (toplevels);
  GtkWindow *viewer;
  GtkWidget *view;
  GtkTextIter start, end;
  g_autofree char *text = NULL;

  g_assert_nonnull (strstr (shown, "it is shortened here"));
  g_assert_true (gtk_widget_activate_action (details, "details.copy-whole-name", NULL));
  g_value_init (&value, G_TYPE_STRING);
  g_assert_true (gdk_content_provider_get_value (gdk_clipboard_get_content (gtk_widget_get_clipboard (details)),
                                                 &value, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (g_value_get_string (&value)), ==, name_len);
  g_value_unset (&value);

  g_assert_true (gtk_widget_activate_action (details, "details.show-whole-name", NULL));
  g_assert_cmpuint (g_list_model_get_n_items (toplevels), ==, n_windows + 1);
  viewer = g_list_model_get_item (toplevels, n_windows);
  g_object_unref (viewer);
  view = gtk_widget_get_last_child (gtk_window_get_child (viewer));
  view = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (view));
  if (GTK_IS_VIEWPORT (view))
    view = gtk_viewport_get_child (GTK_VIEWPORT (view));
  gtk_text_buffer_get_bounds (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), &start, &end);
  text = gtk_text_iter_get_text (&start, &end);
  g_assert_cmpuint (strlen (text), ==, 64 * 1024 - 1);
  gtk_window_destroy (viewer);
}

/* A 200 MB name aborted the window after 52 s at 7.2 GB; names are clipped
 * for display, and the whole stays under 1 GB (ASan's shadow memory
 * aside). */
#define BIG_NAME_BYTES (200u << 20)
static void check_big_name (void);

/* In a process of its own, so the peak is this test's. */
static void
test_timeline_big_name (void)
{
  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 120 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDOUT | G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
      return;
    }
  check_big_name ();
}

static void
check_big_name (void)
{
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "big-name.json.gz", NULL);
  g_autoptr(StrataDescription) description = NULL;
  g_autofree char *text = NULL;
  struct rusage usage;
  gint64 start;
  Fixture f;

  write_big_name_trace (path, BIG_NAME_BYTES);
  start = g_get_monotonic_time ();
  fixture_open_path (&f, path);
  /* Draw the rows as the widget does: the renderer lays the name out. */
  {
    StrataTimelineTheme theme = { { 0, 0, 0, 1 }, { 0.2, 0.5, 0.9, 1 }, FALSE };
    StrataTimelineView view = {
      .trace = strata_session_get_trace (f.session), .selected_method = G_MAXUINT32,
      .tracks = strata_timeline_get_tracks (f.timeline), .width = 1200,
      .label_width = STRATA_TIMELINE_LABEL_WIDTH, .theme = &theme,
    };
    cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 200);
    cairo_t *cr = cairo_create (surface);

    strata_session_get_visible_range (f.session, &view.start, &view.end);
    strata_timeline_render_rows (cr, &view, 200);
    cairo_destroy (cr);
    cairo_surface_destroy (surface);
  }
  strata_session_select_call (f.session, &(StrataSliceRef) { 0, 0, 0 });
  description = strata_session_describe_selected_item (f.session);
  text = strata_description_to_text (description);
  getrusage (RUSAGE_SELF, &usage);
  g_test_message ("200 MB name: shown in %.2f s, peak %.0f MB",
                  (g_get_monotonic_time () - start) / 1e6, usage.ru_maxrss / 1024.0);

#if !defined(__SANITIZE_ADDRESS__)
  g_assert_cmpfloat (usage.ru_maxrss / 1024.0, <, 1024);
#endif
  g_assert_cmpuint (strlen (description->title), ==, BIG_NAME_BYTES);
  g_assert_cmpuint (strlen (text), <, 4 * STRATA_UNITS_DISPLAY_MAX);
  g_assert_true (g_str_has_prefix (text, "nnnn"));
  g_assert_nonnull (strstr (text, "…\n"));
  assert_whole_name_reachable (&f, BIG_NAME_BYTES);
  fixture_close (&f);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/timeline/render-offscreen", test_timeline_render_offscreen);
  g_test_add_func ("/timeline/counter-lod", test_timeline_counter_lod);
  g_test_add_func ("/timeline/counter-tracks", test_timeline_counter_tracks);
  g_test_add_func ("/timeline/instant-rows", test_timeline_instant_rows);
  if (!strata_test_init_gtk ())
    {
      g_test_add_func ("/timeline/needs-display", test_timeline_needs_display);
      return g_test_run ();
    }
  g_test_add_func ("/timeline/zoom-and-pan", test_timeline_zoom_and_pan);
  g_test_add_func ("/timeline/select-calls", test_timeline_select_calls);
  g_test_add_func ("/timeline/range-and-clock", test_timeline_range_and_clock);
  g_test_add_func ("/timeline/details-and-flows", test_timeline_details_and_flows);
  g_test_add_func ("/timeline/event-details", test_timeline_event_details);
  g_test_add_func ("/timeline/counter-value", test_timeline_counter_value);
  g_test_add_func ("/timeline/track-menu", test_timeline_track_menu);
  g_test_add_func ("/timeline/object-links", test_timeline_object_links);
  g_test_add_func ("/timeline/many-threads", test_timeline_many_threads);
  g_test_add_func ("/timeline/big-name", test_timeline_big_name);

  return g_test_run ();
}
