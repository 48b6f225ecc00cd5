/* test-sniff.c: recognising formats by content
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-error.h"
#include "strata-format.h"
#include "strata-test-util.h"

typedef struct
{
  const char   *name;
  const char   *data;
  gsize         len;
  StrataFormat  format;
  int           error_code;   /* -1: no error */
} SniffCase;

#define TEXT(s) s, sizeof (s) - 1

static const SniffCase sniff_cases[] = {
  { "dmtrace-key", TEXT ("*version\n3\nclock=dual\n*threads\n"), STRATA_FORMAT_DMTRACE, -1 },
  { "dmtrace-streaming", TEXT ("SLOW\xf3\x00\x20\x00\x00\x00\x00\x00"), STRATA_FORMAT_DMTRACE, -1 },
  { "hprof-binary-101", TEXT ("JAVA PROFILE 1.0.1\0\0\0\0\4\0\0\1\2"), STRATA_FORMAT_HPROF_BINARY, -1 },
  { "hprof-binary-103", TEXT ("JAVA PROFILE 1.0.3\0\0\0\0\4\0\0\1\2"), STRATA_FORMAT_HPROF_BINARY, -1 },
  { "hprof-text", TEXT ("JAVA PROFILE 1.0.1, created Fri Nov 27 13:18:54 2015\n\n"), STRATA_FORMAT_HPROF_TEXT, -1 },
  { "hprof-heap-dump-tmp", TEXT ("HEAP DUMP BEGIN (2484 objects, 408640 bytes)\nROOT 0\n"), STRATA_FORMAT_HPROF_TEXT, -1 },
  { "json-array", TEXT ("[{\"ph\":\"X\",\"ts\":1}]"), STRATA_FORMAT_TRACE_EVENT, -1 },
  { "json-array-bom-space", TEXT ("\xEF\xBB\xBF \n\t[ \n{\"ph\":\"B\"}"), STRATA_FORMAT_TRACE_EVENT, -1 },
  { "json-array-empty", TEXT ("[]"), STRATA_FORMAT_TRACE_EVENT, -1 },
  { "json-array-truncated", TEXT ("[{\"ph\":\"B\",\"name\":\"a\"},\n{\"ph\":"), STRATA_FORMAT_TRACE_EVENT, -1 },
  { "json-object", TEXT ("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[]}"), STRATA_FORMAT_TRACE_EVENT, -1 },
  { "json-object-system-only", TEXT ("{\"systemTraceEvents\":\"# tracer: nop\\n\"}"), STRATA_FORMAT_TRACE_EVENT, -1 },
  { "cpuprofile", TEXT ("{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}}],\"samples\":[]}"),
    STRATA_FORMAT_CPUPROFILE, -1 },
  { "json-object-not-trace", TEXT ("{\"nodes\":[],\"startTime\":0}"), STRATA_FORMAT_UNKNOWN, STRATA_LOAD_ERROR_NOT_A_TRACE },
  { "json-object-invalid", TEXT ("{\"nodes\": [1, 2"), STRATA_FORMAT_UNKNOWN, STRATA_LOAD_ERROR_CORRUPT },
  { "json-array-of-numbers", TEXT ("[1, 2, 3]"), STRATA_FORMAT_UNKNOWN, STRATA_LOAD_ERROR_NOT_A_TRACE },
  { "plain-text", TEXT ("Hello, this is only a note.\nNothing to see.\n"), STRATA_FORMAT_UNKNOWN, STRATA_LOAD_ERROR_UNKNOWN_FORMAT },
  /* A line break, then 32 spaces: a Perfetto packet of sixteen fields,
   * as the bytes go; a licence, as they read. */
  { "indented-text", TEXT ("\n                                Apache License\n                           Version 2.0\n"),
    STRATA_FORMAT_UNKNOWN, STRATA_LOAD_ERROR_UNKNOWN_FORMAT },
  /* TracePacket { trusted_packet_sequence_id: 1, timestamp: 1000 } */
  { "perfetto-packet", TEXT ("\x0a\x05\x50\x01\x40\xe8\x07"), STRATA_FORMAT_PERFETTO, -1 },
  { "png", TEXT ("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0"), STRATA_FORMAT_UNKNOWN, STRATA_LOAD_ERROR_UNKNOWN_FORMAT },
  { "zip", TEXT ("PK\003\004\024\0\0\0\010\0"), STRATA_FORMAT_UNKNOWN, STRATA_LOAD_ERROR_UNKNOWN_FORMAT },
  { "gzip-damaged", TEXT ("\x1f\x8b\x08\0\0\0\0\0\0\x03\xff\xff\xff\xff\xff\xff"), STRATA_FORMAT_UNKNOWN, STRATA_LOAD_ERROR_CORRUPT },
  { "empty", "", 0, STRATA_FORMAT_UNKNOWN, STRATA_LOAD_ERROR_EMPTY },
};

static void
assert_sniff (const guint8      *data,
              gsize              len,
              StrataFormat       expected_format,
              int                expected_error,
              StrataCompression *compression)
{
  g_autoptr(GError) error = NULL;
  StrataFormat format = strata_format_sniff (data, len, compression, &error);

  g_assert_cmpint (format, ==, expected_format);
  if (expected_error < 0)
    g_assert_no_error (error);
  else
    {
      g_assert_error (error, STRATA_LOAD_ERROR, expected_error);
      g_assert_cmpstr (error->message, !=, "");
    }
}

static void
test_sniff_case (gconstpointer data)
{
  const SniffCase *c = data;
  StrataCompression compression;

  assert_sniff ((const guint8 *) c->data, c->len, c->format, c->error_code, &compression);
  g_assert_cmpint (compression, ==,
                   g_str_has_prefix (c->data, "\x1f\x8b") ? STRATA_COMPRESSION_GZIP
                                                           : STRATA_COMPRESSION_NONE);
}

/* Gzip around every plain case sniffs as the inner content. */
static void
test_sniff_gzip (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (sniff_cases); i++)
    {
      const SniffCase *c = &sniff_cases[i];
      g_autoptr(GBytes) gz = NULL;
      StrataCompression compression;
      gsize len;
      const guint8 *data;

      if (c->len == 0 || c->format == STRATA_FORMAT_UNKNOWN)
        continue;

      gz = strata_test_gzip (c->data, c->len);
      data = g_bytes_get_data (gz, &len);
      assert_sniff (data, len, c->format, -1, &compression);
      g_assert_cmpint (compression, ==, STRATA_COMPRESSION_GZIP);

      /* Cut in the middle: sniffing still sees the head. */
      if (c->len > 16)
        assert_sniff (data, len - 8, c->format, -1, &compression);
    }
}

static void
test_sniff_gzip_empty (void)
{
  g_autoptr(GBytes) gz = strata_test_gzip ("", 0);
  gsize len;
  const guint8 *data = g_bytes_get_data (gz, &len);

  assert_sniff (data, len, STRATA_FORMAT_UNKNOWN, STRATA_LOAD_ERROR_EMPTY, NULL);
}

static void
test_sniff_random (void)
{
  for (guint32 seed = 1; seed <= 64; seed++)
    {
      guint8 data[4096];

      strata_test_fill_random (data, sizeof data, seed);
      /* Random bytes can by chance start like gzip; those are damaged. */
      if (data[0] == 0x1f && data[1] == 0x8b)
        continue;
      assert_sniff (data, sizeof data, STRATA_FORMAT_UNKNOWN,
                    STRATA_LOAD_ERROR_UNKNOWN_FORMAT, NULL);
    }
}

static void
test_sniff_zeros (void)
{
  g_autofree guint8 *zeros = g_malloc0 (STRATA_SNIFF_HEAD_SIZE * 2);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (strata_format_sniff (zeros, STRATA_SNIFF_HEAD_SIZE * 2, NULL, &error),
                   ==, STRATA_FORMAT_UNKNOWN);
  g_assert_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_UNKNOWN_FORMAT);
  g_assert_nonnull (strstr (error->message, "zero"));
}

static void
test_sniff_png_named (void)
{
  const SniffCase *png = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (sniff_cases) && png == NULL; i++)
    if (g_str_equal (sniff_cases[i].name, "png"))
      png = &sniff_cases[i];
  /* Not g_assert_nonnull(), which G_DISABLE_ASSERT would leave out. */
  if (png == NULL)
    g_error ("no png case among the sniff cases");
  strata_format_sniff ((const guint8 *) png->data, png->len, NULL, &error);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "PNG"));
}

/* Every file in the shared corpus is recognised as its folder says. */
static StrataFormat
expected_corpus_format (const char *folder,
                        const char *name,
                        int        *error_code)
{
  *error_code = -1;
  if (g_str_equal (folder, "dmtrace"))
    return STRATA_FORMAT_DMTRACE;
  if (g_str_equal (folder, "hprof"))
    return (g_str_has_suffix (name, ".txt") || g_str_has_suffix (name, ".TMP"))
           ? STRATA_FORMAT_HPROF_TEXT : STRATA_FORMAT_HPROF_BINARY;
  /* Valid JSON, but Google Cloud Trace spans, not Trace Event. */
  if (g_str_equal (name, "google_cloud_trace.json"))
    {
      *error_code = STRATA_LOAD_ERROR_NOT_A_TRACE;
      return STRATA_FORMAT_UNKNOWN;
    }
  if (g_str_has_suffix (name, ".zip"))
    {
      *error_code = STRATA_LOAD_ERROR_UNKNOWN_FORMAT;
      return STRATA_FORMAT_UNKNOWN;
    }
  return STRATA_FORMAT_TRACE_EVENT;
}

static void
sniff_corpus_dir (const char *folder,
                  const char *path,
                  guint      *n_files)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      g_autofree char *contents = NULL;
      g_autoptr(GError) error = NULL;
      StrataFormat expected;
      int error_code;
      gsize len;

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        {
          sniff_corpus_dir (folder, child, n_files);
          continue;
        }
      if (g_str_equal (name, "LICENSE") || g_str_has_suffix (name, ".md"))
        continue;

      g_file_get_contents (child, &contents, &len, &error);
      g_assert_no_error (error);
      expected = expected_corpus_format (folder, name, &error_code);
      g_test_message ("sniffing %s", child);
      assert_sniff ((const guint8 *) contents, len, expected, error_code, NULL);
      (*n_files)++;
    }
}

static void
test_sniff_corpus (void)
{
  const char *folders[] = { "dmtrace", "hprof", "json" };
  guint n_files = 0;

  for (guint i = 0; i < G_N_ELEMENTS (folders); i++)
    {
      g_autofree char *path = strata_test_corpus_path (folders[i], NULL);

      if (!g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          strata_test_skip_no_corpus ();
          return;
        }
      sniff_corpus_dir (folders[i], path, &n_files);
    }
  g_assert_cmpuint (n_files, >, 100);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (sniff_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/sniff/case/%s", sniff_cases[i].name);

      g_test_add_data_func (path, &sniff_cases[i], test_sniff_case);
    }
  g_test_add_func ("/sniff/gzip", test_sniff_gzip);
  g_test_add_func ("/sniff/gzip-empty", test_sniff_gzip_empty);
  g_test_add_func ("/sniff/random", test_sniff_random);
  g_test_add_func ("/sniff/zeros", test_sniff_zeros);
  g_test_add_func ("/sniff/png-named", test_sniff_png_named);
  g_test_add_func ("/sniff/corpus", test_sniff_corpus);

  return g_test_run ();
}
