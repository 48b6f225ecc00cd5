/* strata-notes.c: what a person wrote about a trace, kept for its file
 *
 * A note is text on a time range or on one call. Strata never writes to
 * or beside a trace, so a file's notes live in the user's data folder
 * (strata/notes/, one JSON file per trace, named by a hash of its URI)
 * with the size and time of the file they were written on: a new trace
 * saved over an old one does not inherit the old one's notes. The
 * window, `strata -r --format=json` and image exports read the same
 * store.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "strata-error.h"
#include "strata-json-scan.h"
#include "strata-notes.h"

/* A store bigger than this is not a store Strata wrote. */
#define MAX_STORE_SIZE (16 * 1024 * 1024)

static void
note_clear (gpointer data)
{
  StrataNote *note = data;

  g_clear_pointer (&note->text, g_free);
  g_clear_pointer (&note->method, g_free);
}

/* Returns: (transfer full): an empty array of StrataNote */
GArray *
strata_notes_new (void)
{
  GArray *notes = g_array_new (FALSE, TRUE, sizeof (StrataNote));

  g_array_set_clear_func (notes, note_clear);
  return notes;
}

/* Valid UTF-8, at most STRATA_NOTE_MAX_TEXT bytes, cut at a character. */
static char *
clean_text (const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text != NULL ? text : "", -1);

  if (strlen (valid) > STRATA_NOTE_MAX_TEXT)
    *g_utf8_find_prev_char (valid, valid + STRATA_NOTE_MAX_TEXT + 1) = '\0';
  return g_steal_pointer (&valid);
}

void
strata_note_set_text (StrataNote *note,
                      const char *text)
{
  g_free (note->text);
  note->text = clean_text (text);
}

void
strata_note_init_range (StrataNote *note,
                        const char *text,
                        gint64      start,
                        gint64      end)
{
  memset (note, 0, sizeof *note);
  note->text = clean_text (text);
  note->start = MIN (start, end);
  note->end = MAX (start, end);
}

/* A note on @call, which must be a call of @trace. */
gboolean
strata_note_init_call (StrataNote           *note,
                       const char           *text,
                       StrataTrace          *trace,
                       const StrataSliceRef *call)
{
  const StrataThread *thread;
  const StrataPackedSpan *span;

  g_return_val_if_fail (call->thread < strata_trace_get_n_threads (trace), FALSE);
  thread = strata_trace_get_thread (trace, call->thread);
  g_return_val_if_fail (thread->spans != NULL && call->depth < thread->spans->n_depths &&
                        call->index < thread->spans->n_spans[call->depth], FALSE);
  span = &thread->spans->calls[call->depth][call->index];
  strata_note_init_range (note, text, strata_span_table_start (thread->spans, call->depth, call->index),
                          strata_span_table_end (thread->spans, call->depth, call->index));
  note->on_call = TRUE;
  note->tid = thread->tid;
  note->depth = call->depth;
  note->index = call->index;
  note->method = g_strdup (strata_trace_get_loaded_method_name (trace, span->method));
  return TRUE;
}

/**
 * strata_note_find_call:
 *
 * The call a note is on, if @trace still has it where it was: the same
 * thread, depth and place, a call of the same method at the same time.
 *
 * Returns: whether it was found
 */
gboolean
strata_note_find_call (const StrataNote *note,
                       StrataTrace      *trace,
                       StrataSliceRef   *call)
{
  if (!note->on_call)
    return FALSE;
  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    {
      const StrataThread *thread = strata_trace_get_thread (trace, t);
      const StrataPackedSpan *span;

      if (thread->tid != note->tid || thread->spans == NULL || note->depth >= thread->spans->n_depths ||
          note->index >= thread->spans->n_spans[note->depth])
        continue;
      span = &thread->spans->calls[note->depth][note->index];
      if (strata_span_table_start (thread->spans, note->depth, note->index) != note->start || g_strcmp0 (strata_trace_get_loaded_method_name (trace, span->method), note->method) != 0)
        continue;
      *call = (StrataSliceRef) { t, note->depth, note->index };
      return TRUE;
    }
  return FALSE;
}

/* ---- The store ---- */

/**
 * strata_notes_path:
 *
 * Returns: (transfer full): where the notes on @trace_file are kept
 */
char *
strata_notes_path (GFile *trace_file)
{
  g_autofree char *uri = g_file_get_uri (trace_file);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, uri, -1);
  g_autofree char *name = g_strconcat (hash, ".json", NULL);

  return g_build_filename (g_get_user_data_dir (), "strata", "notes", name, NULL);
}

/* The file's size and modification time, which the notes were made on. */
static gboolean
stamp_of (GFile   *trace_file,
          gint64  *size,
          gint64  *modified)
{
  g_autoptr(GFileInfo) info = g_file_query_info (trace_file, G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_TIME_MODIFIED,
                                                 G_FILE_QUERY_INFO_NONE, NULL, NULL);

  if (info == NULL)
    return FALSE;
  *size = g_file_info_get_size (info);
  *modified = (gint64) g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED);
  return TRUE;
}

static gint64
member_int (JsonObject *object,
            const char *name,
            gboolean   *ok)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    {
      *ok = FALSE;
      return 0;
    }
  return json_node_get_int (node);
}

static const char *
member_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

/* One note of the store; FALSE for anything not shaped as one. */
static gboolean
read_note (JsonNode   *node,
           StrataNote *note)
{
  JsonObject *object, *call;
  gboolean ok = TRUE;
  gint64 start, end, depth, index;
  const char *text, *method;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;
  object = json_node_get_object (node);
  text = member_string (object, "text");
  start = member_int (object, "start", &ok);
  end = member_int (object, "end", &ok);
  if (!ok || text == NULL || end < start)
    return FALSE;
  strata_note_init_range (note, text, start, end);
  if (!json_object_has_member (object, "call"))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, "call")))
    return TRUE;
  call = json_object_get_object_member (object, "call");
  note->tid = member_int (call, "tid", &ok);
  depth = member_int (call, "depth", &ok);
  index = member_int (call, "index", &ok);
  method = member_string (call, "method");
  if (ok && method != NULL && depth >= 0 && depth <= G_MAXUINT16 && index >= 0 && index <= G_MAXUINT32)
    {
      note->on_call = TRUE;
      note->depth = (guint) depth;
      note->index = (guint32) index;
      note->method = g_strdup (method);
    }
  return TRUE;
}

/**
 * strata_notes_parse:
 * @size: the size of the file the notes must have been written on
 * @modified: its modification time, in seconds
 *
 * The notes of a store's @contents, if they were written on a file of
 * that size and time: what is shaped as a note, the rest left out.
 *
 * Returns: (transfer full): StrataNote; none for JSON that does not
 *   parse (which sets @error) or notes on another file
 */
GArray *
strata_notes_parse (const char  *contents,
                    gsize        len,
                    gint64       size,
                    gint64       modified,
                    GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  GArray *notes = strata_notes_new ();
  JsonObject *root;
  JsonArray *list;
  gboolean ok = TRUE;
  guint64 depth = 0;
  const char *value_end;

  if (contents == NULL || len == 0)
    return notes;
  /* json-glib parses by recursion: a store nested deep enough would
   * exhaust the stack. Strata's own go three levels down. */
  strata_json_skip_value_depth (contents, contents + len, &value_end, &depth);
  if (depth > 16 || !json_parser_load_from_data (parser, contents, len, error))
    return notes;
  /* Blank text parses to no root at all. */
  if (json_parser_get_root (parser) == NULL || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return notes;
  root = json_node_get_object (json_parser_get_root (parser));
  /* Notes on an earlier file of the same name are not this file's. */
  if (member_int (root, "size", &ok) != size || member_int (root, "modified", &ok) != modified || !ok)
    return notes;
  if (!json_object_has_member (root, "notes") || !JSON_NODE_HOLDS_ARRAY (json_object_get_member (root, "notes")))
    return notes;
  list = json_object_get_array_member (root, "notes");
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      StrataNote note = { NULL };

      if (read_note (json_array_get_element (list, i), &note))
        g_array_append_val (notes, note);
      else
        note_clear (&note);
    }
  return notes;
}

/**
 * strata_notes_load:
 *
 * The notes kept for @trace_file; none when it has none, or when the
 * notes were written on another file of that name. A store that cannot
 * be read sets @error and gives none.
 *
 * Returns: (transfer full): StrataNote
 */
GArray *
strata_notes_load (GFile   *trace_file,
                   GError **error)
{
  g_autofree char *path = strata_notes_path (trace_file);
  g_autofree char *contents = NULL;
  g_autoptr(GError) local_error = NULL;
  gint64 size, modified;
  gsize len;

  if (!g_file_get_contents (path, &contents, &len, &local_error))
    {
      if (!g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_propagate_error (error, g_steal_pointer (&local_error));
      return strata_notes_new ();
    }
  if (len > MAX_STORE_SIZE)
    {
      g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_TOO_LARGE,
                   /* Translators: %s is a file of notes in the user's data folder */
                   _("The notes in %s are too large to be Strata's."), path);
      return strata_notes_new ();
    }
  if (!stamp_of (trace_file, &size, &modified))
    return strata_notes_new ();
  return strata_notes_parse (contents, len, size, modified, error);
}

static void
add_note (JsonBuilder      *builder,
          const StrataNote *note)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, note->text);
  json_builder_set_member_name (builder, "start");
  json_builder_add_int_value (builder, note->start);
  json_builder_set_member_name (builder, "end");
  json_builder_add_int_value (builder, note->end);
  if (note->on_call)
    {
      json_builder_set_member_name (builder, "call");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "tid");
      json_builder_add_int_value (builder, note->tid);
      json_builder_set_member_name (builder, "depth");
      json_builder_add_int_value (builder, note->depth);
      json_builder_set_member_name (builder, "index");
      json_builder_add_int_value (builder, note->index);
      json_builder_set_member_name (builder, "method");
      json_builder_add_string_value (builder, note->method);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
}

/**
 * strata_notes_save:
 *
 * Keeps @notes for @trace_file, in place of what was kept; no notes
 * remove the store's file.
 */
gboolean
strata_notes_save (GFile         *trace_file,
                   const GArray  *notes,
                   GError       **error)
{
  g_autofree char *path = strata_notes_path (trace_file);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *uri = g_file_get_uri (trace_file);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *json = NULL;
  gint64 size = 0, modified = 0;

  if (notes->len == 0)
    {
      if (g_remove (path) != 0 && errno != ENOENT)
        {
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "%s: %s", path, g_strerror (errno));
          return FALSE;
        }
      return TRUE;
    }
  stamp_of (trace_file, &size, &modified);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "file");
  json_builder_add_string_value (builder, uri);
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, size);
  json_builder_set_member_name (builder, "modified");
  json_builder_add_int_value (builder, modified);
  json_builder_set_member_name (builder, "notes");
  json_builder_begin_array (builder);
  for (guint i = 0; i < notes->len; i++)
    add_note (builder, &g_array_index (notes, StrataNote, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json = json_to_string (root, TRUE);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "%s: %s", dir, g_strerror (errno));
      return FALSE;
    }
  return g_file_set_contents (path, json, -1, error);
}

static int
compare_marks (const void *a,
               const void *b)
{
  const StrataNoteMark *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

/**
 * strata_notes_marks:
 * @clock: the clock the timeline is on
 *
 * Where each note is drawn on @clock: a note on a call where its call is
 * on that clock, one on a range where it was written (the first clock).
 *
 * Returns: (transfer full): StrataNoteMark, by start
 */
GArray *
strata_notes_marks (const GArray *notes,
                    StrataTrace  *trace,
                    guint         clock)
{
  GArray *marks = g_array_new (FALSE, FALSE, sizeof (StrataNoteMark));

  for (guint i = 0; notes != NULL && i < notes->len; i++)
    {
      const StrataNote *note = &g_array_index (notes, StrataNote, i);
      StrataNoteMark mark = { note->start, note->end, note->text, i };
      StrataSliceRef call;

      if (strata_note_find_call (note, trace, &call))
        {
          const StrataSpanTable *table = strata_trace_get_thread (trace, call.thread)->spans;

          mark.start = strata_span_table_get_start (table, clock, call.depth, call.index);
          mark.end = strata_span_table_get_end (table, clock, call.depth, call.index);
        }
      else if (clock != 0)
        continue;
      g_array_append_val (marks, mark);
    }
  if (marks->len > 1)
    qsort (marks->data, marks->len, sizeof (StrataNoteMark), compare_marks);
  return marks;
}
