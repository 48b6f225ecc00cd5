/* strata-hprof-resolve.c: a binary dump's records put together
 *
 * Once every record is read: classes named, CPU samples and stack traces
 * made into calls, threads named, the roots in stack frames placed, and
 * the summary of what was read and skipped.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include "strata-error.h"
#include "strata-hprof-private.h"
#include "strata-stack-layout.h"

void
hprof_resolve_class_names (HprofLoader *self)
{
  for (guint i = 0; i < self->class_names->len; i++)
    {
      const ClassName *pending = &g_array_index (self->class_names, ClassName, i);
      guint32 name = hprof_string_by_id (self, pending->name_id);

      if (name == 0)
        {
          g_autofree char *hex = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", pending->name_id);
          /* Translators: %s is the id of a class name missing from the dump */
          g_autofree char *unnamed = g_strdup_printf (_("unnamed class %s"), hex);

          name = strata_string_pool_intern (strata_trace_get_pool (self->trace), unnamed);
        }
      strata_heap_peek_class (self->heap, pending->heap_class)->name = name;
    }
}

guint32
hprof_string_text (HprofLoader *self,
                   guint64      id)
{
  guint32 index = strata_id_map_lookup (&self->strings, id);
  const StringRef *ref;
  g_autofree char *text = NULL;

  if (index == STRATA_ID_MAP_MISSING)
    return 0;
  ref = &g_array_index (self->string_refs, StringRef, index);
  text = g_utf8_make_valid ((const char *) self->data + ref->offset, ref->len);
  return strata_string_pool_intern (strata_trace_get_pool (self->trace), text);
}

static guint32
class_name_by_serial (HprofLoader *self,
                      guint32      serial)
{
  guint32 index = strata_id_map_lookup (&self->class_serials, serial);

  return index == STRATA_ID_MAP_MISSING ? 0
         : hprof_string_by_id (self, g_array_index (self->class_serial_names, guint64, index));
}

/* "java.lang.Thread.run(Thread.java:833)", as stack traces are written. */
static guint32
frame_text (HprofLoader *self,
            guint64      frame_id)
{
  StrataStringPool *pool = strata_trace_get_pool (self->trace);
  guint32 index = strata_id_map_lookup (&self->frames, frame_id);
  const FrameInfo *frame;
  g_autofree char *text = NULL;

  if (index == STRATA_ID_MAP_MISSING)
    return strata_string_pool_intern (pool, _("<unknown frame>"));
  frame = &g_array_index (self->frame_infos, FrameInfo, index);
  {
    const char *klass = strata_trace_get_string (self->trace, class_name_by_serial (self, frame->class_serial));
    const char *method = strata_trace_get_string (self->trace, hprof_string_text (self, frame->method_name));
    const char *source = strata_trace_get_string (self->trace, hprof_string_text (self, frame->source));

    /* As Java prints stack traces. */
    if (frame->line == -3)
      text = g_strdup_printf ("%s.%s(Native Method)", klass, method);
    else if (*source == '\0')
      text = g_strdup_printf ("%s.%s(Unknown Source)", klass, method);
    else if (frame->line > 0)
      text = g_strdup_printf ("%s.%s(%s:%d)", klass, method, source, frame->line);
    else
      text = g_strdup_printf ("%s.%s(%s)", klass, method, source);
  }
  return strata_string_pool_intern (pool, text);
}

/* The profile's method for a frame: one per "class.method". */
static guint32
frame_method (HprofLoader *self,
              guint64      frame_id)
{
  StrataStringPool *pool = strata_trace_get_pool (self->trace);
  guint32 index = strata_id_map_lookup (&self->frames, frame_id);
  StrataMethod method = { .line = -1 };
  g_autofree char *key = NULL;
  gpointer found;

  if (index == STRATA_ID_MAP_MISSING)
    key = g_strdup (_("<unknown frame>"));
  else
    {
      const FrameInfo *frame = &g_array_index (self->frame_infos, FrameInfo, index);

      method.class_name = class_name_by_serial (self, frame->class_serial);
      method.name = hprof_string_text (self, frame->method_name);
      method.source_file = hprof_string_text (self, frame->source);
      key = g_strdup_printf ("%s.%s", strata_trace_get_string (self->trace, method.class_name),
                             strata_trace_get_string (self->trace, method.name));
    }
  if ((found = g_hash_table_lookup (self->methods, key)) != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  method.display_name = strata_string_pool_intern (pool, key);
  method.raw_id = g_hash_table_size (self->methods);
  found = GUINT_TO_POINTER (strata_trace_add_method (self->trace, &method) + 1);
  g_hash_table_insert (self->methods, g_steal_pointer (&key), found);
  return GPOINTER_TO_UINT (found) - 1;
}

/* CPU SAMPLES become calls, as for the text format. */
void
hprof_build_cpu_calls (HprofLoader *self)
{
  guint n = self->cpu_rows->len / 2;
  g_autofree StrataStackRow *rows = g_new0 (StrataStackRow, MAX (n, 1));
  g_autoptr(GPtrArray) stacks = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) by_serial = g_hash_table_new (NULL, NULL);
  StrataClockKind kind = STRATA_CLOCK_SAMPLES;
  guint thread;

  if (n == 0)
    return;
  for (guint i = 0; i < self->stacks->len; i++)
    g_hash_table_insert (by_serial, GUINT_TO_POINTER (g_array_index (self->stacks, StackInfo, i).serial),
                         &g_array_index (self->stacks, StackInfo, i));
  for (guint r = 0; r < n; r++)
    {
      const StackInfo *stack = g_hash_table_lookup (by_serial,
                                                    GUINT_TO_POINTER (g_array_index (self->cpu_rows, guint32, 2 * r + 1)));
      guint32 *methods = g_new (guint32, stack ? MAX (stack->frame_ids->len, 1) : 1);

      for (guint f = 0; stack != NULL && f < stack->frame_ids->len; f++)
        methods[f] = frame_method (self, g_array_index (stack->frame_ids, guint64, f));
      g_ptr_array_add (stacks, methods);
      rows[r] = (StrataStackRow) { g_array_index (self->cpu_rows, guint32, 2 * r), methods,
                                   stack ? stack->frame_ids->len : 0 };
    }
  strata_trace_set_clocks (self->trace, 1, &kind);
  thread = strata_trace_add_thread (self->trace, strata_trace_add_process (self->trace, 0, _("Java VM")), 0,
                                    _("CPU samples, all threads"));
  strata_stack_layout_thread (self->trace, thread, rows, n, NS_PER_SAMPLE);
}

void
hprof_resolve_stacks_and_threads (HprofLoader *self)
{
  for (guint i = 0; i < self->stacks->len; i++)
    {
      const StackInfo *stack = &g_array_index (self->stacks, StackInfo, i);
      g_autofree guint32 *frames = g_new (guint32, MAX (stack->frame_ids->len, 1));

      for (guint f = 0; f < stack->frame_ids->len; f++)
        frames[f] = frame_text (self, g_array_index (stack->frame_ids, guint64, f));
      strata_heap_add_stack (self->heap, stack->serial, frames, stack->frame_ids->len);
    }
  for (guint i = 0; i < self->sites->len; i++)
    {
      StrataAllocSite site = g_array_index (self->sites, StrataAllocSite, i);

      site.class_name = class_name_by_serial (self, site.class_name);
      strata_heap_add_site (self->heap, &site);
    }
}

/* A thread's name: from its START THREAD record (the JDK 8 agent), else
 * from its java.lang.Thread's name field (JDK 17 dumps name no thread). */
static guint32
thread_name (HprofLoader      *self,
             const ThreadInfo *info,
             StrataHeapGraph  *graph,
             StrataHprofIndex *index)
{
  guint32 object;
  g_autoptr(GArray) fields = NULL;

  if (info->name != 0)
    return hprof_string_text (self, info->name);
  if (graph == NULL || info->object == 0 ||
      (object = strata_heap_graph_lookup (graph, info->object)) == STRATA_HEAP_NO_OBJECT)
    return 0;
  fields = strata_hprof_index_get_fields (index, self->trace, object);
  for (guint f = 0; f < fields->len; f++)
    {
      const StrataHeapField *field = &g_array_index (fields, StrataHeapField, f);
      guint32 string;
      g_autofree char *text = NULL;

      if (field->type != STRATA_HEAP_TYPE_OBJECT || g_strcmp0 (field->name, "name") != 0 ||
          (string = strata_heap_graph_lookup (graph, field->value)) == STRATA_HEAP_NO_OBJECT ||
          !(text = strata_hprof_index_dup_string (index, self->trace, string)))
        continue;
      return strata_string_pool_intern (strata_trace_get_pool (self->trace), text);
    }
  return 0;
}

void
hprof_resolve_threads (HprofLoader      *self,
                       StrataHeapGraph  *graph,
                       StrataHprofIndex *index)
{
  for (guint i = 0; i < self->threads->len; i++)
    {
      const ThreadInfo *info = &g_array_index (self->threads, ThreadInfo, i);
      StrataHeapThread thread = { info->serial, thread_name (self, info, graph, index), info->stack,
                                  graph != NULL && info->object != 0 ? strata_heap_graph_lookup (graph, info->object)
                                                                     : STRATA_HEAP_NO_OBJECT };

      strata_heap_add_thread (self->heap, &thread);
    }
}

void
hprof_resolve_frame_roots (HprofLoader     *self,
                           StrataHeapGraph *graph)
{
  for (guint i = 0; graph != NULL && i < self->frame_roots->len; i++)
    {
      const FrameRootInfo *info = &g_array_index (self->frame_roots, FrameRootInfo, i);
      StrataFrameRoot root = { info->thread, info->frame, strata_heap_graph_lookup (graph, info->id) };

      if (root.object != STRATA_HEAP_NO_OBJECT)
        strata_heap_add_frame_root (self->heap, &root);
    }
}

void
hprof_report (HprofLoader *self)
{
  if (self->header_id_size != 0)
    /* Translators: sizes in bytes of the ids of objects in a heap dump */
    strata_trace_add_diagnosticf (self->trace,
                                  _("The header gives identifiers of %u bytes, but the records use %u; they were read with %u."),
                                  self->header_id_size, self->id_size, self->id_size);
  if (self->truncated)
    {
      g_autofree char *at = g_strdup_printf ("%'" G_GSIZE_FORMAT, self->truncated_at);

      /* Translators: %s is a byte offset */
      strata_trace_add_diagnosticf (self->trace,
                                    _("The heap dump is cut off in a record at byte %s; what came before was loaded."), at);
    }
  strata_trace_add_count_diagnostic (self->trace, self->n_unknown_tags,
                                     ngettext ("%s record of an unknown kind was skipped.",
                                               "%s records of unknown kinds were skipped.", self->n_unknown_tags));
  strata_trace_add_count_diagnostic (self->trace, self->n_bad_segments,
                                     ngettext ("%s heap dump segment holds a record Strata cannot read; the rest of it was skipped.",
                                               "%s heap dump segments hold records Strata cannot read; the rest of them was skipped.",
                                               self->n_bad_segments));
}
