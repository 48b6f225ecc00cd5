/* bench-mapping.c: reading a large ProGuard/R8 mapping
 *
 * Writes (once) a mapping of about 100 MB in R8's form (classes with
 * fields, methods with line ranges, inlinings and JSON comments) and
 * prints the median time to read it keeping the 2,000 classes a trace
 * would name, and keeping every class. Not a test:
 *
 *   bench-mapping [FILE]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>

#include "bench-util.h"
#include "strata-memory.h"
#include "strata-mapping.h"

#define TARGET_BYTES (100 * 1000 * 1000)
#define METHODS_PER_CLASS 24
#define WANTED_CLASSES 2000
#define RUNS 3

static gboolean
write_mapping (const char *path)
{
  FILE *out = fopen (path, "w");
  long written = 0;

  if (out == NULL)
    return FALSE;
  fputs ("# compiler: R8\n# {\"id\":\"com.android.tools.r8.mapping\",\"version\":\"2.2\"}\n", out);
  for (guint c = 0; written < TARGET_BYTES; c++)
    {
      fprintf (out, "com.example.feature%u.internal.SomeClassName%u -> o%u.a%u:\n", c % 97, c, c / 1000, c);
      fprintf (out, "# {\"id\":\"sourceFile\",\"fileName\":\"SomeClassName%u.java\"}\n", c);
      fprintf (out, "    java.lang.String someFieldName -> a\n    int anotherField -> b\n");
      for (guint m = 0; m < METHODS_PER_CLASS; m++)
        {
          guint first = m * 10 + 1;

          if (m % 4 == 0)
            fprintf (out, "    %u:%u:void inlinedHelperMethod%u(int):900:909 -> m%u\n", first, first + 9, m, m);
          fprintf (out, "    %u:%u:java.util.List someMethodName%u(int,java.lang.String,com.example.feature%u.internal.SomeClassName%u):%u:%u -> m%u\n",
                   first, first + 9, m, c % 97, c, 100 + first, 109 + first, m);
        }
      written = ftell (out);
    }
  return fclose (out) == 0;
}

static double
time_read (const char *path,
           GHashTable *wanted,
           guint      *n_classes)
{
  double runs[RUNS];

  for (guint run = 0; run < RUNS; run++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(StrataMapping) mapping = strata_mapping_new_for_classes (wanted);
      gint64 start = g_get_monotonic_time ();

      if (!strata_mapping_read_file (mapping, file, NULL, NULL))
        return -1;
      runs[run] = strata_bench_seconds_since (start);
      *n_classes = strata_mapping_get_n_classes (mapping);
    }
  return strata_bench_median (runs, RUNS);
}

int
main (int   argc,
      char *argv[])
{
  const char *path = argc > 1 ? argv[1] : "bench-mapping.txt";
  g_autoptr(GHashTable) wanted = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint n_wanted, n_all;
  double some, all;

  strata_memory_tune_allocator ();
  if (!g_file_test (path, G_FILE_TEST_EXISTS) && !write_mapping (path))
    return 1;
  for (guint c = 0; c < WANTED_CLASSES; c++)
    g_hash_table_add (wanted, g_strdup_printf ("o%u.a%u", c * 7 / 1000, c * 7));
  some = time_read (path, wanted, &n_wanted);
  all = time_read (path, NULL, &n_all);
  {
    g_autoptr(GFile) file = g_file_new_for_path (path);
    g_autoptr(GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, 0, NULL, NULL);

    g_print ("mapping: %.0f MB\n", info ? g_file_info_get_size (info) / 1e6 : 0.0);
  }
  g_print ("read, keeping the %u classes a trace names: %.2f s\n", n_wanted, some);
  g_print ("read, keeping all %u classes:              %.2f s\n", n_all, all);
  return 0;
}
