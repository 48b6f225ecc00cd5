/* strata-report-heap.c: what keeps a heap dump's memory alive, for
 * `strata -r`: the objects that retain the most, each with the shortest
 * path of references from a GC root
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-heap-labels.h"
#include "strata-hprof-index.h"
#include "strata-heap-duplicates.h"
#include "strata-heap-suspects.h"
#include "strata-heap-object-row.h"
#include "strata-units.h"
#include "strata-report-private.h"

/* A path longer than this is cut in the middle of its report. */
#define MAX_PATH_STEPS 64

static void
print_path (StrataTrace      *trace,
            const StrataHeap *heap,
            guint32           object)
{
  guint32 n;
  g_autofree guint32 *path = strata_heap_graph_path_from_root (strata_heap_get_graph (heap), object, &n);
  g_autofree char *text = NULL;

  if (path == NULL)
    return;
  text = strata_heap_describe_path (trace, path, n, TRUE);
  g_print ("      %s\n", text);
}

static gpointer
prepare_paths_thread (gpointer data)
{
  strata_heap_graph_prepare_paths (data);
  return NULL;
}

/**
 * strata_report_start_paths:
 *
 * Has the paths from GC roots (which the suspects, dominators and
 * Android leaks print) found on another core while the report prints
 * what needs none. Join the thread before the trace goes.
 *
 * Returns: (nullable): the thread, or %NULL for a trace without a graph
 */
GThread *
strata_report_start_paths (StrataTrace *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);

  if (heap == NULL || strata_heap_get_graph (heap) == NULL)
    return NULL;
  return g_thread_try_new ("strata-paths", prepare_paths_thread, strata_heap_get_graph (heap), NULL);
}

void
strata_report_print_dominators (StrataTrace *trace,
                                guint        n)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  StrataHeapGraph *graph = heap != NULL ? strata_heap_get_graph (heap) : NULL;
  g_autofree guint32 *top = NULL;
  guint32 n_found;

  if (graph == NULL || n == 0)
    return;
  top = strata_heap_graph_top_retained (graph, n, &n_found);
  g_print ("\n%s\n", _("Objects that retain the most"));
  g_print ("%16s %14s  %s\n", _("Retained bytes"), _("Shallow bytes"), _("Object"));
  for (guint32 i = 0; i < n_found; i++)
    {
      g_autofree char *label = strata_heap_describe_object (trace, top[i]);

      g_print ("%16" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT "  %s\n", strata_heap_graph_get_retained (graph, top[i]),
               strata_heap_graph_get_shallow (graph, top[i]), label);
      print_path (trace, heap, top[i]);
    }
}

/* An object's class, and its name as the text report gives it: a class
 * object is named after the class it is, a string shows its text. */
static void
write_json_object_names (StrataJsonWriter *json,
                         StrataTrace      *trace,
                         guint32           object)
{
  g_autofree char *label = strata_heap_describe_object (trace, object);

  strata_json_writer_member (json, "class");
  strata_json_writer_string (json, strata_heap_object_class_label (trace, object));
  strata_json_writer_member (json, "label");
  strata_json_writer_string (json, label);
}

static void
write_json_step (StrataJsonWriter      *json,
                 StrataTrace           *trace,
                 const StrataHeap      *heap,
                 const guint32         *path,
                 guint32                i)
{
  StrataHeapGraph *graph = strata_heap_get_graph (heap);

  strata_json_writer_begin_object (json);
  if (i == 0)
    {
      strata_json_writer_member (json, "root");
      strata_json_writer_string (json, strata_root_kind_get_id (strata_heap_graph_get_root_kind (graph, path[0])));
    }
  else
    {
      g_autofree char *field = strata_hprof_index_name_reference (strata_heap_get_index (heap), trace,
                                                                  path[i - 1], path[i]);

      strata_json_writer_member (json, "field");
      strata_json_writer_string (json, field);
    }
  write_json_object_names (json, trace, path[i]);
  strata_json_writer_member (json, "id");
  strata_json_writer_uint (json, strata_heap_graph_get_id (graph, path[i]));
  strata_json_writer_end_object (json);
}

static void
write_json_path (StrataJsonWriter *json,
                 StrataTrace      *trace,
                 const StrataHeap *heap,
                 guint32           object)
{
  guint32 n;
  g_autofree guint32 *path = strata_heap_graph_path_from_root (strata_heap_get_graph (heap), object, &n);

  strata_json_writer_member (json, "path");
  strata_json_writer_begin_array (json);
  for (guint32 i = 0; i < n; i++)
    {
      /* The root's end and the object's; the middle of a long path is
       * counted in "path_steps_left_out". */
      if (i == MAX_PATH_STEPS / 2 && n > MAX_PATH_STEPS)
        i = n - MAX_PATH_STEPS / 2;
      write_json_step (json, trace, heap, path, i);
    }
  strata_json_writer_end_array (json);
  strata_json_writer_member (json, "path_steps_left_out");
  strata_json_writer_uint (json, n > MAX_PATH_STEPS ? n - MAX_PATH_STEPS : 0);
}

void
strata_report_write_json_dominators (StrataJsonWriter *json,
                                     StrataTrace      *trace,
                                     guint             n)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  StrataHeapGraph *graph = heap != NULL ? strata_heap_get_graph (heap) : NULL;
  g_autofree guint32 *top = NULL;
  guint32 n_found = 0;

  if (heap == NULL)
    return;
  if (graph != NULL)
    top = strata_heap_graph_top_retained (graph, n, &n_found);
  strata_json_writer_member (json, "dominators");
  strata_json_writer_begin_array (json);
  for (guint32 i = 0; i < n_found; i++)
    {
      strata_json_writer_begin_object (json);
      strata_json_writer_member (json, "id");
      strata_json_writer_uint (json, strata_heap_graph_get_id (graph, top[i]));
      write_json_object_names (json, trace, top[i]);
      strata_json_writer_member (json, "shallow_bytes");
      strata_json_writer_uint (json, strata_heap_graph_get_shallow (graph, top[i]));
      strata_json_writer_member (json, "retained_bytes");
      strata_json_writer_uint (json, strata_heap_graph_get_retained (graph, top[i]));
      write_json_path (json, trace, heap, top[i]);
      strata_json_writer_end_object (json);
    }
  strata_json_writer_end_array (json);
}

/* The way from a suspect down the dominator tree to where its memory
 * accumulates, each step by the field it goes through where one does. */
static void
print_accumulation_path (StrataTrace             *trace,
                         const StrataHeapSuspect *suspect)
{
  guint32 n;
  g_autofree guint32 *path = strata_heap_suspect_accumulation_path (trace, suspect, &n);
  g_autofree char *text = NULL;

  if (n < 2)
    return;
  text = strata_heap_describe_path (trace, path, n, FALSE);
  /* Translators: before the way down to where a suspect's memory accumulates */
  g_print ("      %s %s\n", _("accumulates in:"), text);
}

void
strata_report_print_suspects (StrataTrace *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  g_autoptr(GArray) suspects = NULL;

  if (heap == NULL || strata_heap_get_graph (heap) == NULL)
    return;
  g_print ("\n%s\n", _("Leak suspects: what retains more than a tenth of the reachable heap"));
  suspects = strata_heap_find_leak_suspects (trace);
  for (guint i = 0; i < suspects->len; i++)
    {
      const StrataHeapSuspect *suspect = &g_array_index (suspects, StrataHeapSuspect, i);
      g_autofree char *text = strata_heap_suspect_describe (trace, suspect);
      g_auto(GStrv) keywords = strata_heap_suspect_keywords (trace, suspect);
      g_autofree char *joined = g_strjoinv (", ", keywords);

      g_print ("  %u. %s\n", i + 1, text);
      print_path (trace, heap, suspect->object);
      print_accumulation_path (trace, suspect);
      /* Translators: the start of a line listing a leak suspect's keywords */
      g_print ("      %s %s\n", _("keywords:"), joined);
    }
  if (suspects->len == 0)
    g_print ("  %s\n", _("None: no object or class retains more than a tenth of the heap."));
}

static void
write_json_object (StrataJsonWriter *json,
                   StrataTrace      *trace,
                   const char       *member,
                   guint32           object)
{
  StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (trace));

  strata_json_writer_member (json, member);
  strata_json_writer_begin_object (json);
  strata_json_writer_member (json, "id");
  strata_json_writer_uint (json, strata_heap_graph_get_id (graph, object));
  write_json_object_names (json, trace, object);
  strata_json_writer_member (json, "retained_bytes");
  strata_json_writer_uint (json, strata_heap_graph_get_retained (graph, object));
  strata_json_writer_end_object (json);
}

static void
write_json_accumulation (StrataJsonWriter        *json,
                         StrataTrace             *trace,
                         const StrataHeap        *heap,
                         const StrataHeapSuspect *suspect)
{
  guint32 n;
  g_autofree guint32 *path = strata_heap_suspect_accumulation_path (trace, suspect, &n);

  write_json_object (json, trace, "accumulation_point", suspect->accumulation);
  strata_json_writer_member (json, "accumulation_path");
  strata_json_writer_begin_array (json);
  for (guint32 i = 1; i < n; i++)
    write_json_step (json, trace, heap, path, i);
  strata_json_writer_end_array (json);
  if (suspect->content_class == G_MAXUINT)
    return;
  strata_json_writer_member (json, "content");
  strata_json_writer_begin_object (json);
  strata_json_writer_member (json, "class");
  strata_json_writer_string (json, strata_heap_class_label (trace, suspect->content_class));
  strata_json_writer_member (json, "count");
  strata_json_writer_uint (json, suspect->n_content);
  strata_json_writer_end_object (json);
}

static void
write_json_suspect (StrataJsonWriter        *json,
                    StrataTrace             *trace,
                    const StrataHeap        *heap,
                    const StrataHeapSuspect *suspect)
{
  g_autofree char *text = strata_heap_suspect_describe (trace, suspect);
  g_auto(GStrv) keywords = strata_heap_suspect_keywords (trace, suspect);
  gboolean group = suspect->group_class != G_MAXUINT;

  strata_json_writer_begin_object (json);
  strata_json_writer_member (json, "kind");
  strata_json_writer_string (json, group ? "group" : "object");
  strata_json_writer_member (json, "description");
  strata_json_writer_string (json, text);
  strata_json_writer_member (json, "retained_bytes");
  strata_json_writer_uint (json, suspect->retained);
  if (group)
    {
      strata_json_writer_member (json, "group_class");
      strata_json_writer_string (json, strata_heap_class_label (trace, suspect->group_class));
      strata_json_writer_member (json, "instances");
      strata_json_writer_uint (json, suspect->n_group);
    }
  else
    {
      g_autofree char *holder = strata_heap_suspect_describe_holder (trace, suspect);

      strata_json_writer_member (json, "held_by");
      strata_json_writer_string (json, holder);
    }
  write_json_object (json, trace, group ? "largest" : "object", suspect->object);
  write_json_path (json, trace, heap, suspect->object);
  write_json_accumulation (json, trace, heap, suspect);
  strata_json_writer_member (json, "keywords");
  strata_json_writer_begin_array (json);
  for (guint k = 0; keywords[k] != NULL; k++)
    strata_json_writer_string (json, keywords[k]);
  strata_json_writer_end_array (json);
  strata_json_writer_end_object (json);
}

void
strata_report_write_json_suspects (StrataJsonWriter *json,
                                   StrataTrace      *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  StrataHeapGraph *graph = heap != NULL ? strata_heap_get_graph (heap) : NULL;
  g_autoptr(GArray) suspects = NULL;

  if (graph == NULL)
    return;
  suspects = strata_heap_find_leak_suspects (trace);
  strata_json_writer_member (json, "leak_suspects");
  strata_json_writer_begin_object (json);
  strata_json_writer_member (json, "reachable_bytes");
  strata_json_writer_uint (json, strata_heap_graph_get_reachable_bytes (graph));
  strata_json_writer_member (json, "suspects");
  strata_json_writer_begin_array (json);
  for (guint i = 0; i < suspects->len; i++)
    write_json_suspect (json, trace, heap, &g_array_index (suspects, StrataHeapSuspect, i));
  strata_json_writer_end_array (json);
  strata_json_writer_end_object (json);
}

void
strata_report_print_duplicates (StrataTrace *trace,
                                guint        n)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);

  if (heap == NULL || strata_heap_get_graph (heap) == NULL || n == 0)
    return;
  for (int strings = 1; strings >= 0; strings--)
    {
      g_autoptr(GArray) found = strata_heap_find_duplicates (trace, strings, n, NULL);

      if (found->len == 0)
        continue;
      g_print ("\n%s\n", strings ? _("Duplicate strings") : _("Duplicate primitive arrays"));
      g_print ("%14s %10s  %s\n", _("Wasted bytes"), _("Copies"), strings ? _("Text") : _("Array"));
      for (guint i = 0; i < found->len; i++)
        {
          const StrataHeapDuplicate *duplicate = &g_array_index (found, StrataHeapDuplicate, i);
          g_autofree char *clipped = NULL;

          if (strings)
            g_print ("%14" G_GUINT64_FORMAT " %10u  “%s”\n", duplicate->wasted, duplicate->count,
                     strata_units_clip_to (duplicate->text, 100, &clipped));
          else
            {
              g_autofree char *array = strata_heap_describe_array_copies (trace, duplicate);

              g_print ("%14" G_GUINT64_FORMAT " %10u  %s\n", duplicate->wasted, duplicate->count, array);
            }
        }
    }
}

void
strata_report_write_json_duplicates (StrataJsonWriter *json,
                                     StrataTrace      *trace,
                                     guint             n)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);

  if (heap == NULL || strata_heap_get_graph (heap) == NULL)
    return;
  for (int strings = 1; strings >= 0; strings--)
    {
      g_autoptr(GArray) found = strata_heap_find_duplicates (trace, strings, n, NULL);

      strata_json_writer_member (json, strings ? "duplicate_strings" : "duplicate_arrays");
      strata_json_writer_begin_array (json);
      for (guint i = 0; i < found->len; i++)
        {
          const StrataHeapDuplicate *duplicate = &g_array_index (found, StrataHeapDuplicate, i);

          strata_json_writer_begin_object (json);
          if (strings)
            {
              strata_json_writer_member (json, "text");
              strata_json_writer_string (json, duplicate->text);
            }
          else
            {
              strata_json_writer_member (json, "class");
              strata_json_writer_string (json, duplicate->heap_class < strata_heap_get_n_classes (heap)
                                                 ? strata_heap_class_label (trace, duplicate->heap_class) : "");
              strata_json_writer_member (json, "length");
              strata_json_writer_uint (json, duplicate->length);
            }
          strata_json_writer_member (json, "copies");
          strata_json_writer_uint (json, duplicate->count);
          strata_json_writer_member (json, "wasted_bytes");
          strata_json_writer_uint (json, duplicate->wasted);
          strata_json_writer_end_object (json);
        }
      strata_json_writer_end_array (json);
    }
}
