/* strata-profile-view-actions.c: the profile's keys, copy and export
 *
 * Ctrl+C copies the selected row as text; Export writes every method (or
 * the rows on show) as CSV or TSV, numbers as numbers, streamed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-accessible.h"
#include "strata-cell-scope.h"
#include "strata-cell-text.h"
#include "strata-export-dialog.h"
#include "strata-palette.h"
#include "strata-profile-view-private.h"
#include "strata-csv-export.h"
#include "strata-units.h"
#include "strata-widgets.h"

/* ---- Copy and export ---- */

/**
 * strata_profile_view_format_row:
 *
 * Returns: (transfer full): the row's cells as shown, in column order,
 *   joined by tabs (what Ctrl+C copies; exports write numbers instead)
 */
char *
strata_profile_view_format_row (StrataProfileView *self,
                                StrataProfileRow  *row)
{
  GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (self->column_view));
  GString *line = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      GtkListItemFactory *factory = gtk_column_view_column_get_factory (column);
      g_autofree char *text = profile_view_cell_text (self, row, g_object_get_data (G_OBJECT (factory), "spec"));

      if (i > 0)
        g_string_append_c (line, '\t');
      g_string_append (line, text);
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
  text = strata_profile_view_format_row (self, row);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

/**
 * strata_profile_view_export:
 * @filtered: only the rows on show (the filter's matches, and the parents
 *   and children of expanded methods), rather than every method
 *
 * Writes the profile as CSV, or as TSV when the file name ends in .tsv:
 * times in whole nanoseconds (or samples), percentages as plain decimals,
 * calls and recursive calls apart, every clock whatever columns are shown.
 */
gboolean
strata_profile_view_export (StrataProfileView  *self,
                            GFile              *file,
                            gboolean            filtered,
                            GError            **error)
{
  g_autoptr(StrataCsvWriter) writer = NULL;

  if (self->profile == NULL)
    return g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("There is no profile to export")), FALSE;
  if ((writer = strata_csv_writer_new (file, error)) == NULL)
    return FALSE;
  return strata_csv_export_profile (writer, self->profile, filtered ? G_LIST_MODEL (self->selection) : NULL, error) &&
         strata_csv_writer_finish (writer, error);
}

static gboolean
export_cb (GtkWidget  *widget,
           GFile      *file,
           gpointer    data,
           GError    **error)
{
  return strata_profile_view_export (STRATA_PROFILE_VIEW (widget), file, GPOINTER_TO_INT (data), error);
}

/* profile.export writes every method; profile.export-filtered the rows
 * on show. */
static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  StrataProfileView *self = STRATA_PROFILE_VIEW (widget);
  gboolean filtered = g_str_equal (action_name, "profile.export-filtered");
  StrataTrace *trace = strata_session_get_trace (self->session);
  g_autofree char *name = strata_csv_export_name (trace,
                                                    filtered ? "profile-filtered" : "profile");

  strata_export_dialog_run (widget, _("Export the Profile"), name, export_cb, GINT_TO_POINTER (filtered));
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
  gtk_widget_class_install_action (widget_class, "profile.export-filtered", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "profile.search", NULL, search_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "profile.copy", NULL);
  gtk_widget_class_install_action (widget_class, "profile.expand", NULL, expand_action);
  gtk_widget_class_install_action (widget_class, "profile.collapse", NULL, collapse_action);
}
