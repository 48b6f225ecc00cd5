/* test-mapping.c: reading ProGuard/R8 mappings and looking names up
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-error.h"
#include "strata-hprof-index.h"
#include "strata-mapping.h"
#include "strata-test-util.h"
#include "strata-trace-mapping.h"

static const char mapping_text[] =
  "# compiler: R8\n"
  "# {\"id\":\"com.android.tools.r8.mapping\",\"version\":\"2.2\"}\n"
  "com.example.Foo -> a.a:\n"
  "# {\"id\":\"sourceFile\",\"fileName\":\"Foo.java\"}\n"
  "    int count -> a\n"
  "    java.lang.String name -> b\n"
  "    1:4:void bar(int,java.lang.String):20:23 -> b\n"
  "    5:5:void helper():40:40 -> c\n"
  "    5:5:void com.example.Other.util():7:7 -> c\n"
  "    5:5:void bar():24 -> c\n"
  "    6:9:void baz(com.example.Foo[]):30:33 -> b\n"
  "    void noLines(long) -> d\n"
  "    void other(long) -> d\n"
  "    # {\"id\":\"com.android.tools.r8.synthesized\"}\n"
  "com.example.Foo$Inner -> a.b:\n"
  "    12:oops -> x\n"
  "com.example.Skipped -> a.c:\n"
  "    void run() -> a\n"
  "this is no mapping line\n"
  "com.example.Cut -> a.d:\n"
  "    1:2:void cu";

static StrataMapping *
read_mapping (GHashTable *wanted)
{
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (mapping_text, strlen (mapping_text), NULL);
  StrataMapping *mapping = strata_mapping_new_for_classes (wanted);
  g_autoptr(GError) error = NULL;

  g_assert_true (strata_mapping_read (mapping, stream, NULL, &error));
  g_assert_no_error (error);
  return mapping;
}

static void
assert_method (StrataMapping *mapping,
               const char    *klass,
               const char    *name,
               const char    *descriptor,
               int            line,
               const char    *expected)
{
  g_autofree char *found = strata_mapping_method (mapping, klass, name, descriptor, line);

  g_assert_cmpstr (found, ==, expected);
}

static void
test_mapping_lookups (void)
{
  g_autoptr(StrataMapping) mapping = read_mapping (NULL);
  g_autofree char *descriptor = strata_mapping_descriptor (mapping, "([La/a;)V");
  g_autofree char *array = strata_mapping_type (mapping, "a.b[][]");
  g_autofree char *described = strata_mapping_describe_bad_lines (mapping);

  g_assert_cmpstr (strata_mapping_class (mapping, "a.a"), ==, "com.example.Foo");
  g_assert_cmpstr (strata_mapping_class (mapping, "a.b"), ==, "com.example.Foo$Inner");
  g_assert_cmpstr (array, ==, "com.example.Foo$Inner[][]");
  g_assert_cmpstr (descriptor, ==, "([Lcom/example/Foo;)V");
  g_assert_cmpstr (strata_mapping_field (mapping, "a.a", "b"), ==, "name");
  /* Overloads by signature. */
  assert_method (mapping, "a.a", "b", "(ILjava/lang/String;)V", -1, "com.example.Foo.bar");
  assert_method (mapping, "a.a", "b", descriptor, -1, "com.example.Foo.baz");
  /* Without a signature the mapping cannot tell: both. */
  assert_method (mapping, "a.a", "b", NULL, -1, "com.example.Foo.bar | com.example.Foo.baz");
  assert_method (mapping, "a.a", "d", NULL, -1, "com.example.Foo.noLines | com.example.Foo.other");
  /* By line: the range tells. */
  assert_method (mapping, "a.a", "b", NULL, 7, "com.example.Foo.baz");
  /* An inlining: the method is the one holding the code, the frame at its
   * line the innermost; one inlined from another class keeps its class. */
  assert_method (mapping, "a.a", "c", "()V", -1, "com.example.Foo.bar");
  assert_method (mapping, "a.a", "c", NULL, 5, "com.example.Foo.helper");
  assert_method (mapping, "a.a", "zz", NULL, -1, NULL);
  assert_method (mapping, "z.z", "a", NULL, -1, NULL);
  /* An unknown signature (another build): the name alone. */
  assert_method (mapping, "a.a", "c", "(J)V", -1, "com.example.Foo.bar");
  g_assert_cmpuint (strata_mapping_get_n_bad_lines (mapping), ==, 3);
  g_assert_nonnull (strstr (described, "3 lines of the mapping could not be read, the first line 16"));
}

/* Only the classes a trace names are kept. */
static void
test_mapping_wanted (void)
{
  g_autoptr(GHashTable) wanted = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(StrataMapping) mapping = NULL;

  g_hash_table_add (wanted, (char *) "a.b");
  mapping = read_mapping (wanted);
  g_assert_cmpuint (strata_mapping_get_n_classes (mapping), ==, 1);
  g_assert_null (strata_mapping_class (mapping, "a.a"));
  g_assert_cmpstr (strata_mapping_class (mapping, "a.b"), ==, "com.example.Foo$Inner");
}

/* Every cut of the text reads what is whole and counts the rest. */
static void
test_mapping_cut (void)
{
  for (gsize cut = 0; cut < strlen (mapping_text); cut++)
    {
      g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (mapping_text, cut, NULL);
      g_autoptr(StrataMapping) mapping = strata_mapping_new_for_classes (NULL);

      g_assert_true (strata_mapping_read (mapping, stream, NULL, NULL));
      if (cut > strstr (mapping_text, "-> a.a:") - mapping_text + 7)
        g_assert_cmpstr (strata_mapping_class (mapping, "a.a"), ==, "com.example.Foo");
    }
}

/* A mapping file cut short on disk while it is read: the read fails with
 * a message (or, cut after it ended, succeeds); the process lives. */
static void
test_mapping_shrinks_while_read (void)
{
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "mapping.txt", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(StrataMapping) mapping = strata_mapping_new_for_classes (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  StrataTestCut *cut;
  gint64 end, cut_at;
  gboolean ok;

  for (guint i = 0; i < 800000; i++)
    g_string_append_printf (text, "com.example.C%u -> a%u:\n    int field%u -> f:\n    void run%u() -> r\n", i, i, i, i);
  g_assert_true (g_file_set_contents (path, text->str, text->len, NULL));
  cut = strata_test_cut_later (path, 100);
  ok = strata_mapping_read_file (mapping, file, NULL, &error);
  end = g_get_monotonic_time ();
  cut_at = strata_test_cut_join (cut);
  g_test_message ("%s", ok ? "read before the cut" : error->message);
  if (cut_at + 5000 < end)
    {
      g_assert_false (ok);
      g_assert_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_TRUNCATED);
    }
}

/* A heap dump's class and its instances' field take the mapping's names,
 * and give them back. */
static void
test_mapping_heap_dump (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "allocations.hprof.gz", NULL);
  const char text[] = "com.example.Tiny -> Allocations$Small:\n    int count -> value\n";
  g_autofree char *mapping_path = strata_test_write_file ("heap-mapping.txt", text, sizeof text - 1);
  g_autoptr(GFile) mapping = g_file_new_for_path (mapping_path);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_path (path, &error);
  g_autoptr(StrataTraceNames) names = NULL;
  const StrataHeap *heap;
  StrataHeapGraph *graph;
  guint klass = G_MAXUINT;
  guint32 n, *instances;

  g_assert_no_error (error);
  names = strata_trace_map_names (trace, mapping, NULL, &error);
  g_assert_no_error (error);
  /* The class and its arrays. */
  g_assert_cmpuint (strata_trace_names_get_n_classes (names), >=, 2);
  strata_trace_names_apply (names, trace);
  heap = strata_trace_get_heap (trace);
  graph = strata_heap_get_graph (heap);
  for (guint c = 0; c < strata_heap_get_n_classes (heap); c++)
    if (g_str_equal (strata_trace_get_string (trace, strata_heap_get_class (heap, c)->name), "com.example.Tiny"))
      klass = c;
  g_assert_cmpuint (klass, !=, G_MAXUINT);
  instances = strata_heap_graph_list_instances (graph, klass, &n);
  g_assert_cmpuint (n, >=, 12345);
  {
    g_autoptr(GArray) fields = strata_hprof_index_get_fields (strata_heap_get_index (heap), trace, instances[0]);

    g_assert_cmpuint (fields->len, ==, 1);
    g_assert_cmpstr (g_array_index (fields, StrataHeapField, 0).name, ==, "count");
  }
  strata_trace_restore_names (trace);
  {
    g_autoptr(GArray) fields = strata_hprof_index_get_fields (strata_heap_get_index (heap), trace, instances[0]);

    g_assert_cmpstr (g_array_index (fields, StrataHeapField, 0).name, ==, "value");
    g_assert_cmpstr (strata_trace_get_string (trace, strata_heap_get_class (heap, klass)->name), ==, "Allocations$Small");
  }
  g_free (instances);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mapping/lookups", test_mapping_lookups);
  g_test_add_func ("/mapping/wanted", test_mapping_wanted);
  g_test_add_func ("/mapping/cut", test_mapping_cut);
  g_test_add_func ("/mapping/shrinks-while-read", test_mapping_shrinks_while_read);
  g_test_add_func ("/mapping/heap-dump", test_mapping_heap_dump);

  return g_test_run ();
}
