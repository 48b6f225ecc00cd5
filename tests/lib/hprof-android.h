/* hprof-android.h: an Android heap dump made up for tests, with the
 * leaks LeakCanary finds and bitmaps
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The objects of hprof_android_leaks_dump(), by id. */
enum
{
  ANDROID_LEAKED_ACTIVITY = 0x5001,   /* destroyed, held by LeakHolder.sLeaked */
  ANDROID_LEAKED_WINDOW,              /* destroyed, held only by that activity */
  ANDROID_LISTENED_ACTIVITY_1,        /* destroyed, held by a listener in Registry.sListeners */
  ANDROID_LISTENED_ACTIVITY_2,        /* destroyed, the same way */
  ANDROID_LIVE_ACTIVITY,              /* running, held by ActivityThread */
  ANDROID_LEAKED_FRAGMENT,            /* its manager gone, held by FragmentCache.sLast */
  ANDROID_LISTENER_1,
  ANDROID_LISTENER_2,
  ANDROID_LISTENERS,                  /* the ArrayList */
  ANDROID_LISTENER_ARRAY,             /* its elementData */
  ANDROID_ACTIVITY_THREAD,
  ANDROID_BITMAP_RED_1,               /* 2×2 red pixels */
  ANDROID_BITMAP_RED_2,               /* the same pixels again */
  ANDROID_BITMAP_BLUE,                /* 2×1 blue pixels */
  ANDROID_PIXELS_RED_1,
  ANDROID_PIXELS_RED_2,
  ANDROID_PIXELS_BLUE,
  ANDROID_BITMAPS,                    /* an Object[] holding the bitmaps */
};

GBytes *hprof_android_leaks_dump (void);

G_END_DECLS
