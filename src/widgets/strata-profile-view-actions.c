/* strata-profile-view-export.c: the profile's rows as text
 *
 * Ctrl+C copies the selected row; Export writes every row on show as CSV
 * or TSV, streamed to the file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-accessible.h"
#include "strata-cell-scope.h"
#include "strata-cell-text.h"
#include "strata-palette.h"
#include "strata-profile-view-private.h"
#include "strata-units.h"
#include "strata-widgets.h"

/* ---- Copy and export ---- */

/**
 * strata_profile_view_format_row:
 *
 * Returns: (transfer full): the row's cells in column order, joined by
 *   @separator (CSV quoting when it is a comma)
 */
char *
strata_profile_view_format_row (StrataProfileView *self,
                                StrataProfileRow  *row,
                                char               separator)
{
  GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (self->column_view));
  GString *line = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      GtkListItemFactory *factory = gtk_column_view_column_get_factory (column);
      g_autofree char *text = profile_view_cell_text (self, row, g_object_get_data (G_OBJECT (factory), "spec"));

      if (i > 0)
        g_string_append_c (line, separator);
      if (separator == ',' && strpbrk (text, ",\"\n") != NULL)
        {
          g_auto(GStrv) parts = g_strsplit (text, "\"", -1);
          g_autofree char *escaped = g_strjoinv ("\"\"", parts);

          g_string_append_printf (line, "\"%s\"", escaped);
        }
      else
        g_string_append (line, text);
    }
  return g_string_free (line, FALSE);
}

static char *
format_header (StrataProfileView *self,
               char               separator)
{
  GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (self->column_view));
  GString *line = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (i > 0)
        g_string_append_c (line, separator);
      g_string_append (line, gtk_column_view_column_get_title (column));
    }
  return g_string_free (line, FALSE);
}

/* ---- Keyboard: open and close methods ---- */

static void
expand_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  StrataProfileView *self = STRATA_PROFILE_VIEW (widget);

  profile_view_set_expanded (self, gtk_single_selection_get_selected (self->selection), TRUE);
}

/* On a parent or child row, closing goes back to the method it belongs to. */
static void
collapse_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  StrataProfileView *self = STRATA_PROFILE_VIEW (widget);
  guint position = gtk_single_selection_get_selected (self->selection);
  guint owner;

  if (self->model == NULL || position == GTK_INVALID_LIST_POSITION)
    return;
  owner = strata_profile_model_get_owner (self->model, position);
  profile_view_set_expanded (self, owner, FALSE);
  if (owner != position)
    {
      gtk_single_selection_set_selected (self->selection, owner);
      profile_view_scroll_to_position (self, owner);
    }
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  StrataProfileView *self = STRATA_PROFILE_VIEW (widget);
  StrataProfileRow *row = profile_view_selected_row (self);
  g_autofree char *text = NULL;

  if (row == NULL)
    return;
  text = strata_profile_view_format_row (self, row, '\t');
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

/**
 * strata_profile_view_export:
 *
 * Writes every row on show (methods, and the parents and children of
 * expanded ones) as CSV, or as TSV when the file name ends in .tsv.
 */
gboolean
strata_profile_view_export (StrataProfileView  *self,
                            GFile              *file,
                            GError            **error)
{
  g_autofree char *basename = g_file_get_basename (file);
  char separator = basename && g_str_has_suffix (basename, ".tsv") ? '\t' : ',';
  GListModel *rows = G_LIST_MODEL (self->selection);
  g_autofree char *header = format_header (self, separator);
  g_autoptr(GFileOutputStream) stream = NULL;
  g_autoptr(GOutputStream) out = NULL;

  /* Rows go out as they are formatted: the table is never held as text. */
  stream = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, error);
  if (stream == NULL)
    return FALSE;
  out = g_buffered_output_stream_new_sized (G_OUTPUT_STREAM (stream), 64 * 1024);
  if (!g_output_stream_printf (out, NULL, NULL, error, "%s\n", header))
    return FALSE;
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(StrataProfileRow) row = g_list_model_get_item (rows, i);
      g_autofree char *line = strata_profile_view_format_row (self, row, separator);

      if (!g_output_stream_printf (out, NULL, NULL, error, "%s\n", line))
        return FALSE;
    }
  return g_output_stream_close (out, NULL, error);
}

static void
export_to (StrataProfileView *self,
           GFile             *file)
{
  g_autoptr(GError) error = NULL;

  if (!strata_profile_view_export (self, file, &error))
    g_warning ("Could not export the profile: %s", error->message);
}

#if GTK_CHECK_VERSION (4, 10, 0)
static void
save_dialog_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(StrataProfileView) self = user_data;
  g_autoptr(GFile) file = gtk_file_dialog_save_finish (GTK_FILE_DIALOG (object), result, NULL);

  if (file != NULL)
    export_to (self, file);
}

static void
run_export_dialog (StrataProfileView *self)
{
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();

  gtk_file_dialog_set_title (dialog, _("Export the Profile"));
  gtk_file_dialog_set_initial_name (dialog, "profile.csv");
  gtk_file_dialog_save (dialog, GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self))), NULL,
                        save_dialog_cb, g_object_ref (self));
}
#else
static void
save_response_cb (GtkNativeDialog   *native,
                  int                response,
                  StrataProfileView *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));

      if (file != NULL)
        export_to (self, file);
    }
  gtk_native_dialog_destroy (native);
  g_object_unref (native);
}

static void
run_export_dialog (StrataProfileView *self)
{
  GtkFileChooserNative *native;

  native = gtk_file_chooser_native_new (_("Export the Profile"),
                                        GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self))),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), "profile.csv");
  g_signal_connect_object (native, "response", G_CALLBACK (save_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}
#endif

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  run_export_dialog (STRATA_PROFILE_VIEW (widget));
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  gtk_widget_grab_focus (STRATA_PROFILE_VIEW (widget)->search_entry);
}


void
strata_profile_view_class_init_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "profile.copy", NULL, copy_action);
  gtk_widget_class_install_action (widget_class, "profile.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "profile.search", NULL, search_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "profile.copy", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "profile.search", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_slash, 0, "profile.search", NULL);
  gtk_widget_class_install_action (widget_class, "profile.expand", NULL, expand_action);
  gtk_widget_class_install_action (widget_class, "profile.collapse", NULL, collapse_action);
}
