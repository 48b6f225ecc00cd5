/* test-loader.c: opening files, bad input, async loading and cancel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "dmtrace-writer.h"
#include "strata-error.h"
#include "strata-inflater.h"
#include "strata-load-guard.h"
#include "strata-loader-private.h"
#include "strata-test-util.h"

static const char png_bytes[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0";

static void
assert_load_fails (const char *path,
                   GQuark      domain,
                   int         code,
                   const char *message_part)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(StrataLoader) loader = strata_loader_new (file);
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(GError) error = NULL;

  trace = strata_loader_load (loader, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, domain, code);
  if (message_part != NULL)
    g_assert_nonnull (strstr (error->message, message_part));
  g_assert_null (strchr (error->message, '\n'));
}

static void
test_loader_missing (void)
{
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "does-not-exist.trace", NULL);

  assert_load_fails (path, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "does not exist");
}

static void
test_loader_directory (void)
{
  g_autofree char *dir = strata_test_make_tmpdir ();

  assert_load_fails (dir, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY, "folder");
}

static void
test_loader_permission (void)
{
  g_autofree char *path = strata_test_write_file ("secret.trace", "*version\n3\n", 11);

  if (geteuid () == 0)
    {
      g_test_skip ("root can read any file");
      return;
    }
  g_assert_cmpint (g_chmod (path, 0), ==, 0);
  assert_load_fails (path, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED, "permission");
}

static void
test_loader_empty (void)
{
  g_autofree char *path = strata_test_write_file ("empty.trace", "", 0);

  assert_load_fails (path, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_EMPTY, "empty");
}

static void
test_loader_fifo (void)
{
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "pipe.trace", NULL);

  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  /* Reading a pipe with no writer would block forever. */
  assert_load_fails (path, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_NOT_REGULAR, NULL);
}

static glong
max_rss_kib (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

/* @head, then zeros to @size as a hole: nothing on disk. */
static void
write_sparse (const char *path,
              const char *head,
              gsize       head_len,
              gint64      size)
{
  g_assert_true (g_file_set_contents (path, head, head_len, NULL));
  g_assert_cmpint (truncate (path, size), ==, 0);
}

static void
test_loader_gigabyte_of_zeros (void)
{
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "zeros.trace", NULL);
  glong rss_before = max_rss_kib ();

  /* Sparse: a gigabyte on paper, nothing on disk. */
  write_sparse (path, "", 0, G_GINT64_CONSTANT (1) << 30);

  assert_load_fails (path, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_UNKNOWN_FORMAT, "zero");
  g_assert_cmpint (max_rss_kib () - rss_before, <, 64 * 1024);
}

static void
test_loader_random (void)
{
  guint8 data[8192];
  g_autofree char *path = NULL;

  strata_test_fill_random (data, sizeof data, 7);
  data[0] = 'x';
  path = strata_test_write_file ("random.trace", data, sizeof data);
  assert_load_fails (path, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_UNKNOWN_FORMAT, NULL);
}

static void
test_loader_png_named_trace (void)
{
  g_autofree char *path = strata_test_write_file ("picture.trace", png_bytes, sizeof png_bytes - 1);

  assert_load_fails (path, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_UNKNOWN_FORMAT, "PNG");
}

static void
test_loader_not_a_trace (void)
{
  const char json[] = "{\"nodes\": [], \"samples\": []}";
  g_autofree char *path = strata_test_write_file ("profile.json", json, sizeof json - 1);

  assert_load_fails (path, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_NOT_A_TRACE, "Trace Event");
}

typedef struct
{
  GMainLoop *loop;
  GError    *error;
  GThread   *main_thread;
  guint      n_notifies;
} AsyncState;

static void
progress_cb (StrataLoader *loader,
             GParamSpec   *pspec,
             AsyncState   *state)
{
  /* Progress must reach the thread that started the load. */
  g_assert_true (g_thread_self () == state->main_thread);
  state->n_notifies++;
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  AsyncState *state = user_data;
  g_autoptr(StrataTrace) trace = NULL;

  g_assert_true (g_thread_self () == state->main_thread);
  trace = strata_loader_load_finish (STRATA_LOADER (object), result, &state->error);
  g_assert_null (trace);
  g_main_loop_quit (state->loop);
}

static void
run_async (const char   *path,
           GCancellable *cancellable,
           AsyncState   *state)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(StrataLoader) loader = strata_loader_new (file);

  state->loop = g_main_loop_new (NULL, FALSE);
  state->main_thread = g_thread_self ();
  g_signal_connect (loader, "notify::fraction", G_CALLBACK (progress_cb), state);
  strata_loader_load_async (loader, cancellable, load_cb, state);
  g_main_loop_run (state->loop);
  g_main_loop_unref (state->loop);
}

static void
test_loader_async_error (void)
{
  g_autofree char *path = strata_test_write_file ("async.trace", png_bytes, sizeof png_bytes - 1);
  AsyncState state = { 0 };

  run_async (path, NULL, &state);
  g_assert_error (state.error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_UNKNOWN_FORMAT);
  g_assert_cmpuint (state.n_notifies, >, 0);
  g_clear_error (&state.error);
}

static void
test_loader_async_cancelled (void)
{
  g_autofree char *path = strata_test_write_file ("cancel.trace", "*version\n3\n", 11);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  AsyncState state = { 0 };

  g_cancellable_cancel (cancellable);
  run_async (path, cancellable, &state);
  g_assert_error (state.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&state.error);
}

/* Inflates all of @input in pieces of @piece bytes. */
static StrataInflateStatus
inflate_in_pieces (const guint8 *input,
                   gsize         input_len,
                   gsize         piece,
                   GByteArray   *out)
{
  g_autoptr(StrataInflater) inflater = strata_inflater_new (input, input_len);
  StrataInflateStatus status = STRATA_INFLATE_MORE;

  while (status == STRATA_INFLATE_MORE)
    {
      gsize old_len = out->len, n_written = 0;

      g_byte_array_set_size (out, old_len + piece);
      status = strata_inflater_read (inflater, out->data + old_len, piece, &n_written);
      g_assert_cmpuint (n_written, <=, piece);
      g_byte_array_set_size (out, old_len + n_written);
    }
  return status;
}

static void
test_loader_inflater (void)
{
  g_autofree guint8 *plain = g_malloc (300000);
  g_autoptr(GBytes) packed = NULL;
  g_autoptr(GByteArray) whole = g_byte_array_new ();
  g_autoptr(GByteArray) cut = g_byte_array_new ();
  g_autoptr(GByteArray) damaged_out = g_byte_array_new ();
  g_autofree guint8 *damaged = NULL;
  const guint8 *data;
  gsize len;

  for (gsize i = 0; i < 300000; i++)
    plain[i] = (guint8) (i * 7 + i / 1000);
  packed = strata_test_gzip (plain, 300000);
  data = g_bytes_get_data (packed, &len);
  g_assert_true (strata_is_gzip (data, len));
  g_assert_false (strata_is_gzip (plain, 300000));
  g_assert_false (strata_is_gzip (data, 1));

  /* Whole, in odd-sized pieces: the same bytes back. */
  g_assert_cmpint (inflate_in_pieces (data, len, 4093, whole), ==, STRATA_INFLATE_END);
  g_assert_cmpmem (whole->data, whole->len, plain, 300000);

  /* Cut in half: what was there, then word that it was cut. */
  g_assert_cmpint (inflate_in_pieces (data, len / 2, 65536, cut), ==, STRATA_INFLATE_CUT);
  g_assert_cmpuint (cut->len, >, 0);
  g_assert_cmpuint (cut->len, <, 300000);
  g_assert_cmpmem (cut->data, cut->len, plain, cut->len);

  /* The deflate header's block type made invalid (11 = reserved). */
  damaged = g_memdup2 (data, len);
  damaged[10] |= 0x06;
  g_assert_cmpint (inflate_in_pieces (damaged, len, 65536, damaged_out), ==, STRATA_INFLATE_DAMAGED);
}

static void
test_loader_inflater_stream (void)
{
  const char *text = "{\"traceEvents\": []}";
  g_autoptr(GBytes) packed = strata_test_gzip (text, strlen (text));
  GBytes *inputs[2] = { g_bytes_new_static (text, strlen (text)), packed };

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr(GInputStream) base = g_memory_input_stream_new_from_bytes (inputs[i]);
      g_autoptr(GInputStream) stream = NULL;
      g_autoptr(GError) error = NULL;
      char buffer[64] = { 0 };
      gsize n = 0;

      stream = strata_inflater_open_stream (base, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (g_input_stream_read_all (stream, buffer, sizeof buffer - 1, &n, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (buffer, ==, text);
    }
  g_bytes_unref (inputs[0]);
}

static void
test_loader_symlink_loop (void)
{
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *a = g_build_filename (dir, "a.trace", NULL);
  g_autofree char *b = g_build_filename (dir, "b.trace", NULL);
  g_autofree char *dangling = g_build_filename (dir, "dangling.trace", NULL);

  g_assert_cmpint (symlink (b, a), ==, 0);
  g_assert_cmpint (symlink (a, b), ==, 0);
  assert_load_fails (a, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_NOT_REGULAR, "loop");
  g_assert_cmpint (symlink ("nowhere.trace", dangling), ==, 0);
  assert_load_fails (dangling, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, NULL);
}

/* A file in a folder the user may not enter. */
static void
test_loader_closed_folder (void)
{
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *folder = g_build_filename (dir, "closed", NULL);
  g_autofree char *path = g_build_filename (folder, "inside.trace", NULL);

  if (geteuid () == 0)
    {
      g_test_skip ("root enters every folder");
      return;
    }
  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, "SLOW", 4, NULL));
  g_assert_cmpint (g_chmod (folder, 0600), ==, 0);
  assert_load_fails (path, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED, "permission");
  g_chmod (folder, 0700);
}

/* Zeros, then a real trace: the message must not say "only zeros". */
static void
test_loader_zero_prefix (void)
{
  g_autofree char *sample = strata_test_fixture_path ("dmtrace", "studio-perflib-exception.trace", NULL);
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "zero-prefix.trace", NULL);
  g_autofree char *contents = NULL;
  g_autofree guint8 *joined = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (sample, &contents, &len, NULL));
  joined = g_malloc0 (65536 + len);
  memcpy (joined + 65536, contents, len);
  g_assert_true (g_file_set_contents (path, (const char *) joined, 65536 + len, NULL));
  assert_load_fails (path, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_UNKNOWN_FORMAT, "starts with");
}

/* Loads @path while a thread cuts it to 1,000 bytes 20 ms in. Whatever
 * the timing, the process lives; when the cut came before the load ended,
 * the load says the file changed (or, cut before it was mapped, loads
 * what there was or says it is too short). */
static void
load_while_shrinking (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(StrataLoader) loader = strata_loader_new (file);
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  StrataTestCut *cut = strata_test_cut_later (path, 1000);
  gint64 start = g_get_monotonic_time (), end, cut_at;

  trace = strata_loader_load (loader, NULL, &error);
  end = g_get_monotonic_time ();
  cut_at = strata_test_cut_join (cut);
  g_test_message ("%s: load %.3f s, cut at %.3f s: %s", path, (end - start) / 1e6, (cut_at - start) / 1e6,
                  error ? error->message : "loaded");
  /* Without the guard, a cut during the load killed the process with
   * SIGBUS. Cut well before its end, the load must say why it failed. */
  if (cut_at + 5000 < end)
    {
      g_assert_null (trace);
      g_assert_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_TRUNCATED);
      g_assert_nonnull (strstr (error->message, "changed while it was read"));
    }
}

/* A file cut short after its load, while its mapping is still read (a
 * heap dump's strings, as a window's page shows them): the part that is
 * gone reads as zeros, the process lives, and the cut is told. */
static void
test_loader_shrinks_after_load (void)
{
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "cut-later.hprof", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *content = g_malloc (1 << 20);
  const guint8 *data;
  gboolean mapped = FALSE;
  long page = sysconf (_SC_PAGESIZE);
  guint sum = 0;

  memset (content, 0x5a, 1 << 20);
  g_assert_true (g_file_set_contents (path, (const char *) content, 1 << 20, NULL));
  bytes = strata_load_file_bytes (file, NULL, &mapped, &error);
  g_assert_no_error (error);
  g_assert_true (mapped);
  g_assert_false (strata_load_guard_mapping_changed (path));
  g_assert_cmpint (truncate (path, page), ==, 0);

  data = g_bytes_get_data (bytes, NULL);
  g_assert_cmpuint (data[0], ==, 0x5a);
  for (gsize i = page; i < (1 << 20); i += page)
    sum += data[i];
  g_assert_cmpuint (sum, ==, 0);
  g_assert_true (strata_load_guard_mapping_changed (path));
  g_assert_cmpint (strata_load_guard_get_changed_fd (), >=, 0);

  /* Let go, the mapping is watched no more. */
  g_clear_pointer (&bytes, g_bytes_unref);
  g_assert_false (strata_load_guard_mapping_changed (path));
}

static void
test_loader_shrinks_while_loading (void)
{
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *json_path = g_build_filename (dir, "shrinking.json", NULL);
  g_autofree char *trace_path = g_build_filename (dir, "shrinking.trace", NULL);
  FILE *out;

  /* Trace Event JSON, scanned by a worker while the loading thread
   * takes the events: about 100 MB. */
  out = fopen (json_path, "w");
  g_assert_nonnull (out);
  fputs ("{\"traceEvents\": [", out);
  for (guint i = 0; i < 1200000; i++)
    fprintf (out, "%s{\"name\": \"slice %u\", \"ph\": \"X\", \"ts\": %u, \"dur\": 1, \"pid\": 1, \"tid\": %u}",
             i ? ",\n" : "", i % 1000, i * 2, 1 + i % 8);
  fputs ("]}", out);
  fclose (out);
  load_while_shrinking (json_path);

  /* A method trace, read by several workers at once: about 60 MB. */
  out = fopen (trace_path, "w");
  g_assert_nonnull (out);
  {
    g_autoptr(DmtraceWriter) writer = dmtrace_writer_new_to_file (3, "dual", FALSE, out);

    for (guint t = 1; t <= 8; t++)
      dmtrace_writer_add_thread (writer, t, "worker");
    dmtrace_writer_add_method (writer, 0, "com/example/A\ta\t()V\tA.java");
    dmtrace_writer_begin_data (writer);
    for (guint i = 0; i < 2500000; i++)
      {
        dmtrace_writer_record (writer, 1 + i % 8, 0, DMTRACE_ENTER, i, i);
        dmtrace_writer_record (writer, 1 + i % 8, 0, DMTRACE_EXIT, i + 1, i + 1);
      }
    g_bytes_unref (dmtrace_writer_finish (writer, FALSE));
  }
  fclose (out);
  load_while_shrinking (trace_path);
}

/* Writes @head, then @n_fill bytes of @fill, gzip-compressed, to @path:
 * a small file that inflates to whatever size a test needs. */
static void
write_gzip_bomb (const char *path,
                 const char *head,
                 gsize       head_len,
                 char        fill,
                 guint64     n_fill)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFileOutputStream) raw = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  g_autoptr(GZlibCompressor) z = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 1);
  g_autoptr(GOutputStream) out = NULL;
  g_autofree char *block = g_malloc (1 << 20);

  g_assert_no_error (error);
  out = g_converter_output_stream_new (G_OUTPUT_STREAM (raw), G_CONVERTER (z));
  memset (block, fill, 1 << 20);
  g_assert_true (g_output_stream_write_all (out, head, head_len, NULL, NULL, &error));
  for (guint64 done = 0; done < n_fill; done += 1 << 20)
    g_assert_true (g_output_stream_write_all (out, block, MIN (n_fill - done, 1 << 20), NULL, NULL, &error));
  g_assert_true (g_output_stream_close (out, NULL, &error));
  g_assert_no_error (error);
}

#define HPROF_HEAD "JAVA PROFILE 1.0.2\0\0\0\0\4\0\0\0\0\0\0\0\0"
static const char hprof_head[] = HPROF_HEAD;
/* The same, then one heap dump segment of 256 MB: a dump's structure. */
static const char hprof_segment_head[] = HPROF_HEAD "\x1c\0\0\0\0\x10\0\0\0";

static double
peak_megabytes (void)
{
  return max_rss_kib () / 1024.0;
}

static guint
count_files (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  guint n = 0;

  while (dir != NULL && g_dir_read_name (dir) != NULL)
    n++;
  return n;
}

static char *
scratch_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "strata", NULL);
}

/* A gzip method trace loads as the plain one does; its inflated content
 * lived in an unlinked file in the cache folder, and nothing stays there
 * or appears beside the trace. */
static void
test_loader_gzip_scratch (void)
{
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *plain_path = g_build_filename (dir, "plain.trace", NULL);
  g_autofree char *gz_path = g_build_filename (dir, "packed.trace.gz", NULL);
  g_autofree char *scratch = scratch_dir ();
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(StrataTrace) plain = NULL, packed = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;
  const char *data;
  guint n_beside;

  dmtrace_writer_add_thread (writer, 1, "main");
  dmtrace_writer_add_method (writer, 0, "com/example/A\ta\t()V\tA.java");
  dmtrace_writer_begin_data (writer);
  for (guint i = 0; i < 200000; i++)
    {
      dmtrace_writer_record (writer, 1, 0, DMTRACE_ENTER, 2 * i, 2 * i);
      dmtrace_writer_record (writer, 1, 0, DMTRACE_EXIT, 2 * i + 1, 2 * i + 1);
    }
  bytes = dmtrace_writer_finish (writer, FALSE);
  data = g_bytes_get_data (bytes, &len);
  g_assert_true (g_file_set_contents (plain_path, data, len, NULL));
  write_gzip_bomb (gz_path, data, len, ' ', 0);

  n_beside = count_files (dir);
  plain = strata_test_load_path (plain_path, &error);
  g_assert_no_error (error);
  packed = strata_test_load_path (gz_path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strata_trace_get_n_methods (packed), ==, strata_trace_get_n_methods (plain));
  g_assert_cmpuint (strata_trace_get_thread (packed, 0)->spans->n_spans[0], ==, 200000);
  g_assert_cmpuint (strata_trace_get_thread (packed, 0)->spans->n_spans[0], ==,
                    strata_trace_get_thread (plain, 0)->spans->n_spans[0]);
  g_assert_true (g_file_test (scratch, G_FILE_TEST_IS_DIR));
  g_assert_cmpuint (count_files (scratch), ==, 0);
  g_assert_cmpuint (count_files (dir), ==, n_beside);
}

/* A heap dump segment of 256 MB of ones, in about 1 MB of gzip, on a
 * disk that has room for 64 MB: refused with a message once 64 MB are
 * written. Zeros straight after the header are no records at all: that
 * file is refused before anything is inflated. */
static void
test_loader_gzip_bomb (void)
{
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "bomb.hprof.gz", NULL);
  g_autofree char *zeros_path = g_build_filename (dir, "zeros.hprof.gz", NULL);
  g_autofree char *scratch = scratch_dir ();
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(StrataLoader) loader = strata_loader_new (file);
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  struct stat info;
  gint64 start;

  /* Not zeros: those would be stored as holes, taking no disk at all. */
  write_gzip_bomb (path, hprof_segment_head, sizeof hprof_segment_head - 1, 1, G_GUINT64_CONSTANT (256) << 20);
  g_assert_cmpint (g_stat (path, &info), ==, 0);
  g_assert_cmpint (info.st_size, <, 2 << 20);
  strata_loader_set_scratch_limit (loader, 64000000);
  trace = strata_loader_load (loader, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_TOO_LARGE);
  g_test_message ("bomb refused: %s (peak %.0f MB)", error->message, peak_megabytes ());
  g_assert_nonnull (strstr (error->message, "free disk space"));
  g_assert_nonnull (strstr (error->message, "64.0"));
  g_assert_cmpuint (count_files (scratch), ==, 0);

  /* The same segment of zeros is stored as holes: it loads on a disk
   * with room for 1 MB, and says what it could not read. */
  g_clear_error (&error);
  g_clear_object (&trace);
  write_gzip_bomb (path, hprof_segment_head, sizeof hprof_segment_head - 1, 0, G_GUINT64_CONSTANT (256) << 20);
  g_clear_object (&loader);
  loader = strata_loader_new (file);
  strata_loader_set_scratch_limit (loader, 1000000);
  trace = strata_loader_load (loader, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (strata_test_has_diagnostic (trace, "holds a record Strata cannot read"));

  write_gzip_bomb (zeros_path, hprof_head, sizeof hprof_head - 1, 0, G_GUINT64_CONSTANT (256) << 20);
  start = g_get_monotonic_time ();
  g_assert_null (strata_test_load_path (zeros_path, &error));
  g_assert_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "records are of no kind a heap dump has"));
  g_test_message ("zeros refused in %.3f s: %s", (g_get_monotonic_time () - start) / 1e6, error->message);
  g_assert_cmpuint (count_files (scratch), ==, 0);
}

/* Cancels the load of @path 50 ms in; the load must stop within 0.5 s. */
static void
assert_cancel_is_prompt (const char *path)
{
  strata_test_assert_cancel_is_prompt (path);
  g_test_message ("%s: peak %.0f MB", path, peak_megabytes ());
}

/* A heap dump inflating to 2 GB, and Trace Event JSON of 2 GB of
 * whitespace (streamed, not inflated whole): Cancel is seen in both. */
static void
test_loader_gzip_cancel (void)
{
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *hprof = g_build_filename (dir, "segment.hprof.gz", NULL);
  g_autofree char *json = g_build_filename (dir, "spaces.json.gz", NULL);

  write_gzip_bomb (hprof, hprof_segment_head, sizeof hprof_segment_head - 1, 0, G_GUINT64_CONSTANT (2) << 30);
  assert_cancel_is_prompt (hprof);
  write_gzip_bomb (json, "[", 1, ' ', G_GUINT64_CONSTANT (2) << 30);
  assert_cancel_is_prompt (json);
}

#if defined(__SANITIZE_ADDRESS__)
#define STRATA_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STRATA_TEST_ASAN 1
#endif
#endif

#ifndef STRATA_TEST_ASAN
static guint64
address_space_in_use (void)
{
  g_autofree char *statm = NULL;

  g_assert_true (g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL));
  return g_ascii_strtoull (statm, NULL, 10) * sysconf (_SC_PAGESIZE);
}
#endif

/* Under an address-space limit just above the file's size, loading runs out
 * of memory; the child must end the load with a message, not abort. */
static void
test_loader_out_of_memory (void)
{
#ifdef STRATA_TEST_ASAN
  g_test_skip ("AddressSanitizer needs more address space than the limit leaves");
#else
  if (!g_test_subprocess ())
    {
      g_autofree char *dir = strata_test_make_tmpdir ();
      g_autofree char *path = g_build_filename (dir, "big.json", NULL);
      FILE *out;

      out = fopen (path, "w");
      g_assert_nonnull (out);
      fputs ("{\"traceEvents\": [", out);
      for (guint i = 0; i < 600000; i++)
        fprintf (out, "%s{\"name\": \"slice %u\", \"ph\": \"X\", \"ts\": %u, \"dur\": 1, \"pid\": 1, \"tid\": %u}",
                 i ? ",\n" : "", i % 1000, i * 2, 1 + i % 8);
      fputs ("]}", out);
      fclose (out);
      /* The child gets the path through its environment. */
      g_setenv ("STRATA_TEST_BIG_JSON", path, TRUE);
      g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
      g_test_trap_assert_stdout ("*not enough memory*");
      g_unlink (path);
      return;
    }

  {
    g_autoptr(GFile) file = NULL;
    g_autoptr(StrataLoader) loader = NULL;
    g_autoptr(StrataTrace) trace = NULL;
    g_autoptr(GError) error = NULL;
    const char *path = g_getenv ("STRATA_TEST_BIG_JSON");
    struct stat info;
    struct rlimit limit;

    g_assert_nonnull (path);
    g_assert_cmpint (g_stat (path, &info), ==, 0);
    file = g_file_new_for_path (path);
    loader = strata_loader_new (file);
    limit.rlim_cur = limit.rlim_max = address_space_in_use () + info.st_size + (24 << 20);
    g_assert_cmpint (setrlimit (RLIMIT_AS, &limit), ==, 0);
    trace = strata_loader_load (loader, NULL, &error);
    g_assert_null (trace);
    g_assert_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_TOO_LARGE);
    g_print ("%s\n", error->message);
  }
#endif
}

/* An HPROF header before a sparse 512 MiB of zeros: refused after 257
 * records, without the id-size walk reading every record header first
 * (it read all 512 MiB, and 6 GiB gzipped took 6.3 GB). */
static void
test_loader_hprof_zeros (void)
{
  g_autofree char *dir = strata_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "zeros.hprof", NULL);
  glong rss_before = max_rss_kib ();

  write_sparse (path, hprof_head, sizeof hprof_head - 1, G_GINT64_CONSTANT (512) << 20);
  assert_load_fails (path, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT, "of no kind a heap dump has");
  g_assert_cmpint (max_rss_kib () - rss_before, <, 64 * 1024);
}

int
main (int   argc,
      char *argv[])
{
  /* The gzip tests count what the loader leaves in the cache folder. */
  g_autofree char *cache = g_dir_make_tmp ("strata-test-cache-XXXXXX", NULL);

  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/loader/missing", test_loader_missing);
  g_test_add_func ("/loader/directory", test_loader_directory);
  g_test_add_func ("/loader/permission", test_loader_permission);
  g_test_add_func ("/loader/empty", test_loader_empty);
  g_test_add_func ("/loader/fifo", test_loader_fifo);
  g_test_add_func ("/loader/shrinks-while-loading", test_loader_shrinks_while_loading);
  g_test_add_func ("/loader/symlink-loop", test_loader_symlink_loop);
  g_test_add_func ("/loader/closed-folder", test_loader_closed_folder);
  g_test_add_func ("/loader/zero-prefix", test_loader_zero_prefix);
  g_test_add_func ("/loader/gigabyte-of-zeros", test_loader_gigabyte_of_zeros);
  g_test_add_func ("/loader/random", test_loader_random);
  g_test_add_func ("/loader/png-named-trace", test_loader_png_named_trace);
  g_test_add_func ("/loader/not-a-trace", test_loader_not_a_trace);
  g_test_add_func ("/loader/async-error", test_loader_async_error);
  g_test_add_func ("/loader/async-cancelled", test_loader_async_cancelled);
  g_test_add_func ("/loader/inflater", test_loader_inflater);
  g_test_add_func ("/loader/inflater-stream", test_loader_inflater_stream);
  g_test_add_func ("/loader/gzip-scratch", test_loader_gzip_scratch);
  g_test_add_func ("/loader/gzip-bomb", test_loader_gzip_bomb);
  g_test_add_func ("/loader/hprof-zeros", test_loader_hprof_zeros);
  g_test_add_func ("/loader/shrinks-after-load", test_loader_shrinks_after_load);
  g_test_add_func ("/loader/gzip-cancel", test_loader_gzip_cancel);
  g_test_add_func ("/loader/out-of-memory", test_loader_out_of_memory);

  return g_test_run ();
}
