/* strata-dmtrace-zeros.c: a trace that ends in zero bytes stops where they start
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "strata-dmtrace-private.h"
#include "strata-file.h"

/* Zero bytes at the end shorter than this are records, however odd. */
#define MIN_ZERO_TAIL_RECORDS 4096
/* Scanned back this much at a time, each part let go once read. */
#define ZERO_SCAN_STEP (16 * 1024 * 1024)

/* Where the hole that ends a sparse file starts, as an offset in
 * @self->data, or @self->len: found from the file system, without
 * reading (reading a hole fills the page cache with zeros). */
static gsize
trailing_hole (DmtraceLoader *self)
{
  const guint8 *base = g_bytes_get_data (self->job->bytes, NULL);
  gsize size = g_bytes_get_size (self->job->bytes);
  g_autofree char *path = NULL;
  off_t pos = 0, data;
  struct stat info;
  gsize offset;
  int fd;

  if (!self->job->bytes_are_mapped || self->data < base || self->data + self->len > base + size)
    return self->len;
  offset = self->data - base;
  path = g_file_get_path (self->job->file);
  if (path == NULL || (fd = strata_file_open_regular (self->job->file, path, &info, NULL)) < 0)
    return self->len;
  /* The bytes must map the named file itself, not what it inflated to. */
  if ((gsize) info.st_size != size)
    {
      close (fd);
      return self->len;
    }
#ifdef SEEK_HOLE
  /* From data to the hole after it, until no data follows. */
  while ((data = lseek (fd, pos, SEEK_DATA)) >= 0 && (pos = lseek (fd, data, SEEK_HOLE)) > data)
    ;
#else
  pos = (off_t) size;
#endif
  close (fd);
  return (gsize) pos > offset ? MIN ((gsize) pos - offset, self->len) : self->header_len;
}

/* A file that ends in zero bytes (a sparse file, space kept but never
 * written, a copy cut short) has no records there: read as records, they
 * are thread 0 entering method 0 at time 0 millions of times, never
 * returning, each a level of stack. Reading stops where they start. */
/**
 * dmtrace_trim_zero_tail:
 *
 * Leaves the zero bytes that end the data out of @self->len, noting
 * where they start for the diagnostics.
 */
void
dmtrace_trim_zero_tail (DmtraceLoader *self)
{
  gsize end, records_end;

  if (self->streaming)
    return;
  end = MAX (trailing_hole (self), self->header_len);
  /* Zeros written out are read back a word at a time, and let go. */
  while (end >= self->header_len + sizeof (guint64))
    {
      gsize stop = end > self->header_len + ZERO_SCAN_STEP ? end - ZERO_SCAN_STEP : self->header_len;
      gsize from = end;
      guint64 word;

      while (end >= stop + sizeof word)
        {
          memcpy (&word, self->data + end - sizeof word, sizeof word);
          if (word != 0)
            break;
          end -= sizeof word;
        }
      strata_load_job_release_pages (self->job, self->data + end, self->data + from);
      if (end >= stop + sizeof word)
        break;
    }
  while (end > self->header_len && self->data[end - 1] == 0)
    end--;
  records_end = self->header_len + (end - self->header_len + self->record_size - 1) / self->record_size * self->record_size;
  if (records_end >= self->len || (self->len - records_end) / self->record_size < MIN_ZERO_TAIL_RECORDS)
    return;
  self->zero_tail_at = records_end;
  self->zero_tail_bytes = self->len - records_end;
  self->len = records_end;
}
