/* test-hprof-text.c: the ASCII java.hprof.txt profiles
 *
 * CPU samples and times, sections, monitors, and the corpus's files.
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
#include "strata-test-model.h"
#include "strata-test-util.h"

/* Each method's exclusive samples, summed from the CPU SAMPLES rows by
 * their top frame, as the file itself states them. */
static GHashTable *
samples_by_top_frame (const char *name,
                      guint64    *total,
                      guint64    *file_total)
{
  g_autofree char *path = strata_test_corpus_path ("hprof", name, NULL);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  GHashTable *sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gboolean inside = FALSE;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  *total = 0;
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) words = NULL;
      guint n = 0;

      if (g_str_has_prefix (lines[i], "CPU SAMPLES BEGIN"))
        {
          const char *equals = strstr (lines[i], "total = ");

          inside = TRUE;
          *file_total = equals != NULL ? g_ascii_strtoull (equals + strlen ("total = "), NULL, 10) : 0;
        }
      else if (g_str_has_prefix (lines[i], "CPU SAMPLES END"))
        inside = FALSE;
      if (!inside)
        continue;
      words = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
      {
        const char *fields[6];

        for (guint w = 0; words[w] != NULL && n < 6; w++)
          if (*words[w] != '\0')
            fields[n++] = words[w];
        if (n == 6 && g_ascii_isdigit (fields[0][0]))
          {
            guint64 count = g_ascii_strtoull (fields[3], NULL, 10);

            g_hash_table_insert (sums, g_strdup (fields[5]),
                                 GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (sums, fields[5])) + count));
            *total += count;
          }
      }
    }
  return sums;
}

static void
test_text_cpu_samples (void)
{
  const char *names[] = { "onitama-cpu-samples.java.hprof.txt", "javalab-tiny-cpu-samples.java.hprof.txt",
                          "simnet-jdk14-cpu-samples.java.hprof.txt", "cards-20threads-cpu-samples.java.hprof.txt" };

  for (guint f = 0; f < G_N_ELEMENTS (names); f++)
    {
      g_autoptr(StrataTrace) trace = strata_test_load_heap_corpus (names[f]);
      g_autoptr(StrataProfile) profile = NULL;
      g_autoptr(GHashTable) expected = NULL;
      GHashTableIter iter;
      gpointer key, value;
      guint64 total, file_total = 0;

      if (trace == NULL)
        {
          strata_test_skip_no_corpus ();
          return;
        }
      g_test_message ("%s", names[f]);
      profile = strata_profile_new (trace, -1, NULL, NULL);
      expected = samples_by_top_frame (names[f], &total, &file_total);
      g_assert_cmpint (strata_trace_get_clock_kind (trace, 0), ==, STRATA_CLOCK_SAMPLES);
      /* The shares are the file's: of its stated total, which the rows it
       * lists may not reach (cards: 31,929 listed of 32,495). */
      g_assert_cmpuint (file_total, >=, total);
      g_assert_cmpint (strata_profile_get_total (profile, 0), ==, (gint64) file_total * 1000000);
      g_hash_table_iter_init (&iter, expected);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          gint64 exclusive = -1;

          for (guint32 m = 0; m < strata_trace_get_n_methods (trace); m++)
            if (g_str_equal (strata_trace_get_method_name (trace, m), key))
              exclusive = strata_profile_get_entry (profile, m)->exclusive[0];
          if (g_str_equal (key, "<empty"))
            continue;
          g_assert_cmpint (exclusive, ==, (gint64) GPOINTER_TO_SIZE (value) * 1000000);
        }
    }
}

/* Every text file of the corpus loads and holds a profile or heap data. */
static void
test_text_corpus (void)
{
  g_autofree char *dir = strata_test_corpus_path ("hprof", NULL);
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  if (listing == NULL)
    {
      strata_test_skip_no_corpus ();
      return;
    }
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autoptr(StrataTrace) trace = NULL;
      const StrataHeap *heap;

      if (!strstr (name, ".hprof.txt"))
        continue;
      g_test_message ("%s", name);
      trace = strata_test_load_heap_corpus (name);
      heap = strata_trace_get_heap (trace);
      g_assert_true (strata_trace_get_n_spans (trace) > 0 || strata_heap_get_n_classes (heap) > 0 ||
                     strata_heap_get_n_sites (heap) > 0 || strata_trace_get_n_diagnostics (trace) > 0);
      n++;
    }
  g_assert_cmpuint (n, >=, 9);
}

static void
test_text_sections (void)
{
  g_autoptr(StrataTrace) times = strata_test_load_heap_corpus ("libinjection-cpu-times.java.hprof.txt");
  g_autoptr(StrataTrace) sites = strata_test_load_heap_corpus ("comp3702-heap-sites.java.hprof.txt");
  g_autoptr(StrataTrace) heap = strata_test_load_heap_corpus ("corejava-heap-all.java.hprof.txt");
  g_autoptr(StrataTrace) tmp = strata_test_load_heap_corpus ("comp3702-heapdump-tmp.java.hprof.txt.TMP");
  g_autoptr(StrataTrace) cut = strata_test_load_heap_corpus ("lllm-truncated.java.hprof.txt");
  const StrataAllocSite *first;
  guint64 instances, bytes;

  if (times == NULL || sites == NULL || heap == NULL || tmp == NULL || cut == NULL)
    {
      strata_test_skip_no_corpus ();
      return;
    }
  g_assert_cmpint (strata_trace_get_clock_kind (times, 0), ==, STRATA_CLOCK_THREAD_CPU);
  g_assert_cmpuint (strata_trace_get_n_spans (times), >, 100);

  g_assert_cmpuint (strata_heap_get_n_sites (strata_trace_get_heap (sites)), >, 100);
  first = strata_heap_get_site (strata_trace_get_heap (sites), 0);
  g_assert_cmpuint (first->live_bytes, ==, 16912);
  g_assert_cmpuint (first->live_objects, ==, 109);
  g_assert_cmpuint (first->trace, ==, 300050);
  g_assert_cmpstr (strata_trace_get_string (sites, first->class_name), ==, "char[]");
  {
    guint n;

    /* Sites refer to TRACE stacks, which the file defines. */
    g_assert_nonnull (strata_heap_get_stack (strata_trace_get_heap (sites), first->trace, &n));
    g_assert_cmpuint (n, >, 0);
  }

  strata_heap_get_totals (strata_trace_get_heap (heap), &instances, &bytes);
  g_assert_cmpuint (instances, >, 1000);
  g_assert_cmpuint (strata_heap_get_root_count (strata_trace_get_heap (heap), STRATA_ROOT_STICKY_CLASS), >, 0);
  strata_heap_get_totals (strata_trace_get_heap (tmp), &instances, &bytes);
  g_assert_cmpuint (instances, >, 1000);

  g_assert_true (strata_test_has_diagnostic (cut, "stops at line 65"));
}

/* MONITOR sections are kept as written, for the summary page. */
static void
test_text_monitors (void)
{
  const char *text =
    "JAVA PROFILE 1.0.1, created Sun Nov 22 03:00:00 2026\n\n--------\n\n"
    "MONITOR TIME BEGIN (total = 123 ms) Sun Nov 22 03:00:01 2026\n"
    "rank   self  accum   count trace monitor\n"
    "   1 40.00% 40.00%       3 300123 java.lang.Object (Java)\n"
    "MONITOR TIME END\n";
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, strlen (text));
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_heap_bytes (bytes, &error);
  const char *key = NULL, *value = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (strata_trace_get_n_metadata (trace), ==, 1);
  strata_trace_get_metadata (trace, 0, &key, &value);
  g_assert_cmpstr (key, ==, "Monitor time");
  g_assert_nonnull (strstr (value, "java.lang.Object (Java)"));
  g_assert_cmpuint (strata_trace_get_n_diagnostics (trace), ==, 0);
}

/* A CPU TIME row with a share below zero (the text fuzzer's) was cast
 * to an unsigned weight: "2147484 s traced" for a 265 ms profile. It is
 * a bad line now, and the rest keeps its share of the total. */
static const char negative_share[] =
  "JAVA PROFILE 1.0.1, created Wed Nov 26 10:00:00 2026\n"
  "\n"
  "Header for -agentlib:hprof (or -Xrunhprof) ASCII Output\n"
  "\n"
  "--------\n"
  "\n"
  "TRACE 300001:\n"
  "\tpkg.A.run(A.java:1)\n"
  "\tpkg.Main.main(Main.java:5)\n"
  "TRACE 300002:\n"
  "\tpkg.B.run(B.java:2)\n"
  "\tpkg.Main.main(Main.java:5)\n"
  "CPU TIME (ms) BEGIN (total = 265) Wed Nov 26 10:00:01 2026\n"
  "rank   self  accum   count trace method\n"
  "   1 -7.32% -7.32%      10 300001 pkg.A.run\n"
  "   2 50.00% 42.68%      10 300002 pkg.B.run\n"
  "CPU TIME (ms) END\n"
;

static void
test_text_negative_share (void)
{
  g_autofree char *path = strata_test_write_file ("negative.java.hprof.txt", negative_share, strlen (negative_share));
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_path (path, &error);
  const StrataThread *thread;

  g_assert_no_error (error);
  g_assert_cmpuint (strata_trace_get_n_threads (trace), ==, 1);
  thread = strata_trace_get_thread (trace, 0);
  /* Half of 265 ms: B's row; A's is left out. */
  g_assert_cmpint (thread->last_time[0] - thread->first_time[0], ==, 133 * G_GINT64_CONSTANT (1000000));
  g_assert_true (strata_test_has_diagnostic (trace, "could not be read"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/hprof-text/text-cpu-samples", test_text_cpu_samples);
  g_test_add_func ("/hprof-text/text-sections", test_text_sections);
  g_test_add_func ("/hprof-text/text-corpus", test_text_corpus);
  g_test_add_func ("/hprof-text/text-monitors", test_text_monitors);
  g_test_add_func ("/hprof-text/text-negative-share", test_text_negative_share);

  return g_test_run ();
}
