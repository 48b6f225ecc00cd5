/* test-hprof.c: binary heap dumps, summed per class
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "strata-hprof-index.h"
#include "strata-error.h"
#include "strata-heap.h"
#include "strata-heap-duplicates.h"
#include "strata-loader.h"
#include "strata-profile.h"
#include "hprof-writer.h"
#include "strata-test-model.h"
#include "strata-test-util.h"

static const StrataHeapClass *
find_class (StrataTrace *trace,
            const char  *name)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);

  for (guint i = 0; i < strata_heap_get_n_classes (heap); i++)
    if (g_str_equal (strata_trace_get_string (trace, strata_heap_get_class (heap, i)->name), name))
      return strata_heap_get_class (heap, i);
  return NULL;
}

/* tests/java/Allocations.java, dumped by JDK 17's jcmd: the histogram has
 * exactly what the program printed, sized as `jcmd GC.class_histogram`
 * sizes them (compressed references: a 12-byte header and 4-byte
 * references, arrays' elements from byte 16, 8-byte alignment): Small
 * 12 + 4; Big 12 + 3 × 8 + 4; Small[100] 16 + 400; Small[9][] 16 + 36
 * aligned to 56. Nothing of theirs refers further, so each class retains
 * exactly its instances. */
static void
test_known_allocations (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "allocations.hprof.gz", NULL);
  g_autofree char *expected_path = g_test_build_filename (G_TEST_DIST, "data", "allocations.expected", NULL);
  g_autofree char *expected = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_heap (path);
  struct { const char *name; guint64 vm_bytes; } classes[] = {
    { "Allocations$Small", 16 }, { "Allocations$Big", 40 },
    { "Allocations$Small[]", 416 }, { "Allocations$Small[][]", 56 },
  };
  g_auto(GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (expected_path, &expected, NULL, NULL));
  lines = g_strsplit (expected, "\n", -1);
  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    {
      const StrataHeapClass *klass = find_class (trace, classes[i].name);
      g_autofree char *prefix = g_strconcat (classes[i].name, " ", NULL);
      guint64 count = 0;

      for (guint l = 0; lines[l] != NULL; l++)
        if (g_str_has_prefix (lines[l], prefix))
          count = g_ascii_strtoull (lines[l] + strlen (prefix), NULL, 10);
      g_test_message ("%s: %" G_GUINT64_FORMAT " expected", classes[i].name, count);
      g_assert_cmpuint (count, >, 0);
      g_assert_nonnull (klass);
      g_assert_cmpuint (klass->instances, ==, count);
      g_assert_cmpuint (klass->shallow_bytes, ==, count * classes[i].vm_bytes);
    }
  for (guint i = 0; i < 2; i++)
    {
      const StrataHeapClass *klass = find_class (trace, classes[i].name);

      g_assert_nonnull (klass);
      g_assert_cmpuint (klass->retained_bytes, ==, klass->shallow_bytes);
    }
  g_assert_cmpuint (strata_heap_get_root_count (strata_trace_get_heap (trace), STRATA_ROOT_THREAD_OBJECT), >, 0);
  g_assert_cmpuint (strata_trace_get_n_diagnostics (trace), ==, 0);

  /* The 685 class mirrors with their statics (references first, then
   * longs aligned, then the smaller fields appended): jcmd said 85,512
   * bytes of java.lang.Class for the process that wrote this dump. */
  {
    const StrataHeapClass *mirrors = find_class (trace, "java.lang.Class");

    g_assert_nonnull (mirrors);
    g_assert_cmpuint (mirrors->instances, ==, 685);
    g_assert_cmpuint (mirrors->shallow_bytes, ==, 85512);
  }

  /* JDK 17 names no thread in its records: the name comes from each
   * java.lang.Thread's name field. */
  {
    const StrataHeap *heap = strata_trace_get_heap (trace);
    gboolean main_named = FALSE;

    for (guint t = 0; t < strata_heap_get_n_threads (heap); t++)
      main_named |= g_strcmp0 (strata_trace_get_string (trace, strata_heap_get_thread (heap, t)->name), "main") == 0;
    g_assert_true (main_named);
  }

  /* main's frame in Allocations.main holds its locals: the list of
   * Smalls among them. */
  {
    const StrataHeap *heap = strata_trace_get_heap (trace);
    StrataHeapGraph *graph = strata_heap_get_graph (heap);
    gboolean holds_list = FALSE;

    for (guint t = 0; t < strata_heap_get_n_threads (heap); t++)
      {
        const StrataHeapThread *thread = strata_heap_get_thread (heap, t);
        guint n;
        const StrataFrameRoot *held = strata_heap_get_frame_roots (heap, thread->serial, &n);

        if (g_strcmp0 (strata_trace_get_string (trace, thread->name), "main") != 0)
          continue;
        for (guint r = 0; r < n; r++)
          {
            guint32 klass = strata_heap_graph_get_class (graph, held[r].object);

            holds_list |= held[r].frame >= 0 && klass < strata_heap_get_n_classes (heap) &&
                          g_str_equal (strata_trace_get_string (trace, strata_heap_get_class (heap, klass)->name),
                                       "java.util.ArrayList");
          }
      }
    g_assert_true (holds_list);
  }

  /* HotSpot writes each thread's stack: main sleeps in Allocations.main. */
  {
    const StrataHeap *heap = strata_trace_get_heap (trace);
    gboolean found = FALSE;

    for (guint t = 0; t < strata_heap_get_n_threads (heap); t++)
      {
        guint n;
        const guint32 *frames = strata_heap_get_stack (heap, strata_heap_get_thread (heap, t)->stack, &n);

        for (guint f = 0; f < n; f++)
          found |= g_str_has_prefix (strata_trace_get_string (trace, frames[f]), "Allocations.main(Allocations.java:");
      }
    g_assert_true (found);
  }
}

/* The JDK agent's binary output: threads by name, allocation sites whose
 * stacks resolve. */
static void
test_agent_sites (void)
{
  g_autofree char *path = strata_test_corpus_path ("hprof", "hprof-slurp-hprof-32.bin", NULL);
  g_autoptr(StrataTrace) trace = NULL;
  const StrataHeap *heap;
  gboolean main_seen = FALSE;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      strata_test_skip_no_corpus ();
      return;
    }
  trace = strata_test_load_heap (path);
  heap = strata_trace_get_heap (trace);
  g_assert_cmpuint (strata_heap_get_n_sites (heap), >, 10);
  g_assert_cmpstr (strata_trace_get_string (trace, strata_heap_get_site (heap, 0)->class_name), ==, "char[]");
  g_assert_cmpuint (strata_heap_get_site (heap, 0)->live_bytes, ==, 63496);
  for (guint t = 0; t < strata_heap_get_n_threads (heap); t++)
    main_seen |= g_str_equal (strata_trace_get_string (trace, strata_heap_get_thread (heap, t)->name), "main");
  g_assert_true (main_seen);
}

static void
test_corpus (void)
{
  const char *names[] = {
    "ahat-RI.hprof", "hprof-slurp-hprof-32.bin", "hprof-slurp-hprof-64.bin",
    "kevinlights-student32.hprof", "py-hprof-example-java.hprof", "studio-perflib-dialer.android-hprof",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = strata_test_corpus_path ("hprof", names[i], NULL);
      g_autoptr(StrataTrace) trace = NULL;
      guint64 instances, bytes;

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        {
          strata_test_skip_no_corpus ();
          return;
        }
      trace = strata_test_load_heap (path);
      strata_heap_get_totals (strata_trace_get_heap (trace), &instances, &bytes);
      g_test_message ("%s: %" G_GUINT64_FORMAT " objects, %" G_GUINT64_FORMAT " bytes", names[i], instances, bytes);
      g_assert_cmpuint (instances, >, 1000);
      g_assert_nonnull (find_class (trace, "java.lang.String"));
      g_assert_null (find_class (trace, "java/lang/String"));
      g_assert_cmpuint (strata_trace_get_n_diagnostics (trace), ==, 0);
    }
}

static GBytes *
corpus_bytes (const char *name)
{
  g_autofree char *path = strata_test_corpus_path ("hprof", name, NULL);
  g_autofree char *contents = NULL;
  gsize len;

  if (!g_file_get_contents (path, &contents, &len, NULL))
    return NULL;
  return g_bytes_new_take (g_steal_pointer (&contents), len);
}

/* A dump cut anywhere keeps the classes counted so far and says where. */
static void
test_damaged (void)
{
  g_autoptr(GBytes) whole = corpus_bytes ("ahat-RI.hprof");
  g_autoptr(GBytes) half = NULL;
  g_autoptr(GBytes) bad_id = NULL;
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *copy = NULL;
  gconstpointer data;
  gsize len;

  if (whole == NULL)
    {
      strata_test_skip_no_corpus ();
      return;
    }
  half = g_bytes_new_from_bytes (whole, 0, g_bytes_get_size (whole) / 2);
  trace = strata_test_load_heap_bytes (half, &error);
  g_assert_no_error (error);
  g_assert_true (strata_test_has_diagnostic (trace, "cut off"));
  g_assert_cmpuint (strata_heap_get_n_classes (strata_trace_get_heap (trace)), >, 100);

  data = g_bytes_get_data (whole, &len);
  copy = g_memdup2 (data, len);
  copy[strlen ((char *) copy) + 4] = 5;   /* identifier size 5 */
  bad_id = g_bytes_new (copy, len);
  g_clear_object (&trace);
  trace = strata_test_load_heap_bytes (bad_id, &error);
  g_assert_null (trace);
  g_assert_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT);
}

/* Android 1.0.3 and its hprof-conv conversion: the same histogram. */
static void
test_hprof_conv (void)
{
  g_autofree char *tool = g_find_program_in_path ("hprof-conv");
  g_autofree char *input = strata_test_corpus_path ("hprof", "studio-perflib-dialer.android-hprof", NULL);
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *output = g_build_filename (dir, "converted.hprof", NULL);
  g_autoptr(StrataTrace) android = NULL;
  g_autoptr(StrataTrace) converted = NULL;
  const StrataHeap *heap;
  guint compared = 0;

  if (tool == NULL && g_file_test ("/usr/lib/android-sdk/platform-tools/hprof-conv", G_FILE_TEST_IS_EXECUTABLE))
    tool = g_strdup ("/usr/lib/android-sdk/platform-tools/hprof-conv");
  if (tool == NULL || !g_file_test (input, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("hprof-conv or the corpus is missing");
      return;
    }
  {
    const char *argv[] = { tool, input, output, NULL };
    int status;

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, NULL));
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }
  android = strata_test_load_heap (input);
  converted = strata_test_load_heap (output);
  heap = strata_trace_get_heap (android);
  for (guint i = 0; i < strata_heap_get_n_classes (heap); i++)
    {
      const StrataHeapClass *a = strata_heap_get_class (heap, i);
      const StrataHeapClass *b = find_class (converted, strata_trace_get_string (android, a->name));

      if (b == NULL)
        continue;
      g_assert_cmpuint (a->instances, ==, b->instances);
      g_assert_cmpuint (a->shallow_bytes, ==, b->shallow_bytes);
      compared++;
    }
  g_assert_cmpuint (compared, >, 1000);
  /* Android's own roots become "unknown" in the conversion. */
  g_assert_cmpuint (strata_heap_get_root_count (heap, STRATA_ROOT_INTERNED_STRING), >, 0);
  g_assert_cmpuint (strata_heap_get_root_count (strata_trace_get_heap (converted), STRATA_ROOT_INTERNED_STRING), ==, 0);
}

/* ---- A tiny binary HPROF writer (4-byte ids, big-endian) ---- */
#define put_u1(out, value) hprof_writer_put ((out), (value), 1)
#define put_u4(out, value) hprof_writer_put ((out), (value), 4)
#define put_record hprof_writer_put_record

static void
put_string (GByteArray *out,
            GByteArray *body,
            guint32     id,
            const char *text)
{
  put_u4 (body, id);
  g_byte_array_append (body, (const guint8 *) text, strlen (text));
  put_record (out, 0x01, body);
}

/* Class Main (serial 1) with run (frame 10) called from main (frame 11);
 * trace 1: run<-main, trace 2: main; CPU SAMPLES: 7 in trace 1, 3 in 2. */
static GBytes *
write_cpu_samples_dump (void)
{
  GByteArray *out = g_byte_array_new ();
  g_autoptr(GByteArray) body = g_byte_array_new ();
  const char header[] = "JAVA PROFILE 1.0.1";

  g_byte_array_append (out, (const guint8 *) header, sizeof header);
  put_u4 (out, 4);
  put_u4 (out, 0);
  put_u4 (out, 0);
  put_string (out, body, 1, "Main");
  put_string (out, body, 2, "run");
  put_string (out, body, 3, "main");
  put_string (out, body, 4, "Main.java");
  put_u4 (body, 1); put_u4 (body, 0x100); put_u4 (body, 0); put_u4 (body, 1);
  put_record (out, 0x02, body);
  put_u4 (body, 10); put_u4 (body, 2); put_u4 (body, 0); put_u4 (body, 4); put_u4 (body, 1); put_u4 (body, 12);
  put_record (out, 0x04, body);
  put_u4 (body, 11); put_u4 (body, 3); put_u4 (body, 0); put_u4 (body, 4); put_u4 (body, 1); put_u4 (body, 5);
  put_record (out, 0x04, body);
  put_u4 (body, 1); put_u4 (body, 0); put_u4 (body, 2); put_u4 (body, 10); put_u4 (body, 11);
  put_record (out, 0x05, body);
  put_u4 (body, 2); put_u4 (body, 0); put_u4 (body, 1); put_u4 (body, 11);
  put_record (out, 0x05, body);
  put_u4 (body, 10); put_u4 (body, 2); put_u4 (body, 7); put_u4 (body, 1); put_u4 (body, 3); put_u4 (body, 2);
  put_record (out, 0x0D, body);
  return g_byte_array_free_to_bytes (out);
}

static void
test_binary_cpu_samples (void)
{
  g_autoptr(GBytes) bytes = write_cpu_samples_dump ();
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_heap_bytes (bytes, &error);
  g_autoptr(StrataProfile) profile = NULL;
  gint64 run_exclusive = -1, main_inclusive = -1;

  g_assert_no_error (error);
  g_assert_cmpint (strata_trace_get_clock_kind (trace, 0), ==, STRATA_CLOCK_SAMPLES);
  profile = strata_profile_new (trace, -1, NULL, NULL);
  for (guint32 m = 0; m < strata_trace_get_n_methods (trace); m++)
    {
      const char *name = strata_trace_get_method_name (trace, m);

      if (g_str_equal (name, "Main.run"))
        run_exclusive = strata_profile_get_entry (profile, m)->exclusive[0];
      if (g_str_equal (name, "Main.main"))
        main_inclusive = strata_profile_get_entry (profile, m)->inclusive[0];
    }
  g_assert_cmpint (run_exclusive, ==, 7 * 1000000);
  g_assert_cmpint (main_inclusive, ==, 10 * 1000000);
  g_assert_cmpint (strata_profile_get_total (profile, 0), ==, 10 * 1000000);
}

/* A header that names 4-byte ids over records written with 8: the
 * records' lengths decide, and the repair is said. */
static void
test_wrong_id_size (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "allocations.hprof.gz", NULL);
  g_autofree char *gz = NULL;
  gsize gz_len = 0;
  g_autoptr(GZlibDecompressor) z = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(GInputStream) plain = NULL;
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  guint8 *data;
  gsize len;
  const guint8 *nul;

  g_assert_true (g_file_get_contents (path, &gz, &gz_len, NULL));
  in = g_memory_input_stream_new_from_data (g_steal_pointer (&gz), gz_len, g_free);
  plain = g_converter_input_stream_new (in, G_CONVERTER (z));
  g_assert_cmpint (g_output_stream_splice (out, plain, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error), >, 0);
  g_assert_no_error (error);
  len = g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out));
  data = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
  nul = memchr (data, 0, 64);
  g_assert_nonnull (nul);
  /* The id size follows the magic's NUL, big-endian: 8 becomes 4. */
  g_assert_cmpuint (nul[4], ==, 8);
  data[nul - data + 4] = 4;
  bytes = g_bytes_new_take (data, len);

  trace = strata_test_load_heap_bytes (bytes, &error);
  g_assert_no_error (error);
  g_assert_nonnull (find_class (trace, "java.lang.String"));
  g_assert_nonnull (find_class (trace, "Allocations$Small"));
  g_assert_true (strata_test_has_diagnostic (trace, "records use 8"));
}

/* ---- A hand-checked object graph (8-byte ids) ---- */
static void
put_id (GByteArray *out,
        guint64     id)
{
  put_u4 (out, id >> 32);
  put_u4 (out, (guint32) id);
}

#define put_u2(out, value) hprof_writer_put ((out), (value), 2)

/* LOAD CLASS and CLASS DUMP: @fields and @statics are "name:type" with
 * type 2 (object) or 10 (int); statics take their values from @values. */
static void
put_class (GByteArray    *out,
           GByteArray    *dump,
           guint64        id,
           const char    *name,
           guint64        super,
           const char   **fields,
           const char   **statics,
           const guint64 *values)
{
  g_autoptr(GByteArray) body = g_byte_array_new ();
  guint n_fields = fields ? g_strv_length ((char **) fields) : 0;
  guint n_statics = statics ? g_strv_length ((char **) statics) : 0;

  put_id (body, id + 0x100000);
  g_byte_array_append (body, (const guint8 *) name, strlen (name));
  put_record (out, 0x01, body);
  put_u4 (body, (guint32) id);
  put_id (body, id);
  put_u4 (body, 0);
  put_id (body, id + 0x100000);
  put_record (out, 0x02, body);

  put_u1 (dump, 0x20);
  put_id (dump, id);
  put_u4 (dump, 0);
  put_id (dump, super);
  for (guint i = 0; i < 5; i++)
    put_id (dump, 0);
  put_u4 (dump, 0);
  put_u2 (dump, 0);
  put_u2 (dump, n_statics);
  for (guint i = 0; i < n_statics; i++)
    {
      guint64 name_id = id * 16 + 0x200000 + i;
      g_auto(GStrv) parts = g_strsplit (statics[i], ":", 2);

      put_id (body, name_id);
      g_byte_array_append (body, (const guint8 *) parts[0], strlen (parts[0]));
      put_record (out, 0x01, body);
      put_id (dump, name_id);
      put_u1 (dump, atoi (parts[1]));
      if (atoi (parts[1]) == 2)
        put_id (dump, values[i]);
      else
        put_u4 (dump, (guint32) values[i]);
    }
  put_u2 (dump, n_fields);
  for (guint i = 0; i < n_fields; i++)
    {
      guint64 name_id = id * 16 + 0x300000 + i;
      g_auto(GStrv) parts = g_strsplit (fields[i], ":", 2);

      put_id (body, name_id);
      g_byte_array_append (body, (const guint8 *) parts[0], strlen (parts[0]));
      put_record (out, 0x01, body);
      put_id (dump, name_id);
      put_u1 (dump, atoi (parts[1]));
    }
}

/* A Node: next (object), then value (int). */
static void
put_node (GByteArray *dump,
          guint64     id,
          guint64     next)
{
  put_u1 (dump, 0x21);
  put_id (dump, id);
  put_u4 (dump, 0);
  put_id (dump, 0x1003);
  put_u4 (dump, 12);
  put_id (dump, next);
  put_u4 (dump, 7);
}

enum { NODE_A = 0x2000, NODE_B, NODE_C, LIST, WEAK, NODE_D, NODE_E, TEXT_1, TEXT_2, TEXT_3, BYTES_1, BYTES_2 };

/* A java.lang.String of Latin-1 bytes: value, then coder. */
static void
put_string_object (GByteArray *dump,
                   guint64     id,
                   guint64     value)
{
  put_u1 (dump, 0x21);
  put_id (dump, id);
  put_u4 (dump, 0);
  put_id (dump, 0x1006);
  put_u4 (dump, 9);
  put_id (dump, value);
  put_u1 (dump, 0);
}

static void
put_bytes (GByteArray *dump,
           guint64     id,
           const char *text)
{
  put_u1 (dump, 0x23);
  put_id (dump, id);
  put_u4 (dump, 0);
  put_u4 (dump, strlen (text));
  put_u1 (dump, 8);
  g_byte_array_append (dump, (const guint8 *) text, strlen (text));
}

/* Holder's static `list` holds an array of [A]; A → B → C → A (a cycle);
 * E, a local variable, → B (so B is reached two ways); a WeakReference, a
 * local too, is all that refers to D. */
static GBytes *
write_graph_dump (void)
{
  GByteArray *out = g_byte_array_new ();
  g_autoptr(GByteArray) dump = g_byte_array_new ();
  const char header[] = "JAVA PROFILE 1.0.2";
  const char *reference_fields[] = { "referent:2", NULL };
  const char *node_fields[] = { "next:2", "value:10", NULL };
  const char *holder_statics[] = { "list:2", NULL };
  const char *string_fields[] = { "value:2", "coder:8", NULL };
  const guint64 holder_values[] = { LIST };

  g_byte_array_append (out, (const guint8 *) header, sizeof header);
  put_u4 (out, 8);
  put_u4 (out, 0);
  put_u4 (out, 0);
  put_class (out, dump, 0x1000, "java/lang/Object", 0, NULL, NULL, NULL);
  put_class (out, dump, 0x1001, "java/lang/ref/Reference", 0x1000, reference_fields, NULL, NULL);
  put_class (out, dump, 0x1002, "java/lang/ref/WeakReference", 0x1001, NULL, NULL, NULL);
  put_class (out, dump, 0x1003, "Node", 0x1000, node_fields, NULL, NULL);
  put_class (out, dump, 0x1004, "Holder", 0x1000, NULL, holder_statics, holder_values);
  put_class (out, dump, 0x1005, "[LNode;", 0x1000, NULL, NULL, NULL);
  put_class (out, dump, 0x1006, "java/lang/String", 0x1000, string_fields, NULL, NULL);
  /* Three strings "hi": two share one array, the third has an equal one. */
  put_string_object (dump, TEXT_1, BYTES_1);
  put_string_object (dump, TEXT_2, BYTES_2);
  put_string_object (dump, TEXT_3, BYTES_1);
  put_bytes (dump, BYTES_1, "hi");
  put_bytes (dump, BYTES_2, "hi");
  put_node (dump, NODE_A, NODE_B);
  put_node (dump, NODE_B, NODE_C);
  put_node (dump, NODE_C, NODE_A);
  put_u1 (dump, 0x22);
  put_id (dump, LIST);
  put_u4 (dump, 0);
  put_u4 (dump, 1);
  put_id (dump, 0x1005);
  put_id (dump, NODE_A);
  put_u1 (dump, 0x21);
  put_id (dump, WEAK);
  put_u4 (dump, 0);
  put_id (dump, 0x1002);
  put_u4 (dump, 8);
  put_id (dump, NODE_D);
  put_node (dump, NODE_D, 0);
  put_node (dump, NODE_E, NODE_B);
  put_u1 (dump, 0x05);
  put_id (dump, 0x1004);
  put_u1 (dump, 0x03);
  put_id (dump, WEAK);
  put_u4 (dump, 1);
  put_u4 (dump, 0);
  put_u1 (dump, 0x03);
  put_id (dump, NODE_E);
  put_u4 (dump, 1);
  put_u4 (dump, 0);
  put_record (out, 0x1C, dump);
  return g_byte_array_free_to_bytes (out);
}

static void
test_object_graph (void)
{
  g_autoptr(GBytes) bytes = write_graph_dump ();
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_heap_bytes (bytes, &error);
  const StrataHeap *heap;
  StrataHeapGraph *graph;
  const StrataHeapClass *node;
  guint32 a, b, c, d, e, list, n;
  g_autofree guint32 *path = NULL;
  g_autofree char *field = NULL;
  g_autoptr(GArray) fields = NULL;

  g_assert_no_error (error);
  heap = strata_trace_get_heap (trace);
  graph = strata_heap_get_graph (heap);
  g_assert_nonnull (graph);
  a = strata_heap_graph_lookup (graph, NODE_A);
  b = strata_heap_graph_lookup (graph, NODE_B);
  c = strata_heap_graph_lookup (graph, NODE_C);
  d = strata_heap_graph_lookup (graph, NODE_D);
  e = strata_heap_graph_lookup (graph, NODE_E);
  list = strata_heap_graph_lookup (graph, LIST);

  /* Compressed references: 12 + 4 + 4 = 20, aligned to 24; an array of
   * one reference: 16 + 4, aligned to 24; a WeakReference 12 + 4 = 16. */
  node = find_class (trace, "Node");
  g_assert_nonnull (node);
  g_assert_cmpuint (node->instances, ==, 5);
  g_assert_cmpuint (node->shallow_bytes, ==, 5 * 24);
  g_assert_cmpuint (strata_heap_graph_get_shallow (graph, list), ==, 24);
  {
    const StrataHeapClass *weak = find_class (trace, "java.lang.ref.WeakReference");

    g_assert_nonnull (weak);
    g_assert_cmpuint (weak->shallow_bytes, ==, 16);
  }

  /* B is reached through A and through E: only the roots dominate it;
   * it retains C. A is reached from the list and from C. D is held only
   * weakly: nothing keeps it alive. */
  g_assert_cmpuint (strata_heap_graph_get_dominator (graph, b), ==, STRATA_HEAP_NO_OBJECT);
  g_assert_cmpuint (strata_heap_graph_get_dominator (graph, c), ==, b);
  g_assert_cmpuint (strata_heap_graph_get_dominator (graph, a), ==, STRATA_HEAP_NO_OBJECT);
  g_assert_cmpuint (strata_heap_graph_get_dominator (graph, list), ==, strata_heap_graph_lookup (graph, 0x1004));
  g_assert_cmpuint (strata_heap_graph_get_retained (graph, b), ==, 48);
  g_assert_false (strata_heap_graph_is_reachable (graph, d));
  g_assert_cmpuint (strata_heap_graph_get_retained (graph, d), ==, 0);
  /* A, B (with C) and E: 24 + 48 + 24. */
  g_assert_cmpuint (node->retained_bytes, ==, 96);

  /* The shortest path to C starts at the local E. */
  path = strata_heap_graph_path_from_root (graph, c, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (path[0], ==, e);
  g_assert_cmpint (strata_heap_graph_get_root_kind (graph, e), ==, STRATA_ROOT_JAVA_FRAME);
  field = strata_hprof_index_name_reference (strata_heap_get_index (heap), trace, e, b);
  g_assert_cmpstr (field, ==, "next");
  g_clear_pointer (&field, g_free);
  field = strata_hprof_index_name_reference (strata_heap_get_index (heap), trace,
                                             strata_heap_graph_lookup (graph, 0x1004), list);
  g_assert_cmpstr (field, ==, "static list");
  g_clear_pointer (&field, g_free);
  field = strata_hprof_index_name_reference (strata_heap_get_index (heap), trace, list, a);
  g_assert_cmpstr (field, ==, "[0]");

  /* "hi" three times: a copy with its own array wastes 24 + 24 bytes, one
   * sharing the first's array 24; the two equal arrays waste 24. */
  {
    g_autoptr(GArray) strings = strata_heap_find_duplicates (trace, TRUE, 10, NULL);
    g_autoptr(GArray) arrays = strata_heap_find_duplicates (trace, FALSE, 10, NULL);
    g_autofree char *text = strata_hprof_index_dup_string (strata_heap_get_index (heap), trace,
                                                           strata_heap_graph_lookup (graph, TEXT_2));

    g_assert_cmpstr (text, ==, "hi");
    g_assert_cmpuint (strings->len, ==, 1);
    g_assert_cmpstr (g_array_index (strings, StrataHeapDuplicate, 0).text, ==, "hi");
    g_assert_cmpuint (g_array_index (strings, StrataHeapDuplicate, 0).count, ==, 3);
    g_assert_cmpuint (g_array_index (strings, StrataHeapDuplicate, 0).wasted, ==, 72);
    g_assert_cmpuint (arrays->len, ==, 1);
    g_assert_cmpuint (g_array_index (arrays, StrataHeapDuplicate, 0).length, ==, 2);
    g_assert_cmpuint (g_array_index (arrays, StrataHeapDuplicate, 0).wasted, ==, 24);
  }

  fields = strata_hprof_index_get_fields (strata_heap_get_index (heap), trace, a);
  g_assert_cmpuint (fields->len, ==, 2);
  g_assert_cmpstr (g_array_index (fields, StrataHeapField, 0).name, ==, "next");
  g_assert_cmpuint (g_array_index (fields, StrataHeapField, 0).value, ==, NODE_B);
  g_assert_cmpstr (g_array_index (fields, StrataHeapField, 1).name, ==, "value");
  g_assert_cmpuint (g_array_index (fields, StrataHeapField, 1).value, ==, 7);
}

/* D is unreachable but for the WeakReference a local holds: weakly
 * reachable, not garbage. The same dump with a SoftReference instead
 * (the class's name changed in place) has it softly reachable. */
static void
test_weakly_reached (void)
{
  g_autoptr(GBytes) bytes = write_graph_dump ();
  gsize len;
  g_autofree guint8 *soft = g_memdup2 (g_bytes_get_data (bytes, &len), g_bytes_get_size (bytes));
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) weak_trace = strata_test_load_heap_bytes (bytes, &error);
  g_autoptr(StrataTrace) soft_trace = NULL;
  g_autoptr(GBytes) soft_bytes = NULL;
  g_autofree char *described = NULL;
  const StrataHeap *heap;
  guint8 *name;

  g_assert_no_error (error);
  heap = strata_trace_get_heap (weak_trace);
  g_assert_cmpuint (strata_heap_get_weakly_reached (heap)->objects, ==, 1);
  g_assert_cmpuint (strata_heap_get_weakly_reached (heap)->bytes, ==, 24);
  g_assert_cmpuint (strata_heap_get_softly_reached (heap)->objects, ==, 0);
  name = memmem (soft, len, "java/lang/ref/WeakReference", strlen ("java/lang/ref/WeakReference"));
  g_assert_nonnull (name);
  memcpy (name + strlen ("java/lang/ref/"), "Soft", 4);
  soft_bytes = g_bytes_new_take (g_steal_pointer (&soft), len);
  soft_trace = strata_test_load_heap_bytes (soft_bytes, &error);
  g_assert_no_error (error);
  heap = strata_trace_get_heap (soft_trace);
  g_assert_cmpuint (strata_heap_get_softly_reached (heap)->objects, ==, 1);
  g_assert_cmpuint (strata_heap_get_weakly_reached (heap)->objects, ==, 0);
  described = strata_heap_describe_unreachable (heap);
  g_assert_nonnull (strstr (described, "only through soft references"));
}

/* References to ids the dump does not hold: from a reachable Node they
 * are damage (a diagnostic); from an Object[] held by a JNI global (the
 * class data sharing archive's roots, whose closed region HotSpot leaves
 * out) and from an unreachable Node they are normal (notes). */
static GBytes *
write_dangling_dump (void)
{
  GByteArray *out = g_byte_array_new ();
  g_autoptr(GByteArray) dump = g_byte_array_new ();
  const char header[] = "JAVA PROFILE 1.0.2";
  const char *node_fields[] = { "next:2", "value:10", NULL };

  g_byte_array_append (out, (const guint8 *) header, sizeof header);
  put_u4 (out, 8);
  put_u4 (out, 0);
  put_u4 (out, 0);
  put_class (out, dump, 0x1000, "java/lang/Object", 0, NULL, NULL, NULL);
  put_class (out, dump, 0x1003, "Node", 0x1000, node_fields, NULL, NULL);
  put_class (out, dump, 0x1007, "[Ljava/lang/Object;", 0x1000, NULL, NULL, NULL);
  put_node (dump, NODE_A, 0x9000);       /* reachable: a root below */
  put_node (dump, NODE_B, 0x9001);       /* garbage */
  put_u1 (dump, 0x22);                    /* the archive's roots: two missing */
  put_id (dump, LIST);
  put_u4 (dump, 0);
  put_u4 (dump, 2);
  put_id (dump, 0x1007);
  put_id (dump, 0x9002);
  put_id (dump, 0x9003);
  put_u1 (dump, 0x01);                    /* ROOT JNI GLOBAL */
  put_id (dump, LIST);
  put_id (dump, 0x77);
  put_u1 (dump, 0xFF);                    /* ROOT UNKNOWN */
  put_id (dump, NODE_A);
  put_record (out, 0x1C, dump);
  return g_byte_array_free_to_bytes (out);
}

static void
test_dangling_references (void)
{
  g_autoptr(GBytes) bytes = write_dangling_dump ();
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_heap_bytes (bytes, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (strata_trace_get_n_diagnostics (trace), ==, 1);
  g_assert_cmpstr (strata_trace_get_diagnostic (trace, 0), ==,
                   "1 reference of a reachable object points to an object the dump does not hold; it was left out.");
  g_assert_cmpuint (strata_trace_get_n_notes (trace), ==, 2);
  g_assert_true (g_str_has_prefix (strata_trace_get_note (trace, 0), "2 references point to objects of the JDK's class data sharing archive"));
  g_assert_true (g_str_has_prefix (strata_trace_get_note (trace, 1), "1 reference points to an object the dump does not hold, from an unreachable object"));
}

/* A list of 1.2 million nodes: enough objects that the references are
 * read on two cores, each half of the objects on one. Node i holds the
 * rest of the list, whichever half it is in; the path to the last is
 * the whole list; the last node's reference, out of the dump, counts. */
static void
test_two_halves (void)
{
  const guint32 n = 1200000;
  g_autoptr(GBytes) bytes = hprof_writer_linked_list (n);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_heap_bytes (bytes, &error);
  StrataHeapGraph *graph;
  guint32 n_steps, n_refs;
  g_autofree guint32 *path = NULL;
  const guint32 *refs;

  g_assert_no_error (error);
  graph = strata_heap_get_graph (strata_trace_get_heap (trace));
  g_assert_cmpuint (strata_heap_graph_get_n_objects (graph), ==, n + 1);   /* and the class */
  for (guint32 i = 0; i < n; i += 99991)
    {
      guint32 node = strata_heap_graph_lookup (graph, 0x100000 + (guint64) i * 16);

      /* A 16-byte header with compressed class pointers, an 8-byte id as
       * a 4-byte compressed reference: 16 bytes a node. */
      g_assert_cmpuint (strata_heap_graph_get_retained (graph, node), ==, (guint64) (n - i) * 16);
      refs = strata_heap_graph_get_references (graph, node, &n_refs);
      if (i + 1 < n)
        {
          g_assert_cmpuint (n_refs, ==, 1);
          g_assert_cmpuint (strata_heap_graph_get_id (graph, refs[0]), ==, 0x100000 + (guint64) (i + 1) * 16);
        }
    }
  path = strata_heap_graph_path_from_root (graph, strata_heap_graph_lookup (graph, 0x100000 + (guint64) (n - 1) * 16), &n_steps);
  g_assert_cmpuint (n_steps, ==, n);
  g_assert_cmpuint (strata_trace_get_n_diagnostics (trace), ==, 1);
  g_assert_nonnull (strstr (strata_trace_get_diagnostic (trace, 0), "1 reference of a reachable object"));
}

/* Loaded to follow weak references, the same dump keeps D alive through
 * the WeakReference, which then dominates it; by default it does not. */
static void
test_follow_weak (void)
{
  g_autoptr(GBytes) bytes = write_graph_dump ();
  g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent/strata-test/dump.hprof");
  g_autoptr(StrataLoader) loader = strata_loader_new (file);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) strong = strata_test_load_heap_bytes (bytes, &error);
  g_autoptr(StrataTrace) trace = NULL;
  g_autofree char *said = NULL;
  const StrataHeap *heap;
  StrataHeapGraph *graph;
  guint32 d, weak, n;
  const guint32 *refs;
  const StrataHeapClass *node;

  g_assert_no_error (error);
  g_assert_false (strata_heap_get_weak_followed (strata_trace_get_heap (strong)));
  g_assert_cmpuint (strata_heap_get_n_weak_referents (strata_trace_get_heap (strong)), ==, 1);
  said = strata_heap_describe_weak_referents (strata_trace_get_heap (strong));
  g_assert_nonnull (strstr (said, "not counted"));
  g_clear_pointer (&said, g_free);

  strata_loader_set_follow_weak (loader, TRUE);
  trace = strata_loader_load_bytes (loader, bytes, NULL, &error);
  g_assert_no_error (error);
  heap = strata_trace_get_heap (trace);
  graph = strata_heap_get_graph (heap);
  g_assert_true (strata_heap_get_weak_followed (heap));
  g_assert_cmpuint (strata_heap_get_n_weak_referents (heap), ==, 1);
  said = strata_heap_describe_weak_referents (heap);
  g_assert_nonnull (strstr (said, "1 referent is counted"));
  d = strata_heap_graph_lookup (graph, NODE_D);
  weak = strata_heap_graph_lookup (graph, WEAK);
  g_assert_true (strata_heap_graph_is_reachable (graph, d));
  g_assert_cmpuint (strata_heap_graph_get_dominator (graph, d), ==, weak);
  /* The WeakReference (16) now retains D (24). */
  g_assert_cmpuint (strata_heap_graph_get_retained (graph, weak), ==, 16 + 24);
  refs = strata_heap_graph_get_references (graph, weak, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (refs[0], ==, d);
  /* A, B (with C), E and now D, which no Node dominates: 24 + 48 + 24 + 24. */
  node = find_class (trace, "Node");
  g_assert_nonnull (node);
  g_assert_cmpuint (node->retained_bytes, ==, 120);
  g_assert_cmpuint (strata_heap_graph_get_n_unreachable (graph), ==,
                    strata_heap_graph_get_n_unreachable (strata_heap_get_graph (strata_trace_get_heap (strong))) - 1);
}

/* An Android dump (4-byte ids) whose HEAP DUMP INFO records put two Items
 * in the zygote heap and three in the app heap; ART's instance size from
 * the class dump is each one's size. */
static GBytes *
write_android_heaps_dump (void)
{
  GByteArray *out = g_byte_array_new ();
  g_autoptr(GByteArray) body = g_byte_array_new ();
  const char header[] = "JAVA PROFILE 1.0.3";
  const char *names[] = { "com.example.Item", "zygote", "app" };

  g_byte_array_append (out, (const guint8 *) header, sizeof header);
  put_u4 (out, 4);
  put_u4 (out, 0);
  put_u4 (out, 0);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      put_u4 (body, i + 1);
      g_byte_array_append (body, (const guint8 *) names[i], strlen (names[i]));
      put_record (out, 0x01, body);
    }
  put_u4 (body, 1); put_u4 (body, 0x100); put_u4 (body, 0); put_u4 (body, 1);
  put_record (out, 0x02, body);

  put_u1 (body, 0x20);                               /* CLASS DUMP */
  put_u4 (body, 0x100); put_u4 (body, 0);
  for (guint i = 0; i < 6; i++)
    put_u4 (body, 0);
  put_u4 (body, 16);                                 /* ART's instance size */
  put_u1 (body, 0); put_u1 (body, 0);                /* constant pool */
  put_u1 (body, 0); put_u1 (body, 0);                /* statics */
  put_u1 (body, 0); put_u1 (body, 0);                /* instance fields */
  for (guint i = 0; i < 5; i++)
    {
      if (i == 0 || i == 2)
        {
          put_u1 (body, 0xFE);                       /* HEAP DUMP INFO */
          put_u4 (body, i == 0 ? 'Z' : 'A');
          put_u4 (body, i == 0 ? 2 : 3);
        }
      put_u1 (body, 0x21);
      put_u4 (body, 0x200 + i); put_u4 (body, 0); put_u4 (body, 0x100); put_u4 (body, 0);
      put_u1 (body, 0xFF);                           /* ROOT UNKNOWN */
      put_u4 (body, 0x200 + i);
    }
  put_record (out, 0x1C, body);
  return g_byte_array_free_to_bytes (out);
}

static void
test_android_heaps (void)
{
  g_autoptr(GBytes) bytes = write_android_heaps_dump ();
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_heap_bytes (bytes, &error);
  const StrataHeap *heap;
  const StrataHeapClass *item;
  guint klass = G_MAXUINT;

  g_assert_no_error (error);
  heap = strata_trace_get_heap (trace);
  item = find_class (trace, "com.example.Item");
  g_assert_nonnull (item);
  g_assert_cmpuint (item->instances, ==, 5);
  g_assert_cmpuint (item->shallow_bytes, ==, 5 * 16);
  for (guint c = 0; c < strata_heap_get_n_classes (heap); c++)
    if (strata_heap_get_class (heap, c) == item)
      klass = c;
  g_assert_cmpuint (strata_heap_get_n_heaps (heap), ==, 2);
  g_assert_cmpstr (strata_heap_get_heap_name (heap, 0), ==, "zygote");
  g_assert_cmpstr (strata_heap_get_heap_name (heap, 1), ==, "app");
  g_assert_cmpuint (strata_heap_get_class_in_heap (heap, 0, klass)->instances, ==, 2);
  g_assert_cmpuint (strata_heap_get_class_in_heap (heap, 1, klass)->instances, ==, 3);
  g_assert_cmpuint (strata_heap_get_class_in_heap (heap, 1, klass)->shallow_bytes, ==, 48);
  g_assert_cmpuint (strata_heap_get_class_in_heap (heap, 1, klass)->retained_bytes, ==, 48);
}

/* Android Studio's heap library (perflib) states in its own tests what it
 * finds in this Dalvik dump: 43,687 objects with the classes, 42,868 of
 * them reachable, 0xB0EDFFA0 reached from two roots (so only the roots as
 * a whole dominate it); its HEAP DUMP INFO records name zygote and app. */
static void
test_android_dump_as_perflib (void)
{
  g_autoptr(StrataTrace) trace = strata_test_load_heap_corpus ("studio-perflib-dialer.android-hprof");
  const StrataHeap *heap;
  StrataHeapGraph *graph;
  guint32 object;

  if (trace == NULL)
    {
      strata_test_skip_no_corpus ();
      return;
    }
  heap = strata_trace_get_heap (trace);
  graph = strata_heap_get_graph (heap);
  g_assert_cmpuint (strata_heap_graph_get_n_objects (graph), ==, 43687);
  g_assert_cmpuint (strata_heap_graph_get_n_objects (graph) - strata_heap_graph_get_n_unreachable (graph), ==, 42868);
  object = strata_heap_graph_lookup (graph, 0xB0EDFFA0);
  g_assert_cmpuint (object, !=, STRATA_HEAP_NO_OBJECT);
  g_assert_true (strata_heap_graph_is_reachable (graph, object));
  g_assert_cmpuint (strata_heap_graph_get_dominator (graph, object), ==, STRATA_HEAP_NO_OBJECT);
  g_assert_cmpuint (strata_heap_get_n_heaps (heap), ==, 2);
  g_assert_cmpstr (strata_heap_get_heap_name (heap, 0), ==, "zygote");
  g_assert_cmpstr (strata_heap_get_heap_name (heap, 1), ==, "app");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/hprof/known-allocations", test_known_allocations);
  g_test_add_func ("/hprof/corpus", test_corpus);
  g_test_add_func ("/hprof/agent-sites", test_agent_sites);
  g_test_add_func ("/hprof/damaged", test_damaged);
  g_test_add_func ("/hprof/wrong-id-size", test_wrong_id_size);
  g_test_add_func ("/hprof/hprof-conv", test_hprof_conv);
  g_test_add_func ("/hprof/binary-cpu-samples", test_binary_cpu_samples);
  g_test_add_func ("/hprof/object-graph", test_object_graph);
  g_test_add_func ("/hprof/dangling-references", test_dangling_references);
  g_test_add_func ("/hprof/two-halves", test_two_halves);
  g_test_add_func ("/hprof/weakly-reached", test_weakly_reached);
  g_test_add_func ("/hprof/follow-weak", test_follow_weak);
  g_test_add_func ("/hprof/android-heaps", test_android_heaps);
  g_test_add_func ("/hprof/android-as-perflib", test_android_dump_as_perflib);

  return g_test_run ();
}
