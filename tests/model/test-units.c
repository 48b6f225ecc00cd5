/* test-units.c: durations, shares and counts as people read them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>

#include "strata-units.h"

static void
assert_formatted (char       *text,
                  const char *expected)
{
  g_assert_cmpstr (text, ==, expected);
  g_free (text);
}

static void
test_units_duration (void)
{
  assert_formatted (strata_units_format_duration (999), "999 ns");
  assert_formatted (strata_units_format_duration (1500), "1.50 µs");
  assert_formatted (strata_units_format_duration (12345678), "12.3 ms");
  assert_formatted (strata_units_format_duration (206000000), "206 ms");
  assert_formatted (strata_units_format_duration (-2000000000), "-2.00 s");
}

static void
test_units_exact (void)
{
  assert_formatted (strata_units_format_exact (1500000), "1.500000 ms");
  assert_formatted (strata_units_format_exact (-500000), "-0.500000 ms");
  assert_formatted (strata_units_format_exact (G_MININT64), "-9223372036854.775808 ms");
}

/* Counter values for people: never an exponent such as 1.26584e+07. */
static void
test_units_quantity (void)
{
  assert_formatted (strata_units_format_quantity (12658400, FALSE), "12.7 M");
  /* Sizes as every page writes them: GLib's, in powers of 1000, the
   * number held to its unit by a no-break space (not in "512 bytes"). */
  assert_formatted (strata_units_format_quantity (12.0 * 1024 * 1024 + 100000, TRUE), "12.7\u00a0MB");
  assert_formatted (strata_units_format_quantity (512, TRUE), "512 bytes");
  assert_formatted (strata_units_format_quantity (945200, TRUE), "945.2\u00a0kB");
  assert_formatted (strata_units_format_size (-945200), "-945.2\u00a0kB");
  assert_formatted (strata_units_format_quantity (999.96, FALSE), "1.00 k");
  assert_formatted (strata_units_format_quantity (42, FALSE), "42");
  assert_formatted (strata_units_format_quantity (0.25, FALSE), "0.250");
  assert_formatted (strata_units_format_quantity (0, FALSE), "0");
  assert_formatted (strata_units_format_quantity (-3500, FALSE), "-3.50 k");
  assert_formatted (strata_units_format_quantity (2.5e12, FALSE), "2.50 T");
}

static void
test_units_percent (void)
{
  assert_formatted (strata_units_format_percent (1, 8), "12.5%");
  assert_formatted (strata_units_format_percent (5, 0), "0.0%");
}

/* People get their locale's decimal mark and digit grouping; reports keep
 * a full stop so other tools can read them. */
static void
test_units_locale (void)
{
  g_autofree char *saved = g_strdup (setlocale (LC_ALL, NULL));

  if (setlocale (LC_ALL, "de_DE.UTF-8") == NULL)
    {
      g_test_skip ("the de_DE.UTF-8 locale is not installed (Debian: locales-all)");
      return;
    }
  assert_formatted (strata_units_format_duration (12345678), "12,3 ms");
  assert_formatted (strata_units_format_exact (1500000), "1.500000 ms");
  assert_formatted (strata_units_format_percent (1, 8), "12,5%");
  assert_formatted (strata_units_format_count (1234567), "1.234.567");
  setlocale (LC_ALL, saved);
}

/* --range's "FROM-TO" in milliseconds, for the screenshot and the export. */
static void
test_units_ms_range (void)
{
  const char *const bad[] = { "", "5", "-5-10", "10-5", "5-5", "a-10", "5-10x", "5-10-20" };
  double from, to;

  g_assert_true (strata_units_parse_ms_range ("120.5-180", &from, &to));
  g_assert_cmpfloat (from, ==, 120.5);
  g_assert_cmpfloat (to, ==, 180);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    g_assert_false (strata_units_parse_ms_range (bad[i], &from, &to));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/units/duration", test_units_duration);
  g_test_add_func ("/units/exact", test_units_exact);
  g_test_add_func ("/units/percent", test_units_percent);
  g_test_add_func ("/units/quantity", test_units_quantity);
  g_test_add_func ("/units/locale", test_units_locale);
  g_test_add_func ("/units/ms-range", test_units_ms_range);
  return g_test_run ();
}
