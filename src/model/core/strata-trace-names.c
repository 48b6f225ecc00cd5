/* strata-trace-names.c: a trace's names, as loaded or through a mapping
 *
 * A mapping renames methods, classes and heap fields; the names as loaded
 * are kept so that another mapping, or none, can be shown instead.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include "strata-mapping.h"
#include "strata-trace-object-private.h"

/**
 * strata_trace_rename:
 * @method_names: (array length=n_methods): a name to show per method,
 *   %NULL to keep its own
 * @class_names: (array length=n_classes) (nullable): a name per heap class
 *
 * Shows other names for methods and heap classes, as a deobfuscation
 * mapping gives; the trace is otherwise unchanged, so its profile, colours
 * and order stay. Only from the thread the views read names on.
 */
void
strata_trace_rename (StrataTrace  *self,
                     char        **method_names,
                     guint         n_methods,
                     char        **class_names,
                     guint         n_classes)
{
  guint n_heap = self->heap != NULL ? strata_heap_get_n_classes (self->heap) : 0;

  g_return_if_fail (STRATA_IS_TRACE (self));
  g_return_if_fail (n_methods == self->methods->len && (class_names == NULL || n_classes == n_heap));

  strata_trace_restore_names (self);
  self->loaded_method_names = g_new (guint32, MAX (n_methods, 1));
  for (guint m = 0; m < n_methods; m++)
    {
      StrataMethod *method = &g_array_index (self->methods, StrataMethod, m);

      self->loaded_method_names[m] = method->display_name;
      if (method_names[m] != NULL)
        method->display_name = strata_string_pool_intern (self->pool, method_names[m]);
    }
  self->loaded_class_names = g_new (guint32, MAX (n_heap, 1));
  for (guint c = 0; c < n_heap; c++)
    {
      StrataHeapClass *klass = strata_heap_peek_class (self->heap, c);

      self->loaded_class_names[c] = klass->name;
      if (class_names != NULL && class_names[c] != NULL)
        klass->name = strata_string_pool_intern (self->pool, class_names[c]);
    }
}

/**
 * strata_trace_set_mapped_methods:
 * @methods: (transfer full): a StrataMethod per method, its class, name,
 *   signature and source as a mapping gives them
 *
 * Kept beside the methods as loaded until strata_trace_restore_names().
 */
void
strata_trace_set_mapped_methods (StrataTrace *self,
                                 GArray      *methods)
{
  g_return_if_fail (STRATA_IS_TRACE (self));
  g_return_if_fail (methods->len == self->methods->len);

  g_clear_pointer (&self->mapped_methods, g_array_unref);
  self->mapped_methods = methods;
}

/**
 * strata_trace_get_shown_method:
 *
 * A method with the names it is shown with: through the mapping applied,
 * else as loaded (strata_trace_get_method()).
 */
const StrataMethod *
strata_trace_get_shown_method (StrataTrace *self,
                               guint32      index)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->methods->len, NULL);

  if (self->mapped_methods != NULL)
    return &g_array_index (self->mapped_methods, StrataMethod, index);
  return &g_array_index (self->methods, StrataMethod, index);
}

/* The names as loaded again, after strata_trace_rename(). */
void
strata_trace_restore_names (StrataTrace *self)
{
  g_return_if_fail (STRATA_IS_TRACE (self));

  if (self->loaded_method_names == NULL)
    return;
  for (guint m = 0; m < self->methods->len; m++)
    g_array_index (self->methods, StrataMethod, m).display_name = self->loaded_method_names[m];
  for (guint c = 0; self->heap != NULL && c < strata_heap_get_n_classes (self->heap); c++)
    strata_heap_peek_class (self->heap, c)->name = self->loaded_class_names[c];
  g_clear_pointer (&self->loaded_method_names, g_free);
  g_clear_pointer (&self->loaded_class_names, g_free);
  g_clear_pointer (&self->mapped_methods, g_array_unref);
  g_clear_pointer (&self->field_mapping, strata_mapping_free);
}

/* Takes @mapping: heap objects' fields are named by it, until
 * strata_trace_restore_names(). */
void
strata_trace_set_field_mapping (StrataTrace   *self,
                                StrataMapping *mapping)
{
  g_return_if_fail (STRATA_IS_TRACE (self));

  g_clear_pointer (&self->field_mapping, strata_mapping_free);
  self->field_mapping = mapping;
}

/**
 * strata_trace_map_field_name:
 * @klass: the class that declares the field, as the file names it
 *
 * Returns: the field's name as shown: a mapping's, or @field
 */
const char *
strata_trace_map_field_name (StrataTrace *self,
                             const char  *klass,
                             const char  *field)
{
  const char *mapped;

  if (self->field_mapping == NULL || (mapped = strata_mapping_field (self->field_mapping, klass, field)) == NULL)
    return field;
  return mapped;
}

gboolean
strata_trace_is_renamed (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), FALSE);

  return self->loaded_method_names != NULL;
}

/* The name as loaded, whatever is shown. */
const char *
strata_trace_get_loaded_method_name (StrataTrace *self,
                                     guint32      index)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self) && index < self->methods->len, "");

  if (self->loaded_method_names != NULL)
    return strata_string_pool_get (self->pool, self->loaded_method_names[index]);
  return strata_trace_get_method_name (self, index);
}

const char *
strata_trace_get_method_name (StrataTrace *self,
                              guint32      index)
{
  return strata_string_pool_get (self->pool, strata_trace_get_method (self, index)->display_name);
}
