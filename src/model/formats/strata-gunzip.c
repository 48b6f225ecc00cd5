/* strata-gunzip.c: inflating a whole gzip file for formats read at random
 *
 * Method traces and heap dumps are read out of order, so their gzip files
 * are inflated whole before parsing. The content goes into an unlinked file
 * in the user's cache folder, never beside the trace: its pages belong to
 * the page cache, not to the viewer, a gzip bomb fills at most the free disk
 * (and is refused before it does), and the file vanishes with the mapping.
 * Where no such file can be made, the content is inflated into memory, with
 * every allocation checked.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "strata-error.h"
#include "strata-inflater.h"
#include "strata-loader-private.h"
#include "strata-memory.h"

#define GUNZIP_CHUNK (4 * 1024 * 1024)

/* Reports damage after some content was inflated; FALSE when there was none. */
static gboolean
note_damage (StrataLoadJob  *job,
             guint64         n_inflated,
             GError        **error)
{
  g_autofree char *size = NULL;

  if (n_inflated == 0)
    {
      strata_set_gzip_damaged_error (error);
      return FALSE;
    }
  size = g_format_size (n_inflated);
  g_ptr_array_add (job->diagnostics,
                   /* Translators: %s is a size such as “12.5 MB” */
                   g_strdup_printf (_("The compressed data is cut or damaged after %s of content; what came before it was loaded."),
                                    size));
  return TRUE;
}

static gboolean
report_progress (StrataLoadJob        *job,
                 const StrataInflater *inflater,
                 gsize                 input_len,
                 GError              **error)
{
  return strata_load_job_update (job, (double) strata_inflater_get_input_pos (inflater) / input_len,
                                 _("Decompressing…"), error);
}

/* In memory */

static guint64
max_memory_size (void)
{
  long pages = sysconf (_SC_PHYS_PAGES);
  long page_size = sysconf (_SC_PAGESIZE);

  if (pages <= 0 || page_size <= 0)
    return G_GUINT64_CONSTANT (4) << 30;

  /* A gzip bomb must not take the machine down with it. */
  return (guint64) pages * (guint64) page_size / 2;
}

static void
set_memory_too_small_error (guint64   size,
                            GError  **error)
{
  g_autofree char *text = g_format_size (size);

  g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_TOO_LARGE,
               /* Translators: %s is a size such as “8.0 GB” */
               _("Its decompressed content is larger than %s, more than this computer can hold."),
               text);
}

typedef struct
{
  guint8 *data;
  gsize   len;
  gsize   allocated;
} InflatedBuffer;

/* Grows with g_try_realloc(): the size comes from the file, and running out
 * of memory must fail the load, not abort the viewer. */
static gboolean
memory_step (StrataInflater      *inflater,
             InflatedBuffer      *out,
             StrataInflateStatus *status)
{
  gsize n_written = 0;

  if (out->allocated - out->len < GUNZIP_CHUNK)
    {
      gsize allocated = MAX (out->allocated * 2, out->len + GUNZIP_CHUNK);
      guint8 *data = g_try_realloc (out->data, allocated);

      if (data == NULL)
        return FALSE;
      out->data = data;
      out->allocated = allocated;
    }
  *status = strata_inflater_read (inflater, out->data + out->len, GUNZIP_CHUNK, &n_written);
  out->len += n_written;
  return TRUE;
}

static GBytes *
gunzip_to_memory (StrataLoadJob  *job,
                  const guint8   *data,
                  gsize           len,
                  GError        **error)
{
  g_autoptr(StrataInflater) inflater = strata_inflater_new (data, len);
  InflatedBuffer out = { NULL, 0, 0 };
  guint64 limit = max_memory_size ();
  StrataInflateStatus status = STRATA_INFLATE_MORE;

  while (status == STRATA_INFLATE_MORE)
    {
      if (!report_progress (job, inflater, len, error))
        goto failed;
      if (!memory_step (inflater, &out, &status))
        {
          set_memory_too_small_error (out.len, error);
          goto failed;
        }
      if ((status == STRATA_INFLATE_DAMAGED || status == STRATA_INFLATE_CUT) &&
          !note_damage (job, out.len, error))
        goto failed;
      if (out.len > limit)
        {
          set_memory_too_small_error (limit, error);
          goto failed;
        }
    }

  /* Give back what the doubling took beyond the content. */
  out.data = g_realloc (out.data, MAX (out.len, 1));
  return g_bytes_new_take (out.data, out.len);

failed:
  g_free (out.data);
  return NULL;
}

/* In a scratch file */

static void
set_disk_too_small_error (guint64      room,
                          const char  *dir,
                          GError     **error)
{
  g_autofree char *text = g_format_size (room);

  g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_TOO_LARGE,
               /* Translators: the first %s is a size such as “8.0 GB”, the second a folder */
               _("Its decompressed content is larger than the %s of free disk space Strata may use in %s."),
               text, dir);
}

static gboolean
set_store_error (int      saved,
                 GError **error)
{
  g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_TOO_LARGE,
               /* Translators: %s is a system error such as “No space left on device” */
               _("Its decompressed content could not be stored: %s."),
               g_strerror (saved));
  return FALSE;
}

static gboolean
write_all (int            fd,
           const guint8  *data,
           gsize          len,
           GError       **error)
{
  int saved = strata_write_all (fd, data, len);

  return saved == 0 || set_store_error (saved, error);
}

#define HOLE_BLOCK 65536

/* A whole block of zeros, which can be a hole. */
static gboolean
is_hole (const guint8 *data,
         gsize         len)
{
  return len == HOLE_BLOCK && strata_memory_leading_zeros (data, len) == len;
}

/* The bytes of @n that take disk: blocks of zeros become holes. */
static gsize
data_bytes (const guint8 *data,
            gsize         n)
{
  gsize total = 0;

  for (gsize at = 0; at < n; at += HOLE_BLOCK)
    {
      gsize len = MIN (n - at, (gsize) HOLE_BLOCK);

      if (!is_hole (data + at, len))
        total += len;
    }
  return total;
}

/* Stores @n inflated bytes at the end of @fd; blocks of zeros become
 * holes, which take no disk: a bomb of zeros costs time, not space. */
static gboolean
store_chunk (int            fd,
             const guint8  *data,
             gsize          n,
             GError       **error)
{
  for (gsize at = 0; at < n; at += HOLE_BLOCK)
    {
      gsize len = MIN (n - at, (gsize) HOLE_BLOCK);

      if (is_hole (data + at, len) && lseek (fd, len, SEEK_CUR) >= 0)
        continue;
      if (!write_all (fd, data + at, len, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
inflate_into_file (StrataLoadJob  *job,
                   const guint8   *data,
                   gsize           len,
                   int             fd,
                   const char     *dir,
                   GError        **error)
{
  g_autoptr(StrataInflater) inflater = strata_inflater_new (data, len);
  g_autofree guint8 *chunk = g_malloc (GUNZIP_CHUNK);
  guint64 room = job->scratch_limit > 0 ? job->scratch_limit : strata_scratch_room (fd);
  guint64 written = 0, stored = 0;
  StrataInflateStatus status = STRATA_INFLATE_MORE;

  while (status == STRATA_INFLATE_MORE)
    {
      gsize n = 0;

      if (!report_progress (job, inflater, len, error))
        return FALSE;
      status = strata_inflater_read (inflater, chunk, GUNZIP_CHUNK, &n);
      stored += data_bytes (chunk, n);
      if (stored > room)
        {
          set_disk_too_small_error (room, dir, error);
          return FALSE;
        }
      if (!store_chunk (fd, chunk, n, error))
        return FALSE;
      written += n;
      if ((status == STRATA_INFLATE_DAMAGED || status == STRATA_INFLATE_CUT) &&
          !note_damage (job, written, error))
        return FALSE;
    }
  /* A hole at the end gives the file its length. */
  return ftruncate (fd, written) == 0 || set_store_error (errno, error);
}

static GBytes *
map_scratch_file (int      fd,
                  GError **error)
{
  g_autoptr(GMappedFile) mapped = NULL;
  GError *local_error = NULL;

  if (!(mapped = g_mapped_file_new_from_fd (fd, FALSE, &local_error)))
    {
      g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_TOO_LARGE,
                   /* Translators: %s is a system error */
                   _("Its decompressed content could not be read back: %s."),
                   local_error->message);
      g_clear_error (&local_error);
      return NULL;
    }
  return g_mapped_file_get_bytes (mapped);
}

/**
 * strata_load_job_gunzip:
 * @mapped: (out): whether the result maps a file, whose read pages can be
 *   released
 *
 * Inflates the whole of @compressed, in a scratch file when one can be made.
 *
 * Returns: (transfer full): the content, or %NULL with @error set
 */
GBytes *
strata_load_job_gunzip (StrataLoadJob  *job,
                        GBytes         *compressed,
                        gboolean       *mapped,
                        GError        **error)
{
  g_autofree char *dir = strata_scratch_dir ();
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (compressed, &len);
  GBytes *bytes;
  int fd = strata_scratch_open ();

  *mapped = FALSE;
  if (fd < 0)
    return gunzip_to_memory (job, data, len, error);

  bytes = NULL;
  if (inflate_into_file (job, data, len, fd, dir, error))
    bytes = map_scratch_file (fd, error);
  /* The mapping keeps the content; the disk space goes with it. */
  close (fd);
  *mapped = bytes != NULL && g_bytes_get_size (bytes) > 0;
  return bytes;
}
