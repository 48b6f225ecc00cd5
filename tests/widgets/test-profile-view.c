/* test-profile-view.c: the profile panel in a real window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <json-glib/json-glib.h>

#include "strata-application.h"
#include "strata-cell-text.h"
#include "strata-profile-model.h"
#include "strata-profile-row.h"
#include "strata-profile-view-private.h"
#include "strata-test-gtk.h"
#include "strata-test-util.h"
#include "strata-window-private.h"

#define TRACE_NAME "studio-perflib-char_2_bytes.trace"

typedef struct
{
  StrataApplication *app;
  StrataWindow      *window;
  StrataProfileView *view;
  StrataSession     *session;
  char              *path;
} Fixture;

static gboolean
loaded (gpointer data)
{
  Fixture *f = data;

  return !strata_window_get_busy (f->window) &&
         strata_session_get_profile (f->session) != NULL &&
         g_list_model_get_n_items (strata_profile_view_get_rows (f->view)) > 0;
}

static gboolean
sorted (gpointer data)
{
  GListModel *rows = data;

  /* The sort model sorts in steps; wait for it to settle. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  return g_list_model_get_n_items (rows) > 0;
}

static void
fixture_open_path (Fixture *f,
                   char    *path)
{
  g_autoptr(GFile) file = NULL;

  f->path = path;
  file = g_file_new_for_path (f->path);
  f->app = strata_test_new_app ();
  g_application_open (G_APPLICATION (f->app), &file, 1, "");
  f->window = STRATA_WINDOW (gtk_application_get_windows (GTK_APPLICATION (f->app))->data);
  f->session = strata_window_get_session (f->window);
  f->view = STRATA_PROFILE_VIEW (f->window->profile_view);
  strata_test_iterate_until (loaded, f);
  strata_test_iterate_until (sorted, strata_profile_view_get_rows (f->view));
}

static void
fixture_open (Fixture *f)
{
  fixture_open_path (f, strata_test_fixture_path ("dmtrace", TRACE_NAME, NULL));
}

static void
fixture_close (Fixture *f)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_application_quit (G_APPLICATION (f->app));
  g_object_unref (f->app);
  g_free (f->path);
}

static StrataProfileRow *
row_at (Fixture *f,
        guint    position)
{
  g_autoptr(StrataProfileRow) row = g_list_model_get_item (strata_profile_view_get_rows (f->view), position);

  /* The tree holds every row it shows. */
  g_assert_nonnull (row);
  return row;
}

/* The first rows are those `strata -r --clock=wall` puts first. */
static void
test_profile_view_matches_report (void)
{
  const char *strata = g_getenv ("STRATA_BIN");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GPtrArray) expected = g_ptr_array_new ();
  JsonArray *methods;
  Fixture f;
  int status;

  if (strata == NULL)
    {
      g_test_skip ("STRATA_BIN is not set");
      return;
    }
  fixture_open (&f);
  {
    const char *argv[] = { strata, "-r", "--format=json", "--clock=wall", f.path, NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error);
    g_assert_no_error (error);
  }
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  methods = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "methods");

  for (guint i = 0; i < 5; i++)
    {
      StrataProfileRow *row = row_at (&f, i);
      JsonObject *method = json_array_get_object_element (methods, strata_profile_row_get_method (row));
      JsonObject *wall = json_object_get_object_member (json_object_get_object_member (method, "clocks"), "wall");

      g_assert_cmpint (strata_profile_row_get_kind (row), ==, STRATA_PROFILE_ROW_METHOD);
      g_assert_cmpstr (strata_profile_row_get_name (row), ==, json_object_get_string_member (method, "name"));
      g_assert_cmpint (strata_profile_row_get_inclusive (row, 0), ==, json_object_get_int_member (wall, "inclusive"));
      g_assert_cmpint (strata_profile_row_get_exclusive (row, 0), ==, json_object_get_int_member (wall, "exclusive"));
      if (i > 0)
        g_assert_cmpint (strata_profile_row_get_inclusive (row, 0), <=, strata_profile_row_get_inclusive (row_at (&f, i - 1), 0));
    }

  fixture_close (&f);
}

static void
test_profile_view_parents_and_children (void)
{
  Fixture f;
  StrataProfileRow *top;
  StrataProfile *profile;
  guint n_parents, n_children, position = 1;
  guint32 method;
  g_autofree char *line = NULL;

  fixture_open (&f);
  profile = strata_session_get_profile (f.session);
  top = row_at (&f, 1);
  method = strata_profile_row_get_method (top);
  strata_profile_get_parents (profile, method, &n_parents);
  strata_profile_get_children (profile, method, &n_children);
  g_assert_cmpuint (n_parents + n_children, >, 0);

  g_assert_true (strata_profile_view_expand_method (f.view, method));
  strata_test_iterate_until (sorted, strata_profile_view_get_rows (f.view));

  for (guint i = 0; i < n_parents; i++)
    g_assert_cmpint (strata_profile_row_get_kind (row_at (&f, ++position)), ==, STRATA_PROFILE_ROW_PARENT);
  for (guint i = 0; i < n_children; i++)
    {
      StrataProfileRow *child = row_at (&f, ++position);

      g_assert_cmpint (strata_profile_row_get_kind (child), ==, STRATA_PROFILE_ROW_CHILD);
      g_assert_cmpuint (strata_profile_row_get_calls (child), <=, strata_profile_row_get_total_calls (child));
    }
  g_assert_cmpint (strata_profile_row_get_kind (row_at (&f, position + 1)), ==, STRATA_PROFILE_ROW_METHOD);

  /* A child row reads "time, N/total" in the calls column. */
  if (n_children > 0)
    {
      StrataProfileRow *child = row_at (&f, position);
      g_autofree char *calls = g_strdup_printf ("%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
                                                strata_profile_row_get_calls (child),
                                                strata_profile_row_get_total_calls (child));

      line = strata_profile_view_format_row (f.view, child);
      g_assert_nonnull (strstr (line, calls));
    }

  fixture_close (&f);
}

static void
test_profile_view_sort_and_filter (void)
{
  GListModel *rows;
  Fixture f;
  guint n, n_matches = 0;

  fixture_open (&f);
  rows = strata_profile_view_get_rows (f.view);

  strata_profile_view_sort_by (f.view, "excl-0", GTK_SORT_DESCENDING);
  strata_test_iterate_until (sorted, rows);
  for (guint i = 1; i < 20; i++)
    g_assert_cmpint (strata_profile_row_get_exclusive (row_at (&f, i), 0), <=,
                     strata_profile_row_get_exclusive (row_at (&f, i - 1), 0));

  strata_profile_view_set_filter (f.view, "layoutinflater");
  strata_test_iterate_until (sorted, rows);
  n = g_list_model_get_n_items (rows);
  g_assert_cmpuint (n, >, 0);
  for (guint i = 0; i < n; i++)
    {
      StrataProfileRow *row = row_at (&f, i);

      g_assert_nonnull (strcasestr (strata_profile_row_get_name (row), "layoutinflater"));
      n_matches++;
    }
  g_assert_cmpuint (strata_profile_view_get_n_matches (f.view), ==, n_matches);

  /* Enter walks the matches, Shift+Enter back, wrapping at the ends;
   * the timeline's selection follows. */
  g_assert_true (strata_profile_view_select_match (f.view, FALSE));
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (rows)), ==, 0);
  g_assert_cmpuint (strata_session_get_selected_method (f.session), ==, strata_profile_row_get_method (row_at (&f, 0)));
  g_assert_true (strata_profile_view_select_match (f.view, FALSE));
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (rows)), ==, 1);
  g_assert_true (strata_profile_view_select_match (f.view, TRUE));
  g_assert_true (strata_profile_view_select_match (f.view, TRUE));
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (rows)), ==, n - 1);
  strata_profile_view_set_filter (f.view, "no method has this name");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 0);
  g_assert_false (strata_profile_view_select_match (f.view, FALSE));

  strata_profile_view_set_filter (f.view, "");
  strata_test_iterate_until (sorted, rows);
  g_assert_cmpuint (g_list_model_get_n_items (rows), >, n);

  fixture_close (&f);
}

/* Selection goes both ways through the session: the timeline follows. */
static void
test_profile_view_selection (void)
{
  Fixture f;
  GtkSingleSelection *selection;
  StrataProfileRow *row;
  guint32 method;

  fixture_open (&f);
  selection = GTK_SINGLE_SELECTION (strata_profile_view_get_rows (f.view));

  gtk_single_selection_set_selected (selection, 2);
  method = strata_profile_row_get_method (row_at (&f, 2));
  g_assert_cmpuint (strata_session_get_selected_method (f.session), ==, method);

  method = strata_profile_row_get_method (row_at (&f, 7));
  strata_session_set_selected_method (f.session, method);
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, 7);
  row = gtk_single_selection_get_selected_item (selection);
  g_assert_cmpuint (strata_profile_row_get_method (row), ==, method);

  fixture_close (&f);
}

static gboolean
range_profile_shown (gpointer data)
{
  Fixture *f = data;
  StrataProfile *profile = strata_profile_view_get_profile (f->view);

  return profile != NULL && strata_profile_get_range (profile, NULL);
}

static gboolean
whole_profile_shown (gpointer data)
{
  Fixture *f = data;

  return strata_profile_view_get_profile (f->view) == strata_session_get_profile (f->session);
}

/* A time range from the timeline: the table shows only its calls. */
static void
test_profile_view_range (void)
{
  Fixture f;
  StrataProfile *profile;
  StrataTrace *trace;
  gint64 start, end, limit;

  fixture_open (&f);
  strata_session_get_bounds (f.session, &start, &end);
  strata_session_set_selection_range (f.session, start + (end - start) / 4, start + (end - start) / 2);
  strata_session_set_selected_method (f.session, strata_profile_row_get_method (row_at (&f, 0)));
  strata_session_set_range_only (f.session, TRUE);
  strata_test_iterate_until (range_profile_shown, &f);
  strata_test_iterate_until (sorted, strata_profile_view_get_rows (f.view));

  /* The selected method stays selected in the new table. */
  {
    GtkSingleSelection *selection = GTK_SINGLE_SELECTION (strata_profile_view_get_rows (f.view));

    g_assert_cmpuint (gtk_single_selection_get_selected (selection), !=, GTK_INVALID_LIST_POSITION);
    g_assert_cmpuint (strata_profile_row_get_method (gtk_single_selection_get_selected_item (selection)), ==,
                      strata_session_get_selected_method (f.session));
  }

  /* Every thread is cut to the range, so no method can have more time
   * than the range times the number of threads, and the whole range is
   * less than the whole trace. */
  profile = strata_profile_view_get_profile (f.view);
  trace = strata_profile_get_trace (profile);
  limit = ((end - start) / 4 + 1) * strata_trace_get_n_threads (trace);
  g_assert_cmpint (strata_profile_get_total (profile, 0), <=, limit);
  g_assert_cmpint (strata_profile_get_total (profile, 0), <,
                   strata_profile_get_total (strata_session_get_profile (f.session), 0));
  for (guint i = 0; i < 10 && i < g_list_model_get_n_items (strata_profile_view_get_rows (f.view)); i++)
    {
      StrataProfileRow *row = row_at (&f, i);
      const StrataProfileEntry *entry = strata_profile_get_entry (profile, strata_profile_row_get_method (row));

      g_assert_cmpint (strata_profile_row_get_inclusive (row, 0), ==, entry->inclusive[0]);
      g_assert_cmpint (strata_profile_row_get_inclusive (row, 0), <=, limit);
    }

  /* Clearing the range brings the whole trace back. */
  strata_session_clear_selection (f.session);
  strata_test_iterate_until (whole_profile_shown, &f);

  fixture_close (&f);
}

/* + opens the selected method; - on one of its parents or children goes
 * back to the method and closes it. */
static void
test_profile_view_keyboard (void)
{
  GtkSingleSelection *selection;
  guint32 method;
  Fixture f;

  fixture_open (&f);
  selection = GTK_SINGLE_SELECTION (strata_profile_view_get_rows (f.view));
  method = strata_profile_row_get_method (row_at (&f, 2));
  gtk_single_selection_set_selected (selection, 2);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "profile.expand", NULL));
  g_assert_true (strata_profile_view_get_expanded (f.view, 2));
  g_assert_true (strata_profile_row_get_expanded (row_at (&f, 2)));
  g_assert_cmpint (strata_profile_row_get_kind (row_at (&f, 3)), !=, STRATA_PROFILE_ROW_METHOD);

  gtk_single_selection_set_selected (selection, 3);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "profile.collapse", NULL));
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, 2);
  g_assert_false (strata_profile_view_get_expanded (f.view, 2));
  g_assert_false (strata_profile_row_get_expanded (row_at (&f, 2)));
  g_assert_cmpuint (strata_profile_row_get_method (row_at (&f, 2)), ==, method);
  g_assert_cmpint (strata_profile_row_get_kind (row_at (&f, 3)), ==, STRATA_PROFILE_ROW_METHOD);

  fixture_close (&f);
}

static guint
count_visible_columns (Fixture *f)
{
  GListModel *columns = gtk_column_view_get_columns (strata_profile_view_get_column_view (f->view));
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      n += gtk_column_view_column_get_visible (column);
    }
  return n;
}

/* The column menu hides one clock's columns, never both. */
static void
test_profile_view_columns (void)
{
  guint all;
  Fixture f;

  fixture_open (&f);
  all = count_visible_columns (&f);
  /* Name, 4 per clock, calls, time per call per clock. */
  g_assert_cmpuint (all, ==, 1 + 4 * 2 + 1 + 2);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "columns.show-clock-1", NULL));
  g_assert_cmpuint (count_visible_columns (&f), ==, all - 5);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "columns.show-clock-0", NULL));
  g_assert_cmpuint (count_visible_columns (&f), ==, all - 5);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "columns.show-clock-1", NULL));
  g_assert_cmpuint (count_visible_columns (&f), ==, all);

  fixture_close (&f);
}

/* A profile made from samples (node --cpu-prof) has no count of calls or
 * time per call: the name and 4 columns of its one clock. */
static void
test_profile_view_sampled_columns (void)
{
  Fixture f;

  fixture_open_path (&f, g_test_build_filename (G_TEST_DIST, "data", "cpuprofile", "hot.cpuprofile", NULL));
  g_assert_true (strata_trace_get_calls_are_samples (strata_session_get_trace (f.session)));
  g_assert_cmpuint (count_visible_columns (&f), ==, 1 + 4);
  fixture_close (&f);
}

/* Follows a list model through items-changed: each change must fit the
 * length it had, and leave the length the model reports. */
static void
check_items_changed (GListModel *model,
                     guint       position,
                     guint       removed,
                     guint       added,
                     guint      *n_items)
{
  g_assert_cmpuint (position + removed, <=, *n_items);
  *n_items = *n_items - removed + added;
  g_assert_cmpuint (*n_items, ==, g_list_model_get_n_items (model));
}

/* The model behind the panel: rows are places that the list may hold on
 * to; sorting, filtering and expanding re-point them. */
static void
test_profile_view_model (void)
{
  g_autoptr(StrataProfileModel) model = NULL;
  g_autoptr(StrataProfileRow) held = NULL;
  StrataProfile *profile;
  guint n, n_methods, n_followed, position;
  guint32 top;
  Fixture f;

  fixture_open (&f);
  profile = strata_session_get_profile (f.session);
  model = strata_profile_model_new (profile);
  n_methods = g_list_model_get_n_items (G_LIST_MODEL (model));
  n_followed = n_methods;
  g_signal_connect (model, "items-changed", G_CALLBACK (check_items_changed), &n_followed);
  g_assert_cmpuint (n_methods, ==, strata_profile_model_get_n_matches (model));

  /* By exclusive time, largest first; a held row follows its place. */
  held = g_list_model_get_item (G_LIST_MODEL (model), 0);
  top = strata_profile_row_get_method (held);
  strata_profile_model_set_sort (model, STRATA_PROFILE_SORT_EXCLUSIVE, 0, TRUE);
  for (guint i = 1; i < n_methods; i++)
    {
      g_autoptr(StrataProfileRow) a = g_list_model_get_item (G_LIST_MODEL (model), i - 1);
      g_autoptr(StrataProfileRow) b = g_list_model_get_item (G_LIST_MODEL (model), i);

      g_assert_cmpint (strata_profile_row_get_exclusive (a, 0), >=, strata_profile_row_get_exclusive (b, 0));
    }
  {
    g_autoptr(StrataProfileRow) first = g_list_model_get_item (G_LIST_MODEL (model), 0);

    g_assert_true (first == held);
  }

  /* Expanding inserts parents then children under the method; they keep
   * their place through a re-sort, and closing removes them again. */
  strata_profile_model_set_sort (model, STRATA_PROFILE_SORT_INCLUSIVE, 0, TRUE);
  position = strata_profile_model_find_method (model, top);
  g_assert_cmpuint (position, !=, G_MAXUINT);
  g_assert_true (strata_profile_model_is_expandable (model, position));
  strata_profile_model_set_expanded (model, position, TRUE);
  n = g_list_model_get_n_items (G_LIST_MODEL (model));
  g_assert_cmpuint (n, >, n_methods);
  g_assert_true (strata_profile_row_get_expanded (held));
  strata_profile_model_set_sort (model, STRATA_PROFILE_SORT_NAME, 0, FALSE);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, n);
  position = strata_profile_model_find_method (model, top);
  {
    g_autoptr(StrataProfileRow) relative = g_list_model_get_item (G_LIST_MODEL (model), position + 1);

    g_assert_cmpint (strata_profile_row_get_kind (relative), !=, STRATA_PROFILE_ROW_METHOD);
    g_assert_cmpuint (strata_profile_model_get_owner (model, position + 1), ==, position);
  }
  strata_profile_model_set_expanded (model, position, FALSE);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, n_methods);

  /* Filtering keeps the sort; typing on narrows, deleting widens. */
  strata_profile_model_set_filter (model, "LAYOUTINFLATER");
  n = strata_profile_model_get_n_matches (model);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n, <, n_methods);
  for (guint i = 1; i < n; i++)
    {
      g_autoptr(StrataProfileRow) a = g_list_model_get_item (G_LIST_MODEL (model), i - 1);
      g_autoptr(StrataProfileRow) b = g_list_model_get_item (G_LIST_MODEL (model), i);

      g_assert_cmpint (g_ascii_strcasecmp (strata_profile_row_get_name (a), strata_profile_row_get_name (b)), <=, 0);
      g_assert_nonnull (strcasestr (strata_profile_row_get_name (b), "layoutinflater"));
    }
  strata_profile_model_set_filter (model, "LAYOUTINFLATER.inflate");
  g_assert_cmpuint (strata_profile_model_get_n_matches (model), <=, n);
  strata_profile_model_set_filter (model, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, n_methods);
  g_assert_cmpuint (n_followed, ==, n_methods);

  g_clear_object (&held);
  g_assert_finalize_object (g_steal_pointer (&model));

  fixture_close (&f);
}

/* The table's text cell: one line high whatever it shows, and new text
 * does not ask for a new size. */
static void
test_profile_view_cell_text (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *cell = strata_cell_text_new ();
  int before, after, natural;

  gtk_window_set_child (GTK_WINDOW (window), cell);
  gtk_widget_measure (cell, GTK_ORIENTATION_VERTICAL, -1, &before, &natural, NULL, NULL);
  g_assert_cmpint (before, >, 0);
  g_assert_cmpstr (strata_cell_text_get_text (STRATA_CELL_TEXT (cell)), ==, "");

  strata_cell_text_set_text (STRATA_CELL_TEXT (cell), "java.lang.String.charAt (I)C, a rather long method name");
  gtk_widget_measure (cell, GTK_ORIENTATION_VERTICAL, -1, &after, &natural, NULL, NULL);
  g_assert_cmpint (after, ==, before);
  g_assert_cmpstr (strata_cell_text_get_text (STRATA_CELL_TEXT (cell)), ==,
                   "java.lang.String.charAt (I)C, a rather long method name");

  g_object_set (cell, "xalign", 0.0f, "ellipsize", PANGO_ELLIPSIZE_MIDDLE, NULL);
  {
    float xalign;
    PangoEllipsizeMode ellipsize;

    g_object_get (cell, "xalign", &xalign, "ellipsize", &ellipsize, NULL);
    g_assert_cmpfloat (xalign, ==, 0.0f);
    g_assert_cmpint (ellipsize, ==, PANGO_ELLIPSIZE_MIDDLE);
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_profile_view_export (void)
{
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *csv_path = g_build_filename (dir, "profile.csv", NULL);
  g_autoptr(GFile) csv = g_file_new_for_path (csv_path);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  Fixture f;

  fixture_open (&f);
  g_assert_true (strata_profile_view_export (f.view, csv, TRUE, &error));
  g_assert_no_error (error);
  g_file_get_contents (csv_path, &contents, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (contents, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "Kind,Name,Incl "));
  /* A header, a line per row, and the final newline. */
  g_assert_cmpuint (g_strv_length (lines), ==, g_list_model_get_n_items (strata_profile_view_get_rows (f.view)) + 2);

  /* All methods by default, whatever the filter; every figure a number:
   * whole nanoseconds that match the profile's, percentages as decimals,
   * calls and recursive calls in columns of their own. */
  {
    StrataProfile *profile = f.view->profile;
    guint n_clocks = strata_profile_get_n_clocks (profile), n_methods = 0, n;
    const guint32 *sorted = strata_profile_get_sorted (profile, 0, &n);
    g_auto(GStrv) header = NULL;
    g_autofree char *all = NULL;
    g_auto(GStrv) all_lines = NULL;

    for (guint i = 0; i < n; i++)
      n_methods += strata_profile_get_entry (profile, sorted[i])->calls + strata_profile_get_entry (profile, sorted[i])->recursive_calls > 0;
    strata_profile_view_set_filter (f.view, "no method is named this");
    g_assert_true (strata_profile_view_export (f.view, csv, FALSE, &error));
    g_assert_no_error (error);
    g_file_get_contents (csv_path, &all, NULL, &error);
    all_lines = g_strsplit (all, "\n", -1);
    g_assert_cmpuint (g_strv_length (all_lines), ==, n_methods + 2);
    header = g_strsplit (all_lines[0], ",", -1);
    g_assert_cmpuint (g_strv_length (header), ==, 2 + 4 * n_clocks + 2 + n_clocks);
    g_assert_cmpstr (header[4 * n_clocks + 2], ==, "Calls");
    g_assert_cmpstr (header[4 * n_clocks + 3], ==, "Recursive calls");
    g_assert_true (g_str_has_suffix (header[2], "(ns)"));
    for (guint i = 1, j = 0; all_lines[i] != NULL && all_lines[i][0] != '\0'; i++, j++)
      {
        g_auto(GStrv) cells = NULL;
        const char *name_end = strrchr (all_lines[i], '"');
        const StrataProfileEntry *entry;

        /* Rows are the methods with calls, in the profile's order. */
        while (strata_profile_get_entry (profile, sorted[j])->calls + strata_profile_get_entry (profile, sorted[j])->recursive_calls == 0)
          j++;
        entry = strata_profile_get_entry (profile, sorted[j]);

        /* Names with commas are quoted: the numbers follow the last quote. */
        cells = g_strsplit (name_end != NULL ? name_end + 2 : strchr (strchr (all_lines[i], ',') + 1, ',') + 1, ",", -1);
        g_assert_cmpuint (g_strv_length (cells), ==, 4 * n_clocks + 2 + n_clocks);
        for (guint k = 0; cells[k] != NULL; k++)
          {
            char *end = NULL;

            g_ascii_strtod (cells[k], &end);
            g_assert_true (end != cells[k] && *end == '\0');
          }
        g_assert_cmpint (g_ascii_strtoll (cells[0], NULL, 10), ==, entry->inclusive[0]);
        g_assert_cmpint (g_ascii_strtoll (cells[2], NULL, 10), ==, entry->exclusive[0]);
        g_assert_cmpuint (g_ascii_strtoull (cells[4 * n_clocks], NULL, 10), ==, entry->calls);
        g_assert_cmpuint (g_ascii_strtoull (cells[4 * n_clocks + 1], NULL, 10), ==, entry->recursive_calls);
      }
  }

  fixture_close (&f);
}

static void
test_profile_view_needs_display (void)
{
  g_test_skip ("no display; run under xvfb-run");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  if (!strata_test_init_gtk ())
    {
      g_test_add_func ("/profile-view/needs-display", test_profile_view_needs_display);
      return g_test_run ();
    }
  g_test_add_func ("/profile-view/matches-report", test_profile_view_matches_report);
  g_test_add_func ("/profile-view/parents-and-children", test_profile_view_parents_and_children);
  g_test_add_func ("/profile-view/sort-and-filter", test_profile_view_sort_and_filter);
  g_test_add_func ("/profile-view/selection", test_profile_view_selection);
  g_test_add_func ("/profile-view/range", test_profile_view_range);
  g_test_add_func ("/profile-view/keyboard", test_profile_view_keyboard);
  g_test_add_func ("/profile-view/columns", test_profile_view_columns);
  g_test_add_func ("/profile-view/sampled-columns", test_profile_view_sampled_columns);
  g_test_add_func ("/profile-view/model", test_profile_view_model);
  g_test_add_func ("/profile-view/cell-text", test_profile_view_cell_text);
  g_test_add_func ("/profile-view/export", test_profile_view_export);

  return g_test_run ();
}
