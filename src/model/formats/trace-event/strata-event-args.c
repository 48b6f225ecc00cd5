/* strata-event-args.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-error.h"
#include "strata-event-args.h"
#include "strata-inflater.h"
#include "strata-json-scan.h"
#include "strata-trace-private.h"

#define READ_CHUNK (64 * 1024)
#define MAX_EVENT_SIZE ((gsize) 1 << 30)
#define MAX_ARGS_DEPTH 1000

/* The file's content, or the args its loader kept. */
static GInputStream *
open_content (StrataTrace   *trace,
              GCancellable  *cancellable,
              GError       **error)
{
  g_autoptr(GFileInputStream) stream = NULL;

  if (strata_trace_get_args_text (trace) != NULL)
    return g_memory_input_stream_new_from_bytes (strata_trace_get_args_text (trace));
  stream = g_file_read (strata_trace_get_file (trace), cancellable, error);

  if (stream == NULL)
    return NULL;
  return strata_inflater_open_stream (G_INPUT_STREAM (stream), cancellable, error);
}

/* By reading: a filter stream's skip() would skip its base stream's
 * bytes, not the inflated ones. */
static gboolean
skip_to (GInputStream  *stream,
         guint64        offset,
         GCancellable  *cancellable,
         GError       **error)
{
  g_autofree guint8 *scratch = g_malloc (READ_CHUNK);

  while (offset > 0)
    {
      gssize skipped = g_input_stream_read (stream, scratch, MIN (offset, READ_CHUNK), cancellable, error);

      if (skipped < 0)
        return FALSE;
      if (skipped == 0)
        {
          g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                               _("The trace file is shorter than when it was loaded."));
          return FALSE;
        }
      offset -= skipped;
    }
  return TRUE;
}

/* Reads until one whole JSON value is in @buffer. */
static gboolean
read_value (GInputStream  *stream,
            GByteArray    *buffer,
            gsize         *value_len,
            GCancellable  *cancellable,
            GError       **error)
{
  for (;;)
    {
      const char *data = (const char *) buffer->data;
      const char *value_end;
      StrataJsonStatus status = buffer->len > 0
        ? strata_json_skip_value (data, data + buffer->len, &value_end)
        : STRATA_JSON_INCOMPLETE;
      gsize old_len = buffer->len;
      gssize n;

      if (status == STRATA_JSON_OK)
        {
          *value_len = value_end - data;
          return TRUE;
        }
      if (status == STRATA_JSON_INVALID || buffer->len > MAX_EVENT_SIZE)
        break;

      g_byte_array_set_size (buffer, old_len + READ_CHUNK);
      n = g_input_stream_read (stream, buffer->data + old_len, READ_CHUNK, cancellable, error);
      if (n < 0)
        return FALSE;
      g_byte_array_set_size (buffer, old_len + n);
      if (n == 0)
        break;
    }

  g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                       _("The event could not be read again from the trace file; it changed since it was loaded."));
  return FALSE;
}

/**
 * strata_event_args_read_event:
 * @source: where the event starts in the file's (inflated) content
 *
 * Returns: (transfer full): the whole event object
 */
JsonNode *
strata_event_args_read_event (StrataTrace   *trace,
                              guint64        source,
                              GCancellable  *cancellable,
                              GError       **error)
{
  g_autoptr(GInputStream) stream = open_content (trace, cancellable, error);
  g_autoptr(GByteArray) buffer = g_byte_array_new ();
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  gsize len;

  const char *value_end;
  guint64 depth = 0;

  if (stream == NULL || !skip_to (stream, source, cancellable, error) ||
      !read_value (stream, buffer, &len, cancellable, error))
    return NULL;
  /* json-glib parses by recursion: a value nested 100,000 deep would
   * exhaust the stack of the thread reading it. */
  strata_json_skip_value_depth ((const char *) buffer->data, (const char *) buffer->data + len, &value_end, &depth);
  if (depth > MAX_ARGS_DEPTH)
    {
      g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_TOO_LARGE,
                   /* Translators: %u is a number of levels, such as 1,000 */
                   _("Its arguments are nested more than %u levels deep, too deep to show."), MAX_ARGS_DEPTH);
      return NULL;
    }
  if (!json_parser_load_from_data (parser, (const char *) buffer->data, len, error))
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                           _("The event could not be read again from the trace file; it changed since it was loaded."));
      return NULL;
    }
  return json_parser_steal_root (parser);
}

static JsonObject *
args_of (JsonNode *event)
{
  JsonObject *object = json_node_get_object (event);
  JsonNode *args = json_object_get_member (object, "args");

  return args != NULL && JSON_NODE_HOLDS_OBJECT (args) ? json_node_get_object (args) : NULL;
}

/**
 * strata_event_args_read:
 *
 * The args of the event (or call) that starts at @source. For a call
 * written as B and E events, the args of both, the E's winning where
 * they name the same key.
 *
 * Returns: (transfer full): an object node, empty when the event has none
 */
JsonNode *
strata_event_args_read (StrataTrace   *trace,
                        guint64        source,
                        GCancellable  *cancellable,
                        GError       **error)
{
  g_autoptr(JsonNode) event = NULL;
  g_autoptr(JsonNode) end_event = NULL;
  g_autoptr(JsonObject) merged = json_object_new ();
  JsonNode *result = json_node_new (JSON_NODE_OBJECT);
  guint64 end_source;
  JsonObject *args;

  /* No event starts a file: 0 is a call made from samples, which has none. */
  if (source == STRATA_NO_SOURCE)
    {
      json_node_set_object (result, merged);
      return result;
    }
  if (!(event = strata_event_args_read_event (trace, source, cancellable, error)))
    goto failed;
  if (strata_trace_get_source_link (trace, source, &end_source) &&
      !(end_event = strata_event_args_read_event (trace, end_source, cancellable, error)))
    goto failed;

  for (JsonNode *node = event; node != NULL; node = node == event ? end_event : NULL)
    if ((args = args_of (node)) != NULL)
      {
        JsonObjectIter iter;
        const char *name;
        JsonNode *value;

        json_object_iter_init (&iter, args);
        while (json_object_iter_next (&iter, &name, &value))
          json_object_set_member (merged, name, json_node_copy (value));
      }
  json_node_set_object (result, merged);
  return result;

failed:
  json_node_unref (result);
  return NULL;
}

typedef struct
{
  StrataTrace *trace;
  guint64      source;
} ReadArgs;

static void
read_args_free (gpointer data)
{
  ReadArgs *read = data;

  g_object_unref (read->trace);
  g_free (read);
}

static void
read_args_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  ReadArgs *read = task_data;
  GError *error = NULL;
  JsonNode *args = strata_event_args_read (read->trace, read->source, cancellable, &error);

  if (args == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, args, (GDestroyNotify) json_node_unref);
}

/**
 * strata_event_args_read_async:
 *
 * strata_event_args_read() on a worker thread: the file is read again
 * (and inflated again), which can take seconds for a large .gz.
 */
void
strata_event_args_read_async (StrataTrace         *trace,
                              guint64              source,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  ReadArgs *read = g_new0 (ReadArgs, 1);

  read->trace = g_object_ref (trace);
  read->source = source;
  g_task_set_source_tag (task, strata_event_args_read_async);
  g_task_set_task_data (task, read, read_args_free);
  g_task_run_in_thread (task, read_args_thread);
}

/**
 * strata_event_args_read_finish:
 *
 * Returns: (transfer full): as strata_event_args_read()
 */
JsonNode *
strata_event_args_read_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- Many events' args on one line each ---- */

#define SUMMARY_MAX 300

/* One arg as "name: value": strings bare, the rest as compact JSON. */
static void
append_arg (GString    *line,
            const char *name,
            JsonNode   *value)
{
  if (line->len > 0)
    g_string_append (line, ", ");
  g_string_append_printf (line, "%s: ", name);
  if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
    g_string_append (line, json_node_get_string (value));
  else
    {
      g_autofree char *json = json_to_string (value, FALSE);

      g_string_append (line, json);
    }
}

/* The args of the event at the start of @text on one short line; "" for
 * none, NULL when it does not parse. */
static char *
summarize_event (const char *text,
                 gsize       len)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GString) line = g_string_new (NULL);
  const char *value_end;
  guint64 depth = 0;
  JsonObjectIter iter;
  JsonNode *root, *args, *value;
  const char *name;

  strata_json_skip_value_depth (text, text + len, &value_end, &depth);
  if (depth > MAX_ARGS_DEPTH || !json_parser_load_from_data (parser, text, len, NULL))
    return NULL;
  root = json_parser_get_root (parser);
  if (!JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  args = json_object_get_member (json_node_get_object (root), "args");
  if (args == NULL || !JSON_NODE_HOLDS_OBJECT (args))
    return g_strdup ("");
  json_object_iter_init (&iter, json_node_get_object (args));
  while (line->len <= SUMMARY_MAX && json_object_iter_next (&iter, &name, &value))
    append_arg (line, name, value);
  /* A row is one line. */
  g_strdelimit (line->str, "\n\r\t", ' ');
  if (line->len > SUMMARY_MAX)
    {
      const char *cut = g_utf8_find_prev_char (line->str, line->str + SUMMARY_MAX);

      g_string_truncate (line, cut - line->str);
      g_string_append (line, "…");
    }
  return g_string_free (g_steal_pointer (&line), FALSE);
}

/* Makes @buffer hold the bytes from @source on, given it holds those
 * from *@at on: drops what comes before, or skips the stream there. */
static gboolean
move_to (GInputStream  *stream,
         GByteArray    *buffer,
         guint64       *at,
         guint64        source,
         GCancellable  *cancellable,
         GError       **error)
{
  if (source < *at + buffer->len)
    {
      g_byte_array_remove_range (buffer, 0, source - *at);
      *at = source;
      return TRUE;
    }
  if (!skip_to (stream, source - (*at + buffer->len), cancellable, error))
    return FALSE;
  g_byte_array_set_size (buffer, 0);
  *at = source;
  return TRUE;
}

/**
 * strata_event_args_summarize:
 * @sources: where events start in the file's content, ascending; none 0
 *
 * The args of many events in one pass over the file (one inflation of a
 * .gz), each on one short line ("name: value, …", strings bare, the rest
 * as compact JSON): what a table of events shows. An event that no longer parses gets "?".
 *
 * Returns: (transfer full): one string per source, %NULL-terminated
 */
char **
strata_event_args_summarize (StrataTrace   *trace,
                             const guint64 *sources,
                             guint          n_sources,
                             GCancellable  *cancellable,
                             GError       **error)
{
  g_autoptr(GInputStream) stream = open_content (trace, cancellable, error);
  g_autoptr(GByteArray) buffer = g_byte_array_new ();
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  guint64 at = 0;

  if (stream == NULL)
    return NULL;
  for (guint i = 0; i < n_sources; i++)
    {
      gsize len;
      char *line;

      g_return_val_if_fail (sources[i] >= at && sources[i] != STRATA_NO_SOURCE, NULL);
      if (!move_to (stream, buffer, &at, sources[i], cancellable, error) ||
          !read_value (stream, buffer, &len, cancellable, error))
        return NULL;
      line = summarize_event ((const char *) buffer->data, len);
      g_ptr_array_add (lines, line != NULL ? line : g_strdup ("?"));
    }
  g_ptr_array_add (lines, NULL);
  return (char **) g_ptr_array_steal (lines, NULL);
}
