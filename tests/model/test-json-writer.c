/* test-json-writer.c: the streaming JSON writer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "strata-json-writer.h"

static char *
finish_text (StrataJsonWriter *json,
             GOutputStream    *memory)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (strata_json_writer_finish (json, &error));
  g_assert_no_error (error);
  g_output_stream_close (memory, NULL, NULL);
  return g_strndup (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (memory)),
                    g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (memory)));
}

/* The document @text as json-glib reads it; @parser holds it. */
static JsonObject *
parse_object (JsonParser *parser,
              const char *text)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* Strings with every kind of escape, invalid UTF-8, extreme integers:
 * json-glib reads back exactly what went in. */
static void
test_json_writer_values (void)
{
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(StrataJsonWriter) json = strata_json_writer_new (memory, 1);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *text = NULL;
  JsonObject *root;
  JsonArray *list;

  strata_json_writer_begin_object (json);
  strata_json_writer_member (json, "quote\"back\\slash");
  strata_json_writer_string (json, "line\nbreak\ttab\r\001é😀");
  strata_json_writer_member (json, "bad");
  strata_json_writer_string (json, "a\xff\xfe z");
  strata_json_writer_member (json, "numbers");
  strata_json_writer_begin_array (json);
  strata_json_writer_int (json, G_MININT64);
  strata_json_writer_int (json, G_MAXINT64);
  strata_json_writer_int (json, 0);
  strata_json_writer_int (json, -7);
  strata_json_writer_uint (json, G_MAXUINT64);
  strata_json_writer_null (json);
  strata_json_writer_string (json, NULL);
  strata_json_writer_begin_object (json);
  strata_json_writer_end_object (json);
  strata_json_writer_end_array (json);
  strata_json_writer_end_object (json);
  text = finish_text (json, memory);

  g_assert_true (g_utf8_validate (text, -1, NULL));
  root = parse_object (parser, text);
  g_assert_cmpstr (json_object_get_string_member (root, "quote\"back\\slash"), ==, "line\nbreak\ttab\r\001é😀");
  g_assert_cmpstr (json_object_get_string_member (root, "bad"), ==, "a\xef\xbf\xbd\xef\xbf\xbd z");
  list = json_object_get_array_member (root, "numbers");
  g_assert_cmpint (json_array_get_int_element (list, 0), ==, G_MININT64);
  g_assert_cmpint (json_array_get_int_element (list, 1), ==, G_MAXINT64);
  g_assert_cmpint (json_array_get_int_element (list, 3), ==, -7);
  /* json-glib reads integers as gint64: check the digits. */
  g_assert_nonnull (strstr (text, "18446744073709551615"));
  g_assert_true (json_array_get_null_element (list, 5));
  g_assert_true (json_array_get_null_element (list, 6));
  g_assert_cmpuint (json_array_get_length (list), ==, 8);
}

/* Items made by a second writer and spliced in read as one list, with
 * the document's line layout. */
static void
test_json_writer_splice (void)
{
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(StrataJsonWriter) json = strata_json_writer_new (memory, 2);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *text = NULL;
  JsonArray *items;

  strata_json_writer_begin_object (json);
  strata_json_writer_member (json, "items");
  strata_json_writer_begin_array (json);
  for (guint part = 0; part < 3; part++)
    {
      g_autoptr(GOutputStream) side = g_memory_output_stream_new_resizable ();
      g_autoptr(StrataJsonWriter) inside = strata_json_writer_new_inside (side, json, part > 0);
      g_autoptr(GBytes) bytes = NULL;

      for (guint i = 0; i < 2; i++)
        {
          strata_json_writer_begin_object (inside);
          strata_json_writer_member (inside, "n");
          strata_json_writer_int (inside, part * 2 + i);
          strata_json_writer_end_object (inside);
        }
      g_assert_true (strata_json_writer_finish (inside, NULL));
      g_output_stream_close (side, NULL, NULL);
      bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (side));
      strata_json_writer_splice (json, bytes);
    }
  strata_json_writer_end_array (json);
  strata_json_writer_end_object (json);
  text = finish_text (json, memory);

  items = json_object_get_array_member (parse_object (parser, text), "items");
  g_assert_cmpuint (json_array_get_length (items), ==, 6);
  for (guint i = 0; i < 6; i++)
    g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (items, i), "n"), ==, i);
  g_assert_cmpstr (text, ==, "{\n  \"items\": [\n    {\"n\":0},\n    {\"n\":1},\n    {\"n\":2},\n    {\"n\":3},\n"
                             "    {\"n\":4},\n    {\"n\":5}\n  ]\n}\n");
}

/* A document nests as deep as it needs: 100,000 levels of a call tree's
 * {"children": [...]} come out whole, each closed in order. */
static void
test_json_writer_deep (void)
{
  enum { LEVELS = 100000 };
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(StrataJsonWriter) json = strata_json_writer_new (memory, 2);
  g_autoptr(GString) expected = g_string_new ("[\n  ");
  g_autofree char *text = NULL;

  strata_json_writer_begin_array (json);
  for (guint i = 0; i < LEVELS; i++)
    {
      strata_json_writer_begin_object (json);
      strata_json_writer_member (json, "children");
      strata_json_writer_begin_array (json);
      g_string_append (expected, i == 0 ? "{\n    \"children\": [" : "{\"children\":[");
    }
  strata_json_writer_int (json, 7);
  g_string_append (expected, "7");
  for (guint i = LEVELS; i > 0; i--)
    {
      strata_json_writer_end_array (json);
      strata_json_writer_end_object (json);
      g_string_append (expected, i == 1 ? "]\n  }" : "]}");
    }
  strata_json_writer_end_array (json);
  g_string_append (expected, "\n]\n");
  text = finish_text (json, memory);

  g_assert_cmpuint (strlen (text), ==, expected->len);
  g_assert_true (g_str_equal (text, expected->str));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json-writer/values", test_json_writer_values);
  g_test_add_func ("/json-writer/splice", test_json_writer_splice);
  g_test_add_func ("/json-writer/deep", test_json_writer_deep);
  return g_test_run ();
}
