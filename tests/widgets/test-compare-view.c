/* test-compare-view.c: comparing two runs in the window: methods, heaps, Ctrl+drop
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
  /* The largest change of inclusive time first, by default and by the
   * header, growth and shrinking alike (as `strata -r --diff` lists
   * them): work grew by 50 µs, load shrank by less; the other way, the
   * smallest change first. */
  strata_compare_view_sort_by (view, STRATA_FIGURE_INCLUSIVE, STRATA_MEASURE_DELTA, TRUE);
  first = list_name (list, 0);
  g_assert_cmpstr (first, ==, "work");
  g_clear_pointer (&first, g_free);
  first = list_name (list, 1);
  g_assert_cmpstr (first, ==, "load");
  strata_compare_view_sort_by (view, STRATA_FIGURE_INCLUSIVE, STRATA_MEASURE_DELTA, FALSE);
  last = list_name (list, 0);
  g_assert_cmpstr (last, ==, "main");
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

/* A trace strata_test_compared with a run where "work" was 50 µs faster: the Compare
 * page, the differential flame graph, a refusal, and stopping. */
static void
test_window_compare (void)
{
  g_autofree char *before_path = strata_test_write_events ("before.json", 100, "load");
  g_autofree char *after_path = strata_test_write_events ("after.json", 150, "parse");
  g_autofree char *dump_path = g_test_build_filename (G_TEST_DIST, "data", "allocations.hprof.gz", NULL);
  g_autoptr(GFile) after = g_file_new_for_path (after_path);
  g_autoptr(GFile) before = g_file_new_for_path (before_path);
  g_autoptr(GFile) dump = g_file_new_for_path (dump_path);
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window;
  StrataSession *session;
  GtkWidget *flame;

  g_application_open (G_APPLICATION (app), &after, 1, "");
  window = strata_test_only_window (app);
  strata_test_wait_for_window (window);
  session = strata_window_get_session (window);
  g_assert_false (gtk_widget_get_visible (window->compare_view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.stop-comparing", NULL));
  g_assert_null (strata_session_get_comparison (session));

  strata_window_compare_with (window, before);
  g_assert_true (gtk_widget_get_visible (window->compare_bar));
  g_assert_true (gtk_widget_get_parent (window->compare_bar) == GTK_WIDGET (window->trace_box));
  strata_test_iterate_until (strata_test_compared, session);
  strata_test_iterate_until (compare_settled, window);
  g_assert_false (gtk_widget_get_visible (window->compare_bar));
  g_assert_true (gtk_widget_get_visible (window->compare_view));
  g_assert_cmpint (gtk_notebook_get_current_page (GTK_NOTEBOOK (window->details)), ==,
                   gtk_notebook_page_num (GTK_NOTEBOOK (window->details), window->compare_view));
  check_compare_list (window);

  /* The flame graph colours by the change; the tooltip's figures agree. */
  strata_window_show_call_tree (window, "flame");
  flame = strata_test_find_widget (window->call_tree_view, STRATA_TYPE_FLAME_GRAPH, NULL);
  strata_test_iterate_until (flame_differential, flame);

  /* A heap dump does not compare with a trace: the bar says so and the
   * comparison on show stays. */
  strata_window_compare_with (window, dump);
  strata_test_iterate_until (compare_settled, window);
  g_assert_true (gtk_widget_get_visible (window->compare_bar));
  strata_test_assert_label_contains (GTK_LABEL (window->compare_label), "heap dump");
  g_assert_nonnull (strata_session_get_comparison (session));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.stop-comparing", NULL));
  g_assert_null (strata_session_get_comparison (session));
  g_assert_false (gtk_widget_get_visible (window->compare_view));
  g_assert_false (strata_flame_graph_get_differential (STRATA_FLAME_GRAPH (flame)));
  strata_test_finish_app (app);
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
  strata_test_run_xdotool ((const char *[]) { xdotool, "search", "--sync", "--name", "strata-drag-source",
                                  "windowmove", "--sync", "%1", "1200", "600", NULL });
  return window;
}

/* A file dragged from another window and dropped with Ctrl held is
 * strata_test_compared with, not opened: a real X drag, moved by xdotool. */
static void
test_window_ctrl_drop_compares (void)
{
  g_autofree char *before_path = strata_test_write_events ("before.json", 100, "load");
  g_autofree char *after_path = strata_test_write_events ("after.json", 150, "parse");
  g_autoptr(GFile) after = g_file_new_for_path (after_path);
  g_autoptr(GFile) before = g_file_new_for_path (before_path);
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  StrataApplication *app;
  StrataWindow *window;
  GtkWidget *source;

  if (!strata_test_can_drive_pointer (xdotool))
    return;
  app = strata_test_new_app ();
  g_application_open (G_APPLICATION (app), &after, 1, "");
  window = strata_test_only_window (app);
  strata_test_wait_for_window (window);
  gtk_window_set_title (GTK_WINDOW (window), "strata-drop-test");
  source = drag_source_window (before, xdotool);
  strata_test_run_xdotool ((const char *[]) { xdotool, "search", "--sync", "--name", "strata-drop-test",
                                  "windowmove", "--sync", "%1", "0", "0", NULL });
  strata_test_run_xdotool ((const char *[]) { xdotool, "mousemove", "1300", "675", "sleep", "0.3", "mousedown", "1",
                                  "mousemove", "1250", "600", "sleep", "0.1", "mousemove", "1000", "500", "sleep", "0.1",
                                  "mousemove", "600", "300", "sleep", "0.1", "keydown", "ctrl",
                                  "mousemove", "500", "300", "sleep", "0.2", "mousemove", "480", "300", "sleep", "0.3",
                                  "mouseup", "1", "sleep", "0.2", "keyup", "ctrl", NULL });
  strata_test_iterate_until (strata_test_compared, strata_window_get_session (window));
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, 1);
  gtk_window_destroy (GTK_WINDOW (source));
  strata_test_finish_app (app);
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
  window = strata_test_only_window (app);
  strata_test_wait_for_window (window);
  strata_window_compare_with (window, before);
  strata_test_iterate_until (strata_test_compared, strata_window_get_session (window));
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
  instances = strata_test_find_widget (window->heap_view, STRATA_TYPE_DOMINATORS_VIEW, "instances-view");
  g_assert_nonnull (instances);
  g_assert_cmpuint (g_list_model_get_n_items (strata_dominators_view_get_model (STRATA_DOMINATORS_VIEW (instances))), ==, 10);
  strata_test_finish_app (app);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (!strata_test_init_gtk ())
    {
      g_test_add_func ("/compare-view/needs-display", strata_test_skip_no_display);
      return g_test_run ();
    }

  g_test_add_func ("/compare-view/methods", test_window_compare);
  g_test_add_func ("/compare-view/heaps", test_window_compare_heaps);
  g_test_add_func ("/compare-view/ctrl-drop", test_window_ctrl_drop_compares);

  return g_test_run ();
}
