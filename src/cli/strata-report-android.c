/* strata-report-android.c: an Android dump's leaks and bitmaps, for
 * `strata -r`: each leak with its path as LeakCanary draws it, each
 * bitmap with its size and copies
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-heap.h"
#include "strata-heap-android-leaks.h"
#include "strata-heap-bitmaps.h"
#include "strata-heap-labels.h"
#include "strata-report-private.h"

/* A step's object: a class object as "class X". */
static char *
step_label (StrataTrace *trace,
            guint32      object)
{
  const char *klass = strata_heap_class_object_name (trace, object);

  return klass != NULL ? g_strdup_printf ("class %s", klass) : strata_heap_describe_object (trace, object);
}

static void
print_step (StrataTrace          *trace,
            const StrataLeakStep *step,
            gboolean              last)
{
  g_autofree char *label = step_label (trace, step->object);
  g_autofree char *because = NULL;
  const char *status = strata_leak_status_get_name (step->status);

  if (step->reference != NULL)
    {
      g_print ("      │    ↓ %s\n", step->reference);
      /* The references that may be the bug, underlined as LeakCanary does. */
      if (step->suspect)
        {
          g_autofree char *line = g_strnfill (g_utf8_strlen (step->reference, -1), '~');

          g_print ("      │      %s\n", line);
        }
    }
  g_print ("      %s %s\n", last ? "╰→" : "├─", label);
  if (step->reason != NULL)
    /* Translators: a leak's step: its status ("not leaking"), then why */
    because = g_strdup_printf (_("%s (%s)"), status, step->reason);
  g_print ("      %s    %s\n", last ? " " : "│", because != NULL ? because : status);
}

static void
print_leak (StrataTrace             *trace,
            const StrataAndroidLeak *leak,
            guint                    number)
{
  StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (trace));
  g_autofree char *text = strata_android_leak_describe (trace, leak);
  const StrataLeakStep *root = &g_array_index (leak->steps, StrataLeakStep, 0);
  /* Translators: the first line of a leak's path: the kind of GC root */
  g_autofree char *kind = g_strdup_printf (_("GC root: %s"),
                                           strata_root_kind_get_name (strata_heap_graph_get_root_kind (graph, root->object)));

  g_print ("  %u. %s\n", number, text);
  g_print ("      ┬───\n");
  g_print ("      │ %s\n", kind);
  for (guint i = 0; i < leak->steps->len; i++)
    print_step (trace, &g_array_index (leak->steps, StrataLeakStep, i), i + 1 == leak->steps->len);
  if (leak->objects->len > 1)
    {
      GString *others = g_string_new (NULL);

      for (guint i = 1; i < leak->objects->len && i <= 8; i++)
        g_string_append_printf (others, " 0x%" G_GINT64_MODIFIER "x",
                                strata_heap_graph_get_id (graph, g_array_index (leak->objects, guint32, i)));
      if (leak->objects->len > 9)
        g_string_append (others, " …");
      /* Translators: the other leaking objects whose paths have the same shape, by id */
      g_print ("      %s%s\n", _("also leaking the same way:"), others->str);
      g_string_free (others, TRUE);
    }
}

static void
print_leaks (StrataTrace *trace)
{
  g_autoptr(GPtrArray) leaks = strata_heap_find_android_leaks (trace);

  g_print ("\n%s\n", _("Android leaks: objects the app is done with that are still reachable, as LeakCanary finds them"));
  for (guint i = 0; i < leaks->len; i++)
    print_leak (trace, g_ptr_array_index (leaks, i), i + 1);
  if (leaks->len == 0)
    g_print ("  %s\n", _("None: no destroyed activity, fragment, window or view, and no quit message queue, is still reachable."));
}

static void
print_bitmap (StrataTrace            *trace,
              const GArray           *bitmaps,
              const StrataHeapBitmap *bitmap)
{
  StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (trace));
  g_autofree char *size = g_strdup_printf ("%u×%u", bitmap->width, bitmap->height);
  g_autofree char *copies = NULL;

  if (bitmap->copy_of != G_MAXUINT)
    /* Translators: %llx is the id of the bitmap this one has the same pixels as */
    copies = g_strdup_printf (_("copy of 0x%llx"), (unsigned long long) strata_heap_graph_get_id (
                                graph, g_array_index (bitmaps, StrataHeapBitmap, bitmap->copy_of).object));
  else if (bitmap->n_copies > 0)
    copies = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u copy", "%u copies", bitmap->n_copies), bitmap->n_copies);
  g_print ("%14" G_GUINT64_FORMAT "  %-11s  %-22s  0x%-14" G_GINT64_MODIFIER "x  %s\n", bitmap->n_bytes, size,
           strata_bitmap_format_get_name (bitmap->format), strata_heap_graph_get_id (graph, bitmap->object),
           copies != NULL ? copies : "");
}

static void
print_bitmaps (StrataTrace *trace)
{
  g_autoptr(GArray) bitmaps = strata_heap_find_bitmaps (trace);
  guint64 bytes = 0;
  g_autofree char *total = NULL, *wasted = NULL, *heading = NULL;

  if (bitmaps->len == 0)
    return;
  for (guint i = 0; i < bitmaps->len; i++)
    bytes += g_array_index (bitmaps, StrataHeapBitmap, i).n_bytes;
  total = g_format_size (bytes);
  wasted = g_format_size (strata_heap_bitmaps_wasted (bitmaps));
  /* Translators: "Bitmaps: 24 with 240.4 kB of pixels; copies of others: 34.4 kB" */
  heading = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Bitmaps: %u with %s of pixels; copies of others: %s",
                                          "Bitmaps: %u with %s of pixels; copies of others: %s", bitmaps->len),
                             bitmaps->len, total, wasted);
  g_print ("\n%s\n", heading);
  g_print ("%14s  %-11s  %-22s  %-16s  %s\n", _("Pixel bytes"), _("Size"), _("Format"), _("Object"), _("Copies"));
  for (guint i = 0; i < bitmaps->len; i++)
    print_bitmap (trace, bitmaps, &g_array_index (bitmaps, StrataHeapBitmap, i));
}

/**
 * strata_report_print_android:
 *
 * An Android dump's leaks and bitmaps; nothing for other dumps.
 */
void
strata_report_print_android (StrataTrace *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);

  if (heap == NULL || strata_heap_get_graph (heap) == NULL || strata_heap_get_index (heap) == NULL ||
      !strata_heap_has_android_classes (trace))
    return;
  print_leaks (trace);
  print_bitmaps (trace);
}

static void
write_json_step (StrataJsonWriter     *json,
                 StrataTrace          *trace,
                 const StrataLeakStep *step)
{
  StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (trace));
  g_autofree char *label = step_label (trace, step->object);

  strata_json_writer_begin_object (json);
  if (step->reference == NULL)
    {
      strata_json_writer_member (json, "root");
      strata_json_writer_string (json, strata_root_kind_get_id (strata_heap_graph_get_root_kind (graph, step->object)));
    }
  else
    {
      strata_json_writer_member (json, "field");
      strata_json_writer_string (json, step->reference);
      strata_json_writer_member (json, "suspect");
      strata_json_writer_boolean (json, step->suspect);
    }
  strata_json_writer_member (json, "id");
  strata_json_writer_uint (json, strata_heap_graph_get_id (graph, step->object));
  strata_json_writer_member (json, "class");
  strata_json_writer_string (json, strata_heap_object_class_label (trace, step->object));
  strata_json_writer_member (json, "label");
  strata_json_writer_string (json, label);
  strata_json_writer_member (json, "status");
  strata_json_writer_string (json, strata_leak_status_get_id (step->status));
  if (step->reason != NULL)
    {
      strata_json_writer_member (json, "reason");
      strata_json_writer_string (json, step->reason);
    }
  strata_json_writer_end_object (json);
}

static void
write_json_leak (StrataJsonWriter        *json,
                 StrataTrace             *trace,
                 const StrataAndroidLeak *leak)
{
  StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (trace));
  g_autofree char *text = strata_android_leak_describe (trace, leak);

  strata_json_writer_begin_object (json);
  strata_json_writer_member (json, "description");
  strata_json_writer_string (json, text);
  strata_json_writer_member (json, "retained_bytes");
  strata_json_writer_uint (json, leak->retained);
  strata_json_writer_member (json, "signature");
  strata_json_writer_string (json, leak->signature);
  strata_json_writer_member (json, "objects");
  strata_json_writer_begin_array (json);
  for (guint i = 0; i < leak->objects->len; i++)
    strata_json_writer_uint (json, strata_heap_graph_get_id (graph, g_array_index (leak->objects, guint32, i)));
  strata_json_writer_end_array (json);
  strata_json_writer_member (json, "path");
  strata_json_writer_begin_array (json);
  for (guint i = 0; i < leak->steps->len; i++)
    write_json_step (json, trace, &g_array_index (leak->steps, StrataLeakStep, i));
  strata_json_writer_end_array (json);
  strata_json_writer_end_object (json);
}

static void
write_json_bitmap (StrataJsonWriter       *json,
                   StrataTrace            *trace,
                   const GArray           *bitmaps,
                   const StrataHeapBitmap *bitmap)
{
  StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (trace));

  strata_json_writer_begin_object (json);
  strata_json_writer_member (json, "id");
  strata_json_writer_uint (json, strata_heap_graph_get_id (graph, bitmap->object));
  strata_json_writer_member (json, "width");
  strata_json_writer_uint (json, bitmap->width);
  strata_json_writer_member (json, "height");
  strata_json_writer_uint (json, bitmap->height);
  strata_json_writer_member (json, "format");
  strata_json_writer_string (json, bitmap->format == STRATA_BITMAP_NOT_IN_DUMP ? "none"
                                                                              : strata_bitmap_format_get_name (bitmap->format));
  strata_json_writer_member (json, "pixel_bytes");
  strata_json_writer_uint (json, bitmap->n_bytes);
  strata_json_writer_member (json, "copies");
  strata_json_writer_uint (json, bitmap->n_copies);
  if (bitmap->copy_of != G_MAXUINT)
    {
      strata_json_writer_member (json, "copy_of");
      strata_json_writer_uint (json, strata_heap_graph_get_id (graph, g_array_index (bitmaps, StrataHeapBitmap,
                                                                                      bitmap->copy_of).object));
    }
  strata_json_writer_end_object (json);
}

static void
write_json_bitmaps (StrataJsonWriter *json,
                    StrataTrace      *trace)
{
  g_autoptr(GArray) bitmaps = strata_heap_find_bitmaps (trace);

  strata_json_writer_member (json, "bitmaps");
  strata_json_writer_begin_object (json);
  strata_json_writer_member (json, "wasted_bytes");
  strata_json_writer_uint (json, strata_heap_bitmaps_wasted (bitmaps));
  strata_json_writer_member (json, "bitmaps");
  strata_json_writer_begin_array (json);
  for (guint i = 0; i < bitmaps->len; i++)
    write_json_bitmap (json, trace, bitmaps, &g_array_index (bitmaps, StrataHeapBitmap, i));
  strata_json_writer_end_array (json);
  strata_json_writer_end_object (json);
}

/**
 * strata_report_write_json_android:
 *
 * "android_leaks" and "bitmaps" of an Android dump; nothing for others.
 */
void
strata_report_write_json_android (StrataJsonWriter *json,
                                  StrataTrace      *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  g_autoptr(GPtrArray) leaks = NULL;

  if (heap == NULL || strata_heap_get_graph (heap) == NULL || strata_heap_get_index (heap) == NULL ||
      !strata_heap_has_android_classes (trace))
    return;
  leaks = strata_heap_find_android_leaks (trace);
  strata_json_writer_member (json, "android_leaks");
  strata_json_writer_begin_array (json);
  for (guint i = 0; i < leaks->len; i++)
    write_json_leak (json, trace, g_ptr_array_index (leaks, i));
  strata_json_writer_end_array (json);
  write_json_bitmaps (json, trace);
}
