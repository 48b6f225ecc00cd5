/* test-comparison.c: two profiles or heap dumps compared, and --fail-if rules
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "dmtrace-writer.h"
#include "hprof-writer.h"
#include "strata-call-tree-match.h"
#include "strata-comparison.h"
#include "strata-gate-rule.h"
#include "strata-heap-graph.h"
#include "strata-test-util.h"

static StrataProfile *
load_profile_bytes (const char *name,
                    GBytes     *bytes)
{
  g_autofree char *path = strata_test_write_file (name, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_path (path, &error);
  StrataProfile *profile;

  g_assert_no_error (error);
  profile = strata_profile_new (trace, -1, NULL, &error);
  g_assert_no_error (error);
  return profile;
}

/* One thread, wall clock: "+a@0 +b@10 -b@30 -a@40" enters and exits
 * methods at µs; a method may be "a" (T.a ()V) or "A" (T.a (I)V). */
static StrataProfile *
load_script (const char *name,
             const char *script)
{
  g_autoptr(DmtraceWriter) writer = dmtrace_writer_new (3, "wall", FALSE);
  g_auto(GStrv) steps = g_strsplit (script, " ", -1);

  dmtrace_writer_add_thread (writer, 1, "main");
  for (char c = 'a'; c <= 'e'; c++)
    {
      g_autofree char *plain = g_strdup_printf ("T\t%c\t()V", c);
      g_autofree char *overload = g_strdup_printf ("T\t%c\t(I)V", c);

      dmtrace_writer_add_method (writer, (c - 'a' + 1) * 4, plain);
      dmtrace_writer_add_method (writer, (c - 'a' + 101) * 4, overload);
    }
  dmtrace_writer_begin_data (writer);
  for (guint i = 0; steps[i] != NULL; i++)
    {
      const char *step = steps[i];
      guint32 method = g_ascii_isupper (step[1]) ? (step[1] - 'A' + 101) * 4 : (step[1] - 'a' + 1) * 4;

      dmtrace_writer_record (writer, 1, method, step[0] == '+' ? DMTRACE_ENTER : DMTRACE_EXIT,
                             atoi (step + 3), 0);
    }
  {
    g_autoptr(GBytes) bytes = dmtrace_writer_finish (writer, FALSE);
    return load_profile_bytes (name, bytes);
  }
}

static StrataComparison *
compare (StrataProfile   *baseline,
         StrataProfile   *current,
         StrataMatchMode  match)
{
  g_autoptr(GError) error = NULL;
  StrataComparison *comparison = strata_comparison_new (baseline, current, match, &error);

  g_assert_no_error (error);
  return comparison;
}

static guint
row_named (StrataComparison *comparison,
           const char       *name)
{
  for (guint r = 0; r < strata_comparison_get_n_rows (comparison); r++)
    if (g_str_equal (strata_comparison_get_row (comparison, r)->name, name))
      return r;
  g_error ("no row %s", name);
  return 0;
}

static gboolean
has_row (StrataComparison *comparison,
         const char       *name)
{
  for (guint r = 0; r < strata_comparison_get_n_rows (comparison); r++)
    if (g_str_equal (strata_comparison_get_row (comparison, r)->name, name))
      return TRUE;
  return FALSE;
}

static gint64
delta (StrataComparison *comparison,
       const char       *name,
       StrataFigure      figure)
{
  return strata_comparison_get_delta (comparison, row_named (comparison, name), figure, 0);
}

/* A file against itself: every delta zero, every row in both. */
static void
test_comparison_self (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "data", "samples",
                                            "android-app-startup.trace", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_path (path, &error);
  g_autoptr(StrataProfile) profile = strata_profile_new (trace, -1, NULL, NULL);
  g_autoptr(StrataComparison) comparison = compare (profile, profile, STRATA_MATCH_SIGNATURE);
  guint called = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (strata_comparison_get_n_clocks (comparison), ==, strata_trace_get_n_clocks (trace));
  for (guint m = 0; m < strata_trace_get_n_methods (trace); m++)
    called += strata_comparison_find_row (comparison, STRATA_SIDE_CURRENT, m) != STRATA_COMPARISON_ABSENT;
  g_assert_cmpuint (strata_comparison_get_n_rows (comparison), ==, called);
  g_assert_cmpuint (called, >, 2000);
  for (guint r = 0; r < strata_comparison_get_n_rows (comparison); r++)
    {
      g_assert_cmpint (strata_comparison_row_status (strata_comparison_get_row (comparison, r)), ==, STRATA_ROW_IN_BOTH);
      for (guint c = 0; c < strata_comparison_get_n_clocks (comparison); c++)
        for (StrataFigure f = STRATA_FIGURE_INCLUSIVE; f <= STRATA_FIGURE_CALLS; f++)
          g_assert_cmpint (strata_comparison_get_delta (comparison, r, f, c), ==, 0);
    }
}

/* b takes 25 µs longer, c is new, d is gone; a's own time is the same. */
static void
test_comparison_slower_method (void)
{
  g_autoptr(StrataProfile) before = load_script ("before.trace", "+a@0 +b@10 -b@30 +d@30 -d@35 -a@40");
  g_autoptr(StrataProfile) after = load_script ("after.trace", "+a@0 +b@10 -b@55 +c@55 -c@60 -a@65");
  g_autoptr(StrataComparison) comparison = compare (before, after, STRATA_MATCH_SIGNATURE);
  guint c = row_named (comparison, "T.c ()V");
  guint d = row_named (comparison, "T.d ()V");
  g_autofree char *change = NULL;

  g_assert_cmpint (delta (comparison, "T.b ()V", STRATA_FIGURE_INCLUSIVE), ==, 25000);
  g_assert_cmpint (delta (comparison, "T.b ()V", STRATA_FIGURE_EXCLUSIVE), ==, 25000);
  g_assert_cmpint (delta (comparison, "T.a ()V", STRATA_FIGURE_INCLUSIVE), ==, 25000);
  g_assert_cmpint (delta (comparison, "T.a ()V", STRATA_FIGURE_EXCLUSIVE), ==, 0);
  g_assert_cmpint (delta (comparison, "T.a ()V", STRATA_FIGURE_CALLS), ==, 0);
  g_assert_cmpfloat_with_epsilon (strata_comparison_get_change (comparison, row_named (comparison, "T.b ()V"),
                                                                STRATA_FIGURE_INCLUSIVE, 0), 1.25, 1e-9);
  g_assert_cmpint (strata_comparison_row_status (strata_comparison_get_row (comparison, c)), ==, STRATA_ROW_ADDED);
  g_assert_cmpint (strata_comparison_row_status (strata_comparison_get_row (comparison, d)), ==, STRATA_ROW_REMOVED);
  g_assert_cmpint (strata_comparison_get_delta (comparison, d, STRATA_FIGURE_INCLUSIVE, 0), ==, -5000);
  g_assert_true (isinf (strata_comparison_get_change (comparison, c, STRATA_FIGURE_INCLUSIVE, 0)));
  change = strata_comparison_format_change (comparison, c, STRATA_FIGURE_INCLUSIVE, 0);
  g_assert_cmpstr (change, ==, "added");
  g_assert_cmpint (strata_comparison_get_total (comparison, STRATA_SIDE_BASELINE, STRATA_FIGURE_INCLUSIVE, 0), ==, 40000);
  g_assert_cmpint (strata_comparison_get_total (comparison, STRATA_SIDE_CURRENT, STRATA_FIGURE_INCLUSIVE, 0), ==, 65000);
  g_assert_false (has_row (comparison, "T.e ()V"));
}

/* By name alone, overloads are one row and their times add up. */
static void
test_comparison_match_by_name (void)
{
  g_autoptr(StrataProfile) before = load_script ("before.trace", "+a@0 -a@10 +A@10 -A@30");
  g_autoptr(StrataProfile) after = load_script ("after.trace", "+a@0 -a@40");
  g_autoptr(StrataComparison) exact = compare (before, after, STRATA_MATCH_SIGNATURE);
  g_autoptr(StrataComparison) by_name = compare (before, after, STRATA_MATCH_NAME);

  g_assert_cmpuint (strata_comparison_get_n_rows (exact), ==, 2);
  g_assert_cmpint (delta (exact, "T.a ()V", STRATA_FIGURE_INCLUSIVE), ==, 30000);
  g_assert_cmpint (delta (exact, "T.a (I)V", STRATA_FIGURE_INCLUSIVE), ==, -20000);
  g_assert_cmpuint (strata_comparison_get_n_rows (by_name), ==, 1);
  g_assert_cmpint (delta (by_name, "T.a", STRATA_FIGURE_INCLUSIVE), ==, 10000);
  g_assert_cmpint (delta (by_name, "T.a", STRATA_FIGURE_CALLS), ==, -1);
}

static StrataProfile *
load_arrays (const char *name,
             guint32     n_arrays)
{
  g_autoptr(GBytes) bytes = hprof_writer_many_arrays (n_arrays);

  return load_profile_bytes (name, bytes);
}

/* 30 more arrays: 10 more of each class, with their bytes. */
static void
test_comparison_heap (void)
{
  g_autoptr(StrataProfile) before = load_arrays ("before.hprof", 300);
  g_autoptr(StrataProfile) after = load_arrays ("after.hprof", 330);
  g_autoptr(StrataComparison) comparison = compare (before, after, STRATA_MATCH_SIGNATURE);
  StrataTrace *trace = strata_profile_get_trace (after);
  const StrataHeap *heap = strata_trace_get_heap (trace);
  guint64 shallow_delta = 0;

  g_assert_cmpint (strata_comparison_get_kind (comparison), ==, STRATA_COMPARISON_HEAP);
  g_assert_true (strata_comparison_has_figure (comparison, STRATA_FIGURE_RETAINED));
  g_assert_false (strata_comparison_has_figure (comparison, STRATA_FIGURE_INCLUSIVE));
  for (const char *const *name = (const char *const[]) { "byte[]", "int[]", "long[]", NULL }; *name; name++)
    g_assert_cmpint (delta (comparison, *name, STRATA_FIGURE_INSTANCES), ==, 10);

  /* The shallow bytes added are those of arrays 300..329, read from the dump. */
  for (guint32 o = 0; o < strata_heap_graph_get_n_objects (strata_heap_get_graph (heap)); o++)
    if (strata_heap_graph_get_id (strata_heap_get_graph (heap), o) >= 0x100000 + 300 * 8)
      shallow_delta += strata_heap_graph_get_shallow (strata_heap_get_graph (heap), o);
  g_assert_cmpuint (shallow_delta, >, 0);
  g_assert_cmpint (strata_comparison_get_total (comparison, STRATA_SIDE_CURRENT, STRATA_FIGURE_SHALLOW, 0) -
                   strata_comparison_get_total (comparison, STRATA_SIDE_BASELINE, STRATA_FIGURE_SHALLOW, 0),
                   ==, shallow_delta);
}

/* A heap dump is not compared with a method trace. */
static void
test_comparison_kind_mismatch (void)
{
  g_autoptr(StrataProfile) heap = load_arrays ("heap.hprof", 10);
  g_autoptr(StrataProfile) trace = load_script ("calls.trace", "+a@0 -a@10");
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataComparison) comparison = strata_comparison_new (heap, trace, STRATA_MATCH_SIGNATURE, &error);

  g_assert_null (comparison);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

static gboolean
rule_broken_by (const char       *text,
                StrataComparison *comparison,
                const char       *row)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataGateRule) rule = strata_gate_rule_parse (text, &error);

  g_assert_no_error (error);
  g_assert_true (strata_gate_rule_applies_to (rule, comparison, 0, &error));
  g_assert_no_error (error);
  return strata_gate_rule_is_broken_by (rule, comparison, 0, row_named (comparison, row));
}

static void
test_comparison_rules (void)
{
  g_autoptr(StrataProfile) before = load_script ("before.trace", "+a@0 +b@10 -b@30 +d@30 -d@35 -a@40");
  g_autoptr(StrataProfile) after = load_script ("after.trace", "+a@0 +b@10 -b@55 +c@55 -c@60 -a@65");
  g_autoptr(StrataComparison) comparison = compare (before, after, STRATA_MATCH_SIGNATURE);

  /* b: 20 µs, then 45 µs: +25 µs, +125%. */
  g_assert_true (rule_broken_by ("incl>+100%", comparison, "T.b ()V"));
  g_assert_false (rule_broken_by ("incl>+130%", comparison, "T.b ()V"));
  g_assert_true (rule_broken_by ("excl>+24us", comparison, "T.b ()V"));
  g_assert_false (rule_broken_by ("excl>+25us", comparison, "T.b ()V"));
  g_assert_true (rule_broken_by ("incl > +0.02ms : T.b*", comparison, "T.b ()V"));
  g_assert_false (rule_broken_by ("incl>+0.02ms:T.a*", comparison, "T.b ()V"));
  g_assert_true (rule_broken_by ("incl>40us", comparison, "T.b ()V"));
  g_assert_true (rule_broken_by ("incl>60%", comparison, "T.b ()V"));
  g_assert_false (rule_broken_by ("incl>70%", comparison, "T.b ()V"));
  g_assert_true (rule_broken_by ("incl>+100%&incl>+20us", comparison, "T.b ()V"));
  g_assert_false (rule_broken_by ("incl>+100%&incl>+1ms", comparison, "T.b ()V"));
  /* New: infinitely more; gone: less. */
  g_assert_true (rule_broken_by ("incl>+1000%", comparison, "T.c ()V"));
  g_assert_true (rule_broken_by ("incl<-99%", comparison, "T.d ()V"));
  g_assert_false (rule_broken_by ("incl>+0%", comparison, "T.d ()V"));
  g_assert_true (rule_broken_by ("calls<+1", comparison, "T.a ()V"));
}

static void
assert_rule_refused (const char       *text,
                     StrataComparison *comparison)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataGateRule) rule = strata_gate_rule_parse (text, &error);

  if (rule != NULL)
    g_assert_false (strata_gate_rule_applies_to (rule, comparison, 0, &error));
  g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
  /* The message quotes the rule: it must stay valid text whatever bytes
   * were typed. The rule is escaped here so TAP stays valid too. */
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  {
    g_autofree char *escaped = g_strescape (text, NULL);

    g_test_message ("%s: %s", escaped, error->message);
  }
}

static void
test_comparison_bad_rules (void)
{
  g_autoptr(StrataProfile) before = load_script ("before.trace", "+a@0 -a@10");
  g_autoptr(StrataComparison) comparison = compare (before, before, STRATA_MATCH_SIGNATURE);
  const char *const bad[] = {
    "", "incl", "incl>", "speed>+10%", "incl>+10parsecs", "incl>+10MB", "calls>+5ms",
    "retained>+1MB", "incl>+nan", "incl>+10%&", ">+10%", "incl>+1:\xff\xfe*",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    assert_rule_refused (bad[i], comparison);
}

static guint32
child_named (StrataCallTree *tree,
             guint32         parent,
             const char     *name)
{
  guint32 first = strata_call_tree_get_first_child (tree, parent);

  for (guint32 c = first; c < first + strata_call_tree_get_n_children (tree, parent); c++)
    {
      g_autofree char *text = strata_call_tree_dup_name (tree, c);

      if (g_str_equal (text, name))
        return c;
    }
  g_error ("no child %s", name);
  return 0;
}

/* The same path in both trees is matched; a path only the current trace
 * has is not; the self time changed is the delta the graph colours by. */
static void
test_comparison_tree_match (void)
{
  g_autoptr(StrataProfile) before = load_script ("before.trace", "+a@0 +b@10 -b@30 +d@30 -d@35 -a@40");
  g_autoptr(StrataProfile) after = load_script ("after.trace", "+a@0 +b@10 -b@55 +c@55 -c@60 +b@60 -b@62 -a@65");
  g_autoptr(StrataComparison) comparison = compare (before, after, STRATA_MATCH_SIGNATURE);
  g_autoptr(StrataCallTree) current = strata_call_tree_new (strata_profile_get_trace (after), -1, FALSE, NULL, NULL, NULL);
  g_autoptr(StrataCallTree) baseline = strata_call_tree_new_baseline (comparison, -1, NULL, 0, FALSE, NULL, NULL);
  g_autofree guint32 *match = strata_call_tree_match_nodes (current, baseline, comparison, NULL);
  guint32 a = child_named (current, STRATA_CALL_TREE_ROOT, "T.a ()V");
  guint32 b = child_named (current, a, "T.b ()V");
  guint32 c = child_named (current, a, "T.c ()V");

  g_assert_cmpuint (match[a], ==, child_named (baseline, STRATA_CALL_TREE_ROOT, "T.a ()V"));
  g_assert_cmpuint (match[b], ==, child_named (baseline, match[a], "T.b ()V"));
  g_assert_cmpuint (match[c], ==, STRATA_CALL_TREE_NONE);
  /* b: 20 µs, then 45 + 2 µs in two calls. */
  g_assert_cmpint (strata_call_tree_get_self (current, b, 0) - strata_call_tree_get_self (baseline, match[b], 0), ==, 27000);
}

/* Transforms carry over by name: merging b away in both gives its time to a. */
static void
test_comparison_tree_transforms (void)
{
  g_autoptr(StrataProfile) before = load_script ("before.trace", "+a@0 +b@10 -b@30 -a@40");
  g_autoptr(StrataProfile) after = load_script ("after.trace", "+a@0 +b@10 -b@55 -a@65");
  g_autoptr(StrataComparison) comparison = compare (before, after, STRATA_MATCH_SIGNATURE);
  StrataTrace *trace = strata_profile_get_trace (after);
  g_autoptr(StrataCallTree) whole = strata_call_tree_new (trace, -1, FALSE, NULL, NULL, NULL);
  guint32 b_method = strata_comparison_get_row (comparison, row_named (comparison, "T.b ()V"))->index[STRATA_SIDE_CURRENT];
  StrataCallTransform merge = { STRATA_CALL_TRANSFORM_MERGE_FUNCTION, b_method, STRATA_CALL_TREE_NONE, NULL, NULL, 0 };
  g_autoptr(StrataCallTree) current = strata_call_tree_transform (whole, &merge, NULL, NULL);
  g_autoptr(StrataCallTree) baseline = strata_call_tree_new_baseline (comparison, -1, &merge, 1, FALSE, NULL, NULL);
  g_autofree guint32 *match = strata_call_tree_match_nodes (current, baseline, comparison, NULL);
  guint32 a = child_named (current, STRATA_CALL_TREE_ROOT, "T.a ()V");

  g_assert_cmpuint (strata_call_tree_get_n_children (current, a), ==, 0);
  g_assert_cmpuint (strata_call_tree_get_n_children (baseline, match[a]), ==, 0);
  g_assert_cmpint (strata_call_tree_get_self (baseline, match[a], 0), ==, 40000);
  g_assert_cmpint (strata_call_tree_get_self (current, a, 0), ==, 65000);
}

static StrataProfile *
load_corpus_profile (const char *folder,
                     const char *name)
{
  g_autofree char *path = strata_test_corpus_path (folder, name, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = NULL;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return NULL;
  trace = strata_test_load_path (path, &error);
  g_assert_no_error (error);
  return strata_profile_new (trace, -1, NULL, NULL);
}

/* Each side of every row holds exactly its trace's figures: summed over
 * the methods of that name, which are all called ones. */
static void
assert_rows_hold_profiles (StrataComparison *comparison,
                           StrataProfile    *profiles[2])
{
  for (StrataSide side = STRATA_SIDE_BASELINE; side <= STRATA_SIDE_CURRENT; side++)
    {
      StrataTrace *trace = strata_profile_get_trace (profiles[side]);
      guint n_rows = strata_comparison_get_n_rows (comparison);
      g_autofree gint64 *incl = g_new0 (gint64, n_rows);
      g_autofree guint64 *calls = g_new0 (guint64, n_rows);
      guint clock = strata_comparison_get_clock (comparison, side, 0);

      for (guint32 m = 0; m < strata_trace_get_n_methods (trace); m++)
        {
          const StrataProfileEntry *entry = strata_profile_get_entry (profiles[side], m);
          guint row = strata_comparison_find_row (comparison, side, m);

          if (entry->calls + entry->recursive_calls == 0)
            {
              g_assert_cmpuint (row, ==, STRATA_COMPARISON_ABSENT);
              continue;
            }
          g_assert_cmpuint (row, <, n_rows);
          incl[row] += entry->inclusive[clock];
          calls[row] += entry->calls + entry->recursive_calls;
        }
      for (guint r = 0; r < n_rows; r++)
        {
          g_assert_cmpint (strata_comparison_get_value (comparison, r, side, STRATA_FIGURE_INCLUSIVE, 0), ==, incl[r]);
          g_assert_cmpint (strata_comparison_get_value (comparison, r, side, STRATA_FIGURE_CALLS, 0), ==, calls[r]);
        }
      g_assert_cmpint (strata_comparison_get_total (comparison, side, STRATA_FIGURE_INCLUSIVE, 0), ==,
                       strata_profile_get_total (profiles[side], clock));
    }
}

/* Two real recordings of one app (Firefox for Android, regular and
 * streaming ART traces), by signature and by name. */
static void
test_comparison_corpus_traces (void)
{
  g_autoptr(StrataProfile) regular = load_corpus_profile ("dmtrace", "firefox-profiler-art-trace-regular.trace");
  g_autoptr(StrataProfile) streaming = load_corpus_profile ("dmtrace", "firefox-profiler-art-trace-streaming.trace");
  StrataProfile *profiles[2] = { regular, streaming };

  if (regular == NULL || streaming == NULL)
    {
      strata_test_skip_no_corpus ();
      return;
    }
  for (StrataMatchMode match = STRATA_MATCH_SIGNATURE; match <= STRATA_MATCH_NAME; match++)
    {
      g_autoptr(StrataComparison) comparison = compare (regular, streaming, match);

      g_assert_cmpuint (strata_comparison_get_n_clocks (comparison), ==, 2);
      assert_rows_hold_profiles (comparison, profiles);
    }
}

/* Two binary dumps: each class's change is the difference of the two
 * class histograms, summed by name. */
static void
test_comparison_corpus_heaps (void)
{
  g_autoptr(StrataProfile) small = load_corpus_profile ("hprof", "hprof-slurp-hprof-32.bin");
  g_autoptr(StrataProfile) large = load_corpus_profile ("hprof", "hprof-slurp-hprof-64.bin");
  g_autoptr(StrataComparison) comparison = NULL;
  g_autoptr(GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  StrataProfile *sides[2] = { small, large };

  if (small == NULL || large == NULL)
    {
      strata_test_skip_no_corpus ();
      return;
    }
  comparison = compare (small, large, STRATA_MATCH_SIGNATURE);
  for (guint side = 0; side < 2; side++)
    {
      StrataTrace *trace = strata_profile_get_trace (sides[side]);
      const StrataHeap *heap = strata_trace_get_heap (trace);

      for (guint c = 0; c < strata_heap_get_n_classes (heap); c++)
        {
          const StrataHeapClass *klass = strata_heap_get_class (heap, c);
          const char *name = strata_trace_get_string (trace, klass->name);
          gint64 *delta = g_hash_table_lookup (expected, name);

          if (delta == NULL)
            g_hash_table_insert (expected, (char *) name, delta = g_new0 (gint64, 1));
          *delta += side == 0 ? -(gint64) klass->shallow_bytes : (gint64) klass->shallow_bytes;
        }
    }
  g_assert_cmpuint (strata_comparison_get_n_rows (comparison), ==, g_hash_table_size (expected));
  for (guint r = 0; r < strata_comparison_get_n_rows (comparison); r++)
    {
      gint64 *delta = g_hash_table_lookup (expected, strata_comparison_get_row (comparison, r)->name);

      g_assert_nonnull (delta);
      g_assert_cmpint (strata_comparison_get_delta (comparison, r, STRATA_FIGURE_SHALLOW, 0), ==, *delta);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/comparison/self", test_comparison_self);
  g_test_add_func ("/comparison/slower-method", test_comparison_slower_method);
  g_test_add_func ("/comparison/match-by-name", test_comparison_match_by_name);
  g_test_add_func ("/comparison/heap", test_comparison_heap);
  g_test_add_func ("/comparison/kind-mismatch", test_comparison_kind_mismatch);
  g_test_add_func ("/comparison/rules", test_comparison_rules);
  g_test_add_func ("/comparison/bad-rules", test_comparison_bad_rules);
  g_test_add_func ("/comparison/tree-match", test_comparison_tree_match);
  g_test_add_func ("/comparison/tree-transforms", test_comparison_tree_transforms);
  g_test_add_func ("/comparison/corpus-traces", test_comparison_corpus_traces);
  g_test_add_func ("/comparison/corpus-heaps", test_comparison_corpus_heaps);

  return g_test_run ();
}
