/* strata-test-model.c: traces the model tests make and read back
 *
 * Call trees from scripted calls, described as text to compare by eye,
 * and heap dumps loaded from a file, bytes or the corpus.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dmtrace-writer.h"
#include "strata-loader.h"
#include "strata-test-model.h"
#include "strata-test-util.h"

/* Loads the bytes a writer made, which it takes. */
StrataTrace *
strata_test_load_bytes (GBytes     *taken,
                        const char *name)
{
  g_autoptr(GBytes) bytes = taken;
  g_autofree char *path = strata_test_write_file (name, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_autoptr(GError) error = NULL;
  StrataTrace *trace = strata_test_load_path (path, &error);

  g_assert_no_error (error);
  return trace;
}

/* Calls on thread 1 from a script: "+a@0 +b@10 -b@30 -a@40" enters and
 * exits methods a..e at µs times. */
StrataTrace *
strata_test_load_script (const char *script)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "wall", FALSE);
  g_auto(GStrv) steps = g_strsplit (script, " ", -1);

  dmtrace_writer_add_thread (writer, 1, "main");
  for (char c = 'a'; c <= 'e'; c++)
    {
      g_autofree char *fields = g_strdup_printf ("T\t%c\t()V", c);

      dmtrace_writer_add_method (writer, (c - 'a' + 1) * 4, fields);
    }
  dmtrace_writer_begin_data (writer);
  for (guint i = 0; steps[i] != NULL; i++)
    dmtrace_writer_record (writer, 1, (steps[i][1] - 'a' + 1) * 4, steps[i][0] == '+' ? DMTRACE_ENTER : DMTRACE_EXIT,
                           atoi (steps[i] + 3), 0);
  return strata_test_load_bytes (dmtrace_writer_finish (writer, FALSE), "script.trace");
}

guint32
strata_test_method_named (StrataTrace *trace,
                          char         letter)
{
  g_autofree char *name = g_strdup_printf ("T.%c ()V", letter);

  for (guint32 m = 0; m < strata_trace_get_n_methods (trace); m++)
    if (g_str_equal (strata_trace_get_method_name (trace, m), name))
      return m;
  g_assert_not_reached ();
}

/* The tree as "path=total(self)" lines, µs, for comparing by eye. */
char *
strata_test_describe_tree (StrataCallTree *tree)
{
  GString *out = g_string_new (NULL);

  for (guint32 v = 1; v < strata_call_tree_get_n_nodes (tree); v++)
    {
      g_autofree char *path = strata_call_tree_dup_path (tree, v, "/");

      g_string_append_printf (out, "%s=%" G_GINT64_FORMAT "(%" G_GINT64_FORMAT ") ", path,
                              strata_call_tree_get_total (tree, v, 0) / 1000, strata_call_tree_get_self (tree, v, 0) / 1000);
    }
  return g_string_free (out, FALSE);
}

char *
strata_test_transformed (StrataCallTree          *tree,
                         StrataCallTransformKind  kind,
                         guint32                  method,
                         const char              *prefix)
{
  StrataCallTransform transform = { kind, method, STRATA_CALL_TREE_NONE, prefix };
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataCallTree) result = strata_call_tree_transform (tree, &transform, NULL, &error);
  g_autofree char *text = NULL;

  g_assert_no_error (error);
  text = strata_test_describe_tree (result);
  /* Names shortened: "T.a ()V" -> "a". */
  {
    g_autoptr(GString) out = g_string_new (text);

    g_string_replace (out, "T.", "", 0);
    g_string_replace (out, " ()V", "", 0);
    return g_string_free (g_steal_pointer (&out), FALSE);
  }
}

StrataTrace *
strata_test_load_heap (const char *path)
{
  g_autoptr(GError) error = NULL;
  StrataTrace *trace = strata_test_load_path (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (strata_trace_get_heap (trace));
  return trace;
}

StrataTrace *
strata_test_load_heap_bytes (GBytes  *bytes,
                             GError **error)
{
  g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent/strata-test/dump.hprof");
  g_autoptr(StrataLoader) loader = strata_loader_new (file);

  return strata_loader_load_bytes (loader, bytes, NULL, error);
}

StrataTrace *
strata_test_load_heap_corpus (const char *name)
{
  g_autofree char *path = strata_test_corpus_path ("hprof", name, NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return NULL;
  return strata_test_load_heap (path);
}

/**
 * strata_test_write_random_stacks:
 *
 * Random calls of @n_methods methods on two threads, at most @max_depth
 * deep, the first two recursing often, as a dmtrace; @expected gets each
 * path's total and calls, kept from the script itself ("main;T.m0 ()V;…").
 */
StrataTrace *
strata_test_write_random_stacks (guint       n_methods,
                                 guint       max_depth,
                                 GHashTable *expected)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "wall", FALSE);
  g_autoptr(GRand) rand = g_rand_new_with_seed (1234);

  g_assert_cmpuint (max_depth, <=, 64);
  dmtrace_writer_add_thread (writer, 1, "main");
  dmtrace_writer_add_thread (writer, 2, "worker");
  for (guint m = 0; m < n_methods; m++)
    {
      g_autofree char *fields = g_strdup_printf ("T\tm%u\t()V", m);

      dmtrace_writer_add_method (writer, (m + 1) * 4, fields);
    }
  dmtrace_writer_begin_data (writer);
  for (guint tid = 1; tid <= 2; tid++)
    {
      guint stack[64], depth = 0;
      guint32 starts[64];
      guint32 now = 0;

      for (guint step = 0; step < STRATA_TEST_RANDOM_STEPS || depth > 0; step++)
        {
          gboolean enter = depth == 0 || (step < STRATA_TEST_RANDOM_STEPS && depth < max_depth && g_rand_int_range (rand, 0, 2) == 0);

          now += g_rand_int_range (rand, 1, 20);
          if (enter)
            {
              guint m = g_rand_int_range (rand, 0, depth > 0 && stack[depth - 1] < 2 ? 3 : n_methods);

              stack[depth] = m;
              starts[depth++] = now;
              dmtrace_writer_record (writer, tid, (m + 1) * 4, DMTRACE_ENTER, now, 0);
            }
          else
            {
              g_autoptr(GString) path = g_string_new (tid == 1 ? "main" : "worker");
              gint64 *entry;

              for (guint i = 0; i < depth; i++)
                g_string_append_printf (path, ";T.m%u ()V", stack[i]);
              entry = g_hash_table_lookup (expected, path->str);
              if (entry == NULL)
                g_hash_table_insert (expected, g_strdup (path->str), entry = g_new0 (gint64, 2));
              depth--;
              entry[0] += (now - starts[depth]) * (gint64) 1000;
              entry[1]++;
              dmtrace_writer_record (writer, tid, (stack[depth] + 1) * 4, DMTRACE_EXIT, now, 0);
            }
        }
    }
  return strata_test_load_bytes (dmtrace_writer_finish (writer, FALSE), "random.trace");
}
