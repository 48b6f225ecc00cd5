/* test-cpuprofile.c: V8 CPU profiles (node --cpu-prof, DevTools)
 *
 * A profile node wrote for a script of known shares, and profiles
 * written here with the quirks real ones have: deltas that go back in
 * time, idle samples, samples of unknown nodes, a parent cycle.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-call-tree.h"
#include "strata-loader.h"
#include "strata-profile.h"
#include "strata-test-util.h"

static guint32
method_starting (StrataTrace *trace,
                 const char  *prefix)
{
  for (guint32 m = 0; m < strata_trace_get_n_methods (trace); m++)
    if (g_str_has_prefix (strata_trace_get_method_name (trace, m), prefix))
      return m;
  g_error ("no method named %s…", prefix);
}

static StrataTrace *
load_text (const char *json)
{
  g_autofree char *path = strata_test_write_file ("test.cpuprofile", json, strlen (json));
  g_autoptr(GError) error = NULL;
  StrataTrace *trace = strata_test_load_path (path, &error);

  g_assert_no_error (error);
  g_assert_cmpint (strata_trace_get_format (trace), ==, STRATA_FORMAT_CPUPROFILE);
  return trace;
}

/* node's profile of hot.js: spin() about 3/4 of work(), light() 1/4,
 * named as DevTools names them. */
static void
test_cpuprofile_node (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "cpuprofile", "hot.cpuprofile", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_path (path, &error);
  g_autoptr(StrataProfile) profile = NULL;
  guint32 work, spin, light;
  double spin_share, light_share;

  g_assert_no_error (error);
  g_assert_cmpint (strata_trace_get_format (trace), ==, STRATA_FORMAT_CPUPROFILE);
  profile = strata_profile_new (trace, -1, NULL, &error);
  g_assert_no_error (error);
  work = method_starting (trace, "work (file:///tmp/strata-fixture/hot.js:5:");
  spin = method_starting (trace, "spin (file:///tmp/strata-fixture/hot.js:3:");
  light = method_starting (trace, "light (file:///tmp/strata-fixture/hot.js:4:");
  spin_share = (double) strata_profile_get_entry (profile, spin)->inclusive[0] / strata_profile_get_entry (profile, work)->inclusive[0];
  light_share = (double) strata_profile_get_entry (profile, light)->inclusive[0] / strata_profile_get_entry (profile, work)->inclusive[0];
  g_assert_cmpfloat_with_epsilon (spin_share, 0.75, 0.05);
  g_assert_cmpfloat_with_epsilon (light_share, 0.25, 0.05);
  /* The 20 loops: spin and light each called at least 20 times. */
  g_assert_cmpuint (strata_profile_get_entry (profile, light)->calls, >=, 20);
  g_assert_true (g_str_has_suffix (strata_trace_get_format_detail (trace), " samples"));
  g_assert_cmpuint (strata_trace_get_n_diagnostics (trace), ==, 0);
}

/* Three samples: a, then a/b, then a again; b lasts from its sample to
 * the next, and the last sample lasts until endTime. */
#define NODES \
  "\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1},\"children\":[2,4]}," \
  "{\"id\":2,\"callFrame\":{\"functionName\":\"a\",\"url\":\"app.js\",\"lineNumber\":0,\"columnNumber\":0},\"children\":[3]}," \
  "{\"id\":3,\"callFrame\":{\"functionName\":\"\",\"url\":\"app.js\",\"lineNumber\":9,\"columnNumber\":4}}," \
  "{\"id\":4,\"callFrame\":{\"functionName\":\"(idle)\",\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1}}]"

static void
test_cpuprofile_times (void)
{
  g_autoptr(StrataTrace) trace = load_text ("{" NODES ",\"startTime\":1000,\"endTime\":1400,"
                                            "\"samples\":[2,3,2,4],\"timeDeltas\":[0,100,100,100]}");
  g_autoptr(StrataProfile) profile = strata_profile_new (trace, -1, NULL, NULL);
  guint32 a = method_starting (trace, "a (app.js:1:1)");
  guint32 anonymous = method_starting (trace, "(anonymous) (app.js:10:5)");

  /* a from 1000 to 1300 µs, the idle sample after it a gap to 1400. */
  g_assert_cmpint (strata_profile_get_entry (profile, a)->inclusive[0], ==, 300000);
  g_assert_cmpint (strata_profile_get_entry (profile, anonymous)->inclusive[0], ==, 100000);
  g_assert_cmpint (strata_profile_get_entry (profile, a)->calls, ==, 1);
}

static void
assert_same_profile (StrataTrace *expected,
                     StrataTrace *trace)
{
  g_autoptr(StrataProfile) a = strata_profile_new (expected, -1, NULL, NULL);
  g_autoptr(StrataProfile) b = strata_profile_new (trace, -1, NULL, NULL);

  g_assert_cmpuint (strata_trace_get_n_methods (trace), ==, strata_trace_get_n_methods (expected));
  g_assert_cmpuint (strata_span_table_get_n_spans (strata_trace_get_thread (trace, 0)->spans), ==,
                    strata_span_table_get_n_spans (strata_trace_get_thread (expected, 0)->spans));
  g_assert_cmpint (strata_trace_get_end (trace), ==, strata_trace_get_end (expected));
  for (guint32 m = 0; m < strata_trace_get_n_methods (expected); m++)
    {
      g_assert_cmpint (strata_profile_get_entry (b, m)->inclusive[0], ==, strata_profile_get_entry (a, m)->inclusive[0]);
      g_assert_cmpint (strata_profile_get_entry (b, m)->exclusive[0], ==, strata_profile_get_entry (a, m)->exclusive[0]);
    }
}

/* The deltas are added as they are read when the nodes, the start and
 * the samples came before them, as node writes them; in any other order
 * after the whole text. Both read the same profile, more samples than
 * deltas included; a member repeated after the deltas is stepped over. */
static void
test_cpuprofile_member_order (void)
{
  g_autoptr(StrataTrace) streamed = load_text ("{" NODES ",\"startTime\":1000,\"samples\":[2,3,2,4,2,3],"
                                               "\"timeDeltas\":[0,100,100,100,50],\"endTime\":1600}");
  const char *others[] = {
    "{\"timeDeltas\":[0,100,100,100,50],\"samples\":[2,3,2,4,2,3],\"endTime\":1600," NODES ",\"startTime\":1000}",
    "{\"samples\":[2,3,2,4,2,3]," NODES ",\"timeDeltas\":[0,100,100,100,50],\"startTime\":1000,\"endTime\":1600}",
    "{" NODES ",\"samples\":[2,3,2,4,2,3],\"startTime\":1000,\"timeDeltas\":[0,100,100,100,50],\"endTime\":1600}",
    "{" NODES ",\"startTime\":1000,\"samples\":[2,3,2,4,2,3],\"timeDeltas\":[0,100,100,100,50],"
    "\"samples\":[3,3],\"timeDeltas\":[7,7],\"startTime\":5,\"endTime\":1600}",
  };

  g_assert_cmpint (strata_trace_get_end (streamed), ==, 1600000);
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    {
      g_autoptr(StrataTrace) trace = load_text (others[i]);

      assert_same_profile (streamed, trace);
    }
}

/* A delta that goes back: the samples are put in time order, and the
 * diagnostics say so; a sample of an unknown node is dropped. */
static void
test_cpuprofile_repairs (void)
{
  g_autoptr(StrataTrace) trace = load_text ("{" NODES ",\"startTime\":0,\"endTime\":400,"
                                            "\"samples\":[2,3,99,2],\"timeDeltas\":[0,200,10,-100]}");
  g_autoptr(StrataProfile) profile = strata_profile_new (trace, -1, NULL, NULL);
  guint32 anonymous = method_starting (trace, "(anonymous) (app.js:10:5)");

  g_assert_true (strata_test_has_diagnostic (trace, "put in time order"));
  g_assert_true (strata_test_has_diagnostic (trace, "does not have and was dropped"));
  /* In time order: a@0, a@100, anonymous@200 until the end at 400. */
  g_assert_cmpint (strata_profile_get_entry (profile, anonymous)->inclusive[0], ==, 200000);
}

/* Nodes whose parents loop, and nodes that are no objects, load. */
static void
test_cpuprofile_hostile (void)
{
  g_autoptr(StrataTrace) cycle = load_text ("{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"a\",\"url\":\"x\"},\"children\":[2]},"
                                            "{\"id\":2,\"callFrame\":{\"functionName\":\"b\",\"url\":\"x\"},\"children\":[1]},7,null],"
                                            "\"startTime\":0,\"endTime\":10,\"samples\":[2,1,\"x\"],\"timeDeltas\":[1,1,1e300]}");

  g_autoptr(StrataTrace) idle_cycle = NULL;

  g_assert_cmpuint (strata_trace_get_n_methods (cycle), ==, 2);
  g_assert_true (strata_test_has_diagnostic (cycle, "looping"));
  /* A cycle of nodes that are no frames: "(root)" under "(idle)". */
  idle_cycle = load_text ("{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"},\"children\":[2]},"
                          "{\"id\":2,\"callFrame\":{\"functionName\":\"(idle)\"},\"children\":[1]}],"
                          "\"startTime\":0,\"endTime\":10,\"samples\":[1,2],\"timeDeltas\":[1,1]}");
  g_assert_true (strata_test_has_diagnostic (idle_cycle, "looping"));
}

/* The node named @name in @tree, depth first, or STRATA_CALL_TREE_NONE. */
static guint32
find_node (StrataCallTree *tree,
           guint32         node,
           const char     *name)
{
  g_autofree char *own = node != STRATA_CALL_TREE_ROOT ? strata_call_tree_dup_name (tree, node) : NULL;
  guint32 first = strata_call_tree_get_first_child (tree, node);

  if (own != NULL && g_str_has_prefix (own, name))
    return node;
  for (guint32 i = 0; i < strata_call_tree_get_n_children (tree, node); i++)
    {
      guint32 found = find_node (tree, first + i, name);

      if (found != STRATA_CALL_TREE_NONE)
        return found;
    }
  return STRATA_CALL_TREE_NONE;
}

/* Collapse Package takes a JavaScript function's node package, or its
 * script: main → lodash's chunk → lodash's baseEach → main's callback
 * is main → lodash* → callback. */
static void
test_cpuprofile_collapse_package (void)
{
  g_autoptr(StrataTrace) trace = load_text (
    "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"},\"children\":[2]},"
    "{\"id\":2,\"callFrame\":{\"functionName\":\"main\",\"url\":\"file:///app/main.js\"},\"children\":[3,6]},"
    "{\"id\":3,\"callFrame\":{\"functionName\":\"chunk\",\"url\":\"file:///app/node_modules/lodash/lodash.js\"},\"children\":[4]},"
    "{\"id\":4,\"callFrame\":{\"functionName\":\"baseEach\",\"url\":\"file:///app/node_modules/lodash/lodash.js\"},\"children\":[5]},"
    "{\"id\":5,\"callFrame\":{\"functionName\":\"callback\",\"url\":\"file:///app/main.js\"}},"
    "{\"id\":6,\"callFrame\":{\"functionName\":\"transform\",\"url\":\"file:///app/node_modules/@babel/core/lib/transform.js\"}}],"
    "\"startTime\":0,\"endTime\":40,\"samples\":[5,4,6,2],\"timeDeltas\":[0,10,10,10]}");
  g_autoptr(StrataCallTree) tree = strata_call_tree_new (trace, -1, FALSE, NULL, NULL, NULL);
  g_autoptr(StrataCallTree) collapsed = NULL;
  g_autofree char *lodash = strata_call_transform_dup_group (trace, method_starting (trace, "chunk "));
  g_autofree char *babel = strata_call_transform_dup_group (trace, method_starting (trace, "transform "));
  g_autofree char *script = strata_call_transform_dup_group (trace, method_starting (trace, "main "));
  StrataCallTransform transform = { STRATA_CALL_TRANSFORM_COLLAPSE_PREFIX, STRATA_CALL_TREE_NONE, STRATA_CALL_TREE_NONE, NULL, NULL, 0 };
  guint32 group;

  g_assert_cmpstr (lodash, ==, "lodash");
  g_assert_cmpstr (babel, ==, "@babel/core");
  g_assert_cmpstr (script, ==, "file:///app/main.js");
  transform.prefix = lodash;
  collapsed = strata_call_tree_transform (tree, &transform, NULL, NULL);
  g_assert_nonnull (collapsed);
  group = find_node (collapsed, STRATA_CALL_TREE_ROOT, "lodash*");
  g_assert_cmpuint (group, !=, STRATA_CALL_TREE_NONE);
  g_assert_cmpint (strata_call_tree_get_total (collapsed, group, 0), ==, 20000);
  g_assert_cmpint (strata_call_tree_get_self (collapsed, group, 0), ==, 10000);
  g_assert_cmpuint (strata_call_tree_get_n_children (collapsed, group), ==, 1);
  g_assert_cmpuint (find_node (collapsed, STRATA_CALL_TREE_ROOT, "chunk "), ==, STRATA_CALL_TREE_NONE);
  g_assert_cmpuint (find_node (collapsed, STRATA_CALL_TREE_ROOT, "baseEach "), ==, STRATA_CALL_TREE_NONE);
  g_assert_cmpuint (find_node (collapsed, STRATA_CALL_TREE_ROOT, "transform "), !=, STRATA_CALL_TREE_NONE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cpuprofile/node", test_cpuprofile_node);
  g_test_add_func ("/cpuprofile/times", test_cpuprofile_times);
  g_test_add_func ("/cpuprofile/member-order", test_cpuprofile_member_order);
  g_test_add_func ("/cpuprofile/repairs", test_cpuprofile_repairs);
  g_test_add_func ("/cpuprofile/hostile", test_cpuprofile_hostile);
  g_test_add_func ("/cpuprofile/collapse-package", test_cpuprofile_collapse_package);
  return g_test_run ();
}
