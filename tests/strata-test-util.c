/* strata-test-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "strata-loader.h"
#include "strata-test-util.h"

static char *tmpdir;

/**
 * strata_test_corpus_path:
 *
 * Returns: a path under $STRATA_CORPUS_DIR (default: ../shared/corpus)
 */
char *
strata_test_corpus_path (const char *first_element,
                         ...)
{
  const char *root = g_getenv ("STRATA_CORPUS_DIR");
  g_autofree char *fallback = NULL;
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();
  const char *element;
  va_list args;

  /* The corpus sits beside the project: ../shared/corpus */
  if (root == NULL)
    root = fallback = g_test_build_filename (G_TEST_DIST, "..", "..", "shared", "corpus", NULL);
  g_ptr_array_add (parts, (gpointer) root);
  va_start (args, first_element);
  for (element = first_element; element != NULL; element = va_arg (args, const char *))
    g_ptr_array_add (parts, (gpointer) element);
  va_end (args);
  g_ptr_array_add (parts, NULL);

  return g_build_filenamev ((char **) parts->pdata);
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

void
strata_test_fill_random (guint8  *data,
                         gsize    len,
                         guint32  seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);

  for (gsize i = 0; i < len; i++)
    data[i] = g_rand_int_range (rand, 0, 256);
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

/* The call at @depth and @index, asserting it exists. */
const StrataSpan *
strata_test_span_at (const StrataThread *thread,
                     guint               depth,
                     guint32             index)
{
  g_assert_nonnull (thread->spans);
  g_assert_cmpuint (depth, <, thread->spans->n_depths);
  g_assert_cmpuint (index, <, thread->spans->n_spans[depth]);
  return &thread->spans->spans[depth][index];
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
