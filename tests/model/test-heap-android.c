/* test-heap-android.c: an Android dump's leaks found as LeakCanary finds
 * them, and its bitmaps
 *
 * On the dump of tests/lib/hprof-android.c, written by hand: which
 * objects leak, the path to each with every step marked, the groups, and
 * the bitmaps with their pixels and copies.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "hprof-android.h"
#include "strata-heap.h"
#include "strata-heap-android-leaks.h"
#include "strata-heap-bitmaps.h"
#include "strata-heap-labels.h"
#include "strata-test-model.h"

static StrataTrace *
load_android (void)
{
  g_autoptr(GBytes) bytes = hprof_android_leaks_dump ();
  g_autoptr(GError) error = NULL;
  StrataTrace *trace = strata_test_load_heap_bytes (bytes, &error);

  g_assert_no_error (error);
  return trace;
}

static guint32
object_of (StrataTrace *trace,
           guint64      id)
{
  return strata_heap_graph_lookup (strata_heap_get_graph (strata_trace_get_heap (trace)), id);
}

static const StrataLeakStep *
step_of (const StrataAndroidLeak *leak,
         guint                    i)
{
  return &g_array_index (leak->steps, StrataLeakStep, i);
}

/* Three groups, the most retained first: two listened-to activities
 * (one path shape), the activity a static holds (its window, reached
 * only through it, is no leak of its own), the fragment. */
static void
test_leaks_found (void)
{
  g_autoptr(StrataTrace) trace = load_android ();
  g_autoptr(GPtrArray) leaks = strata_heap_find_android_leaks (trace);
  const StrataAndroidLeak *listened, *held, *fragment;

  g_assert_cmpuint (leaks->len, ==, 3);
  listened = g_ptr_array_index (leaks, 0);
  held = g_ptr_array_index (leaks, 1);
  fragment = g_ptr_array_index (leaks, 2);
  g_assert_cmpuint (listened->objects->len, ==, 2);
  g_assert_cmpuint (held->objects->len, ==, 1);
  g_assert_cmpuint (g_array_index (held->objects, guint32, 0), ==, object_of (trace, ANDROID_LEAKED_ACTIVITY));
  g_assert_cmpuint (fragment->objects->len, ==, 1);
  g_assert_cmpuint (g_array_index (fragment->objects, guint32, 0), ==, object_of (trace, ANDROID_LEAKED_FRAGMENT));
  /* ART's sizes: MainActivity 22 bytes, its PhoneWindow 13. */
  g_assert_cmpuint (held->retained, ==, 22 + 13);
  g_assert_cmpuint (listened->retained, ==, 2 * 22);
  g_assert_cmpstr (listened->signature, ==,
                   "com.example.Registry.static sListeners → java.util.ArrayList.elementData → "
                   "java.lang.Object[].[x] → com.example.MainActivity$1.this$0");
}

/* The static field's class never leaks, the destroyed activity does,
 * and the reference between them is the suspect. */
static void
test_held_by_static (void)
{
  g_autoptr(StrataTrace) trace = load_android ();
  g_autoptr(GPtrArray) leaks = strata_heap_find_android_leaks (trace);
  const StrataAndroidLeak *held = g_ptr_array_index (leaks, 1);
  g_autofree char *text = strata_android_leak_describe (trace, held);

  g_assert_cmpuint (held->steps->len, ==, 2);
  g_assert_cmpstr (strata_heap_class_object_name (trace, step_of (held, 0)->object), ==, "com.example.LeakHolder");
  g_assert_cmpint (step_of (held, 0)->status, ==, STRATA_LEAK_STATUS_NOT_LEAKING);
  g_assert_cmpstr (step_of (held, 0)->reason, ==, "a class is never leaking");
  g_assert_cmpint (step_of (held, 1)->status, ==, STRATA_LEAK_STATUS_LEAKING);
  g_assert_cmpstr (step_of (held, 1)->reason, ==, "Activity.mDestroyed is true");
  g_assert_cmpstr (step_of (held, 1)->reference, ==, "static sLeaked");
  g_assert_true (step_of (held, 1)->suspect);
  g_assert_cmpstr (text, ==, "1 com.example.MainActivity leaks and retains 35 bytes: Activity.mDestroyed is true");
}

/* Between the class (not leaking) and the activity (leaking), the list,
 * its array and the listener are unknown; every reference there is a
 * suspect. */
static void
test_listener_path (void)
{
  g_autoptr(StrataTrace) trace = load_android ();
  g_autoptr(GPtrArray) leaks = strata_heap_find_android_leaks (trace);
  const StrataAndroidLeak *listened = g_ptr_array_index (leaks, 0);
  const char *const references[] = { NULL, "static sListeners", "elementData", "[0]", "this$0" };

  g_assert_cmpuint (listened->steps->len, ==, 5);
  g_assert_cmpint (step_of (listened, 0)->status, ==, STRATA_LEAK_STATUS_NOT_LEAKING);
  for (guint i = 1; i < 4; i++)
    {
      g_assert_cmpint (step_of (listened, i)->status, ==, STRATA_LEAK_STATUS_UNKNOWN);
      g_assert_null (step_of (listened, i)->reason);
    }
  g_assert_cmpint (step_of (listened, 4)->status, ==, STRATA_LEAK_STATUS_LEAKING);
  for (guint i = 1; i < 5; i++)
    {
      g_assert_cmpstr (step_of (listened, i)->reference, ==, references[i]);
      g_assert_true (step_of (listened, i)->suspect);
    }
  g_assert_cmpstr (strata_heap_object_class_label (trace, step_of (listened, 3)->object), ==, "com.example.MainActivity$1");
}

static void
test_fragment (void)
{
  g_autoptr(StrataTrace) trace = load_android ();
  g_autoptr(GPtrArray) leaks = strata_heap_find_android_leaks (trace);
  const StrataAndroidLeak *fragment = g_ptr_array_index (leaks, 2);

  g_assert_cmpstr (step_of (fragment, fragment->steps->len - 1)->reason, ==, "Fragment.mFragmentManager is null");
  g_assert_cmpstr (fragment->signature, ==, "com.example.FragmentCache.static sLast");
}

/* A JDK dump has no Android classes: nothing is read, nothing found. */
static void
test_not_android (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "allocations.hprof.gz", NULL);
  g_autoptr(StrataTrace) trace = strata_test_load_heap (path);
  g_autoptr(GPtrArray) leaks = strata_heap_find_android_leaks (trace);

  g_assert_cmpuint (leaks->len, ==, 0);
}

/* The largest first; the second red one is a copy of the first. */
static void
test_bitmaps (void)
{
  g_autoptr(StrataTrace) trace = load_android ();
  g_autoptr(GArray) bitmaps = strata_heap_find_bitmaps (trace);
  const StrataHeapBitmap *red, *copy, *blue;
  const guint8 *pixels;
  gsize n = 0;

  g_assert_cmpuint (bitmaps->len, ==, 3);
  red = &g_array_index (bitmaps, StrataHeapBitmap, 0);
  copy = &g_array_index (bitmaps, StrataHeapBitmap, 1);
  blue = &g_array_index (bitmaps, StrataHeapBitmap, 2);
  g_assert_cmpuint (red->object, ==, object_of (trace, ANDROID_BITMAP_RED_1));
  g_assert_cmpuint (copy->object, ==, object_of (trace, ANDROID_BITMAP_RED_2));
  g_assert_cmpuint (blue->object, ==, object_of (trace, ANDROID_BITMAP_BLUE));
  g_assert_cmpuint (red->width, ==, 2);
  g_assert_cmpuint (red->height, ==, 2);
  g_assert_cmpint (red->format, ==, STRATA_BITMAP_RGBA_8888);
  g_assert_cmpuint (red->stride, ==, 8);
  g_assert_cmpuint (red->n_bytes, ==, 16);
  g_assert_cmpuint (red->n_copies, ==, 1);
  g_assert_cmpuint (red->copy_of, ==, G_MAXUINT);
  g_assert_cmpuint (copy->copy_of, ==, 0);
  g_assert_cmpuint (blue->copy_of, ==, G_MAXUINT);
  g_assert_cmpuint (blue->n_copies, ==, 0);
  g_assert_cmpuint (strata_heap_bitmaps_wasted (bitmaps), ==, 16);
  pixels = strata_heap_bitmap_get_data (trace, blue, &n);
  g_assert_cmpuint (n, ==, 8);
  g_assert_cmpmem (pixels, 4, "\x00\x00\xff\xff", 4);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/heap-android/leaks-found", test_leaks_found);
  g_test_add_func ("/heap-android/held-by-static", test_held_by_static);
  g_test_add_func ("/heap-android/listener-path", test_listener_path);
  g_test_add_func ("/heap-android/fragment", test_fragment);
  g_test_add_func ("/heap-android/not-android", test_not_android);
  g_test_add_func ("/heap-android/bitmaps", test_bitmaps);
  return g_test_run ();
}
