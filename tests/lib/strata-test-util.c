/* strata-test-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "strata-loader.h"
#include "strata-test-util.h"

static char *tmpdir;

static char *
build_path_va (const char *root,
               const char *first_element,
               va_list     args)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();

  g_ptr_array_add (parts, (gpointer) root);
  for (const char *element = first_element; element != NULL; element = va_arg (args, const char *))
    g_ptr_array_add (parts, (gpointer) element);
  g_ptr_array_add (parts, NULL);
  return g_build_filenamev ((char **) parts->pdata);
}

/**
 * strata_test_corpus_path:
 *
 * The larger corpus is not part of the repository: it is found only
 * through $STRATA_CORPUS_DIR. Without it the path names a folder that
 * does not exist, so the test skips (strata_test_skip_no_corpus()).
 *
 * Returns: a path under $STRATA_CORPUS_DIR
 */
char *
strata_test_corpus_path (const char *first_element,
                         ...)
{
  const char *root = g_getenv ("STRATA_CORPUS_DIR");
  g_autofree char *missing = NULL;
  va_list args;
  char *path;

  if (root == NULL || *root == '\0')
    root = missing = g_test_build_filename (G_TEST_BUILT, "no-corpus", NULL);
  va_start (args, first_element);
  path = build_path_va (root, first_element, args);
  va_end (args);
  return path;
}

/* Marks the test skipped, saying what it needed. */
void
strata_test_skip_no_corpus (void)
{
  const char *root = g_getenv ("STRATA_CORPUS_DIR");

  if (root == NULL || *root == '\0')
    g_test_skip ("needs the shared corpus: STRATA_CORPUS_DIR is not set and there is none beside the source tree");
  else
    {
      g_autofree char *reason = g_strdup_printf ("needs the shared corpus: not found in STRATA_CORPUS_DIR=%s", root);

      g_test_skip (reason);
    }
}

/**
 * strata_test_fixture_path:
 *
 * Returns: a path under tests/data/third-party, small real files that
 *   ship with the repository (origin and licence in its SOURCES.md)
 */
char *
strata_test_fixture_path (const char *first_element,
                          ...)
{
  g_autofree char *root = g_test_build_filename (G_TEST_DIST, "data", "third-party", NULL);
  va_list args;
  char *path;

  va_start (args, first_element);
  path = build_path_va (root, first_element, args);
  va_end (args);
  return path;
}

char *
strata_test_make_tmpdir (void)
{
  g_autoptr(GError) error = NULL;

  if (tmpdir == NULL)
    {
      tmpdir = g_dir_make_tmp ("strata-test-XXXXXX", &error);
      g_assert_no_error (error);
    }
  return g_strdup (tmpdir);
}

char *
strata_test_write_file (const char *name,
                        const void *data,
                        gsize       len)
{
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (dir, name, NULL);

  g_file_set_contents (path, data, len, &error);
  g_assert_no_error (error);
  return path;
}

/**
 * strata_test_gzip:
 *
 * Returns: (transfer full): @data compressed in gzip's format, in memory
 */
GBytes *
strata_test_gzip (gconstpointer data,
                  gsize         len)
{
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  g_autoptr(GInputStream) plain = g_memory_input_stream_new_from_data (data, len, NULL);
  g_autoptr(GInputStream) zipped = g_converter_input_stream_new (plain, G_CONVERTER (compressor));
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  g_output_stream_splice (out, zipped, G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE | G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error);
  g_assert_no_error (error);
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

void
strata_test_fill_random (guint8  *data,
                         gsize    len,
                         guint32  seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);

  for (gsize i = 0; i < len; i++)
    data[i] = g_rand_int_range (rand, 0, 256);
}

static gpointer
cancel_soon (gpointer data)
{
  g_usleep (50000);
  g_cancellable_cancel (data);
  return NULL;
}

/**
 * strata_test_assert_cancel_is_prompt:
 *
 * Cancels the load of @path 50 ms in; the load must stop within 0.5 s.
 *
 * Returns: the seconds it took
 */
double
strata_test_assert_cancel_is_prompt (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(StrataLoader) loader = strata_loader_new (file);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  GThread *thread = g_thread_new ("cancel", cancel_soon, cancellable);
  gint64 start = g_get_monotonic_time ();
  double seconds;

  trace = strata_loader_load (loader, cancellable, &error);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  g_thread_join (thread);
  g_test_message ("%s: stopped %.3f s after the load began", path, seconds);
  g_assert_null (trace);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpfloat (seconds, <, 0.55);
  return seconds;
}

/* Loads @path the way the application does. */
StrataTrace *
strata_test_load_path (const char  *path,
                       GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(StrataLoader) loader = strata_loader_new (file);

  return strata_loader_load (loader, NULL, error);
}

/* The call at @depth and @index, asserting it exists, as a loader wrote it. */
StrataSpan
strata_test_span_at (const StrataThread *thread,
                     guint               depth,
                     guint32             index)
{
  const StrataSpanTable *table = thread->spans;

  g_assert_nonnull (table);
  g_assert_cmpuint (depth, <, table->n_depths);
  g_assert_cmpuint (index, <, table->n_spans[depth]);
  return (StrataSpan) { strata_span_table_start (table, depth, index), strata_span_table_end (table, depth, index),
                        table->calls[depth][index].method, table->calls[depth][index].first_child };
}

/* @x and @y hold the same calls at @depth, on the first clock. */
void
strata_test_assert_same_calls (const StrataSpanTable *x,
                               const StrataSpanTable *y,
                               guint                  depth)
{
  g_assert_cmpuint (x->n_spans[depth], ==, y->n_spans[depth]);
  for (guint32 i = 0; i < x->n_spans[depth]; i++)
    {
      g_assert_cmpint (strata_span_table_start (x, depth, i), ==, strata_span_table_start (y, depth, i));
      g_assert_cmpint (strata_span_table_end (x, depth, i), ==, strata_span_table_end (y, depth, i));
      g_assert_cmpuint (x->calls[depth][i].method, ==, y->calls[depth][i].method);
      g_assert_cmpuint (x->calls[depth][i].first_child, ==, y->calls[depth][i].first_child);
    }
}

/* The call at @index of @depth is @name, from @start to @end (ns). */
void
strata_test_assert_span (StrataTrace        *trace,
                         const StrataThread *thread,
                         guint               depth,
                         guint32             index,
                         const char         *name,
                         gint64              start,
                         gint64              end)
{
  StrataSpan span = strata_test_span_at (thread, depth, index);

  g_assert_cmpstr (strata_trace_get_method_name (trace, span.method), ==, name);
  g_assert_cmpint (span.start, ==, start);
  g_assert_cmpint (span.end, ==, end);
}

const StrataThread *
strata_test_thread_by_tid (StrataTrace *trace,
                           gint64       tid)
{
  for (guint i = 0; i < strata_trace_get_n_threads (trace); i++)
    if (strata_trace_get_thread (trace, i)->tid == tid)
      return strata_trace_get_thread (trace, i);
  g_error ("no thread %" G_GINT64_FORMAT, tid);
  return NULL;
}

/* The value of the trace's metadata @key, or NULL. */
const char *
strata_test_metadata (StrataTrace *trace,
                      const char  *key)
{
  for (guint i = 0; i < strata_trace_get_n_metadata (trace); i++)
    {
      const char *k, *v;

      strata_trace_get_metadata (trace, i, &k, &v);
      if (g_str_equal (k, key))
        return v;
    }
  return NULL;
}

/* Whether one of the load's notes, what is normal for the kind of
 * file, mentions @part. */
gboolean
strata_test_has_note (StrataTrace *trace,
                      const char  *part)
{
  for (guint i = 0; i < strata_trace_get_n_notes (trace); i++)
    if (strstr (strata_trace_get_note (trace, i), part) != NULL)
      return TRUE;
  return FALSE;
}

/* Whether one of the load's repairs mentions @part. */
gboolean
strata_test_has_diagnostic (StrataTrace *trace,
                            const char  *part)
{
  for (guint i = 0; i < strata_trace_get_n_diagnostics (trace); i++)
    if (strstr (strata_trace_get_diagnostic (trace, i), part) != NULL)
      return TRUE;
  return FALSE;
}

struct _StrataTestCut
{
  char    *path;
  gsize    size;
  gint64   at;
  GThread *thread;
};

static gpointer
cut_soon (gpointer data)
{
  StrataTestCut *cut = data;

  g_usleep (20000);
  g_assert_cmpint (truncate (cut->path, cut->size), ==, 0);
  cut->at = g_get_monotonic_time ();
  return NULL;
}

StrataTestCut *
strata_test_cut_later (const char *path,
                       gsize       size)
{
  StrataTestCut *cut = g_new0 (StrataTestCut, 1);

  cut->path = g_strdup (path);
  cut->size = size;
  cut->thread = g_thread_new ("cut", cut_soon, cut);
  return cut;
}

gint64
strata_test_cut_join (StrataTestCut *cut)
{
  gint64 at;

  g_thread_join (cut->thread);
  at = cut->at;
  g_free (cut->path);
  g_free (cut);
  return at;
}

/* The method named @name, exactly; the test fails without one. */
guint32
strata_test_method_by_name (StrataTrace *trace,
                            const char  *name)
{
  for (guint32 m = 0; m < strata_trace_get_n_methods (trace); m++)
    if (g_str_equal (strata_trace_get_method_name (trace, m), name))
      return m;
  g_error ("no method %s", name);
  return 0;
}
