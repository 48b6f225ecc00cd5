/* strata-units.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <locale.h>
#include <string.h>

#include "strata-units.h"

/**
 * strata_units_format_duration:
 *
 * Returns: @ns with the unit that fits (ns, µs, ms, s) and three
 *   significant digits, e.g. "12.3 ms"
 */
char *
strata_units_format_duration (gint64 ns)
{
  static const struct { double scale; const char *unit; } units[] = {
    { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "µs" },
  };
  double magnitude = ABS ((double) ns);

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    {
      double value = ns / units[i].scale;

      if (magnitude >= units[i].scale)
        {
          int decimals = ABS (value) >= 100 ? 0 : ABS (value) >= 10 ? 1 : 2;

          /* Translators: a duration, e.g. "12.3 ms" */
          return g_strdup_printf (_("%.*f %s"), decimals, value, units[i].unit);
        }
    }

  /* Translators: a duration in nanoseconds */
  return g_strdup_printf (_("%lld ns"), (long long) ns);
}

static char *
format_exact_with_point (gint64      ns,
                         const char *point)
{
  guint64 magnitude = ns < 0 ? (guint64) -(ns + 1) + 1 : (guint64) ns;

  return g_strdup_printf ("%s%" G_GUINT64_FORMAT "%s%06" G_GUINT64_FORMAT " ms",
                          ns < 0 ? "-" : "", magnitude / 1000000, point, magnitude % 1000000);
}

/* All the digits, in milliseconds, with a full stop whatever the locale:
 * reports are compared and parsed by other tools. */
char *
strata_units_format_exact (gint64 ns)
{
  return format_exact_with_point (ns, ".");
}

/**
 * strata_units_format_size:
 *
 * Returns: a size for people, the one way every page writes sizes:
 *   "945.2 kB", "12.7 MB" (GLib's, in powers of 1000, as GNOME writes them);
 *   negative sizes (a change) with a minus sign
 */
char *
strata_units_format_size (double bytes)
{
  g_autofree char *size = NULL;

  if (!isfinite (bytes))
    return g_strdup_printf ("%g", bytes);
  size = g_format_size ((guint64) llround (MIN (fabs (bytes), (double) G_MAXINT64)));
  return bytes < 0 ? g_strconcat ("-", size, NULL) : g_steal_pointer (&size);
}

/**
 * strata_units_format_quantity:
 * @bytes: whether @value counts bytes (then as strata_units_format_size())
 *
 * Returns: @value for people, with three significant digits and a unit
 *   prefix: "12.7 M", or "12.7 MB" for bytes; never an exponent for
 *   values a counter holds
 */
char *
strata_units_format_quantity (double   value,
                              gboolean bytes)
{
  static const char *const si[] = { "", " k", " M", " G", " T", " P" };
  double magnitude = fabs (value);
  guint prefix = 0;
  int decimals;

  if (bytes)
    return strata_units_format_size (value);
  if (!isfinite (value))
    return g_strdup_printf ("%g", value);
  while (magnitude >= 1000 * 0.9995 && prefix + 1 < G_N_ELEMENTS (si))
    {
      magnitude /= 1000;
      value /= 1000;
      prefix++;
    }
  if (prefix == 0 && magnitude != 0 && magnitude < 0.001)
    return g_strdup_printf ("%.2e", value);
  decimals = magnitude >= 99.95 || (prefix == 0 && value == (gint64) value) ? 0
           : magnitude >= 9.995 ? 1
           : magnitude >= 0.9995 ? 2 : 3;
  /* Translators: a number and a unit prefix, e.g. "12.7 M" */
  return g_strdup_printf (_("%.*f%s"), decimals, value, si[prefix]);
}

char *
strata_units_format_percent (gint64 part,
                             gint64 total)
{
  /* Translators: a percentage with one decimal, e.g. "12.5%" */
  return g_strdup_printf (_("%.1f%%"), total > 0 ? 100.0 * part / total : 0.0);
}

char *
strata_units_format_count (guint64 count)
{
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, count);
}

/**
 * strata_units_clip_for_display:
 * @text: (nullable): a name from a trace, any length
 * @owned: (out): set to a copy to free when @text had to be clipped
 *
 * A name of megabytes (traces carry them: generated code, a JSON string
 * with a whole file in it) would make a text layout of gigabytes. Shown
 * names stop at STRATA_UNITS_DISPLAY_MAX bytes, at a character boundary,
 * with an ellipsis.
 *
 * Returns: @text, or *@owned
 */
const char *
strata_units_clip_for_display (const char  *text,
                               char       **owned)
{
  return strata_units_clip_to (text, STRATA_UNITS_DISPLAY_MAX, owned);
}

/**
 * strata_units_clip_to:
 * @max: the most bytes kept, at least 1
 *
 * strata_units_clip_for_display() at another length.
 */
const char *
strata_units_clip_to (const char  *text,
                      gsize        max,
                      char       **owned)
{
  const char *end;

  *owned = NULL;
  if (text == NULL || strnlen (text, max + 1) <= max)
    return text;
  end = g_utf8_find_prev_char (text, text + max);
  if (end == NULL)
    end = text;
  *owned = g_malloc (end - text + sizeof "…");
  memcpy (*owned, text, end - text);
  memcpy (*owned + (end - text), "…", sizeof "…");
  return *owned;
}

/* A sample is laid out as STRATA_UNITS_NS_PER_SAMPLE on the time axis. */
static char *
format_sample_count (gint64 ns)
{
  if (ns % STRATA_UNITS_NS_PER_SAMPLE == 0)
    return g_strdup_printf ("%" G_GINT64_FORMAT, ns / STRATA_UNITS_NS_PER_SAMPLE);
  return g_strdup_printf ("%.3f", (double) ns / STRATA_UNITS_NS_PER_SAMPLE);
}

/**
 * strata_units_format_samples_exact:
 *
 * A weight of samples for `strata -r`: "25362", or "1.500" per call.
 */
char *
strata_units_format_samples_exact (gint64 ns)
{
  return format_sample_count (ns);
}

/**
 * strata_units_format_samples:
 *
 * A weight of samples for the window: "25,362 samples". Samples are counts,
 * never seconds.
 */
char *
strata_units_format_samples (gint64 ns)
{
  if (ns % STRATA_UNITS_NS_PER_SAMPLE == 0)
    {
      gint64 n = ns / STRATA_UNITS_NS_PER_SAMPLE;
      g_autofree char *count = strata_units_format_count (n);

      /* Translators: %s is a number of CPU samples */
      return g_strdup_printf (ngettext ("%s sample", "%s samples", n), count);
    }
  /* Translators: %.1f is a fractional number of CPU samples, per call */
  return g_strdup_printf (_("%.1f samples"), (double) ns / STRATA_UNITS_NS_PER_SAMPLE);
}

/**
 * strata_units_parse_ms_range:
 * @text: "FROM-TO" in milliseconds, such as "120.5-180"
 *
 * Returns: whether @text is such a range, FROM at least 0 and below TO
 */
gboolean
strata_units_parse_ms_range (const char *text,
                             double     *from,
                             double     *to)
{
  g_auto(GStrv) parts = g_strsplit (text, "-", 2);
  char *end = NULL;

  if (g_strv_length (parts) != 2)
    return FALSE;
  *from = g_ascii_strtod (parts[0], &end);
  if (end == parts[0] || *end != '\0')
    return FALSE;
  *to = g_ascii_strtod (parts[1], &end);
  return end != parts[1] && *end == '\0' && *from >= 0 && *to > *from;
}
