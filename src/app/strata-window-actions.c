/* strata-window-actions.c: win.* actions, the file dialog, recent files and samples
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-image-dialog.h"
#include "strata-window-private.h"

#define RECENT_APP_NAME "Strata"
/* Traces that opened carry this group; files a dialog saved (exports) are
 * added by GTK under the same application name, without it. */
#define RECENT_GROUP "strata-trace"
#define RECENT_MENU_MAX 10
#define RECENT_WELCOME_MAX 5
#define SAMPLES_PATH RESOURCE_PREFIX "/samples/"

typedef struct
{
  const char *name;
  const char *mime_types[4];
  const char *patterns[6];
} FilterSpec;

static const FilterSpec filter_specs[] = {
  { N_("Android Method Traces"),
    { "application/x-android-dmtrace" },
    { "*.trace", "*.dmtrace", "*.key" } },
  { N_("Java HPROF"),
    { "application/x-java-hprof", "text/x-java-hprof" },
    { "*.hprof", "*.android-hprof", "*.hprof.txt" } },
  { N_("Trace Event JSON"),
    { "application/x-trace-event+json", "application/x-trace-event+json+gzip", "application/json" },
    { "*.json", "*.json.gz", "*.gz" } },
};

static void
add_spec_to_filter (GtkFileFilter    *filter,
                    const FilterSpec *spec)
{
  for (guint i = 0; i < G_N_ELEMENTS (spec->mime_types) && spec->mime_types[i]; i++)
    gtk_file_filter_add_mime_type (filter, spec->mime_types[i]);
  for (guint i = 0; i < G_N_ELEMENTS (spec->patterns) && spec->patterns[i]; i++)
    gtk_file_filter_add_pattern (filter, spec->patterns[i]);
}

static GtkFileFilter *
all_files_filter_new (void)
{
  GtkFileFilter *all_files = gtk_file_filter_new ();

  gtk_file_filter_set_name (all_files, _("All Files"));
  gtk_file_filter_add_pattern (all_files, "*");
  return all_files;
}

/* A build's mapping.txt, whatever it is called; then all files. */
static GListStore *
create_mapping_filters (void)
{
  GListStore *filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_autoptr(GtkFileFilter) mappings = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all_files = all_files_filter_new ();

  gtk_file_filter_set_name (mappings, _("ProGuard and R8 Mappings"));
  gtk_file_filter_add_pattern (mappings, "*.txt");
  gtk_file_filter_add_pattern (mappings, "*.map");
  gtk_file_filter_add_mime_type (mappings, "text/plain");
  g_list_store_append (filters, mappings);
  g_list_store_append (filters, all_files);
  return filters;
}

/* Returns the filters in dialog order; the first is "All Supported Traces". */
static GListStore *
create_file_filters (void)
{
  GListStore *filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_autoptr(GtkFileFilter) all_supported = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all_files = all_files_filter_new ();

  gtk_file_filter_set_name (all_supported, _("All Supported Traces"));
  for (guint i = 0; i < G_N_ELEMENTS (filter_specs); i++)
    add_spec_to_filter (all_supported, &filter_specs[i]);
  g_list_store_append (filters, all_supported);

  for (guint i = 0; i < G_N_ELEMENTS (filter_specs); i++)
    {
      g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

      gtk_file_filter_set_name (filter, _(filter_specs[i].name));
      add_spec_to_filter (filter, &filter_specs[i]);
      g_list_store_append (filters, filter);
    }

  g_list_store_append (filters, all_files);

  return filters;
}

/* Open in This Window replaces the trace on show; Open keeps it. */
static void
open_picked (StrataWindow *self,
             GFile        *file)
{
  if (self->mapping_pick)
    strata_window_deobfuscate (self, file);
  else if (self->compare_pick)
    strata_window_compare_with (self, file);
  else if (self->open_here)
    strata_window_open (self, file);
  else
    strata_window_open_or_new (self, file);
  self->open_here = FALSE;
  self->compare_pick = FALSE;
  self->mapping_pick = FALSE;
}

static const char *
dialog_title (StrataWindow *self)
{
  if (self->mapping_pick)
    /* Translators: the title of the file dialog that picks a build's mapping.txt */
    return _("Deobfuscate With a Mapping File");
  /* Translators: the title of the file dialog that picks a file to compare with */
  return self->compare_pick ? _("Compare With a Trace or Heap Dump") : _("Open a Trace");
}

#if GTK_CHECK_VERSION (4, 10, 0)
static void
open_dialog_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(StrataWindow) self = user_data;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  file = gtk_file_dialog_open_finish (GTK_FILE_DIALOG (object), result, &error);
  if (file != NULL)
    open_picked (self, file);
  else if (!g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_DISMISSED))
    g_warning ("File dialog failed: %s", error->message);
}

static void
run_open_dialog (StrataWindow *self)
{
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
  g_autoptr(GListStore) filters = self->mapping_pick ? create_mapping_filters () : create_file_filters ();
  g_autoptr(GtkFileFilter) all_supported = g_list_model_get_item (G_LIST_MODEL (filters), 0);

  gtk_file_dialog_set_title (dialog, dialog_title (self));
  gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
  gtk_file_dialog_set_default_filter (dialog, all_supported);
  gtk_file_dialog_open (dialog, GTK_WINDOW (self), NULL, open_dialog_cb, g_object_ref (self));
}
#else
static void
open_dialog_response_cb (GtkNativeDialog *native,
                         int              response,
                         StrataWindow    *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));

      if (file != NULL)
        open_picked (self, file);
    }
  gtk_native_dialog_destroy (native);
  g_object_unref (native);
}

static void
run_open_dialog (StrataWindow *self)
{
  g_autoptr(GListStore) filters = self->mapping_pick ? create_mapping_filters () : create_file_filters ();
  GtkFileChooserNative *native;

  native = gtk_file_chooser_native_new (dialog_title (self), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_OPEN,
                                        _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (filters)); i++)
    {
      g_autoptr(GtkFileFilter) filter = g_list_model_get_item (G_LIST_MODEL (filters), i);

      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), filter);
      if (i == 0)
        gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (native), filter);
    }
  g_signal_connect_object (native, "response", G_CALLBACK (open_dialog_response_cb),
                           self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}
#endif

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  StrataWindow *self = STRATA_WINDOW (widget);

  self->open_here = g_str_equal (action_name, "win.open-here");
  self->compare_pick = g_str_equal (action_name, "win.compare");
  self->mapping_pick = g_str_equal (action_name, "win.deobfuscate");
  run_open_dialog (self);
}

static void
export_image_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  StrataWindow *self = STRATA_WINDOW (widget);
  GtkNotebook *details = GTK_NOTEBOOK (self->details);
  gboolean flame_shown = gtk_notebook_get_nth_page (details, gtk_notebook_get_current_page (details)) == self->call_tree_view &&
                         gtk_widget_get_mapped (strata_call_tree_view_get_flame_graph (STRATA_CALL_TREE_VIEW (self->call_tree_view)));

  strata_image_dialog_present (GTK_WINDOW (self), STRATA_TIMELINE (self->timeline),
                               STRATA_CALL_TREE_VIEW (self->call_tree_view), flame_shown);
}

static void
show_obfuscated_names_action (GtkWidget  *widget,
                              const char *action_name,
                              GVariant   *param)
{
  strata_window_remove_mapping (STRATA_WINDOW (widget));
}

static void
stop_comparing_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  StrataWindow *self = STRATA_WINDOW (widget);

  strata_session_set_baseline (self->session, NULL, NULL);
}

static void
open_uri_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));

  strata_window_open_or_new (STRATA_WINDOW (widget), file);
}

static void
cancel_load_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  _strata_window_cancel_load (STRATA_WINDOW (widget));
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  gtk_window_close (GTK_WINDOW (widget));
}

void
_strata_window_update_actions (StrataWindow *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-load",
                                 strata_window_get_busy (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare",
                                 trace != NULL && !strata_window_get_busy (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop-comparing",
                                 strata_session_get_comparison (self->session) != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-image",
                                 trace != NULL && !strata_window_get_busy (self) &&
                                 gtk_widget_get_visible (gtk_paned_get_start_child (GTK_PANED (self->paned))));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.deobfuscate",
                                 trace != NULL && !strata_window_get_busy (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.show-obfuscated-names",
                                 trace != NULL && strata_trace_is_renamed (trace));
}

static gint
compare_recent_by_modified (gconstpointer a,
                            gconstpointer b)
{
  GtkRecentInfo *info_a = *(GtkRecentInfo **) a;
  GtkRecentInfo *info_b = *(GtkRecentInfo **) b;

  return g_date_time_compare (gtk_recent_info_get_modified (info_b),
                              gtk_recent_info_get_modified (info_a));
}

/* Our own entries that still exist, newest first. */
static GPtrArray *
list_recent_traces (void)
{
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  GPtrArray *ours = g_ptr_array_new_with_free_func ((GDestroyNotify) gtk_recent_info_unref);
  GList *items = gtk_recent_manager_get_items (manager);

  for (GList *l = items; l != NULL; l = l->next)
    {
      GtkRecentInfo *info = l->data;

      if (gtk_recent_info_has_group (info, RECENT_GROUP) &&
          gtk_recent_info_exists (info))
        g_ptr_array_add (ours, gtk_recent_info_ref (info));
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  g_ptr_array_sort (ours, compare_recent_by_modified);

  return ours;
}

static GtkWidget *
create_file_row (const char *title,
                 const char *subtitle,
                 const char *action_name,
                 const char *target)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *label = gtk_label_new (title);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_box_append (GTK_BOX (box), label);

  label = gtk_label_new (subtitle);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_START);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "caption");
  gtk_box_append (GTK_BOX (box), label);

  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (row), action_name);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (row), "s", target);
  gtk_widget_set_tooltip_text (row, subtitle);

  return row;
}

static void
clear_list_box (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))))
    gtk_list_box_remove (list, child);
}

static void
update_recent (StrataWindow *self)
{
  g_autoptr(GPtrArray) recent = list_recent_traces ();

  g_menu_remove_all (self->recent_menu);
  clear_list_box (self->recent_list);

  for (guint i = 0; i < recent->len && i < RECENT_MENU_MAX; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (recent, i);
      const char *uri = gtk_recent_info_get_uri (info);
      g_autoptr(GMenuItem) item = g_menu_item_new (gtk_recent_info_get_display_name (info), NULL);
      g_autoptr(GFile) file = g_file_new_for_uri (uri);
      g_autofree char *parse_name = g_file_get_parse_name (file);

      g_menu_item_set_action_and_target (item, "win.open-uri", "s", uri);
      g_menu_append_item (self->recent_menu, item);

      if (i < RECENT_WELCOME_MAX)
        gtk_list_box_append (self->recent_list,
                             create_file_row (gtk_recent_info_get_display_name (info),
                                              parse_name, "win.open-uri", uri));
    }

  if (recent->len == 0)
    g_menu_append (self->recent_menu, _("No Recent Files"), "win.no-recent-files");
  gtk_widget_set_visible (self->recent_box, recent->len > 0);
}

void
_strata_window_add_recent (StrataWindow *self,
                           GFile        *file)
{
  g_autofree char *uri = NULL;
  static const char *groups[] = { RECENT_GROUP, NULL };
  GtkRecentData data = {
    .mime_type = (char *) "application/octet-stream",
    .app_name = (char *) RECENT_APP_NAME,
    .app_exec = (char *) "strata %u",
    .groups = (char **) groups,
  };

  /* Samples live in the application's resources, not on disk. */
  if (!g_file_is_native (file))
    return;

  uri = g_file_get_uri (file);
  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

/* A file that no longer opens leaves the list. */
void
_strata_window_forget_recent (StrataWindow *self,
                              GFile        *file)
{
  g_autofree char *uri = g_file_get_uri (file);

  /* Not asked first: with no list yet, has_item() is a critical warning,
   * while remove_item() just finds nothing. */
  gtk_recent_manager_remove_item (gtk_recent_manager_get_default (), uri, NULL);
}

/* "Android method trace · 1.2 MB", read from the sample itself. */
static char *
describe_sample (const char *name)
{
  g_autofree char *path = g_strconcat (SAMPLES_PATH, name, NULL);
  g_autoptr(GBytes) bytes = g_resources_lookup_data (path, 0, NULL);
  g_autofree char *size = NULL;
  StrataFormat format;
  gsize len = 0;
  const guint8 *data = bytes ? g_bytes_get_data (bytes, &len) : NULL;

  format = data ? strata_format_sniff (data, len, NULL, NULL) : STRATA_FORMAT_UNKNOWN;
  size = g_format_size (len);
  /* Translators: a format name and a file size */
  return g_strdup_printf (_("%s · %s"), strata_format_get_name (format), size);
}

static void
populate_samples (StrataWindow *self)
{
  g_auto(GStrv) names = g_resources_enumerate_children (SAMPLES_PATH, 0, NULL);

  if (names == NULL)
    return;

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *uri = g_strconcat ("resource://" SAMPLES_PATH, names[i], NULL);
      g_autofree char *description = describe_sample (names[i]);

      gtk_list_box_append (self->samples_list,
                           create_file_row (names[i], description, "win.open-uri", uri));
    }
  gtk_widget_set_visible (self->samples_box, names[0] != NULL);
}

static void
no_recent_files_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
}

void
_strata_window_class_init_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-here", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-uri", "s", open_uri_action);
  gtk_widget_class_install_action (widget_class, "win.compare", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.stop-comparing", NULL, stop_comparing_action);
  gtk_widget_class_install_action (widget_class, "win.deobfuscate", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.export-image", NULL, export_image_action);
  gtk_widget_class_install_action (widget_class, "win.show-obfuscated-names", NULL, show_obfuscated_names_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-load", NULL, cancel_load_action);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_action);
  /* Never enabled: it greys out the "No Recent Files" menu entry. */
  gtk_widget_class_install_action (widget_class, "win.no-recent-files", NULL, no_recent_files_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.cancel-load", NULL);
  /* A plain "?" as in Chrome tracing and Perfetto; text entries take it first. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_question, 0, "win.show-help-overlay", NULL);
}

void
_strata_window_init_actions (StrataWindow *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.no-recent-files", FALSE);
  g_signal_connect_object (gtk_recent_manager_get_default (), "changed",
                           G_CALLBACK (update_recent), self, G_CONNECT_SWAPPED);
  update_recent (self);
  populate_samples (self);
}
