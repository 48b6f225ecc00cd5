/* test-heap-view.c: heap dumps in the window: classes, dominators, objects, allocation sites
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
#include "strata-object-inspector.h"
#include "strata-duplicates-view.h"
#include "strata-heap-object-list.h"
#include "strata-heap-object-row.h"
#include "strata-heap-view-private.h"
#include "hprof-android.h"
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

static guint
find_row (GListModel *model,
          const char *name)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(StrataHeapRow) row = g_list_model_get_item (model, i);

      if (g_str_equal (strata_heap_row_get_name (row), name))
        return i;
    }
  return G_MAXUINT;
}

/* By package, then a package's row activated: only its classes, until
 * the chip naming it is clicked. */
static void
check_group_by_package (StrataHeapView *view)
{
  GListModel *model = strata_heap_view_get_model (view);
  GtkWidget *group_by = strata_test_find_widget (GTK_WIDGET (view), GTK_TYPE_DROP_DOWN, "group-by");
  GtkWidget *chip = strata_test_find_widget (GTK_WIDGET (view), GTK_TYPE_BUTTON, "group-chip");
  GtkWidget *columns = strata_test_find_widget (GTK_WIDGET (view), GTK_TYPE_COLUMN_VIEW, NULL);
  guint all = g_list_model_get_n_items (model), util;

  g_assert_nonnull (group_by);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (group_by), 1);
  g_assert_cmpuint (g_list_model_get_n_items (model), <, all);
  util = find_row (model, "java.util");
  g_assert_cmpuint (util, !=, G_MAXUINT);
  g_assert_cmpuint (find_row (model, "java.util.HashMap"), ==, G_MAXUINT);
  g_signal_emit_by_name (columns, "activate", util);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (group_by)), ==, 0);
  g_assert_true (gtk_widget_get_visible (chip));
  g_assert_cmpuint (find_row (model, "java.util.HashMap"), !=, G_MAXUINT);
  g_assert_cmpuint (find_row (model, "java.lang.String"), ==, G_MAXUINT);
  g_signal_emit_by_name (chip, "clicked");
  g_assert_false (gtk_widget_get_visible (chip));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, all);
  /* By class loader: the program's classes are the "app" loader's. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (group_by), 2);
  g_assert_cmpuint (g_list_model_get_n_items (model), >=, 2);
  g_assert_cmpuint (find_row (model, "(bootstrap class loader)"), !=, G_MAXUINT);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (group_by), 0);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, all);
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
  window = strata_test_only_window (app);
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
  check_group_by_package (view);
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

  strata_test_finish_app (app);
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
  window = strata_test_only_window (app);
  strata_test_wait_for_window (window);
  strong = class_retained (window, "java.lang.Class");
  page = strata_heap_view_get_page (STRATA_HEAP_VIEW (window->heap_view), "suspects");
  gtk_stack_set_visible_child (GTK_STACK (gtk_widget_get_parent (page)), page);
  check = strata_test_find_widget (window->heap_view, G_TYPE_NONE, "follow-weak");
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
  check = strata_test_find_widget (window->heap_view, G_TYPE_NONE, "follow-weak");
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));

  gtk_widget_activate (check);
  strata_test_wait_for_window (window);
  g_assert_false (strata_heap_get_weak_followed (strata_trace_get_heap (strata_session_get_trace (window->session))));
  g_assert_cmpuint (class_retained (window, "java.lang.Class"), ==, strong);

  strata_test_finish_app (app);
}

/* The Leak Suspects page names main's list of Smalls in a sentence, and
 * its button opens the list's array, where the memory accumulates, in
 * the inspector. */
static void
test_window_leak_suspects (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "allocations.hprof.gz", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window;
  GtkWidget *page, *text, *button, *dominators;
  g_autofree char *shown = NULL;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = strata_test_only_window (app);
  strata_test_wait_for_window (window);
  page = strata_heap_view_get_page (STRATA_HEAP_VIEW (window->heap_view), "suspects");
  gtk_stack_set_visible_child (GTK_STACK (gtk_widget_get_parent (page)), page);
  text = strata_test_find_widget (page, GTK_TYPE_LABEL, "suspect-text");
  g_assert_nonnull (text);
  strata_test_assert_label_contains (GTK_LABEL (text), "1. One java.util.ArrayList held by a GC root (Java frame)");
  strata_test_assert_label_contains (GTK_LABEL (text), "with 12345 Allocations$Small entries");
  button = strata_test_find_widget (page, GTK_TYPE_BUTTON, "accumulation-point");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  dominators = strata_heap_view_get_page (STRATA_HEAP_VIEW (window->heap_view), "dominators");
  g_assert_true (gtk_stack_get_visible_child (GTK_STACK (gtk_widget_get_parent (dominators))) == dominators);
  shown = strata_object_inspector_dup_text (strata_dominators_view_get_inspector (STRATA_DOMINATORS_VIEW (dominators)));
  g_assert_true (g_str_has_prefix (shown, "java.lang.Object[]"));

  strata_test_finish_app (app);
}

static guint
count_named (GtkWidget  *widget,
             const char *name)
{
  guint n = g_strcmp0 (gtk_widget_get_name (widget), name) == 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    n += count_named (child, name);
  return n;
}

static gboolean
has_instances_page (gpointer view)
{
  return strata_heap_view_get_page (view, "instances") != NULL;
}

static gboolean
sum_shown (gpointer label)
{
  return strstr (gtk_label_get_text (label), "together (") != NULL;
}

/* The two red bitmaps' pixel arrays are copies: their Holders button
 * lists the two bitmaps. */
static void
check_pixel_holders (StrataWindow *window)
{
  StrataHeapView *view = STRATA_HEAP_VIEW (window->heap_view);
  StrataDuplicatesView *duplicates = STRATA_DUPLICATES_VIEW (strata_heap_view_get_page (view, "duplicates"));
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  GtkWidget *holders, *list, *together, *columns;
  GListModel *model;

  while (!strata_duplicates_view_is_ready (duplicates) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  holders = strata_test_find_widget (GTK_WIDGET (duplicates), GTK_TYPE_BUTTON, "holders");
  g_assert_nonnull (holders);
  g_signal_emit_by_name (holders, "clicked");
  strata_test_iterate_until (has_instances_page, view);
  list = strata_test_find_widget (strata_heap_view_get_page (view, "instances"), G_TYPE_NONE, "instances-view");
  model = strata_dominators_view_get_model (STRATA_DOMINATORS_VIEW (list));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  /* Both selected: the two bitmaps and their pixels, together. */
  together = strata_test_find_widget (list, GTK_TYPE_LABEL, "retained-together");
  columns = strata_test_find_widget (list, GTK_TYPE_COLUMN_VIEW, NULL);
  gtk_selection_model_select_range (gtk_column_view_get_model (GTK_COLUMN_VIEW (columns)), 0, 2, TRUE);
  strata_test_iterate_until (sum_shown, together);
  strata_test_assert_label_contains (GTK_LABEL (together), "2 objects selected retain");
  strata_test_assert_label_contains (GTK_LABEL (together), "(4 objects)");
}

/* The inspector's width, dragged on one page, is every page's, and the
 * window's (its GSettings key binds to the heap view). */
static void
check_inspector_width (StrataWindow *window)
{
  StrataHeapView *view = STRATA_HEAP_VIEW (window->heap_view);
  GtkWidget *dominators = strata_heap_view_get_page (view, "dominators"), *instances;
  int width = 0;

  strata_dominators_view_set_inspector_width (STRATA_DOMINATORS_VIEW (dominators), 517);
  g_object_get (view, "inspector-width", &width, NULL);
  g_assert_cmpint (width, ==, 517);
  strata_heap_view_show_instances (view, 0);
  instances = strata_test_find_widget (strata_heap_view_get_page (view, "instances"), G_TYPE_NONE, "instances-view");
  g_assert_cmpint (strata_dominators_view_get_inspector_width (STRATA_DOMINATORS_VIEW (instances)), ==, 517);
}

/* An Android dump: its leaks open the Leak Suspects page as cards whose
 * objects open in the inspector; its bitmaps have a page of pictures. */
static void
test_window_android_leaks (void)
{
  g_autoptr(GBytes) bytes = hprof_android_leaks_dump ();
  g_autofree char *dir = g_dir_make_tmp ("strata-android-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "leaks.hprof", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrataApplication *app = strata_test_new_app ();
  StrataWindow *window;
  GtkWidget *page, *card, *link, *dominators;
  g_autofree char *shown = NULL;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = strata_test_only_window (app);
  strata_test_wait_for_window (window);
  page = strata_heap_view_get_page (STRATA_HEAP_VIEW (window->heap_view), "suspects");
  g_assert_cmpuint (count_named (page, "android-leak"), ==, 3);
  card = strata_test_find_widget (page, GTK_TYPE_BOX, "android-leak");
  g_assert_nonnull (card);
  /* The heading, the root, then the class's row: its link is a button. */
  link = gtk_widget_get_first_child (gtk_widget_get_next_sibling (gtk_widget_get_next_sibling (gtk_widget_get_first_child (card))));
  g_assert_true (GTK_IS_BUTTON (link));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (link)), ==, "class com.example.Registry");
  g_signal_emit_by_name (link, "clicked");
  dominators = strata_heap_view_get_page (STRATA_HEAP_VIEW (window->heap_view), "dominators");
  g_assert_true (gtk_stack_get_visible_child (GTK_STACK (gtk_widget_get_parent (dominators))) == dominators);
  shown = strata_object_inspector_dup_text (strata_dominators_view_get_inspector (STRATA_DOMINATORS_VIEW (dominators)));
  g_assert_nonnull (strstr (shown, "com.example.Registry"));
  page = strata_heap_view_get_page (STRATA_HEAP_VIEW (window->heap_view), "bitmaps");
  g_assert_nonnull (page);
  g_assert_cmpuint (count_named (page, "bitmap"), ==, 3);
  check_pixel_holders (window);
  check_inspector_width (window);

  strata_test_finish_app (app);
  g_unlink (path);
  g_rmdir (dir);
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
  window = strata_test_only_window (app);
  strata_test_wait_for_window (window);
  dominators = STRATA_DOMINATORS_VIEW (strata_heap_view_get_page (STRATA_HEAP_VIEW (window->heap_view), "dominators"));
  tree = strata_dominators_view_get_model (dominators);
  /* A page of rows, then one that shows the next page when activated. */
  g_assert_cmpuint (g_list_model_get_n_items (tree), ==, 10001);
  g_signal_emit_by_name (strata_test_find_widget (GTK_WIDGET (dominators), GTK_TYPE_COLUMN_VIEW, NULL), "activate", 10000);
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

  strata_test_finish_app (app);
  g_unlink (path);
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
  window = strata_test_only_window (app);
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

  strata_test_finish_app (app);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (!strata_test_init_gtk ())
    {
      g_test_add_func ("/heap-view/needs-display", strata_test_skip_no_display);
      return g_test_run ();
    }

  g_test_add_func ("/heap-view/heap-dump", test_window_heap_dump);
  g_test_add_func ("/heap-view/follow-weak", test_window_follow_weak);
  g_test_add_func ("/heap-view/leak-suspects", test_window_leak_suspects);
  g_test_add_func ("/heap-view/android-leaks", test_window_android_leaks);
  g_test_add_func ("/heap-view/long-list-sort", test_window_long_list_sort);
  g_test_add_func ("/heap-view/allocation-sites", test_window_allocation_sites);

  return g_test_run ();
}
