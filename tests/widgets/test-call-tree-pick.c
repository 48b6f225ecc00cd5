/* test-call-tree-pick.c: the call tree page chooses what it shows by
 * itself: its thread, a range dragged in the timeline, the rows the
 * arrow keys walk to
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-call-tree-history.h"
#include "strata-call-tree-view-private.h"
#include "strata-test-gtk.h"
#include "strata-threads-button.h"
#include "strata-timeline-private.h"
#include "strata-window-private.h"

/* Right and Left walk the tree as in every GTK tree: open, into the
 * first child, back to the parent, closed. Typed by xdotool. */
static void
test_window_call_tree_arrow_keys (void)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  StrataApplication *app;
  StrataWindow *window;
  GListModel *model;
  GtkWidget *expander;
  g_autoptr(GtkTreeListRow) first = NULL;

  if (!strata_test_can_drive_pointer (xdotool))
    return;
  app = strata_test_new_app ();
  window = strata_test_open_call_tree_sample (app);
  gtk_window_set_title (GTK_WINDOW (window), "strata-arrow-keys-test");
  while ((expander = strata_test_find_mapped (GTK_WIDGET (window->call_tree_view), GTK_TYPE_TREE_EXPANDER)) == NULL ||
         gtk_widget_get_width (expander) < 100)
    g_main_context_iteration (NULL, TRUE);
  model = strata_call_tree_view_get_model (STRATA_CALL_TREE_VIEW (window->call_tree_view));
  strata_test_click_widget (xdotool, window, expander, 80, gtk_widget_get_height (expander) / 2.0, "1");
  first = g_list_model_get_item (model, 0);
  g_assert_false (gtk_tree_list_row_get_expanded (first));
  strata_test_run_xdotool ((const char *[]) { xdotool, "key", "Right", NULL });
  g_assert_true (gtk_tree_list_row_get_expanded (first));
  strata_test_run_xdotool ((const char *[]) { xdotool, "key", "Right", NULL });
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model)), ==, 1);
  strata_test_run_xdotool ((const char *[]) { xdotool, "key", "Left", NULL });
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model)), ==, 0);
  strata_test_run_xdotool ((const char *[]) { xdotool, "key", "Left", NULL });
  g_assert_false (gtk_tree_list_row_get_expanded (first));
  strata_test_finish_app (app);
}

static gboolean
range_shown (gpointer session)
{
  return strata_session_get_range_only (session);
}

/* A Shift+drag across the timeline makes a range, and the call tree
 * shows it at once: no trip to the Profile tab's Selected Range. */
static void
test_window_call_tree_follows_range (void)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  StrataApplication *app;
  StrataWindow *window;
  StrataCallTreeHistory *history;
  gint64 whole, ranged;
  double surface_x, surface_y, x, y;
  g_autofree char *x1 = NULL, *x2 = NULL, *at_y = NULL;

  if (!strata_test_can_drive_pointer (xdotool))
    return;
  app = strata_test_new_app ();
  window = strata_test_open_call_tree_sample (app);
  gtk_window_set_title (GTK_WINDOW (window), "strata-range-test");
  history = strata_session_get_call_tree_history (window->session);
  whole = strata_call_tree_get_total (strata_call_tree_history_get_tree (history), STRATA_CALL_TREE_ROOT, 0);
  g_assert_false (strata_session_get_range_only (window->session));
  g_assert_true (gtk_widget_translate_coordinates (window->timeline, GTK_WIDGET (window), 0, 0, &x, &y));
  gtk_native_get_surface_transform (GTK_NATIVE (window), &surface_x, &surface_y);
  x1 = g_strdup_printf ("%d", (int) (x + surface_x + STRATA_TIMELINE_LABEL_WIDTH + 100));
  x2 = g_strdup_printf ("%d", (int) (x + surface_x + STRATA_TIMELINE_LABEL_WIDTH + 300));
  at_y = g_strdup_printf ("%d", (int) (y + surface_y + STRATA_TIMELINE_HEADER_TOTAL + 40));
  strata_test_run_xdotool ((const char *[]) { xdotool, "search", "--sync", "--name", "strata-range-test", "windowfocus", "--sync", "%1",
                                              "mousemove", x1, at_y, "sleep", "0.3", "keydown", "shift", "sleep", "0.2",
                                              "mousedown", "1", "sleep", "0.2", "mousemove", x2, at_y, "sleep", "0.2",
                                              "mousemove", x2, at_y, "sleep", "0.2", "mouseup", "1", "sleep", "0.2",
                                              "keyup", "shift", NULL });
  strata_test_iterate_until (range_shown, window->session);
  ranged = strata_call_tree_get_total (strata_call_tree_history_get_tree (history), STRATA_CALL_TREE_ROOT, 0);
  g_assert_cmpint (ranged, >, 0);
  g_assert_cmpint (ranged, <, whole);
  strata_test_finish_app (app);
}

static gboolean
tree_merged (gpointer data)
{
  StrataWindow *window = data;
  StrataCallTreeHistory *history = strata_session_get_call_tree_history (window->session);

  return strata_call_tree_history_get_tree (history) != NULL && strata_call_tree_view_is_ready (STRATA_CALL_TREE_VIEW (window->call_tree_view));
}

/* The first two threads with calls. */
static void
two_threads (StrataTrace *trace,
             guint       *threads)
{
  guint n = 0;

  for (guint t = 0; t < strata_trace_get_n_threads (trace) && n < 2; t++)
    if (strata_trace_get_thread (trace, t)->spans != NULL)
      threads[n++] = t;
  g_assert_cmpuint (n, ==, 2);
}

/* The call tree picks its threads itself: one is the session's profile
 * thread (and one picked elsewhere shows in it), several are merged in
 * the tree alone, as much time as each alone. */
static void
test_window_call_tree_thread_picker (void)
{
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window = strata_test_open_call_tree_sample (app);
  StrataThreadsButton *picker = STRATA_THREADS_BUTTON (strata_test_find_widget (window->call_tree_view,
                                                                                 STRATA_TYPE_THREADS_BUTTON,
                                                                                 "threads-button"));
  StrataCallTreeHistory *history = strata_session_get_call_tree_history (window->session);
  StrataTrace *trace = strata_session_get_trace (window->session);
  gint64 whole, one[2], both;
  guint threads[2];

  g_assert_nonnull (picker);
  g_assert_cmpstr (strata_threads_button_get_label (picker), ==, "All Threads");
  whole = strata_call_tree_get_total (strata_call_tree_history_get_tree (history), STRATA_CALL_TREE_ROOT, 0);
  two_threads (trace, threads);
  for (guint i = 0; i < 2; i++)
    {
      strata_session_set_profile_thread (window->session, (int) threads[i]);
      strata_test_iterate_until (tree_merged, window);
      one[i] = strata_call_tree_get_total (strata_call_tree_history_get_tree (history), STRATA_CALL_TREE_ROOT, 0);
      g_assert_cmpint (one[i], <, whole);
    }
  g_assert_cmpstr (strata_threads_button_get_label (picker), !=, "All Threads");

  /* The first checked too: two threads, the profile back to all. */
  strata_threads_button_set_checked (picker, threads[0], TRUE);
  g_assert_cmpint (strata_session_get_profile_thread (window->session), ==, -1);
  g_assert_cmpuint (strata_session_get_call_tree_threads (window->session)->len, ==, 2);
  g_assert_cmpstr (strata_threads_button_get_label (picker), ==, "2 Threads");
  strata_test_iterate_until (tree_merged, window);
  both = strata_call_tree_get_total (strata_call_tree_history_get_tree (history), STRATA_CALL_TREE_ROOT, 0);
  g_assert_cmpint (both, ==, one[0] + one[1]);

  /* One unchecked: the other is the profile's thread again. */
  strata_threads_button_set_checked (picker, threads[1], FALSE);
  g_assert_null (strata_session_get_call_tree_threads (window->session));
  g_assert_cmpint (strata_session_get_profile_thread (window->session), ==, (int) threads[0]);
  strata_session_set_profile_thread (window->session, -1);
  g_assert_cmpstr (strata_threads_button_get_label (picker), ==, "All Threads");
  strata_test_finish_app (app);
}


int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (!strata_test_init_gtk ())
    {
      g_test_add_func ("/call-tree-pick/needs-display", strata_test_skip_no_display);
      return g_test_run ();
    }
  g_test_add_func ("/call-tree-pick/arrow-keys", test_window_call_tree_arrow_keys);
  g_test_add_func ("/call-tree-pick/follows-range", test_window_call_tree_follows_range);
  g_test_add_func ("/call-tree-pick/thread-picker", test_window_call_tree_thread_picker);
  return g_test_run ();
}
