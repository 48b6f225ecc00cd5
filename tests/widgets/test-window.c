/* test-window.c: the real window driven through GApplication::open and drops
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "strata-application.h"
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

static const char png_bytes[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0";

static StrataWindow *
only_window (StrataApplication *app)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (app));

  g_assert_cmpuint (g_list_length (windows), ==, 1);
  g_assert_true (STRATA_IS_WINDOW (windows->data));
  return windows->data;
}

static void
destroy_windows (StrataApplication *app)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  GList *windows;

  /* Dialogs first: the shortcuts window and the about dialog. */
  while (g_list_model_get_n_items (toplevels) > g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))))
    {
      for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
        {
          g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

          if (!STRATA_IS_WINDOW (window))
            {
              gtk_window_destroy (window);
              break;
            }
        }
    }

  while ((windows = gtk_application_get_windows (GTK_APPLICATION (app))) != NULL)
    {
      GtkWidget *window = windows->data;

      g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
      gtk_window_destroy (GTK_WINDOW (window));
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_assert_null (window);
    }
}

static void
finish_app (StrataApplication *app)
{
  destroy_windows (app);
  g_application_quit (G_APPLICATION (app));
  g_object_unref (app);
}

static void
assert_label_contains (GtkLabel   *label,
                       const char *part)
{
  const char *text = gtk_label_get_label (label);

  if (strstr (text, part) == NULL)
    g_error ("label “%s” does not contain “%s”", text, part);
}

static void
test_window_open_missing_file (void)
{
  StrataApplication *app = strata_test_new_app ();
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "missing.trace", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrataWindow *window;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = only_window (app);

  /* The loading state shows at once, before the worker has answered. */
  g_assert_true (strata_window_get_busy (window));
  g_assert_cmpstr (strata_window_get_page (window), ==, "loading");
  assert_label_contains (window->loading_title, "missing.trace");
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (window)));

  strata_test_wait_for_window (window);
  g_assert_cmpstr (strata_window_get_page (window), ==, "error");
  assert_label_contains (window->error_title, "missing.trace");
  assert_label_contains (window->error_reason, "does not exist");

  finish_app (app);
}

static void
test_window_open_unreadable_content (void)
{
  StrataApplication *app = strata_test_new_app ();
  g_autofree char *path = strata_test_write_file ("image.trace", png_bytes, sizeof png_bytes - 1);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrataWindow *window;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = only_window (app);
  strata_test_wait_for_window (window);
  g_assert_cmpstr (strata_window_get_page (window), ==, "error");
  assert_label_contains (window->error_reason, "PNG");

  /* The app is still alive: a second file reuses nothing busy and works. */
  g_application_open (G_APPLICATION (app), &file, 1, "");
  finish_app (app);
}

static void
test_window_activate_shows_welcome (void)
{
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window;

  g_application_activate (G_APPLICATION (app));
  window = only_window (app);
  g_assert_cmpstr (strata_window_get_page (window), ==, "welcome");
  g_assert_true (strata_window_is_empty (window));
  g_assert_false (gtk_widget_get_visible (window->drop_overlay));

  finish_app (app);
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
  g_autofree char *png = strata_test_write_file ("dropped.trace", png_bytes, sizeof png_bytes - 1);
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autoptr(GFile) png_file = g_file_new_for_path (png);
  g_autoptr(GFile) dir_file = g_file_new_for_path (dir);
  g_autoptr(GSList) files = NULL;
  GdkDragAction action = 0;
  StrataWindow *window;
  GList *windows;

  g_application_activate (G_APPLICATION (app));
  window = only_window (app);

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

  assert_label_contains (window->error_title, "dropped.trace");
  assert_label_contains (window->error_reason, "PNG");
  for (GList *l = windows; l != NULL; l = l->next)
    if (l->data != window)
      assert_label_contains (STRATA_WINDOW (l->data)->error_reason, "folder");

  finish_app (app);
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
  window = only_window (app);
  strata_test_wait_for_window (window);
  g_assert_cmpstr (strata_window_get_page (window), ==, "trace");

  /* Open Recent (and the file dialog, which ends the same way). */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.open-uri", "s", second_uri);
  windows = gtk_application_get_windows (GTK_APPLICATION (app));
  g_assert_cmpuint (g_list_length (windows), ==, 2);
  for (GList *l = windows; l != NULL; l = l->next)
    strata_test_wait_for_window (l->data);
  assert_label_contains (window->title_label, "studio-perflib-exception.trace");
  g_assert_cmpstr (strata_window_get_page (window), ==, "trace");
  for (GList *l = windows; l != NULL; l = l->next)
    if (l->data != window)
      assert_label_contains (STRATA_WINDOW (l->data)->title_label, "instance_counters.json");

  /* A drop too. */
  files = g_slist_append (files, second);
  g_assert_true (emit_drop (window, files));
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, 3);
  assert_label_contains (window->title_label, "studio-perflib-exception.trace");
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    strata_test_wait_for_window (l->data);

  finish_app (app);
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
  window = only_window (app);
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

  finish_app (app);
}

static void
xdotool_done_cb (GObject      *process,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  gboolean *done = user_data;

  g_assert_true (g_subprocess_wait_check_finish (G_SUBPROCESS (process), result, NULL));
  *done = TRUE;
}

/* Whether the tests can move the X server's pointer; skips them when not. */
static gboolean
can_drive_pointer (const char *xdotool)
{
#ifdef GDK_WINDOWING_X11
  if (xdotool != NULL && GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    return TRUE;
#endif
  g_test_skip ("needs xdotool and an X display");
  return FALSE;
}

/* Runs xdotool with @args to its end, the window handling events meanwhile. */
static void
run_xdotool (const char *const *args)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) process = g_subprocess_newv (args, G_SUBPROCESS_FLAGS_NONE, &error);
  gboolean done = FALSE;
  gint64 settle;

  g_assert_no_error (error);
  g_subprocess_wait_check_async (process, NULL, xdotool_done_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  for (settle = g_get_monotonic_time () + 300000; g_get_monotonic_time () < settle;)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
}

/* Clicks @button ("1", "3") at @x, @y of @widget in @window with the X
 * server's pointer, moved by xdotool to the window, found by its title. */
static void
click_widget (const char   *xdotool,
              StrataWindow *window,
              GtkWidget    *widget,
              double        x,
              double        y,
              const char   *button)
{
  g_autofree char *screen_x = NULL, *screen_y = NULL;
  double win_x, win_y, surface_x, surface_y;

  g_assert_true (gtk_widget_translate_coordinates (widget, GTK_WIDGET (window), x, y, &win_x, &win_y));
  gtk_native_get_surface_transform (GTK_NATIVE (window), &surface_x, &surface_y);
  screen_x = g_strdup_printf ("%d", (int) (win_x + surface_x));
  screen_y = g_strdup_printf ("%d", (int) (win_y + surface_y));
  run_xdotool ((const char *[]) { xdotool, "search", "--sync", "--name", gtk_window_get_title (GTK_WINDOW (window)),
                                  "mousemove", "--window", "%1", screen_x, screen_y, "sleep", "0.2", "click", button, NULL });
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

  if (!can_drive_pointer (xdotool))
    return;
  app = strata_test_new_app ();
  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = only_window (app);
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
  run_xdotool ((const char *[]) { xdotool, "search", "--sync", "--name", "strata-drag-test",
                                  "mousemove", "--window", "%1", x, y, "sleep", "0.2", "mousedown", "1",
                                  "sleep", "0.1", "mousemove", "--window", "%1", x_moved, y, "sleep", "0.2",
                                  "mouseup", "1", NULL });
  strata_session_get_visible_range (window->session, &panned_start, &panned_end);
  g_assert_cmpint (panned_start, <, start);
  g_assert_cmpint (strata_session_get_selected_item (window->session, NULL, NULL), ==, STRATA_SELECTED_NOTHING);

  run_xdotool ((const char *[]) { xdotool, "search", "--sync", "--name", "strata-drag-test",
                                  "mousemove", "--window", "%1", x, y, "sleep", "0.2", "click", "1", NULL });
  g_assert_cmpint (strata_session_get_selected_item (window->session, NULL, NULL), ==, STRATA_SELECTED_CALL);

  finish_app (app);
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
  window = only_window (app);
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

  /* Only the tracks whose names match: the sample's main thread. */
  {
    StrataTrace *trace = strata_session_get_trace (window->session);
    guint all = strata_timeline_get_tracks (STRATA_TIMELINE (window->timeline))->len, threads = 0;
    const GArray *tracks;

    strata_search_bar_set_text (bar, "main", FALSE);
    strata_search_bar_set_filter_tracks (bar, TRUE);
    tracks = strata_timeline_get_tracks (STRATA_TIMELINE (window->timeline));
    g_assert_cmpuint (tracks->len, <, all);
    for (guint i = 0; i < tracks->len; i++)
      {
        const StrataTrack *track = &g_array_index (tracks, StrataTrack, i);

        if (track->kind != STRATA_TRACK_THREAD)
          continue;
        threads++;
        g_assert_nonnull (strstr (strata_trace_get_string (trace, strata_trace_get_thread (trace, track->index)->name), "main"));
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

  finish_app (app);
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
  window = only_window (app);
  strata_test_wait_for_window (window);
  view = STRATA_CALLS_VIEW (window->calls_view);
  gtk_notebook_set_current_page (GTK_NOTEBOOK (window->details),
                                 gtk_notebook_page_num (GTK_NOTEBOOK (window->details), window->calls_view));
  method = strata_trace_get_thread (strata_session_get_trace (window->session), 0)->spans->spans[1][0].method;
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
  finish_app (app);

  /* A counter sample: each series' lowest, highest and mean. */
  app = strata_test_new_app ();
  g_application_open (G_APPLICATION (app), &counters, 1, "");
  window = only_window (app);
  strata_test_wait_for_window (window);
  view = STRATA_CALLS_VIEW (window->calls_view);
  gtk_notebook_set_current_page (GTK_NOTEBOOK (window->details),
                                 gtk_notebook_page_num (GTK_NOTEBOOK (window->details), window->calls_view));
  strata_session_select_counter_value (window->session, 0, strata_trace_get_counter (strata_session_get_trace (window->session), 0)->times[0]);
  while (!gtk_widget_get_mapped (window->calls_view))
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (strstr (strata_calls_view_get_summary (view), "lowest"));
  g_assert_nonnull (strstr (strata_calls_view_get_summary (view), "mean"));
  finish_app (app);
}

static void
test_window_cancel (void)
{
  StrataApplication *app = strata_test_new_app ();
  g_autofree char *path = strata_test_write_file ("cancelled.trace", png_bytes, sizeof png_bytes - 1);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrataWindow *window;

  g_application_activate (G_APPLICATION (app));
  window = only_window (app);
  strata_window_open (window, file);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-load", NULL));
  strata_test_wait_for_window (window);

  /* Cancelling goes back to where the window was, not to an error. */
  g_assert_cmpstr (strata_window_get_page (window), ==, "welcome");
  g_assert_true (strata_window_is_empty (window));

  finish_app (app);
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
  window = only_window (app);

  /* The welcome page offers the bundled sample; activating it loads it. */
  g_assert_true (gtk_widget_get_visible (window->samples_box));
  first_sample = gtk_widget_get_first_child (GTK_WIDGET (window->samples_list));
  g_assert_nonnull (first_sample);
  g_assert_true (gtk_widget_activate (first_sample));
  g_assert_cmpstr (strata_window_get_page (window), ==, "loading");
  strata_test_wait_for_window (window);

  g_assert_cmpstr (strata_window_get_page (window), ==, "trace");
  g_assert_nonnull (strata_session_get_trace (strata_window_get_session (window)));
  assert_label_contains (window->title_label, "android-app-startup.trace");
  assert_label_contains (window->subtitle_label, "Android method trace");
  g_assert_false (strata_window_is_empty (window));
  /* A method trace has no heap: the Heap tab is not shown. */
  g_assert_false (gtk_widget_get_visible (window->heap_view));

  /* The sample's repairs are announced above the timeline, not in a
   * dialog; Details goes to the Summary page that lists them. */
  {
    const char *text = strata_import_banner_get_text (STRATA_IMPORT_BANNER (window->import_banner));

    g_assert_nonnull (text);
    g_assert_nonnull (strstr (text, "139 exits without a matching entry"));
    g_assert_nonnull (strstr (text, "(and 1 more)"));
    g_signal_emit_by_name (window->import_banner, "show-details");
    g_assert_cmpint (gtk_notebook_get_current_page (GTK_NOTEBOOK (window->details)), ==,
                     gtk_notebook_page_num (GTK_NOTEBOOK (window->details), window->summary));
  }
  /* The summary counts the threads the timeline draws, and the rest apart. */
  g_assert_true (has_label_with (window->summary, "17 with calls, 70 in all"));

  finish_app (app);
}

static guint64
row_instances (GListModel *model,
               guint       position)
{
  g_autoptr(StrataHeapRow) row = g_list_model_get_item (model, position);

  return strata_heap_row_get_instances (row);
}

/* The class histogram as CSV: every class by default, the filtered rows
 * on request, sizes as whole bytes. */
static guint
count_csv_records (const char *csv)
{
  gboolean quoted = FALSE;
  guint n = 0;

  for (const char *c = csv; *c != '\0'; c++)
    if (*c == '"')
      quoted = !quoted;
    else if (*c == '\n' && !quoted)
      n++;
  return n;
}

static void
check_heap_export (StrataHeapView *view,
                   StrataTrace    *trace,
                   GListModel     *filtered)
{
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "classes.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *all = NULL, *some = NULL;
  g_auto(GStrv) all_lines = NULL, some_lines = NULL, cells = NULL;
  g_autoptr(StrataHeapRow) first = g_list_model_get_item (filtered, 0);

  g_assert_true (strata_heap_view_export (view, "classes", file, FALSE, &error));
  g_assert_no_error (error);
  g_file_get_contents (path, &all, NULL, NULL);
  all_lines = g_strsplit (all, "\n", -1);
  g_assert_cmpstr (all_lines[0], ==, "Class,Instances,Shallow (bytes),Retained (bytes),Retained %");
  g_assert_cmpuint (g_strv_length (all_lines), >, 100);

  g_assert_true (strata_heap_view_export (view, "classes", file, TRUE, &error));
  g_file_get_contents (path, &some, NULL, NULL);
  some_lines = g_strsplit (some, "\n", -1);
  g_assert_cmpuint (g_strv_length (some_lines), ==, g_list_model_get_n_items (filtered) + 2);
  cells = g_strsplit (some_lines[1], ",", -1);
  g_assert_cmpstr (cells[0], ==, strata_heap_row_get_name (first));
  g_assert_cmpuint (g_ascii_strtoull (cells[1], NULL, 10), ==, strata_heap_row_get_instances (first));
  g_assert_cmpuint (g_ascii_strtoull (cells[2], NULL, 10), ==, strata_heap_row_get_shallow_bytes (first));
  g_assert_cmpuint (g_ascii_strtoull (cells[3], NULL, 10), ==, strata_heap_row_get_retained_bytes (first));

  /* The dominator tree's top: every object there, sizes in bytes. */
  {
    g_autoptr(StrataHeapObjectList) top = strata_heap_object_list_new_dominated (trace, STRATA_HEAP_NO_OBJECT);
    g_autoptr(StrataHeapObjectRow) largest = strata_heap_object_row_new (trace, strata_heap_object_list_get_object (top, 0));
    g_autofree char *dominators = NULL;
    g_auto(GStrv) dominator_lines = NULL, first_cells = NULL;

    g_assert_true (strata_heap_view_export (view, "dominators", file, FALSE, &error));
    g_assert_no_error (error);
    g_file_get_contents (path, &dominators, NULL, NULL);
    dominator_lines = g_strsplit (dominators, "\n", -1);
    g_assert_cmpstr (dominator_lines[0], ==, "Object,Shallow (bytes),Retained (bytes),Retained %");
    /* Records, not lines: a string's label may hold a quoted line break. */
    g_assert_cmpuint (count_csv_records (dominators), ==, strata_heap_object_list_get_length (top) + 1);
    first_cells = g_strsplit (strrchr (dominator_lines[1], '"') ? strrchr (dominator_lines[1], '"') + 2 : strchr (dominator_lines[1], ',') + 1, ",", -1);
    g_assert_cmpuint (g_ascii_strtoull (first_cells[0], NULL, 10), ==, strata_heap_object_row_get_shallow (largest));
    g_assert_cmpuint (g_ascii_strtoull (first_cells[1], NULL, 10), ==, strata_heap_object_row_get_retained (largest));
  }
  /* A page without a table says so. */
  g_assert_false (strata_heap_view_export (view, "duplicates", file, FALSE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
}

/* A heap dump opens on its class histogram, with no empty timeline;
 * the table filters and sorts. */
/* The program's ArrayList of 12,345 Smalls retains the most; expanded, it
 * shows its array, which lists all of them. */
static void
check_dominators (StrataDominatorsView *dominators)
{
  GListModel *tree = strata_dominators_view_get_model (dominators);
  g_autoptr(GtkTreeListRow) list = g_list_model_get_item (tree, 0);
  g_autoptr(GtkTreeListRow) array = NULL;
  g_autoptr(GtkTreeListRow) last = NULL;
  g_autoptr(StrataHeapObjectRow) list_item = gtk_tree_list_row_get_item (list);
  g_autoptr(StrataHeapObjectRow) small = NULL;
  g_autofree char *label = strata_heap_object_row_dup_label (list_item);
  g_autofree char *small_label = NULL;

  g_assert_true (g_str_has_prefix (label, "java.util.ArrayList 0x"));
  g_assert_cmpuint (strata_heap_object_row_get_shallow (list_item), ==, 24);
  g_assert_cmpuint (strata_heap_object_row_get_retained (list_item), >, 12345 * 16);
  gtk_tree_list_row_set_expanded (list, TRUE);
  array = g_list_model_get_item (tree, 1);
  gtk_tree_list_row_set_expanded (array, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (tree), >=, 2 + 12345);
  last = g_list_model_get_item (tree, 2 + 12344);
  small = gtk_tree_list_row_get_item (last);
  small_label = strata_heap_object_row_dup_label (small);
  g_assert_true (g_str_has_prefix (small_label, "Allocations$Small 0x"));
  g_assert_cmpuint (strata_heap_object_row_get_retained (small), ==, 16);

  /* Grouped by class: one row per class, the most retained first, each
   * expanding to its objects. */
  strata_dominators_view_set_grouped (dominators, TRUE);
  tree = strata_dominators_view_get_model (dominators);
  {
    g_autoptr(GtkTreeListRow) first_row = g_list_model_get_item (tree, 0);
    g_autoptr(GtkTreeListRow) second_row = g_list_model_get_item (tree, 1);
    g_autoptr(StrataHeapObjectRow) first_group = gtk_tree_list_row_get_item (first_row);
    g_autoptr(StrataHeapObjectRow) second_group = gtk_tree_list_row_get_item (second_row);
    g_autofree char *group_label = strata_heap_object_row_dup_label (first_group);

    g_assert_cmpuint (strata_heap_object_row_get_object (first_group), ==, STRATA_HEAP_NO_OBJECT);
    g_assert_nonnull (strstr (group_label, " object"));
    g_assert_cmpuint (strata_heap_object_row_get_retained (first_group), >=,
                      strata_heap_object_row_get_retained (second_group));
    guint groups = g_list_model_get_n_items (tree);

    gtk_tree_list_row_set_expanded (first_row, TRUE);
    g_assert_cmpuint (g_list_model_get_n_items (tree), >, groups);
  }
  strata_dominators_view_set_grouped (dominators, FALSE);

  /* A header click sorts the top of the tree by that column. */
  strata_dominators_view_sort_by (dominators, 1, GTK_SORT_DESCENDING);
  tree = strata_dominators_view_get_model (dominators);
  for (guint i = 1; i < 50; i++)
    {
      g_autoptr(GtkTreeListRow) above = g_list_model_get_item (tree, i - 1);
      g_autoptr(GtkTreeListRow) below = g_list_model_get_item (tree, i);
      g_autoptr(StrataHeapObjectRow) a = gtk_tree_list_row_get_item (above);
      g_autoptr(StrataHeapObjectRow) b = gtk_tree_list_row_get_item (below);

      g_assert_cmpuint (strata_heap_object_row_get_shallow (a), >=, strata_heap_object_row_get_shallow (b));
    }
}

/* Activating Allocations$Small lists its 13,245 instances; the inspector
 * shows one with its field and how a GC root reaches it. */
static void
check_instances (StrataHeapView *view,
                 StrataTrace    *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  guint klass = G_MAXUINT;
  GtkWidget *page;
  StrataDominatorsView *instances;
  g_autoptr(GtkTreeListRow) first = NULL;
  g_autoptr(StrataHeapObjectRow) item = NULL;
  g_autofree char *text = NULL;

  for (guint i = 0; i < strata_heap_get_n_classes (heap); i++)
    if (g_str_equal (strata_trace_get_string (trace, strata_heap_get_class (heap, i)->name), "Allocations$Small"))
      klass = i;
  g_assert_cmpuint (klass, !=, G_MAXUINT);
  strata_heap_view_show_instances (view, klass);
  page = strata_heap_view_get_page (view, "instances");
  g_assert_nonnull (page);
  instances = STRATA_DOMINATORS_VIEW (gtk_widget_get_last_child (page));
  g_assert_cmpuint (g_list_model_get_n_items (strata_dominators_view_get_model (instances)), ==, 13245);
  first = g_list_model_get_item (strata_dominators_view_get_model (instances), 0);
  item = gtk_tree_list_row_get_item (first);
  strata_object_inspector_show (strata_dominators_view_get_inspector (instances), strata_heap_object_row_get_object (item));
  text = strata_object_inspector_dup_text (strata_dominators_view_get_inspector (instances));
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "Allocations$Small 0x"));
  g_assert_nonnull (strstr (text, "Shortest path from a GC root"));
  g_assert_nonnull (strstr (text, "Java frame"));
  g_assert_nonnull (strstr (text, "value"));
  g_assert_nonnull (strstr (text, "Referrers"));

  /* What refers to it is an array (the list's or a Small[]): its elements
   * are listed by index, a page at a time. */
  {
    StrataHeapGraph *graph = strata_heap_get_graph (heap);
    guint32 n;
    const guint32 *referrers = strata_heap_graph_get_referrers (graph, strata_heap_object_row_get_object (item), &n);
    g_autofree char *array_text = NULL;

    g_assert_cmpuint (n, >, 0);
    strata_object_inspector_show (strata_dominators_view_get_inspector (instances), referrers[0]);
    array_text = strata_object_inspector_dup_text (strata_dominators_view_get_inspector (instances));
    g_assert_nonnull (strstr (array_text, "Elements ("));
    g_assert_nonnull (strstr (array_text, "[0] = "));
  }
}

static void
test_window_heap_dump (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "allocations.hprof.gz", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window;
  StrataHeapView *view;
  GListModel *model;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = only_window (app);
  strata_test_wait_for_window (window);
  g_assert_cmpstr (strata_window_get_page (window), ==, "trace");
  g_assert_true (gtk_widget_get_visible (window->heap_view));
  g_assert_cmpint (gtk_notebook_get_current_page (GTK_NOTEBOOK (window->details)), ==,
                   gtk_notebook_page_num (GTK_NOTEBOOK (window->details), window->heap_view));
  g_assert_false (gtk_widget_get_visible (gtk_paned_get_start_child (GTK_PANED (window->paned))));
  /* A clean file: no banner. */
  g_assert_null (strata_import_banner_get_text (STRATA_IMPORT_BANNER (window->import_banner)));
  g_assert_false (gtk_widget_get_visible (window->import_banner));

  view = STRATA_HEAP_VIEW (window->heap_view);
  model = strata_heap_view_get_model (view);
  g_assert_cmpuint (g_list_model_get_n_items (model), >, 100);
  /* Largest retained size first. */
  {
    g_autoptr(StrataHeapRow) first = g_list_model_get_item (model, 0);
    g_autoptr(StrataHeapRow) second = g_list_model_get_item (model, 1);

    g_assert_cmpuint (strata_heap_row_get_retained_bytes (first), >=, strata_heap_row_get_retained_bytes (second));
    g_assert_cmpuint (strata_heap_row_get_retained_bytes (first), >, 0);
  }
  check_dominators (STRATA_DOMINATORS_VIEW (strata_heap_view_get_page (view, "dominators")));
  check_instances (view, strata_session_get_trace (window->session));
  {
    StrataDuplicatesView *duplicates = STRATA_DUPLICATES_VIEW (strata_heap_view_get_page (view, "duplicates"));
    g_autofree char *text = NULL;
    gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

    while (!strata_duplicates_view_is_ready (duplicates) && g_get_monotonic_time () < deadline)
      g_main_context_iteration (NULL, TRUE);
    text = strata_duplicates_view_dup_text (duplicates);
    g_assert_nonnull (strstr (text, "Duplicate strings"));
    g_assert_nonnull (strstr (text, "“main”"));
    g_assert_nonnull (strstr (text, "Duplicate primitive arrays"));
  }

  strata_heap_view_set_filter (view, "Allocations$Small");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  strata_heap_view_sort_by (view, "instances", GTK_SORT_ASCENDING);
  g_assert_cmpuint (row_instances (model, 0), ==, 13245);
  g_assert_cmpuint (row_instances (model, 1), ==, 9);
  g_assert_cmpuint (row_instances (model, 2), ==, 1);
  check_heap_export (view, strata_session_get_trace (window->session), model);

  finish_app (app);
}

/* The first widget under @widget (itself included) of @type with @name;
 * G_TYPE_NONE or NULL match any. */
static GtkWidget *
find_widget (GtkWidget  *widget,
             GType       type,
             const char *name)
{
  if ((type == G_TYPE_NONE || G_TYPE_CHECK_INSTANCE_TYPE (widget, type)) &&
      (name == NULL || g_strcmp0 (gtk_widget_get_name (widget), name) == 0))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static guint64
class_retained (StrataWindow *window,
                const char   *name)
{
  StrataTrace *trace = strata_session_get_trace (window->session);
  const StrataHeap *heap = strata_trace_get_heap (trace);

  for (guint i = 0; i < strata_heap_get_n_classes (heap); i++)
    if (g_str_equal (strata_trace_get_string (trace, strata_heap_get_class (heap, i)->name), name))
      return strata_heap_get_class (heap, i)->retained_bytes;
  g_assert_not_reached ();
}

/* "Follow Weak References" reads the dump again counting referents as
 * kept alive, stays on the page it was on, and goes back when cleared. */
static void
test_window_follow_weak (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "allocations.hprof.gz", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window;
  GtkWidget *check, *page;
  guint64 strong;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = only_window (app);
  strata_test_wait_for_window (window);
  strong = class_retained (window, "java.lang.Class");
  page = strata_heap_view_get_page (STRATA_HEAP_VIEW (window->heap_view), "suspects");
  gtk_stack_set_visible_child (GTK_STACK (gtk_widget_get_parent (page)), page);
  check = find_widget (window->heap_view, G_TYPE_NONE, "follow-weak");
  g_assert_nonnull (check);
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));

  gtk_widget_activate (check);
  g_assert_true (strata_window_get_busy (window));
  strata_test_wait_for_window (window);
  g_assert_cmpstr (strata_window_get_page (window), ==, "trace");
  g_assert_true (strata_heap_get_weak_followed (strata_trace_get_heap (strata_session_get_trace (window->session))));
  /* The referents weakly held by classes (caches of method types and the
   * like) no longer count as retained by them. */
  g_assert_cmpuint (class_retained (window, "java.lang.Class"), <, strong);
  page = strata_heap_view_get_page (STRATA_HEAP_VIEW (window->heap_view), "suspects");
  g_assert_true (gtk_widget_get_parent (page) != NULL &&
                 gtk_stack_get_visible_child (GTK_STACK (gtk_widget_get_parent (page))) == page);
  check = find_widget (window->heap_view, G_TYPE_NONE, "follow-weak");
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));

  gtk_widget_activate (check);
  strata_test_wait_for_window (window);
  g_assert_false (strata_heap_get_weak_followed (strata_trace_get_heap (strata_session_get_trace (window->session))));
  g_assert_cmpuint (class_retained (window, "java.lang.Class"), ==, strong);

  finish_app (app);
}

static gboolean
dominators_sorted (gpointer view)
{
  return !strata_dominators_view_is_sorting (view);
}

/* 150,000 roots: too many rows for GTK's sort model, so a header click
 * sorts the list itself, off the main thread, saying so meanwhile. */
static void
test_window_long_list_sort (void)
{
  g_autoptr(GBytes) bytes = hprof_writer_many_arrays (150000);
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  StrataApplication *app = strata_test_new_app ();
  StrataDominatorsView *dominators;
  StrataWindow *window;
  GListModel *tree;
  int fd = g_file_open_tmp ("strata-XXXXXX.hprof", &path, &error);

  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error));
  file = g_file_new_for_path (path);
  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = only_window (app);
  strata_test_wait_for_window (window);
  dominators = STRATA_DOMINATORS_VIEW (strata_heap_view_get_page (STRATA_HEAP_VIEW (window->heap_view), "dominators"));
  tree = strata_dominators_view_get_model (dominators);
  /* A page of rows, then one that shows the next page when activated. */
  g_assert_cmpuint (g_list_model_get_n_items (tree), ==, 10001);
  g_signal_emit_by_name (find_widget (GTK_WIDGET (dominators), GTK_TYPE_COLUMN_VIEW, NULL), "activate", 10000);
  g_assert_cmpuint (g_list_model_get_n_items (tree), ==, 20001);

  for (GtkSortType order = GTK_SORT_ASCENDING; order <= GTK_SORT_DESCENDING; order++)
    {
      guint64 previous = order == GTK_SORT_ASCENDING ? 0 : G_MAXUINT64;

      strata_dominators_view_sort_by (dominators, 1, order);
      g_assert_true (strata_dominators_view_is_sorting (dominators));
      strata_test_iterate_until (dominators_sorted, dominators);
      for (guint i = 0; i < 20000; i += 7)
        {
          g_autoptr(GtkTreeListRow) row = g_list_model_get_item (tree, i);
          g_autoptr(StrataHeapObjectRow) item = gtk_tree_list_row_get_item (row);
          guint64 shallow = strata_heap_object_row_get_shallow (item);

          if (order == GTK_SORT_ASCENDING)
            g_assert_cmpuint (shallow, >=, previous);
          else
            g_assert_cmpuint (shallow, <=, previous);
          previous = shallow;
        }
    }
  /* By the object column: classes by name (byte[] first), then ids. */
  strata_dominators_view_sort_by (dominators, 0, GTK_SORT_ASCENDING);
  strata_test_iterate_until (dominators_sorted, dominators);
  {
    g_autoptr(GtkTreeListRow) row = g_list_model_get_item (tree, 0);
    g_autoptr(StrataHeapObjectRow) item = gtk_tree_list_row_get_item (row);
    g_autofree char *label = strata_heap_object_row_dup_label (item);

    g_assert_true (g_str_has_prefix (label, "byte[0] 0x100000") || g_str_has_prefix (label, "byte[] 0x100000"));
  }

  finish_app (app);
  g_unlink (path);
}

static gboolean
call_tree_ready (gpointer view)
{
  return strata_call_tree_view_is_ready (view);
}

/* The first mapped widget of @type under @widget. */
static GtkWidget *
find_mapped (GtkWidget *widget,
             GType      type)
{
  if (!gtk_widget_get_mapped (widget))
    return NULL;
  if (g_type_is_a (G_OBJECT_TYPE (widget), type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_mapped (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static char *
row_name (GListModel *model,
          guint       position)
{
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, position);
  g_autoptr(StrataCallNodeRow) item = gtk_tree_list_row_get_item (row);

  return strata_call_node_row_dup_name (item);
}

/* The window of Android Studio's sample with its call tree merged and
 * on show, as a table. */
static StrataWindow *
open_call_tree_sample (StrataApplication *app)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "third-party", "dmtrace",
                                                 "studio-perflib-char_2_bytes.trace", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrataWindow *window;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = only_window (app);
  strata_test_wait_for_window (window);
  strata_test_iterate_until (call_tree_ready, window->call_tree_view);
  strata_window_show_call_tree (window, "tree");
  return window;
}

/* "*" typed on a row of the call tree opens its hottest path, several
 * levels down, not only the one level the row's expander would. The key
 * is the X server's, typed by xdotool after a click on the row. */
static void
test_window_call_tree_hot_path_key (void)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  StrataApplication *app;
  StrataWindow *window;
  StrataCallTreeView *view;
  GListModel *model;
  GtkWidget *expander;
  guint before;

  if (!can_drive_pointer (xdotool))
    return;
  app = strata_test_new_app ();
  window = open_call_tree_sample (app);
  gtk_window_set_title (GTK_WINDOW (window), "strata-hot-path-test");
  view = STRATA_CALL_TREE_VIEW (window->call_tree_view);
  while ((expander = find_mapped (GTK_WIDGET (view), GTK_TYPE_TREE_EXPANDER)) == NULL ||
         gtk_widget_get_width (expander) < 100)
    g_main_context_iteration (NULL, TRUE);
  model = strata_call_tree_view_get_model (view);
  before = g_list_model_get_n_items (model);
  /* The first row's name, right of its arrow. */
  click_widget (xdotool, window, expander, 80, gtk_widget_get_height (expander) / 2.0, "1");
  run_xdotool ((const char *[]) { xdotool, "key", "asterisk", NULL });
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model)), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (model), >, before + 3);
  {
    g_autoptr(GtkTreeListRow) deep = g_list_model_get_item (model, 4);

    g_assert_cmpuint (gtk_tree_list_row_get_depth (deep), ==, 4);
  }
  finish_app (app);
}

/* The path of the bar the flame graph is zoomed into. */
static char *
zoom_path (StrataFlameGraph *flame)
{
  return strata_call_tree_dup_path (strata_flame_graph_get_tree (flame), strata_flame_graph_get_zoom (flame), "\n");
}

/* The selected bar's path, or "" for none. */
static char *
selected_bar_path (StrataFlameGraph *flame)
{
  guint32 node = strata_flame_graph_get_selected (flame);

  if (node == STRATA_CALL_TREE_NONE)
    return g_strdup ("");
  return strata_call_tree_dup_path (strata_flame_graph_get_tree (flame), node, "\n");
}

/* The flame graph by keyboard, typed by xdotool after a click on a bar:
 * the arrows move the selection (the table's row with it), a transform's
 * key acts on the bar, Escape zooms out. */
static void
test_window_flame_graph_keys (void)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  g_autofree char *merged = NULL, *expected = NULL, *row_path = NULL, *bar_path = NULL;
  StrataApplication *app;
  StrataWindow *window;
  StrataCallTreeView *view;
  StrataFlameGraph *flame;
  StrataCallTree *tree;
  guint32 top, callee, next;

  if (!can_drive_pointer (xdotool))
    return;
  app = strata_test_new_app ();
  window = open_call_tree_sample (app);
  gtk_window_set_title (GTK_WINDOW (window), "strata-flame-keys-test");
  view = STRATA_CALL_TREE_VIEW (window->call_tree_view);
  flame = STRATA_FLAME_GRAPH (strata_call_tree_view_get_flame_graph (view));
  strata_window_show_call_tree (window, "flame");
  while (!gtk_widget_get_mapped (GTK_WIDGET (flame)) || gtk_widget_get_width (GTK_WIDGET (flame)) < 400)
    g_main_context_iteration (NULL, TRUE);
  tree = strata_flame_graph_get_tree (flame);
  top = strata_call_tree_get_first_child (tree, STRATA_CALL_TREE_ROOT);
  g_assert_cmpuint (strata_call_tree_get_n_children (tree, top), >, 1);
  /* The widest callee is the first, children being ordered by total. */
  callee = strata_call_tree_get_first_child (tree, top);
  next = callee + 1;

  /* The icicle's second row, at its left: the heaviest top-level bar. */
  click_widget (xdotool, window, GTK_WIDGET (flame), 4, STRATA_FLAME_ROW_HEIGHT * 1.5, "1");
  g_assert_cmpuint (strata_flame_graph_get_selected (flame), ==, top);
  g_assert_cmpuint (strata_flame_graph_get_zoom (flame), ==, top);
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (flame)));

  run_xdotool ((const char *[]) { xdotool, "key", "Down", NULL });
  g_assert_cmpuint (strata_flame_graph_get_selected (flame), ==, callee);
  run_xdotool ((const char *[]) { xdotool, "key", "Right", NULL });
  g_assert_cmpuint (strata_flame_graph_get_selected (flame), ==, next);
  /* The table's row is the bar's. */
  row_path = strata_call_tree_view_dup_selected_path (view);
  bar_path = selected_bar_path (flame);
  g_assert_cmpstr (row_path, ==, bar_path);
  run_xdotool ((const char *[]) { xdotool, "key", "Left", "Up", NULL });
  g_assert_cmpuint (strata_flame_graph_get_selected (flame), ==, top);
  run_xdotool ((const char *[]) { xdotool, "key", "Down", NULL });

  /* "m" merges the selected bar's function: the selection goes to its
   * caller, the zoom stays. */
  {
    g_autofree char *top_name = strata_call_tree_dup_name (tree, top);

    expected = g_strdup (top_name);
  }
  run_xdotool ((const char *[]) { xdotool, "key", "m", NULL });
  strata_test_iterate_until (call_tree_ready, view);
  g_assert_true (strata_flame_graph_get_tree (flame) != tree);
  merged = selected_bar_path (flame);
  g_assert_cmpstr (merged, ==, expected);
  {
    g_autofree char *zoomed = zoom_path (flame);

    g_assert_cmpstr (zoomed, ==, expected);
  }
  run_xdotool ((const char *[]) { xdotool, "key", "BackSpace", NULL });
  strata_test_iterate_until (call_tree_ready, view);
  g_assert_true (strata_flame_graph_get_tree (flame) == tree);
  g_assert_cmpuint (strata_flame_graph_get_selected (flame), ==, callee);

  run_xdotool ((const char *[]) { xdotool, "key", "Escape", NULL });
  g_assert_cmpuint (strata_flame_graph_get_zoom (flame), ==, STRATA_CALL_TREE_ROOT);

  /* Root at the bottom, Up goes away from it, to a callee. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "calltree.root-at-bottom", NULL));
  g_assert_true (strata_flame_graph_get_flame (flame));
  g_assert_cmpuint (strata_call_tree_get_n_children (tree, callee), >, 0);
  run_xdotool ((const char *[]) { xdotool, "key", "Up", NULL });
  g_assert_cmpuint (strata_call_tree_get_parent (tree, strata_flame_graph_get_selected (flame)), ==, callee);
  run_xdotool ((const char *[]) { xdotool, "key", "Down", "Down", NULL });
  g_assert_cmpuint (strata_flame_graph_get_selected (flame), ==, top);
  finish_app (app);
}

/* The mapped expander of row @position under @widget, or NULL. */
static GtkWidget *
expander_of_row (GtkWidget *widget,
                 guint      position)
{
  if (GTK_IS_TREE_EXPANDER (widget) && gtk_widget_get_mapped (widget))
    {
      GtkTreeListRow *row = gtk_tree_expander_get_list_row (GTK_TREE_EXPANDER (widget));

      return row != NULL && gtk_tree_list_row_get_position (row) == position ? widget : NULL;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = expander_of_row (child, position);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A right-click on a row selects it before the menu opens, so the menu's
 * transforms act on the row clicked, not on one selected before. The
 * click lands in the Total column, away from the name. */
static void
test_window_call_tree_right_click (void)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  StrataApplication *app;
  StrataWindow *window;
  StrataCallTreeView *view;
  GListModel *model;
  GtkWidget *expander;

  if (!can_drive_pointer (xdotool))
    return;
  app = strata_test_new_app ();
  window = open_call_tree_sample (app);
  gtk_window_set_title (GTK_WINDOW (window), "strata-right-click-test");
  view = STRATA_CALL_TREE_VIEW (window->call_tree_view);
  model = strata_call_tree_view_get_model (view);
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (model), 0);
  while ((expander = expander_of_row (GTK_WIDGET (view), 2)) == NULL || gtk_widget_get_width (expander) < 100)
    g_main_context_iteration (NULL, TRUE);
  click_widget (xdotool, window, expander, gtk_widget_get_width (expander) + 60, gtk_widget_get_height (expander) / 2.0, "3");
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model)), ==, 2);
  /* The menu holds the pointer until it is closed. */
  run_xdotool ((const char *[]) { xdotool, "key", "Escape", NULL });
  finish_app (app);
}

static char *write_events (const char *name,
                           int         work_us,
                           const char *extra);

/* The titles of the call tree table's columns on show, joined by "|". */
static char *
call_tree_column_titles (StrataCallTreeView *view)
{
  GtkWidget *column_view = find_widget (GTK_WIDGET (view), GTK_TYPE_COLUMN_VIEW, NULL);
  GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (column_view));
  GString *titles = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (gtk_column_view_column_get_visible (column))
        g_string_append_printf (titles, "%s%s", titles->len > 0 ? "|" : "", gtk_column_view_column_get_title (column));
    }
  return g_string_free (titles, FALSE);
}

/* The call tree's table has total and self time and their shares on
 * each clock of the trace, named by clock when there are two, as the
 * profile's columns are. */
static void
test_window_call_tree_columns (void)
{
  g_autofree char *one_clock = write_events ("one-clock.json", 100, "load");
  g_autoptr(GFile) file = g_file_new_for_path (one_clock);
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window = open_call_tree_sample (app);
  g_autofree char *dual = call_tree_column_titles (STRATA_CALL_TREE_VIEW (window->call_tree_view));
  g_autofree char *single = NULL;

  g_assert_cmpstr (dual, ==, "Method|Total Wall|Total % Wall|Self Wall|Self % Wall|"
                             "Total CPU|Total % CPU|Self CPU|Self % CPU|Calls");
  /* The headers' menu hides a clock's columns, but not both clocks'. */
  {
    GtkWidget *column_view = find_widget (window->call_tree_view, GTK_TYPE_COLUMN_VIEW, NULL);
    g_autofree char *wall_only = NULL, *still = NULL;

    g_assert_true (gtk_widget_activate_action (column_view, "columns.show-clock-1", NULL));
    wall_only = call_tree_column_titles (STRATA_CALL_TREE_VIEW (window->call_tree_view));
    g_assert_cmpstr (wall_only, ==, "Method|Total Wall|Total % Wall|Self Wall|Self % Wall|Calls");
    g_assert_true (gtk_widget_activate_action (column_view, "columns.show-clock-0", NULL));
    still = call_tree_column_titles (STRATA_CALL_TREE_VIEW (window->call_tree_view));
    g_assert_cmpstr (still, ==, wall_only);
  }
  finish_app (app);

  app = strata_test_new_app ();
  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = only_window (app);
  strata_test_wait_for_window (window);
  strata_test_iterate_until (call_tree_ready, window->call_tree_view);
  single = call_tree_column_titles (STRATA_CALL_TREE_VIEW (window->call_tree_view));
  g_assert_cmpstr (single, ==, "Method|Total|Total %|Self|Self %|Calls");
  finish_app (app);
  g_unlink (one_clock);
}

/* The paths of the rows open in @model, a line each. */
static char *
open_rows (GListModel *model)
{
  GString *out = g_string_new (NULL);

  for (guint p = 0; p < g_list_model_get_n_items (model); p++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, p);
      g_autoptr(StrataCallNodeRow) item = gtk_tree_list_row_get_item (row);

      if (gtk_tree_list_row_get_expanded (row))
        {
          g_autofree char *path = strata_call_tree_dup_path (strata_call_node_row_get_tree (item),
                                                             strata_call_node_row_get_node (item), "/");

          g_string_append_printf (out, "%s\n", path);
        }
    }
  return g_string_free (out, FALSE);
}

/* The flame graph's zoom follows its calls across a transform and comes
 * back with a pop; the selection, the rows open and the zoom stay when
 * the tree is merged anew for a range. */
static void
test_window_call_tree_keeps_zoom (void)
{
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window = open_call_tree_sample (app);
  StrataCallTreeView *view = STRATA_CALL_TREE_VIEW (window->call_tree_view);
  StrataFlameGraph *flame = STRATA_FLAME_GRAPH (strata_call_tree_view_get_flame_graph (view));
  StrataCallTree *tree = strata_call_tree_view_get_tree (view);
  StrataTrace *trace = strata_session_get_trace (window->session);
  guint32 first, second, third;
  g_autofree char *zoomed = NULL, *merged = NULL, *popped = NULL, *expected = NULL;
  g_autofree char *selected = NULL, *opened = NULL, *ranged = NULL, *ranged_opened = NULL, *ranged_zoom = NULL;

  first = strata_call_tree_get_first_child (tree, STRATA_CALL_TREE_ROOT);
  second = strata_call_tree_get_first_child (tree, first);
  third = strata_call_tree_get_first_child (tree, second);
  strata_window_show_call_tree (window, "flame");
  strata_flame_graph_zoom_to (flame, third);
  zoomed = zoom_path (flame);
  {
    StrataCallTransform merge = { STRATA_CALL_TRANSFORM_MERGE_FUNCTION, strata_call_tree_get_method (tree, second),
                                  STRATA_CALL_TREE_NONE, NULL, NULL, 0 };
    g_autofree char *first_name = strata_call_tree_dup_name (tree, first);
    g_autofree char *third_name = strata_call_tree_dup_name (tree, third);

    expected = g_strdup_printf ("%s\n%s", first_name, third_name);
    strata_call_tree_view_apply_transform (view, &merge);
  }
  strata_test_iterate_until (call_tree_ready, view);
  g_assert_true (strata_flame_graph_get_tree (flame) != tree);
  merged = zoom_path (flame);
  g_assert_cmpstr (merged, ==, expected);
  strata_call_tree_view_pop_transform (view);
  strata_test_iterate_until (call_tree_ready, view);
  g_assert_true (strata_flame_graph_get_tree (flame) == tree);
  popped = zoom_path (flame);
  g_assert_cmpstr (popped, ==, zoomed);

  /* Merged anew for the first nine tenths of the trace. */
  strata_window_show_call_tree (window, "tree");
  g_assert_true (strata_call_tree_view_reveal_node (view, third));
  selected = strata_call_tree_view_dup_selected_path (view);
  opened = open_rows (strata_call_tree_view_get_model (view));
  strata_session_set_selection_range (window->session, strata_trace_get_start (trace),
                                      strata_trace_get_start (trace) + (strata_trace_get_end (trace) - strata_trace_get_start (trace)) * 9 / 10);
  strata_session_set_range_only (window->session, TRUE);
  strata_test_iterate_until (call_tree_ready, view);
  g_assert_true (strata_call_tree_view_get_tree (view) != tree);
  ranged = strata_call_tree_view_dup_selected_path (view);
  g_assert_cmpstr (ranged, ==, selected);
  ranged_opened = open_rows (strata_call_tree_view_get_model (view));
  g_assert_cmpstr (ranged_opened, ==, opened);
  ranged_zoom = zoom_path (flame);
  g_assert_cmpstr (ranged_zoom, ==, zoomed);

  /* Bottom up: zoomed into a caller's caller, then the caller merged
   * away; the zoom goes one level up the path, and back with the pop. */
  strata_call_tree_view_set_inverted (view, TRUE);
  strata_call_tree_view_set_view (view, "flame");
  strata_test_iterate_until (call_tree_ready, view);
  {
    StrataCallTree *inverted = strata_flame_graph_get_tree (flame);
    guint32 root = strata_call_tree_get_first_child (inverted, STRATA_CALL_TREE_ROOT);
    guint32 caller = strata_call_tree_get_first_child (inverted, root);
    guint32 above = strata_call_tree_get_first_child (inverted, caller);
    StrataCallTransform merge = { STRATA_CALL_TRANSFORM_MERGE_FUNCTION, strata_call_tree_get_method (inverted, caller),
                                  STRATA_CALL_TREE_NONE, NULL, NULL, 0 };
    g_autofree char *up_zoomed = NULL, *up_merged = NULL, *up_popped = NULL, *up_expected = NULL;
    g_autofree char *root_name = strata_call_tree_dup_name (inverted, root);
    g_autofree char *above_name = strata_call_tree_dup_name (inverted, above);

    g_assert_cmpint (strata_call_tree_get_kind (inverted), ==, STRATA_CALL_TREE_BOTTOM_UP);
    g_assert_cmpuint (strata_call_tree_get_n_children (inverted, caller), >, 0);
    g_assert_cmpuint (merge.method, !=, strata_call_tree_get_method (inverted, root));
    g_assert_cmpuint (merge.method, !=, strata_call_tree_get_method (inverted, above));
    strata_flame_graph_zoom_to (flame, above);
    up_zoomed = zoom_path (flame);
    up_expected = g_strdup_printf ("%s\n%s", root_name, above_name);
    strata_call_tree_view_apply_transform (view, &merge);
    strata_test_iterate_until (call_tree_ready, view);
    g_assert_true (strata_flame_graph_get_tree (flame) != inverted);
    up_merged = zoom_path (flame);
    g_assert_cmpstr (up_merged, ==, up_expected);
    strata_call_tree_view_pop_transform (view);
    strata_test_iterate_until (call_tree_ready, view);
    up_popped = zoom_path (flame);
    g_assert_cmpstr (up_popped, ==, up_zoomed);
  }
  finish_app (app);
}

/* The selection follows its calls across a transform (a frame merged
 * away: the same calls one level up), and popping the transform takes it
 * back to where it was. */
static void
test_window_call_tree_follows_selection (void)
{
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window = open_call_tree_sample (app);
  StrataCallTreeView *view = STRATA_CALL_TREE_VIEW (window->call_tree_view);
  StrataCallTree *tree;
  guint32 first, second, third;
  g_autofree char *before = NULL, *merged = NULL, *popped = NULL, *expected = NULL;
  g_autofree char *opened_before = NULL, *opened_merged = NULL, *opened_popped = NULL;

  tree = strata_call_tree_view_get_tree (view);
  first = strata_call_tree_get_first_child (tree, STRATA_CALL_TREE_ROOT);
  second = strata_call_tree_get_first_child (tree, first);
  third = strata_call_tree_get_first_child (tree, second);
  g_assert_cmpuint (strata_call_tree_get_n_children (tree, second), >, 0);
  /* The last top-level row with children open too, away from the
   * selection's path. */
  {
    GListModel *model = strata_call_tree_view_get_model (view);
    guint p = g_list_model_get_n_items (model);
    gboolean opened = FALSE;

    while (!opened && p-- > 1)
      {
        g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, p);

        if (gtk_tree_list_row_is_expandable (row))
          {
            gtk_tree_list_row_set_expanded (row, TRUE);
            opened = TRUE;
          }
      }
    g_assert_true (opened);
  }
  g_assert_true (strata_call_tree_view_reveal_node (view, third));
  before = strata_call_tree_view_dup_selected_path (view);
  opened_before = open_rows (strata_call_tree_view_get_model (view));

  {
    StrataCallTransform merge = { STRATA_CALL_TRANSFORM_MERGE_FUNCTION, strata_call_tree_get_method (tree, second),
                                  STRATA_CALL_TREE_NONE, NULL, NULL, 0 };
    g_autofree char *first_name = strata_call_tree_dup_name (tree, first);
    g_autofree char *third_name = strata_call_tree_dup_name (tree, third);

    expected = g_strdup_printf ("%s\n%s", first_name, third_name);
    strata_call_tree_view_apply_transform (view, &merge);
  }
  strata_test_iterate_until (call_tree_ready, view);
  merged = strata_call_tree_view_dup_selected_path (view);
  g_assert_cmpstr (merged, ==, expected);
  /* The rows open stay open: the merged frame's row is gone, the last
   * top-level row's is not. */
  opened_merged = open_rows (strata_call_tree_view_get_model (view));
  {
    g_auto(GStrv) lines = g_strsplit (opened_before, "\n", -1);

    g_assert_nonnull (strstr (opened_merged, lines[g_strv_length (lines) - 2]));
  }

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "calltree.pop-transform", NULL));
  strata_test_iterate_until (call_tree_ready, view);
  popped = strata_call_tree_view_dup_selected_path (view);
  g_assert_cmpstr (popped, ==, before);
  opened_popped = open_rows (strata_call_tree_view_get_model (view));
  g_assert_cmpstr (opened_popped, ==, opened_before);

  /* Bottom up: the first root's first caller, then its caller merged
   * away: the root's caller's caller, one level up. */
  strata_window_show_call_tree (window, "bottom-up");
  strata_test_iterate_until (call_tree_ready, view);
  {
    GListModel *model = strata_call_tree_view_get_model (view);
    g_autoptr(GtkTreeListRow) root = g_list_model_get_item (model, 0);
    g_autoptr(GtkTreeListRow) caller = NULL;
    g_autoptr(StrataCallNodeRow) caller_item = NULL;
    g_autofree char *up_before = NULL, *up_merged = NULL, *up_popped = NULL;
    StrataCallTree *inverted;
    StrataCallTransform merge = { STRATA_CALL_TRANSFORM_MERGE_FUNCTION, 0, STRATA_CALL_TREE_NONE, NULL, NULL, 0 };
    guint32 above;

    gtk_tree_list_row_set_expanded (root, TRUE);
    caller = g_list_model_get_item (model, 1);
    g_assert_cmpuint (gtk_tree_list_row_get_depth (caller), ==, 1);
    gtk_tree_list_row_set_expanded (caller, TRUE);
    caller_item = gtk_tree_list_row_get_item (caller);
    inverted = strata_call_node_row_get_tree (caller_item);
    g_assert_cmpuint (strata_call_tree_get_n_children (inverted, strata_call_node_row_get_node (caller_item)), >, 0);
    above = strata_call_tree_get_first_child (inverted, strata_call_node_row_get_node (caller_item));
    gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (model), 2);
    up_before = strata_call_tree_view_dup_selected_path (view);
    merge.method = strata_call_tree_get_method (inverted, strata_call_node_row_get_node (caller_item));
    g_assert_cmpuint (merge.method, !=, strata_call_tree_get_method (inverted, above));
    {
      g_autoptr(StrataCallNodeRow) root_item = gtk_tree_list_row_get_item (root);

      g_assert_cmpuint (merge.method, !=, strata_call_tree_get_method (inverted, strata_call_node_row_get_node (root_item)));
    }
    strata_call_tree_view_apply_transform (view, &merge);
    strata_test_iterate_until (call_tree_ready, view);
    up_merged = strata_call_tree_view_dup_selected_path (view);
    g_assert_nonnull (up_merged);
    g_assert_true (g_str_has_suffix (up_merged, strata_trace_get_method_name (strata_call_tree_get_trace (inverted),
                                                                              strata_call_tree_get_method (inverted, above))));
    {
      g_auto(GStrv) lines = g_strsplit (up_merged, "\n", -1);

      g_assert_cmpuint (g_strv_length (lines), ==, 2);
    }
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "calltree.pop-transform", NULL));
    strata_test_iterate_until (call_tree_ready, view);
    up_popped = strata_call_tree_view_dup_selected_path (view);
    g_assert_cmpstr (up_popped, ==, up_before);
  }
  finish_app (app);
}

/* The Call Tree page of the sample: rows by total, "*" opens the hot
 * path, a row selects its method, Bottom Up starts from where self time
 * went, and the flame graph draws, zooms and searches. */
/* The whole tree as CSV, a row per node, depth first; the roots' totals
 * add up to the whole, exact in nanoseconds. */
static void
check_call_tree_export (StrataCallTreeView *view)
{
  StrataCallTree *tree = strata_call_tree_view_get_tree (view);
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "tree.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  gint64 roots = 0;

  g_assert_true (strata_call_tree_view_export (view, file, &error));
  g_assert_no_error (error);
  g_file_get_contents (path, &contents, NULL, NULL);
  lines = g_strsplit (contents, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "Depth,Name,Total "));
  g_assert_cmpuint (g_strv_length (lines), ==, strata_call_tree_get_n_nodes (tree) + 1);
  for (guint i = 1; lines[i][0] != '\0'; i++)
    if (g_str_has_prefix (lines[i], "0,"))
      {
        const char *name_end = strrchr (lines[i], '"');
        g_auto(GStrv) cells = g_strsplit (name_end ? name_end + 2 : strchr (lines[i] + 2, ',') + 1, ",", -1);

        roots += g_ascii_strtoll (cells[0], NULL, 10);
      }
  g_assert_cmpint (roots, <=, strata_call_tree_get_total (tree, STRATA_CALL_TREE_ROOT, 0));
  g_assert_cmpint (roots, >, 0);
}

static void
test_window_call_tree (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "third-party", "dmtrace",
                                                 "studio-perflib-char_2_bytes.trace", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window;
  StrataCallTreeView *view;
  StrataSession *session;
  GListModel *model;
  guint before;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = only_window (app);
  strata_test_wait_for_window (window);
  session = strata_window_get_session (window);
  view = STRATA_CALL_TREE_VIEW (window->call_tree_view);
  g_assert_true (gtk_widget_get_visible (window->call_tree_view));
  strata_test_iterate_until (call_tree_ready, view);
  strata_window_show_call_tree (window, "tree");
  model = strata_call_tree_view_get_model (view);
  g_assert_cmpuint (g_list_model_get_n_items (model), >, 5);
  {
    g_autofree char *first = row_name (model, 0);

    g_assert_cmpstr (first, ==, "com.yy.base.taskexecutor.YYTaskExecutor$1.run ()V");
  }
  check_call_tree_export (view);
  /* "*" on the first row opens its heaviest path, several levels down. */
  before = g_list_model_get_n_items (model);
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (model), 0);
  g_assert_cmpuint (strata_session_get_selected_method (session), !=, G_MAXUINT32);
  strata_call_tree_view_expand_hot_path (view, 0);
  g_assert_cmpuint (g_list_model_get_n_items (model), >, before + 3);
  {
    g_autofree char *copied = strata_call_tree_view_dup_selected_path (view);

    g_assert_cmpstr (copied, ==, "com.yy.base.taskexecutor.YYTaskExecutor$1.run ()V");
  }

  /* A transform from the selected row, undone with Backspace's action. */
  {
    StrataCallTree *before_tree = strata_call_tree_view_get_tree (view);
    guint32 n_before = strata_call_tree_get_n_nodes (before_tree);

    g_object_ref (before_tree);
    gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (model), 0);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "calltree.focus-subtree", NULL));
    /* Reshaped in a worker; the tree on show stays meanwhile. */
    g_assert_false (strata_call_tree_view_is_ready (view));
    g_assert_true (strata_call_tree_view_get_tree (view) == before_tree);
    strata_test_iterate_until (call_tree_ready, view);
    g_assert_true (strata_call_tree_view_get_tree (view) != before_tree);
    g_assert_cmpuint (strata_call_tree_get_n_nodes (strata_call_tree_view_get_tree (view)), <, n_before);
    model = strata_call_tree_view_get_model (view);
    /* One row on top, the focused one, selected, with the rows that were
     * open under it open still. */
    for (guint p = 1; p < g_list_model_get_n_items (model); p++)
      {
        g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, p);

        g_assert_cmpuint (gtk_tree_list_row_get_depth (row), >, 0);
      }
    g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model)), ==, 0);
    g_assert_cmpuint (g_list_model_get_n_items (model), >, 3);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "calltree.pop-transform", NULL));
    strata_test_iterate_until (call_tree_ready, view);
    g_assert_true (strata_call_tree_view_get_tree (view) == before_tree);
    g_object_unref (before_tree);
    model = strata_call_tree_view_get_model (view);
  }
  /* Transforms asked for while one is made follow it; Backspace first
   * takes back one not made yet. */
  {
    StrataCallTree *before_tree = strata_call_tree_view_get_tree (view);
    guint32 first = strata_call_tree_get_first_child (before_tree, STRATA_CALL_TREE_ROOT);
    StrataCallTransform drop_a = { STRATA_CALL_TRANSFORM_DROP_FUNCTION, strata_call_tree_get_method (before_tree, first),
                                   STRATA_CALL_TREE_NONE, NULL, NULL, 0 };
    StrataCallTransform drop_b = drop_a, drop_c = drop_a;
    StrataCallTree *shown;

    drop_b.method = strata_call_tree_get_method (before_tree, first + 1);
    drop_c.method = strata_call_tree_get_method (before_tree, first + 2);
    g_object_ref (before_tree);
    strata_call_tree_view_apply_transform (view, &drop_a);
    strata_call_tree_view_apply_transform (view, &drop_b);
    strata_call_tree_view_apply_transform (view, &drop_c);
    strata_call_tree_view_pop_transform (view);
    strata_test_iterate_until (call_tree_ready, view);
    shown = strata_call_tree_view_get_tree (view);
    for (guint32 v = 1; v < strata_call_tree_get_n_nodes (shown); v++)
      {
        g_assert_cmpuint (strata_call_tree_get_method (shown, v), !=, drop_a.method);
        g_assert_cmpuint (strata_call_tree_get_method (shown, v), !=, drop_b.method);
      }
    g_assert_cmpuint (strata_call_tree_get_method (shown, strata_call_tree_get_first_child (shown, STRATA_CALL_TREE_ROOT)),
                      ==, drop_c.method);
    strata_call_tree_view_pop_transform (view);
    strata_call_tree_view_pop_transform (view);
    strata_test_iterate_until (call_tree_ready, view);
    g_assert_true (strata_call_tree_view_get_tree (view) == before_tree);
    g_object_unref (before_tree);
    model = strata_call_tree_view_get_model (view);
  }
  /* A transform about a function stays when one thread is shown instead
   * of all: the tree is merged again and the transform applied to it. */
  {
    StrataCallTransform transform = { STRATA_CALL_TRANSFORM_MERGE_FUNCTION, 0, STRATA_CALL_TREE_NONE, NULL, NULL, 0 };
    g_autoptr(StrataCallTree) main_only = strata_call_tree_new (strata_session_get_trace (session), 0, FALSE, NULL, NULL, NULL);
    guint32 merged = strata_call_tree_get_method (main_only, strata_call_tree_get_first_child (main_only, STRATA_CALL_TREE_ROOT));
    StrataCallTree *shown;

    transform.method = merged;
    strata_call_tree_view_apply_transform (view, &transform);
    strata_test_iterate_until (call_tree_ready, view);
    strata_session_set_profile_thread (session, 0);
    strata_test_iterate_until (call_tree_ready, view);
    shown = strata_call_tree_view_get_tree (view);
    g_assert_cmpint (strata_call_tree_get_total (shown, STRATA_CALL_TREE_ROOT, 0), ==,
                     strata_call_tree_get_total (main_only, STRATA_CALL_TREE_ROOT, 0));
    g_assert_cmpuint (strata_call_tree_get_n_nodes (shown), <, strata_call_tree_get_n_nodes (main_only));
    for (guint32 v = 1; v < strata_call_tree_get_n_nodes (shown); v++)
      g_assert_cmpuint (strata_call_tree_get_method (shown, v), !=, merged);
    strata_call_tree_view_pop_transform (view);
    strata_session_set_profile_thread (session, -1);
    strata_test_iterate_until (call_tree_ready, view);
    model = strata_call_tree_view_get_model (view);
  }

  /* A focus on a subtree stays when the tree is merged again for a range:
   * on the node with the same path in the new tree. */
  {
    StrataTrace *trace = strata_session_get_trace (session);
    gint64 start = strata_trace_get_start (trace), end = strata_trace_get_end (trace);
    StrataCallTree *shown;
    guint32 focused, top;

    gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (model), 0);
    focused = strata_session_get_selected_method (session);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "calltree.focus-subtree", NULL));
    strata_test_iterate_until (call_tree_ready, view);
    strata_session_set_selection_range (session, start, start + (end - start) / 2);
    strata_session_set_range_only (session, TRUE);
    strata_test_iterate_until (call_tree_ready, view);
    shown = strata_call_tree_view_get_tree (view);
    g_assert_cmpuint (strata_call_tree_get_n_children (shown, STRATA_CALL_TREE_ROOT), ==, 1);
    top = strata_call_tree_get_first_child (shown, STRATA_CALL_TREE_ROOT);
    g_assert_cmpuint (strata_call_tree_get_method (shown, top), ==, focused);
    {
      StrataProfileRange range = { strata_session_get_clock (session), start, start + (end - start) / 2 };
      g_autoptr(StrataCallTree) whole = strata_call_tree_new (trace, -1, FALSE, &range, NULL, NULL);
      guint32 same = strata_call_tree_find_codes (whole, &focused, 1);

      g_assert_cmpuint (same, !=, STRATA_CALL_TREE_NONE);
      g_assert_cmpint (strata_call_tree_get_total (shown, STRATA_CALL_TREE_ROOT, 0), ==,
                       strata_call_tree_get_total (whole, same, 0));
    }
    strata_session_set_range_only (session, FALSE);
    strata_test_iterate_until (call_tree_ready, view);
    shown = strata_call_tree_view_get_tree (view);
    g_assert_cmpuint (strata_call_tree_get_n_children (shown, STRATA_CALL_TREE_ROOT), ==, 1);
    g_assert_cmpuint (strata_call_tree_get_method (shown, strata_call_tree_get_first_child (shown, STRATA_CALL_TREE_ROOT)),
                      ==, focused);
    strata_call_tree_view_pop_transform (view);
    g_assert_cmpuint (strata_call_tree_get_n_children (strata_call_tree_view_get_tree (view), STRATA_CALL_TREE_ROOT), >, 1);
    model = strata_call_tree_view_get_model (view);
  }

  /* A call selected in the timeline opens its path and selects its row. */
  {
    StrataSliceRef call;
    guint32 method = strata_session_get_selected_method (session);
    g_autoptr(GtkTreeListRow) row = NULL;
    g_autoptr(StrataCallNodeRow) item = NULL;

    g_assert_true (strata_trace_find_longest_call (strata_session_get_trace (session), method, &call));
    strata_session_select_call (session, &call);
    model = strata_call_tree_view_get_model (view);
    row = g_object_ref (gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (model)));
    item = gtk_tree_list_row_get_item (row);
    g_assert_cmpuint (strata_call_node_row_get_node (item), ==,
                      strata_call_tree_find_call (strata_call_tree_view_get_tree (view), &call));
    g_assert_cmpuint (gtk_tree_list_row_get_depth (row), ==, call.depth);
  }

  /* A deep call late in a long table: its row is selected, and the list
   * inside the column view has the action the view scrolls it in with
   * (GTK 4.8 has no API for column views). */
  {
    const StrataSpanTable *table = strata_trace_get_thread (strata_session_get_trace (session), 0)->spans;
    guint depth = MIN (table->n_depths - 1, 12);
    StrataSliceRef call = { 0, depth, table->n_spans[depth] - 1 };
    GtkWidget *list = find_mapped (find_mapped (GTK_WIDGET (view), GTK_TYPE_COLUMN_VIEW), GTK_TYPE_LIST_VIEW);
    g_autoptr(GtkTreeListRow) selected = NULL;
    g_autoptr(StrataCallNodeRow) item = NULL;
    guint position;

    /* Rows opened two levels down make the table long. */
    model = strata_call_tree_view_get_model (view);
    for (guint i = 0; i < g_list_model_get_n_items (model); i++)
      {
        g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, i);

        if (gtk_tree_list_row_get_depth (row) < 2)
          gtk_tree_list_row_set_expanded (row, TRUE);
      }
    strata_session_select_call (session, &call);
    model = strata_call_tree_view_get_model (view);
    position = gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model));
    g_assert_cmpuint (position, >, 100);
    selected = g_list_model_get_item (model, position);
    item = gtk_tree_list_row_get_item (selected);
    g_assert_cmpuint (strata_call_node_row_get_node (item), ==,
                      strata_call_tree_find_call (strata_call_tree_view_get_tree (view), &call));
    g_assert_nonnull (list);
    g_assert_true (gtk_widget_activate_action (list, "list.scroll-to-item", "u", position));
  }

  /* Bottom up: where the time was spent in the method itself. */
  strata_window_show_call_tree (window, "bottom-up");
  strata_test_iterate_until (call_tree_ready, view);
  model = strata_call_tree_view_get_model (view);
  {
    g_autofree char *first = row_name (model, 0);

    g_assert_true (g_str_has_prefix (first, "java.lang.Thread.sleep"));
  }

  /* The flame graph: bars, a zoom by click, the search's share. */
  strata_window_show_call_tree (window, "flame");
  {
    StrataFlameGraph *flame = STRATA_FLAME_GRAPH (strata_call_tree_view_get_flame_graph (view));
    cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 400);
    cairo_t *cr = cairo_create (surface);
    guint32 node;

    g_assert_cmpint (strata_call_tree_get_kind (strata_flame_graph_get_tree (flame)), ==, STRATA_CALL_TREE_TOP_DOWN);
    strata_flame_graph_draw (flame, cr, 1200, 400);
    g_assert_cmpuint (strata_flame_graph_draw_count (flame), >, 50);
    strata_flame_graph_set_search (flame, "inflate");
    g_assert_cmpfloat (strata_flame_graph_get_search_share (flame), >, 0.05);
    g_assert_cmpfloat (strata_flame_graph_get_search_share (flame), <, 1.0);
    strata_flame_graph_set_search (flame, NULL);
    node = strata_call_tree_get_first_child (strata_flame_graph_get_tree (flame), STRATA_CALL_TREE_ROOT);
    strata_flame_graph_zoom_to (flame, node);
    g_assert_cmpuint (strata_flame_graph_get_zoom (flame), ==, node);
    cairo_destroy (cr);
    cairo_surface_destroy (surface);
  }
  finish_app (app);
}

/* The JDK agent's binary output: allocation sites that expand to their
 * stack and sort by any column, and the threads page. */
static void
test_window_allocation_sites (void)
{
  g_autofree char *path = strata_test_corpus_path ("hprof", "hprof-slurp-hprof-32.bin", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrataApplication *app;
  StrataWindow *window;
  StrataHeapView *view;
  StrataSitesView *sites;
  GListModel *model;
  guint n, with_stack = G_MAXUINT;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      strata_test_skip_no_corpus ();
      return;
    }
  app = strata_test_new_app ();
  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = only_window (app);
  strata_test_wait_for_window (window);
  view = STRATA_HEAP_VIEW (window->heap_view);
  g_assert_nonnull (strata_heap_view_get_page (view, "classes"));
  g_assert_nonnull (strata_heap_view_get_page (view, "threads"));
  sites = STRATA_SITES_VIEW (strata_heap_view_get_page (view, "sites"));
  g_assert_nonnull (sites);

  model = strata_sites_view_get_model (sites);
  n = g_list_model_get_n_items (model);
  g_assert_cmpuint (n, ==, strata_heap_get_n_sites (strata_trace_get_heap (strata_session_get_trace (strata_window_get_session (window)))));
  /* Exported: a row per site, numbers as numbers. */
  {
    g_autofree char *dir = strata_test_make_tmpdir ();
    g_autofree char *csv_path = g_build_filename (dir, "sites.csv", NULL);
    g_autoptr(GFile) csv = g_file_new_for_path (csv_path);
    g_autoptr(GError) error = NULL;
    g_autofree char *contents = NULL;
    g_auto(GStrv) lines = NULL;

    g_assert_true (strata_heap_view_export (view, "sites", csv, FALSE, &error));
    g_assert_no_error (error);
    g_file_get_contents (csv_path, &contents, NULL, NULL);
    lines = g_strsplit (contents, "\n", -1);
    g_assert_true (g_str_has_prefix (lines[0], "Rank,Self %,Accumulated %,Class,Live (bytes)"));
    g_assert_cmpuint (g_strv_length (lines), ==, n + 2);
    g_assert_true (g_str_has_prefix (lines[1], "1,"));
  }
  for (guint i = 0; i < n && with_stack == G_MAXUINT; i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, i);

      if (gtk_tree_list_row_is_expandable (row))
        {
          with_stack = i;
          gtk_tree_list_row_set_expanded (row, TRUE);
        }
    }
  g_assert_cmpuint (with_stack, !=, G_MAXUINT);
  g_assert_cmpuint (g_list_model_get_n_items (model), >, n);
  {
    g_autoptr(GtkTreeListRow) frame_row = g_list_model_get_item (model, with_stack + 1);
    g_autoptr(StrataSiteRow) frame = gtk_tree_list_row_get_item (frame_row);

    g_assert_true (strata_site_row_is_frame (frame));
  }

  /* Live objects, most first: the sites' frames stay under their site. */
  strata_sites_view_sort_by (sites, 5, GTK_SORT_ASCENDING);
  {
    g_autoptr(GtkTreeListRow) first_row = g_list_model_get_item (model, 0);
    g_autoptr(StrataSiteRow) first = gtk_tree_list_row_get_item (first_row);

    g_assert_cmpuint (strata_site_row_get_value (first, 2), ==, 702);
  }

  finish_app (app);
}

static void
set_true (gboolean *flag)
{
  *flag = TRUE;
}

static gboolean
menu_has_label (GMenuModel *menu,
                const char *label)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *text = NULL;

      if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_LABEL, "s", &text) &&
          g_str_equal (text, label))
        return TRUE;
    }
  return FALSE;
}

static void
test_window_open_file_adds_recent (void)
{
  StrataApplication *app = strata_test_new_app ();
  g_autofree char *path = strata_test_fixture_path ("dmtrace", "studio-perflib-exception.trace", NULL);
  g_autofree char *export_path = strata_test_write_file ("profile.csv", "Name\n", 5);
  g_autofree char *broken_path = strata_test_write_file ("broken.trace", png_bytes, sizeof png_bytes - 1);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) broken = g_file_new_for_path (broken_path);
  g_autofree char *uri = g_file_get_uri (file);
  g_autofree char *export_uri = g_filename_to_uri (export_path, NULL, NULL);
  g_autofree char *broken_uri = g_file_get_uri (broken);
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  StrataWindow *window;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = only_window (app);
  strata_test_wait_for_window (window);
  g_assert_cmpstr (strata_window_get_page (window), ==, "trace");
  g_assert_true (gtk_recent_manager_has_item (manager, uri));

  /* A file a dialog saved (an export) is added by GTK under our name; Open
   * Recent lists only traces that opened. */
  {
    gboolean changed = FALSE;
    gulong handler = g_signal_connect_swapped (manager, "changed", G_CALLBACK (set_true), &changed);

    gtk_recent_manager_add_full (manager, export_uri, &(GtkRecentData) {
      .mime_type = (char *) "text/csv", .app_name = (char *) "Strata", .app_exec = (char *) "strata %u" });
    g_assert_true (gtk_recent_manager_has_item (manager, export_uri));
    while (!changed)
      g_main_context_iteration (NULL, TRUE);
    g_signal_handler_disconnect (manager, handler);
  }
  /* GTK saves and reads back its list in the background: with no list
   * yet, reading back the first save can come after the add. */
  {
    gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

    while (!menu_has_label (G_MENU_MODEL (window->recent_menu), "studio-perflib-exception.trace") &&
           g_get_monotonic_time () < deadline)
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (10 * 1000);
  }
  g_assert_true (menu_has_label (G_MENU_MODEL (window->recent_menu), "studio-perflib-exception.trace"));
  g_assert_false (menu_has_label (G_MENU_MODEL (window->recent_menu), "profile.csv"));

  /* A listed file that no longer opens leaves the list. */
  _strata_window_add_recent (window, broken);
  g_assert_true (gtk_recent_manager_has_item (manager, broken_uri));
  strata_window_open (window, broken);
  strata_test_wait_for_window (window);
  g_assert_cmpstr (strata_window_get_page (window), ==, "error");
  g_assert_false (gtk_recent_manager_has_item (manager, broken_uri));

  finish_app (app);
}

static void
test_window_remembers_size (void)
{
  StrataApplication *app = strata_test_new_app ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  StrataWindow *window;
  int width, height;

  g_application_activate (G_APPLICATION (app));
  window = only_window (app);
  gtk_window_set_default_size (GTK_WINDOW (window), 812, 604);
  gtk_window_close (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 812);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 604);

  /* The next window opens at that size. */
  window = strata_window_new (GTK_APPLICATION (app));
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 812);
  g_assert_cmpint (height, ==, 604);
  gtk_window_destroy (GTK_WINDOW (window));

  finish_app (app);
}

static gboolean
has_toplevel_of_type (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (window, type))
        return TRUE;
    }
  return FALSE;
}

static void
test_window_shortcuts_and_about (void)
{
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window;

  g_application_activate (G_APPLICATION (app));
  window = only_window (app);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  g_assert_true (has_toplevel_of_type (GTK_TYPE_SHORTCUTS_WINDOW));
  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  g_assert_true (has_toplevel_of_type (GTK_TYPE_ABOUT_DIALOG));

  finish_app (app);
}

/* Keypad keys do what their main keys do; the window lists the main key. */
static guint
main_keyval (guint keyval)
{
  static const guint keypad[][2] = {
    { GDK_KEY_KP_Up, GDK_KEY_Up }, { GDK_KEY_KP_Down, GDK_KEY_Down },
    { GDK_KEY_KP_Left, GDK_KEY_Left }, { GDK_KEY_KP_Right, GDK_KEY_Right },
    { GDK_KEY_KP_Home, GDK_KEY_Home }, { GDK_KEY_KP_Add, GDK_KEY_plus },
    { GDK_KEY_KP_Subtract, GDK_KEY_minus }, { GDK_KEY_KP_Enter, GDK_KEY_Return },
    { GDK_KEY_KP_0, GDK_KEY_0 }, { GDK_KEY_KP_Equal, GDK_KEY_equal },
  };

  for (guint i = 0; i < G_N_ELEMENTS (keypad); i++)
    if (keypad[i][0] == keyval)
      return keypad[i][1];
  return keyval;
}

/* Every key a Strata widget binds, as "keyval:mods" strings. */
static void
collect_widget_bindings (GtkWidget  *widget,
                         GHashTable *keys)
{
  if (g_str_has_prefix (G_OBJECT_TYPE_NAME (widget), "Strata"))
    {
      g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

      for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
        {
          g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

          if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
            continue;
          for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
            {
              g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
              GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);

              /* Strata binds keys to its actions; signal and callback
               * bindings are GTK's own (list navigation, the inspector) */
              if (GTK_IS_KEYVAL_TRIGGER (trigger) && GTK_IS_NAMED_ACTION (gtk_shortcut_get_action (shortcut)))
                g_hash_table_add (keys, g_strdup_printf ("%u:%u",
                                                         main_keyval (gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger))),
                                                         gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger))));
            }
        }
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    collect_widget_bindings (child, keys);
}

static void
add_accelerators (GHashTable *keys,
                  const char *accelerators)
{
  g_auto(GStrv) parts = g_strsplit (accelerators, " ", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      guint keyval = 0;
      GdkModifierType mods = 0;

      if (gtk_accelerator_parse (parts[i], &keyval, &mods) && keyval != 0)
        g_hash_table_add (keys, g_strdup_printf ("%u:%u", keyval, mods));
    }
}

/* The keys the shortcuts window lists: its own accelerators and those of
 * the application actions it names. */
static GHashTable *
collect_listed_keys (GtkApplication *app)
{
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/io/github/stratatrace/Strata/gtk/help-overlay.ui");
  g_autoptr(GSList) objects = gtk_builder_get_objects (builder);
  GHashTable *keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (GSList *l = objects; l != NULL; l = l->next)
    {
      g_autofree char *accelerator = NULL;
      g_autofree char *action = NULL;

      if (!GTK_IS_SHORTCUTS_SHORTCUT (l->data))
        continue;
      g_object_get (l->data, "accelerator", &accelerator, "action-name", &action, NULL);
      if (accelerator != NULL)
        add_accelerators (keys, accelerator);
      if (action != NULL)
        {
          g_auto(GStrv) accels = gtk_application_get_accels_for_action (app, action);

          g_assert_true (accels[0] != NULL);
          for (guint i = 0; accels[i] != NULL; i++)
            add_accelerators (keys, accels[i]);
        }
    }
  gtk_window_destroy (GTK_WINDOW (gtk_builder_get_object (builder, "help_overlay")));
  return keys;
}

/* The actions are the source: every application accelerator and every key
 * a Strata widget binds is in the shortcuts window. */
static void
test_window_shortcuts_complete (void)
{
  StrataApplication *app = strata_test_new_app ();
  g_autoptr(GHashTable) bound = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) listed = NULL;
  g_auto(GStrv) actions = NULL;
  GHashTableIter iter;
  const char *key;
  guint missing = 0;

  g_application_activate (G_APPLICATION (app));
  collect_widget_bindings (GTK_WIDGET (only_window (app)), bound);
  actions = gtk_application_list_action_descriptions (GTK_APPLICATION (app));
  for (guint i = 0; actions[i] != NULL; i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), actions[i]);

      for (guint j = 0; accels[j] != NULL; j++)
        add_accelerators (bound, accels[j]);
    }
  g_assert_cmpuint (g_hash_table_size (bound), >=, 20);

  listed = collect_listed_keys (GTK_APPLICATION (app));
  g_hash_table_iter_init (&iter, bound);
  while (g_hash_table_iter_next (&iter, (gpointer *) &key, NULL))
    {
      guint keyval = 0, mods = 0;
      g_autofree char *label = NULL;

      sscanf (key, "%u:%u", &keyval, &mods);
      label = gtk_accelerator_name (keyval, mods);
      if (!g_hash_table_contains (listed, key))
        {
          g_printerr ("%s is bound but not in the shortcuts window\n", label);
          missing++;
        }
    }
  g_assert_cmpuint (missing, ==, 0);
  finish_app (app);
}

/* The loading page estimates the time left once it has something to go on. */
static void
test_window_time_left (void)
{
  const struct { double elapsed, fraction; const char *expected; } cases[] = {
    { 0.5, 0.5, NULL },                      /* too early */
    { 3.0, 0.01, NULL },                     /* too little done */
    { 2.0, 0.5, "About 2 seconds left" },
    { 1.0, 0.99, "About 1 second left" },
    { 10.0, 0.1, "About 2 minutes left" },   /* 90 s */
    { 5.0, 1.0, NULL },                      /* done */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = _strata_window_describe_time_left (cases[i].elapsed, cases[i].fraction);

      g_assert_cmpstr (text, ==, cases[i].expected);
    }
}

/* ---- Compare With ---- */

static char *
write_events (const char *name,
              int         work_us,
              const char *extra)
{
  g_autofree char *json = g_strdup_printf (
    "{\"traceEvents\":[\n"
    "{\"name\":\"main\",\"ph\":\"X\",\"ts\":0,\"dur\":1000,\"pid\":1,\"tid\":1},\n"
    "{\"name\":\"work\",\"ph\":\"X\",\"ts\":10,\"dur\":%d,\"pid\":1,\"tid\":1},\n"
    "{\"name\":\"idle\",\"ph\":\"X\",\"ts\":300,\"dur\":50,\"pid\":1,\"tid\":1},\n"
    "{\"name\":\"%s\",\"ph\":\"X\",\"ts\":400,\"dur\":20,\"pid\":1,\"tid\":1}]}\n", work_us, extra);

  return strata_test_write_file (name, json, strlen (json));
}

static gboolean
compared (gpointer session)
{
  return strata_session_get_comparison (session) != NULL;
}

static gboolean
compare_settled (gpointer window)
{
  return !strata_window_get_comparing (window);
}

static gboolean
flame_differential (gpointer flame)
{
  return strata_flame_graph_get_differential (flame);
}

static char *
list_name (StrataComparisonList *list,
           guint                 position)
{
  StrataComparison *comparison = strata_comparison_list_get_comparison (list);

  return g_strdup (strata_comparison_get_row (comparison, strata_comparison_list_get_row (list, position))->name);
}

/* The rows on show, numbers as numbers: the header and @first_row. */
static void
check_compare_export (StrataCompareView *view,
                      const char        *first_row)
{
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "comparison.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *csv = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_true (strata_compare_view_export (view, file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &csv, NULL, NULL));
  lines = g_strsplit (csv, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "Name,Status,incl before (ns),incl after (ns),incl delta (ns),incl change,"
                                 "excl before (ns),excl after (ns),excl delta (ns),excl change,"
                                 "calls before,calls after,calls delta,calls change");
  g_assert_true (g_str_has_prefix (lines[1], first_row));
  g_assert_cmpstr (lines[2], ==, "");
}

static void
check_compare_list (StrataWindow *window)
{
  StrataCompareView *view = STRATA_COMPARE_VIEW (window->compare_view);
  StrataComparisonList *list = strata_compare_view_get_list (view);
  StrataComparison *comparison = strata_comparison_list_get_comparison (list);
  guint work;
  g_autofree char *delta = NULL;
  g_autofree char *first = NULL;
  g_autofree char *last = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 5);
  /* Largest growth of inclusive time first, by default and by the header. */
  strata_compare_view_sort_by (view, STRATA_FIGURE_INCLUSIVE, STRATA_MEASURE_DELTA, TRUE);
  first = list_name (list, 0);
  g_assert_cmpstr (first, ==, "work");
  strata_compare_view_sort_by (view, STRATA_FIGURE_INCLUSIVE, STRATA_MEASURE_DELTA, FALSE);
  last = list_name (list, 0);
  g_assert_cmpstr (last, ==, "load");
  work = G_MAXUINT;
  for (guint r = 0; r < strata_comparison_get_n_rows (comparison); r++)
    if (g_str_equal (strata_comparison_get_row (comparison, r)->name, "work"))
      work = r;
  delta = strata_comparison_list_format (list, work, STRATA_FIGURE_INCLUSIVE, STRATA_MEASURE_DELTA);
  g_assert_cmpstr (delta, ==, "+50.0 µs");
  g_clear_pointer (&delta, g_free);
  delta = strata_comparison_list_format (list, work, STRATA_FIGURE_INCLUSIVE, STRATA_MEASURE_CHANGE);
  g_assert_cmpstr (delta, ==, "+50.0%");

  /* Shares of each total: both traces last 1 ms, so 10% → 15%. */
  strata_comparison_list_set_normalized (list, TRUE);
  g_clear_pointer (&delta, g_free);
  delta = strata_comparison_list_format (list, work, STRATA_FIGURE_INCLUSIVE, STRATA_MEASURE_DELTA);
  g_assert_cmpstr (delta, ==, "+5.00 pp");
  strata_comparison_list_set_normalized (list, FALSE);

  strata_comparison_list_set_filter (list, "WOR");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 1);
  check_compare_export (view, "work,both,100000,150000,50000,0.5,");
  strata_comparison_list_set_filter (list, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 5);
}

/* A trace compared with a run where "work" was 50 µs faster: the Compare
 * page, the differential flame graph, a refusal, and stopping. */
static void
test_window_compare (void)
{
  g_autofree char *before_path = write_events ("before.json", 100, "load");
  g_autofree char *after_path = write_events ("after.json", 150, "parse");
  g_autofree char *dump_path = g_test_build_filename (G_TEST_DIST, "data", "allocations.hprof.gz", NULL);
  g_autoptr(GFile) after = g_file_new_for_path (after_path);
  g_autoptr(GFile) before = g_file_new_for_path (before_path);
  g_autoptr(GFile) dump = g_file_new_for_path (dump_path);
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window;
  StrataSession *session;
  GtkWidget *flame;

  g_application_open (G_APPLICATION (app), &after, 1, "");
  window = only_window (app);
  strata_test_wait_for_window (window);
  session = strata_window_get_session (window);
  g_assert_false (gtk_widget_get_visible (window->compare_view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.stop-comparing", NULL));
  g_assert_null (strata_session_get_comparison (session));

  strata_window_compare_with (window, before);
  g_assert_true (gtk_widget_get_visible (window->compare_bar));
  g_assert_true (gtk_widget_get_parent (window->compare_bar) == GTK_WIDGET (window->trace_box));
  strata_test_iterate_until (compared, session);
  strata_test_iterate_until (compare_settled, window);
  g_assert_false (gtk_widget_get_visible (window->compare_bar));
  g_assert_true (gtk_widget_get_visible (window->compare_view));
  g_assert_cmpint (gtk_notebook_get_current_page (GTK_NOTEBOOK (window->details)), ==,
                   gtk_notebook_page_num (GTK_NOTEBOOK (window->details), window->compare_view));
  check_compare_list (window);

  /* The flame graph colours by the change; the tooltip's figures agree. */
  strata_window_show_call_tree (window, "flame");
  flame = find_widget (window->call_tree_view, STRATA_TYPE_FLAME_GRAPH, NULL);
  strata_test_iterate_until (flame_differential, flame);

  /* A heap dump does not compare with a trace: the bar says so and the
   * comparison on show stays. */
  strata_window_compare_with (window, dump);
  strata_test_iterate_until (compare_settled, window);
  g_assert_true (gtk_widget_get_visible (window->compare_bar));
  assert_label_contains (GTK_LABEL (window->compare_label), "heap dump");
  g_assert_nonnull (strata_session_get_comparison (session));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.stop-comparing", NULL));
  g_assert_null (strata_session_get_comparison (session));
  g_assert_false (gtk_widget_get_visible (window->compare_view));
  g_assert_false (strata_flame_graph_get_differential (STRATA_FLAME_GRAPH (flame)));
  finish_app (app);
}

static GdkContentProvider *
prepare_drag_cb (GtkDragSource *source,
                 double         x,
                 double         y,
                 GFile         *file)
{
  GdkFileList *list = gdk_file_list_new_from_array (&file, 1);
  GdkContentProvider *provider = gdk_content_provider_new_typed (GDK_TYPE_FILE_LIST, list);

  g_boxed_free (GDK_TYPE_FILE_LIST, list);
  return provider;
}

/* A window of this process to drag @file from, moved to @x by xdotool. */
static GtkWidget *
drag_source_window (GFile      *file,
                    const char *xdotool)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *label = gtk_label_new ("drag me");
  GtkDragSource *source = gtk_drag_source_new ();

  gtk_drag_source_set_actions (source, GDK_ACTION_COPY);
  g_signal_connect (source, "prepare", G_CALLBACK (prepare_drag_cb), file);
  gtk_widget_add_controller (label, GTK_EVENT_CONTROLLER (source));
  gtk_window_set_child (GTK_WINDOW (window), label);
  gtk_window_set_title (GTK_WINDOW (window), "strata-drag-source");
  gtk_window_set_default_size (GTK_WINDOW (window), 200, 150);
  gtk_window_present (GTK_WINDOW (window));
  run_xdotool ((const char *[]) { xdotool, "search", "--sync", "--name", "strata-drag-source",
                                  "windowmove", "--sync", "%1", "1200", "600", NULL });
  return window;
}

/* A file dragged from another window and dropped with Ctrl held is
 * compared with, not opened: a real X drag, moved by xdotool. */
static void
test_window_ctrl_drop_compares (void)
{
  g_autofree char *before_path = write_events ("before.json", 100, "load");
  g_autofree char *after_path = write_events ("after.json", 150, "parse");
  g_autoptr(GFile) after = g_file_new_for_path (after_path);
  g_autoptr(GFile) before = g_file_new_for_path (before_path);
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  StrataApplication *app;
  StrataWindow *window;
  GtkWidget *source;

  if (!can_drive_pointer (xdotool))
    return;
  app = strata_test_new_app ();
  g_application_open (G_APPLICATION (app), &after, 1, "");
  window = only_window (app);
  strata_test_wait_for_window (window);
  gtk_window_set_title (GTK_WINDOW (window), "strata-drop-test");
  source = drag_source_window (before, xdotool);
  run_xdotool ((const char *[]) { xdotool, "search", "--sync", "--name", "strata-drop-test",
                                  "windowmove", "--sync", "%1", "0", "0", NULL });
  run_xdotool ((const char *[]) { xdotool, "mousemove", "1300", "675", "sleep", "0.3", "mousedown", "1",
                                  "mousemove", "1250", "600", "sleep", "0.1", "mousemove", "1000", "500", "sleep", "0.1",
                                  "mousemove", "600", "300", "sleep", "0.1", "keydown", "ctrl",
                                  "mousemove", "500", "300", "sleep", "0.2", "mousemove", "480", "300", "sleep", "0.3",
                                  "mouseup", "1", "sleep", "0.2", "keyup", "ctrl", NULL });
  strata_test_iterate_until (compared, strata_window_get_session (window));
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, 1);
  gtk_window_destroy (GTK_WINDOW (source));
  finish_app (app);
}

static gboolean
mapping_settled (gpointer window)
{
  return !strata_window_get_mapping_busy (window);
}

static guint32
method_named (StrataTrace *trace,
              const char  *name)
{
  for (guint32 m = 0; m < strata_trace_get_n_methods (trace); m++)
    if (g_str_equal (strata_trace_get_method_name (trace, m), name))
      return m;
  return G_MAXUINT32;
}

/* The name the profile table shows for @method. */
static char *
profile_row_name (StrataWindow *window,
                  guint32       method)
{
  StrataProfileView *view = STRATA_PROFILE_VIEW (window->profile_view);
  guint position = strata_profile_model_find_method (view->model, method);
  g_autoptr(StrataProfileRow) row = g_list_model_get_item (G_LIST_MODEL (view->model), position);

  return g_strdup (strata_profile_row_get_name (row));
}

static void
wait_for_profile (StrataWindow *window)
{
  while (STRATA_PROFILE_VIEW (window->profile_view)->model == NULL)
    g_main_context_iteration (NULL, TRUE);
}

/* The sample's task runner, as if a build had named it "a.b.c": a mapping
 * gives it back everywhere, Show Obfuscated Names undoes it, and the file
 * opened again gets it again. */
static void
test_window_deobfuscate (void)
{
  g_autofree char *sample = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "android-app-startup.trace", NULL);
  const char mapping_text[] =
    "# {\"id\":\"com.android.tools.r8.mapping\",\"version\":\"2.2\"}\n"
    "com.example.TaskRunner -> com.yy.base.taskexecutor.YYTaskExecutor$1:\n"
    "    1:10:void runTask():20:29 -> run\n"
    "a line the mapping cannot have\n";
  g_autofree char *mapping_path = strata_test_write_file ("mapping.txt", mapping_text, sizeof mapping_text - 1);
  g_autoptr(GFile) file = g_file_new_for_path (sample);
  g_autoptr(GFile) mapping = g_file_new_for_path (mapping_path);
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window;
  StrataTrace *trace;
  guint32 method;
  GList *windows;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = only_window (app);
  strata_test_wait_for_window (window);
  wait_for_profile (window);
  trace = strata_session_get_trace (window->session);
  method = method_named (trace, "com.yy.base.taskexecutor.YYTaskExecutor$1.run ()V");
  g_assert_cmpuint (method, !=, G_MAXUINT32);
  /* Nothing to undo yet. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-obfuscated-names", NULL);
  g_assert_false (strata_trace_is_renamed (trace));

  strata_window_deobfuscate (window, mapping);
  strata_test_iterate_until (mapping_settled, window);
  g_assert_cmpstr (strata_trace_get_method_name (trace, method), ==, "com.example.TaskRunner.runTask ()V");
  wait_for_profile (window);
  {
    g_autofree char *shown = profile_row_name (window, method);

    g_assert_cmpstr (shown, ==, "com.example.TaskRunner.runTask ()V");
  }
  assert_label_contains (window->subtitle_label, "deobfuscated with mapping.txt");
  g_assert_true (gtk_widget_get_visible (window->compare_bar));
  assert_label_contains (GTK_LABEL (window->compare_label), "1 line of the mapping could not be read");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-obfuscated-names", NULL));
  g_assert_cmpstr (strata_trace_get_method_name (trace, method), ==, "com.yy.base.taskexecutor.YYTaskExecutor$1.run ()V");
  g_assert_null (strstr (gtk_label_get_label (window->subtitle_label), "deobfuscated"));

  /* Remembered for the file: compared with, it takes the same names. */
  strata_window_deobfuscate (window, mapping);
  strata_test_iterate_until (mapping_settled, window);
  strata_window_compare_with (window, file);
  strata_test_iterate_until (compared, window->session);
  {
    StrataComparison *comparison = strata_session_get_comparison (window->session);

    for (guint r = 0; r < strata_comparison_get_n_rows (comparison); r++)
      g_assert_cmpint (strata_comparison_row_status (strata_comparison_get_row (comparison, r)), ==, STRATA_ROW_IN_BOTH);
    g_assert_cmpuint (strata_comparison_find_row (comparison, STRATA_SIDE_CURRENT, method), !=, STRATA_COMPARISON_ABSENT);
  }

  /* And opened again, in a window of its own. */
  g_application_open (G_APPLICATION (app), &file, 1, "");
  windows = gtk_application_get_windows (GTK_APPLICATION (app));
  g_assert_cmpuint (g_list_length (windows), ==, 2);
  for (GList *l = windows; l != NULL; l = l->next)
    if (l->data != window)
      {
        StrataWindow *again = l->data;
        StrataTrace *reopened;

        strata_test_wait_for_window (again);
        strata_test_iterate_until (mapping_settled, again);
        reopened = strata_session_get_trace (again->session);
        g_assert_true (reopened != trace);
        g_assert_cmpstr (strata_trace_get_method_name (reopened, method), ==, "com.example.TaskRunner.runTask ()V");
        strata_window_remove_mapping (again);
      }
  finish_app (app);
}

static gboolean
count_frame_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       data)
{
  guint *frames = data;

  return ++*frames < 5 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static guchar *
download (const char *path,
          int        *width,
          int        *height)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = gdk_texture_new_from_filename (path, &error);
  guchar *pixels;

  g_assert_no_error (error);
  *width = gdk_texture_get_width (texture);
  *height = gdk_texture_get_height (texture);
  pixels = g_malloc ((gsize) *width * *height * 4);
  gdk_texture_download (texture, pixels, (gsize) *width * 4);
  return pixels;
}

/* Exported at the timeline's own size and range, the PNG is what the
 * widget draws on screen, pixel for pixel (GTK's own rendering of it,
 * without the window behind); SVG of the same is valid XML with the
 * names as text, ellipsized as on screen. */
static void
test_window_export_image (void)
{
  g_autofree char *sample = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "android-app-startup.trace", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (sample);
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *exported = g_build_filename (dir, "timeline.png", NULL);
  g_autofree char *screen = g_build_filename (dir, "screen.png", NULL);
  g_autofree char *svg_path = g_build_filename (dir, "timeline.svg", NULL);
  g_autoptr(GFile) exported_file = g_file_new_for_path (exported);
  g_autoptr(GFile) svg_file = g_file_new_for_path (svg_path);
  g_autoptr(GError) error = NULL;
  g_autofree guchar *image = NULL, *window_pixels = NULL;
  g_autofree char *svg = NULL;
  StrataApplication *app = strata_test_new_app ();
  StrataImageOptions options = { STRATA_IMAGE_PNG, 0, 0, FALSE, 0, NULL, TRUE };
  StrataWindow *window;
  int iw, ih, ww, wh, x0, y0, differing = 0;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = only_window (app);
  strata_test_wait_for_window (window);
  wait_for_profile (window);
  strata_window_select_method (window, "TypedArray.recycle");
  while (!gtk_widget_is_drawable (window->timeline) || gtk_widget_get_height (window->timeline) < 100)
    g_main_context_iteration (NULL, TRUE);
  /* A few frames drawn, so the window's picture is the settled one. */
  {
    guint frames = 0;

    gtk_widget_add_tick_callback (GTK_WIDGET (window), count_frame_cb, &frames, NULL);
    while (frames < 5)
      g_main_context_iteration (NULL, TRUE);
  }

  options.width = gtk_widget_get_width (window->timeline);
  g_assert_true (strata_timeline_export_image (STRATA_TIMELINE (window->timeline), &options, FALSE, exported_file, &error));
  g_assert_no_error (error);
  g_assert_true (strata_screenshot_save (window->timeline, screen, &error));
  g_assert_no_error (error);
  image = download (exported, &iw, &ih);
  window_pixels = download (screen, &ww, &wh);
  g_assert_cmpint (iw, ==, ww);
  g_assert_cmpint (ih, ==, wh);
  x0 = y0 = 0;
  for (int y = 0; y < ih; y++)
    differing += memcmp (image + (gsize) y * iw * 4, window_pixels + ((gsize) (y0 + y) * ww + x0) * 4, (gsize) iw * 4) != 0;
  if (differing > 0)
    g_test_message ("%d of %d rows differ: %s against %s at %d,%d", differing, ih, exported, screen, x0, y0);
  g_assert_cmpint (differing, ==, 0);

  options.format = STRATA_IMAGE_SVG;
  options.transparent = FALSE;
  g_assert_true (strata_timeline_export_image (STRATA_TIMELINE (window->timeline), &options, TRUE, svg_file, &error));
  g_assert_true (g_file_get_contents (svg_path, &svg, NULL, NULL));
  g_assert_true (g_str_has_prefix (svg, "<?xml"));
  g_assert_nonnull (strstr (svg, ">main</text>"));
  /* Names too long for their span are ellipsized as on screen, with the
   * whole name as the text's title. */
  g_assert_nonnull (strstr (svg, "\u2026</text>"));
  g_assert_nonnull (strstr (svg, "<title>"));
  g_assert_nonnull (strstr (svg, "</svg>"));
  finish_app (app);
}

/* Two dumps of one process, 30 arrays apart: 10 new instances of each
 * array class, found by id. */
static void
test_window_compare_heaps (void)
{
  g_autoptr(GBytes) small = hprof_writer_many_arrays (300);
  g_autoptr(GBytes) large = hprof_writer_many_arrays (330);
  g_autofree char *small_path = strata_test_write_file ("before.hprof", g_bytes_get_data (small, NULL), g_bytes_get_size (small));
  g_autofree char *large_path = strata_test_write_file ("after.hprof", g_bytes_get_data (large, NULL), g_bytes_get_size (large));
  g_autoptr(GFile) before = g_file_new_for_path (small_path);
  g_autoptr(GFile) after = g_file_new_for_path (large_path);
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window;
  StrataComparisonList *list;
  StrataComparison *comparison;
  GtkWidget *instances;
  guint byte_row = G_MAXUINT;

  g_application_open (G_APPLICATION (app), &after, 1, "");
  window = only_window (app);
  strata_test_wait_for_window (window);
  strata_window_compare_with (window, before);
  strata_test_iterate_until (compared, strata_window_get_session (window));
  list = strata_compare_view_get_list (STRATA_COMPARE_VIEW (window->compare_view));
  comparison = strata_comparison_list_get_comparison (list);
  g_assert_cmpint (strata_comparison_get_kind (comparison), ==, STRATA_COMPARISON_HEAP);
  for (guint r = 0; r < strata_comparison_get_n_rows (comparison); r++)
    if (g_str_equal (strata_comparison_get_row (comparison, r)->name, "byte[]"))
      byte_row = r;
  g_assert_cmpuint (byte_row, !=, G_MAXUINT);
  {
    g_autofree char *delta = strata_comparison_list_format (list, byte_row, STRATA_FIGURE_INSTANCES, STRATA_MEASURE_DELTA);

    g_assert_cmpstr (delta, ==, "+10");
  }

  g_signal_emit_by_name (window->compare_view, "show-new-instances", byte_row);
  g_assert_cmpint (gtk_notebook_get_current_page (GTK_NOTEBOOK (window->details)), ==,
                   gtk_notebook_page_num (GTK_NOTEBOOK (window->details), window->heap_view));
  instances = find_widget (window->heap_view, STRATA_TYPE_DOMINATORS_VIEW, "instances-view");
  g_assert_nonnull (instances);
  g_assert_cmpuint (g_list_model_get_n_items (strata_dominators_view_get_model (STRATA_DOMINATORS_VIEW (instances))), ==, 10);
  finish_app (app);
}

static void
test_window_needs_display (void)
{
  g_test_skip ("no display; run under xvfb-run");
}

int
main (int   argc,
      char *argv[])
{
  gboolean have_display;

  g_test_init (&argc, &argv, NULL);
  have_display = strata_test_init_gtk ();

  if (!have_display)
    {
      g_test_add_func ("/window/needs-display", test_window_needs_display);
      return g_test_run ();
    }

  g_test_add_func ("/window/activate-shows-welcome", test_window_activate_shows_welcome);
  g_test_add_func ("/window/open-missing-file", test_window_open_missing_file);
  g_test_add_func ("/window/open-unreadable-content", test_window_open_unreadable_content);
  g_test_add_func ("/window/drop", test_window_drop);
  g_test_add_func ("/window/cancel", test_window_cancel);
  g_test_add_func ("/window/open-keeps-trace", test_window_open_keeps_trace);
  g_test_add_func ("/window/panes-and-keys", test_window_panes_and_keys);
  g_test_add_func ("/window/drag-does-not-select", test_window_drag_does_not_select);
  g_test_add_func ("/window/call-tree-hot-path-key", test_window_call_tree_hot_path_key);
  g_test_add_func ("/window/call-tree-follows-selection", test_window_call_tree_follows_selection);
  g_test_add_func ("/window/call-tree-keeps-zoom", test_window_call_tree_keeps_zoom);
  g_test_add_func ("/window/flame-graph-keys", test_window_flame_graph_keys);
  g_test_add_func ("/window/call-tree-right-click", test_window_call_tree_right_click);
  g_test_add_func ("/window/call-tree-columns", test_window_call_tree_columns);
  g_test_add_func ("/window/find", test_window_find);
  g_test_add_func ("/window/calls", test_window_calls);
  g_test_add_func ("/window/open-sample", test_window_open_sample);
  g_test_add_func ("/window/heap-dump", test_window_heap_dump);
  g_test_add_func ("/window/call-tree", test_window_call_tree);
  g_test_add_func ("/window/follow-weak", test_window_follow_weak);
  g_test_add_func ("/window/long-list-sort", test_window_long_list_sort);
  g_test_add_func ("/window/allocation-sites", test_window_allocation_sites);
  g_test_add_func ("/window/remembers-size", test_window_remembers_size);
  g_test_add_func ("/window/shortcuts-and-about", test_window_shortcuts_and_about);
  g_test_add_func ("/window/shortcuts-complete", test_window_shortcuts_complete);
  g_test_add_func ("/window/time-left", test_window_time_left);
  g_test_add_func ("/window/compare", test_window_compare);
  g_test_add_func ("/window/compare-heaps", test_window_compare_heaps);
  g_test_add_func ("/window/ctrl-drop-compares", test_window_ctrl_drop_compares);
  g_test_add_func ("/window/deobfuscate", test_window_deobfuscate);
  g_test_add_func ("/window/export-image", test_window_export_image);
  g_test_add_func ("/window/open-file-adds-recent", test_window_open_file_adds_recent);

  return g_test_run ();
}
