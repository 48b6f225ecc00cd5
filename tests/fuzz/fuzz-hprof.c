/* fuzz-hprof.c: the fuzz input behind an HPROF header, so every run
 * reaches one HPROF parser (FUZZ_HPROF_TEXT picks the text one)
 *
 * Built as libFuzzer targets with -Dfuzzing=true (fuzz-hprof-binary and
 * fuzz-hprof-text), and as plain programs that replay seeds and their
 * mutations in tests (fuzz-main.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <string.h>
#include <glib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);
int strata_fuzz_loader (const uint8_t *data,
                        size_t         size);

#ifdef FUZZ_HPROF_TEXT
static const char header[] = "JAVA PROFILE 1.0.1, created Sun Nov 22 03:00:00 2026\n\n--------\n";
#define HEADER_LEN (sizeof header - 1)
#else
/* "JAVA PROFILE 1.0.2", NUL, 4-byte ids, a zero timestamp. */
static const char header[] = "JAVA PROFILE 1.0.2\0\0\0\0\4\0\0\0\0\0\0\0\0";
#define HEADER_LEN (sizeof header - 1)
#endif

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree uint8_t *input = NULL;

  /* Seeds that already are HPROF files go in as they are. */
  if (size >= 12 && memcmp (data, "JAVA PROFILE", 12) == 0)
    return strata_fuzz_loader (data, size);
  input = g_malloc (HEADER_LEN + size);
  memcpy (input, header, HEADER_LEN);
  if (size > 0)
    memcpy (input + HEADER_LEN, data, size);
  return strata_fuzz_loader (input, HEADER_LEN + size);
}
