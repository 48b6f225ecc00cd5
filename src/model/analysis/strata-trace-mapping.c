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
#include "strata-trace-private.h"

/* A method's names through the mapping, each NULL where unchanged. */
typedef struct
{
  char *class_name;
  char *name;
  char *signature;
  char *source_file;
} MethodParts;

struct _StrataTraceNames
{
  char  **methods;        /* per method: the name to show, or NULL */
  MethodParts *parts;     /* per method: its structured names */
  guint   n_methods;
  char  **classes;        /* per heap class, or NULL */
  guint   n_classes;
  guint   n_renamed_methods;
  guint   n_renamed_classes;
  char   *problems;       /* what the mapping could not say, or NULL */
  char   *fit_warning;    /* why the mapping may be another build's, or NULL */
  char   *mapping_id;     /* R8's pg_map_id, or NULL */
  char   *mapping_hash;   /* R8's pg_map_hash */
  guint   n_class_methods;    /* methods of classes the mapping has */
  guint   n_exact_methods;    /* of those, found with their descriptor */
  guint   n_short_classes;    /* classes whose names look obfuscated */
  guint   n_mapped_short_classes;
  StrataMapping *mapping; /* for heap fields' names, handed to the trace */
};

void
strata_trace_names_free (StrataTraceNames *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n_methods; i++)
    {
      g_free (self->methods[i]);
      g_free (self->parts[i].class_name);
      g_free (self->parts[i].name);
      g_free (self->parts[i].signature);
      g_free (self->parts[i].source_file);
    }
  g_free (self->parts);
  g_free (self->fit_warning);
  g_free (self->mapping_id);
  g_free (self->mapping_hash);
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

/* A copy of @mapped, or NULL when it is @loaded. */
static char *
dup_if_changed (const char *mapped,
                const char *loaded)
{
  return mapped != NULL && !g_str_equal (mapped, loaded) ? g_strdup (mapped) : NULL;
}

/* The structured names of a method: "pkg.Class.method" cut at its last
 * dot (alternatives "a | b" stay whole as the method), the descriptor
 * and R8's source file. */
static void
map_parts (StrataMapping      *mapping,
           const StrataMethod *method,
           StrataTrace        *trace,
           const char         *mapped,
           const char         *descriptor,
           MethodParts        *parts)
{
  const char *klass = strata_trace_get_string (trace, method->class_name);
  const char *dot = strchr (mapped, '|') == NULL ? strrchr (mapped, '.') : NULL;
  g_autofree char *mapped_class = dot != NULL ? g_strndup (mapped, dot - mapped) : NULL;
  const char *source = strata_mapping_source_file (mapping, klass);

  if (mapped_class == NULL && strata_mapping_class (mapping, klass) != NULL)
    mapped_class = g_strdup (strata_mapping_class (mapping, klass));
  parts->class_name = dup_if_changed (mapped_class, klass);
  parts->name = dup_if_changed (dot != NULL ? dot + 1 : NULL, strata_trace_get_string (trace, method->name));
  parts->signature = dup_if_changed (descriptor, strata_trace_get_string (trace, method->signature));
  parts->source_file = dup_if_changed (source, strata_trace_get_string (trace, method->source_file));
}

/* R8 names classes a, b, …, aa, ab: a simple name of one or two letters
 * or digits, starting lower case, is taken for an obfuscated one. */
static gboolean
looks_obfuscated (const char *klass)
{
  const char *simple = MAX (strrchr (klass, '.'), strrchr (klass, '$'));
  gsize len;

  simple = simple != NULL ? simple + 1 : klass;
  len = strlen (simple);
  return len >= 1 && len <= 2 && g_ascii_islower (simple[0]) && (len == 1 || g_ascii_isalnum (simple[1]));
}

/* How well the mapping fits: its classes, and its methods with their
 * descriptors, as a mapping of the trace's own build has them. */
static void
count_fit (StrataTraceNames *self,
           StrataMapping    *mapping,
           const char       *klass,
           const char       *name,
           const char       *descriptor)
{
  if (strata_mapping_class (mapping, klass) == NULL)
    return;
  self->n_class_methods++;
  if (strata_mapping_has_method (mapping, klass, name, descriptor))
    self->n_exact_methods++;
}

/* "pkg.Class.method (sig)" with the mapping's names; NULL when the same. */
static char *
map_method (StrataTraceNames *self,
            StrataTrace      *trace,
            StrataMapping    *mapping,
            guint32           index)
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
  count_fit (self, mapping, klass, name, descriptor);
  mapped = strata_mapping_method (mapping, klass, name, descriptor, -1);
  if (mapped == NULL)
    {
      const char *original = strata_mapping_class (mapping, klass);

      mapped = g_strconcat (original != NULL ? original : klass, ".", name, NULL);
    }
  map_parts (mapping, method, trace, mapped, descriptor, &self->parts[index]);
  shown = descriptor != NULL ? g_strconcat (mapped, " ", descriptor, NULL) : g_steal_pointer (&mapped);
  if (g_str_equal (shown, strata_trace_get_loaded_method_name (trace, index)))
    return NULL;
  return g_steal_pointer (&shown);
}

/* A mapping of the trace's own build has nearly every obfuscated class
 * and every method with its descriptor; another build's has the same
 * short class names for other classes, and methods that do not match. */
static char *
describe_fit (StrataTraceNames *self)
{
  gboolean classes_fit = self->n_mapped_short_classes * 10 >= self->n_short_classes * 9;
  gboolean methods_fit = self->n_exact_methods * 10 >= self->n_class_methods * 9;

  if (classes_fit && methods_fit)
    return NULL;
  /* Translators: counts of classes and methods of a trace that a
   * deobfuscation mapping names */
  return g_strdup_printf (_("The mapping fits this file poorly: of the file’s %u obfuscated classes it has %u, and of "
                            "their %u methods %u with the same signature. It may be the mapping of another build, "
                            "and the names shown may be wrong."),
                          self->n_short_classes, self->n_mapped_short_classes, self->n_class_methods, self->n_exact_methods);
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

  g_autoptr(GHashTable) classes = strata_trace_collect_class_names (trace);
  GHashTableIter iter;
  const char *klass;

  self->n_methods = strata_trace_get_n_methods (trace);
  self->methods = g_new0 (char *, MAX (self->n_methods, 1));
  self->parts = g_new0 (MethodParts, MAX (self->n_methods, 1));
  for (guint32 m = 0; m < self->n_methods; m++)
    if ((self->methods[m] = map_method (self, trace, mapping, m)) != NULL)
      self->n_renamed_methods++;
  g_hash_table_iter_init (&iter, classes);
  while (g_hash_table_iter_next (&iter, (gpointer *) &klass, NULL))
    if (looks_obfuscated (klass))
      {
        self->n_short_classes++;
        self->n_mapped_short_classes += strata_mapping_class (mapping, klass) != NULL;
      }
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
  self->fit_warning = describe_fit (self);
  self->mapping_id = g_strdup (strata_mapping_get_id (mapping));
  self->mapping_hash = g_strdup (strata_mapping_get_hash (mapping));
  return self;
}

/* Each method's class, name, signature and source as the mapping gives
 * them, interned in the trace's pool: what structured output shows. */
static GArray *
mapped_methods (StrataTraceNames *self,
                StrataTrace      *trace)
{
  StrataStringPool *pool = strata_trace_get_pool (trace);
  GArray *methods = g_array_sized_new (FALSE, FALSE, sizeof (StrataMethod), self->n_methods);

  for (guint m = 0; m < self->n_methods; m++)
    {
      StrataMethod method = *strata_trace_get_method (trace, m);
      const MethodParts *parts = &self->parts[m];

      if (parts->class_name != NULL)
        method.class_name = strata_string_pool_intern (pool, parts->class_name);
      if (parts->name != NULL)
        method.name = strata_string_pool_intern (pool, parts->name);
      if (parts->signature != NULL)
        method.signature = strata_string_pool_intern (pool, parts->signature);
      if (parts->source_file != NULL)
        method.source_file = strata_string_pool_intern (pool, parts->source_file);
      g_array_append_val (methods, method);
    }
  return methods;
}

void
strata_trace_names_apply (StrataTraceNames *self,
                          StrataTrace      *trace)
{
  strata_trace_rename (trace, self->methods, self->n_methods, self->classes, self->n_classes);
  strata_trace_set_mapped_methods (trace, mapped_methods (self, trace));
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

/* Returns: (nullable): why the mapping may not be this build's */
const char *
strata_trace_names_get_fit_warning (StrataTraceNames *self)
{
  return self->fit_warning;
}

/* Returns: (nullable): the mapping's id and hash as R8 wrote them */
const char *
strata_trace_names_get_mapping_id (StrataTraceNames *self)
{
  return self->mapping_id;
}

const char *
strata_trace_names_get_mapping_hash (StrataTraceNames *self)
{
  return self->mapping_hash;
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
