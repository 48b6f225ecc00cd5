/* test-json-skim.c: finding a container's end 64 bytes at a time
 *
 * strata_json_skim_container() must end every container where
 * strata_json_skip_value() ends it, and say what that says of a cut
 * one. Random documents of strings with escapes (runs of backslashes
 * across the 64-byte blocks), brackets and quotes inside strings, deep
 * nesting and every kind of scalar are compared whole, cut at every
 * length, and placed at every offset within a block.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-json-skim.h"

static void
append_string (GString *out,
               GRand   *rand)
{
  guint n = g_rand_int_range (rand, 0, 90);

  g_string_append_c (out, '"');
  for (guint i = 0; i < n; i++)
    {
      static const char plain[] = "abcxyz019 {}[],:\xc3\xa9";
      guint kind = g_rand_int_range (rand, 0, 10);

      if (kind == 0)
        {
          /* A run of backslashes, even, then what it leaves alone. */
          guint run = 2 * g_rand_int_range (rand, 1, 6);

          for (guint k = 0; k < run; k++)
            g_string_append_c (out, '\\');
        }
      else if (kind == 1)
        g_string_append (out, g_rand_boolean (rand) ? "\\\"" : "\\\\\\\"");
      else if (kind == 2)
        g_string_append (out, "\\u00e9\\n");
      else
        g_string_append_c (out, plain[g_rand_int_range (rand, 0, sizeof plain - 1)]);
    }
  g_string_append_c (out, '"');
}

static void
append_value (GString *out,
              GRand   *rand,
              guint    depth)
{
  guint kind = g_rand_int_range (rand, 0, depth < 12 ? 8 : 5);

  switch (kind)
    {
    case 0:
    case 1:
      append_string (out, rand);
      break;
    case 2:
      g_string_append_printf (out, "%d", g_rand_int_range (rand, -100000, 100000));
      break;
    case 3:
      g_string_append (out, g_rand_boolean (rand) ? "-1.5e3" : "0.25");
      break;
    case 4:
      g_string_append (out, (const char *[]) { "true", "false", "null" }[g_rand_int_range (rand, 0, 3)]);
      break;
    case 5:
    case 6:
      {
        guint n = g_rand_int_range (rand, 0, 6);

        g_string_append_c (out, '{');
        for (guint i = 0; i < n; i++)
          {
            if (i > 0)
              g_string_append (out, g_rand_boolean (rand) ? "," : " ,\n ");
            append_string (out, rand);
            g_string_append_c (out, ':');
            append_value (out, rand, depth + 1);
          }
        g_string_append_c (out, '}');
        break;
      }
    default:
      {
        guint n = g_rand_int_range (rand, 0, 6);

        g_string_append_c (out, '[');
        for (guint i = 0; i < n; i++)
          {
            if (i > 0)
              g_string_append_c (out, ',');
            append_value (out, rand, depth + 1);
          }
        g_string_append_c (out, ']');
      }
    }
}

/* Both on [p, end): the same status, and the same end when whole. */
static void
assert_same (const char *p,
             const char *end)
{
  const char *skipped = NULL, *skimmed = NULL;
  StrataJsonStatus want = strata_json_skip_value (p, end, &skipped);
  StrataJsonStatus got = strata_json_skim_container (p, end, &skimmed);

  g_assert_cmpint (got, ==, want);
  if (want == STRATA_JSON_OK)
    g_assert_true (skimmed == skipped);
}

static void
test_against_skip (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261129);
  guint n_long = 0;

  for (guint doc = 0; doc < 400; doc++)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      g_autofree char *buffer = NULL;
      guint offset = doc % 64, len;

      g_string_append_c (text, g_rand_boolean (rand) ? '[' : '{');
      for (guint i = 0, n = g_rand_int_range (rand, 1, 6); i < n; i++)
        {
          if (i > 0)
            g_string_append_c (text, ',');
          if (text->str[0] == '{')
            g_string_append_printf (text, "\"k%u\":", i);
          append_value (text, rand, 1);
        }
      g_string_append_c (text, text->str[0] == '{' ? '}' : ']');
      n_long += text->len > 256;
      /* What follows the container, so its end is found, not the
       * buffer's; the buffer holds only these bytes, for ASan. */
      g_string_append (text, ",{\"next\":[1]}");
      len = text->len;
      buffer = g_malloc (offset + len);
      memcpy (buffer + offset, text->str, len);
      assert_same (buffer + offset, buffer + offset + len);
      for (guint cut = 0; cut < len; cut += 1 + cut / 64)
        assert_same (buffer + offset, buffer + offset + cut);
    }
  g_assert_cmpuint (n_long, >, 100);
}

/* Backslash runs that end a block: the quote after them is escaped when
 * the run is odd, wherever the block boundary falls in it. */
static void
test_escapes_across_blocks (void)
{
  for (guint before = 40; before < 70; before++)
    for (guint run = 0; run < 9; run++)
      {
        g_autoptr(GString) text = g_string_new ("[\"");
        const char *end;

        for (guint i = 0; i < before; i++)
          g_string_append_c (text, 'a');
        for (guint i = 0; i < run; i++)
          g_string_append_c (text, '\\');
        /* An odd run escapes this quote: the string goes on to the next. */
        g_string_append (text, "\"]\",1] and then some bytes so the blocks are whole ....................");
        g_assert_cmpint (strata_json_skim_container (text->str, text->str + text->len, &end), ==, STRATA_JSON_OK);
        g_assert_cmpuint (end - text->str, ==, 2 + before + run + (run % 2 == 1 ? 6 : 2));
        assert_same (text->str, text->str + text->len);
      }
}

/* What lies between brackets is not checked (a caller reads it again);
 * brackets are. */
static void
test_leniency (void)
{
  static const char bad_scalar[] = "[tru, 1] then bytes enough to fill a whole block of sixty-four...";
  static const char mismatch[] = "[{\"a\":1]} then bytes enough to fill a whole block of sixty-four...";
  static const char text[] = "\"text\" and more";
  const char *end = NULL;

  g_assert_cmpint (strata_json_skip_value (bad_scalar, bad_scalar + strlen (bad_scalar), &end), ==, STRATA_JSON_INVALID);
  g_assert_cmpint (strata_json_skim_container (bad_scalar, bad_scalar + strlen (bad_scalar), &end), ==, STRATA_JSON_OK);
  g_assert_cmpuint (end - bad_scalar, ==, 8);
  g_assert_cmpint (strata_json_skim_container (mismatch, mismatch + strlen (mismatch), &end), ==, STRATA_JSON_INVALID);
  /* Not a container: as strata_json_skip_value(). */
  assert_same (text, text + strlen (text));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/json-skim/against-skip", test_against_skip);
  g_test_add_func ("/json-skim/escapes-across-blocks", test_escapes_across_blocks);
  g_test_add_func ("/json-skim/leniency", test_leniency);
  return g_test_run ();
}
