/* fuzz-main.c: replays seeds through the fuzz target, with deterministic
 * mutations (every truncation point, flipped bytes, widened lengths), so
 * ordinary test builds with sanitizers cover the same code; then, with
 * --seconds=N, keeps fuzzing for N seconds with random stacked mutations
 * of the seeds (--seed=S repeats a run; the seed used is printed).
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
static GPtrArray *seeds;  /* GBytes */

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
  g_ptr_array_add (seeds, g_bytes_new (contents, len));
  run ((const guint8 *) contents, len);
  mutate ((const guint8 *) contents, len, seed);
}

/* One random change to @buf, in the spirit of libFuzzer's mutators:
 * bytes, lengths set to extremes, ranges cut, copied or taken from
 * another seed. */
static void
mutate_once (GRand      *rand,
             GByteArray *buf)
{
  static const guint32 extremes[] = { 0, 1, 0x7f, 0x80, 0xff, 0x7fffffff, 0x80000000, 0xffffffff };
  guint len = buf->len;
  guint at = len > 0 ? g_rand_int_range (rand, 0, len) : 0;
  guint span = len > at ? g_rand_int_range (rand, 1, MIN (len - at, 64) + 1) : 0;

  switch (g_rand_int_range (rand, 0, 6))
    {
    case 0:  /* a random byte */
      if (len > 0)
        buf->data[at] = g_rand_int_range (rand, 0, 256);
      break;
    case 1:  /* a 32-bit field at an extreme */
      if (len >= 4)
        {
          guint32 value = extremes[g_rand_int_range (rand, 0, G_N_ELEMENTS (extremes))];

          at = MIN (at, len - 4);
          memcpy (buf->data + at, &value, 4);
        }
      break;
    case 2:  /* a range cut out */
      if (span > 0)
        g_byte_array_remove_range (buf, at, span);
      break;
    case 3:  /* a range repeated */
      if (span > 0 && len < 4 * MAX_SEED_SIZE)
        {
          g_autofree guint8 *copy = g_memdup2 (buf->data + at, span);

          g_byte_array_set_size (buf, len + span);
          memmove (buf->data + at + span, buf->data + at, len - at);
          memcpy (buf->data + at, copy, span);
        }
      break;
    case 4:  /* a range from another seed */
      {
        GBytes *other = g_ptr_array_index (seeds, g_rand_int_range (rand, 0, seeds->len));
        gsize other_len;
        const guint8 *other_data = g_bytes_get_data (other, &other_len);

        if (other_len > 0 && span > 0)
          {
            guint from = g_rand_int_range (rand, 0, other_len);

            memcpy (buf->data + at, other_data + from, MIN (span, other_len - from));
          }
      }
      break;
    default:  /* cut short */
      g_byte_array_set_size (buf, at);
      break;
    }
}

static void
fuzz_for (double   seconds,
          guint32  seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  guint64 n_before = n_runs;

  if (seeds->len == 0)
    return;
  while (g_get_monotonic_time () < end)
    {
      GBytes *base = g_ptr_array_index (seeds, g_rand_int_range (rand, 0, seeds->len));
      g_autoptr(GByteArray) buf = g_byte_array_new ();
      gsize len;
      const guint8 *data = g_bytes_get_data (base, &len);
      guint n_changes = g_rand_int_range (rand, 1, 9);

      g_byte_array_append (buf, data, len);
      for (guint i = 0; i < n_changes; i++)
        mutate_once (rand, buf);
      run (buf->data, buf->len);
    }
  g_print ("# %.0f s of random mutations (seed %u): %" G_GUINT64_FORMAT " inputs\n",
           seconds, seed, n_runs - n_before);
}

int
main (int   argc,
      char *argv[])
{
  const char *corpus = g_getenv ("STRATA_CORPUS_DIR");
  double seconds = 0;
  guint32 seed = g_random_int ();

  seeds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  for (int i = 1; i < argc; i++)
    {
      if (g_str_has_prefix (argv[i], "--seconds="))
        {
          seconds = g_ascii_strtod (argv[i] + strlen ("--seconds="), NULL);
          continue;
        }
      if (g_str_has_prefix (argv[i], "--seed="))
        {
          seed = g_ascii_strtoull (argv[i] + strlen ("--seed="), NULL, 10);
          continue;
        }
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

  fuzz_for (seconds, seed);
  g_print ("1..1\nok 1 - %" G_GUINT64_FORMAT " inputs loaded or refused without a fault\n", n_runs);
  return n_runs > 0 ? 0 : 1;
}
