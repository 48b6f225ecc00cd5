/* strata-memory.c: large blocks on huge pages
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <sys/mman.h>

#include "strata-memory.h"

#define HUGE_PAGE (2 * 1024 * 1024)

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
