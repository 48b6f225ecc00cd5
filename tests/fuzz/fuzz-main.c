/* fuzz-main.c: replays seeds through the fuzz target, with deterministic
 * mutations (every truncation point, flipped bytes, widened lengths), so
 * ordinary test builds with sanitizers cover the same code.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <string.h>
#include <glib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

#define MAX_SEED_SIZE (256 * 1024)
#define FLIPS_PER_SEED 400
#define TRUNCATIONS_PER_SEED 300

static guint64 n_runs;

static void
run (const guint8 *data,
     gsize         len)
{
  /* A private copy, so reading past the end is caught by the sanitizers. */
  g_autofree guint8 *copy = g_memdup2 (data, len);

  LLVMFuzzerTestOneInput (copy, len);
  n_runs++;
}

static void
mutate (const guint8 *data,
        gsize         len,
        guint32       seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autofree guint8 *buf = g_memdup2 (data, len);
  gsize step = MAX (1, len / TRUNCATIONS_PER_SEED);

  for (gsize cut = 0; cut < len; cut += step)
    run (data, cut);

  for (guint i = 0; i < FLIPS_PER_SEED && len > 0; i++)
    {
      gsize at = g_rand_int_range (rand, 0, len);
      guint8 old = buf[at];

      /* Mostly bytes that make lengths and counts large. */
      buf[at] = (i % 3 == 0) ? 0xff : (i % 3 == 1) ? 0 : g_rand_int_range (rand, 0, 256);
      run (buf, len);
      buf[at] = old;
    }
}

static void
run_path (const char *path,
          guint32     seed)
{
  g_autofree char *contents = NULL;
  gsize len;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      while (dir && (name = g_dir_read_name (dir)))
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          run_path (child, seed++);
        }
      return;
    }

  if (!g_file_get_contents (path, &contents, &len, NULL) || len > MAX_SEED_SIZE)
    return;
  run ((const guint8 *) contents, len);
  mutate ((const guint8 *) contents, len, seed);
}

int
main (int   argc,
      char *argv[])
{
  const char *corpus = g_getenv ("STRATA_CORPUS_DIR");

  for (int i = 1; i < argc; i++)
    {
      /* "corpus:FOLDER" is a folder of the shared corpus, when there is one. */
      if (g_str_has_prefix (argv[i], "corpus:"))
        {
          g_autofree char *path = NULL;

          if (corpus == NULL || *corpus == '\0')
            {
              g_print ("# %s left out: STRATA_CORPUS_DIR is not set\n", argv[i]);
              continue;
            }
          path = g_build_filename (corpus, argv[i] + strlen ("corpus:"), NULL);
          run_path (path, 1000 * i);
        }
      else
        run_path (argv[i], 1000 * i);
    }

  g_print ("1..1\nok 1 - %" G_GUINT64_FORMAT " inputs loaded or refused without a fault\n", n_runs);
  return n_runs > 0 ? 0 : 1;
}
