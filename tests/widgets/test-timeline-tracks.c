/* test-timeline-tracks.c: how the timeline lays out and draws its
 * tracks: labels that stay in view, the trace's own instants as marks,
 * big async groups closed at first
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-application.h"
#include "strata-loader.h"
#include "strata-test-gtk.h"
#include "strata-test-util.h"
#include "strata-timeline-private.h"
#include "strata-track-prefs.h"
#include "strata-window-private.h"

typedef struct
{
  StrataApplication *app;
  StrataWindow      *window;
  StrataTimeline    *timeline;
} Fixture;

static void
fixture_open_in (Fixture    *f,
                 const char *folder,
                 const char *fixture_name)
{
  g_autofree char *path = strata_test_fixture_path (folder, fixture_name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  f->app = strata_test_new_app ();
  g_application_open (G_APPLICATION (f->app), &file, 1, "");
  f->window = strata_test_only_window (f->app);
  strata_test_wait_for_window (f->window);
  f->timeline = STRATA_TIMELINE (f->window->timeline);
}

static void
fixture_close (Fixture *f)
{
  strata_test_finish_app (f->app);
}

/* Dark pixels (a label's text) in the label column's first row, under
 * the ruler, as the timeline draws itself. */
static guint
top_label_ink (StrataTimeline *timeline)
{
  GtkWidget *widget = GTK_WIDGET (timeline);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree guchar *pixels = g_malloc ((gsize) width * height * 4);
  guint ink = 0;

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    return 0;
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  gdk_texture_download (texture, pixels, (gsize) width * 4);
  for (int y = STRATA_TIMELINE_HEADER_TOTAL + 2; y < STRATA_TIMELINE_HEADER_TOTAL + 14; y++)
    for (int x = 10; x < 150; x++)
      {
        const guchar *px = pixels + ((gsize) y * width + x) * 4;

        /* Premultiplied: text is opaque and dark; the band is almost clear. */
        ink += px[3] > 128 && px[0] + px[1] + px[2] < 3 * 110;
      }
  return ink;
}

/* Whether the widget has drawn itself, so a snapshot holds its picture. */
static gboolean
drawn_once (gpointer data)
{
  g_autoptr(GdkPaintable) paintable = NULL;
  GtkSnapshot *snapshot;
  g_autoptr(GskRenderNode) node = NULL;

  if (!gtk_widget_get_mapped (data) || gtk_widget_get_height (data) <= 0)
    return FALSE;
  paintable = gtk_widget_paintable_new (data);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (data), gtk_widget_get_height (data));
  node = gtk_snapshot_free_to_node (snapshot);
  return node != NULL;
}

/* A deep thread scrolled past its top keeps its name in view: the label
 * sticks to the top of the pane while the thread is there. */
static void
test_timeline_sticky_label (void)
{
  const GArray *tracks;
  const StrataTrack *deep = NULL;
  GtkAdjustment *scroll;
  Fixture f;

  fixture_open_in (&f, "dmtrace", "studio-perflib-char_2_bytes.trace");
  strata_test_iterate_until (drawn_once, f.timeline);
  tracks = strata_timeline_get_tracks (f.timeline);
  for (guint i = 0; i < tracks->len && deep == NULL; i++)
    if (g_array_index (tracks, StrataTrack, i).kind == STRATA_TRACK_THREAD &&
        g_array_index (tracks, StrataTrack, i).height > 8 * STRATA_TIMELINE_ROW_HEIGHT)
      deep = &g_array_index (tracks, StrataTrack, i);
  /* Not g_assert_nonnull(), which G_DISABLE_ASSERT would leave out. */
  if (deep == NULL)
    g_error ("no thread of the fixture is deeper than 8 rows");
  scroll = f.timeline->vadjustment;
  gtk_adjustment_set_value (scroll, deep->y + 4 * STRATA_TIMELINE_ROW_HEIGHT);
  g_assert_cmpfloat (gtk_adjustment_get_value (scroll), >, deep->y + STRATA_TIMELINE_ROW_HEIGHT);
  gtk_widget_queue_draw (GTK_WIDGET (f.timeline));
  strata_test_iterate_until (drawn_once, f.timeline);
  g_assert_cmpuint (top_label_ink (f.timeline), >, 20);
  fixture_close (&f);
}

/* The trace's own instants are marks in the pane's first row: one
 * there is hit where it is drawn (catapult's instant_events.json has
 * one). */
static void
test_timeline_global_marks (void)
{
  StrataTimelineView view;
  StrataTimelineTheme theme;
  StrataTimelineHit hit;
  guint global;
  gint64 time;
  double x;
  Fixture f;

  fixture_open_in (&f, "catapult", "instant_events.json");
  strata_test_iterate_until (drawn_once, f.timeline);
  strata_timeline_fill_view (f.timeline, &view, &theme);
  g_assert_cmpuint (view.events->global_instants->len, ==, 1);
  global = g_array_index (view.events->global_instants, guint, 0);
  time = strata_trace_get_event (view.trace, global)->start;
  x = view.label_width + (double) (time - view.start) / (double) (view.end - view.start) * (view.width - view.label_width);
  g_assert_true (strata_timeline_hit_at (f.timeline, x, STRATA_TIMELINE_HEADER_TOTAL + 4, &hit));
  g_assert_cmpint (hit.kind, ==, STRATA_HIT_EVENT);
  g_assert_cmpuint (hit.index, ==, global);
  fixture_close (&f);
}

/* An async group of 20 lanes starts collapsed, one of 3 open; a toggle
 * opens the big one and a second closes it again. */
static void
test_timeline_big_async_collapsed (void)
{
  GString *json = g_string_new ("{\"traceEvents\": [");
  g_autofree char *path = NULL;
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(StrataEventIndex) events = NULL;
  g_autoptr(StrataTrackPrefs) prefs = strata_track_prefs_new ();
  g_autoptr(GArray) tracks = NULL;
  double height;
  int found[2] = { -1, -1 };

  /* Process 1: 20 overlapping async events; process 2: 3. */
  for (guint p = 1; p <= 2; p++)
    for (guint i = 0; i < (p == 1 ? 20u : 3u); i++)
      g_string_append_printf (json, "{\"name\": \"load\", \"cat\": \"net\", \"ph\": \"b\", \"id\": %u, \"ts\": %u, \"pid\": %u, \"tid\": 1},"
                                    "{\"name\": \"load\", \"cat\": \"net\", \"ph\": \"e\", \"id\": %u, \"ts\": 1000, \"pid\": %u, \"tid\": 1},",
                              i, i, p, i, p);
  g_string_append (json, "{\"name\": \"work\", \"ph\": \"X\", \"ts\": 0, \"dur\": 5, \"pid\": 1, \"tid\": 1}]}");
  path = strata_test_write_file ("async.json", json->str, json->len);
  g_string_free (json, TRUE);
  trace = strata_test_load_path (path, NULL);
  events = strata_event_index_new (trace);
  tracks = strata_timeline_layout (trace, events, FALSE, prefs, &height);
  for (guint i = 0; i < tracks->len; i++)
    if (g_array_index (tracks, StrataTrack, i).kind == STRATA_TRACK_ASYNC)
      found[found[0] < 0 ? 0 : 1] = i;
  g_assert_cmpint (found[1], >=, 0);
  g_assert_true (g_array_index (tracks, StrataTrack, found[0]).collapsed);
  g_assert_false (g_array_index (tracks, StrataTrack, found[1]).collapsed);
  strata_track_prefs_toggle_collapsed (prefs, strata_track_key (STRATA_TRACK_ASYNC, g_array_index (tracks, StrataTrack, found[0]).index));
  g_clear_pointer (&tracks, g_array_unref);
  tracks = strata_timeline_layout (trace, events, FALSE, prefs, &height);
  g_assert_false (g_array_index (tracks, StrataTrack, found[0]).collapsed);
  g_assert_cmpfloat (g_array_index (tracks, StrataTrack, found[0]).height, >=, 20 * STRATA_TIMELINE_ROW_HEIGHT);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (!strata_test_init_gtk ())
    {
      g_test_add_func ("/timeline-tracks/needs-display", strata_test_skip_no_display);
      return g_test_run ();
    }
  g_test_add_func ("/timeline-tracks/big-async-collapsed", test_timeline_big_async_collapsed);
  g_test_add_func ("/timeline-tracks/sticky-label", test_timeline_sticky_label);
  g_test_add_func ("/timeline-tracks/global-marks", test_timeline_global_marks);
  return g_test_run ();
}
