/* test-span-table.c: calls kept in 16 bytes
 *
 * A table keeps each call's start as an offset from its block's start
 * and its length in 32 bits; calls that do not fit (long ones, blocks
 * that span more than four seconds, times that go back in a bad file)
 * keep their times whole. Every call must read back exactly as it was
 * written, whether a loader wrote the table in place or handed it
 * finished depths, and the block-wise search must find what a plain
 * search over every call finds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-span-table.h"

#define FOUR_SECONDS (G_GINT64_CONSTANT (1) << 32)

/* @n calls that never overlap, in order: short and long ones, gaps of
 * every size, calls of no length, several at one time. */
static StrataSpan *
make_calls (GRand  *rand,
            guint32 n)
{
  StrataSpan *calls = g_new (StrataSpan, MAX (n, 1));
  gint64 time = g_rand_int_range (rand, -1000, 1000) * FOUR_SECONDS;

  for (guint32 i = 0; i < n; i++)
    {
      guint kind = g_rand_int_range (rand, 0, 10);
      gint64 length = kind == 0 ? 0 : kind == 1 ? FOUR_SECONDS + g_rand_int_range (rand, -2, 3)
                                    : g_rand_int_range (rand, 0, 5000);
      gint64 gap = kind == 2 ? FOUR_SECONDS * g_rand_int_range (rand, 1, 3) : kind == 3 ? 0 : g_rand_int_range (rand, 0, 300);

      time += gap;
      calls[i] = (StrataSpan) { time, time + length, g_rand_int_range (rand, 0, 50), i };
      time += length;
    }
  return calls;
}

static void
assert_calls (const StrataSpanTable *table,
              guint                  depth,
              const StrataSpan      *calls,
              guint32                n)
{
  g_assert_cmpuint (table->n_spans[depth], ==, n);
  for (guint32 i = 0; i < n; i++)
    {
      g_assert_cmpint (strata_span_table_start (table, depth, i), ==, calls[i].start);
      g_assert_cmpint (strata_span_table_end (table, depth, i), ==, calls[i].end);
      g_assert_cmpint (strata_span_table_duration (table, depth, i), ==, calls[i].end - calls[i].start);
      g_assert_cmpint (strata_span_table_get_start (table, 0, depth, i), ==, calls[i].start);
      g_assert_cmpuint (table->calls[depth][i].method, ==, calls[i].method);
      g_assert_cmpuint (table->calls[depth][i].first_child, ==, calls[i].first_child);
    }
}

/* A table of a copy of @calls, handed over whole, the copy in @storage. */
static StrataSpanTable *
table_of (const StrataSpan  *calls,
          guint32            n,
          StrataSpan       **storage)
{
  *storage = g_memdup2 (calls, MAX (n, 1) * sizeof (StrataSpan));
  return strata_span_table_new_by_depth (1, 1, &n, storage, NULL, NULL);
}

/* Calls handed over whole are packed where they lie and read back. */
static void
test_handed_over (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);

  for (guint round = 0; round < 20; round++)
    {
      guint32 n = g_rand_int_range (rand, 0, 3000);
      g_autofree StrataSpan *calls = make_calls (rand, n);
      g_autofree StrataSpan *copy = NULL;
      g_autoptr(StrataSpanTable) table = table_of (calls, n, &copy);

      assert_calls (table, 0, calls, n);
    }
}

/* Calls written one by one, as dmtrace and Trace Event loaders do. */
static void
test_written (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  guint32 n[2] = { 2500, 700 };
  g_autofree StrataSpan *calls0 = make_calls (rand, n[0]);
  g_autofree StrataSpan *calls1 = make_calls (rand, n[1]);
  g_autofree StrataPackedSpan *storage = g_new (StrataPackedSpan, n[0] + n[1]);
  g_autoptr(StrataSpanTable) table = strata_span_table_new_in (1, 2, n, storage, NULL);

  for (guint32 i = 0; i < n[0]; i++)
    strata_span_table_write (table, 0, i, &calls0[i]);
  for (guint32 i = 0; i < n[1]; i++)
    strata_span_table_write (table, 1, i, &calls1[i]);
  strata_span_table_end_writing (table);
  assert_calls (table, 0, calls0, n[0]);
  assert_calls (table, 1, calls1, n[1]);
}

/* A bad file's times may go back: such calls are kept whole too. */
static void
test_backwards (void)
{
  StrataSpan calls[] = {
    { 1000, 2000, 0, 0 }, { 500, 400, 1, 0 }, { G_MININT64 / 2, G_MAXINT64 / 2, 2, 0 }, { 3000, 3000, 3, 0 },
  };
  g_autofree StrataSpan *copy = NULL;
  g_autoptr(StrataSpanTable) table = table_of (calls, G_N_ELEMENTS (calls), &copy);

  assert_calls (table, 0, calls, G_N_ELEMENTS (calls));
}

/* The search by blocks finds the first call from @from on that ends at
 * or after a time, as looking at every call does. */
static void
test_search (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);

  for (guint round = 0; round < 10; round++)
    {
      guint32 n = g_rand_int_range (rand, 1, 2000);
      g_autofree StrataSpan *calls = make_calls (rand, n);
      g_autofree StrataSpan *copy = NULL;
      g_autoptr(StrataSpanTable) table = table_of (calls, n, &copy);

      for (guint q = 0; q < 500; q++)
        {
          guint32 at = g_rand_int_range (rand, 0, n), from = g_rand_int_range (rand, 0, n + 1), expected = from;
          gint64 time = calls[at].start + g_rand_int_range (rand, -3, 4);

          while (expected < n && calls[expected].end < time)
            expected++;
          g_assert_cmpuint (strata_span_table_search_from (table, 0, from, time), ==, expected);
          if (from == 0)
            g_assert_cmpuint (strata_span_table_search (table, 0, time), ==, expected);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/span-table/handed-over", test_handed_over);
  g_test_add_func ("/span-table/written", test_written);
  g_test_add_func ("/span-table/backwards", test_backwards);
  g_test_add_func ("/span-table/search", test_search);

  return g_test_run ();
}
