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
#include "strata-table-writer.h"
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

static void
write_profile_header (StrataTableWriter *writer,
                      StrataTrace       *trace,
                      guint              n_clocks)
{
  /* Translators: CSV column headers; "%s" is a clock's name, (%s) its unit */
  strata_table_writer_add_text (writer, C_("export", "Kind"));
  strata_table_writer_add_text (writer, C_("export", "Name"));
  for (guint c = 0; c < n_clocks; c++)
    strata_table_writer_add_profile_headers (writer, trace, c);
  strata_table_writer_add_text (writer, C_("export", "Calls"));
  strata_table_writer_add_text (writer, C_("export", "Recursive calls"));
  for (guint c = 0; c < n_clocks; c++)
    {
      g_autofree char *per_call = g_strdup_printf (C_("export", "Incl per call %s (%s)"),
                                                   strata_trace_get_clock_name (trace, c), strata_table_clock_unit (trace, c));

      strata_table_writer_add_text (writer, per_call);
    }
}

/* A method, or one of its callers or callees (no exclusive time or
 * recursive calls of its own: those cells stay empty). */
static void
write_profile_row (StrataTableWriter *writer,
                   StrataProfile     *profile,
                   StrataProfileRow  *row)
{
  static const char *const kinds[] = { "method", "parent", "child" };
  StrataProfileRowKind kind = strata_profile_row_get_kind (row);
  gboolean edge = kind != STRATA_PROFILE_ROW_METHOD;
  guint n_clocks = strata_profile_get_n_clocks (profile);

  strata_table_writer_add_text (writer, kinds[kind]);
  strata_table_writer_add_text (writer, strata_profile_row_get_name (row));
  for (guint c = 0; c < n_clocks; c++)
    {
      gint64 total = strata_profile_get_total (profile, c);

      strata_table_writer_add_int (writer, strata_profile_row_get_inclusive (row, c));
      strata_table_writer_add_percent (writer, strata_profile_row_get_inclusive (row, c), total);
      if (edge)
        {
          strata_table_writer_add_empty (writer);
          strata_table_writer_add_empty (writer);
          continue;
        }
      strata_table_writer_add_int (writer, strata_profile_row_get_exclusive (row, c));
      strata_table_writer_add_percent (writer, strata_profile_row_get_exclusive (row, c), total);
    }
  strata_table_writer_add_uint (writer, strata_profile_row_get_calls (row));
  if (edge)
    strata_table_writer_add_empty (writer);
  else
    strata_table_writer_add_uint (writer, strata_profile_row_get_recursive_calls (row));
  for (guint c = 0; c < n_clocks; c++)
    strata_table_writer_add_int (writer, strata_profile_row_get_time_per_call (row, c));
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
  g_autoptr(StrataTableWriter) writer = NULL;
  StrataTrace *trace;
  guint n_clocks;

  if (self->profile == NULL)
    return g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("There is no profile to export")), FALSE;
  if ((writer = strata_table_writer_new (file, error)) == NULL)
    return FALSE;
  trace = strata_profile_get_trace (self->profile);
  n_clocks = strata_profile_get_n_clocks (self->profile);
  write_profile_header (writer, trace, n_clocks);
  if (!strata_table_writer_end_row (writer, error))
    return FALSE;
  if (filtered)
    {
      GListModel *rows = G_LIST_MODEL (self->selection);

      for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
        {
          g_autoptr(StrataProfileRow) row = g_list_model_get_item (rows, i);

          write_profile_row (writer, self->profile, row);
          if (!strata_table_writer_end_row (writer, error))
            return FALSE;
        }
    }
  else
    {
      guint n;
      const guint32 *sorted = strata_profile_get_sorted (self->profile, 0, &n);
      g_autoptr(StrataProfileRow) row = NULL;

      /* One row object, pointed at each method in turn. */
      for (guint i = 0; i < n; i++)
        {
          const StrataProfileEntry *entry = strata_profile_get_entry (self->profile, sorted[i]);

          if (entry->calls + entry->recursive_calls == 0)
            continue;
          if (row == NULL)
            row = strata_profile_row_new_method (self->profile, sorted[i]);
          else
            strata_profile_row_set_method (row, sorted[i], FALSE);
          write_profile_row (writer, self->profile, row);
          if (!strata_table_writer_end_row (writer, error))
            return FALSE;
        }
    }
  return strata_table_writer_finish (writer, error);
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
  g_autofree char *name = strata_table_export_name (trace,
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
