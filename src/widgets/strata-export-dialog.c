/* strata-export-dialog.c: the save dialog every table's Export opens
 *
 * GtkFileDialog where GTK has it (4.10), else a native file chooser; the
 * table is written when the user picks a file, and a failure is shown
 * in a dialog rather than lost in a log.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-export-dialog.h"

typedef struct
{
  GtkWidget        *widget;
  StrataExportFunc  export;
  gpointer          data;
  GDestroyNotify    destroy;
} ExportRequest;

static void
export_request_free (ExportRequest *request)
{
  if (request->destroy != NULL)
    request->destroy (request->data);
  g_object_unref (request->widget);
  g_free (request);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ExportRequest, export_request_free)

static void
export_to (ExportRequest *request,
           GFile         *file)
{
  g_autoptr(GError) error = NULL;
  GtkRoot *root = gtk_widget_get_root (request->widget);

  if (request->export (request->widget, file, request->data, &error))
    return;
  {
    g_autofree char *name = g_file_get_parse_name (file);
    /* Translators: %s is a file name */
    GtkWidget *dialog = gtk_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                                GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                                _("Could not write “%s”"), name);

    gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", error->message);
    g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
    gtk_window_present (GTK_WINDOW (dialog));
  }
}

#if GTK_CHECK_VERSION (4, 10, 0)
static void
save_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(ExportRequest) request = user_data;
  g_autoptr(GFile) file = gtk_file_dialog_save_finish (GTK_FILE_DIALOG (object), result, NULL);

  if (file != NULL)
    export_to (request, file);
}

static void
show_dialog (ExportRequest *request,
             const char    *title,
             const char    *initial_name)
{
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
  GtkRoot *root = gtk_widget_get_root (request->widget);

  gtk_file_dialog_set_title (dialog, title);
  gtk_file_dialog_set_initial_name (dialog, initial_name);
  gtk_file_dialog_save (dialog, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, NULL, save_cb, request);
}
#else
static void
response_cb (GtkNativeDialog *native,
             int              response,
             ExportRequest   *request)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));

      if (file != NULL)
        export_to (request, file);
    }
  gtk_native_dialog_destroy (native);
  g_object_unref (native);
  export_request_free (request);
}

static void
show_dialog (ExportRequest *request,
             const char    *title,
             const char    *initial_name)
{
  GtkRoot *root = gtk_widget_get_root (request->widget);
  GtkFileChooserNative *native;

  native = gtk_file_chooser_native_new (title, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), initial_name);
  g_signal_connect (native, "response", G_CALLBACK (response_cb), request);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}
#endif

/**
 * strata_export_dialog_run:
 * @initial_name: the file name offered, after the trace and the table
 * @export: writes the table; called with @widget and @data
 *
 * Asks where to save, then exports there.
 */
void
strata_export_dialog_run (GtkWidget        *widget,
                          const char       *title,
                          const char       *initial_name,
                          StrataExportFunc  export,
                          gpointer          data)
{
  strata_export_dialog_run_full (widget, title, initial_name, export, data, NULL);
}

/* The same, @destroy called on @data when the dialog is done, picked or not. */
void
strata_export_dialog_run_full (GtkWidget        *widget,
                               const char       *title,
                               const char       *initial_name,
                               StrataExportFunc  export,
                               gpointer          data,
                               GDestroyNotify    destroy)
{
  ExportRequest *request = g_new0 (ExportRequest, 1);

  request->widget = g_object_ref (widget);
  request->export = export;
  request->data = data;
  request->destroy = destroy;
  show_dialog (request, title, initial_name);
}
