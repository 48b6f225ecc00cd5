/* strata-notes-view.c: the Notes page, what was written about the trace
 *
 * Each note with what it is on (a call, or a time range) and buttons to
 * change or remove it; activating a note selects its call or range in
 * the timeline and zooms there. New notes come from here (Add Note, on
 * what the timeline has selected) or from N in the timeline.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-note-editor.h"
#include "strata-notes-view.h"
#include "strata-units.h"

struct _StrataNotesView
{
  GtkWidget      parent_instance;

  StrataSession *session;
  GtkWidget     *box;
  GtkWidget     *add_button;
  GtkWidget     *status;
  GtkWidget     *list;
  GtkWidget     *stack;
};

G_DEFINE_FINAL_TYPE (StrataNotesView, strata_notes_view, GTK_TYPE_WIDGET)

/* ---- Changing and removing ---- */

typedef struct
{
  StrataNotesView *view;
  guint            index;
} NoteRef;

static void
note_changed_cb (const char *text,
                 gpointer    data)
{
  NoteRef *ref = data;

  strata_session_set_note_text (ref->view->session, ref->index, text, NULL);
}

static void
edit_clicked_cb (GtkButton *button,
                 NoteRef   *ref)
{
  const GArray *notes = strata_session_get_notes (ref->view->session);

  if (notes == NULL || ref->index >= notes->len)
    return;
  strata_note_editor_popup (GTK_WIDGET (button), NULL, _("Change Note"),
                            g_array_index (notes, StrataNote, ref->index).text, note_changed_cb, ref);
}

static void
remove_clicked_cb (GtkButton *button,
                   NoteRef   *ref)
{
  strata_session_remove_note (ref->view->session, ref->index, NULL);
}

static void
note_written_cb (const char *text,
                 gpointer    data)
{
  StrataNotesView *self = data;

  strata_session_add_note (self->session, text, NULL);
}

/**
 * strata_notes_view_add:
 *
 * As Add Note: a note on the timeline's selected call, or else on its
 * selected range.
 */
void
strata_notes_view_add (StrataNotesView *self)
{
  g_autofree char *title = NULL;

  g_return_if_fail (STRATA_IS_NOTES_VIEW (self));

  if ((title = strata_note_editor_describe_target (self->session)) == NULL)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  strata_note_editor_popup (self->add_button, NULL, title, NULL, note_written_cb, self);
}

/* ---- The list ---- */

/* "1.20 ms – 3.40 ms · on RunTask": where the note is. */
static char *
describe_place (StrataNotesView  *self,
                const StrataNote *note)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  gint64 origin = strata_trace_get_clock_origin (trace, 0);
  g_autofree char *from = strata_units_format_duration (note->start - origin);
  g_autofree char *to = strata_units_format_duration (note->end - origin);
  g_autofree char *clipped = NULL;
  StrataSliceRef call;

  if (strata_note_find_call (note, trace, &call))
    /* Translators: where a note on a call is: its times and the call's method */
    return g_strdup_printf (_("%s – %s · on %s"), from, to, strata_units_clip_for_display (note->method, &clipped));
  if (note->on_call)
    /* Translators: where a note is whose call the trace no longer has */
    return g_strdup_printf (_("%s – %s · on %s, no longer in the trace"), from, to,
                            strata_units_clip_for_display (note->method, &clipped));
  /* Translators: where a note on a time range is */
  return g_strdup_printf (_("%s – %s"), from, to);
}

static GtkWidget *
icon_button (const char *icon,
             const char *tooltip)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  return button;
}

static GtkWidget *
make_row (StrataNotesView  *self,
          const StrataNote *note,
          guint             index)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *text = gtk_label_new (note->text);
  g_autofree char *where = describe_place (self, note);
  GtkWidget *place = gtk_label_new (where);
  GtkWidget *edit = icon_button ("document-edit-symbolic", _("Change Note"));
  GtkWidget *remove = icon_button ("user-trash-symbolic", _("Remove Note"));
  NoteRef *ref = g_new (NoteRef, 1);

  *ref = (NoteRef) { self, index };
  g_object_set_data_full (G_OBJECT (row), "strata-note", ref, g_free);
  gtk_label_set_xalign (GTK_LABEL (text), 0);
  gtk_label_set_wrap (GTK_LABEL (text), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (text), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (place), 0);
  gtk_label_set_ellipsize (GTK_LABEL (place), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (place, "dim-label");
  gtk_widget_add_css_class (place, "caption");
  gtk_box_append (GTK_BOX (texts), text);
  gtk_box_append (GTK_BOX (texts), place);
  gtk_widget_set_hexpand (texts, TRUE);
  g_signal_connect (edit, "clicked", G_CALLBACK (edit_clicked_cb), ref);
  g_signal_connect (remove, "clicked", G_CALLBACK (remove_clicked_cb), ref);
  gtk_box_append (GTK_BOX (line), texts);
  gtk_box_append (GTK_BOX (line), edit);
  gtk_box_append (GTK_BOX (line), remove);
  g_object_set (line, "margin-start", 6, "margin-end", 6, "margin-top", 4, "margin-bottom", 4, NULL);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), line);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, note->text, -1);
  return row;
}

static void
refill (StrataNotesView *self)
{
  const GArray *notes = strata_session_get_notes (self->session);
  const char *error = strata_session_get_notes_error (self->session);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->list)) != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (self->list), child);
  for (guint i = 0; notes != NULL && i < notes->len; i++)
    gtk_list_box_append (GTK_LIST_BOX (self->list), make_row (self, &g_array_index (notes, StrataNote, i), i));
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), notes != NULL && notes->len > 0 ? "list" : "empty");
  gtk_label_set_text (GTK_LABEL (self->status), error != NULL ? error : "");
  gtk_widget_set_visible (self->status, error != NULL);
}

static void
update_add_button (StrataNotesView *self)
{
  StrataSelectedKind kind;
  StrataSliceRef call;
  gint64 start, end;

  gtk_widget_set_sensitive (self->add_button, strata_session_get_note_target (self->session, &kind, &call, &start, &end));
}

static void
row_activated_cb (StrataNotesView *self,
                  GtkListBoxRow   *row)
{
  NoteRef *ref = g_object_get_data (G_OBJECT (row), "strata-note");

  strata_session_go_to_note (self->session, ref->index);
}

/* ---- Building ---- */

static void
build (StrataNotesView *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *hint = gtk_label_new (_("Select a call, or a range with Shift and drag, then press N in the timeline or Add Note."));
  GtkWidget *empty = gtk_label_new (_("No notes on this trace yet. Notes are kept for this file and go with its reports and images."));
  GtkWidget *scroller = gtk_scrolled_window_new ();

  self->add_button = gtk_button_new_with_mnemonic (_("_Add Note"));
  gtk_widget_set_tooltip_text (self->add_button, _("A note on the selected call or range (N)"));
  g_signal_connect_swapped (self->add_button, "clicked", G_CALLBACK (strata_notes_view_add), self);
  gtk_label_set_xalign (GTK_LABEL (hint), 0);
  gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
  gtk_widget_add_css_class (hint, "dim-label");
  gtk_widget_set_hexpand (hint, TRUE);
  gtk_box_append (GTK_BOX (bar), self->add_button);
  gtk_box_append (GTK_BOX (bar), hint);
  g_object_set (bar, "margin-start", 6, "margin-end", 6, "margin-top", 6, NULL);

  self->status = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->status), 0);
  gtk_label_set_wrap (GTK_LABEL (self->status), TRUE);
  gtk_widget_add_css_class (self->status, "error");
  gtk_widget_set_visible (self->status, FALSE);
  g_object_set (self->status, "margin-start", 6, "margin-end", 6, NULL);

  self->list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (self->list), GTK_SELECTION_NONE);
  gtk_list_box_set_activate_on_single_click (GTK_LIST_BOX (self->list), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Notes"), -1);
  g_signal_connect_swapped (self->list, "row-activated", G_CALLBACK (row_activated_cb), self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->list);
  gtk_label_set_wrap (GTK_LABEL (empty), TRUE);
  gtk_widget_add_css_class (empty, "dim-label");
  self->stack = gtk_stack_new ();
  gtk_stack_add_named (GTK_STACK (self->stack), empty, "empty");
  gtk_stack_add_named (GTK_STACK (self->stack), scroller, "list");
  gtk_widget_set_vexpand (self->stack, TRUE);

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_box_append (GTK_BOX (self->box), bar);
  gtk_box_append (GTK_BOX (self->box), self->status);
  gtk_box_append (GTK_BOX (self->box), self->stack);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
}

static void
strata_notes_view_dispose (GObject *object)
{
  StrataNotesView *self = STRATA_NOTES_VIEW (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (strata_notes_view_parent_class)->dispose (object);
}

static void
strata_notes_view_class_init (StrataNotesViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strata_notes_view_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "notesview");
}

static void
strata_notes_view_init (StrataNotesView *self)
{
  build (self);
}

GtkWidget *
strata_notes_view_new (StrataSession *session)
{
  StrataNotesView *self;

  g_return_val_if_fail (STRATA_IS_SESSION (session), NULL);

  self = g_object_new (STRATA_TYPE_NOTES_VIEW, NULL);
  self->session = g_object_ref (session);
  g_signal_connect_object (session, "notes-changed", G_CALLBACK (refill), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::clock", G_CALLBACK (refill), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "selected-item-changed", G_CALLBACK (update_add_button), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "selection-range-changed", G_CALLBACK (update_add_button), self, G_CONNECT_SWAPPED);
  refill (self);
  update_add_button (self);
  return GTK_WIDGET (self);
}

/* Returns: (transfer none): the list of notes, a GtkListBox */
GtkWidget *
strata_notes_view_get_list (StrataNotesView *self)
{
  g_return_val_if_fail (STRATA_IS_NOTES_VIEW (self), NULL);

  return self->list;
}
