/* hprof-android.c: an Android heap dump made up for tests
 *
 * ART's dump (header 1.0.3, 4-byte ids) of an app with three kinds of
 * leak LeakCanary reports: an Activity held by a static field after it
 * was destroyed (its Window, also destroyed, is reached only through
 * it), two destroyed activities each held by a listener left in a static
 * list (one group: the same path), and a Fragment whose manager let it
 * go. A running activity that ActivityThread holds does not leak. Three
 * bitmaps hold their pixels as Android 7 and older do (mBuffer); two of
 * them have the same pixels.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "hprof-android.h"
#include "hprof-writer.h"

#define OBJECT_TYPE  2
#define BOOLEAN_TYPE 4
#define INT_TYPE     10

/* A class: its id, name, superclass and fields ("name:type"). */
typedef struct
{
  guint32     id;
  const char *name;
  guint32     super;
  const char *fields[6];
  const char *statics[2];   /* "name:object id" */
} Class;

enum
{
  OBJECT = 0x1001, CONTEXT, CONTEXT_WRAPPER, THEME_WRAPPER, ACTIVITY, MAIN_ACTIVITY, WINDOW, PHONE_WINDOW,
  FRAGMENT, DETAIL_FRAGMENT, LISTENER, ARRAY_LIST, LEAK_HOLDER, REGISTRY, FRAGMENT_CACHE, ACTIVITY_THREAD,
  BITMAP, OBJECT_ARRAY, BITMAP_HOLDER, CLASS,
};

static const Class classes[] = {
  { OBJECT, "java/lang/Object", 0, { NULL }, { NULL } },
  { CLASS, "java/lang/Class", OBJECT, { NULL }, { NULL } },
  { CONTEXT, "android/content/Context", OBJECT, { NULL }, { NULL } },
  { CONTEXT_WRAPPER, "android/content/ContextWrapper", CONTEXT, { "mBase:2", NULL }, { NULL } },
  { THEME_WRAPPER, "android/view/ContextThemeWrapper", CONTEXT_WRAPPER, { NULL }, { NULL } },
  { ACTIVITY, "android/app/Activity", THEME_WRAPPER, { "mDestroyed:4", "mFinished:4", "mWindow:2", NULL }, { NULL } },
  { MAIN_ACTIVITY, "com/example/MainActivity", ACTIVITY, { "title:2", NULL }, { NULL } },
  { WINDOW, "android/view/Window", OBJECT, { "mDestroyed:4", "mContext:2", NULL }, { NULL } },
  { PHONE_WINDOW, "com/android/internal/policy/PhoneWindow", WINDOW, { NULL }, { NULL } },
  { FRAGMENT, "android/app/Fragment", OBJECT, { "mFragmentManager:2", "mActivity:2", NULL }, { NULL } },
  { DETAIL_FRAGMENT, "com/example/DetailFragment", FRAGMENT, { NULL }, { NULL } },
  { LISTENER, "com/example/MainActivity$1", OBJECT, { "this$0:2", NULL }, { NULL } },
  { ARRAY_LIST, "java/util/ArrayList", OBJECT, { "elementData:2", "size:10", NULL }, { NULL } },
  { LEAK_HOLDER, "com/example/LeakHolder", OBJECT, { NULL }, { "sLeaked:20481", NULL } },
  { REGISTRY, "com/example/Registry", OBJECT, { NULL }, { "sListeners:20489", NULL } },
  { FRAGMENT_CACHE, "com/example/FragmentCache", OBJECT, { NULL }, { "sLast:20486", NULL } },
  { ACTIVITY_THREAD, "android/app/ActivityThread", OBJECT, { "mLast:2", NULL }, { "sCurrent:20491", NULL } },
  { BITMAP, "android/graphics/Bitmap", OBJECT, { "mWidth:10", "mHeight:10", "mBuffer:2", NULL }, { NULL } },
  { OBJECT_ARRAY, "java/lang/Object[]", OBJECT, { NULL }, { NULL } },
  { BITMAP_HOLDER, "com/example/Images", OBJECT, { NULL }, { "sAll:20498", NULL } },
};

#define put_u1(out, value) hprof_writer_put ((out), (value), 1)
#define put_u2(out, value) hprof_writer_put ((out), (value), 2)
#define put_u4(out, value) hprof_writer_put ((out), (value), 4)

static const Class *
class_by_id (guint32 id)
{
  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    if (classes[i].id == id)
      return &classes[i];
  g_assert_not_reached ();
}

/* The bytes of an instance's fields: its class's, then its superclasses'. */
static guint32
instance_size (const Class *klass)
{
  guint32 size = 0;

  for (; klass != NULL; klass = klass->super != 0 ? class_by_id (klass->super) : NULL)
    for (guint i = 0; klass->fields[i] != NULL; i++)
      size += g_str_has_suffix (klass->fields[i], ":4") ? 1 : 4;
  return size;
}

/* Each field's name and statics' names get ids from @next_name. */
static void
put_class (GByteArray  *out,
           GByteArray  *dump,
           const Class *klass,
           guint32     *next_name)
{
  g_autoptr(GByteArray) body = g_byte_array_new ();
  guint n_fields = g_strv_length ((char **) klass->fields), n_statics = g_strv_length ((char **) klass->statics);

  hprof_writer_put_name (out, klass->id + 0x100000, klass->name);
  put_u4 (body, klass->id);
  put_u4 (body, klass->id);
  put_u4 (body, 0);
  put_u4 (body, klass->id + 0x100000);
  hprof_writer_put_record (out, 0x02, body);
  put_u1 (dump, 0x20);
  put_u4 (dump, klass->id);
  put_u4 (dump, 0);
  put_u4 (dump, klass->super);
  for (guint i = 0; i < 5; i++)
    put_u4 (dump, 0);
  /* ART's class dumps give the whole object's size, its 8-byte header in. */
  put_u4 (dump, 8 + instance_size (klass));
  put_u2 (dump, 0);
  put_u2 (dump, n_statics);
  for (guint i = 0; i < n_statics; i++)
    {
      g_auto(GStrv) parts = g_strsplit (klass->statics[i], ":", 2);

      hprof_writer_put_name (out, *next_name, parts[0]);
      put_u4 (dump, (*next_name)++);
      put_u1 (dump, OBJECT_TYPE);
      put_u4 (dump, g_ascii_strtoull (parts[1], NULL, 10));
    }
  put_u2 (dump, n_fields);
  for (guint i = 0; i < n_fields; i++)
    {
      g_auto(GStrv) parts = g_strsplit (klass->fields[i], ":", 2);

      hprof_writer_put_name (out, *next_name, parts[0]);
      put_u4 (dump, (*next_name)++);
      put_u1 (dump, g_ascii_strtoull (parts[1], NULL, 10));
    }
}

/* An instance; @values in the record's order (booleans as 0 or 1). */
static void
put_instance (GByteArray    *dump,
              guint32        id,
              guint32        klass_id,
              const guint32 *values)
{
  guint n = 0;

  put_u1 (dump, 0x21);
  put_u4 (dump, id);
  put_u4 (dump, 0);
  put_u4 (dump, klass_id);
  put_u4 (dump, instance_size (class_by_id (klass_id)));
  for (const Class *klass = class_by_id (klass_id); klass != NULL; klass = klass->super != 0 ? class_by_id (klass->super) : NULL)
    for (guint i = 0; klass->fields[i] != NULL; i++, n++)
      hprof_writer_put (dump, values[n], g_str_has_suffix (klass->fields[i], ":4") ? 1 : 4);
}

static void
put_object_array (GByteArray    *dump,
                  guint32        id,
                  const guint32 *elements,
                  guint32        n)
{
  put_u1 (dump, 0x22);
  put_u4 (dump, id);
  put_u4 (dump, 0);
  put_u4 (dump, n);
  put_u4 (dump, OBJECT_ARRAY);
  for (guint32 i = 0; i < n; i++)
    put_u4 (dump, elements[i]);
}

/* A byte[] of @n_pixels RGBA pixels of one colour, as ARGB_8888 holds them. */
static void
put_pixels (GByteArray *dump,
            guint32     id,
            guint32     n_pixels,
            guint32     rgba)
{
  put_u1 (dump, 0x23);
  put_u4 (dump, id);
  put_u4 (dump, 0);
  put_u4 (dump, n_pixels * 4);
  put_u1 (dump, 8);
  for (guint32 i = 0; i < n_pixels; i++)
    put_u4 (dump, rgba);
}

static void
put_instances (GByteArray *dump)
{
  /* Activity fields, MainActivity's first: title, mDestroyed, mFinished, mWindow, mBase. */
  put_instance (dump, ANDROID_LEAKED_ACTIVITY, MAIN_ACTIVITY, (const guint32[]) { 0, 1, 1, ANDROID_LEAKED_WINDOW, 0 });
  put_instance (dump, ANDROID_LEAKED_WINDOW, PHONE_WINDOW, (const guint32[]) { 1, ANDROID_LEAKED_ACTIVITY });
  put_instance (dump, ANDROID_LISTENED_ACTIVITY_1, MAIN_ACTIVITY, (const guint32[]) { 0, 1, 1, 0, 0 });
  put_instance (dump, ANDROID_LISTENED_ACTIVITY_2, MAIN_ACTIVITY, (const guint32[]) { 0, 1, 1, 0, 0 });
  put_instance (dump, ANDROID_LIVE_ACTIVITY, MAIN_ACTIVITY, (const guint32[]) { 0, 0, 0, 0, 0 });
  put_instance (dump, ANDROID_LEAKED_FRAGMENT, DETAIL_FRAGMENT, (const guint32[]) { 0, ANDROID_LIVE_ACTIVITY });
  put_instance (dump, ANDROID_LISTENER_1, LISTENER, (const guint32[]) { ANDROID_LISTENED_ACTIVITY_1 });
  put_instance (dump, ANDROID_LISTENER_2, LISTENER, (const guint32[]) { ANDROID_LISTENED_ACTIVITY_2 });
  put_instance (dump, ANDROID_LISTENERS, ARRAY_LIST, (const guint32[]) { ANDROID_LISTENER_ARRAY, 2 });
  put_object_array (dump, ANDROID_LISTENER_ARRAY, (const guint32[]) { ANDROID_LISTENER_1, ANDROID_LISTENER_2, 0 }, 3);
  put_instance (dump, ANDROID_ACTIVITY_THREAD, ACTIVITY_THREAD, (const guint32[]) { ANDROID_LIVE_ACTIVITY });
  put_instance (dump, ANDROID_BITMAP_RED_1, BITMAP, (const guint32[]) { 2, 2, ANDROID_PIXELS_RED_1 });
  put_instance (dump, ANDROID_BITMAP_RED_2, BITMAP, (const guint32[]) { 2, 2, ANDROID_PIXELS_RED_2 });
  put_instance (dump, ANDROID_BITMAP_BLUE, BITMAP, (const guint32[]) { 2, 1, ANDROID_PIXELS_BLUE });
  put_pixels (dump, ANDROID_PIXELS_RED_1, 4, 0xff0000ff);
  put_pixels (dump, ANDROID_PIXELS_RED_2, 4, 0xff0000ff);
  put_pixels (dump, ANDROID_PIXELS_BLUE, 2, 0x0000ffff);
  put_object_array (dump, ANDROID_BITMAPS,
                    (const guint32[]) { ANDROID_BITMAP_RED_1, ANDROID_BITMAP_RED_2, ANDROID_BITMAP_BLUE }, 3);
}

/**
 * hprof_android_leaks_dump:
 *
 * Returns: (transfer full): the dump's bytes; every class is a sticky
 *   class root
 */
GBytes *
hprof_android_leaks_dump (void)
{
  const char header[] = "JAVA PROFILE 1.0.3";
  GByteArray *out = g_byte_array_new ();
  g_autoptr(GByteArray) dump = g_byte_array_new ();
  guint32 next_name = 0x300000;

  g_byte_array_append (out, (const guint8 *) header, sizeof header);
  put_u4 (out, 4);
  put_u4 (out, 0);
  put_u4 (out, 0);
  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    put_class (out, dump, &classes[i], &next_name);
  put_instances (dump);
  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    {
      put_u1 (dump, 0x05);
      put_u4 (dump, classes[i].id);
    }
  hprof_writer_put_record (out, 0x0C, dump);
  return g_byte_array_free_to_bytes (out);
}
