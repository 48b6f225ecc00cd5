/* strata-trace-mapping.c: a trace's names through a deobfuscation mapping
 *
 * The names are worked out in a worker (the mapping read and looked up
 * there) and shown by strata_trace_names_apply() on the thread the views
 * read on: only the names a trace shows change, never its methods, so the
 * profile, its order and the colours stay.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-trace-mapping.h"

struct _StrataTraceNames
{
  char  **methods;        /* per method: the name to show, or NULL */
  guint   n_methods;
  char  **classes;        /* per heap class, or NULL */
  guint   n_classes;
  guint   n_renamed_methods;
  guint   n_renamed_classes;
  char   *problems;       /* what the mapping could not say, or NULL */
  StrataMapping *mapping; /* for heap fields' names, handed to the trace */
};

void
strata_trace_names_free (StrataTraceNames *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n_methods; i++)
    g_free (self->methods[i]);
  for (guint i = 0; i < self->n_classes; i++)
    g_free (self->classes[i]);
  g_free (self->methods);
  g_free (self->classes);
  g_free (self->problems);
  g_clear_pointer (&self->mapping, strata_mapping_free);
  g_free (self);
}

static void
add_type (GHashTable *names,
          const char *type,
          gsize       len)
{
  while (len >= 2 && type[len - 2] == '[' && type[len - 1] == ']')
    len -= 2;
  if (len > 0)
    g_hash_table_add (names, g_strndup (type, len));
}

/* "(La/b;[Lc;I)V": each class in it, dotted. */
static void
add_descriptor_types (GHashTable *names,
                      const char *descriptor)
{
  for (const char *p = strchr (descriptor, 'L'); p != NULL; p = strchr (p, 'L'))
    {
      const char *semicolon = strchr (p, ';');
      g_autofree char *dotted = NULL;

      if (semicolon == NULL)
        return;
      dotted = g_strndup (p + 1, semicolon - p - 1);
      g_strdelimit (dotted, "/", '.');
      g_hash_table_add (names, g_steal_pointer (&dotted));
      p = semicolon + 1;
    }
}

/**
 * strata_trace_collect_class_names:
 *
 * Returns: (transfer full): every class name the trace shows, in methods,
 *   their signatures and heap classes (arrays as their element class)
 */
GHashTable *
strata_trace_collect_class_names (StrataTrace *trace)
{
  GHashTable *names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const StrataHeap *heap = strata_trace_get_heap (trace);

  for (guint32 m = 0; m < strata_trace_get_n_methods (trace); m++)
    {
      const StrataMethod *method = strata_trace_get_method (trace, m);
      const char *klass = strata_trace_get_string (trace, method->class_name);

      add_type (names, klass, strlen (klass));
      add_descriptor_types (names, strata_trace_get_string (trace, method->signature));
    }
  for (guint c = 0; heap != NULL && c < strata_heap_get_n_classes (heap); c++)
    {
      const char *name = strata_trace_get_string (trace, strata_heap_get_class (heap, c)->name);

      add_type (names, name, strlen (name));
    }
  return names;
}

/* "pkg.Class.method (sig)" with the mapping's names; NULL when the same. */
static char *
map_method (StrataTrace   *trace,
            StrataMapping *mapping,
            guint32        index)
{
  const StrataMethod *method = strata_trace_get_method (trace, index);
  const char *klass = strata_trace_get_string (trace, method->class_name);
  const char *name = strata_trace_get_string (trace, method->name);
  const char *signature = strata_trace_get_string (trace, method->signature);
  g_autofree char *descriptor = *signature != '\0' ? strata_mapping_descriptor (mapping, signature) : NULL;
  g_autofree char *mapped = NULL;
  g_autofree char *shown = NULL;

  if (*klass == '\0' || *name == '\0')
    return NULL;
  mapped = strata_mapping_method (mapping, klass, name, descriptor, -1);
  if (mapped == NULL)
    {
      const char *original = strata_mapping_class (mapping, klass);

      mapped = g_strconcat (original != NULL ? original : klass, ".", name, NULL);
    }
  shown = descriptor != NULL ? g_strconcat (mapped, " ", descriptor, NULL) : g_steal_pointer (&mapped);
  if (g_str_equal (shown, strata_trace_get_loaded_method_name (trace, index)))
    return NULL;
  return g_steal_pointer (&shown);
}

/**
 * strata_trace_names_new:
 *
 * Returns: (transfer full): the names @mapping gives @trace's methods and
 *   heap classes; safe in a worker while the trace is not renamed
 */
StrataTraceNames *
strata_trace_names_new (StrataTrace   *trace,
                        StrataMapping *mapping)
{
  StrataTraceNames *self = g_new0 (StrataTraceNames, 1);
  const StrataHeap *heap = strata_trace_get_heap (trace);

  self->n_methods = strata_trace_get_n_methods (trace);
  self->methods = g_new0 (char *, MAX (self->n_methods, 1));
  for (guint32 m = 0; m < self->n_methods; m++)
    if ((self->methods[m] = map_method (trace, mapping, m)) != NULL)
      self->n_renamed_methods++;
  self->n_classes = heap != NULL ? strata_heap_get_n_classes (heap) : 0;
  self->classes = g_new0 (char *, MAX (self->n_classes, 1));
  for (guint c = 0; c < self->n_classes; c++)
    {
      const char *name = strata_trace_get_string (trace, strata_heap_get_class (heap, c)->name);
      g_autofree char *mapped = strata_mapping_type (mapping, name);

      if (!g_str_equal (mapped, name))
        {
          self->classes[c] = g_steal_pointer (&mapped);
          self->n_renamed_classes++;
        }
    }
  self->problems = strata_mapping_describe_bad_lines (mapping);
  return self;
}

void
strata_trace_names_apply (StrataTraceNames *self,
                          StrataTrace      *trace)
{
  strata_trace_rename (trace, self->methods, self->n_methods, self->classes, self->n_classes);
  if (strata_trace_get_heap (trace) != NULL)
    strata_trace_set_field_mapping (trace, g_steal_pointer (&self->mapping));
}

guint
strata_trace_names_get_n_methods (StrataTraceNames *self)
{
  return self->n_renamed_methods;
}

guint
strata_trace_names_get_n_classes (StrataTraceNames *self)
{
  return self->n_renamed_classes;
}

/* Returns: (nullable): the lines of the mapping that could not be read */
const char *
strata_trace_names_get_problems (StrataTraceNames *self)
{
  return self->problems;
}

/**
 * strata_trace_map_names:
 *
 * Reads @mapping, keeping only the classes @trace names, and works out the
 * names it gives. The trace must show its own names meanwhile.
 *
 * Returns: (transfer full): the names, or %NULL when the file cannot be
 *   read or has no class the trace names
 */
StrataTraceNames *
strata_trace_map_names (StrataTrace   *trace,
                        GFile         *mapping,
                        GCancellable  *cancellable,
                        GError       **error)
{
  g_autoptr(GHashTable) wanted = strata_trace_collect_class_names (trace);
  g_autoptr(StrataMapping) map = strata_mapping_new_for_classes (wanted);

  if (!strata_mapping_read_file (map, mapping, cancellable, error))
    return NULL;
  if (strata_mapping_get_n_classes (map) == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   strata_mapping_get_n_lines (map) > 0 && strata_mapping_get_n_bad_lines (map) == strata_mapping_get_n_lines (map)
                     ? _("This is not a ProGuard or R8 mapping file")
                     : _("The mapping has none of the classes in this file: is it the mapping of another build?"));
      return NULL;
    }
  {
    StrataTraceNames *names = strata_trace_names_new (trace, map);

    names->mapping = g_steal_pointer (&map);
    return names;
  }
}

static void
map_thread (GTask        *task,
            gpointer      source,
            gpointer      data,
            GCancellable *cancellable)
{
  StrataTrace *trace = g_object_get_data (G_OBJECT (task), "trace");
  GError *error = NULL;
  StrataTraceNames *names = strata_trace_map_names (trace, data, cancellable, &error);

  if (names != NULL)
    g_task_return_pointer (task, names, (GDestroyNotify) strata_trace_names_free);
  else
    g_task_return_error (task, error);
}

void
strata_trace_map_names_async (StrataTrace         *trace,
                              GFile               *mapping,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_object_set_data_full (G_OBJECT (task), "trace", g_object_ref (trace), g_object_unref);
  g_task_set_task_data (task, g_object_ref (mapping), g_object_unref);
  g_task_run_in_thread (task, map_thread);
}

StrataTraceNames *
strata_trace_map_names_finish (GAsyncResult  *result,
                               GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
