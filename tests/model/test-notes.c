/* test-notes.c: notes kept for a trace's file
 *
 * Kept and read back, on a range and on a call; not carried over to a
 * new file saved at the same place; a store that was tampered with
 * gives what it can and never crashes; a call that moved is no longer
 * the note's; where notes are drawn on either clock.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "strata-notes.h"
#include "strata-test-util.h"

/* Two threads; the calls carry thread times, so the trace has two clocks. */
static const char notes_trace[] =
  "{\"traceEvents\":[\n"
  "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":2,\"args\":{\"name\":\"main\"}},\n"
  "{\"ph\":\"X\",\"name\":\"RunTask\",\"pid\":1,\"tid\":2,\"ts\":100,\"dur\":900,\"tts\":10,\"tdur\":500},\n"
  "{\"ph\":\"X\",\"name\":\"Layout\",\"pid\":1,\"tid\":2,\"ts\":200,\"dur\":300,\"tts\":50,\"tdur\":200},\n"
  "{\"ph\":\"X\",\"name\":\"Paint\",\"pid\":1,\"tid\":3,\"ts\":400,\"dur\":100,\"tts\":5,\"tdur\":60}\n"
  "]}\n";

static StrataTrace *
load_notes_trace (char **path_out)
{
  g_autoptr(GError) error = NULL;
  char *path = strata_test_write_file ("noted.json", notes_trace, strlen (notes_trace));
  StrataTrace *trace = strata_test_load_path (path, &error);

  g_assert_no_error (error);
  *path_out = path;
  return trace;
}

static void
test_notes_round_trip (void)
{
  g_autofree char *path = NULL;
  g_autoptr(StrataTrace) trace = load_notes_trace (&path);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GArray) notes = strata_notes_new ();
  g_autoptr(GArray) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *long_text = g_strnfill (STRATA_NOTE_MAX_TEXT + 100, 'x');
  StrataNote note;
  StrataSliceRef call = { 0, 1, 0 };
  StrataSliceRef found;

  /* Nothing kept yet is no notes, not an error. */
  loaded = strata_notes_load (file, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (loaded->len, ==, 0);
  g_clear_pointer (&loaded, g_array_unref);

  strata_note_init_range (&note, "GC pause ü", 400000, 150000);
  g_array_append_val (notes, note);
  g_assert_true (strata_note_init_call (&note, long_text, trace, &call));
  g_array_append_val (notes, note);
  g_assert_true (strata_notes_save (file, notes, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (strata_notes_path (file), G_FILE_TEST_EXISTS));

  loaded = strata_notes_load (file, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (loaded->len, ==, 2);
  g_assert_cmpstr (g_array_index (loaded, StrataNote, 0).text, ==, "GC pause ü");
  /* A range is kept in order. */
  g_assert_cmpint (g_array_index (loaded, StrataNote, 0).start, ==, 150000);
  g_assert_cmpint (g_array_index (loaded, StrataNote, 0).end, ==, 400000);
  g_assert_false (g_array_index (loaded, StrataNote, 0).on_call);
  g_assert_cmpuint (strlen (g_array_index (loaded, StrataNote, 1).text), ==, STRATA_NOTE_MAX_TEXT);
  g_assert_cmpstr (g_array_index (loaded, StrataNote, 1).method, ==, "Layout");
  g_assert_true (strata_note_find_call (&g_array_index (loaded, StrataNote, 1), trace, &found));
  g_assert_cmpuint (found.thread, ==, call.thread);
  g_assert_cmpuint (found.depth, ==, 1);
  g_assert_cmpuint (found.index, ==, 0);

  /* No notes: the store's file goes. */
  g_array_set_size (notes, 0);
  g_assert_true (strata_notes_save (file, notes, &error));
  g_assert_false (g_file_test (strata_notes_path (file), G_FILE_TEST_EXISTS));
}

/* A new recording saved where the old one was is another file. */
static void
test_notes_other_file (void)
{
  g_autofree char *path = NULL;
  g_autoptr(StrataTrace) trace = load_notes_trace (&path);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GArray) notes = strata_notes_new ();
  g_autoptr(GArray) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *longer = g_strconcat (notes_trace, " ", NULL);
  StrataNote note;

  strata_note_init_range (&note, "slow start", 0, 1000);
  g_array_append_val (notes, note);
  g_assert_true (strata_notes_save (file, notes, &error));
  g_file_set_contents (path, longer, -1, &error);
  g_assert_no_error (error);
  loaded = strata_notes_load (file, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (loaded->len, ==, 0);
}

/* Stores written by something else: what is shaped as a note is read,
 * the rest is left out; none of it crashes. */
static void
test_notes_hostile_store (void)
{
  static const char *const notes_members[] = {
    "[{\"text\":\"kept\",\"start\":1,\"end\":2}, 7, null, {\"text\":5,\"start\":1,\"end\":2},"
    " {\"text\":\"backwards\",\"start\":9,\"end\":2}, {\"text\":\"no end\",\"start\":1},"
    " {\"text\":\"bad call\",\"start\":1,\"end\":2,\"call\":{\"tid\":2,\"depth\":-4,\"index\":0,\"method\":\"x\"}},"
    " {\"text\":\"call not an object\",\"start\":1,\"end\":2,\"call\":[]},"
    " {\"text\":\"\\u0000zero\",\"start\":1,\"end\":2,\"call\":{\"tid\":2,\"depth\":5,\"index\":0,\"method\":\"x\"}}]",
    "{}", "7", "\"text\"",
  };
  g_autofree char *path = NULL;
  g_autoptr(StrataTrace) trace = load_notes_trace (&path);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInfo) info = g_file_query_info (file, "standard::size,time::modified", 0, NULL, NULL);
  g_autofree char *store = strata_notes_path (file);
  g_autofree char *dir = g_path_get_dirname (store);

  g_mkdir_with_parents (dir, 0700);
  for (guint i = 0; i < G_N_ELEMENTS (notes_members); i++)
    {
      g_autofree char *json = g_strdup_printf ("{\"size\":%" G_GINT64_FORMAT ",\"modified\":%" G_GUINT64_FORMAT ",\"notes\":%s}",
                                               g_file_info_get_size (info),
                                               g_file_info_get_attribute_uint64 (info, "time::modified"), notes_members[i]);
      g_autoptr(GArray) loaded = NULL;
      g_autoptr(GError) error = NULL;

      g_file_set_contents (store, json, -1, &error);
      g_assert_no_error (error);
      loaded = strata_notes_load (file, &error);
      g_assert_no_error (error);
      if (i == 0)
        {
          StrataSliceRef call;

          g_assert_cmpuint (loaded->len, ==, 4);
          g_assert_cmpstr (g_array_index (loaded, StrataNote, 0).text, ==, "kept");
          g_assert_false (g_array_index (loaded, StrataNote, 1).on_call);
          g_assert_true (g_array_index (loaded, StrataNote, 3).on_call);
          g_assert_false (strata_note_find_call (&g_array_index (loaded, StrataNote, 3), trace, &call));
        }
      else
        g_assert_cmpuint (loaded->len, ==, 0);
    }
  /* Nested 100,000 deep: refused before json-glib recurses into it. */
  {
    g_autoptr(GString) deep = g_string_new ("{\"size\":1,\"modified\":2,\"notes\":");
    g_autoptr(GArray) loaded = NULL;

    for (guint i = 0; i < 100000; i++)
      g_string_append_c (deep, '[');
    loaded = strata_notes_parse (deep->str, deep->len, 1, 2, NULL);
    g_assert_cmpuint (loaded->len, ==, 0);
  }
  /* Not JSON at all: said, and no notes. */
  {
    g_autoptr(GArray) loaded = NULL;
    g_autoptr(GError) error = NULL;

    g_file_set_contents (store, "{\"notes\":[", -1, NULL);
    loaded = strata_notes_load (file, &error);
    g_assert_nonnull (error);
    g_assert_cmpuint (loaded->len, ==, 0);
  }
  g_remove (store);
}

/* On the thread clock a note on a call follows its call; a note on a
 * range, written on the wall clock, is not drawn there. A note whose
 * call is another method's now falls back to its range. */
/* An empty or blank store holds no notes, and says nothing of it. */
static void
test_notes_blank_store (void)
{
  const char *stores[] = { "", " \n\t" };

  for (guint i = 0; i < G_N_ELEMENTS (stores); i++)
    {
      g_autoptr(GArray) loaded = strata_notes_parse (stores[i], strlen (stores[i]), 1, 2, NULL);

      g_assert_cmpuint (loaded->len, ==, 0);
    }
  {
    g_autoptr(GArray) loaded = strata_notes_parse (NULL, 0, 1, 2, NULL);

    g_assert_cmpuint (loaded->len, ==, 0);
  }
}

static void
test_notes_marks (void)
{
  g_autofree char *path = NULL;
  g_autoptr(StrataTrace) trace = load_notes_trace (&path);
  g_autoptr(GArray) notes = strata_notes_new ();
  g_autoptr(GArray) wall = NULL, cpu = NULL;
  const StrataSpanTable *table = strata_trace_get_thread (trace, 0)->spans;
  StrataNote note;
  StrataSliceRef call = { 0, 1, 0 }, found;

  g_assert_cmpuint (strata_trace_get_n_clocks (trace), ==, 2);
  g_assert_true (strata_note_init_call (&note, "layout", trace, &call));
  g_array_append_val (notes, note);
  strata_note_init_range (&note, "range", 50000, 60000);
  g_array_append_val (notes, note);
  wall = strata_notes_marks (notes, trace, 0);
  g_assert_cmpuint (wall->len, ==, 2);
  g_assert_cmpstr (g_array_index (wall, StrataNoteMark, 0).text, ==, "range");
  g_assert_cmpint (g_array_index (wall, StrataNoteMark, 1).start, ==, strata_span_table_get_start (table, 0, 1, 0));
  cpu = strata_notes_marks (notes, trace, 1);
  g_assert_cmpuint (cpu->len, ==, 1);
  g_assert_cmpint (g_array_index (cpu, StrataNoteMark, 0).start, ==, strata_span_table_get_start (table, 1, 1, 0));
  g_assert_cmpint (g_array_index (cpu, StrataNoteMark, 0).end, ==, strata_span_table_get_end (table, 1, 1, 0));
  g_assert_cmpuint (g_array_index (cpu, StrataNoteMark, 0).note, ==, 0);

  g_free (g_array_index (notes, StrataNote, 0).method);
  g_array_index (notes, StrataNote, 0).method = g_strdup ("RunTask");
  g_assert_false (strata_note_find_call (&g_array_index (notes, StrataNote, 0), trace, &found));
  g_clear_pointer (&cpu, g_array_unref);
  cpu = strata_notes_marks (notes, trace, 1);
  g_assert_cmpuint (cpu->len, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/notes/round-trip", test_notes_round_trip);
  g_test_add_func ("/notes/other-file", test_notes_other_file);
  g_test_add_func ("/notes/blank-store", test_notes_blank_store);
  g_test_add_func ("/notes/hostile-store", test_notes_hostile_store);
  g_test_add_func ("/notes/marks", test_notes_marks);
  return g_test_run ();
}
