/* strata-memory.c: large blocks on huge pages, and arrays in scratch files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <glib/gstdio.h>

#include "strata-memory.h"

#define HUGE_PAGE (2 * 1024 * 1024)
#define SCRATCH_RESERVE_MAX (G_GUINT64_CONSTANT (1) << 30)

/**
 * strata_memory_try_alloc_large:
 *
 * Storage for calls and edges, sized by the input. Blocks of a huge page
 * or more are aligned for huge pages: a hundred thousand page faults cost
 * more than the work of filling them, and writes scattered over the block
 * miss the TLB less. Free it with free() (or g_free()); it may be realloc'd.
 *
 * Returns: (nullable): @size bytes, not initialised, or %NULL when there
 *   is not that much memory
 */
gpointer
strata_memory_try_alloc_large (gsize size)
{
  void *block = NULL;

  if (size < HUGE_PAGE)
    return malloc (MAX (size, 1));
  if (posix_memalign (&block, HUGE_PAGE, size) != 0)
    return NULL;
#ifdef MADV_HUGEPAGE
  madvise (block, size, MADV_HUGEPAGE);
#endif
  return block;
}

/**
 * strata_memory_try_alloc_sparse:
 *
 * Room reserved for the worst case of which little is written, on small
 * pages: the pages never written take no memory, where one byte written
 * would take a whole huge page. Free it with free() (or g_free()).
 *
 * Returns: (nullable): @size bytes, not initialised, or %NULL when there
 *   is not that much address space
 */
gpointer
strata_memory_try_alloc_sparse (gsize size)
{
  void *block = NULL;
  long page = sysconf (_SC_PAGESIZE);

  if (size < HUGE_PAGE || page <= 0)
    return malloc (MAX (size, 1));
  if (posix_memalign (&block, (gsize) page, size) != 0)
    return NULL;
#ifdef MADV_NOHUGEPAGE
  madvise (block, size, MADV_NOHUGEPAGE);
#endif
  return block;
}

/**
 * strata_memory_leading_zeros:
 *
 * Returns: how many zero bytes @data starts with, read a word at a time:
 *   a file's zeros (a sparse tail, an inflated bomb) can be gigabytes
 */
gsize
strata_memory_leading_zeros (gconstpointer data,
                             gsize         len)
{
  const guint8 *bytes = data;
  gsize i = 0;
  guint64 word;

  for (; i + sizeof word <= len; i += sizeof word)
    {
      memcpy (&word, bytes + i, sizeof word);
      if (word != 0)
        break;
    }
  while (i < len && bytes[i] == 0)
    i++;
  return i;
}

/**
 * strata_memory_new_large:
 *
 * As strata_memory_try_alloc_large(), for @n items of @size bytes;
 * aborts when out of memory, as g_new() does.
 *
 * Returns: (transfer full): the items, not initialised
 */
gpointer
strata_memory_new_large (gsize n,
                         gsize size)
{
  gpointer block;

  if (size != 0 && n > G_MAXSIZE / size)
    g_error ("%s: overflow allocating %zu*%zu bytes", G_STRLOC, n, size);
  if ((block = strata_memory_try_alloc_large (n * size)) == NULL)
    g_error ("%s: failed to allocate %zu bytes", G_STRLOC, n * size);
  return block;
}

/**
 * strata_memory_renew_large:
 * @block: (nullable): from strata_memory_new_large(), holding @n_old items
 *
 * @block grown to @n items, its first @n_old kept. Unlike realloc(),
 * which would move a large block to fresh memory of small pages that
 * fault one by one, the new block is on huge pages too.
 *
 * Returns: (transfer full): the items; @block is freed
 */
gpointer
strata_memory_renew_large (gpointer block,
                           gsize    n_old,
                           gsize    n,
                           gsize    size)
{
  gpointer grown = strata_memory_new_large (n, size);

  if (block != NULL)
    memcpy (grown, block, MIN (n_old, n) * size);
  free (block);
  return grown;
}

/**
 * strata_memory_grow_large:
 * @block: (nullable): from strata_memory_new_large(), room for *@n_alloc
 *   items, of which the first @n_used are kept
 * @n_alloc: (inout): the items @block has room for, fewer than @n
 *
 * @block grown to @n items or twice its room, whichever is more, as
 * strata_memory_renew_large() grows it.
 *
 * Returns: (transfer full): the items
 */
gpointer
strata_memory_grow_large (gpointer  block,
                          gsize     n_used,
                          gsize     n,
                          gsize    *n_alloc,
                          gsize     size)
{
  gsize grown = MAX (n, *n_alloc * 2);

  block = strata_memory_renew_large (block, MIN (n_used, *n_alloc), grown, size);
  *n_alloc = grown;
  return block;
}

/**
 * strata_memory_tune_allocator:
 *
 * Called once at start by programs that load traces: from 1 MiB up,
 * arrays are mapped apart, so growing moves pages instead of copying
 * them and what is freed goes back to the system. Without it glibc
 * raises that bar as large arrays come and go and keeps both copies of
 * an array that doubled in its heap: a 500 MB recording's calls took
 * 250 MiB instead of 190.
 */
void
strata_memory_tune_allocator (void)
{
#ifdef __GLIBC__
  mallopt (M_MMAP_THRESHOLD, 1024 * 1024);
#endif
}

/**
 * strata_memory_give_back:
 *
 * Hands the free pages of the allocator's heaps back to the system: an
 * array that outgrew the heap for a mapping of its own leaves a hole
 * there that nothing else may fill soon.
 */
void
strata_memory_give_back (void)
{
#ifdef __GLIBC__
  malloc_trim (0);
#endif
}

/* Less than this is not worth a system call. */
#define RELEASE_STEP (1024 * 1024)

/**
 * strata_memory_release_front:
 * @block: an array being read front to back, from malloc()
 * @consumed: the bytes read, none of which will be read again
 * @released: (inout): the bytes of @block given back so far, 0 at first
 *
 * Gives the whole pages of @block before @consumed back to the system as
 * the reader goes: a walk through hundreds of megabytes need not hold
 * what it has walked. Those pages read as zeros after; @block is freed
 * as ever.
 */
void
strata_memory_release_front (gpointer  block,
                             gsize     consumed,
                             gsize    *released)
{
  strata_memory_release_front_by (block, consumed, released, RELEASE_STEP);
}

/**
 * strata_memory_release_front_by:
 * @step: the fewest bytes worth a system call
 *
 * As strata_memory_release_front(), in steps of @step: a copy that
 * moves an array elsewhere gives back its source as it goes.
 */
void
strata_memory_release_front_by (gpointer  block,
                                gsize     consumed,
                                gsize    *released,
                                gsize     step)
{
#ifdef MADV_DONTNEED
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  guintptr base = (guintptr) block;
  guintptr from = (base + *released + page - 1) / page * page;
  guintptr to = (base + consumed) / page * page;

  if (to < from + step)
    return;
  if (madvise ((void *) from, to - from, MADV_DONTNEED) == 0)
    *released = to - base;
#endif
}

/* ---- Scratch files ----
 *
 * Unlinked files in the user's cache folder (never beside a trace): their
 * disk space goes when the last descriptor or mapping does. */

/* Returns: (transfer full): $XDG_CACHE_HOME/strata */
char *
strata_scratch_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "strata", NULL);
}

/**
 * strata_scratch_open:
 *
 * Returns: a new unlinked file in strata_scratch_dir(): O_TMPFILE where
 *   the file system has it, else a named file removed at once; -1 when
 *   neither works
 */
int
strata_scratch_open (void)
{
  g_autofree char *dir = strata_scratch_dir ();
  g_autofree char *template = NULL;
  int fd;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    return -1;
#ifdef O_TMPFILE
  fd = open (dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0)
    return fd;
#endif
  template = g_build_filename (dir, "inflated-XXXXXX", NULL);
  fd = g_mkstemp_full (template, O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0)
    g_unlink (template);
  return fd;
}

/* What may be written to @fd's file system: its free space less a reserve
 * (a twentieth of the disk, at most 1 GiB), so loading never fills it. */
guint64
strata_scratch_room (int fd)
{
  struct statvfs info;
  guint64 total, free_bytes, reserve;

  if (fstatvfs (fd, &info) != 0)
    return 0;
  total = (guint64) info.f_blocks * info.f_frsize;
  free_bytes = (guint64) info.f_bavail * info.f_frsize;
  reserve = MIN (total / 20, SCRATCH_RESERVE_MAX);
  return free_bytes > reserve ? free_bytes - reserve : 0;
}

/**
 * strata_scratch_move:
 * @data: (transfer full): @size bytes from g_malloc()
 * @mapped: (out): whether the result is a scratch file's mapping
 *
 * Writes @data into a scratch file and maps it back, shared and writable,
 * freeing @data: the content costs the process nothing until read.
 * Writing is much cheaper than filling a fresh file mapping page by page.
 * Free with strata_scratch_free().
 *
 * Returns: the content: in the file, or @data where no file can be had
 */
gpointer
strata_scratch_move (gpointer  data,
                     gsize     size,
                     gboolean *mapped)
{
  int fd = size >= HUGE_PAGE ? strata_scratch_open () : -1;
  void *map = MAP_FAILED;

  *mapped = FALSE;
  if (fd < 0)
    return data;
  if (strata_scratch_room (fd) >= size && strata_write_all (fd, data, size) == 0)
    map = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close (fd);
  if (map == MAP_FAILED)
    return data;
  g_free (data);
  *mapped = TRUE;
  return map;
}

/**
 * strata_write_all:
 *
 * Writes all of @data to @fd, again after an interruption.
 *
 * Returns: 0, or the error number (ENOSPC when nothing more would go)
 */
int
strata_write_all (int         fd,
                  const void *data,
                  gsize       len)
{
  const guint8 *at = data;

  while (len > 0)
    {
      gssize n = write (fd, at, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return n < 0 ? errno : ENOSPC;
      at += n;
      len -= n;
    }
  return 0;
}

/* Takes the pages of @data out of the process; its content stays. */
void
strata_scratch_release (gpointer data,
                        gsize    size,
                        gboolean mapped)
{
  if (mapped && size > 0)
    madvise (data, size, MADV_DONTNEED);
}

/**
 * strata_memory_release_span:
 *
 * Takes the whole pages between @from and @to out of the process, where
 * @mapped says they are a file's and come back from it when read again.
 */
void
strata_memory_release_span (gconstpointer from,
                            gconstpointer to,
                            gboolean      mapped)
{
  gsize page = sysconf (_SC_PAGESIZE);
  guintptr start = ((guintptr) from + page - 1) & ~(guintptr) (page - 1);
  guintptr end = (guintptr) to & ~(guintptr) (page - 1);

  if (mapped && end > start)
    madvise ((void *) start, end - start, MADV_DONTNEED);
}

void
strata_scratch_free (gpointer data,
                     gsize    size,
                     gboolean mapped)
{
  if (mapped)
    munmap (data, size);
  else
    g_free (data);
}
