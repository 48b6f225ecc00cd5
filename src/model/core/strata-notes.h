/* strata-notes.h: what a person wrote about a trace, kept for its file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "strata-trace.h"

G_BEGIN_DECLS

/* The longest note kept, in bytes. */
#define STRATA_NOTE_MAX_TEXT 4096

/* A note on a time range, or on a call when @on_call: the call is
 * @depth, @index in the thread of id @tid, and was a call of @method
 * when the note was written. Times are ns on the trace's first clock. */
typedef struct
{
  char     *text;
  gint64    start;
  gint64    end;
  gboolean  on_call;
  gint64    tid;
  guint     depth;
  guint32   index;
  char     *method;
} StrataNote;

/* Where a note is drawn: on one clock, its text borrowed. */
typedef struct
{
  gint64      start;
  gint64      end;
  const char *text;
  guint       note;   /* its index among the notes */
} StrataNoteMark;

GArray   *strata_notes_new          (void);
GArray   *strata_notes_load         (GFile             *trace_file,
                                     GError           **error);
GArray   *strata_notes_parse        (const char        *contents,
                                     gsize              len,
                                     gint64             size,
                                     gint64             modified,
                                     GError           **error);
gboolean  strata_notes_save         (GFile             *trace_file,
                                     const GArray      *notes,
                                     GError           **error);
char     *strata_notes_path         (GFile             *trace_file);
void      strata_note_init_range    (StrataNote        *note,
                                     const char        *text,
                                     gint64             start,
                                     gint64             end);
gboolean  strata_note_init_call     (StrataNote        *note,
                                     const char        *text,
                                     StrataTrace       *trace,
                                     const StrataSliceRef *call);
gboolean  strata_note_find_call     (const StrataNote  *note,
                                     StrataTrace       *trace,
                                     StrataSliceRef    *call);
void      strata_note_set_text      (StrataNote        *note,
                                     const char        *text);
GArray   *strata_notes_marks        (const GArray      *notes,
                                     StrataTrace       *trace,
                                     guint              clock);

G_END_DECLS
