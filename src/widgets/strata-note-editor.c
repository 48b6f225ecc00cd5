/* strata-note-editor.c: a popover to write or change a note
 *
 * One entry under a heading that says what the note is on; Enter or
 * Save keeps it, Esc or a click elsewhere drops it. The popover takes
 * itself apart when it closes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-session.h"
#include "strata-note-editor.h"
#include "strata-units.h"

typedef struct
{
  GtkWidget            *popover;
  GtkWidget            *entry;
  StrataNoteEditorDone  done;
  gpointer              data;
} Editor;

static void
save_cb (Editor *editor)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (editor->entry))));
  /* Keeping the note can take the popover's parent away (a row of the
   * notes made anew), and the popover and @editor with it. */
  g_autoptr(GtkWidget) popover = g_object_ref (editor->popover);
  StrataNoteEditorDone done = editor->done;
  gpointer data = editor->data;

  if (*text == '\0')
    {
      gtk_widget_error_bell (editor->entry);
      return;
    }
  gtk_popover_popdown (GTK_POPOVER (popover));
  done (text, data);
}

static gboolean
unparent_later (gpointer data)
{
  if (gtk_widget_get_parent (data) != NULL)
    gtk_widget_unparent (data);
  g_object_unref (data);
  return G_SOURCE_REMOVE;
}

static void
closed_cb (GtkPopover *popover)
{
  /* Not while it is still closing: GTK is in its handlers. */
  g_idle_add (unparent_later, g_object_ref (popover));
}

/* A widget gives up only the children it knows of: a popover still open
 * (or closing) when its parent goes is taken off it here. */
static void
parent_destroyed_cb (GtkWidget *popover)
{
  if (gtk_widget_get_parent (popover) != NULL)
    gtk_widget_unparent (popover);
}

/**
 * strata_note_editor_popup:
 * @parent: the widget the popover belongs to and points into
 * @pointing_to: (nullable): where in @parent
 * @text: (nullable): the note as it is, to change it
 * @done: what to do with the text kept, with @data
 *
 * Returns: (transfer none): the popover, shown
 */
GtkWidget *
strata_note_editor_popup (GtkWidget            *parent,
                          const GdkRectangle   *pointing_to,
                          const char           *title,
                          const char           *text,
                          StrataNoteEditorDone  done,
                          gpointer              data)
{
  Editor *editor = g_new0 (Editor, 1);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkWidget *heading = gtk_label_new (title);
  GtkWidget *save = gtk_button_new_with_mnemonic (_("_Save Note"));

  editor->done = done;
  editor->data = data;
  editor->popover = gtk_popover_new ();
  g_object_set_data_full (G_OBJECT (editor->popover), "strata-note-editor", editor, g_free);
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_label_set_ellipsize (GTK_LABEL (heading), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (heading), 48);
  gtk_widget_add_css_class (heading, "heading");
  editor->entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (editor->entry), _("What happens here"));
  gtk_entry_set_max_length (GTK_ENTRY (editor->entry), 1000);
  gtk_editable_set_width_chars (GTK_EDITABLE (editor->entry), 40);
  gtk_accessible_update_property (GTK_ACCESSIBLE (editor->entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Text of the Note"), -1);
  if (text != NULL)
    gtk_editable_set_text (GTK_EDITABLE (editor->entry), text);
  g_signal_connect_swapped (editor->entry, "activate", G_CALLBACK (save_cb), editor);
  gtk_widget_add_css_class (save, "suggested-action");
  gtk_widget_set_halign (save, GTK_ALIGN_END);
  g_signal_connect_swapped (save, "clicked", G_CALLBACK (save_cb), editor);
  gtk_box_append (GTK_BOX (box), heading);
  gtk_box_append (GTK_BOX (box), editor->entry);
  gtk_box_append (GTK_BOX (box), save);
  g_object_set (box, "margin-start", 6, "margin-end", 6, "margin-top", 6, "margin-bottom", 6, NULL);
  gtk_popover_set_child (GTK_POPOVER (editor->popover), box);
  gtk_widget_set_parent (editor->popover, parent);
  g_signal_connect_object (parent, "destroy", G_CALLBACK (parent_destroyed_cb), editor->popover, G_CONNECT_SWAPPED);
  if (pointing_to != NULL)
    gtk_popover_set_pointing_to (GTK_POPOVER (editor->popover), pointing_to);
  gtk_popover_set_default_widget (GTK_POPOVER (editor->popover), save);
  g_signal_connect (editor->popover, "closed", G_CALLBACK (closed_cb), NULL);
  gtk_popover_popup (GTK_POPOVER (editor->popover));
  gtk_widget_grab_focus (editor->entry);
  return editor->popover;
}

/**
 * strata_note_editor_describe_target:
 *
 * Returns: (transfer full) (nullable): what a new note would be on, as
 *   the editor's heading says it; %NULL when nothing is selected
 */
char *
strata_note_editor_describe_target (StrataSession *session)
{
  StrataTrace *trace = strata_session_get_trace (session);
  StrataSelectedKind kind;
  StrataSliceRef call;
  gint64 start, end, origin;
  g_autofree char *from = NULL, *to = NULL, *clipped = NULL;

  if (!strata_session_get_note_target (session, &kind, &call, &start, &end))
    return NULL;
  if (kind == STRATA_SELECTED_CALL)
    {
      guint32 method = strata_trace_get_thread (trace, call.thread)->spans->calls[call.depth][call.index].method;

      /* Translators: the heading of a new note on a call: the call's method */
      return g_strdup_printf (_("Note on %s"), strata_units_clip_for_display (strata_trace_get_method_name (trace, method), &clipped));
    }
  origin = strata_trace_get_clock_origin (trace, strata_session_get_clock (session));
  from = strata_units_format_duration (start - origin);
  to = strata_units_format_duration (end - origin);
  /* Translators: the heading of a new note on a time range */
  return g_strdup_printf (_("Note on %s – %s"), from, to);
}
