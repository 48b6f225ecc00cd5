/* test-window-menus.c: the window's menus: shortcuts, about, recent files, deobfuscation, image export, its size
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
  g_autofree char *broken_path = strata_test_write_file ("broken.trace", strata_test_png_bytes, sizeof strata_test_png_bytes - 1);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) broken = g_file_new_for_path (broken_path);
  g_autofree char *uri = g_file_get_uri (file);
  g_autofree char *export_uri = g_filename_to_uri (export_path, NULL, NULL);
  g_autofree char *broken_uri = g_file_get_uri (broken);
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  StrataWindow *window;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = strata_test_only_window (app);
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
   * yet, reading back the first save can come after the add and drop
   * the item, or its group; the window's add is then made again. */
  {
    gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
    gint64 next_add = g_get_monotonic_time () + G_USEC_PER_SEC / 2;

    while (!menu_has_label (G_MENU_MODEL (window->recent_menu), "studio-perflib-exception.trace") &&
           g_get_monotonic_time () < deadline)
      {
        if (g_get_monotonic_time () > next_add)
          {
            _strata_window_add_recent (window, file);
            next_add = g_get_monotonic_time () + G_USEC_PER_SEC / 2;
          }
        if (!g_main_context_iteration (NULL, FALSE))
          g_usleep (10 * 1000);
      }
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

  strata_test_finish_app (app);
}

static void
test_window_remembers_size (void)
{
  StrataApplication *app = strata_test_new_app ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  StrataWindow *window;
  int width, height;

  g_application_activate (G_APPLICATION (app));
  window = strata_test_only_window (app);
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

  strata_test_finish_app (app);
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
  window = strata_test_only_window (app);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  g_assert_true (has_toplevel_of_type (GTK_TYPE_SHORTCUTS_WINDOW));
  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  g_assert_true (has_toplevel_of_type (GTK_TYPE_ABOUT_DIALOG));

  strata_test_finish_app (app);
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
    { GDK_KEY_KP_Multiply, GDK_KEY_asterisk },
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

/* Every key a Strata widget binds to a named action, with the actions,
 * as "keyval:mods" → "action, action…". */
static void
collect_meanings (GtkWidget  *widget,
                  GHashTable *meanings)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; g_str_has_prefix (G_OBJECT_TYPE_NAME (widget), "Strata") && i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      for (guint j = 0; GTK_IS_SHORTCUT_CONTROLLER (controller) && j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);
          g_autofree char *key = NULL;
          const char *name;
          GString *actions;

          if (!GTK_IS_KEYVAL_TRIGGER (trigger) || !GTK_IS_NAMED_ACTION (action))
            continue;
          key = g_strdup_printf ("%u:%u", main_keyval (gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger))),
                                 gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)));
          name = gtk_named_action_get_action_name (GTK_NAMED_ACTION (action));
          if ((actions = g_hash_table_lookup (meanings, key)) == NULL)
            g_hash_table_insert (meanings, g_steal_pointer (&key), actions = g_string_new (NULL));
          if (strstr (actions->str, name) == NULL)
            g_string_append_printf (actions, "%s%s", actions->len > 0 ? ", " : "", name);
        }
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    collect_meanings (child, meanings);
}

static void
string_free (gpointer data)
{
  g_string_free (data, TRUE);
}

/* Whether the actions one key runs in different panes mean one thing:
 * copy the selection (Ctrl+C), focus on it (F: the timeline zooms to it,
 * the call tree keeps its subtree), stop or dismiss (Escape). */
static gboolean
one_meaning (const char *actions)
{
  static const char *const same[][2] = {
    { "zoom-selection", "focus-subtree" }, { "cancel-load", "clear-selection" },
  };
  g_auto(GStrv) names = g_strsplit (actions, ", ", -1);

  for (guint i = 1; names[i] != NULL; i++)
    {
      const char *a = strchr (names[0], '.') + 1, *b = strchr (names[i], '.') + 1;
      gboolean equal = g_str_equal (a, b);

      for (guint k = 0; k < G_N_ELEMENTS (same) && !equal; k++)
        equal = (g_str_equal (a, same[k][0]) && g_str_equal (b, same[k][1])) ||
                (g_str_equal (a, same[k][1]) && g_str_equal (b, same[k][0]));
      if (!equal)
        return FALSE;
    }
  return TRUE;
}

/* One key, one meaning, wherever the focus is: no key a pane binds
 * does another thing in another pane. */
static void
test_window_one_meaning_per_key (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "android-app-startup.trace", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrataApplication *app = strata_test_new_app ();
  g_autoptr(GHashTable) meanings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, string_free);
  GHashTableIter iter;
  const char *key;
  GString *actions;
  guint clashes = 0;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  strata_test_wait_for_window (strata_test_only_window (app));
  collect_meanings (GTK_WIDGET (strata_test_only_window (app)), meanings);
  g_assert_cmpuint (g_hash_table_size (meanings), >=, 20);
  g_hash_table_iter_init (&iter, meanings);
  while (g_hash_table_iter_next (&iter, (gpointer *) &key, (gpointer *) &actions))
    if (!one_meaning (actions->str))
      {
        guint keyval = 0, mods = 0;
        g_autofree char *label = NULL;

        sscanf (key, "%u:%u", &keyval, &mods);
        label = gtk_accelerator_name (keyval, mods);
        g_printerr ("%s means %s\n", label, actions->str);
        clashes++;
      }
  g_assert_cmpuint (clashes, ==, 0);
  strata_test_finish_app (app);
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
  collect_widget_bindings (GTK_WIDGET (strata_test_only_window (app)), bound);
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
  strata_test_finish_app (app);
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
  window = strata_test_only_window (app);
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
  strata_test_assert_label_contains (window->subtitle_label, "deobfuscated with mapping.txt");
  g_assert_true (gtk_widget_get_visible (window->compare_bar));
  strata_test_assert_label_contains (GTK_LABEL (window->compare_label), "1 line of the mapping could not be read");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-obfuscated-names", NULL));
  g_assert_cmpstr (strata_trace_get_method_name (trace, method), ==, "com.yy.base.taskexecutor.YYTaskExecutor$1.run ()V");
  g_assert_null (strstr (gtk_label_get_label (window->subtitle_label), "deobfuscated"));

  /* Remembered for the file: strata_test_compared with, it takes the same names. */
  strata_window_deobfuscate (window, mapping);
  strata_test_iterate_until (mapping_settled, window);
  strata_window_compare_with (window, file);
  strata_test_iterate_until (strata_test_compared, window->session);
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
  strata_test_finish_app (app);
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
  window = strata_test_only_window (app);
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
  strata_test_finish_app (app);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (!strata_test_init_gtk ())
    {
      g_test_add_func ("/window-menus/needs-display", strata_test_skip_no_display);
      return g_test_run ();
    }

  g_test_add_func ("/window-menus/remembers-size", test_window_remembers_size);
  g_test_add_func ("/window-menus/shortcuts-and-about", test_window_shortcuts_and_about);
  g_test_add_func ("/window-menus/one-meaning-per-key", test_window_one_meaning_per_key);
  g_test_add_func ("/window-menus/shortcuts-complete", test_window_shortcuts_complete);
  g_test_add_func ("/window-menus/time-left", test_window_time_left);
  g_test_add_func ("/window-menus/deobfuscate", test_window_deobfuscate);
  g_test_add_func ("/window-menus/export-image", test_window_export_image);
  g_test_add_func ("/window-menus/open-file-adds-recent", test_window_open_file_adds_recent);

  return g_test_run ();
}
