/* strata-report-notes.c: the notes written on a trace in the window, for
 * `strata -r`: each with where it is and what it is on
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-description.h"
#include "strata-notes.h"
#include "strata-report-private.h"
#include "strata-units.h"

/* The notes kept for the trace's file; why a store cannot be read goes
 * in @error_message. */
static GArray *
load_notes (StrataTrace  *trace,
            char        **error_message)
{
  GFile *file = strata_trace_get_file (trace);
  g_autoptr(GError) error = NULL;
  GArray *notes;

  if (file == NULL)
    return strata_notes_new ();
  notes = strata_notes_load (file, &error);
  if (error != NULL)
    *error_message = g_strdup (error->message);
  return notes;
}

void
strata_report_print_user_notes (StrataTrace *trace)
{
  g_autofree char *error = NULL;
  g_autoptr(GArray) notes = load_notes (trace, &error);
  gint64 origin = strata_trace_get_clock_origin (trace, 0);

  if (notes->len == 0 && error == NULL)
    return;
  /* Translators: the notes a person wrote on the trace in the window */
  g_print ("\n%s\n", _("User notes"));
  if (error != NULL)
    g_print ("  %s\n", error);
  for (guint i = 0; i < notes->len; i++)
    {
      const StrataNote *note = &g_array_index (notes, StrataNote, i);
      g_autofree char *from = strata_units_format_duration (note->start - origin);
      g_autofree char *to = strata_units_format_duration (note->end - origin);
      StrataSliceRef call;

      if (strata_note_find_call (note, trace, &call))
        {
          g_autofree char *thread = strata_describe_thread_short (trace, call.thread);

          g_print ("  %s – %s  %s, %s\n    %s\n", from, to, note->method, thread, note->text);
        }
      else
        g_print ("  %s – %s\n    %s\n", from, to, note->text);
    }
}

void
strata_report_write_json_user_notes (StrataJsonWriter *json,
                                     StrataTrace      *trace)
{
  g_autofree char *error = NULL;
  g_autoptr(GArray) notes = load_notes (trace, &error);
  gint64 origin = strata_trace_get_clock_origin (trace, 0);

  strata_json_writer_member (json, "user_notes");
  strata_json_writer_begin_array (json);
  for (guint i = 0; i < notes->len; i++)
    {
      const StrataNote *note = &g_array_index (notes, StrataNote, i);
      StrataSliceRef call;

      strata_json_writer_begin_object (json);
      strata_json_writer_member (json, "text");
      strata_json_writer_string (json, note->text);
      strata_json_writer_member (json, "start_ns");
      strata_json_writer_int (json, note->start - origin);
      strata_json_writer_member (json, "end_ns");
      strata_json_writer_int (json, note->end - origin);
      strata_json_writer_member (json, "call");
      if (strata_note_find_call (note, trace, &call))
        {
          const StrataThread *thread = strata_trace_get_thread (trace, call.thread);

          strata_json_writer_begin_object (json);
          strata_json_writer_member (json, "method");
          strata_json_writer_string (json, note->method);
          strata_json_writer_member (json, "thread");
          strata_json_writer_string (json, strata_trace_get_string (trace, thread->name));
          strata_json_writer_member (json, "tid");
          strata_json_writer_int (json, thread->tid);
          strata_json_writer_member (json, "depth");
          strata_json_writer_uint (json, call.depth);
          strata_json_writer_end_object (json);
        }
      else
        strata_json_writer_null (json);
      strata_json_writer_end_object (json);
    }
  strata_json_writer_end_array (json);
  if (error != NULL)
    {
      strata_json_writer_member (json, "user_notes_error");
      strata_json_writer_string (json, error);
    }
}
