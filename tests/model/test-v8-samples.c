/* test-v8-samples.c: a V8 profile's sample arrays, read and summed up
 *
 * The arrays of samples and deltas are most of a JavaScript recording:
 * read in blocks and summed up in runs of one node, they must give what
 * reading and adding each sample alone gives.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-v8-stacks.h"
#include "strata-v8-text.h"

/* A frame's method, for profiles made here: its line. */
static guint32
line_method (gpointer    data,
             const char *function,
             const char *url,
             gint64      line,
             gint64      column)
{
  return (guint32) line;
}

#define N_RANDOM_NODES 24

/* Beyond 32 bits, the id of the last of the random nodes. */
#define WIDE_NODE_ID ((G_GINT64_CONSTANT (1) << 33) + 1)

/* A tree of nodes, the first V8's own, each under one before it. */
static void
random_nodes (StrataV8NodeValues *nodes)
{
  static const char *const names[] = { "(root)", "(idle)", "(program)", "(garbage collector)" };

  for (guint i = 0; i < N_RANDOM_NODES; i++)
    nodes[i] = (StrataV8NodeValues) { TRUE, i + 1 < N_RANDOM_NODES ? i + 1 : WIDE_NODE_ID,
                                      i == 0 ? G_MININT64 : g_test_rand_int_range (1, (gint32) i + 1),
                                      i < G_N_ELEMENTS (names) ? names[i] : "f", "a.js", i, 0, NULL, 0 };
}

static StrataV8Profile *
profile_of_nodes (const StrataV8NodeValues *nodes)
{
  StrataV8Profile *profile = strata_v8_profile_new (line_method, NULL);

  strata_v8_profile_add_node_values (profile, nodes, N_RANDOM_NODES);
  strata_v8_profile_set_start (profile, 1000);
  return profile;
}

static void
assert_same_stacks (StrataV8Profile  *a,
                    StrataV8Profile  *b,
                    StrataV8StackView view)
{
  StrataV8Stacks sa, sb;
  StrataTimedStack ta, tb;
  gint64 end_a, end_b;

  strata_v8_stacks_init (&sa, a, view, NULL, &end_a);
  strata_v8_stacks_init (&sb, b, view, NULL, &end_b);
  g_assert_cmpint (end_a, ==, end_b);
  while (strata_v8_stacks_next (&sa, &ta))
    {
      g_assert_true (strata_v8_stacks_next (&sb, &tb));
      g_assert_cmpint (ta.time, ==, tb.time);
      g_assert_cmpint (ta.run_end, ==, tb.run_end);
      g_assert_cmpuint (ta.run_length, ==, tb.run_length);
      g_assert_cmpmem (ta.frames, ta.n_frames * sizeof (guint32), tb.frames, tb.n_frames * sizeof (guint32));
    }
  g_assert_false (strata_v8_stacks_next (&sb, &tb));
  strata_v8_stacks_clear (&sa);
  strata_v8_stacks_clear (&sb);
}

/* Samples added a run at a time, as the scanner sums them up, give the
 * stacks they give one at a time: runs, deltas going back, unknown
 * nodes, chunks with fewer deltas than samples. */
static void
test_sample_groups (void)
{
  for (guint round = 0; round < 50; round++)
    {
      StrataV8NodeValues nodes[N_RANDOM_NODES];
      g_autoptr(StrataV8Profile) one = NULL;
      g_autoptr(StrataV8Profile) grouped = NULL;
      StrataV8Repairs repairs_one = { 0 }, repairs_grouped = { 0 };

      random_nodes (nodes);
      one = profile_of_nodes (nodes);
      grouped = profile_of_nodes (nodes);
      for (guint chunk = 0; chunk < 8; chunk++)
        {
          guint n = g_test_rand_int_range (0, 300);
          guint n_deltas = g_test_rand_bit () ? n : (guint) g_test_rand_int_range (0, (gint32) n + 1);
          g_autofree gint64 *ids = g_new (gint64, MAX (n, 1));
          g_autofree gint64 *deltas = g_new (gint64, MAX (n, 1));
          g_autoptr(GArray) groups = g_array_new (FALSE, FALSE, sizeof (StrataV8SampleGroup));
          StrataV8Deltas kept = { deltas, n_deltas, NULL, NULL };
          guint n_groups;

          for (guint i = 0; i < n; i++)
            {
              gint64 id = g_test_rand_int_range (0, 10) == 0 ? 999 : g_test_rand_int_range (1, 25);

              /* Now and then an id or a delta beyond a group's 32 bits. */
              if (g_test_rand_int_range (0, 50) == 0)
                id = g_test_rand_bit () ? G_MININT64 : WIDE_NODE_ID + g_test_rand_int_range (0, 2);
              ids[i] = i > 0 && g_test_rand_int_range (0, 4) > 0 ? ids[i - 1] : id;
              deltas[i] = g_test_rand_int_range (0, 20) == 0 ? -g_test_rand_int_range (1, 400) : g_test_rand_int_range (0, 300);
              if (g_test_rand_int_range (0, 60) == 0)
                deltas[i] = (g_test_rand_bit () ? 1 : -1) * ((G_GINT64_CONSTANT (1) << 32) - g_test_rand_int_range (0, 3));
            }
          strata_v8_profile_add_sample_values (one, ids, n, deltas, n_deltas);
          n_groups = strata_v8_group_samples (ids, n, deltas, n_deltas, groups);
          strata_v8_profile_add_sample_groups (grouped, (const StrataV8SampleGroup *) groups->data, n_groups, ids, n, &kept);
        }
      g_assert_cmpuint (strata_v8_profile_get_n_samples (one), ==, strata_v8_profile_get_n_samples (grouped));
      assert_same_stacks (one, grouped, STRATA_V8_STACKS_TIMELINE);
      assert_same_stacks (one, grouped, STRATA_V8_STACKS_PROFILE);
      strata_v8_profile_add_repairs (one, &repairs_one);
      strata_v8_profile_add_repairs (grouped, &repairs_grouped);
      g_assert_cmpmem (&repairs_one, sizeof repairs_one, &repairs_grouped, sizeof repairs_grouped);
    }
}

/* Arrays of numbers read in blocks give what reading each alone gives:
 * short and long numbers, signs, fractions (cut to integers), spaces,
 * the end of the text right after the array. */
static void
test_integer_arrays (void)
{
  for (guint round = 0; round < 2000; round++)
    {
      g_autoptr(GString) text = g_string_new ("[");
      g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr(GArray) read = g_array_new (FALSE, FALSE, sizeof (gint64));
      /* Long runs of short numbers, as samples and deltas are, are read
       * many at a time; the rest one by one. */
      guint n = g_test_rand_int_range (0, round % 2 ? 400 : 40);
      const char *array_end = NULL;
      g_autofree char *copy = NULL;

      for (guint i = 0; i < n; i++)
        {
          /* Every fourth round all short: runs of them are read a few at once. */
          guint digits = g_test_rand_int_range (1, round % 4 == 3 ? 5 : round % 2 && g_test_rand_int_range (0, 10) ? 6 : 20);
          gboolean negative = g_test_rand_int_range (0, round % 2 ? 40 : 4) == 0;
          guint64 magnitude = 0;
          gboolean fraction;
          gint64 value;

          if (i > 0)
            g_string_append (text, g_test_rand_int_range (0, round % 2 ? 80 : 8) == 0 ? " , " : ",");
          if (negative)
            g_string_append_c (text, '-');
          for (guint d = 0; d < digits; d++)
            {
              guint digit = g_test_rand_int_range (d == 0 && digits > 1 ? 1 : 0, 10);

              g_string_append_c (text, (char) ('0' + digit));
              magnitude = magnitude * 10 + digit;
            }
          fraction = g_test_rand_int_range (0, round % 2 ? 100 : 10) == 0;
          if (fraction)
            g_string_append (text, ".5");
          /* Nineteen digits, or a fraction, are read as a double: only
           * those a double holds exactly are compared. */
          value = digits > 18 || (fraction && digits > 15) ? G_MININT64 : negative ? -(gint64) magnitude : (gint64) magnitude;
          g_array_append_val (expected, value);
        }
      g_string_append_c (text, ']');
      /* The text ends at the array: nothing may be read past it. */
      copy = g_memdup2 (text->str, text->len);
      g_assert_cmpint (strata_v8_read_integers (copy, copy + text->len, read, -1, &array_end), ==, STRATA_JSON_OK);
      g_assert_true (array_end == copy + text->len);
      g_assert_cmpuint (read->len, ==, n);
      for (guint i = 0; i < n; i++)
        if (g_array_index (expected, gint64, i) != G_MININT64)
          g_assert_cmpint (g_array_index (read, gint64, i), ==, g_array_index (expected, gint64, i));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/v8-samples/groups", test_sample_groups);
  g_test_add_func ("/v8-samples/integer-arrays", test_integer_arrays);

  return g_test_run ();
}
