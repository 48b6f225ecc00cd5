/* test-profile.c: inclusive/exclusive, recursion, edges and colours
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include <stdlib.h>
#include <string.h>

#include "dmtrace-writer.h"
#include "strata-loader.h"
#include "strata-palette.h"
#include "strata-profile.h"
#include "strata-test-util.h"

static StrataTrace *
load_writer (DmtraceWriter *writer)
{
  g_autoptr(GBytes) bytes = dmtrace_writer_finish (writer, FALSE);
  g_autofree char *path = strata_test_write_file ("profile.trace", g_bytes_get_data (bytes, NULL),
                                                  g_bytes_get_size (bytes));
  g_autoptr(GError) error = NULL;
  StrataTrace *trace = strata_test_load_path (path, &error);

  g_assert_no_error (error);
  return trace;
}

/* Records (tid 1, single wall clock) from a compact script:
 * "+a@0 +b@10 -b@30 -a@40" enters and exits method a..z at µs times. */
static StrataTrace *
load_script (const char *script)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "wall", FALSE);
  g_auto(GStrv) steps = g_strsplit (script, " ", -1);

  dmtrace_writer_add_thread (writer, 1, "main");
  dmtrace_writer_add_thread (writer, 2, "other");
  for (char c = 'a'; c <= 'z'; c++)
    {
      g_autofree char *fields = g_strdup_printf ("T\t%c\t()V", c);

      dmtrace_writer_add_method (writer, (c - 'a' + 1) * 4, fields);
    }
  dmtrace_writer_begin_data (writer);
  for (guint i = 0; steps[i] != NULL; i++)
    {
      const char *step = steps[i];
      guint tid = 1;

      if (step[0] == '2')
        tid = 2, step++;
      dmtrace_writer_record (writer, tid, (step[1] - 'a' + 1) * 4,
                             step[0] == '+' ? DMTRACE_ENTER : DMTRACE_EXIT,
                             atoi (step + 3), 0);
    }
  return load_writer (writer);
}

static const StrataProfileEntry *
entry_for (StrataProfile *profile,
           const char    *name)
{
  return strata_profile_get_entry (profile, strata_test_method_by_name (strata_profile_get_trace (profile), name));
}

static void
test_profile_nesting (void)
{
  g_autoptr(StrataTrace) trace = load_script ("+a@0 +b@10 -b@30 +c@35 -c@36 -a@40");
  g_autoptr(StrataProfile) profile = strata_profile_new (trace, -1, NULL, NULL);
  const StrataProfileEntry *a = entry_for (profile, "T.a ()V");
  const StrataProfileEntry *b = entry_for (profile, "T.b ()V");

  g_assert_cmpint (strata_profile_get_total (profile, 0), ==, 40000);
  g_assert_cmpint (a->inclusive[0], ==, 40000);
  g_assert_cmpint (a->exclusive[0], ==, 40000 - 20000 - 1000);
  g_assert_cmpuint (a->calls, ==, 1);
  g_assert_cmpuint (a->recursive_calls, ==, 0);
  g_assert_cmpint (b->inclusive[0], ==, 20000);
  g_assert_cmpint (b->exclusive[0], ==, 20000);
}

/* a → a → a: only the outer call's time is inclusive; exclusive is all. */
static void
test_profile_recursion (void)
{
  g_autoptr(StrataTrace) trace = load_script ("+a@0 +a@10 +a@20 -a@30 -a@40 -a@100");
  g_autoptr(StrataProfile) profile = strata_profile_new (trace, -1, NULL, NULL);
  const StrataProfileEntry *a = entry_for (profile, "T.a ()V");

  g_assert_cmpuint (a->calls, ==, 1);
  g_assert_cmpuint (a->recursive_calls, ==, 2);
  g_assert_cmpint (a->inclusive[0], ==, 100000);
  g_assert_cmpint (a->exclusive[0], ==, 100000);
}

/* a → b → a: the inner a is recursive although b sits between. */
static void
test_profile_indirect_recursion (void)
{
  g_autoptr(StrataTrace) trace = load_script ("+a@0 +b@10 +a@20 -a@30 -b@40 -a@50");
  g_autoptr(StrataProfile) profile = strata_profile_new (trace, -1, NULL, NULL);
  const StrataProfileEntry *a = entry_for (profile, "T.a ()V");
  const StrataProfileEntry *b = entry_for (profile, "T.b ()V");

  g_assert_cmpuint (a->calls, ==, 1);
  g_assert_cmpuint (a->recursive_calls, ==, 1);
  g_assert_cmpint (a->inclusive[0], ==, 50000);
  g_assert_cmpint (a->exclusive[0], ==, 20000 + 10000);
  g_assert_cmpint (b->inclusive[0], ==, 30000);
  g_assert_cmpint (b->exclusive[0], ==, 20000);
}

static void
test_profile_edges (void)
{
  g_autoptr(StrataTrace) trace = load_script ("+a@0 +b@0 -b@10 +c@10 -c@12 +b@12 -b@20 -a@20 +c@30 -c@35");
  g_autoptr(StrataProfile) profile = strata_profile_new (trace, -1, NULL, NULL);
  guint32 a = strata_test_method_by_name (trace, "T.a ()V");
  guint32 b = strata_test_method_by_name (trace, "T.b ()V");
  guint32 c = strata_test_method_by_name (trace, "T.c ()V");
  const guint32 *edges;
  const StrataProfileEdge *edge;
  guint n;

  edges = strata_profile_get_children (profile, a, &n);
  g_assert_cmpuint (n, ==, 2);
  /* Largest first */
  edge = strata_profile_get_edge (profile, edges[0]);
  g_assert_cmpuint (edge->callee, ==, b);
  g_assert_cmpuint (edge->calls, ==, 2);
  g_assert_cmpint (edge->time[0], ==, 18000);
  edge = strata_profile_get_edge (profile, edges[1]);
  g_assert_cmpuint (edge->callee, ==, c);
  g_assert_cmpint (edge->time[0], ==, 2000);

  /* c is called by a once and from the bottom of the stack once. */
  edges = strata_profile_get_parents (profile, c, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (strata_profile_get_edge_caller (profile, edges[0]), ==, STRATA_PROFILE_TOPLEVEL);
  g_assert_cmpint (strata_profile_get_edge (profile, edges[0])->time[0], ==, 5000);
  g_assert_cmpuint (strata_profile_get_edge_caller (profile, edges[1]), ==, a);
  g_assert_cmpuint (strata_profile_get_entry (profile, c)->calls, ==, 2);

  edges = strata_profile_get_parents (profile, a, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (strata_profile_get_edge_caller (profile, edges[0]), ==, STRATA_PROFILE_TOPLEVEL);
  g_assert_cmpuint (strata_profile_get_n_edges (profile), ==, 4);
}

static void
test_profile_per_thread (void)
{
  g_autoptr(StrataTrace) trace = load_script ("+a@0 2+a@0 -a@10 2-a@30");
  g_autoptr(StrataProfile) all = strata_profile_new (trace, -1, NULL, NULL);
  g_autoptr(StrataProfile) first = strata_profile_new (trace, 0, NULL, NULL);

  g_assert_cmpint (entry_for (all, "T.a ()V")->inclusive[0], ==, 40000);
  g_assert_cmpuint (entry_for (all, "T.a ()V")->calls, ==, 2);
  g_assert_cmpint (entry_for (first, "T.a ()V")->inclusive[0], ==, 10000);
  g_assert_cmpint (strata_profile_get_total (all, 0), ==, 40000);
  g_assert_cmpint (strata_profile_get_total (first, 0), ==, 10000);
}

/* Only the calls in the range count, cut at its ends. */
static void
test_profile_range (void)
{
  g_autoptr(StrataTrace) trace = load_script ("+a@0 +b@10 -b@30 -a@40 +c@50 -c@60");
  StrataProfileRange range = { 0, 15000, 35000 };
  g_autoptr(StrataProfile) profile = strata_profile_new_for_range (trace, -1, &range, NULL, NULL);
  StrataProfileRange got;

  g_assert_true (strata_profile_get_range (profile, &got));
  g_assert_cmpint (got.start, ==, 15000);
  g_assert_cmpint (strata_profile_get_total (profile, 0), ==, 20000);
  g_assert_cmpint (entry_for (profile, "T.a ()V")->inclusive[0], ==, 20000);
  g_assert_cmpint (entry_for (profile, "T.a ()V")->exclusive[0], ==, 5000);
  g_assert_cmpint (entry_for (profile, "T.b ()V")->inclusive[0], ==, 15000);
  g_assert_cmpuint (entry_for (profile, "T.c ()V")->calls, ==, 0);
  {
    g_autoptr(StrataProfile) whole = strata_profile_new (trace, -1, NULL, NULL);

    g_assert_false (strata_profile_get_range (whole, NULL));
  }
}

/* A call cut by a wall-clock range gets a share of its CPU time; when its
 * children used more CPU inside the range than that share, it gets theirs,
 * never a negative exclusive time. */
static void
test_profile_range_other_clock (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(StrataProfile) profile = NULL;
  StrataProfileRange range = { 0, 5000, 35000 };
  const StrataProfileEntry *a, *b;

  dmtrace_writer_add_thread (writer, 1, "main");
  dmtrace_writer_add_method (writer, 4, "T\ta\t()V");
  dmtrace_writer_add_method (writer, 8, "T\tb\t()V");
  dmtrace_writer_begin_data (writer);
  /* CPU µs, then wall µs: b runs on the CPU for almost all of its time. */
  dmtrace_writer_record (writer, 1, 4, DMTRACE_ENTER, 0, 0);
  dmtrace_writer_record (writer, 1, 8, DMTRACE_ENTER, 1, 10);
  dmtrace_writer_record (writer, 1, 8, DMTRACE_EXIT, 19, 30);
  dmtrace_writer_record (writer, 1, 4, DMTRACE_EXIT, 20, 40);
  trace = load_writer (writer);
  g_assert_cmpuint (strata_trace_get_n_clocks (trace), ==, 2);

  profile = strata_profile_new_for_range (trace, -1, &range, NULL, NULL);
  a = entry_for (profile, "T.a ()V");
  b = entry_for (profile, "T.b ()V");
  g_assert_cmpint (a->inclusive[0], ==, 30000);
  g_assert_cmpint (a->exclusive[0], ==, 10000);
  g_assert_cmpint (b->inclusive[1], ==, 18000);
  g_assert_cmpint (a->inclusive[1], ==, 18000);
  g_assert_cmpint (a->exclusive[1], ==, 0);
  g_assert_cmpint (strata_profile_get_total (profile, 1), >=, 18000);
  for (guint i = 0; i < strata_profile_get_n_edges (profile); i++)
    if (strata_profile_get_edge_caller (profile, i) == STRATA_PROFILE_TOPLEVEL)
      g_assert_cmpint (strata_profile_get_edge (profile, i)->time[1], ==, 18000);
}

static void
test_profile_cancelled (void)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "wall", FALSE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataProfile) profile = NULL;
  g_autoptr(StrataTrace) big = NULL;

  /* Enough calls to reach a cancellation check. */
  dmtrace_writer_add_thread (writer, 1, "main");
  dmtrace_writer_add_method (writer, 4, "T\ta\t()V");
  dmtrace_writer_begin_data (writer);
  for (guint i = 0; i < 70000; i++)
    {
      dmtrace_writer_record (writer, 1, 4, DMTRACE_ENTER, i * 2, 0);
      dmtrace_writer_record (writer, 1, 4, DMTRACE_EXIT, i * 2 + 1, 0);
    }
  big = load_writer (writer);

  g_cancellable_cancel (cancellable);
  profile = strata_profile_new (big, -1, cancellable, &error);
  g_assert_null (profile);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
profile_async_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  StrataProfile **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = strata_profile_new_finish (result, &error);
  g_assert_no_error (error);
}

static void
test_profile_async (void)
{
  g_autoptr(StrataTrace) trace = load_script ("+a@0 +b@10 -b@30 -a@40");
  g_autoptr(StrataProfile) profile = NULL;

  strata_profile_new_async (trace, -1, NULL, profile_async_cb, &profile);
  while (profile == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (entry_for (profile, "T.b ()V")->inclusive[0], ==, 20000);
}

/* CIE76 distance between two colours, through CIELAB (D65). */
static double
delta_e (const StrataColor *a,
         const StrataColor *b)
{
  double lab[2][3];
  const StrataColor *colors[2] = { a, b };

  for (guint i = 0; i < 2; i++)
    {
      double rgb[3] = { colors[i]->red, colors[i]->green, colors[i]->blue }, xyz[3], f[3];

      for (guint k = 0; k < 3; k++)
        rgb[k] = rgb[k] <= 0.04045 ? rgb[k] / 12.92 : pow ((rgb[k] + 0.055) / 1.055, 2.4);
      xyz[0] = (0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]) / 0.95047;
      xyz[1] = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
      xyz[2] = (0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]) / 1.08883;
      for (guint k = 0; k < 3; k++)
        f[k] = xyz[k] > 0.008856 ? cbrt (xyz[k]) : 7.787 * xyz[k] + 16.0 / 116;
      lab[i][0] = 116 * f[1] - 16;
      lab[i][1] = 500 * (f[0] - f[1]);
      lab[i][2] = 200 * (f[1] - f[2]);
    }
  return sqrt (pow (lab[0][0] - lab[1][0], 2) + pow (lab[0][1] - lab[1][1], 2) + pow (lab[0][2] - lab[1][2], 2));
}

/* Any two series of a counter chart are told apart: ΔE 20 or more. */
static void
test_profile_series_colors (void)
{
  guint n = strata_palette_get_n_series_colors ();

  g_assert_cmpuint (n, >=, 8);
  for (guint a = 0; a < n; a++)
    for (guint b = a + 1; b < n; b++)
      g_assert_cmpfloat (delta_e (strata_palette_get_series_color (a), strata_palette_get_series_color (b)), >=, 20);
  /* The old choice, two blues side by side, fails the same measure. */
  g_assert_cmpfloat (delta_e (strata_palette_get_color (0), strata_palette_get_color (5)), <, 20);
}

static void
test_profile_palette (void)
{
  GString *script = g_string_new (NULL);
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(StrataProfile) profile = NULL;
  g_autofree guint8 *colors = NULL;
  g_autofree guint8 *again = NULL;
  guint t = 0;

  g_assert_cmpuint (strata_palette_get_n_colors (), >=, 16);

  /* Methods b..v (21 of them) take 21, 20, ... 1 µs; a takes none. */
  for (char c = 'b'; c <= 'v'; c++)
    {
      guint len = 'v' - c + 1;

      g_string_append_printf (script, "+%c@%u -%c@%u ", c, t, c, t + len);
      t += len;
    }
  g_string_append_printf (script, "+a@%u -a@%u", t, t);
  trace = load_script (script->str);
  g_string_free (script, TRUE);
  profile = strata_profile_new (trace, -1, NULL, NULL);
  colors = strata_palette_assign (profile, 0);
  again = strata_palette_assign (profile, 0);

  /* Round-robin by inclusive time: b first, then c, ...; the 21st wraps. */
  for (char c = 'b'; c <= 'v'; c++)
    {
      g_autofree char *name = g_strdup_printf ("T.%c ()V", c);

      g_assert_cmpuint (colors[strata_test_method_by_name (trace, name)], ==, (guint) (c - 'b') % strata_palette_get_n_colors ());
    }
  g_assert_cmpuint (colors[strata_test_method_by_name (trace, "T.a ()V")], ==, STRATA_PALETTE_NEUTRAL);
  g_assert_cmpmem (colors, strata_trace_get_n_methods (trace), again, strata_trace_get_n_methods (trace));

  /* Neighbouring colours are distinct. */
  for (guint i = 0; i + 1 < strata_palette_get_n_colors (); i++)
    {
      const StrataColor *x = strata_palette_get_color (i);
      const StrataColor *y = strata_palette_get_color (i + 1);

      g_assert_true (ABS (x->red - y->red) + ABS (x->green - y->green) + ABS (x->blue - y->blue) > 0.2);
    }
}

/* Adds every call's time to the edge from its parent's method, walking
 * the span table the plain way: what the bucketed table must give. */
static void
naive_edges (const StrataSpanTable *table,
             guint                  depth,
             guint32                index,
             guint32                caller,
             GHashTable            *sums)
{
  const StrataPackedSpan *span = &table->calls[depth][index];
  guint64 key = ((guint64) caller << 32) | span->method;
  gint64 *sum = g_hash_table_lookup (sums, &key);
  guint32 first, last;

  if (sum == NULL)
    {
      guint64 *stored = g_memdup2 (&key, sizeof key);

      sum = g_new0 (gint64, 3);
      g_hash_table_insert (sums, stored, sum);
    }
  sum[0] += strata_span_table_duration (table, depth, index);
  sum[1] += table->second[depth][index].end - table->second[depth][index].start;
  sum[2]++;
  if (depth + 1 >= table->n_depths)
    return;
  strata_span_table_get_children (table, depth, index, &first, &last);
  for (guint32 child = first; child < last; child++)
    naive_edges (table, depth + 1, child, span->method, sums);
}

/* Threads calling callees drawn from all methods: enough calls for two
 * workers, and tens of thousands of distinct edges. One thread alone is
 * shared between the workers by its outermost calls. */
static void
check_many_edges (guint n_threads)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "dual", FALSE);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(StrataProfile) profile = NULL;
  g_autoptr(GHashTable) sums = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  guint32 stacks[8][24];
  guint depths[8] = { 0 };
  guint n_edges = 0;

  for (guint t = 0; t < n_threads; t++)
    dmtrace_writer_add_thread (writer, t + 1, "worker");
  for (guint m = 0; m < 300; m++)
    {
      g_autofree char *fields = g_strdup_printf ("C\tm%u\t()V\tC.java", m);

      dmtrace_writer_add_method (writer, (m + 1) * 4, fields);
    }
  dmtrace_writer_begin_data (writer);
  for (guint i = 0; i < 500000; i++)
    {
      guint t = g_rand_int_range (rand, 0, n_threads);
      gboolean enter = depths[t] == 0 || (depths[t] < 24 && g_rand_boolean (rand));

      if (enter)
        stacks[t][depths[t]++] = (g_rand_int_range (rand, 0, 300) + 1) * 4;
      dmtrace_writer_record (writer, t + 1, enter ? stacks[t][depths[t] - 1] : stacks[t][--depths[t]],
                             enter ? DMTRACE_ENTER : DMTRACE_EXIT, i * 2, i * 3);
    }
  trace = load_writer (writer);
  profile = strata_profile_new (trace, -1, NULL, NULL);

  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    {
      const StrataSpanTable *table = strata_trace_get_thread (trace, t)->spans;

      for (guint32 root = 0; table != NULL && root < table->n_spans[0]; root++)
        naive_edges (table, 0, root, STRATA_PROFILE_TOPLEVEL, sums);
    }
  g_assert_cmpuint (strata_trace_get_n_spans (trace), >, 200000);
  g_assert_cmpuint (strata_profile_get_n_edges (profile), ==, g_hash_table_size (sums));
  g_assert_cmpuint (g_hash_table_size (sums), >, 20000);
  for (guint c = 0; c <= strata_profile_get_n_methods (profile); c++)
    {
      guint32 caller = c < strata_profile_get_n_methods (profile) ? c : STRATA_PROFILE_TOPLEVEL;
      guint first, n = strata_profile_get_edges_from (profile, caller, &first);

      for (guint i = first; i < first + n; i++)
        {
          const StrataProfileEdge *edge = strata_profile_get_edge (profile, i);
          guint64 key = ((guint64) caller << 32) | edge->callee;
          const gint64 *sum = g_hash_table_lookup (sums, &key);

          g_assert_nonnull (sum);
          g_assert_cmpuint (strata_profile_get_edge_caller (profile, i), ==, caller);
          g_assert_cmpint (edge->time[0], ==, sum[0]);
          g_assert_cmpint (edge->time[1], ==, sum[1]);
          g_assert_cmpint (edge->calls, ==, sum[2]);
          n_edges++;
        }
    }
  g_assert_cmpuint (n_edges, ==, g_hash_table_size (sums));

  /* A range over all of it is walked by searching, never shared: the
   * sums per method are the same. */
  {
    const StrataProfileRange all = { 0, G_MININT64, G_MAXINT64 };
    g_autoptr(StrataProfile) ranged = strata_profile_new_for_range (trace, -1, &all, NULL, NULL);

    for (guint m = 0; m < strata_profile_get_n_methods (profile); m++)
      {
        const StrataProfileEntry *a = strata_profile_get_entry (profile, m), *b = strata_profile_get_entry (ranged, m);

        g_assert_cmpuint (a->calls, ==, b->calls);
        g_assert_cmpuint (a->recursive_calls, ==, b->recursive_calls);
        for (guint c = 0; c < 2; c++)
          {
            g_assert_cmpint (a->inclusive[c], ==, b->inclusive[c]);
            g_assert_cmpint (a->exclusive[c], ==, b->exclusive[c]);
          }
      }
  }
}

static void
test_profile_many_edges (void)
{
  check_many_edges (8);
}

static void
test_profile_one_big_thread (void)
{
  check_many_edges (1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/profile/nesting", test_profile_nesting);
  g_test_add_func ("/profile/recursion", test_profile_recursion);
  g_test_add_func ("/profile/indirect-recursion", test_profile_indirect_recursion);
  g_test_add_func ("/profile/edges", test_profile_edges);
  g_test_add_func ("/profile/per-thread", test_profile_per_thread);
  g_test_add_func ("/profile/range", test_profile_range);
  g_test_add_func ("/profile/range-other-clock", test_profile_range_other_clock);
  g_test_add_func ("/profile/cancelled", test_profile_cancelled);
  g_test_add_func ("/profile/async", test_profile_async);
  g_test_add_func ("/profile/palette", test_profile_palette);
  g_test_add_func ("/profile/series-colors", test_profile_series_colors);

  g_test_add_func ("/profile/many-edges", test_profile_many_edges);
  g_test_add_func ("/profile/one-big-thread", test_profile_one_big_thread);
  return g_test_run ();
}
