/* test-window.c: the window: opening, drops, panes, keys, search and the Calls page
 *
 * The real window, driven through GApplication::open, drops, keys and
 * actions under a (virtual) X display.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "strata-application.h"
#include "strata-heap-labels.h"
#include "strata-heap-row.h"
#include "strata-dominators-view.h"
#include "strata-duplicates-view.h"
#include "strata-heap-object-list.h"
#include "strata-heap-object-row.h"
#include "strata-heap-view-private.h"
#include "hprof-writer.h"
#include "strata-call-node-row.h"
#include "strata-call-tree-view.h"
#include "strata-calls-view.h"
#include "strata-events-view.h"
#include "strata-notes-view.h"
#include "strata-compare-view.h"
#include "strata-flame-graph.h"
#include "strata-flame-render.h"
#include "strata-import-banner-private.h"
#include "strata-profile-view-private.h"
#include "strata-screenshot.h"
#include "strata-search-bar.h"
#include "strata-site-row.h"
#include "strata-sites-view-private.h"
#include "strata-test-gtk.h"
#include "strata-test-util.h"
#include "strata-window-private.h"
#include "strata-timeline-private.h"
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

static void
test_window_open_missing_file (void)
{
  StrataApplication *app = strata_test_new_app ();
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "missing.trace", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrataWindow *window;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = strata_test_only_window (app);

  /* The loading state shows at once, before the worker has answered. */
  g_assert_true (strata_window_get_busy (window));
  g_assert_cmpstr (strata_window_get_page (window), ==, "loading");
  strata_test_assert_label_contains (window->loading_title, "missing.trace");
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (window)));

  strata_test_wait_for_window (window);
  g_assert_cmpstr (strata_window_get_page (window), ==, "error");
  strata_test_assert_label_contains (window->error_title, "missing.trace");
  strata_test_assert_label_contains (window->error_reason, "does not exist");

  strata_test_finish_app (app);
}

static void
test_window_open_unreadable_content (void)
{
  StrataApplication *app = strata_test_new_app ();
  g_autofree char *path = strata_test_write_file ("image.trace", strata_test_png_bytes, sizeof strata_test_png_bytes - 1);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrataWindow *window;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = strata_test_only_window (app);
  strata_test_wait_for_window (window);
  g_assert_cmpstr (strata_window_get_page (window), ==, "error");
  strata_test_assert_label_contains (window->error_reason, "PNG");

  /* The app is still alive: a second file reuses nothing busy and works. */
  g_application_open (G_APPLICATION (app), &file, 1, "");
  strata_test_finish_app (app);
}

static void
test_window_activate_shows_welcome (void)
{
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window;

  g_application_activate (G_APPLICATION (app));
  window = strata_test_only_window (app);
  g_assert_cmpstr (strata_window_get_page (window), ==, "welcome");
  g_assert_true (strata_window_is_empty (window));
  g_assert_false (gtk_widget_get_visible (window->drop_overlay));

  strata_test_finish_app (app);
}

static gboolean
emit_drop (StrataWindow *window,
           GSList       *files)
{
  g_auto(GValue) value = G_VALUE_INIT;
  gboolean handled = FALSE;

  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (files));
  g_signal_emit_by_name (window->drop_target, "drop", &value, 20.0, 20.0, &handled);
  return handled;
}

static void
test_window_drop (void)
{
  StrataApplication *app = strata_test_new_app ();
  g_autofree char *png = strata_test_write_file ("dropped.trace", strata_test_png_bytes, sizeof strata_test_png_bytes - 1);
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autoptr(GFile) png_file = g_file_new_for_path (png);
  g_autoptr(GFile) dir_file = g_file_new_for_path (dir);
  g_autoptr(GSList) files = NULL;
  GdkDragAction action = 0;
  StrataWindow *window;
  GList *windows;

  g_application_activate (G_APPLICATION (app));
  window = strata_test_only_window (app);

  /* Hovering a drag over the window highlights it. */
  g_signal_emit_by_name (window->drop_target, "enter", 20.0, 20.0, &action);
  g_assert_cmpint (action, ==, GDK_ACTION_COPY);
  g_assert_true (gtk_widget_get_visible (window->drop_overlay));
  g_signal_emit_by_name (window->drop_target, "leave");
  g_assert_false (gtk_widget_get_visible (window->drop_overlay));

  /* Two files: the first opens here, the second in a window of its own. */
  files = g_slist_append (files, png_file);
  files = g_slist_append (files, dir_file);
  g_assert_true (emit_drop (window, files));
  g_assert_false (gtk_widget_get_visible (window->drop_overlay));
  g_assert_cmpstr (strata_window_get_page (window), ==, "loading");

  windows = gtk_application_get_windows (GTK_APPLICATION (app));
  g_assert_cmpuint (g_list_length (windows), ==, 2);
  for (GList *l = windows; l != NULL; l = l->next)
    strata_test_wait_for_window (l->data);

  strata_test_assert_label_contains (window->error_title, "dropped.trace");
  strata_test_assert_label_contains (window->error_reason, "PNG");
  for (GList *l = windows; l != NULL; l = l->next)
    if (l->data != window)
      strata_test_assert_label_contains (STRATA_WINDOW (l->data)->error_reason, "folder");

  strata_test_finish_app (app);
}

/* A file opened while a trace is shown gets a window of its own; the
 * trace on show stays. */
static void
test_window_open_keeps_trace (void)
{
  StrataApplication *app = strata_test_new_app ();
  g_autofree char *first_path = strata_test_fixture_path ("dmtrace", "studio-perflib-exception.trace", NULL);
  g_autofree char *second_path = strata_test_fixture_path ("catapult", "instance_counters.json", NULL);
  g_autoptr(GFile) first = g_file_new_for_path (first_path);
  g_autoptr(GFile) second = g_file_new_for_path (second_path);
  g_autofree char *second_uri = g_file_get_uri (second);
  g_autoptr(GSList) files = NULL;
  StrataWindow *window;
  GList *windows;

  g_application_open (G_APPLICATION (app), &first, 1, "");
  window = strata_test_only_window (app);
  strata_test_wait_for_window (window);
  g_assert_cmpstr (strata_window_get_page (window), ==, "trace");

  /* Open Recent (and the file dialog, which ends the same way). */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.open-uri", "s", second_uri);
  windows = gtk_application_get_windows (GTK_APPLICATION (app));
  g_assert_cmpuint (g_list_length (windows), ==, 2);
  for (GList *l = windows; l != NULL; l = l->next)
    strata_test_wait_for_window (l->data);
  strata_test_assert_label_contains (window->title_label, "studio-perflib-exception.trace");
  g_assert_cmpstr (strata_window_get_page (window), ==, "trace");
  for (GList *l = windows; l != NULL; l = l->next)
    if (l->data != window)
      strata_test_assert_label_contains (STRATA_WINDOW (l->data)->title_label, "instance_counters.json");

  /* A drop too. */
  files = g_slist_append (files, second);
  g_assert_true (emit_drop (window, files));
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, 3);
  strata_test_assert_label_contains (window->title_label, "studio-perflib-exception.trace");
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    strata_test_wait_for_window (l->data);

  strata_test_finish_app (app);
}

/* The window's own binding for @keyval with @mods, or NULL. */
static const char *
window_binding_with (StrataWindow    *window,
                     guint            keyval,
                     GdkModifierType  mods)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      for (guint j = 0; GTK_IS_SHORTCUT_CONTROLLER (controller) && j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);

          if (GTK_IS_KEYVAL_TRIGGER (trigger) && GTK_IS_NAMED_ACTION (action) &&
              gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval &&
              gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == mods)
            return gtk_named_action_get_action_name (GTK_NAMED_ACTION (action));
        }
    }
  return NULL;
}

static const char *
window_binding (StrataWindow *window,
                guint         keyval)
{
  return window_binding_with (window, keyval, 0);
}

/* The view keys are the window's, so they work from any pane; F6 (and
 * Tab from a table) moves between the timeline and the page below. */
static void
test_window_panes_and_keys (void)
{
  StrataApplication *app = strata_test_new_app ();
  g_autofree char *path = strata_test_fixture_path ("dmtrace", "studio-perflib-exception.trace", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrataWindow *window;
  GtkWidget *focus;
  gint64 start, end, zoomed_start, zoomed_end;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = strata_test_only_window (app);
  strata_test_wait_for_window (window);
  while (!gtk_widget_is_drawable (window->timeline) || !gtk_widget_is_drawable (window->details))
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpstr (window_binding (window, GDK_KEY_w), ==, "view.zoom-in");
  g_assert_cmpstr (window_binding (window, GDK_KEY_s), ==, "view.zoom-out");
  g_assert_cmpstr (window_binding (window, GDK_KEY_a), ==, "view.pan-left");
  g_assert_cmpstr (window_binding (window, GDK_KEY_d), ==, "view.pan-right");
  g_assert_cmpstr (window_binding (window, GDK_KEY_0), ==, "view.zoom-fit");
  g_assert_cmpstr (window_binding (window, GDK_KEY_f), ==, "view.zoom-selection");
  g_assert_cmpstr (window_binding (window, GDK_KEY_c), ==, "view.compact");

  /* From the profile table, W zooms the timeline. */
  g_assert_true (gtk_widget_child_focus (window->profile_view, GTK_DIR_TAB_FORWARD));
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (gtk_widget_is_ancestor (focus, window->profile_view));
  strata_session_get_visible_range (window->session, &start, &end);
  g_assert_true (gtk_widget_activate_action (focus, window_binding (window, GDK_KEY_w), NULL));
  strata_session_get_visible_range (window->session, &zoomed_start, &zoomed_end);
  g_assert_cmpint (zoomed_end - zoomed_start, <, end - start);

  /* F6 goes to the timeline, and again to the page below. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.next-pane", NULL);
  g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == window->timeline);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.next-pane", NULL);
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), window->profile_view));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.previous-pane", NULL);
  g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == window->timeline);

  strata_test_finish_app (app);
}

/* A drag across a call pans and selects nothing; a click selects it. The
 * pointer is the X server's, moved by xdotool, so GTK's own gestures
 * decide what is a click. */
static void
test_window_drag_does_not_select (void)
{
  StrataApplication *app;
  g_autofree char *path = strata_test_fixture_path ("dmtrace", "studio-perflib-exception.trace", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  g_autofree char *x = NULL, *y = NULL, *x_moved = NULL;
  StrataWindow *window;
  StrataTimeline *timeline;
  StrataTimelineHit hit = { 0 };
  double call_x = STRATA_TIMELINE_LABEL_WIDTH + 40, call_y = -1, win_x, win_y, surface_x, surface_y;
  gint64 start, end, panned_start, panned_end;

  if (!strata_test_can_drive_pointer (xdotool))
    return;
  app = strata_test_new_app ();
  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = strata_test_only_window (app);
  strata_test_wait_for_window (window);
  gtk_window_set_title (GTK_WINDOW (window), "strata-drag-test");
  while (!gtk_widget_is_drawable (window->timeline) || gtk_widget_get_height (window->timeline) < 100)
    g_main_context_iteration (NULL, TRUE);
  timeline = STRATA_TIMELINE (window->timeline);
  /* A call wide enough that 150 pixels right of it is still timeline. */
  for (double probe = 0; probe < gtk_widget_get_height (window->timeline) && call_y < 0; probe += 2)
    for (double across = STRATA_TIMELINE_LABEL_WIDTH + 10; across < 400 && call_y < 0; across += 10)
      if (strata_timeline_hit_at (timeline, across, probe, &hit) && hit.kind == STRATA_HIT_SPAN)
        call_x = across, call_y = probe + 1;
  if (call_y < 0)
    g_printerr ("timeline %dx%d, hit kind %d\n", gtk_widget_get_width (window->timeline), gtk_widget_get_height (window->timeline), hit.kind);
  g_assert_cmpfloat (call_y, >=, 0);
  g_assert_true (gtk_widget_translate_coordinates (window->timeline, GTK_WIDGET (window), call_x, call_y, &win_x, &win_y));
  gtk_native_get_surface_transform (GTK_NATIVE (window), &surface_x, &surface_y);
  x = g_strdup_printf ("%d", (int) (win_x + surface_x));
  y = g_strdup_printf ("%d", (int) (win_y + surface_y));
  x_moved = g_strdup_printf ("%d", (int) (win_x + surface_x) + 150);
  g_assert_cmpint (strata_session_get_selected_item (window->session, NULL, NULL), ==, STRATA_SELECTED_NOTHING);

  /* Zoomed in around the call, so the view has room to pan. */
  strata_session_get_visible_range (window->session, &start, &end);
  strata_session_zoom (window->session, 4, start + (end - start) * (call_x - STRATA_TIMELINE_LABEL_WIDTH) /
                                             (gtk_widget_get_width (window->timeline) - STRATA_TIMELINE_LABEL_WIDTH));
  strata_session_get_visible_range (window->session, &start, &end);
  strata_test_run_xdotool ((const char *[]) { xdotool, "search", "--sync", "--name", "strata-drag-test",
                                  "mousemove", "--window", "%1", x, y, "sleep", "0.2", "mousedown", "1",
                                  "sleep", "0.1", "mousemove", "--window", "%1", x_moved, y, "sleep", "0.2",
                                  "mouseup", "1", NULL });
  strata_session_get_visible_range (window->session, &panned_start, &panned_end);
  g_assert_cmpint (panned_start, <, start);
  g_assert_cmpint (strata_session_get_selected_item (window->session, NULL, NULL), ==, STRATA_SELECTED_NOTHING);

  strata_test_run_xdotool ((const char *[]) { xdotool, "search", "--sync", "--name", "strata-drag-test",
                                  "mousemove", "--window", "%1", x, y, "sleep", "0.2", "click", "1", NULL });
  g_assert_cmpint (strata_session_get_selected_item (window->session, NULL, NULL), ==, STRATA_SELECTED_CALL);

  strata_test_finish_app (app);
}

/* Ctrl+F (win.find) from any pane opens the timeline's search; matches
 * are counted and walked in time order; Escape's stop-search clears it. */
static void
test_window_find (void)
{
  StrataApplication *app = strata_test_new_app ();
  g_autofree char *path = strata_test_fixture_path ("dmtrace", "studio-perflib-char_2_bytes.trace", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrataWindow *window;
  StrataSearchBar *bar;
  StrataSliceRef first, second;
  gint64 first_start, second_start;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = strata_test_only_window (app);
  strata_test_wait_for_window (window);
  while (!gtk_widget_is_drawable (window->timeline))
    g_main_context_iteration (NULL, TRUE);
  bar = STRATA_SEARCH_BAR (window->search_bar);
  g_assert_cmpstr (window_binding_with (window, GDK_KEY_f, GDK_CONTROL_MASK), ==, "win.find");
  g_assert_cmpstr (window_binding (window, GDK_KEY_slash), ==, "win.find");

  g_assert_true (gtk_widget_child_focus (window->profile_view, GTK_DIR_TAB_FORWARD));
  g_assert_true (gtk_widget_activate_action (gtk_root_get_focus (GTK_ROOT (window)), "win.find", NULL));
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), window->search_bar));

  strata_search_bar_set_text (bar, "string", FALSE);
  g_assert_nonnull (strata_session_get_search (window->session));
  g_assert_true (g_str_has_suffix (strata_search_bar_get_status (bar), " calls"));
  g_assert_true (strata_session_search_step (window->session, 1));
  strata_session_get_selected_item (window->session, &first, NULL);
  g_assert_true (strata_session_search_step (window->session, 1));
  strata_session_get_selected_item (window->session, &second, NULL);
  first_start = strata_span_table_get_start (strata_trace_get_thread (strata_session_get_trace (window->session), first.thread)->spans, 0, first.depth, first.index);
  second_start = strata_span_table_get_start (strata_trace_get_thread (strata_session_get_trace (window->session), second.thread)->spans, 0, second.depth, second.index);
  g_assert_cmpint (second_start, >=, first_start);

  /* Only the tracks that match: by their names, or by the calls they
   * hold. "string" names no thread, but methods on some. */
  {
    StrataTrace *trace = strata_session_get_trace (window->session);
    guint all = strata_timeline_get_tracks (STRATA_TIMELINE (window->timeline))->len, threads = 0;
    const GArray *tracks;

    strata_search_bar_set_text (bar, "string", FALSE);
    strata_search_bar_set_filter_tracks (bar, TRUE);
    tracks = strata_timeline_get_tracks (STRATA_TIMELINE (window->timeline));
    g_assert_cmpuint (tracks->len, <, all);
    for (guint i = 0; i < tracks->len; i++)
      {
        const StrataTrack *track = &g_array_index (tracks, StrataTrack, i);

        if (track->kind != STRATA_TRACK_THREAD)
          continue;
        threads++;
        g_assert_null (strcasestr (strata_trace_get_string (trace, strata_trace_get_thread (trace, track->index)->name), "string"));
        g_assert_true (strata_search_matches_in_thread (strata_session_get_search (window->session), track->index));
      }
    g_assert_cmpuint (threads, >=, 1);
    strata_search_bar_set_filter_tracks (bar, FALSE);
    g_assert_cmpuint (strata_timeline_get_tracks (STRATA_TIMELINE (window->timeline))->len, ==, all);
  }

  strata_search_bar_set_text (bar, "no method has this name", FALSE);
  g_assert_cmpstr (strata_search_bar_get_status (bar), ==, "No matches");
  strata_search_bar_set_text (bar, "(", TRUE);
  g_assert_true (g_str_has_prefix (strata_search_bar_get_status (bar), "Not a valid expression"));
  g_assert_null (strata_session_get_search (window->session));

  strata_test_finish_app (app);
}

/* The Calls page: every call of the selected method, a bar of its
 * histogram marks those calls, a row selects its call in the timeline;
 * a selected counter sample shows its series' figures. */
static void
test_window_calls (void)
{
  StrataApplication *app = strata_test_new_app ();
  g_autofree char *path = strata_test_fixture_path ("dmtrace", "studio-perflib-char_2_bytes.trace", NULL);
  g_autofree char *counters_path = strata_test_fixture_path ("catapult", "instance_counters.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) counters = g_file_new_for_path (counters_path);
  StrataWindow *window;
  StrataCallsView *view;
  StrataMethodCalls *calls;
  StrataMethodCallStats stats;
  StrataSliceRef call;
  guint32 method;
  const StrataMethodCall *first;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = strata_test_only_window (app);
  strata_test_wait_for_window (window);
  view = STRATA_CALLS_VIEW (window->calls_view);
  gtk_notebook_set_current_page (GTK_NOTEBOOK (window->details),
                                 gtk_notebook_page_num (GTK_NOTEBOOK (window->details), window->calls_view));
  method = strata_trace_get_thread (strata_session_get_trace (window->session), 0)->spans->calls[1][0].method;
  strata_session_set_selected_method (window->session, method);
  while (!gtk_widget_get_mapped (window->calls_view) || strata_calls_view_get_calls (view) == NULL)
    g_main_context_iteration (NULL, TRUE);
  calls = strata_calls_view_get_calls (view);
  g_assert_cmpuint (strata_method_calls_get_method (calls), ==, method);
  strata_method_calls_get_stats (calls, &stats);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (calls)), ==, stats.n);
  g_assert_true (g_str_has_prefix (strata_calls_view_get_summary (view), "total "));

  /* The longest calls' bar: the list keeps them, the ruler marks them. */
  strata_calls_view_set_log_scale (view, TRUE);
  strata_calls_view_choose_bin (view, 1000);
  g_assert_null (strata_session_get_marks (window->session));
  for (int bin = 47; bin >= 0; bin--)
    {
      strata_calls_view_choose_bin (view, bin);
      if (strata_session_get_marks (window->session) != NULL)
        break;
    }
  g_assert_nonnull (strata_session_get_marks (window->session));
  g_assert_cmpuint (strata_session_get_marks (window->session)->len, ==, 2 * g_list_model_get_n_items (G_LIST_MODEL (calls)));
  g_assert_cmpint (strata_method_calls_get (calls, 0)->duration, ==, stats.max);

  /* A row selects its call in the timeline. */
  first = strata_method_calls_get (calls, 0);
  strata_calls_view_activate (view, 0);
  g_assert_cmpint (strata_session_get_selected_item (window->session, &call, NULL), ==, STRATA_SELECTED_CALL);
  g_assert_cmpuint (call.thread, ==, first->thread);
  g_assert_cmpuint (call.depth, ==, first->depth);
  g_assert_cmpuint (call.index, ==, first->index);
  strata_calls_view_choose_bin (view, -1);
  g_assert_null (strata_session_get_marks (window->session));
  strata_test_finish_app (app);

  /* A counter sample: each series' lowest, highest and mean. */
  app = strata_test_new_app ();
  g_application_open (G_APPLICATION (app), &counters, 1, "");
  window = strata_test_only_window (app);
  strata_test_wait_for_window (window);
  view = STRATA_CALLS_VIEW (window->calls_view);
  gtk_notebook_set_current_page (GTK_NOTEBOOK (window->details),
                                 gtk_notebook_page_num (GTK_NOTEBOOK (window->details), window->calls_view));
  strata_session_select_counter_value (window->session, 0, strata_trace_get_counter (strata_session_get_trace (window->session), 0)->times[0]);
  while (!gtk_widget_get_mapped (window->calls_view))
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (strstr (strata_calls_view_get_summary (view), "lowest"));
  g_assert_nonnull (strstr (strata_calls_view_get_summary (view), "mean"));
  strata_test_finish_app (app);
}

/* The Events page: on Trace Event files only; a row picked selects its
 * call in the timeline (and the page stays), a call picked in the
 * timeline is found in the list, the filter and the selected range cut
 * the list and say so. */
static void
test_window_events (void)
{
  StrataApplication *app = strata_test_new_app ();
  g_autofree char *path = strata_test_write_events ("events-page.json", 200, "paint");
  g_autofree char *dmtrace_path = strata_test_fixture_path ("dmtrace", "studio-perflib-char_2_bytes.trace", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) dmtrace = g_file_new_for_path (dmtrace_path);
  GtkNotebook *notebook;
  StrataWindow *window;
  StrataEventsView *view;
  StrataEventTable *table;
  const StrataEventTableEntry *entry;
  StrataSliceRef call;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = strata_test_only_window (app);
  strata_test_wait_for_window (window);
  notebook = GTK_NOTEBOOK (window->details);
  view = STRATA_EVENTS_VIEW (window->events_view);
  g_assert_true (gtk_widget_get_visible (window->events_view));
  gtk_notebook_set_current_page (notebook, gtk_notebook_page_num (notebook, window->events_view));
  while (!gtk_widget_get_mapped (window->events_view) || strata_events_view_get_table (view) == NULL)
    g_main_context_iteration (NULL, TRUE);
  table = strata_events_view_get_table (view);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (table)), ==, 4);
  g_assert_cmpstr (strata_events_view_get_status (view), ==, "4 events");

  /* A row picked here is the timeline's selection. */
  strata_events_view_select (view, 2);
  entry = strata_event_table_get (table, 2);
  g_assert_cmpint (strata_session_get_selected_item (window->session, &call, NULL), ==, STRATA_SELECTED_CALL);
  g_assert_cmpuint (call.thread, ==, entry->thread);
  g_assert_cmpuint (call.depth, ==, entry->depth);
  g_assert_cmpuint (call.index, ==, entry->index);
  g_assert_true (gtk_notebook_get_nth_page (notebook, gtk_notebook_get_current_page (notebook)) == window->events_view);

  /* And one picked there is found here. */
  entry = strata_event_table_get (table, 0);
  strata_session_select_call (window->session, &(StrataSliceRef) { entry->thread, entry->depth, entry->index });
  g_assert_cmpuint (strata_events_view_get_selected (view), ==, 0);

  strata_events_view_set_filter (view, "IDLE");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (table)), ==, 1);
  g_assert_cmpstr (strata_events_view_get_status (view), ==, "1 of 4 events");
  strata_events_view_set_filter (view, "");
  strata_session_set_selection_range (window->session, strata_trace_get_start (strata_session_get_trace (window->session)) + 290000,
                                      strata_trace_get_start (strata_session_get_trace (window->session)) + 360000);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (table)), ==, 2);
  g_assert_cmpstr (strata_events_view_get_status (view), ==, "2 of 4 events, in the selected range");
  strata_test_finish_app (app);

  /* Not on a method trace: it has no events of its own. */
  app = strata_test_new_app ();
  g_application_open (G_APPLICATION (app), &dmtrace, 1, "");
  window = strata_test_only_window (app);
  strata_test_wait_for_window (window);
  g_assert_false (gtk_widget_get_visible (window->events_view));
  strata_test_finish_app (app);
}

/* Notes: N in the timeline on a selected call opens the editor, Enter
 * keeps the note, the Notes page lists it and its buttons remove it. */
static void
test_window_notes (void)
{
  StrataApplication *app = strata_test_new_app ();
  g_autofree char *path = strata_test_write_events ("notes-page.json", 200, "paint");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GtkNotebook *notebook;
  StrataWindow *window;
  GtkWidget *popover, *entry, *list, *remove;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = strata_test_only_window (app);
  strata_test_wait_for_window (window);
  notebook = GTK_NOTEBOOK (window->details);
  g_assert_true (gtk_widget_get_visible (window->notes_view));
  gtk_notebook_set_current_page (notebook, gtk_notebook_page_num (notebook, window->notes_view));
  /* Nothing selected: N only rings the bell. */
  gtk_widget_activate_action (window->timeline, "timeline.add-note", NULL);
  g_assert_null (strata_test_find_widget (window->timeline, GTK_TYPE_POPOVER, NULL));

  strata_session_select_call (window->session, &(StrataSliceRef) { 0, 1, 0 });
  gtk_widget_activate_action (window->timeline, "timeline.add-note", NULL);
  popover = strata_test_find_widget (window->timeline, GTK_TYPE_POPOVER, NULL);
  g_assert_nonnull (popover);
  entry = strata_test_find_widget (popover, GTK_TYPE_ENTRY, NULL);
  gtk_editable_set_text (GTK_EDITABLE (entry), "   ");
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpuint (strata_session_get_notes (window->session)->len, ==, 0);
  gtk_editable_set_text (GTK_EDITABLE (entry), "work starts late");
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpuint (strata_session_get_notes (window->session)->len, ==, 1);
  g_assert_cmpstr (g_array_index (strata_session_get_notes (window->session), StrataNote, 0).text, ==, "work starts late");
  g_assert_cmpuint (strata_session_get_note_marks (window->session)->len, ==, 1);

  list = strata_notes_view_get_list (STRATA_NOTES_VIEW (window->notes_view));
  g_assert_nonnull (gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 0));
  g_assert_null (gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 1));
  remove = strata_test_find_widget (list, GTK_TYPE_BUTTON, NULL);
  /* The second button of the row removes. */
  remove = gtk_widget_get_next_sibling (remove);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (remove), ==, "Remove Note");
  g_signal_emit_by_name (remove, "clicked");
  g_assert_cmpuint (strata_session_get_notes (window->session)->len, ==, 0);
  g_assert_null (gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 0));
  strata_test_finish_app (app);
}

static void
test_window_cancel (void)
{
  StrataApplication *app = strata_test_new_app ();
  g_autofree char *path = strata_test_write_file ("cancelled.trace", strata_test_png_bytes, sizeof strata_test_png_bytes - 1);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrataWindow *window;

  g_application_activate (G_APPLICATION (app));
  window = strata_test_only_window (app);
  strata_window_open (window, file);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-load", NULL));
  strata_test_wait_for_window (window);

  /* Cancelling goes back to where the window was, not to an error. */
  g_assert_cmpstr (strata_window_get_page (window), ==, "welcome");
  g_assert_true (strata_window_is_empty (window));

  strata_test_finish_app (app);
}

/* Whether a label under @widget shows @text. */
static gboolean
has_label_with (GtkWidget  *widget,
                const char *text)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (has_label_with (child, text))
      return TRUE;
  return FALSE;
}

static void
test_window_open_sample (void)
{
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window;
  GtkWidget *first_sample;

  g_application_activate (G_APPLICATION (app));
  window = strata_test_only_window (app);

  /* The welcome page offers the bundled sample; activating it loads it. */
  g_assert_true (gtk_widget_get_visible (window->samples_box));
  first_sample = gtk_widget_get_first_child (GTK_WIDGET (window->samples_list));
  g_assert_nonnull (first_sample);
  g_assert_true (gtk_widget_activate (first_sample));
  g_assert_cmpstr (strata_window_get_page (window), ==, "loading");
  strata_test_wait_for_window (window);

  g_assert_cmpstr (strata_window_get_page (window), ==, "trace");
  g_assert_nonnull (strata_session_get_trace (strata_window_get_session (window)));
  strata_test_assert_label_contains (window->title_label, "android-app-startup.trace");
  strata_test_assert_label_contains (window->subtitle_label, "Android method trace");
  g_assert_false (strata_window_is_empty (window));
  /* A method trace has no heap: the Heap tab is not shown. */
  g_assert_false (gtk_widget_get_visible (window->heap_view));

  /* The sample is sound: methods running when tracing began and still
   * running when it stopped are normal, so no bar warns of them; the
   * Summary says them quietly. */
  g_assert_null (strata_import_banner_get_text (STRATA_IMPORT_BANNER (window->import_banner)));
  g_assert_true (has_label_with (window->summary, "139 exits without a matching entry"));
  g_assert_true (has_label_with (window->summary, "144 calls still running when tracing stopped"));
  /* The summary counts the threads the timeline draws, and the rest apart. */
  g_assert_true (has_label_with (window->summary, "17 with calls, 70 in all"));

  strata_test_finish_app (app);
}

static gboolean
banner_shown (gpointer data)
{
  StrataWindow *window = data;

  return strata_import_banner_get_text (STRATA_IMPORT_BANNER (window->import_banner)) != NULL;
}

/* A heap dump cut short on disk after it loaded, while the inspector
 * reads its strings from the mapping: the window lives, what is gone
 * reads as zeros, and the banner says the file was cut. */
/* A cut trace is damage that changes the figures: a bar above the
 * timeline says so, and its Details button opens the Summary, which
 * lists the repairs, and apart the notes. */
static void
test_window_cut_trace_banner (void)
{
  g_autofree char *sample = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "android-app-startup.trace", NULL);
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "cut.trace", NULL);
  g_autofree char *data = NULL;
  gsize len = 0;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window;
  const char *text;

  g_assert_true (g_file_get_contents (sample, &data, &len, NULL));
  g_assert_true (g_file_set_contents (path, data, len - 3, NULL));
  g_application_activate (G_APPLICATION (app));
  window = strata_test_only_window (app);
  strata_window_open (window, file);
  strata_test_wait_for_window (window);
  text = strata_import_banner_get_text (STRATA_IMPORT_BANNER (window->import_banner));
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "The trace is cut mid-record"));
  g_signal_emit_by_name (window->import_banner, "show-details");
  g_assert_cmpint (gtk_notebook_get_current_page (GTK_NOTEBOOK (window->details)), ==,
                   gtk_notebook_page_num (GTK_NOTEBOOK (window->details), window->summary));
  g_assert_true (has_label_with (window->summary, "The trace is cut mid-record"));
  g_assert_true (has_label_with (window->summary, "exits without a matching entry"));

  strata_test_finish_app (app);
}

static void
test_window_file_cut_after_load (void)
{
  g_autofree char *fixture = g_test_build_filename (G_TEST_DIST, "data", "allocations.hprof.gz", NULL);
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "cut-later.hprof", NULL);
  g_autoptr(GFile) compressed = g_file_new_for_path (fixture);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GZlibDecompressor) gunzip = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr(GInputStream) raw = G_INPUT_STREAM (g_file_read (compressed, NULL, NULL));
  g_autoptr(GInputStream) in = g_converter_input_stream_new (raw, G_CONVERTER (gunzip));
  g_autoptr(GOutputStream) out = G_OUTPUT_STREAM (g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, NULL));
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window;
  StrataTrace *trace;
  const char *text;

  g_assert_cmpint (g_output_stream_splice (out, in, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, NULL), >, 1000000);
  g_application_activate (G_APPLICATION (app));
  window = strata_test_only_window (app);
  strata_window_open (window, file);
  strata_test_wait_for_window (window);
  trace = strata_session_get_trace (strata_window_get_session (window));
  g_assert_nonnull (trace);
  g_assert_null (strata_import_banner_get_text (STRATA_IMPORT_BANNER (window->import_banner)));

  g_assert_cmpint (truncate (path, 4096), ==, 0);
  for (guint32 o = 0; o < strata_heap_graph_get_n_objects (strata_heap_get_graph (strata_trace_get_heap (trace))); o++)
    g_free (strata_heap_describe_object (trace, o));
  strata_test_iterate_until (banner_shown, window);
  text = strata_import_banner_get_text (STRATA_IMPORT_BANNER (window->import_banner));
  g_assert_nonnull (strstr (text, "“cut-later.hprof” was cut short on disk after it was opened"));

  strata_test_finish_app (app);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (!strata_test_init_gtk ())
    {
      g_test_add_func ("/window/needs-display", strata_test_skip_no_display);
      return g_test_run ();
    }

  g_test_add_func ("/window/activate-shows-welcome", test_window_activate_shows_welcome);
  g_test_add_func ("/window/file-cut-after-load", test_window_file_cut_after_load);
  g_test_add_func ("/window/cut-trace-banner", test_window_cut_trace_banner);
  g_test_add_func ("/window/open-missing-file", test_window_open_missing_file);
  g_test_add_func ("/window/open-unreadable-content", test_window_open_unreadable_content);
  g_test_add_func ("/window/drop", test_window_drop);
  g_test_add_func ("/window/cancel", test_window_cancel);
  g_test_add_func ("/window/open-keeps-trace", test_window_open_keeps_trace);
  g_test_add_func ("/window/panes-and-keys", test_window_panes_and_keys);
  g_test_add_func ("/window/drag-does-not-select", test_window_drag_does_not_select);
  g_test_add_func ("/window/find", test_window_find);
  g_test_add_func ("/window/calls", test_window_calls);
  g_test_add_func ("/window/events", test_window_events);
  g_test_add_func ("/window/notes", test_window_notes);
  g_test_add_func ("/window/open-sample", test_window_open_sample);

  return g_test_run ();
}
