/* strata-session-notes.c: the notes on the session's trace
 *
 * Loaded with the trace from the notes store (strata-notes.c) and saved
 * there after every change, so the window, reports and image exports
 * all see them. A trace read from memory, with no file, keeps its notes
 * for the session only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-session-private.h"

static guint notes_changed_signal;

void
strata_session_notes_class_init (GObjectClass *klass)
{
  /**
   * StrataSession::notes-changed:
   *
   * A note was added, changed or removed, or another trace's came in.
   */
  notes_changed_signal =
    g_signal_new ("notes-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

void
strata_session_notes_clear (StrataSession *self)
{
  g_clear_pointer (&self->notes, g_array_unref);
  g_clear_pointer (&self->note_marks, g_array_unref);
  g_clear_pointer (&self->notes_error, g_free);
}

static void
notes_changed (StrataSession *self)
{
  g_clear_pointer (&self->note_marks, g_array_unref);
  g_signal_emit (self, notes_changed_signal, 0);
}

/* The trace's notes, from the store: called when the trace changes. */
void
strata_session_load_notes (StrataSession *self)
{
  GFile *file = self->trace != NULL ? strata_trace_get_file (self->trace) : NULL;
  g_autoptr(GError) error = NULL;

  strata_session_notes_clear (self);
  if (self->trace != NULL)
    self->notes = file != NULL ? strata_notes_load (file, &error) : strata_notes_new ();
  if (error != NULL)
    self->notes_error = g_strdup (error->message);
  notes_changed (self);
}

static gboolean
save (StrataSession  *self,
      GError        **error)
{
  GFile *file = strata_trace_get_file (self->trace);
  g_autoptr(GError) local_error = NULL;

  notes_changed (self);
  g_clear_pointer (&self->notes_error, g_free);
  if (file == NULL || strata_notes_save (file, self->notes, &local_error))
    return TRUE;
  self->notes_error = g_strdup (local_error->message);
  g_propagate_error (error, g_steal_pointer (&local_error));
  return FALSE;
}

/**
 * strata_session_get_notes:
 *
 * Returns: (transfer none) (nullable): StrataNote, in the order written
 */
const GArray *
strata_session_get_notes (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), NULL);

  return self->notes;
}

/**
 * strata_session_get_notes_error:
 *
 * Returns: (nullable): why the notes could not be read or kept, the last
 *   time that was tried
 */
const char *
strata_session_get_notes_error (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), NULL);

  return self->notes_error;
}

/**
 * strata_session_get_note_marks:
 *
 * Returns: (transfer none) (nullable): StrataNoteMark on the session's
 *   clock, by start, for the timeline to draw
 */
const GArray *
strata_session_get_note_marks (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), NULL);

  if (self->note_marks == NULL && self->notes != NULL && self->notes->len > 0)
    self->note_marks = strata_notes_marks (self->notes, self->trace, self->clock);
  return self->note_marks;
}

/* The clock changed: the marks of notes on calls move. */
void
strata_session_notes_clock_changed (StrataSession *self)
{
  g_clear_pointer (&self->note_marks, g_array_unref);
}

/**
 * strata_session_get_note_target:
 * @call: (out): the selected call, for %STRATA_SELECTED_CALL
 *
 * What a new note would be on: the selected call, else the selected
 * range (%STRATA_SELECTED_NOTHING with @start and @end set), else
 * nothing (and %FALSE).
 */
gboolean
strata_session_get_note_target (StrataSession      *self,
                                StrataSelectedKind *kind,
                                StrataSliceRef     *call,
                                gint64             *start,
                                gint64             *end)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), FALSE);

  if (self->trace == NULL || self->notes == NULL)
    return FALSE;
  *kind = STRATA_SELECTED_NOTHING;
  if (self->selected_kind == STRATA_SELECTED_CALL)
    {
      *kind = STRATA_SELECTED_CALL;
      *call = self->selected_call;
      *start = strata_span_table_get_start (strata_trace_get_thread (self->trace, call->thread)->spans, self->clock,
                                            call->depth, call->index);
      *end = strata_span_table_get_end (strata_trace_get_thread (self->trace, call->thread)->spans, self->clock,
                                        call->depth, call->index);
      return TRUE;
    }
  /* A range on the first clock: the one its times are kept on. */
  if (self->has_range && self->clock == 0)
    {
      *start = self->range_start;
      *end = self->range_end;
      return TRUE;
    }
  return FALSE;
}

/**
 * strata_session_add_note:
 *
 * A note with @text on what strata_session_get_note_target() gives,
 * kept at once.
 *
 * Returns: whether it was added and kept; added but not kept sets @error
 */
gboolean
strata_session_add_note (StrataSession  *self,
                         const char     *text,
                         GError        **error)
{
  StrataSelectedKind kind;
  StrataSliceRef call;
  StrataNote note;
  gint64 start, end;

  g_return_val_if_fail (STRATA_IS_SESSION (self), FALSE);

  if (!strata_session_get_note_target (self, &kind, &call, &start, &end))
    return FALSE;
  if (kind == STRATA_SELECTED_CALL)
    strata_note_init_call (&note, text, self->trace, &call);
  else
    strata_note_init_range (&note, text, start, end);
  g_array_append_val (self->notes, note);
  return save (self, error);
}

gboolean
strata_session_set_note_text (StrataSession  *self,
                              guint           index,
                              const char     *text,
                              GError        **error)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), FALSE);
  g_return_val_if_fail (self->notes != NULL && index < self->notes->len, FALSE);

  strata_note_set_text (&g_array_index (self->notes, StrataNote, index), text);
  return save (self, error);
}

gboolean
strata_session_remove_note (StrataSession  *self,
                            guint           index,
                            GError        **error)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), FALSE);
  g_return_val_if_fail (self->notes != NULL && index < self->notes->len, FALSE);

  g_array_remove_index (self->notes, index);
  return save (self, error);
}

/**
 * strata_session_go_to_note:
 *
 * Selects what the note is on (its call, or its range) and zooms there.
 */
void
strata_session_go_to_note (StrataSession *self,
                           guint          index)
{
  const StrataNote *note;
  StrataSliceRef call;

  g_return_if_fail (STRATA_IS_SESSION (self));
  g_return_if_fail (self->notes != NULL && index < self->notes->len);

  note = &g_array_index (self->notes, StrataNote, index);
  if (strata_note_find_call (note, self->trace, &call))
    {
      strata_session_select_call (self, &call);
      strata_session_zoom_to_call (self, &call);
      return;
    }
  if (self->clock != 0)
    strata_session_set_clock (self, 0);
  strata_session_set_selection_range (self, note->start, note->end);
  strata_session_zoom_to_selection (self);
}
